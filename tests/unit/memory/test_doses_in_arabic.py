"""A dose in Egyptian Arabic, and a brand's dose kept as the last word on it.

Found by a new user, a pharmacist in Cairo: "الدكتور قال ماما تاخد Concor ٥ مجم بدل ١٠" (the
doctor said mama takes Concor 5 mg instead of 10) marked nothing, and went at 30 days; the
10 mg fact stayed, the only word on his mother's dose. Nor did "mama takes Concor 5mg from
today" stay: no ending names Concor a medicine.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.health_values import health_changed, health_values, in_digits, medicines_dosed
from memory.lifecycle import plan_hygiene
from memory.settings import MemorySettings
from tests.helpers.entries import one_chat

NEW_DOSE = "الدكتور قال ماما تاخد Concor ٥ مجم بدل ١٠ من النهاردة"


@pytest.mark.parametrize(
    ("text", "dose"),
    [
        (NEW_DOSE, "5mg"),
        ("ماما بتاخد Concor 10 مجم كل يوم الصبح", "10mg"),
        ("mama takes Concor 10mg every morning", "10mg"),
    ],
)
def test_a_parents_dose_in_arabic_is_read_as_in_english(text: str, dose: str) -> None:
    assert health_values(text) == {"mum's dose of concor": frozenset({dose})}


def test_arabic_digits_and_units_are_written_as_english_writes_them() -> None:
    assert in_digits("Concor ٥ مجم") == "Concor 5 mg"
    assert in_digits("ماما تاخد ١٠ ملجم") == "ماما تاخد 10 mg"


def test_the_new_dose_changes_the_old() -> None:
    assert health_changed(NEW_DOSE, "mama takes Concor 10mg every morning")


@pytest.mark.parametrize("new", [NEW_DOSE, "mama takes Concor 5mg from today"])
def test_a_brands_new_dose_stays_while_it_is_the_last_word(new: str) -> None:
    assert medicines_dosed(new) == {"concor"}
    said = one_chat(datetime(2026, 2, 1, 9, tzinfo=UTC), "mama takes Concor 10mg", new)
    later = datetime(2026, 6, 1, tzinfo=UTC)
    gone = {decision.entry.content for decision in plan_hygiene(said, MemorySettings(), later)}
    assert new not in gone

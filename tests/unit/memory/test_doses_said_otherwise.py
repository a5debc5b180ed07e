"""A dose changed in German, with the medicine first, or a parent's in Spanish.

Found by an adversary: "Mein Arzt hat Lisinopril auf 20mg erhöht" and "lisinopril up to 20mg
from today" left "I take lisinopril 10mg" in effect, and the message was deleted at 30
days; by a new user, a nurse in Madrid: "el medico le ha subido el enalapril a mi madre,
ahora toma 20mg" left "Mi madre toma enalapril 10mg cada mañana" in effect, and "my mum's
enalapril dose went up to 20mg" did not replace it either.
"""

from __future__ import annotations

import pytest

from memory.fact_values import new_value
from memory.health_values import health_values


@pytest.mark.parametrize(
    ("new", "old", "topic"),
    [
        (
            "Mein Arzt hat Lisinopril auf 20mg erhöht",
            "I take lisinopril 10mg",
            "dose of lisinopril",
        ),
        ("lisinopril up to 20mg from today", "I take lisinopril 10mg", "dose of lisinopril"),
        # A new user, an electrician: back down, in German.
        (
            "Metformin wieder runter auf 500 mg morgens",
            "Ich nehme Metformin 1000 mg zweimal taeglich",
            "dose of metformin",
        ),
        (
            "el medico le ha subido el enalapril a mi madre, ahora toma 20mg",
            "Mi madre toma enalapril 10mg cada mañana para la tension",
            "mum's dose of enalapril",
        ),
        (
            "my mum's enalapril dose went up to 20mg",
            "Mi madre toma enalapril 10mg cada mañana",
            "mum's dose of enalapril",
        ),
        (
            "Mi madre toma 20 mg de enalapril",
            "my mum takes enalapril 10mg",
            "mum's dose of enalapril",
        ),
    ],
)
def test_the_new_dose_replaces_the_old(new: str, old: str, topic: str) -> None:
    assert topic in health_values(new) and topic in health_values(old)
    assert new_value(new, old)


@pytest.mark.parametrize(
    "text", ["Paracetamol up to 4 doses a day", "Temperature up to 38", "Mein Arzt hat Zeit"]
)
def test_no_dose_where_none_is_said(text: str) -> None:
    assert not health_values(text)

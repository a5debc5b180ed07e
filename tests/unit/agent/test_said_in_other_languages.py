"""A dose and an invoice's payment said in German or Spanish update the facts they change.

Found by a new user, an electrician in Hamburg: "Dr. Hansen hat mein Metformin auf 1000 mg
zweimal taeglich erhoeht" and "Herr Yilmaz hat die Rechnung 2027-031 heute bezahlt" left
the 500 mg dose and the "noch offen" invoice in effect, unmarked; thirty days later the
messages were deleted, and the old dose and the open invoice were all memchat knew.
"""

from __future__ import annotations

import pytest

from tests.unit.agent.conftest import Harness


@pytest.mark.parametrize(
    ("fact", "said", "now"),
    [
        # A dose alone changed is written into the fact, which keeps its other words.
        (
            "Ich nehme Metformin 500 mg zweimal taeglich",
            "Dr. Hansen hat mein Metformin auf 1000 mg zweimal taeglich erhoeht",
            "Ich nehme Metformin 1000 mg zweimal taeglich",
        ),
        (
            "Ich nehme Ramipril 5 mg einmal taeglich",
            "Meine Ramipril-Dosis wurde auf 10 mg erhöht",
            "Ich nehme Ramipril 10 mg einmal taeglich",
        ),
        (
            "Ich nehme Ramipril 5 mg einmal taeglich",
            "Ramipril ist jetzt 10 mg einmal taeglich",
            "Ich nehme Ramipril 10 mg einmal taeglich",
        ),
        # A later adversary: in Spanish, the user's and a parent's, and in German tersely.
        (
            "I take metformin 500mg twice a day",
            "El médico me ha subido la metformina a 850mg",
            "I take metformin 850mg twice a day",
        ),
        (
            "My mother takes Sintrom 4mg",
            "A mi madre le han bajado el Sintrom a 2mg",
            "A mi madre le han bajado el Sintrom a 2mg",
        ),
        ("Mum takes warfarin 5mg", "mi madre ahora toma 3mg de warfarina", None),
        ("I take ramipril 5mg daily", "Ramipril jetzt 10 mg", "I take ramipril 10 mg daily"),
        (
            "Rechnung Nr. 2027-031 an Herrn Yilmaz ueber 1.250,00 Euro ist noch offen",
            "Herr Yilmaz hat die Rechnung 2027-031 heute bezahlt, 1.250 Euro eingegangen",
            None,
        ),
    ],
)
async def test_the_message_updates_the_fact(
    harness: Harness, fact: str, said: str, now: str | None
) -> None:
    await harness.memory.store("fact", fact, "core")
    harness.model.add("Gut.")
    await harness.turn(said)
    updated = await harness.memory.get("fact")
    assert updated is not None and updated.content == (now or said[:1].upper() + said[1:])

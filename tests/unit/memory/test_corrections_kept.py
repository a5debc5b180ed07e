"""Retention keeps a correction as long as what it puts right, in any wording it is said in.

Found by an adversary: "ach nein, es ist der 21., nicht der 14." went at 30 days and "Zahnarzt
am 14. Mai", kept for its day, gave the 14th again; so did a move to a weekday, a second
move, a corrected phone number and a corrected dose.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.corrections import corrects_the_last, names_a_day, the_ones_corrected
from memory.entry import MemoryEntry
from memory.event_days import moves_it
from memory.lifecycle import plan_hygiene
from memory.settings import MemorySettings
from tests.helpers.entries import one_chat

SAID = datetime(2026, 1, 5, 9, tzinfo=UTC)
CHECKED = datetime(2026, 2, 10, 9, tzinfo=UTC)


def _chat(*messages: str) -> list[MemoryEntry]:
    return one_chat(SAID, *messages)


def _gone(entries: list[MemoryEntry], now: datetime = CHECKED) -> list[str]:
    return [d.entry.content for d in plan_hygiene(entries, MemorySettings(), now)]


@pytest.mark.parametrize(
    ("event", "correction"),
    [
        ("Tandarts op vrijdag 4 juni", "nee wacht, het is de 11e niet de 4e"),
        ("Zahnarzt am 14. Mai", "ach nein, es ist der 21., nicht der 14."),
        ("La cita con el médico es el 20 de mayo", "perdón, es el 22, no el 20"),
        ("Consulta no dia 10 de junho", "aliás, é dia 12 e não dia 10"),
        ("Meeting with Ana on 10/3", "meeting with Ana pushed to Thursday"),
        ("Kapper op 20 maart", "kapper verzet naar dinsdag"),
        ("the plumber is Gerry, 087 123 4567", "sorry typo, Gerry's number ends in 4568"),
    ],
)
def test_a_correction_stays_while_what_it_corrects_does(event: str, correction: str) -> None:
    assert _gone(_chat(event, correction)) == []
    assert corrects_the_last(correction) or moves_it(correction, event)


def test_a_second_move_stays_while_the_first_does() -> None:
    physio = _chat(
        "Physio on 10/3", "Physio moved to 17/3", "physio moved again, now it's the 24th"
    )
    assert _gone(physio) == []


def test_a_corrected_dose_is_the_newest_word_on_the_medicine() -> None:
    """ "oops I meant 15mg not 20mg" names no medicine: it is read with what it corrects,
    and both stay while they are the newest word; the dose before them goes."""
    lisinopril = _chat(
        "I take 10mg of lisinopril", "lisinopril went up to 20mg", "oops I meant 15mg not 20mg"
    )
    assert _gone(lisinopril) == ["I take 10mg of lisinopril"]
    assert _gone(_chat("I take sertraline 50mg", "actually it's 100mg, not 50")) == []
    # A later dose said plainly takes the place of both.
    later = _chat("I take sertraline 50mg", "actually it's 100mg, not 50", "sertraline now 150mg")
    assert _gone(later) == ["I take sertraline 50mg", "actually it's 100mg, not 50"]


def test_a_correction_of_what_goes_goes_with_it() -> None:
    assert _gone(_chat("lunch with Ana at the Thai place", "sorry, 1pm not 12")) == [
        "lunch with Ana at the Thai place",
        "sorry, 1pm not 12",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "actually 2 of them, not 3",
        "no 5 is not enough",
        "no, the 5 year plan is not ready",
        "sorry I was late",
        "no, I don't want 2 of them",
    ],
)
def test_what_only_starts_with_no_or_sorry_corrects_nothing(text: str) -> None:
    assert not corrects_the_last(text)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("het is de 11e niet de 4e", True),
        ("es ist der 21., nicht der 14.", True),
        ("es el 22, no el 20", True),
        ("é dia 12", True),
        ("el 22.5 por ciento", False),
        ("der 21.5", False),
    ],
)
def test_a_day_of_the_month_said_alone_in_other_languages(text: str, named: bool) -> None:
    assert names_a_day(text) is named


def test_a_chain_of_dose_corrections_keeps_its_last_word_and_the_medicine() -> None:
    """A second adversary: of "I take lisinopril 10mg", "sorry typo, 20mg", "oops I meant
    10mg after all", "no wait, 20mg. final answer", only the last went at 30 days, and 10mg
    was the answer. The last word stays, with the chain back to the medicine it is of."""
    chain = _chat(
        "I take lisinopril 10mg",
        "sorry typo, 20mg",
        "oops I meant 10mg after all",
        "no wait, 20mg. final answer",
    )
    assert _gone(chain) == [] and corrects_the_last("no wait, 20mg. final answer")
    assert _gone(chain, CHECKED + timedelta(days=400)) == []


def test_a_fact_put_right_in_words_keeps_its_correction() -> None:
    """A second adversary: "no wait, it's under the red pot" went at 30 days, and the blue
    pot stayed; so did "no wait, it's 24" after the locker's 42."""
    key = _chat("x")[0].model_copy(
        update={"id": "f", "content": "The spare key is under the blue pot", "category": "core"}
    )
    said = _chat("y", "no wait, it's under the red pot")[1]
    assert _gone([key, said]) == []
    locker = key.model_copy(update={"content": "My gym locker is number 42"})
    assert _gone([locker, _chat("y", "no wait, it's 24")[1]]) == []
    assert not corrects_the_last("no, it's fine") and not corrects_the_last("actually it's fine")


@pytest.mark.parametrize(
    ("said", "correction"),
    [
        ("Parking permit renewal is due 30/1", "sorry, I meant 30/3"),
        ("The water bill of 84.20 is due 25/1", "no wait, it's due the 25th of March"),
    ],
)
def test_what_a_correction_kept_for_its_day_puts_right_stays_with_it(
    said: str, correction: str
) -> None:
    """Found by an adversary: the message went at 30 days and its correction, kept for the
    day it gives, said nothing alone of the permit or the bill."""
    chat = _chat(said, correction, "what should I cook tonight")
    assert _gone(chat) == ["what should I cook tonight"]
    assert len(_gone(chat, datetime(2026, 4, 10, 9, tzinfo=UTC))) == 3  # all, once it has come


@pytest.mark.parametrize(
    ("messages", "corrected"),
    [
        # An adversary: the eggs were marked, the lunch left as it was.
        (["Team lunch on the 12th", "I have 12 eggs left in the fridge"], "Team lunch on the 12th"),
        (["Book club is on the 12th", "Gym induction on the 19th"], "Book club is on the 12th"),
        (
            ["Quiz night at 8pm on Friday", "Ada's flight lands at 9pm"],
            "Quiz night at 8pm on Friday",
        ),
    ],
)
def test_a_correction_naming_the_old_value_puts_right_the_message_holding_it(
    messages: list[str], corrected: str
) -> None:
    said = [
        *messages,
        "no it's the 14th not the 12th" if "12th" in corrected else "sorry, 7pm not 8pm",
    ]
    chat = _chat(*said)
    by_id = {entry.id: entry.content for entry in chat}
    assert {by_id[after]: by_id[before] for after, before in the_ones_corrected(chat).items()} == {
        said[-1]: corrected
    }


def test_a_correction_puts_right_the_nearest_message_it_fits_not_the_one_just_before() -> None:
    """Found by an adversary: one message between the permit and "sorry, I meant 30/4", and
    the shopping note was marked changed and kept, and the permit went before its day."""
    chat = _chat(
        "Parking permit renewal is due 30/3",
        "also need to buy milk and bread",
        "sorry, I meant 30/4",
    )
    permit, shopping, correction = chat
    assert the_ones_corrected(chat) == {correction.id: permit.id}
    assert _gone(chat, datetime(2026, 4, 10, 9, tzinfo=UTC)) == [shopping.content]


def test_a_correction_naming_a_day_puts_right_no_message_naming_none() -> None:
    chat = _chat("also need to buy milk and bread", "sorry, I meant 30/4")
    assert the_ones_corrected(chat) == {}


@pytest.mark.parametrize(
    ("event", "correction"),
    [
        # A new user, a student in Bengaluru: the correction went at 30 days, the wrong
        # deadline stayed.
        ("Amazon internship ka deadline 15th Feb hai", "nahi, 15th nahi, 18th hai"),
        # A new user, a baker in Guadalajara: the Saturday stayed unmarked.
        (
            "el pedido de Doña Carmen: 3 pasteles para el sábado 14 de febrero",
            "no, el pastel de Doña Carmen es para el domingo, no el sábado",
        ),
        ("Landlord meeting on Tuesday 17/2 at 10", "sorry, not Tuesday, Thursday"),
    ],
)
def test_a_day_it_is_not_said_after_a_word_of_sorry_is_a_correction(
    event: str, correction: str
) -> None:
    chat = _chat(event, "remind me to pay the electricity bill", correction)
    said, between, corrects = chat
    assert corrects_the_last(correction)
    assert the_ones_corrected(chat) == {corrects.id: said.id}
    assert _gone(chat) == [between.content], "both stay until the day, not 30 days"


@pytest.mark.parametrize(
    ("corrected", "between", "correction"),
    [
        # An adversary: each correction put right the message between, not the one before.
        (
            "vet appointment for Bruno at 4pm on Friday",
            "bought 2 bags of dog food",
            "sorry I meant 5pm",
        ),
        ("Rent is 1450 a month", "Dentist on 12/4 at 10:30", "sorry, I meant 1500"),
        ("party on 3/5", "the weather is nice today, 24 degrees", "sorry, I meant 4/5"),
        (
            "Parking permit renewal is due 30/3",
            "Call with Sam at 3pm tomorrow",
            "sorry, I meant 30/4",
        ),
        ("Bhaiya ka birthday 12 June hai", "ok", "nahi, 12 nahi, 14 hai"),
        # A later adversary: a sum with its currency, of about as many digits; no question.
        (
            "Pay the plumber £250 on Friday",
            "it's 2 degrees outside, freezing",
            "sorry, I meant £300",
        ),
        ("Rent is 1200 a month from June", "I have 2 kids and 3 cats lol", "sorry, I meant 1500"),
        ("Rent is 1200 a month", "Mum's flat number is 42", "sorry, I meant 1500"),
        ("Flight to Delhi on 28/5", "what's 3/4 of 20?", "sorry, I meant 30/5"),
    ],
)
def test_a_correction_puts_right_a_value_of_its_kind(
    corrected: str, between: str, correction: str
) -> None:
    chat = _chat(corrected, between, correction)
    assert the_ones_corrected(chat) == {chat[2].id: chat[0].id}

"""Events moved, called off, or one time of an event that recurs."""

from __future__ import annotations

import pytest

from memory.event_days import MOVED_OR_CALLED_OFF, cancels_it, moves_it, one_time_of


@pytest.mark.parametrize(
    ("new", "old"),
    [
        # A new user, a nurse, and a fourth adversary: each left the event unmarked.
        ("aoife swimming cancelled til january, coach is sick", "Aoife has swimming every Tuesday"),
        (
            "rorys speech therapy on the 17th cancelled, therapist sick",
            "Rorys speech therapy on 17/12",
        ),
        ("haircut is off", "Haircut on 12/12 at 10"),
        ("haircut is off", "Haircut on Friday 11/12 at 2pm"),
        ("Dentist cancelled", "Dentist on 14/1 at 3pm"),
        # A new user, a baker: who called off what.
        (
            "dalys cancelled the communion cake, going with a shop one. grand",
            "New order Daly: communion cake for Ella, due 9/5, €90",
        ),
        # A new user, a photographer: two of them.
        (
            "Sofia and Marco cancelled their wedding",
            "Sofia & Marco wedding 12 June 2027 at Dalhousie Castle, £400 deposit paid",
        ),
        ("Aoife & Ben have cancelled the shoot, sadly", "Aoife & Ben engagement shoot on 3 April"),
        # A new user, a retired nurse: the day called off said after it.
        (
            "eye hospital cancelled the 14th, theyll send a new date in march",
            "eye appointment at the hospital on the 14th of January at 10.30",
        ),
    ],
)
def test_a_call_off_in_other_words(new: str, old: str) -> None:
    assert cancels_it(new, old)
    # Its words are among those a call-off is looked for by: the chat's "since changed"
    # reads the newest messages holding one (`agent.since_changed`).
    assert MOVED_OR_CALLED_OFF.search(new)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("rorys speech therapy on the 17th cancelled", "Rorys speech therapy on 24/12 at 4"),
        ("the heating is off", "Heating service on 14/1"),
        ("I'm off to the dentist", "Dentist on 14/1 at 3pm"),
        ("Piano lesson cancelled last week because of snow", "Piano lesson on 9/12 at 5pm"),
        ("dalys cancelled the communion cake", "New order Kelly: christening cake due 20/12"),
        ("Tom cancelled his gym membership", "Dentist on 14/1 at 3pm"),
        ("eye hospital cancelled the 21st", "eye appointment at the hospital on the 14th"),
        (
            "Sofia and Marco cancelled their wedding",
            "Lauren & Priya wedding 3 July 2027, Gleneagles",
        ),
    ],
)
def test_no_call_off_of_that_event(new: str, old: str) -> None:
    assert not cancels_it(new, old)


def test_a_move_said_after_who_rang_is_of_their_appointment() -> None:
    """Found by a new user, a retired nurse: "the dentist rang, moved me to the 21st at
    3pm" left "dentist with Dr Byrne tuesday at 3" unmarked."""
    assert moves_it("the dentist rang, moved me to the 21st at 3pm", "dentist tuesday at 3")
    assert not moves_it("the vet rang, moved me to the 21st at 3pm", "dentist tuesday at 3")


def test_a_move_to_a_month() -> None:
    """A fourth adversary: "Eye test postponed until January" left the eye test unmarked."""
    assert moves_it("Eye test postponed until January", "Eye test on 15/12 at 2pm")
    assert moves_it("Dentist delayed until 21/1", "Dentist on 14/1 at 9")


def test_a_move_of_what_was_named_before_it_and_a_new_due_day() -> None:
    """A new user, a translator: "oh wait, the munich contract — actually they pushed it to
    the 21st" left the deadline unmarked, and "… is now due 28 Jan" stood beside "… moved
    to 21 Jan"."""
    due = "Munich law firm (Kanzlei Berger & Roth) contract translation is due 14 Jan"
    assert moves_it("oh wait, the munich contract — actually they pushed it to the 21st", due)
    assert moves_it("the munich contract, they moved it to 20 Jan", due)
    assert not moves_it("the lyon job — they pushed it to the 21st", due)
    moved = "Munich contract translation moved to 21 Jan"
    assert moves_it("the Munich contract translation is now due 28 Jan", moved)
    assert not moves_it("the Lyon glossary is now due 28 Jan", moved)


def test_one_time_of_an_event_that_recurs() -> None:
    """A new user: a one-off move replaced the fortnightly schedule."""
    schedule = "Rory speech therapy every other wed at 3.30"
    assert one_time_of("Rorys speech therapy moved to thurs 17/12 at 4", schedule)
    assert one_time_of("speech therapy cancelled this week", schedule)
    assert not one_time_of("Speech therapy moved to Thursdays", schedule)
    assert not one_time_of("Speech therapy is now with Ms Byrne", schedule)
    assert not one_time_of("Speech therapy moved to 17/12", "Speech therapy on 16/12")


def test_a_job_moved_names_the_booking_that_says_no_job() -> None:
    """Found by a new user, a plumber: "patel job moved to thurs 10th …" marked the parts
    ordered "for patel job", not "mrs patel … booked tues 8th"; "job" names any booking."""
    moved = "patel job moved to thurs 10th 9am cos diverter valve not in till wed"
    assert moves_it(moved, "mrs patel combi swap, 14 elm rd, booked tues 8th 9am")
    assert not moves_it(moved, "mr henderson boiler service booked tues 8th 2pm")


THESIS = (
    "Thesis deadlines: chapter 2 (methods) due to Prof. Duarte on 15 January 2027; "
    "chapter 3 (seagrass results) due end of March 2027"
)


@pytest.mark.parametrize(
    ("new", "old", "moved"),
    [
        # A new user, a biologist: a meeting with someone moved nothing else of theirs, and
        # a move to the days an event holds is the same said again.
        ("My meetings with prof. duarte are now on thursdays at 14h", THESIS, False),
        (
            "My meetings with prof. duarte are now on thursdays at 14h",
            "ugh actually the meeting with duarte moved to thursdays at 14h from now on",
            False,
        ),
        ("Meeting with Anna moved to 12/12", "Meeting with Anna on 10/12 at 10am", True),
        ("Dentist moved to 21/1", "Dentist on 14/1 at 3pm", True),
    ],
)
def test_a_move_names_the_event_it_moves(new: str, old: str, moved: bool) -> None:
    assert moves_it(new, old) is moved


def test_a_compound_naming_the_appointment_moves_the_event_it_begins_with() -> None:
    """Found by an adversary: "Der Zahnarzttermin wurde auf den 21. Januar verschoben" left
    "Zahnarzt am 14. Januar um 9 Uhr" in effect and unmarked."""
    old = "Zahnarzt am 14. Januar um 9 Uhr"
    assert moves_it("Der Zahnarzttermin wurde auf den 21. Januar verschoben", old)
    assert not moves_it("Der Friseurtermin wurde auf den 21. Januar verschoben", old)

"""A value said to change from a day to come, and the day it takes effect."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from memory.changes_to_come import a_change_to_come, first_day_of_change

SAID = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)  # a Saturday


@pytest.mark.parametrize(
    "text",
    [
        "rent on flat 1 is going up to 1520 from february",
        "Rent costs 1520 starting 1/1",
        "salary rises to 55k in April",
        "From Monday I take 20mg lisinopril",
        "I start at Google in January",
        "Breda's rate goes up to 14 an hour from January",
        "As of next month the gym costs 45",
        "The bus pass will cost 60 from the new year",
        # A fourth adversary.
        "Rent rises to 1520 as of 1/2/2027",
        "Starting next month rent is 1520",
        "rent increase to 1520 effective 01.02.2027",
        "New rent from Jan 1st: 1520",
        "gym fee is 45 starting next month",
        "parking fee is 65 as of 1/2/2027",
        # A fifth adversary.
        "From 28 December I take 20mg of omeprazole",
        "Rent is 1450 from Dec 28th",
        "Ab Januar zahle ich 950 Euro Miete",
        "A partir de enero el alquiler sube a 1520",
        "À partir de janvier le loyer est 900",
        # A sixth adversary: each replaced the dose or rent now.
        "I take 20mg of lisinopril after Christmas",
        "Next week I take 20mg of lisinopril",
        "Form 28 december I take 12mg of warfarin",
        "Da gennaio il mio affitto è 650 euro",
        "Starting the twenty-eighth of December my rent is 1450",
    ],
)
def test_a_change_to_come(text: str) -> None:
    assert a_change_to_come(text)


@pytest.mark.parametrize(
    "text",
    [
        "Rent is 1450 a month",
        "I work from Monday to Friday",
        "Open from Monday till Saturday, 9 to 5",
        "From Monday I was on nights",
        "Salary rose to 55k in April",
        "I started at Google in January",
        "Photos from the party",
        "the price went up to 12 last week",
        "Got a new phone in January",
        "I was in Porto from May to June",
        "From January to March I worked at Acme",
        "I am from Madrid and I take 10mg",
        "I went there after Christmas",
        "Next week is busy",
    ],
)
def test_no_change_to_come(text: str) -> None:
    assert not a_change_to_come(text)


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("rent on flat 1 is going up to 1520 from february", date(2027, 2, 1)),
        ("From Monday I take 20mg lisinopril", date(2026, 12, 7)),
        ("Rent goes up to 1520 from 1 March 2027", date(2027, 3, 1)),
        ("Rent costs 1520 starting 1/1", date(2027, 1, 1)),
        ("Rent costs 1520 starting next term", None),
        # A fifth adversary: the 20th, not December's first; a day first; the day nearest
        # the day said ("from 1/11" on 5 December took effect on 1 November).
        ("From 20/12 rent is 1450", date(2026, 12, 20)),
        ("rent is 1450 from 1/11", date(2026, 11, 1)),
        ("from 1/2 rent is 900", date(2027, 2, 1)),
        ("from 1/11/2026 rent is 1450", date(2026, 11, 1)),
        ("Rent is 1450 from Dec 28th", date(2026, 12, 28)),
        ("Ab Januar zahle ich 950 Euro Miete", date(2027, 1, 1)),
        ("rent rises to 1600 from March 2027", date(2027, 3, 1)),
        # A new user: the day the landlord wrote is not the day the rent goes up.
        ("The rent goes up to 16 500 Kč from June, Mr. Dvořák emailed today", date(2027, 6, 1)),
        ("From Monday I take 20mg, the GP rang yesterday", date(2026, 12, 7)),
        # An adversary: a weekday said beside, not after the word of a start.
        ("The landlord wrote on Friday, from June the rent is 1520", date(2027, 6, 1)),
        ("From Friday's email: the rent goes up to 1520 from June", date(2027, 6, 1)),
        ("the GP said from Monday I take 20mg, she rang on Friday", date(2026, 12, 7)),
        ("my lisinopril goes up to 20mg from next week", date(2026, 12, 7)),
        ("rent goes up to 1600 starting next month", date(2027, 1, 1)),
    ],
)
def test_the_day_a_change_takes_effect(text: str, first: date | None) -> None:
    assert first_day_of_change(text, SAID) == first

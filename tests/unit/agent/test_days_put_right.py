"""A fact putting a day right is read in the month of the fact it replaced."""

from __future__ import annotations

from datetime import UTC, datetime

from memory.write_rules import NewMemory
from tests.unit.agent.conftest import Harness


def _shown(harness: Harness) -> str:
    return harness.model.requests[-1].messages[-1].content


async def _fact(harness: Harness, key: str, content: str, written: datetime) -> None:
    await harness.memory.write(NewMemory(key=key, content=content, created_at=written))


async def test_a_day_put_right_keeps_the_month_and_names_the_fact_replaced(
    harness: Harness,
) -> None:
    """Found by an adversary: "Dentist appointment on March 18 at 10am", then "/remember
    Dentist is on the 19th, not the 18th": the model was shown the 19th of December, and
    neither the month nor the time it had been told."""
    harness.model.add("ok", "ok", "ok")
    await harness.turn("/remember Dentist appointment on March 18 at 10am")
    await harness.turn("/remember Dentist is on the 19th, not the 18th")
    await harness.turn("when is the dentist?")
    line = next(line for line in _shown(harness).splitlines() if "19th" in line)
    assert 'puts right "Dentist appointment on March 18 at 10am"' in line
    assert "-03-19" in line and "-12-19" not in line


async def test_the_day_is_the_nearest_of_its_number(harness: Harness) -> None:
    """A day at the end of a month put right by one at the start of the next."""
    await _fact(harness, "flight", "Flight to Oslo on 30 January", datetime(2027, 1, 5, tzinfo=UTC))
    put_right = "Flight to Oslo is on the 2nd, not the 30th"
    await _fact(harness, "flight", put_right, datetime(2027, 1, 6, tzinfo=UTC))
    harness.model.add("ok")
    await harness.turn("when is my flight to Oslo?")
    line = next(line for line in _shown(harness).splitlines() if "the 2nd" in line)
    assert 'puts right "Flight to Oslo on 30 January"' in line
    assert "Tue 2027-02-02" in line


async def test_a_day_alone_replacing_nothing_is_read_from_when_it_was_said(
    harness: Harness,
) -> None:
    await _fact(harness, "haircut", "Haircut on the 14th", datetime(2026, 11, 2, tzinfo=UTC))
    harness.model.add("ok")
    await harness.turn("when is the haircut?")
    line = next(line for line in _shown(harness).splitlines() if "14th" in line)
    assert "puts right" not in line and "2026-11-14" in line


async def test_a_replaced_fact_naming_no_day_is_not_told(harness: Harness) -> None:
    await _fact(harness, "gym", "Gym class with Ana", datetime(2026, 11, 2, tzinfo=UTC))
    await _fact(harness, "gym", "Gym class with Ana on the 14th", datetime(2026, 11, 3, tzinfo=UTC))
    harness.model.add("ok")
    await harness.turn("when is the gym class?")
    line = next(line for line in _shown(harness).splitlines() if "14th" in line)
    assert "puts right" not in line and "2026-11-14" in line


async def test_a_second_correction_is_read_in_the_month_of_the_first(harness: Harness) -> None:
    """Found by an adversary: March 18, then "19th, not the 18th", then "20th, not the
    19th" was read as 20 December."""
    harness.model.add("ok", "ok", "ok", "ok")
    await harness.turn("/remember Dentist appointment on March 18 at 10am")
    await harness.turn("/remember Dentist is on the 19th, not the 18th")
    await harness.turn("/remember Dentist is on the 20th, not the 19th")
    await harness.turn("when is the dentist?")
    line = next(line for line in _shown(harness).splitlines() if "20th" in line)
    assert "-03-20" in line and "-12-20" not in line


async def test_the_fact_put_right_is_shown_without_its_secret(harness: Harness) -> None:
    """Found by an adversary: the replaced fact's door code was shown in clear, and a quote
    in it ended the line's details."""
    harness.model.add("ok", "ok", "ok")
    await harness.turn('/remember Dentist on March 18 at 10am, "the clinic door code is 4821"')
    await harness.turn("/remember Dentist is on the 19th, not the 18th")
    await harness.turn("when is the dentist?")
    line = next(line for line in _shown(harness).splitlines() if "19th" in line)
    assert "4821" not in line and '\\"the clinic door code' in line

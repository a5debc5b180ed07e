"""What comes next is asked of the days a message names, not of how long it is kept."""

from __future__ import annotations

from datetime import UTC, date, datetime

from memory.days_gone import names_a_day_to_come, upcoming_first
from tests.helpers.entries import written_entry

DECEMBER = written_entry(
    "conversation/s1/m1",
    "Hi! I'm Linh, night-shift nurse in Melbourne. My roster this fortnight: night shift Fri "
    "11/12 19:00-07:30, Sat 12/12 19:00-07:30, Wed 16/12 19:00-07:30",
    "conversation",
    datetime(2026, 12, 8, 10, tzinfo=UTC),
)
FEBRUARY = written_entry(
    "conversation/s9/m1",
    "Feb roster:\nMon 8/2\tNight\t19:00-07:30\nThu 11/2\tNight\t19:00-07:30",
    "conversation",
    datetime(2027, 2, 3, 10, tzinfo=UTC),
)


def test_a_roster_gone_by_comes_after_the_one_to_come() -> None:
    """Found by a new user, a nurse: her first message, kept ten years as her own details
    and read month first ("Fri 11/12" as 12 November 2027), came before February's roster
    for "when's my next night shift?" in February."""
    now = datetime(2027, 2, 10, 9, tzinfo=UTC)
    ordered = upcoming_first("when's my next night shift?", [DECEMBER, FEBRUARY], now)
    assert ordered == [FEBRUARY, DECEMBER]
    # Retention still keeps it as her own details, and for a day it may mean.
    assert names_a_day_to_come(DECEMBER, date(2027, 2, 10))

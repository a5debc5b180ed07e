"""What migration 0029 reads anew: a change to come from a month named without its year,
and "wk" and "tomoz" typed short.

Found by a new user, an allotment's secretary: "the committee agreed the fee goes up to €45
from January", said in December, was indexed as January of any year, so "how much is the
fee for next year?" found it no better than a birthday or a delivery dated next year.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.changes_to_come import first_day_of_change
from memory.entry import utc_now
from memory.month_to_come import month_to_come_terms
from memory.postgres.schema import MONTHS_TO_COME_READ
from memory.protocol import Memory
from memory.read_anew import months_to_come_read
from memory.text import entry_terms, query_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

FEE = "the committee agreed the fee goes up to €45 from January, concession up to €30"
DECEMBER = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)


def test_a_month_a_change_takes_effect_from_has_the_year_it_means() -> None:
    dated = [term for term in entry_terms("k", FEE, DECEMBER) if term.startswith("dt")]
    assert dated == ["dtm01", "dtym202701", "dty2027"]
    assert "dtym202702" in entry_terms("k", "my rent goes up in February", DECEMBER)
    # Said with its year, or of no change: as before.
    assert month_to_come_terms("rent goes up in March 2028", DECEMBER, ["dtym202803"]) == []
    assert [t for t in entry_terms("k", "I was born in March", DECEMBER) if "2027" in t] == []
    assert months_to_come_read(FEE) and not months_to_come_read("I was born in March")
    assert not months_to_come_read("the fee goes up next week")


def test_a_week_and_tomorrow_typed_short_name_their_days() -> None:
    """Found by a new user, a plumber: "what have i got next wk" asked for no day, and "wk"
    and "tomoz" are how he types them."""
    assert query_terms("what have i got next wk") == query_terms("what have i got next week")
    tomoz = [t for t in entry_terms("k", "boiler svc tomoz 9am", DECEMBER) if t.startswith("dt")]
    assert "dtd20261206" in tomoz
    assert months_to_come_read("boiler svc tomoz") and months_to_come_read("jobs this wk")
    assert not months_to_come_read("awkward week")


def _year() -> int:
    """The year "from January" means said now (the test runs on any day)."""
    first = first_day_of_change(FEE, utc_now())
    assert first is not None
    return first.year


async def _store(store: Memory) -> None:
    await store.store("fee", FEE, "core")
    await store.store("cat", "My cat is called Tom", "core")


async def _fee_found_whole(store: Memory) -> bool:
    """Asked for the fee in that year, the change holds both: a whole match."""
    found = (await store.recall(f"how much is the fee in {_year()}?")).entries
    return any(entry.key == "fee" and entry.score == 1.0 for entry in found)


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the change: its month of any year alone."""
    year = f"dty{_year()}"
    assert year in terms
    return [term for term in terms if term != year and not term.startswith("dtym")]


async def test_a_sqlite_store_indexed_before_finds_the_change_by_its_year(tmp_path: Path) -> None:
    async with sqlite_as_before(
        tmp_path, _store, "fee", _older, "0029_months_to_come_read"
    ) as again:
        assert await _fee_found_whole(again)


async def test_a_postgres_store_indexed_before_finds_the_change_by_its_year(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _store, "fee", _older, MONTHS_TO_COME_READ
    ) as again:
        assert await _fee_found_whole(again)

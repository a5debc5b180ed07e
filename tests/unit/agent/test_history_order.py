"""`memchat memory history` lists the version in effect first, then each version after
the one that replaced it, whatever their times say."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agent.cli.history_commands import newest_first
from memory.entry import MemoryEntry

_DAY = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


def _version(entry_id: str, replaced_by: str | None, minutes: int) -> MemoryEntry:
    at = _DAY + timedelta(minutes=minutes)
    return MemoryEntry(
        id=entry_id,
        key="dose",
        content=f"version {entry_id}",
        timestamp=at,
        updated_at=at,
        superseded_by=replaced_by,
    )


def test_a_replaced_version_written_later_still_comes_after_what_replaced_it() -> None:
    """Found by a new user: after a migrate, the replaced "10mg" (its row written again
    later) was listed above the "20mg" in effect under "newest first"."""
    chain = [
        _version("c", None, minutes=1),  # in effect
        _version("b", "c", minutes=5),  # replaced by c, written again after it
        _version("a", "b", minutes=9),
    ]
    assert [entry.id for entry in newest_first(chain)] == ["c", "b", "a"]


def test_versions_as_far_from_the_one_in_effect_go_most_recent_first() -> None:
    chain = [_version("old", "now", 1), _version("now", None, 2), _version("newer", "now", 3)]
    assert [entry.id for entry in newest_first(chain)] == ["now", "newer", "old"]


def test_an_imported_chain_that_loops_is_listed_once_each() -> None:
    chain = [_version("x", "y", 1), _version("y", "x", 2), _version("z", None, 3)]
    assert sorted(entry.id for entry in newest_first(chain)) == ["x", "y", "z"]
    assert newest_first(chain)[0].id == "z"

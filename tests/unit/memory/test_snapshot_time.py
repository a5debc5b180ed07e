"""The snapshot file says its time where the user is, as the app does."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from memory.snapshot import render_snapshot


def test_the_snapshot_says_when_in_the_users_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by a new user in Tokyo: MEMORY_SNAPSHOT.md said "as of … 01:33 UTC" while
    every time in the app was JST."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        text = render_snapshot([], datetime(2026, 12, 5, 1, 33, tzinfo=UTC))
        assert "Core memories as of 2026-12-05 10:33 JST." in text
    finally:
        monkeypatch.undo()
        time.tzset()

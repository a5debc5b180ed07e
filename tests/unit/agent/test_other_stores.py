"""An erase names the other backends' stores in the data folder that hold the text."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from agent.erasing import other_stores_holding


def _folder(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    (data / "qdrant-edge" / "memchat" / "wal").mkdir(parents=True)
    # A secret split across the reading pieces' edge is still found.
    (data / "qdrant-edge" / "memchat" / "wal" / "open-1").write_bytes(
        b"\x00" * ((1 << 20) - 5) + b"locker tiger-9931\x00"
    )
    conn = sqlite3.connect(data / "brain.db")
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.execute("INSERT INTO t VALUES ('my locker code is tiger-9931')")
    conn.commit()
    conn.close()
    return data


def test_each_other_store_holding_the_text_is_named_not_the_own(tmp_path: Path) -> None:
    data = _folder(tmp_path)
    (data / "brain.db-wal").write_bytes(b"page: my locker code is tiger-9931")
    named = other_stores_holding(data, ["tiger-9931"], own_store=data / "brain.db")
    assert named == [data / "qdrant-edge"]  # not this store's own write-ahead log
    from_qdrant = other_stores_holding(data, ["tiger-9931"], data / "qdrant-edge" / "memchat")
    assert from_qdrant == [data / "brain.db"]
    assert other_stores_holding(data, ["nothing like it"], None) == []

"""Where exports were written, noted so that an erase can name them (agent.export_log)."""

from __future__ import annotations

import threading
from pathlib import Path

from agent.export_log import note_export, noted_exports


def test_exports_noted_at_once_are_all_noted(tmp_path: Path) -> None:
    """Found by an adversary: 24 exports run together left 21 lines in the note."""
    data = tmp_path / "data"
    data.mkdir()
    targets = [tmp_path / f"p{number}.jsonl" for number in range(24)]
    for target in targets:
        target.write_text("{}\n", encoding="utf-8")
    threads = [threading.Thread(target=note_export, args=(data, t)) for t in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(noted_exports(data)) == sorted(targets)


def test_a_noted_export_whose_file_is_gone_is_dropped(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    kept, gone = tmp_path / "kept.jsonl", tmp_path / "gone.jsonl"
    kept.write_text("{}\n", encoding="utf-8")
    assert note_export(data, gone) is None
    assert noted_exports(data) == [gone]  # noted before it is written
    assert note_export(data, kept) is None
    assert noted_exports(data) == [kept]

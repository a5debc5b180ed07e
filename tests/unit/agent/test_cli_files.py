"""Export and snapshot never destroy their target: refused targets, failures, permissions."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import agent.cli.store
from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError
from memory.sqlite.store import SqliteMemory
from tests.unit.agent.cli_harness import record, run_cli, write_config, write_jsonl

OLD_BACKUP = (
    '{"id": "id-5cb77dee17cd47f0ed910eb183cc6e132726a045", "key": "editor", '
    '"content": "the previous backup", "category": "core", '
    '"timestamp": "2026-01-31T09:30:00Z", "updated_at": "2026-01-31T09:30:00Z", '
    '"session_id": null, "namespace": "default", "importance": 0.5, "superseded_by": null}\n'
)
"""An earlier export of the store `home` seeds (its "editor" memory): one it may replace."""
HAND_WRITTEN = (
    '{"id": "n1", "key": "dentist", "content": "Dentist on Thursday at 9", "category": "daily", '
    '"timestamp": "2026-01-31T09:30:00Z", "updated_at": "2026-01-31T09:30:00Z"}\n'
)
"""The README's record written by hand for an import: no export, though it may be imported."""


@pytest.fixture
def home(isolated_dirs: Path) -> Path:
    write_config()
    source = write_jsonl(
        isolated_dirs / "seed.jsonl", [record("editor", "uses Helix"), record("pet", "Miso")]
    )
    run_cli("memory", "import", str(source)).clean()
    return isolated_dirs


def _data(home: Path) -> Path:
    return home / "data"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _backup(home: Path) -> Path:
    backup = home / "backup.jsonl"
    backup.write_text(OLD_BACKUP)
    backup.chmod(0o640)
    return backup


def _temp_files(folder: Path) -> list[Path]:
    return [path for path in folder.iterdir() if path.name.endswith(".tmp")]


@pytest.mark.parametrize("command", ["export", "snapshot"])
@pytest.mark.parametrize("name", ["brain.db", "brain.db-wal", "brain.db-shm", "brain.db-journal"])
def test_the_stores_own_files_are_refused(home: Path, command: str, name: str) -> None:
    database = _data(home) / "brain.db"
    before = _digest(database)
    ran = run_cli("memory", command, str(_data(home) / name)).clean(2)
    assert "is one of the memory store's own files" in ran.err
    assert _digest(database) == before
    assert run_cli("memory", "get", "pet").clean().out


@pytest.mark.parametrize("command", ["export", "snapshot"])
def test_the_vector_index_files_are_refused(home: Path, command: str) -> None:
    index = _data(home) / "brain.db-vectors" / "current.json"
    index.parent.mkdir()
    index.write_text("{}")
    ran = run_cli("memory", command, str(index)).clean(2)
    assert "is one of the memory store's own files" in ran.err
    assert index.read_text() == "{}"


def _fifo(home: Path) -> Path:
    path = home / "pipe"
    os.mkfifo(path)
    return path


def _link(home: Path) -> Path:
    target = home / "linked.txt"
    target.write_text("kept")
    (home / "link").symlink_to(target)
    return home / "link"


@pytest.mark.parametrize("command", ["export", "snapshot"])
@pytest.mark.parametrize(
    ("make", "message"),
    [
        (_fifo, "is not a regular file"),
        (_link, "is a symbolic link"),
        (lambda home: home, "is not a regular file"),
        (lambda home: Path(os.devnull), "is not a regular file"),
    ],
)
def test_targets_that_are_not_regular_files_are_refused_untouched(
    home: Path, command: str, make: Any, message: str
) -> None:
    target: Path = make(home)
    before = target.lstat()
    ran = run_cli("memory", command, str(target)).clean(2)
    assert message in ran.err
    after = target.lstat()
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    if stat.S_ISLNK(after.st_mode):
        assert target.read_text() == "kept"


def test_a_damaged_store_leaves_the_existing_backup_alone(home: Path) -> None:
    backup = _backup(home)
    (_data(home) / "brain.db").write_bytes(b"garbage, not SQLite" * 100)
    ran = run_cli("memory", "export", str(backup)).clean(2)
    assert "not a usable memchat database" in ran.err
    assert backup.read_text() == OLD_BACKUP
    assert stat.S_IMODE(backup.stat().st_mode) == 0o640


async def _failing_export(self: SqliteMemory, **_: Any) -> AsyncIterator[MemoryEntry]:
    yield record_entry()
    raise MemoryStoreError("database disk image is malformed")


def record_entry() -> MemoryEntry:
    return MemoryEntry.model_validate(record("half", "written"))


def test_a_read_failure_midway_leaves_the_backup_and_no_temp_file(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backup = _backup(home)
    monkeypatch.setattr(SqliteMemory, "export", _failing_export)
    ran = run_cli("memory", "export", str(backup)).clean(2)
    assert "export stopped: database disk image is malformed" in ran.err
    assert f"{backup} was left as it was" in ran.err
    assert backup.read_text() == OLD_BACKUP
    assert _temp_files(home) == []


@pytest.mark.parametrize("command", ["export", "snapshot"])
def test_a_full_disk_leaves_the_old_file(
    home: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    backup = _backup(home)

    def no_space(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)
    ran = run_cli("memory", command, str(backup)).clean(2)
    assert f"cannot write {backup}: No space left on device" in ran.err
    assert backup.read_text() == OLD_BACKUP
    assert _temp_files(home) == []


def test_a_new_export_file_is_private_from_its_first_byte(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    modes: list[int] = []
    real_export = SqliteMemory.export

    async def watching(self: SqliteMemory, **options: Any) -> AsyncIterator[MemoryEntry]:
        async for entry in real_export(self, **options):
            modes.extend(stat.S_IMODE(path.stat().st_mode) for path in _temp_files(home))
            yield entry

    monkeypatch.setattr(SqliteMemory, "export", watching)
    old_umask = os.umask(0)
    try:
        ran = run_cli("memory", "export", str(home / "dump.jsonl")).clean()
    finally:
        os.umask(old_umask)
    assert "exported 2 memories" in ran.err
    assert modes == [0o600, 0o600]
    assert stat.S_IMODE((home / "dump.jsonl").stat().st_mode) == 0o600
    assert _temp_files(home) == []


def test_replacing_a_backup_makes_it_private(home: Path) -> None:
    backup = _backup(home)
    run_cli("memory", "export", str(backup)).clean()
    assert len(backup.read_text().splitlines()) == 2
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600


@pytest.mark.parametrize("target", [[], ["-"]])
def test_no_file_or_dash_means_stdout(home: Path, target: list[str]) -> None:
    ran = run_cli("memory", "export", *target).clean()
    assert len(ran.out.splitlines()) == 2 and ran.err == ""
    assert not (home / "-").exists()


def test_the_snapshot_file_is_refused_as_an_export_target(home: Path) -> None:
    # The store is rebuilt from MEMORY_SNAPSHOT.md: JSON lines there would lose it.
    snapshot = _data(home) / "MEMORY_SNAPSHOT.md"
    snapshot.write_text("snapshot")
    ran = run_cli("memory", "export", str(snapshot)).clean(2)
    assert "is one of the memory store's own files" in ran.err
    assert snapshot.read_text() == "snapshot"


def test_markdown_store_files_are_refused(home: Path) -> None:
    write_config('backend = "markdown"\n')
    source = write_jsonl(home / "md.jsonl", [record("note", "a daily note", category="daily")])
    run_cli("memory", "import", str(source)).clean()
    daily = _data(home) / "memory"
    existing = next(daily.glob("*.md"))
    for target in (_data(home) / "MEMORY.md", existing, daily / "2031-05-05.md"):
        before = target.read_bytes() if target.exists() else None
        ran = run_cli("memory", "export", str(target)).clean(2)
        assert "is one of the memory store's own files" in ran.err
        assert (target.read_bytes() if target.exists() else None) == before


def test_reading_commands_do_not_create_an_existing_data_folder(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(path: Path) -> Path:
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    # A read-only data folder: creating (or re-creating) it would fail.
    monkeypatch.setattr(agent.cli.store, "ensure_private_dir", refuse)
    for command in (["list"], ["search", "Miso"], ["get", "pet"], ["stats"], ["audit"]):
        run_cli("memory", *command).clean()
    assert len(run_cli("memory", "export").clean().out.splitlines()) == 2


def test_the_config_and_the_chats_are_refused_as_export_targets(home: Path) -> None:
    import os

    write_config()
    config = Path(os.environ["MEMCHAT_CONFIG"])
    sessions = _data(home) / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    chat = sessions / "20261103-100000-abcdef.jsonl"
    chat.write_text('{"type": "message", "role": "user", "content": "keep me"}\n')
    exports = _data(home) / "exports"  # not there yet: a file in its place breaks the app
    for target in (config, chat, sessions / "20261104-100000-fedcba.jsonl", exports):
        before = target.read_bytes() if target.exists() else None
        ran = run_cli("memory", "export", str(target)).clean(2)
        assert "is one of the memory store's own files (or memchat's config, a chat" in ran.err
        assert (target.read_bytes() if target.exists() else None) == before
    run_cli("memory", "stats").clean()


@pytest.mark.parametrize(
    "held",
    [
        "garbage\n",
        "notes\n\nmore notes\n",
        '{"title": "x"}\n',
        OLD_BACKUP + "IMPORTANT: my thesis notes, do not lose\n",
        "\n" + OLD_BACKUP + "[1, 2]\n",
        # A later adversary: a file of records written by hand, to import.
        HAND_WRITTEN,
    ],
)
def test_a_file_that_is_no_export_is_replaced_only_when_forced(home: Path, held: str) -> None:
    """Found by an adversary: `memchat memory export notes.txt` replaced a file of theirs."""
    notes = home / "notes.txt"
    notes.write_text(held)
    ran = run_cli("memory", "export", str(notes)).clean(2)
    assert "is not a memchat export; nothing was written" in ran.err and "--force" in ran.err
    assert notes.read_text() == held
    run_cli("memory", "export", str(notes), "--force").clean()
    assert len(notes.read_text().splitlines()) == 2
    empty = home / "empty.jsonl"
    empty.write_text("")
    run_cli("memory", "export", str(empty)).clean()
    assert len(empty.read_text().splitlines()) == 2


def test_an_export_of_another_store_is_not_replaced_unasked(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an adversary: an export of another store's 3 memories replaced a backup of
    13 without a word. This store's own earlier export is still replaced."""
    theirs = home / "theirs.jsonl"
    run_cli("memory", "export", str(theirs)).clean()
    before = theirs.read_text()
    monkeypatch.setenv("MEMCHAT_HOME", str(home / "other"))
    run_cli("memory", "store", "Dentist on Thursday at 9", "--key", "dentist").clean()
    refused = run_cli("memory", "export", str(theirs)).clean(2)
    assert "holds 2 memories, none of them this store's" in refused.err
    assert theirs.read_text() == before
    mine = home / "mine.jsonl"
    run_cli("memory", "export", str(mine)).clean()
    run_cli("memory", "forget", "dentist", "--yes").clean()
    run_cli("memory", "store", "Dentist moved to Friday", "--key", "dentist2").clean()
    run_cli("memory", "export", str(mine)).clean()  # deleted since: still this store's
    run_cli("memory", "export", str(theirs), "--force").clean()
    assert "Dentist moved to Friday" in theirs.read_text()


def test_a_mistyped_namespace_or_an_empty_store_replaces_no_backup(
    home: Path, isolated_dirs: Path
) -> None:
    """Found by an adversary: `export good.jsonl --namespace typo` replaced a backup of 44
    memories with an empty file, said "exported 0 memories" and exited 0."""
    backup = _backup(home)
    ran = run_cli("memory", "export", str(backup), "--namespace", "typo").clean(2)
    assert "no memory is in namespace 'typo' (memories are in: default)" in ran.err
    assert "nothing was written" in ran.err and backup.read_text() == OLD_BACKUP
    to_screen = run_cli("memory", "export", "--namespace", "typo").clean(2)
    assert to_screen.out == "" and "no memory is in namespace 'typo'" in to_screen.err
    # The whole store empty (another MEMCHAT_HOME, say): an export of nothing over a backup.
    for key in ("editor", "pet"):
        run_cli("memory", "forget", key, "--yes").clean()
    run_cli("memory", "hygiene").clean()
    emptied = run_cli("memory", "export", str(backup)).clean(2)
    assert "holds memories and the store holds none" in emptied.err
    assert backup.read_text() == OLD_BACKUP
    run_cli("memory", "export", str(backup), "--force").clean()
    assert backup.read_text() == ""


def test_an_export_of_one_namespace_replaces_no_backup_of_the_others(
    home: Path, isolated_dirs: Path
) -> None:
    """Found by an adversary: `export full.jsonl --namespace tiny` replaced a backup of the
    whole store (20 memories) with one, without a word."""
    run_cli("memory", "store", "tiny thing", "--key", "t1", "--namespace", "tiny").clean()
    full = home / "full.jsonl"
    run_cli("memory", "export", str(full)).clean()
    before = full.read_text()
    ran = run_cli("memory", "export", str(full), "--namespace", "tiny").clean(2)
    assert "of other namespaces, still in the store" in ran.err and "nothing was written" in ran.err
    assert full.read_text() == before
    # Its own earlier export is replaced, and so is any with --force.
    alone = home / "tiny.jsonl"
    run_cli("memory", "export", str(alone), "--namespace", "tiny").clean()
    run_cli("memory", "export", str(alone), "--namespace", "tiny").clean()
    run_cli("memory", "export", str(full), "--namespace", "tiny", "--force").clean()
    assert full.read_text() == alone.read_text()


def test_an_export_over_a_backup_says_what_was_forgotten_since(
    home: Path, isolated_dirs: Path
) -> None:
    """Found by an adversary: a backup of 14 memories replaced by 13, the one forgotten since
    gone from it too, without a word."""
    run_cli("memory", "store", "My locker code is 4411", "--key", "locker").clean()
    run_cli("memory", "store", "I live in Porto", "--key", "home").clean()
    backup = home / "full.jsonl"
    run_cli("memory", "export", str(backup)).clean()
    run_cli("memory", "forget", "locker", "--yes").clean()
    replaced = run_cli("memory", "export", str(backup)).clean()
    assert "held 1 memory no longer stored (forgotten since)" in replaced.err
    again = run_cli("memory", "export", str(backup)).clean()
    assert "no longer stored" not in again.err


def test_a_read_only_backup_is_replaced_only_with_force(home: Path, isolated_dirs: Path) -> None:
    """Found by an adversary: an export over a `chmod 444` backup replaced it."""
    backup = home / "kept.jsonl"
    run_cli("memory", "export", str(backup)).clean()
    before = backup.read_text()
    run_cli("memory", "store", "a new thing", "--key", "new").clean()
    backup.chmod(0o444)
    ran = run_cli("memory", "export", str(backup)).clean(2)
    assert "is read-only: nothing was written" in ran.err
    assert backup.read_text() == before
    run_cli("memory", "export", str(backup), "--force").clean()
    assert "a new thing" in backup.read_text()


def test_an_export_to_a_full_standard_output_says_where_it_failed(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an adversary: `export > /dev/full` said only "No space left on device"."""
    import agent.cli.file_commands

    async def full(*_: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(agent.cli.file_commands, "write_records", full)
    failed = run_cli("memory", "export").clean(2)
    assert "cannot write the export to standard output: No space left on device" in failed.err

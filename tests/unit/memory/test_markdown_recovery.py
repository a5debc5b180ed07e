"""The markdown backend's files after a crash, a hand edit or a second process."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.errors import MemoryStoreError
from memory.markdown_backend import MarkdownMemory
from memory.settings import MemorySettings
from memory.upsert import stored_fields
from tests.helpers.entries import written_entry
from tests.helpers.hostile import HOSTILE_TEXTS

REPO = Path(__file__).resolve().parents[3]


async def _open(root: Path) -> MarkdownMemory:
    # A changed core fact updates in place: each write appends exactly one block, so a
    # torn last block is the only write that is lost.
    settings = MemorySettings(embedding_provider="none", supersede_core_updates=False)
    return await MarkdownMemory.open(root, settings)


async def _everything(memory: MarkdownMemory) -> dict[str, dict[str, object]]:
    return {e.id: stored_fields(e) async for e in memory.export()}


async def _seed(root: Path) -> tuple[bytes, dict[str, dict[str, object]]]:
    """MEMORY.md with several entries; returns its bytes and entries before a last write."""
    memory = await _open(root)
    for i, text in enumerate(HOSTILE_TEXTS[:12]):
        await memory.store(f"key {i}", text)
    await memory.store("key 3", "a second version of key 3")
    return (root / "MEMORY.md").read_bytes(), await _everything(memory)


async def test_a_file_torn_at_any_byte_of_its_last_block_keeps_every_earlier_entry(
    tmp_path: Path,
) -> None:
    before, entries = await _seed(tmp_path / "seed")
    writer = await _open(tmp_path / "seed")
    await writer.store("key 3", "the newest version, cut off by a crash\r\n```\n## x")
    full = (tmp_path / "seed" / "MEMORY.md").read_bytes()
    assert full.startswith(before)
    root = tmp_path / "torn"
    root.mkdir()
    for cut in range(len(before), len(full) - 1):
        torn = full[:cut]
        (root / "MEMORY.md").write_bytes(torn)
        memory = await _open(root)
        assert await _everything(memory) == entries, cut
        assert (root / "MEMORY.md").read_bytes() == torn, "reading changed the file"
        if torn[len(before) :].strip():
            assert memory.warnings, cut
            assert all(w.startswith(f"{root / 'MEMORY.md'}: line ") for w in memory.warnings)
        if cut % 8 == 0 or full[cut - 1 : cut] == b"\n":
            # The next write still lands, and every earlier entry stays (at every line
            # boundary and a sample of the offsets within lines, to keep the test quick).
            added = await memory.store("after the crash", f"written after a cut at {cut}")
            again = await _everything(await _open(root))
            assert again == {**entries, added.id: stored_fields(added)}, cut


async def test_a_warning_is_given_once_however_often_the_file_is_read(tmp_path: Path) -> None:
    memory = await _open(tmp_path)
    await memory.store("pet", "The cat is called Miso")
    path = tmp_path / "MEMORY.md"
    path.write_bytes(path.read_bytes() + b'\n## torn\n\n- id: "x"\n\n```text\nhalf')
    for _ in range(3):
        assert [e.key for e in await memory.list()] == ["pet"]
    assert len(memory.warnings) == 1 and "line " in memory.warnings[0]
    assert "MEMORY.md" in memory.warnings[0]
    health = await memory.health_check()
    assert health.ok and "damaged parts skipped (1, see warnings)" in health.detail


@pytest.mark.parametrize("failing", ["fsync", "replace"])
async def test_a_failure_during_a_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    memory = await _open(tmp_path)
    await memory.store("pet", "The cat is called Miso")
    old = (tmp_path / "MEMORY.md").read_bytes()

    def crash(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(f"memory.files.os.{failing}", crash)
    with pytest.raises(MemoryStoreError, match="No space left"):
        await memory.store("home", "Ana lives in Lisbon")
    monkeypatch.undo()
    assert (tmp_path / "MEMORY.md").read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == [".memchat-markdown.lock", "MEMORY.md"]
    assert [e.key for e in await (await _open(tmp_path)).list()] == ["pet"]


@pytest.mark.parametrize("killed_at", ["fsync", "replace"])
def test_a_process_killed_mid_write_leaves_the_old_or_the_new_file(
    tmp_path: Path, killed_at: str
) -> None:
    script = textwrap.dedent(
        f"""
        import asyncio, os, sys
        from memory import files
        from memory.markdown_backend import MarkdownMemory
        from memory.settings import MemorySettings

        async def main():
            memory = await MarkdownMemory.open(
                sys.argv[1], MemorySettings(embedding_provider="none")
            )
            await memory.store("pet", "The cat is called Miso")
            real = files.os.{killed_at}
            def die(*args):
                if {killed_at!r} == "replace":
                    os._exit(9)  # the new version is complete on disk, not yet renamed
                real(*args)
                os._exit(9)  # the temporary file is synced, the rename never happens
            files.os.{killed_at} = die
            await memory.store("home", "Ana lives in Lisbon")

        asyncio.run(main())
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], cwd=REPO, capture_output=True, check=False
    )
    assert result.returncode == 9, result.stderr.decode()
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(leftovers) == 1  # a killed process cannot clean up; readers ignore it

    async def check() -> None:
        memory = await _open(tmp_path)
        assert [e.key for e in await memory.list()] == ["pet"]
        assert memory.warnings == []
        await memory.store("home", "Ana lives in Lisbon")
        assert sorted(e.key for e in await memory.list()) == ["home", "pet"]

    asyncio.run(check())


async def test_two_stores_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    first, second = await _open(tmp_path), await _open(tmp_path)
    await asyncio.gather(
        *(first.store(f"a{i}", f"from the first store {i}") for i in range(15)),
        *(second.store(f"b{i}", f"from the second store {i}") for i in range(15)),
    )
    assert await (await _open(tmp_path)).count() == 30


async def test_a_file_memchat_did_not_write_is_kept_and_reported(tmp_path: Path) -> None:
    notes = "# My memory\n\n- I like tea\r\n```text\nnot an entry\n```\n"
    (tmp_path / "MEMORY.md").write_bytes(notes.encode())
    memory = await _open(tmp_path)
    assert await memory.count() == 0
    assert memory.warnings == [
        f"{tmp_path / 'MEMORY.md'}: not a memchat memory file (its marker line is missing); "
        "none of its text was read"
    ]
    stored = await memory.store("tea", "The user likes tea")
    assert (tmp_path / "MEMORY.md").read_bytes().startswith(notes.encode())
    assert await (await _open(tmp_path)).get("tea") == stored


async def test_a_file_saved_with_crlf_and_stray_bytes_still_reads(tmp_path: Path) -> None:
    memory = await _open(tmp_path)
    first = await memory.store("editor", "The user edits in Helix\nand in Zed")
    second = await memory.store("cr", "carriage\rreturn\r\n")
    path = tmp_path / "MEMORY.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n") + b"\r\nstray \xff byte\r\n")
    reopened = await _open(tmp_path)
    assert await reopened.get("editor") == first
    assert await reopened.get("cr") == second
    assert len(reopened.warnings) == 1 and "not UTF-8" in reopened.warnings[0]
    third = await reopened.store("more", "added to a CRLF file")
    assert b"stray \xff byte" in path.read_bytes()
    assert {e.id async for e in (await _open(tmp_path)).export()} == {
        first.id,
        second.id,
        third.id,
    }


async def test_a_linked_file_is_written_through_the_link(tmp_path: Path) -> None:
    real = tmp_path / "synced" / "MEMORY.md"
    real.parent.mkdir()
    root = tmp_path / "data"
    root.mkdir()
    (root / "MEMORY.md").symlink_to(real)
    memory = await _open(root)
    stored = await memory.store("pet", "The cat is called Miso")
    assert (root / "MEMORY.md").is_symlink()
    assert "Miso" in real.read_text()
    assert await (await _open(root)).get("pet") == stored


async def test_what_a_write_reads_it_reads_under_the_store_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an adversary: two imports at once each read the files before the other
    appended, and left two active versions of every key they shared."""
    import fcntl
    import os

    from memory.markdown_files import LOCK_NAME

    memory = await _open(tmp_path)
    await memory.store("k", "first")
    record = [e async for e in memory.export()][0].model_copy(update={"content": "third"})
    held: list[bool] = []
    original = MarkdownMemory._latest

    async def probed(self: MarkdownMemory) -> dict[str, object]:
        descriptor = os.open(tmp_path / LOCK_NAME, os.O_RDWR)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.append(False)  # nobody held it
        except BlockingIOError:
            held.append(True)
        finally:
            os.close(descriptor)
        return await original(self)  # type: ignore[return-value]

    monkeypatch.setattr(MarkdownMemory, "_latest", probed)
    await memory.store("k", "second")
    await memory.import_([record])
    assert held == [True, True]


@pytest.mark.parametrize(
    "tail",
    [
        "",
        "\n## my own note\nsome prose of mine\n",
        "\n## a heading left alone\n",
        '\n- key: "fields with no block"\n',
        "\n```text\na block never closed\n",
        "\nno newline at the end",
        "\n- key: not json\n```text\nx\n```\n",
    ],
)
def test_what_a_write_reads_of_what_it_added_is_what_the_whole_file_reads(
    tmp_path: Path, tail: str
) -> None:
    """A write reads only the blocks it adds after a file that read cleanly; whatever the
    file ends with, what it then knows is what reading the whole file again gives."""
    from memory.markdown_files import ParsedFiles, append_entries
    from memory.snapshot import read_snapshot_bytes

    asyncio.run(_seed(tmp_path))
    path = tmp_path / "MEMORY.md"
    for crlf in (False, True):
        data = path.read_bytes() + tail.encode()
        path.write_bytes(data.replace(b"\n", b"\r\n") if crlf else data)
        parsed = ParsedFiles()
        parsed.read(path, path.read_bytes())
        at = datetime(2026, 12, 3, 18, 40, tzinfo=UTC)
        new = [
            written_entry(f"added {i}", text, "core", at) for i, text in enumerate(HOSTILE_TEXTS)
        ]
        append_entries(tmp_path, path, new, parsed=parsed)
        known = parsed.read(path, path.read_bytes())
        whole = read_snapshot_bytes(path.read_bytes())
        assert [stored_fields(e) for e in known.entries] == [
            stored_fields(e) for e in whole.entries
        ]
        assert known.problems == whole.problems
        assert (known.ends_clean, known.open_fence) == (whole.ends_clean, whole.open_fence)
        path.write_bytes(data)

"""Hand edits of memory (the inspector's rules), without any user interface."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import agent.memory_editing as editing
from agent.memory_editing import EarlierVersionError, MemoryEditor
from memory.embedding.hashing import HashingEmbedder
from memory.errors import MemoryStoreError
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory

DIMS = 64


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteMemory]:
    settings = MemorySettings(embedding_provider="hashing", embedding_dimensions=DIMS)
    memory = await SqliteMemory.open(tmp_path / "brain.db", settings, HashingEmbedder(DIMS))
    yield memory
    await memory.close()


def _snapshot(entries: list[object]) -> list[tuple[object, ...]]:
    return sorted(
        (e.id, e.key, e.content, e.timestamp, e.superseded_by, e.pinned)  # type: ignore[attr-defined]
        for e in entries
    )


async def test_the_rules_import_without_textual() -> None:
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('textual', 'rich'):\n"
        "            raise ImportError(f'{name} is blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import agent.memory_editing, agent.export_file\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


async def test_save_keeps_the_old_text_as_history_and_keeps_the_pin(
    store: SqliteMemory,
) -> None:
    editor = MemoryEditor(store)
    first = await store.store_with_metadata("home", "Ana lives in Porto", pinned=True)
    saved = await editor.save(first, "Ana lives in Lisbon", "core", 0.9)
    assert saved.content == "Ana lives in Lisbon" and saved.pinned
    assert saved.importance == pytest.approx(0.9)
    everything = await store.list(include_superseded=True)
    assert {e.content for e in everything} == {"Ana lives in Porto", "Ana lives in Lisbon"}
    old = next(e for e in everything if e.content == "Ana lives in Porto")
    assert old.superseded_by == saved.id
    await editor.restore(old)
    current = await store.get("home")
    assert current is not None and current.content == "Ana lives in Porto"


async def test_restoring_an_old_version_keeps_the_pin(store: SqliteMemory) -> None:
    editor = MemoryEditor(store)
    first = await store.store_with_metadata("home", "Ana lives in Porto")
    second = await editor.save(first, "Ana lives in Lisbon", "core", 0.5)
    await editor.set_pinned(second, True)
    old = next(e for e in await store.list(include_superseded=True) if e.id == first.id)
    restored = await editor.restore(old)
    current = await store.get("home")
    assert current is not None and current.id == restored.id
    assert current.content == "Ana lives in Porto" and current.pinned


async def test_an_earlier_version_cannot_be_pinned_edited_or_forgotten(
    store: SqliteMemory,
) -> None:
    editor = MemoryEditor(store)
    vim = await store.store_with_metadata("editor", "My editor is vim")
    emacs = await editor.save(vim, "My editor is emacs", "core", 0.5)
    old = next(e for e in await store.list(include_superseded=True) if e.id == vim.id)
    for attempt in (
        editor.set_pinned(old, True),
        editor.save(old, "My editor is nano", "core", 0.5),
        editor.forget(old),
    ):
        with pytest.raises(EarlierVersionError, match="earlier version; restore it"):
            await attempt
    current = await store.get("editor")
    assert current is not None and current.id == emacs.id and not current.pinned


async def test_pin_and_unpin(store: SqliteMemory) -> None:
    editor = MemoryEditor(store)
    entry = await store.store("cat", "the cat is called Miso")
    assert (await editor.set_pinned(entry, True)).pinned
    unpinned = await editor.set_pinned(entry, False)
    assert not unpinned.pinned and unpinned.content == entry.content


async def test_undo_forget_puts_back_the_whole_chain_exactly(store: SqliteMemory) -> None:
    editor = MemoryEditor(store)
    await store.store("home", "Ana lives in Porto")
    await store.store("home", "Ana lives in Lisbon")
    current = await store.store("home", "Ana lives in Madrid")
    await store.store("cat", "the cat is called Miso")
    before = _snapshot(await store.list(include_superseded=True))  # type: ignore[arg-type]

    forgotten = await editor.forget(current)
    assert len(forgotten.entries) == 3
    assert await store.get("home") is None
    assert await store.count(include_superseded=True) == 1

    restored = await editor.undo_forget(forgotten)
    assert restored.id == current.id
    assert _snapshot(await store.list(include_superseded=True)) == before  # type: ignore[arg-type]
    assert (await store.stats()).stale_embedding == 0
    found = await store.recall("where does Ana live")
    assert [e.content for e in found.entries][:1] == ["Ana lives in Madrid"]


async def test_undo_of_a_forget_that_brought_a_fact_back_sets_it_aside_again(
    store: SqliteMemory,
) -> None:
    """The forget brought back what the forgotten fact had replaced; the undo puts the
    replacement back in effect and the older fact back as its history, exactly."""
    editor = MemoryEditor(store)
    porto = await store.store("home", "The user lives in Porto")
    lisbon = await store.store("moved", "The user lives in Lisbon")
    assert lisbon.supersedes == [porto.id]
    before = _snapshot(await store.list(include_superseded=True))  # type: ignore[arg-type]

    plan = await editor.forget_plan(lisbon)
    assert [e.id for e in plan.revived] == [porto.id]
    forgotten = await editor.forget(lisbon)
    assert [e.id for e in forgotten.revived] == [porto.id]
    back = await store.get("home")
    assert back is not None and back.id == porto.id

    restored = await editor.undo_forget(forgotten)
    assert restored.id == lisbon.id
    assert _snapshot(await store.list(include_superseded=True)) == before  # type: ignore[arg-type]


async def test_undo_after_the_fact_brought_back_was_replaced_keeps_one_in_effect(
    store: SqliteMemory,
) -> None:
    """Found by an adversary: forget "I moved to Lisbon" (Porto comes back), then "I live
    in Paris" replaces Porto; Undo forget put Lisbon back in effect beside Paris."""
    editor = MemoryEditor(store)
    await store.store("home", "I live in Porto")
    lisbon = await store.store("moved", "I moved to Lisbon")
    forgotten = await editor.forget(lisbon)
    paris = await store.store("home", "I live in Paris")
    restored = await editor.undo_forget(forgotten)
    assert restored.id == lisbon.id and restored.superseded_by == paris.id
    in_effect = [e.content for e in await store.list()]
    assert in_effect == ["I live in Paris"]


async def test_undoing_a_forget_after_the_key_was_stored_again_keeps_the_newer(
    store: SqliteMemory,
) -> None:
    """Found by an adversary: the undo made the forgotten Friday current over Monday,
    stored after the forget."""
    editor = MemoryEditor(store)
    friday = await store.store("meeting", "The meeting is on Friday")
    forgotten = await editor.forget(friday)
    monday = await store.store("meeting", "The meeting is on Monday")
    current = await editor.undo_forget(forgotten)
    assert current.id == monday.id
    assert (await store.get("meeting")) == monday
    back = await store.get_by_id(friday.id)
    assert back is not None and back.superseded_by == monday.id  # history, restorable


async def test_undoing_a_forget_after_its_id_was_imported_again_keeps_the_newer(
    store: SqliteMemory,
) -> None:
    """Found by an adversary: a newer record imported under the forgotten entry's id was
    set aside by the undo, and the older text became current."""
    editor = MemoryEditor(store)
    friday = await store.store("meeting", "The meeting is on Friday")
    older = await store.store("meeting", "The meeting is on Thursday")  # Friday is history
    forgotten = await editor.forget(older)
    newer = older.model_copy(
        update={"content": "The meeting is on Monday", "updated_at": older.updated_at}
    )
    await store.import_([newer])
    current = await editor.undo_forget(forgotten)
    assert (current.id, current.content) == (older.id, "The meeting is on Monday")
    kept = await store.list(include_superseded=True)
    assert sorted(e.content for e in kept if e.superseded_by == older.id) == [
        "The meeting is on Thursday"
    ]
    # The chain behind it follows its fresh id, so nothing is history of nothing.
    ids = {e.id for e in kept}
    assert all(e.superseded_by in ids for e in kept if e.superseded_by is not None)
    assert any(e.content == friday.content and e.superseded_by for e in kept)
    assert len(kept) == 3


async def test_history_reads_past_one_page(
    store: SqliteMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(editing, "HISTORY_PAGE", 3)
    for number in range(7):
        await store.store(f"other{number}", f"unrelated fact number {number}")
    for city in ("Porto", "Lisbon", "Madrid", "Paris"):
        latest = await store.store("home", f"Ana lives in {city}")
    chain = await MemoryEditor(store).history(latest)
    assert sorted(e.content for e in chain) == sorted(
        f"Ana lives in {city}" for city in ("Porto", "Lisbon", "Madrid", "Paris")
    )


async def test_forgetting_twice_says_so(store: SqliteMemory) -> None:
    editor = MemoryEditor(store)
    entry = await store.store("cat", "the cat is called Miso")
    await editor.forget(entry)
    with pytest.raises(MemoryStoreError, match="already forgotten"):
        await editor.forget(entry)


async def test_the_audit_log_lists_a_forget(store: SqliteMemory) -> None:
    editor = MemoryEditor(store)
    entry = await store.store("cat", "the cat is called Miso")
    await editor.forget(entry)
    records = await editor.audit_log()
    assert [r.key for r in records] == ["cat"]


@pytest.mark.parametrize("action", ["pin", "save"])
async def test_an_entry_forgotten_elsewhere_is_not_brought_back(
    store: SqliteMemory, action: str
) -> None:
    editor = MemoryEditor(store)
    shown = await store.store_with_metadata("passport", "My passport expires in March")
    assert await store.forget("passport")  # another window or `memchat memory forget`
    with pytest.raises(editing.ChangedElsewhereError, match="forgotten since it was shown"):
        if action == "pin":
            await editor.set_pinned(shown, True)
        else:
            await editor.save(shown, "My passport expires in May", "core", 0.5)
    assert await store.get("passport") is None


async def test_an_entry_replaced_elsewhere_is_not_overwritten(store: SqliteMemory) -> None:
    editor = MemoryEditor(store)
    shown = await store.store_with_metadata("home", "Ana lives in Porto")
    await store.store_with_metadata("home", "Ana lives in Lisbon")  # changed elsewhere
    with pytest.raises(editing.ChangedElsewhereError, match="changed since it was shown"):
        await editor.set_pinned(shown, True)
    current = await store.get("home")
    assert current is not None and current.content == "Ana lives in Lisbon"
    assert not current.pinned


async def test_a_forget_erased_since_cannot_be_undone(store: SqliteMemory) -> None:
    """Found by an adversary: Undo forget in the open app put back a memory erased for good
    from a terminal meanwhile."""
    from agent.erasing import erase_forgotten
    from memory.errors import MemoryStoreError

    editor = MemoryEditor(store)
    pin = await store.store("bank", "my bank pin is 7391")
    forgotten = await editor.forget(pin)
    lifecycle = store.lifecycle
    assert (await erase_forgotten(lifecycle, "bank", "default")).records == 1
    with pytest.raises(MemoryStoreError, match="erased for good"):
        await editor.undo_forget(forgotten)
    assert await store.get("bank") is None


async def test_an_edit_replaces_the_entry_it_edits_whatever_the_new_text_says(
    store: SqliteMemory,
) -> None:
    """Found by a new user: "… due fri 11/12 …" edited into "… due sat 12/12 (moved from
    fri) …" was read as another order, kept beside under "order_murphys_th_2", and the
    Friday order stayed in effect."""
    editor = MemoryEditor(store)
    friday = await store.store_with_metadata(
        "order_murphys_th",
        "Murphys - 18th birthday cake, chocolate biscoff, due fri 11/12, €85, deposit €20 paid",
    )
    moved = "Murphys - 18th birthday cake, chocolate biscoff, due sat 12/12 (moved from fri), €85"
    saved = await editor.save(friday, moved, "core", 0.5)
    assert saved.key == "order_murphys_th" and saved.supersedes == [friday.id]
    assert [(e.key, e.content) for e in await store.list()] == [("order_murphys_th", moved)]
    dentist = await store.store_with_metadata("dentist", "My dentist is on 14/1 at 3pm")
    rorys = await editor.save(dentist, "Rory's dentist is on 14/1 at 3pm", "core", 0.5)
    assert rorys.key == "dentist" and rorys.supersedes == [dentist.id]


async def test_an_edited_message_keeps_its_secrets_redacted_and_a_fact_its_own(
    store: SqliteMemory,
) -> None:
    """Found by an adversary: an inspector edit of a saved message, "Salzburg flat: the door
    code is 4747 and the wifi password is owl3636", was stored as typed and shown to the
    model for "tell me about the Salzburg flat"."""
    editor = MemoryEditor(store)
    said = await store.store_with_metadata("conversation/s/1", "Salzburg flat", "conversation")
    typed = "Salzburg flat: the door code is 4747 and the wifi password is owl3636"
    saved = await editor.save(said, typed, "conversation", 0.5)
    assert "4747" not in saved.content and "owl3636" not in saved.content
    assert "[REDACTED:" in saved.content
    # A fact keeps what it is told to keep (shown to the model only when asked for).
    fact = await store.store_with_metadata("flat", "Salzburg flat", "core")
    assert (await editor.save(fact, typed, "core", 0.5)).content == typed


async def test_an_edit_longer_than_a_memory_takes_is_refused(store: SqliteMemory) -> None:
    """Found by an adversary: an edit of 18,896 characters was saved where /remember takes
    10,000."""
    editor = MemoryEditor(store)
    fact = await store.store_with_metadata("note", "short", "core")
    with pytest.raises(MemoryStoreError, match="at most 10,000 characters"):
        await editor.save(fact, "x " * 9_000, "core", 0.5)
    assert (await store.get("note")) is not None
    assert (await store.get("note")).content == "short"  # type: ignore[union-attr]

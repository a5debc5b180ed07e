"""Pilot tests of the memory inspector."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from textual.widgets import Button, Checkbox, DataTable, Input, Label, Static, TextArea

from agent.testing import ScriptedModel
from memory.entry import RecallScores
from tests.tui.conftest import AppHarness, MakeApp, seed_entry, settle
from tui.screens.memory_detail import MemoryDetailScreen, field_table

SEED = [
    seed_entry("editor", "The user edits code in Helix"),
    seed_entry("pet", "The user's cat is called Miso"),
    seed_entry("lunch", "Had ramen for lunch", "daily"),
]


def plain(renderable: object) -> str:
    from rich.console import Console

    console = Console(width=120, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


async def open_inspector(h: AppHarness, pilot: object) -> None:
    await h.app.ready.wait()
    h.app.action_toggle_inspector()
    await settle(pilot)


async def test_lists_entries_and_searches_with_the_agents_recall(make_app: MakeApp) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        assert sorted(e.key for e in h.app.inspector.entries) == ["editor", "lunch", "pet"]
        assert h.app.query_one(DataTable).row_count == 3
        h.app.query_one("#inspector-search", Input).value = "cat called Miso"
        await pilot.pause(0.4)
        await settle(pilot)
        assert [e.key for e in h.app.inspector.entries][0] == "pet"
        assert h.app.inspector.entries[0].score == 1.0
        assert "found (keyword)" in str(h.app.query_one("#inspector-page").render())
        # Opened from the search, the detail reads the scores with the search's mode.
        table = h.app.query_one(DataTable)
        table.focus()
        table.move_cursor(row=0)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(h.app.screen, MemoryDetailScreen)
        shown = plain(h.app.screen.query_one("#detail-fields", Static).content)
        assert "no meaning search this time" in shown and "has no vector" not in shown


async def test_a_search_matching_nothing_lists_nothing(make_app: MakeApp) -> None:
    """Found by a new user: a search for "zebra" listed every memory at 0.00, as if it had
    found them all; a score of 0 is no match (the CLI already left them out)."""
    from memory.entry import RecallResult

    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        memory = h.runtime.memory
        everything = await memory.list()

        async def scored_by_meaning_alone(*args: object, **kwargs: object) -> RecallResult:
            weak = everything[0].model_copy(update={"score": 0.299})
            nothing = [e.model_copy(update={"score": 0.0}) for e in everything[1:]]
            return RecallResult(entries=[], below_floor=[weak, *nothing], mode="hybrid")

        memory.recall = scored_by_meaning_alone  # type: ignore[method-assign]
        h.app.query_one("#inspector-search", Input).value = "zebra"
        await pilot.pause(0.4)
        await settle(pilot)
        assert [e.score for e in h.app.inspector.entries] == [0.299]
        assert "0 found (hybrid), 1 below floor" in str(h.app.query_one("#inspector-page").render())
        # Below a 0.30 floor, 0.299 reads 0.29, not 0.30 (a new user).
        table = h.app.query_one(DataTable)
        assert [str(cell) for cell in table.get_row_at(0)][3] == "0.29"


async def test_a_held_back_question_is_not_counted_below_the_floor(make_app: MakeApp) -> None:
    """Found by a new user: "2 found, 1 below floor" for a saved question held back at
    1.00 ("not used: a saved question says no fact")."""
    from memory.entry import RecallResult, RecallScores

    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        memory = h.runtime.memory
        first, second, *_ = await memory.list()

        async def one_held_back(*args: object, **kwargs: object) -> RecallResult:
            why = "a saved question says no fact"
            held = RecallScores(keyword=1.0, fused=1.0, lane="keyword", held_back=why)
            asked = second.model_copy(update={"score": 1.0, "scores": held})
            found = first.model_copy(update={"score": 0.9})
            return RecallResult(entries=[found], below_floor=[asked], mode="hybrid")

        memory.recall = one_held_back  # type: ignore[method-assign]
        h.app.query_one("#inspector-search", Input).value = "cat"
        await pilot.pause(0.4)
        await settle(pilot)
        shown = str(h.app.query_one("#inspector-page").render())
        assert "1 found (hybrid), 1 held back (saved questions, not used), 0 below floor" in shown


async def test_filters_by_category(make_app: MakeApp) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        from textual.widgets import Select

        h.app.query_one("#inspector-category", Select).value = "daily"
        await pilot.pause()
        await settle(pilot)
        assert [e.key for e in h.app.inspector.entries] == ["lunch"]


async def test_detail_edit_pin_forget_and_undo(make_app: MakeApp) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        memory = h.runtime.memory
        h.app.memory_view.open_entry(next(e for e in h.app.inspector.entries if e.key == "pet"))
        await pilot.pause()
        assert isinstance(h.app.screen, MemoryDetailScreen)
        fields = plain(field_table(h.app.screen.entry))
        assert "id-pet" in fields and "2026-11-30 09:30:00 UTC" in fields
        h.app.screen.query_one("#detail-content", TextArea).text = "The cat is called Tofu"
        h.app.screen.query_one("#detail-importance", Input).value = "0.9"
        await pilot.click("#save")
        await settle(pilot)
        edited = await memory.get("pet")
        assert edited is not None and edited.content == "The cat is called Tofu"
        assert edited.importance == 0.9 and edited.supersedes == []
        old = await memory.get_by_id("id-pet")  # a core fact's edit keeps the old version
        assert old is not None and old.superseded_by == edited.id

        h.app.memory_view.open_entry(edited)
        await pilot.pause()
        await pilot.click("#pin")
        await settle(pilot)
        pinned = await memory.get("pet")
        assert pinned is not None and pinned.pinned

        h.app.memory_view.open_entry(pinned)
        await pilot.pause()
        await pilot.click("#forget")
        await settle(pilot)
        # Pinned: asked again first (found by a new user: one press went unsaid).
        assert await memory.get("pet") is not None
        asked = h.app.screen.query_one("#forget", Button)
        assert "Forget pinned? Press again" in str(asked.label)
        while asked.has_class("-active"):  # a button takes no press while it shows one
            await pilot.pause(0.05)
        await pilot.click("#forget")
        await settle(pilot)
        assert await memory.get("pet") is None
        assert h.app.query_one("#inspector-undo").display
        await pilot.click("#inspector-undo")
        await settle(pilot)
        back = await memory.get("pet")
        assert back is not None and back.id == edited.id and back.pinned
        # The keys go to the list, not the hidden button (a new user's typing went nowhere).
        assert isinstance(h.app.focused, DataTable)
        # The status bar's count follows (it stayed one short until the next message).
        assert "3 memories" in str(h.app.status.render())
        assert back.content == "The cat is called Tofu"
        history = await memory.get_by_id("id-pet")
        assert history is not None and history.superseded_by == edited.id


async def test_tab_then_a_key_does_not_replace_the_category(make_app: MakeApp) -> None:
    """Found by a new user: Tab from the content selected the whole category, and the next
    key replaced "core" (the fact then left MEMORY_SNAPSHOT.md)."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        h.app.memory_view.open_entry(next(e for e in h.app.inspector.entries if e.key == "pet"))
        await pilot.pause()
        await pilot.press("tab")
        await pilot.pause()
        category = h.app.screen.query_one("#detail-category", Input)
        assert category.has_focus
        await pilot.press("x")
        assert category.value != "x" and category.value.replace("x", "") == "core"


async def test_invalid_importance_is_refused_in_the_dialog(make_app: MakeApp) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        h.app.memory_view.open_entry(h.app.inspector.entries[0])
        await pilot.pause()
        h.app.screen.query_one("#detail-importance", Input).value = "7"
        await pilot.click("#save")
        await pilot.pause()
        assert isinstance(h.app.screen, MemoryDetailScreen)


async def test_restore_a_superseded_entry(make_app: MakeApp) -> None:
    seed = [
        seed_entry("rust", "The user prefers Rust", superseded_by="id-python"),
        seed_entry("python", "The user prefers Python"),
    ]
    h = make_app(seed=seed)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        assert [e.key for e in h.app.inspector.entries] == ["python"]
        h.app.query_one("#inspector-superseded", Checkbox).value = True
        await pilot.pause()
        await settle(pilot)
        old = next(e for e in h.app.inspector.entries if e.key == "rust")
        # An earlier version opens to be restored, not edited (a new user read "edit").
        h.app.inspector._preview(old.id)
        preview = h.app.inspector.query_one("#inspector-preview", Static)
        assert str(preview.render()).endswith("· Enter: restore  · ↺ an earlier version")
        # Each row's mark is said where it is read (a new user found "●" explained nowhere).
        python = next(e for e in h.app.inspector.entries if e.key == "python")
        h.app.inspector.mark_used({python.id})
        h.app.inspector._preview(python.id)
        assert str(preview.render()).endswith("· ● shown to the model this turn")
        # Beside the status bar's count of memories in effect (found by a new user).
        assert str(h.app.query_one("#inspector-page", Label).render()).endswith(
            "2 entries · 1 in effect"
        )
        h.app.memory_view.open_entry(old)
        await settle(pilot)
        # What replaced it is named by key and text, not by its id (found by a new user).
        screen = h.app.screen
        assert isinstance(screen, MemoryDetailScreen)
        fields = plain(field_table(screen.entry, successor=screen.successor))
        assert "superseded by python (The user prefers Python)" in " ".join(fields.split())
        assert "id-python" not in fields
        # Restored as it was: its fields take no edits (Restore would drop them unsaid).
        content = h.app.screen.query_one("#detail-content", TextArea)
        assert content.read_only
        labels = [str(label.render()) for label in h.app.screen.query(Label)]
        assert any("an earlier version: read only; Restore makes it current" in t for t in labels)
        await pilot.press("end", "x")
        assert content.text == "The user prefers Rust"
        assert h.app.screen.query_one("#detail-category", Input).disabled
        assert h.app.screen.query_one("#detail-importance", Input).disabled
        await pilot.click("#restore")
        await settle(pilot)
        memory = h.runtime.memory
        assert (await memory.get("rust")).superseded_by is None  # type: ignore[union-attr]
        assert (await memory.get_by_id("id-python")).superseded_by == "id-rust"  # type: ignore[union-attr]


async def test_tool_store_refreshes_the_open_inspector(make_app: MakeApp) -> None:
    from agent.testing import Reply, call

    model = ScriptedModel(
        [Reply(tool_calls=[call("memory_forget", key="lunch")]), "Done."], name="qwen3:8b"
    )
    h = make_app(model, seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        h.app.query_one("#prompt", TextArea).focus()
        h.app.query_one("#prompt", TextArea).text = "forget what I had for lunch"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause()
        await settle(pilot)
        assert "lunch" not in [e.key for e in h.app.inspector.entries]


async def test_none_backend_says_memory_is_off(make_app: MakeApp) -> None:
    h = make_app(backend="none")
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        off = h.app.query_one("#inspector-off", Static)
        assert off.display and "Memory is off" in str(off.render())
        assert not h.app.query_one(DataTable).display
        assert "memory off" in str(h.app.status.render())


async def test_a_corrupt_database_leaves_the_app_up_with_memory_off(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import os
    from pathlib import Path

    from agent.config import Config
    from memory.settings import MemorySettings
    from tui.app import MemchatApp

    home = Path(os.environ["MEMCHAT_HOME"])
    home.mkdir(parents=True)
    (home / "brain.db").write_bytes(b"not a database" * 10)
    model = ScriptedModel(name="qwen3:8b")

    async def factory(config: Config):  # type: ignore[no-untyped-def]
        from agent.runtime import open_runtime

        return await open_runtime(config, model=model)

    app = MemchatApp(
        Config(memory=MemorySettings(embedding_provider="none")),
        runtime_factory=factory,
        blink=False,
    )
    async with app.run_test(size=(140, 40)) as pilot:
        await app.ready.wait()
        await settle(pilot)
        assert any("not a usable memchat database" in n.message for n in app._notifications)
        assert "memory off" in str(app.status.render())
    assert (home / "brain.db").read_bytes() == b"not a database" * 10


async def test_the_deleted_view_lists_deletions_not_what_an_import_set_aside(
    make_app: MakeApp,
) -> None:
    """Found by a new user: after a migrate, the "deleted" view listed "an import changed
    entry …" rows (history kept, nothing deleted) beside what they had forgotten."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        memory = h.runtime.memory
        pet = await memory.get("pet")
        assert pet is not None
        await memory.import_([pet.model_copy(update={"content": "The cat is called Tofu"})])
        await memory.forget("lunch")
        h.app.query_one("#inspector-audit", Checkbox).value = True
        await pilot.pause()
        await settle(pilot)
        table = h.app.query_one(DataTable)
        assert [table.get_row_at(i)[1].plain for i in range(table.row_count)] == ["lunch"]
        assert str(h.app.query_one("#inspector-page", Label).render()) == (
            "1 deletion (newest first)"
        )


async def test_deleted_view_shows_the_audit_log(make_app: MakeApp) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        await h.runtime.memory.forget("lunch")
        h.app.query_one("#inspector-audit", Checkbox).value = True
        await pilot.pause()
        await settle(pilot)
        table = h.app.query_one(DataTable)
        assert [str(c.label) for c in table.columns.values()] == ["when", "key", "text", "why"]
        assert table.row_count == 1
        # Cells are Text, never str: a str cell would be parsed as markup.
        assert [cell.plain for cell in table.get_row_at(0)[1:]] == [
            "lunch",
            "Had ramen for lun…",
            "forgotten",
        ]
        # The search box narrows the log as it narrows the memories (found by a new user).
        await h.runtime.memory.forget("pet")
        h.app.query_one("#inspector-search", Input).value = "LUNCH"
        await pilot.pause(0.4)
        await settle(pilot)
        assert [table.get_row_at(i)[1].plain for i in range(table.row_count)] == ["lunch"]
        page = str(h.app.query_one("#inspector-page", Label).render())
        assert page == "1 of 2 deletions (newest first)"
        h.app.query_one("#inspector-search", Input).value = ""
        await pilot.pause(0.4)
        await settle(pilot)
        assert table.row_count == 2
        h.app.query_one("#inspector-audit", Checkbox).value = False
        await pilot.pause()
        await settle(pilot)
        assert len(table.columns) == 5 and table.row_count == 1


async def test_a_forget_undone_reads_as_restored_in_the_deleted_view(make_app: MakeApp) -> None:
    """Found by a new user: after Undo forget the log still read only "forgotten"."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        editor = h.app.inspector.editor
        assert editor is not None
        lunch = await h.runtime.memory.get("lunch")
        assert lunch is not None
        await editor.undo_forget(await editor.forget(lunch))
        h.app.query_one("#inspector-audit", Checkbox).value = True
        await pilot.pause()
        await settle(pilot)
        row = h.app.query_one(DataTable).get_row_at(0)
        assert [cell.plain for cell in row[1:]] == [
            "lunch",
            "Had ramen for lun…",
            "forgotten (restored since)",
        ]


async def test_enter_on_a_deleted_memory_brings_it_back(make_app: MakeApp) -> None:
    """Found by an adversary: Undo forget lasted until the app closed, though the audit
    log kept the text. A forget made in an earlier run (here, straight in the store) is
    brought back from the deleted view."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        lunch = await h.runtime.memory.get("lunch")
        assert lunch is not None
        await h.runtime.memory.forget("lunch")
        h.app.query_one("#inspector-audit", Checkbox).value = True
        await pilot.pause()
        await settle(pilot)
        table = h.app.query_one(DataTable)
        table.focus()
        await pilot.pause()
        preview = str(h.app.query_one("#inspector-preview", Static).render())
        assert preview == "lunch: Had ramen for lunch  · Enter brings it back"
        await pilot.press("enter")
        await settle(pilot)
        back = await h.runtime.memory.get("lunch")
        assert back is not None and (back.content, back.category) == (
            "Had ramen for lunch",
            "daily",
        )
        assert any("Brought back lunch" in n.message for n in h.app._notifications)
        row = table.get_row_at(0)
        assert [cell.plain for cell in row[1:]] == [
            "lunch",
            "Had ramen for lun…",
            "forgotten (restored since)",
        ]
        # The count says it too (a new user read an unchanged count as the restore not taken).
        page = str(h.app.query_one("#inspector-page", Label).render())
        assert page == "1 deletion, 1 brought back (newest first)"
        await pilot.press("enter")  # back already: nothing more happens
        await settle(pilot)
        assert await h.runtime.memory.count() == len(SEED)


async def test_procedural_entries_are_listed_by_category(make_app: MakeApp) -> None:
    from textual.widgets import Select

    from agent.testing import Reply, call

    model = ScriptedModel(
        [Reply(tool_calls=[call("memory_list")]), "Here they are."], name="qwen3:8b"
    )
    h = make_app(model, seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        h.app.query_one("#prompt", TextArea).focus()
        h.app.query_one("#prompt", TextArea).text = "list what you remember"
        await pilot.press("enter")
        await settle(pilot)
        h.app.query_one("#inspector-category", Select).value = "procedural"
        await pilot.pause()
        await settle(pilot)
        [procedure] = h.app.inspector.entries
        assert procedure.content.startswith('Procedure for "list what you remember"')


async def test_a_store_rebuilt_from_its_snapshot_is_announced(make_app: MakeApp) -> None:
    from agent.config import Config
    from agent.runtime import open_runtime
    from memory.settings import MemorySettings
    from tui.app import MemchatApp

    home = Path(os.environ["MEMCHAT_HOME"])
    home.mkdir(parents=True)
    from memory.snapshot import render_snapshot

    (home / "MEMORY_SNAPSHOT.md").write_text(
        render_snapshot([seed_entry("pet", "The user's cat is called Miso")], now=SEED[0].timestamp)
    )
    model = ScriptedModel(name="qwen3:8b")

    async def factory(config: Config):  # type: ignore[no-untyped-def]
        return await open_runtime(config, model=model)

    app = MemchatApp(
        Config(memory=MemorySettings(embedding_provider="none")),
        runtime_factory=factory,
        blink=False,
    )
    async with app.run_test(size=(140, 40)) as pilot:
        await app.ready.wait()
        await settle(pilot)
        assert any("restored 1 core memory" in n.message for n in app._notifications)
        assert app.runtime is not None and await app.runtime.memory.count() == 1


async def test_namespace_filter_switches_what_is_shown(make_app: MakeApp) -> None:
    from textual.widgets import Select

    seed = [*SEED, seed_entry("standup", "Standup moved to 9:30", namespace="work")]
    h = make_app(seed=seed)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        select = h.app.query_one("#inspector-namespace", Select)
        assert select.value == "default"
        assert "standup" not in [e.key for e in h.app.inspector.entries]
        select.value = "work"
        await pilot.pause()
        await settle(pilot)
        assert [e.key for e in h.app.inspector.entries] == ["standup"]


async def test_quitting_while_the_store_answers_ends_without_a_worker_error(
    make_app: MakeApp,
) -> None:
    import asyncio

    h = make_app(seed=SEED)
    release = asyncio.Event()
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        store = h.app.inspector.memory
        assert store is not None
        real_list = store.list

        async def slow_list(**kwargs: object) -> object:
            await release.wait()
            return await real_list(**kwargs)  # type: ignore[arg-type]

        store.list = slow_list  # type: ignore[method-assign, assignment]
        h.app.inspector.reload()
        await pilot.pause()
        # What quitting does while the store is still answering: the app has begun to exit
        # (its return code is set) and the panel's widgets are going away.
        await h.app.query_one(DataTable).remove()
        h.app._return_code = 0
        release.set()
        await settle(pilot)
        assert h.app.return_code == 0, "a worker error would have set 1"
        h.app._return_code = None


async def test_undo_forget_stays_in_sight_while_a_search_is_shown(make_app: MakeApp) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        h.app.query_one("#inspector-search", Input).value = "cat called Miso"
        await pilot.pause(0.4)
        await settle(pilot)
        found = h.app.inspector.entries[0]
        h.app.memory_view.open_entry(found)
        await pilot.pause()
        await pilot.click("#forget")
        await settle(pilot)
        await pilot.pause()
        undo = h.app.query_one("#inspector-undo")
        panel = h.app.inspector.region
        assert undo.display and undo.region.width > 0
        assert panel.contains_region(undo.region)
        await pilot.click("#inspector-undo")
        await settle(pilot)
        assert (await h.runtime.memory.get("pet")) is not None


async def test_a_backend_that_cannot_delete_offers_no_forget(make_app: MakeApp) -> None:
    """Markdown files are append-only: the dialog leaves Forget out rather than fail on it."""
    h = make_app(backend="markdown")
    async with h.app.run_test(size=(140, 40)) as pilot:
        await h.app.ready.wait()
        await h.runtime.memory.store("editor", "The user edits code in Helix")
        await open_inspector(h, pilot)
        entry = next(e for e in h.app.inspector.entries if e.key == "editor")
        h.app.memory_view.open_entry(entry)
        await pilot.pause()
        assert isinstance(h.app.screen, MemoryDetailScreen)
        assert h.app.screen.query("#save") and not h.app.screen.query("#forget")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_detail_dialog_scrolls_to_what_tab_reaches_on_a_small_terminal(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    """Found by a new user: at 80x24 the Category and Importance fields and the buttons
    were below the edge, and Tab then Enter pinned a memory with nothing on screen. At 60
    columns the dialog ran off the right edge (an adversary)."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=size) as pilot:
        await open_inspector(h, pilot)
        h.app.memory_view.open_entry(next(e for e in h.app.inspector.entries if e.key == "pet"))
        await settle(pilot)
        screen = h.app.screen
        assert isinstance(screen, MemoryDetailScreen)
        for wanted in ("#detail-category", "#detail-importance", "#save", "#pin", "#close"):
            widget = screen.query_one(wanted)
            for _ in range(12):
                if widget.has_focus:
                    break
                await pilot.press("tab")
                await pilot.pause()
            assert widget.has_focus, wanted
            await settle(pilot)
            shown = widget.region.intersection(screen.region)
            assert shown == widget.region and shown.area > 0, wanted  # on screen, whole
        # Back up to the fields at the top, from the keyboard: the frame takes the focus.
        screen.query_one("#detail-content").focus()
        await pilot.press("shift+tab", "home")
        await settle(pilot)
        fields = screen.query_one("#detail-fields")
        assert fields.region.intersection(screen.region).area > 0


async def test_a_forget_made_in_the_chat_can_be_undone(make_app: MakeApp) -> None:
    """Found by a new user: after /forget (or the model's memory_forget) the inspector
    offered no Undo forget, so a fact forgotten by mistake was gone."""
    from agent.testing import Reply, call
    from tests.tui.test_chat import send

    model = ScriptedModel(
        [Reply(tool_calls=[call("memory_forget", key="editor")]), "Forgotten."], name="qwen3:8b"
    )
    h = make_app(model, seed=SEED, auto_save=False)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        undo = h.app.inspector.query_one("#inspector-undo")
        await send(pilot, "/forget pet")
        assert await h.runtime.memory.get("pet") is None
        assert undo.display
        await send(pilot, "forget which editor I use")  # the model's own forget
        assert await h.runtime.memory.get("editor") is None
        await pilot.click("#inspector-undo")
        await settle(pilot)
        back = await h.runtime.memory.get("editor")
        assert back is not None and back.id == "id-editor"  # exactly as it was
        assert not undo.display
        assert await h.runtime.memory.get("pet") is None  # only the latest forget


async def test_ctrl_z_in_the_memory_panel_undoes_the_last_forget(make_app: MakeApp) -> None:
    """Found by a new user, a parent: the notice named Undo forget but no key; the button
    took 13 Tabs to reach. In the message box Ctrl+Z still undoes typing."""
    from tests.tui.test_chat import send

    h = make_app(ScriptedModel([], name="qwen3:8b"), seed=SEED, auto_save=False)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        await send(pilot, "/forget pet")
        assert await h.runtime.memory.get("pet") is None
        notice = list(h.app._notifications)[-1].message
        assert "Ctrl+Z in the memory panel" in notice
        h.app.inspector.query_one(DataTable).focus()
        await pilot.press("ctrl+z")
        await settle(pilot)
        back = await h.runtime.memory.get("pet")
        assert back is not None and back.id == "id-pet"
        await pilot.press("ctrl+z")  # nothing more to undo: said, nothing changes
        await settle(pilot)
        assert "Nothing to undo" in list(h.app._notifications)[-1].message


async def test_the_highlighted_memorys_whole_text_is_shown_under_the_table(
    make_app: MakeApp,
) -> None:
    """Found by a new user: the content column shows about 26 characters, so three
    versions of one fact all read "My dentist appointment is"."""
    long = "My dentist appointment is on Friday at 10:30 with Dr. Okafor, room 5521"
    h = make_app(seed=[seed_entry("dentist", long), seed_entry("pet", "Miso the cat")])
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        preview = h.app.inspector.query_one("#inspector-preview", Static)
        table = h.app.inspector.query_one(DataTable)
        first = h.app.inspector.entries[0]
        assert str(preview.render()) == f"{first.key}: {first.content}  · Enter: edit or forget"
        table.focus()
        await pilot.press("down")
        await settle(pilot)
        second = h.app.inspector.entries[1]
        assert str(preview.render()) == f"{second.key}: {second.content}  · Enter: edit or forget"
        assert {first.content, second.content} == {long, "Miso the cat"}  # whole, uncut


def test_the_detail_says_why_a_recalled_memory_has_no_vector_score() -> None:
    """A keyword match that settled the search was never compared by meaning: the detail
    said "this memory has no vector" of memories that have one (found by a new user)."""
    scores = RecallScores(keyword=0.9, fused=0.9, lane="keyword")
    entry = seed_entry("editor", "My favourite editor is Helix").model_copy(
        update={"scores": scores}
    )
    settled = plain(field_table(entry, "keyword-early"))
    assert "not searched: the keyword match settled it" in settled
    assert "has no vector" not in settled
    assert "has no vector" in plain(field_table(entry, "hybrid"))


async def test_a_ticked_filter_reads_as_ticked_without_colour(make_app: MakeApp) -> None:
    """Found by a new user: ticked and unticked boxes both read "▐X▌"."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        box = h.app.query_one("#inspector-audit", Checkbox)
        assert str(box.render()).startswith("▐ ▌")
        box.value = True
        await pilot.pause()
        assert str(box.render()).startswith("▐✓▌")


async def test_in_a_narrow_terminal_the_inspector_takes_the_chats_place(
    make_app: MakeApp,
) -> None:
    """Found by new users: at 80 columns the inspector kept 70 and the chat 6; then 40%
    each, the chat 30 columns and the panel's filters cut. Below 110 the panel now takes
    the whole width until F2 closes it; wider, the chat keeps its room beside it."""
    h = make_app(seed=[seed_entry("a", "alpha")])
    async with h.app.run_test(size=(80, 30)) as pilot:
        await h.app.ready.wait()
        h.app.action_toggle_inspector()
        await settle(pilot)
        assert h.app.inspector.display and h.app.inspector.size.width >= 76
        assert not h.app.query_one("#chat-pane").display or h.app.chat.size.width == 0
        filters = h.app.query_one("#inspector-filters").children
        assert all(box.region.right <= 80 for box in filters)  # none cut
        h.app.action_toggle_inspector()
        await settle(pilot)
        assert h.app.chat.size.width >= 70 and not h.app.inspector.display
        await pilot.resize_terminal(120, 30)
        h.app.action_toggle_inspector()
        await settle(pilot)
        assert h.app.chat.size.width >= 40 and h.app.inspector.size.width >= 60


async def test_the_count_and_the_inspector_follow_writes_made_elsewhere(
    make_app: MakeApp,
) -> None:
    """Found by a new user: after `memchat memory store` the status bar kept its old count."""
    from tui.app import RECOUNT_EVERY_S

    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        assert "3 memories" in str(h.app.status.render())
        await h.runtime.memory.store("tea", "The user drinks green tea", "core")  # elsewhere
        assert RECOUNT_EVERY_S <= 30
        h.app._recount()  # what the interval timer calls
        await settle(pilot)
        assert "4 memories" in str(h.app.status.render())
        assert "tea" in {e.key for e in h.app.inspector.entries}


async def test_the_page_summary_keeps_its_width_beside_undo_at_90_columns(
    make_app: MakeApp,
) -> None:
    """Found by a new user: after a forget at 90 columns the summary beside "Undo forget"
    was 3 columns wide and wrapped a letter a line."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(90, 50)) as pilot:
        await open_inspector(h, pilot)
        h.app.memory_view.open_entry(h.app.inspector.entries[0])
        await pilot.pause()
        await pilot.click("#forget")
        await settle(pilot)
        await pilot.pause()
        assert h.app.query_one("#inspector-undo").display
        summary = h.app.query_one("#inspector-page").region
        assert summary.width >= 20 and summary.height <= 2


async def test_ctrl_r_restores_an_earlier_version_wherever_the_focus_is(
    make_app: MakeApp,
) -> None:
    """Found by the eighth new user: Tab three times reached the frame around the fields,
    not Restore, and Enter did nothing."""
    seed = [
        seed_entry("rust", "The user prefers Rust", superseded_by="id-python"),
        seed_entry("python", "The user prefers Python"),
    ]
    h = make_app(seed=seed)
    async with h.app.run_test(size=(120, 40)) as pilot:
        await open_inspector(h, pilot)
        h.app.query_one("#inspector-superseded", Checkbox).value = True
        await pilot.pause()
        await settle(pilot)
        h.app.memory_view.open_entry(next(e for e in h.app.inspector.entries if e.key == "rust"))
        await settle(pilot)
        labels = [str(label.render()) for label in h.app.screen.query(Label)]
        assert "Ctrl+R restore · Esc close · Tab to the buttons" in labels
        await pilot.press("tab", "tab", "tab")
        await pilot.press("ctrl+r")
        await settle(pilot)
        restored = await h.runtime.memory.get("rust")
        assert restored is not None and restored.superseded_by is None


async def test_ctrl_s_saves_an_edit(make_app: MakeApp) -> None:
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(120, 40)) as pilot:
        await open_inspector(h, pilot)
        h.app.memory_view.open_entry(next(e for e in h.app.inspector.entries if e.key == "pet"))
        await pilot.pause()
        h.app.screen.query_one("#detail-content", TextArea).text = "The cat is called Tofu"
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = await h.runtime.memory.get("pet")
        assert saved is not None and saved.content == "The cat is called Tofu"


async def test_a_saved_message_row_says_when_and_a_wide_panel_shows_more_text(
    make_app: MakeApp,
) -> None:
    """Found by the eighth new user: every message row read "conversation/20…", and at 120
    columns each memory showed 25 characters with room to spare."""
    from rich.text import Text

    long_text = "I went kayaking on the Sognefjord with Ana and Tom last summer, in July"
    seed = [seed_entry("conversation/s1/m1", long_text, "conversation", session_id="s1")]
    h = make_app(seed=seed)
    async with h.app.run_test(size=(200, 40)) as pilot:
        await open_inspector(h, pilot)
        row = h.app.query_one(DataTable).get_row("id-conversation/s1/m1")
        key_cell, content_cell = row[1], row[4]
        assert isinstance(key_cell, Text) and key_cell.plain.startswith("said ")
        assert isinstance(content_cell, Text) and len(content_cell.plain) > 28
        # The day said in words, not "12-05", which a new user in Sydney read as 12 May.
        assert re.fullmatch(r"said \d{1,2} [A-Z][a-z]{2} \d\d:\d\d", key_cell.plain)


async def test_a_narrow_panel_gives_the_text_the_room_of_category_and_score(
    make_app: MakeApp,
) -> None:
    """Found by the ninth new user: at 80 columns each memory's text showed 2 characters."""
    from rich.text import Text

    h = make_app(seed=SEED)
    async with h.app.run_test(size=(56, 24)) as pilot:  # the panel takes it all
        await open_inspector(h, pilot)
        row = h.app.query_one(DataTable).get_row("id-editor")
        assert row[2] == Text("") and isinstance(row[4], Text)
        assert len(row[4].plain) >= 10
        panel = h.app.inspector.region
        assert h.app.query_one(DataTable).virtual_size.width <= panel.width


async def test_f5_gives_the_panel_the_whole_window_and_each_memory_its_text(
    make_app: MakeApp,
) -> None:
    """Found by a new user: at 200 columns each memory's text was cut to 30 characters
    beside the chat; every row had to be opened to be read."""
    text = "Invoice 2026-114 to Müller GmbH, 1.240,50 €, paid on 04.12.2026 by bank transfer"
    h = make_app(seed=[seed_entry("invoice", text)])
    async with h.app.run_test(size=(200, 40)) as pilot:
        await h.app.ready.wait()
        await pilot.press("f5")  # opens it, wide
        await settle(pilot)
        assert h.app.inspector.display and not h.app.query_one("#chat-pane").display
        row = h.app.query_one(DataTable).get_row("id-invoice")
        assert row[4].plain == text
        title = h.app.query_one("#inspector-title", Label)
        assert "(F5 beside the chat)" in str(title.render())
        h.app.inspector.query_one("#inspector-search").focus()
        await pilot.press("f5")  # back beside the chat
        await settle(pilot)
        assert h.app.query_one("#chat-pane").display and h.app.chat.size.width >= 80
        assert len(h.app.query_one(DataTable).get_row("id-invoice")[4].plain) < len(text)
        assert "(F5 wider)" in str(title.render())
        # The chat's prompt takes what is typed next (a new user's two messages went into
        # the panel's search and were never sent).
        assert h.app.focused is h.app.prompt
        await pilot.press("f5", "f2")  # wide, then closed: the chat comes back
        await settle(pilot)
        assert not h.app.inspector.display and h.app.chat.size.width >= 190


async def test_the_deleted_view_across_the_window_shows_each_text_whole(
    make_app: MakeApp,
) -> None:
    """Found by a new user, an allotment's secretary: at 200 columns (F5) the deleted view
    read "conversatio…" and "remember the annu…"; it fits the width it is given, and a
    resize brings it back beside the chat."""
    text = "Invoice 2026-114 to Müller GmbH, 1.240,50 €, paid on 04.12.2026 by bank transfer"
    h = make_app(seed=[seed_entry("invoice", text)])
    async with h.app.run_test(size=(200, 40)) as pilot:
        await h.app.ready.wait()
        await h.runtime.memory.forget("invoice")
        await pilot.press("f5")
        await settle(pilot)
        h.app.query_one("#inspector-audit", Checkbox).value = True
        await pilot.pause()
        await settle(pilot)
        table = h.app.query_one(DataTable)
        assert [cell.plain for cell in table.get_row_at(0)[1:]] == ["invoice", text, "forgotten"]
        await pilot.press("f5")  # beside the chat: the text takes what the panel leaves
        await settle(pilot)
        assert table.get_row_at(0)[2].plain.endswith("…")


async def test_f5_shows_a_long_key_whole(make_app: MakeApp) -> None:
    """Found by a new user, a nurse: keys read "bredas_new_numbe…" across the whole window,
    with room to spare."""
    # Longer than the 32 cells a wide key had (a new user, a plumber).
    key = "jake_the_apprentice_is_paid_0e6a1f_hourly"
    h = make_app(seed=[seed_entry(key, "Jake the apprentice is paid 11.50/hr")])
    async with h.app.run_test(size=(200, 40)) as pilot:
        await h.app.ready.wait()
        await pilot.press("f5")
        await settle(pilot)
        assert h.app.query_one(DataTable).get_row(f"id-{key}")[1].plain == key
        await pilot.press("f5")  # beside the chat: cut, as the text is
        await settle(pilot)
        assert h.app.query_one(DataTable).get_row(f"id-{key}")[1].plain.endswith("…")


async def test_f5_at_80_columns_shows_no_less_of_the_text(make_app: MakeApp) -> None:
    """Found by a new user, a retired nurse: at 80 columns F5 widened the key's column to
    32 cells and the text showed less than beside the chat."""
    text = "My ramipril dose went up to 10mg after the check with Dr Fitzgerald in December"
    key = "my_ramipril_dose_went_up_to_10mg_f00d42"
    h = make_app(seed=[seed_entry(key, text)])
    async with h.app.run_test(size=(80, 40)) as pilot:
        await open_inspector(h, pilot)
        beside = h.app.query_one(DataTable).get_row(f"id-{key}")[4].plain
        await pilot.press("f5")
        await settle(pilot)
        wide = h.app.query_one(DataTable).get_row(f"id-{key}")[4].plain
        assert len(wide) >= len(beside), (beside, wide)


async def test_f5_from_the_chat_gives_the_keys_to_the_panel(make_app: MakeApp) -> None:
    """Found by a new user: across the window, ↑ and Enter still went to the hidden chat's
    input (↑ opened the last message for editing)."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(160, 40)) as pilot:
        await open_inspector(h, pilot)
        h.app.prompt.focus()
        await pilot.press("f5")
        await settle(pilot)
        assert h.app.focused is h.app.query_one(DataTable)
        await pilot.press("up", "down")
        assert not h.app.prompt.editing and h.app.prompt.text == ""


async def test_a_reopened_inspector_replaces_its_last_search_with_what_is_typed(
    make_app: MakeApp,
) -> None:
    """Found by the tenth new user: typed after reopening, "lisinopril" was added to the
    last search ("what is my cat calledlisinopril")."""
    from textual.widgets import Input

    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        await pilot.press(*"cat")
        await pilot.press("f2", "f2")  # closed, then opened again
        await settle(pilot)
        await pilot.press(*"tea")
        assert h.app.query_one("#inspector-search", Input).value == "tea"


async def test_ctrl_a_in_the_search_box_selects_the_query_to_type_over(make_app: MakeApp) -> None:
    """Found by a new user: Ctrl+A went to the line's start, so the next query was typed
    before the old one ("penicillin allergydose"); in the prompt it selects all."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        search = h.app.query_one("#inspector-search", Input)
        search.focus()
        await pilot.press(*"penicillin allergy", "ctrl+a", *"dose")
        assert search.value == "dose"
        await pilot.press("home", *"my ")
        assert search.value == "my dose"  # Home still goes to the start


async def test_an_edit_keeps_the_other_line_breaks_of_the_text_as_they_were(
    make_app: MakeApp,
) -> None:
    """Found by an adversary: adding "!" to a memory with a form feed, a vertical tab and a
    lone carriage return saved each as a newline; one with U+2028 kept none of the edit."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        memory = h.runtime.memory
        stored = "form feed\f vtab\v old mac\rending\u2028numbat two"
        entry = await memory.store("odd", stored, "core")
        h.app.memory_view.open_entry(entry)
        await pilot.pause()
        editor = h.app.screen.query_one("#detail-content", TextArea)
        assert editor.document.line_count == 1  # no break of those splits the text
        assert "\u240c" in str(editor.get_line(0)) and "\u21b5" in str(editor.get_line(0))
        editor.focus()
        editor.move_cursor(editor.document.end)
        await pilot.press("!")
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = await memory.get("odd")
        assert saved is not None and saved.content == stored + "!"


def test_the_detail_gives_times_in_the_zone_the_list_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by an adversary: the detail said UTC where the list beside it said local time."""
    import time
    from datetime import UTC, datetime

    from memory.entry import MemoryEntry

    monkeypatch.setenv("TZ", "Pacific/Auckland")
    time.tzset()
    try:
        said = datetime(2026, 12, 4, 22, 4, tzinfo=UTC)
        entry = MemoryEntry(
            id="m1", key="k", content="c", category="core", timestamp=said, updated_at=said
        )
        fields = plain(field_table(entry))
        assert "2026-12-05 11:04:00 NZDT" in fields and "UTC" not in fields
    finally:
        monkeypatch.undo()
        time.tzset()


async def test_f5_shows_a_long_memory_whole_and_scrolled(make_app: MakeApp) -> None:
    """Found by an adversary: a 5,000-character memory was cut at three lines in the wide
    panel, which promises each memory's text in full."""
    text = " ".join(f"word{number}" for number in range(800)) + " THE-END"
    h = make_app(seed=[seed_entry("long", text)])
    async with h.app.run_test(size=(120, 40)) as pilot:
        await h.app.ready.wait()
        await pilot.press("f5")
        await settle(pilot)
        table = h.app.query_one(DataTable)
        table.focus()
        table.move_cursor(row=table.get_row_index("id-long"))
        await settle(pilot)
        box = h.app.query_one("#inspector-preview-box")
        assert "THE-END" in str(h.app.query_one("#inspector-preview", Static).render())
        assert box.size.height > 4 and box.max_scroll_y > 0
        box.scroll_end(animate=False)
        await settle(pilot)
        assert box.scroll_y == box.max_scroll_y


async def test_down_or_enter_in_the_search_box_goes_to_the_results(make_app: MakeApp) -> None:
    """Found by a new user: six Tabs past the filters to reach the results, and a Down on
    the way opened the category list."""
    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        search = h.app.query_one("#inspector-search", Input)
        search.focus()
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)
        assert h.app.focused is h.app.query_one(DataTable)
        search.focus()
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert h.app.focused is h.app.query_one(DataTable)


async def test_typing_on_the_list_or_a_filter_searches(make_app: MakeApp) -> None:
    """Found by a new user, a carer: "key safe" typed with the list focused did nothing to
    be seen, and with a filter focused its space ticked "deleted"."""
    h = make_app(seed=[seed_entry("safe", "The key safe code is 4719"), seed_entry("pet", "Miso")])
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        search = h.app.inspector.query_one("#inspector-search", Input)
        h.app.inspector.query_one(DataTable).focus()
        await pilot.press(*"key")
        assert search.has_focus and search.value == "key"
        search.value = ""
        deleted = h.app.inspector.query_one("#inspector-audit", Checkbox)
        deleted.focus()
        await pilot.press(*"key safe")
        assert search.has_focus and search.value == "key safe" and not deleted.value


async def test_a_search_typed_fast_on_the_list_keeps_its_spaces(make_app: MakeApp) -> None:
    """Found by a new user, a translator: "gestoria phone" typed on the full-width list
    (the keys arriving together, as from a fast typist or a paste) searched "gestoriaphone":
    the keys after the first reached the list before the search box had the focus, and
    the list passed letters on but not spaces."""
    from textual import events

    h = make_app(seed=[seed_entry("gestoria", "The gestoria phone is 961 55 80 33")])
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        search = h.app.inspector.query_one("#inspector-search", Input)
        search.value = "vet"  # a search before: typed on the list, a new one begins
        await settle(pilot)
        h.app.inspector.query_one(DataTable).focus()
        await settle(pilot)
        for character in "gestoria phone":
            key = "space" if character == " " else character
            h.app.post_message(events.Key(key, character))
        await settle(pilot)
        assert search.has_focus and search.value == "gestoria phone"


async def test_a_paste_on_the_list_searches(make_app: MakeApp) -> None:
    from textual import events

    h = make_app(seed=[seed_entry("gestoria", "The gestoria phone is 961 55 80 33")])
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        search = h.app.inspector.query_one("#inspector-search", Input)
        table = h.app.inspector.query_one(DataTable)
        table.focus()
        await settle(pilot)
        table.post_message(events.Paste("gestoria phone\nmore"))
        await settle(pilot)
        assert search.has_focus and search.value == "gestoria phone"


async def test_a_tall_window_lists_more_than_twenty_memories_on_a_page(make_app: MakeApp) -> None:
    """Found by a new user: F5 on a big screen showed "page 1/2 · 21 entries" and half the
    window empty."""
    h = make_app(seed=[seed_entry(f"note{n}", f"note number {n}") for n in range(21)])
    async with h.app.run_test(size=(160, 60)) as pilot:
        await h.app.ready.wait()
        await pilot.press("f5")
        await settle(pilot)
        assert h.app.query_one(DataTable).row_count == 21
        page = h.app.inspector.query_one("#inspector-page", Label)
        assert "page 1/1" in str(page.render())


async def test_backspaces_typed_fast_on_the_list_reach_the_search(make_app: MakeApp) -> None:
    """Found by a new user: "porte", five Backspaces and "door" typed fast on the list
    searched "portdoor": the Backspaces on their way to the list were dropped."""
    from textual import events
    from textual.widgets import Input

    h = make_app(seed=SEED)
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        table = h.app.query_one(DataTable)
        table.focus()
        await settle(pilot)
        keys = [*"porte", *["backspace"] * 5, *"door"]
        for key in keys:  # queued on the list at once, as a fast typist's are
            character = None if key == "backspace" else key
            table.post_message(events.Key(key, character))
        await settle(pilot)
        assert h.app.query_one("#inspector-search", Input).value == "door"


async def test_a_forgotten_message_is_named_as_the_list_names_it(make_app: MakeApp) -> None:
    """Found by a new user demoing memchat: the toast said "Forgot conversation/20270901-
    090005-84d4d8/5666cbe04d59 (… puts conversation/… back)", where the list says when it
    was said."""
    said = seed_entry(
        "conversation/s1/abc123", "The reading group meets Thursday", category="conversation"
    )
    h = make_app(seed=[said])
    async with h.app.run_test(size=(140, 40)) as pilot:
        await open_inspector(h, pilot)
        h.app.memory_view.open_entry(next(e for e in h.app.inspector.entries if e.id == said.id))
        await pilot.pause()
        await pilot.click("#forget")
        await settle(pilot)
        told = [n.message for n in h.app._notifications if n.message.startswith("Forgot")]
        assert told and told[-1].startswith("Forgot the message said ")
        assert "conversation/" not in told[-1]

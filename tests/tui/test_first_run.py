"""First run: Ollama down, model missing, and the settings written back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent.model import ModelNotFoundError, RunningModel, ServerUnavailableError
from agent.testing import ScriptedModel
from tests.tui.conftest import MakeApp, server_down, settle
from tui.palette import palette_commands
from tui.screens.model_pull import ModelPullScreen
from tui.screens.server_down import ServerDownScreen


async def test_ollama_down_screen_says_what_to_do_and_recovers(make_app: MakeApp) -> None:
    h = server_down(make_app)
    async with h.app.run_test(size=(100, 30)) as pilot:
        await h.app.ready.wait()
        await pilot.pause()
        assert isinstance(h.app.screen, ServerDownScreen)
        text = str(h.app.screen.query_one("#down-help").render())
        assert "127.0.0.1:11434" in text and "ollama serve" in text
        assert "not running" in str(h.app.status.render())
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(h.app.screen, ServerDownScreen)
        h.model.failure = None
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.pause()
        assert not isinstance(h.app.screen, ServerDownScreen)
        await settle(pilot)
        assert "ollama: connected" in str(h.app.status.render())


async def test_an_openai_compatible_server_down_gets_its_own_advice(make_app: MakeApp) -> None:
    from agent.openai_model import HINT

    model = ScriptedModel(name="smollm2")
    model.failure = ServerUnavailableError("http://127.0.0.1:8080/v1", "The model server", HINT)
    h = make_app(model)
    async with h.app.run_test(size=(100, 30)) as pilot:
        await h.app.ready.wait()
        await pilot.pause()
        assert isinstance(h.app.screen, ServerDownScreen)
        title = str(h.app.screen.query_one("#down-title").render())
        text = str(h.app.screen.query_one("#down-help").render())
        assert title == "The model server is not reachable"
        assert "127.0.0.1:8080/v1" in text and "model.base_url" in text
        assert "ollama" not in text.lower()


async def test_memory_works_without_ollama(make_app: MakeApp) -> None:
    h = server_down(make_app)
    async with h.app.run_test(size=(100, 30)) as pilot:
        await h.app.ready.wait()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(h.app.screen, ServerDownScreen)
        h.app.turns.submit("/remember the spare key is under the blue pot")
        await settle(pilot)
        assert await h.runtime.memory.count() == 1


async def test_missing_model_offers_the_pull_with_progress(make_app: MakeApp) -> None:
    model = ScriptedModel(name="qwen3:8b")
    model.failure = ModelNotFoundError("qwen3:8b")
    h = make_app(model)
    async with h.app.run_test(size=(100, 30)) as pilot:
        await h.app.ready.wait()
        await pilot.pause()
        assert isinstance(h.app.screen, ModelPullScreen)
        assert "qwen3:8b" in str(h.app.screen.query_one("#pull-title").render())
        await pilot.click("#pull")
        await settle(pilot)
        await pilot.pause()
        await settle(pilot)
        assert not isinstance(h.app.screen, ModelPullScreen)
        assert "ollama: connected" in str(h.app.status.render())
        assert "qwen3:8b" in model.installed


async def test_a_failed_pull_shows_its_whole_message(make_app: MakeApp) -> None:
    """Found by a new user: the message was cut off at "Pull it with `ollam"."""
    model = ScriptedModel(name="qwen3:8b")
    model.failure = ModelNotFoundError("qwen3:8b")
    model.pull_failure = ModelNotFoundError("no-such-model:latest")
    h = make_app(model)
    async with h.app.run_test(size=(100, 30)) as pilot:
        await h.app.ready.wait()
        await pilot.pause()
        screen = h.app.screen
        assert isinstance(screen, ModelPullScreen)
        await pilot.click("#pull")
        await settle(pilot)
        await pilot.pause()
        status = screen.query_one("#pull-status")
        assert "from the command palette." in str(status.render())
        from textual.widgets import ProgressBar

        assert not screen.query_one(ProgressBar).display  # no download is under way
        box = screen.query_one("#pull-box").content_region
        assert status.region.right <= box.right and status.region.height >= 2


async def test_a_missing_model_can_be_swapped_for_an_installed_one(make_app: MakeApp) -> None:
    from textual.widgets import ProgressBar

    from tui.screens.pickers import PickerScreen

    model = ScriptedModel(name="qwen3:8b")
    model.failure = ModelNotFoundError("qwen3:8b")
    # A server listing a model twice crashed the picker (DuplicateID, a new user).
    model.installed[:] = ["llama3.1:8b", "llama3.1:8b"]
    h = make_app(model)
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        await pilot.pause()
        screen = h.app.screen
        assert isinstance(screen, ModelPullScreen)
        assert not screen.query_one(ProgressBar).display  # no idle bar before a pull
        await pilot.click("#switch")
        await settle(pilot)
        await pilot.pause()
        picker = h.app.screen
        assert isinstance(picker, PickerScreen)
        assert [key for key, _ in picker.choices] == ["llama3.1:8b"]


async def test_an_openai_compatible_server_without_the_model_offers_its_models(
    make_app: MakeApp,
) -> None:
    from agent.config import ModelSettings
    from tui.screens.pickers import PickerScreen

    config = Path(os.environ["MEMCHAT_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[model]\nprovider = "openai"\nname = "gone"\n')
    model = ScriptedModel(name="gone")
    model.failure = ModelNotFoundError("gone", "the server serves qwen, smollm2")
    model.installed[:] = ["qwen", "smollm2"]
    h = make_app(model)
    h.app.config = h.app.config.model_copy(
        update={"model": ModelSettings(provider="openai", name="gone")}
    )
    async with h.app.run_test(size=(100, 30)) as pilot:
        await h.app.ready.wait()
        await settle(pilot)
        await pilot.pause()
        assert isinstance(h.app.screen, PickerScreen)
        assert any("serves qwen" in n.message for n in h.app._notifications)
        model.failure = None
        h.app.screen.dismiss("smollm2")
        await settle(pilot)
        await pilot.pause()
        assert h.runtime.agent.model.name == "smollm2"
        text = config.read_text()
        assert 'name = "smollm2"' in text and "[ollama]" not in text


async def test_vram_share_shows_in_the_status_bar(make_app: MakeApp) -> None:
    model = ScriptedModel(name="qwen3:8b")
    model.loaded = [RunningModel("qwen3:8b", 6_000, 4_500)]
    h = make_app(model)
    async with h.app.run_test(size=(120, 30)):
        await h.app.ready.wait()
        await h.app.startup.poll_server()
        assert "75% GPU" in str(h.app.status.render())


async def test_settings_are_written_back_keeping_comments(make_app: MakeApp) -> None:
    config = Path(os.environ["MEMCHAT_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("# my config\n[ollama]\n# favourite\nmodel = 'qwen3:8b'\n")
    model = ScriptedModel(name="qwen3:8b")
    model.installed.append("llama3.1:8b")
    h = make_app(model)
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        h.app.action_toggle_thinking()
        h.app.models.set_keep_alive("30m")
        h.app.models.use("llama3.1:8b")
        await settle(pilot)
        await pilot.pause()
        text = config.read_text()
        assert "# my config" in text and "# favourite" in text
        assert 'model = "llama3.1:8b"' in text or "model = 'llama3.1:8b'" in text
        assert "think = true" in text and 'keep_alive = "30m"' in text
        assert h.runtime.agent.model.name == "llama3.1:8b"
        assert "llama3.1:8b" in str(h.app.status.render())
        await h.app.models.unload()
        assert model.unloads == 1


async def test_palette_lists_the_commands(make_app: MakeApp) -> None:
    h = make_app()
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        titles = [c.title for c in palette_commands(h.app)]
        for expected in (
            "New session",
            "Switch session",
            "Switch model",
            "Pull a model",
            "Toggle thinking",
            "Keep model loaded 5 min",
            "Keep model loaded 30 min",
            "Unload model now",
            "Toggle memory inspector",
            "Export memory",
            "Import memory",
        ):
            assert expected in titles
        importing = next(c for c in palette_commands(h.app) if c.title == "Import memory")
        importing.callback()
        await pilot.pause()
        said = [n.message for n in h.app._notifications]
        assert any("memchat memory import FILE" in text for text in said), said


PALETTE_PHRASES = [
    ("sessions", "Switch session"),
    ("memory panel", "Toggle memory inspector"),
    ("chats", "Search chats"),
    ("switch sess", "Switch session"),
    ("new chat", "New session"),
    ("undo forget", "Toggle memory inspector"),
    ("restore", "Toggle memory inspector"),
    ("history", "Toggle memory inspector"),
    # Found by the third new user.
    ("export memories", "Export memory"),
    ("delete memory", "Toggle memory inspector"),
    ("import", "Import memory"),
    # Found by the eighth new user: everyday phrases.
    ("forget something", "Toggle memory inspector"),
    ("what do you know about me", "Toggle memory inspector"),
    ("pin a memory", "Toggle memory inspector"),
    ("delete chat", "Switch session"),
    ("private mode", "Toggle incognito"),
    ("backup my memories", "Export memory"),
    ("help", "Help"),
    # Found by the ninth new user.
    ("open an old chat", "Switch session"),
    ("reopen", "Switch session"),
    ("previous conversation", "Switch session"),
    ("erase", "Erase a memory for good"),
    ("forget a secret", "Erase a memory for good"),
    # Found by the eleventh round's new user.
    ("settings", "Settings"),
    ("config", "Settings"),
    ("preferences", "Settings"),
]


async def test_palette_finds_a_command_by_the_words_a_user_types(make_app: MakeApp) -> None:
    """Found by a new user: "sessions" did not find "Switch session" (Textual's fuzzy match
    wants every letter of the query in the title, in order). Every phrase in one app."""
    from textual.command import CommandInput, CommandList, CommandPalette

    h = make_app()
    missed: list[tuple[str, list[str]]] = []
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        for typed, found in PALETTE_PHRASES:
            await pilot.press("ctrl+p")
            # Typed as a paste: one key press per letter took a second a phrase.
            h.app.screen.query_one(CommandInput).insert_text_at_cursor(typed)
            await settle(pilot)  # the palette searches in a worker
            shown = [str(option.prompt) for option in h.app.screen.query_one(CommandList).options]
            if not any(found in text for text in shown) or any(
                "Copy last reply" in text
                for text in shown  # not searched yet
            ):
                missed.append((typed, shown))
            await pilot.press("escape")
            await settle(pilot)
            assert not isinstance(h.app.screen, CommandPalette)
    assert missed == []


def test_loose_palette_match_needs_every_word() -> None:
    from tui.palette import loosely_matches

    assert loosely_matches("sessions", "Switch session", "Resume an earlier conversation")
    assert loosely_matches("earlier conv", "Switch session", "Resume an earlier conversation")
    assert not loosely_matches("sessions pizza", "Switch session", "Resume")
    assert not loosely_matches("", "Switch session", "Resume")
    assert not loosely_matches("ssion", "Switch session", "Resume")


async def test_palette_leaves_out_ollama_only_commands_for_other_servers(
    make_app: MakeApp,
) -> None:
    from agent.config import ModelSettings

    h = make_app()
    h.app.config = h.app.config.model_copy(update={"model": ModelSettings(provider="openai")})
    async with h.app.run_test(size=(120, 30)):
        await h.app.ready.wait()
        titles = [c.title for c in palette_commands(h.app)]
        assert "Switch model" in titles and "Export memory" in titles
        for ollama_only in ("Pull a model", "Toggle thinking", "Unload model now"):
            assert ollama_only not in titles
        assert not any(t.startswith("Keep model loaded") for t in titles)


async def test_export_memory_writes_a_private_file(make_app: MakeApp) -> None:
    from tests.tui.conftest import seed_entry

    h = make_app(seed=[seed_entry("a", "alpha"), seed_entry("b", "beta")])
    async with h.app.run_test(size=(120, 30)):
        await h.app.ready.wait()
        await h.app.memory_view.export()
        exports = list((Path(os.environ["MEMCHAT_HOME"]) / "exports").glob("*.jsonl"))
        assert len(exports) == 1 and len(exports[0].read_text().splitlines()) == 2
        assert exports[0].stat().st_mode & 0o777 == 0o600


def test_status_bar_names_the_server_kind_and_shortens_model_paths() -> None:
    from tui.widgets.status_bar import StatusState, context_style, render_status

    text = render_status(
        StatusState(
            model="/models/smollm2/SmolLM2-135M.Q4_1.gguf",
            server="connected",
            server_label="server",
            context_used=900,
            num_ctx=1000,
        )
    ).plain
    assert text.startswith("SmolLM2-135M.Q4_1.gguf │ server: connected")
    assert "ctx 900/1,000 (90%)" in text
    assert [context_style(n, 100) for n in (10, 50, 80)] == ["green", "yellow", "bold red"]


def test_incognito_and_warnings_come_first_where_a_narrow_terminal_keeps_them() -> None:
    """Found by a new user: at 140 columns the line ended before "incognito: not saving"."""
    from tui.widgets.status_bar import StatusState, render_status

    text = render_status(
        StatusState(
            model="qwen3:8b",
            server="connected",
            tools="native",
            embeddings="nomic-embed-text",
            memories=12,
            context_used=900,
            num_ctx=8192,
            tokens_per_second=60.0,
            load_seconds=2.5,
            gpu_share=1.0,
            incognito=True,
            warning="disk almost full",
        )
    ).plain
    assert text.startswith("incognito: not saving │ qwen3:8b │ ollama: connected │ ⚠ disk")


async def test_follow_up_work_stops_quietly_only_once_the_app_quits(make_app: MakeApp) -> None:
    from textual.css.query import NoMatches

    from tui.quitting import unless_quitting

    h = make_app()

    async def widget_gone() -> None:
        raise NoMatches("No nodes match 'StatusBar'")

    async with h.app.run_test(size=(100, 30)):
        await h.app.ready.wait()
        with pytest.raises(NoMatches):  # a real bug while running: not hidden
            await unless_quitting(h.app, widget_gone())
        h.app._return_code = 0  # the app has begun to exit
        await unless_quitting(h.app, widget_gone())
        h.app._return_code = None


async def test_the_model_picker_shows_size_and_capabilities(make_app: MakeApp) -> None:
    from textual.widgets import OptionList

    from tui.screens.pickers import PickerScreen

    model = ScriptedModel(name="qwen3:8b", supports_thinking=True, context_length=40960)
    model.installed[:] = ["qwen3:8b", "gemma3:4b"]
    h = make_app(model)
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        h.app.action_switch_model()
        await settle(pilot)
        picker = h.app.screen
        assert isinstance(picker, PickerScreen)
        options = picker.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(2)]
        # The model in use is marked and highlighted: Enter keeps it.
        assert labels == [
            "gemma3:4b  (4.9 GB, tools, thinking, up to 40k context)",
            "qwen3:8b  (4.9 GB, tools, thinking, up to 40k context)  ◀ in use",
        ]
        assert options.highlighted == 1


async def test_a_long_status_line_leaves_out_the_least_needed_parts_to_fit(
    make_app: MakeApp,
) -> None:
    """Found by new users: at 120 columns with incognito on, the speed and the GPU share
    at the end were cut off; wrapped instead, the line took two of a 24-row terminal's
    rows at 80 columns. Now it leaves out the load time, the speed and an unremarkable GPU
    share, and brings them back when the terminal is wider."""
    from tests.tui.conftest import screen_text

    h = make_app()
    async with h.app.run_test(size=(80, 30)) as pilot:
        await h.app.ready.wait()
        h.app.status.set(
            model="qwen3:8b",
            embeddings="nomic-embed-text",
            tools="native",
            context_used=900,
            num_ctx=8_192,
            tokens_per_second=60.0,
            load_seconds=1.5,
            gpu_share=1.0,
        )
        await settle(pilot)
        assert h.app.status.size.height == 1
        shown = "\n".join(screen_text(h.app.export_screenshot()))
        assert "qwen3:8b │ ollama: connected" in shown and "nomic-embed-text" in shown
        assert "tok/s" not in shown and "load" not in shown
        # What warns stays, on a second line if need be.
        h.app.status.set(incognito=True, context_used=5_000)
        await settle(pilot)
        shown = "\n".join(screen_text(h.app.export_screenshot()))
        assert "incognito: not saving" in shown and "ctx 5,000/8,192" in shown
        assert h.app.status.size.height == 2
        await pilot.resize_terminal(160, 30)
        await settle(pilot)
        shown = "\n".join(screen_text(h.app.export_screenshot()))
        assert "60.0 tok/s" in shown and "load 1.5s" in shown and "GPU" in shown


def test_a_narrow_status_line_keeps_what_warns() -> None:
    from tui.widgets.status_bar import StatusState, render_status

    state = StatusState(
        model="qwen3:8b",
        server="connected",
        tools="off",
        embeddings="nomic-embed-text",
        memories=3,
        context_used=7_900,
        num_ctx=8_192,
        tokens_per_second=3.1,
        gpu_share=0.4,
    )
    text = render_status(state, width=40).plain
    assert "tools: off" in text and "40% GPU" in text and "ctx 7,900" in text
    assert "tok/s" not in text
    assert render_status(state).plain.endswith("3.1 tok/s │ 40% GPU")


async def test_undo_forget_is_in_the_palette_after_a_forget(make_app: MakeApp) -> None:
    """Found by a new user: "undo" in the palette offered only "Unload model now"."""
    from textual.command import CommandList

    from tests.tui.conftest import seed_entry

    h = make_app(seed=[seed_entry("[b]pet[/]", "The cat is called Miso")])
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        assert "Undo forget" not in [c.title for c in palette_commands(h.app)]
        editor = h.app.inspector.editor
        assert editor is not None
        entry = await h.runtime.memory.get("[b]pet[/]")
        assert entry is not None
        h.app.inspector.offer_undo(await editor.forget(entry))
        await pilot.press("ctrl+p")
        await pilot.press(*"undo")
        await settle(pilot)
        options = h.app.screen.query_one(CommandList).options
        shown = [str(option.prompt) for option in options]
        assert any("Undo forget" in text and "[b]pet[/]" in text for text in shown), shown
        await pilot.press("enter")
        await settle(pilot)
        assert await h.runtime.memory.get("[b]pet[/]") is not None


async def test_undo_with_nothing_to_undo_offers_no_unrelated_command(make_app: MakeApp) -> None:
    """Found by the eighth new user: "undo" found "Unload model now" by its letters
    (u-n-…-d-o), and Enter unloaded the model."""
    from textual.command import CommandList

    h = make_app()
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        await pilot.press("ctrl+p")
        await pilot.press(*"undo")
        await settle(pilot)
        shown = [str(option.prompt) for option in h.app.screen.query_one(CommandList).options]
        assert not any("Unload" in text for text in shown), shown
        assert any("Toggle memory inspector" in text for text in shown), shown


async def test_facts_hygiene_removes_are_said_with_the_setting_behind_it(
    make_app: MakeApp,
) -> None:
    """Found by an adversary: `core_max_entries = 2` took 26 facts at start-up; only the
    status bar's count changed where anyone would look."""
    from tests.tui.conftest import seed_entry

    seed = [seed_entry(f"fact{i}", f"Fact number {i} about the garden") for i in range(5)]
    h = make_app(seed=seed, budgets={"core_max_entries": 2})
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        await settle(pilot)
        said = [n for n in h.app._notifications if n.title == "Memory hygiene"]  # noqa: SLF001
        assert len(said) == 1 and said[0].severity == "warning"
        assert "Removed 3 memories (3 for budget: core over 2 entries" in said[0].message
        assert "(memory.budgets)" in said[0].message and "'deleted' filter" in said[0].message
        assert await h.runtime.memory.count() == 2


async def test_the_settings_command_says_where_the_config_file_is(make_app: MakeApp) -> None:
    """Found by a new user: no settings screen, and "settings" found nothing in the palette."""
    from agent.paths import config_path
    from tui.palette import palette_commands

    h = make_app()
    async with h.app.run_test(size=(120, 30)) as pilot:
        await h.app.ready.wait()
        settings = next(c for c in palette_commands(h.app) if c.title == "Settings")
        settings.callback()
        await pilot.pause()
        said = [n.message for n in h.app._notifications]
        assert any(str(config_path()) in text and "config.example.toml" in text for text in said)


def test_the_hygiene_notice_writes_every_count_alike() -> None:
    """An adversary: "Removed 3,277 memories (3277 for retention: …)"."""
    from datetime import UTC, datetime

    from memory.entry import MemoryEntry
    from tui.memory_view import hygiene_notice

    at = datetime(2026, 1, 1, tzinfo=UTC)
    entry = MemoryEntry(id="a", key="a", content="x", timestamp=at, updated_at=at)
    removed = [(entry, "retention: conversation older than 30 days")] * 3277
    notice = hygiene_notice(removed)
    assert notice.startswith("Removed 3,277 memories (3,277 for retention: conversation")


async def test_the_status_bar_says_while_hygiene_tidies(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an adversary: on 20,000 memories hygiene ran for minutes and nothing said
    why the count stayed."""
    import asyncio

    from agent import maintenance
    from tui.widgets.status_bar import StatusBar

    judging, release = asyncio.Event(), asyncio.Event()
    real = maintenance.maintain

    async def slow(*args: object, **kwargs: object) -> object:
        judging.set()
        await release.wait()
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(maintenance, "maintain", slow)
    h = make_app()
    async with h.app.run_test(size=(160, 30)) as pilot:
        await judging.wait()
        await pilot.pause()
        bar = h.app.query_one(StatusBar)
        assert bar.state.tidying and "(tidying)" in str(bar.render())
        release.set()
        await settle(pilot)
        assert not bar.state.tidying and "(tidying)" not in str(bar.render())

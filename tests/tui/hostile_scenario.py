"""A conversation of hostile texts, then a restart on the same store: every surface checked.

Used by `test_hostile_text.py` for the corpus and for hypothesis-built text. For each text
`t` (case `i`), in a session of its own:

1. `t` is typed into the prompt and sent (auto-saved to memory, stored in the session);
2. the model thinks `t`, calls `memory_store` (key `t #i`, content `t`) and a tool named `t`
   with `t` as its argument, then replies `t` (streamed in 8-character chunks);
3. the app quits and starts again on the same store and session files (before the fix, a
   markup key or content crashed this start for good), opens the inspector and pages
   through it, opens the session picker and resumes each session (header sub-title), opens
   each `t #i` memory in the detail view and forgets it from there (a notification).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App
from textual.content import Content
from textual.notifications import Notification
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Header, OptionList, Static
from textual.widgets._toast import Toast

import tui
from agent.terminal_text import one_line_key
from agent.testing import Reply, ScriptedModel, call
from memory.entry import MemoryEntry
from tests.tui.conftest import build_app, settle
from tests.tui.hostile_checks import (
    FORBIDDEN,
    MARKUP_TOKENS,
    Drawing,
    assert_safe,
    assert_shown,
    drawn,
    drawn_tree,
    screen_drawn,
)
from tui.app import MemchatApp
from tui.plain import visible
from tui.screens.memory_detail import DetailResult, MemoryDetailScreen
from tui.screens.pickers import PickerScreen
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.memory_inspector import PAGE_SIZE
from tui.widgets.plain_text_area import PlainTextArea
from tui.widgets.prompt_input import PromptInput
from tui.widgets.tool_call_entry import ToolCallEntry
from tui.widgets.user_message import UserMessage

SIZE = (120, 36)


def memory_key(index: int, text: str) -> str:
    """A key holding `text` that the store accepts (non-blank, within the tool's limit)."""
    return f"{text[:190]} #{index}"


def typable(text: str) -> bool:
    """The prompt sends it as a message (not blank, not a command)."""
    return bool(text.strip()) and not text.lstrip().startswith("/")


@dataclass
class Seen:
    """What the first run produced, for the second to find again."""

    sent: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)


def _script(model: ScriptedModel, index: int, text: str) -> None:
    # Streamed in at most about 16 pieces: the 8-character default makes the long cases
    # thousands of redraws, and splitting anywhere is what matters (never at a boundary).
    chunk = max(8, len(text) // 16 + 1)
    model.add(
        Reply(
            thinking=text,
            tool_calls=[
                call("memory_store", key=memory_key(index, text), content=text[:10_000]),
                call(text, {"text": text}),
            ],
            chunk_chars=chunk,
        ),
        Reply(text=text, chunk_chars=chunk),
    )


def _folded(widget: Static) -> str:
    """What a widget inside a collapsed Collapsible will draw once expanded."""
    content = widget.content
    assert isinstance(content, Content | Text), type(content)  # never a str: markup
    return content.plain


def _check_turn(app: MemchatApp, sent: str, text: str) -> None:
    drawing = Drawing(app)
    [message] = app.chat.query(UserMessage)
    assert message.text == sent  # kept raw for copying
    assert_shown("user message", drawing.content(message), sent)
    replies = list(app.chat.query(AssistantMessage))
    assert replies[0].thinking == text
    assert_shown("thinking", _folded(replies[0].query_one("#thinking-text", Static)), text)
    reply = replies[-1]
    assert_safe("reply", drawing.text(reply), reply.text)
    # The only action a reply may carry is a Markdown link, which AssistantMessage vets.
    assert all(action.startswith("link(") for action in drawing.clicks(reply))
    name_entry, store_entry = (
        [e for e in app.chat.query(ToolCallEntry) if e.call_name == text][0],
        [e for e in app.chat.query(ToolCallEntry) if e.call_name == "memory_store"][0],
    )
    assert name_entry.has_class("failed")  # no tool has that name; it says so
    assert_shown("tool name", drawing.text(name_entry), text)
    arguments = json.dumps({"text": text}, ensure_ascii=False, indent=1)
    assert_shown("tool arguments", _folded(name_entry.query_one(".tool-body", Static)), arguments)
    # The title shows the arguments cut to a line: only what survived the cut can show.
    assert_safe("memory_store call", drawing.text(store_entry), str(store_entry.title))
    stored = _folded(store_entry.query_one(".tool-body", Static))
    assert_safe("memory_store result", stored, text)
    assert_safe("whole screen", drawing.text(app.screen), text)


async def converse(folder: Path, texts: list[str]) -> Seen:
    """First run: each text typed in a new session, answered with it in every form."""
    model = ScriptedModel(name="qwen3:8b")
    harness = build_app(folder, model)
    app = harness.app
    seen = Seen()
    async with app.run_test(size=SIZE) as pilot:
        await app.ready.wait()
        for index, text in enumerate(texts):
            await pilot.press("ctrl+n")
            await settle(pilot)
            _script(model, index, text)
            prompt = app.query_one(PromptInput)
            prompt.text = text
            await pilot.pause()
            sent = prompt.text  # what the editor holds (it turns \f, \v and \x85 into \n)
            assert_safe("prompt", drawn(prompt), sent)
            await pilot.press("enter")
            await settle(pilot)
            _check_turn(app, sent, text)
            seen.sent.append(sent)
            seen.keys.append(one_line_key(memory_key(index, text)))  # as the tool stores it
        assert app.is_running
    return seen


async def _check_inspector(pilot: Pilot[Any], app: MemchatApp) -> None:
    inspector = app.inspector
    table = inspector.query_one(DataTable)
    pages = max(1, -(-inspector.total // PAGE_SIZE))
    for page in range(pages):
        inspector.page = page
        inspector.reload()
        await settle(pilot)
        for entry in inspector.entries:
            key_cell, content_cell = table.get_row(entry.id)[1], table.get_row(entry.id)[4]
            assert isinstance(key_cell, Text) and isinstance(content_cell, Text)
            flat_key = " ".join(visible(entry.key).split())
            if entry.category == "conversation":  # a saved message shows when it was said
                assert key_cell.plain.startswith("said ")
            else:
                assert key_cell.plain.rstrip("…") == flat_key[: len(key_cell.plain.rstrip("…"))]
            flat_content = " ".join(visible(entry.content).split())
            assert content_cell.plain.rstrip("…") in flat_content
        assert_safe("inspector", drawn_tree(inspector), "")


def toast_text(notice: Notification) -> str:
    """What a notification's toast draws below its title (which is ours).

    Toasts stack up and scroll, so the one to check may be out of view: its message is
    rendered the way the toast renders it.
    """
    return Toast(replace(notice, title="")).render().plain


def _risky(text: str) -> bool:
    return bool(FORBIDDEN.search(text)) or any(token in text for token in MARKUP_TOKENS)


async def _check_sessions(pilot: Pilot[Any], app: MemchatApp, sent: list[str]) -> None:
    assert app.runtime is not None
    infos = app.runtime.sessions.list()
    assert len([i for i in infos if i.message_count]) == len(sent)
    app.action_switch_session()
    await settle(pilot)
    picker = app.screen
    assert isinstance(picker, PickerScreen)
    options = picker.query_one(OptionList)
    labels = []
    for index in range(options.option_count):
        prompt = options.get_option_at_index(index).prompt
        assert isinstance(prompt, Content)
        labels.append(prompt.plain)
    for info in infos:
        assert any(visible(info.title) in label for label in labels), info.title
        assert_safe("session picker", "\n".join(labels), info.title)
    assert_safe("session picker", screen_drawn(app), "")
    await pilot.press("escape")
    await settle(pilot)
    # Resuming redraws a whole transcript: the titles that markup or controls could break.
    for info in [i for i in infos if _risky(i.title)] or infos[:1]:
        app.chats.resume(info.id)
        await settle(pilot)
        assert app.sub_title == visible(info.title)
        drawing = Drawing(app)
        assert_shown("header", drawing.text(app.query_one(Header)), info.title)
        for message in app.chat.query(UserMessage):
            assert_shown("resumed message", drawing.content(message), message.text)
        assert_safe("resumed session", drawing.text(app.chat), info.title)


async def _check_warnings(pilot: Pilot[Any], app: MemchatApp, texts: list[str]) -> None:
    """Store warnings carry outside text (a damaged row's key, a file name)."""
    assert app.runtime is not None
    warnings: list[str] = app.runtime.memory.warnings
    warnings.extend(f"skipped a damaged row: {text}" for text in texts)
    app.inspector.reload()
    await settle(pilot)
    for warning in warnings:
        notices = [n for n in app._notifications if n.message == visible(warning)]
        assert len(notices) == 1 and not notices[0].markup, warning[:80]
        assert_shown("notification", toast_text(notices[0]), warning)
    before = len(app._notifications)
    app.inspector.reload()
    await settle(pilot)
    assert len(app._notifications) == before  # each warning is shown once


async def _forget_from_detail(pilot: Pilot[Any], app: MemchatApp, entry: MemoryEntry) -> None:
    app.memory_view.open_entry(entry)
    await settle(pilot)
    detail = app.screen
    assert isinstance(detail, MemoryDetailScreen)
    assert_safe("detail view", screen_drawn(app), entry.content)
    detail.query_one("#forget", Button).press()
    await settle(pilot)
    expected = visible(
        f"Forgot {entry.key} (Ctrl+Z in the memory panel, or Undo forget, puts it back)"
    )
    notices = [n for n in app._notifications if n.message == expected]
    assert notices and not notices[-1].markup
    assert_shown("notification", toast_text(notices[-1]), entry.key)


async def restart(folder: Path, seen: Seen) -> list[MemoryEntry]:
    """Second run on the same store and sessions; returns the memories stored under `t #i`.

    Checks the inspector table, the session picker and header, store warnings as
    notifications, and forgetting from the detail view (a notification naming the key).
    """
    harness = build_app(folder, ScriptedModel(name="qwen3:8b"))
    app = harness.app
    # Notifications checked later must not have expired (they are reaped) on a slow run.
    app.NOTIFICATION_TIMEOUT = 3600  # type: ignore[misc]
    async with app.run_test(size=SIZE) as pilot:
        await app.ready.wait()
        await settle(pilot)
        assert app.is_running and app.runtime is not None
        await pilot.press("f2")
        await settle(pilot)
        await _check_inspector(pilot, app)
        # Across the whole window (F5), each memory's text drawn in full, then back.
        await pilot.press("f5")
        await settle(pilot)
        assert not app.query_one("#chat-pane").display
        await _check_inspector(pilot, app)
        await pilot.press("f5")
        await settle(pilot)
        await _check_sessions(pilot, app, seen.sent)
        await _check_warnings(pilot, app, seen.sent)
        # Superseded ones too: a later fact on the same subject replaces an earlier one.
        rows = await app.runtime.memory.list(include_superseded=True, limit=10_000)
        by_key = {entry.key: entry for entry in rows}
        stored = [by_key[key] for key in seen.keys if key in by_key]
        for entry in stored[:2]:
            await _forget_from_detail(pilot, app, entry)
        assert app.is_running
    return stored


class DetailHost(App[None]):
    """Only the detail dialog, over an empty screen: the dialog as the app shows it."""

    CSS_PATH = Path(tui.__file__).with_name("memchat.tcss")


async def details(entries: list[MemoryEntry]) -> None:
    """Each memory in the detail view: key in the title and fields, content in the editor."""
    app = DetailHost()
    results: list[DetailResult | None] = []
    async with app.run_test(size=SIZE) as pilot:
        for entry in entries:
            app.push_screen(MemoryDetailScreen(entry, blink=False), callback=results.append)
            await settle(pilot)
            detail = app.screen
            assert isinstance(detail, MemoryDetailScreen)
            key, drawing = entry.key, Drawing(app)
            title, fields = detail.query_one("#detail-title"), detail.query_one("#detail-fields")
            assert_shown("detail title", drawing.content(title), key)
            assert_shown("detail fields", drawing.content(fields), key)
            editor = detail.query_one("#detail-content", PlainTextArea)
            assert_safe("detail content", drawing.content(editor), entry.content)
            assert_safe("detail view", drawing.text(app.screen), entry.content)
            detail.query_one("#save", Button).press()
            await settle(pilot)
            # Saved without an edit, the content is exactly what was stored (the editor
            # holds \f, \v, U+2028 and mixed line ends as its own line breaks).
            saved = results.pop()
            assert saved is not None and saved.content == entry.content

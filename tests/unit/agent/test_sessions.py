from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from agent.messages import ChatMessage, CommandNote, ToolCall
from agent.sessions import SessionStore
from tests.unit.agent.conftest import Harness


def test_append_load_round_trip_and_private_files(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions")
    session = store.new()
    messages = [
        ChatMessage(role="user", content="Plan a trip to Kyoto 🇯🇵"),
        ChatMessage(
            role="assistant",
            tool_calls=[ToolCall(id="c1", name="memory_recall", arguments={"query": "kyoto"})],
        ),
        ChatMessage(role="tool", content="{}", tool_name="memory_recall", tool_call_id="c1"),
        ChatMessage(role="assistant", content="Here is a plan", stopped=True),
    ]
    store.append(session, messages[:2])
    store.append(session, messages[2:])
    loaded = store.load(session.id)
    assert loaded.messages == messages
    assert loaded.title == "Plan a trip to Kyoto 🇯🇵"
    path = tmp_path / "sessions" / f"{session.id}.jsonl"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [ChatMessage(role="user", content="kept")])
    with (tmp_path / f"{session.id}.jsonl").open("a") as stream:
        stream.write('{"type": "message", "role": "assis')
    assert [m.content for m in store.load(session.id).messages] == ["kept"]


def test_list_is_most_recent_first(tmp_path: Path) -> None:
    import os

    store = SessionStore(tmp_path)
    first, second = store.new(), store.new()
    store.append(first, [ChatMessage(role="user", content="first chat")])
    store.append(second, [ChatMessage(role="user", content="second chat")])
    os.utime(tmp_path / f"{first.id}.jsonl", (1, 1))
    assert [info.title for info in store.list()] == ["second chat", "first chat"]
    assert store.list()[0].message_count == 1
    assert SessionStore(tmp_path / "absent").list() == []


def test_session_ids_cannot_escape_the_directory(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="invalid session id"):
        SessionStore(tmp_path).load("../etc/passwd")


async def test_a_resumed_session_continues_with_its_history(harness: Harness) -> None:
    harness.model.add("Kyoto in April is lovely.", "Yes, book early.")
    await harness.turn("I am planning a trip to Kyoto in April")
    resumed = harness.sessions.load(harness.session.id)
    await harness.turn("Should I book hotels now?", resumed)
    sent = harness.model.requests[-1].messages
    assert [m.content for m in sent[1:3]] == [
        "I am planning a trip to Kyoto in April",
        "Kyoto in April is lovely.",
    ]
    assert len(harness.sessions.load(harness.session.id).messages) == 4


def test_failed_replies_and_commands_round_trip_and_older_readers_skip_them(
    tmp_path: Path,
) -> None:
    """Found by a new user: a reopened chat showed no /remember, /recall or /forget, and a
    reply the server cut off read "⏹ stopped", as if Esc had stopped it. Both are kept in
    records of their own, which an older memchat skips; the messages stay readable to it."""
    store = SessionStore(tmp_path)
    session = store.new()
    note = CommandNote(
        text="/remember my cat is Miso",
        tool="memory_store",
        arguments={"key": "cat", "content": "my cat is Miso"},
        result='{"stored": {"key": "cat"}}',
    )
    store.note_command(session, note)
    cut = ChatMessage(role="assistant", content="Half a rep", stopped=True, failed=True)
    store.append(session, [ChatMessage(role="user", content="hello"), cut])
    store.note_command(session, note.model_copy(update={"text": "/recall cat"}))
    loaded = store.load(session.id)
    assert loaded.messages[1].failed and loaded.messages[1].stopped
    assert [(at, n.text) for at, n in loaded.commands] == [
        (0, "/remember my cat is Miso"),
        (2, "/recall cat"),
    ]
    assert loaded.commands[0][1] == note
    records = [
        json.loads(line) for line in (tmp_path / f"{session.id}.jsonl").read_text().splitlines()
    ]
    # An older memchat refuses a message with a field it does not know: none is added.
    older_fields = {"type", *ChatMessage.model_fields} - {"failed"}
    assert all(set(r) <= older_fields for r in records if r["type"] == "message")
    assert {r["type"] for r in records} == {
        "session",
        "message",
        "command",
        "reply_failed",
        "written",
    }
    # An edit cuts the messages back, and the commands after them go off the screen with
    # them, as they do in the chat (the file keeps them).
    store.rewind(loaded, 1)
    assert [at for at, _ in loaded.commands] == [0]
    again = store.load(session.id)
    assert [m.content for m in again.messages] == ["hello"]
    assert [at for at, _ in again.commands] == [0]


def test_a_line_nested_too_deep_is_skipped(tmp_path: Path) -> None:
    """Found by an adversary: a line of 100,000 "[" crashed opening and searching chats."""
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [ChatMessage(role="user", content="kept")])
    with (tmp_path / f"{session.id}.jsonl").open("a") as stream:
        stream.write("[" * 100_000 + "\n")
    assert [m.content for m in store.load(session.id).messages] == ["kept"]


def test_a_chat_of_commands_alone_is_titled_by_its_first(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.note_command(session, CommandNote(text="/recall tea", tool="memory_recall"))
    assert session.title == "/recall tea"
    assert [info.title for info in store.list()] == ["/recall tea"]


def test_the_picker_counts_the_messages_a_chat_shows(tmp_path: Path) -> None:
    """Found by a new user: tool results and tool-call-only replies were counted, 32
    "messages" for 15 sent."""
    store = SessionStore(tmp_path)
    session = store.new()
    call = ToolCall(id="c1", name="memory_store", arguments={"key": "k", "content": "x"})
    store.append(
        session,
        [
            ChatMessage(role="user", content="remember x"),
            ChatMessage(role="assistant", tool_calls=[call]),
            ChatMessage(role="tool", content="{}", tool_name="memory_store", tool_call_id="c1"),
            ChatMessage(role="assistant", content="Stored."),
        ],
    )
    store.note_command(session, CommandNote(text="/recall x", tool="memory_recall"))
    assert [info.message_count for info in store.list()] == [3]

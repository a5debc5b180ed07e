"""Session files: a full disk loses no message, and no file content breaks loading."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from agent.messages import ChatMessage
from agent.sessions import SessionStore
from tests.helpers.hostile import HOSTILE_TEXTS


def _user(text: str) -> ChatMessage:
    return ChatMessage(role="user", content=text)


def test_a_full_disk_keeps_messages_in_ram_and_writes_them_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [_user("first")])
    real_fsync = os.fsync

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        store.append(session, [_user("second")])
    assert [m.content for m in session.messages] == ["first", "second"]
    assert [m.content for m in session.unsaved] == ["second"]
    # The half-written batch was cut off again: the file holds only what was saved.
    assert [m.content for m in store.load(session.id).messages] == ["first"]
    monkeypatch.setattr(os, "fsync", real_fsync)
    store.append(session, [_user("third")])
    assert session.unsaved == []
    assert [m.content for m in store.load(session.id).messages] == ["first", "second", "third"]


def test_a_first_write_that_fails_still_gets_its_header_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "")))
    with pytest.raises(OSError):
        store.append(session, [_user("hello")])
    monkeypatch.setattr(os, "fsync", real_fsync)
    store.append(session, [_user("again")])
    loaded = store.load(session.id)
    assert [m.content for m in loaded.messages] == ["hello", "again"]
    assert loaded.created_at == session.created_at


@pytest.mark.parametrize("text", HOSTILE_TEXTS + ["lone surrogate \ud800 here", "\udcff"])
def test_hostile_text_round_trips(tmp_path: Path, text: str) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [_user(text)])
    assert store.load(session.id).messages[0].content == text


def test_lines_that_are_not_messages_are_skipped(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [_user("kept")])
    path = tmp_path / f"{session.id}.jsonl"
    with path.open("ab") as stream:
        stream.write(b'5\n[1, 2]\n"text"\nnull\n{"type": "session", "created_at": 7}\n')
        stream.write(b'{"type": "session"}\n{"type": "message", "role": "wizard"}\n')
        stream.write(b"\xff\xfe binary \x00 junk\n")
        stream.write(b'{"type": "message", "role": "user", "content": "also kept"}\n')
    loaded = store.load(session.id)
    assert [m.content for m in loaded.messages] == ["kept", "also kept"]
    assert loaded.created_at == session.created_at


def test_the_list_skips_what_it_cannot_read(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [_user("a real chat")])
    (tmp_path / ".hidden.jsonl").write_text("{}\n")
    (tmp_path / "garbage.jsonl").write_bytes(b"\x00\xff" * 100)
    (tmp_path / "a-directory.jsonl").mkdir()
    titles = {info.id: info.title for info in store.list()}
    assert titles[session.id] == "a real chat"
    assert titles["garbage"] == "(empty)"
    assert ".hidden" not in titles and "a-directory" not in titles


def test_a_torn_last_line_loses_only_itself(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [_user("one"), _user("two")])
    path = tmp_path / f"{session.id}.jsonl"
    with path.open("ab") as stream:  # a crash in the middle of a line
        stream.write(b'{"type": "message", "role": "user", "content": "torn')
    store.append(session, [_user("three")])
    store.append(session, [_user("four")])
    assert [m.content for m in store.load(session.id).messages] == ["one", "two", "three", "four"]


def test_a_fifo_in_the_folder_is_neither_listed_nor_opened(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [_user("real")])
    fifo = tmp_path / "20250101-000005-ffffff.jsonl"
    os.mkfifo(fifo)
    # Opening it for reading without O_NONBLOCK would wait for a writer forever.
    assert [info.id for info in store.list()] == [session.id]
    with pytest.raises(OSError, match="not a regular file"):
        store.load(fifo.stem)
    fake = store.new()
    fake.id = fifo.stem
    with pytest.raises(OSError):  # nor written to
        store.append(fake, [_user("lost?")])
    assert [m.content for m in fake.unsaved] == ["lost?"]


def test_links_out_of_the_folder_or_to_devices_are_not_sessions(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    store = SessionStore(folder)
    session = store.new()
    store.append(session, [_user("real")])
    outside = tmp_path / "passwd"
    outside.write_text("root:x:0:0:root:/root:/bin/bash\n")
    (folder / "20250101-000001-aaaaaa.jsonl").symlink_to(outside)
    (folder / "20250101-000002-bbbbbb.jsonl").symlink_to("/dev/zero")
    (folder / "20250101-000003-cccccc.jsonl").symlink_to(f"{session.id}.jsonl")
    listed = sorted(info.id for info in store.list())
    assert listed == sorted([session.id, "20250101-000003-cccccc"])
    with pytest.raises(OSError, match="outside the sessions folder"):
        store.load("20250101-000001-aaaaaa")


def test_a_secret_said_in_passing_is_not_written_in_clear(tmp_path: Path) -> None:
    """Found by the eighth new user: the chat file kept a PIN and a password as typed, and
    a reopened chat showed them, while memory, titles and search had them redacted."""
    store = SessionStore(tmp_path)
    session = store.new()
    said = "My bank PIN is 8823 and my email password is hunter2-Porto!"
    store.append(
        session,
        [_user(said), ChatMessage(role="assistant", content="Noted: PIN is 8823.")],
    )
    assert session.messages[0].content == said  # the chat in use keeps what was typed
    written = _messages_written(tmp_path / f"{session.id}.jsonl")
    assert "8823" not in written and "hunter2" not in written
    reopened = store.load(session.id).messages
    assert "[REDACTED:" in reopened[0].content and "[REDACTED:" in reopened[1].content
    assert reopened[0].content.startswith("My bank PIN is ")


def _messages_written(path: Path) -> str:
    """A chat file but its header and its times, which may hold any digits ("…-155439-…").

    A `written` record's microseconds once held "4827", the PIN a test looked for.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    return "\n".join(
        line for line in lines if not line.startswith(('{"type": "session"', '{"type": "written"'))
    )


def test_a_secret_said_again_in_a_later_message_is_not_written_in_clear(tmp_path: Path) -> None:
    """Found by an adversary: after "my wifi password is Zebra-Quartz-7719", the next
    message "Zebra-Quartz-7719 is also what I use for the router admin page" was written
    (and saved to memory) as typed: alone, it names no secret."""
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [_user("remember my wifi password is Zebra-Quartz-7719")])
    store.append(
        session,
        [
            ChatMessage(role="assistant", content="Done."),
            _user("zebra-quartz-7719 is also what I use for the router admin page"),
        ],
    )
    written = _messages_written(tmp_path / f"{session.id}.jsonl")
    assert "7719" not in written
    reopened = store.load(session.id).messages
    assert reopened[2].content == "[REDACTED:secret] is also what I use for the router admin page"
    # In its other forms too (a third adversary): spaced, joined, another grouping.
    store.append(session, [_user("my locker PIN is 918273, alarm code is 4 8 1 5, 4815 off")])
    for said in ("ZebraQuartz7719", "Zebra Quartz 7719x", "locker 918-273", "pin918273"):
        store.append(session, [_user(f"so: {said} ok")])
    written = _messages_written(tmp_path / f"{session.id}.jsonl")
    assert "7719" not in written and "273" not in written and "4815" not in written
    assert [m.content for m in store.load(session.id).messages[-5:]] == [
        "my locker PIN is [REDACTED:pin], alarm code is [REDACTED:code], [REDACTED:code] off",
        *(["so: [REDACTED:secret] ok"] * 2),
        "so: locker [REDACTED:pin] ok",
        "so: [REDACTED:pin] ok",
    ]
    # Not inside a longer number.
    store.append(session, [_user("call 555-918-2734")])
    assert store.load(session.id).messages[-1].content == "call 555-918-2734"
    # Another chat never heard it: its words are its own.
    other = store.new()
    store.append(other, [_user("Zebra-Quartz-7719 is my new band's name")])
    assert "Zebra-Quartz-7719" in (tmp_path / f"{other.id}.jsonl").read_text(encoding="utf-8")


def test_a_models_thinking_is_written_redacted(tmp_path: Path) -> None:
    """Found by an adversary: a thinking model restated the message, and its thinking kept
    the PIN and the password the content had redacted."""
    store = SessionStore(tmp_path)
    session = store.new()
    thought = "The user said: my PIN is 4827 and my password is Hunter2Zebra. I'll note it."
    store.append(
        session,
        [
            _user("my PIN is 4827 and my password is Hunter2Zebra"),
            ChatMessage(role="assistant", content="Noted.", thinking=thought),
        ],
    )
    written = _messages_written(tmp_path / f"{session.id}.jsonl")
    assert "4827" not in written and "Hunter2Zebra" not in written
    assert store.load(session.id).messages[1].thinking.startswith("The user said: my PIN is ")


def test_a_tool_call_and_its_answer_are_written_redacted(tmp_path: Path) -> None:
    """Found by a new user: the message said "[REDACTED:code]" while the model's
    memory_store call beside it, and the tool's answer, kept the door code in clear. The
    fact in memory keeps it (it was asked to); the chat file does not."""
    from agent.messages import ToolCall

    store = SessionStore(tmp_path)
    session = store.new()
    arguments = {"content": "The door code is 4821", "tags": ["door code is 4821", 3]}
    store.append(
        session,
        [
            _user("remember the door code is 4821"),
            ChatMessage(
                role="assistant",
                tool_calls=[ToolCall(id="c1", name="memory_store", arguments=arguments)],
            ),
            ChatMessage(
                role="tool", tool_name="memory_store", content="Stored: The door code is 4821"
            ),
            ChatMessage(
                role="tool",
                tool_name="memory_store",
                content='{"stored": {"key": "door_code_2b7476", "content": "door code is 4821"}}',
            ),
            ChatMessage(role="assistant", content="Saved."),
        ],
    )
    written = _messages_written(tmp_path / f"{session.id}.jsonl")
    assert "4821" not in written
    reopened = store.load(session.id).messages
    call = reopened[1].tool_calls[0]
    assert call.name == "memory_store" and call.arguments["tags"][1] == 3
    assert call.arguments["content"].startswith("The door code is [REDACTED:")
    assert reopened[2].content.startswith("Stored: The door code is [REDACTED:")
    # A tool's JSON answer is redacted field by field: its key is no labelled secret.
    answer = json.loads(reopened[3].content)["stored"]
    assert answer["key"] == "door_code_2b7476" and "4821" not in answer["content"]


def test_a_command_with_a_secret_is_written_redacted(tmp_path: Path) -> None:
    """Found by an adversary: "/remember my wifi password is …" stayed in the file."""
    from agent.messages import CommandNote

    store = SessionStore(tmp_path)
    session = store.new()
    note = CommandNote(text="/remember my wifi password is OrangeLlama5521", tool="memory_store")
    store.note_command(session, note)
    written = _messages_written(tmp_path / f"{session.id}.jsonl")
    assert "OrangeLlama5521" not in written and "/remember my wifi password is" in written
    # And what it ran and answered (a second adversary: the arguments and result kept it).
    pin = CommandNote(
        text="/remember my bank PIN is 9731",
        tool="memory_store",
        arguments={"content": "my bank PIN is 9731", "replaced": ["my old PIN is 1234"]},
        result="Stored: my bank PIN is 9731",
    )
    store.note_command(session, pin)
    written = _messages_written(tmp_path / f"{session.id}.jsonl")
    assert "9731" not in written and "1234" not in written
    (_, reopened), *_ = store.load(session.id).commands[1:]
    assert reopened.tool == "memory_store" and reopened.result.startswith("Stored: my bank PIN")

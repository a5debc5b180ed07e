"""Session transcripts: one append-only JSON-lines file per session, resumable."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import json
import os
import stat
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agent.messages import ChatMessage, CommandNote, RecallNote
from agent.paths import ensure_private_dir
from agent.record_texts import RECORD_FIELDS, each_text
from agent.redact import redact
from agent.said_secrets import SaidSecrets

REWRITTEN_ELSEWHERE = (
    "This chat's file was written anew elsewhere (a memory erased for good): what it no "
    "longer holds is no longer sent to the model. Reopen the chat to see it as it is now."
)


class ChatWrittenElsewhere(OSError):
    """The chat's file was written to by another memchat since this one read or wrote it."""


def _refuse_if_written_elsewhere(session: Session, size: int) -> None:
    """An edit's rewind keeps a count of messages: others' messages after ours would go.

    Found by an adversary: with one chat open in two windows, an edit in the first cut
    the turn the second had added since, from the chat, unsaid.
    """
    if session.file_size is not None and size != session.file_size:
        raise ChatWrittenElsewhere(
            errno.EBUSY,
            "another memchat window wrote to this chat since it was opened here; reopen it "
            "(Ctrl+P, Switch session) to edit its last message",
        )


@dataclass
class Session:
    """A conversation: its id, its transcript, and whether it is incognito."""

    id: str
    created_at: datetime
    messages: list[ChatMessage] = field(default_factory=list)
    title: str = ""
    incognito: bool = False
    """Nothing of it reaches the disk: its messages live in RAM only, and memory is
    read-only while it is on."""
    unsaved: list[ChatMessage] = field(default_factory=list)
    """Messages that are in `messages` but not yet in the file (the disk was full); they are
    written ahead of the next message once there is room."""
    replaced: list[ChatMessage] = field(default_factory=list)
    """Messages an edit took out of the conversation, oldest first: no longer sent to the
    model or shown, but kept in the session file as its history."""
    commands: list[tuple[int, CommandNote]] = field(default_factory=list)
    """The slash commands run in it, each after the message count it was run at."""
    recalls: dict[int, RecallNote] = field(default_factory=dict)
    """What memory contributed to each turn, by the position of the reply it came before
    (the latest, when a reply was regenerated)."""
    notes: dict[int, list[str]] = field(default_factory=dict)
    """Said under a reply (a memory the message updated), by the message count after it:
    a reopened chat showed the reply without them (found by a new user)."""
    unwritten: list[dict[str, Any]] = field(default_factory=list)
    """Records to write with the next write (`SessionStore.note_recall`)."""
    file_id: tuple[int, int] | None = None
    """(device, inode) of its file when last read or written: another changes when the file
    is written anew (`agent.session_scrub`, after `memchat memory forget --erase`)."""
    rewritten: dict[str, str] = field(default_factory=dict)
    """Message texts a rewrite elsewhere changed, each to what the file holds now (an
    erase): the app's own copies of them (its prompt history) follow."""
    file_size: int | None = None
    """Its file's size when last read or written here: another means another memchat
    (a second window on the same chat) wrote to it since."""
    secrets: SaidSecrets = field(default_factory=SaidSecrets, repr=False, compare=False)
    """The secrets its messages said, redacted again wherever a later one repeats them."""
    written: dict[int, datetime] = field(default_factory=dict)
    """When each batch of messages was written, by the position of its first (read from
    the file; files of older versions hold none)."""

    def said_at(self, position: int) -> datetime | None:
        """When the message at `position` was written, if the file says."""
        return max(
            ((at, when) for at, when in self.written.items() if at <= position),
            default=(0, None),
        )[1]

    @property
    def model(self) -> str | None:
        """The model that wrote the latest reply (None before any, or in older files)."""
        return next(
            (m.model for m in reversed(self.messages) if m.role == "assistant" and m.model), None
        )


@dataclass(frozen=True)
class SessionInfo:
    """A line of the session list."""

    id: str
    title: str
    updated_at: datetime
    message_count: int


REPLY_FAILED = "reply_failed"
"""A record after a message: that reply was cut off by a failure (`ChatMessage.failed`)."""
COMMAND = "command"
"""A record of a slash command run at that point of the conversation (`CommandNote`)."""
RECALLED = "recalled"
"""A record of what memory contributed to the turn at that point (`RecallNote`)."""
NOTE = "note"
"""A record of a line said under the reply before it (`Session.notes`)."""


def command_slot(number: int) -> int:
    """The place of a session's `number`th slash command among its message positions.

    Messages are at 0, 1, 2 …; commands at -1, -2 … (a search hit or a shown widget).
    """
    return -1 - number


def _shown_count(session: Session) -> int:
    """The messages a chat shows: what was sent (commands too) and the replies with text.

    Found by a new user: the picker counted tool results and tool-call-only replies, 32
    "messages" for 15 sent.
    """
    said = sum(
        1
        for m in session.messages
        if m.role == "user" or (m.role == "assistant" and (m.content or m.thinking))
    )
    return said + len(session.commands)


WRITTEN = "written"
"""A session file's record of when the messages after it were written."""


def _a_time(value: Any) -> datetime | None:
    """A record's ISO date-time, in UTC when it names no zone; None if it is none."""
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _take(session: Session, record: dict[str, Any]) -> None:
    """Apply one record of a session file to the session read so far."""
    kind = record.pop("type", None)
    messages = session.messages
    if kind == "session":
        session.created_at = _a_time(record.get("created_at")) or session.created_at
    elif kind == "message":
        with contextlib.suppress(ValidationError):
            messages.append(ChatMessage.model_validate(record))
    elif kind == REPLY_FAILED:
        if messages and messages[-1].role == "assistant":
            messages[-1] = messages[-1].model_copy(update={"failed": True})
    elif kind == COMMAND:
        with contextlib.suppress(ValidationError):
            session.commands.append((len(messages), CommandNote.model_validate(record)))
    elif kind == RECALLED:
        _take_recall(session, record)
    elif kind == NOTE:
        at, text = record.get("at"), record.get("text")
        if isinstance(at, int) and not isinstance(at, bool) and isinstance(text, str):
            session.notes.setdefault(min(max(at, 0), len(messages)), []).append(text)
    elif kind == WRITTEN and (when := _a_time(record.get("at"))) is not None:
        session.written[len(messages)] = when
    elif kind == "rewind":
        keep = record.get("keep")
        if isinstance(keep, int) and not isinstance(keep, bool) and keep >= 0:
            _cut(session, keep)


def _take_recall(session: Session, record: dict[str, Any]) -> None:
    at = record.get("at")
    count = len(session.messages)
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= count + 1:
        at = count
    with contextlib.suppress(ValidationError):
        session.recalls[at] = RecallNote.model_validate(record)


def _cut(session: Session, keep: int) -> list[ChatMessage]:
    """Take the messages from `keep` on out of the conversation (an edit); returns them.

    They stay in the file as history (`Session.replaced`), as do the commands and recall
    notes after them.
    """
    cut = session.messages[keep:]
    del session.messages[keep:]
    session.replaced.extend(cut)
    session.commands = _before_the_cut(session.commands, keep)
    session.recalls = {at: note for at, note in session.recalls.items() if at <= keep}
    session.notes = {at: said for at, said in session.notes.items() if at <= keep}
    session.written = {at: when for at, when in session.written.items() if at < keep}
    return cut


def _before_the_cut(
    commands: list[tuple[int, CommandNote]], keep: int
) -> list[tuple[int, CommandNote]]:
    """The commands run before the first message an edit cut (the rest stay in the file).

    The chat takes the commands after an edited message off the screen with it; reopened,
    they showed before the new message (found by an adversary).
    """
    return [(at, note) for at, note in commands if at <= keep]


def _message_record(message: ChatMessage, secrets: SaidSecrets) -> dict[str, Any]:
    # Fields older versions do not know go in records of their own, which they skip: in
    # the message, they would make an older memchat drop the whole message.
    record = message.model_dump(mode="json", exclude={"failed"})
    if message.role in ("user", "assistant"):
        # A secret said in passing is redacted on disk as in memory, titles and search
        # (found by a new user: a PIN and a password stayed in the chat file and came back
        # in clear when the chat was reopened). The chat in use keeps what was typed.
        by_user = message.role == "user"
        record["content"] = secrets.redact(message.content, by_user=by_user)[0]
        if message.thinking:
            # A thinking model restates the message it answers (an adversary saw qwen3's
            # thinking keep the PIN its content had redacted).
            record["thinking"] = secrets.redact(message.thinking, by_user=False)[0]
    # A fact asked to be kept holds its secret in memory, but the chat file redacts it as
    # it does the message that asked: the model's memory_store call and the tool's answer
    # kept the door code in clear beside "[REDACTED:code]" (found by a new user).
    if message.role == "tool":
        record["content"] = _redacted_values(message.content)
    for call in record.get("tool_calls") or []:
        call["arguments"] = _redacted_values(call.get("arguments"))
    return record


_NAMES = RECORD_FIELDS | {"key"}
"""Fields left as they are: a key written "key": "…" read as a labelled secret."""


def _redacted_values(value: Any) -> Any:
    """`value` (a tool call's arguments, a tool's answer) with every text in it redacted.

    A string holding JSON (a tool's answer) is redacted inside, field by field, and the
    fields that name or date a record are left as they are.
    """
    return each_text(value, _redacted_text, _NAMES)


def _redacted_text(text: str) -> str:
    if text[:1] in "{[":
        try:
            parsed = json.loads(text)
        except ValueError:
            return redact(text)[0]
        return json.dumps(_redacted_values(parsed), ensure_ascii=False)
    return redact(text)[0]


def _line(record: dict[str, Any]) -> str:
    text = json.dumps(record, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (from a model's JSON escapes, say) cannot be written as UTF-8;
        # escaped, it survives the round trip.
        text = json.dumps(record)
    return text


class NotASessionFileError(OSError):
    """A name in the sessions folder that is no session file: it is never read or written.

    A FIFO, a device or a link to a file elsewhere (/etc/passwd) is not a transcript.
    """


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


class SessionStore:
    """Session files under one private directory."""

    def __init__(self, directory: Path, clock: Callable[[], datetime] | None = None) -> None:
        self.directory = directory
        self.clock = clock or (lambda: datetime.now(UTC))
        """When messages are written: a chat's search hits say when each was said."""
        # Writes run in worker threads; one at a time keeps each file's lines in order.
        self._write_lock = threading.Lock()

    def _path(self, session_id: str) -> Path:
        if not session_id or "/" in session_id or session_id.startswith("."):
            raise ValueError(f"invalid session id {session_id!r}")
        return self.directory / f"{session_id}.jsonl"

    def new(self, title: str = "") -> Session:
        """A fresh session; its file appears with the first message."""
        now = datetime.now(UTC)
        return Session(
            id=f"{now:%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:6]}", created_at=now, title=title
        )

    def append(self, session: Session, messages: list[ChatMessage]) -> None:
        """Add messages to the session and its file (one line each, flushed).

        An incognito session keeps them in RAM only. When the file cannot be written (a full
        disk) they are kept in RAM all the same, the `OSError` propagates, and the next
        append writes them first: the conversation goes on and the transcript loses nothing.
        """
        if not messages:
            return
        if session.incognito:
            self._keep(session, messages)
            return
        with self._write_lock:
            try:
                self._write(session, [*session.unsaved, *messages])
            except OSError:
                self._keep(session, messages)
                session.unsaved.extend(messages)
                raise
            session.unsaved.clear()
            self._keep(session, messages)

    async def save(self, session: Session, messages: list[ChatMessage]) -> None:
        """`append` with the write and its fsync in a worker thread, off the event loop.

        A cancellation while the write runs does not stop it: the messages are on disk (or
        kept as unsaved) exactly as `append` leaves them, and the cancellation goes on.
        """
        if messages:
            await asyncio.shield(asyncio.to_thread(self.append, session, messages))

    def rewind(self, session: Session, keep: int) -> list[ChatMessage]:
        """Cut the conversation back to its first `keep` messages (an edit); returns the rest.

        The file is append-only: a rewind record is written after the messages (unsaved ones
        first), so the cut messages stay in it as history (`Session.replaced` on load). When
        the record cannot be written the `OSError` propagates and nothing changes.
        """
        if not 0 <= keep <= len(session.messages):
            raise ValueError(f"cannot keep {keep} of {len(session.messages)} messages")
        with self._write_lock:
            if session.incognito:
                pass  # nothing of it is on disk
            elif _only_unwritten(session, keep):
                # Never written (the file could not be): taken back in RAM alone, so taking
                # back a message that failed to save needs no write (found by an adversary:
                # it said "stays in the chat file" when no file could be written).
                del session.unsaved[len(session.unsaved) - (len(session.messages) - keep) :]
            else:
                self._write(session, session.unsaved, {"type": "rewind", "keep": keep})
                session.unsaved.clear()
            cut = _cut(session, keep)
            session.title = _title(session.messages, session.commands)
        return cut

    async def take_back(self, session: Session, keep: int) -> list[ChatMessage]:
        """`rewind` in a worker thread, off the event loop."""
        return await asyncio.shield(asyncio.to_thread(self.rewind, session, keep))

    def note_command(self, session: Session, note: CommandNote) -> None:
        """Keep a slash command and its outcome at this point of the conversation.

        Written after the unsaved messages, so it stands where it was run. When the file
        cannot be written the `OSError` propagates; the command stays in RAM all the same.
        """
        session.commands.append((len(session.messages), note))
        if not session.title:
            session.title = _title(session.messages, session.commands)
        if session.incognito:
            return
        # The command as typed, its arguments and its outcome are redacted as a message is
        # ("/remember my bank PIN is …": found in the file by adversaries, first in the
        # text, then in the arguments and the result); the fact in memory keeps it.
        record = _redacted_values(note.model_dump(mode="json"))
        with self._write_lock:
            self._write(session, session.unsaved, {"type": COMMAND, **record})
            session.unsaved.clear()

    def note_recall(self, session: Session, note: RecallNote) -> None:
        """Keep what memory contributed to the turn whose reply comes next.

        Written with the next write (the reply): a turn costs no more writes than before.
        """
        at = len(session.messages)
        session.recalls[at] = note
        if not session.incognito:
            session.unwritten.append({"type": RECALLED, "at": at, **note.model_dump(mode="json")})

    def note_reply(self, session: Session, text: str) -> None:
        """Keep a line said under the latest reply; `OSError` when it cannot be written."""
        session.notes.setdefault(len(session.messages), []).append(text)
        if session.incognito:
            return
        record = {"type": NOTE, "at": len(session.messages), "text": redact(text)[0]}
        with self._write_lock:
            self._write(session, session.unsaved, record)
            session.unsaved.clear()

    async def keep_note(self, session: Session, text: str) -> None:
        """`note_reply` in a worker thread, off the event loop."""
        await asyncio.shield(asyncio.to_thread(self.note_reply, session, text))

    async def keep_command(self, session: Session, note: CommandNote) -> None:
        """`note_command` in a worker thread, off the event loop."""
        await asyncio.shield(asyncio.to_thread(self.note_command, session, note))

    def _write(
        self, session: Session, messages: list[ChatMessage], marker: dict[str, Any] | None = None
    ) -> None:
        ensure_private_dir(self.directory)
        path = self._path(session.id)
        descriptor = self._open_for_append(path)
        try:
            size = os.fstat(descriptor).st_size
            if marker is not None and marker.get("type") == "rewind":
                _refuse_if_written_elsewhere(session, size)
            lines = []
            if not size:
                lines.append(
                    _line(
                        {
                            "type": "session",
                            "id": session.id,
                            "created_at": session.created_at.isoformat(),
                        }
                    )
                )
            lines.extend(_line(record) for record in session.unwritten)
            if messages:
                # Its own record, which older versions skip. Found by new users: Ctrl+F
                # dated every hit by the file's last change, not when it was said.
                lines.append(_line({"type": WRITTEN, "at": self.clock().isoformat()}))
            for message in messages:
                record = _message_record(message, session.secrets)
                lines.append(_line({"type": "message", **record}))
                if message.failed:
                    lines.append(_line({"type": REPLY_FAILED}))
            if marker is not None:
                lines.append(_line(marker))
            text = "\n".join(lines) + "\n"
            if size and os.pread(descriptor, 1, size - 1) != b"\n":
                # A crash cut the last line short: glued onto it, the first new message
                # would be lost with it when the file is read back.
                text = "\n" + text
            try:
                _write_all(descriptor, text.encode("utf-8"))
                os.fsync(descriptor)
            except OSError:
                # Half a batch on disk would be written again with the retry: cut it off.
                with contextlib.suppress(OSError):
                    os.ftruncate(descriptor, size)
                raise
            session.unwritten.clear()
            written = os.fstat(descriptor)
            session.file_id = (written.st_dev, written.st_ino)
            session.file_size = written.st_size
        finally:
            os.close(descriptor)

    def follow_rewrite(self, session: Session) -> bool:
        """Take in the file's messages if another process wrote it anew; True if it did.

        Found by an adversary: after `memchat memory forget --erase` took a secret out of
        the chat's file, the open app still sent it to the model with every message, from
        the conversation it held in RAM. A message the file does not hold yet is kept.
        """
        if session.incognito or session.file_id is None:
            return False
        try:
            now = self._path(session.id).stat()
        except OSError:
            return False
        if (now.st_dev, now.st_ino) == session.file_id:
            return False
        fresh = self.load(session.id)
        written = len(session.messages) - len(session.unsaved)
        if len(fresh.messages) != written:
            return False  # not a rewrite of the same conversation: left as it is
        changed = False
        for index, message in enumerate(fresh.messages):
            if message != session.messages[index]:
                session.rewritten[session.messages[index].content] = message.content
                session.messages[index] = message
                changed = True
        session.file_id, session.file_size = fresh.file_id, fresh.file_size
        session.title = _title(session.messages, session.commands)
        return changed

    def _open(self, path: Path, flags: int) -> int:
        """A descriptor of `path`, refused unless it is a regular file of this folder.

        O_NONBLOCK: opening a FIFO (or a device) someone left here would otherwise wait
        for a writer forever, freezing whoever asked (the app's session picker). A symbolic
        link is followed only to a file in this same folder: one to /etc/passwd or to a
        device is not a session.
        """
        if path.is_symlink():
            target = path.resolve()
            if target.parent != self.directory.resolve():
                raise NotASessionFileError(f"{path} links outside the sessions folder")
        descriptor = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise NotASessionFileError(f"{path} is not a regular file")
            # O_NONBLOCK means nothing to a regular file.
        except BaseException:
            os.close(descriptor)
            raise
        return descriptor

    def _open_for_append(self, path: Path) -> int:
        """`path` opened to append, locked against `agent.session_scrub` replacing it.

        The scrub writes the file anew and renames it over this one while it holds the
        lock: a descriptor of the replaced file is opened again, or the lines written
        through it would be lost with it.
        """
        while True:
            descriptor = self._open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX)
                if os.fstat(descriptor).st_ino == os.stat(path).st_ino:
                    return descriptor
            except BaseException:
                os.close(descriptor)
                raise
            os.close(descriptor)

    def _read(self, path: Path) -> str:
        descriptor = self._open(path, os.O_RDONLY)
        with os.fdopen(descriptor, "rb") as stream:
            return stream.read().decode("utf-8", errors="replace")

    @staticmethod
    def _keep(session: Session, messages: list[ChatMessage]) -> None:
        session.messages.extend(messages)
        if not session.title:
            session.title = _title(session.messages)

    def load(self, session_id: str) -> Session:
        """Read a session back; lines that cannot be read (a crash mid-write) are skipped."""
        path = self._path(session_id)
        session = Session(
            id=session_id, created_at=datetime.fromtimestamp(path.stat().st_mtime, UTC)
        )
        # Split on "\n" only: splitlines() would also cut at U+2028 and friends, which JSON
        # leaves unescaped inside a message.
        for line in self._read(path).split("\n"):
            try:
                record = json.loads(line)
            except (json.JSONDecodeError, RecursionError):
                continue  # RecursionError: a line of 100,000 "[" (found by an adversary)
            if isinstance(record, dict):
                _take(session, record)
        session.title = _title(session.messages, session.commands)
        read = path.stat()
        session.file_id = (read.st_dev, read.st_ino)
        session.file_size = read.st_size
        return session

    def delete(self, session_id: str) -> Path:
        """Move a chat's file to `deleted/` beside the others, out of every list; its path.

        Moved, not removed: a chat deleted by mistake is put back by moving the file back.
        Its memories stay (they are memory's, forgotten in the inspector).
        """
        path = self._path(session_id)
        folder = self.directory / "deleted"
        ensure_private_dir(folder)
        target = folder / path.name
        os.replace(path, target)
        return target

    def each(self) -> list[tuple[Session, datetime]]:
        """Every readable session with when it was last written, most recent first."""
        if not self.directory.exists():
            return []
        found = []
        for path in self.directory.glob("*.jsonl"):
            try:
                session = self.load(path.stem)
                updated = max(session.written.values(), default=None) or datetime.fromtimestamp(
                    path.stat().st_mtime, UTC
                )
            except (OSError, ValueError):
                # Gone since the listing, unreadable, or a name that is not a session id.
                continue
            found.append((session, updated))
        return sorted(found, key=lambda pair: pair[1], reverse=True)

    def list(self) -> list[SessionInfo]:
        """Every readable session, most recently used first."""
        return [
            SessionInfo(
                id=session.id,
                title=session.title or "(empty)",
                updated_at=updated,
                message_count=_shown_count(session),
            )
            for session, updated in self.each()
        ]


_TITLE_READ = 4_000
"""Characters of a chat's first message read for its title (60 of them are shown)."""


def _title(
    messages: list[ChatMessage], commands: list[tuple[int, CommandNote]] | None = None
) -> str:
    first = next((m.content for m in messages if m.role == "user" and m.content.strip()), "")
    if not first and commands:
        first = commands[0][1].text  # a chat of commands alone is not "(empty)"
    # Redacted: a title is shown in the picker, the window's header and search results
    # (found by a new user: "Mein Passwort ist Sonnenblume42" was every chat list's line).
    # Its opening only, where the title's words are: a chat that opened on a pasted page
    # was read whole for secrets each time it was opened (seconds, at 300 KB).
    first = " ".join(redact(first.lstrip()[:_TITLE_READ])[0].split())
    return first if len(first) <= 60 else first[:59] + "…"


def _only_unwritten(session: Session, keep: int) -> bool:
    """Whether every message after the first `keep` is one the file never got."""
    cut = session.messages[keep:]
    if not cut or len(cut) > len(session.unsaved):
        return False
    return all(a is b for a, b in zip(cut, session.unsaved[-len(cut) :], strict=True))

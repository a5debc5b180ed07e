"""Erased text taken out of the chat files too.

Found by a new user and an adversary: after `memchat memory forget KEY --erase`, the code
was still in the chat's file (the `/remember` message, the tool call's arguments and its
result), shown again when the chat was reopened and found by Ctrl+F. Each chat file is
read, every string in it has the erased text (and each code-like word of it) replaced,
and the file is written anew atomically, under the lock the app's appends take
(`SessionStore._open_for_append` in `agent.sessions`).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from agent.redact import looks_secret

ERASED = "[erased]"
_WORD = re.compile(r"[^\s,;:!?()\[\]{}\"'`<>]+")
_SHORTEST_TEXT = 8
"""A shorter erased text is matched by its code-like words only ("tea" is everywhere)."""


def _code_like(word: str) -> bool:
    """Whether a word identifies a secret on its own.

    A number of four or more digits, or what looks like a password or a key.
    """
    word = word.strip(".")
    return (len(word) >= 4 and sum(c.isdigit() for c in word) >= 4) or looks_secret(word)


def erasing_pattern(texts: Iterable[str]) -> re.Pattern[str] | None:
    """What to replace in the chat files: each text, and each code-like word in it."""
    wanted: set[str] = set()
    for text in texts:
        flat = " ".join(text.split())
        if len(flat) >= _SHORTEST_TEXT:
            wanted.add(flat)
        wanted.update(word.strip(".") for word in _WORD.findall(text) if _code_like(word))
    if not wanted:
        return None
    longest_first = sorted(wanted, key=len, reverse=True)
    return re.compile("|".join(re.escape(item) for item in longest_first), re.IGNORECASE)


def _scrubbed(value: Any, pattern: re.Pattern[str]) -> Any:
    if isinstance(value, str):
        return pattern.sub(ERASED, value)
    if isinstance(value, list):
        return [_scrubbed(item, pattern) for item in value]
    if isinstance(value, dict):
        return {key: _scrubbed(item, pattern) for key, item in value.items()}
    return value


def _scrub_line(line: str, pattern: re.Pattern[str]) -> str:
    try:
        record = json.loads(line)
    except ValueError:
        return pattern.sub(ERASED, line)  # a line cut short by a crash: its text as it is
    return json.dumps(_scrubbed(record, pattern), ensure_ascii=False)


def scrub_file(path: Path, pattern: re.Pattern[str]) -> bool:
    """Replace `pattern` in the chat file `path`; whether anything was replaced."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    try:
        # The app's appends take this lock too, and open the file again when it was
        # replaced meanwhile: no line it writes can land in the file being replaced.
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        with os.fdopen(os.dup(descriptor), "rb") as stream:
            text = stream.read().decode("utf-8", errors="surrogateescape")
        if not pattern.search(text):
            return False
        lines = text.split("\n")
        new = "\n".join(_scrub_line(line, pattern) if line.strip() else line for line in lines)
        temporary = path.with_name(f".{path.name}.erasing")
        with open(temporary, "wb") as stream:
            os.fchmod(stream.fileno(), 0o600)
            stream.write(new.encode("utf-8", errors="surrogateescape"))
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
        return True
    finally:
        os.close(descriptor)


def scrub_sessions(directory: Path, texts: Iterable[str]) -> list[Path]:
    """Take `texts` out of every chat file under `directory` (deleted chats too)."""
    pattern = erasing_pattern(texts)
    if pattern is None or not directory.is_dir():
        return []
    changed = []
    for path in sorted(directory.rglob("*.jsonl")):
        if path.is_symlink() or not path.is_file():
            continue
        with contextlib.suppress(OSError):
            if scrub_file(path, pattern):
                changed.append(path)
    return changed

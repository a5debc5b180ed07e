"""Erased text taken out of the chat files too.

Found by a new user and an adversary: after `memchat memory forget KEY --erase`, the code
was still in the chat's file (the `/remember` message, the tool call's arguments and its
result), shown again when the chat was reopened and found by Ctrl+F. Each chat file is
read, every text in it has the erased text, its key and its codes replaced (`Erasure`),
and the file is written anew atomically, under the lock the app's appends take
(`SessionStore._open_for_append` in `agent.sessions`).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from agent.record_texts import RECORD_FIELDS, each_text
from agent.redact import looks_secret, redacted_with_secrets
from agent.secret_forms import forms_pattern, replace_words
from memory.lazy_patterns import lazy_compile
from memory.text import analyze

ERASED = "[erased]"
_WORD = lazy_compile(r"[^\s,;:!?()\[\]{}\"'`<>]+")
_LETTERS_FROM_DIGITS = lazy_compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")
"""Where a word joins a code ("code50617"): the word counts as one the text says."""
_SHORTEST_TEXT = 8
"""A shorter erased text is matched by its code-like words only ("tea" is everywhere)."""


def _code_like(word: str) -> bool:
    """Whether a word identifies a secret on its own.

    A number of four or more digits, or what looks like a password or a key; not letters
    alone joined by hyphens.
    """
    word = word.strip(".")
    if word.replace("-", "").replace("'", "").replace("\u2019", "").isalpha():
        # A name in parts ("M-Pesa", "Jean-Luc"): a new user's erase of one message took
        # "M-Pesa" out of every chat, and the key of a fact still kept.
        return False
    return (len(word) >= 4 and sum(c.isdigit() for c in word) >= 4) or looks_secret(word)


def _a_named_key(key: str) -> bool:
    """A key unlikely to be an ordinary word: long, and not letters alone."""
    return len(key) >= _SHORTEST_TEXT and not key.isalpha()


@dataclass(frozen=True)
class Erasure:
    """What to take out of a chat's text.

    Each erased text, and each key of its that is no ordinary word, wherever it stands;
    each word of it shaped like a secret ("Zebra-Quartz-7719", "48211122") and the secret
    redaction reads in it (a passphrase), in any of their forms (`agent.secret_forms`),
    wherever they stand (an adversary's "Zebra-Quartz-7719 is also what I use for the
    router" kept the erased wifi password); each shorter code (a PIN) in its forms too, but
    only in a text that shares another word with it: the code said again ("Your door code
    is 4821"), not the same number meaning something else (an adversary's wedding year
    went with a PIN).
    """

    whole: re.Pattern[str] | None
    codes: re.Pattern[str] | None
    context: frozenset[str]
    texts: re.Pattern[str] | None = None
    """The erased texts alone (not their keys): a chat that holds one discussed it."""
    secrets: re.Pattern[str] | None = None
    """Its words shaped like a secret: no other meaning to keep them for."""

    def apply(self, text: str, *, discussed: bool = False) -> str:
        """`text` with what is erased replaced by `ERASED`.

        `discussed`: the chat holds the erased text itself (the /remember message, the
        tool call), so its codes go from every text of it ("Noted, 55910.").
        """
        if self.whole is not None:
            text = self.whole.sub(ERASED, text)
        if self.secrets is not None:
            text = replace_words(self.secrets, text, ERASED)
        if (
            self.codes is not None
            and self.codes.search(text) is not None
            and (discussed or self.context & set(analyze(_LETTERS_FROM_DIGITS.sub(" ", text))))
        ):
            text = replace_words(self.codes, text, ERASED)
        return text

    def discussed_in(self, text: str) -> bool:
        """Whether a chat's text holds an erased text itself.

        Not its key: every chat that recalled the memory holds the key, and a second
        adversary saw "Order 7391 shipped" lose its number there.
        """
        return self.texts is not None and self.texts.search(text) is not None

    def found_in(self, text: str) -> bool:
        """Whether `text` may hold something to erase (a quick test before parsing it)."""
        patterns = (self.whole, self.secrets, self.codes)
        return any(p is not None and p.search(text) for p in patterns)


def _either(items: Iterable[str], *, whole_words: bool = False) -> str:
    """A pattern matching any of `items` ("" for none), the longest first."""
    longest_first = sorted(set(items), key=len, reverse=True)
    if not longest_first:
        return ""
    either = "|".join(re.escape(item) for item in longest_first)
    return rf"(?<![\w-])(?:{either})(?![\w-])" if whole_words else either


def erasure_of(texts: Iterable[str], keys: Iterable[str] = ()) -> Erasure | None:
    """What to replace in the chat files for erased `texts` (and their `keys`)."""
    wanted: set[str] = set()
    codes: set[str] = set()
    passphrases: set[str] = set()
    context: set[str] = set()
    for text in texts:
        # As written, and as a chat file holds it: the fact's secret redacted there (a
        # /remember command, the model's memory_store call), which still means the chat
        # discussed it.
        redacted, said_secrets = redacted_with_secrets(text)
        for form in (text, redacted):
            flat = " ".join(form.split())
            if len(flat) >= _SHORTEST_TEXT:
                wanted.add(flat)
        words = [word.strip(".") for word in _WORD.findall(text)]
        # With its secret found, the text's other numbers are no secret: erasing "Prod DB
        # password is S3cr3t! (user app on db:5432)" took 5432 out of every chat about
        # that database, its logs' durations too (a new user, an engineer), and "port
        # 8443, user id 1042" out of every message of the chat that had said them (an
        # adversary). The text itself goes whole wherever it stands.
        # A word of it only as a whole: "2026" of "MapleLeaf!2026" is no code of its own,
        # and erasing the wifi password took the year out of a pasted email's date in every
        # chat (a new user, a parent).
        found = {
            token
            for value in said_secrets
            for token in (t.strip(".,;:!?") for t in value.split())
            if _WORD.fullmatch(token)
        }
        codes.update(
            word
            for word in filter(_code_like, words)
            if not said_secrets or word in found or looks_secret(word)
        )
        # What redaction reads as its secret, a passphrase of plain words too: "correct
        # horse battery staple" stayed in another chat, unnamed (a fourth adversary).
        passphrases.update(v for value in said_secrets if len(v := value.strip()) >= 6)
        context.update(analyze(" ".join(word for word in words if not _code_like(word))))
    said = _either(wanted)
    named = _either((key for key in keys if _a_named_key(key)), whole_words=True)
    whole = "|".join(part for part in (said, named) if part)
    secrets = forms_pattern([*(c for c in codes if looks_secret(c)), *passphrases])
    # A secret's forms are a code's too: one left out there kept its chat's copy in a
    # text that the code rule alone would have found.
    coded = forms_pattern(codes)
    if not whole and coded is None and secrets is None:
        return None
    return Erasure(
        re.compile(whole, re.I) if whole else None,
        coded,
        frozenset(context),
        re.compile(said, re.I) if said else None,
        secrets,
    )


def _scrub_line(line: str, erasure: Erasure, discussed: bool) -> str:
    try:
        record = json.loads(line)
    except ValueError:
        # A line cut short by a crash: its text as it is.
        return erasure.apply(line, discussed=discussed)
    if isinstance(record, dict) and record.get("role") == "user":
        # The model echoes a code it was told ("Noted, 55910."); the user's own later
        # message with that number says something else ("Our house number is 7391"),
        # unless it shares a word with the erased text (found by a second adversary).
        discussed = False
    erased = each_text(record, lambda text: erasure.apply(text, discussed=discussed), RECORD_FIELDS)
    return json.dumps(erased, ensure_ascii=False)


def scrub_file(path: Path, erasure: Erasure) -> bool:
    """Take `erasure` out of the chat file `path`; whether anything changed."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    try:
        # The app's appends take this lock too, and open the file again when it was
        # replaced meanwhile: no line it writes can land in the file being replaced.
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        with os.fdopen(os.dup(descriptor), "rb") as stream:
            text = stream.read().decode("utf-8", errors="surrogateescape")
        if not erasure.found_in(text):
            return False
        lines = text.split("\n")
        discussed = erasure.discussed_in(text)
        new = "\n".join(
            _scrub_line(line, erasure, discussed) if line.strip() else line for line in lines
        )
        if new == text:
            return False
        temporary = path.with_name(f".{path.name}.erasing")
        with open(temporary, "wb") as stream:
            os.fchmod(stream.fileno(), 0o600)
            stream.write(new.encode("utf-8", errors="surrogateescape"))
            stream.flush()
            os.fsync(stream.fileno())
        # The chat's last message is as old as it was: the chat list orders by this time
        # (found by a new user: every chat an erase rewrote jumped to the top, "22:12").
        before = os.fstat(descriptor)
        os.utime(temporary, ns=(before.st_atime_ns, before.st_mtime_ns))
        os.replace(temporary, path)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
        return True
    finally:
        os.close(descriptor)


@dataclass(frozen=True)
class Scrubbed:
    """The chat files an erase rewrote, and those it could not (with why)."""

    changed: list[Path]
    failed: list[tuple[Path, str]]


def scrub_sessions(directory: Path, texts: Iterable[str], keys: Iterable[str] = ()) -> Scrubbed:
    """Take `texts` (and `keys`) out of every chat file under `directory` (deleted ones too).

    A file that cannot be rewritten is named, not passed over (found by an adversary: the
    erase said nothing and the file kept the code).
    """
    erasure = erasure_of(texts, keys)
    if erasure is None or not directory.is_dir():
        return Scrubbed([], [])
    done = Scrubbed([], [])
    for path in sorted(directory.rglob("*.jsonl")):
        if path.is_symlink() or not path.is_file():
            continue
        try:
            if scrub_file(path, erasure):
                done.changed.append(path)
        except OSError as exc:
            done.failed.append((path, exc.strerror or str(exc)))
    return done

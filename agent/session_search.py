"""Search across past chats: every message that holds all the words typed, newest chat first."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from agent.redact import redact
from agent.sessions import SessionStore, command_slot
from memory.lazy_patterns import lazy_compile
from memory.text import fold, spelt_out

SNIPPET_CHARS = 90
"""How much of a message a hit shows, around its first match."""


@dataclass(frozen=True)
class SessionHit:
    """One message that matches, and where to find it."""

    session_id: str
    title: str
    said_at: datetime
    """When the message was written; in files of older versions, the file's last change."""
    index: int
    """The message's position in the session's conversation (a slash command's is its
    `agent.sessions.command_slot`)."""
    role: str
    """user, assistant, or command."""
    snippet: str
    """One line of the message around the first match."""


@lru_cache(maxsize=20_000)
def _searched(content: str) -> str:
    """What a message is searched by: its text as shown, secrets redacted, folded.

    Found by an adversary: Ctrl+F for a stored API key found the message that held it
    (shown redacted), so anyone at the keyboard could confirm a guessed secret. Kept per
    text: a search goes through every chat, and each next letter typed searches again.
    """
    shown = redact(content)[0]
    folded = _folded(shown)[0]
    if shown.isascii() or spelt_out(shown) == shown:
        return folded
    # "juergen" finds "Jürgen" (a new user): the text is searched spelt out too.
    return f"{folded}\n{_folded(spelt_out(shown))[0]}"


def _folded(text: str) -> tuple[str, list[int]]:
    """`text` as searched (any case, accents off), and each folded character's origin.

    Folding changes lengths ("İ" folds to two characters, "ß" to "ss", a combining accent
    to nothing): a match is found in the folded text and placed by where its characters
    came from. Found by an adversary: Ctrl+F for "sao paulo" missed "São Paulo".
    """
    if text.isascii():
        return _one_decimal_mark(text.lower()), list(range(len(text)))
    origin: list[int] = []
    pieces: list[str] = []
    for position, char in enumerate(text):
        piece = fold(char).casefold()
        pieces.append(piece)
        origin.extend([position] * len(piece))
    return _one_decimal_mark("".join(pieces)), origin


_DECIMAL_COMMA = lazy_compile(r"(?<=\d),(?=\d)")


def _one_decimal_mark(folded: str) -> str:
    """A comma between digits read as a point, one character for one.

    "2.50" finds "2,50" (found by a new user), and "1.250" finds "1,250".
    """
    return _DECIMAL_COMMA.sub(".", folded)


_CJK = lazy_compile(
    r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
    r"\uac00-\ud7af]"
)
"""Scripts written without spaces between words: Thai, Lao, Burmese, Khmer, Japanese,
Chinese (and Korean, whose particles join its words): searched anywhere, not at a word's
start ("กรุงเทพ" in "ฉันไปกรุงเทพ": an adversary)."""


def _holds(folded: str, term: str) -> bool:
    """Whether `folded` holds `term`; a number only whole.

    Found by a new user: "walked 3 km" found the notes of days 13, 23 and 30 to 39.
    """
    return _where(folded, term) >= 0


def _where(folded: str, term: str, start: int = 0) -> int:
    """Where `term` first stands in `folded` from `start`: a number whole, a word at its start.

    Found by a new user: "ROM" (the museum) found every "from".
    """
    if term.isdigit():
        # Nor a part of a decimal: "5" is not in "3.5 kg" (an adversary).
        found = _pattern(rf"(?<![\d.,]){term}(?![\d]|[.,]\d)").search(folded, start)
    elif _CJK.match(term):
        return folded.find(term, start)  # written without spaces: anywhere
    else:
        found = _pattern(rf"(?<![^\W_]){re.escape(term)}").search(folded, start)
    return -1 if found is None else found.start()


@lru_cache(maxsize=256)
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source)


def _found_at(folded: str, term: str) -> list[int]:
    """Where `term` stands in `folded`, as `_where` finds it, up to `_COUNTED` times."""
    found: list[int] = []
    at = _where(folded, term)
    while at >= 0 and len(found) < _COUNTED:
        found.append(at)
        at = _where(folded, term, at + 1)
    return found


_COUNTED = 20
"""Places of a word counted for a snippet: beyond them, any is as common as another."""


def _snippet(content: str, terms: list[str]) -> str:
    # Redacted first: a hit shown in a list must not put a password on the screen.
    flat = " ".join(redact(content)[0].split())
    folded, origin = _folded(flat)
    # Around the word found least often: "line 1999" in a pasted 2,000-line log showed its
    # first line, "line 0 line 1 …" (an adversary).
    places = [where for term in terms if (where := _found_at(folded, term))]
    found = min(places, key=len)[0] if places else -1
    at = origin[found] if found >= 0 else -1
    start = max(0, at - SNIPPET_CHARS // 3) if at >= 0 else 0
    # Never further on than a full snippet's room from the end: "the door code they gave me
    # was 4821" was shown "…he door code …", its first letter cut though it fit (an adversary).
    start = min(start, max(0, len(flat) - SNIPPET_CHARS))
    piece = flat[start : start + SNIPPET_CHARS]
    return ("…" if start else "") + piece + ("…" if start + SNIPPET_CHARS < len(flat) else "")


def search_sessions(store: SessionStore, query: str, limit: int = 200) -> list[SessionHit]:
    """Messages (yours and the replies) holding every word of `query`, in any case or accent.

    Chats are searched newest first and messages in order, so the first hits are the most
    recent chats' earliest mentions. Messages an edit replaced are not searched: they are
    no longer part of the conversation that opens.
    """
    terms = _folded(query)[0].split()
    if not terms:
        return []
    hits: list[SessionHit] = []
    for session, updated in store.each():
        said: list[tuple[int, str, str]] = [
            (index, message.role, message.content)
            for index, message in enumerate(session.messages)
            if message.role in ("user", "assistant") and message.content
        ]
        # Slash commands are searched too, where they stand in the conversation.
        said.extend(
            (command_slot(number), "command", note.text)
            for number, (_, note) in enumerate(session.commands)
        )
        at = {
            command_slot(number): position for number, (position, _) in enumerate(session.commands)
        }
        said.sort(key=lambda item: (at.get(item[0], item[0]), item[0] >= 0))
        for index, role, content in said:
            folded = _searched(content)
            if all(_holds(folded, term) for term in terms):
                hits.append(
                    SessionHit(
                        session.id,
                        session.title or "(empty)",
                        session.said_at(at.get(index, index)) or updated,
                        index,
                        role,
                        _snippet(content, terms),
                    )
                )
                if len(hits) >= limit:
                    return hits
    return hits

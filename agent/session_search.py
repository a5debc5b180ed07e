"""Search across past chats: every message that holds all the words typed, newest chat first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from agent.sessions import SessionStore

SNIPPET_CHARS = 90
"""How much of a message a hit shows, around its first match."""


@dataclass(frozen=True)
class SessionHit:
    """One message that matches, and where to find it."""

    session_id: str
    title: str
    updated_at: datetime
    index: int
    """The message's position in the session's conversation."""
    role: str
    snippet: str
    """One line of the message around the first match."""


def _snippet(content: str, first: str) -> str:
    flat = " ".join(content.split())
    # Case folding changes lengths ("İ" folds to two characters, "ß" to "ss"): a match is
    # found in the folded text and placed by where its characters came from.
    origin: list[int] = []
    for position, char in enumerate(flat):
        origin.extend([position] * len(char.casefold()))
    found = flat.casefold().find(first)
    at = origin[found] if found >= 0 else -1
    start = max(0, at - SNIPPET_CHARS // 3) if at >= 0 else 0
    piece = flat[start : start + SNIPPET_CHARS]
    return ("…" if start else "") + piece + ("…" if start + SNIPPET_CHARS < len(flat) else "")


def search_sessions(store: SessionStore, query: str, limit: int = 200) -> list[SessionHit]:
    """Messages (yours and the replies) holding every word of `query`, case-insensitive.

    Chats are searched newest first and messages in order, so the first hits are the most
    recent chats' earliest mentions. Messages an edit replaced are not searched: they are
    no longer part of the conversation that opens.
    """
    terms = query.casefold().split()
    if not terms:
        return []
    hits: list[SessionHit] = []
    for session, updated in store.each():
        for index, message in enumerate(session.messages):
            if message.role not in ("user", "assistant") or not message.content:
                continue
            folded = message.content.casefold()
            if all(term in folded for term in terms):
                hits.append(
                    SessionHit(
                        session.id,
                        session.title or "(empty)",
                        updated,
                        index,
                        message.role,
                        _snippet(message.content, terms[0]),
                    )
                )
                if len(hits) >= limit:
                    return hits
    return hits

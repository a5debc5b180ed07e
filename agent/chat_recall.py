"""What a turn's recall leaves out and asks for, given the chat it is in.

The chat's own saved messages that the request still holds are left out of the recall
itself; those a long chat trims away come back through it. Continue recalls for the
question it goes on answering.
"""

from __future__ import annotations

from agent.autosave import CONTINUE_PROMPT
from agent.messages import ChatMessage
from agent.sessions import Session
from memory.entry import MemoryCategory
from memory.errors import MemoryStoreError
from memory.lazy_patterns import lazy_compile
from memory.protocol import Memory

_SAID_READ = 500
"""How many of a chat's saved messages a recall leaves out as already in front of the model
(the most recent; an older one the recall finds is still cut as already there)."""


def history_room(num_ctx: int) -> int:
    """Tokens the request surely leaves the history: half of what is not reserved.

    Half, because the recalled block is not written yet: a message counted out of the
    history that the request still holds is at worst recalled twice, never lost.
    """
    reserve = min(num_ctx // 4, 2048) + 600
    return max(0, num_ctx - reserve) // 2


async def said_in_this_chat(
    memory: Memory, namespace: str, session: Session, live: list[ChatMessage]
) -> list[str]:
    """The ids of this chat's saved messages that the model has in front of it.

    Left out of the recall itself, not only of what is injected: found by a new user,
    they took the recall's places and, scoring high on their own words, ended it before
    meaning was searched ("keyword-early", then all of them cut as already there).
    """
    said = {m.content.strip() for m in live if m.role == "user"}
    if not said or session.incognito:
        return []
    try:
        saved = await memory.list(
            namespace=namespace,
            category=MemoryCategory.CONVERSATION.value,
            session_id=session.id,
            limit=_SAID_READ,
        )
    except MemoryStoreError:
        return []  # then `select` cuts them, as before
    return [entry.id for entry in saved if _one_of(entry.content.strip(), said)]


_REDACTED = lazy_compile(r"\[REDACTED:[\w-]+\]")


def _one_of(saved: str, said: set[str]) -> bool:
    """Whether a saved message is one of `said`, its secrets redacted in it or not.

    Found by a new user: "my gym locker password is Blau#77" was recalled into its own chat,
    saved as "… [REDACTED:secret]" and so unlike what the chat holds.
    """
    if saved in said:
        return True
    if "[REDACTED:" not in saved:
        return False
    pieces = _REDACTED.split(saved)
    return any(_with_gaps(pieces, message) for message in said)


def _with_gaps(pieces: list[str], message: str) -> bool:
    """Whether `message` is `pieces` in order, something (a secret) between each two.

    Each piece found at its first place that leaves room: no regular expression, which for
    a pasted page took seconds to build (13,000 pieces) on the event loop.
    """
    first, last = pieces[0], pieces[-1]
    if not message.startswith(first) or len(message) < len(first) + len(last) + len(pieces) - 1:
        return False
    at = len(first)
    for piece in pieces[1:-1]:
        found = message.find(piece, at + 1)
        if found < 0:
            return False
        at = found + len(piece)
    end = len(message) - len(last)
    return message.endswith(last) and end > at


def asked(text: str, session: Session) -> str:
    """What a turn recalls for: for Continue, the question the stopped reply answered.

    Found by a new user: "Continue from where you stopped." recalled nothing, so the model
    finished its answer without the memories it had begun it with.
    """
    if text.strip() != CONTINUE_PROMPT:
        return text
    questions = [
        m.content for m in session.messages if m.role == "user" and m.content != CONTINUE_PROMPT
    ]
    return questions[-1] if questions else text


_FORGET = lazy_compile(
    r"(?i)^\W*(?:(?:please|pls|plz|ok|okay|now|and|also|can\s+you|could\s+you|would\s+you)"
    r"[\s,]+)*(?:forget|delete|erase|remove|drop|wipe)\s+(?:about\s+|that\s+|what\s+i\s+"
    r"(?:said|told\s+you)\s+about\s+|the\s+(?:memory|memories|note|fact)\s+(?:of|about|on)\s+)?"
    r"(?P<what>[^,.;!?\n]{3,120})"
)
_NOTHING_NAMED = lazy_compile(r"(?i)^\s*(?:it|that|this|them|everything|all|me)\s*$")


def recall_query(text: str, session: Session) -> str:
    """What a turn's recall searches for: what a request to forget names, else `asked`.

    Found by a new user, a baker: "please forget my PKO card PIN, I changed it anyway"
    recalled nothing (the PIN's message fell below the floor among the other words), so
    the model could not forget it. Only the recall narrows: what the model is shown of a
    secret still follows the whole message.
    """
    found = _FORGET.match(text)
    if found is None or _NOTHING_NAMED.match(found["what"]):
        return asked(text, session)
    return found["what"].strip()

"""What the chat says of a secret a message gave that memory does not keep.

Found by a new user, a dog groomer: "van alarm code is 4471, card machine pin 9032" was saved
as "[REDACTED:code]" and the chat said nothing; asked later, the code was nowhere. A message
is saved with its secrets redacted; a fact keeps one only when asked to ("remember …").
"""

from __future__ import annotations

from agent.events import Notice
from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError
from memory.lazy_patterns import lazy_compile
from memory.more_days import asks_to_keep
from memory.protocol import Memory
from memory.text import REDACTED_MARKER

_FACTS_READ = 500


async def unkept_secret_notice(
    memory: Memory, namespace: str, saved: MemoryEntry, values: list[str]
) -> Notice | None:
    """The notice for a saved message whose secrets no fact in effect holds, or None."""
    if not values or REDACTED_MARKER.search(saved.content) is None:
        return None
    try:
        facts = await memory.list(namespace=namespace, category="core", limit=_FACTS_READ)
    except MemoryStoreError:
        return None
    held = "\n".join(fact.content for fact in facts)
    if all(value in held for value in values):
        return None  # said again: a fact keeps it already
    if _ASKED_TO_REMEMBER.search(saved.content) or asks_to_keep(saved.content):
        # Or in another language: told to ask "remember …" after "Guárdame esto: …" (a new
        # user, a baker in Guadalajara: she had asked).
        # "ok then remember it: laptop login password is …", and the model stored nothing:
        # asking again is no help (a new user was told to ask what she had asked).
        how = "keep it with /remember (it stores what follows as you type it)"
    else:
        how = 'ask to remember it ("remember …"), or type /remember and what to keep,'
    return Notice(
        f"Your message held a secret ({_kinds_said(saved.content)}): messages are saved with "
        f"it redacted, so memory does not keep it. To keep it, {how} or add it in the memory "
        "inspector (F2).",
        "info",
        about_reply=True,  # beside the reply, with the chat, as the change notices are
    )


_NAMES = {
    "id-number": "an ID number",
    "ssn": "an ID number",
    "iban": "an IBAN",
    "card-number": "a card's number",
    "card-code": "a card's code",
    # Not "a code, a PIN or a password": an adversary's bank account was named so, and the
    # user could think it a different number that went.
    "bank-account": "a bank account's number",
}
_USUAL = "a code, a PIN or a password"


def _name_of(kind: str) -> str:
    # Every service's token or key by its ending: "huggingface-token", "stripe-key" (an
    # adversary saw a Hugging Face and a Slack token named "a code, a PIN or a password").
    if kind.endswith(("-token", "-key")):
        return "a key or a token"
    return _NAMES.get(kind, _USUAL)


def _kinds_said(saved: str) -> str:
    """What the message's secrets were, by their markers: "an ID number", "a code, …"."""
    kinds = [marker.group()[len("[REDACTED:") : -1] for marker in REDACTED_MARKER.finditer(saved)]
    names = dict.fromkeys(_name_of(kind) for kind in kinds)
    return "; ".join(names) or _USUAL


_ASKED_TO_REMEMBER = lazy_compile(r"(?i)\b(?:remember|keep|save|store|note)\b")

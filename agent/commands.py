"""Memory slash commands, for models without tool support (and for people who like them)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from agent.messages import ChatMessage, ToolCall
from memory.lazy_patterns import lazy_compile
from memory.text import REDACTED_MARKER, fold

_WORD = lazy_compile(r"(?:[^\W_]|[\u0900-\u0963\u0966-\u0DFF\u0E00-\u0E7F\u1000-\u109F])+")
"""A word, its vowel signs in (they are marks, not letters, to `\\w`): "मेरा वाईफाई" was keyed
"म_र_व_ईफ_ई" (an adversary). Devanagari to Sinhala, Thai, Myanmar; not the danda."""
_WORD_CHARS = 24
COMMANDS = ("/remember", "/forget", "/recall")
_ARGUMENT = {"/remember": "TEXT", "/forget": "KEY", "/recall": "QUERY"}
MAX_FACT_CHARS = 10_000
"""The longest text one memory_store (and so one /remember) takes."""
COMMAND_CALL_ID = "command"
"""The id of the tool call a slash command stands for (no model made it)."""


@dataclass(frozen=True)
class MemoryCommand:
    """A parsed slash command, as the tool call it stands for."""

    call: ToolCall
    name: str = ""
    """The command as typed: /remember, /forget or /recall."""


def key_words(text: str, count: int) -> list[str]:
    """The first `count` words of `text` as a key holds them: lower case, marks left off.

    Letters of any script stay: "Jürgen" became "j_rgen" and "Привет" nothing at all
    (found by a new user).
    """
    # A key is at most 512 characters: one very long word cut short keeps it well inside.
    return [word[:_WORD_CHARS] for word in _WORD.findall(fold(text))[:count]]


def _secret_like(word: str) -> bool:
    digits = sum(c.isdigit() for c in word)
    return digits >= 3 or (digits >= 2 and any(c.isalpha() for c in word))


_NUMBERED = frozenset(
    "invoice invoices rechnung facture factura order ticket case booking reservation flight "
    "room table seat project contract po job issue bug task version release chapter".split()
)
"""Words a number after them names, not a secret: "invoice_2026_114_paid" is found by its
number (a new user saw three invoices keyed "invoice_paid_…")."""


def _named_numbers_kept(words: list[str]) -> list[str]:
    kept: list[str] = []
    named = False
    for word in words:
        if _secret_like(word) and not (named and word.isdigit()):
            named = False
            continue
        kept.append(word)
        named = word in _NUMBERED or (named and word.isdigit())
    return kept


_THOUSANDS_MARK = re.compile(r"(?<=\d)[,.](?=\d{3}(?!\d))")


def key_for(text: str) -> str:
    """The key /remember stores TEXT under (a few of its words and a short hash).

    The words come from the text with its secrets redacted: a key is shown in lists, the
    chat and every recall, and "my_password_is_hunter2" put the password in all of them
    (found by a new user). The text itself is kept as the user asked.
    """
    # A number of three digits or more, or a word of letters and digits, is left out
    # too: "Gate code 4471", "The wifi code is 8812-3345" and "pass Tr0ub4dor" put the code
    # in every list (an adversary); the hash keeps keys apart.
    # A bike lock's code too, and no word of the mark left in its place: "bike lock
    # combination is 3-9-1-7" made "bike_lock_combination_is_3", and "Villa PIN four four
    # seven one" "villa_pin_redacted_code" (an adversary).
    from agent.asked_secrets import redacted_for_the_model  # it stems: not at first paint

    unsaid = REDACTED_MARKER.sub(" ", redacted_for_the_model(text))
    # A sum's groups are one number: "₹45,000" made "mess_fee_is_45_…", which read as ₹45
    # (a new user, a student).
    unsaid = _THOUSANDS_MARK.sub("", unsaid)
    words = _named_numbers_kept(key_words(unsaid, 10))[:5]
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return "_".join([*words, digest]) if words else f"note_{digest}"


def split_head(text: str) -> tuple[str, str]:
    """The command word `text` opens with ("" after a leading space) and what follows it."""
    if not text.startswith("/"):
        return "", text
    parts = text.split(maxsplit=1)
    head = parts[0]
    # Caps lock on: "/REMEMBER my bike is red" went to the model as chat (an adversary).
    return head.lower() if head.lower() in COMMANDS else head, parts[1] if len(parts) > 1 else ""


def parse_command(text: str) -> MemoryCommand | None | str:
    """The command in `text`; None if it is not one; a usage message if it is malformed."""
    # A leading space sends the text as a message (the chat says so of every command), and
    # the argument may follow a newline or a tab as well as a space: "/remember" and a
    # pasted paragraph went to the model as text (found by an adversary).
    head, rest = split_head(text)
    if head not in COMMANDS:
        return None
    rest = rest.strip()
    if not rest:
        return f"usage: {head} {_ARGUMENT[head]}"
    if head == "/remember" and len(rest) > MAX_FACT_CHARS:
        return (
            f"/remember takes at most {MAX_FACT_CHARS:,} characters (this text has "
            f"{len(rest):,}): shorten it or split it in two"
        )
    if head == "/remember":
        call = ToolCall(
            id=COMMAND_CALL_ID,
            name="memory_store",
            arguments={"key": key_for(rest), "content": rest, "category": "core"},
        )
    elif head == "/forget":
        call = ToolCall(id=COMMAND_CALL_ID, name="memory_forget", arguments={"key": rest})
    else:
        call = ToolCall(id=COMMAND_CALL_ID, name="memory_recall", arguments={"query": rest})
    return MemoryCommand(call, head)


_THE_MESSAGE_BEFORE = lazy_compile(
    r"(?i)(?:what\s+i\s+(?:just\s+)?(?:said|wrote|typed|sent)|the\s+above|(?:my\s+)?(?:last|"
    r"previous)\s+(?:message|msg|one)|the\s+(?:last|previous)\s+(?:message|msg|one))[\s.!]*"
)
"""Other ways to point at the message before: "/remember what I just said", "/remember the
above" (an adversary saw each kept as the words themselves)."""


def remembered_before(
    command: MemoryCommand, messages: Sequence[ChatMessage], typed: str
) -> MemoryCommand | str:
    """What "/remember that" keeps: the user's message before it, as typed.

    Found by an adversary: told a message's code was redacted and to ask to remember it,
    "/remember that" kept a fact reading "that", and no code. A question before it is no
    fact, and nothing before it in the chat leaves nothing to keep: each is said.
    """
    from agent.autosave import points_back  # reads the chat's words: not at first paint
    from memory.questions import only_asks

    content = str(command.call.arguments.get("content", ""))
    if not (points_back(f"remember {content}") or _THE_MESSAGE_BEFORE.fullmatch(content.strip())):
        return command
    said = [
        m.content
        for m in messages
        if m.role == "user" and m.content != typed and not m.content.startswith("/")
    ]
    if not said:
        return f"nothing said before in this chat for {content!r} to mean: /remember TEXT"
    if only_asks(said[-1]):
        return f"the message before was a question, no fact for {content!r} to keep: /remember TEXT"
    before = said[-1].strip()
    if len(before) > MAX_FACT_CHARS:
        return (
            f"the message before has {len(before):,} characters; /remember keeps at most "
            f"{MAX_FACT_CHARS:,}: /remember the part to keep"
        )
    call = ToolCall(
        id=COMMAND_CALL_ID,
        name="memory_store",
        arguments={"key": key_for(before), "content": before, "category": "core"},
    )
    return MemoryCommand(call, command.name)


def parse_in_chat(text: str, messages: Sequence[ChatMessage]) -> MemoryCommand | None | str:
    """`parse_command`, with what "/remember that" points at read from the chat."""
    command = parse_command(text)
    if isinstance(command, MemoryCommand) and command.name == "/remember":
        return remembered_before(command, messages, text)
    return command

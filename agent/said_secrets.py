"""The secrets one chat redacted, and the one its last label awaits.

Split from `agent.redact`, which reads one text at a time: here a chat's texts are read in
turn, so a secret said again and a value sent after its label are taken out too.
"""

from __future__ import annotations

import re

from agent.loose_wordings import A_CONTRACTION
from agent.redact import TRAILING, redacted_with_values, said_again_with_kinds


class SaidSecrets:
    """The secrets one chat redacted, taken out again wherever a later message says them.

    Found by an adversary: "Zebra-Quartz-7719 is also what I use for the router admin
    page", after "my wifi password is Zebra-Quartz-7719", was saved and written to the chat
    file as typed: alone, it names no secret. The values stay in memory only, for the
    chat's life in this process.
    """

    def __init__(self) -> None:
        self._values: dict[tuple[str, str], None] = {}
        self._label: str | None = None
        """The user's last message, when it ended on a secret's label without its value."""
        self._messages_left = 0
        self._last: tuple[str, tuple[str, list[str]]] | None = None
        self.last_values: list[str] = []
        """The secrets taken out of the user's last message, as written."""

    def redact(self, text: str, *, by_user: bool = True) -> tuple[str, list[str]]:
        """`redact`, and each secret an earlier text of the chat held, said again here.

        A value the user sends alone after a message of theirs that ended on its label
        ("my bank card pin is", then "4821") is that secret too (an adversary: both halves
        were kept). The model's texts between (`by_user` False) neither give nor take it:
        a second adversary saw a one-word reply ("Sure.") redacted as the secret.
        """
        if by_user and self._last is not None and self._last[0] == text:
            return self._last[1][0], list(self._last[1][1])  # the chat file and the save
        clean, kinds, values = redacted_with_values(text)
        if by_user:
            clean, kinds = self._as_awaited(clean, kinds, values)
            if _awaits_a_value(text):
                self._label, self._messages_left = text, _MESSAGES_AWAITING
        # Never a word's contraction: one taken for a value ("what's") redacted every later
        # "what's" of the chat (a second adversary).
        self._values.update(dict.fromkeys(v for v in values if not A_CONTRACTION.fullmatch(v[1])))
        clean, again = said_again_with_kinds(clean, list(self._values))
        result = clean, kinds + [kind for kind in again if kind not in kinds]
        if by_user:
            self._last = text, result
            self.last_values = [value for _, value in values]
        return result[0], list(result[1])

    def _as_awaited(
        self, clean: str, kinds: list[str], values: list[tuple[str, str]]
    ) -> tuple[str, list[str]]:
        """`clean` with the value the last label awaited taken out, if it gives one.

        Read as the label and the value said in one message would be: "my wifi is", then
        "down", is no secret, as "my wifi is down" is none (a third adversary saw "down"
        redacted), and "4821 thanks" after "my pin is" loses only the PIN.
        """
        label = self._label
        self._messages_left = max(0, self._messages_left - 1)
        if not self._messages_left:
            self._label = None
        said = clean.strip()
        if label is None or kinds or not said or len(said.split()) > _MOST_WORDS:
            return clean, kinds
        if said.split()[0].strip(TRAILING).casefold() in _NO_VALUE:
            return clean, kinds
        # "it's 7340" after "my card pin:" gives the value as "7340" does (an adversary).
        given = _POINTING_AT_IT.match(said)
        lead, said = (said[: given.end()], said[given.end() :]) if given else ("", said)
        opening = f"{_with_its_verb(label)} "
        joined, joined_kinds, joined_values = redacted_with_values(opening + said)
        if not joined_kinds or not joined.startswith(opening) or joined[len(opening) :] == said:
            return clean, kinds
        self._label, self._messages_left = None, 0
        values.extend(joined_values)
        return lead + joined[len(opening) :], joined_kinds


_MESSAGES_AWAITING = 2
"""The user's messages a label said alone waits through for its value ("hang on", "4821")."""
_PROBES = ("4821", "Zq7kP2xw", "admin / Zq7kP2xw")
"""Values a label said alone would take: a PIN's or a code's, a password's, a login's."""
_ENDS_AS_A_LABEL = re.compile(
    r"(?i)(?:[:=\u2013\u2014-]|\.{2,}|\b(?:is|was|are|pin|code|pw|pwd|password|passcode"
    r"|combination|combo|answer)"
    r"|\b(?:pin|code|combo|combination|password|passcode)\s+(?:for|to|of)\s+(?:the\s+|my\s+)?"
    r"[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?|\b(?:below|next|follows|coming(?:\s+up)?)"
    r"|\bnext\s+(?:msg|message|text))\s*[:.]?\s*$"
)
"""Also what it opens ("pin for the garage door") and a value said to come ("new wifi
password below"): an adversary sent the value next, and it was kept as typed."""
_STILL_TO_COME = re.compile(
    r"(?i)\s+(?:is\s+)?(?:below|next|follows|coming(?:\s+up)?|(?:coming\s+)?in\s+(?:the|my|a)\s+"
    r"next\s+(?:msg|message|text))\s*[:.]?$"
)
"""Said to come: "new wifi password below", "the pw is in the next msg" (an adversary)."""
_WHAT_IT_OPENS = re.compile(
    r"(?i)\b(?:pin|code|combo|combination|password|passcode)\s+(?:for|to|of)\s+(?:the\s+|my\s+)?"
    r"[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?\s*$"
)


def _with_its_verb(label: str) -> str:
    """A label as it would be said with its value: "new wifi password below" → "… is"."""
    label = label.rstrip()
    if _STILL_TO_COME.search(label):
        return _STILL_TO_COME.sub(" is", label)
    return f"{label} is" if _WHAT_IT_OPENS.search(label) else label


_POINTING_AT_IT = re.compile(r"(?i)^(?:it['\u2019]?s|it\s+is|that['\u2019]?s|the\s+code\s+is)\s+")
_FORGOTTEN = re.compile(r"(?i)\b(?:forgot|forget|forgotten|lost|can['\u2019]?t\s+remember)\b")
""""I forgot my pin", then "2024": no value was coming (an adversary saw the year go)."""
_MOST_WORDS = 4
"""A value sent after its label, and a word or two ("4821 thanks"); more is a message."""
_ASKING = re.compile(
    r"(?i)^\W*(?:what|where|when|who|which|how|why|do|does|did|is|are|can|could|would|"
    r"any\s+idea|tell\s+me)\b"
)
_NO_VALUE = frozenset(
    "thanks thank thx okay sure yes yeah yep nope never wait hmm hold sorry later nothing "
    "cancel what why huh lol haha hello hey nvm forget alright dunno idk nah nevermind "
    "actually anyway".split()
)
"""A word sent alone that answers, not a password ("thanks", "wait")."""


def _awaits_a_value(text: str) -> bool:
    """Whether `text` ends on a secret's label, its value not said.

    Not a question: "what was the pin", then "2023", asked nothing to keep (an adversary).
    """
    if len(text) > 400 or "?" in text or _ASKING.match(text) or _FORGOTTEN.search(text):
        return False
    if not _ENDS_AS_A_LABEL.search(text):
        return False
    for probe in _PROBES:
        clean, kinds, _values = redacted_with_values(f"{_with_its_verb(text)} {probe}")
        if kinds and not clean.rstrip().endswith(probe):
            return True
    return False

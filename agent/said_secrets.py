"""The secrets one chat redacted, and the one its last label awaits.

Split from `agent.redact`, which reads one text at a time: here a chat's texts are read in
turn, so a secret said again and a value sent after its label are taken out too.
"""

from __future__ import annotations

import re

from agent.redact import TRAILING, redacted_with_values, said_again_with_kinds
from agent.secret_formats import replace_spans


class SaidSecrets:
    """The secrets one chat redacted, taken out again wherever a later message says them.

    Found by an adversary: "Zebra-Quartz-7719 is also what I use for the router admin
    page", after "my wifi password is Zebra-Quartz-7719", was saved and written to the chat
    file as typed: alone, it names no secret. The values stay in memory only, for the
    chat's life in this process.
    """

    def __init__(self) -> None:
        self._values: dict[tuple[str, str], None] = {}
        self._awaited: str | None = None
        """The kind of secret the user's last label, said without its value, awaits."""
        self._messages_left = 0
        self._last: tuple[str, tuple[str, list[str]]] | None = None

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
            if (awaits := _awaits_a_value(text)) is not None:
                self._awaited, self._messages_left = awaits, _MESSAGES_AWAITING
        self._values.update(dict.fromkeys(values))
        clean, again = said_again_with_kinds(clean, list(self._values))
        result = clean, kinds + [kind for kind in again if kind not in kinds]
        if by_user:
            self._last = text, result
        return result[0], list(result[1])

    def _as_awaited(
        self, clean: str, kinds: list[str], values: list[tuple[str, str]]
    ) -> tuple[str, list[str]]:
        """`clean` with the value alone the last label awaited taken out, if it is one."""
        awaited = self._awaited
        self._messages_left = max(0, self._messages_left - 1)
        if not self._messages_left:
            self._awaited = None
        alone = _value_alone(clean, awaited) if awaited is not None and not kinds else None
        if awaited is None or alone is None:
            return clean, kinds
        self._awaited, self._messages_left = None, 0
        values.append((awaited, clean[slice(*alone)]))
        return replace_spans(clean, [alone], f"[REDACTED:{awaited}]"), [awaited]


_MESSAGES_AWAITING = 2
"""The user's messages a label said alone waits through for its value ("hang on", "4821")."""
_PROBES = ("4821", "Zq7kP2xw")
"""Values a label said alone would take: a PIN's or a code's, a password's."""
_ENDS_AS_A_LABEL = re.compile(r"(?i)(?:[:=\u2013\u2014-]|\.{2,}|\b(?:is|was|are|pin|code|pw))\s*$")
_VALUE_ALONE = re.compile(r"\s*([*#]?\d(?:[ \t.-]?\d){2,11}[*#]?|[^\s\[\]]{4,64})\s*[.!]?\s*")
_NO_VALUE = frozenset(
    "thanks thank thx okay sure yes yeah yep nope never wait hmm hold sorry later nothing "
    "cancel what why huh lol haha hello hey nvm forget".split()
)
"""A word sent alone that answers, not a password ("thanks", "wait")."""


def _awaits_a_value(text: str) -> str | None:
    """The kind of secret `text` ends asking for, its label said but not its value."""
    if len(text) > 400 or not _ENDS_AS_A_LABEL.search(text):
        return None
    for probe in _PROBES:
        clean, kinds, _values = redacted_with_values(f"{text.rstrip()} {probe}")
        if kinds and not clean.rstrip().endswith(probe):
            return kinds[-1]
    return None


def _value_alone(text: str, kind: str) -> tuple[int, int] | None:
    """The span of a value sent alone: digits, or one word (a password's: "sunflower")."""
    found = _VALUE_ALONE.fullmatch(text)
    if found is None:
        return None
    value = found[1]
    if found[1].strip(TRAILING).casefold() in _NO_VALUE:
        return None
    if not any(c.isdigit() for c in value) and kind != "secret":
        return None  # a PIN's or a door code's value holds digits
    return found.span(1)

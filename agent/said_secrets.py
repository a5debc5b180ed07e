"""The secrets one chat redacted, and the one its last label awaits.

Split from `agent.redact`, which reads one text at a time: here a chat's texts are read in
turn, so a secret said again and a value sent after its label are taken out too.
"""

from __future__ import annotations

from agent.awaited_values import (
    MOST_WORDS,
    NO_VALUE,
    POINTING_AT_IT,
    awaits_a_value,
    given_after,
)
from agent.id_numbers import ID_NUMBER_KINDS, numbers_of_others
from agent.loose_wordings import A_CONTRACTION
from agent.redact import TRAILING, redacted_with_values, said_again_with_kinds
from memory.lazy_patterns import lazy_compile


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
        self._id_numbers: list[tuple[str, str]] = []
        """The ID numbers of the user's last message (`agent.id_numbers`), as written."""
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
            clean, kinds = self._another_ones_number(clean, kinds, values)
            if awaits_a_value(text):
                self._label, self._messages_left = text, _MESSAGES_AWAITING
            self._id_numbers = [(k, v) for k, v in values if k in ID_NUMBER_KINDS] or (
                self._id_numbers if _small_talk(text) else []
            )
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
        if not _small_talk(clean):
            # "my phone pin is", "ok", "thanks", "9043" (an adversary): the small talk
            # between waits with it.
            self._messages_left = max(0, self._messages_left - 1)
        if not self._messages_left:
            self._label = None
        said = clean.strip()
        rest = ""
        if said and len(said.split()) > MOST_WORDS and _A_VALUE_FIRST.match(said):
            # "4821 but don't tell anyone": the value first, then a sentence (an adversary).
            first = said.split()[0]
            said, rest = first, clean.strip()[len(first) :]
        if label is None or kinds or not said or len(said.split()) > MOST_WORDS:
            return clean, kinds
        if said.split()[0].strip(TRAILING).casefold() in NO_VALUE:
            return clean, kinds
        # "it's 7340" after "my card pin:" gives the value as "7340" does (an adversary).
        given = POINTING_AT_IT.match(said)
        lead, said = (said[: given.end()], said[given.end() :]) if given else ("", said)
        taken = given_after(label, said)
        if taken is None:
            return clean, kinds
        self._label, self._messages_left = None, 0
        values.extend(taken[2])
        return lead + taken[0] + rest, taken[1]

    def _another_ones_number(
        self, clean: str, kinds: list[str], values: list[tuple[str, str]]
    ) -> tuple[str, list[str]]:
        """`clean` with someone else's ID number taken out, said right after the user's.

        "my medicare number is 2123 45670 1", then "and my wife's is 2123 45671 1" (an
        adversary saw the second kept, and recalled in other chats): read as one message
        would be (`agent.id_numbers.numbers_of_others`).
        """
        if kinds or not self._id_numbers:
            return clean, kinds
        kind, value = self._id_numbers[-1]
        joined = f"{value}, {clean.strip()}"
        found = numbers_of_others(joined, [(kind, (0, len(value)))])
        if not found:
            return clean, kinds
        lead = len(clean) - len(clean.lstrip())
        # Each of them, from the last: "and the kids' ones are K1111111 and K2222222" (an
        # adversary saw the second kept).
        for _, span in reversed(found):
            start, end = (lead + at - len(value) - 2 for at in span)
            values.append((kind, clean[start:end]))
            clean = f"{clean[:start]}[REDACTED:{kind}]{clean[end:]}"
        return clean, [kind]


def _small_talk(text: str) -> bool:
    """Whether `text` is a word or two of small talk ("ok", "thanks!")."""
    words = [word.strip(TRAILING).casefold() for word in text.split()]
    return 0 < len(words) <= 2 and all(word in NO_VALUE for word in words)


_A_VALUE_FIRST = lazy_compile(r"(?!(?:19|20)\d\d\s)\S*\d\S*[.,!]?\s")
"""A word holding a digit first: a PIN or a password, said before what follows it; not a
year opening a sentence ("2024 was a strange year …")."""
_MESSAGES_AWAITING = 2
"""The user's messages a label said alone waits through for its value ("hang on", "4821")."""

"""A message that takes back the one before it: "actually no, we didn't move", "jk".

Found by an adversary: "Big news: we moved to Sagres!" updated the home fact, and the next
message, "actually no, sorry, we didn't move, still in Lagos", left it so; the model was
told Sagres. What the message before changed is put back (`agent.edited_changes`), as an
edit of it would.
"""

from __future__ import annotations

from memory.lazy_patterns import lazy_compile

_TAKES_BACK = lazy_compile(
    r"(?i)^\W*(?:(?:wait|sorry|oops|hmm|um+|ah|argh|lol|haha|never\s*mind)\W+)*"
    r"(?:j/?k\b|just\s+(?:kidding|joking)|(?:i\s+was\s+|i['\u2019]m\s+)?(?:only\s+)?"
    r"(?:kidding|joking)\b|scratch\s+that|ignore\s+(?:that|what\s+i\s+(?:just\s+)?said)|"
    r"forget\s+(?:that|what\s+i\s+(?:just\s+)?said)|(?:that['\u2019]?s\s+)?not\s+true|"
    r"(?:actually|no\s+wait|wait)\W+(?:no|nope)\b|that\s+was\s+a\s+joke|"
    r"(?:i|we)\s+(?:didn['\u2019]?t|did\s+not)\s+(?:actually\s+)?\w+(?=\s*(?:[,.;!]|$|\s+after\s+all\b))|"
    r"(?:no|nope)\b(?=[^?]*\b(?:(?:didn['\u2019]?t|did\s+not|haven['\u2019]?t|have\s+not|"
    r"wasn['\u2019]?t)(?:\s+actually)?\s+\w+(?=\s*(?:[,.;!]|$|\s+(?:after\s+all|at\s+all)\b))|"
    r"still\s+(?:in|at|live|living|work|working|with|there|here|the\s+same)\b)))"
)
"""Its opening takes the last message back; a "no" only with "didn't" or "still in" (at,
with …) after it ("no, I still need help" is an answer, and takes nothing back when the message
before changed nothing)."""


def takes_back_the_last(text: str) -> bool:
    """Whether `text` opens by taking back the message before it."""
    return _TAKES_BACK.search(text) is not None

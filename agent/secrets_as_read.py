"""How redaction reads a text's words: emphasis, brackets and quotes around them as spaces.

One character for one, so each span found in the text read is the same span in the text.
"""

from __future__ import annotations

from memory.lazy_patterns import lazy_compile

_EMPHASIS = lazy_compile(r"(?<![\w*_\\])(\*{1,3}|_{1,3})(?=[^\s*_])([^\n]*?[^\s*_\\])\1(?![\w*_])")


def _without_emphasis(text: str) -> str:
    """`text` with Markdown's emphasis marks as spaces, one for one, to read labels by.

    Found by a new user, a translator: a reply's "**Password:** hunter22" was kept whole,
    and "You said: *my password is hunter22*" lost the closing mark with the password.
    """
    if "*" not in text and "_" not in text:
        return text
    return _EMPHASIS.sub(
        lambda found: f"{' ' * len(found[1])}{found[2]}{' ' * len(found[1])}", text
    )


_QUEBEC_PIN = lazy_compile(
    r"(?i)(?<![\w-])nip(?![\w-])(?![^\n\d]{0,40}\d{3}-?\d{3}-?\d{2}-?\d{2}(?!\d))"
)
"""Québec French "NIP" (a PIN: "le NIP de ma carte de débit c'est 4827", kept as typed for a
new user, a translator in Montréal); not a Polish NIP, a tax number of ten digits."""


_A_WORD_IN_BRACKETS = lazy_compile(
    r"(?<!\])([\[(])((?=[^\s\[\]()]*\d)[^\s\[\]()]{4,})([\])])(?!\()"
)


def _unbracketed(text: str) -> str:
    """`text` with one word holding a digit in brackets read as said without them.

    A space for each bracket, so every place holds ("door code (front) 4590" keeps its
    words in brackets).

    "password: [hunter22]" was kept as typed (found beside an adversary's "인증번호 [482913]").
    Not a Markdown link ("[docs](https://…)"), nor a marker already written.
    """
    if "[" not in text and "(" not in text:
        return text
    return _A_WORD_IN_BRACKETS.sub(
        lambda found: (
            found[0]
            if found[2].startswith("REDACTED:") or _CLOSING[found[1]] != found[3]
            else f" {found[2]} "
        ),
        text,
    )


def with_pin_for_nip(text: str) -> str:
    """`text` with Québec's "NIP" read as "PIN", one letter for one."""
    return _QUEBEC_PIN.sub("PIN", text) if "nip" in text.lower() else text


_CLOSING = {"[": "]", "(": ")", "{": "}", "<": ">"}


def inside_its_brackets(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """`span` without an opening bracket whose closing one follows it.

    "인증번호 [482913]" became "인증번호 [REDACTED:secret]]" (an adversary).
    """
    start, end = span
    closing = _CLOSING.get(text[start : start + 1])
    if closing is not None and end - start > 1 and text[end : end + 1] == closing:
        return start + 1, end
    return span


_NOT_A_QUOTE = "\"'`\u201c\u201d\u2018\u2019\u00ab\u00bb\\n"
_QUOTED = lazy_compile(
    "(?<![\\w'\u2019])(?P<open>[\"'`\u201c\u2018\u00ab\u201e])"
    # A secret's name, then its value: not a quoted password alone ("p@ss w0rd 99", whose
    # quotes hold it together), nor a spreadsheet's cell.
    f"(?P<said>(?=[^{_NOT_A_QUOTE}]{{0,40}}\\d)"
    "(?i:(?:[\\w-]+[ \\t]+){0,2}(?:pin|code|otp|passcode|combo|combination|puk))\\b"
    f"[^{_NOT_A_QUOTE}]{{1,38}}[^\\s{_NOT_A_QUOTE}])"
    "(?P<close>[\"'`\u201d\u2019\u00bb\u201c])(?![\\w'\u2019])"
)
_QUOTES_CLOSED_BY = {
    '"': '"',
    "'": "'",
    "`": "`",
    "\u201c": "\u201d",
    "\u2018": "\u2019",
    "\u00ab": "\u00bb",
    "\u201e": "\u201c",
}


def _unquoted(text: str) -> str:
    """`text` with a short quote holding a digit read as said without its marks.

    Found by an adversary, each kept as typed: 'the note on the door said "pin 4821"',
    "'pin 4821'", "«code 4821»", "`pin 4821`" (the same words unquoted were redacted).
    """
    if not any(mark in text for mark in _QUOTES_CLOSED_BY):
        return text
    return _QUOTED.sub(
        lambda found: (
            f" {found['said']} " if _QUOTES_CLOSED_BY[found["open"]] == found["close"] else found[0]
        ),
        text,
    )


def as_read(text: str) -> str:
    """`text` without the emphasis, brackets and quotes around its words (one for one)."""
    return _unquoted(_unbracketed(_without_emphasis(text)))

"""Secrets said as a pair, set to a plain word, or named after their value.

Found by adversaries and new users, each stored and recalled as typed: "creds for the NAS
are admin:Tr0ub4dor", "WiFi: HomeNet / sunflower77", "SSID HomeNet, key purplemonkey",
"first pet was Fluffy (security question)", "I changed the wifi password to bluebird",
"We changed the door code, it's 9090 now". `agent.password_wordings` and
`agent.loose_wordings` read the wordings that label a value before it.
"""

from __future__ import annotations

import re

from agent.loose_wordings import kinds_mixed
from memory.lazy_patterns import lazy_compile

_VALUE = r"(?P<value>[^\s,;|]+)"
_NUMBER_WORDS = r"zero|oh|one|two|three|four|five|six|seven|eight|nine"
_TRAILING = ".,;:!?)]}>\"'`\u201c\u201d\u2018\u2019"
_CREDENTIALS = lazy_compile(
    r"(?i)\b(?P<label>creds|credentials|log-?in|logon|sign[ -]?in)\b"
    r"(?:[ \t]+(?:for|to|on|at|of)(?:[ \t]+[\w'.\u2019-]+){1,4}?)?"
    r"[ \t]*(?:\b(?:are|is|was|were)\b|[:=])?[ \t]*"
    r"(?P<user>[^\s:/|,;]+)[ \t]*(?<!:)[:/|][ \t]*" + _VALUE
)
""""creds for the NAS are admin:Tr0ub4dor", "login: ana/hunter4": a name and its password."""
_ADMIN_COLON = lazy_compile(r"(?i)(?<![\w@/:])(?:admin|root|administrator|ubnt):(?P<value>\S+)")
""""admin:Tr0ub4dor" alone, as a router's or a server's login is written."""
_NETWORK_PAIR = lazy_compile(
    r"(?i)\b(?:wi-?fi|wlan|ssid|network)\b[ \t]*(?:[:=-]|\bis\b)?[ \t]*"
    r"(?P<network>[^\s/|,;:]+)[ \t]*[/|][ \t]*" + _VALUE
)
""""WiFi: HomeNet / sunflower77": the network's name, then its key."""
_SSID_THEN_KEY = lazy_compile(
    r"(?i)\bssid\b[^\n]{0,60}?\b(?:key|pass(?:word)?|psk|pw|pwd)\b[ \t]*(?:[:=]|\bis\b)?[ \t]*"
    + _VALUE
)
""""SSID HomeNet, key purplemonkey": named beside the SSID, a key of plain letters too."""
_SHORTEST_KEY = 8
"""A WPA2 key is 8 to 63 characters: "network: 5G/4G" names none."""
_NO_KEY = frozenset(
    "is was the a an my our it unknown none n/a na same below above reset changed change "
    "expired wrong lost forgotten missing please pls on in at is: required needed".split()
)
_ANSWER_BEFORE = lazy_compile(
    r"(?i)(?:\b(?:was|is|were|are)\b|:)[ \t]*"
    r"(?P<value>[^\s.,;!?()]+(?:[ \t]+[^\s.,;!?()]+){0,2}?)[ \t]*(?:[,(\u2013\u2014-][ \t]*)*"
    r"(?:for[ \t]+)?(?:(?:my|the|a|our)[ \t]+)?(?:bank['\u2019]?s?[ \t]+)?"
    r"security[ \t]+(?:question|answer|q)\b"
)
""""first pet was Fluffy (security question)": the answer said before its label."""
_NOT_AN_ANSWER = frozenset(
    "the a an my your our this that it what which who not no yes for on in of to and or "
    "asked wrong right same different".split()
)
_SET_TO = lazy_compile(
    r"(?i)\b(?:change|changed|changing|set|reset|updated?|switched|made)[ \t]+"
    r"(?:(?:the|my|our|her|his|their)[ \t]+)?(?P<what>(?:[\w-]+[ \t]+){0,2}?)"
    r"(?P<label>password|passcode|passwd|pw|pwd|pin|code|combination|combo)[ \t]+"
    r"(?:to|into)[ \t]+" + _VALUE + r"(?=[ \t]*(?:$|[.,;!?)]|[ \t]+(?:now|today|yesterday|"
    r"tonight|this|last|earlier|again|and|but|so|btw|for|on|after|because|since)\b))"
)
""""I changed the wifi password to bluebird.": a plain word, set as the password and said
last in its clause ("changed my password to protect my account" says why)."""
_NOT_A_VALUE = frozenset(
    "something anything a an the it one that this what be me you mine yours same new old "
    "default blank nothing".split()
)
_NOT_A_SECRETS_CODE = lazy_compile(
    r"(?i)\b(?:zip|post|postal|area|dress|promo|discount|coupon|voucher|country|source|tax|"
    r"colou?r|error|status|bar|qr|sort|swift|dial(?:ling)?|bike|bicycle|cycle)\b"
)
"""A code that opens nothing: "changed the zip code to 90210"."""
_WORD_ENDS = lazy_compile(r"[.,;:!?)\]]*(?:\s|$)")
_CODE_THEN_VALUE = lazy_compile(
    r"(?i)\b(?:door|alarm|gate|garage|safe|building|entry|keypad|lock[ \t-]?box|key[ \t-]?safe|"
    r"house|front[ \t]+door)[ \t]+(?:code|pin|combination|combo)\b[^;\n]{0,40}?"
    r"(?:\bit['\u2019]?s|\bit[ \t]+is|\b(?:the[ \t]+)?new[ \t]+one(?:[ \t]+is|['\u2019]s)|\bnow)"
    r"[ \t]+(?:now[ \t]+)?(?P<value>\d[\d \t-]{1,10}\d)\b"
    r"(?![ \t]*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|years?|times?|"
    r"digits?|numbers?|steps?|metres?|meters?|km|miles?|euros?|dollars?|pounds?|%|am|pm)\b)"
)
""""We changed the door code, it's 9090 now", "alarm code changed, now 4471"."""
_PASSWORD_WORD = r"(?:password|passwd|passcode|pass|pw|pwd|wi-?fi\s+key)"
_CHANGED_THEN_IT_IS = lazy_compile(
    r"(?i)\b(?:changed|reset|updated|new)\b[^.;\n]{0,40}?\b" + _PASSWORD_WORD + r"\b"
    r"[^.;\n]{0,20}?[,;:.][ \t]*(?:it['\u2019]?s|it[ \t]+is|the[ \t]+new[ \t]+one[ \t]+is)"
    r"(?:[ \t]+now)?[ \t]+(?P<value>[^\s,;]+)(?=[ \t]*(?:$|[.,;!?)]|[ \t]+(?:now|btw|thanks)\b))"
)
""""we changed the wifi pw, it's now swallowtail": a plain word too, last in its clause."""
_LABEL_CHANGED_TO = lazy_compile(
    r"(?i)\b(?P<label>" + _PASSWORD_WORD + r"|code|pin|combination|combo)\b[ \t]+"
    r"(?:was[ \t]+|has[ \t]+been[ \t]+|got[ \t]+|is[ \t]+)?(?:changed|updated|reset|set)"
    r"(?:[ \t]+(?:today|yesterday|again|this[ \t]+morning))?[ \t]*(?:to|->|\u2192|=>|:)[ \t]*"
    r"(?P<value>(?:" + _NUMBER_WORDS + r")(?:[ \t-]+(?:" + _NUMBER_WORDS + r")){2,}|[^\s,;]+)"
)
""""Netflix pw changed -> hunter9", "storage unit code updated to 2718", "office door code
was changed today to one two three four" (an adversary: each kept as typed)."""
_POSSESSIVE_AFTER_NETWORK = lazy_compile(
    r"(?i)\b(?:wi-?fi|wlan|network|ssid)\b[^.;\n]{0,60}?\b"
    + _PASSWORD_WORD
    + r"['\u2019]s[ \t]+(?P<value>[^\s,;]+)"
)
""""the wifi is Home5G and the password's daffodil": the network's password, a plain word."""
_DIGITS_OR_NUMBER_WORDS = lazy_compile(
    r"(?i)\d[\d \t.-]*\d|(?:" + _NUMBER_WORDS + r")(?:[ \t-]+(?:" + _NUMBER_WORDS + r"))+"
)
_CLAUSE_ENDS = lazy_compile(r"[ \t]*(?:$|[.,;!?)]|[ \t]+(?:now|today|btw|thanks|and|but)\b)")
_HINTS = (
    "cred", "log", "sign", "admin", "root", "ubnt", "wi", "wlan", "ssid", "network",
    "security", "pass", "pw", "pin", "code", "combo", "combination",
)  # fmt: skip


def paired_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each secret `text` says in these wordings."""
    lowered = text.lower()
    if not any(hint in lowered for hint in _HINTS):
        return []
    spans: list[tuple[str, tuple[int, int]]] = []
    for found in _CREDENTIALS.finditer(text):
        user, value = found["user"], _bare(found["value"])
        # Any value beside "creds"; a login's holds a digit or a capital, its name is no
        # time ("login: 9am/5pm"), and a link is none ("login at https://…").
        plain = not found["label"].lower().startswith("cred") and kinds_mixed(value) < 2
        if len(value) < 3 or plain or user[0].isdigit() or user.casefold().startswith("http"):
            continue
        spans.append(("secret", _value_span(found)))
    spans += [("secret", _value_span(f)) for f in _ADMIN_COLON.finditer(text)]
    for found in _NETWORK_PAIR.finditer(text):
        network, value = found["network"], _bare(found["value"])
        # A network's name is written as one ("HomeNet", "Home5G"): "wifi slow / unusable".
        named = not network.islower() or any(c.isdigit() for c in network)
        if len(value) >= _SHORTEST_KEY and (named or kinds_mixed(value) >= 2):
            spans.append(("secret", _value_span(found)))
    spans += [
        ("secret", _value_span(found))
        for found in _SSID_THEN_KEY.finditer(text)
        if _bare(found["value"]).casefold() not in _NO_KEY
        and len(_bare(found["value"])) >= _SHORTEST_KEY
    ]
    spans += [
        ("secret", _value_span(found))
        for found in _ANSWER_BEFORE.finditer(text)
        if found["value"].split()[0].casefold() not in _NOT_AN_ANSWER
    ]
    spans += _set_to_spans(text)
    spans += [("code", found.span("value")) for found in _CODE_THEN_VALUE.finditer(text)]
    spans += [
        ("secret", _value_span(found))
        for rule in (_CHANGED_THEN_IT_IS, _POSSESSIVE_AFTER_NETWORK)
        for found in rule.finditer(text)
        if _a_plain_value(found)
    ]
    spans += _changed_to_spans(text)
    return [(kind, span) for kind, span in spans if span[1] > span[0]]


def _set_to_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """A password or a code said set to its value (`_SET_TO`)."""
    spans: list[tuple[str, tuple[int, int]]] = []
    for found in _SET_TO.finditer(text):
        value = _bare(found["value"])
        password = found["label"].lower().startswith("p") and found["label"].lower() != "pin"
        # A code or a PIN set to a word is no secret: "changed the dress code to casual".
        whole = _WORD_ENDS.match(text, found.end("value")) is not None  # not "1.2" of "1.2.3"
        if (
            not whole
            or value.casefold() in _NOT_A_VALUE
            or _NOT_A_SECRETS_CODE.search(found["what"])
        ):
            continue
        if password or any(c.isdigit() for c in value):
            spans.append(("secret" if password else "code", _value_span(found)))
    return spans


def _changed_to_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """A password or a code named, then said changed to its value (`_LABEL_CHANGED_TO`)."""
    spans: list[tuple[str, tuple[int, int]]] = []
    for found in _LABEL_CHANGED_TO.finditer(text):
        value, label = _bare(found["value"]), found["label"].casefold()
        is_code = label in ("code", "pin", "combination", "combo")
        # A code is digits or number words ("changed to one two three four"); "dress code
        # changed to casual" none, nor "the code was updated to v2.3".
        if is_code and not _DIGITS_OR_NUMBER_WORDS.fullmatch(value):
            continue
        # A plain word is a password only last in its clause ("pw changed: see email").
        plain = value.isalpha() and value.islower()
        if value.casefold() in _NOT_A_VALUE or (
            plain and not _CLAUSE_ENDS.match(text, found.end("value"))
        ):
            continue
        if _NOT_A_SECRETS_CODE.search(text[max(found.start() - 20, 0) : found.start()]):
            continue
        spans.append(("code" if is_code else "secret", _value_span(found)))
    return spans


def _a_plain_value(found: re.Match[str]) -> bool:
    """Whether a value that may be a plain word is one: last in its clause, no state.

    "I changed my password, it is safer now" says how it is (kept as typed before).
    """
    value = _bare(found["value"]).casefold()
    if value in _NOT_A_VALUE or value in _NO_KEY or value in _A_STATE:
        return False
    plain = value.isalpha()
    return not plain or _ENDS_ITS_CLAUSE.match(found.string, found.end("value")) is not None


_A_STATE = frozenset(
    "safer fine better stronger longer shorter working sorted done different easier harder "
    "ok okay good great secure weak strong long short simple complicated".split()
)
_ENDS_ITS_CLAUSE = lazy_compile(r"[.,;!?)\]]*[ \t]*(?:$|[.,;!?)]|\n)")


def _bare(value: str) -> str:
    return value.strip(_TRAILING)


def _value_span(found: re.Match[str]) -> tuple[int, int]:
    start, end = found.span("value")
    while end > start and found.string[end - 1] in _TRAILING:
        end -= 1
    return start, end

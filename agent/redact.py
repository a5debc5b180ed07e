"""Secrets are redacted before anything the user typed is saved as a memory.

Two passes: secrets that identify themselves by their format (`agent.secret_formats`), then
secrets that a label announces: `my password is …`, `DB_PASSWORD=…`, `"api_key": "…"`,
`the password for the wifi is …`. A password label takes whatever follows, up to the end of
the clause (a passphrase is several words); weaker labels (`token`, `secret`, `key`) take only
something that looks like a secret, so "a token is a unit of text" stays as it is.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from agent.bank_accounts import bank_account_spans
from agent.codes_beside import more_codes_beside
from agent.id_numbers import id_number_spans, numbers_of_others
from agent.loose_wordings import loose_spans
from agent.more_secret_wordings import more_secret_spans
from agent.not_secret_codes import (
    POSTAL_PIN_DIGITS,
    a_cards_last_digits,
    a_meetings_number_at,
    a_year,
    postal_pin,
    postal_pin_at,
)
from agent.one_time_codes import one_time_code_spans
from agent.paired_secrets import paired_spans
from agent.password_wordings import width_folded, with_its_bangs, wording_spans
from agent.secret_formats import (
    CARD_RULE,
    FORMAT_RULES,
    IBAN_RULE,
    find,
    gates_in,
    hinted,
    replace_spans,
)
from agent.secret_forms import forms_pattern, replace_words, skeleton
from agent.secret_nouns import secret_noun_spans
from agent.secrets_as_read import as_read, inside_its_brackets, with_pin_for_nip
from agent.secrets_in_arabic_script import arabic_script_spans
from agent.told_secrets import told_secret_spans
from memory.lazy_patterns import lazy_compile
from memory.letters import in_ascii_digits

_WALLET = r"(?:seed|recovery|backup|secret)[ \t]+(?:phrase|words)|mnemonic(?:[ \t]+phrase)?"
"""A wallet's words: all of them are the secret (`_WALLET_WORDS`)."""
_STRONG = (
    r"pass(?:word|wd|phrase|code)s?|p[a@4ä][s$5][s$5][- \t]?w[o0]r[dt]s?|pwd|pword|pw|p/w|"
    r"passwort|kennwort|mot[ \t]+de[ \t]+passe|"
    r"contrase(?:ñ|n)a|senha|wachtwoord|has(?:ł|l)o|l(?:ö|o)senord(?:et)?|"
    r"salasana(?:ni|si)?|adgangskode(?:n)?|пароль|парол[яеюи]|"
    # Swahili: "neno la siri", "nenosiri" (a password), "namba ya siri" (a PIN).
    r"neno[ \t]+la[ \t]+siri|nenosiri|namba[ \t]+ya[ \t]+siri|"
    # A wallet's words, a security question's answer (an adversary: each kept as said).
    + _WALLET
    + r"|security[ \t]+(?:question[ \t]+)?answer|"
    r"answer[ \t]+to[ \t]+(?:the[ \t]+|my[ \t]+|a[ \t]+)?security[ \t]+question|"
    r"(?:mother|mum|mom)['\u2019]s[ \t]+maiden[ \t]+name|memorable[ \t]+(?:word|phrase)"
)
"""Password labels in English and in the languages an adversary tried ("Mein Passwort ist
…", "mot de passe : …", "contraseña: …"): each was stored, and made a key, as said."""
_WEAK = (
    r"secret|token|api[_ -]?key|apikey|access[_ -]?key|secret[_ -]?key|private[_ -]?key"
    r"|client[_ -]?secret|account[_ -]?key|shared[_ -]?access[_ -]?key|credentials?|creds"
    r"|auth|key|pass|sig"
    # Spanish "key", said of a password: "la clave del wifi es Mariposa2020" (a new user).
    r"|clave"
)
_LABEL = lazy_compile(
    r"""
    (?<![\w-])
    (?P<name>(?:my|your|our|the)?_*(?:[A-Za-z0-9]+[_.-]|(?-i:[A-Z]*[a-z0-9]+(?=[A-Z]))){0,8}?
      (?P<label>"""
    + _STRONG
    + "|"
    + _WEAK
    + r"""))
    (?![\w-])
    ["']?
    (?P<infix>[ \t]+(?:for|of|to|on|at|in|für|fürs|vom|du|de|del|della|dello|delle|degli|dei|
      di|per|do|da|dla|voor|van|för|
      till|til|af|от|для|ya|wa|la|za|yangu|yetu)[ \t]+(?:[^\s:=]+[ \t]+){0,4}?
      (?:[^\s:=]+(?=[ \t]*:(?!//)))?)?
    [ \t]*
    (?P<sep>:=|=>|=(?!=)|:(?!//)|[—–][ \t]|(?:,[ \t]*)?c'est\b|
      \b(?:(?:is|was)(?:[ \t]+(?:now|still|currently|again|just|also|actually|probably|
      definitely|always))?|remains|stays|(?:should|will|must|might|may)[ \t]+be)[ \t]+
      (?:now|still|currently|again|just|also|actually|probably|definitely|always)\b:?|
      \b(?:remains|stays|(?:should|will|must|might|may)[ \t]+be)\b:?|
      \b(?:is|was|ist|lautet|est|es|é|è|är|
      (?<=salasana[ \t])on|(?<=salasanani[ \t])on|(?<=has[łl]o[ \t])to|er|jest|это|
      ni|be|(?<=word[ \t])na|(?<=code[ \t])na|(?<=pin[ \t])na)
      \b(?:[ \t]+(?:jetzt|nun|ahora|agora|maintenant|nu|ora|adesso|teraz)\b)?:?)
    [ \t]*
    """,
    re.IGNORECASE | re.VERBOSE,
)
"""A label and what separates it from its value: `DB_PASSWORD=`, `"apiKey": `, `password for
the wifi is `, `password is now ` (a plain word after "now" was kept as said: found while
fixing a changed key safe code); Nigerian Pidgin's "be" and, after an English label, "na"
("my hospital portal password na Chiamaka2015!": a new user, in Lagos; Portuguese "senha na
minha conta" is no value). The name may hold segments before the label (`DB_`,
`aws_secret_access_`).
A camelCase segment is capitals then lower case or digits, so a name splits into segments
one way only: `[A-Za-z0-9]*[a-z0-9]` split `aBaB…` countless ways and took seconds."""
_LABEL_HINTS = (
    "seed",
    "recovery",
    "backup",
    "mnemonic",
    "security",
    "answer to",
    "memorable",
    "mother",
    "mum's",
    "mom's",
    "mot de passe",
    "pass",
    "p@ss",
    "pa$$",
    "p4ss",
    "päss",
    "pa55",
    "pwd",
    "pword",
    "secret",
    "token",
    "key",
    "auth",
    "cred",
    "pw",
    "p/w",
    "sig",
    "wort",
    "contrase",
    "clave",
    "senha",
    "woord",
    "hasło",
    "haslo",
    "senord",
    "salasana",
    "kode",
    "парол",
    "namba ya siri",
    "neno la siri",
    "nenosiri",
)
_KEYWORD = lazy_compile("|".join(_LABEL_HINTS))
_ANY_CASE = lazy_compile(_KEYWORD.pattern, re.IGNORECASE)
_MAX_NAME = 64
"""Identifiers longer than this are not read as labels (bounds the work per keyword)."""
_STRONG_LABEL = lazy_compile(_STRONG, re.IGNORECASE)
_ANY_LABEL = lazy_compile(_STRONG + "|" + _WEAK + "|pin", re.IGNORECASE)
_PIN_SAID = (
    # Nigerian Pidgin "na" and "be" too: "my atm pin na 4821" (a new user, in Lagos).
    r"(?::|=|[\u2013\u2014]|\b(?:is|was|es|ist|est|lautet|ni|na|be|è|é)\b"
    # "pin is just 1111 lol" (an adversary: kept as typed).
    r"(?:[ \t]+(?:now|just|only|simply|still|actually))?:?)"
)
_PIN = lazy_compile(
    # Also a name's last part: "admin_pin: 8812" in a pasted .env (an adversary: every
    # other line was redacted, that one kept).
    r"(?i)(?:\b|(?<=_))pin(?:(?:[ \t-]*code(?:[ \t]+number)?"
    r"|[ \t-]*(?:number|nummer|no\.|nr\.?|#))[ \t]*" + _PIN_SAID + "?"
    # Swahili, whose and of what between: "PIN yangu ya mpesa ni 7391", "pin ya ATM ni 5521"
    # (a new user, in Nairobi: each kept as typed, and the chat's title).
    r"|(?:[ \t]+(?:yangu|yetu|yako|yake|yao|ya|wa|la|za)(?:[ \t]+[\w-]+)?){1,3}[ \t]+ni\b"
    r"|[ \t]*" + _PIN_SAID + r")[ \t]*"
    r"(\d{2,4}([ .-])\d{2,4}(?:\2\d{2,4}){0,3}|\d{4,8}|\d([ .-])\d(?:\3\d){2,6})(?![\d.-]?\d)"
)
"""A PIN after its label, however the digits are spaced ("4 3 2 1", "4-3-2-1", "918-273",
"1234 5678": an adversary found the last two stored as said), after "is" or "is now",
(also in Spanish, German and French) or right after "pin number"/"pin code": an adversary
found those stored as said, while "my PIN is 4321" was hidden. A bare "pin 1800" is a
verb more often than a PIN, and stays."""


_POSTAL_PIN_PLACE = lazy_compile(
    r"(?i)[ \t]*(?:for|of|in|at)[ \t]+(?:the[ \t]+|our[ \t]+|my[ \t]+)?(?:[\w'-]+[ \t]+){0,3}?"
    r"(?:office|address|area|branch|city|town|village|post[ \t]+office|district|warehouse|"
    r"shop|store|site)\b(?![ \t]+(?:door|gate|safe|alarm|locker|keypad|lock))"
    # Or the place it is: "PIN code 110001 is Delhi" (a third adversary).
    r"|[ \t]+is[ \t]+(?:in[ \t]+)?(?-i:[A-Z])[a-z]+(?:[ \t]+(?-i:[A-Z])[a-z]+)?[ \t]*(?:[.,;!]|$)"
)


def _a_postal_pin(text: str, found: re.Match[str]) -> bool:
    """Whether a "PIN code" is India's postal one: six digits, then the place it is of.

    "PIN code 560001 for the Bangalore office" (an adversary saw it redacted).
    """
    digits = found[1]
    if POSTAL_PIN_DIGITS.fullmatch(digits) is None:
        return False
    if postal_pin(text, found.start(), digits, found.group()):
        return True
    place = _POSTAL_PIN_PLACE.match(text, found.end())
    return "code" in found.group().lower() and place is not None


_INVISIBLE = lazy_compile("[\u200b\u2060\ufeff\u00ad\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Zero-width space, word joiner, byte-order mark, soft hyphen, and the marks that set a
text's direction ("my pin is \u20664821\u2069": an adversary); not the joiners that shape
scripts and emoji."""
_POSSESSIVE = lazy_compile(r"[A-Za-z]+['\u2019]s")
_SHORT_LABELS = frozenset({"pw", "pwd", "pword"})
"""Short labels that are also words or commands: they announce a value only right before it."""
_DESCRIBING = frozenset("characters chars letters digits symbols long short words".split())
"""A "password" of these words describes one: "My password is Seventeen characters long"."""
_DIGIT_GROUPS = lazy_compile(r"(?:[ \t-]\d+)*")
_NEXT_GROUP = lazy_compile(r"[ \t-]\d")
_ASSIGNED = lazy_compile(r"[^\s;&,\"'`)\]}<>]+")
_WORD = lazy_compile(r"\S+")
_PATH = lazy_compile(r"~?/[\w.@+-]*(?:/[\w.@+-]*)*/?")
TRAILING = ".,;:!?)]}>\"'`"
_MAX_WORDS = 8
_PLAIN_WORD = lazy_compile(r"[a-z]+")
_MAX_QUOTED = 400

_FUNCTION_WORDS = frozenset(
    "a an the too not very so now still just also being been at in on of for to that this "
    "i you he she we they me him us them "
    "what which where how when why your my our their his her its only never always usually "
    "often all any some no more less as and or but if then than like about set sent shown "
    "displayed stored saved hashed encrypted required needed case-sensitive expired invalid "
    "incorrect wrong reset changed missing empty blank here there below above same different "
    "unknown written printed managed handled kept used generated rotated included attached "
    "enabled disabled protected one from older newer due than "
    # The same in the languages whose password labels are read (an adversary saw "Mein
    # Passwort ist zu kurz" and "La contraseña es la misma" lose their words).
    "zu sehr nicht leider der die das ein eine kein keine noch immer le la les un une trop "
    "très pas plus el los las muy no igual mismo misma um uma o os muito het een te niet "
    "erg nog för inte en ett mycket ei liian for ikke meget "
    # Nigerian Pidgin: "the password na wahala, e no dey work" ("is trouble").
    "wahala don dey e".split()
)
"""A password "is" these only in sentences about passwords, never as the password itself."""
_ADJECTIVES = frozenset(
    "correct right weak strong long short secure insecure safe unsafe good bad great fine ok "
    "okay new old unique random important easy hard simple complex optional mandatory valid "
    "private public secret sensitive confidential visible hidden masked lost forgotten obvious "
    "known compromised leaked fake personal temporary mine yours ready required set "
    "abgelaufen falsch richtig sicher unsicher kurz lang geheim geändert vergessen neu alt "
    "court courte faux fausse correct correcte incorrect incorrecte sûr expiré oublié "
    "correcta incorrecta segura seguro fácil difícil caducada olvidada nueva "
    "curta longa errada fácil segura verlopen fout goed kort lang veilig vergeten "
    "veranderd gewijzigd aangepast mudada alterada trocada expirada cambiada cambiado "
    "modificada changé changée modifié modifiée".split()
)
"""A password that "is" one of these words alone is being described, not given."""
_NO_VALUE = frozenset({"n/a", "na", "tbd", "tba", "none", "nil", "unknown", "-", "--", "?"})
"""A password not given: "p/w: n/a", "password: TBD"."""
_COMPARED = frozenset(
    "stronger strongest weaker weakest better best worse worst longer longest shorter "
    "shortest safer safest easier easiest harder hardest simpler simplest".split()
)
"""A password that "is" one of these is compared, whatever follows: "which password is
stronger for the office account?" (an adversary saw "stronger …" redacted)."""
_CODE_WORDS = frozenset(
    "str bytes int bool none null nil true false undefined string secretstr optional any "
    "object text varchar char list dict uuid float number boolean password passwd pwd pw "
    "secret token key value self this env input getpass os ... *** xxx".split()
)
"""Unquoted values that are code (a type, a constant, a variable named like the label)."""
_REFERENCE = lazy_compile(
    r"\$\{|\$[A-Z_][A-Z0-9_]*$|%\(|%s$|\{\{|\{[A-Za-z_]\w*\}$|<[^<>]*>$"
    r"|(?:os|process|env|settings|config|self|this|secrets)\.|getenv"
)
"""A placeholder or a reference to where the secret really lives (`${DB_PASSWORD}`)."""
_DOTTED = lazy_compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_IDENTIFIER = lazy_compile(r"[A-Za-z_][A-Za-z_]*")
_CLAUSE_STOPS = frozenset(
    "and but or so because since though although while which whereas then please thanks "
    "thank".split()
)


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def looks_secret(value: str) -> bool:
    """Whether a bare value after a weak label (`token`, `key`) has the shape of a secret."""
    if len(value) < 6 or any(c.isspace() for c in value) or _POSSESSIVE.fullmatch(value):
        return False  # "The key is Ronaldo's speed" (an adversary)
    if value.isdigit():
        return True
    digit = any(c.isdigit() for c in value)
    alpha = any(c.isalpha() for c in value)
    if digit and alpha:
        return True
    classes = (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + digit
        + any(not c.isalnum() for c in value)
    )
    return classes >= 3 or (len(value) >= 20 and _entropy(value) >= 3.5)


def _is_code(value: str, following: str, assignment: bool) -> bool:
    """An unquoted value that is an expression, a type or a reference rather than a secret."""
    if value.lower() in _CODE_WORDS or set(value) <= set("*x.X"):
        return True
    if _REFERENCE.match(value) or "(" in value or "[" in value:
        return True
    if _DOTTED.fullmatch(value):
        return True
    # `connect(password=pw)`: a variable handed on, not a literal.
    return assignment and following[:1] in (",", ")") and _IDENTIFIER.fullmatch(value) is not None


def _quoted(text: str, start: int, strong: bool) -> tuple[int, int] | None:
    quote = text[start]
    close = text.find(quote, start + 1, start + 1 + _MAX_QUOTED)
    if close <= start + 1 or "\n" in text[start + 1 : close]:
        return None
    inner = text[start + 1 : close]
    if inner.startswith("[REDACTED") or _REFERENCE.match(inner):
        return None
    if not strong and not looks_secret(inner):
        return None
    return start + 1, close


def _word_end(text: str, start: int, end: int) -> tuple[int, bool]:
    """Where a word ends once trailing punctuation is cut, and whether any was cut."""
    trimmed = end
    while trimmed > start + 1 and text[trimmed - 1] in TRAILING:
        trimmed -= 1
    return trimmed, trimmed != end


def _phrase_end(text: str, end: int, clause_ended: bool, most: int = _MAX_WORDS) -> int:
    """Extend a passphrase word by word up to the end of its clause."""
    words = 1
    while not clause_ended and words < most:
        gap = end
        while gap < len(text) and text[gap] in " \t":
            gap += 1
        word = _WORD.match(text, gap) if gap > end else None
        if word is None or word.group(0)[0] in "([{<\"'`-":
            break
        bare = word.group(0).rstrip(TRAILING)
        # A conjunction ends the clause; a label or an assignment starts the next secret.
        # A number in groups is a value of its own: "… sunflower The show opens with 100
        # dancers 4111 1111 1111 1111" took the card number's first group (the property
        # test found it).
        in_groups = bare.isdigit() and _NEXT_GROUP.match(text, word.end()) is not None
        if (
            bare.lower() in _CLAUSE_STOPS
            or _ANY_LABEL.fullmatch(bare)
            or "=" in bare
            or ":" in bare
            or in_groups
        ):
            break
        end, clause_ended = _word_end(text, word.start(), word.end())
        words += 1
    return end


def _value_span(text: str, match: re.Match[str]) -> tuple[int, int] | None:
    """The characters a label match announces as secret, or None if it announces none."""
    start = match.end()
    if start >= len(text) or text[start] in "\r\n":
        return None
    label = match.group("label")
    sep = match.group("sep").lower()
    assignment = sep in ("=", ":=", "=>")
    strong = _STRONG_LABEL.fullmatch(label) is not None
    name = match.group("name")
    # `GITHUB_TOKEN=…` in a shell or .env file: whatever follows is the secret.
    shell = assignment and name.isupper() and not text[match.start("sep") - 1].isspace()
    if match.group("infix") and (not strong or label.lower() in _SHORT_LABELS):
        return None  # "Type pwd to see the current directory: /home/ana" (an adversary)
    if strong and (opening := _IT_IS_OPENING.match(text, start)) is not None:
        # "password: it's hunter2" took "it's" and showed the password (an adversary).
        start = opening.end()
        if start >= len(text):
            return None
    if text[start] in "\"'`":
        return _quoted(text, start, strong or shell)
    # An assignment in code or a link stops at "&" ("?token=x&user=y"); a password said
    # with spaces around its "=", or not in a link, is one word whole: "netflix password =
    # Tr0ub4dor&3", "netflix pw=Tr0ub4dor&5" kept "&3", "&5" (adversaries).
    spaced = text[match.start("sep") - 1].isspace()
    whole = strong and (spaced or not _in_a_link(text, match.start()))
    word = (_ASSIGNED if assignment and not whole else _WORD).match(text, start)
    if word is None:
        return None
    end, clause_ended = _word_end(text, start, word.end())
    value = text[start:end]
    if value.startswith("[REDACTED") or _is_code(value, text[end : end + 1], assignment):
        return None
    if label.lower() in _SHORT_LABELS and _PATH.fullmatch(value):
        return None  # "pwd: /home/ana/projects" is the shell's pwd (an adversary)
    # Spaced in prose, an "=" announces a passphrase as "is" does: "wifi pw = purple monkey
    # dishwasher" kept its last two words (an adversary).
    if shell or (strong and assignment and not (spaced and _PLAIN_WORD.fullmatch(value))):
        return start, end
    if not strong:
        return (start, end) if looks_secret(value) else None
    most = _WALLET_WORDS if _WALLET_LABEL.fullmatch(label) else _MAX_WORDS
    span = _strong_value(text, start, end, clause_ended, most)
    if span is not None and _label_said_again(text, span, name):
        return None
    return span


def _label_said_again(text: str, span: tuple[int, int], name: str) -> bool:
    """Whether the words of `span` are the label's own, said again before its value.

    "prod_db_password: Prod DB password is S3cr3t!" hid "Prod DB" and, said again, the key
    (a new user's saved reply read "[REDACTED:secret]: [REDACTED:secret] password is …").
    """
    restated = _RESTATED.match(text, span[1])
    if restated is None or not _ANY_LABEL.fullmatch(restated.group(1)):
        return False
    named = set(re.split(r"[\W_]+", name.casefold())) | {"the", "my", "our", "your"}
    return set(text[span[0] : span[1]].casefold().split()) <= named


_IT_IS_OPENING = lazy_compile(r"(?i)(?:it['\u2019]s|it[ \t]+is)[ \t]+(?:now[ \t]+)?")


def _in_a_link(text: str, at: int) -> bool:
    """Whether the label at `at` is a parameter of a link or a query ("?pw=x&user=y")."""
    before = text[max(0, at - 2048) : at]
    if not before or before[-1].isspace():
        return False
    return any(mark in before.rsplit(None, 1)[-1] for mark in "?&/#")


_WALLET_LABEL = lazy_compile(_WALLET, re.IGNORECASE)
_WALLET_WORDS = 24
"""A wallet's seed phrase is 12 or 24 words: all of them are the secret."""


_POINTING = frozenset("see ask check look keep find use read written stored saved".split())
"""A first word that points at where the secret is, in a phrase that goes on."""


def _strong_value(
    text: str, start: int, end: int, clause_ended: bool, most: int = _MAX_WORDS
) -> tuple[int, int] | None:
    """The span a password label's plain value (`text[start:end]`) takes, or None."""
    value = text[start:end]
    if value.lower() in _FUNCTION_WORDS or value.lower() in _COMPARED:
        return None
    if value.lower().rstrip(".") in _NO_VALUE:
        return None  # "p/w: n/a" (an adversary saw it redacted)
    if value.lower() in _POINTING and text[end:].strip(" \t.!") and not clause_ended:
        return None  # "Password: see the sticky note", "passcode: ask John" (an adversary)
    # A passphrase is words; a password with digits or symbols in it stands alone, but a
    # code in groups of digits is one code ("1234 5678": an adversary saw half kept).
    if value.isdigit() and len(value) < 3:
        return None  # "The passcode is 4 digits long"
    if value.isdigit() and not clause_ended:
        groups = _DIGIT_GROUPS.match(text, end)
        return start, groups.end() if groups else end
    phrase_end = _phrase_end(text, end, clause_ended, most) if value.isalpha() else end
    if phrase_end == end and value.lower() in _ADJECTIVES:
        return None

    if _DESCRIBING & {word.lower().strip(TRAILING) for word in text[start:phrase_end].split()}:
        return None
    return start, phrase_end


_RESTATED = lazy_compile(r"[ \t]+([\w-]+)(?:[ \t]*[:=]|[ \t]+(?:is|was)\b)", re.IGNORECASE)
"""A label said again with its own value after it: "… Prod DB password is S3cr3t!"."""


def _name_start(text: str, at: int) -> int:
    """Where the identifier holding a label keyword begins (`DB_` in `DB_PASSWORD`)."""
    start = at
    limit = max(0, at - _MAX_NAME)
    while start > limit and (text[start - 1].isalnum() or text[start - 1] in "_.-"):
        start -= 1
    return start


def _labelled_spans(text: str, lowered: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    resume = 0
    # Find the keywords first, then read the label around each one. A case-sensitive scan of
    # the lowered text is the fast one; lowering changes the length of a few scripts, and
    # then the positions must come from `text` itself.
    hits = _KEYWORD.finditer(lowered) if len(lowered) == len(text) else _ANY_CASE.finditer(text)
    for hit in hits:
        if hit.start() < resume:
            continue
        match = _LABEL.match(text, _name_start(text, hit.start()))
        if match is None or match.end("label") <= hit.start():
            continue
        span = _value_span(text, match)
        if span is None:
            resume = match.end("name")
            continue
        spans.append(span)
        resume = span[1]
    return spans


def _merged_by_kind(
    spans: list[tuple[str, tuple[int, int]]],
) -> list[tuple[str, tuple[int, int]]]:
    """`spans` in order, overlapping ones merged (under the first one's kind)."""
    merged: list[tuple[str, tuple[int, int]]] = []
    for kind, (start, end) in sorted(spans, key=lambda item: item[1]):
        if merged and start < merged[-1][1][1]:
            held, (first, last) = merged[-1]
            merged[-1] = (held, (first, max(last, end)))
        else:
            merged.append((kind, (start, end)))
    return merged


def redact(text: str) -> tuple[str, list[str]]:
    """Text with secrets replaced by `[REDACTED:kind]`, and the kinds that were found."""
    clean, kinds, _values = redacted_with_values(text)
    return clean, kinds


def redacted_with_secrets(text: str) -> tuple[str, list[str]]:
    """`redact`'s text, and the secrets it took out, as written (a passphrase of words too)."""
    clean, _kinds, values = redacted_with_values(text)
    return clean, [value for _, value in values]


def redacted_with_values(text: str) -> tuple[str, list[str], list[tuple[str, str]]]:
    """`redact`'s text and kinds, and the (kind, value) of each secret taken out."""
    if _INVISIBLE.search(text):
        # Invisible characters split a label from its value: "my Password\u200b is
        # zerowidth123" was kept as typed (an adversary). Without them, if that finds a
        # secret; a text with none is kept as it is, invisible characters and all.
        seen = _redacted(_INVISIBLE.sub("", text))
        if seen[1]:
            return seen
    clean, kinds, values = _redacted(text)
    if "\n" in clean:
        from agent.awaited_values import values_below_labels  # it probes with this module

        below = values_below_labels(clean)
        if below:
            clean, again = said_again_with_kinds(clean, below)
            values += below
            kinds += [kind for kind in again if kind not in kinds]
    return clean, kinds, values


def _redacted(text: str) -> tuple[str, list[str], list[tuple[str, str]]]:
    found: list[str] = []
    lowered = text.lower()
    # The format rules read another script's digits as 0-9, one for one: a card number in
    # Persian digits was kept as typed (an adversary). Made again only when text changes.
    digits, digits_lower = in_ascii_digits(text), in_ascii_digits(lowered)
    values: list[tuple[str, str]] = []
    """(kind, value) of each secret replaced: said again, it goes too (`_said_again`)."""

    def apply(kind: str, spans: list[tuple[int, int]]) -> None:
        nonlocal text, lowered, digits, digits_lower
        if spans:
            values.extend((kind, text[start:end]) for start, end in spans)
            text = replace_spans(text, spans, f"[REDACTED:{kind}]")
            lowered = text.lower()
            digits, digits_lower = in_ascii_digits(text), in_ascii_digits(lowered)
            if kind not in found:
                found.append(kind)

    gates = gates_in(lowered)
    for rule in FORMAT_RULES:
        if hinted(rule, lowered, gates):
            apply(rule.kind, find(rule, digits, digits_lower))
    # A card number before the wordings: "changed the alarm to 0700 5555-5555-5555-4444"
    # had "0700 5555" taken as the alarm's code, and the card's other groups kept (found by
    # the property test of any text around a secret).
    apply(CARD_RULE.kind, find(CARD_RULE, digits, digits_lower))
    # Labels are read in full-width letters too ("ｐａｓｓｗｏｒｄ"), one character for one.
    folded = as_read(width_folded(text))
    folded_lower = folded.lower()
    if any(hint in folded_lower for hint in _LABEL_HINTS):
        apply(
            "secret",
            [(s, with_its_bangs(text, s, e)) for s, e in _labelled_spans(folded, folded_lower)],
        )
        folded = as_read(width_folded(text))
    folded = with_pin_for_nip(folded)
    # All kinds in one pass: spans of one kind replaced first moved the others ("my
    # password there is X and the badge code is 7731" lost "de i", not 7731).
    # A span over what is already redacted would cut its marker in two ("my password
    # is\\hunter22" became "my password [REDACTED:secret]]": an adversary).
    worded_spans = [
        *wording_spans(folded),
        *loose_spans(folded),
        *paired_spans(folded),
        *secret_noun_spans(folded),
        *more_secret_spans(folded),
        *id_number_spans(folded),
        *one_time_code_spans(folded),
        *told_secret_spans(folded),
        *arabic_script_spans(folded),
        *bank_account_spans(folded),
    ]
    worded_spans += numbers_of_others(folded, worded_spans)
    worded_spans = [(kind, inside_its_brackets(folded, span)) for kind, span in worded_spans]
    worded = _merged_by_kind(
        [
            (kind, (span[0], with_its_bangs(folded, *span)) if kind == "secret" else span)
            for kind, span in worded_spans
            if "[REDACTED:" not in folded[slice(*span)]
            and not (kind in ("pin", "code", "secret") and postal_pin_at(folded, span))
            and not (kind in ("pin", "code") and a_cards_last_digits(folded, span[0]))
            and not (kind in ("pin", "code") and a_meetings_number_at(folded, span))
        ]
    )
    if worded:
        text = _replaced(text, worded, found, values)
        lowered = text.lower()
    if "pin" in lowered:
        apply("pin", [m.span(1) for m in _PIN.finditer(text) if not _a_postal_pin(text, m)])
    apply(IBAN_RULE.kind, find(IBAN_RULE, text, lowered))
    # The other codes beside a redacted one (`agent.codes_beside`).
    beside = [
        (kind, span)
        for kind, span in more_codes_beside(text)
        if not a_cards_last_digits(text, span[0])
        # "ATM pin: 2291, and the area PIN is 400050" (an adversary saw the postcode go).
        and not postal_pin_at(text, span)
        and not a_meetings_number_at(text, span)
    ]
    text = _replaced(text, beside, found, values)
    return _said_again(text, values), found, values


def _replaced(
    text: str,
    spans: list[tuple[str, tuple[int, int]]],
    found: list[str],
    values: list[tuple[str, str]],
) -> str:
    """`text` with each (kind, span) of `spans`, in order, replaced by its kind's marker.

    In one pass: spans of one kind replaced first would move the other kinds'. Their kinds
    and values join `found` and `values`.
    """
    pieces, at = [], 0
    for kind, (start, end) in spans:
        values.append((kind, text[start:end]))
        pieces += [text[at:start], f"[REDACTED:{kind}]"]
        at = end
        if kind not in found:
            found.append(kind)
    return "".join([*pieces, text[at:]])


_NAMES_A_CODE = lazy_compile(r"(?i)pin|code|pass|lock|combination|safe|alarm|door")
_SHORTEST_REPEATED = 4
"""A shorter value said again may be anything ("12")."""


def _may_be_said_in(bare: str, letters_and_digits: str, digit_words: bool) -> bool:
    """Whether a value of these letters and digits (`bare`) may be said in a text of these."""
    return bare in letters_and_digits or (digit_words and bare.isdecimal())


_A_DIGIT_WORD = lazy_compile(r"(?i)\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b")
"""A number said digit by digit in words ("four eight two one") holds no digit."""


def _said_again(text: str, values: list[tuple[str, str]]) -> str:
    """`text` with each secret value found said again elsewhere in it redacted too."""
    return said_again_with_kinds(text, values)[0]


def said_again_with_kinds(text: str, values: list[tuple[str, str]]) -> tuple[str, list[str]]:
    """`_said_again`, and the kinds of the values it found.

    Found by an adversary: "The door code is 4471. Again: 4471!" kept the second 4471;
    a later adversary: "918-273", "pin918273" and "ZebraQuartz7719" kept what was said
    as 918273 and Zebra-Quartz-7719 (`agent.secret_forms`). In any case. All values in
    one pass: one pass each made a paste of 4,000 codes take 4 s (a second adversary).
    """
    kinds: dict[str, str] = {}
    # Every form of a value holds its letters and digits in order, nothing but separators
    # between (`agent.secret_forms`): one not in the text's is not said again. A pasted
    # list of 6,000 passwords and PINs took 20 s to save, and each later message of its
    # chat seconds, every value's forms tried at every character (an adversary).
    letters_and_digits = skeleton(text)
    digit_words = _A_DIGIT_WORD.search(text) is not None
    # Each value once: a list of 20,000 PINs alike looked for the same one 20,000 times.
    for kind, value in dict.fromkeys((kind, value.strip(TRAILING + " ")) for kind, value in values):
        if len(value) < _SHORTEST_REPEATED or "[REDACTED:" in value:
            continue  # short, or a marker this redaction left
        bare = skeleton(value)
        if not _may_be_said_in(bare, letters_and_digits, digit_words):
            continue
        if a_year(bare) and not _NAMES_A_CODE.search(text):
            # A PIN that is a year, said again as a year: "I was born in 1990" lost its year
            # after "my pin is 1990" (a fourth adversary).
            continue
        kinds.setdefault(value, kind)
    again = forms_pattern(kinds)
    if again is None:
        return text, []
    by_skeleton = {skeleton(value): kind for value, kind in reversed(kinds.items())}
    found_kinds: list[str] = []

    def marker(value: str) -> str:
        kind = by_skeleton.get(skeleton(value), "secret")
        if kind not in found_kinds:
            found_kinds.append(kind)
        return f"[REDACTED:{kind}]"

    return replace_words(again, text, marker), found_kinds

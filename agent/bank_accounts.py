"""A bank account's number after its name, as a country's own banks write it.

Found by an adversary, each kept as typed where an IBAN was redacted: "my sort code is
20-32-06 and account number 73019264", a Nigerian NUBAN ("acct no 0123456789 GTBank",
"my GTB account na 0123456789"), "routing 021000021 account 483920175", "BSB 062-000 acc
1234 5678", "Konto 0532013000 BLZ 37040044". The number that says which bank (a sort
code, a routing number, a BSB, a BLZ) is printed on every cheque and stays; the account's
own digits go. "account balance 150000" or "my account was opened in 2019" hold none.
"""

from __future__ import annotations

import re

from agent.not_secret_codes import a_year
from memory.lazy_patterns import lazy_compile

BANK_ACCOUNT_KIND = "bank-account"

_NAMES = (
    r"account(?:[ \t]+(?:number|no\.?|num|nr\.?|#))?|acc(?:t|ount)?\.?(?:[ \t]*(?:no\.?|number|#))?"
    r"|a/c(?:[ \t]+no\.?)?|nuban|konto(?:nummer)?|konto-?nr\.?|kto\.?(?:-?nr\.?)?"
    r"|n[úu]mero[ \t]+de[ \t]+cuenta|cuenta|clabe(?:[ \t]+interbancaria)?"
    r"|n[úu]mero[ \t]+da[ \t]+conta|conta|rekening(?:nummer)?|numer[ \t]+konta|checking|chequing"
)
_WHOSE = (
    r"(?:[ \t]+(?:my|his|her|our|their|the|mi|su|mein|meine|bank|savings|current|checking"
    r"|chequing|business|salary|joint|personal|(?-i:[A-Z][A-Za-z]{1,12})(?:[ \t]+bank)?))"
)
_LINK = r"(?:[ \t]*[:=#-][ \t]*|[ \t]+(?:is|was|na|es|ist|lautet|é|est|to)[ \t]+|[ \t]+)"
_NUMBER = r"\d(?:[ \t-]?\d){5,17}"
_NO_SUM = (
    r"(?![ \t]*(?:naira|rupees?|dollars?|pounds?|euros?|pesos?|quid|bucks|ngn|inr|usd|gbp|eur|"
    r"mxn|rs\b|/-|[kK]\b|so[ \t]+far|in[ \t]+it|saved|left|balance|times|items|emails))"
)
"""A balance, no number: "Savings account: 150000 naira so far" (an adversary saw it redacted)."""
_ACCOUNT = lazy_compile(
    rf"(?i)(?<![\w/-])(?:{_NAMES})(?![\w/-]){_WHOSE}{{0,2}}?{_LINK}(?:(?:my|the)[ \t]+)?"
    rf"(?P<number>{_NUMBER})(?![\w,.-]?\d){_NO_SUM}"
)
_BANK_FIRST = lazy_compile(
    rf"(?i)\b(?:my|his|her|our|their)[ \t]+(?:(?P<whose>(?-i:[A-Z][A-Za-z&]{{1,12}}))[ \t]+)?"
    rf"(?:bank[ \t]+)?(?:account|acct|acc)(?![\w/-])"
    rf"(?:[ \t]+(?:at|with)[ \t]+(?P<at>(?-i:[A-Z][A-Za-z&]{{1,15}})))?"
    rf"{_LINK}(?P<number>{_NUMBER})(?![\w,.-]?\d){_NO_SUM}"
)
_HINTS = (
    "acc",
    "a/c",
    "nuban",
    "konto",
    "kto",
    "cuenta",
    "clabe",
    "conta",
    "rekening",
    "check",
    "cheq",
)
_SERVICES = (
    r"airtel|jio|vodafone|bescom|tneb|comcast|verizon|at&t|sky|bt|ee|o2|netflix|amazon|steam|"
    r"spotify|xfinity|paypal"
)
_A_SERVICE = lazy_compile(rf"(?i){_SERVICES}")
_A_SERVICES_ACCOUNT = lazy_compile(
    r"(?i)\b(?:consumer|customer|electricity|electric|gas|water|utility|phone|mobile|"
    rf"broadband|internet|loyalty|member(?:ship)?|billing|subscriber|{_SERVICES}|game|gaming)"
    r"[ \t]+(?:[\w-]+[ \t]+)?$"
)
"""A service's own account, no bank's: "electricity consumer account 0123456789", "Airtel
account 0123456789" (a second adversary saw each redacted, needed to pay the bill)."""
_WITH_A_SERVICE = lazy_compile(
    r"(?i)[ \t]+(?:with|at|for|from)[ \t]+(?:airtel|jio|vodafone|bescom|comcast|verizon|sky|bt|"
    r"ee|o2|the[ \t]+(?:electricity|gas|water|phone|internet)\b)"
)
_AUSTRALIAN_BANKS = r"commbank|commonwealth[ \t]+bank|cba|westpac|anz|nab"
_NAMED_BANK = (
    r"(?:gt[ \t]?bank|gtb|uba|fcmb|opay|kuda|moniepoint|palmpay|ecobank|stanbic(?:[ \t]+ibtc)?|"
    r"(?:access|first|zenith|union|wema|sterling|fidelity|polaris|keystone|unity)[ \t]+bank|"
    r"barclays|hsbc|lloyds|natwest|santander|halifax|monzo|starling|nationwide|revolut|chase|"
    r"wells[ \t]+fargo|citi(?:bank)?|bank[ \t]+of[ \t]+america|sbi|hdfc|icici|axis[ \t]+bank|"
    r"sparkasse|volksbank|commerzbank|bbva|banorte|banamex|pko(?:[ \t]+bp)?|mbank|"
    rf"{_AUSTRALIAN_BANKS}|vietcombank|techcombank|vietinbank|"
    r"bidv|agribank|millennium[ \t]+bcp|caixa[ \t]+geral|cgd|novo[ \t]+banco|activobank|nubank|"
    r"ita[uú]|bradesco)"
)
_A_BANKS_WORD = lazy_compile(
    r"(?i)\b(?:bank|banking|sort[ \t]+code|ifsc|routing|bsb|iban|swift|bic|credit[ \t]+union|"
    rf"building[ \t]+society|savings|current[ \t]+account|checking|blz|clabe|nuban|{_NAMED_BANK})\b"
)


_BESIDE_A_BANKS_NAME = lazy_compile(
    rf"(?i)(?<![\w-]){_NAMED_BANK}(?:[ \t]+(?:account|acct|acc|number|no\.?|nuban))?"
    r"(?:[ \t]*[:=-][ \t]*|[ \t]+(?:is|na)[ \t]+|[ \t]+)(\d{8,10}|\d{12})(?![\w,.-]?\d)"
    + _NO_SUM
    + "|"
    rf"(?<![\w+-])(\d{{8,10}}|\d{{12}})(?![\w,.-]?\d)[ \t]*\(?[ \t]*{_NAMED_BANK}(?![\w-])"
)
"""A number beside a bank's name: "GTBank 0123456789 Adaeze Okafor", "send money to
0123456789 Access Bank", "my UBA number is 2012345678" (an adversary: each kept). Not eleven
digits, a mobile's: "GTBank 08031234567 Adaeze" (a later adversary saw it redacted)."""
_A_PHONE_SAID = lazy_compile(
    r"(?i)\b(?:call|phone|ring|helpline|hotline|tel|whatsapp|customer[ \t]+care)\b"
)
_SORT_CODE_THEN_ACCOUNT = lazy_compile(
    r"(?<![\w-])(\d\d)-(\d\d)-(\d\d)[ \t]*[,/]?[ \t]*"
    r"(?i:(?:acc(?:ount|t)?|a/c)[ \t]*(?:no\.?|number|#)?[ \t]*:?[ \t]*)?(\d{8})(?![\w,.-]?\d)"
)
"""A UK sort code and the account after it, with no name: "Sort code 20-32-06, 73019264",
"pay rent to J Smith 20-32-06 73019264" (an adversary: each kept)."""
_PAYMENT_WORD = lazy_compile(
    r"(?i)\b(?:sort|bank|pay|paid|payment|details|transfer|send|rent|deposit|account|acc|a/c)"
)
_ROUTING_AND_ACCOUNT = lazy_compile(
    r"(?<![\w-])(\d{9})[ \t]*[,/]?[ \t]*(\d{6,17})(?![\w,.-]?\d)|"
    r"(?<![\w-])(\d{6,17})[ \t]*[,/]?[ \t]*(\d{9})(?![\w,.-]?\d)"
)
"""A US routing number beside the account: "wire it to 021000021 483920175 (Chase)"."""
_A_WIRES_WORD = lazy_compile(
    r"(?i)\b(?:wire|routing|aba|ach|direct[ \t]+deposit|bank|checking|savings|transfer|"
    rf"{_NAMED_BANK})\b"
)
_BSB_THEN_ACCOUNT = lazy_compile(
    r"(?<![\w-])(\d{3})-?(\d{3})[ \t]*[,/]?[ \t]*"
    r"(?i:(?:acc(?:ount|t)?|a/c)[ \t]*(?:no\.?|number|#)?[ \t]*:?[ \t]*)?(\d{6,10})(?![\w,.-]?\d)"
)
"""An Australian BSB and the account after it: "Commonwealth Bank BSB 062-000 12345678", "CBA
062000 12345678" (an adversary: each account kept)."""
_A_BSB_WORD = lazy_compile(
    rf"(?i)\b(?:bsb|{_AUSTRALIAN_BANKS}|bendigo|"
    r"suncorp|macquarie)\b"
)
_A_CLAUSE_BREAK = lazy_compile(r"(?i)\b(?:and|but)[ \t]+(?:i|we|he|she|they)\b|[.;!?](?:\s|$)")


def _a_routing_number(digits: str) -> bool:
    """The ABA checksum every US routing number passes."""
    d = [int(c) for c in digits]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0


def _a_date(day: str, month: str) -> bool:
    return 1 <= int(day) <= 31 and 1 <= int(month) <= 12


def _banks_word_near(text: str, start: int, end: int) -> bool:
    """Whether a bank's own word is said beside the number, in the same clause.

    "my Jio account number is 9876543210 and I bank with SBI" (an adversary: the bill's
    number was redacted for "bank" in the next clause).
    """
    before = text[max(0, start - 40) : start]
    breaks = list(_A_CLAUSE_BREAK.finditer(before))
    if breaks:
        before = before[breaks[-1].end() :]
    after = text[end : end + 40]
    cut = _A_CLAUSE_BREAK.search(after)
    if cut is not None:
        after = after[: cut.start()]
    return _A_BANKS_WORD.search(before + text[start:end] + after) is not None


def _a_services(found: re.Match[str]) -> bool:
    text = found.string
    named = [found.group(name) for name in ("whose", "at") if name in found.re.groupindex]
    return any(name and _A_SERVICE.fullmatch(name) for name in named) or bool(
        _A_SERVICES_ACCOUNT.search(text, max(0, found.start() - 30), found.start())
        or _WITH_A_SERVICE.match(text, found.end("number"))
    )


def _unnamed_spans(text: str) -> set[tuple[int, int]]:
    """Accounts said with no account's word: beside a sort code, a routing number, a bank."""
    spans: set[tuple[int, int]] = set()
    for found in _SORT_CODE_THEN_ACCOUNT.finditer(text):
        if not _a_date(found[1], found[2]) or _PAYMENT_WORD.search(text):
            spans.add(found.span(4))
    routing_numbers: set[tuple[int, int]] = set()
    if _A_WIRES_WORD.search(text):
        for found in _ROUTING_AND_ACCOUNT.finditer(text):
            # The routing number first (groups 1, 2), or the account first (3, 4).
            routing, account = (1, 2) if found[1] is not None else (4, 3)
            if _a_routing_number(found[routing]):
                spans.add(found.span(account))
                routing_numbers.add(found.span(routing))
    if _A_BSB_WORD.search(text) and not _A_PHONE_SAID.search(text):
        for found in _BSB_THEN_ACCOUNT.finditer(text):
            spans.add(found.span(3))
            routing_numbers.add((found.start(1), found.end(2)))
    if not _A_PHONE_SAID.search(text):
        for found in _BESIDE_A_BANKS_NAME.finditer(text):
            span = found.span(1) if found[1] is not None else found.span(2)
            if span not in routing_numbers:
                # "Chase 021000021 123456789012": the routing number beside the bank's name
                # went, the account after it stayed (an adversary).
                spans.add(span)
    return spans


def bank_account_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each bank account number `text` gives after its name."""
    lowered = text.lower()
    spans = _unnamed_spans(text) if any(c.isdigit() for c in text) else set()
    if any(hint in lowered for hint in _HINTS):
        spans |= {
            found.span("number")
            for rule in (_ACCOUNT, _BANK_FIRST)
            for found in rule.finditer(text)
            if not a_year(found["number"])
            # A bank's own word beside it overrides a service's: "my mobile banking account
            # number is 12345678, sort code 20-00-00", "salary account … with Airtel
            # Payments Bank" (a later adversary saw each kept as typed).
            and (_banks_word_near(text, *found.span()) or not _a_services(found))
        }
    return [(BANK_ACCOUNT_KIND, span) for span in sorted(spans)]

"""A bank account's number after its name, as a country's own banks write it.

Found by an adversary, each kept as typed where an IBAN was redacted: "my sort code is
20-32-06 and account number 73019264", a Nigerian NUBAN ("acct no 0123456789 GTBank",
"my GTB account na 0123456789"), "routing 021000021 account 483920175", "BSB 062-000 acc
1234 5678", "Konto 0532013000 BLZ 37040044". The number that says which bank (a sort
code, a routing number, a BSB, a BLZ) is printed on every cheque and stays; the account's
own digits go. "account balance 150000" or "my account was opened in 2019" hold none.
"""

from __future__ import annotations

from agent.not_secret_codes import a_year
from memory.lazy_patterns import lazy_compile

BANK_ACCOUNT_KIND = "bank-account"

_NAMES = (
    r"account(?:[ \t]+(?:number|no\.?|num|nr\.?|#))?|acc(?:t|ount)?\.?(?:[ \t]*(?:no\.?|number|#))?"
    r"|a/c(?:[ \t]+no\.?)?|nuban|konto(?:nummer)?|kontonr\.?|kto\.?|n[úu]mero[ \t]+de[ \t]+cuenta"
    r"|cuenta|clabe|n[úu]mero[ \t]+da[ \t]+conta|conta|rekening(?:nummer)?|numer[ \t]+konta"
)
_WHOSE = (
    r"(?:[ \t]+(?:my|his|her|our|their|the|mi|su|mein|meine|bank|savings|current|checking"
    r"|chequing|business|salary|joint|personal|(?-i:[A-Z][A-Za-z]{1,12})(?:[ \t]+bank)?))"
)
_LINK = r"(?:[ \t]*[:=#-][ \t]*|[ \t]+(?:is|was|na|es|ist|lautet|é|est|to)[ \t]+|[ \t]+)"
_NUMBER = r"\d(?:[ \t-]?\d){5,17}"
_ACCOUNT = lazy_compile(
    rf"(?i)(?<![\w/-])(?:{_NAMES})(?![\w/-]){_WHOSE}{{0,2}}?{_LINK}(?:(?:my|the)[ \t]+)?"
    rf"({_NUMBER})(?![\w,.-]?\d)"
)
_BANK_FIRST = lazy_compile(
    rf"(?i)\b(?:my|his|her|our|their)[ \t]+(?:(?-i:[A-Z][A-Za-z]{{1,12}})[ \t]+)?(?:bank[ \t]+)?"
    rf"(?:account|acct|acc)(?![\w/-]){_LINK}({_NUMBER})(?![\w,.-]?\d)"
)
_HINTS = ("acc", "a/c", "nuban", "konto", "kto", "cuenta", "clabe", "conta", "rekening")
_A_SERVICES_ACCOUNT = lazy_compile(
    r"(?i)\b(?:consumer|customer|electricity|electric|gas|water|utility|phone|mobile|"
    r"broadband|internet|loyalty|member(?:ship)?|billing|subscriber|airtel|jio|vodafone|"
    r"bescom|tneb|comcast|verizon|at&t|sky|bt|ee|o2|netflix|amazon|steam|game|gaming)"
    r"[ \t]+(?:[\w-]+[ \t]+)?$"
)
"""A service's own account, no bank's: "electricity consumer account 0123456789", "Airtel
account 0123456789" (a second adversary saw each redacted, needed to pay the bill)."""
_WITH_A_SERVICE = lazy_compile(
    r"(?i)[ \t]+(?:with|at|for|from)[ \t]+(?:airtel|jio|vodafone|bescom|comcast|verizon|sky|bt|"
    r"ee|o2|the[ \t]+(?:electricity|gas|water|phone|internet)\b)"
)
_A_BANKS_WORD = lazy_compile(
    r"(?i)\b(?:bank|banking|sort[ \t]+code|ifsc|routing|bsb|iban|swift|bic|credit[ \t]+union|"
    r"building[ \t]+society|savings|current[ \t]+account|checking|blz|clabe|nuban)\b"
)


def bank_account_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each bank account number `text` gives after its name."""
    lowered = text.lower()
    if not any(hint in lowered for hint in _HINTS):
        return []
    # A bank's own word beside it overrides a service's: "my mobile banking account number
    # is 12345678, sort code 20-00-00", "salary account … with Airtel Payments Bank" (a later
    # adversary saw each kept as typed).
    banking = _A_BANKS_WORD.search(text) is not None
    spans = {
        found.span(1)
        for rule in (_ACCOUNT, _BANK_FIRST)
        for found in rule.finditer(text)
        if not a_year(found[1])
        and (
            banking
            or not (
                _A_SERVICES_ACCOUNT.search(text, max(0, found.start() - 30), found.start())
                or _WITH_A_SERVICE.match(text, found.end(1))
            )
        )
    }
    return [(BANK_ACCOUNT_KIND, span) for span in sorted(spans)]

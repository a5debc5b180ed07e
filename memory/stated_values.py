"""The one-valued things a text states, clause by clause, to tell when a later fact changed one.

A saved message often says several things at once ("Hi! My name is Sam and I live in
Porto. I work at Acme."), so a fact that changes one of them cannot replace it: the rest
would go. Found by a new user: after "I live in Lisbon" was stored, such a message was
recalled beside it for every personal question, and a small model may take it as current.
`changed_topics` says which of the message's values a later fact gives otherwise, so
recall can say so where the model reads it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from memory.claims_elsewhere import said_in_english
from memory.fact_subjects import change_terms, names_in
from memory.fact_values import (
    attribute_terms,
    home_moved_to,
    one_subject,
    people_attribute_terms,
    user_value,
)
from memory.health_values import dose_of_the_one_medicine, health_values
from memory.lazy_patterns import lazy_compile
from memory.own_words import one_more_value, said_in_earnest
from memory.plain_order import as_it_is_now
from memory.predicates import ANOTHER_MOVED, LEAD_IN, USER, claim_of, clause_breaks
from memory.stated_prices import price_stated, same_priced_thing
from memory.text import analyze, fold

_SENTENCE_END = lazy_compile(
    r"(?<=[.!?…])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bSt\.)(?<!\bMrs\.)(?<!\bProf\.)\s+|\n+"
)
"""A sentence ends at its mark, not at a title's ("My doctor is Dr. Lee")."""
_LONGEST_PIECE = 400
"""Longer pieces are pasted text, not statements about oneself (and bound the work)."""
_MOST_PIECES = 20
_THE_USERS = lazy_compile(r"(?i)\b(?:my|i|i'm|i've|our|the\s+user(?:'s)?)\b|^\s*(?:the\s+)?new\s")
"""The user's own, or said as the user's: "New doctor is Dr Costa" (a new user)."""
_THE_ONE = lazy_compile(r"(?i)^\W*the\s")
""""the plumber is Tommy Hayes …": someone the user has by trade is the user's (a new user, a
retired nurse: the message was not marked when "our plumber is now Declan Ryan" replaced
the fact)."""
_ASKING_TO_KEEP = lazy_compile(
    r"(?i)^(?:(?:please|pls|can\s+you|could\s+you)\s+)?(?:remember|note|save|store|"
    r"keep\s+in\s+mind)(?:\s+that)?[\s,:]+"
)
""""Please remember my phone number is …" states the phone number."""


_COMMA_THEN_I = lazy_compile(
    r",\s+(?=(?-i:I)\b|(?i:i'm|i've|we|we're)\b|(?i:my)\s+(?:[\w'\u2019-]+\s+){1,3}(?:is|are)\b)"
)
"""A comma before the user's next statement: "My name is Sam, I live in Porto" (a new user
saw the home read as part of the name); "changed GPs, my new GP is Dr Chen" (a new user:
the doctor was not updated)."""


def pieces(text: str) -> list[str]:
    """The text's sentences, each cut at its clause breaks ("… and I live in Porto")."""
    return list(_pieces(text))


@lru_cache(maxsize=2048)
def _pieces(text: str) -> tuple[str, ...]:
    # Read once per text: a recalled memory is compared with others each turn.
    pieces: list[str] = []
    sentences = [
        part for sentence in _SENTENCE_END.split(text) for part in _COMMA_THEN_I.split(sentence)
    ]
    for sentence in sentences[:_MOST_PIECES]:
        if not sentence.strip() or len(sentence) > _LONGEST_PIECE:
            continue
        edges = [0, *(b for found in clause_breaks(sentence) for b in found.span()), len(sentence)]
        pieces += [sentence[edges[i] : edges[i + 1]] for i in range(0, len(edges), 2)]
    return tuple(_ASKING_TO_KEEP.sub("", piece.strip()) for piece in pieces if piece.strip())


def claim_pieces(message: str) -> Iterator[str]:
    """The message's pieces, and two pieces as one where only together they claim.

    "We moved house, we're in Coimbra now", "Quit my job at Acme! Starting at Initech on
    Monday" (a new user): cut in two, neither piece says where the user is now.
    """
    previous: str | None = None  # the piece before, when it claims nothing
    for piece in pieces(message):
        yield piece
        if claim_of(piece) is not None:
            previous = None
            continue
        if previous is not None:
            joint = " " if previous.rstrip()[-1:] in "!.?;:—–-" else ", "
            together = previous.rstrip() + joint + piece
            if claim_of(together) is not None:
                yield together
                previous = None
                continue
        previous = piece


_IN_A_SENTENCE = r"(?:[^.;!?]|(?<=\d)\.(?=\d))"
_PAYS = lazy_compile(
    r"^(?:[^:\n]{0,40}:\s*)?(?:(?:[a-z]+\s+){1,3}(?=[A-Z]))?"
    r"(?P<who>[A-Z][\w&.'\u2019 -]{0,60}?)\s+(?:now\s+|still\s+)?"
    rf"(?:pays?|charges?|bills?)\s+(?P<value>{_IN_A_SENTENCE}*\d{_IN_A_SENTENCE}*)$"
)
"""What someone named pays or charges: "Müller GmbH pays 0,12 € per word" (a new user saw
the old rate's message recalled at 1.00 beside the new rate, nothing said), "direct client
Bodegas Alcañiz pays 0.11 eur per word" (a translator: the decimal point ended the value,
and the words before the name hid it)."""


_QUOTED = lazy_compile(
    r"(?i)\b(?:quoted|quote\s+(?:for|to))\s+(?:(?:mrs|mr|ms|miss|dr)\.?\s+)?"
    r"(?!(?:the|a|an|my|our|him|her|them|it|you|me)\b)(?P<who>[a-z][\w'-]*)\b"
    r"[^.;!?\d]{0,60}?(?P<amount>\d[\d,.]*k?)\b"
)
""""quoted mrs patel 2450 + vat", "revised quote for mrs patel combi swap, now 2300 + vat"
(a new user, a plumber: the revised quote left the first recalled above it, unmarked)."""


_QUOTE_MARKS = lazy_compile(r"[\"“”„«»]")


def _quote(piece: str) -> tuple[str, frozenset[str]] | None:
    found = _QUOTED.search(piece)
    if found is None:
        return None
    return "quote for " + found["who"].casefold(), frozenset({found["amount"].replace(",", "")})


def _rate(piece: str) -> tuple[str, frozenset[str]] | None:
    found = _PAYS.match(piece.strip())
    if found is None:
        return None
    who = frozenset(analyze(found["who"])) - change_terms()
    if not who:
        return None
    return "pays " + " ".join(sorted(who)), frozenset(analyze(found["value"])) - change_terms()


_NOT_SOMEONE = r"(?!(?:you|him|her|them|it|me|us|the|a|an|my|our|back|off|up)\b)"
_MY_KIN = (
    r"(?:(?:my|our)\s+(?=(?:partner|wife|husband|mother|mom|mum|father|dad|brother|sister|son|"
    r"daughter|aunt|uncle|cousin|niece|nephew|grandma|grandpa|flatmate|roommate|boss)\b))?"
)
"""'my brother' is someone owed as 'Priya' is (an adversary: "I owe my sister 50" replaced
"I owe my brother 100")."""
_I_OWE = lazy_compile(
    r"(?i)^(?:i\s+(?:still\s+)?)?owe\s+"
    + _MY_KIN
    + _NOT_SOMEONE
    + r"(?P<who>[a-z][\w'-]*)\s+(?P<value>.*\d.*)$"
)
_TITLES = r"(?:mr|mrs|ms|miss|dr|prof)"
"""The titles a name may follow ("Mr O'Donovan owes me 640", "Mr Walsh paid 640")."""
_CAPITALISED = r"(?-i:[A-Z])[\w'&-]*"
_BUSINESS = (
    rf"(?:the[ \t]+)?(?=(?-i:[A-Z]))[\w'-]+(?:[ \t]+{_CAPITALISED}){{0,3}}"
    rf"|{_CAPITALISED}[ \t]+(?:at|from)[ \t]+{_CAPITALISED}(?:[ \t]+{_CAPITALISED}){{0,2}}"
)
"""A business or someone at one, by name: "The Corrib Café", "The Galway Bay Hotel", "Seán
at Bia Deli" (a new user, a baker: read as no debt, so a second invoice of theirs replaced
the first and their payment marked nothing)."""
_OWES_ME = lazy_compile(
    # By title and with who they are: "Mr O'Donovan (direct client, Cork) still owes me 640"
    # (a new user, a translator: no debt, so its payment marked nothing).
    rf"(?i)^(?:{_TITLES}\.?\s+)?"
    # A first name and a surname too: "Siobhan O'Donovan owes me 120" (a third adversary).
    r"(?P<who>" + _BUSINESS + r"|[a-z][\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)(?:\s+\([^()]{0,60}\))?"
    r"\s+(?:still\s+)?owes\s+"
    r"(?:(?:me|us)\s+(?P<value>.*\d.*)|(?P<amount>(?:[$\u20ac\u00a3]\s*)?\d.*))$"
)
"""Someone who owes the user: "Priya owes me 42", or a client owing the amount alone:
"Okafor owes 1058 for the March invoice" (a new user, a photographer: read as no debt, and
"okafor paid 1058" said later left it unmarked). Not "Tom owes Sarah 50"."""
_I_LENT = lazy_compile(
    r"(?i)^(?:i\s+(?:just\s+)?)?(?:lent|loaned)\s+"
    + _MY_KIN
    + _NOT_SOMEONE
    + r"(?P<who>[a-z][\w'-]*)\s+(?P<value>(?:[$\u20ac\u00a3]\s*)?\d.*)(?P<amount>)$"
)
"""'I lent Ciarán 2000 euro for the car': Ciarán owes the user (a new user, a retired nurse:
his payments back marked nothing)."""
_MONEY = (
    r"(?=.*(?:[$\u20ac\u00a3]|\d+(?:[.,]\d+)?\s*(?:euros?|dollars?|pounds?|quid|bucks|eur|usd)\b"
    r"|\bback\b|\bmoney\b|\bcash\b|\bwhat\s+i\s+owed\b))"
)
_I_PAID = lazy_compile(
    # "Just paid Priya back", no "I" (an adversary: the debt was still given as owed).
    r"(?i)^(?:i\s+)?(?:just\s+|finally\s+|already\s+)?(?:(?:paid|repaid|paid\s+back|settled\s+up\s+with)\s+"
    + _MY_KIN
    + _NOT_SOMEONE
    + r"(?P<who>[a-z][\w'-]*)\b(?!\s+(?:a\s+visit|a\s+compliment|attention|tribute))"
    r"|(?:sent|transferred|gave)\s+"
    + _MY_KIN
    + _NOT_SOMEONE
    + r"(?P<to>[a-z][\w'-]*)\b"
    + _MONEY
    + r")"
)
"""'paid Priya', 'sent Priya $42' (sent with money only: "I sent Priya the photos" paid
nothing, an adversary), 'paid my sister back' (a fifth adversary: the debt stayed owed)."""
_PAID_ME = lazy_compile(
    r"(?i)^(?P<who>" + _BUSINESS + r"|[a-z][\w'-]*)\s+(?:just\s+|finally\s+)?(?:paid|repaid|sent)"
    r"\s+me\b"
    r"|^(?P<whom>[a-z][\w'-]*)\s+paid\s+(?:me\s+)?back\b"
)
_SOMEONE_NAMED = (
    r"(?P<who>(?!(?:i|we|you|he|she|they|it|who|everyone|nobody)\b)(?:"
    + _BUSINESS
    + r"|[A-Za-z][\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?))"
)
_NOT_PAID = lazy_compile(
    r"(?i)^" + _SOMEONE_NAMED + r"\s+(?:still\s+)?(?:hasn['\u2019]?t|has\s+not|didn['\u2019]?t|"
    r"did\s+not|never)\s+(?:yet\s+)?(?:paid|pay)\b(?!\s+(?:me\s+)?back\b)"
)
"""Someone who owes the user, or a club the user keeps the books of, a fee: "Siobhan
hasn't paid yet" (a new user, an allotment's secretary: "Siobhan paid at the mtg last
night, €40" said later, the first was recalled as if she still owed)."""
_PAYEE = (
    r"(?!(?:Invoice|Inv|Bill|The|In|On|For|By|Via|Cash|Today|Yesterday|Monday|Tuesday|"
    r"Wednesday|Thursday|Friday|Saturday|Sunday)\b)(?-i:[A-Z])[\w'\u2019-]*"
)
"""Whom a payment went to, by name: "Silva paid Costa 640" paid no debt of the user's."""
_THEY_PAID = lazy_compile(
    r"(?i)^" + _SOMEONE_NAMED + r"\s+(?:has\s+|just\s+|finally\s+|already\s+)*(?:paid|settled)"
    r"(?:\s+up)?\b(?!\s+(?:me\b|a\s+visit|a\s+compliment|attention|tribute|no\b))"
    r"(?!\s+" + _PAYEE + r")"
    # Paid to another: "Costa paid 200 to Silva", "… to his landlord" (an adversary).
    r"(?!\s+\S+(?:\s+\S+)?\s+to\s+(?:his|her|their|the|a|an|(?-i:[A-Z]))\w*)"
)
_PAID_TO = lazy_compile(r"\b(?i:paid|sent|transferred)\s+(?:back\s+)?(?P<payee>" + _PAYEE + r")")
_INVOICE = r"(?:invoice|inv|bill)\s*(?:no\.?\s*|nr\.?\s*|number\s+|for\s+)?#?-?(?P<number>\d[\w-]*)"
"""An invoice by its number: "invoice 1058", "Okafor invoice for 1058 is unpaid" (an
adversary: "okafor paid 1058" said later left it unmarked)."""
_INVOICE_UNPAID = (
    lazy_compile(
        rf"(?i)\b{_INVOICE}\b[^.;!?]{{0,40}}?\b(?:not|n['\u2019]t|un)\s*(?:been\s+|yet\s+)?paid\b"
    ),
    lazy_compile(rf"(?i)\b{_INVOICE}\b[^.;!?]{{0,20}}?\b(?:outstanding|overdue|unpaid)\b"),
)
""""invoice 1058 £1,850 not paid yet" (a new user, a plumber: "okafor paid 1058 in full
today", said later, left it recalled as owed)."""
_INVOICE_PAID = (
    lazy_compile(
        r"(?i)\bpaid\s+(?:(?:the|his|her|their)\s+)?(?:invoice\s*#?-?|inv\s*#?-?|bill\s*#?-?)?"
        r"(?P<number>\d[\w-]*)\b(?!\s*(?:[€$£%]|euros?|pounds?|dollars?|quid|k\b))"
    ),
    lazy_compile(
        rf"(?i)\b{_INVOICE}\b[^.;!?]{{0,20}}?\b(?:(?:was|is|got|been|has\s+been)\s+)?paid\b"
        r"(?!\s+(?:yet|at\s+all))"
    ),
)
_NEGATED = lazy_compile(r"(?i)\bnot\b|n['\u2019]t\b|\bnever\b|\bnothing\b")
_NOT_SURELY_PAID = lazy_compile(
    r"(?i)\b(?:never|nothing|not|n['\u2019]t|no\s+money|(?:says?|said|claims?|claimed|told\s+me)\s+"
    r"(?:that\s+)?(?:he|she|they|it|\w+)\s+(?:had\s+|has\s+|have\s+)?(?:paid|sent)|claims?\s+to\s+"
    r"have\s+paid|supposedly|bounced|but\s+(?:nothing|no\s+money|it\s+(?:has\s+)?not))\b"
)
"""A payment denied or only claimed: "Silva never paid invoice 2026-031", "Silva paid nothing
of the 640", "Silva said he paid invoice 2026-031 but nothing arrived" (an adversary saw
each mark the debt paid)."""


def _invoice_paid_or_not(said: str) -> tuple[str, frozenset[str]] | None:
    """("invoice 1058", unpaid or paid) of a text saying which an invoice is."""
    for rule in _INVOICE_UNPAID:
        if (found := rule.search(said)) is not None:
            return "invoice " + found["number"].casefold(), _UNPAID
    if _NEGATED.search(said):
        return None
    for rule in _INVOICE_PAID:
        if (found := rule.search(said)) is not None:
            return "invoice " + found["number"].casefold(), _PAID
    return None


_UNPAID = frozenset({"unpaid"})
_PAID = frozenset({"paid"})
"""A debt's value once it is paid: not the amount, so the amount said again is a change."""


def _debt_of_a_piece(text: str) -> tuple[str, frozenset[str]] | None:
    """`_debt` of the whole text, or of its first piece stating one.

    "Okafor owes 1058 for the March invoice, due 31/3, send a reminder" was no debt whole,
    and "okafor paid 1058" marked it not (a second adversary).
    """
    whole = _debt(text.strip())
    if whole is not None:
        return whole
    return next((found for piece in claim_pieces(text) if (found := _debt(piece))), None)


def _paid_by(piece: str) -> tuple[str, frozenset[str]] | None:
    """("owed by okafor", paid) of someone said to have paid: "okafor paid 1058"."""
    found = _THEY_PAID.match(LEAD_IN.sub("", _one_mark(piece).strip(), count=1))
    return None if found is None else ("owed by " + _debtor(found["who"]), _PAID)


def _debt(piece: str) -> tuple[str, frozenset[str]] | None:
    """A debt the user has or is owed, or that it was paid: "owe Priya $42 for power".

    Found by a new user: "paid Priya the $42 for power" said later, the earlier "owe Priya
    $42 for power" was recalled for "do I owe anyone money?" as if still owed.
    """
    said = _one_mark(piece).strip().rstrip(".!")
    if said.endswith("?"):
        return None  # "sent Priya $42?" asks (a third adversary)
    for pattern, topic in ((_I_OWE, "owes "), (_OWES_ME, "owed by "), (_I_LENT, "owed by ")):
        found = pattern.match(said)
        if found is not None:
            value = found["value"] or found["amount"]
            return topic + _debtor(found["who"]), frozenset(analyze(value))
    found = _I_PAID.match(said)
    if found is not None:
        return "owes " + (found["who"] or found["to"]).casefold(), _PAID
    found = _PAID_ME.match(said)
    if found is not None:
        return "owed by " + _debtor(found["who"] or found["whom"]), _PAID
    invoice = _invoice_paid_or_not(said)
    if invoice is not None:
        return invoice
    found = _NOT_PAID.match(said)
    if found is not None:
        return "owed by " + _debtor(found["who"]), _UNPAID
    found = _THEY_PAID.match(said)
    if found is not None:
        return "owed by " + _debtor(found["who"]), _PAID
    return None


_TITLE = lazy_compile(rf"(?i)^(?:{_TITLES}\.?|the)\s+")


def _debtor(who: str) -> str:
    """Whom a debt is of, one way however said: "Mr Walsh" is "walsh".

    "The Corrib Café" is "corrib cafe".
    An adversary saw "Mr Walsh paid 640" leave "Mr Walsh owes me 640 …" unpaid; a new user,
    a baker, "Corrib Cafe owes me …" replace what "The Corrib Café" owed.
    """
    return " ".join(fold(_TITLE.sub("", who)).split())


_TITLED = lazy_compile(r"(?i)^\W*(?:(?:good|great)\s+news\W+)?(mr|mrs|ms|miss)\b")


def _other_titles(new: str, old: str) -> bool:
    """Whether both open with a title of another person: "Mrs Walsh", "Mr Walsh"."""
    ours, theirs = _TITLED.match(new), _TITLED.match(old)
    if ours is None or theirs is None:
        return False
    women = {"mrs", "ms", "miss"}
    return (ours[1].casefold() in women) != (theirs[1].casefold() in women)


def _one_mark(text: str) -> str:
    """The apostrophe typed one way: "O’Donovan" is "O'Donovan" (an adversary)."""
    return text.replace("\u2019", "'")


_AMOUNT = lazy_compile(r"\d+(?:[.,]\d+)?")
_FOR_WHAT = lazy_compile(r"(?i)\b(?:for|from)\s+(?P<what>[^.,;!?]+)")


def two_debts(new: str, old: str) -> bool:
    """Whether both are debts with one person, each for something else, or one more.

    Found by an adversary: "I owe Priya $15 for lunch" replaced "I owe Priya $42 for
    concert tickets"; "I owe Priya $50 now" still changes the one debt. "Kim owes me
    another 40", "I owe Ann 25 more", "… 30 for lunch too" were merged into the first debt
    (a later adversary), and a payment of one then cleared both.
    """
    ours, theirs = _debt(new), _debt(old)
    if (
        ours is not None
        and theirs is not None
        and ours[0] == theirs[0]
        and _PAID not in (ours[1], theirs[1])
        and _ONE_MORE_DEBT.search(new)
    ):
        return True
    if _other_invoices(new, ours, old, theirs):
        return True
    if ours is not None and theirs is not None and ours[0] != theirs[0]:
        # "Priya paid 50" is read as invoice 50 paid, or what Priya owes: her payments of
        # 50 and of 70 are two (a third adversary saw one replace the other).
        ours, theirs = _paid_by(new) or ours, _paid_by(old) or theirs
    if ours is None or theirs is None or ours[0] != theirs[0]:
        return False
    if ours[1] == _PAID and theirs[1] == _PAID:
        # Two payments of other amounts are two ("paid Priya $20 towards it" replaced
        # "paid Priya the $15": an adversary).
        # Only when both give an amount: "Ciarán paid January rent late, actually on 12 Jan"
        # corrects "Ciarán paid January rent in full", now read as a payment too.
        ours_paid, theirs_paid = set(_AMOUNT.findall(new)), set(_AMOUNT.findall(old))
        return bool(ours_paid and theirs_paid) and ours_paid != theirs_paid
    if ours[1] == _PAID:
        # A payment of another debt of theirs, under this one's key: "Corrib Cafe paid me the
        # 60 euro" under the key of "… owes me 95 euro for invoice 1203" (a new user, a baker,
        # saw it pay the 95): kept apart, it pays the debt of its amount.
        return pays_which(new) and not pays_off(new, old)
    if theirs[1] == _PAID:
        return False
    ours_for, theirs_for = _FOR_WHAT.search(new), _FOR_WHAT.search(old)
    if ours_for is None or theirs_for is None:
        return False
    return not set(analyze(ours_for["what"])) & set(analyze(theirs_for["what"]))


_ONE_MORE_DEBT = lazy_compile(
    r"(?i)\b(?:another|more|too|also|again|extra|second|as\s+well|on\s+top)\b"
)


def _other_invoices(
    new: str,
    ours: tuple[str, frozenset[str]] | None,
    old: str,
    theirs: tuple[str, frozenset[str]] | None,
) -> bool:
    """Whether both are debts or payments, each of another invoice by its number.

    "Priya owes me 70 for invoice 2026-011" replaced "… 50 for invoice 2026-010", and the
    payment of one invoice the payment of another (an adversary).
    """
    if (ours is None and _paid_by(new) is None) or (theirs is None and _paid_by(old) is None):
        return False
    numbers, owed = _invoices(new), _invoices(old)
    return bool(numbers and owed) and not numbers & owed


def pays_off(new: str, old: str) -> bool:
    """Whether `new` says the debt `old` states was paid.

    "paid Priya the $42" after "owe Priya $42 for power" (found by a new user: the debt
    stayed in effect).
    """
    new = LEAD_IN.sub("", new.strip(), count=1)  # "good news, o'donovan finally paid …"
    if _NOT_SURELY_PAID.search(new) or _PART_OF.search(new):
        return False  # denied, claimed, or a part: "Dunnes paid half of invoice 77"
    if _other_titles(new, old):
        return False  # "Mrs Walsh paid 640" pays no debt of Mr Walsh's (a third adversary)
    ours, theirs = _debt(new), _debt_of_a_piece(old)
    if _one_invoice_paid(new, ours, old, theirs):
        return True
    if ours is not None and theirs is not None and ours[0] != theirs[0]:
        # "okafor paid 1058" pays invoice 1058, or what Okafor owes: "Okafor owes 1058 for
        # the March invoice" (a new user, a photographer).
        ours = _paid_by(new) or ours
    if ours is None or theirs is None or ours[0] != theirs[0]:
        return False
    if ours[1] != _PAID or theirs[1] == _PAID:
        return False
    if _invoices(new) and _invoices(old) and not _invoices(new) & _invoices(old):
        return False  # another invoice of theirs paid
    # The amount paid, if said, is the debt's: "paid Priya the $15" pays the pizza, not the
    # $42 for power, and "$20 towards it" pays part (an adversary saw both debts go).
    paid = _AMOUNT.findall(_INVOICE_NAMED.sub(" ", new))
    owed = _AMOUNT.findall(_INVOICE_NAMED.sub(" ", old))
    if paid and owed and not (set(paid) == set(owed) or (owed[0] in paid and len(paid) == 1)):
        # The amount owed is the first the debt says: "Okafor owes 1058 for the March
        # invoice, due 31/3" owes no 31 (a second adversary: its payment marked nothing).
        return False
    # What it was for, if both say: "Paid Priya back for lunch" pays the lunch, not the
    # tickets (an adversary saw both debts go); of two debts of one amount too ("paid
    # Priya the 42 for dinner" marked the 42 for the concert tickets: a later one).
    paid_for, owed_for = _FOR_WHAT.search(new), _FOR_WHAT.search(old)
    if paid_for is not None and owed_for is not None:
        return bool(set(analyze(paid_for["what"])) & set(analyze(owed_for["what"])))
    return True


_INVOICE_NAMED = lazy_compile(r"(?i)\b" + _INVOICE + r"\b")


def _one_invoice_paid(
    new: str,
    ours: tuple[str, frozenset[str]] | None,
    old: str,
    theirs: tuple[str, frozenset[str]] | None,
) -> bool:
    """Whether `new` says the invoice `old`'s debt is for was paid, by its number.

    "o'donovan finally paid invoice 2026-031 today" pays "Mr O'Donovan still owes me 640
    for invoice 2026-031" (a new user, a translator: the amount is not said, and the
    invoice's number was taken for one).
    """
    by = _paid_by(new)
    paid = ours is not None and ours[1] == _PAID or by is not None
    if not paid or theirs is None or theirs[1] == _PAID:
        return False
    paid_amounts = _AMOUNT.findall(_INVOICE_NAMED.sub(" ", new))
    owed_amounts = _AMOUNT.findall(_INVOICE_NAMED.sub(" ", old))
    if paid_amounts and owed_amounts and owed_amounts[0] not in paid_amounts:
        return False  # "Silva paid 320 of invoice 2026-031": part of 640 (an adversary)
    if by is not None and theirs[0].startswith("owed by ") and by[0] != theirs[0]:
        return False  # "Klein paid invoice 2026-031": not O'Donovan's to pay
    return bool(_invoices(new) & _invoices(old))


def _invoices(text: str) -> set[str]:
    return {found["number"].casefold() for found in _INVOICE_NAMED.finditer(text)}


def debt_changed(new: str, old: str) -> bool:
    """Whether `new` pays the debt `old` states, or gives that debt anew (not another's)."""
    for piece in claim_pieces(new):
        if pays_off(piece, old):
            return True
        ours, theirs = _debt(piece), _debt_of_a_piece(old)
        if ours is not None and ours[1] != _PAID and not two_debts(piece, old):
            if ours[1] == _UNPAID and theirs is not None and theirs[1] != _PAID:
                # "Silva never paid invoice 2026-031" says the debt holds: no change (an
                # adversary saw it noted as one).
                return False
            return theirs is not None and theirs[0] == ours[0]
        if _paid_in_part(piece, ours, theirs):
            return True
    return False


_PART_OF = lazy_compile(r"(?i)\b(?:half|part|some|partly|partially|towards?)\b")
_IN_PART = lazy_compile(
    r"(?i)\b(?:back|of|towards?|off|another|part|half|first|instal?ments?|so\s+far)\b"
)


def _paid_in_part(
    piece: str,
    ours: tuple[str, frozenset[str]] | None,
    theirs: tuple[str, frozenset[str]] | None,
) -> bool:
    """Whether `piece` pays part of the debt `theirs`: its amount is left to say.

    "Ciarán paid me back 500 today" after "Ciarán owes me 2000 euro for the car" (a new
    user, a retired nurse: asked how much he still owed, the model was shown 2000 alone).
    """
    if theirs is None or theirs[1] in (_PAID, _UNPAID) or _NOT_SURELY_PAID.search(piece):
        return False
    if not _IN_PART.search(piece):
        return False  # "okafor paid 999" may pay another thing (an adversary)
    by = _paid_by(piece) or (ours if ours is not None and ours[1] == _PAID else None)
    return by is not None and by[0] == theirs[0] and _AMOUNT.search(piece) is not None


def other_payees(new: str, old: str) -> bool:
    """Whether both tell of a payment, each to someone else.

    "Silva paid Costa 640" is no new version of "Silva paid 640" (an adversary saw it
    merged into it).
    """
    if not (_A_PAYMENT.search(new) and _A_PAYMENT.search(old)):
        return False
    ours, theirs = _PAID_TO.search(new), _PAID_TO.search(old)
    to_ours = None if ours is None else ours["payee"].casefold()
    to_theirs = None if theirs is None else theirs["payee"].casefold()
    return to_ours != to_theirs


_A_PAYMENT = lazy_compile(r"(?i)\b(?:paid|sent|transferred)\b")


def pays_which(new: str) -> bool:
    """Whether a payment says which debt it pays: by its amount or what it was for."""
    return bool(_AMOUNT.search(new) or _FOR_WHAT.search(new))


@lru_cache(maxsize=2048)
def debt_owed(text: str) -> str | None:
    """The one a text says the user owes or is owed by ("priya"), for finding its payment."""
    found = _debt_of_a_piece(text)  # whole first: "Mr O'Donovan (direct client, Cork) owes …"
    if found is not None and found[1] != _PAID:
        return found[0].rsplit(" ", 1)[1]
    return None


def _said_with_a_debt(
    piece: str, rate: tuple[str, frozenset[str]]
) -> list[tuple[str, frozenset[str]]]:
    """What else a debt or an invoice says: who paid it, the invoice it is owed for."""
    if rate[0].startswith("invoice ") and (paid := _paid_by(piece)) is not None:
        return [paid]  # "okafor paid 1058": the invoice, or what Okafor owes
    if rate[0].startswith("owed by ") and rate[1] != _PAID:
        # "… owes me 640 for invoice 2026-031": that invoice is unpaid, and "paid invoice
        # 2026-031" said later changes it (a new user, a translator).
        return [("invoice " + number, _UNPAID) for number in sorted(_invoices(piece))]
    return []


def stated_values(text: str) -> dict[str, frozenset[str]]:
    """Topic (the user's "home", or an attribute's subject words) → the value's terms."""
    stated = _stated_values(text)
    if "address" in stated and ANOTHER_MOVED.search(text):
        # "The clinic moved! New address is 5 Smith St": the clinic's address, not the
        # user's (an adversary saw it replace "I live at 27 Ballarat Rd").
        return {**{k: v for k, v in stated.items() if k != "address"}, _ANOTHERS: stated["address"]}
    return stated


_ANOTHERS = "address of another"


def _stated_values(text: str) -> dict[str, frozenset[str]]:
    stated: dict[str, frozenset[str]] = {}
    # A price quoted, across its clauses: "revised quote for mrs patel combi swap, now 2300
    # + vat" (its "quote" is no one's words quoted, which `said_in_earnest` reads).
    if (quote := _quote(text)) is not None and not _QUOTE_MARKS.search(text):
        stated[quote[0]] = quote[1]
    if not said_in_earnest(text):
        return stated
    for piece in claim_pieces(text):
        if one_more_value(piece):
            continue
        piece = said_in_english(piece)  # "Ich arbeite jetzt bei Siemens" (an adversary)
        # "breda has a new number 086 …" is "Breda's new number is 086 …" (a new user).
        plain = as_it_is_now(piece)
        attribute = user_value(plain)
        if attribute is not None:
            named = names_in(plain) & attribute[0] - attribute_terms()
            someone = attribute[0] <= people_attribute_terms() and _THE_ONE.match(piece)
            if not (_THE_USERS.search(piece) or named or someone):
                # "Email: help@acme.com for support" is not the user's email; "the
                # Schmidt deadline is Friday" is the deadline of someone named.
                continue
            topic = " ".join(sorted(one_subject(attribute[0])))
            stated.setdefault(topic, attribute[1] - change_terms())
            continue
        # A price first: "Gas bill direct debit increased to €112" is no bill Gas sends.
        rate = price_stated(piece) or _rate(piece) or _debt(piece)
        if rate is not None:
            stated.setdefault(*rate)
            for topic, value in _said_with_a_debt(piece, rate):
                stated.setdefault(topic, value)
            continue
        for topic, value in health_values(piece).items():
            stated.setdefault(topic, value)
        # A home with its address in another language too: "Vivo en calle Mayor 12, Madrid"
        # before "Vivo en calle Alcalá 50" stood unmarked (a second adversary).
        claim = claim_of(piece) or claim_of(home_moved_to(piece) or "")
        if claim is not None and claim[0] == USER and claim[1] == "home":
            stated.setdefault("home", frozenset(analyze(claim[2])) - change_terms())
    if (dose := dose_of_the_one_medicine(text)) is not None:
        stated.setdefault(*dose)
    return {topic: values for topic, values in stated.items() if values}


def changed_topics(
    earlier: dict[str, frozenset[str]], later: dict[str, frozenset[str]]
) -> list[str]:
    """The topics both state where the later one gives another value.

    A value that only adds words ("Lisbon, Portugal" after "Lisbon") is the same value.
    """
    earlier, later = _one_home(earlier), _one_home(later)
    changed = [
        topic
        for topic, values in earlier.items()
        if topic in later
        and not (values <= later[topic] or later[topic] <= values)
        and not (topic == "home" and _the_same_home(values, later[topic]))
    ]
    # A price said of one thing in fewer words: "gas debit" is "gas direct debit".
    changed += [
        topic
        for topic, values in earlier.items()
        if topic.startswith(_COSTS)
        and topic not in later
        and any(
            other.startswith(_COSTS) and same_priced_thing(topic, other) and values != later_values
            for other, later_values in later.items()
        )
    ]
    return changed


_COSTS = "costs "


def _one_home(stated: dict[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """`stated` with an address said alone read as the home.

    "I live at 27 Ballarat Rd, Footscray" then "We moved house! New address is 14 Wattle
    Ave, Sunshine North" (a new user, a nurse in Melbourne: the old one was recalled
    unmarked for "where do I live?").
    """
    if "address" not in stated or "home" in stated or stated.get(_ANOTHERS) is not None:
        return stated
    return {**{k: v for k, v in stated.items() if k != "address"}, "home": stated["address"]}


def _the_same_home(earlier: frozenset[str], later: frozenset[str]) -> bool:
    """Whether two homes sharing words are one.

    They share a place of its own, and neither gives a street number or postcode the other
    gives otherwise ("27 Ballarat Rd, Footscray VIC 3011" and "14 Wattle Ave, Sunshine North
    VIC 3020" share only their state).
    """
    numbers = [{word for word in values if word.isdigit()} for values in (earlier, later)]
    if all(numbers) and not numbers[0] & numbers[1]:
        return False
    return bool((earlier & later) - _NOT_A_PLACE_OF_ITS_OWN)


_NOT_A_PLACE_OF_ITS_OWN = frozenset(
    "new san los las st saint north south east west upper lower old little great the near "
    "with by flat apartment house street road avenue lane "
    # A street's word in other languages, and their "of": "Carrer de Sueca" and "Carrer de
    # Sant Josep" are two homes (a new user in Valencia saw the second leave the first
    # unmarked).
    "carrer calle avenida avinguda av plaza plaça placa passeig paseo rua rue via viale "
    "piazza strasse straße str platz weg allee de del della di da do dos das la el le les "
    "des du".split()
)
"""A home said again with more or other words about it is the same home when they share a
place's word: "I live in Porto near the river" after "I live in Porto, Portugal" (an
adversary saw it marked as changed); "New York" and "New Jersey" share no such word."""

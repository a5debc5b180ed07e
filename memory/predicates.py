"""Predicates that hold one value at a time, and every way they are worded.

Shared by the write rules (`memory.fact_values`: "I moved to Lisbon" replaces "I live in
Porto") and the index (`memory.text.entry_terms`: "where do I live?" finds "I moved to
Lisbon"). Both only concern the user's own present home or employer, said plainly:
adversaries found other people ("Some of them live in …"), the past ("I lived in Paris as
a student"), plans and wishes ("If I lived in Madrid …", "I'll live in …"), times ("I work
at 8am") and things ("The printer moved to room 4") taken for one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from memory.claims_elsewhere import move_said_in_english
from memory.lazy_patterns import lazy_compile

# Present forms only: "lived", "worked" tell of the past; "moving to" is a plan.
A_STREET_IN_LOWER_CASE = (
    r"\d{1,5}[A-Za-z]?,?\s+"
    r"(?:rue|avenue|av\.|boulevard|boul\.|bd|chemin|ch\.|place|all[ée]e|impasse|route|quai|"
    r"rang|calle|avenida|avda\.|plaza|paseo|via|viale|piazza|corso|rua|travessa|largo|pra[çc]a)"
    r"\s+(?:(?:de|du|des|de\s+la|del|della|da|do|dos)\s+)?[A-Z\u00c0-\u00de\d]"
)
"""A street's number, then its kind before its name, in lower case as French, Spanish,
Italian and Portuguese write it: "4521 rue Fabre", "12 avenue du Parc", "5 calle Mayor"."""
STREET_FIRST = (
    r"(?i:rua|avenida|av\.?|avda\.?|calle|c/|carrer|travessa|largo|pra[çc]a|plaza|paseo|"
    r"camino|via|viale|piazza|corso|rue|boulevard|bd|all[ée]e|chemin|ulica|ul\.)"
    r"\s+(?:[\w'\u2019.-]+\s+){0,5}?\d{1,5}[A-Za-z]?\b"
    r"|[A-Z\u00c0-\u00de][\w'\u2019-]*(?i:stra(?:ß|ss)e|str\.|weg|gasse|platz|allee|gracht|straat|"
    r"laan|vej|gade|gatan|v[äa]gen|veien)\s+\d{1,5}[A-Za-z]?\b"
)
"""A street named before its number: "Rua da Graça 42", "Calle Mayor 5", "Hauptstraße 12"
(a new user in Lisbon: "I live at Rua do Ouro 10" was read as no home, and never replaced
"I live at Rua da Graça 42")."""
ONE_VALUE = (
    (
        "home",
        re.compile(
            r"(?i)\b(?:(?:lives?|living|resides?|residing|relocated|based|home\s+is(?:\s+now)?)"
            r"\s+(?:in|to)|(?:lives?|living|resides?|residing)\s+at(?=\s+(?:\d|"
            + STREET_FIRST
            + r"))|moved\s+(?:back\s+)?(?:(?:from|out\s+of)\s+(?:[^\s,.;]+\s+){1,4}?)?to|"
            r"home\s+is(?:\s+now)?(?=\s+(?-i:[A-Z])))\b"
        ),
        # "address": "what's my address?" found no "I live at 12 Oak St" (an adversary).
        "live move reside relocated based home address",
    ),
    (
        "employer",
        re.compile(
            r"(?i)\b(?:(?:works?|working)\s+(?:as\s+an?\s+(?:[a-z-]+\s+){1,3}?)?(?:at|for)|"
            r"(?:employed|hired)\s+(?:at|by)|job\s+(?:is\s+)?(?:at|with)|(?:started|got)\s+(?:a\s+)?"
            r"(?:new\s+)?(?:job|position|role)\s+(?:at|with)|start(?:ed|s)?\s+(?:work(?:ing)?\s+)?at|"
            r"joined(?=\s+(?-i:[A-Z])))\b"
        ),
        "work employed job hired",
    ),
)
"""(name, pattern, the words of all its wordings)."""

_WORD = lazy_compile(r"[\w']+")


def words_of(text: str) -> list[str]:
    """Lower-case words with their apostrophes ("i'm", "can't"; ’ read as ')."""
    return _WORD.findall(text.casefold().replace("\u2019", "'"))


_THE_USER_WORDS = frozenset(
    "i we i'm we're i've we've the user user's my our have has am are is now currently just a got "
    "yes yeah "
    "recently finally actually officially also started began so update btw fyi ok okay well "
    "oh hey news new been".split()
)
"""The only words a statement about the user's own home or job may open with ("my" and
"our" only before "home is in": "my sister lives in …" opens with another word)."""
_WHEN_IT_HAPPENED = lazy_compile(
    r"(?i)^\s*(?:last\s+(?:week|month|year|spring|summer|autumn|fall|winter|weekend|monday|"
    r"tuesday|wednesday|thursday|friday|saturday|sunday)|yesterday|"
    r"this\s+(?:week|month|year)|(?:a|one|two|three|four|five|six|a\s+few|several)\s+"
    r"(?:days?|weeks?|months?|years?)\s+ago|in\s+(?:january|february|march|april|may|june|"
    r"july|august|september|october|november|december)|since\s+(?:last\s+\w+|\d{4}|january|february|"
    r"march|april|may|june|july|august|september|october|november|december|spring|summer|"
    r"autumn|fall|winter))\s*,?\s+"
)
"""A time a move or a new job is dated by ("Last month I moved to Lisbon"): the statement
still says where the user lives or works now. Not a year: "In 1999 I moved to Lisbon" is
the story of a life, not where it is now (an adversary)."""
_NOT_FOR_GOOD = lazy_compile(
    r"(?i)\b(?:as\s+an?\s+(?:child|kid|boy|girl|baby|teen|teenager|student)|"
    r"for\s+(?:a|an|the|one|two|three|four|six|a\s+few|several|\d+)\s+"
    r"(?:semesters?|terms?|years?|months?|weeks?|days?|summers?|winters?|while|bit|season|"
    r"internship|exchange|project|conference|trip|visit|wedding|funeral|holiday|vacation|"
    r"course|workshop|meeting|job\s+interview|interview)|temporarily|briefly|for\s+now|back\s+then|at\s+the\s+time|"
    r"in\s+the\s+past|once|years\s+ago|decades\s+ago|in\s+\d{4}|in\s+the\s+\w*(?:ies|0s)|"
    r"in\s+'\d\d|at\s+(?:the\s+)?age\s+(?:of\s+)?\d+|aged?\s+\d+|growing\s+up|"
    r"as\s+an?\s+(?:toddler|infant|youngster|adolescent|young\s+\w+)|"
    r"during\s+(?:college|university|uni|school|high\s+school|my\s+\w+|the\s+\w+)|"
    r"in\s+my\s+(?:\w+ies|\d+s|youth|childhood|teens)|at\s+\d+|as\s+an?\s+adult|"
    r"this\s+(?:week|weekend|month|summer|winter|spring|autumn|fall|semester|term|year)|"
    r"through\s+\w+|for\s+the\s+(?:holidays|summer|winter|week|weekend|month|season)|"
    r"on\s+(?:weekends|saturdays|sundays|mondays|tuesdays|wednesdays|thursdays|fridays)|"
    r"on\s+the\s+side)(?!\w)"
)
"""A stay that ended or will end ("Bob moved to Coimbra as a child / for a semester"): not
where anyone lives now (an adversary)."""
_THIS_TIME = lazy_compile(
    r"(?i)\bthis\s+(?:week|weekend|month|summer|winter|spring|autumn|fall|semester|term|year)\b"
)
_A_CHANGE = lazy_compile(r"(?i)\b(?:moved|relocated|started|joined|got|hired)\b")


def _not_for_good(value: str, predicate: str) -> bool:
    """Whether `value` tells of a stay that ends (`_NOT_FOR_GOOD`).

    "This week" after a change dates it: "I started a new job at X this week" (a new user
    saw the job kept), while "I'm living in Rome this week" is a stay.
    """
    if _A_CHANGE.search(predicate):
        value = _THIS_TIME.sub("", value)
    return _NOT_FOR_GOOD.search(value) is not None


LEAD_IN = lazy_compile(
    r"(?i)^\s*(?:(?:big|good|great|some|exciting|quick)\s+(?:news|update)|guess\s+what|"
    r"by\s+the\s+way|fun\s+fact)\s*[:!?,.\u2014-]+\s*"
)
"""Words announcing news before it ("Big news: my wife and I moved to Lisbon!"), which is
how most people say they moved (found by a new user: such a message was never found)."""
_TOGETHER = lazy_compile(r"^\s*(?:(?:[Mm]y|[Oo]ur)\s+(?:\w+\s+)?\w+|[A-Z][a-z]+)\s+and\s+[Ii]\b")
"""The user with someone ("My wife and I live in Porto"): still where the user lives."""
_CLAUSE_BREAK = lazy_compile(
    r"(?i)\b(?:and|but)\b|;"
    r"|,(?=\s+(?:work|working|live|living|study|studying)\s+(?:at|in|for|as|from)\b)"
)
"""Also a comma before a second claim without its "I": "I live in Porto, work at Acme"
(found reading a new user's greeting: the move to Lisbon replaced it, and the job went)."""
_NAME_AROUND = lazy_compile(r"[A-Z][\w'.-]*\s+$")
_NAME_AFTER = lazy_compile(r"\s+(?!I\b)[A-Z]")
_NAME_REACH = 64
"""How far before an "and" its name may begin ("Bosnia and …")."""


def clause_breaks(text: str) -> list[re.Match[str]]:
    """Where a text goes on to say another thing ("… and I work at Acme").

    Not the "and" inside a name: "Marks and Spencer", "Bosnia and Herzegovina" (found by
    an adversary: such a home or employer was never replaced).
    """
    return list(_clause_breaks(text))


def _clause_breaks(text: str) -> Iterator[re.Match[str]]:
    for found in _CLAUSE_BREAK.finditer(text):
        # The word before, not all the text before: a long text of many "and"s cost its
        # length for each of them (a 900 KB message took minutes to index).
        before = _NAME_AROUND.search(text, max(0, found.start() - _NAME_REACH), found.start())
        if (
            found.group() in (";", ",")
            or found.group().casefold() == "but"
            or not (before and _NAME_AFTER.match(text, found.end()))
        ):
            yield found


def says_more(text: str) -> bool:
    """A text saying two things: replacing it for one of them would lose the other."""
    return next(_clause_breaks(text), None) is not None


_SINCE_WHEN = lazy_compile(
    r"(?i)\bsince\s+(?:last\s+\w+|(?:january|february|march|april|may|june|july|august|"
    r"september|october|november|december|spring|summer|autumn|fall|winter|yesterday|monday|"
    r"tuesday|wednesday|thursday|friday|saturday|sunday|\d{4})(?:\s+\d{4})?)\b"
    r"|(?<=\w)[\s,]+since\s+(?:i|we|my|our|the|he|she|they)\b[^.!?;]*"
)
"""How long a present fact has held ("I've been living in Porto since March"): the
statement still says where the user lives now (found by a new user: both homes stayed).
Also a "since" clause after the value ("I live in Porto since I lost my job"), whether it
tells of the time or the reason: found by an adversary, the old home stayed."""
_FROM_BEFORE = lazy_compile(r"(?<=\w)\s+from\s+(?=[A-Z])[^,.;!?]*")
"""Where the user came from, after the new value ("I moved to Lisbon from Porto"): found by
an adversary, the old home in the value made the two agree."""
_NOT_BEFORE = lazy_compile(
    r"(?<=\w)\s*[,;]?\s+(?:and\s+|but\s+)?(?:not|no\s+longer)\s+(?:in\s+|at\s+|for\s+)?"
    r"(?=[A-Z]|\d|the\s+\d|[\w.+-]+@[\w-]+\.)(?:[\w.+-]+@[\w.-]+\w|[^,.;!?]*)(?:\s+any\s*more)?"
)
"""The old value denied after the new one ("I live in Lisbon now, not Porto", "Jack's
birthday is 14/3 not 13/3", "… the 19th not the 9th": a new user; "my email is
dana@gmail.com, not dana.smith@gmail.com": a second adversary): found by a
new user, the "not" made the whole statement a denial and the old home stayed."""


_LEFT_FOR = lazy_compile(
    r"(?i)\A\s*(?:(?:i|we)\s+(?:just\s+|finally\s+)?)?(?:quit|left)\s+(?:my\s+job\s+at\s+)?"
    r"(?-i:[A-Z])[\w&.'-]*(?:\s+[\w&.'-]+){0,3}?"
    r"(?:\s+(?:and|to)|\s*[!.;,\u2014\u2013-]+)\s+"
    r"(?:(?:i|we)(?:'m|\s+am|'ve\s+been|\s+have\s+been|\s+got)?\s+)?"
    r"(?P<verb>join(?:ed|ing)?|start(?:ed|ing)?|hired(?=\s+by\b)|work(?:ing)?(?=\s+(?:at|for)\b))\b"
)
"""Leaving the old employer for the new: "I quit Acme and joined Initech" says where the
user works now (an adversary saw both employers stay in effect). So do "I left Acme to
join Initech" and "Quit my job at Acme! Starting at Initech on Monday" (new users), read
as "I joined Initech", "I started at Initech on Monday"; and "I left Fintrack, I've been
hired by Revolut" or "… I work at Revolut now" (a new user found it by no question about
where they work)."""
_MOVED_THEN_WHERE = lazy_compile(
    r"(?i)\A\s*(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:moved|relocated)"
    r"(?:\s+(?:house|home|again|out|flat|apartments?))*(?:\s*[!.;,:\u2014\u2013-]+|\s+and)\s*"
    r"(?:(?:so|and)\s+)?(?:now\s+)?(?:(?:i'm|we're|i\s+am|we\s+are)\s+(?:now\s+)?)?"
    r"(?:(?:living|based|settled)\s+)?in\s+(?=(?-i:[A-Z]))"
)
"""A move told first, the place after: "We moved house, we're in Coimbra now", "We
relocated again — now living in Braga" (a new user saw neither found), read as "I live in
…". "in" alone names a home only after such a move: "I'm in Paris" may be a trip."""


_TOLD_FIRST = {
    "home": re.compile(r"(?i)\b(?:moved|relocated)\b"),
    "employer": re.compile(r"(?i)\b(?:quit|left)\b"),
}
"""A change told before its value (`_left_for_the_new`), which the pattern alone misses."""


def _joined(found: re.Match[str]) -> str:
    verb = found["verb"].casefold()
    if verb.startswith("hired"):
        return "I've been hired"
    if verb.startswith("work"):
        return "I work"
    return "I joined" if verb.startswith("join") else "I started"


def _left_for_the_new(text: str) -> str | None:
    """`text` saying only where the user went ("I joined Initech"), else None.

    None when it does not leave one employer for another. It may be dated ("Last month I
    left …").
    """
    dated = _WHEN_IT_HAPPENED.match(text)
    at = dated.end() if dated else 0
    rest = _LEFT_FOR.sub(_joined, text[at:], count=1)
    if rest == text[at:]:
        rest = _MOVED_THEN_WHERE.sub("I live in ", text[at:], count=1)
    return None if rest == text[at:] else text[:at] + rest


def without_old_value(text: str) -> str:
    """`text` without an old value it denies after the new one (see `_NOT_BEFORE`)."""
    return _NOT_BEFORE.sub("", text)


_NOT_PLAIN = lazy_compile(
    r"(?i)\b(?:if|would|could|might|should|will|'ll|'d|when|before|after|until|since|used to|"
    r"next|soon|maybe|perhaps|wish|hope|plan|want)\b|\?"
)
"""A condition, a time other than now, a wish or a question."""
_NOT_A_VALUE = lazy_compile(
    r"\s*(?:(?:a|an|the(?!\s+[A-Z])|my|your|his|her|our|their|night|nights|day|days|"
    r"weekends?|home|least|times|the moment)\b|\d|(?i:christmas|xmas|easter|thanksgiving|"
    r"holidays?|dawn|dusk|midnight|noon|lunchtime)\b)"
)
"""A value starting so describes or times the predicate ("a small flat", "at 8am"); "the"
before a name is a value ("the Netherlands"), and so is a capitalised word ("Times Square",
"Home Depot", "Night Owl Cafe": an adversary saw them missed)."""


_A_STREET = lazy_compile(
    r"\s*\d{1,5}[A-Za-z]?,?\s+(?:[A-Z][\w'-]*\s+){1,3}"
    # Its kind first, in lower case: "4521 rue Fabre", "12 avenue du Parc", "3 via Roma"
    # (a new user, a translator in Montréal: "I live at 4521 rue Fabre" named no home).
    r"|\s*" + A_STREET_IN_LOWER_CASE
)
"""A street's number and name: "12 Oak St", not "8am" or "5 pm"."""


_STREET_FIRST = lazy_compile(r"\s*(?:" + STREET_FIRST + ")")


def is_a_street(value: str) -> bool:
    """Whether a home's value is a street's number and name ("12 Oak St, Porto")."""
    return _A_STREET.match(value + " ") is not None or _STREET_FIRST.match(value) is not None


_A_PLACE = lazy_compile(r"\s*(?:the\s+)?[A-Z]")
"""Where a home "is in": a place's name, not a state ("in good shape")."""
_NUMBERED = lazy_compile(r"\s*(?:the\s+)?[\w'-]+\s+\d")
"""A room, a floor or a version ("moved to Room 4"), not a place to live (an adversary)."""
_TOOL_WORD = lazy_compile(r"\s*\S*(?:[a-z][A-Z]|\.[a-z])")
"""A product's spelling ("macOS", "Node.js"): not a place."""
_THINGS = frozenset(
    "slack teams discord zoom signal telegram whatsapp matrix vim neovim emacs vscode helix "
    "zed linux ubuntu debian fedora arch nixos windows mac macos ios android iphone pixel "
    "python rust go golang java kotlin swift typescript javascript postgres postgresql mysql "
    "sqlite mongodb aws azure gcp kubernetes github gitlab bitbucket notion obsidian jira "
    "confluence trello asana firefox chrome safari gmail outlook fastmail proton protonmail "
    "spotify netflix mastodon bluesky threads substack wordpress shopify figma excel sheets "
    "remote hybrid management sales marketing engineering microsoft google apple amazon vs "
    "visual logseq roam evernote onenote dropbox icloud drive docs jetbrains intellij pycharm "
    "sublime cursor finance hr legal support ops operations product design research "
    "accounting security platform infrastructure snowflake terraform arc kubernetes docker "
    "bazel gradle maven".split()
)
"""Things people move to that are not places ("I moved to Slack", "… to Vim")."""
_TAKEN = frozenset(
    "oat oats soy almond dairy decaf coffee tea milk water juice beer wine vegan veggie "
    "vegetarian keto paleo gluten sugar diet nights days mornings evenings weekends shifts "
    "online paper digital cash contacts glasses pills tablets".split()
)
"""What one moves to that one eats, drinks or takes, written in lower case: "moved to oat
milk" replaced the home (a second adversary); "I moved to Water Lane" is a street."""
_NOT_A_PLACE_WORD = frozenset(
    "fear hope denial peace harmony poverty luxury comfort misery sin squalor style shame "
    "terror dread limbo exile sync harmony debt silence free myself yourself fun full hire "
    "money cash minimum peanuts pleasure scale speed constant perpetual tips exposure food "
    "nothing love".split()
)
_ORGANISED = frozenset(
    "team department dept division unit squad group project role position office floor room "
    "desk channel server branch org tier plan app".split()
)
"""A part of an organisation or a product ("the Platform team"): not a place to live."""
"""States and manners, not places or employers ("I live in fear", "I work for free")."""
_NAME = lazy_compile(r"[A-Z][a-z][\w'-]*")
_RELATED = lazy_compile(
    r"(?i:my|our)\s+(?i:partner|wife|husband|spouse|girlfriend|boyfriend|fiancee?|friend|"
    r"best\s+friend|mother|mom|mum|father|dad|brother|sister|son|daughter|boss|colleague|"
    r"coworker|neighbou?r|aunt|uncle|cousin|niece|nephew|grandmother|grandma|grandfather|"
    r"grandpa|roommate|flatmate|manager|landlord|landlady|parents|kids|children)"
    r"(?:\s+[A-Z][a-z][\w'-]*)?"
)
"""Someone of the user's, said by how, and maybe by name: "my sister", "my boss Alex"."""
_NOT_A_NAME = frozenset(
    "i we you he she it they this that these those there here someone somebody everyone "
    "everybody nobody people some many most all both each one another who which".split()
)
"""Capitalised openers that are not one person's name ("They live in Berlin")."""
USER = "user"
"""The owner of a claim the user makes about themselves."""


_CUES = {
    "home": ("liv", "resid", "relocat", "based", "home", "moved"),
    "employer": (
        *("work", "employ", "job", "position", "role", "start", "joined", "quit", "left"),
        "hired",
    ),
}
"""A word part every claim of a predicate holds (`ONE_VALUE`, `_LEFT_FOR`): a text with
none states none, found without running its patterns (a third of what an import spent
indexing). Only ASCII text is let through so: a pattern ignores case by Unicode's rules
("İ" matches "i"), which `casefold` does not always follow."""


@lru_cache(maxsize=1024)  # indexing an entry asks twice: for its wordings and its owner
def claim_of(text: str) -> tuple[str, str, str] | None:
    """(owner, predicate, value) when `text` plainly says where someone lives or works now.

    The owner is `USER` for the user's own claim ("I moved to Lisbon"), the casefolded
    name of the one person a claim opens with ("Bob moved to Coimbra"), or someone of the
    user's said by how ("my sister", "my boss alex"). Other openers ("They live in …",
    "My sister's friend lives in …") make no claim.
    """
    # The predicate first: most texts (every one indexed) state none, and fail there.
    folded = text.casefold() if text.isascii() else None
    for name, pattern, _ in ONE_VALUE:
        if folded is not None and not any(cue in folded for cue in _CUES[name]):
            continue
        found = pattern.search(text)
        if found is None and not _TOLD_FIRST[name].search(text):
            continue
        text = _TOGETHER.sub("I", LEAD_IN.sub("", text, count=1), count=1)
        text = _left_for_the_new(text) or text
        found = pattern.search(text)
        if found is None or _NOT_PLAIN.search(_SINCE_WHEN.sub("", text)) or says_more(text):
            return None
        dated = _WHEN_IT_HAPPENED.match(text)
        before = text[dated.end() if dated else 0 : found.start()]
        opening = words_of(before)
        value = _FROM_BEFORE.sub("", _SINCE_WHEN.sub("", without_old_value(text[found.end() :])))
        home = name == "home"
        if not _a_value(value, text, home=home) or _not_for_good(value, found.group()):
            return None
        if "based" in found.group().casefold() and {"we", "we're", "our"} & set(opening):
            return None  # "We're based in Zurich": the company, not the user (an adversary)
        if "home" in found.group().casefold() and not _A_PLACE.match(value):
            return None  # "My home is in disarray", "… in escrow" (an adversary)
        if set(opening) <= _THE_USER_WORDS:
            return USER, name, value
        named = before.split()
        if (
            len(named) == 1
            and _NAME.fullmatch(named[0])
            and named[0].casefold() not in _NOT_A_NAME
            and named[0].casefold() != USER
        ):
            return named[0].casefold(), name, value
        if _RELATED.fullmatch(before.strip()):
            # "My sister moved to Rome" after "My sister lives in Berlin" (an adversary saw
            # both stay in effect, Berlin recalled first).
            return one_word_for_relation(" ".join(before.split()).casefold()), name, value
        return None
    return None


_SAME_RELATION = {
    "dad": "father", "mom": "mother", "mum": "mother", "grandma": "grandmother",
    "grandpa": "grandfather", "neighbor": "neighbour", "landlady": "landlord",
}  # fmt: skip
_RELATION_WORD = lazy_compile(r"\b(?:" + "|".join(_SAME_RELATION) + r")\b")


def relations_alike(text: str) -> list[str]:
    """Every word of each relation `text` names in one of its words ("dad": "father", "dad").

    A write looks for the facts it may change by them: "My father moved to Braga" shares no
    word with "My dad lives in Faro" (an adversary saw both stay in effect).
    """
    words = set(words_of(text))
    return [
        word
        for one, other in _SAME_RELATION.items()
        if one in words or other in words
        for word in (one, other)
    ]


def one_word_for_relation(related: str) -> str:
    """Someone of the user's said one way: "my dad" is "my father".

    Found by an adversary: "My father moved to Braga" left "My dad lives in Faro" in effect.
    """
    return _RELATION_WORD.sub(lambda found: _SAME_RELATION[found.group()], related)


def _a_value(value: str, text: str, *, home: bool) -> bool:
    """Whether `value` names a place or an employer.

    `value` follows "live in", "moved to", "work at" …: not a description, a time, a state,
    a room or a product.
    """
    words = words_of(value)
    if home and (_A_STREET.match(value) or _STREET_FIRST.match(value)):
        return True  # "I live at 12 Oak St, Porto" (an adversary: found by no "address")
    if not words or _NOT_A_VALUE.match(value) or _NUMBERED.match(value):
        return False
    named = words[1:] if words[0] == "the" else words
    if _NOT_A_PLACE_WORD & set(named[:2]):
        return False
    if _ORGANISED & set(named[:4]):
        return False  # "the Platform team": a part of a place or an employer
    if home and (named[:1] and named[0] in _THINGS or _TOOL_WORD.match(value)):
        return False
    if home and set(named[:2]) & _TAKEN and not any(c.isupper() for c in value):
        return False
    # Written in lower case where the rest has capitals: a state ("I live in fear"), not a
    # name. Someone who types all in lower case still names places ("i live in porto").
    written = re.sub(r"(?i)^the\s+", "", value.lstrip())
    return not (written[:1].islower() and _CAPITALS_OF_NAMES.search(text))


_CAPITALS_OF_NAMES = lazy_compile(r"\b(?!I\b|I['\u2019])[A-Z]|\B[A-Z]")
"""A capital not of the word "I": who types "I moved to portobello" writes no place in
capitals (a new user saw it left unread, and her old home in effect). A sentence's first
capital counts: "My job is at risk" is no job."""


def user_claim(text: str) -> tuple[str, str] | None:
    """(predicate, value) when `text` plainly says where the user lives or works now."""
    claim = claim_of(text)
    return None if claim is None or claim[0] != USER else (claim[1], claim[2])


def clause_claims(text: str) -> list[tuple[str, str, str]]:
    """The claims of each clause of a text that says more than one thing.

    "My name is Dana and I live in Porto" makes no claim as a whole (replacing it would
    lose the name), but its second clause says where the user lives.
    """
    breaks = clause_breaks(text)
    if not breaks:
        return []
    edges = [0, *(b for found in breaks for b in found.span()), len(text)]
    parts = [text[edges[i] : edges[i + 1]] for i in range(0, len(edges), 2)]
    return [claim for part in parts if (claim := claim_of(part))]


def tells_of_leaving(text: str) -> bool:
    """Whether `text` leaves one employer for another in a wording 0020 reads anew."""
    return _LEFT_FOR.search(text) is not None


def states_a_predicate(text: str) -> bool:
    """Whether `text` holds a wording of a one-valued predicate (a claim or not).

    The rules for what makes a claim changed in 0015: these texts are indexed again.
    """
    return any(pattern.search(text) for _, pattern, _ in ONE_VALUE)


_SENTENCE_END = lazy_compile(r"(?<=[.!?])\s+|\n+|,\s+(?=I\b)")
"""Where a sentence ends, or goes on with the user's next one ("I'm Sam, I live in …")."""
_MOST_SENTENCES = 20
_LONGEST_SENTENCE = 400


NEW_ADDRESS_SAID = (
    r"(?:^|(?<=[.!?\n])|(?<=[.!?]\s)|(?<=:\s))\s*[Nn][Ee][Ww]\s+(?i:home\s+)?(?i:address|addy)"
    r"\s*(?:is\b|:)"
)
""""We moved house yesterday! New address is 14 Wattle Ave": a new address opening its
sentence is the user's (a new user, a nurse: "where do I live?" found only the old one)."""
_MY_ADDRESS = lazy_compile(
    r"(?i)\b(?:my|our)\s+(?:new\s+|home\s+|current\s+|postal\s+)?(?:address|addy)\s*(?:is\b|:)"
    r"|\b(?:my|our)\s+(?:new\s+)?(?:flat|apartment|house|place)\s+is\s+(?:at|on|in)\s+\S"
    r"|^\s*(?-i:[A-Z])[\w'\u2019-]+\s+is\s+(?:my\s+)?home\b(?!\s+\w)"
)
""""My address is 12 Rua Augusta", "My flat is at …", "Lisbon is home": found by "where do I
live?" (an adversary: found by none of its words)."""
_NEW_ADDRESS = lazy_compile(NEW_ADDRESS_SAID)
ANOTHER_MOVED = lazy_compile(
    r"(?i)(?<![\w'\u2019-])(?!(?:i|we|i['\u2019]ve|we['\u2019]ve|we['\u2019]re|i['\u2019]m|just|"
    r"finally|have|has|also|recently|already|and|so|we\s+have|i\s+have)\b)[\w'\u2019-]+\s+"
    r"(?:has\s+|have\s+|just\s+|finally\s+|also\s+|recently\s+)*(?:moved|relocated)\b"
    r"|\b(?:moved|relocated)\s+(?!(?:house|home|flats?|apartments?|in|into|to|out|back|over|"
    r"across|here|there|away|last|this|yesterday|today|on|again|at|from|with|countries|cities|"
    r"towns?|abroad)\b)[\w'\u2019-]+"
)
"""Something else moved: "The clinic moved! New address is …", "We moved the office! …" (an
adversary saw each replace the user's home)."""


_MOVED_TO = lazy_compile(
    r"(?i)^\W*(?:(?:we|i)(?:['\u2019]ve|\s+have)?\s+(?:just\s+|finally\s+)?moved"
    r"(?:\s+(?:house|home|flat))?|moved\s+(?:house|home|flat)|finally\s+moved)"
    r"(?:\s+(?:last\s+week|yesterday|today|this\s+week|on\s+\w+))?\s*[!.,:;-]*\s*"
    r"(?:(?:(?:our|my|the)\s+)?new\s+(?:home\s+)?address(?:\s+is\b|\s*:)"
    r"|(?:we['\u2019]re|we\s+are|i['\u2019]m|i\s+am)\s+now\s+(?:at|in)\b"
    r"|(?:we|i)\s+now\s+live\s+(?:at|in)\b)\s*(?P<place>[^!?\n]+?)\s*[.!]?\s*$"
    r"|^\W*(?:we|i)\s+(?:just\s+|finally\s+)?moved\s+into\s+(?P<street>\d[^!?\n]+?)\s*[.!]?\s*$"
)


def user_moved_to(text: str) -> str | None:
    """The home ("I live at …") of a message saying the user moved there in other words.

    "We moved house, new address is 4 Elm Road", "Finally moved! We're now at …", "We
    just moved into 4 Elm Road" each left "I live at 12 Oak Street" in effect (a third
    adversary); "We moved house! New address is …" did not.
    """
    found = _MOVED_TO.match(text)
    if found is None:
        return None
    return f"I live at {found['place'] or found['street']}"


_AN_ADDRESS = lazy_compile(r"(?i)\baddress\b")


def an_address_of_another(clause: str, text: str) -> bool:
    """Whether `clause`, of `text`, gives the address of something else that moved.

    "The clinic moved! New address is …": the clinic's, read as a clause of its own by the
    write rules and in chat (an adversary saw each replace the user's home).
    """
    return _AN_ADDRESS.search(clause) is not None and ANOTHER_MOVED.search(text) is not None


def names_an_address(text: str) -> bool:
    """Whether `text` gives the user's address in words no claim reads (`_MY_ADDRESS`)."""
    return _MY_ADDRESS.search(text) is not None or (
        _NEW_ADDRESS.search(text) is not None and ANOTHER_MOVED.search(text) is None
    )


def every_wording_of(text: str) -> str:
    """`wordings_of` the text, or else of each sentence and clause that makes a claim.

    Found reading a new user's first message: "Hi! My name is Sam and I live in Porto. I
    work at Acme." was found by neither "address" nor "who is my employer": the whole says
    more than one thing, so it claimed nothing.
    """
    if words := wordings_of(text):
        return words
    if names_an_address(text) or user_moved_to(text) is not None or a_home_elsewhere(text):
        return next(words for name, _, words in ONE_VALUE if name == "home")
    folded = text.casefold() if text.isascii() else None
    if folded is not None and not any(cue in folded for cues in _CUES.values() for cue in cues):
        return ""
    said: dict[str, str] = {}
    for sentence in _SENTENCE_END.split(text)[:_MOST_SENTENCES]:
        if len(sentence) > _LONGEST_SENTENCE:
            continue
        claims = [claim] if (claim := claim_of(sentence)) else clause_claims(sentence)
        for owner, name, _ in claims:
            if " " not in owner:  # not someone said by how (see `wordings_of`)
                said[name] = next(words for n, _, words in ONE_VALUE if n == name)
    return " ".join(said.values())


def a_home_elsewhere(text: str) -> bool:
    """Whether `text` gives the user's home and its address in another language.

    "Vivo en calle Mayor 5, Madrid" was found by no "what's my address?" (an adversary), and
    no move replaced it (a new user, a nurse in Madrid).
    """
    said = move_said_in_english(text)
    return said != text and user_moved_to(said) is not None


def wordings_of(text: str) -> str:
    """The words of every wording of the one-valued predicate `text` states of someone.

    "Bob moved to Coimbra" is found by "where does Bob live" as "I moved to Lisbon" is by
    "where do I live" (found by a new user).
    """
    claim = claim_of(text)
    if claim is None or " " in claim[0]:
        # Not for someone said by how ("my brother moved to Oslo"): "where do I live?"
        # found it by "live" (an adversary), and no term can say whose home it is.
        return ""
    return next(words for name, _, words in ONE_VALUE if name == claim[1])

"""The conversation follow-up rule for the backends that rank in `fused_ranking`.

A recalled conversation message brings along the next message of its session (same
namespace, saved after it) if that is a conversation message passing the recall's
filters (never the one after it instead), unless either
message is only a question (`only_asks`) or the next one tells of something new
(`goes_on`): it scores
`conversation_context_weight` times its predecessor, or keeps its own score if higher,
and its scores name the message that brought it in. SQLite applies the same rule in
`memory.sqlite.search`; there equal save times are ordered by row, here by entry id.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import lru_cache

from memory.corrections import corrects_the_last
from memory.entry import MemoryEntry
from memory.fused_ranking import Ranked
from memory.lazy_patterns import lazy_compile
from memory.owners import Person, owner_rank
from memory.questions import CONVERSATION, only_asks
from memory.retrieval import Candidate
from memory.text import REDACTED_MARKER, analyze

_ANEW = lazy_compile(
    r"(?i)^\W*(?:my|our|i|i'm|i've|i'd|i'll|we|we're|we've|mine|"
    # News announced, or a request of the assistant: a new topic as plainly (found by
    # the tenth round's second new user: "New job! …", "Sad news: …", "write me a
    # haiku" came along with unrelated messages).
    r"(?:big|good|great|sad|bad|some|exciting|quick)\s+(?:news|update)|new\s+job|"
    r"guess\s+what|by\s+the\s+way|btw|write|explain|translate|summari[sz]e|convert|"
    r"give\s+me|show\s+me|help\s+me|can\s+you|could\s+you|please|"
    # A request to recall ("Tell me everything you know about Müller.") and the user
    # in German, Spanish, French, Portuguese or Italian (found by a multilingual new user:
    # "Ich habe am 3. einen Zahnarzttermin" came along with a birthday at 0.63).
    r"tell\s+me|remind\s+me|what\s+do\s+you|"
    r"ich|mein\w*|wir|unser\w*|yo|mi|mis|nosotr[oa]s|nuestr[oa]s?|je|j['\u2019]|mon|ma|"
    r"mes|nous|notre|nos|eu|meu|minha|meus|minhas|n[oó]s|noss[oa]s?|io|mio|mia|miei|mie|"
    r"noi|nostr[oaie]|ik|mijn|onze|wij|"
    # "El cumpleaños de mi madre …", "Der Geburtstag meiner Mutter …": the user's, said
    # with an article first.
    r"(?:el|la|los|las|der|die|das|den|dem|le|les)\s+\w+\s+(?:de\s+|von\s+)?"
    r"(?:mi|mis|mein\w*|ma|mon|mes|meu|minha)|"
    # In Korean: "우리 고양이 이름은 보리야", "내 생일은 …", "저는 …".
    r"나는|난|내가|내|저는|전|제가|제|우리|우린|우리집)\b"
)


_GREETING = lazy_compile(
    r"(?i)^\W*(?:hi|hey|hello|hallo|hola|ol[aá]|oi|salut|ciao|ok(?:ay)?|so|well|oh|lol|yo|"
    r"servus|moin|bonjour|buenas)\b[\s,!.:;-]*"
)


@lru_cache(maxsize=2048)
def _words_of(text: str) -> frozenset[str]:
    """Its terms but its bare numbers: "plot 3" goes not on in "… party is sat 19/12 at 3".

    Read once per text: a pasted log of 3,000 lines, read each time it was recalled, took
    a third of the recall's time (a new user, an engineer).
    """
    # Nor a lone CJK character: "일" (day) of "25일에" and of "18일" is no word in common
    # (a new user writing in Korean: the rent brought along a dentist's appointment).
    return frozenset(
        term
        for term in analyze(text)
        if not term.isdigit() and not (len(term) == 1 and not term.isascii())
    )


@lru_cache(maxsize=1)
def _when_words() -> frozenset[str]:
    """Days, months and times of day: a word two notes share that makes them no one topic.

    "Ka Yan needs her PE kit every Weds …" came along with "Inspection moved to Weds 14/04"
    for "when's the inspection?" (a new user, a baker: each note of its own).
    """
    return frozenset(
        analyze(
            "monday tuesday wednesday thursday friday saturday sunday january february "
            "march april june july august september october november december today "
            "tomorrow yesterday tonight morning afternoon evening night week weekend month"
        )
    )


@lru_cache(maxsize=1)
def _money_words() -> frozenset[str]:
    """Currencies: two notes that each name a price are no one topic.

    "La harina subió otra vez … $1,310 MXN" came along with Doña Carmen's order, which
    shared only its "MXN" (a new user, a baker in Guadalajara: the order's correction was
    pushed out of the five shown).
    """
    return frozenset(
        analyze(
            "mxn usd eur gbp inr ngn kes zar aud cad chf jpy cny brl rs rupees pesos peso "
            "dollars dollar euros euro pounds naira reais lakh"
        )
    )


def goes_on(parent: str, follow_up: str) -> bool:
    """Whether `follow_up` goes on with what `parent` said, not on to something else.

    The app saves only the user's messages, so the one after a statement may tell of
    something new: "I work as a nurse at …" brought along "My sister Inês has two kids"
    for "where do I work?" (found by new users). Such a message opens with the user
    ("My …", "I …") and shares no word with the one before, or is a statement of its own
    (six words or more) with no word leaning back on it ("it", "that", "the rest" …). An
    answer to what the assistant asked ("Seven years now", "Thanks! We just did …") goes
    on, as LoCoMo's answers to the other speaker do: kept, they keep the rule's recall
    there. The statement rule costs LoCoMo's user-side recall@5 0.002 on the tuning half,
    nothing on the check half nor with both speakers: measured, and taken for the app,
    where each note may be of its own.
    """
    # A greeting first says nothing: "Hallo, mein Zahnarzt heißt jetzt Dr. Weber" came along
    # with "my fern is called Fernando" at 0.7 (an adversary).
    said = _GREETING.sub("", _SPEAKER.sub("", follow_up, count=1), count=1)
    if corrects_the_last(follow_up):
        # A correction naming nothing is read with the message it corrects (a recalled one
        # it puts right is marked so): brought along, it read as moving the dentist, when
        # it put right a fact made of the message between them (an adversary).
        return False
    if _of_someone_named(said, parent):
        return False
    if (_words_of(parent) & _words_of(follow_up)) - _when_words() - _money_words():
        return True
    if _ANEW.match(said) is not None:
        return False
    # A statement of its own that leans on nothing before it: "plumber is Gerry, his number
    # is 087 …" came along with "Marta paid 1000 of the december rent …" for "has Marta
    # paid december" (a landlord's notes, each of its own; found by a new user).
    first = _FIRST_WORD.match(said)
    words = follow_up.split()
    if len(words) <= _PASTED_WORDS and any(_A_LINK_OR_CODE.search(word) for word in words):
        # A link or a code pasted alone is no reply to what came before: "otpauth://totp/…",
        # pasted by mistake, came along with the school excursion (a new user, a nurse).
        return False
    # Korean says in three words what English says in six: "비자 만료 2027년 1월 10일" came
    # along with a dentist's appointment (a new user writing in Korean).
    in_korean = 2 * sum(1 for word in words if _HANGUL.search(word)) > len(words)
    return (
        len(words) < (_STATEMENT_WORDS_IN_KOREAN if in_korean else _STATEMENT_WORDS)
        or first is None
        or first.group(1).casefold() in _LEANING_BACK
        or _CALLED_BY_NAME.match(said) is not None
        or _GOES_ON_WITH.match(said) is not None
        or _points_back(said)
    )


_SOMEONE_DOES = lazy_compile(
    r"\W*([A-Z][a-z]+)\s+(?:takes|has|is|was|gets|needs|works|lives|owes)\b"
)
_OF_THE_USER = lazy_compile(r"(?i)^\W*(?:i|i'm|i've|my)\b")


def _of_someone_named(said: str, parent: str) -> bool:
    """Whether `said` tells of someone by name whom `parent`, of the user, does not name.

    "Tom takes 1000mg of paracetamol for his back" came along with "I take metformin 500mg"
    for "what dose of metformin do I take?" by "take" alone (an adversary).
    """
    found = _SOMEONE_DOES.match(said)
    return (
        found is not None
        and _OF_THE_USER.match(parent) is not None
        and found[1].casefold() not in parent.casefold()
    )


_CLAUSE_BREAK = lazy_compile(r"[,.;:!?\u2014\u2013]+|\s-\s")
_POINTING_WITHIN = 5
"""A word pointing back opens its clause: "…, it is wonderful"; far into a note of its own
it points at that note ("the pin for the … account is … dont go showing that around" came
along with a cake order: a new user, a baker). LoCoMo's user-side recall@5: 0.651 → 0.648
on the tuning half, unchanged on the check half and with both speakers."""


def _points_back(said: str) -> bool:
    for clause in _CLAUSE_BREAK.split(REDACTED_MARKER.sub("secret", said)):
        words = clause.split()
        # A word after them is read too, so that "this Sunday" is a day, not a pointer;
        # only a word among the first few points back.
        opening = len(" ".join(words[:_POINTING_WITHIN]))
        read = " ".join(words[: _POINTING_WITHIN + 1])
        if any(found.start() < opening for found in _POINTS_BACK.finditer(read)):
            return True
    return False


_PASTED_WORDS = 2
_A_LINK_OR_CODE = lazy_compile(r"://|^www\.|^\S{30,}$")
_SPEAKER = lazy_compile(r"^\s*[A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*)?:\s+")
"""Who speaks, before a line of a transcript ("Caroline: It taught me …")."""
_FIRST_WORD = lazy_compile(r"\W*([\w'\u2019]+)")
_GOES_ON_WITH = lazy_compile(
    r"(?i)\W*(?:the\s+(?:rest|other|same|second|last)|which|because|since|then|plus|too|both|"
    r"either|neither)\b"
)
""""the rest she pays next friday" after "Marta paid 1000 of the december rent"."""
_POINTS_BACK = lazy_compile(
    r"(?i)\b(?:it|it['\u2019]s|that|that['\u2019]s|this|they|they['\u2019]re|them|those|these)\b"
    # "this Sunday" points at a day to come, not at what was said before: "Jo's swapping
    # with Tomasz this Sunday …" came along with the dairy's new number (a new user).
    r"(?:(?<!\bthis)(?<!\bthese)|(?!\s+(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?"
    r"|sun)(?:day)?s?|morning|afternoon|evening|night|week(?:end)?|month|year|time|days|term)\b))"
)
"""A word pointing at what was said before, anywhere in the message: "Becoming Nicole by
Amy Ellis Nutt, it is wonderful" after "I am reading a memoir at the moment"."""
_CALLED_BY_NAME = lazy_compile(r"\W*[A-Z][a-z]+\s*[,!]")
"""A reply to whom it names: "Melanie, that's amazing!" (LoCoMo's speakers)."""
_STATEMENT_WORDS = 6
_STATEMENT_WORDS_IN_KOREAN = 3
_HANGUL = lazy_compile(r"[\uac00-\ud7af]")
"""A message this long sharing no word with the one before says something of its own,
unless its first word leans back on it (`_LEANING_BACK`)."""
_LEANING_BACK = frozenset(
    "it its it's that that's this they they're he he's she she's them there and but so "
    "yes yeah yep no nope thanks thank haha lol wow oh ah aw awesome sure ok okay well great "
    "cool nice congrats congratulations sounds glad sorry hmm true exactly definitely totally "
    "really".split()
)
"""Words opening a message that goes on with the one before: "It was so powerful …". Not
"also": "Also the car rego is due 14/01" came along with a night-shift roster (a new user, a
nurse); LoCoMo's recall@5 is unchanged without it, in both modes and halves."""


FOLLOW_UP_WITHIN = timedelta(hours=6)
"""How long after its parent a message may be said to go on with it. Found by a new user, a
baker: a chat taken up again days later, or whose messages between had been deleted at 30
days, brought "I take amlodipine 5mg every morning" along with the flour delivery. The turns
of a LoCoMo session share its time: the benchmark is unchanged."""


def said_soon_after(parent_at: datetime | None, follow_up_at: datetime | None) -> bool:
    """Whether a message said at `follow_up_at` is soon enough after its parent to go on.

    A time not known (a damaged row) stops nothing.
    """
    if parent_at is None or follow_up_at is None:
        return True
    return follow_up_at - parent_at <= FOLLOW_UP_WITHIN


def parents(ranked: list[Ranked], limit: int) -> list[Ranked]:
    """The candidates whose follow-ups are looked for: the first `limit`, scored above 0."""
    return [item for item in ranked[:limit] if item.fused > 0]


def has_follow_up(entry: MemoryEntry) -> bool:
    """Whether `entry` is a message that brings along the next message of its session.

    Not a question alone: the next message is the user's next request ("is the weather
    nice?" brought along "J'habite à Lyon depuis 2019", found by an adversary).
    """
    return (
        entry.category == CONVERSATION
        and entry.session_id is not None
        and not only_asks(entry.content)
    )


def deleted_between(deleted: Sequence[datetime], after: datetime, before: datetime) -> bool:
    """Whether one of a chat's deleted messages (their save times, in order) lies between.

    Then the later message is no longer the next: a new user's "Hi, I am Hana … rent is
    15 000 Kč" brought along a pasted .env said after four messages retention had removed.
    """
    at = bisect.bisect_right(deleted, after)
    return at < len(deleted) and deleted[at] < before


def first_after(parent: MemoryEntry, later: list[MemoryEntry]) -> MemoryEntry | None:
    """The first of `later` that comes after `parent` in its session (by save time, then id).

    `later`: the session's messages saved at or after `parent`.
    """
    after = [
        entry
        for entry in later
        if (entry.timestamp, entry.id) > (parent.timestamp, parent.id)
        and entry.session_id == parent.session_id
        and entry.namespace == parent.namespace
    ]
    return min(after, key=lambda entry: (entry.timestamp, entry.id), default=None)


@dataclass(frozen=True)
class FollowUp:
    """A parent's next message, by the ids the ranking uses.

    A backend may rank by another id than the entry's (a Qdrant point id).
    """

    parent: str
    """The parent's id in the ranking."""
    parent_entry: str
    """The parent's entry id (what the scores name)."""
    ranked_as: str
    """The follow-up's id in the ranking."""
    entry: MemoryEntry
    parent_said: str
    """The parent's text (whether the follow-up goes on with it: `goes_on`)."""
    parent_at: datetime | None = None
    """When the parent was said (a follow-up said much later is none: `said_soon_after`)."""


def with_follow_ups(
    ranked: list[Ranked], follow_ups: list[FollowUp], weight: float, asked: Person | None = None
) -> list[Ranked]:
    """`ranked` with each parent's follow-up scored in.

    Parents are scored as `ranked` has them (a follow-up does not bring its own). Ordered
    as `memory.fused_ranking.order` orders (`asked`: whom the query asks about).
    """
    scores = {item.entry_id: item.fused for item in ranked}
    current = {item.entry_id: item for item in ranked}
    changed = False
    for follow_up in follow_ups:
        if (
            only_asks(follow_up.entry.content)
            or not goes_on(follow_up.parent_said, follow_up.entry.content)
            or not said_soon_after(follow_up.parent_at, follow_up.entry.timestamp)
        ):
            continue
        derived = round(weight * scores[follow_up.parent], 6)
        held = current.get(follow_up.ranked_as)
        if held is not None and held.fused >= derived:
            continue
        candidate = (
            Candidate(seq=len(current), context_of=follow_up.parent_entry)
            if held is None
            else replace(held.candidate, context_of=follow_up.parent_entry)
        )
        current[follow_up.ranked_as] = Ranked(
            derived, follow_up.ranked_as, follow_up.entry.key, candidate
        )
        changed = True
    if not changed:
        return ranked
    return sorted(
        current.values(),
        key=lambda item: (-item.fused, owner_rank(asked, item.candidate.terms), item.key),
    )

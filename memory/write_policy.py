"""Write-time decisions every backend makes alike: duplicates, near-duplicates, conflicts.

"Same subject" is judged lexically: the share of the shorter text's words (stemmed, stop
words dropped) that the other contains. "The user prefers Rust" and "The user prefers
Python" share two of three words, so the newer supersedes the older; "… cat is Miso" and
"… dog is Rex" share one, so both stay. Facts whose subjects (the words before their verb)
differ are never one fact: "Alice's phone number is …" and "Bob's phone number is …" both
stay, as do a sister and a brother who both live in Porto. A lexical test still misjudges
some pairs: superseded entries are kept as history and restorable for that reason.

The functions here decide; each backend carries the decision out in its own storage
(SQLite inside one transaction, the others through `memory.write_rules`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from memory.changes_to_come import a_change_to_come
from memory.diets import diet_wordings
from memory.entry import MemoryCategory
from memory.event_days import (
    called_off_before,
    cancels_it,
    days_named,
    leaves_its_day,
    moves_it,
    on_other_days,
    one_time_of,
    several_events,
)
from memory.fact_subjects import (
    WRITTEN_WITH_DOTS,
    a_measure_beside_an_age,
    change_terms,
    contradicts,
    family_or_a_name,
    numbered_alike,
    one_fact,
    one_name_two_people,
    only_a_person_shared,
    related_apart,
    told_of_before,
)
from memory.fact_values import new_value, one_by_first_name, predicate_terms
from memory.health_values import medicines_without_foreign_endings, speaks_of_health
from memory.instead_of import takes_the_place_of
from memory.kin_words import kin_said_in_english
from memory.lazy_patterns import lazy_compile
from memory.lists import (
    fewer_items,
    of_what_a_record_is_about,
    one_item_of_a_list,
    one_value_of_several,
)
from memory.other_ones import another_of_them, one_milestone_dated_anew, said_of_other_people
from memory.plain_order import as_it_is_now
from memory.predicates import an_address_of_another, relations_alike, user_claim
from memory.questions import only_asks
from memory.relative_dates import NamedDays, named_days
from memory.settings import MemorySettings
from memory.stated_prices import new_price
from memory.stated_values import other_payees, pays_off, two_debts
from memory.text import analyze

_WORD = lazy_compile(r"\w+")
_NUMBER_WRITTEN = lazy_compile(r"\d+(?:[./:,-]\d+)*")
_END_MARKS = " .!?…"

SIMILAR_LIMIT = 10
"""Active entries sharing words that a write compares itself with."""


def content_hash(text: str) -> str:
    """Identity of a text for exact-duplicate detection: case, spacing and end marks ignored."""
    # Spaces made single (`split` breaks at what `\s` matches), then stripping end marks
    # is what `[\s.!?…]+$` did.
    normal = " ".join(text.casefold().split()).rstrip(_END_MARKS)
    return hashlib.sha256(normal.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _share(left: set[str], right: set[str]) -> tuple[float, int]:
    """Share of the smaller set of distinct terms found in the other, and how many."""
    if not left or not right:
        return 0.0, 0
    shared = len(left & right)
    return shared / min(len(left), len(right)), shared


def _words(terms: set[str]) -> set[str]:
    """What a text is about: its terms but numbers ("2024", "9am") and words of change.

    The words of change are `memory.fact_subjects.change_terms`: "Got my new study permit!
    It now expires 31/08/2029" shared three words of five with "My study permit expires
    30/09/2027 (my Canadian visa, renew via IRCC)", a fact the user had added to in the
    inspector, and stood beside it (a new user, a student: the old date was given first).
    """
    return {term for term in terms if not term[:1].isdigit() and term not in change_terms()}


def adds_nothing(new: str, old: str) -> bool:
    """Whether storing `new` beside `old` would add no information.

    True when every word of `new` (case aside; stop words, numbers and word forms count, so
    "not", "2019" or "worked" are never dropped) is in `old`, and `new` is not the same
    words in another order ("Ana owes Bob" is not "Bob owes Ana").
    """
    new_words = _WORD.findall(new.casefold())
    old_words = _WORD.findall(old.casefold())
    if not set(new_words) <= set(old_words):
        return False
    # A number as written: "4/4" is not in "3/4", though "4" is (an adversary: "Mum's
    # birthday is 4/4" was "already remembered" as the 3/4 one, and lost).
    if not set(_NUMBER_WRITTEN.findall(new)) <= set(_NUMBER_WRITTEN.findall(old)):
        return False
    # An e-mail as written: "dana@gmail.com" is not in "dana.smith@gmail.com", though each
    # of its words is (an adversary: the new e-mail was "already remembered", and lost).
    if not {v.casefold() for v in WRITTEN_WITH_DOTS.findall(new)} <= {
        v.casefold() for v in WRITTEN_WITH_DOTS.findall(old)
    }:
        return False
    return set(new_words) != set(old_words) or new_words == old_words


def reordered(new: str, old: str) -> bool:
    """Whether the words both texts hold come in another order in each.

    "I prefer coffee over tea" is no near-duplicate of "I prefer tea over coffee" to merge
    into it: found by a new user, the merged fact kept the key "i_prefer_tea_over_coffee"
    and no line said what it replaced. As a changed fact it replaces the other, and says so.
    """
    ours, theirs = analyze(new), analyze(old)
    shared = set(ours) & set(theirs)

    def in_order(terms: list[str]) -> list[str]:
        return list(dict.fromkeys(term for term in terms if term in shared))

    return in_order(ours) != in_order(theirs)


@dataclass(frozen=True)
class Similar:
    """An active entry that resembles the one being written."""

    seq: int
    """The backend's own handle for the entry (SQLite's row number; 0 elsewhere)."""
    id: str
    key: str
    content: str
    overlap: float
    shared: int
    subject_overlap: float = 0.0
    """`overlap` of the words alone: what two facts are about, not the numbers they hold."""
    subject_shared: int = 0


def lookup_terms(content: str) -> list[str]:
    """The words a write looks for its similar entries by: its own, and its predicate's.

    Every wording of a one-valued predicate joins in (`predicate_terms`), so "I moved to
    Lisbon" finds "I live in Porto", which it replaces.
    """
    # "Non prendo più l'omeprazolo" finds "I take 20mg of omeprazole", which it ends.
    medicines = analyze(medicines_without_foreign_endings(content))
    relatives = analyze(" ".join(relations_alike(content)))
    diets = analyze(diet_wordings(content))  # "I eat fish now" finds "I'm vegetarian"
    return list(
        dict.fromkeys(
            [*analyze(content), *predicate_terms(content), *medicines, *relatives, *diets]
        )
    )


def said_of_other_days(new: str, new_said: datetime, old: str, old_said: datetime) -> bool:
    """Whether both name days in the same words, each from when it was said, but not one day.

    Found by an adversary: "Dentist tomorrow at 9am" said today was "already remembered"
    as the same words said two weeks ago, and today's appointment was lost (a message
    said again after midnight, too). Words alike, days apart: another fact. Not a day
    named otherwise: "The Schmidt deadline moved to next Tuesday" changes "… is Friday".
    """
    ours = named_days(new, new_said)
    if not ours:
        return False
    theirs = named_days(old, old_said)
    if [_as_said(named) for named in ours] != [_as_said(named) for named in theirs]:
        return False
    return [named.spans for named in ours] != [named.spans for named in theirs]


def key_for_another_day(key: str, said: datetime, longest: int) -> str:
    """The key a write takes when its key's holder names the same day words of another day.

    The CLI and /remember make a key from the text, and a model reuses its own: "Dentist
    tomorrow at 9am" said two weeks later came to the old entry's key and was "already
    remembered", and the new appointment was lost (found by an adversary). The day it was
    said keeps the two apart.
    """
    suffix = f"_{said.astimezone():%Y%m%d}"
    return key[: max(longest - len(suffix), 1)] + suffix


def _as_said(named: NamedDays) -> str:
    return " ".join(named.words.casefold().split())


def ranked_similar(content: str, candidates: Sequence[tuple[int, str, str, str]]) -> list[Similar]:
    """`candidates` (seq, id, key, content) measured against `content`, most similar first."""
    found = []
    terms = set(analyze(content))
    words = _words(terms)
    for seq, entry_id, key, other in candidates:
        other_terms = set(analyze(other))  # each text analysed once, for both shares
        ratio, shared = _share(terms, other_terms)
        subject, about = _share(words, _words(other_terms))
        found.append(Similar(seq, entry_id, key, other, ratio, shared, subject, about))
    return sorted(found, key=lambda s: (-s.overlap, -s.shared))


KeyAction = Literal["refresh", "new version", "in place"]


def for_existing_key(
    *, active: bool, same_content: bool, is_core: bool, same_text: bool | None = None
) -> KeyAction:
    """What a write under a key that already holds an entry does.

    The same text only refreshes metadata; a changed core fact becomes a new version (the
    old one kept as superseded history); anything else is updated in place, keeping its id
    and creation time. (A key holding only history is written as a new key.)

    `same_content` compares as duplicates are found (case, spacing and end marks aside);
    `same_text` exactly. Text that differs only so is written in place, no new version:
    found by an adversary, an edit that added "!" or fixed a capital was thrown away, the
    inspector saying "Saved".
    """
    if active and same_content:
        return "refresh" if same_text in (None, True) else "in place"
    if active and is_core:
        return "new version"
    return "in place"


@dataclass(frozen=True)
class Placement:
    """Where a new key's content goes."""

    action: Literal["insert", "keep existing", "refresh existing", "merge"]
    target: Similar | None = None
    """The stored entry that is kept, refreshed or merged into."""
    conflicts: tuple[Similar, ...] = ()
    """Active core facts about the same subject, superseded by the inserted entry."""


def needs_similar(category: str) -> bool:
    """Whether a new key's content is compared with similar entries (a chat turn is not)."""
    return category != MemoryCategory.CONVERSATION.value


def is_core_update(category: str, settings: MemorySettings) -> bool:
    """Whether a core fact's change supersedes what it replaces (the setting allows it)."""
    return category == MemoryCategory.CORE.value and settings.supersede_core_updates


_AN_ASIDE_ON_THE_CHANGE = lazy_compile(
    r"(?i)\s*\((?=[^()\n]*\b(?:rotated|changed|updated|renewed|replaced|reset|regenerated|"
    r"since|as\s+of|new)\b)[^()\n]{1,60}\)[ \t.!]*$"
)
"""A remark on the change closing the new value, read as no part of it: "stripe live key
… is sk_live_… (rotated 9 Feb)", "Amma's new number is … (she changed her SIM)" (a new
user, an engineer: each was kept beside the old one, which was given first)."""


def place_new(
    content: str, similar: Sequence[Similar], settings: MemorySettings, *, is_core: bool
) -> Placement:
    """The decision for a new key, after exact duplicates were ruled out.

    A near-duplicate is rejected, merged or kept per `duplicate_policy`; merging a text
    that adds nothing only refreshes the stored entry. A core fact about the same subject
    as active ones supersedes them. A fact said value first is read in the usual order
    (`memory.plain_order`).
    """
    if a_change_to_come(content):
        # Only another change to come may be one with it: what holds now stays in effect
        # until then ("going up to 1520 from february" took the rent due now).
        similar = [s for s in similar if a_change_to_come(s.content)]
    # Family by one word whichever is typed: "Mum's phone is …" replaces "Mom's phone is …"
    # and "Mãe's phone is …" (a third adversary saw four numbers for one mother in effect).
    content = kin_said_in_english(_AN_ASIDE_ON_THE_CHANGE.sub("", as_it_is_now(content)))
    similar = [replace(s, content=kin_said_in_english(as_it_is_now(s.content))) for s in similar]
    # A near-duplicate says the same of the same thing: not the same words about another
    # person ("Alice's/Bob's flight LH1234 … gate 12"), nor one that denies the other, nor
    # a home or employer held now beside a plan or a wish of one ("We moved to Sintra" was
    # merged into "We might move to Sintra next year", and "I live in Lisbon" stayed in
    # effect: found by a new user).
    near = [
        s
        for s in similar
        if s.overlap >= settings.near_duplicate_overlap
        and s.shared >= 2
        and one_fact(content, s.content)
        and not contradicts(content, s.content)
        and not reordered(content, s.content)
        and not a_measure_beside_an_age(content, s.content)
        and not said_of_other_people(content, s.content)
        and not other_payees(content, s.content)
        and not two_debts(content, s.content)
        and (user_claim(content) is None) == (user_claim(s.content) is None)
        # "Noah is 4" merged into "Noah's birthday 30/9 he turns 4" took its day away (a
        # new user): a text naming no day is no version of one naming a day.
        and not (days_named(s.content) and not days_named(content))
    ]
    if near and settings.duplicate_policy == "reject":
        return Placement("keep existing", near[0])
    if near and settings.duplicate_policy == "merge":
        if adds_nothing(content, near[0].content) and not fewer_items(content, near[0].content):
            return Placement("refresh existing", near[0])
        return Placement("merge", near[0])
    # Same subject by the words: a date or a time two facts share does not make them one
    # fact ("Dentist on 13.10.2024" was superseded by "Haircut on 13.10.2024").
    # A one-valued predicate's new value replaces the old one with fewer words shared.
    # Health facts are decided by what each says of an allergy or a dose alone: "I take
    # 500mg of metformin" shares its subject's words with "I take 10mg of lisinopril" and
    # replaced it, as "I'm not allergic to cats" replaced "My mother is allergic to cats".
    if not is_core or only_asks(content):
        # A question changes nothing: "Is the dentist moved to 21/12?", stored, replaced
        # "Dentist on 14/12 at 9am" (an adversary).
        return Placement("insert")
    by_value = one_by_first_name(
        content,
        tuple(
            s
            for s in similar
            if new_value(content, s.content) and not another_of_them(content, s.content)
        ),
    )
    by_words = tuple(
        s
        for s in similar
        if s not in by_value
        and not (speaks_of_health(content) or speaks_of_health(s.content))
        and s.subject_overlap >= settings.conflict_overlap
        and s.subject_shared >= 2
        and one_fact(content, s.content)
        and not told_of_before(content, s.content)
        and not only_a_person_shared(content, s.content)
        # "My dentist 22/1" is not "Rory's dentist 22/1" (a new user saw it replaced).
        and not said_of_other_people(content, s.content)
        and not one_item_of_a_list(content, s.content)
        and not of_what_a_record_is_about(content, s.content)
        and not one_value_of_several(content, s.content)
        and not on_other_days(content, s.content)
        and not leaves_its_day(content, s.content)
        and not one_time_of(content, s.content)
        and not called_off_before(content)
        and not two_debts(content, s.content)
        and not other_payees(content, s.content)
        # An event is not the fact it names: "GP appointment with Dr Nguyen on 15/12"
        # replaced "My GP is Dr Nguyen at Camberwell Medical Centre" (a new user).
        and not (days_named(content) and not days_named(s.content))
    )
    # A numbered thing's new state: "Ticket 5512 is closed" after "Ticket 5512 is open" (a
    # second adversary saw both stay in effect; a number is no word of a subject).
    by_number = tuple(
        s
        for s in similar
        if s not in by_value
        and s not in by_words
        and numbered_alike(content, s.content)
        and _few_words(content)
        and _few_words(s.content)
        and one_fact(content, s.content)
        # "Mum's birthday dinner on 5/4" shares the 4 of "Mum's birthday is 3/4" (an
        # adversary): a day's numbers number no thing.
        and not on_other_days(content, s.content)
        # "Flat 2 tenant is Marta" is no new state of "Lease for flat 2 ends 31/3/2027" (a
        # later adversary): one names a day, the other none.
        and bool(days_named(content)) == bool(days_named(s.content))
    )
    closest = _closest_of(by_words)
    if several_events([c.content for c in closest]):
        closest = ()
    moves = tuple(
        s
        for s in similar
        if s not in by_value + by_number
        and (moves_it(content, s.content) or cancels_it(content, s.content))
        and not one_time_of(content, s.content)
    )
    if several_events([c.content for c in moves]):
        # Which one it moves it does not say, though one is also the closest in words
        # ("dentist moved to 29/1" replaced Rory's dentist and the user's: a new user).
        closest, moves = tuple(c for c in closest if c not in moves), ()
    moved = tuple(s for s in moves if s not in closest)
    priced = tuple(
        s
        for s in similar
        if s not in by_value
        and new_price(content, s.content)
        and not said_of_other_people(content, s.content)
    )
    paid = tuple(s for s in similar if s not in by_value and pays_off(content, s.content))
    if len(paid) > 1:
        # "paid Priya back" pays one of two debts, and says not which; nor does "Silva paid
        # 640" of two debts of 640 for two invoices (an adversary saw both go).
        paid = ()
    # "Aoife now works the Saturday shift instead of Ciarán" replaces "Ciarán works the
    # Saturday shift" (a new user, a baker: both stayed in effect).
    instead = tuple(s for s in similar if takes_the_place_of(content, s.content))
    # "The billing migration ships on 21 January" after "… ships on 14 January" under
    # another key (a new user, an engineer: both kept, both recalled).
    anew = tuple(s for s in similar if one_milestone_dated_anew(content, s.content))
    conflicts = tuple(
        dict.fromkeys(by_value + by_number + closest + moved + priced + paid + instead + anew)
    )
    conflicts = _of_one_person(content, conflicts, similar)
    conflicts = tuple(c for c in conflicts if not family_or_a_name(content, c.content))
    later = _replaced_by_later_clauses(content, similar, settings)
    return Placement("insert", conflicts=tuple(dict.fromkeys(conflicts + later)))


_CLAUSE_BREAK = lazy_compile(r"\s*;\s*|(?<=[a-z]{3}[.!?])\s+(?=[A-Z])")
"""A semicolon, or a sentence's end: not "prof. duarte" (a new user's meetings with him
replaced her thesis deadlines), "Dr. Silva"."""
_FEWEST_CLAUSE_WORDS = 3


def _later_clauses(content: str) -> list[str]:
    """The clauses after the first, each of a few words at least (the whole is read too)."""
    clauses = _CLAUSE_BREAK.split(content)
    return [c for c in clauses[1:] if len(c.split()) >= _FEWEST_CLAUSE_WORDS]


def _replaced_by_later_clauses(
    content: str, similar: Sequence[Similar], settings: MemorySettings
) -> tuple[Similar, ...]:
    """What a clause after the first replaces, read as a fact of its own.

    "Miguel left the company; my teammates are now Joana and Priya" left "My teammates
    are Joana, Miguel and Priya" in effect (a new user, an engineer): the whole was read
    as a fact of Miguel's.
    """
    found: dict[str, Similar] = {}
    by_id = {s.id: s for s in similar}
    for clause in _later_clauses(content):
        if an_address_of_another(clause, content):
            continue  # "The clinic moved! New address is …": the clinic's (an adversary)
        ranked = ranked_similar(clause, [(s.seq, s.id, s.key, s.content) for s in similar])
        placed = place_new(clause, ranked, settings, is_core=True)
        if placed.action == "insert":
            found.update((c.id, by_id[c.id]) for c in placed.conflicts if c.id in by_id)
    return tuple(found.values())


_FEW_WORDS = 8
"""Words of a short state of a numbered thing; a longer text says more than its state."""


def _few_words(text: str) -> bool:
    return len(text.split()) <= _FEW_WORDS


def _of_one_person(
    content: str, conflicts: tuple[Similar, ...], similar: Sequence[Similar]
) -> tuple[Similar, ...]:
    """The conflicts, less those whose person another fact says is someone else.

    Found by an adversary: with "My boss Alex's birthday is March 10" and "My partner
    Alex's birthday is March 14" in effect, "Alex's birthday is March 16" replaced both;
    which Alex it means, it does not say, so it replaces neither. Nor when the other Alex
    is known by another fact ("My boss Alex works at Initech": a third adversary).
    """
    return tuple(
        c
        for c in conflicts
        if not any(o is not c and related_apart(c.content, o.content) for o in conflicts)
        and not any(
            o.id != c.id
            and (
                one_name_two_people(content, c.content, o.content)
                # Nor the other way: "My boss Alex's birthday is June 9" replaced "Alex's
                # birthday is May 3", said of either Alex (a fourth adversary).
                or one_name_two_people(c.content, content, o.content)
            )
            for o in similar
        )
    )


def _closest_of(conflicts: tuple[Similar, ...]) -> tuple[Similar, ...]:
    """Of several facts a new one would replace by its words, those it is closest to.

    Found by an adversary: "I have a meeting with the team on Friday" replaced both the
    design team's Monday meeting and the sales team's Tuesday one, and a later "Meeting with
    the design team every Monday at 11" the Friday one with its own. The new fact replaces
    the ones sharing most of its words; when those are facts that stood side by side, it
    says less than either, and is a third.
    """
    if len(conflicts) < 2:
        return conflicts
    best = max(c.subject_overlap for c in conflicts)
    closest = tuple(c for c in conflicts if c.subject_overlap >= best - _NEAR)
    apart = any(
        not (one_fact(a.content, b.content) or one_fact(b.content, a.content))
        for at, a in enumerate(closest)
        for b in closest[at + 1 :]
    )
    return () if apart else closest


_NEAR = 0.05
"""How much less of the new fact's words an old one may share and still be replaced."""


def merge_note(new_key: str, kept_id: str) -> str:
    """The audit text of a merge: what changed the entry and where its old version is."""
    return (
        f"a near-duplicate memory (stored as key {new_key!r}) changed this entry; this "
        f"version is kept as superseded entry {kept_id} (restore it to bring it back)"
    )

"""A message that says a home, an employer, a health fact or a contact changed updates it.

"Big news: we moved to Lisbon!" said in a chat left "I live in Berlin" in effect unless the
model stored the change; the message expired with conversation retention (30 days) and
only the stale fact was left (found by a new user). The rule is narrow: a sentence that
states the user's own home or employer plainly (`memory.predicates.claim_of`: no question,
wish, condition, plan or other person), against a fact in effect that gives another
value, in a message said in earnest (`memory.own_words`). It never makes a fact the user
did not have. The clause, as saved (so redacted) and without the words announcing it,
becomes the fact's new version under its key, and the old one its history: restorable,
and said in the chat.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agent.after_turn import fold_into_facts
from agent.events import MemorySaved, Notice
from agent.memory_editing import saying_otherwise
from agent.secret_changes import facts_with_the_old_secret, old_secret_notice, secret_said_changed
from memory.asked_first import asked_first, hedged, told_before_asking
from memory.changes_to_come import a_change_to_come
from memory.claims_elsewhere import said_in_english
from memory.diets import diet_of
from memory.entry import MemorySource
from memory.errors import MemoryStoreError
from memory.fact_endings import says_paid
from memory.fact_subjects import one_name_two_people
from memory.fact_values import home_moved_to, new_value, one_by_first_name, user_value
from memory.health_values import dose_named, health_changed, health_values
from memory.lazy_patterns import lazy_compile
from memory.other_ones import of_someone_else
from memory.own_words import one_more_value, said_in_earnest
from memory.plain_order import in_plain_order
from memory.predicates import (
    LEAD_IN,
    USER,
    an_address_of_another,
    claim_of,
    says_more,
)
from memory.stated_values import claim_pieces
from memory.text import analyze
from memory.write_rules import another_one

if TYPE_CHECKING:
    from memory.entry import MemoryEntry
    from memory.protocol import Memory

_LONGEST_SENTENCE = 300
"""A longer "sentence" is a pasted text, not a statement about oneself."""
_VALUE_ENDS = lazy_compile(
    r"\s*(?:,(?=\s*(?-i:I\b|[a-z]))|[;(\[])|\s+[-–—]\s"
    r"|\s+(?i:so|where|which|because|while|whereas|but)\b"
)
"""Where the value ends: "I moved to Madrid, my password is …" keeps only the move (an
adversary saw the rest of the sentence made part of the fact)."""
_TWO_VALUES = lazy_compile(r"(?i)\s(?:and|or|&|\+)\s|/")
""""I work at Google and Meta": a value beside the other, not instead of it."""
_JOINED = lazy_compile(r"(?i)\bjoin(?:ed|s|ing)?\b")
_NOT_AN_EMPLOYER = lazy_compile(
    r"(?i)\b(?:for|on|in|at|to|with)\s|\b(?:reddit|twitter|facebook|instagram|tiktok|"
    r"discord|mastodon|bluesky|threads|linkedin|github|strava|duolingo|gym|club|choir|band|"
    r"league|call|meeting|group|class|course|chat|server|waitlist)\b"
)
"""What one joins that is no employer ("I joined Google for lunch", "I joined Reddit")."""


@dataclass(frozen=True)
class SaidChange:
    """A fact a message updated, or one it could not update.

    `updated` is the new version and `replaced` the one it replaced; `updated` is None for
    a fact that says more than the changed value, left as it is.
    """

    updated: MemoryEntry | None
    replaced: MemoryEntry


def claimed(message: str) -> list[tuple[str, str]]:
    """(predicate, clause) of each clause stating the user's home or employer.

    Nothing from a message that quotes, lists or takes a claim back (`memory.own_words`),
    from a value held beside the other ("half the year", "part-time"), or for a predicate
    the message gives two values ("I moved to Lisbon. Actually no, I moved to Madrid."):
    found by an adversary, each changed the fact wrongly.
    """
    if not said_in_earnest(message):
        return []
    if (home := home_moved_to(message)) is not None:
        # "We just moved into 4 Elm Road, Leeds" (a third adversary: no home was changed).
        return [("home", home)]
    found: dict[str, list[tuple[str, str]]] = {}
    attributes: list[str] = []
    for clause in claim_pieces(message):
        # "Dr. Ng is my doctor now, Patel retired" read as "My doctor is Dr. Ng now, …"
        # (an adversary: it updated nothing).
        clause = in_plain_order(said_in_english(clause))
        if len(clause) > _LONGEST_SENTENCE or one_more_value(clause) or a_change_to_come(clause):
            continue  # "I start at Google in January" changes nothing yet (an adversary)
        # An invoice paid too: "Herr Yilmaz hat die Rechnung 2027-031 heute bezahlt" left
        # "Rechnung Nr. 2027-031 … ist noch offen" in effect, and once the message was
        # deleted, it alone (a new user, an electrician).
        if _a_health_fact(clause) or _a_new_contact(clause) or says_paid(clause):
            if asked_first(clause) or hedged(clause):
                # "should mom take Concor 5mg?", "does mom take Concor 5mg now" each
                # replaced her 10 mg (an adversary).
                continue
            if not an_address_of_another(clause, message):
                # "The clinic moved! New address is …" is the clinic's (an adversary).
                attributes.append(told_before_asking(clause).rstrip(",;:–— "))
            continue
        claim = claim_of(clause)
        if claim is None or claim[0] != USER:
            continue
        value = _VALUE_ENDS.split(claim[2], maxsplit=1)[0]
        if _TWO_VALUES.search(value) or not value.strip():
            continue
        if claim[1] == "employer" and _JOINED.search(clause) and _NOT_AN_EMPLOYER.search(value):
            continue
        at = clause.rfind(claim[2])
        said = clause[: at + len(value)].rstrip() if at >= 0 and value != claim[2] else clause
        said = said.rstrip(",;:–— ")
        found.setdefault(claim[1], []).append((value, said))
    if (
        not any(health_values(clause) for clause in attributes)
        and not asked_first(message)
        and (named := dose_named(message))
    ):
        # "Dr Kelly doubled my atorvastatin, I'm on 40mg now": the dose's clause names no
        # medicine, the message one (an adversary saw the 20mg fact left in effect).
        attributes.append(named)
    return [(ATTRIBUTE, clause) for clause in attributes] + [
        (predicate, said[0][1])
        for predicate, said in found.items()
        if len({frozenset(analyze(value)) for value, _ in said}) == 1
    ]


ATTRIBUTE = "attribute"
"""A health fact or a contact, found among the facts by its value (`new_value`)."""
_CARE_GIVERS = frozenset(
    analyze(
        "doctor dentist therapist physician pharmacist gp pediatrician paediatrician vet "
        "veterinarian dermatologist psychiatrist psychologist optometrist allergist midwife "
        "cardiologist gynecologist"
    )
)
"""Found by a new user, a parent: "our pediatrician is now Dr. Kim" changed nothing."""
_FACTS_READ = 500


def _a_health_fact(clause: str) -> bool:
    """An allergy, a dose, or who the user's doctor is: stale, each can do harm.

    Found by an adversary: "My lisinopril dose went up to 20mg" and "My new doctor is Dr.
    Costa" said in chat left the old dose and doctor in effect.
    """
    if health_values(clause) or diet_of(clause):
        return True  # a diet too: "I eat fish now" after "I'm vegetarian" (a new user)
    attribute = user_value(clause)
    return attribute is not None and bool(attribute[0] & _CARE_GIVERS)


_CONTACTS = frozenset(analyze("address email phone mobile"))
_SAYS_CHANGED = lazy_compile(
    r"(?i)\b(?:new|now|changed|updated|nuev[oa]|nuov[oa]|nouvel(?:le)?|nouveau|neue?[nrs]?|"
    r"nov[oa]|ahora|cambiad[oa]|jetzt)\b"
    # Or the old one denied after it: "my email is a@x.com, not b@x.com" (a third adversary).
    r"|,?\s+not\s+[\w.+-]+@[\w-]+\."
)


def _a_new_contact(clause: str) -> bool:
    """The user's address, email or phone said to be new ("My new address is …").

    Found by a new user: such a message left the old address in effect. Only with a word
    saying it changed: a second email or a work phone is often told plainly beside the
    first; and only these, which hold one value ("My new cat is called Tom" is a second
    cat).
    """
    attribute = user_value(clause)
    return (
        attribute is not None
        and bool(attribute[0] & _CONTACTS)
        and _SAYS_CHANGED.search(clause) is not None
    )


async def _attribute_otherwise(
    memory: Memory, sentence: str, namespace: str
) -> tuple[list[MemoryEntry], list[MemoryEntry]]:
    """The facts in effect `sentence` gives another allergy, dose, doctor or contact.

    Those that say only that, and those that say more (left as they are).
    """
    facts = await memory.list(namespace=namespace, category="core", limit=_FACTS_READ)
    plain: list[MemoryEntry] = []
    more: list[MemoryEntry] = []
    # As it is stored: "noreen kelly's new number …" names Noreen Kelly (a new user saw
    # it update nothing), as "Noreen kelly's …" does.
    said = as_a_fact(sentence)
    changed = [
        fact
        for fact in facts
        if new_value(said, fact.content) and not _another_of_one_name(sentence, fact, facts)
    ]
    for fact in one_by_first_name(said, changed):
        (more if says_more(fact.content) else plain).append(fact)
    # A dose of one of several medicines a fact holds: left as it is, but said (a new user:
    # "Dr Fitzgerald cut my atorvastatin back to 20mg" beside "I take atorvastatin 40mg
    # at night and amlodipine 5mg …" changed nothing, and nothing said so).
    more += [
        fact
        for fact in facts
        if fact not in changed
        and says_more(fact.content)
        and health_changed(said, fact.content)
        and not of_someone_else(said, fact.content)
    ]
    return plain, more


def _another_of_one_name(sentence: str, fact: MemoryEntry, facts: list[MemoryEntry]) -> bool:
    """Whether `sentence` names a person without saying whose, and `facts` know two by it.

    Found by an adversary: with "My boss Alex's phone number …" and "My partner Alex's phone
    number …" in effect, "Big news: Alex's new phone number is …" replaced the partner's.
    """
    bare = as_a_fact(sentence)
    return any(
        other.id != fact.id and one_name_two_people(bare, fact.content, other.content)
        for other in facts
    )


LONGEST_CLAIM = 300
"""The longest sentence read as a fact's new value: a home or a dose is said in a line."""


async def update_from_message(memory: Memory, message: MemoryEntry) -> list[SaidChange]:
    """Update each fact in effect that the saved `message` says has changed.

    A fact saying more than the changed value ("My name is Dana and I live in Porto") is
    left: replacing it would lose the rest. A store that refuses changes nothing.
    """
    changes: list[SaidChange] = []
    # On a thread: a pasted page is read whole, and the chat's screen stood still.
    for predicate, sentence in await asyncio.to_thread(claimed, message.content):
        if len(sentence) > LONGEST_CLAIM:
            # A paste, not a claim: 100,000 characters of "Vivo en calle Mayor 1, " became
            # the home fact, ten times the longest fact a user may store (an adversary).
            continue
        try:
            if predicate == ATTRIBUTE:
                plain, more = await _attribute_otherwise(memory, sentence, message.namespace)
            else:
                plain = await saying_otherwise(memory, sentence, message.namespace, plain=True)
                more = [] if plain else await saying_otherwise(memory, sentence, message.namespace)
            if not plain:
                changes += [SaidChange(None, fact) for fact in more]
                continue
            old = plain[0]
            if another_one(as_a_fact(sentence), message.timestamp, old.content, old.timestamp):
                # Another one's: "My husband stopped taking omeprazole" was stored beside
                # "I take 20mg of omeprazole" and said to have updated it (an adversary).
                if predicate == ATTRIBUTE and not of_someone_else(as_a_fact(sentence), old.content):
                    # The user's own, left as it is for a date the fact holds: "Dr Tran cut
                    # my sertraline back to 75mg" beside "… 100mg every morning (Dr Tran,
                    # from 10/3)" changed nothing, and nothing said so (a new user).
                    changes.append(SaidChange(None, old))
                continue
            updated = await memory.store_with_metadata(
                old.key,
                with_the_new_dose(old.content, sentence) or as_a_fact(sentence),
                old.category,
                old.session_id,
                namespace=old.namespace,
                source=MemorySource.AUTOSAVE.value,
            )
        except MemoryStoreError:
            continue
        if old.id in updated.supersedes:
            changes.append(SaidChange(updated, old))
    return changes


_AN_AMOUNT = lazy_compile(
    r"(?i)(?<![\w.,])\d+(?:[.,]\d+)?\s?(?:mg|mcg|µg|ug|g|ml|iu|units?|puffs?)\b"
)
_HOW_OFTEN = lazy_compile(
    r"(?i)\b(?:daily|once|twice|three\s+times|every|each|a\s+day|per\s+day|morning|evening|"
    r"night|bedtime|weekly|when\s+needed|as\s+needed|prn)\b"
)

_A_REMARK_ON_A_CHANGE = lazy_compile(
    r"(?i)\s*\((?=[^()\n]*\b(?:raised|upped|increased|reduced|lowered|cut|changed|doubled|"
    r"halved|since|from|as\s+of|until|till)\b)[^()\n]{1,80}\)"
)


def with_the_new_dose(fact: str, sentence: str) -> str | None:
    """`fact` with its one dose changed to the one `sentence` gives, when that is all it says.

    Found by a new user, a baker: "GP upped my amlodipine to 10mg today" replaced "I take
    amlodipine 5mg every morning for my blood pressure" word for word, and "every morning"
    and "for my blood pressure" were lost ("today" kept, the key still saying 5mg). The
    fact keeps its words; a sentence that says how often too is the new fact as said.
    """
    ours, theirs = health_values(sentence), health_values(fact)
    doses = [topic for topic in ours if topic.startswith("dose of ") and topic in theirs]
    amounts = [found.group() for found in _AN_AMOUNT.finditer(sentence)]
    old_amounts = list(_AN_AMOUNT.finditer(fact))
    if len(doses) != 1 or len(amounts) != 1 or len(old_amounts) != 1:
        return None
    if _HOW_OFTEN.search(sentence):
        return None
    # A remark on the change before ("(dose raised by Dr. Weber in December)") is no longer
    # true of the new dose: it goes.
    fact = " ".join(_A_REMARK_ON_A_CHANGE.sub(" ", fact).split())
    old_amounts = list(_AN_AMOUNT.finditer(fact))
    if len(old_amounts) != 1:
        return None
    old_amount = old_amounts[0]
    return fact[: old_amount.start()] + amounts[0] + fact[old_amount.end() :]


def as_a_fact(clause: str) -> str:
    """The clause without the words announcing it ("Big news:", "Guess what?")."""
    said = LEAD_IN.sub("", clause, count=1).strip()
    return said[:1].upper() + said[1:] if said else clause


def change_notice(change: SaidChange) -> str:
    """What the chat says of an update: what changed, and that the old version is kept."""
    if change.updated is None:
        return (
            f"Your message says something changed, but the memory {change.replaced.key!r} "
            f"({change.replaced.content!r}) still says otherwise; it says more than that, so "
            "it was left as it is (edit it in the memory inspector, F2)."
        )
    return (
        f"Your message updated the memory {change.updated.key!r}: it said "
        f"{change.replaced.content!r}, now {change.updated.content!r}. The earlier version "
        "is kept as history: to bring it back, tick 'superseded' in the memory inspector (F2) "
        "and press Enter on it, or use `memchat memory history` and `restore`."
    )


async def said_changes(
    memory: Memory, message: MemoryEntry, session_id: str, namespace: str
) -> list[MemorySaved | Notice]:
    """Update the facts `message` changes; what the chat and the inspector are told.

    The message becomes the history of the fact made from it when the fact holds all of
    it, as a message the model made a fact of does (`agent.after_turn.fold_into_facts`).
    """
    events: list[MemorySaved | Notice] = []
    for change in await update_from_message(memory, message):
        if change.updated is None:
            events.append(Notice(change_notice(change), about_reply=True))
            continue
        events += [MemorySaved(change.updated), Notice(change_notice(change), about_reply=True)]
        folded = await fold_into_facts(
            memory, message, [change.updated], session_id=session_id, namespace=namespace
        )
        if folded is None and home_moved_to(message.content):
            # "Finally moved! We're now at 5 Quay Street": all it said is the home, kept as
            # "I live at …" (an adversary saw it recalled unmarked after a later move).
            with contextlib.suppress(MemoryStoreError):
                await memory.supersede([message.id], change.updated.id)
                folded = change.updated
        if folded is not None:
            break  # the message is history now: one fact holds all it said
    if secret_said_changed(message.content):
        try:
            facts = await memory.list(namespace=namespace, category="core", limit=_FACTS_READ)
        except MemoryStoreError:
            facts = []
        events += [
            Notice(old_secret_notice(fact, message.content), about_reply=True)
            for fact in facts_with_the_old_secret(message.content, facts)
        ]
    return events

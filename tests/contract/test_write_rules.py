"""The write rules, one behaviour for every backend that keeps what it is given.

Each backend either runs SQLite's transaction (sqlite, lucid) or the shared rules over its
own storage (`memory.write_rules`); these tests do not care which.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import numpy.typing as npt
import pytest

from memory.entry import MAX_KEY_CHARS, MemoryEntry
from memory.errors import InvalidEntryError
from memory.protocol import Memory
from memory.records import MemoryRecord, StoredEmbedding
from memory.retrieval import RecallQuery
from memory.testing import CountingEmbedder
from memory.write_rules import NewMemory
from tests.contract.conftest import OpenStore, needs


async def _active(memory: Memory) -> dict[str, str]:
    return {e.key: e.content for e in await memory.list(namespace=None, limit=500)}


async def _store_in(memory: Memory, namespace: str, key: str, content: str) -> MemoryEntry:
    return await memory.store_with_metadata(key, content, namespace=namespace)


async def _active_in(memory: Memory, namespace: str) -> dict[str, str]:
    return {e.key: e.content for e in await memory.list(namespace=namespace, limit=500)}


async def _history(memory: Memory) -> set[str]:
    listed = await memory.list(namespace=None, include_superseded=True, limit=500)
    return {e.content for e in listed if e.superseded_by is not None}


async def test_an_exact_duplicate_is_stored_once(memory: Memory) -> None:
    needs(memory, "persistent")
    first = await memory.store("tea", "The user likes green tea.")
    again = await memory.store("tea again", "the user likes  GREEN tea")
    assert again.id == first.id and again.key == "tea"
    said = await memory.store("turn 1", "ok, thanks!", "conversation")
    assert (await memory.store("turn 2", "OK, thanks", "conversation")).id == said.id
    assert await memory.count() == 2


async def test_unchanged_text_only_refreshes_metadata(memory: Memory) -> None:
    needs(memory, "persistent")
    first = await memory.store_with_metadata("tea", "The user likes green tea", importance=0.3)
    again = await memory.store_with_metadata("tea", "The user likes green tea", importance=0.8)
    assert again.id == first.id and again.supersedes == []
    stored = await memory.get("tea")
    assert stored is not None and stored.importance == 0.8 and stored.id == first.id
    assert await memory.count() == 1


async def test_a_changed_core_fact_keeps_the_old_version_as_history(memory: Memory) -> None:
    needs(memory, "persistent", "supports_supersede")
    old = await memory.store_with_metadata(
        "editor", "The user edits in Helix", importance=0.9, pinned=True
    )
    new = await memory.store("editor", "The user edits in Zed")
    assert new.id != old.id and new.supersedes == [old.id]
    active = await memory.get("editor")
    assert active is not None and active.content == "The user edits in Zed"
    assert active.importance == 0.9 and active.pinned  # inherited from the old version
    kept = await memory.get_by_id(old.id)
    assert kept is not None and kept.superseded_by == new.id
    await memory.restore(old.id)
    assert (await _active(memory))["editor"] == "The user edits in Helix"


async def test_a_core_fact_rewritten_under_another_category_keeps_its_history(
    memory: Memory,
) -> None:
    """Found by an adversary: a model storing under a core fact's key as "conversation"
    replaced the passport number in place, with no earlier version kept."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("passport", "Passport number X1234567")
    await memory.store("passport", "Talked about passport renewal", "conversation")
    assert (await _active(memory))["passport"] == "Talked about passport renewal"
    assert "Passport number X1234567" in await _history(memory)


async def test_storing_under_a_key_holding_only_history_keeps_that_history(
    memory: Memory,
) -> None:
    """Found by an adversary: "city: Lisbon", replaced on its subject by "home: Madrid",
    was overwritten in place by "city: Rome", and Rome and Madrid were both in effect."""
    needs(memory, "persistent", "supports_supersede")
    lisbon = await memory.store("city", "The user lives in Lisbon")
    madrid = await memory.store("home", "The user lives in Madrid")
    await memory.supersede([lisbon.id], madrid.id)  # as the same-subject rule does
    rome = await memory.store("city", "The user lives in Rome")
    assert rome.id != lisbon.id
    kept = await memory.get_by_id(lisbon.id)
    assert kept is not None and kept.content == "The user lives in Lisbon"
    assert kept.superseded_by is not None
    assert (await _active(memory))["city"] == "The user lives in Rome"


async def test_restoring_an_old_version_leaves_one_version_in_effect(memory: Memory) -> None:
    """Found by an adversary: restoring the first of three versions on Qdrant or Markdown
    left the newest in effect beside it (only the direct successor stepped aside)."""
    needs(memory, "persistent", "supports_supersede")
    blue = await memory.store("car", "The car is blue")
    await memory.store("car", "The car is green")
    await memory.store("car", "The car is yellow")
    await memory.restore(blue.id)
    assert (await _active(memory))["car"] == "The car is blue"
    cars = [e for e in await memory.list(include_superseded=False) if e.key == "car"]
    assert [e.content for e in cars] == ["The car is blue"]


async def test_restoring_a_fact_replaced_twice_under_another_key_leaves_it_alone(
    memory: Memory,
) -> None:
    """Found by an adversary: cat_name, superseded on the same subject by pet_cat, which
    was then corrected again: restoring cat_name left both in effect."""
    needs(memory, "persistent", "supports_supersede")
    miso = await memory.store("cat_name", "My cat is called Miso")
    tofu = await memory.store("pet_cat", "My cat is called Tofu")
    await memory.supersede([miso.id], tofu.id)  # as the same-subject rule does
    await memory.store("pet_cat", "My cat is called Tofu Junior")
    await memory.restore(miso.id)
    active = await _active(memory)
    assert active.get("cat_name") == "My cat is called Miso" and "pet_cat" not in active


async def test_restoring_a_message_kept_as_a_facts_history_keeps_the_fact(
    memory: Memory,
) -> None:
    """Found by an adversary: restoring the message a fact was made from (kept as the
    fact's history) superseded the fact by the message; the fact was then out of effect,
    and after the message's retention it could be neither fetched nor forgotten."""
    needs(memory, "persistent", "supports_supersede")
    message = await memory.store_with_metadata(
        "conversation/s1/m1", "remember my dentist is on Thursday at 9", "conversation", "s1"
    )
    fact = await memory.store("dentist", "Dentist is on Thursday at 9")
    await memory.supersede([message.id], fact.id)
    await memory.restore(message.id)
    active = await _active(memory)
    assert active["dentist"] == "Dentist is on Thursday at 9"
    assert active["conversation/s1/m1"] == "remember my dentist is on Thursday at 9"


async def test_a_near_duplicate_is_merged_under_the_stored_key(memory: Memory) -> None:
    needs(memory, "persistent", "supports_supersede")
    old = await memory.store("coffee", "The user drinks dark roast coffee every morning")
    new = await memory.store("coffee habit", "The user drinks dark roast coffee every morning at 7")
    assert new.key == "coffee" and new.supersedes == [old.id]
    assert await _active(memory) == {
        "coffee": "The user drinks dark roast coffee every morning at 7"
    }
    assert await _history(memory) == {"The user drinks dark roast coffee every morning"}


async def test_a_near_duplicate_that_adds_nothing_refreshes_the_stored_one(memory: Memory) -> None:
    needs(memory, "persistent", "supports_supersede")
    text = "The user drinks dark roast coffee every morning at 7"
    old = await memory.store_with_metadata("coffee", text, importance=0.4)
    again = await memory.store_with_metadata(
        "coffee habit", "The user drinks dark roast coffee every morning", importance=0.7
    )
    assert again.id == old.id and again.content == text
    stored = await memory.get("coffee")
    assert stored is not None and stored.importance == 0.7
    assert await memory.count() == 1


async def test_a_conflicting_core_fact_supersedes_and_distinct_facts_stay(memory: Memory) -> None:
    needs(memory, "persistent", "supports_supersede")
    rust = await memory.store("lang", "The user prefers Rust")
    python = await memory.store("language", "The user prefers Python")
    assert python.supersedes == [rust.id]
    await memory.store("cat", "The user's cat is Miso")
    await memory.store("dog", "The user's dog is Rex")
    assert await _active(memory) == {
        "language": "The user prefers Python",
        "cat": "The user's cat is Miso",
        "dog": "The user's dog is Rex",
    }


async def test_facts_about_different_subjects_both_stay_though_worded_alike(
    memory: Memory,
) -> None:
    """Found by an adversary: "Bob's phone number is 555-9876" superseded "Alice's phone
    number is 555-1234" (two of three words shared), so recall answered Alice's number
    with Bob's, and forgetting Bob's forgot Alice's too. The words before the verb say
    what a fact is about; when they differ, so do the facts."""
    needs(memory, "persistent", "supports_supersede")
    pairs = [
        ("alice", "Alice's phone number is 555-1234", "bob", "Bob's phone number is 555-9876"),
        ("gym", "Locker code for gym is 4411", "office", "Locker code for office is 9902"),
        ("sister", "My sister lives in Porto", "brother", "My brother lives in Porto"),
        ("his", "His phone number is 555-1234", "her", "Her phone number is 555-9876"),
        (
            "brother_eggs",
            "My brother is allergic to eggs",
            "sister_eggs",
            "My sister is not allergic to eggs",
        ),
        (
            "sam_partner",
            "My partner Sam is allergic to shellfish",
            "sam_boss",
            "My boss Sam is not allergic to shellfish",
        ),
        # Two people of one name, said whose each is (a second adversary: the boss's
        # birthday replaced the partner's).
        (
            "partner_alex",
            "My partner Alex's birthday is May 3",
            "boss_alex",
            "My boss Alex's birthday is July 9",
        ),
        (
            "alice_flight",
            "Alice's flight LH1234 to Tokyo departs from Lisbon terminal 1 gate 12 on Monday",
            "bob_flight",
            "Bob's flight LH1234 to Tokyo departs from Lisbon terminal 1 gate 12 on Monday",
        ),
    ]
    for first_key, first, second_key, second in pairs:
        await memory.store(first_key, first)
        stored = await memory.store(second_key, second)
        assert stored.supersedes == []
    expected = {key: text for pair in pairs for key, text in (pair[:2], pair[2:])}
    assert await _active(memory) == expected
    # With two Alexes in effect, the name alone says neither (an adversary: it replaced both).
    alone = await memory.store("alex", "Alex's birthday is March 16")
    assert alone.supersedes == []
    assert (await _active(memory)).keys() == expected.keys() | {"alex"}
    if memory.capabilities.supports_delete:
        assert await memory.forget("bob")
        assert (await memory.get("alice")) is not None
    # The same subject with a new value is still one fact: the newer replaces the older.
    rent = await memory.store("rent", "The user's rent is 1,200 euros")
    now = await memory.store("rent_now", "The user's rent is 1,300 euros")
    assert now.supersedes == [rent.id]
    # A second value of a predicate that holds many adds to the first (a new user lost
    # Sam's peanut allergy to "Sam is allergic to latex").
    peanuts = await memory.store("sam_allergy", "Sam is allergic to peanuts and shellfish")
    latex = await memory.store("sam_allergy_2", "Sam is allergic to latex")
    assert latex.supersedes == [] and (await memory.get("sam_allergy")) is not None
    kept = await memory.get_by_id(peanuts.id)
    assert kept is not None and kept.superseded_by is None
    # Who owes whom is part of what a debt is (an adversary: the one replaced the other).
    owed = await memory.store("tom_owes", "Tom owes me 50 euros")
    owing = await memory.store("i_owe", "I owe Tom 50 euros")
    assert owing.supersedes == [] and (await memory.get_by_id(owed.id)) is not None
    more = await memory.store("tom_owes_now", "Tom owes me 60 euros")
    assert more.supersedes == [owed.id]
    # A client's rate holds one value (a new user: its deadline had replaced it before).
    rate = await memory.store("huber_rate", "Huber Verlag pays 0,09 € per word")
    await memory.store("huber_deadline", "Huber Verlag deadline is 20.12.2026")
    raised = await memory.store("huber_rate_now", "Huber Verlag pays 0,11 € per word now")
    assert raised.supersedes == [rate.id]
    assert (await memory.get("huber_deadline")) is not None
    # A fact denied is not "already remembered" by its words: the newer replaces it.
    denied = await memory.store("allergy", "The user is not allergic to peanuts")
    stated = await memory.store("allergy_now", "The user is allergic to peanuts")
    assert stated.key == "allergy_now" and stated.supersedes == [denied.id]


async def test_a_new_home_or_employer_replaces_the_old_one_in_other_words(
    memory: Memory,
) -> None:
    """Found by adversaries: "I live in Porto" then "I now live in Lisbon" (one word
    shared), or "I moved to Lisbon" (none), left both in effect, so recall answered "where
    do I live" with either. Where someone lives and whom they work for hold one value."""
    needs(memory, "persistent", "supports_supersede")
    porto = await memory.store("home", "I live in Porto")
    lisbon = await memory.store("home_now", "I moved to Lisbon")
    assert lisbon.supersedes == [porto.id]
    google = await memory.store("job", "The user works at Google")
    acme = await memory.store("job_now", "I work for Acme")
    assert acme.supersedes == [google.id]
    # An attribute holds one value: a new user kept two emails (the shared "com" made
    # them look like two things named alike).
    email = await memory.store("email", "My email is jo@example.com")
    email_now = await memory.store("email_now", "My e-mail address is jo.new@acme.com")
    assert email_now.supersedes == [email.id]
    # One more value, or another person's, is not a new value.
    await memory.store("cafe", "I also work at a cafe on weekends")
    await memory.store("sister", "My sister lives in Porto")
    await memory.store("bob_email", "Bob's email is bob@acme.com")
    await memory.store("them", "They live in Berlin")  # another person (an adversary)
    assert await _active(memory) == {
        "home_now": "I moved to Lisbon",
        "job_now": "I work for Acme",
        "email_now": "My e-mail address is jo.new@acme.com",
        "cafe": "I also work at a cafe on weekends",
        "sister": "My sister lives in Porto",
        "bob_email": "Bob's email is bob@acme.com",
        "them": "They live in Berlin",
    }
    await memory.restore(porto.id)
    assert (await _active(memory)).get("home") == "I live in Porto"


NEW_VALUES = [
    # A new user, an engineer: a remark on the change after the new value.
    (
        "stripe live key for payments-svc is sk_live_51HxOLDoldOLDold12345",
        "stripe live key for payments-svc is sk_live_51HxNEWnewNEWnew99999 (rotated 9 Feb)",
    ),
    # A fifth adversary: the same one's new value, stored under a key of its own.
    ("flat 2 rent is 1100", "Flat two rent is 1150"),
    ("flat 2 rent is 1100", "Flat II rent is 1150"),
    ("Flat 3's rent is 950", "the rent for flat three is 990"),
    ("I take 5mg of warfarin", "I take seven mg of warfarin now"),
    ("I take 5mg of warfarin", "Warfarin dose is now 6 mg"),
    ("Dentist on 14/12 at 9am", "The dentist is now on the 21st"),
    ("Zahnarzt am 14.12. um 9 Uhr", "Zahnarzt verschoben auf 21.12."),
    ("El dentista es el 14/12", "El dentista se ha movido al 21/12"),
    ("I take omeprazole 20mg every morning", "Stopped the omeprazole last week"),
    # A translator: a stop in Italian, the medicine by its Italian name.
    ("I take omeprazole 20mg every morning", "Non prendo più l'omeprazolo"),
    ("I take 500mg of metformin", "Ho sospeso la metformina"),
    ("Tomo 20mg de omeprazol cada mañana", "Ahora tomo 40 mg de omeprazol"),
    ("I take 20mg of omeprazole", "Prendo 40mg di omeprazolo"),
    ("Ich nehme 20mg Omeprazol", "Ich nehme jetzt 40mg Omeprazol"),
    # A translator: a new address and a new number said in Spanish.
    ("my address is Calle Cuba 8, 46006 Valencia", "Mi nueva dirección es Calle Sueca 12"),
    ("the gestoria phone number is 963 41 22 10", "la gestoría tiene número nuevo: 961 55 80 33"),
    ("My email is ana@correo.es", "mi nuevo correo es ana@nuevo.es"),
    ("Noreen Kelly's number is 087 123 4567", "Noreen Kelly has a new number 085 999 8888"),
    ("Tom Murphy's number is 083 123 4567", "tom murphy has a new number 083 000 1111"),
    # A new user, an allotment secretary: a person named by first name alone, a name in
    # full after "for", and "O'Brien" typed without its apostrophe.
    ("Noreen Kelly's number is 087 111 2222", "Noreen has a new number 087 999 0000"),
    ("Noreen Kelly's number is 087 111 2222", "new number for Noreen Kelly 087 999 0000"),
    ("Sean O'Brien's number is 086 444 5555", "Sean OBrien's number is now 086 222 3333"),
    ("Siobhan hasn't paid her fee yet", "Siobhan paid her €40 today"),
    ("Large dogs are 60, medium 45, small 35", "Large dogs 65, medium 50, small 35"),
    # A new user, a biologist: a landlady is the landlord's role.
    ("My landlord is Tom Reid", "my landlady is Rosa Almeida"),
    # An adversary: a home or a job said in another language.
    ("I live in Porto", "Ich wohne jetzt in Berlin"),
    ("I live in Porto", "Moro em Lisboa agora"),
    ("I work at Acme", "Ich arbeite jetzt bei Siemens"),
    # An adversary: a relation said in another of its words.
    ("My dad lives in Faro", "My father moved to Braga"),
    ("My mum lives in Faro", "My mother moved to Braga"),
    # A new user, a translator: an accountant holds one name, said with their firm.
    ("My accountant is Siobhán Murphy (Murphy & Co, Cork)", "my accountant is Aoife Byrne now"),
    (
        "My accountant is Siobhán Murphy (Murphy & Co, Cork)",
        "my accountant is now Declan Ryan (Ryan Tax, Cork), no longer Siobhán",
    ),
    # A second adversary: a street lived at after an address given.
    ("My address is Kerkstraat 10, 1017 GC Amsterdam", "I live at Via Roma 3, 00184 Roma"),
    ("Murphys' cockapoo Bailey fri 11/12 10am", "Murphys rang, Bailey moved to sat 12/12 11am"),
    # A new user, a baker: a family's number given anew.
    ("the Murphys number is 086 221 3345", "Murphys got a new number 086 555 7788"),
    ("The Murphys number is 086 221 3345", "murphys have a new number 086 555 7788"),
    # Found by a new user: the old employer left and the new one told after; a birthday
    # of a partner named once with "my partner".
    ("I work at Fintrack", "I left Fintrack, I've been hired by Revolut"),
    ("I work at Fintrack", "I left Fintrack. I work at Revolut now"),
    # A new user, a nurse: a number said anew of someone named with a role, or typed
    # without the apostrophe.
    ("Breda the childminder number is 087 123 4567", "Bredas new number is 086 555 2211"),
    ("Dave the plumber number is 087 123 4567", "Dave the plumber has a new number 086 5552211"),
    ("Breda's number is 087 123 4567", "breda has a new number 086 555 2211"),
    ("Breda's number is 087 123 4567", "Breda changed her number to 086 333 4444"),
    ("Breda's number is 087 123 4567", "new no. for breda: 086 333 4444"),
    ("My partner Alex's birthday is on March 14", "Alex's birthday is March 16"),
    ("My home address is 10 Oak Ave, Portland", "My new address is 7 Birch Road, Portland"),
    ("My partner Sam is allergic to shellfish", "Sam is not allergic to shellfish after all"),
    ("My son Leo is allergic to eggs", "Leo is not allergic to eggs after all"),
    ("I live in Porto", "I moved to the Netherlands"),
    ("I live in Porto", "Last month I moved to Lisbon"),
    ("I live in Porto", "My home is in Lisbon now"),
    ("I work at Acme", "My employer is Globex"),
    ("My employer is Acme", "I started working at Globex"),
    ("My favorite color is blue", "My favourite colour is green"),
    # Another person's, named alike (found by a new user).
    ("my friend Bob's phone number is 555.123.4567", "Bob's new phone number is 555.987.6543"),
    ("Bob lives in Braga", "Bob moved to Coimbra"),
    ("I live in Porto", "My wife and I moved to Lisbon"),  # with someone, still home
    # Found by the third adversary: openers, other times, other wordings and names
    # that begin with a word that describes.
    ("I live in Porto", "So I moved to Lisbon"),
    ("I live in Porto", "Update: I moved to Lisbon"),
    ("I live in Porto", "Last Tuesday I moved to Lisbon"),
    ("I live in Porto", "I moved back to Lisbon"),
    ("I live in Porto", "I moved from Porto to Lisbon"),
    ("I live in Porto", "Home is Lisbon now"),
    ("I live in Porto", "I moved to Porto Alegre"),
    ("I live in Porto", "I live in Times Square"),
    ("I work at Acme", "I work at Home Depot"),
    ("I work at Acme", "I work at Spotify"),  # a product's name is an employer
    # Found by the third new user.
    ("I work at Siemens as an engineer", "my new job is at Bosch"),
    ("My new job is at Bosch", "I started a new job at Google"),
    ("I live in Porto", "Big news: my wife and I moved to Lisbon last week!"),
    # Found by the fourth adversary.
    ("I live in Porto", "Guess what? I moved to Berlin!"),
    ("I live in Porto", "I've been living in Berlin"),
    ("I work at Marks and Spencer", "I started a new job at Tesco"),
    ("I live in Bosnia and Herzegovina", "I moved to Croatia"),
    # Found by the second new user.
    ("Big news: we moved to Lisbon!", "I've been living in Porto since March"),
    ("I live in Porto", "Since March I live in Lisbon"),
    ("I work at Bosch", "I got a new job at Google"),
    ("I live in Berlin", "Since 2019 I live in Lisbon"),
    # Found by the fifth adversary: a "since" clause after the value.
    ("I live in Lisbon", "I live in Porto since I lost my job"),
    ("I work at Acme", "I work at Google since the layoffs"),
    ("My flight leaves from gate 12", "My flight leaves from gate 14"),  # a value
    # Found by the fifth new user: other wordings of a name and a phone, and a
    # preference turned round (it was merged under the old key, unsaid).
    ("My partner's name is Jordan", "My partner is called Robin"),
    ("My new phone number is 0151 2223333 (mobile)", "My mobile is +49 151 9998877"),
    ("I prefer tea over coffee", "I prefer coffee over tea these days"),
    ("I work at Hospital São João as a nurse", "I joined Google"),
    ("I work at Acme", "I work as a software engineer at Google"),
    ("I work at Acme", "I started working at Globex"),
    # Found by the seventh new user: health facts said again otherwise.
    ("I take 10mg of lisinopril daily", "My lisinopril dose went up to 20mg"),
    ("I'm on 5 mg of ramipril", "my dose of ramipril is now 10 mg"),
    ("I'm allergic to penicillin", "Turns out I'm not allergic to penicillin after all"),
    ("I have a peanut allergy", "I don't have a peanut allergy anymore"),
    ("My doctor is Dr. Lee", "My new doctor is Dr. Park"),
    ("my medication is sertraline 10mg daily", "My sertraline dose went up to 50mg"),
    ("My doctor is Dr Costa", "My new doctor is Dr Sousa"),
    ("I live in Porto", "I live in Lisbon now, not Porto"),  # the old one denied
    ("I work at Acme", "I work at Google, no longer Acme"),
    # Found by the eighth adversary.
    ("My email is ana@example.com", "My email changed to ana@new.com"),
    ("I work at Acme", "I quit Acme and joined Initech"),
    ("I am vegetarian", "I am not vegetarian anymore"),
    ("The user drinks coffee", "The user no longer drinks coffee"),
    # Found by the eighth new user: leaving for the new employer, said in the present.
    ("I work at Acme", "I left Acme to join Initech"),
    ("I work at Acme", "Last month I left my job at Acme to join Initech"),
    # Left from the eighth new user's round: a move told before its place, a new job
    # after the old one's end, being hired, a dose a doctor changed.
    ("I live in Porto", "We relocated again \u2014 now living in Braga"),
    ("I live in Porto", "We moved house, we're in Coimbra now"),
    ("I work at Acme", "Quit my job at Acme! Starting at Initech on Monday"),
    ("I work at Acme", "I've been hired by Initech"),
    ("I work at Acme", "I got hired at Initech"),
    ("I work at Acme", "I have a new job at Initech"),
    ("I take 10mg of lisinopril", "Doctor cut my lisinopril back to 5mg"),
    ("I take 10mg of lisinopril", "The doctor lowered my dose of lisinopril to 5mg"),
    ("I take 10mg of lisinopril", "I'm down to 5mg of lisinopril now"),
    # Found by the tenth new user.
    ("My family doctor is Dr. Marta Sousa", "Quick update: I switched to a new GP, Dr. Costa"),
    ("My family doctor is Dr. Marta Sousa", "My new doctor is Dr. Rui Costa"),
    ("I'm allergic to peanuts", "The allergist says I've outgrown the peanut allergy"),
    ("I work as a nurse at Hospital São João", "I started a new job at Acme this week"),
    ("I take 10mg of lisinopril", "The doctor raised my lisinopril to 20mg."),
    ("I work at Acme", "I start at CUF Descobertas hospital on Monday"),
    ("I live in Lisbon", "So yes, we live in Sintra now"),
    # Left from the last round: a partner, a boss, a landlord hold one name at a time.
    ("My partner is Sam", "Alex is my partner now"),
    ("My boss is Maria", "My new boss is Tom"),
    ("My landlord is Mr. Weber", "My landlord is Mrs. Schulz now"),
    ("My sister Anna lives in Madrid", "My sister Anna lives in Rome"),
    ("My son Leo is 7", "My son Leo is 8 now"),
    ("Shopping list: eggs, milk, bread", "Shopping list: eggs, milk, butter"),
    # Found by an adversary: where someone of the user's lives, said by how.
    ("My sister lives in Berlin", "My sister moved to Rome"),
    ("My brother lives in Bergen now", "My brother moved to Tromso"),
    ("My boss Alex lives in Berlin", "My boss Alex moved to Rome"),
    # A later adversary: a pet's or a child's dose said with "gets" or "is on".
    ("Rex gets 10mg of Apoquel daily", "The vet raised Rex's Apoquel to 16mg"),
    ("Rex the dog gets 10mg of Apoquel daily", "The vet raised Rex's Apoquel to 16mg"),
    ("Maya is on 2.5ml ibuprofen", "Maya's ibuprofen is now 5ml"),
    # A day moved, said so, is still a change.
    ("Flour delivery on Tuesday at 7am", "Flour delivery moved to Friday at 7am"),
    ("My landlord is Mr. Olsen", "My landlord is now Karen"),
    # A new user, a baker: a customer's allergy corrected.
    (
        "Tom Murphy (the Murphys' little lad) has a nut allergy",
        "Tom Murphy is not allergic to nuts after all, it's sesame",
    ),
    # Said again of the same debt, boss or age (beside two debts, someone else's boss, a
    # pet's weight kept apart: an adversary).
    ("I owe Priya $15 for lunch", "I owe Priya $50 for lunch now"),
    ("My boss is Mark", "My boss is now Sam"),
    ("My dog Rex is 4", "My dog Rex is 5 now"),
    # An adversary: each stood beside the event or price it changed.
    ("Dentist on 14/1 at 9am", "Dentist moved to 21/1"),
    ("Haircut on Friday 3pm", "Haircut moved to Saturday 3pm"),
    ("Flight to Perth on 22/12", "Flight to Perth rescheduled to 23/12"),
    ("Vet for Biscuit on Tue 8/12", "Vet for Biscuit now Thu 10/12"),
    ("Dentist for Leo on 14/1", "Leo's dentist moved to 20/1"),
    ("Dinner with Sam on 8/4", "Dinner moved to 9/4"),  # a day and month after "to"
    ("Flour is $38 a sack", "Flour went up to $41 a sack"),
    # A new user: the debt stayed owed after its payment was kept.
    ("owe Priya $42 for power", "paid Priya the $42"),
    # A fifth adversary: a relative paid, the debt stayed owed.
    ("I owe my sister 50", "paid my sister back"),
    ("I owe Joana 23€ for internet", "i paid Joana back the 23€ for internet"),
    # An event's new time, or its calling off, changes it (something else said of it does not).
    ("Yoga class Monday 6pm", "Yoga class now at 7pm"),
    ("Book club on 9/12 at Anna's", "Book club on 9/12 is cancelled"),
    # A new user: a contact said to be new ("I have a new phone number: …"), a supplier's, a
    # plumber's.
    ("My phone number is 416 555 0101", "I have a new phone number: 416 555 0199"),
    ("My mobile is 416 555 0101", "got a new number, 416 555 0199"),
    ("My email is priya@old.ca", "We've got a new email - hello@raman.dev"),
    ("Acme's phone number is 555 1111", "Acme has a new phone number: 555 2222"),
    ("The plumber's number is 555 3333", "The plumber has a new number, 555 4444"),
    ("Tom's number is 555 1212", "Tom's number is now 555 9898"),
    (
        "Northwind contact: Dana Whitfield dana@northwind.ca",
        "northwind contact is now Raj Patel raj.patel@northwind.ca",
    ),
    # An adversary: an event moved or called off in other words stood beside it.
    ("Dentist on 14/1 at 3pm", "Dentist appointment moved to 21/1"),
    ("Dentist on 14/1 at 3pm", "Moved the dentist to 21/1"),
    ("Dentist on 14/1 at 3pm", "Rescheduled the dentist to 21/1"),
    ("Dentist on 14/1 at 3pm", "Dentist cancelled"),
    ("I live at 12 Rua Augusta, Lisbon", "My new address is 5 Rua Nova, Porto"),
    # A new user: the correction was read as a denial, and both stayed in effect.
    ("Jack's birthday is 13/3", "Jack's birthday is 14/3 not 13/3"),
    # A new user, an engineer: the new value in a later clause.
    (
        "My teammates are Joana (frontend), Miguel (SRE) and Priya (data)",
        "Miguel left the company; my teammates are now Joana and Priya",
    ),
    ("My manager is Rui", "Big news today. My manager is now Sofia"),
    # A new user, an engineer: one thing's day said anew in one wording.
    ("The billing migration ships on 14 January", "The billing migration ships on 21 January"),
    ("The launch party is on Friday 12 December", "The launch party is on Saturday 13 December"),
    # An adversary: other weekdays said now, under another key.
    ("Sam works Saturdays", "Sam now works Mondays"),
    ("The nanny comes on Mondays and Thursdays", "The nanny now comes on Tuesdays"),
    # An adversary: a new e-mail ending in ".no" (read as a denial), the new day first.
    ("Martin's email is ole@club.no", "Martin's email is per@club.no"),
    ("My email is dana.smith@gmail.com", "my email is dana@gmail.com, not dana.smith@gmail.com"),
    ("Mia's party is on the 18th", "Mia's party is on the 19th, not the 18th"),
    ("book club is on the 18th", "sorry, book club is on the 19th not 18th"),
    # A new user, a carer: a named person's dose going up now, and a medicine stopped.
    ("Manny takes donepezil 5mg every night", "Manny's donepezil is going up to 10mg from tonight"),
    ("Manny's donepezil dose went up to 10mg every night", "Manny stopped donepezil on 28/1"),
]


async def test_a_new_email_whose_words_the_old_one_holds_is_no_duplicate(memory: Memory) -> None:
    """Found by an adversary: "My email is dana@gmail.com" was "already remembered" as
    "My email is dana.smith@gmail.com", and the new e-mail was lost."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("before", "My email is dana.smith@gmail.com")
    await memory.store("after", "My email is dana@gmail.com")
    assert list((await _active(memory)).values()) == ["My email is dana@gmail.com"]


async def test_a_new_value_worded_another_way_replaces_the_old(memory: Memory) -> None:
    """Found by new users and left from the last round: each pair stayed in effect side
    by side (a value with "the", a dated move, "my home is", an employer named as an
    attribute against one worked at, a favourite that is a plain word). One store per
    backend, each pair in a namespace of its own (opening ~100 stores per backend was a
    sixth of the suite's time)."""
    needs(memory, "persistent", "supports_supersede")
    wrong: list[tuple[str, str, dict[str, str]]] = []
    for number, (old, new) in enumerate(NEW_VALUES):
        namespace = f"pair-{number}"
        before = await _store_in(memory, namespace, "before", old)
        after = await _store_in(memory, namespace, "after", new)
        active = await _active_in(memory, namespace)
        if after.supersedes != [before.id] or active != {"after": new}:
            wrong.append((old, new, active))
    assert wrong == []


async def test_a_deadline_moved_replaces_the_one_it_moves(memory: Memory) -> None:
    """Found by a new user: "The Schmidt deadline moved to Tuesday 15.12.2026" left
    "Deadline for the Schmidt job is Friday" in effect, and recall gave three dates."""
    needs(memory, "persistent", "supports_supersede")
    friday = await memory.store("schmidt", "Deadline for the Schmidt job is Friday")
    moved = await memory.store("schmidt_moved", "The Schmidt deadline moved to Tuesday 15.12.2026")
    assert moved.supersedes == [friday.id]
    again = await memory.store("schmidt_now", "The Schmidt job is now due 17.12.2026")
    assert again.supersedes == [moved.id]
    pushed = await memory.store("schmidt_pushed", "The Schmidt deadline was pushed back to 18.12")
    assert pushed.supersedes == [again.id]
    other = await memory.store("huber", "The Huber project is due on 20.12.2026")
    assert other.supersedes == []


async def test_a_pets_or_a_childs_new_dose_replaces_the_old_one(memory: Memory) -> None:
    """Found by a new user: "Mochi's methimazole dose went up to 5mg" left "My cat Mochi
    takes methimazole 2.5mg twice a day" in effect, and the old dose was recalled first."""
    needs(memory, "persistent", "supports_supersede")
    old = await memory.store("mochi", "My cat Mochi takes methimazole 2.5mg twice a day")
    mine = await memory.store("mine", "I take 2.5mg of methimazole")
    new = await memory.store("mochi_now", "Mochi's methimazole dose went up to 5mg")
    assert new.supersedes == [old.id]
    assert (await memory.get_by_id(mine.id)) is not None
    assert (await memory.get("mine")) is not None
    # In more wordings (an adversary: each left the old dose in effect, recalled first).
    pairs = [
        ("My son Leo takes 5ml of ibuprofen", "Leo's ibuprofen is now 7.5ml"),
        ("My dog Rex takes 5mg of meloxicam", "The vet cut Rex back to 2.5mg of meloxicam"),
        ("My dog Tex takes 5mg of meloxicam", "The vet lowered Tex's meloxicam to 2.5mg"),
        ("Biscuit takes 5mg of meloxicam", "The vet upped Biscuit to 7.5mg of meloxicam"),
    ]
    for number, (before, after) in enumerate(pairs):
        first = await memory.store(f"dose_{number}", before)
        then = await memory.store(f"dose_{number}_now", after)
        assert then.supersedes == [first.id], after


async def test_a_numbered_things_new_state_replaces_its_old_one(memory: Memory) -> None:
    """Found by a second adversary: "Ticket 5512 is closed" left "Ticket 5512 is open" in
    effect, as "Order 4471 arrived" did "Order #4471 is delayed"."""
    needs(memory, "persistent", "supports_supersede")
    opened = await memory.store("ticket", "Ticket 5512 is open")
    other = await memory.store("ticket_other", "Ticket 5513 is open")
    closed = await memory.store("ticket_closed", "Ticket 5512 is closed")
    assert closed.supersedes == [opened.id]
    delayed = await memory.store("order", "Order #4471 is delayed")
    arrived = await memory.store("order_now", "Order 4471 arrived")
    assert arrived.supersedes == [delayed.id]
    assert (await memory.get_by_id(other.id)) is not None
    assert (await memory.get("ticket_other")) is not None


async def test_a_move_after_its_plan_is_no_near_duplicate_of_the_plan(memory: Memory) -> None:
    """Found by the tenth new user: "We moved to Sintra" was merged into "We might move
    to Sintra next year", under the plan's key, and "I live in Lisbon" stayed in effect."""
    needs(memory, "persistent", "supports_supersede")
    home = await memory.store("home", "I live in Lisbon, in Alvalade")
    plan = await memory.store("plan", "We might move to Sintra next year")
    moved = await memory.store("moved", "We moved to Sintra")
    assert moved.key == "moved" and home.id in moved.supersedes
    assert (await _active(memory)).keys() <= {"moved", "plan"}
    assert plan.content in await _history(memory) or "plan" in await _active(memory)


LOOKALIKES = [
    (
        "Noreen Kelly's phone number is 087 111 2222",
        "Noreen Kelly's son's phone number is 087 333 3333",
    ),
    ("Tom's email is tom@x.ie", "Tom's wife's email is ann@x.ie"),
    # An adversary: a fact about what a record is of, naming none of its things.
    (
        "Beach house: alarm code 1234, gate code 5678, wifi password surfsup99",
        "The beach house is 200m from the sea",
    ),
    ("Siobhan hasn't paid her fee yet", "Tom paid his €40 today"),
    ("Tomo 20mg de omeprazol", "Tomo 5mg de warfarina"),  # another medicine
    ("Tomo 20mg de omeprazol", "Tomo 2 tazas de café al día"),
    ("Mi número es 600 111 222", "Mi perro es Tula"),
    ("Noreen Kelly's number is 087 123 4567", "Paddy Kelly has a new number 087 333 4444"),
    ("Large dogs are 60, medium 45, small 35", "Medium dogs now 50"),  # one price of three
    ("Mr Walsh's phone is 01 999 0000", "Mrs Walsh's phone is 01 888 0000"),  # two people
    ("Tom Murphy's number is 083 123 4567", "jack murphy has a new number 083 000 1111"),
    # A third adversary: one item of a list said anew, under its heading; two of three.
    ("todo: passport, haircut, dentist", "todo: haircut now at 3pm"),
    ("Shopping list: milk, eggs, bread", "Shopping list: eggs now 12 not 6"),
    (
        "Kennel rates are large 60, medium 45, small 35",
        "Kennel rates: medium 50 now, small 35 dropped",
    ),
    (
        "Julien has a new phone number: 07 55 44 33 22",
        "Françoise (Julien's mum) has a new phone number: 04 78 99 99 99",
    ),
    ("Mary O'Brien's number is 087 000 1111", "Sean O'Brien's number is now 086 121 2121"),
    ("My address is Calle Cuba 8", "la gestoría tiene número nuevo: 961 55 80 33"),
    ("I live in Porto", "I live in the city centre"),  # a description
    ("I live in Porto", "My sister's home is in Rome"),  # another person
    ("I work at Acme", "My employer is great"),  # a judgement, not a value
    ("My favourite colour is blue", "My favourite food is sushi"),  # another favourite
    ("Bob lives in Braga", "Alice moved to Coimbra"),  # another person
    ("Bob's phone number is 555-1111", "My phone number is 555-2222"),
    ("Book club on 9/12 at 7pm", "Book club book moved to Dune"),  # no day moved to
    ("Dentist on 14/1 at 3pm", "Haircut cancelled"),
    ("I live in Lisbon", "My new address is 5 Rua Nova, Lisbon"),  # a city, no address
    # A new user: the day went with a merge; an appointment replaced who the GP is.
    ("Noah's birthday 30/9 he turns 4", "Noah is 4"),
    # A later adversary: a numbered thing's dated fact and an undated one are two.
    ("Lease for flat 2 ends 31/3/2027", "Flat 2 tenant is Marta"),
    ("My doctor is Dr Silva", "Doctor is raising my lisinopril to 20mg next month"),
    ("Piano lesson on 9/12 at 5pm", "Piano lesson cancelled last week because of snow"),
    ("Flat 2 viewing on 14/1 at 5pm", "Flat 2 rent is 1450"),
    ("My GP is Dr Nguyen at Camberwell Medical Centre", "GP appointment with Dr Nguyen on 15/12"),
    ("Dentist on 14/1 at 3pm", "Leo's dentist moved to 20/1"),
    # A change to come beside what holds now (a landlord: the rent due now was gone).
    ("Rent on flat 1 is 1450 a month", "Rent on flat 1 is going up to 1520 from February"),
    ("Gym membership is 40 a month", "Gym membership will be 45 a month from January"),
    ("Rent is 1450 a month", "Rent costs 1520 starting 1/1"),
    ("I take 10mg lisinopril", "From Monday I take 20mg lisinopril"),
    # A fifth adversary: a day and month, or another language, replaced the dose or rent.
    ("I take 10mg of omeprazole", "From 28 December I take 20mg of omeprazole"),
    ("Ich zahle 900 Euro Miete", "Ab Januar zahle ich 950 Euro Miete"),
    ("the Murphys number is 086 221 3345", "the Kellys number is 087 123 4567"),
    ("My rent is 1500", "Breda's rent is 1200"),
    # A question changes nothing (a fifth adversary: it replaced the appointment).
    ("Dentist on 14/12 at 9am", "Is the dentist moved to 21/12?"),
    ("My email is c@d.com", "My sister's email is a@b.com"),
    # Found by a second adversary.
    ("My husband's phone number is 555-1111", "Ana's husband's phone number is 555-2222"),
    ("I live in Porto", "My home is in disarray"),
    # Found by the third adversary: the past, a stay that ended, a thing moved to, a
    # state or a manner, a description of an employer.
    ("I live in Porto", "In 1999 I moved to Lisbon"),
    ("Bob lives in Braga", "Bob moved to Coimbra as a child"),
    ("Bob lives in Braga", "Bob moved to Coimbra for a semester"),
    ("I live in Porto", "Last week I moved to Slack"),
    ("I live in Porto", "I moved to Vim"),
    ("I live in Porto", "I moved to Room 4"),
    ("I live in Porto", "I live in fear"),
    ("I work at Acme", "I work for free"),
    ("I work at Acme", "I left the party to join Bob"),  # no employer left
    ("I work at Acme", "I left Acme to start my own company"),  # no employer named
    ("I work at Acme", "I might quit Acme and join Initech"),  # a plan
    ("I work at Acme", "I work at full speed"),
    ("I work at Acme", "My employer is HQ'd in Berlin"),
    ("My favourite colour is green", "My favourite colour was blue as a child"),
    ("I live in Porto", "I moved to Berlin in the nineties"),
    ("I live in Porto", "I moved to Berlin at age 5"),
    ("I live in Porto", "I moved to Berlin during college"),
    ("I live in Porto", "I moved to Microsoft Teams"),
    ("I live in Porto", "I moved to the Platform team"),
    ("I live in Porto", "i live in constant fear"),
    ("I work at Acme", "I work at Christmas"),
    ("I work at Acme", "i work for tips"),
    ("I live in Porto", "We're based in Zurich"),
    ("My phone number is 555-1234", "Phone: 555-9999 (dentist)"),
    ("I work at Acme", "My job is at risk"),
    ("I live in Lisbon", "I moved to Berlin in my twenties"),
    ("I live in Lisbon", "I moved to Berlin at 25"),
    ("I live in Lisbon", "I'm living in Rome this week"),
    ("I live in Lisbon", "I moved to Lisbon for the holidays"),
    ("I live in Lisbon", "We moved to Snowflake last month"),
    ("I work at Google", "I work for the Platform team"),
    ("I work at Google", "I work at Tesco on Saturdays"),
    ("I work at Google", "So I work for Uber Eats on the side"),
    ("I work at Google", "I am working at Deloitte this summer"),
    ("My new job is at Bosch", "My husband Tom got a new job at Google"),
    ("My new job is at Zalando", "My son Max got a new job at Lidl"),
    # Found by the fifth adversary: a number that names what the fact is about.
    ("Fact number 1 about apples", "Fact number 2 about apples"),
    ("Room 4 has no heating", "Room 5 has no heating"),
    ("Step 3: add the flour", "Step 4: add the flour and the eggs"),
    ("My dog is called Rex", "My cat is called Tom"),
    ("My work phone is 555-1234", "My phone number is 555-9999 (work)"),
    ("I work at Acme", "I joined the gym"),
    ("I work at Acme", "I'm starting at Google next week"),
    # Health facts that add to the other, or say more than it.
    ("I'm allergic to peanuts and shellfish", "I'm not allergic to peanuts after all"),
    ("I'm allergic to penicillin", "I'm also allergic to latex"),
    ("I take 10mg of lisinopril", "I take 500mg of metformin"),
    ("I take 10mg of lisinopril. My cat is Miso.", "My lisinopril dose went up to 20mg"),
    ("My mother is allergic to cats", "I'm not allergic to cats"),
    ("My doctor is Dr. Lee", "My dentist is Dr. Park"),
    ("I live in Porto", "I do not live in Lisbon"),
    ("I am vegetarian", "Bob is not vegetarian"),
    ("I work at Acme", "I quit smoking and joined a gym"),
    # Near the wordings added for the eighth new user: a trip, a mess, someone else,
    # a thing cut to a number.
    ("I live in Porto", "I moved, I'm in Paris for a conference"),
    ("I live in Porto", "We moved house, we're in a mess"),
    ("I live in Porto", "My brother moved house, he's in Braga"),
    ("I live in Porto", "We moved the meeting, we're in Room 4 now"),
    ("I work at Acme", "Quit smoking! Starting at the gym Monday"),
    ("I work at Acme", "My sister got hired at Initech"),
    ("I take 10mg of lisinopril", "He cut my hours to 20"),
    ("I take 10mg of lisinopril", "Doctor cut my dog's lisinopril to 5mg"),
    ("My family doctor is Dr. Marta Sousa", "My dentist is Dr. Ana Lima"),
    ("I'm allergic to peanuts", "My son has outgrown his peanut allergy"),
    ("I live in Lisbon", "I'm living in Rome this week"),
    ("I work at Acme", "I start at 9am on Mondays"),
    # Found by a new user keeping clients and invoices: two invoices, a client's rate and
    # its deadline.
    ("Invoice 2026-114 to Müller GmbH, 1.240,50 €, paid on 04.12.2026", "Invoice 2026-115 paid"),
    ("Huber Verlag pays 0,09 € per word", "Huber Verlag deadline is 20.12.2026"),
    ("Huber Verlag deadline is 20.12.2026", "Huber Verlag pays 0,09 € per word"),
    ("Order #4471 shipped to Porto", "Order #4472 shipped"),
    # Found by an adversary: another person's allergy merged into the user's, a debt to
    # someone else replaced the user's, the user's appointment was Sam's.
    ("I'm allergic to cats", "Sam is allergic to cats"),
    ("I'm allergic to penicillin", "Jo's allergic to penicillin"),
    ("Tom owes me 80 euros", "Tom owes Lisa 30 euros"),
    ("Sam has a dentist appointment tomorrow at 9am", "Dentist appointment tomorrow at 9am"),
    ("Huber Verlag deadline is 20.12.2026", "Schmidt deadline is 21.12.2026"),
    ("My rent is due on the 1st", "The Müller project is due 10.1.2027"),
    ("The Schmidt job is due Friday", "My sister's job interview moved to Monday"),
    # Found by the second adversary of the round: a manner is no rate, nor one thing paid
    # for another.
    ("Schmidt pays 80 euros an hour", "Schmidt pays on time"),
    ("Lisa pays 20 euros for the ticket", "Lisa pays 25 euros for parking"),
    # A later adversary: a way of paying is no time of paying; a rate for some work is no
    # general rate.
    ("Müller pays late", "Müller pays by bank transfer"),
    ("Müller pays 80 euros an hour", "Müller pays 90 euros an hour for weekend work"),
    ("I take 10mg of lisinopril", "Leo takes 10mg of lisinopril"),
    ("Leo takes 5 ml of ibuprofen", "Mia takes 7.5 ml of ibuprofen"),
    # A partner, a boss, a landlord hold one name, not every word said of them.
    ("My partner is Sam", "My partner is a nurse"),
    ("My partner is Sam", "My partner is in Berlin this week"),
    ("My boss is Maria", "My boss is on holiday until May"),
    ("My wife is Anna", "My boss is Maria"),
    # A later adversary: a capitalised word in what is said of them is no name.
    ("My wife is Anna", "My wife is stuck in Berlin"),
    ("My partner is Sam", "My partner is visiting Paris"),
    ("My landlord is Mr Weber", "My landlord is back from Spain"),
    ("My boss is Mark", "My boss is away until Monday"),
    ("My boss is Maria", "My boss is Dutch"),
    ("My wife is Anna", "My wife is Vegan"),
    ("My wife is Anna", "My wife is ANGRY"),
    # Found by an adversary: the person's words alone made two facts one subject.
    ("My son Leo is 7", "My son Leo is allergic to peanuts"),
    ("My sister Anna is a nurse", "My sister Anna lives in Madrid"),
    ("My husband Tom is a pilot", "My husband Tom lives in Oslo"),
    ("My friend Bob is a chef", "My friend Bob has two kids"),
    ("My partner Alex is a nurse", "My partner Alex likes golf"),
    # Found by a new user: a list and a fact about one of its items replaced each other.
    (
        "Car service booked 19/12 at Marrickville Toyota 8am",
        "days off todo: renew passport, book car service, haircut, call mum",
    ),
    (
        "days off todo: renew passport, book car service, haircut, call mum",
        "Car service booked 22/12 at Marrickville Toyota 8am",
    ),
    ("My sister lives in Berlin", "My brother moved to Rome"),
    ("My boss Alex lives in Berlin", "My partner Alex moved to Oslo"),
    ("My sister lives in Berlin", "My sister works at Google"),
    ("My sister lives in Berlin", "My sister's friend moved to Rome"),
    ("Mia's pediatrician is Dr. Alvarez", "Dr. Kim is Leo's new pediatrician"),
    ("Tom has a nut allergy", "Maya is not allergic to nuts"),
    ("I'm allergic to nuts", "Tom is not allergic to nuts"),
    # Two events of two days: a roster's shifts, deliveries (found fixing a new user's).
    ("night shift again tmrw 9pm-7am, ugh", "Night shift on 16.12.2099 at 9pm"),
    ("Night shift Mon 7/12 21:00", "Night shift Wed 16/12 21:00"),
    ("Flour delivery on Tuesday at 7am", "Flour delivery on Friday at 7am"),
    # A third adversary: a habit beside dated events, a word that moves nothing.
    ("Night shift on 16.12.", "Night shift every Friday"),
    ("Night shift on 15.12.", "Night shift on 16.12. with the new nurse"),
    ("School pickup Monday 3pm", "School pickup Tuesday 3pm, not me but Tom"),
    # A fourth adversary: something else said of an event's name took its day away.
    ("Book club on 9/12 at Anna's", "Book club book is now Dune"),
    ("Swimming lesson Tue 8/12 4pm", "Swimming lessons now cost $20"),
    ("Yoga class Monday 6pm", "Yoga class now has a new teacher, Jess"),
    ("Night shift Mon 7/12 21:00", "Night shift pay is now $45 an hour"),
    # A second adversary: a contact got for someone, a birthday's dinner.
    ("Got a new number for the plumber: 0411 555 666", "got a new number, 0499 888 777"),
    ("Got a new number for the dentist: 0411 555 666", "Got a new work number: 02 7777 3333"),
    ("Mum's birthday is 3/4", "Mum's birthday dinner on 5/4"),
    # The same adversary: two debts, someone else's boss, a pet's weight beside its age.
    ("I owe Priya $42 for concert tickets", "I owe Priya $15 for lunch"),
    # A later adversary: one more debt of the same amount (each merged into the first).
    ("Kim owes me 40", "Kim owes me another 40"),
    ("I owe Ann 25", "I owe Ann 25 more"),
    ("Lee owes me 30", "Lee owes me 30 for lunch too"),
    ("Sam works Saturdays", "Sam now also works Mondays"),
    ("I live in Lisbon", "Went to Porto; I love it there"),
    # A second adversary: another period's one of a kind, its date said alike.
    ("The Q1 report is due 14 April", "The Q2 report is due 14 July"),
    ("The 2025 tax return is due 30 June", "The 2026 tax return is due 30 June 2027"),
    ("The January invoice is due on 14/2", "The February invoice is due on 14/3"),
    ("The March rent is due 1 March", "The April rent is due 1 April"),
    ("The 1st instalment is due 1 March", "The 2nd instalment is due 1 April"),
    ("I owe Joana 23€ for internet", "I sent Joana the photos"),
    ("My boss is Mark", "My boss's boss is Linda"),
    ("My dog Rex is 4", "My dog Rex is 30 kg"),
    ("My son Leo is 7", "My son Leo is 7 kg heavier than last year"),
]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Mum's birthday is 3/4", "Mum's birthday is 4/4"),
        ("My locker is 12/3", "My locker is 3/3"),
    ],
)
async def test_a_value_written_with_the_same_digits_is_no_duplicate(
    memory: Memory, old: str, new: str
) -> None:
    """Found by an adversary: "Mum's birthday is 4/4" was "already remembered" as the 3/4
    one (every word and digit of it was in the old), and the new date was lost."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("old", old)
    await memory.store("new", new)
    assert new in set((await _active(memory)).values())


async def test_a_payment_pays_the_debt_of_its_amount(memory: Memory) -> None:
    """Found by an adversary: "paid Priya the $15" replaced the $42 debt too, and "$20
    towards it" the whole $42."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("power", "I owe Priya $42 for power")
    await memory.store("pizza", "I owe Priya $15 for pizza")
    paid = await memory.store("paid", "paid Priya the $15")
    part = await memory.store("part", "paid Priya $20 towards it")
    assert len(paid.supersedes) == 1 and part.supersedes == []
    assert set(await _active(memory)) == {"power", "paid", "part"}


async def test_a_business_owing_two_invoices_is_paid_invoice_by_invoice(memory: Memory) -> None:
    """Found by a new user, a baker, with a model that reused one key: "The Corrib Café owes
    me 60 euro for invoice 1210" replaced the 95 owed for invoice 1203, and the payment of
    the 60, stored under the same key, then paid the 95."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("corrib", "The Corrib Café owes me 95 euro for invoice 1203")
    second = await memory.store("corrib", "The Corrib Café owes me 60 euro for invoice 1210")
    assert second.key == "corrib_2" and second.supersedes == []
    paid = await memory.store("corrib", "Corrib Cafe paid me the 60 euro")
    assert paid.supersedes == [second.id]
    deli = "Seán at Bia Deli owes me 80 euro for the party cakes"
    await memory.store("sean", deli)
    rolls = await memory.store("sean", "Seán at Bia Deli owes me 45 euro for the bread rolls")
    assert rolls.key == "sean_2"
    assert set((await _active(memory)).values()) == {
        "The Corrib Café owes me 95 euro for invoice 1203",
        "Corrib Cafe paid me the 60 euro",
        deli,
        "Seán at Bia Deli owes me 45 euro for the bread rolls",
    }


async def test_someone_now_doing_what_another_did_replaces_that_fact_alone(
    memory: Memory,
) -> None:
    """Found by a new user, a baker: Ciarán's Saturday shift stayed in effect after
    "Aoife now works the Saturday shift instead of Ciarán", and the first oven technician
    after "the oven technician is now Máire …"."""
    needs(memory, "persistent", "supports_supersede")
    shift = await memory.store("ciaran", "Ciarán works the Saturday shift, 6am to 2pm")
    phone = "Ciarán's phone is 087 555 1234"
    await memory.store("ciaran_phone", phone)
    aoife = await memory.store(
        "aoife", "Aoife now works the Saturday shift instead of Ciarán, 6am to 2pm"
    )
    assert aoife.supersedes == [shift.id]
    first = await memory.store(
        "tech", "The oven technician is Declan Furey from Galway Catering Repairs, 087 221 4455"
    )
    await memory.store("fridge", "The fridge technician is Pat Kelly")
    now = await memory.store("oven", "the oven technician is now Máire Ní Fhlatharta, 086 111")
    assert now.supersedes == [first.id]
    assert set((await _active(memory)).values()) == {
        phone,
        aoife.content,
        "The fridge technician is Pat Kelly",
        now.content,
    }


async def test_a_payment_denied_claimed_in_part_or_of_two_debts_pays_none(
    memory: Memory,
) -> None:
    """Found by an adversary: "Silva never paid invoice 2026-031", "… said he paid … but
    nothing arrived" and "Silva paid 320 of invoice 2026-031" each replaced the debt of
    640; "Silva paid 640" both debts of 640, for two invoices."""
    needs(memory, "persistent", "supports_supersede")
    owed = await memory.store("silva", "Silva owes me 640 for invoice 2026-031")
    for said in (
        "Silva never paid invoice 2026-031",
        "Silva paid nothing of the 640",
        "Silva said he paid invoice 2026-031 but nothing arrived",
        "Silva paid 320 of invoice 2026-031",
    ):
        assert owed.id not in (await memory.store(f"said {said[:20]}", said)).supersedes, said
    await memory.store("silva two", "Silva owes me 640 for invoice 2026-040")
    assert (await memory.store("paid", "Silva paid 640 yesterday")).supersedes == []
    paid = await memory.store("paid 31", "Silva paid invoice 2026-031 in full")
    assert paid.supersedes == [owed.id]


async def test_a_payment_for_one_thing_pays_that_debt_alone(memory: Memory) -> None:
    """Found by an adversary: "Paid Priya back for lunch" replaced the debt for tickets too;
    "paid Priya back", with two debts, says not which."""
    needs(memory, "persistent", "supports_supersede")
    await _store_in(memory, "for", "tickets", "I owe Priya $42 for tickets")
    await _store_in(memory, "for", "lunch", "I owe Priya $15 for lunch")
    paid = await _store_in(memory, "for", "paid", "Paid Priya back for lunch")
    assert len(paid.supersedes) == 1
    assert set(await _active_in(memory, "for")) == {"tickets", "paid"}
    await _store_in(memory, "which", "tickets", "I owe Priya $42 for tickets")
    await _store_in(memory, "which", "lunch", "I owe Priya $15 for lunch")
    back = await _store_in(memory, "which", "paid", "Paid Priya back")
    assert back.supersedes == []
    # Two debts of one amount: the payment for one pays it alone (a later adversary saw
    # "paid Priya the 42 for dinner" mark the concert tickets' debt too).
    await _store_in(memory, "same", "dinner", "I owe Priya 42 for dinner")
    await _store_in(memory, "same", "tickets", "I owe Priya 42 for the concert tickets")
    dinner = await _store_in(memory, "same", "paid", "Paid Priya the 42 for dinner")
    assert len(dinner.supersedes) == 1
    assert set(await _active_in(memory, "same")) == {"tickets", "paid"}


async def test_a_move_names_the_event_it_moves(memory: Memory) -> None:
    needs(memory, "persistent", "supports_supersede")
    await memory.store("mine", "Dentist on 14/1 at 9am")
    await memory.store("sam", "Dinner with Sam on 18/12")
    moved = await memory.store("moved", "Leo's dentist moved to 20/1")
    assert moved.supersedes == []


async def test_a_move_that_says_not_which_of_two_events_replaces_neither(
    memory: Memory,
) -> None:
    """Found by an adversary: "Night shift moved to Thu 17/12" replaced both shifts."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("monday", "Night shift Mon 7/12 21:00")
    await memory.store("wednesday", "Night shift Wed 16/12 21:00")
    moved = await memory.store("moved", "Night shift moved to Thu 17/12")
    assert moved.supersedes == []
    assert set(await _active(memory)) == {"monday", "wednesday", "moved"}


async def test_a_first_name_alone_known_of_two_people_replaces_neither(memory: Memory) -> None:
    """Which Noreen "Noreen has a new number" is, it does not say: both numbers stay. (One
    Noreen Kelly alone is replaced, in `NEW_VALUES`.)"""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("kelly", "Noreen Kelly's number is 087 111 2222")
    await memory.store("walsh", "Noreen Walsh's number is 086 444 5555")
    new = await memory.store("new", "Noreen has a new number 087 999 0000")
    assert new.supersedes == []
    assert set(await _active(memory)) == {"kelly", "walsh", "new"}


async def test_a_first_name_alone_replaces_the_fact_naming_her_so(memory: Memory) -> None:
    """Not "Noreen Kelly's" beside "Noreen's": the fact said as the message says it."""
    needs(memory, "persistent", "supports_supersede")
    noreen = await memory.store("noreen", "Noreen's number is 086 444 5555")
    await memory.store("kelly", "Noreen Kelly's number is 087 111 2222")
    new = await memory.store("new", "Noreen has a new number 087 999 0000")
    assert new.supersedes == [noreen.id]
    assert set(await _active(memory)) == {"kelly", "new"}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Dentist for rory 22/1 at 3", "Dentist for me 22/1 at 4"),
        ("Rory's dentist 22/1", "My dentist 22/1"),
    ],
)
async def test_a_move_that_says_not_which_of_two_events_of_a_day_replaces_neither(
    memory: Memory, first: str, second: str
) -> None:
    """Found by a new user, a nurse: "dentist moved to 29/1" replaced Rory's dentist and
    hers, both on 22/1 at other times: which one moved it does not say."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("dentist_for_rory", first)
    await memory.store("dentist_for_me", second)
    moved = await memory.store("dentist_moved_to", "Dentist moved to 29/1")
    assert moved.supersedes == []
    assert set(await _active(memory)) == {"dentist_for_rory", "dentist_for_me", "dentist_moved_to"}
    # Said again of one of them, it moves that one.
    rory = await memory.store("rory_moved", "Dentist for rory moved to 30/1 at 3")
    assert len(rory.supersedes) == 1


async def test_what_only_looks_like_a_new_value_keeps_both(memory: Memory) -> None:
    needs(memory, "persistent", "supports_supersede")
    wrong: list[tuple[str, str, dict[str, str]]] = []
    for number, (old, new) in enumerate(LOOKALIKES):
        namespace = f"pair-{number}"
        await _store_in(memory, namespace, "before", old)
        after = await _store_in(memory, namespace, "after", new)
        active = await _active_in(memory, namespace)
        if after.supersedes or active != {"before": old, "after": new}:
            wrong.append((old, new, active))
    assert wrong == []


async def test_facts_sharing_only_a_date_or_a_time_both_stay(memory: Memory) -> None:
    """Found in a trial: numbers counted as the words that say what a fact is about, so
    "Frist 2024/10/13" superseded "Rechnung fällig am 13.10.2024"."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("invoice", "Invoice due on 13.10.2024 at 9:00")
    await memory.store("haircut", "Haircut on 13.10.2024 at 9:00")
    await memory.store("rent", "The user's rent is 1,200 euros")
    await memory.store("rent_now", "The user's rent is 1,300 euros")  # a changed value
    assert await _active(memory) == {
        "invoice": "Invoice due on 13.10.2024 at 9:00",
        "haircut": "Haircut on 13.10.2024 at 9:00",
        "rent_now": "The user's rent is 1,300 euros",
    }


async def test_chat_turns_are_never_merged(memory: Memory) -> None:
    needs(memory, "persistent")
    await memory.store("turn 1", "what is the capital of Portugal", "conversation")
    await memory.store("turn 2", "what is the capital of Portugal again", "conversation")
    assert len(await _active(memory)) == 2


@pytest.mark.parametrize("policy", ["reject", "keep"])
async def test_the_duplicate_policy_is_kept(
    memory: Memory, open_store: OpenStore, policy: str
) -> None:
    needs(memory, "persistent", "supports_supersede")
    store = await open_store(duplicate_policy=policy)
    # Not core: a core fact this close would supersede the first as a changed fact anyway.
    old = await store.store("coffee", "The user drinks dark roast coffee every morning", "custom")
    new = await store.store(
        "coffee habit", "The user drinks dark roast coffee every morning at 7", "custom"
    )
    if policy == "reject":
        assert new.id == old.id
        assert await _active(store) == {"coffee": old.content}
    else:
        assert new.id != old.id and new.supersedes == []
        assert len(await _active(store)) == 2


@pytest.mark.parametrize(
    ("key", "content", "importance"),
    [
        ("k" * (MAX_KEY_CHARS + 1), "text", None),
        ("   ", "text", None),
        ("k", "a lone \ud800 surrogate", None),
        ("k", "text", 1.5),
    ],
)
async def test_what_cannot_be_stored_faithfully_is_refused(
    memory: Memory, key: str, content: str, importance: float | None
) -> None:
    needs(memory, "persistent")
    with pytest.raises(InvalidEntryError):
        await memory.store_with_metadata(key, content, importance=importance)
    assert await memory.count() == 0


SCRIPT = [
    ("editor", "The user edits in Helix", "core"),
    ("pet", "The user's cat is called Miso", "core"),
    ("editor", "The user edits in Zed", "core"),
    ("pet again", "the user's cat is called miso!", "core"),
    ("coffee", "The user drinks dark roast coffee every morning", "core"),
    ("coffee 2", "The user drinks dark roast coffee every morning at 7", "core"),
    ("lang", "The user prefers Rust for systems work", "core"),
    ("lang 2", "The user prefers Go for systems work", "core"),
    ("lunch", "Had ramen with Ben", "daily"),
    ("lunch", "Had udon with Ben", "daily"),
    ("turn 1", "what did I have for lunch", "conversation"),
    ("turn 2", "what did I have for lunch", "conversation"),
    ("note", "Passport renewal is due in March", "custom"),
    ("note 2", "Passport renewal is due in March, book the appointment", "custom"),
]


async def test_the_same_writes_leave_the_same_memory_as_sqlite(
    memory: Memory, open_store: OpenStore
) -> None:
    needs(memory, "persistent")
    reference = await open_store("sqlite")
    for key, content, category in SCRIPT:
        await memory.store(key, content, category)
        await reference.store(key, content, category)
    assert await _active(memory) == await _active(reference)
    if memory.capabilities.supports_supersede:
        assert await _history(memory) == await _history(reference)


async def _import_script(store: Memory) -> tuple[dict[str, int], list[str], list[str]]:
    """An adversary's import: an id moved to another namespace, the same id twice in one
    import, two records for one key. Returns what stays, as comparable values."""
    base = (await store.store("dentist", "Dentist on Monday", "core")).model_copy(
        update={"id": "n1", "namespace": "work"}
    )
    await store.import_([base])
    moved = base.model_copy(update={"key": "piano", "namespace": "home"})
    await store.import_([moved])
    first = base.model_copy(update={"id": "a1", "key": "k", "namespace": "default"})
    second = first.model_copy(update={"content": "second version"})
    third = first.model_copy(update={"id": "a2", "content": "third"})
    summary = await store.import_([first, second, third])
    active = await store.list(namespace="default", prefix="k")
    history = await store.list(namespace="default", prefix="k", include_superseded=True)
    counts = [await store.count(namespace=n) for n in ("work", "home")]
    assert counts == [1, 1]
    return (
        summary.model_dump(),
        [e.content for e in active],
        sorted(e.content for e in history),
    )


async def test_an_import_keeps_what_it_replaces_as_sqlite_does(
    memory: Memory, open_store: OpenStore
) -> None:
    needs(memory, "persistent", "supports_export", "supports_supersede")
    reference = await open_store("sqlite")
    expected = await _import_script(reference)
    assert expected[1:] == (["third"], ["Dentist on Monday", "second version", "third"])
    assert await _import_script(memory) == expected


async def test_an_older_export_leaves_a_version_replaced_since_as_it_is(memory: Memory) -> None:
    """Found by a new user: an export taken before "I now owe KES 35,000" replaced "I still
    owe KES 85,000", imported again, brought the old debt back into effect beside the new
    one (SQLite also kept a second copy of it as history)."""
    needs(memory, "persistent", "supports_export", "supports_supersede")
    old = await memory.store("i_still_owe", "I still owe KES 85,000 for the fees", "core")
    new = await memory.store("i_now_owe", "I now owe KES 35,000 for the fees", "core")
    await memory.supersede([old.id], new.id)
    summary = await memory.import_([old])
    assert (summary.unchanged, summary.replaced, summary.added) == (1, 0, 0)
    active = await memory.list(namespace="default")
    assert [e.content for e in active] == ["I now owe KES 35,000 for the fees"]
    every = await memory.list(namespace="default", include_superseded=True)
    assert sorted(e.content for e in every) == [
        "I now owe KES 35,000 for the fees",
        "I still owe KES 85,000 for the fees",
    ]


async def test_forget_removes_the_history_of_what_it_forgets(memory: Memory) -> None:
    needs(memory, "persistent", "supports_delete", "supports_supersede")
    await memory.store("editor", "The user edits in Helix")
    await memory.store("editor", "The user edits in Zed")  # Helix kept as history
    await memory.store("pet", "The user's cat is called Miso")
    assert await memory.count() == 3
    assert await memory.forget("editor") is True
    remaining = await memory.list(namespace=None, include_superseded=True)
    assert [e.key for e in remaining] == ["pet"]  # no older version of "editor" left over


async def test_forgetting_a_replacement_brings_back_what_it_replaced(memory: Memory) -> None:
    """Found by an adversary: "I moved to Neovim" wrongly replaced the user's home, and
    forgetting the mistake deleted the home with it. Forget deletes every version under
    its key; a fact it had replaced under another key is in effect again."""
    needs(memory, "persistent", "supports_delete", "supports_supersede")
    oldest = await memory.store("lang_1", "The user prefers Rust")
    older = await memory.store("lang_2", "The user prefers Python")
    await memory.store("lang_3", "The user prefers Go")
    await memory.store("lang_3", "The user prefers Go 1.22")  # a version under the key
    assert await memory.get("lang_2") is None
    assert await memory.forget("lang_3") is True
    back = await memory.get("lang_2")
    assert back is not None and back.id == older.id and back.content == older.content
    assert back.updated_at == older.updated_at  # as it was: an undo is exact
    still = await memory.get_by_id(oldest.id)  # Rust stays history of Python
    assert still is not None and still.superseded_by == older.id
    assert await memory.get("lang_3") is None
    everything = await memory.list(namespace=None, include_superseded=True)
    assert sorted(e.key for e in everything) == ["lang_1", "lang_2"]
    lifecycle = memory.lifecycle
    if lifecycle is not None:
        audit = await lifecycle.audit_log()
        assert sorted(r.content for r in audit if r.action == "forget") == [
            "The user prefers Go",
            "The user prefers Go 1.22",
        ]
    recalled = await memory.recall("which language does the user prefer", limit=5)
    assert "The user prefers Python" in [e.content for e in recalled.entries]


async def test_forgetting_a_key_keeps_its_versions_another_fact_replaced(
    memory: Memory,
) -> None:
    """Found by a new user: "I live in Porto" (key `home`) was replaced by "I moved to
    Lisbon"; a wrong "I live in Paris", stored under `home` again, replaced Lisbon.
    Forgetting `home` deleted Porto too: it was Lisbon's history, not the key's chain."""
    needs(memory, "persistent", "supports_delete", "supports_supersede")
    porto = await memory.store("home", "I live in Porto")
    lisbon = await memory.store("moved", "I moved to Lisbon")
    paris = await memory.store("home", "I live in Paris")
    assert lisbon.supersedes == [porto.id] and paris.supersedes == [lisbon.id]
    assert await memory.forget("home") is True
    assert await memory.get_by_id(paris.id) is None
    back = await memory.get("moved")
    assert back is not None and back.id == lisbon.id
    kept = await memory.get_by_id(porto.id)
    assert kept is not None and kept.superseded_by == lisbon.id


async def test_the_message_a_fact_was_made_from_goes_with_the_fact(memory: Memory) -> None:
    """A saved message the model turned into a fact is history of the fact; forgetting the
    fact forgets the message too (it may hold the same secret), while a fact the forgotten
    one replaced stays."""
    needs(memory, "persistent", "supports_delete", "supports_supersede")
    older = await memory.store("pin", "The user's bank PIN is 1111")
    message = await memory.store_with_metadata(
        "conversation/s1/m1", "remember my bank PIN is 4321", "conversation", "s1"
    )
    fact = await memory.store("pin_now", "The user's bank PIN is 4321")
    assert fact.supersedes == [older.id]
    assert await memory.supersede([message.id], fact.id) == 1
    assert await memory.forget("pin_now") is True
    assert await memory.get_by_id(message.id) is None
    back = await memory.get("pin")
    assert back is not None and back.id == older.id


async def test_what_a_forget_brings_back_follows_its_key_when_the_key_is_taken(
    memory: Memory,
) -> None:
    """A replaced fact whose key is held by a newer entry becomes that entry's history:
    two entries in effect under one key would break every lookup by key."""
    needs(memory, "persistent", "supports_delete", "supports_supersede")
    porto = await memory.store("home", "The user lives in Porto")
    lisbon = await memory.store("moved", "The user lives in Lisbon")
    assert lisbon.supersedes == [porto.id]
    holder = await memory.store_with_metadata("home", "The user's home office has a view", "daily")
    assert await memory.forget("moved") is True
    kept = await memory.get_by_id(porto.id)
    assert kept is not None and kept.superseded_by == holder.id
    current = await memory.get("home")
    assert current is not None and current.id == holder.id


LABELLED_SET = {
    "editor": "The user edits code in Helix",
    "pet": "The user's cat is called Miso",
    "sister": "The user's sister Ana lives in Porto",
    "trip": "Flying to Lisbon in March for a conference",
    "lunch": "Had ramen for lunch with Ben",
    "tea": "The user drinks green tea every afternoon",
}
QUESTIONS = {
    "what editor does the user use": "editor",
    "cat name": "pet",
    "where does Ana live": "sister",
    "Lisbon conference": "trip",
    "ramen lunch": "lunch",
    "afternoon tea": "tea",
}


async def test_a_migrated_memory_answers_as_the_sqlite_one_did(
    memory: Memory, open_store: OpenStore
) -> None:
    """Switching backend with `migrate` keeps the answers to the same questions.

    Backends with vectors give the same entries with the same scores (ties may come in
    another order); markdown, which has keyword recall only, the same first answer.
    """
    from memory.migration import migrate

    needs(memory, "persistent", "supports_keyword_search", "supports_export")
    source = await open_store("sqlite")
    for key, text in LABELLED_SET.items():
        await source.store(key, text)
    await source.store("editor", "The user edits code in Zed")  # Helix kept as history
    await source.store_with_metadata("ana", "Ana from work lives in Lisbon", namespace="work")
    assert (await migrate(source, memory)).mismatched == []
    for question, key in QUESTIONS.items():
        before = await source.recall(question, limit=10)
        after = await memory.recall(question, limit=10)
        assert after.entries and after.entries[0].key == key, question
        if memory.capabilities.supports_vectors:
            # Equal scores may come in another order (each engine breaks ties its own way).
            assert sorted((-(e.score or 0), e.key) for e in after.entries) == sorted(
                (-(e.score or 0), e.key) for e in before.entries
            ), question


async def test_one_id_in_two_namespaces_of_one_import_is_two_memories(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by an adversary: the second record superseded the first namespace's fact."""
    needs(memory, "persistent", "supports_export", "supports_supersede")
    at = datetime(2026, 1, 2, tzinfo=UTC)
    home = MemoryEntry(
        id="a1", key="pet", content="My cat is called Tom", timestamp=at, updated_at=at
    )
    work = home.model_copy(update={"namespace": "work", "content": "Office cat is Garfield"})
    results = []
    for store in (memory, await open_store("sqlite")):
        summary = await store.import_([home, work])
        mine, theirs = await store.get("pet"), await store.get("pet", namespace="work")
        assert mine is not None and mine.content == "My cat is called Tom" and mine.id == "a1"
        assert theirs is not None and theirs.content == "Office cat is Garfield"
        results.append((summary.added, summary.renumbered, summary.kept_as_history))
    assert results[0] == results[1] == (2, 1, 0)


async def test_an_import_says_when_it_makes_an_older_version_current(
    memory: Memory, open_store: OpenStore
) -> None:
    """The new user's top finding: re-importing an old export silently undid later changes."""
    needs(memory, "persistent", "supports_export", "supports_supersede")

    def record(entry_id: str, key: str, content: str, when: datetime) -> MemoryEntry:
        return MemoryEntry(id=entry_id, key=key, content=content, timestamp=when, updated_at=when)

    old = datetime(2026, 1, 2, tzinfo=UTC)
    results = []
    for store in (memory, await open_store("sqlite")):
        editor = await store.store("editor", "The user edits in Helix")  # saved now
        await store.store("pet", "The user's cat is called Miso")
        summary = await store.import_(
            [
                record(editor.id, "editor", "The user edits in Vim", old),  # same id, older
                record("p-old", "pet", "The user's cat is called Tom", old),  # same key, older
                record("t-new", "tea", "Green tea", editor.updated_at),  # nothing replaced
            ]
        )
        active = {e.key: e.content for e in await store.list(limit=10)}
        assert active["editor"] == "The user edits in Vim"  # records win, as documented
        assert active["pet"] == "The user's cat is called Tom"
        results.append(summary.older_than_replaced)
    assert results == [2, 2]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("key", ""),
        ("key", " "),
        ("key", "k" * (MAX_KEY_CHARS + 1)),
        ("namespace", "  "),
        ("id", " "),
    ],
    ids=["empty key", "blank key", "long key", "blank namespace", "blank id"],
)
async def test_an_import_refuses_what_a_write_refuses_and_writes_nothing(
    memory: Memory, field: str, value: str
) -> None:
    """Found by an adversary: Qdrant stored keys and namespaces that no command could then
    name (to forget them) and that a migration to SQLite refused."""
    needs(memory, "persistent", "supports_export")
    at = datetime(2026, 1, 2, tzinfo=UTC)
    good = MemoryEntry(id="g1", key="pet", content="My cat is Tom", timestamp=at, updated_at=at)
    bad = good.model_copy(update={"id": "b1", "key": "editor", field: value})
    with pytest.raises(InvalidEntryError, match=rf"record 2 .*{field if field != 'id' else ''}"):
        await memory.import_([good, bad])
    assert await memory.count(namespace=None) == 0


async def test_an_imported_vector_of_the_wrong_size_or_too_large_loses_nothing(
    memory: Memory,
) -> None:
    """Found by an adversary: a record claiming our model for a vector of another size
    stopped a Qdrant import halfway (its engine refused the size), and one too large to
    normalise was stored as zeros. Now the import completes and such a vector is made
    again (SQLite leaves it for `reindex`, counted as without a vector; before, it kept
    it, counted it as embedded and never found it by meaning)."""
    needs(memory, "persistent", "supports_export", "supports_vectors")
    at = datetime(2026, 1, 2, tzinfo=UTC)
    embedder = CountingEmbedder(64)

    def record(number: int, vector: npt.NDArray[np.float32]) -> MemoryRecord:
        return MemoryRecord(
            id=f"r{number}",
            key=f"note {number}",
            content=f"note number {number} about tea",
            timestamp=at,
            updated_at=at,
            embedding=StoredEmbedding.from_bytes(
                embedder.identity, vector.size, vector.astype("<f4").tobytes()
            ),
        )

    (fine,) = await embedder.embed(["note number 0 about tea"])
    records = [
        record(0, fine),
        record(1, np.ones(4, dtype=np.float32)),
        record(2, np.full(64, 1e30, dtype=np.float32)),
        record(3, np.zeros(64, dtype=np.float32)),
    ]
    for alone in records:  # a vector of another size alone in its batch, as at a file's end
        await memory.import_([alone])
    assert await memory.count(namespace=None) == 4
    exported = {entry.id: entry async for entry in memory.export()}
    vectors = {
        entry_id: entry.embedding
        for entry_id, entry in exported.items()
        if isinstance(entry, MemoryRecord) and entry.embedding is not None
    }
    assert "r0" in vectors  # exports carry vectors, so the check below reads them
    made_again = 0
    for entry_id in ("r1", "r2", "r3"):
        if entry_id in vectors:
            values = np.frombuffer(vectors[entry_id].to_bytes(), dtype="<f4")
            assert np.any(values != 0.0), entry_id
            made_again += 1
    # What was not made again is said to be without a vector (reindex embeds it).
    assert (await memory.stats()).stale_embedding == 3 - made_again
    for number in range(4):
        found = await memory.recall(f"note number {number} about tea", limit=3)
        assert found.entries and found.entries[0].key == f"note {number}"


async def test_an_imported_vector_of_another_length_is_found_by_its_direction(
    memory: Memory,
) -> None:
    """Found by an adversary: SQLite stored a vector of our model at length 5 as given and
    then never found it by meaning; Qdrant and PostgreSQL searched its direction."""
    needs(memory, "persistent", "supports_export", "supports_vectors")
    at = datetime(2026, 1, 2, tzinfo=UTC)
    embedder = CountingEmbedder(64)
    (direction,) = await embedder.embed(["a lighthouse keeper's log"])
    stretched = (direction * 5).astype("<f4")
    await memory.import_(
        [
            MemoryRecord(
                id="r0",
                key="log",
                content="qqq",
                timestamp=at,
                updated_at=at,
                embedding=StoredEmbedding.from_bytes(embedder.identity, 64, stretched.tobytes()),
            )
        ]
    )
    found = await memory.search(RecallQuery("zzz", limit=3, query_vector=direction))
    assert [entry.key for entry in found.entries] == ["log"]
    assert found.entries[0].scores is not None
    assert found.entries[0].scores.cosine == pytest.approx(1.0, abs=1e-4)


async def test_an_import_of_several_versions_of_a_key_chains_them_as_sqlite_does(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by an adversary: the same file told SQLite "3 new, 2 replacing" and Qdrant
    and Markdown "4 new, 1 replacing, 2 kept as history", and chained a1 and a2 both to
    a3 where SQLite made a1 <- a2 <- a3."""
    needs(memory, "persistent", "supports_export", "supports_supersede")

    def version(
        entry_id: str, key: str, content: str, day: int, namespace: str = "default"
    ) -> MemoryEntry:
        at = datetime(2026, 1, day, 9, tzinfo=UTC)
        return MemoryEntry(
            id=entry_id,
            key=key,
            content=content,
            namespace=namespace,
            timestamp=at,
            updated_at=at,
        )

    records = [
        version("a1", "editor", "I use vim", 1),
        version("a2", "editor", "I use emacs", 2),
        version("a3", "editor", "I use helix", 3),
        version("b1", "cat", "My cat is called Tom", 1),
        version("w1", "editor", "work editor is vscode", 1, namespace="work"),
    ]
    results = {}
    for name, store in (("tested", memory), ("sqlite", await open_store("sqlite"))):
        held = await store.store("editor", "I use nano")  # a stored holder of the key
        summary = await store.import_(records)
        links = {
            e.id: e.superseded_by
            for e in await store.list(namespace=None, include_superseded=True, limit=50)
        }
        links["held"] = links.pop(held.id)
        results[name] = (
            (summary.added, summary.replaced, summary.kept_as_history),
            sorted(links.items(), key=lambda pair: pair[0]),
        )
    assert results["tested"] == results["sqlite"]
    counts, pairs = results["sqlite"]
    chain = dict(pairs)
    assert counts == (2, 3, 3)
    assert (chain["held"], chain["a1"], chain["a2"], chain["a3"]) == ("a1", "a2", "a3", None)
    # The same file again changes nothing: before, every import set each earlier version
    # aside once more, as a fresh history copy (found by an adversary).
    before = {
        (e.key, e.content, e.superseded_by)
        for e in await memory.list(namespace=None, include_superseded=True, limit=50)
    }
    again = await memory.import_(records)
    assert (again.added, again.replaced, again.kept_as_history, again.unchanged) == (0, 0, 0, 5)
    after = await memory.list(namespace=None, include_superseded=True, limit=50)
    assert {(e.key, e.content, e.superseded_by) for e in after} == before and len(after) == 6


async def test_a_file_with_one_id_twice_imported_again_changes_nothing(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by an adversary: each import of such a file kept one more copy of the earlier
    version as history."""
    needs(memory, "persistent", "supports_export", "supports_supersede")
    first, second = (datetime(2026, 1, day, 9, tzinfo=UTC) for day in (1, 2))
    records = [
        MemoryEntry(id="a", key="pet", content="dog Rex", timestamp=first, updated_at=first),
        MemoryEntry(id="a", key="pet", content="cat Tom", timestamp=first, updated_at=second),
        MemoryEntry(id="b", key="tea", content="green tea", timestamp=first, updated_at=first),
    ]
    outcomes = {}
    for name, store in (("tested", memory), ("sqlite", await open_store("sqlite"))):
        await store.store("pet", "a parrot")  # a stored holder of the key
        counts = []
        for _ in range(3):
            summary = await store.import_(records)
            counts.append((summary.added, summary.replaced, summary.unchanged))
        listed = await store.list(namespace=None, include_superseded=True, limit=50)
        outcomes[name] = (counts, sorted((e.content, e.superseded_by is None) for e in listed))
    assert outcomes["tested"] == outcomes["sqlite"]
    counts, versions = outcomes["sqlite"]
    assert counts[1:] == [(0, 0, 3), (0, 0, 3)]
    assert versions == [
        ("a parrot", False),
        ("cat Tom", True),
        ("dog Rex", False),
        ("green tea", True),
    ]


async def test_a_text_that_differs_only_in_case_or_end_marks_is_still_written(
    memory: Memory,
) -> None:
    """Found by an adversary: an inspector edit that added "!" or fixed a capital was
    thrown away (only the time changed) while the inspector said "Saved". Such text is
    written in place, with no new version for it."""
    needs(memory, "persistent")
    first = await memory.store("dentist", "dentist on tuesday at 9", "core")
    fixed = await memory.store("dentist", "Dentist on Tuesday at 9!", "core")
    got = await memory.get("dentist")
    assert got is not None and got.content == "Dentist on Tuesday at 9!"
    assert fixed.id == first.id and got.id == first.id
    again = await memory.store("dentist", "Dentist on Tuesday at 9!", "core")
    assert again.id == first.id and again.content == "Dentist on Tuesday at 9!"
    note = await memory.store("note", "buy milk", "daily")
    await memory.store("note", "Buy milk.", "daily")
    got_note = await memory.get("note")
    assert got_note is not None and (got_note.id, got_note.content) == (note.id, "Buy milk.")


async def test_a_things_weight_does_not_replace_the_users(memory: Memory) -> None:
    """Found by an adversary: "My bike weighs 12 kg" replaced "I weigh 80 kg" as "the
    same subject" (no verb was read in either, so no subject)."""
    needs(memory, "persistent", "supports_supersede")
    mine = await memory.store("my_weight", "I weigh 80 kg", "core")
    await memory.store("bike_weight", "My bike weighs 12 kg", "core")
    kept = await memory.get_by_id(mine.id)
    assert kept is not None and kept.superseded_by is None
    newer = await memory.store("weight_now", "I weigh 78 kg now", "core")
    replaced = await memory.get_by_id(mine.id)
    assert replaced is not None and replaced.superseded_by == newer.id
    bike = await memory.get("bike_weight")
    assert bike is not None and bike.superseded_by is None


async def test_the_users_fact_and_one_of_someone_of_theirs_stay_apart(memory: Memory) -> None:
    """Found by an adversary: "My daughter is allergic to penicillin" was merged into "I'm
    allergic to penicillin" as its near-duplicate; "what am I allergic to?" found only the
    daughter's. So with a father's dose, a guest's diet and a wife's errand."""
    needs(memory, "persistent")
    pairs = [
        ("I'm allergic to penicillin", "My daughter is allergic to penicillin"),
        ("I take 10mg of lisinopril", "My father takes 10mg of lisinopril"),
        ("I take metformin 500mg twice daily", "My mother takes metformin 500mg twice daily"),
        ("I don't eat pork", "My guest doesn't eat pork"),
        ("I need to call the bank on Monday", "My wife needs to call the bank on Monday"),
    ]
    for at, (mine, theirs) in enumerate(pairs):
        for category in ("core", "conversation"):
            own = await memory.store(f"own_{category}_{at}", mine, category)
            other = await memory.store(f"other_{category}_{at}", theirs, category)
            assert other.key == f"other_{category}_{at}" and other.content == theirs
            assert other.supersedes == []
            kept = await memory.get_by_id(own.id)
            assert kept is not None and kept.content == mine and kept.superseded_by is None
    # Told again by the user in other words, the user's own fact is still one fact.
    again = await memory.store("own_again", "I'm allergic to penicillin.", "core")
    assert again.key == "own_core_0"


async def test_a_vaguer_fact_does_not_replace_two_that_stood_side_by_side(
    memory: Memory,
) -> None:
    """Found by an adversary: "I have a meeting with the team on Friday" replaced both the
    design team's Monday meeting and the sales team's Tuesday one."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("design", "Meeting with the design team every Monday at 10")
    await memory.store("sales", "Meeting with the sales team every Tuesday at 3pm")
    friday = await memory.store("friday", "I have a meeting with the team on Friday")
    assert friday.supersedes == []
    assert set(await _active(memory)) == {"design", "sales", "friday"}
    # One of them changed, said as plainly, still replaces it.
    moved = await memory.store("moved", "Meeting with the design team every Monday at 11")
    assert len(moved.supersedes) == 1
    assert "design" not in await _active(memory)


async def test_people_whose_names_are_function_words_elsewhere_keep_their_own_facts(
    memory: Memory,
) -> None:
    """Found by an adversary: once "em", "su", "ho", "le", "della" and "di" were left out of
    every text (they are function words in other languages), "Su's phone number" replaced
    "Em's", and "Di's email" was merged into "Della's"."""
    needs(memory, "persistent", "supports_supersede")
    pairs = [
        ("Em's phone number is 555-0199", "Su's phone number is 555-0142"),
        ("Ho's birthday is March 3", "Le's birthday is June 9"),
        ("Della's email is della@example.com", "Di's email is di@example.com"),
    ]
    for number, (first, second) in enumerate(pairs):
        namespace = f"people-{number}"
        await _store_in(memory, namespace, "first", first)
        after = await _store_in(memory, namespace, "second", second)
        assert after.supersedes == [], (first, second)
        assert await _active_in(memory, namespace) == {"first": first, "second": second}


async def test_the_same_words_naming_another_day_are_another_memory(memory: Memory) -> None:
    """Found by an adversary: "Dentist tomorrow at 9am" said today was "already
    remembered" as the same words said two weeks before, so today's appointment was
    lost; a message said again the next day went the same way. Noon UTC keeps every
    machine's local dates apart."""
    needs(memory, "persistent")
    from memory.write_rules import NewMemory

    text = "Dentist tomorrow at 9am"
    before = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    today = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    old = await memory.write(NewMemory(key="dentist", content=text, created_at=before))
    new = await memory.write(NewMemory(key="dentist_again", content=text, created_at=today))
    assert new.id != old.id and new.supersedes == []
    again = await memory.write(NewMemory(key="dentist_3", content=text, created_at=today))
    assert again.id == new.id  # the same day: the same memory
    said = "Parcel from Zalando arrives tomorrow"
    first = await memory.write(
        NewMemory(key="c1", content=said, category="conversation", created_at=before)
    )
    second = await memory.write(
        NewMemory(key="c2", content=said, category="conversation", created_at=today)
    )
    assert second.id != first.id
    active = await memory.list(namespace=None, limit=50)
    assert sorted(e.id for e in active) == sorted({old.id, new.id, first.id, second.id})


async def test_one_name_two_people_are_told_apart_by_whose_each_is(memory: Memory) -> None:
    """Found by a third adversary: with a boss Alex and a partner Alex known, "My partner
    Alex's phone number changed to 555-0999" replaced neither (the partner's stayed in
    effect), and "Alex's birthday is June 10" replaced the partner's birthday though the
    boss Alex is known by another fact."""
    needs(memory, "persistent")
    await memory.store("boss_phone", "My boss Alex's phone number is 555-0101")
    await memory.store("partner_phone", "My partner Alex's phone number is 555-0202")
    changed = await memory.store(
        "partner_new", "My partner Alex's phone number changed to 555-0999"
    )
    partner = await memory.get("partner_phone")
    assert partner is None or partner.superseded_by is not None
    assert len(changed.supersedes) == 1
    await memory.store("boss_job", "My boss Alex works at Initech")
    await memory.store("partner_birthday", "My partner Alex's birthday is June 9")
    alone = await memory.store("alex_birthday", "Alex's birthday is June 10")
    assert alone.supersedes == []
    assert set(await _active(memory)) == {
        "boss_phone",
        "partner_new",
        "boss_job",
        "partner_birthday",
        "alex_birthday",
    }
    # Nor does one said whose replace one said of either (a later adversary).
    await memory.store("alex_email", "Alex's email is alex@home.org")
    boss = await memory.store("boss_email", "My boss Alex's email is alex@work.com")
    assert boss.supersedes == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My doctor is Dr. Patel", "Dr. Ng is my new doctor"),
        ("Dr. Patel is my doctor", "Dr. Ng is my doctor now"),
        ("I live in Porto", "Lisbon is where I live now"),
        ("I work at Google", "Microsoft is my employer now"),
        ("My sister lives in Madrid", "Lisbon is where my sister lives now"),
        # A later adversary: said of someone named, of "our", of someone said by how.
        ("Leo's pediatrician is Dr. Alvarez", "Dr. Kim is Leo's new pediatrician"),
        ("My pediatrician is Dr. Alvarez", "Dr. Kim is our new pediatrician"),
        ("My boss Alex lives in Berlin", "Lisbon is where my boss Alex lives now"),
    ],
)
async def test_a_fact_said_value_first_replaces_the_old_one(
    memory: Memory, old: str, new: str
) -> None:
    """Found by an adversary: opening with a name, each was read as that one's fact and
    left the old doctor, home or employer in effect."""
    needs(memory, "persistent")
    first = await memory.store("old", old)
    second = await memory.store("new", new)
    assert second.supersedes == [first.id]
    assert await _active(memory) == {"new": new}


async def test_something_else_new_or_another_number_replaces_nothing(memory: Memory) -> None:
    needs(memory, "persistent")
    await memory.store("phone", "Tom's number is 555 1212")
    await memory.store("car", "Tom has a new car, a red Golf")
    await memory.store("lucky", "My lucky number is 7")
    await memory.store("mine", "My phone number is 416 555 0101")
    await memory.store("account", "My account number is 12345678")
    await memory.store("acme", "My contact at Acme is Tom Reyes")
    await memory.store("bluefin", "My contact at Bluefin is Sue Park")
    await memory.store("emergency", "My emergency contact is Mum, 555 0101")
    assert set(await _active(memory)) == {
        *("phone", "car", "lucky", "mine", "account", "acme", "bluefin", "emergency")
    }


async def test_people_said_value_first_stay_apart(memory: Memory) -> None:
    needs(memory, "persistent")
    await memory.store("brother", "My brother is Sam")
    await memory.store("other", "Tom is my brother")
    await memory.store("cats", "Sam is allergic to cats")
    assert set(await _active(memory)) == {"brother", "other", "cats"}


async def test_the_same_key_naming_another_day_is_another_memory(memory: Memory) -> None:
    """Found by an adversary: the CLI and /remember make the key from the text, and a
    model reuses its own, so the same words two weeks later came to the old key and were
    "already remembered" (or replaced the old appointment's text)."""
    needs(memory, "persistent")
    from memory.write_rules import NewMemory

    before = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    today = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    old = await memory.write(
        NewMemory(key="dentist", content="Dentist tomorrow at 9am", created_at=before)
    )
    new = await memory.write(
        NewMemory(key="dentist", content="Dentist tomorrow at 9am", created_at=today)
    )
    assert new.id != old.id and new.supersedes == [] and new.key == "dentist_20261205"
    vet = await memory.write(NewMemory(key="vet", content="The vet is tomorrow", created_at=before))
    later = await memory.write(
        NewMemory(key="vet", content="the vet is tomorrow at 4pm", created_at=today)
    )
    assert later.id != vet.id and later.supersedes == []
    # Said again the same day: the same memory, under the key it took.
    again = await memory.write(
        NewMemory(key="dentist", content="Dentist tomorrow at 9am", created_at=today)
    )
    assert again.id == new.id
    active = {e.id: e.content for e in await memory.list(namespace=None, limit=50)}
    assert set(active) == {old.id, new.id, vet.id, later.id}
    # A day named otherwise under the same key is the change it says.
    moved = await memory.write(
        NewMemory(key="vet", content="The vet moved to Friday", created_at=today)
    )
    under_vet = [e.content for e in await memory.list(namespace=None, limit=50) if e.key == "vet"]
    assert moved.key == "vet" and under_vet == ["The vet moved to Friday"]


async def test_the_same_key_holding_another_one_of_its_kind_keeps_both(memory: Memory) -> None:
    """Found by a new user, a landlord: a model reused one key, and "Flat 3 rent …"
    replaced Flat 2's, February's payment January's: a landlord's records were each left
    as history only."""
    needs(memory, "persistent")
    await memory.store("flat_rent", "Flat 2 rent is €1,700 a month")
    flat3 = await memory.store("flat_rent", "Flat 3 rent is €1,550 a month")
    flat1 = await memory.store("flat_rent", "Flat 1 rent is €1,450 a month")
    assert (flat3.key, flat1.key) == ("flat_rent_2", "flat_rent_3")
    # A new version of one of them takes its key, under whichever it was.
    raised = await memory.store("flat_rent", "Flat 3 rent is €1,600 a month")
    assert raised.key == "flat_rent_2" and raised.supersedes == [flat3.id]
    await memory.store("flat_rent", "Flat 2 rent is €1,750 a month")
    await memory.store("paid", "Ciarán paid January rent in full")
    await memory.store("paid", "Ciarán paid February rent in full")
    await memory.store("paid", "Ciarán paid January rent late, actually on 12 Jan")
    await memory.store("flat_rent", "Flat 2 rent is going up to €1,800 from March")
    await memory.store("owe", "I owe Priya $42 for tickets")
    await memory.store("owe", "I owe Priya $15 for lunch")
    await memory.store("dentist", "Dentist on 14/1 at 3pm")
    await memory.store("dentist", "Dentist on 28/1 at 10am")
    await memory.store("nct", "The NCT is due 18 March")
    await memory.store("nct", "The NCT is due 20 March")
    # A new user, an engineer: one thing's day said anew in the same words is no other.
    await memory.store("ship", "The billing migration ships on 14 January")
    await memory.store("ship", "The billing migration ships on 21 January")
    assert await _active(memory) == {
        "ship": "The billing migration ships on 21 January",
        "flat_rent": "Flat 2 rent is €1,750 a month",
        "flat_rent_2": "Flat 3 rent is €1,600 a month",
        "flat_rent_3": "Flat 1 rent is €1,450 a month",
        "flat_rent_4": "Flat 2 rent is going up to €1,800 from March",
        "owe": "I owe Priya $42 for tickets",
        "owe_2": "I owe Priya $15 for lunch",
        "dentist": "Dentist on 14/1 at 3pm",
        "dentist_2": "Dentist on 28/1 at 10am",
        "nct": "The NCT is due 20 March",
        "paid": "Ciarán paid January rent late, actually on 12 Jan",
        "paid_2": "Ciarán paid February rent in full",
    }


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Tom has a nut allergy", "Maya is allergic to penicillin"),
        ("I owe Priya 42", "I owe Tom 20"),
        ("Marta's phone is 0176 1111111", "Jonas's phone is 0176 2222222"),
        ("Plumber's number is 0176 444", "Electrician's number is 0176 555"),
        ("My email is sam@acme.com", "Marta's email is marta@acme.com"),
        ("invoice 1023 for 300 is due 14/1", "invoice 1024 for 450 is due 14/1"),
        ("Flight TP1234 departs at 9:00", "Flight TP1240 departs at 9:00"),
        # A new user, a nurse: another house's password, someone else's appointment.
        ("The wifi password for breda is Shamrock!2019", "The wifi password at mams is Kerry22"),
        ("Rory's dentist 22/1", "My dentist 22/1"),
        # A fourth adversary: the user's and a relation's, two relations, lower-case
        # names, another month's payment given a key of its own yet replacing it.
        ("I'm allergic to penicillin", "My husband is allergic to shellfish"),
        ("My son is allergic to nuts", "My daughter is allergic to eggs"),
        ("My number is 555-1234", "My wife's number is 555-9876"),
        ("My mum's number is 555-1234", "My dad's number is 555-9876"),
        ("I owe my brother 100", "I owe my sister 50"),
        ("tom is allergic to nuts", "maya is allergic to eggs"),
        ("Marta paid November", "Marta paid December"),
        ("dentist 14/1", "dentist 3/2"),
        ("Nov rent paid", "Dec rent paid"),
        ("Dentist appointment on the 14th", "Dentist appointment on the 21st"),
        ("Dentist for Tom on 14/1", "Dentist for Maya on 14/1"),
        ("Flat 2 rent is 1100", "Flat three rent is 1200"),
        ("Garage rent is 80", "Flat 2 rent is 1100"),
        ("Gas meter 12345", "Electricity meter 4620"),
        ("Order 112-3345 arrives Tuesday", "Order 112-9999 arrives Friday"),
        ("INV-1042 300 EUR", "INV-1043 250 EUR"),
        # A fifth adversary: a second medicine or allergen, in other languages too; two
        # people's events of one day.
        ("I take 5mg of warfarin daily", "I take 10mg of ramipril"),
        ("Warfarin 5mg daily", "Ramipril 10mg daily"),
        ("I'm allergic to penicillin", "I'm also allergic to amoxicillin"),
        ("Ich bin allergisch gegen Penicillin", "Mein Mann ist allergisch gegen Erdnüsse"),
        ("Meeting with Anna on 10/12 at 10am", "Meeting with Bob on 10/12 at 2pm"),
        ("Call with anna at 10am on 10/12", "Call with bob at 2pm on 10/12"),
        ("Tom has football on Saturday 12/12", "Maya has football on Saturday 12/12"),
        ("Flat 2 rent is 1100", "flat3 rent is 1150"),
        # Changes to come in other words (a fourth trial: each replaced what holds now).
        ("Rent is 1450 a month", "Rent costs 1520 starting 1/1"),
        ("My salary is 52k", "salary rises to 55k in April"),
        ("I take 10mg lisinopril", "From Monday I take 20mg lisinopril"),
        ("I work at Acme", "I start at Google in January"),
        ("Breda charges 12 an hour", "Breda's rate goes up to 14 an hour from January"),
        ("I take 10mg of omeprazole", "From 28 December I take 20mg of omeprazole"),
        ("Flat 2 rent is 1100", "Flat III rent is 1150"),
        # A new user, a dog groomer: two clients of one surname.
        ("Noreen Kelly has a new number 085 999 8888", "Paddy Kelly has a new number 087 333 4444"),
        ("Mary O'Brien has a new number 087 000 1111", "Sean O'Brien's number is now 086 121 2121"),
        ("Large dogs are 60, medium 45, small 35", "Medium dogs now 50"),
        # A second adversary: one kind of thing by another name, under one key.
        ("My ANZ card PIN is 1111", "My Westpac card PIN is 2222"),
        ("PIN karty mBank to 5555", "PIN karty Revolut to 6666"),
        ("Mr Walsh's phone is 01 999 0000", "Mrs Walsh has a new number 01 888 0000"),
        # An adversary: by a word before the kind, not a name.
        ("gym locker code is 1234", "office locker code is 5678"),
        ("front door code is 1111", "back door code is 2222"),
        # An adversary: a relative's, named by whose relative they are.
        (
            "Noreen Kelly's phone number is 087 111 2222",
            "Noreen Kelly's son's phone number is 087 333 3333",
        ),
        ("Tom's email is tom@x.ie", "Tom's wife's email is ann@x.ie"),
        # A new user, a translator: another attribute of one owner under its key.
        ("The lyon agency pays me 0.11 per word", "the Lyon agency's PM is Camille Bernard"),
        ("My dentist is Dr Kelly", "My dentist's number is 087 123 4567"),
        ("Dr Kelly's phone is 087 123", "Dr Kelly's address is 3 Main St"),
        ("Mum lives in Faro", "Mum's birthday is 3 May"),
        # A later adversary: another of the user's, a payment to someone else.
        ("my brother lives in Berlin", "my other brother lives in Munich"),
        ("my kid goes to Escola Azul", "my other kid goes to Escola Verde"),
        ("Silva paid 640", "Silva paid Costa 640"),
        # A new user, a parent: two attributes of her child, a word of their values alike.
        (
            "Lucía's pediatrician is Dr. Ortega at the Centro de Salud Ruzafa",
            "Lucía's school is CEIP Ruzafa, her teacher is Marta Vidal",
        ),
    ],
)
async def test_the_same_key_holding_someone_or_something_else_keeps_both(
    memory: Memory, first: str, second: str
) -> None:
    """Found by a later adversary: each second fact, stored under the first's key,
    replaced it."""
    needs(memory, "persistent")
    await memory.store("k", first)
    kept = await memory.store("k", second)
    assert kept.key == "k_2"
    assert await _active(memory) == {"k": first, "k_2": second}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Dentist on 14/1 at 9", "Dentist delayed until 21/1"),
        ("Invoice 1042 due 13/10", "Invoice 1042 due 20/10"),
        ("Flat 2 rent is 1100", "Flat two rent is 1150"),
        ("INV-1042 due 15/10", "INV 1042 due 20/10"),
        ("Flat 2 rent is 1100", "flat2 rent is 1150"),
        ("I take 5mg of warfarin", "I take 7mg of warfarin now"),
        # One attribute named another way, or its value said again.
        ("The lyon agency pays me 0.11 per word", "The Lyon agency's rate is now 0.12 per word"),
        ("Dr Kelly's phone is 087 123", "Dr Kelly's number is 087 999"),
        ("My phone number is 087 111 2222", "My mobile number is 086 333 4444"),
        ("Ciarán's rate is 14 an hour", "Ciarán charges 15 an hour now"),
        ("My boss is Brian", "My boss's name is Alan"),
        ("Lucía's school is CEIP Ruzafa", "Lucía's school is CEIP Sorolla"),
        ("Meeting with Anna on 10/12 at 10am", "Meeting with Anna on 10/12 at 11am"),
        # A new user, a biologist: the trip moved, its dates and flight one list of values.
        (
            "Fieldwork trip to the Azores (São Miguel) from 12 to 26 April 2027, sampling tide "
            "pools with Marta; flight TP1863",
            "Fieldwork trip to the Azores (São Miguel) moved to 3–17 May 2027 (Marta has a "
            "defense in April), sampling tide pools with Marta",
        ),
    ],
)
async def test_the_same_key_given_the_same_ones_new_value_replaces_it(
    memory: Memory, first: str, second: str
) -> None:
    """Found by a fourth adversary: each was kept as a second one, the old value in effect."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("k", first)
    new = await memory.store("k", second)
    assert new.key == "k" and len(new.supersedes) == 1
    assert await _active(memory) == {"k": second}


async def test_a_meeting_moved_replaces_nothing_else_of_who_it_is_with(memory: Memory) -> None:
    """Found by a new user, a biologist: the meetings' new day replaced her thesis deadlines,
    one of which was due to the professor she meets."""
    needs(memory, "persistent", "supports_supersede")
    thesis = (
        "Thesis deadlines: chapter 2 (methods) due to Prof. Duarte on 15 January 2027; "
        "chapter 3 (seagrass results) due end of March 2027"
    )
    await memory.store("thesis_deadlines", thesis)
    meetings = await memory.store(
        "meetings", "My meetings with prof. duarte are now on thursdays at 14h"
    )
    assert meetings.supersedes == []
    assert (await _active(memory)).get("thesis_deadlines") == thesis


async def test_a_move_under_a_key_holding_one_of_two_events_replaces_neither(
    memory: Memory,
) -> None:
    """Found by a fifth adversary: "Dentist moved to 21/1", stored under the key of Tom's
    dentist beside Maya's (both on 14/1), replaced Tom's; with one event, it still moves it."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("dentist", "Dentist for Tom on 14/1 at 9am")
    await memory.store("dentist", "Dentist for Maya on 14/1 at 3pm")
    moved = await memory.store("dentist", "Dentist moved to 21/1")
    assert moved.supersedes == []
    assert await _active(memory) == {
        "dentist": "Dentist for Tom on 14/1 at 9am",
        "dentist_2": "Dentist for Maya on 14/1 at 3pm",
        "dentist_3": "Dentist moved to 21/1",
    }
    await memory.store("vet", "Vet for Biscuit on 9/12 at 10am")
    vet = await memory.store("vet", "Vet moved to 11/12")
    assert vet.key == "vet" and len(vet.supersedes) == 1


async def test_one_time_of_an_event_that_recurs_keeps_the_schedule(memory: Memory) -> None:
    """Found by a new user, a nurse: "rorys speech therapy moved to thurs 17/12 at 4"
    replaced the fortnightly therapy, under its key or another."""
    needs(memory, "persistent", "supports_supersede")
    await memory.store("therapy", "Rory speech therapy every other wed at 3.30")
    await memory.store("therapy", "Rorys speech therapy moved to thurs 17/12 at 4")
    await memory.store("swimming", "Aoife has swimming every tue and thu 5pm")
    await memory.store("off", "aoife swimming cancelled til january, coach is sick")
    assert await _active(memory) == {
        "therapy": "Rory speech therapy every other wed at 3.30",
        "therapy_2": "Rorys speech therapy moved to thurs 17/12 at 4",
        "swimming": "Aoife has swimming every tue and thu 5pm",
        "off": "aoife swimming cancelled til january, coach is sick",
    }


async def test_a_key_of_its_own_holding_something_else_is_passed_by(memory: Memory) -> None:
    """Found by an adversary: "Bike rental shop opens at 9", stored under "rent_2" by hand,
    was replaced by "Flat 3 rent is 1300" written under "rent"."""
    needs(memory, "persistent")
    await memory.store("rent_2", "Bike rental shop opens at 9")
    await memory.store("rent", "Flat 2 rent is 1450")
    flat3 = await memory.store("rent", "Flat 3 rent is 1300")
    assert flat3.key == "rent_3"
    assert set(await _active(memory)) == {"rent", "rent_2", "rent_3"}


async def test_a_list_said_again_with_items_taken_off_is_its_new_version(memory: Memory) -> None:
    """Found by an adversary: "todo: passport, haircut" after "todo: passport, car service,
    haircut" was "already remembered", and the done item stayed on the list."""
    needs(memory, "persistent")
    await memory.store("todo", "todo: passport, car service, haircut")
    await memory.store("shopping", "Shopping list: milk, eggs, bread, butter")
    await memory.store("tea", "I like green tea")
    await memory.store("todo_done", "todo: passport, haircut")
    await memory.store("todo_done_again", "todo: passport")  # a third adversary
    await memory.store("shopping_done", "Shopping list: milk, eggs, bread")
    await memory.store("tea_again", "I like tea")  # adds nothing: the detail is kept
    assert sorted((await _active(memory)).values()) == [
        "I like green tea",
        "Shopping list: milk, eggs, bread",
        "todo: passport",
    ]


async def test_an_edit_by_hand_replaces_its_entry_whatever_the_text_says(memory: Memory) -> None:
    """Found by a new user: an order edited in the inspector to another day was kept as a
    second order beside the first (read as another one), and the first stayed in effect."""
    needs(memory, "persistent", "supports_supersede")
    friday = await memory.store("order", "Murphys cake due fri 11/12, €85")
    moved = "Murphys cake due sat 12/12 (moved from fri), €85"
    edited = await memory.write(NewMemory(key="order", content=moved, by_hand=True))
    assert edited.key == "order" and edited.supersedes == [friday.id]
    assert await _active(memory) == {"order": moved}
    written = await memory.store("order", "Rorys cake due sat 12/12, €60")
    assert written.key != "order"


@pytest.mark.parametrize(
    "moved",
    [
        "The clinic moved! New address is 4 Elm Road, Leeds",
        "Mum moved house! New address is 5 Ash Road, Leeds",
        "We moved mum into a care home. New address is 9 Birch Road",
    ],
)
async def test_someone_elses_move_leaves_the_users_home(memory: Memory, moved: str) -> None:
    """Found by a third adversary: each replaced "I live at 12 Oak Street, Bristol"."""
    needs(memory, "persistent", "supports_supersede")
    home = await memory.store("home", "I live at 12 Oak Street, Bristol")
    other = await memory.store("moved", moved)
    assert other.supersedes == []
    assert (await memory.get_by_id(home.id)).superseded_by is None  # type: ignore[union-attr]

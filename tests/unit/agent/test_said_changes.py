"""A message that says the user's home or employer changed updates the fact (agent.said_changes)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent.events import MemoryRecalled, MemorySaved, Notice
from agent.secret_changes import secret_said_changed
from agent.testing import Reply, call
from memory.text import analyze
from tests.unit.agent.conftest import Harness


async def _in_effect(harness: Harness) -> dict[str, str]:
    return {
        entry.key: entry.content
        for entry in await harness.memory.list(limit=100)
        if entry.category != "conversation"
    }


async def test_a_move_said_in_chat_updates_the_home_and_keeps_the_old_one(
    harness: Harness,
) -> None:
    """Found by a new user: "Big news: we moved to Lisbon!" left "I live in Berlin" in
    effect, and once the message expired (30 days) only the stale fact was left."""
    old = await harness.memory.store("home", "I live in Berlin", "core")
    harness.model.add("Congratulations! Lisbon is lovely.")
    events = await harness.turn("Big news: we moved to Lisbon! Can you find me a dentist?")
    # Kept without the words announcing it (a new user found "Big news:" in the fact).
    assert await _in_effect(harness) == {"home": "We moved to Lisbon!"}
    history = await harness.memory.get_by_id(old.id)
    assert history is not None and history.superseded_by is not None
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("'I live in Berlin'" in text and "kept as history" in text for text in notices)
    assert any("tick 'superseded' in the memory inspector" in text for text in notices)
    saved = [e.entry.key for e in events if isinstance(e, MemorySaved)]
    assert saved.count("home") == 1
    # The message said more than the fact: it stays a memory of its own.
    messages = [e for e in await harness.memory.list(limit=100) if e.category == "conversation"]
    assert [m.content for m in messages] == [
        "Big news: we moved to Lisbon! Can you find me a dentist?"
    ]
    found = await harness.memory.recall("where do I live", limit=5)
    assert found.entries[0].key == "home"


@pytest.mark.parametrize(
    "taken_back",
    [
        "actually no, sorry, we didn't move, still in Lagos",
        "jk 😂 we're still in Lagos",
        "jk",
        # A later adversary:
        "lol no, we're still in Lagos",
        "wait, we didn't actually move",
        "never mind, that was a joke",
    ],
)
async def test_a_move_taken_back_by_the_next_message_puts_the_home_back(
    harness: Harness, taken_back: str
) -> None:
    """Found by an adversary: after "Big news: we moved to Sagres!" the next message took it
    back, and the model was still told Sagres."""
    await harness.memory.store("home", "I live in Lagos", "core")
    harness.model.add("Congratulations!", "Ah, noted.", "Lagos.")
    await harness.turn("Big news: we moved to Sagres!")
    assert await _in_effect(harness) == {"home": "We moved to Sagres!"}
    events = await harness.turn(taken_back)
    assert await _in_effect(harness) == {"home": "I live in Lagos"}
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert "You took back your last message: 'home' is back as it was before it." in notices
    # An answer taking nothing back changes nothing (a later adversary: "no, I didn't move
    # the couch yet" put the home back).
    harness.model.add("Congratulations!", "Ok.", "Ok.")
    await harness.turn("Big news: we moved to Sagres!")
    for answer in ("no, I still need help with the dentist", "no, I didn't move the couch yet"):
        await harness.turn(answer)
        assert await _in_effect(harness) == {"home": "We moved to Sagres!"}


async def test_a_message_that_is_only_the_change_becomes_the_facts_history(
    harness: Harness,
) -> None:
    await harness.memory.store("job", "I work at Siemens", "core")
    harness.model.add("Good luck at Google!")
    await harness.turn("I started a new job at Google")
    assert await _in_effect(harness) == {"job": "I started a new job at Google"}
    active = await harness.memory.list(limit=100)
    assert [e.category for e in active] == ["core"]  # the message is the fact's history


@pytest.mark.parametrize(
    "message",
    [
        "What if I moved to Lisbon?",
        "I might move to Lisbon next year",
        "I wish I lived in Lisbon",
        "My brother moved to Lisbon",
        "I moved to Lisbon in 1999",
        "I live in Berlin, can you recommend a café?",  # the same value
        "I moved to Vim for editing",
        # Found by the second adversary: quotes, code, lists, jokes taken back, a value
        # held beside the other, and a message correcting itself.
        '"I live in Lisbon," said Maria.',
        "> I moved to Lisbon",
        "```\nI moved to Lisbon\n```",
        "    I moved to Lisbon",
        "- I moved to Lisbon",
        "# I live in Lisbon",
        "Big news: we moved to Lisbon! (that's the draft for my novel)",
        "I moved to Lisbon. Just kidding!",
        "I moved to Lisbon!!! (not really)",
        "I moved to Lisbon /s",
        "I moved to Lisbon in my dreams",
        "I live in Lisbon. Kidding. Porto still.",
        "I live in Lisbon half the year",
        "I live in Lisbon part-time",
        "I live in Lisbon for tax purposes",
        "I moved to Lisbon. Actually no, I moved to Madrid.",
    ],
)
async def test_what_is_no_plain_change_leaves_the_fact(harness: Harness, message: str) -> None:
    await harness.memory.store("home", "I live in Berlin", "core")
    harness.model.add("Sure.")
    events = await harness.turn(message)
    assert await _in_effect(harness) == {"home": "I live in Berlin"}
    assert not [e for e in events if isinstance(e, Notice)]


async def test_no_fact_is_made_from_a_message_when_none_says_otherwise(
    harness: Harness,
) -> None:
    harness.model.add("Welcome to Lisbon!")
    await harness.turn("We moved to Lisbon last month")
    assert await _in_effect(harness) == {}


async def test_a_fact_saying_more_is_left_for_the_name_it_holds(harness: Harness) -> None:
    await harness.memory.store("profile", "My name is Dana and I live in Porto", "core")
    harness.model.add("Nice!")
    events = await harness.turn("I moved to Lisbon")
    assert await _in_effect(harness) == {"profile": "My name is Dana and I live in Porto"}
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert len(notices) == 1 and "'profile'" in notices[0] and "still says otherwise" in notices[0]


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("Dr Fitzgerald cut my atorvastatin back to 20mg", True),
        ("My husband's atorvastatin was cut to 20mg", False),
    ],
)
async def test_a_dose_of_one_of_a_facts_medicines_is_left_and_said(
    harness: Harness, message: str, said: bool
) -> None:
    """Found by a new user, an allotment's secretary: nothing said the dose was left."""
    meds = "I take atorvastatin 40mg at night and amlodipine 5mg in the morning"
    await harness.memory.store("meds", meds, "core")
    harness.model.add("Noted.")
    events = await harness.turn(message)
    assert await _in_effect(harness) == {"meds": meds}
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert notices == (
        [
            "Your message says something changed, but the memory 'meds' "
            f"({meds!r}) still says otherwise; it says more than that, so it was left as it is "
            "(edit it in the memory inspector, F2)."
        ]
        if said
        else []
    )


async def test_when_the_model_stores_the_change_the_message_changes_nothing_more(
    harness: Harness,
) -> None:
    await harness.memory.store("home", "I live in Berlin", "core")
    harness.model.add(
        Reply(tool_calls=[call("memory_store", key="home", content="The user lives in Lisbon")]),
        Reply("Noted."),
    )
    events = await harness.turn("We moved to Lisbon!")
    assert await _in_effect(harness) == {"home": "The user lives in Lisbon"}
    assert not [e for e in events if isinstance(e, Notice)]


async def test_incognito_and_the_setting_off_change_nothing(make_harness: Any) -> None:
    off: Harness = await make_harness(agent__update_facts_from_messages=False)
    await off.memory.store("home", "I live in Berlin", "core")
    off.model.add("Nice.")
    await off.turn("I moved to Lisbon")
    assert await _in_effect(off) == {"home": "I live in Berlin"}

    quiet: Harness = await make_harness()
    await quiet.memory.store("home", "I live in Berlin", "core")
    quiet.session.incognito = True
    quiet.model.add("Nice.")
    await quiet.turn("I moved to Lisbon")
    assert await _in_effect(quiet) == {"home": "I live in Berlin"}


async def test_a_redacted_secret_stays_redacted_in_the_fact(harness: Harness) -> None:
    await harness.memory.store("job", "I work at Siemens", "core")
    harness.model.add("Congrats.")
    await harness.turn("I started a new job at Google. My password is hunter2hunter2")
    facts = await _in_effect(harness)
    assert facts == {"job": "I started a new job at Google."}
    assert all("hunter2" not in e.content for e in await harness.memory.list(limit=100))


async def test_a_clause_of_a_longer_sentence_updates_its_fact(harness: Harness) -> None:
    """Found by the second adversary: "My name is Sam and I live in Lisbon now" changed
    nothing (only whole sentences were read)."""
    await harness.memory.store("home", "I live in Berlin", "core")
    await harness.memory.store("job", "I work at Siemens", "core")
    harness.model.add("Noted.")
    await harness.turn("I live in Lisbon and I work at Google")
    assert await _in_effect(harness) == {"home": "I live in Lisbon", "job": "I work at Google"}


async def test_the_job_setting_of_a_competitor_is_no_change(harness: Harness) -> None:
    await harness.memory.store("job", "I work at Acme", "core")
    harness.model.add("Sure.")
    await harness.turn("I work at Google's competitor")
    assert await _in_effect(harness) == {"job": "I work at Acme"}


@pytest.mark.parametrize(
    "message",
    [
        # Found by the fifth new user: none of these changed the job.
        "Started at Google last Monday!",
        "I joined Google",
        "I work as a software engineer at Google",
        "I started working at Google",
        # Found by the eighth new user.
        "I left Hospital São João to join Google",
        "Big news: I quit Hospital São João and joined Google last week!",
        # Left from the eighth new user's round.
        "Quit my job at Hospital São João! Starting at Google on Monday",
        "I've been hired by Google",
        # The tenth new user's.
        "I started a new job at Google this week, still as a nurse.",
    ],
)
async def test_other_wordings_of_a_new_job_update_it(harness: Harness, message: str) -> None:
    await harness.memory.store("job", "I work at Hospital São João as a nurse", "core")
    harness.model.add("Congratulations!")
    await harness.turn(message)
    facts = await _in_effect(harness)
    assert list(facts) == ["job"] and "Google" in facts["job"]


@pytest.mark.parametrize(
    ("message", "now"),
    [
        # Left from the eighth new user's round: the move told first, the place after.
        ("We relocated again — now living in Braga!", "We relocated again — now living in Braga!"),
        ("We moved house, we're in Coimbra now.", "We moved house, we're in Coimbra now."),
    ],
)
async def test_a_move_told_before_its_place_updates_the_home(
    harness: Harness, message: str, now: str
) -> None:
    await harness.memory.store("home", "I live in Porto", "core")
    harness.model.add("Nice.")
    await harness.turn(message)
    assert await _in_effect(harness) == {"home": now}


async def test_a_move_naming_where_it_was_from_updates_the_home(harness: Harness) -> None:
    """Found by the second adversary: the old home in "from Porto" made the two agree."""
    await harness.memory.store("home", "I live in Porto", "core")
    harness.model.add("Welcome to Lisbon.")
    await harness.turn("I moved to Lisbon from Porto last week")
    assert await _in_effect(harness) == {"home": "I moved to Lisbon from Porto last week"}


@pytest.mark.parametrize(
    "message",
    [
        # Found by the third adversary: each changed the fact.
        "I moved to Lisbon in a video game",
        "I live in Lisbon (not)",
        "I moved to Lisbon /j",
        "I live in Lisbon in theory",
        "she replied: I live in Lisbon",
        "I was born in Berlin but we moved to Lisbon",
        # Found by the ninth adversary.
        "Never thought I'd say this but I moved to Lisbon. Not.",
        "Big news: we moved to Lisbon! Well, my parents did.",
        "Customer email pasted: Hi, I moved to Lisbon, please update my address.",
        "I grew up in Berlin, then we moved to Lisbon when I was ten",
        "I live in Lisbon and Madrid",
    ],
)
async def test_more_that_is_no_plain_change_leaves_the_home(harness: Harness, message: str) -> None:
    await harness.memory.store("home", "I live in Berlin", "core")
    harness.model.add("Sure.")
    await harness.turn(message)
    assert await _in_effect(harness) == {"home": "I live in Berlin"}


@pytest.mark.parametrize(
    "message",
    ["I joined Google for lunch", "I joined Reddit", "I work at Google and Meta"],
)
async def test_what_is_no_new_employer_leaves_the_job(harness: Harness, message: str) -> None:
    await harness.memory.store("job", "I work at Siemens", "core")
    harness.model.add("Sure.")
    await harness.turn(message)
    assert await _in_effect(harness) == {"job": "I work at Siemens"}


async def test_the_rest_of_the_sentence_stays_out_of_the_fact(harness: Harness) -> None:
    """Found by the third adversary: "I moved to Madrid, my password is …" made the whole
    sentence the fact."""
    await harness.memory.store("home", "I live in Berlin", "core")
    harness.model.add("Noted.")
    await harness.turn("I moved to Madrid, my cat hates the heat")
    assert await _in_effect(harness) == {"home": "I moved to Madrid"}


async def test_a_place_with_its_country_is_kept_whole(harness: Harness) -> None:
    await harness.memory.store("home", "I live in Berlin", "core")
    harness.model.add("Noted.")
    await harness.turn("I live in Lisbon, Portugal now")
    assert await _in_effect(harness) == {"home": "I live in Lisbon, Portugal now"}


async def test_a_move_that_denies_the_old_home_updates_it(harness: Harness) -> None:
    """Left from the last round: the "not" made "I live in Lisbon now, not Porto" a
    denial, and the old home stayed."""
    await harness.memory.store("home", "I live in Porto", "core")
    harness.model.add("Noted.")
    await harness.turn("I live in Lisbon now, not Porto")
    assert await _in_effect(harness) == {"home": "I live in Lisbon now, not Porto"}


async def test_an_updated_fact_stops_where_the_value_does(harness: Harness) -> None:
    """Found by the ninth adversary: "… so please stop emailing" and "… where my login is
    ana.s" became part of the employer fact."""
    await harness.memory.store("job", "I work at Siemens", "core")
    harness.model.add("Noted.")
    await harness.turn("I started a new job at Initech where my login is ana.s")
    assert await _in_effect(harness) == {"job": "I started a new job at Initech"}


@pytest.mark.parametrize(
    ("old", "message", "now"),
    [
        # Found by the ninth adversary: none of these changed the fact from chat.
        (
            "I take 10mg of lisinopril",
            "My lisinopril dose went up to 20mg.",
            "I take 20mg of lisinopril",
        ),
        (
            "I'm allergic to penicillin",
            "Good news, I'm no longer allergic to penicillin!",
            "I'm no longer allergic to penicillin!",
        ),
        ("My doctor is Dr. Alvarez", "My new doctor is Dr. Costa.", "My new doctor is Dr. Costa."),
        # Left from the eighth new user's round.
        (
            "I take 10mg of lisinopril",
            "Doctor cut my lisinopril back to 5mg",
            "I take 5mg of lisinopril",
        ),
        (
            "My address is 5 Rua das Flores, Porto",
            "My new address is 12 Rua Augusta, Lisbon.",
            "My new address is 12 Rua Augusta, Lisbon.",
        ),
        (
            "My email is ana@example.com",
            "My email is now ana@new.com",
            "My email is now ana@new.com",
        ),
        # Found by the tenth new user.
        (
            "My family doctor is Dr. Marta Sousa",
            "Quick update: I switched to a new GP, Dr. Rui Costa.",
            "I switched to a new GP, Dr. Rui Costa.",
        ),
        (
            "I'm allergic to peanuts",
            "Good news, the allergist says I've outgrown the peanut allergy.",
            "The allergist says I've outgrown the peanut allergy.",
        ),
        # A contact said to be new with "have a new …" (a new user, a freelancer).
        (
            "My phone number is 416 555 0101",
            "btw I have a new phone number: 416 555 0199",
            "Btw I have a new phone number: 416 555 0199",
        ),
        # A dose whose clause names no medicine, the message one (an adversary).
        (
            "I take atorvastatin 20mg",
            "Dr Kelly doubled my atorvastatin, I'm on 40mg now",
            "I take atorvastatin 40mg",
        ),
        # A dose alone changed is written into the fact, which keeps its other words (a
        # new user, a baker: "every morning" and what it is for were lost); a change
        # saying how often too is the fact as said.
        (
            "I take amlodipine 5mg every morning for my blood pressure",
            "GP upped my amlodipine to 10mg today",
            "I take amlodipine 10mg every morning for my blood pressure",
        ),
        (
            "I take amlodipine 5mg every morning",
            "GP changed my amlodipine to 10mg twice a day",
            "GP changed my amlodipine to 10mg twice a day",
        ),
        # Said in another language (an adversary): kept in its English reading.
        ("I live in Porto", "Me he mudado a Sevilla", "I moved to Sevilla"),
        ("I work at Acme", "Ich arbeite jetzt bei Siemens", "I work at Siemens now"),
        (
            "I'm allergic to penicillin",
            "Je ne suis plus allergique à la pénicilline",
            "I'm no longer allergic to penicillin",
        ),
    ],
)
async def test_a_health_fact_said_in_chat_updates_it(
    harness: Harness, old: str, message: str, now: str
) -> None:
    await harness.memory.store("health", old, "core")
    harness.model.add("Noted.")
    events = await harness.turn(message)
    assert await _in_effect(harness) == {"health": now}
    assert any(isinstance(e, Notice) and "updated the memory 'health'" in e.text for e in events)


@pytest.mark.parametrize(
    "message",
    [
        "My mother's doctor is Dr. Costa.",
        "I take 500mg of metformin too.",
        "What if my dose went up to 20mg?",
        "My sister is not allergic to penicillin.",
        # Contacts: a second one told plainly, someone else's, a new pet of a kind.
        "My work email is ana@acme.com",
        "My sister's new email is rita@new.com",
        "What is my new address?",
        "My new cat is called Tom",
        "The doctor says my son has outgrown his penicillin allergy.",
        '"I switched to a new GP, Dr. Rui Costa," my mother said.',
    ],
)
async def test_what_is_no_change_of_the_users_health_fact_leaves_it(
    harness: Harness, message: str
) -> None:
    await harness.memory.store("dose", "I take 10mg of lisinopril", "core")
    await harness.memory.store("allergy", "I'm allergic to penicillin", "core")
    await harness.memory.store("doctor", "My doctor is Dr. Alvarez", "core")
    await harness.memory.store("email", "My email is ana@example.com", "core")
    await harness.memory.store("address", "My address is 5 Rua das Flores, Porto", "core")
    await harness.memory.store("cat", "My cat is called Miso", "core")
    before = await _in_effect(harness)
    harness.model.add("Sure.")
    await harness.turn(message)
    assert await _in_effect(harness) == before


@pytest.mark.parametrize(
    ("known", "message"),
    [
        # An adversary: "Big news: Alex's new phone number is 555-0999" replaced the partner
        # Alex's number while the boss Alex's was in effect too.
        (
            [
                "My boss Alex's phone number is 555-0101",
                "My partner Alex's phone number is 555-0202",
            ],
            "Big news: Alex's new phone number is 555-0999",
        ),
        # A first name alone, of two contacts (an allotment's secretary's round).
        (
            ["Noreen Kelly's number is 087 111 2222", "Noreen Walsh's number is 086 444 5555"],
            "Noreen has a new number 087 999 0000",
        ),
    ],
)
async def test_a_name_two_people_share_said_alone_updates_neither(
    harness: Harness, known: list[str], message: str
) -> None:
    for number, fact in enumerate(known):
        await harness.memory.store(f"person-{number}", fact, "core")
    before = await _in_effect(harness)
    harness.model.add("Noted.")
    await harness.turn(message)
    assert await _in_effect(harness) == before


@pytest.mark.parametrize(
    ("message", "now"),
    [
        ("noreen kelly's new number is 087 999 0000", "Noreen kelly's new number is 087 999 0000"),
        ("Noreen has a new number 087 999 0000", "Noreen has a new number 087 999 0000"),
        ("new number for Noreen Kelly 087 999 0000", "New number for Noreen Kelly 087 999 0000"),
    ],
)
async def test_a_contacts_new_number_said_in_chat_updates_theirs_alone(
    harness: Harness, message: str, now: str
) -> None:
    """Found by a new user, an allotment secretary: each updated nothing (a name typed in
    lower case, a first name alone, a name in full after "for")."""
    await harness.memory.store("noreen", "Noreen Kelly's number is 087 111 2222", "core")
    await harness.memory.store("paddy", "Paddy Kelly's number is 087 333 4444", "core")
    harness.model.add("Noted.")
    await harness.turn(message)
    assert await _in_effect(harness) == {
        "noreen": now,
        "paddy": "Paddy Kelly's number is 087 333 4444",
    }


async def test_a_doctor_said_name_first_in_chat_updates_the_doctor(harness: Harness) -> None:
    """Found by an adversary: "Dr. Ng is my doctor now, Patel retired" updated nothing."""
    await harness.memory.store("doctor", "My doctor is Dr. Patel", "core")
    harness.model.add("Noted.")
    await harness.turn("Dr. Ng is my doctor now, Patel retired")
    assert await _in_effect(harness) == {"doctor": "My doctor is Dr. Ng now, Patel retired"}


async def test_a_familys_pediatrician_said_in_chat_updates_it(harness: Harness) -> None:
    """Found by a new user, a parent: "our pediatrician is now Dr. Kim" changed nothing,
    and the old doctor was recalled first for "who is our pediatrician?"."""
    await harness.memory.store("peds", "Our pediatrician is Dr. Patel", "core")
    await harness.memory.store("vet", "Our vet is Dr. Lee", "core")
    harness.model.add("Noted.")
    await harness.turn("our pediatrician is now Dr. Kim")
    assert await _in_effect(harness) == {
        "peds": "Our pediatrician is now Dr. Kim",
        "vet": "Our vet is Dr. Lee",
    }


async def test_a_new_doctor_after_a_comma_updates_the_doctor(harness: Harness) -> None:
    """Found by a new user, a nurse: "changed GPs, my new GP is Dr Lisa Chen at Enmore
    Family Practice" left "My GP is Dr Anand Patel" in effect (one clause, no subject)."""
    await harness.memory.store("gp", "My GP is Dr Anand Patel", "core")
    harness.model.add("Noted.")
    await harness.turn("changed GPs, my new GP is Dr Lisa Chen at Enmore Family Practice")
    assert await _in_effect(harness) == {
        "gp": "My new GP is Dr Lisa Chen at Enmore Family Practice"
    }


async def test_the_update_line_is_kept_with_the_chat(harness: Harness) -> None:
    """Found by the ninth new user: a reopened chat showed the reply without the line that
    said which memory the message updated."""
    await harness.memory.store("home", "I live in Berlin", "core")
    harness.model.add("Congratulations!")
    await harness.turn("We moved to Lisbon!")
    reopened = harness.sessions.load(harness.session.id)
    [(at, [line])] = reopened.notes.items()
    assert at == len(reopened.messages) and "updated the memory 'home'" in line


async def test_a_dose_edited_with_a_doctors_name_is_still_updated_by_a_message(
    harness: Harness,
) -> None:
    """Found by a new user: after an inspector edit to "I take 100mg of sertraline every
    morning (dose raised by Dr. Weber in December)", "My sertraline dose went up to 150mg."
    changed nothing: "Dr. Weber" was read as a second sentence, a fact saying two things."""
    await harness.memory.store("sertraline", "I take 50mg of sertraline every morning", "core")
    edited = "I take 100mg of sertraline every morning (dose raised by Dr. Weber in December)"
    await harness.memory.store("sertraline", edited, "core")
    harness.model.add("Noted.")
    await harness.turn("My sertraline dose went up to 150mg.")
    in_effect = await _in_effect(harness)
    # The dose is written into the fact; the remark on the change before goes with it.
    assert list(in_effect.values()) == ["I take 150mg of sertraline every morning"], in_effect


async def test_a_childs_allergy_said_in_chat_updates_it(harness: Harness) -> None:
    """Left from an earlier round and found again by a new user (a baker, of a customer):
    "Maya is not allergic to amoxicillin after all" said in chat changed nothing."""
    await harness.memory.store("maya", "Maya is allergic to amoxicillin", "core")
    await harness.memory.store("me", "I'm allergic to amoxicillin", "core")
    harness.model.add("Good to know.")
    await harness.turn("Maya is not allergic to amoxicillin after all")
    assert await _in_effect(harness) == {
        "maya": "Maya is not allergic to amoxicillin after all",
        "me": "I'm allergic to amoxicillin",
    }


async def test_a_medicine_stopped_in_chat_is_no_longer_taken(harness: Harness) -> None:
    """Found by a new user, a carer: "GP stopped Dad's amlodipine today" left "Dad takes
    amlodipine 5mg daily" in effect, and "what's dad on now" was shown it."""
    await harness.memory.store("amlodipine", "Dad takes amlodipine 5mg daily", "core")
    harness.model.add("Noted.")
    await harness.turn("GP stopped Dad's amlodipine today")
    assert await _in_effect(harness) == {"amlodipine": "GP stopped Dad's amlodipine today"}


@pytest.mark.parametrize(
    "said",
    [
        "I'm off lisinopril now",
        "Doctor took me off lisinopril",
        "No more lisinopril for me",
        "I stopped taking lisinopril",
        # A later new user, and said with what the doctor said.
        "i stopped the lisinopril last week, doctor said i dont need it anymore",
        "i dont take lisinopril anymore",
        "No more lisinopril for me, the GP said",
        # A later adversary.
        "I quit lisinopril",
        "Finished my course of lisinopril",
        "I've come off lisinopril",
        # A fourth adversary.
        "GP discontinued my lisinopril",
    ],
)
async def test_a_medicine_stopped_in_other_words_is_no_longer_taken(
    harness: Harness, said: str
) -> None:
    """Found by an adversary: only "I stopped taking lisinopril" ended the dose."""
    await harness.memory.store("lisinopril", "I take 10mg of lisinopril", "core")
    await harness.memory.store("dad", "Dad takes metformin 500mg twice a day", "core")
    harness.model.add("Noted.")
    await harness.turn(said)
    assert await _in_effect(harness) == {
        "lisinopril": said[:1].upper() + said[1:],  # kept as a fact is, with a capital
        "dad": "Dad takes metformin 500mg twice a day",
    }


async def test_a_new_address_said_in_chat_replaces_the_street_lived_at(harness: Harness) -> None:
    """Found by an adversary: "I live at 12 Rua Augusta, Lisbon" stayed in effect."""
    await harness.memory.store("home", "I live at 12 Rua Augusta, Lisbon", "core")
    harness.model.add("Noted.")
    await harness.turn("My new address is 5 Rua Nova, Porto")
    assert await _in_effect(harness) == {"home": "My new address is 5 Rua Nova, Porto"}


@pytest.mark.parametrize(
    "said",
    [
        "No more lisinopril left, need a refill",
        "I stopped taking lisinopril with dinner, now I take it in the morning",
        # Asked or weighed, not done (a fourth adversary: each replaced the dose, and the
        # medicine was no longer recalled for "what medication am I on?").
        "Should I stop the lisinopril?",
        "Is it ok to stop the lisinopril",
        "Can I stop taking lisinopril safely",
        "thinking of stopping the lisinopril",
        "I was told not to stop the lisinopril",
    ],
)
async def test_a_medicine_run_out_or_moved_in_the_day_is_still_taken(
    harness: Harness, said: str
) -> None:
    """Found by an adversary: each ended the dose."""
    await harness.memory.store("lisinopril", "I take 10mg of lisinopril", "core")
    harness.model.add("Noted.")
    await harness.turn(said)
    assert await _in_effect(harness) == {"lisinopril": "I take 10mg of lisinopril"}


async def test_someone_named_who_stopped_a_medicine_stopped_their_own(harness: Harness) -> None:
    await harness.memory.store("lisinopril", "I take 10mg of lisinopril", "core")
    await harness.memory.store("dad", "Dad takes metformin 500mg twice a day", "core")
    harness.model.add("Noted.")
    await harness.turn("Dad stopped metformin")
    assert await _in_effect(harness) == {
        "lisinopril": "I take 10mg of lisinopril",
        "dad": "Dad stopped metformin",
    }


async def test_a_secret_said_to_have_changed_says_which_fact_holds_the_old_one(
    harness: Harness,
) -> None:
    """Found by a new user, a carer: the message is saved redacted, so the new code cannot
    become the fact (a secret is kept only when asked), and the old one stayed, unsaid."""
    await harness.memory.store("key_safe", "The key safe code at Dad's is 4471", "core")
    await harness.memory.store("wifi", "Our wifi password is Bluebird77", "core")
    harness.model.add("Noted.")
    events = await harness.turn("The key safe code changed to 8153 today after the agency asked")
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert notices == [
        "Your message says this changed, but the memory 'key_safe' (\"The key safe code at "
        "Dad's is [REDACTED:code]\") still holds the old one, and the new one was redacted "
        'from the saved message. To keep it, ask to remember it ("remember …") or edit the '
        "memory in the inspector (F2)."
    ]
    # What was said, not the files' random ids and times (which may hold any digits).
    saved = [
        str(json.loads(line).get("content", ""))
        for path in harness.sessions.directory.rglob("*.jsonl")
        for line in path.read_text().splitlines()
    ]
    assert saved and not any("8153" in text or "4471" in text for text in saved)
    assert await _in_effect(harness) == {
        "key_safe": "The key safe code at Dad's is 4471",
        "wifi": "Our wifi password is Bluebird77",
    }
    # Said again, not said to have changed: nothing to say.
    harness.model.add("Noted.")
    events = await harness.turn("the key safe code is 4471")
    assert not [e for e in events if isinstance(e, Notice)]
    # Said changed without the new one (a fifth adversary: nothing was said).
    harness.model.add("Noted.")
    events = await harness.turn("they changed the wifi password yesterday")
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert len(notices) == 1 and "'wifi'" in notices[0]
    assert "your message did not say the new one" in notices[0]


async def test_a_locks_code_said_changed_by_another_of_its_names_marks_the_old_one(
    harness: Harness,
) -> None:
    """Found by a new user, an allotment's secretary: a combo is the lock's code."""
    await harness.memory.store("shed", "the shed padlock code is now 9023", "core")
    harness.model.add("Noted.")
    events = await harness.turn("new shed padlock combo is 5580, changed it after the break-in")
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert len(notices) == 1 and "the memory 'shed'" in notices[0]


@pytest.mark.parametrize(
    ("said", "named"),
    [
        ("my pin is now [REDACTED:pin]", {"pin"}),
        ("I changed my wifi password to [REDACTED:secret]", {"wifi", "password"}),
        ("New door code: [REDACTED:code]", {"door", "code"}),
        ("my pin is [REDACTED:pin]", set()),
        ("is my pin [REDACTED:pin] now?", set()),
        ("my pin is now 4821", set()),
        # Named in the clause or the sentence before its value (a fourth trial).
        ("We changed the door code, it's [REDACTED:code] now", {"door", "code"}),
        ("The door code changed. It is [REDACTED:code] now", {"door", "code"}),
        ("my door code is [REDACTED:code], it is 3 doors down", set()),
        ("we changed the wifi pw, it's now [REDACTED:secret]", {"wifi", "password"}),
        ("storage unit code updated to [REDACTED:code]", {"storage", "unit", "code"}),
        # The clause the secret is in (a new user, a pharmacist).
        ("Free changed the box, wifi password is now [REDACTED:secret]", {"wifi", "password"}),
        ("FYI the Vienna door code changed to [REDACTED:code]", {"vienna", "door", "code"}),
        # Said changed without the new value (a fifth adversary).
        ("they changed the wifi password yesterday", {"wifi", "password"}),
        ("the alarm code has been changed", {"alarm", "code"}),
        ("I changed my password on GitHub", {"password", "github"}),
        ("did they change the wifi password?", set()),
        ("I need to change my password", set()),
        # In Spanish and German (an adversary).
        # A lock's names in another language are its English ones, to match a fact in English.
        ("el código del garaje cambió a [REDACTED:code]", {"code", "garaje"}),
        ("der Code für die Garage ist jetzt [REDACTED:code]", {"code", "garage"}),
        ("der Code für die Garage ist [REDACTED:code]", set()),
        # A new user, a biologist: a sigh first, and half in Portuguese.
        ("ugh, the lab door code changed again, it's [REDACTED:code]#", {"lab", "door", "code"}),
        ("ah e o código da porta do lab mudou, agora é [REDACTED:code]#", {"code", "door", "lab"}),
    ],
)
def test_what_a_message_says_changed_of_a_secret(said: str, named: set[str]) -> None:
    assert set(secret_said_changed(said)) == {term for word in named for term in analyze(word)}


async def test_a_job_to_come_said_in_chat_changes_nothing_yet(harness: Harness) -> None:
    """Found by an adversary: "I start at Google in January" said in chat replaced "I work
    at Microsoft" in December."""
    await harness.memory.store("job", "I work at Microsoft", "core")
    harness.model.add("Congratulations!")
    await harness.turn("I start at Google in January")
    assert await _in_effect(harness) == {"job": "I work at Microsoft"}


async def test_another_ones_stop_changes_no_fact_and_says_nothing(harness: Harness) -> None:
    """Found by an adversary: "My husband stopped taking omeprazole" was written under the
    key of "I take 20mg of omeprazole", kept beside it under a key of its own, and the chat
    said it had updated the user's dose."""
    await harness.memory.store("i_take_mg", "I take 5mg of warfarin", "core")
    await harness.memory.store("i_take_mg_2", "I take 20mg of omeprazole", "core")
    before = await _in_effect(harness)
    harness.model.add("Noted.")
    events = await harness.turn("My husband stopped taking omeprazole")
    assert await _in_effect(harness) == before
    assert not [e for e in events if isinstance(e, Notice)]


@pytest.mark.parametrize(
    ("message", "stopped"),
    [
        ("Ich nehme kein Omeprazol mehr", "omeprazole"),
        ("Ya no tomo omeprazole", "omeprazole"),
        ("Je ne prends plus d'oméprazole", "omeprazole"),
        ("My doctor told me to stop taking warfarin, and I did", "warfarin"),
        ("stopped the omeprazole last week", "omeprazole"),
        # Italian, and a medicine's Italian name: kept beside as another medicine's stop.
        ("Non prendo più l'omeprazolo", "omeprazole"),
        ("Ho smesso di prendere il warfarin", "warfarin"),
        ("Ho sospeso l'omeprazolo", "omeprazole"),
    ],
)
async def test_a_stop_said_in_other_words_ends_that_dose_only(
    harness: Harness, message: str, stopped: str
) -> None:
    """Found by an adversary: each left the dose in effect, unmarked."""
    await harness.memory.store("w", "I take 5mg of warfarin", "core")
    await harness.memory.store("o", "I take 20mg of omeprazole", "core")
    harness.model.add("Noted.")
    await harness.turn(message)
    in_effect = await _in_effect(harness)
    assert not any(stopped in text for text in in_effect.values() if text.startswith("I take"))
    assert len([text for text in in_effect.values() if text.startswith("I take")]) == 1


@pytest.mark.parametrize(
    ("fact", "message", "now"),
    [
        (
            "my address is Calle Cuba 8, 46006 Valencia",
            "por fin nos hemos mudado! mi nueva dirección es Calle Sueca 12, 46004 Valencia",
            "Mi nueva dirección es Calle Sueca 12, 46004 Valencia",
        ),
        (
            "the gestoria phone number is 963 41 22 10",
            "la gestoría tiene número nuevo: 961 55 80 33",
            "La gestoría tiene número nuevo: 961 55 80 33",
        ),
        (
            "Mum takes Bisoprolol 2.5mg every morning",
            "mum stopped the bisoprolol, cardiologist said no need anymore",
            "Mum stopped the bisoprolol, cardiologist said no need anymore",
        ),
        (
            "Mum takes Levothyrox 50µg",
            "doctor increased mum's Levothyrox to 75µg",
            "Doctor increased mum's Levothyrox to 75µg",
        ),
        (
            "Tom Murphy's phone is 086 555 1212",
            "got a new number for Tom Murphy 083 444 5555",
            "Got a new number for Tom Murphy 083 444 5555",
        ),
        (
            "I take ibuprofeno 600mg twice a day for my wrist",
            "ya no tomo ibuprofeno, the physio told me to stop it last week",
            "Ya no tomo ibuprofeno, the physio told me to stop it last week",
        ),
    ],
)
async def test_a_change_said_in_spanish_updates_the_fact(
    harness: Harness, fact: str, message: str, now: str
) -> None:
    """Found by a new user, a translator: each left the old fact in effect, while the same
    said in English updated it; a dog groomer's new number for a client named in full too."""
    await harness.memory.store("fact", fact, "core")
    harness.model.add("Noted.")
    await harness.turn(message)
    assert await _in_effect(harness) == {"fact": now}


async def test_a_change_taken_back_in_spanish_changes_nothing(harness: Harness) -> None:
    """Found by an adversary: "Ahora tomo 80 mg de omeprazol... no, perdón, sigo con 40"
    made the 80 mg the dose in effect."""
    await harness.memory.store("dose", "Ahora tomo 40 mg de omeprazol", "core")
    harness.model.add("Vale.")
    await harness.turn("Ahora tomo 80 mg de omeprazol... no, perdón, sigo con 40")
    assert await _in_effect(harness) == {"dose": "Ahora tomo 40 mg de omeprazol"}


async def test_a_secret_nothing_keeps_is_said_in_the_chat(harness: Harness) -> None:
    """Found by a new user, a dog groomer: "van alarm code is 4471, card machine pin 9032"
    was saved as "[REDACTED:code]", the chat said nothing, and the code was lost."""
    harness.model.add("Noted.", "Noted.", "Noted.")
    first = await harness.turn("van alarm code is 4471, card machine pin 9032")
    told = [e.text for e in first if isinstance(e, Notice)]
    assert any("saved with it redacted" in text and "remember" in text for text in told)
    assert not any("4471" in text or "9032" in text for text in told)
    # Kept by a fact, said again: nothing to say.
    await harness.memory.store("van", "van alarm code is 4471", "core")
    again = await harness.turn("van alarm code is 4471")
    assert not [e for e in again if isinstance(e, Notice)]
    # No secret, no notice.
    plain = await harness.turn("the van needs new tyres")
    assert not [e for e in plain if isinstance(e, Notice)]
    # Asked to be kept, and the model stored nothing: asking again is no help (a new user).
    harness.model.add("Sure.")
    asked = await harness.turn("ok then remember it: laptop login password is Katzen2019!cork")
    said = [e.text for e in asked if isinstance(e, Notice)]
    assert any("keep it with /remember" in text for text in said)
    assert not any('ask to remember it ("remember' in text for text in said)
    # Asked in another language: "Guárdame esto:" asked (a new user, a baker in Guadalajara).
    harness.model.add("Claro.")
    guarda = await harness.turn("Guárdame esto: tarjeta del banco 4111 1111 1111 1111")
    told = [e.text for e in guarda if isinstance(e, Notice)]
    assert any("keep it with /remember" in text for text in told), told
    # Named by what it was: an ID number is no code (a new user's PPS number).
    harness.model.add("Noted.")
    pps = await harness.turn("my PPS number is 1234567T")
    assert any("held a secret (an ID number)" in e.text for e in pps if isinstance(e, Notice))
    # Every service's token is one (an adversary saw a Hugging Face token named "a code, …").
    harness.model.add("Noted.")
    token = await harness.turn("hf_abcdefghijklmnopqrstuvwxyzABCDEFGH for the models")
    assert any("held a secret (a key or a token)" in e.text for e in token if isinstance(e, Notice))


def test_a_long_run_of_spaces_is_read_in_one_pass() -> None:
    """Found by an adversary: a message of "hi", 25,000 spaces and "there" held the app for
    88 s (a care giver's word was looked for from each space to the end). Waited for as a
    state, with a bound far above what it needs on a busy machine: before, minutes."""
    from concurrent.futures import ThreadPoolExecutor

    from agent.said_changes import claimed

    with ThreadPoolExecutor(max_workers=1) as pool:
        found = pool.submit(claimed, "hi" + " " * 60_000 + "there").result(timeout=60)
    assert found == claimed("hi there")


@pytest.mark.parametrize(
    "message",
    [
        "The clinic moved! New address is 5 Smith St, Fitzroy VIC 3065",
        "Our church moved! new address is 1 Chapel St, Sunshine VIC 3020",
        "We moved the office! New address is 100 Collins St, Melbourne VIC 3000",
    ],
)
async def test_a_new_address_of_something_else_leaves_the_home(
    harness: Harness, message: str
) -> None:
    """Found by an adversary: each replaced "I live at 27 Ballarat Rd, Footscray VIC 3011"."""
    home = "I live at 27 Ballarat Rd, Footscray VIC 3011"
    await harness.memory.store("home", home, "core")
    harness.model.add("Noted.")
    await harness.turn(message)
    assert await _in_effect(harness) == {"home": home}


_BALLARAT = "I live at 27 Ballarat Rd, Footscray VIC 3011"
_BRISTOL = "I live at 12 Oak Street, Bristol"
_MONTREAL = "I live at 12 rue Saint-Denis, Montréal"
_LEEDS = "We moved house, new address: 5 Elm Road, Leeds"


@pytest.mark.parametrize(
    ("home", "moved", "now"),
    [
        # A new user, a nurse: a new address said as one.
        (
            _BALLARAT,
            "We moved house yesterday! New address is 14 Wattle Ave, Sunshine North VIC 3020",
            "I live at 14 Wattle Ave, Sunshine North VIC 3020",
        ),
        # A third adversary: a move said otherwise.
        (_BRISTOL, "We just moved into 4 Elm Road, Leeds", "I live at 4 Elm Road, Leeds"),
        (
            _BRISTOL,
            "We moved house, new address is 4 Elm Road, Leeds",
            "I live at 4 Elm Road, Leeds",
        ),
        # An adversary and a new user, a translator in Montréal: in another language, and
        # a street's kind in lower case ("rue Fabre" named no home in English either).
        (
            _MONTREAL,
            "On a déménagé, nouvelle adresse : 14 rue des Lilas, Lyon",
            "I live at 14 rue des Lilas, Lyon",
        ),
        (
            _MONTREAL,
            "J'habite maintenant au 4521 rue Fabre, Montréal",
            "I live at 4521 rue Fabre, Montréal",
        ),
        (
            _MONTREAL,
            "Wir sind umgezogen, neue Adresse: Lindenstraße 8, Berlin",
            "I live at Lindenstraße 8, Berlin",
        ),
        (
            _MONTREAL,
            "Nos mudamos, nueva dirección: Calle Mayor 5, Madrid",
            "I live at Calle Mayor 5, Madrid",
        ),
        (
            _MONTREAL,
            "I moved to 4521 rue Fabre, Montréal",
            "I moved to 4521 rue Fabre, Montréal",
        ),
        # A second adversary: the postcode made the old home a record of several values.
        ("I live at Hauptstraße 5, 10115 Berlin", _LEEDS, "I live at 5 Elm Road, Leeds"),
        ("I live at 12 rue Saint-Denis, H2J 2L4 Montréal", _LEEDS, "I live at 5 Elm Road, Leeds"),
    ],
)
async def test_a_move_replaces_the_home(harness: Harness, home: str, moved: str, now: str) -> None:
    """Found by new users and adversaries: each left the old home in effect."""
    await harness.memory.store("home", home, "core")
    harness.model.add("Congratulations!")
    await harness.turn(moved)
    assert await _in_effect(harness) == {"home": now}


async def test_a_move_said_in_french_is_kept_in_english_and_replaced_again(
    harness: Harness,
) -> None:
    """Found by an adversary: "Ma nouvelle adresse est …" became the home as said, in
    French, and a later move in English replaced it no more."""
    await harness.memory.store("home", "I live at 12 Elm Street, Dublin", "core")
    harness.model.add("Noted.")
    await harness.turn("Ma nouvelle adresse est 14 rue des Lilas, Lyon")
    assert await _in_effect(harness) == {"home": "I live at 14 rue des Lilas, Lyon"}
    harness.model.add("Congratulations!")
    await harness.turn("We moved house, new address is 9 Mill Lane, Cork")
    assert await _in_effect(harness) == {"home": "I live at 9 Mill Lane, Cork"}


async def test_a_move_said_otherwise_is_the_homes_history(harness: Harness) -> None:
    """Found by an adversary: after "We moved house, new address is … Cobh" and "Finally
    moved! We're now at … Kinsale", "where do I live?" was shown the Cobh message beside the
    home, unmarked. All such a message says is the home: it is the home's history."""
    await harness.memory.store("home", "I live at 12 Elm Street, Dublin", "core")
    harness.model.add("Congratulations!", "Lovely!")
    await harness.turn("We moved house, new address is 27 Harbour View, Cobh")
    await harness.turn("Finally moved! We're now at 5 Quay Street, Kinsale")
    kept = await harness.memory.list(limit=100)
    assert {e.content for e in kept} == {"I live at 5 Quay Street, Kinsale"}
    every = await harness.memory.list(limit=100, include_superseded=True)
    cobh = next(e for e in every if e.content.startswith("We moved house"))
    assert cobh.superseded_by is not None


async def test_a_new_dose_leaves_a_fact_saying_who_the_doctor_is_and_marks_it(
    harness: Harness,
) -> None:
    """Found by a new user, a translator: a new dose said in French replaced "I take
    sertraline 50 mg once a day, prescribed by Dr Lefebvre (my family doctor)", and "who is
    my family doctor?" was answered with her child's pediatrician."""
    old = "I take sertraline 50 mg once a day, prescribed by Dr Lefebvre (my family doctor)"
    await harness.memory.store("sertraline", old, "core")
    harness.model.add("Noted.", "100 mg.")
    await harness.turn("Dr Lefebvre a augmenté ma dose: je prends maintenant 100 mg de sertraline")
    assert await _in_effect(harness) == {"sertraline": old}
    events = await harness.turn("what's my sertraline dose?", harness.sessions.new())
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    fact = next(e for e in recalled.injected if e.key == "sertraline")
    assert "100 mg" in recalled.since_changed[fact.id]


async def test_a_new_email_said_with_the_old_one_denied_replaces_it(harness: Harness) -> None:
    """Found by a third adversary: "my email is a@x.com, not b@x.com" left b@x.com in
    effect, unmarked."""
    await harness.memory.store("email", "my email is b@x.com", "core")
    harness.model.add("Noted.")
    await harness.turn("my email is a@x.com, not b@x.com")
    assert await _in_effect(harness) == {"email": "My email is a@x.com, not b@x.com"}


async def test_a_pasted_repetition_is_no_new_home(harness: Harness) -> None:
    """Found by an adversary: 100,000 characters of "Vivo en calle Mayor 1, " replaced
    "I live at Via Roma 3, Milano" with a fact ten times the longest one may store."""
    await harness.memory.store("home", "I live at Via Roma 3, Milano", "core")
    harness.model.add("ok", "ok", "ok")
    await harness.turn(("Vivo en calle Mayor 1, " * 4_400)[:100_000])
    # Under a thousand characters too (a second adversary: 42 of them became the home).
    await harness.turn("Vivo en calle Mayor 1, " * 42)
    assert await _in_effect(harness) == {"home": "I live at Via Roma 3, Milano"}
    # Said in a line, it is a move.
    await harness.turn("Vivo en calle Mayor 1, Madrid")
    assert (await _in_effect(harness))["home"] == "I live at calle Mayor 1, Madrid"


@pytest.mark.parametrize(
    ("fact", "said", "now"),
    [
        ("i take metoprolol 25mg twice a day", "dr patel says stop the metoprolol", "stop"),
        ("i take metoprolol 25mg twice a day", "Dr Patel upped the metoprolol to 50mg", "50mg"),
        ("I take warfarin 5mg", "nurse says cut the warfarin to 4mg", "4mg"),
        # An inhaler's puffs (a new user, a teacher with asthma: no dose was read).
        ("I take Ventolin, 2 puffs when needed", "my Ventolin went up to 4 puffs", "4 puffs"),
        # When it is taken is no second value of it.
        (
            "I take warfarin 5mg every evening",
            "nurse says cut the warfarin to 4mg every evening",
            "4mg",
        ),
    ],
)
async def test_a_care_givers_word_on_a_medicine_updates_its_dose(
    harness: Harness, fact: str, said: str, now: str
) -> None:
    """Found by a new user, a retired farmer: each left the old dose in effect (a doctor's
    instruction read as someone else's words; "the metoprolol" as no one's)."""
    await harness.memory.store("medicine", fact, "core")
    harness.model.add("ok")
    await harness.turn(said)
    assert now in (await _in_effect(harness))["medicine"]


async def test_someone_elses_word_on_a_medicine_changes_nothing(harness: Harness) -> None:
    await harness.memory.store("medicine", "i take metoprolol 25mg twice a day", "core")
    harness.model.add("ok", "ok")
    await harness.turn("my friend says stop the metoprolol")
    await harness.turn("the vet cut the dog to 2mg")
    assert (await _in_effect(harness))["medicine"] == "i take metoprolol 25mg twice a day"


async def test_a_move_said_in_dutch_replaces_the_home(harness: Harness) -> None:
    """Found by a new user, a teacher in Utrecht: "We zijn verhuisd naar Amersfoort! Mijn
    nieuwe adres is …" left the Utrecht address the only one "waar woon ik?" found."""
    await harness.memory.store("home", "ik woon op de Oudegracht 112, 3511 AZ Utrecht", "core")
    harness.model.add("Gefeliciteerd!")
    await harness.turn(
        "We zijn verhuisd naar Amersfoort! Mijn nieuwe adres is Langestraat 45, 3811 AB Amersfoort"
    )
    assert "Langestraat 45" in (await _in_effect(harness))["home"]


async def test_a_dose_said_in_words_marks_the_one_before(harness: Harness) -> None:
    """Found by a new user, a taxi driver: "doctor hussain put amlodipine up to ten mg" left
    "i take amlodipine 5mg …" unmarked, and went at 30 days while the 5mg stayed."""
    for said in (
        "i take amlodipine 5mg every morning for blood pressure",
        "doctor hussain put amlodipine up to ten mg",
        "what pills i take",
    ):
        harness.model.add("ok")
        harness.session = harness.sessions.new()
        await harness.turn(said)
    shown = harness.model.requests[-1].messages[-1].content
    assert (
        "since changed: a later message says 'doctor hussain put amlodipine up to ten mg'" in shown
    )

"""A message asking about several things recalls for each (agent.question_parts)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agent.about_someone import ABOUT_SOMEONE, facts_about
from agent.asked_secrets import (
    asks_for_a_secret,
    key_without_secrets,
    most_of_what_was_asked,
    redacted_for_the_model,
    shown_to_the_model,
)
from agent.events import MemoryRecalled
from agent.question_parts import found_for_part, merged, question_parts
from memory.entry import MemoryEntry, RecallResult, utc_now
from tests.helpers.entries import written_entry
from tests.unit.agent.conftest import Harness


def test_a_message_of_several_questions_has_its_parts() -> None:
    assert question_parts(
        "I'm packing for a trip, what should I tell the airline about my allergies, "
        "and where do I work now?"
    ) == [
        "what should I tell the airline about my allergies",
        "where do I work now?",
        "I'm packing for a trip",
    ]
    # Found by the eighth new user: the lead-in took the last question's place.
    assert question_parts(
        "Quick check before my appointment: who is my doctor, what dose of sertraline do I "
        "take, where do I work and where do I live?"
    ) == [
        "who is my doctor",
        "what dose of sertraline do I take",
        "where do I work",
        "where do I live?",
    ]
    assert question_parts("Where do I live and what is my job?") == [
        "Where do I live",
        "what is my job?",
    ]
    # One question, a greeting before it, a list: no parts.
    assert question_parts("What is my cat called?") == []
    assert question_parts("Hi! What is my cat called?") == []
    assert question_parts("I like cats and dogs") == []
    # A part leaning back by "it" on the one before is asked with it (a new user, a baker:
    # "who's coming to do it?" alone recalled every supplier who "comes").
    assert question_parts("when is the oven service and who's coming to do it?") == [
        "when is the oven service"
    ]
    assert question_parts("what's the wifi password? and where is the router?") == [
        "what's the wifi password",
        "and where is the router?",
    ]


async def test_each_topic_of_a_long_message_gets_its_memory(harness: Harness) -> None:
    """Found by new users: the message recalled nothing, each memory holding too small a
    share of its words to pass the floor."""
    await harness.memory.store("allergies", "My allergies: peanuts and shellfish", "core")
    await harness.memory.store("job", "I work at Acme as a data analyst", "core")
    await harness.memory.store("pet", "My cat is called Miso", "core")
    harness.model.add("Tell them about peanuts; you work at Acme.")
    events = await harness.turn(
        "I'm packing for a trip, what should I tell the airline about my allergies, "
        "and where do I work now?"
    )
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert {e.key for e in recalled.injected} == {"allergies", "job"}


def _entry(entry_id: str, score: float) -> MemoryEntry:
    now = utc_now()
    return MemoryEntry(
        id=entry_id, key=entry_id, content=entry_id, timestamp=now, updated_at=now, score=score
    )


def test_merging_keeps_each_parts_best_and_the_best_score_of_each_memory() -> None:
    whole = RecallResult(
        entries=[_entry("a", 0.9), _entry("b", 0.8), _entry("c", 0.7)], mode="keyword"
    )
    first = RecallResult(entries=[_entry("d", 0.4)], mode="keyword")
    second = RecallResult(entries=[_entry("b", 0.95), _entry("e", 0.35)], mode="keyword")
    found = merged(whole, [first, second], limit=3)
    assert [(e.id, e.score) for e in found.entries] == [("b", 0.95), ("a", 0.9), ("d", 0.4)]


def test_two_things_asked_with_and_my_are_two_parts() -> None:
    """Found by a new user: the allergies were not recalled beside the passport number."""
    assert question_parts("remind me of my allergies and my passport number") == [
        "remind me of my allergies",
        "my passport number",
    ]


async def test_a_list_of_my_things_asked_about_recalls_each(harness: Harness) -> None:
    """Found by the tenth new user: "Tell me everything you know about my family, my
    cat, my job and my health." recalled nothing."""
    message = "Tell me everything you know about my family, my cat, my job and my health."
    assert question_parts(message) == [
        "Tell me everything you know about my family",
        "my cat",
        "my job",
        "my health",
    ]
    await harness.memory.store("pet", "My cat Pimenta loves tuna", "core")
    await harness.memory.store("job", "My job: nurse at Hospital São João", "core")
    await harness.memory.store("food", "I had ramen for lunch", "core")
    harness.model.add("Pimenta, and you are a nurse.")
    recalled = next(e for e in await harness.turn(message) if isinstance(e, MemoryRecalled))
    assert {e.key for e in recalled.injected} == {"pet", "job"}


def test_pasted_text_and_statements_are_not_split() -> None:
    """Found by an adversary: each line of a pasted log recalled a memory of its own."""
    log = "2026-01-01 12:00 ERROR disk full\n2026-01-01 12:01 WARN retrying\nwhat happened?"
    assert question_parts(log) == []
    assert question_parts("| name | city |\n| Ana | Porto |\nwhere does Ana live?") == []
    assert question_parts("```\nx = 1\ny = 2\n```\nwhy does this fail?") == []
    assert question_parts("I moved to Lisbon. I started at Google. I adopted a cat.") == []
    # The same part twice is recalled once.
    assert question_parts("Where do I live? Where do I live? And what is my job?") == [
        "Where do I live",
        "And what is my job?",
    ]


def test_a_part_recall_names_its_part_and_how_it_was_searched() -> None:
    """The inspector said "this memory has no vector" for a memory a part's keywords
    settled while the whole message was searched by meaning too."""
    from memory.entry import RecallScores

    whole = RecallResult(entries=[], mode="hybrid")
    scored = _entry("job", 0.8).model_copy(
        update={"scores": RecallScores(keyword=0.8, fused=0.8, lane="keyword")}
    )
    part = found_for_part(RecallResult(entries=[scored], mode="keyword-early"), "where do I work")
    found = merged(whole, [part], limit=3)
    scores = found.entries[0].scores
    assert scores is not None
    said = scores.explanation(found.mode)
    assert "not searched: the keyword match settled it" in said
    assert "has no vector" not in said
    assert "recalled for the part 'where do I work' of the message" in said


async def test_asked_what_is_known_about_them_the_user_gets_their_facts(
    harness: Harness,
) -> None:
    """Found by new users of two rounds: "What do you know about me?" recalled nothing, no
    word of it naming a memory."""
    await harness.memory.store("pet", "My cat Pimenta loves tuna", "core")
    await harness.memory.store("job", "I work as a nurse at Hospital São João", "core")
    await harness.memory.store("said", "I had ramen for lunch", "conversation", "s0")
    # And in other languages: "Was weißt du über mich?" recalled nothing (a new user, an
    # electrician in Hamburg).
    for asked in (
        "What do you know about me?",
        "hey, what do you remember about me",
        "Was weißt du über mich?",
        "was weisst du ueber mich",
        "¿qué sabes de mí?",
        "que sais-tu de moi ?",
        "cosa sai di me?",
        # A new user, a teacher in Utrecht.
        "wat weet je over mij?",
        # A new user, a student in Bengaluru: the first recalled nothing.
        "who am I? what do you know about me?",
        "who am I?",
        "mujhe ke baare mein kya pata hai?",
    ):
        harness.model.add("You are a nurse with a cat.")
        events = await harness.turn(asked)
        recalled = next(e for e in events if isinstance(e, MemoryRecalled))
        assert recalled.mode == "recent"
        assert {e.key for e in recalled.injected} == {"pet", "job"}
        scores = recalled.injected[0].scores
        assert scores is not None and "listed, not searched" in scores.explanation("recent")
    harness.model.add("Pimenta.")
    events = await harness.turn("What do you know about my cat?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert recalled.mode != "recent"  # a subject named: searched as any question


async def test_what_is_known_of_the_user_is_all_their_facts_pinned_first_secrets_last(
    harness: Harness,
) -> None:
    """Found by a new user: "What do you know about me?" gave 5 of their 13 facts, the
    door code first."""
    facts = [f"I like sport number {n}" for n in range(8)]
    for number, fact in enumerate(facts):
        await harness.memory.store(f"sport{number}", fact, "core")
    await harness.memory.store_with_metadata(
        "name", "My name is Dana Whitfield", "core", pinned=True
    )
    await harness.memory.store("door", "The door code is 4821", "core")
    harness.model.add("You like sport.")
    events = await harness.turn("What do you know about me?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    keys = [e.key for e in recalled.injected]
    assert len(keys) == 10 and keys[0] == "name" and keys[-1] == "door"
    # A fact's secret goes to the model only when a message asks for one (a later new user
    # saw every wifi password and the key safe's code put on screen); else the fact goes
    # with the secret redacted (an adversary: "I live in Porto and the door code is 1379"
    # left out whole told nothing of the home).
    shown = {e.key: e.content for e in recalled.injected}
    assert shown["door"] == "The door code is [REDACTED:code]"
    assert "4821" not in harness.model.requests[-1].messages[-1].content
    harness.model.add("It is 4821.")
    events = await harness.turn("what's the door code?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert {e.key: e.content for e in recalled.injected}["door"] == "The door code is 4821"


async def test_what_is_known_of_the_user_keeps_an_old_allergy_among_many_facts(
    harness: Harness,
) -> None:
    """Found by a new user, a parent: the son's peanut allergy, the oldest of 16 facts, was
    the one left out of "what do you know about me?" (only the newest were read)."""
    await harness.memory.store("allergy", "Leo is allergic to peanuts", "core")
    for number in range(20):
        await harness.memory.store(f"sport{number}", f"I like sport number {number}", "core")
    harness.model.add("You like sport.")
    events = await harness.turn("What do you know about me?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    keys = [e.key for e in recalled.injected]
    assert len(keys) == 15 and keys[0] == "allergy"


async def test_what_is_known_of_someone_reads_their_facts_first(harness: Harness) -> None:
    """Found by a new user, a carer: "what do you know about dad" was shown the five
    memories naming "dad" most plainly (his NHS number, the key safe's code), and not his
    condition, his carers or his appointments."""
    facts = {
        "nhs": "Dad's NHS number is 485 777 3456",
        "condition": "Dad has dementia and heart failure",
        "carer": "Dad's carer on Thursdays is Precious from Bluebell Care",
        "clinic": "Dad's memory clinic is on 14/1 at 10:30",
        "meds": "Dad takes furosemide 40mg every morning",
        "bisoprolol": "Dad takes bisoprolol 5mg once a day",
        "mine": "I work at the school library on Mondays",
    }
    for key, text in facts.items():
        await harness.memory.store(key, text, "core")
    for number in range(6):
        await harness.memory.store(f"chat{number}", f"dad said hello {number}", "conversation")
    harness.model.add("He has dementia.")
    events = await harness.turn("what do you know about dad")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    keys = [e.key for e in recalled.injected]
    assert set(keys[:6]) == set(facts) - {"mine"}
    assert {keys[0], keys[1]} == {"meds", "bisoprolol"}  # health first, as for "about me"
    assert "mine" not in keys


async def test_a_relation_is_known_by_each_of_its_words_and_only_as_mine(
    harness: Harness,
) -> None:
    """Found by an adversary: "what do you know about dad" missed "Father is allergic to
    shellfish" and told "Dad jokes are my favourite" and "Priya's dad is a pilot" as his;
    "about my sis" found nothing."""
    facts = {
        "father": "Father is allergic to shellfish",
        "meds": "Dad takes 5mg amlodipine daily",
        "birthday": "My dad's birthday is 3 May",
        "jokes": "Dad jokes are my favourite",
        "priya": "Priya's dad is a pilot",
        "in_law": "My father-in-law is called Joe",
        "sis": "My sis Ana lives in Rome",
    }
    for key, text in facts.items():
        await harness.memory.store(key, text, "core")
    harness.model.add("He is allergic to shellfish.", "She lives in Rome.")
    events = await harness.turn("what do you know about dad")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert {e.key for e in recalled.injected} == {"father", "meds", "birthday"}
    events = await harness.turn("what do u know about my sister")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert [e.key for e in recalled.injected][:1] == ["sis"]


_DAUGHTER = {
    "daughter": "My daughter is Susan",
    "mobile": "Susan's new mobile is 0412 345 678",
    "church": "Susan Miller from church is lovely",
    "son": "My son Jack lives in Perth",
}
_HUSBAND = {
    "husband": "My husband is Emmanuel Okafor, everyone calls him Manny",
    "meds": "Manny takes memantine 10mg each morning",
    "clinic": "Manny's memory clinic is on Thursday 28/1 at 2pm",
    "me": "I am Grace Okafor, retired teacher",
    "cat": "My cat is called Tom",
}


@pytest.mark.parametrize(
    ("facts", "who", "told"),
    [
        (_DAUGHTER, "my daughter", {"daughter", "mobile"}),
        (_HUSBAND, "emmanuel", {"husband", "meds", "clinic"}),
        (_HUSBAND, "my husband", {"husband", "meds", "clinic"}),
        (_HUSBAND, "manny", {"husband", "meds", "clinic"}),
        # A third adversary: another Emmanuel by his surname, a name that is a word too.
        (
            {**_HUSBAND, "colleague": "My colleague Emmanuel Dubois runs the Paris office"},
            "Manny",
            {"husband", "meds", "clinic"},
        ),
    ],
)
async def test_someone_is_known_by_the_names_the_user_gave_them(
    harness: Harness, facts: dict[str, str], who: str, told: set[str]
) -> None:
    """Found by new users: "what do you know about my daughter" left out "Susan's new
    mobile is …", though "My daughter is Susan" was a fact; "what do you know about
    emmanuel" found none of the facts saying "Manny", though "My husband is Emmanuel Okafor,
    everyone calls him Manny" was one (nor may another Okafor, the family's name, come)."""
    for key, text in facts.items():
        await harness.memory.store(key, text, "core")
    # A name that is a word too is told as the name alone (what a search finds may follow).
    summer = _facts(daughter="My daughter is Summer", kerry="We spend every summer in Kerry")
    assert [fact.key for fact in facts_about(summer, "summer")] == ["daughter"]
    harness.model.add("Here is what I know.")
    events = await harness.turn(f"what do you know about {who}")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert {e.key for e in recalled.injected} == told


@pytest.mark.parametrize(
    ("message", "who"),
    [
        ("what do you know about dad", "dad"),
        ("what do u know about my sister", "my sister"),
        ("tell me everything you know about Anna Silva?", "Anna Silva"),
    ],
)
def test_asking_what_is_known_of_someone_is_that_question(message: str, who: str) -> None:
    found = ABOUT_SOMEONE.match(message)
    assert found is not None and found["who"] == who
    assert ABOUT_SOMEONE.match("what do you know about me") is None


@pytest.mark.parametrize(
    ("fact", "message", "shown"),
    [
        ("the alarm code is 4590", "Is my alarm set up?", "the alarm code is [REDACTED:code]"),
        ("my card PIN is 4821", "What card do I use?", "my card PIN is [REDACTED:pin]"),
        (
            "My bank is Millennium and my card PIN is 4821",
            "which bank am I with?",
            "My bank is Millennium and my card PIN is [REDACTED:pin]",
        ),
        (
            "I live in Porto and the door code is 1379",
            "where do I live?",
            "I live in Porto and the door code is [REDACTED:code]",
        ),
    ],
)
async def test_a_fact_is_shown_with_its_secret_redacted_unless_one_is_asked_for(
    harness: Harness, fact: str, message: str, shown: str
) -> None:
    """Found by an adversary: a message naming what a secret opens (an alarm, a card, a
    bank) showed the model the code or the PIN, and a fact holding a secret was left out
    whole, its home with it."""
    await harness.memory.store("fact", fact, "core")
    harness.model.add("Noted.")
    events = await harness.turn(message)
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert [e.content for e in recalled.injected] == [shown]


async def test_a_key_holding_part_of_a_secret_is_shown_without_it(harness: Harness) -> None:
    """A key made before keys were made without secrets ("villa_pin_4471") told the model
    the PIN its fact was shown without; asked for, the key is as stored."""
    await harness.memory.store("villa_pin_4471", "Villa PIN is 4471", "core")
    harness.model.add("Noted.", "4471.")
    events = await harness.turn("is the villa near the beach?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert [(e.key, e.content) for e in recalled.injected] == [
        ("villa_pin_redacted", "Villa PIN is [REDACTED:pin]")
    ]
    assert "4471" not in harness.model.requests[-1].messages[-1].content
    # Cut apart or in part (a second adversary): the digits go too, a year stays.
    shown_keys = {
        key: key_without_secrets(key, text, redacted_for_the_model(text))
        for key, text in (
            ("graz-door-43-21", "Graz flat door code is 4321"),
            ("graz_alarm_code_98", "Graz alarm code is 9876"),
            ("wedding_2027", "Wedding 14 Aug 2027, gate code 5521"),
            # A later adversary: the hash a made key ends with holds no secret's digits.
            ("my_ni_number_is_56f0b0", "My NI number is QQ123456C"),
            ("le_nas_de_ma_femme_fde44a", "Le NAS de ma femme est 130 692 544"),
        )
    }
    assert shown_keys == {
        "graz-door-43-21": "graz-door-redacted-redacted",
        "graz_alarm_code_98": "graz_alarm_code_redacted",
        "wedding_2027": "wedding_2027",
        "my_ni_number_is_56f0b0": "my_ni_number_is_56f0b0",
        "le_nas_de_ma_femme_fde44a": "le_nas_de_ma_femme_fde44a",
    }
    events = await harness.turn("what's the villa PIN?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert [(e.key, e.content) for e in recalled.injected] == [
        ("villa_pin_4471", "Villa PIN is 4471")
    ]


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        ("The key safe code was changed by the agency, it's 5820 now.", False),
        ("whats the wifi password", True),
        ("wifi password", True),
        ("the door code?", True),
        ("how do I get in", True),
        ("I forgot the alarm code", True),
        ("need the key safe code for the carer", True),
        # The keypad named for its code, or for where it is (a second adversary).
        ("whats the studio keypad", True),
        ("studio keypad?", True),
        ("keypad numbers pls", True),
        ("never mind the wifi, is the studio keypad by the door?", False),
        ("where is the studio keypad?", False),
        ("is the keypad working?", False),
        # Asked for by name, with "please" (an adversary was shown no code at all).
        ("not the alarm one, the door code please", True),
        ("the door code please, not the alarm one", True),
        ("the code is 4471, please remember it", False),
        # How it looks asks for no code (a second adversary).
        ("what colour is the studio keypad?", False),
        ("what's the studio keypad like?", False),
        ("what was the lab keypad again", True),
        # Words before the question (an adversary was shown the PIN redacted).
        ("ok and what is my card pin", True),
        ("so then what is the wifi password", True),
    ],
)
def test_a_secret_is_asked_for_not_only_named(message: str, asks: bool) -> None:
    """Found by a new user, a carer: a message saying the key safe code changed showed the
    model the old code, as if asked for."""
    assert asks_for_a_secret(message) is asks


async def test_only_the_secret_asked_for_is_shown(harness: Harness) -> None:
    """Found by an adversary: "alarm code?" showed every code held, "what's the password for
    the wifi?" the email's password too, and "is the wifi working?" the wifi password."""
    await harness.memory.store("alarm", "The alarm code is 5512", "core")
    await harness.memory.store("gate", "The Murphys' gate code is 7788", "core")
    await harness.memory.store("wifi", "The wifi password is Gato1234", "core")
    await harness.memory.store("mail", "The email password is Hunter22", "core")
    shown: dict[str, set[str]] = {}
    for message in ("alarm code?", "what's the password for the wifi?", "is the wifi working?"):
        harness.model.add("Noted.")
        events = await harness.turn(message)
        recalled = next(e for e in events if isinstance(e, MemoryRecalled))
        shown[message] = {e.key for e in recalled.injected if "[REDACTED" not in e.content}
    assert "alarm" in shown["alarm code?"] and "gate" not in shown["alarm code?"]
    assert shown["what's the password for the wifi?"] & {"wifi"} == {"wifi"}
    assert "mail" not in shown["what's the password for the wifi?"]
    assert "wifi" not in shown["is the wifi working?"]


async def _shown(harness: Harness, message: str) -> str:
    """What the model was shown of memory for `message`, each memory's text."""
    harness.model.add("Here.")
    events = await harness.turn(message)
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    return " | ".join(e.content for e in recalled.injected)


async def test_of_several_secrets_only_the_one_asked_for_is_shown(harness: Harness) -> None:
    """Found by an adversary: "what's the wifi password for the Graz flat?" showed the Graz
    flat's door code beside its wifi password, and the Linz flat's door code and wifi
    password too; "Graz flat: what's the code for the door?" the wifi password."""
    await harness.memory.store(
        "graz", "Graz flat notes: the door code is 7373 and the wifi password is lion4242", "core"
    )
    await harness.memory.store("linz", "Linz flat: door code 9393, wifi password tiger8181", "core")
    shown: dict[str, str] = {}
    for message in (
        "what's the wifi password for the Graz flat?",
        "Graz flat: what's the code for the door?",
        "what is the wifi password?",
    ):
        shown[message] = await _shown(harness, message)
    graz_wifi = shown["what's the wifi password for the Graz flat?"]
    assert "lion4242" in graz_wifi
    assert not {"7373", "9393", "tiger8181"} & set(graz_wifi.split())
    assert "7373" in shown["Graz flat: what's the code for the door?"]
    assert "lion4242" not in shown["Graz flat: what's the code for the door?"]
    any_wifi = shown["what is the wifi password?"]
    assert "lion4242" in any_wifi and "tiger8181" in any_wifi
    assert "7373" not in any_wifi and "9393" not in any_wifi


async def test_a_bike_locks_code_goes_to_the_model_only_when_asked(harness: Harness) -> None:
    """Found by an adversary: "Bike lock combination is 3-7-1-9" is kept as said (asked
    back, it is what the user wants), and it went to the model for "tell me about my
    bike" too."""
    await harness.memory.store("bike", "Bike lock combination is 3-7-1-9, the blue bike", "core")
    shown: dict[str, str] = {}
    for message in ("tell me about my bike", "what's the code for my bike lock?"):
        shown[message] = await _shown(harness, message)
    assert "3-7-1-9" not in shown["tell me about my bike"]
    assert "blue bike" in shown["tell me about my bike"]
    assert "3-7-1-9" in shown["what's the code for my bike lock?"]


async def test_how_to_get_in_shows_no_wifi_password_of_a_fact_apart(harness: Harness) -> None:
    """Found by a new user, a photographer: "forgot my keys, how do i get in to the studio"
    showed the studio's wifi password, kept in a fact of its own, beside the keypad code."""
    await harness.memory.store("keypad", "Studio door keypad code is 7719", "core")
    await harness.memory.store("wifi", "Studio wifi password is Thistle-Lens-42", "core")
    shown = await _shown(harness, "forgot my keys, how do i get in to the studio")
    assert "7719" in shown and "Thistle-Lens-42" not in shown
    assert "Thistle-Lens-42" in await _shown(harness, "whats the studio wifi password")


async def test_the_kind_of_secret_and_each_part_asked_for_are_read(harness: Harness) -> None:
    """Found by an adversary: "how do I get into the Vienna flat?" and "what's the code for
    the Vienna flat?" showed its wifi password and not its door code; "what's the Graz wifi
    password and the Vienna door code?" showed all four secrets of both flats."""
    await harness.memory.store(
        "vienna", "The Vienna flat wifi password is Donau2024x and the door code is 9182", "core"
    )
    await harness.memory.store(
        "graz", "The Graz flat wifi password is Alpenblick77 and the door code is 4471", "core"
    )
    secrets = {"Donau2024x", "9182", "Alpenblick77", "4471"}
    shown: dict[str, set[str]] = {}
    for message in (
        "how do I get into the Vienna flat?",
        "what's the code for the Vienna flat?",
        "what's the Graz wifi password and the Vienna door code?",
    ):
        said = await _shown(harness, message)
        shown[message] = {secret for secret in secrets if secret in said}
    assert shown == {
        "how do I get into the Vienna flat?": {"9182"},
        "what's the code for the Vienna flat?": {"9182"},
        "what's the Graz wifi password and the Vienna door code?": {"Alpenblick77", "9182"},
    }


async def test_a_secret_left_out_or_asked_in_one_part_alone_shows_that_one_or_none(
    harness: Harness,
) -> None:
    """Found by an adversary: each showed the model all three of the house's secrets."""
    house = "Beach house: alarm code 1234, gate code 5678, wifi password surfsup99"
    await harness.memory.store("beach", house, "core")
    await harness.memory.store("near", "The beach house is 200m from the sea", "core")
    secrets = {"1234", "5678", "surfsup99"}
    shown: dict[str, set[str]] = {}
    for message in (
        "is the beach house near the sea? and what's the gate code there?",
        "never mind the password, is the beach house near the sea?",
        "don't tell me any codes, just: does the beach house have wifi?",
        "I don't need the alarm code, what's the address of the beach house?",
    ):
        said = await _shown(harness, message)
        assert "Beach house: alarm code" in said
        shown[message] = {secret for secret in secrets if secret in said}
    assert shown == {
        "is the beach house near the sea? and what's the gate code there?": {"5678"},
        "never mind the password, is the beach house near the sea?": set(),
        "don't tell me any codes, just: does the beach house have wifi?": set(),
        "I don't need the alarm code, what's the address of the beach house?": set(),
    }
    assert not asks_for_a_secret("never mind the password, is the beach house near the sea?")
    assert asks_for_a_secret("never mind the alarm, what's the gate code?")


def test_a_name_in_parts_asked_joined_shows_its_secret() -> None:
    """Found by a new user: "what's my mpesa pin?" was shown "My M-Pesa PIN is [REDACTED]"."""
    said = datetime(2026, 12, 1, tzinfo=UTC)
    facts = [
        written_entry("mpesa", "My M-Pesa PIN is 7391", "core", said),
        written_entry("atm", "My Equity ATM PIN is 8830", "core", said),
    ]
    for asked in ("what's my mpesa pin?", "whats my M-Pesa PIN"):
        shown = [entry.content for entry in shown_to_the_model(facts, asked)]
        assert shown == ["My M-Pesa PIN is 7391", "My Equity ATM PIN is [REDACTED:pin]"]


@pytest.mark.parametrize(
    ("message", "asks"),
    [
        # A later adversary: each showed the model the front door's code.
        ("should I change the front door code?", False),
        ("who knows the front door code besides me?", False),
        ("how often should I change my PIN?", False),
        ("when did we last change the wifi password?", False),
        ("what's the front door code?", True),
        ("can you tell me the wifi password?", True),
        # A later one: whom it was given to, and what the keypad takes.
        ("who did I give the alarm code to?", False),
        ("to whom did I send the gate code?", False),
        ("what do I type at the front door keypad?", True),
        ("what should I enter for the alarm?", True),
        ("remind me to change my netflix password tomorrow", False),
        ("how old is the netflix password?", False),
        # A third: asked of it, or of a code that opens nothing; or how to get in.
        ("did I give the alarm code to Sam?", False),
        ("did the alarm code change?", False),
        ("how do I change my netflix password?", False),
        ("what makes a good password?", False),
        ("which password manager do I use?", False),
        ("what's the dress code?", False),
        ("what error code did the printer show?", False),
        ("what number do I enter at the garage keypad?", True),
        ("how do I open the gate?", True),
    ],
)
def test_a_question_about_a_secret_is_not_one_for_it(message: str, asks: bool) -> None:
    assert asks_for_a_secret(message) is asks


async def test_a_secret_asked_for_in_korean_or_hindi_is_shown(harness: Harness) -> None:
    """Found by an adversary: asked in the language it was stored in, the model was shown
    it redacted; asking to change it shows it not."""
    await harness.memory.store("wifi", "우리 집 와이파이 비밀번호는 hanokXQ77", "core")
    await harness.memory.store("wifi_hi", "मेरा वाईफाई पासवर्ड Tembo2024 है", "core")
    assert "hanokXQ77" in await _shown(harness, "우리 집 와이파이 비밀번호 알려줘")
    assert "hanokXQ77" in await _shown(harness, "집 와이파이 비번 뭐야?")
    assert "Tembo2024" in await _shown(harness, "वाईफाई पासवर्ड क्या है?")
    assert "hanokXQ77" not in await _shown(harness, "와이파이 비밀번호 바꿔야 할까?")
    # A later adversary: asked to change it, it was shown.
    assert "hanokXQ77" not in await _shown(harness, "와이파이 비밀번호 바꿔줘")
    assert "Tembo2024" not in await _shown(harness, "वाईफाई पासवर्ड बदलो")


async def test_a_code_asked_for_in_german_or_italian_is_shown(harness: Harness) -> None:
    """Found by an adversary: both were answered with the code redacted."""
    await harness.memory.store("graz", "Graz: Türcode 5858, WLAN-Passwort Blume22", "core")
    await harness.memory.store("rimini", "il codice del portone a Rimini è 2233", "core")
    german = await _shown(harness, "wie ist der Türcode in Graz?")
    assert "5858" in german and "Blume22" not in german
    assert "2233" in await _shown(harness, "qual è il codice del portone?")


async def test_a_saved_messages_bike_code_goes_only_when_its_lock_is_asked_for(
    harness: Harness,
) -> None:
    """Found by an adversary: "what's the door code for Vienna?" showed the model "… the
    bike lock code is 5566" from a saved message beside the door code asked for."""
    await harness.memory.store(
        "vienna", "Vienna flat: door code 4471, wifi password Blue88x", "core"
    )
    await harness.memory.store_with_metadata(
        "conversation/s0/1",
        "Just so you know the Vienna door code is 4471 and the bike lock code is 5566",
        "conversation",
        "s0",
    )
    shown: dict[str, str] = {}
    for message in ("what's the door code for Vienna?", "what's my bike lock code?"):
        shown[message] = await _shown(harness, message)
    assert "4471" in shown["what's the door code for Vienna?"]
    assert "5566" not in shown["what's the door code for Vienna?"]
    assert "5566" in shown["what's my bike lock code?"]


async def test_a_bike_lock_said_without_its_code_word_goes_only_when_asked(
    harness: Harness,
) -> None:
    """Found by an adversary: "bike lock is 3-7-1-9" (no "code") went to the model for
    "what colour is my bike?"; it is kept as said, to be asked back."""
    said = await harness.memory.store_with_metadata(
        "conversation/s0/1", "bike lock is 3-7-1-9", "conversation", "s0"
    )
    assert said.content == "bike lock is 3-7-1-9"
    await harness.memory.store("bike", "My bike is a blue Trek", "core")
    assert "3-7-1-9" not in await _shown(harness, "what colour is my bike?")
    assert "3-7-1-9" in await _shown(harness, "what's my bike lock code?")


async def test_a_secret_left_out_after_the_question_is_not_the_one_shown(
    harness: Harness,
) -> None:
    """Found by an adversary: "what's the code for Graz? not the alarm one, the door" showed
    the alarm code alone; "forget about the password - what's the beach house gate combo?"
    showed no secret at all."""
    await harness.memory.store(
        "graz", "Graz flat: wifi password is alpenblick77, door code 4412, alarm code 9087"
    )
    shown = await _shown(harness, "what's the code for Graz? not the alarm one, the door")
    assert "4412" in shown and "9087" not in shown and "alpenblick77" not in shown
    await harness.memory.store(
        "beach", "Beach house: alarm code 1234, gate combo 5678, wifi password surfsup99"
    )
    shown = await _shown(harness, "forget about the password - what's the beach house gate combo?")
    assert "5678" in shown and "surfsup99" not in shown and "1234" not in shown
    # A question of its own after it narrows nothing (a second adversary was shown the
    # Graz flat's wifi password for the studio's).
    await harness.memory.store("studio", "Studio wifi password is Pixel77x")
    await harness.memory.store("graz_wifi", "Graz flat wifi password is Kaiser88")
    shown = await _shown(harness, "what's the studio wifi password and is the Graz flat big?")
    assert "Pixel77x" in shown and "Kaiser88" not in shown


def test_a_question_naming_nothing_asks_of_the_part_before_it() -> None:
    """Found by a second adversary: "where's the studio keypad and what's the code?" showed
    the gym locker's code too."""
    written = datetime(2026, 12, 6, tzinfo=UTC)
    facts = [
        written_entry("studio", "The studio keypad code is 7741#", "core", written),
        written_entry("gym", "Gym locker code is 9090", "core", written),
    ]
    shown = most_of_what_was_asked(facts, "where's the studio keypad and what's the code?")
    assert shown == {"studio": "The studio keypad code is 7741#"}


@pytest.mark.parametrize(
    "asked",
    [
        "what's my IBAN?",
        "wie lautet meine IBAN?",
        "what are my bank account details?",
        "draft a short invoice email to mr o'donovan, include my bank details and VAT number",
    ],
)
def test_an_iban_asked_for_by_its_name_is_shown_and_no_other_secret(asked: str) -> None:
    """Found by a new user, a freelancer: "what's my IBAN?" and the invoice she asked for
    were given it redacted, as a secret nobody asked for; nor may a door code come with it."""
    iban = "My IBAN is IE29 AIBK 9311 5212 3456 78 (AIB business account)"
    facts = _facts(
        iban=iban,
        door="The office door code is 4590",
        card="my card number is 4111 1111 1111 1111",
    )
    assert asks_for_a_secret(asked)
    assert most_of_what_was_asked(facts, asked) == {"iban": iban}
    card = most_of_what_was_asked(facts, "what's my card number?")
    assert card == {"card": "my card number is 4111 1111 1111 1111"}


@pytest.mark.parametrize("asked", ["IBAN code?", "wie lautet mein IBAN-Code?"])
def test_an_iban_asked_for_with_the_word_code_shows_no_door_code(asked: str) -> None:
    """Found by a second adversary: "IBAN code?" showed the gate and garage codes."""
    iban = "My IBAN is DE89 3704 0044 0532 0130 00"
    facts = _facts(iban=iban, gate="The gate code is 3333", pin="My bank card PIN is 4821")
    assert most_of_what_was_asked(facts, asked) == {"iban": iban}
    its = most_of_what_was_asked(facts, "what's my bank card number and its code?")
    assert its == {"pin": "My bank card PIN is 4821"}


@pytest.mark.parametrize(
    ("asked", "key"),
    [
        ("what is my PPS number?", "pps"),
        ("c'est quoi mon NAS?", "nas"),
        ("what's my social insurance number?", "nas"),
        ("what's my SIN?", "nas"),
        ("what's my social security number", "ssn"),
        ("what is mum's NHS number", "mum"),
        ("passport number?", "passport"),
        ("quel est mon numéro d'assurance maladie?", "ramq"),
        ("c'est quoi mon NIP de carte de débit?", "nip"),
        ("what's my NI number?", "ni"),
        # A second adversary: one's own asked for, no one else's beside it.
        ("what's my wife's passport number?", "hers"),
        ("jaki jest mój PESEL?", "pesel"),
        ("¿cuál es mi número de pasaporte?", "passport"),
        ("what's my driving licence number?", "licence"),
        ("wie lautet meine Führerscheinnummer?", "licence"),
    ],
)
def test_an_id_number_asked_for_by_its_name_is_shown_and_no_other(asked: str, key: str) -> None:
    """Found by a new user, a translator in Montréal: "c'est quoi mon NAS?" was answered
    with the fact she had kept redacted, as a secret nobody asked for, and asking for her
    health card's number showed her social insurance number ("numéro", "assurance"); by a
    second adversary: asked for one's own, the wife's was shown beside it."""
    facts = _facts(
        pps="My PPS number is 1234567T",
        nas="Mon NAS (numéro d'assurance sociale) est 046 454 286",
        wife="My wife's NAS is 130 692 544",
        ssn="My SSN is 123-45-6789",
        mum="Mum's NHS number is 943 476 5919",
        passport="my passport number is XK1234567",
        hers="my wife's passport number is K9876543",
        pesel="mój PESEL to 44051401359",
        son="PESEL syna: 02070803628",
        ramq="ma carte RAMQ: TREC 8907 1512",
        nip="le NIP de ma carte de débit est 4827",
        ni="My National Insurance number is QQ 12 34 56 C",
        licence="Mi carnet de conducir es el 12345678Z",
        door="The office door code is 4590",
    )
    assert asks_for_a_secret(asked)
    assert most_of_what_was_asked(facts, asked) == {
        key: next(f.content for f in facts if f.key == key)
    }
    # One not kept is none of the others, nor someone else's when one's own is not kept
    # (a third adversary was shown the wife's).
    assert most_of_what_was_asked(facts, "what's my Aadhaar number?") == {}
    wifes = _facts(hers="my wife's passport number is K7654321")
    assert most_of_what_was_asked(wifes, "what's my passport number?") == {}
    assert most_of_what_was_asked(facts, "what's my Medicare number?") == {}
    # Someone else's asked for: never one's own (a later adversary was shown the user's SIN).
    own = _facts(sin="My SIN is 046 454 286", anna="My wife Anna's passport number is Y7654321")
    assert most_of_what_was_asked(own, "what's my wife's SIN?") == {}
    assert not asks_for_a_secret("what's in the pan?")


@pytest.mark.parametrize(
    "asked",
    [
        "where is the passport office?",
        "how do I renew my passport?",
        "when does my passport expire?",
        "czy PESEL jest ważny?",
        "quand expire ma carte RAMQ?",
        "cuando caduca mi pasaporte?",
        "como renuevo el pasaporte de Pablo?",
        "wann läuft mein Reisepass ab?",
    ],
)
def test_an_id_named_for_what_is_done_with_it_asks_not_for_its_number(asked: str) -> None:
    """Found by a second adversary: each showed the model the passport's number."""
    assert not asks_for_a_secret(asked)
    assert asks_for_a_secret("what's my passport number, it expires soon")


def _facts(**contents: str) -> list[MemoryEntry]:
    """Core facts by key, written on one day."""
    written = datetime(2026, 12, 6, tzinfo=UTC)
    return [written_entry(key, text, "core", written) for key, text in contents.items()]


@pytest.mark.parametrize(
    ("asked", "key"),
    [
        ("what's my github token?", "github"),
        ("what's the acme github token?", "github"),
        ("github token?", "github"),
        ("what's my stripe api key", "stripe"),
        # An adversary: by the service's short name.
        ("what is my gh token", "github"),
        # A new user, an engineer: a service's key with no "api" (shown redacted).
        ("what's my stripe key?", "stripe"),
        ("give me the sk_live key", "stripe"),
    ],
)
def test_a_token_or_an_api_key_asked_for_is_shown_and_no_other_secret(asked: str, key: str) -> None:
    """Found by a new user, a contractor: "what's my github token?" was answered with the
    token she had asked it to keep redacted; only /recall gave it back."""
    facts = _facts(
        github="The acme github token is ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ12",
        stripe="Stripe key sk_live_51HxYzAbCdEfGhIjKlMnOpQr",
        wifi="The wifi password is BlueCat99!",
    )
    assert asks_for_a_secret(asked)
    shown = most_of_what_was_asked(facts, asked)
    assert list(shown) == [key]
    assert "[REDACTED" not in shown[key]


@pytest.mark.parametrize(
    "asked",
    ["how do I revoke my github token?", "should I rotate my github token?", "reset the token?"],
)
def test_something_done_to_a_token_asks_not_for_its_value(asked: str) -> None:
    """Found by a short adversary: "how do I revoke my github token?" showed the token."""
    assert not asks_for_a_secret(asked)
    assert asks_for_a_secret("what's my github token? I need to revoke it")
    assert asks_for_a_secret("code to disable the alarm?")


@pytest.mark.parametrize(
    "given",
    [
        "gh token ghp_9Z8Y7X6W5V4U3T2S1R0QponmlkjihgfedCBA99",
        "gh token [REDACTED:github-token]",
        "wifi password Kiwi-Banana-42",
        "door code 4590",
    ],
)
def test_a_secret_named_with_a_value_of_its_own_gives_it(given: str) -> None:
    """Found by an adversary: "gh token ghp_9Z8…", a new token said in three words, was read
    as asking for the token and showed the model the old one kept."""
    assert not asks_for_a_secret(given)
    assert asks_for_a_secret(given.rsplit(" ", 1)[0])


@pytest.mark.parametrize(
    ("fact", "asked"),
    [
        ("Mi número de pasaporte es XDA123456", "what's my passport number?"),
        ("Meine Reisepassnummer ist C01X00T47", "what's my passport number?"),
        ("Mi carnet de conducir es el 12345678Z", "what's my driving licence number?"),
    ],
)
async def test_an_id_number_kept_in_another_language_is_found_by_its_english_name(
    harness: Harness, fact: str, asked: str
) -> None:
    """Found by a second adversary: "what's my passport number?" recalled nothing of the
    passport kept in Spanish or German; each other name of the ID is searched too."""
    await harness.memory.store("id", fact, "core")
    await harness.memory.store("cat", "My cat is called Tom", "core")
    harness.model.add("Here it is.")
    events = await harness.turn(asked)
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert [e.content for e in recalled.injected] == [fact]  # asked for: shown whole
    harness.model.add("Renew it online.")
    events = await harness.turn("how do I renew my passport?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert all("XDA123456" not in e.content for e in recalled.injected)

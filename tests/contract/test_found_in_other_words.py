"""A number written in groups is found typed without them, on every backend."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from memory.entry import MemoryEntry
from memory.protocol import Memory
from memory.settings import MemorySettings
from memory.text import entry_terms
from tests.contract.conftest import OpenStore, needs


async def test_a_phone_number_is_found_typed_without_its_spaces(memory: Memory) -> None:
    """Found by a new user: "01768888888" found nothing, "0176 8888888" the memory."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("phone", "My phone number is 0176 8888888")
    await memory.store("office", "Office line: (030) 1234-5678")
    await memory.store("tea", "I like green tea")
    for typed, key in (("01768888888", "phone"), ("03012345678", "office")):
        found = await memory.recall(typed)
        assert [e.key for e in found.entries][:1] == [key], typed
    spaced = await memory.recall("0176 8888888")
    assert [e.key for e in spaced.entries][:1] == ["phone"]


async def test_a_changed_home_is_found_by_the_question_worded_the_old_way(
    memory: Memory,
) -> None:
    """Found by a new user: "where do I live?" recalled the old message "I live in Porto"
    and never the fact in effect, "I moved to Lisbon" (no word of the question in it)."""
    needs(memory, "persistent", "supports_keyword_search", "supports_supersede")
    await memory.store_with_metadata("m1", "I live in Porto", "conversation", "s1")
    await memory.store("home", "I live in Porto")
    moved = await memory.store("home_now", "I moved to Lisbon")
    await memory.store("job", "I work at Acme")
    found = await memory.recall("where do I live?")
    assert moved.id in [e.id for e in found.entries]
    assert "home" not in [e.key for e in found.entries]  # replaced: history
    employer = await memory.recall("who is my employer?")
    assert [e.key for e in employer.entries][:1] == ["job"]


async def test_a_question_about_the_user_puts_the_users_own_facts_first(memory: Memory) -> None:
    """Found by a new user: "where do I live?" matched "I live in Lisbon", "Bob lives in
    Berlin" and "My sister Ana lives in Porto" alike, and Bob's came first. Scores stay
    as they are; among equal ones the user's own facts come first, then what is theirs."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("bob", "Bob lives in Berlin")
    await memory.store("sister", "My sister Ana lives in Porto")
    await memory.store("asked", "I asked Bob where he lives")  # the user's, not a home
    await memory.store("home", "The user's home is in Lisbon")
    await memory.store("bobs_cat", "Bob's cat is called Rex")
    await memory.store("cat", "The user's cat is called Miso")
    found = await memory.recall("where do I live?", limit=5)
    assert [e.key for e in found.entries][:3] == ["home", "asked", "sister"]
    cat = await memory.recall("what is my cat called?", limit=5)
    assert [e.key for e in cat.entries][:1] == ["cat"]
    bob = await memory.recall("where does Bob live?", limit=5)
    assert "bob" in [e.key for e in bob.entries][:2]  # "I asked Bob where he lives" ties


async def test_another_persons_move_is_found_by_where_they_live(memory: Memory) -> None:
    """Found by a new user: "where does Bob live now" did not find "Bob moved to
    Coimbra" (no word of "live" in it); the user's own move was found so."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("moved", "Bob moved to Coimbra")
    await memory.store("a_tea", "Bob likes green tea")  # sorts first among equals
    found = await memory.recall("where does Bob live now?", limit=5)
    scores = {e.key: e.score or 0.0 for e in found.entries}
    assert [e.key for e in found.entries][:1] == ["moved"]
    assert scores["moved"] > scores.get("a_tea", 0.0)


async def test_news_of_a_move_said_in_passing_is_found_by_where_the_user_lives(
    memory: Memory,
) -> None:
    """Found by a new user: "Big news: my wife and I moved to Lisbon last week!", said in
    the chat (not as a fact), was never found by "where do I live?", and a new job said
    as "my new job is at Bosch" neither by "where do I work?"."""
    needs(memory, "persistent", "supports_keyword_search")
    news = await memory.store_with_metadata(
        "m1", "Big news: my wife and I moved to Lisbon last week!", "conversation", "s1"
    )
    job = await memory.store_with_metadata("m2", "my new job is at Bosch", "conversation", "s1")
    await memory.store("sister", "My sister Ana lives in Madrid")
    found = await memory.recall("where do I live?", limit=5)
    assert [e.id for e in found.entries][:1] == [news.id]
    work = await memory.recall("where do I work?", limit=5)
    assert [e.id for e in work.entries][:1] == [job.id]


async def test_a_new_employer_told_after_leaving_the_old_is_found_by_where_i_work(
    memory: Memory,
) -> None:
    """Found by a new user: "I left Fintrack, I've been hired by Revolut" was found by no
    question about where they work, only by "Revolut"."""
    needs(memory, "persistent", "supports_keyword_search")
    hired = await memory.store("job", "I left Fintrack, I've been hired by Revolut")
    await memory.store("sister", "My sister Ana works at a bakery in Madrid")
    for question in ("who do I work for?", "where do I work now?", "what's my employer"):
        found = await memory.recall(question, limit=5)
        assert [e.id for e in found.entries][:1] == [hired.id], question


async def test_a_request_to_forget_or_to_say_what_was_told_finds_the_fact(
    memory: Memory,
) -> None:
    """Found by a new user: "please forget what I told you about being on call" recalled
    nothing (its asking words outweighed "call"), so the model could not see the fact."""
    needs(memory, "persistent", "supports_keyword_search")
    duty = await memory.store("on_call", "I'm on call the week of December 14")
    await memory.store("tea", "I like green tea in the morning")
    for asked in (
        "please forget what I told you about being on call",
        "what did I tell you about being on call",
        "forget that I'm on call",
    ):
        found = await memory.recall(asked, limit=5)
        assert [e.id for e in found.entries][:1] == [duty.id], asked
        scores = found.entries[0].scores
        assert scores is not None and scores.keyword == 1.0, asked  # every word asked for


async def test_a_health_condition_is_found_by_its_noun_or_its_adjective(memory: Memory) -> None:
    """Found by a new user: "allergies" did not find "I'm allergic to peanuts" by its words
    (safety information, missed whenever meaning search is off or weak)."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("allergy", "I'm allergic to peanuts")
    await memory.store("asthma", "My son has asthma")
    await memory.store("tea", "I like green tea")
    assert [e.key for e in (await memory.recall("any allergies?")).entries][:1] == ["allergy"]
    assert [e.key for e in (await memory.recall("is he asthmatic")).entries][:1] == ["asthma"]


async def test_a_name_with_an_umlaut_is_found_spelt_out(memory: Memory) -> None:
    """Found by a new user: "juergen" did not find "Jürgen"."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("boss", "My boss is Jürgen Müller")
    await memory.store("tea", "I like green tea")
    for typed in ("juergen", "Jürgen", "jurgen", "mueller"):
        assert [e.key for e in (await memory.recall(typed)).entries][:1] == ["boss"], typed


async def test_a_question_in_another_language_finds_by_what_it_asks_about(
    memory: Memory,
) -> None:
    """Found by a multilingual new user: "wann ist der Zahnarzttermin" found nothing of "Ich
    habe am 3. einen Zahnarzttermin": its function words outweighed the one that mattered."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("dentist", "Ich habe am 3. einen Zahnarzttermin bei Dr. Weber")
    await memory.store("birthday", "El cumpleaños de mi madre es el 15 de enero")
    await memory.store("tea", "I like green tea")
    for typed, key in [
        ("wann ist der Zahnarzttermin", "dentist"),
        ("¿cuándo es el cumpleaños de mi madre?", "birthday"),
    ]:
        assert [e.key for e in (await memory.recall(typed)).entries] == [key], typed


async def test_a_question_in_another_language_finds_a_fact_kept_in_english(
    open_store: OpenStore,
) -> None:
    """Found by a new user writing half in Portuguese: "quando faz anos o tiago?" found
    nothing of Tiago's birthday, "preciso do código da porta do lab" not the door code
    (default floor here); a fact kept in Spanish is still found by its own words."""
    memory = await open_store(min_relevance_score=MemorySettings().min_relevance_score)
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("tiago", "my partner is Tiago, his birthday is 23 February")
    await memory.store("lab", "The lab door keypad code is 4817#")
    await memory.store("madre", "El cumpleaños de mi madre es el 15 de enero")
    await memory.store("tea", "I like green tea")
    for typed, key in [
        ("quando faz anos o tiago?", "tiago"),
        ("wann hat Tiago Geburtstag?", "tiago"),
        ("preciso do código da porta do lab", "lab"),
        ("¿cuándo es el cumpleaños de mi madre?", "madre"),
    ]:
        assert [e.key for e in (await memory.recall(typed)).entries][:1] == [key], typed


async def test_a_question_for_someones_name_recalls_them_not_every_name(
    open_store: OpenStore,
) -> None:
    """Found by a new user: "what's my doctor's name?" shared "name" with "my mother's
    maiden name is …" and "doctor" with "My doctor is Dr. Park", and by the words' rarity
    alone the names ranked first; every name the user had told was injected. The word a
    question asks for weighs little beside whom it asks it of (default floor here)."""
    memory = await open_store(min_relevance_score=MemorySettings().min_relevance_score)
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("doctor", "My doctor is Dr. Park")
    await memory.store("maiden", "My mother's maiden name is Silva")
    await memory.store("cat", "My cat's name is Miso")
    await memory.store("wife", "My wife's name is Ana")
    await memory.store("phone", "My phone number is 555 0199")
    for question in ("what's my doctor's name?", "what is the name of my doctor"):
        found = await memory.recall(question)
        assert [e.key for e in found.entries] == ["doctor"], question
    cat = await memory.recall("what is my cat's name?")
    assert [e.key for e in cat.entries][:1] == ["cat"]
    # A question of the asked-for words alone weighs them as before.
    phone = await memory.recall("what is my phone number?")
    assert [e.key for e in phone.entries][:1] == ["phone"]


async def test_a_question_for_a_day_recalls_what_it_asks_it_of(open_store: OpenStore) -> None:
    """Found by a new user, an engineer: "what day is my on-call?" recalled "Standup is at
    9:30 every day" and "… his last day is a Friday", not the on-call shift ("call" was
    weighed as "called", a word that asks for a name)."""
    memory = await open_store(min_relevance_score=MemorySettings().min_relevance_score)
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("on_call", "My on-call shift is on Thursdays now")
    await memory.store("standup", "Standup is at 9:30 every day")
    await memory.store("miguel", "Miguel is leaving on 18 December, his last day is a Friday")
    found = await memory.recall("what day is my on-call?")
    assert [e.key for e in found.entries] == ["on_call"]


async def test_a_pasted_log_is_found_for_itself_not_for_every_question(
    open_store: OpenStore,
) -> None:
    """Found by a new user, an engineer: a pasted log of 3,000 lines held nearly every word
    and number, and came first for most questions ("Standup moved to 10:00" found it at
    0.48 by its "10"); asked about, it is still found."""
    memory = await open_store(min_relevance_score=MemorySettings().min_relevance_score)
    needs(memory, "persistent", "supports_keyword_search")
    log = "\n".join(
        f"2026-12-0{1 + i % 5}T23:{i % 60:02d}:00Z INFO app.worker path=/refunds/{i} "
        f"duration_ms={i * 7 % 997} status=200"
        for i in range(1500)
    )
    await memory.store("log", "here's the log from last night:\n" + log, "conversation")
    await memory.store("standup", "Standup is at 9:30 every day")
    moved = await memory.recall("Standup moved to 10:00")
    assert "log" not in [e.key for e in moved.entries]
    asked = await memory.recall("what's in the refunds worker log?")
    assert [e.key for e in asked.entries][:1] == ["log"]


async def test_a_dose_is_found_by_the_words_that_ask_for_it(memory: Memory) -> None:
    """Found by a new user: "what's my current dose?" and "what medication am I on?" found
    nothing of "I take 10mg of lisinopril every morning" (none of their words in it)."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("dose", "I take 10mg of lisinopril every morning")
    await memory.store("run", "I ran 10km this morning")  # an amount, not a dose
    await memory.store("tea", "I like green tea every morning")
    for question in ("what's my current dose?", "what medication am I on?", "my meds?"):
        found = await memory.recall(question, limit=5)
        scores = {e.key: e.score or 0.0 for e in found.entries}
        assert [e.key for e in found.entries][:1] == ["dose"], question
        assert scores["dose"] > scores.get("run", 0.0) + 0.1, (question, scores)


async def test_medicines_said_without_a_dose_rule_are_found_by_medication(
    memory: Memory,
) -> None:
    """Found by a second adversary: "what medication am I on?" missed "Amlodipine 5mg
    daily", "Vitamin D 1000 IU daily", the insulin and "2 tablets of lisinopril"."""
    needs(memory, "persistent", "supports_keyword_search")
    medicines = {
        "amlodipine": "Amlodipine 5mg daily",
        "vitamin": "Vitamin D 1000 IU daily",
        "insulin": "My insulin went up to 14 units",
        "tablets": "I take 2 tablets of ibuprofen at night",
    }
    for key, text in medicines.items():
        await memory.store(key, text)
    for key, text in {"milk": "200 ml of milk", "work": "10 units of work done"}.items():
        await memory.store(key, text)
    found = await memory.recall("what medication am I on?", limit=8)
    scores = {e.key: e.score or 0.0 for e in found.entries}
    assert set(medicines) <= set(scores), scores
    assert min(scores[key] for key in medicines) > max(
        scores.get("milk", 0.0), scores.get("work", 0.0)
    )


async def test_a_medicine_without_its_amount_and_a_doctor_by_another_name_are_found(
    memory: Memory,
) -> None:
    """Found by a new user, a nurse with asthma: "what meds am I on?" found nothing of "I
    use Ventolin for my asthma and Seretide 250 twice a day" (a door code to the med room
    came first), nor "who's my doctor?" "My GP is Dr Anand Patel"."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("asthma", "I use Ventolin for my asthma and Seretide 250 twice a day")
    await memory.store("gp", "My GP is Dr Anand Patel")
    await memory.store("door", "The med room door code is 4821")
    await memory.store("walk", "I walk the dog twice a day")
    for question in (
        "what meds am I on?",
        "what medication am I on?",
        "asthma meds?",
    ):
        found = await memory.recall(question)
        assert [e.key for e in found.entries][:1] == ["asthma"], question
    doctor = await memory.recall("who's my doctor?")
    assert [e.key for e in doctor.entries] == ["gp"]
    # A new user, a baker: a customer's coeliac disease is what "allergic" asks about.
    await memory.store("byrne", "Mrs Byrne (regular, Thursdays) is coeliac - GF loaf only")
    allergic = await memory.recall("who's allergic to what?")
    assert "byrne" in [e.key for e in allergic.entries]


async def test_a_date_typed_in_numbers_finds_the_day_written_in_words(memory: Memory) -> None:
    """Found by a new user: "10.12.2026" scored 0.15 and "2026-12-10" 0.32 against "Dentist
    on December 10 at 9am": each way of reading the date counted as a word of its own, and
    the stored date has no year."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("dentist", "Dentist on December 10 at 9am")
    await memory.store("physio", "Physio on December 9 at 5pm")
    await memory.store("tea", "I like green tea")
    for typed in ("what's on 10.12.2026?", "2026-12-10", "12/10/2026?"):
        found = await memory.recall(typed, limit=5)
        assert [e.key for e in found.entries][:1] == ["dentist"], typed
        assert (found.entries[0].score or 0.0) >= 0.6, (typed, found.entries[0].score)
        assert "physio" not in [e.key for e in found.entries][:1], typed


async def test_days_named_from_today_find_what_was_said_of_those_days(memory: Memory) -> None:
    """Found by a new user: "remind me of my appointments next week" recalled nothing of
    "Physio on December 9" (next week's Wednesday); "tomorrow" read as a word."""
    needs(memory, "persistent", "supports_keyword_search")
    today = date.today()
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=1)

    def said(day: date) -> str:
        return f"{day:%B} {day.day}"

    await memory.store("physio", f"Physio on {said(monday + timedelta(days=2))} at 5pm")
    await memory.store("dentist", f"Dentist on {said(monday + timedelta(days=4))} at 9am")
    await memory.store("far", f"Haircut on {said(monday + timedelta(days=20))}")
    await memory.store("tea", "I like green tea")
    found = await memory.recall("remind me of my appointments next week", limit=5)
    scores = {e.key: e.score or 0.0 for e in found.entries}
    assert sorted(e.key for e in found.entries[:2]) == ["dentist", "physio"]
    assert min(scores["dentist"], scores["physio"]) > 0.3  # the floor
    assert max(scores.get("far", 0.0), scores.get("tea", 0.0)) < 0.2, scores
    await memory.store("plumber", f"The plumber comes on {said(today + timedelta(days=1))}")
    # Said two weeks ago of its own next day (a second adversary saw it recalled).
    long_ago = datetime.now(UTC) - timedelta(days=14)
    await _said_at(memory, long_ago, [("old", "I have the dentist tomorrow")])
    tomorrow = await memory.recall("what is on tomorrow?", limit=5)
    assert [e.key for e in tomorrow.entries][:1] == ["plumber"]
    assert "old" not in [e.key for e in tomorrow.entries]


async def test_a_date_said_in_passing_weighs_no_more_than_the_message_s_subject(
    memory: Memory,
) -> None:
    """Found by a new user: "my doctor might cut my sertraline next month" recalled every
    fact of next month (0.5, over the floor) and the sertraline one at 0.11: the date
    weighed as all the message's words together. It weighs as its heaviest word found in
    the store, so the facts that only share the month stay under the floor."""
    needs(memory, "persistent", "supports_keyword_search")
    month = (date.today().replace(day=1) + timedelta(days=32)).replace(day=15)
    await memory.store("meds", "I take sertraline 50mg every morning")
    await memory.store("gp", "Dr Kelly is my GP")
    await memory.store("dentist", f"Dentist appointment on {month.day} {month:%B}")
    await memory.store("mum", f"Mum's birthday is on {month.day - 6} {month:%B}")
    await memory.store("checkup", "Dentist checkup in August")
    said = await memory.recall("my doctor might cut my sertraline next month", limit=5)
    scores = {e.key: e.score or 0.0 for e in said.entries}
    assert scores.get("meds", 0.0) >= max(scores.get("dentist", 0.0), scores.get("mum", 0.0))
    assert max(scores.get("dentist", 0.0), scores.get("mum", 0.0)) < 0.3, scores  # the floor
    bring = await memory.recall("what should I bring to the dentist next month", limit=5)
    scores = {e.key: e.score or 0.0 for e in bring.entries}
    assert [e.key for e in bring.entries][:1] == ["dentist"]
    assert scores["dentist"] >= 0.3 > scores.get("mum", 0.0), scores
    # A question of the month alone is about it: every fact of it is found.
    asked = await memory.recall("anything on next month?", limit=5)
    scores = {e.key: e.score or 0.0 for e in asked.entries}
    assert min(scores.get("dentist", 0.0), scores.get("mum", 0.0)) >= 0.3, scores


async def test_a_day_asked_about_finds_what_names_it_not_all_that_was_saved_then(
    memory: Memory,
) -> None:
    """Found by an adversary and a new user: the day a memory was saved and a date it
    names were one term, so "what do I have on today?" recalled everything saved today at
    1.0 (the dinner that is today tied with the move), and "December" everything saved in
    December. A question about what was said that day still finds what was saved then."""
    needs(memory, "persistent", "supports_keyword_search")
    today = date.today()
    await memory.store("move", "I moved to Berlin")
    await memory.store("alice", "Alice's phone number is 555-1234")
    await memory.store("dinner", f"Dinner with Ana on {today:%B} {today.day}")
    for asked in ("what do I have on today?", f"{today:%B}"):
        found = await memory.recall(asked, limit=5)
        assert [e.key for e in found.entries] == ["dinner"], asked
    told = await memory.recall("what did I tell you today?", limit=5)
    assert {e.key for e in told.entries} == {"move", "alice", "dinner"}


async def test_a_day_named_from_the_day_said_is_found_by_its_date(memory: Memory) -> None:
    """Found by a new user: "Müller job: user manual, due next Friday", saved on Friday 4
    December 2026, was found neither by "what is due on 11.12.2026?" nor, that week, by
    "what deadlines do I have next week?"; in a month its words meant nothing."""
    needs(memory, "persistent", "supports_keyword_search")
    friday = datetime(2026, 12, 4, 12, tzinfo=UTC)
    said = [
        ("muller", "Müller job: user manual, due next Friday"),
        ("plumber", "The plumber comes on Monday"),
        ("gym", "Gym every Monday at 7"),
        ("tea", "I like green tea"),
        # Found by the second adversary and the second new user of the round.
        ("yoga", "Yoga class this weekend"),
        ("recital", "Piano recital on Friday"),  # said on a Friday: next week's
        ("dentist14", "Lily's dentist is on the 14th"),
        ("drill", "I lent my drill to Tom on Saturday"),  # told of the past: last Saturday
    ]
    await _said_at(memory, friday, said)
    for asked, keys in [
        ("what is on 11.12.2026?", ["muller", "recital"]),
        ("what is on December 7 2026?", ["plumber"]),
        ("what is on 6.12.2026?", ["yoga"]),
        ("what is on 2026-12-14?", ["dentist14"]),
        ("what was on 28.11.2026?", ["drill"]),
        ("what is on 5.12.2026?", ["yoga"]),  # not the drill's Saturday
    ]:
        assert sorted(await _found_by_its_words(memory, asked)) == keys, asked
    # The gym is on every Monday too (a new user: weekly lessons were on no day), after
    # what names the day.
    monday = [e.key for e in (await memory.recall("what is on December 7 2026?")).entries]
    assert "gym" in monday and monday.index("plumber") < monday.index("gym")
    # "On Friday", said on a Friday, is not that day. Read from the index terms: asked
    # once the day is gone by, "what is on 2026-12-04?" finds what was said that day
    # (every memory here), so a recall's answer depends on today's date.
    assert "dtd20261204" not in entry_terms("recital", "Piano recital on Friday", friday)
    # A plan said a year ago of its own next week is not this week's (an adversary).
    year_ago = datetime.now(UTC) - timedelta(days=365)
    await _said_at(memory, year_ago, [("oslo", "Flight to Oslo next week")])
    assert "oslo" not in await _found_by_its_words(memory, "what's on next week?")
    tomorrow = date.today() + timedelta(days=1)
    await memory.store("dentist", "Dentist tomorrow at 9")
    asked = f"what is on {tomorrow:%B} {tomorrow.day}?"
    assert "dentist" in await _found_by_its_words(memory, asked)


async def _said_at(memory: Memory, when: datetime, said: list[tuple[str, str]]) -> None:
    """Store each (key, text) as said at `when` (an import keeps the time it is given)."""
    await memory.import_(
        [
            MemoryEntry(id=f"said-{key}", key=key, content=text, timestamp=when, updated_at=when)
            for key, text in said
        ]
    )


async def _found_by_its_words(memory: Memory, query: str) -> list[str]:
    """The keys a recall finds by every word (keyword score 1.0: not a vector's guess)."""
    found = await memory.recall(query, limit=5)
    return [e.key for e in found.entries if e.scores is not None and e.scores.keyword == 1.0]


async def test_a_number_with_a_thousands_dot_is_found_typed_without_it(memory: Memory) -> None:
    """Found by a multilingual new user: "1200" found nothing of "Müller GmbH pays 1.200 €
    a month" (a thousands dot, as much of Europe writes it)."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("rent", "Müller GmbH pays 1.200 € a month")
    await memory.store("words", "The manual has 12.000 words")
    await memory.store("tea", "I like green tea")
    assert await _found_by_its_words(memory, "1200") == ["rent"]
    assert await _found_by_its_words(memory, "12000") == ["words"]
    assert await _found_by_its_words(memory, "1.200") == ["rent"]


async def test_english_words_that_are_function_words_elsewhere_are_still_found(
    memory: Memory,
) -> None:
    """Found by an adversary: "fur" (German "für", folded), "Della", "Di" and "LA" found
    nothing once every language's function words were left out of every text."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("coat", "I bought a fur coat at Harrods")
    await memory.store("della", "Della is my upstairs neighbour")
    await memory.store("la", "My brother lives in LA")
    await memory.store("tea", "I like green tea")
    for asked, key in [("the fur coat", "coat"), ("who is Della?", "della")]:
        assert await _found_by_its_words(memory, asked) == [key], asked
    assert "la" in await _found_by_its_words(memory, "LA")


async def test_a_question_about_what_comes_next_puts_days_gone_by_last(
    open_store: OpenStore,
) -> None:
    """Found by a new user, a nurse: "night shift again tmrw 9pm-7am, ugh", said weeks
    before, was the first answer to "when's my next night shift?", above the shifts to
    come."""
    memory = await open_store(min_relevance_score=0.0)
    needs(memory, "persistent", "supports_keyword_search")
    from memory.write_rules import NewMemory

    before = datetime(2020, 11, 20, 12, 0, tzinfo=UTC)
    await memory.write(
        NewMemory(key="old", content="night shift again tmrw 9pm-7am, ugh", created_at=before)
    )
    await memory.write(NewMemory(key="roster", content="Night shift on 16.12.2099 at 9pm"))
    ahead = [e.key for e in (await memory.recall("when's my next night shift?")).entries]
    assert ahead == ["roster", "old"]
    # A day and month without the year is read from the day it was said (a third
    # adversary: "Night shift on 1.12." said on 5.12.2020 counted as still to come).
    await memory.write(
        NewMemory(key="first", content="Night shift on 1.12. at 9pm", created_at=before)
    )
    ahead = [e.key for e in (await memory.recall("when's my next night shift?")).entries]
    assert ahead[:1] == ["roster"]
    # Asked of what was, the order is the scores' alone.
    said = [e.key for e in (await memory.recall("night shift tmrw 9pm ugh")).entries]
    assert said[:1] == ["old"]


async def test_a_price_is_found_by_the_words_asking_for_it(memory: Memory) -> None:
    """Found by a new user, a baker: "how much is flour now?" matched "much" as often as
    "flour", and "price of flour" found the price neither: under the floor."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("flour", "flour from Odlums €38 a sack (cream plain 25kg, until 31/12)")
    await memory.store("butter", "Butter comes from Glenisk on Mondays")
    await memory.store("oven", "Oven service due 3/2")
    for question in ("how much is flour now?", "price of flour", "what does flour cost?"):
        found = await memory.recall(question)
        assert [e.key for e in found.entries][:1] == ["flour"], question
        assert (found.entries[0].score or 0.0) >= 0.5, question


async def test_today_said_in_passing_asks_for_nothing_said_today(memory: Memory) -> None:
    """Found by a new user, a translator: "the bbva app is so slow today" recalled "Bodegas
    Alcañiz paid invoice F-2026-041 today!!", said the same day, by "today" alone."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store_with_metadata(
        "m1", "Bodegas Alcañiz paid invoice F-2026-041 today!!", "conversation", "s1"
    )
    await memory.store_with_metadata("m2", "Dentist today at 3pm", "conversation", "s1")

    async def found_by_words(query: str) -> set[str]:
        """What the keyword lane found (the vector lane, here hashing, finds anything)."""
        found = await memory.recall(query)
        return {e.key for e in found.entries if e.scores is not None and e.scores.keyword}

    for statement in ("the bbva app is so slow today", "I feel tired today, long day"):
        assert await found_by_words(statement) == set(), statement
    for asked in ("what did I do today?", "anything today?", "plans for today"):
        assert await found_by_words(asked) == {"m1", "m2"}, asked
    assert "m2" in await found_by_words("dentist today")

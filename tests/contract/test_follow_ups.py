"""The conversation follow-up rule, alike on every backend that ranks by score.

Found by an adversary: Qdrant (and PostgreSQL) never added the message that followed a
recalled one in its session, which SQLite does; every chat message is one.
"""

from __future__ import annotations

from memory.protocol import Memory
from tests.contract.conftest import OpenStore, needs

CHAT = [
    ("s1", "m1", "I was telling you about my cat"),
    ("s2", "m2", "the cat food brand we buy is Felix"),
    ("s1", "m3", "she is named Luna"),
    ("s1", "m4", "and the dog is Rex"),
    ("s2", "m5", "remind me to buy bread"),
]


async def _answers(store: Memory, query: str, **filters: object) -> list[tuple[object, ...]]:
    found = await store.recall(query, limit=5, **filters)  # type: ignore[arg-type]
    return sorted(
        (
            e.key,
            e.score,
            None if e.scores is None else e.scores.lane,
            None if e.scores is None or e.scores.context_of is None else "parent",
        )
        for e in [*found.entries, *found.below_floor]
    )


async def test_a_recalled_message_brings_the_next_one_of_its_session_as_sqlite_does(
    memory: Memory, open_store: OpenStore
) -> None:
    needs(memory, "persistent", "supports_keyword_search", "supports_vectors")
    reference = await open_store("sqlite")
    answers = []
    for store in (memory, reference):
        ids = {}
        for session, key, text in CHAT:
            entry = await store.store_with_metadata(key, text, "conversation", session)
            ids[key] = entry.id
        await store.store_with_metadata(
            "m9", "cat photos to sort", "conversation", "s1", namespace="work"
        )
        plain = await _answers(store, "cat")
        assert ("m3", 0.7, "context", "parent") in plain  # m1's next message, at 0.7 of it
        # The context line names the message that brought it in.
        found = await store.recall("cat", limit=5)
        brought = [e for e in found.entries if e.key == "m3"]
        assert brought and brought[0].scores is not None
        assert brought[0].scores.context_of == ids["m1"]
        # The next message must pass the recall's filters; when it does not, nothing
        # follows: the one after it is not what followed (found by a new user).
        excluded = await _answers(store, "cat", exclude_ids=[ids["m3"]])
        assert not any(row[0] in ("m3", "m4") for row in excluded)
        # Nor when the next message became a fact.
        await store.store_with_metadata("m3", "she is named Luna", "core", "s1")
        made_a_fact = await _answers(store, "cat")
        assert not any(row[0] in ("m3", "m4") and row[3] == "parent" for row in made_a_fact)
        assert ("m5", 0.7, "context", "parent") in made_a_fact  # m2's, as before
        answers.append((plain, excluded, made_a_fact))
    assert answers[0] == answers[1]


async def test_a_message_that_only_asks_neither_brings_nor_is_brought_along(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by a new user and an adversary: the app saves only the user's messages, so
    the message after a recalled question is the user's next request. "when is my
    dentist appointment?" brought along "what's my locker code?" at 0.7, and "how do I
    take my coffee" a message about something else; both were injected."""
    needs(memory, "persistent", "supports_keyword_search", "supports_vectors")
    reference = await open_store("sqlite")
    answers = []
    for store in (memory, reference):
        for session, key, text in [
            ("s1", "q1", "when is my dentist appointment?"),
            ("s1", "q2", "what's my locker code?"),
            ("s2", "q3", "how do I take my coffee"),
            ("s2", "a3", "J'habite à Lyon depuis 2019"),
            ("s3", "d1", "The dentist moved to Friday. Can you remember that?"),
            ("s3", "d2", "Also: what should I bring?"),
        ]:
            await store.store_with_metadata(key, text, "conversation", session)
        found = await _answers(store, "dentist appointment")
        keys = [row[0] for row in found]
        assert "q1" in keys and "d1" in keys
        # A question after them is not brought along (it may be below the floor on its
        # own: a saved copy of a question no longer settles a recall by its words).
        brought = [row[0] for row in found if row[2] == "context"]
        assert "q2" not in brought and "d2" not in brought
        coffee = await _answers(store, "coffee")
        # A question brings nothing along (typed without its "?", it is held back too).
        assert "q3" in [row[0] for row in coffee]
        assert [row for row in coffee if row[3] == "parent"] == []
        answers.append((found, coffee))
    assert answers[0] == answers[1]


async def _brought_along(
    memory: Memory,
    open_store: OpenStore,
    said: list[tuple[str, str, str]],
    expected: dict[str, list[str]],
) -> None:
    """Store each (session, key, text) as a message; each query brings along `expected`'s
    keys, on this backend as on SQLite."""
    reference = await open_store("sqlite")
    answers = []
    for store in (memory, reference):
        for session, key, text in said:
            await store.store_with_metadata(key, text, "conversation", session)
        brought = {}
        for query in expected:
            found = await _answers(store, query)
            brought[query] = sorted(str(row[0]) for row in found if row[2] == "context")
        assert brought == expected
        answers.append(brought)
    assert answers[0] == answers[1]


async def test_a_message_telling_of_something_new_is_not_brought_along(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by new users (twice): "I work as a nurse at …" brought along "My sister Inês
    has two kids" for "where do I work?", and a health message came with unrelated ones.
    A next message that opens with the user and shares no word with the recalled one
    tells of something new; one that points back, answers or shares a word goes on."""
    needs(memory, "persistent", "supports_keyword_search", "supports_vectors")
    await _brought_along(
        memory,
        open_store,
        [
            ("s1", "job", "I work as a nurse at Hospital Sao Joao"),
            ("s1", "sister", "My sister Ines has two kids"),
            ("s2", "art", "I paint and make pottery in my free time"),
            ("s2", "years", "Seven years now, painting is so calming"),
            ("s3", "band", "I play bass in a band called Vinyl"),
            ("s3", "gig", "My band plays at the Lux on Friday"),
            ("s4", "dose", "I take lisinopril every morning"),
            ("s4", "news", "Sad news: Mimi died last night"),
        ],
        {
            "where do I work, at which hospital": [],
            "pottery": ["years"],
            "bass": ["gig"],
            "lisinopril": [],
        },
    )


async def test_a_message_telling_of_something_new_in_another_language_is_not_brought_along(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by a multilingual new user: "Ich habe am 3. einen Zahnarzttermin" came along
    with a birthday at 0.63, "El cumpleaños de mi madre …" with a client's rate, and "Tell
    me everything you know about Müller." with a dose."""
    needs(memory, "persistent", "supports_keyword_search", "supports_vectors")
    await _brought_along(
        memory,
        open_store,
        [
            ("s1", "birthday", "Meine Mutter hat am 15. Januar Geburtstag"),
            ("s1", "dentist", "Ich habe am 3. einen Zahnarzttermin"),
            ("s2", "rate", "Acme pays 0.12 per word for translations"),
            ("s2", "mother", "El cumpleaños de mi madre es el 15 de enero"),
            ("s3", "dose", "I take sertraline every morning"),
            ("s3", "asks", "Tell me everything you know about Müller."),
            ("s4", "flat", "Marta cherche un appartement à Lyon"),
            ("s4", "rent", "Elle a trouvé un studio pour 700 euros"),
            # After a greeting, or asking in a way held back (a later adversary: each came
            # along at 0.7).
            ("s5", "fern", "my fern is called Fernando"),
            ("s5", "weber", "Hallo, mein Zahnarzt heißt jetzt Dr. Weber"),
            ("s6", "service", "the car service is on the 14th"),
            ("s6", "address", "tell me about my address"),
        ],
        {
            "Geburtstag": [],
            "Acme translations": [],
            "sertraline": [],
            "appartement Lyon": ["rent"],  # goes on: not the user's own news
            "fern Fernando": [],
            "car service": [],
        },
    )


async def test_a_saved_question_is_shown_but_not_used(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by a new user: every message is saved, so asking again recalled the earlier
    question at 1.0, above the fact that answers it; two of five slots were old questions.
    A message that only asks is held back, shown under the floor with the reason."""
    needs(memory, "persistent", "supports_keyword_search")
    store = await open_store(min_relevance_score=0.3)
    await store.store_with_metadata("q1", "is Sam allergic to anything?", "conversation", "s1")
    await store.store_with_metadata("fact", "Sam is allergic to peanuts", "core", None)
    found = await store.recall("is Sam allergic to anything?", limit=5)
    assert [e.key for e in found.entries] == ["fact"]
    [held] = [e for e in found.below_floor if e.key == "q1"]
    assert held.score is not None and held.score >= 0.3 and held.scores is not None
    assert "not used: a saved question says no fact" in held.scores.explanation(found.mode)


async def test_a_message_said_hours_later_is_not_brought_along(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by a new user, a baker: a chat taken up again days later (or whose messages
    between were deleted at 30 days) brought "I take amlodipine 5mg every morning" along
    with the flour delivery."""
    from datetime import UTC, datetime, timedelta

    from memory.write_rules import NewMemory

    needs(memory, "persistent", "supports_keyword_search", "supports_vectors")
    reference = await open_store("sqlite")
    answers = []
    said = datetime(2026, 12, 10, 9, 0, tzinfo=UTC)
    for store in (memory, reference):
        for key, text, at in [
            ("delivery", "the flour delivery comes every Wednesday at six", said),
            ("soon", "and the rye flour comes the same day", said + timedelta(minutes=3)),
            ("other", "bake two more trays of rolls", said + timedelta(minutes=4)),
            ("later", "delivery moved to thursday so the bakers start later", said),
            ("days_on", "so that is sorted for the rota", said + timedelta(days=9)),
        ]:
            session = "s2" if key in ("later", "days_on") else "s1"
            await store.write(
                NewMemory(
                    key=key,
                    content=text,
                    category="conversation",
                    session_id=session,
                    created_at=at,
                )
            )
        found = await _answers(store, "flour delivery wednesday")
        brought = {row[0] for row in found if row[3] == "parent"}
        assert "soon" in brought and "days_on" not in brought, found
        answers.append(found)
    assert answers[0] == answers[1]


async def test_a_message_after_one_deleted_is_no_longer_the_next(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by a new user: "Hi, I am Hana … rent is 15 000 Kč" brought along a pasted .env
    said after four messages that retention had removed since."""
    from datetime import UTC, datetime, timedelta

    from memory.write_rules import NewMemory

    needs(memory, "persistent", "supports_keyword_search", "supports_vectors", "supports_delete")
    reference = await open_store("sqlite")
    answers = []
    said = datetime(2026, 12, 10, 9, 0, tzinfo=UTC)
    for store in (memory, reference):
        for key, text, seconds in [
            ("rent", "the rent for the flat is 15000 a month", 0),
            ("deposit", "and the deposit was two months of it", 10),
            ("landlord", "and the landlord lives downstairs with a parrot", 20),
        ]:
            await store.write(
                NewMemory(
                    key=key,
                    content=text,
                    category="conversation",
                    session_id="s1",
                    created_at=said + timedelta(seconds=seconds),
                )
            )
        before = await _answers(store, "rent 15000 month")
        assert any(row[0] == "deposit" and row[3] == "parent" for row in before), before
        assert await store.forget("deposit")
        after = await _answers(store, "rent 15000 month")
        assert not any(row[0] == "landlord" for row in after), after
        answers.append(after)
    assert answers[0] == answers[1]

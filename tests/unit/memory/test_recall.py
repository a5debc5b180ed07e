from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memory import text
from memory.asked_parts import asked_parts
from memory.calibration import anchor_texts
from memory.entry import RecallScores
from memory.follow_ups import goes_on
from memory.questions import asks_only, only_asks
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder, FailingEmbedder
from memory.write_rules import NewMemory
from tests.unit.memory.conftest import DIMS, OpenStore


async def test_entry_with_every_query_term_scores_one(open_store: OpenStore) -> None:
    store = await open_store(None, min_relevance_score=0.0)
    await store.store("a", "The user's dentist appointment is on Tuesday")
    await store.store("b", "Dentist said to floss")
    await store.store("c", "Groceries: milk, eggs")
    result = await store.recall("dentist appointment")
    assert [e.key for e in result.entries] == ["a", "b"]
    assert result.entries[0].scores is not None
    assert result.entries[0].scores.keyword == pytest.approx(1.0)
    assert 0 < result.entries[1].score < 1  # type: ignore[operator]
    assert result.mode == "keyword" and result.degraded is None


async def test_scores_are_absolute_not_relative_to_the_best_hit(open_store: OpenStore) -> None:
    store = await open_store(None, min_relevance_score=0.0)
    await store.store("a", "alpha beta")
    await store.store("noise", "gamma delta epsilon")
    full = await store.recall("alpha beta")
    partial = await store.recall("alpha zeta")  # zeta appears nowhere: the best hit is partial
    assert full.entries[0].score == pytest.approx(1.0)
    assert [e.key for e in partial.entries] == ["a"]
    assert partial.entries[0].score is not None and partial.entries[0].score < 0.5


async def test_relevance_floor_moves_weak_hits_below_the_floor(open_store: OpenStore) -> None:
    store = await open_store(None, min_relevance_score=0.8)
    await store.store("strong", "quantum chromodynamics lecture notes")
    await store.store("weak", "a lecture about cooking")
    result = await store.recall("quantum chromodynamics lecture")
    assert [e.key for e in result.entries] == ["strong"]
    assert [e.key for e in result.below_floor] == ["weak"]


async def test_a_change_said_finds_what_it_changes_without_its_new_value(
    open_store: OpenStore,
) -> None:
    """Found by a new user, an engineer: "Standup moved to 10:00" found nothing of
    "Standup is at 9:30" (the new time, in no memory, counted against it: 0.25)."""
    store = await open_store(None, min_relevance_score=0.3)
    await store.store("standup", "Standup is at 9:30 every day")
    await store.store("dentist", "Dentist on 5/12 at 3pm")
    await store.store("manager", "My manager is Sofia")
    for said, key in (
        ("Standup moved to 10:00", "standup"),
        ("has standup moved to 10:00?", "standup"),
        ("Dentist rescheduled to 12/12", "dentist"),
        # An adversary: said verb first, and a word of moving that pulled it under the floor.
        ("Moved standup to 10:00", "standup"),
        ("we moved standup to 10:00", "standup"),
    ):
        assert [e.key for e in (await store.recall(said)).entries] == [key], said
    await store.store("yoga", "Yoga class is on Tuesday at 6pm")
    moved = await store.recall("yoga got rescheduled to thursdays at 7")
    assert [e.key for e in moved.entries] == ["yoga"]
    assert (await store.recall("moved to 10:00")).entries == []  # nothing else to search
    # A pasted text is searched whole: its first "is now" cuts nothing off.
    pasted = "The printer is now fixed. " + "Notes from the retro follow. " * 8 + "Dentist is due."
    assert "dentist" in text.query_terms(pasted)


async def test_a_question_after_a_pasted_text_is_asked_alone_too(open_store: OpenStore) -> None:
    """Found by a new user, a parent: an email thread pasted with "-- so who drives Mondays
    and Thursdays in January?" after it recalled nothing (the carpool fact scored 0.2)."""
    store = await open_store(None, min_relevance_score=0.3)
    await store.store("carpool", "carpool: Monday the Chens drive, Thursday the Okafors drive")
    await store.store("swim", "Maya has swim lessons on Sundays at 11am")
    email = (
        "From: Lisa Chen\nSent: Monday, December 7, 2026 8:02 AM\nSubject: ROM trip\n\n"
        "Hi all, the ROM trip is now on Thursday December 10, bus leaves at 8:15 from the "
        "school. Please send a packed lunch, peanut-free, and a water bottle. For January we "
        "are reshuffling, so we need volunteers. Let me know by Friday. Thanks, Lisa\n"
    )
    asked = email + "-- so who drives Mondays and Thursdays in January?"
    assert [e.key for e in (await store.recall(asked)).entries] == ["carpool"]
    assert asked_parts(email + "no question here.") == []


async def test_a_question_with_why_it_is_asked_is_asked_alone_too(
    open_store: OpenStore,
) -> None:
    """Found by a new user, a carer: "when is chidis birthday, i need to send a card"
    recalled nothing (the birthday scored 0.25 below the floor, and 1.0 asked alone)."""
    store = await open_store(None, min_relevance_score=0.3)
    await store.store(
        "grandchildren", "The grandchildren: Chidi is 14 March, Ada is 2 June, Tobi is 9 October"
    )
    await store.store("swim", "Maya has swim lessons on Sundays at 11am")
    await store.store("blue_badge", "Blue Badge card renewal is due in May")
    asked = "when is chidis birthday, i need to send a card"
    assert [e.key for e in (await store.recall(asked)).entries] == ["grandchildren"]
    assert asked_parts("how do i center a div? i need it for work") == []


async def test_stemming_matches_word_forms(store: SqliteMemory) -> None:
    await store.store("run", "She was running marathons in 2023")
    assert [e.key for e in (await store.recall("runs marathon")).entries] == ["run"]


async def test_stop_word_query_uses_the_low_confidence_substring_lane(
    store: SqliteMemory,
) -> None:
    await store.store("a", "so what is it then")
    await store.store("b", "completely unrelated")
    result = await store.recall("what is it")
    assert [e.key for e in result.entries] == ["a"]
    assert result.entries[0].scores is not None and result.entries[0].scores.low_confidence


@pytest.mark.parametrize(
    ("content", "query"),
    [
        ("저는 커피를 정말 좋아해요", "커피"),
        ("주말에 한강에서 자전거를 탔어요", "자전거"),
        ("東京に住んでいます", "東京"),
        ("我喜欢喝绿茶", "绿茶"),
        ("Café au lait à Montréal", "cafe montreal"),
    ],
)
async def test_korean_japanese_chinese_and_accents_are_findable(
    store: SqliteMemory, content: str, query: str
) -> None:
    await store.store("target", content)
    await store.store("noise", "nothing to see here")
    assert [e.key for e in (await store.recall(query)).entries] == ["target"]


async def test_empty_and_star_return_most_recent(store: SqliteMemory) -> None:
    for key in ("first", "second", "third"):
        await store.store(key, f"{key} entry")
    for query in ("", "*", "   "):
        result = await store.recall(query, limit=2)
        assert result.mode == "recent"
        assert [e.key for e in result.entries] == ["third", "second"]


async def test_like_fallback_is_marked_low_confidence(store: SqliteMemory) -> None:
    await store.store("lang", "Programming in Pythonic style")
    result = await store.recall("ythoni")
    assert [e.key for e in result.entries] == ["lang"]
    scores = result.entries[0].scores
    assert scores is not None and scores.low_confidence and scores.lane == "like"


async def test_namespace_filter_applies_before_the_limit(store: SqliteMemory) -> None:
    for i in range(60):
        await store.store_with_metadata(
            f"n{i}", f"budget spreadsheet budget {i}", "daily", namespace="noise"
        )
    await store.store("mine", "the budget spreadsheet for the house")
    result = await store.recall("budget spreadsheet", limit=1)
    assert [e.key for e in result.entries] == ["mine"]
    everywhere = await store.recall("budget spreadsheet", limit=3, namespace=None)
    assert all(e.namespace == "noise" for e in everywhere.entries)


async def test_session_scope_rule(store: SqliteMemory) -> None:
    await store.store("s1-note", "project falcon status", "conversation", "s1")
    await store.store("s2-note", "project falcon deadline is Friday", "conversation", "s2")
    await store.store("global", "project falcon owner is Ana", "core", None)
    in_s1 = {e.key for e in (await store.recall("project falcon", session_id="s1")).entries}
    assert in_s1 == {"s1-note", "global"}
    in_s2 = {e.key for e in (await store.recall("project falcon", session_id="s2")).entries}
    assert in_s2 == {"s2-note", "global"}
    anywhere = {e.key for e in (await store.recall("project falcon")).entries}
    assert anywhere == {"s1-note", "s2-note", "global"}


async def test_category_time_window_exclusion_and_superseded_filters(store: SqliteMemory) -> None:
    old = await store.store("old", "garden tomatoes planted", "daily")
    new = await store.store("new", "garden tomatoes harvested", "core")
    assert [e.key for e in (await store.recall("garden tomatoes", category="daily")).entries] == [
        "old"
    ]
    after = new.timestamp - timedelta(microseconds=1)
    since = await store.recall("garden tomatoes", since=after)
    assert [e.key for e in since.entries] == ["new"]
    until = await store.recall("garden tomatoes", until=new.timestamp)
    assert [e.key for e in until.entries] == ["old"]
    excluded = await store.recall("garden tomatoes", exclude_ids=[old.id])
    assert [e.key for e in excluded.entries] == ["new"]
    await store.supersede([old.id], new.id)
    assert [e.key for e in (await store.recall("garden tomatoes")).entries] == ["new"]
    with_history = await store.recall("garden tomatoes", include_superseded=True)
    assert {e.key for e in with_history.entries} == {"old", "new"}


async def test_results_are_deduplicated_and_ordered(hybrid: SqliteMemory) -> None:
    await hybrid.store("a", "sailing trip to Crete in June")
    await hybrid.store("b", "sailing lessons")
    await hybrid.store("c", "trip planning spreadsheet")
    result = await hybrid.recall("sailing trip june", limit=5)
    keys = [e.key for e in result.entries]
    assert len(keys) == len(set(keys))
    scores = [e.score for e in result.entries]
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]


async def test_early_return_skips_the_embedding_call(open_store: OpenStore) -> None:
    embedder = CountingEmbedder(DIMS)
    store = await open_store(embedder)
    await store.store("pet", "The user's cat is called Miso")
    calls = len(embedder.calls)
    result = await store.recall("cat called Miso")
    assert result.mode == "keyword-early"
    assert len(embedder.calls) == calls
    assert [e.key for e in result.entries] == ["pet"]


async def test_no_early_return_when_keywords_carry_no_weight(open_store: OpenStore) -> None:
    embedder = CountingEmbedder(DIMS)
    store = await open_store(embedder, keyword_weight=0.0, vector_weight=1.0)
    await store.store("pet", "The user's cat is called Miso")
    result = await store.recall("cat called Miso")
    assert result.mode == "hybrid"
    scores = result.entries[0].scores
    assert scores is not None and result.entries[0].score == pytest.approx(scores.vector)


async def test_hybrid_runs_when_keywords_are_weak(open_store: OpenStore) -> None:
    embedder = CountingEmbedder(DIMS)
    store = await open_store(embedder, min_relevance_score=0.0)
    await store.store("pet", "The user's cat is called Miso")
    await store.store("car", "The user drives a blue hatchback")
    calls = len(embedder.calls)
    result = await store.recall("what is the name of my cat")
    assert result.mode == "hybrid"
    # The query, and once per model the reference sentences that calibrate it.
    assert embedder.calls[calls:] == [list(anchor_texts()), ["what is the name of my cat"]]
    assert result.calibration is not None and "calibrated" in result.calibration
    again = await store.recall("which car do I drive")
    assert list(anchor_texts()) not in embedder.calls[calls + 2 :] and again.calibration is None
    top = result.entries[0]
    assert top.key == "pet" and top.scores is not None
    assert top.scores.vector is not None and top.scores.keyword is not None


async def test_query_embedding_is_cached_across_recalls(open_store: OpenStore) -> None:
    embedder = CountingEmbedder(DIMS)
    store = await open_store(embedder, hot_cache_size=0)
    await store.store("pet", "The user's cat is called Miso")
    await store.recall("name of my cat")
    calls = len(embedder.calls)
    again = await store.recall("name of my cat")
    assert again.mode == "hybrid" and not again.cached
    assert len(embedder.calls) == calls


async def test_hot_cache_hits_and_is_invalidated_by_writes(hybrid: SqliteMemory) -> None:
    await hybrid.store("pet", "The user's cat is called Miso")
    first = await hybrid.recall("name of my cat")
    second = await hybrid.recall("name of my cat")
    assert not first.cached and second.cached
    assert [e.id for e in second.entries] == [e.id for e in first.entries]
    second.entries.clear()  # mutating a cached copy must not corrupt the cache
    assert (await hybrid.recall("name of my cat")).entries
    await hybrid.store("pet2", "Another cat named Tofu")
    assert not (await hybrid.recall("name of my cat")).cached


async def test_hot_cache_sees_writes_from_another_connection(open_store: OpenStore) -> None:
    first = await open_store(None)
    second = await open_store(None)
    await first.store("a", "orchid watering schedule")
    assert len((await first.recall("orchid")).entries) == 1
    await second.store("b", "orchid repotting")
    result = await first.recall("orchid")
    assert not result.cached
    assert {e.key for e in result.entries} == {"a", "b"}


async def test_vector_index_follows_another_connections_writes(open_store: OpenStore) -> None:
    first = await open_store(
        CountingEmbedder(DIMS), min_relevance_score=0.0, early_return_score=1.0
    )
    second = await open_store(CountingEmbedder(DIMS))
    await first.store("seed", "unrelated seed entry")
    await second.store("b", "kayaking on the fjord")
    result = await first.recall("kayak fjords")
    assert result.entries[0].key == "b"
    assert result.entries[0].scores is not None and result.entries[0].scores.vector
    await second.forget("b")
    assert all(e.key != "b" for e in (await first.recall("kayak fjords")).entries)


async def test_embedder_failure_degrades_to_keyword_and_keeps_writes(
    open_store: OpenStore,
) -> None:
    embedder = FailingEmbedder(DIMS)
    store = await open_store(embedder, early_return_score=1.0)
    entry = await store.store("k", "the wifi password hint is the cat's name")
    assert (await store.get("k")) == entry
    embedder.failing = False
    await store.store("seed", "another entry so the vector index is not empty")
    embedder.failing = True
    result = await store.recall("wifi hint cat")
    assert result.mode == "keyword"
    assert result.degraded is not None and "unreachable" in result.degraded
    assert [e.key for e in result.entries][0] == "k"
    health = await store.health_check()
    assert health.ok and "keyword-only" in health.detail


async def test_an_embedder_that_never_worked_is_named_in_every_recall(
    open_store: OpenStore,
) -> None:
    # A model of another size than memory.embedding_dimensions: no vector is ever stored.
    store = await open_store(CountingEmbedder(DIMS // 2), early_return_score=1.0)
    await store.store("k", "the wifi password hint is the cat's name")
    result = await store.recall("wifi hint")
    assert result.mode == "keyword" and [e.key for e in result.entries] == ["k"]
    assert result.degraded is not None
    assert f"expects {DIMS}" in result.degraded and "embedding_dimensions" in result.degraded


async def test_query_vector_given_skips_the_embedder(open_store: OpenStore) -> None:
    embedder = CountingEmbedder(DIMS)
    store = await open_store(embedder, min_relevance_score=0.0)
    await store.store("a", "mountain hut booking")
    vector = (await embedder.embed(["mountain hut booking"]))[0]
    await store.recall("first recall calibrates the model", query_vector=vector)
    calls = len(embedder.calls)
    result = await store.recall("zzz", query_vector=vector)
    assert len(embedder.calls) == calls
    assert result.mode == "hybrid"
    scores = result.entries[0].scores
    assert scores is not None and scores.cosine == pytest.approx(1.0, abs=1e-5)
    assert scores.band is not None and scores.vector == pytest.approx(
        min(1.0, (1.0 - scores.band[0]) / (scores.band[1] - scores.band[0])), abs=1e-5
    )


async def test_wrong_size_query_vector_is_rejected(hybrid: SqliteMemory) -> None:
    from memory.errors import EmbeddingDimensionError

    await hybrid.store("a", "x y z")
    with pytest.raises(EmbeddingDimensionError, match="size 3"):
        await hybrid.recall("x", query_vector=np.ones(3, dtype=np.float32))


async def test_recall_since_accepts_naive_datetimes_as_utc(store: SqliteMemory) -> None:
    entry = await store.store("a", "alpaca wool socks")
    naive = (entry.timestamp - timedelta(seconds=1)).astimezone(UTC).replace(tzinfo=None)
    assert (await store.recall("alpaca", since=naive)).entries
    assert not (await store.recall("alpaca", since=datetime.now(UTC) + timedelta(1))).entries


async def _chat(store: SqliteMemory, session: str, lines: list[str]) -> list[str]:
    ids = []
    for number, line in enumerate(lines):
        entry = await store.store(f"{session}-{number}", line, "conversation", session)
        ids.append(entry.id)
    return ids


async def test_a_recalled_message_brings_its_follow_up(store: SqliteMemory) -> None:
    ids = await _chat(
        store,
        "s1",
        [
            "I am reading a memoir at the moment",
            "Becoming Nicole by Amy Ellis Nutt, it is wonderful",
            "Unrelated: the plumber comes on Friday",
        ],
    )
    result = await store.recall("which memoir are you reading")
    assert [e.key for e in result.entries] == ["s1-0", "s1-1"]
    question, reply = result.entries
    assert reply.scores is not None and reply.scores.lane == "context"
    assert reply.scores.context_of == ids[0]
    assert reply.score == pytest.approx(0.7 * question.score)  # type: ignore[operator]


def test_a_word_pointing_back_far_into_a_note_of_its_own_makes_no_follow_up() -> None:
    """Found by a new user, a baker: the trade account's PIN note came along with "how much
    is the wedding cake" ("… dont go showing that around")."""
    order = "wedding cake for Niamh & Conor 3 tier, price 450 deposit 100 paid"
    pin = "the pin for the dunnes mills trade account is [REDACTED:pin] dont go showing that around"
    assert not goes_on(order, pin)
    assert goes_on("I am reading a memoir", "Becoming Nicole by Amy Ellis Nutt, it is wonderful")


def test_a_number_alone_shared_makes_no_follow_up() -> None:
    """Found by a new user, an allotment's secretary: "what plot is Mary on?" brought
    along the birthday party said after "Mary has plot 3" (both hold a 3)."""
    party = "Saoirse's birthday party is sat 19/12 at 3, bring the cake"
    assert not goes_on("Mary O'Connor has plot 3", party)
    assert goes_on("Mary O'Connor has plot 3", "her plot 3 is the one by the gate, she grows leeks")


def test_a_currency_alone_shared_makes_no_follow_up() -> None:
    """Found by a new user, a baker in Guadalajara: the flour's new price came along with
    Doña Carmen's order, sharing only "MXN", and pushed the order's correction out."""
    order = "el pedido de Doña Carmen: 3 pasteles para el sábado 13, total $900 MXN"
    flour = "La harina subió otra vez, ahora el bulto cuesta $1,310 MXN"
    assert not goes_on(order, flour)
    assert goes_on(order, "Doña Carmen ya pagó los $900 MXN del pedido")


def test_a_day_shared_or_this_sunday_makes_no_follow_up() -> None:
    """Found by a new user, a baker: "Ka Yan needs her PE kit every Weds …" came along with
    the inspection moved to a Wednesday, and "Jo's swapping with Tomasz this Sunday …" with
    the dairy's new number ("this" read as pointing back)."""
    inspection = "Inspection moved to Weds 14/04, the EHO rang this morning"
    kit = "Ka Yan needs her PE kit every Weds and the school trip money £35 by Fri 05/02"
    assert not goes_on(inspection, kit)
    number = "Got a new number for Sandra at Bradley's Dairy: 07700 900 412"
    swap = "Jo's swapping with Tomasz this Sunday 17/01, Jo does 7am-1pm"
    assert not goes_on(number, swap)
    # A word of the topic shared, or "this" pointing back, still goes on.
    assert goes_on(inspection, "the inspection is at 9 on the Weds, EHO is called Dave")
    assert goes_on("I am reading a memoir", "Becoming Nicole by Amy Ellis Nutt, this is great")
    assert goes_on("my knee hurts again", "physio said that Sunday hike was too much for it")


def test_also_or_a_link_pasted_alone_makes_no_follow_up() -> None:
    """Found by a new user, a nurse: "Also the car rego is due …" came along with her night
    shifts, and an authenticator link pasted by mistake with the school excursion."""
    roster = "night shift Fri 11/12 19:00-07:30, Sat 12/12 19:00-07:30"
    assert not goes_on(roster, "Also the car rego is due 14/01/2027")
    excursion = "Minh's excursion permission slip is due Friday"
    link = "otpauth://totp/CommBank:linh?secret=[REDACTED:secret]&issuer=CommBank"
    assert not goes_on(excursion, link)
    assert goes_on(excursion, "signed it this morning")
    # A correction naming nothing: the message it corrects may be another (a fact made of
    # the one between), and a correction recalled marks what it puts right anyway.
    assert not goes_on("I have the dentist on Tuesday at 3pm", "no wait, Wednesday")


async def test_a_note_of_its_own_is_no_follow_up(store: SqliteMemory) -> None:
    """Found by a new user, a landlord: each note is of its own, and "plumber is Gerry, his
    number is …" came along with a payment for "how much has Marta paid"."""
    await _chat(
        store,
        "s1",
        [
            "Marta paid 1000 of the december rent",
            "plumber is Gerry, his number is 087 123 4567",
            "Ciarán paid 1450 of the december rent",
            "the rest she pays next friday she says",
        ],
    )
    result = await store.recall("how much has Marta paid")
    keys = [e.key for e in result.entries]
    assert "s1-0" in keys and "s1-1" not in keys
    brought = await store.recall("how much has Ciarán paid")
    assert [e.key for e in brought.entries][:2] == ["s1-2", "s1-3"]


async def test_follow_ups_stay_in_their_session(store: SqliteMemory) -> None:
    await _chat(store, "s1", ["I am reading a memoir"])
    await _chat(store, "s2", ["Turnips and carrots for dinner"])
    result = await store.recall("which memoir reading")
    assert [e.key for e in result.entries] == ["s1-0"]


async def test_follow_ups_pass_the_same_filters(store: SqliteMemory) -> None:
    ids = await _chat(store, "s1", ["I am reading a memoir", "Becoming Nicole"])
    excluded = await store.recall("which memoir reading", exclude_ids=[ids[1]])
    assert [e.key for e in excluded.entries] == ["s1-0"]
    await store.supersede([ids[1]], ids[0])
    assert [e.key for e in (await store.recall("which memoir reading")).entries] == ["s1-0"]


async def test_follow_ups_can_be_disabled(open_store: OpenStore) -> None:
    off = await open_store(None, conversation_context_weight=0.0)
    await _chat(off, "s1", ["I am reading a memoir", "Becoming Nicole"])
    assert [e.key for e in (await off.recall("which memoir reading")).entries] == ["s1-0"]


async def test_core_facts_bring_no_follow_ups(store: SqliteMemory) -> None:
    await store.store("fact", "The memoir club meets on Mondays", "core", "s1")
    await store.store("next", "Bring snacks", "core", "s1")
    assert [e.key for e in (await store.recall("memoir club")).entries] == ["fact"]


def test_chat_fillers_search_for_nothing() -> None:
    assert text.query_terms("ok") == []
    assert text.query_terms("thanks, yes please") == []
    # "remind me" asks, as "remember" does: "remind me of my appointments next week".
    assert text.query_terms("yes please remind me about the dentist") == ["dentist"]
    # "now" said nothing either: it recalled "Garage code is now 9090" (a new user).
    assert text.query_terms("where do I live now?") == ["live"]
    # Nor do words of asking (the tenth new user): "days" fell under the floor, and
    # "remember" found "Please remember that I work as a nurse" before the cat.
    assert text.query_terms("where do I work these days?") == ["work"]
    assert text.query_terms("what do you remember about my cat") == ["cat"]
    assert text.query_terms("Do you know my doctor's name, currently?") == ["doctor", "name"]
    assert text.query_terms("how many days until my trip") == ["mani", "day", "trip"]
    # "got" of having (a new user, a plumber: "henderson svc thurs 17th" fell under the floor).
    assert text.query_terms("what jobs have i got thurs") == ["job", "thursday"]
    # Nor "list" or "show me" opening a request, nor "everything" of it (an adversary:
    # "list everything you know about wifi" left the wifi's fact under the floor).
    assert text.query_terms("list everything you know about wifi") == ["wifi"]
    assert text.query_terms("can you show me anything on my cat") == ["cat"]
    assert text.query_terms("the shopping list for saturday") == ["shop", "list", "saturday"]


async def test_words_of_asking_leave_the_thing_asked_about_on_top(store: SqliteMemory) -> None:
    await store.store("job", "I work as a nurse at Hospital São João")
    await store.store("asked", "Please remember that my sister Inês has two kids")
    await store.store("pet", "My cat Pimenta loves tuna")
    found = await store.recall("what do you remember about my cat")
    assert [e.key for e in found.entries] == ["pet"]
    assert [e.key for e in (await store.recall("where do I work these days?")).entries] == ["job"]


@pytest.mark.parametrize(
    ("message", "empty"),
    [
        ("ok", True),
        ("thanks!", True),
        ("no", True),
        ("Thanks, that's all for now.", True),
        ("sounds good", True),
        # A new user from Edinburgh: each was saved as a memory.
        ("cheers hen x", True),
        ("aye grand", True),
        ("Dia duit", True),
        ("Dia duit, I moved to Ennis", False),
        ("hen party on sat", False),
        ("the grand canyon", False),
        ("ok, what is my cat called?", False),
        ("Great, now tell me about Miso", False),
        ("what is it?", False),
        ("", False),
        # An adversary: a sum recalled a date at 1.00 ("2월 3일", "12월 18일").
        ("what's 2+2?", True),
        ("what's 12 times 18?", True),
        ("calculate 15% of 80", True),
        ("what's 12/18?", False),
        ("what about 2023?", False),
        ("room 12", False),
        ("4821", False),  # a PIN sent after its label: kept, and redacted
        ("xxxxxxxx", False),
    ],
)
def test_a_message_that_asks_about_nothing_is_known(message: str, empty: bool) -> None:
    assert text.asks_nothing(message) is empty


def test_a_meaning_hit_with_no_meaning_score_says_its_words_scored_it() -> None:
    scores = RecallScores(keyword=0.44, vector=0.0, fused=0.32, lane="vector")
    assert "scored by its words" in scores.explanation()
    assert "found by meaning" in RecallScores(vector=0.5, fused=0.4, lane="vector").explanation()


async def test_the_entry_with_every_word_is_found_among_hundreds_that_share_one(
    open_store: OpenStore,
) -> None:
    """Common words are left out of the OR query; the entry holding them all still wins.

    Found by a new user: with 600 "telescope" notes, 700 "broken" and 1,100 "Chloé" in a
    store, "Chloé's telescope is broken" ranked by its rarest word alone and the one
    exact note never reached the candidates.
    """
    store = await open_store(None, min_relevance_score=0.0)
    names = ["Ana", "Ben", "Ida", "Omar", "Rui", "Zoe"]
    things = ["lamp", "kettle", "bike", "radio"]
    notes = [(f"t{i}", f"{names[i % 6]} sold a telescope in town {i}") for i in range(600)]
    notes += [(f"b{i}", f"The {things[i % 4]} {i} is broken again") for i in range(700)]
    notes += [(f"c{i}", f"Chloé went hiking, trip {i}") for i in range(1100)]
    notes.append(("exact", "Remember: Chloé's telescope is broken (note 757)"))
    for start in range(0, len(notes), 500):
        batch = notes[start : start + 500]
        await store.bulk_store(
            [NewMemory(key=key, content=content, category="daily") for key, content in batch]
        )
    found = await store.recall("Chloé's telescope is broken", limit=3)
    assert found.entries[0].key == "exact"
    assert found.entries[0].score == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("when is my dentist appointment?", True),
        ("what's my locker code", True),
        ("When? Where?", True),
        ("actually it's Friday at 10", False),
        ("I moved to Porto. Any good cafés?", False),
        ("Hi! What is my cat called?", True),
        ("ok thanks. hey there! where do I park?", True),
        ("Hi! I moved to Porto. Any good cafés?", False),
        ("Great! ", False),
        ("she is named Luna", False),
        ("", False),
        # A new user: two questions, the second without its mark; not one and a statement.
        ("am I vegetarian? what should I cook for the reading group potluck", True),
        ("am I vegetarian? I ate fish yesterday", False),
    ],
)
def test_only_asks_is_one_question_and_nothing_else(text: str, asks: bool) -> None:
    assert only_asks(text) is asks


def test_and_queries_leave_out_only_words_found_nearly_everywhere_in_a_large_store() -> None:
    from memory.retrieval import and_terms

    counts = {"john": 555_000, "whiteboard": 2_900, "help": 212_000, "motiv": 71_000}
    assert and_terms(counts, 1_000_000) == {"whiteboard": 2_900, "motiv": 71_000}
    # A small store: a word in every row is kept (the query is cheap anyway).
    assert and_terms({"john": 900, "tea": 3}, 1_000) == {"john": 900, "tea": 3}
    # Every word widespread: the rarest stays, so there is still an AND query.
    assert and_terms({"john": 600_000, "help": 212_000}, 1_000_000) == {"help": 212_000}
    assert and_terms({}, 10) == {}


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("is Sam allergic to anything?", True),
        ("what's my sister's phone number?", True),
        ("Hi! Where do I live?", True),
        # Found by an adversary: facts that were held back as questions.
        ("When I travel for work I always book an aisle seat.", False),
        ("How I take my coffee: black, no sugar.", False),
        ("My locker code is 4521, can you remember that?", False),
        ("Who knew that Sam is allergic to peanuts?", False),
        ("Did you know my sister Clara moved to Lyon?", False),
        ("Isn't it funny that my cat Mittens hates tuna?", False),
        ("What? I got the job at Zalando!", False),
        ("I moved to Trondheim\nAny good cafés there?", False),
        ("My shopping list: eggs, milk, zucchini?", False),
        # Found by the seventh new user: old questions took the slots of facts.
        ("Can you remind me what my cat is called? I forgot.", True),
        ("what was my doctor's name again", True),
        ("Where do I work now? I keep forgetting lol", True),
        ("what is my cat called? thanks!", True),
        ("What did I say my cat is called? I forgot, it was Miso.", False),
        ("When I was young I forgot my keys again", False),
        ("Am I allergic to anything, what dose of sertraline am I on, and who is my doctor?", True),
        ("Where do I live, and what's my job?", True),
        ("Is Sam allergic to peanuts, or shellfish?", False),
        ("How I take my coffee, black?", False),
        # Found by the tenth new user: a question framed first was used at 1.00.
        ("For the Japan trip, what should I tell the airline about my allergies?", True),
        ("By the way, where do I live?", True),
        ("Quick question: who is my doctor?", True),
        ("About my new job at Acme, what should I wear?", False),  # the frame tells
        ("For 2024, what are my goals?", False),
        ("For dinner tonight I made pasta, do you like it?", False),
        # Found by the tenth round's second new user: requests to recall were used at 1.00.
        ("remind me of my appointments", True),
        ("tell me everything you remember about Clara and Tiago", True),
        ("Tell me everything you know about my family, my cat, my job and my health.", True),
        ("any news about Clara or Tiago?", True),
        ("Remind me to buy milk tomorrow", False),  # something to keep
        ("remind me of my appointments. Also the dentist moved to Friday", False),
        # Found by a multilingual new user: questions in other languages were used at 1.0.
        ("¿cuándo es el cumpleaños de mi madre?", True),
        ("Wann ist mein Zahnarzttermin?", True),
        ("Où est mon passeport ?", True),
        ("Quanto custa o aluguel?", True),
        ("Dove abita Marco?", True),
        ("Ich habe am 3. einen Zahnarzttermin.", False),
        ("Meine Mutter hat am 15. Januar Geburtstag, schenke ich Blumen?", False),
        # Found by the twelfth round's new user: used as memories at 0.51 and 0.39.
        ("when's Alex's bday", True),
        ("anything on next week?", True),
        ("What is done is done, I moved on", False),
        ("Any time you need the car, the key is under the mat.", False),
        ("when is the meeting moved to, I wonder what Ana said about it", False),
        # Found by the twelfth round's second adversary: statements held back.
        ("what's up my new number is 555-1234", False),
        ("Who's coming Friday is Ana and Tom", False),
        ("what's new is I got a dog", False),
        ("how's it going I moved to Lisbon", False),
        ("where do I work", True),
        # Found by a later adversary and new user: a thing named and asked after.
        ("my flight number?", True),
        ("dentist??", True),
        ("and the car service?", True),
        ("the address again?", True),
        ("my dentist - when?", True),
        ("Dentist: when?", True),
        ("Maya's piano teacher, what's her name?", True),
        ("when is the dentist, again", True),
        ("u remember my address?", True),
        ("quick q: what's my address", True),
        ("tell me about my dentist?", True),
        ("yo what was my flight number", True),
        ("Flight LH1234?", False),
        ("the wifi password, Hunter22?", False),
        ("My dentist - Dr. Weber", False),
        ("Maya - swim Tuesdays and Thursdays", False),
        ("my sister Ana, she moved to Porto?", False),
        ("u know my address is 5 Main St", False),
        ("I moved to Lisbon?", False),
        # A third adversary: statements held back as questions.
        ("Tom proposed to Anna. Guess where", False),
        ("My sister moved but I don't know where", False),
        ("Alex got a new job, guess where", False),
        ("Sold the car, you know which", False),
        ("You know my sister Clara", False),
        ("dentist when", True),
        # A fourth adversary: a fact inside a question.
        ("What do you think of my new cat Biscuit?", False),
        ("Can you believe I moved to Lisbon?", False),
        ("Did I tell you I moved to Lisbon?", False),
        ("How come my rent went up to 1200?", False),
        ("Who would have thought I'd be working at Google?", False),
        ("When my dentist appt is on Thursday, what should I bring?", False),
        ("did I tell you my address?", True),
        ("wifi pw?", True),
        ("mum's bday?", True),
        ("I'm hungry?", False),
        # Found by a later adversary: each used as a memory.
        ("tell me my address", True),
        ("address pls", True),
        ("sooo... my address?", True),
        ("wot's my wifi pw", True),
        ("dentist, car service and flight - when?", True),
        ("Milk and sugar please", False),
        ("Sooo... I moved to Lisbon", False),
        ("Tom, Anna and me - where we met", False),
        ("tea, coffee and cake - what a day", False),
        # A later adversary: a thing asked after again, without "?".
        ("my address again", True),
        ("and my address", True),
        ("my address, tell me", True),
        ("and my sister moved to Lyon", False),
        ("my address again: 5 Elm St", False),
        ("I did it again", False),
        # A third adversary: news said as a follow-up.
        ("and my flight got cancelled", False),
        ("and my cat died", False),
        ("and my boss quit", False),
        ("and my sister's baby arrived", False),
        # Found by the twelfth round's second new user: two questions, each ending in "?".
        ("What is Leo allergic to? And what's the wifi password?", True),
        ("Where do I live? What is my job?", True),
        ("Did you know my sister moved? Where to?", False),
        ("when did I last see Ana", True),
        # Found by the thirteenth round's adversary and new user: used as memories.
        # A third adversary: questions in other languages typed without "?" were facts.
        ("wann hat Tom Geburtstag", True),
        ("cuándo es el cumpleaños de Tom", True),
        ("onde mora a Ana", True),
        ("qual é a senha do wifi", True),
        ("quel est le code de la porte", True),
        ("wie ist der Türcode", True),
        ("Wie immer trinke ich Kaffee", False),
        # A new user: two questions joined by "and", neither marked.
        ("whats my accountants name and who owes me money", True),
        ("what I want is tea and where I live is Porto", False),
        ("Como es tradición, cenamos juntos", False),
        # A second adversary: more of them, each stored as a fact.
        ("a che ora è il dentista", True),
        ("est-ce que Paul vient samedi", True),
        ("qu'est-ce que je dois acheter", True),
        ("hat Marta schon bezahlt", True),
        ("um wie viel Uhr ist der Zahnarzt", True),
        ("wie viel kostet die Miete", True),
        ("a qué hora es el dentista", True),
        ("cuánto le debo a Ana", True),
        ("você sabe onde eu moro", True),
        ("bin day is Monday", False),
        ("es ist der Hammer", False),
        ("um die Ecke ist ein Laden", False),
        # A third adversary: more of them.
        ("Weißt du wo ich wohne", True),
        ("Sabes dónde vivo", True),
        ("ist Paul da", True),
        ("combien je dois à Ana", True),
        ("por qué no viene Ana", True),
        ("Sabes, me mudé a Sevilla", False),
        # French inversion (the note of an earlier stop: stored as facts).
        ("Paul vient-il samedi", True),
        ("Marta a-t-elle payé", True),
        ("Dois-je acheter du pain", True),
        ("Peut-être viendra-t-il samedi", False),
        ("Rendez-vous chez le dentiste lundi", False),
        ("Jean-Pierre vient samedi", False),
        ("Peut-on payer par carte", True),
        ("Carry-on bag is 7kg max on Ryanair", False),
        # A later adversary: what the assistant knows or recalls, asked in five languages.
        ("was ist meine Adresse", True),
        ("erinnerst du dich an meine Adresse", True),
        ("qué hora es la cita", True),
        ("te acuerdas de mi dirección", True),
        ("a que horas é o dentista", True),
        ("lembras-te da minha morada", True),
        ("c'est quoi mon code postal", True),
        # A new user, a translator: "c'est quand …?" was used as a memory.
        ("c'est quand la deadline Boréal?", True),
        ("c'est où le rendez-vous", True),
        ("tu te souviens de mon adresse", True),
        ("ti ricordi dove lavoro", True),
        ("mi sai dire dove lavoro", True),
        ("Was ich mag ist Kaffee", False),
        ("Tu te souviens, on était à Lyon en 2019, c'était super", False),
        ("kommt drauf an", False),
        ("whats my violin teachers name", True),
        ("wheres my passport", True),
        ("so which violin shop did i go to", True),
        ("violin lesson when again", True),
        ("I wonder which violin strings I bought", True),
        ("Any idea about my violin teacher's number, anything at all", True),
        ("did i say my sisters name", True),
        ("I told you my locker number yesterday, what was it", True),
        ("where do I live? where do I work", True),
        # A new user, a carer: a question, then why it is asked.
        ("whats the key safe code, the new carer from the agency is asking", True),
        ("when is chidis birthday, i need to send a card", True),
        ("when is chidis birthday cos i need to send a card", True),
        ("Where do I live?? And my job?", True),
        ("So, where do I live?", True),
        ("hey what was the dentist's name again", True),
        ("hi, wann ist die Schmidt deadline? und was zahlt Müller jetzt?", True),
        ("und welche invoices sind open?", True),
        ("So I moved to Lisbon", False),
        ("which car I bought was red", False),
        ("Where do I live? And my new address is 7 Birch Road", False),
        ("I told you I'm allergic to nuts", False),
        ("I wonder if I should move to Porto, I love it there", False),
        ("hey my new number is 555-1234", False),
        # Found by the thirteenth round's second adversary.
        ("can you tell me my pin", True),
        ("do you remember my dog's name", True),
        ("tell me my doctor's name", True),
        ("lol what's my flight number", True),
        ("where do I live, again", True),
        ("I forgot my wifi password what is it", True),
        ("do you remember my sister moved to Lyon last year, she loves it", False),
        ("can you tell me a joke", False),
        ("I forgot my keys at home", False),
        ("lol my cat knocked over the plant", False),
        # A later adversary: the news after the question was held back with it.
        ("any idea where my phone charger is? it was on the desk", False),
        ("do you know where my umbrella is? it was by the front door", False),
        ("any idea where my keys are?", True),
        ("do you know where my umbrella is? and my coat?", True),
        # A second new user: two words asked, no mark.
        ("which room", True),
        ("what time", True),
        ("what a day!", False),
        ("what about Tom", False),
        # A third new user: asked by its verb, no mark.
        ("has the furosemide changed", True),
        ("is the clinic open tomorrow", True),
        ("have a great day", False),
        ("has the furosemide changed, he is on 40mg now", False),
        # A landlord: asked as a search is typed, or by its verb, a flat by its number.
        ("plumber number", True),
        ("electrician's number", True),
        ("ciarans rent", True),
        ("flat 2 rent", True),
        ("rtb number for flat 2?", True),
        ("who lives in flat 2", True),
        ("has Marta paid december", True),
        ("does Marta owe me anything", True),
        ("anything due next week", True),
        ("what have I on in january", True),
        ("when am I away", True),
        ("flat 2 rent is 1700", False),
        ("flat 2 rent paid", False),
        ("Gerry's number 087 123 4567", False),
        ("my new address", False),
        ("anything else, I moved to Lisbon", False),
        ("Will Smith is great", False),
        # A new user, typing without "?".
        ("am i on flower roster this sunday", True),
        ("is bridge on this tuesday", True),
        ("WHAT MEDICATION AM I ON", True),
        ("how much is the gas debit now", True),
        ("was great seeing you", False),
        ("is fine by me", False),
        # A later adversary: statements opening as a question would.
        ("Anything with nuts makes Tom sick", False),
        ("Anyone can borrow the ladder", False),
        ("Any day but Monday suits the plumber", False),
        ("Do the bins on Tuesday", False),
        # A fourth adversary and a new user, a nurse: each shown to the model as a memory.
        ("can u remind me the plumber number", True),
        ("need the plumber number", True),
        ("plumber's no.", True),
        ("did marta pay for december yet", True),
        ("tell me the gas debit", True),
        ("gas debit amount", True),
        ("is aoife swimming thursday", True),
        ("I need the plumber", False),
        ("did laundry today", False),
        ("need new tyres", False),
        ("Tom is swimming thursday", False),
        # A new user, a baker, and a fifth adversary.
        ("kellys cake allergies?", True),
        ("murphys cake order?", True),
        ("has marta paid dec", True),
        ("has been great", False),
        ("Nut free cake?", False),
        ("marta paid for dec yet", True),
        ("Ciarán has not paid yet", False),
        ("best day yet", False),
        # A new user, a dog groomer: shown to the model as memories.
        ("how much for a large dog", True),
        ("has Rex's deposit been paid", True),
        ("is Bailey's deposit paid", True),
        ("Rex's deposit has been paid", False),
        ("how much for the Murphys: 60, paid", False),
        ("¿Debería tomar ahora 40 mg de omeprazol?", True),
        ("Tomo 40 mg. ¿Está bien?", False),
        ("¿Qué tal? Me mudé a Sevilla", False),
        # Typed as a search (an adversary, and a new user, an allotment's secretary).
        ("the Graz flat: code?", True),
        ("price large dog?", True),
        ("mrs patels postcode?", True),
        ("Rent: 900?", False),
        ("code 4471?", False),
        ("price of bread is mad?", False),
        ("how many miles on the van", True),
        ("how much money left in the float", True),
        # A new user, a parent in Nairobi: each was shown to the model as a memory.
        ("who drives the kids on monday", True),
        ("who picks up Baraka", True),
        ("how much amlodipine is mama on", True),
        ("mama anakuja lini?", True),
        ("Who drives is up to you", False),
        ("who drives the kids on monday is Otieno", False),
        ("Mama anakuja Jumamosi", False),
        # A plight beside the question tells nothing to keep (a new user, a photographer:
        # such messages took the places of the keypad code's fact).
        ("how do i get in to the studio, forgot my keys", True),
        ("locked out the studio, hows do I get in?", True),
        ("forgot my keys, how do i get in to the studio", True),
        ("I left my keys at Tom's, when does he get back?", False),
        # A greeting before, or why it is asked after (a new user, a biologist).
        ("bom dia! when's my next meeting with duarte?", True),
        ("when is tiago's birthday? need to plan something", True),
        ("whats my address again? need it for a form", True),
        # Asked otherwise (an adversary: each stored as a fact).
        ("Tom's birthday is when?", True),
        ("dentist friday or saturday?", True),
        ("Anyone know the gate code", True),
        ("Anyone know a good plumber? Mine retired.", False),
        ("The meeting is when we said", False),
        # Titles and formats that ask (an adversary: each refused as a question).
        ("Who's Afraid of Virginia Woolf? is on at the theatre 12/12", False),
        ("Should I stay or should I go? is our wedding song", False),
        ("Is it Cake? is the show Leo likes", False),
        ("Jeopardy answer format: What is X?", False),
        # A thing left out of the question, after it or first (an adversary: each shown).
        ("what's the door code? not the alarm one", True),
        ("the door code, not the alarm one?", True),
        ("never mind the wifi password, is the Graz flat quiet?", True),
        ("I paid the rent, not the deposit", False),
        ("forget the car, I sold it", False),
        ("I live in Lisbon now, not Porto", False),
        # A second adversary: asked otherwise, or with a greeting or why, and each kept.
        ("Tom's birthday is when", True),
        ("dentist: friday or saturday?", True),
        ("gate code anyone?", True),
        ("anyone got the wifi password", True),
        ("Tom's birthday is on what day?", True),
        ("Tom's birthday, when is it again", True),
        ("hey, when's the vet appointment? gotta book the taxi", True),
        ("hi there, when's the plumber coming?? asking for mum", True),
        ("morning all :) where did I park the car?", True),
        ("what's the insurance policy number? the garage is asking", True),
        ("good evening! what's Rui's surname? for the invitation", True),
        ("the garage is asking 300 for it", False),
        ("Evening classes start Monday", False),
    ],
)
def test_only_a_plain_question_is_held_back_from_recall(text: str, held: bool) -> None:
    assert asks_only(text) is held


@pytest.mark.parametrize(
    ("asked", "parts"),
    [
        ("when is my dentist and the car service and the flight?", 3),
        ("who is my doctor, my dentist and my vet?", 3),
        ("What are my allergies and my daughter's?", 2),
        # A list with a comma, also with the question word last (a later adversary).
        ("when are the dentist, car service, flight, recital and boiler check?", 5),
        ("dentist, car service and flight - when?", 3),
        ("Dentist, car service and flight: when?", 3),
        ("what did Melanie paint, and when?", 0),
        ("How do I sort a list, a dict and a set in Python?", 0),
        # One thing, or a request: LoCoMo's off-topic requests split so injected twice.
        ("What did Bob and Alice do at the wedding?", 0),
        ("Explain what a Docker volume is and when to use one instead of a bind mount.", 0),
        ("How do I convert a string to an integer in Go, and what happens if it isn't?", 0),
        ("write a poem about the sea and the sky", 0),
    ],
)
def test_a_question_about_several_things_is_asked_of_each(asked: str, parts: int) -> None:
    from memory.asked_parts import asked_parts

    assert len(asked_parts(asked)) == parts


async def test_a_question_about_several_things_finds_each(open_store: OpenStore) -> None:
    """Found by an adversary: "when is my dentist and the car service and the flight?"
    recalled the car service alone (each fact holds a third of its words). Keyword-only:
    with a meaning search the other two may come in by it."""
    store = await open_store(None)
    await store.store("dentist", "Dentist appointment on December 9 at 10am")
    await store.store("car", "The car service is on December 12")
    await store.store("flight", "Flight to Lisbon on December 20 at 7am")
    await store.store("cat", "My cat is called Miso")
    found = await store.recall("when is my dentist and the car service and the flight?")
    assert [e.key for e in found.entries] == ["car", "dentist", "flight"]
    listed = await store.recall("dentist, car service and flight - when?")
    assert sorted(e.key for e in listed.entries) == ["car", "dentist", "flight"]


async def test_asked_when_each_part_finds_its_day_not_its_word_alone(
    open_store: OpenStore,
) -> None:
    """Found by an adversary: "dentist, car service and flight - when?" showed "My dentist
    is Dr Ng" and "Flight attendants were lovely last time", not the appointment's day nor
    the flight's: each matched its part's word as well."""
    store = await open_store(embedding_provider="none")
    await store.store("dentist", "Dentist on Thursday at 9am")
    await store.store("flight", "Flight BA123 to London on Saturday 6pm")
    # Keys as the CLI makes them, from the words: shorter, these matched their word first.
    await store.store("my_dentist_is_dr_ng", "My dentist is Dr Ng")
    await store.store("flight_attendants", "Flight attendants were lovely last time")
    await store.store("car", "Car service due next Tuesday")
    for asked in (
        "dentist, car service and flight - when?",
        "when are the dentist, car service and flight?",
    ):
        found = {e.key for e in (await store.recall(asked)).entries}
        assert {"dentist", "flight", "car"} <= found, asked


async def test_what_one_does_for_a_living_is_a_job(open_store: OpenStore) -> None:
    """Found by an adversary: "what do I do for a living" recalled "My sister Clara lives
    in Lyon" at 1.0 by "live" alone, and not the job."""
    store = await open_store(None)
    await store.store("job", "I work at Google as a nurse")
    await store.store("sister", "My sister Clara lives in Lyon")
    found = await store.recall("what do I do for a living")
    assert [e.key for e in found.entries][:1] == ["job"]
    assert "sister" not in [e.key for e in found.entries]


async def test_a_payment_asked_with_did_is_found_by_its_past(open_store: OpenStore) -> None:
    """Found by a new user, a retired nurse: "did i pay the ESB bill?" found "paid the ESB
    today" at 0.24, below the floor, beside the bill."""
    store = await open_store(None, embedding_provider="none")
    await store.store("bill", "the ESB bill is due 18/12, about 140 euro")
    await store.store("paid", "paid the ESB today")
    found = await store.recall("did i pay the ESB bill?")
    assert {e.key for e in found.entries} == {"bill", "paid"}


async def test_a_weekday_typed_short_before_a_time_is_found_by_its_name(
    open_store: OpenStore,
) -> None:
    """Found by an adversary: "dentist fri 9am" was not found by "what's on friday"."""
    store = await open_store(None, embedding_provider="none")
    await store.store("dentist", "dentist fri 9am")
    await store.store("tea", "I like green tea")
    found = await store.recall("what's on friday?")
    assert [e.key for e in found.entries] == ["dentist"]


def test_someone_else_named_makes_no_follow_up_of_the_users_own() -> None:
    """Found by an adversary: "Tom takes 1000mg of paracetamol for his back" came along with
    "I take metformin 500mg" for "what dose of metformin do I take?" by "take" alone."""
    assert not goes_on("I take metformin 500mg", "Tom takes 1000mg of paracetamol for his back")
    # Named in the message before, or said of the user's: it goes on.
    assert goes_on("I got a puppy named Oscar", "Oscar is so cute, he sleeps all day")
    assert goes_on("Tom takes paracetamol", "Tom has a bad back too")

"""Hygiene, supersession, dedupe, snapshots and procedural memory (fixed clock)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memory.entry import MemoryEntry
from memory.fact_subjects import contradicts, one_fact, same_subject, subject_words
from memory.fact_values import new_value, predicate_terms
from memory.factory import open_memory
from memory.procedures import ProcedureStep
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.write_rules import NewMemory
from tests.unit.memory.conftest import OpenStore

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def days_ago(days: float) -> datetime:
    return NOW - timedelta(days=days)


async def test_retention_removes_old_conversation_only_and_audits_it(
    open_store: OpenStore,
) -> None:
    store = await open_store(None)
    await store.bulk_store(
        [
            NewMemory(
                key="old-chat",
                content="said long ago",
                category="conversation",
                created_at=days_ago(45),
            ),
            NewMemory(
                key="old-pinned-chat",
                content="pinned chat",
                category="conversation",
                created_at=days_ago(45),
                pinned=True,
            ),
            NewMemory(
                key="new-chat",
                content="said yesterday",
                category="conversation",
                created_at=days_ago(1),
            ),
            NewMemory(
                key="old-core",
                content="an old core fact",
                category="core",
                created_at=days_ago(400),
            ),
            NewMemory(
                key="old-daily",
                content="an old daily note",
                category="daily",
                created_at=days_ago(400),
            ),
        ]
    )
    dry = await store.hygiene(dry_run=True, now=NOW)
    assert [(e.key, why) for e, why in dry.removed] == [
        ("old-chat", "retention: conversation older than 30 days")
    ]
    assert await store.count() == 5
    report = await store.hygiene(now=NOW)
    assert [e.key for e, _ in report.removed] == ["old-chat"]
    keys = {e.key for e in await store.list(namespace=None, limit=50)}
    assert keys == {"old-pinned-chat", "new-chat", "old-core", "old-daily"}
    [record] = await store.audit_log()
    assert record.action == "hygiene" and record.key == "old-chat"
    assert record.reason == "retention: conversation older than 30 days"
    assert record.content == "said long ago" and record.category == "conversation"
    assert (await store.hygiene(now=NOW)).removed == []


async def test_budgets_evict_least_important_then_oldest_and_spare_pinned(
    open_store: OpenStore,
) -> None:
    store = await open_store(None, budgets={"core_max_entries": 3})
    await store.bulk_store(
        [
            NewMemory(key="vital", content="vital fact", importance=0.9, created_at=days_ago(9)),
            NewMemory(
                key="old-minor", content="old minor fact", importance=0.1, created_at=days_ago(8)
            ),
            NewMemory(
                key="new-minor", content="new minor fact", importance=0.1, created_at=days_ago(1)
            ),
            NewMemory(
                key="pinned-minor",
                content="pinned minor fact",
                importance=0.0,
                pinned=True,
                created_at=days_ago(20),
            ),
            NewMemory(
                key="middling", content="middling fact", importance=0.5, created_at=days_ago(5)
            ),
        ]
    )
    report = await store.hygiene(now=NOW)
    assert [(e.key, why) for e, why in report.removed] == [
        ("old-minor", "budget: core over 3 entries"),
        ("new-minor", "budget: core over 3 entries"),
    ]
    assert {e.key for e in await store.list(limit=50)} == {"vital", "pinned-minor", "middling"}


async def test_byte_budget(open_store: OpenStore) -> None:
    store = await open_store(None, budgets={"daily_max_bytes": 25})
    await store.bulk_store(
        [
            NewMemory(
                key=f"d{i}",
                content=f"daily note number {i}",
                category="daily",
                created_at=days_ago(10 - i),
            )
            for i in range(3)
        ]
    )
    report = await store.hygiene(now=NOW)
    assert [e.key for e, _ in report.removed] == ["d0", "d1"]


async def test_the_rust_then_python_example(open_store: OpenStore) -> None:
    store = await open_store(None)
    rust = await store.store("pref_1", "the user prefers Rust")
    python = await store.store("pref_2", "the user prefers Python")
    assert python.supersedes == [rust.id]
    recalled = await store.recall("which language does the user prefer")
    assert [e.content for e in recalled.entries] == ["the user prefers Python"]
    history = await store.list(include_superseded=True, order="key")
    assert {e.content: e.superseded_by for e in history} == {
        "the user prefers Rust": python.id,
        "the user prefers Python": None,
    }
    await store.restore(rust.id)
    recalled = await store.recall("which language does the user prefer")
    assert [e.content for e in recalled.entries] == ["the user prefers Rust"]
    assert (await store.get_by_id(python.id)).superseded_by == rust.id  # type: ignore[union-attr]


async def test_different_subjects_do_not_supersede(open_store: OpenStore) -> None:
    store = await open_store(None)
    await store.store("pet_1", "the user's cat is called Miso")
    dog = await store.store("pet_2", "the user's dog is called Rex")
    assert dog.supersedes == []
    assert await store.count(include_superseded=False) == 2


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Alice's phone number is 555-1234", {"alic", "phone", "number"}),
        ("The user prefers Rust", {"user"}),
        ("I live in Porto", set()),
        ("I now live in Lisbon", set()),  # a word announcing a change names no subject
        ("His phone number is 555-1234", {"his", "phone", "number"}),
        ("Server 1 IP is 10.0.0.1", {"server", "1", "ip"}),
        ("Meeting at 9:30 is moved to Friday", {"meet", "9", "30"}),  # a time's colon: no verb
        ("Wifi password: hunter2", {"wifi", "password"}),
        ("Dentist appointment on Friday", None),
        # Polish "to" (is), in Polish words only (an adversary: no subject was read).
        ("PIN karty mBank to 5555", {"pin", "karti", "mbank"}),
        ("kod do drzwi garażu to 4471", {"kod", "drzwi", "garazu"}),
        ("Send PIN to 5555", None),
    ],
)
def test_a_facts_subject_is_the_words_before_its_verb(text: str, subject: set[str] | None) -> None:
    found = subject_words(text)
    assert (None if found is None else set(found)) == subject


def test_facts_are_one_subject_unless_both_name_different_ones() -> None:
    assert same_subject("The user prefers Python", "the user prefers Rust")
    assert not same_subject("Bob's phone number is 555", "Alice's phone number is 555")
    assert same_subject("Dentist appointment on Friday", "Dentist appointment on Monday")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Alice's flight LH12 to Tokyo departs from gate 12",
            "Bob's flight LH12 to Tokyo departs from gate 12",
        ),
        ("His phone number is 555-1234", "Her phone number is 555-9876"),
        ("Server 1 IP is 10.0.0.1", "Server 2 IP is 10.0.0.2"),
        ("Gym locker code 4455", "Office locker code 7788"),
        ("Alice speaks French fluently", "Bob speaks French fluently"),
        ("Die Telefonnummer von Alice ist 123", "Die Telefonnummer von Bob ist 456"),
        ("PIN karty mBank to 5555", "PIN karty Revolut to 6666"),
        # A name opening with a capital beyond ASCII is someone else's (an adversary saw
        # the user's own dose and allergy replaced).
        ("I take 10mg of lisinopril", "Łukasz takes 10mg of lisinopril"),
        ("I'm allergic to penicillin", "Ángela is allergic to penicillin"),
        ("Mẹ is allergic to penicillin", "I'm not allergic to penicillin after all"),
        ("kod do drzwi garażu to 4471", "kod do drzwi domu to 9921"),
        ("The user's wife Carol works as a nurse in Porto", "The user works in Porto"),
        ("Alice and Bob live in Berlin with their kids", "Alice lives in Berlin"),
        ("Sam is allergic to peanuts and shellfish", "Sam is allergic to latex"),
        ("The user likes tea", "The user likes coffee"),
        ("The user uses Linux", "The user uses vim"),
        ("The user drinks green tea", "The user drinks black coffee"),
        # A denial is about its own value (an adversary lost latex to "not … peanuts").
        ("Sam is allergic to latex", "Sam is not allergic to peanuts anymore"),
    ],
)
def test_facts_worded_alike_about_different_things_are_two(old: str, new: str) -> None:
    """Found by an adversary: each pair was merged or replaced as one fact."""
    assert not one_fact(new, old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user prefers Rust", "The user prefers Python"),
        ("My phone number is 555-1234", "My new phone number is 555-9876"),
        ("The user works at Google", "The user now works at Microsoft"),
        ("Rent is 900 euros", "The rent went up to 950 euros"),
        (
            "Dentist on Tuesday at 3 pm bring insurance card",
            "Dentist on Tuesday at 3 pm, bring the insurance card",
        ),
        ("The user is not allergic to peanuts", "The user is allergic to peanuts"),
        ("Sam is allergic to peanuts", "Sam is allergic to peanuts and latex"),  # grown
        ("Sam is allergic to peanuts", "Sam is not allergic to peanuts anymore"),
    ],
)
def test_a_fact_changed_or_repeated_is_one(old: str, new: str) -> None:
    assert one_fact(new, old)


@pytest.mark.parametrize(
    ("old", "new", "replaces"),
    [
        ("I live in Porto", "I now live in Lisbon", True),
        ("I live in Porto", "I moved to Lisbon", True),
        ("The user lives in Porto", "I have relocated to Lisbon", True),
        ("I'm based in Lisbon", "We live in Porto", True),
        ("I work at Google", "I work at Microsoft", True),
        ("The user works at Acme", "The user is employed by Globex", True),
        ("I live in Porto", "I live in Porto, Portugal", True),
        ("I work at Google", "I also work at a cafe on weekends", False),
        ("I work at Google", "I work part-time at a bakery", False),
        ("My sister lives in Porto", "I moved to Lisbon", False),
        ("Alice lives in Berlin", "Alice and Bob live in Berlin", False),
        ("I live in Porto", "I am moving to Lisbon in June", False),  # a plan, not yet true
        ("I live in Porto", "I work at Acme", False),
        ("His office is in Porto", "I moved to Lisbon", False),
        # An attribute holds one value (a new user kept two emails and two addresses).
        ("My email is jo@example.com", "My email is jo.new@acme.com", True),
        # An address opening with a word of the sentence (an adversary: both kept).
        ("My email is old@example.com", "My new email is new@example.com", True),
        ("My address is Rua Augusta 10, Lisbon", "My address is Calle Mayor 5, Madrid", True),
        ("My employer is Charité", "My employer is Acme", True),
        ("Email: a@x.com", "Email: b@y.com", True),
        ("My work email is a@x.com", "My personal email is b@y.com", False),
        ("Alice's email is a@x.com", "Bob's email is b@x.com", False),
        ("My email is a@x.com", "My email is also b@y.com", False),
        ("My sister is a nurse", "My sister is married", False),
        ("I have a meeting with Alice on Monday", "I have a meeting with Bob on Monday", False),
        # Found by an adversary: someone else, a question, a description, a time or a
        # denial replaced the user's fact; other wordings of one attribute did not.
        ("I live in Porto", "They live in Lisbon", False),
        ("I work at Google", "She works at Microsoft", False),
        ("I live in Porto", "It's based in Berlin", False),
        ("I live in Porto", "Who lives in Berlin? Nobody I know", False),
        ("I work at Google", "I work at night", False),
        ("I live in Porto", "I live in a small flat", False),
        ("My password is hunter2", "My password is not hunter2", False),
        ("My password is hunter2", "My password is safe", False),
        ("My phone number is 555-1234", "My phone is broken", False),
        ("My email address is a@x.com", "My email is b@y.com", True),
        ("My e-mail is a@x.com", "My email is b@y.com", True),
        ("Email: a@x.com", "The user's email is b@y.com", True),
        ("My phone number is 555-1234", "My mobile is 555-9999", True),
        # Found by a second adversary: other people, the past, plans, times, descriptions
        # and facts holding two things replaced the user's.
        ("I live in Porto", "Some of them live in Madrid", False),
        ("I work at Acme", "Don works at Siemens", False),
        ("I live in Porto", "I lived in Paris for two years as a student", False),
        ("I live in Porto", "If I lived in Madrid I would be happy", False),
        ("I live in Porto", "I'll live in Lisbon next year", False),
        ("I work at Acme", "I'd work at Google for more money", False),
        ("I work at Acme", "I work at 8am on Mondays", False),
        ("I work at Acme", "I work at my desk until late", False),
        ("My phone number is 0176 8888888", "My phone is an iPhone 15", False),
        ("My birthday is 3 May", "My birthday is next week", False),
        ("My employer is Acme", "My employer is great", False),
        ("My email is a@x.com and my phone is 555-1234", "My email is b@y.com", False),
        ("I live in Porto and work at Acme", "I moved to Lisbon", False),
    ],
)
def test_a_one_valued_predicate_takes_a_new_value(old: str, new: str, replaces: bool) -> None:
    assert new_value(new, old) is replaces


def test_a_one_valued_predicate_looks_up_its_other_wordings() -> None:
    assert {"live", "move"} <= set(predicate_terms("I moved to Lisbon"))
    assert predicate_terms("I like tea") == []


def test_a_fact_that_denies_another_contradicts_it() -> None:
    assert contradicts("The user is allergic to peanuts", "The user is not allergic to peanuts")
    assert contradicts("I can't swim", "I can swim")
    assert not contradicts("I never eat meat", "I never eat fish")


async def test_a_fact_added_to_is_still_replaced_by_its_new_value(open_store: OpenStore) -> None:
    """Found by a new user, a student: he added "(my Canadian visa …)" to his permit's fact
    in the inspector; "Got my new study permit! It now expires 31/08/2029" then shared too
    few of its words ("got", "new", "now" counted) and stood beside it, the old date first."""
    store = await open_store(None)
    old = await store.store(
        "permit",
        "My study permit expires 30/09/2027 (my Canadian visa / study permit, renew via IRCC)",
    )
    new = await store.store("new_permit", "Got my new study permit! It now expires 31/08/2029")
    assert new.supersedes == [old.id]


async def test_superseding_can_be_switched_off(open_store: OpenStore) -> None:
    store = await open_store(None, supersede_core_updates=False)
    first = await store.store("lang", "prefers Rust")
    second = await store.store("lang", "prefers Python")
    assert second.id == first.id and await store.count() == 1


async def test_a_version_chain_restores_cleanly(open_store: OpenStore) -> None:
    store = await open_store(None)
    a = await store.store("home", "Ana lives in Porto")
    b = await store.store("home", "Ana lives in Lisbon")
    c = await store.store("home", "Ana lives in Madrid")
    assert c.supersedes == [b.id] and b.supersedes == [a.id]
    await store.restore(a.id)
    active = await store.get("home")
    assert active is not None and active.id == a.id
    assert (await store.get_by_id(c.id)).superseded_by == a.id  # type: ignore[union-attr]
    assert await store.count(include_superseded=False) == 1


@pytest.mark.parametrize(
    "variant", ["I take the 8:15 train", "i take the 8:15   TRAIN!", "I take the 8:15 train."]
)
async def test_exact_duplicates_are_stored_once(open_store: OpenStore, variant: str) -> None:
    store = await open_store(None)
    first = await store.store("train_1", "I take the 8:15 train", "daily")
    again = await store.store("train_2", variant, "daily")
    assert again.id == first.id and await store.count() == 1


@pytest.mark.parametrize(
    ("policy", "count", "content"),
    [
        ("merge", 1, "Dentist appointment on Tuesday at 3 pm, bring the insurance card"),
        ("reject", 1, "Dentist appointment on Tuesday at 3 pm bring insurance card"),
        ("keep", 2, "Dentist appointment on Tuesday at 3 pm, bring the insurance card"),
    ],
)
async def test_near_duplicates_follow_the_policy(
    open_store: OpenStore, policy: str, count: int, content: str
) -> None:
    store = await open_store(None, duplicate_policy=policy)
    first = await store.store(
        "dentist", "Dentist appointment on Tuesday at 3 pm bring insurance card", "daily"
    )
    second = await store.store(
        "dentist_again", "Dentist appointment on Tuesday at 3 pm, bring the insurance card", "daily"
    )
    assert await store.count(include_superseded=False) == count
    if policy == "reject":
        assert second.id == first.id
    if policy == "merge":
        # The new text adds "the": it becomes the next version, the old one stays history.
        assert second.key == "dentist" and second.supersedes == [first.id]
    if policy != "keep":
        got = await store.get("dentist")
        assert got is not None and got.content == content


async def test_forget_removes_the_history_and_audits_each_row(open_store: OpenStore) -> None:
    store = await open_store(None)
    await store.store("home", "Ana lives in Porto")
    await store.store("home", "Ana lives in Lisbon")
    assert await store.forget("home")
    assert await store.count() == 0
    records = await store.audit_log()
    assert [(r.action, r.reason) for r in records] == [("forget", "forgotten")] * 2
    assert {r.content for r in records} == {"Ana lives in Porto", "Ana lives in Lisbon"}


async def test_forget_keeps_the_entries_a_fact_superseded(open_store: OpenStore) -> None:
    store = await open_store(None)
    rust = await store.store("pref_1", "the user prefers Rust")
    await store.store("pref_2", "the user prefers Python")
    await store.store("unrelated", "the user's cat is called Miso")
    assert await store.forget("pref_2")
    back = await store.get_by_id(rust.id)
    assert back is not None and back.superseded_by is None
    assert sorted(e.key for e in await store.list(include_superseded=True)) == [
        "pref_1",
        "unrelated",
    ]
    assert [r.content for r in await store.audit_log()] == ["the user prefers Python"]


async def test_snapshot_round_trip_rebuilds_a_lost_store(tmp_path: Path) -> None:
    settings = MemorySettings(embedding_provider="none")
    store = await open_memory(settings, tmp_path, None)
    assert isinstance(store, SqliteMemory)
    tricky = "Line one\n```python\nprint('fenced')\n```\n# not a heading\n- not a field"
    await store.store_with_metadata(
        "editor", "The user edits in Helix", importance=0.9, pinned=True
    )
    await store.store_with_metadata("tricky `key`", tricky, session_id="s1")
    await store.store("home", "Ana lives in Porto")
    await store.store("home", "Ana lives in Lisbon")
    await store.store("lunch", "ramen", "daily")
    before = sorted(
        [e.model_dump() async for e in store.export() if e.category == "core"],
        key=lambda d: d["id"],
    )
    for entry in before:
        entry.pop("embedding", None)
    path = await store.write_snapshot(now=datetime(2026, 11, 30, tzinfo=UTC))
    assert path == tmp_path / "MEMORY_SNAPSHOT.md"
    assert (path.stat().st_mode & 0o777) == 0o600
    assert "## editor" in path.read_text()
    await store.close()
    for name in ("brain.db", "brain.db-wal", "brain.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    rebuilt = await open_memory(settings, tmp_path, None)
    try:
        assert isinstance(rebuilt, SqliteMemory)
        assert rebuilt.hydration is not None and "restored 4 core memories" in rebuilt.hydration
        after = sorted([e.model_dump() async for e in rebuilt.export()], key=lambda d: d["id"])
        for entry in after:
            entry.pop("embedding", None)
        assert after == before
        assert (await rebuilt.get("home")).content == "Ana lives in Lisbon"  # type: ignore[union-attr]
    finally:
        await rebuilt.close()


async def test_an_unreadable_snapshot_is_reported_and_left_alone(tmp_path: Path) -> None:
    snapshot = tmp_path / "MEMORY_SNAPSHOT.md"
    snapshot.write_text("# just some notes, not a snapshot\n")
    store = await open_memory(MemorySettings(embedding_provider="none"), tmp_path, None)
    try:
        assert isinstance(store, SqliteMemory)
        assert store.hydration is not None and "could not be read" in store.hydration
        assert await store.count() == 0
        assert snapshot.read_text() == "# just some notes, not a snapshot\n"
    finally:
        await store.close()


async def test_procedures_are_stored_once_and_recalled_for_similar_requests(
    open_store: OpenStore,
) -> None:
    store = await open_store(None)
    steps = [
        ProcedureStep("memory_recall", {"query": "lisbon"}),
        ProcedureStep("memory_store", {"key": "k", "content": "c"}),
    ]
    first = await store.store_procedural("Remember where my sister lives", steps)
    again = await store.store_procedural("remember where my sister lives!", steps)
    assert first is not None and again is not None and again.id == first.id
    assert first.category == "procedural" and first.session_id is None
    assert first.content == (
        'Procedure for "Remember where my sister lives": '
        "memory_recall(query), then memory_store(content, key)."
    )
    # Its own words match no everyday request ("called" was "call" before).
    assert not (await store.recall("what's my cat called?", category="procedural")).entries
    recalled = await store.recall("remember where my brother lives", category="procedural")
    assert [e.id for e in recalled.entries] == [first.id]
    assert await store.store_procedural("nothing", []) is None


def test_a_procedures_key_does_not_change_with_the_search_analyser() -> None:
    # Keys are stored: a request with filler words or a date must keep the key it was
    # given before query terms dropped fillers and read dates (computed then).
    from memory.procedures import describe_procedure

    key, _ = describe_procedure(
        "Please remember that my dentist is on 13 October, thanks",
        [ProcedureStep("memory_store", {"key": "k", "content": "c"})],
    )
    assert key == "procedure/memory_store/cf87be147148"


async def test_forgetting_writes_the_snapshot_again(tmp_path: Path) -> None:
    """Found by an adversary: a store rebuilt from the snapshot brought a forgotten fact back."""
    from memory.factory import open_memory

    settings = MemorySettings(embedding_provider="none")
    store = await open_memory(settings, tmp_path, None)
    await store.store("editor", "The user edits in Helix")
    await store.store("pet", "The user's cat is called Miso")
    assert store.lifecycle is not None
    snapshot = await store.lifecycle.write_snapshot()
    assert "Helix" in snapshot.read_text(encoding="utf-8")
    assert await store.forget("editor")
    await store.close()
    assert "Helix" not in snapshot.read_text(encoding="utf-8")
    for leftover in tmp_path.glob("brain.db*"):
        leftover.unlink()
    rebuilt = await open_memory(settings, tmp_path, None)
    try:
        assert rebuilt.hydration is not None
        assert [e.key for e in await rebuilt.list(include_superseded=True)] == ["pet"]
    finally:
        await rebuilt.close()


async def test_the_snapshot_follows_every_change_to_a_core_fact(tmp_path: Path) -> None:
    """Found by a new user and an adversary: only hygiene and forget wrote the snapshot,
    so a store rebuilt from it lost facts stored, imported or restored since."""
    settings = MemorySettings(embedding_provider="none")
    store = await open_memory(settings, tmp_path, None)
    await store.store("editor", "The user edits in Helix")
    assert store.lifecycle is not None
    snapshot = await store.lifecycle.write_snapshot()
    written = snapshot.read_bytes()

    await store.store_with_metadata("chat/1", "what is the weather", "conversation", "s1")
    assert snapshot.read_bytes() == written  # no core fact changed: not written again

    await store.store("editor", "The user edits in Zed")  # Helix becomes history
    await store.store("pet", "The user's cat is called Miso")
    await store.import_(
        [
            MemoryEntry(
                id="car-1",
                key="car",
                content="The user drives a 2019 Corolla",
                timestamp=NOW,
                updated_at=NOW,
            )
        ]
    )
    helix = next(e for e in await store.list(include_superseded=True) if "Helix" in e.content)
    await store.restore(helix.id)
    # A core fact edited into another category is core no more (found by an adversary).
    await store.store("bike", "The bike is in the shed")
    await store.store_with_metadata("bike", "The bike is in the shed", "daily", None)
    await store.close()

    text = snapshot.read_text(encoding="utf-8")
    assert "Miso" in text and "Corolla" in text
    for leftover in tmp_path.glob("brain.db*"):
        leftover.unlink()
    rebuilt = await open_memory(settings, tmp_path, None)
    try:
        assert rebuilt.hydration is not None
        current = {e.key: e.content for e in await rebuilt.list() if e.category == "core"}
        assert current == {
            "editor": "The user edits in Helix",  # as restored, not as first replaced
            "pet": "The user's cat is called Miso",
            "car": "The user drives a 2019 Corolla",
        }
    finally:
        await rebuilt.close()


def test_a_long_text_of_many_clauses_is_read_clause_by_clause_once() -> None:
    """Each "and" looked back over the whole text before it for a name, so a 900 KB
    message of "and"s took minutes to index (found in review); the look is now bounded
    to the word before."""
    from memory.predicates import claim_of, clause_claims

    text = "I live in Porto " + "and more " * 100_000
    assert claim_of(text) is None  # it says more than where the user lives
    assert clause_claims(text) == [("user", "home", " Porto ")]


async def test_erasing_takes_the_vector_of_its_text_out_of_the_embedding_cache(
    open_store: OpenStore,
) -> None:
    """Found by an adversary: after `forget --erase`, the embedding cache kept the hash of
    "My alarm PIN is 6060 HeronNest" and its vector; hashing every PIN of that wording
    found the secret again in seconds."""
    from memory.embedding.hashing import HashingEmbedder
    from memory.sqlite.embedding_cache import text_hash
    from tests.unit.memory.conftest import DIMS

    store = await open_store(HashingEmbedder(DIMS))
    secret, other = "My alarm PIN is 6060 HeronNest", "The user likes green tea"
    await store.store("alarm", secret)
    await store.store("tea", other)

    def cached() -> set[str]:
        rows = store._core.conn.execute("SELECT text_hash FROM embedding_cache")  # noqa: SLF001
        return {row[0] for row in rows}

    assert {text_hash(secret), text_hash(other)} <= cached()
    assert await store.forget("alarm")
    lifecycle = store.lifecycle
    assert lifecycle is not None
    audit = await lifecycle.audit_log()
    assert await lifecycle.erase_records([r.entry_id for r in audit if r.key == "alarm"]) == 1
    assert text_hash(secret) not in cached() and text_hash(other) in cached()
    assert (await store.stats()).embedding_cache_entries == len(cached())


async def test_erasing_removes_the_vector_files_that_still_hold_its_row(
    open_store: OpenStore, tmp_path: Path
) -> None:
    """Found by a second adversary: in a store whose index is kept in files, an erased
    code's vector stayed in `brain.db-vectors/` and was matched by trying every code."""
    from memory.embedding.hashing import HashingEmbedder
    from tests.unit.memory.conftest import DIMS

    store = await open_store(HashingEmbedder(DIMS), index_file_min_vectors=1)
    await store.store("safebox", "The safe deposit box code is 918273")
    await store.store("tea", "The user likes green tea")
    await store.recall("tea")  # loads the index
    store._core.save_index(force=True)  # noqa: SLF001 - the files a large store keeps
    folder = tmp_path / "brain.db-vectors"
    assert any(p.suffix == ".vectors" for p in folder.iterdir())
    assert await store.forget("safebox")
    lifecycle = store.lifecycle
    assert lifecycle is not None
    audit = await lifecycle.audit_log()
    assert await lifecycle.erase_records([r.entry_id for r in audit if r.key == "safebox"]) == 1
    assert not any(p.suffix == ".vectors" for p in folder.iterdir())
    found = await store.recall("green tea")
    assert [e.key for e in found.entries] == ["tea"]


async def test_an_erase_cut_short_by_a_full_disk_says_so_and_a_second_run_finishes_it(
    open_store: OpenStore, tmp_path: Path
) -> None:
    """Found by an adversary: the rewrite failed for a full disk, the message blamed another
    memchat, and running the command again found nothing to erase and rewrote nothing."""
    import sqlite3

    from memory.errors import MemoryStoreError

    store = await open_store()
    await store.store("alarm", "The alarm code is QUOKKA 6060")
    await store.store("tea", "The user likes green tea")
    assert await store.forget("alarm")
    lifecycle = store.lifecycle
    assert lifecycle is not None
    real = store._core.conn  # noqa: SLF001 - the test stands in for a full disk

    class FullDisk:
        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if sql == "VACUUM":
                raise sqlite3.OperationalError("database or disk is full")
            return real.execute(sql, *args)

    store._core.conn = FullDisk()  # type: ignore[assignment]  # noqa: SLF001
    audit = await lifecycle.audit_log()
    with pytest.raises(MemoryStoreError) as cut_short:
        await lifecycle.erase_records([r.entry_id for r in audit if r.key == "alarm"])
    said = str(cut_short.value)
    assert "the disk is full" in said and "another memchat" not in said
    assert "run the command again" in said
    store._core.conn = real  # noqa: SLF001 - room again

    def on_disk() -> bytes:
        files = [tmp_path / "brain.db", tmp_path / "brain.db-wal"]
        return b"".join(path.read_bytes() for path in files if path.exists())

    assert b"QUOKKA" in on_disk()  # in unused space
    assert await lifecycle.erase_records([]) == 0  # nothing left to erase: it rewrites
    assert b"QUOKKA" not in on_disk()

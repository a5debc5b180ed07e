"""Hygiene, its audit log, snapshots and procedures: the same for every backend with them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory.entry import MemoryEntry
from memory.errors import MemoryStoreError
from memory.procedures import ProcedureStep
from memory.protocol import Lifecycle, Memory
from memory.settings import BudgetSettings, RetentionSettings
from tests.contract.conftest import OpenStore

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)


def _entry(key: str, category: str, days_old: int, **fields: object) -> MemoryEntry:
    at = NOW - timedelta(days=days_old)
    values: dict[str, object] = {
        "id": f"id-{key}",
        "key": key,
        "content": f"{key} said something about day {days_old}",
        "category": category,
        "timestamp": at,
        "updated_at": at,
    }
    values.update(fields)
    return MemoryEntry.model_validate(values)


RECORDS = [
    _entry("old chat", "conversation", 40),
    _entry("old pinned chat", "conversation", 40, pinned=True),
    _entry("new chat", "conversation", 2),
    _entry("work chat", "conversation", 40, namespace="work"),
    _entry("fact a", "core", 5, importance=0.9),
    _entry("fact b", "core", 4, importance=0.2),
    _entry("fact c", "core", 3, importance=0.5),
    _entry("fact d", "core", 2, importance=0.1, pinned=True),
]
SETTINGS = {
    "retention_days": RetentionSettings(conversation=30),
    "budgets": BudgetSettings(core_max_entries=2),
}


def _lifecycle(memory: Memory) -> Lifecycle:
    lifecycle = memory.lifecycle
    if lifecycle is None:
        pytest.skip(f"{memory.name} has no lifecycle")
    return lifecycle


async def test_hygiene_removes_by_sqlites_rules_and_audits_each_removal(
    memory: Memory, open_store: OpenStore
) -> None:
    _lifecycle(memory)
    results = {}
    for name in (memory.name, "sqlite"):
        store = await open_store(name, **SETTINGS)
        lifecycle = _lifecycle(store)
        await store.import_(RECORDS)
        dry = await lifecycle.hygiene(dry_run=True, now=NOW)
        assert await store.count() == len(RECORDS)  # a dry run removes nothing
        report = await lifecycle.hygiene(now=NOW)
        assert [(e.key, why) for e, why in report.removed] == [
            (e.key, why) for e, why in dry.removed
        ]
        audit = await lifecycle.audit_log()
        assert {(a.entry_id, a.action, a.reason) for a in audit} == {
            (e.id, "hygiene", why) for e, why in report.removed
        }
        work = await lifecycle.audit_log(namespace="work")
        assert [a.key for a in work] == ["work chat"]
        kept = await store.list(namespace=None, limit=50)
        results[name] = (
            sorted((e.key, why) for e, why in report.removed),
            sorted(e.key for e in kept),
        )
    assert results[memory.name] == results["sqlite"]
    removed, left = results["sqlite"]
    assert [key for key, _ in removed] == ["fact b", "fact c", "old chat", "work chat"]
    assert left == ["fact a", "fact d", "new chat", "old pinned chat"]


async def test_a_budget_takes_history_before_a_restored_fact(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by an adversary: with three facts in effect under a budget of three, hygiene
    deleted the version just restored (oldest by its last update) and left the version it
    had replaced as history of a deleted entry, which nothing could then show or forget."""
    _lifecycle(memory)
    store = await open_store(memory.name, budgets=BudgetSettings(core_max_entries=3))
    vim = await store.store("editor", "I use Vim for everything")
    await store.store("editor", "I use Helix for everything")
    await store.store("cat", "The cat is called Miso")
    await store.store("city", "I live in Porto")
    await store.restore(vim.id)
    report = await _lifecycle(store).hygiene()
    assert [e.content for e, _ in report.removed] == ["I use Helix for everything"]
    left = {e.key: e.content for e in await store.list(namespace=None, limit=50)}
    assert left == {
        "editor": "I use Vim for everything",
        "cat": "The cat is called Miso",
        "city": "I live in Porto",
    }


async def test_a_pinned_old_version_does_not_outlive_the_fact_in_effect(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by an adversary: under a budget of one, the one fact in effect went and its
    pinned old version stayed, as history of nothing."""
    _lifecycle(memory)
    store = await open_store(memory.name, budgets=BudgetSettings(core_max_entries=1))
    await store.store_with_metadata("drink", "The user drinks tea", pinned=True)
    await store.store_with_metadata("drink", "The user drinks coffee", pinned=False)
    report = await _lifecycle(store).hygiene()
    assert [e.content for e, _ in report.removed] == ["The user drinks tea"]
    drink = await store.get("drink")
    assert drink is not None and drink.content == "The user drinks coffee"


async def test_a_budget_breaks_ties_alike_on_every_backend(
    memory: Memory, open_store: OpenStore
) -> None:
    _lifecycle(memory)
    kept = {}
    for name in (memory.name, "sqlite"):
        store = await open_store(name, budgets=BudgetSettings(core_max_entries=1))
        await store.import_([_entry(f"fact {n}", "core", 3, id=f"id-{n}") for n in ("c", "a", "b")])
        await _lifecycle(store).hygiene(now=NOW)
        kept[name] = [e.id for e in await store.list(namespace=None)]
    assert kept[memory.name] == kept["sqlite"] == ["id-c"]


async def test_what_hygiene_removes_leaves_no_history_of_nothing(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by an adversary: a core fact a model rewrote as a conversation note became
    history of that note, and when the note expired the fact was history of nothing:
    never recalled, and neither `get` nor `forget` could name it."""
    _lifecycle(memory)
    results = {}
    for name in (memory.name, "sqlite"):
        store = await open_store(name, retention_days=RetentionSettings(conversation=30))
        await store.import_(
            [
                _entry("passport", "core", 60, id="p0", content="Passport X1", superseded_by="p1"),
                _entry("passport", "conversation", 40, id="p1", content="Talked about it"),
                _entry("editor", "core", 90, id="e0", content="Uses Vim", superseded_by="e1"),
                _entry("editor", "conversation", 50, id="e1", content="Vim?", superseded_by="e2"),
                _entry("editor", "core", 5, id="e2", content="Uses Helix"),
            ]
        )
        before = datetime.now(UTC)
        report = await _lifecycle(store).hygiene(now=NOW)
        assert sorted(e.id for e, _ in report.removed) == ["e1", "p1"]
        listed = await store.list(namespace=None, include_superseded=True, limit=50)
        # Back in effect as `restore` brings a version back: dated when it came back.
        results[name] = sorted((e.id, e.superseded_by, e.updated_at >= before) for e in listed)
    assert results[memory.name] == results["sqlite"]
    # The fact is in effect again; the version behind removed history follows its successor.
    assert results["sqlite"] == [("e0", "e2", False), ("e2", None, False), ("p0", None, True)]


async def test_retention_keeps_a_message_until_the_day_it_names(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by a new user, a landlord: "mammogram 8/1" and a holiday's dates, said in
    passing, would have gone after 30 days, before either day came."""
    _lifecycle(memory)
    results = {}
    for name in (memory.name, "sqlite"):
        store = await open_store(name, retention_days=RetentionSettings(conversation=30))
        await store.import_(
            [
                _entry("holiday", "conversation", 40, content="off to Lanzarote 15/6 to 22/6 yay"),
                _entry("flight", "conversation", 45, content="Flight to Perth on 2026-07-03"),
                _entry("scan", "conversation", 40, content="mammogram on 18/5 at 9am"),
                _entry("chat", "conversation", 40, content="thanks, that was helpful"),
                _entry("today", "conversation", 40, content="boiler service on 1 June"),
            ]
        )
        first = await _lifecycle(store).hygiene(now=NOW)
        later = await _lifecycle(store).hygiene(now=NOW + timedelta(days=22))
        results[name] = (
            sorted(e.key for e, _ in first.removed),
            sorted(e.key for e, _ in later.removed),
        )
    assert results[memory.name] == results["sqlite"]
    assert results["sqlite"] == (["chat", "scan"], ["holiday", "today"])


@pytest.mark.parametrize(
    "said",
    [
        "mammogram 8/7",
        "Concert on 20.07 at 8pm",
        "Dentist on 14/07/26",
        "Dentist on July the 14th",
        "Termin am 14. Juli beim Zahnarzt",
        "cita el 14 de julio",
        "Visa expires 2026-07",
        "MOT due in July",
        "Passport renewal by 07/2026",
        "due 2026/07",
    ],
)
async def test_retention_keeps_a_day_named_in_other_ways(
    memory: Memory, open_store: OpenStore, said: str
) -> None:
    """Found by a fourth adversary: each, said 40 days before, was deleted at 30 days
    before its day came (the index reads no day in these ways)."""
    _lifecycle(memory)
    store = await open_store(memory.name, retention_days=RetentionSettings(conversation=30))
    await store.import_(
        [
            _entry("day", "conversation", 40, content=said),
            _entry("chat", "conversation", 40, content="I may go, scored 3/5, took 1/2 tablet"),
        ]
    )
    first = await _lifecycle(store).hygiene(now=NOW)
    assert sorted(e.key for e, _ in first.removed) == ["chat"]
    later = await _lifecycle(store).hygiene(now=NOW + timedelta(days=70))
    assert sorted(e.key for e, _ in later.removed) == ["day"]


async def test_retention_keeps_the_last_word_on_a_fact_while_the_fact_stands(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by a new user, a carer: "Dr Kelly doubled my atorvastatin, I'm on 40mg now"
    updated no fact, and at 30 days retention deleted it: the old dose was left, as
    current."""
    _lifecycle(memory)
    store = await open_store(memory.name, retention_days=RetentionSettings(conversation=30))
    statin = "I take a statin myself, atorvastatin 20mg at night"
    doubled = "Dr Kelly doubled my atorvastatin, I'm on 40mg now at night."
    await store.import_(
        [
            _entry("statin", "core", 50, content=statin),
            _entry("doubled", "conversation", 40, content=doubled),
            _entry("asked", "conversation", 40, content="is my atorvastatin now 40mg?"),
            _entry("chat", "conversation", 40, content="thanks, that was helpful now"),
            _entry("other", "conversation", 40, content="The bins are now on Tuesday"),
        ]
    )
    first = await _lifecycle(store).hygiene(now=NOW)
    assert sorted(e.key for e, _ in first.removed) == ["asked", "chat", "other"]
    # The fact replaced, the message is no longer the last word on it.
    await store.store("statin", "I take atorvastatin 40mg at night")
    later = await _lifecycle(store).hygiene(now=NOW + timedelta(days=1))
    assert sorted(e.key for e, _ in later.removed) == ["doubled"]


async def test_retention_keeps_a_correction_of_a_fact_while_the_fact_stands(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by an adversary: "remember the concert is on 18.03 at 19:00" (made a fact),
    then "no wait, the 19th": at 30 days the correction was deleted, and the fact, kept for
    good, was wrong again. The message made the fact stays too: without it, the correction
    would put right the message before."""
    _lifecycle(memory)
    store = await open_store(memory.name, retention_days=RetentionSettings(conversation=30))
    minute = timedelta(minutes=1)
    asked = _entry(
        "asked",
        "conversation",
        40,
        content="remember the concert is on 18.03 at 19:00",
        session_id="s1",
        superseded_by="id-concert",
    )
    await store.import_(
        [
            _entry("rent", "conversation", 40, content="garage rent is 150 now", session_id="s1"),
            asked.model_copy(update={"timestamp": asked.timestamp + minute}),
            _entry("concert", "core", 40, content="The concert is on 18.03 at 19:00"),
            _entry(
                "wait",
                "conversation",
                40,
                content="no wait, the 19th",
                session_id="s1",
                timestamp=asked.timestamp + 2 * minute,
            ),
        ]
    )
    first = await _lifecycle(store).hygiene(now=NOW, dry_run=True)
    assert sorted(e.key for e, _ in first.removed) == ["rent"]


async def test_retention_keeps_a_short_message_that_ends_or_replaces_a_fact(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by an adversary: "I stopped taking metformin", "paid Priya the 42", "Dentist
    cancelled" and "Alex is my partner now" were deleted at 30 days, and each fact they
    ended was given as current again."""
    _lifecycle(memory)
    store = await open_store(memory.name, retention_days=RetentionSettings(conversation=30))
    pairs = {
        "metformin": ("Metformin 500mg twice daily", "I stopped taking metformin"),
        "priya": ("I owe Priya 42 for lunch", "paid Priya the 42"),
        "dentist": ("Dentist on 14/1/2027", "Dentist cancelled"),
        "partner": ("My partner is Sam", "Alex is my partner now"),
        # A second adversary, in other words.
        "siemens": ("I work at Siemens", "quit Siemens"),
        "penicillin": ("I'm allergic to penicillin", "turns out not allergic to penicillin"),
        "sam": ("My boyfriend is Sam", "Sam and I broke up"),
    }
    await store.import_(
        [
            entry
            for key, (fact, message) in pairs.items()
            for entry in (
                _entry(key, "core", 50, content=fact),
                _entry(f"{key} said", "conversation", 40, content=message),
            )
        ]
        + [
            _entry("nice", "conversation", 40, content="Priya is lovely, the dentist too"),
            _entry("asked", "conversation", 40, content="did I stop taking metformin?"),
        ]
    )
    done = await _lifecycle(store).hygiene(now=NOW)
    assert sorted(e.key for e, _ in done.removed) == ["asked", "nice"]


async def test_retention_keeps_a_change_to_come_and_one_in_another_language(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by an adversary: "From 1 January my rent is 1500 euros" and "Mein
    Stromabschlag ist jetzt 95 statt 80 Euro" were deleted at 30 days, the old rent and
    the old 80 euros left as current; another's news and a change supposed were kept."""
    _lifecycle(memory)
    store = await open_store(memory.name, retention_days=RetentionSettings(conversation=30))
    await store.import_(
        [
            _entry("rent", "core", 50, content="My rent is 1400 euros a month"),
            _entry("strom", "core", 50, content="Mein Stromabschlag beträgt 80 Euro im Monat"),
            _entry("gym", "core", 50, content="My gym membership costs 30 a month"),
            _entry("park", "core", 50, content="My parking permit costs 25 a month"),
            _entry("soon", "conversation", 40, content="From 1 January my rent is 1500 euros"),
            _entry(
                "tellme",
                "conversation",
                40,
                content="My rent is now 1450 euros, tell me if you need the receipt",
            ),
            _entry(
                "jetzt", "conversation", 40, content="Mein Stromabschlag ist jetzt 95 statt 80 Euro"
            ),
            _entry(
                "tom", "conversation", 40, content="Tom's gym membership is now 45 instead of 30"
            ),
            _entry(
                "if",
                "conversation",
                40,
                content="would my parking permit be 40 instead of 25 if I had a second car?",
            ),
        ]
    )
    first = await _lifecycle(store).hygiene(now=NOW)
    assert sorted(e.key for e, _ in first.removed) == ["if", "tom"]


async def test_forgetting_is_audited(memory: Memory) -> None:
    lifecycle = _lifecycle(memory)
    await memory.store("editor", "The user edits in Helix")
    await memory.store("editor", "The user edits in Zed")
    assert await memory.forget("editor")
    audit = await lifecycle.audit_log()
    assert sorted(a.content for a in audit if a.action == "forget") == [
        "The user edits in Helix",
        "The user edits in Zed",
    ]


async def test_erasing_keeps_nothing_of_a_forgotten_memory(memory: Memory, tmp_path: Path) -> None:
    """Found by a new user: a door code stored and forgotten was still in the audit log
    (and in the SQLite file's free pages)."""
    lifecycle = _lifecycle(memory)
    await memory.store("garage", "The garage door code is 99117723")
    await memory.store("garage", "The garage door code is 55318820")
    await memory.store("tea", "The user likes green tea")
    assert await memory.forget("tea")
    assert await memory.forget("garage")
    audit = await lifecycle.audit_log()
    ids = [r.entry_id for r in audit if r.key == "garage"]
    assert len(ids) == 2
    assert await lifecycle.erase_records(ids) == 2
    left = await lifecycle.audit_log()
    assert [r.key for r in left] == ["tea"]  # the rest of the log is kept
    assert await lifecycle.erase_records(ids) == 0
    for restorable in ids:
        with pytest.raises(MemoryStoreError):
            await memory.restore(restorable)
    # Every audit file kept beside a store (Qdrant's); and where the backend says so, every
    # file of the store (SQLite's database and log). Other engines keep deleted text until
    # they compact on their own, which `memchat memory forget --erase` says.
    scrubbed = memory.capabilities.erases_from_its_files
    for path in (p for p in tmp_path.rglob("*") if p.is_file()):
        if not scrubbed and "audit" not in path.name:
            continue
        held = path.read_bytes()
        assert b"99117723" not in held and b"55318820" not in held, path


async def test_the_audit_keeps_when_and_where_a_deleted_memory_was_said(
    memory: Memory,
) -> None:
    """Found by an adversary: a saved message brought back from the log came back dated
    the day of the restore, outside its chat, so "what did I say on <its day>" missed it."""
    lifecycle = _lifecycle(memory)
    said = await memory.store_with_metadata(
        "conversation/s1/a", "I bought a red bike yesterday", "conversation", "s1"
    )
    assert await memory.forget("conversation/s1/a")
    [record] = [r for r in await lifecycle.audit_log() if r.entry_id == said.id]
    assert record.created == said.timestamp and record.session_id == "s1"


async def test_a_procedure_is_remembered_once(memory: Memory) -> None:
    lifecycle = _lifecycle(memory)
    steps = [ProcedureStep("memory_store", {"key": "k", "content": "c"})]
    first = await lifecycle.store_procedural("remember that I like tea", steps)
    again = await lifecycle.store_procedural("remember that I like tea", steps)
    assert first is not None and again is not None and again.id == first.id
    assert await memory.count(category="procedural") == 1


async def test_a_snapshot_holds_the_core_memories(memory: Memory, tmp_path: Path) -> None:
    lifecycle = _lifecycle(memory)
    await memory.store("editor", "The user edits in Helix")
    await memory.store("lunch", "Had ramen", "daily")
    target = await lifecycle.write_snapshot(tmp_path / "snap" / "core.md")
    text = target.read_text(encoding="utf-8")
    assert "The user edits in Helix" in text and "Had ramen" not in text


async def test_a_snapshot_file_restores_only_the_store_kept_beside_it(
    memory: Memory, open_store: OpenStore, tmp_path: Path
) -> None:
    _lifecycle(memory)
    source = await open_store("sqlite")
    await source.store("editor", "The user edits in Helix")
    snapshot = await _lifecycle(source).write_snapshot(tmp_path / "MEMORY_SNAPSHOT.md")
    assert snapshot.exists()
    other = await open_store(folder=tmp_path)
    restored = other.hydration is not None
    assert restored == other.capabilities.restores_from_snapshot
    assert (await other.count() == 1) == restored


async def test_erasing_a_key_keeps_other_keys_restorable(memory: Memory) -> None:
    """What a forget deleted with the key (a message folded into it) is erased with it;
    another key's records, forgotten apart, stay restorable."""
    from agent.erasing import erase_forgotten

    lifecycle = _lifecycle(memory)
    said = await memory.store_with_metadata(
        "conversation/s1/a", "my garage code is [REDACTED:code]", "conversation", "s1"
    )
    code = await memory.store("garage", "The garage code is 99117723")
    await memory.supersede([said.id], code.id)
    await memory.store("tea", "The user likes green tea")
    assert await memory.forget("tea")
    assert await memory.forget("garage")
    assert (await erase_forgotten(lifecycle, "garage", "default")).records == 2
    left = await lifecycle.audit_log()
    assert [(r.key, r.content) for r in left] == [("tea", "The user likes green tea")]


async def test_retention_keeps_a_message_changing_one_that_stays(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by new users. A farmer: "… moved my appointment to june 19 at 1:30" (kept for
    its day), then "no wait its the 14th not the 19th"; at 30 days the correction went and
    the 19th was given again. An engineer: "daily standup is at 10:15 every day" (kept a
    year: it comes again), then "standup moved to 9:45": the move went at 30 days."""
    _lifecycle(memory)
    store = await open_store(memory.name, retention_days=RetentionSettings(conversation=30))
    minute = timedelta(minutes=1)
    moved = _entry(
        "moved",
        "conversation",
        40,
        content="mercy cardiology called and moved my appointment to june 19 at 1:30",
        session_id="s1",
    )
    await store.import_(
        [
            moved,
            _entry(
                "wait",
                "conversation",
                40,
                content="no wait its the 14th not the 19th",
                session_id="s1",
                timestamp=moved.timestamp + minute,
            ),
            _entry("standup", "conversation", 50, content="daily standup is at 10:15 every day"),
            _entry("standup moved", "conversation", 40, content="standup moved to 9:45"),
            # A change of what goes goes with it; so does a change of nothing kept.
            _entry("lunch", "conversation", 50, content="lunch with Ana at the Thai place 12:30"),
            _entry("lunch moved", "conversation", 40, content="lunch with Ana moved to 13:00"),
            _entry("bins", "conversation", 40, content="the bins moved to 7:00 now"),
        ]
    )
    done = await _lifecycle(store).hygiene(now=NOW, dry_run=True)
    assert sorted(e.key for e, _ in done.removed) == ["bins", "lunch", "lunch moved"]


async def test_retention_keeps_the_last_word_on_a_medicine(
    memory: Memory, open_store: OpenStore
) -> None:
    """Found by a new user, a retired farmer: "DOCTOR SAYS TAKE THE METOPROLOL 25MG TWICE A
    DAY NOW", made no fact, went at 30 days, and "what pills do i take" knew only the
    warfarin. A later message on it, or a fact naming it, takes its place."""
    _lifecycle(memory)
    store = await open_store(memory.name, retention_days=RetentionSettings(conversation=30))
    await store.import_(
        [
            _entry("first", "conversation", 60, content="DOCTOR SAYS TAKE THE METOPROLOL 25MG"),
            _entry("upped", "conversation", 50, content="DR PATEL UPPED THE METOPROLOL TO 50MG"),
            _entry("warfarin", "conversation", 45, content="nurse cut my warfarin to 4mg"),
            _entry("fact", "core", 40, content="I take warfarin 3mg every evening"),
            _entry("chat", "conversation", 40, content="the metoprolol makes me tired"),
            _entry("drawer", "core", 40, content="I keep the metoprolol in the kitchen drawer"),
        ]
    )
    done = await _lifecycle(store).hygiene(now=NOW, dry_run=True)
    assert sorted(e.key for e, _ in done.removed) == ["chat", "first", "warfarin"]


async def test_hygiene_judges_off_the_event_loop(
    memory: Memory, open_store: OpenStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading every old text, the rules took seconds for a few thousand messages: on the
    event loop, the app stood still meanwhile (an adversary, with SQLite's)."""
    import threading

    from memory import lifecycle
    from memory.sqlite import hygiene as sqlite_hygiene

    _lifecycle(memory)
    store = await open_store(memory.name, retention_days=RetentionSettings(conversation=30))
    await store.import_([_entry("old", "conversation", 40, content="had lunch with Ana")])
    on_the_loop: list[bool] = []
    plan, judge = lifecycle.plan_hygiene, sqlite_hygiene.judge_retention

    def planning(*args: object) -> object:
        on_the_loop.append(threading.current_thread() is threading.main_thread())
        return plan(*args)  # type: ignore[arg-type]

    def judging(*args: object) -> object:
        on_the_loop.append(threading.current_thread() is threading.main_thread())
        return judge(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(lifecycle, "plan_hygiene", planning)
    monkeypatch.setattr(sqlite_hygiene, "judge_retention", judging)
    report = await _lifecycle(store).hygiene(now=NOW)
    assert [e.key for e, _ in report.removed] == ["old"]
    assert on_the_loop == [False]

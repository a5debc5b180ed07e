"""Import never deletes without a trace: what it changes is kept as restorable history,
and audited."""

from __future__ import annotations

from memory.records import MemoryRecord
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from tests.unit.memory.conftest import DIMS, OpenStore


async def _export(store: SqliteMemory, namespace: str | None = None) -> list[MemoryRecord]:
    return [r async for r in store.export(namespace=namespace)]  # type: ignore[misc]


async def _seed(store: SqliteMemory, count: int = 3) -> None:
    for i in range(count):
        await store.store(f"k{i}", f"memory number {i} about topic{i}", "daily")


async def test_importing_the_same_export_twice_changes_nothing(open_store: OpenStore) -> None:
    store = await open_store(CountingEmbedder(DIMS))
    await _seed(store)
    exported = await _export(store)
    summary = await store.import_(exported)
    assert summary.unchanged == 3
    assert summary.added == summary.replaced == summary.kept_as_history == 0
    again = await store.import_(exported)
    assert again.unchanged == 3
    assert [r.model_dump() for r in await _export(store)] == [r.model_dump() for r in exported]
    assert await store.audit_log() == []


async def test_an_export_edited_to_another_namespace_copies_instead_of_moving(
    open_store: OpenStore,
) -> None:
    store = await open_store(None)
    await _seed(store)
    old = await store.store("fact", "first version of the fact", "core")
    new = await store.store("fact", "second version of the fact", "core")
    assert old.id in new.supersedes
    exported = await _export(store)
    moved = [r.model_copy(update={"namespace": "work"}) for r in exported]
    summary = await store.import_(moved)
    assert summary.added == len(exported) and summary.renumbered == len(exported)
    assert summary.replaced == 0 and summary.kept_as_history == 0
    assert await store.count(namespace="default") == len(exported)  # default untouched
    assert [r.model_dump() for r in await _export(store, "default")] == [
        r.model_dump() for r in exported
    ]
    work = await store.list(namespace="work", include_superseded=True, limit=100)
    assert len(work) == len(exported)
    assert not {e.id for e in work} & {r.id for r in exported}
    # The copied history still points at the copied successor, not at the original.
    copied = {e.content: e for e in work}
    first, second = copied["first version of the fact"], copied["second version of the fact"]
    assert first.superseded_by == second.id and second.superseded_by is None


async def test_same_id_with_other_content_keeps_the_stored_version(
    open_store: OpenStore,
) -> None:
    store = await open_store(None)
    original = await store.store("k", "the original text", "daily")
    record = (await _export(store))[0].model_copy(update={"content": "the imported text"})
    summary = await store.import_([record])
    assert summary.replaced == 1 and summary.kept_as_history == 1 and summary.added == 0
    got = await store.get("k")
    assert got is not None and got.id == original.id and got.content == "the imported text"
    history = [
        e for e in await store.list(include_superseded=True) if e.superseded_by == original.id
    ]
    assert [e.content for e in history] == ["the original text"]
    audit = await store.audit_log()
    assert [(a.action, a.entry_id, a.content) for a in audit] == [
        ("import", history[0].id, "the original text")
    ]
    assert original.id in audit[0].reason and history[0].id in audit[0].reason

    restored = await store.restore(history[0].id)
    assert restored.content == "the original text"
    got = await store.get("k")
    assert got is not None and got.content == "the original text"


async def test_an_active_record_for_a_held_key_supersedes_the_holder(
    open_store: OpenStore,
) -> None:
    store = await open_store(None)
    holder = await store.store("k", "what the store knew", "daily")
    record = (await _export(store))[0].model_copy(
        update={"id": "imported-id", "content": "what the file says"}
    )
    summary = await store.import_([record])
    assert summary.replaced == 1 and summary.kept_as_history == 1
    got = await store.get("k")
    assert got is not None and got.id == "imported-id" and got.content == "what the file says"
    kept = await store.get_by_id(holder.id)
    assert kept is not None and kept.superseded_by == "imported-id"
    audit = await store.audit_log()
    assert [(a.action, a.entry_id) for a in audit] == [("import", holder.id)]

    await store.restore(holder.id)
    got = await store.get("k")
    assert got is not None and got.id == holder.id and got.content == "what the store knew"


async def test_a_superseded_record_leaves_the_active_holder_alone(open_store: OpenStore) -> None:
    store = await open_store(None)
    holder = await store.store("k", "current", "daily")
    record = (await _export(store))[0].model_copy(
        update={"id": "old-version", "content": "older", "superseded_by": holder.id}
    )
    summary = await store.import_([record])
    assert summary.added == 1 and summary.kept_as_history == 0
    got = await store.get("k")
    assert got is not None and got.id == holder.id
    assert await store.audit_log() == []


async def test_nothing_an_import_replaces_is_lost(open_store: OpenStore) -> None:
    """Every stored version before an import is still in the store after it."""
    store = await open_store(None)
    await _seed(store, 5)
    before = {(e.key, e.content) for e in await store.list(include_superseded=True)}
    exported = await _export(store)
    edited = [r.model_copy(update={"content": r.content + " (edited)"}) for r in exported[:3]] + [
        r.model_copy(update={"id": f"new-{r.id}", "content": "replaced"}) for r in exported[3:]
    ]
    summary = await store.import_(edited)
    assert summary.replaced == 5 and summary.kept_as_history == 5
    after = {(e.key, e.content) for e in await store.list(include_superseded=True, limit=100)}
    assert before <= after
    assert len(await store.audit_log()) == 5

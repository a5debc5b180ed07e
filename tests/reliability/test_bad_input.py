"""Property tests: no input raises anything but a clear error.

Counts per run (times `MEMCHAT_TEST_DEPTH`, see tests/helpers/depth.py): recall queries
500; keys and contents 400; tool arguments 400; config files 400 — 1,700 in all.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.config_file import parse_config
from agent.errors import ConfigError
from agent.messages import ToolCall
from agent.tools import MemoryTools
from memory.errors import InvalidEntryError
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from memory.testing import CountingEmbedder
from memory.write_policy import adds_nothing, content_hash
from tests.helpers.depth import examples
from tests.helpers.strategies import HOSTILE_TEXT

pytestmark = pytest.mark.slow
FIXTURE_OK = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

TEXT = HOSTILE_TEXT


@pytest.fixture(scope="module")
def store(
    loop: asyncio.AbstractEventLoop, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SqliteMemory]:
    path = tmp_path_factory.mktemp("bad-input") / "brain.db"
    memory = loop.run_until_complete(
        SqliteMemory.open(
            path,
            MemorySettings(
                embedding_provider="hashing",
                embedding_dimensions=32,
                hot_cache_size=0,
                early_return_score=1.0,
            ),
            CountingEmbedder(32),
        )
    )
    for number, text in enumerate(
        [
            "NEAR AND OR",
            'quote " here',
            "커피를 좋아해요",
            "東京",
            "مرحبا بالعالم",
            "emoji 🐍 snake",
        ]
    ):
        loop.run_until_complete(memory.store(f"seed{number}", text))
    yield memory
    loop.run_until_complete(memory.close())


@given(query=TEXT)
@settings(max_examples=examples(300), deadline=None, suppress_health_check=FIXTURE_OK)
def test_recall_queries(store: SqliteMemory, loop: asyncio.AbstractEventLoop, query: str) -> None:
    result = loop.run_until_complete(store.recall(query, limit=4))
    assert len(result.entries) <= 4
    assert all(e.scores is not None and 0 <= e.scores.fused <= 1 for e in result.entries)


@given(key=TEXT, content=TEXT)
@settings(max_examples=examples(250), deadline=None, suppress_health_check=FIXTURE_OK)
def test_keys_and_contents(
    store: SqliteMemory, loop: asyncio.AbstractEventLoop, key: str, content: str
) -> None:
    try:
        stored = loop.run_until_complete(store.store_with_metadata(key, content, namespace="props"))
    except InvalidEntryError as exc:
        message = str(exc)
        assert "empty" in message or "surrogate" in message or "longer" in message, message
        return
    # Stored as given (perhaps as a near-duplicate's next version), or absorbed by an entry
    # with the same normalised text (a duplicate) or with every word of it (a merge).
    got = loop.run_until_complete(store.get(stored.key, "props"))
    assert got is not None and got.content == stored.content
    assert content_hash(stored.content) == content_hash(content) or adds_nothing(
        content, stored.content
    )


ARGUMENT_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
ARGUMENTS = st.one_of(
    st.dictionaries(
        st.sampled_from(
            [
                "key",
                "content",
                "category",
                "importance",
                "query",
                "limit",
                "since",
                "until",
                "prefix",
                "zzz",
            ]
        ),
        ARGUMENT_VALUES,
        max_size=5,
    ),
    st.dictionaries(
        st.sampled_from(["key", "content", "query", "limit"]), ARGUMENT_VALUES, max_size=4
    ).map(json.dumps),
    TEXT,
    ARGUMENT_VALUES,
)


@given(
    name=st.sampled_from(
        ["memory_store", "memory_recall", "memory_forget", "memory_list", "memory_nope", ""]
    ),
    arguments=ARGUMENTS,
)
@settings(max_examples=examples(250), deadline=None, suppress_health_check=FIXTURE_OK)
def test_tool_arguments(
    store: SqliteMemory, loop: asyncio.AbstractEventLoop, name: str, arguments: object
) -> None:
    tools = MemoryTools(store, namespace="tools")
    result = loop.run_until_complete(tools.run(ToolCall(id="x", name=name, arguments=arguments)))
    body = json.loads(result.content)
    assert isinstance(body, dict)
    if result.error:
        assert list(body) == ["error"] and body["error"]
        # A call that ran says what it met: a forget of a key not stored names the key
        # (found by a run that generated {"key": '"'}); one that could not run, the tool or
        # its arguments.
        said = body["error"]
        assert name in said or "arguments" in said or said.startswith("no memory with key")


TOML_VALUE = st.one_of(
    st.integers(-10, 10**7).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(
        [
            "true",
            "false",
            '"x"',
            "[1, 2]",
            "{a = 1}",
            "nan",
            "inf",
            '"""multi"""',
            "'literal'",
            "",
            "= =",
            '"unterminated',
            "1979-05-27T07:32:00Z",
        ]
    ),
)


@given(
    table=st.sampled_from(["memory", "ollama", "agent", "memory.retention_days", "nope", ""]),
    key=st.sampled_from(
        [
            "backend",
            "recall_limit",
            "vector_weight",
            "model",
            "num_ctx",
            "think",
            "keep_alive",
            "max_tool_iterations",
            "conversation",
            "typo",
            "seed",
        ]
    ),
    value=TOML_VALUE,
    junk=st.sampled_from(["", "\n[[", "\nx", "\n\x00", "\n[memory]\n"]),
)
@settings(max_examples=examples(250), deadline=None)
def test_config_files(table: str, key: str, value: str, junk: str) -> None:
    header = f"[{table}]\n" if table else ""
    text = f"# a user's config\n{header}{key} = {value}{junk}\n"
    try:
        parse_config(text, Path("config.toml"))
    except ConfigError as exc:
        message = str(exc)
        assert message.startswith("config.toml") or "invalid config" in message
        assert "not valid TOML" in message or key in message or table.split(".")[0] in message

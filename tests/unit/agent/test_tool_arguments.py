"""Property test: whatever a model sends as tool arguments becomes a result or an error result."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.messages import ToolCall
from agent.tools import MemoryTools
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory
from tests.helpers.depth import examples
from tests.helpers.strategies import JSON_VALUES

JSON = JSON_VALUES
FIELDS = st.sampled_from(
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
        "extra",
    ]
)
ARGUMENTS = st.one_of(
    st.dictionaries(FIELDS, JSON, max_size=5),
    st.dictionaries(FIELDS, JSON, max_size=5).map(json.dumps),
    st.text(max_size=30),
    JSON,
)


@pytest.fixture(scope="module")
def tools(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[MemoryTools, asyncio.AbstractEventLoop]]:
    loop = asyncio.new_event_loop()
    path: Path = tmp_path_factory.mktemp("tools") / "brain.db"
    store = loop.run_until_complete(
        SqliteMemory.open(path, MemorySettings(embedding_provider="none"))
    )
    yield MemoryTools(store), loop
    loop.run_until_complete(store.close())
    loop.close()


@pytest.mark.slow
@given(
    name=st.sampled_from(["memory_store", "memory_recall", "memory_forget", "memory_list", "nope"]),
    arguments=ARGUMENTS,
)
@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_any_arguments_give_a_result_or_a_clear_tool_error(
    tools: tuple[MemoryTools, asyncio.AbstractEventLoop], name: str, arguments: object
) -> None:
    runner, loop = tools
    result = loop.run_until_complete(runner.run(ToolCall(id="x", name=name, arguments=arguments)))
    body = json.loads(result.content)
    assert isinstance(body, dict)
    assert (
        (list(body) == ["error"] and bool(body["error"])) if result.error else "error" not in body
    )

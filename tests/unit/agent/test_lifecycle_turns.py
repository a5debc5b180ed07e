"""Consolidation and supersession as a turn sees them."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from agent.consolidation import parse
from agent.events import MemoryRecalled, TurnFinished
from agent.testing import Reply, ScriptedModel
from tests.unit.agent.conftest import Harness

GOOD = json.dumps(
    {
        "summary": "Ana talked about her move to Lisbon",
        "facts": [{"key": "user_city", "content": "Ana lives in Lisbon"}],
    }
)


@pytest.mark.parametrize(
    ("text", "facts", "summary"),
    [
        (GOOD, ["Ana lives in Lisbon"], "Ana talked about her move to Lisbon"),
        (
            f"Sure! ```json\n{GOOD}\n```",
            ["Ana lives in Lisbon"],
            "Ana talked about her move to Lisbon",
        ),
        ('{"summary": "x", "facts": ["Ana has a cat"]}', ["Ana has a cat"], "x"),
        ('{"summary": "", "facts": []}', [], ""),
    ],
)
def test_parse_is_tolerant(text: str, facts: list[str], summary: str) -> None:
    result = parse(text)
    assert result is not None
    assert [f.content for f in result.facts] == facts and result.summary == summary


@pytest.mark.parametrize(
    "text", ["", "no json here", '{"summary": ', "[1, 2]", '{"facts": [{"key": ""}]}']
)
def test_parse_rejects_what_it_cannot_use(text: str) -> None:
    assert parse(text) is None


async def consolidating(make_harness: Any, *replies: Reply | str) -> Harness:
    h: Harness = await make_harness(ScriptedModel(list(replies)), memory__consolidation=True)
    return h


async def test_consolidation_stores_a_summary_and_facts(make_harness: Any) -> None:
    h = await consolidating(make_harness, "Lisbon is lovely.", GOOD)
    await h.turn("I moved to Lisbon last month, my password is hunter22")
    await h.agent.drain()
    facts = await h.memory.list(category="core")
    assert [(f.key, f.content, f.source) for f in facts] == [
        ("user_city", "Ana lives in Lisbon", "consolidation")
    ]
    [daily] = await h.memory.list(category="daily")
    assert daily.content == "Ana talked about her move to Lisbon"
    assert daily.source == "consolidation" and daily.key.startswith("daily/2026-11-30/")
    request = h.model.requests[1]
    assert request.options.format is not None and request.tools == []
    assert "hunter22" not in request.messages[-1].content
    assert "[REDACTED:secret]" in request.messages[-1].content


@pytest.mark.parametrize("answer", ["not json at all", "", '{"summary": 7, "facts": "x"}'])
async def test_broken_consolidation_stores_nothing_derived(make_harness: Any, answer: str) -> None:
    h = await consolidating(make_harness, "Okay.", answer)
    await h.turn("I moved to Lisbon last month")
    await h.agent.drain()
    assert await h.memory.list(category="core") == []
    assert await h.memory.list(category="daily") == []
    assert len(await h.memory.list(category="conversation")) == 1


async def test_consolidation_never_delays_the_reply(make_harness: Any) -> None:
    hold = asyncio.Event()
    h = await consolidating(make_harness, "Reply first.", Reply(GOOD, hold=hold))
    events = await h.turn("I moved to Lisbon last month")
    assert isinstance(events[-1], TurnFinished)
    assert await h.memory.list(category="core") == []  # still waiting in the background
    hold.set()
    await h.agent.drain()
    assert [f.content for f in await h.memory.list(category="core")] == ["Ana lives in Lisbon"]


async def test_consolidated_facts_go_through_conflict_handling(make_harness: Any) -> None:
    update = json.dumps(
        {"summary": "", "facts": [{"key": "lang_pref", "content": "the user prefers Python"}]}
    )
    h = await consolidating(make_harness, "Noted.", update)
    await h.memory.store("language", "the user prefers Rust")
    await h.turn("I switched to Python for everything now")
    await h.agent.drain()
    active = await h.memory.list(category="core")
    assert [e.content for e in active] == ["the user prefers Python"]
    history = await h.memory.list(category="core", include_superseded=True)
    assert len(history) == 2


async def test_consolidation_is_off_by_default_and_in_incognito(make_harness: Any) -> None:
    h: Harness = await make_harness(ScriptedModel(["Hi."]))
    await h.turn("I moved to Lisbon last month")
    await h.agent.drain()
    assert len(h.model.requests) == 1
    on = await consolidating(make_harness, "Hi.")
    on.session.incognito = True
    await on.turn("I moved to Lisbon last month")
    await on.agent.drain()
    assert len(on.model.requests) == 1


async def test_injection_shows_only_the_newer_preference(harness: Harness) -> None:
    await harness.memory.store("pref_1", "the user prefers Rust")
    await harness.memory.store("pref_2", "the user prefers Python")
    harness.model.add("Python, then.")
    events = await harness.turn("which programming language does the user prefer?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert [e.content for e in recalled.injected] == ["the user prefers Python"]
    block = harness.model.requests[0].messages[-1].content
    assert "Python" in block and "Rust" not in block

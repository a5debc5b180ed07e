"""An agent over a temporary store and session directory, with a scripted model."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from agent.config import Config
from agent.events import TurnEvent
from agent.sessions import Session, SessionStore
from agent.testing import ScriptedModel
from agent.turn import Agent
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory

FIXED_NOW = datetime(2026, 11, 30, 9, 30, tzinfo=UTC)


@dataclass
class Harness:
    agent: Agent
    model: ScriptedModel
    memory: SqliteMemory
    sessions: SessionStore
    session: Session

    async def turn(self, text: str, session: Session | None = None) -> list[TurnEvent]:
        return [event async for event in self.agent.turn(text, session or self.session)]


def kinds(events: Sequence[TurnEvent]) -> list[str]:
    return [event.kind for event in events]


@pytest.fixture
async def make_harness(tmp_path: Path) -> AsyncIterator[Any]:
    stores: list[SqliteMemory] = []

    async def factory(model: ScriptedModel | None = None, **overrides: Any) -> Harness:
        sections: dict[str, Any] = {"memory": {"embedding_provider": "none"}}
        for dotted, value in overrides.items():
            section, key = dotted.split("__")
            sections.setdefault(section, {})[key] = value
        config = Config.model_validate(sections)
        memory = await SqliteMemory.open(
            tmp_path / f"brain{len(stores)}.db", MemorySettings(**sections["memory"]), None
        )
        stores.append(memory)
        sessions = SessionStore(tmp_path / "sessions")
        model = model or ScriptedModel()
        agent = Agent(model, memory, config, sessions, clock=lambda: FIXED_NOW)
        return Harness(agent, model, memory, sessions, sessions.new())

    yield factory
    for store in stores:
        await store.close()


@pytest.fixture
async def harness(make_harness: Any) -> Harness:
    h: Harness = await make_harness()
    return h

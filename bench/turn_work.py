"""The work a turn does around recall, with a long paste among the memories, in one run.

    python -m bench.turn_work [--turns 5]

A new user, an engineer, pasted a 3,000-line log into the chat; every later turn that
recalled it waited seconds before the model was asked (reading the log for secrets,
questions and changes once per turn), with nothing on screen. The store holds the log,
twenty ordinary messages and a few facts (hashing embedder, no model: a scripted reply).
Printed per question: the whole turn up to its recall line (`MemoryRecalled`), and the
store's own recall of the same question as the reference, with their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from agent.config import Config
from agent.sessions import Session, SessionStore
from agent.testing import ScriptedModel
from agent.turn import Agent
from memory.embedding.hashing import HashingEmbedder
from memory.settings import MemorySettings
from memory.sqlite.store import SqliteMemory

LOG = "\n".join(
    f"2026-12-0{1 + i % 5}T23:{i % 60:02d}:00Z INFO app.worker path=/refunds/{i} "
    f"duration_ms={i * 7 % 997} status=200 user=u{i % 50}"
    for i in range(3000)
)
FACTS = [
    "My on-call shift is on Thursdays now",
    "Standup is at 9:30 every day",
    "My manager is Sofia",
    "The billing migration ships on 21 January",
    "Joana prefers async code reviews",
    "The flaky test is test_refund_idempotency",
]
QUESTIONS = [
    "Standup moved to 10:00",
    "what day is my on-call?",
    "when is standup?",
    "who is my manager?",
    "what did I say about the flaky test?",
]


@dataclass
class Bench:
    """A store holding `FACTS` (hashing embedder), an agent over it, a scripted model, a chat."""

    memory: SqliteMemory
    model: ScriptedModel
    agent: Agent
    session: Session


async def with_facts() -> Bench:
    """A fresh store in a temporary folder, the facts stored, a new chat."""
    folder = Path(tempfile.mkdtemp())
    config = Config.model_validate({"memory": {"embedding_provider": "hashing"}})
    settings = MemorySettings(embedding_provider="hashing")
    memory = await SqliteMemory.open(folder / "brain.db", settings, HashingEmbedder(256))
    for number, fact in enumerate(FACTS):
        await memory.store(f"fact_{number}", fact, "core")
    sessions = SessionStore(folder / "sessions")
    model = ScriptedModel()
    return Bench(memory, model, Agent(model, memory, config, sessions), sessions.new())


async def run(turns: int) -> None:
    bench = await with_facts()
    memory, model, agent, session = bench.memory, bench.model, bench.agent, bench.session
    said = ["here's the log from last night:\n" + LOG]
    said += [f"note {n} about the refunds service and standup" for n in range(20)]
    for text in said:
        model.add("ok")
        async for _ in agent.turn(text, session):
            pass
    for question in QUESTIONS:
        whole: list[float] = []
        alone: list[float] = []
        for _ in range(turns):
            model.add("ok")
            started = time.perf_counter()
            async for event in agent.turn(question, session):
                if event.kind == "memory_recalled":
                    whole.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            await memory.recall(question)
            alone.append((time.perf_counter() - started) * 1000)
        w, a = statistics.median(whole), statistics.median(alone)
        print(
            f"{question!r:42} turn to its recall line {w:7.1f} ms | recall alone {a:6.1f} ms"
            f" | {w / a:5.1f}x"
        )
    await memory.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=5)
    asyncio.run(run(parser.parse_args().turns))


if __name__ == "__main__":
    main()

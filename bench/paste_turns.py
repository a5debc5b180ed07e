"""Turns after pasted pages of prose (50, 150 and 300 KB), and how long the event loop stood still.

    python -m bench.paste_turns [--turns 3]

An adversary pasted three long texts into a chat: saving the 300 KB one took 10 s, and
every short question after them 5 to 6 s, much of it on the event loop (the screen stood
still). The store holds a few facts and the three pastes, each said as a message of the
chat (hashing embedder, scripted replies). Printed: per paste, the turn that saves it;
per question, its first turn (the pastes' readings are kept after it) and the median of
the later ones, each with the event loop's longest stall, and the store's own recall of
the question in the same run as the reference.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import AsyncIterator

from agent.sessions import Session
from agent.testing import ScriptedModel
from agent.turn import Agent
from bench.turn_work import with_facts
from memory.sqlite.store import SqliteMemory

SIZES = (50_000, 150_000, 300_000)
QUESTIONS = [
    "who is my manager?",
    "what day is my on-call?",
    "when is the billing migration?",
    "what did the dentist say?",
    "thanks!",
]
_WORDS = (
    "the meeting with Sarah about the budget moved to Thursday and I need to call the "
    "dentist because my tooth hurts again also Tom said the project deadline is next Friday "
    "at 5pm remember to buy milk eggs bread the reset email never came our landlord wants "
    "the keys back by the end of the month and the car goes in for its service on Monday"
).split()


def prose(size: int, seed: int) -> str:
    """Sentences of everyday words, a paragraph now and then, a date or a code at times."""
    pick = random.Random(seed)
    said: list[str] = []
    length = 0
    while length < size:
        sentence = " ".join(pick.choice(_WORDS) for _ in range(pick.randint(6, 20)))
        if pick.random() < 0.02:
            sentence += f" on {pick.randint(1, 28)} March"
        if pick.random() < 0.005:
            sentence += f" and the gate code is {pick.randint(1000, 9999)}"
        said.append(sentence.capitalize() + (".\n\n" if pick.random() < 0.1 else ". "))
        length += len(said[-1])
    return "".join(said)


class Stalls:
    """The event loop's longest wait between two of its ticks, while `watch` runs."""

    def __init__(self) -> None:
        self.longest = 0.0

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last)
            last = now

    async def watch(self, turn: AsyncIterator[object]) -> float:
        """Run `turn` to its end; the seconds it took."""
        self.longest = 0.0
        ticker = asyncio.create_task(self._tick())
        started = time.perf_counter()
        async for _ in turn:
            pass
        took = time.perf_counter() - started
        ticker.cancel()
        return took


async def run(turns: int) -> None:
    bench = await with_facts()
    memory, model, agent, session = bench.memory, bench.model, bench.agent, bench.session
    stalls = Stalls()
    for seed, size in enumerate(SIZES):
        model.add("ok")
        took = await stalls.watch(agent.turn("here's the text:\n" + prose(size, seed), session))
        print(
            f"saving a {size // 1000:>3} KB paste {took * 1000:8.0f} ms"
            f" | longest stall of the event loop {stalls.longest * 1000:6.0f} ms"
        )
    for question in QUESTIONS:
        await _question(agent, model, memory, session, question, turns, stalls)
    await memory.close()


async def _question(
    agent: Agent,
    model: ScriptedModel,
    memory: SqliteMemory,
    session: Session,
    question: str,
    turns: int,
    stalls: Stalls,
) -> None:
    took: list[float] = []
    longest: list[float] = []
    for _ in range(turns + 1):
        model.add("ok")
        took.append(await stalls.watch(agent.turn(question, session)) * 1000)
        longest.append(stalls.longest * 1000)
    started = time.perf_counter()
    await memory.recall(question)
    alone = (time.perf_counter() - started) * 1000
    later = statistics.median(took[1:])
    print(
        f"{question!r:34} first turn {took[0]:7.0f} ms (stall {longest[0]:5.0f})"
        f" | later {later:6.0f} ms (stall {max(longest[1:]):4.0f})"
        f" | recall alone {alone:5.1f} ms | later / alone {later / alone:6.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=3)
    asyncio.run(run(parser.parse_args().turns))


if __name__ == "__main__":
    main()

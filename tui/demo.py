"""`memchat demo`: a short conversation played as the user, to show how memory behaves.

It talks to whatever model is configured and writes to the real store, in a namespace of
its own that stays there. The facts the rest of the demo relies on go through /remember
and /forget, so it works whatever the model does; one step asks the model to store a fact
with its own tool.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agent.commands import key_for

if TYPE_CHECKING:
    from tui.app import MemchatApp

TEA = "My favourite drink is tea"
COFFEE = "My favourite drink is coffee"
QUESTION = "Which drink is my favourite?"
CAT = "Remember that my cat is called Miso."


@dataclass(frozen=True)
class DemoStep:
    """What the user types, and what to watch while it happens."""

    say: str
    explain: str
    show_history: bool = False


STEPS = (
    DemoStep(f"/remember {TEA}", "A core fact is stored under its own key (see the inspector)."),
    DemoStep("/new", "A new session: the conversation is gone, long-term memory is not."),
    DemoStep(
        QUESTION,
        "Recall finds the preference and shows it to the model; the ◆ line "
        "under the message says which memory, and why.",
    ),
    DemoStep(
        CAT,
        "The model stores a memory itself: the tool line under the message shows its "
        "memory_store call. A model without native tool calling writes the call as JSON "
        "(tools: structured in the status bar).",
    ),
    DemoStep(
        f"/remember {COFFEE}",
        "An update about the same subject supersedes the old "
        "fact instead of overwriting it; 'superseded' shows the history.",
        show_history=True,
    ),
    DemoStep(QUESTION, "Only the newer fact reaches the model now."),
    DemoStep(
        f"/forget {key_for(COFFEE)}",
        "Forgetting removes the fact; the one it had replaced is in effect again, so a "
        "wrong update loses nothing. 'deleted' lists what went, when and why.",
    ),
)


async def play_demo(app: MemchatApp, pause: float) -> None:
    """Play the memory demo as the user, pausing so each step can be watched."""
    from textual.widgets import Checkbox

    assert app.runtime is not None
    inspector = app.inspector
    app.memory_view.show_inspector(True)
    inspector.reload()
    for number, step in enumerate(STEPS, start=1):
        app.notify(
            step.explain, title=f"Memory demo {number}/{len(STEPS)}", timeout=max(6.0, pause * 2)
        )
        await asyncio.sleep(pause)
        app.turns.submit(step.say)
        while app.turns.running:
            await asyncio.sleep(0.05)
        if step.show_history:
            inspector.query_one("#inspector-superseded", Checkbox).value = True
        inspector.reload()
        await asyncio.sleep(pause)
    namespace = app.runtime.agent.namespace
    app.notify(
        f"Demo finished. Its memories stay in namespace {namespace!r} "
        f"(memchat memory list --all --namespace {namespace}). What you send now is saved "
        "there too: start memchat again to be back with your own memories.",
        title="Memory demo",
        timeout=30,
    )

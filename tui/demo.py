"""`memchat demo`: a short conversation played as the user, to show how memory behaves.

It talks to whatever model is configured and writes to the real store, in a throwaway
namespace. Storing and forgetting go through /remember and /forget, so the demo works with
models that cannot call tools; the questions go to the model as ordinary messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.commands import key_for

TEA = "My favourite drink is tea"
COFFEE = "My favourite drink is coffee"
QUESTION = "Which drink is my favourite?"


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
        f"/remember {COFFEE}",
        "An update about the same subject supersedes the old "
        "fact instead of overwriting it; 'superseded' shows the history.",
        show_history=True,
    ),
    DemoStep(QUESTION, "Only the newer fact reaches the model now."),
    DemoStep(
        f"/forget {key_for(COFFEE)}",
        "Forgetting removes the fact and its history; 'deleted' lists what went, when and why.",
    ),
)

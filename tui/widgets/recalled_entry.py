"""What memory contributed to a turn, and why each item was (or was not) used.

Keys, contents and categories are stored text (typed, said or imported): shown literally.
"""

from __future__ import annotations

import math

from rich.text import Text
from textual.widgets import Static

from agent.events import MemoryRecalled
from agent.injection import SKIPPED_NOTE
from agent.recall_notes import in_shown_order
from memory.entry import MemoryEntry
from tui.plain import visible
from tui.widgets.plain_collapsible import PlainCollapsible


def score_text(value: float | None, *, below: bool = False) -> str:
    """A score to two places; below the floor, rounded down."""
    if value is None:
        return "  –  "
    # Below the floor, rounded down: "below floor: 0.30" beside a floor of 0.3 read as a
    # contradiction (found by a new user).
    return f"{math.floor(value * 100) / 100:.2f}" if below else f"{value:.2f}"


def _line(entry: MemoryEntry, text: Text, width: int = 70, *, below: bool = False) -> None:
    # Made visible before splitting, so control characters show instead of becoming spaces.
    content = " ".join(visible(entry.content).split())
    if len(content) > width:
        content = content[: width - 1] + "…"
    text.append(f"{score_text(entry.score, below=below)}  ", style="bold")
    text.append(f"{visible(entry.key)} ", style="cyan")
    text.append(f"[{visible(entry.category)}] {content}\n")


def _say_the_order(event: MemoryRecalled, text: Text) -> None:
    # Said, as the scores no longer read in order (a second adversary).
    if any(entry.id in event.since_changed for entry in event.injected):
        text.append("best match first; what a later memory changed, last\n", style="dim")


def describe(event: MemoryRecalled) -> Text:
    """The expanded view: each injected entry with its component scores, then the cuts."""
    text = Text()
    if event.degraded:
        text.append(f"{visible(event.degraded)}\n", style="yellow")
    if event.calibration:
        text.append(f"{visible(event.calibration)}\n", style="dim")
    _say_the_order(event, text)
    for entry in in_shown_order(event.injected, event.since_changed):
        _line(entry, text)
        scores = entry.scores
        if scores is not None:
            text.append(f"       {scores.explanation(event.mode)}\n", style="dim")
        changed = event.since_changed.get(entry.id)
        if changed:
            text.append(f"       {visible(changed)}\n", style="yellow")
    if event.cut:
        text.append("not used\n", style="bold dim")
        for cut in event.cut:
            why = cut.entry.scores.held_back if cut.entry.scores is not None else None
            reason = f"{cut.reason} ({why})" if cut.reason == "held back" and why else cut.reason
            text.append(f"  {visible(reason)}: ", style="dim")
            _line(cut.entry, text, below=cut.reason == "below floor")
    if event.limit_reached:
        # Found by a new user: five of twenty messages tied at 0.48 were shown, and nothing
        # said that others matched as well.
        text.append(
            f"a message recalls at most {event.limit_reached} (memory.recall_limit): more "
            "may match as well; search the memory panel (F2) to see them all\n",
            style="dim",
        )
    if event.in_this_chat:
        # Found by a new user: "has Declan paid?" recalled nothing in the chat where she had
        # said it, and nothing told her why.
        text.append(f"{_IN_THIS_CHAT.format(count=event.in_this_chat)}\n", style="dim")
    if event.mode == "skipped":
        text.append(SKIPPED_NOTE, style="dim")
    elif not event.injected and not event.cut:
        text.append(
            "nothing else relevant found" if event.in_this_chat else "nothing relevant found",
            style="dim",
        )
    return text


_IN_THIS_CHAT = (
    "this chat's own {count} earlier message(s) are not recalled: the model has them in "
    "front of it already"
)


class RecalledEntry(PlainCollapsible):
    """Collapsed: how many memories were injected. Expanded: why."""

    def __init__(self, event: MemoryRecalled) -> None:
        count = len(event.injected)
        noun = "memory" if count == 1 else "memories"
        title = (
            f"◆ recalled {count} {noun} ({event.mode})"
            if count
            else f"◇ no memories recalled ({event.mode})"
            + (" · this chat's messages are in front of the model" if event.in_this_chat else "")
        )
        super().__init__(Static(describe(event)), title=title, collapsed=True, classes="recalled")
        self.event = event

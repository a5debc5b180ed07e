"""The line users watch: model, server, memory, context use, speed, VRAM."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rich.text import Text
from textual.widgets import Static

from memory.wording import memories
from tui.plain import visible

SERVER_STYLES = {
    "connected": "green",
    "checking": "dim",
    "not running": "bold red",
    "model missing": "bold yellow",
}


@dataclass(frozen=True)
class StatusState:
    """Everything the status bar shows."""

    model: str = ""
    server: str = "checking"
    server_label: str = "ollama"
    """"ollama", or "server" for an OpenAI-compatible one."""
    tools: str = ""
    """How the model calls memory tools: native, structured or off ("" until known)."""
    embeddings: str = ""
    memories: int | None = None
    memories_elsewhere: int = 0
    """Memories in effect in the store's other namespaces."""
    memory_off: bool = False
    tidying: bool = False
    """Hygiene is judging what retention removes (minutes, on a large store)."""
    context_used: int = 0
    num_ctx: int = 0
    tokens_per_second: float | None = None
    load_seconds: float | None = None
    gpu_share: float | None = None
    incognito: bool = False
    warning: str | None = None


def context_style(used: int, total: int) -> str:
    """Green below half the window, yellow from 50 %, red from 80 %."""
    share = used / total if total else 0.0
    return "bold red" if share >= 0.8 else "yellow" if share >= 0.5 else "green"


_LEAST_NEEDED = ("load", "speed", "gpu", "tools", "context")
"""What a narrow line leaves out first: a new user saw the line wrap to two of a 24-row
terminal at 80 columns. A warning, the model, the server and memory always stay."""


def render_status(state: StatusState, width: int | None = None) -> Text:
    """The status line as styled text (names from servers and config shown literally).

    `width`: the columns it has; the least needed parts are left out until it fits (a
    "tools" or "GPU" part that warns stays, and so does a context filling up).
    """
    parts = _parts(state)
    for name in _LEAST_NEEDED:
        if width is None or _joined(parts).cell_len <= width:
            break
        if name in parts and parts[name].style in ("", "green"):
            del parts[name]
    return _joined(parts)


def _joined(parts: dict[str, Text]) -> Text:
    return Text(" │ ").join(parts.values())


def _parts(state: StatusState) -> dict[str, Text]:
    # A llama.cpp model id is often a file path: its last part says enough.
    model = visible(state.model.rsplit("/", 1)[-1]) or "no model"
    parts: dict[str, Text] = {}
    # First, with any warning next: the end of the line is cut off in a narrow terminal,
    # and "not saving" went out of sight at 140 columns (found by a new user).
    if state.incognito:
        parts["incognito"] = Text("incognito: not saving", style="bold magenta")
    parts["model"] = Text(model, style="bold")
    parts["server"] = Text(
        f"{state.server_label}: {state.server}", style=SERVER_STYLES.get(state.server, "")
    )
    if state.warning:
        parts["warning"] = Text(f"⚠ {visible(state.warning)}", style="bold yellow")
    if state.tools:
        off = state.tools == "off"
        parts["tools"] = Text(f"tools: {state.tools}", style="yellow" if off else "")
    if state.memory_off:
        parts["memory"] = Text("memory off", style="yellow")
    else:
        count = "… memories" if state.memories is None else memories(state.memories)
        if state.memories is not None and state.memories_elsewhere > 0:
            count += f" (+{state.memories_elsewhere:,} in other namespaces)"
        if state.tidying:
            count += " (tidying)"
        degraded = state.embeddings.startswith("keyword-only:")
        label = visible(state.embeddings)
        label = label if len(label) <= 60 else label[:59] + "…"
        parts["memory"] = Text(f"{count} · ")
        parts["memory"].append(label, style="bold yellow" if degraded else "")
    if state.num_ctx:
        share = state.context_used / state.num_ctx
        parts["context"] = Text(
            f"ctx {state.context_used:,}/{state.num_ctx:,} ({share:.0%})",
            style=context_style(state.context_used, state.num_ctx),
        )
    if state.tokens_per_second is not None:
        parts["speed"] = Text(f"{state.tokens_per_second:.1f} tok/s")
    if state.load_seconds is not None and state.load_seconds >= 0.05:
        parts["load"] = Text(f"load {state.load_seconds:.1f}s")
    if state.gpu_share is not None:
        where = (
            "GPU"
            if state.gpu_share >= 0.999
            else "CPU"
            if state.gpu_share == 0
            else (f"{state.gpu_share:.0%} GPU")
        )
        parts["gpu"] = Text(where, style="green" if state.gpu_share >= 0.999 else "yellow")
    return parts


class StatusBar(Static):
    """One line at the bottom; `set` changes some fields and redraws."""

    def __init__(self, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.state = StatusState()

    def on_mount(self) -> None:
        """Draw the initial state."""
        self._draw()

    def on_resize(self) -> None:
        """Leave out or bring back what the new width holds."""
        self._draw()

    def set(self, **changes: Any) -> None:
        """Update some fields."""
        self.state = replace(self.state, **changes)
        self._draw()

    def _draw(self) -> None:
        self.update(render_status(self.state, self.content_size.width or None))

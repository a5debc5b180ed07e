"""Memory tool results as a person reads them, not as the model receives them.

`/recall cat` showed `{"results": [{"key": …, "content": …, "score": 0.71}]}` (found by a
new user). The model still gets the JSON; the chat line says how many memories came back
and the opened line lists them, one a line. A result of another shape is shown as it came.
"""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text

from tui.plain import visible


def _parsed(result: str) -> dict[str, Any] | None:
    try:
        parsed = json.loads(result)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def error_text(result: str) -> str:
    """The message of a tool error (`{"error": "…"}`), or the result as it came."""
    parsed = _parsed(result)
    error = None if parsed is None else parsed.get("error")
    return error if isinstance(error, str) else result


def _memories(parsed: dict[str, Any]) -> list[dict[str, Any]] | None:
    for field in ("results", "entries"):
        found = parsed.get(field)
        if isinstance(found, list) and all(isinstance(item, dict) for item in found):
            return found
    return None


def _count(number: int) -> str:
    return "no memory" if number == 0 else "1 memory" if number == 1 else f"{number} memories"


def summary(result: str) -> str:
    """What a successful memory tool call did, for its collapsed line ('' if unknown)."""
    parsed = _parsed(result)
    if parsed is None:
        return ""
    memories = _memories(parsed)
    if memories is not None:
        return _count(len(memories))
    stored = parsed.get("stored")
    if isinstance(stored, dict) and isinstance(stored.get("key"), str):
        replaced = parsed.get("replaced_under_other_keys")
        extra = f", replacing {_count(len(replaced))}" if isinstance(replaced, list) else ""
        # The same key's earlier text is a replacement too (found by a new user).
        earlier = ", replacing its earlier text" if isinstance(parsed.get("replaced"), str) else ""
        dropped = parsed.get("no_longer_said")
        if earlier and isinstance(dropped, list) and dropped:
            # Said on the line: a booking's date and venue went with "balance now fully
            # paid" stored under its key (a new user saw only "replacing its earlier text").
            earlier += " (no longer says " + ", ".join(visible(str(v)) for v in dropped) + ")"
        if not earlier and extra and isinstance(dropped, list) and dropped:
            extra += " (no longer says " + ", ".join(visible(str(v)) for v in dropped) + ")"
        beside = parsed.get("kept_beside")
        if isinstance(beside, dict) and isinstance(beside.get("key"), str):
            earlier = f" beside {beside['key']} (another one)"
        differs = parsed.get("still_in_effect_and_differs")
        if isinstance(differs, list) and differs:
            verb = "says" if len(differs) == 1 else "say"
            extra += f"; {_count(len(differs))} still {verb} otherwise"
        if isinstance(parsed.get("already_said_by"), str):
            return f"already said by {stored['key']}, kept as it was{extra}"
        if isinstance(parsed.get("merged_into"), str):
            return f"merged into {stored['key']} (said alike){earlier}{extra}"
        return f"stored as {stored['key']}{earlier}{extra}"
    if parsed.get("removed") is True and isinstance(parsed.get("key"), str):
        back = _back_in_effect(parsed)
        again = f", bringing back {_count(len(back))}" if back else ""
        return f"forgot {parsed['key']}{_earlier(parsed)}{again}"
    return ""


def _earlier(parsed: dict[str, Any]) -> str:
    earlier = parsed.get("earlier_versions")
    if not isinstance(earlier, int) or isinstance(earlier, bool) or earlier <= 0:
        return ""
    return f" and {earlier} earlier version{'s' if earlier > 1 else ''}"


def _back_in_effect(parsed: dict[str, Any]) -> list[dict[str, Any]]:
    found = parsed.get("in_effect_again")
    return [item for item in found if isinstance(item, dict)] if isinstance(found, list) else []


def _line(item: dict[str, Any]) -> Text:
    line = Text("• ")
    line.append(visible(str(item.get("content", ""))))
    details = [str(item[name]) for name in ("key", "category") if item.get(name)]
    if isinstance(item.get("score"), int | float):
        details.append(f"score {item['score']:.2f}")
    if details:
        line.append("  " + visible(" · ".join(details)), style="dim")
    return line


def readable(result: str) -> Text | None:
    """The result as lines to read, or None when it has no shape known here."""
    parsed = _parsed(result)
    if parsed is None:
        return None
    memories = _memories(parsed)
    if memories is not None:
        text = Text(_count(len(memories)) + (":" if memories else ""))
        for item in memories:
            text.append("\n")
            text.append_text(_line(item))
        return text
    stored = parsed.get("stored")
    if isinstance(stored, dict):
        text = Text("stored ")
        text.append_text(_line(stored))
        if isinstance(parsed.get("replaced"), str):
            text.append("\nits earlier text, kept as history: " + visible(parsed["replaced"]))
        for item in parsed.get("replaced_under_other_keys") or []:
            if isinstance(item, dict):
                text.append("\nreplaced, kept as history: ")
                text.append_text(_line(item))
        for item in parsed.get("still_in_effect_and_differs") or []:
            if isinstance(item, dict):
                text.append("\nstill in effect, and says otherwise: ")
                text.append_text(_line(item))
        return text
    if parsed.get("removed") is True and isinstance(parsed.get("key"), str):
        text = Text("forgot " + visible(parsed["key"]) + _earlier(parsed))
        for item in _back_in_effect(parsed):
            text.append("\nwhat it had replaced, in effect again: ")
            text.append_text(_line(item))
        return text
    return None

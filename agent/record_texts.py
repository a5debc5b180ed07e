"""The texts in a chat file's records, apart from the fields that name or date them.

Redaction (`agent.sessions`) and erasure (`agent.session_scrub`) both change every text of
a record and leave its names and dates alone: an adversary's erase of a fact holding
"2026" turned every chat's id and date into "[erased]-12-04…" and lost them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

RECORD_FIELDS = frozenset(
    "type id entry_id superseded_by created_at updated_at timestamp at keep mode role model "
    "tool tool_name tool_call_id stopped error degraded session_id namespace category lane".split()
)
"""Fields naming or dating a record, never its text."""


def each_text(value: Any, change: Callable[[str], str], keep: frozenset[str]) -> Any:
    """`value` (a decoded JSON record) with `change` applied to every string in it.

    The values of the fields in `keep` stay as they are, at any depth.
    """
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [each_text(item, change, keep) for item in value]
    if isinstance(value, dict):
        return {
            key: item if key in keep else each_text(item, change, keep)
            for key, item in value.items()
        }
    return value

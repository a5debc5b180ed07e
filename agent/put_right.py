"""A recalled memory that a later correction puts right is shown so, whatever it gives.

Found by an adversary: "My gym locker is number 42", then "no wait, it's 24"; "I take
metoprolol 50mg every morning", then "actually it's 100mg, not 50". The correction names
nothing of what it corrects, so no rule of values or of days read it, and "what's my
locker number?" gave 42 alone, unmarked. A correction that names nothing is read against
the message said just before it, or a fact kept between (`memory.corrections`); a day put
right is the events' own (`agent.events_moved`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from agent.change_notes import kept_as_is, saying, written

if TYPE_CHECKING:
    from memory.entry import MemoryEntry


def put_right(
    recalled: list[MemoryEntry], newest: list[MemoryEntry], corrects: Mapping[str, str]
) -> dict[str, str]:
    """Each recalled memory's id → a note naming the later correction that puts it right.

    `corrects`: each correction among `newest` → what it puts right
    (`memory.corrections.the_ones_corrected`).
    """
    if not corrects:
        return {}
    by_id = {entry.id: entry for entry in newest}
    recalled_by_id = {entry.id: entry for entry in recalled}
    notes: dict[str, str] = {}
    for correction_id, corrected_id in corrects.items():
        correction = by_id.get(correction_id)
        corrected = recalled_by_id.get(corrected_id)
        if correction is None or corrected is None or corrected.pinned or kept_as_is(corrected):
            continue
        if written(correction) <= written(corrected):
            continue
        latest = notes.get(corrected.id)
        if latest is None or written(by_id[latest]) < written(correction):
            notes[corrected.id] = correction.id
    return {
        entry_id: f"since changed: {saying(by_id[correction_id], recalled_by_id[entry_id].content)}"
        for entry_id, correction_id in notes.items()
    }

"""The ids of memories erased for good, so that an import does not bring them back unasked.

Found by an adversary: after `memchat memory forget KEY --erase` ("it cannot be restored"),
importing the export made before it brought the storage unit's code, a wifi password and
a table of 2FA codes back into effect, with no word said. The ids are random and say
nothing of what was erased; the texts themselves are kept nowhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from memory.files import write_private

LEDGER = "erased-ids"
"""The file in the data folder: one id a line."""


def erased_ids(data: Path) -> frozenset[str]:
    """The ids erased in the stores of the data folder `data` (none if it cannot be read)."""
    try:
        text = (data / LEDGER).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


def note_erased(data: Path, ids: Iterable[str]) -> None:
    """Add `ids` to the ledger, written whole to a temporary file and renamed over it."""
    held = erased_ids(data)
    new = set(ids) - held
    if new:
        write_private(data / LEDGER, "".join(f"{entry_id}\n" for entry_id in sorted(held | new)))

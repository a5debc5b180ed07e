"""Forgetting for good: the audit records that would let a forgotten memory be restored.

A forget keeps what it deleted in the audit log, so `restore` can bring it back. Found by a
new user: a door code stored and then forgotten was still listed by `memchat memory
audit`. `memchat memory forget KEY --erase` also removes the records of every version of
the key, and of what was deleted with them, so the store keeps nothing of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memory.protocol import AuditRecord, Lifecycle

_PAGE = 500


async def forgotten_records(lifecycle: Lifecycle, key: str, namespace: str) -> list[AuditRecord]:
    """The audit records of `key`'s deleted versions, and of what each deletion took along."""
    records: list[AuditRecord] = []
    offset = 0
    while page := await lifecycle.audit_log(limit=_PAGE, offset=offset, namespace=namespace):
        records += page
        offset += len(page)
    # What a forget of the key deleted with it (its history, the messages it was made
    # from) shares that forget's time; a hygiene run deletes many unrelated memories at
    # one time, so only the key's own records of it count.
    forgets = {r.at for r in records if r.key == key and r.action == "forget"}
    return [r for r in records if r.key == key or (r.action == "forget" and r.at in forgets)]


async def erase_forgotten(lifecycle: Lifecycle, key: str, namespace: str) -> int:
    """Erase the audit records `forgotten_records` names; how many went."""
    records = await forgotten_records(lifecycle, key, namespace)
    if not records:
        return 0
    return await lifecycle.erase_records([record.entry_id for record in records])

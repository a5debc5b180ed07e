"""Secrets in the saved messages of an export file, redacted as a typed message is.

Found by an adversary: a file holding `"category": "conversation", "content": "my password
is hunter2Secret and PPS 1234567TA"` (a hand-made file, or one from an older memchat) was
imported as it was, and the model was shown the password and the PPS number beside later
questions, where the README promises a saved message is only ever what you said, redacted.
Facts are left as they are: a fact keeps what it was asked to keep.
"""

from __future__ import annotations

from agent.redact import redact
from agent.said_secrets import SaidSecrets
from memory.records import MemoryRecord

_CONVERSATION = "conversation"


def redacted_messages(records: list[MemoryRecord]) -> tuple[list[MemoryRecord], int]:
    """`records` with each saved message's secrets redacted, and how many held one.

    A message redacted loses its stored vector: it was made of the secret's text, and is
    made again from what is kept.
    """
    # Each chat's messages read in turn, as typed: "Il PIN della carta è", then "4821",
    # was kept on import where the chat redacted it (an adversary).
    chats: dict[str | None, SaidSecrets] = {}
    said_in_order = sorted(
        (at for at, record in enumerate(records) if record.category == _CONVERSATION),
        key=lambda at: (records[at].session_id or "", records[at].timestamp),
    )
    clean: dict[int, tuple[str, list[str]]] = {}
    for at in said_in_order:
        record = records[at]
        secrets = chats.setdefault(record.session_id, SaidSecrets())
        clean[at] = secrets.redact(record.content) if record.session_id else redact(record.content)
    redacted = 0
    kept: list[MemoryRecord] = []
    for at, record in enumerate(records):
        content, kinds = clean.get(at, (record.content, []))
        if kinds:
            record = record.model_copy(update={"content": content, "embedding": None})
            redacted += 1
        kept.append(record)
    return kept, redacted

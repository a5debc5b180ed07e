"""What a turn recalls for the message, and the block shown to the model before it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime

from agent.chat_recall import asked, history_room, recall_query, said_in_this_chat
from agent.config import Config
from agent.corrections_alone import corrections_alone
from agent.days_put_right import days_put_right
from agent.events import MemoryRecalled, Notice
from agent.history import trim_history
from agent.injection import InjectionBudget, recall_for_message, render, select
from agent.sessions import Session
from agent.since_changed import since_changed
from agent.turn_state import last_user_index
from memory.entry import MemoryEntry, RecallResult
from memory.errors import MemoryStoreError
from memory.protocol import Memory


@dataclass(frozen=True)
class RecallSetting:
    """What recall for a turn reads beside the message: where, when and how much room."""

    memory: Memory
    config: Config
    namespace: str
    now: datetime
    num_ctx: int


async def recall_for_turn(
    setting: RecallSetting,
    text: str,
    session: Session,
    saved: MemoryEntry | Notice | None,
    resend: bool,
) -> tuple[MemoryRecalled, str]:
    """The memories recalled for `text` and the block of them the model is shown."""
    memory, config, namespace = setting.memory, setting.config, setting.namespace
    exclude = [saved.id] if isinstance(saved, MemoryEntry) and saved.id else []
    answering = last_user_index(session.messages)
    # A message answered again has no fresh copy to exclude by id; its saved copy is
    # cut as "already in conversation" instead.
    live = [m for i, m in enumerate(session.messages) if resend or i != answering]
    # Only what the model will have in front of it: a long chat's older messages are
    # trimmed from the request, and recall is how they come back (found by an
    # adversary: "my bike lock code is 7312" was neither sent nor recalled).
    live = trim_history(live, config.agent.max_history_messages, history_room(setting.num_ctx))
    in_this_chat = await said_in_this_chat(memory, namespace, session, live)
    exclude += in_this_chat
    scope = None if config.agent.recall_across_sessions else session.id
    result = await _recall_or_say_why(
        memory, recall_query(text, session), config.memory.recall_limit, scope, exclude, namespace
    )
    agent = config.agent
    budget = InjectionBudget(
        agent.inject_max_entries, agent.inject_max_entry_chars, agent.inject_max_total_chars
    )
    # On threads, as the comparisons of `since_changed`: a recalled page pasted earlier
    # is read for its secrets and the part asked about, and the screen stood still.
    injected, cut = await asyncio.to_thread(
        select, result, budget, session.id, live, asked(text, session)
    )
    injected, alone = corrections_alone(injected, text)
    cut += alone
    changed = await since_changed(memory, injected, namespace, setting.now)
    # What holds first: an old message recalled at 1.0 stood above the fact that changed
    # it ("Müller pays 0,10 €" above the 0,11 € fact: a new user).
    injected.sort(key=lambda entry: entry.id in changed)
    put_right = await days_put_right(memory, injected, namespace)
    block = await asyncio.to_thread(render, injected, setting.now, budget, changed, text, put_right)
    limit = config.memory.recall_limit
    recalled = MemoryRecalled(
        injected,
        cut,
        result.mode,
        result.degraded,
        result.calibration,
        changed,
        limit if result.mode != "recent" and len(result.entries) >= limit else 0,
        len(set(in_this_chat) - {saved.id if isinstance(saved, MemoryEntry) else ""}),
    )
    return recalled, block


async def _recall_or_say_why(
    memory: Memory,
    query: str,
    limit: int,
    scope: str | None,
    exclude: list[str],
    namespace: str,
) -> RecallResult:
    """Recall; a failure is told on the recall line, and the turn goes on without it."""
    try:
        return await recall_for_message(
            memory, query, limit, scope, exclude_ids=exclude, namespace=namespace
        )
    except MemoryStoreError as exc:
        return RecallResult(entries=[], mode="off", degraded=f"recall failed: {exc}")
    except OSError:
        raise  # the disk: saving fails too, and the turn says so
    except Exception as exc:  # noqa: BLE001 - a fault in recall must not stop the chat
        # Found by a new user: a query recall could not read ("gym tue 6:30am") failed
        # every turn it was in, so that message could not be told to the model at all.
        return RecallResult(
            entries=[],
            mode="off",
            degraded=f"recall failed (a bug; please report it): {type(exc).__name__}: {exc}",
        )

"""What a saved message does to the facts once its reply is in: folds, changes, take-backs."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator
from dataclasses import dataclass

from agent.after_turn import fold_into_facts
from agent.config import Config
from agent.edited_changes import undo_said_changes
from agent.events import MemorySaved, Notice, TurnEvent
from agent.said_changes import said_changes
from agent.sessions import Session, SessionStore
from agent.taken_back import takes_back_the_last
from agent.unkept_secrets import unkept_secret_notice
from memory.entry import MemoryEntry
from memory.protocol import Memory


@dataclass(frozen=True)
class MessageFacts:
    """The facts a message touches, in one memory namespace."""

    memory: Memory
    sessions: SessionStore
    config: Config
    namespace: str

    async def of_the_message(
        self, saved: MemoryEntry | None, facts: list[MemoryEntry], session: Session
    ) -> AsyncGenerator[TurnEvent, None]:
        """The message folded into the facts the model stored, or the facts it changes.

        And what the chat says of a secret the message gave that nothing keeps.
        """
        folded = await fold_into_facts(
            self.memory, saved, facts, session_id=session.id, namespace=self.namespace
        )
        if folded is not None:
            yield MemorySaved(folded)  # what the inspector shows changed
            return
        if facts:
            return
        updating = self.config.agent.update_facts_from_messages
        if updating:
            # Not saved is no matter: "jk" alone is small talk, and takes the last back.
            async for event in self._taken_back(session):
                yield event
        if saved is None:
            return
        told_of_secrets = False
        if updating:
            async for event in self._said_changes(saved, session):
                told_of_secrets |= isinstance(event, Notice) and "[REDACTED:" in event.text
                yield event
        values = session.secrets.last_values
        unkept = await unkept_secret_notice(self.memory, self.namespace, saved, values)
        if unkept is not None and not told_of_secrets:
            yield unkept

    async def _taken_back(self, session: Session) -> AsyncGenerator[TurnEvent, None]:
        """What the message before changed, put back when this one takes it back."""
        said = [m.content for m in session.messages if m.role == "user"]
        if len(said) < 2 or not takes_back_the_last(said[-1]):
            return
        before = said[-2]
        undone = await undo_said_changes(
            self.memory, self.namespace, session, before, taken_back=True
        )
        if undone:
            note = (
                f"You took back your last message: {', '.join(repr(f.key) for f in undone)} "
                "is back as it was before it."
            )
            with contextlib.suppress(OSError):  # said in the chat all the same
                await self.sessions.keep_note(session, note)
            yield Notice(note, "info")

    async def _said_changes(
        self, saved: MemoryEntry, session: Session
    ) -> AsyncGenerator[TurnEvent, None]:
        """The facts the message changed; what is said of them is kept with the chat."""
        for event in await said_changes(self.memory, saved, session.id, self.namespace):
            if isinstance(event, Notice):
                with contextlib.suppress(OSError):  # said in the chat all the same
                    await self.sessions.keep_note(session, event.text)
            yield event

"""`Agent.turn` ends in `TurnFinished` or `TurnFailed`, whatever breaks underneath it."""

from __future__ import annotations

import asyncio
import errno
from collections.abc import Callable
from typing import Any

import pytest

from agent.events import MemoryRecalled, TextDelta, TurnFailed, TurnFinished
from agent.messages import ChatMessage
from agent.sessions import Session
from agent.testing import Reply, call
from memory.errors import MemoryStoreError
from tests.unit.agent.conftest import Harness


class FullDisk:
    """Stands in for the session store's file writes: fails with ENOSPC while `full`."""

    def __init__(self, harness: Harness, *, fail_from: int = 1) -> None:
        self.real = harness.sessions._write
        self.calls = 0
        self.fail_from = fail_from
        self.full = True
        harness.sessions._write = self  # type: ignore[method-assign]

    def __call__(
        self, session: Session, messages: list[ChatMessage], marker: dict[str, Any] | None = None
    ) -> None:
        self.calls += 1
        if self.full and self.calls >= self.fail_from:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.real(session, messages, marker)


def on_disk(h: Harness) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in h.sessions.load(h.session.id).messages]


async def test_a_reply_that_cannot_be_saved_fails_the_turn_and_stays_in_ram(
    harness: Harness,
) -> None:
    disk = FullDisk(harness, fail_from=2)  # the user's message fits, the reply does not
    harness.model.add("A reply that streamed completely.")
    events = await harness.turn("Tell me something worth keeping")
    assert isinstance(events[-1], TurnFailed)
    failure = events[-1]
    assert failure.error == "storage_full" and "No space left on device" in failure.message
    assert "".join(e.text for e in events if isinstance(e, TextDelta)).startswith("A reply")
    assert [(m.role, m.content) for m in harness.session.messages] == [
        ("user", "Tell me something worth keeping"),
        ("assistant", "A reply that streamed completely."),
    ]
    assert on_disk(harness) == [("user", "Tell me something worth keeping")]
    # Room again: the next message brings the reply that waited along, in order.
    disk.full = False
    harness.model.add("Glad to.")
    assert isinstance((await harness.turn("Thanks"))[-1], TurnFinished)
    assert on_disk(harness) == [
        ("user", "Tell me something worth keeping"),
        ("assistant", "A reply that streamed completely."),
        ("user", "Thanks"),
        ("assistant", "Glad to."),
    ]


async def test_a_message_that_cannot_be_saved_is_kept_and_retried(harness: Harness) -> None:
    disk = FullDisk(harness)
    events = await harness.turn("Remember the plumber comes on Friday")
    assert isinstance(events[-1], TurnFailed) and events[-1].error == "storage_full"
    assert harness.model.requests == []  # not sent: its reply could not be saved either
    assert [m.content for m in harness.session.messages] == ["Remember the plumber comes on Friday"]
    assert "nor kept in memory" in events[-1].message
    # As the app does: the message goes back to the prompt, and (found by an adversary:
    # "not sent", yet kept) its auto-saved copy leaves memory. Nothing is written for it.
    assert await harness.agent.withdraw_unanswered(
        "Remember the plumber comes on Friday", harness.session
    )
    assert harness.session.messages == [] and harness.session.unsaved == []
    assert [e.content async for e in harness.memory.export()] == []
    disk.full = False
    harness.model.add("Friday it is.")
    events = await harness.turn("Remember the plumber comes on Friday")
    assert isinstance(events[-1], TurnFinished)
    copies = [e.content async for e in harness.memory.export()]
    assert copies == ["Remember the plumber comes on Friday"]
    assert on_disk(harness) == [
        ("user", "Remember the plumber comes on Friday"),
        ("assistant", "Friday it is."),
    ]


async def test_a_failing_save_while_the_turn_is_cancelled_raises_nothing_new(
    harness: Harness,
) -> None:
    FullDisk(harness, fail_from=2)
    hold = asyncio.Event()
    harness.model.add(Reply("Partial reply that never ends", hold=hold))
    streamed: list[str] = []

    async def consume() -> None:
        async for event in harness.agent.turn("Start a long answer", harness.session):
            if isinstance(event, TextDelta):
                streamed.append(event.text)

    task = asyncio.create_task(consume())
    while not streamed:
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The save failed, and the part that streamed is still in the conversation.
    assert harness.session.messages[-1].content == "".join(streamed)
    assert harness.session.messages[-1].stopped
    assert harness.session.unsaved == harness.session.messages[-1:]


async def test_closing_the_stream_early_raises_nothing_when_the_save_fails(
    harness: Harness,
) -> None:
    FullDisk(harness, fail_from=2)
    harness.model.add("A reply the reader stops reading.")
    stream = harness.agent.turn("Hello there, how are you?", harness.session)
    async for event in stream:
        if isinstance(event, TextDelta):
            break
    await stream.aclose()
    assert harness.session.messages[-1].role == "assistant"


def _raising(exc: BaseException) -> Callable[..., Any]:
    async def fail(*args: Any, **kwargs: Any) -> Any:
        raise exc

    return fail


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        # Recall degrades instead: the message is answered without memories, said so.
        (RuntimeError("index went away"), None),
        (KeyError("score"), None),
        (MemoryStoreError("the store broke mid-read"), None),
        (OSError(errno.EIO, "Input/output error"), "storage_error"),
    ],
)
async def test_a_recall_that_raises_something_unexpected(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, exc: Exception, code: str | None
) -> None:
    monkeypatch.setattr(harness.memory, "recall", _raising(exc))
    harness.model.add("Answer without memories.")
    events = await harness.turn("What do you remember about my garden?")
    last = events[-1]
    if code is None:
        assert isinstance(last, TurnFinished)
        recalled = next(e for e in events if isinstance(e, MemoryRecalled))
        assert recalled.degraded is not None and "recall failed" in recalled.degraded
        reply = "".join(e.text for e in events if isinstance(e, TextDelta))
        assert reply == "Answer without memories."
    else:
        assert isinstance(last, TurnFailed) and last.error == code
        assert "kept" in last.message
    # The message was saved before recall: retrying it loses nothing.
    assert harness.session.messages[0].content == "What do you remember about my garden?"
    assert on_disk(harness)[0] == ("user", "What do you remember about my garden?")


async def test_an_auto_save_that_raises_something_unexpected(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(harness.memory, "store_with_metadata", _raising(ValueError("bad row")))
    events = await harness.turn("A message the store chokes on")
    assert isinstance(events[-1], TurnFailed)
    assert events[-1].error == "internal_error" and "ValueError: bad row" in events[-1].message


async def test_a_tool_that_raises_something_unexpected_keeps_the_reply(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(harness.memory, "list", _raising(ZeroDivisionError("oops")))
    harness.model.add(Reply("Let me look.", tool_calls=[call("memory_list")]))
    events = await harness.turn("List everything you know about me")
    assert isinstance(events[-1], TurnFailed)
    assert harness.session.messages[-1].content == "Let me look."
    assert on_disk(harness)[-1] == ("assistant", "Let me look.")


async def test_cancellation_is_not_turned_into_a_failure(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(harness.memory, "recall", _raising(asyncio.CancelledError()))
    with pytest.raises(asyncio.CancelledError):
        await harness.turn("Anything at all, really")


async def test_session_writes_run_off_the_event_loop(harness: Harness) -> None:
    import threading

    loop_thread = threading.get_ident()
    writers: list[int] = []
    real = harness.sessions._write

    def recording(
        session: Session, messages: list[ChatMessage], marker: dict[str, Any] | None = None
    ) -> None:
        writers.append(threading.get_ident())
        real(session, messages, marker)

    harness.sessions._write = recording  # type: ignore[method-assign]
    harness.model.add("Noted.")
    assert isinstance((await harness.turn("The plumber comes on Friday"))[-1], TurnFinished)
    assert len(writers) == 2 and loop_thread not in writers
    assert on_disk(harness) == [("user", "The plumber comes on Friday"), ("assistant", "Noted.")]

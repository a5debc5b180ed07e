"""Editing the last message: it and its reply leave the conversation, not the history."""

from __future__ import annotations

import errno
import json
from typing import Any

import pytest

from agent.events import MemorySaved, Notice, TurnFailed, TurnFinished
from agent.messages import ChatMessage
from agent.sessions import SessionStore
from tests.unit.agent.conftest import Harness


def _pairs(messages: list[ChatMessage]) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in messages]


async def test_an_edit_replaces_the_last_turn_and_keeps_the_old_one_as_history(
    make_harness: Any,
) -> None:
    h: Harness = await make_harness(memory__embedding_provider="none")
    h.model.add("Hello Ana.", "Porto is lovely.", "Lisbon is lovely.")
    await h.turn("Hi, my name is Ana and I like long walks")
    await h.turn("I live in Porto, the city by the river")
    events = [
        e async for e in h.agent.turn("I live in Lisbon, the city of hills", h.session, edit=True)
    ]
    assert isinstance(events[-1], TurnFinished)
    expected = [
        ("user", "Hi, my name is Ana and I like long walks"),
        ("assistant", "Hello Ana."),
        ("user", "I live in Lisbon, the city of hills"),
        ("assistant", "Lisbon is lovely."),
    ]
    assert _pairs(h.session.messages) == expected
    # The model never saw the replaced message or its reply.
    sent = _pairs(h.model.requests[-1].messages)
    assert ("user", "I live in Porto, the city by the river") not in sent
    assert ("assistant", "Porto is lovely.") not in sent
    # The file keeps everything; read back, the conversation is the edited one.
    loaded = h.sessions.load(h.session.id)
    assert _pairs(loaded.messages) == expected
    assert _pairs(loaded.replaced) == [
        ("user", "I live in Porto, the city by the river"),
        ("assistant", "Porto is lovely."),
    ]
    # Memory: the new message's copy replaced the old one's, which stays restorable.
    saved = next(e.entry for e in events if isinstance(e, MemorySaved))
    history = await h.memory.list(category="conversation", include_superseded=True)
    old = next(e for e in history if e.content.startswith("I live in Porto"))
    assert old.superseded_by == saved.id
    active = await h.memory.list(category="conversation")
    assert not any(e.content.startswith("I live in Porto") for e in active)


async def test_an_edit_the_disk_cannot_record_changes_nothing(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.model.add("Noted.")
    await harness.turn("The plumber comes on Friday morning")
    before = _pairs(harness.session.messages)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(harness.sessions, "_write", full)
    events = [
        e
        async for e in harness.agent.turn("The plumber comes on Monday", harness.session, edit=True)
    ]
    assert isinstance(events[-1], TurnFailed) and events[-1].error == "storage_full"
    assert "your edit" in events[-1].message.lower()
    assert _pairs(harness.session.messages) == before
    assert harness.session.replaced == []


def test_damaged_rewind_records_are_ignored(tmp_path: Any) -> None:
    store = SessionStore(tmp_path)
    session = store.new()
    store.append(session, [ChatMessage(role="user", content=f"m{i}") for i in range(3)])
    path = tmp_path / f"{session.id}.jsonl"
    with path.open("a", encoding="utf-8") as stream:
        for keep in ("x", -1, True, None, 1.5, [1]):
            stream.write(json.dumps({"type": "rewind", "keep": keep}) + "\n")
        stream.write(json.dumps({"type": "rewind"}) + "\n")
    session = store.load(session.id)  # as it is now (written to from outside)
    assert [m.content for m in session.messages] == ["m0", "m1", "m2"]
    store.rewind(session, 1)
    loaded = store.load(session.id)
    assert [m.content for m in loaded.messages] == ["m0"]
    assert [m.content for m in loaded.replaced] == ["m1", "m2"]
    with pytest.raises(ValueError, match="cannot keep"):
        store.rewind(session, 5)


async def test_an_edit_says_what_the_replaced_turn_stored(harness: Harness) -> None:
    from agent.events import Notice
    from agent.testing import Reply, call

    harness.model.add(
        Reply(tool_calls=[call("memory_store", key="bird", content="The bird is Kiwi")]),
        "Stored.",
        "Here is a joke.",
    )
    await harness.turn("Remember that my bird is called Kiwi")
    events = [e async for e in harness.agent.turn("Tell me a joke", harness.session, edit=True)]
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("'bird'" in text and "unless the new message changes it" in text for text in notices)
    assert await harness.memory.get("bird") is not None  # told, not silently undone


async def test_an_edits_notice_names_the_key_a_merged_fact_was_kept_under(
    harness: Harness,
) -> None:
    """The key asked for held nothing: the fact was merged into a near-duplicate's."""
    from agent.testing import Reply, call

    await harness.memory.store("bird_name", "My bird is called Kiwi and she is green", "core")
    harness.model.add(
        Reply(
            tool_calls=[
                call("memory_store", key="pet", content="My bird is called Kiwi and she's green")
            ]
        ),
        "Stored.",
        "Here is a joke.",
    )
    await harness.turn("Remember that my bird is called Kiwi and she's green")
    assert await harness.memory.get("pet") is None
    events = [e async for e in harness.agent.turn("Tell me a joke", harness.session, edit=True)]
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("'bird_name'" in text for text in notices), notices
    assert not any("'pet'" in text for text in notices)


async def test_an_edit_nothing_answered_can_be_undone(make_harness: Any) -> None:
    from agent.model import ServerUnavailableError
    from agent.testing import Reply

    h: Harness = await make_harness()
    h.model.add("Porto is lovely.", Reply(error=ServerUnavailableError("http://127.0.0.1:1")))
    await h.turn("I live in Porto, the city by the river")
    original = _pairs(h.session.messages)
    events = [
        e async for e in h.agent.turn("I live in Lisbon, the city of hills", h.session, edit=True)
    ]
    assert isinstance(events[-1], TurnFailed)
    assert await h.agent.undo_edit(h.session)
    assert _pairs(h.session.messages) == original
    assert _pairs(h.sessions.load(h.session.id).messages) == original
    active = await h.memory.list(category="conversation")
    assert [e.content for e in active] == ["I live in Porto, the city by the river"]
    assert not await h.agent.undo_edit(h.session)  # once only


async def test_an_undone_edit_of_a_folded_message_leaves_nothing_recalled(
    make_harness: Any,
) -> None:
    """Found by an adversary: the first message was folded into its fact, so undoing the
    edit had no old copy to bring back and left the withdrawn text in memory."""
    from agent.model import ServerUnavailableError
    from agent.testing import Reply, call

    h: Harness = await make_harness()
    h.model.add(
        Reply(tool_calls=[call("memory_store", key="dentist", content="Dentist on Thursday at 9")]),
        "Noted.",
        Reply(error=ServerUnavailableError("http://127.0.0.1:1")),
    )
    await h.turn("remember my dentist is on Thursday at 9")
    events = [
        e async for e in h.agent.turn("my dentist moved to Friday at 11", h.session, edit=True)
    ]
    assert isinstance(events[-1], TurnFailed)
    assert await h.agent.undo_edit(h.session)
    active = await h.memory.list(namespace=None)
    assert [e.content for e in active] == ["Dentist on Thursday at 9"]


async def test_an_edit_into_a_command_takes_the_replaced_message_out_of_memory(
    make_harness: Any,
) -> None:
    """Found by a new user: "^/remember Müller job …" corrected by an edit into the command
    kept its auto-saved copy in effect, recalled in every later chat."""
    h: Harness = await make_harness(memory__embedding_provider="none")
    h.model.add("Noted.")
    await h.turn("^/remember Müller job: user manual, due 18.12.2026")
    events = [
        e
        async for e in h.agent.turn(
            "/remember Müller job: user manual, due 18.12.2026", h.session, edit=True
        )
    ]
    assert not any(isinstance(e, TurnFailed) for e in events)
    said = [e.content for e in await h.memory.list(namespace=None)]
    assert not any(text.startswith("^") for text in said), said
    assert any(text.startswith("Müller job") for text in said), said
    found = await h.memory.recall("Müller job due")
    assert not any(e.content.startswith("^") for e in found.entries)


async def test_an_edit_into_a_short_message_takes_the_old_one_out_and_undo_brings_it_back(
    make_harness: Any,
) -> None:
    from agent.model import ServerUnavailableError
    from agent.testing import Reply

    h: Harness = await make_harness()
    h.model.add("Porto is lovely.", Reply(error=ServerUnavailableError("http://127.0.0.1:1")))
    await h.turn("I live in Porto, the city by the river")
    events = [e async for e in h.agent.turn("ok", h.session, edit=True)]
    assert isinstance(events[-1], TurnFailed)
    assert await h.memory.list(category="conversation") == []
    assert await h.agent.undo_edit(h.session)
    active = await h.memory.list(category="conversation")
    assert [e.content for e in active] == ["I live in Porto, the city by the river"]


@pytest.mark.parametrize("edited_into", ["what time is it", "/recall cat", "ok"])
async def test_an_edit_of_a_message_said_twice_keeps_the_first_ones_memory(
    make_harness: Any, edited_into: str
) -> None:
    """Found by an adversary: "My cat is called Biscuit", sent twice and stored once, left
    memory when the second was edited into another question (superseded by its copy),
    unsaid; the first message still stood in the conversation."""
    h: Harness = await make_harness(memory__embedding_provider="none")
    h.model.add("Hello Biscuit.", "Biscuit again.", "It is noon.")
    await h.turn("My cat is called Biscuit")
    await h.turn("My cat is called Biscuit")
    events = [e async for e in h.agent.turn(edited_into, h.session, edit=True)]
    assert not any(isinstance(e, TurnFailed) for e in events)
    active = [e.content for e in await h.memory.list(category="conversation")]
    assert "My cat is called Biscuit" in active
    found = await h.memory.recall("what is my cat called")
    assert any(e.content == "My cat is called Biscuit" for e in found.entries)


async def test_an_edit_after_another_window_wrote_to_the_chat_cuts_nothing(
    make_harness: Any,
) -> None:
    """Found by an adversary: one chat open in two windows, the second sent a message, and
    an edit in the first cut that turn from the chat (its rewind counts messages)."""
    h: Harness = await make_harness(memory__embedding_provider="none")
    h.model.add("Kiwi is a fine name.")
    await h.turn("My parrot is called Kiwi")
    other = h.sessions.load(h.session.id)  # the second window
    h.sessions.append(other, [ChatMessage(role="user", content="My hamster is called Pip")])
    events = [e async for e in h.agent.turn("My parrot is called Rio", h.session, edit=True)]
    failed = events[-1]
    assert isinstance(failed, TurnFailed) and failed.error == "chat_changed"
    assert "another memchat window" in failed.message
    contents = [m.content for m in h.sessions.load(h.session.id).messages]
    assert contents[-1] == "My hamster is called Pip"
    assert "My parrot is called Kiwi" in contents and "My parrot is called Rio" not in contents
    # Opened again, it is edited as usual.
    again = h.sessions.load(h.session.id)
    h.model.add("Rio it is.")
    edited = [e async for e in h.agent.turn("My hamster is called Pep", again, edit=True)]
    assert isinstance(edited[-1], TurnFinished)


async def test_a_fact_stored_again_by_the_edited_message_corrects_it(harness: Harness) -> None:
    """Found by a new user, a nurse: "remember breda off 24/12 …", edited into "… 23/12 …",
    kept both days as facts (the second beside the first as another one), the wrong one
    in effect."""
    from agent.testing import Reply, call

    harness.model.add(
        Reply(tool_calls=[call("memory_store", key="breda_off", content="Breda off 24/12")]),
        "Stored.",
        Reply(tool_calls=[call("memory_store", key="breda_off", content="Breda off 23/12")]),
        "Stored.",
        Reply(tool_calls=[call("memory_store", key="breda_off", content="Breda off 30/12")]),
        "Stored.",
    )
    await harness.turn("remember breda off 24/12 so colm minding kids")
    async for _event in harness.agent.turn(
        "remember breda off 23/12 so colm minding kids", harness.session, edit=True
    ):
        pass
    active = [e.content for e in await harness.memory.list(limit=50) if e.category == "core"]
    assert active == ["Breda off 23/12"]
    # A later message, no edit: another day off is another one, kept beside.
    await harness.turn("remember breda off 30/12 too")
    active = [e.content for e in await harness.memory.list(limit=50) if e.category == "core"]
    assert sorted(active) == ["Breda off 23/12", "Breda off 30/12"]


async def _facts(harness: Harness) -> list[str]:
    return [e.content for e in await harness.memory.list(limit=50) if e.category == "core"]


async def test_an_edit_puts_back_the_facts_the_replaced_message_updated(harness: Harness) -> None:
    """Found by an adversary: "I moved to Lisbon", edited into "What if I moved to
    Lisbon?", left the home fact saying Lisbon."""
    await harness.memory.store("home", "I live in Porto", "core")
    harness.model.add("Lisbon, lovely.", "It would be lovely.")
    await harness.turn("I moved to Lisbon")
    assert await _facts(harness) == ["I moved to Lisbon"]
    events = [
        e
        async for e in harness.agent.turn("What if I moved to Lisbon?", harness.session, edit=True)
    ]
    assert await _facts(harness) == ["I live in Porto"]
    assert any(isinstance(e, Notice) and "'home'" in e.text for e in events)


async def test_an_undone_edit_brings_back_the_facts_the_replaced_message_updated(
    make_harness: Any,
) -> None:
    from agent.model import ServerUnavailableError
    from agent.testing import Reply

    h: Harness = await make_harness()
    await h.memory.store("home", "I live in Porto", "core")
    h.model.add("Braga, nice.", Reply(error=ServerUnavailableError("http://127.0.0.1:1")))
    await h.turn("I moved to Braga")
    assert await _facts(h) == ["I moved to Braga"]
    events = [e async for e in h.agent.turn("What if I moved to Faro?", h.session, edit=True)]
    assert isinstance(events[-1], TurnFailed)
    assert await _facts(h) == ["I live in Porto"]
    assert await h.agent.undo_edit(h.session)
    assert await _facts(h) == ["I moved to Braga"]

"""An open chat stops sending what an erase took out of its file.

Found by an adversary: after `memchat memory forget dog --erase` (another process) took
"Rex" out of the chat's file, the open app still sent "My dog is called Rex" to the model
with every message, from the conversation it held in RAM.
"""

from __future__ import annotations

from agent.events import Notice, TurnFinished
from agent.session_scrub import scrub_sessions
from tests.unit.agent.conftest import Harness


async def test_the_next_turn_sends_the_conversation_as_the_file_now_holds_it(
    harness: Harness,
) -> None:
    harness.model.add("Noted: My dog is called Rex.")
    await harness.turn("My dog is called Rex")
    assert scrub_sessions(harness.sessions.directory, ["My dog is called Rex"]).changed
    harness.model.add("Why did the chicken cross the road?")
    events = await harness.turn("tell me a joke please")
    assert isinstance(events[-1], TurnFinished)
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("written anew elsewhere" in text for text in notices)
    sent = "\n".join(m.content for m in harness.model.requests[-1].messages)
    assert "My dog is called Rex" not in sent and "tell me a joke please" in sent
    # Nothing else changed: the next turn is told nothing more.
    harness.model.add("Another one?")
    later = await harness.turn("ha")
    assert not [e for e in later if isinstance(e, Notice) and "anew" in e.text]


async def test_a_chat_an_erase_rewrote_keeps_its_place_in_the_chat_list(
    harness: Harness,
) -> None:
    """Found by a new user: every chat an erase rewrote showed the erase's time in the
    chat list and jumped to its top."""
    import os

    harness.model.add("Noted.")
    await harness.turn("My dog is called Rex")
    path = next(p for p in harness.sessions.directory.rglob("*.jsonl") if p.is_file())
    os.utime(path, (1_700_000_000, 1_700_000_000))
    assert scrub_sessions(harness.sessions.directory, ["My dog is called Rex"]).changed
    assert path.stat().st_mtime == 1_700_000_000
    assert "Rex" not in path.read_text(encoding="utf-8")

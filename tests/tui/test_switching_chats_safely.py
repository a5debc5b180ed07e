"""Switching chats never pulls a chat from under a running reply or a pending edit."""

from __future__ import annotations

import asyncio

from agent.messages import ChatMessage
from agent.testing import Reply, ScriptedModel
from tests.tui.conftest import MakeApp, settle
from tests.tui.test_chat import send
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.prompt_input import PromptInput


async def test_switching_chats_during_a_reply_is_refused_and_the_queue_kept(
    make_app: MakeApp,
) -> None:
    hold = asyncio.Event()
    model = ScriptedModel(
        [Reply("A long reply that goes on", hold=hold), "Second reply."], name="qwen3:8b"
    )
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        older = h.runtime.sessions.new()
        h.runtime.sessions.append(older, [ChatMessage(role="user", content="An older chat")])
        current = h.runtime.session.id
        prompt = h.app.query_one(PromptInput)
        prompt.text = "Tell me a long story"
        await pilot.press("enter")
        while not h.app.query(AssistantMessage) or not h.app.query_one(AssistantMessage).text:
            await pilot.pause()
        prompt.text = "and then a queued question"
        await pilot.press("enter")
        h.app.action_switch_session()  # the picker is not offered mid-reply
        h.app.chats.resume(older.id)  # nor is a choice made before it started honoured
        h.app.action_new_session()
        await pilot.pause()
        assert h.runtime.session.id == current
        warnings = [n.message for n in h.app._notifications]
        # Three refusals, one notice: the same one still on screen is not raised again.
        assert sum("then switch chats" in w for w in warnings) == 1
        switching = [w for w in warnings if "then switch chats" in w]
        assert all("what you send before that goes to this chat" in w for w in switching)
        hold.set()
        await settle(pilot)
        assert h.app.is_running
        said = [m.content for m in h.runtime.sessions.load(current).messages if m.role == "user"]
        assert said == ["Tell me a long story", "and then a queued question"]


async def test_an_edit_does_not_follow_the_user_into_another_chat(make_app: MakeApp) -> None:
    h = make_app(ScriptedModel(["First answer.", "Answer in the other chat."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        other = h.runtime.sessions.new()
        h.runtime.sessions.append(
            other,
            [
                ChatMessage(role="user", content="Other chat question"),
                ChatMessage(role="assistant", content="Other chat answer", model="qwen3:8b"),
            ],
        )
        await send(pilot, "A question in this chat")
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        await pilot.press("up")
        assert prompt.editing
        h.app.chats.resume(other.id)
        await settle(pilot)
        assert h.runtime.session.id == other.id and not prompt.editing
        assert prompt.text == "A question in this chat"  # kept, as a new message
        await pilot.press("enter")
        await settle(pilot)
        said = [m.content for m in h.runtime.sessions.load(other.id).messages]
        # Nothing of the other chat was replaced: the text was sent as a new message.
        assert said[:2] == ["Other chat question", "Other chat answer"]
        assert said[2] == "A question in this chat"

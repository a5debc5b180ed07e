"""Esc before the first token: the message goes back to the input, and only there."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from agent.messages import ChatMessage, ToolSpec
from agent.model import DEFAULT_OPTIONS, ChatOptions, ModelChunk, ServerUnavailableError
from agent.testing import Reply, ScriptedModel
from tests.tui.conftest import MakeApp, settle
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.prompt_input import PromptInput
from tui.widgets.recalled_entry import RecalledEntry
from tui.widgets.reply_note import ReplyNote
from tui.widgets.user_message import UserMessage


class StallingModel(ScriptedModel):
    """Waits for `release` before the first chunk of its first reply (a model loading)."""

    __test__ = False

    def __init__(self, *replies: Reply | str) -> None:
        super().__init__(replies, name="qwen3:8b")
        self.asked = asyncio.Event()
        self.release = asyncio.Event()

    async def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[ToolSpec] = (),
        options: ChatOptions = DEFAULT_OPTIONS,
    ) -> AsyncIterator[ModelChunk]:
        """See `ChatModel.chat`; the first call stalls until released."""
        stall = not self.asked.is_set()
        self.asked.set()
        if stall:
            await self.release.wait()
        async for chunk in super().chat(messages, tools=tools, options=options):
            yield chunk


async def test_esc_before_the_first_token_takes_the_message_back(make_app: MakeApp) -> None:
    model = StallingModel("Yes, here.")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.text = "Are you there?"
        await pilot.press("enter")
        await model.asked.wait()
        await pilot.pause()
        assert [m.text for m in h.app.query(UserMessage)] == ["Are you there?"]
        await pilot.press("escape")
        await settle(pilot)
        assert prompt.text == "Are you there?"
        assert not h.app.query(UserMessage) and not h.app.query(RecalledEntry)
        assert not h.app.query(AssistantMessage)
        # Back in the prompt, so out of the chat file and of memory: what is on screen,
        # on disk and in memory agree (a chat reopened now does not show it).
        assert h.runtime.sessions.load(h.runtime.session.id).messages == []
        assert await h.runtime.memory.count() == 0
        # Sent again (or edited first), it is one message.
        prompt.text = "Are you there? My flight is at 9."
        await pilot.press("enter")
        await settle(pilot)
        assert [m.text for m in h.app.query(UserMessage)] == ["Are you there? My flight is at 9."]
        assert [m.text for m in h.app.query(AssistantMessage)] == ["Yes, here."]
        assert len(h.app.query(RecalledEntry)) == 1
        transcript = h.runtime.sessions.load(h.runtime.session.id).messages
        assert [(m.role, m.content) for m in transcript] == [
            ("user", "Are you there? My flight is at 9."),
            ("assistant", "Yes, here."),
        ]
        memories = await h.runtime.memory.list()
        assert [m.content for m in memories] == ["Are you there? My flight is at 9."]  # one copy


async def test_a_failed_turn_takes_the_message_back_and_a_retry_shows_it_once(
    make_app: MakeApp,
) -> None:
    h = make_app(
        ScriptedModel(
            [Reply(error=ServerUnavailableError("http://127.0.0.1:11434")), "Here now."],
            name="qwen3:8b",
        )
    )
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        h.app.query_one(PromptInput).text = "Please do not lose this"
        await pilot.press("enter")
        await settle(pilot)
        assert h.app.query_one(PromptInput).text == "Please do not lose this"
        assert not h.app.query(UserMessage) and not h.app.query(RecalledEntry)
        await pilot.press("enter")
        await settle(pilot)
        assert [m.text for m in h.app.query(UserMessage)] == ["Please do not lose this"]
        assert len(h.app.query(RecalledEntry)) == 1


async def test_a_resumed_unanswered_message_sent_again_keeps_its_one_bubble(
    make_app: MakeApp,
) -> None:
    # A message a dead server never answered stays in its chat (Esc takes one back).
    model = ScriptedModel(["Answered at last."], name="qwen3:8b")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        earlier = h.runtime.sessions.new()
        h.runtime.sessions.append(earlier, [ChatMessage(role="user", content="Still there?")])
        session = earlier.id
        h.app.chats.resume(session)
        await settle(pilot)
        assert [m.text for m in h.app.query(UserMessage)] == ["Still there?"]
        # Said under it, as a reopened chat shows it (found by an adversary: nothing did).
        notes = [str(n.render()) for n in h.app.query(ReplyNote)]
        assert any("stopped before it was answered" in note for note in notes)
        h.app.query_one(PromptInput).text = "Still there?"
        await pilot.press("enter")
        await settle(pilot)
        assert [m.text for m in h.app.query(UserMessage)] == ["Still there?"]
        assert [m.text for m in h.app.query(AssistantMessage)] == ["Answered at last."]
        assert not h.app.query(ReplyNote)  # answered now

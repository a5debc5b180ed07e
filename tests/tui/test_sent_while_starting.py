"""A message sent while memchat starts is sent once it is ready, alone.

Found by a new user: Enter during start-up left the message in the input with a toast,
and the next message she typed was sent with it, as one message and one memory.
"""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot

from agent.config import Config
from agent.model import ServerUnavailableError
from agent.runtime import Runtime
from tests.tui.conftest import MakeApp, settle
from tui.startup import StartUp
from tui.widgets.prompt_input import PromptInput
from tui.widgets.user_message import UserMessage


def _gated(startup: StartUp, gate: asyncio.Event) -> None:
    """Hold the start-up's runtime until `gate` is set."""
    factory = startup.runtime_factory

    async def held(config: Config) -> Runtime:
        await gate.wait()
        return await factory(config)

    startup.runtime_factory = held


async def _sent_while_starting(pilot: Pilot[None], prompt: PromptInput, text: str) -> None:
    prompt.focus()
    prompt.text = text
    await pilot.press("enter")
    await pilot.pause()


async def test_a_message_sent_while_starting_is_sent_once_ready(make_app: MakeApp) -> None:
    h = make_app()
    gate = asyncio.Event()
    _gated(h.app.startup, gate)
    h.model.add("Noted.", "Sure.")
    async with h.app.run_test(size=(120, 36)) as pilot:
        prompt = h.app.query_one(PromptInput)
        await _sent_while_starting(pilot, prompt, "Sent invoice #2027-003, due Feb 19")
        assert prompt.text == ""
        assert h.app.runtime is None
        prompt.text = "Sent invoice B-12"
        gate.set()
        await h.app.ready.wait()
        await settle(pilot)
        said = [m.text for m in h.app.query(UserMessage)]
        assert said == ["Sent invoice #2027-003, due Feb 19"]
        assert prompt.text == "Sent invoice B-12"
        await pilot.press("enter")
        await settle(pilot)
        said = [m.text for m in h.app.query(UserMessage)]
        assert said == ["Sent invoice #2027-003, due Feb 19", "Sent invoice B-12"]
        asked = [r.messages[-1].content for r in h.model.requests]
        assert [text.rsplit("\n", 1)[-1] for text in asked] == [
            "Sent invoice #2027-003, due Feb 19",
            "Sent invoice B-12",
        ]


async def test_with_no_model_to_answer_it_comes_back_to_the_input(make_app: MakeApp) -> None:
    h = make_app()
    h.model.failure = ServerUnavailableError("http://127.0.0.1:11434")
    gate = asyncio.Event()
    _gated(h.app.startup, gate)
    async with h.app.run_test(size=(120, 36)) as pilot:
        prompt = h.app.query_one(PromptInput)
        await _sent_while_starting(pilot, prompt, "call with Ferran thursday at 10")
        gate.set()
        await h.app.ready.wait()
        await settle(pilot)
        assert "call with Ferran thursday at 10" in prompt.text
        assert not h.model.requests


async def test_quitting_while_starting_sends_nothing_queued(make_app: MakeApp) -> None:
    """Found by a short adversary: Ctrl+Q once after Enter during start-up was asked about,
    and the message was then sent, answered and saved as the app came up."""
    h = make_app()
    gate = asyncio.Event()
    _gated(h.app.startup, gate)
    h.model.add("Noted.")
    async with h.app.run_test(size=(120, 36)) as pilot:
        prompt = h.app.query_one(PromptInput)
        await _sent_while_starting(pilot, prompt, "hello queued one")
        question = h.app.turns.quit_question()
        assert question is not None and "back in the input" in question
        gate.set()
        await h.app.ready.wait()
        await settle(pilot)
        assert not h.model.requests
        assert "hello queued one" in prompt.text

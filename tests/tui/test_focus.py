"""Hiding the inspector never leaves the focus in it: typing goes to the prompt."""

from __future__ import annotations

import unicodedata

from textual import events
from textual.widgets import DataTable, Input

from tests.tui.conftest import MakeApp, seed_entry, settle
from tui.widgets.prompt_input import PromptInput


async def test_f2_from_the_search_box_gives_the_focus_back_to_the_prompt(
    make_app: MakeApp,
) -> None:
    h = make_app(seed=[seed_entry("pet", "The user's cat is called Miso")], auto_save=False)
    async with h.app.run_test(size=(140, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.press("f2")
        await settle(pilot)
        search = h.app.inspector.query_one("#inspector-search", Input)
        search.focus()
        await pilot.pause()
        assert search.has_focus
        await pilot.press("f2")
        await pilot.pause()
        prompt = h.app.query_one(PromptInput)
        assert not h.app.inspector.display and prompt.has_focus
        await pilot.press("h", "i")
        assert prompt.text == "hi"


async def test_f2_from_the_table_gives_the_focus_back_too(
    make_app: MakeApp,
) -> None:
    h = make_app(seed=[seed_entry("pet", "The user's cat is called Miso")], auto_save=False)
    async with h.app.run_test(size=(140, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.press("f2")
        await settle(pilot)
        h.app.inspector.query_one(DataTable).focus()
        await pilot.press("f2")
        await pilot.pause()
        assert h.app.focused is h.app.query_one(PromptInput)
        await pilot.press("f2", "f2")  # hidden with the focus outside it: it stays there
        await settle(pilot)
        assert h.app.focused is h.app.query_one(PromptInput)


async def test_f2_puts_the_cursor_in_the_search_box(make_app: MakeApp) -> None:
    h = make_app(seed=[seed_entry("pet", "The user's cat is called Miso")], auto_save=False)
    async with h.app.run_test(size=(140, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press(*"miso")
        search = h.app.inspector.query_one("#inspector-search", Input)
        assert search.value == "miso"
        assert h.app.query_one(PromptInput).text == ""


async def test_typing_with_a_message_focused_goes_to_the_prompt(make_app: MakeApp) -> None:
    """Found by a new user: after Tab had moved into the conversation, a typed question
    went nowhere and was lost. A key the message binds ("c": copy) keeps its meaning."""
    from agent.testing import ScriptedModel
    from tests.tui.test_chat import send
    from tui.widgets.assistant_message import AssistantMessage
    from tui.widgets.user_message import UserMessage

    h = make_app(ScriptedModel(["Lisbon is lovely."], name="qwen3:8b"), auto_save=False)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Tell me about Lisbon")
        h.app.query_one(UserMessage).focus()
        await pilot.pause()
        await pilot.press(*"when?")
        await pilot.pause()
        prompt = h.app.query_one(PromptInput)
        assert prompt.has_focus and prompt.text == "when?"
        reply = h.app.query_one(AssistantMessage)
        reply.focus()
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert h.app.clipboard == "Lisbon is lovely."
        assert prompt.text == "when?" and reply.has_focus


async def test_keys_typed_fast_and_a_paste_all_reach_the_prompt(make_app: MakeApp) -> None:
    """Found by an adversary: keys typed before the prompt had the focus still reached the
    message, so "ab cd" lost its c to a copy, and a paste was dropped."""
    from textual import events

    from agent.testing import ScriptedModel
    from tests.tui.test_chat import send
    from tui.widgets.user_message import UserMessage

    h = make_app(ScriptedModel(["Lisbon is lovely."], name="qwen3:8b"), auto_save=False)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Tell me about Lisbon")
        h.app.copy_to_clipboard("kept")
        h.app.query_one(UserMessage).focus()
        await pilot.pause()
        for character in "ab cd":  # all queued before any is handled, as a fast typist's
            h.app.post_message(events.Key("space" if character == " " else character, character))
        await settle(pilot)
        prompt = h.app.query_one(PromptInput)
        assert prompt.has_focus and prompt.text == "ab cd"
        assert h.app.clipboard == "kept"
        h.app.query_one(UserMessage).focus()
        await pilot.pause()
        h.app.post_message(events.Paste(" and Porto"))
        await settle(pilot)
        assert prompt.has_focus and prompt.text == "ab cd and Porto"


async def test_keys_typed_with_a_message_focused_are_sent_in_order(make_app: MakeApp) -> None:
    """Found by a new user: typed after expanding a ◆ line, "what time is … pickup and who
    collects him" was sent cut after "pickup": Enter overtook the keys on their way."""
    from textual import events

    from agent.testing import ScriptedModel
    from tests.tui.test_chat import send
    from tui.widgets.user_message import UserMessage

    h = make_app(ScriptedModel(["Lisbon is lovely.", "At 5."], name="qwen3:8b"), auto_save=False)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Tell me about Lisbon")
        h.app.query_one(UserMessage).focus()
        await pilot.pause()
        for key in [*"when and who", "enter"]:  # all queued at once, Enter last
            character = {"space": " ", "enter": "\r"}.get(key, key)
            name = "space" if key == " " else key
            h.app.post_message(events.Key(name, character))
        await settle(pilot)
        sent = [message.text for message in h.app.query(UserMessage)]
        assert sent == ["Tell me about Lisbon", "when and who"]
        assert h.app.query_one(PromptInput).text == ""


async def test_an_emoji_typed_with_joiners_stays_whole(make_app: MakeApp) -> None:
    """Found by a new user: typed, "👩‍⚕️" lost its joiner (saved as two symbols) and "👨‍👩‍👧"
    became three people; pasted, they came whole."""
    h = make_app(auto_save=False)
    async with h.app.run_test(size=(100, 30)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        # As a terminal's keys arrive (the pilot's `press` gives a joiner no character).
        for character in "👨\u200d👩\u200d👧 a\u200cb":
            name = unicodedata.name(character).lower().replace(" ", "_").replace("-", "_")
            prompt.post_message(events.Key(name, character))
            await pilot.pause()
        assert prompt.text == "👨\u200d👩\u200d👧 a\u200cb"

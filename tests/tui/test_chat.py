"""Pilot tests of the chat: streaming, tools, recall, Esc, history, commands."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Label, Static

from agent.messages import ChatMessage, ToolSpec
from agent.model import ServerUnavailableError
from agent.testing import FunctionModel, Reply, ScriptedModel, call
from tests.tui.conftest import MakeApp, seed_entry, settle
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.prompt_input import PromptInput
from tui.widgets.recalled_entry import RecalledEntry
from tui.widgets.reply_note import ReplyNote
from tui.widgets.tool_call_entry import ToolCallEntry
from tui.widgets.user_message import UserMessage


async def send(pilot: Pilot[None], text: str) -> None:
    prompt = pilot.app.query_one(PromptInput)
    prompt.focus()
    prompt.text = text
    await pilot.press("enter")
    await settle(pilot)
    await pilot.pause()


async def test_sending_shows_the_message_and_the_streamed_reply(make_app: MakeApp) -> None:
    h = make_app(ScriptedModel(["Hello **Ana**, nice to meet you."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Hi, my name is Ana")
        assert [m.text for m in h.app.query(UserMessage)] == ["Hi, my name is Ana"]
        reply = h.app.query_one(AssistantMessage)
        assert reply.text == "Hello **Ana**, nice to meet you."
        assert h.app.query_one(PromptInput).text == ""
        status = str(h.app.status.render())
        assert "ollama: connected" in status and "1 memory ·" in status and "tok/s" in status


async def test_a_tool_call_shows_its_entry_and_refreshes_the_inspector(make_app: MakeApp) -> None:
    model = ScriptedModel(
        [
            Reply(
                tool_calls=[call("memory_store", key="user_city", content="Ana lives in Lisbon")]
            ),
            "Noted.",
        ],
        name="qwen3:8b",
    )
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.press("f2")
        await send(pilot, "Remember that I live in Lisbon")
        entry = h.app.query_one(ToolCallEntry)
        assert entry.title.startswith("✓ memory_store") and entry.has_class("succeeded")
        await settle(pilot)
        await pilot.pause()
        assert "user_city" in [e.key for e in h.app.inspector.entries]


async def test_a_failed_tool_call_says_why_on_its_line(make_app: MakeApp) -> None:
    """Found by a new user: "✗ memory_forget {…}" hid the reason until opened."""
    model = ScriptedModel(
        [Reply(tool_calls=[call("memory_forget", key="nothing_here")]), "Sorry."],
        name="qwen3:8b",
    )
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Forget the thing about nothing")
        await settle(pilot)
        entry = h.app.query_one(ToolCallEntry)
        assert entry.has_class("failed")
        assert entry.title.startswith(
            "✗ memory_forget: no memory with key 'nothing_here'; memory_list shows the keys stored"
        )


async def test_a_forget_command_for_an_unknown_key_names_no_tool(make_app: MakeApp) -> None:
    """Found by a new user: `/forget badkey` said "memory_list shows the keys stored", a
    tool name the user cannot type."""
    h = make_app()
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "/forget badkey")
        await settle(pilot)
        entry = h.app.query_one(ToolCallEntry)
        assert entry.has_class("failed")
        assert ": no memory with key 'badkey'; the memory inspector (F2) lists the keys " in (
            entry.title
        )
        body = str(entry.query_one(".tool-body", Static).render())
        assert "error no memory with key 'badkey'" in body and '{"error"' not in body


async def test_the_recalled_entry_lists_injected_memories_with_scores(make_app: MakeApp) -> None:
    h = make_app(
        ScriptedModel(["You use Helix."], name="qwen3:8b"),
        seed=[seed_entry("editor", "The user edits code in Helix")],
    )
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.press("f2")
        await send(pilot, "Which editor do I use for code?")
        recalled = h.app.query_one(RecalledEntry)
        assert recalled.title.startswith("◆ recalled 1 memory")
        assert [e.key for e in recalled.event.injected] == ["editor"]
        from tui.widgets.recalled_entry import describe

        detail = describe(recalled.event).plain
        scores = recalled.event.injected[0].scores
        assert scores is not None and scores.keyword is not None
        assert "editor" in detail and f"keyword {scores.keyword:.2f}" in detail
        assert "id-editor" in h.app.inspector.used_ids
        # Focused (Tab), its line is marked at the edge, not by reverse video alone (a new
        # user's terminal showed none, and the line could not be found).
        from textual.widgets._collapsible import CollapsibleTitle

        title = recalled.query_one(CollapsibleTitle)
        title.focus()
        await pilot.pause()
        assert title.styles.outline_left[0] == "thick"


async def test_esc_stops_a_reply_and_keeps_what_arrived(make_app: MakeApp) -> None:
    hold = asyncio.Event()
    h = make_app(
        ScriptedModel(
            [Reply("A partial answer that goes on", hold=hold), "Regenerated answer."],
            name="qwen3:8b",
        )
    )
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        h.app.query_one(PromptInput).text = "Tell me a long story"
        await pilot.press("enter")
        while not h.app.query(AssistantMessage) or not h.app.query_one(AssistantMessage).text:
            await pilot.pause()
        await pilot.press("escape")
        await settle(pilot)
        await pilot.pause()
        reply = h.app.query_one(AssistantMessage)
        assert reply.has_class("stopped") and reply.text == "A partia"  # the first chunk
        transcript = h.runtime.sessions.load(h.runtime.session.id).messages
        assert transcript[-1].stopped and transcript[-1].content == reply.text
        await pilot.click("#regenerate")
        await settle(pilot)
        await pilot.pause()
        replies = list(h.app.query(AssistantMessage))
        assert replies[-1].text == "Regenerated answer."
        assert len(h.app.query(UserMessage)) == 1
        # The regenerated reply takes the stopped one's place, on screen and in the chat
        # (found by a new user: each Regenerate stacked another answer, and a reopened
        # chat showed them all, the old one still offering its buttons).
        assert [r.text for r in replies] == ["Regenerated answer."]
        reopened = h.runtime.sessions.load(h.runtime.session.id)
        assert [(m.role, m.content) for m in reopened.messages] == [
            ("user", "Tell me a long story"),
            ("assistant", "Regenerated answer."),
        ]
        assert [m.content for m in reopened.replaced] == ["A partia"]  # kept as history


async def stop_first_reply(pilot: Pilot[Any], h: Any, text: str) -> None:
    """Send `text` and stop its reply after the first chunk."""
    h.app.query_one(PromptInput).text = text
    await pilot.press("enter")
    while not h.app.query(AssistantMessage) or not h.app.query_one(AssistantMessage).text:
        await pilot.pause()
    await pilot.press("escape")
    await settle(pilot)


async def test_a_regenerate_cut_off_by_the_server_keeps_the_stopped_reply(
    make_app: MakeApp,
) -> None:
    """Found by an adversary: a fragment the server cut off took a longer reply's place."""
    from agent.model import StreamCutError

    hold = asyncio.Event()
    cut = Reply("Half of it", error=StreamCutError("cut"), error_after=1)
    h = make_app(ScriptedModel([Reply("A partial answer", hold=hold), cut], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await stop_first_reply(pilot, h, "Tell me a long story")
        await pilot.click("#regenerate")
        await settle(pilot)
        await pilot.pause()
        replies = list(h.app.query(AssistantMessage))
        assert [r.text for r in replies] == ["A partia", "Half of "]
        reopened = h.runtime.sessions.load(h.runtime.session.id)
        assert [m.content for m in reopened.messages] == [
            "Tell me a long story",
            "A partia",
            "Half of ",
        ]
        assert h.app.query_one(PromptInput).text == ""


async def test_esc_right_after_regenerate_leaves_the_chat_as_it_was(make_app: MakeApp) -> None:
    """Found by an adversary: the question came back to the prompt though it was still in
    the chat, and sending it again asked it twice."""
    hold, second = asyncio.Event(), asyncio.Event()
    model = ScriptedModel(
        [Reply("A partial answer", hold=hold), Reply("", thinking="", hold=second)],
        name="qwen3:8b",
    )
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await stop_first_reply(pilot, h, "Tell me a long story")
        await pilot.click("#regenerate")
        while len(model.requests) < 2:
            await pilot.pause()
        await pilot.press("escape")
        await settle(pilot)
        await pilot.pause()
        assert h.app.query_one(PromptInput).text == ""
        assert [r.text for r in h.app.query(AssistantMessage)] == ["A partia"]
        # Still stopped, and still offering its buttons (an adversary saw them gone).
        kept = h.app.query_one(AssistantMessage)
        assert kept.has_class("stopped") and kept.query_one("#regenerate").display
        assert len(h.app.query(UserMessage)) == 1
        reopened = h.runtime.sessions.load(h.runtime.session.id)
        assert [m.content for m in reopened.messages] == ["Tell me a long story", "A partia"]


async def test_continue_shows_its_request_as_memchats_and_hands_back_the_prompt(
    make_app: MakeApp,
) -> None:
    """Found by an adversary: Continue showed "Continue from where you stopped." as the
    user's words, and the focus stayed on the button, so typing went nowhere."""
    from tui.widgets.user_message import CONTINUE_SHOWN

    hold = asyncio.Event()
    model = ScriptedModel([Reply("A partial answer", hold=hold), "and the rest."])
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await stop_first_reply(pilot, h, "Tell me a long story")
        await pilot.click("#continue")
        await settle(pilot)
        asked = list(h.app.query(UserMessage))[-1]
        assert asked.has_class("continue-request")
        assert str(asked.render()) == CONTINUE_SHOWN
        assert h.app.focused is h.app.prompt
        await pilot.press("o", "k")
        assert h.app.prompt.text == "ok"


async def test_esc_before_anything_arrives_restores_the_prompt(make_app: MakeApp) -> None:
    hold = asyncio.Event()
    model = ScriptedModel([Reply("", thinking="", hold=hold)], name="qwen3:8b")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        h.app.query_one(PromptInput).text = "Are you there?"
        await pilot.press("enter")
        while not model.requests:
            await pilot.pause()
        await pilot.press("escape")
        await settle(pilot)
        await pilot.pause()
        assert h.app.query_one(PromptInput).text == "Are you there?"
        assert not h.app.query(AssistantMessage)
        # Said, not only done (a new user could not tell whether it had been sent).
        notices = [n.message for n in h.app._notifications]
        assert "Stopped before any reply: your message is back in the input, unsent." in notices


async def test_a_failed_turn_is_a_notice_and_keeps_the_message(make_app: MakeApp) -> None:
    h = make_app(
        ScriptedModel(
            [Reply(error=ServerUnavailableError("http://127.0.0.1:11434"))], name="qwen3:8b"
        )
    )
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Please do not lose this")
        assert h.app.query_one(PromptInput).text == "Please do not lose this"
        assert any("not running" in n.message for n in h.app._notifications)
        assert not h.app.query(AssistantMessage)
        assert "not running" in str(h.app.status.render())
        assert h.app.is_running
        # Withdrawn from memory too, and the count says so (a new user saw one more).
        await settle(pilot)
        assert await h.runtime.memory.count() == 0
        assert "0 memories" in str(h.app.status.render())
        # The server back, a reply says so at once, not at the next poll (a new user read
        # "not running" under a reply for ten seconds).
        h.model.add("Here now.")
        h.app.query_one(PromptInput).text = ""
        await send(pilot, "Please do not lose this")
        await settle(pilot)
        assert "not running" not in str(h.app.status.render())


async def test_sending_a_kept_message_again_retries_it_once(make_app: MakeApp) -> None:
    h = make_app(
        ScriptedModel(
            [Reply(error=ServerUnavailableError("http://127.0.0.1:11434")), "Here now."],
            name="qwen3:8b",
        )
    )
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Please do not lose this")
        assert h.app.query_one(PromptInput).text == "Please do not lose this"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause()
        assert [m.text for m in h.app.query(UserMessage)] == ["Please do not lose this"]
        assert len(h.app.query(AssistantMessage)) == 1
        transcript = h.runtime.sessions.load(h.runtime.session.id).messages
        assert [(m.role, m.content) for m in transcript] == [
            ("user", "Please do not lose this"),
            ("assistant", "Here now."),
        ]


async def test_a_failed_message_edited_in_the_prompt_is_sent_alone(make_app: MakeApp) -> None:
    """Found by an adversary: put back in the prompt, the failed message still stood in
    the conversation and in memory; sent again edited, the model got both."""
    model = ScriptedModel(
        [Reply(error=ServerUnavailableError("http://127.0.0.1:11434")), "Blue, noted."],
        name="qwen3:8b",
    )
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "my bike is a red Gazelle")
        prompt = h.app.query_one(PromptInput)
        assert prompt.text == "my bike is a red Gazelle"
        assert await h.runtime.memory.count() == 0
        prompt.text = "my bike is a blue Gazelle"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause()
        assert model.requests[-1].messages[-1].content.endswith("my bike is a blue Gazelle")
        assert "red" not in model.requests[-1].messages[-1].content
        assert [e.content for e in await h.runtime.memory.list()] == ["my bike is a blue Gazelle"]


async def test_prompt_history_walks_with_up_and_down(make_app: MakeApp) -> None:
    h = make_app(ScriptedModel(["one", "two"], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "first message here")
        await send(pilot, "second message here")
        prompt = h.app.query_one(PromptInput)
        prompt.text = "draft"
        await pilot.press("up")
        assert prompt.text == "second message here"
        await pilot.press("up")
        assert prompt.text == "first message here"
        await pilot.press("down", "down")
        assert prompt.text == "draft"


async def test_ctrl_j_makes_a_new_line_and_enter_sends_both(make_app: MakeApp) -> None:
    h = make_app(ScriptedModel(["ok"], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.press("l", "1", "ctrl+j", "l", "2", "enter")
        await settle(pilot)
        assert [m.text for m in h.app.query(UserMessage)] == ["l1\nl2"]


async def test_incognito_saves_nothing_and_says_so(make_app: MakeApp) -> None:
    h = make_app(ScriptedModel(["ok"], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.press("f4")
        assert "incognito" in str(h.app.status.render())
        await send(pilot, "this stays off the record")
        assert await h.runtime.memory.count() == 0


async def test_memory_commands_and_ui_commands(make_app: MakeApp) -> None:
    from tui.screens.help import HelpScreen

    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "/remember I take the train to work")
        assert (await h.runtime.memory.count()) == 1
        assert h.app.query_one(ToolCallEntry).title.startswith("✓ memory_store")
        first = h.runtime.session.id
        await send(pilot, "/new")
        assert h.runtime.session.id != first and not h.app.query(UserMessage)
        await send(pilot, "/help")
        assert isinstance(h.app.screen, HelpScreen)
        assert h.model.requests == []
    from tui.screens.help import HELP
    from tui.turns import UI_COMMANDS

    # The help names every command the prompt takes, and what the inspector does.
    assert all(command in HELP for command in (*UI_COMMANDS, "/remember", "/recall", "/forget"))
    assert "In the memory inspector (F2)" in HELP and "Undo forget" in HELP


async def test_the_help_says_how_long_a_message_is_kept_and_f1_is_in_the_footer_at_80_columns(
    make_app: MakeApp,
) -> None:
    """Found by a new user at 80x24: the footer's "f1 Help" was cut off, and the help never
    said that messages are forgotten after 30 days (the first sign was a deletion)."""
    from textual.widgets import Markdown
    from textual.widgets._footer import FooterKey

    from memory.settings import RetentionSettings
    from tui.screens.help import HelpScreen

    h = make_app(retention_days=RetentionSettings(conversation=45))
    async with h.app.run_test(size=(80, 24)) as pilot:
        await h.app.ready.wait()
        await settle(pilot)
        (help_key,) = [key for key in h.app.query(FooterKey) if key.key == "f1"]
        assert help_key.region.right <= 80 and help_key.region.width > 0
        await pilot.press("f1")
        assert isinstance(h.app.screen, HelpScreen)
        shown = h.app.screen.query_one(Markdown).source
        assert "A message is kept for 45 days, or longer when it gives a day still to come" in shown


async def test_a_command_typed_in_capitals_is_the_command(make_app: MakeApp) -> None:
    """Found by an adversary: with caps lock on, "/REMEMBER my bike is red" went to the
    model as chat and was saved as a 30-day message, not a fact."""
    from tui.screens.help import HelpScreen

    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "/REMEMBER my bike is red")
        await settle(pilot)
        assert [(e.content, e.category) for e in await h.runtime.memory.list()] == [
            ("my bike is red", "core")
        ]
        await send(pilot, "/Help")
        assert isinstance(h.app.screen, HelpScreen)
        assert h.model.requests == []


async def test_an_unknown_or_bare_command_comes_back_with_why_and_is_not_sent(
    make_app: MakeApp,
) -> None:
    """Found by a new user: "/rememebr …" went to the model (and into memory) as a
    message, and a bare "/remember" left only a toast. A path or a leading space is text."""
    h = make_app(ScriptedModel(["Paths are fine.", "Sent as text."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        await send(pilot, "/rememebr my cat is Miso")
        assert prompt.text == "/rememebr my cat is Miso"
        assert any(
            "/rememebr is not a command (did you mean /remember? " in n.message
            for n in h.app._notifications
        )
        await send(pilot, "/remember")
        assert prompt.text == "/remember "
        assert any("usage: /remember TEXT" in n.message for n in h.app._notifications)
        # A "/" alone lists the commands (a later new user looked for them).
        prompt.text = ""
        await send(pilot, "/")
        assert any(n.message.startswith("the commands are /remember") for n in h.app._notifications)
        assert h.model.requests == [] and await h.runtime.memory.count() == 0
        assert not h.app.query(UserMessage)
        prompt.text = ""
        await send(pilot, "/etc/hosts maps names to addresses")
        await send(pilot, " /foo as plain text")
        assert [m.text for m in h.app.query(UserMessage)] == [
            "/etc/hosts maps names to addresses",
            " /foo as plain text",
        ]
        assert len(h.model.requests) == 2


async def test_commands_are_read_up_to_any_whitespace_and_only_at_the_start(
    make_app: MakeApp,
) -> None:
    """Found by an adversary: a newline or tab after the command slipped past the check,
    " /remember" with a leading space still ran it, "/tmp is full" was refused, and a
    /remember too long to store was not put back."""
    h = make_app(ScriptedModel(["Sent as text.", "Also text."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        await send(pilot, "/rememebr\nmy cat is Miso")
        assert prompt.text == "/rememebr\nmy cat is Miso"
        prompt.text = ""
        long_text = "/remember " + "word " * 3900
        await send(pilot, long_text)
        assert prompt.text == long_text
        assert any("at most 10,000 characters" in n.message for n in h.app._notifications)
        prompt.text = ""
        await send(pilot, "/remember\tmy cat is Miso")
        await settle(pilot)
        assert [e.content for e in await h.runtime.memory.list()] == ["my cat is Miso"]
        assert h.model.requests == []
        await send(pilot, " /remember my dog is Rex")
        await send(pilot, "/tmp is full again")
        await settle(pilot)
        assert [m.text for m in h.app.query(UserMessage)][-2:] == [
            " /remember my dog is Rex",
            "/tmp is full again",
        ]
        assert len(h.model.requests) == 2
        assert "my dog is Rex" not in [e.content for e in await h.runtime.memory.list()]


async def test_copy_last_reply(make_app: MakeApp) -> None:
    h = make_app(ScriptedModel(["Copy me please"], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "say something to copy")
        await pilot.press("f3")
        assert h.app.clipboard == "Copy me please"


async def test_switching_sessions_shows_the_old_transcript(make_app: MakeApp) -> None:
    h = make_app(ScriptedModel(["Kyoto is lovely in April."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Planning Kyoto in April")
        old = h.runtime.session.id
        await pilot.press("ctrl+n")
        await pilot.pause()
        h.app.chats.resume(old)
        await settle(pilot)
        await pilot.pause()
        assert [m.text for m in h.app.query(UserMessage)] == ["Planning Kyoto in April"]
        assert h.app.query_one(AssistantMessage).text == "Kyoto is lovely in April."
        assert h.runtime.session.id == old


async def test_the_memory_store_is_closed_on_exit(make_app: MakeApp) -> None:
    from memory.errors import MemoryStoreError

    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        runtime = h.runtime
        await pilot.press("ctrl+q")
    import pytest

    with pytest.raises(MemoryStoreError, match="closed"):
        await runtime.memory.count()


async def test_enter_right_after_fast_typing_sends_all_of_it(make_app: MakeApp) -> None:
    from textual import events

    h = make_app(ScriptedModel(["one", "two"], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await settle(pilot)
        # A terminal delivers a burst: every character and the Enter before any is handled.
        for character in "fast message":
            h.app.post_message(events.Key("space" if character == " " else character, character))
        h.app.post_message(events.Key("enter", "\r"))
        await settle(pilot)
        assert [m.text for m in h.app.query(UserMessage)] == ["fast message"]
        assert h.app.query_one(PromptInput).text == ""


async def test_only_the_newest_stopped_reply_offers_continue_and_regenerate(
    make_app: MakeApp,
) -> None:
    from agent.messages import ChatMessage

    h = make_app()
    transcript = [
        ChatMessage(role="user", content="Tell me a long story"),
        ChatMessage(role="assistant", content="Once upon a", stopped=True),
        ChatMessage(role="user", content="Another one"),
        ChatMessage(role="assistant", content="In a land", stopped=True),
    ]
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await h.app.chat.show_transcript(transcript)
        await pilot.pause()
        older, newest = h.app.query(AssistantMessage)
        assert older.query_one("#reply-status").display  # still says it stopped
        assert not older.query_one("#continue").display
        assert not older.query_one("#regenerate").display
        assert newest.query_one("#continue").display and newest.query_one("#regenerate").display


async def test_a_reopened_chat_shows_its_tool_calls_with_their_outcomes(make_app: MakeApp) -> None:
    """Found by a new user: a chat reopened from the palette showed none of the tool calls
    its file holds."""
    from agent.messages import ChatMessage, ToolCall
    from tui.widgets.tool_call_entry import ToolCallEntry

    h = make_app()
    stored = ToolCall(id="c1", name="memory_store", arguments={"key": "cat", "content": "Miso"})
    failed = ToolCall(id="c2", name="memory_forget", arguments={"key": "dog"})
    transcript = [
        ChatMessage(role="user", content="My cat is Miso; forget the dog"),
        ChatMessage(role="assistant", content="Let me note that.", tool_calls=[stored, failed]),
        ChatMessage(role="tool", tool_name="memory_store", tool_call_id="c1", content='{"ok": 1}'),
        ChatMessage(
            role="tool",
            tool_name="memory_forget",
            tool_call_id="c2",
            content='{"error": "no memory with key dog"}',
            error=True,
        ),
        ChatMessage(role="assistant", content="Done."),
    ]
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await h.app.chat.show_transcript(transcript)
        await pilot.pause()
        kinds = [type(w).__name__ for w in h.app.chat.children]
        assert kinds == [
            "UserMessage",
            "AssistantMessage",
            "ToolCallEntry",
            "ToolCallEntry",
            "AssistantMessage",
        ]
        done, refused = h.app.chat.query(ToolCallEntry)
        assert str(done.title).startswith("✓ memory_store")
        assert str(refused.title).startswith("✗ memory_forget")
        assert "no memory with key dog" in str(refused.title)


async def test_a_refused_calls_line_says_why_once_and_whole(make_app: MakeApp) -> None:
    """Found by a new user in incognito: "✗ memory_store: memory_store refused: memory is
    read-only in incognito:" said the name twice, and the reason was cut at a colon."""
    from agent.messages import ChatMessage, ToolCall
    from agent.tools import READ_ONLY_REFUSAL
    from tui.widgets.tool_call_entry import ToolCallEntry

    h = make_app()
    call = ToolCall(id="c1", name="memory_store", arguments={"key": "rego", "content": "14/1"})
    refusal = json.dumps({"error": f"memory_store refused: {READ_ONLY_REFUSAL}"})
    transcript = [
        ChatMessage(role="user", content="remember the rego is due 14/1"),
        ChatMessage(role="assistant", content="", tool_calls=[call]),
        ChatMessage(
            role="tool", tool_name="memory_store", tool_call_id="c1", content=refusal, error=True
        ),
        ChatMessage(role="assistant", content="I can't store that now."),
    ]
    async with h.app.run_test(size=(160, 36)) as pilot:
        await h.app.ready.wait()
        await h.app.chat.show_transcript(transcript)
        await pilot.pause()
        title = str(h.app.chat.query_one(ToolCallEntry).title)
        assert title.startswith(
            "✗ memory_store: refused: memory is read-only in incognito: nothing was stored or "
            "forgotten "
        )


async def test_a_looping_reply_is_cut_on_screen_and_offers_regenerate(make_app: MakeApp) -> None:
    loop = "I'm happy to help you with your bees. "
    h = make_app(ScriptedModel(["Aren't you a beekeeper? " + loop * 200], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "I keep bees on my balcony")
        reply = h.app.query_one(AssistantMessage)
        assert reply.text == "Aren't you a beekeeper? I'm happy to help you with your bees."
        assert reply.has_class("stopped") and reply.query_one("#regenerate").display
        # Said beside the reply, where it stays: not a notification that passes.
        [note] = h.app.chat.query(ReplyNote)
        assert "repeating itself" in note.notice.text and note.has_class("warning")
        assert not any("repeating itself" in n.message for n in h.app._notifications)
        assert "ctx 0/" not in str(h.app.status.render())


async def test_the_tool_limit_is_said_in_the_chat_above_the_answer(make_app: MakeApp) -> None:
    def tool_happy(messages: list[ChatMessage], tools: list[ToolSpec]) -> Reply | str:
        if tools:
            return Reply(tool_calls=[call("memory_list", limit=len(messages))])
        return "Nothing about parking is stored."

    h = make_app(FunctionModel(tool_happy, name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Where did I park the car?")
        chat = list(h.app.chat.children)
        notes = [w for w in chat if isinstance(w, ReplyNote)]
        assert len(notes) == 1 and "used all 5 rounds of tool calls" in notes[0].notice.text
        answer = h.app.query_one(AssistantMessage)
        assert answer.text == "Nothing about parking is stored."
        assert len(h.app.query(ToolCallEntry)) == 5
        assert chat.index(notes[0]) < chat.index(answer)


async def test_a_reply_the_full_disk_cannot_save_keeps_the_app_up_and_the_message(
    make_app: MakeApp,
) -> None:
    import errno

    h = make_app(ScriptedModel(["A reply that streamed completely.", "Glad to."], name="qwen3"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        sessions = h.runtime.sessions
        real_write = sessions._write
        writes: list[int] = []
        room = [False]

        def full_after_the_message(session: Any, messages: Any, marker: Any = None) -> None:
            writes.append(len(messages))
            if len(writes) >= 2 and not room[0]:  # the user's message fits, the reply does not
                raise OSError(errno.ENOSPC, "No space left on device")
            real_write(session, messages, marker)

        sessions._write = full_after_the_message  # type: ignore[method-assign]
        await send(pilot, "Tell me something worth keeping")
        assert h.app.is_running
        assert any("No space left on device" in n.message for n in h.app._notifications)
        assert [m.text for m in h.app.query(UserMessage)] == ["Tell me something worth keeping"]
        assert h.app.query_one(AssistantMessage).text == "A reply that streamed completely."
        session = h.runtime.session
        on_disk = [(m.role, m.content) for m in sessions.load(session.id).messages]
        assert on_disk == [("user", "Tell me something worth keeping")]
        assert [m.content for m in session.unsaved] == ["A reply that streamed completely."]
        saved = await h.runtime.memory.list(category="conversation")
        assert [e.content for e in saved] == ["Tell me something worth keeping"]
        # Room again: the next message brings the reply that waited along, in order.
        room[0] = True
        await send(pilot, "Thanks")
        assert [m.content for m in sessions.load(session.id).messages] == [
            "Tell me something worth keeping",
            "A reply that streamed completely.",
            "Thanks",
            "Glad to.",
        ]


async def test_up_in_an_empty_prompt_edits_the_last_message_and_replaces_its_turn(
    make_app: MakeApp,
) -> None:
    h = make_app(ScriptedModel(["Hello Ana.", "Porto, nice.", "Lisbon, nice."], name="qwen3"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Hi, my name is Ana")
        await send(pilot, "I live in Porto these days")
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        await pilot.press("up")
        assert prompt.editing and prompt.text == "I live in Porto these days"
        assert "Editing" in str(prompt.border_title)
        # Esc cancels the edit (and stops nothing).
        await pilot.press("escape")
        assert not prompt.editing and prompt.text == ""
        await pilot.press("up")
        prompt.text = "I live in Lisbon these days"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause()
        assert [m.text for m in h.app.query(UserMessage)] == [
            "Hi, my name is Ana",
            "I live in Lisbon these days",
        ]
        assert [m.text for m in h.app.query(AssistantMessage)] == ["Hello Ana.", "Lisbon, nice."]
        assert not prompt.editing
        session = h.runtime.sessions.load(h.runtime.session.id)
        assert [m.content for m in session.messages] == [
            "Hi, my name is Ana",
            "Hello Ana.",
            "I live in Lisbon these days",
            "Lisbon, nice.",
        ]
        assert [m.content for m in session.replaced] == [
            "I live in Porto these days",
            "Porto, nice.",
        ]


async def test_a_second_up_leaves_the_edit_and_walks_the_sent_messages(make_app: MakeApp) -> None:
    h = make_app(ScriptedModel(["one", "two"], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "first message here")
        await send(pilot, "second message here")
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        await pilot.press("up")
        assert prompt.editing and prompt.text == "second message here"
        # The next Up leaves the edit for the message before it (not the same text again).
        await pilot.press("up")
        assert not prompt.editing and prompt.text == "first message here"
        await pilot.press("down")
        assert prompt.text == "second message here"


async def test_up_in_a_changed_edit_moves_within_it_and_ctrl_a_selects_all(
    make_app: MakeApp,
) -> None:
    """Found by the tenth new user: Up on the first line of a changed edit left the edit
    (its title gone, the change replaced by an older message, Enter sending it as new);
    Ctrl+A moved to the line start where a select-all was meant."""
    h = make_app(ScriptedModel(["one"], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "I take 30mg of it")
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        await pilot.press("up")
        assert prompt.editing
        await pilot.press("end", "backspace", "backspace", *"daily")
        await pilot.press("up")
        assert prompt.editing and prompt.text == "I take 30mg of daily"
        await pilot.press("ctrl+a", *"I take 25mg")
        assert prompt.editing and prompt.text == "I take 25mg"


async def test_an_edit_after_a_command_shows_the_conversation_as_the_session_has_it(
    make_app: MakeApp,
) -> None:
    h = make_app(ScriptedModel(["Hello!", "Hi again!"], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Hello there, my friend")
        await send(pilot, "/recall cat")
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        await pilot.press("up")
        assert prompt.editing and prompt.text == "Hello there, my friend"
        prompt.text = "Hi there, my friend"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause()
        assert [m.text for m in h.app.query(UserMessage)] == ["Hi there, my friend"]
        assert [m.text for m in h.app.query(AssistantMessage)] == ["Hi again!"]


async def test_esc_before_an_edit_is_answered_puts_the_old_turn_back(make_app: MakeApp) -> None:
    hold = asyncio.Event()
    model = ScriptedModel(["Porto, nice.", Reply("", hold=hold)], name="qwen3:8b")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "I live in Porto these days")
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        await pilot.press("up")
        prompt.text = "I live in Lisbon these days"
        await pilot.press("enter")
        while len(model.requests) < 2:
            await pilot.pause()
        await pilot.press("escape")
        await settle(pilot)
        await pilot.pause()
        assert [m.text for m in h.app.query(UserMessage)] == ["I live in Porto these days"]
        assert [m.text for m in h.app.query(AssistantMessage)] == ["Porto, nice."]
        assert prompt.text == "I live in Lisbon these days" and prompt.editing
        session = h.runtime.sessions.load(h.runtime.session.id)
        assert [m.content for m in session.messages] == [
            "I live in Porto these days",
            "Porto, nice.",
        ]


async def test_up_while_the_reply_comes_edits_the_message_it_answers(make_app: MakeApp) -> None:
    """Found by a new user: Up while the reply came walked the history, and Enter sent the
    order again with its day changed, as a second message beside the first."""
    hold = asyncio.Event()
    model = ScriptedModel([Reply("Noted: Saturday.", hold=hold), "Noted: Sunday."], name="m")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        prompt.text = "cake for the Fitzgeralds due sat 19/12"
        await pilot.press("enter")
        while not model.requests:
            await pilot.pause()
        await pilot.press("up")
        assert prompt.editing and prompt.text == "cake for the Fitzgeralds due sat 19/12"
        prompt.text = "cake for the Fitzgeralds due sun 20/12"
        await pilot.press("enter")
        await pilot.pause()
        assert prompt.editing and prompt.text == "cake for the Fitzgeralds due sun 20/12"
        assert any("still coming" in n.message for n in h.app._notifications)
        hold.set()
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause()
        assert [m.text for m in h.app.query(UserMessage)] == [
            "cake for the Fitzgeralds due sun 20/12"
        ]
        session = h.runtime.sessions.load(h.runtime.session.id)
        assert [m.content for m in session.messages] == [
            "cake for the Fitzgeralds due sun 20/12",
            "Noted: Sunday.",
        ]


async def test_an_edit_of_a_message_that_got_no_reply_is_sent_as_a_new_one(
    make_app: MakeApp,
) -> None:
    """Up while the reply came, then the reply stopped before a word: the message left the
    chat, and the edit must not replace the one before it."""
    hold = asyncio.Event()
    model = ScriptedModel(["Hello.", Reply("", hold=hold), "Noted: Sunday."], name="m")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Hi there")
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        prompt.text = "cake due sat 19/12"
        await pilot.press("enter")
        while len(model.requests) < 2:
            await pilot.pause()
        await pilot.press("up")
        prompt.text = "cake due sun 20/12"
        h.app.turns.stop()
        await settle(pilot)
        await pilot.pause()
        assert prompt.text == "cake due sun 20/12" and not prompt.editing
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause()
        assert [m.text for m in h.app.query(UserMessage)] == ["Hi there", "cake due sun 20/12"]


async def test_a_recall_command_lists_its_memories_readably(make_app: MakeApp) -> None:
    """Found by a new user: `/recall` showed the JSON the model gets, and only when opened."""
    h = make_app()
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "/remember My cat is called [bold]Miso[/]")
        await settle(pilot)
        await send(pilot, "/recall cat")
        await settle(pilot)
        stored, recalled = h.app.query(ToolCallEntry)
        assert str(stored.title).startswith("✓ memory_store: stored as my_cat_is_called_")
        assert str(recalled.title) == '✓ memory_recall: 1 memory {"query": "cat"}'
        assert not recalled.collapsed
        shown = str(recalled.query_one(".tool-body", Static).render())
        assert "• My cat is called [bold]Miso[/]" in shown and "score " in shown
        assert '"results"' not in shown


async def test_a_model_tool_call_stays_closed_with_its_outcome_on_its_line(
    make_app: MakeApp,
) -> None:
    model = ScriptedModel(
        [Reply(tool_calls=[call("memory_recall", query="tea")]), "Nothing about tea."],
        name="qwen3:8b",
    )
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "What tea do I like?")
        await settle(pilot)
        entry = h.app.query_one(ToolCallEntry)
        assert entry.collapsed and str(entry.title).startswith("✓ memory_recall: no memory {")


async def test_a_reply_cut_off_by_the_server_says_so_and_the_server_is_checked(
    make_app: MakeApp,
) -> None:
    """Found by a new user: a reply the server cut off read "⏹ stopped", as if Esc had
    stopped it, and the status bar said "connected" until its next poll."""
    from agent.model import StreamCutError

    hold = asyncio.Event()
    cut = Reply(
        "Your cat is called Mi",
        error=StreamCutError("the server closed"),
        error_after=2,
        hold=hold,
    )
    h = make_app(ScriptedModel([cut], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        prompt.text = "What is my cat called?"
        await pilot.press("enter")  # not `send`: it waits for the turn, which is held
        while not h.app.query(AssistantMessage):
            await pilot.pause()
        h.model.failure = ServerUnavailableError("http://127.0.0.1:11434")  # gone since
        hold.set()
        await settle(pilot)
        reply = h.app.query_one(AssistantMessage)
        assert reply.has_class("stopped")
        assert str(reply.query_one("#reply-status", Label).render()) == (
            "✗ cut off: the reply failed"
        )
        await pilot.pause()
        assert "not running" in str(h.app.status.render())


def test_a_score_below_the_floor_never_reads_as_the_floor() -> None:
    """Found by a new user: "below floor: 0.30" beside a floor of 0.3."""
    from agent.events import CutMemory, MemoryRecalled
    from tests.tui.conftest import seed_entry
    from tui.widgets.recalled_entry import describe

    below = seed_entry("wife", "My wife Mia is a teacher").model_copy(update={"score": 0.2996})
    shown = describe(MemoryRecalled([], [CutMemory(below, "below floor")], "hybrid")).plain
    assert "below floor: 0.29  wife" in shown


def test_a_held_back_question_says_why() -> None:
    from agent.events import CutMemory, MemoryRecalled
    from memory.entry import RecallScores
    from memory.questions import QUESTION_HELD_BACK
    from tests.tui.conftest import seed_entry
    from tui.widgets.recalled_entry import describe

    scores = RecallScores(keyword=0.37, fused=0.37, lane="keyword", held_back=QUESTION_HELD_BACK)
    asked = seed_entry("m1", "where do I live?").model_copy(
        update={"score": 0.37, "scores": scores}
    )
    shown = describe(MemoryRecalled([], [CutMemory(asked, "held back")], "hybrid")).plain
    assert "held back (a saved question says no fact): 0.37  m1" in shown


async def test_a_fact_a_message_updated_is_said_in_the_chat(make_app: MakeApp) -> None:
    """The chat says which memory a message changed, in the transcript under the reply."""
    from tests.tui.conftest import seed_entry

    h = make_app(
        ScriptedModel(["Congratulations!"], name="qwen3:8b"),
        seed=[seed_entry("home", "I live in [b]Berlin[/]")],
    )
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Big news: we moved to Lisbon!")
        chat = list(h.app.chat.children)
        [note] = [w for w in chat if isinstance(w, ReplyNote)]
        assert "updated the memory 'home'" in note.notice.text
        assert "'I live in [b]Berlin[/]'" in note.notice.text  # shown as written
        assert chat.index(h.app.query_one(AssistantMessage)) < chat.index(note)


async def test_a_focused_message_is_marked_without_colour(make_app: MakeApp) -> None:
    """Found by a new user reading without colours: Tab's focus showed as colour only."""
    from tests.tui.conftest import screen_text

    h = make_app(ScriptedModel(["Miso."], name="qwen3:8b"))
    async with h.app.run_test(size=(100, 30)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "What is my cat called?")
        reply = h.app.query_one(AssistantMessage)

        def row() -> str:
            rows = screen_text(h.app.export_screenshot())
            return next(line for line in rows if "Miso." in line)

        before = row()
        reply.focus()
        await settle(pilot)
        after = row()
        assert before != after and before.strip() == "Miso."
        assert after.replace("Miso.", "").strip(), "a mark beside the focused reply"


async def test_quitting_during_a_reply_asks_once_and_keeps_the_chat(make_app: MakeApp) -> None:
    """Found by an adversary: Ctrl+Q during a reply dropped the message queued behind it
    without a word and ended in a traceback (a widget queried after it was gone)."""
    hold = asyncio.Event()
    h = make_app(ScriptedModel([Reply("A partial answer that goes on", hold=hold)], name="m"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        h.app.query_one(PromptInput).text = "Tell me a long story"
        await pilot.press("enter")
        while not h.app.query(AssistantMessage) or not h.app.query_one(AssistantMessage).text:
            await pilot.pause()
        h.app.query_one(PromptInput).text = "my landlord is Mr Pemberton"
        await pilot.press("enter")
        while not h.app.turns.queued:  # the reply is held: settling would wait for it
            await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert h.app.is_running and h.app.return_code is None
        asked = [n.message for n in h.app._notifications]  # noqa: SLF001
        assert any("1 message waiting to be sent is not sent" in text for text in asked)
        await pilot.press("ctrl+q")
        while h.app.return_code is None:
            await pilot.pause()
    assert h.app.return_code == 0
    kept = h.runtime.sessions.load(h.runtime.session.id).messages
    assert [(m.role, m.content, m.stopped) for m in kept] == [
        ("user", "Tell me a long story", False),
        ("assistant", "A partia", True),
    ]


async def test_quitting_with_text_in_the_prompt_asks_once(make_app: MakeApp) -> None:
    """Found by a second adversary: messages Esc had put back in the prompt went with the
    app when Ctrl+Q was pressed, unasked."""
    h = make_app(ScriptedModel(name="m"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        h.app.query_one(PromptInput).text = "queued A: buy tomato seeds"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert h.app.return_code is None
        asked = [n.message for n in h.app._notifications]  # noqa: SLF001
        assert any("text not sent" in text for text in asked)
        await pilot.press("ctrl+q")
        while h.app.return_code is None:
            await pilot.pause()
    assert h.app.return_code == 0


async def test_up_after_an_erase_elsewhere_offers_the_message_as_the_chat_now_holds_it(
    make_app: MakeApp,
) -> None:
    """Found by a new user: after `memchat memory forget --erase` from a shell, Up in the
    open app offered the erased password again (the chat and the prompt history it held)."""
    from agent.session_scrub import scrub_sessions

    h = make_app(ScriptedModel(["Noted.", "Sure."], name="qwen3"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "the office wifi password is Tr0ub4dor-77")
        await send(pilot, "thanks, what else")
        erased = ["the office wifi password is Tr0ub4dor-77"]
        assert scrub_sessions(h.runtime.sessions.directory, erased).changed
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        await pilot.press("up")  # the last message, to edit
        assert prompt.editing and prompt.text == "thanks, what else"
        await pilot.press("up")  # the walk through what was sent
        await pilot.press("up")
        assert "Tr0ub4dor-77" not in prompt.text and "[erased]" in prompt.text
        assert all("Tr0ub4dor-77" not in text for text in prompt.sent)


async def test_an_edit_refused_for_another_windows_write_says_so_not_a_failed_reply(
    make_app: MakeApp,
) -> None:
    """Found by a second adversary: the refusal was titled "The reply failed"."""
    from agent.messages import ChatMessage

    h = make_app(ScriptedModel(["Kiwi, nice."], name="qwen3"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "My parrot is called Kiwi")
        sessions = h.runtime.sessions
        other = sessions.load(h.runtime.session.id)  # a second window on this chat
        sessions.append(other, [ChatMessage(role="user", content="My hamster is called Pip")])
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        await pilot.press("up")
        prompt.text = "My parrot is called Rio"
        await pilot.press("enter")
        await settle(pilot)
        titles = [n.title for n in h.app._notifications if "another memchat window" in n.message]
        assert titles == ["The edit was not made"]
        said = [m.content for m in sessions.load(h.runtime.session.id).messages]
        assert said[-1] == "My hamster is called Pip"


async def test_a_message_whose_reply_is_stopped_still_changes_the_fact_it_updates(
    make_app: MakeApp,
) -> None:
    """Found by an adversary: "I've been hired by Aldi", stopped with Esc during the reply,
    left "I work at Nokia" in effect (only marked changed since); unstopped, it updated it."""
    hold = asyncio.Event()
    h = make_app(
        ScriptedModel([Reply("Congratulations on the new job!", hold=hold)], name="qwen3:8b"),
        seed=[seed_entry("job", "I work at Nokia")],
    )
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await stop_first_reply(pilot, h, "I've been hired by Aldi")
        await pilot.pause()
        job = await h.runtime.memory.get("job")
        assert job is not None and "Aldi" in job.content
        assert h.app.query_one(AssistantMessage).has_class("stopped")
        notes = [note.notice.text for note in h.app.chat.query(ReplyNote)]
        assert any("updated the memory 'job'" in text for text in notes)


async def test_a_secret_nothing_keeps_is_said_after_a_stopped_reply_too(make_app: MakeApp) -> None:
    """Found by an adversary: "the garage door pin is 6620 fyi", stopped with Esc during
    the reply, got no line saying the PIN was not kept (unstopped, it did)."""
    hold = asyncio.Event()
    h = make_app(
        ScriptedModel([Reply("Got it, thanks for telling me.", hold=hold)], name="qwen3:8b")
    )
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await stop_first_reply(pilot, h, "the garage door pin is 6620 fyi")
        await settle(pilot)
        notes = [note.notice.text for note in h.app.chat.query(ReplyNote)]
        assert any("saved with it redacted" in text for text in notes)


async def test_a_notice_stands_above_the_message_box_not_on_the_status_line(
    make_app: MakeApp,
) -> None:
    # A new user saw toasts cover the status line and the box's lower border.
    from textual.widgets._toast import Toast

    h = make_app(ScriptedModel([], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36), notifications=True) as pilot:
        await h.app.ready.wait()
        await send(pilot, "/remember")
        for _ in range(50):  # the toast is mounted a few refreshes after the notice
            if toasts := list(h.app.screen.query(Toast)):
                break
            await pilot.pause()
        assert toasts, "the bare /remember's usage is a notice"
        assert all(t.region.bottom <= h.app.prompt.region.y for t in toasts)
        assert not any(t.region.overlaps(h.app.status.region) for t in toasts)


async def test_the_status_counts_the_chats_namespace_and_says_what_others_hold(
    make_app: MakeApp,
) -> None:
    # A new user read "55 memories" beside the inspector's "45 entries": the CLI had
    # written ten into other namespaces.
    seed = [
        seed_entry("cat", "My cat is called Bori"),
        seed_entry("rent", "Rent is 1,200,000 won on the 25th"),
        seed_entry("t1_fact", "A test fact", namespace="t1"),
    ]
    h = make_app(ScriptedModel([], name="qwen3:8b"), seed=seed)
    async with h.app.run_test(size=(160, 36)) as pilot:
        await h.app.ready.wait()
        await settle(pilot)
        status = str(h.app.status.render())
        assert "2 memories (+1 in other namespaces) ·" in status, status


async def test_the_app_stays_up_at_any_width(make_app: MakeApp) -> None:
    # An adversary narrowed the terminal to 4 columns: the empty box's placeholder was
    # wrapped to no width, Textual's wrap raised, and the app closed.
    h = make_app(ScriptedModel(["Hello **Ana**."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Hi, my name is Ana")
        for inspector_open in (False, True):
            if inspector_open:
                await pilot.press("f2")
            for width in (6, 4, 2):
                await pilot.resize_terminal(width, 20)
                await pilot.pause()
                await pilot.pause()
                assert h.app.is_running and h.app.return_code is None
                # A later adversary: the command palette at 4 or 6 columns closed the app.
                await pilot.press("ctrl+p")
                await pilot.pause()
                await pilot.pause()
                assert h.app.is_running and h.app.return_code is None
                await pilot.press("escape")
                await pilot.pause()
            await pilot.resize_terminal(120, 36)
            await pilot.pause()
        # Open, then narrowed.
        await pilot.press("ctrl+p")
        await pilot.pause()
        for width in (6, 4):
            await pilot.resize_terminal(width, 20)
            await pilot.pause()
            await pilot.pause()
            assert h.app.is_running and h.app.return_code is None
        await pilot.press("escape")
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        h.app.prompt.text = "still here"
        await pilot.pause()
        assert h.app.is_running and h.app.prompt.text == "still here"


def test_a_notice_before_the_first_screen_is_kept_for_it(make_app: MakeApp) -> None:
    # Placing toasts above the message box must not need the box: a notice raised while
    # the app starts (a config warning) has no screen yet.
    h = make_app(ScriptedModel([], name="qwen3:8b"))
    h.app.notify("before any screen")  # raised ScreenStackError
    assert [shown[0] for shown in h.app._showing] == ["before any screen"]


def test_the_recall_detail_shows_the_best_match_first_and_what_changed_last() -> None:
    """Found by two new users: the detail listed "1.00, 0.48, 1.00, 1.00, 0.48", in the
    order the model reads them, and it read as no order at all."""
    from agent.events import MemoryRecalled
    from tests.tui.conftest import seed_entry
    from tui.widgets.recalled_entry import describe

    scored = [("a", 1.0), ("b", 0.48), ("c", 0.9), ("old", 1.0), ("d", 0.3)]
    injected = [
        seed_entry(key, f"entry {key}!").model_copy(update={"score": s}) for key, s in scored
    ]
    changed = {injected[3].id: "since changed: a later message says so"}
    shown = describe(MemoryRecalled(injected, [], "hybrid", since_changed=changed)).plain
    order = ["entry a!", "entry c!", "entry b!", "entry d!", "entry old!"]
    assert sorted(order, key=shown.index) == order
    assert "best match first; what a later memory changed, last" in shown


async def test_the_palette_regenerates_a_stopped_reply_and_says_when_none_is(
    make_app: MakeApp,
) -> None:
    """Found by a new user: Regenerate could not be reached with Tab, and the palette had no
    such command."""
    hold = asyncio.Event()
    h = make_app(
        ScriptedModel(
            ["Done.", Reply("A partial answer that goes on", hold=hold), "Regenerated answer."],
            name="qwen3:8b",
        )
    )
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Hello")
        h.app.stopped_reply_action("regenerate")  # a reply that was not stopped
        await settle(pilot)
        told = [n.message for n in h.app._notifications]
        assert told[-1].startswith("Only a stopped or failed reply can be")
        await stop_first_reply(pilot, h, "Tell me a long story")
        h.app.stopped_reply_action("regenerate")
        await settle(pilot)
        await pilot.pause()
        replies = list(h.app.query(AssistantMessage))
        assert [r.text for r in replies] == ["Done.", "Regenerated answer."]

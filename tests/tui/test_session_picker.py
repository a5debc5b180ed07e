"""The session picker: odd files in the sessions folder never freeze the app."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import Literal

import pytest
from textual.widgets import OptionList

from agent.sessions import SessionInfo, SessionStore
from agent.testing import ScriptedModel
from tests.tui.conftest import AppHarness, MakeApp, settle
from tests.tui.test_chat import send
from tui.screens.pickers import PickerScreen


def _saved_chat(h: AppHarness, exchanges: int) -> str:
    """A saved chat of `exchanges` numbered questions and replies; its id."""
    from agent.messages import ChatMessage

    store = h.runtime.sessions
    chat = store.new()
    messages = [
        ChatMessage(role=role, content=f"{role} line {n}")
        for n in range(exchanges)
        for role in ("user", "assistant")
    ]
    store.append(chat, messages)
    return chat.id


def _shown(h: AppHarness) -> list[str]:
    """The messages sent, as the chat shows them."""
    from tui.widgets.user_message import UserMessage

    return [m.text for m in h.app.chat.query(UserMessage)]


async def test_a_fifo_or_a_link_out_is_not_offered(make_app: MakeApp, tmp_path: Path) -> None:
    h = make_app(ScriptedModel(["Hi."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "A real conversation")
        folder = h.runtime.sessions.directory
        os.mkfifo(folder / "20250101-000005-ffffff.jsonl")
        outside = tmp_path / "passwd"
        outside.write_text("root:x:0:0:root:/root:/bin/bash\n")
        (folder / "20250101-000006-eeeeee.jsonl").symlink_to(outside)
        h.app.action_switch_session()
        await settle(pilot)
        picker = h.app.screen
        assert isinstance(picker, PickerScreen)
        assert picker.query_one(OptionList).option_count == 1


async def test_sessions_are_read_off_the_event_loop(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[bool] = []
    real_list, real_load = SessionStore.list, SessionStore.load

    def listing(store: SessionStore) -> list[SessionInfo]:
        threads.append(threading.current_thread() is threading.main_thread())
        return real_list(store)

    def loading(store: SessionStore, session_id: str) -> object:
        threads.append(threading.current_thread() is threading.main_thread())
        return real_load(store, session_id)

    monkeypatch.setattr(SessionStore, "list", listing)
    monkeypatch.setattr(SessionStore, "load", loading)
    h = make_app(ScriptedModel(["Hi."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "Something to resume")
        old = h.runtime.session.id
        h.app.action_switch_session()
        await settle(pilot)
        assert isinstance(h.app.screen, PickerScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert h.runtime.session.id == old
        assert threads and not any(threads)


async def test_a_chat_whose_model_is_gone_opens_read_only_and_offers_another(
    make_app: MakeApp,
) -> None:
    from agent.messages import ChatMessage
    from tui.widgets.prompt_input import PromptInput
    from tui.widgets.read_only_banner import ReadOnlyBanner
    from tui.widgets.user_message import UserMessage

    model = ScriptedModel(["Going on with qwen."], name="qwen3:8b")
    model.installed[:] = ["qwen3:8b", "gemma3:4b"]
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        store = h.runtime.sessions
        old = store.new()
        store.append(
            old,
            [
                ChatMessage(role="user", content="What is a ryokan?"),
                ChatMessage(role="assistant", content="A Japanese inn.", model="llama2:7b"),
            ],
        )
        h.app.chats.resume(old.id)
        await settle(pilot)
        banner = h.app.query_one(ReadOnlyBanner)
        reason = h.app.chats.read_only
        assert banner.display and reason is not None
        assert "llama2:7b" in reason and "no longer installed" in reason
        assert "(such as qwen3:8b)" in reason  # the model the status bar names
        # A message is refused, said why, and kept in the prompt.
        prompt = h.app.query_one(PromptInput)
        prompt.text = "And an onsen?"
        await pilot.press("enter")
        await settle(pilot)
        assert prompt.text == "And an onsen?"
        assert [m.text for m in h.app.query(UserMessage)] == ["What is a ryokan?"]
        assert any("no longer installed" in n.message for n in h.app._notifications)
        # The banner's button opens the model picker; choosing a model lifts read-only.
        await pilot.click("#read-only-switch")
        await settle(pilot)
        picker = h.app.screen
        assert isinstance(picker, PickerScreen)
        picker.dismiss("qwen3:8b")
        await settle(pilot)
        assert h.app.chats.read_only is None and not banner.display
        prompt.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert [m.text for m in h.app.query(UserMessage)] == ["What is a ryokan?", "And an onsen?"]
        on_disk = store.load(old.id).messages
        assert (on_disk[-1].content, on_disk[-1].model) == ("Going on with qwen.", "qwen3:8b")


async def test_a_chat_whose_model_is_installed_opens_writable(make_app: MakeApp) -> None:
    from agent.messages import ChatMessage

    model = ScriptedModel(name="qwen3:8b")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        store = h.runtime.sessions
        old = store.new()
        store.append(
            old,
            [
                ChatMessage(role="user", content="Hello"),
                ChatMessage(role="assistant", content="Hi.", model="qwen3:8b"),
            ],
        )
        h.app.chats.resume(old.id)
        await settle(pilot)
        assert h.app.chats.read_only is None


async def test_ctrl_f_finds_a_message_in_a_past_chat_and_opens_it_there(
    make_app: MakeApp,
) -> None:
    from agent.messages import ChatMessage
    from tui.screens.chat_search import ChatSearchScreen
    from tui.widgets.user_message import UserMessage

    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        store = h.runtime.sessions
        trip = store.new()
        filler = [
            ChatMessage(role=role, content=f"small talk {n}")
            for n in range(14)
            for role in ("user", "assistant")
        ]
        store.append(
            trip,
            [
                *filler[:6],
                ChatMessage(role="user", content="Book the Ryokan in Kyoto for April"),
                ChatMessage(role="assistant", content="Noted: a ryokan in Kyoto."),
                *filler[6:],
            ],
        )
        other = store.new()
        store.append(other, [ChatMessage(role="user", content="Nothing about travel here")])
        await pilot.press("ctrl+f")
        await settle(pilot)
        screen = h.app.screen
        assert isinstance(screen, ChatSearchScreen)
        await pilot.press(*"ryokan KYOTO")
        await settle(pilot)
        for _ in range(1000):  # the search starts once typing pauses
            if screen.hits:
                break
            await pilot.pause(0.05)
            await settle(pilot)
        assert [(hit.session_id, hit.index, hit.role) for hit in screen.hits] == [
            (trip.id, 6, "user"),
            (trip.id, 7, "assistant"),
        ]
        assert "2 messages in 1 chat" in str(screen.query_one("#chat-search-count").render())
        # Its time too: two chats of one title and day read alike (a new user, a plumber).
        first = str(screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d  ", first), first
        await pilot.press("down")  # into the hits, on the first: Enter opens it
        assert screen.query_one(OptionList).highlighted == 0
        await pilot.press("enter")
        await settle(pilot)
        assert h.runtime.session.id == trip.id
        found = h.app.chat.query(".search-hit")
        assert len(found) == 1 and isinstance(found[0], UserMessage)
        assert found[0].text == "Book the Ryokan in Kyoto for April"
        assert found[0].region.height > 0  # scrolled into view
        # Every message is laid out (a scroll made before layout left the view half drawn).
        assert all(child.size.height > 0 for child in h.app.chat.children)
        chat = h.app.chat
        assert 0 < chat.scroll_y < chat.max_scroll_y  # at the hit, not at either end


async def test_ctrl_f_with_nothing_found_opens_nothing(make_app: MakeApp) -> None:
    from tui.screens.chat_search import ChatSearchScreen

    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        before = h.runtime.session.id
        await pilot.press("ctrl+f")
        await settle(pilot)
        screen = h.app.screen
        assert isinstance(screen, ChatSearchScreen)
        await screen.search("zebra")
        assert screen.hits == []
        await pilot.press("enter", "escape")
        await settle(pilot)
        assert not isinstance(h.app.screen, ChatSearchScreen)
        assert h.runtime.session.id == before


async def test_a_reopened_chat_shows_its_commands_and_a_cut_off_reply_as_they_were(
    make_app: MakeApp,
) -> None:
    """Found by a new user: slash commands left no trace in a reopened chat or a chat
    search, and a reply the server cut off read "⏹ stopped" once reopened."""
    from textual.widgets import Label

    from agent.messages import ChatMessage, CommandNote
    from agent.session_search import search_sessions
    from agent.sessions import command_slot
    from tui.widgets.assistant_message import AssistantMessage
    from tui.widgets.tool_call_entry import ToolCallEntry
    from tui.widgets.user_message import UserMessage

    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        store = h.runtime.sessions
        chat = store.new()
        store.append(chat, [ChatMessage(role="user", content="What is my cat called?")])
        store.append(chat, [ChatMessage(role="assistant", content="Mi", stopped=True, failed=True)])
        store.note_command(
            chat,
            CommandNote(
                text="/remember my cat is Miso",
                tool="memory_store",
                arguments={"key": "cat", "content": "my cat is Miso"},
                result='{"stored": {"key": "cat", "content": "my cat is Miso"}}',
            ),
        )
        await h.app.chats.open(chat.id)
        await settle(pilot)
        kinds = [type(w).__name__ for w in h.app.chat.children]
        assert kinds == ["UserMessage", "AssistantMessage", "UserMessage", "ToolCallEntry"]
        reply = h.app.chat.query_one(AssistantMessage)
        status = str(reply.query_one("#reply-status", Label).render())
        assert status == "✗ cut off: the reply failed"
        entry = h.app.chat.query_one(ToolCallEntry)
        assert str(entry.title).startswith("✓ memory_store: stored as cat")
        assert h.app.chat.query(UserMessage)[-1].text == "/remember my cat is Miso"
        hits = search_sessions(store, "remember miso")
        assert [(hit.index, hit.role) for hit in hits] == [(command_slot(0), "command")]


async def test_a_long_chat_opens_at_its_end_and_shows_earlier_messages_on_request(
    make_app: MakeApp,
) -> None:
    """Found by an adversary: a chat of 800 exchanges took minutes to open (every message
    was laid out). It shows its last messages, a button the earlier ones, and a search
    hit far back opens there."""
    from tui.widgets.chat_view import TRANSCRIPT_WINDOW, EarlierMessages
    from tui.widgets.user_message import UserMessage

    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        chat = _saved_chat(h, 100)
        await h.app.chats.open(chat)
        await settle(pilot)
        shown = _shown(h)
        assert len(shown) == TRANSCRIPT_WINDOW // 2 and shown[-1] == "user line 99"
        button = h.app.chat.query_one(EarlierMessages)
        assert "140 earlier messages" in str(button.label)
        button.press()
        await settle(pilot)
        shown = _shown(h)
        assert len(shown) == TRANSCRIPT_WINDOW and shown[0] == "user line 40"
        await h.app.chats.open(chat, at=10)  # a search hit: "user line 5"
        await settle(pilot)
        found = h.app.chat.query(".search-hit")
        assert len(found) == 1 and isinstance(found[0], UserMessage)
        assert found[0].text == "user line 5"


async def test_a_hit_far_back_opens_a_window_and_the_chat_goes_on_at_its_end(
    make_app: MakeApp,
) -> None:
    """Found by an adversary: a hit far back in 4,000 messages laid out everything from
    the hit to the end (two minutes), each "show more" laid out all shown again, and a
    command run since opening was gone after it."""
    from tui.widgets.chat_view import TRANSCRIPT_WINDOW, EarlierMessages, LaterMessages
    from tui.widgets.tool_call_entry import ToolCallEntry
    from tui.widgets.user_message import UserMessage

    h = make_app(ScriptedModel(["A new answer."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await h.app.chats.open(_saved_chat(h, 1000), at=200)  # "user line 100"
        await settle(pilot)
        shown = _shown(h)
        assert len(shown) == TRANSCRIPT_WINDOW // 2
        assert shown[0] == "user line 93" and shown[-1] == "user line 122"
        later = h.app.chat.query_one(LaterMessages)
        assert "1,755 later messages" in str(later.label)
        first_shown = h.app.chat.query(UserMessage).first()
        later.press()
        await settle(pilot)
        shown = _shown(h)
        assert shown[-1] == "user line 152" and len(shown) == TRANSCRIPT_WINDOW
        assert h.app.chat.query(UserMessage).first() is first_shown  # nothing laid out again
        # A message sent goes on at the chat's end, shown from there.
        await send(pilot, "/remember my cat is Miso")
        await settle(pilot)
        shown = _shown(h)
        assert shown[-2:] == ["user line 999", "/remember my cat is Miso"]
        assert not h.app.chat.query(LaterMessages)
        h.app.chat.query_one(EarlierMessages).press()
        await settle(pilot)
        shown = _shown(h)
        assert shown[0] == "user line 940" and shown[-1] == "/remember my cat is Miso"
        assert h.app.chat.query(ToolCallEntry)  # the command run since stays


async def test_a_reopened_chat_shows_what_memory_each_turn_was_given(make_app: MakeApp) -> None:
    """Found by a new user: the ◆ lines under each message were gone once a chat was
    reopened. The file keeps which memories and their scores, not their text: a memory
    forgotten since shows as forgotten."""
    from agent.messages import ChatMessage, RecalledItem, RecallNote
    from agent.recall_notes import FORGOTTEN
    from memory.entry import RecallScores
    from tui.widgets.recalled_entry import RecalledEntry, describe

    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        cat = await h.runtime.memory.store("cat", "The user's cat is called Miso")
        store = h.runtime.sessions
        chat = store.new()
        store.append(chat, [ChatMessage(role="user", content="What is my cat called?")])
        scores = RecallScores(keyword=1.0, fused=0.9, lane="keyword")
        note = RecallNote(
            mode="hybrid",
            items=[
                RecalledItem(id=cat.id, key="cat", category="core", scores=scores),
                RecalledItem(id="gone", key="dog", category="core", scores=scores),
            ],
        )
        store.note_recall(chat, note)
        store.append(chat, [ChatMessage(role="assistant", content="Miso.")])
        records = (store.directory / f"{chat.id}.jsonl").read_text()
        assert "Miso" not in records.split('"recalled"')[1].split("\n")[0]  # no text kept
        await h.app.chats.open(chat.id)
        await settle(pilot)
        kinds = [type(w).__name__ for w in h.app.chat.children]
        assert kinds == ["UserMessage", "RecalledEntry", "AssistantMessage"]
        entry = h.app.chat.query_one(RecalledEntry)
        assert str(entry.title).startswith("◆ recalled 2 memories (hybrid)")
        shown = describe(entry.event).plain
        assert "The user's cat is called Miso" in shown and FORGOTTEN in shown


async def test_a_chat_is_deleted_from_the_picker_after_asking(make_app: MakeApp) -> None:
    """Found by new users: chats could not be deleted. Delete twice moves the chat's file
    to deleted/ (out of every list, put back by moving it back); never the chat in use."""
    h = make_app(ScriptedModel(["Hi."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "The chat in use")
        old = _saved_chat(h, 1)
        folder = h.runtime.sessions.directory
        h.app.action_switch_session()
        await settle(pilot)
        picker = h.app.screen
        options = picker.query_one(OptionList)
        assert options.option_count == 2
        ids = [options.get_option_at_index(i).id for i in range(2)]
        options.highlighted = ids.index(h.runtime.session.id)
        await pilot.press("delete", "delete")
        await settle(pilot)
        assert options.option_count == 2  # the chat in use stays
        options.highlighted = ids.index(old)
        await pilot.press("delete")
        await settle(pilot)
        assert options.option_count == 2 and (folder / f"{old}.jsonl").exists()  # asked first
        # The question names the chat (a new user deleted another than he meant).
        line = " ".join(str(options.get_option_at_index(ids.index(old)).prompt).split())
        asked = [n.message for n in h.app._notifications if "Delete again" in n.message]
        assert asked and line[:40] in asked[-1]
        await pilot.press("delete")
        await settle(pilot)
        assert options.option_count == 1
        assert not (folder / f"{old}.jsonl").exists()
        assert (folder / "deleted" / f"{old}.jsonl").exists()
        assert old not in [info.id for info in h.runtime.sessions.list()]


@pytest.mark.parametrize("size", [(90, 30), (80, 24)])
async def test_the_chat_search_box_fits_a_narrow_screen(
    make_app: MakeApp, size: tuple[int, int]
) -> None:
    """Found by the eighth new user: at 90 columns the box lost its right border."""
    from tui.screens.chat_search import ChatSearchScreen

    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=size) as pilot:
        await h.app.ready.wait()
        await pilot.press("ctrl+f")
        await pilot.pause()
        assert isinstance(h.app.screen, ChatSearchScreen)
        box = h.app.screen.query_one("#chat-search").region
        assert box.right <= size[0] and box.x >= 0


@pytest.mark.parametrize(
    ("said", "note", "kinds", "shown"),
    [
        # Found by an adversary: after a kill mid-reply, the message showed as if answered,
        # while the model was sent it joined to the next one.
        (
            [
                ("user", "I moved to Sydney last month"),
                ("user", "hello again"),
                ("assistant", "Hi!"),
            ],
            None,
            ["UserMessage", "ReplyNote", "UserMessage", "AssistantMessage"],
            "No reply to this message",
        ),
        # Found by the tenth adversary: after a kill -9 mid-reply, the last message showed
        # with nothing under it.
        (
            [("user", "Hi"), ("assistant", "Hello!"), ("user", "Tell me a long story")],
            None,
            ["UserMessage", "AssistantMessage", "UserMessage", "ReplyNote"],
            "memchat stopped before it was answered",
        ),
        # Found by the ninth new user: "Your message updated the memory …" was gone once
        # the chat was reopened.
        (
            [("user", "We moved to Lisbon!"), ("assistant", "Congratulations!")],
            "Your message updated the memory 'home'",
            ["UserMessage", "AssistantMessage", "ReplyNote"],
            "updated the memory 'home'",
        ),
    ],
)
async def test_a_reopened_chat_shows_its_lines_beside_the_messages(
    make_app: MakeApp,
    said: list[tuple[Literal["user", "assistant"], str]],
    note: str | None,
    kinds: list[str],
    shown: str,
) -> None:
    from agent.messages import ChatMessage
    from tui.widgets.reply_note import ReplyNote

    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        store = h.runtime.sessions
        chat = store.new()
        store.append(chat, [ChatMessage(role=role, content=text) for role, text in said])
        if note is not None:
            store.note_reply(chat, note)
        await h.app.chats.open(chat.id)
        await settle(pilot)
        assert [type(w).__name__ for w in h.app.chat.children] == kinds
        assert shown in str(h.app.chat.query_one(ReplyNote).render())


async def test_the_chat_list_gives_times_where_the_user_is(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a new user in Los Angeles: the chat list said 23:23 at 15:23 their time."""
    import time
    from datetime import datetime, timedelta

    from tui.screens.pickers import PickerScreen

    monkeypatch.setenv("TZ", "Pacific/Auckland")
    time.tzset()
    try:
        h = make_app(ScriptedModel(["Hi."], name="qwen3:8b"))
        async with h.app.run_test(size=(120, 36)) as pilot:
            await h.app.ready.wait()
            await send(pilot, "The chat in use")
            h.app.action_switch_session()
            await settle(pilot)
            picker = h.app.screen
            assert isinstance(picker, PickerScreen)
            label = picker.choices[0][1]
            shown = datetime.strptime(label[:16], "%Y-%m-%d %H:%M")
            assert abs(shown - datetime.now().replace(tzinfo=None)) < timedelta(minutes=2)
    finally:
        monkeypatch.undo()
        time.tzset()


async def test_ctrl_f_says_it_is_searching_until_the_hits_come(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an adversary: the first search over long pastes took tens of seconds with
    nothing on screen."""
    from textual.widgets import Label

    from agent.session_search import SessionHit, search_sessions
    from tui.screens import chat_search
    from tui.screens.chat_search import ChatSearchScreen

    started, release = threading.Event(), threading.Event()

    def slow(store: SessionStore, query: str, limit: int) -> list[SessionHit]:
        started.set()
        release.wait(timeout=60)
        return search_sessions(store, query, limit)

    monkeypatch.setattr(chat_search, "search_sessions", slow)
    h = make_app(ScriptedModel(name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await pilot.press("ctrl+f")
        await settle(pilot)
        screen = h.app.screen
        assert isinstance(screen, ChatSearchScreen)
        await pilot.press(*"kyoto")
        for _ in range(1000):  # the search starts once typing pauses
            if started.is_set():
                break
            await pilot.pause()
        count = screen.query_one("#chat-search-count", Label)
        assert "Searching" in str(count.render())
        release.set()
        for _ in range(1000):
            if "Searching" not in str(count.render()):
                break
            await pilot.pause()
        assert "0 messages" in str(count.render())

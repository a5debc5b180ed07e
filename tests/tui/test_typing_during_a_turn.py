"""Nothing typed is ever discarded: messages sent during a reply queue, failures come back."""

from __future__ import annotations

from agent.model import ServerUnavailableError
from agent.testing import Reply
from tests.tui.conftest import MakeApp, settle
from tests.tui.test_stop_before_reply import StallingModel
from tui.widgets.prompt_input import PromptInput
from tui.widgets.user_message import UserMessage

FACTS = (
    "My sister Ines lives in Porto",
    "I am allergic to peanuts",
    "The wifi password hint is the cat's name",
    "Dentist appointment is on the 3rd of May",
    "I prefer tea over coffee",
)


async def test_messages_sent_during_a_reply_are_queued_in_order(make_app: MakeApp) -> None:
    model = StallingModel("First answer.", "Second answer.", "Third answer.")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.text = "one"
        await pilot.press("enter")
        await model.asked.wait()
        for text in ("two", "three"):
            prompt.text = text
            await pilot.press("enter")
            await pilot.pause()
        prompt.text = "a draft"  # typed meanwhile, not sent
        model.release.set()
        await settle(pilot)
        assert [m.text for m in h.app.query(UserMessage)] == ["one", "two", "three"]
        assert prompt.text == "a draft"


async def test_one_notice_for_many_messages_queued_at_once(make_app: MakeApp) -> None:
    """Found by an adversary: a page pasted line by line during a reply raised one "Sent
    after the current reply" toast per line; thousands of toasts froze the app."""
    model = StallingModel("First answer.", *["Ok."] * 30)
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.text = "one"
        await pilot.press("enter")
        await model.asked.wait()
        for number in range(30):
            prompt.text = f"line {number}"
            await pilot.press("enter")
        queued = [n for n in h.app._notifications if n.message.startswith("Sent after")]
        assert len(queued) == 1
        model.release.set()
        await settle(pilot)
        assert len(h.app.query(UserMessage)) == 31


async def test_remember_lines_typed_fast_all_reach_the_store(make_app: MakeApp) -> None:
    model = StallingModel("Ok.")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.text = "hello"
        await pilot.press("enter")
        await model.asked.wait()
        for fact in FACTS:
            prompt.text = f"/remember {fact}"
            await pilot.press("enter")
        model.release.set()
        await settle(pilot)
        contents = {entry.content for entry in await h.runtime.memory.list(limit=100)}
        assert set(FACTS) <= contents
        assert prompt.text == ""


async def test_a_failed_message_does_not_overwrite_the_draft(make_app: MakeApp) -> None:
    class FailingLate(StallingModel):
        __test__ = False

    model = FailingLate(Reply(error=ServerUnavailableError("http://127.0.0.1:11434")))
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.text = "Please do not lose this"
        await pilot.press("enter")
        await model.asked.wait()
        prompt.text = "nor this draft"
        model.release.set()
        await settle(pilot)
        assert prompt.text == "Please do not lose this\nnor this draft"


async def test_a_queue_behind_a_failure_comes_back_in_order(make_app: MakeApp) -> None:
    model = StallingModel(
        Reply(error=ServerUnavailableError("http://127.0.0.1:11434")), "unused", "unused"
    )
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        for text in ("first", "second", "third"):
            prompt.text = text
            await pilot.press("enter")
            await model.asked.wait()
        prompt.text = "draft"
        model.release.set()
        await settle(pilot)
        assert prompt.text == "first\nsecond\nthird\ndraft"
        assert not h.app.turns.queued


async def test_esc_returns_the_queue_to_the_input(make_app: MakeApp) -> None:
    model = StallingModel("never")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.text = "first"
        await pilot.press("enter")
        await model.asked.wait()
        prompt.text = "second"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        await settle(pilot)
        assert prompt.text == "first\nsecond\n"  # what is typed next goes on a line of its own


async def test_messages_put_back_go_again_as_they_were(make_app: MakeApp) -> None:
    """Found by a new user: typing on after a failure had put two messages back, the next
    Enter sent all of it as one message ("… mon/wed 7ambiscuit next vet appt …")."""
    model = StallingModel(
        Reply(error=ServerUnavailableError("http://127.0.0.1:11434")), "a", "b", "c"
    )
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        for text in ("inv 1042 northwind status", "gym is mon/wed 7am"):
            prompt.text = text
            await pilot.press("enter")
            await model.asked.wait()
        model.release.set()
        await settle(pilot)
        assert prompt.text == "inv 1042 northwind status\ngym is mon/wed 7am\n"
        await pilot.press(*"vet nov 14", "enter")
        await settle(pilot)
        sent = [m.text for m in h.app.query(UserMessage)]
        assert sent == ["inv 1042 northwind status", "gym is mon/wed 7am", "vet nov 14"]


async def test_a_message_put_back_and_changed_goes_as_shown(make_app: MakeApp) -> None:
    model = StallingModel(Reply(error=ServerUnavailableError("http://127.0.0.1:11434")), "a")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.text = "my cat is"
        await pilot.press("enter")
        await model.asked.wait()
        model.release.set()
        await settle(pilot)
        assert prompt.text == "my cat is"
        await pilot.press("end", *" Miso", "enter")
        await settle(pilot)
        assert [m.text for m in h.app.query(UserMessage)] == ["my cat is Miso"]


async def test_one_message_put_back_and_added_to_on_new_lines_goes_as_one(
    make_app: MakeApp,
) -> None:
    """Found by a second adversary: "Shopping list:" put back, then "- eggs" and "- milk"
    added with Ctrl+J, went as two messages."""
    model = StallingModel(Reply(error=ServerUnavailableError("http://127.0.0.1:11434")), "a")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.text = "Shopping list:"
        await pilot.press("enter")
        await model.asked.wait()
        model.release.set()
        await settle(pilot)
        await pilot.press("end", "ctrl+j", *"- eggs", "ctrl+j", *"- milk", "enter")
        await settle(pilot)
        sent = [m.text for m in h.app.query(UserMessage)]
        assert sent == ["Shopping list:\n- eggs\n- milk"]


async def test_of_messages_put_back_those_before_a_changed_one_go_alone(
    make_app: MakeApp,
) -> None:
    model = StallingModel(Reply(error=ServerUnavailableError("http://127.0.0.1:11434")), "a", "b")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        for text in ("my sister moved to Rome", "dentist on 14/1"):
            prompt.text = text
            await pilot.press("enter")
            await model.asked.wait()
        model.release.set()
        await settle(pilot)
        prompt.text = "my sister moved to Rome\ndentist on 14/1 at 9am\n"
        await pilot.press("enter")
        await settle(pilot)
        sent = [m.text for m in h.app.query(UserMessage)]
        assert sent == ["my sister moved to Rome", "dentist on 14/1 at 9am"]


async def test_a_message_sent_from_the_history_leaves_what_was_put_back(
    make_app: MakeApp,
) -> None:
    """Read by a second adversary: sending an older message over the ones put back lost
    them for good."""
    model = StallingModel("first answer", Reply(error=ServerUnavailableError("x")), "b")
    h = make_app(model)
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.text = "an older message"
        await pilot.press("enter")
        await model.asked.wait()
        model.release.set()
        await settle(pilot)
        prompt.text = "do not lose me"
        await pilot.press("enter")
        await settle(pilot)
        assert prompt.text == "do not lose me"
        await pilot.press("home", "up", "up")  # the one that failed, then the one before
        assert prompt.text == "an older message"
        await pilot.press("enter")
        await settle(pilot)
        assert prompt.text == "do not lose me"

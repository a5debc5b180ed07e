"""A link in a reply: a web address opens, nothing else does and no app action runs."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown

from agent.testing import ScriptedModel
from tests.tui.conftest import MakeApp, settle
from tests.tui.hostile_checks import clicks
from tui.widgets.assistant_message import AssistantMessage
from tui.widgets.prompt_input import PromptInput

REPLY = (
    "See [the docs](https://example.com/docs), [this](file:///etc/passwd), "
    "[that](javascript:alert(1)) and [quit](app.quit) or [@click=app.quit]here[/]."
)


async def test_only_web_links_open_from_a_reply(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = make_app(ScriptedModel([REPLY], name="qwen3:8b"), auto_save=False)
    opened: list[str] = []
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        monkeypatch.setattr(h.app, "open_url", lambda url, **_: opened.append(url))
        h.app.query_one(PromptInput).text = "links please"
        await pilot.press("enter")
        await settle(pilot)
        reply = h.app.query_one(AssistantMessage)
        actions = clicks(reply)
        assert actions and all(action.startswith("link(") for action in actions)
        markdown = reply.query_one("#reply", Markdown)
        for href in ("https://example.com/docs", "file:///etc/passwd", "javascript:alert(1)"):
            markdown.post_message(Markdown.LinkClicked(markdown, href))
        markdown.post_message(Markdown.LinkClicked(markdown, "app.quit"))
        await settle(pilot)
        assert opened == ["https://example.com/docs"]
        refused = [n.message for n in h.app._notifications if n.message.startswith("Not opened")]
        assert len(refused) == 3 and h.app.is_running

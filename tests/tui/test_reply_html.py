"""HTML in a reply is shown as the text it is (the Markdown widget draws no HTML)."""

from __future__ import annotations

from textual.widgets.markdown import MarkdownBlock

from agent.testing import ScriptedModel
from tests.tui.conftest import MakeApp
from tests.tui.test_chat import send
from tui.widgets.assistant_message import AssistantMessage


async def test_tags_in_a_reply_are_not_swallowed(make_app: MakeApp) -> None:
    reply = 'Use a <div> and <span class="x"> element, or a<b>c.\n\n<details>open me</details>'
    h = make_app(ScriptedModel([reply], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        await send(pilot, "how do I lay this out?")
        message = h.app.query_one(AssistantMessage)
        shown = " ".join(str(block._content) for block in message.query(MarkdownBlock))
        assert 'Use a <div> and <span class="x"> element, or a<b>c.' in shown
        assert "<details>open me</details>" in shown

"""A paste with Windows' line ends keeps no password, however the terminal delivers it.

Found by an adversary: a password manager's CSV export pasted with CRLF line ends showed a
blank line after every line, was saved so, and kept its passwords ("Sommer,2024!x",
"hunter2hunter"); the same paste with LF line ends was redacted whole. A terminal (tmux,
most) sends each line end of a paste as a CR, so CRLF arrives as two line ends.
"""

from __future__ import annotations

import pytest
from textual import events

from agent.testing import ScriptedModel
from tests.tui.conftest import MakeApp, settle
from tui.widgets.prompt_input import PromptInput

EXPORT = (
    "Titel,URL,Benutzername,Passwort,Notizen\r\n"
    'Bank,https://bank.de,jan,"Sommer,2024!x",\r\n'
    "Mail,https://mail.de,jan@x.de,hunter2hunter,\r\n"
)


@pytest.mark.parametrize(
    ("pasted", "lines"),
    [(EXPORT, 4), (EXPORT.replace("\n", "\r"), 7)],
    ids=["as-is", "through-a-terminal"],
)
async def test_a_crlf_paste_keeps_no_password(make_app: MakeApp, pasted: str, lines: int) -> None:
    h = make_app(ScriptedModel(["Noted."], name="qwen3:8b"))
    async with h.app.run_test(size=(120, 36)) as pilot:
        await h.app.ready.wait()
        prompt = h.app.query_one(PromptInput)
        prompt.focus()
        await pilot.pause()
        h.app.post_message(events.Paste(pasted))
        await settle(pilot)
        assert "\r" not in prompt.text
        assert prompt.document.line_count == lines
        await pilot.press("enter")
        await settle(pilot)
        listed = await h.runtime.memory.list(category="conversation")
        saved = [entry.content for entry in listed]
        assert len(saved) == 1
        assert "Sommer" not in saved[0] and "hunter2hunter" not in saved[0]
        assert "Benutzername" in saved[0] and "\r" not in saved[0]

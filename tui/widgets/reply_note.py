"""A line in the conversation that explains the reply beside it."""

from __future__ import annotations

from textual.widgets import Static

from agent.events import Notice
from tui.plain import plain


class ReplyNote(Static):
    """Why a reply looks the way it does (cut short, answered without tools).

    Kept in the transcript, where a notification would have passed unseen. Shown literally:
    the text may carry a model's or a server's words.
    """

    def __init__(self, notice: Notice) -> None:
        super().__init__(plain(notice.text), classes=f"reply-note {notice.level}")
        self.notice = notice

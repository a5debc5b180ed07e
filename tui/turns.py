"""Turns in the app: routing what the user sends, running replies, Esc, the queue."""

from __future__ import annotations

import asyncio
import contextlib
import difflib
from collections import deque
from typing import TYPE_CHECKING, Literal

from textual.worker import Worker, WorkerCancelled

from agent.autosave import CONTINUE_PROMPT
from agent.sessions import REWRITTEN_ELSEWHERE
from memory.lazy_patterns import lazy_compile
from memory.wording import counted
from tui.quitting import unless_quitting
from tui.turn_view import Outcome, TurnView
from tui.widgets.assistant_message import AssistantMessage

if TYPE_CHECKING:
    from textual.widget import Widget

    from agent.sessions import Session
    from tui.app import MemchatApp

UI_COMMANDS = ("/new", "/sessions", "/model", "/help", "/incognito")
_COMMAND_WORD = lazy_compile(r"/[A-Za-z][\w-]*")
"""What a typed command looks like: "/foo", not a path such as "/etc/hosts"."""


def refused_command(text: str) -> str | None:
    """Why `text` is not sent: an unknown command or one without its argument, else None.

    Found by a new user: "/rememebr my cat is Miso" went to the model as a message (and
    was saved as one), and a bare "/remember" left only a toast. Text that starts with a
    space is sent as it is, whatever follows, and so is a sentence that opens with a word
    like no command ("/tmp is full", found by an adversary).
    """
    head = command_word(text)
    if not head:
        return None
    # Imported here: agent.commands brings the text analysis, which the first paint of
    # the app does not need.
    from agent.commands import COMMANDS, parse_command

    known = (*COMMANDS, *UI_COMMANDS)
    if text.strip() == "/":
        # A "/" alone, as a command palette is opened elsewhere: it went to the model as a
        # message (a new user looked for the list of commands).
        return f"the commands are {', '.join(known)}; F1 lists them."
    if not _COMMAND_WORD.fullmatch(head) or head in UI_COMMANDS:
        return None
    if head not in COMMANDS:
        close = difflib.get_close_matches(head, known, 1, 0.6)
        if text[len(head) :].strip() and not close:
            return None
        meant = f"did you mean {close[0]}? " if close else ""
        return (
            f"{head} is not a command ({meant}the commands are {', '.join(known)}; F1 lists "
            "them). To send it as a message, start it with a space."
        )
    usage = parse_command(text)
    return usage if isinstance(usage, str) else None


def command_word(text: str) -> str:
    """The word a command opens with, up to any whitespace; "" when `text` is no command.

    A leading space makes any text a message; a newline or a tab after the word slipped
    past the check (found by an adversary).
    """
    if not text.startswith("/"):
        return ""
    word = text.split(maxsplit=1)[0]
    if word.lower() in UI_COMMANDS:
        return word.lower()  # caps lock on: "/NEW" is /new
    from agent.commands import split_head  # the text analysis: not at first paint

    return split_head(text)[0]


def _offer_again(replaced: list[Widget]) -> None:
    """A Regenerate that produced nothing leaves the stopped reply offering its buttons.

    Found by an adversary: Esc right after Regenerate left the reply without Continue or
    Regenerate, though the chat file still had it stopped.
    """
    for widget in replaced:
        if isinstance(widget, AssistantMessage) and widget.is_attached:
            widget.add_class("stopped")


_QUIT_WAIT_S = 5.0


class Turns:
    """What happens to a message: a UI command, a turn now, or a turn after this one."""

    def __init__(self, app: MemchatApp) -> None:
        self.app = app
        self.queued: deque[str] = deque()
        """Messages sent while a reply was running, oldest first: each gets its own turn."""
        self.quit_asked = False
        """Ctrl+Q was pressed once while a reply ran (`quit_question`)."""
        self.quitting = False
        """The app is quitting: a stopped turn leaves its message where it is."""
        self.answering: str | None = None
        """The message the running turn answers (None: none, or a regenerated reply)."""

    @property
    def running(self) -> bool:
        """A reply is being produced."""
        return bool(self._turn_workers())

    def _turn_workers(self) -> list[Worker[None]]:
        return [w for w in self.app.workers if w.group == "turn" and not w.is_finished]

    def submit(self, text: str, *, edit: bool = False, edits: str | None = None) -> None:
        """Route a prompt: UI commands to the app, everything else to the agent.

        With `edit`, the text replaces the conversation's last message and its reply
        (`edits`: that message as the edit opened on it).
        """
        app = self.app
        head = command_word(text)
        read_only = app.chats.read_only
        if read_only is not None and head not in UI_COMMANDS:
            app.notify(read_only, severity="warning")
            self.put_back(text)
            return
        if edit and app.runtime is not None and not self.running:
            if edits is not None and edits != self._last_user_message():
                # The message it edits left the chat (stopped or failed before a reply):
                # an edit now would replace the one before it.
                self.put_back(text)
                app.notify(
                    "The message you edited was not sent (no reply came): Enter sends the "
                    "edit as a new message.",
                    severity="warning",
                )
                return
            self.start(text, edit=True)
            return
        if edit:
            # Kept as the edit it is: a new user pressed Up while the reply came, and
            # Enter sent the message again as a second one.
            self.put_back(text)
            app.prompt.resume_edit()
            app.notify(
                "Still starting up; try again in a moment."
                if app.runtime is None
                else "The reply is still coming: Enter replaces your message once it is done "
                "(Esc cancels the edit; Esc again stops the reply).",
                severity="warning",
            )
            return
        if head in UI_COMMANDS:
            app.run_ui_command(head)
            return
        refused = refused_command(text)
        if refused is not None:
            app.notify(refused, severity="warning")
            # A bare "/remember" comes back ready for its text.
            self.put_back(text if " " in text.strip() else text.strip() + " ")
            return
        if app.runtime is None:
            # Queued, as behind a reply: a new user pressed Enter while it started, the
            # message stayed in the input, and her next one was sent with it as one.
            self.queued.append(text)
            app.notify("memchat is still starting: your message is sent once it is ready.")
            return
        if self.running:
            # Queued, not refused: putting it back would overwrite what is typed meanwhile.
            self.queued.append(text)
            app.notify("Sent after the current reply (Esc stops it and returns the queue).")
            return
        self.start(text)

    def quit_question(self) -> str | None:
        """What quitting now would cut short, asked once; None when nothing would be.

        Found by an adversary: Ctrl+Q during a reply dropped the messages queued behind it
        without a word (and ended in a traceback).
        """
        unsent = bool(self.app.prompt.text.strip())
        if self.quit_asked or not (self.running or self.queued or unsent):
            return None
        self.quit_asked = True
        if not (self.running or self.queued):
            # Found by a second adversary: messages Esc or a failure had put back in the
            # prompt went with the app, unasked.
            return "The prompt holds text not sent. Ctrl+Q again quits without it."
        if not self.running:
            # Back in the input, not sent once it has started: quitting was asked for (an
            # adversary saw the message sent, answered and saved after Ctrl+Q).
            self.put_back()
            return (
                "memchat is still starting; what you sent meanwhile is back in the input, "
                "not sent. Ctrl+Q again quits without it."
            )
        waiting, one = len(self.queued), len(self.queued) == 1
        dropped = (
            f", and {counted(waiting, 'message', 'messages')} waiting to be sent "
            f"{'is' if one else 'are'} not sent (copy {'it' if one else 'them'} first, or wait)"
            if waiting
            else ""
        )
        return (
            "A reply is being written. Ctrl+Q again quits: it stops where it is (what arrived "
            f"is kept, as after Esc){dropped}."
        )

    async def stop_for_quitting(self) -> None:
        """Stop the running turn and wait until it has put the chat in order."""
        self.quitting = True
        running = self._turn_workers()
        self.stop()
        if running:
            # Bounded: a turn stuck in a call that ignores cancelling must not keep the
            # app from quitting.
            with contextlib.suppress(TimeoutError, WorkerCancelled):  # cancelled: as asked
                await asyncio.wait_for(self.app.workers.wait_for_complete(running), _QUIT_WAIT_S)

    def send_waiting(self) -> None:
        """Send what was sent while memchat started, in order, once it is ready."""
        if self.queued and not self.running:
            self.start(self.queued.popleft())

    def start(self, text: str, *, resend: bool = False, edit: bool = False) -> None:
        """Run a turn in a worker so the interface never waits for the model."""
        self.quit_asked = False
        self.app.run_worker(self._turns(text, resend, edit), group="turn", exclusive=True)

    def stop(self) -> None:
        """Stop the streaming reply, keeping what arrived."""
        if self.running:
            self.app.workers.cancel_group(self.app, "turn")

    def follow_erase(self) -> None:
        """Take in what an erase elsewhere took out of this chat, before Up shows a message.

        Found by a new user: after `memchat memory forget --erase` from a shell, Up in the
        open app offered the erased password again, from the chat and the prompt history
        it held in RAM. A stat of the chat's file, and a read only when it was rewritten.
        """
        runtime = self.app.runtime
        if runtime is None or self.running:
            return
        session = runtime.session
        try:
            followed = runtime.sessions.follow_rewrite(session)
        except OSError:
            return
        if followed:
            self.app.notify(REWRITTEN_ELSEWHERE, severity="warning")
        if session.rewritten:
            sent = self.app.prompt.sent
            sent[:] = [session.rewritten.get(text, text) for text in sent]

    def editable_message(self) -> str | None:
        """The conversation's last message, which Up in an empty prompt edits (or None).

        While a reply comes, the message it answers (none with messages queued behind it).
        """
        if self.app.chats.read_only is not None:
            return None
        if self.running:
            return None if self.queued else self.answering
        return self._last_user_message()

    def _last_user_message(self) -> str | None:
        if self.app.runtime is None:
            return None
        messages = self.app.runtime.session.messages
        return next((m.content for m in reversed(messages) if m.role == "user"), None)

    def continue_or_regenerate(self, action: Literal["continue", "regenerate"]) -> None:
        """The buttons under a stopped reply."""
        runtime = self.app.runtime
        if runtime is None or self.running:
            return
        if action == "continue":
            self.start(CONTINUE_PROMPT)
            return
        last = self._last_user_message()
        if last is not None:
            self.start(last, resend=True)

    def put_back(self, *texts: str) -> bool:
        """Return unsent messages, then every queued one, to the input: none is ever lost.

        What the user typed since stays below them (`PromptInput.restore`), and that is
        said; returns whether it was.
        """
        prompt = self.app.prompt
        if prompt.editing and prompt.edit_of in texts:
            # The message being edited (Up while its reply came) came back unanswered: the
            # edit in the box takes its place, as a message of its own.
            texts = tuple(text for text in texts if text != prompt.edit_of)
            prompt.keep_as_new_message()
        unsent = [*texts, *self.queued]
        self.queued.clear()
        if unsent and self.app.prompt.restore(*unsent):
            self.app.notify("Unsent messages are back in the input, above what you typed since.")
            return True
        return False

    async def _turns(self, text: str, resend: bool, edit: bool = False) -> None:
        """This turn, then one for each message queued meanwhile (a fast typist's lines)."""
        try:
            await self.run(text, resend, edit)
            while self.queued:
                await self.run(self.queued.popleft())
        except asyncio.CancelledError:
            self.answering = None
            # Esc stops the reply; what was queued behind it goes back to the input, unsent.
            if not self.quitting:
                self.put_back()
            raise

    async def run(self, text: str, resend: bool = False, edit: bool = False) -> None:
        """Stream one turn into the chat and keep the inspector and status current.

        An `edit` first takes the last message and what answered it off the screen.
        """
        # Imported here: agent.turn_state brings the tools and their schemas, which the
        # first paint does not need.
        from agent.turn_state import last_user_index

        app = self.app
        assert app.runtime is not None
        session = app.runtime.session
        view = TurnView(app.chat)
        self.answering = None if resend or text == CONTINUE_PROMPT else text
        if edit:
            edited = last_user_index(session.messages)
            if edited >= 0 and not await app.chat.remove_from(session.messages[edited].content):
                # Not on screen as sent: show the conversation as the edit leaves it.
                earlier = [c for c in session.commands if c[0] <= edited]
                await app.chat.show_transcript(session.messages[:edited], earlier)
        retry = not edit and app.runtime.agent.is_retry(text, session)
        # A regenerated reply takes the place of the one before, once it has begun.
        replaced = app.chat.after_last_message() if resend else []
        await view.start(None if resend else text, retry=retry)
        app.status.set(warning=None)
        failed = False
        try:
            async for event in app.runtime.agent.turn(text, session, resend=resend, edit=edit):
                outcome = await view.apply(event)
                await self._apply(outcome, text, view, resend)
                failed = failed or outcome.failure is not None
                if outcome.failure is not None and not view.replies:
                    # Back in the prompt (`_apply`), so out of the conversation, as after
                    # Esc: sent again edited, the model got both (found by an adversary).
                    if edit:
                        await self._edit_unanswered(session)
                    elif not resend:
                        await self._withdraw(text, session)
        except asyncio.CancelledError:
            if replaced and view.replies:
                await app.chat.remove_children(replaced)
            elif resend:
                _offer_again(replaced)
            await self._stopped(view, text, session, resend, edit)
            raise
        if replaced and view.replies and not failed:
            # A fragment the server cut off stands beside the reply, as in the chat file.
            await app.chat.remove_children(replaced)
        elif resend and not view.replies:
            _offer_again(replaced)
        # A refusal of native tools during the turn may have changed how tools go.
        app.status.set(tools=app.runtime.agent.tool_mode)
        # The vectors load with the first recall, which may have met damaged rows.
        app.memory_view.show_warnings()
        app.run_worker(unless_quitting(app, self._after_background()), group="background")

    async def _stopped(
        self, view: TurnView, text: str, session: Session, resend: bool, edit: bool
    ) -> None:
        """After Esc: a message nothing answered goes back to the prompt.

        Not when quitting: the prompt goes with the app, so the message stays in the chat
        and memory, unanswered, as a message the server never answered does.
        """
        kept = await view.stopped()
        if kept and not self.quitting:
            # The reply stays, so does the message: what it changes, it changes.
            assert self.app.runtime is not None
            async for event in self.app.runtime.agent.changes_after_stop(session):
                await self._apply(await view.apply(event), text, view, resend)
            await self.app.memory_view.changed()
        if kept or self.quitting:
            return
        await view.withdraw()
        if resend:
            # The question is still in the chat, answered by the reply that stays: back in
            # the prompt, it was sent twice (found by an adversary).
            return
        if not self.put_back(text) and not edit:
            # A new user who pressed Esc early saw the message leave the chat for the
            # prompt, and could not tell whether it had been sent.
            self.app.notify("Stopped before any reply: your message is back in the input, unsent.")
        if edit:
            await self._edit_unanswered(session)
        else:
            await self._withdraw(text, session)

    async def _withdraw(self, text: str, session: Session) -> None:
        """Esc before any reply: the message is back in the prompt, so not in the chat."""
        from memory.errors import MemoryStoreError

        assert self.app.runtime is not None
        try:
            await self.app.runtime.agent.withdraw_unanswered(text, session)
        except (OSError, MemoryStoreError) as exc:
            self.app.notify(
                f"The stopped message stays in the chat file: {exc}", severity="warning"
            )
        # Its auto-saved copy went too: the count and the inspector follow (a new user saw
        # one memory more in the status bar than `memchat memory stats`).
        await self.app.memory_view.changed()

    async def _edit_unanswered(self, session: Session) -> None:
        """An edit stopped or failed before any reply: the old turn comes back.

        The edited text is back in the prompt, still as an edit, to send again or Esc.
        """
        from memory.errors import MemoryStoreError

        app = self.app
        assert app.runtime is not None
        try:
            await app.runtime.agent.undo_edit(session)
        except (OSError, MemoryStoreError) as exc:
            app.notify(f"The replaced message could not be put back: {exc}", severity="error")
        await app.chat.show_transcript(session.messages, session.commands)
        app.prompt.resume_edit()

    async def _after_background(self) -> None:
        """Show what consolidation stored once it is done (it never delays the reply)."""
        runtime = self.app.runtime
        if runtime is None:
            return
        before = len(runtime.agent.consolidated)
        await runtime.agent.drain()
        if len(runtime.agent.consolidated) > before:
            await self.app.memory_view.changed()

    def _say_how_recall_went(self, degraded: str) -> None:
        """The status bar's memory label after a recall: keyword-only and why, or the embedder.

        The start-up label names the embedder; a recall that could not use it says so until
        one can again (the server came back), never silently keyword-only.
        """
        app = self.app
        if app.runtime is None:
            return
        if degraded and degraded != app.status.state.embeddings:
            # Said whole once: the status bar has room for 60 characters, and the fix ("set
            # memory.embedding_dimensions to …") came after them (a new user).
            app.notify(degraded, title="Recall", severity="warning")
        app.status.set(embeddings=degraded or app.runtime.embeddings)

    async def _apply(
        self, outcome: Outcome, text: str, view: TurnView, resend: bool = False
    ) -> None:
        app = self.app
        if outcome.used_ids is not None:
            app.inspector.mark_used(outcome.used_ids)
        if outcome.recall_degraded is not None:
            self._say_how_recall_went(outcome.recall_degraded)
        if outcome.forgotten is not None:
            app.inspector.offer_undo(outcome.forgotten, "F2, then ")
        if outcome.memory_changed:
            await app.memory_view.changed()
        if outcome.notice is not None:
            level = outcome.notice.level
            app.notify(outcome.notice.text, severity="information" if level == "info" else level)
        if outcome.stats is not None:
            self._show_stats(outcome)
        if outcome.failure is not None:
            failure = outcome.failure
            # An edit refused (another window wrote to the chat) is no failed reply.
            refused = failure.error == "chat_changed"
            title = "The edit was not made" if refused else "The reply failed"
            app.notify(failure.message, title=title, severity="error", timeout=15)
            if failure.error == "server_unavailable":
                app.status.set(server="not running")
            elif failure.error == "model_not_found":
                app.status.set(server="model missing")
            elif not refused:
                # A reply cut off or timed out may mean the server went away: the status
                # bar said "connected" until the next poll (found by a new user).
                app.run_worker(app.startup.poll_server(), group="background")
            if not view.replies:
                await view.withdraw()
                # The queue stops here: what follows would likely fail the same way. A
                # regenerated question is still in the chat: only the queue comes back.
                self.put_back(*([] if resend else [text]))

    def _show_stats(self, outcome: Outcome) -> None:
        stats = outcome.stats
        assert stats is not None
        status = self.app.status
        status.set(warning="reply stopped at the length limit" if outcome.length_stop else None)
        if stats.context_used:  # a stream stopped early reports no figures
            # The model answered: the server is up, though the last poll found it down (a
            # new user read "not running" for ten seconds under a reply).
            status.set(
                server="connected",
                context_used=stats.context_used,
                num_ctx=stats.num_ctx,
                tokens_per_second=stats.tokens_per_second,
                load_seconds=stats.load_duration_s,
            )

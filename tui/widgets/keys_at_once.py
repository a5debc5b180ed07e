"""Editing keys acted on when read, in the order typed, as a letter is.

Found by an adversary: Ctrl+A, Backspace and "zebra7" typed in one burst in the inspector's
search box searched "zebra" or "dentistzebra", and an importance's "0.9" typed after six
Backspaces was saved as 0. Textual puts a letter into the line when its key is read, but runs
an editing key's binding only once its event has gone up to the app: behind the letters typed
after it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual import events
    from textual.widget import Widget


async def edited_at_once(widget: Widget, event: events.Key, actions: tuple[str, ...]) -> bool:
    """Run `widget`'s binding for `event`'s key now if its action starts with one of `actions`."""
    for binding in widget._bindings.key_to_bindings.get(event.key, ()):
        if binding.action.startswith(actions):
            event.stop()
            event.prevent_default()
            await widget.run_action(binding.action)
            return True
    return False

"""Follow-up work that updates widgets, and an app that may be shutting down meanwhile."""

from __future__ import annotations

from collections.abc import Awaitable

from textual.app import App
from textual.css.query import NoMatches


async def unless_quitting(app: App[None], work: Awaitable[None]) -> None:
    """Run `work`; if the app shuts down meanwhile and its widgets are gone, stop quietly.

    Once the app has begun to exit (exit() sets a return code; a shutdown without it stops
    the app running), a query for a removed widget raises NoMatches, which would end the
    app with a worker error instead of quietly. While the app runs, the error is raised.
    """
    try:
        await work
    except NoMatches:
        if app.is_running and app.return_code is None:
            raise

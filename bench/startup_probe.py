"""Started by bench/startup.py: build the app, paint the first screen, exit.

python -m bench.startup_probe memchat|minimal
"""

from __future__ import annotations

import sys


def main(kind: str) -> None:
    if kind == "minimal":
        from textual.app import App, ComposeResult
        from textual.widgets import Footer, Header, Static

        class Minimal(App[None]):
            def compose(self) -> ComposeResult:
                yield Header()
                yield Static("hello")
                yield Footer()

            def on_mount(self) -> None:
                self.call_after_refresh(self.exit)

        minimal = Minimal()
        minimal.run(headless=True)
        sys.exit(minimal.return_code or 0)
    from agent.config_file import load_config
    from tui.app import MemchatApp

    class Probe(MemchatApp):
        def on_mount(self) -> None:
            super().on_mount()
            self.call_after_refresh(self.exit)

    probe = Probe(load_config())
    probe.run(headless=True)
    sys.exit(probe.return_code or 0)


if __name__ == "__main__":
    main(sys.argv[1])

"""`python -m tui` runs the memchat command."""

from __future__ import annotations

from tui.cli import main

raise SystemExit(main())

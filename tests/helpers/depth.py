"""How hard the property tests look: the default run fits the suite's time, a deep run digs.

`MEMCHAT_TEST_DEPTH=N` (a positive integer, default 1) multiplies the example counts of the
largest property tests, e.g. `MEMCHAT_TEST_DEPTH=5 .venv/bin/python -m pytest tests/reliability`
before a release. Counts are stated per test at depth 1.
"""

from __future__ import annotations

import os


def depth() -> int:
    """The multiplier from `MEMCHAT_TEST_DEPTH` (1 when unset; a bad value is an error)."""
    raw = os.environ.get("MEMCHAT_TEST_DEPTH", "1")
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"MEMCHAT_TEST_DEPTH must be a positive integer, not {raw!r}")
    return int(raw)


def examples(count: int) -> int:
    """`count` examples at depth 1, `count * depth()` in a deep run."""
    return count * depth()

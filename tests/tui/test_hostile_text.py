"""Hostile text through every surface of the app: nothing crashes, nothing is interpreted.

The scenario (tests/tui/hostile_scenario.py) types each text into the chat (auto-saved),
has the model stream it back as thinking, a tool's name, tool arguments, a memory_store
key and content, and the reply; then restarts the app on the same store (the start that
crashed for good), pages through the inspector table, opens the session picker, resumes
each session (header sub-title), opens each stored memory in the detail view and forgets
it there (a notification naming its key).

Asserted on every surface: the app keeps running, no control or bidi override character
is drawn, markup shows verbatim, and where the surface shows the whole text it is drawn
exactly (control characters as their visible symbols).

Cases per surface:

- corpus (tests/data/hostile-text.jsonl): 32 cases, each through every surface above:
  typed message + restart 32, reply 32, thinking 32, tool name 32, tool arguments 32,
  memory key and content in the inspector, detail view and notification 32 each (the
  store keeps every key; contents are cut to the tool's 10,000-character limit), session
  picker and header 32.
- hypothesis (SURFACE_TEXT, non-blank and not a command so the prompt sends it): 1
  example (times MEMCHAT_TEST_DEPTH) of 2 to 4 texts each, each through the same surfaces.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.helpers.depth import examples
from tests.helpers.hostile import HOSTILE_CASES, SURFACE_TEXT
from tests.tui.hostile_scenario import converse, details, restart, typable

CORPUS = [text for _, text in HOSTILE_CASES]

pytestmark = pytest.mark.slow


# The corpus in two halves, each its own store and app: the halves run in parallel.
@pytest.mark.parametrize("half", [0, 1])
async def test_the_corpus_through_every_surface_and_a_restart(tmp_path: Path, half: int) -> None:
    assert len(CORPUS) == 32 and all(typable(text) for text in CORPUS)
    texts = CORPUS[half * 16 : (half + 1) * 16]
    seen = await converse(tmp_path, texts)
    assert len(seen.sent) == len(texts)
    stored = await restart(tmp_path, seen)
    assert len(stored) == len(texts)
    await details(stored)


# No shrinking: each example is a whole app session (seconds); a failure is printed as found.
@settings(
    max_examples=examples(1),
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
@given(texts=st.lists(SURFACE_TEXT.filter(typable), min_size=2, max_size=4))
def test_generated_text_through_every_surface_and_a_restart(
    texts: list[str], loop: asyncio.AbstractEventLoop
) -> None:
    # Each example gets its own store and session folder (the test's tmp_path is shared).
    with tempfile.TemporaryDirectory() as folder:
        with mock.patch.dict(os.environ, {"MEMCHAT_HOME": folder}):
            seen = loop.run_until_complete(converse(Path(folder), texts))
            stored = loop.run_until_complete(restart(Path(folder), seen))
            loop.run_until_complete(details(stored))

"""This chat's own saved messages are known again with their secrets redacted, at any size."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.chat_recall import _with_gaps
from agent.events import MemoryRecalled
from tests.unit.agent.conftest import Harness

_PIECE = st.text(alphabet="ab ", max_size=4)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECE, min_size=2, max_size=5), st.text(alphabet="ab x", max_size=14))
def test_pieces_with_gaps_read_as_the_pattern_of_a_redacted_message(
    pieces: list[str], message: str
) -> None:
    """What the pattern `piece.+?piece…` matched whole, piece by piece without it."""
    pattern = re.compile(".+?".join(map(re.escape, pieces)), re.DOTALL)
    assert _with_gaps(pieces, message) == (pattern.fullmatch(message) is not None)


async def test_a_pasted_page_full_of_secrets_is_known_as_this_chats_own(
    harness: Harness,
) -> None:
    """A page with a redaction on each line, known piece by piece: a pasted page's saved
    copy was made a pattern of thousands of pieces, seconds of every later question on the
    event loop (an adversary; `bench/turn_work.py --pastes` measures it)."""
    page = "\n".join(f"account {n} password: Zq{n}x!Kv{n}" for n in range(200))
    harness.model.add("Noted.", "Kept.")
    await harness.turn(f"my accounts:\n{page}")
    saved = await harness.memory.list(category="conversation")
    assert saved[0].content.count("[REDACTED:") == 200
    events = await harness.turn("which accounts did I list?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert recalled.in_this_chat == 1
    assert all("Zq" not in entry.content for entry in recalled.injected)

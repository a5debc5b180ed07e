"""This chat's own saved messages are known again with their secrets redacted, at any size."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.chat_recall import _with_gaps, recall_query
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


@pytest.mark.parametrize(
    ("message", "query"),
    [
        # A new user, a baker: the PIN's message fell below the floor among the other words.
        ("please forget my PKO card PIN, I changed it anyway", "my PKO card PIN"),
        ("Can you delete what I said about the landlord dispute?", "the landlord dispute"),
        ("forget about the dentist on Tuesday.", "the dentist on Tuesday"),
        # Not a request naming what to forget: the whole message is searched for.
        ("forget it, never mind", "forget it, never mind"),
        ("Don't forget the flour order", "Don't forget the flour order"),
        ("I forgot my umbrella at the bakery", "I forgot my umbrella at the bakery"),
    ],
)
def test_a_request_to_forget_recalls_what_it_names(
    harness: Harness, message: str, query: str
) -> None:
    assert recall_query(message, harness.session) == query


async def test_a_secret_asked_to_be_forgotten_stays_redacted_for_the_model(
    harness: Harness,
) -> None:
    harness.model.add("Noted.", "Done.")
    await harness.turn("PIN do karty firmowej PKO is 7731, I always forget it")
    await harness.turn("please forget my PKO card PIN, I changed it anyway", harness.sessions.new())
    sent = "\n".join(str(m) for m in harness.model.requests[-1].messages)
    assert "PIN do karty firmowej PKO is [REDACTED:pin]" in sent
    assert "7731" not in sent

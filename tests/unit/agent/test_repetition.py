"""Loops at the end of a reply are found; ordinary repetitive text is left alone."""

from __future__ import annotations

from agent.repetition import CHECK_EVERY, MIN_SPAN, LoopGuard, loop_start

LOOP = "I'm happy to help you with your bees. "


KEPT = "Aren't you a beekeeper? I'm happy to help you with your bees."


def test_a_looping_reply_is_cut_after_its_first_copy() -> None:
    text = "Aren't you a beekeeper? " + LOOP * 30
    cut = loop_start(text)
    assert cut is not None and text[:cut] == KEPT


def test_the_cut_is_the_same_whatever_phase_the_stream_stopped_at() -> None:
    for phase in range(len(LOOP)):
        text = "Aren't you a beekeeper? " + LOOP * 30 + LOOP[:phase]
        cut = loop_start(text)
        assert cut is not None and text[:cut] == KEPT


def test_ordinary_repetitive_text_is_not_a_loop() -> None:
    table = "| a | b |\n|---|---|\n" + "| 0 | 0 |\n" * 20
    code = "def f():\n" + "    pass\n" * 30
    rule = "=" * 300
    for text in (table, code, rule, LOOP * 3, "x" * 100):
        assert loop_start(text) is None


def test_the_guard_looks_once_per_stretch_of_new_text() -> None:
    guard = LoopGuard()
    fragments: list[str] = []
    found_at = None
    for number in range(60):
        fragments.append(LOOP)
        cut = guard.feed(fragments)
        if cut is not None:
            found_at = number
            break
    assert found_at is not None and cut is not None
    assert "".join(fragments)[:cut] == LOOP
    assert len(fragments) * len(LOOP) < MIN_SPAN + 2 * CHECK_EVERY  # stopped soon

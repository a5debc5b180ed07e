"""Reading a structured reply as it streams: answer text, tool calls, and broken replies."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from agent.structured_reply import REPLACEMENT, ReplyEnding, ReplyParser


def streamed(pieces: list[str]) -> tuple[str, ReplyEnding]:
    parser = ReplyParser()
    text = "".join(parser.feed(piece) for piece in pieces)
    ending = parser.finish()
    return text + ending.text, ending


def split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in zip(points, points[1:], strict=False)]


@given(st.text(), st.lists(st.integers(min_value=0), max_size=12), st.booleans())
def test_an_answer_streams_the_same_text_however_it_is_cut(
    answer: str, cuts: list[int], ascii_only: bool
) -> None:
    reply = json.dumps({"answer": answer}, ensure_ascii=ascii_only)
    text, ending = streamed(split(reply, cuts))
    # Lone surrogates cannot be saved: they come out as the replacement character.
    expected = "".join(REPLACEMENT if 0xD800 <= ord(c) < 0xE000 else c for c in answer)
    assert text == expected
    assert ending.call is None and ending.problem is None


def test_the_answer_streams_before_the_reply_ends() -> None:
    parser = ReplyParser()
    assert parser.feed('{"answer": "Hello, ') == "Hello, "
    assert parser.feed("wor") == "wor"
    assert parser.feed("ld\\") == "ld"  # the escape waits for its second half
    assert parser.feed('n"}') == "\n"
    assert parser.finish() == ReplyEnding(raw='{"answer": "Hello, world\\n"}')


def test_a_surrogate_pair_cut_between_chunks_is_one_character() -> None:
    parser = ReplyParser()
    out = parser.feed('{"answer": "tea \\ud83c')
    out += parser.feed('\\udf75 please"}')
    assert out == "tea 🍵 please"


def test_half_a_surrogate_pair_becomes_the_replacement_character() -> None:
    text, _ = streamed(['{"answer": "a\\ud83c b \\udf75 c"}'])
    assert text == f"a{REPLACEMENT} b {REPLACEMENT} c"


def test_a_tool_call_arrives_whole_at_the_end() -> None:
    reply = '{"tool": "memory_store", "arguments": {"key": "pet", "content": "a cat"}}'
    text, ending = streamed(split(reply, [3, 17, 40]))
    assert text == ""
    assert ending.call == ("memory_store", {"key": "pet", "content": "a cat"})


def test_an_answer_whose_key_is_not_first_is_given_at_the_end() -> None:
    text, ending = streamed(['{"note": 1, "answer": "late"}'])
    assert text == "late" and ending.problem is None


def test_a_reply_cut_inside_the_answer_keeps_what_arrived() -> None:
    text, ending = streamed(['{"answer": "The capital of France is Pa'])
    assert text == "The capital of France is Pa" and ending.problem is None


def test_a_reply_cut_inside_a_tool_call_is_a_problem_for_the_model() -> None:
    text, ending = streamed(['{"tool": "memory_store", "arguments": {"key": "pe'])
    assert text == "" and ending.call is None
    assert ending.problem is not None and "not valid JSON" in ending.problem
    assert '{"answer"' in ending.problem  # it says what to send instead


def test_malformed_json_is_a_problem_for_the_model() -> None:
    _, ending = streamed(['{"tool": memory_store}'])
    assert ending.problem is not None and "not valid JSON" in ending.problem


def test_json_of_neither_form_is_a_problem_for_the_model() -> None:
    for reply in ('{"result": 3}', '{"answer": 3}', '{"tool": 5}'):
        _, ending = streamed([reply])
        assert ending.problem is not None, reply


def test_a_reply_that_is_not_json_is_shown_as_plain_text() -> None:
    # A server that ignored the schema: the user still sees the reply.
    text, ending = streamed(["  Sure", ", here you go."])
    assert text == "  Sure, here you go." and ending.problem is None


def test_an_empty_reply_goes_back_to_the_model() -> None:
    # The schema asks for an object: nothing at all means the reply went wrong.
    text, ending = streamed(["", "  "])
    assert text == "" and ending.problem is not None and "empty" in ending.problem


def test_whitespace_without_end_is_a_runaway() -> None:
    parser = ReplyParser()
    fed = 0
    for piece in ["{", *["\n  "] * 100_000]:
        parser.feed(piece)
        fed += 1
        if parser.runaway is not None:
            break
    assert fed < 2_000  # stopped long before the stream would have ended
    ending = parser.finish()
    assert ending.problem is not None and "only whitespace" in ending.problem


def test_a_call_that_never_ends_is_a_runaway() -> None:
    parser = ReplyParser()
    parser.feed('{"tool": "memory_store", "arguments": {"key": "k", "content": "')
    while parser.runaway is None:
        parser.feed("x" * 1000)
    assert "without an answer" in (parser.finish().problem or "")


def test_deep_nesting_goes_back_to_the_model_not_a_crash() -> None:
    for depth in (40, 2_000, 100_000):
        nested = "[" * depth + "]" * depth
        reply = f'{{"tool": "memory_store", "arguments": {{"key": "k", "extra": {nested}}}}}'
        ending = streamed([reply])[1]
        assert ending.call is None and "more than 32 deep" in (ending.problem or ""), depth
    fine = '{"tool": "memory_store", "arguments": {"key": "k", "content": [[["ok"]]]}}'
    assert streamed([fine])[1].call is not None


def test_an_invalid_json_error_reads_well() -> None:
    ending = streamed(['{"tool": "x", "arguments": "unterminated'])[1]
    assert ending.problem is not None and "starting at: character" in ending.problem

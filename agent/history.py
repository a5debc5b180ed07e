"""Which part of the transcript fits in the next request."""

from __future__ import annotations

from agent.messages import ChatMessage

_CHARS_PER_TOKEN = 3.5
_MESSAGE_OVERHEAD = 4


def estimate_tokens(messages: list[ChatMessage]) -> int:
    """A conservative token estimate (no tokenizer runs here)."""
    total = 0
    for message in messages:
        text = message.content + "".join(str(c.arguments) + c.name for c in message.tool_calls)
        total += int(len(text) / _CHARS_PER_TOKEN) + _MESSAGE_OVERHEAD
    return total


def _turns(messages: list[ChatMessage]) -> list[list[ChatMessage]]:
    turns: list[list[ChatMessage]] = []
    for message in messages:
        if message.role == "user" or not turns:
            turns.append([message])
        else:
            turns[-1].append(message)
    return turns


def trim_history(
    messages: list[ChatMessage], max_messages: int, max_tokens: int
) -> list[ChatMessage]:
    """Everything if it fits; else the first turn plus the latest whole turns.

    The first turn usually says what the conversation is about, so it stays (when it fits
    in half the budget) even when the turns between it and the recent ones are dropped.
    It stays whole: its question alone would run into the next kept question, and the two
    would reach the model joined as one message.
    """
    if len(messages) <= max_messages and estimate_tokens(messages) <= max_tokens:
        return list(messages)
    turns = _turns(messages)
    first: list[ChatMessage] = []
    if turns and turns[0][0].role == "user":
        opening = turns[0]
        fits = len(opening) <= max_messages // 2 and estimate_tokens(opening) <= max_tokens // 2
        first = opening if fits else []
    budget_messages = max_messages - len(first)
    budget_tokens = max_tokens - estimate_tokens(first)
    kept: list[list[ChatMessage]] = []
    for turn in reversed(turns[1:] if first else turns):
        cost = estimate_tokens(turn)
        if len(turn) > budget_messages or cost > budget_tokens:
            break
        kept.append(turn)
        budget_messages -= len(turn)
        budget_tokens -= cost
    return first + [message for turn in reversed(kept) for message in turn]


def unanswered(messages: list[ChatMessage]) -> str | None:
    """The last message, when it is the user's and nothing answered it.

    That happens when the model server was down or the reply was stopped before any text;
    the app puts the message back in the input, and sending it again retries it.
    """
    if messages and messages[-1].role == "user":
        return messages[-1].content
    return None


def join_user_runs(messages: list[ChatMessage]) -> list[ChatMessage]:
    """Consecutive user messages joined into one, so roles alternate.

    Some chat templates (Mistral's, Gemma's) reject two user messages in a row. A message
    the model never answered stays as context, in front of the one that followed it.
    """
    joined: list[ChatMessage] = []
    for message in messages:
        if joined and message.role == "user" and joined[-1].role == "user":
            previous = joined[-1]
            joined[-1] = previous.model_copy(
                update={"content": f"{previous.content}\n\n{message.content}"}
            )
        else:
            joined.append(message)
    return joined


def over_the_context(request: list[ChatMessage], num_ctx: int) -> str:
    """What to tell the user when a request is larger than the model's context; "" if not.

    Found by an adversary: a 300,000-character message went to a model of 8,192 tokens
    without a word; the server keeps only part of it (and the recalled memories lead it).
    """
    needed = estimate_tokens(request)
    if needed <= num_ctx:
        return ""
    return (
        f"This request is about {needed:,} tokens, more than the model's context of "
        f"{num_ctx:,}: the model sees only part of it. Send a long text in parts, or raise "
        "generation.num_ctx if the model and your memory allow."
    )

"""The fake Ollama server the README offers for trying the app answers from the block."""

from __future__ import annotations

from datetime import UTC, datetime

from agent.injection import InjectionBudget, render
from tests.helpers.entries import written_entry
from tests.helpers.serve_fake_ollama import respond


def test_it_answers_with_recalled_facts_and_saved_messages() -> None:
    """Found by a new user: a block of saved messages only (no key on their lines) was
    answered "I don't remember anything about that yet", under a line that said two
    memories were recalled."""
    when = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)
    entries = [
        written_entry("conversation/s/m1", "I live in Porto", "conversation", when),
        written_entry("home", "I moved to Lisbon", "core", when),
    ]
    block = render(entries, when, InjectionBudget())
    body = {"messages": [{"role": "user", "content": f"{block}\n\nWhere do I live?"}]}
    said = "".join(line["message"]["content"] for line in respond(body, 0.0).lines)
    assert "**conversation**: I live in Porto" in said and "**home**: I moved to Lisbon" in said

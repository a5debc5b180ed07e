"""`memchat memory store`: remember one thing from the shell, as /remember does in the chat
(a new user looked for it first)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from agent.commands import MAX_FACT_CHARS
from tests.helpers.hostile import HOSTILE_TEXTS
from tests.unit.agent.cli_harness import run_cli, write_config


@pytest.mark.parametrize("backend", ["sqlite", "markdown"])
def test_a_stored_memory_is_found_and_a_change_keeps_the_earlier_version(
    isolated_dirs: Path, backend: str
) -> None:
    write_config(f'backend = "{backend}"\n')
    first = run_cli("memory", "store", "Dentist appointment at 9 AM on Friday").clean().out
    made = re.fullmatch(r"stored '(dentist_appointment_at_9_am_[0-9a-f]{6})' \(core\)\n", first)
    assert made, first
    again = run_cli("memory", "store", "Dentist appointment at 9 AM on Friday").clean().out
    assert again == f"already remembered as {made.group(1)!r}\n"

    run_cli("memory", "store", "--key", "dentist", "Dentist at 10 AM").clean()
    changed = run_cli("memory", "store", "--key", "dentist", "Dentist at 11 AM").clean().out
    assert changed.splitlines() == [
        "stored 'dentist' (core); it replaces: Dentist at 10 AM",
        "(the earlier version is kept: `memchat memory history dentist`)",
    ]
    found = run_cli("memory", "search", "anything at 11am?").clean().out
    first_hit = next(line for line in found.splitlines() if line[:1].isdigit())
    assert " dentist  (core" in first_hit, found
    history = run_cli("memory", "history", "dentist").clean().out
    assert "Dentist at 10 AM" in history


def test_a_merge_and_a_category_change_are_said_as_what_they_are(isolated_dirs: Path) -> None:
    """Found by an adversary: a merge that rewrote the stored text, and a store that moved
    a fact to another category, both said only "already remembered"."""
    write_config()
    run_cli(
        "memory", "store", "--key", "dentist", "Dentist on Tuesday at 3 pm bring insurance card"
    ).clean()
    merged = run_cli(
        "memory", "store", "--key", "dentist_2", "Dentist on Tuesday at 3 pm, bring the card"
    )
    assert merged.clean().out.splitlines() == [
        "merged into 'dentist' (nothing stored under 'dentist_2'); its text is now: "
        "Dentist on Tuesday at 3 pm, bring the card",
        "(the earlier text is kept: `memchat memory history dentist`)",
    ]
    run_cli("memory", "store", "--key", "tea", "The user drinks tea").clean()
    moved = run_cli(
        "memory", "store", "--key", "tea", "--category", "daily", "The user drinks tea"
    ).clean()
    assert moved.out == "already remembered as 'tea'; its category is now daily (was core)\n"


def test_a_merge_or_a_replacement_that_drops_a_value_says_so(isolated_dirs: Path) -> None:
    """Found by a new user: a merge into the abstract's deadline dropped its date, and the
    command said only what the text is now."""
    write_config()
    run_cli(
        "memory",
        "store",
        "--key",
        "ecsa",
        "ECSA conference abstract due in 6 weeks (around 17 January 2027)",
    ).clean()
    merged = run_cli(
        "memory", "store", "--key", "ecsa_rel", "the ECSA conference abstract is due in 6 weeks"
    ).clean()
    assert "(it no longer says 17 January 2027: store it again if still so)" in merged.out
    run_cli("memory", "store", "--key", "physio", "physio on 14/1 at 3pm").clean()
    replaced = run_cli("memory", "store", "--key", "physio", "physio on 14/1").clean()
    assert "(it no longer says 3pm: store it again if still so)" in replaced.out


def test_a_fact_saying_more_that_still_gives_the_old_home_is_named(isolated_dirs: Path) -> None:
    """Found by a new user: "My name is Dana and I live in Porto" stayed in effect after
    "I moved to Lisbon", unsaid. It says more than the home, so it is not replaced."""
    write_config()
    run_cli("memory", "store", "--key", "me", "My name is Dana and I live in Porto").clean()
    run_cli("memory", "store", "--key", "pet", "My cat is Miso and I live with her").clean()
    moved = run_cli("memory", "store", "--key", "home", "I moved to Lisbon").clean().out
    assert moved.splitlines() == [
        "stored 'home' (core)",
        "'me' still says otherwise, among other things: My name is Dana and I live in Porto",
        "(it stays in effect: edit it in the inspector, or forget it, if that changed)",
    ]
    back = run_cli("memory", "store", "--key", "home2", "I live in Porto").clean().out
    assert "it replaces 'home'" in back and "still says otherwise" not in back  # agrees now
    # A value with more words agrees (found by an adversary: "now", ", Portugal").
    run_cli("memory", "store", "--key", "me2", "My name is Ana and I work at Meta now").clean()
    agrees = run_cli("memory", "store", "--key", "job", "I work at Meta").clean().out
    assert "still says otherwise" not in agrees


def test_a_fact_about_the_same_subject_under_another_key_says_what_it_replaces(
    isolated_dirs: Path,
) -> None:
    """Found by an adversary: the replacement of another key's fact went unsaid."""
    write_config()
    run_cli("memory", "store", "--key", "lang", "The user prefers Rust").clean()
    shown = run_cli("memory", "store", "--key", "language", "The user prefers Python").clean()
    lines = shown.out.splitlines()
    assert lines[0] == "stored 'language' (core)"
    assert lines[1] == "it replaces 'lang' (the same subject): The user prefers Rust"
    restore = re.fullmatch(
        r"\(kept as history: `memchat memory restore (\S+)` brings it back\)", lines[2]
    )
    assert restore, lines
    run_cli("memory", "restore", restore.group(1)).clean()
    assert "Rust" in run_cli("memory", "get", "lang").clean().out
    # Another subject replaces nothing, and says nothing of it.
    run_cli("memory", "store", "--key", "gym", "Locker code for gym is 4411").clean()
    other = run_cli("memory", "store", "--key", "office", "Locker code for office is 9902")
    assert other.clean().out == "stored 'office' (core)\n"


def test_store_takes_a_category_and_a_namespace_and_prints_json(isolated_dirs: Path) -> None:
    write_config()
    shown = run_cli(
        "memory", "store", "ran 5km", "--category", "daily", "--namespace", "work", "--json"
    ).clean()
    stored = json.loads(shown.out)
    assert (stored["category"], stored["namespace"], stored["content"]) == (
        "daily",
        "work",
        "ran 5km",
    )
    assert run_cli("memory", "get", stored["key"], "--namespace", "work").clean().out


@pytest.mark.parametrize("argv", [["store", ""], ["store", "x", "--key", " "], ["store"]])
def test_store_refuses_what_it_cannot_store(isolated_dirs: Path, argv: list[str]) -> None:
    write_config()
    ran = run_cli("memory", *argv).clean(2)
    assert "memchat memory store: error:" in ran.err


def test_every_hostile_text_is_stored_and_shown_escaped(isolated_dirs: Path) -> None:
    write_config()
    for number, text in enumerate(HOSTILE_TEXTS):
        # One very long word made a key over the 512-character limit, refused.
        space = f"h{number}"  # its own namespace: no near-duplicate merges between them
        if len(text) > MAX_FACT_CHARS:  # refused as /remember refuses it, cleanly
            refused = run_cli("memory", "store", text, "--namespace", space)
            assert "at most 10,000 characters" in refused.clean(1).err
            continue
        ran = run_cli("memory", "store", text, "--namespace", space, "--json").clean()
        stored = json.loads(ran.out)
        assert stored["content"] == text
        shown = run_cli("memory", "get", stored["key"], "--namespace", space).clean().out
        assert json.loads(shown)["content"] == text
        run_cli("memory", "store", text, "--namespace", space).clean()  # said, escaped


def test_a_memory_stored_without_its_vector_says_so(isolated_dirs: Path) -> None:
    """Found by an adversary: with the embedding model down, `store` printed just
    "stored 'aunt'"; only a later search said the memory had no vector."""
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    write_config()
    config = Path(os.environ["MEMCHAT_CONFIG"])
    config.write_text(
        f'[memory]\nembedding_provider = "ollama"\n[ollama]\nhost = "http://127.0.0.1:{port}"\n',
        encoding="utf-8",
    )
    ran = run_cli("memory", "store", "--key", "aunt", "My aunt is Rosa").clean()
    assert "stored 'aunt'" in ran.out
    assert "stored without a vector" in ran.err and "memchat memory reindex" in ran.err
    write_config()
    fine = run_cli("memory", "store", "--key", "uncle", "My uncle is Rui").clean()
    assert fine.err == ""  # an embedder that answers: nothing to say


def test_another_one_under_a_key_is_said_as_one(isolated_dirs: Path) -> None:
    """Found by an adversary: "Flat 3 rent …" under the key of Flat 2's was said as "the
    same words said on another day", and a new version of it as "merged … nothing stored
    under 'rent'"."""
    write_config()
    run_cli("memory", "store", "--key", "rent", "Flat 2 rent is 1450").clean()
    beside = run_cli("memory", "store", "--key", "rent", "Flat 3 rent is 1300").clean().out
    assert beside.splitlines() == [
        "stored 'rent_2' (core): 'rent' holds another one",
        "of its kind (Flat 2 rent is 1450)",
    ]
    raised = run_cli("memory", "store", "--key", "rent", "Flat 3 rent is 1350").clean().out
    assert raised.splitlines()[1] == (
        "of its kind (Flat 2 rent is 1450); its earlier text is kept as history"
    )

"""`memchat memory history` and `restore`: earlier versions, and bringing one back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.unit.agent.cli_harness import record, run_cli, write_config, write_jsonl


def _at(month: int) -> dict[str, str]:
    moment = f"2026-0{month}-01T00:00:00Z"
    return {"timestamp": moment, "updated_at": moment}


EDITOR = [
    record("editor", "The user edits in Vim", id="v1", superseded_by="v2", **_at(1)),
    record("editor", "The user edits in Helix", id="v2", superseded_by="v3", **_at(2)),
    record(
        "conversation/s1/1",
        "remember I edit in Zed now",
        id="m1",
        category="conversation",
        superseded_by="v3",
        **_at(3),
    ),
    record("editor", "The user edits in Zed", id="v3", **_at(3)),
]


def _deleted_id(text: str) -> str:
    """The id `memchat memory audit` gives the deleted memory holding `text` (it ends the line)."""
    lines = run_cli("memory", "audit").clean().out.splitlines()
    return next(line.rsplit(" ", 1)[-1] for line in lines if text in line)


def _import(home: Path, records: list[dict[str, object]]) -> None:
    run_cli("memory", "import", str(write_jsonl(home / "in.jsonl", records))).clean()


@pytest.mark.parametrize("backend", ["sqlite", "markdown", "qdrant"])
def test_history_lists_every_version_and_restore_brings_one_back(
    isolated_dirs: Path, backend: str
) -> None:
    write_config(f'backend = "{backend}"\n[memory.retention_days]\nconversation = 0\n')
    _import(isolated_dirs, EDITOR)

    shown = run_cli("memory", "history", "editor").clean().out.splitlines()
    assert shown[0] == "editor: 4 versions, newest first"
    ids = [line.split()[0] for line in shown[1:] if not line.startswith((" ", "`"))]
    assert ids[-2:] == ["v2", "v1"] and set(ids[:2]) == {"v3", "m1"}
    assert shown[shown.index(next(s for s in shown if s.startswith("v1 "))) + 1] == (
        "    replaced by v2"
    )
    # The message kept as the fact's history is shown under its own key.
    assert any("conversation/s1/1: remember I edit in Zed now" in line for line in shown)

    restored = run_cli("memory", "restore", "v1").clean().out
    assert "restored 'editor' (v1): The user edits in Vim" in restored
    assert "'editor' (v3) steps aside, kept as its history: The user edits in Zed" in restored
    current = json.loads(run_cli("memory", "get", "editor").clean().out)
    assert (current["id"], current["content"]) == ("v1", "The user edits in Vim")
    again = run_cli("memory", "history", "editor", "--json").clean().out.splitlines()
    in_effect = [json.loads(line) for line in again if json.loads(line)["superseded_by"] is None]
    assert [entry["id"] for entry in in_effect] == ["v1"]
    assert len(again) == 4  # nothing lost, nothing added

    assert "already in effect" in run_cli("memory", "restore", "v1").clean().out


def test_a_key_whose_versions_are_all_history_can_be_brought_back(isolated_dirs: Path) -> None:
    """A draft that a plan under another key replaced: `get` cannot name it, and before
    these commands only the inspector could bring it back."""
    write_config()
    _import(
        isolated_dirs,
        [
            record("draft", "Trip plan: Kyoto first", id="d1", superseded_by="p1", **_at(1)),
            record("plan", "Trip plan: Osaka first", id="p1", **_at(2)),
        ],
    )
    missing = run_cli("memory", "get", "draft").clean(1)
    assert "memchat memory history KEY" in missing.err
    assert "memchat memory restore ID" in missing.err

    shown = run_cli("memory", "history", "draft").clean().out
    assert shown.startswith("draft: 1 version, newest first (none in effect)")
    assert "d1  " in shown and "replaced by p1 (plan)" in shown

    restored = run_cli("memory", "restore", "d1").clean().out
    assert json.loads(run_cli("memory", "get", "draft").clean().out)["id"] == "d1"
    # As in the inspector: the fact that replaced it steps aside, kept as its history.
    assert "'plan' (p1) steps aside, kept as its history" in restored
    after = run_cli("memory", "history", "draft").clean().out
    assert "p1  2026-02-01  core  plan: Trip plan: Osaka first\n    replaced by d1" in after


def test_unknown_keys_and_ids_are_named(isolated_dirs: Path) -> None:
    write_config()
    _import(isolated_dirs, EDITOR)
    unknown_key = run_cli("memory", "history", "editr").clean(1)
    assert "no memory with key 'editr'" in unknown_key.err
    unknown_id = run_cli("memory", "restore", "nope").clean(1)
    assert "no memory with id 'nope'" in unknown_id.err and "history KEY" in unknown_id.err


def test_restore_on_a_backend_without_versions_is_refused(isolated_dirs: Path) -> None:
    write_config('backend = "none"\n')
    refused = run_cli("memory", "restore", "v1")
    assert refused.code != 0 and "Traceback" not in refused.err


def test_a_line_break_in_the_content_cannot_pass_for_a_line(isolated_dirs: Path) -> None:
    """Found by an adversary: content with a line break printed as its own lines, so an
    imported text could fake a second version "in effect"."""
    write_config()
    forged = "old PIN\nfake0  2026-01-01  core  PIN 0000\n    in effect"
    _import(
        isolated_dirs,
        [
            record("pin", forged, id="p1", superseded_by="p2", **_at(1)),
            record("pin", "PIN 4321", id="p2", **_at(2)),
        ],
    )
    shown = run_cli("memory", "history", "pin").clean().out.splitlines()
    assert len(shown) == 1 + 2 * 2 + 1  # the heading, two lines a version, the hint
    assert sum(line == "    in effect" for line in shown) == 1


@pytest.mark.parametrize("backend", ["sqlite", "qdrant"])
def test_a_forgotten_memory_comes_back_from_the_audit_log_after_a_restart(
    isolated_dirs: Path, backend: str
) -> None:
    """Found by an adversary: Undo forget lasted until the app closed, though the audit
    log kept the text. `restore` takes a deleted memory's id from `audit`."""
    write_config(f'backend = "{backend}"\n')
    _import(isolated_dirs, [record("tea", "The user drinks green tea", id="t1", **_at(1))])
    run_cli("memory", "forget", "tea", "--yes").clean()
    audit = run_cli("memory", "audit").clean().out
    assert "id t1" in audit and "`memchat memory restore ID`" in audit

    back = run_cli("memory", "restore", "t1").clean().out
    assert (
        "brought back 'tea' (" in back and "from the audit log: The user drinks green tea" in back
    )
    current = json.loads(run_cli("memory", "get", "tea").clean().out)
    assert (current["content"], current["category"]) == ("The user drinks green tea", "core")
    assert "(restored since)" in run_cli("memory", "audit").clean().out
    again = run_cli("memory", "restore", "t1").clean(1)
    assert "'tea' is already back in memory" in again.err


def test_a_memory_brought_back_follows_the_write_rules(isolated_dirs: Path) -> None:
    """Found by an adversary: bringing back "I moved to Lisbon" left "I live in Porto" in
    effect beside it, and a text stored again meanwhile was brought back twice. Brought
    back, a memory is written as `restore` writes an earlier version: what holds its key
    is kept as history."""
    write_config()
    run_cli("memory", "store", "--key", "home", "I live in Porto").clean()
    run_cli("memory", "store", "--key", "moved", "I moved to Lisbon").clean()
    run_cli("memory", "forget", "moved", "--yes").clean()
    lisbon = _deleted_id("I moved to Lisbon")
    back = run_cli("memory", "restore", lisbon).clean().out
    assert "it replaces 'home', kept as history: I live in Porto" in back
    in_effect = run_cli("memory", "list").clean().out
    assert "I moved to Lisbon" in in_effect and "I live in Porto" not in in_effect

    run_cli("memory", "store", "--key", "cat", "Cat is called Miso").clean()
    run_cli("memory", "forget", "cat", "--yes").clean()
    run_cli("memory", "store", "--key", "pet", "Cat is called Miso").clean()
    miso = _deleted_id("Cat is called Miso")
    same = run_cli("memory", "restore", miso).clean().out
    assert same == "already in memory as 'pet': Cat is called Miso; nothing was added\n"

    run_cli("memory", "store", "--key", "tea", "The user drinks green tea").clean()
    run_cli("memory", "forget", "tea", "--yes").clean()
    run_cli("memory", "store", "--key", "tea", "The user drinks black tea").clean()
    green = _deleted_id("green tea")
    taken = run_cli("memory", "restore", green).clean().out
    assert "it replaces 'tea', kept as history: The user drinks black tea" in taken
    assert json.loads(run_cli("memory", "get", "tea").clean().out)["content"] == (
        "The user drinks green tea"
    )


def test_bringing_back_versions_of_one_key_adds_no_copies(isolated_dirs: Path) -> None:
    """Found by an adversary: each restore from the log stored another copy of a text the
    key held as history, and "(restored since)" dropped once that copy was set aside."""
    write_config()
    run_cli("memory", "store", "--key", "home", "I live in Porto").clean()
    run_cli("memory", "store", "--key", "home", "I live in Lisbon").clean()
    run_cli("memory", "forget", "home", "--yes").clean()
    ids = {text: _deleted_id(f"I live in {text}") for text in ("Porto", "Lisbon")}
    run_cli("memory", "restore", ids["Lisbon"]).clean()
    run_cli("memory", "restore", ids["Porto"]).clean()
    again = run_cli("memory", "restore", ids["Lisbon"]).clean().out
    assert "I live in Lisbon" in again
    versions = run_cli("memory", "history", "home", "--json").clean().out.splitlines()
    assert sorted(json.loads(line)["content"] for line in versions) == [
        "I live in Lisbon",
        "I live in Porto",
    ]
    assert json.loads(run_cli("memory", "get", "home").clean().out)["content"] == (
        "I live in Lisbon"
    )
    audit = run_cli("memory", "audit").clean().out
    assert audit.count("(restored since)") == 2


@pytest.mark.parametrize("backend", ["sqlite", "qdrant"])
def test_a_saved_message_comes_back_with_its_day_and_chat(
    isolated_dirs: Path, backend: str
) -> None:
    """Found by an adversary: a message hygiene removed came back dated the day of the
    restore and outside its chat."""
    write_config(f'backend = "{backend}"\n')
    old = {
        "timestamp": "2025-01-02T10:00:00Z",
        "updated_at": "2025-01-02T10:00:00Z",
        "category": "conversation",
        "session_id": "s1",
    }
    _import(isolated_dirs, [record("conv_2", "I bought a red bike yesterday", id="c2", **old)])
    assert "removed 1" in run_cli("memory", "hygiene").clean().out
    back = run_cli("memory", "restore", "c2").clean().out
    assert "brought back 'conv_2' (c2)" in back
    restored = json.loads(run_cli("memory", "get", "conv_2").clean().out)
    assert (restored["timestamp"], restored["session_id"]) == ("2025-01-02T10:00:00Z", "s1")
    # Pinned, or the next hygiene (at every start) took it again (an adversary).
    assert "(pinned, so hygiene keeps it)" in back and restored["pinned"] is True
    assert "would remove 0" in run_cli("memory", "hygiene", "--dry-run").clean().out
    # With its vector (a new user: meaning search passed it by, and every start said so).
    assert "without one" not in run_cli("memory", "stats").clean().out


def test_a_memory_deleted_before_the_log_kept_times_says_it_is_dated_today(
    isolated_dirs: Path,
) -> None:
    """Found by an adversary: a record written by an older memchat (no first time, no
    chat) came back dated today, unsaid."""
    import sqlite3

    write_config()
    run_cli("memory", "store", "--key", "tea", "The user drinks green tea").clean()
    run_cli("memory", "forget", "tea", "--yes").clean()
    conn = sqlite3.connect(next(isolated_dirs.rglob("brain.db")))
    conn.execute("UPDATE memory_audit SET created_at = NULL, session_id = NULL")
    (entry_id,) = conn.execute("SELECT entry_id FROM memory_audit").fetchone()
    conn.commit()
    conn.close()
    back = run_cli("memory", "restore", entry_id).clean().out
    assert "(its first time and chat were not kept by the log: it is dated today)" in back


def test_a_key_no_command_line_can_hold_is_named_by_its_id(isolated_dirs: Path) -> None:
    """Found by an adversary: an imported key with a NUL and a line break was listed, but
    `get`, `forget` and `history` could not be given it."""
    write_config()
    odd = "a\x00b\nc"
    _import(
        isolated_dirs,
        [
            record(odd, "weird key, old", id="w1", superseded_by="w2", **_at(1)),
            record(odd, "weird key", id="w2", **_at(2)),
            record("pet", "The cat is Miso", id="p1", **_at(2)),
        ],
    )
    listed = run_cli("memory", "list").clean().out
    assert "[--id w2]" in listed and "pet  (core" in listed and "[--id p1]" not in listed
    shown = json.loads(run_cli("memory", "get", "--id", "w1").clean().out)
    assert shown["key"] == odd and shown["superseded_by"] == "w2"  # that version itself
    assert "2 versions" in run_cli("memory", "history", "--id", "w2").clean().out
    refused = run_cli("memory", "forget", "--id", "w1", "--yes").clean(1)
    assert "earlier version" in refused.err and "its id is w2" in refused.err
    assert "forgot" in run_cli("memory", "forget", "--id", "w2", "--yes").clean().out
    assert run_cli("memory", "get", "--id", "w2").clean(1).err.startswith("memchat: no memory")
    assert "weird" not in run_cli("memory", "list", "--all").clean().out
    assert "Miso" in run_cli("memory", "list").clean().out  # nothing else went


def test_a_message_said_again_is_not_brought_back_beside_its_new_copy(
    isolated_dirs: Path,
) -> None:
    """Found by a new user: a message the app took back (the server was down) and the user
    sent again was brought back from the log beside its new copy: the same text twice."""
    write_config()
    said = {"category": "conversation", "session_id": "s1"}
    first = record("conversation/s1/1", "My sister Jo is visiting on December 19", id="c1", **said)
    _import(isolated_dirs, [first])
    run_cli("memory", "forget", "conversation/s1/1", "--yes").clean()
    again = record("conversation/s1/2", "My sister Jo is visiting on December 19", id="c2", **said)
    _import(isolated_dirs, [again])
    back = run_cli("memory", "restore", "c1").clean().out
    assert "conversation/s1/2" in back, back
    listed = run_cli("memory", "list", "--json").clean().out.splitlines()
    assert [json.loads(line)["id"] for line in listed] == ["c2"]

"""The hostile-text corpus through every `memchat memory` command.

Each corpus case is stored twice (as key and content in "default", and as the namespace of a
second entry), then listed, searched, fetched, exported and re-imported, forgotten and
audited, planned away by hygiene, snapshotted and counted. Every command must exit as
expected, print no traceback and no raw control, bidi or separator character, and lose
nothing. Commands per run (32 corpus cases): import 1 file of 64 records; list 3 (plain,
--all, --json) + 64 (each hostile namespace, plain and --json); search 64 (each case, plain
and --json); get 65 (each key, each namespace, one missing hostile key); export 2 + import 1
(round trip into a fresh store, every field compared); forget 33, audit 2; hygiene --dry-run
1; snapshot 1; stats 2; hypothesis: 25 generated texts x (import, get, list, search);
subprocess: 2 runs of the real entry point (list, and a non-UTF-8 argument).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings

from memory.snapshot import parse_snapshot
from memory.text import has_visible_text
from tests.helpers.hostile import HOSTILE_CASES, SURFACE_TEXT
from tests.unit.agent.cli_harness import RAW_CONTROL, record, run_cli, write_config, write_jsonl

pytestmark = pytest.mark.slow

KEYS = [f"{i}: {text}"[:500] for i, (_, text) in enumerate(HOSTILE_CASES)]
NAMESPACES = [f"n{i}: {text}"[:200] for i, (_, text) in enumerate(HOSTILE_CASES)]
RECORDS = [
    *(record(key, text) for key, (_, text) in zip(KEYS, HOSTILE_CASES, strict=True)),
    *(
        record("same", text, namespace=ns)
        for ns, (_, text) in zip(NAMESPACES, HOSTILE_CASES, strict=True)
    ),
]


@pytest.fixture
def loaded(isolated_dirs: Path) -> Path:
    # One budget makes hygiene list the default namespace's entries (and, budgets being
    # per namespace, none of the one-entry namespaces).
    write_config("[memory.budgets]\ncore_max_entries = 1\n")
    source = write_jsonl(isolated_dirs / "hostile.jsonl", RECORDS)
    ran = run_cli("memory", "import", str(source)).clean()
    assert ran.out.startswith(f"imported {len(RECORDS)} records: {len(RECORDS)} new")
    return source


def _fields(line: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(line)
    return data


def test_list_shows_every_entry_on_one_clean_line(loaded: Path) -> None:
    for flags in ((), ("--all",)):
        ran = run_cli("memory", "list", "--limit", "1000", *flags).clean()
        assert len(ran.out.splitlines()) == len(KEYS)
    ran = run_cli("memory", "list", "--limit", "1000", "--json").clean()
    listed = {row["key"]: row["content"] for row in map(_fields, ran.out.splitlines())}
    assert listed == {key: text for key, (_, text) in zip(KEYS, HOSTILE_CASES, strict=True)}
    for namespace, (_, text) in zip(NAMESPACES, HOSTILE_CASES, strict=True):
        ran = run_cli("memory", "list", "--namespace", namespace, "--json").clean()
        assert [_fields(line)["content"] for line in ran.out.splitlines()] == [text]
        assert len(run_cli("memory", "list", "--namespace", namespace).clean().out.split("\n")) == 2


def test_search_with_each_case_as_the_query(loaded: Path) -> None:
    for _, text in HOSTILE_CASES:
        query = text.replace("\x00", " ") or "-"  # argv cannot carry NUL
        run_cli("memory", "search", query).clean()
        ran = run_cli("memory", "search", query, "--json", "--limit", "3").clean()
        assert isinstance(json.loads(ran.out)["entries"], list)


def test_get_returns_every_field_exactly(loaded: Path) -> None:
    for key, namespace, (_, text) in zip(KEYS, NAMESPACES, HOSTILE_CASES, strict=True):
        assert _fields(run_cli("memory", "get", key).clean().out)["content"] == text
        by_namespace = run_cli("memory", "get", "--namespace", namespace, "same").clean()
        assert _fields(by_namespace.out)["namespace"] == namespace
    missing = run_cli("memory", "get", "\x1b[2J\x07gone\r\u202e").clean(1)
    assert "no memory with key" in missing.err


def test_export_then_import_into_a_fresh_store_keeps_every_field(
    loaded: Path, isolated_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dump = isolated_dirs / "dump.jsonl"
    assert "exported 64 memories" in run_cli("memory", "export", str(dump)).clean().err
    exported = dump.read_text(encoding="utf-8").splitlines()
    assert RAW_CONTROL.search("".join(exported)) is None
    monkeypatch.setenv("MEMCHAT_HOME", str(isolated_dirs / "fresh"))
    run_cli("memory", "import", str(dump)).clean()
    again = run_cli("memory", "export").clean().out.splitlines()
    assert [_fields(line) for line in again] == [_fields(line) for line in exported]
    by_key = {(row["namespace"], row["key"]): row for row in map(_fields, again)}
    for original in RECORDS:
        stored = by_key[(original.get("namespace", "default"), original["key"])]
        assert stored["content"] == original["content"] and stored["id"] == original["id"]


def test_forget_then_audit(loaded: Path) -> None:
    for key in KEYS:
        assert "forgot" in run_cli("memory", "forget", key).clean().out
    assert (
        run_cli("memory", "forget", KEYS[9]).clean(1).err.startswith("memchat: no memory with key")
    )
    audit = run_cli("memory", "audit", "--limit", "1000").clean()
    *records, hint = audit.out.splitlines()
    assert len(records) == len(KEYS)
    assert hint == "`memchat memory restore ID` brings a deleted memory back"
    one = run_cli("memory", "audit", "--namespace", "default", "--limit", "1").clean()
    assert len(one.out.splitlines()) == 2  # the record and the hint
    # Every hostile memory comes back from the log as it was written.
    for line in records:
        run_cli("memory", "restore", line.rsplit(" ", 1)[-1]).clean()
    exported = run_cli("memory", "export", "--namespace", "default").clean().out.splitlines()
    back = {(row["key"], row["content"]) for row in map(json.loads, exported)}
    assert back == {(key, text) for key, (_, text) in zip(KEYS, HOSTILE_CASES, strict=True)}


def test_hygiene_snapshot_and_stats(loaded: Path, isolated_dirs: Path) -> None:
    plan = run_cli("memory", "hygiene", "--dry-run").clean()
    assert plan.out.startswith(f"would remove {len(KEYS) - 1} memories\n")
    assert len(plan.out.splitlines()) == len(KEYS)
    target = isolated_dirs / "snapshot.md"
    run_cli("memory", "snapshot", str(target)).clean()
    restored = {entry.key: entry.content for entry in parse_snapshot(target.read_text("utf-8"))}
    for key, (_, text) in zip(KEYS, HOSTILE_CASES, strict=True):
        assert restored[key] == text
    assert "total: 64" in run_cli("memory", "stats").clean().out
    stats = json.loads(run_cli("memory", "stats", "--json").clean().out)
    assert set(stats["by_namespace"]) == {"default", *NAMESPACES}


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=SURFACE_TEXT)
@example(text="-:")  # found by CI: a query that starts like an option
def test_generated_text_round_trips_and_prints_clean(isolated_dirs: Path, text: str) -> None:
    write_config()
    key = ("g " + text)[:500]
    source = write_jsonl(isolated_dirs / "generated.jsonl", [record(key, text)])
    if not has_visible_text(text):
        # Nothing to see is no memory, as `store` and the app say too (an adversary).
        refused = run_cli("memory", "import", str(source)).clean(2)
        assert "field 'content': empty; a memory needs some text" in refused.err
        return
    run_cli("memory", "import", str(source)).clean()
    assert _fields(run_cli("memory", "get", key).clean().out)["content"] == text
    run_cli("memory", "list").clean()
    query = text.replace("\x00", " ")
    # "--": a query such as "-:" is text, not an option (as a user would have to write it).
    if has_visible_text(query):
        run_cli("memory", "search", "--", query).clean()
    else:  # a blank query is a usage error that says so, not a search
        assert "must not be empty" in run_cli("memory", "search", "--", query).clean(2).err


def _real_memchat(*args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    script = Path(sys.executable).with_name("memchat")
    return subprocess.run(
        [str(script), "memory", *args], capture_output=True, env=dict(os.environ), timeout=120
    )


def test_the_real_entry_point(loaded: Path) -> None:
    listed = _real_memchat("list", "--limit", "1000")
    assert listed.returncode == 0 and b"Traceback" not in listed.stderr
    decoded = listed.stdout.decode("utf-8")
    assert RAW_CONTROL.search(decoded) is None and len(decoded.splitlines()) == len(KEYS)
    undecodable = _real_memchat("get", b"caf\xe9")
    assert undecodable.returncode == 2 and undecodable.stdout == b""
    assert b"argument key: is not valid UTF-8 text (byte 0xe9" in undecodable.stderr

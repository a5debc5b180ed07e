"""Every `memchat memory` command honours --namespace; hygiene budgets hold per namespace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.unit.agent.cli_harness import record, run_cli, write_config, write_jsonl

SEED = [
    record("editor", "uses Helix"),
    record("pet", "a cat called Miso"),
    record("deadline", "ship on Friday", namespace="work"),
    record("standup", "standup at nine", namespace="work"),
]


@pytest.fixture
def home(isolated_dirs: Path) -> Path:
    write_config()
    run_cli("memory", "import", str(write_jsonl(isolated_dirs / "seed.jsonl", SEED))).clean()
    return isolated_dirs


def _keys(out: str) -> list[str]:
    return sorted(json.loads(line)["key"] for line in out.splitlines())


@pytest.mark.parametrize("command", ["export", "hygiene", "snapshot", "audit", "reindex", "stats"])
def test_help_says_all_namespaces_by_default(isolated_dirs: Path, command: str) -> None:
    assert "all namespaces" in " ".join(run_cli("memory", command, "--help").clean().out.split())


def test_export_all_by_default_or_one_namespace(home: Path) -> None:
    assert len(run_cli("memory", "export").clean().out.splitlines()) == 4
    work = run_cli("memory", "export", "--namespace", "work").clean().out
    assert _keys(work) == ["deadline", "standup"]


def test_list_search_get_forget_default_to_the_default_namespace(home: Path) -> None:
    assert "deadline" not in run_cli("memory", "list").clean().out
    assert "deadline" in run_cli("memory", "list", "--namespace", "work").clean().out
    run_cli("memory", "get", "deadline").clean(1)
    run_cli("memory", "get", "--namespace", "work", "deadline").clean()
    assert "deadline" in run_cli("memory", "search", "--namespace", "work", "Friday").clean().out
    run_cli("memory", "forget", "deadline").clean(1)
    run_cli("memory", "forget", "--namespace", "work", "deadline").clean()


def test_audit_filters_by_namespace(home: Path) -> None:
    run_cli("memory", "forget", "pet").clean()
    run_cli("memory", "forget", "--namespace", "work", "standup").clean()
    everything = run_cli("memory", "audit").clean().out
    assert "pet" in everything and "standup  (core)  forgotten  [namespace work]" in everything
    work = run_cli("memory", "audit", "--namespace", "work").clean().out
    assert "standup" in work and "pet" not in work


def test_snapshot_of_one_namespace_needs_its_own_file(home: Path) -> None:
    whole_store = home / "data" / "MEMORY_SNAPSHOT.md"
    before = whole_store.read_bytes()  # the import of core facts wrote it
    ran = run_cli("memory", "snapshot", "--namespace", "work").clean(2)
    assert "a snapshot of one namespace needs a file of its own" in ran.err
    assert whole_store.read_bytes() == before
    target = home / "work.md"
    run_cli("memory", "snapshot", "--namespace", "work", str(target)).clean()
    text = target.read_text()
    assert "## deadline" in text and "## pet" not in text
    run_cli("memory", "snapshot").clean()
    whole = (home / "data" / "MEMORY_SNAPSHOT.md").read_text()
    assert "## deadline" in whole and "## pet" in whole


def test_reindex_one_namespace(home: Path) -> None:
    # Imported without vectors: every entry needs one; then none does.
    assert run_cli("memory", "reindex").clean().out == "reindexed 4 memories\n"
    assert run_cli("memory", "reindex").clean().out == "reindexed 0 memories\n"
    Path(home / "config.toml").write_text(
        '[memory]\nembedding_provider = "hashing"\nembedding_dimensions = 32\n'
    )
    ran = run_cli("memory", "reindex", "--namespace", "work", "--batch-size", "1").clean()
    assert ran.out == "reindexed 2 memories\n" and "2/2" in ran.err
    assert run_cli("memory", "reindex").clean().out == "reindexed 2 memories\n"


def test_stats_of_one_namespace(home: Path) -> None:
    run_cli("memory", "forget", "--namespace", "work", "standup").clean()
    stats = json.loads(run_cli("memory", "stats", "--namespace", "work", "--json").clean().out)
    assert (stats["total"], stats["active"], stats["by_namespace"]) == (1, 1, {"work": 1})
    assert json.loads(run_cli("memory", "stats", "--json").clean().out)["total"] == 3


def test_hygiene_budgets_count_each_namespace_apart(home: Path) -> None:
    write_config("[memory.budgets]\ncore_max_entries = 1\n")
    plan = run_cli("memory", "hygiene", "--dry-run").clean().out
    assert plan.startswith("would remove 2 memories\n")
    run_cli("memory", "hygiene", "--namespace", "work").clean()
    assert len(run_cli("memory", "list", "--namespace", "work").clean().out.splitlines()) == 1
    assert len(run_cli("memory", "list").clean().out.splitlines()) == 2, "default untouched"
    run_cli("memory", "hygiene").clean()
    assert len(run_cli("memory", "export").clean().out.splitlines()) == 2

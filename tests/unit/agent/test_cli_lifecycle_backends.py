"""Hygiene, audit and snapshots from the CLI on a backend that is not SQLite (local Qdrant)."""

from __future__ import annotations

from pathlib import Path

from tests.unit.agent.cli_harness import record, run_cli, write_config, write_jsonl


def test_hygiene_audit_and_snapshot_work_on_qdrant(isolated_dirs: Path) -> None:
    write_config('backend = "qdrant"\n[memory.retention_days]\nconversation = 30\n')
    old = record("old turn", "what time is it", category="conversation")
    fact = record("pet", "the user's cat is called Miso")
    run_cli("memory", "import", str(write_jsonl(isolated_dirs / "in.jsonl", [old, fact]))).clean()

    ran = run_cli("memory", "hygiene").clean()
    assert "removed 1 memory" in ran.out and "old turn" in ran.out
    assert "snapshot" not in ran.out  # no MEMORY_SNAPSHOT.md of its own to refresh
    audit = run_cli("memory", "audit").clean()
    assert "old turn" in audit.out and "retention" in audit.out

    refused = run_cli("memory", "snapshot").clean(2)
    assert "name a file" in refused.err
    target = isolated_dirs / "core.md"
    run_cli("memory", "snapshot", str(target)).clean()
    assert "the user's cat is called Miso" in target.read_text(encoding="utf-8")


def test_an_export_never_replaces_a_file_of_a_local_qdrant_store(isolated_dirs: Path) -> None:
    write_config('backend = "qdrant"\n')
    fact = record("pet", "the user's cat is called Miso")
    run_cli("memory", "import", str(write_jsonl(isolated_dirs / "in.jsonl", [fact]))).clean()
    store = isolated_dirs / "data" / "qdrant-edge" / "memchat"
    for target in (store / "edge_config.json", store / "memchat-audit.jsonl", store / "new.jsonl"):
        before = target.read_bytes() if target.exists() else None
        run_cli("memory", "export", str(target)).clean(2)
        assert (target.read_bytes() if target.exists() else None) == before
    assert "the user's cat is called Miso" in run_cli("memory", "get", "pet").clean().out


def test_an_import_that_goes_back_in_time_says_so(isolated_dirs: Path) -> None:
    write_config()
    newer = record("editor", "The user edits in Helix")
    older = record(
        "editor",
        "The user edits in Vim",
        updated_at="2025-01-01T00:00:00Z",
        timestamp="2025-01-01T00:00:00Z",
    )
    run_cli("memory", "import", str(write_jsonl(isolated_dirs / "new.jsonl", [newer]))).clean()
    ran = run_cli("memory", "import", str(write_jsonl(isolated_dirs / "old.jsonl", [older])))
    assert "1 record was older than the version it replaced" in ran.clean().out
    assert "The user edits in Vim" in run_cli("memory", "get", "editor").clean().out


def test_a_snapshot_is_not_written_to_a_file_named_dash(isolated_dirs: Path) -> None:
    write_config()
    run_cli("memory", "import", str(write_jsonl(isolated_dirs / "in.jsonl", [record("k", "v")])))
    ran = run_cli("memory", "snapshot", "-").clean(1, 2)
    assert "name one" in ran.err
    assert not Path("-").exists()

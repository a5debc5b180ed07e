"""A real PostgreSQL with pgvector for the tests, from the pgserver wheel (no system install).

pgserver runs initdb and pg_ctl in a temporary folder, listens on a unix socket only, and
takes care of PostgreSQL's refusal to run as root. The server is stopped when the session
ends; each test gets its own schema, so tests never see each other's rows.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a PostgreSQL server with pgvector, started once per test session."""
    if not os.environ.get("XDG_RUNTIME_DIR"):
        # pgserver asks platformdirs for a runtime folder (on import), which warns when none
        # is set (root in a container, CI); a private one of our own keeps the output clean.
        runtime = tmp_path_factory.mktemp("runtime")
        runtime.chmod(0o700)
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)
    try:
        import pgserver
    except ImportError:
        pytest.skip("pgserver is not installed: pip install -e '.[dev]'")
    folder = tmp_path_factory.mktemp("postgres")
    try:
        server = pgserver.get_server(folder, cleanup_mode="stop")  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001 - any start failure is a reason to skip, named
        pytest.skip(f"PostgreSQL could not start here: {exc}")
    try:
        yield str(server.get_uri())
    finally:
        server.cleanup()


def fresh_schema() -> str:
    """A schema name no other test uses."""
    return f"t_{uuid.uuid4().hex[:12]}"

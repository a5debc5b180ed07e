"""Refuse every HTTP request a test did not explicitly allow (no real model, ever)."""

from __future__ import annotations

from typing import Any

import httpx

allowed_ports: set[int] = set()


class BlockedRequestError(RuntimeError):
    """A test tried to reach a server it did not start."""


def _check(request: httpx.Request) -> None:
    port = request.url.port
    if request.url.host in ("127.0.0.1", "localhost") and port in allowed_ports:
        return
    raise BlockedRequestError(
        f"test tried to reach {request.url}; only fake servers started by the test may be used"
    )


_original_async = httpx.AsyncHTTPTransport.handle_async_request
_original_sync = httpx.HTTPTransport.handle_request


async def _guarded_async(self: httpx.AsyncHTTPTransport, request: httpx.Request) -> Any:
    _check(request)
    return await _original_async(self, request)


def _guarded_sync(self: httpx.HTTPTransport, request: httpx.Request) -> Any:
    _check(request)
    return _original_sync(self, request)


def install() -> None:
    """Patch httpx's transports (the ollama client uses them)."""
    httpx.AsyncHTTPTransport.handle_async_request = _guarded_async  # type: ignore[method-assign]
    httpx.HTTPTransport.handle_request = _guarded_sync  # type: ignore[method-assign]

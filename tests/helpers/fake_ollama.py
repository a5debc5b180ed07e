"""A local HTTP server that speaks the parts of Ollama's API the tests need.

Each route is a handler the test can replace, so one server serves success, error and
stall scenarios. Requests are recorded with their JSON bodies for assertions.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.helpers import network_guard


@dataclass
class Reply:
    """What a route answers: a status and a JSON body, optionally after a delay."""

    status: int = 200
    body: Any = None
    delay_s: float = 0.0


Route = Callable[[dict[str, Any]], Reply]


@dataclass
class FakeOllama:
    """Threaded fake server on 127.0.0.1; `url` is its base address."""

    routes: dict[str, Route] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def start(self) -> FakeOllama:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: object) -> None:
                return

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b"{}"
                body = json.loads(raw or b"{}")
                fake.requests.append((self.path, body))
                route = fake.routes.get(self.path)
                reply = route(body) if route else Reply(404, {"error": "not found"})
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                payload = json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = int(self._server.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}"
        network_guard.allowed_ports.add(self.port)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        network_guard.allowed_ports.discard(self.port)
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def embed_route(dimensions: int) -> Route:
    """/api/embed answering deterministic vectors of the given size."""

    def route(body: dict[str, Any]) -> Reply:
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        vectors = [[float((len(text) + i) % 7) - 3.0 for i in range(dimensions)] for text in texts]
        return Reply(body={"model": body["model"], "embeddings": vectors})

    return route

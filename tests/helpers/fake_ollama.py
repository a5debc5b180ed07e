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


@dataclass
class StreamReply:
    """An NDJSON stream sent with chunked encoding, as Ollama streams.

    `cut_after` closes the connection after that many lines without ending the chunked
    body, which a client sees as a broken stream; `raw_lines` are sent as they are.
    """

    lines: list[Any] = field(default_factory=list)
    delay_s: float = 0.0
    cut_after: int | None = None
    raw_lines: list[str] = field(default_factory=list)
    sse: bool = False
    """Server-sent events ("data: …" lines, then "data: [DONE]"), as OpenAI streams."""
    status: int = 200


Route = Callable[[dict[str, Any]], "Reply | StreamReply"]


class _Server(ThreadingHTTPServer):
    fake: FakeOllama

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients that hang up (timeouts, cut streams) are part of the tests, not errors.
        return


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    protocol_version = "HTTP/1.1"

    def log_message(self, *_args: object) -> None:
        return

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._dispatch({})

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b"{}"
        self._dispatch(json.loads(raw or b"{}"))

    def _dispatch(self, body: dict[str, Any]) -> None:
        self.server.fake.requests.append((self.path, body))
        self.server.fake.headers.append((self.path, dict(self.headers.items())))
        route = self.server.fake.routes.get(self.path)
        reply = route(body) if route else Reply(404, {"error": "not found"})
        try:
            if isinstance(reply, StreamReply):
                self._stream(reply)
            else:
                self._json(reply)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _json(self, reply: Reply) -> None:
        if reply.delay_s:
            time.sleep(reply.delay_s)
        payload = json.dumps(reply.body).encode()
        self.send_response(reply.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _stream(self, reply: StreamReply) -> None:
        self.send_response(reply.status)
        kind = "text/event-stream" if reply.sse else "application/x-ndjson"
        self.send_header("Content-Type", kind)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        lines = [json.dumps(line) for line in reply.lines] + reply.raw_lines
        if reply.sse:
            lines = [f"data: {line}\n" for line in lines] + ["data: [DONE]\n"]
        for number, line in enumerate(lines):
            if reply.cut_after is not None and number == reply.cut_after:
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if reply.delay_s:
                time.sleep(reply.delay_s)
            data = (line + "\n").encode()
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")


@dataclass
class FakeOllama:
    """Threaded fake server on 127.0.0.1; `url` is its base address."""

    routes: dict[str, Route] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    headers: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    """Each request's path and HTTP headers, in the order they came."""

    def start(self, port: int = 0) -> FakeOllama:
        """Serve on loopback (a free port unless one is given) in a background thread."""
        self._server = _Server(("127.0.0.1", port), _Handler)
        self._server.fake = self
        self._server.daemon_threads = True
        self.port = int(self._server.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}"
        network_guard.allowed_ports.add(self.port)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
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


def chat_lines(
    text: str = "",
    *,
    thinking: str = "",
    tool_calls: list[dict[str, Any]] | None = None,
    done_reason: str = "stop",
    model: str = "qwen3:8b",
) -> list[dict[str, Any]]:
    """/api/chat stream lines: thinking, then text in pieces, then tool calls, then done."""
    lines: list[dict[str, Any]] = []

    def line(message: dict[str, Any], done: bool = False) -> dict[str, Any]:
        return {
            "model": model,
            "created_at": "2026-11-30T09:30:00Z",
            "message": {"role": "assistant", "content": "", **message},
            "done": done,
        }

    for start in range(0, len(thinking), 6):
        lines.append(line({"thinking": thinking[start : start + 6]}))
    for start in range(0, len(text), 6):
        lines.append(line({"content": text[start : start + 6]}))
    if tool_calls:
        lines.append(line({"tool_calls": [{"function": c} for c in tool_calls]}))
    final = line({}, done=True)
    final.update(
        done_reason=done_reason,
        total_duration=900_000_000,
        load_duration=120_000_000,
        prompt_eval_count=812,
        prompt_eval_duration=80_000_000,
        eval_count=42,
        eval_duration=700_000_000,
    )
    lines.append(final)
    return lines


def show_body(capabilities: list[str], context_length: int = 40960) -> dict[str, Any]:
    """An /api/show answer."""
    return {
        "modelfile": "",
        "parameters": "",
        "template": "",
        "details": {
            "format": "gguf",
            "family": "qwen3",
            "parameter_size": "8.2B",
            "quantization_level": "Q4_K_M",
        },
        "model_info": {"general.architecture": "qwen3", "qwen3.context_length": context_length},
        "capabilities": capabilities,
    }


def completion_events(
    text: str = "",
    *,
    reasoning: str = "",
    tool_calls: list[dict[str, Any]] | None = None,
    finish: str = "stop",
    model: str = "smollm2",
) -> list[dict[str, Any]]:
    """OpenAI chat.completion.chunk events, llama.cpp-style (usage and timings at the end).

    Tool calls arrive as a llama.cpp streams them: id and name first, then the arguments
    in several fragments.
    """

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        }

    events = [chunk({"role": "assistant", "content": None})]
    events += [
        chunk({"reasoning_content": reasoning[i : i + 5]}) for i in range(0, len(reasoning), 5)
    ]
    events += [chunk({"content": text[i : i + 5]}) for i in range(0, len(text), 5)]
    for index, call in enumerate(tool_calls or []):
        arguments = (
            json.dumps(call["arguments"])
            if not isinstance(call["arguments"], str)
            else call["arguments"]
        )
        events.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": f"call_{index}",
                            "type": "function",
                            "function": {"name": call["name"], "arguments": ""},
                        }
                    ]
                }
            )
        )
        for start in range(0, len(arguments), 7):
            events.append(
                chunk(
                    {
                        "tool_calls": [
                            {
                                "index": index,
                                "function": {"arguments": arguments[start : start + 7]},
                            }
                        ]
                    }
                )
            )
    events.append(chunk({}, "tool_calls" if tool_calls else finish))
    events.append(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "choices": [],
            "usage": {"prompt_tokens": 640, "completion_tokens": 32, "total_tokens": 672},
            "timings": {"predicted_per_second": 80.0, "prompt_ms": 50.0},
        }
    )
    return events

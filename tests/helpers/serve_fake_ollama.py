"""Run the fake Ollama server by hand, to try the app without a model.

    python -m tests.helpers.serve_fake_ollama [--port 11434] [--delay 0.05]
        [--models qwen3:8b,llama3.1:8b]

A toy responder: "remember …" becomes a memory_store tool call; otherwise it says which
recalled memories it was shown. Replies stream slowly enough to try Esc.
"""

from __future__ import annotations

import argparse
import re
import time
from typing import Any

from tests.helpers.fake_ollama import (
    FakeOllama,
    Reply,
    StreamReply,
    chat_lines,
    show_body,
)


def respond(body: dict[str, Any], delay: float) -> StreamReply:
    messages = body["messages"]
    last = messages[-1]
    if last["role"] == "tool":
        return StreamReply(chat_lines("Done — I stored that in long-term memory."), delay_s=delay)
    text = last["content"]
    question = text.split("</memory-context>")[-1].strip()
    match = re.match(r"(?i)\s*remember (?:that )?(.+)", question)
    if match and body.get("tools"):
        fact = match.group(1).rstrip(".")
        key = "_".join(re.findall(r"[a-z]+", fact.lower())[:3]) or "fact"
        return StreamReply(
            chat_lines(
                tool_calls=[
                    {
                        "name": "memory_store",
                        "arguments": {"key": key, "content": fact[0].upper() + fact[1:]},
                    }
                ]
            ),
            delay_s=delay,
        )
    recalled = re.findall(r"^- \[[^\]]+\] (\S+) \([^)]*\): (.+)$", text, re.MULTILINE)
    if recalled:
        items = "\n".join(f"- **{key}**: {content}" for key, content in recalled)
        reply = f"Here is what I remember that seems related:\n\n{items}\n\nAsk me anything else."
    else:
        reply = f"I don't remember anything about that yet. You said: *{question}*"
    return StreamReply(chat_lines(reply), delay_s=delay)


def lexical_embed(body: dict[str, Any]) -> Reply:
    """/api/embed with the offline hashing embedder, so recall behaves sensibly."""
    from memory.embedding.hashing import HashingEmbedder

    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
    vectors = HashingEmbedder(768).embed_sync(texts)
    return Reply(body={"model": body["model"], "embeddings": vectors.tolist()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=11434)
    parser.add_argument("--delay", type=float, default=0.05, help="seconds between chunks")
    parser.add_argument(
        "--models",
        default="qwen3:8b,llama3.1:8b",
        help="installed models, comma-separated (restart without one to see it gone)",
    )
    args = parser.parse_args()
    installed = [name.strip() for name in args.models.split(",") if name.strip()]
    server = FakeOllama()
    server.routes.update(
        {
            "/api/show": lambda body: (
                Reply(body=show_body(["completion", "tools"]))
                if (body.get("model") or body.get("name")) in installed
                else Reply(404, {"error": f"model '{body.get('model')}' not found"})
            ),
            "/api/tags": lambda body: Reply(
                body={"models": [{"model": name, "size": 5_200_000_000} for name in installed]}
            ),
            "/api/ps": lambda body: Reply(
                body={
                    "models": [
                        {"model": "qwen3:8b", "name": "qwen3:8b", "size": 6_000, "size_vram": 6_000}
                    ]
                }
            ),
            "/api/chat": lambda body: respond(body, args.delay),
            "/api/embed": lexical_embed,
        }
    )
    server.start(port=args.port)
    print(f"fake Ollama on {server.url}; Ctrl+C stops it")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()

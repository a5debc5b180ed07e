"""Run the fake Ollama server by hand, to try the app without a model.

    python -m tests.helpers.serve_fake_ollama [--port 11434] [--delay 0.05]
        [--models qwen3:8b,llama3.1:8b] [--without-tools gemma3:4b]

A toy responder: "remember …" becomes a memory_store tool call; otherwise it says which
recalled memories it was shown. Replies stream slowly enough to try Esc. Models listed in
--without-tools lack the `tools` capability: memchat then asks for JSON replies (structured
mode), and the responder writes its call or answer as that JSON.
"""

from __future__ import annotations

import argparse
import json
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
    structured = isinstance(body.get("format"), dict)
    if last["role"] == "tool" or (structured and last["content"].startswith("Tool result")):
        done = "Done — I stored that in long-term memory."
        if structured:
            return StreamReply(chat_lines(json.dumps({"answer": done})), delay_s=delay)
        return StreamReply(chat_lines(done), delay_s=delay)
    text = last["content"]
    question = text.split("</memory-context>")[-1].strip()
    match = re.match(r"(?i)\s*remember (?:that )?(.+)", question)
    if match and (body.get("tools") or structured):
        fact = match.group(1).rstrip(".")
        key = "_".join(re.findall(r"[a-z]+", fact.lower())[:3]) or "fact"
        arguments = {"key": key, "content": fact[0].upper() + fact[1:]}
        if structured:
            written = json.dumps({"tool": "memory_store", "arguments": arguments})
            return StreamReply(chat_lines(written), delay_s=delay)
        return StreamReply(
            chat_lines(tool_calls=[{"name": "memory_store", "arguments": arguments}]),
            delay_s=delay,
        )
    # A fact's line names its key, quoted; a saved message's line has none.
    recalled = re.findall(
        r'^- \[([^\]]+)\] (?:"((?:[^"\\]|\\.)*)" )?\([^)]*\): (.+)$', text, re.MULTILINE
    )
    if recalled:
        items = "\n".join(
            f"- **{key or category}**: {content}" for category, key, content in recalled
        )
        reply = f"Here is what I remember that seems related:\n\n{items}\n\nAsk me anything else."
    else:
        reply = f"I don't remember anything about that yet. You said: *{question}*"
    if structured:
        return StreamReply(chat_lines(json.dumps({"answer": reply})), delay_s=delay)
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
    parser.add_argument(
        "--without-tools",
        default="",
        help="installed models without native tool calling, comma-separated",
    )
    args = parser.parse_args()
    without_tools = [name.strip() for name in args.without_tools.split(",") if name.strip()]
    installed = [name.strip() for name in args.models.split(",") if name.strip()]
    installed += without_tools
    server = FakeOllama()
    server.routes.update(
        {
            "/api/show": lambda body: (
                Reply(404, {"error": f"model '{body.get('model')}' not found"})
                if (body.get("model") or body.get("name")) not in installed
                else Reply(body=show_body(["completion"]))
                if (body.get("model") or body.get("name")) in without_tools
                else Reply(body=show_body(["completion", "tools"]))
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

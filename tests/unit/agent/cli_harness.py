"""Run `memchat` in-process with captured output, and check what it printed."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from hashlib import sha1
from pathlib import Path
from typing import Any

from tui.cli import main

# What must never reach a terminal raw: C0 controls other than the line feed that ends each
# line, DEL, C1 controls, bidi marks/overrides/isolates, line and paragraph separators, and
# lone surrogates, zero-width characters. Written out here rather than imported, so the test
# checks the module.
RAW_CONTROL = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff\ud800-\udfff]"
)


@dataclass
class Ran:
    """One command's exit status and output."""

    code: int
    out: str
    err: str

    def clean(self, *codes: int) -> Ran:
        """Assert: an expected exit status, no traceback, nothing raw; return self."""
        assert self.code in (codes or (0,)), (self.code, self.out[-500:], self.err[-500:])
        for stream in (self.out, self.err):
            assert "Traceback" not in stream
            found = RAW_CONTROL.search(stream)
            assert found is None, f"raw {found.group()!r} in {stream[:300]!r}"
        return self


def run_cli(*argv: str) -> Ran:
    """`memchat ARGV…` in this process; SystemExit (argparse) becomes the exit status."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return Ran(code, out.getvalue(), err.getvalue())


def write_config(extra: str = "") -> Path:
    """A config with the hashing embedder (no model needed), plus `extra` TOML."""
    config = Path(os.environ["MEMCHAT_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        '[memory]\nembedding_provider = "hashing"\nembedding_dimensions = 64\n' + extra,
        encoding="utf-8",
    )
    return config


def record(key: str, content: str, **fields: Any) -> dict[str, Any]:
    """An export record with fixed times."""
    base: dict[str, Any] = {
        "id": fields.pop(
            "id", "id-" + sha1(f"{fields.get('namespace')}/{key}".encode()).hexdigest()
        ),
        "key": key,
        "content": content,
        "category": "core",
        "timestamp": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
    }
    base.update(fields)
    return base


def write_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> Path:
    """An import file, one JSON record per line (UTF-8)."""
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path

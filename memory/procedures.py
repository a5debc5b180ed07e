"""Procedural memory: how a request was handled, as steps a later request can reuse."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memory.text import distinct_terms


@dataclass(frozen=True)
class ProcedureStep:
    """One tool call of a successful turn."""

    tool: str
    arguments: Mapping[str, Any]


def describe_procedure(request: str, steps: Sequence[ProcedureStep]) -> tuple[str, str]:
    """The key and text of a procedure; similar requests with the same tools share a key.

    Argument names are kept and values dropped: values are specific to one request (and
    may be private), the shape is what generalises.
    """
    request = " ".join(request.split())
    if len(request) > 160:
        request = request[:159] + "…"
    calls = [f"{step.tool}({', '.join(sorted(step.arguments))})" for step in steps]
    # Few words of our own: "call" and "handle" made "what's my cat called?" recall every
    # procedure (found by a new user).
    text = f'Procedure for "{request}": ' + ", then ".join(calls) + "."
    words = sorted(distinct_terms(request))[:8]
    signature = "|".join(step.tool for step in steps) + "|" + " ".join(words)
    digest = hashlib.sha256(signature.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"procedure/{'-'.join(dict.fromkeys(s.tool for s in steps))}/{digest}", text

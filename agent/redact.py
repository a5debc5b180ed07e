"""Secrets are redacted before anything the user typed is saved as a memory."""

from __future__ import annotations

import re

_LABELS = (
    r"(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|auth[_-]?token"
    r"|token|aws_secret_access_key)"
)

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "private-key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----.*?"
            r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|\Z)",
            re.DOTALL,
        ),
    ),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("bearer-token", re.compile(r"(?i)(?<=\bbearer )[A-Za-z0-9._~+/=-]{16,}")),
    (
        "api-key",
        re.compile(r"\b(?:sk|rk|pk)[-_](?:live[-_]|test[-_]|proj[-_]|ant[-_])?[A-Za-z0-9_-]{16,}"),
    ),
    ("api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{30,}")),
    (
        "api-key",
        re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{30,}"),
    ),
    ("api-key", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}")),
    ("api-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("secret", re.compile(rf"(?i)(\b{_LABELS}[\"']?\s*(?:is|=|:)\s*)([\"'])(.+?)\2")),
    (
        "secret",
        re.compile(rf"(?i)(\b{_LABELS}[\"']?\s*(?:is|=|:)\s*)()(?!\[REDACTED)([^\s\"',;]{{4,}})"),
    ),
]


def redact(text: str) -> tuple[str, list[str]]:
    """Text with secrets replaced by `[REDACTED:kind]`, and the kinds that were found."""
    found: list[str] = []
    for kind, pattern in _PATTERNS:
        if kind == "secret":
            text, count = pattern.subn(
                lambda m: f"{m.group(1)}{m.group(2)}[REDACTED:secret]{m.group(2)}", text
            )
        else:
            text, count = pattern.subn(f"[REDACTED:{kind}]", text)
        if count:
            found.append(kind)
    return text, found

"""Config files written before the generation settings left `[ollama]`.

Temperature, seed, context window, reply limit and thinking apply to every provider, so they
live in `[generation]`; the server timeouts live in `[model]`. An older file is read as if it
said so, and rewritten once with each moved line (and the comment lines right above it)
under its new section. The rewrite is checked: the new text must parse to exactly the moved
settings, or the file is left as it was and the settings still apply.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

from agent.config_lines import key_lines

MOVED: dict[str, str] = {
    "num_ctx": "generation",
    "think": "generation",
    "temperature": "generation",
    "seed": "generation",
    "max_reply_tokens": "generation",
    "connect_timeout_s": "model",
    "read_timeout_s": "model",
}
"""Keys that left [ollama], and the section each one lives in now."""

OLD_SECTION = "ollama"
NEW_SECTION_COMMENTS = {
    "generation": "# How replies are generated (every provider).",
    "model": "# Which kind of server runs the chat model.",
}


@dataclass
class Migration:
    """What reading an older config moved, and the same settings as new text."""

    moved: list[tuple[str, str]] = field(default_factory=list)
    """(old dotted key, new dotted key) for each setting read from its old place."""
    conflicts: list[tuple[str, str]] = field(default_factory=list)
    """Set in both places: the user must keep one."""
    text: str | None = None
    """The file rewritten with the settings in their new sections; None if it could not
    be done safely (the settings apply all the same)."""


def migrate_data(data: dict[str, Any]) -> Migration:
    """Move old keys in parsed config data, in place; say what moved or clashed."""
    migration = Migration()
    old = data.get(OLD_SECTION)
    if not isinstance(old, dict):
        return migration
    for key, section in MOVED.items():
        if key not in old:
            continue
        target = data.setdefault(section, {})
        if not isinstance(target, dict):
            continue  # "[model] must be a table" is reported by validation
        if key in target:
            migration.conflicts.append((f"{OLD_SECTION}.{key}", f"{section}.{key}"))
            continue
        target[key] = old.pop(key)
        migration.moved.append((f"{OLD_SECTION}.{key}", f"{section}.{key}"))
    return migration


def _block_start(lines: list[str], index: int) -> int:
    """The first of the comment lines directly above line `index` (0-based)."""
    while index > 0 and lines[index - 1].lstrip().startswith("#"):
        index -= 1
    return index


def _section_end(lines: list[str], header: int) -> int:
    """The line after the last non-blank line of the table whose header is `header`."""
    end = header + 1
    for number in range(header + 1, len(lines)):
        stripped = lines[number].strip()
        if stripped.startswith("["):
            break
        if stripped:
            end = number + 1
    return end


def rewrite_text(text: str, migration: Migration, migrated: dict[str, Any]) -> str | None:
    """The file with each moved line under its new section, or None if not safely possible.

    Only single-line settings inside an `[ollama]` table are moved; the result must parse
    to `migrated` exactly, so an unusual layout is never half-rewritten.
    """
    found = key_lines(text)
    newline = "\r\n" if "\r\n" in text else "\n"  # lines added match the file's own
    # Split on line feeds only, as the line numbers count them (a U+2028 inside a string
    # is not a line break).
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]] + ([parts[-1] + newline] if parts[-1] else [])
    blocks: dict[str, list[str]] = {}
    taken: set[int] = set()
    for old_key, new_key in migration.moved:
        number = found.get(tuple(old_key.split(".")))
        if number is None:
            return None
        index = number - 1
        try:
            tomllib.loads(lines[index])
        except tomllib.TOMLDecodeError:
            return None  # a value over several lines, or not `key = value` on its own
        start = _block_start(lines, index)
        if taken & set(range(start, index + 1)):
            return None
        taken.update(range(start, index + 1))
        section = new_key.split(".")[0]
        blocks.setdefault(section, []).extend(lines[start : index + 1])
    kept = [line for number, line in enumerate(lines) if number not in taken]
    for section, block in blocks.items():
        headers = [number for number, line in enumerate(kept) if line.strip() == f"[{section}]"]
        if headers:
            end = _section_end(kept, headers[0])
            kept[end:end] = block
        else:
            if kept and kept[-1].strip():
                kept.append(newline)
            header = [NEW_SECTION_COMMENTS[section] + newline, f"[{section}]{newline}"]
            kept.extend([*header, *block])
    new_text = "".join(kept)
    try:
        if tomllib.loads(new_text) != migrated:
            return None
    except tomllib.TOMLDecodeError:
        return None
    return new_text

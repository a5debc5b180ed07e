"""Reading an export file for `memchat memory import`: decoded, parsed whole, errors named.

An export is JSON lines. Editors and other tools save text as UTF-8 with or without a BOM,
or as UTF-16/UTF-32 with a BOM; all of these are read. Anything else stops the import with
the line and byte that could not be decoded, and a record that does not validate stops it
with the line, the field and what was expected. Nothing is written unless every line parses.
"""

from __future__ import annotations

import codecs
import re
import stat
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from agent.errors import AgentError
from memory.errors import ImportFormatError
from memory.records import MemoryRecord, check_record_set

# Longest first: the UTF-32-LE BOM begins with the UTF-16-LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
_READABLE = "memchat reads UTF-8 (with or without a BOM) and UTF-16 or UTF-32 with a BOM"
_DATE_TIME = "an ISO 8601 date-time (like 2026-01-31T09:30:00Z)"
_SHOWN_CHARS = 60


class ImportFileError(AgentError):
    """The import file cannot be read at all (missing, a folder, no permission)."""


class ImportFieldError(ImportFormatError):
    """A record on one line has a field with the wrong kind of value (or lacks one)."""

    def __init__(self, line_number: int, field: str, detail: str) -> None:
        super().__init__(line_number, detail)
        self.args = (f"import line {line_number}, field {field!r}: {detail}",)
        self.field = field


def _line_of(data: bytes, codec: str, offset: int) -> int:
    """The 1-based line that byte `offset` of `data` (decoded with `codec`) is on."""
    return data[:offset].decode(codec, errors="replace").count("\n") + 1


def decode_export(data: bytes) -> str:
    """The text of an export file, or `ImportFormatError` naming the line and byte."""
    codec, name, start = "utf-8", "UTF-8", 0
    for bom, bom_codec, bom_name in _BOMS:
        if data.startswith(bom):
            codec, name, start = bom_codec, bom_name, len(bom)
            break
    body = data[start:]
    if start == 0 and b"\x00" in body:
        # JSON never holds a raw NUL; many NULs mean UTF-16/32 saved without its BOM.
        offset = body.index(b"\x00")
        raise ImportFormatError(
            _line_of(body, codec, offset),
            f"byte 0x00 at offset {offset} of the file: this is not UTF-8 text (UTF-16 or "
            f"UTF-32 without a BOM?); {_READABLE}",
        )
    try:
        return body.decode(codec)
    except UnicodeDecodeError as exc:
        bad = body[exc.start : exc.start + 1]
        raise ImportFormatError(
            _line_of(body, codec, exc.start),
            f"byte 0x{bad.hex() or '??'} at offset {start + exc.start} of the file is not "
            f"valid {name} ({exc.reason}); {_READABLE}",
        ) from None


def _got(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= _SHOWN_CHARS else shown[: _SHOWN_CHARS - 1] + "…"


def _expected(error: ErrorDetails) -> str:
    """What a pydantic error says the field should have been, in plain words."""
    kind: str = error["type"]
    message: str = error["msg"]
    if kind.startswith(("datetime", "date", "time")):
        return f"expected {_DATE_TIME}, got {_got(error['input'])}"
    if kind == "value_error":
        reason = str(error.get("ctx", {}).get("error", message))
        return f"{reason}, got {_got(error['input'])}"
    wanted = message.removeprefix("Input should be ").removeprefix("Value error, ")
    return f"expected {wanted}, got {_got(error['input'])}"


def _field_name(location: tuple[int | str, ...]) -> str:
    name = ""
    for part in location:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else part)
    return name


def describe_error(line_number: int, exc: ValidationError) -> ImportFormatError:
    """The first problem pydantic found on a line, as a message naming the field."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    others = len(errors) - 1
    more = (
        f" (and {others} more {'problem' if others == 1 else 'problems'} on this line)"
        if others
        else ""
    )
    location = tuple(first["loc"])
    if first["type"] == "json_invalid":
        reason = str(first.get("ctx", {}).get("error", first["msg"]))
        reason = re.sub(r" at line 1 column (\d+)$", r" at column \1", reason)
        return ImportFormatError(line_number, f"not valid JSON ({reason})")
    if not location:
        return ImportFormatError(
            line_number,
            f"expected a JSON object (one memory per line), got {_got(first['input'])}",
        )
    field = _field_name(location)
    if first["type"] == "missing":
        detail = "missing; every record needs it"
    elif first["type"] == "extra_forbidden":
        detail = "is not a field of a memchat export record"
    else:
        detail = _expected(first)
    return ImportFieldError(line_number, field, detail + more)


def parse_export(text: str) -> list[MemoryRecord]:
    """Every record of an export's text, or the error of the first bad line."""
    records = []
    numbers = []
    # Only "\n" ends a record: U+2028 and friends are legal inside JSON strings.
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r")
        if not line.strip():
            continue
        try:
            records.append(MemoryRecord.model_validate_json(line))
        except ValidationError as exc:
            raise describe_error(number, exc) from None
        numbers.append(number)
    check_record_set(records, numbers)  # what only the records together get wrong
    return records


def read_export(path: Path) -> list[MemoryRecord]:
    """Read, decode and parse a whole export file before anything is written."""
    try:
        mode = path.stat().st_mode
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            # /dev/zero or a disk would be read without end: only files and pipes are read.
            raise ImportFileError(f"cannot read {path}: it is a device, not an export file")
        data = path.read_bytes()
    except OSError as exc:
        raise ImportFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_export(decode_export(data))

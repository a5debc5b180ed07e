"""Reading an export file for `memchat memory import`: decoded, parsed whole, errors named.

An export is JSON lines. Editors and other tools save text as UTF-8 with or without a BOM,
or as UTF-16/UTF-32 with a BOM; all of these are read. Anything else stops the import with
the line and byte that could not be decoded, and a record that does not validate stops it
with the line, the field and what was expected. Nothing is written unless every line parses.
"""

from __future__ import annotations

import codecs
import json
import re
import stat
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from agent.errors import AgentError
from memory.errors import ImportFormatError
from memory.records import MemoryRecord, check_record_set
from memory.text import has_visible_text

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


_NAMED_PER_LINE = 3
"""Problems of one line named in full; the rest are counted."""
_NAMED_LINES = 5
"""Bad lines named in full; the rest are counted."""


def _problem(error: ErrorDetails) -> tuple[str | None, str]:
    """(field or None, what is wrong) for one pydantic error."""
    location = tuple(error["loc"])
    if error["type"] == "json_invalid":
        reason = str(error.get("ctx", {}).get("error", error["msg"]))
        reason = re.sub(r" at line 1 column (\d+)$", r" at column \1", reason)
        return None, f"not valid JSON ({reason})"
    if not location:
        return None, f"expected a JSON object (one memory per line), got {_got(error['input'])}"
    if error["type"] == "missing":
        return _field_name(location), "missing; every record needs it"
    if error["type"] == "extra_forbidden":
        return _field_name(location), "is not a field of a memchat export record"
    return _field_name(location), _expected(error)


def describe_error(line_number: int, exc: ValidationError) -> ImportFormatError:
    """The problems pydantic found on a line, as a message naming each field.

    A new user was told "(and 1 more problem on this line)" without which: the first
    few are named, the rest counted.
    """
    problems = [_problem(error) for error in exc.errors(include_url=False)]
    field, detail = problems[0]
    named = [f"field {name!r}: {what}" for name, what in problems[1:_NAMED_PER_LINE]]
    rest = len(problems) - 1 - len(named)
    more = "; ".join(named) + (f"; and {rest} more on line {line_number}" if rest > 0 else "")
    if more:
        detail = f"{detail}; {more}"
    if field is None:
        return ImportFormatError(line_number, detail)
    return ImportFieldError(line_number, field, detail)


def _together(errors: list[ImportFormatError]) -> ImportFormatError:
    """The first bad line's error, its message naming the other bad lines too."""
    first = errors[0]
    others = [str(error).removeprefix("import ") for error in errors[1:_NAMED_LINES]]
    if others:
        rest = len(errors) - _NAMED_LINES
        also = "; also " + "; ".join(others) + (f"; and {rest} more bad lines" if rest > 0 else "")
        first.args = (f"{first.args[0]}{also}",)
    return first


class _RepeatedFieldError(ValueError):
    def __init__(self, field: str) -> None:
        super().__init__(field)
        self.field = field


def _refuse_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for name, _ in pairs:
        if name in seen:
            raise _RepeatedFieldError(name)
        seen.add(name)
    return dict(pairs)


def _repeated_field(line: str) -> str | None:
    """A field the line's JSON gives twice, or None (also when it is not valid JSON).

    JSON parsers keep the last of two values silently, so `"content": "a", "content": "b"`
    imported "b" without a word (found by an adversary).
    """
    try:
        json.loads(line, object_pairs_hook=_refuse_repeats)
    except _RepeatedFieldError as repeated:
        return repeated.field
    except (ValueError, RecursionError):
        # Pydantic names what is wrong with it (a crash on 100,000 nested brackets was
        # found by an adversary: Python's parser recurses).
        return None
    return None


MAX_IMPORTED_CHARS = 1_000_000
"""The most text one imported memory may hold. Found by an adversary: a record of 200 MB
took a minute and 4 GB to import, and the app then took a minute for each message."""
_LONGEST_LINE = 12 * MAX_IMPORTED_CHARS + 65_536
"""A line longer than this holds more text than a memory may, even with every character
written as JSON escapes (an emoji is two, twelve characters) and the other fields beside
it: it is not parsed at all. At 8 characters a memory of 999,999 emoji was refused as an
export of Python's `json.dumps` wrote it, and taken as one without escapes wrote it."""


def _too_long(number: int, length: int, *, whole_record: bool = False) -> ImportFieldError:
    counted = (
        f"the record is {length:,} characters long" if whole_record else f"{length:,} characters"
    )
    return ImportFieldError(
        number,
        "content",
        f"{counted}; a memory holds at most {MAX_IMPORTED_CHARS:,} (keep a text "
        "that long as a file, and a memory of where it is)",
    )


_HALF_CHARACTER = (
    "{escape} is half of a character (a lone UTF-16 surrogate) and cannot be stored; "
    "write the character itself, or both halves of its escape"
)


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _half_character(line: str) -> str | None:
    r"""The first lone surrogate escape (like "\ud83d") the line's JSON holds, or None.

    The JSON reader says only "unexpected end of hex escape" for one, which sent an
    adversary looking for a typing mistake in the escape.
    """
    if not _SURROGATE_ESCAPE.search(line):
        return None
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    for char in _strings_in(value):
        if 0xD800 <= ord(char) <= 0xDFFF:
            return f"\\u{ord(char):04x}"
    return None


def _strings_in(value: Any) -> str:
    """Every string of a parsed JSON value (keys included), joined.

    Walked with a list, not recursion: a line nested as deep as the reader allows would
    otherwise overflow here.
    """
    found: list[str] = []
    waiting = [value]
    while waiting:
        item = waiting.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            found.extend(item)
            waiting.extend(item.values())
        elif isinstance(item, list):
            waiting.extend(item)
    return "".join(found)


def _line_problem(number: int, line: str) -> ImportFormatError | MemoryRecord:
    """The record on one line, or what is wrong with it."""
    if len(line) > _LONGEST_LINE:
        return _too_long(number, len(line), whole_record=True)
    repeated = _repeated_field(line)
    if repeated is not None:
        return ImportFieldError(
            number, repeated, "given twice in one record; which value is meant is unclear"
        )
    try:
        record = MemoryRecord.model_validate_json(line)
    except ValidationError as exc:
        half = _half_character(line)
        if half is not None:
            return ImportFormatError(number, _HALF_CHARACTER.format(escape=half))
        return describe_error(number, exc)
    if len(record.content) > MAX_IMPORTED_CHARS:
        return _too_long(number, len(record.content))
    for field in ("key", "namespace", "id"):
        if not has_visible_text(getattr(record, field)):
            # As `store --key` refuses one: a key of only invisible characters cannot be
            # told from another, nor typed (found by an adversary).
            return ImportFieldError(number, field, "no visible character in it")
    if not has_visible_text(record.content):
        # The app, the tool and `store` all refuse an empty memory: a file may not add one.
        return ImportFieldError(number, "content", "empty; a memory needs some text")
    return record


def parse_export(text: str) -> list[MemoryRecord]:
    """Every record of an export's text, or the error of the first bad line."""
    records = []
    numbers = []
    errors: list[ImportFormatError] = []
    # Only "\n" ends a record: U+2028 and friends are legal inside JSON strings.
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r")
        if not line.strip():
            continue
        parsed = _line_problem(number, line)
        if isinstance(parsed, ImportFormatError):
            errors.append(parsed)  # every bad line is named, not one
            continue
        records.append(parsed)
        numbers.append(number)
    if errors:
        raise _together(errors)
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

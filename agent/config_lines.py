"""The line that sets each key of a TOML file, so that an error can point at it.

`tomllib` parses values but forgets where they were. A line-by-line pattern match is wrong
inside a multi-line string (a `[memory]` line in a system prompt), in an inline table
(`memory = { auto_save = "x" }`) and for quoted keys. This scanner walks the structure
instead. It only runs on text `tomllib` has already accepted, so it need not report syntax
errors: where the text surprises it, it stops and keeps what it found.
"""

from __future__ import annotations

import tomllib

from memory.lazy_patterns import lazy_compile

_BARE_KEY = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.line = 1
        self.found: dict[tuple[str, ...], int] = {}

    def peek(self, count: int = 1) -> str:
        return self.text[self.at : self.at + count]

    def advance(self, count: int = 1) -> None:
        self.line += self.text.count("\n", self.at, self.at + count)
        self.at += count

    def skip_blank(self, *, newlines: bool) -> None:
        """Skip spaces and comments, and line breaks too where the grammar allows them."""
        while self.at < len(self.text):
            char = self.peek()
            if char in " \t" or (newlines and char in "\r\n"):
                self.advance()
            elif char == "#":
                end = self.text.find("\n", self.at)
                self.advance((len(self.text) if end < 0 else end) - self.at)
            else:
                return

    def record(self, path: tuple[str, ...]) -> None:
        self.found.setdefault(path, self.line)

    def key(self) -> tuple[str, ...]:
        """A dotted key: bare, "basic" or 'literal' parts, with spaces around the dots."""
        parts: list[str] = []
        while True:
            self.skip_blank(newlines=False)
            char = self.peek()
            if char in "\"'":
                start = self.at
                self.string()
                quoted = self.text[start : self.at]
                parts.append(tomllib.loads(f"k = {quoted}")["k"])
            else:
                start = self.at
                while self.peek() and self.peek() in _BARE_KEY:
                    self.advance()
                if self.at == start:
                    raise ValueError("not a key")
                parts.append(self.text[start : self.at])
            self.skip_blank(newlines=False)
            if self.peek() != ".":
                return tuple(parts)
            self.advance()

    def string(self) -> None:
        """Skip one string of any of the four kinds."""
        quote = self.peek()
        if self.peek(3) == quote * 3:
            end = self.text.find(quote * 3, self.at + 3)
            if end < 0:
                raise ValueError("unclosed string")
            # A closing run may hold up to two more quotes that belong to the content.
            end += 3
            while self.text[end : end + 1] == quote:
                end += 1
            self.advance(end - self.at)
            return
        self.advance()
        while self.at < len(self.text) and self.peek() != quote:
            if quote == '"' and self.peek() == "\\":
                self.advance()
            self.advance()
        self.advance()

    def value(self, path: tuple[str, ...]) -> None:
        self.skip_blank(newlines=False)
        char = self.peek()
        if char in "\"'":
            self.string()
        elif char == "[":
            self.advance()
            self.skip_blank(newlines=True)
            while self.peek() not in ("]", ""):
                self.value(path)
                self.skip_blank(newlines=True)
                if self.peek() == ",":
                    self.advance()
                    self.skip_blank(newlines=True)
            self.advance()
        elif char == "{":
            self.advance()
            self.skip_blank(newlines=False)
            while self.peek() not in ("}", ""):
                self.assignment(path)
                self.skip_blank(newlines=False)
                if self.peek() == ",":
                    self.advance()
            self.advance()
        else:
            while self.peek() and self.peek() not in ",]}#\r\n":
                self.advance()

    def assignment(self, table: tuple[str, ...]) -> None:
        keys = self.key()
        # `a.b.c = 1` also makes tables `a` and `a.b`: an error may name either.
        for depth in range(1, len(keys) + 1):
            self.record((*table, *keys[:depth]))
        path = (*table, *keys)
        self.skip_blank(newlines=False)
        if self.peek() != "=":
            raise ValueError("no '='")
        self.advance()
        self.value(path)

    def document(self) -> None:
        table: tuple[str, ...] = ()
        while True:
            self.skip_blank(newlines=True)
            if not self.peek():
                return
            if self.peek() == "[":
                double = self.peek(2) == "[["
                self.advance(2 if double else 1)
                table = self.key()
                for depth in range(1, len(table) + 1):
                    self.record(table[:depth])
                self.advance(2 if double else 1)
            else:
                self.assignment(table)


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Every table and key path of `text` with the 1-based line that first sets it."""
    scanner = _Scanner(text)
    try:
        scanner.document()
    except (ValueError, tomllib.TOMLDecodeError, IndexError):
        pass  # keep what was found before the surprise
    return scanner.found


_AT_LINE = lazy_compile(r"\(at line (\d+), column \d+\)")
_UNQUOTED = lazy_compile(r"^\s*[^=#\s][^=#]*?=\s*(?P<value>[^\s\"'\[{#][^#\n]*?)\s*(?:#.*)?$")
_A_NUMBER_FIRST = lazy_compile(r"[+-]?\d[\d_]*(?:\.\d+)?(?=\s)")
_NOT_TEXT = lazy_compile(r"(?i)[+-]?(?:\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?|inf|nan|true|false)")


def syntax_error(text: str, message: str) -> tuple[int | None, str]:
    """Where a TOML syntax error is (its line) and what to say of it: the key, and a fix.

    Found by a new user: "not valid TOML: Expected newline or end of document after a
    statement (at line 224, column 15)" named no key and no cure for `keep_alive = 5m`.
    """
    found = _AT_LINE.search(message)
    if found is None:
        return None, f"not valid TOML: {message}"
    line = int(found[1])
    said = message[: found.start()].rstrip()
    keys = [".".join(path) for path, at in key_lines(text).items() if at == line]
    head = f"{keys[-1]}: " if keys else ""
    lines = text.splitlines()
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    unquoted = _UNQUOTED.match(raw)
    hint = ""
    if unquoted is not None and not _NOT_TEXT.fullmatch(unquoted["value"].strip()):
        value = unquoted["value"].strip().replace("\\", "\\\\").replace('"', '\\"')
        hint = f'; a text value needs quotes: "{value}"'
        if (number := _A_NUMBER_FIRST.match(value)) is not None:
            hint = f'; a number stands alone ({number[0]}), a text needs quotes ("{value}")'
    return line, f"{head}not valid TOML: {said}{hint}"

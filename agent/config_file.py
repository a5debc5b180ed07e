"""Reading the config with tomllib and writing it back with tomlkit (comments survive)."""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import tomlkit
from pydantic import BaseModel, ValidationError

from agent.config import Config
from agent.errors import ConfigError
from agent.paths import config_path


def _key_line(text: str, path: tuple[str | int, ...]) -> int | None:
    """The 1-based line that sets `path` (a [table] header or a `key =` line), if found."""
    if not path:
        return None
    *tables, key = [str(part) for part in path]
    current: list[str] = []
    best: int | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        header = re.fullmatch(r"\[\s*([^\[\]]+?)\s*\]\s*(#.*)?", stripped)
        if header:
            current = [part.strip().strip('"') for part in header.group(1).split(".")]
            if current == [*tables, key]:
                best = number
            continue
        match = re.match(r'"?([A-Za-z0-9_.\-]+)"?\s*=', stripped)
        if match:
            dotted = current + [p.strip('"') for p in match.group(1).split(".")]
            if dotted == [*tables, key]:
                return number
    return best


def _describe(exc: ValidationError, text: str, path: Path) -> str:
    lines = []
    for error in exc.errors():
        loc = tuple(part for part in error["loc"] if isinstance(part, str | int))
        key = ".".join(str(part) for part in loc) or "(top level)"
        line = _key_line(text, loc)
        where = f"{path}:{line}" if line else str(path)
        message = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        lines.append(f"{where}: {key}: {message}")
    return "invalid config:\n  " + "\n  ".join(lines)


def parse_config(text: str, path: Path) -> Config:
    """Validate config text; errors name the file, line and dotted key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, text, path)) from None


def load_config(path: Path | None = None) -> Config:
    """The config at `path` (default: `config_path()`); defaults when the file is absent."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc}") from None
    return parse_config(text, path)


def set_config_value(dotted_key: str, value: Any, path: Path | None = None) -> Config:
    """Change one setting in the file, keeping the user's comments and layout.

    The result is validated before anything is written, so a bad value never reaches disk.
    """
    path = path or config_path()
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        document = tomlkit.parse(text)
    except tomlkit.exceptions.ParseError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    *tables, key = dotted_key.split(".")
    table: Any = document
    for name in tables:
        if name not in table:
            table[name] = tomlkit.table()
        table = table[name]
    table[key] = value
    new_text = tomlkit.dumps(document)
    config = parse_config(new_text, path)
    _atomic_write(path, new_text)
    return config


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o600
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=".config-", suffix=".toml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


EXAMPLE_HEADER = """\
# memchat configuration: every setting, at its default.
# Copy to ~/.config/memchat/config.toml (or point $MEMCHAT_CONFIG at a file) and edit.
# Unknown keys are rejected, so a typo is reported instead of silently ignored.
"""


def render_example(model: type[BaseModel] = Config, prefix: str = "") -> str:
    """A complete, commented TOML file of every setting at its default."""
    out: list[str] = [EXAMPLE_HEADER] if not prefix else []
    nested: list[tuple[str, type[BaseModel]]] = []
    defaults = model()
    for name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            nested.append((name, annotation))
            continue
        for doc_line in (field.description or "").splitlines():
            out.append(f"# {doc_line}".rstrip())
        value = getattr(defaults, name)
        out.append(tomlkit.dumps({name: value}).rstrip())
        out.append("")
    for name, sub in nested:
        table = f"{prefix}{name}"
        doc = model.model_fields[name].description or sub.__doc__ or ""
        out.append(f"# {doc.strip()}")
        out.append(f"[{table}]")
        out.append(render_example(sub, f"{table}.").rstrip())
        out.append("")
    return "\n".join(out).rstrip() + "\n"

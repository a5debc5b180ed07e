"""Reading the config with tomllib and writing it back with tomlkit (comments survive)."""

from __future__ import annotations

import difflib
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from agent.config import Config
from agent.config_lines import key_lines, syntax_error
from agent.config_migration import Migration, migrate_data, rewrite_text
from agent.errors import ConfigError
from agent.paths import config_path
from agent.setting_docs import field_description
from memory.registry import backend_names


def _key_line(lines: dict[tuple[str, ...], int], path: tuple[str | int, ...]) -> int | None:
    """The 1-based line that sets `path` (a [table] header or a key), if found."""
    return lines.get(tuple(str(part) for part in path)) if path else None


def _setting_path(loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """`loc` cut to the setting it names.

    Pydantic adds the branch of a union it tried (`ollama.think.bool`): no key in the file.
    """
    model: Any = Config
    for depth, part in enumerate(loc):
        fields = getattr(model, "model_fields", None)
        if fields is None or part not in fields:
            return loc[:depth] if fields is None else loc
        annotation = fields[part].annotation
        model = annotation if isinstance(annotation, type) else None
    return loc


_TABLE = "must be a table of settings"


def _table_hint(loc: tuple[str | int, ...]) -> str:
    """The keys a table setting takes and how it is written, for one given a plain value.

    Found by a new user: `retention_days = 7` was refused as "must be a table of
    settings", which did not say what to write instead.
    """
    model: Any = Config
    for part in loc:
        fields = getattr(model, "model_fields", None)
        if fields is None or part not in fields:
            return ""
        annotation = fields[part].annotation
        model = annotation if isinstance(annotation, type) else None
    keys = list(getattr(model, "model_fields", {}))
    if not keys or not loc:
        return ""
    header = ".".join(str(part) for part in loc)
    if len(keys) > 6:
        return f" (a [{header}] table, as config.example.toml shows)"
    return (
        f" (a [{header}] table with keys {', '.join(keys)}, as in [{header}] then {keys[-1]} = …)"
    )


def _tables(model: Any, at: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], list[str]]]:
    """Each settings table under `model` (itself too): its path and its keys."""
    fields = getattr(model, "model_fields", None)
    if not fields:
        return []
    found = [(at, list(fields))]
    for name, info in fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and getattr(annotation, "model_fields", None):
            found += _tables(annotation, (*at, name))
    return found


def _unknown_hint(loc: tuple[str | int, ...]) -> str:
    """Where a key the table does not take belongs, or the one of it that was meant.

    Found by an adversary: `[memory] inject_max_entries = 5` was "unknown key", though the
    key is one of `[agent]`'s.
    """
    if not loc or not isinstance(loc[-1], str):
        return ""
    name, table = loc[-1], tuple(str(part) for part in loc[:-1])
    tables = _tables(Config)
    elsewhere = [at for at, keys in tables if name in keys and at != table and at]
    if elsewhere:
        return f" (it belongs under [{'.'.join(elsewhere[0])}])"
    keys = next((keys for at, keys in tables if at == table), [])
    close = difflib.get_close_matches(name, keys, n=1, cutoff=0.75)
    return f" (did you mean {close[0]}?)" if close else ""


def _message(error: ErrorDetails) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        return "unknown key"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return _TABLE
    return error["msg"].removeprefix("Value error, ")


def _describe(
    exc: ValidationError, text: str, path: Path, moved: dict[tuple[str, ...], tuple[str, ...]]
) -> str:
    """One line per setting, in file order: a union's branches are one problem, not two.

    A setting read from its old place (`moved`: new path → old path) is named and found
    where the file has it.
    """
    problems: dict[tuple[str | int, ...], list[str]] = {}
    for error in exc.errors():
        loc = _setting_path(tuple(part for part in error["loc"] if isinstance(part, str | int)))
        messages = problems.setdefault(loc, [])
        message = _message(error)
        if message == _TABLE:
            message += _table_hint(loc)
        elif error["type"] == "extra_forbidden":
            message += _unknown_hint(loc)
        if message not in messages:
            messages.append(message)
    found = key_lines(text)
    lines = []
    for loc, messages in problems.items():
        key = ".".join(str(part) for part in loc) or "(top level)"
        old = moved.get(tuple(str(part) for part in loc[:2]))
        if old is not None:
            loc = (*old, *loc[2:])
            key = f"{'.'.join(str(part) for part in loc)} (now {key})"
        line = _key_line(found, loc)
        where = f"{path}:{line}" if line else str(path)
        lines.append((line or 0, f"{where}: {key}: {', or '.join(messages)}"))
    return "invalid config:\n  " + "\n  ".join(entry for _, entry in sorted(lines))


MAX_CONFIG_BYTES = 1_048_576
"""A config file is a few kilobytes; anything past a mebibyte is not one."""


def _null_bytes(value: object, where: tuple[str | int, ...] = ()) -> tuple[str | int, ...] | None:
    """The dotted path of the first string holding U+0000, if any.

    No path, name or URL can hold one: the OS refuses it deep inside some later call
    ("embedded null byte"), far from the line that set it.
    """
    if isinstance(value, str):
        return where if "\x00" in value else None
    items: list[tuple[str | int, object]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    for key, item in items:
        here = (*where, key)
        found = here if "\x00" in str(key) else _null_bytes(item, here)
        if found is not None:
            return found
    return None


def _anchor_paths(config: Config, path: Path) -> Config:
    """A relative memory.path is taken from the config file's folder, never the cwd.

    Otherwise `memchat` run from two folders would open two different stores.
    """
    stored = config.memory.path
    if not stored or Path(stored).expanduser().is_absolute():
        return config
    anchored = str(path.absolute().parent / stored)
    memory = config.memory.model_copy(update={"path": anchored})
    return config.model_copy(update={"memory": memory})


def parse_config(text: str, path: Path) -> Config:
    """Validate config text; errors name the file, line and dotted key."""
    return _parse(text, path)[0]


def _conflicts(migration: Migration, text: str, path: Path) -> str:
    found = key_lines(text)
    lines = []
    for old, new in migration.conflicts:
        old_line = _key_line(found, tuple(old.split(".")))
        new_line = _key_line(found, tuple(new.split(".")))
        where = f"{path}:{old_line}" if old_line else str(path)
        lines.append(
            f"{where}: {old}: this setting moved to {new}, which is also set"
            f"{f' (line {new_line})' if new_line else ''}: keep one"
        )
    return "invalid config:\n  " + "\n  ".join(lines)


def _parse(text: str, path: Path) -> tuple[Config, Migration, dict[str, Any]]:
    """The config, what was read from an older layout, and the data as the new layout."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, said = syntax_error(text, str(exc))
        raise ConfigError(f"{path}:{line}: {said}" if line else f"{path}: {said}") from None
    bad = _null_bytes(data)
    if bad is not None:
        line = _key_line(key_lines(text), bad)
        where = f"{path}:{line}" if line else str(path)
        key = ".".join(str(part) for part in bad)
        raise ConfigError(f"{where}: {key}: must not contain a NUL character (\\u0000)")
    migration = migrate_data(data)
    if migration.conflicts:
        raise ConfigError(_conflicts(migration, text, path))
    moved = {tuple(new.split(".")): tuple(old.split(".")) for old, new in migration.moved}
    try:
        # Strict: `auto_save = "no"` or `temperature = "0.7"` is a mistake to point out, not
        # a value to guess at (a quoted "false" would otherwise turn a feature on).
        config = Config.model_validate(data, strict=True)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, text, path, moved)) from None
    backend = config.memory.backend
    if backend not in backend_names():
        line = _key_line(key_lines(text), ("memory", "backend"))
        where = f"{path}:{line}" if line else str(path)
        raise ConfigError(
            f"{where}: memory.backend: unknown backend {backend!r}; valid backends are: "
            + ", ".join(backend_names())
        )
    return _anchor_paths(config, path), migration, data


def _moved_note(migration: Migration, path: Path, done: str) -> str:
    pairs = ", ".join(f"{old} → {new}" for old, new in migration.moved)
    return f"{path}: settings that moved out of [ollama] ({pairs}): {done}"


def _bring_up_to_date(
    text: str, path: Path, migration: Migration, data: dict[str, Any], notes: list[str] | None
) -> str:
    """Rewrite an older file in the new layout; returns the text now in effect.

    Whatever happens, the settings apply: a file that cannot be rewritten (a layout that
    is not safe to edit, a hard link, a read-only folder) is left as it is and a note says
    what to move by hand.
    """
    by_hand = "they apply as they are; move them under [generation] and [model] yourself"
    new_text = rewrite_text(text, migration, data)
    if new_text is None:
        note = _moved_note(migration, path, f"this layout is not rewritten safely, so {by_hand}")
    else:
        backup = path.with_name(f"{path.name}.before-generation")
        try:
            mark = _byte_order_mark(path)
            if not backup.exists():
                _atomic_write(backup, mark + text)
            _atomic_write(path, mark + new_text)
        except (ConfigError, OSError) as exc:
            note = _moved_note(migration, path, f"could not rewrite the file ({exc}); {by_hand}")
        else:
            done = f"the file was rewritten, comments kept (the old one is in {backup})"
            note = _moved_note(migration, path, done)
            text = new_text
    if notes is not None:
        notes.append(note)
    return text


def read_config_text(path: Path) -> str | None:
    """The config file's text; None when there is none.

    Anything but a regular file is refused before a byte is read: a FIFO would wait for
    a writer forever (O_NONBLOCK keeps the open itself from waiting) and /dev/zero never
    ends; the read is bounded all the same.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise ConfigError(
                f"{path}: the config is not a regular file (a folder, device or pipe); "
                "point $MEMCHAT_CONFIG at a TOML file"
            )
        data = os.read(descriptor, MAX_CONFIG_BYTES + 1)
        while len(data) <= MAX_CONFIG_BYTES and (more := os.read(descriptor, 65536)):
            data += more
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc}") from None
    finally:
        os.close(descriptor)
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: the config file is larger than {MAX_CONFIG_BYTES:,} bytes")
    try:
        # A byte-order mark is how some editors (Notepad) save UTF-8: not part of the TOML.
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: cannot read the config file: not UTF-8 text ({exc})") from None


def load_config(path: Path | None = None, *, notes: list[str] | None = None) -> Config:
    """The config at `path` (default: `config_path()`); defaults when the file is absent.

    An older file is rewritten in the current layout (`agent.config_migration`); what
    that did, or why it could not, is added to `notes` for the caller to show.
    """
    path = path or config_path()
    text = read_config_text(path)
    if text is None:
        return Config()
    config, migration, data = _parse(text, path)
    if migration.moved:
        _bring_up_to_date(text, path, migration, data, notes)
    return config


def unused_settings(config: Config) -> list[str]:
    """Settings the file gives that the chosen server does not read, said at the app's start.

    Found by a new user: `[model] name = "llama3.1:8b"` started qwen3:8b, unsaid.
    """
    if config.model.provider == "ollama" and config.model.name:
        return [
            f"model.name ({config.model.name!r}) names the model of an OpenAI-compatible "
            f'server (model.provider = "openai"); with Ollama the model is ollama.model, '
            f"now {config.ollama.model!r}."
        ]
    return []


def _byte_order_mark(path: Path) -> str:
    """The mark the user's editor wrote at the start of the file ("" for none): kept."""
    try:
        with path.open("rb") as stream:
            return "\ufeff" if stream.read(3) == "\ufeff".encode() else ""
    except FileNotFoundError:
        return ""


def _in_files_line_endings(original: str, text: str) -> str:
    """`text` with the original's CRLF line endings on every line, new ones included."""
    if "\r\n" not in original:
        return text
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def set_config_value(dotted_key: str, value: Any, path: Path | None = None) -> Config:
    """Change one setting in the file, keeping the user's comments and layout.

    Line endings (CRLF stays CRLF, on new lines too) and a byte-order mark are kept. The
    result is validated before anything is written, so a bad value never reaches disk.
    """
    # Here, not at the top: reading the config (every command) never needs it.
    import tomlkit

    path = path or config_path()
    text = read_config_text(path) or ""
    if text:
        _, migration, data = _parse(text, path)
        if migration.moved:
            new_text = rewrite_text(text, migration, data)
            # A file in the old layout would otherwise hold the setting twice.
            text = new_text if new_text is not None else text
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
    new_text = _in_files_line_endings(text, tomlkit.dumps(document))
    config = parse_config(new_text, path)
    _atomic_write(path, _byte_order_mark(path) + new_text)
    return config


def _atomic_write(path: Path, text: str) -> None:
    """Replace the config atomically, through a symbolic link, never splitting a hard link.

    A link (dotfiles managers make them) is written through: the temporary file goes beside
    the link's resolved target and replaces the target, keeping its mode. A file with more
    than one hard link is refused: a rename would split it (the other names keep the old
    text without a word) and rewriting it in place could leave half a config after a crash.
    """
    from memory.errors import UnsafeTargetError
    from memory.files import atomic_writer

    target = path.resolve() if path.is_symlink() else path
    try:
        info: os.stat_result | None = target.stat()
    except FileNotFoundError:
        info = None
    if info is not None and info.st_nlink > 1:
        raise ConfigError(
            f"{target} has {info.st_nlink} hard links; memchat does not replace a hard-linked "
            "config (the other names would keep the old text): change it in the file itself"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o600
    try:
        with atomic_writer(target) as stream:
            os.fchmod(stream.fileno(), mode)
            stream.write(text)
    except UnsafeTargetError as exc:
        raise ConfigError(str(exc)) from None
    except OSError as exc:
        # The temporary file's name said nothing of the config (found by an adversary).
        raise ConfigError(
            f"{path}: the setting could not be written ({exc.strerror or exc}); the file is "
            "as it was"
        ) from None


EXAMPLE_HEADER = """\
# memchat configuration: every setting, at its default.
# Copy to ~/.config/memchat/config.toml (or point $MEMCHAT_CONFIG at a file) and edit.
# Unknown keys are rejected, so a typo is reported instead of silently ignored.
# A relative memory.path is taken from this file's folder, not from where memchat runs.
"""


def render_example(model: type[BaseModel] = Config, prefix: str = "") -> str:
    """A complete, commented TOML file of every setting at its default."""
    import tomlkit

    out: list[str] = [EXAMPLE_HEADER] if not prefix else []
    nested: list[tuple[str, type[BaseModel]]] = []
    defaults = model()
    for name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            nested.append((name, annotation))
            continue
        for doc_line in field_description(model, name).splitlines():
            out.append(f"# {doc_line}".rstrip())
        value = getattr(defaults, name)
        out.append(tomlkit.dumps({name: value}).rstrip())
        out.append("")
    for name, sub in nested:
        table = f"{prefix}{name}"
        doc = field_description(model, name) or sub.__doc__ or ""
        out.append(f"# {doc.strip()}")
        out.append(f"[{table}]")
        out.append(render_example(sub, f"{table}.").rstrip())
        out.append("")
    return "\n".join(out).rstrip() + "\n"

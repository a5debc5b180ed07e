"""Older config files: generation settings read from [ollama], the file rewritten once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent.config_file import load_config, set_config_value
from agent.errors import ConfigError

OLD = """\
# my settings
[ollama]
model = "llama3.1:8b"  # the one I like
# a little more creative
temperature = 0.9
seed = 42
num_ctx = 16384
read_timeout_s = 60.0

[agent]
max_tool_iterations = 3
"""


def test_an_old_file_is_read_and_rewritten_with_its_comments(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(OLD)
    notes: list[str] = []
    config = load_config(path, notes=notes)
    assert config.generation.temperature == pytest.approx(0.9)
    assert (config.generation.seed, config.generation.num_ctx) == (42, 16384)
    assert config.model.read_timeout_s == pytest.approx(60.0)
    assert config.ollama.model == "llama3.1:8b" and config.agent.max_tool_iterations == 3
    text = path.read_text()
    assert text.index("[generation]") < text.index("# a little more creative")
    assert text.index("# a little more creative") < text.index("temperature = 0.9")
    assert "temperature" not in text[text.index("[ollama]") : text.index("[agent]")]
    assert "# the one I like" in text and "# my settings" in text
    assert text.index("[model]") < text.index("read_timeout_s = 60.0")
    assert len(notes) == 1 and "generation.temperature" in notes[0] and str(path) in notes[0]
    backup = tmp_path / "config.toml.before-generation"
    assert backup.read_text() == OLD and str(backup) in notes[0]
    # Read again: nothing left to move, nothing said.
    again: list[str] = []
    assert load_config(path, notes=again) == config
    assert again == [] and path.read_text() == text


def test_moved_keys_join_an_existing_section(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[generation]\ntemperature = 0.2\n\n[ollama]\nthink = true\n")
    config = load_config(path, notes=[])
    assert config.generation.think is True and config.generation.temperature == 0.2
    assert path.read_text() == "[generation]\ntemperature = 0.2\nthink = true\n\n[ollama]\n"


def test_a_key_set_in_both_places_names_both_lines(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[generation]\ntemperature = 0.2\n\n[ollama]\ntemperature = 0.9\n")
    with pytest.raises(ConfigError) as raised:
        load_config(path, notes=[])
    message = str(raised.value)
    assert f"{path}:5: ollama.temperature" in message and "generation.temperature" in message
    assert path.read_text().endswith("temperature = 0.9\n")


def test_a_layout_it_cannot_rewrite_safely_still_applies_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    original = 'ollama = { model = "qwen3:8b", temperature = 0.3 }\n'
    path.write_text(original)
    notes: list[str] = []
    config = load_config(path, notes=notes)
    assert config.generation.temperature == pytest.approx(0.3)
    assert path.read_text() == original
    assert len(notes) == 1 and "move" in notes[0] and "[generation]" in notes[0]


def test_a_config_it_may_not_replace_is_read_all_the_same(tmp_path: Path) -> None:
    real = tmp_path / "config.toml"
    real.write_text("[ollama]\nthink = true\n")
    os.link(real, tmp_path / "twin.toml")
    notes: list[str] = []
    assert load_config(real, notes=notes).generation.think is True
    assert real.read_text() == "[ollama]\nthink = true\n"
    assert len(notes) == 1 and "hard links" in notes[0]


def test_setting_a_value_in_an_old_file_moves_the_old_keys_first(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[ollama]\n# thinking\nthink = false\n")
    config = set_config_value("generation.think", True, path)
    assert config.generation.think is True
    text = path.read_text()
    assert text.count("think =") == 1 and "# thinking" in text
    assert load_config(path, notes=[]).generation.think is True


def test_crlf_files_stay_crlf(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"# mine\r\n[ollama]\r\nmodel = 'qwen3:8b'\r\ntemperature = 0.4\r\n")
    assert load_config(path, notes=[]).generation.temperature == pytest.approx(0.4)
    data = path.read_bytes()
    assert b"[generation]\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")


def test_a_byte_order_mark_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes("\ufeff[ollama]\nseed = 3\n".encode())
    assert load_config(path, notes=[]).generation.seed == 3
    data = path.read_bytes()
    assert data.startswith("\ufeff".encode()) and data.count("\ufeff".encode()) == 1
    assert b"[generation]\nseed = 3\n" in data

"""Config files with extreme numbers: a clear error naming the key, or an app that runs.

Every numeric setting gets values at and beyond its bounds (huge, tiny, negative, inf, nan,
integers past SQLite's 64 bits). Loading must give a `Config` or a `ConfigError` that names
the key with its file and line; a `Config` must open the runtime, run a turn and hygiene, and
arm the hygiene timer, without raising.
"""

from __future__ import annotations

import asyncio
import math
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from agent.config import Config
from agent.config_file import load_config
from agent.errors import ConfigError
from agent.maintenance import maintain
from agent.runtime import make_model, open_runtime
from agent.testing import FunctionModel
from tests.helpers.depth import examples


def _numeric_fields(model: type[BaseModel], prefix: tuple[str, ...] = ()) -> list[Any]:
    """(dotted path, int or float, the bounds the model declares) for every number."""
    found: list[Any] = []
    for name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            found += _numeric_fields(annotation, (*prefix, name))
        elif annotation in (int, float):
            bounds = [
                getattr(rule, attr)
                for rule in field.metadata
                for attr in ("ge", "gt", "le", "lt")
                if getattr(rule, attr, None) is not None
            ]
            found.append(((*prefix, name), annotation, tuple(bounds)))
    return found


NUMERIC = _numeric_fields(Config)
EXTREME_INTS = [0, 1, -1, 2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**30, 10**400]
EXTREME_FLOATS = [math.inf, -math.inf, math.nan, 1e308, 5e-324, -0.0, 1e-9, 0.5]


def _toml_number(value: int | float) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value)


@st.composite
def extreme_configs(draw: st.DrawFn) -> dict[tuple[str, ...], int | float]:
    chosen = draw(st.lists(st.sampled_from(NUMERIC), min_size=1, max_size=3, unique=True))
    values: dict[tuple[str, ...], int | float] = {}
    for path, kind, bounds in chosen:
        edges = st.sampled_from([*bounds, *(kind(b) + d for b in bounds for d in (-1, 1))])
        ints = st.one_of(
            st.sampled_from(EXTREME_INTS), st.integers(), st.integers().map(lambda n: -n)
        )
        floats = st.one_of(st.sampled_from(EXTREME_FLOATS), st.floats())
        # The setting's own bounds and just past them, and an int setting may also meet a
        # float, and the other way round.
        usual, other = (ints, floats) if kind is int else (floats, ints)
        values[path] = draw(st.one_of(edges, usual, other) if bounds else st.one_of(usual, other))
    return values


def _render(values: dict[tuple[str, ...], int | float], db: Path) -> str:
    tables: dict[str, list[str]] = {
        "memory": [f"path = {str(db)!r}", 'embedding_provider = "hashing"']
    }
    for (*table, key), value in values.items():
        tables.setdefault(".".join(table), []).append(f"{key} = {_toml_number(value)}")
    return "".join(f"[{name}]\n" + "\n".join(lines) + "\n\n" for name, lines in tables.items())


def _check_error(
    error: ConfigError, values: dict[tuple[str, ...], int | float], path: Path
) -> None:
    named = re.findall(r"^  (.+?):(\d+): ([\w.]+): ", str(error), re.MULTILINE)
    assert named, str(error)
    keys = {".".join(p) for p in values}
    for where, line, key in named:
        assert where == str(path) and int(line) > 0
        # The key itself, or its table when a rule spans several keys (the two weights).
        assert any(k == key or k.startswith(key + ".") for k in keys), (key, str(error))


async def _run(config: Config) -> None:
    runtime = await open_runtime(config, model=FunctionModel(lambda messages, tools: "Noted."))
    try:
        events = [e async for e in runtime.agent.turn("My cat is called Miso", runtime.session)]
        assert events[-1].kind in ("turn_finished", "turn_failed")
        await runtime.agent.drain()
        await maintain(runtime.memory, config.memory)
        # What the app does with the interval: a timer on the event loop, in seconds.
        minutes = config.memory.hygiene_interval_minutes
        if minutes:
            asyncio.get_running_loop().call_later(minutes * 60, lambda: None).cancel()
        make_model(config)  # the real client is built with the configured timeouts
        assert runtime.agent._options().num_ctx <= config.generation.num_ctx
    finally:
        await runtime.memory.close()


@pytest.mark.slow
@given(values=extreme_configs())
@settings(max_examples=examples(40), suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_extreme_numbers_load_cleanly_or_run(
    values: dict[tuple[str, ...], int | float], loop: asyncio.AbstractEventLoop
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_text(_render(values, Path(folder) / "brain.db"), encoding="utf-8")
        try:
            config = load_config(path)
        except ConfigError as error:
            _check_error(error, values, path)
            return
        loop.run_until_complete(_run(config))


@pytest.mark.parametrize(
    ("table", "key", "value"),
    [
        ("memory", "hygiene_interval_minutes", 10**30),
        ("generation", "seed", 2**63),
        ("generation", "max_reply_tokens", 2**64),
        ("generation", "num_ctx", 10**400),
    ],
)
def test_a_value_too_large_is_reported_with_file_line_and_key(
    tmp_path: Path, table: str, key: str, value: int
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"# my settings\n[{table}]\n{key} = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert f"{path}:3: {table}.{key}: Input should be less than or equal to" in str(caught.value)


def test_the_largest_accepted_values_run(loop: asyncio.AbstractEventLoop, tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        f"[memory]\npath = {str(tmp_path / 'brain.db')!r}\nembedding_provider = 'hashing'\n"
        "hygiene_interval_minutes = 525600\n"
        "[memory.retention_days]\nconversation = 1000000\ncore = 999999999999\n"
        "[memory.budgets]\ncore_max_entries = 9223372036854775808\n"
        "[generation]\nseed = 4294967295\nmax_reply_tokens = 1048576\nnum_ctx = 1048576\n"
        "[model]\nread_timeout_s = 1e308\nconnect_timeout_s = 1e308\n",
        encoding="utf-8",
    )
    loop.run_until_complete(_run(load_config(path)))


def _accepted(path: tuple[str, ...], candidates: list[int | float]) -> int | float | None:
    """The first candidate the config accepts for this setting on its own."""
    *table, key = path
    for value in candidates:
        text = f"[{'.'.join(table)}]\n{key} = {_toml_number(value)}\n"
        try:
            load_config_text(text)
        except ConfigError:
            continue
        return value
    return None


def load_config_text(text: str) -> Config:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_text(text, encoding="utf-8")
        return load_config(path)


def _extremes(largest: bool) -> dict[tuple[str, ...], int | float]:
    sign = 1 if largest else -1
    values: dict[tuple[str, ...], int | float] = {}
    for path, kind, bounds in NUMERIC:
        reach: list[int | float] = [sign * 10**400, sign * 2**64, sign * 2**63]
        if kind is float:
            reach = [sign * math.inf, sign * 1e308, *reach]
        # Past every bound first, then each bound, or just inside it when it is exclusive.
        step = 1e-9 if kind is float else 1
        edges = [v for b in sorted(bounds, reverse=largest) for v in (b, b - sign * step)]
        value = _accepted(path, [*reach, *edges])
        if value is not None:
            values[path] = value
    if not largest:
        # The two weights cannot both be 0 (a rule across keys): leave one as it is.
        values.pop(("memory", "keyword_weight"), None)
    return values


@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_every_setting_at_its_most_extreme_accepted_value_runs(
    largest: bool, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    values = _extremes(largest)
    assert len(values) == len(NUMERIC) - (0 if largest else 1)
    loop.run_until_complete(_run(load_config_text(_render(values, tmp_path / "brain.db"))))

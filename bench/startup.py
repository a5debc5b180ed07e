"""Time from `memchat` to its first painted screen, against a minimal Textual app.

    python -m bench.startup [--runs 7]

Each run is a fresh process (imports included) that paints its first screen and exits;
the reference is a three-widget Textual app measured the same way in the same run.
Target: memchat interactive within 1.0 s on this machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def time_runs(kind: str, runs: int, env: dict[str, str]) -> list[float]:
    samples = []
    root = Path(__file__).resolve().parents[1]
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "bench.startup_probe", kind],
            cwd=root,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        samples.append(time.perf_counter() - started)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memchat-startup-") as home:
        env = dict(
            os.environ,
            MEMCHAT_HOME=home,
            MEMCHAT_CONFIG=f"{home}/config.toml",
            OLLAMA_HOST="http://127.0.0.1:9",
        )
        time_runs("memchat", 1, env)  # warm the file cache and create the store
        ours = time_runs("memchat", args.runs, env)
        reference = time_runs("minimal", args.runs, env)
    median, best = statistics.median(ours), min(ours)
    ref = statistics.median(reference)
    verdict = "within" if median <= 1.0 else "OVER"
    print(
        f"memchat first screen: median {median * 1000:.0f} ms, best {best * 1000:.0f} ms "
        f"({verdict} the 1.0 s target) | minimal Textual app: median {ref * 1000:.0f} ms | "
        f"ratio {median / ref:.2f}x over {args.runs} runs"
    )


if __name__ == "__main__":
    main()

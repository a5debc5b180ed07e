"""One query's outcome, and the tables both the store bench and the fusion lab print.

A question's outcome is scored against its evidence turns: recall@k is the share of them
in the first k results (floor off, 10 asked), MRR the reciprocal rank of the first, and
"injected recall@5" the share in what a turn would inject (the product's floor and
recall_limit). An off-topic request's outcome is how many entries it would inject.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

from bench.locomo_modes import HALVES

Kind = Literal["on", "off"]


@dataclass(frozen=True)
class Outcome:
    """What one query got back from one namespace."""

    namespace: str
    half: str
    kind: Kind
    category: int
    entire: bool
    evidence: tuple[str, ...]
    ranked: tuple[str, ...]
    """Dia ids, best first: floor off, 10 asked."""
    injected: tuple[str, ...]
    """Dia ids a turn would inject: the product's floor and recall_limit."""
    text: str = ""

    def recall(self, k: int) -> float:
        """Share of the evidence in the first k ranked."""
        return len(set(self.evidence) & set(self.ranked[:k])) / len(self.evidence)

    def reciprocal_rank(self) -> float:
        """1 / rank of the first evidence turn (0 when none is ranked)."""
        found = set(self.evidence)
        return next((1 / (i + 1) for i, dia in enumerate(self.ranked) if dia in found), 0.0)

    def injected_recall(self) -> float:
        """Share of the evidence among what a turn would inject."""
        return len(set(self.evidence) & set(self.injected)) / len(self.evidence)


@dataclass(frozen=True)
class Figures:
    """Means over a group of questions, and the off-topic requests of the same namespaces."""

    n: int
    r5: float
    r10: float
    mrr: float
    injected_r5: float
    injected_precision: float
    """Share of the entries injected for questions that are evidence."""
    injected_per_question: float
    off_n: int
    off_share: float
    """Share of off-topic requests that inject at least one entry."""
    off_mean: float
    """Mean number of entries an off-topic request injects."""


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else float("nan")


def figures(on: Sequence[Outcome], off: Sequence[Outcome]) -> Figures:
    """Means over questions `on` and off-topic requests `off`."""
    return Figures(
        n=len(on),
        r5=_mean(o.recall(5) for o in on),
        r10=_mean(o.recall(10) for o in on),
        mrr=_mean(o.reciprocal_rank() for o in on),
        injected_r5=_mean(o.injected_recall() for o in on),
        injected_precision=sum(len(set(o.injected) & set(o.evidence)) for o in on)
        / max(1, sum(len(o.injected) for o in on)),
        injected_per_question=_mean(len(o.injected) for o in on),
        off_n=len(off),
        off_share=_mean(1.0 if o.injected else 0.0 for o in off),
        off_mean=_mean(len(o.injected) for o in off),
    )


def scopes(mode: str) -> tuple[str, ...]:
    """Question sets reported for a mode: user mode reports evidence entirely / partly
    in the user's turns."""
    return ("all",) if mode == "both" else ("entire", "partly")


def group(
    outcomes: Sequence[Outcome], half: str, scope: str
) -> tuple[list[Outcome], list[Outcome]]:
    """(questions, off-topic requests) of one half ("all" for both) and question scope."""
    chosen = [o for o in outcomes if half == "all" or o.half == half]
    on = [o for o in chosen if o.kind == "on" and (scope != "entire" or o.entire)]
    return on, [o for o in chosen if o.kind == "off"]


HEADER = (
    f"{'':<22}{'n':>5} {'R@5':>6} {'R@10':>6} {'MRR':>6} | {'injR@5':>6} {'injP':>5} "
    f"{'inj/q':>5} | "
    f"{'off-topic: injects':>18} {'mean':>5}"
)


def line(label: str, f: Figures) -> str:
    """One row of a table."""
    return (
        f"{label:<22}{f.n:>5} {f.r5:>6.3f} {f.r10:>6.3f} {f.mrr:>6.3f} | "
        f"{f.injected_r5:>6.3f} {f.injected_precision:>5.3f} {f.injected_per_question:>5.2f} | "
        f"{f.off_share:>12.3f} (n={f.off_n:<4}) {f.off_mean:>4.2f}"
    )


def table(title: str, mode: str, outcomes: Sequence[Outcome]) -> list[str]:
    """Rows per half (tuning, check, all) and question scope."""
    rows = [title, HEADER]
    for half in (*HALVES, "all"):
        for scope in scopes(mode):
            label = f"  {half:<7} {scope}" if mode == "user" else f"  {half}"
            rows.append(line(label, figures(*group(outcomes, half, scope))))
    return rows


def save(path: Path, results: dict[str, list[Outcome]]) -> None:
    """Write outcomes by run name as JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({k: [asdict(o) for o in v] for k, v in results.items()}))


def load(path: Path) -> dict[str, list[Outcome]]:
    """Read what `save` wrote."""
    raw = json.loads(path.read_text())
    return {
        name: [
            Outcome(
                **{
                    **item,
                    "evidence": tuple(item["evidence"]),
                    "ranked": tuple(item["ranked"]),
                    "injected": tuple(item["injected"]),
                }
            )
            for item in items
        ]
        for name, items in raw.items()
    }


def summary(results: dict[str, list[Outcome]], keyword: str = "keyword") -> list[str]:
    """The baseline table: per embedder, mode and half, keyword-only R@5 beside hybrid
    R@5, injected R@5 and the off-topic inject share. Runs are named "embedder/mode"; user
    mode counts every question asked of a user (evidence at least partly theirs)."""
    rows = [
        f"{'embedder':<12}{'mode':<6}{'half':<8}{'kw R@5':>7}{'R@5':>7}{'R@10':>7}"
        f"{'MRR':>7}{'injR@5':>8}{'injP':>6}{'off inj':>8}{'off mean':>9}"
    ]
    for name, outcomes in results.items():
        embedder, mode = name.split("/")
        baseline = results.get(f"{keyword}/{mode}", [])
        for half in (*HALVES, "all"):
            f = figures(*group(outcomes, half, "partly"))
            kw = figures(*group(baseline, half, "partly")).r5 if baseline else float("nan")
            rows.append(
                f"{embedder:<12}{mode:<6}{half:<8}{kw:>7.3f}{f.r5:>7.3f}{f.r10:>7.3f}"
                f"{f.mrr:>7.3f}{f.injected_r5:>8.3f}{f.injected_precision:>6.3f}{f.off_share:>8.3f}"
                f"{f.off_mean:>9.2f}"
            )
    return rows

"""Repetition policy: medians of several runs, each paired with a baseline run.

The machine this runs on may be shared, and its speed drifts.  So every timed run
of a figure is preceded by a run of the table's baseline query, and the figure's
ratio is the median of the per-pair ratios; the baseline figure itself is the
median of all its runs.  A time budget per figure bounds the number of runs.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Budget:
    """Time limits: ``per_figure`` seconds for one figure's runs, ``deadline`` for the whole run."""

    per_figure: float = 15.0
    deadline: float = 540.0
    started: float = field(default_factory=time.perf_counter)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def late(self) -> bool:
        return self.elapsed() > self.deadline


@dataclass
class Figure:
    runs: list[float]  # seconds, timed runs only
    target_runs: int
    warmup: bool  # an untimed first run was discarded
    base_runs: list[float] = field(default_factory=list)  # the baseline run paired with each run

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def ratio(self) -> float | None:
        if not self.base_runs:
            return None
        return statistics.median(r / b for r, b in zip(self.runs, self.base_runs))


def measure(run: Callable[[], float], target: int, budget: Budget, baseline: Callable[[], float] | None = None) -> Figure:
    """Run ``run`` (which returns its own timed seconds), each run after a ``baseline`` run.

    The first run probes the cost.  When ``target`` more runs fit in the budget the
    probe counts as a warm-up and is discarded; otherwise it is kept and only as
    many further runs are made as fit (3 or 1 in all, odd so the median is a run).
    """
    runs: list[float] = []
    bases: list[float] = []

    def one() -> float:
        if baseline is not None:
            bases.append(baseline())
        runs.append(run())
        return runs[-1]

    first = one()
    per_run = first + (bases[-1] if bases else 0.0)
    if not budget.late() and per_run * (target + 1) <= budget.per_figure:
        del runs[:], bases[:]
        for _ in range(target):
            one()
        return Figure(runs, target, True, bases)
    n = 3 if (not budget.late() and per_run * 3 <= budget.per_figure and target >= 3) else 1
    for _ in range(n - 1):
        one()
    return Figure(runs, target, False, bases)


def timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def pairs(fig: Figure, digits: int = 3) -> str:
    """The per-pair ratios of ``fig`` (each run over the baseline run before it), for a results page."""
    return ", ".join(f"{r / b:.{digits}f}" for r, b in zip(fig.runs, fig.base_runs, strict=False))


def write_page(path: Path, lines: list[str], load_before: tuple[float, ...], load_after: tuple[float, ...]) -> int:
    """Write a results page (``lines`` and the load around its runs), print it; the exit status of a bench module."""
    lines = [*lines, f"Load average before {load_before[0]:.2f}, after {load_after[0]:.2f}; {os.cpu_count()} cores."]
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    print(text)
    return 0

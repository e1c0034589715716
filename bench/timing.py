"""Repetition policy: medians of several runs, bounded by a time budget per figure."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field


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

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def reduced(self) -> bool:
        return len(self.runs) < self.target_runs


def measure(run: Callable[[], float], target: int, budget: Budget) -> Figure:
    """Run ``run`` (which returns its own timed seconds) and keep the median's inputs.

    The first run probes the cost.  When ``target`` more runs fit in the budget the
    probe counts as a warm-up and is discarded; otherwise it is kept and only as
    many further runs are made as fit (3 or 1 in all, odd so the median is a run).
    """
    first = run()
    if not budget.late() and first * (target + 1) <= budget.per_figure:
        return Figure([run() for _ in range(target)], target, warmup=True)
    n = 3 if (not budget.late() and first * 3 <= budget.per_figure and target >= 3) else 1
    return Figure([first] + [run() for _ in range(n - 1)], target, warmup=False)


def timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t

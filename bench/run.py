"""madnb benchmark: one command, one run (``make bench``).

Starts a throwaway PostgreSQL cluster (``madnb._cluster.LocalCluster``, default
settings apart from what the results state), installs madnb, generates the data
in the database (deterministic, hash-based), and measures every figure as the
median of several runs timed from the client, reported as a ratio to the
baseline ``SELECT sum(v) FROM t, unnest(attributes) v`` of the same table in the
same run.  Writes ``bench/results/latest.md`` and ``latest.json`` and prints the
Markdown table.

    python -m bench.run [--only cat200k,num200k] [--budget 15] [--deadline 900]
    python -m bench.run --only dom16k,dom16k_64k --figures private --out /tmp/bench_private   # private training alone
    python -m bench.run --only num200k,wide --figures adhoc --runs 3 --out /tmp/adhoc   # a few figures, quickly
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

import madnb
from madnb._cluster import LocalCluster

from .datagen import DATASETS, SUPPORT_SQL, Dataset, domain_sql
from .export import PARTS, export_run, model_description
from .timing import Budget, Figure, measure, timed

RESULTS = Path(__file__).resolve().parent / "results"
SHOWN_SETTINGS = [
    "server_version", "work_mem", "shared_buffers", "max_parallel_workers_per_gather",
    "max_parallel_workers", "max_worker_processes", "jit", "hash_mem_multiplier",
    "effective_cache_size", "fsync", "synchronous_commit",
]
# (dataset, repetitions wanted); 1m and wide tables get fewer.
PLAN = [("cat200k", 5), ("num200k", 5), ("mixed200k", 5), ("wide", 3), ("cat1m", 3), ("num1m", 3), ("dom16k", 3), ("dom16k_64k", 5)]
SMALL_OF = {"cat1m": "cat200k", "num1m": "num200k"}

TARGETS = {
    ("train", "cat"): 2.0, ("train", "wide"): 2.0, ("train", "mixed"): 2.0, ("train", "num"): 1.5,
    ("classify", None): 4.0, ("probs", None): 5.0, ("e2e_vs_export", None): 0.5, ("1m_vs_200k", None): 5.5,
    ("private_train", None): 3.0,
}
# Tables measured only for private training (a large public domain): the other figure groups are skipped.
PRIVATE_ONLY = {"domain"}

FP, CP, NP = "bench_fp", "bench_cp", "bench_np"
PFP, PCP = "bench_private_fp", "bench_private_cp"
DOMAIN = "bench_domain"
V_CLASSIFY, V_PROBS, V_ADHOC_C, V_ADHOC_P = "bench_classify", "bench_probs", "bench_adhoc_classify", "bench_adhoc_probs"
OUT, PRED = "bench_out", "bench_pred"


def target_for(figure: str, kind: str) -> float | None:
    if figure == "private_train":
        return TARGETS[("private_train", None)]
    if figure == "train":
        return None if kind in PRIVATE_ONLY else TARGETS[("train", kind)]
    if figure in ("classify", "probs"):
        return TARGETS[(figure, None)]
    if figure in ("adhoc_classify", "adhoc_probs"):
        # derived: one training pass plus the scoring
        return TARGETS[("train", kind)] + TARGETS[(figure.split("_")[1], None)]
    return None


class Bench:
    def __init__(self, conn: psycopg.Connection[Any], budget: Budget) -> None:
        self.conn = conn
        self.budget = budget
        self.rows: list[dict[str, Any]] = []
        self.extra: dict[str, Any] = {}
        self.drift: list[dict[str, Any]] = []

    # -- helpers -------------------------------------------------------------
    def ex(self, q: Any, params: Any = None) -> Any:
        return self.conn.execute(q, params)

    def drop(self, *names: str) -> None:
        for n in names:
            what = "VIEW" if n in (V_CLASSIFY, V_PROBS, V_ADHOC_C, V_ADHOC_P) else "TABLE"
            self.ex(sql.SQL("DROP {} IF EXISTS {} CASCADE").format(sql.SQL(what), sql.Identifier(n)))

    def record(self, d: Dataset, figure: str, fig: Figure, base: float | None, note: str = "", **more: Any) -> dict[str, Any]:
        row = {
            "dataset": d.name, "kind": d.kind, "figure": figure, "median_s": fig.median, "runs_s": fig.runs,
            "runs": len(fig.runs), "target_runs": fig.target_runs, "warmup_discarded": fig.warmup,
            "ratio": fig.ratio if fig.ratio is not None else (None if base is None else fig.median / base),
            "baseline_runs_s": fig.base_runs, "target": target_for(figure, d.kind), "note": note,
        }
        row.update(more)
        self.rows.append(row)
        r = "" if row["ratio"] is None else f"{row['ratio']:.2f}x"
        print(f"  {d.name:10s} {figure:22s} {fig.median * 1000:9.1f} ms  {r:>8s}  ({len(fig.runs)} runs)", flush=True)
        return row

    def train_sql(self, d: Dataset) -> tuple[sql.Composable, tuple[Any, ...]]:
        if d.numeric:
            return (sql.SQL("SELECT madnb.create_nb_prepared_data_tables(%s::text, 'class', 'attributes', %s::text, %s::int, %s::text, %s::text, %s::text)"),
                    (d.name, d.numeric_text, d.num_attrs, FP, NP, CP))
        return (sql.SQL("SELECT madnb.create_nb_prepared_data_tables(%s::text, 'class', 'attributes', %s::int, %s::text, %s::text)"),
                (d.name, d.num_attrs, FP, CP))

    def private_train_sql(self, d: Dataset) -> tuple[sql.Composable, tuple[Any, ...]]:
        return (sql.SQL("SELECT madnb.create_nb_prepared_data_tables(%s::text, 'class', 'attributes', %s::int, %s::text, %s::text, "
                        "epsilon => 1, domain => %s)"), (d.name, d.num_attrs, PFP, PCP, DOMAIN))

    def view_sql(self, d: Dataset, kind: str, dest: str) -> tuple[sql.Composable, tuple[Any, ...]]:
        fn = sql.Identifier("madnb", f"create_nb_{kind}_view")
        if d.numeric:
            return (sql.SQL("SELECT {}(%s::text, %s::text, %s::text, 'id', 'attributes', %s::int, %s::text, %s::text)").format(fn),
                    (FP, CP, d.name, d.num_attrs, NP, dest))
        return (sql.SQL("SELECT {}(%s::text, %s::text, %s::text, 'id', 'attributes', %s::int, %s::text)").format(fn),
                (FP, CP, d.name, d.num_attrs, dest))

    def adhoc_sql(self, d: Dataset, kind: str, dest: str) -> tuple[sql.Composable, tuple[Any, ...]]:
        fn = sql.Identifier("madnb", f"create_nb_{kind}_view")
        if d.numeric:
            return (sql.SQL("SELECT {}(%s::text, 'class', 'attributes', %s::text, %s::text, 'id', 'attributes', %s::int, %s::text)").format(fn),
                    (d.name, d.numeric_text, d.name, d.num_attrs, dest))
        return (sql.SQL("SELECT {}(%s::text, 'class', 'attributes', %s::text, 'id', 'attributes', %s::int, %s::text)").format(fn),
                (d.name, d.name, d.num_attrs, dest))

    def materialise(self, view: str) -> float:
        self.drop(OUT)
        q = sql.SQL("CREATE TABLE {} AS SELECT * FROM {}").format(sql.Identifier(OUT), sql.Identifier(view))
        return timed(lambda: self.ex(q))

    def accuracy(self, d: Dataset) -> float:
        r = self.ex(sql.SQL(
            "SELECT avg((o.nb_classification[1] = t.class AND cardinality(o.nb_classification) = 1)::int)::float8 "
            "FROM {} o JOIN {} t ON t.id = o.key").format(sql.Identifier(OUT), sql.Identifier(d.name))).fetchone()
        return float(r[0])

    # -- one dataset ---------------------------------------------------------
    def baseline(self, d: Dataset) -> Figure:
        return measure(self.base_run(d), 5, self.budget)

    def base_run(self, d: Dataset) -> Callable[[], float]:
        q = sql.SQL("SELECT sum(v) FROM {}, unnest(attributes) AS v").format(sql.Identifier(d.name))
        return lambda: timed(lambda: self.ex(q))

    def m(self, d: Dataset, run: Callable[[], float], reps: int) -> Figure:
        """A figure: runs of ``run``, each paired with a baseline run of ``d``."""
        return measure(run, reps, self.budget, self.base_run(d))

    def section(self, d: Dataset, reps: int, groups: set[str]) -> None:
        """Measure ``groups`` (train, score, adhoc, export) of one table."""
        if self.extra.get("prewarm"):
            self.ex("SELECT pg_prewarm(%s::regclass)", (d.name,))
        self.ex(sql.SQL("SELECT sum(v) FROM {}, unnest(attributes) AS v").format(sql.Identifier(d.name)))  # read once
        first = self.baseline(d)
        base = first.median
        self.record(d, "baseline", first, base)
        is_1m = d.name in SMALL_OF

        # training (outputs dropped between runs, not timed); always done: the views need the model
        tq, tp = self.train_sql(d)

        def train() -> float:
            self.drop(FP, CP, NP)
            if is_1m:
                self.ex("SET work_mem = '4MB'")
            try:
                return timed(lambda: self.ex(tq, tp))
            finally:
                if is_1m:
                    self.ex("RESET work_mem")

        if d.kind in PRIVATE_ONLY:
            groups = groups & {"train", "private"}
        if "train" in groups or "score" in groups or "export" in groups:
            fig = self.m(d, train, reps) if "train" in groups else Figure([train()], 1, False)
            if "train" in groups:
                self.record(d, "train", fig, base, "SET work_mem = '4MB'" if is_1m else "")

        if "private" in groups and d.kind in PRIVATE_ONLY:
            # private training with a public domain, each run paired with an exact training of the same table:
            # the ratio is private / exact
            self.drop(DOMAIN)
            self.ex(domain_sql(d, DOMAIN))
            self.ex(sql.SQL("ANALYZE {}").format(sql.Identifier(DOMAIN)))
            cells = self.ex(sql.SQL("SELECT count(*) FILTER (WHERE attr = 0) * count(*) FILTER (WHERE attr > 0) FROM {}").format(
                sql.Identifier(DOMAIN))).fetchone()[0]
            pq, pp = self.private_train_sql(d)

            def private() -> float:
                self.drop(PFP, PCP)
                return timed(lambda: self.ex(pq, pp))

            fig = measure(private, reps, self.budget, train)
            self.record(d, "private_train", fig, base, f"epsilon 1, public domain of {cells:,} (class, value) cells",
                        ratio_to="exact training")
            self.drop(PFP, PCP, DOMAIN)

        madnb_pred: dict[int, int] = {}
        if "score" in groups or "export" in groups:
            # classify / probs over the prepared tables
            self.drop(V_CLASSIFY, V_PROBS)
            self.ex(*self.view_sql(d, "classify", V_CLASSIFY))
            fig = self.m(d, lambda: self.materialise(V_CLASSIFY), reps) if "score" in groups else Figure([self.materialise(V_CLASSIFY)], 1, False)
            acc = self.accuracy(d)
            if "score" in groups:
                self.record(d, "classify", fig, base, accuracy=acc)
            madnb_pred = {int(k): int(c[0]) for k, c in self.ex(
                sql.SQL("SELECT key, nb_classification FROM {}").format(sql.Identifier(OUT))).fetchall() if c}
        if "score" in groups and (is_1m or d.name in SMALL_OF.values()):
            # the same with jit off, for the 1m / 200k ratio: past jit_above_cost (the 1m tables, not the 200k ones)
            # PostgreSQL compiles the view's whole plan, its model-reading nodes too, in every process
            def classify_without_jit() -> float:
                self.ex("SET jit = off")
                try:
                    return self.materialise(V_CLASSIFY)
                finally:
                    self.ex("RESET jit")

            self.record(d, "classify_nojit", self.m(d, classify_without_jit, reps), base, "jit = off")
        if "score" in groups and not is_1m:
            self.ex(*self.view_sql(d, "probs", V_PROBS))
            self.record(d, "probs", self.m(d, lambda: self.materialise(V_PROBS), reps), base)
        if "adhoc" in groups and not is_1m:
            # ad hoc views: creation runs a validation pass; materialisation trains and scores
            for kind, view in (("classify", V_ADHOC_C), ("probs", V_ADHOC_P)):
                def create(kind: str = kind, view: str = view) -> float:
                    self.drop(view)
                    return timed(lambda: self.ex(*self.adhoc_sql(d, kind, view)))
                self.record(d, f"adhoc_{kind}_create", self.m(d, create, reps), base, "view creation (validation pass)")
                self.record(d, f"adhoc_{kind}", self.m(d, lambda view=view: self.materialise(view), reps), base)
            self.drop(V_ADHOC_C, V_ADHOC_P)
        self.drop(OUT, V_CLASSIFY, V_PROBS)

        if "export" in groups:
            last: dict[str, Any] = {}
            parts: dict[str, list[float]] = {p: [] for p in PARTS}

            def export() -> float:
                self.drop(PRED)
                r = export_run(self.conn, d, PRED)
                for p in PARTS:
                    parts[p].append(r.parts[p])
                last["run"] = r
                return r.total

            fig = self.m(d, export, reps)
            n = len(fig.runs)  # the parts of the timed runs only
            part_medians = {p: statistics.median(v[-n:]) for p, v in parts.items()}
            r = last["run"]
            agree = sum(1 for i, p in zip(r.ids.tolist(), r.predictions.tolist()) if madnb_pred.get(i) == p) / len(r.ids)
            self.record(d, "export", fig, base, model_description(d), parts=part_medians,
                        accuracy=float((r.predictions == r.labels).mean()), agreement_with_madnb=agree)
        self.drop(PRED, FP, CP, NP)

        # the baseline again: how much the machine drifted during this table's figures
        again = self.baseline(d)
        self.drift.append({"dataset": d.name, "before_ms": base * 1000, "after_ms": again.median * 1000,
                           "after_over_before": again.median / base})
        print(f"  {d.name:10s} baseline again: {again.median * 1000:.1f} ms ({again.median / base:.2f} of the first)", flush=True)


def settings(conn: psycopg.Connection[Any]) -> dict[str, str]:
    out = {s: str(conn.execute(sql.SQL("SHOW {}").format(sql.Identifier(s))).fetchone()[0]) for s in SHOWN_SETTINGS}  # type: ignore[index]
    out["version()"] = str(conn.execute("SELECT version()").fetchone()[0])  # type: ignore[index]
    return out


def machine() -> dict[str, Any]:
    try:
        nproc = subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        nproc = str(os.cpu_count())
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")).split()[1])
        mem = f"{kb / 1024 / 1024:.1f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    return {"nproc": nproc, "cpu": cpu, "memory": mem, "os": platform.platform(), "python": platform.python_version()}


def derived(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """End to end (train + classify) vs export, and 1m vs 200k."""
    by = {(r["dataset"], r["figure"]): r for r in rows}
    out = []
    for name in DATASETS:
        tr, cl, exp = by.get((name, "train")), by.get((name, "classify")), by.get((name, "export"))
        if tr and cl and exp:
            e2e = tr["median_s"] + cl["median_s"]
            out.append({"dataset": name, "figure": "e2e_vs_export", "value": e2e / exp["median_s"], "target": TARGETS[("e2e_vs_export", None)],
                        "detail": f"train + classify {e2e * 1000:.0f} ms vs export {exp['median_s'] * 1000:.0f} ms"})
    for big, small in SMALL_OF.items():
        for fig in ("train", "classify", "classify_nojit", "baseline"):
            b, s = by.get((big, fig)), by.get((small, fig))
            if b and s:
                out.append({"dataset": big, "figure": f"1m_vs_200k_{fig}", "value": b["median_s"] / s["median_s"],
                            "target": None if fig in ("baseline", "classify_nojit") else TARGETS[("1m_vs_200k", None)],
                            "detail": f"{b['median_s'] * 1000:.0f} ms / {s['median_s'] * 1000:.0f} ms"})
    return out


def _fmt_ratio(x: float | None) -> str:
    return "" if x is None else f"{x:.2f}×"


def _ok(value: float | None, target: float | None) -> str:
    if value is None or target is None:
        return ""
    return "yes" if value <= target else "**no**"


FIGURE_LABEL = {
    "baseline": "baseline `sum(v)` over `unnest(attributes)`",
    "train": "training `create_nb_prepared_data_tables`",
    "classify": "classify view materialisation (prepared tables)",
    "classify_nojit": "classify view materialisation (prepared tables), jit = off (for reference)",
    "probs": "probs view materialisation (prepared tables)",
    "adhoc_classify_create": "ad hoc classify view creation",
    "adhoc_classify": "ad hoc classify view materialisation",
    "adhoc_probs_create": "ad hoc probs view creation",
    "adhoc_probs": "ad hoc probs view materialisation",
    "export": "export path: fetch + scikit-learn fit/predict + COPY back",
    "private_train": "private training (ε = 1, public domain) **× exact training**, not × baseline",
    "model_train": "named model: `madnb.train` from the column table (bench/models.py)",
    "model_predict": "named model: batch `<model>_predict(t)` materialised",
    "model_evaluate": "named model: `madnb.evaluate` **× one batch `<model>_predict_proba_array(t)` pass**, not × baseline",
    "model_one_row": "named model: one row by primary key of 1,000,000, median of 1,000 queries (≤ 2 ms)",
    "col_train": "column table: `madnb.train` **× the same statistics in plain SQL** (GROUPING SETS + GROUP BY class)",
    "col_proba": "column table: batch `<model>_predict_proba_array(t)` materialised × unnest scan of the same values (float8[])",
    "col_proba_text_scan": "column table: the same **× unnest scan of the text table's 15 values as text[]**",
    "col_predict": "column table: batch `<model>_predict(t)` materialised × unnest scan",
    "col_evaluate": "column table: `madnb.evaluate` **× one batch proba pass**",
    "col_cross_validate": "column table: `madnb.cross_validate` (5 folds) **× train + predict once**",
    "col_cv_floor": "column table: the floor of cross-validation (plain-SQL statistics by fold + predict with each row's fold) "
                    "**× train + predict once**",
    "col_cv_key": "column table: `madnb.cross_validate` (5 folds) with `key => 'id'` **× train + predict once** (for reference)",
    "col_private_train": "column table: private `madnb.train` (ε = 1, public bounds, domain) **× exact `madnb.train`**",
    "col_vs_export": "column table: train + predict **× the export path** (fetch, encode, fit, predict, COPY back)",
    "col_floor_vs_export": "column table: the floor of train + predict (plain-SQL statistics + predict's dictionary lookups alone) "
                           "**× the export path**",
}


def markdown(meta: dict[str, Any], rows: list[dict[str, Any]], der: list[dict[str, Any]], drift: list[dict[str, Any]]) -> str:
    s = meta["settings"]
    m = meta["machine"]
    L = [
        "# madnb benchmark",
        "",
        f"Command: `make bench` (runs `python -m bench.run`). Date: {meta['date']}. Whole run: {meta['elapsed_s']:.0f} s.",
        "",
        f"Machine: {m['nproc']} cores (`nproc`), {m['cpu']}, {m['memory']} RAM; {m['os']}.",
        f"PostgreSQL: {s['version()']}.",
        "Settings (`SHOW`): " + ", ".join(f"{k} = {s[k]}" for k in SHOWN_SETTINGS if k != "server_version") + ".",
        "The cluster is a throwaway `LocalCluster(fast=True)`: PostgreSQL defaults except shared_buffers = 256MB, "
        "fsync/synchronous_commit/full_page_writes off; nothing else is changed."
        + (" Tables are loaded with pg_prewarm and read once before timing." if meta.get("prewarm") else " Tables are read once before timing."),
        "",
        "Every figure is the median of its runs, timed from the client with `time.perf_counter()` around the statement. "
        "Its ratio (× baseline) is measured against the baseline `SELECT sum(v) FROM t, unnest(attributes) v` of the same table "
        "in the same run: each timed run of a figure directly follows one run of the baseline, and the ratio is the median of "
        "the per-pair ratios (the machine may be shared and its speed drifts; pairing keeps the ratios honest). "
        "Runs: 5 wanted for 200k tables, 3 for 1m and wide; a figure whose first run shows that its runs would not fit in "
        f"{meta['budget_s']:.0f} s gets 3 or 1 runs instead (column *runs*, marked ↓); a figure that gets all its runs had one "
        "extra untimed warm-up run. Training outputs and materialised tables are dropped between runs (not timed). "
        "The 1m training runs are under `SET work_mem = '4MB'`; probs and ad hoc views are measured on the 200k and wide tables only.",
        "",
        "Data (generated in the database from `hashint8extended`, no `random()`): " + "; ".join(
            f"{d['name']} {d['rows']:,} rows × {d['num_attrs']} {d['desc']}" for d in meta["datasets"]) +
        f". Generation took {meta['datagen_s']:.0f} s.",
        "",
        "| table | figure | median | runs | × baseline | target | meets |",
        "|---|---|---:|---:|---:|---:|:--:|",
    ]
    for r in rows:
        runs = f"{r['runs']}" + (" ↓" if r["runs"] < r["target_runs"] else "")
        label = FIGURE_LABEL.get(r["figure"], r["figure"])
        if r.get("note") and r["figure"] == "train" and "work_mem" in r["note"]:
            label += f" ({r['note']})"
        tgt = r["target"]
        tgt_s = "" if tgt is None else (f"≤ {tgt:.1f}×" + (" (train + score)" if r["figure"].startswith("adhoc_") and not r["figure"].endswith("_create") else ""))
        if r["figure"].endswith("_create"):
            tgt_s = ""
        ratio = r["ratio"] if r["figure"] != "baseline" else 1.0
        ms = r["median_s"] * 1000
        median = f"{ms:.0f} ms" if ms >= 10 else f"{ms:.2f} ms"
        if r["figure"] == "model_one_row":  # an absolute target: milliseconds per query, not a ratio
            met = "yes" if ms <= 2.0 else "**no**"
            L.append(f"| {r['dataset']} | {label} | {median} | {runs} |  | ≤ 2 ms | {met} |")
            continue
        L.append(f"| {r['dataset']} | {label} | {median} | {runs} | {_fmt_ratio(ratio)} | {tgt_s} | {_ok(ratio, None if not tgt_s else tgt)} |")
    L += ["", "## Derived ratios", "", "| table | ratio | value | target | meets | from |", "|---|---|---:|---:|:--:|---|"]
    names = {"e2e_vs_export": "end to end (train + classify) / export path",
             "1m_vs_200k_train": "training 1m / 200k", "1m_vs_200k_classify": "classify 1m / 200k",
             "1m_vs_200k_classify_nojit": "classify 1m / 200k, both with jit = off (for reference)",
             "1m_vs_200k_baseline": "baseline 1m / 200k (for reference)"}
    for r in der:
        t = r["target"]
        L.append(f"| {r['dataset']} | {names[r['figure']]} | {r['value']:.2f}× | {'' if t is None else f'≤ {t:.1f}×'} | {_ok(r['value'], t)} | {r['detail']} |")
    L += ["", "## Export path parts and accuracy", "",
          "| table | model | fetch | fit | predict | COPY back | total | sklearn accuracy | madnb accuracy | same prediction |",
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    by = {(r["dataset"], r["figure"]): r for r in rows}
    for r in rows:
        if r["figure"] != "export":
            continue
        p = r["parts"]
        cl = by.get((r["dataset"], "classify"))
        L.append(
            f"| {r['dataset']} | {r['note']} | " + " | ".join(f"{p[k] * 1000:.0f} ms" for k in PARTS)
            + f" | {r['median_s'] * 1000:.0f} ms | {r['accuracy']:.4f} | {'' if not cl else format(cl['accuracy'], '.4f')} | {r['agreement_with_madnb']:.4f} |"
        )
    L += ["", "madnb accuracy: share of rows whose `nb_classification` is exactly the true class (training rows classified). "
          "*same prediction*: share of rows where madnb's and scikit-learn's predicted class agree.", ""]
    if drift:
        L += ["## Machine drift", "",
              "The baseline is measured again after each table's figures; a ratio far from 1 means the machine's speed "
              "changed during the run and that table's ratios are less reliable.", "",
              "| table | baseline first | baseline after | after / first |", "|---|---:|---:|---:|"]
        L += [f"| {x['dataset']} | {x['before_ms']:.0f} ms | {x['after_ms']:.0f} ms | {x['after_over_before']:.2f} |" for x in drift]
        L.append("")
    return "\n".join(L)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated datasets, and 'shards' for bench/sharding.py (default: all)")
    ap.add_argument("--budget", type=float, default=20.0, help="seconds of runs per figure (default 20)")
    ap.add_argument("--deadline", type=float, default=900.0, help="after this many seconds every figure gets one run")
    ap.add_argument("--out", type=Path, default=RESULTS, help="results directory")
    ap.add_argument("--runs", type=int, help="runs wanted per figure on every table (default: 5 for 200k tables, 3 for 1m and wide)")
    ap.add_argument("--figures", default="train,score,adhoc,export,private,update,models,columns,shards",
                    help="figure groups: train, score, adhoc, export, private, update (bench/update.py), models (bench/models.py), "
                    "columns (bench/column_table.py), shards (bench/sharding.py)")
    args = ap.parse_args(argv)
    budget = Budget(per_figure=args.budget, deadline=args.deadline)
    plan = [(n, args.runs or r) for n, r in PLAN if not args.only or n in args.only.split(",")]

    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        meta: dict[str, Any] = {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "machine": machine(),
                                "settings": settings(conn), "budget_s": args.budget, "command": "make bench",
                                "madnb_version": madnb.__version__}
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
            meta["prewarm"] = True
        except psycopg.Error:
            meta["prewarm"] = False
        print(f"madnb bench: PostgreSQL {meta['settings']['server_version']}, {meta['machine']['nproc']} cores", flush=True)
        t0 = time.perf_counter()
        conn.execute(SUPPORT_SQL)
        for name, _ in plan:
            d = DATASETS[name]
            conn.execute(d.create_sql())
            conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(name)))
        meta["datagen_s"] = time.perf_counter() - t0
        print(f"  data generated in {meta['datagen_s']:.1f} s", flush=True)
        b = Bench(conn, budget)
        b.extra["prewarm"] = meta["prewarm"]
        for name, reps in plan:
            b.section(DATASETS[name], reps, set(args.figures.split(",")))
        if "update" in args.figures.split(","):
            from .update import run as run_update  # its own tables and results file (bench/results/update.md)

            run_update(conn, budget, args.out, ["cat", "mixed"], "make bench")
        if "models" in args.figures.split(","):  # named models: madnb.train and the generated prediction functions
            from . import models as bench_models

            b.rows += bench_models.run(conn, [DATASETS[n] for n, _ in plan], budget)
        if "columns" in args.figures.split(",") and (not args.only or "mixed200k" in args.only.split(",")):
            from . import column_table  # issue 19's column table: every column-face figure against its floor

            b.rows += column_table.run(conn, budget)
        if "shards" in args.figures.split(",") and (not args.only or "shards" in args.only.split(",")):
            from .sharding import section as run_sharding  # its own clusters, tables and results file (bench/results/sharding.md)

            run_sharding(conn, budget, args.out)
        meta["elapsed_s"] = budget.elapsed()

    desc = {"cat": "categorical int (0..9), 3 classes", "num": "float8 Gaussian, 3 classes",
            "mixed": "float8: 10 categorical codes + 5 Gaussian, 3 classes", "wide": "binary int (0/1), 3 classes",
            "domain": "categorical int, attribute 1 over 16,000 values, the others 0..9, 3 classes"}
    meta["datasets"] = [{"name": n, "rows": DATASETS[n].rows, "num_attrs": DATASETS[n].num_attrs, "desc": desc[DATASETS[n].kind]} for n, _ in plan]
    der = derived(b.rows)
    md = markdown(meta, b.rows, der, b.drift)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "latest.md").write_text(md + "\n", encoding="utf-8")
    (args.out / "latest.json").write_text(json.dumps({"meta": meta, "figures": b.rows, "derived": der, "baseline_drift": b.drift}, indent=2) + "\n", encoding="utf-8")
    print()
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())

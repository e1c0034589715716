"""Scale (issue 19): time and backend memory at 1,000,000 and 10,000,000 rows (``make bench-scale``).

Two tables, each at both sizes, generated in the database by :mod:`bench.datagen`
(``hashint8extended``, deterministic; ``CREATE UNLOGGED TABLE ... AS``, the two
tables side by side on two connections):

* ``cat``: as cat1m, 20 categorical int attributes 0 .. 9, 3 classes;
* ``mixed``: as mixed200k, 10 categorical + 5 Gaussian attributes, 3 classes;

each as the attribute array the MADlib face takes (``cat_10m``: id, class,
attributes) and as ordinary columns for the named-model face (``cat_10m_cols``:
a1 .. a20 int, as :func:`bench.models.columns_sql`; ``mixed_10m_cols``: c1 .. c10
text, f1 .. f5 float8, as :func:`bench.evaluate.text_table_sql`).  Paths, each
statement on a fresh connection (so a fresh backend: VmHWM cannot be reset):

================  ===============================================================
baseline          ``SELECT sum(v) FROM <arrays>, unnest(attributes) v`` (for reference)
madlib_train      ``madnb.create_nb_prepared_data_tables(...)`` on the arrays
madlib_classify   ``CREATE TABLE AS SELECT * FROM <classify view over the prepared tables>``
named_train       ``madnb.train(...)`` on the column table
named_predict     ``CREATE TABLE AS SELECT t.id, madnb_models.<m>_predict(t) FROM <columns> t``
export            the export path in a subprocess: fetch (binary), encode, scikit-learn
                  fit + predict, COPY (id, prediction) back; :func:`bench.export.export_run`
                  on the cat arrays, :func:`bench.column_table.export_run` on the mixed columns
================  ===============================================================

Time: from the client around the statement; the median of ``--runs`` runs at the
small size, one run at the large size.  Target: large / small <= 10.5x at 10x the
rows (linear), printed beside the baseline scan's own ratio.

Memory of the backend that ran the statement (the bench runs as root, the server as
the postgres user on the same machine): ``VmHWM`` and ``VmRSS`` from
``/proc/<pg_backend_pid()>/status`` after the statement, and its private memory
(``RssAnon``) sampled every 20 ms during it, since VmHWM and VmRSS also count the
pages of shared_buffers the backend touched.  PostgreSQL's parallel workers are
other processes: they are found while the statement runs (children of the
postmaster titled ``parallel worker for PID <backend>``) and their ``VmHWM`` and
``RssAnon`` sampled the same way (a worker's growth in its last 20 ms can be
missed).  Not measured: the postmaster, background processes, the page cache.
Target: flat (the large size's private peak at most 1.5x the small size's).  JIT's
inlining and optimization, which the default thresholds turn on for the 10M plans and
not the 1M ones, take memory once per process: so each statement is also run once at
the small size with them on (:data:`FULL_JIT`), and flatness is judged against that run.
Client memory of the export path: ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` of
its subprocess (and the same after its imports, before any row).

    python -m bench.scale [--rows-small 1000000] [--rows-large 10000000] [--runs 3] [--out bench/results]

Results: ``scale.md`` and ``scale.json`` in ``--out``.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from .datagen import DATASETS, SUPPORT_SQL, Dataset

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = Path(__file__).resolve().parent.parent
KINDS = {"cat": DATASETS["cat1m"], "mixed": DATASETS["mixed200k"]}
TARGET_RATIO = 10.5  # large / small at 10x the rows (scaled with --rows-large / --rows-small)
TARGET_MEMORY = 1.5  # large / small private peak
SAMPLE_S = 0.02
PATHS = ("baseline", "madlib_train", "madlib_classify", "named_train", "named_predict", "export")
STATEMENT = {
    "baseline": "`SELECT sum(v) FROM t, unnest(attributes) v` (arrays)",
    "madlib_train": "`madnb.create_nb_prepared_data_tables(...)` (arrays)",
    "madlib_classify": "`CREATE TABLE AS SELECT * FROM <classify view>` (prepared tables)",
    "named_train": "`madnb.train(...)` (columns)",
    "named_predict": "`CREATE TABLE AS SELECT t.id, <m>_predict(t)` (columns)",
    "export": "fetch, encode, scikit-learn fit + predict, COPY back (subprocess)",
}
CLASSIFY_VIEW, OUT, EXPORT_OUT = "bench_scale_classify", "bench_scale_out", "bench_scale_export"


def label(rows: int) -> str:
    for unit, n in (("m", 1_000_000), ("k", 1_000)):
        if rows >= n and rows % n == 0:
            return f"{rows // n}{unit}"
    return str(rows)


def dataset(kind: str, rows: int) -> Dataset:
    """The array table of ``kind`` at ``rows`` rows (its column table is ``<name>_cols``)."""
    return dataclasses.replace(KINDS[kind], name=f"{kind}_{label(rows)}", rows=rows)


def columns_name(d: Dataset) -> str:
    return f"{d.name}_cols"


def _unlogged(create: str) -> str:
    assert create.startswith("CREATE TABLE "), create
    return "CREATE UNLOGGED TABLE " + create[len("CREATE TABLE "):]


def generate(url: str, kind: str, sizes: list[int]) -> float:
    """The array and column tables of ``kind`` at every size, on a connection of its own; seconds."""
    from .evaluate import text_table_sql
    from .models import columns_sql

    t0 = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        for rows in sizes:
            d = dataset(kind, rows)
            conn.execute(_unlogged(d.create_sql()))
            cols = columns_sql(d, columns_name(d)) if kind == "cat" else text_table_sql(columns_name(d), d)
            conn.execute(_unlogged(cols))
            conn.execute(sql.SQL("VACUUM ANALYZE {}, {}").format(sql.Identifier(d.name), sql.Identifier(columns_name(d))))
    return time.perf_counter() - t0


# -- memory ------------------------------------------------------------------------

def status(pid: int) -> dict[str, int]:
    """The kB fields of /proc/<pid>/status (VmHWM, VmRSS, RssAnon, RssShmem, ...); {} once the process is gone."""
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                parts = value.split()
                if len(parts) == 2 and parts[1] == "kB":
                    out[key] = int(parts[0])
                elif key == "PPid":
                    out[key] = int(parts[0])
    except (OSError, ValueError):
        return {}
    return out


class Sampler:
    """Samples a backend's RssAnon and its parallel workers' VmHWM and RssAnon every SAMPLE_S seconds."""

    def __init__(self, backend: int) -> None:
        self.backend = backend
        self.postmaster = status(backend).get("PPid", 0)
        self.title = f"parallel worker for PID {backend} "
        self.anon_peak = 0
        self.workers: dict[int, dict[str, int]] = {}
        self._other: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _children(self) -> list[int]:
        try:
            with open(f"/proc/{self.postmaster}/task/{self.postmaster}/children", encoding="ascii") as f:
                return [int(p) for p in f.read().split()]
        except OSError:
            return []

    def _sample(self) -> None:
        self.anon_peak = max(self.anon_peak, status(self.backend).get("RssAnon", 0))
        for pid in self._children():
            if pid in self._other:
                continue
            if pid not in self.workers:
                try:
                    title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                except OSError:
                    continue
                if self.title not in title + " ":
                    self._other.add(pid)
                    continue
                self.workers[pid] = {"VmHWM": 0, "RssAnon": 0}
            st = status(pid)
            w = self.workers[pid]
            w["VmHWM"] = max(w["VmHWM"], st.get("VmHWM", 0))
            w["RssAnon"] = max(w["RssAnon"], st.get("RssAnon", 0))

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(SAMPLE_S)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


# What the planner's cost at 10M rows turns on by default (jit_inline_above_cost and jit_optimize_above_cost are
# 500,000; the 1M statements' costs are below, the 10M ones' above): LLVM's inlining and optimization take memory of
# their own, once per process, so the small size is measured once more with them, for a like-for-like memory ratio.
FULL_JIT = ("SET jit_inline_above_cost = 0", "SET jit_optimize_above_cost = 0")


def on_fresh_backend(url: str, statement: Any, params: tuple[Any, ...] | None = None, setup: tuple[str, ...] = ()) -> dict[str, Any]:
    """Run ``statement`` on a new connection (after ``setup``): its time, and the memory of its backend and parallel workers (kB)."""
    with psycopg.connect(url, autocommit=True) as conn:
        for q in setup:
            conn.execute(q)
        pid = conn.execute("SELECT pg_catalog.pg_backend_pid()").fetchone()[0]  # type: ignore[index]
        before = status(pid)
        with Sampler(pid) as s:
            t0 = time.perf_counter()
            conn.execute(statement, params)
            seconds = time.perf_counter() - t0
        after = status(pid)
    w = list(s.workers.values())
    return {
        "s": seconds,
        "backend": {"VmHWM_before": before.get("VmHWM", 0), "VmHWM": after.get("VmHWM", 0), "VmRSS": after.get("VmRSS", 0),
                    "RssShmem": after.get("RssShmem", 0), "RssAnon_peak": max(s.anon_peak, after.get("RssAnon", 0))},
        "workers": {"seen": len(w), "VmHWM_max": max((x["VmHWM"] for x in w), default=0),
                    "RssAnon_peak_max": max((x["RssAnon"] for x in w), default=0),
                    "RssAnon_peak_sum": sum(x["RssAnon"] for x in w)},
    }


# -- the export path, in a subprocess ----------------------------------------------

def export_child(spec: dict[str, Any]) -> dict[str, Any]:
    """The export path of one table in this process (``python -m bench.scale --export-child JSON``)."""
    import resource

    import numpy  # noqa: F401  (imported before any row, so that the first figure is the imports alone)
    import sklearn.naive_bayes  # noqa: F401

    from . import column_table
    from .export import export_run

    imports_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    d = dataset(spec["kind"], spec["rows"])
    with psycopg.connect(spec["url"], autocommit=True) as conn:
        pid = conn.execute("SELECT pg_catalog.pg_backend_pid()").fetchone()[0]  # type: ignore[index]
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(EXPORT_OUT)))
        parts: dict[str, float] | None = None
        if spec["kind"] == "cat":
            r = export_run(conn, d, EXPORT_OUT)
            seconds, parts = r.total, r.parts
        else:
            seconds = column_table.export_run(conn, columns_name(d), EXPORT_OUT)
        backend = status(pid)
    return {"s": seconds, "parts": parts, "client": {"maxrss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                                                     "maxrss_after_imports": imports_kb},
            "backend": {"VmHWM": backend.get("VmHWM", 0), "VmRSS": backend.get("VmRSS", 0)}}


def run_export(url: str, kind: str, rows: int) -> dict[str, Any]:
    spec = json.dumps({"url": url, "kind": kind, "rows": rows})
    res = subprocess.run([sys.executable, "-m", "bench.scale", "--export-child", spec], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise RuntimeError(f"the export subprocess failed ({res.returncode}):\n{res.stderr[-4000:]}")
    out: dict[str, Any] = json.loads(res.stdout.strip().splitlines()[-1])
    return out


def mem_available_kb() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1])
    return 0


# -- the paths ---------------------------------------------------------------------

@dataclass
class Path_:
    """One path on one table: ``prepare`` (untimed, on the main connection), then ``statement`` on a fresh backend."""

    name: str
    prepare: Callable[[psycopg.Connection[Any]], None]
    statement: tuple[Any, tuple[Any, ...]] | None  # (query, params); None: the export subprocess


def paths(d: Dataset) -> list[Path_]:
    from .column_table import train_call as column_train_call
    from .models import model_of, train_call as models_train_call
    from .run import CP, FP, NP, Bench
    from .timing import Budget

    faces = Bench(None, Budget())  # type: ignore[arg-type]  # its statement builders only
    arrays, cols = sql.Identifier(d.name), sql.Identifier(columns_name(d))
    out = sql.Identifier(OUT)

    def drop(*names: str, view: bool = False) -> Callable[[psycopg.Connection[Any]], None]:
        def run(conn: psycopg.Connection[Any]) -> None:
            for n in names:
                conn.execute(sql.SQL("DROP {} IF EXISTS {} CASCADE").format(sql.SQL("VIEW" if view else "TABLE"), sql.Identifier(n)))

        return run

    def classify_prepare(conn: psycopg.Connection[Any]) -> None:
        drop(OUT)(conn)
        drop(CLASSIFY_VIEW, view=True)(conn)
        conn.execute(*faces.view_sql(d, "classify", CLASSIFY_VIEW))

    # the cat columns' categorical attributes named (integer codes); the mixed ones' text columns are categorical
    named = models_train_call(d) if d.kind == "cat" else column_train_call(model_of(d), table=columns_name(d))
    predict = sql.SQL("CREATE TABLE {} AS SELECT t.id, {}(t) AS p FROM {} AS t").format(
        out, sql.Identifier("madnb_models", f"{model_of(d)}_predict"), cols)
    return [
        Path_("baseline", lambda conn: None, (sql.SQL("SELECT sum(v) FROM {}, unnest(attributes) AS v").format(arrays), ())),
        Path_("madlib_train", drop(FP, CP, NP), faces.train_sql(d)),
        Path_("madlib_classify", classify_prepare, (sql.SQL("CREATE TABLE {} AS SELECT * FROM {}").format(out, sql.Identifier(CLASSIFY_VIEW)), ())),
        Path_("named_train", lambda conn: None, named),
        Path_("named_predict", drop(OUT), (predict, ())),
        Path_("export", drop(EXPORT_OUT), None),
    ]


PLANNED = ("baseline", "madlib_classify", "named_predict")  # one statement, not a function running its own


def jit_of(conn: psycopg.Connection[Any], p: Path_) -> str:
    """What the planner's cost of the path's statement makes JIT do (plain EXPLAIN, nothing run): '', 'on', '+inline', ..."""
    assert p.statement is not None
    p.prepare(conn)
    plan = conn.execute(sql.SQL("EXPLAIN (FORMAT JSON) ") + p.statement[0], p.statement[1] or None).fetchone()[0]  # type: ignore[index]
    cost = float(plan[0]["Plan"]["Total Cost"])
    on = [name for name, setting in (("jit", "jit_above_cost"), ("inlining", "jit_inline_above_cost"),
                                     ("optimization", "jit_optimize_above_cost"))
          if cost > float(conn.execute(sql.SQL("SHOW {}").format(sql.Identifier(setting))).fetchone()[0])]  # type: ignore[index]
    if conn.execute("SHOW jit").fetchone()[0] != "on" or "jit" not in on:  # type: ignore[index]
        return f"off (cost {cost:.3g})"
    return f"{' + '.join(on)} (cost {cost:.3g})"


def explain(conn: psycopg.Connection[Any], p: Path_, min_ms: float) -> str:
    """EXPLAIN (ANALYZE, BUFFERS) of the path's statement and of every statement it runs taking over ``min_ms``
    (auto_explain, nested statements included, as notices)."""
    assert p.statement is not None
    notes: list[str] = []

    def keep(diag: psycopg.errors.Diagnostic) -> None:
        notes.append(diag.message_primary or "")

    conn.add_notice_handler(keep)
    p.prepare(conn)
    conn.execute("LOAD 'auto_explain'")
    for name, value in (("auto_explain.log_min_duration", str(int(min_ms))), ("auto_explain.log_nested_statements", "on"),
                        ("auto_explain.log_analyze", "on"), ("auto_explain.log_buffers", "on"), ("auto_explain.log_level", "notice")):
        conn.execute("SELECT pg_catalog.set_config(%s, %s, false)", (name, value))
    try:
        conn.execute(*p.statement)
    finally:
        conn.execute("SELECT pg_catalog.set_config('auto_explain.log_min_duration', '-1', false)")
        conn.remove_notice_handler(keep)
    return "\n\n".join(notes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.scale", description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rows-small", type=int, default=1_000_000)
    ap.add_argument("--rows-large", type=int, default=10_000_000)
    ap.add_argument("--runs", type=int, default=3, help="runs of each path at the small size (median); one at the large size")
    ap.add_argument("--deadline", type=float, default=1650.0,
                    help="seconds: a large-size path whose estimate (its small-size time x 11) would end past it is cut")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--export-child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.export_child:
        print(json.dumps(export_child(json.loads(args.export_child))))
        return 0

    import madnb
    from madnb._cluster import LocalCluster

    from .evaluate import uptime
    from .run import machine, settings

    small, large = args.rows_small, args.rows_large
    scale = large / small
    t_start = time.perf_counter()
    results: dict[str, dict[str, Any]] = {}  # "<kind>/<path>" -> {"small": [...], "large": [...]}
    explains: dict[str, str] = {}
    cut: list[str] = []
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        conn.execute(SUPPORT_SQL)
        meta: dict[str, Any] = {
            "command": "make bench-scale" if os.environ.get("MAKELEVEL") else "python -m bench.scale " + " ".join(argv or sys.argv[1:]),
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "machine": machine(), "settings": settings(conn),
            "rows_small": small, "rows_large": large, "runs_small": args.runs, "runs_large": 1, "load_before": uptime(),
            "madnb_version": madnb.__version__, "sample_s": SAMPLE_S,
        }
        print(f"madnb bench-scale: {small:,} and {large:,} rows, PostgreSQL {meta['settings']['server_version']}, "
              f"{meta['machine']['nproc']} cores", flush=True)
        t0 = time.perf_counter()
        gen: dict[str, float] = {}
        threads = [threading.Thread(target=lambda k=k: gen.__setitem__(k, generate(pg.url, k, [small, large]))) for k in KINDS]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if set(gen) != set(KINDS):
            raise RuntimeError("data generation failed (see above)")
        meta["datagen_s"] = time.perf_counter() - t0
        meta["datagen_by_kind_s"] = gen
        meta["sizes"] = {
            dataset(k, n).name: {
                rel: int(conn.execute("SELECT pg_catalog.pg_total_relation_size(%s::regclass)", (rel,)).fetchone()[0])  # type: ignore[index]
                for rel in (dataset(k, n).name, columns_name(dataset(k, n)))}
            for k in KINDS for n in (small, large)}
        print(f"  data generated in {meta['datagen_s']:.0f} s ({', '.join(f'{k} {s:.0f} s' for k, s in gen.items())})", flush=True)

        def one(kind: str, rows: int, p: Path_) -> dict[str, Any]:
            at = f"{kind}/{p.name}/{'small' if rows == small else 'large'}"
            if p.name in PLANNED and at not in jit:  # after the training paths: the views and functions need the models
                jit[at] = jit_of(conn, p)
            p.prepare(conn)
            if p.statement is None:
                r = run_export(pg.url, kind, rows)
            else:
                r = on_fresh_backend(pg.url, *p.statement)
            mem = r["client"]["maxrss"] if p.name == "export" else r["backend"]["RssAnon_peak"]
            print(f"  {dataset(kind, rows).name:10s} {p.name:16s} {r['s']:8.2f} s  {mem / 1024:8.1f} MiB"
                  f"{' client maxrss' if p.name == 'export' else ' backend private peak'}", flush=True)
            return r

        jit: dict[str, str] = {}
        meta["jit"] = jit
        for kind in KINDS:
            ps = paths(dataset(kind, small))
            for _ in range(args.runs):
                for p in ps:
                    results.setdefault(f"{kind}/{p.name}", {"small": [], "large": []})["small"].append(one(kind, small, p))
        for kind in KINDS:  # memory at the small size once more, with the JIT the large size gets (FULL_JIT)
            for p in paths(dataset(kind, small)):
                if p.statement is not None:
                    p.prepare(conn)
                    r = on_fresh_backend(pg.url, *p.statement, setup=FULL_JIT)
                    results[f"{kind}/{p.name}"]["small_jit"] = [r]
                    print(f"  {dataset(kind, small).name:10s} {p.name:16s} {r['s']:8.2f} s  {r['backend']['RssAnon_peak'] / 1024:8.1f} MiB"
                          " backend private peak (inlining and optimization on)", flush=True)
        for kind in KINDS:
            d = dataset(kind, large)
            for p in paths(d):
                key = f"{kind}/{p.name}"
                small_s = statistics.median(r["s"] for r in results[key]["small"])
                elapsed = time.perf_counter() - t_start
                if elapsed + 11 * small_s > args.deadline:
                    cut.append(f"{d.name} {p.name} (estimated {11 * small_s:.0f} s at {elapsed:.0f} s of {args.deadline:.0f} s)")
                    print(f"  {d.name:10s} {p.name:16s} cut: {cut[-1]}", flush=True)
                    continue
                if p.name == "export":  # fetchall: linear in the rows; 4 GiB left to the machine's other work
                    rss = max(r["client"]["maxrss"] for r in results[key]["small"])
                    base = max(r["client"]["maxrss_after_imports"] for r in results[key]["small"])
                    need = (base + (rss - base) * scale) * 1.25
                    if mem_available_kb() < need + 4 * 2**20:
                        cut.append(f"{d.name} export (needs about {need / 2**20:.1f} GiB, MemAvailable {mem_available_kb() / 2**20:.1f} GiB)")
                        print(f"  {d.name:10s} {p.name:16s} cut: {cut[-1]}", flush=True)
                        continue
                results[key]["large"].append(one(kind, large, p))
        meta["load_after"] = uptime()
        meta["cut"] = cut

        def write() -> str:  # after the measurements and again after the evidence: an EXPLAIN that fails loses nothing
            meta["elapsed_s"] = time.perf_counter() - t_start
            args.out.mkdir(parents=True, exist_ok=True)
            rows = summary(results, scale)
            (args.out / "scale.json").write_text(json.dumps({"meta": meta, "summary": rows, "runs": results, "explain": explains},
                                                            indent=1) + "\n", encoding="utf-8")
            md = markdown(meta, rows, explains)
            (args.out / "scale.md").write_text(md, encoding="utf-8")
            return md

        write()
        # EXPLAIN (ANALYZE, BUFFERS) at the large size of every statement over a target, while the deadline allows
        for kind in KINDS:
            d = dataset(kind, large)
            by = {p.name: p for p in paths(d)}
            for p in by.values():
                r = results[f"{kind}/{p.name}"]
                if p.statement is None or p.name == "baseline" or not r["large"]:
                    continue
                ratio = r["large"][0]["s"] / statistics.median(x["s"] for x in r["small"])
                grows = r["large"][0]["backend"]["RssAnon_peak"] / r["small_jit"][0]["backend"]["RssAnon_peak"] > TARGET_MEMORY
                # the MADlib face's prepared tables have one name for every table: retrain this one's first (untimed)
                needs = [by["madlib_train"]] if p.name == "madlib_classify" else []
                cost = sum(results[f"{kind}/{n.name}"]["large"][0]["s"] for n in needs if results[f"{kind}/{n.name}"]["large"])
                if (ratio > TARGET_RATIO * scale / 10 or grows) and time.perf_counter() - t_start + 1.2 * r["large"][0]["s"] + cost < args.deadline:
                    print(f"  {d.name:10s} {p.name:16s} over its target ({ratio:.2f}x, memory grows: {grows}): "
                          "EXPLAIN (ANALYZE, BUFFERS)", flush=True)
                    try:
                        for n in needs:
                            assert n.statement is not None
                            n.prepare(conn)
                            conn.execute(*n.statement)
                        explains[f"{kind}/{p.name}"] = explain(conn, p, 1000 * r["large"][0]["s"] / 20)
                    except psycopg.Error as e:
                        explains[f"{kind}/{p.name}"] = f"(failed: {e})"
        md = write()
    print()
    print(md)
    return 0


# -- the report --------------------------------------------------------------------

def summary(results: dict[str, dict[str, Any]], scale: float) -> list[dict[str, Any]]:
    """One row per table and path: median times, ratios, peaks (the maximum over runs)."""
    out: list[dict[str, Any]] = []
    for key, r in results.items():
        kind, path = key.split("/")
        base = results[f"{kind}/baseline"]
        row: dict[str, Any] = {"kind": kind, "path": path}
        for size in ("small", "large", "small_jit"):
            runs = r.get(size, [])
            row[f"{size}_s"] = statistics.median(x["s"] for x in runs) if runs else None
            row[f"{size}_runs"] = len(runs)
            if not runs:
                continue
            if path == "export":
                row[f"{size}_client_maxrss_kb"] = max(x["client"]["maxrss"] for x in runs)
                row[f"{size}_client_imports_kb"] = max(x["client"]["maxrss_after_imports"] for x in runs)
                row[f"{size}_backend_VmHWM_kb"] = max(x["backend"]["VmHWM"] for x in runs)
            else:
                for f in ("VmHWM", "VmRSS", "RssShmem", "RssAnon_peak", "VmHWM_before"):
                    row[f"{size}_backend_{f}_kb"] = max(x["backend"][f] for x in runs)
                for f in ("seen", "VmHWM_max", "RssAnon_peak_max", "RssAnon_peak_sum"):
                    row[f"{size}_workers_{f}"] = max(x["workers"][f] for x in runs)
        both = row["small_s"] and row["large_s"]
        row["ratio"] = row["large_s"] / row["small_s"] if both else None
        bs, bl = (statistics.median(x["s"] for x in base[s]) if base[s] else None for s in ("small", "large"))
        row["baseline_ratio"] = bl / bs if bs and bl else None
        mem = "client_maxrss_kb" if path == "export" else "backend_RssAnon_peak_kb"
        row["memory_ratio"] = row[f"large_{mem}"] / row[f"small_{mem}"] if both else None
        jit = row.get(f"small_jit_{mem}")
        row["memory_ratio_same_jit"] = row[f"large_{mem}"] / jit if both and jit else None
        row["target_ratio"] = TARGET_RATIO * scale / 10 if path != "baseline" else None
        out.append(row)
    return out


def _mib(kb: int | None) -> str:
    return "–" if kb is None else f"{kb / 1024:.0f} MiB"


def _s(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f} s"


def _x(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}×"


def markdown(meta: dict[str, Any], rows: list[dict[str, Any]], explains: dict[str, str]) -> str:
    s, m = meta["settings"], meta["machine"]
    ls, ll = label(meta["rows_small"]), label(meta["rows_large"])
    from .run import SHOWN_SETTINGS

    L = [
        "# madnb benchmark: scale (1M and 10M rows)",
        "",
        f"Command: `{meta['command']}` (`python -m bench.scale`). Date: {meta['date']}. Whole run: {meta['elapsed_s']:.0f} s "
        f"(data generation {meta['datagen_s']:.0f} s of it). madnb {meta['madnb_version']}.",
        "",
        f"Machine: {m['nproc']} cores (`nproc`), {m['cpu']}, {m['memory']} RAM; {m['os']}. Load before: {meta['load_before']}; "
        f"after: {meta['load_after']}.",
        f"PostgreSQL: {s['version()']}. Settings (`SHOW`): "
        + ", ".join(f"{k} = {s[k]}" for k in SHOWN_SETTINGS if k != "server_version") + ".",
        "The cluster is a throwaway `LocalCluster(fast=True)` (PostgreSQL defaults except shared_buffers = 256MB, "
        "fsync / synchronous_commit / full_page_writes off). Tables: `CREATE UNLOGGED TABLE ... AS` from bench/datagen.py's "
        "generators, then `VACUUM ANALYZE`; sizes (table + its column version): "
        + "; ".join(f"{n} {v[n] / 2**30:.2f} GiB + {v[n + '_cols'] / 2**30:.2f} GiB" for n, v in meta["sizes"].items()) + ".",
        "",
        f"`cat`: 20 categorical int attributes 0..9, 3 classes (as cat1m); `mixed`: 10 categorical + 5 Gaussian attributes, "
        "3 classes (as mixed200k), its column version c1 .. c10 text, f1 .. f5 float8 (the column table of bench/column_table.py). "
        f"Times from the client around the statement: the median of {meta['runs_small']} runs at {ls}, **one run at {ll}**. "
        f"Every statement on a fresh connection (a fresh backend).",
        "",
        "## Time",
        "",
        f"| table | path | statement | {ls} | {ll} | {ll} / {ls} | target | meets | baseline {ll} / {ls} |",
        "|---|---|---|---:|---:|---:|---:|:--:|---:|",
    ]
    for r in rows:
        t = r["target_ratio"]
        ok = "" if t is None or r["ratio"] is None else ("yes" if r["ratio"] <= t else "**no**")
        L.append(f"| {r['kind']} | {r['path']} | {STATEMENT[r['path']]} | {_s(r['small_s'])} | {_s(r['large_s'])} | {_x(r['ratio'])} | "
                 f"{'' if t is None else f'≤ {t:.1f}×'} | {ok} | {_x(r['baseline_ratio'])} |")
    L += [
        "",
        "## Memory of the backend",
        "",
        "Per statement, from `/proc/<pg_backend_pid()>/status` of its (fresh) backend: *VmHWM* (peak resident set) after "
        "the statement, which counts the pages of shared_buffers the backend touched (*RssShmem* at the end, up to 256 MiB) "
        "as well as its private memory; *private peak*: `RssAnon` sampled every "
        f"{meta['sample_s'] * 1000:.0f} ms during the statement (the figure whose flatness is the target: "
        f"{ll} at most {TARGET_MEMORY}× {ls} with the same JIT, see below); *fresh*: VmHWM of the backend before the statement. Parallel workers "
        "(other processes, found while the statement ran): how many, and the largest VmHWM and RssAnon of one of them "
        "(sampled, so growth in a worker's last sample interval can be missed). At the small size, the largest over its runs. "
        "Not measured: the postmaster and background processes, the OS page cache. *JIT*: what the planner's cost "
        "of the statement (plain `EXPLAIN`) makes PostgreSQL's JIT do under the default jit_*_above_cost settings (statements "
        f"inside madnb.train and create_nb_prepared_data_tables are not shown). LLVM, once loaded for compiling, adds a "
        f"constant to the private memory of the backend and of each worker, more with inlining and optimization, which the "
        f"default thresholds (500,000) turn on at {ll} and not at {ls}: so every statement is run once more at {ls} with "
        f"`{'; '.join(FULL_JIT)}` (*{ls} full JIT*, one run), and flatness is judged on {ll} / {ls} full JIT.",
        "",
        f"| table | path | VmHWM {ls} | VmHWM {ll} | RssShmem {ls} / {ll} | private peak {ls} | {ls} full JIT | {ll} | "
        f"{ll} / {ls} | {ll} / {ls} full JIT | flat | fresh | workers {ls} / {ll} | worker VmHWM {ls} / {ll} | "
        f"worker private peak {ls} / {ls} full JIT / {ll} | JIT {ls} / {ll} |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|:--:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        if r["path"] == "export":
            continue
        g = r.get

        def both(f: str, g: Callable[..., Any] = g) -> str:
            return f"{_mib(g('small_' + f))} / {_mib(g('large_' + f))}"

        mr = r["memory_ratio_same_jit"]
        ok = "" if mr is None else ("yes" if mr <= TARGET_MEMORY else "**no**")
        L.append(f"| {r['kind']} | {r['path']} | {_mib(g('small_backend_VmHWM_kb'))} | {_mib(g('large_backend_VmHWM_kb'))} | "
                 f"{both('backend_RssShmem_kb')} | {_mib(g('small_backend_RssAnon_peak_kb'))} | {_mib(g('small_jit_backend_RssAnon_peak_kb'))} | "
                 f"{_mib(g('large_backend_RssAnon_peak_kb'))} | {_x(r['memory_ratio'])} | {_x(mr)} | {ok} | "
                 f"{_mib(g('small_backend_VmHWM_before_kb'))} | {g('small_workers_seen', '–')} / {g('large_workers_seen', '–')} | "
                 f"{both('workers_VmHWM_max')} | {_mib(g('small_workers_RssAnon_peak_max'))} / {_mib(g('small_jit_workers_RssAnon_peak_max'))} / "
                 f"{_mib(g('large_workers_RssAnon_peak_max'))} | "
                 f"{' / '.join(meta['jit'].get(r['kind'] + '/' + r['path'] + '/' + z, '') for z in ('small', 'large'))} |")
    L += [
        "",
        "## The export path",
        "",
        "In a subprocess (`python -m bench.scale --export-child`): the cat arrays through `bench.export.export_run` "
        "(binary fetch into numpy, `CategoricalNB`), the mixed columns through `bench.column_table.export_run` (binary fetch, "
        "text columns encoded, `CategoricalNB` + `GaussianNB`); both fetch every row (`fetchall`), fit and predict on "
        "them and COPY (id, prediction) back. Client memory: `getrusage(RUSAGE_SELF).ru_maxrss` of the subprocess at its "
        "end, and after its imports (numpy, scikit-learn, psycopg) before any row; its backend's VmHWM at the end.",
        "",
        f"| table | time {ls} | time {ll} | {ll} / {ls} | client maxrss {ls} | client maxrss {ll} | {ll} / {ls} | after imports | "
        f"backend VmHWM {ls} / {ll} | madnb named train + predict {ll} | madnb MADlib train + classify {ll} |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    by = {(r["kind"], r["path"]): r for r in rows}
    for r in rows:
        if r["path"] != "export":
            continue
        k = r["kind"]

        def total(*ps: str, k: str = k) -> str:
            v = [by[(k, p)]["large_s"] for p in ps]
            return "–" if None in v else f"{sum(v):.2f} s"

        L.append(f"| {k} | {_s(r['small_s'])} | {_s(r['large_s'])} | {_x(r['ratio'])} | {_mib(r.get('small_client_maxrss_kb'))} | "
                 f"{_mib(r.get('large_client_maxrss_kb'))} | {_x(r['memory_ratio'])} | {_mib(r.get('small_client_imports_kb'))} | "
                 f"{_mib(r.get('small_backend_VmHWM_kb'))} / {_mib(r.get('large_backend_VmHWM_kb'))} | "
                 f"{total('named_train', 'named_predict')} | {total('madlib_train', 'madlib_classify')} |")
    if meta["cut"]:
        L += ["", "Cut (would not fit in the deadline or in memory): " + "; ".join(meta["cut"]) + "."]
    for key, text in explains.items():
        L += ["", f"## EXPLAIN (ANALYZE, BUFFERS) of {key} at {ll} (over its target; auto_explain, nested statements)", "",
              "```", text.strip(), "```"]
    return "\n".join(L) + "\n"


if __name__ == "__main__":
    sys.exit(main())

"""Online updates: adding a 10,000-row part to a model trained on 1,000,000 rows (issue 11, point 4).

Target: the update costs at most 1.5x releasing the same 10,000-row part alone
(``create_nb_statistics``).  Each timed update is paired with a release of the
part, run just before it; the ratio is the median of the per-pair ratios
(bench/timing.py).  Every update adds a freshly released part (released
untimed), so the model's history grows during the runs: a cost that grew with
history would show in the later runs.

Part of ``make bench`` (figure group ``update``); alone, on its own throwaway cluster:

    python -m bench.update [--kinds cat,mixed] [--budget 20]

Writes ``bench/results/update.md`` and ``update.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from .datagen import SUPPORT_SQL, Dataset
from .timing import Budget, Figure, measure, timed

RESULTS = Path(__file__).resolve().parent / "results"
TARGET = 1.5
MODEL_ROWS, PART_ROWS = 1_000_000, 10_000
SHAPES = {"cat": (20, ()), "num": (10, tuple(range(1, 11))), "mixed": (15, tuple(range(11, 16)))}
FP, NP, CP = "upd_fp", "upd_np", "upd_cp"


def _ident(*names: str) -> sql.Composable:
    return sql.SQL(", ").join(sql.Identifier(n) for n in names)


def _kept(conn: psycopg.Connection[Any]) -> sql.Composable:
    """The statistics table the model keeps, as its feature table's comment names it."""
    text = conn.execute("SELECT obj_description(%s::regclass, 'pg_class')", (FP,)).fetchone()[0]  # type: ignore[index]
    schema, name = text.split("derived from statistics ")[1].split(" (id ")[0].split('"."')
    return sql.Identifier(schema.strip('"'), name.strip('"').replace('""', '"'))


def run_kind(conn: psycopg.Connection[Any], kind: str, budget: Budget, reps: int = 7) -> dict[str, Any]:
    """Train on 1,000,000 rows, then time releases and updates of 10,000-row parts."""
    num_attrs, numeric = SHAPES[kind]
    big = Dataset(f"upd_{kind}_model", MODEL_ROWS, kind, num_attrs, numeric)
    part = Dataset(f"upd_{kind}_part", PART_ROWS, kind, num_attrs, numeric)
    for d in (big, part):
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(d.name)))
        conn.execute(d.create_sql())
        conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(d.name)))
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(_ident(FP, NP, CP)))
    numeric_arg = [part.numeric_text] if numeric else []
    np_name = NP if numeric else None
    if numeric:
        conn.execute("SELECT madnb.create_nb_prepared_data_tables(%s, 'class', 'attributes', %s, %s, %s, %s, %s)",
                     (big.name, big.numeric_text, num_attrs, FP, NP, CP))
    else:
        conn.execute("SELECT madnb.create_nb_prepared_data_tables(%s, 'class', 'attributes', %s, %s, %s)",
                     (big.name, num_attrs, FP, CP))
    kept = _kept(conn)
    cells = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(kept)).fetchone()[0]  # type: ignore[index]
    counter = {"n": 0}
    release_sql = (
        "SELECT madnb.create_nb_statistics(%s, 'class', 'attributes', " + ("%s, " if numeric else "") + "%s, %s)"
    )

    def release(dest: str) -> None:
        conn.execute(release_sql, (part.name, *numeric_arg, num_attrs, dest))

    def timed_release() -> float:
        conn.execute("DROP TABLE IF EXISTS upd_release")
        return timed(lambda: release("upd_release"))

    def timed_update() -> float:
        counter["n"] += 1
        name = f"upd_part_{counter['n']}"
        release(name)  # untimed: a fresh part each time
        t = timed(lambda: conn.execute("SELECT madnb.update_nb_model(%s, %s, %s, %s)", (name, FP, np_name, CP)))
        conn.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(name)))
        return t

    fig: Figure = measure(timed_update, reps, budget, timed_release)
    assert fig.ratio is not None
    header = conn.execute(sql.SQL("SELECT obj_description({}::regclass, 'pg_class')").format(sql.Literal(kept.as_string(conn))))
    parts_in_model = len(json.loads(header.fetchone()[0].removeprefix("madnb statistics "))["parts"])  # type: ignore[index]
    rows = conn.execute(sql.SQL("SELECT sum(class_cnt) FROM {}").format(sql.Identifier(CP))).fetchone()[0]  # type: ignore[index]
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(_ident(FP, NP, CP, big.name, part.name, "upd_release")))
    conn.execute(sql.SQL("DROP TABLE {}").format(kept))
    return {
        "kind": kind, "num_attrs": num_attrs, "numeric": list(numeric), "model_rows": MODEL_ROWS, "part_rows": PART_ROWS,
        "model_cells": cells, "update_runs_s": fig.runs, "release_runs_s": fig.base_runs,
        "update_median_s": fig.median, "release_median_s": statistics.median(fig.base_runs),
        "ratio": fig.ratio, "release_plus_update_ratio": 1 + fig.ratio, "target": TARGET,
        "parts_in_model_after": parts_in_model, "model_rows_after": int(rows),
        "first_update_s": fig.runs[0], "last_update_s": fig.runs[-1],
    }


def markdown(results: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [
        "# madnb benchmark: online updates",
        "",
        f"Command: `{meta['command']}`. Date: {meta['date']}.",
        "",
        f"A model is trained on {MODEL_ROWS:,} rows (bench/datagen.py), then {PART_ROWS:,}-row parts of the same "
        "distribution are added with `madnb.update_nb_model`, each part released just before (untimed). Each timed "
        "update is paired with a timed release of the same part alone (`create_nb_statistics`), run just before it; "
        "*ratio* is the median of update / release over the pairs. The model's history grows by one part per run.",
        "",
        "| data | model cells | release (median) | update (median) | update / release | (release + update) / release "
        "| target ≤ | meets | runs | first / last update |",
        "|---|---:|---:|---:|---:|---:|---:|:--:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r['kind']} ({r['num_attrs']} attributes) | {r['model_cells']:,} | {r['release_median_s'] * 1000:.1f} ms "
            f"| {r['update_median_s'] * 1000:.1f} ms | {r['ratio']:.2f}× | {r['release_plus_update_ratio']:.2f}× "
            f"| {r['target']:.1f}× | {'yes' if r['ratio'] <= r['target'] else '**no**'} | {len(r['update_runs_s'])} "
            f"| {r['first_update_s'] * 1000:.1f} / {r['last_update_s'] * 1000:.1f} ms |"
        )
    lines.append("")
    return "\n".join(lines)


def run(conn: psycopg.Connection[Any], budget: Budget, out: Path, kinds: list[str], command: str) -> list[dict[str, Any]]:
    """The update section: measure, print and write bench/results/update.{md,json}."""
    conn.execute(SUPPORT_SQL)
    results = []
    for kind in kinds:
        r = run_kind(conn, kind, budget)
        print(f"  update {kind:6s} release {r['release_median_s'] * 1000:7.1f} ms  update {r['update_median_s'] * 1000:7.1f} ms"
              f"  ratio {r['ratio']:.2f}x", flush=True)
        results.append(r)
    import datetime as dt

    meta = {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "command": command}
    md = markdown(results, meta)
    out.mkdir(parents=True, exist_ok=True)
    (out / "update.md").write_text(md + "\n", encoding="utf-8")
    (out / "update.json").write_text(json.dumps({"meta": meta, "results": results}, indent=2) + "\n", encoding="utf-8")
    return results


def main(argv: list[str] | None = None) -> int:
    import madnb
    from madnb._cluster import LocalCluster

    ap = argparse.ArgumentParser(prog="python -m bench.update", description=__doc__.splitlines()[0])
    ap.add_argument("--kinds", default="cat,mixed", help="data kinds (cat, num, mixed; default cat,mixed)")
    ap.add_argument("--budget", type=float, default=20.0, help="seconds of runs per figure (default 20)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="results directory")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        run(conn, Budget(per_figure=args.budget), args.out, args.kinds.split(","), "python -m bench.update")
    print(markdown(json.loads((args.out / "update.json").read_text())["results"], {"command": "python -m bench.update",
          "date": f"whole run {time.perf_counter() - t0:.0f} s"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

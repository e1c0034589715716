"""Issue 19's figures that miss their targets, each beside its floor: the cheapest SQL that does the same work.

For every figure here the question is whether madnb's SQL does more than the
work itself, or whether PostgreSQL's executor costs that much for the work.  So
each figure is measured twice, paired with its baseline run as in ``make bench``
(:func:`bench.timing.measure`):

* **as in make bench**: parallel workers and JIT at their defaults, × the usual
  baseline (the unnest scan of the same values);
* **by parts**, in one process (``max_parallel_workers_per_gather = 0``, ``jit =
  off``, so that parts add up and a large expression is not compiled): each part
  of the work alone, materialised as the figure is (``CREATE TABLE AS``), × the
  same baseline in the same settings.  The last part of each case is madnb's own
  statement; the part before it is the floor, written by hand with the model's
  numbers as constants and nothing else: no NULL / NaN handling, no checks, no
  tie rule.

Cases (tables from bench/datagen.py, and ``dense200k``: 200,000 rows × 64 int4
counts in 0..16, 10 classes):

* ``vector``: batch ``<model>_predict(t)`` of the kinds multinomial, Bernoulli and
  complement (target ≤ 3×): per row 10 classes × 64 multiply-adds;
* ``view_num``: the prepared classify view of num200k (target ≤ 3× on num1m):
  per row 3 classes × 10 Gaussian terms;
* ``view_wide``: the prepared classify view of wide (20,000 rows × 1,000 binary
  attributes, 3 classes; target ≤ 3×): more terms than a view unrolls, so a
  LATERAL sum over the unnested attributes;
* ``train_cat``: ``create_nb_prepared_data_tables`` of cat200k and mixed200k
  (target ≤ 1.5×), beside the plain ``unnest ... GROUP BY`` of the same counts;
* ``adhoc``: the ad hoc classify view of cat200k, num200k, mixed200k and wide
  (target ≤ 5×) against training plus the prepared view (what an ad hoc view
  does per query); bench/results/adhoc.md has the before -> after figures.

EXPLAIN (ANALYZE, BUFFERS) of madnb's statement and of the floor is printed for
each case.  The column table's floors (madnb.train, batch prediction,
cross-validation, the export path) are in bench/column_table.py.

    python -m bench.floors [--runs 5] [--only vector,view_num,...] [--keep] [--out bench/results]   # its own cluster, ~20 min
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

import madnb
from madnb._cluster import LocalCluster

from .datagen import DATASETS, SUPPORT_SQL
from .evaluate import uptime
from .timing import Budget, Figure, measure, timed

RESULTS = Path(__file__).resolve().parent / "results"
OUT = "bench_floor_out"
DENSE = "dense200k"
DENSE_FEATURES, DENSE_CLASSES = 64, 10
FP, CP, NP = "bench_floor_fp", "bench_floor_cp", "bench_floor_np"
CASES = ("vector", "view_num", "view_wide", "train_cat", "adhoc")


@dataclass
class Case:
    """One figure of issue 19 that misses its target, and the statements that show its floor."""

    name: str
    title: str
    target: float
    baseline: str  # the baseline query (no CREATE TABLE)
    figures: list[tuple[str, str]]  # (figure, statement timed as in make bench)
    parts: list[tuple[str, str]] = field(default_factory=list)  # (part, SELECT materialised in one process)
    explain: list[tuple[str, str]] = field(default_factory=list)  # (what, statement) for EXPLAIN (ANALYZE, BUFFERS)
    against: list[tuple[str, str, str]] = field(default_factory=list)  # (figure, statement, against statement)
    why: str = ""


def dense_sql() -> str:
    """200,000 rows of 64 counts in 0..16 whose distribution depends on the class (10 classes)."""
    return (
        f"CREATE TABLE {DENSE} AS SELECT id, c AS class, ARRAY(SELECT floor(17 * pg_catalog.power(bench.u(id * 64 + j, 7), "
        f"1 + ((c + j) % 5) * 0.5))::int FROM generate_series(1, {DENSE_FEATURES}) AS j) AS v "
        f"FROM (SELECT id::int AS id, (id % {DENSE_CLASSES})::int AS c FROM generate_series(1, 200000) AS id) AS s"
    )


def _one(conn: psycopg.Connection[Any], q: str, params: tuple[Any, ...] | None = None) -> Any:
    row = conn.execute(q, params).fetchone()
    assert row is not None
    return row[0]


def _f8(x: float) -> str:
    return f"'{x!r}'::float8"


def dot_products(conn: psycopg.Connection[Any], model: str, classes: int) -> list[str]:
    """Per class of a dense multinomial model, its score as the hand-written floor: prior + sum of x[j] * w_j."""
    rows = conn.execute(
        sql.SQL("SELECT p.class::text, p.log_prior, array_agg(f.log_prob ORDER BY f.feature) FROM {} p JOIN {} f USING (class) "
                "GROUP BY 1, 2 ORDER BY 1").format(sql.Identifier("madnb_models", f"{model}_class_priors"),
                                                   sql.Identifier("madnb_models", f"{model}_feature_probs"))
    ).fetchall()
    assert len(rows) == classes
    return [_f8(prior) + "".join(f" + t.v[{j}] * {_f8(w)}" for j, w in enumerate(ws, start=1)) for _, prior, ws in rows]


def gaussian_terms(conn: psycopg.Connection[Any], attrs: int) -> list[str]:
    """Per class of the prepared num200k model, its log-likelihood as the hand-written floor: a constant per
    class plus, per attribute, a - (r (x - mu))^2 with the model's numbers."""
    prior = dict(conn.execute(sql.SQL("SELECT class::text, ln(class_cnt::float8 / all_cnt) FROM {}").format(sql.Identifier(CP))).fetchall())
    stats = conn.execute(sql.SQL("SELECT class::text, attr, attr_mean, attr_var FROM {} ORDER BY 1, 2").format(sql.Identifier(NP))).fetchall()
    terms: dict[str, list[str]] = {c: [] for c in prior}
    for c, a, mu, var in stats:
        terms[c].append(f" + ({_f8(-0.5 * math.log(2 * math.pi * var))} - ({_f8(math.sqrt(0.5 / var))} * (t.attributes[{a}] - {_f8(mu)})) ^ 2)")
    return [_f8(prior[c]) + "".join(terms[c]) for c in sorted(prior)]


def argmax_select(table: str, scores: list[str]) -> str:
    """SELECT id and the class of the largest of ``scores`` (SQL over row ``t`` of ``table``; positions 1..k, the first
    on a tie): each score computed once, in a sub-select kept apart by OFFSET 0, then a CASE on GREATEST."""
    k = len(scores)
    inner = ", ".join(f"{sc} AS s{i}" for i, sc in enumerate(scores, start=1))
    g = f"GREATEST({', '.join(f'x.s{i}' for i in range(1, k + 1))})"
    whens = " ".join(f"WHEN y.s{i} = y.g THEN {i}" for i in range(1, k))
    return (f"SELECT y.id, CASE {whens} ELSE {k} END AS p FROM (SELECT x.*, {g} AS g FROM "
            f"(SELECT t.id, {inner} FROM {table} AS t OFFSET 0) AS x) AS y")


def train_cat_floor(name: str) -> str:
    """The floor of ``train_cat``: the plain SQL of the statistics of table ``name`` (bench/datagen.py), the unnest +
    GROUP BY of its categorical cells and, with Gaussian attributes, their count, avg and var_samp per class by
    subscript.  ``count(s.*)``, not ``count(*)``, of each sub-select: over count(*) the planner drops the sub-select's
    unused aggregates (bench.column_table.COMPUTED; until 2026-12-07 the Gaussian ones were not computed)."""
    d = DATASETS[name]
    cat = [j for j in range(1, d.num_attrs + 1) if j not in d.numeric]
    floor = (f"SELECT count(s.*) FROM (SELECT t.class, u.o, u.v, count(*) FROM {name} AS t, unnest(t.attributes[1:{len(cat)}]) "
             "WITH ORDINALITY AS u(v, o) GROUP BY 1, 2, 3) AS s")
    if not d.numeric:
        return floor
    aggs = ", ".join(f"count(t.attributes[{j}]), avg(t.attributes[{j}]), var_samp(t.attributes[{j}])" for j in d.numeric)
    return f"SELECT count(b.*) FROM ({floor} UNION ALL SELECT count(n.*) FROM (SELECT t.class, {aggs} FROM {name} AS t GROUP BY 1) AS n) AS b"


def cases(conn: psycopg.Connection[Any], only: set[str]) -> Iterator[Case]:
    """The cases of the module docstring, each made (its tables, models and views) just before it is yielded: the
    prepared tables are made again for each."""
    ex = conn.execute
    ex(SUPPORT_SQL)
    if "vector" in only:
        ex(f"DROP TABLE IF EXISTS {DENSE}")
        ex(dense_sql())
        ex(f"ALTER TABLE {DENSE} ADD PRIMARY KEY (id)")
        ex(f"VACUUM ANALYZE {DENSE}")
        for kind in ("multinomial", "bernoulli", "complement"):
            ex("SELECT madnb.train(%s, %s, 'class', features => ARRAY['v'], kind => %s, replace => true)", (f"bench_{kind}", DENSE, kind))
        dots = dot_products(conn, "bench_multinomial", DENSE_CLASSES)
        yield Case(
            "vector", f"Vector kinds: batch predict, {DENSE} (200,000 rows × 64 counts, 10 classes)", 3.0,
            f"SELECT sum(x) FROM {DENSE}, unnest(v) AS x",
            [(f"{kind}: CREATE TABLE AS SELECT id, <m>_predict(t)", f"SELECT t.id, madnb_models.bench_{kind}_predict(t) AS p FROM {DENSE} AS t")
             for kind in ("multinomial", "bernoulli", "complement")],
            [
                ("scan and write (one element per row)", f"SELECT t.id, t.v[1] AS p FROM {DENSE} AS t"),
                ("one class's score: 64 multiply-adds, constants inlined", f"SELECT t.id, {dots[0]} AS p FROM {DENSE} AS t"),
                ("10 classes' scores as an array (640 multiply-adds)", f"SELECT t.id, ARRAY[{', '.join(dots)}] AS p FROM {DENSE} AS t"),
                ("floor: the class of the largest of the 10 scores", argmax_select(DENSE, dots)),
                ("madnb: multinomial <m>_predict(t)", f"SELECT t.id, madnb_models.bench_multinomial_predict(t) AS p FROM {DENSE} AS t"),
            ],
            [("madnb's multinomial batch predict", f"CREATE TABLE {OUT} AS SELECT t.id, madnb_models.bench_multinomial_predict(t) AS p FROM {DENSE} AS t"),
             ("the floor", f"CREATE TABLE {OUT} AS {argmax_select(DENSE, dots)}")],
            why=(
                "The work is one multiply-add per class and element: 640 per row, where the baseline adds 64 unnested "
                "elements once. PostgreSQL evaluates each multiply-add as interpreted steps (a subscript, an int4 to "
                "float8 cast, a product, a sum), so the floor is that many steps per row; madnb's expression is the floor "
                "plus a length check of the vector and the tie rule. What would move it: a dot product done in C "
                "(PostgreSQL has no array dot product; an extension such as pgvector has one), one call per class "
                "instead of 64 steps; or a float8[] column (no cast per element)."
            ),
        )
    if "view_num" in only or "adhoc" in only or "train_cat" in only:
        for name in ("num200k", "cat200k", "mixed200k", "wide"):
            if _one(conn, "SELECT to_regclass(%s) IS NULL", (name,)):
                ex(DATASETS[name].create_sql())
                ex(f"VACUUM ANALYZE {name}")
    if "view_num" in only:
        d = DATASETS["num200k"]
        prepare(conn, "num200k")
        ex(sql.SQL("SELECT madnb.create_nb_classify_view(%s, %s, 'num200k', 'id', 'attributes', %s, %s, 'bench_floor_view_num')"),
           (FP, CP, d.num_attrs, NP))
        g = gaussian_terms(conn, d.num_attrs)
        yield Case(
            "view_num", "Classify view (prepared tables), num200k (200,000 rows × 10 Gaussian attributes, 3 classes)", 3.0,
            "SELECT sum(v) FROM num200k, unnest(attributes) AS v",
            [("classify view materialised", "SELECT * FROM bench_floor_view_num")],
            [
                ("scan and write (one element per row)", "SELECT t.id, t.attributes[1] AS p FROM num200k AS t"),
                ("one class's log-likelihood: 10 Gaussian terms, constants inlined", f"SELECT t.id, {g[0]} AS p FROM num200k AS t"),
                ("floor: the class of the largest of the 3", argmax_select("num200k", g)),
                ("madnb: the classify view", "SELECT * FROM bench_floor_view_num"),
            ],
            [("madnb's classify view", f"CREATE TABLE {OUT} AS SELECT * FROM bench_floor_view_num"),
             ("the floor", f"CREATE TABLE {OUT} AS {argmax_select('num200k', g)}")],
            why=(
                "Per row the view computes 3 classes × 10 Gaussian terms, each a subtraction, a product, a square and a "
                "sum, on values clipped to the model's range with NaN as missing; the baseline adds 10 unnested values. "
                "The view reads the model's numbers from the model tables at query time (it follows re-training, as "
                "MADlib's views do): each number is a column of the one model row hash-joined to the scan (since this "
                "wave; it was a subscript of the model's array, three per term), which costs about what a constant does; "
                "the rest of the view's excess over the floor by parts is the NaN test and the clipping of each value, "
                "the tie rule and the output array of classes. The floor itself is at the target: "
                "PostgreSQL's interpreted arithmetic, about a dozen steps per term. What would move it: fewer steps "
                "per term than the expression evaluator takes (a C function per row), or the same in parallel "
                "workers at 1m, where JIT also compiles the expression."
            ),
        )
    if "view_wide" in only:
        d = DATASETS["wide"]
        if _one(conn, "SELECT to_regclass('wide') IS NULL"):
            ex(d.create_sql())
            ex("VACUUM ANALYZE wide")
        prepare(conn, "wide")
        ex(sql.SQL("SELECT madnb.create_nb_classify_view(%s, %s, 'wide', 'id', 'attributes', %s, 'bench_floor_view_wide')"), (FP, CP, d.num_attrs))
        lut = "'{" + ",".join(f"-0.{(7 * i) % 97 + 1:02d}" for i in range(2 * d.num_attrs)) + "}'::float8[]"
        sums = ", ".join(f"sum(({lut})[2 * u.o + u.x - 1]) AS l{c}" for c in range(1, 4))
        floor = (f"SELECT t.id, CASE WHEN s.l1 >= GREATEST(s.l1, s.l2, s.l3) THEN 1 WHEN s.l2 >= s.l3 THEN 2 ELSE 3 END AS p "
                 f"FROM wide AS t CROSS JOIN LATERAL (SELECT {sums} FROM unnest(t.attributes) WITH ORDINALITY AS u(x, o)) AS s")
        yield Case(
            "view_wide", "Classify view (prepared tables), wide (20,000 rows × 1,000 binary attributes, 3 classes)", 3.0,
            "SELECT sum(v) FROM wide, unnest(attributes) AS v",
            [("classify view materialised", "SELECT * FROM bench_floor_view_wide")],
            [
                ("the unnest of each row's 1,000 values, summed per row",
                 "SELECT t.id, s.n AS p FROM wide AS t CROSS JOIN LATERAL (SELECT sum(u.x) AS n FROM unnest(t.attributes) AS u(x)) AS s"),
                ("floor: per element one constant-array lookup for each of 3 classes, summed; the largest", floor),
                ("madnb: the classify view", "SELECT * FROM bench_floor_view_wide"),
            ],
            [("madnb's classify view", f"CREATE TABLE {OUT} AS SELECT * FROM bench_floor_view_wide"), ("the floor", f"CREATE TABLE {OUT} AS {floor}")],
            why=(
                "3,000 terms per row are more than a view unrolls, so the view unnests each row's attributes in a "
                "LATERAL sub-select and sums one lookup per class and element: 3 lookups and 3 sums per element where "
                "the baseline does one sum. The floor is that sub-select with constant arrays; madnb's also clips each "
                "code to the model's range and reads the lookup arrays from the model row, and a LATERAL sub-select "
                "per row keeps PostgreSQL 15 from running it in parallel workers. What would move it: fewer steps per "
                "element than PostgreSQL's unnest-and-aggregate (a C function summing a row's lookups in one call), or "
                "a parallel form for wide rows (one grouped pass over the unnested elements of all rows, then a join "
                "back: a sort or hash of rows × attributes elements)."
            ),
        )
    if "train_cat" in only:
        for name in ("cat200k", "mixed200k"):
            d = DATASETS[name]
            floor = train_cat_floor(name)
            train = _train_sql(name, *TRAIN_AGAIN)
            yield Case(
                f"train_cat_{name}", f"Categorical training through the array face, {name}", 1.5,
                f"SELECT sum(v) FROM {name}, unnest(attributes) AS v",
                [("create_nb_prepared_data_tables", train)],
                against=[("create_nb_prepared_data_tables × the plain SQL of the same statistics (unnest + GROUP BY of the "
                          "categorical cells" + (", GROUP BY class of the Gaussian ones)" if d.numeric else ")"), train, floor)],
                explain=[("madnb's statistics pass: see tests/golden/train_codes.sql for its SQL; here the floor", floor)],
                why=(
                    "Training counts (class, attribute, value) cells: the plain SQL of that is the unnest of each row's "
                    "categorical values grouped by class, position and value (and for mixed tables the Gaussian "
                    "attributes' count, avg and var_samp per class), which hashes one row per element. madnb's pass "
                    "packs each element's position and value into one int8 key (one hash of an int8 per element) after "
                    "a pass that checks the arrays' shape, then derives and writes the model tables: 0.91× the plain "
                    "SQL on cat200k, 1.12× on mixed200k on 2026-12-07 (whose Gaussian part the plain SQL reads by "
                    "subscript too, with no shape check and no model tables; the *against* rows; 0.86× and 1.21× on "
                    "2026-12-01, when the plain SQL's avg and var_samp were not computed: train_cat_floor). The baseline sums the same unnested "
                    "elements without hashing them; "
                    "hashing an element costs more than adding it, so the floor of counting sits above the target's "
                    "1.5×. What would move it: counting without a hash table per element (a C aggregate over an array "
                    "of codes, one call per row)."
                ),
            )
    if "adhoc" in only:
        for name in ("cat200k", "num200k", "mixed200k", "wide"):
            d = DATASETS[name]
            prepare(conn, name)
            ex(view_sql(name, "bench_floor_prep_view"))
            ex("DROP VIEW IF EXISTS bench_floor_adhoc")
            if d.numeric:
                ex("SELECT madnb.create_nb_classify_view(%s, 'class', 'attributes', %s, %s, 'id', 'attributes', %s, 'bench_floor_adhoc')",
                   (name, d.numeric_text, name, d.num_attrs))
            else:
                ex("SELECT madnb.create_nb_classify_view(%s, 'class', 'attributes', %s, 'id', 'attributes', %s, 'bench_floor_adhoc')",
                   (name, name, d.num_attrs))
            yield Case(
                f"adhoc_{name}", f"Ad hoc classify view, {name}", 5.0,
                f"SELECT sum(v) FROM {name}, unnest(attributes) AS v",
                [("ad hoc classify view materialised", "SELECT * FROM bench_floor_adhoc"),
                 ("ad hoc classify view materialised (jit off)", "SELECT * FROM bench_floor_adhoc")],
                against=[("ad hoc view materialised × (training + the prepared view materialised)",
                          "SELECT * FROM bench_floor_adhoc", f"TRAIN+PREP:{name}")],
                why=ADHOC_WHY,
            )


ADHOC_WHY = (
    "An ad hoc view trains on every query and then scores, so its floor is the floor of training plus the floor of the "
    "prepared view. It reads its model as the prepared view does, a one-row relation hash-joined to the scan whose "
    "numbers are columns: each column of the model row is one scalar sub-select (an InitPlan: only the leader may scan "
    "the model's common table expressions) in a two-row VALUES list that each worker scans, and the relations the "
    "model reads more than once are common table expressions (2026-12-04; before, one sub-select per number: 160 "
    "InitPlans for num200k, 7 now; see bench/results/adhoc.md). What it still does beyond the two: (1) JIT. "
    "PostgreSQL decides on JIT from the whole plan's estimated cost, and an ad hoc view's includes its training and "
    "the unnest pass behind the one-time filter on the arrays' shape, which runs only for arrays of another length but "
    "is costed as if it ran (40,709 of num200k's 59,511): the probs views and mixed200k cross jit_above_cost "
    "(100,000) where the prepared views do not, and JIT then compiles every expression of the training and the model "
    "(220-360 functions) in the leader and each worker; compare the jit off figure. (2) For categorical integer codes "
    "its training is the general unnest pass, where create_nb_prepared_data_tables checks the arrays' shape and counts "
    "one packed key per element: that pass aggregates in the workers only under a higher parallel_tuple_cost (without "
    "it PostgreSQL gathers every element into the leader: cat200k 2.0 s against 1.4 s for the general pass), a setting "
    "a view cannot carry. (3) wide's prepared view is the serial LATERAL form (see its section above), over 4× alone. "
    "What would move it: a prepared view (create_nb_prepared_data_tables, then the view over its tables); a session "
    "with jit off or a higher jit_above_cost for tables of this size; PostgreSQL costing a branch behind a one-time "
    "filter by how often it runs."
)


def _train_sql(name: str, fp: str = FP, cp: str = CP, np: str = NP) -> str:
    d = DATASETS[name]
    if d.numeric:
        return (f"SELECT madnb.create_nb_prepared_data_tables('{name}', 'class', 'attributes', '{d.numeric_text}', {d.num_attrs}, "
                f"'{fp}', '{np}', '{cp}')")
    return f"SELECT madnb.create_nb_prepared_data_tables('{name}', 'class', 'attributes', {d.num_attrs}, '{fp}', '{cp}')"


def view_sql(name: str, view: str) -> str:
    """The classify view ``view`` over ``name``'s prepared tables (FP, CP and, with numeric attributes, NP)."""
    d = DATASETS[name]
    tail = f", '{NP}'" if d.numeric else ""
    return f"SELECT madnb.create_nb_classify_view('{FP}', '{CP}', '{name}', 'id', 'attributes', {d.num_attrs}{tail}, '{view}')"


def prepare(conn: psycopg.Connection[Any], name: str) -> None:
    """The prepared model tables of ``name`` (FP, CP and, with numeric attributes, NP), made again (views on them go)."""
    for t in (FP, CP, NP):
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {} CASCADE").format(sql.Identifier(t)))
    conn.execute(_train_sql(name))


def _runner(conn: psycopg.Connection[Any], statement: str, drop: tuple[str, ...] = (OUT,)) -> Callable[[], float]:
    """A timed run of ``statement``: a SELECT of rows is materialised (``CREATE TABLE OUT AS``); a call runs as it is.
    ``drop``: tables dropped before each run (untimed)."""
    q = statement if statement.startswith(("SELECT madnb.", "SELECT count(*)", "SELECT sum(")) else f"CREATE TABLE {OUT} AS {statement}"

    def run() -> float:
        for t in drop:
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {} CASCADE").format(sql.Identifier(t)))
        return timed(lambda: conn.execute(q))

    return run


TRAIN_AGAIN = ("bench_floor_fp2", "bench_floor_cp2", "bench_floor_np2")
"""Where the training that an ad hoc view is compared with writes (the prepared view reads FP, CP, NP)."""


def run_case(conn: psycopg.Connection[Any], case: Case, reps: int, budget: Budget) -> dict[str, Any]:
    """Every figure of ``case``: as in make bench, by parts, against; EXPLAIN of the last statements."""
    base = _runner(conn, case.baseline, drop=())
    result: dict[str, Any] = {"case": case.name, "title": case.title, "target": case.target, "figures": [], "parts": [],
                              "against": [], "explain": [], "why": case.why,
                              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    base()
    for figure, statement in case.figures:
        jit_off = figure.endswith("(jit off)")
        if jit_off:
            conn.execute("SET jit = off")
        try:
            fig = measure(_runner(conn, statement, (OUT, *TRAIN_AGAIN)), reps, budget, base)
        finally:
            conn.execute("RESET jit")
        result["figures"].append(_row(figure, fig))
        print(f"  {case.name:22s} {figure[:60]:60s} {fig.median * 1000:9.1f} ms  {fig.ratio:.2f}x", flush=True)
    for figure, statement, against in case.against:
        if against.startswith("TRAIN+PREP:"):
            name = against.split(":", 1)[1]
            train, view = _runner(conn, _train_sql(name, *TRAIN_AGAIN), TRAIN_AGAIN), _runner(conn, "SELECT * FROM bench_floor_prep_view")

            def both(train: Callable[[], float] = train, view: Callable[[], float] = view) -> float:
                return train() + view()

            fig = measure(_runner(conn, statement), reps, budget, both)
        else:
            fig = measure(_runner(conn, statement, (OUT, *TRAIN_AGAIN)), reps, budget, _runner(conn, against, ()))
        result["against"].append(_row(figure, fig))
        print(f"  {case.name:22s} {figure[:60]:60s} {fig.median * 1000:9.1f} ms  {fig.ratio:.2f}x", flush=True)
    if case.parts or case.explain:
        conn.execute("SET jit = off")
        conn.execute("SET max_parallel_workers_per_gather = 0")
        try:
            for part, statement in case.parts:
                fig = measure(_runner(conn, statement), reps, budget, base)
                result["parts"].append(_row(part, fig))
                print(f"  {case.name:22s} part {part[:55]:55s} {fig.median * 1000:9.1f} ms  {fig.ratio:.2f}x", flush=True)
            for what, statement in case.explain:
                conn.execute(f"DROP TABLE IF EXISTS {OUT}")
                plan = "\n".join(r[0] for r in conn.execute(f"EXPLAIN (ANALYZE, BUFFERS) {statement}"))
                result["explain"].append({"what": what, "plan": _short_plan(plan)})
        finally:
            conn.execute("RESET jit")
            conn.execute("RESET max_parallel_workers_per_gather")
    conn.execute(f"DROP TABLE IF EXISTS {OUT}")
    return result


def _short_plan(plan: str, width: int = 220) -> str:
    """The plan with each line cut at ``width`` characters (the inlined model's constants make lines kilobytes long)."""
    return "\n".join(line if len(line) <= width else line[:width] + " …" for line in plan.splitlines())


def _row(name: str, fig: Figure) -> dict[str, Any]:
    return {"name": name, "median_s": fig.median, "runs_s": fig.runs, "ratio": fig.ratio,
            "against_median_s": sorted(fig.base_runs)[len(fig.base_runs) // 2] if fig.base_runs else None}


def markdown(results: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    L = [
        "# madnb benchmark: issue 19's unmet figures beside their floors",
        "",
        f"Command: `python -m bench.floors`. Date: {meta['date']}. PostgreSQL {meta['server_version']}, {meta['nproc']} cores, "
        f"`LocalCluster(fast=True)`. Load before: {meta['load_before']}; after: {meta['load_after']}.",
        "",
        "Each ratio is the median of per-pair ratios (each timed run after a run of what it is measured against). "
        "*As in make bench*: parallel workers and JIT at their defaults (a figure marked jit off: with `jit = off`). *By parts*: one process, jit off; the floor is the "
        "hand-written SQL of the same work with the model's numbers as constants (bench/floors.py).",
    ]
    for r in results:
        L += ["", f"## {r['title']}", "", f"Target: ≤ {r['target']}× the baseline. Measured {r.get('date', meta['date'])}.", ""]
        rows = [("as in make bench", x) for x in r["figures"]] + [("against", x) for x in r["against"]] + [("by parts", x) for x in r["parts"]]
        L += ["| how | figure | median | × |", "|---|---|---:|---:|"]
        L += [f"| {how} | {x['name']} | {x['median_s'] * 1000:.0f} ms | {x['ratio']:.2f}× |" for how, x in rows]
        parts = r["parts"]
        if len(parts) >= 2:
            L += ["", f"madnb's statement / the floor, by parts: **{parts[-1]['ratio'] / parts[-2]['ratio']:.2f}×** "
                  f"({parts[-1]['ratio']:.2f}× against {parts[-2]['ratio']:.2f}× the baseline, each paired with its own "
                  "baseline runs)."]
        L += ["", r["why"]]
        for e in r["explain"]:
            L += ["", f"EXPLAIN (ANALYZE, BUFFERS) of {e['what']} (jit off, one process):", "", "```", e["plan"], "```"]
    return "\n".join(L) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.floors", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default=",".join(CASES))
    ap.add_argument("--keep", action="store_true",
                    help="keep the other cases of the earlier floors.json in the results (always with --only a part of the cases)")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        before = uptime()
        budget = Budget(per_figure=90.0, deadline=1800.0)
        results = []
        for case in cases(conn, only):
            results.append(run_case(conn, case, args.runs, budget))
        meta = {
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "server_version": _one(conn, "SHOW server_version"),
            "nproc": os.cpu_count(), "load_before": before, "load_after": uptime(),
        }
    args.out.mkdir(parents=True, exist_ok=True)
    earlier = args.out / "floors.json"
    if (args.keep or only != set(CASES)) and earlier.exists():  # the cases not run now, as they were: none is lost
        ran = {r["case"] for r in results}
        kept = [r for r in json.loads(earlier.read_text())["results"] if r["case"] not in ran]
        order = [c for c in CASES if c in only or any(r["case"].startswith(c) for r in kept)]
        results = sorted(kept + results, key=lambda r: next(i for i, c in enumerate(order) if r["case"].startswith(c)))
    (args.out / "floors.json").write_text(json.dumps({"meta": meta, "results": results}, indent=1) + "\n")
    (args.out / "floors.md").write_text(markdown(results, meta))
    print(markdown(results, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())

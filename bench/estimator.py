"""madnb.NaiveBayes from Python against the same SQL calls, and against scikit-learn fed from the same table.

On UCI Adult (../shared/data: 32,561 training rows, 16,281 test rows, 13
features as the README's Quick start trains them), in one throwaway cluster,
each timed run of a path right after a run of the SQL path (timing.measure: the
ratio is the median of the per-pair ratios):

* (a) SQL: ``SELECT madnb.train(...)`` and ``SELECT <model>_predict_proba_array(t)
  FROM adult_test AS t ORDER BY t.id`` over psycopg (binary), into a numpy array;
* (b) ``NaiveBayes(conn, name, replace=True).fit("adult", "income", exclude=...)``
  and ``.predict_proba("adult_test", key="id")``: the same two statements, and the
  catalog reads the estimator makes (its classes, features and their types);
* (b') the same, ``predict_proba("adult_test")`` without a key (the table's
  physical order: ``ORDER BY t.ctid``);
* (c) scikit-learn fed from the same tables (the export path): fetch both
  tables' rows with psycopg (binary), encode (OrdinalEncoder on the categorical
  columns, missing values a category of their own; floats), fit CategoricalNB(alpha=1)
  + GaussianNB (their joint log-likelihoods added, one log prior taken off),
  predict_proba on the test rows.

    python -m bench.estimator [--runs 5]     # writes bench/results/estimator.md
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

import madnb
from madnb._cluster import LocalCluster

from .timing import Budget, measure, pairs, write_page

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "bench" / "results" / "estimator.md"
TARGET = 1.1
COLUMNS = (
    "age int, workclass text, fnlwgt int, education text, education_num int, marital_status text, occupation text, "
    "relationship text, race text, sex text, capital_gain int, capital_loss int, hours_per_week int, "
    "native_country text, income text"
)
CATEGORICAL = ["workclass", "education", "marital_status", "occupation", "relationship", "race", "sex", "native_country"]
NUMERIC = ["age", "education_num", "capital_gain", "capital_loss", "hours_per_week"]
EXCLUDE = ["fnlwgt", "id"]


def load(conn: psycopg.Connection[Any]) -> None:
    for table, name in (("adult", "adult_train.csv"), ("adult_test", "adult_test.csv")):
        conn.execute(f"CREATE TABLE {table} ({COLUMNS})")
        with conn.cursor().copy(f"COPY {table} FROM STDIN WITH (FORMAT csv, HEADER, NULL '?')") as copy:
            copy.write((DATA / name).read_bytes())
        conn.execute(f"ALTER TABLE {table} ADD COLUMN id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
        conn.execute(f"VACUUM ANALYZE {table}")


def sql_path(conn: psycopg.Connection[Any]) -> tuple[float, np.ndarray]:
    t0 = time.perf_counter()
    conn.execute("SELECT madnb.train('adult_sql', 'adult', 'income', exclude => %s, replace => true)", [EXCLUDE])
    rows = conn.cursor(binary=True).execute(
        "SELECT madnb_models.adult_sql_predict_proba_array(t) FROM adult_test AS t ORDER BY t.id").fetchall()
    proba = np.array([r[0] for r in rows], dtype=np.float64)
    return time.perf_counter() - t0, proba


def estimator_path(conn: psycopg.Connection[Any], key: str | None) -> tuple[float, np.ndarray]:
    t0 = time.perf_counter()
    nb = madnb.NaiveBayes(conn, "adult_py", replace=True).fit("adult", "income", exclude=EXCLUDE)
    proba = nb.predict_proba("adult_test", key=key)
    return time.perf_counter() - t0, proba


def extra_statements(conn: psycopg.Connection[Any]) -> float:
    """The estimator's own statements beside the two of (a): the catalog reads after fit, the sources' lookups."""
    from madnb._sources import relation
    from madnb.estimator import read_model, session

    t0 = time.perf_counter()
    with session(conn) as c, relation(c, "adult"):
        read_model(c, "adult_py")
    with session(conn) as c, relation(c, "adult_test", key="id"):
        pass
    return time.perf_counter() - t0


def sklearn_path(conn: psycopg.Connection[Any]) -> tuple[float, np.ndarray]:
    from sklearn.naive_bayes import CategoricalNB, GaussianNB
    from sklearn.preprocessing import OrdinalEncoder

    t0 = time.perf_counter()
    query = f"SELECT {', '.join(CATEGORICAL + NUMERIC)}, income FROM {{}} ORDER BY id"
    train = conn.cursor(binary=True).execute(query.format("adult")).fetchall()
    test = conn.cursor(binary=True).execute(query.format("adult_test")).fetchall()
    k = len(CATEGORICAL)

    def split(rows: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        cat = np.array([["\0" if v is None else v for v in r[:k]] for r in rows], dtype=object)  # missing: a category
        num = np.array([r[k:-1] for r in rows], dtype=np.float64)
        return cat, num, np.array([r[-1] for r in rows], dtype=object)

    cat, num, y = split(train)
    cat_t, num_t, _ = split(test)
    enc = OrdinalEncoder().fit(np.vstack([cat, cat_t]))  # every value of both tables: a category
    sizes = [len(c) for c in enc.categories_]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cnb = CategoricalNB(alpha=1.0, min_categories=sizes).fit(enc.transform(cat), y)
        gnb = GaussianNB().fit(num, y)
        jll = cnb.predict_joint_log_proba(enc.transform(cat_t)) + gnb.predict_joint_log_proba(num_t) - cnb.class_log_prior_
    jll -= jll.max(axis=1, keepdims=True)
    proba = np.exp(jll)
    proba /= proba.sum(axis=1, keepdims=True)
    return time.perf_counter() - t0, proba


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.estimator", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        load(conn)
        load_before = os.getloadavg()
        want = sql_path(conn)[1]

        def timed(path: Any) -> Any:
            return lambda: path()[0]

        budget = Budget(per_figure=300.0, deadline=1200.0)
        a_runs: list[float] = []

        def sql_run() -> float:
            seconds = sql_path(conn)[0]
            a_runs.append(seconds)
            return seconds

        fig_b = measure(timed(lambda: estimator_path(conn, "id")), args.runs, budget, baseline=sql_run)
        fig_b2 = measure(timed(lambda: estimator_path(conn, None)), args.runs, budget, baseline=sql_run)
        fig_c = measure(timed(lambda: sklearn_path(conn)), args.runs, budget, baseline=sql_run)
        extra = sorted(extra_statements(conn) for _ in range(31))[15]
        same_b = float(np.abs(estimator_path(conn, "id")[1] - want).max())
        same_c = float(np.abs(sklearn_path(conn)[1] - want).max())
        load_after = os.getloadavg()
    a_median = sorted(a_runs)[len(a_runs) // 2]
    lines = [
        "# madnb.NaiveBayes: fit + predict_proba on adult",
        "",
        "`python -m bench.estimator` (bench/estimator.py's docstring says what each path does): UCI Adult, 32,561 "
        "training rows, 16,281 test rows, 13 features; one throwaway cluster; each run paired with a run of (a).",
        "",
        "| path | median | runs | / (a), median of per-pair ratios |",
        "|---|---:|---:|---:|",
        f"| (a) SQL: madnb.train + `<model>_predict_proba_array(t) ... ORDER BY t.id` into numpy | {a_median:.3f} s | {len(a_runs)} | 1 |",
        f"| (b) NaiveBayes.fit + predict_proba(key=\"id\") | {fig_b.median:.3f} s | {len(fig_b.runs)} | {fig_b.ratio:.3f}x |",
        f"| (b') NaiveBayes.fit + predict_proba() (physical order) | {fig_b2.median:.3f} s | {len(fig_b2.runs)} | {fig_b2.ratio:.3f}x |",
        f"| (c) scikit-learn fed from the tables: fetch, encode, fit, predict_proba | {fig_c.median:.3f} s | {len(fig_c.runs)} | {fig_c.ratio:.3f}x |",
        "",
        f"Target for (b) / (a): <= {TARGET}x. Pairs (b)/(a): {pairs(fig_b)}.",
        f"The estimator's own statements beside (a)'s two (the catalog reads after fit, the sources' lookups), timed alone: "
        f"median {extra * 1000:.1f} ms of 31, {extra / a_median:.3f} of (a)'s median: (a + them) / a = {(a_median + extra) / a_median:.3f}x.",
        f"Largest difference of the probabilities from (a): (b) {same_b:.1e}, (c) {same_c:.1e} "
        "((c) is a model of the same kind, not the same numbers: a missing value is a category of its own where madnb "
        "skips it, the categories are both tables' values where madnb smooths over the training values seen, and "
        "GaussianNB's variance is the population one plus var_smoothing; it is timed as the export path's cost).",
    ]
    return write_page(RESULTS, lines, load_before, load_after)


if __name__ == "__main__":
    sys.exit(main())

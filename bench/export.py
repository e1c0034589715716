"""The path madnb competes with: export the rows, fit scikit-learn, copy predictions back.

* fetch: ``SELECT id, class, attributes`` over a binary cursor, into numpy arrays;
* fit and predict on the same rows: ``CategoricalNB(alpha=1)`` for categorical
  attributes, ``GaussianNB()`` for numeric ones; for mixed data one of each on its
  columns, combined as one naive Bayes model (the sum of both joint
  log-likelihoods minus one copy of the log prior, which both include);
* copy: ``CREATE TABLE`` and ``COPY (id, prediction) FROM STDIN``.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import sql

from .datagen import Dataset

PARTS = ("fetch", "fit", "predict", "copy")


@dataclass
class ExportRun:
    parts: dict[str, float]
    total: float
    ids: np.ndarray
    predictions: np.ndarray
    labels: np.ndarray


def _fetch(conn: Any, d: Dataset) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    with conn.cursor(binary=True) as cur:
        cur.execute(sql.SQL("SELECT id, class, attributes FROM {}").format(sql.Identifier(d.name)))
        rows = cur.fetchall()
    n = len(rows)
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=n)
    y = np.fromiter((r[1] for r in rows), dtype=np.int64, count=n)
    X = np.array([r[2] for r in rows], dtype=np.float64 if d.kind in ("num", "mixed") else np.int64)
    return ids, y, X


class _MixedNB:
    """CategoricalNB on the categorical columns + GaussianNB on the numeric ones."""

    def __init__(self, numeric: tuple[int, ...], num_attrs: int) -> None:
        from sklearn.naive_bayes import CategoricalNB, GaussianNB

        self.num_cols = [i - 1 for i in numeric]
        self.cat_cols = [i for i in range(num_attrs) if i not in self.num_cols]
        self.cat, self.gauss = CategoricalNB(alpha=1.0), GaussianNB()

    def fit(self, X: np.ndarray, y: np.ndarray) -> _MixedNB:
        self.cat.fit(X[:, self.cat_cols].astype(np.int64), y)
        self.gauss.fit(X[:, self.num_cols], y)
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        jll = (
            self.cat.predict_joint_log_proba(X[:, self.cat_cols].astype(np.int64))
            + self.gauss.predict_joint_log_proba(X[:, self.num_cols])
            - self.cat.class_log_prior_
        )
        return self.cat.classes_[np.argmax(jll, axis=1)]


def _model(d: Dataset) -> Any:
    from sklearn.naive_bayes import CategoricalNB, GaussianNB

    if d.kind == "num":
        return GaussianNB()
    if d.kind == "mixed":
        return _MixedNB(d.numeric, d.num_attrs)
    return CategoricalNB(alpha=1.0)


def model_description(d: Dataset) -> str:
    return {
        "num": "GaussianNB()",
        "mixed": "CategoricalNB(alpha=1) on the 10 categorical columns + GaussianNB() on the 5 numeric ones, joint log-likelihoods added",
    }.get(d.kind, "CategoricalNB(alpha=1)")


def export_run(conn: Any, d: Dataset, dest: str) -> ExportRun:
    """One timed export path; ``dest`` (id, prediction) must not exist."""
    parts: dict[str, float] = {}
    t0 = time.perf_counter()
    ids, y, X = _fetch(conn, d)
    t1 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = _model(d).fit(X, y)
        t2 = time.perf_counter()
        pred = model.predict(X)
    t3 = time.perf_counter()
    buf = "".join(f"{i}\t{p}\n" for i, p in zip(ids.tolist(), pred.tolist()))
    conn.execute(sql.SQL("CREATE TABLE {} (id integer, prediction integer)").format(sql.Identifier(dest)))
    with conn.cursor() as cur:
        with cur.copy(sql.SQL("COPY {} (id, prediction) FROM STDIN").format(sql.Identifier(dest))) as cp:
            cp.write(buf)
    t4 = time.perf_counter()
    parts = {"fetch": t1 - t0, "fit": t2 - t1, "predict": t3 - t2, "copy": t4 - t3}
    return ExportRun(parts, t4 - t0, ids, pred, y)

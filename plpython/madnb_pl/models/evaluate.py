"""madnb.evaluate: a named model's metrics on a labelled table, computed in the database.

One query scores each labelled row of the source once and aggregates: per row
the model's probabilities (``madnb_models.<m>_predict_proba_array``, the one call
of the model) and the predicted class read off them (:func:`predicted_class_sql`:
exactly what ``<m>_predict`` returns), grouped into a few small rows (confusion
cells, the log-loss sums, for two classes the ROC AUC's rank sums).  The per-class
arithmetic on those rows is done here.  The scan runs in parallel workers
(:func:`run_aggregate`).

The metrics are scikit-learn's, named as its metric functions, with
``labels = madnb.model_classes(m)`` where scikit-learn takes labels:

* rows whose label is NULL are skipped;
* a label that is not one of the model's classes is a wrong prediction: it counts
  in ``accuracy``'s denominator, as a false positive of the predicted class in
  ``precision``, and, as scikit-learn's ``balanced_accuracy_score`` does, as one
  more class with recall 0 in ``balanced_accuracy``; it has no row in
  ``confusion_matrix`` and no part in ``support``, ``log_loss`` and ``roc_auc``
  (it has no probability); ``unknown_label_rows`` counts those rows;
* a zero division (precision of a class never predicted, recall of a class absent)
  gives 0, as scikit-learn's default ``zero_division``;
* ``log_loss`` clips probabilities to [eps, 1 - eps], eps = 2**-52 (float8's
  machine epsilon, as scikit-learn >= 1.5 does for float64);
* ``roc_auc`` (two classes only): the positive class is the second of
  ``model_classes`` and the score its probability.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import ModelName, resolve_column, resolve_relation
from ..core.sql import F8, Plpy, Sql, quote_ident, setting, temp_name, text_sql, type_is_builtin
from .catalog import ModelObjects, model_name, require

EPS = sys.float_info.epsilon  # 2**-52, numpy.finfo(float64).eps
CLEAR_MARGIN = 0.01
"""A row's predicted class is read off its probabilities when every other class's is below
(1 - CLEAR_MARGIN) times the largest (see :func:`predicted_class_sql`)."""
PARAMETER_TYPES = ["pg_catalog.text[]", F8]
"""The parameters of an :func:`aggregate_sql` query: the model's classes as text, log-loss's clipping eps."""


def margin_sql(k: int, pr: str) -> str:
    """The largest of ``k`` probabilities ``pr`` (a float8[]) times 1 - :data:`CLEAR_MARGIN`: the ``m`` of
    :func:`predicted_class_sql`."""
    if k == 0:
        return f"NULL::{F8}"
    return f"GREATEST({', '.join(f'{pr}[{i}]' for i in range(1, k + 1))}) OPERATOR(pg_catalog.*) {1 - CLEAR_MARGIN!r}::{F8}"


def predicted_class_sql(k: int, pr: str, m: str, exact: str) -> str:
    """The predicted class's position from a row's probabilities ``pr`` (float8[] of ``k``): ``<m>_predict``'s.

    ``m`` is the largest probability times 1 - :data:`CLEAR_MARGIN` (computed once
    per row a level below) and ``exact`` the position of the model's own
    ``<m>_predict`` of the row.  When exactly one class's probability reaches ``m``,
    that class is the one ``<m>_predict`` returns: its arg-max (``madnb._nb_best``)
    takes the first class whose log-likelihood is within 1e-12 * max(1, |best|)
    of the best, and another class below (1 - CLEAR_MARGIN) times the best probability
    is more than CLEAR_MARGIN below it in log-likelihood, which exceeds that tolerance
    for any best log-likelihood above -CLEAR_MARGIN / 1e-12 = -1e10 (1e-12:
    :data:`madnb_pl.scoring.common.TIE_TOLERANCE`).  Otherwise
    (a tie or a near one, NaN) the row's class is ``exact``: the model is evaluated
    again for those rows only (CASE evaluates its ELSE branch only for them).
    """
    if k == 0:
        return "NULL::pg_catalog.int4"
    reach = [f"{pr}[{i}] OPERATOR(pg_catalog.>=) {m}" for i in range(1, k + 1)]
    count = " OPERATOR(pg_catalog.+) ".join(f"CASE WHEN {r} THEN 1 ELSE 0 END" for r in reach)
    first = "CASE " + " ".join(f"WHEN {r} THEN {i}" for i, r in enumerate(reach[:-1], start=1)) + f" ELSE {k} END" if k > 1 else "1"
    return f"CASE WHEN ({count}) OPERATOR(pg_catalog.=) 1 THEN {first} ELSE {exact} END"


def evaluate_sql(
    name: ModelName, source: Sql, label: str, label_type: str, k: int, model_builtin: bool = True,
    source_builtin: bool = True,
) -> Sql:
    """The one query (:func:`aggregate_sql` of each labelled row's scores), for a model of ``k`` classes.

    ``label_type`` is the catalog's label_type: format_type's text, written by
    madnb.train under the pinned search_path (as the generated functions use it).
    Labels compare in the label's type when it and the source column's type are
    PostgreSQL's own (``*_builtin``); otherwise as their texts
    (:func:`madnb_pl.core.sql.text_sql`): a cast to or from an enum could be its owner's.

    Three levels, each kept apart by OFFSET 0 so that a value computed in one is
    computed once, however often the next names it: the scan (each row's label,
    probabilities -- the model's one call -- and the row itself, for the rows whose
    class needs ``<m>_predict``), the largest probability, and the predicted class
    (:func:`predicted_class_sql`).  The scan is the query's only costly part and
    runs in parallel workers; the levels above it, and the grouping, run in the
    leader (PostgreSQL 15 keeps what is above a sub-select out of the workers): a few
    comparisons per row, and ``<m>_predict`` for the rows near a tie.
    """
    pred, _proba_jsonb, proba = (n.sql for n in ModelObjects.of(name).predict_functions)
    lbl = quote_ident(label)
    if model_builtin and source_builtin:
        classes, y, h = f"$1::pg_catalog.text[]::{label_type}[]", f"s.{lbl}::{label_type}", f"{pred}(q.w)"
    else:
        classes, y, h = "$1::pg_catalog.text[]", text_sql(f"s.{lbl}", source_builtin), text_sql(f"{pred}(q.w)", model_builtin)
    largest = margin_sql(k, "p.pr")
    best = predicted_class_sql(k, "q.pr", "q.m", f"pg_catalog.array_position({classes}, {h})")
    return aggregate_sql(f"""
  SELECT 1 AS g, q.t, {best} AS h, q.y, q.pr
  FROM (SELECT p.t, p.y, p.pr, p.w, {largest} AS m
        FROM (SELECT pg_catalog.array_position({classes}, {y}) AS t, {y} AS y, {proba}(s.*) AS pr, (s.*)::{source} AS w
              FROM {source} AS s
              WHERE s.{lbl} IS NOT NULL OFFSET 0) AS p OFFSET 0) AS q""", k == 2)


def aggregate_sql(r: str, two_classes: bool) -> Sql:
    """The metrics' aggregates of the rows of query ``r``, per group: (what, g, t, h, a, b, c, f) rows.

    ``r`` yields per labelled row: g (the group: 1 for madnb.evaluate, the fold
    for cross-validation), t and h (the true and the predicted class's position
    in the classes, t NULL for a label that is not a class), y (the label) and
    pr (the probabilities in the classes' order); $2 is log-loss's clipping eps.
    :func:`read_metrics` reads the result.

    ``r``'s rows are read once (an OFFSET 0 sub-select: each of its columns is
    computed once however often it is named here) and grouped at once into c: one
    row per (g, t, h), with the labels that are not classes apart (for their count)
    and, for two classes, the score apart (for the AUC), holding the rows' count
    and their log-loss sum.  Everything else aggregates c, a few rows (for the
    AUC one per distinct score).
    """
    score = "CASE WHEN r.t IS NOT NULL THEN r.pr[2] END AS score, " if two_classes else ""
    auc = ""
    if two_classes:
        # sum over positives of (negatives scored lower + half the negatives scored equal), times 2
        auc = """
UNION ALL
SELECT 'auc', g.g, NULL, NULL, pg_catalog.sum(g.pos), pg_catalog.sum(g.neg),
       pg_catalog.sum(g.pos OPERATOR(pg_catalog.*) (2 OPERATOR(pg_catalog.*) g.below OPERATOR(pg_catalog.+) g.neg)), NULL
FROM (SELECT q.g, q.pos, q.neg,
             COALESCE(pg_catalog.sum(q.neg) OVER (PARTITION BY q.g ORDER BY q.score
                                                  ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS below
      FROM (SELECT c.g, c.score,
                   COALESCE(pg_catalog.sum(c.n) FILTER (WHERE c.t OPERATOR(pg_catalog.=) 2), 0) AS pos,
                   COALESCE(pg_catalog.sum(c.n) FILTER (WHERE c.t OPERATOR(pg_catalog.=) 1), 0) AS neg
            FROM c WHERE c.t IS NOT NULL GROUP BY c.g, c.score) AS q) AS g
GROUP BY g.g"""
    return Sql(f"""WITH c AS MATERIALIZED (
  SELECT r.g, r.t, r.h, CASE WHEN r.t IS NULL THEN r.y END AS u, {score}pg_catalog.count(*) AS n,
         pg_catalog.sum(OPERATOR(pg_catalog.-) pg_catalog.ln(GREATEST(LEAST(r.pr[r.t], 1::{F8} OPERATOR(pg_catalog.-) $2), $2))) AS loss
  FROM (SELECT * FROM ({r}) AS r OFFSET 0) AS r
  GROUP BY {', '.join(str(i) for i in range(1, 6 if two_classes else 5))})
SELECT 'cell' AS what, c.g, c.t, c.h, pg_catalog.sum(c.n) AS a, NULL::pg_catalog.numeric AS b,
       NULL::pg_catalog.numeric AS c, NULL::{F8} AS f
FROM c GROUP BY c.g, c.t, c.h
UNION ALL
SELECT 'unknown', c.g, NULL, NULL, pg_catalog.count(DISTINCT c.u)::pg_catalog.numeric, NULL, NULL, NULL FROM c
WHERE c.t IS NULL GROUP BY c.g
UNION ALL
SELECT 'log_loss', c.g, NULL, NULL, pg_catalog.sum(c.n), NULL, NULL, pg_catalog.sum(c.loss)
FROM c WHERE c.t IS NOT NULL GROUP BY c.g{auc}""")


def run_aggregate(plpy: Plpy, query: Sql, classes: list[str]) -> Any:
    """The rows of :func:`aggregate_sql` query ``query`` ($1 ``classes``, $2 :data:`EPS`), scanning in parallel.

    PostgreSQL never runs a statement PL/Python prepared with parameters in parallel
    workers, but it plans the query of a CREATE TABLE AS afresh, and may: so the few
    result rows go into a temporary table of this call (dropped here, and at commit),
    read back.  Where the transaction may not create one (read-only, a hot standby,
    no TEMPORARY privilege) the query runs as a prepared SELECT, in the one backend.

    jit = off for the statement (then the caller's setting again): its expression
    holds the model twice (the probabilities, and ``<m>_predict`` for the rows near
    a tie), and compiling that in every process costs more than it saves
    (on issue 19's table, paired runs: 1.37x one batch probability pass with jit,
    1.01x without), as for cross-validation's scoring query.
    """
    can = plpy.execute(Sql(
        "SELECT NOT pg_catalog.current_setting('transaction_read_only')::pg_catalog.bool "
        "AND pg_catalog.has_database_privilege(pg_catalog.current_database(), 'TEMPORARY') AS ok"
    ))[0]["ok"]
    with setting(plpy, "jit", "off"):
        if not can:
            return plpy.execute(plpy.prepare(query, PARAMETER_TYPES), [classes, EPS])
        into = temp_name("madnb_metrics_")
        plpy.execute(plpy.prepare(Sql(f"CREATE TEMPORARY TABLE {into} ON COMMIT DROP AS {query}"), PARAMETER_TYPES), [classes, EPS])
        rows = plpy.execute(Sql(f"SELECT * FROM {into}"))
        plpy.execute(Sql(f"DROP TABLE {into}"))
        return rows


def read_metrics(classes: list[str], result: Any) -> dict[int, dict[str, Any]]:
    """Per group g, the :func:`metrics` of the rows of :func:`aggregate_sql` (groups without rows are absent)."""
    cells: dict[int, dict[tuple[int | None, int], int]] = {}
    unknown_labels: dict[int, int] = {}
    log_loss: dict[int, float] = {}
    auc: dict[int, tuple[int, int, int]] = {}
    for r in result:
        g = int(r["g"])
        if r["what"] == "cell":
            cells.setdefault(g, {})[(r["t"], r["h"])] = int(r["a"])
        elif r["what"] == "unknown":
            unknown_labels[g] = int(r["a"])
        elif r["what"] == "log_loss":
            if int(r["a"]):
                log_loss[g] = float(r["f"]) / int(r["a"])
        elif r["a"] is not None:
            auc[g] = (int(r["a"]), int(r["b"]), int(r["c"]))
    return {
        g: metrics(classes, c, unknown_labels.get(g, 0), log_loss.get(g), auc.get(g))
        for g, c in sorted(cells.items())
    }


def _div(a: float, b: float) -> float:
    return a / b if b else 0.0


def metrics(classes: list[str], cells: dict[tuple[int | None, int], int], unknown_labels: int,
            log_loss: float | None, auc: tuple[int, int, int] | None) -> dict[str, Any]:
    """The metrics from the aggregated rows (class positions 1-based; t None = a label not among the classes)."""
    k = len(classes)
    cm = [[cells.get((i, j), 0) for j in range(1, k + 1)] for i in range(1, k + 1)]
    rows = sum(cells.values())
    unknown_rows = sum(n for (t, _h), n in cells.items() if t is None)
    predicted = [sum(n for (_t, h), n in cells.items() if h == j) for j in range(1, k + 1)]
    support = [sum(cm[i]) for i in range(k)]
    tp = [cm[i][i] for i in range(k)]
    precision = [_div(tp[i], predicted[i]) for i in range(k)]
    recall = [_div(tp[i], support[i]) for i in range(k)]
    # scikit-learn >= 1.3: F = 2 tp / (2 tp + fp + fn), 0 when that is 0/0
    f1 = [_div(2 * tp[i], 2 * tp[i] + (predicted[i] - tp[i]) + (support[i] - tp[i])) for i in range(k)]
    known = sum(support)
    present = [recall[i] for i in range(k) if support[i] > 0] + [0.0] * unknown_labels

    def averages(per_class: list[float]) -> tuple[float, float]:
        return sum(per_class) / k, _div(sum(v * s for v, s in zip(per_class, support, strict=True)), known)

    macro, weighted = zip(averages(precision), averages(recall), averages(f1), strict=True)
    roc_auc = None
    if auc is not None and auc[0] > 0 and auc[1] > 0:
        roc_auc = auc[2] / (2 * auc[0] * auc[1])
    return {
        "classes": classes,
        "rows": rows,
        "unknown_label_rows": unknown_rows,
        "accuracy": sum(tp) / rows,
        "balanced_accuracy": sum(present) / len(present),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "support": support,
        "macro_avg": {"precision": macro[0], "recall": macro[1], "f1": macro[2]},
        "weighted_avg": {"precision": weighted[0], "recall": weighted[1], "f1": weighted[2]},
        "confusion_matrix": cm,
        "log_loss": log_loss,
        "roc_auc": roc_auc,
        "positive_class": classes[1] if k == 2 else None,
    }


@entry_point
def evaluate(plpy: Plpy, model: str | None, source: str | None, label: str | None = None) -> str:
    """Metrics of model ``model`` on the labelled rows of ``source`` (jsonb text; see the module docstring)."""
    name = model_name(model)
    model_row = require(plpy, name)
    rel = resolve_relation(plpy, source, "source")
    col = resolve_column(plpy, rel, quote_ident(model_row.label) if label is None else label, "label")  # the catalog holds the bare name
    classes = model_row.classes
    sql = evaluate_sql(
        name, rel.sql, col.name, model_row.label_type, len(classes), type_is_builtin(plpy, model_row.label_type),
        type_is_builtin(plpy, col.type_sql),
    )
    by_group = read_metrics(classes, run_aggregate(plpy, sql, classes))
    if not by_group:
        raise MadnbError(
            "22000", f"no labelled rows to evaluate model {name.key} on",
            detail=f'every row of {rel.display} has a NULL "{col.name}" (or there are none)',
            hint="evaluate on a table or view with labelled rows",
        )
    m = by_group[1]
    if m["unknown_label_rows"] == m["rows"]:  # every metric is then 0 (or NULL): most likely the wrong label or table
        shown = ", ".join(classes[:10]) + (", ..." if len(classes) > 10 else "")
        plpy.warning(
            f'no label of {rel.display} is a class of model {name.key}: all {m["rows"]} labelled rows count as wrong predictions',
            detail=f'label "{col.name}"; the model\'s classes: {shown}',
            hint="evaluate on the column the model was trained to predict, with its values written as in training "
            "(madnb.model_classes lists them)",
        )
    return json.dumps(m)


__all__ = [
    "CLEAR_MARGIN", "EPS", "PARAMETER_TYPES", "aggregate_sql", "evaluate", "evaluate_sql", "metrics", "predicted_class_sql",
    "read_metrics", "run_aggregate",
]

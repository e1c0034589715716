"""madnb.evaluate: a named model's metrics on a labelled table, computed in the database.

One query reads the source once (a MATERIALIZED CTE): per row the model's
prediction (``madnb_models.<m>_predict``, so the predicted class is exactly what
users get from it) and its probabilities (``<m>_predict_proba_array``), then
aggregates that CTE into a few small rows (confusion cells, the log-loss sum, the
ROC AUC's rank sum).  The per-class arithmetic on those rows is done here.

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
from ..core.sql import Plpy, Sql, quote_ident, text_sql, type_is_builtin
from .catalog import ModelObjects, model_name, require

EPS = sys.float_info.epsilon  # 2**-52, numpy.finfo(float64).eps


def evaluate_sql(
    name: ModelName, source: Sql, label: str, label_type: str, two_classes: bool, model_builtin: bool = True,
    source_builtin: bool = True,
) -> Sql:
    """The one query: $1 is the model's classes (text[]), $2 the clipping eps.

    ``label_type`` is the catalog's label_type: format_type's text, written by
    madnb.train under the pinned search_path (as the generated functions use it).
    Labels compare in the label's type when it and the source column's type are
    PostgreSQL's own (``*_builtin``); otherwise as their texts
    (:func:`madnb_pl.core.sql.text_sql`): a cast to or from an enum could be its owner's.
    """
    pred, _proba_jsonb, proba = (n.sql for n in ModelObjects.of(name).predict_functions)
    lbl = quote_ident(label)
    if model_builtin and source_builtin:
        classes, y, h = f"$1::pg_catalog.text[]::{label_type}[]", f"s.{lbl}::{label_type}", f"{pred}(s.*)"
    else:
        classes, y, h = "$1::pg_catalog.text[]", text_sql(f"s.{lbl}", source_builtin), text_sql(f"{pred}(s.*)", model_builtin)
    return aggregate_sql(f"""
  SELECT 1 AS g, pg_catalog.array_position({classes}, {y}) AS t,
         pg_catalog.array_position({classes}, {h}) AS h,
         {y} AS y,
         {proba}(s.*) AS pr
  FROM {source} AS s
  WHERE s.{lbl} IS NOT NULL""", two_classes)


def aggregate_sql(r: str, two_classes: bool) -> Sql:
    """The metrics' aggregates of the rows of query ``r``, per group: (what, g, t, h, a, b, c, f) rows.

    ``r`` yields per labelled row: g (the group: 1 for madnb.evaluate, the fold
    for cross-validation), t and h (the true and the predicted class's position
    in the classes, t NULL for a label that is not a class), y (the label) and
    pr (the probabilities in the classes' order); $2 is log-loss's clipping eps.
    :func:`read_metrics` reads the result.
    """
    auc = ""
    if two_classes:
        # sum over positives of (negatives scored lower + half the negatives scored equal), times 2
        auc = """
UNION ALL
SELECT 'auc', g.g, NULL, NULL, pg_catalog.sum(g.pos)::pg_catalog.numeric, pg_catalog.sum(g.neg)::pg_catalog.numeric,
       pg_catalog.sum(g.pos OPERATOR(pg_catalog.*) (2 OPERATOR(pg_catalog.*) g.below OPERATOR(pg_catalog.+) g.neg)), NULL
FROM (SELECT q.g, q.pos::pg_catalog.numeric AS pos, q.neg::pg_catalog.numeric AS neg,
             COALESCE(pg_catalog.sum(q.neg) OVER (PARTITION BY q.g ORDER BY q.score
                                                  ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
               ::pg_catalog.numeric AS below
      FROM (SELECT r.g, r.pr[2] AS score,
                   pg_catalog.count(*) FILTER (WHERE r.t OPERATOR(pg_catalog.=) 2) AS pos,
                   pg_catalog.count(*) FILTER (WHERE r.t OPERATOR(pg_catalog.=) 1) AS neg
            FROM r WHERE r.t IS NOT NULL GROUP BY r.g, r.pr[2]) AS q) AS g
GROUP BY g.g"""
    return Sql(f"""WITH r AS MATERIALIZED ({r})
SELECT 'cell' AS what, r.g, r.t, r.h, pg_catalog.count(*)::pg_catalog.numeric AS a, NULL::pg_catalog.numeric AS b,
       NULL::pg_catalog.numeric AS c, NULL::pg_catalog.float8 AS f
FROM r GROUP BY r.g, r.t, r.h
UNION ALL
SELECT 'unknown', r.g, NULL, NULL, pg_catalog.count(DISTINCT r.y)::pg_catalog.numeric, NULL, NULL, NULL FROM r
WHERE r.t IS NULL GROUP BY r.g
UNION ALL
SELECT 'log_loss', r.g, NULL, NULL, pg_catalog.count(*)::pg_catalog.numeric, NULL, NULL,
       pg_catalog.sum(OPERATOR(pg_catalog.-) pg_catalog.ln(GREATEST(LEAST(r.pr[r.t], 1::pg_catalog.float8 OPERATOR(pg_catalog.-) $2), $2)))
FROM r WHERE r.t IS NOT NULL GROUP BY r.g{auc}""")


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
    col = resolve_column(plpy, rel, model_row.label if label is None else label, "label")
    classes = model_row.classes
    sql = evaluate_sql(
        name, rel.sql, col.name, model_row.label_type, len(classes) == 2, type_is_builtin(plpy, model_row.label_type),
        type_is_builtin(plpy, col.type_sql),
    )
    result = plpy.execute(plpy.prepare(sql, ["pg_catalog.text[]", "pg_catalog.float8"]), [classes, EPS])
    by_group = read_metrics(classes, result)
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


__all__ = ["EPS", "aggregate_sql", "evaluate", "evaluate_sql", "metrics", "read_metrics"]

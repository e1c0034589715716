"""madnb.threshold_curve: a two-class model's precision, recall and cost at every distinct threshold, in one pass.

The positive class is the second of ``madnb.model_classes`` (scikit-learn's
``classes_[1]``) and a row is predicted positive when its probability
(``<m>_predict_proba_array``'s second) is at least the threshold, as
``madnb.decision(threshold => ...)`` decides.  One scan scores each labelled row
once (in parallel workers: :func:`madnb_pl.models.evaluate.run_aggregate`) and
groups the rows by that probability; running sums over the distinct
probabilities, in descending order, give the true and false positives at each
(scikit-learn's ``_binary_clf_curve``).  Rows whose label is NULL, or not one of
the two classes, are left out.  ``precision`` = tp / (tp + fp), ``recall`` = tp /
positives (1 without positives, as ``precision_recall_curve``), ``cost`` the mean
per row of ``costs[true][predicted]`` (default: 0 right, 1 wrong, so the error rate).
"""

from __future__ import annotations

import math
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import resolve_column, resolve_relation
from ..core.sql import Plpy, Sql, quote_ident, type_is_builtin
from . import decisions
from .catalog import ModelObjects, model_name, require
from .evaluate import label_sql, run_aggregate

ZERO_ONE = [[0.0, 1.0], [1.0, 0.0]]
"""The default costs: a wrong prediction costs 1, a right one 0."""


def curve_sql(pred: str, proba: str, source: str, lbl: str, label_type: str, model_builtin: bool, source_builtin: bool) -> Sql:
    """Per distinct positive-class probability: the positives and negatives scored at least that high (tp, fp),
    and all of them (p, n); $1 the classes."""
    classes, y, _ = label_sql(f"{pred}(s.*)", lbl, label_type, model_builtin, source_builtin)
    return Sql(f"""
SELECT g.score, pg_catalog.sum(g.pos) OVER w AS tp, pg_catalog.sum(g.neg) OVER w AS fp,
       pg_catalog.sum(g.pos) OVER () AS p, pg_catalog.sum(g.neg) OVER () AS n
FROM (SELECT q.score, pg_catalog.count(*) FILTER (WHERE q.t OPERATOR(pg_catalog.=) 2) AS pos,
             pg_catalog.count(*) FILTER (WHERE q.t OPERATOR(pg_catalog.=) 1) AS neg
      FROM (SELECT pg_catalog.array_position({classes}, {y}) AS t, ({proba}(s.*))[2] AS score
            FROM {source} AS s WHERE s.{lbl} IS NOT NULL OFFSET 0) AS q
      WHERE q.t IS NOT NULL AND q.score IS NOT NULL GROUP BY q.score) AS g
WINDOW w AS (ORDER BY g.score DESC ROWS UNBOUNDED PRECEDING)""")


def points(rows: Any, costs: list[list[float]]) -> list[dict[str, Any]]:
    """The curve's rows, ascending thresholds, from :func:`curve_sql`'s."""
    out = []
    for r in sorted(rows, key=lambda r: float(r["score"])):
        tp, fp, p, n = (int(r[c]) for c in ("tp", "fp", "p", "n"))
        fn, tn = p - tp, n - fp
        cost = math.fsum((tn * costs[0][0], fp * costs[0][1], fn * costs[1][0], tp * costs[1][1])) / (p + n)
        out.append({
            "threshold": float(r["score"]), "true_positives": tp, "false_positives": fp, "false_negatives": fn,
            "true_negatives": tn, "precision": tp / (tp + fp), "recall": tp / p if p else 1.0, "cost": cost,
        })
    return out


@entry_point
def threshold_curve(plpy: Plpy, model: str | None, source: str | None, label: str | None = None, costs: Any = None) -> list[dict[str, Any]]:
    """madnb.threshold_curve (see the module docstring)."""
    name = model_name(model)
    m = require(plpy, name)
    if len(m.classes) != 2:
        raise MadnbError("22023", f"a threshold curve needs a model of two classes, and model {name.key} has {len(m.classes)}",
                         hint="madnb.evaluate(..., curves => true) gives each class's curves against the rest")
    chosen = decisions.resolve(plpy, m, costs=costs).costs or ZERO_ONE
    rel = resolve_relation(plpy, source, "source")
    col = resolve_column(plpy, rel, quote_ident(m.label) if label is None else label, "label")
    pred, _proba_jsonb, proba = (n.sql for n in ModelObjects.of(name).predict_functions)
    sql = curve_sql(pred, proba, rel.sql, quote_ident(col.name), m.label_type, type_is_builtin(plpy, m.label_type),
                    type_is_builtin(plpy, col.type_sql))
    return points(run_aggregate(plpy, sql, m.classes), chosen)


__all__ = ["ZERO_ONE", "curve_sql", "points", "threshold_curve"]

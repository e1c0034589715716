"""madnb.feature_importance: each feature's mean contribution over a table's rows, from the model's explanations.

One SELECT over the source: every row is explained once by ``madnb_models.<m>_explain`` (its row form,
inlined into the scan), and the predicted class's contributions are aggregated per feature:

* ``mean_abs_contribution``: the mean over the explained rows of |contribution of the feature to the
  predicted class's log-score|;
* ``mean_contribution``: the same without the absolute value;
* ``mean_abs_against_runner_up``: the mean of |contribution to the predicted class - contribution to the
  runner-up| (what moved the decision; 0 for a model of one class);
* ``rows``: the rows explained (a row with no explanation -- a NULL or malformed vector -- is left out).

A feature absent from a row's explanation (a missing value adds 0 and is listed; a vector kind's sub-select
form lists only non-zero elements) counts as 0 in that row.  Largest ``mean_abs_contribution`` first.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import resolve_relation
from ..core.sql import F8, Plpy, Sql
from .catalog import ModelObjects, model_name, require


def importance_sql(explain: str, source: str) -> Sql:
    """The one SELECT over ``source`` (a relation's SQL) with model function ``explain`` (its SQL name)."""

    def number(v: str) -> str:  # a jsonb number, or the string of an infinite one ("-Infinity"), as float8
        return f"({v} OPERATOR(pg_catalog.#>>) '{{}}'::pg_catalog.text[])::{F8}"

    def contributions(who: str) -> str:  # the contributions to the class the explanation names under ``who``
        return (f"(q.x OPERATOR(pg_catalog.->) 'classes' OPERATOR(pg_catalog.->) (q.x OPERATOR(pg_catalog.->>) '{who}') "
                "OPERATOR(pg_catalog.->) 'contributions')")

    c = number("c.value")
    runner = number(f"({contributions('runner_up')} OPERATOR(pg_catalog.->) c.key)")
    return Sql(
        "SELECT c.key AS feature, "
        f"pg_catalog.sum(pg_catalog.abs({c})) OPERATOR(pg_catalog./) q.n::{F8} AS mean_abs_contribution, "
        f"pg_catalog.sum({c}) OPERATOR(pg_catalog./) q.n::{F8} AS mean_contribution, "
        # the runner-up's contribution of the same feature (none with one class)
        f"COALESCE(pg_catalog.sum(pg_catalog.abs({c} OPERATOR(pg_catalog.-) {runner})), 0) "
        f"OPERATOR(pg_catalog./) q.n::{F8} AS mean_abs_against_runner_up, "
        "q.n AS rows "
        "FROM (SELECT e.x, pg_catalog.count(*) OVER () AS n "
        f"FROM (SELECT {explain}(t) AS x FROM {source} AS t) AS e WHERE e.x IS NOT NULL "
        "AND (e.x OPERATOR(pg_catalog.->>) 'predicted') IS NOT NULL) AS q "
        f"CROSS JOIN LATERAL pg_catalog.jsonb_each({contributions('predicted')}) AS c "
        "GROUP BY c.key, q.n ORDER BY 2 DESC, 1"
    )


@entry_point
def feature_importance(plpy: Plpy, model: str | None, source: str | None) -> list[dict[str, Any]]:
    """Per feature of model ``model``, its mean contributions over the rows of ``source`` (see the module docstring)."""
    name = model_name(model)
    require(plpy, name)
    rel = resolve_relation(plpy, source, "source")
    explain = ModelObjects.of(name).explain_functions.explain
    found = plpy.execute(plpy.prepare(
        Sql("SELECT pg_catalog.to_regprocedure($1 OPERATOR(pg_catalog.||) '(pg_catalog.anyelement)') IS NOT NULL AS e"), ["pg_catalog.text"],
    ), [str(explain.sql)])[0]["e"]
    if not found:  # a model trained before madnb wrote explanations
        raise MadnbError(
            "42883", f'model "{name.key}" has no explanation function',
            detail=f"{explain.display}(anyelement) does not exist: the model was trained by an older madnb",
            hint="re-train it with replace => true",
        )
    rows = plpy.execute(importance_sql(str(explain.sql), str(rel.sql)))
    return [dict(r) for r in rows]


__all__ = ["feature_importance", "importance_sql"]

"""madnb.feature_importance: each feature's mean contribution over a table's rows, from the model's explanations.

Per feature, over the rows of the source that have an explanation (a row with none -- a NULL or malformed
vector -- is left out):

* ``mean_abs_contribution``: the mean of |contribution of the feature to the predicted class's log-score|;
* ``mean_contribution``: the same without the absolute value;
* ``mean_abs_against_runner_up``: the mean of |contribution to the predicted class - contribution to the
  runner-up| (what moved the decision; 0 for a model of one class);
* ``rows``: the rows explained.

Largest ``mean_abs_contribution`` first.  One SELECT over the source (:func:`terms_sql`): per row, the
classes' terms as float8 -- the kind's :meth:`~madnb_pl.models.kinds.base.Kind.explain_terms`, the very pieces
its explanation and prediction functions add up (:func:`madnb_pl.predict.generated.class_terms`, the vector
kinds' ``dense_terms``) -- each feature's lookup computed once per row; each class's score added up in the
prediction functions' order; the predicted class by ``madnb._nb_best`` and the runner-up by
``madnb._nb_runner_up``, as ``madnb._nb_explain`` picks them; then plain sums of float8 per feature, no jsonb.

Where a feature column of the source has another type than the model's (:func:`columns_as_trained`), or the
kind gives no terms (a model whose prediction functions are not one inlined expression: more than
:data:`madnb_pl.predict.generated.INLINE_MAX_TERMS` terms, a vector model's sub-select form, which lists only
each row's non-zero elements or known lexemes), every row is explained by ``madnb_models.<m>_explain`` and its
jsonb averaged (:func:`importance_sql`); a feature absent from a row's explanation counts as 0 in that row.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import Relation, resolve_columns, resolve_relation
from ..core.sql import F8, Plpy, Sql, base_type, quote_ident
from ..predict import explain as explanation
from ..predict.explain import Terms
from .catalog import CatalogModel, ModelObjects, model_name, require
from .kinds import KINDS

_RESULT = (  # the result's columns from the sums per feature (u) and the row count (s.n)
    f"u.feature, u.a OPERATOR(pg_catalog./) s.n::{F8} AS mean_abs_contribution, u.p OPERATOR(pg_catalog./) s.n::{F8} AS mean_contribution, "
    f"COALESCE(u.d, 0) OPERATOR(pg_catalog./) s.n::{F8} AS mean_abs_against_runner_up, s.n AS rows"
)


def terms_sql(terms: Terms, source: str) -> Sql:
    """The one SELECT over ``source`` (a relation's SQL, row alias ``t``) of the per-feature sums of ``terms``
    (:class:`~madnb_pl.predict.explain.Terms` of row ``t``, lookups relation ``l``).

    Each layer is a sub-select the planner keeps (OFFSET 0) so that what the next one reads several times -- the
    terms, the scores, the predicted class -- is computed once per row."""
    k, f = len(terms.prior), len(terms.features)
    lookups = ", ".join(f"{v} AS {a}" for a, v in terms.lookups) or "NULL AS none"
    matrix = "ARRAY[" + ", ".join("ARRAY[" + ", ".join(c) + "]" for c in terms.contributions) + "]"
    where = "" if terms.guard is None else f" WHERE {terms.guard}"
    # each class's score as the prediction functions add it: the prior, then each term in feature order
    scores = "ARRAY[" + ", ".join(
        terms.prior[i] + "".join(f" OPERATOR(pg_catalog.+) v.c[{i + 1}][{j}]" for j in range(1, f + 1)) for i in range(k)
    ) + "]"
    predicted, runner = ("e.c[e.b][{j}]", "e.c[e.r][{j}]")  # the runner-up is 0 with one class: NULL, which sum() leaves out
    sums = {
        "a": [f"pg_catalog.sum(pg_catalog.abs({predicted.format(j=j)}))" for j in range(1, f + 1)],
        "p": [f"pg_catalog.sum({predicted.format(j=j)})" for j in range(1, f + 1)],
        "d": [f"pg_catalog.sum(pg_catalog.abs({predicted.format(j=j)} OPERATOR(pg_catalog.-) {runner.format(j=j)}))" for j in range(1, f + 1)],
    }
    return Sql(
        f"SELECT {_RESULT} FROM (SELECT pg_catalog.count(*) AS n, "
        + ", ".join(f"ARRAY[{', '.join(s)}]::{F8}[] AS {name}" for name, s in sums.items())
        + " FROM (SELECT w.c, w.b, madnb._nb_runner_up(w.s, w.b) AS r FROM ("
        "SELECT x.c, x.s, madnb._nb_best(x.s) AS b FROM ("
        f"SELECT v.c, {scores} AS s FROM ("
        f"SELECT {matrix} AS c FROM (SELECT {lookups} FROM {source} AS t OFFSET 0) AS l{where} OFFSET 0"
        ") AS v OFFSET 0) AS x OFFSET 0) AS w OFFSET 0) AS e) AS s "
        f"CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest({explanation.text_array(terms.features)}), pg_catalog.unnest(s.a), "
        "pg_catalog.unnest(s.p), pg_catalog.unnest(s.d)) AS u(feature, a, p, d) "
        "WHERE s.n OPERATOR(pg_catalog.>) 0 ORDER BY 2 DESC, 1"
    )


def importance_sql(explain: str, source: str) -> Sql:
    """The one SELECT over ``source`` (a relation's SQL) averaging the jsonb of model function ``explain`` (its SQL
    name), for a model whose kind gives no terms (see the module docstring)."""

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


def columns_as_trained(plpy: Plpy, m: CatalogModel, rel: Relation) -> bool:
    """Whether every feature column of ``rel`` has the model's type (a domain: its base type), so that
    :func:`terms_sql` reads the columns as they are, as the model's functions take them without a cast.

    Otherwise the explanation function decides (:func:`importance_sql`): it refuses a column of another type
    (42883), as the prediction functions do, so that no cast from a type another role defined -- an enum's
    cast to text, say -- ever runs inside the call.  A column that does not exist is 42703."""
    found = resolve_columns(plpy, rel, [quote_ident(f["name"]) for f in m.features], "source")
    for f, c in zip(m.features, found, strict=True):
        want, got = base_type(plpy, f["type"]), base_type(plpy, c.type_oid)
        if want is None or got is None or want.oid != got.oid:
            return False
    return True


def plan_sql(plpy: Plpy, model: str | None, source: str | None) -> Sql:
    """The SELECT :func:`feature_importance` runs for model ``model`` over ``source``: :func:`terms_sql` where the
    model's kind gives its terms, else :func:`importance_sql`."""
    name = model_name(model)
    m = require(plpy, name)
    rel = resolve_relation(plpy, source, "source")
    objects = ModelObjects.of(name)
    explain = objects.explain_functions.explain
    found = plpy.execute(plpy.prepare(
        Sql("SELECT pg_catalog.to_regprocedure($1 OPERATOR(pg_catalog.||) '(pg_catalog.anyelement)') IS NOT NULL AS e"), ["pg_catalog.text"],
    ), [str(explain.sql)])[0]["e"]
    if not found:  # a model trained before madnb wrote explanations
        raise MadnbError(
            "42883", f'model "{name.key}" has no explanation function',
            detail=f"{explain.display}(anyelement) does not exist: the model was trained by an older madnb",
            hint="re-train it with replace => true",
        )
    kind = KINDS[m.kind]
    training = kind.from_catalog(plpy, m)
    terms = kind.explain_terms(training, kind.read_numbers(plpy, training, objects), "t", "l")
    if terms is None or not columns_as_trained(plpy, m, rel):
        return importance_sql(str(explain.sql), str(rel.sql))
    return terms_sql(terms, str(rel.sql))


@entry_point
def feature_importance(plpy: Plpy, model: str | None, source: str | None) -> list[dict[str, Any]]:
    """Per feature of model ``model``, its mean contributions over the rows of ``source`` (see the module docstring)."""
    return [dict(r) for r in plpy.execute(plan_sql(plpy, model, source))]


__all__ = ["columns_as_trained", "feature_importance", "importance_sql", "plan_sql", "terms_sql"]

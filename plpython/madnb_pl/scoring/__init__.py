"""Scoring SQL: the classify and probs views.

A view reads the model tables live (MADlib's layout) and scores each row of the
classify source on its own.  Per query, the model is reshaped once into a single
row of arrays (``m``): log priors, per-class log-probability tables and, for
numeric attributes, per-class Gaussian parameters indexed by attribute number.
The number of classes K and of attributes are fixed when the view is created; a
view whose model later changes shape raises an error (55000) asking for it to be
recreated.  Natural logs throughout, log-sum-exp normalisation.

Three forms, chosen when the view is created:

* unrolled (integer codes, values with a canonical text form and/or Gaussian
  attributes, up to UNROLL_MAX_ATTRS attributes and UNROLL_MAX_TERMS class x
  attribute terms): the view holds one expression per class, a sum with one term
  per attribute, evaluated in the scan of the source.  The one-row model is
  hash-joined on an always-true key, so PostgreSQL 15 can run the scan, the join
  and the expressions in parallel workers; only the final arg-max /
  normalisation runs in the leader.  An ad hoc view's model comes from common
  table expressions (leader only), so it reads the model row through scalar
  subqueries instead, one per column: InitPlan parameters, passed to the workers.  Categorical value v of attribute j is read
  as ``lut_k[j][v - lo0]`` (strategy ``codes``: one value range for all
  attributes) or ``lut_k[j][js_j -> v::text]`` (strategy ``dict``: a jsonb
  dictionary of ranks per attribute); values outside the range, missing,
  fractional or not in the dictionary read NULL and add 0.
* class rows (more than MAX_CLASSES classes, :mod:`madnb_pl.scoring.class_rows`):
  one array of scores per row instead of a column per class.
* LATERAL (other values, very wide rows): each source row's attributes are
  unnested inside a LATERAL subquery that sums one column per class.
  PostgreSQL 15 runs such a subquery in the leader only (serial plan).
  Categorical lookups there come in three strategies: ``codes`` (integer
  values; when all attributes share one value range, as the unrolled form
  needs, ``lut_k[(attr - 1) * w + v - lo0]`` in a flat table with the index
  computed once per value, else slot = base + (v - lo) + 2 in one table, slot 1
  holding 0 for unseen values), ``dict`` (``lut_k[attr][rank]``, the rank found in one jsonb object
  of per-attribute dictionaries) and ``join`` (a join of the unnested values to
  one row per (attribute, value) holding every class's log-probability; slow on
  large tables, as PostgreSQL picks a merge join against the whole model per row).

Categorical: log P(a=v|c) = ln(cnt + s) - ln(n_{c,a} + s * attr_cnt), where
n_{c,a} is the number of class-c rows with attribute a present (MADlib's
class_cnt when nothing is missing) and s the feature table's smoothing (1,
Laplace, by default; a value above MAX_SMOOTHING edited into the table is
computed in a form that cannot overflow).
Gaussian: log N(x; mean, var) = a - (r * (x - mean))^2, a = -ln(2 pi var) / 2,
r = sqrt(1 / (2 var)), with var floored at 1e-9 times the attribute's total
variance over the training data (scikit-learn's var_smoothing idea), so a
one-row class or a constant attribute scores instead of failing.

What a row cannot spoil (each row is scored on its own, nothing it holds can
make another row fail or read NaN):

* a NULL or NaN value is missing: its term adds 0;
* a Gaussian value beyond its attribute's window [min mean - R, max mean + R],
  R = GAUSS_CLIP_SDS (1e100) times the smallest standard deviation of the
  classes, is clipped to the window, ±Infinity and ±1e308 included: its terms
  stay finite (about -1e200 at most for the narrowest class) and the class
  with the widest variance wins such a row, as it does in the limit x -> ±inf;
* a row whose array has elements but not numAttrs of them gets NULL output
  (``nb_classification`` NULL, ``nb_prob`` NULL for every class); a NULL or
  empty array is a row with every attribute missing, scored by the priors.

Classify returns every class whose log-likelihood is within TIE_TOLERANCE
(1e-12) times max(1, |best|) of the best one, in class order.
"""

from __future__ import annotations

from ..core.sql import with_clause
from . import bodies, class_rows, lateral, unrolled
from .common import (
    CASE_PICK_MAX_CLASSES,
    DICT_TYPES,
    GAUSS_CLIP_SDS,
    INTEGER_TYPES,
    INTEGRAL_CHECK_TYPES,
    MAX_CLASSES,
    MAX_CODE_SLOTS,
    MAX_POSITION_LITERAL,
    TEXT_TYPES,
    TIE_TOLERANCE,
    UNROLL_MAX_ATTRS,
    UNROLL_MAX_TERMS,
    VAR_FLOOR_FACTOR,
)
from .model import as_ctes, inline, model_parts
from .plan import ScoringPlan, choose_plan, code_layout, deterministic, dict_layout_ok, smoothing_sql, unroll_ok

__all__ = [
    "CASE_PICK_MAX_CLASSES",
    "DICT_TYPES",
    "GAUSS_CLIP_SDS",
    "INTEGER_TYPES",
    "INTEGRAL_CHECK_TYPES",
    "MAX_CLASSES",
    "MAX_CODE_SLOTS",
    "MAX_POSITION_LITERAL",
    "TEXT_TYPES",
    "TIE_TOLERANCE",
    "UNROLL_MAX_ATTRS",
    "UNROLL_MAX_TERMS",
    "VAR_FLOOR_FACTOR",
    "ScoringPlan",
    "choose_plan",
    "code_layout",
    "deterministic",
    "dict_layout_ok",
    "smoothing_sql",
    "unroll_ok",
    "view_sql",
]


def view_sql(
    plan: ScoringPlan,
    *,
    kind: str,
    prefix: list[tuple[str, str]],
    cp: str,
    fp: str,
    numeric_stats: str | None,
    source: str,
    key: str,
    attrs: str,
) -> str:
    """The SELECT of a classify (``kind='classify'``) or probs (``kind='probs'``) view.

    ``plan`` (:func:`choose_plan`) fixes the lookup strategy and the form;
    ``prefix`` are the common table expressions an ad hoc view's model comes
    from (``cp``, ``fp``, ``np`` then name them), empty for a view over model
    tables.
    """
    ctes = list(prefix)
    # an ad hoc view's model comes from its CTEs: the relations its parts share are CTEs too
    share = as_ctes(ctes) if prefix else inline
    parts, checks = (class_rows.model if plan.class_rows else model_parts)(plan, cp, fp, numeric_stats, share=share)
    # A row whose array has elements but not numAttrs of them is not scored: its
    # output is NULL (a NULL or empty array is a row with every attribute missing).
    ok = (
        f"(pg_catalog.cardinality(src.{attrs}) OPERATOR(pg_catalog.=) ANY ('{{0,{plan.num_attrs}}}'::pg_catalog.int4[])) "
        "IS NOT FALSE AS ok"
    )
    ready = " AND ".join(checks)
    joined = ", ".join(f"{p} AS m{j}" for j, p in enumerate(parts))
    if plan.class_rows:
        rows = class_rows.log_likelihood_rows(
            plan, ctes=ctes, cp=cp, fp=fp, numeric_stats=numeric_stats, source=source, key=key, attrs=attrs, ok=ok, ready=ready, joined=joined,
        )
        if kind not in ("classify", "probs"):  # pragma: no cover
            raise ValueError(kind)
        return (with_clause(ctes) if ctes else "") + (class_rows.classify(rows) if kind == "classify" else class_rows.probs(plan.k, rows))
    if plan.unroll:
        log_likelihoods = unrolled.log_likelihood_rows(
            plan, ctes=ctes, via_ctes=bool(prefix), numeric_stats=numeric_stats, source=source, key=key, attrs=attrs, ok=ok, ready=ready,
            joined=joined,
        )
    else:
        log_likelihoods = lateral.log_likelihood_rows(
            plan, ctes=ctes, cp=cp, fp=fp, numeric_stats=numeric_stats, source=source, key=key, attrs=attrs, ok=ok, ready=ready, joined=joined,
        )
    if kind == "classify":
        body = bodies.classify(plan.k, log_likelihoods)
    elif kind == "probs":
        body = bodies.probs(plan.k, log_likelihoods)
    else:  # pragma: no cover
        raise ValueError(kind)
    # "cat" stays an inlinable CTE: MATERIALIZED makes its scan look tiny next to the
    # planner hint, and the planner then rescans it once per value (measured: 25x slower)
    return (with_clause(ctes) if ctes else "") + body

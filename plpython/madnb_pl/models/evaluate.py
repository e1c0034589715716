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
* ``curves => true`` (two classes or more) adds ``curves`` (:func:`curves`) and,
  for more than two classes, ``roc_auc`` and ``roc_auc_ovr``: each class's
  scores ranked, which costs a sort of every row per class (without it, a
  model of more than two classes has no ``roc_auc``);
* ``roc_auc``: for two classes, the positive class is the second of
  ``model_classes`` and the score its probability (``roc_auc_score(y == positive,
  proba[:, 1])``); for more, the mean of each class's AUC against the rest
  (``roc_auc_ovr``, in the classes' order), scikit-learn's
  ``roc_auc_score(y, proba, multi_class='ovr', labels=classes)``; NULL when a
  class (two classes: either) has no labelled row or every labelled row, where
  scikit-learn refuses.
"""

from __future__ import annotations

import json
import math
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import Column, ModelName, Relation, has_columns, resolve_column, resolve_relation
from ..core.progress import Progress
from ..core.sql import F8, Plpy, Sql, once, quote_ident, setting, temp_name, text_sql, type_is_builtin, without_jit
from . import decisions
from .catalog import CatalogModel, ModelObjects, model_name, require
from .kinds import KINDS

EPS = sys.float_info.epsilon  # 2**-52, numpy.finfo(float64).eps
CLEAR_MARGIN = 0.01
"""A row's predicted class is read off its probabilities when every other class's is below
(1 - CLEAR_MARGIN) times the largest (see :func:`predicted_class_sql`)."""
PARAMETER_TYPES = ["pg_catalog.text[]", F8]
"""The parameters of an :func:`aggregate_sql` query: the model's classes as text, log-loss's clipping eps."""


def subscripts(k: int, pr: str) -> list[str]:
    """The SQL of each of the ``k`` probabilities of array ``pr`` (float8[]): ``pr[1]`` .. ``pr[k]``."""
    return [f"{pr}[{i}]" for i in range(1, k + 1)]


PAIRWISE_CLASSES = 4
"""Up to this many classes (from 2) :func:`predicted_class_sql` compares the probabilities pair by pair, with no
largest probability computed a level below (:func:`margin_level_sql` is None): one level fewer, whose projection of
every carried column cost more than the comparisons (cat200k's evaluate statement, 3 classes, paired with one
batch probability pass: 1.16x -> 1.12x).  Its k * (k - 1) comparisons outgrow the largest's k past a few classes."""


def margin_sql(probs: list[str]) -> str:
    """The largest of probabilities ``probs`` (the SQL of each) times 1 - :data:`CLEAR_MARGIN`: the ``m`` of
    :func:`predicted_class_sql`."""
    if not probs:
        return f"NULL::{F8}"
    return f"GREATEST({', '.join(probs)}) OPERATOR(pg_catalog.*) {1 - CLEAR_MARGIN!r}::{F8}"


def margin_level_sql(probs: list[str]) -> str | None:
    """:func:`margin_sql` of ``probs`` when :func:`predicted_class_sql` takes it, computed once a level below;
    None for 2 to :data:`PAIRWISE_CLASSES` classes, which it compares pair by pair."""
    return None if 2 <= len(probs) <= PAIRWISE_CLASSES else margin_sql(probs)


def predicted_class_sql(probs: list[str], m: str | None, exact: str) -> str:
    """The predicted class's position from a row's probabilities ``probs`` (the SQL of each, in the classes'
    order): ``<m>_predict``'s.

    ``m`` is the largest probability times 1 - :data:`CLEAR_MARGIN` (:func:`margin_sql`, computed once
    per row a level below; None when :func:`margin_level_sql` is None) and ``exact`` the position of the model's own
    ``<m>_predict`` of the row.  When exactly one class's probability reaches ``m``,
    that class is the one ``<m>_predict`` returns (without ``m``: the class whose probability times
    1 - CLEAR_MARGIN exceeds every other's, the same class, as that product for the largest is ``m``): its arg-max (``madnb._nb_best``)
    takes the first class whose log-likelihood is within 1e-12 * max(1, |best|)
    of the best, and another class below (1 - CLEAR_MARGIN) times the best probability
    is more than CLEAR_MARGIN below it in log-likelihood, which exceeds that tolerance
    for any best log-likelihood above -CLEAR_MARGIN / 1e-12 = -1e10 (1e-12:
    :data:`madnb_pl.scoring.common.TIE_TOLERANCE`).  Otherwise
    (a tie or a near one, NaN) the row's class is ``exact``: the model is evaluated
    again for those rows only (CASE evaluates its ELSE branch only for them).
    """
    k = len(probs)
    if k == 0:
        return "NULL::pg_catalog.int4"
    if m is None:
        clear = [
            " AND ".join(f"{q} OPERATOR(pg_catalog.<) ({p} OPERATOR(pg_catalog.*) {1 - CLEAR_MARGIN!r}::{F8})" for j, q in enumerate(probs) if j != i)
            for i, p in enumerate(probs)
        ]
        return "CASE " + " ".join(f"WHEN {c} THEN {i}" for i, c in enumerate(clear, start=1)) + f" ELSE {exact} END"
    reach = [f"{p} OPERATOR(pg_catalog.>=) {m}" for p in probs]
    count = " OPERATOR(pg_catalog.+) ".join(f"CASE WHEN {r} THEN 1 ELSE 0 END" for r in reach)
    first = "CASE " + " ".join(f"WHEN {r} THEN {i}" for i, r in enumerate(reach[:-1], start=1)) + f" ELSE {k} END" if k > 1 else "1"
    return f"CASE WHEN ({count}) OPERATOR(pg_catalog.=) 1 THEN {first} ELSE {exact} END"


@dataclass(frozen=True)
class TieRows:
    """How :func:`scored_rows_sql` calls ``<m>_predict`` for a row near a tie: the columns that the row form reads
    (``columns``: the source's names), carried beside the row's probabilities as x1, x2, ..., and the column form's
    arguments over them (``arguments``), as the row form passes them (:meth:`Kind.row_arguments`)."""

    columns: list[str]
    arguments: str


def tie_rows(plpy: Plpy, m: CatalogModel, source: Relation) -> TieRows | None:
    """:class:`TieRows` of model ``m`` for rows of ``source``; None (the query carries the whole row, for the row
    form) when the row form does not call the column form, or ``source`` lacks a column it reads (then the row
    form's error names it)."""
    kind = KINDS.get(m.kind)
    if kind is None:
        return None
    try:
        training = kind.from_catalog(plpy, m)
    except MadnbError:  # a feature's type gone (renamed): the functions still take the row
        return None
    columns: list[str] = []

    def field(c: Column) -> str:
        columns.append(c.name)
        return f"q.x{len(columns)}"

    arguments = kind.row_arguments(training, field)
    if arguments is None or not source.oid or not has_columns(plpy, source, columns):
        return None
    return TieRows(columns, arguments)


def evaluate_sql(
    name: ModelName, source: Sql, label: str, label_type: str, k: int, model_builtin: bool = True,
    source_builtin: bool = True, ranked: bool = False, decided: bool = False, ties: TieRows | None = None,
) -> Sql:
    """The one query (:func:`aggregate_sql` of each labelled row's scores, :func:`scored_rows_sql`), for a model of ``k`` classes."""
    return aggregate_sql(scored_rows_sql(name, source, label, label_type, k, model_builtin, source_builtin, decided, ties), k, ranked)


def scored_rows_sql(
    name: ModelName, source: Sql, label: str, label_type: str, k: int, model_builtin: bool = True, source_builtin: bool = True,
    decided: bool = False, ties: TieRows | None = None,
) -> str:
    """The rows (g, t, h, y, pr) of :func:`aggregate_sql`: each labelled row of ``source`` scored by model ``name``.

    ``label_type`` is the catalog's label_type: format_type's text, written by
    madnb.train under the pinned search_path (as the generated functions use it).
    Labels compare in the label's type when it and the source column's type are
    PostgreSQL's own (``*_builtin``); otherwise as their texts
    (:func:`madnb_pl.core.sql.text_sql`): a cast to or from an enum could be its owner's.

    Levels, each value of a level computed once however often the next names it
    (:func:`madnb_pl.core.sql.once`, which keeps the levels apart and in the parallel
    workers, unlike OFFSET 0): the scan (each row's label, probabilities -- the model's
    one call -- and what ``<m>_predict`` of the row needs for the rows near a tie: the
    columns its row form reads (``ties``: :class:`TieRows`), else the row itself), the largest
    probability (past :data:`PAIRWISE_CLASSES` classes), and the predicted class (:func:`predicted_class_sql`).  All of
    it, and :func:`aggregate_sql`'s grouping (partially, per worker), runs in the parallel
    workers: the leader gathers a few rows per worker, not every row with its probabilities
    (cat200k of bench.models, paired with one batch probability pass: 1.21-1.26x -> 1.09-1.18x).

    ``decided``: a decision (madnb.decision's jsonb, parameter $3: :func:`run_aggregate`'s ``decision``) makes the
    probabilities ``madnb.decide_proba_array``'s and the class ``madnb._nb_decide``'s, as ``madnb.decide`` gives it
    (no row near a tie is predicted again).
    """
    pred, _proba_jsonb, proba = (n.sql for n in ModelObjects.of(name).predict_functions)
    lbl = quote_ident(label)
    if decided:
        carried, predicted = [], ""
    elif ties is None:
        carried, predicted = [f"(s.*)::{source} AS w"], f"{pred}(q.w)"
    else:
        carried = [f"s.{quote_ident(c)} AS x{i}" for i, c in enumerate(ties.columns, start=1)]
        predicted = f"{pred}({ties.arguments})"
    classes, y, h = label_sql(predicted, lbl, label_type, model_builtin, source_builtin)
    pr = f"{proba}(s.*)"
    if decided:  # madnb.decision's jsonb as $3: the probabilities and the class as madnb.decide gives them
        pr = f"madnb.decide_proba_array($3::pg_catalog.jsonb, {pr})"
    scan = (
        f"SELECT {once(f'pg_catalog.array_position({classes}, {y})')} AS t, {y} AS y, {once(pr)} AS pr"
        + "".join(f", {c}" for c in carried)
        + f"\n              FROM {source} AS s\n              WHERE s.{lbl} IS NOT NULL"
    )
    if decided:
        return f"""
  SELECT 1 AS g, q.t, madnb._nb_decide($3::pg_catalog.jsonb, q.pr) AS h, q.y, q.pr
  FROM ({scan}) AS q"""
    largest = margin_level_sql(subscripts(k, "p.pr"))
    best = predicted_class_sql(subscripts(k, "q.pr"), None if largest is None else "q.m", f"pg_catalog.array_position({classes}, {h})")
    rows = f"({scan})" if largest is None else f"(SELECT p.*, {once(largest)} AS m\n        FROM ({scan}) AS p)"
    # h computed once too: grouped by (planned as) a column of its level, not by an expression of the carried
    # columns, whose distinct values PostgreSQL would multiply into a group per row (sorted, spilled to disk)
    return f"""
  SELECT 1 AS g, q.t, {once(best)} AS h, q.y, q.pr
  FROM {rows} AS q"""


def label_sql(predicted: str, lbl: str, label_type: str, model_builtin: bool, source_builtin: bool) -> tuple[str, str, str]:
    """The classes ($1), source row ``s``'s label (column ``lbl``) and ``predicted`` (the SQL of a call of the
    model's ``<m>_predict``) as SQL that compares: in the label's type when both types are PostgreSQL's own, else as
    texts (:func:`evaluate_sql`)."""
    if model_builtin and source_builtin:
        return f"$1::pg_catalog.text[]::{label_type}[]", f"s.{lbl}::{label_type}", predicted
    return "$1::pg_catalog.text[]", text_sql(f"s.{lbl}", source_builtin), text_sql(predicted, model_builtin)


CALIBRATION_BINS = 10
"""The calibration curve's bins: [0, 1] cut in this many of equal width (``calibration_curve(n_bins=10)``)."""
CURVE_POINTS = 1000
"""At most about this many points per ROC or precision-recall curve (:func:`_curves_sql`): enough to draw, few to send."""


def _ranked_classes(k: int) -> str:
    """The class positions whose scores are ranked (AUC, curves): the positive class for two, each for more."""
    return "(VALUES (2))" if k == 2 else f"pg_catalog.generate_series(1, {k})"


def _twice_ranked_right(pos: str, below: str, tied: str) -> str:
    """Twice the (positive, negative) pairs that ``pos`` positives at one score rank right: each negative scored
    ``below`` it counts 1, each ``tied`` with it a half (the AUC is their sum over the scores / 2PN)."""
    return f"({pos} OPERATOR(pg_catalog.*) ((2 OPERATOR(pg_catalog.*) {below}) OPERATOR(pg_catalog.+) {tied}))"


def _auc_sql(s: str) -> str:
    """Per group g and ranked class j, from ``s``'s (g, j, score, pos, neg) rows (a score may be on several rows):
    the positives, the negatives and twice the (positive, negative) pairs ranked right (:func:`_twice_ranked_right`).

    One sort by (g, j, score) serves both windows: the negatives scored at most a row's
    score (its peers included, RANGE's default frame) and those tied with it; scored below
    is their difference, so the rows need not be grouped by score first.
    """
    below = "(a.upto OPERATOR(pg_catalog.-) a.tied)"
    return f"""
SELECT 'auc', a.g, a.j, NULL, pg_catalog.sum(a.pos), pg_catalog.sum(a.neg),
       pg_catalog.sum({_twice_ranked_right("a.pos", below, "a.tied")}), NULL
FROM (SELECT q.g, q.j, q.pos, q.neg,
             pg_catalog.sum(q.neg) OVER (PARTITION BY q.g, q.j ORDER BY q.score) AS upto,
             pg_catalog.sum(q.neg) OVER (PARTITION BY q.g, q.j, q.score) AS tied
      FROM {s} AS q) AS a
GROUP BY a.g, a.j"""


def _curves_sql() -> str:
    """The ranks of each ranked class, from ``s`` (g, j, score, pos, neg: one row per distinct score): one pass.

    The distinct scores are read in descending order once (one sort); running sums
    give the positives and negatives scored at least as high (scikit-learn's tps,
    fps), and each score's neighbours.  Out of it:

    * 'rank' (one row per class t): the positives a, the negatives b, twice the
      (positive, negative) pairs ranked right c (:func:`_twice_ranked_right`, each
      score's negatives below it the total less fps: the AUC's c / 2ab) and f the sum over the scores of the tps each adds times the
      precision there (``average_precision_score`` times the positives);
    * 'point' rows: per class t and score f, tps a and fps b, and h which curve keeps
      the point (1 the ROC curve, 2 the precision-recall curve, 3 both).  A curve's
      candidates are the points scikit-learn keeps: ``roc_curve``'s drop_intermediate
      (the first, the last, and where the second difference of tps or fps is not 0)
      and ``precision_recall_curve(drop_intermediate=True)``'s (the first, the last,
      and where tps changes before or after); of n candidates, when n exceeds
      :data:`CURVE_POINTS`, the first, the last and every ceil(n / CURVE_POINTS)-th;
    * 'cal' rows: per class t and bin h of :data:`CALIBRATION_BINS`, the rows a,
      the positives b and the probabilities' sum f, added in the scores' order (the same bits whatever order
      the plan reads s in) (``calibration_curve``'s bins: a
      bin holds the probabilities above its lower edge and up to its upper one,
      numpy's searchsorted of the inner edges).
    """
    edges = [i * (1.0 / CALIBRATION_BINS) for i in range(1, CALIBRATION_BINS)]  # numpy.linspace(0, 1, n + 1)'s inner ones
    bin_of = " OPERATOR(pg_catalog.+) ".join(f"CASE WHEN s.score OPERATOR(pg_catalog.>) {e!r}::{F8} THEN 1 ELSE 0 END" for e in edges)
    ends = "p.rn OPERATOR(pg_catalog.=) 1 OR p.rn OPERATOR(pg_catalog.=) p.n"
    # parenthesised: every OPERATOR(...) has the same precedence
    corner = " OR ".join(
        f"((p.{x}_next OPERATOR(pg_catalog.+) p.{x}_prev) OPERATOR(pg_catalog.-) (2 OPERATOR(pg_catalog.*) p.{x})) OPERATOR(pg_catalog.<>) 0"
        for x in ("fps", "tps")
    )
    steps = "p.tps OPERATOR(pg_catalog.<>) p.tps_prev OR p.tps_next OPERATOR(pg_catalog.<>) p.tps"

    def keep(c: str) -> str:  # 1 when candidate c (its rank c_i of c_n) is one of the thinned points
        step = f"((x.{c}_n OPERATOR(pg_catalog.+) {CURVE_POINTS - 1}) OPERATOR(pg_catalog./) {CURVE_POINTS})"
        return (f"CASE WHEN x.{c} OPERATOR(pg_catalog.=) 1 AND (x.{c}_i OPERATOR(pg_catalog.=) 1 OR x.{c}_i OPERATOR(pg_catalog.=) x.{c}_n "
                f"OR pg_catalog.mod(x.{c}_i, {step}) OPERATOR(pg_catalog.=) 0) THEN 1 ELSE 0 END")

    added = "(p.tps OPERATOR(pg_catalog.-) COALESCE(p.tps_prev, 0))"  # the positives at this score
    return f"""
UNION ALL
SELECT o.what, o.g, o.t, o.h, o.a, o.b, o.c, o.f
FROM (SELECT * FROM (SELECT x.*, ({keep("roc")}) OPERATOR(pg_catalog.+) (2 OPERATOR(pg_catalog.*) {keep("pr")}) AS keep
      FROM (SELECT f.*, pg_catalog.sum(f.roc) OVER u AS roc_i, pg_catalog.sum(f.roc) OVER e AS roc_n,
                   pg_catalog.sum(f.pr) OVER u AS pr_i, pg_catalog.sum(f.pr) OVER e AS pr_n,
                   pg_catalog.sum(f.pairs) OVER e AS pairs_all, pg_catalog.sum(f.ap) OVER e AS ap_all,
                   pg_catalog.max(f.tps) OVER e AS pos, pg_catalog.max(f.fps) OVER e AS neg
            FROM (SELECT p.g, p.j, p.score, p.tps, p.fps, p.rn,
                         CASE WHEN {ends} OR {corner} THEN 1 ELSE 0 END AS roc,
                         CASE WHEN {ends} OR {steps} THEN 1 ELSE 0 END AS pr,
                         {_twice_ranked_right(added, "(p.neg_all OPERATOR(pg_catalog.-) p.fps)",
                                              "(p.fps OPERATOR(pg_catalog.-) COALESCE(p.fps_prev, 0))")} AS pairs,
                         ({added} OPERATOR(pg_catalog.*) p.tps)::{F8} OPERATOR(pg_catalog./) (p.tps OPERATOR(pg_catalog.+) p.fps)::{F8} AS ap
                  FROM (SELECT q.*, pg_catalog.lag(q.tps) OVER w AS tps_prev, pg_catalog.lead(q.tps) OVER w AS tps_next,
                               pg_catalog.lag(q.fps) OVER w AS fps_prev, pg_catalog.lead(q.fps) OVER w AS fps_next,
                               pg_catalog.row_number() OVER w AS rn, pg_catalog.count(*) OVER (PARTITION BY q.g, q.j) AS n,
                               pg_catalog.max(q.fps) OVER (PARTITION BY q.g, q.j) AS neg_all
                        FROM (SELECT s.g, s.j, s.score, pg_catalog.sum(s.pos) OVER v AS tps, pg_catalog.sum(s.neg) OVER v AS fps
                              FROM s WINDOW v AS (PARTITION BY s.g, s.j ORDER BY s.score DESC ROWS UNBOUNDED PRECEDING)) AS q
                        WINDOW w AS (PARTITION BY q.g, q.j ORDER BY q.score DESC)) AS p) AS f
            WINDOW u AS (PARTITION BY f.g, f.j ORDER BY f.score DESC ROWS UNBOUNDED PRECEDING),
                   e AS (PARTITION BY f.g, f.j)) AS x) AS y
      WHERE y.keep OPERATOR(pg_catalog.>) 0 OR y.rn OPERATOR(pg_catalog.=) 1) AS y
CROSS JOIN LATERAL (VALUES
    ('point', y.g, y.j, y.keep, y.tps, y.fps, NULL::pg_catalog.numeric, y.score),
    ('rank', y.g, y.j, NULL, y.pos, y.neg,
     y.pairs_all, y.ap_all)) AS o(what, g, t, h, a, b, c, f)
WHERE (o.what OPERATOR(pg_catalog.=) 'point' AND y.keep OPERATOR(pg_catalog.>) 0)
   OR (o.what OPERATOR(pg_catalog.=) 'rank' AND y.rn OPERATOR(pg_catalog.=) 1)
UNION ALL
SELECT 'cal', s.g, s.j, {bin_of}, pg_catalog.sum(s.pos OPERATOR(pg_catalog.+) s.neg), pg_catalog.sum(s.pos), NULL,
       pg_catalog.sum(s.score OPERATOR(pg_catalog.*) (s.pos OPERATOR(pg_catalog.+) s.neg)::{F8} ORDER BY s.score)
FROM s GROUP BY 1, 2, 3, 4"""


def aggregate_sql(r: str, k: int, ranked: bool = False, weighted: bool = False) -> Sql:
    """The metrics' aggregates of the rows of query ``r``, per group: (what, g, t, h, a, b, c, f) rows.

    ``r`` yields per labelled row: g (the group: 1 for madnb.evaluate, the fold
    for cross-validation), t and h (the true and the predicted class's position
    in the ``k`` classes, t NULL for a label that is not a class), y (the label) and
    pr (the probabilities in the classes' order); $2 is log-loss's clipping eps.
    :func:`read_metrics` reads the result.  ``weighted``: each row of ``r`` stands for w rows
    (its column w, a count: rows that score alike, counted once), not ranked.

    ``r``'s rows are read once (its levels compute each value once: :func:`scored_rows_sql`,
    or with ``ranked`` a materialised CTE) and grouped at once into c: one row per (g, t, h), with the labels
    that are not classes apart (for their count), holding the rows' count and their
    log-loss sum.  Everything else aggregates c, a few rows.

    Ranks: for two classes the AUC of the positive class's probability, from c
    grouped by that score as well (one row per distinct score).  With ``ranked``
    (madnb.evaluate's curves), each ranked class's (for more than two classes each
    class against the rest) distinct scores s, the AUC of each, the ROC and
    precision-recall points and the calibration bins (:func:`_curves_sql`).
    """
    counts, ranks, _scores = counts_ctes_sql(r, k, ranked, weighted=weighted)
    return Sql(f"""{counts}
{from_counts_sql(ranks)}""")


def ranks_sql(k: int, curves: bool) -> str:
    """:func:`from_counts_sql`'s ranks over a relation s (g, j, score, pos, neg) of ``k`` classes: with ``curves``
    the curves' (:func:`_curves_sql`), else for two classes the AUC's (:func:`_auc_sql`), else none."""
    if curves and k >= 2:
        return _curves_sql()
    return "\nUNION ALL" + _auc_sql("s") if k == 2 else ""


def counts_ctes_sql(
    r: str, k: int, ranked: bool, fixed_loss: tuple[int, int] | None = None, weighted: bool = False,
) -> tuple[str, str, str | None]:
    """:func:`aggregate_sql`'s WITH clause (c, and s with ``ranked``), the ranks' part of
    :func:`from_counts_sql` over it, and the relation of the scores' (g, j, score, pos, neg) rows (None: none).
    ``weighted`` (not with ``ranked`` or ``fixed_loss``): :func:`aggregate_sql`'s.

    ``fixed_loss`` (bits, cap): c holds z too, the sum of each row's log-loss in
    fixed point (rounded to a multiple of 2**-bits, at most cap): a private release's.
    """
    two = k == 2 and not ranked
    score = "CASE WHEN r.t IS NOT NULL THEN r.pr[2] END AS score, " if two else ""
    keys = ", ".join(str(i) for i in range(1, 6 if two else 5))
    ranks = ""
    scores = None
    if two:
        # c's rows as they are (a score on a few of them: _auc_sql's windows add those up, grouping them is a pass more)
        by_score = (
            "(SELECT c.g, 2 AS j, c.score, CASE WHEN c.t OPERATOR(pg_catalog.=) 2 THEN c.n ELSE 0 END AS pos,\n"
            "        CASE WHEN c.t OPERATOR(pg_catalog.=) 1 THEN c.n ELSE 0 END AS neg\n"
            "      FROM c WHERE c.t IS NOT NULL AND c.h IS NOT NULL)"
        )
        ranks = "\nUNION ALL" + _auc_sql(by_score)
        scores = by_score
    assert not (weighted and (ranked or fixed_loss is not None))
    # weighted rows are groups of rows that score alike, already distinct: c is they themselves, not grouped again
    n = "r.w::pg_catalog.int8" if weighted else "pg_catalog.count(*)"
    head = f"WITH c AS MATERIALIZED (\n  SELECT r.g, r.t, r.h, CASE WHEN r.t IS NULL THEN r.y END AS u, {score}{n} AS n,"
    source = f"({r}) AS r"
    if ranked and k >= 2:
        head = (
            f"WITH r AS MATERIALIZED ({r}),\n"
            "s AS MATERIALIZED (\n  SELECT r.g, j.j, r.pr[j.j] AS score,\n"
            # int4 counts (a score's rows), so that the running sums of them are int8, not numeric
            "         (pg_catalog.count(*) FILTER (WHERE r.t OPERATOR(pg_catalog.=) j.j))::pg_catalog.int4 AS pos,\n"
            "         (pg_catalog.count(*) FILTER (WHERE r.t OPERATOR(pg_catalog.<>) j.j))::pg_catalog.int4 AS neg\n"
            f"  FROM r CROSS JOIN {_ranked_classes(k)} AS j(j) WHERE r.t IS NOT NULL AND r.h IS NOT NULL GROUP BY 1, 2, 3),\n"
            + head[len("WITH "):]
        )
        source = "r"
        ranks = _curves_sql()
        scores = "s"
    loss = f"OPERATOR(pg_catalog.-) pg_catalog.ln(GREATEST(LEAST(r.pr[r.t], 1::{F8} OPERATOR(pg_catalog.-) $2), $2))"
    z = "" if fixed_loss is None else (
        f",\n         pg_catalog.sum(GREATEST(LEAST(pg_catalog.round(({loss}) OPERATOR(pg_catalog.*) {float(2 ** fixed_loss[0])!r}::{F8}), "
        f"{fixed_loss[1]}::{F8}), 0::{F8})::pg_catalog.int8) AS z"
    )
    if weighted:
        return f"""{head}
         r.w::{F8} OPERATOR(pg_catalog.*) ({loss}) AS loss
  FROM {source})""", ranks, scores
    return f"""{head}
         pg_catalog.sum({loss}) AS loss{z}
  FROM {source}
  GROUP BY {keys})""", ranks, scores


def counts_sql(r: str, k: int, ranked: bool) -> Sql:
    """The counts behind the metrics of query ``r``'s rows (:func:`aggregate_sql`'s c and s), not the metrics:
    (part, t, h, u, n, m, score, loss) rows, what an owner releases (:mod:`madnb_pl.models.federated_evaluation`).

    'cell': per (true class t, predicted class h, label u that is not a class) its
    rows n and their log-loss sum; 'score': per ranked class t (:func:`_ranked_classes`;
    none for more than two classes without ``ranked``) and distinct score, its
    positives n and negatives m.  :func:`from_counts_sql` of their sums is the metrics.
    u is a label's text: :func:`scored_rows_sql` gives it as text unless its type is PostgreSQL's own.
    """
    counts, _ranks, scores = counts_ctes_sql(r, k, ranked)
    score_rows = "" if scores is None else f"""
UNION ALL
SELECT 'score', q.j, NULL, NULL, pg_catalog.sum(q.pos)::pg_catalog.int8, pg_catalog.sum(q.neg)::pg_catalog.int8, q.score, NULL
FROM {scores} AS q GROUP BY q.j, q.score"""
    return Sql(f"""{counts}
SELECT 'cell' AS part, c.t, c.h, (c.u)::pg_catalog.text AS u, pg_catalog.sum(c.n)::pg_catalog.int8 AS n,
       NULL::pg_catalog.int8 AS m, NULL::{F8} AS score, pg_catalog.sum(c.loss) AS loss
FROM c GROUP BY c.t, c.h, c.u{score_rows}""")


def from_counts_sql(ranks: str) -> str:
    """The metrics' rows (what, g, t, h, a, b, c, f) from the counts: the one place they are computed from.

    Reads c (g, t, h, u, n, loss: the rows of a (true, predicted) class pair, u a
    label that is not a class, their log-loss sum; a 'cell' row carries it: log-loss is the sum over
    the cells of a class label over their rows, :func:`read_metrics`) and, through ``ranks`` (the AUC's
    :func:`_auc_sql`, the curves' :func:`_curves_sql`, or nothing), s (g, j, score,
    pos, neg: per ranked class j and distinct score, its positives and negatives).
    :func:`aggregate_sql` computes c and s from each row's scores; madnb.evaluate_from_releases
    (:mod:`madnb_pl.models.federated_evaluation`) from the owners' released counts, summed.
    """
    return f"""SELECT 'cell' AS what, c.g, c.t, c.h, pg_catalog.sum(c.n) AS a, NULL::pg_catalog.numeric AS b,
       NULL::pg_catalog.numeric AS c, pg_catalog.sum(c.loss) AS f
FROM c GROUP BY c.g, c.t, c.h
UNION ALL
SELECT 'unknown', c.g, NULL, NULL, pg_catalog.count(DISTINCT c.u)::pg_catalog.numeric, NULL, NULL, NULL FROM c
WHERE c.t IS NULL GROUP BY c.g{ranks}"""


RANKED_WORK_MEM_KB = 64 * 1024
"""work_mem (at least) for the ranked form of :func:`aggregate_sql`: its rows, one per row and class, grouped and sorted
once, stay in memory up to a few hundred thousand (on bench.column_table's 200,000 rows of 3 classes they spilled to
disk three times with PostgreSQL's default 4 MB)."""


def run_aggregate(
    plpy: Plpy, query: Sql, classes: list[str], ranked: bool = False, decision: str | None = None, large: bool = False,
) -> Any:
    """The rows of :func:`aggregate_sql` query ``query`` ($1 ``classes``, $2 :data:`EPS`; $3 ``decision``, jsonb text,
    when given), scanning in parallel.

    PostgreSQL never runs a statement PL/Python prepared with parameters in parallel
    workers, but it plans the query of a CREATE TABLE AS afresh, and may: so the few
    result rows go into a temporary table of this call (dropped here, and at commit),
    read back.  Where the transaction may not create one (read-only, a hot standby,
    no TEMPORARY privilege) the query runs as a prepared SELECT, in the one backend.

    jit = off for the statement (then the caller's setting again): its expression
    holds the model twice (the probabilities, and ``<m>_predict`` for the rows near
    a tie), and compiling that in every process costs more than it saves
    (on issue 19's table, paired runs: 1.37x one batch probability pass with jit,
    1.01x without), as for cross-validation's scoring query.  ``ranked`` (the query's
    ranked form), or ``large`` (cross-validation's, of a group per fold and grid point: its counts grouped by
    score, hundreds of thousands of rows): work_mem at least :data:`RANKED_WORK_MEM_KB` for the statement too
    (in memory, hashed; on adult's 20-point grid the default 4 MB sorted them on disk).
    """
    can = plpy.execute(Sql(
        "SELECT NOT pg_catalog.current_setting('transaction_read_only')::pg_catalog.bool "
        "AND pg_catalog.has_database_privilege(pg_catalog.current_database(), 'TEMPORARY') AS ok"
    ))[0]["ok"]
    memory = nullcontext() if not (ranked or large) else setting(plpy, "work_mem", plpy.execute(Sql(
        f"SELECT GREATEST(pg_catalog.pg_size_bytes(pg_catalog.current_setting('work_mem')) OPERATOR(pg_catalog./) 1024, "
        f"{RANKED_WORK_MEM_KB})::pg_catalog.text OPERATOR(pg_catalog.||) 'kB' AS m"
    ))[0]["m"])
    types, values = (PARAMETER_TYPES, [classes, EPS]) if decision is None else (
        [*PARAMETER_TYPES, "pg_catalog.jsonb"], [classes, EPS, decision])
    with without_jit(plpy), memory:
        if not can:
            return plpy.execute(plpy.prepare(query, types), values)
        into = temp_name("madnb_metrics_")
        plpy.execute(plpy.prepare(Sql(f"CREATE TEMPORARY TABLE {into} ON COMMIT DROP AS {query}"), types), values)
        rows = plpy.execute(Sql(f"SELECT * FROM {into}"))
        plpy.execute(Sql(f"DROP TABLE {into}"))
        return rows


def read_metrics(classes: list[str], result: Any) -> dict[int, dict[str, Any]]:
    """Per group g, the :func:`metrics` of the rows of :func:`aggregate_sql` (groups without rows are absent);
    with the ranked rows of its ``ranked`` form, each group's ``curves`` too (:func:`curves`)."""
    cells: dict[int, dict[tuple[int | None, int], int]] = {}
    unknown_labels: dict[int, int] = {}
    losses: dict[int, list[tuple[int, float | None]]] = {}
    auc: dict[int, dict[int, tuple[int, int, int]]] = {}
    points: dict[int, dict[int, list[tuple[float, int, int, int]]]] = {}
    bins: dict[int, dict[int, list[tuple[int, int, int, float]]]] = {}
    ap: dict[int, dict[int, float]] = {}
    for r in result:
        g = int(r["g"])
        if r["what"] == "cell":  # and its rows' log-loss sum: log-loss is that of the cells of a class label
            cells.setdefault(g, {})[(r["t"], r["h"])] = int(r["a"])
            if r["t"] is not None and r["h"] is not None:  # a row without a prediction has no log-loss
                losses.setdefault(g, []).append((int(r["a"]), None if r["f"] is None else float(r["f"])))
        elif r["what"] == "unknown":
            unknown_labels[g] = int(r["a"])
        elif r["what"] == "point":
            points.setdefault(g, {}).setdefault(int(r["t"]), []).append((float(r["f"]), int(r["a"]), int(r["b"]), int(r["h"])))
        elif r["what"] == "rank":  # the AUC's counts, and average precision times the positives
            auc.setdefault(g, {})[int(r["t"])] = (int(r["a"]), int(r["b"]), int(r["c"]))
            ap.setdefault(g, {})[int(r["t"])] = float(r["f"])
        elif r["what"] == "cal":
            bins.setdefault(g, {}).setdefault(int(r["t"]), []).append((int(r["h"]), int(r["a"]), int(r["b"]), float(r["f"])))
        elif r["a"] is not None:  # 'auc', of the ranked class t
            auc.setdefault(g, {})[int(r["t"])] = (int(r["a"]), int(r["b"]), int(r["c"]))
    log_loss = {
        g: math.fsum(f for _n, f in cs if f is not None) / rows for g, cs in losses.items() if (rows := sum(n for n, _f in cs))
    }
    out = {
        g: metrics(classes, c, unknown_labels.get(g, 0), log_loss.get(g), auc.get(g))
        for g, c in sorted(cells.items())
    }
    for g, m in out.items():
        if g in points or g in bins:
            m["curves"] = curves(classes, points.get(g, {}), ap.get(g, {}), bins.get(g, {}), m)
    return out


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def curves(classes: list[str], points: dict[int, list[tuple[float, int, int, int]]], ap: dict[int, float],
           bins: dict[int, list[tuple[int, int, int, float]]], m: dict[str, Any]) -> dict[str, Any]:
    """madnb.evaluate's curves, per ranked class (position -> its rows of :func:`_curves_sql`), as scikit-learn's.

    ``roc``: ``roc_curve(y == c, proba[:, j])`` (drop_intermediate, the first point
    (0, 0) at threshold NULL for scikit-learn's inf); ``precision_recall``:
    ``precision_recall_curve(..., drop_intermediate=True)`` and
    ``average_precision_score`` (of every threshold); a curve of more than
    :data:`CURVE_POINTS` points thinned to its first, last and every
    ceil(n / CURVE_POINTS)-th; ``calibration``: ``calibration_curve(..., n_bins=10)``
    with each non-empty bin's rows.  Two classes: the positive class's only.
    """
    roc, pr, cal = [], [], []
    auc_of = dict(zip(classes, m["roc_auc_ovr"], strict=True)) if m["roc_auc_ovr"] is not None else {m["positive_class"]: m["roc_auc"]}
    for j, rows in sorted(points.items()):
        rows.sort(key=lambda x: -x[0])  # descending thresholds, as scikit-learn's tps and fps
        name = classes[j - 1]
        kept = [x for x in rows if x[3] & 1]
        p_all, n_all = rows[-1][1], rows[-1][2]
        roc.append({
            "class": name, "auc": auc_of.get(name),
            "fpr": [0.0] + [_ratio(x[2], n_all) for x in kept], "tpr": [0.0] + [_ratio(x[1], p_all) for x in kept],
            "thresholds": [None] + [x[0] for x in kept],
        })
        kept = [x for x in rows if x[3] & 2]
        precision = [x[1] / (x[1] + x[2]) for x in kept]
        recall = [x[1] / p_all if p_all else 1.0 for x in kept]
        average = ap[j] / p_all if p_all and j in ap else None
        pr.append({
            "class": name, "average_precision": average,
            "precision": precision[::-1] + [1.0], "recall": recall[::-1] + [0.0], "thresholds": [x[0] for x in kept][::-1],
        })
    for j, cells in sorted(bins.items()):
        cells.sort()
        cal.append({
            "class": classes[j - 1], "bins": CALIBRATION_BINS, "bin": [x[0] for x in cells], "count": [x[1] for x in cells],
            "prob_true": [x[2] / x[1] for x in cells], "prob_pred": [x[3] / x[1] for x in cells],
        })
    return {"roc": roc, "precision_recall": pr, "calibration": cal}


def _div(a: float, b: float) -> float:
    return a / b if b else 0.0


def metrics(classes: list[str], cells: dict[tuple[int | None, int], int], unknown_labels: int,
            log_loss: float | None, auc: dict[int, tuple[int, int, int]] | None) -> dict[str, Any]:
    """The metrics from the aggregated rows (class positions 1-based; t None = a label not among the classes;
    h None = a row without a prediction, a NULL vector's: counted apart, in ``unscored_rows``, and in no metric)."""
    k = len(classes)
    unscored = sum(n for (_t, h), n in cells.items() if h is None)
    cells = {th: n for th, n in cells.items() if th[1] is not None}
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
    # per ranked class (position -> (positives, negatives, twice the pairs ranked right)): its AUC, None without
    # a positive or a negative (scikit-learn refuses those: "only one class present")
    per_class = {j: a[2] / (2 * a[0] * a[1]) if a[0] > 0 and a[1] > 0 else None for j, a in (auc or {}).items()}
    roc_auc = per_class.get(2) if k == 2 else None
    ovr: list[float | None] | None = [per_class.get(j) for j in range(1, k + 1)] if k > 2 and per_class else None
    if ovr is not None and all(v is not None for v in ovr):
        roc_auc = sum(v for v in ovr if v is not None) / k  # scikit-learn's multi_class='ovr', average='macro'
    return {
        "classes": classes,
        "rows": rows,
        "unknown_label_rows": unknown_rows,
        "unscored_rows": unscored,
        "accuracy": sum(tp) / rows if rows else None,
        "balanced_accuracy": sum(present) / len(present) if present else None,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "support": support,
        "macro_avg": {"precision": macro[0], "recall": macro[1], "f1": macro[2]},
        "weighted_avg": {"precision": weighted[0], "recall": weighted[1], "f1": weighted[2]},
        "confusion_matrix": cm,
        "log_loss": log_loss,
        "roc_auc": roc_auc,
        "roc_auc_ovr": ovr,
        "positive_class": classes[1] if k == 2 else None,
    }


@entry_point
def evaluate(
    plpy: Plpy, model: str | None, source: str | None, label: str | None = None, curves: bool | None = False,
    priors: Any = None, class_weights: Any = None, costs: Any = None, threshold: float | None = None,
) -> str:
    """Metrics of model ``model`` on the labelled rows of ``source`` (jsonb text; see the module docstring);
    ``curves``: each class's AUC against the rest (more than two classes) and the curves (:func:`curves`) too;
    ``priors``, ``class_weights``, ``costs``, ``threshold``: the rows scored under that decision
    (:mod:`madnb_pl.models.decisions`), and with ``costs`` the cost of its predictions (``expected_cost``)."""
    if curves is None:
        raise MadnbError("22004", "curves must not be NULL", hint="curves => true adds the ROC, precision-recall and calibration curves")
    name = model_name(model)
    model_row = require(plpy, name)
    decision = None
    if priors is not None or class_weights is not None or costs is not None or threshold is not None:
        decision = decisions.resolve(plpy, model_row, priors, class_weights, costs, threshold)
    rel = resolve_relation(plpy, source, "source")
    col = resolve_column(plpy, rel, quote_ident(model_row.label) if label is None else label, "label")  # the catalog holds the bare name
    classes = model_row.classes
    progress = Progress(plpy, f"evaluate {name.key} on {rel.display}", 2)
    progress.phase("score and aggregate every row (one pass)" + (", ranking each class's scores" if curves else ""))
    sql = evaluate_sql(
        name, rel.sql, col.name, model_row.label_type, len(classes), type_is_builtin(plpy, model_row.label_type),
        type_is_builtin(plpy, col.type_sql), ranked=bool(curves) and len(classes) >= 2, decided=decision is not None,
        ties=None if decision is not None else tie_rows(plpy, model_row, rel),
    )
    result = run_aggregate(plpy, sql, classes, ranked=bool(curves), decision=None if decision is None else decision.as_json())
    progress.phase("metrics")
    by_group = read_metrics(classes, result)
    if not by_group:
        raise MadnbError(
            "22000", f"no labelled rows to evaluate model {name.key} on",
            detail=f'every row of {rel.display} has a NULL "{col.name}" (or there are none)',
            hint="evaluate on a table or view with labelled rows",
        )
    m = by_group[1]
    if m["unscored_rows"]:
        detail = f'{m["unscored_rows"]} labelled row(s) of {rel.display} have no prediction: a NULL vector, or a dense one of another length'
        if not m["rows"]:
            raise MadnbError(
                "22000", f"no labelled row of {rel.display} has a prediction of model {name.key}", detail=detail,
                hint="evaluate on rows whose vector the model can score (its length is the model's)",
            )
        plpy.notice(f'{m["unscored_rows"]} row(s) without a prediction are left out of the metrics', detail=detail)
    if m["unknown_label_rows"] == m["rows"]:  # every metric is then 0 (or NULL): most likely the wrong label or table
        shown = ", ".join(classes[:10]) + (", ..." if len(classes) > 10 else "")
        plpy.warning(
            f'no label of {rel.display} is a class of model {name.key}: all {m["rows"]} labelled rows count as wrong predictions',
            detail=f'label "{col.name}"; the model\'s classes: {shown}',
            hint="evaluate on the column the model was trained to predict, with its values written as in training "
            "(madnb.model_classes lists them)",
        )
    if decision is not None:
        m["decision"] = decision.given()
        if decision.costs is not None:
            m.update(decision_costs(m["confusion_matrix"], decision.costs))
    progress.done()
    return json.dumps(m)


def decision_costs(cm: list[list[int]], costs: list[list[float]]) -> dict[str, float | None]:
    """The cost of the predictions in confusion matrix ``cm`` (rows: true class, columns: predicted) under ``costs``
    (the same layout): ``total_cost`` and ``expected_cost``, its mean per row whose label is a class."""
    total = math.fsum(n * c for row, crow in zip(cm, costs, strict=True) for n, c in zip(row, crow, strict=True))
    rows = sum(map(sum, cm))
    return {"total_cost": total, "expected_cost": total / rows if rows else None}


__all__ = [
    "CALIBRATION_BINS", "CLEAR_MARGIN", "CURVE_POINTS", "EPS", "PARAMETER_TYPES", "RANKED_WORK_MEM_KB", "TieRows", "aggregate_sql",
    "counts_ctes_sql",
    "counts_sql", "curves", "decision_costs", "evaluate", "evaluate_sql", "from_counts_sql", "label_sql", "margin_level_sql",
    "margin_sql", "metrics", "predicted_class_sql",
    "ranks_sql", "read_metrics", "run_aggregate", "scored_rows_sql", "subscripts", "tie_rows",
]

"""The vector kinds of madnb.train: multinomial, Bernoulli and complement naive Bayes
(:class:`VectorKind`, one :class:`~madnb_pl.models.kinds.base.Kind` per estimator).

``madnb.train(model, source, label, kind => 'multinomial' | 'bernoulli' | 'complement',
options => '{"alpha": ..., ...}')`` trains on ONE feature column holding a vector
of counts (or of 0/1 values), with scikit-learn's estimators' parameters and
numbers (MultinomialNB, BernoulliNB, ComplementNB):

    dense     a column of int2[], int4[], int8[], float4[], float8[] or numeric[]:
              feature j is element j (every vector of the same length);
    sparse    a tsvector column (text): feature = lexeme, its count = the number
              of its positions (1 in a tsvector stripped of positions; PostgreSQL
              keeps at most 256 positions per lexeme, so counts are capped at 256).

Rows with a NULL label or a NULL vector are not trained on (a NOTICE counts the
latter).  The pipeline is the one of every model, with kind-specific statistics:

    statistics  one SELECT (:func:`stats_select`) into a statistics table: per class its
                row count (attr 0) and per feature the sum of its values -- or, with
                ``binarize`` b (Bernoulli), the count of values > b -- (dense: attr j;
                tsvector: attr 1, value = lexeme).  Sums merge by addition; the header
                says ``vector`` (dense / tsvector) and ``binarize``.
    derive      :func:`derive` -- the summed cells -> tables ``<m>_class_priors``
                (class, class_count, log_prior: scikit-learn's class_log_prior_) and
                ``<m>_feature_probs`` (class, feature, term, count, log_prob:
                feature_log_prob_; feature numbers 1.. in the vocabulary's order, terms
                sorted by their bytes as CountVectorizer sorts them).
    predict     :func:`function_statements` -- the score expression (:func:`scores_sql`) in the
                bodies every kind shares: the usual madnb_models.<m>_predict,
                _predict_proba, _predict_proba_array (row form and column form).

Formulas (scikit-learn 1.x; fc = per-class feature sums, cc = class rows, a = alpha):

* multinomial: log_prob = ln(fc + a) - ln(sum_j (fc + a)); score = log_prior + x . log_prob
* bernoulli:   log_prob = ln(fc + a) - ln(cc + 2a); neg = ln(1 - exp(log_prob));
               score = log_prior + sum_j neg + x . (log_prob - neg), x binarised (x > b)
* complement:  comp = sum_c fc + a - fc; logged = ln(comp / sum_j comp);
               log_prob = -logged, or (norm) logged / sum_j logged; score = x . log_prob
               (plus log_prior with a single class only, as scikit-learn)
* log_prior:   class_prior given: ln(class_prior); fit_prior: ln(cc / sum cc); else -ln(K)

alpha below 1e-10 is raised to 1e-10 with a NOTICE (scikit-learn with
``force_alpha=False``: with alpha 0 a zero count would have probability 0 and
its logarithm -inf); alpha < 0 is an error.
"""

from __future__ import annotations

import dataclasses
import json
import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core.errors import MadnbError
from ...core.names import Column, ModelName, NewName, Relation, created, resolve_column
from ...core.sql import F8, FLOAT4, FLOAT8, INT2, INT4, INT8, NUMERIC, Plpy, Sql, f8_array_const, f8_const, quote_ident, temp_name, text_sql
from ...inputs import arrays, privacy_parameters
from ...inputs.arrays import finite_number
from ...inputs.columns import check_weights, resolve_inputs, weight_value_sql
from ...predict import explain, generated, share
from ...predict.generated import Helpers, plpy_literal
from ...release import statistics_table
from ..catalog import CatalogModel, ModelObjects
from .base import (
    CatalogEntry,
    Complement,
    Derived,
    FoldLookups,
    FoldPass,
    Kind,
    Released,
    TempName,
    TrainRequest,
    catalog_type,
    other_folds,
    publish_table,
    scores_in_order,
)

MULTINOMIAL, BERNOULLI, COMPLEMENT = "multinomial", "bernoulli", "complement"
OPTIONS: dict[str, frozenset[str]] = {
    MULTINOMIAL: frozenset({"alpha", "fit_prior", "class_prior"}),
    BERNOULLI: frozenset({"alpha", "fit_prior", "class_prior", "binarize"}),
    COMPLEMENT: frozenset({"alpha", "fit_prior", "class_prior", "norm"}),
}
TUNABLE: dict[str, frozenset[str]] = {
    MULTINOMIAL: frozenset({"alpha", "fit_prior"}),
    BERNOULLI: frozenset({"alpha", "fit_prior"}),  # not binarize: it changes the statistics pass
    COMPLEMENT: frozenset({"alpha", "norm"}),  # its fit_prior only matters with one class (scikit-learn's ComplementNB)
}
"""What a grid search may vary (:attr:`~madnb_pl.models.kinds.base.Kind.tunable`): numbers of the derivation only."""
"""The keys of madnb.train's ``options`` each vector kind takes (scikit-learn's parameter names)."""

TSVECTOR = 3614
DENSE, SPARSE = "dense", "tsvector"
ELEMENT_TYPES = frozenset({INT2, INT4, INT8, FLOAT4, FLOAT8, NUMERIC})
ALPHA_MIN = 1e-10  # scikit-learn's lower bound (force_alpha=False)
MAX_INLINE_TERMS = 4096  # dense models up to classes * features terms are one inlinable expression


@dataclass(frozen=True)
class Parameters:
    """The kind's parameters, checked, with scikit-learn's defaults."""

    alpha: float = 1.0
    fit_prior: bool = True
    class_prior: list[float] | None = None
    binarize: float | None = 0.0  # Bernoulli only (None: the input is used as it is)
    norm: bool = False  # complement only

    def as_json(self, kind: str) -> dict[str, Any]:
        out: dict[str, Any] = {"alpha": self.alpha, "fit_prior": self.fit_prior, "class_prior": self.class_prior}
        if kind == BERNOULLI:
            out["binarize"] = self.binarize
        if kind == COMPLEMENT:
            out["norm"] = self.norm
        return out


def _number(key: str, v: Any) -> float:
    if not finite_number(v):
        raise MadnbError("22023", f"option {key} must be a finite number, got {json.dumps(v)}")
    return float(v)


def _bool(key: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise MadnbError("22023", f"option {key} must be true or false, got {json.dumps(v)}")
    return v


def parameters(plpy: Plpy, kind: str, options: dict[str, Any]) -> Parameters:
    """Check the values of ``options`` (its keys are checked by :func:`madnb_pl.models.kinds.parse_options`)."""
    alpha = 1.0
    if options.get("alpha") is not None:
        alpha = _number("alpha", options["alpha"])
        if alpha < 0:
            raise MadnbError(
                "22023", f"alpha must not be negative, got {alpha!r}",
                hint="alpha is the additive (Laplace/Lidstone) smoothing: 1 by default, 0 for (almost) none",
            )
        if alpha < ALPHA_MIN:
            plpy.notice(
                f"alpha {alpha!r} is raised to {ALPHA_MIN:g}",
                detail="with alpha 0 a feature never seen with a class would have probability 0 (log -inf); "
                "as scikit-learn with force_alpha=False",
            )
            alpha = ALPHA_MIN
    fit_prior = True if options.get("fit_prior") is None else _bool("fit_prior", options["fit_prior"])
    prior = options.get("class_prior")
    if prior is not None:
        if not isinstance(prior, list) or not prior:
            raise MadnbError("22023", "option class_prior must be an array of numbers, one per class",
                             hint="in the order of the classes (madnb.model_classes order: the labels sorted)")
        prior = [_number("class_prior", p) for p in prior]
        if any(p < 0 for p in prior) or abs(math.fsum(prior) - 1.0) > 1e-9:
            raise MadnbError("22023", "option class_prior must hold probabilities that sum to 1",
                             detail=f"got {json.dumps(prior)}", hint="give one probability (>= 0) per class, summing to 1")
    binarize: float | None = 0.0
    if kind == BERNOULLI and "binarize" in options:
        binarize = None if options["binarize"] is None else _number("binarize", options["binarize"])
    norm = False if options.get("norm") is None else _bool("norm", options["norm"])
    return Parameters(alpha, fit_prior, prior, binarize if kind == BERNOULLI else None, norm)


@dataclass(frozen=True)
class VectorTraining:
    """A validated vector training: the source, its label and its one vector column."""

    source: Relation
    label: Column
    vector: Column
    form: str  # DENSE or SPARSE
    kind: str
    params: Parameters
    label_builtin: bool = True  # the label's type is PostgreSQL's own (core.sql.text_sql)
    weight: Column | None = None  # madnb.train's weight column: every sum weighted (scikit-learn's sample_weight)

    @property
    def role(self) -> str:
        return "binary" if self.kind == BERNOULLI else "counts"


def training(
    plpy: Plpy, kind: str, params: Parameters, source: str | None, label: str | None,
    features: list[str | None] | None, exclude: list[str | None] | None, categorical: list[str | None] | None,
    weight: str | None = None,
) -> VectorTraining:
    """The validated :class:`VectorTraining`: the inputs of every kind (:func:`madnb_pl.inputs.columns.resolve_inputs`),
    whose one feature is the vector column."""
    inputs = resolve_inputs(plpy, source, label, features, exclude, weight)
    rel, lab, names = inputs.source, inputs.label, inputs.features
    if categorical:
        raise MadnbError("22023", f"kind '{kind}' takes no categorical columns",
                         hint="categorical is for kind 'naive_bayes'; the features of this kind are one vector column")
    if len(names) != 1:
        raise MadnbError(
            "22023", f"kind '{kind}' trains on one vector column, not {len(names)} feature columns",
            detail=f"features: {', '.join(names)}",
            hint="name the one column of counts (an integer or float array, or a tsvector) in features, "
            "or exclude the others; to mix vectors with other columns, train separate models",
        )
    col = resolve_column(plpy, rel, quote_ident(names[0]), "features")
    if col.type_oid == TSVECTOR:
        form = SPARSE
    elif col.elem_oid in ELEMENT_TYPES:
        form = DENSE
    else:
        raise MadnbError(
            "42804", f'feature "{col.name}" is of type {col.type_sql}, not a vector of counts',
            hint=f"kind '{kind}' trains on an array of integers or floats (one element per feature) or a tsvector (text)",
        )
    return VectorTraining(rel, lab, col, form, kind, params, inputs.label_builtin, inputs.weight)


# ---------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------


def _stat(training: VectorTraining, x: str) -> str:
    """The per-feature statistic of value ``x`` (float8): itself, or 1/0 for x > binarize."""
    b = training.params.binarize
    if b is None:
        return x
    return f"(({x}) OPERATOR(pg_catalog.>) {f8_const(b)})::pg_catalog.int4::{F8}"


def stats_select(training: VectorTraining, fold: str | None = None) -> Sql:
    """The statistics pass: rows (cls, o, v, n, bad) -- one SELECT of two parts, each one scan.

    * o = 0, per class: its rows with a vector (n), and in ``bad`` the number of
      vectors that are not one-dimensional or hold a NULL (dense), with v the
      text of the smallest and largest lengths "lo:hi";
    * o = -1: rows whose vector is NULL (they are not trained on);
    * dense: per class and element j, o = j, the sum of the statistic (and in
      ``bad`` the count of negative, NaN or infinite elements);
    * tsvector: per class and lexeme, o = 1, v = the lexeme.

    ``fold``: an SQL expression over the source's row ``t``; the rows get a
    column f, its value, computed once per row in a LATERAL sub-select, and are
    grouped by it too (cross-validation's per-fold statistics, in the same pass);
    weighted, a last column r too, of the o = 0 rows the rows (n sums their weights).
    """
    lab, x, src = f"t.{training.label.sql}", f"t.{training.vector.sql}", f"{training.source.sql} AS t"
    # weighted (madnb.train's weight): a row's class count and sums are its weight times its values; its
    # rows with a NULL weight are not trained on (checked and counted first: columns.check_weights)
    w = None if training.weight is None else str(weight_value_sql(training.weight))
    rows = "pg_catalog.count(*)::pg_catalog.numeric" if w is None else f"pg_catalog.sum({w})::pg_catalog.text::pg_catalog.numeric"
    weighted = "" if w is None else f" AND {w} IS NOT NULL"
    by_fold, f, null_f, r, null_r = "", "", "", "", ""
    if fold is not None:
        by_fold, f, null_f = ", 6", ", x.f", ", NULL::pg_catalog.int4"
        src += f" CROSS JOIN LATERAL (SELECT {fold} OFFSET 0) AS x(f)"
        if w is not None:  # the rows trained on, counted (the folds' sizes: cross-validation counts rows)
            r, null_r = ", pg_catalog.count(*) AS r", ", NULL::pg_catalog.int8"
    if training.form == DENSE:
        lengths = (
            f"pg_catalog.min(pg_catalog.cardinality({x}))::pg_catalog.text OPERATOR(pg_catalog.||) ':' "
            f"OPERATOR(pg_catalog.||) pg_catalog.max(pg_catalog.cardinality({x}))::pg_catalog.text"
        )
        bad_vec = (
            f"pg_catalog.count(*) FILTER (WHERE pg_catalog.array_ndims({x}) OPERATOR(pg_catalog.<>) 1 "
            f"OR pg_catalog.array_position({x}, NULL) IS NOT NULL)"
        )
        head = f"SELECT {lab} AS cls, 0 AS o, {lengths} AS v, {rows} AS n, {bad_vec} AS bad{f}{r}"
        xf = f"u.x::{F8}"
        if w is not None:
            total = f"pg_catalog.sum({_stat(training, xf)} OPERATOR(pg_catalog.*) {w})::pg_catalog.text::pg_catalog.numeric"
        elif training.vector.elem_oid in (FLOAT4, FLOAT8):
            total = f"pg_catalog.sum({_stat(training, xf)})::pg_catalog.text::pg_catalog.numeric"
        elif training.params.binarize is None:
            total = "pg_catalog.sum(u.x)::pg_catalog.numeric"
        else:
            total = f"pg_catalog.sum({_stat(training, xf)})::pg_catalog.numeric"
        # scikit-learn refuses NaN and infinities, and negative counts (not Bernoulli's values);
        # integers are compared as they are (no cast per element: this is the pass's inner loop)
        integer = training.vector.elem_oid in (INT2, INT4, INT8)
        checks = [] if training.kind == BERNOULLI else ["u.x OPERATOR(pg_catalog.<) 0" if integer else f"{xf} OPERATOR(pg_catalog.<) '0'::{F8}"]
        if not integer:
            checks.append(f"{xf} OPERATOR(pg_catalog.=) ANY ('{{NaN,Infinity,-Infinity}}'::{F8}[])")
        bad_elem = f"pg_catalog.count(*) FILTER (WHERE {' OR '.join(checks)})" if checks else "0::pg_catalog.int8"
        if integer and training.params.binarize is not None and w is None:
            total = f"pg_catalog.count(*) FILTER (WHERE {xf} OPERATOR(pg_catalog.>) {f8_const(training.params.binarize)})::pg_catalog.numeric"
        body = (
            f"SELECT {lab}, u.o::pg_catalog.int4, NULL::pg_catalog.text, {total}, {bad_elem}{f}{null_r} "
            f"FROM {src} CROSS JOIN LATERAL pg_catalog.unnest({x}) WITH ORDINALITY AS u(x, o) "
            f"WHERE {lab} IS NOT NULL{weighted} GROUP BY 1, 2{by_fold}"
        )
    else:
        head = (
            f"SELECT {lab} AS cls, 0 AS o, NULL::pg_catalog.text AS v, {rows} AS n, "
            f"0::pg_catalog.int8 AS bad{f}{r}"
        )
        c = f"COALESCE(pg_catalog.cardinality(u.positions), 1)::{F8}"
        stat = _stat(training, c)
        total = (f"pg_catalog.sum({stat})::pg_catalog.numeric" if w is None
                 else f"pg_catalog.sum({stat} OPERATOR(pg_catalog.*) {w})::pg_catalog.text::pg_catalog.numeric")
        body = (
            f"SELECT {lab}, 1, u.lexeme, {total}, 0::pg_catalog.int8{f}{null_r} "
            f"FROM {src} CROSS JOIN LATERAL pg_catalog.unnest({x}) AS u "
            f"WHERE {lab} IS NOT NULL{weighted} GROUP BY 1, 3{by_fold}"
        )
    nulls = (
        f"SELECT NULL, -1, NULL, pg_catalog.count(*)::pg_catalog.numeric, 0{null_f}{null_r} FROM {training.source.sql} AS t "
        f"WHERE {lab} IS NOT NULL AND {x} IS NULL{weighted}"
    )
    head += f" FROM {src} WHERE {x} IS NOT NULL{weighted} GROUP BY 1{by_fold}"
    return Sql(f"{head} UNION ALL {nulls} UNION ALL {body}")


def write_statistics(plpy: Plpy, training: VectorTraining, dest: NewName) -> tuple[statistics_table.Header, int]:
    """The statistics pass into a new statistics table ``dest``; return its header and the rows trained on."""
    if training.weight is not None:
        check_weights(plpy, training.source, training.label, training.weight)
    s, rows, length = statistics_pass(plpy, training)
    header = insert_cells(plpy, training, s, dest, length)
    plpy.execute(Sql(f"DROP TABLE {s}"))
    if training.weight is not None:  # the pass's counts are sums of weights: the rows trained on, counted
        header = dataclasses.replace(header, weighted=True)
        lab, w = f"t.{training.label.sql}", weight_value_sql(training.weight)
        rows = int(plpy.execute(
            Sql(f"SELECT pg_catalog.count(*) AS n FROM {training.source.sql} AS t WHERE {lab} IS NOT NULL "
                f"AND t.{training.vector.sql} IS NOT NULL AND {w} IS NOT NULL")
        )[0]["n"])
    statistics_table.write_header(plpy, dest.sql, header)
    return header, rows


def statistics_pass(plpy: Plpy, training: VectorTraining, fold: str | None = None) -> tuple[Sql, int, int]:
    """Run :func:`stats_select` (grouped by ``fold`` too, if given) into a temporary table and check it, as
    scikit-learn checks its input; return its name, the rows trained on and the vectors' length (1 for a tsvector).

    A NOTICE counts the rows with a NULL vector; no row to train on, a vector that is
    not one-dimensional or holds a NULL, vectors of different lengths, and elements
    that are not counts (Bernoulli: not finite) are errors.
    """
    s = temp_name("madnb_vecstats_")
    plpy.execute(Sql(f"CREATE TEMPORARY TABLE {s} ON COMMIT DROP AS {stats_select(training, fold)}"))
    where = f"{training.source.display}, column \"{training.vector.name}\""
    nulls = plpy.execute(Sql(f"SELECT COALESCE(pg_catalog.sum(s.n), 0)::pg_catalog.int8 AS n FROM {s} AS s WHERE s.o OPERATOR(pg_catalog.=) -1"))[0]["n"]
    if nulls:
        plpy.notice(f"{nulls} row(s) of {training.source.display} with a NULL vector were ignored", detail=f'column "{training.vector.name}"')
    r = plpy.execute(
        Sql("SELECT COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NOT NULL), 0)::pg_catalog.int8 AS rows, "
        "COALESCE(pg_catalog.sum(s.bad), 0)::pg_catalog.int8 AS bad, pg_catalog.min(pg_catalog.split_part(s.v, ':', 1)::pg_catalog.int8) AS lo, "
        "pg_catalog.max(pg_catalog.split_part(s.v, ':', 2)::pg_catalog.int8) AS hi "
        f"FROM {s} AS s WHERE s.o OPERATOR(pg_catalog.=) 0 AND s.cls IS NOT NULL")
    )[0]
    if not r["rows"]:
        raise MadnbError("22023", f"source {training.source.display} has no rows with a non-NULL label and vector",
                         detail=f'label "{training.label.name}", vector "{training.vector.name}"', hint="train on a table with at least one such row")
    length = 1
    if training.form == DENSE:
        if r["bad"]:
            raise MadnbError("22023", f"{r['bad']} vector(s) of {where} are not one-dimensional or hold a NULL element",
                             hint="give every row a one-dimensional array of numbers (a NULL vector is skipped)")
        if r["hi"] == 0:
            raise MadnbError("22023", f"the vectors of {where} are empty", hint="give every row one element per feature")
        if r["lo"] != r["hi"]:
            raise MadnbError("22023", f"the vectors of {where} have different lengths ({r['lo']} to {r['hi']})",
                             hint="every vector holds one element per feature: give them all the same length")
        length = int(r["lo"])
        bad = plpy.execute(Sql(f"SELECT COALESCE(pg_catalog.sum(s.bad), 0)::pg_catalog.int8 AS b FROM {s} AS s WHERE s.o OPERATOR(pg_catalog.>) 0"))[0]["b"]
        if bad:
            if training.kind == BERNOULLI:
                raise MadnbError("22023", f"{bad} element(s) of the vectors of {where} are NaN or infinite",
                                 hint="the values are finite numbers (scikit-learn refuses NaN and infinities too)")
            raise MadnbError(
                "22023", f"{bad} element(s) of the vectors of {where} are negative, NaN or infinite",
                detail=f"kind '{training.kind}' counts occurrences (scikit-learn refuses such input too)",
                hint="counts are finite numbers >= 0",
            )
    return s, int(r["rows"]), length


def insert_cells(plpy: Plpy, training: VectorTraining, s: str, dest: NewName, length: int, fold: int | None = None) -> statistics_table.Header:
    """Create statistics table ``dest`` and fill it with the labelled cells of pass table ``s`` (of fold ``fold``);
    return its header (not yet written)."""
    header = statistics_table.Header(
        format=statistics_table.FORMAT, id=str(uuid.uuid4()), mode=statistics_table.EXACT, num_attrs=length, numeric=[],
        class_type=training.label.type_sql, element_type="text", source=training.source.display, created_at=statistics_table.now(plpy),
        vector=training.form, binarize=training.params.binarize,
    )
    statistics_table.create_with_types(plpy, dest, training.label.type_sql, "pg_catalog.text")
    in_fold = "" if fold is None else f" AND s.f OPERATOR(pg_catalog.=) {int(fold)}"
    plpy.execute(
        Sql(f"INSERT INTO {dest.sql} (cls, attr, value, n) SELECT s.cls, s.o, "
        f"CASE WHEN s.o OPERATOR(pg_catalog.>) 0 THEN s.v END, s.n FROM {s} AS s "
        f"WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.>=) 0{in_fold}")
    )
    return header


# ---------------------------------------------------------------------------
# derive
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class VectorModel:
    """The model's numbers, read back from its tables (class order)."""

    classes_text: str
    classes: list[str]
    log_prior: list[float]
    terms: list[str] | None  # the vocabulary (tsvector), None for dense
    log_prob: list[list[float]]  # per class, per feature


def class_log_prior(kind: str, p: Parameters, counts: list[float]) -> list[float]:
    """scikit-learn's class_log_prior_ from the class counts (class order)."""
    k = len(counts)
    if p.class_prior is not None:
        if len(p.class_prior) != k:
            raise MadnbError("22023", f"option class_prior has {len(p.class_prior)} probabilities, but there are {k} classes",
                             hint="give one probability per class, in the order of the labels sorted")
        return [math.log(x) if x > 0 else -math.inf for x in p.class_prior]
    if p.fit_prior:
        total = math.log(math.fsum(counts))
        return [math.log(c) - total for c in counts]
    return [-math.log(k)] * k


def derive(plpy: Plpy, training: VectorTraining, stats: Relation, header: statistics_table.Header, cp: NewName, fp: NewName) -> None:
    """The statistics table ``stats`` -> tables ``cp`` (class priors) and ``fp`` (feature log-probabilities)."""
    ltype = training.label.type_sql
    rows = plpy.execute(
        Sql(f"SELECT {text_sql('s.cls', training.label_builtin)} AS c, pg_catalog.sum(s.n)::{F8} AS n FROM {stats.sql} AS s "
        "WHERE s.attr OPERATOR(pg_catalog.=) 0 GROUP BY s.cls ORDER BY s.cls")
    )
    counts = [float(r["n"]) for r in rows]
    priors = class_log_prior(training.kind, training.params, counts)
    plpy.execute(Sql(f"CREATE TABLE {cp.sql} (class {ltype} PRIMARY KEY, class_count {F8} NOT NULL, log_prior {F8} NOT NULL)"))
    plpy.execute(
        plpy.prepare(
            Sql(f"INSERT INTO {cp.sql} (class, class_count, log_prior) SELECT s.cls, s.n, p.lp FROM "
            f"(SELECT s.cls, pg_catalog.sum(s.n)::{F8} AS n, pg_catalog.row_number() OVER (ORDER BY s.cls) AS i "
            f"FROM {stats.sql} AS s WHERE s.attr OPERATOR(pg_catalog.=) 0 GROUP BY s.cls) AS s "
            f"JOIN pg_catalog.unnest($1::{F8}[]) WITH ORDINALITY AS p(lp, i) ON p.i OPERATOR(pg_catalog.=) s.i"),
            [f"{F8}[]"],
        ),
        [priors],
    )
    # fresh tables: without statistics the planner joins the class x feature grid with the cells by a nested loop
    plpy.execute(Sql(f"ANALYZE {stats.sql}"))
    plpy.execute(Sql(f"ANALYZE {cp.sql}"))
    a = f"'{training.params.alpha!r}'::{F8}"
    if training.form == DENSE:
        vocab = f"SELECT g.j::pg_catalog.int4 AS feature, NULL::pg_catalog.text AS term FROM pg_catalog.generate_series(1, {header.num_attrs}) AS g(j)"
        cell = "s.attr OPERATOR(pg_catalog.=) v.feature"
    else:
        vocab = (
            "SELECT (pg_catalog.row_number() OVER (ORDER BY d.value COLLATE \"C\"))::pg_catalog.int4 AS feature, d.value AS term "
            f"FROM (SELECT DISTINCT s.value FROM {stats.sql} AS s WHERE s.attr OPERATOR(pg_catalog.=) 1) AS d"
        )
        cell = "s.attr OPERATOR(pg_catalog.=) 1 AND s.value OPERATOR(pg_catalog.=) v.term"
    # the cells summed (a statistics table may hold several parts' cells), one hash join with the grid
    fc = (
        f"SELECT c.class, v.feature, v.term, COALESCE(s.n, 0)::{F8} AS count, c.class_count AS cc "
        f"FROM {cp.sql} AS c CROSS JOIN v LEFT JOIN (SELECT s.cls, s.attr, s.value, pg_catalog.sum(s.n) AS n "
        f"FROM {stats.sql} AS s WHERE s.attr OPERATOR(pg_catalog.>) 0 GROUP BY 1, 2, 3) AS s "
        f"ON s.cls OPERATOR(pg_catalog.=) c.class AND {cell}"
    )
    if training.kind == MULTINOMIAL:
        lp = (
            f"pg_catalog.ln(f.count OPERATOR(pg_catalog.+) {a}) OPERATOR(pg_catalog.-) pg_catalog.ln(pg_catalog.sum(f.count "
            f"OPERATOR(pg_catalog.+) {a}) OVER (PARTITION BY f.class))"
        )
    elif training.kind == BERNOULLI:
        lp = (
            f"pg_catalog.ln(f.count OPERATOR(pg_catalog.+) {a}) OPERATOR(pg_catalog.-) pg_catalog.ln(f.cc OPERATOR(pg_catalog.+) "
            f"('2'::{F8} OPERATOR(pg_catalog.*) {a}))"
        )
    else:
        comp = (
            f"(pg_catalog.sum(f.count) OVER (PARTITION BY f.feature) OPERATOR(pg_catalog.+) {a} OPERATOR(pg_catalog.-) f.count)"
        )
        lp = f"{comp}"  # the complement count; normalised below
    plpy.execute(
        Sql(f"CREATE TABLE {fp.sql} (class {ltype} NOT NULL, feature pg_catalog.int4 NOT NULL, term pg_catalog.text, "
        f"count {F8} NOT NULL, log_prob {F8} NOT NULL, PRIMARY KEY (class, feature))")
    )
    if training.kind != COMPLEMENT:
        plpy.execute(Sql(f"INSERT INTO {fp.sql} WITH v AS ({vocab}), f AS ({fc}) SELECT f.class, f.feature, f.term, f.count, {lp} FROM f"))
    else:
        logged = "pg_catalog.ln(g.comp OPERATOR(pg_catalog./) pg_catalog.sum(g.comp) OVER (PARTITION BY g.class))"
        w = (
            "h.logged OPERATOR(pg_catalog./) pg_catalog.sum(h.logged) OVER (PARTITION BY h.class)"
            if training.params.norm else "OPERATOR(pg_catalog.-) h.logged"
        )
        plpy.execute(
            Sql(f"INSERT INTO {fp.sql} WITH v AS ({vocab}), f AS ({fc}), "
            f"g AS (SELECT f.class, f.feature, f.term, f.count, {lp} AS comp FROM f), "
            f"h AS (SELECT g.class, g.feature, g.term, g.count, {logged} AS logged FROM g) "
            f"SELECT h.class, h.feature, h.term, h.count, {w} FROM h")
        )


def read_model(plpy: Plpy, training: VectorTraining, cp: NewName, fp: NewName) -> VectorModel:
    """The model's numbers from its tables, in class order and feature order."""
    c = plpy.execute(
        Sql(f"SELECT pg_catalog.textin(pg_catalog.array_out(pg_catalog.array_agg(c.class ORDER BY c.class))) AS t, "
        f"pg_catalog.array_agg({text_sql('c.class', training.label_builtin)} ORDER BY c.class) AS a, "
        f"pg_catalog.array_agg(c.log_prior ORDER BY c.class) AS p FROM {cp.sql} AS c")
    )[0]
    rows = plpy.execute(
        Sql(f"SELECT pg_catalog.array_agg(f.log_prob ORDER BY f.feature) AS lp FROM {fp.sql} AS f GROUP BY f.class ORDER BY f.class")
    )
    if not rows or not rows[0]["lp"]:
        raise MadnbError("22023", f"the vectors of {training.source.display}, column \"{training.vector.name}\" hold no lexeme",
                         hint="train on documents with at least one lexeme (an empty tsvector adds nothing)")
    terms = None
    if training.form == SPARSE:
        terms = [str(r["term"]) for r in plpy.execute(
            Sql(f"SELECT f.term FROM {fp.sql} AS f WHERE f.class OPERATOR(pg_catalog.=) (SELECT pg_catalog.min(c.class) FROM {cp.sql} AS c) "
            "ORDER BY f.feature"))]
    return VectorModel(str(c["t"]), [str(x) for x in c["a"]], [float(p) for p in c["p"]], terms,
                       [[float(x) for x in r["lp"]] for r in rows])


# ---------------------------------------------------------------------------
# predict
# ---------------------------------------------------------------------------


def weights(training: VectorTraining, m: VectorModel) -> tuple[list[float], list[list[float]]]:
    """Per class the score's constant and the weight of each feature: score = c + x . w (x binarised for Bernoulli)."""
    k = len(m.classes)
    if training.kind == MULTINOMIAL:
        return list(m.log_prior), m.log_prob
    if training.kind == BERNOULLI:
        consts, ws = [], []
        for i in range(k):
            neg = [math.log(d) if d > 0 else -math.inf for d in (1 - math.exp(lp) for lp in m.log_prob[i])]
            consts.append(m.log_prior[i] + math.fsum(neg))
            ws.append([lp - ng for lp, ng in zip(m.log_prob[i], neg, strict=True)])
        return consts, ws
    return ([m.log_prior[0]] if k == 1 else [0.0] * k), m.log_prob


def _dense_ok(training: VectorTraining, x: str, n: int) -> str:
    """What a dense vector must be to predict (else NULL), as training requires it.

    One-dimensional, ``n`` elements, none NULL, its first index 1 (element j is
    feature j: training numbers elements from the first one, prediction reads
    x[1..n]); for float and numeric elements no NaN or infinity (training refuses
    them, as scikit-learn does).
    """
    guard = (
        f"pg_catalog.cardinality({x}) OPERATOR(pg_catalog.=) {n} AND pg_catalog.array_ndims({x}) OPERATOR(pg_catalog.=) 1 "
        f"AND pg_catalog.array_position({x}, NULL) IS NULL AND pg_catalog.array_lower({x}, 1) OPERATOR(pg_catalog.=) 1"
    )
    if training.vector.elem_oid not in (INT2, INT4, INT8):
        guard += (
            f" AND NOT (({x})::{F8}[] OPERATOR(pg_catalog.&&) "
            f"'{{NaN,Infinity,-Infinity}}'::{F8}[])"
        )
    return guard


def inlined(training: VectorTraining, m: VectorModel) -> bool:
    """The scores are one expression of :func:`dense_terms` (a dense model of at most MAX_INLINE_TERMS terms), which the
    planner inlines; else a sub-select over the vector's elements."""
    return training.form == DENSE and len(m.log_prob[0]) * len(m.log_prob) <= MAX_INLINE_TERMS


def dense_terms(training: VectorTraining, m: VectorModel, x: str) -> list[list[str]]:
    """Per class, the SQL of each element's term of the score of dense vector ``x`` (x_j w_j; Bernoulli: w_j when x_j > b,
    else 0): the score is the class's constant (:func:`weights`) plus these, in element order."""
    _, ws = weights(training, m)
    b = training.params.binarize
    integer = training.vector.elem_oid in (INT2, INT4, INT8)
    bound = ""
    if b is not None:
        bound = f"'{max(min(math.floor(b), 2**63 - 1), -(2**63))}'::pg_catalog.int8" if integer else f8_const(b)

    def term(j: int, w: float) -> str:
        if b is not None:
            # present or not: the weight or 0, compared in the element's type where it is an integer
            # (x > b is x > floor(b) for integers), so there is no cast per element
            xj = f"({x})[{j}]" if integer else f"({x})[{j}]::{F8}"
            return f"CASE WHEN {xj} OPERATOR(pg_catalog.>) {bound} THEN {f8_const(w)} ELSE '0'::{F8} END"
        return f"(({x})[{j}]::{F8} OPERATOR(pg_catalog.*) {f8_const(w)})"  # OPERATOR() binds left to right

    return [[term(j, w) for j, w in enumerate(wi, start=1)] for wi in ws]


def elements(training: VectorTraining, m: VectorModel, x: str, named: bool = False) -> tuple[str, str]:
    """The sub-select of vector ``x``'s elements (x: the statistic, j: the feature's number, NULL for a lexeme the model
    does not know; ``named``: also name, the feature's name, :func:`feature_names`) and the condition that ``x`` can be
    scored."""
    if training.form == DENSE:
        name = (f", {plpy_literal(training.vector.name + '[')} OPERATOR(pg_catalog.||) e.j::pg_catalog.text "
                "OPERATOR(pg_catalog.||) ']' AS name") if named else ""
        inner = (
            f"SELECT {_stat(training, f'e.x::{F8}')} AS x, e.j::pg_catalog.int4 AS j{name} "
            f"FROM pg_catalog.unnest({x}) WITH ORDINALITY AS e(x, j)"
        )
        return inner, _dense_ok(training, x, len(m.log_prob[0]))
    assert m.terms is not None
    vocab = json.dumps({term: j for j, term in enumerate(m.terms, start=1)}, ensure_ascii=False)
    inner = (
        f"SELECT {_stat(training, f'COALESCE(pg_catalog.cardinality(e.positions), 1)::{F8}')} AS x, "
        f"({plpy_literal(vocab)}::pg_catalog.jsonb OPERATOR(pg_catalog.->>) e.lexeme)::pg_catalog.int4 AS j"
        + (", e.lexeme AS name" if named else "") + f" FROM pg_catalog.unnest({x}) AS e"
    )
    return inner, f"{x} IS NOT NULL"


def feature_names(training: VectorTraining, m: VectorModel) -> list[str]:
    """The features' names an explanation gives: a dense vector's elements as ``column[j]``, a tsvector's lexemes."""
    if m.terms is not None:
        return list(m.terms)
    return [f"{training.vector.name}[{j}]" for j in range(1, len(m.log_prob[0]) + 1)]


def scores_sql(training: VectorTraining, m: VectorModel, x: str) -> Sql:
    """The K scores (a float8[]) of vector ``x``: NULL for a NULL vector or a dense one of another length."""
    consts, ws = weights(training, m)
    n = len(ws[0])
    if inlined(training, m):
        # one expression: the planner inlines the function, and PostgreSQL runs it in the caller's scan
        scores = ",\n ".join(
            f"{f8_const(consts[i])}" + "".join(f"\n  OPERATOR(pg_catalog.+) {t}" for t in terms)
            for i, terms in enumerate(dense_terms(training, m, x))
        )
        return Sql(f"CASE WHEN {_dense_ok(training, x, n)} THEN ARRAY[\n {scores}\n] END")
    sums = ", ".join(
        f"{f8_const(consts[i])} OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(u.x OPERATOR(pg_catalog.*) ({f8_array_const(ws[i])})[u.j]), '0'::{F8})"
        for i in range(len(ws))
    )
    inner, cond = elements(training, m, x)
    # elements whose statistic is 0 add nothing: skipping them halves the work on typical counts
    return Sql(f"CASE WHEN {cond} THEN (SELECT ARRAY[{sums}] FROM ({inner}) AS u WHERE u.x OPERATOR(pg_catalog.<>) '0'::{F8}) END")


def explain_sql(training: VectorTraining, m: VectorModel, x: str, helper: str = explain.HELPER) -> str:
    """The explanation (:mod:`madnb_pl.predict.explain`) of vector ``x``: per class the score's constant (:func:`weights`:
    the log prior; Bernoulli: plus every feature's log-probability of being absent) and each feature's term of
    :func:`scores_sql` (x_j w_j); NULL where the scores are NULL.  The dense form of :func:`inlined` lists every
    element; the sub-select form only the elements whose statistic is not 0 (the others add nothing), a tsvector's
    lexemes the model knows."""
    consts, ws = weights(training, m)
    prior: list[str] = [f8_const(c) for c in consts]
    if inlined(training, m):
        return (f"CASE WHEN {_dense_ok(training, x, len(ws[0]))} THEN "
                f"{explain.body(helper, prior, dense_terms(training, m, x), feature_names(training, m), m.classes)} END")
    inner, cond = elements(training, m, x, named=True)
    rows = ", ".join(
        f"COALESCE(pg_catalog.array_agg(u.x OPERATOR(pg_catalog.*) ({f8_array_const(w)})[u.j] ORDER BY u.j), '{{}}'::{F8}[])" for w in ws
    )
    call = explain.call(
        helper, "ARRAY[" + ", ".join(prior) + "]", f"ARRAY[{rows}]", "COALESCE(pg_catalog.array_agg(u.name ORDER BY u.j), '{}'::pg_catalog.text[])",
        m.classes,
    )
    return (f"CASE WHEN {cond} THEN (SELECT {call} FROM ({inner}) AS u "
            f"WHERE u.x OPERATOR(pg_catalog.<>) '0'::{F8} AND u.j IS NOT NULL) END")


def explain_terms(training: VectorTraining, m: VectorModel, row: str, looked: str) -> explain.Terms | None:
    """:func:`explain_sql`'s terms of row ``row``'s vector (an alias; the vector the lookup ``x`` of relation ``looked``),
    for the dense form of :func:`inlined` (the sub-select form lists each row's own elements: None)."""
    if not inlined(training, m):
        return None
    consts, ws = weights(training, m)
    x = f"{looked}.x"
    return explain.Terms([f8_const(c) for c in consts], dense_terms(training, m, x), feature_names(training, m),
                         [("x", f"{row}.{training.vector.sql}")], _dense_ok(training, x, len(ws[0])))


def explain_statements(
    names: explain.ExplainNames, comment_prefix: str, training: VectorTraining, m: VectorModel, quote: Callable[[str], str],
) -> generated.Functions:
    """``<model>_explain`` of a vector kind: the column form (the vector) and the row form, as :func:`function_statements`."""
    column = generated.Form(
        f"{training.vector.sql} {training.vector.type_sql}", training.vector.type_sql, "the vector",
        [(explain.JSONB, explain_sql(training, m, "$1", names.helper))],
    )
    x = f"($1).{training.vector.sql}"
    if training.vector.name != "r":
        return explain.statements(names, comment_prefix, "IMMUTABLE", quote, column, f"{training.vector.sql} => {x}")
    return explain.statements(names, comment_prefix, "IMMUTABLE", quote, column, None,
                              ([str(training.vector.sql)], explain_sql(training, m, x, names.helper), True, ""))


def row_arguments(training: VectorTraining, field: Callable[[Column], str]) -> str | None:
    """The argument with which the row form calls the column form (``vector => value``), ``field(c)`` the SQL of the
    row's column ``c`` (:func:`madnb_pl.predict.generated.row_arguments`'s, for a vector); None when the vector is
    named r, the row form's parameter (its row form is the internal model for a row, after a row check)."""
    if training.vector.name == "r":
        return None
    return f"{training.vector.sql} => {field(training.vector)}"


def function_statements(
    names: generated.FunctionNames, comment_prefix: str, training: VectorTraining, m: VectorModel, helpers: Helpers,
    quote: Callable[[str], str], class_order: str = "madnb.model_classes",
) -> generated.Functions:
    """CREATE OR REPLACE FUNCTION and COMMENT ON FUNCTION of predict, predict_proba and predict_proba_array, both forms.

    As :func:`madnb_pl.predict.generated.function_statements`: ``names`` the functions' names,
    ``comment_prefix`` starts each comment, ``helpers`` are the per-row helpers'
    names (madnb's, or an exported script's copies), ``quote`` writes a comment
    as a string constant, ``class_order`` names what orders the probability array.
    """
    descriptions = [
        "the predicted class (the first class within 1e-12 of the best score)",
        "jsonb {class: probability}",
        f"float8[] of class probabilities in the order of {class_order}",
    ]
    label_type = training.label.type_sql
    column_form = generated.Form(
        f"{training.vector.sql} {training.vector.type_sql}", training.vector.type_sql, "the vector",
        generated.bodies(label_type, m.classes_text, m.classes, scores_sql(training, m, "$1"), helpers),
    )
    # the row form calls the column form (as predict.function_statements: a row without the vector
    # column fails with a short error), unless the vector is named r, the row form's parameter: then
    # the internal model for a row, after a row check of the vector column
    x = f"($1).{training.vector.sql}"
    takes = "a row holding the vector column"
    internal = None
    call = row_arguments(training, lambda c: f"($1).{c.sql}")
    if call is not None:
        row_form = generated.row_form(takes, generated.calls(names.predict, label_type, call))
    else:
        row_form, internal = generated.checked_row_form(
            names, comment_prefix, descriptions, "IMMUTABLE", [str(training.vector.sql)],
            generated.bodies(label_type, m.classes_text, m.classes, scores_sql(training, m, x), helpers), takes, quote,
        )
    functions = generated.model_functions(names.predict, comment_prefix, descriptions, "IMMUTABLE", [column_form, row_form], quote, internal)
    if names.share is None:
        return functions
    # not served yet: its functions exist and say so (re-training from another kind leaves no older shares function)
    private = share.share_functions(names.share, comment_prefix, f"models of kind '{training.kind}' are not served yet", quote)
    return generated.Functions(functions.functions + private.functions, functions.statements + private.statements)




# ---------------------------------------------------------------------------
# the kinds
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _VectorPass(FoldPass):
    """A vector kind's fold pass (:func:`statistics_pass`): also the vectors' length, every fold's header's."""

    length: int = 1


class VectorKind(Kind[VectorTraining, VectorModel]):
    """'multinomial', 'bernoulli' and 'complement': one vector column, scikit-learn's numbers (see the module docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.options = OPTIONS[name]
        self.tunable = TUNABLE[name]

    def tuned(self, plpy: Plpy, training: VectorTraining, request: TrainRequest) -> VectorTraining:
        return dataclasses.replace(training, params=parameters(plpy, self.name, request.options))

    def resolve(self, plpy: Plpy, request: TrainRequest) -> VectorTraining:
        if request.smoothing != 1.0:
            raise MadnbError("22023", f"kind '{self.name}' takes alpha in options, not smoothing",
                             hint=f"e.g. options => '{{\"alpha\": {request.smoothing!r}}}'")
        privacy_parameters.refuse_private_arguments(
            request.bounds, request.domain, request.delta, hint="leave bounds, domain and delta out",
        )
        vector_training = training(
            plpy, self.name, parameters(plpy, self.name, request.options), request.source, request.label,
            request.features, request.exclude, request.categorical, request.weight,
        )
        arrays.check_label_type(plpy, vector_training.label)
        return vector_training

    def source(self, training: VectorTraining) -> Relation:
        return training.source

    def label(self, training: VectorTraining) -> Column:
        return training.label

    def weight(self, training: VectorTraining) -> Column | None:
        return training.weight

    def catalog_entry(self, training: VectorTraining, request: TrainRequest) -> CatalogEntry:
        feats = [{"name": training.vector.name, "role": training.role, "type": training.vector.type_sql}]
        return CatalogEntry(feats, training.params.alpha, training.params.as_json(training.kind))

    def statistics(self, plpy: Plpy, training: VectorTraining, model: ModelName, kept: NewName) -> Released:
        header, rows = write_statistics(plpy, training, kept)
        arrays.warn_suspect_classes(plpy, kept.sql, training.label, training.source)
        return Released(header, rows)

    def release_part(self, plpy: Plpy, training: VectorTraining, dest: NewName) -> Released:
        header, rows = write_statistics(plpy, training, dest)
        return Released(header, rows)

    def derive(self, plpy: Plpy, training: VectorTraining, model: ModelName, kept: NewName, released: Released) -> Derived:
        objects = ModelObjects.of(model)
        cp, fp = objects.class_priors, objects.feature_probs
        derive(plpy, training, created(plpy, kept), released.header, cp, fp)
        for table, comment in (
            (cp, "per class its training rows and log prior (scikit-learn's class_count_, class_log_prior_)"),
            (fp, "per class and feature the summed statistic and its weight (scikit-learn's feature_count_, feature_log_prob_)"),
        ):
            publish_table(plpy, table, f"{self.comment_prefix(model)}: {comment}")
        return Derived([cp, fp], released.rows)

    def score_log_prior(self, training: VectorTraining, n: VectorModel) -> list[float]:
        # complement scores hold no prior (but with one class), as scikit-learn's ComplementNB (see weights)
        if training.kind == COMPLEMENT and len(n.classes) > 1:
            return [0.0] * len(n.classes)
        return list(n.log_prior)

    def read_numbers(self, plpy: Plpy, training: VectorTraining, objects: ModelObjects) -> VectorModel:
        return read_model(plpy, training, objects.class_priors, objects.feature_probs)

    def function_statements(
        self, names: generated.FunctionNames, comment_prefix: str, training: VectorTraining, n: VectorModel, helpers: Helpers,
        quote: Callable[[str], str], class_order: str = "madnb.model_classes",
    ) -> generated.Functions:
        return function_statements(names, comment_prefix, training, n, helpers, quote, class_order)

    def explain_statements(
        self, names: explain.ExplainNames, comment_prefix: str, training: VectorTraining, n: VectorModel, quote: Callable[[str], str],
    ) -> generated.Functions:
        return explain_statements(names, comment_prefix, training, n, quote)

    def explain_terms(self, training: VectorTraining, n: VectorModel, row: str, looked: str) -> explain.Terms | None:
        return explain_terms(training, n, row, looked)

    def comment_prefix(self, model: ModelName) -> str:
        return f"madnb model {model.key} ({self.name})"

    def label_builtin(self, training: VectorTraining) -> bool:
        return training.label_builtin

    def trained_rows(self, training: VectorTraining) -> Sql:
        weighted = "" if training.weight is None else f" AND {weight_value_sql(training.weight)} IS NOT NULL"
        return Sql(f"t.{training.label.sql} IS NOT NULL AND t.{training.vector.sql} IS NOT NULL{weighted}")

    def fold_pass(self, plpy: Plpy, training: VectorTraining, fold: Sql) -> FoldPass:
        if training.weight is None:
            s, rows, length = statistics_pass(plpy, training, fold)
            return _VectorPass(s, rows, length=length)
        # weighted (madnb.train's weight, checked as it checks it): n sums weights, r counts the rows trained on
        check_weights(plpy, training.source, training.label, training.weight)
        s, _weights, length = statistics_pass(plpy, training, fold)
        rows = plpy.execute(
            Sql(f"SELECT COALESCE(pg_catalog.sum(s.r), 0)::pg_catalog.int8 AS n FROM {s} AS s "
                "WHERE s.o OPERATOR(pg_catalog.=) 0 AND s.cls IS NOT NULL")
        )[0]["n"]
        return _VectorPass(s, int(rows), rows="r", length=length)

    def fold_complements(self, plpy: Plpy, training: VectorTraining, fold_pass: FoldPass, folds: int, temp: TempName) -> list[Complement]:
        assert isinstance(fold_pass, _VectorPass)
        parts = []
        for f in range(1, folds + 1):
            name = temp("fold")
            header = insert_cells(plpy, training, fold_pass.table, name, fold_pass.length, fold=f)
            statistics_table.write_header(plpy, name.sql, header)
            parts.append((created(plpy, name), header))
        plpy.execute(Sql(f"DROP TABLE {fold_pass.table}"))
        return other_folds(parts)

    def score_values(self, training: VectorTraining) -> list[Sql]:
        return [Sql(f"t.{training.vector.sql}")]

    def complement_scores(
        self, plpy: Plpy, trainings: list[VectorTraining], complement: Complement, classes: list[str], values: list[str],
        temp: TempName, lookups: FoldLookups | None = None,
    ) -> list[Sql]:
        """The other folds' cells in one statistics table (:func:`derive` sums a table's cells: per-feature sums add),
        summed once and derived for each point as madnb.train derives them; scores of a class the complement lacks
        are -Infinity."""
        total = temp("sum")
        statistics_table.create_with_types(plpy, total, trainings[0].label.type_sql, "pg_catalog.text")
        plpy.execute(
            Sql(f"INSERT INTO {total.sql} (cls, attr, value, n) "
            + " UNION ALL ".join(f"SELECT p.cls, p.attr, p.value, p.n FROM {rel.sql} AS p" for rel, _header in complement.parts))
        )
        (x,) = values
        out = []
        for training in trainings:
            cp, fp = temp("cp"), temp("fp")
            derive(plpy, training, created(plpy, total), complement.parts[0][1], cp, fp)
            m = read_model(plpy, training, cp, fp)
            scores = scores_sql(training, m, x)
            if m.classes == classes:
                out.append(scores)
                continue
            # NULL scores (a vector that cannot be scored) stay NULL
            in_order = scores_in_order(classes, m.classes, lambda i: f"z.s[{i + 1}]")
            out.append(Sql(f"(SELECT CASE WHEN z.s IS NOT NULL THEN {in_order} END FROM (SELECT {scores} AS s) AS z)"))
        return out

    def row_arguments(self, training: VectorTraining, field: Callable[[Column], str]) -> str | None:
        return row_arguments(training, field)

    def from_catalog(self, plpy: Plpy, m: CatalogModel) -> VectorTraining:
        """The model's vector training, typed for the export (base types, pg_catalog-qualified)."""
        (f,) = m.features
        vb = catalog_type(plpy, m, f["type"], f'feature "{f["name"]}"')
        type_sql, oid = vb.sql, vb.oid
        elem_sql, elem_oid = None, None
        if oid != TSVECTOR:
            rows = plpy.execute(
                plpy.prepare(
                    Sql("SELECT e.oid::pg_catalog.int8 AS oid, e.typname::pg_catalog.text AS name FROM pg_catalog.pg_type AS t "
                    "JOIN pg_catalog.pg_type AS e ON e.oid OPERATOR(pg_catalog.=) t.typelem WHERE t.oid OPERATOR(pg_catalog.=) $1"),
                    ["pg_catalog.oid"],
                ),
                [oid],
            )
            if not rows or int(rows[0]["oid"]) not in ELEMENT_TYPES:
                raise MadnbError(
                    "42804", f'feature "{f["name"]}" of model "{m.name.key}" is of type {f["type"]}, not a vector of counts',
                    hint="re-train the model (replace => true)",
                )
            elem_oid, elem_sql = int(rows[0]["oid"]), "pg_catalog." + str(rows[0]["name"])
            type_sql = elem_sql + "[]"
        vec = Column(f["name"], type_sql, oid, elem_sql, elem_oid)
        lb = catalog_type(plpy, m, m.label_type, f'the label "{m.label}"')
        params = parameters(plpy, m.kind, m.parameters or {})  # training kept every parameter, checked
        form = SPARSE if oid == TSVECTOR else DENSE
        return VectorTraining(Relation("", m.source), Column(m.label, lb.sql, lb.oid, None, None), vec, form, m.kind, params, lb.builtin)

    def tables(self, objects: ModelObjects, training: VectorTraining) -> list[NewName]:
        return [objects.class_priors, objects.feature_probs]

    def with_classes(self, n: VectorModel, classes: list[str]) -> VectorModel:
        return dataclasses.replace(n, classes=classes)

    def export_numbers(self, plpy: Plpy, m: CatalogModel, training: VectorTraining, n: VectorModel) -> dict[str, Any]:
        objects = ModelObjects.of(m.name)
        counts = plpy.execute(
            Sql(f"SELECT pg_catalog.array_agg(c.class_count ORDER BY c.class) AS n FROM {objects.class_priors.sql} AS c")
        )[0]["n"]
        feature_count = [
            [float(x) for x in r["n"]]
            for r in plpy.execute(
                Sql(f"SELECT pg_catalog.array_agg(f.count ORDER BY f.feature) AS n FROM {objects.feature_probs.sql} AS f "
                "GROUP BY f.class ORDER BY f.class")
            )
        ]
        return {
            "class_count": [float(c) for c in counts], "smoothing": m.smoothing, "training_rows": m.training_rows,
            "parameters": training.params.as_json(m.kind), "log_prior": n.log_prior,
            "vector": {"name": training.vector.name, "type": m.features[0]["type"], "form": training.form, "terms": n.terms},
            "feature_count": feature_count, "log_prob": n.log_prob,
        }


VECTOR_KINDS = tuple(VectorKind(k) for k in (MULTINOMIAL, BERNOULLI, COMPLEMENT))
"""scikit-learn's MultinomialNB, BernoulliNB and ComplementNB, registered in :data:`madnb_pl.models.kinds.KINDS`."""


__all__ = [
    "BERNOULLI",
    "COMPLEMENT",
    "MULTINOMIAL",
    "OPTIONS",
    "VECTOR_KINDS",
    "Parameters",
    "VectorKind",
    "VectorModel",
    "VectorTraining",
    "class_log_prior",
    "derive",
    "dense_terms",
    "elements",
    "explain_sql",
    "explain_statements",
    "explain_terms",
    "feature_names",
    "function_statements",
    "inlined",
    "insert_cells",
    "parameters",
    "read_model",
    "row_arguments",
    "scores_sql",
    "statistics_pass",
    "stats_select",
    "training",
    "write_statistics",
]

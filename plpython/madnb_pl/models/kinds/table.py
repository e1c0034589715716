"""The kinds of the statistics table: 'naive_bayes' (MADlib's numbers, the kind that can be private) and
those that follow scikit-learn, 'gaussian' (GaussianNB) and 'categorical' (CategoricalNB).

Each is a :class:`TableKind` (the :class:`~madnb_pl.models.kinds.base.Kind` of ordinary
columns: :func:`madnb_pl.inputs.columns.training`, the statistics pass of
:mod:`madnb_pl.release.column_pass`, MADlib's model tables, the functions of
:mod:`madnb_pl.predict.generated`).  'gaussian' and 'categorical' are the same
sufficient statistics as kind 'naive_bayes' (the same statistics pass, the same
statistics table, the same derivation into MADlib's three tables); they differ only in a few numbers, set here after the
derivation and before the prediction functions are generated:

* 'gaussian' (every feature numeric): the variance of class c and feature i is
  the population variance (ddof 0, scikit-learn's ``var_``) plus
  ``epsilon = var_smoothing * the largest variance of a feature over all rows``
  (``epsilon_``), written into the numeric_stats table's attr_var; no MADlib
  floor at prediction.  The variance of a feature over all rows is the merge of
  its classes' cells (:func:`madnb_pl.merge.part_sums.pooled_numeric_select`): no extra
  pass.  Priors: the class frequencies, or ``priors``.
* 'categorical' (every feature categorical, by its text form): ``alpha`` is
  the smoothing; the number of categories of feature i is
  ``max(distinct values seen, min_categories_i)``, written into the
  feature_probs table's attr_cnt, so that
  P(v|c) = (cnt + alpha) / (rows of c with feature i present + alpha * n_categories_i)
  as CategoricalNB's ``feature_log_prob_``.  Priors: the class frequencies,
  uniform (``fit_prior`` false) or ``class_prior``.

Values are checked here (the keys by :func:`madnb_pl.models.kinds.parse_options`):
every bad value is 22023 naming the option.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core.errors import MadnbError
from ...core.names import Column, ModelName, NewName, Relation, created
from ...core.sql import F8, Plpy, Sql
from ...derive import model_tables
from ...derive.model_tables import ModelTables
from ...inputs import arrays, columns
from ...inputs.arrays import MAX_SMOOTHING, finite_number
from ...inputs.columns import ColumnTraining, Feature, gaussian_value_sql, label_text_sql, weight_value_sql
from ...merge import part_sums
from ...predict import explain, generated, share
from ...predict.generated import Helpers
from ...privacy import column_release, private_release
from ...release import column_pass
from ..catalog import CatalogModel, ModelObjects
from .base import (
    CatalogEntry,
    CatalogType,
    Complement,
    Derived,
    FoldLookups,
    FoldPass,
    Kind,
    Part,
    Released,
    TempName,
    TrainRequest,
    catalog_type,
    publish_table,
    scores_in_order,
)

GAUSSIAN = "gaussian"
CATEGORICAL = "categorical"
KIND_OPTIONS: dict[str, frozenset[str]] = {
    GAUSSIAN: frozenset({"var_smoothing", "priors"}),
    CATEGORICAL: frozenset({"alpha", "fit_prior", "class_prior", "min_categories"}),
}
"""scikit-learn's parameter names: GaussianNB(priors, var_smoothing), CategoricalNB(alpha, fit_prior, class_prior, min_categories)."""

VAR_SMOOTHING = 1e-9  # GaussianNB's default
PRIORS_SUM_TOLERANCE = (1e-5, 1e-8)  # GaussianNB: numpy isclose(sum(priors), 1), rtol and atol


@dataclass(frozen=True)
class Parameters:
    """A kind's validated parameters (scikit-learn's defaults where not given)."""

    kind: str
    var_smoothing: float = VAR_SMOOTHING
    alpha: float = 1.0
    fit_prior: bool = True
    priors: Any = None  # 'priors' (gaussian) or 'class_prior' (categorical): a list in class order or {class: prior}
    min_categories: Any = None  # int, list (feature order) or {feature: int}

    @property
    def priors_key(self) -> str:
        return "priors" if self.kind == GAUSSIAN else "class_prior"


def _bad(key: str, expected: str, got: Any, hint: str | None = None) -> MadnbError:
    return MadnbError("22023", f'option "{key}" must be {expected}', detail=f"got {got!r}", hint=hint)


def _number(options: dict[str, Any], key: str, default: float, top: float = math.inf) -> float:
    v = options.get(key, default)
    if not finite_number(v) or not 0 <= v <= top:
        upto = f" up to {top:g}" if math.isfinite(top) else ""
        raise _bad(key, f"a number from 0{upto}", v)
    return float(v)


def parameters(kind: str, options: dict[str, Any], smoothing: float) -> Parameters:
    """The validated parameters of ``kind`` from madnb.train's ``options`` and ``smoothing``.

    'categorical': ``alpha`` is the Laplace smoothing; madnb.train's ``smoothing``
    is the same number (give one of them).  'gaussian' has no Laplace smoothing.
    """
    if kind == GAUSSIAN:
        if smoothing != 1.0:
            raise MadnbError(
                "22023", "smoothing is not a parameter of kind 'gaussian'",
                hint='kind \'gaussian\' adds var_smoothing * the largest feature variance to every variance: '
                'options => \'{"var_smoothing": 1e-9}\'',
            )
        priors = options.get("priors")
        return Parameters(kind, var_smoothing=_number(options, "var_smoothing", VAR_SMOOTHING), priors=_priors_shape("priors", priors))
    assert kind == CATEGORICAL
    if "alpha" in options and smoothing != 1.0:
        raise MadnbError(
            "22023", "alpha and smoothing are given together",
            detail="for kind 'categorical' both are the Laplace smoothing", hint="give alpha in options, or smoothing",
        )
    alpha = _number(options, "alpha", smoothing, MAX_SMOOTHING)
    fit_prior = options.get("fit_prior", True)
    if not isinstance(fit_prior, bool):
        raise _bad("fit_prior", "true or false", fit_prior)
    mc = options.get("min_categories")
    if mc is not None and not (_count(mc) or (isinstance(mc, list) and all(_count(x) for x in mc))
                               or (isinstance(mc, dict) and all(_count(x) for x in mc.values()))):
        raise _bad(
            "min_categories", "a whole number (at least 1), an array of them (one per feature) or an object {feature: number}", mc,
        )
    return Parameters(kind, alpha=alpha, fit_prior=fit_prior, priors=_priors_shape("class_prior", options.get("class_prior")),
                      min_categories=mc)


def _count(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 2**62


def _priors_shape(key: str, v: Any) -> Any:
    values = v.values() if isinstance(v, dict) else v if isinstance(v, list) else None
    if v is not None and (values is None or not all(
        finite_number(x) and x >= 0 for x in values
    )):
        raise _bad(key, "an array of probabilities in the order of the classes, or an object {class: probability}", v,
                   hint="the classes are ordered as madnb.model_classes lists them (the label's sort order)")
    return v


def min_categories(p: Parameters, training: ColumnTraining) -> list[int] | None:
    """min_categories per feature (in feature order), or None."""
    mc = p.min_categories
    if mc is None:
        return None
    if isinstance(mc, int):
        return [mc] * training.num_attrs
    names = [f.name for f in training.features]
    if isinstance(mc, list):
        if len(mc) != len(names):
            raise MadnbError(
                "22023", f'option "min_categories" has {len(mc)} elements for {len(names)} features',
                hint="one number per feature, in the order of the features (" + ", ".join(names) + "), or an object {feature: number}",
            )
        return [int(x) for x in mc]
    for k in mc:
        if k not in names:
            raise MadnbError("22023", f'option "min_categories" names "{k}", which is not a feature', hint="features: " + ", ".join(names))
    return [int(mc.get(n, 1)) for n in names]


def derive_kind(
    plpy: Plpy, p: Parameters, training: ColumnTraining, kept: str, fp: NewName, numeric_stats: NewName | None,
    max_variance: float | None = None,
) -> float | None:
    """Set the kind's numbers in the model tables derived from statistics ``kept``; return 'gaussian''s epsilon.

    ``max_variance``: a weighted training's largest unweighted feature variance over the rows trained on, where
    they are not the source's (a fold's complement: :func:`madnb_pl.release.column_pass.complement_max_variance`);
    None: read from the source (:func:`_unweighted_max_variance`)."""
    if p.kind == CATEGORICAL:
        mc = min_categories(p, training)
        if mc is not None:
            arr = "'{" + ",".join(str(x) for x in mc) + "}'::pg_catalog.int8[]"
            plpy.execute(
                Sql(f"UPDATE {fp.sql} AS f SET attr_cnt = GREATEST(f.attr_cnt, ({arr})[f.attr])")
            )
        return None
    assert numeric_stats is not None
    if training.weight is None:
        pooled = part_sums.pooled_numeric_select(kept, training.shape())
        # np.var(X, axis=0).max(): ddof 0, so the sample variance times (N - 1) / N (0 for one value)
        r = plpy.execute(
            Sql(f"SELECT pg_catalog.max(COALESCE(g.var OPERATOR(pg_catalog.*) (g.nv OPERATOR(pg_catalog.-) 1)::{F8} "
            f"OPERATOR(pg_catalog./) g.nv::{F8}, '0'::{F8})) AS v FROM ({pooled}) AS g")
        )[0]["v"]
    else:
        r = _unweighted_max_variance(plpy, training) if max_variance is None else max_variance
    epsilon = p.var_smoothing * float(r or 0.0)
    if not math.isfinite(epsilon):
        raise MadnbError(
            "22023", f"var_smoothing {p.var_smoothing!r} times the largest feature variance is not a finite number",
            hint="use a smaller var_smoothing (scikit-learn's default is 1e-9)",
        )
    if training.weight is None:
        plpy.execute(
            Sql(f"UPDATE {numeric_stats.sql} AS x SET attr_var = COALESCE(x.attr_var OPERATOR(pg_catalog.*) (x.value_cnt OPERATOR(pg_catalog.-) 1)::{F8} "
            f"OPERATOR(pg_catalog./) x.value_cnt::{F8}, '0'::{F8}) OPERATOR(pg_catalog.+) {epsilon!r}::{F8} "
            "WHERE x.value_cnt OPERATOR(pg_catalog.>) 0")
        )
    else:
        # GaussianNB with sample_weight: var_ = sum w (x - mean)**2 / sum w (+ epsilon), M2 kept as s2
        plpy.execute(
            Sql(f"UPDATE {numeric_stats.sql} AS x SET attr_var = s.s2::{F8} OPERATOR(pg_catalog./) s.nv::{F8} "
            f"OPERATOR(pg_catalog.+) {epsilon!r}::{F8} FROM {kept} AS s "
            "WHERE s.attr OPERATOR(pg_catalog.=) x.attr AND s.cls OPERATOR(pg_catalog.=) x.class "
            "AND x.value_cnt OPERATOR(pg_catalog.>) 0")
        )
    zero = plpy.execute(
        Sql(f"SELECT x.attr, {label_text_sql('x.class', training)} AS cls FROM {numeric_stats.sql} AS x "
        f"WHERE x.value_cnt OPERATOR(pg_catalog.>) 0 AND NOT x.attr_var OPERATOR(pg_catalog.>) '0'::{F8} LIMIT 1")
    )
    if zero:
        raise MadnbError(
            "22023", f'feature "{training.features[int(zero[0]["attr"]) - 1].name}" has variance 0 in class {zero[0]["cls"]}',
            detail=f"var_smoothing {p.var_smoothing!r} adds epsilon = {epsilon!r}: a Gaussian with variance 0 has no density",
            hint="give var_smoothing > 0 (scikit-learn's default is 1e-9), or leave the constant feature out",
        )
    return epsilon


def _unweighted_max_variance(plpy: Plpy, training: ColumnTraining) -> float | None:
    """GaussianNB's ``np.var(X, axis=0).max()`` for a weighted training: its epsilon ignores the weights, so the
    largest population variance of a feature over the rows trained on (NULL label or weight: not trained on),
    read from the source (the weighted statistics hold no unweighted moments)."""
    assert training.weight is not None
    w, lab = weight_value_sql(training.weight), f"t.{training.label.sql}"
    variances = ", ".join(
        f"COALESCE(pg_catalog.var_pop({gaussian_value_sql(f't.{training.features[j - 1].column.sql}', training.features[j - 1])}), '0'::{F8})"
        for j in training.numeric
    )
    v = plpy.execute(
        Sql(f"SELECT GREATEST({variances}) AS v FROM {training.source.sql} AS t WHERE {lab} IS NOT NULL AND {w} IS NOT NULL")
    )[0]["v"]
    return None if v is None else float(v)


def stored(kind: str, options: dict[str, Any] | None, smoothing: float) -> Parameters | None:
    """The parameters a model of ``kind`` was trained with, from its catalog row (None for 'naive_bayes').

    The catalog keeps the options as given and, as ``smoothing``, the Laplace
    smoothing used ('categorical': alpha, whether given as alpha or as smoothing).
    """
    if kind not in KIND_OPTIONS:
        return None
    given = options or {}
    return parameters(kind, given, 1.0 if kind == GAUSSIAN or "alpha" in given else smoothing)


def model_numbers(
    plpy: Plpy, p: Parameters | None, training: ColumnTraining, cp: NewName, fp: NewName, numeric_stats: NewName | None, smoothing: float,
) -> generated.ModelNumbers:
    """The numbers of a model's prediction functions, read from its tables: the kind's priors, no floor for 'gaussian'.

    ``p`` None is kind 'naive_bayes' (MADlib's numbers).  madnb.train writes
    the functions from these numbers and madnb.model_sql / to_sklearn export them.
    """
    return with_priors(p, fitted_numbers(plpy, p, training, cp, fp, numeric_stats, smoothing))


def fitted_numbers(
    plpy: Plpy, p: Parameters | None, training: ColumnTraining, cp: NewName, fp: NewName, numeric_stats: NewName | None, smoothing: float,
) -> generated.ModelNumbers:
    """:func:`model_numbers` before the kind's priors: the log class frequencies as priors."""
    return fitted_numbers_smoothed(plpy, p, training, cp, fp, numeric_stats, [smoothing])[smoothing]


def fitted_numbers_smoothed(
    plpy: Plpy, p: Parameters | None, training: ColumnTraining, cp: NewName, fp: NewName, numeric_stats: NewName | None,
    smoothings: list[float],
) -> dict[float, generated.ModelNumbers]:
    """:func:`fitted_numbers` at each of ``smoothings``, from one reading of the model tables."""
    return generated.read_numbers_smoothed(plpy, training, cp, fp, numeric_stats, smoothings, var_floor=p is None)


def with_priors(p: Parameters | None, numbers: generated.ModelNumbers) -> generated.ModelNumbers:
    """:func:`fitted_numbers` with the kind's priors (:func:`log_priors`)."""
    if p is None:
        return numbers
    return dataclasses.replace(numbers, prior=log_priors(p, numbers.classes, numbers.prior))


def log_priors(p: Parameters, classes: list[str], fitted: list[float]) -> list[float]:
    """The log prior of each class (``classes`` in model order; ``fitted``: the log class frequencies)."""
    key = p.priors_key
    given = p.priors
    if given is None:
        return fitted if p.fit_prior else [-math.log(len(classes))] * len(classes)
    if isinstance(given, dict):
        missing = [c for c in classes if c not in given]
        extra = [c for c in given if c not in classes]
        if missing or extra:
            raise MadnbError(
                "22023", f'option "{key}" does not name the model\'s classes',
                detail=(f"missing: {', '.join(missing)}" if missing else "") + ("; " if missing and extra else "")
                + (f"not classes: {', '.join(extra)}" if extra else ""),
                hint="the classes are: " + ", ".join(classes),
            )
        values = [float(given[c]) for c in classes]
    else:
        if len(given) != len(classes):
            raise MadnbError(
                "22023", f'option "{key}" has {len(given)} priors for {len(classes)} classes',
                hint="one prior per class, in the order " + ", ".join(classes) + " (or an object {class: prior})",
            )
        values = [float(x) for x in given]
    if p.kind == GAUSSIAN:
        rtol, atol = PRIORS_SUM_TOLERANCE
        if abs(math.fsum(values) - 1.0) > atol + rtol:
            raise MadnbError(
                "22023", 'option "priors" must sum to 1', detail=f"they sum to {math.fsum(values)!r}",
                hint="GaussianNB's priors are probabilities",
            )
    return [math.log(v) if v > 0 else -math.inf for v in values]




# ---------------------------------------------------------------------------
# The kinds of the statistics table: 'naive_bayes', 'gaussian', 'categorical'
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TableTraining:
    """A training of a statistics-table kind: its columns, its parameters (None: 'naive_bayes'), the Laplace
    smoothing (for 'categorical' its alpha), its private release (None: exact) and, for an export, each
    feature's base type name."""

    columns: ColumnTraining
    params: Parameters | None
    smoothing: float
    privacy: column_release.ColumnPrivacy | None = None
    bases: tuple[str, ...] = ()


class TableKind(Kind[TableTraining, generated.ModelNumbers]):
    """'naive_bayes' (MADlib's numbers; the private kind), 'gaussian' and 'categorical' (scikit-learn's): the
    statistics pass of ordinary columns, MADlib's model tables, then the kind's numbers (:func:`derive_kind`)."""

    def __init__(self, name: str, options: frozenset[str], private: bool = False, tunable: frozenset[str] = frozenset()) -> None:
        self.name = name
        self.options = options
        self.tunable = tunable
        self.private = private

    def _parameters(self, request: TrainRequest) -> tuple[Parameters | None, float]:
        """The kind's parameters (None: 'naive_bayes') and the Laplace smoothing (for 'categorical' its alpha)."""
        p = parameters(self.name, request.options, request.smoothing) if self.name in KIND_OPTIONS else None
        return p, p.alpha if p is not None and p.kind == CATEGORICAL else request.smoothing  # CategoricalNB's alpha

    def tuned(self, plpy: Plpy, training: TableTraining, request: TrainRequest) -> TableTraining:
        p, smoothing = self._parameters(request)
        return dataclasses.replace(training, params=p, smoothing=smoothing)

    def resolve(self, plpy: Plpy, request: TrainRequest) -> TableTraining:
        p, smoothing = self._parameters(request)
        training = columns.training(
            plpy, request.source, request.label, request.features, request.exclude, request.categorical,
            role=None if p is None else p.kind, weight=request.weight,
        )
        arrays.check_label_type(plpy, training.label)
        spec = column_release.privacy(plpy, training, request.epsilon, request.bounds, request.domain, request.delta)
        return TableTraining(training, p, smoothing, spec)

    def source(self, training: TableTraining) -> Relation:
        return training.columns.source

    def label(self, training: TableTraining) -> Column:
        return training.columns.label

    def weight(self, training: TableTraining) -> Column | None:
        return training.columns.weight

    def catalog_entry(self, training: TableTraining, request: TrainRequest) -> CatalogEntry:
        feats = [{"name": f.name, "role": f.role, "type": f.column.type_sql} for f in training.columns.features]
        return CatalogEntry(feats, training.smoothing, request.options if request.options_given else None)

    def statistics(self, plpy: Plpy, training: TableTraining, model: ModelName, kept: NewName) -> Released:
        spec = training.privacy
        if spec is None:
            write = column_pass.write_statistics if training.columns.weight is None else column_pass.write_weighted_statistics
            header, rows = write(plpy, training.columns, kept)
            arrays.warn_suspect_classes(plpy, kept.sql, training.columns.label, training.columns.source)
            return Released(header, rows)
        tables = ModelObjects.of(model).tables(bool(training.columns.numeric))
        outputs = {"model": model.key, "featureProbs": tables.feature_probs.display, "classPriors": tables.class_priors.display}
        if tables.numeric_stats is not None:
            outputs["numericFeatureStats"] = tables.numeric_stats.display
        p = spec.privacy
        header = private_release.write_private(
            plpy, spec.shape, p, kept, outputs, {"smoothing": training.smoothing, **spec.ledger(training.columns)},
        )
        spec.drop_copy(plpy)
        privacy = {
            "epsilon": json.loads(p.epsilon_text), "delta": p.delta, "release_id": header.release_id,
            "guarantee": p.guarantee, "domain": p.domain_text, "bounds": spec.bounds,
        }
        return Released(header, 0, privacy)  # the rows: the released class counts (derive)

    def release_part(self, plpy: Plpy, training: TableTraining, dest: NewName) -> Released:
        header, rows = column_pass.write_statistics(plpy, training.columns, dest)
        return Released(header, rows)

    def derive(self, plpy: Plpy, training: TableTraining, model: ModelName, kept: NewName, released: Released) -> Derived:
        tables = ModelObjects.of(model).tables(bool(training.columns.numeric))
        model_tables.merge_and_derive(plpy, [(created(plpy, kept), released.header)], tables, training.smoothing, shape=training.columns.shape())
        rows = released.rows
        if released.privacy is not None:  # the released (noisy) class counts: the exact number of rows is not disclosed
            rows = int(plpy.execute(
                Sql(f"SELECT COALESCE(pg_catalog.sum(c.class_cnt), 0)::pg_catalog.int8 AS n FROM {tables.class_priors.sql} AS c")
            )[0]["n"])
        var_epsilon = None if training.params is None else derive_kind(
            plpy, training.params, training.columns, kept.sql, tables.feature_probs, tables.numeric_stats,
        )
        for table in tables.all():
            comment = plpy.execute(
                plpy.prepare(Sql("SELECT pg_catalog.obj_description(pg_catalog.to_regclass($1), 'pg_class') AS c"), ["pg_catalog.text"]),
                [table.sql],
            )[0]["c"]
            if var_epsilon is not None and table == tables.numeric_stats:
                comment = comment.replace(
                    "(mean, sample variance, non-NULL count)",
                    f"(mean, population variance + epsilon {var_epsilon!r} (scikit-learn's GaussianNB), non-NULL count)",
                )
            publish_table(plpy, table, f"{self.comment_prefix(model)}: {comment}")
        return Derived(list(tables.all()), rows)

    def score_log_prior(self, training: TableTraining, n: generated.ModelNumbers) -> list[float]:
        return list(n.prior)  # each score starts with it (predict.generated.scores_sql)

    def read_numbers(self, plpy: Plpy, training: TableTraining, objects: ModelObjects) -> generated.ModelNumbers:
        tables = objects.tables(bool(training.columns.numeric))
        return model_numbers(
            plpy, training.params, training.columns, tables.class_priors, tables.feature_probs, tables.numeric_stats, training.smoothing,
        )

    def function_statements(
        self, names: generated.FunctionNames, comment_prefix: str, training: TableTraining, n: generated.ModelNumbers, helpers: Helpers,
        quote: Callable[[str], str], class_order: str = "madnb.model_classes",
    ) -> generated.Functions:
        functions = generated.function_statements(names, comment_prefix, training.columns, n, helpers, quote, class_order)
        if names.share is None:
            return functions
        private = share.share_functions(names.share, comment_prefix, share.encoding(training.columns, n), quote)
        return generated.Functions(functions.functions + private.functions, functions.statements + private.statements)

    def explain_statements(
        self, names: explain.ExplainNames, comment_prefix: str, training: TableTraining, n: generated.ModelNumbers,
        quote: Callable[[str], str],
    ) -> generated.Functions:
        return explain.table_statements(names, comment_prefix, training.columns, n, quote)

    def explain_terms(self, training: TableTraining, n: generated.ModelNumbers, row: str, looked: str) -> explain.Terms | None:
        if not n.classes or not generated.inlined(len(n.classes), training.columns.num_attrs):
            return None
        return explain.table_row_terms(training.columns, n, row, looked)

    def label_builtin(self, training: TableTraining) -> bool:
        return training.columns.label_builtin

    def trained_rows(self, training: TableTraining) -> Sql:
        cols = training.columns
        weighted = "" if cols.weight is None else f" AND {weight_value_sql(cols.weight)} IS NOT NULL"
        return Sql(f"t.{cols.label.sql} IS NOT NULL{weighted}")

    def fold_pass(self, plpy: Plpy, training: TableTraining, fold: Sql) -> FoldPass:
        if training.columns.weight is not None:
            s, labelled = column_pass.weighted_fold_pass(plpy, training.columns, fold)
            return FoldPass(s, labelled, rows="r")
        s, labelled = column_pass.statistics_pass(plpy, training.columns, fold)
        return FoldPass(s, labelled)

    def fold_complements(self, plpy: Plpy, training: TableTraining, fold_pass: FoldPass, folds: int, temp: TempName) -> list[Complement]:
        """Each complement's statistics as one part: the sum of the other folds' cells, every fold's in one table
        (:func:`madnb_pl.merge.part_sums.write_complement_sums`: the merge of :func:`~madnb_pl.merge.part_sums.merged_exact_select`,
        each fold a part, in one statement); weighted (madnb.train's ``weight``), each complement's weighted
        statistics merged into one table (weighted parts are not summed by a merge:
        :func:`madnb_pl.merge.part_sums.refuse_weighted`) and, for 'gaussian', its unweighted largest variance
        (epsilon's) as the context."""
        cols = training.columns
        if cols.weight is None:
            complements = part_sums.write_complement_sums(
                plpy, column_pass.cells_select(cols, fold_pass.table, fold=True), folds, temp("sums"), cols.shape(),
            )
            plpy.execute(Sql(f"DROP TABLE {fold_pass.table}"))
            header = column_pass.exact_header(plpy, cols)
            return [Complement([(rel, header)]) for rel in complements]
        sums = {
            int(r["f"]): float(r["n"]) for r in plpy.execute(
                Sql(f"SELECT s.f, pg_catalog.sum(s.n) AS n FROM {fold_pass.table} AS s "
                    "WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY 1")
            )
        }
        gaussian = training.params is not None and training.params.kind == GAUSSIAN and bool(cols.numeric)
        variances = column_pass.complement_max_variance(plpy, cols, fold_pass.table, folds) if gaussian else [None] * folds
        out = []
        for f in range(1, folds + 1):
            if not math.fsum(n for g, n in sums.items() if g != f) > 0:
                raise MadnbError(
                    "22023", f"the weights of the rows of {cols.source.display} outside fold {f} of {folds} sum to 0",
                    detail=f'weight column "{cols.weight.name}"; the model of fold {f} is trained on those rows',
                    hint="give more rows a weight > 0, or use another seed",
                )
            name = temp("fold")
            header = column_pass.insert_weighted_complement(plpy, cols, fold_pass.table, name, f)
            out.append(Complement([(created(plpy, name), header)], variances[f - 1]))
        plpy.execute(Sql(f"DROP TABLE {fold_pass.table}"))
        return out

    def score_values(self, training: TableTraining) -> list[Sql]:
        return [columns.column_value_sql(f"t.{f.column.sql}", f) for f in training.columns.features]

    def fold_lookups(self, plpy: Plpy, training: TableTraining, parts: list[Part], values: list[str]) -> FoldLookups | None:
        """Each categorical feature's slot in one dictionary of every value of the folds (ranks in byte order), so
        that the folds' models (:func:`madnb_pl.predict.generated.in_dictionary`) look a value up once per row, not
        once per model and class; complete when every feature is categorical."""
        cols = training.columns
        categorical = [j for j, f in enumerate(cols.features, start=1) if not f.gaussian]
        if not categorical:
            return None
        union = " UNION ".join(
            f"SELECT p.attr, p.value FROM {rel.sql} AS p WHERE p.attr OPERATOR(pg_catalog.>) 0 AND p.value IS NOT NULL"
            for rel, _header in parts
        )
        seen: dict[int, list[str]] = {j: [] for j in categorical}
        for r in plpy.execute(Sql(f"SELECT u.attr, u.value FROM ({union}) AS u")):
            if int(r["attr"]) in seen:
                seen[int(r["attr"])].append(r["value"])
        dictionaries = {
            j: json.dumps({v: i for i, v in enumerate(sorted(vs, key=lambda v: v.encode()), start=1)})
            for j, vs in seen.items() if vs
        }
        slots = {j: generated.categorical_slot_sql(cols.features[j - 1], values[j - 1], js) for j, js in dictionaries.items()}
        order = sorted(slots)
        # a looked-up feature's term reads its slot only (generated.class_terms)
        return FoldLookups([Sql(slots[j]) for j in order], len(categorical) == len(cols.features), (dictionaries, order),
                           replaced=frozenset(order))

    def complement_scores(
        self, plpy: Plpy, trainings: list[TableTraining], complement: Complement, classes: list[str], values: list[str],
        temp: TempName, lookups: FoldLookups | None = None,
    ) -> list[Sql]:
        """The complement's one part (:meth:`fold_complements`: the other folds' statistics summed, as any merge:
        counts add, Gaussian cells by Chan's formula; weighted, merged with the weights) derived as madnb.train
        derives its own (:func:`madnb_pl.derive.model_tables.merge_and_derive`), then each point's numbers
        (:func:`derive_kind`).

        Summed and derived once for the points whose tables are alike (the same min_categories and
        var_smoothing: the Laplace smoothing and the priors are read with the numbers), and the numbers read
        once per smoothing (the priors apply to them: :func:`log_priors`)."""
        cols = trainings[0].columns

        def derivation_of(training: TableTraining) -> Any:
            p = training.params
            return None if p is None else (p.kind, tuple(min_categories(p, cols) or ()), p.var_smoothing if p.kind == GAUSSIAN else None)

        numbers_of: dict[Any, generated.ModelNumbers] = {}
        for derivation in dict.fromkeys(derivation_of(t) for t in trainings):
            alike = [t for t in trainings if derivation_of(t) == derivation]
            first, p = alike[0], alike[0].params
            # temp() names only what merge_and_derive creates: every name is dropped at the end
            tables = ModelTables(temp("fp"), temp("cp"), temp("np") if cols.numeric else None)
            # the complement's one part (fold_complements: its sum), derived where it is, as a training's
            model_tables.merge_and_derive(plpy, complement.parts, tables, first.smoothing, shape=cols.shape())
            kept_sql = complement.parts[0][0].sql
            if p is not None:
                derive_kind(plpy, p, cols, kept_sql, tables.feature_probs, tables.numeric_stats, complement.context)
            smoothings = list(dict.fromkeys(t.smoothing for t in alike))
            fitted = fitted_numbers_smoothed(plpy, p, cols, tables.class_priors, tables.feature_probs, tables.numeric_stats, smoothings)
            numbers_of.update({(derivation, sm): f for sm, f in fitted.items()})
        out = []
        for training in trainings:
            p = training.params
            numbers = with_priors(p, numbers_of[(derivation_of(training), training.smoothing)])
            looked_up: dict[int, str] | None = None
            if lookups is not None:
                dictionaries, order = lookups.context
                numbers = generated.in_dictionary(numbers, dictionaries)
                looked_up = {j: f"p.l{i}" for i, j in enumerate(order, start=1)}
            scores = generated.scores_sql(cols, numbers, values, looked_up=looked_up)
            out.append(scores_in_order(classes, numbers.classes, lambda i: scores[i]))  # noqa: B023 (scores_in_order calls it at once)
        return out

    def row_arguments(self, training: TableTraining, field: Callable[[Column], str]) -> str | None:
        return generated.row_arguments(training.columns, field)

    def from_catalog(self, plpy: Plpy, m: CatalogModel) -> TableTraining:
        """The model's features and label as :mod:`madnb_pl.predict.generated` builds functions from.

        Only the catalog's names, roles and types.  An enum feature stays one: the
        row form reads its label with the target database's enum's output function.
        """
        features, bases = [], []
        typed: dict[str, CatalogType] = {}  # a type's lookup once, however many features have it
        for f in m.features:
            if f["type"] not in typed:
                typed[f["type"]] = catalog_type(plpy, m, f["type"], f'feature "{f["name"]}"')
            b = typed[f["type"]]
            features.append(Feature(Column(f["name"], b.sql, b.oid, None, None), b.oid, f["role"], b.sql, b.enum))
            bases.append(b.name)
        b = catalog_type(plpy, m, m.label_type, f'the label "{m.label}"')
        label = Column(m.label, b.sql, b.oid, None, None)
        # label_builtin: how the model tables' classes (of the catalog's type) are read as text
        training = ColumnTraining(Relation("", m.source), label, tuple(features), b.builtin)
        return TableTraining(training, stored(m.kind, m.parameters, m.smoothing), m.smoothing, None, tuple(bases))

    def tables(self, objects: ModelObjects, training: TableTraining) -> list[NewName]:
        tables = objects.tables(bool(training.columns.numeric))
        return [tables.class_priors, tables.feature_probs] + ([] if tables.numeric_stats is None else [tables.numeric_stats])

    def with_classes(self, n: generated.ModelNumbers, classes: list[str]) -> generated.ModelNumbers:
        return dataclasses.replace(n, classes=classes)

    def export_numbers(self, plpy: Plpy, m: CatalogModel, training: TableTraining, n: generated.ModelNumbers) -> dict[str, Any]:
        features: list[dict[str, Any]] = []
        for j, (f, base) in enumerate(zip(m.features, training.bases, strict=True), start=1):
            out: dict[str, Any] = {"name": f["name"], "role": f["role"], "type": f["type"], "base_type": base}
            if f["role"] == columns.GAUSSIAN:
                lo, hi, per = n.gauss.get(j, (0.0, 0.0, [None] * len(m.classes)))
                out.update(window=[lo, hi], terms=[None if p is None else list(p) for p in per])
            else:
                js, lps = n.dicts.get(j, ("{}", [[] for _ in m.classes]))
                ranks = json.loads(js)
                out.update(values=sorted(ranks, key=ranks.__getitem__), log_prob=lps)
            features.append(out)
        counts = plpy.execute(
            Sql(f"SELECT pg_catalog.array_agg(m.class_cnt::{F8} ORDER BY m.class) AS n "
            f"FROM {ModelObjects.of(m.name).class_priors.sql} AS m")
        )[0]["n"]
        return {
            "class_count": [float(c) for c in counts], "smoothing": m.smoothing, "training_rows": m.training_rows,
            "log_prior": n.prior, "features": features,
        }


NAIVE_BAYES = "naive_bayes"
TUNABLE: dict[str, frozenset[str]] = {
    NAIVE_BAYES: frozenset({"smoothing"}),
    GAUSSIAN: frozenset({"var_smoothing"}),
    CATEGORICAL: frozenset({"alpha", "smoothing", "fit_prior"}),
}
"""What a grid search may vary (:attr:`~madnb_pl.models.kinds.base.Kind.tunable`): numbers of the derivation only.
Priors and min_categories are per class / feature, not a search's axes."""
TABLE_KINDS = (
    TableKind(NAIVE_BAYES, frozenset(), private=True, tunable=TUNABLE[NAIVE_BAYES]),  # MADlib's numbers
    TableKind(GAUSSIAN, KIND_OPTIONS[GAUSSIAN], tunable=TUNABLE[GAUSSIAN]),  # scikit-learn's GaussianNB
    TableKind(CATEGORICAL, KIND_OPTIONS[CATEGORICAL], tunable=TUNABLE[CATEGORICAL]),  # scikit-learn's CategoricalNB
)
"""The kinds of the statistics table, registered in :data:`madnb_pl.models.kinds.KINDS`."""


__all__ = [
    "CATEGORICAL", "GAUSSIAN", "KIND_OPTIONS", "NAIVE_BAYES", "TABLE_KINDS", "TUNABLE", "Parameters", "TableKind", "TableTraining",
    "derive_kind", "log_priors", "min_categories", "parameters",
]

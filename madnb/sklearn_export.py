"""A named model as a fitted scikit-learn estimator: :func:`to_sklearn`.

scikit-learn (and pandas, for the input) are optional: ``pip install 'madnb[sklearn]'``.
Nothing is trained here: the model's numbers are read from the database
(``madnb._model_numbers``, the very constants of its prediction functions) and
set on the estimator, so that ``predict_proba`` gives madnb's probabilities.
"""

from __future__ import annotations

import datetime
import decimal
import json
import math
import re
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from psycopg import sql

from ._install import Target, connection

if TYPE_CHECKING:  # pragma: no cover
    from sklearn.pipeline import Pipeline

_INSTALL_HINT = "madnb.to_sklearn needs scikit-learn and pandas: pip install 'madnb[sklearn]'"


def to_sklearn(conn: Target, model: str) -> Pipeline:
    """Return named model ``model`` as a fitted scikit-learn estimator with madnb's ``predict_proba``.

    ``conn`` is anything :func:`madnb.connection` takes (a URL, a psycopg
    connection, a SQLAlchemy engine or connection); ``model`` the model's name
    as ``madnb.train`` took it.  The result is a :class:`sklearn.pipeline.Pipeline`:

    * ``columns``: a :class:`~sklearn.compose.ColumnTransformer` that takes a
      pandas DataFrame with the model's feature columns (by name; other columns
      are ignored) and turns each categorical column into its code in the
      model's values (:class:`~sklearn.preprocessing.OrdinalEncoder` with the
      values in madnb's order; a value the model never saw, and a missing one,
      get the extra code ``len(values)``) and each Gaussian column into float;
    * ``nb``: for a model with only categorical features a
      :class:`~sklearn.naive_bayes.CategoricalNB`, with only Gaussian features
      (each with parameters in every class) a
      :class:`~sklearn.naive_bayes.GaussianNB`, otherwise a :class:`MixedNB`.
      The attributes are madnb's numbers: ``class_log_prior_``,
      ``feature_log_prob_`` (one more column per feature, the extra code, at
      log-probability 0: it adds nothing, as madnb skips such a value),
      ``theta_`` and ``var_`` (madnb's variances, floored as madnb floors them).

    A model of kind ``'multinomial'``, ``'bernoulli'`` or ``'complement'`` is
    the Pipeline ``vectors`` (:func:`madnb_vectors`: the DataFrame's vector
    column, a list per row for an array or a tsvector's text, as the count
    matrix in the model's feature order; lexemes the model never saw are
    ignored) then ``nb``, scikit-learn's MultinomialNB, BernoulliNB or
    ComplementNB with the model's parameters and fitted attributes.

    ``classes_`` are the model's classes as psycopg reads the label's type, in
    the order of ``madnb.model_classes(model)`` (the label type's order, which
    for text is the database's collation, not necessarily Python's sort).

    Values: pass them as psycopg gives them for the training columns (e.g. a
    DataFrame of ``cursor.fetchall()`` with the column names).  A categorical
    value is compared by the text madnb compares: ``True`` -> ``'true'``, an
    integer (also a whole float, as pandas makes of an integer column with
    missing values) -> its digits, a ``Decimal`` without trailing zeros, a date
    as ``YYYY-MM-DD``, a datetime as ``YYYY-MM-DD HH:MM:SS.ffffff`` (an aware
    one in UTC; a naive one for a timestamptz column is taken as UTC), a UUID in
    lower case, char(n) without trailing blanks, a float (a categorical position of a model made from float8[]
    statistics, madnb.train_from_statistics) as PostgreSQL writes it (``0``, ``0.5``, ``1e-05``), anything else
    ``str(value)``.
    ``None`` and NaN are missing: they add nothing (and to a Gaussian feature in
    a :class:`MixedNB`; :class:`~sklearn.naive_bayes.GaussianNB` refuses NaN,
    as scikit-learn does).

    ``predict_proba`` equals the database's ``madnb_models.<model>_predict_proba_array``
    within 1e-9 (the sums are the same numbers added in another order).
    ``predict`` of :class:`MixedNB` takes madnb's first class within 1e-12 of the
    best; scikit-learn's estimators take their exact arg-max.  Calling ``fit``
    on the result trains scikit-learn's estimators afresh (:class:`MixedNB`
    cannot be fitted: train with ``madnb.train``).

    Raises ``ImportError`` when scikit-learn or pandas is missing, psycopg's
    errors from the database (``UndefinedObject``, SQLSTATE 42704, for an
    unknown model; ``FeatureNotSupported``, 0A000, for a kind the database
    cannot export yet), ``NotImplementedError`` for a kind the database exports
    but that has no scikit-learn form here yet.
    """
    try:
        import pandas  # noqa: F401  (the ColumnTransformer selects columns of a DataFrame by name)
        import sklearn  # noqa: F401
    except ImportError as e:
        raise ImportError(_INSTALL_HINT) from e
    with connection(conn) as c:
        numbers = json.loads(c.execute("SELECT madnb._model_numbers(%s)", [model]).fetchone()[0])  # type: ignore[index]
        builder = _BUILDERS.get(numbers["kind"])
        if builder is None:
            raise NotImplementedError(f"models of kind {numbers['kind']!r} cannot be exported to scikit-learn yet")
        classes = typed_classes(c, numbers)
    return builder(numbers, classes)


def typed_classes(c: Any, numbers: dict[str, Any]) -> list[Any]:
    """A model's classes typed as its label (psycopg's Python types), in the model's class order.

    ``numbers`` is the model's ``madnb._model_numbers``; ``c`` the psycopg
    connection it was read on (in the same transaction).
    """
    table = sql.Identifier(*numbers["class_priors"])  # the server names the model's objects
    count = sql.Identifier("class_count" if "vector" in numbers else "class_cnt")  # the vector kinds' column name
    rows = c.execute(sql.SQL("SELECT m.class, m.{} FROM {} AS m ORDER BY m.class").format(count, table)).fetchall()
    if [float(r[1]) for r in rows] != numbers["class_count"]:
        raise RuntimeError(f"model {numbers['model']!r} was re-trained while it was read: try again")
    return [r[0] for r in rows]


# ---------------------------------------------------------------------------
# Values as madnb compares them
# ---------------------------------------------------------------------------


def _missing(v: Any, na: tuple[Any, ...]) -> bool:
    """None, a float NaN, or one of pandas' ``na`` markers (pd.NA, pd.NaT)."""
    return v is None or (isinstance(v, float) and math.isnan(v)) or any(v is m for m in na)


def _na() -> tuple[Any, ...]:
    import pandas

    return (pandas.NA, pandas.NaT)


def _time_text(v: datetime.datetime) -> str:
    return f"{v.year:04d}-{v.month:02d}-{v.day:02d} {v.hour:02d}:{v.minute:02d}:{v.second:02d}.{v.microsecond:06d}"


def _numeric_text(v: Any) -> str:
    """PostgreSQL's trim_scale(v)::text: fixed notation without trailing zeros (NaN and infinities as PostgreSQL spells them)."""
    d = v if isinstance(v, decimal.Decimal) else decimal.Decimal(str(v))
    if d.is_nan():
        return "NaN"
    if d.is_infinite():
        return "Infinity" if d > 0 else "-Infinity"
    s = format(d, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


_FLOAT_DIGITS = {"float8": 15, "float4": 6}
"""DBL_DIG and FLT_DIG: PostgreSQL writes a float in exponent form from this decimal exponent on (and below -4)."""


def _float_text(v: Any, base: str) -> str:
    """PostgreSQL's text of a float8 (float4) value at the default extra_float_digits: its shortest digits that read
    back as the value, in fixed notation without a trailing ``.0``, or as ``1.5e+15`` / ``1e-05`` outside
    [1e-4, 1e15) ([1e-4, 1e6) for float4); NaN, Infinity and -Infinity as PostgreSQL spells them."""
    x = float(v)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    shortest = repr(x) if base == "float8" else np.format_float_scientific(np.float32(x), unique=True)
    sign, digits, exponent = decimal.Decimal(shortest).normalize().as_tuple()
    assert isinstance(exponent, int)
    text = "".join(str(d) for d in digits)
    e = len(digits) + exponent - 1  # the decimal exponent of the first digit
    if e < -4 or e >= _FLOAT_DIGITS[base]:
        mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
        out = f"{mantissa}e{'-' if e < 0 else '+'}{abs(e):02d}"
    else:
        out = format(decimal.Decimal(f"{text}e{exponent}"), "f")
    return ("-" if sign else "") + out


def _text_of(base: str) -> Callable[[Any], str]:
    """The text form madnb compares for a value of a feature whose base type is ``base`` (pg_type.typname).

    A string is taken as that text already (char(n): less its trailing blanks, as its cast to text drops them).
    """
    of_value = _value_text_of(base)

    def text(v: Any) -> str:
        if isinstance(v, str):
            return v.rstrip(" ") if base == "bpchar" else v
        return of_value(v)

    return text


def _value_text_of(base: str) -> Callable[[Any], str]:
    if base == "bool":
        return lambda v: "true" if v else "false"
    if base in ("int2", "int4", "int8"):
        return lambda v: str(int(v)) if not isinstance(v, float) or v.is_integer() else repr(v)
    if base == "numeric":
        return _numeric_text
    if base in _FLOAT_DIGITS:
        return lambda v: _float_text(v, base)
    if base == "date":
        return lambda v: (v.date() if isinstance(v, datetime.datetime) else v).isoformat()
    if base == "timestamp":
        return lambda v: _time_text(v.replace(tzinfo=None)) if isinstance(v, datetime.datetime) else str(v)
    if base == "timestamptz":
        return lambda v: (
            _time_text(v.astimezone(datetime.UTC) if v.tzinfo else v) if isinstance(v, datetime.datetime) else str(v)
        )
    if base == "uuid":
        return lambda v: str(v if isinstance(v, uuid.UUID) else uuid.UUID(str(v)))
    return str


def madnb_text(X: Any, base: str = "text") -> np.ndarray:
    """Each value of ``X`` (a DataFrame or 2-D array) as the text madnb compares, NaN where it is missing.

    The first step of every categorical column of :func:`to_sklearn`'s pipeline.
    """
    text, na = _text_of(base), _na()
    a = np.asarray(X, dtype=object)
    out = np.empty(a.shape, dtype=object)
    for idx, v in np.ndenumerate(a):
        out[idx] = np.nan if _missing(v, na) else text(v)
    return out


def madnb_float(X: Any) -> np.ndarray:
    """Each value of ``X`` as float8 (``Decimal`` and integers too), NaN where it is missing.

    The step of the Gaussian columns of :func:`to_sklearn`'s pipeline.
    """
    na = _na()
    a = np.asarray(X, dtype=object)
    out = np.empty(a.shape, dtype=np.float64)
    for idx, v in np.ndenumerate(a):
        out[idx] = np.nan if _missing(v, na) else float(v)
    return out


def __getattr__(name: str) -> Any:
    """``madnb.sklearn_export.MixedNB`` (in :mod:`madnb._mixed_nb`), imported on first use: importing madnb never imports scikit-learn."""
    if name == "MixedNB":
        try:
            from ._mixed_nb import MixedNB
        except ImportError as e:
            raise ImportError(_INSTALL_HINT) from e
        return MixedNB
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------------
# naive_bayes: Gaussian and categorical features (madnb.train's default kind)
# ---------------------------------------------------------------------------


def _naive_bayes(numbers: dict[str, Any], classes: list[Any]) -> Pipeline:
    import pandas as pd
    from sklearn.compose import ColumnTransformer
    from sklearn.naive_bayes import CategoricalNB, GaussianNB
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import FunctionTransformer, OrdinalEncoder

    k = len(classes)
    feats = numbers["features"]
    # a feature the model has nothing for (no value seen, no class with parameters) adds nothing: left out
    cat = [f for f in feats if f["role"] == "categorical" and f["values"]]
    gauss = [f for f in feats if f["role"] == "gaussian" and any(term is not None for term in f["terms"])]
    steps: list[tuple[str, Any, list[str]]] = []
    for i, f in enumerate(cat):
        n = len(f["values"])
        encode = Pipeline([
            ("text", FunctionTransformer(madnb_text, kw_args={"base": f["base_type"]})),
            ("code", OrdinalEncoder(
                categories=[np.array(f["values"], dtype=object)], handle_unknown="use_encoded_value", unknown_value=n,
                encoded_missing_value=n, dtype=np.float64,
            )),
        ])
        steps.append((f"categorical_{i}", encode, [f["name"]]))
    if gauss:
        steps.append(("gaussian", FunctionTransformer(madnb_float), [f["name"] for f in gauss]))
    columns = ColumnTransformer(steps, remainder="drop", verbose_feature_names_out=False)
    # fitted on one frame holding every value (the encoders keep the values given, in that order)
    rows = max([len(f["values"]) for f in cat] + [1])
    frame = {f["name"]: [f["values"][min(r, len(f["values"]) - 1)] for r in range(rows)] for f in cat}
    frame.update({f["name"]: [0.0] * rows for f in gauss})
    columns.fit(pd.DataFrame(frame))

    classes_ = np.empty(k, dtype=object)
    classes_[:] = classes
    log_prior = np.array(numbers["log_prior"], dtype=np.float64)
    feature_log_prob = [
        np.hstack([np.array(f["log_prob"], dtype=np.float64).reshape(k, len(f["values"])), np.zeros((k, 1))]) for f in cat
    ]
    theta = np.full((k, len(gauss)), np.nan)
    var = np.full((k, len(gauss)), np.nan)
    window = np.array([f["window"] for f in gauss], dtype=np.float64).reshape(len(gauss), 2)
    for j, f in enumerate(gauss):
        for c, term in enumerate(f["terms"]):
            if term is not None:
                _a, r, mu = term
                theta[c, j], var[c, j] = mu, 1.0 / (2.0 * r * r)  # madnb's term: a - (r (x - mu))^2, r^2 = 1 / (2 var)

    nb: Any
    if cat and not gauss:
        nb = CategoricalNB(alpha=numbers["smoothing"], force_alpha=True)
        nb.feature_log_prob_ = feature_log_prob
        nb.n_categories_ = np.array([len(f["values"]) + 1 for f in cat], dtype=np.int64)
        nb.category_count_ = [np.zeros_like(lp) for lp in feature_log_prob]  # counts are not exported: for prediction only
        nb.class_log_prior_ = log_prior
    elif gauss and not cat and not np.isnan(theta).any():
        nb = GaussianNB()
        nb.theta_, nb.var_ = theta, var
        nb.class_prior_ = np.exp(log_prior)
        nb.epsilon_ = 0.0
    else:
        from ._mixed_nb import MixedNB

        nb = MixedNB()
        nb.n_categorical_ = len(cat)
        nb.feature_log_prob_ = feature_log_prob
        nb.theta_, nb.var_, nb.window_ = theta, var, window
        nb.class_log_prior_ = log_prior
    nb.classes_ = classes_
    nb.class_count_ = np.array(numbers["class_count"], dtype=np.float64)
    nb.n_features_in_ = len(cat) + len(gauss)
    return Pipeline([("columns", columns), ("nb", nb)])


# ---------------------------------------------------------------------------
# multinomial, bernoulli, complement: one vector column
# ---------------------------------------------------------------------------

# a tsvector's lexeme, quoted ('...' with '' and backslash escapes, as PostgreSQL writes it) or bare, and its positions
_LEXEME = re.compile(r"""\s*(?:'((?:[^'\\]|''|\\.)*)'|((?:[^\s':\\]|\\.)+))(?::([0-9]+[A-Da-d*]?(?:,[0-9]+[A-Da-d*]?)*))?""")
_UNESCAPE = re.compile(r"''|\\(.)", re.S)


def tsvector_counts(text: str) -> dict[str, int]:
    """The lexemes of a tsvector in PostgreSQL's text form and their counts (madnb's: the number of positions, 1 without).

    ``'cat':1,4 'dog':2 'it''s'`` -> ``{'cat': 2, 'dog': 1, "it's": 1}``.  ValueError if ``text`` is not a tsvector.
    """
    out: dict[str, int] = {}
    pos, end = 0, len(text.rstrip())
    while pos < end:
        mt = _LEXEME.match(text, pos)
        if mt is None or mt.end() == pos:
            raise ValueError(f"not a tsvector in PostgreSQL's text form at character {pos + 1}: {text[pos:pos + 30]!r}")
        quoted, bare, positions = mt.groups()
        lexeme = _UNESCAPE.sub(lambda e: e.group(1) if e.group(1) is not None else "'", quoted if quoted is not None else bare)
        out[lexeme] = out.get(lexeme, 0) + (positions.count(",") + 1 if positions else 1)
        pos = mt.end()
    return out


def madnb_vectors(X: Any, column: str, n_features: int | None = None, vocabulary: dict[str, int] | None = None) -> Any:
    """Column ``column`` of the DataFrame ``X`` as the count matrix of a vector model (rows x features).

    A dense vector (a list or array, as psycopg returns int[] / float8[] /
    numeric[]) must have ``n_features`` elements; a tsvector (a str in
    PostgreSQL's text form) counts each lexeme of ``vocabulary`` (lexeme ->
    column) by its positions, and ignores the others, as madnb does (a sparse
    matrix).  A missing vector (None, NaN) is a ValueError: madnb predicts NULL
    for it, scikit-learn has no such answer.  The first step of :func:`to_sklearn`'s
    pipeline for these kinds.
    """
    values = list(X[column]) if hasattr(X, "columns") else list(X)
    na = _na()
    for i, v in enumerate(values):
        if not isinstance(v, (str, list, tuple, np.ndarray)) and _missing(v, na):
            raise ValueError(f"row {i} has no vector (madnb predicts NULL for it): leave such rows out")
    if vocabulary is None:
        rows = [np.asarray(v, dtype=np.float64) for v in values]
        for i, r in enumerate(rows):
            if r.shape != (n_features,):
                raise ValueError(f"row {i}: a vector of shape {r.shape}, the model's have {n_features} elements")
        return np.vstack(rows) if rows else np.zeros((0, n_features or 0))
    from scipy.sparse import csr_matrix  # type: ignore[import-untyped]

    data: list[float] = []
    indices: list[int] = []
    indptr = [0]
    for v in values:
        for lexeme, n in tsvector_counts(v).items():
            j = vocabulary.get(lexeme)
            if j is not None:
                indices.append(j)
                data.append(float(n))
        indptr.append(len(indices))
    return csr_matrix((data, indices, indptr), shape=(len(values), len(vocabulary)), dtype=np.float64)


def _vector(numbers: dict[str, Any], classes: list[Any]) -> Pipeline:
    from sklearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import FunctionTransformer

    p, v = numbers["parameters"], numbers["vector"]
    kind = numbers["kind"]
    feature_count = np.array(numbers["feature_count"], dtype=np.float64)
    n = feature_count.shape[1]
    kw: dict[str, Any] = {"column": v["name"]}
    if v["terms"] is None:
        kw["n_features"] = n
    else:
        kw["vocabulary"] = {term: j for j, term in enumerate(v["terms"])}
    common = {"alpha": p["alpha"], "fit_prior": p["fit_prior"], "class_prior": p["class_prior"], "force_alpha": False}
    nb: Any
    if kind == "multinomial":
        nb = MultinomialNB(**common)
    elif kind == "bernoulli":
        nb = BernoulliNB(**common, binarize=p["binarize"])
    else:
        nb = ComplementNB(**common, norm=p["norm"])
        nb.feature_all_ = feature_count.sum(axis=0)
    classes_ = np.empty(len(classes), dtype=object)
    classes_[:] = classes
    nb.classes_ = classes_
    nb.class_count_ = np.array(numbers["class_count"], dtype=np.float64)
    nb.feature_count_ = feature_count
    nb.class_log_prior_ = np.array(numbers["log_prior"], dtype=np.float64)
    nb.feature_log_prob_ = np.array(numbers["log_prob"], dtype=np.float64)
    nb.n_features_in_ = n
    return Pipeline([("vectors", FunctionTransformer(madnb_vectors, kw_args=kw)), ("nb", nb)])


_BUILDERS: dict[str, Callable[[dict[str, Any], list[Any]], Pipeline]] = {
    "naive_bayes": _naive_bayes,
    "gaussian": _naive_bayes,  # all Gaussian: a GaussianNB with the model's variances (var_smoothing included) and priors
    "categorical": _naive_bayes,  # all categorical: a CategoricalNB with the model's log probabilities and priors
    # one vector column: MultinomialNB, BernoulliNB, ComplementNB with the model's counts, log probabilities and priors
    "multinomial": _vector,
    "bernoulli": _vector,
    "complement": _vector,
}

__all__ = ["madnb_float", "madnb_text", "madnb_vectors", "to_sklearn", "tsvector_counts"]  # and MixedNB, imported on first use (__getattr__)

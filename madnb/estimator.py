"""A scikit-learn-style estimator whose work happens in the database: :class:`NaiveBayes`.

Every method is one or two calls of madnb's SQL API on the database the
estimator was given (``madnb.train``, the model's generated
``madnb_models.<model>_predict*`` and ``_explain`` functions, ``madnb.evaluate``,
``madnb.cross_validate``, ``madnb.model_sql``, ``madnb.drop_model``; issue 22's
``madnb.decision`` and ``madnb.decide*``, ``madnb.threshold_curve``,
``madnb.feature_importance``, ``madnb.update``, ``madnb.forget``,
``madnb.model_versions``, ``madnb.rollback_model``); rows
never come to Python but for a DataFrame given as a source, which is streamed
into a temporary table (:mod:`madnb._sources`), and the predictions asked for.
scikit-learn is not needed; with it, ``clone``, ``Pipeline`` and
``GridSearchCV`` take the estimator (docs/python.md).
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import json
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import psycopg
from psycopg import sql

from ._errors import MadnbError, database_errors
from ._install import InstallError, Target, connection
from ._progress import Reporter, reporting
from ._sources import Relation, TypeName, is_frame, relation

if TYPE_CHECKING:  # pragma: no cover
    from sklearn.pipeline import Pipeline

__all__ = ["CrossValidation", "Decision", "Evaluation", "GridSearch", "NaiveBayes", "ModelInfo", "read_model"]

@contextlib.contextmanager
def session(conn: Target) -> Iterator[psycopg.Connection[Any]]:
    """A psycopg connection in a transaction (:func:`madnb.connection`) under the session's search_path, psycopg errors
    and the connection's refusals (25P02 a failed transaction, 22023 another database's URL) as :class:`MadnbError`."""
    try:
        opened = connection(conn, pin_search_path=False)
        with database_errors(), opened as c:
            yield c
    except InstallError as e:
        raise MadnbError(e.sqlstate, str(e)) from e


# ---------------------------------------------------------------------------
# A model as the catalog describes it
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelInfo:
    """A named model as ``madnb.models`` lists it, with what the client needs to call its functions.

    Attributes
    ----------
    name : str
        The model's name as madnb's functions take it (``adult_nb``, ``"MyModel"``, ``analytics.churn``):
        :data:`CALL_NAME`.
    kind, source, label, label_type : str
        The catalog's columns of the same names.
    features : list of dict
        ``[{name, role, type}]`` in the model's order.
    classes : list of str
        The classes as text (``madnb.model_classes``), in the model's order; typed as the label by :func:`typed_classes`.
    smoothing : float
    epsilon, delta : float or None
        A private model's release (None for an exact one).
    parameters : dict
        The kind's parameters (``options``) as the catalog keeps them.
    predict_function : tuple of str
        (schema, name) of its ``<model>_predict``; ``_proba`` and ``_proba_array`` follow the name.
    explain : tuple of str
        (schema, name) of its ``<model>_explain`` (docs/explain.md).
    feature_types : dict
        Feature name -> its column type as (schema, type name), where the database resolves it.
    """

    name: str
    kind: str
    source: str
    label: str
    label_type: str
    features: list[dict[str, Any]]
    classes: list[str]
    smoothing: float
    epsilon: float | None
    delta: float | None
    parameters: dict[str, Any]
    predict_function: tuple[str, str]
    explain: tuple[str, str]
    feature_types: dict[str, TypeName] = field(default_factory=dict)

    def function(self, suffix: str = "") -> sql.Identifier:
        """The generated prediction function ``<model>_predict`` + ``suffix`` (``''``, ``'_proba'``, ``'_proba_array'``)."""
        schema, fn = self.predict_function
        return sql.Identifier(schema, fn + suffix)

    def explain_function(self) -> sql.Identifier:
        """The generated explanation function ``<model>_explain`` (docs/explain.md), as ``madnb.models`` lists it."""
        return sql.Identifier(*self.explain)


CALL_NAME = ("CASE WHEN m.schema_name OPERATOR(pg_catalog.=) 'madnb_models' THEN pg_catalog.quote_ident(m.name) "
             "ELSE m.name END")
"""The name madnb's functions take for the model of catalog row ``m`` (``madnb.models`` lists a model of schema
madnb_models by its bare name, ``MyModel``, and one of another schema as ``schema.name``, quoted already)."""

_CATALOG_ROW = f"""
SELECT {CALL_NAME}, m.kind, m.source, m.label, m.label_type, m.features, m.classes, m.smoothing, m.epsilon, m.delta,
       m.parameters, pg_catalog.parse_ident(m.predict_function), pg_catalog.parse_ident(m.explain_function)
FROM madnb.models AS m, pg_catalog.parse_ident(%(model)s::pg_catalog.text) AS p(v)
WHERE CASE WHEN pg_catalog.cardinality(p.v) OPERATOR(pg_catalog.=) 1
                OR p.v[1] OPERATOR(pg_catalog.=) 'madnb_models'
           THEN m.schema_name OPERATOR(pg_catalog.=) 'madnb_models'
                AND m.name OPERATOR(pg_catalog.=) p.v[pg_catalog.cardinality(p.v)]
           ELSE m.schema_name OPERATOR(pg_catalog.=) p.v[1]
                AND m.name OPERATOR(pg_catalog.=) pg_catalog.format('%%I.%%I', p.v[1], p.v[2]) END
"""

_FEATURE_TYPES = """
SELECT f.value OPERATOR(pg_catalog.->>) 'name', n.nspname, t.typname
FROM pg_catalog.jsonb_array_elements(%s::pg_catalog.jsonb) AS f(value)
JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) pg_catalog.to_regtype(f.value OPERATOR(pg_catalog.->>) 'type')
JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) t.typnamespace
"""


_PRIVATE_RELEASE = f"""
SELECT l.parameters OPERATOR(pg_catalog.->) 'bounds_by_column', l.parameters OPERATOR(pg_catalog.->>) 'domain'
FROM madnb.models AS m JOIN madnb.privacy_ledger AS l ON l.release_id OPERATOR(pg_catalog.=) m.release_id
WHERE {CALL_NAME} OPERATOR(pg_catalog.=) %s::pg_catalog.text
"""

_JSON_DOMAIN = "given as jsonb"
"""What the ledger records of a domain given as jsonb (plpython/madnb_pl/privacy/column_release.py): not its values."""


def private_release(c: psycopg.Connection[Any], model: str) -> tuple[dict[str, Any] | None, str | None]:
    """A private model's ``bounds`` and ``domain`` as ``madnb.train`` takes them, from its release in the ledger
    (None for what it does not record: a domain given as jsonb is recorded without its values)."""
    row = c.execute(_PRIVATE_RELEASE, [model]).fetchone()
    if row is None:
        return None, None
    bounds, domain = row
    return (dict(bounds) if bounds else None), (None if domain is None or domain == _JSON_DOMAIN else str(domain))


def read_model(c: psycopg.Connection[Any], model: str) -> ModelInfo:
    """Model ``model`` from the catalog (42704 when there is none, as ``madnb.model_classes`` says)."""
    c.execute("SELECT madnb.model_classes(%s::pg_catalog.text)", [model])  # the server's errors for a bad or unknown name
    row = c.execute(_CATALOG_ROW, {"model": model}).fetchone()
    if row is None:  # dropped between the two statements
        raise MadnbError("42704", f'model "{model}" does not exist', hint="madnb.models lists the models")
    name, kind, source, label, label_type, features, classes, smoothing, epsilon, delta, parameters, fn, ex = row
    types = {str(r[0]): (str(r[1]), str(r[2])) for r in c.execute(_FEATURE_TYPES, [json.dumps(features)]).fetchall()}
    return ModelInfo(
        name=name, kind=kind, source=source, label=label, label_type=label_type, features=list(features),
        classes=list(classes), smoothing=float(smoothing), epsilon=epsilon, delta=delta,
        parameters=dict(parameters or {}), predict_function=(fn[0], fn[1]), explain=(ex[0], ex[1]), feature_types=types,
    )


def typed_classes(c: psycopg.Connection[Any], model: str) -> list[Any]:
    """Model ``model``'s classes typed as its label (psycopg's Python types), in the model's order."""
    from .sklearn_export import typed_classes as of_numbers

    numbers = json.loads(c.execute("SELECT madnb._model_numbers(%s::pg_catalog.text)", [model]).fetchone()[0])  # type: ignore[index]
    return of_numbers(c, numbers)


# ---------------------------------------------------------------------------
# Metrics
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Evaluation:
    """The metrics of ``madnb.evaluate`` (named as scikit-learn's metric functions), as attributes.

    Every array is in the order of ``classes``.  :meth:`to_dict` gives the
    database's whole answer, keys this version does not know included.

    Attributes
    ----------
    classes : list
        The model's classes (as text), the order of every array.
    rows, unknown_label_rows : int
        Rows evaluated, and those whose label is not a class of the model.
    unscored_rows : int
        Labelled rows without a prediction (a NULL vector, or a dense one of another length), left out of every metric.
    accuracy, balanced_accuracy : float
    precision, recall, f1 : list of float
        Per class.
    support : list of int
        Per class.
    macro_avg, weighted_avg : dict
        ``{precision, recall, f1}`` averaged over the classes.
    confusion_matrix : numpy.ndarray
        Counts, rows the true class and columns the predicted one.
    log_loss : float or None
    roc_auc : float or None
        Two classes: the area under the ROC curve of ``positive_class``; more classes, evaluated with
        ``curves=True``: the mean of ``roc_auc_ovr``.
    roc_auc_ovr : list of float or None
        More than two classes, evaluated with ``curves=True``: each class's AUC against the rest.
    positive_class : str or None
    curves : dict or None
        Evaluated with ``curves=True``: the ROC, precision-recall and calibration curves the database computed
        (docs/models.md, "Evaluating a model"); :meth:`plot` and :meth:`report` draw them.
    """

    classes: list[Any]
    rows: int
    unknown_label_rows: int
    accuracy: float
    balanced_accuracy: float
    precision: list[float]
    recall: list[float]
    f1: list[float]
    support: list[int]
    macro_avg: dict[str, float]
    weighted_avg: dict[str, float]
    confusion_matrix: np.ndarray
    log_loss: float | None
    roc_auc: float | None
    positive_class: Any
    metrics: Mapping[str, Any] = field(repr=False, compare=False)
    roc_auc_ovr: list[float | None] | None = None
    curves: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)
    unscored_rows: int = 0

    @classmethod
    def from_dict(cls, metrics: Mapping[str, Any]) -> Evaluation:
        """The metrics of one ``madnb.evaluate`` answer (or one row of ``madnb.cross_validate``)."""
        m = dict(metrics)
        return cls(
            classes=list(m.get("classes") or []), rows=int(m.get("rows") or 0),
            unknown_label_rows=int(m.get("unknown_label_rows") or 0),
            accuracy=float(m["accuracy"]), balanced_accuracy=float(m["balanced_accuracy"]),
            precision=list(m.get("precision") or []), recall=list(m.get("recall") or []), f1=list(m.get("f1") or []),
            support=list(m.get("support") or []), macro_avg=dict(m.get("macro_avg") or {}),
            weighted_avg=dict(m.get("weighted_avg") or {}),
            confusion_matrix=np.array(m.get("confusion_matrix") or [], dtype=np.int64),
            log_loss=m.get("log_loss"), roc_auc=m.get("roc_auc"), positive_class=m.get("positive_class"), metrics=m,
            roc_auc_ovr=m.get("roc_auc_ovr"), curves=m.get("curves"), unscored_rows=int(m.get("unscored_rows") or 0),
        )

    def plot(self, folds: CrossValidation | None = None) -> Any:
        """The figure of this evaluation (:func:`madnb.report.figure`): confusion matrix, ROC, precision-recall and
        calibration curves, and given ``folds`` the spread of a cross-validation's scores.

        Needs an evaluation made with ``curves=True`` and matplotlib (the ``bench`` extra).

        Returns
        -------
        matplotlib.figure.Figure
        """
        from . import report

        return report.figure(self.metrics, None if folds is None else [f.metrics for f in folds.folds])

    def report(self, path: str, folds: CrossValidation | None = None, title: str = "madnb evaluation") -> None:
        """Write the self-contained HTML report of this evaluation to ``path`` (:func:`madnb.report.html`)."""
        from . import report

        page = report.html(self.metrics, None if folds is None else [f.metrics for f in folds.folds], title)
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)

    def to_dict(self) -> dict[str, Any]:
        """The metrics as the database gave them (a copy: JSON types, ``confusion_matrix`` as lists)."""
        return copy.deepcopy(dict(self.metrics))


@dataclass(frozen=True)
class CrossValidation:
    """``madnb.cross_validate``'s answer: each fold's metrics and their mean.

    Attributes
    ----------
    folds : list of Evaluation
        Fold 1, 2, ...: the metrics of the model trained on the other folds, on this fold's rows.
    mean : Evaluation
        Each score averaged over the folds; ``rows``, ``support`` and ``confusion_matrix`` summed.
    """

    folds: list[Evaluation]
    mean: Evaluation
    parameters: dict[str, Any] | None = None
    """A grid search's point (``{"alpha": 0.5}``): the parameters these folds were scored with; None without a grid."""

    def to_dict(self) -> dict[str, Any]:
        """``{"1": {...}, "2": {...}, ..., "mean": {...}}`` as the database gave them."""
        out = {str(i): f.to_dict() for i, f in enumerate(self.folds, start=1)}
        out["mean"] = self.mean.to_dict()
        return out

    @classmethod
    def from_rows(cls, rows: Sequence[tuple[str, Mapping[str, Any]]], parameters: dict[str, Any] | None = None) -> CrossValidation:
        """The folds of ``(fold, metrics)`` rows of ``madnb.cross_validate`` (``'1'``, ``'2'``, ..., ``'mean'``)."""
        by_fold = {str(f): Evaluation.from_dict(m) for f, m in rows}
        mean = by_fold.pop("mean")
        return cls([by_fold[f] for f in sorted(by_fold, key=int)], mean, parameters)


_SCORES = ("accuracy", "balanced_accuracy", "log_loss", "roc_auc")
"""The mean scores :meth:`GridSearch.table` lists per point (``madnb.cross_validate``'s ``mean`` row)."""


@dataclass(frozen=True)
class GridSearch:
    """``madnb.cross_validate(..., grid => ...)``'s answer: every point's folds, and the best point.

    Attributes
    ----------
    points : list of CrossValidation
        One per point of the grid, in scikit-learn's ``ParameterGrid`` order (parameters sorted by name, the last
        varying fastest), each with its ``parameters``.
    best_params : dict
        The point of highest mean accuracy (the first of equals, as GridSearchCV's ``best_params_``).
    best_index : int
        Its index in ``points`` (GridSearchCV's ``best_index_``).
    best : Evaluation
        Its mean metrics (the ``best`` row).
    """

    points: list[CrossValidation]
    best_params: dict[str, Any]
    best_index: int
    best: Evaluation

    @classmethod
    def from_rows(cls, rows: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any] | None]]) -> GridSearch:
        """The points of ``(fold, metrics, parameters)`` rows of ``madnb.cross_validate`` with a grid."""
        by_point: dict[str, tuple[dict[str, Any], list[tuple[str, Mapping[str, Any]]]]] = {}
        best: tuple[Mapping[str, Any], dict[str, Any]] | None = None
        for fold, metrics, parameters in rows:
            point = dict(parameters or {})
            if fold == "best":
                best = (metrics, point)
                continue
            by_point.setdefault(json.dumps(point, sort_keys=True), (point, []))[1].append((fold, metrics))
        if best is None:  # pragma: no cover - the database always returns one
            raise MadnbError("XX000", "madnb.cross_validate with a grid returned no best row")
        points = [CrossValidation.from_rows(folds, point) for point, folds in by_point.values()]
        index = [p.parameters for p in points].index(best[1])
        return cls(points, best[1], index, Evaluation.from_dict(best[0]))

    def table(self) -> Any:
        """The mean scores of each point (GridSearchCV's ``cv_results_``): one row per point, its parameters then
        ``accuracy``, ``balanced_accuracy``, ``log_loss`` and ``roc_auc``.

        Returns
        -------
        pandas.DataFrame, or a list of dicts without pandas
        """
        names = sorted({k for p in self.points for k in p.parameters or {}})
        return _table([*names, *_SCORES], [
            [*((p.parameters or {}).get(n) for n in names), *(getattr(p.mean, s) for s in _SCORES)] for p in self.points
        ])

    def to_dict(self) -> dict[str, Any]:
        """``{"points": [{"parameters": {...}, "folds": {"1": ..., "mean": ...}}, ...], "best": {"parameters": ...,
        "metrics": ...}}``, the metrics as the database gave them."""
        return {"points": [{"parameters": dict(p.parameters or {}), "folds": p.to_dict()} for p in self.points],
                "best": {"parameters": dict(self.best_params), "metrics": self.best.to_dict()}}


def _table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> Any:
    """Rows as a pandas DataFrame of these columns; a list of dicts where pandas is not installed."""
    try:
        import pandas as pd
    except ImportError:
        return [dict(zip(columns, r, strict=True)) for r in rows]
    return pd.DataFrame([list(r) for r in rows], columns=list(columns))


def query_rows(c: psycopg.Connection[Any], query: str, params: Sequence[Any]) -> tuple[list[str], list[tuple[Any, ...]]]:
    """A set-returning call's column names (as the function names them) and rows."""
    cur = c.execute(query, params)
    return [d.name for d in cur.description or []], cur.fetchall()


def _query_table(c: psycopg.Connection[Any], query: str, params: Sequence[Any]) -> Any:
    """A set-returning call's rows as :func:`_table` gives them."""
    return _table(*query_rows(c, query, params))


MODEL_VERSIONS = "SELECT * FROM madnb.model_versions(%s::pg_catalog.text)"
"""The versions of model %s (:meth:`NaiveBayes.versions`, ``madnb versions``)."""
FEATURE_IMPORTANCE = "SELECT * FROM madnb.feature_importance(%s::pg_catalog.text, %s::pg_catalog.text)"
"""Model %s's feature importance over source %s (:meth:`NaiveBayes.feature_importance`, ``madnb feature-importance``)."""
THRESHOLD_CURVE = ("SELECT * FROM madnb.threshold_curve(%s::pg_catalog.text, %s::pg_catalog.text, %s::pg_catalog.text, "
                   "%s::pg_catalog.float8[])")
"""Model, source, label, costs (:meth:`NaiveBayes.threshold_curve`, ``madnb threshold-curve``)."""
ROLLBACK = "SELECT madnb.rollback_model(%s::pg_catalog.text, %s::pg_catalog.int4)"
"""Model %s back to version %s (:meth:`NaiveBayes.rollback`, ``madnb rollback``)."""


# ---------------------------------------------------------------------------
# Decisions at query time (docs/decisions.md): madnb.decision's arguments
# ---------------------------------------------------------------------------


def decision_numbers(value: Any, name: str, ndim: int) -> list[Any] | None:
    """``value`` (a sequence or numpy array of numbers, of ``ndim`` dimensions) as nested lists of floats for a
    float8[] parameter; what is not numbers is a TypeError, another shape a ValueError.  Lengths, signs and
    sums are the database's to check (madnb.decision: 22023)."""
    if value is None:
        return None
    what = "one number per class, in the model's class order (classes_)" if ndim == 1 else \
        "a K x K matrix, costs[i][j] the cost of predicting class j for a row of class i (the order of classes_)"
    if isinstance(value, (str, bytes, Mapping)):
        raise TypeError(f"{name} is {what}, not a {type(value).__name__}")
    try:
        array = np.asarray(value)
    except ValueError as e:  # ragged nested lists
        raise ValueError(f"{name} is {what}: its rows differ in length") from e
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} is {what}: it holds {array.dtype} values, not numbers")
    if array.ndim != ndim:
        raise ValueError(f"{name} is {what}, got an array of shape {array.shape}")
    numbers: list[Any] = array.astype(np.float64).tolist()
    return numbers


@dataclass(frozen=True)
class Decision:
    """``madnb.decision``'s arguments, checked for their Python types (docs/decisions.md): a decision at query time.

    Attributes
    ----------
    priors, class_weights : list of float or None
        One per class, in ``classes_`` order.
    costs : list of list of float or None
        K x K: ``costs[i][j]`` the cost of predicting class j for a row of class i.
    threshold : float or None
        Two classes: the positive class (``classes_[1]``) predicted from this probability on.
    """

    priors: list[float] | None = None
    class_weights: list[float] | None = None
    costs: list[list[float]] | None = None
    threshold: float | None = None

    @classmethod
    def of(cls, priors: Any = None, class_weights: Any = None, costs: Any = None, threshold: Any = None) -> Decision | None:
        """The decision these arguments make; None when none is given (the model's own decision, unchanged SQL)."""
        if priors is None and class_weights is None and costs is None and threshold is None:
            return None
        if threshold is not None and (isinstance(threshold, (bool, np.bool_)) or not isinstance(threshold, (int, float, np.number))):
            raise TypeError(f"threshold is a probability (a number in [0, 1]), not a {type(threshold).__name__}")
        return cls(decision_numbers(priors, "priors", 1), decision_numbers(class_weights, "class_weights", 1),
                   decision_numbers(costs, "costs", 2), None if threshold is None else float(threshold))

    def arguments(self) -> list[Any]:
        """The values of :data:`DECISION_ARGUMENTS`' parameters, in its order."""
        return [self.priors, self.class_weights, self.costs, self.threshold]

    def made(self, c: psycopg.Connection[Any], model: str) -> str:
        """``madnb.decision(model, ...)`` as jsonb text: the decision checked against the model (22023 if it does not
        fit it), made once so that the per-row ``madnb.decide*`` functions take it as a parameter (a query that calls
        ``madnb.decision`` itself gets no parallel workers: docs/decisions.md)."""
        row = c.execute(f"SELECT madnb.decision(%s::pg_catalog.text, {DECISION_ARGUMENTS})::pg_catalog.text",
                        [model, *self.arguments()]).fetchone()
        return str(row[0]) if row else "null"


DECISION_ARGUMENTS = ("priors => %s::pg_catalog.float8[], class_weights => %s::pg_catalog.float8[], "
                      "costs => %s::pg_catalog.float8[], threshold => %s::pg_catalog.float8")
"""The decision's named arguments of madnb.decision, madnb.evaluate (docs/decisions.md)."""


# ---------------------------------------------------------------------------
# The estimator
# ---------------------------------------------------------------------------


def _text_array(names: Sequence[str] | str | None, what: str) -> list[str] | None:
    if names is None:
        return None
    if isinstance(names, str):
        raise TypeError(f"{what} is a list of column names, not one string: [{names!r}]")
    return [str(n) for n in names]


def _json_value(v: Any) -> Any:
    """json.dumps's ``default``: numpy's scalars and arrays as the Python numbers and lists they hold."""
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    raise TypeError(f"{type(v).__name__} is not JSON: give numbers, strings, lists or dicts")


def _json(value: Any) -> str:
    return json.dumps(value, default=_json_value)


def _is_default(name: str, value: Any) -> bool:
    """Whether parameter ``name`` holds its default (an option: None); never raises (an array compares elementwise)."""
    default = _DEFAULTS.get(name)
    if value is default:
        return True
    try:
        return bool(value == default)
    except (TypeError, ValueError):
        return False


def _identifier(c: psycopg.Connection[Any], name: str) -> str:
    """An exact column name (a frame's column, a Series' name, the catalog's) as an SQL identifier (double-quoted).

    madnb's SQL functions read their column-name arguments as identifiers (folded to lower case unless quoted).
    """
    return sql.Identifier(name).as_string(c)


def _quote_ident(c: psycopg.Connection[Any], name: str) -> str:
    """``name`` as the server's ``quote_ident`` writes it (``a``, ``"My col"``): for names a user reads and may edit."""
    return str((c.execute("SELECT pg_catalog.quote_ident(%s::pg_catalog.text)", [name]).fetchone() or [name])[0])


def _identifiers(c: psycopg.Connection[Any], names: list[str] | None) -> list[str] | None:
    return None if names is None else [_identifier(c, n) for n in names]


class NaiveBayes:
    """Naive Bayes trained, scored and evaluated in PostgreSQL, with scikit-learn's estimator interface.

    Parameters
    ----------
    conn : str, psycopg.Connection, SQLAlchemy Engine or Connection
        The database (anything :func:`madnb.connection` takes).  Each call runs
        in one transaction: the caller's, if the connection is in one, else its own,
        committed when the call completes.  Table names are looked up on the
        session's search_path.
    name : str, optional
        The model's name, as ``madnb.train`` takes it (one identifier, or
        ``schema.identifier``).  None: :meth:`fit` names it ``nb_<12 hex digits>``;
        re-fitting the same estimator re-trains that model in place.  Named
        models stay in the database until :meth:`drop`.
    kind : str, default 'naive_bayes'
        ``'naive_bayes'`` (Gaussian numeric and categorical features, MADlib's numbers),
        ``'gaussian'``, ``'categorical'``, ``'multinomial'``, ``'bernoulli'``, ``'complement'``.
    smoothing : float, default 1
        The Laplace smoothing of categorical features.
    categorical : list of str, optional
        Integer or numeric columns to treat as categorical rather than Gaussian.
    epsilon, bounds, domain, delta : optional
        A differentially private model (``madnb.train``'s arguments; ``bounds`` and ``domain`` a dict or
        JSON text, ``domain`` also a table's name or ``'private'``).
    replace : bool, default False
        Re-train a model of that name that exists already (else :meth:`fit` fails with 42710).
        With a ``name``, ``GridSearchCV(..., n_jobs=1)`` re-trains the one model for each fit.
    progress : bool or madnb.Reporter, default False
        Show the phases of :meth:`fit`, :meth:`evaluate` and :meth:`cross_validate` as the database reports
        them (``madnb.progress``): a tqdm bar when tqdm is installed (the ``progress`` extra; a notebook bar in
        a notebook), else one line per phase on standard error; or a :class:`madnb.Reporter` of your own.
    tune : dict or str, optional
        A grid of the kind's tunable parameters, ``{"alpha": [0.1, 1, 10], "fit_prior": [True, False]}`` (dict or
        JSON text): :meth:`fit` trains with its best point by 5-fold cross-validation in the database
        (``madnb.train(..., tune => ...)``: seed 0, the rows' text forms as keys, the highest mean accuracy),
        and ``best_params_`` says which.  A parameter of the estimator, as scikit-learn's ``RidgeCV(alphas=...)``,
        since ``madnb.train`` takes it with the others; to choose folds or metric, use
        :meth:`cross_validate` with ``grid`` and fit with the point you pick.  Not with ``epsilon`` (0A000); with
        ``sample_weight``, each fold's model is weighted (the metrics count rows).
    **options
        The kind's parameters, named as scikit-learn names them (``alpha``, ``var_smoothing``,
        ``fit_prior``, ``class_prior``, ``min_categories``, ``binarize``, ``norm``).

    Attributes
    ----------
    model_ : str
        The fitted model's name in the catalog.
    classes_ : numpy.ndarray
        The classes, typed as the label, in the order of :meth:`predict_proba`'s columns
        (read from the database on first use).
    feature_names_in_ : numpy.ndarray
        The features, in the model's order.
    n_features_in_ : int
    label_ : str
        The label column.
    best_params_ : dict
        Fitted with ``tune``: the grid's best point, as the catalog keeps it (``smoothing`` its ``smoothing``,
        the others among its ``parameters``).
    """

    _estimator_type = "classifier"  # scikit-learn before 1.6

    def __init__(
        self,
        conn: Target,
        name: str | None = None,
        *,
        kind: str = "naive_bayes",
        smoothing: float = 1.0,
        categorical: Sequence[str] | None = None,
        epsilon: float | None = None,
        bounds: Any = None,
        domain: Any = None,
        delta: float | None = None,
        replace: bool = False,
        progress: bool | Reporter = False,
        tune: Mapping[str, Sequence[Any]] | str | None = None,
        **options: Any,
    ) -> None:
        self.conn = conn
        self.name = name
        self.kind = kind
        self.smoothing = smoothing
        self.categorical = categorical
        self.epsilon = epsilon
        self.bounds = bounds
        self.domain = domain
        self.delta = delta
        self.replace = replace
        self.progress = progress
        self.tune = tune
        self.options = dict(options)

    def _reporting(self, c: psycopg.Connection[Any]) -> contextlib.AbstractContextManager[None]:
        """Progress of the database's work in ``c``'s transaction, as ``progress`` asks."""
        if self.progress is False or self.progress is None:
            return contextlib.nullcontext()
        return reporting(c, self.progress if isinstance(self.progress, Reporter) else Reporter())

    # -- scikit-learn's parameter protocol ---------------------------------

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The estimator's parameters, its kind's ``options`` among them (scikit-learn's protocol).

        Parameters
        ----------
        deep : bool
            Unused (the estimator holds no other estimator).

        Returns
        -------
        dict
        """
        params = {p: getattr(self, p) for p in _PARAMS}
        params.update(self.options)
        return params

    def set_params(self, **params: Any) -> NaiveBayes:
        """Set parameters (``smoothing=0.5``, an option ``alpha=0.5``); takes effect at the next :meth:`fit`.

        Returns
        -------
        NaiveBayes
            self
        """
        for k, v in params.items():
            if k in _PARAMS:
                setattr(self, k, v)
            else:
                self.options[k] = v
        return self

    def __sklearn_clone__(self) -> NaiveBayes:
        """An unfitted copy with the same parameters and the same ``conn`` (a connection is shared, never copied)."""
        params = {k: (v if k == "conn" else copy.deepcopy(v)) for k, v in self.get_params().items()}
        return type(self)(**params)

    def __sklearn_tags__(self) -> Any:
        """scikit-learn's tags: a classifier that takes DataFrames with strings, categories and missing values."""
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags

        return Tags(
            estimator_type="classifier", target_tags=TargetTags(required=True), classifier_tags=ClassifierTags(),
            input_tags=InputTags(allow_nan=True, categorical=True, string=True), requires_fit=True,
        )

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.get_params().items() if k != "conn" and not _is_default(k, v)}
        return f"NaiveBayes({', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    # -- training ----------------------------------------------------------

    def fit(
        self, source: Any, label: Any = None, features: Sequence[str] | None = None, exclude: Sequence[str] | None = None,
        *, sample_weight: Any = None,
    ) -> NaiveBayes:
        """Train the model in the database (``madnb.train``; with ``tune``, on the grid's best point).

        Parameters
        ----------
        source : str, SQLAlchemy Table or selectable, or pandas.DataFrame
            A table or view name (schema-qualified, or on the search_path), a
            selectable (run into a temporary table), or a DataFrame (streamed with
            COPY into a temporary table typed from its dtypes: integers int8,
            floats float8, booleans boolean, datetimes timestamp, strings and
            categories text).
        label : str or array-like
            The label column's name; or, with a DataFrame ``source``, the labels
            themselves (a Series or 1-D array, one per row: ``fit(X, y)``).
        features : list of str, optional
            The feature columns (default: every column but the label and ``exclude``).
        exclude : list of str, optional
            Columns left out when ``features`` is None.
        sample_weight : str or array-like, optional
            Sample weights, as scikit-learn's ``fit(X, y, sample_weight=...)`` (``madnb.train(..., weight => ...)``:
            every count and sum weighted, for every kind; docs/models.md "Sample weights"): the name of a numeric
            column of the source (never a feature), or with a DataFrame ``source`` the weights themselves, one
            per row (uploaded beside it).  A NULL (NaN) weight skips its row; a negative one is refused (22023).
            A weighted model is not updated nor forgotten from (:meth:`partial_fit`, :meth:`forget`: 0A000).

        Column names (``label``, ``features``, ``exclude``, ``categorical``, ``sample_weight``) of a table, view or
        selectable are SQL identifiers, as ``madnb.train`` reads them: folded to lower case unless
        double-quoted (``'"Play"'``).  Of a DataFrame they are its columns' exact names (``'Play'``).

        Returns
        -------
        NaiveBayes
            self, fitted.

        Raises
        ------
        MadnbError
            With the database's SQLSTATE (42P01 no such table, 42703 no such column, 42710 the model exists, ...).
        """
        if label is None:
            raise TypeError("fit needs the label: fit(source, 'label_column') or fit(X, y)")
        features, exclude = _text_array(features, "features"), _text_array(exclude, "exclude")
        frame, label_name = (_frame_of(source) if isinstance(source, np.ndarray) else source), label
        if not isinstance(label, str):
            if not is_frame(frame):
                raise TypeError("fit(X, y) takes X as a pandas DataFrame (or give the label's column name: fit(source, 'label'))")
            frame, label_name = _with_labels(frame, label)
        weight: str | None = None
        if isinstance(sample_weight, str):
            weight = sample_weight
        elif sample_weight is not None:
            if not is_frame(frame):
                raise TypeError("sample_weight as values goes with a DataFrame source; a table's weights are one of its "
                                "columns: sample_weight='column'")
            frame, weight = _with_weights(frame, sample_weight)
        self.__dict__.pop("best_params_", None)
        auto = self.name is None
        model = getattr(self, "model_", None) if auto and getattr(self, "_auto_name", False) else self.name
        if model is None:
            model = "nb_" + secrets.token_hex(6)
        replace = self.replace or (auto and getattr(self, "_auto_name", False))
        bounds = self.bounds if self.bounds is None or isinstance(self.bounds, str) else _json(self.bounds)
        domain = self.domain if self.domain is None or isinstance(self.domain, str) else _json(self.domain)
        if is_frame(frame):  # only what madnb.train is to read goes up: the features, or every column not excluded
            keep = [*features, label_name] if features is not None else [n for n in frame.columns if n not in (exclude or ())]
            keep += [] if weight is None else [weight]
            exclude = [n for n in exclude or () if n not in frame.columns] or None  # the server names a column the frame lacks
            frame = frame[[n for n in frame.columns if n in set(keep)]]
        categorical = _text_array(self.categorical, "categorical")
        tune = _grid(self.tune, "tune")
        extra, extra_values = "", list[Any]()  # only what is given: the call of an unweighted, untuned fit is as it was
        if weight is not None:
            extra, extra_values = extra + ", weight => %s::pg_catalog.text", [*extra_values, weight]
        if tune is not None:
            extra, extra_values = extra + ", tune => %s::pg_catalog.jsonb", [*extra_values, tune]
        with session(self.conn) as c, self._reporting(c), relation(c, frame) as rel:
            if is_frame(frame):  # a frame's names are its columns' exact names
                label_name, features, exclude = _identifier(c, label_name), _identifiers(c, features), _identifiers(c, exclude)
                categorical = _identifiers(c, categorical)
                if weight is not None:
                    extra_values[0] = _identifier(c, weight)
            c.execute(
                "SELECT madnb.train(model => %s::pg_catalog.text, source => %s::pg_catalog.text, label => %s::pg_catalog.text, "
                "features => %s::pg_catalog.text[], exclude => %s::pg_catalog.text[], categorical => %s::pg_catalog.text[], "
                "smoothing => %s::pg_catalog.float8, replace => %s::pg_catalog.bool, kind => %s::pg_catalog.text, "
                "epsilon => %s::pg_catalog.float8, bounds => %s::pg_catalog.jsonb, domain => %s::pg_catalog.text, "
                f"delta => %s::pg_catalog.float8, options => %s::pg_catalog.jsonb{extra})",
                [model, rel.name, label_name, features, exclude, categorical, self.smoothing, replace, self.kind, self.epsilon, bounds,
                 domain, self.delta, _json(self.options) if self.options else None, *extra_values],
            )
            info = read_model(c, model)
        self._fitted(info)
        self._auto_name = auto
        if tune is not None:  # the point madnb.train chose, as the catalog keeps it
            grid = json.loads(tune)
            self.best_params_ = {k: info.smoothing if k == "smoothing" else info.parameters.get(k) for k in grid}
        return self

    def partial_fit(
        self, source: Any, label: Any = None, features: Sequence[str] | None = None, exclude: Sequence[str] | None = None
    ) -> NaiveBayes:
        """Add rows to the model in the database (``madnb.update``): the first call trains it (:meth:`fit`).

        The model afterwards is the one :meth:`fit` gives on every row passed so far (its statistics plus the new
        rows'), as a new version (``madnb.model_versions``); its prediction functions are rewritten in place.
        It takes no ``sample_weight``: ``madnb.update`` counts rows, and refuses a weighted model (0A000).

        Parameters
        ----------
        source : str, SQLAlchemy Table or selectable, or pandas.DataFrame
            As for :meth:`fit`; after the first call, rows with the model's feature and label columns (a DataFrame's
            are uploaded typed as the model's columns).
        label : str or array-like
            As for :meth:`fit`: the label column's name, or a DataFrame's labels.
        features, exclude : list of str, optional
            Used by the first call only (the model's features are then fixed).

        Returns
        -------
        NaiveBayes
            self, fitted.

        Raises
        ------
        MadnbError
            With the database's SQLSTATE (22023 rows without the model's columns, 0A000 a private or weighted
            model, ...).
        """
        if getattr(self, "model_", None) is None:
            return self.fit(source, label, features, exclude)
        if label is None:
            raise TypeError("partial_fit needs the label: partial_fit(source, 'label_column') or partial_fit(X, y)")
        self._change("madnb.update", source, None if isinstance(label, str) else label)
        return self

    def _change(self, function: str, source: Any, y: Any) -> None:
        """``function(model, source)`` (madnb.update, madnb.forget) on rows with the model's columns, then the model
        read again; a DataFrame's rows (with labels ``y``, or its label column) go up typed as the model's columns."""
        info = self._info()
        frame = _frame_of(source, [str(n) for n in self.feature_names_in_]) if isinstance(source, np.ndarray) else source
        columns: list[str] | None = None
        types = dict(info.feature_types)
        if is_frame(frame):
            if y is not None:
                frame, _ = _with_labels(frame, y, info.label)
            columns = [str(f) for f in self.feature_names_in_] + [info.label]
            missing = [n for n in columns if n not in frame.columns]
            if missing:
                raise MadnbError("42703", f"the DataFrame has no column {missing[0]!r} of model {info.name}",
                                 detail=f"the model's features: {', '.join(map(str, self.feature_names_in_))}; its label: {info.label}")
        elif y is not None:
            raise TypeError("y gives a DataFrame's labels: a table's labels are its column of the model's label")
        with session(self.conn) as c, self._reporting(c):
            if is_frame(frame):
                row = c.execute(
                    "SELECT n.nspname, t.typname FROM pg_catalog.pg_type AS t JOIN pg_catalog.pg_namespace AS n "
                    "ON n.oid OPERATOR(pg_catalog.=) t.typnamespace WHERE t.oid OPERATOR(pg_catalog.=) pg_catalog.to_regtype(%s)",
                    [info.label_type],
                ).fetchone()
                if row is not None:
                    types[info.label] = (str(row[0]), str(row[1]))
            with relation(c, frame, types=types, columns=columns) as rel:
                c.execute(sql.SQL("SELECT {}(%s::pg_catalog.text, %s::pg_catalog.text)").format(sql.Identifier(*function.split("."))),
                          [info.name, rel.name])
            self._fitted(read_model(c, info.name))

    def forget(self, source: Any, y: Any = None) -> NaiveBayes:
        """Remove rows the model was trained on (``madnb.forget``): exact unlearning, without retraining.

        Their statistics are subtracted from the ones the model keeps, so the model afterwards is the one :meth:`fit`
        gives on the rows left (within rounding), at the cost of reading the forgotten rows only; a new version
        (:meth:`versions`), the prediction functions rewritten in place.  Rows never trained on cannot be told
        apart in general: what the sums can refuse is refused (22023, nothing changed); docs/versions.md says what is
        checked, and how to erase the older versions too.

        Parameters
        ----------
        source : str, SQLAlchemy Table or selectable, or pandas.DataFrame
            The rows, with the model's feature and label columns (a DataFrame's are uploaded typed as the model's).
        y : array-like, optional
            With a DataFrame ``source`` without the label column: the rows' labels.

        Returns
        -------
        NaiveBayes
            self, with the rows forgotten.

        Raises
        ------
        MadnbError
            22023 rows the model cannot hold (a class or value it never saw, more rows than it has), or every row;
            0A000 a private model (forgetting would disclose the rows' statistics) or a weighted one.
        """
        self._change("madnb.forget", source, y)
        return self

    def versions(self) -> Any:
        """The versions kept of the model (``madnb.model_versions``), oldest first.

        Every :meth:`fit`, :meth:`partial_fit`, :meth:`forget` and :meth:`rollback` makes one; the setting
        ``madnb.model_versions_kept`` (default 10) says how many are kept (docs/versions.md).

        Returns
        -------
        pandas.DataFrame, or a list of dicts without pandas
            Columns ``version``, ``current``, ``created_at``, ``created_by``, ``operation`` (train, replace, update,
            forget, rollback), ``source``, ``rows``, ``training_rows``, ``classes``, ``statistics``, ``size``.
        """
        with session(self.conn) as c:
            return _query_table(c, MODEL_VERSIONS, [self._info().name])

    def rollback(self, version: int) -> NaiveBayes:
        """Make the model what one of its kept versions was (``madnb.rollback_model``): itself a new version.

        The version's statistics are derived again with its kind, features and parameters (no row is read); the
        prediction functions are rewritten in place, so views using them keep working.  The table the version was
        trained from must still have its columns (55000 otherwise: a model fitted from a DataFrame was trained
        from a temporary table).

        Parameters
        ----------
        version : int
            The version to return to (:meth:`versions`).

        Returns
        -------
        NaiveBayes
            self, as that version (its features and classes read again).

        Raises
        ------
        MadnbError
            42704 no such version kept; 0A000 a private version.
        """
        if isinstance(version, (bool, np.bool_)) or not isinstance(version, (int, np.integer)):
            raise TypeError(f"version is a version's number (an int, as versions() lists them), not a {type(version).__name__}")
        info = self._info()
        with session(self.conn) as c:
            c.execute(ROLLBACK, [info.name, int(version)])
            self._fitted(read_model(c, info.name))
        return self

    def _fitted(self, info: ModelInfo) -> None:
        self.model_ = info.name
        self.info_ = info
        self.label_ = info.label
        self.__dict__.pop("_typed_classes", None)
        self.feature_names_in_ = np.array([f["name"] for f in info.features], dtype=object)
        self.n_features_in_ = len(info.features)

    @classmethod
    def load(cls, conn: Target, name: str) -> NaiveBayes:
        """A model already in the database, as a fitted estimator.

        Its parameters are the catalog's (kind, smoothing, options, epsilon;
        ``categorical`` the integer and numeric features it treats as
        categorical, as SQL identifiers: quoted where they must be; for a
        private model ``bounds`` and ``domain`` as its release in
        ``madnb.privacy_ledger`` records them), so that ``clone`` of it trains
        the same kind of model on a table.  A domain given as jsonb is recorded
        without its values: give ``domain`` again (``set_params``).

        Parameters
        ----------
        conn : str, psycopg.Connection, SQLAlchemy Engine or Connection
        name : str
            The model's name (``madnb.models``).

        Returns
        -------
        NaiveBayes

        Raises
        ------
        MadnbError
            42704 when there is no such model.
        """
        numeric = {"smallint", "integer", "bigint", "numeric"}
        with session(conn) as c:
            info = read_model(c, name)
            # as identifiers, quoted where they must be (quote_ident): the names a table source takes
            categorical = [_quote_ident(c, f["name"]) for f in info.features
                           if f.get("role") == "categorical" and f.get("type") in numeric]
            bounds, domain = private_release(c, info.name) if info.epsilon is not None else (None, None)
        smoothing = 1.0 if "alpha" in info.parameters else info.smoothing  # alpha is the smoothing: madnb.train takes one of them
        est = cls(conn, name, kind=info.kind, smoothing=smoothing, categorical=categorical or None,
                  epsilon=info.epsilon, bounds=bounds, domain=domain, delta=info.delta or None,  # 0: pure epsilon-DP
                  **info.parameters)
        est._fitted(info)
        est._auto_name = False
        return est

    @property
    def classes_(self) -> np.ndarray:
        """The classes, typed as the label, in the order of :meth:`predict_proba`'s columns (read once, on first use)."""
        cached: np.ndarray | None = self.__dict__.get("_typed_classes")
        if cached is None:
            info: ModelInfo | None = getattr(self, "info_", None)
            if info is None:
                raise AttributeError("classes_: this NaiveBayes is not fitted")
            with session(self.conn) as c:
                cached = _array(typed_classes(c, info.name))
            self.__dict__["_typed_classes"] = cached
        return cached

    def _info(self) -> ModelInfo:
        info: ModelInfo | None = getattr(self, "info_", None)
        if info is None:
            raise MadnbError("55000", "this NaiveBayes is not fitted yet", hint="call fit(...) first, or open a model with NaiveBayes.load(conn, name)")
        return info

    # -- prediction --------------------------------------------------------

    @contextlib.contextmanager
    def _rows(
        self, c: psycopg.Connection[Any], source: Any, key: str | None, *, labels: Any = None, label: str | None = None,
        evaluate: bool = False,
    ) -> Iterator[Relation]:
        """The source's rows; of a DataFrame only the features are uploaded (typed as the model's), and to evaluate the label."""
        info = self._info()
        if isinstance(source, np.ndarray):
            source = _frame_of(source, [str(n) for n in self.feature_names_in_])
        if not is_frame(source):
            if labels is not None:
                raise TypeError("y gives a DataFrame's labels: a table's labels are its label column (label='...')")
            with relation(c, source, key=key, row_number=True) as rel:
                yield rel
            return
        if key is not None:
            raise TypeError("key orders a table's rows: a DataFrame's rows come back in its own order")
        missing = [f for f in self.feature_names_in_ if f not in source.columns]
        if missing:
            raise MadnbError("42703", f"the DataFrame has no column {missing[0]!r}, a feature of model {info.name}",
                             detail=f"the model's features: {', '.join(map(str, self.feature_names_in_))}")
        columns = [str(f) for f in self.feature_names_in_]
        if labels is not None:
            source, name = _with_labels(source, labels, label or info.label)
            columns.append(name)
        elif evaluate and (label or info.label) in source.columns:
            columns.append(label or info.label)
        with relation(c, source, types=info.feature_types, columns=columns, row_number=True) as rel:
            yield rel

    def _column(
        self, source: Any, key: str | None, suffix: str, decision: Decision | None = None, explain: bool = False,
    ) -> list[Any]:
        """One value per row of ``source``, in its order: ``<model>_predict`` + ``suffix`` of the row, or under
        ``decision`` ``madnb.decide`` (``suffix`` ``''``) / ``madnb.decide_proba_array`` (``'_proba_array'``) of its
        ``<model>_predict_proba_array``; ``explain``: ``<model>_explain`` of the row (as ``madnb.models`` names it)."""
        info = self._info()
        with session(self.conn) as c, self._rows(c, source, key) as rel:
            order = rel.order_by()
            if order is None:
                raise MadnbError("22023", f"{rel.name} has no row order of its own (a view, a foreign table)",
                                 hint="give key: the column that orders the predictions (key='id')")
            params: list[Any] | None = None
            if explain:
                value = sql.SQL("{}({})").format(info.explain_function(), rel.alias)
            elif decision is None:
                value = sql.SQL("{}({})").format(info.function(suffix), rel.alias)
            else:  # the decision made once, a parameter of the per-row function (docs/decisions.md)
                params = [decision.made(c, info.name)]
                decide = sql.Identifier("madnb", "decide_proba_array" if suffix == "_proba_array" else "decide")
                value = sql.SQL("{}(%s::pg_catalog.jsonb, {}({}))").format(decide, info.function("_proba_array"), rel.alias)
            query = sql.SQL("SELECT {} FROM {} AS {} ORDER BY {}").format(value, rel.ident, rel.alias, order)
            # binary only for the float8[] of probabilities (exact, and faster); classes in text, so that an
            # enum or any type psycopg does not know comes as str, as classes_ has it
            values = [r[0] for r in c.cursor(binary=suffix == "_proba_array").execute(query, params).fetchall()]
            if decision is not None and suffix == "":  # madnb.decide's text, as madnb.model_classes writes it: typed
                cached: np.ndarray | None = self.__dict__.get("_typed_classes")  # classes_, read once
                if cached is None:
                    cached = self.__dict__["_typed_classes"] = _array(typed_classes(c, info.name))
                typed = dict(zip(info.classes, cached.tolist(), strict=True))
                values = [None if v is None else typed[v] for v in values]
            return values

    def predict(
        self, source: Any, key: str | None = None, *, priors: Any = None, class_weights: Any = None, costs: Any = None,
        threshold: float | None = None,
    ) -> np.ndarray:
        """The predicted class of each row (``<model>_predict``), in the source's order.

        Parameters
        ----------
        source : str, SQLAlchemy Table or selectable, or pandas.DataFrame
            The rows: they need the model's feature columns (other columns are ignored).
            A DataFrame is uploaded (only its feature columns, typed as the model's).
        key : str, optional
            For a table or view: the column whose order the result follows, an SQL identifier
            as madnb's functions read column names (``'id'``, ``'"Id"'``).  Without
            it a table's rows come in its physical order (``ctid``: the order of
            ``SELECT * FROM t`` while nothing writes to it); a view needs ``key``.
            A DataFrame's rows come in its own order, a selectable's in its ORDER BY's.
        priors, class_weights, costs, threshold : optional, keyword-only
            A decision at query time (docs/decisions.md; ``madnb.decision`` checks it: 22023 otherwise), every
            array in ``classes_`` order: ``priors`` replace the class priors the model was trained with;
            ``class_weights`` multiply each class's probability; ``costs[i][j]``, the cost of predicting class j
            for a row of class i, predicts the class of least expected cost; ``threshold``, two classes only,
            predicts ``classes_[1]`` from that probability on.  The rows are scored by ``madnb.decide`` over the
            model's ``<model>_predict_proba_array``, without retraining; none given, the model's own prediction.

        Returns
        -------
        numpy.ndarray
            One class per row (None where the model predicts NULL, e.g. a NULL vector).
        """
        values = self._column(source, key, "", Decision.of(priors, class_weights, costs, threshold))
        return _array(values)

    def predict_proba(
        self, source: Any, key: str | None = None, *, priors: Any = None, class_weights: Any = None, costs: Any = None,
        threshold: float | None = None,
    ) -> np.ndarray:
        """The probability of each class for each row (``<model>_predict_proba_array``), columns in ``classes_`` order.

        Parameters
        ----------
        source, key
            As :meth:`predict`.
        priors, class_weights, costs, threshold : optional, keyword-only
            As :meth:`predict`: the probabilities under the decision's priors and class weights
            (``madnb.decide_proba_array``); costs and a threshold choose a class, and move no probability.

        Returns
        -------
        numpy.ndarray of shape (rows, classes)
            NaN rows where the model predicts NULL.
        """
        k = len(self._info().classes)
        rows = self._column(source, key, "_proba_array", Decision.of(priors, class_weights, costs, threshold))
        if not rows:
            return np.zeros((0, k))
        return np.array([r if r is not None else [np.nan] * k for r in rows], dtype=np.float64)

    def predict_log_proba(
        self, source: Any, key: str | None = None, *, priors: Any = None, class_weights: Any = None, costs: Any = None,
        threshold: float | None = None,
    ) -> np.ndarray:
        """The natural log of :meth:`predict_proba` (``-inf`` where a probability underflows to 0).

        Parameters
        ----------
        source, key, priors, class_weights, costs, threshold
            As :meth:`predict_proba`.

        Returns
        -------
        numpy.ndarray of shape (rows, classes)
        """
        proba = self.predict_proba(source, key, priors=priors, class_weights=class_weights, costs=costs, threshold=threshold)
        with np.errstate(divide="ignore"):
            log: np.ndarray = np.log(proba)
        return log

    # -- explanations ------------------------------------------------------

    def explain(self, source: Any, key: str | None = None) -> list[dict[str, Any] | None]:
        """The exact explanation of each row's prediction (``<model>_explain``), in the source's order.

        Naive Bayes' log-score is a sum, and the explanation lists its terms: per class the prior and each
        feature's contribution, adding up exactly to the log-score the prediction functions compute; the
        predicted class, the runner-up, and each feature's difference against it, largest first
        (docs/explain.md).

        Parameters
        ----------
        source, key
            As :meth:`predict`.

        Returns
        -------
        list of dict
            One per row: the jsonb as a dict (``predicted``, ``runner_up``, ``classes``, ``against_runner_up``);
            None where the row has no prediction (a NULL vector).
        """
        return self._column(source, key, "", explain=True)

    def feature_importance(self, source: Any) -> Any:
        """Each feature's mean contribution to the predictions over the rows of ``source`` (``madnb.feature_importance``),
        in one pass over them in the database, largest ``mean_abs_contribution`` first.

        Parameters
        ----------
        source : str, SQLAlchemy Table or selectable, or pandas.DataFrame
            Rows with the model's feature columns (labels are not needed).

        Returns
        -------
        pandas.DataFrame, or a list of dicts without pandas
            Columns ``feature``, ``mean_abs_contribution`` (the mean |contribution to the predicted class's
            log-score|), ``mean_contribution``, ``mean_abs_against_runner_up`` (what tells the two best classes
            apart) and ``rows``.
        """
        info = self._info()
        with session(self.conn) as c, self._rows(c, source, None) as rel:
            return _query_table(c, FEATURE_IMPORTANCE, [info.name, rel.name])

    # -- evaluation --------------------------------------------------------

    def evaluate(
        self, source: Any, y: Any = None, *, label: str | None = None, curves: bool = False, priors: Any = None,
        class_weights: Any = None, costs: Any = None, threshold: float | None = None,
    ) -> Evaluation:
        """The model's metrics on labelled rows, computed in the database (``madnb.evaluate``).

        Parameters
        ----------
        source : str, SQLAlchemy Table or selectable, or pandas.DataFrame
            The rows, with the feature columns and the label column.
        y : array-like, optional
            With a DataFrame ``source``: the labels (``evaluate(X, y)``).
        label : str, optional
            The label column of ``source`` (default: the model's label column): an SQL identifier
            for a table (``'"Play"'``), a DataFrame's exact column name (``'Play'``).
        curves : bool, default False
            Also the ROC, precision-recall and calibration curves, computed in the database (for more than two
            classes with the one-vs-rest AUC): what :meth:`Evaluation.plot` draws.
        priors, class_weights, costs, threshold : optional
            A decision, as :meth:`predict`'s: the rows are scored under it (``madnb.evaluate``'s arguments of those
            names); the metrics add ``decision`` and, with ``costs``, ``total_cost`` and ``expected_cost``
            (``to_dict()``).

        Returns
        -------
        Evaluation
        """
        info = self._info()
        decision = Decision.of(priors, class_weights, costs, threshold)
        with session(self.conn) as c, self._reporting(c), self._rows(c, source, None, labels=y, label=label, evaluate=True) as rel:
            named = self._label_name(c, source, label)
            query = "SELECT madnb.evaluate(%s::pg_catalog.text, %s::pg_catalog.text, %s::pg_catalog.text, %s::pg_catalog.bool"
            params = [info.name, rel.name, named, bool(curves)]
            if decision is not None:  # none given: the call as it was
                query, params = f"{query}, {DECISION_ARGUMENTS}", [*params, *decision.arguments()]
            (metrics,) = c.execute(query + ")", params).fetchone() or ({},)
        return Evaluation.from_dict(metrics)

    @staticmethod
    def _label_name(c: psycopg.Connection[Any], source: Any, label: str | None) -> str | None:
        """The label column as madnb's functions read it: a table's as typed (an SQL identifier), a frame's exact."""
        return label if label is None or not (is_frame(source) or isinstance(source, np.ndarray)) else _identifier(c, label)

    def score(
        self, source: Any, y: Any = None, *, priors: Any = None, class_weights: Any = None, costs: Any = None,
        threshold: float | None = None,
    ) -> float:
        """Accuracy on labelled rows (scikit-learn's ``score``), computed in the database.

        Parameters
        ----------
        source, y
            As :meth:`evaluate`.
        priors, class_weights, costs, threshold : optional, keyword-only
            A decision, as :meth:`predict`'s: the accuracy of its predictions.

        Returns
        -------
        float
        """
        return self.evaluate(source, y, priors=priors, class_weights=class_weights, costs=costs, threshold=threshold).accuracy

    def threshold_curve(self, source: Any, y: Any = None, *, label: str | None = None, costs: Any = None) -> Any:
        """Precision, recall and cost at every distinct threshold of a two-class model (``madnb.threshold_curve``),
        in one pass over labelled rows: to choose the ``threshold`` of :meth:`predict` from the data.

        Parameters
        ----------
        source, y, label
            As :meth:`evaluate`.  Rows whose label is NULL or not one of the two classes are left out.
        costs : array-like of shape (2, 2), optional
            ``costs[i][j]`` the cost of predicting class j for a row of class i (``classes_`` order); default 0 right,
            1 wrong (``cost`` is then the error rate).

        Returns
        -------
        pandas.DataFrame, or a list of dicts without pandas
            One row per distinct probability of the positive class (``classes_[1]``), ascending: ``threshold``,
            ``true_positives``, ``false_positives``, ``false_negatives``, ``true_negatives``, ``precision``,
            ``recall`` (scikit-learn's ``precision_recall_curve`` without its last point) and ``cost`` (the mean
            cost per row of predicting the positive class from that threshold on).

        Raises
        ------
        MadnbError
            22023 a model of more than two classes, or costs not 2 x 2 numbers >= 0.
        """
        info = self._info()
        matrix = decision_numbers(costs, "costs", 2)
        with session(self.conn) as c, self._rows(c, source, None, labels=y, label=label, evaluate=True) as rel:
            return _query_table(c, THRESHOLD_CURVE, [info.name, rel.name, self._label_name(c, source, label), matrix])

    @overload
    def cross_validate(
        self, source: Any, label: str | None = None, *, folds: int = 5, seed: int = 0, key: str | None = None,
        features: Sequence[str] | None = None, exclude: Sequence[str] | None = None, grid: None = None,
        sample_weight: Any = None,
    ) -> CrossValidation: ...

    @overload
    def cross_validate(
        self, source: Any, label: str | None = None, *, folds: int = 5, seed: int = 0, key: str | None = None,
        features: Sequence[str] | None = None, exclude: Sequence[str] | None = None, grid: Mapping[str, Sequence[Any]] | str,
        sample_weight: Any = None,
    ) -> GridSearch: ...

    def cross_validate(
        self,
        source: Any,
        label: str | None = None,
        *,
        folds: int = 5,
        seed: int = 0,
        key: str | None = None,
        features: Sequence[str] | None = None,
        exclude: Sequence[str] | None = None,
        grid: Mapping[str, Sequence[Any]] | str | None = None,
        sample_weight: Any = None,
    ) -> CrossValidation | GridSearch:
        """k-fold cross-validation of this estimator's model in the database (``madnb.cross_validate``).

        The model is the one :meth:`fit` would train with the same arguments (``tune`` aside: give ``grid``);
        nothing is written, the estimator stays as it is.

        Parameters
        ----------
        source : str, SQLAlchemy Table or selectable, or pandas.DataFrame
        label : str, optional
            The label column (default: the fitted model's).
        folds : int, default 5
        seed : int, default 0
        key : str, optional
            The column whose text assigns the folds (``madnb.fold(key, folds, seed)``); default the row's text form.
        features, exclude : list of str, optional
            As :meth:`fit` (default for a fitted estimator: its features).

        Column names are read as :meth:`fit` reads them: SQL identifiers for a table, exact names for a
        DataFrame; the fitted model's own label and features are sent as the exact names they are.

        grid : dict or str, optional
            A grid search, as scikit-learn's ``GridSearchCV`` over a ``ParameterGrid``: ``{parameter: [values]}``
            (or its JSON text) of the kind's tunable parameters (``smoothing``; ``var_smoothing``; ``alpha``,
            ``fit_prior``, ``norm``: docs/models.md "Grid search").  Every point is scored from the same fold
            statistics, in one statistics pass and one scoring pass; the best is the highest mean accuracy.
        sample_weight : str or array-like, optional
            As :meth:`fit`'s (``madnb.cross_validate(..., weight => ...)``): each fold's model is trained with the
            weights of the other folds' rows; the metrics count rows, as scikit-learn's
            ``cross_validate(..., params={"sample_weight": w})`` (weights go to fit only).

        Returns
        -------
        CrossValidation
            Without ``grid``.
        GridSearch
            With ``grid``: every point's folds, ``table()`` of their mean scores, and ``best_params``.
        """
        fitted: ModelInfo | None = getattr(self, "info_", None)
        exact = is_frame(source)  # a frame's names are exact; a table's are SQL identifiers, but the catalog's are exact
        label_exact, features_exact = exact or label is None, exact or (features is None and exclude is None)
        if label is None:
            if fitted is None:
                raise TypeError("cross_validate needs the label column (or a fitted estimator, whose label it takes)")
            label = fitted.label
        features_list, exclude_list = _text_array(features, "features"), _text_array(exclude, "exclude")
        if features is None and exclude is None and fitted is not None:
            features_list = [str(f) for f in self.feature_names_in_]
        categorical = _text_array(self.categorical, "categorical")
        points = _grid(grid, "grid")
        weight: str | None = None
        if isinstance(sample_weight, str):
            weight = sample_weight
        elif sample_weight is not None:
            if not exact:
                raise TypeError("sample_weight as values goes with a DataFrame source; a table's weights are one of its "
                                "columns: sample_weight='column'")
            source, weight = _with_weights(source, sample_weight)
        with session(self.conn) as c, self._reporting(c), relation(c, source) as rel:
            if label_exact:
                label = _identifier(c, label)
            if features_exact:
                features_list = _identifiers(c, features_list)
            if exact:
                exclude_list, categorical = _identifiers(c, exclude_list), _identifiers(c, categorical)
                key = None if key is None else _identifier(c, key)
                weight = None if weight is None else _identifier(c, weight)
            rows = c.execute(
                "SELECT c.fold, c.metrics, c.parameters FROM madnb.cross_validate(source => %s::pg_catalog.text, "
                "label => %s::pg_catalog.text, features => %s::pg_catalog.text[], folds => %s::pg_catalog.int4, "
                "seed => %s::pg_catalog.int4, exclude => %s::pg_catalog.text[], categorical => %s::pg_catalog.text[], "
                "smoothing => %s::pg_catalog.float8, key => %s::pg_catalog.text, kind => %s::pg_catalog.text, "
                "options => %s::pg_catalog.jsonb, grid => %s::pg_catalog.jsonb, weight => %s::pg_catalog.text) AS c",
                [rel.name, label, features_list, folds, seed, exclude_list, categorical, self.smoothing, key, self.kind,
                 _json(self.options) if self.options else None, points, weight],
            ).fetchall()
        if points is not None:
            return GridSearch.from_rows(rows)
        return CrossValidation.from_rows([(f, m) for f, m, _ in rows])

    # -- the model as other things -----------------------------------------

    def to_sklearn(self) -> Pipeline:
        """The model as a fitted scikit-learn Pipeline (:func:`madnb.to_sklearn`)."""
        from .sklearn_export import to_sklearn

        with database_errors():
            return to_sklearn(self.conn, self._info().name)

    def sql(self, function_name: str | None = None) -> str:
        """The SQL script that creates the model's prediction and explanation functions in a database without madnb (``madnb.model_sql``).

        Parameters
        ----------
        function_name : str, optional
            ``[schema.]name`` of the exported functions (default: the model's name, in schema public).

        Returns
        -------
        str
        """
        with session(self.conn) as c:
            row = c.execute("SELECT madnb.model_sql(%s::pg_catalog.text, %s::pg_catalog.text)",
                            [self._info().name, function_name]).fetchone()
        return str(row[0]) if row else ""

    def drop(self, cascade: bool = False) -> None:
        """Drop the model from the database (``madnb.drop_model``); the estimator is unfitted again.

        Parameters
        ----------
        cascade : bool, default False
            Also drop the views that use its functions (else such a view makes it fail, 2BP01).
        """
        with session(self.conn) as c:
            c.execute("SELECT madnb.drop_model(%s::pg_catalog.text, %s::pg_catalog.bool)", [self._info().name, cascade])
        for attr in ("model_", "info_", "label_", "_typed_classes", "feature_names_in_", "n_features_in_", "best_params_"):
            self.__dict__.pop(attr, None)
        self._auto_name = False


_SIGNATURE = [p for p in inspect.signature(NaiveBayes.__init__).parameters.values()
              if p.name != "self" and p.kind is not inspect.Parameter.VAR_KEYWORD]
_PARAMS = tuple(p.name for p in _SIGNATURE)
"""The named parameters of :class:`NaiveBayes`, from its signature (its ``**options`` are the kind's, by scikit-learn's names)."""
_DEFAULTS: dict[str, Any] = {p.name: p.default for p in _SIGNATURE if p.default is not inspect.Parameter.empty}
"""Their defaults, from the signature: what ``repr`` leaves out."""


def _array(values: list[Any]) -> np.ndarray:
    """Values as a 1-D numpy array (object dtype unless they are all numbers or all bools)."""
    if values and all(isinstance(v, (bool, np.bool_)) for v in values):
        return np.array(values, dtype=bool)
    if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return np.array(values)
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _frame_of(X: np.ndarray, names: list[str] | None = None) -> Any:
    """A 2-D array as a DataFrame, its columns named ``names`` (default x0, x1, ...)."""
    import pandas as pd

    if X.ndim != 2:
        raise TypeError(f"expected a 2-D array of rows, got shape {X.shape}")
    return pd.DataFrame(X, columns=names if names is not None else [f"x{i}" for i in range(X.shape[1])])


def _grid(value: Any, name: str) -> str | None:
    """A grid (``tune``, ``grid``) as jsonb text: a dict of lists, or JSON text; what is in it, the database checks."""
    if value is None or isinstance(value, str):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} is a dict of lists of values ({{'alpha': [0.1, 1.0]}}) or its JSON text, not a {type(value).__name__}")
    return _json({str(k): list(v) if isinstance(v, (list, tuple, np.ndarray)) else v for k, v in value.items()})


def _with_weights(X: Any, weights: Any) -> tuple[Any, str]:
    """X with the sample weights as one more column (named ``sample_weight``, or more underscores), numbers only."""
    import pandas as pd

    values = np.asarray(weights.to_numpy() if isinstance(weights, pd.Series) else weights)
    if values.ndim != 1 or len(values) != len(X):
        raise ValueError(f"sample_weight must hold one weight per row of X ({len(X)}), got shape {values.shape}")
    if values.dtype.kind not in "biuf":
        raise TypeError(f"sample_weight holds numbers (one weight per row), not {values.dtype} values")
    name = "sample_weight"
    while name in X.columns:
        name += "_"
    frame = X.copy(deep=False)
    frame[name] = values.astype(np.float64)
    return frame, name


def _with_labels(X: Any, y: Any, name: str | None = None) -> tuple[Any, str]:
    """X with the labels ``y`` as one more column (named ``name``, or y's name, or ``label``)."""
    import pandas as pd

    values = np.asarray(y)
    if values.ndim != 1 or len(values) != len(X):
        raise TypeError(f"y must hold one label per row of X ({len(X)}), got shape {values.shape}")
    label = name or (str(y.name) if isinstance(y, pd.Series) and isinstance(y.name, str) else "label")
    if name is None:
        while label in X.columns:
            label += "_"
    frame = X.copy(deep=False)
    frame[label] = values if not isinstance(y, pd.Series) else y.to_numpy()
    return frame, label

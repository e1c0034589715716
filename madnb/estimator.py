"""A scikit-learn-style estimator whose work happens in the database: :class:`NaiveBayes`.

Every method is one or two calls of madnb's SQL API on the database the
estimator was given (``madnb.train``, the model's generated
``madnb_models.<model>_predict*`` functions, ``madnb.evaluate``,
``madnb.cross_validate``, ``madnb.model_sql``, ``madnb.drop_model``); rows
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
from typing import TYPE_CHECKING, Any

import numpy as np
import psycopg
from psycopg import sql

from ._errors import MadnbError, database_errors
from ._install import InstallError, Target, connection
from ._progress import Reporter, reporting
from ._sources import Relation, TypeName, is_frame, relation

if TYPE_CHECKING:  # pragma: no cover
    from sklearn.pipeline import Pipeline

__all__ = ["CrossValidation", "Evaluation", "NaiveBayes", "ModelInfo", "read_model"]

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
    feature_types: dict[str, TypeName] = field(default_factory=dict)

    def function(self, suffix: str = "") -> sql.Identifier:
        """The generated prediction function ``<model>_predict`` + ``suffix`` (``''``, ``'_proba'``, ``'_proba_array'``)."""
        schema, fn = self.predict_function
        return sql.Identifier(schema, fn + suffix)


CALL_NAME = ("CASE WHEN m.schema_name OPERATOR(pg_catalog.=) 'madnb_models' THEN pg_catalog.quote_ident(m.name) "
             "ELSE m.name END")
"""The name madnb's functions take for the model of catalog row ``m`` (``madnb.models`` lists a model of schema
madnb_models by its bare name, ``MyModel``, and one of another schema as ``schema.name``, quoted already)."""

_CATALOG_ROW = f"""
SELECT {CALL_NAME}, m.kind, m.source, m.label, m.label_type, m.features, m.classes, m.smoothing, m.epsilon, m.delta,
       m.parameters, pg_catalog.parse_ident(m.predict_function)
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
    name, kind, source, label, label_type, features, classes, smoothing, epsilon, delta, parameters, fn = row
    types = {str(r[0]): (str(r[1]), str(r[2])) for r in c.execute(_FEATURE_TYPES, [json.dumps(features)]).fetchall()}
    return ModelInfo(
        name=name, kind=kind, source=source, label=label, label_type=label_type, features=list(features),
        classes=list(classes), smoothing=float(smoothing), epsilon=epsilon, delta=delta,
        parameters=dict(parameters or {}), predict_function=(fn[0], fn[1]), feature_types=types,
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
            roc_auc_ovr=m.get("roc_auc_ovr"), curves=m.get("curves"),
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

    def to_dict(self) -> dict[str, Any]:
        """``{"1": {...}, "2": {...}, ..., "mean": {...}}`` as the database gave them."""
        out = {str(i): f.to_dict() for i, f in enumerate(self.folds, start=1)}
        out["mean"] = self.mean.to_dict()
        return out


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
        self, source: Any, label: Any = None, features: Sequence[str] | None = None, exclude: Sequence[str] | None = None
    ) -> NaiveBayes:
        """Train the model in the database (``madnb.train``).

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

        Column names (``label``, ``features``, ``exclude``, ``categorical``) of a table, view or
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
        auto = self.name is None
        model = getattr(self, "model_", None) if auto and getattr(self, "_auto_name", False) else self.name
        if model is None:
            model = "nb_" + secrets.token_hex(6)
        replace = self.replace or (auto and getattr(self, "_auto_name", False))
        bounds = self.bounds if self.bounds is None or isinstance(self.bounds, str) else _json(self.bounds)
        domain = self.domain if self.domain is None or isinstance(self.domain, str) else _json(self.domain)
        if is_frame(frame):  # only what madnb.train is to read goes up: the features, or every column not excluded
            keep = [*features, label_name] if features is not None else [n for n in frame.columns if n not in (exclude or ())]
            exclude = [n for n in exclude or () if n not in frame.columns] or None  # the server names a column the frame lacks
            frame = frame[[n for n in frame.columns if n in set(keep)]]
        categorical = _text_array(self.categorical, "categorical")
        with session(self.conn) as c, self._reporting(c), relation(c, frame) as rel:
            if is_frame(frame):  # a frame's names are its columns' exact names
                label_name, features, exclude = _identifier(c, label_name), _identifiers(c, features), _identifiers(c, exclude)
                categorical = _identifiers(c, categorical)
            c.execute(
                "SELECT madnb.train(model => %s::pg_catalog.text, source => %s::pg_catalog.text, label => %s::pg_catalog.text, "
                "features => %s::pg_catalog.text[], exclude => %s::pg_catalog.text[], categorical => %s::pg_catalog.text[], "
                "smoothing => %s::pg_catalog.float8, replace => %s::pg_catalog.bool, kind => %s::pg_catalog.text, "
                "epsilon => %s::pg_catalog.float8, bounds => %s::pg_catalog.jsonb, domain => %s::pg_catalog.text, "
                "delta => %s::pg_catalog.float8, options => %s::pg_catalog.jsonb)",
                [model, rel.name, label_name, features, exclude, categorical, self.smoothing, replace, self.kind, self.epsilon, bounds,
                 domain, self.delta, _json(self.options) if self.options else None],
            )
            info = read_model(c, model)
        self._fitted(info)
        self._auto_name = auto
        return self

    def partial_fit(
        self, source: Any, label: Any = None, features: Sequence[str] | None = None, exclude: Sequence[str] | None = None
    ) -> NaiveBayes:
        """Add rows to the model in the database (``madnb.update``): the first call trains it (:meth:`fit`).

        The model afterwards is the one :meth:`fit` gives on every row passed so far (its statistics plus the new
        rows'), as a new version (``madnb.model_versions``); its prediction functions are rewritten in place.

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
            With the database's SQLSTATE (22023 rows without the model's columns, 0A000 a private model, ...).
        """
        if getattr(self, "model_", None) is None:
            return self.fit(source, label, features, exclude)
        if label is None:
            raise TypeError("partial_fit needs the label: partial_fit(source, 'label_column') or partial_fit(X, y)")
        info = self._info()
        frame = _frame_of(source, [str(n) for n in self.feature_names_in_]) if isinstance(source, np.ndarray) else source
        columns: list[str] | None = None
        types = dict(info.feature_types)
        if is_frame(frame):
            if not isinstance(label, str):
                frame, label = _with_labels(frame, label, info.label)
            columns = [str(f) for f in self.feature_names_in_] + [info.label]
            missing = [n for n in columns if n not in frame.columns]
            if missing:
                raise MadnbError("42703", f"the DataFrame has no column {missing[0]!r} of model {info.name}",
                                 detail=f"the model's features: {', '.join(map(str, self.feature_names_in_))}; its label: {info.label}")
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
                c.execute("SELECT madnb.update(%s::pg_catalog.text, %s::pg_catalog.text)", [info.name, rel.name])
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

    def _column(self, source: Any, key: str | None, suffix: str) -> list[Any]:
        info = self._info()
        with session(self.conn) as c, self._rows(c, source, key) as rel:
            order = rel.order_by()
            if order is None:
                raise MadnbError("22023", f"{rel.name} has no row order of its own (a view, a foreign table)",
                                 hint="give key: the column that orders the predictions (key='id')")
            query = sql.SQL("SELECT {}({}) FROM {} AS {} ORDER BY {}").format(info.function(suffix), rel.alias, rel.ident, rel.alias, order)
            # binary only for the float8[] of probabilities (exact, and faster); classes in text, so that an
            # enum or any type psycopg does not know comes as str, as classes_ has it
            return [r[0] for r in c.cursor(binary=suffix == "_proba_array").execute(query).fetchall()]

    def predict(self, source: Any, key: str | None = None) -> np.ndarray:
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

        Returns
        -------
        numpy.ndarray
            One class per row (None where the model predicts NULL, e.g. a NULL vector).
        """
        values = self._column(source, key, "")
        return _array(values)

    def predict_proba(self, source: Any, key: str | None = None) -> np.ndarray:
        """The probability of each class for each row (``<model>_predict_proba_array``), columns in ``classes_`` order.

        Parameters
        ----------
        source, key
            As :meth:`predict`.

        Returns
        -------
        numpy.ndarray of shape (rows, classes)
            NaN rows where the model predicts NULL.
        """
        k = len(self._info().classes)
        rows = self._column(source, key, "_proba_array")
        if not rows:
            return np.zeros((0, k))
        return np.array([r if r is not None else [np.nan] * k for r in rows], dtype=np.float64)

    def predict_log_proba(self, source: Any, key: str | None = None) -> np.ndarray:
        """The natural log of :meth:`predict_proba` (``-inf`` where a probability underflows to 0).

        Parameters
        ----------
        source, key
            As :meth:`predict`.

        Returns
        -------
        numpy.ndarray of shape (rows, classes)
        """
        with np.errstate(divide="ignore"):
            log: np.ndarray = np.log(self.predict_proba(source, key))
        return log

    # -- evaluation --------------------------------------------------------

    def evaluate(self, source: Any, y: Any = None, *, label: str | None = None, curves: bool = False) -> Evaluation:
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

        Returns
        -------
        Evaluation
        """
        info = self._info()
        with session(self.conn) as c, self._reporting(c), self._rows(c, source, None, labels=y, label=label, evaluate=True) as rel:
            named = label if label is None or not (is_frame(source) or isinstance(source, np.ndarray)) else _identifier(c, label)
            (metrics,) = c.execute(
                "SELECT madnb.evaluate(%s::pg_catalog.text, %s::pg_catalog.text, %s::pg_catalog.text, %s::pg_catalog.bool)",
                [info.name, rel.name, named, bool(curves)],
            ).fetchone() or ({},)
        return Evaluation.from_dict(metrics)

    def score(self, source: Any, y: Any = None) -> float:
        """Accuracy on labelled rows (scikit-learn's ``score``), computed in the database.

        Parameters
        ----------
        source, y
            As :meth:`evaluate`.

        Returns
        -------
        float
        """
        return self.evaluate(source, y).accuracy

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
    ) -> CrossValidation:
        """k-fold cross-validation of this estimator's model in the database (``madnb.cross_validate``).

        The model is the one :meth:`fit` would train with the same arguments;
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

        Returns
        -------
        CrossValidation
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
        with session(self.conn) as c, self._reporting(c), relation(c, source) as rel:
            if label_exact:
                label = _identifier(c, label)
            if features_exact:
                features_list = _identifiers(c, features_list)
            if exact:
                exclude_list, categorical = _identifiers(c, exclude_list), _identifiers(c, categorical)
                key = None if key is None else _identifier(c, key)
            rows = c.execute(
                "SELECT c.fold, c.metrics FROM madnb.cross_validate(source => %s::pg_catalog.text, label => %s::pg_catalog.text, "
                "features => %s::pg_catalog.text[], folds => %s::pg_catalog.int4, seed => %s::pg_catalog.int4, "
                "exclude => %s::pg_catalog.text[], categorical => %s::pg_catalog.text[], smoothing => %s::pg_catalog.float8, "
                "key => %s::pg_catalog.text, kind => %s::pg_catalog.text, options => %s::pg_catalog.jsonb) AS c",
                [rel.name, label, features_list, folds, seed, exclude_list, categorical, self.smoothing, key, self.kind,
                 _json(self.options) if self.options else None],
            ).fetchall()
        by_fold = {str(f): Evaluation.from_dict(m) for f, m in rows}
        mean = by_fold.pop("mean")
        return CrossValidation([by_fold[f] for f in sorted(by_fold, key=int)], mean)

    # -- the model as other things -----------------------------------------

    def to_sklearn(self) -> Pipeline:
        """The model as a fitted scikit-learn Pipeline (:func:`madnb.to_sklearn`)."""
        from .sklearn_export import to_sklearn

        with database_errors():
            return to_sklearn(self.conn, self._info().name)

    def sql(self, function_name: str | None = None) -> str:
        """The SQL script that creates the model's prediction functions in a database without madnb (``madnb.model_sql``).

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
        for attr in ("model_", "info_", "label_", "_typed_classes", "feature_names_in_", "n_features_in_"):
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

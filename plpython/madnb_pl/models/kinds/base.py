"""The kind interface: what one kind of model supplies, and the little every kind shares.

A kind (scikit-learn's estimators as :class:`Kind` subclasses, as ``_BaseNB`` and
``_BaseDiscreteNB`` share ``predict`` over ``_joint_log_likelihood``) supplies four
things and nothing else:

    resolve     madnb.train's arguments -> the kind's training: its parameters checked,
                its inputs resolved (the source, label and feature names through the one
                resolution of every kind, :func:`madnb_pl.inputs.columns.resolve_inputs`)
    statistics  the one pass over the source -> a statistics table (its header, the rows)
    derive      the statistics -> the model tables (created, commented, readable)
    score       the model tables -> the kind's numbers (:meth:`Kind.read_numbers`) -> the
                statements of its prediction functions, whose bodies are the shared ones
                (:func:`madnb_pl.predict.generated.bodies`) around the kind's score expression,
                and the explanation (:meth:`Kind.explain_statements`): the same score's terms
                listed (:mod:`madnb_pl.predict.explain`), which madnb.feature_importance adds up
                over a table (:meth:`Kind.explain_terms`)

and, to be exported, its training from a catalog row alone and its numbers as JSON; to be
cross-validated, the same four steps with the folds inside them (:meth:`Kind.fold_pass`: the
one pass grouped by fold; :meth:`Kind.fold_complements`: each fold's complement's statistics,
the other folds' parts; :meth:`Kind.complement_scores`: the score expression of the model
derived from their sum).  Everything around it -- the model's name and lock, options'
keys, replacing a model, the catalog row, the prediction functions' helpers, evaluate,
cross-validate (folds, leave-one-out, the scoring query, the metrics), export -- is written
once, in :mod:`madnb_pl.models.lifecycle`, :mod:`madnb_pl.models.export`,
:mod:`madnb_pl.models.evaluate` and :mod:`madnb_pl.models.cross_validation`.  Adding a kind is one module with a subclass of
:class:`Kind` and one line in :data:`madnb_pl.models.kinds.KINDS`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ...core.errors import MadnbError
from ...core.names import Column, ModelName, NewName, Relation
from ...core.sql import F8, TEXT, Plpy, Sql, base_type
from ...inputs.columns import parameter_type
from ...predict.explain import ExplainNames, Terms
from ...predict.generated import FunctionNames, Functions, Helpers
from ...release import statistics_table
from ..catalog import CatalogModel, ModelObjects


class Numbers(Protocol):
    """What every kind's numbers hold: the classes (their array's text, each class's text), in class order."""

    @property
    def classes_text(self) -> str: ...

    @property
    def classes(self) -> list[str]: ...


T = TypeVar("T")  # the kind's training: its resolved inputs and checked parameters
N = TypeVar("N", bound=Numbers)  # the kind's numbers: what its prediction functions hold


@dataclass(frozen=True)
class TrainRequest:
    """madnb.train's arguments as every kind receives them (the model's name and the common checks done)."""

    source: str | None
    label: str | None
    features: list[str | None] | None
    exclude: list[str | None] | None
    categorical: list[str | None] | None
    smoothing: float  # madnb.train's smoothing, parsed (arrays.parse_smoothing)
    options: dict[str, Any]  # madnb.train's options, their keys checked
    options_given: bool  # options was not NULL
    epsilon: float | None
    bounds: Any
    domain: str | None
    delta: float | None
    weight: str | None = None  # madnb.train's weight: the column of sample weights, None: unweighted


@dataclass(frozen=True)
class Released:
    """A training's statistics: the header of its statistics table, the rows trained on, what a private release says."""

    header: statistics_table.Header
    rows: int
    privacy: dict[str, Any] | None = None


@dataclass(frozen=True)
class Derived:
    """The model tables a derivation made (as the catalog lists them) and the training rows the catalog shows."""

    tables: list[NewName]
    rows: int


@dataclass(frozen=True)
class CatalogEntry:
    """What a kind puts in its model's catalog row beyond what every kind does: the features
    (``[{name, role, type}]`` in order), the smoothing shown and the parameters kept (jsonb, or None)."""

    features: list[dict[str, str]]
    smoothing: float
    parameters: dict[str, Any] | None


Part = tuple[Relation, statistics_table.Header]
"""One fold's statistics: a statistics table and its header."""

TempName = Callable[[str], NewName]
"""Names a temporary table of a cross-validation (``what``: a short word); the caller drops it at the end."""


@dataclass(frozen=True)
class FoldPass:
    """The one statistics pass of a cross-validation, grouped by fold too: a temporary table and the rows trained on.

    Whatever else it holds, its rows (f, cls, o, n) with o = 0 are, per fold f and
    class cls (NULL: no label), the rows trained on (n): the folds' sizes and the
    classes are read from those (:mod:`madnb_pl.models.cross_validation`).
    """

    table: str
    labelled: int
    rows: str = "n"
    """The column of its o = 0 rows that counts the rows trained on (a weighted pass's n sums their weights)."""


@dataclass(frozen=True)
class Complement:
    """The statistics of one fold's complement (the rows of the other folds): the parts whose sum they are, and
    what else the kind derives its model from (``context``; a weighted Gaussian training: GaussianNB's unweighted
    largest variance, which no sum of weighted parts holds)."""

    parts: list[Part]
    context: Any = None


def other_folds(parts: list[Part]) -> list[Complement]:
    """Per fold (``parts``: each fold's statistics, in fold order) its complement: the other folds' parts."""
    return [Complement([p for i, p in enumerate(parts) if i != f]) for f in range(len(parts))]


@dataclass(frozen=True)
class FoldLookups:
    """What every fold-complement model of a cross-validation reads from a row, computed once per row
    (:meth:`Kind.fold_lookups`): its SQL over the score values, one expression each (the scoring query names
    them ``p.l1``, ``p.l2``, ...), and whether they are all a score reads (``complete``: then rows of equal
    lookups, fold and label score alike under every model, and the scoring query counts them as one).  ``replaced``:
    the score values (1-based) that no score reads beside its lookup, which the scoring query then does not carry up
    to the scores (a row holds at most 1,664 columns: the values and lookups of a table's 1,599 features would not)."""

    columns: list[Sql]
    complete: bool
    context: Any = None
    replaced: frozenset[int] = frozenset()


NO_SCORE = Sql(f"'-Infinity'::{F8}")
"""The score of a class a fold-complement model does not hold: probability 0, never predicted."""


def scores_in_order(classes: list[str], model_classes: list[str], score: Callable[[int], str]) -> Sql:
    """``ARRAY[...]`` of a model's scores in the order of ``classes``: ``score(i)`` for the model's i-th class
    (0-based, in ``model_classes``), :data:`NO_SCORE` for a class it does not hold."""
    at = {c: i for i, c in enumerate(model_classes)}
    return Sql("ARRAY[" + ", ".join(score(at[c]) if c in at else NO_SCORE for c in classes) + "]")


class Kind(ABC, Generic[T, N]):
    """One kind of model of madnb.train (see the module docstring)."""

    name: str
    options: frozenset[str]  # the keys of madnb.train's options it takes (scikit-learn's parameter names)
    private = False  # it trains differentially private models (epsilon)
    tunable: frozenset[str] = frozenset()
    """The parameters a grid search may vary (``smoothing`` or keys of ``options``): those that change the derivation
    only, so that every point of a grid is derived from the same fold statistics (:meth:`tuned`)."""

    # -- training ---------------------------------------------------------

    @abstractmethod
    def resolve(self, plpy: Plpy, request: TrainRequest) -> T:
        """The kind's training from madnb.train's arguments: parameters checked, inputs resolved."""

    def tuned(self, plpy: Plpy, training: T, request: TrainRequest) -> T:
        """``training`` (resolved from an earlier request) with the parameters of ``request`` instead, checked as
        :meth:`resolve` checks them; only :attr:`tunable` ones differ.  No kind without :attr:`tunable` is asked."""
        raise NotImplementedError(self.name)

    @abstractmethod
    def source(self, training: T) -> Relation: ...

    @abstractmethod
    def label(self, training: T) -> Column:
        """The label column (its type is the classes' type and predict's result type)."""

    @abstractmethod
    def catalog_entry(self, training: T, request: TrainRequest) -> CatalogEntry: ...

    def weight(self, training: T) -> Column | None:
        """The column of sample weights the training reads (madnb.train's ``weight``), None: unweighted."""
        return None

    @abstractmethod
    def statistics(self, plpy: Plpy, training: T, model: ModelName, kept: NewName) -> Released:
        """The statistics pass into the new statistics table ``kept``."""

    @abstractmethod
    def derive(self, plpy: Plpy, training: T, model: ModelName, kept: NewName, released: Released) -> Derived:
        """The statistics table ``kept`` -> the model tables (:class:`ModelObjects` of ``model``), commented
        (:func:`publish_table`)."""

    @abstractmethod
    def read_numbers(self, plpy: Plpy, training: T, objects: ModelObjects) -> N:
        """The model's numbers, read from its tables."""

    @abstractmethod
    def function_statements(
        self, names: FunctionNames, comment_prefix: str, training: T, n: N, helpers: Helpers, quote: Callable[[str], str],
        class_order: str = "madnb.model_classes",
    ) -> Functions:
        """CREATE OR REPLACE FUNCTION / COMMENT ON FUNCTION of the prediction functions ``names`` (both forms, and the
        internal functions a row form may call), and the functions they create: the kind's score expression inside
        :func:`madnb_pl.predict.generated.model_functions`."""

    @abstractmethod
    def score_log_prior(self, training: T, n: N) -> list[float]:
        """Per class (class order) the log prior its prediction functions' score holds: what the priors of a
        decision at query time replace (:mod:`madnb_pl.models.decisions`)."""

    @abstractmethod
    def explain_statements(
        self, names: ExplainNames, comment_prefix: str, training: T, n: N, quote: Callable[[str], str],
    ) -> Functions:
        """CREATE OR REPLACE FUNCTION / COMMENT ON FUNCTION of the explanation function ``names`` (both forms, and
        its internal one): the kind's terms of its score inside :func:`madnb_pl.predict.explain.statements`."""

    def explain_terms(self, training: T, n: N, row: str, looked: str) -> Terms | None:
        """The terms of the explanation of row ``row`` (an alias), the very pieces :meth:`explain_statements` lists,
        as :mod:`madnb_pl.models.importance` adds them up over a table (:class:`~madnb_pl.predict.explain.Terms`: its
        lookups a relation ``looked``); None where the prediction functions are not one inlined expression (a query
        holding the terms would be larger than one predicting) or there is no class: feature_importance then averages
        the explanation function's jsonb."""
        return None

    def comment_prefix(self, model: ModelName) -> str:
        """What the comments of the model's objects start with."""
        return f"madnb model {model.key}"

    def release_part(self, plpy: Plpy, training: T, dest: NewName) -> Released:
        """The exact statistics pass of the training's source into a new statistics table ``dest``, as
        :meth:`statistics` runs it but without its warnings about suspect classes: the rows madnb.update adds
        to a model or madnb.forget removes from it (one class of rows is no mistake there)."""
        raise MadnbError("0A000", f"rows cannot be added to or removed from a model of kind '{self.name}'")

    # -- cross-validation (madnb_pl.models.cross_validation) ---------------

    @abstractmethod
    def label_builtin(self, training: T) -> bool:
        """The label's type is PostgreSQL's own (:func:`madnb_pl.core.sql.text_sql`)."""

    @abstractmethod
    def trained_rows(self, training: T) -> Sql:
        """The condition on row ``t`` of the source that it is trained on (so it is in a fold, and scored)."""

    @abstractmethod
    def fold_pass(self, plpy: Plpy, training: T, fold: Sql) -> FoldPass:
        """The kind's statistics pass grouped by ``fold`` too (an expression over row ``t``), checked as training
        checks it, into a temporary table."""

    @abstractmethod
    def fold_complements(self, plpy: Plpy, training: T, fold_pass: FoldPass, folds: int, temp: TempName) -> list[Complement]:
        """Each fold's complement's statistics (folds 1 to ``folds``, in order) from the pass's table, which is
        then dropped: the other folds' statistics (:func:`other_folds`), their sum, or a weighted training's merged."""

    @abstractmethod
    def score_values(self, training: T) -> list[Sql]:
        """The values over row ``t`` the kind's score expression reads, in its functions' argument order."""

    def fold_lookups(self, plpy: Plpy, training: T, parts: list[Part], values: list[str]) -> FoldLookups | None:
        """What the models of every fold read from a row alike (SQL over the score values ``values``; ``parts``:
        every statistics table of the complements), computed
        once per row by the scoring query and given to :meth:`complement_scores`; None (the default): nothing."""
        return None

    @abstractmethod
    def complement_scores(
        self, plpy: Plpy, trainings: list[T], complement: Complement, classes: list[str], values: list[str], temp: TempName,
        lookups: FoldLookups | None = None,
    ) -> list[Sql]:
        """Per training of ``trainings`` (a grid's points: the same columns, other parameters), the scores (float8[]
        in the order of ``classes``, :func:`scores_in_order`) of the values ``values`` (SQL, as :meth:`score_values`
        lists them; ``lookups``: :meth:`fold_lookups`' columns, as ``p.l1``, ...) under its model derived from the sum
        of the ``complement``'s parts (summed once for every point)."""

    @abstractmethod
    def row_arguments(self, training: T, field: Callable[[Column], str]) -> str | None:
        """The arguments with which the row form of the model's prediction functions calls their column form
        (``name => value, ...``), ``field(c)`` the SQL of the row's column ``c``; None when the row form does not call
        the column form (madnb.evaluate then scores its rows near a tie with the row form, of the whole row)."""

    # -- export -----------------------------------------------------------

    @abstractmethod
    def from_catalog(self, plpy: Plpy, m: CatalogModel) -> T:
        """The kind's training as its functions are built from, from the catalog row alone (the source is not
        read), typed for an export (:func:`catalog_type`)."""

    @abstractmethod
    def tables(self, objects: ModelObjects, training: T) -> list[NewName]:
        """The model tables its numbers are read from."""

    @abstractmethod
    def with_classes(self, n: N, classes: list[str]) -> N:
        """``n`` with each class's text as ``classes`` (the catalog's)."""

    @abstractmethod
    def export_numbers(self, plpy: Plpy, m: CatalogModel, training: T, n: N) -> dict[str, Any]:
        """The kind's part of madnb.model_numbers' JSON (after format, model, ..., classes: see madnb.to_sklearn)."""


def publish_table(plpy: Plpy, table: NewName, comment: str) -> None:
    """Comment a model table and let every role read it.

    Whoever may predict reads the model's numbers anyway (they are the functions'
    bodies); readable tables let madnb.model_sql export them for those roles too
    (USAGE on madnb_models: grant_usage).
    """
    plpy.execute(Sql(f"COMMENT ON TABLE {table.sql} IS {plpy.quote_literal(comment)}"))
    plpy.execute(Sql(f"GRANT SELECT ON {table.sql} TO PUBLIC"))


@dataclass(frozen=True)
class CatalogType:
    """A catalog type as an export writes it (:func:`catalog_type`)."""

    sql: str
    oid: int
    name: str
    enum: bool  # an enum, written as text
    builtin: bool  # PostgreSQL's own (else written as text)


def catalog_type(plpy: Plpy, m: CatalogModel, type_text: str, subject: str) -> CatalogType:
    """A catalog type as an export writes it.

    A domain becomes its base type (:func:`madnb_pl.core.sql.base_type`), written as the
    model's own column form takes it (:func:`madnb_pl.inputs.columns.parameter_type`:
    pg_catalog-qualified; any other, an enum, as text, its values' labels).
    """
    b = base_type(plpy, type_text)
    if b is None:
        raise MadnbError(
            "42704", f'type {type_text} of {subject} of model "{m.name.key}" does not exist any more',
            hint="re-train the model from a table whose columns have existing types",
        )
    sql = parameter_type(b.name, b.builtin)
    if not b.builtin:
        return CatalogType(sql, TEXT, "text", b.typtype == "e", False)
    return CatalogType(sql, b.oid, b.name, False, True)


__all__ = [
    "NO_SCORE", "CatalogEntry", "CatalogType", "Complement", "Derived", "FoldLookups", "FoldPass", "Kind", "N", "Numbers", "Part", "Released", "T",
    "TempName", "TrainRequest", "catalog_type", "other_folds", "publish_table", "scores_in_order",
]

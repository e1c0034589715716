"""Training from ordinary columns: the features of a table, their roles, types and text form.

A :class:`ColumnTraining` is the column-based counterpart of :class:`madnb_pl.inputs.arrays.Training`:
the source, the label column and the feature columns in order, each with its
role (``gaussian`` or ``categorical``).  Feature i (1-based, in that order) is
attribute i of the statistics table, so a column model is an ordinary madnb
model: its statistics table has the usual format (categorical values as text,
the i-th feature as attr i) and its model tables are derived by
:func:`madnb_pl.derive.model_tables.merge_and_derive`, the same derivation and merge as every
other model.

Roles by type (of a domain: of its base type): int2, int4, int8, float4, float8
and numeric columns are Gaussian; text, varchar, char, name, boolean, date,
timestamp, timestamptz, uuid and enum columns categorical; ``categorical``
makes named integer or numeric columns categorical.  Categorical values are
compared by their text form (:func:`value_text_sql`, the one place it is
written: training and the generated prediction functions both use it).  NULL,
and NaN for Gaussian columns, is a missing value.

No cast or function another role can define runs on a column's value
(:func:`text_sql`): a value of a type outside pg_catalog (an enum, whose owner
may ``CREATE CAST (its_enum AS text)``) reaches text through its type's own
output function, never through a cast; a domain counts as its base type (a cast
from a domain is never used, and its CHECK runs only when a value is coerced to
it, which madnb never does: :func:`parameter_type`).

Their statistics pass is :mod:`madnb_pl.release.column_pass`; their private
release :mod:`madnb_pl.privacy.column_release`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError
from ..core.names import Column, Relation, parse_name, refuse_nondeterministic_collation, resolve_column, resolve_columns, resolve_relation
from ..core.sql import (
    BOOL,
    BUILTIN_SQL,
    DATE,
    F8,
    FLOAT4,
    FLOAT8,
    INT2,
    INT4,
    INT8,
    NAME,
    NAN_TYPES,
    NUMERIC,
    TEXT,
    TEXT_TYPES,
    TIMESTAMP,
    TIMESTAMPTZ,
    UUID,
    Plpy,
    Sql,
    quote_ident,
    text_sql,
    type_is_builtin,
)
from .arrays import Training

GAUSSIAN = "gaussian"
CATEGORICAL = "categorical"

GAUSSIAN_TYPES = frozenset({INT2, INT4, INT8, FLOAT4, FLOAT8, NUMERIC})
CATEGORICAL_TYPES = TEXT_TYPES | {NAME, BOOL, DATE, TIMESTAMP, TIMESTAMPTZ, UUID}
OVERRIDABLE_TYPES = frozenset({INT2, INT4, INT8, NUMERIC})
"""Gaussian by default, categorical when named in ``categorical`` (floats are not: their text form is not canonical)."""

MAX_FEATURES = 1600
"""A table has at most 1600 columns."""


_PLAIN_NAME = re.compile(r"[a-z_][a-z0-9_]*")


def plain_name(name: str) -> str:
    """A name of madnb's or PostgreSQL's own as SQL: as it is when that is plain, quoted otherwise."""
    return name if _PLAIN_NAME.fullmatch(name) else quote_ident(name)


def parameter_type(typname: str, builtin: bool) -> str:
    """The type a generated function takes a column's values as: its base type (a domain's), pg_catalog-qualified;
    a type from outside pg_catalog (an enum) as text (the value's label).

    The one rule of the column form of madnb_models.<m>_predict and of an exported
    script: a parameter of a domain's type would run the domain's CHECK (a function
    its owner wrote) on every call, an enum's type is not in another database.
    """
    return "pg_catalog." + plain_name(typname) if builtin else "pg_catalog.text"


@dataclass(frozen=True)
class Feature:
    """One feature column: its name, type (as format_type spells it), base type OID and role;
    whether it is an enum, and the type the column form takes it as (:func:`parameter_type`)."""

    column: Column
    base_oid: int
    role: str
    param_type: str
    enum: bool = False

    @property
    def name(self) -> str:
        return self.column.name

    @property
    def gaussian(self) -> bool:
        return self.role == GAUSSIAN


@dataclass(frozen=True)
class ColumnTraining:
    """A validated column-based training: source, label and features (feature i is attribute i).

    ``label_builtin``: the label's type is PostgreSQL's own (its text is a cast, see :func:`text_sql`).
    """

    source: Relation
    label: Column
    features: tuple[Feature, ...]
    label_builtin: bool = True
    weight: Column | None = None  # madnb.train's weight column (:func:`resolve_weight`), None: every row counts 1

    @property
    def num_attrs(self) -> int:
        return len(self.features)

    @property
    def numeric(self) -> tuple[int, ...]:
        """The attribute numbers of the Gaussian features."""
        return tuple(i for i, f in enumerate(self.features, start=1) if f.gaussian)

    def shape(self) -> Training:
        """The :class:`~madnb_pl.inputs.arrays.Training` shape the statistics core works on (text values, attr i = feature i)."""
        attrs = Column("value", "text[]", 0, "text", TEXT)
        return Training(self.source, self.label, attrs, self.num_attrs, self.numeric, self.numeric)


def column_value_sql(expr: str, f: Feature) -> Sql:
    """Column ``expr``'s value as the column form takes it (:attr:`Feature.param_type`): an enum's label as text
    (its output function, :func:`text_sql`), any other value as it is (a domain's is its base type's)."""
    return text_sql(expr, builtin=False) if f.enum else Sql(expr)


def label_text_sql(expr: str, training: ColumnTraining) -> Sql:
    """A class's text (the keys of predict_proba's jsonb, madnb.model_classes): :func:`text_sql` of the label."""
    return text_sql(expr, training.label_builtin)


def value_text_sql(expr: str, f: Feature) -> Sql:
    """A categorical value's text form: the dictionary key at training and at prediction.

    ``expr`` is the value as the column form takes it (:func:`column_value_sql`
    of a column), so an enum's value is already its label's text.

    numeric drops trailing zeros (1.50 = 1.5); char(n) loses its trailing blanks
    in the cast, as its equality ignores them; dates and times are written in one
    fixed form (:func:`_fixed_time_text`), whatever DateStyle and TimeZone say,
    for every legal value (a date past timestamp's range from its fields, in the
    same form).  The text is in collation "C": a column under a nondeterministic
    collation (case-insensitive ICU) still has 'red' and 'RED' as two values, in
    training, in the domain and in prediction.
    """
    return Sql(f"({_text_form(expr, f)} COLLATE pg_catalog.\"C\")")


def column_text_sql(expr: str, f: Feature) -> Sql:
    """Column ``expr``'s text form: :func:`value_text_sql` of :func:`column_value_sql`."""
    return value_text_sql(column_value_sql(expr, f), f)


def _text_form(expr: str, f: Feature) -> str:
    if f.enum:
        return expr  # already its label's text (column_value_sql)
    if f.base_oid == NUMERIC:
        return f"pg_catalog.trim_scale(({expr})::pg_catalog.numeric)::pg_catalog.text"
    # dates and times in one fixed form whatever DateStyle and TimeZone say (timestamptz in UTC),
    # so that a model predicts the same in every session; BC marked, infinities kept apart
    if f.base_oid == DATE:
        # a date as a plain timestamp (to_char of a date would pick to_char(timestamptz): TimeZone-dependent,
        # and 22008 for the earliest dates east of UTC); dates past timestamp's range (294277 AD on) from
        # their fields, in the same form
        d = f"({expr})::pg_catalog.date"
        big = "'294277-01-01'::pg_catalog.date"
        fields = " OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||) ".join(
            [f"pg_catalog.extract('year'::pg_catalog.text, {d})::pg_catalog.int4::pg_catalog.text"]
            + [
                f"pg_catalog.lpad(pg_catalog.extract('{u}'::pg_catalog.text, {d})::pg_catalog.int4::pg_catalog.text, "
                "2, '0'::pg_catalog.text)" for u in ("month", "day")
            ]
        )
        return (
            f"CASE WHEN {d} OPERATOR(pg_catalog.>=) {big} AND pg_catalog.isfinite({d}) THEN {fields} "
            f"ELSE {_fixed_time_text(f'({d})::pg_catalog.timestamp', 'YYYY-MM-DD')} END"
        )
    if f.base_oid == TIMESTAMP:
        return _fixed_time_text(f"({expr})::pg_catalog.timestamp", "YYYY-MM-DD HH24:MI:SS.US")
    if f.base_oid == TIMESTAMPTZ:
        return _fixed_time_text(
            f"pg_catalog.timezone('UTC'::pg_catalog.text, ({expr})::pg_catalog.timestamptz)", "YYYY-MM-DD HH24:MI:SS.US"
        )
    return f"({expr})::pg_catalog.text"


def _fixed_time_text(v: str, pattern: str) -> Sql:
    """``to_char(v, pattern)``, `` BC`` for years before 1, and 'infinity' / '-infinity' (which to_char gives as NULL)."""
    return Sql(
        f"COALESCE(pg_catalog.to_char({v}, '{pattern}') OPERATOR(pg_catalog.||) CASE WHEN pg_catalog.to_char({v}, 'BC') "
        f"OPERATOR(pg_catalog.=) 'BC' THEN ' BC' ELSE '' END, ({v})::pg_catalog.text)"
    )


def gaussian_value_sql(expr: str, f: Feature) -> Sql:
    """A Gaussian value as float8; NaN reads NULL (missing)."""
    x = f"({expr})::{F8}"
    if f.base_oid in NAN_TYPES:
        # not NULLIF: it looks its = up on the search_path of whoever runs the generated function
        return Sql(f"CASE WHEN {x} OPERATOR(pg_catalog.=) 'NaN'::{F8} THEN NULL ELSE {x} END")
    return Sql(x)


def _columns(plpy: Plpy, rel: Relation) -> list[dict[str, Any]]:
    """The relation's columns in order, with their base type (a domain's): its OID, name, SQL, whether it is
    an enum and whether it is PostgreSQL's own (:data:`BUILTIN_SQL`)."""
    return list(plpy.execute(
        plpy.prepare(
            Sql("WITH RECURSIVE d(top, oid, depth) AS (SELECT a.atttypid, a.atttypid, 0 FROM pg_catalog.pg_attribute AS a "
            "WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped "
            "UNION SELECT d.top, t.typbasetype, d.depth OPERATOR(pg_catalog.+) 1 FROM d JOIN pg_catalog.pg_type AS t "
            "ON t.oid OPERATOR(pg_catalog.=) d.oid WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) "
            "SELECT a.attname::pg_catalog.text AS name, b.oid::pg_catalog.int8 AS base, "
            "(b.typtype OPERATOR(pg_catalog.=) 'e') AS enum, b.typname::pg_catalog.text AS base_name, "
            f"pg_catalog.format_type(b.oid, NULL) AS base_sql, {BUILTIN_SQL} AS builtin "
            "FROM pg_catalog.pg_attribute AS a "
            "JOIN LATERAL (SELECT d.oid FROM d WHERE d.top OPERATOR(pg_catalog.=) a.atttypid "
            "ORDER BY d.depth DESC LIMIT 1) AS bo ON true "
            "JOIN pg_catalog.pg_type AS b ON b.oid OPERATOR(pg_catalog.=) bo.oid "
            "WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped "
            "ORDER BY a.attnum"),
            ["pg_catalog.oid"],
        ),
        [rel.oid],
    ))


def column_names(values: list[str | None] | None, argument: str) -> list[str]:
    """An array of column names, each parsed as one identifier (NULL elements refused)."""
    out: list[str] = []
    for i, v in enumerate(values or [], start=1):
        if v is None:
            raise MadnbError("22004", f"{argument}[{i}] must not be NULL", hint=f"{argument} lists column names")
        (name,) = parse_name(v, f"{argument}[{i}]", max_parts=1)
        out.append(name)
    return out


def check_feature_names(names: list[str], label: str) -> None:
    """A model's feature names: each once (42701), none the label's (22023); madnb.train's and
    madnb.train_from_statistics's."""
    seen: set[str] = set()
    for n in names:
        if n in seen:
            raise MadnbError("42701", f'feature "{n}" is listed twice', hint="list each feature once")
        seen.add(n)
        if n == label:
            raise MadnbError("22023", f'the label "{n}" is also listed as a feature', hint="leave the label out of features")


@dataclass(frozen=True)
class Inputs:
    """A training's source, label and feature column names, resolved once for every kind of model.

    ``columns``: the source's columns by name (:func:`_columns`: base type, enum, built-in).
    ``label_builtin``: the label's type is PostgreSQL's own (:func:`text_sql`).
    """

    source: Relation
    label: Column
    label_builtin: bool
    columns: dict[str, dict[str, Any]]
    features: list[str]
    excluded: list[str]
    weight: Column | None = None  # the weight column (:func:`resolve_weight`)


WEIGHT_TYPES = frozenset({INT2, INT4, INT8, FLOAT4, FLOAT8, NUMERIC})
"""The (base) types a weight column may have: numbers, read as float8 (:func:`weight_value_sql`)."""


def resolve_weight(plpy: Plpy, rel: Relation, weight: str | None, label: str, cols: dict[str, dict[str, Any]]) -> Column | None:
    """madnb.train's ``weight``: a numeric column of ``rel`` (42703 if missing, 42804 for another type), not the label
    (22023); None when not given.  Its values are checked by the statistics pass (:func:`weight_check_sql`)."""
    if weight is None:
        return None
    col = resolve_column(plpy, rel, weight, "weight")
    if col.name == label:
        raise MadnbError("22023", f'the label "{label}" is also the weight column', hint="weight names a column of sample weights")
    if int(cols[col.name]["base"]) not in WEIGHT_TYPES:
        raise MadnbError(
            "42804", f'weight column "{col.name}" is of type {col.type_sql}, not a number',
            hint="the sample weights are numbers >= 0 (an integer, float or numeric column); cast another column in a view",
        )
    return col


def weight_value_sql(weight: Column) -> Sql:
    """Row ``t``'s sample weight as float8 (scikit-learn sums its sample_weight in float64)."""
    return Sql(f"(t.{weight.sql})::{F8}")


def weight_check_sql(weight: Column) -> Sql:
    """The aggregates over rows ``t`` that check the weights: ``null_weights`` (rows skipped, their weight is NULL)
    and ``bad_weights`` (negative, NaN or infinite: 22023, :func:`check_weights`)."""
    w = weight_value_sql(weight)
    return Sql(
        f"pg_catalog.count(*) FILTER (WHERE {w} IS NULL) AS null_weights, "
        f"pg_catalog.count(*) FILTER (WHERE {w} OPERATOR(pg_catalog.<) '0'::{F8} "
        f"OR {w} OPERATOR(pg_catalog.=) ANY ('{{NaN,Infinity}}'::{F8}[])) AS bad_weights"
    )


def check_weights(plpy: Plpy, source: Relation, label: Column, weight: Column) -> None:
    """The weights of the labelled rows of ``source``: a negative, NaN or infinite one is 22023; a NOTICE counts
    the rows skipped for a NULL weight (as rows with a NULL label are)."""
    r = plpy.execute(
        Sql(f"SELECT {weight_check_sql(weight)} FROM {source.sql} AS t WHERE t.{label.sql} IS NOT NULL")
    )[0]
    if r["bad_weights"]:
        raise MadnbError(
            "22023", f'{r["bad_weights"]} row(s) of {source.display} have a negative, NaN or infinite weight',
            detail=f'weight column "{weight.name}"',
            hint="sample weights are finite numbers >= 0 (a NULL weight skips the row)",
        )
    if r["null_weights"]:
        plpy.notice(
            f"{r['null_weights']} row(s) of {source.display} with a NULL weight were ignored", detail=f'weight column "{weight.name}"',
        )


def resolve_inputs(
    plpy: Plpy, source: str | None, label: str | None, features: list[str | None] | None, exclude: list[str | None] | None,
    weight: str | None = None,
) -> Inputs:
    """The source, the label (:func:`resolve_label`), the weight column (:func:`resolve_weight`) and the feature
    column names of a training, every kind's.

    ``features`` NULL: every column but the label, the weight and ``exclude``, in table order;
    otherwise the names listed, each once, not the label nor the weight, without ``exclude``.
    """
    rel = resolve_relation(plpy, source, "source")
    cols = {r["name"]: r for r in _columns(plpy, rel)}
    lab, label_builtin = resolve_label(plpy, rel, label, cols)
    w = resolve_weight(plpy, rel, weight, lab.name, cols)
    excluded = column_names(exclude, "exclude")
    if excluded:  # each must be a column (the one message of a missing column, resolve_columns')
        resolve_columns(plpy, rel, list(exclude or []), "exclude")
    if features is None:
        names = [n for n in cols if n != lab.name and n not in excluded and (w is None or n != w.name)]
    else:
        names = column_names(features, "features")
        if excluded:
            raise MadnbError("22023", "features and exclude are given together", hint="list the features, or exclude columns from all of them, not both")
        check_feature_names(names, lab.name)
        if w is not None and w.name in names:
            raise MadnbError("22023", f'the weight column "{w.name}" is also listed as a feature', hint="leave the weight out of features")
    if not names:
        raise MadnbError(
            "22023", f"no features to train on in {rel.display}",
            detail=f'the label is "{lab.name}"' + (f"; excluded: {', '.join(excluded)}" if excluded else ""),
            hint="name the feature columns in features, or exclude fewer columns",
        )
    if len(names) > MAX_FEATURES:  # pragma: no cover - a table has at most 1600 columns
        raise MadnbError("54000", f"{len(names)} features are more than madnb supports ({MAX_FEATURES})")
    return Inputs(rel, lab, label_builtin, cols, names, excluded, w)


def training(
    plpy: Plpy,
    source: str | None,
    label: str | None,
    features: list[str | None] | None,
    exclude: list[str | None] | None,
    categorical: list[str | None] | None,
    role: str | None = None,
    weight: str | None = None,
) -> ColumnTraining:
    """The validated :class:`ColumnTraining` (names resolved on the caller's search_path, :func:`resolve_inputs`).

    ``role``: every feature has this role (madnb.train's kinds 'gaussian' and
    'categorical'); None: the role follows the type and ``categorical``.
    """
    if role == GAUSSIAN and categorical:
        raise MadnbError(
            "22023", "categorical is given with kind 'gaussian'",
            hint="kind 'gaussian' makes every feature Gaussian; train with kind 'naive_bayes' to mix categorical features in",
        )
    inputs = resolve_inputs(plpy, source, label, features, exclude, weight)
    rel, cols, names = inputs.source, inputs.columns, inputs.features
    as_categorical = column_names(categorical, "categorical")
    for n in as_categorical:
        if n not in names:
            raise MadnbError(
                "22023", f'categorical names "{n}", which is not a feature',
                hint="categorical lists feature columns to be treated as categorical",
            )
    out: list[Feature] = []
    resolved = resolve_columns(plpy, rel, [quote_ident(n) for n in names], "features", compared=True)  # one query for all
    for n, col in zip(names, resolved, strict=True):
        base, enum = int(cols[n]["base"]), bool(cols[n]["enum"])
        if col.elem_oid is not None:
            raise MadnbError(
                "42804", f'feature "{n}" is of type {col.type_sql}, an array',
                hint="train from ordinary columns here; arrays of attributes are for madnb.create_nb_prepared_data_tables",
            )
        if role == GAUSSIAN and base not in GAUSSIAN_TYPES:
            raise MadnbError(
                "42804", f'feature "{n}" of type {col.type_sql} is not numeric: kind \'gaussian\' takes numeric features only',
                hint="exclude the column, or train with kind 'naive_bayes' (Gaussian and categorical features)",
            )
        if n in as_categorical or role == CATEGORICAL:
            if base not in OVERRIDABLE_TYPES and base not in CATEGORICAL_TYPES and not enum:
                raise MadnbError(
                    "42804", f'feature "{n}" of type {col.type_sql} cannot be categorical',
                    detail="kind 'categorical' makes every feature categorical" if role == CATEGORICAL else None,
                    hint="integer, numeric, text, boolean, date and enum columns can be categorical; "
                    "for a float column, train from a view that rounds or casts it",
                )
            kind_role = CATEGORICAL
        elif base in GAUSSIAN_TYPES:
            kind_role = GAUSSIAN
        elif base in CATEGORICAL_TYPES or enum:
            kind_role = CATEGORICAL
        else:
            raise MadnbError(
                "42804", f'feature "{n}" has type {col.type_sql}, which madnb cannot train on',
                hint="numeric columns are Gaussian, text, boolean, date and enum columns categorical; "
                "exclude the column, or train from a view that casts it",
            )
        out.append(Feature(col, base, kind_role, parameter_type(cols[n]["base_name"], bool(cols[n]["builtin"])), enum))
    return ColumnTraining(rel, inputs.label, tuple(out), inputs.label_builtin, inputs.weight)


def resolve_label(plpy: Plpy, rel: Relation, label: str | None, cols: dict[str, dict[str, Any]]) -> tuple[Column, bool]:
    """The label column of a training (one value per row, a deterministic collation) and whether its type is
    PostgreSQL's own (:data:`BUILTIN_SQL`).

    A domain's label is its base type: madnb writes classes into tables and
    prediction functions return them, and a coercion to the domain would run its
    CHECK, a function the domain's owner wrote.  ``cols``: :func:`_columns` of ``rel``.
    """
    lab = resolve_column(plpy, rel, label, "label", compared=True)
    if lab.elem_oid is not None:
        raise MadnbError(
            "42804", f'label "{lab.name}" is of type {lab.type_sql}, an array',
            hint="the label is one value per row, e.g. text, boolean or an integer",
        )
    refuse_nondeterministic_collation(plpy, rel, lab, "label")
    base = cols[lab.name]
    if int(base["base"]) != lab.type_oid:
        lab = Column(lab.name, str(base["base_sql"]), int(base["base"]), None, None)
    return lab, bool(base["builtin"])


__all__ = [
    "BUILTIN_SQL",
    "CATEGORICAL",
    "GAUSSIAN",
    "WEIGHT_TYPES",
    "ColumnTraining",
    "Feature",
    "Inputs",
    "check_weights",
    "column_text_sql",
    "column_value_sql",
    "gaussian_value_sql",
    "label_text_sql",
    "parameter_type",
    "plain_name",
    "check_feature_names",
    "column_names",
    "resolve_inputs",
    "resolve_label",
    "resolve_weight",
    "text_sql",
    "training",
    "type_is_builtin",
    "value_text_sql",
    "weight_check_sql",
    "weight_value_sql",
]

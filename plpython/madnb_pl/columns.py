"""Training from ordinary columns: the features of a table, their roles, and their statistics pass.

A :class:`ColumnTraining` is the column-based counterpart of :class:`madnb_pl.spec.Training`:
the source, the label column and the feature columns in order, each with its
role (``gaussian`` or ``categorical``).  Feature i (1-based, in that order) is
attribute i of the statistics table, so a column model is an ordinary madnb
model: its statistics table has the usual format (categorical values as text,
the i-th feature as attr i) and its model tables are derived by
:func:`madnb_pl.derive.create_model`, the same derivation and merge as every
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

The statistics pass (:func:`stats_select`) is one SELECT: per class its row
count and count, avg and var_samp of every Gaussian column; the categorical
counts of integer columns grouped on one packed int8 key per value (as training
from integer arrays does), those of other columns from a LATERAL VALUES unpivot
(the value as text).  Each part is a scan of the source that PostgreSQL runs with
parallel workers; none calls Python per row.

With ``epsilon`` (:func:`privacy`) the release is private training's
(:func:`madnb_pl.private.write_private`), reading each row's columns through
:func:`dp_cells_sql` instead of an attribute array; bounds and the domain are
given by column name.
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from . import dp, statistics_table, stats
from .errors import MadnbError
from .names import Column, NewName, Relation, parse_name, refuse_nondeterministic_collation, resolve_column, resolve_relation
from .spec import Training, finite_number
from .sql import (
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
    float8_literal,
    int_array,
    quote_ident,
    temp_name,
    text_sql,
    type_is_builtin,
)

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

    @property
    def num_attrs(self) -> int:
        return len(self.features)

    @property
    def numeric(self) -> tuple[int, ...]:
        """The attribute numbers of the Gaussian features."""
        return tuple(i for i, f in enumerate(self.features, start=1) if f.gaussian)

    def shape(self) -> Training:
        """The :class:`~madnb_pl.spec.Training` shape the statistics core works on (text values, attr i = feature i)."""
        attrs = Column("value", "text[]", 0, "text", TEXT)
        return Training(self.source, self.label, attrs, self.num_attrs, self.numeric, self.numeric)


def column_value_sql(expr: str, f: Feature) -> Sql:
    """Column ``expr``'s value as the column form takes it (:attr:`Feature.param_type`): an enum's label as text
    (its output function, :func:`text_sql`), any other value as it is (a domain's is its base type's)."""
    return text_sql(expr, builtin=False) if f.enum else Sql(expr)


def label_text_sql(expr: str, t: ColumnTraining) -> Sql:
    """A class's text (the keys of predict_proba's jsonb, madnb.model_classes): :func:`text_sql` of the label."""
    return text_sql(expr, t.label_builtin)


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
            "WITH RECURSIVE d(top, oid, depth) AS (SELECT a.atttypid, a.atttypid, 0 FROM pg_catalog.pg_attribute AS a "
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
            "ORDER BY a.attnum",
            ["pg_catalog.oid"],
        ),
        [rel.oid],
    ))


def _names(values: list[str | None] | None, what: str) -> list[str]:
    """An array of column names, each parsed as one identifier (NULL elements refused)."""
    out: list[str] = []
    for i, v in enumerate(values or [], start=1):
        if v is None:
            raise MadnbError("22004", f"{what}[{i}] must not be NULL", hint=f"{what} lists column names")
        (name,) = parse_name(v, f"{what}[{i}]", max_parts=1)
        out.append(name)
    return out


def training(
    plpy: Plpy,
    source: str | None,
    label: str | None,
    features: list[str | None] | None,
    exclude: list[str | None] | None,
    categorical: list[str | None] | None,
    role: str | None = None,
) -> ColumnTraining:
    """The validated :class:`ColumnTraining` (names resolved on the caller's search_path).

    ``features`` NULL: every column but the label and ``exclude``, in table order.
    ``role``: every feature has this role (madnb.train's kinds 'gaussian' and
    'categorical'); None: the role follows the type and ``categorical``.
    """
    if role == GAUSSIAN and categorical:
        raise MadnbError(
            "22023", "categorical is given with kind 'gaussian'",
            hint="kind 'gaussian' makes every feature Gaussian; train with kind 'naive_bayes' to mix categorical features in",
        )
    rel = resolve_relation(plpy, source, "source")
    cols = {r["name"]: r for r in _columns(plpy, rel)}
    lab, label_builtin = resolve_label(plpy, rel, label, cols)
    excluded = _names(exclude, "exclude")
    for name in excluded:
        if name not in cols:
            raise MadnbError("42703", f'column "{name}" does not exist in {rel.display}', detail="it is listed in exclude")
    if features is None:
        names = [n for n in cols if n != lab.name and n not in excluded]
    else:
        names = _names(features, "features")
        if excluded:
            raise MadnbError("22023", "features and exclude are given together", hint="list the features, or exclude columns from all of them, not both")
        seen: set[str] = set()
        for n in names:
            if n in seen:
                raise MadnbError("42701", f'feature "{n}" is listed twice', hint="list each feature column once")
            seen.add(n)
            if n == lab.name:
                raise MadnbError("22023", f'the label "{n}" is also listed as a feature', hint="leave the label out of features")
    if not names:
        raise MadnbError(
            "22023", f"no features to train on in {rel.display}",
            detail=f'the label is "{lab.name}"' + (f"; excluded: {', '.join(excluded)}" if excluded else ""),
            hint="name the feature columns in features, or exclude fewer columns",
        )
    if len(names) > MAX_FEATURES:  # pragma: no cover - a table has at most 1600 columns
        raise MadnbError("54000", f"{len(names)} features are more than madnb supports ({MAX_FEATURES})")
    as_categorical = _names(categorical, "categorical")
    for n in as_categorical:
        if n not in names:
            raise MadnbError(
                "22023", f'categorical names "{n}", which is not a feature',
                hint="categorical lists feature columns to be treated as categorical",
            )
    out: list[Feature] = []
    for n in names:
        col = resolve_column(plpy, rel, quote_ident(n), "features", compared=True)
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
    return ColumnTraining(rel, lab, tuple(out), label_builtin)


def resolve_label(
    plpy: Plpy, rel: Relation, label: str | None, cols: dict[str, dict[str, Any]] | None = None,
) -> tuple[Column, bool]:
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
    base = (cols or {r["name"]: r for r in _columns(plpy, rel)})[lab.name]
    if int(base["base"]) != lab.type_oid:
        lab = Column(lab.name, str(base["base_sql"]), int(base["base"]), None, None)
    return lab, bool(base["builtin"])


PACK_BITS = 11  # a packed integer key: value * 2**11 + feature number (features <= 1600 < 2**11)
PACKED_TYPES = frozenset({INT2, INT4})  # |value| < 2**31: the key fits an int8
MAX_GAUSSIAN = 300  # nv, mean, var (24 bytes) each in one row of the pass's table, which holds at most 8160 bytes


def packed(t: ColumnTraining) -> list[int]:
    """The categorical features counted from a packed int8 key (integer columns of at most 32 bits)."""
    return [i for i, f in enumerate(t.features, start=1) if not f.gaussian and f.base_oid in PACKED_TYPES]


def stats_select(t: ColumnTraining, fold: str | None = None) -> Sql:
    """The statistics pass: rows (cls, o, v, n, c{j}, m{j}, v{j}), one SELECT of up to three parts.

    * o = 0, one row per class: its row count n and, per Gaussian feature j,
      count, avg and var_samp of the present values (c{j}, m{j}, v{j});
    * integer categorical features: per class and (feature, value) the count,
      grouped on one int8 key per element, value * 2**11 + o, from ``unnest`` in
      the select list (the cheapest way PostgreSQL counts many columns per row);
    * other categorical features: each row unpivoted into (o, value as text) by a
      LATERAL VALUES list, grouped by class, o, value.

    Missing values (NULL) of categorical features are not counted.  Every part
    can run in parallel workers.  ``fold``: an SQL expression over the source's
    row ``t``; every row then also carries it as a first column ``f`` and is
    grouped by it too (cross-validation's per-fold statistics, in the same pass).
    """
    gauss = list(t.numeric)
    if len(gauss) > MAX_GAUSSIAN:
        raise MadnbError(
            "54000", f"{len(gauss)} Gaussian features are more than madnb.train supports ({MAX_GAUSSIAN})",
            hint="train from a view with fewer numeric columns, or name some of them in categorical",
        )
    lab = f"t.{t.label.sql}"
    src = f"{t.source.sql} AS t"
    by, g_by, e_by, n_by = "", "", "", 0
    if fold is not None:
        # the fold, first column of every part, computed once per row in a LATERAL sub-select that
        # OFFSET 0 keeps from being flattened: next to unnest, or above the unpivot, the expression
        # would run once per element (md5 costs microseconds)
        src += f" CROSS JOIN LATERAL (SELECT {fold} OFFSET 0) AS x(f)"
        by, g_by, e_by, n_by = "x.f AS f, ", "g.f, ", "e.f, ", 1
    nulls = "".join(f", NULL::pg_catalog.int8, NULL::{F8}, NULL::{F8}" for _ in gauss)
    aggs = "".join(
        f", pg_catalog.count({x}) AS c{j}, pg_catalog.avg({x}) AS m{j}, pg_catalog.var_samp({x}) AS v{j}"
        for j in gauss
        for x in [gaussian_value_sql(f"t.{t.features[j - 1].column.sql}", t.features[j - 1])]
    )
    parts = [
        f"SELECT {by}{lab} AS cls, 0 AS o, NULL::pg_catalog.text AS v, pg_catalog.count(*) AS n{aggs} "
        f"FROM {src} GROUP BY {_group_by(1 + n_by)}"
    ]
    ints = packed(t)
    if ints:
        mask = (1 << PACK_BITS) - 1
        keys = ", ".join(
            f"(t.{t.features[i - 1].column.sql})::pg_catalog.int8 OPERATOR(pg_catalog.*) {1 << PACK_BITS} "
            f"OPERATOR(pg_catalog.+) {i}"
            for i in ints
        )
        # OFFSET 0 keeps "k IS NOT NULL" above the aggregate (below it, it would run once per element)
        parts.append(
            f"SELECT {g_by}g.cls, (g.k OPERATOR(pg_catalog.&) {mask})::pg_catalog.int4, "
            f"(g.k OPERATOR(pg_catalog.>>) {PACK_BITS})::pg_catalog.text, g.n{nulls} "
            f"FROM (SELECT {e_by}e.cls, e.k, pg_catalog.count(*) AS n FROM (SELECT {by}{lab} AS cls, "
            f"pg_catalog.unnest(ARRAY[{keys}]) AS k FROM {src}) AS e GROUP BY {_group_by(2 + n_by)} OFFSET 0) AS g "
            "WHERE g.k IS NOT NULL"
        )
    others = [i for i, f in enumerate(t.features, start=1) if not f.gaussian and i not in ints]
    if others:
        rows = ", ".join(f"({i}, {column_text_sql(f't.{t.features[i - 1].column.sql}', t.features[i - 1])})" for i in others)
        parts.append(
            f"SELECT {g_by}g.cls, g.o, g.v, g.n{nulls} FROM (SELECT {by}{lab} AS cls, u.o, u.v, pg_catalog.count(*) AS n "
            f"FROM {src} CROSS JOIN LATERAL (VALUES {rows}) AS u(o, v) "
            f"WHERE u.v IS NOT NULL GROUP BY {_group_by(3 + n_by)}) AS g"
        )
    return Sql(" UNION ALL ".join(parts))


def _group_by(n: int) -> str:
    """GROUP BY's list of the first ``n`` output columns: 1, 2, ..."""
    return ", ".join(str(i) for i in range(1, n + 1))


def write_statistics(plpy: Plpy, t: ColumnTraining, dest: NewName) -> tuple[statistics_table.Header, int]:
    """The statistics pass of ``t`` into a new statistics table ``dest``; return its header and the training rows.

    The table has the format of :mod:`madnb_pl.statistics_table` (value type
    text), so that it merges and derives as any other.
    """
    s, labelled = statistics_pass(plpy, t)
    insert_cells(plpy, t, s, dest)
    plpy.execute(f"DROP TABLE {s}")
    refine_far_from_zero(plpy, t, dest.sql)
    header = exact_header(plpy, t)
    statistics_table.write_header(plpy, dest.sql, header)
    return header, labelled


def exact_header(plpy: Plpy, t: ColumnTraining) -> statistics_table.Header:
    """The header of a fresh exact statistics table of ``t`` (a new id)."""
    return statistics_table.Header(
        format=statistics_table.FORMAT, id=str(uuid.uuid4()), mode=statistics_table.EXACT, num_attrs=t.num_attrs,
        numeric=list(t.numeric), class_type=t.label.type_sql, element_type="text", source=t.source.display,
        created_at=statistics_table.now(plpy),
    )


def statistics_pass(plpy: Plpy, t: ColumnTraining, fold: str | None = None) -> tuple[str, int]:
    """Run :func:`stats_select` into a temporary table and check it; return its name and the labelled rows.

    A NOTICE counts the rows with a NULL label; no labelled row, or an infinite
    Gaussian value, is an error.
    """
    s = temp_name("madnb_colstats_")
    try:
        # a Gather of the packed keys is costed per row, not per element (see madnb_pl.stats.gather_cost)
        with stats.gather_cost(plpy, max(1.0, len(packed(t)) / 2)):
            plpy.execute(f"CREATE TEMPORARY TABLE {s} ON COMMIT DROP AS {stats_select(t, fold)}")
    except plpy.spiexceptions.NumericValueOutOfRange as e:
        raise MadnbError(
            "22003", f"a numeric feature of {t.source.display} holds values too large for its mean and variance in float8",
            hint="Gaussian features need values whose squares fit a float8 (about within +-1e154): "
            "rescale the column in a view, or make the feature categorical",
        ) from e
    r = plpy.execute(
        "SELECT COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NULL AND s.o OPERATOR(pg_catalog.=) 0), 0)::pg_catalog.int8 AS unlabelled, "
        "COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0), 0)::pg_catalog.int8 AS labelled "
        f"FROM {s} AS s"
    )[0]
    if r["unlabelled"]:
        plpy.notice(
            f"{r['unlabelled']} row(s) of {t.source.display} with a NULL label were ignored", detail=f'label "{t.label.name}"',
        )
    if r["labelled"] == 0:
        raise MadnbError(
            "22023", f"source {t.source.display} has no rows with a non-NULL label",
            detail=f'label "{t.label.name}"', hint="train on a table with at least one labelled row",
        )
    f8 = F8
    for j in t.numeric:
        bad = plpy.execute(
            f"SELECT {label_text_sql('s.cls', t)} AS cls FROM {s} AS s WHERE s.o OPERATOR(pg_catalog.=) 0 AND s.cls IS NOT NULL "
            f"AND (s.m{j} OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity', '-Infinity']::{f8}[]) "
            f"OR s.v{j} OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity']::{f8}[])) LIMIT 1"
        )
        if bad:
            raise MadnbError(
                "22003", f'feature "{t.features[j - 1].name}" of {t.source.display} has an infinite value',
                detail=f"label {bad[0]['cls']}",
                hint="Gaussian features need finite values: replace an infinity by NULL (a missing value) or clip it",
            )
    return s, int(r["labelled"])


def insert_cells(plpy: Plpy, t: ColumnTraining, s: str, dest: NewName, fold: int | None = None) -> None:
    """Create statistics table ``dest`` and fill it with the labelled cells of pass table ``s`` (of fold ``fold``)."""
    f8, i8 = F8, "pg_catalog.int8"
    labelled = "s.cls IS NOT NULL" + ("" if fold is None else f" AND s.f OPERATOR(pg_catalog.=) {int(fold)}")
    statistics_table.create_table(plpy, dest, t.shape())
    numeric_cells = "".join(
        f" UNION ALL SELECT s.cls, {j}, NULL, NULL, s.c{j}, s.m{j}, s.v{j} FROM {s} AS s "
        f"WHERE {labelled} AND s.o OPERATOR(pg_catalog.=) 0"
        for j in t.numeric
    )
    plpy.execute(
        f"INSERT INTO {dest.sql} (cls, attr, value, n, nv, mean, var) "
        f"SELECT s.cls, 0, NULL, s.n, NULL::{i8}, NULL::{f8}, NULL::{f8} FROM {s} AS s "
        f"WHERE {labelled} AND s.o OPERATOR(pg_catalog.=) 0 "
        f"UNION ALL SELECT s.cls, s.o, s.v, s.n, NULL, NULL, NULL FROM {s} AS s "
        f"WHERE {labelled} AND s.o OPERATOR(pg_catalog.>) 0 AND s.v IS NOT NULL"
        + numeric_cells
    )


def refine_far_from_zero(plpy: Plpy, t: ColumnTraining, dest: str) -> None:
    """Recompute the Gaussian cells whose values sit far from 0 compared with their spread.

    The column form of :func:`madnb_pl.statistics_table.refine_far_from_zero`
    (see there for why): the same test on the statistics, the same shifted pass
    (x - c with c the mean of the attribute's largest such cell), the mean kept
    as the double-double c + avg(x - c).
    """
    if not t.numeric:
        return
    f8 = F8
    far = (
        f"s.nv OPERATOR(pg_catalog.>) 1 AND pg_catalog.abs(s.mean) OPERATOR(pg_catalog.>) "
        f"({statistics_table.FAR_FROM_ZERO ** 0.5!r}::{f8} OPERATOR(pg_catalog.*) pg_catalog.sqrt(s.var))"
    )
    rows = plpy.execute(
        f"SELECT DISTINCT ON (s.attr) s.attr AS o, s.mean AS c FROM {dest} AS s "
        f"WHERE s.attr OPERATOR(pg_catalog.=) ANY ({int_array(t.numeric)}) AND {far} ORDER BY s.attr, s.nv DESC"
    )
    if not rows:
        return
    aggs, cells = [], []
    for r in rows:
        j, c = int(r["o"]), float(r["c"])
        f = t.features[j - 1]
        x = f"({gaussian_value_sql(f't.{f.column.sql}', f)} OPERATOR(pg_catalog.-) {c!r}::{f8})"
        aggs.append(f"pg_catalog.avg({x}) AS r{j}, pg_catalog.var_samp({x}) AS v{j}")
        cells.append(f"({j}, {c!r}::{f8}, g.r{j}, g.v{j})")
    passed = (
        f"SELECT t.{t.label.sql} AS cls, {', '.join(aggs)} FROM {t.source.sql} AS t "
        f"WHERE t.{t.label.sql} IS NOT NULL GROUP BY t.{t.label.sql}"
    )
    plpy.execute(
        f"UPDATE {dest} AS s SET mean = y.c OPERATOR(pg_catalog.+) y.r, "
        "mean_lo = (y.c OPERATOR(pg_catalog.-) (y.c OPERATOR(pg_catalog.+) y.r)) OPERATOR(pg_catalog.+) y.r, var = y.v "
        f"FROM (SELECT g.cls, x.o, x.c, x.r, x.v FROM ({passed}) AS g CROSS JOIN LATERAL (VALUES {', '.join(cells)}) AS x(o, c, r, v)) AS y "
        f"WHERE s.cls OPERATOR(pg_catalog.=) y.cls AND s.attr OPERATOR(pg_catalog.=) y.o AND y.r IS NOT NULL AND {far}"
    )


# ---------------------------------------------------------------------------
# Private training from columns (madnb.train with epsilon)
# ---------------------------------------------------------------------------

BOUNDS_HINT = (
    'give public bounds for every Gaussian feature as jsonb keyed by column name, e.g. bounds => \'{"age": [17, 90], '
    '"hours_per_week": [1, 99]}\'; bounds are public knowledge, never taken from the data'
)
DOMAIN_HINT = dp.COLUMNS_DOMAIN_HINT


@dataclass(frozen=True)
class ColumnPrivacy:
    """A validated private training from columns: the shape the private release reads, and its parameters."""

    shape: Training
    privacy: dp.Privacy
    bounds: dict[str, list[float]]  # Gaussian feature name -> [lower, upper]
    copy: NewName | None = None  # the temporary copy of a domain given by column name (:func:`_domain_table`)

    def ledger(self, t: ColumnTraining) -> dict[str, Any]:
        """What the ledger records beyond private.write_private's parameters."""
        return {"features": [f.name for f in t.features], "bounds_by_column": self.bounds}

    def drop_copy(self, plpy: Plpy) -> None:
        """Drop the temporary domain copy once the release has read it (ON COMMIT DROP is too late in a transaction)."""
        if self.copy is not None:
            plpy.execute(f"DROP TABLE IF EXISTS {self.copy.sql}")


def privacy(
    plpy: Plpy, t: ColumnTraining, epsilon: float | None, bounds: str | None, domain: str | None, delta: float | None,
) -> ColumnPrivacy | None:
    """The validated private release of ``t`` with ``epsilon``, or None for exact statistics.

    Everything is checked here, before anything is charged; nothing is read from
    the data.  ``bounds`` (jsonb text) names every Gaussian feature; ``domain`` is
    'observed', 'private' (with ``delta``), a jsonb object or a table of (attr,
    value) rows, by column name (:func:`_domain_table` copies it into the
    numbered form the private release reads, as a domain table of
    create_nb_prepared_data_tables would be).
    """
    if epsilon is None:
        if bounds is not None or domain is not None or delta is not None:
            raise MadnbError(
                "22023", "bounds, domain and delta are used only for a differentially private model",
                hint="set epsilon to train with differential privacy, or leave bounds, domain and delta out",
            )
        return None
    by_name = _bounds(t, bounds)
    pairs = [by_name[t.features[j - 1].name] for j in t.numeric]
    shape = t.shape()
    if domain is None:
        raise MadnbError("22023", "a differentially private model needs a public domain", hint=DOMAIN_HINT)
    kind = domain.strip().lower()
    named: str | None = None
    table: NewName | None = None
    if kind not in (dp.OBSERVED, dp.PRIVATE):
        table, named = _domain_table(plpy, t, domain)
        domain = table.sql
    p = dp.privacy_spec(plpy, shape, epsilon, pairs or None, domain, list(shape.numeric), delta)
    if named is not None and table is not None and p.domain is not None:
        # named as pg_temp (not pg_temp_<n>, which depends on the backend), and shown as the user gave it
        p = dataclasses.replace(p, domain=Relation("pg_temp", table.name, p.domain.oid), domain_name=named)
    return ColumnPrivacy(dataclasses.replace(shape, cells=dp_cells_sql(t, p.bounds)), p, by_name, table)


def _bounds(t: ColumnTraining, bounds: str | None) -> dict[str, list[float]]:
    """The public bounds by Gaussian feature name (jsonb text): every one named, no other name."""
    gaussian = [f.name for f in t.features if f.gaussian]
    if bounds is None:
        if gaussian:
            raise MadnbError("22023", f'public bounds are missing for Gaussian feature "{gaussian[0]}"', hint=BOUNDS_HINT)
        return {}
    given = json.loads(bounds)
    if not isinstance(given, dict):
        raise MadnbError("22023", "bounds must be a jsonb object keyed by column name", hint=BOUNDS_HINT)
    features = {f.name: f for f in t.features}
    for name, pair in given.items():
        if name not in features:
            raise MadnbError(
                "42703", f'bounds name column "{name}", which is not a feature of {t.source.display}', hint=BOUNDS_HINT,
            )
        if not features[name].gaussian:
            raise MadnbError(
                "22023", f'bounds name the categorical feature "{name}"',
                hint="bounds are for Gaussian features; a categorical feature's values are listed in domain",
            )
        ok = isinstance(pair, list) and len(pair) == 2 and all(finite_number(x) for x in pair)
        if not ok:
            raise MadnbError(
                "22023", f'the bounds of "{name}" must be two finite numbers [lower, upper], got {json.dumps(pair)}',
                hint=BOUNDS_HINT,
            )
        if not float(pair[0]) < float(pair[1]):
            raise MadnbError(
                "22023", f'the lower bound of "{name}" must be below its upper bound, got {json.dumps(pair)}', hint=BOUNDS_HINT,
            )
        dp.check_half_width(float(pair[0]), float(pair[1]), f'the bounds of "{name}"', json.dumps(pair), BOUNDS_HINT)
    for name in gaussian:
        if name not in given:
            raise MadnbError("22023", f'public bounds are missing for Gaussian feature "{name}"', hint=BOUNDS_HINT)
    return {name: [float(given[name][0]), float(given[name][1])] for name in gaussian}


def _domain_table(plpy: Plpy, t: ColumnTraining, domain: str) -> tuple[NewName, str]:
    """Copy a domain given by column name into a temporary (attr int, value text) table; return it and its name.

    jsonb (``{"column": [values]}``) or a table with columns attr and value
    (attr the column's name).  attr 0 holds the label's classes, attr i the
    values of feature i in their text form (:func:`value_text_sql`, after a cast
    to the column's base type, so '1.50' and '1.5' are one numeric value; an
    enum's values are their labels, as given).  Every
    categorical feature and the label need values; a Gaussian feature or
    another name is refused.  Only public data is read.
    """
    text = domain.strip()
    if text.startswith("{"):
        try:
            # numbers kept as written (a float would round 12345678901234567.5): each is cast to its column's type
            given = json.loads(text, parse_float=str, parse_int=str)
        except ValueError:
            given = None
        if not isinstance(given, dict) or any(
            not isinstance(v, list) or any(x is None or isinstance(x, (list, dict)) for x in v) for v in given.values()
        ):
            raise MadnbError(
                "22023", "a jsonb domain must be an object of arrays of values, one per column", hint=DOMAIN_HINT,
            )
        rows = [(k, x if isinstance(x, str) else json.dumps(x)) for k, vs in given.items() for x in vs]
        named = "given as jsonb"
    else:
        rel = resolve_relation(plpy, domain, "domain")
        resolve_column(plpy, rel, "attr", "domain")
        resolve_column(plpy, rel, "value", "domain")
        got = plpy.execute(f"SELECT d.attr::pg_catalog.text AS a, d.value::pg_catalog.text AS v FROM {rel.sql} AS d")
        if any(r["a"] is None or r["v"] is None for r in got):
            raise MadnbError("22023", f"the domain table {rel.display} has NULL in attr or value", hint=DOMAIN_HINT)
        rows = [(r["a"], r["v"]) for r in got]
        named = rel.display
    number = {f.name: i for i, f in enumerate(t.features, start=1)}
    number[t.label.name] = 0
    for a, _ in rows:
        if a not in number:
            raise MadnbError(
                "42703", f'the domain names column "{a}", which is not the label or a feature of {t.source.display}',
                hint=DOMAIN_HINT,
            )
        if a != t.label.name and t.features[number[a] - 1].gaussian:
            raise MadnbError(
                "22023", f'the domain lists values for the Gaussian feature "{a}"',
                hint="a Gaussian feature takes bounds, not a domain", detail=f"bounds => '{{\"{a}\": [lower, upper]}}'",
            )
    named_cols = {a for a, _ in rows}
    for name in [t.label.name] + [f.name for f in t.features if not f.gaussian]:
        if name not in named_cols:
            what = "the label" if name == t.label.name else "categorical feature"
            raise MadnbError("22023", f'the domain lists no values for {what} "{name}"', hint=DOMAIN_HINT)
    table = NewName("pg_temp", "madnb_column_domain_" + secrets.token_hex(6))
    dom = table.sql
    plpy.execute(f"CREATE TEMPORARY TABLE {dom} (attr pg_catalog.int4, value pg_catalog.text) ON COMMIT DROP")
    cases = " ".join(
        f"WHEN {i} THEN {value_text_sql(f'(r.v)::{f.param_type}', f)}"
        for i, f in enumerate(t.features, start=1) if not f.gaussian
    )
    insert = plpy.prepare(
        f"INSERT INTO {dom} (attr, value) SELECT DISTINCT m.o, CASE m.o WHEN 0 THEN r.v {cases} END "
        "FROM ROWS FROM (pg_catalog.unnest($1::pg_catalog.text[]), pg_catalog.unnest($2::pg_catalog.text[])) AS r(a, v) "
        "JOIN ROWS FROM (pg_catalog.unnest($3::pg_catalog.text[]), pg_catalog.unnest($4::pg_catalog.int4[])) AS m(a, o) "
        "ON m.a OPERATOR(pg_catalog.=) r.a",
        ["pg_catalog.text[]", "pg_catalog.text[]", "pg_catalog.text[]", "pg_catalog.int4[]"],
    )
    try:
        plpy.execute(insert, [[a for a, _ in rows], [v for _, v in rows], list(number), list(number.values())])
    except plpy.SPIError as e:  # a value that does not cast (22xxx); the domain is public, so the message may show it
        state = str(getattr(e, "sqlstate", None) or "")
        if not state.startswith("22"):
            raise
        raise MadnbError(
            state, f"a value of the domain does not fit its column's type: {e.args[0] if e.args else e}",
            hint="the domain's values are read as values of their column's type (e.g. 13 for an integer column, "
            "2024-01-31 for a date)",
        ) from e
    return table, named


def dp_cells_sql(t: ColumnTraining, nb: dp.NumericBounds) -> Sql:
    """The private pass's cells of row ``t`` (see :attr:`madnb_pl.spec.Training.cells`): one LATERAL VALUES list.

    Categorical values in their text form (:func:`value_text_sql`), Gaussian ones
    as float8 with NaN missing; a numeric column is clipped to its bounds in
    numeric first (a huge numeric does not fit a float8), as the attribute-array
    pass clips a numeric array.  Nothing here can fail whatever a row holds.
    """
    bounds = {a: (lo, hi) for a, lo, hi in nb.bounds}
    cells = [f"(NULL::pg_catalog.text, 1, NULL::{F8})"]
    for i, f in enumerate(t.features, start=1):
        col = f"t.{f.column.sql}"
        if not f.gaussian:
            cells.append(f"({column_text_sql(col, f)}, {i + 1}, NULL)")
        elif f.base_oid == NUMERIC:
            lo, hi = (f"'{float8_literal(b)}'::pg_catalog.numeric" for b in bounds[i])
            v = f"({col})::pg_catalog.numeric"
            cells.append(
                f"(NULL, {i + 1}, CASE WHEN {v} IS NOT NULL AND {v} OPERATOR(pg_catalog.<>) 'NaN'::pg_catalog.numeric "
                f"THEN (LEAST(GREATEST({v}, {lo}), {hi}))::{F8} END)"
            )
        else:
            cells.append(f"(NULL, {i + 1}, {gaussian_value_sql(col, f)})")
    return Sql(f"(VALUES {', '.join(cells)}) AS u(val, o, x)")


__all__ = [
    "BUILTIN_SQL", "CATEGORICAL", "GAUSSIAN", "ColumnPrivacy", "ColumnTraining", "Feature",
    "column_text_sql", "column_value_sql", "dp_cells_sql", "exact_header", "gaussian_value_sql", "insert_cells",
    "label_text_sql", "parameter_type", "plain_name", "privacy", "resolve_label", "statistics_pass", "stats_select", "text_sql",
    "training", "type_is_builtin", "value_text_sql", "write_statistics",
]

"""The training specification: MADlib's arguments, validated, as one :class:`Training` value.

Every stage after this one (statistics, private release, derivation, views) works
on a :class:`Training`: the source relation and its class and attribute columns
resolved against the catalog, numAttrs, and the numeric attribute indices.  Text
arguments are parsed here, never executed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from ..core.errors import MadnbError
from ..core.names import Column, Relation, resolve_column, resolve_relation
from ..core.sql import FLOAT_TYPES, INTEGER_TYPES, NUMERIC, NUMERIC_ELEMENT_TYPES, BaseType, Plpy, Sql, base_type, int_array, quote_ident

# The largest numAttrs accepted.  Checked before anything proportional to numAttrs
# is built (Python lists, SQL text, arrays in a view's model): PL/Python cannot be
# interrupted while it runs Python code, so no loop here may be unbounded.  With
# this bound the longest of them (the numeric indices, the categorical runs, a
# view's per-attribute SQL) takes well under a second.
MAX_NUM_ATTRS = 100_000


# The largest Laplace smoothing factor accepted at training (far beyond any useful
# value: s pulls every categorical probability towards uniform).  The views also
# compute a larger value edited into a feature table without overflow (see
# madnb_pl.scoring).
MAX_SMOOTHING = 1e6


_INDEX_LIST = re.compile(r"^\s*(?:array\s*\[(?P<a>.*)\]|\{(?P<b>.*)\}|(?P<c>.*))\s*$", re.IGNORECASE | re.DOTALL)


def parse_num_attrs(num_attrs: int | None) -> int:
    """numAttrs must be an integer in 1..MAX_NUM_ATTRS (22023 / 54000 otherwise)."""
    if num_attrs is None:
        raise MadnbError("22004", "numAttrs must not be NULL")
    if num_attrs < 1:
        raise MadnbError("22023", f"numAttrs must be at least 1, got {num_attrs}")
    if num_attrs > MAX_NUM_ATTRS:
        raise MadnbError(
            "54000",
            f"numAttrs {num_attrs} is more than madnb supports ({MAX_NUM_ATTRS})",
            hint="numAttrs is the number of elements of each attribute array; "
            f"split wider data into several models of at most {MAX_NUM_ATTRS} attributes",
        )
    return int(num_attrs)


def parse_numeric_indices(text: str | None, num_attrs: int) -> list[int]:
    """Parse numericAttrsColumnIndices: ``'ARRAY[1,2]'``, ``'{1,2}'`` or ``'1,2'``.

    The text is parsed, never executed.  Indices are 1-based, within numAttrs,
    without duplicates; the result is sorted.
    """
    return sorted(numeric_indices_as_given(text, num_attrs))


def numeric_indices_as_given(text: str | None, num_attrs: int) -> list[int]:
    """:func:`parse_numeric_indices` in the order written (public bounds follow that order)."""
    if text is None:
        raise MadnbError("22004", "numericAttrsColumnIndices must not be NULL", hint="use the 6-argument form for categorical attributes only")
    m = _INDEX_LIST.match(text)
    body = next(g for g in (m.group("a"), m.group("b"), m.group("c")) if g is not None) if m else None
    if body is None:
        raise MadnbError("22P02", f"invalid numericAttrsColumnIndices: {text!r}")
    items = [s.strip() for s in body.split(",")] if body.strip() else []
    out: list[int] = []
    seen: set[int] = set()
    for s in items:
        # ASCII digits only: Python's \d (and int()) also accept other scripts' digits ('٣' = 3)
        if not re.fullmatch(r"[+]?[0-9]+", s):
            raise MadnbError(
                "22P02",
                f"invalid numericAttrsColumnIndices: {text!r}",
                detail=f"{s!r} is not a positive integer",
                hint="write the indices as 'ARRAY[1,2]', '{1,2}' or '1,2' (1-based positions in the attribute array)",
            )
        i = int(s)
        if not 1 <= i <= num_attrs:
            raise MadnbError(
                "22023",
                f"numeric attribute index {i} is out of range 1..{num_attrs}",
                hint="indices are 1-based positions in the attribute array, at most numAttrs",
            )
        if i in seen:
            raise MadnbError("22023", f"numeric attribute index {i} is given twice")
        seen.add(i)
        out.append(i)
    return out


@dataclass(frozen=True)
class Training:
    """A validated training specification."""

    source: Relation
    cls: Column
    attrs: Column
    num_attrs: int
    numeric: tuple[int, ...]
    given: tuple[int, ...] | None = None  # the numeric indices in the order written (default: sorted)
    cells: Sql | None = None
    """The private pass's reading of row ``t`` when the attributes are columns, not an array (madnb.train).

    A LATERAL item yielding ``u(val, o, x)``: o = 1 the class-count cell, o = i + 1
    attribute i; ``val`` a categorical attribute's value (the element type), ``x`` a
    numeric one's as float8 (NULL when missing).  None: the attribute array is
    unnested (:func:`madnb_pl.privacy.private_release.dp_attrs_sql`).
    """
    column_stats: Sql | None = None
    """The private pass's exact statistics when the attributes are columns: a SELECT of the rows
    (cls, o, v, n, s1, s2) of :func:`madnb_pl.privacy.private_release.dp_stats_select`, from
    grouping sets instead of the unpivot of ``cells``.  None: ``dp_stats_select`` computes them."""

    @property
    def numeric_given(self) -> tuple[int, ...]:
        """The numeric indices in the order the caller wrote them (public bounds follow it)."""
        return self.numeric if self.given is None else self.given

    @property
    def categorical_only(self) -> bool:
        return not self.numeric

    @property
    def numeric_only(self) -> bool:
        return len(self.numeric) == self.num_attrs

    @property
    def numeric_array_sql(self) -> Sql:
        """The numeric indices as an int[] literal (integers we parsed, not user text)."""
        return int_array(self.numeric)


def check_attr_column(col: Column, numeric: tuple[int, ...] | list[int], argument: str) -> None:
    """The attribute column must be an array; numeric attributes need a numeric element type."""
    if col.elem_sql is None:
        raise MadnbError(
            "42804",
            f'{argument} "{col.name}" is of type {col.type_sql}, not an array',
            hint="attributes are one array column, e.g. integer[], float8[], numeric[] or text[]",
        )
    if numeric and col.elem_oid not in NUMERIC_ELEMENT_TYPES:
        raise MadnbError(
            "42804",
            f'numeric attributes need a numeric array, but "{col.name}" is {col.type_sql}',
            hint="use float8[], numeric[] or an integer array, or leave the attribute categorical",
        )


def finite_number(v: object) -> bool:
    """A JSON number (not a boolean) that is finite as a float8: a huge integer (jsonb writes 1e400 out in digits) is not."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(float(v))
    except OverflowError:
        return False


def parse_smoothing(smoothing: float | None) -> float:
    """The Laplace smoothing factor s: a number in 0..MAX_SMOOTHING."""
    if smoothing is None:
        raise MadnbError("22004", "smoothing must not be NULL", hint="smoothing is the Laplace smoothing factor, 1 by default")
    if not math.isfinite(smoothing) or not 0 <= smoothing <= MAX_SMOOTHING:
        raise MadnbError(
            "22023",
            f"smoothing must be a number from 0 to {MAX_SMOOTHING:g}, got {smoothing!r}",
            hint="P(value|class) = (cnt + s) / (n + s * attr_cnt); s = 1 is Laplace smoothing, "
            "and a large s makes every probability nearly uniform",
        )
    return float(smoothing)


def training(
    plpy: Plpy, source: str | None, class_column: str | None, attr_column: str | None,
    numeric_indices: str | None, num_attrs: int | None, use_numeric: bool,
) -> Training:
    """The validated :class:`Training` of MADlib's training arguments (names resolved on the caller's search_path)."""
    n = parse_num_attrs(num_attrs)
    given = numeric_indices_as_given(numeric_indices, n) if use_numeric else []
    numeric = sorted(given)
    rel = resolve_relation(plpy, source, "trainingSource")
    cls = resolve_column(plpy, rel, class_column, "trainingClassColumn", compared=True)
    attrs = resolve_column(plpy, rel, attr_column, "trainingAttrColumn", compared=True)
    check_label_type(plpy, cls)
    cls, attrs = _of_base_type(plpy, cls), _of_base_type(plpy, attrs)
    check_attr_column(attrs, numeric, "trainingAttrColumn")
    return Training(rel, cls, attrs, n, tuple(numeric), tuple(given))


def _of_base_type(plpy: Plpy, col: Column) -> Column:
    """``col`` with a domain (or an array of a domain's elements) as its base type (:func:`madnb_pl.core.sql.base_type`).

    The statistics, the model tables and the private pass then hold base-type
    values, into which the source's domain values go without a check; nothing
    is ever coerced to the domain, whose CHECK is a function its owner wrote.
    """
    if col.elem_oid is not None:
        b = _base(plpy, col.elem_oid)
        return col if b.oid == col.elem_oid else replace(col, type_sql=f"{b.sql}[]", elem_sql=b.sql, elem_oid=b.oid)
    b = _base(plpy, col.type_oid)
    return col if b.oid == col.type_oid else replace(col, type_sql=b.sql, type_oid=b.oid)


def _base(plpy: Plpy, oid: int) -> BaseType:
    b = base_type(plpy, oid)
    assert b is not None  # the OID of a column's type
    return b


def check_label_type(plpy: Plpy, label: Column) -> None:
    """A label of a composite type (or a domain over one) is refused (42804).

    A model's classes are unnested from arrays of the label's type, which
    PostgreSQL's ROWS FROM expands into the composite's fields: the classes would
    not be one value each.
    """
    if _base(plpy, label.type_oid).typtype == "c":
        raise MadnbError(
            "42804", f'label "{label.name}" is of type {label.type_sql}, a composite type',
            hint="the label is one scalar value per row: text, varchar, boolean, an integer, numeric, a date or time, "
            "uuid, an enum, or a domain over one of them; train from a view that gives the composite as text, "
            f"e.g. SELECT ({quote_ident(label.name)})::text AS {quote_ident(label.name)}, ...",
        )


REGRESSION_MIN_CLASSES = 50
"""A numeric label with more distinct values than this, and more distinct values than half its labelled rows,
looks like a regression target (:func:`warn_suspect_classes`; docs/models.md "Suspect training")."""

NUMERIC_LABEL_TYPES = INTEGER_TYPES | FLOAT_TYPES | {NUMERIC}


def warn_suspect_classes(plpy: Plpy, statistics: str, label: Column, source: Relation) -> None:
    """A WARNING (with a HINT) when the exact statistics just written show a training that is likely a mistake.

    * one class: the model predicts it for every row;
    * a numeric label (integer, float or numeric, or a domain over one) with more
      than :data:`REGRESSION_MIN_CLASSES` distinct values and more distinct values
      than half its labelled rows: most classes rest on one or two rows, which is
      what a regression target (a price, a measurement) gives.

    The facts come from the class cells (attr 0) of ``statistics``, the statistics
    table the pass wrote: no pass over the source.  Only for exact statistics: a
    private release says nothing that depends on the data outside its noisy numbers.
    """
    r = plpy.execute(
        Sql("SELECT pg_catalog.count(*) AS k, COALESCE(pg_catalog.sum(s.n), 0)::pg_catalog.int8 AS n, "
        # format's %s is the type's own output function (no cast another role could define)
        "pg_catalog.format('%s', (pg_catalog.array_agg(s.cls))[1]) AS one "
        f"FROM {statistics} AS s WHERE s.attr OPERATOR(pg_catalog.=) 0")
    )[0]
    k, n = int(r["k"]), int(r["n"])
    if k == 1:
        plpy.warning(
            f'label "{label.name}" of {source.display} has one value in every labelled row: {r["one"]}',
            detail=f"the model has one class, which it predicts for every row with probability 1 ({n} labelled rows)",
            hint="naive Bayes tells classes apart: train on rows of at least two classes "
            "(does the source, or a WHERE clause of its view, keep only one?)",
        )
    elif k > REGRESSION_MIN_CLASSES and 2 * k > n and _base(plpy, label.type_oid).oid in NUMERIC_LABEL_TYPES:
        plpy.warning(
            f'label "{label.name}" of {source.display} has {k} distinct values in {n} labelled rows: '
            "it looks like a regression target",
            detail=f"naive Bayes is a classifier: each distinct value is a class of its own, here with fewer than two rows each on average "
            f"(madnb warns when a numeric label has more than {REGRESSION_MIN_CLASSES} distinct values and more than "
            "half as many as the labelled rows)",
            hint="to classify, train on a label with a few values (bucket it in a view, e.g. with width_bucket); "
            "to predict a number, use a regression method",
        )


__all__ = [
    "MAX_NUM_ATTRS", "MAX_SMOOTHING", "REGRESSION_MIN_CLASSES", "Training", "check_attr_column", "check_label_type",
    "numeric_indices_as_given", "parse_num_attrs", "parse_numeric_indices", "parse_smoothing", "training",
    "warn_suspect_classes",
]
def is_sharded(plpy: Plpy, source: Relation) -> bool:
    """Whether ``source`` is a partitioned table with a foreign table among its partitions."""
    return bool(
        plpy.execute(
            plpy.prepare(
                Sql("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) $1 "
                "AND c.relkind OPERATOR(pg_catalog.=) 'p' AND EXISTS (SELECT 1 FROM pg_catalog.pg_partition_tree(c.oid) p "
                "JOIN pg_catalog.pg_foreign_table f ON f.ftrelid OPERATOR(pg_catalog.=) p.relid)) AS s"),
                ["pg_catalog.oid"],
            ),
            [source.oid],
        )[0]["s"]
    )


def refuse_private(plpy: Plpy, training: Training) -> None:
    """A private release of a sharded source is refused (0A000): each shard's owner releases on its own server."""
    if is_sharded(plpy, training.source):
        raise MadnbError(
            "0A000",
            f"a private release of {training.source.display} is not supported: it has partitions on other servers",
            detail="the private pass would read every row of the foreign partitions over the network",
            hint="release each shard privately on its own server with madnb.create_nb_statistics (madnb installed there) "
            "and merge the releases with madnb.create_nb_model_from_statistics",
        )



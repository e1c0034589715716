"""The exact statistics: one aggregation pass over the training table.

Every naive Bayes model here is a function of per-class sufficient statistics.
:func:`stats_select` is the single pass over the training table, executed by
PostgreSQL's own executor (``unnest WITH ORDINALITY`` and one ``GROUP BY``).  It
yields one row per (class, attribute, value) for categorical attributes and one
row per (class, attribute) for numeric ones:

    cls, o, v, n, nv, mean, var

``n`` counts rows in the group (for ``o = 1`` or ``o IS NULL`` these are the
class's rows); ``nv``, ``mean`` and ``var`` are the count, mean and sample
variance of the non-NULL values of a numeric attribute.  :func:`check_stats`
validates the training data from that relation alone;
:func:`madnb_pl.release.statistics_table.write_exact` keeps it as a statistics table and
:func:`madnb_pl.derive.model_tables.model_ctes` derives MADlib's three tables from it (the
same SQL serves the prepared tables and the ad hoc views, so each formula lives
in one place).
Training computes the same relation faster where it can: numeric attributes by
subscript (:func:`_numeric_stats_by_subscript`), with the categorical ones of a
mixed table unnested from slices (:func:`_categorical_stats_by_slices`), and
categorical integer codes from one packed key per element
(:func:`packed_code_stats_select`).

The pass is a value (:class:`Pass`, built by :func:`plan`: its statements and the
errors they may end in) run by one decision tree (:func:`steps`), which yields each
statement over the source for its caller to run -- here into temporary tables
(:func:`materialise`), or on a shard's server (:mod:`madnb_pl.merge.shards`) -- and
checks the results where they land (:class:`Relations`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from ..core.errors import MadnbError
from ..core.sql import INT2, INT4, NAN_TYPES, Plpy, Sql, int_array, setting, temp_name, text_sql
from ..inputs.arrays import Training


def numeric_value_sql(training: Training, x: str, nan_missing: bool) -> Sql:
    """A numeric attribute value as float8; with ``nan_missing`` NaN reads NULL (missing).

    Integer arrays hold no NaN.  Training runs its fast pass without the test and
    repeats it with the test only when a statistic came out NaN (see
    :func:`materialise`), so tables without NaN pay nothing for it.
    """
    if nan_missing and training.attrs.elem_oid in NAN_TYPES:
        nan = f"'NaN'::pg_catalog.{NAN_TYPES[training.attrs.elem_oid]}"
        return Sql(f"(CASE WHEN {x} OPERATOR(pg_catalog.<>) {nan} THEN {x} END)::pg_catalog.float8")
    return Sql(f"{x}::pg_catalog.float8")


def _numeric_stats_by_subscript(training: Training, nan_missing: bool = False, mark_short: bool = False) -> Sql:
    """Numeric statistics by subscript: one GROUP BY class, no unnest.

    Yields the rows of the unnest pass for the numeric attributes of
    one-dimensional 1-based arrays (and for o IS NULL and, when some array is
    longer, o = its length), plus a row o = -1 counting arrays of any other
    shape, for which the caller reruns the unnest pass (:func:`odd_arrays`).
    With categorical attributes too, :func:`_categorical_stats_by_slices` adds
    theirs.  ``mark_short``: also a row o = -2 counting the non-empty arrays
    shorter than numAttrs (see :data:`EXACT_AS_UNNESTED`).
    """
    src, cls, a, n = training.source.sql, training.cls.sql, f"t.{training.attrs.sql}", training.num_attrs
    card = f"pg_catalog.cardinality({a})"
    aggs = [
        f"pg_catalog.count(*) FILTER (WHERE COALESCE({card}, 0) = 0) AS n_empty",
        f"pg_catalog.count(*) FILTER (WHERE {card} > 0) AS n_any",
        f"pg_catalog.count(*) FILTER (WHERE {card} >= {n}) AS n_full",
        f"pg_catalog.count(*) FILTER (WHERE {card} > {n}) AS n_long",
        f"pg_catalog.max({card})::pg_catalog.int4 AS max_len",
        f"pg_catalog.count(*) FILTER (WHERE pg_catalog.array_ndims({a}) > 1 OR pg_catalog.array_lower({a}, 1) <> 1) AS n_odd",
    ]
    rows = [
        "(NULL::pg_catalog.int4, g.n_empty, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8)",
        "(g.max_len, g.n_long, NULL, NULL, NULL)",
        "(-1, g.n_odd, NULL, NULL, NULL)",
    ] + (["(-2, g.n_any - g.n_full, NULL, NULL, NULL)"] if mark_short else [])
    for j in training.numeric:
        x = numeric_value_sql(training, f"{a}[{j}]", nan_missing)
        counted = x if nan_missing else f"{a}[{j}]"
        aggs.append(f"pg_catalog.count({counted}) AS c{j}, pg_catalog.avg({x}) AS m{j}, pg_catalog.var_samp({x}) AS v{j}")
        # rows with at least j elements: exact whenever every array has numAttrs
        # elements, which check_stats demands (it reports the others from o = 1 and o = numAttrs)
        rows.append(f"({j}, g.{'n_any' if j == 1 else 'n_full'}, g.c{j}, g.m{j}, g.v{j})")
    return Sql(
        f"SELECT g.cls, x.o, NULL::{training.attrs.elem_sql} AS v, x.n, x.nv, x.mean, x.var FROM "
        f"(SELECT t.{cls} AS cls, {', '.join(aggs)} FROM {src} AS t GROUP BY t.{cls}) AS g "
        f"CROSS JOIN LATERAL (VALUES {', '.join(rows)}) AS x(o, n, nv, mean, var) "
        f"WHERE x.n > 0 AND (x.o IS NULL OR x.o BETWEEN 1 AND {n} OR x.o = g.max_len OR x.o {'< 0' if mark_short else '= -1'})"
    )


EXACT_AS_UNNESTED = "NOT EXISTS (SELECT 1 FROM {stats} AS x WHERE x.o OPERATOR(pg_catalog.<) 0 OR x.o OPERATOR(pg_catalog.>) {n})"
"""Over the rows ``stats`` of the subscript pass with ``mark_short`` (numAttrs ``n``): whether they are the unnest
pass's rows, i.e. every array is one-dimensional, 1-based, and of n elements or none (no row o = -1, -2 or
o > n).  The one-query form of :func:`steps`' choice, for a view that trains on every query."""


MAX_SUBSCRIPT_ATTRS = 500  # numeric attributes by subscript: 3 aggregates each, at most 1664 in a select list
MAX_SLICES = 16  # beyond, concatenating the slices of each row costs more than unnesting it whole


def _categorical_runs(training: Training) -> list[tuple[int, int]]:
    """The categorical positions as runs [p, q] of consecutive positions."""
    runs: list[list[int]] = []
    numeric = set(training.numeric)
    for j in range(1, training.num_attrs + 1):
        if j in numeric:
            continue
        if runs and runs[-1][1] == j - 1:
            runs[-1][1] = j
        else:
            runs.append([j, j])
    return [(p, q) for p, q in runs]


def _categorical_stats_by_slices(training: Training) -> Sql:
    """The unnest pass over the categorical attributes of a mixed table only.

    The categorical positions are cut out of each array as slices (one per run
    of consecutive positions) and unnested; the numeric ones are left to
    :func:`_numeric_stats_by_subscript`, whose o = -1 row sends arrays that are
    not one-dimensional and 1-based (where slices mean something else) back to
    the unnest pass.  An empty or NULL array yields no row here: the subscript
    pass counts it.
    """
    a = f"t.{training.attrs.sql}"
    runs = _categorical_runs(training)
    pieces = " || ".join(f"{a}[{p}:{q}]" for p, q in runs)
    where = int_array(j for p, q in runs for j in range(p, q + 1))
    return Sql(
        f"SELECT t.{training.cls.sql} AS cls, ({where})[u.r] AS o, u.val AS v, pg_catalog.count(*) AS n, "
        "NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var "
        f"FROM {training.source.sql} AS t CROSS JOIN LATERAL pg_catalog.unnest({pieces}) WITH ORDINALITY AS u(val, r) "
        "GROUP BY 1, 2, 3"
    )


def odd_arrays(plpy: Plpy, stats: str) -> bool:
    """Whether the subscript pass met arrays that are not one-dimensional and 1-based."""
    return bool(plpy.execute(Sql(f"SELECT EXISTS (SELECT 1 FROM {stats} AS s WHERE s.o = -1) AS odd"))[0]["odd"])


# ---------------------------------------------------------------------------
# Categorical integer codes: the same statistics from a packed key
# ---------------------------------------------------------------------------
#
# For categorical-only training on smallint[] or integer[] attributes the pass
# groups on one int8 per element, k = v * 2**27 + o (an array holds fewer than
# 2**27 elements, so o < 2**27; |v| < 2**31, so k fits an int8 and decodes as
# v = k >> 27, o = k & (2**27 - 1)).  Both come from set-returning functions in
# the select list, in lock-step: unnest(attributes) and unnest('{1..numAttrs}').
# That is about 20% cheaper than unnest ... WITH ORDINALITY in FROM (which
# materialises each row's elements in a tuplestore) and it still aggregates in
# parallel (measured in bench/results/scoring.md).  What the packed key cannot
# carry is taken from a cheap first pass per class (rows, empty arrays, arrays
# of another length): the NULL elements of attribute o are the class's
# full-length rows minus its non-NULL values at o.  A table with an array of
# another length goes through :func:`stats_select`, whose relation gives
# :func:`check_stats` what it needs for its error messages.

PACKED_CODE_TYPES = {INT2: "smallint", INT4: "integer"}
PACKED_MAX_ATTRS = 10_000  # the positions are written as an array literal
_PACK = 1 << 27


def packed_key(code: str, position: str) -> str:
    """The packed key ``code * 2**27 + position`` (int8) of integer code ``code`` at ``position``; SQL in, SQL out.

    The one spelling of the packing: the exact pass groups on it
    (:func:`packed_code_stats_select`), the column pass too
    (:func:`madnb_pl.release.column_pass.stats_select`, position the feature's
    number), the private release too
    (:func:`madnb_pl.privacy.private_release.dp_packed_stats_select`), and the
    release joins its public domain's cells to it.  A code of 32 bits at most and a
    position below 2**27 fit the int8; :func:`unpacked` reads them back.
    """
    # parenthesised whole: every OPERATOR(...) has the same precedence, so a comparison with the key would bind first
    return f"((({code})::pg_catalog.int8 OPERATOR(pg_catalog.*) {_PACK}) OPERATOR(pg_catalog.+) {position})"


def unpacked(key: str) -> tuple[str, str]:
    """The SQL of the position (int4) and of the code (int8) of :func:`packed_key` ``key``: its low 27 bits, and the
    rest shifted down (arithmetic, so a negative code comes back as it was)."""
    return (f"({key} OPERATOR(pg_catalog.&) {_PACK - 1}::pg_catalog.int8)::pg_catalog.int4",
            f"({key} OPERATOR(pg_catalog.>>) 27)")


def packed_gather_factor(training: Training) -> float:
    """parallel_tuple_cost's factor (:func:`gather_cost`) for a statement that unnests packed keys in a select list.

    PostgreSQL costs a Gather of every element by the table's rows, not the
    numAttrs elements per row it would pass on (a 20,000 x 1,000 table was planned
    as Gather + Sort of 20 million elements: 11 s instead of 1.6 s); a higher
    per-tuple cost corrects that.  numAttrs / 2: the full factor also charges the
    few partial groups so much that a 10,000 x 500 table was planned serially.
    """
    return max(1.0, training.num_attrs / 2)


def packs_codes(training: Training) -> bool:
    """Whether :func:`packed_code_stats_select` applies to this training."""
    return training.categorical_only and training.attrs.elem_oid in PACKED_CODE_TYPES and training.num_attrs <= PACKED_MAX_ATTRS


def code_shape_select(training: Training) -> Sql:
    """Per class: rows, rows with a NULL or empty array, rows with another number of elements."""
    a, n = f"t.{training.attrs.sql}", training.num_attrs
    card = f"pg_catalog.cardinality({a})"
    return Sql(
        f"SELECT t.{training.cls.sql} AS cls, pg_catalog.count(*) AS n_rows, "
        f"pg_catalog.count(*) FILTER (WHERE COALESCE({card}, 0) = 0) AS n_empty, "
        f"pg_catalog.count(*) FILTER (WHERE {card} > 0 AND {card} <> {n}) AS n_other "
        f"FROM {training.source.sql} AS t GROUP BY 1"
    )


def packed_code_stats_select(training: Training) -> Sql:
    """The non-NULL (class, o, v) counts of the classed rows, shaped like :func:`stats_select`.

    Meant for a table whose arrays all have numAttrs elements (or none): the
    caller checks that with :func:`code_shape_select` first and adds the NULL
    and empty-array rows with :func:`packed_code_rest_select`.  PostgreSQL's
    planner costs a Gather above a set-returning function by the table's rows, so
    the caller scales parallel_tuple_cost by numAttrs for this statement: without
    that it gathers every element into the leader rather than aggregating in
    workers.
    (OFFSET 0 keeps ``k IS NOT NULL`` after the aggregate: pushed below it, the
    test would run once per element.)
    """
    positions = int_array(range(1, training.num_attrs + 1), "int8")
    key = packed_key(f"pg_catalog.unnest(t.{training.attrs.sql})", f"pg_catalog.unnest({positions})")
    o, v = unpacked("g.k")
    return Sql(
        f"SELECT g.cls, {o} AS o, {v}::{training.attrs.elem_sql} AS v, g.n, "
        "NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var "
        f"FROM (SELECT e.cls, e.k, pg_catalog.count(*) AS n FROM (SELECT t.{training.cls.sql} AS cls, {key} AS k "
        f"FROM {training.source.sql} AS t WHERE t.{training.cls.sql} IS NOT NULL) AS e GROUP BY 1, 2 OFFSET 0) AS g "
        "WHERE g.k IS NOT NULL"
    )


def packed_code_rest_select(training: Training, stats: str, shape: str) -> Sql:
    """The rows :func:`packed_code_stats_select` leaves out, from the class shapes.

    Per class: (cls, o, NULL) with the NULL elements at o (full-length rows
    less the non-NULL values counted at o), (cls, NULL, NULL) with the rows
    whose array is NULL or empty, and for the NULL class one (NULL, NULL, NULL)
    row with its row count -- what :func:`stats_select` yields for them.
    """
    rest = "NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8"
    return Sql(
        f"SELECT h.cls, g.o::pg_catalog.int4, NULL::{training.attrs.elem_sql}, (h.n_rows - h.n_empty - COALESCE(x.n, 0))::pg_catalog.int8, {rest} "
        f"FROM {shape} AS h CROSS JOIN pg_catalog.generate_series(1, {training.num_attrs}) AS g(o) "
        f"LEFT JOIN (SELECT s.cls, s.o, pg_catalog.sum(s.n) AS n FROM {stats} AS s GROUP BY 1, 2) AS x "
        "ON x.cls = h.cls AND x.o = g.o "
        "WHERE h.cls IS NOT NULL AND h.n_rows - h.n_empty - COALESCE(x.n, 0) > 0 "
        f"UNION ALL SELECT h.cls, NULL, NULL, h.n_empty, {rest} FROM {shape} AS h "
        "WHERE h.cls IS NOT NULL AND h.n_empty > 0 "
        f"UNION ALL SELECT h.cls, NULL, NULL, h.n_rows, {rest} FROM {shape} AS h WHERE h.cls IS NULL"
    )


# ---------------------------------------------------------------------------
# The pass as a value: built once (:func:`plan`), run here or on a shard
# ---------------------------------------------------------------------------

PASS, SHAPE, REFINED = "pass", "shape", "refined"
"""The relations of a pass: its statistics rows, the class shapes (packed codes), the shifted pass (far from zero)."""


@dataclass(frozen=True)
class Scan:
    """One statement over the training source, whose rows make relation ``into`` of the pass.

    ``gather_factor``: parallel_tuple_cost times this for the statement (see
    :func:`gather_cost`); ``overflow``: the error to raise when the statement
    overflows a float8 (22003), instead of PostgreSQL's bare one.
    """

    into: str
    select: Sql
    gather_factor: float | None = None
    overflow: MadnbError | None = None


class Relations(Protocol):
    """Where the relations of a pass live: temporary tables here (:class:`TempTables`), a shard's rows in the
    coordinator's tables (:mod:`madnb_pl.merge.shards`), a sub-select (:class:`Inline`).  Whoever runs the
    :class:`Scan` statements puts their rows there."""

    def read(self, role: str) -> str:
        """The rows of relation ``role`` so far, as a relation to select from."""
        ...

    def add(self, role: str, select: Sql) -> None:
        """Append rows computed here (not a scan of the source) to relation ``role``."""
        ...

    def clear(self, role: str) -> None:
        """Forget relation ``role`` (before it is computed again, or when it is no longer needed)."""
        ...


@dataclass(frozen=True)
class Pass:
    """The statistics pass of one training table: its statements and the rules that choose among them.

    Built by :func:`plan`; :func:`steps` is the one decision tree that runs it, on a
    local table (:func:`materialise`) or on a shard (:mod:`madnb_pl.merge.shards`), so
    a rule added here reaches both.  ``training`` is what the messages name (and
    what the statements run here read); the scans read the table they were planned
    over; ``where`` names the partition they run on (None: the table itself).
    """

    training: Training
    where: str | None
    shape: Scan | None  # packed integer codes (packs_codes): the class shapes, then ...
    packed: Scan | None  # ... the packed-code pass, unless some array has another length
    first: Scan  # otherwise the pass, numeric attributes by subscript where it can
    reruns: tuple[Scan, Scan] | None  # NaN as missing: by subscript, or unnested after odd arrays; None: no numeric attribute

    def infinite(self, bad: dict[str, Any]) -> MadnbError:
        """The error for an infinite numeric value (the pass with NaN as missing still gave a non-finite statistic)."""
        training = self.training
        return MadnbError(
            "22003",
            f"numeric attribute {bad['o']} of {training.source.display} has an infinite value",
            detail=_at(f'column "{training.attrs.name}", class {bad["cls"]}', self.where),
            hint="Gaussian attributes need finite values: replace an infinity by NULL (a missing value) or clip it",
        )


def _at(detail: str, where: str | None) -> str:
    """A message's DETAIL, naming the partition the pass ran on (if not the table itself)."""
    return detail if where is None else f"{detail}, {where}"


def plan(training: Training, scanned: Training | None = None, where: str | None = None) -> Pass:
    """The statistics pass of ``t``: packed integer codes, numeric attributes by subscript (with categorical
    slices), or the general unnest pass, to which the first two fall back for arrays of another shape.

    ``scanned``: ``t`` with the table (and column names) the statements read, when that is not ``t.source``
    (a partition, or a shard's remote table); ``where`` names it in messages.  A finite numeric value too
    large for float8's sum of squares (beyond about 1e154) makes PostgreSQL's ``var_samp`` overflow: that is
    22003 naming the training source, with a hint.
    """
    s = scanned or training
    overflow = None
    if training.numeric:
        overflow = MadnbError(
            "22003",
            f"a numeric attribute of {training.source.display} holds values too large for its mean and variance in float8",
            detail=_at(f'column "{training.attrs.name}", numeric attributes {list(training.numeric_given)}', where),
            hint="Gaussian attributes need values whose squares fit a float8 (about within +-1e154): "
            "rescale the column in a view, or make the attribute categorical",
        )
    shape = packed = None
    if packs_codes(training):
        shape = Scan(SHAPE, code_shape_select(s))
        packed = Scan(PASS, packed_code_stats_select(s), gather_factor=packed_gather_factor(training))
    reruns = None
    if training.numeric:
        reruns = (
            Scan(PASS, stats_select(s, by_subscript=True, nan_missing=True), overflow=overflow),
            Scan(PASS, stats_select(s, by_subscript=False, nan_missing=True), overflow=overflow),
        )
    return Pass(training, where, shape, packed, Scan(PASS, stats_select(s), overflow=overflow), reruns)


def steps(plpy: Plpy, p: Pass, rels: Relations) -> Generator[Scan, None, None]:
    """The decision tree of pass ``p``: yields each statement to run over the source, whose rows the caller puts
    into ``rels`` before resuming; decides the next from them (checks run here, on ``rels``).

    The pass relation ``rels.read(PASS)`` then holds the statistics (see :func:`stats_select`).
    """
    training = p.training
    if p.shape is not None and p.packed is not None:
        yield p.shape
        shape = rels.read(SHAPE)
        odd = plpy.execute(Sql(f"SELECT EXISTS (SELECT 1 FROM {shape} AS h WHERE h.cls IS NOT NULL AND h.n_other > 0) AS odd"))[0]["odd"]
        if not odd:
            yield p.packed
            rels.add(PASS, packed_code_rest_select(training, rels.read(PASS), shape))
        rels.clear(SHAPE)
        if not odd:
            return
    yield p.first
    if p.reruns is None:
        return
    by_subscript = not odd_arrays(plpy, rels.read(PASS))
    if by_subscript and _nonfinite_stats(plpy, rels.read(PASS), training) is None:
        return
    # NaN counts as a missing value.  The fast pass does not test for it: a NaN (or
    # infinite) statistic says there is one, and the pass runs again with the test.
    rels.clear(PASS)
    yield p.reruns[0 if by_subscript else 1]
    bad = _nonfinite_stats(plpy, rels.read(PASS), training)
    if bad is not None:
        raise p.infinite(bad)


class TempTables:
    """The relations of a pass as temporary tables of this session (dropped at commit), filled here.

    Each :class:`Scan` runs as ``CREATE TEMPORARY TABLE ... AS`` (which, unlike
    ``INSERT ... SELECT``, may run it with parallel workers).
    """

    def __init__(self, plpy: Plpy, prefixes: dict[str, str] | None = None) -> None:
        self.plpy = plpy
        self.prefixes = {PASS: "madnb_stats_", SHAPE: "madnb_shape_", REFINED: "madnb_refined_", **(prefixes or {})}
        self.names: dict[str, Sql] = {}

    def read(self, role: str) -> str:
        return self.names[role]

    def fill(self, scan: Scan) -> None:
        """Run ``scan`` into its temporary table."""
        name = self.names.setdefault(scan.into, temp_name(self.prefixes[scan.into]))
        create = Sql(f"CREATE TEMPORARY TABLE {name} ON COMMIT DROP AS {scan.select}")
        try:
            if scan.gather_factor is None:
                self.plpy.execute(create)
            else:
                with gather_cost(self.plpy, scan.gather_factor):
                    self.plpy.execute(create)
        except self.plpy.spiexceptions.NumericValueOutOfRange as e:
            if scan.overflow is None:
                raise
            raise scan.overflow from e

    def add(self, role: str, select: Sql) -> None:
        self.plpy.execute(Sql(f"INSERT INTO {self.names[role]} {select}"))

    def clear(self, role: str) -> None:
        self.plpy.execute(Sql(f"DROP TABLE {self.names[role]}"))  # a Scan into it again creates it again, of the same name

    def run(self, scans: Iterable[Scan]) -> None:
        """Run the statements of a pass here, each as it is asked for."""
        for scan in scans:
            self.fill(scan)


class Inline:
    """The relations of a pass as sub-selects: nothing is stored, each reader runs the statement itself.

    For a statement read once (the column form's shifted pass, see
    :func:`madnb_pl.release.statistics_table.refine_steps`).
    """

    def __init__(self) -> None:
        self.selects: dict[str, Sql] = {}

    def read(self, role: str) -> str:
        return f"({self.selects[role]})"

    def fill(self, scan: Scan) -> None:
        self.selects[scan.into] = scan.select

    def add(self, role: str, select: Sql) -> None:
        raise NotImplementedError("an inline relation takes no rows")

    def clear(self, role: str) -> None:
        self.selects.pop(role, None)

    def run(self, scans: Iterable[Scan]) -> None:
        for scan in scans:
            self.fill(scan)


def materialise(plpy: Plpy, training: Training, scanned: Training | None = None, where: str | None = None) -> str:
    """Run the statistics pass of ``t`` (:func:`plan`, :func:`steps`) into a temporary relation (dropped at
    commit); return its name.  ``scanned``, ``where``: see :func:`plan`."""
    rels = TempTables(plpy)
    rels.run(steps(plpy, plan(training, scanned, where), rels))
    return rels.read(PASS)


def _nonfinite_stats(plpy: Plpy, stats: str, training: Training) -> dict[str, Any] | None:
    """The first numeric statistic that is NaN or infinite, if any (from the statistics only).

    Before NaN is treated as missing, such a statistic means a NaN or an
    infinite value; afterwards only an infinite one (avg and var_samp raise an
    error themselves when finite values overflow).
    """
    f8 = "pg_catalog.float8"
    # the class's text for a message: its type's output function (an enum's owner may plant a cast to text)
    rows = plpy.execute(
        Sql(f"SELECT s.o, {text_sql('s.cls', builtin=False)} AS cls, s.mean, s.var FROM "
        f"{stats} AS s WHERE s.o OPERATOR(pg_catalog.=) ANY ({training.numeric_array_sql}) AND ("
        f"s.mean OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity', '-Infinity']::{f8}[]) "
        f"OR s.var OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity']::{f8}[])) "
        "ORDER BY s.o LIMIT 1")
    )
    return rows[0] if rows else None


def gather_cost(plpy: Plpy, factor: float) -> contextlib.AbstractContextManager[None]:
    """parallel_tuple_cost times factor for the statements inside, then the caller's setting again."""
    return setting(plpy, "parallel_tuple_cost", lambda old: repr(float(old) * factor))


def stats_select(
    training: Training, by_subscript: bool = True, nan_missing: bool = False, mark_short: bool = False, rows: str | None = None,
) -> Sql:
    """The one aggregation pass over the training table (see the module docstring).

    ``nan_missing``: a NaN numeric value is a missing value.  The unnest pass
    always tests for NaN.  ``mark_short``: see :func:`_numeric_stats_by_subscript`.
    ``rows``: the unnest pass's FROM item instead of the training table (a sub-select
    of its rows, aliased by the pass); not with ``by_subscript``.
    """
    src, cls, attrs = training.source.sql, training.cls.sql, training.attrs.sql
    assert rows is None or not by_subscript
    elem = training.attrs.elem_sql
    # three aggregates per numeric attribute in one select list, which holds at most 1664
    by_subscript = by_subscript and len(training.numeric) <= MAX_SUBSCRIPT_ATTRS
    if training.numeric_only and by_subscript:
        return Sql(_numeric_stats_by_subscript(training, nan_missing, mark_short))
    if training.numeric and by_subscript and len(_categorical_runs(training)) <= MAX_SLICES:
        return Sql(f"{_categorical_stats_by_slices(training)} UNION ALL {_numeric_stats_by_subscript(training, nan_missing, mark_short)}")
    x = numeric_value_sql(training, "u.val", True)
    if training.categorical_only:
        v, nv, mean, var = "u.val", "NULL::pg_catalog.int8", "NULL::pg_catalog.float8", "NULL::pg_catalog.float8"
    else:
        isnum = f"u.o = ANY ({training.numeric_array_sql})"
        v = f"NULL::{elem}" if training.numeric_only else f"CASE WHEN {isnum} THEN NULL ELSE u.val END"
        only_numeric = "" if training.numeric_only else f" FILTER (WHERE {isnum})"
        nv, mean, var = (f"pg_catalog.{agg}({x}){only_numeric}" for agg in ("count", "avg", "var_samp"))
    return Sql(
        f"SELECT t.{cls} AS cls, u.o::pg_catalog.int4 AS o, {v} AS v, pg_catalog.count(*) AS n, "
        f"{nv} AS nv, {mean} AS mean, {var} AS var "
        f"FROM {src if rows is None else rows} AS t LEFT JOIN LATERAL pg_catalog.unnest(t.{attrs}) WITH ORDINALITY AS u(val, o) ON true "
        f"GROUP BY 1, 2, 3"
    )


CLASS_ROWS_OF_PASS = "(s.o = 1 OR s.o IS NULL)"
"""The rows of the statistics pass whose counts add up to a class's rows."""
CLASS_ROWS_OF_TABLE = "s.o OPERATOR(pg_catalog.=) 0"
"""The class-count rows of a statistics table (attr 0, see madnb_pl.release.statistics_table)."""


COUNTS = "pg_catalog.int8"
"""The type of the counts of MADlib's model tables (rows); weighted statistics' are :data:`WEIGHTED_COUNTS`."""
WEIGHTED_COUNTS = "pg_catalog.float8"
"""The type of the counts of a weighted model's tables: sums of sample weights (madnb.train's weight)."""


def class_counts_cte(cells: str, class_rows: str = CLASS_ROWS_OF_PASS, counts: str = COUNTS) -> tuple[str, Sql]:
    """The CTE ``cc`` (cls, class_cnt): each class's training rows, summed from a statistics relation.

    The one place the class counts are written: the statistics table keeps them
    (:func:`madnb_pl.release.statistics_table.write_exact`) and the class priors are
    derived from them (:func:`madnb_pl.derive.model_tables.model_ctes`).  ``class_rows`` selects
    the rows whose ``n`` add up to them: those of the pass, or attr 0 of a table; ``counts``: their type.
    """
    return (
        "cc",
        Sql(
            f"SELECT s.cls, pg_catalog.sum(s.n)::{counts} AS class_cnt FROM {cells} AS s "
            f"WHERE s.cls IS NOT NULL AND {class_rows} GROUP BY s.cls"
        ),
    )


def check_stats(plpy: Plpy, stats: str, training: Training) -> dict[str, int]:
    """Validate the training data from the statistics alone (no second pass).

    Every row must have exactly numAttrs attributes (NULL elements allowed); a
    NULL or empty array counts as a row whose attributes are all missing.
    Returns counts, and emits a NOTICE for rows with a NULL class.
    """
    r = plpy.execute(
        Sql("SELECT "
        f" COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS null_class_rows,"
        f" COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS rows,"
        f" COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = 1), 0)::int8 AS with_attrs,"
        f" COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = {training.num_attrs}), 0)::int8 AS full_length,"
        f" COALESCE(pg_catalog.max(o) FILTER (WHERE cls IS NOT NULL), 0)::int8 AS max_len,"
        f" pg_catalog.count(DISTINCT cls)::int8 AS classes"
        f" FROM {stats} AS s")
    )[0]
    if r["null_class_rows"]:
        plpy.notice(
            f"{r['null_class_rows']} row(s) of {training.source.display} with a NULL class were ignored",
            detail=f'class column "{training.cls.name}"',
        )
    if r["rows"] == 0:
        raise MadnbError(
            "22023",
            f"training source {training.source.display} has no rows with a non-NULL class",
            hint="train on a table with at least one labelled row",
        )
    if r["max_len"] > training.num_attrs:
        raise MadnbError(
            "2202E",
            f"attribute arrays have up to {r['max_len']} elements but numAttrs is {training.num_attrs}",
            detail=f'column "{training.attrs.name}" of {training.source.display}',
            hint="set numAttrs to the length of the attribute arrays",
        )
    if r["full_length"] != r["with_attrs"]:
        raise MadnbError(
            "2202E",
            f"{r['with_attrs'] - r['full_length']} attribute array(s) have fewer than numAttrs = {training.num_attrs} elements",
            detail=f'column "{training.attrs.name}" of {training.source.display}',
            hint="every row needs exactly numAttrs attributes; use NULL elements for missing values",
        )
    return {k: int(v) for k, v in r.items()}


__all__ = [
    "CLASS_ROWS_OF_PASS", "CLASS_ROWS_OF_TABLE", "EXACT_AS_UNNESTED", "PASS", "REFINED", "SHAPE", "Inline", "Pass", "Relations", "Scan",
    "TempTables", "check_stats", "class_counts_cte", "COUNTS", "WEIGHTED_COUNTS", "gather_cost", "materialise", "numeric_value_sql", "plan",
    "packed_gather_factor", "packed_key", "packs_codes", "stats_select", "steps", "unpacked",
]

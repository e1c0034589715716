"""Statistics tables: the released object between the training data and a model.

A statistics table holds the sufficient statistics of one training table, one
row per released cell:

    cls    class type      the class label
    attr   int4            0: the class's row count; i: attribute i
    value  element type    a categorical value (NULL for attr 0 and numeric attributes)
    n      numeric         attr 0: rows of the class; categorical attr: rows of the class
                           whose attribute equals value; NULL for a numeric attribute
    nv     int8            exact, numeric attr: non-missing values of the class (weighted: their
                           weights' sum, numeric; see :attr:`Header.weighted`)
    mean   float8          exact, numeric attr: their mean
    mean_lo float8         exact, numeric attr: what the mean is above ``mean`` (a double-double
                           mean + mean_lo; NULL = 0): set where the values sit far from 0
                           compared with their spread (see :func:`refine_steps`)
    var    float8          exact, numeric attr: their sample variance (M2 = var * (nv - 1)),
                           NULL below two values
    s1     numeric         private, numeric attr: noisy sum of the fixed-point values
    s2     numeric         private, numeric attr: noisy sum of their squares; weighted: M2

Exact statistics store (count, mean, sample variance), which parts merge with
Chan et al.'s parallel formula (:mod:`madnb_pl.derive.model_tables`); private statistics
store every cell of the public domain exactly as released (raw noisy integers,
possibly negative, never clamped), with the fixed-point scale in the header.

The header is the table's comment: ``madnb statistics `` followed by a JSON
object (:class:`Header`).  A private release is charged and ledgered by
:func:`madnb_pl.privacy.private_release.charge`, exactly as private training is.

The exact release is :func:`write_exact` (here); the private one is
:func:`madnb_pl.privacy.private_release.write_private`.
"""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Callable, Generator
from dataclasses import asdict, dataclass, replace

from ..core.errors import MadnbError
from ..core.names import NewName, QualifiedName, Relation
from ..core.sql import F8, Plpy, Sql, int_array, temp_name, with_clause
from ..inputs import privacy_parameters
from ..inputs.arrays import Training
from . import array_pass

FORMAT = 1
COMMENT_PREFIX = "madnb statistics "
EXACT = "exact"
PRIVATE_MODE = "private"
KEPT_SCHEMA = "madnb_statistics"
"""The schema where training keeps the statistics it derived its model from (migration 0005)."""


_SUM_FIELDS = ("parts", "release_ids", "vector", "binarize", "weighted")  # left out of the header text when None


@dataclass(frozen=True)
class Header:
    """What a statistics table is: everything a merge must agree on, and where it came from."""

    format: int
    id: str  # a fresh UUID per statistics table (a part listed twice is refused by it)
    mode: str  # 'exact' or 'private'
    num_attrs: int
    numeric: list[int]  # numeric attribute indices in the order given
    class_type: str
    element_type: str
    source: str
    created_at: str
    bounds: list[list[float]] | None = None  # private: [attr, lower, upper] in the order given
    fixed_point_bits: int | None = None
    fixed_point_scale: int | None = None
    domain: str | None = None
    domain_fingerprint: str | None = None  # md5 of the public domain's cells (private)
    epsilon: str | None = None
    epsilon_per_query: float | None = None
    delta: float | None = None
    release_id: int | None = None  # the privacy ledger's release id (private)
    guarantee: str | None = None
    # A sum of parts (the statistics a model keeps, see :func:`sum_header`): the ids of
    # every released part in it, and (private) their ledger release ids.  None: this
    # table is one release, its own id (and release_id) the only ones.  A release id
    # is an int for this database's ledger, else "<id> on server <name>" (:func:`read_on_server`).
    parts: list[str] | None = None
    release_ids: list[int | str] | None = None
    # Statistics of the vector kinds (madnb_pl.models.vector: multinomial, Bernoulli, complement):
    # "dense" (attr j: element j) or "tsvector" (attr 1, value: the lexeme), n the sum of the
    # values -- or, with binarize b, the count of values > b.  None: MADlib-style statistics.
    vector: str | None = None
    binarize: float | None = None
    # Weighted statistics (madnb.train's weight, scikit-learn's sample_weight): n and nv are sums of weights
    # (nv numeric), mean the weighted mean, var M2 / (nv - 1) where nv > 1 (else NULL) and s2 M2 itself, the
    # weighted centred second moment.  They derive the model they were released for and are never merged
    # (:func:`madnb_pl.merge.part_sums.refuse_weighted`).  None: every row counts 1.
    weighted: bool | None = None

    def text(self) -> str:
        fields = asdict(self)
        for key in _SUM_FIELDS:  # a single release's header says nothing about sums (nor about vectors)
            if fields[key] is None:
                del fields[key]
        return COMMENT_PREFIX + json.dumps(fields, sort_keys=True)

    @property
    def private(self) -> bool:
        return self.mode == PRIVATE_MODE

    @property
    def numeric_sorted(self) -> tuple[int, ...]:
        return tuple(sorted(self.numeric))

    @property
    def part_ids(self) -> list[str]:
        """The ids of the released parts summed into this table (its own id for one release)."""
        return list(self.parts) if self.parts is not None else [self.id]

    @property
    def ledger_releases(self) -> list[int | str]:
        """The privacy ledger's release ids of those parts (none for exact statistics)."""
        if self.release_ids is not None:
            return list(self.release_ids)
        return [self.release_id] if self.release_id is not None else []

    def numeric_bounds(self) -> privacy_parameters.NumericBounds:
        """The fixed-point encoding of a private part (attribute order)."""
        pairs = tuple(sorted((int(a), float(lo), float(hi)) for a, lo, hi in (self.bounds or [])))
        return privacy_parameters.NumericBounds(pairs, int(self.fixed_point_bits or privacy_parameters.FIXED_POINT_BITS))


def read_on_server(h: Header, server: str) -> Header:
    """The header of a statistics table read from foreign server ``server``, saying so.

    Its source names the server, and its ledger release ids become
    ``"<id> on server <server>"``: release ids number each server's own ledger
    (two owners' first releases are both release 1), so only so qualified do
    they tell one release from another, here and in any sum that holds them.
    """
    sources = ", ".join(s if s == "..." else f"{s} on server {server}" for s in h.source.split(", "))
    releases: list[int | str] = [f"{r} on server {server}" for r in h.ledger_releases]
    return replace(h, source=sources, release_ids=releases if releases else h.release_ids)


COLUMNS = ("cls", "attr", "value", "n", "nv", "mean", "mean_lo", "var", "s1", "s2")
"""The columns of a statistics table, in order."""
FIXED_COLUMN_TYPES = {
    "attr": "integer", "n": "numeric", "nv": "bigint", "mean": "double precision", "mean_lo": "double precision",
    "var": "double precision", "s1": "numeric", "s2": "numeric",
}
"""The types of the columns that are the same in every statistics table, as ``format_type`` spells them."""


def columns_ddl(class_type: str, element_type: str, weighted: bool = False) -> Sql:
    """The column list of a statistics table whose classes and values have these (madnb-formatted) types
    (``weighted``: nv is a sum of weights, numeric; see :attr:`Header.weighted`)."""
    nv = "pg_catalog.numeric" if weighted else "pg_catalog.int8"
    return Sql(
        f"(cls {class_type}, attr pg_catalog.int4 NOT NULL, value {element_type}, "
        f"n pg_catalog.numeric, nv {nv}, mean pg_catalog.float8, mean_lo pg_catalog.float8, var pg_catalog.float8, "
        "s1 pg_catalog.numeric, s2 pg_catalog.numeric)"
    )


def create_table(plpy: Plpy, dest: QualifiedName, training: Training, weighted: bool = False) -> None:
    """Create the statistics table ``dest`` of training ``t`` (see the module docstring for its columns)."""
    create_with_types(plpy, dest, training.cls.type_sql, str(training.attrs.elem_sql), weighted)


def create_with_types(plpy: Plpy, dest: QualifiedName, class_type: str, element_type: str, weighted: bool = False) -> None:
    """Create an empty statistics table ``dest`` whose classes and values have these types.

    A table of schema madnb_statistics (the statistics a training keeps) is made by
    ``madnb._create_kept_statistics`` as a copy of a temporary table of the same
    columns, owned by the calling role: roles given madnb.grant_usage may not
    create objects in that schema (one could block another role's drop with a
    view there), so madnb creates their tables for them.
    """
    ddl = columns_ddl(class_type, element_type, weighted)
    if dest.schema != KEPT_SCHEMA:
        plpy.execute(Sql(f"CREATE TABLE {dest.sql} {ddl}"))
        return
    template = temp_name("madnb_kept_")
    plpy.execute(Sql(f"CREATE TEMPORARY TABLE {template} {ddl}"))
    plpy.execute(
        plpy.prepare(
            Sql("SELECT madnb._create_kept_statistics($1, $2::pg_catalog.regclass, CURRENT_USER)"),
            ["pg_catalog.text", "pg_catalog.text"],
        ),
        [dest.name, str(template)],
    )
    plpy.execute(Sql(f"DROP TABLE {template}"))


def now(plpy: Plpy) -> str:
    return str(
        plpy.execute(
            Sql("SELECT pg_catalog.to_char(pg_catalog.statement_timestamp() AT TIME ZONE 'UTC', "
            "'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') AS t")
        )[0]["t"]
    )


def write_header(plpy: Plpy, name_sql: str, header: Header) -> None:
    plpy.execute(Sql(f"COMMENT ON TABLE {name_sql} IS {plpy.quote_literal(header.text())}"))


def write_exact(plpy: Plpy, training: Training, dest: NewName | Relation) -> Header:
    """The exact statistics pass of ``t`` into a new statistics table ``dest``; return its header.

    Runs :func:`madnb_pl.release.array_pass.materialise` (the same fast passes as ever) and
    :func:`madnb_pl.release.array_pass.check_stats`, then keeps per class its row count (the class-count
    CTE of :func:`madnb_pl.release.array_pass.class_counts_cte`, the one place it is written), the non-NULL
    categorical cells, and per numeric attribute (nv, mean, sample variance), refined where the values sit far
    from zero (:func:`refine_far_from_zero`).  A partitioned source with foreign partitions is computed on its
    shards instead (:func:`madnb_pl.merge.part_sources.write_exact_here_or_on_shards` chooses), by the same pass.
    """
    s = array_pass.materialise(plpy, training)
    array_pass.check_stats(plpy, s, training)
    create_table(plpy, dest, training)
    insert_cells(plpy, training, s, dest.sql)
    plpy.execute(Sql(f"DROP TABLE {s}"))
    refine_far_from_zero(plpy, refinement(training), dest.sql)
    return write_exact_header(plpy, training, dest)


def exact_header(training: Training, created_at: str, id: str | None = None, source: str | None = None) -> Header:
    """The header of exact statistics of ``t``: the one place it is built (MADlib arrays, columns, shards' parts).

    ``id``: a fresh UUID unless given; ``source``: ``t.source``'s name unless given.
    """
    return Header(
        format=FORMAT, id=str(uuid.uuid4()) if id is None else id, mode=EXACT, num_attrs=training.num_attrs,
        numeric=list(training.numeric_given), class_type=training.cls.type_sql, element_type=str(training.attrs.elem_sql),
        source=training.source.display if source is None else source, created_at=created_at,
    )


def write_exact_header(plpy: Plpy, training: Training, dest: NewName | Relation) -> Header:
    """Write the header of the exact statistics of ``t`` just written into ``dest``; return it."""
    header = exact_header(training, now(plpy))
    write_header(plpy, dest.sql, header)
    return header


def insert_cells(plpy: Plpy, training: Training, s: str, dest: str) -> None:
    """Insert the cells of statistics pass relation ``s`` (checked by :func:`stats.check_stats`) into table ``dest``."""
    cc = with_clause([array_pass.class_counts_cte(s)])
    num = training.numeric_array_sql
    f8, i8 = F8, "pg_catalog.int8"
    # class rows, then categorical cells (non-NULL values), then numeric cells, in one statement
    plpy.execute(
        Sql(f"{cc} INSERT INTO {dest} (cls, attr, value, n, nv, mean, var) "
        f"SELECT cc.cls, 0, NULL, cc.class_cnt, NULL::{i8}, NULL::{f8}, NULL::{f8} FROM cc "
        f"UNION ALL SELECT s.cls, s.o, s.v, s.n, NULL, NULL, NULL FROM {s} AS s "
        "WHERE s.cls IS NOT NULL AND s.v IS NOT NULL AND s.o OPERATOR(pg_catalog.>=) 1 "
        f"AND s.o OPERATOR(pg_catalog.<=) {training.num_attrs} AND NOT s.o OPERATOR(pg_catalog.=) ANY ({num}) "
        f"UNION ALL SELECT s.cls, s.o, NULL, NULL, s.nv, s.mean, s.var FROM {s} AS s "
        f"WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) ANY ({num})")
    )


FAR_FROM_ZERO = 1e8
"""A numeric cell is refined when mean**2 > FAR_FROM_ZERO * variance (|mean| > 1e4 standard deviations)."""


@dataclass(frozen=True)
class Refinement:
    """What the refinement of values far from zero reads (:func:`refine_steps`), for one face of training.

    ``value(j)``: attribute j's value as float8 from the source's row ``t`` (NULL when missing);
    ``odd``: an aggregate counting the rows whose attribute array is not one-dimensional and 1-based (where
    ``value`` means something else: then the fast pass's numbers stay), None for columns.  ``pinned``: spell
    every operator ``OPERATOR(pg_catalog.x)`` (the column form's text); the array form's text spells them bare
    (resolved in pg_catalog under madnb's pinned search_path), kept so that its generated SQL does not change.
    """

    source: Sql
    cls: Sql
    numeric: tuple[int, ...]
    value: Callable[[int], Sql]
    odd: Sql | None
    pinned: bool

    def op(self, a: str, o: str, b: str) -> str:
        return f"{a} OPERATOR(pg_catalog.{o}) {b}" if self.pinned else f"{a} {o} {b}"

    def far(self) -> str:
        """Cell ``s`` is far from zero: |mean| > sqrt(FAR_FROM_ZERO) * sd, the test mean**2 > FAR_FROM_ZERO * var
        without a product that can overflow."""
        sd = self.op(f"{FAR_FROM_ZERO ** 0.5!r}::{F8}", "*", "pg_catalog.sqrt(s.var)")
        return f"{self.op('s.nv', '>', '1')} AND {self.op('pg_catalog.abs(s.mean)', '>', f'({sd})' if self.pinned else sd)}"


def refinement(training: Training) -> Refinement:
    """The refinement of the statistics of ``t`` (attribute arrays), reading ``t.source``."""
    a = f"t.{training.attrs.sql}"
    return Refinement(
        source=training.source.sql, cls=training.cls.sql, numeric=training.numeric,
        value=lambda j: array_pass.numeric_value_sql(training, f"{a}[{j}]", True),
        odd=Sql(f"pg_catalog.count(*) FILTER (WHERE pg_catalog.array_ndims({a}) > 1 OR pg_catalog.array_lower({a}, 1) <> 1)"),
        pinned=False,
    )


def refine_steps(plpy: Plpy, r: Refinement, dest: str, rels: array_pass.Relations) -> Generator[array_pass.Scan, None, None]:
    """Recompute the numeric cells of statistics table ``dest`` whose values sit far from 0 compared with their spread.

    PostgreSQL's float8 ``avg`` and ``var_samp`` keep a running sum: for values
    like 1e9 +- 1 its rounding (about 1e-16 of 1e9 per row) is large next to the
    spread, and the variance loses digits (a relative error of about 1e-16
    |mean| / sd).  Such cells -- rare, and found from the statistics alone -- are
    computed again from values shifted by a constant c near them (the mean of the
    largest such cell of the attribute): x - c is exact, so the shifted pass keeps
    every digit; the mean is stored as the double-double c + avg(x - c) = mean +
    mean_lo, so that merging parts loses nothing either.  Tables without such cells
    pay one query on the statistics table; arrays that are not one-dimensional and
    1-based keep the fast pass's numbers.

    The one implementation for every face: yields the shifted pass (a
    :class:`~madnb_pl.release.array_pass.Scan` into ``REFINED``) for the caller to run
    over the source -- here (:func:`refine_far_from_zero`) or on a shard's server
    (:mod:`madnb_pl.merge.shards`) -- then stores its cells from ``rels``.
    """
    cells = _far_cells(plpy, r, dest)
    if not cells:
        return
    yield array_pass.Scan(array_pass.REFINED, _refined_select(r, cells))
    refined = rels.read(array_pass.REFINED)
    if r.odd is None or not plpy.execute(Sql(f"SELECT EXISTS (SELECT 1 FROM {refined} AS y WHERE y.odd > 0) AS odd"))[0]["odd"]:
        op = r.op
        plpy.execute(
            Sql(f"UPDATE {dest} AS s SET mean = {op('y.c', '+', 'y.r')}, "
            f"mean_lo = {op('(' + op('y.c', '-', '(' + op('y.c', '+', 'y.r') + ')') + ')', '+', 'y.r')}, var = y.v "
            f"FROM {refined} AS y WHERE {op('s.cls', '=', 'y.cls')} AND {op('s.attr', '=', 'y.o')} AND y.r IS NOT NULL "
            f"AND {r.far()}")
        )
    rels.clear(array_pass.REFINED)


def refine_far_from_zero(plpy: Plpy, r: Refinement, dest: str, rels: array_pass.TempTables | array_pass.Inline | None = None) -> None:
    """:func:`refine_steps` run here: the shifted pass into a temporary table (or ``rels``)."""
    here = rels if rels is not None else array_pass.TempTables(plpy)
    here.run(refine_steps(plpy, r, dest, here))


def _far_cells(plpy: Plpy, r: Refinement, dest: str) -> list[tuple[int, float]]:
    """The numeric attributes of statistics table ``dest`` to refine, with their shift c: [(attribute, c)]."""
    if not r.numeric:
        return []
    rows = plpy.execute(
        Sql(f"SELECT DISTINCT ON (s.attr) s.attr AS o, s.mean AS c FROM {dest} AS s "
        f"WHERE s.attr OPERATOR(pg_catalog.=) ANY ({int_array(r.numeric)}) AND {r.far()} ORDER BY s.attr, s.nv DESC")
    )
    return [(int(row["o"]), float(row["c"])) for row in rows]


def _refined_select(r: Refinement, cells: list[tuple[int, float]]) -> Sql:
    """The shifted pass over ``r.source``: (cls, o, c, r = avg(x - c), v = var_samp(x - c)[, odd arrays])."""
    aggs, values = [], []
    for j, c in cells:
        x = f"({r.op(r.value(j), '-', f'{c!r}::{F8}')})"
        aggs.append(f"pg_catalog.avg({x}) AS r{j}, pg_catalog.var_samp({x}) AS v{j}")
        values.append(f"({j}, {c!r}::{F8}, g.r{j}, g.v{j})")
    odd = "" if r.odd is None else f"{r.odd} AS odd, "
    passed = (
        f"SELECT t.{r.cls} AS cls, {odd}{', '.join(aggs)} FROM {r.source} AS t "
        f"WHERE t.{r.cls} IS NOT NULL GROUP BY t.{r.cls}"
    )
    return Sql(
        f"SELECT g.cls, x.o, x.c, x.r, x.v{'' if r.odd is None else ', g.odd'} FROM ({passed}) AS g "
        f"CROSS JOIN LATERAL (VALUES {', '.join(values)}) AS x(o, c, r, v)"
    )


# ---------------------------------------------------------------------------
# What a statistics table's cells must satisfy (every merge checks its parts)
# ---------------------------------------------------------------------------

CHECK_HINT = (
    "a statistics table holds what madnb.create_nb_statistics released and is not to be edited: "
    "release the statistics again"
)


def _op(a: str, op: str, b: str) -> str:
    return f"{a} OPERATOR(pg_catalog.{op}) {b}"


def _shown(col: str) -> str:
    """The text of a cell's column for a message (``NULL`` for NULL), from its type's output function."""
    return f"CASE WHEN {col} IS NULL THEN 'NULL' ELSE pg_catalog.format('%s', {col}) END"


def _integer(col: str, lo: str, hi: str, exclusive: bool = False) -> str:
    """``col`` is an integer in [lo, hi] (numeric; NaN sorts above every number), or in (lo, hi) if ``exclusive``."""
    ge, le = (">", "<") if exclusive else (">=", "<=")
    return (
        f"({col} IS NOT NULL AND {_op(col, ge, lo)} AND {_op(col, le, hi)} "
        f"AND {_op(col, '=', f'pg_catalog.trunc({col})')})"
    )


def _finite(col: str) -> str:
    """``col`` (float8) is a number: neither NaN (which sorts above Infinity) nor infinite."""
    lo, hi = "'-Infinity'::pg_catalog.float8", "'Infinity'::pg_catalog.float8"
    return f"({_op(col, '>', lo)} AND {_op(col, '<', hi)})"


def domain_fingerprint_select(dom: str) -> Sql:
    """The md5 (column ``f``) of a public domain's cells (o, class, value) in a collation-independent order:
    what a private release's header records (:func:`madnb_pl.privacy.private_release.domain_fingerprint`) and what a merge
    recomputes from a private part's cells (:func:`cells_check_select`)."""
    return Sql(
        "SELECT pg_catalog.md5(COALESCE(pg_catalog.string_agg(x.c, E'\\n' ORDER BY x.c COLLATE \"C\"), '')) AS f "
        f"FROM (SELECT pg_catalog.format('%s %L %L', d.o, d.cls, d.v) AS c FROM {dom} AS d) AS x"
    )


def cells_check_select(rel: str, h: Header) -> Sql:
    """One statement over statistics table ``rel``: its first impossible cell, if any, and (private) what its
    cells say of their domain.

    Result columns: ``cls``, ``attr``, ``value`` and ``problem`` (a sentence: what is wrong) of the first bad
    cell by attribute, NULL when every cell is possible; for private statistics also ``fingerprint`` (the md5
    of the domain the cells hold, as :func:`madnb_pl.privacy.private_release.domain_fingerprint` computes it), ``cells`` and
    ``grid`` (the number of cells, and classes x (1 + values + numeric attributes)).

    Every part: a class, an attribute in 0..numAttrs, each (class, attribute, value) once, a class count
    (attr 0) for every class, a value exactly on categorical cells.  Exact parts: counts n and nv are
    non-negative integers, at most the class's count (and a categorical attribute's counts add up to at
    most it), means finite, variances finite and non-negative (present from two values on).  Private
    parts hold raw noisy integers, negative ones included: they must be integers (n for counts, s1 and s2
    for numeric attributes), and their cells every cell of the public domain their header fingerprints.
    """
    num = int_array(h.numeric)
    n_attrs = int(h.num_attrs)
    isnum, is_cat = "s.isnum", "s.iscat"  # computed once per cell, in c
    i8max = f"{(1 << 63) - 1}::pg_catalog.numeric"
    zero = "0::pg_catalog.numeric"
    inf, minus_inf = "'Infinity'::pg_catalog.numeric", "'-Infinity'::pg_catalog.numeric"
    counts = f"({_op('s.attr', '=', '0')} OR {is_cat})"
    rules: list[tuple[str, str]] = [
        ("s.cls IS NULL", "'its class is NULL'"),
        (
            f"s.attr IS NULL OR {_op('s.attr', '<', '0')} OR {_op('s.attr', '>', str(n_attrs))}",
            f"pg_catalog.format('attribute %s is not 0 (the class count) or an attribute 1 to numAttrs = %s', {_shown('s.attr')}, {n_attrs})",
        ),
        (_op("s.copies", ">", "1"), "pg_catalog.format('the cell appears %s times: a statistics table holds each cell once', s.copies)"),
        (_op("s.class_rows", "=", "0"), "'its class has no class count (no cell with attr 0 for that class)'"),
        (
            f"({_op('s.attr', '=', '0')} OR {isnum}) AND s.value IS NOT NULL",
            f"pg_catalog.format('it has the value %s, which only cells of a categorical attribute have', {_shown('s.value')})",
        ),
        (f"{is_cat} AND s.value IS NULL", "'its value is NULL: a categorical cell counts the rows of one value'"),
    ]
    if h.private:
        rules += [
            (
                f"{counts} AND NOT {_integer('s.n', minus_inf, inf, exclusive=True)}",
                f"pg_catalog.format('its noisy count n is %s: released counts are (possibly negative) integers', {_shown('s.n')})",
            ),
            (
                f"{isnum} AND NOT ({_integer('s.s1', minus_inf, inf, exclusive=True)} AND {_integer('s.s2', minus_inf, inf, exclusive=True)})",
                f"pg_catalog.format('its noisy sums s1 = %s and s2 = %s: released sums are (possibly negative) integers', "
                f"{_shown('s.s1')}, {_shown('s.s2')})",
            ),
        ]
    else:
        rules += [
            (
                f"{counts} AND NOT {_integer('s.n', zero, i8max)}",
                f"pg_catalog.format('its count n is %s: counts are non-negative integers', {_shown('s.n')})",
            ),
            (
                f"{is_cat} AND {_op('s.n', '>', 's.class_n')}",
                "pg_catalog.format('its count n is %s, more than the %s rows of its class', s.n, s.class_n)",
            ),
            (
                f"{is_cat} AND {_op('s.attr_n', '>', 's.class_n')}",
                "pg_catalog.format('the counts of attribute %s for its class add up to %s, more than the %s rows of the class', "
                "s.attr, s.attr_n, s.class_n)",
            ),
            (
                f"{isnum} AND (s.nv IS NULL OR {_op('s.nv', '<', '0')})",
                f"pg_catalog.format('its count nv is %s: counts are non-negative integers', {_shown('s.nv')})",
            ),
            (
                f"{isnum} AND {_op('s.nv::pg_catalog.numeric', '>', 's.class_n')}",
                "pg_catalog.format('its count nv is %s, more than the %s rows of its class', s.nv, s.class_n)",
            ),
            (
                f"{isnum} AND {_op('s.nv', '>', '0')} AND (s.mean IS NULL OR NOT {_finite('s.mean')} "
                f"OR (s.mean_lo IS NOT NULL AND NOT {_finite('s.mean_lo')}))",
                f"pg_catalog.format('its mean is %s (mean_lo %s): means are finite numbers', {_shown('s.mean')}, {_shown('s.mean_lo')})",
            ),
            (
                f"{isnum} AND ((s.var IS NULL AND {_op('s.nv', '>', '1')}) "
                f"OR (s.var IS NOT NULL AND NOT ({_op('s.var', '>=', '0::pg_catalog.float8')} AND {_finite('s.var')})))",
                f"pg_catalog.format('its variance var is %s over %s values: variances are finite, non-negative, "
                f"and given from two values on', {_shown('s.var')}, {_shown('s.nv')})",
            ),
        ]
    problem = "CASE " + " ".join(f"WHEN {cond} THEN {text}" for cond, text in rules) + " END"
    cells = (
        "SELECT s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2, "
        "pg_catalog.count(*) OVER (PARTITION BY s.cls, s.attr, s.value) AS copies, "
        f"pg_catalog.count(*) FILTER (WHERE {_op('s.attr', '=', '0')}) OVER (PARTITION BY s.cls) AS class_rows, "
        f"pg_catalog.max(s.n) FILTER (WHERE {_op('s.attr', '=', '0')}) OVER (PARTITION BY s.cls) AS class_n, "
        "pg_catalog.sum(s.n) OVER (PARTITION BY s.cls, s.attr) AS attr_n, "
        f"COALESCE({_op('s.attr', '=', f'ANY ({num})')}, false) AS isnum, "
        f"COALESCE({_op('s.attr', '>', '0')} AND NOT {_op('s.attr', '=', f'ANY ({num})')}, false) AS iscat "
        f"FROM {rel} AS s"
    )
    ctes = [
        ("c", cells),
        ("b", f"SELECT s.cls, s.attr, s.value, {problem} AS problem FROM c AS s"),
        ("bad", "SELECT b.cls, b.attr, b.value, b.problem FROM b WHERE b.problem IS NOT NULL ORDER BY b.attr LIMIT 1"),
    ]
    if not h.private:
        return Sql(f"{with_clause(ctes)}SELECT 1 AS one, bad.* FROM (SELECT 1) AS one LEFT JOIN bad ON true")
    ctes.append((
        "dom",
        # the domain as private.fill_domain holds it: (0, class, NULL) and (attribute, NULL, value)
        f"SELECT DISTINCT s.attr AS o, CASE WHEN {_op('s.attr', '=', '0')} THEN s.cls END AS cls, "
        f"CASE WHEN {is_cat} THEN s.value END AS v FROM c AS s WHERE {_op('s.attr', '=', '0')} OR {is_cat}",
    ))
    grid = (
        f"(SELECT pg_catalog.count(*) FILTER (WHERE {_op('d.o', '=', '0')}) OPERATOR(pg_catalog.*) (1 "
        f"OPERATOR(pg_catalog.+) pg_catalog.count(*) FILTER (WHERE {_op('d.o', '>', '0')}) "
        f"OPERATOR(pg_catalog.+) {len(set(h.numeric))}) FROM dom AS d)"
    )
    fingerprint = f"({domain_fingerprint_select('dom')})"
    return Sql(
        f"{with_clause(ctes)}SELECT {fingerprint} AS fingerprint, (SELECT pg_catalog.count(*) FROM {rel}) AS cells, "
        f"{grid} AS grid, bad.* FROM (SELECT 1) AS one LEFT JOIN bad ON true"
    )


def _cell(r: dict[str, object]) -> str:
    """A cell, as a message names it: (class 'a', attr 2, value 'x')."""
    def shown(v: object) -> str:
        return "NULL" if v is None else repr(v) if isinstance(v, str) else str(v)
    value = "" if r["value"] is None else f", value {shown(r['value'])}"
    return f"(class {shown(r['cls'])}, attr {shown(r['attr'])}{value})"


def check_cells(plpy: Plpy, rel: str, h: Header, label: str) -> None:
    """Refuse (22023, naming ``label`` and the first bad cell) a statistics table whose cells no release holds.

    One query on the statistics table (:func:`cells_check_select`), whatever its size.  Every merge runs it
    on each part it did not just release itself (:func:`madnb_pl.merge.part_sums.check_parts`): local tables,
    foreign tables, parts pulled from other servers, a sharded training's shards and online updates.
    """
    r = plpy.execute(cells_check_select(rel, h))[0]
    if r["problem"] is not None:
        raise MadnbError(
            "22023", f"{label} holds an impossible cell {_cell(r)}", detail=str(r["problem"]), hint=CHECK_HINT,
        )
    if h.private and h.domain_fingerprint is not None and (r["fingerprint"] != h.domain_fingerprint or r["cells"] != r["grid"]):
        raise MadnbError(
            "22023", f"{label} does not hold the cells of the public domain its header names",
            detail=f"its cells' domain has fingerprint {r['fingerprint']}, its header says {h.domain_fingerprint}"
            if r["fingerprint"] != h.domain_fingerprint
            else f"it holds {r['cells']} cells; its domain has {r['grid']} (every class with every value and numeric attribute)",
            hint=CHECK_HINT,
        )


def comment_and_kind(plpy: Plpy, rel: Relation) -> tuple[str | None, str]:
    """The comment of relation ``rel`` and its pg_class.relkind ('f': a foreign table, whose header is on its server)."""
    row = plpy.execute(
        plpy.prepare(
            Sql("SELECT pg_catalog.obj_description(c.oid, 'pg_class') AS c, c.relkind::pg_catalog.text AS kind "
            "FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) $1"),
            ["pg_catalog.oid"],
        ),
        [rel.oid],
    )[0]
    return row["c"], str(row["kind"])


def parse_header(comment: str | None, subject: str, display: str) -> Header:
    """The header in a statistics table's comment (22023 when there is none, or it is unreadable)."""
    hint = "statistics tables are made by madnb.create_nb_statistics (or kept by training); their comment is their header"
    if not comment or not comment.startswith(COMMENT_PREFIX):
        raise MadnbError("22023", f"{subject} {display} is not a madnb statistics table", detail="its comment holds no madnb statistics header", hint=hint)
    try:
        fields = json.loads(comment[len(COMMENT_PREFIX):])
        header = Header(**fields)
    except (ValueError, TypeError) as e:
        raise MadnbError("22023", f"{subject} {display} has an unreadable statistics header", detail=str(e), hint=hint) from None
    if header.format != FORMAT:
        raise MadnbError(
            "22023", f"{subject} {display} has statistics format {header.format}, not {FORMAT}", hint="release the statistics again with this madnb",
        )
    if header.mode not in (EXACT, PRIVATE_MODE):
        raise MadnbError("22023", f"{subject} {display} has an unknown mode {header.mode!r}", hint=hint)
    return header


def kept_name(plpy: Plpy, fp: NewName) -> NewName:
    """A free name in schema madnb_statistics for the statistics a training keeps.

    ``<schema>.<feature table>`` (cut to 50 bytes), with ``_2``, ``_3``, ... when
    that is taken (a model of the same name trained before); the feature table's
    comment names the table chosen.
    """
    base = f"{fp.schema}.{fp.name}".encode()[:50].decode("utf-8", "ignore")
    taken = plpy.prepare(
        Sql("SELECT pg_catalog.to_regclass(pg_catalog.quote_ident($1) OPERATOR(pg_catalog.||) '.' "
        "OPERATOR(pg_catalog.||) pg_catalog.quote_ident($2)) IS NOT NULL AS t"),
        ["pg_catalog.text", "pg_catalog.text"],
    )
    for i in range(1, 100):
        name = base if i == 1 else f"{base}_{i}"
        if not plpy.execute(taken, [KEPT_SCHEMA, name])[0]["t"]:
            return NewName(KEPT_SCHEMA, name)
    return NewName(KEPT_SCHEMA, f"{base}_{secrets.token_hex(4)}")


__all__ = [
    "CHECK_HINT", "COLUMNS", "FIXED_COLUMN_TYPES", "Header", "Refinement", "cells_check_select", "check_cells",
    "columns_ddl", "comment_and_kind", "create_table", "create_with_types", "exact_header", "insert_cells", "kept_name",
    "now", "domain_fingerprint_select", "parse_header", "read_on_server", "refine_far_from_zero", "refine_steps",
    "refinement", "write_exact", "write_exact_header", "write_header",
]

"""Merge: statistics tables from several parts, checked for compatibility and summed.

Merging is addition.  The parts must be compatible (:func:`check_compatible`);
then every cell is summed over the parts and only then post-processed:

* exact parts: counts add; a numeric attribute's (nv, mean, sample variance)
  merge with Chan et al.'s parallel formula, the deviations taken from one
  part's mean (double-doubles mean + mean_lo) so that values like 1e9 +- small
  spreads lose no digits: ref = the first part's mean, dev_i = mean_i - ref,
  d = sum(nv_i dev_i) / N, mean = ref + d, M2 = sum(M2_i) + sum(nv_i (dev_i - d)**2),
  var = M2 / (N - 1).  A cell held by one part keeps that part's numbers, so a
  single part derives exactly the model training always wrote;
* private parts: the raw noisy integers add (n, s1, s2 per cell), and the
  post-processing of :func:`madnb_pl.derive.model_tables.dp_model_ctes` (clamps, the
  variance floor) runs on the sums.  The floor uses the epsilon' whose noise
  variance is the summed noise variance of the parts (:func:`effective_epsilon`).

Merging is post-processing: nothing is charged to any privacy budget.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

from ..core.errors import MadnbError
from ..core.names import Column, NewName, Relation, SubSelect, resolve_column
from ..core.sql import F8, Plpy, Sql, temp_name, without_jit
from ..inputs.arrays import Training
from ..release.statistics_table import Header, check_cells, create_table, create_with_types, now, write_header


def effective_epsilon(headers: list[Header]) -> float:
    """The epsilon' of the variance floor for a merge of private parts.

    The noise on a summed second moment is the sum of the parts' independent
    noises, of variance proportional to sum(1 / epsilon_j'**2): the merge's
    floor is that of one release with epsilon' = 1 / sqrt(sum(1 / epsilon_j'**2)).
    One part keeps its own epsilon' (so training derives what it always did).
    """
    eps = [float(h.epsilon_per_query or 0.0) for h in headers]
    if len(eps) == 1:
        return eps[0]
    return 1.0 / math.sqrt(math.fsum(1.0 / (e * e) for e in eps))


_COMPARED = (
    ("mode", "mode", lambda h: h.mode),
    ("numAttrs", "numAttrs", lambda h: h.num_attrs),
    ("numeric attribute indices", "numeric", lambda h: list(h.numeric)),
    ("class type", "class_type", lambda h: h.class_type),
    ("element type", "element_type", lambda h: h.element_type),
    ("fixed-point scale", "fixed_point_scale", lambda h: h.fixed_point_scale),
    ("bounds", "bounds", lambda h: h.bounds),
    ("domain fingerprint", "domain_fingerprint", lambda h: h.domain_fingerprint),
    ("vector form", "vector", lambda h: h.vector),
    ("binarize threshold", "binarize", lambda h: h.binarize),
)


def difference(h: Header, first: Header) -> tuple[str, object, object] | None:
    """The first thing the sum depends on where ``h`` differs from ``first``: (the field, h's value, first's), else None."""
    for field, _, get in _COMPARED:
        if get(h) != get(first):
            return field, get(h), get(first)
    return None


def refuse_difference(h: Header, first: Header, message: str, firsts: str) -> None:
    """22023 ``message`` when ``h`` and ``first`` differ in what the sum depends on; DETAIL names the
    field and both values (``firsts``: whose the second value is, e.g. "part 1's")."""
    diff = difference(h, first)
    if diff is not None:
        field, value, first_value = diff
        raise MadnbError("22023", message, detail=f"its {field} is {value!r}, {firsts} is {first_value!r}", hint=COMPATIBLE_HINT)


def check_compatible(parts: list[tuple[Relation, Header]]) -> None:
    """Every part must agree with the first on everything the sum depends on (22023 naming the first that differs).

    No released part may be in the sum twice: neither a part listed twice (or a
    copy of it, or the same private release) nor a sum holding a part that another
    part holds (see :attr:`Header.part_ids`).
    """
    first_rel, first = parts[0]
    refuse_weighted(parts)
    seen: dict[str, tuple[int, Relation, Header]] = {}
    releases: dict[int | str, tuple[int, Relation, Header]] = {}  # ids of this ledger, or "<id> on server <name>"
    for i, (rel, h) in enumerate(parts, start=1):
        ids, rids = h.part_ids, h.ledger_releases
        by_release = next(((f"release {r} of madnb.privacy_ledger", releases[r]) for r in rids if r in releases), None)
        by_id = next(((f"statistics id {p}", seen[p]) for p in ids if p in seen), None)
        dup = by_release or by_id
        if dup is not None:
            same, (j, earlier, earlier_h) = dup
            twice = set(earlier_h.part_ids) == set(ids)  # the same part(s) again, or a copy
            raise MadnbError(
                "22023",
                f"statistics part {i} ({rel.display}) is listed twice" if twice
                else f"statistics part {i} ({rel.display}) holds statistics that part {j} ({earlier.display}) holds",
                detail=f"it is the same release as {earlier.display} ({same})" if twice else f"both hold {same}",
                hint="list each statistics table once: a merge adds up its parts",
            )
        for p in ids:
            seen[p] = (i, rel, h)
        for r in rids:
            releases[r] = (i, rel, h)
        refuse_difference(
            h, first, f"statistics part {i} ({rel.display}) is not compatible with part 1 ({first_rel.display})", "part 1's",
        )


def refuse_weighted(parts: list[tuple[Relation, Header]], subject: str = "statistics part") -> None:
    """Weighted statistics (madnb.train's ``weight``: fractional counts, :attr:`Header.weighted`) derive the one model
    they were released for; they are not summed with other parts (0A000): an unweighted part's counts are rows, a
    weighted one's are sums of weights, and a sum of the two means neither."""
    if len(parts) < 2:
        return
    for i, (rel, h) in enumerate(parts, start=1):
        if h.weighted:
            raise MadnbError(
                "0A000", f"{subject} {i} ({rel.display}) holds weighted statistics, which are not merged with other parts",
                detail="its counts are sums of sample weights (madnb.train's weight)",
                hint="re-train the weighted model on the union of the rows",
            )


def check_parts(plpy: Plpy, parts: list[tuple[Relation, Header]], label: str = "statistics part {i} ({display})") -> None:
    """Every part's cells must be cells a release holds (22023 naming the part and its first bad cell).

    One query per part (:func:`madnb_pl.release.statistics_table.check_cells`): every
    merge runs it on the parts it did not release itself, so that an owner's
    negative count, NaN mean or duplicated cell is refused rather than summed.
    ``label`` names part ``i`` in messages.
    """
    for i, (rel, h) in enumerate(parts, start=1):
        check_cells(plpy, rel.sql, h, label.format(i=i, display=rel.display))


COMPATIBLE_HINT = (
    "only statistics released with the same numAttrs, numeric indices, types, mode, "
    "bounds and public domain add up to one model"
)


def statistics_shape(plpy: Plpy, rel: Relation, h: Header, subject: str) -> Training:
    """A Training-shaped description of the model (types from the stored table, checked against the header)."""
    if h.weighted:
        raise MadnbError(
            "0A000", f"{subject} {rel.display} holds weighted statistics (madnb.train's weight)",
            detail="its counts are sums of sample weights, kept for the one model trained with them",
            hint="these statistics derive the named model madnb.train made from them",
        )
    if h.vector is not None:
        raise MadnbError(
            "0A000", f"{subject} {rel.display} holds the statistics of a multinomial, Bernoulli or complement model",
            detail=f"its vector form is {h.vector}: per-feature sums, not MADlib's categorical and Gaussian cells",
            hint="these statistics derive the named model madnb.train made from them",
        )
    cls = resolve_column(plpy, rel, "cls", subject)
    value = resolve_column(plpy, rel, "value", subject)
    for col, typ in ((cls, h.class_type), (value, h.element_type)):
        if col.type_sql != typ:
            raise MadnbError(
                "22023", f"{subject} {rel.display} does not match its header",
                detail=f'column "{col.name}" is {col.type_sql}, the header says {typ}',
                hint="a statistics table is not to be altered: release the statistics again",
            )
    attrs = Column("value", f"{value.type_sql}[]", 0, value.type_sql, value.type_oid)
    return Training(rel, cls, attrs, h.num_attrs, h.numeric_sorted, tuple(h.numeric))


def _union(parts: list[tuple[Relation, Header]]) -> Sql:
    """Every part's rows, tagged with the part's number."""
    return Sql(" UNION ALL ".join(
        f"SELECT {i}::pg_catalog.int4 AS part, s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2 "
        f"FROM {rel.sql} AS s"
        for i, (rel, _) in enumerate(parts, start=1)
    ))


def merged_exact_select(parts: list[tuple[Relation, Header]], training: Training) -> Sql:
    """The summed exact statistics, shaped like the statistics pass (cls, o, v, n, nv, mean, var, mean_lo), o = 0 for class rows.

    The mean is kept as a double-double (mean + mean_lo), so that a sum merged
    again (an online update) loses no digits either.
    """
    return _merged_exact(_union(parts), training)


def _merged_exact(u: Sql, training: Training, by: str | None = None) -> Sql:
    """:func:`merged_exact_select` of the cells ``u`` (part, cls, attr, value, n, nv, mean, mean_lo, var, s1, s2);
    ``by``: a column of ``u`` whose every value is a sum of its own (its rows' parts merged apart from the other
    values'), the first column of the result."""
    num = training.numeric_array_sql
    f8 = F8
    elem = training.attrs.elem_sql
    k = "" if by is None else f"{by}, "  # the sum's key, first in every list and partition
    return Sql(
        f"WITH u AS ({u}), "
        # class rows and categorical cells: counts add
        f"c AS (SELECT {_of('u', k)}u.cls, u.attr AS o, u.value AS v, pg_catalog.sum(u.n) AS n FROM u "
        f"WHERE NOT (u.attr OPERATOR(pg_catalog.=) ANY ({num})) GROUP BY {'1, 2, 3' if by is None else '1, 2, 3, 4'}), "
        # numeric cells: Chan et al., deviations from the reference part's mean (the first part with a mean),
        # window functions over each cell's parts, not joins of the parts to it
        f"w0 AS (SELECT {_of('u', k)}u.part, u.cls, u.attr, u.nv, u.mean, COALESCE(u.mean_lo, 0) AS lo, u.var, "
        "pg_catalog.first_value(u.mean) OVER r AS ref, pg_catalog.first_value(COALESCE(u.mean_lo, 0)) OVER r AS ref_lo "
        f"FROM u WHERE u.attr OPERATOR(pg_catalog.=) ANY ({num}) "
        f"WINDOW r AS (PARTITION BY {_of('u', k)}u.cls, u.attr ORDER BY u.mean IS NULL, u.part)), "
        # dev: the part's mean less the reference part's, both double-doubles; d: the devs' mean weighted by the counts
        "w AS (SELECT w0.*, (w0.mean - w0.ref) + (w0.lo - w0.ref_lo) AS dev FROM w0), "
        f"g AS (SELECT w.*, pg_catalog.sum(w.nv::{f8} * w.dev) OVER p / NULLIF(pg_catalog.sum(w.nv) OVER p, 0)::{f8} AS d "
        f"FROM w WINDOW p AS (PARTITION BY {_of('w', k)}w.cls, w.attr)), "
        f"x AS (SELECT {_of('g', k)}g.cls, g.attr, pg_catalog.sum(g.nv) AS nv, pg_catalog.count(g.mean) AS k, "
        "pg_catalog.min(g.mean) AS m1, pg_catalog.min(g.lo) AS l1, pg_catalog.min(g.var) AS v1, "
        "pg_catalog.min(g.ref) AS ref, pg_catalog.min(g.ref_lo) + pg_catalog.min(g.d) AS dd, "
        f"pg_catalog.sum(COALESCE(g.var * (g.nv - 1)::{f8}, 0::{f8}) "
        f"+ COALESCE(g.nv::{f8} * (g.dev - g.d) * (g.dev - g.d), 0::{f8})) AS m2 "
        f"FROM g GROUP BY {_of('g', k)}g.cls, g.attr), "
        # the merged mean as a double-double hi + lo: hi = ref + dd, lo its rounding error (Knuth's two-sum)
        "y AS (SELECT x.*, x.ref + x.dd AS hi FROM x), "
        "z AS (SELECT y.*, (y.ref - (y.hi - (y.hi - y.ref))) + (y.dd - (y.hi - y.ref)) AS lo FROM y) "
        f"SELECT {_of('c', k)}c.cls, c.o, c.v, c.n, NULL::pg_catalog.int8 AS nv, NULL::{f8} AS mean, NULL::{f8} AS var, "
        f"NULL::{f8} AS mean_lo FROM c "
        f"UNION ALL SELECT {_of('z', k)}z.cls, z.attr, NULL::{elem}, NULL::pg_catalog.numeric, z.nv::pg_catalog.int8, "
        "CASE WHEN z.k = 1 THEN z.m1 WHEN z.k > 1 THEN z.hi END, "
        f"CASE WHEN z.k = 1 THEN z.v1 WHEN z.k > 1 AND z.nv > 1 THEN z.m2 / (z.nv - 1)::{f8} END, "
        f"NULLIF(CASE WHEN z.k = 1 THEN z.l1 WHEN z.k > 1 THEN z.lo END, 0::{f8}) FROM z"
    )


def _of(alias: str, key: str) -> str:
    """``key`` (:func:`_merged_exact`'s "by, " or nothing) as a column of ``alias``."""
    return f"{alias}.{key}" if key else ""


def complement_sums_select(cells: Sql, folds: int, training: Training) -> Sql:
    """The sums of every fold's complement in one query: for fold c from 1 to ``folds``, the merge of the cells of
    the other folds (:func:`merged_exact_select`'s, each fold a part), in the columns of a statistics table after
    the column fold = c.

    ``cells``: exact cells (f, cls, attr, value, n, nv, mean, var) of each fold f (1 to ``folds``): a statistics
    pass grouped by fold.  The same sums as :func:`merged_exact_select` of the other folds' tables (the reference
    part of Chan's formula the first of them with a mean), without a table per fold or per sum.
    """
    u = Sql(
        f"SELECT k.{COMPLEMENT_KEY}, x.f AS part, x.cls, x.attr, x.value, x.n, x.nv, x.mean, NULL::{F8} AS mean_lo, x.var, "
        f"NULL::pg_catalog.numeric AS s1, NULL::pg_catalog.numeric AS s2 "
        f"FROM ({cells}) AS x(f, cls, attr, value, n, nv, mean, var) "
        f"JOIN pg_catalog.generate_series(1, {int(folds)}) AS k({COMPLEMENT_KEY}) ON x.f OPERATOR(pg_catalog.<>) k.{COMPLEMENT_KEY}"
    )
    return _exact_columns(_merged_exact(u, training, by=COMPLEMENT_KEY), by=COMPLEMENT_KEY)


def _exact_columns(merged: Sql, by: str | None = None) -> Sql:
    """:func:`_merged_exact`'s rows in the columns of a statistics table (its key ``by`` first)."""
    key = "" if by is None else f"m.{by}, "
    return Sql(
        f"SELECT {key}m.cls, m.o AS attr, m.v AS value, m.n, m.nv, m.mean, m.var, m.mean_lo, NULL::pg_catalog.numeric AS s1, "
        f"NULL::pg_catalog.numeric AS s2 FROM ({merged}) AS m"
    )


def pooled_numeric_select(kept: str, training: Training) -> Sql:
    """Per numeric attribute of the statistics table ``kept``, its values over every class:
    rows (attr, nv, mean, var), var the sample variance.

    The classes' cells are merged as if each class were a part of a sum (the
    merge of :func:`merged_exact_select`, Chan et al.): no pass over the data.
    """
    num = training.numeric_array_sql
    u = Sql(
        "SELECT pg_catalog.dense_rank() OVER (ORDER BY s.cls)::pg_catalog.int4 AS part, 0 AS cls, s.attr, s.value, "
        f"s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2 FROM {kept} AS s "
        f"WHERE s.cls IS NOT NULL AND s.attr OPERATOR(pg_catalog.=) ANY ({num})"
    )
    return Sql(
        f"SELECT m.o AS attr, m.nv, m.mean, m.var FROM ({_merged_exact(u, training)}) AS m "
        f"WHERE m.o OPERATOR(pg_catalog.=) ANY ({num})"
    )


def merged_private_select(parts: list[tuple[Relation, Header]]) -> Sql:
    """The summed raw noisy cells (cls, o, v, n, s1, s2): nothing is clamped before the sum."""
    return Sql(
        f"SELECT u.cls, u.attr AS o, u.value AS v, pg_catalog.sum(u.n) AS n, pg_catalog.sum(u.s1) AS s1, "
        f"pg_catalog.sum(u.s2) AS s2 FROM ({_union(parts)}) AS u GROUP BY 1, 2, 3"
    )


def merged_select(parts: list[tuple[Relation, Header]], training: Training) -> Sql:
    """The sum of the parts in the columns of a statistics table (cls, attr, value, n, nv, mean, var, mean_lo, s1, s2)."""
    if parts[0][1].private:
        return Sql(
            "SELECT m.cls, m.o AS attr, m.v AS value, m.n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, "
            f"NULL::pg_catalog.float8 AS var, NULL::pg_catalog.float8 AS mean_lo, m.s1, m.s2 FROM ({merged_private_select(parts)}) AS m"
        )
    return _exact_columns(merged_exact_select(parts, training))


_CELLS = "(cls, attr, value, n, nv, mean, var, mean_lo, s1, s2)"


def write_sum(
    plpy: Plpy, parts: list[tuple[Relation, Header]], dest: NewName, training: Training, value_text: Callable[[str], Sql] | None = None,
) -> Header:
    """The sum of compatible ``parts`` into a new statistics table ``dest`` (the cells as one release
    would hold them, raw noisy sums for private parts); return its header (:func:`sum_header`).

    ``value_text``: ``dest``'s values are text, each categorical value the text form this gives of it (SQL over a
    value); the named model of ordinary columns keeps its values so (:mod:`madnb_pl.release.column_pass`), and its
    prediction functions look them up by that form.
    """
    if value_text is None:
        create_table(plpy, dest, training)
        plpy.execute(Sql(f"INSERT INTO {dest.sql} {_CELLS} {merged_select(parts, training)}"))
        header = sum_header(plpy, [h for _, h in parts])
    else:
        create_with_types(plpy, dest, training.cls.type_sql, "text")
        plpy.execute(Sql(
            f"INSERT INTO {dest.sql} {_CELLS} SELECT m.cls, m.attr, {value_text('m.value')}, m.n, m.nv, m.mean, m.var, m.mean_lo, "
            f"m.s1, m.s2 FROM ({merged_select(parts, training)}) AS m"
        ))
        header = replace(sum_header(plpy, [h for _, h in parts]), element_type="text")
    write_header(plpy, dest.sql, header)
    return header


COMPLEMENT_KEY = "fold"
"""The column of :func:`write_complement_sums`' table that says whose complement a row's sum is."""


def write_complement_sums(plpy: Plpy, cells: Sql, folds: int, dest: NewName, training: Training) -> list[Relation]:
    """:func:`complement_sums_select` into a new temporary table ``dest``; return each fold's sum (in fold order) as
    the relation a model derives from: a :class:`~madnb_pl.core.names.SubSelect` of ``dest``'s rows of that fold."""
    with without_jit(plpy):  # cells' expressions grow with the columns (one VALUES row per Gaussian feature)
        plpy.execute(Sql(f"CREATE TEMPORARY TABLE {dest.sql} ON COMMIT DROP AS {complement_sums_select(cells, folds, training)}"))
    plpy.execute(Sql(f"ANALYZE {dest.sql}"))  # each model's derivation reads its fold's rows a few times: hash joins
    return [
        SubSelect(dest.schema, dest.name, 0, Sql(
            f"SELECT s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2 FROM {dest.sql} AS s "
            f"WHERE s.{COMPLEMENT_KEY} OPERATOR(pg_catalog.=) {f}"
        ))
        for f in range(1, int(folds) + 1)
    ]


def replace_sum(plpy: Plpy, kept: Relation, parts: list[tuple[Relation, Header]], training: Training) -> Header:
    """Replace the cells of statistics table ``kept`` (the first of ``parts``) by the sum of ``parts``, in
    place; return its new header.  Costs the size of the parts, not the number of earlier updates."""
    merged = temp_name("madnb_merged_")
    plpy.execute(Sql(f"CREATE TEMPORARY TABLE {merged} ON COMMIT DROP AS {merged_select(parts, training)}"))
    plpy.execute(Sql(f"DELETE FROM {kept.sql}"))
    plpy.execute(Sql(f"INSERT INTO {kept.sql} {_CELLS} SELECT * FROM {merged}"))
    plpy.execute(Sql(f"DROP TABLE {merged}"))
    header = sum_header(plpy, [h for _, h in parts])
    write_header(plpy, kept.sql, header)
    plpy.execute(Sql(f"ANALYZE {kept.sql}"))
    return header


SOURCES_SHOWN = 10


def sum_header(plpy: Plpy, headers: list[Header]) -> Header:
    """The header of the sum of compatible parts: what they agree on, and every part they hold.

    A fresh id; ``parts`` (and ``release_ids``) list every released part in the
    sum, so that none is added twice.  Private: epsilon and delta compose as
    :func:`composed_privacy` says (the largest over parts of different sources,
    the sum over releases of one source), epsilon_per_query the epsilon' whose noise
    variance is the parts' summed noise variance (:func:`effective_epsilon`, the
    variance floor's), the guarantee every part's.
    """
    first = headers[0]
    names = [n for h in headers for n in h.source.split(", ")]
    shown = [n for n in dict.fromkeys(names) if n != "..."]
    if len(shown) > SOURCES_SHOWN or "..." in names:
        shown = shown[:SOURCES_SHOWN] + ["..."]
    out = replace(
        first, id=str(uuid.uuid4()), source=", ".join(shown), created_at=now(plpy),
        parts=[p for h in headers for p in h.part_ids], release_id=None, release_ids=None,
    )
    if first.private:
        epsilon, delta, sequential = composed_privacy(headers)
        guarantee = "; ".join(dict.fromkeys(g for h in headers for g in (h.guarantee or "").split("; ") if g)) or None
        if sequential:
            guarantee = (
                f"epsilon {epsilon} in total: some parts are releases of the same source, whose epsilons add up "
                f"(sequential composition); " + (guarantee or "")
            )
        out = replace(
            out, release_ids=[r for h in headers for r in h.ledger_releases],
            epsilon=epsilon, delta=delta, epsilon_per_query=effective_epsilon(headers), guarantee=guarantee,
        )
    return out


def composed_privacy(headers: list[Header]) -> tuple[str | None, float | None, bool]:
    """(epsilon, delta, whether some parts share a source) of the sum of private parts.

    Parts over disjoint rows compose in parallel (the largest epsilon); releases of
    the same source see the same rows and compose sequentially (their epsilons and
    deltas add up).  Parts are grouped by the sources they name (a sum names all of
    its own): within a group the sum, across groups the largest — an upper bound
    whatever the overlap of sources madnb can see.  Disjointness of *different*
    sources is the user's to ensure (docs/statistics.md).
    """
    groups: list[tuple[set[str], list[Header]]] = []
    for h in headers:
        names = {n for n in h.source.split(", ") if n != "..."} or {h.id}
        joined = [g for g in groups if g[0] & names]
        merged: tuple[set[str], list[Header]] = (set(names), [h])
        for g in joined:
            merged[0].update(g[0])
            merged[1].extend(g[1])
            groups.remove(g)
        groups.append(merged)
    eps: list[tuple[Decimal, str]] = []
    for _, members in groups:
        given = [h.epsilon for h in members if h.epsilon is not None]
        if given:
            total = sum((Decimal(e) for e in given), Decimal(0))
            eps.append((total, given[0] if len(given) == 1 else format(total, "f")))
    deltas = [sum(h.delta for h in g[1] if h.delta is not None) for g in groups]
    has_delta = any(h.delta is not None for h in headers)
    epsilon = max(eps, key=lambda e: e[0])[1] if eps else None
    return epsilon, (max(deltas) if has_delta else None), any(len(g[1]) > 1 for g in groups)




# ---------------------------------------------------------------------------
# The difference of two exact sums: a kept sum less the statistics of rows in it (madnb.forget)
# ---------------------------------------------------------------------------


def counts_sum_select(parts: list[tuple[Relation, Header]]) -> Sql:
    """The sum of exact statistics whose every cell is a count (the vector kinds': class rows and per-feature sums),
    in the columns of a statistics table."""
    return Sql(
        "SELECT u.cls, u.attr, u.value, pg_catalog.sum(u.n) AS n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, "
        "NULL::pg_catalog.float8 AS var, NULL::pg_catalog.float8 AS mean_lo, NULL::pg_catalog.numeric AS s1, "
        f"NULL::pg_catalog.numeric AS s2 FROM ({_union(parts)}) AS u GROUP BY 1, 2, 3"
    )


def difference_select(kept: Relation, part: Relation, numeric: tuple[int, ...]) -> Sql:
    """The exact statistics ``kept`` less ``part`` (cells of rows summed into ``kept``), in the columns of a
    statistics table: what training on the rows of ``kept`` but not ``part`` gives (up to rounding).

    Counts (class rows, categorical and vector cells) subtract; a cell left at 0 goes (training has no
    cell of a value it never saw), and a class left with no row goes with every cell of it.  Gaussian
    cells (attributes ``numeric``): Chan et al.'s merge run backwards.  With the kept cell (n_t, mean
    m_t + lo_t as a double-double, M2_t = var_t (n_t - 1)) and the removed one (n_b, m_b, M2_b), d =
    m_b - m_t and n_a = n_t - n_b:

        mean_a = m_t - d n_b / n_a        M2_a = M2_t - M2_b - d^2 n_t n_b / n_a

    (the merge's M2_t = M2_a + M2_b + (m_b - m_a)^2 n_a n_b / n_t, solved for M2_a).  The mean is a
    double-double again (Knuth's two-sum); M2_a is a difference of sums of squares, so its absolute error
    is about 2**-52 (M2_t + d^2 n_t n_b / n_a): relative to the remaining variance, that times
    M2_t / M2_a.  A negative M2_a (rounding only) is 0.  The caller checks that ``part`` fits inside
    ``kept`` first (:func:`madnb_pl.derive.update.check_forgettable`).
    """
    f8 = F8

    def o(x: str, op: str, y: str) -> str:  # every operator pinned and parenthesised (OPERATOR() binds as one precedence)
        return f"({x} OPERATOR(pg_catalog.{op}) {y})"

    num = "ARRAY[" + ", ".join(str(int(j)) for j in numeric) + "]::pg_catalog.int4[]"
    is_num = f"k.attr OPERATOR(pg_catalog.=) ANY ({num})"
    left = (
        f"FROM {kept.sql} AS k LEFT JOIN {part.sql} AS p ON p.cls OPERATOR(pg_catalog.=) k.cls "
        "AND p.attr OPERATOR(pg_catalog.=) k.attr AND p.value IS NOT DISTINCT FROM k.value"
    )
    nt1, nb1, na1 = (f"({o(n, '-', '1')})::{f8}" for n in ("y.nt", "y.nb", "z.na"))
    m2t = f"COALESCE({o('y.vt', '*', nt1)}, 0::{f8})"
    m2b = f"COALESCE({o('y.vb', '*', nb1)}, 0::{f8})"
    shift = o(o(o("y.d", "*", "y.d"), "*", o(f"y.nt::{f8}", "*", f"y.nb::{f8}")), "/", f"NULLIF(y.na, 0)::{f8}")
    two_sum_lo = o(o("y.mt", "-", o("y.hi", "-", o("y.hi", "-", "y.mt"))), "+", o("y.dd", "-", o("y.hi", "-", "y.mt")))
    kept_class = "OPERATOR(pg_catalog.=) ANY (SELECT kc.cls FROM kc)"
    greatest = f"GREATEST(z.m2, 0::{f8})"
    dd = o("h.lt", "-", o(o("h.d", "*", f"h.nb::{f8}"), "/", f"NULLIF(h.na, 0)::{f8}"))
    return Sql(
        f"WITH c AS (SELECT k.cls, k.attr, k.value, {o('k.n', '-', 'COALESCE(p.n, 0)')} AS n {left} WHERE NOT ({is_num})), "
        # the classes left: the rest of their cells stay
        "kc AS (SELECT c.cls FROM c WHERE c.attr OPERATOR(pg_catalog.=) 0 AND c.n OPERATOR(pg_catalog.>) 0), "
        f"g AS (SELECT k.cls, k.attr, k.nv AS nt, k.mean AS mt, COALESCE(k.mean_lo, 0::{f8}) AS lt, k.var AS vt, k.mean_lo AS lo0, "
        f"COALESCE(p.nv, 0) AS nb, p.mean AS mb, p.var AS vb {left} WHERE {is_num}), "
        f"h AS (SELECT g.*, {o('g.nt', '-', 'g.nb')} AS na, {o(o('g.mb', '-', 'g.mt'), '-', 'g.lt')} AS d FROM g), "
        # dd: the change of the mean (with the kept mean's low part), added to its high part by two-sum
        f"x AS (SELECT h.*, {dd} AS dd FROM h), "
        f"y AS (SELECT x.*, {o('x.mt', '+', 'x.dd')} AS hi FROM x), "
        f"z AS (SELECT y.*, {two_sum_lo} AS lo, {o(o(m2t, '-', m2b), '-', shift)} AS m2 FROM y) "
        f"SELECT c.cls, c.attr, c.value, c.n, NULL::pg_catalog.int8 AS nv, NULL::{f8} AS mean, NULL::{f8} AS var, "
        "NULL::pg_catalog.float8 AS mean_lo, NULL::pg_catalog.numeric AS s1, NULL::pg_catalog.numeric AS s2 FROM c "
        f"WHERE c.n OPERATOR(pg_catalog.>) 0 AND c.cls {kept_class} "
        # a cell none of whose rows is removed stays as it was, bit for bit
        "UNION ALL SELECT z.cls, z.attr, NULL, NULL, z.na::pg_catalog.int8, "
        "CASE WHEN z.nb OPERATOR(pg_catalog.=) 0 THEN z.mt WHEN z.na OPERATOR(pg_catalog.>) 0 THEN z.hi END, "
        "CASE WHEN z.nb OPERATOR(pg_catalog.=) 0 THEN z.vt WHEN z.na OPERATOR(pg_catalog.>) 1 "
        f"THEN {o(greatest, '/', na1)} END, "
        f"CASE WHEN z.nb OPERATOR(pg_catalog.=) 0 THEN z.lo0 WHEN z.na OPERATOR(pg_catalog.>) 0 THEN NULLIF(z.lo, 0::{f8}) END, "
        f"NULL, NULL FROM z WHERE z.cls {kept_class}"
    )

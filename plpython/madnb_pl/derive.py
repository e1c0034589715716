"""Merge and derive: statistics tables -> MADlib's model tables.

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
  post-processing of :func:`dp_model_ctes` (clamps, the
  variance floor) runs on the sums.  The floor uses the epsilon' whose noise
  variance is the summed noise variance of the parts (:func:`effective_epsilon`).

Deriving: :func:`model_ctes` (exact) and :func:`dp_model_ctes` (private) turn
the summed cells into MADlib's three tables, which :func:`write_model_tables`
creates (a :class:`ModelTables` names them).  Training derives from its one
part through the same functions.

Merging is post-processing: nothing is charged to any privacy budget.
"""

from __future__ import annotations

import math
import re
import uuid
from dataclasses import dataclass, replace
from decimal import Decimal

from . import dp, stats
from .errors import MadnbError
from .names import Column, NewName, Relation, created, resolve_column
from .spec import Training
from .sql import F8, Plpy, Sql, float8_literal, temp_name, with_clause
from .statistics_table import Header, check_cells, create_table, now, write_header


@dataclass(frozen=True)
class ModelTables:
    """The names of MADlib's model tables: featureProbs, classPriors and (with numeric attributes) numericFeatureStats."""

    feature_probs: NewName
    class_priors: NewName
    numeric_stats: NewName | None = None

    def all(self) -> tuple[NewName, ...]:
        """Every table of the model, in MADlib's argument order."""
        return (self.feature_probs, self.class_priors) + ((self.numeric_stats,) if self.numeric_stats is not None else ())


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
    """The first thing the sum depends on where ``h`` differs from ``first``: (what, h's, first's), else None."""
    for what, _, get in _COMPARED:
        if get(h) != get(first):
            return what, get(h), get(first)
    return None


def check_compatible(parts: list[tuple[Relation, Header]]) -> None:
    """Every part must agree with the first on everything the sum depends on (22023 naming the first that differs).

    No released part may be in the sum twice: neither a part listed twice (or a
    copy of it, or the same private release) nor a sum holding a part that another
    part holds (see :attr:`Header.part_ids`).
    """
    first_rel, first = parts[0]
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
        diff = difference(h, first)
        if diff is not None:
            what, mine, theirs = diff
            raise MadnbError(
                "22023",
                f"statistics part {i} ({rel.display}) is not compatible with part 1 ({first_rel.display})",
                detail=f"its {what} is {mine!r}, part 1's is {theirs!r}",
                hint=COMPATIBLE_HINT,
            )


def check_parts(plpy: Plpy, parts: list[tuple[Relation, Header]], label: str = "statistics part {i} ({display})") -> None:
    """Every part's cells must be cells a release holds (22023 naming the part and its first bad cell).

    One query per part (:func:`madnb_pl.statistics_table.check_cells`): every
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


def statistics_shape(plpy: Plpy, rel: Relation, h: Header, what: str) -> Training:
    """A Training-shaped description of the model (types from the stored table, checked against the header)."""
    if h.vector is not None:
        raise MadnbError(
            "0A000", f"{what} {rel.display} holds the statistics of a multinomial, Bernoulli or complement model",
            detail=f"its vector form is {h.vector}: per-feature sums, not MADlib's categorical and Gaussian cells",
            hint="these statistics derive the named model madnb.train made from them",
        )
    cls = resolve_column(plpy, rel, "cls", what)
    value = resolve_column(plpy, rel, "value", what)
    for col, typ in ((cls, h.class_type), (value, h.element_type)):
        if col.type_sql != typ:
            raise MadnbError(
                "22023", f"{what} {rel.display} does not match its header",
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


def merged_exact_select(parts: list[tuple[Relation, Header]], t: Training) -> Sql:
    """The summed exact statistics, shaped like the statistics pass (cls, o, v, n, nv, mean, var, mean_lo), o = 0 for class rows.

    The mean is kept as a double-double (mean + mean_lo), so that a sum merged
    again (an online update) loses no digits either.
    """
    return _merged_exact(_union(parts), t)


def _merged_exact(u: Sql, t: Training) -> Sql:
    """:func:`merged_exact_select` of the cells ``u`` (part, cls, attr, value, n, nv, mean, mean_lo, var, s1, s2)."""
    num = t.numeric_array_sql
    f8 = F8
    elem = t.attrs.elem_sql
    return Sql(
        f"WITH u AS ({u}), "
        # class rows and categorical cells: counts add
        "c AS (SELECT u.cls, u.attr AS o, u.value AS v, pg_catalog.sum(u.n) AS n FROM u "
        f"WHERE NOT (u.attr OPERATOR(pg_catalog.=) ANY ({num})) GROUP BY 1, 2, 3), "
        # numeric cells: Chan et al., deviations from the first part's mean
        "w0 AS (SELECT u.part, u.cls, u.attr, u.nv, u.mean, COALESCE(u.mean_lo, 0) AS lo, u.var, "
        "pg_catalog.first_value(u.part) OVER (PARTITION BY u.cls, u.attr ORDER BY u.mean IS NULL, u.part) AS rp "
        f"FROM u WHERE u.attr OPERATOR(pg_catalog.=) ANY ({num})), "
        # dev: the part's mean less the reference part's, both double-doubles
        "w AS (SELECT w0.*, r.mean AS ref, r.lo AS ref_lo, (w0.mean - r.mean) + (w0.lo - r.lo) AS dev "
        "FROM w0 JOIN w0 AS r ON r.part = w0.rp AND r.cls = w0.cls AND r.attr = w0.attr), "
        "g AS (SELECT w.cls, w.attr, pg_catalog.sum(w.nv) AS nv, pg_catalog.count(w.mean) AS k, "
        "pg_catalog.min(w.mean) AS m1, pg_catalog.min(w.lo) AS l1, pg_catalog.min(w.var) AS v1, "
        "pg_catalog.min(w.ref) AS ref, pg_catalog.min(w.ref_lo) AS ref_lo, "
        f"pg_catalog.sum(w.nv::{f8} * w.dev) / NULLIF(pg_catalog.sum(w.nv), 0)::{f8} AS d "
        "FROM w GROUP BY w.cls, w.attr), "
        "x AS (SELECT g.cls, g.attr, g.nv, g.k, g.m1, g.l1, g.v1, g.ref, g.ref_lo + g.d AS dd, "
        f"pg_catalog.sum(COALESCE(w.var * (w.nv - 1)::{f8}, 0::{f8}) "
        f"+ COALESCE(w.nv::{f8} * (w.dev - g.d) * (w.dev - g.d), 0::{f8})) AS m2 "
        "FROM g JOIN w ON w.cls = g.cls AND w.attr = g.attr "
        "GROUP BY g.cls, g.attr, g.nv, g.k, g.m1, g.l1, g.v1, g.ref, g.ref_lo, g.d), "
        # the merged mean as a double-double hi + lo: hi = ref + dd, lo its rounding error (Knuth's two-sum)
        "y AS (SELECT x.*, x.ref + x.dd AS hi FROM x), "
        "z AS (SELECT y.*, (y.ref - (y.hi - (y.hi - y.ref))) + (y.dd - (y.hi - y.ref)) AS lo FROM y) "
        f"SELECT c.cls, c.o, c.v, c.n, NULL::pg_catalog.int8 AS nv, NULL::{f8} AS mean, NULL::{f8} AS var, "
        f"NULL::{f8} AS mean_lo FROM c "
        f"UNION ALL SELECT z.cls, z.attr, NULL::{elem}, NULL::pg_catalog.numeric, z.nv::pg_catalog.int8, "
        "CASE WHEN z.k = 1 THEN z.m1 WHEN z.k > 1 THEN z.hi END, "
        f"CASE WHEN z.k = 1 THEN z.v1 WHEN z.k > 1 AND z.nv > 1 THEN z.m2 / (z.nv - 1)::{f8} END, "
        f"NULLIF(CASE WHEN z.k = 1 THEN z.l1 WHEN z.k > 1 THEN z.lo END, 0::{f8}) FROM z"
    )


def pooled_numeric_select(kept: str, t: Training) -> Sql:
    """Per numeric attribute of the statistics table ``kept``, its values over every class:
    rows (attr, nv, mean, var), var the sample variance.

    The classes' cells are merged as if each class were a part of a sum (the
    merge of :func:`merged_exact_select`, Chan et al.): no pass over the data.
    """
    num = t.numeric_array_sql
    u = Sql(
        "SELECT pg_catalog.dense_rank() OVER (ORDER BY s.cls)::pg_catalog.int4 AS part, 0 AS cls, s.attr, s.value, "
        f"s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2 FROM {kept} AS s "
        f"WHERE s.cls IS NOT NULL AND s.attr OPERATOR(pg_catalog.=) ANY ({num})"
    )
    return Sql(
        f"SELECT m.o AS attr, m.nv, m.mean, m.var FROM ({_merged_exact(u, t)}) AS m "
        f"WHERE m.o OPERATOR(pg_catalog.=) ANY ({num})"
    )


def merged_private_select(parts: list[tuple[Relation, Header]]) -> Sql:
    """The summed raw noisy cells (cls, o, v, n, s1, s2): nothing is clamped before the sum."""
    return Sql(
        f"SELECT u.cls, u.attr AS o, u.value AS v, pg_catalog.sum(u.n) AS n, pg_catalog.sum(u.s1) AS s1, "
        f"pg_catalog.sum(u.s2) AS s2 FROM ({_union(parts)}) AS u GROUP BY 1, 2, 3"
    )


def create_model(
    plpy: Plpy,
    parts: list[tuple[Relation, Header]],
    model: ModelTables,
    smoothing: float,
    what: str = "statistics",
    shape: Training | None = None,
    keep: NewName | None = None,
) -> None:
    """Check and sum the parts, post-process the sum into MADlib's model tables; comment them.

    Every model is derived from one statistics table, the sum of its parts, which
    it keeps (its tables' comments name it, see :data:`STATISTICS_RECORD`): an
    online update (:mod:`madnb_pl.update`) adds to that sum.  ``keep``: where to
    write the sum of ``parts`` (``create_nb_model_from_statistics``); None when
    the one part is the model's own (training keeps what it released).
    ``shape``: the training every part was just released from by the caller
    (training, cross-validation's folds); otherwise the types are read from each
    part and checked against its header, and its cells are checked
    (:func:`check_parts`).
    """
    check_compatible(parts)
    first_rel, first = parts[0]
    if shape is not None:
        t = shape
    else:
        t = statistics_shape(plpy, first_rel, first, what)
        for other, h in parts[1:]:
            statistics_shape(plpy, other, h, what)
        check_parts(plpy, parts)
    if keep is not None:
        header = write_sum(plpy, parts, keep, t)
        kept = created(plpy, keep)
    else:
        assert len(parts) == 1
        kept, header = first_rel, first
    derive_model(plpy, kept, header, t, ModelSql.of(model), smoothing, create=True)


@dataclass(frozen=True)
class ModelSql:
    """The model tables as quoted SQL names and display names (new or existing tables alike)."""

    feature_probs: str
    class_priors: str
    numeric_stats: str | None
    display: str  # the feature table's, for messages

    @staticmethod
    def of(model: ModelTables | tuple[Relation, Relation, Relation | None]) -> ModelSql:
        fp, cp, np = (model.feature_probs, model.class_priors, model.numeric_stats) if isinstance(model, ModelTables) else model
        return ModelSql(fp.sql, cp.sql, None if np is None else np.sql, fp.display)

    def all(self) -> tuple[str, ...]:
        return (self.feature_probs, self.class_priors) + ((self.numeric_stats,) if self.numeric_stats is not None else ())


def derive_model(
    plpy: Plpy, kept: Relation, header: Header, t: Training, model: ModelSql, smoothing: float, create: bool,
) -> None:
    """Post-process the statistics table ``kept`` (a model's sum) into the model tables, comment and analyse them.

    ``create``: create the tables; otherwise they exist and their rows are
    replaced in place (an online update: same tables, so views over them keep
    working).
    """
    rel = kept.sql
    if header.private:
        cells = f"(SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM {rel} AS s)"
        ctes = with_clause(dp_model_ctes(cells, t, header.numeric_bounds(), float(header.epsilon_per_query or 0.0)))
    else:
        cells = f"(SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM {rel} AS s)"
        ctes = with_clause(model_ctes(cells, t, stats.CLASS_ROWS_OF_TABLE))
    if create:
        create_model_tables(plpy, t, model)
    else:
        for name in model.all():
            plpy.execute(f"DELETE FROM {name}")
    fill_model_tables(plpy, ctes, model, smoothing)
    _comment_model(plpy, kept, header, model)
    for name in model.all():
        plpy.execute(f"ANALYZE {name}")


def merged_select(parts: list[tuple[Relation, Header]], t: Training) -> Sql:
    """The sum of the parts in the columns of a statistics table (cls, attr, value, n, nv, mean, var, mean_lo, s1, s2)."""
    if parts[0][1].private:
        return Sql(
            "SELECT m.cls, m.o AS attr, m.v AS value, m.n, NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, "
            f"NULL::pg_catalog.float8 AS var, NULL::pg_catalog.float8 AS mean_lo, m.s1, m.s2 FROM ({merged_private_select(parts)}) AS m"
        )
    return Sql(
        "SELECT m.cls, m.o AS attr, m.v AS value, m.n, m.nv, m.mean, m.var, m.mean_lo, NULL::pg_catalog.numeric AS s1, "
        f"NULL::pg_catalog.numeric AS s2 FROM ({merged_exact_select(parts, t)}) AS m"
    )


_CELLS = "(cls, attr, value, n, nv, mean, var, mean_lo, s1, s2)"


def write_sum(plpy: Plpy, parts: list[tuple[Relation, Header]], dest: NewName, t: Training) -> Header:
    """The sum of compatible ``parts`` into a new statistics table ``dest`` (the cells as one release
    would hold them, raw noisy sums for private parts); return its header (:func:`sum_header`)."""
    create_table(plpy, dest, t)
    plpy.execute(f"INSERT INTO {dest.sql} {_CELLS} {merged_select(parts, t)}")
    header = sum_header(plpy, [h for _, h in parts])
    write_header(plpy, dest.sql, header)
    return header


def replace_sum(plpy: Plpy, kept: Relation, parts: list[tuple[Relation, Header]], t: Training) -> Header:
    """Replace the cells of statistics table ``kept`` (the first of ``parts``) by the sum of ``parts``, in
    place; return its new header.  Costs the size of the parts, not the number of earlier updates."""
    merged = temp_name("madnb_merged_")
    plpy.execute(f"CREATE TEMPORARY TABLE {merged} ON COMMIT DROP AS {merged_select(parts, t)}")
    plpy.execute(f"DELETE FROM {kept.sql}")
    plpy.execute(f"INSERT INTO {kept.sql} {_CELLS} SELECT * FROM {merged}")
    plpy.execute(f"DROP TABLE {merged}")
    header = sum_header(plpy, [h for _, h in parts])
    write_header(plpy, kept.sql, header)
    plpy.execute(f"ANALYZE {kept.sql}")
    return header


SOURCES_SHOWN = 10
"""A sum's header names at most this many sources (then ``...``)."""


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


STATISTICS_RECORD = re.compile(r'; derived from statistics ("(?:[^"]|"")+"\."(?:[^"]|"")+") \(id ([0-9a-f-]{36})\)$')
"""The end of every model table's comment: the statistics table the model keeps (its sum) and that table's id."""


def _comment_model(plpy: Plpy, kept: Relation, h: Header, model: ModelSql) -> None:
    """The model's comments: what it is, from which source(s), and the statistics it keeps (:data:`STATISTICS_RECORD`)."""
    fp, cp, np = model.feature_probs, model.class_priors, model.numeric_stats
    n = len(h.part_ids)
    src = h.source if n == 1 else f"{h.source} (the sum of {n} statistics tables)"
    derived = f"derived from statistics {kept.sql} (id {h.id})"
    num_attrs = f"numAttrs = {int(h.num_attrs)}"
    if h.private:
        rids = h.ledger_releases
        shown = ", ".join(str(r) for r in rids[:SOURCES_SHOWN]) + (", ..." if len(rids) > SOURCES_SHOWN else "")
        about = f"{h.guarantee}; release{'s' if len(rids) > 1 else ''} {shown} of madnb.privacy_ledger"
        texts = {
            cp: f"madnb class priors trained from {src}; noisy class counts clamped at 0; {about}",
            fp: f"madnb categorical feature counts trained from {src}; noisy counts clamped at 0, attr_cnt = size of "
            "the attribute's domain; P(value|class) = (cnt + smoothing) / (sum of cnt over the attribute's values + "
            f"smoothing * attr_cnt); {about}; {num_attrs}",
        }
        if np is not None:
            texts[np] = (
                f"madnb Gaussian parameters trained from {src}: mean and variance from noisy sums of values clipped to "
                f"public bounds, over the noisy class count (value_cnt); {about}"
            )
    else:
        texts = {
            cp: f"madnb class priors trained from {src}",
            fp: f"madnb categorical feature counts trained from {src}; "
            "P(value|class) = (cnt + smoothing) / (class rows with attr present + smoothing * attr_cnt); " + num_attrs,
        }
        if np is not None:
            texts[np] = f"madnb Gaussian parameters (mean, sample variance, non-NULL count) trained from {src}"
    for name, text in texts.items():
        plpy.execute(f"COMMENT ON TABLE {name} IS {plpy.quote_literal(text + '; ' + derived)}")


def model_ctes(cells: str, t: Training, class_rows: str = stats.CLASS_ROWS_OF_PASS) -> list[tuple[str, str]]:
    """CTEs deriving MADlib's tables ``cp``, ``fp`` and ``np`` from a statistics relation ``cells``.

    ``class_rows`` selects the rows whose ``n`` add up to the class counts: those
    of the statistics pass (:data:`madnb_pl.stats.CLASS_ROWS_OF_PASS`), or the attr-0 rows of a
    (merged) statistics table (:data:`madnb_pl.stats.CLASS_ROWS_OF_TABLE`).

    * cp: (class, class_cnt, all_cnt)
    * fp: (class, attr, value, cnt, attr_cnt), a row for every class x (attr, value
      seen in training), zero counts included; attr_cnt = distinct values of attr.
    * np: (class, attr, attr_mean, attr_var, value_cnt) for numeric attributes.
    """
    num = t.numeric_array_sql
    return [
        stats.class_counts_cte(cells, class_rows),
        (
            "cp",
            "SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc",
        ),
        (
            "vals",
            f"SELECT DISTINCT s.o, s.v FROM {cells} AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL",
        ),
        ("ac", "SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o"),
        (
            "fp",
            "SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, "
            "COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt "
            f"FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o "
            f"LEFT JOIN {cells} AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v",
        ),
        (
            "np",
            "SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt "
            f"FROM {cells} AS s WHERE s.cls IS NOT NULL AND s.o = ANY ({num})",
        ),
    ]


def dp_model_ctes(noisy: str, t: Training, nb: dp.NumericBounds, epsilon_per_query: float) -> list[tuple[str, str]]:
    """Post-processing of the noisy cells into MADlib's tables (no data is read here).

    ``noisy`` holds every released cell of the public domain (summed over the
    parts of a merge, never clamped before): (cls, o, v, n, s1, s2) with o = 0
    for the class counts.  ``epsilon_per_query`` is the epsilon' of the variance
    floor: for a merge, the epsilon' whose noise variance is the parts' summed
    noise variance (:func:`madnb_pl.derive.effective_epsilon`).

    * class counts clamped into [0, COUNT_CAP] (all 1 if every one is 0, so that
      priors exist); all_cnt is their sum;
    * value counts clamped into [0, COUNT_CAP]; attr_cnt is the size of the
      attribute's domain (its distinct released values);
    * Gaussian parameters from the noisy sums over the noisy class count: the
      mean clamped into the bounds, the variance into [floor, h**2] with floor
      = min(h**2, sqrt(2) h**2 / (epsilon' n)), one standard deviation of the
      noise on the second moment; a class with count 0 gets (m, h**2).

    Nothing here can fail, whatever the noise: the noisy numerics are clamped
    (in numeric) before any float8 arithmetic, the sums to +-2 n K and +-2 n K**2,
    which changes no result (beyond +-n K the mean and variance are clamped
    anyway), and the validated ranges of h and epsilon' (``dp.HALF_WIDTH_*``,
    ``dp.EPSILON_PER_QUERY_*``) keep every float8 product and quotient normal.
    """
    k = float(nb.scale)
    eps = f"{float8_literal(epsilon_per_query)}::{F8}"
    cap = f"{dp.COUNT_CAP}::pg_catalog.numeric"
    ctes = [
        ("cc0", f"SELECT x.cls, LEAST(GREATEST(x.n, 0), {cap}) AS c FROM {noisy} AS x WHERE x.o = 0"),
        (
            "cc",
            "SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt "
            "FROM cc0",
        ),
        (
            "cp",
            "SELECT cc.cls AS class, cc.class_cnt, "
            f"LEAST(pg_catalog.sum(cc.class_cnt) OVER (), {dp.INT8_MAX})::pg_catalog.int8 AS all_cnt FROM cc",
        ),
        # every cell of the domain is released, for every class: the attribute's domain
        # size is the number of distinct values among its released cells
        (
            "ac",
            f"SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM {noisy} AS d "
            "WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o",
        ),
        (
            "fp",
            f"SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), {cap})::pg_catalog.int8 AS cnt, ac.attr_cnt "
            f"FROM {noisy} AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL",
        ),
    ]
    if t.numeric:
        big1 = f"({2 * nb.scale}::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))"
        big2 = f"({2 * nb.scale * nb.scale}::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))"
        ctes += [
            (
                "nm",
                "SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, "
                f"GREATEST(cc.class_cnt, 1)::{F8} AS nn, "
                f"LEAST(GREATEST(x.s1, -{big1}), {big1})::{F8} / {k!r} AS m1, "
                f"LEAST(GREATEST(x.s2, -{big2}), {big2})::{F8} / {k * k!r} AS m2 "
                f"FROM {noisy} AS x JOIN cc ON cc.cls = x.cls "
                f"JOIN {nb.values_sql()} AS b(o, lo, hi, mid, half) ON b.o = x.o",
            ),
            (
                "nm2",
                "SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid "
                "ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, "
                f"LEAST(nm.half * nm.half, pg_catalog.sqrt(2::{F8}) * nm.half * nm.half / ({eps} * nm.nn)) AS floor "
                "FROM nm",
            ),
            (
                "np",
                "SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, "
                "CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE "
                "LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), "
                "nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2",
            ),
        ]
    return ctes


def create_model_tables(plpy: Plpy, t: Training, model: ModelSql) -> None:
    """Create MADlib's tables (plus madnb's ``smoothing`` column), empty."""
    ctype, etype = t.cls.type_sql, t.attrs.elem_sql
    plpy.execute(f"CREATE TABLE {model.class_priors} (class {ctype}, class_cnt pg_catalog.int8, all_cnt pg_catalog.int8)")
    plpy.execute(
        f"CREATE TABLE {model.feature_probs} (class {ctype}, attr pg_catalog.int4, value {etype}, "
        "cnt pg_catalog.int8, attr_cnt pg_catalog.int8, smoothing pg_catalog.float8)"
    )
    if model.numeric_stats is not None:
        plpy.execute(
            f"CREATE TABLE {model.numeric_stats} (class {ctype}, attr pg_catalog.int4, attr_mean pg_catalog.float8, "
            "attr_var pg_catalog.float8, value_cnt pg_catalog.int8)"
        )


def fill_model_tables(plpy: Plpy, ctes: str, model: ModelSql, smoothing: float) -> None:
    """Fill MADlib's tables from the ``cp``, ``fp`` and ``np`` CTEs of ``ctes`` (exact or noisy statistics alike)."""
    cp, fp, np = model.class_priors, model.feature_probs, model.numeric_stats
    plpy.execute(f"{ctes} INSERT INTO {cp} (class, class_cnt, all_cnt) SELECT class, class_cnt, all_cnt FROM cp ORDER BY class")
    plpy.execute(
        f"{ctes} INSERT INTO {fp} (class, attr, value, cnt, attr_cnt, smoothing) "
        f"SELECT class, attr, value, cnt, attr_cnt, {float(smoothing)!r}::pg_catalog.float8 "
        "FROM fp ORDER BY attr, value, class"
    )
    if np is not None:
        plpy.execute(
            f"{ctes} INSERT INTO {np} (class, attr, attr_mean, attr_var, value_cnt) "
            "SELECT class, attr, attr_mean, attr_var, value_cnt FROM np ORDER BY class, attr"
        )


def write_model_tables(plpy: Plpy, ctes: str, t: Training, model: ModelTables, smoothing: float) -> None:
    """Create MADlib's tables (plus madnb's extra columns) and fill them from the
    ``cp``, ``fp`` and ``np`` CTEs of ``ctes`` (exact or noisy statistics alike)."""
    m = ModelSql.of(model)
    create_model_tables(plpy, t, m)
    fill_model_tables(plpy, ctes, m, smoothing)


__all__ = [
    "STATISTICS_RECORD", "ModelSql", "ModelTables", "check_compatible", "check_parts", "create_model", "create_model_tables",
    "derive_model", "difference", "dp_model_ctes", "effective_epsilon", "fill_model_tables", "merged_exact_select",
    "composed_privacy", "merged_private_select", "merged_select", "model_ctes",
    "pooled_numeric_select", "replace_sum", "sum_header", "write_model_tables", "write_sum",
]

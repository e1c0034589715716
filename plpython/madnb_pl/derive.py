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
  post-processing of :func:`madnb_pl.stats.dp_model_ctes` (clamps, the
  variance floor) runs on the sums.  The floor uses the epsilon' whose noise
  variance is the summed noise variance of the parts (:func:`effective_epsilon`).

Merging is post-processing: nothing is charged to any privacy budget.
"""

from __future__ import annotations

import math
import secrets
from typing import Any

from . import stats
from .errors import MadnbError
from .names import Column, NewName, Relation, quote_ident, resolve_column
from .statistics_table import Header


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
)


def check_compatible(parts: list[tuple[Relation, Header]]) -> None:
    """Every part must agree with the first on everything the sum depends on (22023 naming the first that differs)."""
    first_rel, first = parts[0]
    seen: dict[str, Relation] = {}
    releases: dict[int, Relation] = {}
    for i, (rel, h) in enumerate(parts, start=1):
        for earlier in (seen.get(h.id), releases.get(h.release_id) if h.release_id is not None else None):
            if earlier is not None:
                raise MadnbError(
                    "22023",
                    f"statistics part {i} ({rel.display}) is listed twice",
                    detail=f"it is the same release as {earlier.display}"
                    + (f" (release {h.release_id} of madnb.privacy_ledger)" if h.release_id is not None else f" (statistics id {h.id})"),
                    hint="list each statistics table once: a merge adds up its parts",
                )
        seen[h.id] = rel
        if h.release_id is not None:
            releases[h.release_id] = rel
        for what, _, get in _COMPARED:
            if get(h) != get(first):
                raise MadnbError(
                    "22023",
                    f"statistics part {i} ({rel.display}) is not compatible with part 1 ({first_rel.display})",
                    detail=f"its {what} is {get(h)!r}, part 1's is {get(first)!r}",
                    hint="only statistics released with the same numAttrs, numeric indices, types, mode, "
                    "bounds and public domain add up to one model",
                )


def _shape(plpy: Any, rel: Relation, h: Header, what: str) -> stats.Training:
    """A Training-shaped description of the model (types from the stored table, checked against the header)."""
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
    return stats.Training(rel, cls, attrs, h.num_attrs, h.numeric_sorted, tuple(h.numeric))


def _union(parts: list[tuple[Relation, Header]]) -> str:
    return " UNION ALL ".join(
        f"SELECT {i}::pg_catalog.int4 AS part, s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.mean_lo, s.var, s.s1, s.s2 "
        f"FROM {rel.sql} AS s"
        for i, (rel, _) in enumerate(parts, start=1)
    )


def _temp(prefix: str) -> str:
    return quote_ident("pg_temp") + "." + quote_ident(prefix + secrets.token_hex(6))


def merged_exact_select(parts: list[tuple[Relation, Header]], t: stats.Training) -> str:
    """The summed exact statistics, shaped like the statistics pass (cls, o, v, n, nv, mean, var), o = 0 for class rows."""
    num = t.numeric_array_sql
    f8 = stats.F8
    elem = t.attrs.elem_sql
    return (
        f"WITH u AS ({_union(parts)}), "
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
        "pg_catalog.min(w.mean) AS m1, pg_catalog.min(w.var) AS v1, pg_catalog.min(w.ref) AS ref, pg_catalog.min(w.ref_lo) AS ref_lo, "
        f"pg_catalog.sum(w.nv::{f8} * w.dev) / NULLIF(pg_catalog.sum(w.nv), 0)::{f8} AS d "
        "FROM w GROUP BY w.cls, w.attr), "
        "x AS (SELECT g.cls, g.attr, g.nv, g.k, g.m1, g.v1, g.ref, g.ref_lo, g.d, "
        f"pg_catalog.sum(COALESCE(w.var * (w.nv - 1)::{f8}, 0::{f8}) "
        f"+ COALESCE(w.nv::{f8} * (w.dev - g.d) * (w.dev - g.d), 0::{f8})) AS m2 "
        "FROM g JOIN w ON w.cls = g.cls AND w.attr = g.attr GROUP BY g.cls, g.attr, g.nv, g.k, g.m1, g.v1, g.ref, g.ref_lo, g.d) "
        f"SELECT c.cls, c.o, c.v, c.n, NULL::pg_catalog.int8 AS nv, NULL::{f8} AS mean, NULL::{f8} AS var FROM c "
        f"UNION ALL SELECT x.cls, x.attr, NULL::{elem}, NULL::pg_catalog.numeric, x.nv::pg_catalog.int8, "
        "CASE WHEN x.k = 1 THEN x.m1 WHEN x.k > 1 THEN x.ref + (x.ref_lo + x.d) END, "
        f"CASE WHEN x.k = 1 THEN x.v1 WHEN x.k > 1 AND x.nv > 1 THEN x.m2 / (x.nv - 1)::{f8} END FROM x"
    )


def merged_private_select(parts: list[tuple[Relation, Header]]) -> str:
    """The summed raw noisy cells (cls, o, v, n, s1, s2): nothing is clamped before the sum."""
    return (
        f"SELECT u.cls, u.attr AS o, u.value AS v, pg_catalog.sum(u.n) AS n, pg_catalog.sum(u.s1) AS s1, "
        f"pg_catalog.sum(u.s2) AS s2 FROM ({_union(parts)}) AS u GROUP BY 1, 2, 3"
    )


def create_model(
    plpy: Any,
    parts: list[tuple[Relation, Header]],
    fp: NewName,
    np: NewName | None,
    cp: NewName,
    smoothing: float,
    what: str = "statistics",
    shape: stats.Training | None = None,
) -> None:
    """Check, sum and post-process the parts into MADlib's model tables; comment them.

    ``shape``: the training the single part was just released from (training
    passes it; otherwise the types are read from each part and checked against
    its header).
    """
    check_compatible(parts)
    first_rel, first = parts[0]
    t = shape if shape is not None and len(parts) == 1 else _shape(plpy, first_rel, first, what)
    for other, h in parts[1:]:
        _shape(plpy, other, h, what)
    merged = _temp("madnb_merged_")
    if len(parts) == 1:
        # one part is its own sum (what training derives from): read it in place
        rel = first_rel.sql
        cells = (
            f"(SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.s1, s.s2 FROM {rel} AS s)" if first.private
            else f"(SELECT s.cls, s.attr AS o, s.value AS v, s.n, s.nv, s.mean, s.var FROM {rel} AS s)"
        )
    else:
        select = merged_private_select(parts) if first.private else merged_exact_select(parts, t)
        plpy.execute(f"CREATE TEMPORARY TABLE {merged} ON COMMIT DROP AS {select}")
        cells = merged
    if first.private:
        eps = effective_epsilon([h for _, h in parts])
        ctes = stats.with_clause(stats.dp_model_ctes(cells, t, first.numeric_bounds(), eps))
    else:
        ctes = stats.with_clause(stats.model_ctes(cells, t, stats.CLASS_ROWS_OF_TABLE))
    stats.write_model_tables(plpy, ctes, t, cp, fp, np, smoothing)
    if len(parts) > 1:
        plpy.execute(f"DROP TABLE {merged}")
    _comment_model(plpy, parts, fp, np, cp)
    for name in (fp, cp) + ((np,) if np is not None else ()):
        plpy.execute(f"ANALYZE {name.sql}")


def _comment_model(plpy: Any, parts: list[tuple[Relation, Header]], fp: NewName, np: NewName | None, cp: NewName) -> None:
    """The model's comments: what it is, from which source(s), and the statistics it was derived from."""
    first = parts[0][1]
    sources = list(dict.fromkeys(h.source for _, h in parts))
    src = ", ".join(sources)
    if len(parts) > 1:
        src = f"{src} (the sum of {len(parts)} statistics tables)"
    derived = "derived from statistics " + ", ".join(f"{rel.sql} (id {h.id})" for rel, h in parts)
    num_attrs = f"numAttrs = {int(first.num_attrs)}"
    if first.private:
        about = "; ".join(
            dict.fromkeys(f"{h.guarantee}; release {h.release_id} of madnb.privacy_ledger" for _, h in parts)
        )
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
        plpy.execute(f"COMMENT ON TABLE {name.sql} IS {plpy.quote_literal(text + '; ' + derived)}")


__all__ = ["check_compatible", "create_model", "effective_epsilon", "merged_exact_select", "merged_private_select"]

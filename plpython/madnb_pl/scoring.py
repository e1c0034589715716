"""Scoring SQL: the classify and probs views.

A view reads the model tables live (MADlib's layout) and scores each row of the
classify source on its own.  Per query, the model is reshaped once into a single
row of arrays (``m``): log priors, per-class log-probability tables and, for
numeric attributes, per-class Gaussian parameters indexed by attribute number.
The number of classes K and of attributes are fixed when the view is created; a
view whose model later changes shape raises an error (55000) asking for it to be
recreated.  Natural logs throughout, log-sum-exp normalisation.

Two forms, chosen when the view is created:

* unrolled (integer codes, values with a canonical text form and/or Gaussian
  attributes, up to UNROLL_MAX_ATTRS attributes and UNROLL_MAX_TERMS class x
  attribute terms): the view holds one expression per class, a sum with one term
  per attribute, evaluated in the scan of the source.  The one-row model is
  hash-joined on an always-true key, so PostgreSQL 15 can run the scan, the join
  and the expressions in parallel workers; only the final arg-max /
  normalisation runs in the leader.  An ad hoc view's model comes from common
  table expressions (leader only), so it reads the model through scalar
  subqueries instead: InitPlan parameters, passed to the workers.  Categorical value v of attribute j is read
  as ``lut_k[j][v - lo0]`` (strategy ``codes``: one value range for all
  attributes) or ``lut_k[j][js_j -> v::text]`` (strategy ``dict``: a jsonb
  dictionary of ranks per attribute); values outside the range, missing,
  fractional or not in the dictionary read NULL and add 0.
* LATERAL (other values, very wide rows): each source row's attributes are
  unnested inside a LATERAL subquery that sums one column per class.
  PostgreSQL 15 runs such a subquery in the leader only (serial plan).
  Categorical lookups there come in three strategies: ``codes`` (integer
  values; when all attributes share one value range, as the unrolled form
  needs, ``lut_k[(attr - 1) * w + v - lo0]`` in a flat table with the index
  computed once per value, else slot = base + (v - lo) + 2 in one table, slot 1
  holding 0 for unseen values), ``dict`` (``lut_k[attr][rank]``, the rank found in one jsonb object
  of per-attribute dictionaries) and ``join`` (a join of the unnested values to
  one row per (attribute, value) holding every class's log-probability; slow on
  large tables, as PostgreSQL picks a merge join against the whole model per row).

Categorical: log P(a=v|c) = ln(cnt + s) - ln(n_{c,a} + s * attr_cnt), where
n_{c,a} is the number of class-c rows with attribute a present (MADlib's
class_cnt when nothing is missing) and s the feature table's smoothing (1,
Laplace, by default; a value above MAX_SMOOTHING edited into the table is
computed in a form that cannot overflow).
Gaussian: log N(x; mean, var) = a - (r * (x - mean))^2, a = -ln(2 pi var) / 2,
r = sqrt(1 / (2 var)), with var floored at 1e-9 times the attribute's total
variance over the training data (scikit-learn's var_smoothing idea), so a
one-row class or a constant attribute scores instead of failing.

What a row cannot spoil (each row is scored on its own, nothing it holds can
make another row fail or read NaN):

* a NULL or NaN value is missing: its term adds 0;
* a Gaussian value beyond its attribute's window [min mean - R, max mean + R],
  R = GAUSS_CLIP_SDS (1e100) times the smallest standard deviation of the
  classes, is clipped to the window, ±Infinity and ±1e308 included: its terms
  stay finite (about -1e200 at most for the narrowest class) and the class
  with the widest variance wins such a row, as it does in the limit x -> ±inf;
* a row whose array has elements but not numAttrs of them gets NULL output
  (``nb_classification`` NULL, ``nb_prob`` NULL for every class); a NULL or
  empty array is a row with every attribute missing, scored by the priors.

Classify returns every class whose log-likelihood is within TIE_TOLERANCE
(1e-12) times max(1, |best|) of the best one, in class order.
"""

from __future__ import annotations

from .stats import MAX_SMOOTHING, int_array, with_clause

VAR_FLOOR_FACTOR = 1e-9
# Classes whose log-likelihoods are within TIE_TOLERANCE * max(1, |best|) of the best
# one are all returned by classify: a tie that is exact in rational arithmetic
# (10 rows per class, 4/12 * 9/12 against 6/12 * 6/12) is rarely exact in floating
# point, and MADlib's install-check expects both classes.  Rounding of a sum of n
# log terms is about n * 1e-16 relative, far below it.
TIE_TOLERANCE = 1e-12
# A Gaussian value x is clipped to [min mean - R, max mean + R] of its attribute,
# R = GAUSS_CLIP_SDS * the smallest (floored) standard deviation of the classes,
# before (x - mean) is squared, so that no term can overflow (1e308, Infinity).  A
# value that far out scores below -GAUSS_CLIP_SDS**2 / 2 in the narrowest class
# and the classes' order there is the order of their variances, as at infinity.
GAUSS_CLIP_SDS = 1e100
MAX_CLASSES = 500
MAX_CODE_SLOTS = 4_000_000
# The unrolled (parallel) form writes one term per (class, attribute) into the
# view; beyond these sizes the view uses the per-row LATERAL form.  The bound is
# JIT: with PostgreSQL's default jit = on, compiling the expression grows much
# faster than its size (measured, 20,000 rows, 3 classes: 300 terms +0.45 s,
# 750 terms 20 s against 0.75 s with jit off), while the LATERAL form is as fast
# as the unrolled one from about 60 attributes on.
UNROLL_MAX_ATTRS = 128
UNROLL_MAX_TERMS = 128
# The LATERAL form writes the positions 1..numAttrs into the view up to this many.
MAX_POSITION_LITERAL = 10_000
# The probs view picks class i's log-likelihood with a CASE up to this many classes
# (linear in K per output row), beyond it from an array built once per source row.
CASE_PICK_MAX_CLASSES = 16
INTEGER_TYPES = {20, 21, 23}  # int8, int2, int4
INTEGRAL_CHECK_TYPES = {700, 701, 1700}  # real, float8, numeric: codes if every value is whole
# Types with a canonical text form (equal values, equal text within a query, see
# _dict_key): their values are looked up in a jsonb dictionary in the unrolled form.
# text, varchar, char(n) and name only under a deterministic collation.  Not float
# (0 = -0, NaNs, and its text form depends on extra_float_digits) or interval
# ('1 day' = '24 hours').
DICT_TYPES = {25, 1043, 1042, 19, 16, 1082, 1114, 1184, 2950, 1700}
# text varchar bpchar name bool date timestamp timestamptz uuid numeric
TEXT_TYPES = {25, 1043, 1042}


def _dict_key(expr: str, type_oid: int | None) -> str:
    """The dictionary key of a value: its text form, made canonical where needed.

    char(n) loses its trailing blanks in the cast (its equality ignores them);
    numeric drops trailing zeros (1.50 = 1.5).
    """
    if type_oid == 1700:
        return f"pg_catalog.trim_scale({expr})::pg_catalog.text"
    return f"({expr})::pg_catalog.text"
F8 = "pg_catalog.float8"


def _ln(expr: str) -> str:
    """Natural log that maps 0 (possible with smoothing 0 or noisy counts) to -Infinity."""
    return f"(CASE WHEN ({expr}) > 0 THEN pg_catalog.ln(({expr})::{F8}) ELSE '-Infinity'::{F8} END)"


def _cls(cp: str) -> str:
    """Classes with their position 1..K (in class order).

    Positions come from unnest ... WITH ORDINALITY over one aggregate rather than
    row_number(): a window function would make the model parallel-unsafe.
    """
    return (
        "(SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM ("
        "SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, "
        f"pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM {cp} AS m) AS s "
        "CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) "
        "WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos))"
    )


def _catl(cp: str, fp: str, smoothing: float | str) -> str:
    """One row per (class, attr, value) of the feature table with its log-probability.

    ``smoothing`` is a number, or an SQL expression over the feature table's row
    ``f`` (e.g. its ``smoothing`` column, read live).  A smoothing factor above
    MAX_SMOOTHING (only possible by editing the table) is computed as
    (cnt / s + 1) / (n / s + attr_cnt), which cannot overflow.
    """
    s = f"({smoothing})" if isinstance(smoothing, str) else f"{float(smoothing)!r}::{F8}"
    usual = f"{_ln(f'f.cnt + {s}')} - {_ln(f'n.cnt + {s} * f.attr_cnt')}"
    scaled = f"{_ln(f'f.cnt / {s} + 1')} - {_ln(f'n.cnt / {s} + f.attr_cnt')}"
    return (
        "(SELECT f.attr, f.value, c.pos, "
        f"CASE WHEN {s} <= {MAX_SMOOTHING!r}::{F8} THEN {usual} ELSE {scaled} END AS lp "
        f"FROM {fp} AS f JOIN {_cls(cp)} AS c ON c.class = f.class "
        # n_{c,a} by a grouped join, not a window function (which would make the model parallel-unsafe)
        f"JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM {fp} AS g GROUP BY g.class, g.attr) AS n "
        "ON n.class = f.class AND n.attr = f.attr)"
    )


def code_layout(plpy: object, fp: str, value_type_oid: int, num_attrs: int, n_classes: int, prefix: str = "") -> tuple[bool, bool]:
    """Which integer-code layouts fit the feature table as it is now: (codes, rectangle).

    ``codes``: each attribute's values occupy a dense slot range of one table
    (the LATERAL form).  ``rectangle``: one value range [lo, hi] for every
    attribute, so that the unrolled form looks value v of attribute j up as
    ``lut_k[j][v - lo + 1]``; used when that rectangle is not much larger than
    the feature table.  Both need whole values within the int4 range (the
    arithmetic is done in numeric here, so huge or infinite values just rule
    the layouts out).
    """
    if value_type_oid not in INTEGER_TYPES | INTEGRAL_CHECK_TYPES:
        return False, False
    whole = "true" if value_type_oid in INTEGER_TYPES else "pg_catalog.bool_and(f.value = pg_catalog.trunc(f.value))"
    num = "pg_catalog.numeric"
    row = plpy.execute(  # type: ignore[attr-defined]
        f"{prefix}SELECT COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 "
        f"AND q.slots <= 4 * q.n + 1024 AND q.slots <= {MAX_CODE_SLOTS}, false) AS codes, "
        f"COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 "
        f"AND q.width * {int(num_attrs)} <= 4 * q.n + 4096 "
        f"AND q.width * {int(num_attrs) * int(n_classes)} <= {MAX_CODE_SLOTS}, false) AS rectangle FROM ("
        "SELECT pg_catalog.sum(r.span) AS slots, pg_catalog.sum(r.n) AS n, pg_catalog.bool_and(r.whole) AS whole, "
        "pg_catalog.min(r.lo) AS lo, pg_catalog.max(r.hi) AS hi, pg_catalog.max(r.hi) - pg_catalog.min(r.lo) + 1 AS width FROM ("
        f"SELECT pg_catalog.min(f.value)::{num} AS lo, pg_catalog.max(f.value)::{num} AS hi, "
        f"pg_catalog.max(f.value)::{num} - pg_catalog.min(f.value)::{num} + 1 AS span, pg_catalog.count(*) AS n, "
        f"{whole} AS whole FROM {fp} AS f GROUP BY f.attr) AS r) AS q"
    )[0]
    return bool(row["codes"]), bool(row["codes"] and row["rectangle"])


def dict_layout_ok(plpy: object, fp: str, num_attrs: int, n_classes: int, prefix: str = "") -> bool:
    """Whether text values fit the unrolled form's dictionaries: a [attribute][rank] table per class.

    Each attribute's values get ranks 1..W_a; the table is num_attrs x max W_a.
    """
    row = plpy.execute(  # type: ignore[attr-defined]
        f"{prefix}SELECT pg_catalog.max(r.w) AS width, COALESCE(pg_catalog.sum(r.w), 0) AS pairs FROM ("
        f"SELECT pg_catalog.count(DISTINCT f.value) AS w FROM {fp} AS f GROUP BY f.attr) AS r"
    )[0]
    if row["width"] is None:
        return False
    cells = int(row["width"]) * int(num_attrs)
    return cells <= 4 * int(row["pairs"]) + 4096 and cells * int(n_classes) <= MAX_CODE_SLOTS


def unroll_ok(strategy: str, rectangle: bool, num_attrs: int, n_classes: int) -> bool:
    """Whether a view uses the unrolled (parallel) form rather than the LATERAL one."""
    if strategy == "join" or (strategy == "codes" and not rectangle):
        return False
    return num_attrs <= UNROLL_MAX_ATTRS and num_attrs * n_classes <= UNROLL_MAX_TERMS


def _slot_tables(cp: str, n: int, n_classes: int, slotted: str, width: str, flat: bool = False) -> str:
    """One row: per class k, ``lut{k}[attr][slot]``, the log-probability table of the
    unrolled and dictionary forms (0 where a slot holds no training value).

    ``slotted`` has rows (attr, pos, slot, lp) with slots 1..w; ``width`` is a
    one-row subquery with column ``w``.  ``flat``: one-dimensional tables,
    ``lut{k}[(attr - 1) * w + slot]`` (the LATERAL form computes that index once
    per value; a two-dimensional subscript per class costs more).
    """
    per_class = ", ".join(f"pg_catalog.max(q.arr) FILTER (WHERE q.pos = {k}) AS lut{k}" for k in range(1, n_classes + 1))
    rows = "r.arr ORDER BY r.a" if not flat else "e.lp ORDER BY r.a, e.s"
    unnest = "" if not flat else " CROSS JOIN LATERAL pg_catalog.unnest(r.arr) WITH ORDINALITY AS e(lp, s)"
    return (
        f"(SELECT {per_class} FROM ("
        f"SELECT r.pos, pg_catalog.array_agg({rows}) AS arr FROM ("
        f"SELECT c.pos, g.a, pg_catalog.array_agg(COALESCE(x.lp, 0::{F8}) ORDER BY s.s) AS arr "
        f"FROM {_cls(cp)} AS c CROSS JOIN pg_catalog.generate_series(1, {n}) AS g(a) CROSS JOIN {width} AS b "
        "CROSS JOIN LATERAL pg_catalog.generate_series(1, b.w) AS s(s) "
        f"LEFT JOIN {slotted} AS x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s.s "
        f"WHERE madnb._check_code_slots(b.w::pg_catalog.int8 * {n * n_classes}, {MAX_CODE_SLOTS}) > 0 "
        f"GROUP BY c.pos, g.a) AS r{unnest} GROUP BY r.pos) AS q)"
    )


def _rect_model(cp: str, fp: str, n: int, n_classes: int, smoothing: float | str, flat: bool = False) -> list[str]:
    """One-row subqueries for the codes form over one value range: lut{k}[attr][v - lo0],
    lo0, hi1 and the width w = hi1 - lo0 - 1 (``flat``: lut{k}[(attr - 1) * w + v - lo0])."""
    rect = (
        "(SELECT pg_catalog.min(f.value)::pg_catalog.int8 - 1 AS lo0, pg_catalog.max(f.value)::pg_catalog.int8 + 1 AS hi1, "
        "pg_catalog.max(f.value)::pg_catalog.int8 - pg_catalog.min(f.value)::pg_catalog.int8 + 1 AS w "
        f"FROM {fp} AS f)"
    )
    slotted = (
        "(SELECT x.attr, x.pos, (x.value::pg_catalog.int8 - b.lo0)::pg_catalog.int4 AS slot, x.lp "
        f"FROM {_catl(cp, fp, smoothing)} AS x CROSS JOIN {rect} AS b)"
    )
    width = f"(SELECT b.hi1 - b.lo0 - 1 AS w FROM {rect} AS b)"
    return [_slot_tables(cp, n, n_classes, slotted, width, flat), rect]


def _ranks(fp: str) -> str:
    """Each attribute's distinct training values with ranks 1..W_a."""
    return (
        "(SELECT d.attr, u.value, u.rank::pg_catalog.int4 AS rank FROM ("
        f"SELECT f.attr, pg_catalog.array_agg(DISTINCT f.value) AS vals FROM {fp} AS f GROUP BY f.attr) AS d "
        "CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(d.vals)) WITH ORDINALITY AS u(value, rank))"
    )


def _dict_model(
    cp: str, fp: str, n: int, n_classes: int, smoothing: float | str, cat_attrs: list[int] | None, value_type_oid: int | None,
) -> list[str]:
    """One-row subqueries for values looked up by their text form.

    ``lut{k}[a][rank]``: log-probabilities per class.  Dictionaries from training
    values to ranks 1..W_a (a jsonb key lookup is a binary search on the bytes: the
    equality of these types, see DICT_TYPES): for the unrolled form one column
    ``js{a}`` per attribute in ``cat_attrs``; for the LATERAL form (``cat_attrs``
    None) one object ``jsall`` keyed by attribute number.
    """
    ranks = _ranks(fp)
    key = _dict_key("r.value", value_type_oid)
    if cat_attrs is None:
        dicts: str | None = (
            "(SELECT pg_catalog.jsonb_object_agg(d.attr::pg_catalog.text, d.js) AS jsall FROM ("
            f"SELECT r.attr, pg_catalog.jsonb_object_agg({key}, r.rank) AS js FROM {ranks} AS r GROUP BY r.attr) AS d)"
        )
    elif cat_attrs:
        cols = ", ".join(f"pg_catalog.jsonb_object_agg({key}, r.rank) FILTER (WHERE r.attr = {a}) AS js{a}" for a in cat_attrs)
        dicts = f"(SELECT {cols} FROM {ranks} AS r)"
    else:
        dicts = None
    slotted = (
        f"(SELECT c.attr, c.pos, r.rank AS slot, c.lp FROM {_catl(cp, fp, smoothing)} AS c "
        f"JOIN {ranks} AS r ON r.attr = c.attr AND r.value = c.value)"
    )
    width = f"(SELECT pg_catalog.max(r.rank) AS w FROM {ranks} AS r)"
    return [_slot_tables(cp, n, n_classes, slotted, width)] + ([dicts] if dicts else [])


def _code_model(cp: str, fp: str, n: int, smoothing: float | str) -> list[str]:
    """One-row subqueries of the model for the ``codes`` strategy (joined, not scalar subqueries)."""
    catl = _catl(cp, fp, smoothing)
    rng = (
        "(SELECT c.attr, pg_catalog.min(c.value)::pg_catalog.int8 AS lo, pg_catalog.max(c.value)::pg_catalog.int8 AS hi "
        f"FROM {catl} AS c GROUP BY c.attr)"
    )
    offs = (
        "(SELECT r.attr, r.lo, r.hi, (pg_catalog.sum(r.hi - r.lo + 1) OVER (ORDER BY r.attr) - (r.hi - r.lo + 1))::pg_catalog.int8 AS base "
        f"FROM {rng} AS r)"
    )
    total = f"(SELECT COALESCE(pg_catalog.sum(r.hi - r.lo + 1), 0)::pg_catalog.int8 + 1 AS total FROM {rng} AS r)"
    slots = (
        "(SELECT c.pos, (o.base + (c.value::pg_catalog.int8 - o.lo) + 2)::pg_catalog.int4 AS slot, c.lp "
        f"FROM {catl} AS c JOIN {offs} AS o ON o.attr = c.attr)"
    )
    lut = (
        "(SELECT pg_catalog.array_agg(q.arr ORDER BY q.pos) AS lut FROM ("
        f"SELECT c.pos, pg_catalog.array_agg(COALESCE(sl.lp, 0::{F8}) ORDER BY g.slot) AS arr "
        f"FROM {_cls(cp)} AS c CROSS JOIN {total} AS t "
        f"CROSS JOIN LATERAL pg_catalog.generate_series(1, madnb._check_code_slots(t.total, {MAX_CODE_SLOTS})) AS g(slot) "
        "LEFT JOIN " + slots + " AS sl ON sl.pos = c.pos AND sl.slot = g.slot GROUP BY c.pos) AS q)"
    )
    ranges = (
        "(SELECT pg_catalog.array_agg(COALESCE(o.lo, 1) ORDER BY g.a) AS lo, "
        "pg_catalog.array_agg(COALESCE(o.hi, 0) ORDER BY g.a) AS hi, "
        "pg_catalog.array_agg(COALESCE(o.base, 0) ORDER BY g.a) AS base "
        f"FROM pg_catalog.generate_series(1, {n}) AS g(a) LEFT JOIN {offs} AS o ON o.attr = g.a)"
    )
    return [lut, ranges]


def _numeric_model(cp: str, np: str, n: int, n_classes: int) -> list[str]:
    """One-row subqueries for Gaussian attributes: arrays [class][attribute]."""
    numb = (
        "(SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt "
        f"FROM {np} AS x JOIN {_cls(cp)} AS c ON c.class = x.class WHERE x.value_cnt > 0)"
    )
    numg = (
        "(SELECT b.attr, pg_catalog.sum(b.cnt * b.mu) / pg_catalog.sum(b.cnt) AS gm, pg_catalog.sum(b.cnt) AS tot "
        f"FROM {numb} AS b GROUP BY b.attr)"
    )
    numf = (
        "(SELECT b.attr, pg_catalog.sum(GREATEST(b.cnt - 1, 0) * COALESCE(b.var, 0) + b.cnt * (b.mu - g.gm) * (b.mu - g.gm)) / g.tot AS total_var "
        f"FROM {numb} AS b JOIN {numg} AS g ON g.attr = b.attr GROUP BY b.attr, g.tot)"
    )
    numw = (
        "(SELECT b.attr, b.pos, b.mu, GREATEST(COALESCE(b.var, 0), "
        f"CASE WHEN f.total_var > 0 THEN {VAR_FLOOR_FACTOR!r} * f.total_var ELSE 1 END) AS w "
        f"FROM {numb} AS b JOIN {numf} AS f ON f.attr = b.attr)"
    )
    # the clipping window of each attribute (see GAUSS_CLIP_SDS)
    numr = (
        f"(SELECT w.attr, pg_catalog.min(w.mu) - {GAUSS_CLIP_SDS!r} * pg_catalog.sqrt(pg_catalog.min(w.w)) AS lo, "
        f"pg_catalog.max(w.mu) + {GAUSS_CLIP_SDS!r} * pg_catalog.sqrt(pg_catalog.min(w.w)) AS hi "
        f"FROM {numw} AS w GROUP BY w.attr)"
    )
    # one array per class, indexed by attribute; 0 where a class has no value of the
    # attribute (the term then adds 0).  A term is a - (r * (x - mu))^2 with
    # a = -ln(2 pi w) / 2 and r = sqrt(1 / (2 w)): r * (x - mu) stays finite where
    # (x - mu)^2 alone would not.
    per_class = ", ".join(
        f"pg_catalog.max(q.mu) FILTER (WHERE q.pos = {k}) AS mu{k}, pg_catalog.max(q.r) FILTER (WHERE q.pos = {k}) AS r{k}, "
        f"pg_catalog.max(q.a) FILTER (WHERE q.pos = {k}) AS a{k}"
        for k in range(1, n_classes + 1)
    )
    grids = (
        f"(SELECT {per_class} FROM ("
        f"SELECT c.pos, pg_catalog.array_agg(COALESCE(w.mu, 0::{F8}) ORDER BY g.a) AS mu, "
        f"pg_catalog.array_agg(COALESCE(pg_catalog.sqrt(0.5 / w.w), 0::{F8}) ORDER BY g.a) AS r, "
        f"pg_catalog.array_agg(COALESCE(-0.5 * pg_catalog.ln(2 * pg_catalog.pi() * w.w), 0::{F8}) ORDER BY g.a) AS a "
        f"FROM {_cls(cp)} AS c CROSS JOIN pg_catalog.generate_series(1, {n}) AS g(a) "
        f"LEFT JOIN {numw} AS w ON w.pos = c.pos AND w.attr = g.a GROUP BY c.pos) AS q)"
    )
    window = (
        f"(SELECT pg_catalog.array_agg(COALESCE(b.lo, 0::{F8}) ORDER BY g.a) AS nlo, "
        f"pg_catalog.array_agg(COALESCE(b.hi, 0::{F8}) ORDER BY g.a) AS nhi "
        f"FROM pg_catalog.generate_series(1, {n}) AS g(a) LEFT JOIN {numr} AS b ON b.attr = g.a)"
    )
    isnum = (
        "(SELECT pg_catalog.array_agg(x.attr IS NOT NULL ORDER BY g.a) AS isnum "
        f"FROM pg_catalog.generate_series(1, {n}) AS g(a) LEFT JOIN (SELECT DISTINCT y.attr FROM {np} AS y) AS x ON x.attr = g.a)"
    )
    return [grids, window, isnum]


def view_sql(
    *,
    prefix: list[tuple[str, str]],
    cp: str,
    fp: str,
    np: str | None,
    k: int,
    source: str,
    key: str,
    attrs: str,
    num_attrs: int,
    kind: str,
    strategy: str,
    value_type_oid: int | None,
    source_elem_oid: int | None,
    smoothing: float | str = 1.0,
    numeric_attrs: tuple[int, ...] | list[int] | None = None,
    unroll: bool = False,
    check_numeric: bool = True,
    rectangle: bool = False,
) -> str:
    """The SELECT of a classify (``kind='classify'``) or probs (``kind='probs'``) view.

    ``unroll`` selects the parallel form (see :func:`unroll_ok`); it needs the set
    of Gaussian attributes (``numeric_attrs``), which a view over prepared tables
    re-checks on every query (``check_numeric``).  ``rectangle`` (codes whose
    attributes share one value range, see :func:`code_layout`) lets the LATERAL
    form use the one-range tables too.
    """
    ks = range(1, k + 1)
    n = int(num_attrs)
    parts = [
        "(SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, "
        f"pg_catalog.array_agg({_ln(f'c.class_cnt::{F8} / c.all_cnt')} ORDER BY c.pos) AS prior, "
        f"madnb._check_class_count(pg_catalog.count(*), {k}) AS checked FROM {_cls(cp)} AS c)"
    ]
    # Every check of the model's shape is part of ``ready``, the one column the
    # scoring query filters or joins on (unreferenced columns may be optimised away).
    checks = ["m0.checked"]
    num = set(numeric_attrs or ())
    cat_attrs = [j for j in range(1, n + 1) if j not in num]
    if strategy == "dict":
        parts += _dict_model(cp, fp, n, k, smoothing, cat_attrs if unroll else None, value_type_oid)
    if strategy == "codes":
        assert value_type_oid is not None
        if unroll or rectangle:
            parts += _rect_model(cp, fp, n, k, smoothing, flat=not unroll)
        else:
            parts += _code_model(cp, fp, n, smoothing)
        if value_type_oid not in INTEGER_TYPES:
            parts.append(
                "(SELECT madnb._check_whole_values(pg_catalog.bool_and(f.value = pg_catalog.trunc(f.value))) AS whole "
                f"FROM {fp} AS f)"
            )
            checks.append(f"m{len(parts) - 1}.whole")
    if np is not None:
        parts += _numeric_model(cp, np, n, k)
        if unroll and check_numeric:
            baked = "{" + ",".join("t" if j in num else "f" for j in range(1, n + 1)) + "}"
            checks.append(
                f"madnb._check_view_model(m{len(parts) - 1}.isnum IS NOT DISTINCT FROM '{baked}'::pg_catalog.bool[], "
                "'numeric attributes')"
            )
    # A row whose array has elements but not numAttrs of them is not scored: its
    # output is NULL (a NULL or empty array is a row with every attribute missing).
    ok = (
        f"(pg_catalog.cardinality(src.{attrs}) OPERATOR(pg_catalog.=) ANY ('{{0,{n}}}'::pg_catalog.int4[])) IS NOT FALSE AS ok"
    )
    ready = " AND ".join(checks)
    joined = ", ".join(f"{p} AS m{j}" for j, p in enumerate(parts))
    ctes = list(prefix)

    if unroll:
        # One expression per class with a term per attribute, computed in the scan of
        # the source itself, so PostgreSQL can run it in parallel workers.  The model
        # row is hash-joined on an always-true key (a one-row hash table per worker);
        # DISTINCT ON keeps it one subquery without the OFFSET 0 that would stop
        # parallelism.
        #
        # The small per-class arrays are concatenated into one, ``g``, read at constant
        # positions: an array under 127 bytes is stored with a short header in the
        # hash table and PostgreSQL would copy it on every subscript.
        flat = ["prior"] + ([f"{w}{i}" for i in ks for w in ("a", "r", "mu")] + ["nlo", "nhi"] if np is not None else [])
        pos = {name: 1 + q * n for q, name in enumerate(flat[1:])}
        luts = ""
        if strategy == "codes":
            luts = "".join(f", lut{i}" for i in ks) + ", lo0, hi1"
        elif strategy == "dict":
            luts = "".join(f", lut{i}" for i in ks) + "".join(f", js{j}" for j in cat_attrs)
        model = f"SELECT DISTINCT ON (m0.checked) {ready} AS ready, m0.classes, {' || '.join(flat)} AS g{luts} FROM {joined}"
        if prefix:
            # An ad hoc view builds its model from common table expressions, which only
            # the leader may scan; read through scalar subqueries, the model becomes
            # InitPlan parameters, computed once in the leader and passed to the workers.
            ctes.append(("mdl", model))

            def m(col: str) -> str:
                return f"(SELECT mdl.{col} FROM mdl)"
        else:

            def m(col: str) -> str:
                return f"m.{col}"
        # Each Gaussian value is cleaned once per row, not once per class: NaN reads
        # NULL (missing), values beyond the attribute's window are clipped to it (see
        # GAUSS_CLIP_SDS).  The cleaned values come from a LATERAL subquery on the
        # nullable side of a left join whose condition is not constant, so PostgreSQL
        # keeps them as one computation per row (placeholders) rather than copying the
        # expression into every term, and still runs it in the parallel workers
        # (measured: one check per term made classify 25-40% slower).
        cleaned: list[str] = []
        terms: dict[int, list[str]] = {i: [] for i in ks}
        for j in range(1, n + 1):
            x = f"src.{attrs}[{j}]"
            if j in num:
                lo, hi = (f"{m('g')}[{k + pos[w] + j - 1}]" for w in ("nlo", "nhi"))
                # NULLIF reads the value once; float8larger / float8smaller (max / min)
                # are strict, so NULL stays NULL
                cleaned.append(
                    f"pg_catalog.float8smaller(pg_catalog.float8larger(NULLIF({x}::{F8}, 'NaN'::{F8}), {lo}), {hi}) AS x{j}"
                )
                for i in ks:
                    a, r, mu = (f"{m('g')}[{k + pos[f'{w}{i}'] + j - 1}]" for w in ("a", "r", "mu"))
                    terms[i].append(f"{a} - ({r} * (s.x{j} - {mu})) ^ 2")
            elif strategy == "dict":
                # a value missing from the dictionary reads NULL and adds 0
                for i in ks:
                    terms[i].append(f"{m(f'lut{i}')}[{j}][({m(f'js{j}')} -> {_dict_key(x, source_elem_oid)})::pg_catalog.int4]")
            elif strategy == "codes":
                # out-of-range values land on index 0 or width + 1: NULL, so they add 0
                idx = f"(LEAST(GREATEST({x}, {m('lo0')}), {m('hi1')}) - {m('lo0')})::pg_catalog.int4"
                if source_elem_oid not in INTEGER_TYPES:
                    idx = f"CASE WHEN {x} = pg_catalog.trunc({x}) THEN {idx} END"
                for i in ks:
                    terms[i].append(f"{m(f'lut{i}')}[{j}][{idx}]")
            # else: a categorical attribute of a model without categorical values adds 0
        ls = ", ".join(
            f"{m('g')}[{i}]" + "".join(f" + COALESCE({t}, 0)" for t in terms[i]) + f" AS l{i}" for i in ks
        )
        join = f"JOIN ({model}) AS m ON m.ready = (pg_catalog.num_nulls(src.{key}) >= 0)"
        if cleaned:
            where = f" WHERE {m('ready')}" if prefix else ""
            clean = f"LEFT JOIN LATERAL (SELECT {', '.join(cleaned)}) AS s ON {m('ready')}"
            scored = (
                f"SELECT src.{key} AS key, {m('classes')} AS classes, {ok}, {ls} FROM {source} AS src "
                f"{'' if prefix else join + ' '}{clean}{where} OFFSET 0"
            )
        elif prefix:
            scored = f"SELECT src.{key} AS key, {m('classes')} AS classes, {ok}, {ls} FROM {source} AS src WHERE {m('ready')} OFFSET 0"
        else:
            scored = f"SELECT src.{key} AS key, m.classes, {ok}, {ls} FROM {source} AS src {join} OFFSET 0"
    else:
        # The model is one row of arrays, built once per query from one-row aggregates.
        model = f"(SELECT {ready} AS ready, * FROM {joined} OFFSET 0)"
        x = "u.v"
        o = "w.o"
        joins = ""
        inner_cols = ["u.o::pg_catalog.int4 AS o", "u.v AS v"]
        if strategy == "codes" and rectangle:
            # one index per value into the flat per-class tables; NULL (adds 0) outside the range
            whole = "" if source_elem_oid in INTEGER_TYPES else f" AND {x} = pg_catalog.trunc({x})"
            inner_cols.append(
                f"(CASE WHEN {x} > m.lo0 AND {x} < m.hi1{whole} "
                f"THEN ((u.o - 1) * m.w + ({x} - m.lo0))::pg_catalog.int4 END) AS i"
            )
            cat_term = "m.lut{i}[w.i]"
        elif strategy == "codes":
            whole = "" if source_elem_oid in INTEGER_TYPES else f" AND {x} = pg_catalog.trunc({x})"
            uo = "u.o::pg_catalog.int4"
            inner_cols.append(
                f"(CASE WHEN {x} >= m.lo[{uo}] AND {x} <= m.hi[{uo}]{whole} "
                f"THEN (m.base[{uo}] + ({x} - m.lo[{uo}]))::pg_catalog.int4 + 2 ELSE 1 END) AS i"
            )
            cat_term = "m.lut[{i}][w.i]"
        elif strategy == "dict":
            inner_cols.append(f"(m.jsall -> u.o::pg_catalog.text -> {_dict_key(x, source_elem_oid)})::pg_catalog.int4 AS r")
            cat_term = "m.lut{i}[w.o][w.r]"
        elif strategy == "join":
            ctes.append(
                (
                    "cat",
                    "SELECT c.attr, c.value, "
                    + ", ".join(f"pg_catalog.max(c.lp) FILTER (WHERE c.pos = {i}) AS l{i}" for i in ks)
                    + f" FROM {_catl(cp, fp, smoothing)} AS c GROUP BY c.attr, c.value",
                )
            )
            # madnb._planner_hint() is an opaque true: it lowers the model's row estimate
            # so the planner always hashes the model (built once) rather than each row's values.
            joins = (
                " LEFT JOIN (SELECT * FROM cat WHERE madnb._planner_hint(cat.attr) AND madnb._planner_hint(cat.attr) "
                "AND madnb._planner_hint(cat.attr)) AS c ON c.attr = u.o AND c.value = u.v"
            )
            inner_cols += [f"c.l{i} AS c{i}" for i in ks]
            cat_term = "w.c{i}"
        elif strategy == "none":
            cat_term = ""
        else:  # pragma: no cover
            raise ValueError(strategy)
        if np is None and strategy == "codes":
            inner_cols = inner_cols[2:]  # only the slot is read past the fence
        if np is not None:
            # the value clipped to its attribute's window, once per value; NaN reads NULL
            uo = "u.o::pg_catalog.int4"
            xc = f"pg_catalog.float8smaller(pg_catalog.float8larger(NULLIF({x}::{F8}, 'NaN'::{F8}), m.nlo[{uo}]), m.nhi[{uo}])"
            inner_cols.append(f"{xc if strategy == 'none' else f'CASE WHEN m.isnum[{uo}] THEN {xc} END'} AS xc")
        xf = "w.xc"
        gauss = f"m.a{{i}}[{o}] - (m.r{{i}}[{o}] * ({xf} - m.mu{{i}}[{o}])) ^ 2"
        if np is None:
            term = cat_term
        elif not cat_term:
            term = gauss
        else:
            term = f"CASE WHEN m.isnum[{o}] THEN {gauss} ELSE {cat_term} END"
        sums = ", ".join(f"pg_catalog.sum({term.format(i=i)}) AS s{i}" for i in ks)
        # per-value expressions (the slot, the cleaned Gaussian value) are computed once
        fence = " OFFSET 0" if strategy in ("codes", "dict") or (strategy == "none" and np is not None) else ""
        if strategy == "join":
            values = f"pg_catalog.unnest(src.{attrs}) WITH ORDINALITY AS u(v, o)"
        else:
            # unnest in a select list (in lock-step with the positions) costs less than
            # in FROM, which materialises each row's values first: wide classify 3.9-4.5 s
            # -> 3.3 s measured.  Past a row's end v is NULL, past numAttrs o is: both
            # add nothing, as values that are missing or beyond numAttrs do.
            if n <= MAX_POSITION_LITERAL:
                positions = f"pg_catalog.unnest({int_array(range(1, n + 1), 'int8')})"
            else:
                positions = f"pg_catalog.generate_series(1::pg_catalog.int8, {n})"
            values = f"(SELECT pg_catalog.unnest(src.{attrs}) AS v, {positions} AS o) AS u"
        ls = ", ".join(f"m.prior[{i}] + COALESCE(z.s{i}, 0) AS l{i}" for i in ks)
        # OFFSET 0 fences keep each per-value and per-row expression computed once
        # (PostgreSQL 15 runs a LATERAL subquery in the leader only, so this form is serial).
        scored = (
            f"SELECT src.{key} AS key, m.classes, {ok}, {ls} "
            f"FROM {source} AS src CROSS JOIN {model} AS m CROSS JOIN LATERAL ("
            f"SELECT {sums} FROM (SELECT {', '.join(inner_cols)} "
            f"FROM {values}{joins} "
            f"WHERE u.o <= {n}{fence}) AS w) AS z WHERE m.ready OFFSET 0"
        )
    greatest = f"GREATEST({', '.join(f'q.l{i}' for i in ks)})"
    if kind == "classify":
        # every class within TIE_TOLERANCE of the best, in class order
        threshold = f"{greatest} - {TIE_TOLERANCE!r}::{F8} * GREATEST(1::{F8}, pg_catalog.abs({greatest}))"
        picks = ", ".join(f"CASE WHEN q.l{i} >= q.thr THEN q.classes[{i}] END" for i in ks)
        body = (
            f"SELECT q.key, CASE WHEN q.ok THEN pg_catalog.array_remove(ARRAY[{picks}], NULL) END AS nb_classification "
            f"FROM (SELECT q.*, {threshold} AS thr FROM ({scored}) AS q OFFSET 0) AS q"
        )
    elif kind == "probs":
        # K output rows per source row from a join with 1..K (a set-returning function
        # in the select list costs about 1 us per row more).  Per source row, in levels
        # kept apart by OFFSET 0 so that each is computed once: mx, then d_i = l_i - mx
        # (NULL where exp() would underflow: probability 0), then lse.  Per output row
        # only class i's d_i is picked (a CASE, or for many classes an array) and
        # exponentiated once.
        ds = ", ".join(f"CASE WHEN q.l{i} - q.mx < -700 THEN NULL ELSE q.l{i} - q.mx END AS d{i}" for i in ks)
        lse = " + ".join(f"COALESCE(pg_catalog.exp(q.d{i}), 0)" for i in ks)
        if k <= CASE_PICK_MAX_CLASSES:
            pick, per_row = "CASE c.i " + " ".join(f"WHEN {i} THEN q.d{i}" for i in ks) + " END", ""
        else:
            pick, per_row = "q.ds[c.i]", f", ARRAY[{', '.join(f'q.d{i}' for i in ks)}] AS ds"
        body = (
            f"SELECT q.key, q.classes[c.i] AS class, "
            f"CASE WHEN q.ok THEN COALESCE(pg_catalog.exp({pick} - q.lse), 0) END AS nb_prob FROM ("
            f"SELECT q.*, pg_catalog.ln({lse}) AS lse{per_row} FROM ("
            f"SELECT q.key, q.classes, q.ok, {ds} FROM (SELECT q.*, {greatest} AS mx FROM ({scored}) AS q OFFSET 0) AS q "
            "OFFSET 0) AS q OFFSET 0"
            f") AS q CROSS JOIN pg_catalog.generate_series(1, {k}) AS c(i)"
        )
    else:  # pragma: no cover
        raise ValueError(kind)
    # "cat" stays an inlinable CTE: MATERIALIZED makes its scan look tiny next to the
    # planner hint, and the planner then rescans it once per value (measured: 25x slower)
    return (with_clause(ctes) if ctes else "") + body

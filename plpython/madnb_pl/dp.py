"""Differentially private training: parameters, public domain, accounting, noise.

The privacy unit is one training row (add or remove).  A private training run
answers 1 + F_cat + 2 F_num queries, each with epsilon' = epsilon / (1 + F_cat +
2 F_num) (Vaidya et al. 2013; Marchioro et al. 2022, Algorithm 1):

* the class counts (one query; classes are disjoint);
* per categorical attribute, the counts of every (class, value) cell;
* per numeric attribute, the per-class sum and sum of squares of the value,
  clipped to public bounds and encoded as a fixed-point integer.

Every cell of the public domain is released with discrete Laplace (two-sided
geometric) noise from :mod:`madnb_pl.noise`, drawn from the operating system's
CSPRNG, once per cell, in the statement that aggregates the data; exact
statistics are never stored.  Everything else (clamping, probabilities,
variances) is post-processing of the noisy cells.

Accounting: one row per release in ``madnb.privacy_ledger``; with a budget set
for the source (``madnb.set_privacy_budget``), the release is charged to a
sequence before any noise is drawn.  Sequences are not transactional, so a
caller's ROLLBACK cannot undo a charge; a row lock on the budget serialises
concurrent charges.
"""

from __future__ import annotations

import json
import math
import numbers
import secrets
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from . import noise, stats
from .errors import MadnbError, entry_point
from .names import NewName, Relation, quote_ident, resolve_column, resolve_relation

FIXED_POINT_BITS = 20
"""Numeric values are encoded with K = 2**20 steps per half-width of their bounds."""

SPENT_UNITS = 10**12
"""Budgets are accounted in units of 1e-12 epsilon: charges round up, totals round down."""

MAX_BUDGET = 10**6
MECHANISM = "discrete laplace (two-sided geometric)"
OBSERVED = "observed"
INTEGER_TYPES = {20, 21, 23}

_test_source: noise.RandomSource | None = None


def use_test_source(source: noise.RandomSource | None) -> None:
    """Replace the CSPRNG with ``source`` in this session (tests only; ``None`` restores it).

    Reachable only from PL/Python code (which only a superuser can write), never
    from SQL: a user cannot seed the noise.
    """
    global _test_source
    _test_source = source


def _source() -> noise.RandomSource:
    return _test_source if _test_source is not None else noise.secure_source()


# ---------------------------------------------------------------------------
# The noise primitive (madnb.dp_laplace)
# ---------------------------------------------------------------------------


def _integral(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, Decimal)):
        raise MadnbError("22023", f"{what} must be an integer", hint="noise is added to counts and fixed-point sums")
    if isinstance(value, Decimal):
        if not value.is_finite() or value != value.to_integral_value():
            raise MadnbError("22023", f"{what} must be an integer", hint="noise is added to counts and fixed-point sums")
        return int(value)
    return int(value)


@entry_point
def laplace(plpy: Any, value: Any, sensitivity: Any, epsilon: float) -> int:
    """``value`` plus discrete Laplace noise of scale ``sensitivity / epsilon`` (exact).

    P(noise = x) is proportional to exp(-epsilon |x| / sensitivity).  The message of an
    error never contains ``value``.
    """
    v = _integral(value, "value")
    s = _integral(sensitivity, "sensitivity")
    if s <= 0:
        raise MadnbError("22023", "sensitivity must be positive", hint="the most one row can change the value, e.g. 1 for a count")
    if not (isinstance(epsilon, float) and math.isfinite(epsilon) and epsilon > 0):
        raise MadnbError("22023", "epsilon must be a positive finite number", hint="the privacy budget of this one released number")
    scale = noise.epsilon_to_scale(epsilon, s)
    return v + noise.discrete_laplace(scale, _source())


# ---------------------------------------------------------------------------
# Parameters
# ---------------------------------------------------------------------------

_BOUNDS_HINT = (
    "give one {lower, upper} pair per numeric attribute, in the order of numericAttrsColumnIndices, "
    "e.g. bounds => '{{17,90},{1,16}}'; bounds are public knowledge, never taken from the data"
)
_DOMAIN_HINT = (
    "pass domain => 'a table with columns (attr integer, value text)' listing the class labels (attr 0) "
    "and the allowed values of each categorical attribute (attr i), or domain => 'observed' "
    "to take the values present in the data (which discloses them)"
)


def parse_epsilon(epsilon: float | None) -> Fraction:
    """The total epsilon as the exact decimal it prints as (``0.1`` is 1/10)."""
    if epsilon is None:
        raise MadnbError("22004", "epsilon must not be NULL")
    if not math.isfinite(epsilon) or epsilon <= 0:
        raise MadnbError(
            "22023",
            f"epsilon must be a positive finite number, got {epsilon!r}",
            hint="epsilon is the privacy budget of this training run, e.g. epsilon => 1",
        )
    return Fraction(repr(float(epsilon)))


def per_query_epsilon(epsilon: Fraction, queries: int) -> float:
    """epsilon / queries as the largest float8 not above it, so the parts never exceed epsilon."""
    exact = epsilon / queries
    f = float(exact)
    if Fraction(f) > exact:
        f = math.nextafter(f, 0.0)
    if not f > 0:
        raise MadnbError("22023", "epsilon is too small to split over the queries of this model")
    return f


def parse_smoothing(smoothing: float | None) -> float:
    """The Laplace smoothing factor s: a number in 0..stats.MAX_SMOOTHING."""
    if smoothing is None:
        raise MadnbError("22004", "smoothing must not be NULL", hint="smoothing is the Laplace smoothing factor, 1 by default")
    if not math.isfinite(smoothing) or not 0 <= smoothing <= stats.MAX_SMOOTHING:
        raise MadnbError(
            "22023",
            f"smoothing must be a number from 0 to {stats.MAX_SMOOTHING:g}, got {smoothing!r}",
            hint="P(value|class) = (cnt + s) / (n + s * attr_cnt); s = 1 is Laplace smoothing, "
            "and a large s makes every probability nearly uniform",
        )
    return float(smoothing)


def parse_bounds(bounds: Any, given_order: list[int]) -> stats.NumericBounds:
    """Public bounds, one (lower, upper) pair per numeric attribute in the given order."""
    nnum = len(given_order)
    if nnum == 0:
        if bounds:
            raise MadnbError(
                "22023", "bounds are given but there are no numeric attributes",
                hint="bounds apply to numeric attributes only; leave them out",
            )
        return stats.NumericBounds((), FIXED_POINT_BITS)
    if bounds is None:
        raise MadnbError("22023", f"numeric attributes {given_order} need public bounds", hint=_BOUNDS_HINT)
    pairs = bounds
    if nnum == 1 and len(bounds) == 2 and not isinstance(bounds[0], list):
        pairs = [bounds]
    if len(pairs) != nnum or any(not isinstance(p, list) or len(p) != 2 for p in pairs):
        raise MadnbError(
            "22023",
            f"bounds must have {nnum} {{lower, upper}} pair(s), one per numeric attribute",
            hint=_BOUNDS_HINT,
        )
    out: list[tuple[int, float, float]] = []
    for attr, (lo, hi) in zip(given_order, pairs):
        if lo is None or hi is None:
            raise MadnbError("22023", f"the bounds of numeric attribute {attr} contain NULL", hint=_BOUNDS_HINT)
        lo, hi = float(lo), float(hi)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise MadnbError("22023", f"the bounds of numeric attribute {attr} must be finite, got {{{lo!r}, {hi!r}}}", hint=_BOUNDS_HINT)
        if lo >= hi:
            raise MadnbError(
                "22023", f"the lower bound of numeric attribute {attr} must be below its upper bound, got {{{lo!r}, {hi!r}}}",
                hint=_BOUNDS_HINT,
            )
        half = hi / 2 - lo / 2
        if not (half > 0 and math.isfinite((1 << FIXED_POINT_BITS) / half)):
            raise MadnbError("22023", f"the bounds of numeric attribute {attr} are too close together to encode", hint=_BOUNDS_HINT)
        out.append((attr, lo, hi))
    return stats.NumericBounds(tuple(sorted(out)), FIXED_POINT_BITS)


@dataclass(frozen=True)
class Privacy:
    """A validated private-training specification."""

    epsilon: Fraction
    queries: int
    per_query: float
    bounds: stats.NumericBounds
    domain: Relation | None  # None: observed

    @property
    def epsilon_text(self) -> str:
        """The total epsilon as an exact decimal (it is one: see :func:`parse_epsilon`)."""
        d = Decimal(self.epsilon.numerator) / Decimal(self.epsilon.denominator)
        return format(d.normalize(), "f") if d == d.to_integral_value() else str(d)

    @property
    def domain_text(self) -> str:
        return OBSERVED if self.domain is None else self.domain.display


def privacy_spec(
    plpy: Any, t: stats.Training, epsilon: float | None, bounds: Any, domain: str | None, given_order: list[int]
) -> Privacy:
    """Validate epsilon, bounds and the domain's name (22023 with a hint); nothing is read from the data."""
    eps = parse_epsilon(epsilon)
    nb = parse_bounds(bounds, given_order)
    queries = 1 + (t.num_attrs - len(t.numeric)) + 2 * len(t.numeric)
    per_query = per_query_epsilon(eps, queries)
    if domain is None:
        raise MadnbError("22023", "a differentially private model needs a public domain", hint=_DOMAIN_HINT)
    rel: Relation | None = None
    if domain.strip().lower() != OBSERVED:
        rel = resolve_relation(plpy, domain, "domain")
        attr = resolve_column(plpy, rel, "attr", "domain")
        resolve_column(plpy, rel, "value", "domain")
        if attr.type_oid not in INTEGER_TYPES:
            raise MadnbError(
                "42804", f'column "attr" of domain table {rel.display} is {attr.type_sql}, not an integer',
                hint=_DOMAIN_HINT,
            )
    return Privacy(eps, queries, per_query, nb, rel)


# ---------------------------------------------------------------------------
# The public domain
# ---------------------------------------------------------------------------


def fill_domain(plpy: Any, t: stats.Training, p: Privacy, dom: str) -> None:
    """Fill the temporary domain table from the public domain table or from the data ('observed')."""
    n = t.num_attrs
    cat = [i for i in range(1, n + 1) if i not in t.numeric]
    cat_sql = "'{" + ",".join(str(i) for i in cat) + "}'::pg_catalog.int4[]"
    ctype, etype = t.cls.type_sql, t.attrs.elem_sql
    if p.domain is None:
        plpy.warning(
            "domain 'observed' discloses the set of class labels and attribute values present in the data",
            detail=f"the model trained from {t.source.display} lists exactly the values that occur in it; "
            "this is recorded in the privacy ledger and in the model tables' comments",
            hint=_DOMAIN_HINT,
        )
        src, cls, attrs = t.source.sql, t.cls.sql, t.attrs.sql
        plpy.execute(
            f"INSERT INTO {dom} (o, cls, v) "
            f"SELECT DISTINCT 0, t.{cls}, NULL::{etype} FROM {src} AS t WHERE t.{cls} IS NOT NULL "
            f"UNION ALL SELECT DISTINCT u.o::pg_catalog.int4, NULL::{ctype}, u.val FROM {src} AS t "
            f"CROSS JOIN LATERAL pg_catalog.unnest(t.{attrs}) WITH ORDINALITY AS u(val, o) "
            f"WHERE t.{cls} IS NOT NULL AND u.val IS NOT NULL AND u.o = ANY ({cat_sql})"
        )
    else:
        d = p.domain.sql
        bad = plpy.execute(
            f"SELECT pg_catalog.array_agg(DISTINCT d.attr ORDER BY d.attr) FILTER (WHERE d.attr < 0 OR d.attr > {n} "
            f"OR NOT (d.attr = 0 OR d.attr = ANY ({cat_sql}))) AS bad, "
            "pg_catalog.count(*) FILTER (WHERE d.attr IS NULL OR d.value IS NULL) AS nulls "
            f"FROM {d} AS d"
        )[0]
        if bad["nulls"]:
            raise MadnbError("22023", f"the domain table {p.domain.display} has NULL in attr or value", hint=_DOMAIN_HINT)
        if bad["bad"]:
            raise MadnbError(
                "22023",
                f"the domain table {p.domain.display} lists values for attribute(s) {bad['bad']}, "
                "which are not the class (0) or a categorical attribute",
                detail=f"categorical attributes: {cat}; numeric attributes {list(t.numeric)} take bounds instead",
                hint=_DOMAIN_HINT,
            )
        plpy.execute(
            f"INSERT INTO {dom} (o, cls, v) SELECT DISTINCT d.attr::pg_catalog.int4, "
            f"CASE WHEN d.attr = 0 THEN d.value::pg_catalog.text::{ctype} END, "
            f"CASE WHEN d.attr > 0 THEN d.value::pg_catalog.text::{etype} END FROM {d} AS d"
        )
    r = plpy.execute(
        f"SELECT pg_catalog.count(*) FILTER (WHERE d.o = 0) AS classes, "
        f"pg_catalog.array_agg(DISTINCT d.o) FILTER (WHERE d.o > 0) AS attrs FROM {dom} AS d"
    )[0]
    if r["classes"] == 0:
        raise MadnbError("22023", f"the domain {p.domain_text} has no class labels (attr 0)", hint=_DOMAIN_HINT)
    missing = sorted(set(cat) - set(r["attrs"] or []))
    if missing and p.domain is not None:
        raise MadnbError(
            "22023", f"the domain table {p.domain.display} lists no values for categorical attribute(s) {missing}",
            hint=_DOMAIN_HINT,
        )


# ---------------------------------------------------------------------------
# Accounting
# ---------------------------------------------------------------------------


def charge(plpy: Any, source: Relation, p: Privacy, parameters: dict[str, Any]) -> int:
    """Record the release in the ledger; charge it to the source's budget if one is set.

    Runs before any noise is drawn.  The budget row is locked (FOR UPDATE) until
    the caller's transaction ends, so concurrent charges to one source are
    serialised; the spent total lives in a sequence, which ROLLBACK does not undo.
    """
    rows = plpy.execute(
        plpy.prepare(
            "SELECT b.total_epsilon::pg_catalog.text AS total, b.spent_sequence::pg_catalog.oid::pg_catalog.int8 AS seq "
            "FROM madnb.privacy_budget AS b WHERE b.source_oid = $1 FOR UPDATE",
            ["oid"],
        ),
        [source.oid],
    )
    if rows:
        seq = int(rows[0]["seq"])
        spent = plpy.execute(
            plpy.prepare("SELECT pg_catalog.pg_sequence_last_value($1::pg_catalog.regclass) AS v", ["oid"]), [seq]
        )[0]["v"]
        spent = int(spent or 0)
        total = Fraction(rows[0]["total"])
        cost = math.ceil(p.epsilon * SPENT_UNITS)
        limit = math.floor(total * SPENT_UNITS)
        if spent + cost > limit:
            left = Decimal(max(limit - spent, 0)) / SPENT_UNITS
            raise MadnbError(
                "53400",
                f"the privacy budget of {source.display} would be exceeded",
                detail=f"this release needs epsilon {p.epsilon_text}; the budget is {rows[0]['total']}, "
                f"of which {left.normalize():f} is left",
                hint="train with a smaller epsilon, or raise the budget with madnb.set_privacy_budget()",
            )
        plpy.execute(
            plpy.prepare("SELECT pg_catalog.setval($1::pg_catalog.regclass, $2, true)", ["oid", "int8"]),
            [seq, spent + cost],
        )
    return int(
        plpy.execute(
            plpy.prepare(
                "INSERT INTO madnb.privacy_ledger (source_oid, source_name, epsilon, mechanism, parameters) "
                "VALUES ($1, $2, $3::pg_catalog.numeric, $4, $5::pg_catalog.jsonb) RETURNING release_id",
                ["oid", "text", "text", "text", "text"],
            ),
            [source.oid, source.display, p.epsilon_text, MECHANISM, json.dumps(parameters, sort_keys=True)],
        )[0]["release_id"]
    )


# ---------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------


def _temp_name(prefix: str) -> str:
    return quote_ident("pg_temp") + "." + quote_ident(prefix + secrets.token_hex(6))


def create_private_tables(
    plpy: Any,
    t: stats.Training,
    p: Privacy,
    fp: NewName,
    np: NewName | None,
    cp: NewName,
    smoothing: float,
) -> int:
    """Train a differentially private model into MADlib's tables; return the ledger's release id."""
    dom = _temp_name("madnb_domain_")
    plpy.execute(stats.dp_domain_ddl(dom, t))
    fill_domain(plpy, t, p, dom)

    nb = p.bounds
    parameters = {
        "class_column": t.cls.name,
        "attr_column": t.attrs.name,
        "num_attrs": t.num_attrs,
        "numeric_attributes": list(t.numeric),
        "queries": p.queries,
        "epsilon_per_query": p.per_query,
        "bounds": {str(a): [lo, hi] for a, lo, hi in nb.bounds},
        "domain": p.domain_text,
        "domain_disclosed": p.domain is None,
        "fixed_point_bits": nb.bits,
        "sensitivity": {"count": 1, "sum": nb.scale, "sum_of_squares": nb.scale * nb.scale},
        "smoothing": smoothing,
        "outputs": {
            "featureProbs": fp.display,
            "classPriors": cp.display,
            **({"numericFeatureStats": np.display} if np is not None else {}),
        },
    }
    release = charge(plpy, t.source, p, parameters)

    noisy = _temp_name("madnb_noisy_")
    plpy.execute(stats.dp_noisy_ddl(noisy, t))
    plpy.execute(f"INSERT INTO {noisy} (cls, o, v, n, s1, s2) {stats.dp_release_select(t, nb, dom, p.per_query)}")

    ctes = stats.with_clause(stats.dp_model_ctes(noisy, dom, t, nb, p.per_query))
    stats.write_model_tables(plpy, ctes, t, cp, fp, np, smoothing)
    src = t.source.display
    about = (
        f"differentially private: epsilon {p.epsilon_text} in total, release {release} of madnb.privacy_ledger; "
        + ("domain observed from the data (the set of values is disclosed)" if p.domain is None else f"public domain {p.domain_text}")
    )
    _comment(plpy, cp, f"madnb class priors trained from {src}; noisy class counts clamped at 0; {about}")
    _comment(
        plpy, fp,
        f"madnb categorical feature counts trained from {src}; noisy counts clamped at 0, attr_cnt = size of the public domain; "
        f"P(value|class) = (cnt + smoothing) / (sum of cnt over the attribute's values + smoothing * attr_cnt); {about}",
    )
    if np is not None:
        _comment(
            plpy, np,
            f"madnb Gaussian parameters trained from {src}: mean and variance from noisy sums of values clipped to "
            f"public bounds, over the noisy class count (value_cnt); {about}",
        )
    plpy.execute(f"DROP TABLE {noisy}, {dom}")
    return release


def _comment(plpy: Any, name: NewName, text: str) -> None:
    plpy.execute(f"COMMENT ON TABLE {name.sql} IS {plpy.quote_literal(text)}")

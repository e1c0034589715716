"""Differentially private training: parameters, domain, accounting, noise.

Neighbouring datasets differ by adding or removing one training row: a release
is epsilon-DP for that relation (replacing one row costs 2 epsilon; a person
with k rows gets k epsilon).  A private training run answers 1 + F_cat + 2 F_num
release queries (Vaidya et al. 2013; Marchioro et al. 2022, Algorithm 1):

* the class counts (one query; classes are disjoint);
* per categorical attribute, the counts of every (class, value) cell;
* per numeric attribute, the per-class sum and sum of squares of the value,
  clipped to public bounds and encoded as a fixed-point integer.

Every cell of the domain is released with discrete Laplace (two-sided
geometric) noise from :mod:`madnb_pl.noise`, drawn from the operating system's
CSPRNG, once per cell, in the statement that aggregates the data; exact
statistics are never stored.  Everything else (clamping, probabilities,
variances) is post-processing of the noisy cells.

The domain (class labels, categorical values) is

* a public table: the release is epsilon-DP;
* ``'private'``: chosen from the data by differentially private partition
  selection (Desfontaines, Voss, Gipson, Mandayam, "Differentially private
  partition selection", PoPETs 2022): 1 + F_cat more queries, one per class
  column and categorical attribute, each keeping a candidate when its count
  plus discrete Laplace noise reaches the threshold of :func:`selection_threshold`;
  the release is (epsilon, delta)-DP;
* ``'observed'``: the values present in the data, which is not differentially
  private with respect to the set of values (the ledger and the model say so).

Every query gets epsilon' = epsilon / queries.  Everything that can fail is
validated before the release is charged (:func:`charge`); what runs after the
charge cannot fail whatever the data or the noise (clamps in numeric,
post-processing in ranges the validation guarantees).

Accounting: :func:`charge` calls ``madnb.record_private_release`` (SECURITY
DEFINER) before any noise is drawn: it checks the source's budget, adds epsilon
to the source's rollback-proof counter and writes the ledger row in schema
``madnb_privacy``, which users cannot write directly.
"""

from __future__ import annotations

import functools
import json
import math
import numbers
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from . import noise, stats
from .errors import MadnbError, entry_point
from .names import Relation, resolve_column, resolve_relation

FIXED_POINT_BITS = 20
"""Numeric values are encoded with K = 2**20 steps per half-width of their bounds."""

OBSERVED = "observed"
PRIVATE = "private"

EPSILON_PER_QUERY_MIN = 1e-50
EPSILON_PER_QUERY_MAX = 1e50
"""epsilon' must lie in this range: beyond it the noise or the variance floor leaves float8's range."""

HALF_WIDTH_MIN = 1e-100
HALF_WIDTH_MAX = 1e100
"""h = (upper - lower) / 2 must lie in this range, so that h**2 and the encoding step K / h are normal float8s."""

NOT_DP_OBSERVED = "not differentially private with respect to the set of values (domain observed)"
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


@entry_point(pin_search_path=False)  # no SQL here; its SQL function pins search_path itself
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
    scale = _scale(s, epsilon)
    return v + noise.discrete_laplace(scale, _source())


@functools.lru_cache(maxsize=64)
def _scale(sensitivity: int, epsilon: float) -> Fraction:
    """The exact scale sensitivity / epsilon (cached: a release asks for the same few, once per cell)."""
    return noise.epsilon_to_scale(epsilon, sensitivity)


# ---------------------------------------------------------------------------
# Parameters
# ---------------------------------------------------------------------------

_BOUNDS_HINT = (
    "give one {lower, upper} pair per numeric attribute, in the order of numericAttrsColumnIndices, "
    "e.g. bounds => '{{17,90},{1,16}}'; bounds are public knowledge, never taken from the data"
)
_DOMAIN_HINT = (
    "pass domain => 'a table with columns (attr integer, value text)' listing the class labels (attr 0) "
    "and the allowed values of each categorical attribute (attr i), or domain => 'private' with delta => 1e-6 "
    "to choose them from the data privately, or domain => 'observed' to take the values present in the data "
    "(which discloses them: not differentially private)"
)
_DELTA_HINT = (
    "delta is the probability bound of domain => 'private' (a value present in one row is released with "
    "probability at most delta / (1 + categorical attributes)); use e.g. delta => 1e-6, well below 1 / rows"
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


def check_epsilon_per_query(eps: Fraction, per_query: float, queries: int) -> None:
    """epsilon' must lie in [EPSILON_PER_QUERY_MIN, EPSILON_PER_QUERY_MAX] (checked before any charge)."""
    if not EPSILON_PER_QUERY_MIN <= per_query <= EPSILON_PER_QUERY_MAX:
        raise MadnbError(
            "22023",
            f"epsilon {float(eps)!r} split over {queries} queries gives {per_query!r} per query, "
            f"outside [{EPSILON_PER_QUERY_MIN!r}, {EPSILON_PER_QUERY_MAX!r}]",
            detail="beyond that range the noise or the variance floor does not fit a float8",
            hint="epsilon is the privacy budget of this training run, e.g. epsilon => 1",
        )


def parse_delta(delta: float | None, domain_kind: str) -> float | None:
    """delta: only with domain => 'private', where it is required; finite, in (0, 1)."""
    if domain_kind != PRIVATE:
        if delta is not None:
            raise MadnbError("22023", "delta is used only with domain => 'private'", hint=_DELTA_HINT)
        return None
    if delta is None:
        raise MadnbError("22023", "domain => 'private' needs delta", hint=_DELTA_HINT)
    if not (math.isfinite(delta) and 0 < delta < 1):
        raise MadnbError("22023", f"delta must be above 0 and below 1, got {delta!r}", hint=_DELTA_HINT)
    return float(delta)


def split_down(total: float, parts: int) -> float:
    """total / parts as the largest float8 not above it (the parts never add up to more than total)."""
    exact = Fraction(repr(float(total))) / parts
    f = float(exact)
    if Fraction(f) > exact:
        f = math.nextafter(f, 0.0)
    return f


def selection_threshold(epsilon: float, delta: float) -> int:
    """The smallest threshold tau >= 1 such that a candidate with count 1 is kept with probability <= delta.

    A candidate is kept when its count plus discrete Laplace noise X (parameter
    a = exp(-epsilon), P(X = x) = (1 - a) / (1 + a) a^|x|) is at least tau; for
    k >= 0, P(X >= k) = a^k / (1 + a), so a count-1 candidate is kept with
    probability a^(tau - 1) / (1 + a), and

        tau = 1 + ceil((ln(1 / delta) - ln(1 + a)) / epsilon)   (at least 1).

    Computed in float64 logs and then raised until the bound holds with a
    relative margin of 1e-9 (never below the exact threshold).
    """
    log_one_plus_a = math.log1p(math.exp(-epsilon))
    target = math.log(delta)
    margin = 1e-9 * max(1.0, abs(target))

    def log_p(k: int) -> float:  # ln P(X >= k)
        return -epsilon * k - log_one_plus_a

    k = max(0, math.ceil((-target - log_one_plus_a) / epsilon))
    # float rounding: raise k until the bound holds with the margin (steps relative to k, so that this ends
    # even where epsilon * 1 is below float resolution), then take back one step if that one was not needed
    while log_p(k) > target - margin:
        k += max(1, k >> 40)
    if k > 0 and log_p(k - 1) <= target - margin:
        k -= 1
    return 1 + k


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
    for attr, (lo, hi) in zip(given_order, pairs, strict=True):
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
        if half < HALF_WIDTH_MIN:
            raise MadnbError(
                "22023", f"the bounds of numeric attribute {attr} are too close together to encode, got {{{lo!r}, {hi!r}}}",
                detail=f"(upper - lower) / 2 must be at least {HALF_WIDTH_MIN!r}", hint=_BOUNDS_HINT,
            )
        if half > HALF_WIDTH_MAX:
            raise MadnbError(
                "22023", f"the bounds of numeric attribute {attr} are too far apart to encode, got {{{lo!r}, {hi!r}}}",
                detail=f"(upper - lower) / 2 must be at most {HALF_WIDTH_MAX!r}", hint=_BOUNDS_HINT,
            )
        out.append((attr, lo, hi))
    return stats.NumericBounds(tuple(sorted(out)), FIXED_POINT_BITS)


@dataclass(frozen=True)
class Selection:
    """Private partition selection (domain => 'private'): one query per class column and categorical attribute."""

    delta: float
    queries: int
    delta_per_query: float
    threshold: int


@dataclass(frozen=True)
class Privacy:
    """A validated private-training specification."""

    epsilon: Fraction
    queries: int  # release queries + selection queries, each with per_query
    per_query: float
    bounds: stats.NumericBounds
    domain: Relation | None  # None: 'observed' or 'private'
    selection: Selection | None = None  # domain => 'private'

    @property
    def domain_kind(self) -> str:
        return PRIVATE if self.selection is not None else OBSERVED if self.domain is None else "table"

    @property
    def delta(self) -> float:
        return 0.0 if self.selection is None else self.selection.delta

    @property
    def guarantee(self) -> str:
        """What the release guarantees, in words (ledger and model comments)."""
        eps = f"epsilon {self.epsilon_text}"
        if self.selection is not None:
            return (
                f"({eps}, delta {self.selection.delta!r})-differentially private (add or remove one row), "
                "domain chosen by private partition selection"
            )
        if self.domain is None:
            return (
                f"noisy numbers with {eps}, but {NOT_DP_OBSERVED}: the set of class labels and values "
                "present in the data is disclosed"
            )
        return f"{eps}-differentially private (add or remove one row) with respect to the public domain {self.domain.display}"

    @property
    def epsilon_text(self) -> str:
        """The total epsilon as an exact decimal (it is one: see :func:`parse_epsilon`)."""
        d = Decimal(self.epsilon.numerator) / Decimal(self.epsilon.denominator)
        return format(d.normalize(), "f") if d == d.to_integral_value() else str(d)

    @property
    def domain_text(self) -> str:
        return self.domain.display if self.domain is not None else self.domain_kind


def privacy_spec(
    plpy: Any, t: stats.Training, epsilon: float | None, bounds: Any, domain: str | None, given_order: list[int],
    delta: float | None = None,
) -> Privacy:
    """Validate epsilon, bounds, delta and the domain's name (22023 with a hint); nothing is read from the data."""
    eps = parse_epsilon(epsilon)
    nb = parse_bounds(bounds, given_order)
    if domain is None:
        raise MadnbError("22023", "a differentially private model needs a public domain", hint=_DOMAIN_HINT)
    kind = domain.strip().lower()
    kind = kind if kind in (OBSERVED, PRIVATE) else "table"
    d = parse_delta(delta, kind)
    categorical = t.num_attrs - len(t.numeric)
    queries = 1 + categorical + 2 * len(t.numeric)
    selection_queries = 1 + categorical if kind == PRIVATE else 0
    per_query = per_query_epsilon(eps, queries + selection_queries)
    check_epsilon_per_query(eps, per_query, queries + selection_queries)
    selection = None
    if d is not None:
        dq = split_down(d, selection_queries)
        if not dq > 0:
            raise MadnbError("22023", f"delta {d!r} is too small to split over {selection_queries} selection queries", hint=_DELTA_HINT)
        selection = Selection(d, selection_queries, dq, selection_threshold(per_query, dq))
    rel: Relation | None = None
    if kind == "table":
        rel = resolve_relation(plpy, domain, "domain")
        attr = resolve_column(plpy, rel, "attr", "domain")
        resolve_column(plpy, rel, "value", "domain")
        if attr.type_oid not in INTEGER_TYPES:
            raise MadnbError(
                "42804", f'column "attr" of domain table {rel.display} is {attr.type_sql}, not an integer',
                hint=_DOMAIN_HINT,
            )
    return Privacy(eps, queries + selection_queries, per_query, nb, rel, selection)


# ---------------------------------------------------------------------------
# The public domain
# ---------------------------------------------------------------------------


def fill_domain(plpy: Any, t: stats.Training, p: Privacy, dom: str) -> None:
    """Fill the temporary domain table from the public domain table or from the data ('observed').

    Runs before the charge, so it may fail (on the domain table only: nothing
    that depends on the data can fail).  domain => 'private' is filled after
    the charge by :func:`select_private_domain`.
    """
    n = t.num_attrs
    cat = [i for i in range(1, n + 1) if i not in t.numeric]
    cat_sql = "'{" + ",".join(str(i) for i in cat) + "}'::pg_catalog.int4[]"
    ctype, etype = t.cls.type_sql, t.attrs.elem_sql
    if p.domain is None:
        plpy.warning(
            "domain 'observed' discloses the set of class labels and attribute values present in the data",
            detail=f"the model trained from {t.source.display} lists exactly the values that occur in it, so it is "
            f"{NOT_DP_OBSERVED}; this is recorded in the privacy ledger and in the model tables' comments",
            hint=_DOMAIN_HINT,
        )
        src, cls = t.source.sql, t.cls.sql
        plpy.execute(
            f"INSERT INTO {dom} (o, cls, v) "
            f"SELECT DISTINCT 0, t.{cls}, NULL::{etype} FROM {src} AS t WHERE t.{cls} IS NOT NULL "
            f"UNION ALL SELECT DISTINCT u.o::pg_catalog.int4, NULL::{ctype}, u.val FROM {src} AS t "
            f"CROSS JOIN LATERAL pg_catalog.unnest({stats.dp_attrs_sql(t)}) WITH ORDINALITY AS u(val, o) "
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


def select_private_domain(plpy: Any, t: stats.Training, p: Privacy, dom: str) -> None:
    """domain => 'private': fill the domain with the candidates whose noisy count reaches the threshold.

    Runs after the charge.  Candidates are the class labels and the values of
    each categorical attribute present in the data; each selection query (the
    class column, each categorical attribute) counts one value per row, so it
    has L0 and L-infinity sensitivity 1.  The noisy counts decide keep or drop
    inside the statement and are never stored or shown.  Nothing here can fail
    because of the data: an empty selection gives an empty model.
    """
    assert p.selection is not None
    plpy.execute(
        f"INSERT INTO {dom} (o, cls, v) {stats.dp_selection_select(t, p.per_query, p.selection.threshold)}"
    )


# ---------------------------------------------------------------------------
# Accounting
# ---------------------------------------------------------------------------


def charge(plpy: Any, source: Relation, p: Privacy, parameters: dict[str, Any]) -> int:
    """Charge the release to its source and record it in the ledger; return its release id.

    Runs before any noise is drawn, through ``madnb.record_private_release``: a
    SECURITY DEFINER function (the caller has no write access to privacy state)
    that takes the source's advisory lock until the transaction ends, fails with
    53400 if the budget would be exceeded, adds epsilon to the source's spent
    counter (a sequence: ROLLBACK does not undo it) and writes the ledger row with
    the session user and the mechanism.
    """
    return int(
        plpy.execute(
            plpy.prepare(
                "SELECT madnb.record_private_release($1::pg_catalog.oid::pg_catalog.regclass, "
                "$2::pg_catalog.numeric, $3::pg_catalog.jsonb) AS release_id",
                ["oid", "text", "text"],
            ),
            [source.oid, p.epsilon_text, json.dumps(parameters, sort_keys=True)],
        )[0]["release_id"]
    )

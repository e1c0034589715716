"""The parameters of a differentially private release, validated before anything is charged.

The release itself (domain, charge, noisy pass) is :mod:`madnb_pl.privacy.private_release`;
its post-processing into a model is :mod:`madnb_pl.derive.model_tables`.

Neighbouring datasets differ by adding or removing one training row: a release
is epsilon-DP for that relation (replacing one row costs 2 epsilon; a person
with k rows gets k epsilon).  A private training run answers 1 + F_cat + 2 F_num
release queries (Vaidya et al. 2013; Marchioro et al. 2022, Algorithm 1):

* the class counts (one query; classes are disjoint);
* per categorical attribute, the counts of every (class, value) cell;
* per numeric attribute, the per-class sum and sum of squares of the value,
  clipped to public bounds and encoded as a fixed-point integer.

Every cell of the domain is released with discrete Laplace (two-sided
geometric) noise from :mod:`madnb_pl.privacy.noise`, drawn from the operating system's
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
validated here, before the release is charged (:func:`madnb_pl.privacy.private_release.charge`); what runs after the
charge cannot fail whatever the data or the noise (clamps in numeric,
post-processing in ranges the validation guarantees).

Accounting: :func:`madnb_pl.privacy.private_release.charge` calls ``madnb.record_private_release`` (SECURITY
DEFINER) before any noise is drawn: it checks the source's budget, adds epsilon
to the source's rollback-proof counter and writes the ledger row in schema
``madnb_privacy``, which users cannot write directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..core.errors import MadnbError
from ..core.names import Relation, refuse_nondeterministic_collation, resolve_column, resolve_relation
from ..core.sql import F8, INTEGER_TYPES, Plpy, Sql, float8_literal
from .arrays import Training

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


@dataclass(frozen=True)
class NumericBounds:
    """Public bounds of the numeric attributes and their fixed-point encoding."""

    bounds: tuple[tuple[int, float, float], ...]  # (attribute, lower, upper), attribute order
    bits: int

    @property
    def scale(self) -> int:
        """K: the encoded value of the upper bound."""
        return 1 << self.bits

    def mid(self, lo: float, hi: float) -> float:
        return lo / 2 + hi / 2

    def half(self, lo: float, hi: float) -> float:
        return hi / 2 - lo / 2

    @staticmethod
    def _array(values: dict[int, float], length: int, typ: str = "float8") -> str:
        """A float8[] (or numeric[]) literal indexed by ``o + 1`` (slot 1 is the class count)."""
        items = ["NULL"] + [float8_literal(values.get(i)) for i in range(1, length + 1)]
        return "'{" + ",".join(items) + "}'::pg_catalog." + typ + "[]"

    def arrays(self, length: int) -> dict[str, str]:
        """SQL array literals lo, hi, mid, step (= K / h) and numeric lo_n, hi_n."""
        lo = {a: x for a, x, _ in self.bounds}
        hi = {a: y for a, _, y in self.bounds}
        mid = {a: self.mid(x, y) for a, x, y in self.bounds}
        step = {a: self.scale / self.half(x, y) for a, x, y in self.bounds}
        out = {k: self._array(v, length) for k, v in (("lo", lo), ("hi", hi), ("mid", mid), ("step", step))}
        out["lo_n"] = self._array(lo, length, "numeric")
        out["hi_n"] = self._array(hi, length, "numeric")
        return out

    def values_sql(self) -> Sql:
        """``(VALUES (attr, lo, hi, mid, half), ...)`` for post-processing."""
        rows = ", ".join(
            f"({int(a)}, {float8_literal(x)}::{F8}, {float8_literal(y)}::{F8}, {float8_literal(self.mid(x, y))}::{F8}, {float8_literal(self.half(x, y))}::{F8})"
            for a, x, y in self.bounds
        )
        return Sql(f"(VALUES {rows})")


COUNT_CAP = 1 << 50
"""Noisy counts are clamped into [0, COUNT_CAP] (post-processing), so that no noise overflows a bigint."""


INT8_MAX = (1 << 63) - 1


# ---------------------------------------------------------------------------
# Parameters
# ---------------------------------------------------------------------------

_BOUNDS_HINT = (
    "give one {lower, upper} pair per numeric attribute, in the order of numericAttrsColumnIndices, "
    "e.g. bounds => '{{17,90},{1,16}}'; bounds are public knowledge, never taken from the data"
)
COLUMNS_DOMAIN_HINT = (
    'pass domain => \'{"income": ["<=50K", ">50K"], "workclass": ["Private", "State-gov"]}\' (jsonb: the label\'s classes and '
    "the values of every categorical feature, by column name), or the name of a table with columns (attr text, value text) "
    "holding those rows, or domain => 'private' with delta => 1e-6 to choose them from the data privately, "
    "or domain => 'observed' (which discloses the values present: not differentially private)"
)
"""madnb.train's form of :data:`DOMAIN_HINT` (by column name)."""
DOMAIN_HINT = (
    "pass domain => 'a table with columns (attr integer, value text)' listing the class labels (attr 0) "
    "and the allowed values of each categorical attribute (attr i), or domain => 'private' with delta => 1e-6 "
    "to choose them from the data privately, or domain => 'observed' to take the values present in the data "
    "(which discloses them: not differentially private)"
)
_DELTA_HINT = (
    "delta is the probability bound of domain => 'private' (a value present in one row is released with "
    "probability at most delta / (1 + categorical attributes)); use e.g. delta => 1e-6, well below 1 / rows"
)


def refuse_private_arguments(
    bounds: Any, domain: Any, delta: Any,
    hint: str = "set epsilon to train with differential privacy, or leave bounds, domain and delta out",
) -> None:
    """22023 when a call without epsilon is given bounds, a domain or delta: they mean a private release,
    and a call that names them never silently releases exact statistics instead."""
    if bounds is not None or domain is not None or delta is not None:
        raise MadnbError("22023", "bounds, domain and delta are used only for a differentially private model", hint=hint)


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


def epsilon_text(epsilon: Fraction) -> str:
    """An epsilon of :func:`parse_epsilon` as the exact decimal it is (the ledger's numeric)."""
    d = Decimal(epsilon.numerator) / Decimal(epsilon.denominator)
    return format(d.normalize(), "f") if d == d.to_integral_value() else str(d)


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


def parse_bounds(bounds: Any, given_order: list[int]) -> NumericBounds:
    """Public bounds, one (lower, upper) pair per numeric attribute in the given order."""
    nnum = len(given_order)
    if nnum == 0:
        if bounds:
            raise MadnbError(
                "22023", "bounds are given but there are no numeric attributes",
                hint="bounds apply to numeric attributes only; leave them out",
            )
        return NumericBounds((), FIXED_POINT_BITS)
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
        check_half_width(lo, hi, f"the bounds of numeric attribute {attr}", f"{{{lo!r}, {hi!r}}}", _BOUNDS_HINT)
        out.append((attr, lo, hi))
    return NumericBounds(tuple(sorted(out)), FIXED_POINT_BITS)


def check_half_width(lo: float, hi: float, argument: str, got: str, hint: str) -> None:
    """22023 unless (hi - lo) / 2 is within [HALF_WIDTH_MIN, HALF_WIDTH_MAX] (``argument``: whose bounds, ``got``: as given)."""
    half = hi / 2 - lo / 2
    if half < HALF_WIDTH_MIN:
        raise MadnbError(
            "22023", f"{argument} are too close together to encode, got {got}",
            detail=f"(upper - lower) / 2 must be at least {HALF_WIDTH_MIN!r}", hint=hint,
        )
    if half > HALF_WIDTH_MAX:
        raise MadnbError(
            "22023", f"{argument} are too far apart to encode, got {got}",
            detail=f"(upper - lower) / 2 must be at most {HALF_WIDTH_MAX!r}", hint=hint,
        )


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
    bounds: NumericBounds
    domain: Relation | None  # None: 'observed' or 'private'
    selection: Selection | None = None  # domain => 'private'
    domain_name: str | None = None  # how the domain is named when ``domain`` is madnb's copy of it (madnb.train)

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
        return f"{eps}-differentially private (add or remove one row) with respect to the public domain {self.domain_text}"

    @property
    def epsilon_text(self) -> str:
        """The total epsilon as an exact decimal (it is one: see :func:`parse_epsilon`)."""
        return epsilon_text(self.epsilon)

    @property
    def domain_text(self) -> str:
        if self.domain_name is not None:
            return self.domain_name
        return self.domain.display if self.domain is not None else self.domain_kind


def privacy_spec(
    plpy: Plpy, training: Training, epsilon: float | None, bounds: Any, domain: str | None, given_order: list[int],
    delta: float | None = None,
) -> Privacy:
    """Validate epsilon, bounds, delta and the domain's name (22023 with a hint); nothing is read from the data."""
    eps = parse_epsilon(epsilon)
    nb = parse_bounds(bounds, given_order)
    refuse_nondeterministic_collation(plpy, training.source, training.cls, "class column")
    if domain is None:
        raise MadnbError("22023", "a differentially private model needs a public domain", hint=DOMAIN_HINT)
    kind = domain.strip().lower()
    kind = kind if kind in (OBSERVED, PRIVATE) else "table"
    d = parse_delta(delta, kind)
    categorical = training.num_attrs - len(training.numeric)
    queries = 1 + categorical + 2 * len(training.numeric)
    selection_queries = 1 + categorical if kind == PRIVATE else 0
    per_query = per_query_epsilon(eps, queries + selection_queries)
    check_epsilon_per_query(eps, per_query, queries + selection_queries)
    selection = None
    if d is not None:
        dq = split_down(d, selection_queries)
        if not dq > 0:
            raise MadnbError("22023", f"delta {d!r} is too small to split over {selection_queries} selection queries", hint=_DELTA_HINT)
        selection = Selection(d, selection_queries, dq, selection_threshold(per_query, dq))
    rel = resolve_domain_table(plpy, domain) if kind == "table" else None
    return Privacy(eps, queries + selection_queries, per_query, nb, rel, selection)


def resolve_domain_table(plpy: Plpy, domain: str) -> Relation:
    """The public domain table ``domain``: a relation with columns attr (an integer) and value (42804 otherwise)."""
    rel = resolve_relation(plpy, domain, "domain")
    attr = resolve_column(plpy, rel, "attr", "domain")
    resolve_column(plpy, rel, "value", "domain")
    if attr.type_oid not in INTEGER_TYPES:
        raise MadnbError(
            "42804", f'column "attr" of domain table {rel.display} is {attr.type_sql}, not an integer',
            hint=DOMAIN_HINT,
        )
    return rel

"""Differential-privacy noise core for madnb.

This module runs inside PostgreSQL's PL/Python (CPython 3.11, standard library
only) and in the ordinary Python package.  It draws *discrete* Laplace noise (the
two-sided geometric distribution) for integers: private training adds it to
counts and to fixed-point sums, which are encoded in SQL
(:class:`madnb_pl.inputs.privacy_parameters.NumericBounds`), once per released cell, through
``madnb.dp_laplace`` (:func:`madnb_pl.privacy.noise.laplace`).  Its magnitude step, the
one-sided geometric (:func:`geometric`), is offered alone: secure aggregation's noise
'once' splits one discrete Laplace G1 - G2 between two aggregation servers.

Running time: one draw loops about |noise| / scale times (the geometric part V
of CKS Algorithm 2), so its time grows with the noise it returns; the expected
time is constant whatever the scale.

Why integers only
-----------------
Textbook Laplace noise computed with floating point (``-b * log(U)``) leaks
information through the gaps and rounding pattern of the floating-point result
(Mironov, "On Significance of the Least Significant Bits for Differential
Privacy", CCS 2012).  Here every sampling step uses exact integer and rational
(``fractions.Fraction``) arithmetic, following

    C. Canonne, G. Kamath, T. Steinke,
    "The Discrete Gaussian for Differential Privacy", NeurIPS 2020
    (arXiv:2004.00010), Algorithm 1 (Bernoulli(exp(-gamma))) and
    Algorithm 2 (discrete Laplace).

The only source of randomness is ``RandomSource.randbelow(n)``, a uniform
integer in ``[0, n)``.  Production code uses :func:`secure_source`, backed by
the operating system CSPRNG through :func:`secrets.token_bytes`; :func:`seeded_source` is for
tests only.

Privacy parameter handling
--------------------------
``epsilon`` arrives as a Python float.  :func:`epsilon_to_scale` converts it
*exactly* (``Fraction(epsilon)``), so the noise scale is exactly
``sensitivity / epsilon`` for the float that was passed: no privacy is lost by
rounding.  A float like ``0.1`` has a 55-bit denominator, which makes the
sampler work with ~56-bit integers; Python handles those natively and the
measured cost per draw is the same as for a small scale (a few microseconds),
so no approximation is made.  :func:`epsilon_to_scale` accepts an optional
``max_denominator``; when given, the scale is rounded **up** (never down) to a
fraction with that denominator, so the released noise is at least as private
as requested.

Floats appear only in :func:`geometric_parameter`, which is for documentation
and tests and is never used to sample.
"""

from __future__ import annotations

import functools
import math
import numbers
import os
import random
import secrets
from decimal import Decimal
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from ..core.errors import MadnbError, entry_point
from ..core.sql import Plpy

__all__ = [
    "RandomSource",
    "secure_source",
    "seeded_source",
    "bernoulli_exp",
    "discrete_laplace",
    "epsilon_to_scale",
    "geometric",
    "geometric_array",
    "geometric_parameter",
    "noisy_count",
]


# ---------------------------------------------------------------------------
# Randomness sources
# ---------------------------------------------------------------------------


@runtime_checkable
class RandomSource(Protocol):
    """What a generator must offer to drive the samplers."""

    def randbelow(self, n: int) -> int:
        """Return a uniformly random integer in ``[0, n)``; ``n`` is a positive int."""
        ...


class _SecretsSource:
    """Random source backed by the OS CSPRNG (:func:`secrets.token_bytes`), read in blocks.

    ``randbelow(n)`` takes just enough bytes for ``n`` from a block of
    :data:`_BLOCK` bytes of :func:`secrets.token_bytes`, masks them to
    ``(n - 1).bit_length()`` bits and rejects values ``>= n`` (exactly uniform; a
    power of two, as the samplers' ``t`` always is for a float epsilon and a
    power-of-two sensitivity, then never rejects, and 2 takes one bit).  Reading
    the CSPRNG once per block rather than once per call makes a draw about three
    times faster; a value of one byte is read by index (no slice).  Every byte is
    used once; a child process forked after a block was read discards it
    (``os.register_at_fork``), so parent and child never share random bytes.
    """

    __slots__ = ("_block", "_pos")

    def __init__(self) -> None:
        self._block = b""
        self._pos = 0

    def discard(self) -> None:
        """Forget the unread bytes of the current block."""
        self._block = b""
        self._pos = 0

    def randbelow(self, n: int) -> int:
        """Return a cryptographically secure uniform integer in ``[0, n)``."""
        if n <= 1:
            if n == 1:
                return 0
            raise ValueError("randbelow() requires n > 0")
        bits = (n - 1).bit_length()
        mask = (1 << bits) - 1
        block, pos = self._block, self._pos
        if bits <= 8:
            while True:
                if pos >= len(block):
                    block, pos = secrets.token_bytes(_BLOCK), 0
                    self._block = block
                r = block[pos] & mask
                pos += 1
                if r < n:
                    self._pos = pos
                    return r
        size = (bits + 7) >> 3
        while True:
            end = pos + size
            if end > len(block):
                block, pos, end = secrets.token_bytes(max(_BLOCK, size)), 0, size
                self._block = block
            r = int.from_bytes(block[pos:end], "little") & mask
            pos = end
            if r < n:
                self._pos = pos
                return r

    def discrete_laplace_many(self, t: int, s: int, count: int) -> list[int]:
        """``count`` draws of :func:`_discrete_laplace_ts` ``(t, s, self)``, ``t >= 2``: the same numbers from the same
        bytes, in the same order (a test checks it draw for draw), about twice as fast as the reference.

        The sampler and its Bernoulli trials written out in one loop, reading the block
        in place of ``randbelow`` with no call: a release draws tens of thousands of
        numbers (48,573 for issue 19's 16,000-value domain, eight ``randbelow`` each),
        and in CPython the calls, not the integer work, were most of a draw's time.
        There are two reads, as ``randbelow`` has two paths: U and its trials
        ``randbelow(t * k) < U`` are one read of ``t``'s bytes (the shapes of the
        first eight ``t * k`` computed once per call), V's trials ``randbelow(n) < 1``
        (``n = 2, 3, ...``) and the sign ``randbelow(2)`` one read of a byte.  A trial
        of V past ``randbelow(256)``, which takes two bytes, is ``randbelow`` itself.
        :func:`_discrete_laplace_ts` stays the definition: this is only its faster
        spelling for the one source that releases data.
        """
        if t < 2 or s < 1:
            raise ValueError("discrete_laplace_many needs t >= 2 and s >= 1")
        token, frm = secrets.token_bytes, int.from_bytes
        block, pos = self._block, self._pos
        masks = [0] + [(1 << (t * k - 1).bit_length()) - 1 for k in range(1, 9)]  # randbelow(t * k)'s, index k
        sizes = [0] + [((t * k - 1).bit_length() + 7) >> 3 for k in range(1, 9)]  # and its bytes
        small = _SMALL_MASK
        out: list[int] = []
        append = out.append
        try:
            for _ in range(count):
                while True:  # _discrete_laplace_ts
                    # _geometric_ts: U = randbelow(t), accepted by _bernoulli_exp_le1(U, t): the first trial
                    # randbelow(t * k) >= U at an odd k (k = 0 below is U's own read)
                    k, n, mask, size = 0, t, masks[1], sizes[1]
                    while True:
                        end = pos + size  # r = randbelow(n): its bytes, masked, rejected if >= n
                        if end > len(block):
                            block, pos, end = token(max(_BLOCK, size)), 0, size
                        r = frm(block[pos:end], "little") & mask
                        pos = end
                        if r >= n:
                            continue
                        if k == 0:
                            u, k = r, 1
                            continue
                        if r >= u:
                            if k & 1:
                                break  # accepted
                            k, n, mask, size = 0, t, masks[1], sizes[1]  # rejected: another U
                            continue
                        k += 1
                        n += t
                        if k <= 8:
                            mask, size = masks[k], sizes[k]
                        else:
                            bits = (n - 1).bit_length()
                            mask, size = (1 << bits) - 1, (bits + 7) >> 3
                    # V ~ Geometric(1 - exp(-1)): v += 1 while _bernoulli_exp_le1(1, 1), whose trials are
                    # randbelow(n) < 1 from n = 2 (its first failure at an odd n adds one); then the sign, randbelow(2)
                    v, n, sign = 0, 2, False
                    while True:
                        if n <= 256:
                            if pos >= len(block):  # r = randbelow(n), one byte
                                block, pos = token(_BLOCK), 0
                            r = block[pos] & small[n]
                            pos += 1
                            if r >= n:
                                continue
                        else:
                            self._block, self._pos = block, pos
                            r = self.randbelow(n)
                            block, pos = self._block, self._pos
                        if sign:
                            break
                        if r == 0:
                            n += 1
                        elif n & 1:
                            v, n = v + 1, 2
                        else:
                            sign, n = True, 2
                    y = (u + t * v) // s
                    if r:
                        if y == 0:
                            continue  # "-0" rejected
                        append(-y)
                    else:
                        append(y)
                    break
        finally:  # the bytes read stay read, even if a draw fails (every byte is used once)
            self._block, self._pos = block, pos
        return out

    def __repr__(self) -> str:
        return "secure_source()"


_BLOCK = 4096
_SMALL_MASK = [0] + [(1 << (n - 1).bit_length()) - 1 for n in range(1, 257)]
"""randbelow(n)'s mask for n <= 256 (index n), whose value is one byte."""


class _SeededSource:
    """Deterministic random source for tests, based on :class:`random.Random`."""

    __slots__ = ("_rng", "_seed")

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._rng = random.Random(seed)

    def randbelow(self, n: int) -> int:
        """Return a reproducible (NOT secure) uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("randbelow() requires n > 0")
        return self._rng.randrange(n)

    def __repr__(self) -> str:
        return f"seeded_source({self._seed!r})"


_SECURE = _SecretsSource()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_SECURE.discard)


def secure_source() -> RandomSource:
    """Return the default random source, backed by :func:`secrets.randbelow`.

    This is the only source that may be used to release data.  It draws from the
    operating system's CSPRNG (in blocks, see :class:`_SecretsSource`), so it is
    unaffected by ``random.seed`` and cannot be replayed.
    """
    return _SECURE


def seeded_source(seed: int) -> RandomSource:
    """Return a deterministic random source seeded with ``seed``.

    Built on :class:`random.Random` (Mersenne Twister): reproducible and
    predictable, therefore for tests only -- never for releasing data.
    """
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError("seed must be an int")
    return _SeededSource(int(seed))


# ---------------------------------------------------------------------------
# Input validation helpers
# ---------------------------------------------------------------------------


def _as_fraction(value: object, name: str) -> Fraction:
    """Convert an exact rational (int or Fraction, not bool/float) to Fraction."""
    if isinstance(value, bool) or not isinstance(value, numbers.Rational):
        raise TypeError(
            f"{name} must be an int or fractions.Fraction (exact rational), "
            f"got {type(value).__name__}"
        )
    return Fraction(value)


def _as_int(value: object, name: str) -> int:
    """Convert an integral value (not bool) to int."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    return int(value)


def _finite_float_fraction(value: object, name: str) -> Fraction:
    """Convert a real number to an exact Fraction; reject bool, nan and inf."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    if isinstance(value, numbers.Rational):
        return Fraction(value)
    as_float = float(value)
    if not math.isfinite(as_float):
        raise ValueError(f"{name} must be finite, got {as_float!r}")
    return Fraction(as_float)


# ---------------------------------------------------------------------------
# Exact samplers (CKS 2020)
# ---------------------------------------------------------------------------


def _bernoulli_exp_le1(num: int, den: int, rng: RandomSource) -> bool:
    """Bernoulli(exp(-num/den)) for integers 0 <= num <= den, den > 0.

    CKS 2020 Algorithm 1, first part: draw A_k ~ Bernoulli(gamma / k) for
    k = 1, 2, ... until the first failure at k = K; output ``K`` odd.
    Bernoulli(num / (den * k)) is ``randbelow(den * k) < num``.
    """
    randbelow = rng.randbelow
    k, n = 1, den
    if den == 1:  # randbelow(1) is 0: the first trial is num > 0 and draws nothing (V's every round)
        if num == 0:
            return True
        k, n = 2, 2
    while randbelow(n) < num:  # n = den * k
        k += 1
        n += den
    return k % 2 == 1


def _bernoulli_exp_ratio(num: int, den: int, rng: RandomSource) -> bool:
    """Bernoulli(exp(-num/den)) for integers num >= 0, den > 0 (CKS Algorithm 1).

    For gamma = num/den > 1: ``floor(gamma)`` independent Bernoulli(exp(-1))
    trials (stopping at the first failure), then Bernoulli(exp(-remainder)).
    """
    whole, rem = divmod(num, den)
    for _ in range(whole):
        if not _bernoulli_exp_le1(1, 1, rng):
            return False
    return _bernoulli_exp_le1(rem, den, rng)


def bernoulli_exp(gamma: Fraction, rng: RandomSource) -> bool:
    """Return an exact Bernoulli(exp(-gamma)) sample for rational ``gamma >= 0``.

    Implements Canonne, Kamath & Steinke 2020, Algorithm 1 (for gamma in [0, 1])
    and its extension to gamma > 1 (repeat Bernoulli(exp(-1)) ``floor(gamma)``
    times, then the remainder).  Only integer comparisons of ``randbelow``
    outputs are used.  ``gamma`` must be an ``int`` or ``Fraction`` (a float is
    refused with ``TypeError``: it would not be exact by intent).
    """
    g = _as_fraction(gamma, "gamma")
    if g < 0:
        raise ValueError("gamma must be >= 0")
    return _bernoulli_exp_ratio(g.numerator, g.denominator, rng)


def _geometric_ts(t: int, s: int, rng: RandomSource) -> int:
    """One-sided geometric with a = exp(-s/t) for positive ints t, s: P(Y = k) = (1 - a) a**k, k >= 0.

    The magnitude step of CKS Algorithm 2: U uniform in [0, t) accepted with
    probability exp(-U/t), V ~ Geometric(1 - exp(-1)); X = U + tV is
    Geometric(1 - exp(-1/t)), and Y = X // s is Geometric(1 - exp(-s/t)).
    """
    randbelow = rng.randbelow
    while True:
        u = randbelow(t)
        if not _bernoulli_exp_le1(u, t, rng):  # accept with prob exp(-u/t)
            continue
        v = 0
        while _bernoulli_exp_le1(1, 1, rng):  # V ~ Geometric(1 - exp(-1))
            v += 1
        return (u + t * v) // s


def _discrete_laplace_ts(t: int, s: int, rng: RandomSource) -> int:
    """Discrete Laplace with scale t/s for positive ints t, s (CKS Algorithm 2): a geometric magnitude, a sign."""
    randbelow = rng.randbelow
    while True:
        y = _geometric_ts(t, s, rng)
        negative = randbelow(2) == 1
        if negative:
            if y == 0:
                continue  # reject "-0" so that 0 is not counted twice
            return -y
        return y


def geometric(scale: Fraction, rng: RandomSource) -> int:
    """Return an exact sample of the one-sided geometric distribution of parameter ``a = exp(-1/scale)``.

    ``P(G = k) = (1 - a) * a**k`` for every integer ``k >= 0``; ``scale = t/s`` must
    be a positive ``int`` or ``Fraction``.  The magnitude step of
    :func:`discrete_laplace` (the same sampler, integer arithmetic only).  The
    difference ``G1 - G2`` of two independent draws is a discrete Laplace of the
    same scale: ``P(G1 - G2 = x) = (1 - a)**2 * sum_k a**(k + |x|) a**k =
    (1 - a) / (1 + a) * a**|x|`` -- which is how secure aggregation splits one
    central release's noise between two aggregation servers
    (:mod:`madnb_pl.merge.secure`).  Mean ``a / (1 - a)``, variance ``a / (1 - a)**2``.
    """
    sc = _as_fraction(scale, "scale")
    if sc <= 0:
        raise ValueError("scale must be > 0")
    return _geometric_ts(sc.numerator, sc.denominator, rng)


def discrete_laplace(scale: Fraction, rng: RandomSource) -> int:
    """Return an exact sample of the discrete Laplace distribution.

    ``P(X = x) = (1 - a) / (1 + a) * a**|x|`` for every integer ``x``, with
    ``a = exp(-1/scale)``, i.e. ``P(X = x) ∝ exp(-|x| / scale)``.  ``scale = t/s``
    must be a positive ``int`` or ``Fraction``.  Implements Canonne, Kamath &
    Steinke 2020, Algorithm 2: U uniform in ``[0, t)`` accepted with probability
    ``exp(-U/t)``, V geometric via repeated Bernoulli(exp(-1)), ``X = U + tV``,
    ``Y = floor(X/s)``, a uniform sign, and rejection of negative zero.  Integer
    arithmetic only.  Variance is ``2a / (1 - a)**2``.
    """
    sc = _as_fraction(scale, "scale")
    if sc <= 0:
        raise ValueError("scale must be > 0")
    return _discrete_laplace_ts(sc.numerator, sc.denominator, rng)


# ---------------------------------------------------------------------------
# Parameter conversion
# ---------------------------------------------------------------------------


def epsilon_to_scale(
    epsilon: float,
    sensitivity: int | Fraction = 1,
    max_denominator: int | None = None,
) -> Fraction:
    """Return the discrete Laplace scale ``sensitivity / epsilon`` as a Fraction.

    ``epsilon`` must be finite and > 0 (``ValueError`` otherwise; ``TypeError``
    for non-numbers and bools).  A float ``epsilon`` is converted exactly with
    ``Fraction(epsilon)``, so by default the result is exactly
    ``sensitivity / epsilon`` -- no rounding, exactly the requested privacy.
    ``sensitivity`` must be a positive ``int`` or ``Fraction``.

    If ``max_denominator`` is given, the scale is rounded **up** to the nearest
    multiple of ``1 / max_denominator`` (``ceil(scale * D) / D``).  A larger
    scale means more noise, so the result is never less private than asked,
    and it exceeds the exact scale by less than ``1 / D``.  Not needed for
    speed (see the module docstring); offered for callers that want small
    integers.
    """
    eps = _finite_float_fraction(epsilon, "epsilon")
    if eps <= 0:
        raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
    sens = _as_fraction(sensitivity, "sensitivity")
    if sens <= 0:
        raise ValueError(f"sensitivity must be > 0, got {sensitivity!r}")
    scale = sens / eps
    if max_denominator is not None:
        d = _as_int(max_denominator, "max_denominator")
        if d <= 0:
            raise ValueError("max_denominator must be > 0")
        scale = Fraction(math.ceil(scale * d), d)
    return scale


def geometric_parameter(scale: Fraction) -> float:
    """Return ``a = exp(-1/scale)``, the two-sided geometric parameter (a float).

    For documentation and tests only (e.g. the pmf ``(1-a)/(1+a) * a**|x|`` and
    the variance ``2a/(1-a)**2``); never used by the samplers.
    """
    sc = _as_fraction(scale, "scale")
    if sc <= 0:
        raise ValueError("scale must be > 0")
    return math.exp(-float(1 / sc))


# ---------------------------------------------------------------------------
# Releases
# ---------------------------------------------------------------------------


def noisy_count(true_count: int, epsilon: float, rng: RandomSource | None = None) -> int:
    """Return ``true_count`` plus discrete Laplace noise for sensitivity 1.

    The noise has scale ``1/epsilon`` (so ``a = exp(-epsilon)``), which makes the
    release epsilon-differentially private for a count.  The result is an int
    and may be negative; post-processing (clamping) is the caller's business.
    ``rng`` defaults to :func:`secure_source`.
    """
    count = _as_int(true_count, "true_count")
    scale = epsilon_to_scale(epsilon, 1)
    if rng is None:
        rng = _SECURE
    return count + _discrete_laplace_ts(scale.numerator, scale.denominator, rng)
_test_source: RandomSource | None = None


def use_test_source(source: RandomSource | None) -> None:
    """Replace the CSPRNG with ``source`` in this session (tests only; ``None`` restores it).

    Reachable only from PL/Python code (which only a superuser can write), never
    from SQL: a user cannot seed the noise.
    """
    global _test_source
    _test_source = source


def _source() -> RandomSource:
    return _test_source if _test_source is not None else secure_source()


# ---------------------------------------------------------------------------
# The noise primitive (madnb.dp_laplace)
# ---------------------------------------------------------------------------


def _integral(value: Any, argument: str) -> int:
    if type(value) is Decimal and value.is_finite() and value == value.to_integral_value():
        return int(value)  # what PL/Python passes for numeric, tested first (the ABC checks below cost more than a draw's noise)
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, Decimal)):
        raise MadnbError("22023", f"{argument} must be an integer", hint="noise is added to counts and fixed-point sums")
    if isinstance(value, Decimal):
        if not value.is_finite() or value != value.to_integral_value():
            raise MadnbError("22023", f"{argument} must be an integer", hint="noise is added to counts and fixed-point sums")
        return int(value)
    return int(value)


@entry_point(pin_search_path=False)  # no SQL here; its SQL function pins search_path itself
def laplace(plpy: Plpy, value: Any, sensitivity: Any, epsilon: float) -> int:
    """``value`` plus discrete Laplace noise of scale ``sensitivity / epsilon`` (exact).

    P(noise = x) is proportional to exp(-epsilon |x| / sensitivity).  The message of an
    error never contains ``value``.
    """
    v = _integral(value, "value")
    return v + discrete_laplace(_checked_scale(sensitivity, epsilon), _source())


def laplace_array(plpy: Plpy, values: list[Any] | None, sensitivity: Any, epsilon: float) -> list[int] | None:
    """Each of ``values`` plus its own discrete Laplace noise of scale ``sensitivity / epsilon`` (exact), in order.

    :func:`laplace` for many numbers of one release at once (``madnb._dp_laplace_array``): the
    same sampler and source, one call from SQL instead of one per number.  The
    message of an error never contains a value.
    """
    if values is None:
        return None
    scale, source = _checked_scale(sensitivity, epsilon), _source()
    t, s = scale.numerator, scale.denominator  # checked once: discrete_laplace(scale, source) without its checks per number
    ints = [_integral(v, "value") for v in values]  # every value checked before any noise is drawn
    if type(source) is _SecretsSource and t >= 2:
        return [v + x for v, x in zip(ints, source.discrete_laplace_many(t, s, len(ints)), strict=True)]
    return [v + _discrete_laplace_ts(t, s, source) for v in ints]


def geometric_array(count: int, sensitivity: Any, epsilon: float) -> list[int]:
    """``count`` independent one-sided geometric draws of scale ``sensitivity / epsilon`` (exact, :func:`geometric`).

    Half of one discrete Laplace noise each (secure aggregation's ``noise => 'once'``,
    :mod:`madnb_pl.merge.secure`): the same sampler and source as :func:`laplace_array`.
    """
    scale, source = _checked_scale(sensitivity, epsilon), _source()
    return [geometric(scale, source) for _ in range(count)]


def _checked_scale(sensitivity: Any, epsilon: float) -> Fraction:
    """The noise's scale sensitivity / epsilon, once both are checked: a positive integer, a positive finite float."""
    s = _integral(sensitivity, "sensitivity")
    if s <= 0:
        raise MadnbError("22023", "sensitivity must be positive", hint="the most one row can change the value, e.g. 1 for a count")
    if not (isinstance(epsilon, float) and math.isfinite(epsilon) and epsilon > 0):
        raise MadnbError("22023", "epsilon must be a positive finite number", hint="the privacy budget of this one released number")
    return _scale(s, epsilon)


@functools.lru_cache(maxsize=64)
def _scale(sensitivity: int, epsilon: float) -> Fraction:
    """The exact scale sensitivity / epsilon (cached: a release asks for the same few, once per cell)."""
    return epsilon_to_scale(epsilon, sensitivity)



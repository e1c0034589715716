"""Tests for the exact discrete-Laplace noise core (madnb_pl.privacy.noise).

Statistical checks use seeded sources (deterministic, so they cannot flake) with
large samples and tolerances several standard errors wide; one check uses the
secure source with a wide tolerance.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from madnb_pl.privacy import noise

N_DRAWS = 200_000


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


@cache
def _count_noise(epsilon: float, seed: int, n: int = N_DRAWS) -> np.ndarray:
    """Noise of noisy_count(0, epsilon) from a seeded source, cached per module."""
    rng = noise.seeded_source(seed)
    return np.array([noise.noisy_count(0, epsilon, rng) for _ in range(n)], dtype=np.int64)


def _variance_of(a: float) -> float:
    """Variance of the two-sided geometric distribution with parameter a."""
    return 2 * a / (1 - a) ** 2


def _pmf(x: np.ndarray | int, a: float) -> np.ndarray | float:
    """P(X = x) = (1-a)/(1+a) * a^|x|."""
    return (1 - a) / (1 + a) * a ** np.abs(x)


def _chi_square_p_value(samples: np.ndarray, a: float, min_expected: float = 20.0) -> float:
    """Chi-square goodness-of-fit p-value against the exact pmf, tails pooled.

    Bins are x = -K..K individually plus the two tails |x| > K, with K the
    largest value whose own bin and whose tail both keep expected counts of at
    least ``min_expected``.
    """
    stats = pytest.importorskip("scipy.stats")
    n = len(samples)
    c = (1 - a) / (1 + a)
    k = 0
    while True:
        nxt = k + 1
        bin_expected = n * c * a**nxt
        tail_expected = n * a ** (nxt + 1) / (1 + a)  # P(X > nxt)
        if bin_expected < min_expected or tail_expected < min_expected:
            break
        k = nxt
    values = np.arange(-k, k + 1)
    observed = [int(np.count_nonzero(samples < -k))]
    observed += [int(np.count_nonzero(samples == v)) for v in values]
    observed += [int(np.count_nonzero(samples > k))]
    tail_p = a ** (k + 1) / (1 + a)
    expected_p = np.concatenate(([tail_p], _pmf(values, a), [tail_p]))
    assert math.isclose(float(expected_p.sum()), 1.0, rel_tol=1e-9)
    expected = expected_p * n
    assert len(observed) >= 3
    result = stats.chisquare(np.array(observed, dtype=float), expected)
    return float(result.pvalue)


class _RecordingSource:
    """A seeded source that records every n it is asked for."""

    def __init__(self, seed: int) -> None:
        self._inner = noise.seeded_source(seed)
        self.requests: list[object] = []

    def randbelow(self, n: int) -> int:
        self.requests.append(n)
        return self._inner.randbelow(n)


# ---------------------------------------------------------------------------
# distribution of noisy_count
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 0.1])
def test_noisy_count_noise_variance_is_within_3_percent_of_2a_over_1_minus_a_squared(epsilon):
    samples = _count_noise(epsilon, seed=1234)
    a = math.exp(-epsilon)
    expected = _variance_of(a)
    assert samples.var() == pytest.approx(expected, rel=0.03)


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 0.1])
def test_noisy_count_noise_has_mean_zero_within_five_standard_errors(epsilon):
    samples = _count_noise(epsilon, seed=1234)
    se = math.sqrt(_variance_of(math.exp(-epsilon)) / len(samples))
    assert abs(samples.mean()) < 5 * se


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 0.1])
def test_noisy_count_noise_fits_the_exact_two_sided_geometric_pmf(epsilon):
    samples = _count_noise(epsilon, seed=1234)
    assert _chi_square_p_value(samples, math.exp(-epsilon)) > 1e-4


@pytest.mark.parametrize("epsilon", [0.5, 1.0])
def test_noisy_count_noise_is_symmetric_around_zero(epsilon):
    samples = _count_noise(epsilon, seed=1234)
    pos = int(np.count_nonzero(samples > 0))
    neg = int(np.count_nonzero(samples < 0))
    # Binomial(pos + neg, 1/2): allow 5 standard errors.
    assert abs(pos - neg) < 5 * math.sqrt(pos + neg)


def test_noisy_count_adds_the_noise_to_the_true_count():
    eps = 0.7
    released = [noise.noisy_count(1000, eps, noise.seeded_source(s)) for s in range(200)]
    noise_only = [noise.noisy_count(0, eps, noise.seeded_source(s)) for s in range(200)]
    assert [r - 1000 for r in released] == noise_only
    assert all(type(r) is int for r in released)


def test_discrete_laplace_with_a_non_integer_scale_fits_the_exact_pmf():
    scale = Fraction(7, 3)
    rng = noise.seeded_source(99)
    samples = np.array([noise.discrete_laplace(scale, rng) for _ in range(N_DRAWS // 2)])
    a = noise.geometric_parameter(scale)
    assert a == pytest.approx(math.exp(-3 / 7))
    assert _chi_square_p_value(samples, a) > 1e-4
    assert samples.var() == pytest.approx(_variance_of(a), rel=0.04)


def test_secure_source_noise_has_the_expected_variance_and_mean_with_wide_tolerance():
    eps = 0.5
    n = 50_000
    samples = np.array([noise.noisy_count(0, eps) for _ in range(n)])
    expected = _variance_of(math.exp(-eps))
    # Relative SE of the sample variance is about sqrt(5/n) ~ 1%; allow 10%.
    assert samples.var() == pytest.approx(expected, rel=0.10)
    assert abs(samples.mean()) < 8 * math.sqrt(expected / n)


def test_extreme_epsilons_still_sample_quickly_and_sensibly():
    rng = noise.seeded_source(5)
    # Almost no noise for a huge epsilon.
    assert [noise.noisy_count(10, 1e300, rng) for _ in range(100)] == [10] * 100
    # A tiny epsilon gives a very wide spread.
    wide = [noise.noisy_count(0, 1e-9, rng) for _ in range(200)]
    assert np.std(wide) > 1e8


# ---------------------------------------------------------------------------
# bernoulli_exp
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("gamma", [Fraction(0), Fraction(3, 10), Fraction(1), Fraction(5, 2)])
def test_bernoulli_exp_frequency_matches_exp_minus_gamma(gamma):
    rng = noise.seeded_source(2024)
    n = 100_000
    hits = sum(noise.bernoulli_exp(gamma, rng) for _ in range(n))
    p = math.exp(-float(gamma))
    if gamma == 0:
        assert hits == n
    else:
        se = math.sqrt(p * (1 - p) / n)
        assert abs(hits / n - p) < 5 * se


def test_bernoulli_exp_with_a_huge_gamma_is_false_and_fast():
    rng = noise.seeded_source(3)
    assert not any(noise.bernoulli_exp(Fraction(10**6), rng) for _ in range(1000))


def test_bernoulli_exp_accepts_plain_ints():
    rng = noise.seeded_source(3)
    assert noise.bernoulli_exp(0, rng) is True


@pytest.mark.parametrize("bad", [0.5, True, "1"])
def test_bernoulli_exp_refuses_inexact_gamma(bad):
    with pytest.raises(TypeError):
        noise.bernoulli_exp(bad, noise.seeded_source(0))


def test_bernoulli_exp_refuses_negative_gamma():
    with pytest.raises(ValueError):
        noise.bernoulli_exp(Fraction(-1, 2), noise.seeded_source(0))


# ---------------------------------------------------------------------------
# exactness: integers only
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("epsilon", [0.1, 0.5, 3.0])
def test_sampling_asks_the_source_only_for_positive_python_ints(epsilon):
    src = _RecordingSource(11)
    out = [noise.noisy_count(0, epsilon, src) for _ in range(2000)]
    assert all(type(x) is int for x in out)
    assert src.requests
    assert all(type(n) is int and n > 0 for n in src.requests)


@pytest.mark.parametrize("bad", [0, -1, Fraction(-1, 3)])
def test_discrete_laplace_refuses_a_non_positive_scale(bad):
    with pytest.raises(ValueError):
        noise.discrete_laplace(bad, noise.seeded_source(0))


def test_discrete_laplace_refuses_a_float_scale():
    with pytest.raises(TypeError):
        noise.discrete_laplace(2.0, noise.seeded_source(0))


# ---------------------------------------------------------------------------
# epsilon_to_scale
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0.0, -0.0, 0, -1.0, -1e-300, math.nan, math.inf, -math.inf])
def test_epsilon_to_scale_rejects_non_positive_and_non_finite_epsilon(bad):
    with pytest.raises(ValueError):
        noise.epsilon_to_scale(bad)


@pytest.mark.parametrize("bad", [None, "0.5", True])
def test_epsilon_to_scale_rejects_non_numbers(bad):
    with pytest.raises(TypeError):
        noise.epsilon_to_scale(bad)


@pytest.mark.parametrize("bad", [0, -2, Fraction(-1, 2)])
def test_epsilon_to_scale_rejects_a_non_positive_sensitivity(bad):
    with pytest.raises(ValueError):
        noise.epsilon_to_scale(1.0, bad)


def test_epsilon_to_scale_converts_the_float_epsilon_exactly():
    assert noise.epsilon_to_scale(0.5) == 2
    assert noise.epsilon_to_scale(0.5, 3) == 6
    assert noise.epsilon_to_scale(0.25, Fraction(1, 2)) == 2
    scale = noise.epsilon_to_scale(0.1)
    assert isinstance(scale, Fraction)
    assert scale == 1 / Fraction(0.1)  # exact for the float passed, not 10
    # The float 0.1 is a hair above 1/10, so its exact scale is a hair below 10;
    # rounding the scale up to a 1e-6 grid restores exactly 10.
    assert 10 - Fraction(1, 10**15) < scale < 10
    assert noise.epsilon_to_scale(0.1, max_denominator=10**6) == 10


def test_scale_rounding_never_gives_less_privacy_than_asked():
    r = random.Random(7)
    for _ in range(2000):
        eps = 10 ** r.uniform(-8, 3) * r.random()
        if eps <= 0:
            continue
        sens = r.choice([1, 2, 1280, Fraction(3, 7)])
        exact = Fraction(sens) / Fraction(eps)
        assert noise.epsilon_to_scale(eps, sens) == exact
        for d in (1, 1000, 10**6):
            rounded = noise.epsilon_to_scale(eps, sens, max_denominator=d)
            assert rounded >= exact  # more noise, i.e. at least the asked privacy
            assert rounded - exact < Fraction(1, d)
            assert d % rounded.denominator == 0


def test_geometric_parameter_is_exp_minus_one_over_scale():
    assert noise.geometric_parameter(Fraction(2)) == pytest.approx(math.exp(-0.5))
    assert noise.geometric_parameter(noise.epsilon_to_scale(1.0)) == pytest.approx(math.exp(-1))


# ---------------------------------------------------------------------------
# running time depends on the noise drawn (docs/privacy.md, "Limits")
# ---------------------------------------------------------------------------


class _CountingSource:
    def __init__(self, seed: int) -> None:
        self.inner = noise.seeded_source(seed)
        self.calls = 0

    def randbelow(self, n: int) -> int:
        self.calls += 1
        return self.inner.randbelow(n)


def test_the_samplers_work_grows_with_the_size_of_the_noise_it_draws():
    # V ~ Geometric(1 - e^-1) counts Bernoulli(e^-1) rounds: |noise| / scale of them, so the work
    # (and the time) of one draw grows with |noise|; the mean work is constant for any scale
    src = _CountingSource(3)
    scale = noise.epsilon_to_scale(0.5)
    by_size: dict[bool, list[int]] = {False: [], True: []}
    for _ in range(20_000):
        before = src.calls
        x = noise.discrete_laplace(scale, src)
        by_size[abs(x) >= 4 * scale].append(src.calls - before)
    small, large = (sum(v) / len(v) for v in (by_size[False], by_size[True]))
    assert large > small + 3


# ---------------------------------------------------------------------------
# random sources
# ---------------------------------------------------------------------------


def test_default_source_is_backed_by_secrets_token_bytes(monkeypatch):
    import secrets

    calls: list[int] = []
    real = secrets.token_bytes

    def spy(n: int) -> bytes:
        calls.append(n)
        return real(n)

    monkeypatch.setattr(secrets, "token_bytes", spy)
    for _ in range(3000):  # more than one block of bytes
        noise.noisy_count(0, 0.5)
    noise.secure_source().randbelow(10)
    assert calls


@pytest.mark.parametrize("n", [2, 3, 10, 256, 257, 2**53 + 1, 2**54])
def test_the_default_source_is_uniform_below_n(n):
    src = noise.secure_source()
    draws = [src.randbelow(n) for _ in range(30_000)]
    assert all(0 <= x < n for x in draws)
    # the share below n / 2 (or of each value for small n) is within 5 standard errors of uniform
    cells = min(n, 8)
    counts = Counter(x * cells // n for x in draws)
    expected = [sum(1 for v in range(n) if v * cells // n == c) / n for c in range(cells)] if n < 1000 else [1 / cells] * cells
    for c in range(cells):
        p = expected[c]
        assert abs(counts[c] / len(draws) - p) < 5 * math.sqrt(p * (1 - p) / len(draws)), (n, c)


def test_the_default_source_reads_a_power_of_two_from_exactly_its_bits(monkeypatch):
    # randbelow(n) masks (n - 1).bit_length() bits of as many bytes (little-endian) and rejects values >= n:
    # 2**b takes b bits and is never rejected (the samplers' t is a power of two for any float epsilon)
    import secrets

    block = bytes([0xFF, 0x80, 0x03] + [0xFF] * 7 + [0xFF, 0x02]) + bytes(4084)
    blocks = iter([block])
    monkeypatch.setattr(secrets, "token_bytes", lambda n: next(blocks))
    src = noise._SecretsSource()
    assert [src.randbelow(2), src.randbelow(256), src.randbelow(4), src.randbelow(1)] == [1, 0x80, 3, 0]
    assert src.randbelow(2**56) == 2**56 - 1  # the next 7 bytes, all of them
    assert src.randbelow(3) == 2  # 0xFF & 3 = 3 is rejected, then 0x02
    assert src.randbelow(10) == 0


@pytest.mark.parametrize(
    "scale", [Fraction(2), Fraction(3), Fraction(7, 3), Fraction(300, 7), Fraction(2**200, 3), noise.epsilon_to_scale(0.047619047619047616)],
)
def test_the_release_sampler_draws_the_numbers_of_the_reference_sampler_from_the_same_bytes(monkeypatch, scale):
    # _SecretsSource.discrete_laplace_many is _discrete_laplace_ts written out in one loop: from one stream of
    # bytes (seeded here) it must return the same numbers and leave the source where the reference leaves it,
    # across block boundaries, for t whose draws take one byte (2, 3, 7), several (300) or 26 (2**200),
    # and the issue-19 release's scale (t = 2**54)
    import secrets

    def stream(seed: int):
        rnd = random.Random(seed)
        return lambda n: rnd.randbytes(n)

    t, s = scale.numerator, scale.denominator
    for seed in (1, 2):
        monkeypatch.setattr(secrets, "token_bytes", stream(seed))
        reference_source = noise._SecretsSource()
        reference = [noise._discrete_laplace_ts(t, s, reference_source) for _ in range(6000)]
        monkeypatch.setattr(secrets, "token_bytes", stream(seed))
        source = noise._SecretsSource()
        assert source.discrete_laplace_many(t, s, 2500) + source.discrete_laplace_many(t, s, 3500) == reference
        assert (source._block, source._pos) == (reference_source._block, reference_source._pos)
    with pytest.raises(ValueError):
        noise._SecretsSource().discrete_laplace_many(1, 1, 1)  # t = 1: the reference's own case (no trials of t * k)


def test_the_release_sampler_draws_its_rare_trials_as_the_reference_does(monkeypatch):
    # discrete_laplace_many reads the block in place of randbelow; its rare cases take their own branches: a
    # ninth trial of U's Bernoulli (randbelow(9t), its shape computed in the loop) and V's trials past
    # randbelow(256) (two bytes: randbelow itself).  Uniform bytes almost never reach them, so these bytes are
    # skewed (mostly zero, some 0xFF, runs of 300 zeros, which make V's trials succeed past n = 256); the
    # numbers and the source's position must still be the reference's
    import secrets

    def skewed(seed: int):
        rnd = random.Random(seed)

        def token_bytes(n: int) -> bytes:
            out = bytearray()
            while len(out) < n:
                x = rnd.random()
                out += bytes(300) if x < 0.002 else bytes([0 if x < 0.6 else 0xFF if x < 0.8 else rnd.randrange(256)])
            return bytes(out[:n])

        return token_bytes

    class Recording(noise._SecretsSource):
        asked: set[int] = set()

        def randbelow(self, n: int) -> int:
            self.asked.add(n)
            return super().randbelow(n)

    t, s = 2**10, 3
    monkeypatch.setattr(secrets, "token_bytes", skewed(7))
    reference_source = Recording()
    reference = [noise._discrete_laplace_ts(t, s, reference_source) for _ in range(3000)]
    assert 9 * t in Recording.asked and 257 in Recording.asked  # both rare paths were taken
    monkeypatch.setattr(secrets, "token_bytes", skewed(7))
    source = noise._SecretsSource()
    assert source.discrete_laplace_many(t, s, 3000) == reference
    assert (source._block, source._pos) == (reference_source._block, reference_source._pos)


def test_the_release_of_an_array_from_the_secure_source_fits_the_exact_pmf():
    # madnb._dp_laplace_array's path for the CSPRNG (discrete_laplace_many), checked against the pmf itself
    eps = 0.5
    draws = np.array(noise.laplace_array(None, [0] * N_DRAWS, 1, eps), dtype=np.int64)
    a = math.exp(-eps)
    assert abs(draws.var() - _variance_of(a)) < 0.05 * _variance_of(a)
    assert abs(draws.mean()) < 5 * math.sqrt(_variance_of(a) / N_DRAWS)
    for x in (0, 1, -1, 3, -5):
        p = (1 - a) / (1 + a) * a ** abs(x)
        assert abs((draws == x).mean() - p) < 5 * math.sqrt(p * (1 - p) / N_DRAWS), x


def test_seeding_the_random_module_has_no_effect_on_the_default_source():
    src = noise.secure_source()
    random.seed(0)
    first = [src.randbelow(2**64) for _ in range(8)]
    random.seed(0)
    second = [src.randbelow(2**64) for _ in range(8)]
    assert first != second
    random.seed(0)
    a = [noise.noisy_count(0, 0.01) for _ in range(16)]
    random.seed(0)
    b = [noise.noisy_count(0, 0.01) for _ in range(16)]
    assert a != b


def test_seeded_source_is_reproducible_and_seed_dependent():
    a = [noise.noisy_count(0, 0.3, noise.seeded_source(5)) for _ in range(3)]
    assert len(set(a)) == 1
    s1, s2, s3 = noise.seeded_source(5), noise.seeded_source(5), noise.seeded_source(6)
    x1 = [s1.randbelow(10**9) for _ in range(10)]
    assert x1 == [s2.randbelow(10**9) for _ in range(10)]
    assert x1 != [s3.randbelow(10**9) for _ in range(10)]


def test_both_sources_satisfy_the_random_source_protocol():
    assert isinstance(noise.secure_source(), noise.RandomSource)
    assert isinstance(noise.seeded_source(1), noise.RandomSource)


def test_seeded_source_values_lie_in_range():
    src = noise.seeded_source(8)
    assert all(0 <= src.randbelow(3) < 3 for _ in range(1000))
    with pytest.raises(ValueError):
        src.randbelow(0)


def test_the_release_draws_each_number_of_an_array_its_own_noise_as_one_call_per_number_would():
    # laplace_array (madnb._dp_laplace_array) against laplace (madnb.dp_laplace), number by number, from one seeded stream
    values = [0, 5, 12, 1000, 0, 3]
    noise.use_test_source(noise.seeded_source(42))
    try:
        one_by_one = [noise.laplace(None, v, 3, 0.25) for v in values]
        noise.use_test_source(noise.seeded_source(42))
        at_once = noise.laplace_array(None, values, 3, 0.25)
    finally:
        noise.use_test_source(None)
    assert at_once == one_by_one
    assert len({a - v for a, v in zip(at_once, values, strict=True)}) > 1  # each its own draw
    assert noise.laplace_array(None, None, 1, 1.0) is None  # a kind with no numbers (no numeric cell)
    for sensitivity, epsilon in ((0, 1.0), (1, 0.0), (1, float("inf"))):
        with pytest.raises(noise.MadnbError):
            noise.laplace_array(None, [1], sensitivity, epsilon)


# ---------------------------------------------------------------------------
# the one-sided geometric (secure aggregation's noise 'once': G1 - G2 is one discrete Laplace)
# ---------------------------------------------------------------------------


def _geometric_chi_square_p_value(samples: np.ndarray, a: float, min_expected: float = 20.0) -> float:
    """Chi-square p-value of ``samples`` against P(G = k) = (1 - a) a^k, k = 0..K apart and the tail k > K pooled."""
    stats = pytest.importorskip("scipy.stats")
    n = len(samples)
    k = 0
    while n * (1 - a) * a ** (k + 1) >= min_expected and n * a ** (k + 2) >= min_expected:
        k += 1
    ks = np.arange(0, k + 1)
    observed = [int(np.count_nonzero(samples == v)) for v in ks] + [int(np.count_nonzero(samples > k))]
    expected_p = np.concatenate(((1 - a) * a**ks, [a ** (k + 1)]))  # P(G > k) = a^(k + 1)
    assert math.isclose(float(expected_p.sum()), 1.0, rel_tol=1e-9) and len(observed) >= 3
    return float(stats.chisquare(np.array(observed, dtype=float), expected_p * n).pvalue)


@pytest.mark.parametrize("scale", [Fraction(1), Fraction(2), Fraction(7, 3), Fraction(10)])
def test_the_geometric_sampler_fits_the_exact_one_sided_pmf_with_its_mean_and_variance(scale):
    rng = noise.seeded_source(2024)
    samples = np.array([noise.geometric(scale, rng) for _ in range(N_DRAWS // 4)])
    a = math.exp(-1 / float(scale))
    assert samples.min() >= 0
    assert _geometric_chi_square_p_value(samples, a) > 1e-4
    assert samples.mean() == pytest.approx(a / (1 - a), rel=0.03)
    assert samples.var() == pytest.approx(a / (1 - a) ** 2, rel=0.05)


def test_the_difference_of_two_geometric_draws_fits_the_discrete_laplace_pmf():
    scale = Fraction(5, 2)
    rng = noise.seeded_source(7)
    diff = np.array([noise.geometric(scale, rng) - noise.geometric(scale, rng) for _ in range(N_DRAWS // 4)])
    a = noise.geometric_parameter(scale)
    assert _chi_square_p_value(diff, a) > 1e-4
    assert diff.var() == pytest.approx(_variance_of(a), rel=0.04)


def test_the_discrete_laplace_is_the_geometric_magnitude_with_a_sign_drawn_from_the_same_stream():
    # discrete_laplace consumes the stream as geometric then one sign bit (a "-0" redrawn): the same numbers
    scale = Fraction(3)
    a, b = noise.seeded_source(11), noise.seeded_source(11)
    for _ in range(2000):
        x = noise.discrete_laplace(scale, a)
        while True:
            y = noise.geometric(scale, b)
            negative = b.randbelow(2) == 1
            if not (negative and y == 0):
                break
        assert x == (-y if negative else y)


def test_the_geometric_array_draws_from_the_session_source_and_refuses_bad_parameters():
    noise.use_test_source(noise.seeded_source(5))
    try:
        drawn = noise.geometric_array(6, 3, 0.25)
        noise.use_test_source(noise.seeded_source(5))
        one_by_one = [noise.geometric(Fraction(12), noise._source()) for _ in range(6)]
    finally:
        noise.use_test_source(None)
    assert drawn == one_by_one and all(type(g) is int and g >= 0 for g in drawn)
    assert noise.geometric_array(0, 1, 1.0) == []
    for sensitivity, epsilon in ((0, 1.0), (1, 0.0), (1, float("nan"))):
        with pytest.raises(noise.MadnbError):
            noise.geometric_array(1, sensitivity, epsilon)
    with pytest.raises(ValueError):
        noise.geometric(Fraction(0), noise.seeded_source(1))
    with pytest.raises(TypeError):
        noise.geometric(2.5, noise.seeded_source(1))  # type: ignore[arg-type]

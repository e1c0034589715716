"""A private release's parameters, read without a server: epsilon, its share per query, bounds, the selection threshold.

The threshold's expected values come from the mechanism's mathematics (see
tests/privacy/test_private_domain.py, which checks the selection in the
database): a candidate present in one row is kept with probability
a^(tau - 1) / (1 + a), a = exp(-epsilon'), which the threshold makes at most delta.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from madnb_pl.inputs import privacy_parameters
from privacy_helpers import keep_probability


def test_parameter_parsing_rules():
    assert privacy_parameters.parse_epsilon(0.1) == Fraction(1, 10)
    assert privacy_parameters.parse_epsilon(1e-05) == Fraction(1, 100000)
    # epsilon' is the largest float8 not above epsilon / queries, so the parts never exceed epsilon
    for eps, q in [(1.0, 21), (0.1, 3), (0.3, 7), (10.0, 23), (1e-300, 3)]:
        e = privacy_parameters.per_query_epsilon(privacy_parameters.parse_epsilon(eps), q)
        assert Fraction(e) * q <= privacy_parameters.parse_epsilon(eps)
        assert Fraction(math.nextafter(e, math.inf)) * q > privacy_parameters.parse_epsilon(eps)
    nb = privacy_parameters.parse_bounds([[90, 200], [4, 8]], [2, 1])  # pairs follow numericAttrsColumnIndices as written
    assert nb.bounds == ((1, 4.0, 8.0), (2, 90.0, 200.0))
    assert privacy_parameters.parse_bounds([4, 8], [3]).bounds == ((3, 4.0, 8.0),)


@pytest.mark.parametrize("epsilon", [1e-3, 0.05, 0.25, 1.0, 3.0, 50.0])
@pytest.mark.parametrize("delta", [1e-12, 1e-6, 1e-3, 0.1, 0.45])
def test_the_threshold_is_the_smallest_that_keeps_a_one_row_value_with_probability_at_most_delta(epsilon, delta):
    tau = privacy_parameters.selection_threshold(epsilon, delta)
    assert tau >= 1
    assert keep_probability(1, epsilon, tau) <= delta
    if tau > 1:
        assert keep_probability(1, epsilon, tau - 1) > delta * (1 - 1e-6)


def test_the_threshold_grows_like_ln_one_over_delta_over_epsilon():
    # a^(tau-1) / (1 + a) <= delta: tau - 1 = ceil(ln(1 / (delta (1 + a))) / epsilon)
    a = math.exp(-0.5)
    assert privacy_parameters.selection_threshold(0.5, 0.1) == 1 + math.ceil(math.log(1 / (0.1 * (1 + a))) / 0.5) == 5
    # almost no noise: a value needs a second row (noise >= 1 has probability a / (1 + a), about e^-1e6)
    assert privacy_parameters.selection_threshold(1e6, 1e-9) == 2
    # a lot of noise and a large delta: P(X >= 0) = 1 / (1 + a) is already below delta
    assert privacy_parameters.selection_threshold(1e-3, 0.6) == 1
    # at the ends of the validated range of epsilon' the threshold is still computed (and finite)
    assert privacy_parameters.selection_threshold(1e50, 1e-9) == 2
    tiny = privacy_parameters.selection_threshold(1e-50, 1e-9)
    assert tiny == pytest.approx((math.log(1e9) - math.log(2)) / 1e-50, rel=1e-8)

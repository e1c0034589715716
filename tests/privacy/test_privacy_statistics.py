"""The noise of private training, measured in the database against the mathematics.

Expected numbers come from the definitions, never from the code under test:
the discrete Laplace (two-sided geometric) distribution with parameter
a = exp(-epsilon' / sensitivity) has P(x) = (1 - a) / (1 + a) a^|x|, mean 0 and
variance 2a / (1 - a)^2; epsilon-DP bounds the ratio of output frequencies on
neighbouring datasets by e^epsilon'.  Samples are large and tolerances several
standard errors wide; tests that need exact reproducibility use a seeded
generator injected from PL/Python (no SQL path can do that).
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from madnb_pl.core.names import Column, Relation
from madnb_pl.inputs import arrays, privacy_parameters
from madnb_pl.privacy import private_release
from privacy_helpers import use_seeded_noise

K = 1 << privacy_parameters.FIXED_POINT_BITS


def variance(a: float) -> float:
    return 2 * a / (1 - a) ** 2


def pmf(x: np.ndarray, a: float) -> np.ndarray:
    return (1 - a) / (1 + a) * a ** np.abs(x)


def chi_square_p(samples: np.ndarray, a: float, centre: int = 0, min_expected: float = 20.0) -> float:
    """Goodness of fit against the discrete Laplace pmf around ``centre``, tails pooled."""
    sp = pytest.importorskip("scipy.stats")
    n = len(samples)
    x = samples - centre
    k = 0
    while n * pmf(np.array([k + 1]), a)[0] >= min_expected and n * a ** (k + 2) / (1 + a) >= min_expected:
        k += 1
    values = np.arange(-k, k + 1)
    observed = [np.count_nonzero(x < -k)] + [np.count_nonzero(x == v) for v in values] + [np.count_nonzero(x > k)]
    tail = a ** (k + 1) / (1 + a)
    expected = np.concatenate(([tail], pmf(values, a), [tail])) * n
    return float(sp.chisquare(np.array(observed, dtype=float), expected).pvalue)


def draws(db, n: int, sensitivity: int, epsilon: float) -> np.ndarray:
    """n noisy zeros, one per group of a GROUP BY, through madnb.dp_laplace as training uses it."""
    rows = db.execute(
        "SELECT madnb.dp_laplace(count(*) - 1, %s, %s)::int8 FROM generate_series(1, %s) AS g GROUP BY g",
        (sensitivity, epsilon, n),
    ).fetchall()
    return np.array([r[0] for r in rows], dtype=np.int64)


# ---------------------------------------------------------------------------
# The noise primitive, drawn in the database
# ---------------------------------------------------------------------------


def test_count_noise_drawn_in_the_database_is_exactly_discrete_laplace(db):
    use_seeded_noise(db, 20240611)
    eps = 0.25  # e.g. epsilon = 1 split over 4 queries
    a = math.exp(-eps)
    x = draws(db, 100_000, 1, eps)
    assert abs(x.var() / variance(a) - 1) < 0.03
    assert abs(x.mean()) < 5 * math.sqrt(variance(a) / len(x))
    assert chi_square_p(x, a) > 1e-3


def test_fixed_point_sum_noise_has_scale_sensitivity_over_epsilon(db):
    use_seeded_noise(db, 7)
    eps = 0.5
    a = math.exp(-eps / K)
    x = draws(db, 50_000, K, eps)
    assert abs(x.var() / variance(a) - 1) < 0.04
    assert abs(x.mean()) < 5 * math.sqrt(variance(a) / len(x))
    # in units of the attribute's half-width h: Laplace with scale h / epsilon', variance 2 / epsilon'^2
    assert abs((x / K).var() / (2 / eps**2) - 1) < 0.04


def test_the_secure_source_draws_the_same_distribution(db):
    eps = 0.5
    a = math.exp(-eps)
    x = draws(db, 50_000, 1, eps)
    assert abs(x.var() / variance(a) - 1) < 0.06  # ~7 standard errors: this one is not seeded
    assert abs(x.mean()) < 6 * math.sqrt(variance(a) / len(x))


# ---------------------------------------------------------------------------
# Neighbouring datasets, through real training
# ---------------------------------------------------------------------------

CLASSES = 40_000


def released_counts(db, rows_per_class: int, name: str) -> np.ndarray:
    """Train on CLASSES classes of rows_per_class rows each; return every released count.

    Each class is an independent replica of one cell: its class count and its
    (class, attr 1, 'x') count are both exactly rows_per_class.
    """
    db.execute(
        f"CREATE TABLE {name} AS SELECT c, ARRAY['x'] AS x FROM generate_series(1, {CLASSES}) AS c, "
        f"generate_series(1, {rows_per_class}) AS r"
    )
    db.execute(
        f"SELECT madnb.create_nb_prepared_data_tables('{name}', 'c', 'x', 1, '{name}_fp', '{name}_cp', "
        "epsilon => 1, domain => 'classes')"
    )
    cls = [r[0] for r in db.execute(f"SELECT class_cnt FROM {name}_cp")]
    val = [r[0] for r in db.execute(f"SELECT cnt FROM {name}_fp")]
    assert len(cls) == len(val) == CLASSES
    return np.array(cls + val, dtype=np.int64)


def test_adding_one_row_changes_output_frequencies_by_at_most_e_to_the_epsilon_prime(db):
    db.execute(
        f"CREATE TABLE classes AS SELECT 0 AS attr, c::text AS value FROM generate_series(1, {CLASSES}) AS c "
        "UNION ALL SELECT 1, 'x'"
    )
    d = released_counts(db, 3, "d")
    d1 = released_counts(db, 4, "d1")  # every cell has one more row
    eps_prime = 0.5  # epsilon 1 over 1 class-count query + 1 categorical attribute
    a = math.exp(-eps_prime)
    # the released counts are the true count plus discrete Laplace noise, clamped at 0
    for sample, centre in ((d, 3), (d1, 4)):
        n = len(sample)
        for v in range(0, centre + 6):
            # P(0) collects the clamped tail: P(noise <= -centre) = a^centre / (1 + a)
            p = a**centre / (1 + a) if v == 0 else float(pmf(np.array([v - centre]), a)[0])
            assert abs(np.count_nonzero(sample == v) / n - p) < 5 * math.sqrt(p * (1 - p) / n), (centre, v)
    fd, fd1 = Counter(d.tolist()), Counter(d1.tolist())
    ratios = [
        math.log(fd[v] / fd1[v]) for v in set(fd) & set(fd1) if fd[v] >= 2000 and fd1[v] >= 2000
    ]
    assert len(ratios) >= 6
    worst = max(abs(r) for r in ratios)
    slack = 0.15  # > 4 standard errors of a log-ratio of two counts of at least 2000
    assert worst <= eps_prime + slack
    assert worst >= eps_prime - slack  # and no more noise than the budget needs


# ---------------------------------------------------------------------------
# Clipping: an outlier moves the statistics no more than the bound
# ---------------------------------------------------------------------------


def exact_stats(db, table: str, elem: str, elem_oid: int) -> dict:
    """The exact pass of private training (never stored by madnb; run here to inspect it)."""
    t = arrays.Training(
        Relation("public", table, 0), Column("c", "integer", 23, None, None),
        Column("x", f"{elem}[]", 0, elem, elem_oid), 2, (1,),
    )
    nb = privacy_parameters.parse_bounds([[-3, 5]], [1])
    return {(r[0], r[1], r[2]): tuple(r[3:]) for r in db.execute(private_release.dp_stats_select(t, nb))}


@pytest.mark.parametrize("elem, oid, huge", [("float8", 701, "1e12"), ("numeric", 1700, "1e400"), ("bigint", 20, "9000000000000000000")])
def test_a_huge_value_moves_the_exact_statistics_exactly_as_much_as_the_upper_bound(db, elem, oid, huge):
    base = "INSERT INTO {t} SELECT i, 1 + i % 2, ARRAY[(i % 7) - 2, i % 3]::{e}[] FROM generate_series(1, 50) i"
    extra = {"d": None, "d_huge": huge, "d_upper": "5", "d_neg": f"-{huge}", "d_lower": "-3"}
    results = {}
    for name, value in extra.items():
        db.execute(f"CREATE TABLE {name} (id int, c int, x {elem}[])")
        db.execute(base.format(t=name, e=elem))
        if value is not None:
            db.execute(f"INSERT INTO {name} VALUES (99, 1, ARRAY[{value}, 1]::{elem}[])")
        results[name] = exact_stats(db, name, elem, oid)
    assert results["d_huge"] == results["d_upper"]
    assert results["d_neg"] == results["d_lower"]
    d, up, lo = results["d"], results["d_upper"], results["d_lower"]
    # from the maths: the upper bound encodes as +K, the lower as -K; one row adds 1 to the count
    n, s1, s2 = d[(1, 1, None)]
    assert up[(1, 1, None)] == (n + 1, s1 + K, s2 + K * K)
    assert lo[(1, 1, None)] == (n + 1, s1 - K, s2 + K * K)
    assert up[(1, 0, None)][0] == d[(1, 0, None)][0] + 1
    assert up[(1, 2, 1)][0] == d[(1, 2, 1)][0] + 1
    assert {k: v for k, v in up.items() if k[0] == 2} == {k: v for k, v in d.items() if k[0] == 2}


def test_every_encoded_value_lies_within_plus_minus_k_and_matches_exact_rounding(db):
    lo, hi = -3.0, 5.0
    values = [-1e300, -3.0000001, -3.0, -2.5, -1.0, 0.0, 0.1, 1.0, 1 / 3, 2.9999999, 4.75, 5.0, 5.0000001, 1e300]
    db.execute("CREATE TABLE v (id int, c int, x float8[])")
    db.execute("INSERT INTO v SELECT i, i, ARRAY[x, 0] FROM unnest(%s::float8[]) WITH ORDINALITY AS u(x, i)", (values,))
    got = exact_stats(db, "v", "float8", 701)
    m, h = Fraction(lo + hi) / 2, Fraction(hi - lo) / 2
    for i, x in enumerate(values, start=1):
        n, s1, s2 = got[(i, 1, None)]
        clipped = min(max(Fraction(x), Fraction(lo)), Fraction(hi))
        exact = round((clipped - m) / h * K)
        assert n == 1 and abs(s1) <= K and s2 == s1 * s1
        assert abs(s1 - exact) <= 1, x  # float8 arithmetic in SQL, exact rounding here


def test_nan_and_null_numeric_values_are_missing_and_infinities_are_clipped(db):
    db.execute("CREATE TABLE w (id int, c int, x float8[])")
    db.execute(
        "INSERT INTO w VALUES (1, 1, ARRAY['NaN', 0]::float8[]), (2, 2, ARRAY[NULL, 0]::float8[]), "
        "(3, 3, ARRAY['Infinity', 0]::float8[]), (4, 4, ARRAY['-Infinity', 0]::float8[])"
    )
    got = exact_stats(db, "w", "float8", 701)
    assert got[(1, 1, None)][1:] == (None, None) and got[(2, 1, None)][1:] == (None, None)
    assert got[(3, 1, None)] == (1, K, K * K) and got[(4, 1, None)] == (1, -K, K * K)
    assert all(got[(c, 0, None)][0] == 1 for c in (1, 2, 3, 4))  # the rows still count for their class


def test_with_the_same_noise_an_outlier_and_the_upper_bound_give_the_same_model(db):
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, '1'), (0, '2'), (2, '0'), (2, '1'), (2, '2')")
    models = []
    for name, value in (("huge", "1e12"), ("upper", "5")):
        db.execute(f"CREATE TABLE {name} AS SELECT i AS id, 1 + i % 2 AS c, ARRAY[((i % 7) - 2)::float8, (i % 3)::float8] AS x "
                   "FROM generate_series(1, 200) i")
        db.execute(f"INSERT INTO {name} VALUES (999, 1, ARRAY[{value}, 1]::float8[])")
        use_seeded_noise(db, 99)
        db.execute(
            f"SELECT madnb.create_nb_prepared_data_tables('{name}', 'c', 'x', '1', 2, '{name}_fp', '{name}_np', "
            f"'{name}_cp', epsilon => 1, bounds => '{{{{-3,5}}}}', domain => 'dom')"
        )
        models.append([
            db.execute(f"SELECT array_agg(class_cnt ORDER BY class) FROM {name}_cp").fetchone()[0],
            db.execute(f"SELECT array_agg(cnt ORDER BY attr, value, class) FROM {name}_fp").fetchone()[0],
            db.execute(f"SELECT array_agg(attr_mean ORDER BY class) || array_agg(attr_var ORDER BY class) FROM {name}_np").fetchone()[0],
        ])
    assert models[0] == models[1]

"""Private secure aggregation (issue 20, part 1, point 2): noise once per aggregation server, not once per owner.

Each owner's private share release is charged to its own ledger.  With noise
'each' (the default) each aggregation server adds one central release's discrete
Laplace noise to its share sum, so the reconstructed sums hold m = 2 such noises
whatever the number of owners; with noise 'once' server 1 adds a one-sided
geometric G1 and server 2 subtracts another, G2, so they hold G1 - G2: exactly
one central release's noise.  The expected distributions are computed here from
the pmfs, (1 - a) / (1 + a) a^|x| (discrete Laplace) and (1 - a) a^k (geometric)
with a = exp(-epsilon'), and the accounting from epsilon / queries.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import psycopg
from scipy import stats as scipy_stats

from helpers import relations, sqlstate_of

VALUES = 1500  # categorical values in the domain: 2 classes x (1 + 1500) count cells per release
P = (1 << 127) - 1


def setup_owners(db: psycopg.Connection[Any], owners: int) -> list[str]:
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute(f"INSERT INTO dom SELECT 0, c FROM unnest(ARRAY['a', 'b']) AS c UNION ALL SELECT 1, v::text FROM generate_series(0, {VALUES - 1}) AS v")
    names = []
    for o in range(1, owners + 1):
        name = f"owner{o}"
        db.execute(f"CREATE TABLE {name} (id int, class text, attributes float8[])")
        db.execute(f"INSERT INTO {name} SELECT i, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END, ARRAY[(i * {o}) % 40] "
                   "FROM generate_series(1, 300) AS i")
        names.append(name)
    return names


def private_shares(db: psycopg.Connection[Any], names: list[str], epsilon: float = 2.0, noise: str = "each", servers: int = 2) -> None:
    for name in names:
        dests = ", ".join(f"'{name}_s{j}'" for j in range(1, servers + 1))
        db.execute(f"SELECT madnb.create_nb_statistics_shares('{name}', 'class', 'attributes', 1, "
                   f"ARRAY[{dests}], epsilon => {epsilon}, domain => 'dom', owners => {len(names)}, noise => '{noise}')")
    for j in range(1, servers + 1):
        srcs = ", ".join(f"'{n}_s{j}'" for n in names)
        db.execute(f"SELECT madnb.create_nb_share_sum(ARRAY[{srcs}], 'sum{j}')")
    sums = ", ".join(f"'sum{j}'" for j in range(1, servers + 1))
    db.execute(f"SELECT madnb.create_nb_model_from_shares(ARRAY[{sums}], 'sec_fp', NULL, 'sec_cp')")


def server_noise(db: psycopg.Connection[Any], names: list[str], j: int) -> np.ndarray:
    """What aggregation server j added to the count cells: its share sum less the plain sum of its shares, as a signed residue."""
    union = " UNION ALL ".join(f"SELECT cls, attr, value, n FROM {n}_s{j}" for n in names)
    rows = db.execute(
        f"SELECT mod(s.n - p.n + {P}::numeric, {P}::numeric) FROM sum{j} AS s JOIN (SELECT cls, attr, value, mod(sum(n), {P}::numeric) "
        f"AS n FROM ({union}) AS u GROUP BY 1, 2, 3) AS p ON p.cls = s.cls AND p.attr = s.attr AND p.value IS NOT DISTINCT FROM s.value "
        "ORDER BY s.cls, s.attr, s.value NULLS FIRST"
    ).fetchall()
    assert len(rows) == 2 * (1 + VALUES)
    return np.array([int(r[0]) - P if int(r[0]) > P // 2 else int(r[0]) for r in rows])


def true_counts(db: psycopg.Connection[Any], names: list[str]) -> dict[tuple[str, int, float | None], int]:
    union = " UNION ALL ".join(f"SELECT class, attributes FROM {n}" for n in names)
    out: dict[tuple[str, int, float | None], int] = {}
    for cls, n in db.execute(f"SELECT class, count(*) FROM ({union}) AS u GROUP BY 1").fetchall():
        out[(cls, 0, None)] = int(n)
    for cls, v, n in db.execute(f"SELECT class, attributes[1], count(*) FROM ({union}) AS u GROUP BY 1, 2").fetchall():
        out[(cls, 1, float(v))] = int(n)
    return out


def noise_of(db: psycopg.Connection[Any], table: str, truth: dict[tuple[str, int, float | None], int]) -> np.ndarray:
    cells = db.execute(f'SELECT cls, attr, value, n FROM {table} ORDER BY cls, attr, value NULLS FIRST').fetchall()
    assert len(cells) == 2 * (1 + VALUES)
    return np.array([int(n) - truth.get((c, a, v), 0) for c, a, v, n in cells])


def dl_pmf(a: float, support: np.ndarray) -> np.ndarray:
    return (1 - a) / (1 + a) * a ** np.abs(support)


def test_the_noise_of_a_reconstructed_count_is_one_discrete_laplace_per_aggregation_server_by_a_chi_square_test(db):
    names = setup_owners(db, 1)
    private_shares(db, names)  # epsilon 2 over 2 queries (class counts, one categorical attribute): epsilon' = 1
    z = noise_of(db, 'madnb_statistics."public.sec_fp"', true_counts(db, names))
    a = math.exp(-1.0)
    support = np.arange(-60, 61)
    two = np.convolve(dl_pmf(a, support), dl_pmf(a, support))  # the sum of two servers' noise, support -120..120
    xs = np.arange(-120, 121)
    edges = list(range(-6, 7))
    observed = [np.sum(z < -6)] + [np.sum(z == k) for k in edges] + [np.sum(z > 6)]
    expected_p = [two[xs < -6].sum()] + [two[xs == k].sum() for k in edges] + [two[xs > 6].sum()]
    expected = np.array(expected_p) / sum(expected_p) * len(z)
    assert scipy_stats.chisquare(observed, expected).pvalue > 1e-6, (observed, expected.round(1))
    # and not one server's noise alone: its variance is twice one discrete Laplace's, 2 * 2a / (1 - a)**2
    assert abs(np.var(z) - 2 * 2 * a / (1 - a) ** 2) < 0.6


def test_the_noise_does_not_grow_with_the_owners_as_plain_private_federation_does(db):
    names = setup_owners(db, 4)
    private_shares(db, names)
    truth = true_counts(db, names)
    secure = np.var(noise_of(db, 'madnb_statistics."public.sec_fp"', truth))
    for n in names:
        db.execute(f"SELECT madnb.create_nb_statistics('{n}', 'class', 'attributes', 1, '{n}_private', epsilon => 2, domain => 'dom')")
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1_private', 'owner2_private', 'owner3_private', "
               "'owner4_private'], 'fed_fp', NULL, 'fed_cp')")
    plain = np.var(noise_of(db, 'madnb_statistics."public.fed_fp"', truth))
    one = 2 * math.exp(-1.0) / (1 - math.exp(-1.0)) ** 2  # one release's discrete Laplace variance at epsilon' = 1
    assert 2 * one - 0.7 < secure < 2 * one + 0.7  # m = 2 servers' noise, 4 owners or 1
    assert 4 * one - 1.4 < plain < 4 * one + 1.4  # one per owner


def test_each_owners_private_shares_are_charged_once_to_its_own_ledger_with_the_guarantee_and_against_whom(db):
    names = setup_owners(db, 3)
    private_shares(db, names, epsilon=1.5)
    rows = db.execute(
        "SELECT table_name, epsilon, mechanism, parameters FROM madnb.privacy_ledger ORDER BY table_name"
    ).fetchall()
    assert [r[0] for r in rows] == names  # one row per owner; the share sums and the model charged nothing
    for _, epsilon, mechanism, parameters in rows:
        p = parameters if isinstance(parameters, dict) else json.loads(parameters)
        assert float(epsilon) == 1.5 and mechanism == "discrete laplace (two-sided geometric)"
        assert p["queries"] == 2 and p["epsilon_per_query"] == 0.75 and p["shares"] == 2 and p["owners"] == 3
        assert "against the analyst" in p["guarantee"] and "one honest aggregation server suffices" in p["guarantee"]
        assert "added by each aggregation server" in p["noise"]
    # the reconstructed statistics: epsilon 1.5 (the owners' rows are disjoint), the variance floor's epsilon' that of
    # one release with the noise variance of two: 0.75 / sqrt(2)
    comment = db.execute("""SELECT obj_description('madnb_statistics."public.sec_fp"'::regclass, 'pg_class')""").fetchone()[0]
    h = json.loads(comment[len("madnb statistics "):])
    assert h["mode"] == "private" and h["epsilon"] == "1.5"
    assert abs(h["epsilon_per_query"] - 0.75 / math.sqrt(2)) < 1e-15
    assert len(h["release_ids"]) == 3 and all(" of owner " in r for r in h["release_ids"])


def test_a_share_sum_of_private_and_exact_shares_or_of_other_epsilons_is_refused(db):
    names = setup_owners(db, 2)
    db.execute("SELECT madnb.create_nb_statistics_shares('owner1', 'class', 'attributes', 1, ARRAY['p1', 'p2'], epsilon => 1, domain => 'dom')")
    db.execute("SELECT madnb.create_nb_statistics_shares('owner2', 'class', 'attributes', 1, ARRAY['q1', 'q2'], epsilon => 2, domain => 'dom')")
    db.execute("SELECT madnb.create_nb_statistics_shares('owner2', 'class', 'attributes', 1, ARRAY['e1', 'e2'], domain => 'dom')")
    before = relations(db)
    e = sqlstate_of(db, "SELECT madnb.create_nb_share_sum(ARRAY['p1', 'q1'], 'bad')")
    assert e.diag.sqlstate == "22023" and e.diag.message_detail == "its epsilon is '2', shareSources[1]'s is '1'"
    e = sqlstate_of(db, "SELECT madnb.create_nb_share_sum(ARRAY['p1', 'e1'], 'bad')")
    assert e.diag.sqlstate == "22023" and e.diag.message_detail == "its mode is 'exact', shareSources[1]'s is 'private'"
    assert relations(db) == before
    assert len(names) == 2


def test_with_noise_once_server_1_adds_a_geometric_server_2_subtracts_one_the_others_nothing_and_the_sum_is_one_discrete_laplace(db):
    names = setup_owners(db, 3)
    private_shares(db, names, noise="once", servers=3)  # epsilon' = 1, three aggregation servers
    a = math.exp(-1.0)
    g1, g2, g3 = (server_noise(db, names, j) for j in (1, 2, 3))
    assert g1.min() >= 0 and g2.max() <= 0 and not g3.any()  # +G1, -G2, nothing
    ks = np.arange(0, 7)
    for g in (g1, -g2):  # each half: P(G = k) = (1 - a) a^k, the tail k > 6 pooled
        observed = [np.sum(g == k) for k in ks] + [np.sum(g > 6)]
        expected = np.array([(1 - a) * a**k for k in ks] + [a**7]) * len(g)
        assert scipy_stats.chisquare(observed, expected).pvalue > 1e-6, (observed, expected.round(1))
    z = noise_of(db, 'madnb_statistics."public.sec_fp"', true_counts(db, names))
    assert (z == g1 + g2).all()  # the reconstructed count holds exactly the two halves
    edges = list(range(-5, 6))
    observed = [np.sum(z < -5)] + [np.sum(z == k) for k in edges] + [np.sum(z > 5)]
    tail = a**6 / (1 + a)  # P(X > 5) = P(X < -5)
    expected = np.array([tail] + [float(dl_pmf(a, np.array(k))) for k in edges] + [tail]) * len(z)
    assert scipy_stats.chisquare(observed, expected).pvalue > 1e-6, (observed, expected.round(1))
    assert abs(np.var(z) - 2 * a / (1 - a) ** 2) < 0.35  # one release's variance, not two (2 x 1.84)


def test_with_noise_once_the_ledger_says_one_release_against_whom_and_the_variance_floor_is_one_releases(db):
    names = setup_owners(db, 2)
    private_shares(db, names, epsilon=1.5, noise="once")
    rows = db.execute("SELECT table_name, parameters FROM madnb.privacy_ledger ORDER BY table_name").fetchall()
    assert [r[0] for r in rows] == names  # charged once per owner, nothing for the share sums and the model
    for _, parameters in rows:
        p = parameters if isinstance(parameters, dict) else json.loads(parameters)
        assert p["noise_mode"] == "once" and "once in the sum" in p["noise"] and "added by each" not in p["noise"]
        g = p["guarantee"]
        assert "against the analyst" in g and "provided neither aggregation server 1 nor aggregation server 2 gives its noise" in g
        assert "one honest aggregation server suffices" not in g and "only the 2 aggregation servers together learn" in g
    comment = db.execute("""SELECT obj_description('madnb_statistics."public.sec_fp"'::regclass, 'pg_class')""").fetchone()[0]
    h = json.loads(comment[len("madnb statistics "):])
    assert h["epsilon"] == "1.5" and h["epsilon_per_query"] == 0.75  # one release's noise: its own epsilon'
    sums = [json.loads(db.execute(f"SELECT obj_description('sum{j}'::regclass, 'pg_class')").fetchone()[0][len("madnb share "):])
            for j in (1, 2)]
    assert [s["noise_mode"] for s in sums] == ["once", "once"]
    assert sums[0]["noise"].startswith("one-sided geometric at epsilon_per_query 0.75") and "added by this" in sums[0]["noise"]
    assert "subtracted by this" in sums[1]["noise"]


def test_shares_of_both_noise_modes_are_refused_by_the_aggregation_server_and_the_analyst_naming_the_part(db):
    setup_owners(db, 2)
    for owner, noise in (("owner1", "once"), ("owner2", "each")):
        db.execute(f"SELECT madnb.create_nb_statistics_shares('{owner}', 'class', 'attributes', 1, ARRAY['{owner}_s1', '{owner}_s2'], "
                   f"epsilon => 1, domain => 'dom', noise => '{noise}')")
    before = relations(db)
    e = sqlstate_of(db, "SELECT madnb.create_nb_share_sum(ARRAY['owner1_s1', 'owner2_s1'], 'bad')")
    assert e.diag.sqlstate == "22023" and e.diag.message_primary.startswith("shareSources[2] (public.owner2_s1) does not have")
    assert e.diag.message_detail == "its noise is 'each', shareSources[1]'s is 'once'"
    assert relations(db) == before
    db.execute("SELECT madnb.create_nb_share_sum(ARRAY['owner1_s1'], 'once_sum1')")
    db.execute("SELECT madnb.create_nb_share_sum(ARRAY['owner2_s2'], 'each_sum2')")
    before = relations(db)
    e = sqlstate_of(db, "SELECT madnb.create_nb_model_from_shares(ARRAY['once_sum1', 'each_sum2'], 'm_fp', NULL, 'm_cp')")
    assert e.diag.sqlstate == "22023" and e.diag.message_primary.startswith("shareSumSources[2] (public.each_sum2) does not have")
    assert e.diag.message_detail == "its noise is 'each', shareSumSources[1]'s is 'once'"
    assert relations(db) == before and relations(db, "madnb_statistics") == set()


def test_an_unknown_noise_a_null_one_or_once_without_epsilon_is_refused_before_anything_is_written(db):
    setup_owners(db, 1)
    before = relations(db)
    call = "SELECT madnb.create_nb_statistics_shares('owner1', 'class', 'attributes', 1, ARRAY['x1', 'x2'], domain => 'dom', {})"
    e = sqlstate_of(db, call.format("epsilon => 1, noise => 'twice'"))
    assert e.diag.sqlstate == "22023" and e.diag.message_primary == "unknown noise 'twice'" and "'once'" in e.diag.message_hint
    e = sqlstate_of(db, call.format("epsilon => 1, noise => NULL"))
    assert e.diag.sqlstate == "22004"
    e = sqlstate_of(db, call.format("noise => 'once'"))
    assert e.diag.sqlstate == "22023" and e.diag.message_primary == "noise => 'once' needs epsilon"
    assert relations(db) == before
    assert db.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone() == (0,)

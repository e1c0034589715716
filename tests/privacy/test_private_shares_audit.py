"""An empirical privacy audit of private secure aggregation (issue 20, section 3).

Neighbouring federations: owner A holds one more row in every class on D' than
on D, owner B's rows are the same on both.  Each federation goes through the
real code path -- ``create_nb_statistics_shares`` at each owner (two shares),
``create_nb_share_sum`` at two aggregation servers (tables of one database, as
the other audits), ``create_nb_model_from_shares`` -- and the released value
audited is a count of the reconstructed statistics the model is derived from
(``madnb_statistics."public.<fp>"``: raw noisy integers, before any clamp).

One release gives many samples: the domain has :data:`CLASSES` classes and
every class is an independent replica of two cells (its class count and its
count of value 'x'), each with its own noise, so the histogram of the released
counts over the replicas is the distribution of one released count.  The
empirical privacy loss of a cell is the largest |log(P_D(v) / P_D'(v))| over the
values v that both histograms hold at least :data:`MIN_MASS` times.

The stated epsilon' is the ledger's (each owner's release, ``epsilon_per_query``).
Two audits:

* both servers honest: the reconstructed count holds both servers' noise, so
  its loss must be at most epsilon' (and, bin by bin, what the sum of two
  discrete Laplace variables gives, computed here from the pmf);
* one server dishonest, adding no noise (it writes the plain sum of its shares
  under the header of a real share sum, which nothing in a share table binds to
  its cells): the guarantee "one honest aggregation server suffices" must still
  hold, a loss of epsilon' exactly -- the honest server's noise alone.

A third audit, of noise 'once' (the owners' ``noise => 'once'``: server 1 adds
a one-sided geometric, server 2 subtracts another), on :data:`ONCE_CLASSES`
classes: the reconstructed count holds exactly one discrete Laplace, so every
bin's loss is epsilon' itself (log(a**|x| / a**|x + 1|) = +-epsilon' for one
discrete Laplace), bin by bin -- within epsilon', and close to it where two
releases' noise (the default, 'each') gives less near the centre: one release's
noise, not two.

Margin: a log ratio of two counts of at least 2000 has a standard error of at
most sqrt(2 / 2000) = 0.032; :data:`SLACK` = 0.15 is over 4.7 of them (a
two-sided 3e-6 per bin), so a correct mechanism fails with probability below
1e-4 over the fewer than 40 bins checked, and a mechanism with half the noise
(a loss of 2 epsilon' = 1.0) cannot pass.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

P = (1 << 127) - 1
CLASSES = 40_000
ONCE_CLASSES = 20_000  # the 'once' audit: 40,000 released counts, 6 or more bins of at least MIN_MASS
EPSILON = 1.0  # over 2 queries (class counts, one categorical attribute)
MIN_MASS = 2000
SLACK = 0.15
A_ROWS, B_ROWS = 3, 2  # rows per class at owner A (D; one more on D') and at owner B


def make_domain(db: psycopg.Connection[Any], classes: int = CLASSES) -> None:
    db.execute(
        f"CREATE TABLE classes AS SELECT 0 AS attr, c::text AS value FROM generate_series(1, {classes}) AS c UNION ALL SELECT 1, 'x'"
    )


def make_owner(db: psycopg.Connection[Any], name: str, rows_per_class: int, classes: int = CLASSES) -> None:
    db.execute(
        f"CREATE TABLE {name} AS SELECT c AS class, ARRAY['x'] AS attributes "
        f"FROM generate_series(1, {classes}) AS c, generate_series(1, {rows_per_class}) AS r"
    )


def owner_shares(db: psycopg.Connection[Any], owner: str, noise: str = "each") -> None:
    db.execute(
        f"SELECT madnb.create_nb_statistics_shares('{owner}', 'class', 'attributes', 1, ARRAY['{owner}_s1', '{owner}_s2'], "
        f"epsilon => {EPSILON}, domain => 'classes', owners => 2, noise => '{noise}')"
    )


def share_sum(db: psycopg.Connection[Any], owners: list[str], index: int, dest: str) -> None:
    srcs = ", ".join(f"'{o}_s{index}'" for o in owners)
    db.execute(f"SELECT madnb.create_nb_share_sum(ARRAY[{srcs}], '{dest}')")


def noiseless_share_sum(db: psycopg.Connection[Any], owners: list[str], index: int, dest: str, header_of: str) -> None:
    """What a dishonest aggregation server writes: the plain sum of its shares, under a real share sum's header."""
    union = " UNION ALL ".join(f"SELECT cls, attr, value, n, s1, s2 FROM {o}_s{index}" for o in owners)
    db.execute(f"CREATE TABLE {dest} (LIKE {header_of})")
    db.execute(
        f"INSERT INTO {dest} (cls, attr, value, n, s1, s2) SELECT cls, attr, value, mod(sum(n), {P}::numeric), "
        f"mod(sum(s1), {P}::numeric), mod(sum(s2), {P}::numeric) FROM ({union}) AS u GROUP BY cls, attr, value"
    )
    comment = db.execute(f"SELECT obj_description('{header_of}'::regclass, 'pg_class')").fetchone()[0]
    db.execute(sql.SQL("COMMENT ON TABLE {} IS {}").format(sql.Identifier(dest), sql.Literal(comment)))


def released(db: psycopg.Connection[Any], sums: list[str], tag: str, classes: int = CLASSES) -> tuple[np.ndarray, set[tuple[Any, ...]]]:
    """Reconstruct from ``sums``; every released count of the reconstructed statistics, and their cells."""
    arr = "ARRAY[" + ", ".join(f"'{s}'" for s in sums) + "]"
    db.execute(f"SELECT madnb.create_nb_model_from_shares({arr}, '{tag}_fp', NULL, '{tag}_cp')")
    rows = db.execute(f'SELECT cls, attr, value, n FROM madnb_statistics."public.{tag}_fp"').fetchall()
    assert len(rows) == 2 * classes  # every cell of the public domain, whatever the rows
    return np.array([int(r[3]) for r in rows], dtype=np.int64), {r[:3] for r in rows}


def dl_pmf(a: float, x: np.ndarray) -> np.ndarray:
    return (1 - a) / (1 + a) * a ** np.abs(x)


def log_ratios(d: np.ndarray, d1: np.ndarray) -> dict[int, float]:
    """log(P_D(v) / P_D'(v)) for every v that both histograms hold at least MIN_MASS times."""
    fd, fd1 = Counter(d.tolist()), Counter(d1.tolist())
    return {v: math.log(fd[v] / fd1[v]) for v in set(fd) & set(fd1) if fd[v] >= MIN_MASS and fd1[v] >= MIN_MASS}


def stated_epsilon_prime(db: psycopg.Connection[Any]) -> float:
    values = set()
    for (parameters,) in db.execute("SELECT parameters FROM madnb.privacy_ledger WHERE table_name = 'owner_a'").fetchall():
        p = parameters if isinstance(parameters, dict) else json.loads(parameters)
        values.add(float(p["epsilon_per_query"]))
    assert len(values) == 1
    return values.pop()


def test_one_row_more_at_one_owner_moves_the_released_counts_frequencies_by_at_most_the_stated_epsilon_prime(db):
    make_domain(db)
    make_owner(db, "owner_b", B_ROWS)  # the other owner: the same rows in both federations
    owner_shares(db, "owner_b")
    samples: dict[str, np.ndarray] = {}
    cells: dict[str, set[tuple[Any, ...]]] = {}
    one_server: dict[str, np.ndarray] = {}
    for tag, a_rows in (("d", A_ROWS), ("d1", A_ROWS + 1)):
        db.execute("DROP TABLE IF EXISTS owner_a, owner_a_s1, owner_a_s2")
        make_owner(db, "owner_a", a_rows)
        owner_shares(db, "owner_a")
        owners = ["owner_a", "owner_b"]
        share_sum(db, owners, 1, f"{tag}_sum1")
        share_sum(db, owners, 2, f"{tag}_sum2")
        samples[tag], cells[tag] = released(db, [f"{tag}_sum1", f"{tag}_sum2"], tag)
        noiseless_share_sum(db, owners, 2, f"{tag}_sum2_dishonest", header_of=f"{tag}_sum2")
        one_server[tag], _ = released(db, [f"{tag}_sum1", f"{tag}_sum2_dishonest"], f"{tag}_one")
    eps_prime = stated_epsilon_prime(db)
    assert eps_prime == EPSILON / 2  # the ledger's epsilon' of both of owner A's releases
    assert cells["d"] == cells["d1"]  # the released cells do not depend on the row
    centre = A_ROWS + B_ROWS  # D's true count of every audited cell; D' holds one more
    a = math.exp(-eps_prime)

    # Both servers honest: each bin's loss is the sum of two discrete Laplace variables', at most epsilon'.
    support = np.arange(-200, 201)
    two = np.convolve(dl_pmf(a, support), dl_pmf(a, support))
    xs = np.arange(-400, 401)

    def two_pmf(x: int) -> float:
        return float(two[xs == x][0])

    both = log_ratios(samples["d"], samples["d1"])
    assert len(both) >= 8, sorted(both)
    for v, r in both.items():
        expected = math.log(two_pmf(v - centre) / two_pmf(v - centre - 1))
        assert abs(r - expected) <= SLACK, (v, r, expected)
    assert max(abs(r) for r in both.values()) <= eps_prime + SLACK

    # One server adds no noise: the honest server's noise alone, a loss of exactly epsilon' away from the centre.
    assert abs(np.var(one_server["d"] - centre) / (2 * a / (1 - a) ** 2) - 1) < 0.05  # one discrete Laplace
    alone = log_ratios(one_server["d"], one_server["d1"])
    assert len(alone) >= 6, sorted(alone)
    worst = max(abs(r) for r in alone.values())
    assert eps_prime - SLACK <= worst <= eps_prime + SLACK


def test_with_noise_once_one_row_more_moves_every_bin_by_one_discrete_laplaces_epsilon_prime_not_less_as_two_would(db):
    make_domain(db, ONCE_CLASSES)
    make_owner(db, "owner_b", B_ROWS, ONCE_CLASSES)
    owner_shares(db, "owner_b", "once")
    samples: dict[str, np.ndarray] = {}
    cells: dict[str, set[tuple[Any, ...]]] = {}
    for tag, a_rows in (("d", A_ROWS), ("d1", A_ROWS + 1)):
        db.execute("DROP TABLE IF EXISTS owner_a, owner_a_s1, owner_a_s2")
        make_owner(db, "owner_a", a_rows, ONCE_CLASSES)
        owner_shares(db, "owner_a", "once")
        share_sum(db, ["owner_a", "owner_b"], 1, f"{tag}_sum1")
        share_sum(db, ["owner_a", "owner_b"], 2, f"{tag}_sum2")
        samples[tag], cells[tag] = released(db, [f"{tag}_sum1", f"{tag}_sum2"], tag, ONCE_CLASSES)
    eps_prime = stated_epsilon_prime(db)
    assert eps_prime == EPSILON / 2 and cells["d"] == cells["d1"]
    centre = A_ROWS + B_ROWS
    a = math.exp(-eps_prime)
    assert abs(np.var(samples["d"] - centre) / (2 * a / (1 - a) ** 2) - 1) < 0.05  # one discrete Laplace's variance
    losses = log_ratios(samples["d"], samples["d1"])
    assert len(losses) >= 6, sorted(losses)
    for v, r in losses.items():  # one discrete Laplace: log(a^|v - c| / a^|v - c - 1|) = +-epsilon' in every bin
        expected = eps_prime if v <= centre else -eps_prime
        assert abs(r - expected) <= SLACK, (v, r, expected)
    # two releases' noise (noise 'each') would give at the centre log(P2(0) / P2(-1)), well below epsilon'
    support = np.arange(-200, 201)
    two = np.convolve(dl_pmf(a, support), dl_pmf(a, support))
    assert math.log(two[400] / two[399]) < eps_prime - 2 * SLACK
    assert abs(losses[centre] - eps_prime) <= SLACK

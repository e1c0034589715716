"""domain => 'private': the class labels and values chosen from the data by private partition selection.

Expected numbers come from the mathematics of the mechanism: a candidate is kept
when its count plus discrete Laplace noise X (a = exp(-epsilon')) reaches the
threshold tau, and P(X >= k) = a^k / (1 + a) for k >= 0, so a candidate present in
one row is kept with probability a^(tau - 1) / (1 + a), which the threshold makes
at most delta' = delta / (1 + F_cat).
"""

from __future__ import annotations

import math

import pytest

from helpers import relations, sqlstate_of
from madnb_pl.inputs import privacy_parameters
from privacy_helpers import keep_probability, ledger, noise_calls, use_seeded_noise

# ---------------------------------------------------------------------------
# Selection in the database
# ---------------------------------------------------------------------------

SINGLETONS = 20_000


@pytest.fixture
def singletons(db):
    """Two classes of 500 rows each holding 'common'; then SINGLETONS rows of class 'a', each with its own value."""
    db.execute(
        "CREATE TABLE t AS SELECT CASE WHEN i <= 500 THEN 'a' ELSE 'b' END AS c, ARRAY['common'] AS x "
        "FROM generate_series(1, 1000) i "
        f"UNION ALL SELECT 'a', ARRAY['s' || i] FROM generate_series(1, {SINGLETONS}) i"
    )
    return db


def test_a_value_present_in_one_row_is_released_with_probability_at_most_delta_over_1_plus_f_cat(singletons):
    db = singletons
    use_seeded_noise(db, 20261130)
    # one categorical attribute: 2 selection + 2 release queries, epsilon' = 2 / 4; delta' = 0.2 / 2
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp', epsilon => 2, domain => 'private', delta => 0.2)"
    )
    tau = privacy_parameters.selection_threshold(0.5, 0.1)
    p = keep_probability(1, 0.5, tau)
    kept = db.execute("SELECT count(DISTINCT value) FROM fp WHERE value LIKE 's%'").fetchone()[0]
    sd = math.sqrt(p * (1 - p) / SINGLETONS)
    assert abs(kept / SINGLETONS - p) < 5 * sd
    assert kept / SINGLETONS <= 0.1 + 3 * sd
    # values and classes present in many rows are kept, and every kept value is released for every class
    assert db.execute("SELECT array_agg(class ORDER BY class) FROM cp").fetchone()[0] == ["a", "b"]
    assert db.execute("SELECT count(*) FROM fp WHERE value = 'common'").fetchone()[0] == 2
    assert db.execute("SELECT count(*) FROM fp").fetchone()[0] == 2 * (kept + 1)
    assert {r[0] for r in db.execute("SELECT DISTINCT attr_cnt FROM fp")} == {kept + 1}


def test_a_class_present_in_one_row_is_released_with_the_same_probability(db):
    db.execute(
        "CREATE TABLE t AS SELECT 'big' AS c, ARRAY['x'] AS x FROM generate_series(1, 500) "
        "UNION ALL SELECT 'c' || i, ARRAY['x'] FROM generate_series(1, 5000) i"
    )
    use_seeded_noise(db, 11)
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp', epsilon => 2, domain => 'private', delta => 0.2)"
    )
    p = keep_probability(1, 0.5, privacy_parameters.selection_threshold(0.5, 0.1))
    kept = db.execute("SELECT count(*) FROM cp WHERE class <> 'big'").fetchone()[0]
    assert abs(kept / 5000 - p) < 5 * math.sqrt(p * (1 - p) / 5000)
    assert db.execute("SELECT count(*) FROM cp WHERE class = 'big'").fetchone()[0] == 1


def test_with_a_huge_epsilon_the_private_domain_gives_the_public_domains_model(db):
    db.execute(
        "CREATE TABLE t AS SELECT (i % 3)::text AS c, ARRAY[(i % 5)::float8, (i % 7)::float8, (i % 4)::float8] AS x "
        "FROM generate_series(1, 420) i"
    )
    db.execute(
        "CREATE TABLE dom AS SELECT 0 AS attr, v::text AS value FROM generate_series(0, 2) v "
        "UNION ALL SELECT 1, v::text FROM generate_series(0, 4) v UNION ALL SELECT 3, v::text FROM generate_series(0, 3) v"
    )
    models = []
    for name, domain, delta in (("pub", "dom", None), ("priv", "private", 1e-9)):
        db.execute(
            f"SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', '2', 3, '{name}_fp', '{name}_np', '{name}_cp', "
            "epsilon => 1e9, bounds => '{0,10}', domain => %s, delta => %s)",
            (domain, delta),
        )
        models.append([
            db.execute(f"SELECT class, class_cnt, all_cnt FROM {name}_cp ORDER BY 1").fetchall(),
            db.execute(f"SELECT class, attr, value, cnt, attr_cnt FROM {name}_fp ORDER BY 1, 2, 3").fetchall(),
            db.execute(f"SELECT class, attr, round(attr_mean::numeric, 4) FROM {name}_np ORDER BY 1, 2").fetchall(),
        ])
    assert models[0] == models[1]
    assert models[1][0] == [("0", 140, 420), ("1", 140, 420), ("2", 140, 420)]


def test_an_empty_selection_gives_an_empty_model_not_an_error(db):
    db.execute("CREATE TABLE t (c text, x text[])")
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp', epsilon => 1, domain => 'private', delta => 1e-6)"
    )
    assert db.execute("SELECT count(*) FROM cp").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM fp").fetchone()[0] == 0
    assert len(ledger(db)) == 1


# ---------------------------------------------------------------------------
# Accounting
# ---------------------------------------------------------------------------


def test_the_ledger_records_epsilon_delta_and_the_selection(db):
    db.execute("CREATE TABLE t AS SELECT i % 2 AS c, ARRAY[(i % 3)::float8, i % 5, i % 4] AS x FROM generate_series(1, 100) i")
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', '2', 3, 'fp', 'np', 'cp', "
        "epsilon => 1, bounds => '{0,5}', domain => 'private', delta => 1e-6)"
    )
    (name, eps, mechanism, params), = ledger(db)
    # release: 1 class query + 2 categorical + 2 for the numeric attribute; selection: 1 + 2 categorical
    assert params["queries"] == 8 and params["epsilon_per_query"] == 1 / 8
    assert params["delta"] == 1e-6 and params["domain"] == "private" and params["domain_disclosed"] is False
    assert params["selection"] == {
        "queries": 3,
        "epsilon_per_query": 1 / 8,
        "delta_per_query": 1e-6 / 3,
        "threshold": privacy_parameters.selection_threshold(1 / 8, 1e-6 / 3),
    }
    assert "(epsilon 1, delta 1e-06)-differentially private" in params["guarantee"]
    for t in ("fp", "np", "cp"):
        comment = db.execute(f"SELECT obj_description('{t}'::regclass, 'pg_class')").fetchone()[0]
        assert "delta 1e-06" in comment and "partition selection" in comment


def test_the_observed_domain_is_recorded_as_not_differentially_private_for_the_set_of_values(db):
    db.execute("CREATE TABLE t AS SELECT i % 2 AS c, ARRAY[(i % 3)::text] AS x FROM generate_series(1, 100) i")
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp', epsilon => 1, domain => 'observed')"
    )
    params = ledger(db)[0][3]
    words = "not differentially private with respect to the set of values (domain observed)"
    assert words in params["guarantee"] and params["delta"] == 0
    for t in ("fp", "cp"):
        assert words in db.execute(f"SELECT obj_description('{t}'::regclass, 'pg_class')").fetchone()[0]


def test_a_private_domain_is_charged_before_any_noise_is_drawn(db):
    db.execute("CREATE TABLE t AS SELECT i % 2 AS c, ARRAY[(i % 3)::text] AS x FROM generate_series(1, 100) i")
    db.execute("SELECT madnb.set_privacy_budget('t', 1)")
    draws = noise_calls(db)
    e = sqlstate_of(
        db,
        "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp', epsilon => 2, domain => 'private', delta => 1e-6)",
    )
    assert e.diag.sqlstate == "53400"
    assert noise_calls(db) == draws and ledger(db) == []


BAD_DELTAS = {
    "private without delta": ("'private'", "NULL"),
    "delta with a domain table": ("'dom'", "1e-6"),
    "delta with the observed domain": ("'observed'", "1e-6"),
    "delta zero": ("'private'", "0"),
    "delta one": ("'private'", "1"),
    "delta negative": ("'private'", "-1e-6"),
    "delta NaN": ("'private'", "'NaN'"),
}


@pytest.mark.parametrize("case", list(BAD_DELTAS))
def test_every_invalid_delta_is_22023_with_a_hint_and_writes_nothing(db, case):
    db.execute("CREATE TABLE t AS SELECT i % 2 AS c, ARRAY[(i % 3)::text] AS x FROM generate_series(1, 10) i")
    db.execute("CREATE TABLE dom AS SELECT 0 AS attr, '0' AS value UNION ALL SELECT 1, '0'")
    before = relations(db)
    domain, delta = BAD_DELTAS[case]
    e = sqlstate_of(
        db,
        f"SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp', epsilon => 1, domain => {domain}, delta => {delta})",
    )
    assert e.diag.sqlstate == "22023" and e.diag.message_hint
    assert relations(db) == before and ledger(db) == []


def test_delta_without_epsilon_is_22023(db):
    db.execute("CREATE TABLE t AS SELECT i % 2 AS c, ARRAY[(i % 3)::text] AS x FROM generate_series(1, 10) i")
    e = sqlstate_of(db, "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp', delta => 1e-6)")
    assert e.diag.sqlstate == "22023"


def test_a_table_named_private_is_named_with_its_schema(db):
    db.execute("CREATE TABLE t AS SELECT i % 2 AS c, ARRAY[(i % 3)::text] AS x FROM generate_series(1, 10) i")
    db.execute("CREATE TABLE private AS SELECT 0 AS attr, v::text AS value FROM generate_series(0, 1) v UNION ALL SELECT 1, '0'")
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp', epsilon => 1, domain => 'public.private')"
    )
    assert db.execute("SELECT count(*) FROM fp").fetchone()[0] == 2
    assert ledger(db)[0][3]["domain"] == "public.private"


@pytest.mark.parametrize("epsilon", [1e-49, 1e50])  # epsilon' = 1.25e-50 and 1.25e49 over 8 queries
def test_a_private_domain_at_the_ends_of_the_epsilon_range_releases_without_error(db, epsilon):
    db.execute("CREATE TABLE t AS SELECT i % 2 AS c, ARRAY[(i % 3)::float8, i % 5, i % 4] AS x FROM generate_series(1, 100) i")
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', '2', 3, 'fp', 'np', 'cp', "
        "epsilon => %s, bounds => '{0,5}', domain => 'private', delta => 1e-6)",
        (epsilon,),
    )
    classes = db.execute("SELECT count(*) FROM cp").fetchone()[0]
    assert classes == (2 if epsilon > 1 else 0)  # no noise to speak of / a threshold of about 1e51
    assert len(ledger(db)) == 1

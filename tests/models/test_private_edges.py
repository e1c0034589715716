"""Edge cases of madnb.train's text forms and private releases: far dates, nondeterministic collations,
an empty private domain, big jsonb numbers, huge bounds, and what a release leaves behind."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from privacy_helpers import ledger, notices, use_seeded_noise


def err(db: psycopg.Connection[Any], call: str, params: Any = None) -> psycopg.Error:
    with pytest.raises(psycopg.Error) as e:
        db.execute(call, params)
    return e.value


def counts(db: psycopg.Connection[Any], model: str) -> dict[tuple[Any, str], int]:
    """The model's nonzero value counts by (class, value)."""
    return {
        (c, v): int(n)
        for c, v, n in db.execute(f"SELECT class, value, cnt FROM madnb_models.{model}_feature_probs").fetchall()
        if n
    }


# ---------------------------------------------------------------------------
# 1. every legal date has one text form, in every time zone
# ---------------------------------------------------------------------------

FAR_DATES = {"5874897-12-31": "b", "4714-11-24 BC": "a", "294276-12-31": "b", "294277-01-01": "a"}


@pytest.mark.parametrize("tz", ["UTC", "Asia/Tokyo"])
def test_the_first_and_last_legal_dates_train_predict_and_release_privately_in_every_time_zone(db, tz):
    db.execute(f"SET timezone = '{tz}'")
    db.execute("CREATE TABLE dd (c text, d date)")
    db.execute("INSERT INTO dd SELECT CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END, DATE '2024-01-01' + i % 2 FROM generate_series(1, 20) i")
    for d, c in FAR_DATES.items():
        db.execute("INSERT INTO dd VALUES (%s, %s::date)", (c, d))
    db.execute("SELECT madnb.train('dd_exact', 'dd', 'c')")
    got = counts(db, "dd_exact")
    # the text form is YYYY-MM-DD (BC marked) for every date, as for the ordinary ones
    assert got == {("a", "2024-01-01"): 10, ("b", "2024-01-02"): 10, **{(c, d): 1 for d, c in FAR_DATES.items()}}
    for d, c in FAR_DATES.items():
        assert db.execute("SELECT madnb_models.dd_exact_predict(d => %s::date)", (d,)).fetchone()[0] == c
    assert db.execute("SELECT madnb_models.dd_exact_predict(dd) FROM dd WHERE d = '5874897-12-31'").fetchone()[0] == "b"
    db.execute("SELECT madnb.set_privacy_budget('dd', 1e6)")
    domain = '{"c": ["a", "b"], "d": ["2024-01-01", "2024-01-02", "5874897-12-31", "4714-11-24 BC", "294276-12-31", "294277-01-01"]}'
    db.execute("SELECT madnb.train('dd_private', 'dd', 'c', epsilon => 1e5, domain => %s)", (domain,))
    assert counts(db, "dd_private") == got
    db.execute("SELECT madnb.train('dd_chosen', 'dd', 'c', epsilon => 1000, domain => 'private', delta => 1e-6)")
    assert len(ledger(db)) == 2


# ---------------------------------------------------------------------------
# 2. nondeterministic collations
# ---------------------------------------------------------------------------

CI = "CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false)"


def test_a_case_insensitive_column_keeps_red_and_RED_apart_in_training_prediction_and_release(db):
    db.execute(CI)
    db.execute("CREATE TABLE ncol (c text, colour text COLLATE ci)")
    db.execute("INSERT INTO ncol SELECT 'a', 'red' FROM generate_series(1, 90)")
    db.execute("INSERT INTO ncol SELECT 'a', 'RED' FROM generate_series(1, 10)")
    db.execute("INSERT INTO ncol SELECT 'b', 'blue' FROM generate_series(1, 100)")
    db.execute("SELECT madnb.train('ex', 'ncol', 'c')")
    assert counts(db, "ex") == {("a", "red"): 90, ("a", "RED"): 10, ("b", "blue"): 100}
    # 'RED' is its own value: P(RED | a) = (10 + 1) / (100 + 3), P(RED | b) = 1 / 103 (Laplace smoothing, 3 values)
    p = db.execute("SELECT madnb_models.ex_predict_proba(colour => 'RED')").fetchone()[0]
    assert p["a"] == pytest.approx(11 / 12)
    db.execute("SELECT madnb.set_privacy_budget('ncol', 1e6)")
    db.execute(
        "SELECT madnb.train('pr', 'ncol', 'c', epsilon => 1e5, "
        "domain => '{\"c\": [\"a\", \"b\"], \"colour\": [\"red\", \"RED\", \"Red\", \"blue\"]}')"
    )
    # each query counts each row once: its cells sum to the number of rows
    assert sum(counts(db, "pr").values()) == 200
    assert db.execute("SELECT sum(class_cnt) FROM madnb_models.pr_class_priors").fetchone()[0] == 200
    assert counts(db, "pr")[("a", "RED")] == 10


def test_a_label_or_class_column_with_a_nondeterministic_collation_is_0A000_before_anything_is_charged(db):
    db.execute(CI)
    db.execute("CREATE TABLE nlab (c text COLLATE ci, k text, xs float8[])")
    db.execute("INSERT INTO nlab SELECT CASE WHEN i % 2 = 0 THEN 'a' ELSE 'A' END, 'x', ARRAY[1] FROM generate_series(1, 100) i")
    db.execute("SELECT madnb.set_privacy_budget('nlab', 10)")
    for call in [
        "SELECT madnb.train('n1', 'nlab', 'c', features => ARRAY['k'])",
        "SELECT madnb.train('n2', 'nlab', 'c', features => ARRAY['k'], epsilon => 1, domain => '{\"c\": [\"a\", \"A\"], \"k\": [\"x\"]}')",
        "SELECT madnb.create_nb_prepared_data_tables('nlab', 'c', 'xs', '1', 1, 'fp', 'np', 'cp', "
        "epsilon => 1, bounds => '{0, 2}', domain => 'private', delta => 1e-6)",
    ]:
        e = err(db, call)
        assert e.diag.sqlstate == "0A000", e.diag.message_primary
        assert '"c"' in e.diag.message_primary and "ci" in e.diag.message_primary and e.diag.message_hint
    assert ledger(db) == []
    assert db.execute("SELECT count(*) FROM madnb._models").fetchone()[0] == 0


# ---------------------------------------------------------------------------
# 3. domain => 'private' that keeps no class
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("gaussian", [False, True], ids=["categorical", "with a Gaussian feature"])
def test_a_private_domain_that_keeps_no_class_gives_an_empty_model_that_predicts_null(db, gaussian):
    db.execute("CREATE TABLE p1 (c text, k text, x float8)")
    db.execute("INSERT INTO p1 SELECT CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END, 'k' || (i % 3), i % 10 FROM generate_series(1, 20) i")
    db.execute("SELECT madnb.set_privacy_budget('p1', 5)")
    use_seeded_noise(db, 7)
    # epsilon 0.01 over 5 queries, delta 1e-9: the selection threshold is in the thousands, far above 10 rows a class
    features = "ARRAY['k', 'x'], bounds => '{\"x\": [0, 10]}'" if gaussian else "ARRAY['k']"
    db.execute(f"SELECT madnb.train('p_empty', 'p1', 'c', features => {features}, epsilon => 0.01, domain => 'private', delta => 1e-9)")
    assert db.execute("SELECT count(*) FROM madnb_models.p_empty_class_priors").fetchone()[0] == 0
    assert db.execute("SELECT classes, training_rows FROM madnb.models WHERE name = 'p_empty'").fetchone() == ([], 0)
    got = db.execute(
        "SELECT madnb_models.p_empty_predict(p1), madnb_models.p_empty_predict_proba(p1), "
        "madnb_models.p_empty_predict_proba_array(p1) FROM p1 LIMIT 1"
    ).fetchone()
    assert got == (None, {}, [])
    assert len(ledger(db)) == 1


# ---------------------------------------------------------------------------
# 4-7. jsonb numbers, bounds errors, the domain copy, training_rows
# ---------------------------------------------------------------------------


def test_a_jsonb_domain_number_keeps_every_digit(db):
    db.execute("CREATE TABLE q (c text, code numeric)")
    db.execute("INSERT INTO q SELECT 'a', 12345678901234567.5 FROM generate_series(1, 50)")
    db.execute("SELECT madnb.set_privacy_budget('q', 1e6)")
    db.execute(
        "SELECT madnb.train('q_nb', 'q', 'c', categorical => ARRAY['code'], epsilon => 1e5, "
        "domain => '{\"c\": [\"a\"], \"code\": [12345678901234567.5, 12345678901234567890123]}')"
    )
    assert counts(db, "q_nb") == {("a", "12345678901234567.5"): 50}
    values = db.execute("SELECT value FROM madnb_models.q_nb_feature_probs ORDER BY 1").fetchall()
    assert values == [("12345678901234567.5",), ("12345678901234567890123",)]


GAUSS = "CREATE TABLE g (c text, k text, x float8); INSERT INTO g SELECT 'a', 'k1', i FROM generate_series(1, 10) i"
G_DOMAIN = '{"c": ["a"], "k": ["k1"]}'


@pytest.mark.parametrize(
    "bounds", ['{"x": [0, 1e400]}', '{"x": [-1e200, 1e200]}', '{"x": [0, 1e-300]}'], ids=["beyond float8", "too wide", "too narrow"],
)
def test_bounds_that_cannot_be_encoded_are_22023_naming_the_column_with_madnb_train_hint(db, bounds):
    db.execute(GAUSS)
    e = err(db, "SELECT madnb.train('g_nb', 'g', 'c', epsilon => 1, bounds => %s, domain => %s)", (bounds, G_DOMAIN))
    assert e.diag.sqlstate == "22023", e.diag.message_primary
    assert 'the bounds of "x"' in e.diag.message_primary
    assert "jsonb keyed by column name" in e.diag.message_hint
    assert ledger(db) == [] and db.execute("SELECT count(*) FROM madnb._models").fetchone()[0] == 0


def test_the_observed_domain_warning_of_madnb_train_hints_the_domain_by_column_name(db):
    db.execute(GAUSS)
    seen = notices(db)
    db.execute("SELECT madnb.train('g_nb', 'g', 'c', epsilon => 1, bounds => '{\"x\": [0, 10]}', domain => 'observed')")
    (w,) = [m for m in seen if m.severity_nonlocalized == "WARNING"]
    assert "discloses" in w.message_primary and "by column name" in w.message_hint


@pytest.mark.parametrize("domain", [G_DOMAIN, "g_domain"], ids=["jsonb", "a table"])
def test_the_temporary_domain_copy_is_dropped_when_the_release_is_done(db, domain):
    db.execute(GAUSS)
    db.execute("CREATE TABLE g_domain (attr text, value text); INSERT INTO g_domain VALUES ('c', 'a'), ('k', 'k1')")
    with db.transaction():
        db.execute("SELECT madnb.train('g_nb', 'g', 'c', epsilon => 1, bounds => '{\"x\": [0, 10]}', domain => %s)", (domain,))
        left = db.execute("SELECT count(*) FROM pg_class WHERE relname LIKE 'madnb%%domain%%'").fetchone()[0]
    assert left == 0
    assert db.execute("SELECT count(*) FROM madnb.models WHERE name = 'g_nb'").fetchone()[0] == 1


def test_training_rows_of_a_private_model_of_an_empty_table_is_the_number_of_classes_as_documented(db):
    # docs/models.md: the class counts are clamped at 0 and all set to 1 when every one is 0
    db.execute("CREATE TABLE e0 (c text, k text)")
    db.execute("SELECT madnb.train('e0_nb', 'e0', 'c', epsilon => 1e5, domain => '{\"c\": [\"a\", \"b\"], \"k\": [\"k1\"]}')")
    assert db.execute("SELECT training_rows FROM madnb.models WHERE name = 'e0_nb'").fetchone()[0] == 2
    assert db.execute("SELECT class, class_cnt FROM madnb_models.e0_nb_class_priors ORDER BY 1").fetchall() == [("a", 1), ("b", 1)]

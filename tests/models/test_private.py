"""Differentially private named models: madnb.train(..., epsilon, bounds, domain, delta) from ordinary columns.

The release is private training's (madnb_pl.privacy.private_release.write_private): the same
charge, ledger row, noise inside the aggregation and post-processing; only the
reading of a row differs (columns instead of an attribute array).  So with the
same seeded noise a model trained from columns equals the model trained from
the same data packed into an attribute array, number for number.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

import psycopg
import pytest

from privacy_helpers import ledger, noise_calls, notices, use_seeded_noise

# class c; colour categorical (text, and as the integer code 0..2 in the array), size Gaussian
ROWS = """
CREATE TABLE s (id int, c text, colour text, size float8, code int);
INSERT INTO s SELECT i, CASE WHEN i % 3 = 0 THEN 'b' ELSE 'a' END, (ARRAY['red', 'green', 'blue'])[1 + i % 3 % 2 + i % 5 / 4],
    10 + i % 7 + (i % 3) * 2.5, 0 FROM generate_series(1, 300) i;
UPDATE s SET code = CASE colour WHEN 'red' THEN 0 WHEN 'green' THEN 1 ELSE 2 END;
CREATE TABLE s_array AS SELECT id, c, ARRAY[code::float8, size] AS x FROM s;
CREATE TABLE s_array_domain (attr int, value text);
INSERT INTO s_array_domain VALUES (0, 'a'), (0, 'b'), (0, 'c'), (1, '0'), (1, '1'), (1, '2'), (1, '3');
"""
BOUNDS = '{"size": [0, 30]}'
DOMAIN = '{"c": ["a", "b", "c"], "code": [0, 1, 2, 3]}'
TRAIN = (
    "SELECT madnb.train(%s, 's', 'c', features => ARRAY['code', 'size'], categorical => ARRAY['code'], "
    "epsilon => %s, bounds => %s, domain => %s)"
)


@pytest.fixture
def s(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    db.execute(ROWS)
    return db


def err(db: psycopg.Connection[Any], call: str, params: Any = None) -> psycopg.Error:
    with pytest.raises(psycopg.Error) as e:
        db.execute(call, params)
    return e.value


def model(db: psycopg.Connection[Any], name: str | None = None) -> dict[str, list[tuple[Any, ...]]]:
    """A named model's tables (None: fp, np, cp), values as text (an array model's are float8, a column model's text)."""
    cp, fp, np = (f"madnb_models.{name}_{t}" for t in ("class_priors", "feature_probs", "numeric_stats")) if name else ("cp", "fp", "np")
    return {
        "cp": db.execute(f"SELECT class, class_cnt, all_cnt FROM {cp} ORDER BY 1").fetchall(),
        "fp": db.execute(f"SELECT class, attr, value::text, cnt, attr_cnt FROM {fp} ORDER BY 2, 3, 1").fetchall(),
        "np": db.execute(f"SELECT class, attr, attr_mean, attr_var, value_cnt FROM {np} ORDER BY 1, 2").fetchall(),
    }


def leftovers(db: psycopg.Connection[Any]) -> tuple[int, ...]:
    """Models, their relations and functions, statistics tables and ledger rows."""
    return db.execute(
        "SELECT (SELECT count(*) FROM madnb._models), "
        "(SELECT count(*) FROM pg_class WHERE relnamespace IN ('madnb_models'::regnamespace, 'madnb_statistics'::regnamespace)), "
        "(SELECT count(*) FROM pg_proc WHERE pronamespace = 'madnb_models'::regnamespace), "
        "(SELECT count(*) FROM madnb.privacy_ledger)"
    ).fetchone()


# ---------------------------------------------------------------------------
# The same release as private training from an attribute array
# ---------------------------------------------------------------------------


def test_with_the_same_noise_a_model_from_columns_equals_the_model_from_an_attribute_array(s):
    use_seeded_noise(s, 20261130)
    s.execute(
        "SELECT madnb.create_nb_prepared_data_tables('s_array', 'c', 'x', '2', 2, 'fp', 'np', 'cp', "
        "epsilon => 0.5, bounds => '{{0,30}}', domain => 's_array_domain')"
    )
    use_seeded_noise(s, 20261130)
    s.execute(TRAIN, ("s_nb", 0.5, BOUNDS, DOMAIN))
    from_array, from_columns = model(s), model(s, "s_nb")
    assert from_columns == from_array
    # the noise is there: the exact class counts are 200 and 100, class c has no row
    exact = s.execute("SELECT c, count(*) FROM s GROUP BY 1 ORDER BY 1").fetchall()
    assert [r[:2] for r in from_columns["cp"]] != exact + [("c", 0)]
    # both releases were charged, with the same sensitivity and queries
    (_, _, _, array_params), (name, eps, _, col_params) = ledger(s)
    assert (name, eps) == ("public.s", Decimal("0.5"))
    for key in ("sensitivity", "queries", "epsilon_per_query", "fixed_point_bits", "bounds", "numeric_attributes"):
        assert col_params[key] == array_params[key], key
    assert col_params["features"] == ["code", "size"] and col_params["bounds_by_column"] == {"size": [0.0, 30.0]}


@pytest.mark.parametrize("workers", [0, 2, 3])
def test_with_the_same_noise_missing_nan_and_out_of_bounds_values_release_as_from_an_attribute_array(db, workers):
    # columns are read by their own pass (grouping sets and one GROUP BY), arrays by an unpivot of every
    # element: the same statistics, so with the same noise the same model; two categorical columns with
    # NULLs, a float8 with NULL, NaN and values beyond its bounds, a numeric beyond its bounds
    db.execute(
        "CREATE TABLE m (c text, k1 text, k2 text, x float8, y numeric);"
        "INSERT INTO m SELECT CASE WHEN i % 4 = 0 THEN 'q' ELSE 'p' END, CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 3)::text END, "
        "CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 2 + i % 5 / 3)::text END, "
        "CASE WHEN i % 13 = 0 THEN NULL WHEN i % 17 = 0 THEN 'NaN' WHEN i % 19 = 0 THEN 1e6 ELSE (i % 9) * 1.5 - 2 END, "
        "CASE WHEN i % 23 = 0 THEN 1e300 ELSE (i % 6)::numeric / 4 END FROM generate_series(1, 400) AS i;"
        "CREATE TABLE m_array AS SELECT c, ARRAY[k1::float8, k2::float8, x, y::float8] AS a FROM m;"
        "CREATE TABLE m_domain (attr int, value text);"
        "INSERT INTO m_domain VALUES (0, 'p'), (0, 'q'), (1, '0'), (1, '1'), (1, '2'), (2, '0'), (2, '1'), (2, '2')"
    )
    use_seeded_noise(db, 20261201)
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('m_array', 'c', 'a', '3,4', 4, 'fp', 'np', 'cp', "
        "epsilon => 2, bounds => '{{-2,10},{0,1}}', domain => 'm_domain')"
    )
    use_seeded_noise(db, 20261201)
    # the column pass splits its features into max_parallel_workers_per_gather groups (one group: 0)
    db.execute(f"SET max_parallel_workers_per_gather = {workers}")
    db.execute(
        "SELECT madnb.train('m_nb', 'm', 'c', features => ARRAY['k1', 'k2', 'x', 'y'], categorical => ARRAY['k1', 'k2'], "
        "epsilon => 2, bounds => '{\"x\": [-2, 10], \"y\": [0, 1]}', "
        "domain => '{\"c\": [\"p\", \"q\"], \"k1\": [\"0\", \"1\", \"2\"], \"k2\": [\"0\", \"1\", \"2\"]}')"
    )
    assert model(db, "m_nb") == model(db)


def test_the_private_column_pass_runs_its_groups_in_parallel_workers(db):
    """The exact statistics inside the private release from columns are one Parallel Append of groups of
    features (the class counts with the Gaussian sums, the grouping sets), as exact training's pass, not a serial
    Append."""
    db.execute("CREATE TABLE m AS SELECT (i % 3)::text AS c, (i % 4)::text AS k1, (i % 5)::text AS k2, (i % 7)::float8 AS x, "
               "(i % 9)::float8 AS y FROM generate_series(1, 100000) AS i")
    db.execute("ANALYZE m")
    for setting in ("max_parallel_workers_per_gather = 2",
                    "auto_explain.log_min_duration = 0", "auto_explain.log_nested_statements = on", "auto_explain.log_level = notice"):
        if setting.startswith("auto_explain.log_min"):
            db.execute("LOAD 'auto_explain'")
        db.execute(f"SET {setting}")
    plans: list[str] = []
    db.add_notice_handler(lambda d: plans.append(d.message_primary or ""))
    db.execute(
        "SELECT madnb.train('m_nb', 'm', 'c', categorical => ARRAY['k1', 'k2'], epsilon => 1, "
        "bounds => '{\"x\": [0, 10], \"y\": [0, 10]}', "
        "domain => '{\"c\": [\"0\", \"1\", \"2\"], \"k1\": [\"0\", \"1\", \"2\", \"3\"], \"k2\": [\"0\", \"1\"]}')"
    )
    db.execute("SET auto_explain.log_min_duration = -1")
    release = [p for p in plans if "madnb_released_" in p and "CREATE TEMPORARY TABLE" in p]
    assert len(release) == 1
    plan = release[0]
    assert "Parallel Append" in plan, plan
    lines = plan.splitlines()
    # two aggregates of the text values, one column each (k1; k2), not one aggregate of both
    by_value = [b for a, b in zip(lines, lines[1:], strict=False) if "HashAggregate" in a and "::text" in b]
    assert len(by_value) == 2, plan
    # the class counts and every Gaussian feature's sums in one aggregate per class (each row's codes computed
    # once, in its sub-select), as exact training's pass, not one per group of Gaussian features
    assert sum(re.fullmatch(r"Group Key: t(_\d+)?\.c", line.strip()) is not None for line in lines) == 1, plan


def test_a_huge_epsilon_gives_the_exact_counts_and_means(s):
    s.execute(TRAIN, ("s_nb", 1e12, BOUNDS, DOMAIN))  # epsilon' = 3e11: no noise in practice
    got = s.execute("SELECT class, class_cnt FROM madnb_models.s_nb_class_priors ORDER BY 1").fetchall()
    assert got == [("a", 200), ("b", 100), ("c", 0)]
    counts = dict(
        ((c, v), n) for c, v, n in s.execute("SELECT class, value, cnt FROM madnb_models.s_nb_feature_probs WHERE attr = 1")
    )
    exact = {(c, v): n for c, v, n in s.execute("SELECT c, code::text, count(*) FROM s GROUP BY 1, 2")}
    assert len(counts) == 3 * 4  # every cell of the domain: classes a, b, c times values 0..3
    assert {k: n for k, n in counts.items() if k[0] != "c"} == {(c, v): exact.get((c, v), 0) for c in "ab" for v in "0123"}
    assert {n for k, n in counts.items() if k[0] == "c"} == {0}
    for cls, mean in s.execute("SELECT class, attr_mean FROM madnb_models.s_nb_numeric_stats WHERE class <> 'c'"):
        want = s.execute("SELECT avg(size) FROM s WHERE c = %s", (cls,)).fetchone()[0]
        assert mean == pytest.approx(want, abs=15 / 2**19)  # fixed point: steps of h / 2**20, h = 15


def test_a_domain_table_by_column_name_gives_the_same_model_as_the_same_domain_in_jsonb(s):
    s.execute("CREATE TABLE dom (attr text, value text)")
    s.execute("INSERT INTO dom VALUES ('c', 'a'), ('c', 'b'), ('c', 'c'), ('code', '0'), ('code', '1'), ('code', '2'), ('code', '3')")
    use_seeded_noise(s, 5)
    s.execute(TRAIN, ("by_jsonb", 1.0, BOUNDS, DOMAIN))
    use_seeded_noise(s, 5)
    s.execute(TRAIN, ("by_table", 1.0, BOUNDS, "dom"))  # jsonb's number 3 and the table's text '3' are one value
    assert model(s, "by_table") == model(s, "by_jsonb")
    domains = s.execute("SELECT parameters->>'domain' FROM madnb.privacy_ledger ORDER BY release_id").fetchall()
    assert domains == [("given as jsonb",), ("public.dom",)]


def test_the_observed_and_private_domains_work_as_in_private_training(s):
    seen = notices(s)
    s.execute(
        "SELECT madnb.train('obs', 's', 'c', features => ARRAY['colour', 'size'], epsilon => 1e12, "
        "bounds => %s, domain => 'observed')", (BOUNDS,),
    )
    assert any(m.severity_nonlocalized == "WARNING" and "discloses" in m.message_primary for m in seen)
    assert s.execute("SELECT classes FROM madnb.models WHERE name = 'obs'").fetchone()[0] == ["a", "b"]
    values = s.execute("SELECT DISTINCT value FROM madnb_models.obs_feature_probs ORDER BY 1").fetchall()
    assert values == [("blue",), ("green",), ("red",)]
    # a private domain of a huge epsilon keeps every value present (counts far above the threshold)
    s.execute(
        "SELECT madnb.train('priv', 's', 'c', features => ARRAY['colour', 'size'], epsilon => 1e6, "
        "bounds => %s, domain => 'private', delta => 1e-6)", (BOUNDS,),
    )
    assert s.execute("SELECT classes FROM madnb.models WHERE name = 'priv'").fetchone()[0] == ["a", "b"]
    privacy = s.execute("SELECT privacy, delta FROM madnb.models WHERE name = 'priv'").fetchone()
    assert privacy == ("private", 1e-6)


# ---------------------------------------------------------------------------
# The catalog, the ledger, the budget
# ---------------------------------------------------------------------------


def test_the_catalog_shows_the_release_and_the_model_predicts_and_evaluates_as_usual(s):
    s.execute(TRAIN, ("s_nb", 2.0, BOUNDS, DOMAIN))
    row = s.execute("SELECT privacy, epsilon, delta, release_id, training_rows, classes FROM madnb.models").fetchone()
    (release_id, name, eps, params) = s.execute(
        "SELECT release_id, source_name, epsilon, parameters FROM madnb.privacy_ledger"
    ).fetchone()
    assert row[:4] == ("private", 2.0, 0.0, release_id)
    assert (name, eps) == ("public.s", Decimal(2))
    assert row[5] == ["a", "b", "c"]  # the declared classes, not the ones present
    # training_rows is the sum of the released (noisy) class counts, never the exact count
    assert row[4] == s.execute("SELECT sum(class_cnt) FROM madnb_models.s_nb_class_priors").fetchone()[0]
    assert params["outputs"]["model"] == "s_nb" and params["statistics"].startswith("madnb_statistics.")
    stats = s.execute("SELECT statistics FROM madnb._models").fetchone()[0]
    comment = s.execute("SELECT obj_description(%s::regclass, 'pg_class')", (stats,)).fetchone()[0]
    header = json.loads(comment.removeprefix("madnb statistics "))
    assert header["mode"] == "private" and header["release_id"] == release_id and header["epsilon"] == "2"
    predicted = s.execute("SELECT madnb_models.s_nb_predict(t), count(*) FROM s AS t GROUP BY 1").fetchall()
    assert sum(n for _, n in predicted) == 300 and {p for p, _ in predicted} <= {"a", "b", "c"}
    metrics = s.execute("SELECT madnb.evaluate('s_nb', 's')").fetchone()[0]
    assert metrics["support"] == [200, 100, 0]  # in the order of the model's classes
    right = s.execute("SELECT avg((madnb_models.s_nb_predict(t) = t.c)::int) FROM s AS t").fetchone()[0]
    assert metrics["accuracy"] == pytest.approx(float(right), abs=1e-12)


def test_replacing_a_private_model_is_a_new_release_charged_again(s):
    s.execute(TRAIN, ("s_nb", 0.25, BOUNDS, DOMAIN))
    with pytest.raises(psycopg.Error) as e:
        s.execute(TRAIN, ("s_nb", 0.25, BOUNDS, DOMAIN))
    assert e.value.diag.sqlstate == "42710"
    assert len(ledger(s)) == 1  # refused before the charge
    s.execute(TRAIN.replace("domain => %s", "domain => %s, replace => true"), ("s_nb", 0.25, BOUNDS, DOMAIN))
    ids = [r[0] for r in s.execute("SELECT release_id FROM madnb.privacy_ledger ORDER BY 1")]
    assert len(ids) == 2
    assert s.execute("SELECT release_id FROM madnb.models").fetchone()[0] == ids[1]
    assert s.execute("SELECT sum(epsilon) FROM madnb.privacy_ledger").fetchone()[0] == Decimal("0.5")


def test_a_release_over_the_budget_is_53400_and_leaves_no_model_no_catalog_row_and_no_ledger_row(s):
    s.execute("SELECT madnb.set_privacy_budget('s', 1.0)")
    s.execute(TRAIN, ("first", 0.6, BOUNDS, DOMAIN))
    before = leftovers(s)
    draws = noise_calls(s)
    e = err(s, TRAIN, ("second", 0.5, BOUNDS, DOMAIN))
    assert e.diag.sqlstate == "53400" and "0.4" in e.diag.message_detail
    # replacing the first model is refused too, and keeps it
    e = err(s, TRAIN.replace("domain => %s", "domain => %s, replace => true"), ("first", 0.5, BOUNDS, DOMAIN))
    assert e.diag.sqlstate == "53400"
    assert leftovers(s) == before and noise_calls(s) == draws
    assert s.execute("SELECT name FROM madnb.models").fetchall() == [("first",)]
    s.execute(TRAIN, ("second", 0.4, BOUNDS, DOMAIN))  # exactly what is left
    assert s.execute("SELECT remaining_epsilon FROM madnb.privacy_budget_status").fetchone()[0] == 0


# ---------------------------------------------------------------------------
# No property of one row decides whether the release succeeds
# ---------------------------------------------------------------------------

MALFORMED = {
    "a NULL label": "(1001, NULL, 'red', 1, 0)",
    "NULL values": "(1002, 'a', NULL, NULL, NULL)",
    "a NaN size": "(1003, 'a', 'red', 'NaN', 0)",
    "an infinite size": "(1004, 'b', 'red', 'Infinity', 1)",
    "a size far out of bounds": "(1005, 'b', 'red', -1e300, 1)",
    "a value outside the domain": "(1006, 'a', 'purple', 5, 7)",
    "a class outside the domain": "(1007, 'zzz', 'red', 5, 0)",
}


@pytest.mark.parametrize("row", list(MALFORMED))
def test_a_malformed_row_never_decides_whether_the_release_succeeds(s, row):
    s.execute(TRAIN, ("before", 1e12, BOUNDS, DOMAIN))
    s.execute(f"INSERT INTO s VALUES {MALFORMED[row]}")
    seen = notices(s)
    s.execute(TRAIN, ("after", 1e12, BOUNDS, DOMAIN))
    assert seen == []  # not even a NOTICE (exact training says how many NULL labels it ignored)
    (_, _, _, p1), (_, _, _, p2) = ledger(s)
    assert p2["sensitivity"] == p1["sensitivity"] == {"count": 1, "sum": 2**20, "sum_of_squares": 2**40}
    b, a = model(s, "before"), model(s, "after")
    # with no noise to speak of, the row counts where it is valid and nowhere else
    moved = {
        "a NULL label": ({}, {}, 0), "a class outside the domain": ({}, {}, 0),
        # counts for class a; missing in every feature: a missing size counts as the midpoint 15
        # (docs/privacy.md), so a's mean (16.75) falls a little
        "NULL values": ({"a": 1}, {}, -1),
        "a NaN size": ({"a": 1}, {("a", "0"): 1}, -1),
        "an infinite size": ({"b": 1}, {("b", "1"): 1}, 1),  # clipped to the upper bound: b's mean rises
        "a size far out of bounds": ({"b": 1}, {("b", "1"): 1}, -1),  # clipped to the lower bound
        "a value outside the domain": ({"a": 1}, {}, -1),  # code 7 is missing; size 5 is counted
    }[row]
    cp = {c: n_a - n_b for (c, n_a, _), (_, n_b, _) in zip(a["cp"], b["cp"], strict=True) if n_a != n_b}
    fp = {(c, v): n_a - n_b for (c, _, v, n_a, _), (_, _, _, n_b, _) in zip(a["fp"], b["fp"], strict=True) if n_a != n_b}
    assert (cp, fp) == moved[:2]
    for (c, _, mean_a, _, _), (_, _, mean_b, _, _) in zip(a["np"], b["np"], strict=True):
        rise = moved[2] if c == next(iter(moved[0]), None) else 0
        if rise == 0:
            assert mean_a == pytest.approx(mean_b, abs=1e-4)
        else:
            assert (mean_a - mean_b) * rise > 1e-3


# ---------------------------------------------------------------------------
# Arguments: SQLSTATEs, hints, nothing left behind
# ---------------------------------------------------------------------------

BAD = [
    ("no bounds", "epsilon => 1, domain => '{\"c\": [\"a\"]}'", "22023", 'public bounds are missing for Gaussian feature "size"'),
    ("a Gaussian feature left out of bounds", "epsilon => 1, bounds => '{}', domain => '{\"c\": [\"a\"]}'", "22023", '"size"'),
    ("bounds of an unknown column", "epsilon => 1, bounds => '{\"size\": [0, 1], \"nope\": [0, 1]}', domain => '{\"c\": [\"a\"]}'", "42703", '"nope"'),
    ("bounds of a categorical column", "epsilon => 1, bounds => '{\"size\": [0, 1], \"colour\": [0, 1]}', domain => '{\"c\": [\"a\"], \"colour\": [\"red\"]}'", "22023", '"colour"'),
    ("bounds not an object", "epsilon => 1, bounds => '[[0, 1]]', domain => '{\"c\": [\"a\"]}'", "22023", "jsonb object"),
    ("bounds upside down", "epsilon => 1, bounds => '{\"size\": [5, 1]}', domain => '{\"c\": [\"a\"]}'", "22023", "below"),
    ("bounds with NULL", "epsilon => 1, bounds => '{\"size\": [null, 1]}', domain => '{\"c\": [\"a\"]}'", "22023", "finite"),
    ("no domain", "epsilon => 1, bounds => '{\"size\": [0, 30]}'", "22023", "public domain"),
    ("a domain of an unknown column", "epsilon => 1, bounds => '{\"size\": [0, 30]}', domain => '{\"c\": [\"a\"], \"nope\": [\"x\"]}'", "42703", '"nope"'),
    ("a domain for a Gaussian column", "epsilon => 1, bounds => '{\"size\": [0, 30]}', domain => '{\"c\": [\"a\"], \"size\": [1]}'", "22023", '"size"'),
    ("a domain without the label", "epsilon => 1, bounds => '{\"size\": [0, 30]}', domain => '{\"colour\": [\"red\"]}'", "22023", 'label "c"'),
    ("a domain without a categorical feature", "epsilon => 1, bounds => '{\"size\": [0, 30]}', domain => '{\"c\": [\"a\"], \"code\": [1]}'", "22023", '"colour"'),
    ("a domain that is not an object of arrays", "epsilon => 1, bounds => '{\"size\": [0, 30]}', domain => '{\"c\": \"a\"}'", "22023", "object of arrays"),
    ("a domain value of the wrong type", "epsilon => 1, bounds => '{\"size\": [0, 30]}', domain => '{\"c\": [\"a\"], \"colour\": [\"red\"], \"code\": [\"three\"]}'", "22P02", "three"),
    ("a missing domain table", "epsilon => 1, bounds => '{\"size\": [0, 30]}', domain => 'nope'", "42P01", "nope"),
    ("delta with a public domain", "epsilon => 1, bounds => '{\"size\": [0, 30]}', domain => '{\"c\": [\"a\"], \"colour\": [\"red\"], \"code\": [1]}', delta => 1e-6", "22023", "delta"),
    ("bounds without epsilon", "bounds => '{\"size\": [0, 30]}'", "22023", "differentially private"),
    ("a negative epsilon", "epsilon => -1, bounds => '{\"size\": [0, 30]}', domain => '{\"c\": [\"a\"], \"colour\": [\"red\"], \"code\": [1]}'", "22023", "epsilon"),
]


@pytest.mark.parametrize("case", BAD, ids=[b[0] for b in BAD])
def test_every_invalid_private_training_is_refused_with_a_sqlstate_and_a_hint_before_anything_is_charged(s, case):
    _, args, state, says = case
    e = err(s, f"SELECT madnb.train('m', 's', 'c', features => ARRAY['colour', 'size', 'code'], categorical => ARRAY['code'], {args})")
    assert e.diag.sqlstate == state, e.diag.message_primary
    assert says in e.diag.message_primary, e.diag.message_primary
    assert e.diag.message_primary[0].islower()
    if state != "42P01":
        assert e.diag.message_hint
    assert leftovers(s) == (0, 0, 0, 0)


def test_a_huge_or_nan_numeric_value_is_clipped_or_missing_and_never_fails_the_release(db):
    db.execute("CREATE TABLE big (c int, x numeric, d date)")
    db.execute("INSERT INTO big SELECT 1, 1e400, DATE '2024-01-31' FROM generate_series(1, 10)")
    db.execute("INSERT INTO big VALUES (1, 'NaN', NULL), (1, NULL, 'infinity'), (2, '-Infinity', '2024-02-01')")
    db.execute(
        "SELECT madnb.train('big_nb', 'big', 'c', epsilon => 1e12, bounds => '{\"x\": [0, 5]}', "
        "domain => '{\"c\": [1, 2], \"d\": [\"2024-01-31\", \"infinity\"]}')"
    )
    got = db.execute("SELECT class, attr_mean FROM madnb_models.big_nb_numeric_stats ORDER BY 1").fetchall()
    # class 1: ten values on the upper bound 5, two missing (the midpoint 2.5); class 2: -Infinity on the lower bound
    assert got[0][1] == pytest.approx((10 * 5 + 2 * 2.5) / 12, abs=1e-5) and got[1][1] == pytest.approx(0, abs=1e-5)
    counts = db.execute(
        "SELECT class, value, cnt FROM madnb_models.big_nb_feature_probs WHERE class = 1 ORDER BY 2"
    ).fetchall()
    assert counts == [(1, "2024-01-31", 10), (1, "infinity", 1)]  # dates in the form they are predicted by


def test_a_role_given_grant_usage_cannot_train_a_private_model_and_nothing_is_charged(s):
    s.execute("CREATE ROLE nb_priv_alice; GRANT SELECT ON s TO nb_priv_alice; SELECT madnb.grant_usage('nb_priv_alice')")
    s.execute("SET ROLE nb_priv_alice")
    try:
        e = err(s, TRAIN, ("alice_nb", 1.0, BOUNDS, DOMAIN))
    finally:
        s.execute("RESET ROLE")
    assert e.diag.sqlstate == "42501" and "in schema madnb_models: only its owner may" in e.diag.message_primary
    assert leftovers(s) == (0, 0, 0, 0)

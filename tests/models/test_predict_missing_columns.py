"""Prediction on a row that lacks a feature column (issue 17, C8).

The row form of madnb_models.<m>_predict* is a call of the column form with the
row's fields, so a row without a feature column fails while PostgreSQL inlines
that short call: the error names the column and the model's function, and does
not dump the model (its numbers live in the column form's body).  The column
form's features default to NULL, a missing value that naive Bayes skips.
"""

from __future__ import annotations

import math
from typing import Any

import psycopg
import pytest

FEATURES = [
    ("age", "integer"), ("hours_per_week", "float8"), ("capital_gain", "numeric"), ("workclass", "text"),
    ("education", "text"), ("marital_status", "text"), ("occupation", "text"), ("relationship", "text"),
    ("race", "text"), ("sex", "text"), ("native_country", "text"), ("signed_up", "date"), ("is_member", "boolean"),
    ("last_visit_at", "timestamptz"),
]
"""Fourteen features, as the Quick start's adult table: the error must stay short for a model of that size."""


@pytest.fixture
def people(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    cols = ", ".join(f"{n} {t}" for n, t in FEATURES)
    db.execute(f"CREATE TABLE people (id int, income text, {cols})")
    db.execute(
        "INSERT INTO people SELECT i, CASE WHEN i % 3 = 0 THEN '>50K' ELSE '<=50K' END, 20 + (i * 7) % 50, "
        "30 + i % 20, (i % 4) * 1000, (ARRAY['Private', 'State-gov'])[1 + i % 2], (ARRAY['HS', 'BSc', 'MSc'])[1 + i % 3], "
        "'Single', 'Tech', 'None', 'White', (ARRAY['Male', 'Female'])[1 + (i / 2) % 2], 'US', DATE '2024-01-01' + i % 5, "
        "i % 2 = 0, TIMESTAMPTZ '2024-03-01 00:00+00' + (i % 3) * INTERVAL '1 day' FROM generate_series(1, 60) AS i"
    )
    db.execute("SELECT madnb.train('people_nb', 'people', 'income', exclude => ARRAY['id'])")
    return db


def error_size(e: psycopg.Error) -> int:
    d = e.diag
    parts = [d.message_primary, d.message_detail, d.message_hint, d.context, d.internal_query, d.statement_position]
    return sum(len(str(p)) for p in parts if p is not None)


def assert_short_missing_column_error(db: psycopg.Connection[Any], query: str, column: str) -> None:
    with pytest.raises(psycopg.errors.UndefinedColumn) as exc:
        db.execute(query)
    e = exc.value
    assert e.diag.sqlstate == "42703"
    assert f'"{column}"' in e.diag.message_primary
    assert len(e.diag.message_primary) < 200
    assert "people_nb_predict" in (e.diag.context or "")
    assert error_size(e) < 2048, error_size(e)
    # the model's numbers are not in the error
    assert "float8[]" not in str(e) + (e.diag.internal_query or "")


def test_a_view_row_predicts_as_the_table_row(people):
    db = people
    db.execute("CREATE VIEW people_v AS SELECT * FROM people WHERE id > 10")
    assert db.execute(
        "SELECT pg_catalog.array_agg(madnb_models.people_nb_predict_proba(v) ORDER BY v.id) FROM people_v AS v"
    ).fetchone() == db.execute(
        "SELECT pg_catalog.array_agg(madnb_models.people_nb_predict_proba(p) ORDER BY p.id) FROM people AS p WHERE id > 10"
    ).fetchone()


def test_a_table_row_without_a_feature_column_fails_with_a_short_error_naming_the_column_and_the_model(people):
    db = people
    db.execute("CREATE TABLE partial AS SELECT id, age, hours_per_week, capital_gain, workclass, education, "
               "marital_status, occupation, relationship, race, native_country, signed_up, is_member, last_visit_at "
               "FROM people")
    for fn in ("predict", "predict_proba", "predict_proba_array"):
        assert_short_missing_column_error(db, f"SELECT madnb_models.people_nb_{fn}(p) FROM partial AS p", "sex")


def test_a_subquery_row_fails_with_a_short_error_naming_a_feature_column_and_the_model(people):
    # PostgreSQL cannot read a field of an anonymous record (a subquery's row) inside a SQL function, present
    # or not: it names the first feature column; a table's or a view's row, or the column form, work
    assert_short_missing_column_error(
        people, "SELECT madnb_models.people_nb_predict(s) FROM (SELECT * FROM people) AS s", "age",
    )
    for fn in ("predict", "predict_proba", "predict_proba_array"):
        assert_short_missing_column_error(
            people, f"SELECT madnb_models.people_nb_{fn}(s) FROM (SELECT id, sex FROM people) AS s", "age",
        )


def test_the_column_form_takes_any_subset_of_the_features_and_skips_the_missing_ones(people):
    db = people
    got = db.execute("SELECT madnb_models.people_nb_predict_proba(age => 40, sex => 'Male')").fetchone()[0]
    # naive Bayes with the other features missing: the prior times the two features' likelihoods
    cls = dict(db.execute("SELECT class, class_cnt FROM madnb_models.people_nb_class_priors").fetchall())
    n = sum(cls.values())
    rows = db.execute("SELECT income, age, sex FROM people").fetchall()
    joint = {}
    for c, cnt in cls.items():
        ages = [float(a) for i, a, _ in rows if i == c]
        mu = sum(ages) / len(ages)
        var = sum((a - mu) ** 2 for a in ages) / (len(ages) - 1)
        sexes = [s for i, _, s in rows if i == c]
        p_sex = (sexes.count("Male") + 1) / (len(sexes) + 2)  # Laplace over the two values seen
        joint[c] = math.log(cnt / n) - 0.5 * math.log(2 * math.pi * var) - (40 - mu) ** 2 / (2 * var) + math.log(p_sex)
    top = max(joint.values())
    z = sum(math.exp(v - top) for v in joint.values())
    for c in cls:
        assert got[c] == pytest.approx(math.exp(joint[c] - top) / z, rel=1e-9)
    # the same as a row with those two values and NULL (missing) elsewhere
    db.execute("CREATE TABLE one AS SELECT * FROM people WITH NO DATA")
    db.execute("INSERT INTO one (age, sex) VALUES (40, 'Male')")
    assert db.execute("SELECT madnb_models.people_nb_predict_proba(p) FROM one AS p").fetchone()[0] == got
    # no feature at all: the priors
    priors = db.execute("SELECT madnb_models.people_nb_predict_proba()").fetchone()[0]
    assert priors == pytest.approx({c: cnt / n for c, cnt in cls.items()}, rel=1e-12)


def test_the_column_form_with_a_misspelt_feature_says_so_briefly(people):
    with pytest.raises(psycopg.errors.UndefinedFunction) as exc:
        people.execute("SELECT madnb_models.people_nb_predict(agee => 40)")
    assert len(exc.value.diag.message_primary) < 200
    assert error_size(exc.value) < 2048


def test_the_row_form_is_still_inlined_into_the_callers_query(people):
    plan = people.execute(
        "EXPLAIN (VERBOSE, COSTS OFF) SELECT madnb_models.people_nb_predict(p) FROM people AS p"
    ).fetchall()
    text = "\n".join(r[0] for r in plan)
    assert "people_nb_predict" not in text  # inlined: the model's expression, no call of the function
    assert "_nb_best" in text


def test_a_row_without_the_vector_column_of_a_vector_model_fails_with_a_short_error(db):
    # 40 classes x 60 features: the dense model is one inlined expression of 2400 terms
    db.execute(
        "CREATE TABLE docs AS SELECT i AS id, 'c' || (i % 40) AS topic, "
        "ARRAY(SELECT (i * j) % 3 FROM generate_series(1, 60) AS j) AS counts FROM generate_series(1, 200) AS i"
    )
    db.execute("SELECT madnb.train('docs_nb', 'docs', 'topic', features => ARRAY['counts'], kind => 'multinomial')")
    db.execute("CREATE TABLE docs_meta AS SELECT id, topic FROM docs")
    with pytest.raises(psycopg.errors.UndefinedColumn) as exc:
        db.execute("SELECT madnb_models.docs_nb_predict(d) FROM docs_meta AS d")
    e = exc.value
    assert '"counts"' in e.diag.message_primary and len(e.diag.message_primary) < 200
    assert "docs_nb_predict" in (e.diag.context or "")
    assert error_size(e) < 2048, error_size(e)
    # a well-formed row predicts as the column form
    assert db.execute(
        "SELECT bool_and(madnb_models.docs_nb_predict_proba(d) = madnb_models.docs_nb_predict_proba(counts => d.counts)) "
        "FROM docs AS d"
    ).fetchone()[0]


def test_a_model_whose_one_feature_is_named_r_has_both_forms_and_they_agree(db):
    # the row form's parameter is r too: its body holds the model instead of calling the column form
    db.execute("CREATE TABLE rt AS SELECT i AS id, (i % 3)::text AS r, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS y "
               "FROM generate_series(1, 30) AS i")
    db.execute("SELECT madnb.train('rt_nb', 'rt', 'y', features => ARRAY['r'])")
    assert db.execute(
        "SELECT bool_and(madnb_models.rt_nb_predict_proba(t) = madnb_models.rt_nb_predict_proba(r => t.r)) FROM rt AS t"
    ).fetchone()[0]

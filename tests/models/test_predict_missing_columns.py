"""Prediction on a row that lacks a feature column (issue 17, C8).

The row form of madnb_models.<m>_predict* is a call of the column form with the
row's fields, so a row without a feature column fails while PostgreSQL inlines
that short call: the error names the column and the model's function, and does
not dump the model (its numbers live in the column form's body).  The column
form's features default to NULL, a missing value that naive Bayes skips.

A model with more than 100 features has no column form: its row form calls
internal row checks, each naming some of the feature columns, then the internal
functions that hold the model; a row without a column fails in a check, whose
short body is all the error carries.  The planner folds the checks away.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg import sql
from sklearn.naive_bayes import CategoricalNB

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
    assert "_nb_clear" in text and "people_nb_exact_class" in text  # the class off the shifted scores, else the exact one


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


def test_a_row_without_the_vector_column_named_r_fails_with_a_short_error_and_a_full_row_predicts_as_the_column_form(db):
    # the vector is named as the row form's parameter: the row form cannot call the column form (r => ...)
    db.execute(
        "CREATE TABLE rdocs AS SELECT i AS id, 'c' || (i % 40) AS topic, "
        "ARRAY(SELECT (i * j) % 3 FROM generate_series(1, 60) AS j) AS r FROM generate_series(1, 200) AS i"
    )
    db.execute("SELECT madnb.train('rdocs_nb', 'rdocs', 'topic', features => ARRAY['r'], kind => 'multinomial')")
    db.execute("CREATE TABLE rdocs_meta AS SELECT id, topic FROM rdocs")
    for fn in ("predict", "predict_proba", "predict_proba_array"):
        with pytest.raises(psycopg.errors.UndefinedColumn) as exc:
            db.execute(f"SELECT madnb_models.rdocs_nb_{fn}(d) FROM rdocs_meta AS d")
        e = exc.value
        assert e.diag.sqlstate == "42703"
        assert '"r"' in e.diag.message_primary and len(e.diag.message_primary) < 200
        assert f"rdocs_nb_{fn}" in (e.diag.context or "")
        assert error_size(e) < 2048, error_size(e)
    assert db.execute(
        "SELECT bool_and(madnb_models.rdocs_nb_predict_proba(d) = madnb_models.rdocs_nb_predict_proba(r => d.r)) "
        "FROM rdocs AS d"
    ).fetchone()[0]


# ---------------------------------------------------------------------------
# Models with more than 100 features: the row form only
# ---------------------------------------------------------------------------

WIDE = [f"feature_number_{j}" for j in range(150)]
"""150 feature columns, named as a user's generated columns are."""


def create_wide(db: psycopg.Connection[Any], table: str, names: list[str], rows: int = 90) -> None:
    """Table ``table``: id, a label y of three classes, and one integer column per name, values 0 to 4 by row and column."""
    cols = sql.SQL(", ").join(
        sql.SQL("((i * {} + i / 7 + {}) % 5)::int AS {}").format(j % 7 + 1, j, sql.Identifier(n)) for j, n in enumerate(names)
    )
    db.execute(sql.SQL("CREATE TABLE {} AS SELECT i AS id, (i % 3)::text AS y, {} FROM generate_series(1, {}) AS i").format(
        sql.Identifier(table), cols, rows))


def train_wide(db: psycopg.Connection[Any], model: str, table: str, names: list[str], replace: bool = False) -> None:
    """A categorical model of ``table`` (the feature columns ``names``, integers made categorical)."""
    quoted = ['"' + n.replace('"', '""') + '"' for n in names]
    db.execute(
        "SELECT madnb.train(%s, %s, 'y', features => %s, categorical => %s, replace => %s)", [model, table, quoted, quoted, replace],
    )


def without(db: psycopg.Connection[Any], table: str, source: str, column: str) -> None:
    """Table ``table``: the rows of ``source`` without ``column``."""
    db.execute(sql.SQL("CREATE TABLE {} AS SELECT * FROM {}").format(sql.Identifier(table), sql.Identifier(source)))
    db.execute(sql.SQL("ALTER TABLE {} DROP COLUMN {}").format(sql.Identifier(table), sql.Identifier(column)))


def assert_short_error_naming(db: psycopg.Connection[Any], model: str, table: str, column: str) -> None:
    for fn in ("predict", "predict_proba", "predict_proba_array"):
        with pytest.raises(psycopg.errors.UndefinedColumn) as exc:
            db.execute(sql.SQL("SELECT madnb_models.{}(p) FROM {} AS p").format(
                sql.Identifier(f"{model}_{fn}"), sql.Identifier(table)))
        e = exc.value
        assert e.diag.sqlstate == "42703"
        assert f'column "{column}" not found' in e.diag.message_primary
        assert len(e.diag.message_primary) < 200
        assert f'SQL function "{model}_{fn}" during inlining' in (e.diag.context or "")
        assert error_size(e) < 2048, error_size(e)
        assert "float8" not in str(e) + (e.diag.internal_query or "")  # none of the model's numbers


@pytest.fixture
def wide(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    create_wide(db, "w", WIDE)
    train_wide(db, "w_nb", "w", WIDE)
    return db


def test_a_row_without_a_feature_column_of_a_model_with_150_features_fails_with_a_short_error_naming_it(wide):
    db = wide
    db.execute("CREATE TABLE wp AS SELECT id FROM w")  # no feature at all: the first is named
    assert_short_error_naming(db, "w_nb", "wp", "feature_number_0")
    for j in (0, 77, 149):  # in the first, a middle and the last row check
        without(db, f"w_{j}", "w", WIDE[j])
        assert_short_error_naming(db, "w_nb", f"w_{j}", WIDE[j])


@pytest.mark.parametrize("style", ["long", "quotes"])
def test_a_wide_model_with_long_column_names_fails_as_briefly(db, style):
    if style == "long":  # 60 characters each
        names = [f"a_rather_long_name_of_a_feature_column_for_the_row_check_{j:03d}" for j in range(130)]
    else:  # 63 bytes each, nearly all double quotes: the longest quoted identifiers there are
        names = ['"' * 59 + f"{j:04d}" for j in range(130)]
    assert {len(n.encode()) for n in names} == {60 if style == "long" else 63}
    create_wide(db, "ln", names, rows=30)
    train_wide(db, "ln_nb", "ln", names)
    for j in (0, 64, 129):
        without(db, f"ln_{j}", "ln", names[j])
        assert_short_error_naming(db, "ln_nb", f"ln_{j}", names[j])
    # a full row predicts, its row checks passed
    assert db.execute("SELECT count(madnb_models.ln_nb_predict(t)) FROM ln AS t").fetchone()[0] == 30


def test_a_wide_models_row_form_predicts_as_scikit_learns_categorical_nb(wide):
    db = wide
    rows = db.execute(sql.SQL("SELECT y, {} FROM w ORDER BY id").format(sql.SQL(", ").join(map(sql.Identifier, WIDE)))).fetchall()
    y = [r[0] for r in rows]
    # each feature's values seen, as codes 0..k-1: CategoricalNB's categories are then madnb's values seen
    x = np.column_stack([np.unique([r[j] for r in rows], return_inverse=True)[1] for j in range(1, len(WIDE) + 1)])
    nb = CategoricalNB(alpha=1.0).fit(x, y)
    want = nb.predict_proba(x)
    got = db.execute("SELECT madnb_models.w_nb_predict_proba(w) FROM w ORDER BY id").fetchall()
    got_array = db.execute("SELECT madnb_models.w_nb_predict_proba_array(w) FROM w ORDER BY id").fetchall()
    classes = db.execute("SELECT madnb.model_classes('w_nb')").fetchone()[0]
    assert list(nb.classes_) == classes == ["0", "1", "2"]
    assert np.allclose([[r[0][c] for c in classes] for r in got], want, rtol=1e-9, atol=0)
    assert np.allclose([r[0] for r in got_array], want, rtol=1e-9, atol=0)
    predicted = [r[0] for r in db.execute("SELECT madnb_models.w_nb_predict(w) FROM w ORDER BY id").fetchall()]
    clear = np.sort(want, axis=1)[:, -1] - np.sort(want, axis=1)[:, -2] > 1e-6  # no near-tie: the arg-max is scikit-learn's
    assert clear.sum() > 60
    assert [p for p, c in zip(predicted, clear, strict=True) if c] == [p for p, c in zip(nb.predict(x), clear, strict=True) if c]


def _kinds(db: psycopg.Connection[Any], prefix: str) -> list[tuple[Any, ...]]:
    """(is a row check, language, volatility, parallel, security definer, strict, SET) of the model's prediction functions
    (not private prediction's, tests/models/test_private_predict.py)."""
    return db.execute(
        "SELECT DISTINCT proname LIKE '%%\\_check\\_%%', l.lanname, provolatile, proparallel, prosecdef, proisstrict, proconfig "
        "FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE starts_with(proname, %s) "
        "AND proname !~ '_(score_share|share_encoding)$' ORDER BY 1, 2", [prefix],
    ).fetchall()


def test_a_wide_models_row_form_is_inlined_with_no_row_check_or_internal_function_left_in_the_plan(db):
    # 101 features x 2 classes: 202 terms, within the bound of inlined models (INLINE_MAX_TERMS = 256)
    names = WIDE[:101]
    create_wide(db, "w2", names)
    db.execute("DELETE FROM w2 WHERE y = '2'")
    train_wide(db, "w2_nb", "w2", names)
    assert db.execute(
        "SELECT count(*) FROM pg_proc WHERE pronamespace = 'madnb_models'::regnamespace AND proname LIKE 'w2\\_nb\\_row\\_check\\_%'"
    ).fetchone()[0] >= 2
    for fn in ("predict", "predict_proba", "predict_proba_array"):
        plan = "\n".join(r[0] for r in db.execute(f"EXPLAIN (VERBOSE, COSTS OFF) SELECT madnb_models.w2_nb_{fn}(p) FROM w2 AS p"))
        assert "w2_nb_" not in plan  # neither the row form, nor a row check, nor the internal model
        assert "CASE" not in plan and "IS NULL" not in plan  # the checks folded away
        assert "feature_number_100" in plan and "_nb_" in plan  # the model's terms and the per-row helper, in the scan
        assert plan.startswith("Seq Scan on public.w2 p")
    # what lets the planner inline them: SQL, no SET, not SECURITY DEFINER; the checks IMMUTABLE and not STRICT
    assert _kinds(db, "w2_nb_") == [(False, "sql", "i", "s", False, False, None), (True, "sql", "i", "s", False, False, None)]


def test_a_larger_wide_models_checks_fold_away_and_its_model_is_one_plpgsql_call_per_row(wide):
    # 150 features x 3 classes: 450 terms, past INLINE_MAX_TERMS: the internal model functions are PL/pgSQL,
    # which PostgreSQL's JIT does not compile; the row checks still fold away
    db = wide
    for fn, internal in (("predict", "class"), ("predict_proba", "proba"), ("predict_proba_array", "proba_array")):
        plan = "\n".join(r[0] for r in db.execute(f"EXPLAIN (VERBOSE, COSTS OFF) SELECT madnb_models.w_nb_{fn}(p) FROM w AS p"))
        assert f"w_nb_row_{internal}(p.*)" in plan
        assert "check" not in plan and "CASE" not in plan and "IS NULL" not in plan
        assert plan.startswith("Seq Scan on public.w p")
    assert _kinds(db, "w_nb_") == [
        (False, "plpgsql", "i", "s", False, False, None), (False, "sql", "i", "s", False, False, None),
        (True, "sql", "i", "s", False, False, None),
    ]


def _functions(db: psycopg.Connection[Any], prefix: str) -> list[str]:
    return [r[0] for r in db.execute(
        "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE pronamespace = 'madnb_models'::regnamespace "
        "AND starts_with(proname, %s) ORDER BY 1", [prefix]
    )]


def _recorded(db: psycopg.Connection[Any], model: str) -> list[str]:
    return sorted(db.execute("SELECT functions FROM madnb._models WHERE name = %s", [model]).fetchone()[0])


def test_replacing_a_wide_model_by_a_narrow_one_and_back_and_dropping_it_leaves_no_stray_function(wide):
    db = wide
    wide_functions = _functions(db, "w_nb_")
    checks = [f for f in wide_functions if "_row_check_" in f]
    assert len(checks) >= 3
    assert sorted(wide_functions) == _recorded(db, "w_nb")
    assert len(wide_functions) == 3 + 3 + len(checks) + 2 + 2  # private prediction's two, the explanation and its row model
    # narrow: the row form and the column form, nothing of the wide model's
    train_wide(db, "w_nb", "w", WIDE[:5], replace=True)
    narrow = _functions(db, "w_nb_")
    assert sorted(narrow) == _recorded(db, "w_nb")
    assert [f.split("(")[0] for f in narrow] == ["madnb_models.w_nb_" + s for s in (
        "exact_class", "explain", "explain", "predict", "predict", "predict_proba", "predict_proba", "predict_proba_array", "predict_proba_array", "score_share",
        "share_encoding")]
    # wide again, then wider by fewer checks (fewer features): only the checks the model uses
    train_wide(db, "w_nb", "w", WIDE, replace=True)
    assert _functions(db, "w_nb_") == sorted(wide_functions) == _recorded(db, "w_nb")
    train_wide(db, "w_nb", "w", WIDE[:101], replace=True)
    fewer = _functions(db, "w_nb_")
    assert fewer == _recorded(db, "w_nb")
    assert len([f for f in fewer if "_row_check_" in f]) < len(checks)
    assert set(fewer) <= set(wide_functions)
    db.execute("SELECT madnb.drop_model('w_nb')")
    assert _functions(db, "w_nb_") == []


def test_every_internal_function_of_a_wide_model_has_a_comment_saying_it_is_internal_and_what_it_checks(wide):
    comments = dict(wide.execute(
        "SELECT proname::text, obj_description(oid, 'pg_proc') FROM pg_proc WHERE pronamespace = 'madnb_models'::regnamespace "
        "AND proname LIKE 'w\\_nb\\_row\\_%'"
    ).fetchall())
    assert len(comments) >= 6
    for name, comment in comments.items():
        assert comment.startswith("madnb model w_nb: internal, "), (name, comment)
        if "_row_check_" in name:
            assert "w_nb_predict(anyelement)" in comment and "fails, naming the column, on a row without one of the feature columns" in comment
    assert '"feature_number_0"' in comments["w_nb_row_check_1"]
    assert "the predicted class" in comments["w_nb_row_class"]

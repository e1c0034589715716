"""madnb.train's kinds 'gaussian' and 'categorical': scikit-learn's GaussianNB and CategoricalNB.

Every expected number is scikit-learn's, fitted in the test on the same rows
(categorical values OrdinalEncoder'd, so that category k of a feature is its
k-th value in sorted order); madnb's are read from the model's tables and its
generated prediction functions.
"""

from __future__ import annotations

import csv
import json
import math
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn import metrics as skm
from sklearn.datasets import load_digits
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.preprocessing import OrdinalEncoder

from conftest import data_file

TOL = 1e-9


def load(db: psycopg.Connection[Any], table: str, columns: list[tuple[str, str]], rows: list[tuple[Any, ...]]) -> None:
    db.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, {', '.join(f'{n} {t}' for n, t in columns)})")
    with db.cursor().copy(f"COPY {table} FROM STDIN") as cp:
        for i, r in enumerate(rows):
            cp.write_row((i, *r))
    db.execute(f"ANALYZE {table}")


def read_csv(name: str) -> list[list[str]]:
    with open(data_file(name), newline="") as f:
        return list(csv.reader(f))[1:]


def proba(db: psycopg.Connection[Any], model: str, table: str, where: str = "true") -> np.ndarray:
    rows = db.execute(
        f"SELECT madnb_models.{model}_predict_proba_array(t) FROM {table} t WHERE {where} ORDER BY t.id"
    ).fetchall()
    return np.array([r[0] for r in rows], dtype=np.float64)


def priors(db: psycopg.Connection[Any], model: str, table: str) -> np.ndarray:
    """The model's class priors, normalised: its probabilities for a row whose every feature is missing."""
    return np.array(db.execute(f"SELECT madnb_models.{model}_predict_proba_array(NULL::{table})").fetchone()[0])


def gaussian_tables(db: psycopg.Connection[Any], model: str, k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """theta_ and var_ (classes in model order x features) from the model's numeric_stats table."""
    theta, var = np.full((k, n), np.nan), np.full((k, n), np.nan)
    classes = db.execute("SELECT madnb.model_classes(%s)", [model]).fetchone()[0]
    for c, a, m, v in db.execute(
        f"SELECT class::text, attr, attr_mean, attr_var FROM madnb_models.{model}_numeric_stats"
    ).fetchall():
        i = classes.index(c)
        theta[i, a - 1], var[i, a - 1] = m, v
    return theta, var


# --- kind 'gaussian' ---------------------------------------------------------------------------


@pytest.fixture
def skin(db: psycopg.Connection[Any]) -> tuple[np.ndarray, np.ndarray]:
    rows = [(int(r), int(g), int(b), int(s)) for r, g, b, s in read_csv("skin_segmentation.csv")]
    load(db, "skin", [("r", "int"), ("g", "int"), ("b", "int"), ("skin", "int")], rows)
    a = np.array(rows, dtype=np.float64)
    return a[:, :3], a[:, 3].astype(int)


def test_gaussian_kind_matches_gaussian_nb_on_skin_segmentation(db, skin):
    x, y = skin
    db.execute("SELECT madnb.train('skin_g', 'skin', 'skin', exclude => ARRAY['id'], kind => 'gaussian')")
    ref = GaussianNB().fit(x, y)
    theta, var = gaussian_tables(db, "skin_g", 2, 3)
    np.testing.assert_allclose(theta, ref.theta_, rtol=TOL, atol=0)
    np.testing.assert_allclose(var, ref.var_, rtol=TOL, atol=0)
    np.testing.assert_allclose(priors(db, "skin_g", "skin"), ref.class_prior_, rtol=0, atol=1e-12)
    every = slice(None, None, 97)
    got = proba(db, "skin_g", "skin", "t.id % 97 = 0")
    np.testing.assert_allclose(got, ref.predict_proba(x[every]), rtol=0, atol=TOL)


def test_gaussian_kind_var_smoothing_and_priors_match_gaussian_nb_on_skin_segmentation(db, skin):
    x, y = skin
    db.execute(
        "SELECT madnb.train('skin_g', 'skin', 'skin', exclude => ARRAY['id'], kind => 'gaussian', "
        """options => '{"var_smoothing": 0.05, "priors": [0.3, 0.7]}')"""
    )
    ref = GaussianNB(var_smoothing=0.05, priors=[0.3, 0.7]).fit(x, y)
    _, var = gaussian_tables(db, "skin_g", 2, 3)
    np.testing.assert_allclose(var, ref.var_, rtol=TOL, atol=0)
    np.testing.assert_allclose(priors(db, "skin_g", "skin"), ref.class_prior_, rtol=0, atol=1e-12)
    got = proba(db, "skin_g", "skin", "t.id % 97 = 0")
    np.testing.assert_allclose(got, ref.predict_proba(x[::97]), rtol=0, atol=TOL)


@pytest.fixture
def digits(db: psycopg.Connection[Any]) -> tuple[np.ndarray, np.ndarray]:
    d = load_digits()
    x, y = d.data, d.target
    cols = [(f"p{j}", "int2") for j in range(64)] + [("digit", "int")]
    load(db, "digits", cols, [tuple(int(v) for v in row) + (int(t),) for row, t in zip(x, y, strict=True)])
    return x, y


@pytest.mark.parametrize(
    "options, params",
    [
        (None, {}),
        ({"var_smoothing": 1e-2}, {"var_smoothing": 1e-2}),
        ({"priors": [0.05] * 5 + [0.15] * 5}, {"priors": [0.05] * 5 + [0.15] * 5}),
    ],
    ids=["defaults", "var_smoothing", "priors"],
)
def test_gaussian_kind_matches_gaussian_nb_on_digits(db, digits, options, params):
    x, y = digits
    db.execute(
        "SELECT madnb.train('dig', 'digits', 'digit', exclude => ARRAY['id'], kind => 'gaussian', options => %s)",
        [None if options is None else json.dumps(options)],
    )
    ref = GaussianNB(**params).fit(x, y)
    theta, var = gaussian_tables(db, "dig", 10, 64)
    np.testing.assert_allclose(theta, ref.theta_, rtol=TOL, atol=1e-12)
    np.testing.assert_allclose(var, ref.var_, rtol=TOL, atol=0)
    np.testing.assert_allclose(priors(db, "dig", "digits"), ref.class_prior_, rtol=0, atol=1e-12)
    np.testing.assert_allclose(proba(db, "dig", "digits"), ref.predict_proba(x), rtol=0, atol=TOL)
    predicted = [r[0] for r in db.execute("SELECT madnb_models.dig_predict(t) FROM digits t ORDER BY t.id")]
    assert predicted == list(ref.predict(x))


def test_evaluate_of_a_gaussian_kind_model_gives_scikit_learns_metrics(db, digits):
    x, y = digits
    db.execute("SELECT madnb.train('dig', 'digits', 'digit', exclude => ARRAY['id'], kind => 'gaussian')")
    ref = GaussianNB().fit(x, y)
    m = db.execute("SELECT madnb.evaluate('dig', 'digits')").fetchone()[0]
    assert m["accuracy"] == pytest.approx(skm.accuracy_score(y, ref.predict(x)), abs=1e-12)
    assert m["log_loss"] == pytest.approx(skm.log_loss(y, ref.predict_proba(x), labels=list(range(10))), abs=1e-9)


def test_gaussian_kind_skips_missing_values_as_scikit_learn_would_without_those_rows(db):
    # sklearn refuses NaN; madnb leaves a missing value out of its feature's statistics only
    x = np.array([[1.0, 2.0], [2.0, np.nan], [4.0, 3.0], [3.0, 7.0], [6.0, np.nan], [5.0, 8.0], [1.5, 1.0]])
    y = np.array([0, 0, 0, 1, 1, 1, 0])
    load(db, "gm", [("a", "float8"), ("b", "float8"), ("y", "int")],
         [(a, None if math.isnan(b) else b, int(c)) for (a, b), c in zip(x, y, strict=True)])
    db.execute("SELECT madnb.train('gm', 'gm', 'y', exclude => ARRAY['id'], kind => 'gaussian')")
    theta, var = gaussian_tables(db, "gm", 2, 2)
    eps = 1e-9 * max(np.var(x[:, 0]), np.nanvar(x[:, 1]))
    for i in (0, 1):
        rows = x[y == i]
        np.testing.assert_allclose(theta[i], np.nanmean(rows, axis=0), rtol=1e-12)
        np.testing.assert_allclose(var[i], np.nanvar(rows, axis=0) + eps, rtol=1e-12)


# --- kind 'categorical' ------------------------------------------------------------------------


def categorical_table(db: psycopg.Connection[Any], name: str, file: str, label_first: bool) -> tuple[list[str], np.ndarray, list[str]]:
    """The CSV as text columns c1..cn and a label (missing markers kept as a category), and its encoded features."""
    rows = read_csv(file)
    labels = [r[0] for r in rows] if label_first else [r[-1] for r in rows]
    feats = [r[1:] for r in rows] if label_first else [r[:-1] for r in rows]
    n = len(feats[0])
    load(db, name, [(f"c{j}", "text") for j in range(1, n + 1)] + [("label", "text")],
         [(*f, lab) for f, lab in zip(feats, labels, strict=True)])
    return labels, np.array(feats, dtype=object), [f"c{j}" for j in range(1, n + 1)]


def categorical_log_probs(db: psycopg.Connection[Any], model: str) -> dict[tuple[str, int, str], tuple[float, int]]:
    """(class, attr, value) -> (log P(value|class), attr_cnt) from the model's feature_probs table."""
    rows = db.execute(
        "SELECT f.class::text, f.attr, f.value, ln(f.cnt + f.smoothing) - ln(n.cnt + f.smoothing * f.attr_cnt), f.attr_cnt "
        f"FROM madnb_models.{model}_feature_probs f JOIN (SELECT class, attr, sum(cnt) AS cnt "
        f"FROM madnb_models.{model}_feature_probs GROUP BY 1, 2) n USING (class, attr)"
    ).fetchall()
    return {(c, a, v): (float(lp), int(ac)) for c, a, v, lp, ac in rows}


def assert_categorical_parity(db, model, table, labels, feats, ref, enc):
    classes = db.execute("SELECT madnb.model_classes(%s)", [model]).fetchone()[0]
    assert classes == list(ref.classes_)
    lps = categorical_log_probs(db, model)
    for (c, a, v), (lp, attr_cnt) in lps.items():
        k = list(enc.categories_[a - 1]).index(v)
        assert lp == pytest.approx(ref.feature_log_prob_[a - 1][classes.index(c), k], abs=TOL)
        assert attr_cnt == ref.n_categories_[a - 1]
    assert len(lps) == len(classes) * sum(len(c) for c in enc.categories_)
    expected_priors = np.exp(ref.class_log_prior_) / np.exp(ref.class_log_prior_).sum()
    np.testing.assert_allclose(priors(db, model, table), expected_priors, rtol=0, atol=1e-12)
    got = proba(db, model, table)
    np.testing.assert_allclose(got, ref.predict_proba(enc.transform(feats)), rtol=0, atol=TOL)


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_categorical_kind_matches_categorical_nb_on_mushroom(db, alpha):
    labels, feats, _ = categorical_table(db, "mush", "mushroom.csv", label_first=True)
    db.execute(
        "SELECT madnb.train('mush', 'mush', 'label', exclude => ARRAY['id'], kind => 'categorical', options => %s)",
        [json.dumps({"alpha": alpha})],
    )
    enc = OrdinalEncoder(dtype=np.int64).fit(feats)
    ref = CategoricalNB(alpha=alpha).fit(enc.transform(feats), labels)
    assert_categorical_parity(db, "mush", "mush", labels, feats, ref, enc)


@pytest.mark.parametrize(
    "options, params",
    [
        ({"min_categories": 5}, {"min_categories": 5}),
        ({"min_categories": [4, 2, 3, 7] + [2] * 12, "alpha": 0.5}, {"min_categories": [4, 2, 3, 7] + [2] * 12, "alpha": 0.5}),
        ({"fit_prior": False}, {"fit_prior": False}),
        ({"class_prior": [0.2, 0.8]}, {"class_prior": [0.2, 0.8]}),
        ({"class_prior": {"republican": 0.8, "democrat": 0.2}}, {"class_prior": [0.2, 0.8]}),
    ],
    ids=["min_categories", "min_categories_per_feature", "fit_prior_false", "class_prior", "class_prior_by_class"],
)
def test_categorical_kind_matches_categorical_nb_on_house_votes(db, options, params):
    # NA (a missing vote) is kept as a category of its own here, as scikit-learn has no missing values
    labels, feats, _ = categorical_table(db, "votes", "house_votes_84.csv", label_first=True)
    db.execute(
        "SELECT madnb.train('votes', 'votes', 'label', exclude => ARRAY['id'], kind => 'categorical', options => %s)",
        [json.dumps(options)],
    )
    enc = OrdinalEncoder(dtype=np.int64).fit(feats)
    ref = CategoricalNB(**params).fit(enc.transform(feats), labels)
    assert_categorical_parity(db, "votes", "votes", labels, feats, ref, enc)
    m = db.execute("SELECT madnb.evaluate('votes', 'votes')").fetchone()[0]
    assert m["accuracy"] == pytest.approx(skm.accuracy_score(labels, ref.predict(enc.transform(feats))), abs=1e-12)
    row = db.execute("SELECT kind, parameters FROM madnb.models WHERE name = 'votes'").fetchone()
    assert row == ("categorical", options)


def test_categorical_kind_makes_integer_columns_categorical(db):
    load(db, "ints", [("a", "int"), ("b", "numeric"), ("y", "text")],
         [(1, 1.5, "u"), (2, 1.50, "u"), (1, 2, "v"), (3, 2.0, "v"), (3, 1.5, "v")])
    db.execute("SELECT madnb.train('ints', 'ints', 'y', exclude => ARRAY['id'], kind => 'categorical')")
    feats = db.execute("SELECT features FROM madnb.models WHERE name = 'ints'").fetchone()[0]
    assert [f["role"] for f in feats] == ["categorical", "categorical"]
    x = np.array([[1, 1.5], [2, 1.5], [1, 2], [3, 2], [3, 1.5]])
    enc = OrdinalEncoder(dtype=np.int64).fit(x)
    ref = CategoricalNB().fit(enc.transform(x), ["u", "u", "v", "v", "v"])
    np.testing.assert_allclose(proba(db, "ints", "ints"), ref.predict_proba(enc.transform(x)), rtol=0, atol=TOL)


# --- errors ------------------------------------------------------------------------------------


@pytest.fixture
def fruit(db):
    db.execute("CREATE TABLE fruit (id int, kind text, colour text, weight float8, size int)")
    db.execute("INSERT INTO fruit VALUES (1, 'apple', 'red', 150, 3), (2, 'apple', 'green', 170, 3), "
               "(3, 'lemon', 'yellow', 120, 2), (4, 'lemon', 'yellow', 110, 2), (5, 'apple', 'red', 160, 3)")


@pytest.mark.parametrize(
    "call, sqlstate",
    [
        ("kind => 'gaussian'", "42804"),  # colour is text
        ("features => ARRAY['weight'], kind => 'categorical'", "42804"),  # a float cannot be categorical
        ("features => ARRAY['weight'], kind => 'gaussian', categorical => ARRAY['weight']", "22023"),
        ("""features => ARRAY['weight'], kind => 'gaussian', options => '{"alpha": 1}'""", "22023"),
        ("""features => ARRAY['colour'], kind => 'categorical', options => '{"var_smoothing": 1}'""", "22023"),
        ("""features => ARRAY['weight'], kind => 'gaussian', options => '{"var_smoothing": -1}'""", "22023"),
        ("""features => ARRAY['weight'], kind => 'gaussian', options => '{"var_smoothing": "big"}'""", "22023"),
        # jsonb keeps 1e400 as an integer of 401 digits: no float holds it
        ("""features => ARRAY['weight'], kind => 'gaussian', options => '{"var_smoothing": 1e400}'""", "22023"),
        ("""features => ARRAY['weight'], kind => 'gaussian', options => '{"priors": [1e400, 0]}'""", "22023"),
        ("""features => ARRAY['weight'], kind => 'gaussian', options => '{"var_smoothing": 1e307}'""", "22023"),
        ("""features => ARRAY['colour'], kind => 'categorical', options => '{"alpha": 1e400}'""", "22023"),
        ("""features => ARRAY['weight'], kind => 'gaussian', options => '{"priors": [0.5, 0.6]}'""", "22023"),
        ("""features => ARRAY['weight'], kind => 'gaussian', options => '{"priors": [1]}'""", "22023"),
        ("""features => ARRAY['weight'], kind => 'gaussian', options => '{"priors": [0.5, -0.5, 1]}'""", "22023"),
        ("features => ARRAY['weight'], kind => 'gaussian', smoothing => 2", "22023"),
        ("""features => ARRAY['colour'], kind => 'categorical', smoothing => 2, options => '{"alpha": 1}'""", "22023"),
        ("""features => ARRAY['colour'], kind => 'categorical', options => '{"alpha": -1}'""", "22023"),
        ("""features => ARRAY['colour'], kind => 'categorical', options => '{"fit_prior": "no"}'""", "22023"),
        ("""features => ARRAY['colour'], kind => 'categorical', options => '{"min_categories": 1.5}'""", "22023"),
        ("""features => ARRAY['colour'], kind => 'categorical', options => '{"min_categories": [2, 3]}'""", "22023"),
        ("""features => ARRAY['colour'], kind => 'categorical', options => '{"min_categories": {"size": 3}}'""", "22023"),
        ("""features => ARRAY['colour'], kind => 'categorical', options => '{"class_prior": {"apple": 1}}'""", "22023"),
        # size is constant within each class: with var_smoothing 0 its variance is 0
        ("""features => ARRAY['size'], kind => 'gaussian', options => '{"var_smoothing": 0}'""", "22023"),
        # private training derives MADlib's kind only (and nothing is charged)
        ("""features => ARRAY['weight'], kind => 'gaussian', epsilon => 1, bounds => '{"weight": [0, 200]}', """
         """domain => '{"kind": ["apple", "lemon"]}'""", "0A000"),
        ("""features => ARRAY['colour'], kind => 'categorical', epsilon => 1, """
         """domain => '{"kind": ["apple", "lemon"], "colour": ["red", "green", "yellow"]}'""", "0A000"),
    ],
)
def test_a_bad_kind_parameter_is_refused_and_leaves_nothing_behind(db, fruit, call, sqlstate):
    with pytest.raises(psycopg.Error) as e:
        db.execute(f"SELECT madnb.train('fruit_nb', 'fruit', 'kind', {call})")
    assert e.value.diag.sqlstate == sqlstate
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM pg_class WHERE relnamespace = 'madnb_models'::regnamespace").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone()[0] == 0


def test_a_missing_or_unseen_value_adds_nothing_for_the_categorical_kind(db, fruit):
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', features => ARRAY['colour'], kind => 'categorical', "
               """options => '{"fit_prior": false}')""")
    same = db.execute(
        "SELECT madnb_models.fruit_nb_predict_proba_array(colour => NULL), madnb_models.fruit_nb_predict_proba_array(colour => 'blue')"
    ).fetchone()
    assert same == ([0.5, 0.5], [0.5, 0.5])


def test_update_nb_model_refuses_the_tables_of_a_named_model(db, fruit):
    # a named model's numbers live in its generated functions (and its kind's derivation):
    # an update of its tables alone would leave them disagreeing; madnb.update is the way
    db.execute("SELECT madnb.train('fruit_g', 'fruit', 'kind', features => ARRAY['weight'], kind => 'gaussian')")
    db.execute("SELECT madnb.train('fruit_g2', 'fruit', 'kind', features => ARRAY['weight'], kind => 'gaussian')")
    part = db.execute("SELECT statistics FROM madnb.models WHERE name = 'fruit_g2'").fetchone()[0]
    before = db.execute("SELECT attr_var FROM madnb_models.fruit_g_numeric_stats ORDER BY class").fetchall()
    with pytest.raises(psycopg.Error) as e:
        db.execute(
            "SELECT madnb.update_nb_model(%s, 'madnb_models.fruit_g_feature_probs', 'madnb_models.fruit_g_numeric_stats', "
            "'madnb_models.fruit_g_class_priors')",
            [part],
        )
    assert e.value.diag.sqlstate == "0A000"
    assert "madnb.update(model, source)" in e.value.diag.message_hint
    assert db.execute("SELECT attr_var FROM madnb_models.fruit_g_numeric_stats ORDER BY class").fetchall() == before


def test_gaussian_kind_predicts_without_madlibs_variance_floor(db):
    # b varies by 1e-6 in class 0 and not at all in class 1: with var_smoothing 1e-12 both of
    # scikit-learn's variances of b are below MADlib's floor (1e-9 of b's variance, about 1e-9),
    # which would make them equal; at b = 3, halfway, the wider class then wins outright
    x = np.array([[1.0, 1.999999], [3.0, 2.000001], [2.0, 2.0], [5.0, 4.0], [7.0, 4.0], [6.0, 4.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    load(db, "tiny", [("a", "float8"), ("b", "float8"), ("y", "int")], [(a, b, int(c)) for (a, b), c in zip(x, y, strict=True)])
    db.execute("""SELECT madnb.train('tiny', 'tiny', 'y', exclude => ARRAY['id'], kind => 'gaussian',
                  options => '{"var_smoothing": 1e-12}')""")
    ref = GaussianNB(var_smoothing=1e-12).fit(x, y)
    test = np.array([[4.0, 2.0], [4.0, 4.0], [4.0, 3.0], [3.5, 3.0]])
    got = np.array([
        db.execute("SELECT madnb_models.tiny_predict_proba_array(a => %s, b => %s)", [float(a), float(b)]).fetchone()[0]
        for a, b in test
    ])
    np.testing.assert_allclose(got, ref.predict_proba(test), rtol=0, atol=TOL)

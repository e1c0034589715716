"""scikit-learn's own naive Bayes tests, ported to madnb (issue 22 point 7).

The source is ``sklearn/tests/test_naive_bayes.py`` of the scikit-learn the tests
run against (1.9.1: 36 test functions; the issue counted 31 in an older
release).  Each test of that file is listed in :data:`SKLEARN_TESTS` with what
became of it here:

* ``ported``: the test below of the same name (``test_<sklearn's name>``) checks
  the same statements against madnb's models, trained by madnb.train in the
  server from the same data; the expected numbers are the sklearn test's own
  (its hand-computed probabilities, the IR book's examples) or scikit-learn's
  estimator fitted here on the same rows.
  A ``partial_fit`` (rows added to a fitted model) is madnb.update: madnb.train on
  a table of the first batch's rows, then madnb.update with a table of each further
  batch's (:func:`batches`), compared with scikit-learn fitted here on the union
  and by partial_fit in the same batches.  Weighted partial_fit has no
  counterpart: madnb.update refuses a model trained with weights (0A000; an update
  counts rows, a weighted model's statistics are sums of weights); those tests
  check the refusal and the statement partial_fit stands for, the model of the
  union, by madnb.train.
* ``not applicable``: the test is about something madnb has no counterpart of,
  and the entry says why.

Where madnb differs from scikit-learn by design the test says so (categorical
values are labels, not codes: the number of categories is the number of values
seen, or ``min_categories``; alpha is one number; a model's classes are those of
its rows, so madnb.update takes no list of classes and rows of a new class add
it).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn.datasets import load_digits, load_iris
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, ComplementNB, GaussianNB, MultinomialNB

PORTED, NA = "ported", "not applicable"
SKLEARN_TESTS: dict[str, tuple[str, str]] = {
    "test_gnb": (PORTED, "fit and predict on the six points; partial_fit's refusal of a label outside its declared "
                 "classes: madnb.update declares none, and rows of a class the model lacks add it (the model of the union)"),
    "test_gnb_prior": (PORTED, "class priors 1/2, 1/2; priors sum to 1 on random data"),
    "test_gnb_sample_weight": (PORTED, "weights 1 = none; duplicated rows = integer weights; a class of weight 0 "
                               "(gh-24140); two partial_fits with half weights: madnb.update of a weighted model is "
                               "0A000 (unchanged), the halves trained as one table of every row twice equal the whole "
                               "weights and scikit-learn's two partial_fits"),
    "test_gnb_neg_priors": (PORTED, "a negative prior is 22023"),
    "test_gnb_priors": (PORTED, "priors 0.3, 0.7 give the test's probabilities"),
    "test_gnb_priors_sum_isclose": (PORTED, "ten priors summing to 1 within rounding are accepted"),
    "test_gnb_wrong_nb_priors": (PORTED, "four priors for two classes is 22023"),
    "test_gnb_prior_greater_one": (PORTED, "priors summing to 3 is 22023"),
    "test_gnb_prior_large_bias": (PORTED, "priors 0.01, 0.99 predict class 2"),
    "test_gnb_check_update_with_no_data": (PORTED, "GaussianNB._update_mean_variance of no rows (a private method) "
                                           "changes nothing; madnb.update of an empty or unlabelled source is 22023 and "
                                           "changes nothing (no version, the same numbers)"),
    "test_gnb_partial_fit": (PORTED, "train on rows 1, 3, 5, update with 2, 4, 6: priors, means, variances of fit; "
                             "float8 only; partial_fit's epsilon is its last batch's, madnb's the union's as fit's"),
    "test_gnb_naive_bayes_scale_invariance": (PORTED, "iris scaled by 1e-10, 1 and 1e10 predicts the same"),
    "test_discretenb_prior": (PORTED, "log priors log(1/3) for the four discrete kinds"),
    "test_discretenb_partial_fit": (PORTED, "class and feature (category) counts and probabilities of fit, the four "
                                    "discrete kinds, trained at once and one row at a time"),
    "test_NB_partial_fit_no_first_classes": (NA, "partial_fit's classes argument: madnb.update reads the classes from "
                                             "the rows, no list of classes is declared"),
    "test_discretenb_predict_proba": (PORTED, "Bernoulli and multinomial, two and three classes"),
    "test_discretenb_uniform_prior": (PORTED, "fit_prior false gives 1/2, 1/2 for the four discrete kinds"),
    "test_discretenb_provide_prior": (PORTED, "class_prior used; a wrong number of priors is 22023; partial_fit's "
                                      "refusal of other classes: madnb.update of rows of a class the priors lack is 22023 "
                                      "(unchanged)"),
    "test_discretenb_provide_prior_with_partial_fit": (PORTED, "iris (in tenths, as integers) in the test's two batches, "
                                                       "class_prior none and given: fit's and partial_fit's log priors"),
    "test_discretenb_sample_weight_multiclass": (PORTED, "normalised weights, the four discrete kinds; partial_fit in "
                                                 "three weighted batches: madnb.update of a weighted model is 0A000 "
                                                 "(unchanged), the union is the fit"),
    "test_discretenb_degenerate_one_class_case": (PORTED, "one and two classes, the four discrete kinds, with fit and "
                                                  "with the first row trained and the others added by madnb.update"),
    "test_mnnb": (PORTED, "dense counts: negative counts refused (22023), the training set predicted; sparse matrices "
                  "are madnb's tsvector form (tests/models/test_kinds_vector.py); partial_fit in three batches "
                  "(the first of one class): fit's and partial_fit's probabilities"),
    "test_mnb_prior_unobserved_targets": (PORTED, "no class is declared before its rows: the model has two classes, "
                                          "[1, 1] ties (the first predicted), madnb.update of a row of class 2 makes it "
                                          "predict 2"),
    "test_bnb": (PORTED, "the IR book's Bernoulli example: priors, feature probabilities, the test document's probabilities"),
    "test_bnb_feature_log_prob": (PORTED, "log(count + 1) - log(class count + 2)"),
    "test_cnb": (PORTED, "Rennie et al.'s weights, normalised and not; negative counts refused (22023)"),
    "test_categoricalnb": (PORTED, "training set predicted; alpha; weights scaled by 1, 0.3, 5, 1e-4; n_categories as "
                           "scikit-learn's codes give them through min_categories (madnb's values are labels, and a "
                           "negative integer is a category like another, not an error)"),
    "test_categoricalnb_with_min_categories": (PORTED, "the three cases: counts, prediction, n_categories"),
    "test_categoricalnb_min_categories_errors": (PORTED, "a nested array is 22023"),
    "test_alpha": (PORTED, "alpha 0: Bernoulli and multinomial raise it to 1e-10 with a NOTICE (force_alpha=False), "
                   "categorical keeps 0; the probabilities of the test (dense; sparse: tsvector, not ported); its partial_fit "
                   "of every row at once is madnb.train"),
    "test_alpha_vector": (NA, "alpha per feature: madnb's alpha is one number (options.alpha); not supported"),
    "test_check_accuracy_on_digits": (PORTED, "madnb.cross_validate with 10 folds (madnb's folds, not KFold's): the "
                                      "test's accuracy bounds"),
    "test_check_alpha": (NA, "_check_alpha and force_alpha=True: madnb always behaves as force_alpha=False (test_alpha)"),
    "test_predict_joint_proba": (NA, "predict_joint_log_proba: madnb returns probabilities; the log-scores are "
                                 "madnb_models.<m>_explain's (issue 22 point 1)"),
    "test_categorical_input_tag": (NA, "scikit-learn's estimator tags"),
    "test_gnb_array_api_compliance": (NA, "the array API (numpy, torch, ...) inputs of scikit-learn"),
}

X = np.array([[-2, -1], [-1, -1], [-1, -2], [1, 1], [1, 2], [2, 1]])
Y = np.array([1, 1, 1, 2, 2, 2])
X2 = np.random.RandomState(0).randint(5, size=(6, 100))
Y2 = np.array([1, 1, 2, 2, 3, 3])
DISCRETE = ["bernoulli", "categorical", "complement", "multinomial"]
ESTIMATORS = {"bernoulli": BernoulliNB, "categorical": CategoricalNB, "complement": ComplementNB, "multinomial": MultinomialNB}
TOL = 1e-9


def _array(values: Any) -> str:
    return "{" + ",".join(repr(int(v)) for v in values) + "}"


def columns(db: psycopg.Connection[Any], name: str, x: Any, y: Any = None, typ: str = "float8", w: Any = None) -> None:
    """Table ``name`` (id, x1..xn of type ``typ``, label int, and w float8 if ``w`` is given) of the rows of ``x`` (labels ``y``, weights ``w``)."""
    x = np.asarray(x)
    n = x.shape[1]
    weight = "" if w is None else ", w float8"  # no weight column unless weighted: every other column is a feature
    db.execute(f"CREATE TABLE {name} (id int PRIMARY KEY, {', '.join(f'x{j} {typ}' for j in range(1, n + 1))}, label int{weight})")
    with db.cursor().copy(f"COPY {name} FROM STDIN") as cp:
        for i, row in enumerate(x):
            cp.write_row((i, *[float(v) if typ == "float8" else int(v) for v in row], None if y is None else int(y[i]),
                          *([] if w is None else [float(w[i])])))


def vectors(db: psycopg.Connection[Any], name: str, x: Any, y: Any = None, w: Any = None) -> None:
    """Table ``name`` (id, label int, v int4[], w float8): one vector of counts per row of ``x``."""
    db.execute(f"CREATE TABLE {name} (id int PRIMARY KEY, label int, v int4[], w float8)")
    with db.cursor().copy(f"COPY {name} FROM STDIN") as cp:
        for i, row in enumerate(np.asarray(x)):
            cp.write_row((i, None if y is None else int(y[i]), _array(row), None if w is None else float(w[i])))


def train(db: psycopg.Connection[Any], model: str, table: str, kind: str, options: Any = None, weight: str | None = None) -> None:
    """madnb.train of ``kind``: the vector kinds on column v, the others on x1..xn."""
    on = "features => ARRAY['v']" if kind in ("bernoulli", "complement", "multinomial") else "exclude => ARRAY['id']"
    db.execute(
        f"SELECT madnb.train(%s, %s, 'label', {on}, kind => %s, options => %s, weight => %s)",
        [model, table, kind, None if options is None else json.dumps(options), weight],
    )


def data(db: psycopg.Connection[Any], name: str, kind: str, x: Any, y: Any = None, w: Any = None) -> None:
    """``x`` as the kind trains on it: vectors for the vector kinds, integer columns for categorical, else float8."""
    if kind in ("bernoulli", "complement", "multinomial"):
        vectors(db, name, x, y, w)
    else:
        columns(db, name, x, y, "int" if kind == "categorical" else "float8", w)


def proba(db: psycopg.Connection[Any], model: str, table: str) -> np.ndarray:
    return np.array([r[0] for r in db.execute(f"SELECT madnb_models.{model}_predict_proba_array(t) FROM {table} t ORDER BY id")])


def predict(db: psycopg.Connection[Any], model: str, table: str) -> list[Any]:
    return [r[0] for r in db.execute(f"SELECT madnb_models.{model}_predict(t) FROM {table} t ORDER BY id")]


def log_prior(db: psycopg.Connection[Any], model: str, kind: str) -> np.ndarray:
    """The model's log priors (class order): the vector kinds keep them in their class table, the others' are
    ln(class probability of a row whose every feature is missing)."""
    if kind in ("bernoulli", "complement", "multinomial"):
        return np.array([r[0] for r in db.execute(f"SELECT log_prior FROM madnb_models.{model}_class_priors ORDER BY class")])
    table = db.execute("SELECT source FROM madnb.models WHERE name = %s", [model]).fetchone()[0]
    return np.log(db.execute(f"SELECT madnb_models.{model}_predict_proba_array(NULL::{table})").fetchone()[0])


def sqlstate(db: psycopg.Connection[Any], call: str, params: Any = None) -> str | None:
    try:
        db.execute(call, params)
    except psycopg.errors.Error as e:
        db.rollback()
        return e.diag.sqlstate
    return None


def batches(db: psycopg.Connection[Any], model: str, kind: str, x: Any, y: Any, parts: list[Any], options: Any = None) -> None:
    """scikit-learn's partial_fit in batches ``parts`` (index arrays of the rows of ``x``, ``y``): madnb.train of
    ``kind`` on a table of the first batch's rows, then madnb.update with a table of each further batch's
    (tables ``<model>_b0``, ``<model>_b1``, ...)."""
    x, y = np.asarray(x), np.asarray(y)
    for i, rows in enumerate(parts):
        data(db, f"{model}_b{i}", kind, x[rows], y[rows])
        if i == 0:
            train(db, model, f"{model}_b0", kind, options)
        else:
            db.execute("SELECT madnb.update(%s, %s)", [model, f"{model}_b{i}"])


def partial_fit(est: Any, x: Any, y: Any, parts: list[Any]) -> Any:
    """scikit-learn's ``est`` partial_fit on batches ``parts`` of the rows of ``x``, ``y``, the classes of ``y`` declared
    on the first call."""
    x, y = np.asarray(x), np.asarray(y)
    for i, rows in enumerate(parts):
        est.partial_fit(x[rows], y[rows], classes=np.unique(y) if i == 0 else None)
    return est


def version(db: psycopg.Connection[Any], model: str) -> int:
    return int(db.execute("SELECT version FROM madnb.models WHERE name = %s", [model]).fetchone()[0])


def test_every_test_of_scikit_learns_naive_bayes_file_is_listed_with_what_became_of_it():
    import sklearn.tests.test_naive_bayes as theirs

    names = {n for n in dir(theirs) if n.startswith("test_")}
    assert names == set(SKLEARN_TESTS)
    here = globals()
    for name, (status, why) in SKLEARN_TESTS.items():
        assert status in (PORTED, NA) and why
        assert (f"test_{name}" in here) == (status == PORTED), name


# --- GaussianNB -------------------------------------------------------------------------------------


def test_test_gnb(db):
    columns(db, "toy", X, Y)
    train(db, "g", "toy", "gaussian")
    assert predict(db, "g", "toy") == list(Y)
    p = proba(db, "g", "toy")
    ref = GaussianNB().fit(X, Y)
    np.testing.assert_allclose(p, ref.predict_proba(X), rtol=0, atol=TOL)
    np.testing.assert_allclose(p.sum(axis=1), 1, rtol=0, atol=1e-12)
    # partial_fit refuses labels outside the classes its first call declared; madnb.update declares none: the rows of
    # a class the model has not seen add that class, and the model is the one of the union
    batches(db, "gb", "gaussian", X, Y, [np.arange(3), np.arange(3, 6)])
    assert db.execute("SELECT madnb.model_classes('gb')").fetchone()[0] == ["1", "2"]
    for got, expected in zip(_gaussian_numbers(db, "gb"), (ref.theta_, ref.var_), strict=True):
        np.testing.assert_allclose(got, expected, rtol=0, atol=TOL)
    np.testing.assert_allclose(proba(db, "gb", "toy"), ref.predict_proba(X), rtol=0, atol=TOL)


def test_test_gnb_prior(db):
    columns(db, "toy", X, Y)
    train(db, "g", "toy", "gaussian")
    np.testing.assert_allclose(np.exp(log_prior(db, "g", "gaussian")), [0.5, 0.5], rtol=0, atol=1e-12)
    rng = np.random.RandomState(0)
    x1, y1 = rng.normal(size=(10, 3)), (rng.normal(size=10) > 0).astype(int)
    columns(db, "rnd", x1, y1)
    train(db, "g1", "rnd", "gaussian")
    assert np.exp(log_prior(db, "g1", "gaussian")).sum() == pytest.approx(1, abs=1e-12)
    np.testing.assert_allclose(np.exp(log_prior(db, "g1", "gaussian")), GaussianNB().fit(x1, y1).class_prior_, rtol=0, atol=1e-12)


def _gaussian_numbers(db: psycopg.Connection[Any], model: str) -> tuple[np.ndarray, np.ndarray]:
    rows = db.execute(f"SELECT class, attr, attr_mean, attr_var FROM madnb_models.{model}_numeric_stats ORDER BY 1, 2").fetchall()
    k, n = len({r[0] for r in rows}), max(r[1] for r in rows)
    return np.array([r[2] for r in rows]).reshape(k, n), np.array([r[3] for r in rows]).reshape(k, n)


def test_test_gnb_sample_weight(db):
    columns(db, "toy", X, Y)
    columns(db, "toy_ones", X, Y, w=np.ones(6))
    train(db, "plain", "toy", "gaussian")
    train(db, "ones", "toy_ones", "gaussian", weight="w")
    for a, b in zip(_gaussian_numbers(db, "plain"), _gaussian_numbers(db, "ones"), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=0)
    # two fits of every row with half its weight are one with the whole weight.  partial_fit's way, a weighted model
    # updated, is refused (0A000) and changes nothing: an update counts rows, a weighted model's statistics are sums
    # of weights.  The two halves are then one table of every row twice, weighted sw / 2
    rng = np.random.RandomState(0)
    sw = rng.rand(6)
    columns(db, "sw", X, Y, w=sw)
    columns(db, "halves", np.vstack([X, X]), np.concatenate([Y, Y]), w=np.concatenate([sw, sw]) / 2)
    train(db, "sw", "sw", "gaussian", weight="w")
    train(db, "halves", "halves", "gaussian", weight="w")
    assert sqlstate(db, "SELECT madnb.update('sw', 'sw')") == "0A000"
    assert version(db, "sw") == 1
    halves = GaussianNB().partial_fit(X, Y, classes=[1, 2], sample_weight=sw / 2).partial_fit(X, Y, sample_weight=sw / 2)
    for got, whole, theirs in zip(_gaussian_numbers(db, "halves"), _gaussian_numbers(db, "sw"), (halves.theta_, halves.var_),
                                  strict=True):
        np.testing.assert_allclose(got, whole, rtol=0, atol=TOL)
        np.testing.assert_allclose(got, theirs, rtol=0, atol=TOL)
    # duplicated rows and the corresponding integer weights give the same model
    ind = rng.randint(0, X.shape[0], 20)
    sw = np.bincount(ind, minlength=X.shape[0])
    columns(db, "dupl", X[ind], Y[ind])
    columns(db, "counted", X, Y, w=sw)
    train(db, "dupl", "dupl", "gaussian")
    train(db, "counted", "counted", "gaussian", weight="w")
    # the variances differ by epsilon alone (var_smoothing times the variance of X: 20 rows, or 6), as scikit-learn's
    # (the sklearn test compares to 6 decimals)
    for a, b in zip(_gaussian_numbers(db, "dupl"), _gaussian_numbers(db, "counted"), strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-9)
    ref = GaussianNB().fit(X, Y, sample_weight=sw)
    theta, var = _gaussian_numbers(db, "counted")
    np.testing.assert_allclose(theta, ref.theta_, rtol=1e-12, atol=0)
    np.testing.assert_allclose(var, ref.var_, rtol=1e-12, atol=0)
    # gh-24140: a class whose every weight is 0 is no division by zero; it is never predicted
    columns(db, "one_class", X, Y, w=(Y == 1).astype(np.float64))
    train(db, "one_class", "one_class", "gaussian", weight="w")
    assert predict(db, "one_class", "one_class") == [1] * 6


def test_test_gnb_neg_priors(db):
    columns(db, "toy", X, Y)
    assert sqlstate(db, "SELECT madnb.train('g', 'toy', 'label', exclude => ARRAY['id'], kind => 'gaussian', "
                        "options => '{\"priors\": [-1.0, 2.0]}')") == "22023"


def test_test_gnb_priors(db):
    columns(db, "toy", X, Y)
    columns(db, "q", [[-0.1, -0.1]])
    train(db, "g", "toy", "gaussian", {"priors": [0.3, 0.7]})
    np.testing.assert_allclose(proba(db, "g", "q"), [[0.825303662161683, 0.174696337838317]], rtol=0, atol=1e-8)
    np.testing.assert_allclose(np.exp(log_prior(db, "g", "gaussian")), [0.3, 0.7], rtol=0, atol=1e-12)


def test_test_gnb_priors_sum_isclose(db):
    x = np.array([[-1, -1], [-2, -1], [-3, -2], [-4, -5], [-5, -4], [1, 1], [2, 1], [3, 2], [4, 4], [5, 5]])
    priors = [0.08, 0.14, 0.03, 0.16, 0.11, 0.16, 0.07, 0.14, 0.11, 0.0]
    columns(db, "ten", x, np.arange(1, 11))
    # one row per class: variance 0 plus epsilon, as scikit-learn
    train(db, "g", "ten", "gaussian", {"priors": priors})
    with np.errstate(divide="ignore"):  # scikit-learn takes the log of the prior 0
        expected = GaussianNB(priors=priors).fit(x, np.arange(1, 11)).predict_proba(x)
    np.testing.assert_allclose(proba(db, "g", "ten"), expected, rtol=0, atol=TOL)


def test_test_gnb_wrong_nb_priors(db):
    columns(db, "toy", X, Y)
    assert sqlstate(db, "SELECT madnb.train('g', 'toy', 'label', exclude => ARRAY['id'], kind => 'gaussian', "
                        "options => '{\"priors\": [0.25, 0.25, 0.25, 0.25]}')") == "22023"


def test_test_gnb_prior_greater_one(db):
    columns(db, "toy", X, Y)
    assert sqlstate(db, "SELECT madnb.train('g', 'toy', 'label', exclude => ARRAY['id'], kind => 'gaussian', "
                        "options => '{\"priors\": [2.0, 1.0]}')") == "22023"


def test_test_gnb_prior_large_bias(db):
    columns(db, "toy", X, Y)
    columns(db, "q", [[-0.1, -0.1]])
    train(db, "g", "toy", "gaussian", {"priors": [0.01, 0.99]})
    assert predict(db, "g", "q") == [2]


def test_test_gnb_check_update_with_no_data(db):
    # scikit-learn's update of a mean and a variance by no rows leaves them as they were (a private method; its
    # partial_fit of no rows is an error).  madnb.update of a source without a labelled row is an error, 22023, that
    # leaves the model as it was: no new version, the same numbers
    columns(db, "toy", X, Y)
    columns(db, "empty", X[:0], Y[:0])
    columns(db, "unlabelled", X)
    train(db, "g", "toy", "gaussian")
    before = _gaussian_numbers(db, "g")
    for source in ("empty", "unlabelled"):
        assert sqlstate(db, "SELECT madnb.update('g', %s)", [source]) == "22023"
    assert version(db, "g") == 1
    for a, b in zip(before, _gaussian_numbers(db, "g"), strict=True):
        np.testing.assert_array_equal(a, b)


def test_test_gnb_partial_fit(db):
    # float8 (the test's float32 case has no counterpart: madnb's numbers are float8); partial_fit of every row at once
    # is madnb.train, test_test_gnb
    columns(db, "toy", X, Y)
    parts = [np.arange(0, 6, 2), np.arange(1, 6, 2)]
    batches(db, "g", "gaussian", X, Y, parts)
    fit, pf = GaussianNB().fit(X, Y), partial_fit(GaussianNB(), X, Y, parts)
    theta, var = _gaussian_numbers(db, "g")
    for ref in (fit, pf):
        np.testing.assert_allclose(np.exp(log_prior(db, "g", "gaussian")), ref.class_prior_, rtol=0, atol=1e-12)
        np.testing.assert_allclose(theta, ref.theta_, rtol=0, atol=TOL)
    np.testing.assert_allclose(var, fit.var_, rtol=0, atol=TOL)
    # partial_fit's epsilon is var_smoothing times the largest variance of its last batch; madnb's is the union's, fit's
    assert pf.epsilon_ != fit.epsilon_
    np.testing.assert_allclose(var, pf.var_ - pf.epsilon_ + fit.epsilon_, rtol=0, atol=TOL)
    np.testing.assert_allclose(proba(db, "g", "toy"), fit.predict_proba(X), rtol=0, atol=TOL)
    assert version(db, "g") == 2


def test_test_gnb_naive_bayes_scale_invariance(db):
    iris = load_iris()
    labels = []
    for i, f in enumerate([1e-10, 1, 1e10]):
        columns(db, f"iris{i}", f * iris.data, iris.target)
        train(db, f"g{i}", f"iris{i}", "gaussian")
        labels.append(predict(db, f"g{i}", f"iris{i}"))
    assert labels[0] == labels[1] == labels[2]
    assert labels[1] == list(GaussianNB().fit(iris.data, iris.target).predict(iris.data))


# --- the discrete kinds -----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", DISCRETE)
def test_test_discretenb_prior(db, kind):
    data(db, "x2", kind, X2, Y2)
    train(db, "d", "x2", kind)
    np.testing.assert_allclose(log_prior(db, "d", kind), np.log(np.array([2, 2, 2]) / 6.0), rtol=0, atol=1e-12)


def _discrete_counts(db: psycopg.Connection[Any], model: str, kind: str) -> tuple[np.ndarray, list[np.ndarray]]:
    """class_count_ and, per feature, category_count_ (categorical: class x value) or feature_count_ (the vector
    kinds: one class x feature array) of a discrete model."""
    if kind != "categorical":
        cc, fc, _ = _vector_tables(db, model)
        return cc, [fc]
    cc = np.array([r[0] for r in db.execute(f"SELECT class_cnt FROM madnb_models.{model}_class_priors ORDER BY class")])
    attrs = [r[0] for r in db.execute(f"SELECT DISTINCT attr FROM madnb_models.{model}_feature_probs ORDER BY 1")]
    return cc, [np.array([r[0] for r in db.execute(
        f"SELECT array_agg(cnt ORDER BY value) FROM madnb_models.{model}_feature_probs WHERE attr = %s GROUP BY class "
        "ORDER BY class", [a])]) for a in attrs]


@pytest.mark.parametrize("kind", DISCRETE)
def test_test_discretenb_partial_fit(db, kind):
    x, y = np.array([[0, 1], [1, 0], [1, 1]]), np.array([0, 1, 1])
    est = ESTIMATORS[kind]
    fit, rows = est().fit(x, y), partial_fit(est(), x, y, [[0], [1], [2]])
    data(db, "t", kind, x, y)
    train(db, "d", "t", kind)  # partial_fit of every row at once is fit
    # one row at a time; the values (categories) need not all be in the first batch
    batches(db, "d3", kind, x, y, [[0], [1], [2]])
    expected = fit.category_count_ if kind == "categorical" else [fit.feature_count_]
    for model in ("d", "d3"):
        cc, counts = _discrete_counts(db, model, kind)
        np.testing.assert_array_equal(cc, fit.class_count_)
        np.testing.assert_array_equal(cc, rows.class_count_)
        for got, theirs in zip(counts, expected, strict=True):
            np.testing.assert_array_equal(got, theirs)
        if kind == "categorical":  # the test's own counts
            assert [c.tolist() for c in counts] == [[[1, 0], [0, 2]], [[0, 1], [1, 1]]]
        else:
            np.testing.assert_array_equal(counts[0], rows.feature_count_)
        for ref in (fit, rows):
            np.testing.assert_allclose(proba(db, model, "t"), ref.predict_proba(x), rtol=0, atol=TOL)


@pytest.mark.parametrize("kind", ["bernoulli", "multinomial"])
def test_test_discretenb_predict_proba(db, kind):
    x = {"bernoulli": [[1, 100, 0], [0, 1, 0], [0, 100, 1]], "multinomial": [[0, 1], [1, 3], [4, 0]]}[kind]
    est = {"bernoulli": BernoulliNB, "multinomial": MultinomialNB}[kind]
    for y, k in (([0, 0, 2], 2), ([0, 1, 2], 3)):
        data(db, "t", kind, x, y)
        train(db, "d", "t", kind)
        p = proba(db, "d", "t")
        assert p.shape == (3, k)
        np.testing.assert_allclose(p.sum(axis=1), 1, rtol=0, atol=1e-12)
        np.testing.assert_allclose(p, est().fit(x, y).predict_proba(x), rtol=0, atol=TOL)
        assert predict(db, "d", "t")[-1] == 2
        assert np.exp(log_prior(db, "d", kind)).sum() == pytest.approx(1, abs=1e-12)
        db.execute("SELECT madnb.drop_model('d')")
        db.execute("DROP TABLE t")


@pytest.mark.parametrize("kind", DISCRETE)
def test_test_discretenb_uniform_prior(db, kind):
    data(db, "t", kind, [[0], [0], [1]], [0, 0, 1])
    train(db, "d", "t", kind, {"fit_prior": False})
    np.testing.assert_allclose(np.exp(log_prior(db, "d", kind)), [0.5, 0.5], rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", DISCRETE)
def test_test_discretenb_provide_prior(db, kind):
    data(db, "t", kind, [[0], [0], [1]], [0, 0, 1])
    train(db, "d", "t", kind, {"class_prior": [0.5, 0.5]})
    np.testing.assert_allclose(np.exp(log_prior(db, "d", kind)), [0.5, 0.5], rtol=0, atol=1e-12)
    data(db, "t3", kind, [[0], [1], [2]], [0, 1, 2])
    on = "features => ARRAY['v']" if kind != "categorical" else "exclude => ARRAY['id']"
    assert sqlstate(db, f"SELECT madnb.train('d3', 't3', 'label', {on}, kind => %s, "
                        "options => '{\"class_prior\": [0.5, 0.5]}')", [kind]) == "22023"
    # partial_fit refuses classes other than its first call's; madnb.update takes no classes, and rows of a third class
    # that the model's two priors do not cover are 22023, the model as it was
    assert sqlstate(db, "SELECT madnb.update('d', 't3')") == "22023"
    assert version(db, "d") == 1
    np.testing.assert_allclose(np.exp(log_prior(db, "d", kind)), [0.5, 0.5], rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", DISCRETE)
def test_test_discretenb_provide_prior_with_partial_fit(db, kind):
    iris = load_iris()
    # iris in tenths, as integers (the vector kinds here take int4[]); the priors the test checks are the labels' alone
    x, y = np.rint(iris.data * 10).astype(int), iris.target
    parts = train_test_split(np.arange(len(y)), test_size=0.4, random_state=415)  # the test's split of the rows
    est = ESTIMATORS[kind]
    for i, prior in enumerate([None, [0.3, 0.3, 0.4]]):
        batches(db, f"d{i}", kind, x, y, parts, None if prior is None else {"class_prior": prior})
        got = log_prior(db, f"d{i}", kind)
        for ref in (est(class_prior=prior).fit(x, y), partial_fit(est(class_prior=prior), x, y, parts)):
            np.testing.assert_allclose(got, ref.class_log_prior_, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", DISCRETE)
def test_test_discretenb_sample_weight_multiclass(db, kind):
    x = [[0, 0, 1], [0, 1, 1], [0, 1, 1], [1, 0, 0]]
    sw = np.array([1, 1, 2, 2], dtype=np.float64)
    sw /= sw.sum()
    data(db, "t", kind, x, [0, 0, 1, 2], w=sw)
    train(db, "d", "t", kind, weight="w")
    assert predict(db, "d", "t") == [0, 1, 1, 2]
    # partial_fit in three weighted batches: madnb.update refuses a weighted model (0A000) and leaves it as it was (an
    # update counts rows, a weighted model's statistics are sums of weights); the union of the batches is the fit above
    data(db, "b", kind, x[2:3], [1], w=sw[2:3])
    assert sqlstate(db, "SELECT madnb.update('d', 'b')") == "0A000"
    assert version(db, "d") == 1
    assert predict(db, "d", "t") == [0, 1, 1, 2]


@pytest.mark.parametrize("single_class", [False, True])
@pytest.mark.parametrize("kind", DISCRETE)
def test_test_discretenb_degenerate_one_class_case(db, kind, single_class):
    x, y = [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [1, 1, 2]
    if single_class:
        x, y = x[:-1], y[:-1]
    data(db, "t", kind, x, y)
    train(db, "d", "t", kind)
    assert predict(db, "d", "t")[0] == y[0]
    assert db.execute("SELECT madnb.model_classes('d')").fetchone()[0] == [str(c) for c in sorted(set(y))]
    assert proba(db, "d", "t").shape == (len(y), len(set(y)))
    # use_partial_fit: the first row trained, the others added by madnb.update (the second class, if any, with them)
    batches(db, "u", kind, x, y, [[0], list(range(1, len(y)))])
    assert predict(db, "u", "t")[0] == y[0]
    assert db.execute("SELECT madnb.model_classes('u')").fetchone()[0] == [str(c) for c in sorted(set(y))]
    theirs = ESTIMATORS[kind]().partial_fit(x, y, classes=sorted(set(y))).predict_proba(x)
    np.testing.assert_allclose(proba(db, "u", "t"), theirs, rtol=0, atol=TOL)


def test_test_mnnb(db):
    vectors(db, "neg", -X2, Y2)
    assert sqlstate(db, "SELECT madnb.train('m', 'neg', 'label', features => ARRAY['v'], kind => 'multinomial')") == "22023"
    vectors(db, "x2", X2, Y2)
    train(db, "m", "x2", "multinomial")
    assert predict(db, "m", "x2") == list(Y2)
    fit = MultinomialNB().fit(X2, Y2)
    np.testing.assert_allclose(proba(db, "m", "x2"), fit.predict_proba(X2), rtol=0, atol=TOL)
    # incremental fitting: rows 1-2 (one class), 3-5, 6 (partial_fit of every row at once is fit, above)
    parts = [np.arange(2), np.arange(2, 5), np.arange(5, 6)]
    batches(db, "m3", "multinomial", X2, Y2, parts)
    assert predict(db, "m3", "x2") == list(Y2)
    for ref in (fit, partial_fit(MultinomialNB(), X2, Y2, parts)):
        np.testing.assert_allclose(proba(db, "m3", "x2"), ref.predict_proba(X2), rtol=0, atol=TOL)


def test_test_mnb_prior_unobserved_targets(db):
    # partial_fit declares class 2 before any row of it; a madnb model's classes are its rows', so it has two until
    # madnb.update adds a row of class 2.  Before: [1, 1] is a tie, the first class predicted (as argmax); after: 2
    x, y = np.array([[0, 1], [1, 0]]), np.array([0, 1])
    vectors(db, "t", x, y)
    vectors(db, "q", [[0, 1], [1, 0], [1, 1]])
    vectors(db, "more", [[1, 1]], [2])
    train(db, "m", "t", "multinomial")
    assert predict(db, "m", "q") == [0, 1, 0]
    db.execute("SELECT madnb.update('m', 'more')")
    assert predict(db, "m", "q") == [0, 1, 2]
    theirs = MultinomialNB().partial_fit(x, y, classes=[0, 1, 2]).partial_fit([[1, 1]], [2])
    union = MultinomialNB().fit([[0, 1], [1, 0], [1, 1]], [0, 1, 2])
    for ref in (theirs, union):
        np.testing.assert_allclose(proba(db, "m", "q"), ref.predict_proba([[0, 1], [1, 0], [1, 1]]), rtol=0, atol=TOL)


# the IR book's example: Chinese Beijing Chinese, Chinese Chinese Shanghai, Chinese Macao (China), Tokyo Japan Chinese (Japan)
IR_X = np.array([[1, 1, 0, 0, 0, 0], [0, 1, 0, 0, 1, 0], [0, 1, 0, 1, 0, 0], [0, 1, 1, 0, 0, 1]])
IR_Y = np.array([0, 0, 0, 1])


def _vector_tables(db: psycopg.Connection[Any], model: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """class_count, feature_count and feature_log_prob (class x feature) of a vector model."""
    cc = np.array([r[0] for r in db.execute(f"SELECT class_count FROM madnb_models.{model}_class_priors ORDER BY class")])
    rows = db.execute(f"SELECT array_agg(count ORDER BY feature), array_agg(log_prob ORDER BY feature) "
                      f"FROM madnb_models.{model}_feature_probs GROUP BY class ORDER BY class").fetchall()
    return cc, np.array([r[0] for r in rows]), np.array([r[1] for r in rows])


def test_test_bnb(db):
    vectors(db, "ir", IR_X, IR_Y)
    vectors(db, "q", [[0, 1, 1, 0, 0, 1]])
    train(db, "b", "ir", "bernoulli", {"alpha": 1.0})
    np.testing.assert_allclose(np.exp(log_prior(db, "b", "bernoulli")), [0.75, 0.25], rtol=0, atol=1e-12)
    feature_prob = np.array([[0.4, 0.8, 0.2, 0.4, 0.4, 0.2], [1 / 3.0, 2 / 3.0, 2 / 3.0, 1 / 3.0, 1 / 3.0, 2 / 3.0]])
    np.testing.assert_allclose(np.exp(_vector_tables(db, "b")[2]), feature_prob, rtol=0, atol=1e-12)
    unnorm = np.array([[0.005183999999999999, 0.02194787379972565]])
    np.testing.assert_allclose(proba(db, "b", "q"), unnorm / unnorm.sum(), rtol=0, atol=1e-12)


def test_test_bnb_feature_log_prob(db):
    x = np.array([[0, 0, 0], [1, 1, 0], [0, 1, 0], [1, 0, 1], [0, 1, 0]])
    vectors(db, "t", x, [0, 0, 1, 2, 2])
    train(db, "b", "t", "bernoulli", {"alpha": 1.0})
    cc, fc, lp = _vector_tables(db, "b")
    np.testing.assert_allclose(lp, np.log(fc + 1.0) - np.log(cc + 2.0)[:, None], rtol=0, atol=1e-12)


def test_test_cnb(db):
    theta = np.array([
        [(0 + 1) / (3 + 6), (1 + 1) / (3 + 6), (1 + 1) / (3 + 6), (0 + 1) / (3 + 6), (0 + 1) / (3 + 6), (1 + 1) / (3 + 6)],
        [(1 + 1) / (6 + 6), (3 + 1) / (6 + 6), (0 + 1) / (6 + 6), (1 + 1) / (6 + 6), (1 + 1) / (6 + 6), (0 + 1) / (6 + 6)],
    ])
    weights = -np.log(theta)
    normed = weights / weights.sum(axis=1, keepdims=True)
    vectors(db, "neg", -IR_X, IR_Y)
    assert sqlstate(db, "SELECT madnb.train('c', 'neg', 'label', features => ARRAY['v'], kind => 'complement')") == "22023"
    vectors(db, "ir", IR_X, IR_Y)
    train(db, "c", "ir", "complement", {"alpha": 1.0})
    cc, fc, lp = _vector_tables(db, "c")
    np.testing.assert_array_equal(fc, [[1, 3, 0, 1, 1, 0], [0, 1, 1, 0, 0, 1]])
    np.testing.assert_array_equal(cc, [3, 1])
    np.testing.assert_array_equal(fc.sum(axis=0), [1, 4, 1, 1, 1, 1])  # feature_all_
    np.testing.assert_allclose(lp, weights, rtol=0, atol=1e-12)
    train(db, "cn", "ir", "complement", {"alpha": 1.0, "norm": True})
    np.testing.assert_allclose(_vector_tables(db, "cn")[2], normed, rtol=0, atol=1e-12)


def _n_categories(db: psycopg.Connection[Any], model: str) -> list[int]:
    return [r[0] for r in db.execute(f"SELECT max(attr_cnt) FROM madnb_models.{model}_feature_probs GROUP BY attr ORDER BY attr")]


def test_test_categoricalnb(db):
    columns(db, "x2", X2, Y2, "int")
    train(db, "c", "x2", "categorical")
    assert predict(db, "c", "x2") == list(Y2)
    # scikit-learn's categories are codes 0..max: values 1, 2 and 4, 5 are 3 and 6 categories; madnb's are the
    # values seen (2 and 2) unless min_categories says more
    x3, y3 = np.array([[1, 4], [2, 5]]), np.array([1, 2])
    columns(db, "x3", x3, y3, "int")
    columns(db, "q", [[2, 5]], typ="int")
    train(db, "c3", "x3", "categorical", {"alpha": 1, "fit_prior": False, "min_categories": [3, 6]})
    assert _n_categories(db, "c3") == [3, 6]
    ref = CategoricalNB(alpha=1, fit_prior=False).fit(x3, y3)
    np.testing.assert_allclose(proba(db, "c3", "q"), ref.predict_proba([[2, 5]]), rtol=0, atol=TOL)
    train(db, "c3s", "x3", "categorical", {"alpha": 1, "fit_prior": False})
    num = np.array([[1 / 3 * 1 / 3, 2 / 3 * 2 / 3]])  # alpha 1 over 2 values seen: the sklearn test's 1/3 and 2/3
    np.testing.assert_allclose(proba(db, "c3s", "q"), num / num.sum(), rtol=0, atol=1e-12)
    x, y = np.array([[0, 0], [0, 1], [0, 0], [1, 1]]), np.array([1, 1, 2, 2])
    columns(db, "q0", [[0, 0]], typ="int")
    for i, factor in enumerate([None, 1.0, 0.3, 5, 0.0001]):
        w = None if factor is None else np.array([1, 1, 10, 0.1]) * factor
        columns(db, f"sw{i}", x, y, "int", w=w)
        train(db, f"sw{i}", f"sw{i}", "categorical", {"alpha": 1, "fit_prior": False}, weight=None if w is None else "w")
        assert predict(db, f"sw{i}", "q0") == ([1] if factor is None else [2])
        assert _n_categories(db, f"sw{i}") == [2, 2]


@pytest.mark.parametrize(
    ("min_categories", "x1_count", "x2_count", "new_x", "n_categories"),
    [
        (3, [[2, 0, 0], [1, 1, 0]], [[1, 1, 0], [1, 1, 0]], [[0, 2]], [3, 3]),
        ([3, 4], [[2, 0, 0], [1, 1, 0]], [[1, 1, 0, 0], [1, 1, 0, 0]], [[0, 3]], [3, 4]),
        (1, [[2, 0], [1, 1]], [[1, 1], [1, 1]], [[0, 1]], [2, 2]),
    ],
    ids=["int", "list", "less_than_seen"],
)
def test_test_categoricalnb_with_min_categories(db, min_categories, x1_count, x2_count, new_x, n_categories):
    columns(db, "t", [[0, 0], [0, 1], [0, 0], [1, 1]], [1, 1, 2, 2], "int")
    columns(db, "q", new_x, typ="int")
    train(db, "c", "t", "categorical", {"alpha": 1, "fit_prior": False, "min_categories": min_categories})
    # the counts of the values seen; categories never seen (codes 2, 3) count 0 and are only in n_categories
    for attr, expected in ((1, x1_count), (2, x2_count)):
        got = db.execute("SELECT array_agg(cnt ORDER BY value) FROM madnb_models.c_feature_probs WHERE attr = %s "
                         "GROUP BY class ORDER BY class", [attr]).fetchall()
        assert [list(r[0]) for r in got] == [row[:len(got[0][0])] for row in expected]
    assert predict(db, "c", "q") == [1]
    assert _n_categories(db, "c") == n_categories


def test_test_categoricalnb_min_categories_errors(db):
    columns(db, "t", [[0, 0], [0, 1], [0, 0], [1, 1]], [1, 1, 2, 2], "int")
    assert sqlstate(db, "SELECT madnb.train('c', 't', 'label', exclude => ARRAY['id'], kind => 'categorical', "
                        "options => '{\"min_categories\": [[3, 2], [2, 4]]}')") == "22023"


def test_test_alpha(db):
    x, y = np.array([[1, 0], [1, 1]]), np.array([0, 1])
    notices: list[str] = []
    db.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    vectors(db, "t", x, y)
    train(db, "b", "t", "bernoulli", {"alpha": 0.0})
    assert any("raised to 1e-10" in n for n in notices)
    np.testing.assert_allclose(proba(db, "b", "t"), [[1, 0], [0, 1]], rtol=0, atol=1e-6)
    train(db, "m", "t", "multinomial", {"alpha": 0.0})
    np.testing.assert_allclose(proba(db, "m", "t"), [[2.0 / 3, 1.0 / 3], [0, 1]], rtol=0, atol=1e-6)
    columns(db, "tc", x, y, "int")
    train(db, "c", "tc", "categorical", {"alpha": 0.0})
    np.testing.assert_allclose(proba(db, "c", "tc"), [[1.0, 0.0], [0.0, 1.0]], rtol=0, atol=1e-6)


def _mean_accuracy(db: psycopg.Connection[Any], table: str, kind: str, options: Any, on: str) -> float:
    row = db.execute(
        f"SELECT metrics FROM madnb.cross_validate(%s, 'label', {on}, folds => 10, kind => %s, options => %s) "
        "WHERE fold = 'mean'", [table, kind, None if options is None else json.dumps(options)],
    ).fetchone()
    return float(row[0]["accuracy"])


def test_test_check_accuracy_on_digits(db):
    x, y = load_digits(return_X_y=True)
    three_eight = np.logical_or(y == 3, y == 8)
    vectors(db, "dv", x, y)
    vectors(db, "dv38", x[three_eight], y[three_eight])
    columns(db, "dc", x, y)
    columns(db, "dc38", x[three_eight], y[three_eight])
    v, c = "features => ARRAY['v']", "exclude => ARRAY['id']"
    assert _mean_accuracy(db, "dv", "multinomial", {"alpha": 10}, v) > 0.86
    assert _mean_accuracy(db, "dv38", "multinomial", {"alpha": 10}, v) > 0.94
    assert _mean_accuracy(db, "dv", "bernoulli", {"alpha": 10, "binarize": 4}, v) > 0.83
    assert _mean_accuracy(db, "dv38", "bernoulli", {"alpha": 10, "binarize": 4}, v) > 0.92
    assert _mean_accuracy(db, "dc", "gaussian", None, c) > 0.77
    assert _mean_accuracy(db, "dc", "gaussian", {"var_smoothing": 0.1}, c) > 0.89
    assert _mean_accuracy(db, "dc38", "gaussian", None, c) > 0.86

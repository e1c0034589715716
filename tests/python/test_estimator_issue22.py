"""madnb.NaiveBayes: the Python face of issue 22's capabilities (decisions, explanations, weights, grid search,
unlearning, versions).

Each method is a thin wrapper over one SQL call: expected numbers come from
scikit-learn fitted in the test on the same rows (CategoricalNB's probabilities
under new priors, weights, costs and thresholds; GaussianNB's ``sample_weight``;
the model of the rows left after a forget), and, where scikit-learn has no
equivalent (an explanation's jsonb, the threshold curve's rows, the versions),
from the documented SQL call on the same data.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.metrics import accuracy_score, precision_recall_curve
from sklearn.naive_bayes import GaussianNB
from test_estimator import FEATURES, categorical_nb, categorical_rows, load_table

import madnb

TOL = 1e-9


def softmax(jll: np.ndarray) -> np.ndarray:
    e = np.exp(jll - jll.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_priors_class_weights_costs_and_a_threshold_decide_as_scikit_learns_probabilities_do(db):
    rows = categorical_rows()
    train, test = rows.iloc[:300], rows.iloc[300:]
    load_table(db, "cat", train)
    load_table(db, "cat_test", test)
    est = madnb.NaiveBayes(db, "dec_nb", smoothing=0.5).fit("cat", "label", exclude=["id"])
    ref = categorical_nb(0.5).fit(train[FEATURES], train["label"])
    nb, X = ref[-1], ref[0].transform(test[FEATURES])
    jll, proba, classes = nb.predict_joint_log_proba(X), nb.predict_proba(X), np.array(["no", "yes"])

    new_priors = np.array([0.9, 0.1])  # scikit-learn: the joint log-likelihood's priors replaced
    want = softmax(jll - nb.class_log_prior_ + np.log(new_priors))
    assert np.abs(est.predict_proba("cat_test", key="id", priors=new_priors) - want).max() <= TOL
    assert list(est.predict("cat_test", key="id", priors=[0.9, 0.1])) == list(classes[want.argmax(axis=1)])
    weighted = proba * [1, 3] / (proba * [1, 3]).sum(axis=1, keepdims=True)
    assert np.abs(est.predict_proba(test[FEATURES], class_weights=[1, 3]) - weighted).max() <= TOL
    costs = [[0, 1], [5, 0]]
    by_cost = classes[(proba @ np.array(costs)).argmin(axis=1)]
    assert list(est.predict("cat_test", key="id", costs=costs)) == list(by_cost)
    assert est.score("cat_test", costs=costs) == pytest.approx(accuracy_score(test["label"], by_cost), abs=1e-12)
    by_threshold = np.where(proba[:, 1] >= 0.3, "yes", "no")
    assert list(est.predict("cat_test", key="id", threshold=0.3)) == list(by_threshold)
    # evaluate is madnb.evaluate's call with the same decision
    e = est.evaluate("cat_test", costs=np.array(costs))
    assert e.to_dict() == db.execute("SELECT madnb.evaluate('dec_nb', 'cat_test', costs => '{{0, 1}, {5, 0}}')").fetchone()[0]
    assert e.to_dict()["expected_cost"] == pytest.approx(
        np.mean([costs[int(t == "yes")][int(p == "yes")] for t, p in zip(test["label"], by_cost, strict=True)]), abs=1e-12)
    assert est.evaluate(test[FEATURES], test["label"], threshold=0.3).to_dict() == db.execute(
        "SELECT madnb.evaluate('dec_nb', 'cat_test', threshold => 0.3)").fetchone()[0]
    # no decision: the model's own prediction
    assert list(est.predict("cat_test", key="id")) == list(ref.predict(test[FEATURES]))

    # what is not numbers is refused before anything is sent; what does not fit the model, by madnb.decision
    with pytest.raises(TypeError, match="priors"):
        est.predict("cat_test", priors="0.9, 0.1")
    with pytest.raises(ValueError, match="K x K"):
        est.predict("cat_test", costs=[0, 1, 5, 0])
    with pytest.raises(TypeError, match="threshold"):
        est.predict("cat_test", threshold=True)
    with pytest.raises(madnb.MadnbError) as err:
        est.predict("cat_test", priors=[0.5, 0.3, 0.2])
    assert err.value.sqlstate == "22023"


def test_a_typed_label_comes_back_typed_under_a_decision(db):
    db.execute("CREATE TABLE nums AS SELECT i AS id, (i % 3)::text AS f, (i % 2 = 0 OR i % 3 = 0)::int AS y "
               "FROM generate_series(1, 60) AS i")
    est = madnb.NaiveBayes(db, "num_nb").fit("nums", "y", exclude=["id"])
    got = est.predict("nums", key="id", threshold=0.5)
    assert got.dtype.kind == "i" and set(got) <= {0, 1}
    assert list(got) == list(np.where(est.predict_proba("nums", key="id")[:, 1] >= 0.5, 1, 0))


def test_threshold_curve_is_the_databases_and_scikit_learns_precision_recall_curve(db, monkeypatch):
    rows = categorical_rows()
    load_table(db, "cat", rows)
    est = madnb.NaiveBayes(db, "curve_nb").fit("cat", "label", exclude=["id"])
    curve = est.threshold_curve("cat", costs=[[0, 1], [5, 0]])
    want = db.execute("SELECT * FROM madnb.threshold_curve('curve_nb', 'cat', costs => '{{0, 1}, {5, 0}}')").fetchall()
    assert list(curve.columns) == ["threshold", "true_positives", "false_positives", "false_negatives", "true_negatives",
                                   "precision", "recall", "cost"]
    assert [tuple(r) for r in curve.itertuples(index=False)] == want
    precision, recall, thresholds = precision_recall_curve(rows["label"] == "yes", est.predict_proba("cat", key="id")[:, 1])
    assert np.abs(curve["threshold"].to_numpy() - thresholds).max() <= 1e-12
    assert np.abs(curve["precision"].to_numpy() - precision[:-1]).max() <= 1e-12
    assert np.abs(curve["recall"].to_numpy() - recall[:-1]).max() <= 1e-12
    # a DataFrame's rows and labels give the same curve; without pandas, a list of dicts
    assert est.threshold_curve(rows[FEATURES], rows["label"], costs=[[0, 1], [5, 0]]).equals(curve)
    monkeypatch.setitem(sys.modules, "pandas", None)
    assert est.threshold_curve("cat") == [
        dict(zip(curve.columns, r, strict=True))
        for r in db.execute("SELECT * FROM madnb.threshold_curve('curve_nb', 'cat')").fetchall()]


def test_explain_and_feature_importance_are_the_models_explanations_and_add_up_to_scikit_learns_log_scores(db):
    rows = categorical_rows(n=200)
    load_table(db, "cat", rows)
    est = madnb.NaiveBayes(db, "why_nb", smoothing=0.5).fit("cat", "label", exclude=["id"])
    got = est.explain("cat", key="id")
    assert got == [r[0] for r in db.execute("SELECT madnb_models.why_nb_explain(t) FROM cat AS t ORDER BY id").fetchall()]
    assert est.explain(rows[FEATURES]) == got  # a DataFrame's rows, in its order
    ref = categorical_nb(0.5).fit(rows[FEATURES], rows["label"])
    jll = ref[-1].predict_joint_log_proba(ref[0].transform(rows[FEATURES]))
    for explanation, scores in zip(got, jll, strict=True):
        for j, k in enumerate(["no", "yes"]):
            part = explanation["classes"][k]
            assert part["prior"] + sum(part["contributions"].values()) == pytest.approx(scores[j], abs=TOL)
    assert [e["predicted"] for e in got] == list(ref.predict(rows[FEATURES]))
    importance = est.feature_importance("cat")
    want = db.execute("SELECT * FROM madnb.feature_importance('why_nb', 'cat')").fetchall()
    assert [tuple(r) for r in importance.itertuples(index=False)] == want
    assert list(importance.columns) == ["feature", "mean_abs_contribution", "mean_contribution", "mean_abs_against_runner_up", "rows"]


def test_sample_weights_give_scikit_learns_weighted_gaussian_nb_from_a_frame_or_a_column(db):
    iris = load_iris(as_frame=True)
    X, y = iris.data.rename(columns=lambda c: c.replace(" (cm)", "").replace(" ", "_")), iris.target
    w = np.random.default_rng(5).uniform(0.1, 3.0, len(X))
    ref = GaussianNB().fit(X, y, sample_weight=w)
    est = madnb.NaiveBayes(db, "iris_w", kind="gaussian").fit(X, y, sample_weight=w)
    assert np.abs(est.predict_proba(X) - ref.predict_proba(X)).max() <= TOL
    assert list(est.feature_names_in_) == list(X.columns)  # the weights are not a feature
    assert db.execute("SELECT weight FROM madnb.models WHERE name = 'iris_w'").fetchone()[0] == "sample_weight"
    # a column of the frame, and a table's column by its SQL name
    table = X.assign(w=w, species=y)
    column = madnb.NaiveBayes(db, "iris_wc", kind="gaussian").fit(table, "species", sample_weight="w")
    assert np.abs(column.predict_proba(X) - ref.predict_proba(X)).max() <= TOL
    db.execute("CREATE TABLE iris (id int, sepal_length float8, sepal_width float8, petal_length float8, "
               "petal_width float8, w float8, species int)")
    with db.cursor().copy("COPY iris FROM STDIN") as copy:
        for i, r in enumerate(table.itertuples(index=False)):
            copy.write_row([i, *r])
    named = madnb.NaiveBayes(db, "iris_wt", kind="gaussian").fit("iris", "species", exclude=["id"], sample_weight="w")
    assert np.abs(named.predict_proba("iris", key="id") - ref.predict_proba(X)).max() <= TOL
    # cross-validation with the weights: each fold's model scikit-learn's weighted GaussianNB of the other folds
    folds = np.array([r[0] for r in db.execute("SELECT madnb.fold(id, 3, 0) FROM iris ORDER BY id")]) - 1
    cv = madnb.NaiveBayes(db, kind="gaussian").cross_validate("iris", "species", exclude=["id"], folds=3, key="id",
                                                               sample_weight="w")
    for f, e in enumerate(cv.folds):
        train, test = folds != f, folds == f
        fold_nb = GaussianNB().fit(X[train], y[train], sample_weight=w[train])
        assert e.accuracy == pytest.approx(accuracy_score(y[test], fold_nb.predict(X[test])), abs=1e-12)
        assert e.rows == int(test.sum())  # the metrics count rows
    framed = madnb.NaiveBayes(db, kind="gaussian").cross_validate(X.assign(species=y), "species", folds=3, sample_weight=w)
    assert len(framed.folds) == 3 and sum(e.rows for e in framed.folds) == len(X)
    with pytest.raises(TypeError, match="DataFrame"):
        madnb.NaiveBayes(db, kind="gaussian").cross_validate("iris", "species", sample_weight=w)
    with pytest.raises(TypeError, match="DataFrame"):
        madnb.NaiveBayes(db, "iris_bad").fit("iris", "species", sample_weight=w)
    with pytest.raises(ValueError, match="one weight per row"):
        madnb.NaiveBayes(db, "iris_bad").fit(X, y, sample_weight=w[:10])
    with pytest.raises(madnb.MadnbError) as err:  # madnb.update counts rows unweighted: a weighted model refuses it
        est.partial_fit(X, y)
    assert err.value.sqlstate == "0A000"


def test_a_grid_search_is_madnb_cross_validates_grid_and_tune_trains_its_best_point(db):
    load_table(db, "cat", categorical_rows(n=300))
    est = madnb.NaiveBayes(db, kind="categorical")
    grid = {"alpha": [0.1, 1.0, 10.0], "fit_prior": [True, False]}
    search = est.cross_validate("cat", "label", features=FEATURES, folds=3, key="id", grid=grid)
    rows = db.execute("SELECT fold, metrics, parameters FROM madnb.cross_validate('cat', 'label', ARRAY['f1', 'f2', 'f3'], "
                      "folds => 3, key => 'id', kind => 'categorical', grid => %s)", [madnb.estimator._json(grid)]).fetchall()
    best = next((m, p) for f, m, p in rows if f == "best")
    assert search.best_params == best[1] and search.best.to_dict() == best[0]
    assert [p.parameters for p in search.points] == [p for f, _, p in rows if f == "mean"]
    assert search.points[search.best_index].parameters == search.best_params
    assert [p.mean.to_dict() for p in search.points] == [m for f, m, _ in rows if f == "mean"]
    assert all(len(p.folds) == 3 for p in search.points)
    table = search.table()
    assert list(table.columns) == ["alpha", "fit_prior", "accuracy", "balanced_accuracy", "log_loss", "roc_auc"]
    assert list(table["accuracy"]) == [p.mean.accuracy for p in search.points]
    # tune: madnb.train's own search (5 folds, seed 0, the rows' text forms), the point kept in the catalog
    tuned = madnb.NaiveBayes(db, "cat_tuned", kind="categorical", tune={"alpha": [0.1, 1.0, 10.0]}).fit("cat", "label", features=FEATURES)
    plain = madnb.NaiveBayes(db, kind="categorical").cross_validate("cat", "label", features=FEATURES, grid={"alpha": [0.1, 1.0, 10.0]})
    assert tuned.best_params_ == plain.best_params
    assert db.execute("SELECT parameters->'alpha' FROM madnb.models WHERE name = 'cat_tuned'").fetchone()[0] == plain.best_params["alpha"]
    assert "tune" in tuned.get_params()
    with pytest.raises(TypeError, match="grid"):
        est.cross_validate("cat", "label", grid=[0.1, 1.0])


def test_forget_versions_and_rollback_give_the_model_of_the_rows_left_and_back(db):
    rows = categorical_rows()
    load_table(db, "cat", rows)
    load_table(db, "gone", rows.iloc[:40])
    est = madnb.NaiveBayes(db, "erase_nb", smoothing=0.5).fit("cat", "label", exclude=["id"])
    before = est.predict_proba("cat", key="id")
    est.forget("gone")
    left = rows.iloc[40:]
    ref = categorical_nb(0.5).fit(left[FEATURES], left["label"])
    assert np.abs(est.predict_proba("cat", key="id") - ref.predict_proba(rows[FEATURES])).max() <= TOL
    est.forget(rows.iloc[40:60][FEATURES], rows.iloc[40:60]["label"])  # a DataFrame's rows, with labels
    left = rows.iloc[60:]
    ref = categorical_nb(0.5).fit(left[FEATURES], left["label"])
    assert np.abs(est.predict_proba("cat", key="id") - ref.predict_proba(rows[FEATURES])).max() <= TOL
    versions = est.versions()
    assert list(versions["operation"]) == ["train", "forget", "forget"] and list(versions["rows"]) == [400, 40, 20]
    assert [tuple(r) for r in versions.itertuples(index=False)] == db.execute(
        "SELECT * FROM madnb.model_versions('erase_nb')").fetchall()
    assert est.rollback(1) is est
    assert np.abs(est.predict_proba("cat", key="id") - before).max() <= TOL
    assert list(est.versions()["operation"]) == ["train", "forget", "forget", "rollback"]
    assert db.execute("SELECT training_rows, version FROM madnb.models WHERE name = 'erase_nb'").fetchone() == (400, 4)
    with pytest.raises(TypeError, match="version"):
        est.rollback("1")  # type: ignore[arg-type]
    with pytest.raises(madnb.MadnbError) as err:
        est.rollback(99)
    assert err.value.sqlstate == "42704"
    with pytest.raises(madnb.MadnbError) as err:  # rows the model never held
        est.forget(pd.DataFrame({"f1": ["zzz"], "f2": ["w"], "f3": ["p"], "label": ["no"]}))
    assert err.value.sqlstate == "22023"

"""Decisions at query time (issue 22, point 3): priors, class weights, costs and a threshold, without retraining.

Expected values are scikit-learn's, computed in the test from the estimator
fitted on the same rows: replaced priors are the arg-max (and softmax) of its
joint log-likelihood with its log priors swapped for the new ones; class weights
multiply its probabilities; costs are argmin(predict_proba @ costs); a threshold
predicts classes_[1] where its probability is at least it; the threshold curve is
precision_recall_curve's.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn.datasets import load_breast_cancer, load_digits, load_iris
from sklearn.metrics import confusion_matrix, precision_recall_curve
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, ComplementNB, GaussianNB, MultinomialNB

import madnb

TOL = 1e-9


def load_numeric(db: psycopg.Connection[Any], table: str, x: np.ndarray, y: list[str]) -> None:
    cols = ", ".join(f"f{j} float8" for j in range(x.shape[1]))
    db.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, label text, {cols})")
    with db.cursor().copy(f"COPY {table} FROM STDIN") as cp:
        for i, (row, c) in enumerate(zip(x, y, strict=True)):
            cp.write_row((i, c, *(float(v) for v in row)))
    db.execute(f"ANALYZE {table}")


def load_text(db: psycopg.Connection[Any], table: str, x: np.ndarray, y: list[str]) -> None:
    cols = ", ".join(f"f{j} text" for j in range(x.shape[1]))
    db.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, label text, {cols})")
    with db.cursor().copy(f"COPY {table} FROM STDIN") as cp:
        for i, (row, c) in enumerate(zip(x, y, strict=True)):
            cp.write_row((i, c, *(f"v{int(v)}" for v in row)))
    db.execute(f"ANALYZE {table}")


def load_vectors(db: psycopg.Connection[Any], table: str, x: np.ndarray, y: list[str]) -> None:
    db.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, label text, v int4[])")
    with db.cursor().copy(f"COPY {table} FROM STDIN") as cp:
        for i, (row, c) in enumerate(zip(x, y, strict=True)):
            cp.write_row((i, c, "{" + ",".join(str(int(v)) for v in row) + "}"))
    db.execute(f"ANALYZE {table}")


def labels(y: np.ndarray) -> list[str]:
    return [f"c{int(v)}" for v in y]


def iris(db: psycopg.Connection[Any]) -> tuple[np.ndarray, list[str]]:
    d = load_iris()
    y = labels(d.target)
    load_numeric(db, "iris", d.data, y)
    db.execute("SELECT madnb.train('iris_g', 'iris', 'label', exclude => ARRAY['id'], kind => 'gaussian')")
    return d.data, y


def cancer(db: psycopg.Connection[Any]) -> tuple[np.ndarray, list[str]]:
    d = load_breast_cancer()
    y = labels(d.target)
    load_numeric(db, "cancer", d.data, y)
    db.execute("SELECT madnb.train('cancer_g', 'cancer', 'label', exclude => ARRAY['id'], kind => 'gaussian')")
    return d.data, y


def decided(db: psycopg.Connection[Any], model: str, table: str, **decision: Any) -> tuple[list[str], np.ndarray]:
    """madnb.decide and madnb.decide_proba_array of every row (by id) under madnb.decision(model, **decision)."""
    args = "".join(f", {k} => %({k})s" for k in decision)
    rows = db.execute(
        f"SELECT madnb.decide(d, madnb_models.{model}_predict_proba_array(t)), "
        f"madnb.decide_proba_array(d, madnb_models.{model}_predict_proba_array(t)) "
        f"FROM {table} AS t, madnb.decision(%(model)s{args}) AS d ORDER BY t.id",
        {"model": model, **decision},
    ).fetchall()
    return [r[0] for r in rows], np.array([r[1] for r in rows])


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def sklearn_log_prior(est: Any) -> np.ndarray:
    """The log prior in the estimator's joint log-likelihood (ComplementNB's holds none)."""
    if isinstance(est, GaussianNB):
        return np.log(est.class_prior_)
    if isinstance(est, ComplementNB):
        return np.zeros(len(est.classes_))
    return est.class_log_prior_


def kind_case(db: psycopg.Connection[Any], kind: str) -> tuple[str, Any, np.ndarray]:
    """Model m_<kind> trained on a table t_<kind>, and scikit-learn's estimator fitted on the same rows."""
    rng = np.random.default_rng(22)
    if kind in ("gaussian",):
        d = load_iris()
        load_numeric(db, "t_gaussian", d.data, labels(d.target))
        db.execute("SELECT madnb.train('m_gaussian', 't_gaussian', 'label', exclude => ARRAY['id'], kind => 'gaussian')")
        return "t_gaussian", GaussianNB().fit(d.data, labels(d.target)), d.data
    if kind in ("naive_bayes", "categorical"):
        x = rng.integers(0, 4, size=(300, 5))
        y = (x[:, 0] + x[:, 1] + rng.integers(0, 3, 300)) % 3
        load_text(db, f"t_{kind}", x, labels(y))
        db.execute(f"SELECT madnb.train('m_{kind}', 't_{kind}', 'label', exclude => ARRAY['id'], kind => %s)", [kind])
        # every value is seen in training: both madnb's kinds then are CategoricalNB(alpha=1) on the values' codes
        return f"t_{kind}", CategoricalNB(alpha=1.0).fit(x, labels(y)), x
    d = load_digits()
    x, y = d.data[:600].astype(int), d.target[:600] % 3
    load_vectors(db, f"t_{kind}", x, labels(y))
    db.execute(f"SELECT madnb.train('m_{kind}', 't_{kind}', 'label', exclude => ARRAY['id'], kind => %s)", [kind])
    est = {"multinomial": MultinomialNB, "bernoulli": BernoulliNB, "complement": ComplementNB}[kind]()
    return f"t_{kind}", est.fit(x, labels(y)), x


KINDS = ["naive_bayes", "gaussian", "categorical", "multinomial", "bernoulli", "complement"]


@pytest.mark.parametrize("kind", KINDS)
def test_replaced_priors_predict_as_scikit_learns_joint_log_likelihood_with_the_log_priors_swapped(db, kind):
    table, est, x = kind_case(db, kind)
    new = np.array([0.6, 0.1, 0.3])
    jll = est.predict_joint_log_proba(x) - sklearn_log_prior(est) + np.log(new)
    predicted, proba = decided(db, f"m_{kind}", table, priors=list(new))
    assert np.allclose(proba, softmax(jll), rtol=0, atol=TOL)
    assert predicted == list(est.classes_[jll.argmax(axis=1)])
    assert predicted != list(est.predict(x))  # the priors changed some predictions


def test_priors_need_not_sum_to_one_and_a_prior_of_zero_never_predicts_its_class(db):
    x, _y = iris(db)
    half, _ = decided(db, "iris_g", "iris", priors=[0.2, 0.2, 0.6])
    scaled, _ = decided(db, "iris_g", "iris", priors=[1.0, 1.0, 3.0])
    assert half == scaled
    none, proba = decided(db, "iris_g", "iris", priors=[0.5, 0.0, 0.5])
    assert "c1" not in none and np.all(proba[:, 1] == 0)


def test_class_weights_multiply_scikit_learns_probabilities(db):
    x, y = iris(db)
    est = GaussianNB().fit(x, y)
    w = np.array([1.0, 5.0, 0.5])
    expected = est.predict_proba(x) * w
    expected /= expected.sum(axis=1, keepdims=True)
    predicted, proba = decided(db, "iris_g", "iris", class_weights=list(w))
    assert np.allclose(proba, expected, rtol=0, atol=TOL)
    assert predicted == list(est.classes_[expected.argmax(axis=1)])
    both, proba2 = decided(db, "iris_g", "iris", priors=[0.5, 0.25, 0.25], class_weights=list(w))
    jll = est.predict_joint_log_proba(x) - np.log(est.class_prior_) + np.log([0.5, 0.25, 0.25]) + np.log(w)
    assert np.allclose(proba2, softmax(jll), rtol=0, atol=TOL) and both == list(est.classes_[jll.argmax(axis=1)])


def test_costs_choose_the_class_of_least_expected_cost(db):
    x, y = iris(db)
    est = GaussianNB().fit(x, y)
    costs = [[0.0, 1.0, 1.0], [20.0, 0.0, 1.0], [1.0, 50.0, 0.0]]
    predicted, proba = decided(db, "iris_g", "iris", costs=costs)
    assert np.allclose(proba, est.predict_proba(x), rtol=0, atol=TOL)  # costs decide; they move no probability
    expected = list(est.classes_[(est.predict_proba(x) @ np.array(costs)).argmin(axis=1)])
    assert predicted == expected and expected != list(est.predict(x))


def test_a_threshold_predicts_the_positive_class_the_second_of_model_classes_at_or_above_it(db):
    x, y = cancer(db)
    est = GaussianNB().fit(x, y)
    assert db.execute("SELECT madnb.model_classes('cancer_g')").fetchone()[0] == list(est.classes_)
    p = est.predict_proba(x)[:, 1]
    for t in (0.0, 1e-6, 0.5, 0.999):
        assert t == 0 or np.abs(p - t).min() > TOL  # no probability so close that rounding decides
        predicted, _ = decided(db, "cancer_g", "cancer", threshold=t)
        assert predicted == [est.classes_[1] if v >= t else est.classes_[0] for v in p], t


def test_decide_proba_is_the_array_as_jsonb_and_works_on_the_column_form(db):
    iris(db)
    row = db.execute(
        "SELECT madnb.decide_proba(d, madnb_models.iris_g_predict_proba_array(f0 => 5.0, f1 => 3.0, f2 => 4.0, f3 => 1.2)), "
        "madnb.decide_proba_array(d, madnb_models.iris_g_predict_proba_array(f0 => 5.0, f1 => 3.0, f2 => 4.0, f3 => 1.2)), "
        "madnb.decide(d, madnb_models.iris_g_predict_proba_array(f0 => 5.0, f1 => 3.0, f2 => 4.0, f3 => 1.2)) "
        "FROM madnb.decision('iris_g', priors => '{0.1, 0.1, 0.8}') AS d"
    ).fetchone()
    assert row[0] == dict(zip(["c0", "c1", "c2"], row[1], strict=True))
    assert row[2] == ["c0", "c1", "c2"][int(np.argmax(row[1]))]


def test_a_decision_says_what_was_asked_and_the_positive_class(db):
    cancer(db)
    d = db.execute("SELECT madnb.decision('cancer_g', threshold => 0.25)").fetchone()[0]
    assert (d["model"], d["classes"], d["threshold"], d["positive_class"], d["priors"]) == ("cancer_g", ["c0", "c1"], 0.25, "c1", None)


BAD = [
    ("priors => '{0.5, 0.5}'", "priors has 2 values, but model iris_g has 3 classes"),
    ("priors => '{0.5, -0.1, 0.6}'", "priors must hold finite numbers that are not negative"),
    ("priors => '{0.5, NaN, 0.5}'", "priors must hold finite numbers that are not negative"),
    ("priors => '{0, 0, 0}'", "priors must not all be 0"),
    ("priors => '{{1, 2, 3}}'", "priors must be a one-dimensional array"),
    ("class_weights => '{1, 2}'", "class_weights has 2 values, but model iris_g has 3 classes"),
    ("class_weights => '{1, Infinity, 2}'", "class_weights must hold finite numbers that are not negative"),
    ("priors => '{1, 0, 0}', class_weights => '{0, 1, 1}'", "priors times class_weights must not all be 0"),
    ("costs => '{0, 1, 1}'", "costs must be a 3 x 3 matrix for model iris_g"),
    ("costs => '{{0, 1}, {1, 0}}'", "costs must be a 3 x 3 matrix for model iris_g"),
    ("costs => '{{0, 1, 1}, {1, 0, -1}, {1, 1, 0}}'", "costs must hold finite numbers that are not negative"),
    ("threshold => 0.5", "a threshold needs a model of two classes, and model iris_g has 3"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_a_bad_decision_is_refused_with_22023_naming_what_is_wrong(db, args, message):
    iris(db)
    for call in (f"SELECT madnb.decision('iris_g', {args})", f"SELECT madnb.evaluate('iris_g', 'iris', {args})"):
        with pytest.raises(psycopg.Error) as exc:
            db.execute(call)
        assert exc.value.diag.sqlstate == "22023" and exc.value.diag.message_primary == message


@pytest.mark.parametrize(("args", "message"), [
    ("threshold => 1.5", "threshold must be between 0 and 1"),
    ("threshold => -0.1", "threshold must be between 0 and 1"),
    ("threshold => 'NaN'", "threshold must be between 0 and 1"),
    ("threshold => 0.5, costs => '{{0, 1}, {1, 0}}'", "give costs or a threshold, not both"),
])
def test_a_bad_threshold_is_refused_with_22023(db, args, message):
    cancer(db)
    with pytest.raises(psycopg.Error) as exc:
        db.execute(f"SELECT madnb.decision('cancer_g', {args})")
    assert exc.value.diag.sqlstate == "22023" and exc.value.diag.message_primary == message


def test_a_decision_of_another_model_is_refused_on_probabilities_of_another_length(db):
    iris(db)
    cancer(db)
    with pytest.raises(psycopg.Error) as exc:
        db.execute("SELECT madnb.decide(madnb.decision('cancer_g', threshold => 0.5), madnb_models.iris_g_predict_proba_array(t)) "
                   "FROM iris t LIMIT 1")
    assert exc.value.diag.sqlstate == "22023"
    assert exc.value.diag.message_primary == "the decision is for a model of 2 classes, but the probabilities are of 3"


def test_evaluate_with_a_decision_scores_the_predictions_madnb_decide_makes_and_their_cost(db):
    x, y = iris(db)
    est = GaussianNB().fit(x, y)
    costs = [[0.0, 1.0, 1.0], [20.0, 0.0, 1.0], [1.0, 50.0, 0.0]]
    m = db.execute("SELECT madnb.evaluate('iris_g', 'iris', costs => %s)", [costs]).fetchone()[0]
    expected = est.classes_[(est.predict_proba(x) @ np.array(costs)).argmin(axis=1)]
    cm = confusion_matrix(y, expected, labels=est.classes_)
    assert m["confusion_matrix"] == cm.tolist()
    assert m["decision"] == {"priors": None, "class_weights": None, "costs": costs, "threshold": None}
    assert m["total_cost"] == pytest.approx(float((cm * np.array(costs)).sum()), abs=1e-12)
    assert m["expected_cost"] == pytest.approx(float((cm * np.array(costs)).sum()) / len(y), abs=1e-12)
    new = np.array([0.2, 0.2, 0.6])
    jll = est.predict_joint_log_proba(x) - np.log(est.class_prior_) + np.log(new)
    m = db.execute("SELECT madnb.evaluate('iris_g', 'iris', priors => %s)", [list(new)]).fetchone()[0]
    assert m["confusion_matrix"] == confusion_matrix(y, est.classes_[jll.argmax(axis=1)], labels=est.classes_).tolist()
    p = softmax(jll)
    loss = -np.mean(np.log(np.clip(p[np.arange(len(y)), [list(est.classes_).index(c) for c in y]], 2**-52, 1 - 2**-52)))
    assert m["log_loss"] == pytest.approx(loss, abs=1e-9)
    assert "expected_cost" not in m


def test_evaluate_with_a_threshold_equals_scikit_learns_metrics_of_the_thresholded_predictions(db):
    x, y = cancer(db)
    est = GaussianNB().fit(x, y)
    p = est.predict_proba(x)[:, 1]
    m = db.execute("SELECT madnb.evaluate('cancer_g', 'cancer', threshold => 0.999)").fetchone()[0]
    expected = np.where(p >= 0.999, est.classes_[1], est.classes_[0])
    assert m["confusion_matrix"] == confusion_matrix(y, expected, labels=est.classes_).tolist()
    plain = db.execute("SELECT madnb.evaluate('cancer_g', 'cancer')").fetchone()[0]
    assert "decision" not in plain and m["confusion_matrix"] != plain["confusion_matrix"]


def test_threshold_curve_gives_scikit_learns_precision_recall_curve_and_the_cost_at_every_threshold(db):
    x, y = cancer(db)
    est = GaussianNB().fit(x, y)
    costs = [[0.0, 1.0], [10.0, 0.0]]
    rows = db.execute(
        "SELECT threshold, precision, recall, cost, true_positives, false_positives, false_negatives, true_negatives "
        "FROM madnb.threshold_curve('cancer_g', 'cancer', costs => %s)", [costs],
    ).fetchall()
    # the curve's scores are the model's probabilities (scikit-learn's within 1e-9; distinct values are compared
    # exactly, so the curve is scikit-learn's of madnb's own probabilities)
    mine = np.array([q[0] for q in db.execute(
        "SELECT (madnb_models.cancer_g_predict_proba_array(t))[2] FROM cancer t ORDER BY id").fetchall()])
    assert np.allclose(mine, est.predict_proba(x)[:, 1], rtol=0, atol=TOL)
    yt = np.array(y) == est.classes_[1]
    precision, recall, thresholds = precision_recall_curve(yt, mine)
    assert [r[0] for r in rows] == list(thresholds)
    assert np.allclose([r[1] for r in rows], precision[:-1], rtol=0, atol=1e-12)
    assert np.allclose([r[2] for r in rows], recall[:-1], rtol=0, atol=1e-12)
    for r in rows[:: max(1, len(rows) // 25)]:
        pred = mine >= r[0]  # the rows predicted positive at this threshold
        tp, fp = int((pred & yt).sum()), int((pred & ~yt).sum())
        fn, tn = int((~pred & yt).sum()), int((~pred & ~yt).sum())
        assert r[4:] == (tp, fp, fn, tn)
        assert r[3] == pytest.approx((fp * 1.0 + fn * 10.0) / len(y), abs=1e-12)


def test_threshold_curve_without_costs_gives_the_error_rate(db):
    x, y = cancer(db)
    rows = db.execute("SELECT cost, false_positives, false_negatives FROM madnb.threshold_curve('cancer_g', 'cancer')").fetchall()
    assert all(r[0] == pytest.approx((r[1] + r[2]) / len(y), abs=1e-12) for r in rows)


def test_threshold_curve_refuses_a_model_of_more_than_two_classes_with_22023(db):
    iris(db)
    with pytest.raises(psycopg.Error) as exc:
        db.execute("SELECT * FROM madnb.threshold_curve('iris_g', 'iris')")
    assert exc.value.diag.sqlstate == "22023"
    assert exc.value.diag.message_primary == "a threshold curve needs a model of two classes, and model iris_g has 3"


def test_a_decided_prediction_keeps_the_model_inlined_into_the_query(db):
    iris(db)
    plan = "\n".join(r[0] for r in db.execute(
        "EXPLAIN (VERBOSE, COSTS OFF) SELECT madnb.decide(d, madnb_models.iris_g_predict_proba_array(t)) "
        "FROM iris AS t, madnb.decision('iris_g', priors => '{0.2, 0.3, 0.5}') AS d"
    ).fetchall())
    # inlined: neither madnb.decide nor the model's function is called, their bodies are in the scan's output
    assert "iris_g_predict_proba_array" not in plan and " decide(" not in plan
    assert "(d.d -> 'classes'::text) ->> (_nb_decide(d.d, decide_proba_array(d.d, _nb_proba(" in plan
    assert "Seq Scan on public.iris" in plan


def test_upgrading_drops_evaluates_signature_without_the_decisions(db):
    # what the previous release installed: madnb.evaluate and its entry point without priors .. threshold
    db.execute("CREATE FUNCTION madnb._evaluate(model text, source text, label text, curves boolean) RETURNS jsonb "
               "LANGUAGE sql AS 'SELECT NULL::jsonb'")
    db.execute("CREATE FUNCTION madnb.evaluate(model text, source text, label text DEFAULT NULL, curves boolean DEFAULT false) "
               "RETURNS jsonb LANGUAGE sql AS 'SELECT NULL::jsonb'")
    madnb.install(db)
    assert db.execute("SELECT count(*) FROM pg_proc WHERE proname = '_evaluate' "
                      "AND pronamespace = 'madnb'::regnamespace").fetchone()[0] == 1
    assert db.execute("SELECT count(*) FROM pg_proc WHERE proname = 'evaluate' "
                      "AND pronamespace = 'madnb'::regnamespace").fetchone()[0] == 1
    sig = db.execute("SELECT pg_get_function_identity_arguments('madnb.evaluate'::regproc)").fetchone()[0]
    assert sig == ("model text, source text, label text, curves boolean, priors double precision[], "
                   "class_weights double precision[], costs double precision[], threshold double precision")


def test_a_decision_serialises_what_it_was_given(db):
    iris(db)
    d = db.execute("SELECT madnb.decision('iris_g', costs => '{{0,1,1},{1,0,1},{1,1,0}}')").fetchone()[0]
    assert json.loads(json.dumps(d))["costs"] == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]


PLANTED = [  # (operator, left, right) planted ahead of pg_catalog: what the decision functions use
    ("-", "integer", "integer"), ("+", "double precision", "double precision"), ("*", "double precision", "double precision"),
    ("/", "double precision", "double precision"), ("-", "double precision", "double precision"),
    (">=", "double precision", "double precision"), ("<", "double precision", "double precision"),
    (">", "double precision", "double precision"), ("=", "double precision", "double precision"),
    ("<>", "integer", "integer"), ("->", "jsonb", "text"), ("->>", "jsonb", "text"), ("->>", "jsonb", "integer"),
    ("||", "jsonb", "jsonb"), ("=", "integer", "integer"),
]


def test_no_operator_or_function_planted_ahead_of_pg_catalog_runs_inside_a_decision(db):
    x, y = cancer(db)
    query = ("SELECT array_agg(madnb.decide(d, madnb_models.cancer_g_predict_proba_array(t)) ORDER BY t.id), "
             "array_agg(madnb.decide_proba(d, madnb_models.cancer_g_predict_proba_array(t))::text ORDER BY t.id) "
             "FROM cancer AS t, madnb.decision('cancer_g', priors => '{0.3, 0.7}', class_weights => '{1, 2}') AS d")
    calls = ["SELECT madnb.evaluate('cancer_g', 'cancer', threshold => 0.4)::text",
             "SELECT array_agg(c::text ORDER BY c.threshold) FROM madnb.threshold_curve('cancer_g', 'cancer') AS c"]
    expected = [db.execute(q).fetchone() for q in [query, *calls]]
    db.execute("CREATE SCHEMA evil")
    for f in ("ln", "exp"):
        db.execute(f"CREATE FUNCTION evil.{f}(double precision) RETURNS double precision LANGUAGE plpgsql "
                   "AS $$BEGIN RAISE EXCEPTION 'planted'; END$$")
    db.execute("CREATE FUNCTION evil.cardinality(anyarray) RETURNS integer LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'planted'; END$$")
    for i, (op, left, right) in enumerate(PLANTED):
        (result,) = db.execute(
            "SELECT oprresult::regtype::text FROM pg_operator WHERE oprname = %s AND oprleft = %s::regtype "
            "AND oprright = %s::regtype AND oprnamespace = 'pg_catalog'::regnamespace", [op, left, right]).fetchone()
        db.execute(f"CREATE FUNCTION evil.planted_{i}(a {left}, b {right}) RETURNS {result} LANGUAGE plpgsql "
                   "AS $$BEGIN RAISE EXCEPTION 'planted'; END$$")
        db.execute(f"CREATE OPERATOR evil.{op} (LEFTARG = {left}, RIGHTARG = {right}, FUNCTION = evil.planted_{i})")
    db.execute("SET search_path = evil, pg_catalog, public")
    for probe in ("SELECT 1 - 1", "SELECT ln(2::float8)", "SELECT '{}'::jsonb -> 'a'::text"):
        with pytest.raises(psycopg.errors.RaiseException, match="planted"):
            db.execute(probe)
    assert [db.execute(q).fetchone() for q in [query, *calls]] == expected


def test_priors_of_a_private_model_replace_the_noisy_priors_its_scores_hold(db):
    rng = np.random.default_rng(7)
    x = rng.integers(0, 4, size=(400, 3))
    y = (x[:, 0] + rng.integers(0, 2, 400)) % 3
    load_text(db, "pt", x, labels(y))
    values = [f"v{i}" for i in range(4)]
    domain = {"label": ["c0", "c1", "c2"], **{f"f{j}": values for j in range(3)}}
    db.execute("SELECT madnb.train('pt_dp', 'pt', 'label', exclude => ARRAY['id'], epsilon => 1, domain => %s)",
               [json.dumps(domain)])
    trained = np.array(db.execute("SELECT madnb_models.pt_dp_predict_proba_array(NULL::pt)").fetchone()[0])  # the priors
    new = np.array([0.1, 0.3, 0.6])
    proba = np.array([r[0] for r in db.execute("SELECT madnb_models.pt_dp_predict_proba_array(t) FROM pt t ORDER BY id")])
    expected = proba * new / trained
    expected /= expected.sum(axis=1, keepdims=True)
    predicted, got = decided(db, "pt_dp", "pt", priors=list(new))
    assert np.allclose(got, expected, rtol=0, atol=TOL)
    assert predicted == [f"c{i}" for i in expected.argmax(axis=1)]


def test_a_decision_adds_no_function_and_changes_none_of_the_model(db):
    iris(db)
    before = db.execute("SELECT array_agg(p.oid::regprocedure::text || md5(pg_get_functiondef(p.oid)) ORDER BY 1) "
                        "FROM pg_proc p WHERE p.pronamespace = 'madnb_models'::regnamespace").fetchone()[0]
    decided(db, "iris_g", "iris", priors=[0.2, 0.3, 0.5], costs=[[0, 1, 1], [1, 0, 1], [1, 1, 0]])
    db.execute("SELECT madnb.evaluate('iris_g', 'iris', class_weights => '{1, 2, 3}')")
    after = db.execute("SELECT array_agg(p.oid::regprocedure::text || md5(pg_get_functiondef(p.oid)) ORDER BY 1) "
                       "FROM pg_proc p WHERE p.pronamespace = 'madnb_models'::regnamespace").fetchone()[0]
    assert after == before and len(before) >= 6  # both forms of the three, and the private-prediction ones


def test_a_decision_given_as_a_constant_lets_the_scan_run_in_parallel_workers(db):
    iris(db)
    d = db.execute("SELECT madnb.decision('iris_g', costs => '{{0,1,1},{1,0,1},{1,1,0}}')::text").fetchone()[0]
    db.execute("SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; "
               "SET max_parallel_workers_per_gather = 2")
    plan = "\n".join(r[0] for r in db.execute(
        "EXPLAIN (VERBOSE, COSTS OFF) SELECT madnb.decide(%s::jsonb, madnb_models.iris_g_predict_proba_array(t)) FROM iris AS t",
        [d]).fetchall())
    assert "Gather" in plan and "Parallel Seq Scan on public.iris" in plan
    assert "_nb_decide(" in plan and "iris_g_predict_proba_array" not in plan  # inlined, run by the workers


def test_decide_proba_of_a_model_of_many_classes_names_every_class(db):
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, size=(500, 2))
    y = (x[:, 0] * 5 + x[:, 1] + rng.integers(0, 2, 500)) % 20  # 20 classes
    load_text(db, "many", x, [f"k{int(v):02d}" for v in y])
    db.execute("SELECT madnb.train('many_nb', 'many', 'label', exclude => ARRAY['id'])")
    classes = db.execute("SELECT madnb.model_classes('many_nb')").fetchone()[0]
    rows = db.execute(
        "SELECT madnb.decide_proba(d, madnb_models.many_nb_predict_proba_array(t)), "
        "madnb.decide_proba_array(d, madnb_models.many_nb_predict_proba_array(t)) "
        "FROM many AS t, madnb.decision('many_nb', class_weights => %s) AS d ORDER BY t.id LIMIT 20",
        [[float(i + 1) for i in range(20)]],
    ).fetchall()
    assert len(classes) == 20 and all(r[0] == dict(zip(classes, r[1], strict=True)) for r in rows)

"""madnb.NaiveBayes: scikit-learn's estimator interface, the work done in the database (issue 21, section 1).

Expected numbers come from scikit-learn fitted in the test on the same rows
(CategoricalNB, GaussianNB), and from madnb's own SQL functions for what the
estimator only relays (evaluate, cross_validate, model_sql).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pandas as pd
import psycopg
import pytest
import sqlalchemy as sa
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.metrics import accuracy_score
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer, OrdinalEncoder

import madnb

TOL = 1e-9  # as the to_sklearn tests: the same sums added in another order


def categorical_rows(n: int = 400, seed: int = 7) -> pd.DataFrame:
    """Three categorical features whose values depend on a two-class label; every value frequent."""
    rng = np.random.default_rng(seed)
    label = rng.choice(["no", "yes"], size=n, p=[0.6, 0.4])
    yes = label == "yes"
    f1 = np.where(yes, rng.choice(["a", "b", "c"], n, p=[0.6, 0.3, 0.1]), rng.choice(["a", "b", "c"], n, p=[0.2, 0.3, 0.5]))
    f2 = np.where(yes, rng.choice(["w", "x", "y", "z"], n, p=[0.4, 0.3, 0.2, 0.1]), rng.choice(["w", "x", "y", "z"], n))
    f3 = np.where(yes, rng.choice(["p", "q"], n, p=[0.7, 0.3]), rng.choice(["p", "q"], n, p=[0.4, 0.6]))
    return pd.DataFrame({"id": np.arange(1, n + 1), "f1": f1, "f2": f2, "f3": f3, "label": label})


def load_table(db: psycopg.Connection[Any], name: str, frame: pd.DataFrame) -> None:
    db.execute(f"CREATE TABLE {name} (id int PRIMARY KEY, f1 text, f2 text, f3 text, label text)")
    with db.cursor().copy(f"COPY {name} FROM STDIN") as copy:
        for row in frame.itertuples(index=False):
            copy.write_row([int(row.id), row.f1, row.f2, row.f3, row.label])
    db.execute(f"ANALYZE {name}")


def categorical_nb(alpha: float) -> Pipeline:
    return make_pipeline(OrdinalEncoder(), CategoricalNB(alpha=alpha))


FEATURES = ["f1", "f2", "f3"]


def test_fit_on_a_table_predicts_scikit_learns_categorical_nb_probabilities_in_the_keys_order(db):
    rows = categorical_rows()
    train, test = rows.iloc[:300], rows.iloc[300:]
    load_table(db, "cat", train)
    load_table(db, "cat_test", test.sample(frac=1, random_state=3))  # stored in another order than the ids'
    est = madnb.NaiveBayes(db, "cat_nb", smoothing=0.5).fit("cat", "label", exclude=["id"])
    ref = categorical_nb(0.5).fit(train[FEATURES], train["label"])
    assert list(est.classes_) == list(ref.classes_) == ["no", "yes"]
    assert list(est.feature_names_in_) == FEATURES and est.n_features_in_ == 3 and est.label_ == "label"
    want = ref.predict_proba(test[FEATURES])  # test is in id order
    got = est.predict_proba("cat_test", key="id")
    assert got.shape == (100, 2)
    assert np.abs(got - want).max() <= TOL
    assert list(est.predict("cat_test", key="id")) == list(ref.predict(test[FEATURES]))
    assert np.allclose(est.predict_log_proba("cat_test", key="id"), np.log(want), rtol=0, atol=1e-9)
    assert est.score("cat_test") == pytest.approx(accuracy_score(test["label"], ref.predict(test[FEATURES])), abs=1e-12)
    # without a key: the table's physical order, as SELECT * FROM cat_test returns it
    ids = [r[0] for r in db.execute("SELECT id FROM cat_test").fetchall()]
    by_id = dict(zip(test["id"], want))
    assert np.abs(est.predict_proba("cat_test") - np.array([by_id[i] for i in ids])).max() <= TOL


def test_fit_on_a_dataframe_and_labels_gives_scikit_learns_gaussian_nb_in_the_frames_order(db):
    iris = load_iris(as_frame=True)
    X, y = iris.data.rename(columns=lambda c: c.replace(" (cm)", "").replace(" ", "_")), iris.target
    est = madnb.NaiveBayes(db, "iris_nb", kind="gaussian").fit(X, y)
    ref = GaussianNB().fit(X, y)
    assert list(est.classes_) == [0, 1, 2] and est.classes_.dtype.kind == "i"
    shuffled = X.sample(frac=1, random_state=1)  # predictions come back in the frame's own order
    assert np.abs(est.predict_proba(shuffled) - ref.predict_proba(shuffled)).max() <= TOL
    assert list(est.predict(shuffled)) == list(ref.predict(shuffled))
    # what was uploaded: the frame's columns typed from its dtypes (floats float8), and the labels (int8)
    (features, label_type) = db.execute("SELECT features, label_type FROM madnb.models WHERE name = 'iris_nb'").fetchone()
    assert [(f["name"], f["type"], f["role"]) for f in features] == [(c, "double precision", "gaussian") for c in X.columns]
    assert label_type == "bigint"
    # nothing of the upload is left: the temporary tables went with the calls
    assert db.execute("SELECT count(*) FROM pg_class WHERE relpersistence = 't' AND relname LIKE 'madnb%'").fetchone()[0] == 0


def test_a_dataframe_is_uploaded_typed_from_its_dtypes_and_only_its_features_are_sent_to_predict(db):
    frame = pd.DataFrame({
        "n": pd.array([1, 2, 3, 4, 5, 6], dtype="int64"),
        "x": [0.5, 1.5, 2.5, 3.5, 4.5, np.nan],
        "b": [True, False, True, False, True, False],
        "c": pd.Categorical(["r", "g", "r", "g", "r", None]),
        "t": pd.to_datetime(["2024-01-01", "2024-01-02"] * 3),
        "s": ["u", "v", "u", "v", "u", "v"],
        "y": ["p", "q", "p", "q", "p", "q"],
    })
    est = madnb.NaiveBayes(db, "typed_nb", categorical=["n"]).fit(frame, "y")
    (features,) = db.execute("SELECT features FROM madnb.models WHERE name = 'typed_nb'").fetchone()
    assert [(f["name"], f["type"], f["role"]) for f in features] == [
        ("n", "bigint", "categorical"), ("x", "double precision", "gaussian"), ("b", "boolean", "categorical"),
        ("c", "text", "categorical"), ("t", "timestamp without time zone", "categorical"), ("s", "text", "categorical"),
    ]
    # predicting: the frame's other columns (here an unsupported dtype) are never sent
    rows = frame.drop(columns="y").assign(extra=[complex(1, 1)] * 6)
    got = est.predict_proba(rows)
    db.execute("CREATE TABLE typed AS SELECT * FROM (VALUES (1::int8, 0.5::float8, true, 'r', '2024-01-01'::timestamp, 'u')) "
               "AS v(n, x, b, c, t, s)")
    want = db.execute("SELECT madnb_models.typed_nb_predict_proba_array(r) FROM typed AS r").fetchone()[0]
    assert np.abs(got[0] - want).max() <= 1e-12
    with pytest.raises(madnb.MadnbError) as e:
        madnb.NaiveBayes(db, "typed_nb2").fit(rows.assign(y=frame["y"]), "y")
    assert e.value.sqlstate == "42804" and "extra" in e.value.message
    # a column left out (exclude, or not among the features) is not uploaded either
    madnb.NaiveBayes(db, "typed_nb3").fit(rows.assign(y=frame["y"]), "y", exclude=["extra"])
    madnb.NaiveBayes(db, "typed_nb4").fit(rows.assign(y=frame["y"]), "y", features=["n", "s"])
    (features,) = db.execute("SELECT features FROM madnb.models WHERE name = 'typed_nb4'").fetchone()
    assert [f["name"] for f in features] == ["n", "s"]
    with pytest.raises(madnb.MadnbError) as e:
        madnb.NaiveBayes(db, "typed_nb5").fit(frame, "y", exclude=["nope"])
    assert e.value.sqlstate == "42703"


def test_grid_search_over_smoothing_on_a_tables_rows_finds_scikit_learns_best_point_on_the_same_folds(db):
    load_table(db, "grid", categorical_rows(n=400, seed=11))
    X = pd.DataFrame(db.execute("SELECT f1, f2, f3 FROM grid ORDER BY id").fetchall(), columns=FEATURES)
    y = pd.Series([r[0] for r in db.execute("SELECT label FROM grid ORDER BY id").fetchall()], name="label")
    folds = KFold(n_splits=5, shuffle=True, random_state=0)
    for train, _ in folds.split(X):  # every value in every training part: Laplace's denominators are the same
        assert all(X.iloc[train][f].nunique() == X[f].nunique() for f in FEATURES)
    grid = [0.01, 0.3, 1.0, 10.0, 100.0]
    ours = GridSearchCV(madnb.NaiveBayes(db, "grid_nb", replace=True), {"smoothing": grid}, cv=folds, scoring="neg_log_loss").fit(X, y)
    theirs = GridSearchCV(categorical_nb(1.0), {"categoricalnb__alpha": grid}, cv=folds, scoring="neg_log_loss").fit(X, y)
    assert ours.best_params_["smoothing"] == theirs.best_params_["categoricalnb__alpha"]
    assert np.allclose(ours.cv_results_["mean_test_score"], theirs.cv_results_["mean_test_score"], rtol=0, atol=TOL)
    # the default scoring is the estimator's score: accuracy, computed in the database
    ours = GridSearchCV(madnb.NaiveBayes(db, "grid_nb", replace=True), {"smoothing": grid}, cv=folds).fit(X, y)
    theirs = GridSearchCV(categorical_nb(1.0), {"categoricalnb__alpha": grid}, cv=folds).fit(X, y)
    assert list(ours.cv_results_["mean_test_score"]) == pytest.approx(list(theirs.cv_results_["mean_test_score"]), abs=1e-12)
    # the refitted best estimator is the one model, trained on every row
    assert db.execute("SELECT training_rows FROM madnb.models WHERE name = 'grid_nb'").fetchone()[0] == 400
    assert ours.best_estimator_.model_ == "grid_nb"


def test_clone_keeps_the_parameters_and_the_connection_and_a_pipeline_fits_on_the_transformed_frame(db):
    est = madnb.NaiveBayes(db, "p_nb", kind="categorical", replace=True, alpha=0.25, min_categories=4)
    copy = clone(est)
    assert copy.get_params() == est.get_params() and copy.conn is db
    assert copy.get_params()["alpha"] == 0.25 and "model_" not in vars(copy)
    assert copy.set_params(alpha=2.0).options == {"alpha": 2.0, "min_categories": 4}
    rows = categorical_rows(n=200, seed=5)
    X, y = rows[FEATURES], rows["label"]
    upper = FunctionTransformer(lambda f: f.assign(f1=f["f1"].str.upper()))
    pipe = Pipeline([("upper", upper), ("nb", madnb.NaiveBayes(db, "p_nb", replace=True))]).fit(X, y)
    direct = madnb.NaiveBayes(db, "p_direct").fit(X.assign(f1=X["f1"].str.upper()), y)
    assert np.abs(pipe.predict_proba(X) - direct.predict_proba(X.assign(f1=X["f1"].str.upper()))).max() <= 1e-12
    assert list(pipe.classes_) == ["no", "yes"]
    assert pipe.score(X, y) == pytest.approx(direct.score(X.assign(f1=X["f1"].str.upper()), y), abs=1e-12)


def test_load_opens_a_model_trained_in_sql_with_its_parameters_and_typed_classes(db):
    db.execute("CREATE TABLE votes (id int PRIMARY KEY, a int, b text, party int)")
    db.execute("INSERT INTO votes SELECT i, i % 3, CASE WHEN i % 4 = 0 THEN 'y' ELSE 'n' END, (i % 3 = 0)::int FROM generate_series(1, 60) AS i")
    db.execute("""SELECT madnb.train('votes_nb', 'votes', 'party', exclude => ARRAY['id'], categorical => ARRAY['a'],
                  kind => 'categorical', options => '{"alpha": 0.5}')""")
    est = madnb.NaiveBayes.load(db, "votes_nb")
    assert est.get_params() == {**est.get_params(), "name": "votes_nb", "kind": "categorical", "categorical": ["a"], "alpha": 0.5}
    assert list(est.classes_) == [0, 1] and list(est.feature_names_in_) == ["a", "b"]
    want = [r[0] for r in db.execute("SELECT madnb_models.votes_nb_predict_proba_array(t) FROM votes AS t ORDER BY id").fetchall()]
    assert np.abs(est.predict_proba("votes", key="id") - np.array(want)).max() == 0
    assert list(est.predict("votes", key="id")) == [r[0] for r in db.execute(
        "SELECT madnb_models.votes_nb_predict(t) FROM votes AS t ORDER BY id").fetchall()]
    # clone of a loaded model trains the same kind of model
    again = clone(est).set_params(name="votes_again").fit("votes", "party", exclude=["id"])
    assert np.abs(again.predict_proba("votes", key="id") - np.array(want)).max() <= 1e-12
    # and the model's other faces
    assert est.sql() == db.execute("SELECT madnb.model_sql('votes_nb')").fetchone()[0]
    frame = pd.DataFrame(db.execute("SELECT a, b FROM votes ORDER BY id").fetchall(), columns=["a", "b"])
    assert np.abs(est.to_sklearn().predict_proba(frame) - np.array(want)).max() <= TOL


def test_drop_removes_the_model_and_leaves_the_estimator_unfitted(db):
    load_table(db, "cat", categorical_rows(n=50))
    est = madnb.NaiveBayes(db).fit("cat", "label", exclude=["id"])
    name = est.model_
    assert name.startswith("nb_")
    est.fit("cat", "label", features=["f1"])  # an unnamed estimator re-trains its own model in place
    assert est.model_ == name and list(est.feature_names_in_) == ["f1"]
    est.drop()
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0
    with pytest.raises(madnb.MadnbError) as e:
        est.predict("cat")
    assert e.value.sqlstate == "55000"
    with pytest.raises(madnb.MadnbError) as e:
        madnb.NaiveBayes.load(db, name)
    assert e.value.sqlstate == "42704" and e.value.hint == "madnb.models lists the models"


def test_errors_carry_the_databases_sqlstate_and_a_failed_fit_leaves_nothing_behind(db):
    load_table(db, "cat", categorical_rows(n=50))
    db.execute("CREATE VIEW cat_v AS SELECT * FROM cat")
    cases = [
        (lambda: madnb.NaiveBayes(db, "e1").fit("nope", "label"), "42P01"),
        (lambda: madnb.NaiveBayes(db, "e1").fit("cat", "nope"), "42703"),
        (lambda: madnb.NaiveBayes(db, "e1", alpha=1).fit("cat", "label", exclude=["id"]), "22023"),
        (lambda: madnb.NaiveBayes(db, "e1", smoothing=-1).fit("cat", "label"), "22023"),
        (lambda: madnb.NaiveBayes(db, "a.b.c").fit("cat", "label"), "42602"),
    ]
    for call, sqlstate in cases:
        with pytest.raises(madnb.MadnbError) as e:
            call()
        assert e.value.sqlstate == sqlstate, e.value
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0
    est = madnb.NaiveBayes(db, "e2").fit("cat", "label", exclude=["id"])
    with pytest.raises(madnb.MadnbError) as e:
        madnb.NaiveBayes(db, "e2").fit("cat", "label")
    assert e.value.sqlstate == "42710" and "replace" in (e.value.hint or "")
    assert isinstance(e.value.__cause__, psycopg.Error)  # the database's error, kept
    with pytest.raises(madnb.MadnbError) as e:
        est.predict("cat_v")  # a view has no order: a key is needed
    assert e.value.sqlstate == "22023"
    assert len(est.predict("cat_v", key="id")) == 50
    with pytest.raises(madnb.MadnbError) as e:
        est.predict(pd.DataFrame({"f1": ["a"], "f2": ["w"]}))
    assert e.value.sqlstate == "42703" and "f3" in e.value.message
    # an error inside the caller's transaction leaves it to the caller, who rolls back
    with psycopg.connect(db.info.dsn) as conn:
        conn.execute("SELECT 1")
        with pytest.raises(madnb.MadnbError):
            madnb.NaiveBayes(conn, "e3").fit("nope", "label")
        conn.rollback()


def test_work_inside_the_callers_transaction_is_undone_by_its_rollback(db):
    load_table(db, "cat", categorical_rows(n=50))
    with psycopg.connect(db.info.dsn) as conn:
        conn.execute("SELECT 1")  # in a transaction: every call joins it
        est = madnb.NaiveBayes(conn, "tx_nb").fit("cat", "label", exclude=["id"])
        assert len(est.predict(categorical_rows(n=5)[FEATURES])) == 5
        conn.rollback()
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0


def test_evaluate_and_cross_validate_are_the_databases_metrics(db):
    load_table(db, "cat", categorical_rows(n=300))
    est = madnb.NaiveBayes(db, "ev_nb").fit("cat", "label", exclude=["id"])
    want = db.execute("SELECT madnb.evaluate('ev_nb', 'cat')").fetchone()[0]
    e = est.evaluate("cat")
    assert e.to_dict() == want
    assert (e.accuracy, e.rows, e.classes, e.roc_auc, e.positive_class) == (
        want["accuracy"], want["rows"], want["classes"], want["roc_auc"], want["positive_class"])
    assert e.confusion_matrix.tolist() == want["confusion_matrix"]
    frame = categorical_rows(n=300)
    assert est.evaluate(frame[FEATURES], frame["label"]).to_dict() == want  # the same rows from a DataFrame
    cv = est.cross_validate("cat", key="id", folds=4, seed=2)
    rows = dict(db.execute("SELECT fold, metrics FROM madnb.cross_validate('cat', 'label', ARRAY['f1', 'f2', 'f3'], "
                           "folds => 4, seed => 2, key => 'id')").fetchall())
    assert cv.to_dict() == rows
    assert [f.accuracy for f in cv.folds] == [rows[str(i)]["accuracy"] for i in range(1, 5)]
    assert cv.mean.rows == 300
    # with curves: the database's curves, drawn by Evaluation.plot and written by Evaluation.report
    e = est.evaluate("cat", curves=True)
    assert e.to_dict() == db.execute("SELECT madnb.evaluate('ev_nb', 'cat', curves => true)").fetchone()[0]
    fig = e.plot(cv)
    assert list(fig.axes[2].get_lines()[0].get_xdata()) == e.curves["roc"][0]["fpr"]
    assert fig.axes[5].get_title() == "cross-validation: 4 folds"
    with pytest.raises(madnb.report.ReportError, match="curves"):
        est.evaluate("cat").plot()


def test_an_evaluations_report_is_one_html_page_with_its_figure(db, tmp_path):
    load_table(db, "cat", categorical_rows(n=200))
    est = madnb.NaiveBayes(db, "rep_nb").fit("cat", "label", exclude=["id"])
    e = est.evaluate("cat", curves=True)
    e.report(str(tmp_path / "r.html"), est.cross_validate("cat", key="id", folds=3), title="cat")
    page = (tmp_path / "r.html").read_text()
    assert "<title>cat</title>" in page and "data:image/png;base64," in page and "Cross-validation" in page


def test_a_sqlalchemy_table_and_selectable_are_sources(db):
    load_table(db, "cat", categorical_rows(n=80))
    info = db.info
    engine = sa.create_engine(sa.URL.create("postgresql+psycopg", username=info.user, host=info.host, port=info.port, database=info.dbname))
    table = sa.Table("cat", sa.MetaData(), autoload_with=engine)
    est = madnb.NaiveBayes(engine, "sa_nb").fit(table, "label", exclude=["id"])
    want = [r[0] for r in db.execute(
        "SELECT madnb_models.sa_nb_predict_proba_array(t) FROM cat AS t WHERE id > 40 ORDER BY id DESC").fetchall()]
    query = sa.select(table).where(table.c.id > sa.bindparam("low", 40)).order_by(table.c.id.desc())
    assert np.abs(est.predict_proba(query) - np.array(want)).max() == 0
    assert est.score(table) == db.execute("SELECT (madnb.evaluate('sa_nb', 'cat')->>'accuracy')::float8").fetchone()[0]
    # a selectable to train on: its columns are the features (no row number among them)
    chosen = madnb.NaiveBayes(engine, "sa_sel").fit(sa.select(table.c.f1, table.c.f2, table.c.label).where(table.c.id <= 60), "label")
    assert list(chosen.feature_names_in_) == ["f1", "f2"]
    assert db.execute("SELECT training_rows FROM madnb.models WHERE name = 'sa_sel'").fetchone()[0] == 60
    engine.dispose()


def test_a_frame_of_count_vectors_fits_scikit_learns_multinomial_nb(db):
    from sklearn.datasets import load_digits
    from sklearn.naive_bayes import MultinomialNB

    digits = load_digits()
    X, y = digits.data.astype(int)[:600], digits.target[:600]
    frame = pd.DataFrame({"pixels": list(X)})  # one list of 64 counts per row: uploaded as bigint[]
    est = madnb.NaiveBayes(db, "digits_nb", kind="multinomial", alpha=0.5).fit(frame, y)
    ref = MultinomialNB(alpha=0.5).fit(X, y)
    (features,) = db.execute("SELECT features FROM madnb.models WHERE name = 'digits_nb'").fetchone()
    assert [(f["name"], f["type"], f["role"]) for f in features] == [("pixels", "bigint[]", "counts")]
    assert list(est.classes_) == list(range(10))
    test = pd.DataFrame({"pixels": list(digits.data.astype(int)[600:700])})
    assert np.abs(est.predict_proba(test) - ref.predict_proba(digits.data[600:700])).max() <= TOL


def test_a_private_fit_passes_epsilon_bounds_and_domain_to_madnb_train(db):
    load_table(db, "cat", categorical_rows(n=200))
    domain = {"label": ["no", "yes"], "f1": ["a", "b", "c"], "f2": ["w", "x", "y", "z"], "f3": ["p", "q"]}
    est = madnb.NaiveBayes(db, "cat_dp", epsilon=1.0, domain=domain).fit("cat", "label", exclude=["id"])
    assert db.execute("SELECT privacy, epsilon FROM madnb.models WHERE name = 'cat_dp'").fetchone() == ("private", 1.0)
    assert madnb.NaiveBayes.load(db, "cat_dp").get_params()["epsilon"] == 1.0
    assert est.predict_proba("cat", key="id").shape == (200, 2)
    with pytest.raises(madnb.MadnbError) as e:
        madnb.NaiveBayes(db, "cat_dp2", domain=domain).fit("cat", "label", exclude=["id"])  # a domain without epsilon
    assert e.value.sqlstate == "22023"


def test_a_table_source_needs_neither_pandas_nor_scikit_learn(db, monkeypatch):
    load_table(db, "cat", categorical_rows(n=60))
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails, as where it is not installed
    monkeypatch.setitem(sys.modules, "sklearn", None)
    est = madnb.NaiveBayes(db, "plain_nb").fit("cat", "label", exclude=["id"])
    want = [r[0] for r in db.execute("SELECT madnb_models.plain_nb_predict_proba_array(t) FROM cat AS t ORDER BY id").fetchall()]
    assert np.array_equal(est.predict_proba("cat", key="id"), np.array(want))
    assert list(est.classes_) == ["no", "yes"] and 0 < est.score("cat") <= 1
    assert len(est.cross_validate("cat", key="id", folds=3).folds) == 3


def test_partial_fit_adds_batches_as_scikit_learns_gaussian_nb_partial_fit_each_a_new_version(db):
    iris = load_iris(as_frame=True)
    X, y = iris.data.rename(columns=lambda c: c.replace(" (cm)", "").replace(" ", "_")), iris.target
    order = np.random.default_rng(3).permutation(len(X))
    batches = np.array_split(order, 3)
    est, ref = madnb.NaiveBayes(db, "iris_online", kind="gaussian"), GaussianNB()
    for rows in batches:
        est.partial_fit(X.iloc[rows], y.iloc[rows])
        ref.partial_fit(X.iloc[rows], y.iloc[rows], classes=[0, 1, 2])
    assert np.abs(est.predict_proba(X) - ref.predict_proba(X)).max() <= TOL
    versions = db.execute("SELECT version, operation, rows FROM madnb.model_versions('iris_online')").fetchall()
    assert versions == [(1, "train", len(batches[0])), (2, "update", len(batches[1])), (3, "update", len(batches[2]))]
    # a table's rows too, typed as the table's: the model of fit on the union
    frame = categorical_rows()
    load_table(db, "first", frame.iloc[:250])
    load_table(db, "second", frame.iloc[250:])
    load_table(db, "all_rows", frame)
    online = madnb.NaiveBayes(db, "cat_online", kind="categorical").partial_fit("first", "label", features=FEATURES)
    online.partial_fit("second", "label")
    whole = madnb.NaiveBayes(db, "cat_whole", kind="categorical").fit("all_rows", "label", features=FEATURES)
    assert np.abs(online.predict_proba("all_rows", key="id") - whole.predict_proba("all_rows", key="id")).max() <= TOL

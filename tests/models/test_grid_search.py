"""madnb.cross_validate(..., grid => ...) and madnb.train(..., tune => ...) (issue 22, point 5): a grid search from one pass.

The expected figures are scikit-learn's GridSearchCV on the same rows and the same
folds (madnb.fold's, given to it as a PredefinedSplit), scored by accuracy and log-loss:
the same best point, every point's mean scores within 1e-9.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import psycopg
import pytest
import sklearn
from sklearn.metrics import get_scorer
from sklearn.model_selection import GridSearchCV, PredefinedSplit
from sklearn.naive_bayes import CategoricalNB, ComplementNB, GaussianNB, MultinomialNB

SCORING = {"accuracy": "accuracy", "neg_log_loss": "neg_log_loss"}


def grid_rows(db: psycopg.Connection[Any], *args: Any, **kwargs: Any) -> list[tuple[str, dict[str, Any], dict[str, Any] | None]]:
    """madnb.cross_validate's rows (fold, metrics, parameters) in their order."""
    marks = ", ".join(["%s"] * len(args) + [f"{k} => %s" for k in kwargs])
    return db.execute(f"SELECT fold, metrics, parameters FROM madnb.cross_validate({marks})", [*args, *kwargs.values()]).fetchall()


def assert_same_search(rows: list[tuple[str, dict[str, Any], dict[str, Any] | None]], search: GridSearchCV, folds: int) -> None:
    """Every point's mean accuracy and log-loss within 1e-9 of GridSearchCV's, in its order, and the same best point."""
    means = [(m, p) for f, m, p in rows if f == "mean"]
    per_fold = [(f, m, p) for f, m, p in rows if f not in ("mean", "best")]
    assert [p for _m, p in means] == search.cv_results_["params"]
    assert len(per_fold) == folds * len(means)
    for i, (m, _p) in enumerate(means):
        assert m["accuracy"] == pytest.approx(search.cv_results_["mean_test_accuracy"][i], abs=1e-9, rel=0), i
        assert m["log_loss"] == pytest.approx(-search.cv_results_["mean_test_neg_log_loss"][i], abs=1e-9, rel=0), i
        for f in range(folds):
            (fm,) = [m2 for f2, m2, p2 in per_fold if f2 == str(f + 1) and p2 == means[i][1]]
            assert fm["accuracy"] == pytest.approx(search.cv_results_[f"split{f}_test_accuracy"][i], abs=1e-9, rel=0)
    assert rows[-1][0] == "best"
    assert rows[-1][2] == search.best_params_
    assert rows[-1][1]["accuracy"] == pytest.approx(search.best_score_, abs=1e-9, rel=0)


def assert_close(got: Any, want: Any, path: str) -> None:
    """Equal, floats within 1e-12."""
    if isinstance(want, dict):
        assert set(got) == set(want), path
        for k in want:
            assert_close(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_close(g, w, f"{path}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, abs=1e-12, rel=0), path
    else:
        assert got == want, path


def folds_of(db: psycopg.Connection[Any], table: str, folds: int = 5, seed: int = 0) -> np.ndarray:
    return np.array([f for (f,) in db.execute(f"SELECT madnb.fold(id, %s, %s) FROM {table} ORDER BY id", [folds, seed])])


@pytest.fixture
def votes(db):
    return load_votes(db)


def load_votes(db: psycopg.Connection[Any]) -> tuple[psycopg.Connection[Any], np.ndarray, np.ndarray]:
    """240 rows of three categorical features (four values each, every value in every fold's complement), three classes."""
    rng = np.random.default_rng(22)
    y = rng.integers(0, 3, 240)
    x = np.stack([(y + rng.integers(0, 3, 240) * (j + 1)) % 4 for j in range(3)], axis=1)
    db.execute("CREATE TABLE votes (id int PRIMARY KEY, a text, b text, c text, party text)")
    with db.cursor().copy("COPY votes FROM STDIN") as copy:
        for i in range(240):
            copy.write_row((i, *[f"v{v}" for v in x[i]], ("dem", "grn", "rep")[y[i]]))
    return db, x, np.array([("dem", "grn", "rep")[v] for v in y])


def test_a_categorical_grid_finds_grid_search_cvs_best_point_with_its_scores_on_the_same_folds(votes):
    db, x, y = votes
    grid = {"alpha": [0.01, 0.5, 1, 4, 30], "fit_prior": [True, False]}
    rows = grid_rows(db, "votes", "party", ["a", "b", "c"], key="id", kind="categorical", grid=json.dumps(grid))
    folds = folds_of(db, "votes")
    for f in range(1, 6):  # every value is seen in every complement, so CategoricalNB's categories are madnb's
        assert all(len(set(x[folds != f, j])) == 4 for j in range(3))
    search = GridSearchCV(CategoricalNB(), grid, cv=PredefinedSplit(folds - 1), scoring=SCORING, refit="accuracy").fit(x, y)
    assert_same_search(rows, search, 5)
    assert len({round(m["log_loss"], 12) for f, m, _p in rows if f == "mean"}) == 10  # every point is a different model


def test_a_gaussian_grid_of_var_smoothing_finds_grid_search_cvs_best_point(db):
    from sklearn.datasets import load_iris

    iris = load_iris()
    X, y = iris.data, np.array([str(iris.target_names[t]) for t in iris.target])
    db.execute("CREATE TABLE iris (id int PRIMARY KEY, a float8, b float8, c float8, d float8, species text)")
    with db.cursor().copy("COPY iris FROM STDIN") as copy:
        for i, (row, label) in enumerate(zip(X, y, strict=True)):
            copy.write_row((i, *[float(v) for v in row], label))
    grid = {"var_smoothing": [1e-9, 1e-3, 0.03, 0.1, 0.3, 1.0]}
    rows = grid_rows(db, "iris", "species", exclude=["id"], key="id", kind="gaussian", grid=json.dumps(grid))
    search = GridSearchCV(GaussianNB(), grid, cv=PredefinedSplit(folds_of(db, "iris") - 1), scoring=SCORING, refit="accuracy").fit(X, y)
    assert_same_search(rows, search, 5)


@pytest.fixture
def counts(db):
    return load_counts(db)


def load_counts(db: psycopg.Connection[Any]) -> tuple[psycopg.Connection[Any], np.ndarray, np.ndarray]:
    """300 rows of 8 Poisson counts (int4[]), three classes with their own rates."""
    rng = np.random.default_rng(18)
    rates = np.array([[4, 1, 1, 3, 0.5, 2, 1, 1], [1, 3, 1, 1, 2, 0.5, 4, 1], [2, 2, 3, 0.5, 1, 1, 1, 3]])
    y = np.array([("ham", "spam", "eggs")[i % 3] for i in range(300)])
    x = np.stack([rng.poisson(rates[i % 3]) for i in range(300)])
    db.execute("CREATE TABLE docs (id int PRIMARY KEY, w int4[], y text)")
    with db.cursor().copy("COPY docs FROM STDIN") as copy:
        for i in range(300):
            copy.write_row((i, [int(v) for v in x[i]], y[i]))
    return db, x, y


@pytest.mark.parametrize(
    "kind, grid, est",
    [
        ("multinomial", {"alpha": [0.1, 1, 10, 100], "fit_prior": [True, False]}, MultinomialNB()),
        ("complement", {"alpha": [0.1, 1, 50], "norm": [False, True]}, ComplementNB()),
    ],
)
def test_a_vector_kinds_grid_finds_grid_search_cvs_best_point(counts, kind, grid, est):
    db, x, y = counts
    rows = grid_rows(db, "docs", "y", ["w"], key="id", kind=kind, grid=json.dumps(grid))
    search = GridSearchCV(est, grid, cv=PredefinedSplit(folds_of(db, "docs") - 1), scoring=SCORING, refit="accuracy").fit(x, y)
    assert_same_search(rows, search, 5)


def test_every_point_equals_a_plain_cross_validation_with_its_parameters_from_one_statistics_and_one_scoring_pass(db):
    db.execute("CREATE TABLE s (id int, y text, x float8, c text, k int)")
    db.execute("INSERT INTO s SELECT i, (ARRAY['a','b'])[1 + i % 2], i % 7, (ARRAY['p','q','r'])[1 + i % 5 % 3], i % 4 "
               "FROM generate_series(1, 200) i")
    db.execute("SET max_parallel_workers_per_gather = 0")

    def scans(call: str) -> int:
        with db.transaction():
            before = db.execute("SELECT pg_stat_get_xact_numscans('s'::regclass)").fetchone()[0]
            db.execute(call)
            return db.execute("SELECT pg_stat_get_xact_numscans('s'::regclass)").fetchone()[0] - before

    grid = {"smoothing": [0.1, 1, 3]}
    plain = scans("SELECT * FROM madnb.cross_validate('s', 'y', exclude => ARRAY['id'], key => 'id')")
    searched = scans(f"SELECT * FROM madnb.cross_validate('s', 'y', exclude => ARRAY['id'], key => 'id', grid => '{json.dumps(grid)}')")
    assert searched == plain  # the statistics pass and ONE scoring pass, however many points
    rows = grid_rows(db, "s", "y", exclude=["id"], key="id", grid=json.dumps(grid))
    assert [(f, p) for f, _m, p in rows] == [
        (f, {"smoothing": s}) for s in grid["smoothing"] for f in ("1", "2", "3", "4", "5", "mean")
    ] + [("best", rows[-1][2])]
    for s in grid["smoothing"]:
        alone = grid_rows(db, "s", "y", exclude=["id"], key="id", smoothing=s)
        assert all(p is None for _f, _m, p in alone)
        got = [(f, m) for f, m, p in rows if p == {"smoothing": s} and f != "best"]
        assert [f for f, _m in got] == [f for f, _m, _p in alone]
        for (f, m), (_f, m2, _p) in zip(got, alone, strict=True):
            assert_close(m, m2, f"smoothing {s} fold {f}")  # the log-loss sums add the same terms in another order


def test_train_with_tune_trains_the_best_point_of_five_fold_cross_validation(votes):
    db, _x, _y = votes
    grid = {"alpha": [0.01, 1, 30], "fit_prior": [True, False]}
    rows = grid_rows(db, "votes", "party", ["a", "b", "c"], kind="categorical", grid=json.dumps(grid))
    best = rows[-1][2]
    db.execute("SELECT madnb.train('tuned', 'votes', 'party', ARRAY['a', 'b', 'c'], kind => 'categorical', tune => %s)",
               [json.dumps(grid)])
    db.execute("SELECT madnb.train('direct', 'votes', 'party', ARRAY['a', 'b', 'c'], kind => 'categorical', options => %s)",
               [json.dumps(best)])
    assert db.execute("SELECT parameters, smoothing FROM madnb.models WHERE name = 'tuned'").fetchone() == (best, best["alpha"])
    tuned, direct = (db.execute(f"SELECT madnb_models.{m}_predict_proba_array(t) FROM votes t ORDER BY id").fetchall()
                     for m in ("tuned", "direct"))
    assert tuned == direct
    # a naive_bayes kind tunes its smoothing, kept in the catalog's smoothing
    db.execute("""SELECT madnb.train('nb', 'votes', 'party', exclude => ARRAY['id'], tune => '{"smoothing": [0.2, 7]}')""")
    assert db.execute("SELECT smoothing FROM madnb.models WHERE name = 'nb'").fetchone()[0] in (0.2, 7)


@pytest.mark.parametrize(
    "kind, grid, state",
    [
        ("bernoulli", {"binarize": [0, 1]}, "22023"),  # changes the statistics pass: not tunable
        ("gaussian", {"alpha": [1]}, "22023"),
        ("naive_bayes", {"smoothing": []}, "22023"),
        ("naive_bayes", {"smoothing": "1"}, "22023"),
        ("naive_bayes", {"smoothing": [1, "x"]}, "22023"),
        ("naive_bayes", {"smoothing": [-1]}, "22023"),  # the kind's own check
        ("naive_bayes", {}, "22023"),
        ("naive_bayes", [1], "22023"),
        ("multinomial", {"alpha": [-1]}, "22023"),
        ("naive_bayes", {"smoothing": list(range(1, 202))}, "22023"),  # more than 200 points
    ],
)
def test_a_bad_grid_is_refused_with_its_sqlstate_and_leaves_nothing_behind(counts, kind, grid, state):
    db, _x, _y = counts
    db.execute("CREATE TABLE t (id int, x float8, c text, y text)")
    db.execute("INSERT INTO t SELECT i, i % 5, (ARRAY['p','q'])[1 + i % 2], (ARRAY['a','b'])[1 + i % 3 % 2] FROM generate_series(1, 50) i")
    source, features = ("docs", ["w"]) if kind in ("bernoulli", "multinomial") else ("t", ["x"] if kind == "gaussian" else ["x", "c"])
    before = db.execute("SELECT count(*) FROM pg_class").fetchone()[0]
    for call, args in (
        ("SELECT * FROM madnb.cross_validate(%s, 'y', %s, kind => %s, grid => %s)", [source, features, kind, json.dumps(grid)]),
        ("SELECT madnb.train('m', %s, 'y', %s, kind => %s, tune => %s)", [source, features, kind, json.dumps(grid)]),
    ):
        with pytest.raises(psycopg.Error) as e:
            db.execute(call, args)
        assert e.value.diag.sqlstate == state, (call, e.value.diag.message_primary)
    assert db.execute("SELECT count(*) FROM pg_class").fetchone()[0] == before
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0


def test_a_private_model_is_not_tuned(db):
    db.execute("CREATE TABLE t (id int, c text, y text)")
    db.execute("INSERT INTO t SELECT i, (ARRAY['p','q'])[1 + i % 2], (ARRAY['a','b'])[1 + i % 3 % 2] FROM generate_series(1, 50) i")
    with pytest.raises(psycopg.Error) as e:
        db.execute("""SELECT madnb.train('m', 't', 'y', ARRAY['c'], epsilon => 1, domain => '{"y": ["a", "b"], "c": ["p", "q"]}',
                      tune => '{"smoothing": [1, 2]}')""")
    assert e.value.diag.sqlstate == "0A000"


def weighted_search(est: Any, grid: dict[str, list[Any]], folds: np.ndarray, x: np.ndarray, y: np.ndarray, w: np.ndarray) -> GridSearchCV:
    """GridSearchCV with the sample weights routed to the fits only (its scorers count rows, as madnb's metrics do;
    without routing, GridSearchCV.fit's sample_weight weighs the scores too)."""
    with sklearn.config_context(enable_metadata_routing=True):
        scoring = {name: get_scorer(name).set_score_request(sample_weight=False) for name in SCORING}
        search = GridSearchCV(est.set_fit_request(sample_weight=True), grid, cv=PredefinedSplit(folds - 1), scoring=scoring, refit="accuracy")
        return search.fit(x, y, sample_weight=w)


def test_a_weighted_grid_finds_grid_search_cvs_best_point_with_sample_weight_for_the_fits(db):
    # sample weights go to every fit, the scores count rows
    from sklearn.datasets import load_iris

    iris = load_iris()
    X, y = iris.data, np.array([str(iris.target_names[t]) for t in iris.target])
    w = np.random.default_rng(9).uniform(0, 2, len(y))
    w[::13] = 0.0
    db.execute("CREATE TABLE iris (id int PRIMARY KEY, a float8, b float8, c float8, d float8, species text, w float8)")
    with db.cursor().copy("COPY iris FROM STDIN") as copy:
        for i, (row, label) in enumerate(zip(X, y, strict=True)):
            copy.write_row((i, *[float(v) for v in row], label, float(w[i])))
    grid = {"var_smoothing": [1e-9, 0.01, 0.1, 0.5]}
    rows = grid_rows(db, "iris", "species", exclude=["id"], key="id", kind="gaussian", grid=json.dumps(grid), weight="w")
    assert_same_search(rows, weighted_search(GaussianNB(), grid, folds_of(db, "iris"), X, y, w), 5)
    # the categorical grid on the same rows' first two features, as text
    db.execute("CREATE TABLE iris_c AS SELECT id, round(a)::text AS a, round(b)::text AS b, species, w FROM iris")
    cgrid = {"alpha": [0.1, 1, 10], "fit_prior": [True, False]}
    rows = grid_rows(db, "iris_c", "species", ["a", "b"], key="id", kind="categorical", grid=json.dumps(cgrid), weight="w")
    xc = np.array(db.execute("SELECT round(a)::int, round(b)::int FROM iris ORDER BY id").fetchall())
    folds = folds_of(db, "iris_c")
    for f in range(1, 6):  # every value in every complement, so CategoricalNB's categories are madnb's
        assert all(set(xc[folds != f, j]) == set(xc[:, j]) for j in range(2))
    assert_same_search(rows, weighted_search(CategoricalNB(), cgrid, folds, xc - xc.min(axis=0), y, w), 5)

"""Exact explanations (issue 22, point 1): madnb_models.<model>_explain and madnb.feature_importance.

Every expected contribution is computed here, from scikit-learn's fitted attributes
(CategoricalNB.feature_log_prob_, GaussianNB.theta_ / var_, MultinomialNB / BernoulliNB /
ComplementNB.feature_log_prob_) or, for kind 'naive_bayes' (MADlib's numbers, which no
estimator has), from counts, means and sample variances computed with numpy; madnb's are
read from the explanation only.
"""

from __future__ import annotations

import csv
import math
from collections import Counter
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, ComplementNB, GaussianNB, MultinomialNB
from sklearn.preprocessing import OrdinalEncoder

from conftest import data_file
from models_helpers import load_adult, plant_on_search_path

TOL = 1e-9
NUMERIC = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hours_per_week"]
CATEGORICAL = ["workclass", "education", "marital_status", "occupation", "relationship", "race", "sex", "native_country"]
ADULT_ORDER = [
    "age", "workclass", "fnlwgt", "education", "education_num", "marital_status", "occupation", "relationship", "race",
    "sex", "capital_gain", "capital_loss", "hours_per_week", "native_country",
]


def explanations(db: psycopg.Connection[Any], model: str, table: str, where: str = "true") -> list[tuple[int, dict[str, Any]]]:
    return db.execute(
        f"SELECT t.id, madnb_models.{model}_explain(t) FROM {table} t WHERE {where} ORDER BY t.id"
    ).fetchall()


def assert_exact_sums(
    db: psycopg.Connection[Any], model: str, table: str, where: str = "true", exported: tuple[str, list[str]] | None = None,
) -> None:
    """Prior + contributions is the log-score (1e-12), the log-posterior its normalised log, the predicted class
    predict's, the runner-up the best other class, and the differences against it sorted.  ``exported``: the
    functions of an exported script instead (their qualified prefix, the model's classes), in a database that
    need not have madnb."""
    prefix, classes = exported or (f"madnb_models.{model}", db.execute("SELECT madnb.model_classes(%s)", [model]).fetchone()[0])
    rows = db.execute(
        f"SELECT {prefix}_explain(t), {prefix}_predict(t)::text, {prefix}_predict_proba_array(t) FROM {table} t WHERE {where}"
    ).fetchall()
    assert rows
    for e, predicted, probs in rows:
        scores = []
        for c in classes:
            part = e["classes"][c]
            total = part["prior"]
            for v in part["contributions"].values():
                total += v
            assert abs(total - part["log_score"]) <= 1e-12 * max(1.0, abs(part["log_score"]))
            scores.append(part["log_score"])
        s = np.array(scores)
        lse = s.max() + math.log(np.exp(s - s.max()).sum())
        for c, p in zip(classes, probs, strict=True):
            assert e["classes"][c]["log_posterior"] == pytest.approx(e["classes"][c]["log_score"] - lse, abs=1e-12)
            if p > 1e-300:
                assert e["classes"][c]["log_posterior"] == pytest.approx(math.log(p), abs=1e-9)
        assert e["predicted"] == predicted
        if len(classes) > 1:
            others = [c for c in classes if c != predicted]
            assert e["runner_up"] == max(others, key=lambda c: e["classes"][c]["log_score"])
            diffs = [d["difference"] for d in e["against_runner_up"]]
            assert diffs == sorted(diffs, reverse=True)
            want = {f: e["classes"][predicted]["contributions"][f] - e["classes"][e["runner_up"]]["contributions"][f]
                    for f in e["classes"][predicted]["contributions"]}
            assert {d["feature"]: d["difference"] for d in e["against_runner_up"]} == pytest.approx(want, abs=1e-12)


def plan_of(db: psycopg.Connection[Any], query: str) -> str:
    return "\n".join(r[0] for r in db.execute(f"EXPLAIN VERBOSE {query}"))


# --- kind 'naive_bayes' on adult: MADlib's numbers, computed with numpy ---------------------------------


@pytest.fixture
def adult(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    load_adult(db, "adult")
    load_adult(db, "adult_test", "test")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    return db


def test_adult_contributions_are_each_features_log_probability_computed_with_numpy_and_a_missing_value_adds_nothing(adult):
    db = adult
    train = db.execute(f"SELECT income, {', '.join(ADULT_ORDER)} FROM adult").fetchall()
    classes = sorted({r[0] for r in train})
    n_class = Counter(r[0] for r in train)
    params: dict[tuple[str, int], Any] = {}
    for j, name in enumerate(ADULT_ORDER, start=1):
        values = {r[j] for r in train if r[j] is not None}
        for c in classes:
            col = [r[j] for r in train if r[0] == c and r[j] is not None]
            if name in CATEGORICAL:
                params[(c, j)] = (Counter(col), len(col), len(values), values)
            else:
                x = np.array(col, dtype=float)
                params[(c, j)] = (x.mean(), x.var(ddof=1))
    ids = list(range(1, 16282, 53))
    test = {r[0]: r[1:] for r in db.execute(f"SELECT id, {', '.join(ADULT_ORDER)} FROM adult_test WHERE id = ANY(%s)", [ids])}
    missing = 0
    for key, e in explanations(db, "adult_nb", "adult_test", f"t.id = ANY(ARRAY{ids})"):
        for c in classes:
            part = e["classes"][c]
            assert part["prior"] == pytest.approx(math.log(n_class[c] / len(train)), abs=1e-12)
            for j, (name, v) in enumerate(zip(ADULT_ORDER, test[key], strict=True), start=1):
                got = part["contributions"][name]
                if v is None or (name in CATEGORICAL and v not in params[(c, j)][3]):
                    missing += v is None
                    assert got == 0, (key, name)  # a missing (or never seen) value adds nothing
                elif name in CATEGORICAL:
                    counts, present, nvals, _ = params[(c, j)]
                    assert got == pytest.approx(math.log((counts[v] + 1) / (present + nvals)), abs=TOL)
                else:
                    mean, var = params[(c, j)]
                    want = -0.5 * math.log(2 * math.pi * var) - (v - mean) ** 2 / (2 * var)
                    assert got == pytest.approx(want, rel=TOL, abs=TOL), (key, name)
    assert missing > 0  # adult_test has '?' values in the rows explained
    assert_exact_sums(db, "adult_nb", "adult_test", "t.id % 41 = 0")


def test_the_column_form_explains_given_values_and_leaves_the_others_out_as_missing(adult):
    db = adult
    e = db.execute("SELECT madnb_models.adult_nb_explain(age => 39, sex => 'Male')").fetchone()[0]
    for part in e["classes"].values():
        nonzero = {f for f, v in part["contributions"].items() if v != 0}
        assert nonzero == {"age", "sex"}
        assert part["log_score"] == part["prior"] + part["contributions"]["age"] + part["contributions"]["sex"]
    none = db.execute("SELECT madnb_models.adult_nb_explain()").fetchone()[0]
    assert all(p["log_score"] == p["prior"] for p in none["classes"].values())
    row = db.execute("SELECT madnb_models.adult_nb_explain(t) FROM adult_test t WHERE t.id = 7").fetchone()[0]
    cols = db.execute(
        f"SELECT madnb_models.adult_nb_explain({', '.join(f'{c} => t.{c}' for c in ADULT_ORDER)}) FROM adult_test t WHERE t.id = 7"
    ).fetchone()[0]
    assert row == cols


def test_explain_is_inlined_into_the_callers_query_as_the_prediction_functions_are(adult):
    db = adult
    plan = plan_of(db, "SELECT madnb_models.adult_nb_explain(t) FROM adult_test t")
    assert "adult_nb_explain" not in plan  # inlined: the terms are in the scan's output list
    assert "_nb_explain" in plan  # only the per-row helper is called
    plan = plan_of(db, "SELECT madnb_models.adult_nb_explain(age => t.age) FROM adult_test t")
    assert "adult_nb_explain" not in plan
    language = db.execute(
        "SELECT array_agg(DISTINCT l.lanname) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang "
        "WHERE p.proname = 'adult_nb_explain'"
    ).fetchone()[0]
    assert language == ["sql"]


def test_the_prediction_functions_bodies_are_the_same_with_the_explanation_written_next_to_them(adult):
    db = adult
    # the predict function's score is the explanation's log-score: the same terms, added in the same order
    rows = db.execute(
        "SELECT madnb_models.adult_nb_explain(t), madnb_models.adult_nb_predict_proba_array(t) FROM adult_test t WHERE t.id % 997 = 0"
    ).fetchall()
    for e, probs in rows:
        s = np.array([e["classes"][c]["log_score"] for c in ("<=50K", ">50K")])
        np.testing.assert_allclose(np.exp(s - s.max()) / np.exp(s - s.max()).sum(), probs, rtol=0, atol=1e-12)


def test_feature_importance_is_the_mean_absolute_contribution_to_the_predicted_class_as_numpy_computes_it(adult):
    db = adult
    db.execute("CREATE VIEW some_test AS SELECT * FROM adult_test WHERE id % 4 = 0")
    got = {r[0]: r[1:] for r in db.execute("SELECT * FROM madnb.feature_importance('adult_nb', 'some_test')")}
    rows = [e for _, e in explanations(db, "adult_nb", "some_test")]
    assert set(got) == set(ADULT_ORDER)
    for f in ADULT_ORDER:
        pred = np.array([e["classes"][e["predicted"]]["contributions"][f] for e in rows])
        runner = np.array([e["classes"][e["runner_up"]]["contributions"][f] for e in rows])
        mean_abs, mean, against, n = got[f]
        assert n == len(rows) == 16281 // 4
        assert mean_abs == pytest.approx(np.abs(pred).mean(), rel=1e-12)
        assert mean == pytest.approx(pred.mean(), rel=1e-12)
        assert against == pytest.approx(np.abs(pred - runner).mean(), rel=1e-12, abs=1e-15)
    ordered = [r[0] for r in db.execute("SELECT feature FROM madnb.feature_importance('adult_nb', 'some_test')")]
    assert ordered == sorted(ADULT_ORDER, key=lambda f: -got[f][0])


def test_feature_importance_over_the_explanations_jsonb_reads_the_source_once(adult):
    db = adult
    from madnb_pl.models.importance import importance_sql

    text = importance_sql('"madnb_models"."adult_nb_explain"', '"public"."adult_test"')
    plan = plan_of(db, text)
    assert plan.count("Seq Scan on public.adult_test") == 1


@pytest.mark.parametrize(
    "args, sqlstate",
    [
        ("'no_such_model', 'adult_test'", "42704"),
        ("'adult_nb', 'no_such_table'", "42P01"),
        ("NULL, 'adult_test'", "22004"),
    ],
)
def test_feature_importance_refuses_bad_arguments_with_their_sqlstate(adult, args, sqlstate):
    with pytest.raises(psycopg.Error) as e:
        adult.execute(f"SELECT * FROM madnb.feature_importance({args})")
    assert e.value.diag.sqlstate == sqlstate


def test_drop_model_drops_the_explanation_and_replace_rewrites_it_in_place(adult):
    db = adult
    db.execute("CREATE VIEW why AS SELECT t.id, madnb_models.adult_nb_explain(t) AS e FROM adult_test t")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'], smoothing => 2, replace => true)")
    e = db.execute("SELECT e FROM why WHERE id = 3").fetchone()[0]
    assert_exact_sums(db, "adult_nb", "adult_test", "t.id = 3")
    assert e == db.execute("SELECT madnb_models.adult_nb_explain(t) FROM adult_test t WHERE t.id = 3").fetchone()[0]
    db.execute("DROP VIEW why")
    functions = db.execute("SELECT functions FROM madnb._models WHERE name = 'adult_nb'").fetchone()[0]
    assert sum("adult_nb_explain" in f for f in functions) == 2  # both forms, recorded as the model's
    db.execute("SELECT madnb.drop_model('adult_nb')")
    assert db.execute("SELECT count(*) FROM pg_proc WHERE proname LIKE 'adult_nb%'").fetchone()[0] == 0


# --- kinds 'categorical' (mushroom) and 'gaussian' (adult's numeric columns) ----------------------------


def load_mushroom(db: psycopg.Connection[Any]) -> tuple[list[str], list[list[str]]]:
    with open(data_file("mushroom.csv"), newline="") as f:
        rows = list(csv.reader(f))
    cols = [c.replace("-", "_") for c in rows[0]]
    db.execute(f"CREATE TABLE mushroom (id int PRIMARY KEY, {', '.join(c + ' text' for c in cols)})")
    with db.cursor().copy("COPY mushroom FROM STDIN") as cp:
        for i, r in enumerate(rows[1:], start=1):
            cp.write_row((i, *[None if v == "?" else v for v in r]))
    return cols, rows[1:]


def test_categorical_contributions_are_categorical_nbs_feature_log_prob_on_mushroom(db):
    cols, rows = load_mushroom(db)
    label = cols.index("edibility")
    feats = [j for j, c in enumerate(cols) if c not in ("edibility", "stalk_root")]  # stalk_root has missing values
    db.execute("SELECT madnb.train('mush', 'mushroom', 'edibility', exclude => ARRAY['id', 'stalk_root'], kind => 'categorical')")
    x_text = np.array([[r[j] for j in feats] for r in rows])
    y = np.array([r[label] for r in rows])
    enc = OrdinalEncoder().fit(x_text)
    x = enc.transform(x_text).astype(int)
    ref = CategoricalNB(alpha=1.0).fit(x, y)
    classes = list(ref.classes_)
    got = explanations(db, "mush", "mushroom", "t.id % 7 = 0")
    assert len(got) == len(rows) // 7
    for key, e in got:
        for i, c in enumerate(classes):
            part = e["classes"][c]
            assert part["prior"] == pytest.approx(ref.class_log_prior_[i], abs=1e-12)
            for n, j in enumerate(feats):
                assert part["contributions"][cols[j]] == pytest.approx(ref.feature_log_prob_[n][i, x[key - 1, n]], abs=TOL)
        jll = ref.predict_joint_log_proba(x[key - 1:key])[0]
        assert [e["classes"][c]["log_score"] for c in classes] == pytest.approx(list(jll), abs=TOL)
        assert e["predicted"] == ref.predict(x[key - 1:key])[0]
    assert_exact_sums(db, "mush", "mushroom", "t.id % 11 = 0")


def test_gaussian_contributions_are_gaussian_nbs_log_densities_from_theta_and_var(db):
    load_adult(db, "adult")
    db.execute(
        "SELECT madnb.train('adult_g', 'adult', 'income', features => %s, kind => 'gaussian')", [NUMERIC],
    )
    data = db.execute(f"SELECT id, income, {', '.join(NUMERIC)} FROM adult ORDER BY id").fetchall()
    x = np.array([r[2:] for r in data], dtype=np.float64)
    y = np.array([r[1] for r in data])
    ref = GaussianNB().fit(x, y)
    classes = list(ref.classes_)
    for key, e in explanations(db, "adult_g", "adult", "t.id % 101 = 0"):
        xi = x[key - 1]
        for i, c in enumerate(classes):
            part = e["classes"][c]
            assert part["prior"] == pytest.approx(math.log(ref.class_prior_[i]), abs=1e-12)
            want = -0.5 * np.log(2 * np.pi * ref.var_[i]) - 0.5 * (xi - ref.theta_[i]) ** 2 / ref.var_[i]
            got = [part["contributions"][f] for f in NUMERIC]
            np.testing.assert_allclose(got, want, rtol=TOL, atol=TOL)
    assert_exact_sums(db, "adult_g", "adult", "t.id % 211 = 0")


# --- the vector kinds: mushroom as one-hot counts (a dense int4[] and a tsvector) -----------------------


@pytest.fixture
def mushroom_vectors(db: psycopg.Connection[Any]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    with open(data_file("mushroom.csv"), newline="") as f:
        rows = list(csv.reader(f))
    cols = [c.replace("-", "_") for c in rows[0]]
    label = cols.index("edibility")
    tokens = sorted({f"{cols[j]}_{v}" for r in rows[1:] for j, v in enumerate(r) if j != label and v != "?"})
    at = {t: n for n, t in enumerate(tokens)}
    x = np.zeros((len(rows) - 1, len(tokens)), dtype=int)
    for i, r in enumerate(rows[1:]):
        for j, v in enumerate(r):
            if j != label and v != "?":
                x[i, at[f"{cols[j]}_{v}"]] = 1
    y = np.array([r[label] for r in rows[1:]])
    db.execute("CREATE TABLE mvec (id int PRIMARY KEY, edibility text, x int4[], d tsvector)")
    with db.cursor().copy("COPY mvec (id, edibility, x, d) FROM STDIN") as cp:
        for i in range(len(y)):
            cp.write_row((i + 1, y[i], "{" + ",".join(map(str, x[i])) + "}", " ".join(t for t, v in zip(tokens, x[i], strict=True) if v)))
    return x, y, tokens


ESTIMATORS = {"multinomial": MultinomialNB, "bernoulli": BernoulliNB, "complement": ComplementNB}


@pytest.mark.parametrize("kind", sorted(ESTIMATORS))
def test_vector_contributions_are_scikit_learns_feature_log_prob_times_the_counts(db, mushroom_vectors, kind):
    x, y, tokens = mushroom_vectors
    ref = ESTIMATORS[kind]().fit(x, y)
    classes = list(ref.classes_)
    flp = ref.feature_log_prob_
    if kind == "bernoulli":  # jll = log prior + sum(neg) + x . (flp - neg)
        neg = np.log(1 - np.exp(flp))
        weights, const = flp - neg, ref.class_log_prior_ + neg.sum(axis=1)
    elif kind == "complement":  # jll = x . flp (the prior only with one class)
        weights, const = flp, np.zeros(len(classes))
    else:
        weights, const = flp, ref.class_log_prior_
    for column, name in (("x", lambda n: f"x[{n + 1}]"), ("d", lambda n: tokens[n])):
        model = f"mv_{kind}_{column}"
        db.execute(f"SELECT madnb.train('{model}', 'mvec', 'edibility', features => ARRAY['{column}'], kind => '{kind}')")
        for key, e in explanations(db, model, "mvec", "t.id % 13 = 0"):
            xi = x[key - 1]
            jll = ref.predict_joint_log_proba(x[key - 1:key])[0]
            for i, c in enumerate(classes):
                part = e["classes"][c]
                assert part["prior"] == pytest.approx(const[i], abs=TOL)
                want = {name(n): float(weights[i, n] * xi[n]) for n in range(len(tokens)) if column == "x" or xi[n]}
                assert part["contributions"] == pytest.approx(want, abs=TOL)
                assert part["log_score"] == pytest.approx(jll[i], abs=TOL)
            assert e["predicted"] == ref.predict(x[key - 1:key])[0]
        assert_exact_sums(db, model, "mvec", "t.id % 17 = 0")
    plan = plan_of(db, f"SELECT madnb_models.mv_{kind}_x_explain(t) FROM mvec t")
    assert f"mv_{kind}_x_explain" not in plan  # the dense model's explanation is one inlined expression


def test_a_null_vector_has_no_explanation_and_feature_importance_leaves_it_out(db, mushroom_vectors):
    x, y, tokens = mushroom_vectors
    db.execute("SELECT madnb.train('mv', 'mvec', 'edibility', features => ARRAY['d'], kind => 'multinomial')")
    assert db.execute("SELECT madnb_models.mv_explain(NULL::tsvector)").fetchone()[0] is None
    db.execute("UPDATE mvec SET d = NULL WHERE id % 2 = 0")
    rows = {r[0]: r[1:] for r in db.execute("SELECT * FROM madnb.feature_importance('mv', 'mvec')")}
    assert {r[3] for r in rows.values()} == {len(y) - len(y) // 2}
    # a lexeme absent from a row counts 0 in that row's mean
    e = [r[0] for r in db.execute("SELECT madnb_models.mv_explain(t) FROM mvec t WHERE t.d IS NOT NULL")]
    for t in tokens[:5]:
        want = np.mean([abs(r["classes"][r["predicted"]]["contributions"].get(t, 0.0)) for r in e])
        assert rows[t][0] == pytest.approx(want, rel=1e-12)


# --- a model of more than 100 features: the row form only, as the prediction functions ------------------


def test_a_model_of_more_than_100_features_has_the_row_form_only_and_explains_exactly(db):
    rng = np.random.default_rng(3)
    x = rng.integers(0, 3, size=(200, 101))
    y = (x[:, 0] + x[:, 1] > 2).astype(int)
    db.execute(f"CREATE TABLE wide (id int PRIMARY KEY, y int, {', '.join(f'f{j} int' for j in range(101))})")
    with db.cursor().copy("COPY wide FROM STDIN") as cp:
        for i in range(200):
            cp.write_row((i + 1, int(y[i]), *map(int, x[i])))
    db.execute("SELECT madnb.train('wide_nb', 'wide', 'y', exclude => ARRAY['id'], categorical => %s)", [[f"f{j}" for j in range(101)]])
    forms = db.execute(
        "SELECT array_agg(pg_get_function_identity_arguments(oid)) FROM pg_proc WHERE proname = 'wide_nb_explain'"
    ).fetchone()[0]
    assert forms == ["r anyelement"]
    ref = CategoricalNB(alpha=1.0).fit(x, y)
    for key, e in explanations(db, "wide_nb", "wide", "t.id % 9 = 0"):
        jll = ref.predict_joint_log_proba(x[key - 1:key])[0]
        assert [e["classes"][c]["log_score"] for c in ("0", "1")] == pytest.approx(list(jll), abs=TOL)
        for j in range(101):
            assert e["classes"]["1"]["contributions"][f"f{j}"] == pytest.approx(ref.feature_log_prob_[j][1, x[key - 1, j]], abs=TOL)
    assert_exact_sums(db, "wide_nb", "wide", "t.id % 5 = 0")
    plan = plan_of(db, "SELECT madnb_models.wide_nb_explain(t) FROM wide t")
    assert "wide_nb_explain" not in plan and "wide_nb_row_explanation" not in plan and "row_check" not in plan
    db.execute("CREATE TABLE narrow (id int, f0 int)")
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT madnb_models.wide_nb_explain(t) FROM narrow t")
    assert e.value.diag.sqlstate == "42703"


def test_a_model_outside_madnb_models_explains_through_its_own_copy_of_the_helper_as_a_madnb_models_model(db):
    db.execute("CREATE SCHEMA work")
    db.execute("CREATE TABLE pets (id int, kind text, colour text, weight float8)")
    db.execute("INSERT INTO pets SELECT i, (ARRAY['cat', 'dog', 'fish'])[1 + i % 3], (ARRAY['black', 'white'])[1 + i % 2], "
               "i % 7 + (i % 3) * 2.5 FROM generate_series(1, 60) AS i")
    db.execute("SELECT madnb.train('work.pets_nb', 'pets', 'kind', exclude => ARRAY['id'])")
    db.execute("SELECT madnb.train('pets_nb', 'pets', 'kind', exclude => ARRAY['id'])")
    bodies = db.execute("SELECT string_agg(prosrc, ' ') FROM pg_proc WHERE pronamespace = 'work'::regnamespace").fetchone()[0]
    assert "pets_nb_explain_helper" in bodies and "madnb." not in bodies
    got = db.execute("SELECT work.pets_nb_explain(t), madnb_models.pets_nb_explain(t) FROM pets t").fetchall()
    assert all(a == b for a, b in got)
    assert_exact_sums(db, "pets_nb", "pets")
    db.execute("SELECT madnb.drop_model('work.pets_nb')")
    assert db.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = 'work'::regnamespace").fetchone()[0] == 0


def test_objects_planted_on_the_search_path_never_run_inside_an_explanation_or_feature_importance(db, mushroom_vectors):
    db.execute("SELECT madnb.train('mv', 'mvec', 'edibility', features => ARRAY['x'], kind => 'bernoulli')")
    db.execute("SELECT madnb.train('mt', 'mvec', 'edibility', features => ARRAY['d'], kind => 'multinomial')")
    query = "SELECT madnb_models.mv_explain(t), madnb_models.mt_explain(t) FROM mvec t WHERE t.id % 50 = 0 ORDER BY t.id"
    normal = db.execute(query).fetchall()
    db.execute("CREATE VIEW few AS SELECT * FROM mvec WHERE id % 50 = 0")
    importance = db.execute("SELECT * FROM madnb.feature_importance('mv', 'few')").fetchall()
    plant_on_search_path(db, [("generate_series", "int4, int4", "int4"), ("jsonb_agg", "jsonb", "jsonb"),
                              ("jsonb_each", "jsonb", "jsonb"), ("array_agg", "float8", "float8[]"),
                              ("unnest", "float8[]", "float8"), ("unnest", "text[]", "text")])
    assert db.execute(query).fetchall() == normal
    assert db.execute("SELECT * FROM madnb.feature_importance('mv', 'few')").fetchall() == importance


def test_feature_importance_of_a_model_without_its_explanation_says_to_re_train_it(db):
    db.execute("CREATE TABLE pets (id int, kind text, colour text)")
    db.execute("INSERT INTO pets SELECT i, (ARRAY['cat', 'dog'])[1 + i % 2], (ARRAY['black', 'white', 'red'])[1 + i % 3] "
               "FROM generate_series(1, 30) AS i")
    db.execute("SELECT madnb.train('pets_nb', 'pets', 'kind', exclude => ARRAY['id'])")
    db.execute("DROP FUNCTION madnb_models.pets_nb_explain(anyelement)")  # as a model trained by an older madnb
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT * FROM madnb.feature_importance('pets_nb', 'pets')")
    assert e.value.diag.sqlstate == "42883"
    assert "replace => true" in e.value.diag.message_hint


def test_feature_importance_runs_no_cast_of_a_source_column_of_another_type_and_refuses_it_as_explain_does(db):
    # the model is trained on text; the source's column is an enum whose owner defined its own cast to text
    db.execute("CREATE TABLE pets (id int, kind text, colour text, weight float8)")
    db.execute("INSERT INTO pets SELECT i, (ARRAY['cat', 'dog'])[1 + i % 2], (ARRAY['black', 'white', 'red'])[1 + i % 3], "
               "i % 7 FROM generate_series(1, 30) AS i")
    db.execute("SELECT madnb.train('pets_nb', 'pets', 'kind', exclude => ARRAY['id'])")
    db.execute("CREATE TYPE hue AS ENUM ('black', 'white', 'red')")
    db.execute("CREATE FUNCTION planted_hue_text(hue) RETURNS text LANGUAGE plpgsql AS "
               "$$ BEGIN RAISE EXCEPTION 'planted cast ran'; END $$")
    db.execute("CREATE CAST (hue AS text) WITH FUNCTION planted_hue_text(hue)")
    db.execute("CREATE TABLE hued AS SELECT id, kind, colour::hue AS colour, weight FROM pets")
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT * FROM madnb.feature_importance('pets_nb', 'hued')")
    assert e.value.diag.sqlstate == "42883"  # the explanation function takes no such row, as the prediction functions
    assert "planted" not in str(e.value)
    with pytest.raises(psycopg.Error) as p:
        db.execute("SELECT count(madnb_models.pets_nb_predict(t)) FROM hued AS t")
    assert p.value.diag.sqlstate == "42883"
    # the same rows with the trained types: the one SELECT, the same numbers as the explanations' average
    fast = db.execute("SELECT feature, mean_abs_contribution FROM madnb.feature_importance('pets_nb', 'pets')").fetchall()
    assert {f for f, _ in fast} == {"colour", "weight"}


@pytest.mark.parametrize("classes", [64, 65])
def test_models_on_either_side_of_the_inline_bound_explain_alike_and_exactly(db, classes):
    # 4 features: 256 terms are inlined SQL, 260 PL/pgSQL (as the prediction functions); CategoricalNB's numbers either way
    rng = np.random.default_rng(classes)
    x = rng.integers(0, 4, size=(classes * 5, 4))
    y = np.repeat(np.arange(classes), 5)
    db.execute("CREATE TABLE edge (id int PRIMARY KEY, y int, f1 text, f2 text, f3 text, f4 text)")
    with db.cursor().copy("COPY edge FROM STDIN") as cp:
        for i in range(len(y)):
            cp.write_row((i + 1, int(y[i]), *[f"v{v}" for v in x[i]]))
    db.execute("SELECT madnb.train('edge_nb', 'edge', 'y', exclude => ARRAY['id'], kind => 'categorical')")
    language = db.execute(
        "SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang "
        "WHERE p.oid = 'madnb_models.edge_nb_explain(text, text, text, text)'::regprocedure"
    ).fetchone()[0]
    assert language == ("sql" if classes * 4 <= 256 else "plpgsql")
    ref = CategoricalNB(alpha=1.0).fit(x, y)
    codes = {f"v{v}": v for v in range(4)}  # OrdinalEncoder's order of v0..v3 is their value
    for key, e in explanations(db, "edge_nb", "edge", "t.id % 7 = 0"):
        jll = ref.predict_joint_log_proba(x[key - 1:key])[0]
        for i, c in enumerate(ref.classes_):
            part = e["classes"][str(c)]
            assert part["log_score"] == pytest.approx(jll[i], abs=TOL)
            for n, f in enumerate(("f1", "f2", "f3", "f4")):
                assert part["contributions"][f] == pytest.approx(ref.feature_log_prob_[n][i, codes[f"v{x[key - 1, n]}"]], abs=TOL)
    assert_exact_sums(db, "edge_nb", "edge", "t.id % 11 = 0")
    # feature_importance: the terms as float8 at 256 terms, the explanations' jsonb above (as the functions' bodies);
    # on 8 rows: the jsonb explanation of 64 classes costs about 20 ms a row
    db.execute("CREATE VIEW few AS SELECT * FROM edge WHERE id % 40 = 0")
    got = importance(db, "edge_nb", "few")
    assert {r[3] for r in got.values()} == {len(y) // 40}
    if classes * 4 <= 256:
        assert_same_importance(got, jsonb_importance(db, "edge_nb", "few"))


def test_a_value_a_class_never_saw_without_smoothing_contributes_minus_infinity_and_feature_importance_says_so(db):
    db.execute("CREATE TABLE pets (id int, kind text, colour text)")
    db.execute("INSERT INTO pets VALUES (1, 'cat', 'black'), (2, 'cat', 'black'), (3, 'dog', 'white'), (4, 'dog', 'black')")
    db.execute("SELECT madnb.train('pets_nb', 'pets', 'kind', exclude => ARRAY['id'], smoothing => 0)")
    e = db.execute("SELECT madnb_models.pets_nb_explain(colour => 'white')").fetchone()[0]
    assert e["classes"]["cat"]["contributions"]["colour"] == "-Infinity"  # jsonb has no infinite number: its text
    assert e["predicted"] == "dog" and e["classes"]["dog"]["contributions"]["colour"] == pytest.approx(math.log(1 / 2))
    got = db.execute(
        "SELECT feature, mean_abs_contribution, mean_abs_against_runner_up, rows FROM madnb.feature_importance('pets_nb', 'pets')"
    ).fetchall()
    # black: cat, ln 1 = 0 (three rows); white: dog, ln 1/2, and cat's -Infinity against it
    assert got == [("colour", pytest.approx(math.log(2) / 4), math.inf, 4)]


# --- feature_importance: the terms as float8, against scikit-learn and against the explanations' jsonb ---


def jsonb_importance(db: psycopg.Connection[Any], model: str, source: str) -> dict[str, tuple[float, ...]]:
    """feature_importance as the average of every row's jsonb explanation (what madnb computed before it added up
    the terms as float8: madnb_pl.models.importance.importance_sql)."""
    from madnb_pl.models.importance import importance_sql

    rows = db.execute(importance_sql(f"madnb_models.{model}_explain", source))
    return {r[0]: tuple(r[1:]) for r in rows}


def importance(db: psycopg.Connection[Any], model: str, source: str) -> dict[str, tuple[float, ...]]:
    return {r[0]: tuple(r[1:]) for r in db.execute("SELECT * FROM madnb.feature_importance(%s, %s)", [model, source])}


def assert_same_importance(got: dict[str, tuple[float, ...]], want: dict[str, tuple[float, ...]], rel: float = 1e-12) -> None:
    assert set(got) == set(want)
    for f, row in want.items():
        assert got[f][:3] == pytest.approx(row[:3], rel=rel, abs=1e-300), f
        assert got[f][3] == row[3]


def sklearn_importance(contributions: np.ndarray, jll: np.ndarray, features: list[str]) -> dict[str, tuple[float, ...]]:
    """From per-row contributions (rows x classes x features) and joint log-likelihoods (rows x classes): the predicted
    class is the arg-max, the runner-up the best other class (no ties in these data)."""
    order = np.argsort(-jll, axis=1, kind="stable")
    rows = np.arange(len(jll))
    pred = contributions[rows, order[:, 0], :]
    runner = contributions[rows, order[:, 1], :] if jll.shape[1] > 1 else pred
    return {f: (float(np.abs(pred[:, j]).mean()), float(pred[:, j].mean()), float(np.abs(pred[:, j] - runner[:, j]).mean()), len(jll))
            for j, f in enumerate(features)}


def test_feature_importance_is_the_mean_of_contributions_computed_from_scikit_learns_fitted_attributes(db):
    # three classes, so the runner-up is a choice; categorical features with CategoricalNB, numeric ones with GaussianNB
    rng = np.random.default_rng(22)
    n = 300
    y = rng.integers(0, 3, size=n)
    cat = np.stack([(y + rng.integers(0, 3, size=n)) % 4, rng.integers(0, 3, size=n)], axis=1)
    num = np.stack([y * 1.5 + rng.normal(size=n), rng.normal(size=n) * (1 + y)], axis=1)
    db.execute("CREATE TABLE three (id int PRIMARY KEY, y text, c1 text, c2 text, g1 float8, g2 float8)")
    with db.cursor().copy("COPY three FROM STDIN") as cp:
        for i in range(n):
            cp.write_row((i + 1, f"k{y[i]}", f"a{cat[i, 0]}", f"b{cat[i, 1]}", float(num[i, 0]), float(num[i, 1])))
    db.execute("SELECT madnb.train('three_c', 'three', 'y', features => ARRAY['c1', 'c2'], kind => 'categorical')")
    db.execute("SELECT madnb.train('three_g', 'three', 'y', features => ARRAY['g1', 'g2'], kind => 'gaussian')")
    ref = CategoricalNB(alpha=1.0).fit(cat, y)  # a0..a3, b0..b2 sort as their codes
    contributions = np.stack([np.stack([ref.feature_log_prob_[j][:, cat[:, j]].T for j in range(2)], axis=2)], axis=0)[0]
    jll = ref.predict_joint_log_proba(cat)
    assert_same_importance(importance(db, "three_c", "three"), sklearn_importance(contributions, jll, ["c1", "c2"]), rel=1e-9)
    g = GaussianNB().fit(num, y)
    contributions = -0.5 * np.log(2 * np.pi * g.var_)[None, :, :] - 0.5 * (num[:, None, :] - g.theta_[None, :, :]) ** 2 / g.var_[None, :, :]
    jll = g.predict_joint_log_proba(num)
    assert_same_importance(importance(db, "three_g", "three"), sklearn_importance(contributions, jll, ["g1", "g2"]), rel=1e-9)


def test_feature_importance_equals_the_average_of_the_jsonb_explanations_for_every_kind(db):
    rng = np.random.default_rng(7)
    n = 120
    y = rng.integers(0, 3, size=n)
    x = rng.integers(0, 4, size=(n, 5)) + y[:, None]
    db.execute("CREATE TABLE mix (id int PRIMARY KEY, y int, c text, g float8, i int, v int4[], one text)")
    with db.cursor().copy("COPY mix FROM STDIN") as cp:
        for i in range(n):
            # a missing value now and then (it adds nothing), a vector of another length now and then (no explanation)
            c = None if i % 11 == 0 else f"v{x[i, 0]}"
            v = "{1,2}" if i % 13 == 0 else "{" + ",".join(map(str, x[i])) + "}"
            cp.write_row((i + 1, int(y[i]), c, float(x[i, 1]) + 0.25 * i % 3, int(x[i, 2]), v, "only"))
    db.execute("SELECT madnb.train('mix_nb', 'mix', 'y', features => ARRAY['c', 'g', 'i'])")
    db.execute("SELECT madnb.train('mix_c', 'mix', 'y', features => ARRAY['c', 'i'], kind => 'categorical')")
    db.execute("SELECT madnb.train('mix_g', 'mix', 'y', features => ARRAY['g', 'i'], kind => 'gaussian')")
    db.execute("SELECT madnb.train('mix_one', 'mix', 'one', features => ARRAY['c', 'g'])")  # one class: no runner-up
    db.execute("CREATE VIEW mix_five AS SELECT * FROM mix WHERE cardinality(v) = 5")  # training refuses other lengths
    for kind in ESTIMATORS:
        db.execute(f"SELECT madnb.train('mix_{kind}', 'mix_five', 'y', features => ARRAY['v'], kind => '{kind}')")
    for model in ["mix_nb", "mix_c", "mix_g", "mix_one"] + [f"mix_{k}" for k in ESTIMATORS]:
        got = importance(db, model, "mix")
        assert_same_importance(got, jsonb_importance(db, model, "mix"))
        assert list(got) == sorted(got, key=lambda f: (-got[f][0], f))
    assert {r[3] for r in importance(db, "mix_multinomial", "mix").values()} == {n - len(range(0, n, 13))}
    assert {r[2] for r in importance(db, "mix_one", "mix").values()} == {0.0}
    db.execute("CREATE TABLE nothing (LIKE mix)")
    assert importance(db, "mix_nb", "nothing") == {} == jsonb_importance(db, "mix_nb", "nothing")


def test_feature_importance_reads_the_source_once_with_no_explanation_function_and_no_jsonb(adult):
    db = adult
    notes: list[str] = []
    db.add_notice_handler(lambda d: notes.append(d.message_primary or ""))
    db.execute("LOAD 'auto_explain'")
    for name, value in (("auto_explain.log_min_duration", "0"), ("auto_explain.log_nested_statements", "on"),
                        ("auto_explain.log_level", "notice"), ("auto_explain.log_verbose", "on")):
        db.execute("SELECT set_config(%s, %s, false)", (name, value))
    db.execute("SELECT * FROM madnb.feature_importance('adult_nb', 'adult_test')")
    plan = max((n for n in notes if "adult_test" in n), key=len)
    assert plan.count("Seq Scan on public.adult_test") == 1
    assert "_nb_runner_up" in plan and "_nb_best" in plan
    assert "adult_nb_explain" not in plan and "_nb_explain" not in plan and "jsonb_each" not in plan

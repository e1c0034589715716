"""madnb.cross_validate and madnb.fold (issue 12, point 4): k-fold cross-validation in the database.

The folds are recomputed in the test from madnb.fold's documented formula
(:func:`fold_of`); the expected metrics come from scikit-learn on those folds
(mushroom: CategoricalNB fitted per fold complement, its log-probabilities summed
with numpy), or from an independent path in the database (madnb.train and
madnb.evaluate on each fold complement and fold, as tables).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn.feature_extraction import DictVectorizer
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, ComplementNB, MultinomialNB
from sklearn.preprocessing import OrdinalEncoder
from test_evaluate import assert_close, expected, load_mushroom

from conftest import ROOT, data_file
from golden_files import REGEN
from models_helpers import load_adult


def fold_of(key: Any, folds: int, seed: int = 0) -> int:
    """madnb.fold's documented formula, recomputed here: int(md5(seed:key)[0:8], 16) % folds + 1."""
    return int(hashlib.md5(f"{seed}:{key}".encode()).hexdigest()[:8], 16) % folds + 1


def cross_validate(db: psycopg.Connection[Any], *args: Any, **kwargs: Any) -> dict[str, dict[str, Any]]:
    """madnb.cross_validate's rows as {fold: metrics}."""
    marks = ", ".join(["%s"] * len(args) + [f"{k} => %s" for k in kwargs])
    rows = db.execute(f"SELECT fold, metrics FROM madnb.cross_validate({marks})", [*args, *kwargs.values()]).fetchall()
    return dict(rows)


def softmax(jll: np.ndarray) -> np.ndarray:
    z = np.exp(jll - jll.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def test_madnb_fold_is_the_documented_formula_for_text_and_integer_keys(db):
    for seed in (0, 7, -3):
        for folds in (2, 5, 10):
            got = db.execute(
                "SELECT i, madnb.fold(i, %s, %s), madnb.fold('k' || i, %s, %s) FROM generate_series(1, 200) i",
                [folds, seed, folds, seed],
            ).fetchall()
            assert [(g[1], g[2]) for g in got] == [(fold_of(i, folds, seed), fold_of(f"k{i}", folds, seed)) for i, *_ in got]
    # the default seed is 0; a NULL key has no fold; a non-ASCII key is hashed as UTF-8
    assert db.execute("SELECT madnb.fold('x', 3)").fetchone()[0] == fold_of("x", 3)
    assert db.execute("SELECT madnb.fold(NULL::text, 3)").fetchone()[0] is None
    assert db.execute("SELECT madnb.fold('grüße', 7, 1)").fetchone()[0] == fold_of("grüße", 7, 1)


def test_madnb_fold_is_inlined_into_the_query_that_calls_it(db):
    plan = db.execute("EXPLAIN (VERBOSE) SELECT madnb.fold(i, 5, 1) FROM generate_series(1, 3) i").fetchall()
    text = "\n".join(r[0] for r in plan)
    assert "md5" in text and "fold(" not in text


@pytest.mark.parametrize("folds, seed, state", [(0, 0, "22023"), (-1, 0, "22023"), (None, 0, "22004"), (3, None, "22004")])
def test_madnb_fold_refuses_fewer_than_one_fold_and_null_arguments(db, folds, seed, state):
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT madnb.fold('a', %s::int, %s::int)", [folds, seed])
    assert e.value.diag.sqlstate == state


def categorical_nb_fold_jll(train: list[list[Any]], y_train: list[str], test: list[list[Any]], classes: list[str]) -> np.ndarray:
    """Joint log-likelihoods of ``test`` under CategoricalNB(alpha=1) fitted on ``train``, per feature.

    madnb (as MADlib) smooths over the values of an attribute seen in the training
    rows and skips a missing (NULL) or unseen value; CategoricalNB has no missing
    values and fails on an unseen one.  So each feature is fitted on its own, on
    the training rows where it is present, with the categories seen there
    (n_categories = distinct values seen, as madnb's attr_cnt); the test sums
    CategoricalNB's feature_log_prob_ over the present, seen values, plus its
    class_log_prior_.
    """
    y = np.array(y_train)
    prior = CategoricalNB(alpha=1).fit(np.zeros((len(y), 1), dtype=int), y)
    assert list(prior.classes_) == classes
    jll = np.tile(prior.class_log_prior_, (len(test), 1))
    for j in range(len(train[0])):
        present = [i for i, r in enumerate(train) if r[j] is not None]
        enc = OrdinalEncoder().fit(np.array([[train[i][j]] for i in present], dtype=object))
        nb = CategoricalNB(alpha=1).fit(enc.transform(np.array([[train[i][j]] for i in present], dtype=object)).astype(int), y[present])
        assert list(nb.classes_) == classes
        code = {v: c for c, v in enumerate(enc.categories_[0])}
        for i, r in enumerate(test):
            if r[j] is not None and r[j] in code:
                jll[i] += nb.feature_log_prob_[0][:, code[r[j]]]
    return jll


def test_mushroom_cross_validated_gives_scikit_learns_categorical_nb_metrics_on_the_same_folds(db):
    load_mushroom(db)
    got = cross_validate(db, "mushroom", "edibility", folds=5, seed=42, exclude=["id"], key="id")
    cur = db.execute("SELECT * FROM mushroom ORDER BY id")
    names = [d.name for d in cur.description]
    rows = cur.fetchall()
    feats = [i for i, n in enumerate(names) if n not in ("id", "edibility")]
    label, ident = names.index("edibility"), names.index("id")
    fold = [fold_of(r[ident], 5, 42) for r in rows]
    assert [f for (f,) in db.execute("SELECT madnb.fold(id, 5, 42) FROM mushroom ORDER BY id")] == fold
    classes = sorted({r[label] for r in rows})
    assert list(got) == ["1", "2", "3", "4", "5", "mean"]
    per_fold = []
    for f in range(1, 6):
        train = [r for r, g in zip(rows, fold, strict=True) if g != f]
        test = [r for r, g in zip(rows, fold, strict=True) if g == f]
        jll = categorical_nb_fold_jll([[r[j] for j in feats] for r in train], [r[label] for r in train],
                                      [[r[j] for j in feats] for r in test], classes)
        proba = softmax(jll)
        y_pred = [classes[i] for i in jll.argmax(axis=1)]
        want = expected(classes, [r[label] for r in test], y_pred, proba)
        assert_close(got[str(f)], want, f"fold {f}")
        per_fold.append(want)
    mean = got["mean"]
    assert mean["folds"] == 5 and mean["rows"] == len(rows) and mean["classes"] == classes
    for name in ("accuracy", "balanced_accuracy", "log_loss", "roc_auc"):
        assert mean[name] == pytest.approx(np.mean([w[name] for w in per_fold]), abs=1e-12, rel=0), name
    assert mean["macro_avg"]["f1"] == pytest.approx(np.mean([w["macro_avg"]["f1"] for w in per_fold]), abs=1e-12, rel=0)
    assert mean["confusion_matrix"] == np.sum([w["confusion_matrix"] for w in per_fold], axis=0).tolist()
    # the pooled confusion matrix is every row once: scored by the model that did not see it
    assert mean["support"] == [sum(r[label] == c for r in rows) for c in classes]


def test_a_mixed_model_cross_validated_equals_train_and_evaluate_on_each_fold_complement(db):
    """adult (Gaussian and categorical columns, missing values): the independent path is madnb.train on the
    complement table and madnb.evaluate on the fold table, for each fold."""
    load_adult(db, "adult_all")
    db.execute("CREATE TABLE adult AS SELECT * FROM adult_all WHERE id <= 6000")
    got = cross_validate(db, "adult", "income", folds=4, seed=3, exclude=["id"], key="id", smoothing=0.5)
    assert list(got) == ["1", "2", "3", "4", "mean"]
    assert_folds_are_train_and_evaluate(db, got, "adult", "income", 4, 3, ", smoothing => 0.5")
    assert all(got[str(f)]["roc_auc"] is not None for f in range(1, 5))


def assert_folds_are_train_and_evaluate(
    db: psycopg.Connection[Any], got: dict[str, dict[str, Any]], table: str, label: str, folds: int, seed: int, options: str = "",
) -> None:
    """Each fold's metrics in ``got`` are madnb.evaluate's on the fold of madnb.train's model of its complement (the
    rows of ``table`` by ``madnb.fold(id, folds, seed)``, as tables; ``options``: more of madnb.train's arguments)."""
    for f in range(1, folds + 1):
        db.execute(f"CREATE TABLE comp{f} AS SELECT * FROM {table} WHERE madnb.fold(id, {folds}, {seed}) <> {f}")
        db.execute(f"CREATE TABLE held{f} AS SELECT * FROM {table} WHERE madnb.fold(id, {folds}, {seed}) = {f}")
        db.execute(f"SELECT madnb.train('cv{f}', 'comp{f}', '{label}', exclude => ARRAY['id']{options})")
        want = db.execute(f"SELECT madnb.evaluate('cv{f}', 'held{f}')").fetchone()[0]
        assert_close(got[str(f)], want, f"fold {f}")


def test_a_class_missing_from_a_fold_complement_has_probability_zero_there_and_is_never_predicted(db):
    # 'rare' has one row: the model trained without its fold knows no 'rare'
    db.execute("CREATE TABLE t (id int, y text, x float8, c text)")
    db.execute(
        "INSERT INTO t SELECT i, CASE WHEN i = 1 THEN 'rare' WHEN i % 2 = 0 THEN 'a' ELSE 'b' END, "
        "(i % 2) * 3 + (i % 5) * 0.5, (ARRAY['p', 'q', 'r'])[1 + i % 3] FROM generate_series(1, 40) i"
    )
    got = cross_validate(db, "t", "y", folds=3, key="id")
    f = str(fold_of(1, 3))
    m = got[f]
    assert m["classes"] == ["a", "b", "rare"]
    assert m["confusion_matrix"][2] == [m["confusion_matrix"][2][0], m["confusion_matrix"][2][1], 0]
    assert [row[2] for row in m["confusion_matrix"]] == [0, 0, 0] and m["support"][2] == 1
    # its row's probability of 'rare' is 0, clipped to eps in the log-loss as scikit-learn clips it
    assert m["log_loss"] * m["rows"] >= -np.log(np.finfo(np.float64).eps) - 1e-9


def test_the_default_key_is_the_rows_text_form(db):
    db.execute("CREATE TABLE pets (name text, legs int, kind text)")
    db.execute(
        "INSERT INTO pets SELECT 'pet' || i, (i % 3) * 2, CASE WHEN i % 3 = 0 THEN 'fish' ELSE 'dog' END "
        "FROM generate_series(1, 60) i"
    )
    db.execute("ALTER TABLE pets ADD COLUMN id int GENERATED ALWAYS AS IDENTITY")
    db.execute("CREATE VIEW pets_keyed AS SELECT p.*, p::text AS row_text FROM pets p")
    by_row = cross_validate(db, "pets", "kind", folds=3, features=["legs"])
    by_key = cross_validate(db, "pets_keyed", "kind", folds=3, features=["legs"], key="row_text")
    assert by_row == by_key
    sizes = db.execute("SELECT madnb.fold(p::text, 3, 0) AS f, count(*) FROM pets p GROUP BY 1 ORDER BY 1").fetchall()
    assert [by_row[str(f)]["rows"] for f, _ in sizes] == [n for _, n in sizes]


def test_cross_validation_reads_the_source_once_for_statistics_and_once_to_score(db):
    db.execute("CREATE TABLE s (id int, y text, x float8, c text, k int)")
    db.execute("INSERT INTO s SELECT i, (ARRAY['a','b'])[1 + i % 2], i % 7, (ARRAY['p','q'])[1 + i % 3 % 2], i % 4 FROM generate_series(1, 100) i")
    db.execute("SET max_parallel_workers_per_gather = 0")

    def scans(call: str) -> int:
        with db.transaction():
            before = db.execute("SELECT pg_stat_get_xact_numscans('s'::regclass)").fetchone()[0]
            db.execute(call)
            return db.execute("SELECT pg_stat_get_xact_numscans('s'::regclass)").fetchone()[0] - before

    train_scans = scans("SELECT madnb.train('s_nb', 's', 'y', exclude => ARRAY['id'])")
    cv_scans = scans("SELECT * FROM madnb.cross_validate('s', 'y', exclude => ARRAY['id'], key => 'id')")
    assert train_scans == 2  # Gaussian and integer columns in one part, the text column's counts in another
    # one statistics scan: the per-class part is a grouping set of the text column's counts (each row's fold computed
    # once), and one scoring pass
    assert cv_scans == 2


@pytest.mark.parametrize(("gaussian", "texts", "statistics_scans"), [(3, 4, 1), (11, 10, 2)])
def test_both_forms_of_the_per_fold_pass_equal_train_and_evaluate_on_each_fold_complement(db, gaussian, texts, statistics_scans):
    """Up to 100 Gaussian x text features the per-class part (row counts, Gaussian moments) is one more grouping set of
    the text columns' counts (one scan); above, a scan of its own.  Both give each fold the model madnb.train trains
    on its complement (missing values included), as madnb.evaluate scores it on the fold."""
    cols = [f"g{j} float8" for j in range(1, gaussian + 1)] + [f"c{j} text" for j in range(1, texts + 1)]
    db.execute(f"CREATE TABLE s (id int, y text, {', '.join(cols)})")
    gs = [f"CASE WHEN i % {7 + j} = 0 THEN NULL ELSE 10 * {j} + (i * {j}) % 13 + (i % 3) * 0.25 END" for j in range(1, gaussian + 1)]
    cs = [f"CASE WHEN i % {5 + j} = 0 THEN NULL ELSE 'v' || (i * {j} + i / 7) % {2 + j} END" for j in range(1, texts + 1)]
    db.execute(f"INSERT INTO s SELECT i, (ARRAY['a','b','c'])[1 + i % 3], {', '.join(gs + cs)} FROM generate_series(1, 600) i")
    db.execute("SET max_parallel_workers_per_gather = 0")
    with db.transaction():
        before = db.execute("SELECT pg_stat_get_xact_numscans('s'::regclass)").fetchone()[0]
        got = cross_validate(db, "s", "y", folds=3, seed=5, exclude=["id"], key="id")
        scans = db.execute("SELECT pg_stat_get_xact_numscans('s'::regclass)").fetchone()[0] - before
    assert scans == statistics_scans + 1  # and one scoring pass
    assert_folds_are_train_and_evaluate(db, got, "s", "y", 3, 5)


def test_parallel_workers_compute_the_fold_of_the_text_columns_counts(db):
    # the fold (md5 of the row's text form by default) is per-row work; the grouping sets that count the text
    # columns take no parallel workers, so the fold is computed below a Gather, in a worker, not above it; and
    # once per row: the per-class counts and Gaussian moments are one more grouping set, not a scan of their own
    db.execute("CREATE TABLE s (y text, x float8, c text, d text)")
    db.execute("INSERT INTO s SELECT (ARRAY['a','b'])[1 + i % 2], i % 7, (ARRAY['p','q'])[1 + i % 3 % 2], 'v' || i % 5 "
               "FROM generate_series(1, 5000) i")
    db.execute("ANALYZE s")
    db.execute("SET parallel_setup_cost = 0")
    db.execute("SET min_parallel_table_scan_size = 0")
    db.execute("LOAD 'auto_explain'")
    db.execute("SET auto_explain.log_min_duration = 0")
    db.execute("SET auto_explain.log_nested_statements = on")
    db.execute("SET auto_explain.log_verbose = on")
    db.execute("SET auto_explain.log_level = notice")
    plans: list[str] = []
    db.add_notice_handler(lambda d: plans.append(d.message_primary or ""))
    db.execute("SELECT * FROM madnb.cross_validate('s', 'y', folds => 3)")
    db.execute("SET auto_explain.log_min_duration = -1")
    [stats] = [p for p in plans if "GROUPING SETS" in p and "madnb_colstats_" in p]
    plan = stats[stats.index("Subquery Scan on g"):]
    assert plan.count("Seq Scan on public.s") == 1, plan  # one scan computes the fold
    lines = plan[plan.index("->  Gather"):].splitlines()
    scan = next(i for i, line in enumerate(lines) if "Parallel Seq Scan" in line)
    assert "Output:" in lines[scan + 1] and "md5" in lines[scan + 1], plan  # what the worker computes
    assert db.execute("SELECT current_setting('parallel_tuple_cost')").fetchone()[0] == "0.1"  # the caller's again


def relations(db: psycopg.Connection[Any]) -> list[str]:
    return [r[0] for r in db.execute(
        "SELECT c.oid::regclass::text FROM pg_class c WHERE c.relnamespace = pg_my_temp_schema() "
        "OR c.relnamespace IN ('madnb_statistics'::regnamespace, 'madnb_models'::regnamespace) ORDER BY 1"
    )]


def test_a_call_leaves_nothing_behind_whether_it_succeeds_or_fails(db):
    db.execute("CREATE TABLE s (id int, y text, x float8, c text)")
    db.execute("INSERT INTO s SELECT i, (ARRAY['a','b'])[1 + i % 2], i % 7, (ARRAY['p','q'])[1 + i % 3 % 2] FROM generate_series(1, 50) i")
    before = relations(db)
    db.execute("SELECT * FROM madnb.cross_validate('s', 'y', exclude => ARRAY['id'], key => 'id')")
    assert relations(db) == before
    db.execute("UPDATE s SET x = 'Infinity' WHERE id = 3")
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT * FROM madnb.cross_validate('s', 'y', exclude => ARRAY['id'], key => 'id')")
    assert e.value.diag.sqlstate == "22003"
    assert relations(db) == before
    # inside a transaction that goes on after the call: the temporary tables are gone too
    with db.transaction():
        db.execute("UPDATE s SET x = 1 WHERE id = 3")
        db.execute("SELECT * FROM madnb.cross_validate('s', 'y', exclude => ARRAY['id'], key => 'id')")
        assert relations(db) == before


@pytest.mark.parametrize(
    "kwargs, state",
    [
        ({"folds": 1}, "22023"),
        ({"folds": 101}, "22023"),
        ({"folds": 31}, "22023"),  # more folds than labelled rows
        ({"folds": None}, "22004"),
        ({"seed": None}, "22004"),
        ({"features": ["nope"]}, "42703"),
        ({"key": "nope"}, "42703"),
        ({"key": "maybe"}, "22004"),  # a NULL key
        ({"folds": 29}, "22023"),  # a fold without rows (30 folds of 30 rows is leave-one-out)
        ({"smoothing": -1}, "22023"),
        ({"exclude": ["id"], "features": ["x"]}, "22023"),
    ],
)
def test_bad_arguments_are_refused_with_their_sqlstate(db, kwargs, state):
    db.execute("CREATE TABLE s (id int, y text, x float8, maybe int)")
    db.execute("INSERT INTO s SELECT i, (ARRAY['a','b'])[1 + i % 2], i, nullif(i, 4) FROM generate_series(1, 30) i")
    args = {"key": "id", "features": ["x"], **kwargs}
    with pytest.raises(psycopg.Error) as e:
        cross_validate(db, "s", "y", **args)
    assert e.value.diag.sqlstate == state, e.value.diag.message_primary
    assert e.value.diag.message_primary == e.value.diag.message_primary.lower()[:1] + e.value.diag.message_primary[1:]


def test_an_unknown_source_or_label_is_refused(db):
    db.execute("CREATE TABLE s (id int, y text, x float8)")
    for args, state in ((("nope", "y"), "42P01"), (("s", "nope"), "42703")):
        with pytest.raises(psycopg.Error) as e:
            cross_validate(db, *args)
        assert e.value.diag.sqlstate == state


def test_a_role_given_grant_usage_cross_validates_with_the_same_figures(db):
    db.execute("CREATE TABLE s (id int, y text, x float8, c text)")
    db.execute("INSERT INTO s SELECT i, (ARRAY['a','b'])[1 + i % 2], i % 7, (ARRAY['p','q'])[1 + i % 3 % 2] FROM generate_series(1, 50) i")
    want = cross_validate(db, "s", "y", exclude=["id"], key="id")
    db.execute("CREATE ROLE nb_carol; GRANT SELECT ON s TO nb_carol; SELECT madnb.grant_usage('nb_carol')")
    db.execute("SET ROLE nb_carol")
    try:
        assert cross_validate(db, "s", "y", exclude=["id"], key="id") == want
    finally:
        db.execute("RESET ROLE")


def test_a_hostile_search_path_changes_nothing(db):
    db.execute("CREATE TABLE s (id int, y text, x float8, c text)")
    db.execute("INSERT INTO s SELECT i, (ARRAY['a','b'])[1 + i % 2], i % 7, (ARRAY['p','q'])[1 + i % 3 % 2] FROM generate_series(1, 50) i")
    want = cross_validate(db, "s", "y", exclude=["id"], key="id")
    db.execute("CREATE SCHEMA evil")
    db.execute(
        "CREATE FUNCTION evil.md5(text) RETURNS text LANGUAGE sql AS $$ SELECT '00000000' $$; "
        "CREATE FUNCTION evil.substr(text, int, int) RETURNS text LANGUAGE sql AS $$ SELECT '00000000' $$"
    )
    db.execute("SET search_path = evil, public, madnb, pg_catalog")
    assert cross_validate(db, "s", "y", exclude=["id"], key="id") == want


EXAMPLE = ROOT / "docs" / "examples" / "student_alcohol.md"


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def run_psql(db: psycopg.Connection[Any], sql: str) -> None:
    """Run a psql block with psql itself, started in the repository's folder (as the page says: ../shared/data)."""
    data_file("student_mat.csv")  # skips without the data
    psql = shutil.which("psql")
    if psql is None:
        pytest.skip("psql is not installed")
    info = db.info
    subprocess.run(
        [psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", info.host, "-p", str(info.port), "-U", info.user, "-d", info.dbname],
        input=sql, text=True, check=True, cwd=EXAMPLE.parents[2], capture_output=True,
    )


def seed_method_accuracy(db: psycopg.Connection[Any]) -> float:
    """Seed 001's classifier on its own folds (KFold(5), no shuffle, math rows then Portuguese), in float64.

    (count + 1) / class size per categorical value (LabelEncoder codes of the whole
    data), exp(-z**2 / 2) / (2 pi var) with the population variance per Gaussian
    column, times the class proportion; the argmax (in log space here: float64
    products of 28 factors do not underflow, the seed's float32 ones may).
    """
    cur = db.execute("SELECT * FROM student ORDER BY id")
    names = [d.name for d in cur.description]
    data = cur.fetchall()
    gaussian = ["age", "traveltime", "studytime", "failures", "famrel", "freetime", "goout", "health", "absences", "grade"]
    feats = [n for n in names if n not in ("id", "alc")]
    cols = []
    for n in feats:
        v = [r[names.index(n)] for r in data]
        if n not in gaussian and isinstance(v[0], str):
            codes = {c: i for i, c in enumerate(sorted(set(v)))}
            v = [codes[x] for x in v]
        cols.append(np.array(v, dtype=np.float64))
    X = np.stack(cols, axis=1)
    y = np.array([{"little": 0, "moderate": 1, "severe": 2}[r[names.index("alc")]] for r in data])
    is_cat = [n not in gaussian for n in feats]
    n = len(y)
    bounds = [n // 5 * i + min(i, n % 5) for i in range(6)]  # KFold(5)'s contiguous folds
    correct = 0
    for f in range(5):
        test = np.zeros(n, dtype=bool)
        test[bounds[f]:bounds[f + 1]] = True
        Xt, yt = X[~test], y[~test]
        score = np.zeros((test.sum(), 3))
        for c in range(3):
            e = Xt[yt == c]
            score[:, c] = np.log(len(e) / len(yt))
            for j in range(X.shape[1]):
                x = X[test, j]
                if is_cat[j]:
                    p = np.array([(e[:, j] == k).sum() + 1 for k in range(int(Xt[:, j].max()) + 1)]) / len(e)
                    score[:, c] += np.log(p[x.astype(int)])
                else:
                    m, var = e[:, j].mean(), e[:, j].var()
                    score[:, c] += -np.log(2 * np.pi * var) - 0.5 * (x - m) ** 2 / var
        correct += int((score.argmax(axis=1) == y[test]).sum())
    return correct / n


def replace_section(text: str, name: str, body: str) -> str:
    start = text.index(f"<!-- {name}:")
    start = text.index("-->\n", start) + 4
    end = text.index(f"<!-- /{name} -->")
    return text[:start] + body + text[end:]


def section(text: str, name: str) -> str:
    start = text.index("-->\n", text.index(f"<!-- {name}:")) + 4
    return text[start:text.index(f"<!-- /{name} -->")]


def test_the_student_alcohol_example_runs_and_its_figures_are_madnbs_and_scikit_learns_on_the_same_folds(db):
    text = EXAMPLE.read_text()
    load, call = blocks(text, "sql")
    run_psql(db, load)
    assert db.execute("SELECT count(*) FROM student").fetchone()[0] == 1044
    shown = db.execute(call).fetchall()
    got = cross_validate(db, "student", "alc", exclude=["id"], categorical=["medu", "fedu"], folds=5, seed=0, key="id")
    # the Python of the page, run as it is: scikit-learn on the same folds
    scope: dict[str, Any] = {"conn": db, "print": lambda *a: None}
    exec(compile(blocks(text, "python")[0], str(EXAMPLE), "exec"), scope)
    sk, madlib_var = scope["sklearn_scores"], scope["madlib_variance_scores"]
    for f in range(1, 6):
        m = got[str(f)]
        mine = {"accuracy": m["accuracy"], "balanced_accuracy": m["balanced_accuracy"],
                "macro_f1": m["macro_avg"]["f1"], "log_loss": m["log_loss"]}
        for name, value in mine.items():
            assert value == pytest.approx(madlib_var[name][f - 1], abs=1e-12, rel=0), (f, name)
    results = "\n| fold | accuracy | balanced_accuracy | macro_f1 | log_loss | rows |\n|---|---|---|---|---|---|\n" + "".join(
        f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]} |\n" for r in shown
    ) + "\n"
    mean = got["mean"]
    figures = (
        "\n| 5-fold mean | accuracy | balanced accuracy | macro F1 | log-loss |\n|---|---|---|---|---|\n"
        f"| madnb.cross_validate | {mean['accuracy']:.4f} | {mean['balanced_accuracy']:.4f} | "
        f"{mean['macro_avg']['f1']:.4f} | {mean['log_loss']:.4f} |\n"
        + "".join(
            f"| {label} | " + " | ".join(f"{np.mean(s[k]):.4f}" for k in ("accuracy", "balanced_accuracy", "macro_f1", "log_loss")) + " |\n"
            for label, s in (("scikit-learn, MADlib's variance", madlib_var), ("scikit-learn as is (GaussianNB + CategoricalNB)", sk))
        )
        + f"| seed 001's classifier, its own folds (float64) | {seed_method_accuracy(db):.4f} | | | |\n\n"
    )
    if REGEN:
        EXAMPLE.write_text(replace_section(replace_section(text, "results", results), "figures", figures))
    else:
        assert section(text, "results") == results, "regenerate: MADNB_REGEN_GOLDEN=1 pytest tests/models/test_cross_validate.py -k student"
        assert section(text, "figures") == figures


def test_labels_whose_session_text_form_is_inexact_or_ambiguous_still_match_their_classes(db):
    # a float8 label printed with extra_float_digits = 0 and a timestamptz printed with SQL style and an
    # ambiguous zone abbreviation (IST) do not read back as the same value: madnb pins its own text forms
    db.execute("CREATE TABLE thirds (id int, y float8, a text)")
    db.execute("INSERT INTO thirds SELECT i, CASE WHEN i % 2 = 0 THEN 1.0 / 3 ELSE 2.0 / 3 END, "
               "CASE WHEN i % 2 = 0 THEN 'even' ELSE 'odd' END FROM generate_series(1, 100) i")
    db.execute("CREATE TABLE stamps (id int, y timestamptz, a text)")
    db.execute("INSERT INTO stamps SELECT i, CASE WHEN i % 2 = 0 THEN timestamptz '2020-03-01 10:00+00' "
               "ELSE timestamptz '2021-03-01 10:00+00' END, CASE WHEN i % 2 = 0 THEN 'even' ELSE 'odd' END "
               "FROM generate_series(1, 100) i")
    db.execute("SET extra_float_digits = 0")
    db.execute("SET DateStyle = 'SQL, DMY'")
    db.execute("SET TimeZone = 'Asia/Kolkata'")
    for table in ("thirds", "stamps"):
        mean = db.execute(
            f"SELECT metrics FROM madnb.cross_validate('{table}', 'y', ARRAY['a'], folds => 2, key => 'id') WHERE fold = 'mean'"
        ).fetchone()[0]
        assert (mean["accuracy"], mean["unknown_label_rows"]) == (1.0, 0), table
        db.execute(f"SELECT madnb.train('{table}_nb', '{table}', 'y', ARRAY['a'])")
        assert db.execute(f"SELECT count(*) FROM {table} t WHERE madnb_models.{table}_nb_predict(t) = t.y").fetchone()[0] == 100
        assert db.execute(f"SELECT (madnb.evaluate('{table}_nb', '{table}')->>'accuracy')::float8").fetchone()[0] == 1.0
    # and the session's settings are the caller's again
    assert db.execute("SELECT current_setting('extra_float_digits'), current_setting('DateStyle')").fetchone() == ("0", "SQL, DMY")


def test_the_default_key_is_the_whole_row_even_when_a_column_is_named_t(db):
    db.execute("CREATE TABLE tt (t int, y text, a text, note text)")
    db.execute("INSERT INTO tt SELECT i % 3, CASE WHEN i % 2 = 0 THEN 'x' ELSE 'z' END, "
               "CASE WHEN i % 2 = 0 THEN 'p' ELSE 'q' END, 'row ' || i FROM generate_series(1, 200) i")
    rows = db.execute("SELECT fold, metrics FROM madnb.cross_validate('tt', 'y', ARRAY['a'], folds => 5)").fetchall()
    expected = db.execute("SELECT madnb.fold((r.*)::text, 5, 0) AS f, count(*) FROM tt AS r GROUP BY 1 ORDER BY 1").fetchall()
    assert [(r[0], r[1]["rows"]) for r in rows[:-1]] == [(str(f), n) for f, n in expected]


def test_the_gaussian_kind_cross_validates_as_scikit_learns_gaussian_nb_on_the_same_folds(db):
    from sklearn.datasets import load_iris
    from sklearn.naive_bayes import GaussianNB

    iris = load_iris()
    X, y = iris.data, [str(iris.target_names[t]) for t in iris.target]
    db.execute("CREATE TABLE iris (id int PRIMARY KEY, a float8, b float8, c float8, d float8, species text)")
    with db.cursor().copy("COPY iris FROM STDIN") as copy:
        for i, (row, label) in enumerate(zip(X, y, strict=True)):
            copy.write_row((i, *[float(v) for v in row], label))
    rows = {r[0]: r[1] for r in db.execute(
        "SELECT fold, metrics FROM madnb.cross_validate('iris', 'species', exclude => ARRAY['id'], folds => 5, "
        """key => 'id', kind => 'gaussian', options => '{"var_smoothing": 1e-3}')"""
    ).fetchall()}
    folds = np.array([fold_of(i, 5) for i in range(len(y))])
    classes = sorted(set(y))
    for f in range(1, 6):
        train, test = folds != f, folds == f
        nb = GaussianNB(var_smoothing=1e-3).fit(X[train], np.array(y)[train])
        assert list(nb.classes_) == classes
        want = expected(classes, list(np.array(y)[test]), list(nb.predict(X[test])), nb.predict_proba(X[test]))
        assert_close(rows[str(f)], want)


def test_the_categorical_kind_cross_validates_as_train_and_evaluate_on_each_fold(db):
    db.execute("CREATE TABLE pets (id int PRIMARY KEY, colour text, size text, kind text)")
    db.execute("INSERT INTO pets SELECT i, (ARRAY['red','green','blue'])[1 + i % 3], (ARRAY['s','m','l','xl'])[1 + (i * 7) % 4], "
               "CASE WHEN i % 5 < 2 THEN 'cat' ELSE 'dog' END FROM generate_series(1, 300) i")
    options = '{"alpha": 0.5, "min_categories": 6, "fit_prior": false}'
    got = {r[0]: r[1] for r in db.execute(
        "SELECT fold, metrics FROM madnb.cross_validate('pets', 'kind', exclude => ARRAY['id'], folds => 3, key => 'id', "
        "kind => 'categorical', options => %s::jsonb)", [options]).fetchall()}
    for f in range(1, 4):
        db.execute(f"CREATE TABLE pets_in{f} AS SELECT * FROM pets WHERE madnb.fold(id, 3) <> {f}")
        db.execute(f"CREATE TABLE pets_out{f} AS SELECT * FROM pets WHERE madnb.fold(id, 3) = {f}")
        db.execute(f"SELECT madnb.train('pets_c{f}', 'pets_in{f}', 'kind', exclude => ARRAY['id'], kind => 'categorical', "
                   "options => %s::jsonb)", [options])
        want = db.execute(f"SELECT madnb.evaluate('pets_c{f}', 'pets_out{f}')").fetchone()[0]
        assert_close(got[str(f)], want)


def test_every_kind_cross_validates_and_an_unknown_kind_is_refused(db):
    db.execute("CREATE TABLE v (id int, y text, w int[], x float8, c text)")
    db.execute("INSERT INTO v SELECT i, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END, ARRAY[i % 3, i % 5], i % 7, "
               "(ARRAY['p','q'])[1 + i % 3 % 2] FROM generate_series(1, 40) i")
    features = {"multinomial": ["w"], "bernoulli": ["w"], "complement": ["w"], "gaussian": ["x"], "categorical": ["c"]}
    for kind in ("naive_bayes", "gaussian", "categorical", "multinomial", "bernoulli", "complement"):
        got = cross_validate(db, "v", "y", features.get(kind, ["x", "c"]), folds=4, key="id", kind=kind)
        assert list(got) == ["1", "2", "3", "4", "mean"] and got["mean"]["rows"] == 40, kind
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT * FROM madnb.cross_validate('v', 'y', ARRAY['w'], kind => 'magic')")
    assert e.value.sqlstate == "22023"
    with pytest.raises(psycopg.Error) as e:
        db.execute("""SELECT * FROM madnb.cross_validate('v', 'y', ARRAY['x'], options => '{"alpha": 1}')""")
    assert (e.value.sqlstate, e.value.diag.message_primary) == ("22023", 'option "alpha" is not a parameter of kind \'naive_bayes\'')


# ---------------------------------------------------------------------------
# the vector kinds, against scikit-learn's MultinomialNB / BernoulliNB / ComplementNB on the same folds
# ---------------------------------------------------------------------------


def sklearn_fold_metrics(
    est: Any, x: Any, y: list[str], folds: list[int], f: int, classes: list[str],
) -> dict[str, Any]:
    """scikit-learn's metrics of fold ``f``: ``est`` fitted on the other folds, scoring fold f; a class the
    other folds lack has probability 0 (its column added to predict_proba's)."""
    train = [i for i, g in enumerate(folds) if g != f]
    test = [i for i, g in enumerate(folds) if g == f]
    nb = est.fit(x[train], np.array(y)[train])
    proba = np.zeros((len(test), len(classes)))
    proba[:, [classes.index(c) for c in nb.classes_]] = nb.predict_proba(x[test])
    return expected(classes, [y[i] for i in test], list(nb.predict(x[test])), proba)


def assert_within(got: Any, want: Any, path: str = "") -> None:
    """assert_close within 1e-9 (ComplementNB's weights go through a log of a normalised sum)."""
    if isinstance(want, dict):
        assert set(got) == set(want), path
        for k in want:
            assert_within(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_within(g, w, f"{path}[{i}]")
    elif isinstance(want, (float, np.floating)):
        assert got == pytest.approx(float(want), abs=1e-9, rel=0), path
    else:
        assert got == want, path


def auc_doubt(y: list[str], proba: np.ndarray, classes: list[str], within: float = 1e-9) -> list[float]:
    """Per class (one against the rest), the share of (positive, negative) pairs whose scores are within ``within``
    of each other: how far two AUCs of probabilities that agree to ``within`` can differ."""
    out = []
    for j, c in enumerate(classes):
        pos = proba[[i for i, v in enumerate(y) if v == c], j]
        neg = proba[[i for i, v in enumerate(y) if v != c], j]
        close = np.abs(pos[:, None] - neg[None, :]) <= within
        out.append(float(close.sum()) / max(1, len(pos) * len(neg)))
    return out


@pytest.fixture
def counts(db):
    """300 rows of 8 Poisson counts (int4[]), three classes with their own rates."""
    rng = np.random.default_rng(18)
    rates = np.array([[4, 1, 1, 3, 0.5, 2, 1, 1], [1, 3, 1, 1, 2, 0.5, 4, 1], [2, 2, 3, 0.5, 1, 1, 1, 3]])
    y = [("ham", "spam", "eggs")[i % 3] for i in range(300)]
    x = np.stack([rng.poisson(rates[i % 3]) for i in range(300)])
    db.execute("CREATE TABLE docs (id int PRIMARY KEY, w int4[], y text)")
    with db.cursor().copy("COPY docs FROM STDIN") as copy:
        for i in range(300):
            copy.write_row((i, [int(v) for v in x[i]], y[i]))
    return db, x, y


@pytest.mark.parametrize(
    "kind, options, est",
    [
        ("multinomial", {}, MultinomialNB()),
        ("multinomial", {"alpha": 0.25, "fit_prior": False}, MultinomialNB(alpha=0.25, fit_prior=False)),
        ("multinomial", {"class_prior": [0.5, 0.2, 0.3]}, MultinomialNB(class_prior=[0.5, 0.2, 0.3])),
        ("bernoulli", {}, BernoulliNB()),
        ("bernoulli", {"alpha": 0.5, "binarize": 2}, BernoulliNB(alpha=0.5, binarize=2)),
        ("complement", {}, ComplementNB()),
        ("complement", {"alpha": 0.3, "norm": True}, ComplementNB(alpha=0.3, norm=True)),
    ],
)
def test_a_vector_kind_cross_validates_as_scikit_learns_estimator_fitted_on_each_fold_complement(counts, kind, options, est):
    db, x, y = counts
    got = cross_validate(db, "docs", "y", ["w"], folds=5, seed=9, key="id", kind=kind, options=json.dumps(options))
    folds = [f for (f,) in db.execute("SELECT madnb.fold(id, 5, 9) FROM docs ORDER BY id")]
    classes = sorted(set(y))
    assert list(got) == ["1", "2", "3", "4", "5", "mean"]
    for f in range(1, 6):
        assert_within(got[str(f)], sklearn_fold_metrics(est, x, y, folds, f, classes), f"fold {f}")


def test_a_vector_kinds_options_reach_every_fold(counts):
    db, _x, _y = counts
    for kind, options in (("multinomial", {"alpha": 5}), ("bernoulli", {"binarize": 3}), ("complement", {"norm": True})):
        plain = cross_validate(db, "docs", "y", ["w"], key="id", kind=kind)
        given = cross_validate(db, "docs", "y", ["w"], key="id", kind=kind, options=json.dumps(options))
        assert all(plain[str(f)]["log_loss"] != given[str(f)]["log_loss"] for f in range(1, 6)), kind
    with pytest.raises(psycopg.Error) as e:
        cross_validate(db, "docs", "y", ["w"], key="id", kind="multinomial", options='{"norm": true}')
    assert e.value.diag.sqlstate == "22023"


def test_tsvectors_cross_validate_as_a_count_vectorizer_and_multinomial_nb_on_each_fold_complement(db):
    """Sparse vectors: the vocabulary is each complement's (a lexeme only the scored fold holds adds nothing, as
    DictVectorizer drops it); 'rare' has one row, so one fold's complement has no such class."""
    rng = np.random.default_rng(3)
    words = [f"w{j}" for j in range(30)]
    docs, y = [], []
    for i in range(200):
        label = "rare" if i == 17 else ("pos", "neg")[i % 2]
        lo = 0 if label == "pos" else 10
        docs.append({w: int(c) for w, c in zip(words[lo:lo + 20], rng.poisson(0.6, 20), strict=True) if c})
        y.append(label)

    def tsvector(d: dict[str, int]) -> str:
        out, pos = [], 1
        for w, c in d.items():
            out.append(f"{w}:" + ",".join(str(p) for p in range(pos, pos + c)))
            pos += c
        return " ".join(out)

    db.execute("CREATE TABLE reviews (id int PRIMARY KEY, doc tsvector, y text)")
    with db.cursor().copy("COPY reviews (id, doc, y) FROM STDIN") as copy:
        for i, (d, label) in enumerate(zip(docs, y, strict=True)):
            copy.write_row((i, tsvector(d), label))
    got = cross_validate(db, "reviews", "y", ["doc"], folds=4, key="id", kind="multinomial", options='{"alpha": 0.5}')
    folds = [f for (f,) in db.execute("SELECT madnb.fold(id, 4, 0) FROM reviews ORDER BY id")]
    classes = sorted(set(y))
    rare = folds[17]
    for f in range(1, 5):
        train = [i for i, g in enumerate(folds) if g != f]
        test = [i for i, g in enumerate(folds) if g == f]
        vec = DictVectorizer().fit([docs[i] for i in train])
        nb = MultinomialNB(alpha=0.5).fit(vec.transform([docs[i] for i in train]), np.array(y)[train])
        assert ("rare" in nb.classes_) == (f != rare)
        proba = np.zeros((len(test), len(classes)))
        xt = vec.transform([docs[i] for i in test])
        proba[:, [classes.index(c) for c in nb.classes_]] = nb.predict_proba(xt)
        want = expected(classes, [y[i] for i in test], list(nb.predict(xt)), proba)
        # saturated probabilities (1 - 1e-16, 1e-19) tie or not by an ulp: the AUC is what the probabilities fix
        # to the 1e-9 that madnb's and scikit-learn's agree to, up to the pairs they leave in doubt
        doubt = auc_doubt([y[i] for i in test], proba, classes)
        for name in ("roc_auc", "roc_auc_ovr"):
            g, w = got[str(f)].pop(name), want.pop(name)
            for j, (gj, wj) in enumerate(zip(g if isinstance(g, list) else [g], w if isinstance(w, list) else [w], strict=True)):
                bound = doubt[j] if isinstance(w, list) else float(np.mean(doubt))
                assert (gj is None) == (wj is None) and (wj is None or abs(gj - wj) <= bound + 1e-12), (f, name, j)
        assert_within(got[str(f)], want, f"fold {f}")
    assert got[str(rare)]["confusion_matrix"][classes.index("rare")][classes.index("rare")] == 0


def test_rows_with_a_null_vector_are_in_no_fold_and_leave_one_out_counts_only_the_others(db):
    db.execute("CREATE TABLE few (id int, w int2[], y text)")
    db.execute("INSERT INTO few SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE ARRAY[i % 3, (i + 1) % 4, i % 2]::int2[] END, "
               "CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END FROM generate_series(1, 15) i")
    kfold = cross_validate(db, "few", "y", ["w"], folds=3, key="id", kind="bernoulli")
    assert kfold["mean"]["rows"] == 12
    rows = db.execute("SELECT id, w, y FROM few WHERE w IS NOT NULL ORDER BY id::text COLLATE \"C\"").fetchall()
    loo = cross_validate(db, "few", "y", ["w"], folds=12, key="id", kind="bernoulli")
    assert list(loo) == [str(f) for f in range(1, 13)] + ["mean"]
    x, y = np.array([r[1] for r in rows]), [r[2] for r in rows]
    classes = sorted(set(y))
    for f in range(1, 13):  # fold i: the row of the i-th key in byte order, scored by BernoulliNB fitted on the others
        others = [i for i in range(12) if i != f - 1]
        nb = BernoulliNB().fit(x[others], np.array(y)[others])
        proba = nb.predict_proba(x[[f - 1]])[0]
        t, h = classes.index(y[f - 1]), classes.index(nb.predict(x[[f - 1]])[0])
        m = loo[str(f)]
        assert m["confusion_matrix"] == [[int((i, j) == (t, h)) for j in range(2)] for i in range(2)], f"fold {f}"
        assert m["log_loss"] == pytest.approx(-np.log(proba[t]), abs=1e-9, rel=0), f"fold {f}"


def test_a_vector_cross_validation_reads_the_source_once_for_statistics_and_once_to_score(counts):
    db, _x, _y = counts
    db.execute("SET max_parallel_workers_per_gather = 0")

    def scans(call: str) -> int:
        with db.transaction():
            before = db.execute("SELECT pg_stat_get_xact_numscans('docs'::regclass)").fetchone()[0]
            db.execute(call)
            return db.execute("SELECT pg_stat_get_xact_numscans('docs'::regclass)").fetchone()[0] - before

    train_scans = scans("SELECT madnb.train('docs_nb', 'docs', 'y', ARRAY['w'], kind => 'multinomial')")
    cv_scans = scans("SELECT * FROM madnb.cross_validate('docs', 'y', ARRAY['w'], key => 'id', kind => 'multinomial')")
    assert cv_scans == train_scans + 1
    before = relations(db)
    db.execute("SELECT * FROM madnb.cross_validate('docs', 'y', ARRAY['w'], key => 'id', kind => 'complement')")
    assert relations(db) == before

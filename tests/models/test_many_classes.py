"""Named models of many classes (issue 19): 2,000 classes train and predict as scikit-learn does.

A model's per-class tables are read as rows (one per class), so the number of
classes is not bounded by PostgreSQL's 1,664 columns of a select list; a model of
more than INLINE_MAX_TERMS class x feature terms has PL/pgSQL prediction functions
(PostgreSQL's JIT never compiles them).  Expected numbers are scikit-learn's, fitted
in the test on the same rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.preprocessing import OrdinalEncoder

from madnb_pl.predict.generated import INLINE_MAX_TERMS
from models_helpers import plant_on_search_path

TOL = 1e-9


def categorical_table(db: psycopg.Connection[Any], table: str, classes: int, per_class: int, features: int) -> None:
    """``classes`` x ``per_class`` rows: id, label y ('c0', 'c1', ...), text features f1.. of 10 values each."""
    cols = ", ".join(f"'v' || ((i * {7 + 2 * j} + i / {classes} * {j + 1}) % 10) AS f{j}" for j in range(1, features + 1))
    db.execute(
        f"CREATE TABLE {table} AS SELECT i AS id, 'c' || lpad((i % {classes})::text, 4, '0') AS y, {cols} "
        f"FROM generate_series(0, {classes * per_class - 1}) AS i"
    )


def language(db: psycopg.Connection[Any], function: str) -> str:
    return str(db.execute(
        "SELECT l.lanname FROM pg_proc AS p JOIN pg_language AS l ON l.oid = p.prolang WHERE p.oid = %s::regprocedure", [function]
    ).fetchone()[0])


def compare_with_sklearn(db: psycopg.Connection[Any], model: str, table: str, features: list[str], nb: Any, x: np.ndarray,
                         ids: list[int], y: list[str]) -> None:
    """The model's three functions on rows ``ids`` against the fitted scikit-learn model ``nb`` (rows ``x`` of all ids)."""
    classes = db.execute("SELECT madnb.model_classes(%s)::text[]", [model]).fetchone()[0]
    assert classes == sorted(set(y)) == list(nb.classes_)
    got = db.execute(
        f"SELECT t.id, madnb_models.{model}_predict(t), madnb_models.{model}_predict_proba(t), "
        f"madnb_models.{model}_predict_proba_array(t) FROM {table} AS t WHERE t.id = ANY(%s) ORDER BY t.id", [ids],
    ).fetchall()
    assert [r[0] for r in got] == ids
    want = nb.predict_proba(x[ids])
    for (_, predicted, as_json, as_array), p in zip(got, want, strict=True):
        np.testing.assert_allclose(as_array, p, rtol=TOL, atol=1e-15)
        assert as_json == pytest.approx(dict(zip(classes, as_array, strict=True)), rel=1e-15, abs=0)
        top = np.sort(p)[-2:]
        if top[1] - top[0] > 1e-9:  # a clear winner (near-ties: the first class within 1e-12, by rounding)
            assert predicted == classes[int(np.argmax(p))]


def test_a_model_of_2000_classes_trains_and_predicts_as_scikit_learns_categorical_nb(db):
    categorical_table(db, "many", classes=2000, per_class=4, features=2)
    db.execute("SELECT madnb.train('many_nb', 'many', 'y', exclude => ARRAY['id'])")
    assert len(db.execute("SELECT classes FROM madnb.models WHERE name = 'many_nb'").fetchone()[0]) == 2000
    assert language(db, "madnb_models.many_nb_predict(text, text)") == "plpgsql"  # 4,000 terms
    rows = db.execute("SELECT y, f1, f2 FROM many ORDER BY id").fetchall()
    enc = OrdinalEncoder()
    x = enc.fit_transform([[r[1], r[2]] for r in rows]).astype(int)
    y = [r[0] for r in rows]
    nb = CategoricalNB(alpha=1.0).fit(x, y)
    compare_with_sklearn(db, "many_nb", "many", ["f1", "f2"], nb, x, list(range(0, 8000, 53)), y)
    # the column form, as the row form
    assert db.execute(
        "SELECT bool_and(madnb_models.many_nb_predict_proba_array(f1 => t.f1, f2 => t.f2) = madnb_models.many_nb_predict_proba_array(t)) "
        "FROM many AS t WHERE t.id < 40"
    ).fetchone()[0]


def test_a_gaussian_model_of_1000_classes_predicts_as_scikit_learns_gaussian_nb(db):
    db.execute(
        "CREATE TABLE g AS SELECT i AS id, 'c' || lpad((i % 1000)::text, 4, '0') AS y, "
        "(i % 1000) / 10.0 + ((i * 37) % 11)::float8 / 7 AS x1, ((i * 13) % 17)::float8 - (i % 1000) / 100.0 AS x2 "
        "FROM generate_series(0, 4999) AS i"
    )
    db.execute("SELECT madnb.train('g_nb', 'g', 'y', exclude => ARRAY['id'], kind => 'gaussian')")
    assert language(db, "madnb_models.g_nb_predict(float8, float8)") == "plpgsql"
    rows = db.execute("SELECT y, x1, x2 FROM g ORDER BY id").fetchall()
    x = np.array([[r[1], r[2]] for r in rows])
    y = [r[0] for r in rows]
    compare_with_sklearn(db, "g_nb", "g", ["x1", "x2"], GaussianNB().fit(x, y), x, list(range(0, 5000, 41)), y)


@pytest.mark.parametrize("classes", [INLINE_MAX_TERMS // 4, INLINE_MAX_TERMS // 4 + 1])
def test_models_on_either_side_of_the_inline_bound_predict_alike(db, classes):
    # 4 features: 256 terms are inlined SQL, 260 PL/pgSQL; both are scikit-learn's numbers
    categorical_table(db, "edge", classes=classes, per_class=5, features=4)
    db.execute("SELECT madnb.train('edge_nb', 'edge', 'y', exclude => ARRAY['id'])")
    inlined = classes * 4 <= INLINE_MAX_TERMS
    for form in ("anyelement", "text, text, text, text"):
        fn = f"madnb_models.edge_nb_predict_proba_array({form})"
        assert language(db, fn) == ("sql" if inlined or form == "anyelement" else "plpgsql")
    plan = "\n".join(r[0] for r in db.execute("EXPLAIN (VERBOSE, COSTS OFF) SELECT madnb_models.edge_nb_predict(t) FROM edge AS t"))
    assert ("edge_nb_predict" in plan) != inlined  # inlined: the model's expression, no call
    rows = db.execute("SELECT y, f1, f2, f3, f4 FROM edge ORDER BY id").fetchall()
    x = OrdinalEncoder().fit_transform([list(r[1:]) for r in rows]).astype(int)
    y = [r[0] for r in rows]
    compare_with_sklearn(db, "edge_nb", "edge", ["f1", "f2", "f3", "f4"], CategoricalNB(alpha=1.0).fit(x, y), x,
                         list(range(0, classes * 5, 3)), y)


def test_predict_proba_of_more_than_16_classes_is_the_same_object_as_of_fewer(db):
    # past 16 classes the jsonb is built by one aggregate instead of one || per class: same keys, same numbers
    categorical_table(db, "c17", classes=17, per_class=6, features=2)
    db.execute("SELECT madnb.train('c17_nb', 'c17', 'y', exclude => ARRAY['id'])")
    got = db.execute(
        "SELECT madnb_models.c17_nb_predict_proba(t), madnb_models.c17_nb_predict_proba_array(t), madnb.model_classes('c17_nb')::text[] "
        "FROM c17 AS t ORDER BY t.id LIMIT 20"
    ).fetchall()
    for as_json, as_array, classes in got:
        assert list(as_json) == sorted(classes, key=lambda c: (len(c), c))  # jsonb's key order: by length, then bytes
        assert as_json == dict(zip(classes, as_array, strict=True))
        assert sum(as_json.values()) == pytest.approx(1.0, abs=1e-12)


def test_objects_planted_on_the_search_path_never_run_inside_a_large_models_plpgsql_functions(db):
    # PL/pgSQL resolves its body's names when it first runs, on the caller's search_path: every name is qualified.
    # 120 classes x (2 text + 1 Gaussian) features: past INLINE_MAX_TERMS, and past 16 classes for the jsonb aggregate
    db.execute(
        "CREATE TABLE big AS SELECT i AS id, 'c' || (i % 120) AS y, 'a' || ((i * 7 + i / 120) % 10) AS a, "
        "'b' || ((i * 13 + i / 120) % 10) AS b, ((i * 31) % 97)::float8 + i % 120 AS x FROM generate_series(1, 1200) AS i"
    )
    db.execute("SELECT madnb.train('big_nb', 'big', 'y', exclude => ARRAY['id'])")
    assert language(db, "madnb_models.big_nb_predict(text, text, float8)") == "plpgsql"
    query = (
        "SELECT madnb_models.big_nb_predict(t), madnb_models.big_nb_predict_proba(t), madnb_models.big_nb_predict_proba_array(t), "
        "madnb_models.big_nb_predict_proba_array(a => t.a, x => t.x) FROM big AS t WHERE t.id <= 100 ORDER BY t.id"
    )
    normal = db.execute(query).fetchall()
    plant_on_search_path(db)
    fresh = psycopg.connect(db.info.dsn, autocommit=True)  # a new session: PL/pgSQL compiles the bodies again
    try:
        fresh.execute("SET search_path = evil, public, madnb, pg_catalog")
        for probe in ("SELECT exp(1::float8)", "SELECT 1::float8 + 1::float8", "SELECT jsonb_object_agg('k'::text, 1::float8)"):
            with pytest.raises(psycopg.Error) as planted:  # the planted objects run where a name is resolved through the path
                fresh.execute(probe)
            assert planted.value.diag.sqlstate == "XX666"
        assert fresh.execute(query).fetchall() == normal
        fresh.execute("SELECT madnb.train('big_nb', 'big', 'y', exclude => ARRAY['id'], replace => true)")
        assert fresh.execute(query).fetchall() == normal
    finally:
        fresh.close()

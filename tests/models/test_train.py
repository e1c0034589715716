"""madnb.train from ordinary columns, and the generated prediction functions (issue 12, points 1 and 3).

Expected values come from outside the code under test: the probs view of the
same data trained through MADlib's interface (categories hand-encoded into an
attribute array), and log-probabilities computed from counts with numpy here.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any

import numpy as np
import psycopg
import pytest

from models_helpers import load_adult

CATEGORICAL = ["workclass", "education", "marital_status", "occupation", "relationship", "race", "sex", "native_country"]
NUMERIC = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hours_per_week"]
ADULT_ORDER = [
    "age", "workclass", "fnlwgt", "education", "education_num", "marital_status", "occupation", "relationship", "race",
    "sex", "capital_gain", "capital_loss", "hours_per_week", "native_country",
]


@pytest.fixture
def adult(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    load_adult(db, "adult")
    load_adult(db, "adult_test", "test")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    return db


def test_adult_probabilities_equal_the_probs_view_of_the_same_data_trained_through_madlibs_interface(adult):
    db = adult
    # the same data hand-encoded as MADlib wants it: categories as codes in one float8[] with the numeric columns
    codes = ", ".join(
        f"(SELECT pg_catalog.array_agg(DISTINCT x.{c} ORDER BY x.{c}) FILTER (WHERE x.{c} IS NOT NULL) FROM adult x) AS {c}_codes" for c in CATEGORICAL
    )
    db.execute(f"CREATE TABLE dict AS SELECT {codes}")

    def encoded(table: str) -> str:
        parts = [
            f"pg_catalog.array_position(d.{c}_codes, t.{c})::float8" if c in CATEGORICAL else f"t.{c}::float8"
            for c in ADULT_ORDER
        ]
        return f"SELECT t.id, t.income, ARRAY[{', '.join(parts)}] AS attributes FROM {table} t, dict d"

    db.execute(f"CREATE TABLE adult_arr AS {encoded('adult')}")
    db.execute(f"CREATE TABLE adult_test_arr AS {encoded('adult_test')}")
    numeric = ",".join(str(ADULT_ORDER.index(c) + 1) for c in NUMERIC)
    db.execute(
        f"SELECT madnb.create_nb_prepared_data_tables('adult_arr', 'income', 'attributes', 'ARRAY[{numeric}]', 14, "
        "'a_fp', 'a_np', 'a_cp')"
    )
    db.execute("SELECT madnb.create_nb_probs_view('a_fp', 'a_cp', 'adult_test_arr', 'id', 'attributes', 14, 'a_np', 'a_probs')")
    view = defaultdict(dict)
    for key, cls, p in db.execute("SELECT key, class, nb_prob FROM a_probs"):
        view[key][cls] = p
    classes = db.execute("SELECT madnb.model_classes('adult_nb')").fetchone()[0]
    assert classes == ["<=50K", ">50K"]
    got = db.execute(
        "SELECT t.id, madnb_models.adult_nb_predict_proba_array(t), madnb_models.adult_nb_predict_proba(t), "
        "madnb_models.adult_nb_predict(t) FROM adult_test t"
    ).fetchall()
    assert len(got) == 16281
    worst = 0.0
    for key, arr, js, predicted in got:
        expected = [view[key][c] for c in classes]
        worst = max(worst, *(abs(a - b) for a, b in zip(arr, expected)))
        assert js == pytest.approx(dict(zip(classes, arr)), abs=0)
        best = max(expected)
        assert predicted == classes[[i for i, p in enumerate(expected) if p >= best - 1e-12][0]], (key, expected, arr)
    assert worst <= 1e-12


def _numpy_log_likelihoods(db: psycopg.Connection[Any], ids: list[int]) -> dict[int, dict[str, float]]:
    """Per test row and class: ln prior + categorical ln((cnt + 1) / (n_present + values)) + Gaussian ln N(x; mean, sample var)."""
    train = db.execute(f"SELECT income, {', '.join(ADULT_ORDER)} FROM adult").fetchall()
    classes = sorted({r[0] for r in train})
    n_class = Counter(r[0] for r in train)
    out: dict[int, dict[str, float]] = {}
    test = {r[0]: r[1:] for r in db.execute(f"SELECT id, {', '.join(ADULT_ORDER)} FROM adult_test WHERE id = ANY(%s)", [ids])}
    params: dict[tuple[str, int], Any] = {}
    for j, name in enumerate(ADULT_ORDER, start=1):
        if name in CATEGORICAL:
            values = {r[j] for r in train if r[j] is not None}
            for c in classes:
                col = [r[j] for r in train if r[0] == c and r[j] is not None]
                params[(c, j)] = ("cat", Counter(col), len(col), len(values))
        else:
            for c in classes:
                x = np.array([r[j] for r in train if r[0] == c and r[j] is not None], dtype=float)
                params[(c, j)] = ("num", x.mean(), x.var(ddof=1))
    total = sum(n_class.values())
    for i, row in test.items():
        out[i] = {}
        for c in classes:
            ll = math.log(n_class[c] / total)
            for j, v in enumerate(row, start=1):
                p = params[(c, j)]
                if v is None:
                    continue
                if p[0] == "cat":
                    _, counts, present, nvals = p
                    if not any(v in params[(k, j)][1] for k in classes):
                        continue  # a value never seen in training adds nothing
                    ll += math.log((counts[v] + 1) / (present + nvals))
                else:
                    _, mean, var = p
                    ll += -0.5 * math.log(2 * math.pi * var) - (v - mean) ** 2 / (2 * var)
            out[i][c] = ll
    return out


def test_adult_log_likelihoods_match_counts_computed_with_numpy(adult):
    db = adult
    ids = list(range(1, 16282, 97))
    expected = _numpy_log_likelihoods(db, ids)
    classes = db.execute("SELECT madnb.model_classes('adult_nb')").fetchone()[0]
    rows = db.execute(
        "SELECT t.id, madnb_models.adult_nb_predict_proba_array(t) FROM adult_test t WHERE t.id = ANY(%s)", [ids]
    ).fetchall()
    assert len(rows) == len(ids)
    for key, probs in rows:
        ll = np.array([expected[key][c] for c in classes])
        want = np.exp(ll - ll.max()) / np.exp(ll - ll.max()).sum()
        assert np.allclose(probs, want, rtol=0, atol=1e-9), key


def test_a_missing_value_adds_nothing_and_nan_is_missing(db):
    db.execute(
        "CREATE TABLE w (id int, label text, colour text, size float8);"
        "INSERT INTO w VALUES (1, 'a', 'red', 1.0), (2, 'a', 'red', 2.0), (3, 'a', NULL, 'NaN'), (4, 'b', 'blue', 5.0),"
        " (5, 'b', 'red', 6.5), (6, 'b', 'blue', NULL), (7, NULL, 'red', 3.0);"
        "CREATE TABLE w_null AS SELECT id, label, colour, CASE WHEN size = 'NaN' THEN NULL ELSE size END AS size FROM w"
    )
    db.execute("SELECT madnb.train('w_nan', 'w', 'label', exclude => ARRAY['id'])")
    db.execute("SELECT madnb.train('w_null', 'w_null', 'label', exclude => ARRAY['id'])")
    # NaN trains as NULL: the same model
    a = db.execute("SELECT attr, value, n, nv, mean, var FROM madnb_statistics.\"madnb_models.w_nan\" ORDER BY 1, 2, 3").fetchall()
    b = db.execute("SELECT attr, value, n, nv, mean, var FROM madnb_statistics.\"madnb_models.w_null\" ORDER BY 1, 2, 3").fetchall()
    assert a == b
    assert db.execute("SELECT training_rows FROM madnb.models WHERE name = 'w_nan'").fetchone()[0] == 6
    # a row with every feature missing (or NaN) is scored by the priors alone: 3/6 and 3/6
    p = db.execute("SELECT madnb_models.w_nan_predict_proba_array(NULL::text, 'NaN'::float8)").fetchone()[0]
    assert p == pytest.approx([0.5, 0.5], abs=1e-15)
    # colour alone: P(red|a) = (2 + 1) / (2 + 2), P(red|b) = (1 + 1) / (3 + 2) (NULL colour of row 3 is missing)
    pa, pb = 0.5 * 3 / 4, 0.5 * 2 / 5
    p = db.execute("SELECT madnb_models.w_nan_predict_proba_array('red', NULL)").fetchone()[0]
    assert p == pytest.approx([pa / (pa + pb), pb / (pa + pb)], abs=1e-15)
    # an unseen colour adds nothing either
    assert db.execute("SELECT madnb_models.w_nan_predict_proba_array('green', NULL)").fetchone()[0] == pytest.approx([0.5, 0.5])


def test_categorical_names_a_numeric_column_that_then_trains_as_its_text_values(db):
    db.execute(
        "CREATE TABLE s (label text, grade int, score float8);"
        "INSERT INTO s SELECT CASE WHEN i % 3 = 0 THEN 'x' ELSE 'y' END, i % 4, i / 7.0 FROM generate_series(1, 40) i;"
        "CREATE TABLE s_text AS SELECT label, grade::text AS grade, score FROM s"
    )
    db.execute("SELECT madnb.train('s_cat', 's', 'label', categorical => ARRAY['grade'])")
    db.execute("SELECT madnb.train('s_text', 's_text', 'label')")
    roles = db.execute("SELECT features FROM madnb.models WHERE name = 's_cat'").fetchone()[0]
    assert roles == [
        {"name": "grade", "role": "categorical", "type": "integer"}, {"name": "score", "role": "gaussian", "type": "double precision"},
    ]
    got = db.execute("SELECT madnb_models.s_cat_predict_proba_array(s) FROM s ORDER BY grade, score").fetchall()
    want = db.execute("SELECT madnb_models.s_text_predict_proba_array(s) FROM s_text s ORDER BY grade::int, score").fetchall()
    assert got == want
    # integer codes outside the training range are unseen values: they add nothing
    assert db.execute("SELECT madnb_models.s_cat_predict_proba_array(99, NULL)").fetchone() == db.execute(
        "SELECT madnb_models.s_cat_predict_proba_array(NULL, NULL)"
    ).fetchone()


def test_replace_retrains_in_place_and_a_dependent_view_keeps_working(db):
    db.execute(
        "CREATE TABLE r (id int, label text, colour text);"
        "INSERT INTO r VALUES (1, 'warm', 'red'), (2, 'warm', 'red'), (3, 'cold', 'blue');"
        "CREATE TABLE r_test (id int, colour text); INSERT INTO r_test VALUES (1, 'red'), (2, 'blue')"
    )
    db.execute("SELECT madnb.train('r_nb', 'r', 'label', exclude => ARRAY['id'])")
    db.execute("CREATE VIEW r_pred AS SELECT t.id, madnb_models.r_nb_predict(t) AS p FROM r_test t")
    assert db.execute("SELECT p FROM r_pred ORDER BY id").fetchall() == [("warm",), ("cold",)]
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT madnb.train('r_nb', 'r', 'label', exclude => ARRAY['id'])")
    assert e.value.diag.sqlstate == "42710"
    assert "replace => true" in e.value.diag.message_hint
    # the colours swap meaning
    db.execute("UPDATE r SET label = CASE label WHEN 'warm' THEN 'cold' ELSE 'warm' END")
    db.execute("SELECT madnb.train('r_nb', 'r', 'label', exclude => ARRAY['id'], replace => true)")
    assert db.execute("SELECT p FROM r_pred ORDER BY id").fetchall() == [("cold",), ("warm",)]
    assert db.execute("SELECT count(*) FROM madnb.models WHERE name = 'r_nb'").fetchone()[0] == 1


def test_predictions_work_in_where_order_by_create_table_as_a_trigger_and_a_generated_column(db):
    db.execute(
        "CREATE TABLE g (id int, label text, colour text, size float8);"
        "INSERT INTO g SELECT i, CASE WHEN i % 2 = 0 THEN 'even' ELSE 'odd' END, "
        " CASE WHEN i % 2 = 0 THEN 'red' ELSE 'blue' END, i FROM generate_series(1, 20) i"
    )
    db.execute("SELECT madnb.train('g_nb', 'g', 'label', exclude => ARRAY['id'])")
    m = "madnb_models.g_nb"
    assert db.execute(f"SELECT count(*) FROM g WHERE {m}_predict(g) = 'even'").fetchone()[0] == 10
    top = db.execute(f"SELECT id FROM g ORDER BY ({m}_predict_proba(g) ->> 'even')::float8 DESC, id LIMIT 1").fetchone()[0]
    assert top % 2 == 0
    db.execute(f"CREATE TABLE g_scored AS SELECT id, {m}_predict(g) AS p FROM g")
    assert db.execute("SELECT count(*) FROM g_scored s JOIN g USING (id) WHERE s.p = g.label").fetchone()[0] == 20
    # a trigger fills the prediction on insert
    db.execute(
        "CREATE TABLE g_in (id int, colour text, size float8, p text);"
        f"CREATE FUNCTION g_fill() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.p := {m}_predict(NEW); RETURN NEW; END $$;"
        "CREATE TRIGGER g_fill BEFORE INSERT ON g_in FOR EACH ROW EXECUTE FUNCTION g_fill();"
        "INSERT INTO g_in (id, colour, size) VALUES (1, 'red', 4), (2, 'blue', 7)"
    )
    assert db.execute("SELECT p FROM g_in ORDER BY id").fetchall() == [("even",), ("odd",)]
    # a generated column needs an immutable function of the columns: the column form
    assert db.execute(
        "SELECT provolatile FROM pg_proc WHERE oid = 'madnb_models.g_nb_predict(text, float8)'::regprocedure"
    ).fetchone()[0] == "i"
    db.execute(
        f"CREATE TABLE g_gen (colour text, size float8, p text GENERATED ALWAYS AS ({m}_predict(colour, size)) STORED);"
        "INSERT INTO g_gen VALUES ('red', 2), ('blue', 3)"
    )
    assert db.execute("SELECT p FROM g_gen ORDER BY size").fetchall() == [("even",), ("odd",)]


def test_batch_prediction_runs_in_parallel_workers_and_one_row_by_key_is_an_index_scan(adult):
    db = adult
    db.execute(
        "SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; "
        "SET max_parallel_workers_per_gather = 2"
    )
    plan = "\n".join(r[0] for r in db.execute(
        "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT count(*) FILTER (WHERE madnb_models.adult_nb_predict(t) = t.income) FROM adult_test t"
    ))
    assert "Workers Launched: 2" in plan or "Workers Launched: 1" in plan, plan
    assert "Partial Aggregate" in plan
    # the function was inlined: its lookups are in the scan's output, no call to adult_nb_predict remains
    assert "adult_nb_predict" not in plan and "_nb_clear" in plan
    one = "\n".join(r[0] for r in db.execute(
        "EXPLAIN (COSTS OFF) SELECT madnb_models.adult_nb_predict(t) FROM adult_test t WHERE t.id = 42"
    ))
    assert "Index Scan using adult_test_pkey" in one


def _err(db: psycopg.Connection[Any], call: str) -> psycopg.Error:
    with pytest.raises(psycopg.Error) as e:
        db.execute(call)
    return e.value


def test_errors_name_the_problem_with_a_sqlstate_and_leave_nothing_behind(db):
    db.execute(
        "CREATE TABLE e (id int, label text, colour text, tags int[], doc jsonb);"
        "INSERT INTO e VALUES (1, 'a', 'red', '{1}', '{}'), (2, 'b', 'blue', '{2}', '{}')"
    )
    cases = {
        "SELECT madnb.train('m', 'e', 'nope')": "42703",
        "SELECT madnb.train('m', 'e', 'label', features => ARRAY['colour', 'nope'])": "42703",
        "SELECT madnb.train('m', 'e', 'label', exclude => ARRAY['nope'])": "42703",
        "SELECT madnb.train('m', 'nope', 'label')": "42P01",
        "SELECT madnb.train('m', 'e', 'label', exclude => ARRAY['id', 'colour', 'tags', 'doc'])": "22023",
        "SELECT madnb.train('m', 'e', 'label', features => ARRAY['colour', 'tags'])": "42804",
        "SELECT madnb.train('m', 'e', 'label', features => ARRAY['doc'])": "42804",
        "SELECT madnb.train('m', 'e', 'label', features => ARRAY['colour', 'label'])": "22023",
        "SELECT madnb.train('m', 'e', 'label', features => ARRAY['colour', 'colour'])": "42701",
        "SELECT madnb.train('m', 'e', 'label', features => ARRAY['colour'], categorical => ARRAY['id'])": "22023",
        "SELECT madnb.train('m', 'e', 'label', features => ARRAY['colour'], epsilon => 1)": "22023",
        "SELECT madnb.train('m', 'e', 'label', features => ARRAY['colour'], kind => 'multinomial')": "42804",  # a text column is not a vector of counts
        "SELECT madnb.train('m', 'e', 'label', features => ARRAY['colour'], kind => 'magic')": "22023",
        "SELECT madnb.train('m', 'e', 'label', features => ARRAY['colour'], smoothing => -1)": "22023",
        "SELECT madnb.train(repeat('m', 50), 'e', 'label', features => ARRAY['colour'])": "42622",
        "SELECT madnb.train('a.b.c', 'e', 'label', features => ARRAY['colour'])": "42602",
        "SELECT madnb.train('a.b', 'e', 'label', features => ARRAY['colour'])": "3F000",
        "SELECT madnb.train('m\"; DROP TABLE e; --', 'e', 'label')": "42602",
        "SELECT madnb.train('m', 'e; DROP TABLE e', 'label')": "42602",
        "SELECT madnb.train(NULL, 'e', 'label')": "22004",
        "SELECT madnb.drop_model('nope')": "42704",
        "SELECT madnb.model_classes('nope')": "42704",
    }
    for call, state in cases.items():
        err = _err(db, call)
        assert err.diag.sqlstate == state, (call, err.diag.message_primary)
        assert err.diag.message_primary[0].islower(), err.diag.message_primary
    err = _err(db, "SELECT madnb.train('m', 'e', 'label', features => ARRAY['colour'], epsilon => 1)")
    assert "domain =>" in err.diag.message_hint  # a private model needs a public domain
    assert db.execute("SELECT count(*) FROM e").fetchone()[0] == 2
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0
    assert db.execute(
        "SELECT count(*) FROM pg_class WHERE relnamespace IN ('madnb_models'::regnamespace, 'madnb_statistics'::regnamespace)"
    ).fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = 'madnb_models'::regnamespace").fetchone()[0] == 0


def test_a_label_with_only_nulls_is_refused_and_null_labels_are_ignored_with_a_notice(db):
    db.execute("CREATE TABLE n (label text, x float8); INSERT INTO n VALUES (NULL, 1), (NULL, 2)")
    assert _err(db, "SELECT madnb.train('n_nb', 'n', 'label')").diag.sqlstate == "22023"
    db.execute("INSERT INTO n VALUES ('a', 3), ('a', 5)")
    notices: list[str] = []
    db.add_notice_handler(lambda d: notices.append(d.message_primary))
    db.execute("SELECT madnb.train('n_nb', 'n', 'label')")
    assert any("2 row(s)" in n and "NULL label" in n for n in notices)
    assert db.execute("SELECT training_rows, classes FROM madnb.models").fetchone() == (2, ["a"])


def test_a_hostile_quoted_model_name_is_data(db):
    db.execute("CREATE TABLE h (\"Label\" text, \"Odd Col\" text); INSERT INTO h VALUES ('a', 'x'), ('b', 'y')")
    db.execute("SELECT madnb.train('\"We''ird; Model\"', 'h', '\"Label\"')")
    assert db.execute("SELECT madnb_models.\"We'ird; Model_predict\"(h) FROM h ORDER BY 1").fetchall() == [("a",), ("b",)]
    assert db.execute("SELECT madnb.model_classes('\"We''ird; Model\"')").fetchone()[0] == ["a", "b"]
    db.execute("SELECT madnb.drop_model('\"We''ird; Model\"')")
    assert db.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = 'madnb_models'::regnamespace").fetchone()[0] == 0


def test_gaussian_statistics_of_values_far_from_zero_keep_every_digit(db):
    # values 1e9 + small spread: a running sum of squares in float8 would lose the variance's digits
    xs = [1e9 + 0.001 * ((i * 37) % 11) for i in range(1, 201)]
    db.execute("CREATE TABLE far (label text, x float8)")
    with db.cursor().copy("COPY far FROM STDIN") as copy:
        for i, x in enumerate(xs):
            copy.write_row(("a" if i % 2 else "b", x))
    db.execute("SELECT madnb.train('far_nb', 'far', 'label')")
    for label in ("a", "b"):
        col = np.array([x for i, x in enumerate(xs) if ("a" if i % 2 else "b") == label])
        mean, var = db.execute(
            "SELECT attr_mean, attr_var FROM madnb_models.far_nb_numeric_stats WHERE class = %s", [label]
        ).fetchone()
        want = float(np.var(col - 1e9, ddof=1))  # exact shift: the spread itself
        assert var == pytest.approx(want, rel=1e-9)
        assert mean == pytest.approx(1e9 + float(np.mean(col - 1e9)), rel=1e-15)


def test_the_statistics_of_column_models_merge_like_any_others(db):
    # one core: two column models' statistics tables, summed by create_nb_model_from_statistics,
    # give the model tables of training on the union
    db.execute(
        "CREATE TABLE u (id int, label text, colour text, size float8);"
        "INSERT INTO u SELECT i, CASE WHEN i % 3 = 0 THEN 'x' ELSE 'y' END, (ARRAY['r', 'g', 'b'])[1 + i % 3 * (i % 2)], "
        " 10 + (i % 13) * 0.5 FROM generate_series(1, 90) i;"
        "CREATE VIEW u1 AS SELECT * FROM u WHERE id <= 40; CREATE VIEW u2 AS SELECT * FROM u WHERE id > 40"
    )
    for name, src in (("whole", "u"), ("part1", "u1"), ("part2", "u2")):
        db.execute("SELECT madnb.train(%s, %s, 'label', exclude => ARRAY['id'])", [name, src])
    s1, s2 = (db.execute("SELECT statistics FROM madnb.models WHERE name = %s", [n]).fetchone()[0] for n in ("part1", "part2"))
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY[%s, %s], 'm_fp', 'm_np', 'm_cp')", [s1, s2])
    assert db.execute("SELECT * FROM m_cp ORDER BY 1").fetchall() == db.execute(
        "SELECT * FROM madnb_models.whole_class_priors ORDER BY 1").fetchall()
    assert db.execute("SELECT class, attr, value, cnt, attr_cnt FROM m_fp ORDER BY 1, 2, 3").fetchall() == db.execute(
        "SELECT class, attr, value, cnt, attr_cnt FROM madnb_models.whole_feature_probs ORDER BY 1, 2, 3").fetchall()
    merged = db.execute("SELECT class, attr, attr_mean, attr_var, value_cnt FROM m_np ORDER BY 1, 2").fetchall()
    whole = db.execute("SELECT class, attr, attr_mean, attr_var, value_cnt FROM madnb_models.whole_numeric_stats ORDER BY 1, 2").fetchall()
    for a, b in zip(merged, whole, strict=True):
        assert a[:2] == b[:2] and a[4] == b[4]
        assert a[2] == pytest.approx(b[2], rel=1e-14) and a[3] == pytest.approx(b[3], rel=1e-12)


def test_a_tie_predicts_the_first_class_in_class_order_as_the_classify_view_lists_it_first(db):
    db.execute(
        "CREATE TYPE mood AS ENUM ('sad', 'happy');"
        "CREATE TABLE tie (label mood, colour text, size float8);"
        "INSERT INTO tie VALUES ('happy', 'red', 1), ('happy', 'blue', 3), ('sad', 'red', 1), ('sad', 'blue', 3)"
    )
    db.execute("SELECT madnb.train('tie_nb', 'tie', 'label')")
    # identical statistics for both classes: every row is an exact tie; enum order puts 'sad' first
    assert db.execute("SELECT madnb.model_classes('tie_nb')").fetchone()[0] == ["sad", "happy"]
    assert db.execute("SELECT DISTINCT madnb_models.tie_nb_predict(t)::text FROM tie t").fetchall() == [("sad",)]
    assert db.execute("SELECT DISTINCT madnb_models.tie_nb_predict_proba_array(t) FROM tie t").fetchall() == [([0.5, 0.5],)]
    # the label's type is what predict returns
    assert db.execute("SELECT pg_typeof(madnb_models.tie_nb_predict('red', 2))::text").fetchone()[0] == "mood"
    # the classify view over a model's tables (text values: categorical features only)
    db.execute("SELECT madnb.train('tie_cat', 'tie', 'label', features => ARRAY['colour'])")
    db.execute(
        "CREATE TABLE tie_test AS SELECT 1 AS id, ARRAY['red']::text[] AS attributes;"
        "SELECT madnb.create_nb_classify_view('madnb_models.tie_cat_feature_probs', 'madnb_models.tie_cat_class_priors', "
        "'tie_test', 'id', 'attributes', 1, 'tie_classify')"
    )
    assert db.execute("SELECT madnb_models.tie_cat_predict('red')::text").fetchone()[0] == "sad"
    assert db.execute("SELECT nb_classification::text[] FROM tie_classify").fetchone()[0] == ["sad", "happy"]


def test_near_ties_of_a_model_with_categorical_features_predict_the_classify_views_first_class(db):
    # predict reads a row's class off scores that leave out the first class's categorical terms when one class is
    # clearly ahead, and computes it from the whole scores otherwise: near a tie it must pick what the classify view
    # picks.  Both classes see the same colours; their Gaussian feature differs by 1e-6 in mean, so that the
    # log-likelihoods at the midpoint differ by less than the tie tolerance, a little more, and clearly
    db.execute("CREATE TABLE nt (y text, colour text, v float8)")
    db.execute("INSERT INTO nt SELECT y, c, v + CASE WHEN y = 'b' THEN 1e-6 ELSE 0 END "
               "FROM unnest(ARRAY['a', 'b']) y, unnest(ARRAY['red', 'red', 'blue']) c, unnest(ARRAY[0.0, 2.0, 0.5, 1.5]) v")
    db.execute("SELECT madnb.train('nt_nb', 'nt', 'y')")
    db.execute("CREATE TABLE nt_test AS SELECT row_number() OVER () AS id, c AS colour, 1 + 5e-7 + k * d AS v FROM "
               "unnest(ARRAY['red', 'blue', 'green', NULL]) c, generate_series(-20, 20) k, unnest(ARRAY[1e-9, 1e-7, 1e-4, 1e-1]) d")
    # the same rows as MADlib's interface takes them: colour codes 1 (red), 2 (blue), 3 (green: unseen)
    code = "CASE colour WHEN 'red' THEN 1 WHEN 'blue' THEN 2 WHEN 'green' THEN 3 END"
    db.execute(f"CREATE TABLE nt_arr AS SELECT y, ARRAY[{code}, v]::float8[] AS attributes FROM nt")
    db.execute(f"CREATE TABLE nt_test_arr AS SELECT id, ARRAY[{code}, v]::float8[] AS attributes FROM nt_test")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('nt_arr', 'y', 'attributes', 'ARRAY[2]', 2, 'nt_fp', 'nt_np', 'nt_cp')")
    db.execute("SELECT madnb.create_nb_classify_view('nt_fp', 'nt_cp', 'nt_test_arr', 'id', 'attributes', 2, 'nt_np', 'nt_classify')")
    view = dict(db.execute("SELECT key, nb_classification::text[] FROM nt_classify").fetchall())
    got = db.execute("SELECT t.id, madnb_models.nt_nb_predict(t), madnb_models.nt_nb_predict_proba_array(t) FROM nt_test t").fetchall()
    assert len(got) == len(view) == 4 * 41 * 4
    for key, predicted, proba in got:
        assert predicted == view[key][0], (key, view[key], proba)
    # the situations: ties the view lists both classes for, and rows where b's probability is the larger by a hair
    assert sum(len(c) == 2 for c in view.values()) > 0
    assert any(p == "a" and pr[1] > pr[0] for _, p, pr in got)
    assert {p for _, p, _ in got} == {"a", "b"}


def test_a_query_under_way_while_replace_commits_still_calls_the_exact_function_it_planned(db):
    # both classes see the same rows, so every row is a tie and predict calls the model's internal exact function
    # for each (the classify view's tie rule: the first class).  replace => true rewrites that function in place when
    # its signature is unchanged, so a cursor opened before the re-training commits reads every row; a version
    # that has no use for it drops it
    db.execute("CREATE TABLE tie (y text, k int, v float8)")
    db.execute("INSERT INTO tie SELECT y, k, v FROM unnest(ARRAY['a', 'b']) y, generate_series(1, 3) k, unnest(ARRAY[0.0, 1.0, 3.0]) v")
    db.execute("SELECT madnb.train('tie_nb', 'tie', 'y', categorical => ARRAY['k'])")
    db.execute("CREATE TABLE tie_other (x int)")
    exact = "SELECT to_regprocedure('madnb_models.tie_nb_exact_class(integer, double precision)')::oid"
    before = db.execute(exact).fetchone()[0]
    assert before is not None
    with psycopg.connect(db.info.dsn) as reader, reader.cursor(name="rows") as rows:
        rows.execute("SELECT madnb_models.tie_nb_predict(t) FROM tie t, generate_series(1, 100) i")
        first = rows.fetchmany(1)
        db.execute("SELECT madnb.train('tie_nb', 'tie', 'y', categorical => ARRAY['k'], replace => true)")
        reader.execute("SELECT count(*) FROM tie_other")  # a lock taken: the reader reads the catalog's changes
        rest = rows.fetchall()
    assert first + rest == [("a",)] * 1800
    assert db.execute(exact).fetchone()[0] == before
    # k Gaussian too: the model has no categorical terms, predict no exact function
    db.execute("SELECT madnb.train('tie_nb', 'tie', 'y', replace => true)")
    assert db.execute(exact).fetchone()[0] is None
    assert db.execute("SELECT madnb_models.tie_nb_predict(1, 1.0)").fetchone()[0] == "a"


def test_date_and_time_features_predict_the_same_whatever_datestyle_and_timezone(db):
    # class a on early days, class b on late ones; the keys must not follow the session's settings
    db.execute("CREATE TABLE ev (k text, d date, ts timestamp, tz timestamptz)")
    db.execute(
        "INSERT INTO ev SELECT CASE WHEN i <= 20 THEN 'a' ELSE 'b' END, DATE '2024-01-01' + (i % 4), "
        "TIMESTAMP '2024-01-01 10:00' + (i % 3) * INTERVAL '1 hour', "
        "TIMESTAMPTZ '2024-01-01 23:30+00' + (CASE WHEN i <= 20 THEN 0 ELSE 1 END) * INTERVAL '1 hour' "
        "FROM generate_series(1, 40) i"
    )
    db.execute("INSERT INTO ev VALUES ('a', 'infinity', '-infinity', 'infinity'), ('b', '0044-03-15 BC', NULL, NULL)")
    db.execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, MDY'")
    db.execute("SELECT madnb.train('ev_nb', 'ev', 'k')")
    q = "SELECT madnb_models.ev_nb_predict_proba_array(e) FROM ev AS e ORDER BY k, d, ts, tz"
    expected = db.execute(q).fetchall()
    # the infinities and a BC date are values of their own, not missing
    values = {r[0] for r in db.execute("SELECT value FROM madnb_models.ev_nb_feature_probs WHERE attr = 1")}
    assert {"infinity", "0044-03-15 BC", "2024-01-01"} <= values
    for tz, style in (("Europe/Paris", "SQL, DMY"), ("America/Los_Angeles", "German"), ("Asia/Kolkata", "Postgres, MDY")):
        db.execute(f"SET TimeZone = '{tz}'; SET DateStyle = '{style}'")
        assert db.execute(q).fetchall() == expected, (tz, style)
    db.execute("RESET TimeZone; RESET DateStyle")


def test_values_with_backslashes_predict_the_same_whatever_standard_conforming_strings_says(db):
    db.execute("CREATE TABLE paths (k text, p text)")
    db.execute(
        "INSERT INTO paths SELECT CASE WHEN i <= 20 THEN 'a' ELSE 'b' END, "
        "CASE WHEN i <= 18 OR i > 38 THEN 'C:\\dir' ELSE 'D:\\x''y\\n' END FROM generate_series(1, 40) i"
    )
    q = "SELECT p, madnb_models.{m}_predict_proba(t)::text FROM paths AS t GROUP BY 1, 2 ORDER BY 1"
    db.execute("SELECT madnb.train('paths_on', 'paths', 'k')")
    expected = db.execute(q.format(m="paths_on")).fetchall()
    # P(class a | 'C:\dir') from the counts (18 of 20 a rows, 2 of 20 b rows; Laplace smoothing over 2 values)
    pa = (18 + 1) / (20 + 2) * 0.5
    pb = (2 + 1) / (20 + 2) * 0.5
    got = dict(db.execute(q.format(m="paths_on").replace("::text", "->>'a'")).fetchall())
    assert abs(float(got["C:\\dir"]) - pa / (pa + pb)) < 1e-12
    db.execute("SET standard_conforming_strings = off")
    try:
        assert db.execute(q.format(m="paths_on")).fetchall() == expected  # trained with it on, predicted with it off
        db.execute("SELECT madnb.train('paths_off', 'paths', 'k')")
        assert db.execute(q.format(m="paths_off")).fetchall() == expected  # trained with it off
    finally:
        db.execute("RESET standard_conforming_strings")


def test_the_most_gaussian_features_train_and_one_more_is_54000_with_a_hint(db):
    cols = ", ".join(f"x{i} int" for i in range(1, 302))
    db.execute(f"CREATE TABLE many (y text, {cols})")
    db.execute(
        "INSERT INTO many SELECT CASE WHEN r % 2 = 0 THEN 'a' ELSE 'b' END, "
        + ", ".join(f"r % {i + 2}" for i in range(301)) + " FROM generate_series(1, 40) r"
    )
    db.execute("SELECT madnb.train('many300', 'many', 'y', exclude => ARRAY['x301'])")
    assert db.execute("SELECT count(*) FROM madnb_models.many300_numeric_stats").fetchone()[0] == 600
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT madnb.train('many301', 'many', 'y')")
    assert e.value.sqlstate == "54000" and "(300)" in e.value.diag.message_primary and e.value.diag.message_hint


def test_probabilities_with_zero_smoothing_match_the_counts_when_a_class_never_saw_a_value(db):
    # smoothing 0: a value a class never had has log-probability -inf there.  The probability functions
    # leave the first class's lookups out of every score (generated.scores_sql, relative), which only
    # holds where the first class's log-probabilities are finite: x has -inf in the first class (a
    # never saw r), z only in later ones (b never saw u, c never saw t)
    rows = [("a", "p", "t"), ("a", "q", "u"), ("a", "p", "u"), ("b", "p", "t"), ("b", "r", "t"), ("c", "q", "u"),
            ("c", "r", "u"), ("c", "r", "t"), ("c", "q", "v")]
    db.execute("CREATE TABLE zs (id int, y text, x text, z text)")
    with db.cursor() as cur:
        cur.executemany("INSERT INTO zs VALUES (%s, %s, %s, %s)", [(i, *r) for i, r in enumerate(rows)])
    db.execute("SELECT madnb.train('zs_nb', 'zs', 'y', exclude => ARRAY['id'], smoothing => 0)")
    classes = ["a", "b", "c"]
    n = Counter(r[0] for r in rows)
    for x, z in [("p", "t"), ("q", "u"), ("r", "t"), ("p", "u"), ("q", "t"), ("r", "v"), ("s", "t"), (None, "u")]:
        joint = []
        for c in classes:
            p = n[c] / len(rows)
            for j, v in ((1, x), (2, z)):
                if v is not None and any(r[j] == v for r in rows):  # an unseen or missing value adds nothing
                    p *= sum(1 for r in rows if r[0] == c and r[j] == v) / n[c]
            joint.append(p)
        expected = [p / sum(joint) for p in joint]
        got = db.execute("SELECT madnb_models.zs_nb_predict_proba_array(x => %s, z => %s)", (x, z)).fetchone()[0]
        as_json = db.execute("SELECT madnb_models.zs_nb_predict_proba(x => %s, z => %s)", (x, z)).fetchone()[0]
        assert got == pytest.approx(expected, abs=1e-12), (x, z)
        assert [as_json[c] for c in classes] == pytest.approx(expected, abs=1e-12), (x, z)
        assert db.execute("SELECT madnb_models.zs_nb_predict(x => %s, z => %s)", (x, z)).fetchone()[0] == classes[int(np.argmax(expected))]


def _log_sum_exp_probabilities(scores: list[float]) -> list[float]:
    """The probs view's probabilities from log-likelihoods (d = l - max; 0 below -700), computed here."""
    m = max(scores)
    d = [s - m for s in scores]
    lse = math.log(sum(math.exp(x) for x in d if x >= -700))
    return [0.0 if x < -700 else math.exp(x - lse) for x in d]


def _first_within_tolerance(scores: list[float]) -> int:
    """The classify view's class: the first within 1e-12 * max(1, |best|) of the best (1-based)."""
    best = max(scores)
    return next(i for i, s in enumerate(scores, start=1) if s >= best - 1e-12 * max(1.0, abs(best)))


def _clear_winner(scores: list[float], bound: float) -> int | None:
    """madnb._nb_clear's class: the best (1-based) when every other score is more than 1e-6 (1 + |best| + bound) below it;
    None with a NaN (PostgreSQL orders NaN above every number: no score is more than anything below it)."""
    if any(math.isnan(s) for s in scores):
        return None
    best = max(scores)
    cut = best - 1e-6 * ((1.0 + abs(best)) + bound)
    above = [i for i, s in enumerate(scores, start=1) if s > cut]
    return above[0] if len(above) == 1 else None


def test_the_per_row_helpers_give_the_probs_and_classify_views_numbers_for_every_number_of_classes(db):
    # madnb._nb_proba, _nb_best and _nb_clear take 2 to 4 scores one by one too (an array costs per row), the array
    # forms call them; every number of classes, from 1 to 7, against the views' rules computed here
    rng = np.random.default_rng(20261201)
    cases: list[list[float]] = []
    for k in range(1, 8):
        cases += [list(rng.normal(-40, 15, k)) for _ in range(20)]
        base = float(rng.normal(-30, 5))
        cases.append([base - 5e-13 * abs(base) * i for i in range(k)])  # near ties: within the tolerance
        cases.append([base - 2e-12 * abs(base) * i for i in range(k)])  # just outside it
        cases.append([base - 800.0 * i for i in range(k)])  # far below the best: probability 0
        cases.append([base] * k)  # exact ties: the first class
        cases.append([base - 5e-5 * i for i in range(k)])  # close: no clear winner for _nb_clear (1e-6 * 31 > 5e-5 / 2)
        cases.append([base - 1e-3 * (k - i) for i in range(k)])  # the last class clearly ahead
        cases.append([base] + [float("nan")] * (k - 1))  # NaN: no clear winner
    for scores in cases:
        one_by_one = ", ".join(["%s::float8"] * len(scores))
        proba, best, clear = db.execute(
            "SELECT madnb._nb_proba(%s::float8[]), madnb._nb_best(%s::float8[]), madnb._nb_clear(10, %s::float8[])", (scores,) * 3,
        ).fetchone()
        if not any(math.isnan(x) for x in scores):
            assert proba == pytest.approx(_log_sum_exp_probabilities(scores), rel=1e-15, abs=0), scores
            assert best == _first_within_tolerance(scores), scores
        assert clear == _clear_winner(scores, 10.0), scores
        if 2 <= len(scores) <= 4:  # the overloads, which the array forms call: the same numbers
            got = db.execute(
                f"SELECT madnb._nb_proba({one_by_one}), madnb._nb_best({one_by_one}), madnb._nb_clear(10, {one_by_one})", scores * 3,
            ).fetchone()
            assert got[0] == proba or any(math.isnan(x) for x in scores)
            assert got[1:] == (best, clear), scores

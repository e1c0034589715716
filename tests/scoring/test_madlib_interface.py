"""MADlib's interface and numbers: the manual's examples, every overload."""

from __future__ import annotations

import math

import pytest

from helpers import MANUAL_GAUSSIAN, MANUAL_TRAINING

# Counts of the manual's categorical example, worked out by hand from its six rows.
MANUAL_FEATURE_COUNTS = {
    # (class, attr, value): cnt
    (1, 1, 0): 0, (1, 1, 1): 3, (2, 1, 0): 2, (2, 1, 1): 1,
    (1, 2, 1): 0, (1, 2, 2): 2, (1, 2, 4): 1, (2, 2, 1): 1, (2, 2, 2): 2, (2, 2, 4): 0,
    (1, 3, 1): 1, (1, 3, 2): 0, (1, 3, 3): 2, (2, 3, 1): 0, (2, 3, 2): 2, (2, 3, 3): 1,
}
MANUAL_ATTR_CNT = {1: 2, 2: 3, 3: 3}
MANUAL_PROBS = {(1, 1): 0.4, (1, 2): 0.6, (2, 1): 0.75, (2, 2): 0.25}
GAUSSIAN_PROBS = {
    (9, 1): 0.993556745948775,
    (9, 2): 0.00644325405122553,
    (10, 1): 5.74057538627122e-05,
    (10, 2): 0.999942594246137,
}


@pytest.fixture
def manual(db):
    db.execute(MANUAL_TRAINING)
    return db


@pytest.fixture
def gaussian(db):
    db.execute(MANUAL_GAUSSIAN)
    return db


def test_categorical_training_gives_the_manuals_priors_and_counts(manual):
    manual.execute(
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'nb_feature_probs', 'nb_class_priors')"
    )
    assert manual.execute("SELECT class, class_cnt, all_cnt FROM nb_class_priors ORDER BY class").fetchall() == [
        (1, 3, 6),
        (2, 3, 6),
    ]
    rows = manual.execute("SELECT class, attr, value, cnt, attr_cnt FROM nb_feature_probs").fetchall()
    assert {(c, a, v): n for c, a, v, n, _ in rows} == MANUAL_FEATURE_COUNTS
    assert all(ac == MANUAL_ATTR_CNT[a] for _, a, _, _, ac in rows)
    assert len(rows) == len(MANUAL_FEATURE_COUNTS)


def test_output_tables_have_madlibs_column_types(manual):
    manual.execute(
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')"
    )
    cols = manual.execute(
        "SELECT attrelid::regclass::text || '.' || attname, format_type(atttypid, atttypmod) FROM pg_attribute "
        "WHERE attrelid IN ('fp'::regclass, 'cp'::regclass) AND attnum > 0 ORDER BY attrelid::regclass::text, attnum"
    ).fetchall()
    madlib = [
        ("cp.class", "integer"), ("cp.class_cnt", "bigint"), ("cp.all_cnt", "bigint"),
        ("fp.class", "integer"), ("fp.attr", "integer"), ("fp.value", "integer"), ("fp.cnt", "bigint"), ("fp.attr_cnt", "bigint"),
    ]
    # MADlib's columns come first, with MADlib's types; madnb's extra columns come after them.
    assert [c for c in cols if c[0].startswith("cp.")] == madlib[:3]
    assert [c for c in cols if c[0].startswith("fp.")] == madlib[3:] + [("fp.smoothing", "double precision")]


def test_probs_view_reproduces_the_manuals_categorical_example(manual):
    manual.execute(
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'nb_feature_probs', 'nb_class_priors')"
    )
    manual.execute(
        "SELECT madnb.create_nb_probs_view('nb_feature_probs', 'nb_class_priors', 'toclassify', 'id', 'attributes', 3, 'nb_probs_view_fast')"
    )
    got = {(k, c): p for k, c, p in manual.execute("SELECT key, class, nb_prob FROM nb_probs_view_fast")}
    assert got.keys() == MANUAL_PROBS.keys()
    for kc, p in MANUAL_PROBS.items():
        assert got[kc] == pytest.approx(p, abs=1e-9)


def test_classify_view_reproduces_the_manuals_categorical_example(manual):
    manual.execute(
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'nb_feature_probs', 'nb_class_priors')"
    )
    manual.execute(
        "SELECT madnb.create_nb_classify_view('nb_feature_probs', 'nb_class_priors', 'toclassify', 'id', 'attributes', 3, 'nb_classify_view_fast')"
    )
    assert manual.execute("SELECT key, nb_classification FROM nb_classify_view_fast ORDER BY key").fetchall() == [
        (1, [2]),
        (2, [1]),
    ]


def test_ad_hoc_views_reproduce_the_manuals_categorical_example(manual):
    manual.execute(
        "SELECT madnb.create_nb_probs_view('training', 'class', 'attributes', 'toclassify', 'id', 'attributes', 3, 'p')"
    )
    manual.execute(
        "SELECT madnb.create_nb_classify_view('training', 'class', 'attributes', 'toclassify', 'id', 'attributes', 3, 'c')"
    )
    got = {(k, c): p for k, c, p in manual.execute("SELECT key, class, nb_prob FROM p")}
    assert got == pytest.approx(MANUAL_PROBS, abs=1e-9)
    assert manual.execute("SELECT key, nb_classification FROM c ORDER BY key").fetchall() == [(1, [2]), (2, [1])]


def test_gaussian_training_gives_the_manuals_parameters(gaussian):
    gaussian.execute(
        "SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 3, "
        "'categ_feature_probs', 'numeric_attr_params', 'class_priors')"
    )
    params = gaussian.execute(
        "SELECT class, attr, attr_mean, attr_var FROM numeric_attr_params ORDER BY class, attr"
    ).fetchall()
    expected = [
        (1, 1, 5.855, 0.03503333333333333333),
        (1, 2, 176.25, 122.9166666666666667),
        (2, 1, 5.4175, 0.09722500000000000000),
        (2, 2, 132.5, 558.3333333333333333),
    ]
    assert [(c, a) for c, a, _, _ in params] == [(c, a) for c, a, _, _ in expected]
    for (_, _, m, v), (_, _, em, ev) in zip(params, expected):
        assert m == pytest.approx(em, rel=1e-12)
        assert v == pytest.approx(ev, rel=1e-12)
    fp = gaussian.execute("SELECT class, attr, value, cnt, attr_cnt FROM categ_feature_probs").fetchall()
    assert sorted(fp) == sorted(
        [(2, 3, 6, 2, 5), (1, 3, 12, 2, 5), (2, 3, 7, 1, 5), (1, 3, 11, 2, 5), (2, 3, 8, 1, 5),
         (2, 3, 12, 0, 5), (1, 3, 6, 0, 5), (2, 3, 11, 0, 5), (1, 3, 8, 0, 5), (1, 3, 7, 0, 5)]
    )
    assert gaussian.execute("SELECT class, class_cnt, all_cnt FROM class_priors ORDER BY 1").fetchall() == [(1, 4, 8), (2, 4, 8)]


@pytest.mark.parametrize("indices", ["ARRAY[1,2]", "{1,2}", "1,2", " array[ 2 , 1 ] "])
def test_gaussian_views_reproduce_the_manuals_example(gaussian, indices):
    gaussian.execute(
        "SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', %s, 3, "
        "'categ_feature_probs', 'numeric_attr_params', 'class_priors')",
        (indices,),
    )
    gaussian.execute(
        "SELECT madnb.create_nb_probs_view('categ_feature_probs', 'class_priors', 'gaussian_test', 'id', 'attributes', 3, "
        "'numeric_attr_params', 'probs_view')"
    )
    gaussian.execute(
        "SELECT madnb.create_nb_classify_view('categ_feature_probs', 'class_priors', 'gaussian_test', 'id', 'attributes', 3, "
        "'numeric_attr_params', 'classify_view')"
    )
    got = {(k, c): p for k, c, p in gaussian.execute("SELECT key, class, nb_prob FROM probs_view")}
    assert got.keys() == GAUSSIAN_PROBS.keys()
    for kc, p in GAUSSIAN_PROBS.items():
        assert got[kc] == pytest.approx(p, abs=1e-9, rel=1e-9)
    assert gaussian.execute("SELECT key, nb_classification FROM classify_view ORDER BY key").fetchall() == [(9, [1]), (10, [2])]


def test_gaussian_ad_hoc_views_reproduce_the_manuals_example(gaussian):
    gaussian.execute(
        "SELECT madnb.create_nb_probs_view('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 'gaussian_test', 'id', "
        "'attributes', 3, 'p')"
    )
    gaussian.execute(
        "SELECT madnb.create_nb_classify_view('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 'gaussian_test', 'id', "
        "'attributes', 3, 'c')"
    )
    got = {(k, c): p for k, c, p in gaussian.execute("SELECT key, class, nb_prob FROM p")}
    for kc, p in GAUSSIAN_PROBS.items():
        assert got[kc] == pytest.approx(p, abs=1e-9, rel=1e-9)
    assert gaussian.execute("SELECT key, nb_classification FROM c ORDER BY key").fetchall() == [(9, [1]), (10, [2])]


EXPECTED_SIGNATURES = {
    ("create_nb_prepared_data_tables", 6): ["trainingSource", "trainingClassColumn", "trainingAttrColumn", "numAttrs",
                                            "featureProbsDestName", "classPriorsDestName"],
    ("create_nb_prepared_data_tables", 8): ["trainingSource", "trainingClassColumn", "trainingAttrColumn",
                                            "numericAttrsColumnIndices", "numAttrs", "featureProbsDestName",
                                            "numericFeatureStatsDestName", "classPriorsDestName"],
}
# madnb's own statistics functions (issue 10) follow MADlib's argument names and order
EXPECTED_SIGNATURES[("create_nb_statistics", 5)] = ["trainingSource", "trainingClassColumn", "trainingAttrColumn",
                                                    "numAttrs", "statisticsDestName"]
EXPECTED_SIGNATURES[("create_nb_statistics", 6)] = ["trainingSource", "trainingClassColumn", "trainingAttrColumn",
                                                    "numericAttrsColumnIndices", "numAttrs", "statisticsDestName"]
EXPECTED_SIGNATURES[("create_nb_model_from_statistics", 4)] = ["statistics", "featureProbsDestName",
                                                               "numericFeatureStatsDestName", "classPriorsDestName"]
# federated training (issue 11): the servers and the remote statistics' name, then the model tables in MADlib's order
EXPECTED_SIGNATURES[("create_nb_federated_tables", 5)] = ["servers", "remoteStatisticsName", "featureProbsDestName",
                                                          "numericFeatureStatsDestName", "classPriorsDestName"]
# secure aggregation (issue 20): create_nb_statistics' arguments with one share table per aggregation server
EXPECTED_SIGNATURES[("create_nb_statistics_shares", 5)] = ["trainingSource", "trainingClassColumn", "trainingAttrColumn",
                                                           "numAttrs", "shareDestNames"]
EXPECTED_SIGNATURES[("create_nb_statistics_shares", 6)] = ["trainingSource", "trainingClassColumn", "trainingAttrColumn",
                                                           "numericAttrsColumnIndices", "numAttrs", "shareDestNames"]
EXPECTED_SIGNATURES[("create_nb_share_sum", 2)] = ["shareSources", "shareSumDestName"]
EXPECTED_SIGNATURES[("create_nb_model_from_shares", 4)] = ["shareSumSources", "featureProbsDestName",
                                                           "numericFeatureStatsDestName", "classPriorsDestName"]
for fn in ("create_nb_classify_view", "create_nb_probs_view"):
    EXPECTED_SIGNATURES[(fn, 7)] = ["featureProbsSource", "classPriorsSource", "classifySource", "classifyKeyColumn",
                                    "classifyAttrColumn", "numAttrs", "destName"]
    EXPECTED_SIGNATURES[(fn, 8, "prepared")] = ["featureProbsSource", "classPriorsSource", "classifySource",
                                                "classifyKeyColumn", "classifyAttrColumn", "numAttrs",
                                                "numericFeatureStatsSource", "destName"]
    EXPECTED_SIGNATURES[(fn, 8, "adhoc")] = ["trainingSource", "trainingClassColumn", "trainingAttrColumn",
                                             "classifySource", "classifyKeyColumn", "classifyAttrColumn", "numAttrs",
                                             "destName"]
    EXPECTED_SIGNATURES[(fn, 9)] = ["trainingSource", "trainingClassColumn", "trainingAttrColumn",
                                    "numericAttrsColumnIndices", "classifySource", "classifyKeyColumn",
                                    "classifyAttrColumn", "numAttrs", "destName"]


def test_every_madlib_overload_exists_with_madlibs_parameter_names(db):
    """Each MADlib overload exists exactly once: MADlib's parameter names lead, madnb's extras have defaults."""
    rows = db.execute(
        "SELECT p.proname, p.proargnames[1:p.pronargs], p.pronargdefaults FROM pg_proc p "
        "JOIN pg_namespace n ON n.oid = p.pronamespace "
        "WHERE n.nspname = 'madnb' AND p.proname LIKE 'create_nb_%'"
    ).fetchall()
    got = []
    for name, args, ndefaults in rows:
        leading = [
            tuple(want) for (fn, *_), want in EXPECTED_SIGNATURES.items()
            if fn == name and tuple(args[: len(want)]) == tuple(want)
        ]
        assert leading, f"{name}{tuple(args)} does not start with MADlib's parameters"
        madlib_args = max(leading, key=len)
        assert len(args) - len(madlib_args) <= ndefaults, f"{name}{tuple(args)}: extra parameters need defaults"
        got.append((name, madlib_args))
    want = sorted((key[0], tuple(args)) for key, args in EXPECTED_SIGNATURES.items())
    assert sorted(got) == want


def test_functions_accept_madlibs_named_arguments(manual):
    manual.execute(
        'SELECT madnb.create_nb_prepared_data_tables("trainingSource" => \'training\', "trainingClassColumn" => \'class\', '
        '"trainingAttrColumn" => \'attributes\', "numAttrs" => 3, "featureProbsDestName" => \'fp\', '
        '"classPriorsDestName" => \'cp\')'
    )
    manual.execute(
        'SELECT madnb.create_nb_probs_view("featureProbsSource" => \'fp\', "classPriorsSource" => \'cp\', '
        '"classifySource" => \'toclassify\', "classifyKeyColumn" => \'id\', "classifyAttrColumn" => \'attributes\', '
        '"numAttrs" => 3, "destName" => \'pv\')'
    )
    assert manual.execute("SELECT count(*) FROM pv").fetchone()[0] == 4


def test_unqualified_calls_work_with_madnb_on_the_search_path(manual):
    manual.execute("SET search_path = public, madnb")
    manual.execute("SELECT create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    manual.execute("SELECT create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'cv')")
    manual.execute("SELECT create_nb_probs_view('training', 'class', 'attributes', 'toclassify', 'id', 'attributes', 3, 'pv')")
    assert manual.execute("SELECT count(*) FROM cv").fetchone()[0] == 2
    assert manual.execute("SELECT count(*) FROM pv").fetchone()[0] == 4


def test_views_read_the_prepared_tables_live(manual):
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    manual.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'pv')")
    # Doubling class 1's prior (class_cnt 3 -> 6 of 9) multiplies its odds by 2.
    manual.execute("UPDATE cp SET class_cnt = CASE class WHEN 1 THEN 6 ELSE 3 END, all_cnt = 9")
    p = manual.execute("SELECT nb_prob FROM pv WHERE key = 1 AND class = 1").fetchone()[0]
    odds = (0.4 / 0.6) * 2
    assert p == pytest.approx(odds / (1 + odds), abs=1e-12)


@pytest.mark.parametrize(
    "elem, values",
    [("int", ["1", "2", "3"]), ("float8", ["1.5", "2.5", "3.5"]), ("numeric", ["1.10", "2.20", "3.30"]),
     ("text", ["a", "b", "c"]), ("bigint", ["10", "20", "30"])],
)
def test_categorical_attributes_of_any_array_type(db, elem, values):
    a, b, c = values
    db.execute(f"CREATE TABLE t (id int, cls int, x {elem}[])")
    db.execute(
        "INSERT INTO t VALUES (1, 1, ARRAY[%s, %s]::" + elem + "[]), (2, 1, ARRAY[%s, %s]::" + elem + "[]), "
        "(3, 2, ARRAY[%s, %s]::" + elem + "[])",
        (a, b, a, c, b, c),
    )
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'cls', 'x', 2, 'fp', 'cp')")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 't', 'id', 'x', 2, 'pv')")
    p = db.execute("SELECT nb_prob FROM pv WHERE key = 3 AND class = 2").fetchone()[0]
    # class 2 (1 row): P(a1=b|2) = (1+1)/(1+2), P(a2=c|2) = (1+1)/(1+2); class 1 (2 rows): (0+1)/(2+2), (1+1)/(2+2)
    s2 = (1 / 3) * (2 / 3) * (2 / 3)
    s1 = (2 / 3) * (1 / 4) * (2 / 4)
    assert p == pytest.approx(s2 / (s1 + s2), abs=1e-12)


@pytest.mark.parametrize("elem", ["float8", "numeric", "int", "bigint", "real"])
def test_numeric_attributes_of_any_numeric_array_type(db, elem):
    db.execute(f"CREATE TABLE t (id int, cls int, x {elem}[])")
    db.execute("INSERT INTO t VALUES (1,1,'{1}'), (2,1,'{3}'), (3,2,'{10}'), (4,2,'{14}'), (5,2,'{12}')")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'cls', 'x', '1', 1, 'fp', 'np', 'cp')")
    assert db.execute("SELECT class, attr_mean, attr_var FROM np ORDER BY class").fetchall() == [(1, 2.0, 2.0), (2, 12.0, 4.0)]
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 't', 'id', 'x', 1, 'np', 'pv')")
    p = db.execute("SELECT nb_prob FROM pv WHERE key = 1 AND class = 1").fetchone()[0]

    def logn(x, m, v):
        return -0.5 * math.log(2 * math.pi * v) - (x - m) ** 2 / (2 * v)

    l1 = math.log(2 / 5) + logn(1, 2, 2)
    l2 = math.log(3 / 5) + logn(1, 12, 4)
    assert p == pytest.approx(1 / (1 + math.exp(l2 - l1)), abs=1e-12)

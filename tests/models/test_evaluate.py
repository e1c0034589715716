"""madnb.evaluate (issue 12, point 4): a named model's metrics, computed in the database.

Every expected number is scikit-learn's metric function applied in the test to
the predictions and probabilities fetched from the model's own prediction
functions (<m>_predict, <m>_predict_proba_array), with labels = the model's classes.
"""

from __future__ import annotations

import csv
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn import metrics as skm

from conftest import data_file
from models_helpers import load_adult
from privacy_helpers import pl_calls

TOL = 1e-12


def fetch(db: psycopg.Connection[Any], model: str, table: str, label: str) -> tuple[list[str], list[Any], list[str], np.ndarray]:
    """The model's classes, and per labelled row: the true label, the prediction and the probabilities."""
    classes = db.execute("SELECT madnb.model_classes(%s)", [model]).fetchone()[0]
    rows = db.execute(
        f"SELECT t.{label}, madnb_models.{model}_predict(t.*), madnb_models.{model}_predict_proba_array(t.*) "
        f"FROM {table} t WHERE t.{label} IS NOT NULL"
    ).fetchall()
    return classes, [r[0] for r in rows], [r[1] for r in rows], np.array([r[2] for r in rows], dtype=np.float64)


def expected(classes: list[str], y_true: list[Any], y_pred: list[Any], proba: np.ndarray, ranked: bool = False) -> dict[str, Any]:
    """scikit-learn's metrics on the fetched predictions (labels = the model's classes); ``ranked``: as madnb.evaluate
    with curves => true, the one-vs-rest AUC of more than two classes too."""
    p, r, f, s = skm.precision_recall_fscore_support(y_true, y_pred, labels=classes, average=None, zero_division=0)
    avg = {}
    for how in ("macro", "weighted"):
        ap, ar, af, _ = skm.precision_recall_fscore_support(y_true, y_pred, labels=classes, average=how, zero_division=0)
        avg[how] = {"precision": ap, "recall": ar, "f1": af}
    known = np.array([y in classes for y in y_true])
    y_known = [y for y, k in zip(y_true, known, strict=True) if k]
    out = {
        "classes": classes,
        "rows": len(y_true),
        "unknown_label_rows": int((~known).sum()),
        "unscored_rows": 0,
        "accuracy": skm.accuracy_score(y_true, y_pred),
        "balanced_accuracy": skm.balanced_accuracy_score(y_true, y_pred),
        "precision": list(p), "recall": list(r), "f1": list(f), "support": [int(v) for v in s],
        "macro_avg": avg["macro"], "weighted_avg": avg["weighted"],
        "confusion_matrix": skm.confusion_matrix(y_true, y_pred, labels=classes).tolist(),
        "log_loss": skm.log_loss(y_known, proba[known], labels=classes),
        "roc_auc": None,
        "roc_auc_ovr": None,
        "positive_class": None,
    }
    if len(classes) > 2 and ranked:
        # one-vs-rest: each class's AUC against the rest; their mean is roc_auc_score(multi_class='ovr'), defined
        # (scikit-learn raises otherwise) when every class has labelled rows and is not every labelled row
        yk = np.array(y_known, dtype=object)
        defined = [0 < (yk == c).sum() < len(yk) for c in classes]
        out["roc_auc_ovr"] = [skm.roc_auc_score(yk == c, proba[known][:, j]) if ok else None
                              for j, (c, ok) in enumerate(zip(classes, defined, strict=True))]
        if all(defined):
            out["roc_auc"] = skm.roc_auc_score(y_known, proba[known], multi_class="ovr", labels=classes)
    if len(classes) == 2:
        # the positive class is the second of model_classes; its probability is the score
        out["roc_auc"] = skm.roc_auc_score([y == classes[1] for y in y_known], proba[known][:, 1])
        out["positive_class"] = classes[1]
    return out


def assert_close(got: Any, want: Any, path: str = "") -> None:
    if isinstance(want, dict):
        assert set(got) == set(want), path
        for k in want:
            assert_close(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_close(g, w, f"{path}[{i}]")
    elif isinstance(want, (float, np.floating)):
        assert got == pytest.approx(float(want), abs=TOL, rel=0), path
    else:
        assert got == want, path


def evaluate(db: psycopg.Connection[Any], *args: Any) -> dict[str, Any]:
    marks = ", ".join(["%s"] * len(args))
    return db.execute(f"SELECT madnb.evaluate({marks})", list(args)).fetchone()[0]


def test_evaluating_on_adult_gives_scikit_learns_metrics_of_the_same_predictions(db):
    load_adult(db, "adult")
    load_adult(db, "adult_test", "test")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    got = evaluate(db, "adult_nb", "adult_test")
    want = expected(*fetch(db, "adult_nb", "adult_test", "income"))
    assert_close(got, want)
    assert got["rows"] == 16281 and got["positive_class"] == ">50K"
    assert 0.5 < got["roc_auc"] < 1 and 0.7 < got["accuracy"] < 1


def load_mushroom(db: psycopg.Connection[Any]) -> None:
    """mushroom.csv as one text column per field (hyphens become underscores), '?' read as NULL, plus an id."""
    path = data_file("mushroom.csv")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    cols = [c.replace("-", "_") for c in rows[0]]
    db.execute(f"CREATE TABLE mushroom ({', '.join(c + ' text' for c in cols)})")
    with db.cursor().copy("COPY mushroom FROM STDIN WITH (FORMAT csv, HEADER true, NULL '?')") as copy:
        copy.write(path.read_bytes())
    db.execute("ALTER TABLE mushroom ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")


def test_evaluating_on_mushroom_with_a_label_column_of_another_name_gives_scikit_learns_metrics(db):
    load_mushroom(db)
    db.execute("CREATE VIEW mush_train AS SELECT * FROM mushroom WHERE id % 5 <> 0")
    # the held-out fifth with the label renamed: evaluate is told which column it is
    db.execute("CREATE VIEW mush_test AS SELECT m.*, m.edibility AS truth FROM mushroom m WHERE id % 5 = 0")
    db.execute("SELECT madnb.train('mush_nb', 'mush_train', 'edibility', exclude => ARRAY['id'])")
    got = evaluate(db, "mush_nb", "mush_test", "truth")
    want = expected(*fetch(db, "mush_nb", "mush_test", "truth"))
    assert_close(got, want)
    assert got["rows"] == 8124 // 5 and got["classes"] == ["e", "p"]


def test_null_labels_are_skipped_and_unknown_labels_count_as_wrong_as_scikit_learn_with_the_models_labels(db):
    db.execute("CREATE TABLE tr (x text, v float8, y text)")
    db.execute(
        "INSERT INTO tr SELECT (ARRAY['u','v','w'])[1 + i % 3], (i % 7)::float8 + (i % 3) * 2, (ARRAY['a','b','c'])[1 + i % 3] "
        "FROM generate_series(1, 60) i"
    )
    # three classes, noisy features; 'z' is not a class of the model, and NULL labels are skipped
    db.execute("CREATE TABLE te (x text, v float8, y text)")
    db.execute(
        "INSERT INTO te SELECT (ARRAY['u','v','w'])[1 + i % 3], (i % 5)::float8 * 1.5, "
        "(ARRAY['a','b','c','z','a',NULL,'z2'])[1 + i % 7] FROM generate_series(1, 70) i"
    )
    # far out of every class: the true classes' probabilities are 0 and log_loss clips them to eps, as scikit-learn
    db.execute("INSERT INTO te VALUES ('u', 1e6, 'a'), ('v', -1e6, 'b'), ('w', 1e6, 'c')")
    db.execute("SELECT madnb.train('three', 'tr', 'y')")
    got = evaluate(db, "three", "te")
    want = expected(*fetch(db, "three", "te", "y"))
    assert_close(got, want)
    assert got["rows"] == 63 and got["unknown_label_rows"] == 20 and got["roc_auc"] is None
    _classes, _y, _pred, proba = fetch(db, "three", "te", "y")
    assert (proba == 0).any()


@pytest.mark.parametrize(
    "args, sqlstate",
    [
        (("nope", "tr"), "42704"),  # unknown model
        (("m", "tr", "no_such_column"), "42703"),  # missing label column
        (("m", "no_such_table"), "42P01"),
        ((None, "tr"), "22004"),
        (("m", None), "22004"),
    ],
    ids=["unknown model", "missing label column", "missing source", "NULL model", "NULL source"],
)
def test_evaluate_refuses_bad_arguments_with_their_sqlstate(db, args, sqlstate):
    db.execute("CREATE TABLE tr AS SELECT (i % 2)::text AS x, (ARRAY['a','b'])[1 + i % 2] AS y FROM generate_series(1, 10) i")
    db.execute("SELECT madnb.train('m', 'tr', 'y')")
    with pytest.raises(psycopg.Error) as e:
        evaluate(db, *args)
    assert e.value.diag.sqlstate == sqlstate


def test_a_source_without_the_models_label_or_a_feature_column_is_42703_and_without_labelled_rows_22000(db):
    db.execute("CREATE TABLE tr AS SELECT (i % 2)::text AS x, (ARRAY['a','b'])[1 + i % 2] AS y FROM generate_series(1, 10) i")
    db.execute("SELECT madnb.train('m', 'tr', 'y')")
    db.execute("CREATE TABLE unlabelled AS SELECT x FROM tr")
    with pytest.raises(psycopg.Error) as e:
        evaluate(db, "m", "unlabelled")
    assert e.value.diag.sqlstate == "42703"
    # a feature column missing: the row form's error, naming the column (the rows near a tie are not what fails)
    db.execute("CREATE TABLE featureless AS SELECT y FROM tr")
    with pytest.raises(psycopg.Error) as e:
        evaluate(db, "m", "featureless")
    assert e.value.diag.sqlstate == "42703" and '"x"' in e.value.diag.message_primary, e.value.diag.message_primary
    db.execute("CREATE TABLE nulls AS SELECT x, NULL::text AS y FROM tr")
    with pytest.raises(psycopg.Error) as e:
        evaluate(db, "m", "nulls")
    assert e.value.diag.sqlstate == "22000"
    assert "labelled" in e.value.diag.message_primary


def test_a_source_with_columns_named_as_the_querys_aliases_is_evaluated_on_its_rows(db):
    # evaluate reads the source as "s" and its per-row results as "r": columns of those names change nothing
    db.execute("CREATE TABLE tr AS SELECT (i % 2)::text AS x, (ARRAY['a','b'])[1 + i % 2] AS y FROM generate_series(1, 10) i")
    db.execute("SELECT madnb.train('m', 'tr', 'y')")
    db.execute("CREATE TABLE te AS SELECT x, y, 1 AS s, 2 AS r, 3 AS t FROM tr")
    got = evaluate(db, "m", "te")
    assert_close(got, expected(*fetch(db, "m", "te", "y")))
    assert got["accuracy"] == 1.0


def noisy_three_classes(db: psycopg.Connection[Any], rows: int) -> None:
    """Table tr (x text, v float8, y text) of ``rows`` rows, three overlapping classes; model 'three' trained on it."""
    db.execute(
        "CREATE TABLE tr AS SELECT (ARRAY['u','v','w'])[1 + (i * 7) %% 5 %% 3] AS x, (i %% 11)::float8 + (i %% 3) * 1.5 AS v, "
        "(ARRAY['a','b','c'])[1 + i %% 3] AS y FROM generate_series(1, %s) i",
        (rows,),
    )
    db.execute("SELECT madnb.train('three', 'tr', 'y')")


def test_evaluate_scores_each_row_once_calling_the_models_predict_only_for_rows_near_a_tie(db):
    noisy_three_classes(db, 600)
    classes, _y, _pred, proba = fetch(db, "three", "tr", "y")
    top2 = np.sort(proba, axis=1)[:, -2:]
    near = int((top2[:, 0] >= 0.99 * top2[:, 1]).sum())  # the second most probable class within 1% of the first
    assert near < len(proba) // 10
    db.execute("SET max_parallel_workers_per_gather = 0")  # every call in this backend, where pl_calls counts it
    before = {f: pl_calls(db, f) for f in ("_nb_proba", "_nb_best")}
    got = evaluate(db, "three", "tr")
    calls = {f: pl_calls(db, f) - before[f] for f in before}
    # the probabilities once per row (the old query also called <m>_predict on every row: _nb_best 600 times)
    assert calls == {"_nb_proba": 600, "_nb_best": near}
    assert_close(got, expected(*fetch(db, "three", "tr", "y")))


def test_evaluate_predicts_exactly_what_predict_does_on_ties_and_near_ties(db):
    # two classes whose one Gaussian feature differs by 1e-6 in mean: at the midpoint their log-likelihoods
    # tie within predict's tolerance (1e-12 relative), where predict returns the first class even when the
    # second's probability is larger by a few ulps; a row without the feature ties exactly (the priors)
    db.execute("CREATE TABLE tr (v float8, y text)")
    db.execute("INSERT INTO tr SELECT v + CASE WHEN y = 'b' THEN 1e-6 ELSE 0 END, y "
               "FROM unnest(ARRAY[0.0, 2.0, 0.5, 1.5]) v, unnest(ARRAY['a', 'b']) y")
    db.execute("SELECT madnb.train('twins', 'tr', 'y')")
    db.execute("CREATE TABLE te AS SELECT 1 + 5e-7 + k * 1e-9 AS v, (ARRAY['a', 'b'])[1 + abs(k) % 2] AS y "
               "FROM generate_series(-30, 30) k UNION ALL SELECT NULL, 'b' UNION ALL SELECT 5, 'b' UNION ALL SELECT -3, 'a'")
    classes, y, pred, proba = fetch(db, "twins", "te", "y")
    assert classes == ["a", "b"]
    # the situation: rows whose larger probability is not predict's class
    assert any(p == "a" and pr[1] > pr[0] for p, pr in zip(pred, proba, strict=True))
    got = evaluate(db, "twins", "te")
    assert got["confusion_matrix"] == skm.confusion_matrix(y, pred, labels=classes).tolist()
    assert_close(got, expected(classes, y, pred, proba))


def test_both_spellings_of_the_clear_class_rule_read_the_class_the_margin_defines(db):
    # predicted_class_sql's rule: class i is read off the probabilities when every other class's is below 0.99
    # times its own (CLEAR_MARGIN); otherwise the row takes the exact path (here 0).  Up to PAIRWISE_CLASSES
    # classes it compares pair by pair, past them against the largest computed a level below: on the same
    # arrays (random, second exactly at / one ulp around the margin, equal, zeros, a NaN, a NULL element)
    # both spellings give the class the rule defines, computed here in float64
    from madnb_pl.models.evaluate import CLEAR_MARGIN, PAIRWISE_CLASSES, margin_level_sql, margin_sql, predicted_class_sql, subscripts

    rng = np.random.default_rng(3)
    for k in range(2, PAIRWISE_CLASSES + 3):
        rows: list[list[float | None]] = [list(rng.dirichlet(np.ones(k) * a)) for a in (0.3, 1.0, 5.0) for _ in range(40)]
        for top in (0.6, 0.3, 1.0 / k):
            edge = top * (1 - CLEAR_MARGIN)
            for second in (edge, np.nextafter(edge, 0), np.nextafter(edge, 1), top):
                rows.append([top, second] + [0.0] * (k - 2))
                rows.append([0.0] * (k - 2) + [second, top])
        rows += [[0.0] * k, [float("nan")] + [0.1] * (k - 1), [None] + [0.5] * (k - 1)]
        pairwise = predicted_class_sql(subscripts(k, "q.pr"), None, "0")
        largest = margin_sql(subscripts(k, "q.pr"))
        margin = predicted_class_sql(subscripts(k, "q.pr"), "q.m", "0")
        both = f"SELECT {pairwise}, {margin.replace('q.m', f'({largest})')} FROM (SELECT %s::float8[] AS pr) AS q"
        for r in rows:
            a, b = db.execute(both, (r,)).fetchone()
            if None in r:  # no class is clear beside a NULL: the exact path (the margin's spelling skipped the NULL)
                assert a == 0, (k, r, a)
                continue
            if any(v != v for v in r):  # NaN: above every number in PostgreSQL's order, in both spellings
                assert a == b == 1, (k, r, a, b)
                continue
            clear = [i for i, p in enumerate(r) if all(q < p * (1 - CLEAR_MARGIN) for j, q in enumerate(r) if j != i)]
            want = clear[0] + 1 if clear else 0
            assert (a, b) == (want, want), (k, r, a, b)
        assert (margin_level_sql(subscripts(k, "q.pr")) is None) == (k <= PAIRWISE_CLASSES)


def test_evaluate_scans_the_source_in_parallel_workers(db):
    noisy_three_classes(db, 2000)
    db.execute("SET parallel_setup_cost = 0")
    db.execute("SET parallel_tuple_cost = 0")
    db.execute("SET min_parallel_table_scan_size = 0")
    db.execute("LOAD 'auto_explain'")
    db.execute("SET auto_explain.log_min_duration = 0")
    db.execute("SET auto_explain.log_nested_statements = on")
    db.execute("SET auto_explain.log_level = notice")
    db.execute("SET jit = on")
    plans: list[str] = []
    db.add_notice_handler(lambda d: plans.append(d.message_primary or ""))
    got = evaluate(db, "three", "tr")
    db.execute("SET auto_explain.log_min_duration = -1")
    scans = [p for p in plans if "three_predict_proba_array" in p]
    assert len(scans) == 1 and "Gather" in scans[0] and "Parallel Seq Scan" in scans[0], scans
    assert db.execute("SELECT current_setting('jit')").fetchone()[0] == "on"  # off for the statement only
    assert_close(got, expected(*fetch(db, "three", "tr", "y")))


def test_evaluate_in_a_read_only_transaction_gives_the_same_metrics(db):
    noisy_three_classes(db, 300)
    want = evaluate(db, "three", "tr")
    with db.transaction():
        db.execute("SET TRANSACTION READ ONLY")
        assert evaluate(db, "three", "tr") == want


def test_a_model_whose_label_and_source_need_quoting_evaluates(db):
    # the catalog keeps the label's bare name: evaluate must quote it to find the column again
    db.execute('CREATE TABLE "Odd Src" (id int, "y y" text, a float8, b text)')
    db.execute("""INSERT INTO "Odd Src" SELECT i, CASE WHEN i % 3 = 0 THEN 'p' ELSE 'q' END, i % 7, """
               """(ARRAY['x', 'z'])[1 + i % 2] FROM generate_series(1, 300) AS i""")
    db.execute("""SELECT madnb.train('odd_nb', '"Odd Src"', '"y y"', exclude => ARRAY['id'])""")
    got = db.execute("""SELECT madnb.evaluate('odd_nb', '"Odd Src"')""").fetchone()[0]
    predicted = db.execute('SELECT madnb_models.odd_nb_predict(s) = s."y y" FROM "Odd Src" AS s').fetchall()
    assert got["accuracy"] == pytest.approx(sum(p for (p,) in predicted) / len(predicted), rel=1e-12)


def load_student(db: psycopg.Connection[Any]) -> None:
    """student_por.csv as a table: its columns snake-cased, the numeric ones int, the rest text, plus an id."""
    path = data_file("student_por.csv")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    cols = ["_".join(c.strip().split()) for c in rows[0]]
    numeric = [all(r[i].lstrip("-").isdigit() for r in rows[1:]) for i in range(len(cols))]
    db.execute("CREATE TABLE student (" + ", ".join(f'"{c}" {"int" if n else "text"}' for c, n in zip(cols, numeric, strict=True)) + ")")
    with db.cursor().copy("COPY student FROM STDIN") as copy:
        for r in rows[1:]:
            copy.write_row(r)
    db.execute("ALTER TABLE student ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")


def test_a_five_class_model_has_scikit_learns_one_vs_rest_roc_auc_and_each_classs_auc(db):
    load_student(db)
    db.execute("CREATE VIEW st_train AS SELECT * FROM student WHERE id % 4 <> 0")
    db.execute("CREATE VIEW st_test AS SELECT * FROM student WHERE id % 4 = 0")
    db.execute("""SELECT madnb.train('mjob_nb', 'st_train', 'mothers_job', exclude => ARRAY['id'])""")
    got = evaluate(db, "mjob_nb", "st_test", None, True)
    got.pop("curves")
    want = expected(*fetch(db, "mjob_nb", "st_test", "mothers_job"), ranked=True)
    assert_close(got, want)
    assert got["classes"] == ["at_home", "health", "other", "services", "teacher"]
    assert got["roc_auc"] == pytest.approx(np.mean(got["roc_auc_ovr"]), abs=1e-15) and 0.5 < got["roc_auc"] < 1


def test_a_class_without_a_labelled_row_leaves_the_one_vs_rest_roc_auc_undefined_but_not_the_other_classes(db):
    load_student(db)
    db.execute("CREATE VIEW st_test AS SELECT * FROM student WHERE mothers_job <> 'health'")
    db.execute("""SELECT madnb.train('mjob_nb', 'student', 'mothers_job', exclude => ARRAY['id'])""")
    got = evaluate(db, "mjob_nb", "st_test", None, True)
    got.pop("curves")
    with pytest.warns(UserWarning, match="y_pred contains classes not in y_true"):  # 'health' predicted, never true
        want = expected(*fetch(db, "mjob_nb", "st_test", "mothers_job"), ranked=True)
    assert_close(got, want)
    assert got["roc_auc"] is None and got["roc_auc_ovr"][1] is None and None not in got["roc_auc_ovr"][::2]


def thinned(n: int, most: int = 1000) -> list[int]:
    """The positions of n points a curve keeps: all up to ``most``, else the first, the last and every ceil(n / most)-th."""
    step = -(-n // most)
    return list(range(n)) if n <= most else [i for i in range(n) if i in (0, n - 1) or (i + 1) % step == 0]


def assert_curves(got: dict[str, Any], classes: list[str], y: list[Any], proba: np.ndarray, ranked: list[int]) -> None:
    """madnb.evaluate's curves against scikit-learn's roc_curve, precision_recall_curve(drop_intermediate=True),
    average_precision_score and calibration_curve(n_bins=10) of each ranked class against the rest (a curve of more
    than 1,000 points: those :func:`thinned` keeps of scikit-learn's, in order of decreasing threshold)."""
    from sklearn.calibration import calibration_curve

    assert [c["class"] for c in got["roc"]] == [classes[j] for j in ranked]
    y = np.array(y, dtype=object)
    for roc, pr, cal, j in zip(got["roc"], got["precision_recall"], got["calibration"], ranked, strict=True):
        truth, score = y == classes[j], proba[:, j]
        fpr, tpr, thr = skm.roc_curve(truth, score)
        keep = [0] + [1 + i for i in thinned(len(fpr) - 1)]  # scikit-learn's first point (0, 0) at inf, then its points
        fpr, tpr, thr = fpr[keep], tpr[keep], thr[keep]
        assert roc["fpr"] == pytest.approx(list(fpr), abs=TOL) and roc["tpr"] == pytest.approx(list(tpr), abs=TOL)
        assert roc["thresholds"][0] is None and roc["thresholds"][1:] == pytest.approx(list(thr[1:]), abs=TOL)
        assert roc["auc"] == pytest.approx(skm.roc_auc_score(truth, score), abs=TOL)
        precision, recall, thr = skm.precision_recall_curve(truth, score, drop_intermediate=True)
        n = len(thr)  # the points by increasing threshold, then scikit-learn's last (1, 0)
        keep = sorted(n - 1 - i for i in thinned(n)) + [n]
        precision, recall, thr = precision[keep], recall[keep], thr[keep[:-1]]
        assert pr["precision"] == pytest.approx(list(precision), abs=TOL) and pr["recall"] == pytest.approx(list(recall), abs=TOL)
        assert pr["thresholds"] == pytest.approx(list(thr), abs=TOL)
        assert pr["average_precision"] == pytest.approx(skm.average_precision_score(truth, score), abs=TOL)
        prob_true, prob_pred = calibration_curve(truth, score, n_bins=10)
        assert cal["prob_true"] == pytest.approx(list(prob_true), abs=TOL) and cal["prob_pred"] == pytest.approx(list(prob_pred), abs=TOL)
        assert sum(cal["count"]) == len(y) and len(cal["bin"]) == len(prob_true)


def test_the_curves_of_a_two_class_model_on_adult_are_scikit_learns_for_the_positive_class(db):
    load_adult(db, "adult")
    load_adult(db, "adult_test", "test")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    got = db.execute("SELECT madnb.evaluate('adult_nb', 'adult_test', curves => true)").fetchone()[0]
    classes, y, pred, proba = fetch(db, "adult_nb", "adult_test", "income")
    curves = got.pop("curves")
    assert_close(got, expected(classes, y, pred, proba))  # the metrics are those without curves
    assert_curves(curves, classes, y, proba, [1])
    assert 500 < len(curves["roc"][0]["fpr"]) <= 1002 and 0.5 < curves["precision_recall"][0]["average_precision"] < 1


def test_the_curves_of_a_five_class_model_are_scikit_learns_one_against_the_rest_and_give_the_roc_auc(db):
    load_student(db)
    db.execute("CREATE VIEW st_train AS SELECT * FROM student WHERE id % 4 <> 0")
    db.execute("CREATE VIEW st_test AS SELECT * FROM student WHERE id % 4 = 0")
    db.execute("SELECT madnb.train('mjob_nb', 'st_train', 'mothers_job', exclude => ARRAY['id'])")
    plain = evaluate(db, "mjob_nb", "st_test")
    got = db.execute("SELECT madnb.evaluate('mjob_nb', 'st_test', curves => true)").fetchone()[0]
    classes, y, pred, proba = fetch(db, "mjob_nb", "st_test", "mothers_job")
    want = expected(classes, y, pred, proba, ranked=True)
    assert plain["roc_auc"] is None and plain["roc_auc_ovr"] is None  # without curves: no ranking of 5 classes
    assert_close(plain, expected(classes, y, pred, proba))
    curves = got.pop("curves")
    assert_close(got, want)
    assert_curves(curves, classes, y, proba, list(range(5)))
    assert [c["auc"] for c in curves["roc"]] == got["roc_auc_ovr"]


def test_curves_must_not_be_null(db):
    db.execute("CREATE TABLE t AS SELECT i % 2 AS y, (i % 5)::float8 AS x FROM generate_series(1, 20) i")
    db.execute("SELECT madnb.train('m', 't', 'y')")
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT madnb.evaluate('m', 't', curves => NULL)")
    assert e.value.sqlstate == "22004"


def test_rows_without_a_prediction_are_left_out_of_every_metric_and_counted_apart(db):
    # a multinomial model's NULL vectors (and a dense one of another length) have no prediction: scikit-learn's
    # metrics of the other rows, those rows in unscored_rows, a NOTICE; none scored at all is 22000
    rng = np.random.default_rng(7)
    x = rng.integers(0, 6, size=(120, 4))
    y = np.where(x[:, 0] + rng.integers(0, 4, 120) > 4, "b", "a")
    db.execute("CREATE TABLE vec (id int, v int[], label text)")
    with db.cursor().copy("COPY vec FROM STDIN") as copy:
        for i, (row, lab) in enumerate(zip(x.tolist(), y, strict=True)):
            copy.write_row([i, row, lab])
    db.execute("SELECT madnb.train('vec_nb', 'vec', 'label', exclude => ARRAY['id'], kind => 'multinomial')")
    db.execute("INSERT INTO vec SELECT 1000 + i, NULL, 'a' FROM generate_series(1, 7) i")
    db.execute("INSERT INTO vec VALUES (2000, ARRAY[1, 2], 'b')")
    notices: list[str] = []
    db.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    got = evaluate(db, "vec_nb", "vec")
    classes = db.execute("SELECT madnb.model_classes('vec_nb')").fetchone()[0]
    scored = db.execute("SELECT t.label, madnb_models.vec_nb_predict(t.*), madnb_models.vec_nb_predict_proba_array(t.*) "
                        "FROM vec t WHERE madnb_models.vec_nb_predict(t.*) IS NOT NULL").fetchall()
    want = expected(classes, [r[0] for r in scored], [r[1] for r in scored], np.array([r[2] for r in scored], dtype=np.float64))
    want["unscored_rows"] = 8
    assert len(scored) == 120
    assert_close(got, want)
    assert any("8 row(s) without a prediction" in n for n in notices)
    db.execute("CREATE TABLE vec_none AS SELECT * FROM vec WHERE id >= 1000")
    with pytest.raises(psycopg.Error) as err:
        evaluate(db, "vec_nb", "vec_none")
    assert err.value.sqlstate == "22000" and "has a prediction" in str(err.value)


def test_rows_near_a_tie_are_predicted_as_predict_does_from_the_columns_the_row_form_reads(db):
    # rows whose classes tie exactly (the priors: every value unseen or missing) or nearly, with features of an enum, a
    # varchar, a domain and a name that needs quoting: evaluate carries those columns beside each row's probabilities
    # and calls the column form for a row near a tie, with the arguments the row form passes (an enum's label as text)
    db.execute("CREATE TYPE colour AS ENUM ('red', 'green', 'blue')")
    db.execute("CREATE DOMAIN legs AS int CHECK (VALUE >= 0)")
    db.execute('CREATE TABLE tr (c colour, s varchar(5), l legs, "Odd Name" float8, y text)')
    db.execute("INSERT INTO tr SELECT (ARRAY['red','green']::colour[])[1 + i % 2], (ARRAY['s','m'])[1 + i / 2 % 2], "
               "i % 3, (i % 5)::float8 + CASE WHEN i % 2 = 0 THEN 1e-7 ELSE 0 END, (ARRAY['a','b'])[1 + i % 2] "
               "FROM generate_series(1, 40) i")
    db.execute("SELECT madnb.train('ties', 'tr', 'y', categorical => ARRAY['c', 's', 'l'])")
    db.execute('CREATE TABLE te AS SELECT c, s, l, "Odd Name", y, 0 AS x1 FROM tr '
               "UNION ALL SELECT 'blue', 'xl', 7, NULL, 'b', 1 UNION ALL SELECT NULL, NULL, NULL, NULL, 'b', 2 "
               "UNION ALL SELECT 'blue', NULL, NULL, 2, 'a', 3")
    classes, y, pred, proba = fetch(db, "ties", "te", "y")
    assert sum(1 for pr in proba if abs(pr[0] - pr[1]) < 1e-9) >= 2  # the situation: exact ties
    got = evaluate(db, "ties", "te")
    assert got["confusion_matrix"] == skm.confusion_matrix(y, pred, labels=classes).tolist()
    assert_close(got, expected(classes, y, pred, proba))


def test_rows_near_a_tie_of_a_model_without_a_column_form_are_predicted_by_its_row_form(db):
    # 101 features: no column form (PostgreSQL's 100 arguments), so evaluate carries the whole row for them
    cols = ", ".join(f"(i * {j} % 3)::text AS f{j}" for j in range(1, 102))
    db.execute(f"CREATE TABLE tr AS SELECT {cols}, (ARRAY['a','b'])[1 + i % 2] AS y FROM generate_series(1, 30) i")
    db.execute("SELECT madnb.train('wide', 'tr', 'y')")
    nulls = ", ".join(f"NULL::text AS f{j}" for j in range(1, 102))
    db.execute(f"CREATE TABLE te AS SELECT * FROM tr UNION ALL SELECT {nulls}, 'b' UNION ALL SELECT {nulls}, 'a'")
    classes, y, pred, proba = fetch(db, "wide", "te", "y")
    assert any(abs(pr[0] - pr[1]) < 1e-12 for pr in proba)
    got = evaluate(db, "wide", "te")
    assert_close(got, expected(classes, y, pred, proba))


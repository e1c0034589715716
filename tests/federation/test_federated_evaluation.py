"""Federated evaluation (issue 22, point 6): owners release the counts behind a model's metrics, the aggregator adds them.

The expected metrics are madnb.evaluate's on the union of the owners' rows (its
own tests check it against scikit-learn), and for a private release scikit-learn's
of the binned scores computed here.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg import sql
from sklearn import metrics as skm

from models_helpers import ADULT_COLUMNS, load_adult, plant_on_search_path
from remote import RemoteDb, link_server

TOL = 1e-12


def assert_close(got: Any, want: Any, path: str = "", tol: float = TOL) -> None:
    """Equal, floats within ``tol`` (absolute)."""
    if isinstance(want, dict):
        assert set(got) == set(want), path
        for k in want:
            assert_close(got[k], want[k], f"{path}.{k}", tol)
    elif isinstance(want, list):
        assert len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_close(g, w, f"{path}[{i}]", tol)
    elif isinstance(want, float):
        assert got == pytest.approx(want, abs=tol, rel=0), path
    else:
        assert got == want, path


def release(conn: psycopg.Connection[Any], model: str, source: str, output: str, **options: Any) -> dict[str, Any]:
    named = "".join(f", {k} => %({k})s" for k in options)
    return conn.execute(f"SELECT madnb.release_evaluation(%(m)s, %(s)s, %(o)s{named})",
                        {"m": model, "s": source, "o": output, **options}).fetchone()[0]


def federated(conn: psycopg.Connection[Any], sources: list[str], **options: Any) -> dict[str, Any]:
    named = "".join(f", {k} => %({k})s" for k in options)
    return conn.execute(f"SELECT madnb.evaluate_from_releases(%(s)s{named})", {"s": sources, **options}).fetchone()[0]


def evaluate(conn: psycopg.Connection[Any], model: str, source: str, curves: bool = False) -> dict[str, Any]:
    return conn.execute("SELECT madnb.evaluate(%s, %s, curves => %s)", [model, source, curves]).fetchone()[0]


def without_federation(m: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in m.items() if k != "federation"}


def train_adult_without_parallel_workers(conn: psycopg.Connection[Any]) -> None:
    """adult_train and model adult_nb, its sums in one order (no parallel workers), so every server derives the same numbers."""
    load_adult(conn, "adult")
    conn.execute("SET max_parallel_workers_per_gather = 0")
    conn.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    conn.execute("RESET max_parallel_workers_per_gather")


def test_three_owners_on_real_clusters_release_adult_and_the_sum_is_evaluate_on_the_union(db, remote_dbs: list[RemoteDb]) -> None:
    train_adult_without_parallel_workers(db)
    load_adult(db, "adult_test", "test")
    for i, r in enumerate(remote_dbs):
        r.install_madnb()
        train_adult_without_parallel_workers(r.conn)
        load_adult(r.conn, "adult_test", "test")
        r.conn.execute("DELETE FROM adult_test WHERE id %% 3 <> %s", [i])  # owner i's third of the test rows
        release(r.conn, "adult_nb", "adult_test", "adult_eval", curves=True)
        link_server(db, r, f"owner{i + 1}", extensions=("postgres_fdw", "dblink"))
        db.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(f"owner{i + 1}")))
        db.execute(sql.SQL("IMPORT FOREIGN SCHEMA public LIMIT TO (adult_eval) FROM SERVER {} INTO {}").format(
            sql.Identifier(f"owner{i + 1}"), sql.Identifier(f"owner{i + 1}")))
    sources = [f"owner{i}.adult_eval" for i in (1, 2, 3)]
    for curves in (False, True):
        got = federated(db, sources, model="adult_nb", curves=curves)
        want = evaluate(db, "adult_nb", "adult_test", curves)
        assert_close(without_federation(got), want)
        assert got["rows"] == 16281 and got["federation"]["mode"] == "exact"
        assert [x["rows"] for x in got["federation"]["releases"]] == [
            db.execute("SELECT count(*) FROM adult_test WHERE id %% 3 = %s AND income IS NOT NULL", [i]).fetchone()[0] for i in range(3)]
    assert got["confusion_matrix"] == want["confusion_matrix"] and "curves" in got
    # the same releases pulled over dblink (server:table), one of them by its foreign table
    got = federated(db, ["owner1:adult_eval", "owner2:public.adult_eval", "owner3.adult_eval"], model="adult_nb", curves=True)
    assert_close(without_federation(got), want)
    assert [x["source"] for x in got["federation"]["releases"]] == [
        "public.adult_eval on server owner1", "public.adult_eval on server owner2",
        "owner3.adult_eval (a foreign table of server owner3)"]
    assert db.execute("SELECT count(*) FROM pg_class WHERE relpersistence = 't'").fetchone() == (0,)
    with pytest.raises(psycopg.Error) as info:
        federated(db, ["owner1:adult_eval", "owner1.adult_eval"])
    assert info.value.diag.sqlstate == "22023" and "sources[2] (owner1.adult_eval" in info.value.diag.message_primary
    assert "listed twice" in info.value.diag.message_primary
    with pytest.raises(psycopg.Error) as info:
        federated(db, ["owner1:adult_test"])
    assert info.value.diag.sqlstate == "22023" and "is not a madnb evaluation release" in info.value.diag.message_primary


def three_owners(db: psycopg.Connection[Any]) -> None:
    """Model 'three' (3 classes) trained on tr, and three owners' labelled tables o1..o3 with NULL labels and
    labels that are not classes ('zz' at two owners, 'yy' at one), their union u."""
    db.execute(
        "CREATE TABLE tr AS SELECT (ARRAY['u','v','w'])[1 + (i * 7) % 5 % 3] AS x, (i % 11)::float8 + (i % 3) * 1.5 AS v, "
        "(ARRAY['a','b','c'])[1 + i % 3] AS y FROM generate_series(1, 600) i"
    )
    db.execute("SELECT madnb.train('three', 'tr', 'y')")
    db.execute(
        "CREATE TABLE u AS SELECT i, (ARRAY['u','v','w'])[1 + (i * 5) % 7 % 3] AS x, (i % 13)::float8 * 0.9 AS v, "
        "CASE WHEN i % 50 = 0 THEN NULL WHEN i % 97 = 0 THEN 'zz' WHEN i = 301 THEN 'yy' ELSE (ARRAY['a','b','c'])[1 + i % 3] END AS y "
        "FROM generate_series(1, 900) i"
    )
    for k in (1, 2, 3):
        db.execute(f"CREATE TABLE o{k} AS SELECT x, v, y FROM u WHERE i % 3 = {k - 1}")


def test_exact_releases_of_three_classes_add_up_to_evaluate_on_the_union_with_labels_that_are_not_classes(db):
    three_owners(db)
    for k in (1, 2, 3):
        release(db, "three", f"o{k}", f"e{k}", curves=True)
    sources = ["e1", "e2", "e3"]
    for curves in (False, True):
        got = federated(db, sources, curves=curves)
        assert_close(without_federation(got), evaluate(db, "three", "u", curves))
    # the unknown labels are counted once each across the owners ('zz' is at two): scikit-learn's balanced accuracy
    y = [r[0] for r in db.execute("SELECT y FROM u WHERE y IS NOT NULL ORDER BY i")]
    pred = [r[0] for r in db.execute("SELECT madnb_models.three_predict(u.*) FROM u WHERE y IS NOT NULL ORDER BY i")]
    assert got["balanced_accuracy"] == pytest.approx(skm.balanced_accuracy_score(y, pred), abs=TOL)
    assert got["unknown_label_rows"] == sum(v in ("zz", "yy") for v in y)


def test_a_release_holds_counts_not_rows_and_a_header_naming_the_model(db):
    three_owners(db)
    h = release(db, "three", "o1", "e1")
    assert h["mode"] == "exact" and h["model"] == "three" and h["classes"] == ["a", "b", "c"] and h["ranked"] == []
    assert h["rows"] == db.execute("SELECT count(y) FROM o1").fetchone()[0]
    comment = db.execute("SELECT obj_description('e1'::regclass, 'pg_class')").fetchone()[0]
    assert json.loads(comment.removeprefix("madnb evaluation ")) == h
    parts = dict(db.execute("SELECT part, count(*) FROM e1 GROUP BY part").fetchall())
    assert set(parts) == {"cell"}  # three classes without curves: no scores
    assert db.execute("SELECT sum(n) FROM e1").fetchone()[0] == h["rows"]


def test_a_private_release_is_charged_to_the_owners_ledger_and_with_a_large_epsilon_gives_the_binned_metrics(db):
    load_adult(db, "adult")
    load_adult(db, "adult_test", "test")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    h = release(db, "adult_nb", "adult_test", "adult_eval", epsilon=1e5, score_bins=20)
    assert h["mode"] == "private" and h["epsilon"] == "100000" and h["score_bins"] == 20
    assert h["sensitivity"] == {"cells": 1, "loss": h["sensitivity"]["loss"], "scores": 1}
    assert h["sensitivity"]["loss"] == int(np.ceil(-np.log(2.0**-52) * 2**16))
    ledger = db.execute("SELECT epsilon, mechanism, parameters FROM madnb.privacy_ledger WHERE release_id = %s",
                        [h["release_id"]]).fetchone()
    assert ledger[0] == 100000 and ledger[1].startswith("discrete laplace") and ledger[2]["parts"] == ["cells", "loss", "scores"]
    # every cell of the public domain is released: (2 classes + NULL)^2 cells, a loss sum, 20 bins
    assert dict(db.execute("SELECT part, count(*) FROM adult_eval GROUP BY part").fetchall()) == {"cell": 9, "loss": 1, "score": 20}
    got = federated(db, ["adult_eval"], model="adult_nb")
    want = evaluate(db, "adult_nb", "adult_test")
    # epsilon 1e5 over three parts: noise of scale 3e-5 on a count is 0 but with probability about 2 exp(-33333)
    assert got["confusion_matrix"] == want["confusion_matrix"] and got["accuracy"] == want["accuracy"]
    assert got["log_loss"] == pytest.approx(want["log_loss"], abs=1e-4)
    # the AUC of the scores binned: each row's score read at its bin's midpoint
    y, p = zip(*db.execute(
        "SELECT income = '>50K', (madnb_models.adult_nb_predict_proba_array(t.*))[2] FROM adult_test t WHERE income IS NOT NULL"))
    binned = (np.minimum(np.floor(np.array(p) * 20), 19) + 0.5) / 20
    assert got["roc_auc"] == pytest.approx(skm.roc_auc_score(y, binned), abs=TOL)
    assert got["federation"]["mode"] == "private" and "binned" in got["federation"]["approximate"]


def test_a_private_release_beyond_the_budget_is_53400_and_leaves_no_table(db):
    three_owners(db)
    db.execute("SELECT madnb.set_privacy_budget('o1', 0.5)")
    with pytest.raises(psycopg.Error) as info:
        release(db, "three", "o1", "e1", epsilon=1.0)
    assert info.value.diag.sqlstate == "53400"
    assert db.execute("SELECT to_regclass('e1')").fetchone() == (None,)
    release(db, "three", "o1", "e1", epsilon=0.5)
    assert db.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone() == (1,)


def test_releases_of_another_model_are_22023_naming_the_release(db):
    three_owners(db)
    db.execute("SELECT madnb.train('other', 'tr', 'y', smoothing => 2)")
    release(db, "three", "o1", "e1")
    release(db, "other", "o2", "e2")
    with pytest.raises(psycopg.Error) as info:
        federated(db, ["e1", "e2"])
    assert info.value.diag.sqlstate == "22023" and "sources[2]" in info.value.diag.message_primary
    assert "another model" in info.value.diag.message_primary
    with pytest.raises(psycopg.Error) as info:
        federated(db, ["e1"], model="other")
    assert info.value.diag.sqlstate == "22023" and "sources[1]" in info.value.diag.message_primary


def test_a_release_listed_twice_or_copied_is_22023(db):
    three_owners(db)
    release(db, "three", "o1", "e1")
    with pytest.raises(psycopg.Error) as info:
        federated(db, ["e1", "public.e1"])
    assert info.value.diag.sqlstate == "22023" and "sources[2]" in info.value.diag.message_primary
    assert "listed twice" in info.value.diag.message_primary
    db.execute("CREATE TABLE copy AS SELECT * FROM e1")
    db.execute("DO $$ BEGIN EXECUTE format('COMMENT ON TABLE copy IS %L', obj_description('e1'::regclass, 'pg_class')); END $$")
    with pytest.raises(psycopg.Error) as info:
        federated(db, ["e1", "copy"])
    assert info.value.diag.sqlstate == "22023" and "listed twice" in info.value.diag.message_primary


def set_header(db: psycopg.Connection[Any], table: str, **changes: Any) -> None:
    comment = db.execute("SELECT obj_description(%s::regclass, 'pg_class')", [table]).fetchone()[0]
    h = {**json.loads(comment.removeprefix("madnb evaluation ")), **changes}
    db.execute(sql.SQL("COMMENT ON TABLE {} IS {}").format(sql.Identifier(table), sql.Literal("madnb evaluation " + json.dumps(h))))


@pytest.mark.parametrize("changes, words", [
    ({"checksum": "0" * 32}, "does not match its header"),
    ({"classes": ["a", "b", "d"]}, "another model"),
    ({"classes": ["a", "b"]}, "tampered"),
    ({"ranked": [7]}, "tampered"),
    ({"mode": "secret"}, "tampered"),
    ({"fingerprint": 3}, "tampered"),
    ({"format": 9}, "format 9"),
])
def test_a_tampered_header_is_22023_naming_the_release(db, changes, words):
    three_owners(db)
    release(db, "three", "o1", "e1")
    release(db, "three", "o2", "e2")
    set_header(db, "e2", **changes)
    with pytest.raises(psycopg.Error) as info:
        federated(db, ["e1", "e2"])
    assert info.value.diag.sqlstate == "22023" and "sources[2] (public.e2)" in info.value.diag.message_primary
    assert words in info.value.diag.message_primary + (info.value.diag.message_detail or "")


def test_altered_counts_and_tables_that_are_not_releases_are_22023(db):
    three_owners(db)
    release(db, "three", "o1", "e1")
    release(db, "three", "o2", "e2")
    assert db.execute("UPDATE e2 SET n = n + 1 WHERE ctid = (SELECT min(ctid) FROM e2 WHERE part = 'cell')").rowcount == 1
    with pytest.raises(psycopg.Error) as info:
        federated(db, ["e1", "e2"])
    assert info.value.diag.sqlstate == "22023" and "does not match its header" in info.value.diag.message_primary
    for bad in ("tr", "o3"):
        with pytest.raises(psycopg.Error) as info:
            federated(db, ["e1", bad])
        assert info.value.diag.sqlstate == "22023" and "is not a madnb evaluation release" in info.value.diag.message_primary


@pytest.mark.parametrize("call, sqlstate", [
    ("SELECT madnb.evaluate_from_releases(NULL)", "22004"),
    ("SELECT madnb.evaluate_from_releases('{}')", "22023"),
    ("SELECT madnb.evaluate_from_releases(ARRAY['missing'])", "42P01"),
    ("SELECT madnb.evaluate_from_releases(ARRAY['e1'], curves => NULL)", "22004"),
    ("SELECT madnb.evaluate_from_releases(ARRAY['e1'], curves => true)", "22023"),
    ("SELECT madnb.release_evaluation('three', 'o2', 'e1')", "42P07"),
    ("SELECT madnb.release_evaluation('nope', 'o2', 'e9')", "42704"),
    ("SELECT madnb.release_evaluation('three', 'o2', 'e9', score_bins => 10)", "22023"),
    ("SELECT madnb.release_evaluation('three', 'o2', 'e9', epsilon => 1, score_bins => 1)", "22023"),
    ("SELECT madnb.release_evaluation('three', 'o2', 'e9', epsilon => -1)", "22023"),
    ("SELECT madnb.release_evaluation('three', 'empty', 'e9')", "22000"),
])
def test_bad_arguments_are_refused_with_their_sqlstate_and_leave_nothing_behind(db, call, sqlstate):
    three_owners(db)
    db.execute("CREATE TABLE empty AS SELECT * FROM o1 WHERE false")
    release(db, "three", "o1", "e1")
    tables = db.execute("SELECT count(*) FROM pg_class WHERE relkind = 'r'").fetchone()
    with pytest.raises(psycopg.Error) as info:
        db.execute(call)
    assert info.value.diag.sqlstate == sqlstate
    assert db.execute("SELECT count(*) FROM pg_class WHERE relkind = 'r'").fetchone() == tables
    assert db.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone() == (0,)


def test_a_mixed_sum_of_an_exact_and_a_private_release_bins_the_exact_scores_too(db):
    load_adult(db, "adult")
    db.execute(f"CREATE TABLE a1 ({ADULT_COLUMNS})")
    db.execute(f"CREATE TABLE a2 ({ADULT_COLUMNS})")
    load_adult(db, "adult_test", "test")
    cols = ADULT_COLUMNS.replace(" int", "").replace(" text", "")
    db.execute(f"INSERT INTO a1 SELECT {cols} FROM adult_test WHERE id % 2 = 0")
    db.execute(f"INSERT INTO a2 SELECT {cols} FROM adult_test WHERE id % 2 = 1")
    db.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['id'])")
    release(db, "adult_nb", "a1", "e1")
    release(db, "adult_nb", "a2", "e2", epsilon=1e5, score_bins=10)
    got = federated(db, ["e1", "e2"])
    want = evaluate(db, "adult_nb", "adult_test")
    assert got["confusion_matrix"] == want["confusion_matrix"]
    y, p = zip(*db.execute(
        "SELECT income = '>50K', (madnb_models.adult_nb_predict_proba_array(t.*))[2] FROM adult_test t WHERE income IS NOT NULL"))
    binned = (np.minimum(np.floor(np.array(p) * 10), 9) + 0.5) / 10
    assert got["roc_auc"] == pytest.approx(skm.roc_auc_score(y, binned), abs=TOL)
    assert [r["mode"] for r in got["federation"]["releases"]] == ["exact", "private"]


@pytest.mark.parametrize("kind", ["multinomial", "bernoulli", "complement"])
def test_exact_releases_of_a_vector_kind_add_up_to_evaluate_on_the_union(db, kind):
    db.execute(
        "CREATE TABLE vt AS SELECT i, ARRAY[i % 5, (i * 3) % 4, (i * 7) % 3 + (i % 3), i % 2 * (i % 3)] AS v, "
        "(ARRAY['x','y','z'])[1 + (i * 5) % 3] AS label FROM generate_series(1, 900) i"
    )
    db.execute("SELECT madnb.train('vk', 'vt', 'label', features => ARRAY['v'], kind => %s)", [kind])
    for k in (1, 2, 3):
        db.execute(f"CREATE TABLE v{k} AS SELECT v, label FROM vt WHERE i % 3 = {k - 1}")
        release(db, "vk", f"v{k}", f"ev{k}", curves=True)
    for curves in (False, True):
        assert_close(without_federation(federated(db, ["ev1", "ev2", "ev3"], model="vk", curves=curves)), evaluate(db, "vk", "vt", curves))


def test_a_private_release_of_three_classes_with_curves_holds_every_classs_bins_and_gives_its_confusion_matrix(db):
    three_owners(db)
    h = release(db, "three", "u", "e1", curves=True, epsilon=1e5, score_bins=8)
    assert h["ranked"] == [1, 2, 3] and h["sensitivity"]["scores"] == 3
    assert dict(db.execute("SELECT part, count(*) FROM e1 GROUP BY part").fetchall()) == {"cell": 16, "loss": 1, "score": 24}
    got = federated(db, ["e1"], curves=True)
    want = evaluate(db, "three", "u", True)
    assert got["confusion_matrix"] == want["confusion_matrix"] and got["roc_auc"] is not None
    assert got["unknown_label_rows"] == want["unknown_label_rows"] and "curves" in got


def test_rows_the_model_predicts_no_class_for_are_counted_as_evaluate_counts_them(db):
    db.execute("CREATE TABLE vt AS SELECT i, CASE WHEN i % 10 = 0 THEN NULL ELSE ARRAY[i % 5, (i * 3) % 4] END AS v, "
               "(ARRAY['x','y'])[1 + i % 2] AS label FROM generate_series(1, 300) i")
    db.execute("SELECT madnb.train('vk', 'vt', 'label', features => ARRAY['v'], kind => 'multinomial')")
    release(db, "vk", "vt", "ev")
    # the NULL vectors (every tenth row, all labelled x) are predicted no class: one cell (x, NULL)
    assert db.execute("SELECT t, n FROM ev WHERE part = 'cell' AND h IS NULL").fetchall() == [(1, 30)]
    assert_close(without_federation(federated(db, ["ev"])), evaluate(db, "vk", "vt"))
    release(db, "vk", "vt", "evp", epsilon=1e5)
    assert federated(db, ["evp"])["rows"] == evaluate(db, "vk", "vt")["rows"]


def test_no_object_planted_on_the_search_path_runs_in_a_release_or_in_the_sum(db):
    three_owners(db)
    plant_on_search_path(db)
    release(db, "three", "o1", "e1", curves=True)
    release(db, "three", "o2", "e2", curves=True, epsilon=1e5)
    got = federated(db, ["e1", "e2"], curves=True)
    assert got["federation"]["mode"] == "private"

"""What a new user trips over (issue 17, points C9 and C10).

C9: suspect exact trainings (one class; a numeric label that looks like a
regression target) and an evaluation where no label is a class of the model say
so with a WARNING and a HINT; a private training says nothing about its data.
C10: a composite label, leave-one-out cross-validation, the installer's and the
command line's messages, the ledger's delta, and the quiet psql script.
"""

from __future__ import annotations

import math
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
import pytest
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import LeaveOneOut
from test_cross_validate import categorical_nb_fold_jll, cross_validate, softmax
from test_evaluate import load_mushroom

import madnb
from madnb import cli
from madnb._install import InstallError
from psql_session import psql

REGRESSION_MIN_CLASSES = 50  # docs/models.md "Suspect training": the documented threshold


@dataclass(frozen=True)
class Said:
    """One NOTICE or WARNING (psycopg's Diagnostic is valid only inside the handler: its fields are copied)."""

    severity: str | None
    message_primary: str | None
    message_detail: str | None
    message_hint: str | None


@contextmanager
def notices(db: psycopg.Connection[Any]) -> Iterator[list[Said]]:
    """Every NOTICE or WARNING the server sends while the block runs."""
    got: list[Said] = []

    def handler(d: psycopg.errors.Diagnostic) -> None:
        got.append(Said(d.severity_nonlocalized, d.message_primary, d.message_detail, d.message_hint))

    db.add_notice_handler(handler)
    try:
        yield got
    finally:
        db.remove_notice_handler(handler)


def warnings_of(got: list[Said]) -> list[Said]:
    return [d for d in got if d.severity == "WARNING"]


# ---- C9: suspect training -------------------------------------------------------------------


def test_training_on_one_class_warns_with_a_hint_on_every_exact_path(db):
    db.execute("CREATE TABLE one (y text, x float8, c text, v float8[], a int[])")
    db.execute("INSERT INTO one SELECT 'yes', i, (ARRAY['p','q'])[1 + i % 2], ARRAY[i % 3, 1], ARRAY[i % 3] FROM generate_series(1, 20) i")
    for call in (
        "SELECT madnb.train('m1', 'one', 'y', features => ARRAY['x', 'c'])",
        "SELECT madnb.train('m2', 'one', 'y', features => ARRAY['x'], kind => 'gaussian')",
        "SELECT madnb.train('m3', 'one', 'y', features => ARRAY['v'], kind => 'multinomial')",
        "SELECT madnb.create_nb_prepared_data_tables('one', 'y', 'a', 1, 'fp', 'cp')",
    ):
        with notices(db) as got:
            db.execute(call)
        (w,) = warnings_of(got)
        assert w.message_primary == 'label "y" of public.one has one value in every labelled row: yes', call
        assert w.message_hint and "at least two classes" in w.message_hint
        assert "20 labelled rows" in (w.message_detail or "")
    # two classes: nothing to say
    db.execute("UPDATE one SET y = 'no' WHERE x > 15")
    with notices(db) as got:
        db.execute("SELECT madnb.train('m4', 'one', 'y', features => ARRAY['x', 'c'])")
    assert warnings_of(got) == []


@pytest.mark.parametrize(
    "label_type, classes, rows, warns",
    [
        ("int", 120, 120, True),                                 # every row its own value: a regression target
        ("numeric", REGRESSION_MIN_CLASSES + 1, 101, True),      # 51 values > 50, and 51 > 101 / 2
        ("float8", REGRESSION_MIN_CLASSES + 1, 101, True),
        ("price", REGRESSION_MIN_CLASSES + 1, 101, True),        # a domain over numeric is numeric
        ("bigint", REGRESSION_MIN_CLASSES + 1, 102, False),      # 51 values, not more than half of 102 rows
        ("int", REGRESSION_MIN_CLASSES, 60, False),              # not more than 50 values
        ("text", 120, 120, False),                               # not numeric: names, codes, ids are classes
    ],
)
def test_a_numeric_label_with_many_distinct_values_warns_that_it_looks_like_a_regression_target(db, label_type, classes, rows, warns):
    db.execute("CREATE DOMAIN price AS numeric")
    db.execute(f"CREATE TABLE r (y {label_type}, x float8)")
    # labels 0 .. classes-1, each at least once, then repeats of 0
    db.execute(
        f"INSERT INTO r SELECT (CASE WHEN i < {classes} THEN i ELSE 0 END)::text::{label_type}, i % 7 "
        f"FROM generate_series(0, {rows - 1}) i"
    )
    assert db.execute("SELECT count(DISTINCT y), count(*) FROM r").fetchone() == (classes, rows)
    with notices(db) as got:
        db.execute("SELECT madnb.train('r_nb', 'r', 'y')")
    said = warnings_of(got)
    assert len(said) == int(warns)
    if warns:
        assert said[0].message_primary == (
            f'label "y" of public.r has {classes} distinct values in {rows} labelled rows: it looks like a regression target'
        )
        assert said[0].message_hint and "regression" in said[0].message_hint
        assert str(REGRESSION_MIN_CLASSES) in (said[0].message_detail or "")


def test_madlibs_training_warns_about_a_regression_target_too(db):
    db.execute("CREATE TABLE r (y int, a int[])")
    db.execute("INSERT INTO r SELECT i, ARRAY[i % 3] FROM generate_series(1, 80) i")
    with notices(db) as got:
        db.execute("SELECT madnb.create_nb_prepared_data_tables('r', 'y', 'a', 1, 'fp', 'cp')")
    (w,) = warnings_of(got)
    assert "looks like a regression target" in w.message_primary


def test_a_private_training_says_nothing_about_its_data(db):
    db.execute("CREATE TABLE p (y text, x float8, a int[])")
    db.execute("INSERT INTO p SELECT 'yes', i % 5, ARRAY[i % 3] FROM generate_series(1, 50) i")
    db.execute("CREATE TABLE pr (y int, x float8)")  # a regression target, privately
    db.execute("INSERT INTO pr SELECT i, i % 5 FROM generate_series(1, 80) i")
    calls = [
        "SELECT madnb.train('p1', 'p', 'y', features => ARRAY['x'], epsilon => 1, bounds => '{\"x\": [0, 5]}', "
        "domain => '{\"y\": [\"yes\"]}')",
        "SELECT madnb.train('p2', 'p', 'y', features => ARRAY['x'], epsilon => 1, bounds => '{\"x\": [0, 5]}', "
        "domain => 'private', delta => 1e-6)",
        "SELECT madnb.train('p3', 'pr', 'y', epsilon => 1e6, bounds => '{\"x\": [0, 5]}', domain => 'private', delta => 1e-6)",
        "SELECT madnb.create_nb_prepared_data_tables('p', 'y', 'a', 1, 'fp', 'cp', epsilon => 1, domain => 'private', delta => 1e-6)",
    ]
    for call in calls:
        with notices(db) as got:
            db.execute(call)
        assert got == [], (call, [d.message_primary for d in got])
    # the same trainings, exact, do warn: the silence is the private path's
    with notices(db) as got:
        db.execute("SELECT madnb.train('e1', 'p', 'y', features => ARRAY['x'])")
        db.execute("SELECT madnb.train('e3', 'pr', 'y')")
    assert len(warnings_of(got)) == 2


def test_evaluate_warns_when_no_label_is_a_class_of_the_model(db):
    db.execute("CREATE TABLE t (y text, x float8)")
    db.execute("INSERT INTO t SELECT (ARRAY['a','b'])[1 + i % 2], i % 2 + i % 3 FROM generate_series(1, 30) i")
    db.execute("SELECT madnb.train('t_nb', 't', 'y')")
    db.execute("CREATE TABLE wrong (y text, x float8)")
    db.execute("INSERT INTO wrong VALUES ('A', 1), ('B', 2), (NULL, 3)")  # not the classes as written in training
    with notices(db) as got:
        m = db.execute("SELECT madnb.evaluate('t_nb', 'wrong')").fetchone()[0]
    assert m["rows"] == 2 and m["unknown_label_rows"] == 2 and m["accuracy"] == 0
    (w,) = warnings_of(got)
    assert w.message_primary == "no label of public.wrong is a class of model t_nb: all 2 labelled rows count as wrong predictions"
    assert "a, b" in (w.message_detail or "") and "madnb.model_classes" in (w.message_hint or "")
    # one known label is enough to say nothing
    db.execute("INSERT INTO wrong VALUES ('a', 1)")
    with notices(db) as got:
        db.execute("SELECT madnb.evaluate('t_nb', 'wrong')")
    assert warnings_of(got) == []


# ---- C10 (a): a composite label -------------------------------------------------------------


def test_a_composite_label_is_refused_with_42804_saying_which_labels_are_accepted(db):
    db.execute("CREATE TYPE pair AS (a int, b int)")
    db.execute("CREATE DOMAIN boxed AS pair")
    db.execute("CREATE TABLE c (y pair, z boxed, x int, v float8[])")
    db.execute("INSERT INTO c SELECT ROW(i % 2, 1)::pair, ROW(i % 2, 1)::pair::boxed, i, ARRAY[i % 3, 1] FROM generate_series(1, 10) i")
    for call in (
        "SELECT madnb.train('c_nb', 'c', 'y', features => ARRAY['x'])",
        "SELECT madnb.train('c_nb', 'c', 'z', features => ARRAY['x'])",
        "SELECT madnb.train('c_nb', 'c', 'y', features => ARRAY['v'], kind => 'multinomial')",
        "SELECT * FROM madnb.cross_validate('c', 'y', features => ARRAY['x'])",
    ):
        with pytest.raises(psycopg.Error) as e:
            db.execute(call)
        assert e.value.diag.sqlstate == "42804", call
        assert "a composite type" in e.value.diag.message_primary
        assert "text, varchar, boolean, an integer" in (e.value.diag.message_hint or "")
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0


# ---- C10 (b): leave-one-out -----------------------------------------------------------------


def test_as_many_folds_as_labelled_rows_is_leave_one_out_with_scikit_learns_figures(db):
    load_mushroom(db)
    db.execute("CREATE TABLE m60 AS SELECT * FROM mushroom WHERE id <= 60")
    db.execute("INSERT INTO m60 (edibility, cap_shape, id) VALUES (NULL, 'x', 61)")  # unlabelled: not a row of any fold
    got = cross_validate(db, "m60", "edibility", folds=60, exclude=["id"], key="id")
    assert list(got) == [str(f) for f in range(1, 61)] + ["mean"]
    cur = db.execute("SELECT * FROM m60 WHERE edibility IS NOT NULL")
    names = [d.name for d in cur.description]
    # fold i is the row with the i-th key in byte order
    rows = sorted(cur.fetchall(), key=lambda r: str(r[names.index("id")]).encode())
    feats = [i for i, n in enumerate(names) if n not in ("id", "edibility")]
    label = names.index("edibility")
    classes = sorted({r[label] for r in rows})
    y, pred, logp = [], [], []
    for f, (train, (test,)) in enumerate(LeaveOneOut().split(rows), start=1):
        jll = categorical_nb_fold_jll([[rows[i][j] for j in feats] for i in train], [rows[i][label] for i in train],
                                      [[rows[test][j] for j in feats]], classes)
        proba = softmax(jll)[0]
        truth = classes.index(rows[test][label])
        y.append(rows[test][label])
        pred.append(classes[int(jll.argmax())])
        logp.append(-math.log(min(max(proba[truth], 2.0**-52), 1 - 2.0**-52)))
        assert got[str(f)]["rows"] == 1
        assert got[str(f)]["accuracy"] == float(pred[-1] == y[-1]), f
        assert got[str(f)]["log_loss"] == pytest.approx(logp[-1], rel=1e-12, abs=1e-12)
    mean = got["mean"]
    assert mean["folds"] == 60 and mean["rows"] == 60
    assert mean["accuracy"] == pytest.approx(np.mean([a == b for a, b in zip(y, pred, strict=True)]), abs=1e-12)
    assert mean["log_loss"] == pytest.approx(np.mean(logp), rel=1e-12)
    assert mean["confusion_matrix"] == confusion_matrix(y, pred, labels=classes).tolist()


def test_leave_one_out_with_the_default_key_and_its_refusals(db):
    db.execute("CREATE TABLE s (y text, x float8)")
    db.execute("INSERT INTO s SELECT (ARRAY['a','b'])[1 + i % 2], i FROM generate_series(1, 12) i")
    got = cross_validate(db, "s", "y", folds=12)  # the key is the row's text form: distinct rows, distinct keys
    assert got["mean"]["rows"] == 12 and all(got[str(f)]["rows"] == 1 for f in range(1, 13))
    # two labelled rows with one key would share a fold: refused, naming why
    db.execute("INSERT INTO s VALUES ('a', 2)")  # the same row as i = 2
    with pytest.raises(psycopg.Error) as e:
        cross_validate(db, "s", "y", folds=13)
    assert e.value.diag.sqlstate == "22023"
    assert e.value.diag.message_primary == "leave-one-out needs a distinct key for every labelled row of public.s"
    # more folds than labelled rows is still refused
    with pytest.raises(psycopg.Error) as e:
        cross_validate(db, "s", "y", folds=14)
    assert e.value.diag.sqlstate == "22023" and "more than the labelled rows" in e.value.diag.message_primary


# ---- C10 (c), (d), (e): the installer and the command line ----------------------------------


def test_uninstall_from_python_says_cascade_true_and_the_command_line_says_cascade(empty_db, capsys):
    url, conn = empty_db
    madnb.install(url)
    conn.execute("CREATE TABLE t (y text, x float8)")
    conn.execute("INSERT INTO t VALUES ('a', 1), ('b', 2)")
    conn.execute("SELECT madnb.train('t_nb', 't', 'y')")
    with pytest.raises(InstallError) as e:
        madnb.uninstall(url)
    assert "cascade=True" in str(e.value) and "--cascade" not in str(e.value)
    assert cli.main(["uninstall", "--dsn", url]) == 1
    err = capsys.readouterr().err
    assert "--cascade" in err and "cascade=True" not in err
    assert madnb.version(url).installed == madnb.__version__  # refused: nothing was removed


def test_export_sql_on_a_database_without_madnb_says_so_in_one_line(empty_db, capsys):
    url, _ = empty_db
    assert cli.main(["export-sql", "some_model", "--dsn", url]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.startswith("madnb: madnb is not installed in this database")
    assert len(out.err.strip().splitlines()) == 1


# ---- C10 (f): the ledger's delta ------------------------------------------------------------


def test_the_privacy_ledger_has_the_delta_of_each_release(db):
    db.execute("CREATE TABLE p (y text, x float8)")
    db.execute("INSERT INTO p SELECT (ARRAY['a','b'])[1 + i % 2], i % 5 FROM generate_series(1, 40) i")
    db.execute("SELECT madnb.train('p1', 'p', 'y', epsilon => 1, bounds => '{\"x\": [0, 5]}', domain => '{\"y\": [\"a\", \"b\"]}')")
    db.execute("SELECT madnb.train('p2', 'p', 'y', epsilon => 1, bounds => '{\"x\": [0, 5]}', domain => 'private', delta => 1e-7)")
    rows = db.execute("SELECT release_id, delta, (parameters->>'delta')::float8 FROM madnb.privacy_ledger ORDER BY release_id").fetchall()
    assert [(r[1], r[2]) for r in rows] == [(0.0, 0.0), (1e-7, 1e-7)]
    # the last column of the view, with its comment
    cols = db.execute(
        "SELECT a.attname, pg_catalog.col_description(a.attrelid, a.attnum) FROM pg_catalog.pg_attribute a "
        "WHERE a.attrelid = 'madnb.privacy_ledger'::regclass AND a.attnum > 0 ORDER BY a.attnum"
    ).fetchall()
    assert cols[-1][0] == "delta" and "domain => 'private'" in cols[-1][1]


# ---- C10 (g): the psql script is quiet ------------------------------------------------------


def test_the_psql_script_prints_no_notices_on_a_first_run_or_a_rerun(empty_db, tmp_path):
    url, conn = empty_db
    script = tmp_path / "madnb-install.sql"
    assert cli.main(["build-script", "--psql", "-o", str(script)]) == 0
    for _ in range(2):
        res = subprocess.run([psql(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", str(script)],
                             capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        assert res.stderr == ""
    # the setting was the script's own (SET LOCAL): a session afterwards has the server's default
    assert conn.execute("SELECT pg_catalog.current_setting('client_min_messages')").fetchone()[0] == "notice"
    assert madnb.version(url).installed == madnb.__version__

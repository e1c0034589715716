"""The ``madnb`` model commands, run as a subprocess (issue 21, section 2).

train, predict, evaluate, cross-validate, models, drop and install-check: what
they print is compared with madnb's SQL functions on the same database, exit
codes with the promise (0 done, 1 the database refused, with its SQLSTATE, 2 a
usage error).
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Any

import psycopg

from helpers import run_cli


def fruit(db: psycopg.Connection[Any]) -> None:
    db.execute("CREATE TABLE fruit (id int PRIMARY KEY, colour text, weight float8, kind text)")
    db.execute("""INSERT INTO fruit SELECT i, (ARRAY['red', 'green', 'yellow'])[i % 3 + 1], 100 + (i * 37) % 50 + (i % 2) * 40,
                  CASE WHEN i % 2 = 0 THEN 'apple' ELSE 'pear' END FROM generate_series(1, 60) AS i""")


def dsn(db: psycopg.Connection[Any]) -> list[str]:
    return ["--dsn", db.info.dsn]


def test_train_predict_evaluate_cross_validate_and_drop_from_the_shell_give_the_databases_answers(db, tmp_path):
    fruit(db)
    out = run_cli("train", "fruit_nb", "fruit", "kind", "--exclude", "id", *dsn(db))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "trained model fruit_nb (naive_bayes) on public.fruit: 2 features, classes apple, pear"
    out = run_cli("models", "--json", *dsn(db))
    (row,) = json.loads(out.stdout)
    assert (row["name"], row["source"], row["classes"], row["training_rows"]) == ("fruit_nb", "public.fruit", ["apple", "pear"], 60)
    assert "fruit_nb  naive_bayes  public.fruit" in run_cli("models", *dsn(db)).stdout

    want = db.execute("SELECT id, madnb_models.fruit_nb_predict(f), madnb_models.fruit_nb_predict_proba_array(f) "
                      "FROM fruit AS f ORDER BY id").fetchall()
    out = run_cli("predict", "fruit_nb", "fruit", "--key", "id", "--proba", *dsn(db))
    assert out.returncode == 0, out.stderr
    got = list(csv.DictReader(io.StringIO(out.stdout)))
    assert list(got[0]) == ["id", "predicted", "proba_apple", "proba_pear"]
    assert [(int(r["id"]), r["predicted"], [float(r["proba_apple"]), float(r["proba_pear"])]) for r in got] == want
    out = run_cli("predict", "fruit_nb", "fruit", "--key", "id", "-o", str(tmp_path / "p.csv"), *dsn(db))
    assert out.returncode == 0 and out.stdout == ""
    assert [(int(r["id"]), r["predicted"]) for r in csv.DictReader(io.StringIO((tmp_path / "p.csv").read_text()))] == [w[:2] for w in want]
    out = run_cli("predict", "fruit_nb", "fruit", "--key", "id", "--json", *dsn(db))
    assert [json.loads(line) for line in out.stdout.splitlines()] == [{"id": i, "predicted": p} for i, p, _ in want]
    out = run_cli("predict", "fruit_nb", "fruit", "--key", "id", "--proba", "--into", "public.fruit_predictions", *dsn(db))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "60 predictions written into public.fruit_predictions"
    assert db.execute('SELECT id, predicted, ARRAY["proba_apple", "proba_pear"] FROM fruit_predictions ORDER BY id').fetchall() == want

    out = run_cli("evaluate", "fruit_nb", "fruit", "--json", *dsn(db))
    assert json.loads(out.stdout) == db.execute("SELECT madnb.evaluate('fruit_nb', 'fruit')").fetchone()[0]
    text = run_cli("evaluate", "fruit_nb", "fruit", *dsn(db)).stdout
    accuracy = db.execute("SELECT (madnb.evaluate('fruit_nb', 'fruit')->>'accuracy')::float8").fetchone()[0]
    assert f"accuracy: {accuracy:.6f}" in text and "confusion matrix" in text

    out = run_cli("evaluate", "fruit_nb", "fruit", "--report", str(tmp_path / "r.html"), "--json", *dsn(db))
    assert out.returncode == 0, out.stderr
    with_curves = db.execute("SELECT madnb.evaluate('fruit_nb', 'fruit', curves => true)").fetchone()[0]
    assert json.loads(out.stdout) == with_curves
    page = (tmp_path / "r.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "data:image/png;base64," in page and f"{accuracy:.4f}" in page

    out = run_cli("cross-validate", "fruit", "kind", "--exclude", "id", "--folds", "3", "--seed", "4", "--key", "id", "--json", *dsn(db))
    assert out.returncode == 0, out.stderr
    want_cv = dict(db.execute("SELECT fold, metrics FROM madnb.cross_validate('fruit', 'kind', exclude => ARRAY['id'], "
                              "folds => 3, seed => 4, key => 'id')").fetchall())
    assert json.loads(out.stdout) == want_cv
    table = run_cli("cross-validate", "fruit", "kind", "--exclude", "id", "--folds", "3", "--seed", "4", "--key", "id", *dsn(db)).stdout
    assert [line.split()[0] for line in table.splitlines()] == ["fold", "1", "2", "3", "mean"]

    out = run_cli("drop", "fruit_nb", *dsn(db))
    assert out.returncode == 0 and out.stdout.strip() == "dropped model fruit_nb"
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0


def test_training_options_reach_madnb_train(db):
    fruit(db)
    out = run_cli("train", "fruit_c", "fruit", "kind", "--features", "colour", "--kind", "categorical",
                  "--option", "alpha=0.5", "--option", "fit_prior=false", "--json", *dsn(db))
    assert out.returncode == 0, out.stderr
    (row,) = json.loads(out.stdout)
    assert row["kind"] == "categorical" and row["parameters"]["alpha"] == 0.5 and row["parameters"]["fit_prior"] is False
    assert [f["name"] for f in row["features"]] == ["colour"]
    out = run_cli("train", "fruit_c", "fruit", "kind", "--features", "colour", "--kind", "categorical", "--replace", *dsn(db))
    assert out.returncode == 0, out.stderr


def test_a_database_error_exits_1_with_its_sqlstate_and_a_usage_error_exits_2(db):
    fruit(db)
    out = run_cli("evaluate", "nope", "fruit", *dsn(db))
    assert out.returncode == 1
    assert out.stderr.startswith('madnb: model "nope" does not exist (SQLSTATE 42704)') and "Traceback" not in out.stderr
    assert run_cli("train", "f", "fruit", "kind", *dsn(db)).returncode == 0
    out = run_cli("train", "f", "fruit", "kind", *dsn(db))
    assert out.returncode == 1 and "(SQLSTATE 42710)" in out.stderr and "HINT:" in out.stderr
    out = run_cli("train", "g", "fruit", "nope", *dsn(db))
    assert out.returncode == 1 and "(SQLSTATE 42703)" in out.stderr
    db.execute("CREATE VIEW fruit_v AS SELECT * FROM fruit")
    out = run_cli("predict", "f", "fruit_v", *dsn(db))
    assert out.returncode == 1 and "(SQLSTATE 22023)" in out.stderr and "--key" in out.stderr
    assert run_cli("predict", "f", *dsn(db)).returncode == 2  # a missing argument
    assert run_cli("predict", "f", "fruit", "--into", "x", "--json", *dsn(db)).returncode == 2  # --into or --json
    env = {k: v for k, v in os.environ.items() if k != "MADNB_DSN" and not k.startswith("PG")}
    out = run_cli("models", env=env)
    assert out.returncode == 2 and "no database given" in out.stderr


def test_libpqs_environment_variables_name_the_database_when_dsn_is_not_given(db):
    fruit(db)
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    info = db.info
    env = {k: v for k, v in os.environ.items() if k != "MADNB_DSN" and not k.startswith("PG")}
    env.update(PGHOST=info.host, PGPORT=str(info.port), PGUSER=info.user, PGDATABASE=info.dbname)
    out = run_cli("models", "--json", env=env)
    assert out.returncode == 0, out.stderr
    assert [r["name"] for r in json.loads(out.stdout)] == ["fruit_nb"]


def test_install_check_passes_and_rolls_everything_back(db, empty_db):
    before = db.execute("SELECT count(*) FROM pg_class").fetchone()[0]
    out = run_cli("install-check", *dsn(db))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1].startswith("install-check: all ") and "FAILED" not in out.stdout
    assert all(line.startswith("ok ") for line in out.stdout.splitlines()[:-1])
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM pg_class").fetchone()[0] == before
    url, _ = empty_db
    out = run_cli("install-check", "--dsn", url)
    assert out.returncode == 1 and "madnb is not installed in this database" in out.stderr

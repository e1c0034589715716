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


def test_decisions_explanations_importance_and_the_threshold_curve_from_the_shell_are_the_sql_calls(db):
    fruit(db)
    db.execute("SELECT madnb.train('fruit_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    out = run_cli("predict", "fruit_nb", "fruit", "--key", "id", "--threshold", "0.3", "--proba", "--json", *dsn(db))
    assert out.returncode == 0, out.stderr
    want = db.execute("SELECT f.id, madnb.decide(d, madnb_models.fruit_nb_predict_proba_array(f)), "
                      "madnb.decide_proba_array(d, madnb_models.fruit_nb_predict_proba_array(f)) "
                      "FROM fruit AS f, madnb.decision('fruit_nb', threshold => 0.3) AS d ORDER BY f.id").fetchall()
    assert [json.loads(line) for line in out.stdout.splitlines()] == [
        {"id": i, "predicted": k, "proba_apple": p[0], "proba_pear": p[1]} for i, k, p in want]
    out = run_cli("evaluate", "fruit_nb", "fruit", "--costs", "[[0, 1], [5, 0]]", "--json", *dsn(db))
    assert json.loads(out.stdout) == db.execute(
        "SELECT madnb.evaluate('fruit_nb', 'fruit', costs => '{{0, 1}, {5, 0}}')").fetchone()[0]
    out = run_cli("threshold-curve", "fruit_nb", "fruit", "--costs", "[[0, 1], [5, 0]]", "--json", *dsn(db))
    assert json.loads(out.stdout) == [dict(r) for r in db.cursor(row_factory=psycopg.rows.dict_row).execute(
        "SELECT * FROM madnb.threshold_curve('fruit_nb', 'fruit', costs => '{{0, 1}, {5, 0}}')").fetchall()]
    out = run_cli("explain", "fruit_nb", "fruit", "--key", "id", "--json", *dsn(db))
    assert [json.loads(line) for line in out.stdout.splitlines()] == [
        {"id": i, "explanation": e} for i, e in db.execute(
            "SELECT id, madnb_models.fruit_nb_explain(f) FROM fruit AS f ORDER BY id").fetchall()]
    out = run_cli("feature-importance", "fruit_nb", "fruit", "--json", *dsn(db))
    assert json.loads(out.stdout) == [dict(r) for r in db.cursor(row_factory=psycopg.rows.dict_row).execute(
        "SELECT * FROM madnb.feature_importance('fruit_nb', 'fruit')").fetchall()]
    out = run_cli("predict", "fruit_nb", "fruit", "--priors", '"0.5"', *dsn(db))  # not numbers: a usage error
    assert out.returncode == 2 and "--priors" in out.stderr


def test_weights_tune_grid_forget_versions_and_rollback_from_the_shell_are_the_sql_calls(db):
    fruit(db)
    db.execute("ALTER TABLE fruit ADD COLUMN w float8")
    db.execute("UPDATE fruit SET w = 1 + id % 4")
    out = run_cli("train", "fruit_w", "fruit", "kind", "--exclude", "id", "--weight", "w", "--json", *dsn(db))
    assert out.returncode == 0, out.stderr
    (row,) = json.loads(out.stdout)
    assert row["weight"] == "w" and [f["name"] for f in row["features"]] == ["colour", "weight"]  # not a feature
    grid = '{"smoothing": [0.1, 1, 10]}'
    out = run_cli("cross-validate", "fruit", "kind", "--exclude", "id", "w", "--grid", grid, "--json", *dsn(db))
    assert out.returncode == 0, out.stderr
    search = json.loads(out.stdout)
    rows = db.execute("SELECT fold, metrics, parameters FROM madnb.cross_validate('fruit', 'kind', exclude => ARRAY['id', 'w'], "
                      "grid => %s)", [grid]).fetchall()
    (best,) = [(m, p) for f, m, p in rows if f == "best"]
    assert search["best"] == {"parameters": best[1], "metrics": best[0]}
    assert [p["parameters"] for p in search["points"]] == [{"smoothing": s} for s in (0.1, 1, 10)]
    assert [p["folds"]["mean"] for p in search["points"]] == [m for f, m, _ in rows if f == "mean"]
    out = run_cli("train", "fruit_nb", "fruit", "kind", "--exclude", "id", "w", "--tune", grid, *dsn(db))
    assert out.returncode == 0, out.stderr
    tuned = out.stdout.splitlines()[-1]
    assert tuned.startswith("tuned: ") and json.loads(tuned.removeprefix("tuned: ")) == best[1]

    db.execute("CREATE TABLE gone AS SELECT * FROM fruit WHERE id <= 10")
    out = run_cli("forget", "fruit_nb", "gone", *dsn(db))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "forgot 10 rows of gone from model fruit_nb: version 2, 50 training rows left"
    out = run_cli("versions", "fruit_nb", "--json", *dsn(db))
    versions = json.loads(out.stdout)
    assert [(v["version"], v["operation"], v["rows"], v["current"]) for v in versions] == [(1, "train", 60, False), (2, "forget", 10, True)]
    out = run_cli("rollback", "fruit_nb", "1", *dsn(db))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "model fruit_nb is version 1 again: version 3, 60 training rows"
    assert db.execute("SELECT training_rows, version FROM madnb.models WHERE name = 'fruit_nb'").fetchone() == (60, 3)

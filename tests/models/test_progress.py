"""Progress of long work (issue 21, part 3): the phases as NOTICEs when a session asks (madnb.progress = on),
nothing otherwise; the Python API and the command line show them; a private release's phases never depend on
its data."""

from __future__ import annotations

import io
import json
from typing import Any

import psycopg
import pytest

import madnb
from helpers import run_cli


def heard(db: psycopg.Connection[Any], statement: str, args: list[Any] | None = None) -> list[dict[str, Any]]:
    """The progress events (each NOTICE's DETAIL) that running ``statement`` sends, in order."""
    events: list[dict[str, Any]] = []

    def handler(d: psycopg.errors.Diagnostic) -> None:
        if (d.message_primary or "").startswith("madnb progress: "):
            events.append(json.loads(d.message_detail or "{}") | {"message": d.message_primary})

    db.add_notice_handler(handler)
    try:
        db.execute(statement, args)
    finally:
        db.remove_notice_handler(handler)
    return events


def fruit(db: psycopg.Connection[Any], table: str = "fruit", n: int = 60, shift: int = 0) -> None:
    db.execute(f"CREATE TABLE {table} (id int PRIMARY KEY, colour text, weight float8, kind text)")
    db.execute(f"""INSERT INTO {table} SELECT i, (ARRAY['red', 'green', 'yellow'])[(i + {shift}) % 3 + 1],
                   100 + (i * 37) % 50 + (i % 2) * 40, CASE WHEN i % 2 = 0 THEN 'apple' ELSE 'pear' END
                   FROM generate_series(1, {n}) AS i""")


def test_progress_is_silent_unless_the_session_asks_and_then_names_trainings_phases(db):
    fruit(db)
    assert heard(db, "SELECT madnb.train('quiet_nb', 'fruit', 'kind', exclude => ARRAY['id'])") == []
    db.execute("SET madnb.progress = on")
    events = heard(db, "SELECT madnb.train('loud_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    assert [(e["phase"], e["step"], e["steps"]) for e in events] == [
        ("statistics pass", 1, 4), ("derive the model tables", 2, 4), ("write the prediction functions", 3, 4),
        ("catalog", 4, 4), ("done", 4, 4)]
    assert [e["fraction"] for e in events] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert events[0]["message"] == "madnb progress: train loud_nb: statistics pass (1 of 4)"
    db.execute("SET madnb.progress = off")
    assert heard(db, "SELECT madnb.evaluate('loud_nb', 'fruit')") == []


def test_evaluate_and_cross_validate_report_their_passes_and_each_fold(db):
    fruit(db)
    db.execute("SELECT madnb.train('f_nb', 'fruit', 'kind', exclude => ARRAY['id'])")
    db.execute("SET madnb.progress = on")
    events = heard(db, "SELECT madnb.evaluate('f_nb', 'fruit')")
    assert [e["phase"] for e in events] == ["score and aggregate every row (one pass)", "metrics", "done"]
    events = heard(db, "SELECT * FROM madnb.cross_validate('fruit', 'kind', exclude => ARRAY['id'], folds => 3, key => 'id')")
    assert [e["phase"] for e in events] == [
        "statistics pass (every fold at once)", "fold 1 of 3: the model of the other folds", "fold 2 of 3: the model of the other folds",
        "fold 3 of 3: the model of the other folds", "score every fold (one pass)", "metrics", "done"]
    assert {e["steps"] for e in events} == {6} and events[-1]["fraction"] == 1.0


def test_a_private_trainings_messages_are_the_same_whatever_its_data(db):
    """An auditor's check: two tables of other sizes and values give the same messages, word for word."""
    fruit(db, "small", n=40)
    fruit(db, "large", n=500, shift=1)
    db.execute("SET madnb.progress = on")
    private = ("epsilon => 1, bounds => '{\"weight\": [90, 200]}', "
               "domain => '{\"colour\": [\"red\", \"green\", \"yellow\"], \"kind\": [\"apple\", \"pear\"]}'")
    said = []
    for table in ("small", "large"):
        events = heard(db, f"SELECT madnb.train('p_nb', '{table}', 'kind', exclude => ARRAY['id'], replace => true, {private})")
        said.append([{k: v for k, v in e.items() if k != "message"} | {"message": e["message"]} for e in events])
    assert said[0] == said[1] and len(said[0]) == 5


def test_the_estimator_shows_the_phases_as_text_or_as_a_tqdm_bar(db):
    fruit(db)
    out = io.StringIO()
    reporter = madnb.Reporter(bar="text", stream=out)
    est = madnb.NaiveBayes(db, "est_nb", progress=reporter).fit("fruit", "kind", exclude=["id"])
    est.evaluate("fruit")
    assert out.getvalue().splitlines() == [
        "madnb: train est_nb: statistics pass (1 of 4)", "madnb: train est_nb: derive the model tables (2 of 4)",
        "madnb: train est_nb: write the prediction functions (3 of 4)", "madnb: train est_nb: catalog (4 of 4)",
        "madnb: train est_nb: done",
        "madnb: evaluate est_nb on public.fruit: score and aggregate every row (one pass) (1 of 2)",
        "madnb: evaluate est_nb on public.fruit: metrics (2 of 2)", "madnb: evaluate est_nb on public.fruit: done"]
    # the session's own setting is left as it was: progress was on for those transactions only
    assert db.execute("SELECT current_setting('madnb.progress', true)").fetchone()[0] in (None, "")
    bar = io.StringIO()
    madnb.NaiveBayes(db, "bar_nb", progress=madnb.Reporter(bar="tqdm", stream=bar)).fit("fruit", "kind", exclude=["id"])
    assert "train bar_nb" in bar.getvalue() and "4/4" in bar.getvalue()
    with pytest.raises(ValueError):
        madnb.Reporter(bar="rainbow")


def test_the_command_line_shows_progress_on_standard_error_only_when_asked(db):
    fruit(db)
    quiet = run_cli("train", "cli_nb", "fruit", "kind", "--exclude", "id", "--dsn", db.info.dsn)
    assert quiet.returncode == 0 and quiet.stderr == ""
    loud = run_cli("cross-validate", "fruit", "kind", "--exclude", "id", "--folds", "3", "--key", "id", "--progress", "--json",
                   "--dsn", db.info.dsn)
    assert loud.returncode == 0, loud.stderr
    assert "cross-validate public.fruit (3 folds)" in loud.stderr and json.loads(loud.stdout)["mean"]["folds"] == 3


def test_madlibs_face_reports_its_statistics_pass_and_derivation(db):
    db.execute("CREATE TABLE arr (id int, class text, attributes float8[])")
    db.execute("INSERT INTO arr SELECT i, (ARRAY['a', 'b'])[1 + i % 2], ARRAY[i % 3, i % 5 + 0.5] FROM generate_series(1, 50) i")
    db.execute("SET madnb.progress = on")
    events = heard(db, "SELECT madnb.create_nb_prepared_data_tables('arr', 'class', 'attributes', '2', 2, 'fp', 'np', 'cp')")
    assert [e["phase"] for e in events] == ["statistics pass", "derive the model tables", "done"]
    assert events[0]["message"] == "madnb progress: train public.fp from public.arr: statistics pass (1 of 2)"
    events = heard(db, "SELECT madnb.create_nb_statistics('arr', 'class', 'attributes', '2', 2, 'st')")
    assert [e["phase"] for e in events] == ["statistics pass", "done"]

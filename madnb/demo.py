"""The demo: a throwaway PostgreSQL (or the user's, with --dsn), madnb installed, house votes classified.

Both faces of madnb on the same split: MADlib's interface (an attribute array,
model tables, a classify view) and the README Quick start's (``madnb.train`` from
ordinary columns, the generated predict function in a query, ``madnb.evaluate``).
It prints the time of its phases apart: setup (cluster start, madnb install),
the demo itself, cleanup.

Everything the demo creates goes into its own schema, ``madnb_demo``, which each
run drops and recreates (only if the demo made it), so the demo is re-runnable
and leaves ``public`` alone; its named model ``madnb_demo_votes`` (functions in
``madnb_models``) is replaced by each run, and only if it was trained on
``madnb_demo``'s tables.

Data: UCI Congressional Voting Records (house_votes_84.csv, shipped in
madnb/data; see madnb/data/README.md for attribution).
"""

from __future__ import annotations

import csv
import os
import random
import time
from importlib import resources
from typing import Any

import psycopg
from psycopg import sql

from ._install import install
from .sandbox import throwaway_database

SPLIT_SEED = 20240229


def house_votes_rows() -> list[tuple[int, str, list[str | None]]]:
    """(id, party, 16 votes with None for missing) from the shipped CSV."""
    text = resources.files("madnb").joinpath("data/house_votes_84.csv").read_text(encoding="utf-8")
    reader = csv.reader(text.splitlines())
    next(reader)
    return [(i, r[0], [None if v == "NA" else v for v in r[1:]]) for i, r in enumerate(reader, start=1)]


DEMO_SCHEMA = "madnb_demo"
DEMO_MODEL = "madnb_demo_votes"
# The comment that marks a schema as the demo's own, so a re-run may drop it.
SCHEMA_MARK = "madnb demo: created by `madnb demo`; dropped and recreated by each run"


class DemoError(RuntimeError):
    """The demo cannot run in this database; the message says why."""


def prepare_schema(conn: psycopg.Connection[Any]) -> None:
    """(Re)create the demo's own schema; never drop a schema of that name that the demo did not make."""
    row = conn.execute(
        "SELECT pg_catalog.obj_description(n.oid, 'pg_namespace') FROM pg_catalog.pg_namespace AS n "
        "WHERE n.nspname OPERATOR(pg_catalog.=) %s",
        (DEMO_SCHEMA,),
    ).fetchone()
    schema = sql.Identifier(DEMO_SCHEMA)
    if row is not None and row[0] != SCHEMA_MARK:
        raise DemoError(
            f"schema {DEMO_SCHEMA} exists and was not created by madnb demo: "
            "drop or rename it, or run the demo in another database"
        )
    model = conn.execute("SELECT source FROM madnb.models WHERE name OPERATOR(pg_catalog.=) %s", (DEMO_MODEL,)).fetchone()
    if model is not None:
        if not str(model[0]).startswith(DEMO_SCHEMA + "."):
            raise DemoError(
                f"a named model {DEMO_MODEL} exists and was not trained by madnb demo (its source is {model[0]}): "
                "drop or rename it, or run the demo in another database"
            )
        conn.execute("SELECT madnb.drop_model(%s)", (DEMO_MODEL,))
    if row is not None:
        conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(schema))
    conn.execute(sql.SQL("CREATE SCHEMA {}").format(schema))
    conn.execute(sql.SQL("COMMENT ON SCHEMA {} IS {}").format(schema, sql.Literal(SCHEMA_MARK)))


def load_house_votes(conn: psycopg.Connection[Any]) -> tuple[int, int]:
    """Create madnb_demo.house_votes_train / _test (fixed 90/10 split); return their sizes."""
    rows = house_votes_rows()
    ids = [r[0] for r in rows]
    test_ids = set(random.Random(SPLIT_SEED).sample(ids, k=round(len(ids) * 0.1)))
    conn.execute("CREATE TABLE madnb_demo.house_votes (id int PRIMARY KEY, party text NOT NULL, votes text[] NOT NULL)")
    with conn.cursor().copy("COPY madnb_demo.house_votes (id, party, votes) FROM STDIN") as cp:
        for r in rows:
            cp.write_row(r)
    conn.execute("CREATE TABLE madnb_demo.house_votes_test_ids (id int PRIMARY KEY)")
    with conn.cursor().copy("COPY madnb_demo.house_votes_test_ids FROM STDIN") as cp:
        for i in sorted(test_ids):
            cp.write_row((i,))
    conn.execute(
        "CREATE VIEW madnb_demo.house_votes_train AS SELECT * FROM madnb_demo.house_votes "
        "WHERE id NOT IN (SELECT id FROM madnb_demo.house_votes_test_ids)"
    )
    conn.execute(
        "CREATE VIEW madnb_demo.house_votes_test AS SELECT * FROM madnb_demo.house_votes "
        "WHERE id IN (SELECT id FROM madnb_demo.house_votes_test_ids)"
    )
    return len(rows) - len(test_ids), len(test_ids)


MANUAL_EXAMPLE = """
CREATE TABLE madnb_demo.training (id int, class int, attributes int[]);
INSERT INTO madnb_demo.training VALUES (1,1,'{1,2,3}'), (2,1,'{1,2,1}'), (3,1,'{1,4,3}'),
                                       (4,2,'{1,2,2}'), (5,2,'{0,2,2}'), (6,2,'{0,1,3}');
CREATE TABLE madnb_demo.toclassify (id int, attributes int[]);
INSERT INTO madnb_demo.toclassify VALUES (1,'{0,2,1}'), (2,'{1,2,3}');
SELECT madnb.create_nb_prepared_data_tables('madnb_demo.training', 'class', 'attributes', 3,
                                            'madnb_demo.nb_feature_probs', 'madnb_demo.nb_class_priors');
SELECT madnb.create_nb_probs_view('madnb_demo.nb_feature_probs', 'madnb_demo.nb_class_priors',
                                  'madnb_demo.toclassify', 'id', 'attributes', 3, 'madnb_demo.nb_probs_view_fast');
"""


def run_demo(conn: psycopg.Connection[Any], out: Any = print) -> float:
    """Train on house votes in schema madnb_demo, classify the held-out 10%; return the accuracy.

    madnb must be installed in ``conn``'s database.
    """
    prepare_schema(conn)
    out(f"madnb installed in schema madnb; the demo's tables and views are in schema {DEMO_SCHEMA} "
        "(dropped and recreated by each run)")
    n_train, n_test = load_house_votes(conn)
    out(f"house_votes_84: {n_train} training rows, {n_test} test rows (fixed seed {SPLIT_SEED})")
    conn.execute(
        "SELECT madnb.create_nb_prepared_data_tables('madnb_demo.house_votes_train', 'party', 'votes', 16, "
        "'madnb_demo.hv_feature_probs', 'madnb_demo.hv_class_priors')"
    )
    conn.execute(
        "SELECT madnb.create_nb_classify_view('madnb_demo.hv_feature_probs', 'madnb_demo.hv_class_priors', "
        "'madnb_demo.house_votes_test', 'id', 'votes', 16, 'madnb_demo.hv_classified')"
    )
    conn.execute("CREATE TABLE madnb_demo.hv_predictions AS SELECT * FROM madnb_demo.hv_classified")
    rows = conn.execute(
        "SELECT t.party, p.nb_classification FROM madnb_demo.house_votes_test t "
        "JOIN madnb_demo.hv_predictions p ON p.key = t.id"
    ).fetchall()
    labels = sorted({r[0] for r in rows} | {c for r in rows for c in r[1]})
    correct = sum(1 for truth, pred in rows if pred == [truth])
    acc = correct / len(rows)
    out(f"accuracy on the test split: {correct}/{len(rows)} = {acc:.4f}")
    out("confusion matrix (rows: true party, columns: predicted; ties count in every tied column):")
    width = max(len(lbl) for lbl in labels) + 2
    out(" " * width + "".join(f"{lbl:>{width}}" for lbl in labels))
    for truth in labels:
        counts = [sum(1 for t, p in rows if t == truth and pred in p) for pred in labels]
        out(f"{truth:<{width}}" + "".join(f"{c:>{width}}" for c in counts))
    out("\nMADlib manual, categorical example (expected 0.4 / 0.6 / 0.75 / 0.25):")
    conn.execute(MANUAL_EXAMPLE)
    for key, cls, p in conn.execute("SELECT key, class, nb_prob FROM madnb_demo.nb_probs_view_fast ORDER BY key, class"):
        out(f"  key {key}  class {cls}  nb_prob {p:.15g}")
    named_model(conn, out)
    return acc


def named_model(conn: psycopg.Connection[Any], out: Any = print) -> dict[str, Any]:
    """The Quick start's face on the same split: train from columns, predict in a query, evaluate; return the metrics."""
    columns = ", ".join(f"votes[{i}] AS v{i}" for i in range(1, 17))
    for split in ("train", "test"):
        conn.execute(f"CREATE VIEW madnb_demo.votes_{split} AS SELECT id, party, {columns} FROM madnb_demo.house_votes_{split}")
    out("\nThe README Quick start's face: a named model trained from ordinary columns (v1 ... v16, text y/n/NULL)")
    train = f"SELECT madnb.train('{DEMO_MODEL}', 'madnb_demo.votes_train', 'party', exclude => ARRAY['id'])"
    out("  " + train + ";")
    conn.execute(train)
    # the server names the model's prediction function (quoted, qualified): madnb.models says it
    found = conn.execute("SELECT m.predict_function FROM madnb.models AS m WHERE m.name = %s", [DEMO_MODEL]).fetchone()
    assert found is not None
    predict = f"SELECT party, {found[0]}(t) AS predicted, count(*)\n  FROM madnb_demo.votes_test AS t GROUP BY 1, 2 ORDER BY 1, 2"
    evaluate = f"SELECT madnb.evaluate('{DEMO_MODEL}', 'madnb_demo.votes_test')"
    out("  " + predict.replace("\n", "\n  ") + ";")
    out(f"    {'party':<12}{'predicted':<12}count")
    for party, predicted, count in conn.execute(predict):
        out(f"    {party:<12}{predicted:<12}{count}")
    out("  " + evaluate + ";")
    row = conn.execute(evaluate).fetchone()
    assert row is not None
    metrics: dict[str, Any] = row[0]
    out(f"    accuracy {metrics['accuracy']:.4f}, balanced_accuracy {metrics['balanced_accuracy']:.4f}, "
        f"macro f1 {metrics['macro_avg']['f1']:.4f}, log_loss {metrics['log_loss']:.4f}, "
        f"confusion_matrix {metrics['confusion_matrix']} (classes {', '.join(metrics['classes'])})")
    return metrics


def process_started() -> float:
    """When this process started, on the :func:`time.monotonic` clock (now, where /proc is missing)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return time.monotonic() - max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return time.monotonic()


DEMO_TIME = "demo: {:.1f} s (loading the data, MADlib's interface, a named model, evaluation)"


def main(dsn: str | None = None, started: float | None = None) -> int:
    """Run the demo in ``dsn``'s schema madnb_demo, or on a throwaway local cluster removed afterwards.

    Prints the time of each phase apart: setup (the cluster's start and madnb's
    install), the demo, cleanup (the cluster's removal), and the whole command's
    since ``started`` (a :func:`time.monotonic` reading; the command passes its
    process start), else since this call. ``make demo`` runs ``make setup`` first,
    which prints its own time.
    """
    t0 = time.monotonic() if started is None else started
    cleanup = 0.0
    if dsn:
        with psycopg.connect(dsn, autocommit=True) as conn:
            t = time.monotonic()
            install(conn)
            setup = time.monotonic() - t
            print(f"setup: {setup:.1f} s (madnb installed)")
            t = time.monotonic()
            run_demo(conn)
            demo = time.monotonic() - t
        print(DEMO_TIME.format(demo))
    else:
        print("starting a throwaway PostgreSQL cluster ...")
        t = time.monotonic()
        pg, url = throwaway_database(DEMO_SCHEMA)
        try:
            started_cluster = time.monotonic() - t
            t = time.monotonic()
            install(url)
            installed = time.monotonic() - t
            setup = started_cluster + installed
            print(f"setup: {setup:.1f} s (throwaway cluster started in {started_cluster:.1f} s, "
                  f"madnb installed in {installed:.1f} s)")
            t = time.monotonic()
            with psycopg.connect(url, autocommit=True) as conn:
                run_demo(conn)
            demo = time.monotonic() - t
            print(DEMO_TIME.format(demo))
        finally:
            t = time.monotonic()
            pg.stop()
            cleanup = time.monotonic() - t
        print(f"throwaway cluster stopped and removed in {cleanup:.1f} s")
    total = time.monotonic() - t0
    print(f"\ntime: setup {setup:.1f} s + demo {demo:.1f} s + cleanup {cleanup:.1f} s "
          f"+ starting Python {max(0.0, total - setup - demo - cleanup):.1f} s "
          "(make demo runs make setup first, which prints its own time)")
    print(f"demo finished in {total:.1f} s")
    return 0

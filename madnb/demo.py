"""The demo: a throwaway PostgreSQL (or the user's, with --dsn), madnb installed, house votes classified.

Everything the demo creates goes into its own schema, ``madnb_demo``, which each
run drops and recreates (only if the demo made it), so the demo is re-runnable
and leaves ``public`` alone.

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

from ._cluster import LocalCluster
from ._install import install

SPLIT_SEED = 20240229


def house_votes_rows() -> list[tuple[int, str, list[str | None]]]:
    """(id, party, 16 votes with None for missing) from the shipped CSV."""
    text = resources.files("madnb").joinpath("data/house_votes_84.csv").read_text(encoding="utf-8")
    reader = csv.reader(text.splitlines())
    next(reader)
    return [(i, r[0], [None if v == "NA" else v for v in r[1:]]) for i, r in enumerate(reader, start=1)]


DEMO_SCHEMA = "madnb_demo"
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
    if row is not None:
        if row[0] != SCHEMA_MARK:
            raise DemoError(
                f"schema {DEMO_SCHEMA} exists and was not created by madnb demo: "
                "drop or rename it, or run the demo in another database"
            )
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
    """Install madnb, train on house votes in schema madnb_demo, classify the held-out 10%; return the accuracy."""
    install(conn)
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
    return acc


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


def main(dsn: str | None = None, started: float | None = None) -> int:
    """Run the demo in ``dsn``'s schema madnb_demo, or on a throwaway local cluster removed afterwards.

    Prints the wall time since ``started`` (a :func:`time.monotonic` reading; the
    command passes its process start), else since this call.
    """
    t0 = time.monotonic() if started is None else started
    if dsn:
        with psycopg.connect(dsn, autocommit=True) as conn:
            run_demo(conn)
    else:
        print("starting a throwaway PostgreSQL cluster ...")
        with LocalCluster() as pg:
            with psycopg.connect(pg.url, autocommit=True) as conn:
                conn.execute("CREATE DATABASE madnb_demo")
            with psycopg.connect(pg.url_for("madnb_demo"), autocommit=True) as conn:
                run_demo(conn)
        print("throwaway cluster stopped and removed")
    # The whole run's wall time: cluster start and removal included.
    print(f"\ndemo finished in {time.monotonic() - t0:.1f} s")
    return 0

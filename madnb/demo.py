"""The demo: a throwaway PostgreSQL, madnb installed, house votes classified.

Data: UCI Congressional Voting Records (house_votes_84.csv, shipped in
madnb/data; see madnb/data/README.md for attribution).
"""

from __future__ import annotations

import csv
import random
import time
from importlib import resources
from typing import Any

import psycopg

from ._cluster import LocalCluster
from ._install import install

SPLIT_SEED = 20240229


def house_votes_rows() -> list[tuple[int, str, list[str | None]]]:
    """(id, party, 16 votes with None for missing) from the shipped CSV."""
    text = resources.files("madnb").joinpath("data/house_votes_84.csv").read_text(encoding="utf-8")
    reader = csv.reader(text.splitlines())
    next(reader)
    return [(i, r[0], [None if v == "NA" else v for v in r[1:]]) for i, r in enumerate(reader, start=1)]


def load_house_votes(conn: psycopg.Connection[Any]) -> tuple[int, int]:
    """Create house_votes_train / house_votes_test (fixed 90/10 split); return their sizes."""
    rows = house_votes_rows()
    ids = [r[0] for r in rows]
    test_ids = set(random.Random(SPLIT_SEED).sample(ids, k=round(len(ids) * 0.1)))
    conn.execute("CREATE TABLE house_votes (id int PRIMARY KEY, party text NOT NULL, votes text[] NOT NULL)")
    with conn.cursor().copy("COPY house_votes (id, party, votes) FROM STDIN") as cp:
        for r in rows:
            cp.write_row(r)
    conn.execute("CREATE TABLE house_votes_test_ids (id int PRIMARY KEY)")
    with conn.cursor().copy("COPY house_votes_test_ids FROM STDIN") as cp:
        for i in sorted(test_ids):
            cp.write_row((i,))
    conn.execute("CREATE VIEW house_votes_train AS SELECT * FROM house_votes WHERE id NOT IN (SELECT id FROM house_votes_test_ids)")
    conn.execute("CREATE VIEW house_votes_test AS SELECT * FROM house_votes WHERE id IN (SELECT id FROM house_votes_test_ids)")
    return len(rows) - len(test_ids), len(test_ids)


MANUAL_EXAMPLE = """
CREATE TABLE training (id int, class int, attributes int[]);
INSERT INTO training VALUES (1,1,'{1,2,3}'), (2,1,'{1,2,1}'), (3,1,'{1,4,3}'),
                            (4,2,'{1,2,2}'), (5,2,'{0,2,2}'), (6,2,'{0,1,3}');
CREATE TABLE toclassify (id int, attributes int[]);
INSERT INTO toclassify VALUES (1,'{0,2,1}'), (2,'{1,2,3}');
SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3,
                                            'nb_feature_probs', 'nb_class_priors');
SELECT madnb.create_nb_probs_view('nb_feature_probs', 'nb_class_priors', 'toclassify',
                                  'id', 'attributes', 3, 'nb_probs_view_fast');
"""


def run_demo(conn: psycopg.Connection[Any], out: Any = print) -> float:
    """Train on house votes, classify the held-out 10%, print accuracy; return it."""
    t0 = time.perf_counter()
    install(conn)
    n_train, n_test = load_house_votes(conn)
    out(f"house_votes_84: {n_train} training rows, {n_test} test rows (fixed seed {SPLIT_SEED})")
    conn.execute(
        "SELECT madnb.create_nb_prepared_data_tables('house_votes_train', 'party', 'votes', 16, "
        "'hv_feature_probs', 'hv_class_priors')"
    )
    conn.execute(
        "SELECT madnb.create_nb_classify_view('hv_feature_probs', 'hv_class_priors', 'house_votes_test', "
        "'id', 'votes', 16, 'hv_classified')"
    )
    conn.execute("CREATE TABLE hv_predictions AS SELECT * FROM hv_classified")
    rows = conn.execute(
        "SELECT t.party, p.nb_classification FROM house_votes_test t JOIN hv_predictions p ON p.key = t.id"
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
    for key, cls, p in conn.execute("SELECT key, class, nb_prob FROM nb_probs_view_fast ORDER BY key, class"):
        out(f"  key {key}  class {cls}  nb_prob {p:.15g}")
    out(f"\ndemo finished in {time.perf_counter() - t0:.1f} s")
    return acc


def main(dsn: str | None = None) -> int:
    """Run the demo on ``dsn``, or on a throwaway local cluster that is removed afterwards."""
    if dsn:
        with psycopg.connect(dsn, autocommit=True) as conn:
            run_demo(conn)
        return 0
    print("starting a throwaway PostgreSQL cluster ...")
    with LocalCluster() as pg:
        with psycopg.connect(pg.url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE madnb_demo")
        with psycopg.connect(pg.url_for("madnb_demo"), autocommit=True) as conn:
            run_demo(conn)
    print("throwaway cluster stopped and removed")
    return 0

"""Secure aggregation and private prediction: what they cost (issue 20, section 3).

    python -m bench.secure [--budget 100] [--reps 5] [--rows-per-owner 20000] [--one-database] [--out bench/results]
    make bench-secure                                                      # the same with the defaults; about 10 minutes on 2 cores

Three figures, each a median of per-run ratios to a baseline run made just before it
(:func:`bench.timing.measure`):

* **secure_federation**: 10 owners of 20,000 rows each (``mixed`` rows of
  :mod:`bench.datagen`: 10 categorical codes 0..9 and 5 Gaussian attributes, 3
  classes; owner k holds ids 20,000 (k - 1) + 1 .. 20,000 k).  Secure aggregation
  -- ``create_nb_statistics_shares`` at each owner (2 shares, the public domain
  and bounds [-8, 8]), ``create_nb_share_sum`` at each of 2 aggregation servers,
  ``create_nb_model_from_shares`` -- against plain federation of the same owners
  (``create_nb_statistics`` at each owner, ``create_nb_model_from_statistics``):
  ratio **secure / plain** (target <= 2x).  Exact and private (epsilon 1: plain
  with the same domain and bounds, so both release every cell of the domain) are
  measured apart; the secure runs are also broken down by party.  Every owner,
  share, share sum and model is a table of the one benchmark database: the
  figure is the parties' work, without the network between them (the
  statistics, shares and share sums that would cross it are a few hundred rows
  each, listed in the results).
* **secure_federation_servers**: the same on real servers -- 10 owner clusters
  and 2 aggregation server clusters on localhost (:class:`Servers`), the
  analyst the benchmark cluster; share sums pull ``owner<k>:sales_s<j>`` over
  dblink, the model ``agg<j>:sales_sum``; plain federation is each owner's
  ``create_nb_statistics`` and the analyst's ``create_nb_federated_tables``.
  ``--one-database`` leaves it out.
* **private_predict**: 1,000 rows of mixed200k as columns (``sec_col_text``, made
  as :mod:`bench.column_table` makes ``col_text``: 10 text, 5 float8) classified by :func:`madnb.private_predict` over two
  servers -- the benchmark cluster, where the model was trained (``madnb.train``
  on 200,000 rows), and a second cluster on localhost holding the model's
  exported script (``madnb.model_sql``) -- against the model's plain
  ``_predict_proba`` of the same 1,000 rows fetched by the client: time per row,
  and ratio **private / plain**.

Writes ``bench/results/secure.md`` and ``secure.json``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

import madnb
from madnb._cluster import LocalCluster

from .datagen import DATASETS, SUPPORT_SQL, Dataset
from .evaluate import text_table_sql
from .sharding import rows_sql
from .timing import Budget, measure, timed

RESULTS = Path(__file__).resolve().parent / "results"
OWNERS = 10
OWNER_ROWS = 20_000
SERVERS = 2
DATA = Dataset("sec_mixed", OWNERS * OWNER_ROWS, "mixed", 15, tuple(range(11, 16)))
NCAT = DATA.num_attrs - len(DATA.numeric)
BOUNDS = [[-8.0, 8.0] for _ in DATA.numeric]  # public: every mean is within 0.5 of 0, every sd at most 1.5
DOMAIN = "sec_domain"
EPSILON = 1.0
FP, NP, CP = "sec_fp", "sec_np", "sec_cp"
PREDICT_ROWS = 1_000
MODEL = "bench_secure_nb"
TARGET_FEDERATION = 2.0


def owner_names() -> list[str]:
    return [f"{DATA.name}_o{k}" for k in range(1, OWNERS + 1)]


def setup_owners(conn: psycopg.Connection[Any], owner_rows: int = OWNER_ROWS) -> None:
    """The owners' tables (``owner_rows`` each) in one database."""
    setup_owner_tables(conn, [(name, k * owner_rows + 1, (k + 1) * owner_rows) for k, name in enumerate(owner_names())])


def setup_owner_tables(conn: psycopg.Connection[Any], tables: list[tuple[str, int, int]]) -> None:
    """Tables (name, first id, last id) of DATA's rows and the public domain (classes 0..2, categorical attributes
    1..10 over 0..9)."""
    conn.execute(SUPPORT_SQL)
    for name, lo, hi in tables:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(rows_sql(DATA, name, lo, hi))
        conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(name)))
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(DOMAIN)))
    conn.execute(sql.SQL(
        "CREATE TABLE {} AS SELECT 0 AS attr, c::text AS value FROM generate_series(0, 2) AS c "
        "UNION ALL SELECT j, v::text FROM generate_series(1, {}) AS j, generate_series(0, 9) AS v"
    ).format(sql.Identifier(DOMAIN), sql.Literal(NCAT)))


def _text_array(names: list[str]) -> sql.Composable:
    return sql.SQL("ARRAY[{}]::text[]").format(sql.SQL(", ").join(sql.Literal(n) for n in names))


def _drop(conn: psycopg.Connection[Any], names: list[str]) -> None:
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.SQL(", ").join(sql.Identifier(n) for n in names)))


def _privacy(private: bool) -> sql.Composable:
    if not private:
        return sql.SQL("")
    return sql.SQL(", epsilon => {}, bounds => {}, domain => {}").format(sql.Literal(EPSILON), sql.Literal(BOUNDS), sql.Literal(DOMAIN))


def _clear_model(conn: psycopg.Connection[Any]) -> None:
    _drop(conn, [FP, NP, CP])
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier("madnb_statistics", f"public.{FP}")))


def _model_args() -> sql.Composable:
    return sql.SQL("{}, {}, {}").format(sql.Literal(FP), sql.Literal(NP), sql.Literal(CP))


def plain_run(conn: psycopg.Connection[Any], private: bool) -> float:
    """Plain federation, timed: each owner's statistics, then the model from them."""
    parts = [f"{o}_stats" for o in owner_names()]
    _drop(conn, parts)
    _clear_model(conn)

    def run() -> None:
        for owner, part in zip(owner_names(), parts, strict=True):
            conn.execute(sql.SQL("SELECT madnb.create_nb_statistics({}, 'class', 'attributes', {}, {}, {}{})").format(
                sql.Literal(owner), sql.Literal(DATA.numeric_text), sql.Literal(DATA.num_attrs), sql.Literal(part), _privacy(private)))
        conn.execute(sql.SQL("SELECT madnb.create_nb_model_from_statistics({}, {})").format(_text_array(parts), _model_args()))

    return timed(run)


def secure_run(conn: psycopg.Connection[Any], private: bool, parts: dict[str, list[float]]) -> float:
    """Secure aggregation, timed: each owner's shares, each server's share sum, the model; per party into ``parts``."""
    shares = [[f"{o}_s{j}" for o in owner_names()] for j in range(1, SERVERS + 1)]
    sums = [f"{DATA.name}_sum{j}" for j in range(1, SERVERS + 1)]
    _drop(conn, [t for server in shares for t in server] + sums)
    _clear_model(conn)
    bounds = sql.SQL("") if private else sql.SQL(", bounds => {}").format(sql.Literal(BOUNDS))
    domain = sql.SQL("") if private else sql.SQL(", domain => {}").format(sql.Literal(DOMAIN))

    def owners() -> None:
        for k, owner in enumerate(owner_names()):
            conn.execute(sql.SQL(
                "SELECT madnb.create_nb_statistics_shares({}, 'class', 'attributes', {}, {}, {}{}{}{}, owners => {})"
            ).format(sql.Literal(owner), sql.Literal(DATA.numeric_text), sql.Literal(DATA.num_attrs),
                     _text_array([server[k] for server in shares]), _privacy(private), bounds, domain, sql.Literal(OWNERS)))

    def servers() -> None:
        for server, dest in zip(shares, sums, strict=True):
            conn.execute(sql.SQL("SELECT madnb.create_nb_share_sum({}, {})").format(_text_array(server), sql.Literal(dest)))

    def analyst() -> None:
        conn.execute(sql.SQL("SELECT madnb.create_nb_model_from_shares({}, {})").format(_text_array(sums), _model_args()))

    total = 0.0
    for party, step in (("owners", owners), ("servers", servers), ("analyst", analyst)):
        t = timed(step)
        parts.setdefault(party, []).append(t)
        total += t
    return total


def sizes(conn: psycopg.Connection[Any]) -> dict[str, int]:
    """Rows of what would cross the network, from the last runs' tables: one owner's statistics, one share, one share sum."""
    def rows(name: str) -> int:
        return int(conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(name))).fetchone()[0])

    first = owner_names()[0]
    return {"statistics_rows": rows(f"{first}_stats"), "share_rows": rows(f"{first}_s1"), "share_sum_rows": rows(f"{DATA.name}_sum1")}


def federation(conn: psycopg.Connection[Any], budget: Budget, reps: int, owner_rows: int = OWNER_ROWS) -> list[dict[str, Any]]:
    setup_owners(conn, owner_rows)
    out = []
    for private in (False, True):
        parts: dict[str, list[float]] = {}
        plain_run(conn, private)  # warm both code paths
        secure_run(conn, private, {})
        fig = measure(lambda private=private, parts=parts: secure_run(conn, private, parts), reps, budget,
                      lambda private=private: plain_run(conn, private))
        n = len(fig.runs)
        row = {
            "figure": "secure_federation", "private": private, "owners": OWNERS, "rows_per_owner": owner_rows, "servers": SERVERS,
            "secure_median_s": fig.median, "plain_median_s": statistics.median(fig.base_runs), "ratio": fig.ratio,
            "runs": n, "target": TARGET_FEDERATION,
            # the last n runs are the timed ones (a probe kept when the budget is short)
            "parts_median_s": {p: statistics.median(v[-n:]) for p, v in parts.items()},
            **sizes(conn),
        }
        out.append(row)
        print(f"  secure federation ({'private' if private else 'exact'}): {fig.median:.2f} s, plain {row['plain_median_s']:.2f} s, "
              f"{fig.ratio or 0:.2f}x ({n} runs); " + ", ".join(f"{p} {t:.2f} s" for p, t in row["parts_median_s"].items()), flush=True)
    return out


def _link(conn: psycopg.Connection[Any], name: str, pg: LocalCluster) -> None:
    """A postgres_fdw server ``name`` for cluster ``pg`` on ``conn``'s database, with the superuser's mapping."""
    conn.execute("CREATE EXTENSION IF NOT EXISTS postgres_fdw")
    conn.execute("CREATE EXTENSION IF NOT EXISTS dblink")
    conn.execute(sql.SQL("DROP SERVER IF EXISTS {} CASCADE").format(sql.Identifier(name)))
    conn.execute(sql.SQL("CREATE SERVER {} FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host {}, port {}, dbname {})").format(
        sql.Identifier(name), sql.Literal(pg.host), sql.Literal(str(pg.port)), sql.Literal(pg.dbname)))
    conn.execute(sql.SQL("CREATE USER MAPPING FOR CURRENT_USER SERVER {} OPTIONS (user 'postgres')").format(sql.Identifier(name)))


class Servers:
    """The federation on real servers: one cluster per owner and per aggregation server; the analyst is ``analyst``.

    Each owner's cluster holds its rows as ``sales`` and the domain; each aggregation server reaches every owner
    (postgres_fdw servers ``owner1`` ..), the analyst every owner (plain federation) and both aggregation servers
    (``agg1``, ``agg2``).  Every party's calls run one after the other from this client (the machine has 2 cores).
    """

    def __init__(self, analyst: psycopg.Connection[Any], owners: list[psycopg.Connection[Any]], servers: list[psycopg.Connection[Any]],
                 owner_clusters: list[LocalCluster], server_clusters: list[LocalCluster], owner_rows: int) -> None:
        self.analyst, self.owners, self.servers = analyst, owners, servers
        for k, conn in enumerate(owners):
            madnb.install(conn)
            conn.execute("SET client_min_messages = warning")
            setup_owner_tables(conn, [("sales", k * owner_rows + 1, (k + 1) * owner_rows)])
        for conn in servers:
            madnb.install(conn)
            conn.execute("SET client_min_messages = warning")
            for k, pg in enumerate(owner_clusters, start=1):
                _link(conn, f"owner{k}", pg)
        for k, pg in enumerate(owner_clusters, start=1):
            _link(analyst, f"owner{k}", pg)
        for j, pg in enumerate(server_clusters, start=1):
            _link(analyst, f"agg{j}", pg)

    def plain(self, private: bool) -> float:
        for conn in self.owners:
            conn.execute("DROP TABLE IF EXISTS sales_stats")
        _clear_model(self.analyst)

        def run() -> None:
            for conn in self.owners:
                conn.execute(sql.SQL("SELECT madnb.create_nb_statistics('sales', 'class', 'attributes', {}, {}, 'sales_stats'{})").format(
                    sql.Literal(DATA.numeric_text), sql.Literal(DATA.num_attrs), _privacy(private)))
            self.analyst.execute(sql.SQL("SELECT madnb.create_nb_federated_tables({}, 'sales_stats', {})").format(
                _text_array([f"owner{k}" for k in range(1, len(self.owners) + 1)]), _model_args()))

        return timed(run)

    def secure(self, private: bool, parts: dict[str, list[float]]) -> float:
        for conn in self.owners:
            _drop(conn, [f"sales_s{j}" for j in range(1, SERVERS + 1)])
        for conn in self.servers:
            _drop(conn, ["sales_sum"])
        _clear_model(self.analyst)
        extra = sql.SQL("") if private else sql.SQL(", bounds => {}, domain => {}").format(sql.Literal(BOUNDS), sql.Literal(DOMAIN))

        def owners() -> None:
            for conn in self.owners:
                conn.execute(sql.SQL(
                    "SELECT madnb.create_nb_statistics_shares('sales', 'class', 'attributes', {}, {}, {}{}{}, owners => {})"
                ).format(sql.Literal(DATA.numeric_text), sql.Literal(DATA.num_attrs),
                         _text_array([f"sales_s{j}" for j in range(1, SERVERS + 1)]), _privacy(private), extra, sql.Literal(OWNERS)))

        def servers() -> None:
            for j, conn in enumerate(self.servers, start=1):
                conn.execute(sql.SQL("SELECT madnb.create_nb_share_sum({}, 'sales_sum')").format(
                    _text_array([f"owner{k}:sales_s{j}" for k in range(1, len(self.owners) + 1)])))

        def analyst() -> None:
            self.analyst.execute(sql.SQL("SELECT madnb.create_nb_model_from_shares({}, {})").format(
                _text_array([f"agg{j}:sales_sum" for j in range(1, len(self.servers) + 1)]), _model_args()))

        total = 0.0
        for party, step in (("owners", owners), ("servers", servers), ("analyst", analyst)):
            t = timed(step)
            parts.setdefault(party, []).append(t)
            total += t
        return total


def federation_on_servers(conn: psycopg.Connection[Any], budget: Budget, reps: int, owner_rows: int = OWNER_ROWS) -> list[dict[str, Any]]:
    """The figures of :func:`federation` with every party on its own cluster on localhost (12 more clusters)."""
    out = []
    print(f"  secure federation on servers: starting {OWNERS + SERVERS} clusters", flush=True)
    with ExitStack() as stack:
        owner_clusters = [stack.enter_context(LocalCluster(fast=True)) for _ in range(OWNERS)]
        server_clusters = [stack.enter_context(LocalCluster(fast=True)) for _ in range(SERVERS)]
        owners = [stack.enter_context(psycopg.connect(pg.url, autocommit=True)) for pg in owner_clusters]
        servers = [stack.enter_context(psycopg.connect(pg.url, autocommit=True)) for pg in server_clusters]
        fed = Servers(conn, owners, servers, owner_clusters, server_clusters, owner_rows)
        for private in (False, True):
            parts: dict[str, list[float]] = {}
            fed.plain(private)
            fed.secure(private, {})
            fig = measure(lambda private=private, parts=parts: fed.secure(private, parts), reps, budget,
                          lambda private=private: fed.plain(private))
            n = len(fig.runs)
            row = {
                "figure": "secure_federation_servers", "private": private, "owners": OWNERS, "rows_per_owner": owner_rows,
                "servers": SERVERS, "secure_median_s": fig.median, "plain_median_s": statistics.median(fig.base_runs),
                "ratio": fig.ratio, "runs": n, "target": TARGET_FEDERATION,
                "parts_median_s": {p: statistics.median(v[-n:]) for p, v in parts.items()},
            }
            out.append(row)
            print(f"  secure federation on servers ({'private' if private else 'exact'}): {fig.median:.2f} s, plain "
                  f"{row['plain_median_s']:.2f} s, {fig.ratio or 0:.2f}x ({n} runs); "
                  + ", ".join(f"{p} {t:.2f} s" for p, t in row["parts_median_s"].items()), flush=True)
        _clear_model(conn)
        for j in range(1, SERVERS + 1):
            conn.execute(sql.SQL("DROP SERVER IF EXISTS {} CASCADE").format(sql.Identifier(f"agg{j}")))
        for k in range(1, OWNERS + 1):
            conn.execute(sql.SQL("DROP SERVER IF EXISTS {} CASCADE").format(sql.Identifier(f"owner{k}")))
    return out


def prediction(conn: psycopg.Connection[Any], budget: Budget, reps: int) -> dict[str, Any]:
    """private_predict of 1,000 rows over this cluster and a second one, against _predict_proba of the same rows."""
    d = DATASETS["mixed200k"]
    conn.execute(SUPPORT_SQL)
    if conn.execute("SELECT to_regclass(%s) IS NULL", (d.name,)).fetchone()[0]:
        conn.execute(d.create_sql())
    conn.execute("DROP TABLE IF EXISTS sec_col_text")
    conn.execute(text_table_sql("sec_col_text"))
    conn.execute("ALTER TABLE sec_col_text ADD PRIMARY KEY (id)")
    conn.execute("VACUUM ANALYZE sec_col_text")
    conn.execute("SELECT madnb.train(%s, 'sec_col_text', 'class', exclude => ARRAY['id'], replace => true)", (MODEL,))
    # the same name on both servers: the second holds the exported script as schema madnb_models' function
    script = conn.execute("SELECT madnb.model_sql(%s, %s)", (MODEL, f"madnb_models.{MODEL}")).fetchone()[0]
    cur = conn.execute("SELECT * FROM sec_col_text t WHERE t.id <= %s ORDER BY t.id", (PREDICT_ROWS,))
    names = [c.name for c in cur.description or []]
    rows = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    plain_q = sql.SQL("SELECT {}(t) FROM sec_col_text t WHERE t.id <= {} ORDER BY t.id").format(
        sql.Identifier("madnb_models", f"{MODEL}_predict_proba"), sql.Literal(PREDICT_ROWS))
    with LocalCluster(fast=True) as other, psycopg.connect(other.url, autocommit=True) as second:
        second.execute("CREATE SCHEMA madnb_models")
        second.execute(script)  # the exported model, on a server without madnb
        got = madnb.private_predict([conn, second], MODEL, rows)
        want = [r[0] for r in conn.execute(plain_q).fetchall()]
        worst = max(abs(g[k] - w[k]) for g, w in zip(got, want, strict=True) for k in w)

        def private() -> float:
            return timed(lambda: madnb.private_predict([conn, second], MODEL, rows))

        def plain() -> float:
            return timed(lambda: conn.execute(plain_q).fetchall())

        fig = measure(private, reps, budget, plain)
    row = {
        "figure": "private_predict", "rows": PREDICT_ROWS, "servers": 2, "private_median_s": fig.median,
        "per_row_ms": fig.median / PREDICT_ROWS * 1000, "plain_median_s": statistics.median(fig.base_runs),
        "plain_per_row_ms": statistics.median(fig.base_runs) / PREDICT_ROWS * 1000, "ratio": fig.ratio, "runs": len(fig.runs),
        "max_abs_difference": worst, "features": f"{NCAT} text, {len(DATA.numeric)} float8", "training_rows": d.rows,
    }
    print(f"  private_predict: {row['per_row_ms']:.3f} ms per row ({fig.median:.2f} s for {PREDICT_ROWS}), plain _predict_proba "
          f"{row['plain_per_row_ms']:.4f} ms per row, {fig.ratio or 0:.1f}x ({len(fig.runs)} runs); max |difference| {worst:.1e}", flush=True)
    return row


def markdown(meta: dict[str, Any], fed: list[dict[str, Any]], pred: dict[str, Any], on_servers: list[dict[str, Any]] | None = None) -> str:
    L = [
        "# Secure aggregation and private prediction (make bench-secure)", "",
        f"{meta['date']}, madnb {meta['madnb_version']}, PostgreSQL {meta['server_version']}, {meta['nproc']} cores "
        "(shared). Every figure is a median; its ratio the median of per-run ratios to a baseline run made just before it "
        "(`bench/timing.py`).", "",
        f"## Secure aggregation: {OWNERS} owners of {fed[0]['rows_per_owner']:,} rows, {SERVERS} aggregation servers", "",
        f"Rows: `bench/datagen.py`'s mixed rows ({NCAT} categorical codes 0..9, {len(DATA.numeric)} Gaussian attributes, "
        f"3 classes), owner k ids {fed[0]['rows_per_owner']:,} (k - 1) + 1 .. {fed[0]['rows_per_owner']:,} k. **Secure**: `create_nb_statistics_shares` at each owner "
        "(2 shares, the public domain of 3 classes x 10 attributes x 10 values, bounds [-8, 8]), `create_nb_share_sum` at "
        "each server, `create_nb_model_from_shares`. **Plain**: `create_nb_statistics` at each owner, "
        "`create_nb_model_from_statistics` (private: with the same epsilon, domain and bounds). All parties are tables of "
        "one database: the figure is their work, not the network between them (what would cross it is in the last column).", "",
        "| release | secure | plain | ratio | target | secure by party (owners / servers / analyst) | rows sent: statistics, share, share sum |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in fed:
        p = r["parts_median_s"]
        ok = "ok" if r["ratio"] is not None and r["ratio"] <= r["target"] else "MISSED"
        L.append(
            f"| {'private, epsilon ' + format(EPSILON, 'g') if r['private'] else 'exact'} | {r['secure_median_s']:.2f} s | "
            f"{r['plain_median_s']:.2f} s | {r['ratio']:.2f}x | <= {r['target']:g} {ok} | "
            f"{p['owners']:.2f} / {p['servers']:.2f} / {p['analyst']:.2f} s | "
            f"{r['statistics_rows']}, {r['share_rows']}, {r['share_sum_rows']} |"
        )
    if on_servers:
        L += [
            "", f"### The same on real servers: {OWNERS} owner clusters, {SERVERS} aggregation server clusters, the analyst", "",
            f"Every owner a cluster of its own on localhost (its rows as `sales`), each aggregation server a cluster reaching "
            "every owner through postgres_fdw servers (`create_nb_share_sum` of `owner<k>:sales_s<j>` over dblink), the "
            "analyst the benchmark cluster (`create_nb_model_from_shares` of `agg<j>:sales_sum`; plain: "
            "`create_nb_federated_tables` of the owners' `sales_stats`). Each party's calls run one after the other "
            f"from the client ({meta['nproc']} cores for {OWNERS + SERVERS + 1} clusters).", "",
            "| release | secure | plain | ratio | target | secure by party (owners / servers / analyst) |",
            "|---|---|---|---|---|---|",
        ]
        for r in on_servers:
            p = r["parts_median_s"]
            ok = "ok" if r["ratio"] is not None and r["ratio"] <= r["target"] else "MISSED"
            L.append(
                f"| {'private, epsilon ' + format(EPSILON, 'g') if r['private'] else 'exact'} | {r['secure_median_s']:.2f} s | "
                f"{r['plain_median_s']:.2f} s | {r['ratio']:.2f}x | <= {r['target']:g} {ok} | "
                f"{p['owners']:.2f} / {p['servers']:.2f} / {p['analyst']:.2f} s |"
            )
    L += [
        "", f"## Private prediction: {pred['rows']:,} rows over two servers", "",
        f"A named model (`madnb.train`, {pred['features']} features, 3 classes, {pred['training_rows']:,} training rows) "
        "served by the benchmark cluster and by a second cluster on localhost holding its exported script "
        "(`madnb.model_sql`); `madnb.private_predict` of the rows as a list of dicts, over open connections, against "
        "`madnb_models.<model>_predict_proba(t)` of the same rows fetched by the client.", "",
        "| private_predict | per row | plain _predict_proba | per row | ratio | max abs difference of a probability |",
        "|---|---|---|---|---|---|",
        f"| {pred['private_median_s']:.3f} s | {pred['per_row_ms']:.3f} ms | {pred['plain_median_s']:.4f} s | "
        f"{pred['plain_per_row_ms']:.4f} ms | {pred['ratio']:.1f}x | {pred['max_abs_difference']:.1e} |",
        "",
    ]
    return "\n".join(L)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.secure", description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=100.0, help="seconds of runs per figure (default 100)")
    ap.add_argument("--reps", type=int, default=5, help="runs per figure when the budget allows (default 5)")
    ap.add_argument("--rows-per-owner", type=int, default=OWNER_ROWS, help=f"rows of each of the {OWNERS} owners (default {OWNER_ROWS:,})")
    ap.add_argument("--one-database", action="store_true", help="leave out the figures on real servers (12 more clusters)")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    budget = Budget(per_figure=args.budget, deadline=3600)
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        conn.execute("SET client_min_messages = warning")
        meta = {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "madnb_version": madnb.__version__,
                "server_version": conn.execute("SHOW server_version").fetchone()[0], "nproc": _nproc()}
        print(f"madnb bench.secure: PostgreSQL {meta['server_version']}", flush=True)
        fed = federation(conn, budget, args.reps, args.rows_per_owner)
        servers = federation_on_servers(conn, budget, args.reps, args.rows_per_owner) if not args.one_database else []
        pred = prediction(conn, budget, args.reps)
        meta["elapsed_s"] = budget.elapsed()
    args.out.mkdir(parents=True, exist_ok=True)
    md = markdown(meta, fed, pred, servers)
    (args.out / "secure.md").write_text(md, encoding="utf-8")
    (args.out / "secure.json").write_text(json.dumps({"meta": meta, "figures": [*fed, *servers, pred]}, indent=2) + "\n", encoding="utf-8")
    print(md)
    return 0


def _nproc() -> int:
    return os.cpu_count() or 1


if __name__ == "__main__":
    sys.exit(main())

"""Sharded training (issue 11, point 3): a partitioned table whose partitions are on other servers.

The same rows are trained once from one local table and once from a partitioned
table whose partitions are postgres_fdw foreign tables on the remote clusters
(and possibly local tables); the models must agree within 1e-9, and the shards
must have sent statistics, not training rows.
"""

from __future__ import annotations

import csv
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg import sql
from sklearn.preprocessing import OrdinalEncoder

from conftest import data_file
from remote import RemoteDb, link_server

NUMERIC = [0, 2, 4, 10, 11, 12]  # adult's numeric columns
CATEGORICAL = [1, 3, 5, 6, 7, 8, 9, 13]
ROWS = 9000


def adult_rows(kind: str) -> list[tuple[int, str, list[Any]]]:
    """(id, label, attributes) of adult's first ROWS rows: integer codes, or 6 Gaussian + 8 codes as float8."""
    with open(data_file("adult_train.csv"), newline="") as f:
        rows = list(csv.reader(f))[1 : ROWS + 1]
    cats = OrdinalEncoder(dtype=np.int64).fit_transform([[r[c] for c in CATEGORICAL] for r in rows])
    if kind == "codes":
        return [(i, r[14], [int(v) for v in cats[i]]) for i, r in enumerate(rows)]
    return [(i, r[14], [float(r[c]) for c in NUMERIC] + [float(v) for v in cats[i]]) for i, r in enumerate(rows)]


def copy_rows(conn: psycopg.Connection[Any], table: sql.Composable, rows: list[tuple[int, str, list[Any]]]) -> None:
    with conn.cursor().copy(sql.SQL("COPY {} (id, label, attrs) FROM STDIN").format(table)) as cp:
        for r in rows:
            cp.write_row(r)


def build_sharded(
    db: psycopg.Connection[Any], remotes: list[RemoteDb], rows: list[tuple[int, str, list[Any]]], elem: str,
    layout: str, remote_schema: str = "public", remote_table: str = "adult_part",
    remote_columns: tuple[str, str, str] = ("id", "label", "attrs"),
) -> None:
    """Table ``adult`` (every row, local) and ``adult_sharded`` partitioned by id range over the layout.

    ``layout``: one letter per partition, ``f`` a foreign table on the next remote
    cluster, ``l`` a local table.  The remote tables may have other schema,
    table and column names (options schema_name, table_name, column_name).
    """
    db.execute(f"CREATE TABLE adult (id int, label text, attrs {elem}[])")
    copy_rows(db, sql.Identifier("adult"), rows)
    db.execute(f"CREATE TABLE adult_sharded (id int, label text, attrs {elem}[]) PARTITION BY RANGE (id)")
    bounds = np.linspace(0, len(rows), len(layout) + 1).astype(int)
    remote_iter = iter(remotes)
    rid, rlabel, rattrs = (sql.Identifier(c) for c in remote_columns)
    for k, kind in enumerate(layout):
        lo, hi = int(bounds[k]), int(bounds[k + 1])
        part = [r for r in rows if lo <= r[0] < hi]
        name = sql.Identifier(f"adult_p{k + 1}")
        if kind == "l":
            db.execute(sql.SQL("CREATE TABLE {} PARTITION OF adult_sharded FOR VALUES FROM ({}) TO ({})").format(name, lo, hi))
            copy_rows(db, name, part)
            continue
        r = next(remote_iter)
        rtab = sql.Identifier(remote_schema, remote_table)
        r.conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(remote_schema)))
        r.conn.execute(sql.SQL("CREATE TABLE {} ({} int, {} text, {} {}[])").format(rtab, rid, rlabel, rattrs, sql.SQL(elem)))
        with r.conn.cursor().copy(sql.SQL("COPY {} FROM STDIN").format(rtab)) as cp:
            for row in part:
                cp.write_row(row)
        server = f"shard{k + 1}"
        link_server(db, r, server, extensions=("postgres_fdw", "dblink"))
        db.execute(
            sql.SQL(
                "CREATE FOREIGN TABLE {} PARTITION OF adult_sharded FOR VALUES FROM ({}) TO ({}) "
                "SERVER {} OPTIONS (schema_name {}, table_name {})"
            ).format(name, lo, hi, sql.Identifier(server), sql.Literal(remote_schema), sql.Literal(remote_table))
        )
        for local, remote in zip(("id", "label", "attrs"), remote_columns):
            if local != remote:
                db.execute(
                    sql.SQL("ALTER FOREIGN TABLE {} ALTER COLUMN {} OPTIONS (column_name {})").format(
                        name, sql.Identifier(local), sql.Literal(remote)
                    )
                )


def train(db: psycopg.Connection[Any], source: str, prefix: str, gaussian: bool) -> None:
    if gaussian:
        db.execute(
            "SELECT madnb.create_nb_prepared_data_tables(%s, 'label', 'attrs', '{1,2,3,4,5,6}', 14, %s, %s, %s)",
            (source, f"{prefix}_fp", f"{prefix}_np", f"{prefix}_cp"),
        )
    else:
        db.execute(
            "SELECT madnb.create_nb_prepared_data_tables(%s, 'label', 'attrs', 8, %s, %s)",
            (source, f"{prefix}_fp", f"{prefix}_cp"),
        )


def assert_same_model(db: psycopg.Connection[Any], a: str, b: str, gaussian: bool) -> None:
    for table, order in (("cp", "class"), ("fp", "attr, value, class")):
        got_a = db.execute(sql.SQL("SELECT * FROM {} ORDER BY " + order).format(sql.Identifier(f"{a}_{table}"))).fetchall()
        got_b = db.execute(sql.SQL("SELECT * FROM {} ORDER BY " + order).format(sql.Identifier(f"{b}_{table}"))).fetchall()
        assert got_a == got_b and got_a, table
    if gaussian:
        q = "SELECT class, attr, attr_mean, attr_var, value_cnt FROM {} ORDER BY class, attr"
        ra = db.execute(sql.SQL(q).format(sql.Identifier(f"{a}_np"))).fetchall()
        rb = db.execute(sql.SQL(q).format(sql.Identifier(f"{b}_np"))).fetchall()
        assert [(r[0], r[1], r[4]) for r in ra] == [(r[0], r[1], r[4]) for r in rb] and len(ra) == 12
        for x, y in zip(ra, rb):
            assert abs(x[2] - y[2]) <= 1e-9 * abs(x[2]) and abs(x[3] - y[3]) <= 1e-9 * abs(x[3]), (x, y)


@pytest.mark.parametrize(("kind", "layout"), [("codes", "fff"), ("gaussian", "fff"), ("codes", "ffl"), ("gaussian", "flf")])
def test_sharded_adult_trains_the_model_of_the_same_rows_in_one_table(
    db: psycopg.Connection[Any], remote_dbs: list[RemoteDb], kind: str, layout: str
) -> None:
    gaussian = kind == "gaussian"
    build_sharded(db, remote_dbs, adult_rows(kind), "float8" if gaussian else "int", layout)
    train(db, "adult", "local", gaussian)
    train(db, "adult_sharded", "sharded", gaussian)
    assert_same_model(db, "local", "sharded", gaussian)


def test_only_statistics_cross_the_network(db: psycopg.Connection[Any], remote_dbs: list[RemoteDb]) -> None:
    rows = adult_rows("gaussian")
    build_sharded(db, remote_dbs, rows, "float8", "fff")
    for r in remote_dbs:
        r.conn.execute("CREATE EXTENSION pg_stat_statements")
        r.conn.execute("SELECT pg_stat_statements_reset()")
    train(db, "adult_sharded", "sharded", gaussian=True)
    (cells,) = db.execute(
        "SELECT count(*) FROM (SELECT 1 FROM sharded_fp UNION ALL SELECT 1 FROM sharded_np UNION ALL SELECT 1 FROM sharded_cp) x"
    ).fetchone()
    for r in remote_dbs:
        ran = r.conn.execute(
            "SELECT s.query, s.rows FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid "
            "WHERE d.datname = current_database() AND s.query LIKE '%adult_part%'"
        ).fetchall()
        assert ran, "the statistics pass ran on the shard"
        # every statement that read the training rows aggregated them there ...
        assert all("GROUP BY" in q for q, _ in ran), ran
        # ... and returned statistics cells: no more rows than the model has cells, far fewer than the shard's rows
        returned = sum(n for _, n in ran)
        assert 0 < returned <= cells < ROWS / 3 / 10


def test_hostile_remote_schema_table_and_column_names_are_quoted(db: psycopg.Connection[Any], remote_dbs: list[RemoteDb]) -> None:
    hostile = ('we"ird; DROP TABLE adult; --', "Robert'); DROP TABLE adult;--", ("I D", 'la"bel', "at trs"))
    build_sharded(db, remote_dbs, adult_rows("codes"), "int", "ffl", *hostile[:2], remote_columns=hostile[2])
    train(db, "adult", "local", False)
    train(db, "adult_sharded", "sharded", False)
    assert_same_model(db, "local", "sharded", False)


def no_outputs(db: psycopg.Connection[Any]) -> bool:
    return db.execute(
        "SELECT to_regclass('sharded_fp') IS NULL AND to_regclass('sharded_cp') IS NULL "
        "AND NOT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = 'madnb_statistics' AND c.relname LIKE '%sharded%')"
    ).fetchone() == (True,)


def test_a_shard_that_is_down_is_named_and_nothing_is_written(db: psycopg.Connection[Any], remote_dbs: list[RemoteDb]) -> None:
    import socket

    build_sharded(db, remote_dbs, adult_rows("codes"), "int", "fff")
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db.execute(sql.SQL("ALTER SERVER shard2 OPTIONS (SET port {})").format(sql.Literal(str(port))))
    with pytest.raises(psycopg.Error) as info:
        train(db, "adult_sharded", "sharded", False)
    assert info.value.diag.sqlstate == "08001"
    assert "server shard2" in info.value.diag.message_primary
    assert "adult_p2" in info.value.diag.message_primary
    assert no_outputs(db)
    # and the connections to the other shards were closed
    assert db.execute("SELECT public.dblink_get_connections()").fetchone() == (None,)


def test_without_dblink_sharded_training_says_how_to_enable_it(db: psycopg.Connection[Any], remote_dbs: list[RemoteDb]) -> None:
    build_sharded(db, remote_dbs, adult_rows("codes")[:300], "int", "fl")
    db.execute("DROP EXTENSION dblink")
    with pytest.raises(psycopg.Error) as info:
        train(db, "adult_sharded", "sharded", False)
    assert info.value.diag.sqlstate == "0A000"
    assert "CREATE EXTENSION dblink" in (info.value.diag.message_hint or "")
    assert no_outputs(db)


def test_a_foreign_partition_of_another_wrapper_is_refused_by_name(db: psycopg.Connection[Any], remote_dbs: list[RemoteDb]) -> None:
    build_sharded(db, remote_dbs, adult_rows("codes")[:300], "int", "fl")
    db.execute("CREATE FOREIGN DATA WRAPPER not_postgres")
    db.execute("CREATE SERVER elsewhere FOREIGN DATA WRAPPER not_postgres")
    db.execute("CREATE FOREIGN TABLE adult_p9 PARTITION OF adult_sharded FOR VALUES FROM (100000) TO (200000) SERVER elsewhere")
    with pytest.raises(psycopg.Error) as info:
        train(db, "adult_sharded", "sharded", False)
    assert info.value.diag.sqlstate == "0A000"
    assert "adult_p9" in info.value.diag.message_primary and "not_postgres" in info.value.diag.message_primary
    assert no_outputs(db)


def test_a_private_release_of_a_sharded_table_is_refused_with_the_owners_way(db: psycopg.Connection[Any], remote_dbs: list[RemoteDb]) -> None:
    build_sharded(db, remote_dbs, adult_rows("codes")[:300], "int", "fl")
    with pytest.raises(psycopg.Error) as info:
        db.execute("SELECT madnb.create_nb_statistics('adult_sharded', 'label', 'attrs', 8, 'st', epsilon => 1, domain => 'observed')")
    assert info.value.diag.sqlstate == "0A000"
    assert "create_nb_statistics" in (info.value.diag.message_hint or "")
    (ledger,) = db.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone()
    assert ledger == 0 and db.execute("SELECT to_regclass('st')").fetchone() == (None,)


def test_create_nb_statistics_of_a_sharded_table_merges_like_separate_parts(db: psycopg.Connection[Any], remote_dbs: list[RemoteDb]) -> None:
    build_sharded(db, remote_dbs, adult_rows("gaussian"), "float8", "ffl")
    db.execute("SELECT madnb.create_nb_statistics('adult_sharded', 'label', 'attrs', '{1,2,3,4,5,6}', 14, 'st_sharded')")
    db.execute("SELECT madnb.create_nb_statistics('adult', 'label', 'attrs', '{1,2,3,4,5,6}', 14, 'st_local')")
    q = "SELECT cls, attr, value, n, nv, mean, var FROM {} ORDER BY cls, attr, value"
    a = db.execute(sql.SQL(q).format(sql.Identifier("st_local"))).fetchall()
    b = db.execute(sql.SQL(q).format(sql.Identifier("st_sharded"))).fetchall()
    assert [r[:5] for r in a] == [r[:5] for r in b]
    for x, y in zip(a, b):
        for u, v in zip(x[5:], y[5:]):
            assert (u is None and v is None) or abs(u - v) <= 1e-9 * abs(u)

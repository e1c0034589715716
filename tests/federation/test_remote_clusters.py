"""The multi-server fixture: remote clusters linked to the coordinator with PostgreSQL's own machinery."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from remote import RemoteDb, link_server


def _shard_table(r: RemoteDb, rows: list[tuple[int, str]]) -> None:
    r.conn.execute("CREATE TABLE items (id int, label text)")
    with r.conn.cursor() as cur:
        cur.executemany("INSERT INTO items VALUES (%s, %s)", rows)


def test_three_remote_clusters_are_distinct_servers(remote_dbs: list[RemoteDb], db: psycopg.Connection[Any]) -> None:
    ports = {r.port for r in remote_dbs} | {int(db.info.port)}
    assert len(remote_dbs) == 3 and len(ports) == 4
    for r in remote_dbs:
        assert r.conn.execute("SELECT current_database()").fetchone() == (r.dbname,)


def test_a_superuser_mapping_reads_a_remote_table_through_postgres_fdw(remote_dbs: list[RemoteDb], db: psycopg.Connection[Any]) -> None:
    _shard_table(remote_dbs[0], [(1, "a"), (2, "b")])
    link_server(db, remote_dbs[0], "shard_a")
    db.execute("CREATE FOREIGN TABLE items (id int, label text) SERVER shard_a OPTIONS (table_name 'items')")
    assert db.execute("SELECT id, label FROM items ORDER BY id").fetchall() == [(1, "a"), (2, "b")]


def test_a_non_superuser_mapping_connects_with_its_password(remote_dbs: list[RemoteDb], db: psycopg.Connection[Any]) -> None:
    r = remote_dbs[1]
    _shard_table(r, [(7, "x")])
    role, password = r.login_role()
    r.conn.execute(f'GRANT SELECT ON items TO "{role}"')
    db.execute("CREATE ROLE local_reader LOGIN")
    link_server(db, r, "shard_b", for_role="local_reader", remote_user=role, password=password, extensions=("postgres_fdw", "dblink"))
    db.execute("CREATE FOREIGN TABLE items (id int, label text) SERVER shard_b OPTIONS (table_name 'items')")
    db.execute("GRANT SELECT ON items TO local_reader")
    db.execute("GRANT USAGE ON FOREIGN SERVER shard_b TO local_reader")
    db.execute("SET ROLE local_reader")
    try:
        assert db.execute("SELECT id, label FROM items").fetchall() == [(7, "x")]
        # dblink by server name uses the same mapping (and, for a non-superuser, demands the password)
        got = db.execute(
            "SELECT * FROM public.dblink('shard_b', 'SELECT count(*) FROM items') AS r(n int8)"
        ).fetchone()
        assert got == (1,)
    finally:
        db.execute("RESET ROLE")


def test_a_non_superuser_mapping_without_a_password_is_refused(remote_dbs: list[RemoteDb], db: psycopg.Connection[Any]) -> None:
    r = remote_dbs[2]
    _shard_table(r, [(1, "a")])
    role, _ = r.login_role()
    db.execute("CREATE ROLE local_nopw LOGIN")
    link_server(db, r, "shard_c", for_role="local_nopw", remote_user=role)
    db.execute("CREATE FOREIGN TABLE items (id int, label text) SERVER shard_c OPTIONS (table_name 'items')")
    db.execute("GRANT SELECT ON items TO local_nopw")
    db.execute("SET ROLE local_nopw")
    try:
        with pytest.raises(psycopg.Error) as info:
            db.execute("SELECT * FROM items")
        assert info.value.diag.sqlstate == "2F003"  # postgres_fdw: password is required
    finally:
        db.execute("RESET ROLE")

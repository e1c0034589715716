"""Several PostgreSQL servers for the multi-server tests (sharding, federation).

The ``remote_clusters`` fixture (tests/conftest.py) starts three throwaway
clusters with madnb's own :class:`madnb._cluster.LocalCluster`, once per test
session and only when a test asks for them; ``remote_dbs`` gives a test a fresh
database on each of them (dropped afterwards).  The session's main cluster (the
``db`` fixture's) plays the coordinator / aggregator.

Authentication on the remote clusters (their ``pg_hba.conf``):

* the superuser ``postgres`` connects without a password (``trust``), so tests
  set things up over :attr:`RemoteDb.conn` and a superuser's user mapping needs
  no password;
* every other role must give its password (``scram-sha-256``).  That is what
  postgres_fdw (``password_required``, the default) and dblink demand of a
  non-superuser's connection: a user mapping for a non-superuser gets a role
  made by :meth:`RemoteDb.login_role` and its password.

Usage::

    def test_x(db, remote_dbs):
        shard = remote_dbs[0]
        shard.conn.execute("CREATE TABLE t (...)")
        link_server(db, shard, "shard1")                 # superuser mapping
        db.execute("CREATE FOREIGN TABLE ... SERVER shard1 OPTIONS (table_name 't')")
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql

import madnb
from helpers import clusters_on_tmpfs
from madnb._cluster import LocalCluster

REMOTE_CLUSTERS = 3

# Preloaded so that a test can ask a shard which statements it ran and how many rows
# each returned (CREATE EXTENSION pg_stat_statements in the shard's database).
REMOTE_SETTINGS = {"shared_preload_libraries": "'pg_stat_statements'", "pg_stat_statements.track": "'all'"}

_HBA = """\
# madnb test cluster: the superuser without a password, every other role with one
local all all trust
host all postgres 127.0.0.1/32 trust
host all all 127.0.0.1/32 scram-sha-256
"""


def start_remote_cluster() -> LocalCluster:
    """A started LocalCluster with the remote pg_hba.conf above (caller stops it)."""
    with clusters_on_tmpfs():
        pg = LocalCluster(settings=dict(REMOTE_SETTINGS)).start()
    try:
        (pg.datadir / "pg_hba.conf").write_text(_HBA, encoding="utf-8")
        with psycopg.connect(pg.url, autocommit=True) as conn:
            conn.execute("SELECT pg_catalog.pg_reload_conf()")
    except BaseException:
        pg.stop()
        raise
    return pg


def start_remote_clusters(n: int = REMOTE_CLUSTERS) -> list[LocalCluster]:
    """``n`` started remote clusters (all stopped again if one fails to start)."""
    started: list[LocalCluster] = []
    try:
        for _ in range(n):
            started.append(start_remote_cluster())
    except BaseException:
        for pg in started:
            pg.stop()
        raise
    return started


@dataclass
class RemoteDb:
    """A fresh database on one remote cluster, with a superuser connection (autocommit)."""

    cluster: LocalCluster
    dbname: str
    conn: psycopg.Connection[Any] = field(repr=False)

    @property
    def host(self) -> str:
        return self.cluster.host

    @property
    def port(self) -> int:
        return self.cluster.port

    @property
    def url(self) -> str:
        """libpq URL of this database as the superuser."""
        return self.cluster.url_for(self.dbname)

    def install_madnb(self) -> None:
        """Install madnb into this database (owners that release private statistics need it)."""
        madnb.install(self.conn)

    def login_role(self, password: str | None = None, prefix: str = "r_") -> tuple[str, str]:
        """A new non-superuser login role on this cluster: (name, password).

        Roles are cluster-wide and live as long as the session's clusters; the
        name is unique.  Grant it what the test needs over :attr:`conn`.
        """
        name = prefix + secrets.token_hex(4)
        password = password or secrets.token_hex(12)
        self.conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(name), sql.Literal(password)))
        return name, password


def create_remote_db(cluster: LocalCluster) -> RemoteDb:
    name = "remote_" + secrets.token_hex(4)
    with psycopg.connect(cluster.url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return RemoteDb(cluster, name, psycopg.connect(cluster.url_for(name), autocommit=True))


def drop_remote_db(r: RemoteDb) -> None:
    r.conn.close()
    with psycopg.connect(r.cluster.url, autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(r.dbname)))


def remote_dbs_on(clusters: list[LocalCluster]) -> Iterator[list[RemoteDb]]:
    """A fresh database on each cluster; dropped when the generator is closed."""
    made: list[RemoteDb] = []
    try:
        for pg in clusters:
            made.append(create_remote_db(pg))
        yield made
    finally:
        for r in made:
            drop_remote_db(r)


def link_server(
    conn: psycopg.Connection[Any],
    remote: RemoteDb,
    server: str,
    *,
    for_role: str = "CURRENT_USER",
    remote_user: str = "postgres",
    password: str | None = None,
    extensions: tuple[str, ...] = ("postgres_fdw",),
    server_options: dict[str, str] | None = None,
) -> None:
    """On the coordinator ``conn`` (a superuser's): a postgres_fdw SERVER for ``remote`` and a USER MAPPING.

    Creates the ``extensions`` first (``postgres_fdw``; add ``dblink`` where the
    test needs it), if absent.  ``for_role``: the local role mapped (a role name,
    or ``CURRENT_USER`` / ``PUBLIC``); ``remote_user`` / ``password``: whom it
    connects as (a non-superuser's mapping needs a password, see the module
    docstring).  ``server_options`` are added to host, port and dbname.
    """
    for ext in extensions:
        conn.execute(sql.SQL("CREATE EXTENSION IF NOT EXISTS {}").format(sql.Identifier(ext)))
    opts = {"host": remote.host, "port": str(remote.port), "dbname": remote.dbname, **(server_options or {})}
    conn.execute(
        sql.SQL("CREATE SERVER {} FOREIGN DATA WRAPPER postgres_fdw OPTIONS ({})").format(
            sql.Identifier(server),
            sql.SQL(", ").join(sql.SQL("{} {}").format(sql.Identifier(k), sql.Literal(v)) for k, v in opts.items()),
        )
    )
    role = sql.SQL(for_role) if for_role in ("CURRENT_USER", "PUBLIC") else sql.Identifier(for_role)
    user_opts = {"user": remote_user, **({"password": password} if password is not None else {})}
    conn.execute(
        sql.SQL("CREATE USER MAPPING FOR {} SERVER {} OPTIONS ({})").format(
            role,
            sql.Identifier(server),
            sql.SQL(", ").join(sql.SQL("{} {}").format(sql.Identifier(k), sql.Literal(v)) for k, v in user_opts.items()),
        )
    )


__all__ = [
    "REMOTE_CLUSTERS",
    "RemoteDb",
    "create_remote_db",
    "drop_remote_db",
    "link_server",
    "remote_dbs_on",
    "start_remote_cluster",
    "start_remote_clusters",
]

"""Test fixtures: one throwaway PostgreSQL for the session, a fresh database per test.

The cluster is started by madnb's own helper (PostgreSQL refuses to run as root,
so as root it runs as the ``postgres`` OS user) and handed to pytest-postgresql's
``postgresql_noproc``; each test gets a new database cloned from a template in
which madnb is already installed.

Multi-server tests ask for ``remote_clusters`` (three more clusters, started once
per session and only when asked for) or ``remote_dbs`` (a fresh database on each);
the helpers that link them to the coordinator are in tests/remote.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pytest_postgresql import factories

import madnb
from madnb._cluster import LocalCluster
from remote import RemoteDb, remote_dbs_on, start_remote_clusters

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"

_cluster: LocalCluster | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _cluster
    _cluster = LocalCluster(settings={"track_functions": "'pl'"}).start()
    config.option.postgresql_host = _cluster.host
    config.option.postgresql_port = _cluster.port
    config.option.postgresql_user = _cluster.user
    config.option.postgresql_dbname = "madnb_tests"


def pytest_unconfigure(config: pytest.Config) -> None:
    if _cluster is not None:
        _cluster.stop()


def _install_madnb(host: str, port: int, user: str, dbname: str, password: str | None, **_: Any) -> None:
    with psycopg.connect(host=host, port=port, user=user, dbname=dbname, password=password, autocommit=True) as conn:
        madnb.install(conn)


postgresql_noproc = factories.postgresql_noproc(load=[_install_madnb])
postgresql = factories.postgresql("postgresql_noproc")


@pytest.fixture
def cluster() -> LocalCluster:
    """The session's throwaway cluster."""
    assert _cluster is not None
    return _cluster


@pytest.fixture
def db(postgresql: psycopg.Connection[Any]) -> Iterator[psycopg.Connection[Any]]:
    """A connection in autocommit mode to a fresh database with madnb installed."""
    postgresql.autocommit = True
    postgresql.execute("SET search_path = public, madnb")
    yield postgresql


@pytest.fixture
def empty_db(cluster: LocalCluster) -> Iterator[tuple[str, psycopg.Connection[Any]]]:
    """A fresh database without madnb: (url, autocommit connection)."""
    import secrets

    name = "empty_" + secrets.token_hex(4)
    with psycopg.connect(cluster.url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = cluster.url_for(name)
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            yield url, conn
    finally:
        with psycopg.connect(cluster.url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def remote_clusters() -> Iterator[list[LocalCluster]]:
    """Three more started clusters (localhost), for multi-server tests; stopped at the end of the session.

    Started once, and only if a test asks for them.  Their superuser ``postgres``
    needs no password, every other role does (see tests/remote.py).  Prefer
    ``remote_dbs`` (a fresh database on each) in a test.
    """
    clusters = start_remote_clusters()
    try:
        yield clusters
    finally:
        for pg in clusters:
            pg.stop()


@pytest.fixture
def remote_dbs(remote_clusters: list[LocalCluster]) -> Iterator[list[RemoteDb]]:
    """A fresh database on each remote cluster (superuser connection, autocommit), dropped after the test.

    Link one to the coordinator (the ``db`` fixture's connection) with
    ``remote.link_server(db, remote_dbs[i], "server_name")``; install madnb
    into one with ``remote_dbs[i].install_madnb()``.
    """
    yield from remote_dbs_on(remote_clusters)


def data_file(name: str) -> Path:
    """A dataset from ../shared/data (skips the test if the folder is absent)."""
    p = DATA / name
    if not p.exists():
        pytest.skip(f"dataset {p} not available")
    return p

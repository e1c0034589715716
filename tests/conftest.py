"""Test fixtures: one throwaway PostgreSQL for the session, a fresh database per test.

The tests are grouped by the pipeline's stages, one folder each (tests/unit,
tests/install, tests/release, ...; tests/README.md lists them).  The cluster is
started by madnb's own helper (PostgreSQL refuses to run as root, so as root it
runs as the ``postgres`` OS user) the first time a test asks for a fixture that
needs it (``cluster``, ``db``, ``empty_db``, ...), never before, so a run of
tests/unit starts no server.  It is handed to pytest-postgresql's
``postgresql_noproc``; each test gets a new database cloned from a template in
which madnb is already installed.

Multi-server tests ask for ``remote_clusters`` (three more clusters, started once
per session and only when asked for) or ``remote_dbs`` (a fresh database on each);
the helpers that link them to the coordinator are in tests/remote.py.

Markers (registered in pyproject.toml) are given here, by folder and by fixture:
``unit`` to every test under tests/unit (which must ask for no server fixture),
``server`` to every other test, and ``multi_server`` as well to a test that asks
for the remote clusters.  So ``pytest tests/unit`` (or ``-m unit``) needs no
PostgreSQL, and ``-m "not multi_server"`` leaves out the tests that start three
more clusters.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pytest_postgresql import factories
from pytest_postgresql.executors import NoopExecutor

import madnb
from helpers import clusters_on_tmpfs
from madnb._cluster import LocalCluster
from remote import RemoteDb, remote_dbs_on, start_remote_clusters

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
UNIT = Path(__file__).resolve().parent / "unit"

# Fixtures whose set-up starts a PostgreSQL server: the session's cluster, the
# fixtures that reach it (pytest-postgresql's ``postgresql`` asks for its process
# fixture by name at run time, so it is named here too) and the remote clusters.
SERVER_FIXTURES = frozenset({
    "cluster", "postgresql_noproc", "madnb_template", "postgresql", "postgresql_async", "postgresql_proc",
    "remote_clusters",
})
MULTI_SERVER_FIXTURES = frozenset({"remote_clusters"})


def _shared_fixture_group(item: pytest.Item) -> str | None:
    """The test's file, if the test uses a fixture wider than a test that a test file defines: its xdist group.

    Such a fixture (a wheel built, a corpus downloaded, a dataset's model) is set up
    once per session and file, so that file's tests should run on one worker.
    The session's own fixtures (this file's) are set up by each worker anyway.
    """
    info = getattr(item, "_fixtureinfo", None)
    for fixturedefs in getattr(info, "name2fixturedefs", {}).values():
        for d in fixturedefs:
            if d.scope != "function" and d.baseid.split("::", 1)[0].endswith(".py"):
                return item.nodeid.split("::", 1)[0]
    return None


# tryfirst: before pytest-xdist's own hook reads the ``xdist_group`` marks given here.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test ``unit``, ``server`` and ``multi_server`` (see the module's docstring).

    Under pytest-xdist (``make test`` runs ``-n auto --dist loadgroup``) each worker
    is its own session with its own cluster; a test is also given an ``xdist_group``
    so that what a session sets up once is set up by one worker only: every
    multi-server test goes to one worker (one set of remote clusters, not one per
    worker), and the tests of a file that share a fixture of module or session
    scope defined in that file go to one worker together.
    """
    grouped = config.pluginmanager.hasplugin("xdist")
    misplaced = []
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        group = _shared_fixture_group(item) if grouped else None
        if UNIT in item.path.resolve().parents:
            if fixtures & SERVER_FIXTURES:
                misplaced.append(f"{item.nodeid} (asks for {', '.join(sorted(fixtures & SERVER_FIXTURES))})")
            item.add_marker(pytest.mark.unit)
        else:
            item.add_marker(pytest.mark.server)
            if fixtures & MULTI_SERVER_FIXTURES:
                item.add_marker(pytest.mark.multi_server)
                group = "remote_clusters" if grouped else None
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    if misplaced:
        raise pytest.UsageError(
            "tests under tests/unit must need no server; move these to the folder of their stage: " + "; ".join(misplaced)
        )


@pytest.fixture(scope="session")
def cluster(pytestconfig: pytest.Config) -> Iterator[LocalCluster]:
    """The session's throwaway cluster: started by the first test that needs it, stopped at the end."""
    with clusters_on_tmpfs():
        started = LocalCluster(settings={"track_functions": "'pl'"}).start()
    pytestconfig.option.postgresql_host = started.host
    pytestconfig.option.postgresql_port = started.port
    pytestconfig.option.postgresql_user = started.user
    pytestconfig.option.postgresql_dbname = "madnb_tests"
    try:
        yield started
    finally:
        started.stop()


def _install_madnb(host: str, port: int, user: str, dbname: str, password: str | None, **_: Any) -> None:
    with psycopg.connect(host=host, port=port, user=user, dbname=dbname, password=password, autocommit=True) as conn:
        madnb.install(conn)


# The template database with madnb installed; it reads the cluster's address from
# the options ``cluster`` sets, so ``postgresql_noproc`` below starts the cluster first.
madnb_template = factories.postgresql_noproc(load=[_install_madnb])


@pytest.fixture(scope="session")
def postgresql_noproc(cluster: LocalCluster, request: pytest.FixtureRequest) -> NoopExecutor:
    """pytest-postgresql's handle on the session's cluster and its madnb template (after the cluster starts)."""
    executor: NoopExecutor = request.getfixturevalue("madnb_template")
    return executor


postgresql = factories.postgresql("postgresql_noproc")


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

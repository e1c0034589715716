"""Small helpers shared by the tests."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from madnb._cluster import LocalCluster


def sqlstate_of(conn: psycopg.Connection[Any], query: str, params: Any = None) -> psycopg.Error:
    """Run ``query`` expecting a database error; return it."""
    with pytest.raises(psycopg.Error) as info:
        conn.execute(query, params)
    return info.value


def relations(conn: psycopg.Connection[Any], schema: str = "public") -> set[str]:
    rows = conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relkind IN ('r','v','m')",
        (schema,),
    ).fetchall()
    return {r[0] for r in rows}


MANUAL_TRAINING = """
CREATE TABLE training (id int, class int, attributes int[]);
INSERT INTO training VALUES (1,1,'{1,2,3}'), (2,1,'{1,2,1}'), (3,1,'{1,4,3}'),
                            (4,2,'{1,2,2}'), (5,2,'{0,2,2}'), (6,2,'{0,1,3}');
CREATE TABLE toclassify (id int, attributes int[]);
INSERT INTO toclassify VALUES (1,'{0,2,1}'), (2,'{1,2,3}');
"""

MANUAL_GAUSSIAN = """
CREATE TABLE gaussian_data (id int, sex int, attributes float8[]);
INSERT INTO gaussian_data VALUES (1,1,'{6,180,12}'), (2,1,'{5.92,190,12}'), (3,1,'{5.58,170,11}'),
    (4,1,'{5.92,165,11}'), (5,2,'{5,100,6}'), (6,2,'{5.5,150,6}'), (7,2,'{5.42,130,7}'), (8,2,'{5.75,150,8}');
CREATE TABLE gaussian_test (id int, sex int, attributes float8[]);
INSERT INTO gaussian_test VALUES (9,1,'{5.8,180,11}'), (10,2,'{5,160,6}');
"""


# What madnb sends to the server: every statement text its PL/Python code hands to
# plpy.execute / plpy.cursor (a prepared plan's text each time the plan is run), in
# the order issued, utility statements (CREATE VIEW, COMMENT ON, DROP) included,
# which auto_explain does not see.  It wraps the PL/Python interface of the session
# (the ``plpy`` module every PL/Python function shares), not any madnb_pl function,
# so it reads the same however madnb_pl is organised.
_RECORD_PLPY = r"""
import plpy
if not hasattr(plpy, '_madnb_test_log'):
    log = []
    state = {'on': False}
    orig = {'execute': plpy.execute, 'prepare': plpy.prepare, 'cursor': plpy.cursor}

    class _Plan:
        def __init__(self, plan, query):
            self._plan, self._query = plan, query

        def execute(self, *a, **k):
            if state['on']:
                log.append(self._query)
            return self._plan.execute(*a, **k)

        def cursor(self, *a, **k):
            if state['on']:
                log.append(self._query)
            return self._plan.cursor(*a, **k)

        def __getattr__(self, name):
            return getattr(self._plan, name)

    def _unwrap(q):
        if isinstance(q, _Plan):
            if state['on']:
                log.append(q._query)
            return q._plan
        if state['on']:
            log.append(q)
        return q

    def execute(q, *a, **k):
        return orig['execute'](_unwrap(q), *a, **k)

    def cursor(q, *a, **k):
        return orig['cursor'](_unwrap(q), *a, **k)

    def prepare(q, *a, **k):
        return _Plan(orig['prepare'](q, *a, **k), q)

    plpy.execute, plpy.cursor, plpy.prepare = execute, cursor, prepare
    plpy._madnb_test_log, plpy._madnb_test_state = log, state
plpy._madnb_test_state['on'] = __ON__
"""


def statements_sent(conn: psycopg.Connection[Any], action: Any) -> list[str]:
    """The text of every statement madnb's PL/Python code sends during ``action()``, in order."""
    conn.execute("SELECT madnb._load_python()")  # loading happens before, not inside, what is recorded
    conn.execute("DO $$" + _RECORD_PLPY.replace("__ON__", "True") + "$$ LANGUAGE plpython3u")
    try:
        action()
    finally:
        conn.execute("DO $$" + _RECORD_PLPY.replace("__ON__", "False") + "$$ LANGUAGE plpython3u")
    conn.execute(
        "CREATE OR REPLACE FUNCTION pg_temp.madnb_test_statements() RETURNS text[] LANGUAGE plpython3u AS "
        "$$\nimport plpy\ntexts = list(plpy._madnb_test_log)\ndel plpy._madnb_test_log[:]\nreturn texts\n$$"
    )
    (texts,) = conn.execute("SELECT pg_temp.madnb_test_statements()").fetchone()
    return list(texts)


# ---- roles: log in as a new role, drop roles and what they own ------------------------------


def connect_as(db: psycopg.Connection[Any], role: str, autocommit: bool = True) -> psycopg.Connection[Any]:
    info = db.info
    conn = psycopg.connect(host=info.host, port=info.port, dbname=info.dbname, user=role, autocommit=autocommit)
    conn.execute("SET search_path = public, madnb")
    return conn


def new_role(db: psycopg.Connection[Any], prefix: str) -> str:
    name = f"{prefix}_{secrets.token_hex(3)}"
    db.execute(f'CREATE ROLE "{name}" LOGIN')
    return name


def drop_roles(db: psycopg.Connection[Any], roles: list[str]) -> None:
    for r in roles:
        db.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s AND pid <> pg_backend_pid()", (r,)
        )
        db.execute(f'DROP OWNED BY "{r}"')
        db.execute(f'DROP ROLE "{r}"')


# ---- the command line and extension files ---------------------------------------------------


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "madnb.cli", *args], capture_output=True, text=True, timeout=300, env=env)


def extension_dir(cluster: LocalCluster) -> Path:
    """Where the test cluster looks for extension files first: its private ``extension_destdir``.

    Never the system's extension directory, which the tests leave untouched.
    Skips where the server has no such setting.
    """
    d = cluster.extension_dir
    if d is None:
        pytest.skip("the server has no extension_destdir setting (Debian's packages do): "
                    "extension tests never write into the system's extension directory")
    return d


# ---- where the tests' clusters keep their files ------------------------------------------------

# Every test creates a database from the template (some 300 files) and drops it again.  On
# ext4 each new file's inode is found by skipping the inodes deleted in the last minutes, so
# that CREATE plus DROP DATABASE cost ~0.3 s of system time per test, and more as the run went
# on; on tmpfs they cost ~0.03 s.  So the tests' clusters live on /dev/shm where it has room.
TMPFS = Path("/dev/shm")
TMPFS_ROOM = 4 << 30  # bytes free that /dev/shm needs for the clusters to go there


def cluster_parent() -> str | None:
    """The folder for the tests' clusters: /dev/shm when it is a writable tmpfs with room and TMPDIR is not set, else None (the default)."""
    if "TMPDIR" in os.environ or not (TMPFS.is_dir() and os.access(TMPFS, os.W_OK | os.X_OK)):
        return None
    st = os.statvfs(TMPFS)
    return str(TMPFS) if st.f_bavail * st.f_frsize >= TMPFS_ROOM else None


@contextmanager
def clusters_on_tmpfs() -> Iterator[None]:
    """A :class:`LocalCluster` started inside this block keeps its folder under :func:`cluster_parent`.

    LocalCluster makes its folder with ``tempfile.mkdtemp``; only the start is inside the block,
    so the tests' own temporary files (``tmp_path``) stay where they were.
    """
    before = tempfile.tempdir
    tempfile.tempdir = cluster_parent() or before
    try:
        yield
    finally:
        tempfile.tempdir = before

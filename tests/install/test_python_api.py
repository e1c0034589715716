"""The Python API over every kind of connection, and what a new user meets first.

install, upgrade and uninstall through a URL, psycopg connections (autocommit or
not, inside a caller's transaction or not), a SQLAlchemy engine and a SQLAlchemy
connection: what madnb did is committed when madnb began the transaction, and is
left to the caller's COMMIT or ROLLBACK when the caller had one open.  Then the
command line's first impressions (nothing to upgrade, nothing to uninstall,
the psql script; its help is in tests/unit/test_cli.py), the demo against a
user's database and the README's psql session, run in psql.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import subprocess
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import sqlalchemy
from test_install import OLD_SCRIPT, catalog, install_extension_files

import madnb
from conftest import ROOT
from helpers import run_cli
from madnb._install import InstallError
from psql_session import psql, same_output, split_session


@pytest.fixture
def url(cluster) -> Iterator[str]:
    """A fresh database without madnb, as a URL (no connection kept open)."""
    name = "api_" + secrets.token_hex(4)
    with psycopg.connect(cluster.url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield cluster.url_for(name)
    finally:
        with psycopg.connect(cluster.url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def installed(url: str) -> str | None:
    """The madnb version a new connection sees (so only committed work counts)."""
    with psycopg.connect(url, autocommit=True) as conn:
        return madnb.version(conn).installed


def committed_schema(url: str) -> bool:
    """Whether another session sees schema madnb (a catalog read: never waits on the caller's locks)."""
    with psycopg.connect(url, autocommit=True) as conn:
        return bool(conn.execute("SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = 'madnb'").fetchone()[0])


def sqlalchemy_url(url: str) -> str:
    return url.replace("postgresql://", "postgresql+psycopg://")


@contextlib.contextmanager
def target(kind: str, url: str) -> Iterator[Any]:
    """A target of the given kind, closed afterwards without any COMMIT by the caller."""
    if kind == "url":
        yield url
    elif kind == "psycopg autocommit":
        conn = psycopg.connect(url, autocommit=True)
        try:
            yield conn
        finally:
            conn.close()
    elif kind == "psycopg non-autocommit":
        conn = psycopg.connect(url)
        try:
            yield conn
        finally:
            conn.close()  # close() never commits
    elif kind == "sqlalchemy engine":
        engine = sqlalchemy.create_engine(sqlalchemy_url(url))
        try:
            yield engine
        finally:
            engine.dispose()
    elif kind == "sqlalchemy connection":
        engine = sqlalchemy.create_engine(sqlalchemy_url(url))
        try:
            with engine.connect() as sa_conn:  # closing rolls back what was not committed
                yield sa_conn
        finally:
            engine.dispose()
    else:  # pragma: no cover
        raise ValueError(kind)


KINDS = ["url", "psycopg autocommit", "psycopg non-autocommit", "sqlalchemy engine", "sqlalchemy connection"]


@pytest.mark.parametrize("kind", KINDS)
def test_install_upgrade_and_uninstall_are_committed_through_every_kind_of_connection(url, kind):
    with target(kind, url) as t:
        assert madnb.install(t).installed == madnb.__version__
    assert installed(url) == madnb.__version__

    with target(kind, url) as t:
        madnb.uninstall(t)
    assert installed(url) is None

    madnb.install(url, script=OLD_SCRIPT.read_text())
    assert installed(url) == "0.0.1"
    with target(kind, url) as t:
        before, now = madnb.upgrade(t)
        assert (before, now.installed) == ("0.0.1", madnb.__version__)
    assert installed(url) == madnb.__version__


def test_inside_a_psycopg_transaction_madnb_is_committed_by_the_callers_commit(url):
    with psycopg.connect(url, autocommit=True) as conn:
        with conn.transaction():
            madnb.install(conn)
            assert madnb.version(conn).installed == madnb.__version__
            assert not committed_schema(url)  # not committed yet: the caller's transaction decides
        assert installed(url) == madnb.__version__
        with conn.transaction():
            madnb.uninstall(conn)
            assert committed_schema(url)
        assert installed(url) is None


def test_a_rolled_back_psycopg_transaction_leaves_no_madnb_behind(url):
    with psycopg.connect(url, autocommit=True) as conn:
        with conn.transaction():
            madnb.install(conn)
            raise psycopg.Rollback()
        assert madnb.version(conn).installed is None
        assert conn.execute("SELECT pg_catalog.to_regnamespace('madnb')").fetchone()[0] is None


def test_a_non_autocommit_connection_already_in_a_transaction_leaves_the_commit_to_the_caller(url):
    with psycopg.connect(url) as conn:
        conn.execute("SELECT 1")  # psycopg has begun a transaction: the caller's
        madnb.install(conn)
        assert not committed_schema(url)
        conn.rollback()
        assert madnb.version(conn).installed is None
        conn.execute("SELECT 1")
        madnb.install(conn)
        conn.commit()
    assert installed(url) == madnb.__version__


def test_inside_a_sqlalchemy_transaction_madnb_follows_its_commit_or_rollback(url):
    engine = sqlalchemy.create_engine(sqlalchemy_url(url))
    try:
        with engine.connect() as conn:
            with conn.begin() as tx:
                madnb.install(conn)
                assert not committed_schema(url)
                tx.rollback()
            assert installed(url) is None
            with conn.begin():
                madnb.install(conn)
                assert madnb.version(conn).installed == madnb.__version__
            assert installed(url) == madnb.__version__
            conn.execute(sqlalchemy.text("SELECT 1"))  # SQLAlchemy's autobegin: the caller's transaction
            madnb.uninstall(conn)
            assert committed_schema(url)
            conn.rollback()
            assert installed(url) == madnb.__version__
    finally:
        engine.dispose()


def test_a_failed_transaction_is_refused_with_a_message_saying_to_roll_it_back(url):
    with psycopg.connect(url) as conn:
        with pytest.raises(psycopg.errors.DivisionByZero):
            conn.execute("SELECT 1/0")
        with pytest.raises(InstallError, match="roll"):
            madnb.install(conn)


# ---- the command line -------------------------------------------------------


def test_upgrading_an_up_to_date_database_says_so(url):
    madnb.install(url)
    out = run_cli("upgrade", "--dsn", url)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"madnb {madnb.__version__} is already up to date"


def test_upgrade_after_a_changed_build_of_the_same_version_says_it_reapplied(url):
    madnb.install(url)
    with psycopg.connect(url, autocommit=True) as conn:
        # a build of the same version whose sources differ
        conn.execute("CREATE OR REPLACE FUNCTION madnb._load_python() RETURNS void LANGUAGE sql AS $$ SELECT $$")
    out = run_cli("upgrade", "--dsn", url)
    assert out.returncode == 0, out.stderr
    assert "re-applied" in out.stdout
    out = run_cli("upgrade", "--dsn", url)
    assert "already up to date" in out.stdout


def test_uninstalling_from_a_database_without_madnb_says_so(url):
    out = run_cli("uninstall", "--dsn", url)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "madnb is not installed in this database: nothing to uninstall"


def test_database_url_is_not_read_as_a_fallback_for_dsn(url):
    import os

    env = {k: v for k, v in os.environ.items() if k != "MADNB_DSN"}
    env["DATABASE_URL"] = url
    out = run_cli("install", env=env)
    assert out.returncode != 0
    assert "no database given" in out.stderr
    assert installed(url) is None


def test_the_psql_script_applied_with_psql_gives_the_same_objects_as_madnb_install(cluster, url, tmp_path):
    script = tmp_path / "madnb-install.sql"
    out = run_cli("build-script", "--psql", "-o", str(script))
    assert out.returncode == 0, out.stderr
    assert not any(line.startswith("\\") for line in script.read_text().splitlines())  # plain SQL
    for _ in range(2):  # applying it again is harmless
        res = subprocess.run([psql(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", str(script)],
                             capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
    other = url + "_b"
    with psycopg.connect(cluster.url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{other.rsplit("/", 1)[1]}"')
    try:
        madnb.install(other)
        madnb.install(other)
        with psycopg.connect(url) as a, psycopg.connect(other) as b:
            assert catalog(a) == catalog(b)
            assert madnb.version(a) == madnb.version(b)
    finally:
        with psycopg.connect(cluster.url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{other.rsplit("/", 1)[1]}" WITH (FORCE)')


def test_the_psql_script_refuses_a_database_where_madnb_is_an_extension(url, cluster, tmp_path):
    install_extension_files(cluster)
    script = tmp_path / "madnb-install.sql"
    assert run_cli("build-script", "--psql", "-o", str(script)).returncode == 0
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION madnb CASCADE")
    res = subprocess.run([psql(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", str(script)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode != 0
    assert "ALTER EXTENSION madnb UPDATE" in res.stderr


# ---- the demo against a user's database --------------------------------------


def test_the_demo_on_a_users_database_stays_in_its_own_schema_and_runs_twice(url):
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE public.training (mine int)")  # a user's table with a demo name
    for _ in range(2):
        out = run_cli("demo", "--dsn", url)
        assert out.returncode == 0, out.stderr
        assert "schema madnb_demo" in out.stdout
        assert "accuracy on the test split" in out.stdout
        assert re.search(r"^demo finished in \d+\.\d s$", out.stdout, re.MULTILINE)
    with psycopg.connect(url, autocommit=True) as conn:
        public = conn.execute(
            "SELECT c.relname FROM pg_catalog.pg_class c WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1"
        ).fetchall()
        assert public == [("training",)]
        assert conn.execute("SELECT count(*) FROM madnb_demo.hv_predictions").fetchone()[0] > 0


def test_the_demo_does_not_drop_a_schema_named_madnb_demo_that_it_did_not_create(url):
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA madnb_demo")
        conn.execute("CREATE TABLE madnb_demo.precious (x int)")
    out = run_cli("demo", "--dsn", url)
    assert out.returncode == 1
    assert "madnb_demo" in out.stderr and "not created by" in out.stderr
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT pg_catalog.to_regclass('madnb_demo.precious') IS NOT NULL").fetchone()[0]


# ---- the README's psql session, run in psql -----------------------------------


def readme_psql_session() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## A psql session", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sql\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 1
    return blocks[0]


def test_the_readme_psql_session_runs_in_psql_and_shows_what_it_says(url, tmp_path):
    chunks = split_session(readme_psql_session())
    assert sum(1 for _, q in chunks if q) >= 6
    madnb.install(url)  # the README's `madnb install --dsn ...`
    marked = []
    for n, (stmt, _) in enumerate(chunks):
        marked.append(f"\\echo @@{n}@@\n{stmt}\n")
    path = tmp_path / "session.sql"
    path.write_text("".join(marked), encoding="utf-8")
    res = subprocess.run([psql(), "-X", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", str(path)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    outputs = re.split(r"^@@(\d+)@@\n", res.stdout, flags=re.MULTILINE)[1:]
    shown = {int(outputs[k]): outputs[k + 1].rstrip("\n").split("\n") for k in range(0, len(outputs), 2)}
    for n, (stmt, quoted) in enumerate(chunks):
        if quoted:
            got = [line.rstrip() for line in shown[n] if line.strip()]
            want = [line.rstrip() for line in quoted]
            assert same_output(got, want), f"{stmt}\npsql shows:\n" + "\n".join(got) + "\nREADME says:\n" + "\n".join(want)

"""madnb's schemas belong to the installing role alone (issue 17, A1).

A role that owns, or may create objects in, one of madnb's schemas can replace
madnb's functions or plant overloads, and its code then runs inside every
madnb call and prediction function, a superuser's included.  Both install paths
(``madnb install`` over a connection, ``CREATE EXTENSION``) and both upgrade paths
(``madnb upgrade``, ``ALTER EXTENSION madnb UPDATE``) refuse such a database with
42501, naming the schema and the role, and install nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from test_install import install_extension_files, new_database

import madnb
from madnb._build import SCHEMAS, build_script


@pytest.fixture
def fresh(cluster: Any) -> Iterator[tuple[str, psycopg.Connection[Any], str]]:
    """(url, superuser connection, role): a new database without madnb and a role that may create in it."""
    url = new_database(cluster, "squat_" + secrets.token_hex(3))
    role = "squatter_" + secrets.token_hex(3)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION plpython3u")
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
        conn.execute(f'GRANT CREATE ON DATABASE "{conn.info.dbname}" TO "{role}"')
        try:
            yield url, conn, role
        finally:
            conn.execute(f'DROP OWNED BY "{role}" CASCADE')
    with psycopg.connect(cluster.url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
        admin.execute(f'DROP ROLE "{role}"')


def as_role(url: str, role: str) -> psycopg.Connection[Any]:
    conn = psycopg.connect(url, autocommit=True)
    conn.execute(f'SET ROLE "{role}"')
    return conn


def installed(conn: psycopg.Connection[Any]) -> bool:
    """Whether any part of madnb is in the database (its catalog, its loader, the extension)."""
    row = conn.execute(
        "SELECT pg_catalog.to_regclass('madnb._migrations') IS NOT NULL OR pg_catalog.to_regclass('madnb.install_log') IS NOT NULL "
        "OR pg_catalog.to_regprocedure('madnb._load_python()') IS NOT NULL "
        "OR EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'madnb')"
    ).fetchone()
    assert row is not None
    return bool(row[0])


def install_by(path: str, url: str, conn: psycopg.Connection[Any]) -> None:
    if path == "script":
        madnb.install(url)
    else:
        conn.execute("CREATE EXTENSION madnb")


def refusal(path: str, url: str, conn: psycopg.Connection[Any]) -> psycopg.Error:
    with pytest.raises(psycopg.Error) as e:
        install_by(path, url, conn)
    return e.value


@pytest.fixture(params=["script", "extension"])
def path(request: pytest.FixtureRequest, cluster: Any) -> str:
    if request.param == "extension":
        install_extension_files(cluster)
    return str(request.param)


@pytest.mark.parametrize("schema", SCHEMAS)
def test_a_schema_created_by_another_role_before_installation_refuses_the_install(fresh, path, schema):
    url, conn, role = fresh
    with as_role(url, role) as squatter:
        squatter.execute(f"CREATE SCHEMA {schema}")
    err = refusal(path, url, conn)
    assert err.diag.sqlstate == "42501"
    assert err.diag.message_primary == (
        f'schema "{schema}" is owned by role "{role}", not by the role installing madnb ("postgres")'
    )
    assert f"ALTER SCHEMA {schema} OWNER TO postgres" in (err.diag.message_hint or "")
    assert not installed(conn)


@pytest.mark.parametrize("schema", SCHEMAS)
def test_a_madnb_schema_another_role_may_create_in_refuses_the_install(fresh, path, schema):
    url, conn, role = fresh
    conn.execute(f"CREATE SCHEMA {schema}")
    conn.execute(f'GRANT CREATE ON SCHEMA {schema} TO "{role}"')
    err = refusal(path, url, conn)
    assert err.diag.sqlstate == "42501"
    assert err.diag.message_primary == f'role "{role}" may create objects in schema "{schema}"'
    assert f'REVOKE CREATE ON SCHEMA {schema} FROM {role}' in (err.diag.message_hint or "")
    assert not installed(conn)


def test_create_through_membership_of_a_group_counts_as_create(fresh, path):
    url, conn, role = fresh
    group = role + "_group"
    conn.execute(f'CREATE ROLE "{group}"')
    try:
        conn.execute(f'GRANT "{group}" TO "{role}"')
        conn.execute("CREATE SCHEMA madnb_models")
        conn.execute(f'GRANT CREATE ON SCHEMA madnb_models TO "{group}"')
        err = refusal(path, url, conn)
        assert err.diag.sqlstate == "42501"
        assert "may create objects in schema \"madnb_models\"" in err.diag.message_primary
        assert not installed(conn)
    finally:
        conn.execute("DROP SCHEMA IF EXISTS madnb_models")
        conn.execute(f'DROP ROLE "{group}"')


def test_create_for_public_refuses_the_install(fresh, path):
    url, conn, _ = fresh
    conn.execute("CREATE SCHEMA madnb_privacy")
    conn.execute("GRANT CREATE ON SCHEMA madnb_privacy TO PUBLIC")
    err = refusal(path, url, conn)
    assert err.diag.sqlstate == "42501"
    assert err.diag.message_primary == 'every role may create objects in schema "madnb_privacy"'
    assert "REVOKE CREATE ON SCHEMA madnb_privacy FROM PUBLIC" in (err.diag.message_hint or "")
    assert not installed(conn)


def test_the_squatters_function_never_runs_for_a_superuser_because_nothing_is_installed(fresh, path):
    """The attack of the report: own schema madnb, then replace a helper the prediction functions call."""
    url, conn, role = fresh
    with as_role(url, role) as squatter:
        squatter.execute("CREATE SCHEMA madnb")
        squatter.execute("CREATE TABLE madnb.stolen (who text)")
        squatter.execute(
            "CREATE FUNCTION madnb._nb_best(float8[]) RETURNS int LANGUAGE sql AS "
            "$$ INSERT INTO madnb.stolen VALUES (current_user) RETURNING 1 $$"
        )
    refusal(path, url, conn)
    assert not installed(conn)
    assert conn.execute("SELECT count(*) FROM madnb.stolen").fetchone() == (0,)


def test_an_object_of_another_role_in_madnb_models_refuses_the_upgrade(fresh):
    url, conn, role = fresh
    madnb.install(url)
    conn.execute("CREATE FUNCTION madnb_models.victim_predict(r int) RETURNS text LANGUAGE sql AS $$ SELECT 'evil' $$")
    conn.execute(f'ALTER FUNCTION madnb_models.victim_predict(int) OWNER TO "{role}"')
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as e:
        madnb.install(url, script=build_script())
    assert e.value.diag.message_primary == 'schema "madnb_models" holds function madnb_models.victim_predict(integer) of another role'


def test_an_upgrade_refuses_a_schema_given_to_another_role_after_installation(fresh):
    url, conn, role = fresh
    madnb.install(url)
    conn.execute(f'ALTER SCHEMA madnb_privacy OWNER TO "{role}"')
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as e:
        madnb.install(url, script=build_script())
    assert e.value.diag.message_primary.startswith('schema "madnb_privacy" is owned by role')
    conn.execute("ALTER SCHEMA madnb_privacy OWNER TO postgres")


def test_alter_extension_update_refuses_create_granted_on_schema_madnb(fresh, cluster):
    url, conn, role = fresh
    install_extension_files(cluster)
    conn.execute("CREATE EXTENSION madnb VERSION '0.0.1'")
    conn.execute(f'GRANT CREATE ON SCHEMA madnb TO "{role}"')
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as e:
        conn.execute("ALTER EXTENSION madnb UPDATE")
    assert e.value.diag.message_primary == f'role "{role}" may create objects in schema "madnb"'
    assert conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'madnb'").fetchone() == ("0.0.1",)
    conn.execute(f'REVOKE CREATE ON SCHEMA madnb FROM "{role}"')
    conn.execute("ALTER EXTENSION madnb UPDATE")
    assert madnb.version(conn).installed == madnb.__version__


def test_an_upgrade_takes_back_the_create_that_grant_usage_gave_before(fresh):
    """Earlier builds' grant_usage gave CREATE on madnb_statistics: an upgrade revokes it, then installs."""
    url, conn, role = fresh
    madnb.install(url)
    conn.execute("SELECT madnb.grant_usage(%s)", (role,))
    conn.execute(f'GRANT CREATE ON SCHEMA madnb_statistics TO "{role}"')  # what the old grant_usage did
    notices: list[str] = []
    conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    madnb.install(conn, script=build_script())
    assert conn.execute("SELECT has_schema_privilege(%s, 'madnb_statistics', 'CREATE')", (role,)).fetchone() == (False,)
    assert conn.execute("SELECT has_schema_privilege(%s, 'madnb_statistics', 'USAGE')", (role,)).fetchone() == (True,)
    assert f"took back CREATE on schema madnb_statistics from role {role} (madnb.grant_usage no longer gives it)" in notices


def test_an_installation_by_the_schemas_owner_with_no_other_creator_goes_through(fresh, path):
    url, conn, _ = fresh
    for schema in SCHEMAS:
        conn.execute(f"CREATE SCHEMA {schema}")
        conn.execute(f"REVOKE ALL ON SCHEMA {schema} FROM PUBLIC")
    install_by(path, url, conn)
    assert madnb.version(conn).installed == madnb.__version__

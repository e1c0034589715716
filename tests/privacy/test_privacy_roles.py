"""Privacy state: who may write it, races, survival across dump/restore and uninstall.

A role given only ``madnb.grant_usage`` trains (exact and private) and creates
views, but every attempt to write the ledger, the budgets or the spent counters
directly fails with 42501; charges serialise per source; budgets are keyed by
name, so they survive pg_dump/pg_restore and `madnb uninstall`, and a new table
does not inherit a dropped one's budget.
"""

from __future__ import annotations

import secrets
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest

import madnb
from conftest import ROOT
from helpers import MANUAL_TRAINING, connect_as, drop_roles, extension_dir, new_role, sqlstate_of
from madnb._build import write_extension_files
from madnb._cluster import find_bindir
from madnb._install import InstallError

ROWS = [(1, 1, (1, 2, 3)), (2, 1, (1, 2, 1)), (3, 1, (1, 4, 3)), (4, 2, (1, 2, 2)), (5, 2, (0, 2, 2)), (6, 2, (0, 1, 3))]
"""The rows of helpers.MANUAL_TRAINING (id, class, attributes)."""

DOMAIN = """
CREATE TABLE manual_domain (attr int, value text);
INSERT INTO manual_domain VALUES (0, '1'), (0, '2'), (1, '0'), (1, '1'), (2, '1'), (2, '2'), (2, '4'),
    (3, '1'), (3, '2'), (3, '3');
"""
PRIVATE = (
    "SELECT madnb.create_nb_prepared_data_tables('public.training', 'class', 'attributes', 3, %s, %s, "
    "epsilon => %s, domain => 'public.manual_domain')"
)


def private(conn: psycopg.Connection[Any], epsilon: float, out: str | None = None) -> None:
    out = out or "m" + secrets.token_hex(3)
    conn.execute(PRIVATE, (f"{out}_fp", f"{out}_cp", epsilon))


def status(conn: psycopg.Connection[Any], source: str = "public.training") -> tuple[Any, ...] | None:
    return conn.execute(
        "SELECT total_epsilon, spent_epsilon, remaining_epsilon, releases, unrecorded_epsilon "
        "FROM madnb.privacy_budget_status WHERE source_name = %s",
        (source,),
    ).fetchone()


def counter(conn: psycopg.Connection[Any], schema: str = "public", table: str = "training") -> str:
    """The schema-qualified, quoted name of a source's spent counter."""
    name = conn.execute("SELECT madnb._privacy_counter(%s, %s)", (schema, table)).fetchone()[0]
    return f'madnb_privacy."{name}"'


@pytest.fixture
def manual(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    db.execute(MANUAL_TRAINING)
    db.execute(DOMAIN)
    return db


@pytest.fixture
def alice(manual: psycopg.Connection[Any]) -> Iterator[tuple[str, psycopg.Connection[Any]]]:
    """A plain LOGIN role with only grant_usage, SELECT on its data and a schema to write into."""
    role = new_role(manual, "alice")
    manual.execute("SELECT madnb.grant_usage(%s)", (role,))
    manual.execute(f'GRANT SELECT ON training, toclassify, manual_domain TO "{role}"')
    manual.execute("CREATE SCHEMA work")
    manual.execute(f'GRANT USAGE, CREATE ON SCHEMA work TO "{role}"')
    conn = connect_as(manual, role)
    conn.execute("SET search_path = work, public, madnb")
    try:
        yield role, conn
    finally:
        conn.close()
        drop_roles(manual, [role])


@pytest.fixture
def extension_files(cluster) -> Path:
    """madnb.control and the generated scripts where the server looks (as in test_install)."""
    d = extension_dir(cluster)
    shutil.copy(ROOT / "madnb.control", d / "madnb.control")
    write_extension_files(d)
    return d


# ---------------------------------------------------------------------------
# A2: roles
# ---------------------------------------------------------------------------


def test_a_role_with_only_grant_usage_trains_exactly_and_creates_views(alice):
    role, conn = alice
    conn.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    classes = Counter(c for _, c, _ in ROWS)
    assert conn.execute("SELECT class, class_cnt, all_cnt FROM work.cp ORDER BY 1").fetchall() == [
        (c, n, len(ROWS)) for c, n in sorted(classes.items())
    ]
    cells = Counter((c, i + 1, v) for _, c, a in ROWS for i, v in enumerate(a))
    got = conn.execute("SELECT class, attr, value, cnt FROM work.fp WHERE cnt > 0").fetchall()
    assert sorted(got) == sorted((c, i, v, n) for (c, i, v), n in cells.items())
    conn.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'cv')")
    conn.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'pv')")
    assert conn.execute("SELECT count(*) FROM work.cv").fetchone()[0] == 2
    sums = conn.execute("SELECT key, sum(nb_prob) FROM work.pv GROUP BY key ORDER BY key").fetchall()
    assert [k for k, _ in sums] == [1, 2] and all(s == pytest.approx(1) for _, s in sums)


MADNB_SCHEMAS = ("madnb", "madnb_models", "madnb_privacy", "madnb_statistics")


def test_grant_usage_gives_no_role_create_on_any_madnb_schema(alice):
    role, conn = alice
    for schema in MADNB_SCHEMAS:
        assert conn.execute("SELECT has_schema_privilege(%s, 'CREATE')", (schema,)).fetchone() == (False,), schema


def test_a_granted_role_keeps_its_statistics_in_a_table_it_owns_but_cannot_create_there(alice, manual):
    role, conn = alice
    conn.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    kept = manual.execute(
        "SELECT c.oid::regclass::text, pg_get_userbyid(c.relowner) FROM pg_class AS c "
        "WHERE c.relnamespace = 'madnb_statistics'::regnamespace AND c.relname = 'work.fp'"
    ).fetchall()
    assert kept == [('madnb_statistics."work.fp"', role)]
    err = sqlstate_of(conn, 'CREATE VIEW madnb_statistics.spy AS SELECT * FROM madnb_statistics."work.fp"')
    assert err.diag.sqlstate == "42501"
    # the role's own statistics go with its model, and an update adds to them
    conn.execute("SELECT madnb.create_nb_statistics('training', 'class', 'attributes', 3, 'more')")
    conn.execute("SELECT madnb.update_nb_model('more', 'fp', NULL, 'cp')")
    assert conn.execute("SELECT sum(class_cnt) FROM work.cp").fetchone() == (2 * len(ROWS),)


def test_a_role_cannot_have_madnb_create_a_kept_table_for_another_role(alice, manual):
    role, conn = alice
    other = new_role(manual, "carol")
    try:
        conn.execute("CREATE TEMPORARY TABLE t (cls int, attr int, value text, n numeric, nv bigint, mean float8, "
                     "mean_lo float8, var float8, s1 numeric, s2 numeric)")
        err = sqlstate_of(conn, "SELECT madnb._create_kept_statistics('x', 'pg_temp.t', %s)", (other,))
        assert err.diag.sqlstate == "42501"
        err = sqlstate_of(conn, "SELECT madnb._create_kept_statistics('x', 'madnb._models', %s)", (role,))
        assert err.diag.sqlstate == "42809"
        assert manual.execute("SELECT to_regclass('madnb_statistics.x')").fetchone() == (None,)
    finally:
        drop_roles(manual, [other])


def test_a_granted_role_cannot_block_the_owners_drop_with_a_view_in_a_madnb_schema(alice, manual):
    role, conn = alice
    manual.execute("CREATE TABLE votes AS SELECT id, class AS label, attributes[1] AS a, attributes[2] AS b FROM training")
    manual.execute("SELECT madnb.train('owned', 'votes', 'label', exclude => ARRAY['id'])")
    for schema in MADNB_SCHEMAS:
        err = sqlstate_of(conn, f"CREATE VIEW {schema}.blocker AS SELECT 1 AS x")
        assert err.diag.sqlstate == "42501", schema
    manual.execute("SELECT madnb.train('owned', 'votes', 'label', exclude => ARRAY['id'], replace => true)")
    manual.execute("SELECT madnb.drop_model('owned')")
    assert manual.execute("SELECT count(*) FROM madnb.models WHERE name = 'owned'").fetchone() == (0,)


def test_grant_usage_is_enough_even_where_public_may_not_create_temporary_tables(manual):
    manual.execute(f'REVOKE TEMPORARY ON DATABASE "{manual.info.dbname}" FROM PUBLIC')
    role = new_role(manual, "bob")
    try:
        manual.execute("SELECT madnb.grant_usage(%s)", (role,))
        manual.execute(f'GRANT SELECT ON training, manual_domain TO "{role}"')
        manual.execute(f'CREATE SCHEMA out AUTHORIZATION "{role}"')
        with connect_as(manual, role) as conn:
            private(conn, 0.5, "out.p")  # aggregates into temporary tables
            assert conn.execute("SELECT count(*) FROM out.p_cp").fetchone()[0] == 2
    finally:
        manual.execute(f'GRANT TEMPORARY ON DATABASE "{manual.info.dbname}" TO PUBLIC')
        drop_roles(manual, [role])


def test_a_role_with_only_grant_usage_trains_privately_and_the_ledger_names_it(alice, manual):
    role, conn = alice
    private(conn, 0.5, "p")
    assert conn.execute("SELECT count(*) FROM work.p_cp").fetchone()[0] == 2  # the domain's two classes
    assert conn.execute(
        "SELECT source_name, epsilon, released_by, mechanism FROM madnb.privacy_ledger"
    ).fetchall() == [("public.training", Decimal("0.5"), role, "discrete laplace (two-sided geometric)")]
    manual.execute("SELECT madnb.set_privacy_budget('training', 1)")
    assert status(conn) == (1, Decimal("0.5"), Decimal("0.5"), 1, 0)
    e = sqlstate_of(conn, PRIVATE, ("q_fp", "q_cp", 0.6))
    assert e.diag.sqlstate == "53400"


def cheats(conn: psycopg.Connection[Any], role: str) -> list[str]:
    seq = counter(conn)
    return [
        f"SELECT setval('{seq}', 0)",
        f"SELECT setval('{seq}', 1, false)",
        f"ALTER SEQUENCE {seq} RESTART",
        f"DROP SEQUENCE {seq}",
        "SELECT madnb.set_privacy_budget('training', 1000000)",
        "UPDATE madnb_privacy.budget SET total_epsilon = 1e6",
        "UPDATE madnb.privacy_budget SET total_epsilon = 1e6",
        "DELETE FROM madnb_privacy.budget",
        "DELETE FROM madnb.privacy_budget",
        "INSERT INTO madnb_privacy.budget (schema_name, table_name, total_epsilon) VALUES ('public', 'toclassify', 1)",
        "INSERT INTO madnb_privacy.ledger (schema_name, table_name, epsilon, mechanism, parameters, released_by) "
        "VALUES ('public', 'training', 1, 'x', '{}', 'bob')",
        "INSERT INTO madnb.privacy_ledger (schema_name, table_name, epsilon, mechanism, parameters, released_by) "
        "VALUES ('public', 'training', 1, 'x', '{}', 'bob')",
        "UPDATE madnb_privacy.ledger SET released_by = 'bob'",
        "UPDATE madnb.privacy_ledger SET epsilon = 0.001",
        "DELETE FROM madnb_privacy.ledger",
        "DELETE FROM madnb.privacy_ledger",
        "TRUNCATE madnb_privacy.ledger",
        "SELECT madnb._privacy_ensure_counter('public', 'training')",
        "SELECT madnb._privacy_lock_source('training')",
        f"SELECT madnb.grant_usage('{role}', true)",
        f"SELECT madnb.revoke_usage('{role}')",
        "ALTER TABLE madnb_privacy.budget RENAME TO b",
        "CREATE FUNCTION madnb.planted() RETURNS int LANGUAGE sql AS 'SELECT 1'",
        "CREATE TABLE madnb_privacy.planted (x int)",
    ]


def test_every_direct_write_to_privacy_state_by_a_plain_role_is_42501(alice, manual):
    role, conn = alice
    manual.execute("SELECT madnb.set_privacy_budget('training', 1)")
    private(conn, 0.5)
    before = (status(manual), manual.execute("SELECT * FROM madnb.privacy_ledger").fetchall())
    for statement in cheats(manual, role):
        e = sqlstate_of(conn, statement)
        assert e.diag.sqlstate == "42501", (statement, e)
    assert (status(manual), manual.execute("SELECT * FROM madnb.privacy_ledger").fetchall()) == before
    e = sqlstate_of(conn, PRIVATE, ("q_fp", "q_cp", 0.6))
    assert e.diag.sqlstate == "53400"


@pytest.mark.parametrize("epsilon", ["-1", "0", "'NaN'", "NULL"])
def test_the_charge_function_cannot_lower_what_a_source_has_spent(alice, manual, epsilon):
    role, conn = alice
    manual.execute("SELECT madnb.set_privacy_budget('training', 1)")
    private(conn, 0.5)
    e = sqlstate_of(conn, f"SELECT madnb.record_private_release('training', {epsilon}, '{{}}')")
    assert e.diag.sqlstate == "22023"
    assert status(manual) == (1, Decimal("0.5"), Decimal("0.5"), 1, 0)


def test_the_charge_function_refuses_a_source_the_session_user_cannot_read(alice, manual):
    role, conn = alice
    manual.execute("CREATE TABLE secret (c int, a int[])")
    manual.execute("SELECT madnb.set_privacy_budget('secret', 1)")
    e = sqlstate_of(conn, "SELECT madnb.record_private_release('public.secret', 1, '{}')")
    assert e.diag.sqlstate == "42501"
    assert status(manual, "public.secret") == (1, 0, 1, 0, 0)


def test_released_by_is_the_session_user_whatever_the_caller_does(alice, manual):
    role, conn = alice
    team = new_role(manual, "team")
    try:
        manual.execute(f'GRANT "{team}" TO "{role}"')
        manual.execute("SELECT madnb.grant_usage(%s)", (team,))
        manual.execute(f'GRANT SELECT ON training, manual_domain TO "{team}"')
        manual.execute(f'GRANT USAGE, CREATE ON SCHEMA work TO "{team}"')
        conn.execute(f'SET ROLE "{team}"')  # current_user is now the group role
        private(conn, 0.25)
        conn.execute(
            "SELECT madnb.record_private_release('training', 0.25, %s)",
            ('{"released_by": "bob", "mechanism": "none"}',),
        )
        conn.execute("RESET ROLE")
        rows = manual.execute("SELECT released_by, mechanism FROM madnb.privacy_ledger ORDER BY release_id").fetchall()
        assert rows == [(role, "discrete laplace (two-sided geometric)")] * 2
    finally:
        conn.execute("RESET ROLE")
        drop_roles(manual, [team])


def test_only_admin_roles_set_budgets(alice, manual):
    role, conn = alice
    admin = new_role(manual, "admin")
    try:
        manual.execute("SELECT madnb.grant_usage(%s, admin => true)", (admin,))
        e = sqlstate_of(conn, "SELECT madnb.set_privacy_budget('training', 5)")
        assert e.diag.sqlstate == "42501"
        with connect_as(manual, admin) as a:
            a.execute("SELECT madnb.set_privacy_budget('public.training', 0.4)")
        row = manual.execute("SELECT total_epsilon, set_by FROM madnb.privacy_budget").fetchone()
        assert row == (Decimal("0.4"), admin)
        e = sqlstate_of(conn, PRIVATE, ("q_fp", "q_cp", 0.5))
        assert e.diag.sqlstate == "53400"
        manual.execute("SELECT madnb.revoke_usage(%s)", (admin,))
        with connect_as(manual, admin) as a:
            e = sqlstate_of(a, "SELECT madnb.set_privacy_budget('public.training', 5)")
            assert e.diag.sqlstate == "42501"
    finally:
        drop_roles(manual, [admin])


def test_grant_usage_of_an_unknown_role_is_42704(db):
    e = sqlstate_of(db, "SELECT madnb.grant_usage('no_such_role_here')")
    assert e.diag.sqlstate == "42704"


# ---------------------------------------------------------------------------
# B6: races
# ---------------------------------------------------------------------------


def wait_until_blocked(watcher: psycopg.Connection[Any], pid: int) -> None:
    """Wait (bounded) until backend ``pid`` waits for a lock; fail if it never does."""
    for _ in range(600):
        row = watcher.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()
        if row and row[0] == "Lock":
            return
        time.sleep(0.05)
    pytest.fail(f"backend {pid} never waited for a lock")


def test_a_budget_set_while_a_release_is_in_flight_counts_that_release(cluster, manual):
    url = cluster.url_for(manual.info.dbname)
    with psycopg.connect(url) as a, psycopg.connect(url, autocommit=True) as b:
        a.execute("SET search_path = public, madnb")
        private(a, 0.8, "a")  # open transaction, no budget yet
        pid = b.info.backend_pid
        errors: list[BaseException] = []
        setter = threading.Thread(
            target=lambda: _run(b, "SELECT madnb.set_privacy_budget('training', 1.0)", errors)
        )
        setter.start()
        wait_until_blocked(manual, pid)  # set_privacy_budget waits for the release to end
        a.commit()
        setter.join()
        assert errors == []
    assert status(manual) == (Decimal("1.0"), Decimal("0.8"), Decimal("0.2"), 1, 0)
    e = sqlstate_of(manual, PRIVATE, ("b_fp", "b_cp", 0.8))
    assert e.diag.sqlstate == "53400"


def _run(conn: psycopg.Connection[Any], query: str, errors: list[BaseException]) -> None:
    try:
        conn.execute(query)
    except BaseException as e:  # reported by the test
        errors.append(e)


def test_a_budget_set_later_counts_a_release_whose_caller_rolled_back(cluster, manual):
    private(manual, 0.3)  # the source's first release: its spent counter now exists
    url = cluster.url_for(manual.info.dbname)
    with psycopg.connect(url) as tx:
        tx.execute("SET search_path = public, madnb")
        private(tx, 0.5, "rolled")
        tx.rollback()
    manual.execute("SELECT madnb.set_privacy_budget('training', 1)")
    assert status(manual) == (1, Decimal("0.8"), Decimal("0.2"), 1, Decimal("0.5"))
    e = sqlstate_of(manual, PRIVATE, ("c_fp", "c_cp", 0.3))
    assert e.diag.sqlstate == "53400"


# ---------------------------------------------------------------------------
# B7: stable identity, dump/restore, uninstall
# ---------------------------------------------------------------------------


def test_a_new_table_does_not_inherit_a_dropped_tables_budget(manual):
    manual.execute("CREATE TABLE old_source AS SELECT * FROM training")
    manual.execute("SELECT madnb.set_privacy_budget('old_source', 0.5)")
    manual.execute(PRIVATE.replace("public.training", "old_source"), ("o_fp", "o_cp", 0.5))
    manual.execute("DROP TABLE old_source")
    manual.execute("CREATE TABLE new_source AS SELECT * FROM training")
    manual.execute(PRIVATE.replace("public.training", "new_source"), ("n_fp", "n_cp", 2.0))
    assert status(manual, "public.new_source") is None
    assert status(manual, "public.old_source") == (Decimal("0.5"), Decimal("0.5"), 0, 1, 0)


def test_a_table_recreated_under_the_same_name_keeps_its_budget(manual):
    manual.execute("SELECT madnb.set_privacy_budget('training', 1)")
    private(manual, 0.8)
    manual.execute("CREATE TABLE copy AS SELECT * FROM training")
    manual.execute("DROP TABLE training")
    manual.execute("ALTER TABLE copy RENAME TO training")
    e = sqlstate_of(manual, PRIVATE, ("r_fp", "r_cp", 0.5))
    assert e.diag.sqlstate == "53400"
    assert manual.execute("SELECT source_oid = 'training'::regclass::oid FROM madnb.privacy_budget").fetchone()[0]


def pg_tool(name: str) -> str:
    try:
        return str(find_bindir() / name)
    except Exception:  # pragma: no cover - no server binaries
        pytest.skip(f"{name} is not available")


def new_database(cluster: Any, name: str) -> str:
    with psycopg.connect(cluster.url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    return cluster.url_for(name)


def test_budgets_and_the_ledger_survive_pg_dump_and_pg_restore(cluster, manual, tmp_path):
    manual.execute("SELECT madnb.set_privacy_budget('training', 2)")
    private(manual, 1.0)
    with psycopg.connect(cluster.url_for(manual.info.dbname)) as tx:  # a rolled-back charge counts too
        tx.execute("SET search_path = public, madnb")
        private(tx, 0.25, "rolled")
        tx.rollback()
    dump = tmp_path / "madnb.dump"
    src = cluster.url_for(manual.info.dbname)
    out = subprocess.run([pg_tool("pg_dump"), "-Fc", "-f", str(dump), src], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    target = new_database(cluster, "restored_" + secrets.token_hex(3))
    try:
        out = subprocess.run(
            [pg_tool("pg_restore"), "--exit-on-error", "-d", target, str(dump)], capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        with psycopg.connect(target, autocommit=True) as conn:
            conn.execute("SET search_path = public, madnb")
            assert status(conn) == (2, Decimal("1.25"), Decimal("0.75"), 1, Decimal("0.25"))
            e = sqlstate_of(conn, PRIVATE, ("x_fp", "x_cp", 1.5))
            assert e.diag.sqlstate == "53400"
            private(conn, 0.75)  # exactly what is left
            assert conn.execute("SELECT count(*), max(release_id) FROM madnb.privacy_ledger").fetchone() == (2, 3)
    finally:
        with psycopg.connect(cluster.url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{target.rsplit("/", 1)[1]}" WITH (FORCE)')


def test_uninstall_keeps_the_ledger_and_budgets_and_a_reinstall_still_refuses_an_exhausted_source(manual):
    manual.execute("SELECT madnb.set_privacy_budget('training', 1)")
    private(manual, 1.0)
    done = madnb.uninstall(manual)
    assert done.privacy_state_kept and (done.releases, done.budgets) == (1, 1)
    assert "kept the privacy ledger (1 release(s)), 1 budget(s)" in str(done)
    assert "madnb.uninstall(..., drop_privacy_state=True)" in str(done)  # from Python, Python's words
    assert madnb.version(manual).installed is None
    madnb.install(manual)
    e = sqlstate_of(manual, PRIVATE, ("y_fp", "y_cp", 0.1))
    assert e.diag.sqlstate == "53400"
    assert status(manual) == (1, 1, 0, 1, 0)

    done = madnb.uninstall(manual, drop_privacy_state=True)
    assert not done.privacy_state_kept and "dropped" in str(done)
    assert manual.execute("SELECT to_regnamespace('madnb_privacy')").fetchone()[0] is None
    madnb.install(manual)
    private(manual, 1.0)  # a fresh start, as asked
    assert manual.execute("SELECT count(*) FROM madnb.privacy_budget").fetchone()[0] == 0


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "madnb.cli", *args], capture_output=True, text=True, timeout=120)


def test_the_command_line_says_what_uninstall_kept_and_drops_it_only_when_asked(cluster, manual):
    url = cluster.url_for(manual.info.dbname)
    private(manual, 0.5)
    out = run_cli("uninstall", "--dsn", url)
    assert out.returncode == 0, out.stderr
    assert "kept the privacy ledger (1 release(s))" in out.stdout
    assert "`madnb uninstall --drop-privacy-ledger`" in out.stdout and "drop_privacy_state" not in out.stdout
    assert manual.execute("SELECT count(*) FROM madnb_privacy.ledger").fetchone()[0] == 1
    out = run_cli("install", "--dsn", url)
    assert out.returncode == 0, out.stderr
    out = run_cli("uninstall", "--dsn", url, "--drop-privacy-ledger")
    assert out.returncode == 0, out.stderr
    assert "dropped" in out.stdout
    assert manual.execute("SELECT to_regnamespace('madnb_privacy')").fetchone()[0] is None


def test_the_uninstall_refusal_names_the_dependent_views(manual):
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    manual.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'v1')")
    manual.execute("CREATE VIEW spending AS SELECT * FROM madnb.privacy_budget_status")
    with pytest.raises(InstallError) as info:
        madnb.uninstall(manual)
    assert "view public.spending, view public.v1:" in str(info.value)
    assert "rule" not in str(info.value)


def test_under_create_extension_the_privacy_state_survives_uninstall_and_pg_dump(cluster, extension_files, tmp_path):
    url = new_database(cluster, "ext_privacy")
    restored = new_database(cluster, "ext_privacy_restored")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION madnb CASCADE")
        conn.execute("SET search_path = public, madnb")
        conn.execute(MANUAL_TRAINING)
        conn.execute(DOMAIN)
        conn.execute("SELECT madnb.set_privacy_budget('training', 1)")
        private(conn, 0.75)
        done = madnb.uninstall(conn)
        assert done.privacy_state_kept and (done.releases, done.budgets) == (1, 1)
        conn.execute("CREATE EXTENSION madnb")  # adopts the state uninstall left behind
        assert status(conn) == (1, Decimal("0.75"), Decimal("0.25"), 1, 0)
        e = sqlstate_of(conn, PRIVATE, ("e_fp", "e_cp", 0.5))
        assert e.diag.sqlstate == "53400"
    dump = tmp_path / "ext.dump"
    out = subprocess.run([pg_tool("pg_dump"), "-Fc", "-f", str(dump), url], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    out = subprocess.run([pg_tool("pg_restore"), "--exit-on-error", "-d", restored, str(dump)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    with psycopg.connect(restored, autocommit=True) as conn:
        conn.execute("SET search_path = public, madnb")
        assert status(conn) == (1, Decimal("0.75"), Decimal("0.25"), 1, 0)
        e = sqlstate_of(conn, PRIVATE, ("e_fp", "e_cp", 0.5))
        assert e.diag.sqlstate == "53400"
        private(conn, 0.25)
        done = madnb.uninstall(conn, drop_privacy_state=True)
        assert not done.privacy_state_kept
        assert conn.execute("SELECT to_regnamespace('madnb_privacy')").fetchone()[0] is None


OID_KEYED_SCRIPT = ROOT / "tests" / "fixtures" / "madnb--0.1.0-privacy-by-oid.sql"


def test_upgrading_from_oid_keyed_privacy_state_keeps_every_release_budget_and_charge(cluster, empty_db):
    url, conn = empty_db
    madnb.install(conn, script=OID_KEYED_SCRIPT.read_text())
    conn.execute("SET search_path = public, madnb")
    conn.execute(MANUAL_TRAINING)
    conn.execute(DOMAIN)
    conn.execute("CREATE TABLE other AS SELECT * FROM training")
    conn.execute("CREATE TABLE gone AS SELECT * FROM training")
    conn.execute("SELECT madnb.set_privacy_budget('training', 1)")
    private(conn, 0.6)
    with psycopg.connect(url) as tx:  # rolled back: only the old spent sequence knows
        tx.execute("SET search_path = public, madnb")
        private(tx, 0.2, "rolled")
        tx.rollback()
    conn.execute(PRIVATE.replace("public.training", "other"), ("o_fp", "o_cp", 0.5))
    conn.execute(PRIVATE.replace("public.training", "gone"), ("g_fp", "g_cp", 0.25))
    conn.execute("DROP TABLE gone")
    with psycopg.connect(url) as tx:  # the last id is a gap
        tx.execute("SET search_path = public, madnb")
        tx.execute(PRIVATE.replace("public.training", "other"), ("gap_fp", "gap_cp", 0.01))  # no budget: not counted
        tx.rollback()
    ids = conn.execute("SELECT release_id, source_name FROM madnb.privacy_ledger ORDER BY 1").fetchall()

    before, now = madnb.upgrade(conn)
    assert now.installed == madnb.__version__
    assert conn.execute("SELECT release_id, source_name FROM madnb.privacy_ledger ORDER BY 1").fetchall() == ids
    assert status(conn) == (1, Decimal("0.8"), Decimal("0.2"), 1, Decimal("0.2"))
    e = sqlstate_of(conn, PRIVATE, ("x_fp", "x_cp", 0.3))
    assert e.diag.sqlstate == "53400"
    conn.execute("SELECT madnb.set_privacy_budget('other', 0.6)")
    assert status(conn, "public.other") == (Decimal("0.6"), Decimal("0.5"), Decimal("0.1"), 1, 0)
    private(conn, 0.2)  # exactly what is left of training's budget; ids continue after the old ones
    assert conn.execute("SELECT max(release_id) FROM madnb.privacy_ledger").fetchone()[0] == ids[-1][0] + 2
    assert conn.execute("SELECT to_regclass('madnb.privacy_spent_' || 'training'::regclass::oid) IS NULL").fetchone()[0]


def test_an_extension_updated_from_oid_keyed_state_keeps_its_charges_through_pg_dump(cluster, extension_files, tmp_path):
    old = "0.1.0-oid-keyed"
    files = [extension_files / f"madnb--{old}.sql", extension_files / f"madnb--{old}--{madnb.__version__}.sql"]
    files[0].write_text(OID_KEYED_SCRIPT.read_text())
    files[1].write_text(madnb.build_script())
    url = new_database(cluster, "ext_oid_keyed")
    restored = new_database(cluster, "ext_oid_keyed_restored")
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE EXTENSION madnb VERSION '{old}' CASCADE")
            conn.execute("SET search_path = public, madnb")
            conn.execute(MANUAL_TRAINING)
            conn.execute(DOMAIN)
            conn.execute("SELECT madnb.set_privacy_budget('training', 1)")
            private(conn, 0.5)
            with psycopg.connect(url) as tx:
                tx.execute("SET search_path = public, madnb")
                private(tx, 0.25, "rolled")
                tx.rollback()
            conn.execute("ALTER EXTENSION madnb UPDATE")
            assert status(conn) == (1, Decimal("0.75"), Decimal("0.25"), 1, Decimal("0.25"))
        dump = tmp_path / "ext.dump"
        out = subprocess.run([pg_tool("pg_dump"), "-Fc", "-f", str(dump), url], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        out = subprocess.run([pg_tool("pg_restore"), "--exit-on-error", "-d", restored, str(dump)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        with psycopg.connect(restored, autocommit=True) as conn:
            conn.execute("SET search_path = public, madnb")
            assert status(conn) == (1, Decimal("0.75"), Decimal("0.25"), 1, Decimal("0.25"))
            e = sqlstate_of(conn, PRIVATE, ("e_fp", "e_cp", 0.5))
            assert e.diag.sqlstate == "53400"
    finally:
        for f in files:
            f.unlink(missing_ok=True)


PRIVACY_CATALOG = """
SELECT 'relation ' || c.relname || ' kind=' || c.relkind::text || ' acl=' || coalesce(c.relacl::text, '')
       || ' comment=' || coalesce(obj_description(c.oid, 'pg_class'), '<none>')
FROM pg_class c WHERE c.relnamespace = 'madnb_privacy'::regnamespace
UNION ALL
SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
       || ' notnull=' || a.attnotnull || ' default=' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE c.relnamespace = 'madnb_privacy'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT 'schema acl=' || coalesce(n.nspacl::text, '') || ' comment=' || coalesce(obj_description(n.oid, 'pg_namespace'), '')
FROM pg_namespace n WHERE n.nspname = 'madnb_privacy'
ORDER BY 1
"""


def test_both_install_paths_create_the_same_privacy_state_and_grant_nothing_on_it(cluster, extension_files):
    listings = []
    for how in ("script", "extension"):
        url = new_database(cluster, f"privacy_{how}")
        with psycopg.connect(url, autocommit=True) as conn:
            if how == "script":
                madnb.install(conn)
            else:
                conn.execute("CREATE EXTENSION madnb CASCADE")
            listings.append([r[0] for r in conn.execute(PRIVACY_CATALOG).fetchall()])
            grantees = conn.execute(
                "SELECT count(*) FROM pg_class c, aclexplode(c.relacl) a "
                "WHERE c.relnamespace = 'madnb_privacy'::regnamespace AND a.grantee <> c.relowner"
            ).fetchone()[0]
            assert grantees == 0
    assert listings[0] == listings[1]
    assert any(line.startswith("column ledger.released_by name notnull=true default=SESSION_USER") for line in listings[0])

"""Installing madnb: over a connection and as an extension, upgrades, uninstall, CLI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
import sqlalchemy

import madnb
from conftest import ROOT
from helpers import extension_dir
from madnb._build import write_extension_files
from madnb._install import InstallError

OLD_SCRIPT = ROOT / "tests" / "fixtures" / "madnb--0.0.1.sql"

CATALOG = """
SELECT 'function ' || p.oid::regprocedure::text || ' -> ' || pg_get_function_result(p.oid)
       || ' kind=' || p.prokind::text || ' vol=' || p.provolatile::text || ' par=' || p.proparallel::text || ' strict=' || p.proisstrict
       || ' secdef=' || p.prosecdef || ' lang=' || l.lanname || ' config=' || coalesce(array_to_string(p.proconfig, ','), '')
       || ' args=' || coalesce(array_to_string(p.proargnames, ','), '')
       || ' defaults=' || coalesce(pg_get_expr(p.proargdefaults, 0), '')
       || ' src=' || md5(p.prosrc) || ' comment=' || coalesce(obj_description(p.oid, 'pg_proc'), '<none>')
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.pronamespace = 'madnb'::regnamespace
UNION ALL
SELECT 'relation ' || c.relname || ' kind=' || c.relkind::text || ' comment=' || coalesce(obj_description(c.oid, 'pg_class'), '<none>')
FROM pg_class c WHERE c.relnamespace = 'madnb'::regnamespace
UNION ALL
SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
       || ' notnull=' || a.attnotnull || ' default=' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE c.relnamespace = 'madnb'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT 'type ' || t.typname FROM pg_type t
WHERE t.typnamespace = 'madnb'::regnamespace AND t.typtype <> 'b' AND t.typrelid = 0
UNION ALL
SELECT 'migration ' || name || ' ' || sha256 FROM madnb._migrations
UNION ALL
SELECT 'schema comment=' || coalesce(obj_description('madnb'::regnamespace, 'pg_namespace'), '<none>')
ORDER BY 1
"""


def catalog(conn: psycopg.Connection) -> list[str]:
    return [r[0] for r in conn.execute(CATALOG).fetchall()]


@pytest.fixture
def extension_files(cluster) -> Path:
    """Put madnb.control and the generated scripts (current and 0.0.1) where the test cluster looks first.

    That is the cluster's private ``extension_destdir``, never the system's
    extension directory, which the tests leave untouched.
    """
    return install_extension_files(cluster)


def install_extension_files(cluster) -> Path:
    d = extension_dir(cluster)
    shutil.copy(ROOT / "madnb.control", d / "madnb.control")
    write_extension_files(d)
    shutil.copy(OLD_SCRIPT, d / "madnb--0.0.1.sql")
    return d


def system_extension_files() -> dict[str, int]:
    out = subprocess.run(["pg_config", "--sharedir"], capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("pg_config is not available")
    d = Path(out.stdout.strip()) / "extension"
    return {p.name: p.stat().st_mtime_ns for p in d.glob("madnb*")}


def test_extension_tests_use_the_clusters_private_folder_and_leave_the_system_untouched(cluster):
    before = system_extension_files()
    d = install_extension_files(cluster)
    url = new_database(cluster, "ext_private")
    with psycopg.connect(url, autocommit=True) as conn:
        assert Path(conn.execute("SHOW extension_destdir").fetchone()[0]) in d.parents
        conn.execute("CREATE EXTENSION madnb VERSION '0.0.1' CASCADE")
        conn.execute("ALTER EXTENSION madnb UPDATE")
        assert madnb.version(conn).installed == madnb.__version__
    assert system_extension_files() == before


def new_database(cluster, name: str) -> str:
    with psycopg.connect(cluster.url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    return cluster.url_for(name)


def test_both_install_paths_create_the_same_objects(cluster, extension_files):
    a = new_database(cluster, "via_script")
    b = new_database(cluster, "via_extension")
    madnb.install(a)
    with psycopg.connect(b, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION madnb CASCADE")
        ext = catalog(conn)
        assert madnb.version(conn).method == "extension"
    with psycopg.connect(a) as conn:
        script = catalog(conn)
    assert script == ext
    assert any("create_nb_prepared_data_tables(" in line for line in script)


def test_upgrading_from_an_older_script_gives_the_same_objects_as_a_fresh_install(cluster):
    fresh = new_database(cluster, "fresh")
    old = new_database(cluster, "upgraded")
    madnb.install(fresh)
    with psycopg.connect(old, autocommit=True) as conn:
        madnb.install(conn, script=OLD_SCRIPT.read_text())
        assert madnb.version(conn).installed == "0.0.1"
        before, now = madnb.upgrade(conn)
        assert (before, now.installed) == ("0.0.1", madnb.__version__)
        upgraded = catalog(conn)
    with psycopg.connect(fresh) as conn:
        assert catalog(conn) == upgraded


def test_extension_update_from_the_older_version_matches_a_fresh_create(cluster, extension_files):
    fresh = new_database(cluster, "ext_fresh")
    old = new_database(cluster, "ext_updated")
    with psycopg.connect(fresh, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION madnb CASCADE")
        want = catalog(conn)
    with psycopg.connect(old, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION madnb VERSION '0.0.1' CASCADE")
        before, now = madnb.upgrade(conn)
        assert before == "0.0.1" and now.installed == madnb.__version__
        assert catalog(conn) == want


def _model_and_view(conn) -> None:
    """A two-row model (fp, cp) and a classify view (cv) over table t."""
    conn.execute("CREATE TABLE t (id int, c int, x int[])")
    conn.execute("INSERT INTO t VALUES (1, 1, '{1}'), (2, 2, '{2}')")
    conn.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp')")
    conn.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 't', 'id', 'x', 1, 'cv')")


def test_installing_twice_is_harmless_and_records_each_run(empty_db):
    url, conn = empty_db
    madnb.install(conn)
    _model_and_view(conn)
    first = catalog(conn)
    info = madnb.install(conn)
    assert info.installed == madnb.__version__ and info.method == "script"
    assert catalog(conn) == first
    assert conn.execute("SELECT count(*), min(version), max(version) FROM madnb.install_log").fetchone() == (
        2, madnb.__version__, madnb.__version__)
    assert conn.execute("SELECT madnb.version()").fetchone()[0] == madnb.__version__
    assert conn.execute("SELECT count(*) FROM cv").fetchone()[0] == 2  # views survive a reinstall


def test_the_python_api_accepts_a_connection_an_engine_or_a_url(cluster):
    for kind in ("connection", "engine", "url"):
        url = new_database(cluster, f"api_{kind}")
        if kind == "connection":
            with psycopg.connect(url) as conn:
                assert madnb.install(conn).installed == madnb.__version__
        elif kind == "engine":
            engine = sqlalchemy.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
            assert madnb.install(engine).installed == madnb.__version__
            engine.dispose()
        else:
            assert madnb.install(url).installed == madnb.__version__
        assert madnb.version(url).installed == madnb.__version__
    with pytest.raises(TypeError):
        madnb.install(42)


def test_uninstall_refuses_while_views_use_madnb_and_keeps_model_tables(empty_db):
    url, conn = empty_db
    madnb.install(conn)
    _model_and_view(conn)
    with pytest.raises(InstallError, match="cv"):
        madnb.uninstall(conn)
    assert madnb.version(conn).installed == madnb.__version__
    madnb.uninstall(conn, cascade=True)
    assert madnb.version(conn).installed is None
    assert conn.execute("SELECT to_regclass('cv') IS NULL, to_regclass('fp') IS NOT NULL").fetchone() == (True, True)


def test_a_role_that_may_not_create_plpython_gets_a_clear_message(cluster, empty_db):
    url, conn = empty_db
    conn.execute("DROP ROLE IF EXISTS madnb_plain_user")
    conn.execute("CREATE ROLE madnb_plain_user LOGIN")
    conn.execute("GRANT CREATE ON DATABASE " + url.rsplit("/", 1)[1] + " TO madnb_plain_user")
    try:
        with pytest.raises(InstallError, match="superuser"):
            madnb.install(url.replace("postgres@", "madnb_plain_user@"))
    finally:
        conn.execute("REVOKE ALL ON DATABASE " + url.rsplit("/", 1)[1] + " FROM madnb_plain_user")
        conn.execute("DROP ROLE madnb_plain_user")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "madnb.cli", *args], capture_output=True, text=True, timeout=120)


def test_the_command_line_installs_reports_and_uninstalls(cluster):
    url = new_database(cluster, "cli")
    out = run_cli("install", "--dsn", url)
    assert out.returncode == 0, out.stderr
    out = run_cli("version", "--dsn", url)
    assert out.returncode == 0 and f"installed: {madnb.__version__} (script)" in out.stdout
    out = run_cli("upgrade", "--dsn", url)
    assert out.returncode == 0 and "already up to date" in out.stdout
    out = run_cli("uninstall", "--dsn", url)
    assert out.returncode == 0
    out = run_cli("version", "--dsn", url)
    assert "not installed" in out.stdout
    out = run_cli("install", "--dsn", "postgresql://postgres@127.0.0.1:1/nowhere")
    assert out.returncode == 1 and out.stderr.startswith("madnb:")


def test_a_session_loads_the_scoring_subpackage_from_the_install_script(db):
    db.execute("SELECT madnb._load_python()")
    db.execute(
        "CREATE FUNCTION pg_temp.madnb_modules() RETURNS text[] LANGUAGE plpython3u AS $$\n"
        "import sys\n"
        "return sorted(m + (' (package)' if hasattr(sys.modules[m], '__path__') else '')\n"
        "              for m in sys.modules if m.startswith('madnb_pl.scoring'))\n"
        "$$"
    )
    modules = db.execute("SELECT pg_temp.madnb_modules()").fetchone()[0]
    assert modules == [
        "madnb_pl.scoring (package)",
        "madnb_pl.scoring.bodies",
        "madnb_pl.scoring.class_rows",
        "madnb_pl.scoring.common",
        "madnb_pl.scoring.lateral",
        "madnb_pl.scoring.model",
        "madnb_pl.scoring.plan",
        "madnb_pl.scoring.unrolled",
    ]


def test_uninstall_cascade_drops_named_models_in_any_schema_and_with_any_identifier(empty_db):
    url, conn = empty_db
    madnb.install(conn)
    conn.execute("CREATE SCHEMA analytics")
    conn.execute("CREATE TABLE pets (id int, kind text, colour text)")
    conn.execute("INSERT INTO pets VALUES (1, 'cat', 'black'), (2, 'dog', 'brown'), (3, 'cat', 'white')")
    conn.execute("SELECT madnb.train('analytics.pets_nb', 'pets', 'kind', exclude => ARRAY['id'])")
    conn.execute("""SELECT madnb.train('"Pets NB"', 'pets', 'kind', exclude => ARRAY['id'])""")
    # the refusal names each model as madnb.models does
    with pytest.raises(InstallError) as refused:
        madnb.uninstall(conn)
    assert "named model Pets NB" in str(refused.value) and "named model analytics.pets_nb" in str(refused.value)
    madnb.uninstall(conn, cascade=True)
    assert madnb.version(conn).installed is None
    left = conn.execute(
        "SELECT count(*) FROM pg_class WHERE relnamespace IN (to_regnamespace('analytics'), to_regnamespace('madnb_models'), "
        "to_regnamespace('madnb_statistics'))"
    ).fetchone()
    functions = conn.execute(
        "SELECT count(*) FROM pg_proc WHERE pronamespace IN (to_regnamespace('analytics'), to_regnamespace('madnb_models'))"
    ).fetchone()
    assert (left, functions) == ((0,), (0,))


def test_uninstall_refuses_while_named_models_exist_and_cascade_drops_them(empty_db):
    url, conn = empty_db
    madnb.install(conn)
    conn.execute("CREATE TABLE pets (id int, kind text, colour text, weight float8)")
    conn.execute("INSERT INTO pets VALUES (1, 'cat', 'black', 4), (2, 'dog', 'brown', 20), (3, 'cat', 'white', 5), (4, 'dog', 'black', 30)")
    conn.execute("SELECT madnb.train('pets_nb', 'pets', 'kind', exclude => ARRAY['id'])")
    conn.execute("CREATE VIEW guessed AS SELECT id, madnb_models.pets_nb_predict(p) AS kind FROM pets p")
    # the models' functions call madnb's helpers and their catalog is in schema madnb: they would break
    with pytest.raises(InstallError, match="named model pets_nb"):
        madnb.uninstall(conn)
    assert madnb.version(conn).installed == madnb.__version__
    assert conn.execute("SELECT kind FROM guessed WHERE id = 2").fetchone() == ("dog",)
    madnb.uninstall(conn, cascade=True)
    assert madnb.version(conn).installed is None
    left = conn.execute(
        "SELECT count(*) FROM pg_class WHERE relnamespace IN (to_regnamespace('madnb_models'), to_regnamespace('madnb_statistics'))"
    ).fetchone()
    functions = conn.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = to_regnamespace('madnb_models')").fetchone()
    assert (left, functions, conn.execute("SELECT to_regclass('guessed')").fetchone()) == ((0,), (0,), (None,))
    # a reinstall starts with an empty catalog and nothing orphaned; the name is free again
    madnb.install(conn)
    conn.execute("SELECT madnb.train('pets_nb', 'pets', 'kind', exclude => ARRAY['id'])")
    assert conn.execute("SELECT madnb_models.pets_nb_predict(p) FROM pets p WHERE id = 2").fetchone() == ("dog",)

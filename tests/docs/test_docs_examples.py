"""Every SQL example of README.md and docs/ runs as written (issue 17, point C11).

A page's ```sql blocks run in psql (ON_ERROR_STOP), in the order the page gives
them, in one fresh database with madnb installed, from the repository's folder
(where the README's Quick start starts psql: its ``\\copy`` paths are relative to
it).  Before them runs the setup the page names in a ``<!-- setup: ... -->``
line (a comment of its own), taken from the README itself:

* ``adult``: the Quick start's tables adult and adult_test, created and loaded
  as its first block does (its statements before ``madnb.train``);
* ``quick start``: the whole of that block (so model adult_nb too);
* ``manual tables``: the MADlib manual's tables training, toclassify,
  gaussian_data and gaussian_test, as the README's psql session creates them.

A block that is deliberately not run says so and why in its fence's info string,
```` ```sql norun: <reason> ```` (GitHub still highlights it as SQL): a function's
signature, or SQL that needs servers a test has not got.  docs/federation.md's
walkthrough (blocks marked ``<!-- run on: each owner | aggregator -->``) runs on
three more servers (the ``remote_dbs`` fixture), each owner's blocks there and the
aggregator's here, with the example's host names replaced by the test servers'.

Quoted output is checked where other tests check it (tests/docs/test_models_readme.py,
tests/install/test_python_api.py); this test checks that everything runs.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from conftest import ROOT, data_file
from docs_pages import FEDERATION, PAGES, blocks, page_id, runnable
from madnb._cluster import find_bindir
from psql_session import split_session
from remote import RemoteDb, create_remote_db, drop_remote_db

SETUP = re.compile(r"^<!-- setup: ([^>]*?) -->$", re.MULTILINE)
FEDERATION_HOST = re.compile(r"host '(owner[123])\.example\.com', port '5432', dbname 'sales'")


def readme_block(section: str, n: int = 0) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    part = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return [b.sql for b in blocks(part)][n]


def setup_sql(name: str) -> str:
    """The SQL of a setup a page names, from the README (see the module's docstring)."""
    if name == "adult":
        data_file("adult_train.csv")
        quick = readme_block("Quick start")
        return quick[:quick.index("SELECT madnb.train")]
    if name == "quick start":
        data_file("adult_train.csv")
        return readme_block("Quick start")
    if name == "manual tables":
        session = split_session(readme_block("A psql session"))
        return "\n".join(stmt for stmt, _ in session
                         if re.match(r"\s*(CREATE TABLE|INSERT INTO)", re.sub(r"(?m)^--.*\n", "", stmt)))
    raise AssertionError(f"unknown setup {name!r}: 'adult', 'quick start' or 'manual tables'")


def page_setup(text: str) -> list[str]:
    found = SETUP.findall(text)
    assert len(found) <= 1, "a page names its setup once: <!-- setup: a, b -->"
    return [s.strip() for s in found[0].split(",")] if found else []


def psql() -> str:
    """The cluster's own psql (the PostgreSQL 15 client)."""
    exe = find_bindir() / "psql"
    if not exe.exists():
        pytest.skip("psql is not available")
    return str(exe)


def dsn_of(conn: psycopg.Connection[Any]) -> str:
    i = conn.info
    return f"host={i.host} port={i.port} user={i.user} dbname={i.dbname}"


def run_psql(dsn: str, script: str, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.sql"
    path.write_text(script, encoding="utf-8")
    res = subprocess.run([psql(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", dsn, "-f", str(path)],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert res.returncode == 0, f"{name}: psql failed\n{res.stderr[-4000:]}"


def roles(conn: psycopg.Connection[Any]) -> set[str]:
    return {r for (r,) in conn.execute("SELECT rolname FROM pg_catalog.pg_roles")}


def drop_roles(conn: psycopg.Connection[Any], names: set[str]) -> None:
    """Roles outlive a database on the session's cluster: drop the ones a page made."""
    for name in names:
        conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


@pytest.mark.parametrize("page", [p for p in PAGES if p != FEDERATION and runnable(p)], ids=page_id)
def test_every_sql_block_of_the_page_runs_in_order_in_a_fresh_database(db, page, tmp_path):
    text = page.read_text(encoding="utf-8")
    bs = runnable(page)
    assert not any(b.run_on for b in bs), "only docs/federation.md's walkthrough runs on other servers"
    script = "".join(setup_sql(s) + "\n" for s in page_setup(text))
    script += "".join(f"-- {page_id(page)}:{b.line}\n{b.sql}\n" for b in bs)
    for name in sorted(set(re.findall(r"\.\./shared/data/([\w.]+)", script))):
        data_file(name)  # skips where the datasets are absent
    before = roles(db)
    try:
        run_psql(dsn_of(db), script, tmp_path, page.stem)
    finally:
        drop_roles(db, roles(db) - before)


def secure_section_line() -> int:
    """The line of docs/federation.md's "## Secure aggregation": its walkthrough has a test of its own."""
    return FEDERATION.read_text(encoding="utf-8").split("\n").index("## Secure aggregation") + 1


def evaluation_section_line() -> int:
    """The line of docs/federation.md's "## Federated evaluation": its walkthrough has a test of its own."""
    return FEDERATION.read_text(encoding="utf-8").split("\n").index("## Federated evaluation") + 1


def test_the_federation_walkthrough_runs_on_three_owners_and_an_aggregator(db, remote_dbs, tmp_path):
    bs = [b for b in runnable(FEDERATION) if b.line < secure_section_line()]
    assert [b.run_on for b in bs] == ["each owner"] + ["aggregator"] * 5, "every runnable block says where it runs"
    where = {f"owner{i}": r for i, r in enumerate(remote_dbs, start=1)}

    def server_options(m: re.Match[str]) -> str:
        r = where[m.group(1)]
        return f"host '{r.host}', port '{r.port}', dbname '{r.dbname}'"

    for r in remote_dbs:  # each owner's sales table (the page's premise)
        r.install_madnb()
        owner_sales(r)
    db.execute("CREATE TABLE new_sales (id int, class text, attributes float8[])")
    db.execute("INSERT INTO new_sales VALUES (1, NULL, '{0,1,0.5}'), (2, NULL, '{2,0,1.5}')")
    befores = [roles(r.conn) for r in remote_dbs]
    try:
        for n, b in enumerate(bs):
            script = FEDERATION_HOST.sub(server_options, b.sql)
            targets = [r.url for r in remote_dbs] if b.run_on == "each owner" else [dsn_of(db)]
            for k, dsn in enumerate(targets):
                run_psql(dsn, script, tmp_path, f"federation_{n}_{k}")
        assert db.execute("SELECT count(*) FROM sales_classified").fetchone()[0] == 2
        # the named model from the owners' statistics predicts what the classify view of the merged tables does
        assert db.execute(
            "SELECT bool_and(c.nb_classification = ARRAY[madnb_models.sales_nb_predict(region => n.attributes[1], "
            "channel => n.attributes[2], amount => n.attributes[3])]) FROM sales_classified c JOIN new_sales n ON n.id = c.key"
        ).fetchone() == (True,)
    finally:
        for r, before in zip(remote_dbs, befores):
            drop_roles(r.conn, roles(r.conn) - before)


SECURE_HOST = re.compile(r"host '(owner[123]|aggregation[12])\.example\.com', port '5432', dbname 'sales'")


def test_the_secure_aggregation_walkthrough_runs_on_three_owners_two_aggregation_servers_and_an_analyst(db, remote_dbs, tmp_path):
    bs = [b for b in runnable(FEDERATION) if secure_section_line() < b.line < evaluation_section_line()]
    assert [b.run_on for b in bs] == ["each owner", "aggregation server 1", "aggregation server 2", "analyst"], (
        "every runnable block of the secure aggregation walkthrough says where it runs")
    for r in remote_dbs:
        r.install_madnb()
        owner_sales(r)
    db.execute("CREATE TABLE new_sales (id int, class text, attributes float8[])")
    db.execute("INSERT INTO new_sales VALUES (1, NULL, '{0,1,0.5}'), (2, NULL, '{2,0,1.5}')")
    befores = [roles(r.conn) for r in remote_dbs]
    servers = [create_remote_db(remote_dbs[0].cluster), create_remote_db(remote_dbs[1].cluster)]
    try:
        for s in servers:
            s.install_madnb()
        where = {**{f"owner{i}": r for i, r in enumerate(remote_dbs, start=1)},
                 **{f"aggregation{i}": s for i, s in enumerate(servers, start=1)}}

        def server_options(m: re.Match[str]) -> str:
            r = where[m.group(1)]
            return f"host '{r.host}', port '{r.port}', dbname '{r.dbname}'"

        targets = {"each owner": [r.url for r in remote_dbs], "aggregation server 1": [servers[0].url],
                   "aggregation server 2": [servers[1].url], "analyst": [dsn_of(db)]}
        for n, b in enumerate(bs):
            script = SECURE_HOST.sub(server_options, b.sql)
            for k, dsn in enumerate(targets[str(b.run_on)]):
                run_psql(dsn, script, tmp_path, f"secure_{n}_{k}")
        assert db.execute("SELECT count(*) FROM sales_secure_classified").fetchone()[0] == 2
        assert db.execute(
            "SELECT bool_and(c.nb_classification = ARRAY[madnb_models.sales_secure_nb_predict(region => n.attributes[1], "
            "channel => n.attributes[2], amount => n.attributes[3])]) FROM sales_secure_classified c JOIN new_sales n ON n.id = c.key"
        ).fetchone() == (True,)
        # the model of the 3 x 60 rows: the class priors of the union
        assert sorted(db.execute("SELECT class, class_cnt, all_cnt FROM sales_secure_cp").fetchall()) == [("a", 90, 180), ("b", 90, 180)]
    finally:
        for s in servers:
            drop_remote_db(s)
        for r, before in zip(remote_dbs, befores):
            drop_roles(r.conn, roles(r.conn) - before)


def test_the_federated_evaluation_walkthrough_runs_on_three_owners_and_an_aggregator(db, remote_dbs, tmp_path):
    bs = [b for b in runnable(FEDERATION) if b.line > evaluation_section_line()]
    assert [b.run_on for b in bs] == ["each owner", "aggregator"], "every runnable block says where it runs"
    where = {f"owner{i}": r for i, r in enumerate(remote_dbs, start=1)}

    def server_options(m: re.Match[str]) -> str:
        r = where[m.group(1)]
        return f"host '{r.host}', port '{r.port}', dbname '{r.dbname}'"

    for r in remote_dbs:
        r.install_madnb()
    befores = [roles(r.conn) for r in remote_dbs]
    try:
        for n, b in enumerate(bs):
            script = FEDERATION_HOST.sub(server_options, b.sql)
            targets = [r.url for r in remote_dbs] if b.run_on == "each owner" else [dsn_of(db)]
            for k, dsn in enumerate(targets):
                run_psql(dsn, script, tmp_path, f"evaluation_{n}_{k}")
        # the three owners' 50 rows each, evaluated as the union would be
        got = db.execute("SELECT madnb.evaluate_from_releases(ARRAY['eval_owner1.sales_evaluation', "
                         "'eval_owner2.sales_evaluation', 'eval_owner3.sales_evaluation'])").fetchone()[0]
        assert got["rows"] == 150 and got["federation"]["mode"] == "exact"
        # each owner's rows are its sales_test: the sum is madnb.evaluate's on three copies of it
        db.execute("CREATE TABLE sales_test AS SELECT i AS id, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS class, "
                   "(i * 7) % 4 AS region, (i % 5) * 0.7 AS amount FROM generate_series(1, 50) AS i, generate_series(1, 3)")
        want = db.execute("SELECT madnb.evaluate('sales_eval_nb', 'sales_test')").fetchone()[0]
        assert got["confusion_matrix"] == want["confusion_matrix"] and got["log_loss"] == pytest.approx(want["log_loss"], abs=1e-12)
    finally:
        for r, before in zip(remote_dbs, befores):
            drop_roles(r.conn, roles(r.conn) - before)


def owner_sales(r: RemoteDb) -> None:
    r.conn.execute("CREATE TABLE sales (id int, class text, attributes float8[])")
    r.conn.execute("INSERT INTO sales SELECT i, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END, "
                   "ARRAY[i % 3, i % 4 / 2, (i % 7) * 0.5]::float8[] FROM generate_series(1, 60) AS i")


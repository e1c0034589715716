"""Federated training across real servers (issue 11, points 1, 2 and their tests in point 5).

Three owner clusters (``remote_dbs``) each release statistics with madnb on
their own server; the session's cluster (``db``) is the aggregator, reaching
them through postgres_fdw foreign servers and user mappings that log in as a
role allowed to SELECT the statistics table and nothing else.  The reference is
always centralised training on the union of the owners' rows, done on the
aggregator by the test.
"""

from __future__ import annotations

import csv
import json
import re
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg import sql

from conftest import ROOT, data_file
from helpers import relations, sqlstate_of, statements_sent
from privacy_helpers import ledger
from remote import RemoteDb, link_server

OWNERS = ("owner1", "owner2", "owner3")
STAT_COLUMNS = "(cls text, attr int, value float8, n numeric, nv int8, mean float8, mean_lo float8, var float8, s1 numeric, s2 numeric)"


def load(
    conn: psycopg.Connection[Any], table: str, rows: list[tuple[int, str, list[float]]], names: tuple[str, str, str] = ("id", "label", "attrs"),
) -> None:
    key, cls, attrs = map(sql.Identifier, names)
    conn.execute(sql.SQL("CREATE TABLE {} ({} int, {} text, {} float8[])").format(sql.Identifier(table), key, cls, attrs))
    with conn.cursor().copy(sql.SQL("COPY {} FROM STDIN").format(sql.Identifier(table))) as cp:
        for r in rows:
            cp.write_row(r)


@dataclass
class Owner:
    """One data owner: its database, the server name the aggregator gave it, and the role its user mapping logs in as."""

    remote: RemoteDb
    server: str
    role: str

    def load(self, table: str, rows: list[tuple[int, str, list[float]]]) -> None:
        load(self.remote.conn, table, rows)

    def release(self, args: str, dest: str = "stats", schema: str = "public", private: str = "") -> None:
        """madnb.create_nb_statistics(args..., dest, private...) on the owner; the aggregator's role may read the result."""
        conn = self.remote.conn
        target = sql.Identifier(schema, dest)
        call = "SELECT madnb.create_nb_statistics(" + args + ", {}" + (", " + private if private else "") + ")"
        conn.execute(sql.SQL(call).format(sql.Literal(target.as_string(conn))))
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(sql.Identifier(schema), sql.Identifier(self.role)))
        conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(target, sql.Identifier(self.role)))


@pytest.fixture
def owners(db: psycopg.Connection[Any], remote_dbs: list[RemoteDb]) -> list[Owner]:
    """Three owners with madnb, linked to the aggregator as servers owner1..owner3 (postgres_fdw + dblink).

    Each user mapping logs in as a fresh non-superuser role that is granted
    SELECT on the statistics tables the owner releases (:meth:`Owner.release`)
    and nothing else: not the training tables.
    """
    out = []
    for server, r in zip(OWNERS, remote_dbs, strict=True):
        r.install_madnb()
        role, password = r.login_role(prefix="aggregator_")
        link_server(db, r, server, remote_user=role, password=password, extensions=("postgres_fdw", "dblink"))
        out.append(Owner(r, server, role))
    return out


def import_statistics(db: psycopg.Connection[Any], owners: list[Owner], tables: list[str]) -> None:
    """IMPORT FOREIGN SCHEMA public LIMIT TO (tables) from every owner into a local schema named after its server."""
    for o in owners:
        db.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(o.server)))
        db.execute(
            sql.SQL("IMPORT FOREIGN SCHEMA public LIMIT TO ({}) FROM SERVER {} INTO {}").format(
                sql.SQL(", ").join(map(sql.Identifier, tables)), sql.Identifier(o.server), sql.Identifier(o.server)
            )
        )


def rows(db: psycopg.Connection[Any], query: str) -> list[tuple[Any, ...]]:
    return sorted(db.execute(query).fetchall(), key=repr)


def model(db: psycopg.Connection[Any], fp: str, np_: str | None, cp: str) -> dict[str, list[tuple[Any, ...]]]:
    out = {
        "cp": rows(db, f"SELECT class, class_cnt, all_cnt FROM {cp}"),
        "fp": rows(db, f"SELECT class, attr, value, cnt, attr_cnt, smoothing FROM {fp}"),
    }
    if np_ is not None:
        out["np"] = rows(db, f"SELECT class, attr, attr_mean, attr_var, value_cnt FROM {np_}")
    return out


def close(a: float, b: float, tol: float = 1e-9) -> bool:
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def assert_same_model(db: psycopg.Connection[Any], got: tuple[str, str, str], want: tuple[str, str, str]) -> None:
    g, w = model(db, *got), model(db, *want)
    assert g["cp"] == w["cp"] and g["fp"] == w["fp"]
    assert len(g["np"]) == len(w["np"]) > 0
    for a, b in zip(g["np"], w["np"], strict=True):
        assert a[:2] == b[:2] and a[4] == b[4] and close(a[2], b[2]) and close(a[3], b[3]), (a, b)


def probabilities(db: psycopg.Connection[Any], fp: str, np_: str, cp: str, n: int, view: str) -> dict[tuple[int, str], float]:
    db.execute(f"SELECT madnb.create_nb_probs_view('{fp}', '{cp}', 'test_rows', 'id', 'attrs', {n}, '{np_}', '{view}')")
    return {(k, c): p for k, c, p in db.execute(f"SELECT key, class, nb_prob FROM {view}")}


# --- data: adult and skin, as tests/release/test_statistics_tables.py reads them ---------------------

def _read(name: str) -> list[list[str]]:
    with open(data_file(name), newline="") as f:
        return list(csv.reader(f))[1:]


def adult() -> tuple[list[tuple[int, str, list[float]]], str, int]:
    data = _read("adult_train.csv")[:4000]
    numeric, categorical = [0, 2, 4, 10, 11, 12], [1, 3, 5, 6, 7, 8, 9, 13]
    codes: dict[tuple[int, str], int] = {}
    out = []
    for i, r in enumerate(data):
        attrs = [float(r[c]) for c in numeric] + [float(codes.setdefault((c, r[c]), len(codes))) for c in categorical]
        out.append((i, r[14], attrs))
    return out, "1,2,3,4,5,6", 14


def skin() -> tuple[list[tuple[int, str, list[float]]], str, int]:
    data = np.array(_read("skin_segmentation.csv"), dtype=float)[::40]
    return [(i, str(int(r[3])), [float(v) for v in r[:3]]) for i, r in enumerate(data)], "1,2,3", 3


def splits(train: list[tuple[int, str, list[float]]]) -> dict[str, list[list[tuple[int, str, list[float]]]]]:
    """Three owners' rows: by row number, and skewed (owner 1 holds every row of one class and nothing else)."""
    first = min(r[1] for r in train)
    rest = [r for r in train if r[1] != first]
    return {
        "by_row": [[r for r in train if r[0] % 3 == j] for j in range(3)],
        "skewed": [[r for r in train if r[1] == first], rest[0::2], rest[1::2]],
    }


# --- point 1 and 2: exact federated = centralised -------------------------------------------

@pytest.mark.parametrize("dataset", [adult, skin])
def test_exact_federated_training_both_ways_equals_centralised_training(db, owners, dataset):
    data, indices, n = dataset()
    train = [r for r in data if r[0] % 4 != 0]
    load(db, "central", train)
    load(db, "test_rows", [r for r in data if r[0] % 4 == 0])
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('central', 'label', 'attrs', '{indices}', {n}, 'fp', 'np', 'cp')")
    central = probabilities(db, "fp", "np", "cp", n, "pv")
    comment = db.execute("SELECT obj_description('fp'::regclass, 'pg_class')").fetchone()[0]
    kept = comment.split("derived from statistics ")[1].split(" (id ")[0]
    for how, parts in splits(train).items():
        for owner, part in zip(owners, parts, strict=True):
            owner.load(f"train_{how}", part)
            owner.release(f"'train_{how}', 'label', 'attrs', '{indices}', {n}", f"stats_{how}")
    import_statistics(db, owners, ["stats_by_row", "stats_skewed"])
    releases = ledger(db)
    for how in ("by_row", "skewed"):
        foreign = [f"{o.server}.stats_{how}" for o in owners]
        db.execute(f"SELECT madnb.create_nb_model_from_statistics(%s, 'fp_f{how}', 'np_f{how}', 'cp_f{how}')", (foreign,))
        db.execute(
            f"SELECT madnb.create_nb_federated_tables(%s, 'stats_{how}', 'fp_o{how}', 'np_o{how}', 'cp_o{how}')", (list(OWNERS),)
        )
        # the owners' statistics add up to the centralised statistics, cell by cell
        union = " UNION ALL ".join(f"SELECT cls, attr, value, n, nv FROM {f}" for f in foreign)
        assert rows(db, f"SELECT cls, attr, value, sum(n), sum(nv) FROM ({union}) AS u GROUP BY 1, 2, 3") == rows(
            db, f"SELECT cls, attr, value, n, nv FROM {kept}"
        )
        for form in ("f", "o"):
            tables = (f"fp_{form}{how}", f"np_{form}{how}", f"cp_{form}{how}")
            assert_same_model(db, tables, ("fp", "np", "cp"))
            merged = probabilities(db, *tables, n, f"pv_{form}{how}")
            assert merged.keys() == central.keys()
            assert max(abs(merged[k] - central[k]) for k in central) < 1e-9, (form, how)
    assert ledger(db) == releases  # exact: nothing is ledgered anywhere


def kept_header(db: psycopg.Connection[Any], fp: str) -> dict[str, Any]:
    """The header of the statistics a model keeps (named at the end of its feature table's comment)."""
    comment = db.execute("SELECT obj_description(%s::regclass, 'pg_class')", (fp,)).fetchone()[0]
    kept = comment.split("derived from statistics ")[1].split(" (id ")[0]
    assert kept.startswith('"madnb_statistics".')
    text = db.execute(f"SELECT obj_description('{kept}'::regclass, 'pg_class')").fetchone()[0]
    return dict(json.loads(text.removeprefix("madnb statistics ")))


def test_a_federated_model_keeps_the_sum_of_the_parts_naming_each_server(db, owners):
    ids = []
    for o in owners:
        o.load("t", [(1, "a", [1.0]), (2, "b", [2.0])])
        o.release("'t', 'label', 'attrs', 1")
        comment = o.remote.conn.execute("SELECT obj_description('stats'::regclass, 'pg_class')").fetchone()[0]
        ids.append(json.loads(comment.removeprefix("madnb statistics "))["id"])
    db.execute("SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'public.stats', 'fp', NULL, 'cp')")
    h = kept_header(db, "fp")
    assert h["parts"] == ids
    assert h["source"] == "public.t on server owner1, public.t on server owner2, public.t on server owner3"
    comment = db.execute("SELECT obj_description('cp'::regclass, 'pg_class')").fetchone()[0]
    assert "public.t on server owner1" in comment and "(the sum of 3 statistics tables)" in comment
    assert db.execute("SELECT count(*) FROM pg_class WHERE relname LIKE 'madnb_part_%'").fetchone()[0] == 0


def test_a_new_owner_joins_a_federated_model_with_an_online_update_through_its_foreign_table(db, owners):
    union = []
    for j, o in enumerate(owners):
        part = [(10 * j + i, "ab"[i % 2], [float(i % 3), float(j + i)]) for i in range(12)]
        o.load("t", part)
        o.release("'t', 'label', 'attrs', '2', 2")
        union += part
    load(db, "central", union)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('central', 'label', 'attrs', '2', 2, 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2'], 'stats', 'fp2', 'np2', 'cp2')")
    import_statistics(db, owners[2:], ["stats"])
    db.execute("SELECT madnb.update_nb_model('owner3.stats', 'fp2', 'np2', 'cp2')")
    assert_same_model(db, ("fp2", "np2", "cp2"), ("fp", "np", "cp"))
    e = sqlstate_of(db, "SELECT madnb.update_nb_model('owner3.stats', 'fp2', 'np2', 'cp2')")
    assert e.diag.sqlstate == "22023"  # the same part twice


# --- the aggregator never reads a training row ----------------------------------------------

def test_the_mapping_role_cannot_read_the_training_table_and_federated_training_still_succeeds(db, owners):
    for o in owners:
        o.load("secret_rows", [(1, "a", [1.0, 0.5]), (2, "b", [2.0, 1.5]), (3, "a", [1.0, 2.5])])
        o.release("'secret_rows', 'label', 'attrs', '2', 2")
    import_statistics(db, owners, ["stats", "secret_rows"])
    e = sqlstate_of(db, "SELECT * FROM owner1.secret_rows")
    assert e.diag.sqlstate == "42501"  # the role of the user mapping: permission denied
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats', 'owner2.stats', 'owner3.stats'], 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'stats', 'fp2', 'np2', 'cp2')")
    assert db.execute("SELECT class, class_cnt, all_cnt FROM cp ORDER BY class").fetchall() == [("a", 6, 9), ("b", 3, 9)]
    assert model(db, "fp", "np", "cp") == model(db, "fp2", "np2", "cp2")
    # what the owners ran for the aggregator's role: one read of the statistics table, its cells only
    for o in owners:
        o.remote.conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        o.remote.conn.execute("SELECT pg_stat_statements_reset()")
    db.execute("SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'stats', 'fp3', 'np3', 'cp3')")
    for o in owners:
        ran = o.remote.conn.execute(
            "SELECT s.query, s.rows FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid "
            "JOIN pg_database d ON d.oid = s.dbid WHERE r.rolname = %s AND d.datname = current_database()",
            (o.role,),
        ).fetchall()
        cells = o.remote.conn.execute("SELECT count(*) FROM stats").fetchone()[0]
        assert [n for q, n in ran if 'FROM "public"."stats"' in q] == [cells]
        assert not any("secret_rows" in q for q, _ in ran)


def test_the_one_call_sends_every_owner_its_query_before_collecting_any_answer(db, owners):
    for o in owners:
        o.load("t", [(1, "a", [1.0]), (2, "b", [2.0])])
        o.release("'t', 'label', 'attrs', 1")
    sent = statements_sent(
        db, lambda: db.execute("SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'stats', 'fp', NULL, 'cp')")
    )
    steps = [("send" if "dblink_send_query" in q else "collect") for q in sent if "dblink_send_query" in q or "dblink_get_result" in q]
    assert steps == ["send"] * 3 + ["collect"] * 3  # the owners work concurrently
    assert sum("dblink_connect" in q for q in sent) == sum("dblink_disconnect" in q for q in sent) == 3


def test_values_cross_exactly_whatever_the_owner_roles_output_settings(db, owners):
    """A date class and float8 means, with the remote role printing dates day first and floats to two digits."""
    rng = np.random.default_rng(5)
    for o in owners:
        o.remote.conn.execute(
            f'ALTER ROLE "{o.role}" SET datestyle = \'SQL, DMY\'; ALTER ROLE "{o.role}" SET extra_float_digits = -15'
        )
    union = []
    for j, o in enumerate(owners):
        o.remote.conn.execute("CREATE TABLE t (id int, day date, attrs float8[])")
        part = [(100 * j + i, f"2026-0{1 + i % 3}-1{j}", [float(rng.normal(1e3, 1))]) for i in range(30)]
        with o.remote.conn.cursor() as cur:
            cur.executemany("INSERT INTO t VALUES (%s, %s, %s)", part)
        union += part
        o.release("'t', 'day', 'attrs', '1', 1")
    db.execute("CREATE TABLE central (id int, day date, attrs float8[])")
    with db.cursor() as cur:
        cur.executemany("INSERT INTO central VALUES (%s, %s, %s)", union)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('central', 'day', 'attrs', '1', 1, 'fp', 'np', 'cp')")
    import_statistics(db, owners, ["stats"])
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats', 'owner2.stats', 'owner3.stats'], 'fp1', 'np1', 'cp1')")
    db.execute("SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'stats', 'fp2', 'np2', 'cp2')")
    assert len(model(db, "fp", "np", "cp")["cp"]) == 9
    assert_same_model(db, ("fp1", "np1", "cp1"), ("fp", "np", "cp"))
    assert_same_model(db, ("fp2", "np2", "cp2"), ("fp", "np", "cp"))
    # the two forms read the same numbers: bit for bit
    assert model(db, "fp1", "np1", "cp1") == model(db, "fp2", "np2", "cp2")


def test_a_plain_role_with_its_own_user_mappings_trains_both_ways(db, owners):
    for o in owners:
        o.load("t", [(1, "a", [1.0]), (2, "b", [2.0]), (3, "a", [2.0])])
        o.release("'t', 'label', 'attrs', 1")
    analyst = "analyst_" + secrets.token_hex(3)
    db.execute(f'CREATE ROLE "{analyst}" LOGIN')
    db.execute("SELECT madnb.grant_usage(%s)", (analyst,))
    db.execute(f'CREATE SCHEMA work AUTHORIZATION "{analyst}"')
    import_statistics(db, owners, ["stats"])
    for o in owners:
        password = secrets.token_hex(8)
        o.remote.conn.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(sql.Identifier(o.role), sql.Literal(password)))
        db.execute(sql.SQL("GRANT USAGE ON FOREIGN SERVER {} TO {}").format(sql.Identifier(o.server), sql.Identifier(analyst)))
        db.execute(sql.SQL("CREATE USER MAPPING FOR {} SERVER {} OPTIONS (user {}, password {})").format(
            sql.Identifier(analyst), sql.Identifier(o.server), sql.Literal(o.role), sql.Literal(password)))
        db.execute(sql.SQL("GRANT USAGE ON SCHEMA {0} TO {1}; GRANT SELECT ON ALL TABLES IN SCHEMA {0} TO {1}").format(
            sql.Identifier(o.server), sql.Identifier(analyst)))
    info = db.info
    with psycopg.connect(host=info.host, port=info.port, dbname=info.dbname, user=analyst, autocommit=True) as conn:
        conn.execute("SET search_path = work, public, madnb")
        conn.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats', 'owner2.stats', 'owner3.stats'], 'fp', NULL, 'cp')")
        conn.execute("SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'stats', 'fp2', NULL, 'cp2')")
        assert conn.execute("SELECT class, class_cnt FROM work.cp ORDER BY 1").fetchall() == [("a", 6), ("b", 3)]
        assert model(conn, "work.fp", None, "work.cp") == model(conn, "work.fp2", None, "work.cp2")
    db.execute(f'DROP OWNED BY "{analyst}" CASCADE')
    db.execute(f'DROP ROLE "{analyst}"')


# --- private parts ----------------------------------------------------------------------------

def test_private_parts_stay_in_their_owners_ledgers_and_the_aggregator_charges_nothing(db, owners):
    for j, o in enumerate(owners):
        o.load("t", [(i, "a" if i % 2 else "b", [float((i + j) % 3)]) for i in range(40)])
        o.remote.conn.execute("CREATE TABLE dom (attr int, value text)")
        o.remote.conn.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b'), (1, '0'), (1, '1'), (1, '2'), (1, '3')")
        o.release("'t', 'label', 'attrs', 1", private="epsilon => 1, domain => 'dom'")
    import_statistics(db, owners, ["stats"])
    # every owner's first release: release id 1 in three different ledgers, not one release listed three times
    for o in owners:
        assert o.remote.conn.execute(
            "SELECT release_id, parameters->>'statistics' FROM madnb.privacy_ledger"
        ).fetchall() == [(1, "public.stats")]
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats', 'owner2.stats', 'owner3.stats'], 'fp', NULL, 'cp')")
    db.execute("SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'stats', 'fp2', NULL, 'cp2')")
    assert ledger(db) == []
    for o in owners:
        assert o.remote.conn.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone()[0] == 1
    assert model(db, "fp", None, "cp") == model(db, "fp2", None, "cp2")
    # the raw noisy counts are summed over the owners, then clamped
    raw: dict[tuple[str, float], int] = {}
    for o in owners:
        for cls, value, n in o.remote.conn.execute("SELECT cls, value, n FROM stats WHERE attr = 1"):
            raw[(cls, value)] = raw.get((cls, value), 0) + int(n)
    cnt = {(c, v): k for c, v, k in db.execute("SELECT class, value, cnt FROM fp")}
    assert cnt == {key: max(0, s) for key, s in raw.items()}
    comment = db.execute("SELECT obj_description('cp'::regclass, 'pg_class')").fetchone()[0]
    assert "releases 1 on server owner1, 1 on server owner2, 1 on server owner3 of madnb.privacy_ledger" in comment
    assert kept_header(db, "fp2")["release_ids"] == [f"1 on server {o.server}" for o in owners]


# --- failures: nothing written ----------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def aggregator_state(db: psycopg.Connection[Any]) -> tuple[Any, ...]:
    """What a failed call must leave as it was: the aggregator's relations and its open dblink connections."""
    conns = db.execute("SELECT dblink_get_connections()").fetchone()[0]
    return relations(db), conns


@pytest.fixture
def two_owners_and_one_down(db, owners):
    """owner1 and owner2 release; server owner_down points at a port where nothing listens."""
    for o in owners[:2]:
        o.load("t", [(1, "a", [1.0]), (2, "b", [2.0])])
        o.release("'t', 'label', 'attrs', 1")
    import_statistics(db, owners[:2], ["stats"])
    db.execute(
        f"CREATE SERVER owner_down FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '{free_port()}', dbname 'x')"
    )
    db.execute("CREATE USER MAPPING FOR CURRENT_USER SERVER owner_down OPTIONS (user 'postgres')")
    db.execute("CREATE SCHEMA owner_down")
    db.execute(f"CREATE FOREIGN TABLE owner_down.stats {STAT_COLUMNS} SERVER owner_down OPTIONS (schema_name 'public', table_name 'stats')")
    return db


@pytest.mark.parametrize("form", ["foreign tables", "one call"])
def test_an_owner_that_is_down_is_a_connection_error_naming_its_server_and_nothing_is_written(two_owners_and_one_down, form):
    db = two_owners_and_one_down
    before = aggregator_state(db)
    call = (
        "SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats', 'owner_down.stats', 'owner2.stats'], 'fp', NULL, 'cp')"
        if form == "foreign tables"
        else "SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner_down', 'owner2'], 'stats', 'fp', NULL, 'cp')"
    )
    e = sqlstate_of(db, call)
    assert e.diag.sqlstate.startswith("08"), e.diag.sqlstate
    assert 'could not connect to server "owner_down"' in e.diag.message_primary
    assert ("statistics[2] owner_down.stats" if form == "foreign tables" else "servers[2]") in e.diag.message_primary
    assert e.diag.message_detail and "user mapping" in e.diag.message_hint
    # DETAIL is the reason libpq and the server gave, not a restatement of the message
    assert "Connection refused" in e.diag.message_detail, e.diag.message_detail
    assert not e.diag.message_primary.startswith(("plpy.", "spiexceptions."))
    assert aggregator_state(db) == before


@pytest.mark.parametrize("form", ["foreign tables", "one call"])
def test_an_owner_that_refuses_the_login_says_why_in_detail(db, owners, form):
    for o in owners[:2]:
        o.load("t", [(1, "a", [1.0]), (2, "b", [2.0])])
        o.release("'t', 'label', 'attrs', 1")
    import_statistics(db, owners[:2], ["stats"])
    db.execute("ALTER USER MAPPING FOR CURRENT_USER SERVER owner2 OPTIONS (SET password 'not the password')")
    before = aggregator_state(db)
    call = (
        "SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats', 'owner2.stats'], 'fp', NULL, 'cp')"
        if form == "foreign tables"
        else "SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2'], 'stats', 'fp', NULL, 'cp')"
    )
    e = sqlstate_of(db, call)
    assert e.diag.sqlstate.startswith("08"), e.diag.sqlstate
    assert 'could not connect to server "owner2"' in e.diag.message_primary
    assert f'password authentication failed for user "{owners[1].role}"' in e.diag.message_detail, e.diag.message_detail
    assert aggregator_state(db) == before


@pytest.mark.parametrize("form", ["foreign tables", "one call"])
def test_an_incompatible_part_is_22023_naming_it_and_nothing_is_written(db, owners, form):
    for o in owners:
        o.load("t", [(1, "a", [1.0, 5.0]), (2, "b", [2.0, 6.0])])
    owners[0].release("'t', 'label', 'attrs', '2', 2")
    owners[1].release("'t', 'label', 'attrs', '2', 2")
    owners[2].release("'t', 'label', 'attrs', 2")  # no numeric attribute
    import_statistics(db, owners, ["stats"])
    before = aggregator_state(db)
    if form == "foreign tables":
        e = sqlstate_of(db, "SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats', 'owner2.stats', 'owner3.stats'], 'fp', 'np', 'cp')")
        part = "part 3 (owner3.stats)"
    else:
        e = sqlstate_of(db, "SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'stats', 'fp', 'np', 'cp')")
        part = "part 3 (public.stats on server owner3)"
    assert e.diag.sqlstate == "22023"
    assert f"statistics {part} is not compatible with part 1" in e.diag.message_primary
    assert "numeric attribute indices" in e.diag.message_detail
    assert aggregator_state(db) == before


IMPOSSIBLE = {
    "a negative class count": ("UPDATE stats SET n = -10000 WHERE attr = 0 AND cls = 'b'", "(class 'b', attr 0)", "its count n is -10000"),
    "a NaN mean": ("UPDATE stats SET mean = 'NaN' WHERE attr = 2 AND cls = 'a'", "(class 'a', attr 2)", "its mean is NaN"),
}


@pytest.mark.parametrize("kind", list(IMPOSSIBLE))
@pytest.mark.parametrize("form", ["foreign tables", "one call"])
def test_an_owners_impossible_cell_is_22023_naming_the_part_and_the_cell_and_nothing_is_written(db, owners, form, kind):
    corrupt, cell, why = IMPOSSIBLE[kind]
    for o in owners:
        o.load("t", [(1, "a", [1.0, 5.0]), (2, "b", [2.0, 6.0]), (3, "a", [1.0, 7.0])])
        o.release("'t', 'label', 'attrs', '2', 2")
    owners[1].remote.conn.execute(corrupt)
    import_statistics(db, owners, ["stats"])
    before = aggregator_state(db), relations(db, "madnb_statistics")
    if form == "foreign tables":
        e = sqlstate_of(db, "SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats', 'owner2.stats', 'owner3.stats'], 'fp', 'np', 'cp')")
        part = "part 2 (owner2.stats)"
    else:
        e = sqlstate_of(db, "SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'stats', 'fp', 'np', 'cp')")
        part = "part 2 (public.stats on server owner2)"
    assert e.diag.sqlstate == "22023"
    assert e.diag.message_primary == f"statistics {part} holds an impossible cell {cell}"
    assert why in e.diag.message_detail
    assert (aggregator_state(db), relations(db, "madnb_statistics")) == before


# --- a cancel or timeout on the aggregator cancels every owner's query --------------------------

SLOW_SECONDS = 30


def make_slow(owner: Owner) -> None:
    """The owner's statistics table ``stats`` becomes a view that sleeps SLOW_SECONDS before its cells (same header)."""
    c = owner.remote.conn
    c.execute("ALTER TABLE stats RENAME TO real_stats")
    c.execute(f"CREATE VIEW stats AS SELECT s.* FROM real_stats AS s CROSS JOIN (SELECT pg_sleep({SLOW_SECONDS})) AS z")
    header = c.execute("SELECT obj_description('real_stats'::regclass, 'pg_class')").fetchone()[0]
    c.execute(sql.SQL("COMMENT ON VIEW stats IS {}").format(sql.Literal(header)))
    c.execute(sql.SQL("GRANT SELECT ON stats TO {}").format(sql.Identifier(owner.role)))


def active_queries(owner: Owner) -> list[str]:
    """What the aggregator's role is running on the owner now."""
    return [q for (q,) in owner.remote.conn.execute(
        "SELECT query FROM pg_stat_activity WHERE usename = %s AND state = 'active'", (owner.role,)
    )]


def sleeping(owner: Owner) -> bool:
    """Whether the aggregator's role is inside the slow view's pg_sleep on the owner (its cells are being read)."""
    return bool(owner.remote.conn.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE usename = %s AND state = 'active' AND wait_event = 'PgSleep'",
        (owner.role,),
    ).fetchone()[0])


def wait_until(what: Any, bound: float) -> bool:
    """Poll ``what()`` until it is true or ``bound`` seconds have passed; whether it became true."""
    deadline = time.monotonic() + bound
    while not what():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("how", ["statement_timeout", "pg_cancel_backend"])
@pytest.mark.parametrize("form", ["one call", "foreign tables"])
def test_a_cancel_or_timeout_on_the_aggregator_cancels_every_owners_query(db, owners, form, how):
    for o in owners:
        o.load("t", [(1, "a", [1.0]), (2, "b", [2.0])])
        o.release("'t', 'label', 'attrs', 1")
    for o in owners[1:]:
        make_slow(o)
    import_statistics(db, owners, ["stats"])
    before = aggregator_state(db)
    call = (
        "SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'stats', 'fp', NULL, 'cp')"
        if form == "one call"
        else "SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats', 'owner2.stats', 'owner3.stats'], 'fp', NULL, 'cp')"
    )
    if how == "statement_timeout":
        db.execute("SET statement_timeout = '1s'")
        e = sqlstate_of(db, call)
        db.execute("RESET statement_timeout")
        state, message = e.diag.sqlstate, e.diag.message_primary
    else:
        info = db.info
        got: dict[str, Any] = {}
        with psycopg.connect(host=info.host, port=info.port, dbname=info.dbname, user=info.user, autocommit=True) as other:
            pid = other.info.backend_pid

            def run() -> None:
                try:
                    other.execute(call)
                except psycopg.Error as err:
                    got["state"], got["message"] = err.diag.sqlstate, err.diag.message_primary

            worker = threading.Thread(target=run)
            worker.start()
            assert wait_until(lambda: sleeping(owners[1]), 20)  # the slow owner is reading its cells
            db.execute("SELECT pg_cancel_backend(%s)", (pid,))
            worker.join(SLOW_SECONDS)
            assert not worker.is_alive()
        state, message = got["state"], got["message"]
    assert state == "57014"
    assert message and not message.startswith(("plpy.", "spiexceptions.")), message
    # the owners' queries end soon after: they are cancelled, not left running for their SLOW_SECONDS
    for o in owners:
        assert wait_until(lambda o=o: not active_queries(o), 5), (o.server, active_queries(o))
    assert aggregator_state(db) == before


def test_a_server_or_foreign_table_listed_twice_is_refused(db, owners):
    owners[0].load("t", [(1, "a", [1.0]), (2, "b", [2.0])])
    owners[0].release("'t', 'label', 'attrs', 1")
    import_statistics(db, owners[:1], ["stats"])
    db.execute("CREATE SCHEMA again")
    db.execute("IMPORT FOREIGN SCHEMA public LIMIT TO (stats) FROM SERVER owner1 INTO again")
    e = sqlstate_of(db, "SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats', 'again.stats'], 'fp', NULL, 'cp')")
    assert e.diag.sqlstate == "22023" and "part 2 (again.stats) is listed twice" in e.diag.message_primary
    e = sqlstate_of(db, "SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'OWNER1'], 'stats', 'fp', NULL, 'cp')")
    assert e.diag.sqlstate == "22023" and "part 2 (public.stats on server owner1) is listed twice" in e.diag.message_primary


def test_a_foreign_table_that_does_not_match_its_remote_table_is_22023(db, owners):
    owners[0].load("t", [(1, "a", [1.0]), (2, "b", [2.0])])
    owners[0].release("'t', 'label', 'attrs', 1")
    db.execute("CREATE SCHEMA o1")
    # declared by hand with text values, where the remote table holds float8
    db.execute(f"CREATE FOREIGN TABLE o1.stats {STAT_COLUMNS.replace('value float8', 'value text')} SERVER owner1 OPTIONS (table_name 'stats', schema_name 'public')")
    e = sqlstate_of(db, "SELECT madnb.create_nb_model_from_statistics(ARRAY['o1.stats'], 'fp', NULL, 'cp')")
    assert e.diag.sqlstate == "22023"
    assert "statistics[1] o1.stats does not match its remote table public.stats on server owner1" in e.diag.message_primary
    assert 'column "value" is text here, remote column "value" is double precision' in e.diag.message_detail


def test_a_missing_remote_table_or_server_is_named(db, owners):
    e = sqlstate_of(db, "SELECT madnb.create_nb_federated_tables(ARRAY['owner1'], 'no_such_stats', 'fp', NULL, 'cp')")
    assert e.diag.sqlstate == "42P01" and 'on server "owner1"' in e.diag.message_primary
    e = sqlstate_of(db, "SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner9'], 'stats', 'fp', NULL, 'cp')")
    assert e.diag.sqlstate == "42704" and 'server "owner9" does not exist' in e.diag.message_primary
    e = sqlstate_of(db, "SELECT madnb.create_nb_federated_tables(NULL, 'stats', 'fp', NULL, 'cp')")
    assert e.diag.sqlstate == "22004"
    e = sqlstate_of(db, "SELECT madnb.create_nb_federated_tables(ARRAY[]::text[], 'stats', 'fp', NULL, 'cp')")
    assert e.diag.sqlstate == "22023"


def test_without_dblink_both_forms_are_0A000_with_a_hint(db, owners):
    owners[0].load("t", [(1, "a", [1.0]), (2, "b", [2.0])])
    owners[0].release("'t', 'label', 'attrs', 1")
    import_statistics(db, owners[:1], ["stats"])
    db.execute("DROP EXTENSION dblink")
    for call in (
        "SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1.stats'], 'fp', NULL, 'cp')",
        "SELECT madnb.create_nb_federated_tables(ARRAY['owner1'], 'stats', 'fp', NULL, 'cp')",
    ):
        e = sqlstate_of(db, call)
        assert e.diag.sqlstate == "0A000" and e.diag.message_hint == "CREATE EXTENSION dblink"


# --- hostile names ------------------------------------------------------------------------------

def test_hostile_remote_schema_table_and_server_names_are_data(db, remote_dbs):
    r = remote_dbs[0]
    r.install_madnb()
    role, password = r.login_role()
    server, schema, table, local = 'Own"er; DROP', 'Sch"ema\'; --', 'St.a"ts\'', 'Lo"cal'
    link_server(db, r, server, remote_user=role, password=password, extensions=("postgres_fdw", "dblink"))
    o = Owner(r, server, role)
    o.remote.conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    o.load("t", [(1, "a", [1.0]), (2, "b", [2.0]), (3, "a", [1.0])])
    o.release("'t', 'label', 'attrs', 1", dest=table, schema=schema)
    db.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(local)))
    db.execute(sql.SQL("IMPORT FOREIGN SCHEMA {} FROM SERVER {} INTO {}").format(
        sql.Identifier(schema), sql.Identifier(server), sql.Identifier(local)))
    local_name = sql.Identifier(local, table).as_string(db)
    remote_name = sql.Identifier(schema, table).as_string(db)
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY[%s], 'fp', NULL, 'cp')", (local_name,))
    db.execute("SELECT madnb.create_nb_federated_tables(ARRAY[%s], %s, 'fp2', NULL, 'cp2')", (sql.Identifier(server).as_string(db), remote_name))
    assert db.execute("SELECT class, class_cnt FROM cp ORDER BY 1").fetchall() == [("a", 2), ("b", 1)]
    assert model(db, "fp", None, "cp") == model(db, "fp2", None, "cp2")


# --- the walkthrough in docs/federation.md, as written --------------------------------------

DOC = ROOT / "docs" / "federation.md"
_BLOCK = re.compile(r"<!-- run on: (each owner|aggregator) -->\s*```sql\n(.*?)```", re.S)
_SERVER_OPTIONS = re.compile(r"host '(owner[123])\.example\.com', port '5432', dbname 'sales'")


def test_the_federation_walkthrough_in_the_docs_runs_as_written_and_equals_centralised_training(db, remote_dbs):
    # the federated walkthrough: the secure aggregation one after it runs in tests/docs/test_docs_examples.py
    blocks = _BLOCK.findall(DOC.read_text(encoding="utf-8").split("\n## Secure aggregation\n")[0])
    assert [where for where, _ in blocks] == ["each owner"] + ["aggregator"] * 5
    reader = "federation_reader_" + secrets.token_hex(3)  # roles outlive a test on the session's clusters
    where = {f"owner{i}": r for i, r in enumerate(remote_dbs, start=1)}
    rng = np.random.default_rng(3)
    union = []
    for i, r in enumerate(remote_dbs):
        rows_ = [(100 * i + j, "ab"[j % 2], [float(j % 3), float(j % 4 // 2), float(rng.normal(j % 2, 1))]) for j in range(60)]
        r.install_madnb()
        load(r.conn, "sales", rows_, ("id", "class", "attributes"))
        union += rows_
    load(db, "central", union)
    load(db, "new_sales", union[::7], ("id", "class", "attributes"))

    def server_options(m: re.Match[str]) -> str:
        r = where[m.group(1)]
        return f"host '{r.host}', port '{r.port}', dbname '{r.dbname}'"

    for kind, text in blocks:
        text = _SERVER_OPTIONS.sub(server_options, text.replace("federation_reader", reader))
        for conn in [r.conn for r in remote_dbs] if kind == "each owner" else [db]:
            conn.execute(text)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('central', 'label', 'attrs', '3', 3, 'fp', 'np', 'cp')")
    assert_same_model(db, ("sales_fp", "sales_np", "sales_cp"), ("fp", "np", "cp"))
    assert_same_model(db, ("sales_fed_fp", "sales_fed_np", "sales_fed_cp"), ("fp", "np", "cp"))
    assert db.execute("SELECT count(*) FROM sales_classified").fetchone()[0] == len(union[::7])
    # the named model made from the same owners' statistics: the centralised model's probabilities
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'new_sales', 'id', 'attributes', 3, 'np', 'central_probs')")
    pairs = db.execute(
        "SELECT p.nb_prob, (madnb_models.sales_nb_predict_proba(region => n.attributes[1], channel => n.attributes[2], "
        "amount => n.attributes[3]) ->> p.class)::float8 FROM central_probs p JOIN new_sales n ON n.id = p.key"
    ).fetchall()
    assert len(pairs) == 2 * len(union[::7]) and all(abs(a - b) <= 1e-9 * a for a, b in pairs)


def test_a_federated_training_reports_each_server_it_pulled_when_the_session_asks(db, owners):
    for o in owners:
        o.load("t", [(1, "a", [1.0]), (2, "b", [2.0])])
        o.release("'t', 'label', 'attrs', 1")
    events: list[str] = []

    def handler(d: psycopg.errors.Diagnostic) -> None:
        if (d.message_primary or "").startswith("madnb progress: "):
            events.append(json.loads(d.message_detail or "{}")["phase"])

    db.add_notice_handler(handler)
    db.execute("SET madnb.progress = on")
    try:
        db.execute("SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'public.stats', 'fp', NULL, 'cp')")
    finally:
        db.execute("RESET madnb.progress")
        db.remove_notice_handler(handler)
    assert events == ["server 1 of 3 (owner1)", "server 2 of 3 (owner2)", "server 3 of 3 (owner3)", "done"]

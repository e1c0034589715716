"""Secure aggregation across real servers (issue 20, part 1).

Three owners (``remote_dbs``, one cluster each), two aggregation servers (a
database of their own on the first two remote clusters) and the analyst (the
session's cluster, ``db``).  Each party reaches the next through postgres_fdw
servers and user mappings that log in as a role allowed to read one table: an
aggregation server's role on an owner reads that owner's share of its index
and nothing else; the analyst's role on an aggregation server reads its share
sum.  The reference is plain federated training on the same owners
(``create_nb_federated_tables``) and the numbers of the owners' rows (numpy).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg import sql

from helpers import relations, sqlstate_of
from remote import RemoteDb, create_remote_db, drop_remote_db, link_server

CLASSES = ("a", "b")
DOMAIN = [(0, "a"), (0, "b"), (1, "0"), (1, "1"), (1, "2"), (1, "3")]


def owner_rows(seed: int, n: int) -> list[tuple[int, str, list[float]]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        cls = rng.choice(CLASSES)
        x = round(rng.gauss(1.0 if cls == "a" else 4.0, 1.25), 6)
        out.append((seed * 1000 + i, cls, [float(rng.randrange(3)), min(9.9, max(-4.9, x))]))
    return out


@dataclass
class Party:
    db: RemoteDb
    readers: list[tuple[str, str]]  # (role, password) per aggregation server: reads that share only


@dataclass
class Federation:
    owners: list[Party]
    servers: list[RemoteDb]
    rows: list[tuple[int, str, list[float]]]
    analysts: list[str]  # the analyst's role on each aggregation server


@pytest.fixture
def federation(db: psycopg.Connection[Any], remote_dbs: list[RemoteDb]) -> Iterator[Federation]:
    """Owners with their shares granted one per aggregation server; both servers' share sums; the analyst linked."""
    servers = [create_remote_db(remote_dbs[0].cluster), create_remote_db(remote_dbs[1].cluster)]
    try:
        owners, rows, analysts = [], [], []
        for i, r in enumerate(remote_dbs, start=1):
            r.install_madnb()
            data = owner_rows(i, 30 + 20 * i)
            rows += data
            r.conn.execute("CREATE TABLE sales (id int, class text, attributes float8[])")
            with r.conn.cursor() as cur:
                cur.executemany("INSERT INTO sales VALUES (%s, %s, %s)", data)
                r.conn.execute("CREATE TABLE sales_domain (attr int, value text)")
                cur.executemany("INSERT INTO sales_domain VALUES (%s, %s)", DOMAIN)
            r.conn.execute(
                "SELECT madnb.create_nb_statistics_shares('sales', 'class', 'attributes', '2', 2, ARRAY['share_1', 'share_2'], "
                "bounds => '{-5,10}', domain => 'sales_domain', owners => 3)"
            )
            readers = [r.login_role(prefix=f"aggregation{j}_") for j in (1, 2)]
            for j, (role, _) in enumerate(readers, start=1):
                r.conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(sql.Identifier(f"share_{j}"), sql.Identifier(role)))
            owners.append(Party(r, readers))
        for j, s in enumerate(servers, start=1):
            s.install_madnb()
            for i, o in enumerate(owners, start=1):
                role, password = o.readers[j - 1]
                link_server(s.conn, o.db, f"owner{i}", remote_user=role, password=password, extensions=("postgres_fdw", "dblink"))
            s.conn.execute(
                f"SELECT madnb.create_nb_share_sum(ARRAY['owner1:public.share_{j}', 'owner2:share_{j}', 'owner3:share_{j}'], 'share_sum')"
            )
            role, password = s.login_role(prefix="analyst_")
            analysts.append(role)
            s.conn.execute(sql.SQL("GRANT SELECT ON share_sum TO {}").format(sql.Identifier(role)))
            link_server(db, s, f"aggregation{j}", remote_user=role, password=password, extensions=("postgres_fdw", "dblink"))
        yield Federation(owners, servers, rows, analysts)
    finally:
        for s in servers:
            drop_remote_db(s)


def as_role(r: RemoteDb, role: str, password: str) -> psycopg.Connection[Any]:
    return psycopg.connect(host=r.host, port=r.port, dbname=r.dbname, user=role, password=password, autocommit=True)


def test_an_aggregation_servers_role_reads_its_own_share_and_nothing_else(federation: Federation) -> None:
    for o in federation.owners:
        for j, (role, password) in enumerate(o.readers, start=1):
            with as_role(o.db, role, password) as conn:
                assert conn.execute(f"SELECT count(*) FROM share_{j}").fetchone() == (2 * (1 + 4 + 1),)
                for other in (f"share_{3 - j}", "sales", "sales_domain"):
                    e = sqlstate_of(conn, f"SELECT count(*) FROM {other}")
                    assert e.diag.sqlstate == "42501", other


def test_an_aggregation_server_cannot_sum_a_share_it_was_not_granted(federation: Federation) -> None:
    s = federation.servers[0]
    before = relations(s.conn)
    e = sqlstate_of(s.conn, "SELECT madnb.create_nb_share_sum(ARRAY['owner1:share_2', 'owner2:share_2'], 'other')")
    assert e.diag.sqlstate == "42501"
    assert e.diag.message_primary.startswith('server "owner1" failed to send its shares for shareSources[1]: permission denied')
    assert relations(s.conn) == before
    assert s.conn.execute("SELECT public.dblink_get_connections()").fetchone() == (None,)


def _model(db: psycopg.Connection[Any], m: str) -> dict[str, list[tuple[Any, ...]]]:
    return {
        "cp": sorted(db.execute(f"SELECT class, class_cnt, all_cnt FROM {m}_cp").fetchall()),
        "fp": sorted(db.execute(f"SELECT class, attr, value, cnt, attr_cnt FROM {m}_fp").fetchall()),
        "np": sorted(db.execute(f"SELECT class, attr, attr_mean, attr_var, value_cnt FROM {m}_np").fetchall()),
    }


def test_the_model_from_the_servers_share_sums_is_plain_federated_trainings_within_1e_9(db, federation: Federation) -> None:
    db.execute("SELECT madnb.create_nb_model_from_shares(ARRAY['aggregation1:share_sum', 'aggregation2:share_sum'], 'sec_fp', 'sec_np', 'sec_cp')")
    # plain federated training on the same owners: exact statistics, read by a role allowed that table only
    for i, o in enumerate(federation.owners, start=1):
        o.db.conn.execute("SELECT madnb.create_nb_statistics('sales', 'class', 'attributes', '2', 2, 'stats')")
        role, password = o.db.login_role(prefix="plain_")
        o.db.conn.execute(sql.SQL("GRANT SELECT ON stats TO {}").format(sql.Identifier(role)))
        link_server(db, o.db, f"owner{i}", remote_user=role, password=password, extensions=("postgres_fdw", "dblink"))
    db.execute("SELECT madnb.create_nb_federated_tables(ARRAY['owner1', 'owner2', 'owner3'], 'stats', 'fed_fp', 'fed_np', 'fed_cp')")
    got, want = _model(db, "sec"), _model(db, "fed")
    assert got["cp"] == want["cp"] and got["fp"] == want["fp"] and len(got["np"]) == len(want["np"]) == 2
    for g, w in zip(got["np"], want["np"], strict=True):
        assert g[:2] == w[:2] and g[4] == w[4]
        assert abs(g[2] - w[2]) <= 1e-11 * abs(w[2]) and abs(g[3] - w[3]) <= 1e-10 * w[3], (g, w)
    # ... and the class means and sample variances of the owners' rows
    for cls, _, mean, var, n in got["np"]:
        x = np.array([r[2][1] for r in federation.rows if r[1] == cls])
        assert n == len(x) and abs(mean - np.mean(x)) <= 1e-11 * abs(np.mean(x)) and abs(var - np.var(x, ddof=1)) <= 1e-10 * var
    # the probabilities of both models, row by row
    db.execute("CREATE TABLE new_sales (id int, attributes float8[])")
    db.execute("INSERT INTO new_sales SELECT i, ARRAY[i % 3, (i % 17) * 0.7 - 3] FROM generate_series(1, 50) AS i")
    for m in ("sec", "fed"):
        db.execute(f"SELECT madnb.create_nb_probs_view('{m}_fp', '{m}_cp', 'new_sales', 'id', 'attributes', 2, '{m}_np', '{m}_probs')")
    pairs = db.execute("SELECT s.nb_prob, f.nb_prob FROM sec_probs s JOIN fed_probs f ON f.key = s.key AND f.class = s.class").fetchall()
    assert len(pairs) == 100 and all(abs(a - b) <= 1e-9 * b for a, b in pairs)


def test_a_share_sum_holds_what_the_owners_shares_add_up_to_and_no_owners_statistics(db, federation: Federation) -> None:
    p = (1 << 127) - 1
    sums = [dict(((c, a, v), int(n)) for c, a, v, n in s.conn.execute("SELECT cls, attr, value, n FROM share_sum").fetchall())
            for s in federation.servers]
    counts = {c: sum(1 for r in federation.rows if r[1] == c) for c in CLASSES}
    for c in CLASSES:
        assert (sums[0][(c, 0, None)] + sums[1][(c, 0, None)]) % p == counts[c]
        assert sums[0][(c, 0, None)] != counts[c] and sums[1][(c, 0, None)] != counts[c]


def test_a_tampered_header_on_an_owner_is_refused_by_the_aggregation_server_naming_the_part(federation: Federation) -> None:
    owner = federation.owners[1].db.conn
    comment = owner.execute("SELECT obj_description('share_1'::regclass, 'pg_class')").fetchone()[0]
    assert comment.count('"expected_owners": 3,') == 1
    owner.execute(sql.SQL("COMMENT ON TABLE share_1 IS {}").format(sql.Literal(comment.replace('"expected_owners": 3', '"expected_owners": 30'))))
    s = federation.servers[0]
    before = relations(s.conn)
    e = sqlstate_of(s.conn, "SELECT madnb.create_nb_share_sum(ARRAY['owner1:share_1', 'owner2:share_1', 'owner3:share_1'], 'again')")
    assert e.diag.sqlstate == "22023"
    assert e.diag.message_primary == "shareSources[2] public.share_1 on server owner2 has a tampered share header"
    assert relations(s.conn) == before
    assert s.conn.execute("SELECT public.dblink_get_connections()").fetchone() == (None,)


def test_an_owner_listed_twice_at_an_aggregation_server_is_refused(federation: Federation) -> None:
    s = federation.servers[1]
    e = sqlstate_of(s.conn, "SELECT madnb.create_nb_share_sum(ARRAY['owner1:share_2', 'owner2:share_2', 'owner1:share_2'], 'again')")
    assert e.diag.sqlstate == "22023"
    assert e.diag.message_primary == "shareSources[3] (public.share_2 on server owner1) holds the shares of an owner that shareSources[1] holds"


def test_the_analyst_refuses_one_servers_share_sum_twice(db, federation: Federation) -> None:
    before = relations(db) | relations(db, "madnb_statistics")
    e = sqlstate_of(db, "SELECT madnb.create_nb_model_from_shares(ARRAY['aggregation1:share_sum', 'aggregation1:share_sum'], 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023"
    assert e.diag.message_primary == "shareSumSources[2] (public.share_sum on server aggregation1) is share sum 1 again"
    assert relations(db) | relations(db, "madnb_statistics") == before


def test_a_share_read_through_a_foreign_table_sums_as_the_same_share_over_dblink(federation: Federation) -> None:
    s = federation.servers[0].conn
    s.execute("CREATE SCHEMA ft")
    s.execute("IMPORT FOREIGN SCHEMA public LIMIT TO (share_1) FROM SERVER owner2 INTO ft")
    s.execute("SELECT madnb.create_nb_share_sum(ARRAY['owner1:share_1', 'ft.share_1', 'owner3:share_1'], 'via_foreign')")
    q = "SELECT cls, attr, value, n, s1, s2 FROM {} ORDER BY cls, attr, value NULLS FIRST"
    assert s.execute(q.format("via_foreign")).fetchall() == s.execute(q.format("share_sum")).fetchall()


def test_private_shares_across_servers_in_either_noise_mode_are_charged_once_to_each_owners_own_ledger_and_to_nobody_else(
    db, federation: Federation,
) -> None:
    # noise 'each' (pshare: each server adds a release's noise) and 'once' (oshare: server 1 adds, server 2 subtracts
    # half of one release's noise), through the same servers and roles
    for o in federation.owners:
        for prefix, noise in (("pshare", "each"), ("oshare", "once")):
            o.db.conn.execute(
                "SELECT madnb.create_nb_statistics_shares('sales', 'class', 'attributes', '2', 2, "
                f"ARRAY['{prefix}_1', '{prefix}_2'], epsilon => 1, bounds => '{{-5,10}}', domain => 'sales_domain', owners => 3, "
                f"noise => '{noise}')"
            )
            for j, (role, _) in enumerate(o.readers, start=1):
                o.db.conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(sql.Identifier(f"{prefix}_{j}"), sql.Identifier(role)))
    for prefix, dest in (("pshare", "psum"), ("oshare", "osum")):
        for j, s in enumerate(federation.servers, start=1):
            s.conn.execute(
                f"SELECT madnb.create_nb_share_sum(ARRAY['owner1:{prefix}_{j}', 'owner2:{prefix}_{j}', 'owner3:{prefix}_{j}'], '{dest}')"
            )
            s.conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(sql.Identifier(dest), sql.Identifier(federation.analysts[j - 1])))
        db.execute(f"SELECT madnb.create_nb_model_from_shares(ARRAY['aggregation1:{dest}', 'aggregation2:{dest}'], "
                   f"'{dest}_fp', '{dest}_np', '{dest}_cp')")
        assert db.execute(f"SELECT count(*) FROM {dest}_cp").fetchone() == (2,)
    sums = [json.loads(s.conn.execute("SELECT obj_description('osum'::regclass, 'pg_class')").fetchone()[0][len("madnb share "):])
            for s in federation.servers]
    assert [h["noise_mode"] for h in sums] == ["once", "once"]
    assert "added by this aggregation server" in sums[0]["noise"] and "subtracted by this" in sums[1]["noise"]
    per_query = set()
    for o in federation.owners:
        rows = o.db.conn.execute("SELECT table_name, epsilon, parameters FROM madnb.privacy_ledger ORDER BY release_id").fetchall()
        assert [(t, float(e)) for t, e, _ in rows] == [("sales", 1.0), ("sales", 1.0)]
        assert [p.get("noise_mode") for _, _, p in rows] == ["each", "once"]
        per_query |= {p["epsilon_per_query"] for _, _, p in rows}
    for conn in [s.conn for s in federation.servers] + [db]:
        assert conn.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone() == (0,)
    (eps_prime,) = per_query

    def floor_epsilon(model: str) -> float:
        comment = db.execute(f"""SELECT obj_description('madnb_statistics."public.{model}_fp"'::regclass, 'pg_class')""").fetchone()[0]
        return float(json.loads(comment[len("madnb statistics "):])["epsilon_per_query"])

    # the variance floor: one release's epsilon' with noise 'once', that of twice the variance with 'each'
    assert floor_epsilon("osum") == eps_prime and abs(floor_epsilon("psum") - eps_prime / np.sqrt(2)) < 1e-15


def owner_statistics(db: psycopg.Connection[Any], federation: Federation) -> None:
    """The owners' exact statistics (table stats), each read by a role allowed that table only, linked as owner1..3."""
    for i, o in enumerate(federation.owners, start=1):
        o.db.conn.execute("SELECT madnb.create_nb_statistics('sales', 'class', 'attributes', '2', 2, 'stats')")
        role, password = o.db.login_role(prefix="plain_")
        o.db.conn.execute(sql.SQL("GRANT SELECT ON stats TO {}").format(sql.Identifier(role)))
        link_server(db, o.db, f"owner{i}", remote_user=role, password=password, extensions=("postgres_fdw", "dblink"))


def test_named_models_from_the_servers_share_sums_and_from_the_owners_statistics_predict_as_madnb_train_on_their_rows(
    db, federation: Federation,
) -> None:
    owner_statistics(db, federation)
    before = relations(db)
    db.execute("SELECT madnb.train_from_statistics('from_shares', ARRAY['aggregation1:share_sum', 'aggregation2:share_sum'], ARRAY['colour', 'x'])")
    db.execute("SELECT madnb.train_from_statistics('from_owners', ARRAY['owner1:stats', 'owner2:public.stats', 'owner3:stats'], ARRAY['colour', 'x'])")
    assert relations(db) == before and db.execute("SELECT public.dblink_get_connections()").fetchone() == (None,)
    # the reference: madnb.train on the union of the owners' rows, as ordinary columns
    db.execute("CREATE TABLE all_sales (id int, class text, colour int, x float8)")
    with db.cursor() as cur:
        cur.executemany("INSERT INTO all_sales VALUES (%s, %s, %s, %s)", [(i, c, int(a[0]), a[1]) for i, c, a in federation.rows])
    db.execute("SELECT madnb.train('union_nb', 'all_sales', 'class', exclude => ARRAY['id'], categorical => ARRAY['colour'])")
    db.execute("CREATE TABLE new_sales (id int, colour int, x float8)")
    db.execute("INSERT INTO new_sales SELECT i, i % 4, (i % 17) * 0.7 - 3 FROM generate_series(1, 60) AS i")  # colour 3: unseen
    for m in ("from_shares", "from_owners"):
        rows = db.execute(
            f"SELECT madnb_models.{m}_predict(t), madnb_models.union_nb_predict(t), madnb_models.{m}_predict_proba_array(t), "
            "madnb_models.union_nb_predict_proba_array(t) FROM new_sales t ORDER BY t.id"
        ).fetchall()
        assert len(rows) == 60
        for got, want, p, q in rows:
            assert got == want and all(abs(a - b) <= 1e-9 * b for a, b in zip(p, q, strict=True)), (m, p, q)
    sources = dict(db.execute("SELECT name, source FROM madnb.models WHERE name LIKE 'from%'").fetchall())
    assert sources == {"from_shares": "aggregation1:share_sum, aggregation2:share_sum",
                       "from_owners": "owner1:stats, owner2:public.stats, owner3:stats"}
    db.execute("SELECT madnb.drop_model('from_owners')")
    assert all(o.db.conn.execute("SELECT to_regclass('stats') IS NOT NULL").fetchone() == (True,) for o in federation.owners)


def test_a_named_model_from_foreign_tables_is_the_one_over_dblink_and_a_failed_call_leaves_nothing_here_or_open(
    db, federation: Federation,
) -> None:
    owner_statistics(db, federation)
    for i in (1, 2):
        db.execute(f"CREATE SCHEMA o{i}")
        db.execute(f"IMPORT FOREIGN SCHEMA public LIMIT TO (stats) FROM SERVER owner{i} INTO o{i}")
    db.execute("SELECT madnb.train_from_statistics('via_foreign', ARRAY['o1.stats', 'o2.stats', 'owner3:stats'], ARRAY['colour', 'x'])")
    db.execute("SELECT madnb.train_from_statistics('via_dblink', ARRAY['owner1:stats', 'owner2:stats', 'owner3:stats'], ARRAY['colour', 'x'])")
    q = "SELECT cls, attr, value, n, nv, mean, var FROM {} ORDER BY cls, attr, value NULLS FIRST"
    kept = dict(db.execute("SELECT name, statistics FROM madnb.models").fetchall())
    assert db.execute(q.format(kept["via_foreign"])).fetchall() == db.execute(q.format(kept["via_dblink"])).fetchall()
    before = relations(db), relations(db, "madnb_statistics"), relations(db, "madnb_models")
    cases = [
        ("ARRAY['owner1:stats', 'owner2:no_such_table']", "42P01"),
        ("ARRAY['owner1:stats', 'o1.stats']", "22023"),  # one owner's release twice
        ("ARRAY['owner1:stats', 'aggregation1:share_sum', 'aggregation2:share_sum']", "22023"),  # statistics and share sums
        ("ARRAY['no_such_server:stats']", "42704"),
        ("ARRAY['owner1:sales']", "22023"),  # the owner's rows: not a statistics table (refused before any row is read)
    ]
    for arr, state in cases:
        e = sqlstate_of(db, f"SELECT madnb.train_from_statistics('failed', {arr})")
        assert e.diag.sqlstate == state, (arr, e.diag.sqlstate, e.diag.message_primary)
        assert (relations(db), relations(db, "madnb_statistics"), relations(db, "madnb_models")) == before
        assert db.execute("SELECT public.dblink_get_connections()").fetchone() == (None,)

"""Secure aggregation in one database (issue 20, part 1): shares, share sums and the reconstructed model.

Owners, aggregation servers and the analyst are tables of one database here,
so that every check is quick to state; tests/federation/test_secure_servers.py
runs the same steps on real separate servers with their own roles.  Expected
numbers come from the owners' rows (numpy) and from plain merging of the
owners' exact statistics (``create_nb_model_from_statistics``).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
import psycopg
import pytest
from scipy import stats as scipy_stats

from helpers import relations, sqlstate_of

P = (1 << 127) - 1
K = 1 << 40
BOUNDS = "'{-10,10}'"
CLASSES = ("a", "b", "c")
COLOURS = ("red", "green", "blue", "grey")  # 'grey' is in the domain and in no row


def owner_rows(seed: int, n: int) -> list[tuple[int, str, list[float]]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        cls = rng.choice(CLASSES)
        colour = float(rng.randrange(3))  # codes 0..2 of red, green, blue
        size = float(rng.randrange(2))
        x = round(rng.gauss({"a": -2.0, "b": 0.5, "c": 3.0}[cls], 1.5), 6)
        out.append((seed * 1000 + i, cls, [colour, size, max(-9.5, min(9.5, x))]))
    return out


def make_owner(db: psycopg.Connection[Any], name: str, rows: list[tuple[int, str, list[float]]]) -> None:
    db.execute(f"CREATE TABLE {name} (id int, class text, attributes float8[])")
    with db.cursor() as cur:
        cur.executemany(f"INSERT INTO {name} VALUES (%s, %s, %s)", rows)


def make_domain(db: psycopg.Connection[Any], name: str = "dom") -> None:
    db.execute(f"CREATE TABLE {name} (attr int, value text)")
    values = [(0, c) for c in CLASSES] + [(1, str(v)) for v in range(4)] + [(2, "0"), (2, "1")]
    with db.cursor() as cur:
        cur.executemany(f"INSERT INTO {name} VALUES (%s, %s)", values)


def shares(db: psycopg.Connection[Any], owner: str, dests: list[str], extra: str = "") -> None:
    arr = "ARRAY[" + ", ".join(f"'{d}'" for d in dests) + "]"
    db.execute(
        f"SELECT madnb.create_nb_statistics_shares('{owner}', 'class', 'attributes', '3', 3, {arr}, "
        f"bounds => {BOUNDS}, domain => 'dom'{extra})"
    )


@pytest.fixture
def federation(db: psycopg.Connection[Any]) -> dict[str, list[tuple[int, str, list[float]]]]:
    """Three owners' tables, the public domain, each owner's two shares, and each aggregation server's share sum."""
    make_domain(db)
    data = {f"owner{i}": owner_rows(i, 40 + 15 * i) for i in (1, 2, 3)}
    for name, rows in data.items():
        make_owner(db, name, rows)
        shares(db, name, [f"{name}_share1", f"{name}_share2"])
    for j in (1, 2):
        srcs = ", ".join(f"'{o}_share{j}'" for o in data)
        db.execute(f"SELECT madnb.create_nb_share_sum(ARRAY[{srcs}], 'sum{j}')")
    return data


def model_rows(db: psycopg.Connection[Any], fp: str, np_: str, cp: str) -> dict[str, list[tuple[Any, ...]]]:
    return {
        "cp": sorted(db.execute(f"SELECT class, class_cnt, all_cnt FROM {cp}").fetchall()),
        "fp": sorted(db.execute(f"SELECT class, attr, value, cnt, attr_cnt FROM {fp}").fetchall()),
        "np": sorted(db.execute(f"SELECT class, attr, attr_mean, attr_var, value_cnt FROM {np_}").fetchall()),
    }


def close(a: float, b: float, tol: float = 1e-9) -> bool:
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def test_the_model_from_shares_is_the_model_of_the_owners_statistics_merged_in_the_clear(db, federation):
    db.execute("SELECT madnb.create_nb_model_from_shares(ARRAY['sum1', 'sum2'], 'sec_fp', 'sec_np', 'sec_cp')")
    for name in federation:
        db.execute(f"SELECT madnb.create_nb_statistics('{name}', 'class', 'attributes', '3', 3, '{name}_stats')")
    db.execute(
        "SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1_stats', 'owner2_stats', 'owner3_stats'], 'fed_fp', 'fed_np', 'fed_cp')"
    )
    got, want = model_rows(db, "sec_fp", "sec_np", "sec_cp"), model_rows(db, "fed_fp", "fed_np", "fed_cp")
    assert got["cp"] == want["cp"] and got["fp"] == want["fp"]
    assert len(got["np"]) == len(want["np"]) == 3
    for g, w in zip(got["np"], want["np"], strict=True):
        assert g[:2] == w[:2] and g[4] == w[4] and close(g[2], w[2], 1e-11) and close(g[3], w[3], 1e-10), (g, w)


def test_the_model_from_shares_has_the_class_means_and_sample_variances_of_the_owners_rows(db, federation):
    db.execute("SELECT madnb.create_nb_model_from_shares(ARRAY['sum2', 'sum1'], 'sec_fp', 'sec_np', 'sec_cp')")
    rows = [r for rs in federation.values() for r in rs]
    got = {c: (m, v, n) for c, _, m, v, n in db.execute("SELECT class, attr, attr_mean, attr_var, value_cnt FROM sec_np").fetchall()}
    for cls in CLASSES:
        x = np.array([r[2][2] for r in rows if r[1] == cls])
        m, v, n = got[cls]
        assert n == len(x) and close(m, float(np.mean(x)), 1e-11) and close(v, float(np.var(x, ddof=1)), 1e-10), cls
    priors = dict(db.execute("SELECT class, class_cnt FROM sec_cp").fetchall())
    assert priors == {c: sum(1 for r in rows if r[1] == c) for c in CLASSES}


def test_the_probabilities_of_the_model_from_shares_are_the_plain_merges_within_1e_9(db, federation):
    db.execute("SELECT madnb.create_nb_model_from_shares(ARRAY['sum1', 'sum2'], 'sec_fp', 'sec_np', 'sec_cp')")
    for name in federation:
        db.execute(f"SELECT madnb.create_nb_statistics('{name}', 'class', 'attributes', '3', 3, '{name}_stats')")
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['owner1_stats', 'owner2_stats', 'owner3_stats'], 'fed_fp', 'fed_np', 'fed_cp')")
    db.execute("CREATE TABLE new_rows AS SELECT id, attributes FROM owner1 UNION ALL SELECT id, attributes FROM owner3")
    for m in ("sec", "fed"):
        db.execute(f"SELECT madnb.create_nb_probs_view('{m}_fp', '{m}_cp', 'new_rows', 'id', 'attributes', 3, '{m}_np', '{m}_probs')")
    pairs = db.execute(
        "SELECT s.nb_prob, f.nb_prob FROM sec_probs AS s JOIN fed_probs AS f ON f.key = s.key AND f.class = s.class"
    ).fetchall()
    assert len(pairs) == 3 * (55 + 85)
    assert all(abs(a - b) <= 1e-9 * b for a, b in pairs)


def test_a_share_sum_holds_every_cell_of_the_public_domain_zeros_included(db, federation):
    # 3 classes x (1 class count + 4 colours + 2 sizes + 1 numeric attribute)
    assert db.execute("SELECT count(*) FROM sum1").fetchone() == (3 * 8,)
    assert db.execute("SELECT count(*) FROM owner1_share1").fetchone() == (3 * 8,)
    db.execute("SELECT madnb.create_nb_model_from_shares(ARRAY['sum1', 'sum2'], 'sec_fp', 'sec_np', 'sec_cp')")
    # the model holds the values seen, as an exact release does: 'grey' (code 3) is in no row
    assert db.execute("SELECT count(*) FROM sec_fp WHERE attr = 1 AND value = 3").fetchone() == (0,)


def test_the_shares_of_a_cell_add_up_to_its_statistics_modulo_p_and_are_none_of_them_the_statistics(db, federation):
    rows = federation["owner1"]
    got = db.execute(
        "SELECT a.cls, a.attr, a.value, a.n, b.n, a.s1, b.s1, a.s2, b.s2 FROM owner1_share1 AS a JOIN owner1_share2 AS b "
        "ON b.cls = a.cls AND b.attr = a.attr AND b.value IS NOT DISTINCT FROM a.value"
    ).fetchall()
    assert len(got) == 24
    for cls, attr, value, n1, n2, a1, b1, a2, b2 in got:
        members = [r for r in rows if r[1] == cls]
        if attr == 0:
            want = len(members)
        elif attr in (1, 2):
            want = sum(1 for r in members if r[2][attr - 1] == value)
        else:
            z = [max(-K, min(K, round(r[2][2] * (K / 10)))) for r in members]
            want = len(z)
            assert (int(a1) + int(b1)) % P == sum(z) % P
            assert (int(a2) + int(b2)) % P == sum(v * v for v in z) % P
        assert (int(n1) + int(n2)) % P == want % P
        assert int(n1) != want and int(n2) != want


def test_each_share_alone_is_uniform_modulo_p_by_a_chi_square_test_over_many_cells(db):
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom SELECT 0, c FROM unnest(ARRAY['a', 'b']) AS c UNION ALL SELECT 1, v::text FROM generate_series(0, 1499) AS v")
    db.execute("CREATE TABLE t (id int, class text, attributes float8[])")
    db.execute("INSERT INTO t SELECT i, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END, ARRAY[i % 7] FROM generate_series(1, 200) AS i")
    db.execute("SELECT madnb.create_nb_statistics_shares('t', 'class', 'attributes', 1, ARRAY['s1', 's2', 's3'], domain => 'dom')")
    bins = 20
    for share in ("s1", "s2", "s3"):
        residues = [int(n) for (n,) in db.execute(f"SELECT n FROM {share}").fetchall()]
        assert len(residues) == 2 * 1501
        counts = np.bincount([r * bins // P for r in residues], minlength=bins)
        assert scipy_stats.chisquare(counts).pvalue > 1e-6, (share, counts)
        assert all(0 <= r < P for r in residues)


def _header(db: psycopg.Connection[Any], table: str) -> dict[str, Any]:
    comment = db.execute("SELECT obj_description(%s::regclass, 'pg_class')", (table,)).fetchone()[0]
    assert comment.startswith("madnb share ")
    return json.loads(comment[len("madnb share "):])


def _set_header(db: psycopg.Connection[Any], table: str, fields: dict[str, Any], reseal: bool) -> None:
    if reseal:  # a header whose digest matches its fields: only the check of the field itself can refuse it
        body = {k: v for k, v in fields.items() if k != "digest"}
        fields = {**body, "digest": hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()}
    db.execute(f"COMMENT ON TABLE {table} IS " + "'madnb share " + json.dumps(fields, sort_keys=True).replace("'", "''") + "'")


def test_a_share_header_records_the_release_its_index_m_the_modulus_the_scale_and_a_random_owner(db, federation):
    h1, h2 = _header(db, "owner1_share1"), _header(db, "owner1_share2")
    assert (h1["kind"], h1["share_index"], h2["share_index"], h1["shares"], h1["modulus"]) == ("share", 1, 2, 2, str(P))
    assert h1["statistics"]["fixed_point_scale"] == K and h1["statistics"]["bounds"] == [[3, -10.0, 10.0]]
    assert h1["statistics"]["domain"] == "public.dom" and h1["statistics"] == h2["statistics"]
    assert h1["owners"] == h2["owners"] and len(h1["owners"][0]) == 32
    assert h1["owners"] != _header(db, "owner2_share1")["owners"]
    s = _header(db, "sum1")
    assert s["kind"] == "share sum" and s["share_index"] == 1 and len(s["owners"]) == 3


def _refused(db: psycopg.Connection[Any], query: str, state: str = "22023") -> psycopg.Error:
    before = relations(db) | relations(db, "madnb_statistics")
    e = sqlstate_of(db, query)
    assert e.diag.sqlstate == state, e.diag.message_primary
    assert relations(db) | relations(db, "madnb_statistics") == before
    return e


def test_a_share_sum_of_shares_of_two_indices_is_refused_naming_the_part(db, federation):
    e = _refused(db, "SELECT madnb.create_nb_share_sum(ARRAY['owner1_share1', 'owner2_share2'], 'bad')")
    assert e.diag.message_primary == "shareSources[2] (public.owner2_share2) is share 2 of its release, shareSources[1] (public.owner1_share1) is share 1"


def test_a_share_sum_listing_an_owner_twice_is_refused(db, federation):
    e = _refused(db, "SELECT madnb.create_nb_share_sum(ARRAY['owner1_share1', 'owner2_share1', 'owner1_share1'], 'bad')")
    assert e.diag.message_primary == "shareSources[3] (public.owner1_share1) holds the shares of an owner that shareSources[1] holds"


def test_shares_released_with_other_bounds_are_refused_as_mismatched_parameters(db, federation):
    db.execute("SELECT madnb.create_nb_statistics_shares('owner2', 'class', 'attributes', '3', 3, ARRAY['o2b_1', 'o2b_2'], "
               "bounds => '{-20,20}', domain => 'dom')")
    e = _refused(db, "SELECT madnb.create_nb_share_sum(ARRAY['owner1_share1', 'o2b_1'], 'bad')")
    assert e.diag.message_primary == "shareSources[2] (public.o2b_1) does not have the release parameters of shareSources[1] (public.owner1_share1)"
    assert e.diag.message_detail.startswith("its bounds is [[3, -20.0, 20.0]]")


def test_shares_of_releases_sized_for_other_owner_counts_are_refused(db, federation):
    shares(db, "owner2", ["o2c_1", "o2c_2"], ", owners => 3")
    e = _refused(db, "SELECT madnb.create_nb_share_sum(ARRAY['owner1_share1', 'o2c_1'], 'bad')")
    assert e.diag.message_detail == "its owners is 3, shareSources[1]'s is None"


def test_a_tampered_share_header_is_refused_naming_the_part(db, federation):
    h = _header(db, "owner2_share1")
    h["statistics"]["bounds"] = [[3, -20.0, 20.0]]
    _set_header(db, "owner2_share1", h, reseal=False)
    e = _refused(db, "SELECT madnb.create_nb_share_sum(ARRAY['owner1_share1', 'owner2_share1'], 'bad')")
    assert e.diag.message_primary == "shareSources[2] public.owner2_share1 has a tampered share header"


def test_a_share_of_another_modulus_is_refused_even_with_a_consistent_header(db, federation):
    h = _header(db, "owner2_share1")
    h["modulus"] = str((1 << 61) - 1)
    _set_header(db, "owner2_share1", h, reseal=True)
    e = _refused(db, "SELECT madnb.create_nb_share_sum(ARRAY['owner1_share1', 'owner2_share1'], 'bad')")
    assert e.diag.message_primary == "shareSources[2] (public.owner2_share1) has shares modulo 2305843009213693951, not modulo 2**127 - 1"


def test_a_share_whose_cells_were_edited_is_refused(db, federation):
    db.execute(f"UPDATE owner3_share1 SET n = {P} WHERE attr = 0 AND cls = 'a'")
    e = _refused(db, "SELECT madnb.create_nb_share_sum(ARRAY['owner1_share1', 'owner3_share1'], 'bad')")
    assert e.diag.message_primary == "shareSources[2] (public.owner3_share1) does not hold the shares its header describes"
    db.execute("DELETE FROM owner2_share1 WHERE attr = 1 AND value = 3")
    e = _refused(db, "SELECT madnb.create_nb_share_sum(ARRAY['owner2_share1'], 'bad')")
    assert "fingerprint" in e.diag.message_detail


def test_a_statistics_table_is_not_a_share(db, federation):
    db.execute("SELECT madnb.create_nb_statistics('owner1', 'class', 'attributes', '3', 3, 'plain')")
    e = _refused(db, "SELECT madnb.create_nb_share_sum(ARRAY['owner1_share1', 'plain'], 'bad')")
    assert e.diag.message_primary == "shareSources[2] public.plain is not a madnb share table"


def test_a_reconstruction_from_one_share_sum_or_one_twice_is_refused(db, federation):
    e = _refused(db, "SELECT madnb.create_nb_model_from_shares(ARRAY['sum1'], 'fp', 'np', 'cp')")
    assert e.diag.message_primary == "shareSumSources hold share sums [1] of 2: share sum(s) [2] are missing"
    e = _refused(db, "SELECT madnb.create_nb_model_from_shares(ARRAY['sum1', 'sum1'], 'fp', 'np', 'cp')")
    assert e.diag.message_primary == "shareSumSources[2] (public.sum1) is share sum 1 again"
    e = _refused(db, "SELECT madnb.create_nb_model_from_shares(ARRAY['sum1', 'owner1_share2'], 'fp', 'np', 'cp')")
    assert e.diag.message_primary == "shareSumSources[2] public.owner1_share2 is a share table, not a share sum table"


def test_share_sums_of_different_owners_are_refused(db, federation):
    db.execute("SELECT madnb.create_nb_share_sum(ARRAY['owner1_share2', 'owner2_share2'], 'sum2_of_two')")
    e = _refused(db, "SELECT madnb.create_nb_model_from_shares(ARRAY['sum1', 'sum2_of_two'], 'fp', 'np', 'cp')")
    assert e.diag.message_primary == "shareSumSources[2] (public.sum2_of_two) holds the shares of other owners than shareSumSources[1] (public.sum1)"


def test_an_owner_that_drops_out_at_every_server_leaves_the_model_of_the_others(db, federation):
    for j in (1, 2):
        db.execute(f"SELECT madnb.create_nb_share_sum(ARRAY['owner1_share{j}', 'owner3_share{j}'], 'two{j}')")
    db.execute("SELECT madnb.create_nb_model_from_shares(ARRAY['two1', 'two2'], 'sec_fp', 'sec_np', 'sec_cp')")
    rows = federation["owner1"] + federation["owner3"]
    assert db.execute("SELECT all_cnt FROM sec_cp LIMIT 1").fetchone() == (len(rows),)


def test_shares_need_bounds_for_gaussian_attributes_and_a_public_domain_table(db):
    make_domain(db)
    make_owner(db, "t", owner_rows(1, 10))
    e = _refused(db, "SELECT madnb.create_nb_statistics_shares('t', 'class', 'attributes', '3', 3, ARRAY['s1', 's2'], domain => 'dom')")
    assert e.diag.message_primary == "numeric attributes [3] need public bounds"
    e = _refused(db, f"SELECT madnb.create_nb_statistics_shares('t', 'class', 'attributes', '3', 3, ARRAY['s1', 's2'], bounds => {BOUNDS})")
    assert e.diag.message_primary == "shares need a public domain table"
    e = _refused(db, "SELECT madnb.create_nb_statistics_shares('t', 'class', 'attributes', '3', 3, ARRAY['s1', 's2'], "
                 f"bounds => {BOUNDS}, domain => 'observed')")
    e = _refused(db, f"SELECT madnb.create_nb_statistics_shares('t', 'class', 'attributes', '3', 3, ARRAY['s1'], bounds => {BOUNDS}, domain => 'dom')")
    assert e.diag.message_primary == "shareDestNames names 1 table(s): secure aggregation needs at least two"
    _refused(db, f"SELECT madnb.create_nb_statistics_shares('t', 'class', 'attributes', '3', 3, ARRAY['s1', 's1'], bounds => {BOUNDS}, domain => 'dom')",
             "42P07")


def test_shares_for_more_owners_than_the_modulus_bound_allows_are_refused_before_anything_is_written(db):
    make_domain(db)
    make_owner(db, "t", owner_rows(1, 10))
    call = f"SELECT madnb.create_nb_statistics_shares('t', 'class', 'attributes', '3', 3, ARRAY['s1', 's2'], bounds => {BOUNDS}, domain => 'dom', owners => %s)"
    e = _refused(db, call % 16384)
    assert e.diag.message_primary == "owners is 16384: a sum of that many owners' shares could wrap modulo p"
    assert "N <= 16383 owners" in e.diag.message_detail
    db.execute(call % 16383)
    assert {"s1", "s2"} <= relations(db)


def test_a_share_sum_of_more_owners_than_the_releases_state_is_refused(db):
    make_domain(db)
    for name in ("t1", "t2", "t3"):
        make_owner(db, name, owner_rows(len(name), 10))
        shares(db, name, [f"{name}_1", f"{name}_2"], ", owners => 2")
    db.execute("SELECT madnb.create_nb_share_sum(ARRAY['t1_1', 't2_1'], 'ok')")
    e = _refused(db, "SELECT madnb.create_nb_share_sum(ARRAY['t1_1', 't2_1', 't3_1'], 'bad')")
    assert e.diag.message_primary == "shareSources hold the shares of 3 owners, more than the 2 the release was sized for"


def test_arrays_of_every_shape_share_as_the_rules_of_a_release_read_them(db):
    """Attribute i is element i of a one-dimensional array from its own lower bound; a multi-dimensional, empty or
    NULL array has every attribute missing; elements beyond numAttrs are ignored; NaN is missing; values are
    clipped to the bounds; a NULL class leaves the row out. Expected numbers from those rules, in Python."""
    make_domain(db)
    db.execute("CREATE TABLE odd (class text, attributes float8[])")
    rows = [
        ("a", "{0,1,2.5}"), ("b", "[0:2]={1,0,-3.5}"), ("a", "{{0,1},{1,1}}"), ("c", "{2,1,4.0,99}"), ("b", "{1}"),
        ("c", None), ("a", "{0,0,NaN}"), ("a", "{}"), (None, "{0,0,1}"), ("c", "{0,1,50}"), ("b", "[5:7]={2,1,-20}"),
    ]
    with db.cursor() as cur:
        cur.executemany("INSERT INTO odd VALUES (%s, %s::float8[])", rows)
    shares(db, "odd", ["odd_s1", "odd_s2"])
    for j in (1, 2):
        db.execute(f"SELECT madnb.create_nb_share_sum(ARRAY['odd_s{j}'], 'odd_sum{j}')")
    db.execute("SELECT madnb.create_nb_model_from_shares(ARRAY['odd_sum1', 'odd_sum2'], 'o_fp', 'o_np', 'o_cp')")
    # the rules, by hand: (class, attribute 1, attribute 2, attribute 3) with None for missing
    read = [("a", 0, 1, 2.5), ("b", 1, 0, -3.5), ("a", None, None, None), ("c", 2, 1, 4.0), ("b", 1, None, None),
            ("c", None, None, None), ("a", 0, 0, None), ("a", None, None, None), ("c", 0, 1, 10.0), ("b", 2, 1, -10.0)]
    priors = dict(db.execute("SELECT class, class_cnt FROM o_cp").fetchall())
    assert priors == {c: sum(1 for r in read if r[0] == c) for c in CLASSES}
    counts = {(c, a, v): n for c, a, v, n in db.execute("SELECT class, attr, value, cnt FROM o_fp").fetchall()}
    for c in CLASSES:
        for attr, values in ((1, range(4)), (2, range(2))):
            for v in values:
                assert counts.get((c, attr, float(v)), 0) == sum(1 for r in read if r[0] == c and r[attr] == v), (c, attr, v)
    got = {c: (m, v, n) for c, _, m, v, n in db.execute("SELECT class, attr, attr_mean, attr_var, value_cnt FROM o_np").fetchall()}
    for c in CLASSES:
        x = np.array([r[3] for r in read if r[0] == c and r[3] is not None])
        m, v, n = got[c]
        assert n == len(x) and close(m, float(np.mean(x)), 1e-11), c
        assert (v is None and len(x) < 2) or close(v, float(np.var(x, ddof=1)), 1e-10), c

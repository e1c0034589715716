"""Statistics no release can hold are refused by every merge (issue 17, point B6).

An owner's statistics table is data the aggregator did not make: a negative
count, a NaN mean, an infinite variance, a duplicated cell or a NULL class would
otherwise be summed into a model (negative priors, NaN probabilities).  Every
merge checks each part it did not release itself and refuses the first
impossible cell with 22023, naming the part and the cell; nothing is written.
Private parts hold raw noisy integers, negative ones included: those merge.
The paths through foreign tables and ``create_nb_federated_tables`` are in
tests/federation/test_federation.py, ``update_nb_model``'s in tests/release/test_online_update.py.
"""

from __future__ import annotations

import pytest
import test_statistics_tables as st

from helpers import relations, sqlstate_of

MERGE = "SELECT madnb.create_nb_model_from_statistics(ARRAY['s1', 's2'], 'fp', 'np', 'cp')"


@pytest.fixture
def two_parts(db):
    """Two exact releases of MIXED (numAttrs 3, numeric 2 and 3): class a has 3 rows, b has 2.

    Cells: (a, 0) n 3, (b, 0) n 2; (a, 1, 1) n 2, (a, 1, 2) n 1, (b, 1, 2) n 2;
    (a, 2) nv 3, (b, 2) nv 1 (var NULL), (a, 3) nv 2, (b, 3) nv 2.
    """
    db.execute(st.MIXED)
    db.execute("SELECT madnb.create_nb_statistics('mixed', 'c', 'x', '2,3', 3, 's1')")
    db.execute("SELECT madnb.create_nb_statistics('mixed', 'c', 'x', '2,3', 3, 's2')")
    return db


def written(db) -> set[str]:
    return relations(db) | relations(db, "madnb_statistics")


BAD_EXACT_CELLS = {
    "a negative class count": (
        "UPDATE s2 SET n = -10000 WHERE attr = 0 AND cls = 'b'", "(class 'b', attr 0)", "its count n is -10000",
    ),
    "a fractional count": (
        "UPDATE s2 SET n = 0.5 WHERE attr = 1 AND cls = 'a' AND value = 2", "(class 'a', attr 1, value 2.0)", "its count n is 0.5",
    ),
    "a NaN count": ("UPDATE s2 SET n = 'NaN' WHERE attr = 0 AND cls = 'a'", "(class 'a', attr 0)", "its count n is NaN"),
    "a NULL count": ("UPDATE s2 SET n = NULL WHERE attr = 0 AND cls = 'a'", "(class 'a', attr 0)", "its count n is NULL"),
    "a NaN mean": ("UPDATE s2 SET mean = 'NaN' WHERE attr = 2 AND cls = 'a'", "(class 'a', attr 2)", "its mean is NaN"),
    "an infinite mean": ("UPDATE s2 SET mean = '-Infinity' WHERE attr = 3 AND cls = 'b'", "(class 'b', attr 3)", "its mean is -Infinity"),
    "an infinite variance": (
        "UPDATE s2 SET var = 'Infinity' WHERE attr = 3 AND cls = 'b'", "(class 'b', attr 3)", "its variance var is Infinity",
    ),
    "a negative variance": ("UPDATE s2 SET var = -1 WHERE attr = 3 AND cls = 'a'", "(class 'a', attr 3)", "its variance var is -1"),
    "no variance over two values": ("UPDATE s2 SET var = NULL WHERE attr = 3 AND cls = 'a'", "(class 'a', attr 3)", "its variance var is NULL"),
    "an attribute beyond numAttrs": (
        "INSERT INTO s2 (cls, attr, value, n) VALUES ('a', 4, 1, 1)", "(class 'a', attr 4, value 1.0)", "attribute 4 is not 0",
    ),
    "a negative attribute": ("INSERT INTO s2 (cls, attr, n) VALUES ('a', -1, 1)", "(class 'a', attr -1)", "attribute -1 is not 0"),
    "nv above the class count": (
        "UPDATE s2 SET nv = 5 WHERE attr = 3 AND cls = 'b'", "(class 'b', attr 3)", "its count nv is 5, more than the 2 rows of its class",
    ),
    "a negative nv": ("UPDATE s2 SET nv = -1 WHERE attr = 2 AND cls = 'b'", "(class 'b', attr 2)", "its count nv is -1"),
    "a value count above the class count": (
        "UPDATE s2 SET n = 7 WHERE attr = 1 AND cls = 'b'", "(class 'b', attr 1, value 2.0)", "its count n is 7, more than the 2 rows",
    ),
    "value counts adding up to more than the class": (
        "UPDATE s2 SET n = 3 WHERE attr = 1 AND cls = 'a' AND value = 1", "(class 'a', attr 1,",
        "the counts of attribute 1 for its class add up to 4, more than the 3 rows of the class",
    ),
    "a duplicated cell": (
        "INSERT INTO s2 SELECT * FROM s2 WHERE attr = 1 AND cls = 'b'", "(class 'b', attr 1, value 2.0)", "the cell appears 2 times",
    ),
    "a duplicated class count": ("INSERT INTO s2 SELECT * FROM s2 WHERE attr = 0 AND cls = 'b'", "(class 'b', attr 0)", "appears 2 times"),
    "a NULL class": ("INSERT INTO s2 (cls, attr, n) VALUES (NULL, 0, 1)", "(class NULL, attr 0)", "its class is NULL"),
    "a class without a class count": (
        "DELETE FROM s2 WHERE attr = 0 AND cls = 'b'", "(class 'b', attr 1, value 2.0)", "its class has no class count",
    ),
    "a categorical cell without a value": (
        "INSERT INTO s2 (cls, attr, n) VALUES ('a', 1, 0)", "(class 'a', attr 1)", "its value is NULL",
    ),
    "a numeric cell with a value": (
        "UPDATE s2 SET value = 9 WHERE attr = 2 AND cls = 'a'", "(class 'a', attr 2, value 9.0)", "it has the value 9",
    ),
}


@pytest.mark.parametrize("kind", list(BAD_EXACT_CELLS))
def test_an_impossible_exact_cell_is_22023_naming_the_part_and_the_cell_and_nothing_is_written(two_parts, kind):
    db = two_parts
    corrupt, cell, why = BAD_EXACT_CELLS[kind]
    db.execute(MERGE.replace("'fp', 'np', 'cp'", "'fp0', 'np0', 'cp0'"))  # the parts as released merge
    before = written(db)
    db.execute(corrupt)
    e = sqlstate_of(db, MERGE)
    assert e.diag.sqlstate == "22023"
    assert e.diag.message_primary.startswith(f"statistics part 2 (public.s2) holds an impossible cell {cell}"), e.diag.message_primary
    assert why in e.diag.message_detail, e.diag.message_detail
    assert "release the statistics again" in e.diag.message_hint
    assert written(db) == before  # no model table, no kept sum


def test_the_first_part_is_checked_too_and_a_single_part_as_well(two_parts):
    db = two_parts
    db.execute("UPDATE s1 SET mean = 'NaN' WHERE attr = 2 AND cls = 'a'")
    e = sqlstate_of(db, MERGE)
    assert e.diag.sqlstate == "22023" and "statistics part 1 (public.s1) holds an impossible cell" in e.diag.message_primary
    e = sqlstate_of(db, "SELECT madnb.create_nb_model_from_statistics(ARRAY['s1'], 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023" and "part 1 (public.s1)" in e.diag.message_primary


# --- private parts: raw noisy integers, negative ones included --------------------------------

PRIVATE = "'mixed', 'c', 'x', '2,3', 3, 'NAME', epsilon => 1, bounds => '{{0,10},{0,20}}', domain => 'dom'"


@pytest.fixture
def private_parts(db):
    db.execute(st.MIXED)
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b'), (1, '1'), (1, '2')")
    for name in ("p1", "p2"):
        db.execute(f"SELECT madnb.create_nb_statistics({PRIVATE.replace('NAME', name)})")
    return db


def test_honest_private_parts_with_negative_noisy_counts_and_sums_still_merge(private_parts):
    db = private_parts
    # noise as a release may draw it: negative counts and sums, in both parts
    db.execute("UPDATE p1 SET n = -7 WHERE attr = 1 AND cls = 'a' AND value = 1")
    db.execute("UPDATE p2 SET n = -2 WHERE attr = 0 AND cls = 'b'")
    db.execute("UPDATE p2 SET s1 = -123456789, s2 = -98765432109 WHERE attr = 2 AND cls = 'a'")
    raw = dict(db.execute(
        "SELECT value, sum(n) FROM (SELECT * FROM p1 UNION ALL SELECT * FROM p2) u WHERE attr = 1 AND cls = 'a' GROUP BY value"
    ).fetchall())
    db.execute("SELECT madnb.create_nb_model_from_statistics(ARRAY['p1', 'p2'], 'fp', 'np', 'cp')")
    got = dict(db.execute("SELECT value, cnt FROM fp WHERE class = 'a'").fetchall())
    assert got == {v: max(0, int(n)) for v, n in raw.items()}  # summed raw, then clamped


BAD_PRIVATE_CELLS = {
    "a fractional noisy count": (
        "UPDATE p2 SET n = 0.5 WHERE attr = 0 AND cls = 'a'", "holds an impossible cell (class 'a', attr 0)", "its noisy count n is 0.5",
    ),
    "a NaN noisy count": ("UPDATE p2 SET n = 'NaN' WHERE attr = 1 AND cls = 'b' AND value = 2", "(class 'b', attr 1, value 2.0)", "is NaN"),
    "an infinite noisy sum": (
        "UPDATE p2 SET s2 = 'Infinity' WHERE attr = 3 AND cls = 'b'", "(class 'b', attr 3)", "s2 = Infinity",
    ),
    "a NULL noisy sum": ("UPDATE p2 SET s1 = NULL WHERE attr = 2 AND cls = 'a'", "(class 'a', attr 2)", "s1 = NULL"),
    "an attribute beyond numAttrs": ("INSERT INTO p2 (cls, attr, value, n) VALUES ('a', 5, 1, 3)", "(class 'a', attr 5, value 1.0)", "attribute 5"),
    "a duplicated cell": ("INSERT INTO p2 SELECT * FROM p2 WHERE attr = 0 AND cls = 'a'", "(class 'a', attr 0)", "appears 2 times"),
    "a NULL class": ("INSERT INTO p2 (cls, attr, n) VALUES (NULL, 0, 4)", "(class NULL, attr 0)", "its class is NULL"),
    "a value outside the public domain": (
        "INSERT INTO p2 (cls, attr, value, n) VALUES ('a', 1, 3, 1), ('b', 1, 3, 0)",
        "does not hold the cells of the public domain its header names", "fingerprint",
    ),
    "a missing cell of the domain": (
        "DELETE FROM p2 WHERE attr = 1 AND cls = 'b' AND value = 1",
        "does not hold the cells of the public domain its header names", "it holds 9 cells; its domain has 10",
    ),
}


@pytest.mark.parametrize("kind", list(BAD_PRIVATE_CELLS))
def test_what_can_be_checked_of_a_private_part_is_checked(private_parts, kind):
    db = private_parts
    corrupt, what, why = BAD_PRIVATE_CELLS[kind]
    before = written(db)
    db.execute(corrupt)
    e = sqlstate_of(db, "SELECT madnb.create_nb_model_from_statistics(ARRAY['p1', 'p2'], 'fp', 'np', 'cp')")
    assert e.diag.sqlstate == "22023"
    assert e.diag.message_primary.startswith("statistics part 2 (public.p2) ") and what in e.diag.message_primary, e.diag.message_primary
    assert why in e.diag.message_detail, e.diag.message_detail
    assert written(db) == before

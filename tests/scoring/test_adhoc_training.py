"""An ad hoc view trains on every query: by subscript when the arrays allow it, by the unnest pass otherwise.

With numeric attributes, the view's query runs the subscript pass (one GROUP BY
class, nothing unnested) and keeps it when every array is one-dimensional,
1-based and of numAttrs elements (or empty); otherwise a one-time filter runs the
unnest pass instead, which takes any shape.  Either way the view gives what the
same view over prepared tables gives (create_nb_prepared_data_tables makes the
same choice in two statements).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

ROWS = [
    (1, "a", [1.0, 10.0, 0.0]), (2, "a", [2.0, 14.0, 1.0]), (3, "a", [4.0, None, 1.0]), (4, "a", [float("nan"), 11.0, 0.0]),
    (5, "b", [7.0, 1.0, 2.0]), (6, "b", [9.0, 3.0, 2.0]), (7, "b", [8.5, 2.0, 1.0]), (8, "b", None), (9, "b", []),
]


def _table(db, name: str, lower_bound: int = 1) -> None:
    db.execute(f"CREATE TABLE {name} (id int, class text, attributes float8[])")
    with db.cursor() as cur:
        for i, c, a in ROWS:
            lit = None if a is None else "{" + ",".join("NULL" if x is None else repr(x) for x in a) + "}"
            if lit is not None and a and lower_bound != 1:
                lit = f"[{lower_bound}:{lower_bound + len(a) - 1}]=" + lit
            cur.execute(f"INSERT INTO {name} VALUES (%s, %s, %s::float8[])", (i, c, lit))


def _unnest_loops(db, query: str) -> list[int]:
    """The loops of each scan of the unnest pass (``unnest`` of the whole array) in the plan of ``query`` as run
    (0: never executed; the categorical slices of the subscript pass unnest ``attributes[p:q]``)."""
    plan = db.execute(f"EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) {query}").fetchone()[0]
    plan = plan if isinstance(plan, list) else json.loads(plan)

    def walk(node: dict[str, Any]) -> list[int]:
        here = [node.get("Actual Loops", 0)] if re.fullmatch(r"unnest\(t(_\d+)?\.attributes\)", node.get("Function Call", "")) else []
        return here + [n for child in node.get("Plans", []) for n in walk(child)]

    return walk(plan[0]["Plan"])


@pytest.mark.parametrize("kind", ["classify", "probs"])
@pytest.mark.parametrize("numeric", ["1,2,3", "1,2"])  # Gaussian only; and a categorical third attribute
def test_an_ad_hoc_view_trains_by_subscript_on_regular_arrays_and_gives_the_prepared_views_rows(db, kind, numeric):
    _table(db, "t")
    db.execute(f"SELECT madnb.create_nb_{kind}_view('t', 'class', 'attributes', %s, 't', 'id', 'attributes', 3, 'adhoc')", (numeric,))
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', %s, 3, 'fp', 'np', 'cp')", (numeric,))
    db.execute(f"SELECT madnb.create_nb_{kind}_view('fp', 'cp', 't', 'id', 'attributes', 3, 'np', 'prepared')")
    order = "key" if kind == "classify" else "key, class"
    assert db.execute(f"SELECT * FROM adhoc ORDER BY {order}").fetchall() == db.execute(f"SELECT * FROM prepared ORDER BY {order}").fetchall()
    loops = _unnest_loops(db, "SELECT * FROM adhoc")
    assert loops and set(loops) == {0}  # the unnest pass is planned and never runs


def test_an_ad_hoc_view_trains_by_the_unnest_pass_on_arrays_that_are_not_1_based(db):
    _table(db, "t", lower_bound=0)
    _table(db, "t1")  # the same values 1-based: prepared training reads them as the unnest pass reads t's
    # trained on t, classifying t1 (a view reads the rows it classifies by subscript)
    db.execute("SELECT madnb.create_nb_classify_view('t', 'class', 'attributes', '1,2', 't1', 'id', 'attributes', 3, 'adhoc')")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t1', 'class', 'attributes', '1,2', 3, 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 't1', 'id', 'attributes', 3, 'np', 'prepared')")
    assert db.execute("SELECT * FROM adhoc ORDER BY key").fetchall() == db.execute("SELECT * FROM prepared ORDER BY key").fetchall()
    assert any(n > 0 for n in _unnest_loops(db, "SELECT * FROM adhoc"))


def test_rows_added_after_the_view_are_read_by_the_pass_their_shape_needs(db):
    # created on regular arrays, the view meets a shorter array added later: that query runs the unnest pass,
    # and gives what the view over the same rows stored 0-based gives (the unnest pass for every query: above)
    _table(db, "t")
    db.execute("SELECT madnb.create_nb_classify_view('t', 'class', 'attributes', '1,2', 't', 'id', 'attributes', 3, 'adhoc')")
    assert set(_unnest_loops(db, "SELECT * FROM adhoc")) == {0}
    _table(db, "t0", lower_bound=0)
    db.execute("SELECT madnb.create_nb_classify_view('t0', 'class', 'attributes', '1,2', 't', 'id', 'attributes', 3, 'adhoc0')")
    db.execute("INSERT INTO t VALUES (10, 'a', '{3.0,12.0}')")
    db.execute("INSERT INTO t0 VALUES (10, 'a', '[0:1]={3.0,12.0}')")
    assert any(n > 0 for n in _unnest_loops(db, "SELECT * FROM adhoc"))
    got = db.execute("SELECT * FROM adhoc ORDER BY key").fetchall()
    assert len(got) == len(ROWS) + 1
    assert got == db.execute("SELECT * FROM adhoc0 ORDER BY key").fetchall()

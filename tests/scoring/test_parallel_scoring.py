"""The scoring forms: unrolled (the one PostgreSQL can run in parallel workers) and LATERAL.

Views over models with integer codes, values with a canonical text form (looked up
in jsonb dictionaries) or Gaussian attributes, and not too many attributes, compute
one expression per class in the scan of the source; the other models use a per-row
LATERAL subquery.  All must give MADlib's numbers; here they meet awkward values,
agree with each other, and the unrolled plan is checked for parallel workers.
Expected numbers are computed here from the naive Bayes formulas.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from decimal import Decimal
from typing import Any

import pytest

from helpers import sqlstate_of


def reference_probs(train: list[tuple[Any, list[Any]]], row: list[Any], numeric: set[int] = frozenset()) -> dict[Any, float]:
    """P(class | row) by MADlib's formulas: Laplace-smoothed categorical, Gaussian with the sample variance.

    ``train`` is [(class, attributes)]; a None element is missing, a categorical value
    not seen in training is skipped, and so is a non-finite one.  A row with
    elements but not as many as the training rows is not scored: None for every class.
    """
    classes = sorted({c for c, _ in train})
    n = len(train)
    width = max(len(a) for _, a in train)
    if row and len(row) != width:
        return {c: None for c in classes}
    logp = {}
    for c in classes:
        rows = [a for k, a in train if k == c]
        lp = math.log(len(rows) / n)
        for j, x in enumerate(row[:width]):
            if x is None:
                continue
            if j + 1 in numeric:
                vals = [a[j] for a in rows if j < len(a) and a[j] is not None]
                mean = sum(vals) / len(vals)
                var = sum((v - mean) ** 2 for v in vals) / (len(vals) - 1)
                lp += -0.5 * math.log(2 * math.pi * var) - (x - mean) ** 2 / (2 * var)
                continue
            seen = {a[j] for _, a in train if j < len(a) and a[j] is not None}
            if x not in seen:
                continue
            counts = Counter(a[j] for a in rows if j < len(a) and a[j] is not None)
            present = sum(counts.values())
            lp += math.log(counts[x] + 1) - math.log(present + len(seen))
        logp[c] = lp
    top = max(logp.values())
    z = sum(math.exp(v - top) for v in logp.values())
    return {c: math.exp(v - top) / z for c, v in logp.items()}


TRAIN_CODES = [
    (1, [1, 2, 3]), (1, [1, 2, 1]), (1, [1, 4, 3]), (1, [2, None, 3]),
    (2, [1, 2, 2]), (2, [0, 2, 2]), (2, [0, 1, 3]), (2, [0, 4, None]),
    (3, [2, 1, 1]), (3, [2, 4, 1]),
]


def _array_literal(values: list[Any]) -> str:
    return "{" + ",".join("NULL" if v is None else str(v) for v in values) + "}"


def _load(db, elem: str, train: list[tuple[Any, list[Any]]], test: list[list[Any]]) -> None:
    db.execute(f"CREATE TABLE tr (id int, class int, attributes {elem}[])")
    db.execute(f"CREATE TABLE te (id int, attributes {elem}[])")
    with db.cursor() as cur:
        cur.executemany("INSERT INTO tr VALUES (%s, %s, %s::" + elem + "[])",
                        [(i, c, _array_literal(a)) for i, (c, a) in enumerate(train)])
        cur.executemany("INSERT INTO te VALUES (%s, %s::" + elem + "[])",
                        [(i, _array_literal(a)) for i, a in enumerate(test)])


def _probs(db, view: str) -> dict[int, dict[Any, float]]:
    out: dict[int, dict[Any, float]] = defaultdict(dict)
    for key, cls, p in db.execute(f"SELECT key, class, nb_prob FROM {view}"):
        out[key][cls] = p
    return out


def _uses_unrolled_form(db, view: str) -> bool:
    """The LATERAL form unnests each source row's attributes; the unrolled one never does."""
    return "unnest(src." not in db.execute("SELECT pg_get_viewdef(%s::regclass)", (view,)).fetchone()[0]


@pytest.mark.parametrize(
    ("elem", "odd"),
    [
        ("int2", [32767, -32768]),
        ("int4", [2147483647, -2147483648]),
        ("int8", [9223372036854775807, -9223372036854775808]),
        ("float8", ["2.5", "NaN", "Infinity", "-Infinity", "1e300"]),
        ("numeric", ["2.5", "NaN", "1e40"]),
    ],
)
@pytest.mark.parametrize("copies", [1, 16])
def test_codes_out_of_range_fractional_missing_and_unseen_values_are_skipped(db, elem, odd, copies):
    """copies = 16: 48 attributes x 3 classes is too many terms to unroll, so the LATERAL
    form scores them, over the same one-range tables (flat)."""
    test = [[1, 2, 3], [0, 4, 1], [None, None, None], [5, 2, 9], [2], [1, 2, 3, 2]]
    for v in odd:
        test += [[v, 2, 3], [1, v, v]]
    n = 3 * copies
    train = [(c, a * copies) for c, a in TRAIN_CODES]
    test = [a * copies if len(a) == 3 else a for a in test] + [[1, 2, 3] * copies + [4, 0]]  # longer than numAttrs
    _load(db, elem, train, test)
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('tr', 'class', 'attributes', {n}, 'fp', 'cp')")
    db.execute(f"SELECT madnb.create_nb_probs_view('fp', 'cp', 'te', 'id', 'attributes', {n}, 'pv')")
    db.execute(f"SELECT madnb.create_nb_classify_view('fp', 'cp', 'te', 'id', 'attributes', {n}, 'cv')")
    for view in ("pv", "cv"):
        assert _uses_unrolled_form(db, view) == (copies == 1)
        assert "lo0" in db.execute("SELECT pg_get_viewdef(%s::regclass)", (view,)).fetchone()[0]
    got = _probs(db, "pv")
    cls = dict(db.execute("SELECT key, nb_classification FROM cv").fetchall())
    for i, row in enumerate(test):
        # an odd value is never a training value: the reference skips it like a missing one
        want = reference_probs(train, row)
        assert got[i].keys() == want.keys()
        for c, p in want.items():
            assert got[i][c] == pytest.approx(p, abs=1e-12), (elem, row, c)
        if None in want.values():
            assert cls[i] is None
            continue
        best = max(want.values())
        assert sorted(cls[i]) == sorted(c for c, p in want.items() if abs(p - best) < 1e-12)


HALF = "ARRAY(SELECT x + 0.5 FROM pg_catalog.unnest(attributes) AS x)"  # fractional: no codes, no dictionary


def test_unrolled_and_lateral_forms_give_the_same_probabilities(db):
    """The same values as integer codes and as text (unrolled form: slots, dictionaries) and
    shifted by 0.5 as float8 (no canonical text form: the LATERAL form's join)."""
    test = [[1, 2, 3], [0, 4, 1], [None, 2, None], [7, 2, 3], [2]]
    _load(db, "int4", TRAIN_CODES, test)
    for suffix, expr in [("t", "attributes::text[]"), ("h", f"{HALF}::float8[]")]:
        db.execute(f"CREATE TABLE tr{suffix} AS SELECT id, class, {expr} AS attributes FROM tr")
        db.execute(f"CREATE TABLE te{suffix} AS SELECT id, {expr} AS attributes FROM te")
    views = {}
    for suffix in ["", "t", "h"]:
        db.execute(f"SELECT madnb.create_nb_prepared_data_tables('tr{suffix}', 'class', 'attributes', 3, 'fp{suffix}', 'cp{suffix}')")
        db.execute(f"SELECT madnb.create_nb_probs_view('fp{suffix}', 'cp{suffix}', 'te{suffix}', 'id', 'attributes', 3, 'pv{suffix}')")
        views[suffix] = _probs(db, f"pv{suffix}")
    assert _uses_unrolled_form(db, "pv") and _uses_unrolled_form(db, "pvt") and not _uses_unrolled_form(db, "pvh")
    a = views[""]
    assert a.keys() == set(range(len(test)))
    for other in (views["t"], views["h"]):
        assert other.keys() == a.keys()
        for key in a:
            assert a[key].keys() == other[key].keys()
            for c in a[key]:
                assert a[key][c] == pytest.approx(other[key][c], abs=1e-14)


@pytest.mark.parametrize(
    ("elem", "train_values", "odd"),
    [
        ("text", ["a", "ab", "", "it's", "Ünï ☃", "a\\b"], ["b", "A", "a ", None]),
        ("varchar(10)", ["x", "xy", "y"], ["xyz", "X"]),
        ("char(4)", ["ab", "a", "abc"], ["ab  ", "b", " ab"]),
        ("numeric", [Decimal("1.5"), Decimal("2.25"), Decimal("3")], [Decimal("1.50"), Decimal("2.2"), Decimal("NaN")]),
        ("boolean", [True, False], [None]),
        ("date", ["2024-01-31", "2024-02-01", "1999-12-31"], ["2024-02-02", None]),
        ("uuid", ["00000000-0000-0000-0000-000000000001", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"],
         ["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12"]),
    ],
)
def test_dictionary_lookups_of_text_like_values(db, elem, train_values, odd):
    """Text, booleans, dates and uuids are looked up by their text form: exact matches only."""
    vs = train_values
    train = [(1 + i % 2, [vs[i % len(vs)], vs[(i * 2 + 1) % len(vs)]]) for i in range(12)]
    test = [[vs[0], vs[-1]], [vs[-1], vs[0]]] + [[o, vs[0]] for o in odd] + [[vs[1], o] for o in odd]
    db.execute(f"CREATE TABLE tr (id int, class int, attributes {elem}[])")
    db.execute(f"CREATE TABLE te (id int, attributes {elem}[])")
    with db.cursor() as cur:
        cur.executemany(f"INSERT INTO tr VALUES (%s, %s, %s::{elem}[])", [(i, c, a) for i, (c, a) in enumerate(train)])
        cur.executemany(f"INSERT INTO te VALUES (%s, %s::{elem}[])", list(enumerate(test)))
    db.execute("SELECT madnb.create_nb_prepared_data_tables('tr', 'class', 'attributes', 2, 'fp', 'cp')")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'te', 'id', 'attributes', 2, 'pv')")
    assert _uses_unrolled_form(db, "pv")
    db.execute("SET DateStyle = 'SQL, DMY'")  # the text form changes; lookups must not
    got = _probs(db, "pv")
    # the reference compares values as PostgreSQL does: dates and uuids by their text,
    # char(n) without trailing blanks, numeric by value (Decimal: 1.50 == 1.5)
    def same(x: Any) -> Any:
        if x is None:
            return None
        if elem in ("date", "uuid"):
            return str(x)
        return x.rstrip(" ") if elem.startswith("char") else x

    canon = [(c, [same(x) for x in a]) for c, a in train]
    for i, row in enumerate(test):
        want = reference_probs(canon, [same(x) for x in row])
        for c, p in want.items():
            assert got[i][c] == pytest.approx(p, abs=1e-12), (elem, row)


TRAIN_MIXED = [
    ("a", [1, 5.25, 180.0]), ("a", [2, 5.75, 190.0]), ("a", [1, 6.0, 170.0]), ("a", [1, None, 175.0]),
    ("b", [2, 5.0, 100.0]), ("b", [2, 5.5, 150.0]), ("b", [3, 5.4, 130.0]), ("b", [2, 5.8, None]),
]


def _floats(a: list[Any]) -> list[float | None]:
    return [None if x is None else float(x) for x in a]


@pytest.mark.parametrize("copies", [1, 30])
def test_gaussian_and_categorical_attributes_in_the_unrolled_form(db, copies):
    """copies = 30: 90 attributes, too many to unroll; the LATERAL form picks per attribute
    between the Gaussian term and the one-range code table."""
    db.execute("CREATE TABLE tr (id int, class text, attributes float8[])")
    db.execute("CREATE TABLE te (id int, attributes float8[])")
    test = [[1, 5.5, 160.0], [3, None, 120.0], [9, 6.1, None], [None, None, None], [2, 5.0], [1.5, 5.9, 185.0]]
    train = [(c, a * copies) for c, a in TRAIN_MIXED]
    test = [a * copies if len(a) == 3 else a for a in test]
    numeric = {j for j in range(1, 3 * copies + 1) if j % 3 != 1}
    with db.cursor() as cur:
        cur.executemany("INSERT INTO tr VALUES (%s, %s, %s)", [(i, c, _floats(a)) for i, (c, a) in enumerate(train)])
        cur.executemany("INSERT INTO te VALUES (%s, %s)", [(i, _floats(a)) for i, a in enumerate(test)])
    indices = ",".join(str(j) for j in sorted(numeric))
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('tr', 'class', 'attributes', '{indices}', {3 * copies}, 'fp', 'np', 'cp')")
    db.execute(f"SELECT madnb.create_nb_probs_view('fp', 'cp', 'te', 'id', 'attributes', {3 * copies}, 'np', 'pv')")
    assert _uses_unrolled_form(db, "pv") == (copies == 1)
    assert "lo0" in db.execute("SELECT pg_get_viewdef('pv'::regclass)").fetchone()[0]
    got = _probs(db, "pv")
    for i, row in enumerate(test):
        want = reference_probs(train, row, numeric=numeric)  # 1.5: not a training code, skipped
        for c, p in want.items():
            assert got[i][c] == (None if p is None else pytest.approx(p, rel=1e-9, abs=1e-12)), (row, c)


def test_a_view_whose_gaussian_attributes_changed_asks_to_be_recreated(db):
    db.execute("CREATE TABLE tr (id int, class text, attributes float8[])")
    with db.cursor() as cur:
        cur.executemany("INSERT INTO tr VALUES (%s, %s, %s)", [(i, c, _floats(a)) for i, (c, a) in enumerate(TRAIN_MIXED)])
    db.execute("SELECT madnb.create_nb_prepared_data_tables('tr', 'class', 'attributes', '2,3', 3, 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'tr', 'id', 'attributes', 3, 'np', 'cv')")
    assert db.execute("SELECT count(*) FROM cv").fetchone()[0] == len(TRAIN_MIXED)
    db.execute("INSERT INTO np SELECT class, 1, 1.5, 0.25, 4 FROM cp")  # attribute 1 is now Gaussian too
    err = sqlstate_of(db, "SELECT * FROM cv")
    assert err.diag.sqlstate == "55000"
    assert "numeric attributes" in err.diag.message_primary
    assert "create it again" in (err.diag.message_hint or "")


def _plan_nodes(plan: dict[str, Any]) -> list[str]:
    out = [("Parallel " if plan.get("Parallel Aware") else "") + plan["Node Type"]]
    for child in plan.get("Plans", []):
        out += _plan_nodes(child)
    return out


def _big_table(db, numeric: bool) -> None:
    """big: 200,000 rows x 3 attributes (Gaussian first attribute when numeric), 3 classes."""
    elem = "float8" if numeric else "int4"
    value = "(i % 7)::float8 / 3" if numeric else "i % 5"
    db.execute(f"CREATE TABLE big (id int, class int, attributes {elem}[])")
    db.execute(
        f"INSERT INTO big SELECT i, i % 3, ARRAY[({value})::{elem}, ((i / 3) % 4)::{elem}, ((i / 5) % 6)::{elem}] "
        "FROM generate_series(1, 200000) AS i"
    )
    db.execute("ANALYZE big")


def _json_plan(db, query: str) -> list[Any]:
    plan = db.execute(f"EXPLAIN (FORMAT JSON) {query}").fetchone()[0]
    return plan if isinstance(plan, list) else json.loads(plan)


@pytest.mark.parametrize("kind", ["classify", "probs"])
@pytest.mark.parametrize("numeric", [False, True])
def test_the_unrolled_form_scores_in_parallel_workers(db, kind, numeric):
    """The scoring expressions sit under a Gather, in a parallel scan joined to the one-row model."""
    _big_table(db, numeric)
    if numeric:
        db.execute("SELECT madnb.create_nb_prepared_data_tables('big', 'class', 'attributes', '1', 3, 'fp', 'np', 'cp')")
        db.execute(f"SELECT madnb.create_nb_{kind}_view('fp', 'cp', 'big', 'id', 'attributes', 3, 'np', 'v')")
    else:
        db.execute("SELECT madnb.create_nb_prepared_data_tables('big', 'class', 'attributes', 3, 'fp', 'cp')")
        db.execute(f"SELECT madnb.create_nb_{kind}_view('fp', 'cp', 'big', 'id', 'attributes', 3, 'v')")
    # The model is built in every worker, so parallelism pays only on tables with more
    # (or wider) rows than a test should load; cheaper tuple transfer tips this one.
    db.execute("SET parallel_tuple_cost = 0.01")
    plan = _json_plan(db, "SELECT * FROM v")
    nodes = _plan_nodes(plan[0]["Plan"])
    assert "Gather" in nodes
    gather = nodes.index("Gather")
    assert "Hash Join" in nodes[gather:] and "Parallel Seq Scan" in nodes[gather:]
    rows = db.execute("SELECT count(*) FROM v").fetchone()[0]
    assert rows == 200000 * (3 if kind == "probs" else 1)


def test_the_unrolled_form_reads_each_model_number_as_a_column_not_an_array_subscript(db):
    """Per row and Gaussian term a prepared view reads three numbers of the model: columns of the joined model row
    (a subscript of the model's array per number was a quarter of num200k's classify view)."""
    _big_table(db, True)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('big', 'class', 'attributes', '1', 3, 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'big', 'id', 'attributes', 3, 'np', 'v')")
    plan = db.execute("EXPLAIN (VERBOSE) SELECT * FROM v").fetchall()
    text = "\n".join(r[0] for r in plan)
    assert re.search(r"COALESCE\(\(m\.g4 - \(\(m\.g7 \* ", text), text  # class 1's Gaussian term: a1, r1 (mu1 is g10)
    assert "m.g[" not in text, text
    assert db.execute("SELECT count(*) FROM v").fetchone()[0] == 200000


@pytest.mark.parametrize("kind", ["classify", "probs"])
@pytest.mark.parametrize("numeric", [False, True])
def test_ad_hoc_views_score_in_parallel_workers(db, kind, numeric):
    """An ad hoc view's model comes from common table expressions (leader only); it is
    read as InitPlan parameters, so the scan of the source still runs in the workers."""
    _big_table(db, numeric)
    if numeric:
        db.execute(f"SELECT madnb.create_nb_{kind}_view('big', 'class', 'attributes', '1', 'big', 'id', 'attributes', 3, 'v')")
    else:
        db.execute(f"SELECT madnb.create_nb_{kind}_view('big', 'class', 'attributes', 'big', 'id', 'attributes', 3, 'v')")
    db.execute("SET parallel_tuple_cost = 0.01")
    plan = _json_plan(db, "SELECT * FROM v")

    def scans(node, under_gather=False):
        under_gather = under_gather or node["Node Type"] in ("Gather", "Gather Merge")
        out = [(node.get("Alias"), node.get("Parallel Aware"), under_gather)] if "Scan" in node["Node Type"] else []
        for child in node.get("Plans", []):
            out += scans(child, under_gather)
        return out

    # the training pass reads big as "t", the scoring as "src": both in parallel workers
    found = {alias: (parallel, gathered) for alias, parallel, gathered in scans(plan[0]["Plan"]) if alias in ("t", "src")}
    assert found == {"t": (True, True), "src": (True, True)}
    rows = db.execute("SELECT count(*) FROM v").fetchone()[0]
    assert rows == 200000 * (3 if kind == "probs" else 1)
    # the same classes as the view over prepared tables
    if numeric:
        db.execute("SELECT madnb.create_nb_prepared_data_tables('big', 'class', 'attributes', '1', 3, 'fp', 'np', 'cp')")
        db.execute(f"SELECT madnb.create_nb_{kind}_view('fp', 'cp', 'big', 'id', 'attributes', 3, 'np', 'w')")
    else:
        db.execute("SELECT madnb.create_nb_prepared_data_tables('big', 'class', 'attributes', 3, 'fp', 'cp')")
        db.execute(f"SELECT madnb.create_nb_{kind}_view('fp', 'cp', 'big', 'id', 'attributes', 3, 'w')")
    if kind == "classify":
        assert db.execute("SELECT count(*) FROM (SELECT * FROM v EXCEPT SELECT * FROM w) AS d").fetchone()[0] == 0
    else:  # the Gaussian statistics are float sums, added up in another order
        worst = db.execute(
            "SELECT count(*), max(abs(v.nb_prob - w.nb_prob)) FROM v JOIN w ON w.key = v.key AND w.class = v.class"
        ).fetchone()
        assert worst[0] == 600000 and worst[1] < 1e-9


@pytest.mark.parametrize("elem", ["int4", "text", "half"])
def test_probs_with_many_classes(db, elem):
    """Past 16 classes the probs view picks each class's log-likelihood from an array."""
    train = [(c, [(c * 7 + i) % 5, (c + i) % 3]) for c in range(20) for i in range(3)]
    test = [[0, 0], [4, 2], [1, None], [9, 1]]
    _load(db, "int4", train, test)
    expr = {"int4": "attributes", "text": "attributes::text[]", "half": f"{HALF}::float8[]"}[elem]
    for t in ("tr", "te"):
        db.execute(f"CREATE TABLE {t}2 AS SELECT * FROM {t}")
        db.execute(f"DROP TABLE {t}")
        db.execute(f"CREATE TABLE {t} AS SELECT id, {'class, ' if t == 'tr' else ''}{expr} AS attributes FROM {t}2")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('tr', 'class', 'attributes', 2, 'fp', 'cp')")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'te', 'id', 'attributes', 2, 'pv')")
    assert _uses_unrolled_form(db, "pv") == (elem != "half")
    got = _probs(db, "pv")
    for i, row in enumerate(test):
        want = reference_probs(train, row)
        assert got[i].keys() == want.keys()
        assert sum(got[i].values()) == pytest.approx(1.0, abs=1e-12)
        for c, p in want.items():
            assert got[i][c] == pytest.approx(p, abs=1e-12)


def test_rows_too_wide_to_unroll_look_text_up_in_dictionaries(db):
    """300 text attributes: the LATERAL form, with jsonb dictionaries rather than a join."""
    n = 300
    train = [(1 + i % 2, [("abc"[(i * j) % 3] if (i + j) % 7 else None) for j in range(n)]) for i in range(30)]
    test = [[("abc"[(i + j) % 3] if (i * j) % 5 else "zz") for j in range(n)] for i in range(4)] + [[None] * n, ["a"]]
    _load(db, "text", train, test)
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('tr', 'class', 'attributes', {n}, 'fp', 'cp')")
    db.execute(f"SELECT madnb.create_nb_probs_view('fp', 'cp', 'te', 'id', 'attributes', {n}, 'pv')")
    viewdef = db.execute("SELECT pg_get_viewdef('pv'::regclass)").fetchone()[0]
    assert not _uses_unrolled_form(db, "pv") and "jsall" in viewdef
    got = _probs(db, "pv")
    for i, row in enumerate(test):
        want = reference_probs(train, row)
        for c, p in want.items():
            assert got[i][c] == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize(
    ("elem", "big"),
    [("int8", [-9223372036854775808, 9223372036854775807, 5]), ("float8", [1e300, -1e300, 5.0]), ("float8", ["Infinity", 1.0, 2.0])],
)
def test_training_codes_beyond_the_int4_range_still_score(db, elem, big):
    """Huge (or infinite) training codes rule the slot layouts out at view creation; no overflow anywhere."""
    train = [(1 + i % 2, [big[i % 3], big[(i + 1) % 3]]) for i in range(9)]
    test = [[big[0], big[1]], [big[2], None], [7, big[0]]]
    _load(db, elem, train, test)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('tr', 'class', 'attributes', 2, 'fp', 'cp')")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'te', 'id', 'attributes', 2, 'pv')")
    got = _probs(db, "pv")
    for i, row in enumerate(test):
        want = reference_probs(train, row)
        for c, p in want.items():
            assert got[i][c] == pytest.approx(p, abs=1e-12)

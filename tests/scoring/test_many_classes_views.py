"""Classify and probs views of more than 500 classes (issue 19): the class-rows form.

Up to 500 classes a view holds a column per class; beyond, its scores are one
array per row (:mod:`madnb_pl.scoring.class_rows`).  Expected numbers are
MADlib's formulas computed here in Python from the training rows: prior
class_cnt / all_cnt, categorical (cnt + 1) / (class_cnt + attr_cnt), Gaussian
N(x; mean, sample variance).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any

import psycopg
import pytest

K = 600
ROWS_PER_CLASS = 4


def make_tables(db: psycopg.Connection[Any], values: str) -> None:
    """train (K classes x ROWS_PER_CLASS rows) and test: attrs of three values, the third Gaussian-like.

    ``values``: 'codes' (whole float8 values), 'join' (float8 values with a fraction: no canonical text)
    or 'dict' (text values); 'gaussian': codes and a continuous third value.
    """
    third = {"gaussian": f"(i % {K}) / 50.0 + ((i / {K}) * 13 % 7)::float8 / 3"}.get(values, f"((i / {K} + i) % 6)::float8")
    test_third = "(i % 97) / 8.0" if values == "gaussian" else "(i % 7)::float8"
    shift = " + 0.5" if values == "join" else ""
    typ = "text" if values == "dict" else "float8"

    def arr(a: str, b: str, c: str) -> str:
        return f"ARRAY[({a}){shift}, ({b}){shift}, ({c}){'' if values == 'gaussian' else shift}]::{typ}[]"

    db.execute(
        f"CREATE TABLE train AS SELECT i AS id, i % {K} AS class, "
        f"{arr(f'((i * 7 + i / {K}) % 5)::float8', f'((i * 11 + 3 * (i / {K})) % 4)::float8', third)} AS attrs "
        f"FROM generate_series(0, {K * ROWS_PER_CLASS - 1}) AS i"
    )
    db.execute(
        f"CREATE TABLE test AS SELECT i AS id, {arr('(i % 5)::float8', '((i * 3) % 4)::float8', test_third)} AS attrs "
        "FROM generate_series(1, 60) AS i "
        f"UNION ALL SELECT 61, ARRAY[NULL, (2{shift})::{typ}, {'NULL' if values != 'gaussian' else chr(39) + 'NaN' + chr(39)}]::{typ}[] "
        f"UNION ALL SELECT 62, ARRAY[(1{shift})::{typ}, (2{shift})::{typ}]"  # too short: NULL output
    )


def expected_log_likelihoods(db: psycopg.Connection[Any], numeric: bool) -> dict[int, dict[int, float]]:
    train = db.execute("SELECT class, attrs FROM train").fetchall()
    n = len(train)
    by_class: dict[int, list[list[float]]] = defaultdict(list)
    for c, a in train:
        by_class[c].append(a)
    cat_attrs = [0, 1] if numeric else [0, 1, 2]
    values = {j: {a[j] for _, a in train} for j in cat_attrs}
    out: dict[int, dict[int, float]] = {}
    for key, x in db.execute("SELECT id, attrs FROM test WHERE cardinality(attrs) = 3").fetchall():
        scores = {}
        for c, rows in by_class.items():
            s = math.log(len(rows) / n)
            for j in cat_attrs:
                if x[j] is None or x[j] not in values[j]:
                    continue
                cnt = Counter(r[j] for r in rows)[x[j]]
                s += math.log((cnt + 1) / (len(rows) + len(values[j])))
            if numeric and x[2] is not None and not math.isnan(x[2]):  # NULL and NaN: missing
                v = [r[2] for r in rows]
                mu = sum(v) / len(v)
                var = sum((t - mu) ** 2 for t in v) / (len(v) - 1)
                s += -0.5 * math.log(2 * math.pi * var) - (x[2] - mu) ** 2 / (2 * var)
            scores[c] = s
        out[key] = scores
    return out


def check(db: psycopg.Connection[Any], classify: str, probs: str, numeric: bool) -> None:
    expected = expected_log_likelihoods(db, numeric)
    classified = dict(db.execute(f"SELECT key, nb_classification FROM {classify}").fetchall())
    assert set(classified) == set(range(1, 63))
    assert classified[62] is None
    got_probs: dict[int, dict[int, float]] = defaultdict(dict)
    for key, c, p in db.execute(f"SELECT key, class, nb_prob FROM {probs}").fetchall():
        got_probs[key][c] = p
    assert all(len(v) == K for v in got_probs.values()) and len(got_probs) == 62
    assert set(got_probs[62].values()) == {None}
    for key, scores in expected.items():
        best = max(scores.values())
        clear = sorted(scores.values())[-2] < best - 1e-9 * max(1, abs(best))
        if clear:
            assert classified[key] == [max(scores, key=lambda c: scores[c])]
        z = sum(math.exp(s - best) for s in scores.values())
        for c, s in scores.items():
            assert got_probs[key][c] == pytest.approx(math.exp(s - best) / z, rel=1e-9, abs=1e-300)


def strategy_of(db: psycopg.Connection[Any], view: str) -> str:
    """Which lookup the class-rows view uses, from its definition."""
    text = db.execute("SELECT pg_get_viewdef(%s::regclass)", [view]).fetchone()[0]
    assert "generate_series(1, 600)" in text  # the class-rows form: the classes as rows
    return "join" if "cat_attr" in text else "dict" if "jsall" in text else "codes"


@pytest.mark.parametrize("values", ["codes", "join", "dict"])
def test_views_of_600_categorical_classes_give_madlibs_numbers(db, values):
    make_tables(db, values)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('train', 'class', 'attrs', 3, 'fp', 'cp')")
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'test', 'id', 'attrs', 3, 'c')")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'test', 'id', 'attrs', 3, 'p')")
    assert strategy_of(db, "c") == values
    check(db, "c", "p", numeric=False)
    # ad hoc views: the same numbers, trained on every query
    db.execute("SELECT madnb.create_nb_classify_view('train', 'class', 'attrs', 'test', 'id', 'attrs', 3, 'ac')")
    db.execute("SELECT madnb.create_nb_probs_view('train', 'class', 'attrs', 'test', 'id', 'attrs', 3, 'ap')")
    check(db, "ac", "ap", numeric=False)


def test_views_of_600_classes_with_a_gaussian_attribute_give_madlibs_numbers(db):
    make_tables(db, "gaussian")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('train', 'class', 'attrs', '3', 3, 'fp', 'np', 'cp')")
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'test', 'id', 'attrs', 3, 'np', 'c')")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'test', 'id', 'attrs', 3, 'np', 'p')")
    check(db, "c", "p", numeric=True)
    db.execute("SELECT madnb.create_nb_classify_view('train', 'class', 'attrs', '3', 'test', 'id', 'attrs', 3, 'ac')")
    db.execute("SELECT madnb.create_nb_probs_view('train', 'class', 'attrs', '3', 'test', 'id', 'attrs', 3, 'ap')")
    check(db, "ac", "ap", numeric=True)


def test_a_view_of_many_classes_follows_its_model_tables_and_refuses_a_changed_class_count(db):
    make_tables(db, "codes")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('train', 'class', 'attrs', 3, 'fp', 'cp')")
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'test', 'id', 'attrs', 3, 'c')")
    db.execute("DELETE FROM cp WHERE class = 0")
    with pytest.raises(psycopg.Error) as exc:
        db.execute("SELECT * FROM c")
    assert exc.value.diag.sqlstate == "55000"

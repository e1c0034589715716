"""Tables of many columns (issue 19, features): the column face up to a table's 1,600 columns.

A table holds at most 1,600 columns, so madnb.train's column face takes at most
1,599 features beside the label, of which at most 300 Gaussian (a weighted
cross-validation: 150).  The categorical features are counted by grouping sets in
queries of at most column_pass.MAX_SETS features each, and the cross-validation's
scoring query carries a categorical feature's dictionary slot in place of its value
(a row holds at most 1,664 columns).  Expected numbers: scikit-learn's CategoricalNB
fitted in the test (feature by feature, as madnb skips a missing value), and the
definition of cross-validation (madnb.train on each fold complement, madnb.evaluate on
the fold, as tables).  Timings: ``python -m bench.features`` (bench/results/features.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import psycopg
import pytest
from test_cross_validate import assert_folds_are_train_and_evaluate, categorical_nb_fold_jll, cross_validate, softmax


def wide_table(db: psycopg.Connection[Any], name: str, texts: int, floats: int, rows: int, weight: bool = False, key: bool = True) -> None:
    """Table ``name`` ([id,] y, [w,] c1 .. c<texts> text, g1 .. g<floats> float8): 3 classes, some values missing."""
    cols = [f"c{j} text" for j in range(1, texts + 1)] + [f"g{j} float8" for j in range(1, floats + 1)]
    db.execute(f"CREATE TABLE {name} ({'id int, ' if key else ''}y text{', w int' if weight else ''}, {', '.join(cols)})")
    cs = [f"CASE WHEN (i + {j}) % 11 = 0 THEN NULL ELSE 'v' || (i * {j} + i / 5) % {2 + j % 5} END" for j in range(1, texts + 1)]
    gs = [f"CASE WHEN (i + {j}) % 13 = 0 THEN NULL ELSE (i * {j}) % 17 + (i % 3) * 1.5 END" for j in range(1, floats + 1)]
    db.execute(
        f"INSERT INTO {name} SELECT {'i, ' if key else ''}(ARRAY['a','b','c'])[1 + i % 3]{', 1 + i % 3' if weight else ''}, {', '.join(cs + gs)} "
        f"FROM generate_series(1, {rows}) i"
    )


def test_a_table_of_1599_text_features_trains_and_predicts_as_scikit_learns_categorical_nb(db):
    wide_table(db, "wide", 1599, 0, 60, key=False)  # the label and 1,599 features: a table's 1,600 columns
    db.execute("SELECT madnb.train('wide_nb', 'wide', 'y')")
    rows = db.execute("SELECT * FROM wide ORDER BY ctid").fetchall()
    x = [list(r[1:]) for r in rows]
    y = [r[0] for r in rows]
    classes = sorted(set(y))
    want = softmax(categorical_nb_fold_jll(x, y, x, classes))
    got = db.execute("SELECT madnb_models.wide_nb_predict_proba(t) FROM wide AS t ORDER BY ctid").fetchall()
    assert len(got) == len(rows)
    for (p,), w in zip(got, want, strict=True):
        assert [p[c] for c in classes] == pytest.approx(list(w), abs=1e-12)
    predicted = [c for (c,) in db.execute("SELECT madnb_models.wide_nb_predict(t) FROM wide AS t ORDER BY ctid")]
    assert predicted == [classes[i] for i in np.argmax(want, axis=1)]


@pytest.mark.parametrize("weight", [False, True])
def test_a_wide_mixed_table_cross_validates_as_train_and_evaluate_on_each_fold_complement(db, weight):
    # 900 text and 2 float8 features: their values and slots were 1,804 columns of the scoring query (at most 1,664)
    wide_table(db, "s", 900, 2, 90, weight)
    options = {"weight": "w"} if weight else {}
    got = cross_validate(db, "s", "y", folds=3, seed=5, exclude=["id"], key="id", **options)
    assert list(got) == ["1", "2", "3", "mean"]
    assert_folds_are_train_and_evaluate(db, got, "s", "y", 3, 5, ", weight => 'w'" if weight else "")


def test_the_most_gaussian_features_a_weighted_cross_validation_takes_and_one_more_is_54000(db):
    wide_table(db, "g", 1, 151, 40, weight=True)
    db.execute("CREATE VIEW g150 AS SELECT id, y, w, c1, " + ", ".join(f"g{j}" for j in range(1, 151)) + " FROM g")
    got = cross_validate(db, "g150", "y", folds=2, key="id", exclude=["id"], weight="w")
    assert got["mean"]["folds"] == 2 and got["mean"]["rows"] == 40
    relations = db.execute("SELECT count(*) FROM pg_class").fetchone()[0]
    with pytest.raises(psycopg.Error) as e:
        cross_validate(db, "g", "y", folds=2, key="id", exclude=["id"], weight="w")
    assert e.value.sqlstate == "54000" and "(150)" in e.value.diag.message_primary
    assert "weight" in e.value.diag.message_hint
    assert db.execute("SELECT count(*) FROM pg_class").fetchone()[0] == relations  # nothing left behind
    # without weights the same table cross-validates (up to 300 Gaussian features)
    assert cross_validate(db, "g", "y", folds=2, key="id", exclude=["id", "w"])["mean"]["folds"] == 2


def test_hostile_column_names_and_a_planted_search_path_change_nothing_in_the_wide_passes(db):
    # 40 text columns: the grouping sets in several queries, the per-fold pass reading its rows from one CTE
    # (named madnb_rows: a table of that name on the search_path must not be read), weighted and not
    names = [f'c{j}"; drop table s; --' if j % 3 == 0 else ("select" if j == 1 else f"C {j}") for j in range(1, 41)]
    cols = ", ".join(f'"{n.replace(chr(34), chr(34) * 2)}" text' for n in names)
    db.execute(f"CREATE TABLE s (id int, y text, w int, {cols}, g float8)")
    values = ", ".join(f"'v' || (i * {j} + i / 5) % {2 + j % 4}" for j in range(1, 41))
    db.execute(f"INSERT INTO s SELECT i, (ARRAY['a','b','c'])[1 + i % 3], 1 + i % 2, {values}, i % 7 FROM generate_series(1, 90) i")
    want = cross_validate(db, "s", "y", exclude=["id", "w"], key="id", folds=3)
    want_w = cross_validate(db, "s", "y", exclude=["id"], key="id", folds=3, weight="w")
    db.execute("CREATE SCHEMA evil")
    db.execute("CREATE TABLE evil.madnb_rows (f int, l text)")
    db.execute(
        "CREATE FUNCTION evil.md5(text) RETURNS text LANGUAGE sql AS $$ SELECT '00000000' $$; "
        "CREATE FUNCTION evil.jsonb_each(jsonb) RETURNS TABLE (key text, value jsonb) LANGUAGE sql AS $$ SELECT '1', '{}'::jsonb $$; "
        "CREATE FUNCTION evil.texteq_evil(text, text) RETURNS bool LANGUAGE sql AS $$ SELECT true $$; "
        "CREATE OPERATOR evil.= (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.texteq_evil)"
    )
    db.execute("SET search_path = evil, public, madnb, pg_catalog")
    assert cross_validate(db, "s", "y", exclude=["id", "w"], key="id", folds=3) == want
    assert cross_validate(db, "s", "y", exclude=["id"], key="id", folds=3, weight="w") == want_w
    db.execute("SELECT madnb.train('s_nb', 's', 'y', exclude => ARRAY['id', 'w'])")
    db.execute("RESET search_path")
    assert db.execute("SELECT count(*) FROM evil.madnb_rows").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM s").fetchone()[0] == 90
    got = db.execute("SELECT madnb.evaluate('s_nb', 's')").fetchone()[0]
    db.execute("SELECT madnb.train('s_nb2', 's', 'y', exclude => ARRAY['id', 'w'])")  # trained without the planted objects
    assert got == db.execute("SELECT madnb.evaluate('s_nb2', 's')").fetchone()[0]

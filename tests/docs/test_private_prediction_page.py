"""docs/private_prediction.md's Python example runs as written against real servers, and gives the model's probabilities.

The page's ```python block runs with its two example URLs replaced by two test
databases: server a (``remote_dbs[0]``, madnb installed, adult loaded and model
adult_nb trained as the README's Quick start trains it) and server b
(``remote_dbs[1]``, no madnb).  Its sql blocks run in tests/docs/test_docs_examples.py.
"""

from __future__ import annotations

import re

from psycopg import sql

from conftest import ROOT
from models_helpers import load_adult

PAGE = ROOT / "docs" / "private_prediction.md"
PYTHON = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def test_the_python_example_of_the_private_prediction_page_runs_and_gives_the_models_predict_proba(remote_dbs):
    a, b = remote_dbs[0], remote_dbs[1]
    a.install_madnb()
    load_adult(a.conn, "adult")
    a.conn.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['fnlwgt', 'id'])")
    (code,) = PYTHON.findall(PAGE.read_text(encoding="utf-8"))
    code = code.replace('"postgresql://analyst@db-a.example.com/shop"', repr(a.url))
    code = code.replace('"postgresql://analyst@db-b.example.com/shop"', repr(b.url))
    assert a.url in code and b.url in code
    scope: dict[str, object] = {}
    exec(compile(code, str(PAGE), "exec"), scope)  # noqa: S102 - the page's own example
    assert b.conn.execute("SELECT to_regnamespace('madnb') IS NULL").fetchone()[0]
    # the page's size of a shared row: 115 slots
    assert b.conn.execute("SELECT (madnb_models.adult_nb_share_encoding() ->> 'width')::int").fetchone() == (115,)
    got = scope["probabilities"]
    assert isinstance(got, list) and len(got) == len(scope["rows"])  # type: ignore[arg-type]
    for row, probabilities in zip(scope["rows"], got, strict=True):  # type: ignore[call-overload]
        args = sql.SQL(", ").join(sql.SQL("{} => {}").format(sql.Identifier(k), sql.Literal(v)) for k, v in row.items())
        want = a.conn.execute(sql.SQL("SELECT madnb_models.adult_nb_predict_proba({})").format(args)).fetchone()[0]
        assert sorted(probabilities) == sorted(want)
        assert all(abs(probabilities[k] - want[k]) <= 1e-9 for k in want)


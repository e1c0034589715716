"""Small helpers shared by the tests."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest


def sqlstate_of(conn: psycopg.Connection[Any], query: str, params: Any = None) -> psycopg.Error:
    """Run ``query`` expecting a database error; return it."""
    with pytest.raises(psycopg.Error) as info:
        conn.execute(query, params)
    return info.value


def relations(conn: psycopg.Connection[Any], schema: str = "public") -> set[str]:
    rows = conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relkind IN ('r','v','m')",
        (schema,),
    ).fetchall()
    return {r[0] for r in rows}


MANUAL_TRAINING = """
CREATE TABLE training (id int, class int, attributes int[]);
INSERT INTO training VALUES (1,1,'{1,2,3}'), (2,1,'{1,2,1}'), (3,1,'{1,4,3}'),
                            (4,2,'{1,2,2}'), (5,2,'{0,2,2}'), (6,2,'{0,1,3}');
CREATE TABLE toclassify (id int, attributes int[]);
INSERT INTO toclassify VALUES (1,'{0,2,1}'), (2,'{1,2,3}');
"""

MANUAL_GAUSSIAN = """
CREATE TABLE gaussian_data (id int, sex int, attributes float8[]);
INSERT INTO gaussian_data VALUES (1,1,'{6,180,12}'), (2,1,'{5.92,190,12}'), (3,1,'{5.58,170,11}'),
    (4,1,'{5.92,165,11}'), (5,2,'{5,100,6}'), (6,2,'{5.5,150,6}'), (7,2,'{5.42,130,7}'), (8,2,'{5.75,150,8}');
CREATE TABLE gaussian_test (id int, sex int, attributes float8[]);
INSERT INTO gaussian_test VALUES (9,1,'{5.8,180,11}'), (10,2,'{5,160,6}');
"""

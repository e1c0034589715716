"""Shared data loading for the tests of named models (tests/models/)."""

from __future__ import annotations

from typing import Any

import psycopg

from conftest import data_file

ADULT_COLUMNS = (
    "age int, workclass text, fnlwgt int, education text, education_num int, marital_status text, occupation text, "
    "relationship text, race text, sex text, capital_gain int, capital_loss int, hours_per_week int, "
    "native_country text, income text"
)


def load_adult(db: psycopg.Connection[Any], table: str, which: str = "train") -> None:
    """adult_<which>.csv as ordinary columns (text and int), '?' read as NULL, plus an id column."""
    path = data_file(f"adult_{which}.csv")
    db.execute(f"CREATE TABLE {table} ({ADULT_COLUMNS})")
    with db.cursor().copy(f"COPY {table} FROM STDIN WITH (FORMAT csv, HEADER true, NULL '?')") as copy:
        copy.write(path.read_bytes())
    db.execute(f"ALTER TABLE {table} ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
    db.execute(f"ANALYZE {table}")

"""Deterministic benchmark data, generated inside the database.

Pseudo-randomness is ``hashint8extended(key, seed)`` (53 bits mapped to [0, 1)),
so every run on every machine builds the same tables; ``random()`` is never used.
"""

from __future__ import annotations

from dataclasses import dataclass

# u(key, seed): a uniform [0, 1) float8 from a 64-bit hash; inlined by the planner.
SUPPORT_SQL = """
CREATE SCHEMA IF NOT EXISTS bench;
CREATE OR REPLACE FUNCTION bench.u(k bigint, seed bigint) RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT (pg_catalog.hashint8extended(k, seed) & 9007199254740991)::float8 / 9007199254740992.0 $$;
-- standard normal by Box-Muller from two independent uniforms
CREATE OR REPLACE FUNCTION bench.z(k bigint, seed bigint) RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT sqrt(-2.0 * ln(1.0 - bench.u(k, seed))) * cos(2.0 * pi() * bench.u(k, seed + 7919)) $$;
"""

# class priors 0.5 / 0.3 / 0.2
_CLASS = "CASE WHEN bench.u(id, 1) < 0.5 THEN 0 WHEN bench.u(id, 1) < 0.8 THEN 1 ELSE 2 END"

# categorical attribute j of class c: with probability 0.1 the class's mode (3c + j) mod 10,
# otherwise uniform over 0..9 (so P(mode | c) = 0.19, every other value 0.09)
_CAT = "CASE WHEN bench.u(id, 1000 + j) < 0.1 THEN (3 * c + j) % 10 ELSE floor(10 * bench.u(id, 2000 + j))::int END"

# numeric attribute j of class c: normal, mean 0.25 * ((c + j) mod 3), sd 1 + 0.25 c
_NUM = "0.25 * ((c + j) % 3) + (1 + 0.25 * c) * bench.z(id, 3000 + 2 * j)"


@dataclass(frozen=True)
class Dataset:
    name: str
    rows: int
    kind: str  # 'cat', 'num', 'mixed', 'wide'
    num_attrs: int
    numeric: tuple[int, ...]  # 1-based numeric attribute indices
    wide_values: int = 0  # 'domain': the number of values of attribute 1 (the others as 'cat')

    @property
    def numeric_text(self) -> str:
        return "{" + ",".join(map(str, self.numeric)) + "}"

    def create_sql(self) -> str:
        n = int(self.rows)
        if self.kind == "cat":
            arr = f"ARRAY(SELECT {_CAT} FROM generate_series(1, {self.num_attrs}) AS j)"
        elif self.kind == "num":
            arr = f"ARRAY(SELECT {_NUM} FROM generate_series(1, {self.num_attrs}) AS j)"
        elif self.kind == "mixed":
            ncat = self.num_attrs - len(self.numeric)
            arr = (
                f"ARRAY(SELECT CASE WHEN j <= {ncat} THEN ({_CAT})::float8 ELSE {_NUM} END "
                f"FROM generate_series(1, {self.num_attrs}) AS j)"
            )
        elif self.kind == "domain":
            # attribute 1 uniform over wide_values values (a zip-code-like attribute), the others as 'cat'
            arr = (
                f"ARRAY(SELECT CASE WHEN j = 1 THEN floor({int(self.wide_values)} * bench.u(id, 4000))::int ELSE {_CAT} END "
                f"FROM generate_series(1, {self.num_attrs}) AS j)"
            )
        elif self.kind == "wide":
            # binary attribute j: P(1 | c) drawn once per (class, attribute) from [0.35, 0.65)
            arr = (
                f"ARRAY(SELECT (bench.u(id, 10000 + j) < 0.35 + 0.3 * bench.u(c, 5000 + j))::int "
                f"FROM generate_series(1, {self.num_attrs}) AS j)"
            )
        else:  # pragma: no cover
            raise ValueError(self.kind)
        return (
            f"CREATE TABLE {self.name} AS SELECT id, c AS class, {arr} AS attributes "
            f"FROM (SELECT id::int AS id, {_CLASS} AS c FROM generate_series(1, {n}) AS id) AS s "
            f"ORDER BY id"
        )


DATASETS = {
    d.name: d
    for d in [
        Dataset("cat200k", 200_000, "cat", 20, ()),
        Dataset("cat1m", 1_000_000, "cat", 20, ()),
        Dataset("num200k", 200_000, "num", 10, tuple(range(1, 11))),
        Dataset("num1m", 1_000_000, "num", 10, tuple(range(1, 11))),
        Dataset("mixed200k", 200_000, "mixed", 15, tuple(range(11, 16))),
        Dataset("wide", 20_000, "wide", 1000, ()),
        Dataset("dom16k", 200_000, "domain", 20, (), 16_000),
        # issue 19's row: the same domain at 64,000 rows, where the release's fixed cost weighs more
        Dataset("dom16k_64k", 64_000, "domain", 20, (), 16_000),
    ]
}


def domain_sql(d: Dataset, name: str) -> str:
    """The public domain table of a 'domain' or 'cat' dataset: classes 0..2, attribute 1 its values, the others 0..9."""
    first = d.wide_values or 10
    return (
        f"CREATE TABLE {name} AS SELECT 0 AS attr, c::text AS value FROM generate_series(0, 2) AS c "
        f"UNION ALL SELECT 1, v::text FROM generate_series(0, {first - 1}) AS v "
        f"UNION ALL SELECT j, v::text FROM generate_series(2, {d.num_attrs}) AS j, generate_series(0, 9) AS v"
    )

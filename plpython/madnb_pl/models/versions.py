"""Versions of a named model: each kept as its statistics, listed, and derived again by a rollback.

Every madnb.train (a new model, or ``replace``), madnb.update, madnb.forget and
madnb.rollback_model makes a new version of a model (:func:`record`, called by
:func:`madnb_pl.models.lifecycle._train` once the model's catalog row is written):

    statistics  a copy of the statistics table the version was derived from, in schema
                madnb_statistics (``<schema>.<model>@v<n>``, owned by the model's owner as
                its kept statistics are): a model's statistics are its every number, and
                their size is the model's (cells per class and value), never the rows'
    a row       of ``madnb._model_versions`` (``migrations/0011``): who made it, when, by
                which operation, from what source and how many rows; and what derives
                the model from those statistics again (:func:`stored`: kind, label,
                features and their roles, parameters, the table whose columns it has)

The last :func:`versions_kept` versions stay (setting ``madnb.model_versions_kept``,
default :data:`DEFAULT_KEPT`); older ones are dropped when a new one is recorded.  A
rollback (:func:`madnb_pl.models.lifecycle.rollback_model`) copies a version's
statistics into a new kept table and derives the model from them through the pipeline of
every training (no pass over any row), as a new version: operation 'rollback'.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError
from ..core.names import ModelName, NewName, Relation, created
from ..core.sql import Plpy, Sql, quote_ident
from ..derive.update import copy_statistics
from ..merge import part_sources
from ..release import statistics_table
from . import catalog
from .kinds.base import TrainRequest

KEPT_SETTING = "madnb.model_versions_kept"
"""The setting that says how many versions of each model are kept (the current one included)."""
DEFAULT_KEPT = 10
COLUMNS, STATISTICS = "columns", "statistics"
"""Where a version's model came from: a table's columns (madnb.train), or released statistics (madnb.train_from_statistics)."""


def versions_kept(plpy: Plpy) -> int:
    """``madnb.model_versions_kept`` (a whole number >= 1; unset: :data:`DEFAULT_KEPT`), 22023 otherwise."""
    v = plpy.execute(
        plpy.prepare(Sql("SELECT pg_catalog.current_setting($1, true) AS v"), ["pg_catalog.text"]), [KEPT_SETTING]
    )[0]["v"]
    if v is None or v.strip() == "":
        return DEFAULT_KEPT
    try:
        n = int(v)
    except ValueError:
        n = 0
    if n < 1:
        raise MadnbError(
            "22023", f"{KEPT_SETTING} must be a whole number of at least 1", detail=f"it is {v!r}",
            hint=f"SET {KEPT_SETTING} = 10 keeps the last ten versions of each model (the current one among them)",
        )
    return n


def stored(
    kind: str, origin: str, source_sql: str, catalog_source: str, label: str, label_type: str,
    features: list[dict[str, str]], smoothing: float, parameters: dict[str, Any] | None, privacy: dict[str, Any] | None,
    weight: str | None = None,
) -> dict[str, Any]:
    """What derives a version's model again from its statistics (``madnb._model_versions.model``); ``weight``: the
    column of sample weights it was trained with (absent: unweighted)."""
    out = {
        "kind": kind, "origin": origin, "source": source_sql, "catalog_source": catalog_source, "label": label,
        "label_type": label_type, "features": features, "smoothing": smoothing, "parameters": parameters, "privacy": privacy,
    }
    if weight is not None:
        out["weight"] = weight
    return out


def request(kind: str, features: list[dict[str, str]], label: str, parameters: dict[str, Any] | None, smoothing: float,
            source: str | None, weight: str | None = None) -> TrainRequest:
    """madnb.train's arguments that make a model of these features, label and parameters (and sample weights
    ``weight``) from ``source``'s columns.

    Names are quoted (they are the columns' own); the categorical role of a numeric column is asked for by name
    (kind 'naive_bayes'); each kind's Laplace smoothing goes where its training takes it.
    """
    options = dict(parameters or {})
    categorical: list[str | None] | None = (
        [str(quote_ident(f["name"])) for f in features if f["role"] == "categorical"] if kind == "naive_bayes" else None
    )
    laplace = smoothing if kind == "naive_bayes" or (kind == "categorical" and "alpha" not in options) else 1.0
    return TrainRequest(
        source, str(quote_ident(label)), [str(quote_ident(f["name"])) for f in features], None, categorical or None, laplace,
        options, parameters is not None, None, None, None, None, None if weight is None else str(quote_ident(weight)),
    )


@dataclass(frozen=True)
class Version:
    """One row of madnb._model_versions."""

    version: int
    operation: str
    source: str
    rows: int
    training_rows: int
    statistics: str
    model: dict[str, Any]
    owner: str


_KEY = "v.schema_name OPERATOR(pg_catalog.=) $1 AND v.name OPERATOR(pg_catalog.=) $2"


def read(plpy: Plpy, name: ModelName, version: int) -> Version | None:
    rows = plpy.execute(
        plpy.prepare(
            Sql("SELECT v.version, v.operation, v.source, v.rows, v.training_rows, v.statistics, v.model::pg_catalog.text AS model, "
            f"v.owner::pg_catalog.text AS owner FROM madnb._model_versions AS v WHERE {_KEY} AND v.version OPERATOR(pg_catalog.=) $3"),
            ["pg_catalog.name", "pg_catalog.text", "pg_catalog.int4"],
        ),
        [name.schema, name.base, version],
    )
    if not rows:
        return None
    r = rows[0]
    return Version(int(r["version"]), r["operation"], r["source"], int(r["rows"]), int(r["training_rows"]), r["statistics"],
                   json.loads(r["model"]), r["owner"])


def latest(plpy: Plpy, name: ModelName) -> Version | None:
    """The newest recorded version of model ``name`` (None: none recorded)."""
    top = plpy.execute(
        plpy.prepare(Sql(f"SELECT pg_catalog.max(v.version) AS v FROM madnb._model_versions AS v WHERE {_KEY}"),
                     ["pg_catalog.name", "pg_catalog.text"]),
        [name.schema, name.base],
    )[0]["v"]
    return None if top is None else read(plpy, name, int(top))


def next_version(plpy: Plpy, name: ModelName, current: int | None) -> int:
    """The number of the model's next version: one more than any recorded, or than its catalog's ``current``."""
    newest = latest(plpy, name)
    return max(0 if newest is None else newest.version, current or 0) + 1


def record(
    plpy: Plpy, name: ModelName, version: int, operation: str, source: str, rows: int, kept: NewName,
    model: dict[str, Any], training_rows: int, classes: list[str],
) -> None:
    """Keep version ``version`` of model ``name``: a copy of its statistics table ``kept`` and its row; then drop the
    versions older than the last :func:`versions_kept`."""
    keep = versions_kept(plpy)  # a bad setting fails before anything is written
    rel = created(plpy, kept)
    header = part_sources.read_header(plpy, rel, "kept statistics")
    dest = statistics_table.kept_name(plpy, NewName(name.schema, f"{name.base}@v{version}"))
    copy_statistics(plpy, rel, header, dest)
    plpy.execute(
        plpy.prepare(
            Sql("INSERT INTO madnb._model_versions (schema_name, name, version, operation, source, rows, training_rows, classes, "
            "statistics, model) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::pg_catalog.jsonb)"),
            ["pg_catalog.name", "pg_catalog.text", "pg_catalog.int4", "pg_catalog.text", "pg_catalog.text", "pg_catalog.int8",
             "pg_catalog.int8", "pg_catalog.text[]", "pg_catalog.text", "pg_catalog.text"],
        ),
        [name.schema, name.base, version, operation, source, rows, training_rows, classes, dest.sql, json.dumps(model)],
    )
    _drop_where(plpy, name, "v.version OPERATOR(pg_catalog.<=) $3", version - keep)


def drop_all(plpy: Plpy, name: ModelName) -> None:
    """Drop every version of model ``name`` (madnb.drop_model)."""
    _drop_where(plpy, name, "$3 OPERATOR(pg_catalog.=) $3", 0)


def _drop_where(plpy: Plpy, name: ModelName, condition: str, value: int) -> None:
    gone = plpy.execute(
        plpy.prepare(
            Sql(f"DELETE FROM madnb._model_versions AS v WHERE {_KEY} AND {condition} "
            "RETURNING v.statistics, v.owner::pg_catalog.text AS owner"),
            ["pg_catalog.name", "pg_catalog.text", "pg_catalog.int4"],
        ),
        [name.schema, name.base, value],
    )
    for r in gone:
        table = catalog.owned_statistics(plpy, r["statistics"], r["owner"])
        if table is not None:
            plpy.execute(Sql(f"DROP TABLE {table}"))


def owned_relation(plpy: Plpy, statistics: str, owner: str) -> Relation | None:
    """:func:`madnb_pl.models.catalog.owned_statistics` as a relation."""
    table = catalog.owned_statistics(plpy, statistics, owner)
    if table is None:
        return None
    r = plpy.execute(
        plpy.prepare(Sql("SELECT c.relname::pg_catalog.text AS n, c.oid::pg_catalog.int8 AS o FROM pg_catalog.pg_class AS c "
                         "WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass($1)"), ["pg_catalog.text"]),
        [table],
    )[0]
    return Relation(statistics_table.KEPT_SCHEMA, r["n"], int(r["o"]))


def statistics_of(plpy: Plpy, name: ModelName, v: Version) -> Relation:
    """Version ``v``'s statistics table (55000 when it is gone)."""
    rel = owned_relation(plpy, v.statistics, v.owner)
    if rel is None:
        raise MadnbError(
            "55000", f'the statistics of version {v.version} of model "{name.key}" are gone',
            detail=f"its statistics table {v.statistics} does not exist (or is not the model owner's)",
            hint="madnb.model_versions lists the versions kept",
        )
    return rel


def listing(plpy: Plpy, name: ModelName) -> list[dict[str, Any]]:
    """madnb.model_versions: model ``name``'s versions kept, oldest first (42704 for no such model)."""
    m = catalog.require(plpy, name)
    rows = plpy.execute(
        plpy.prepare(
            Sql("SELECT v.version, v.version OPERATOR(pg_catalog.=) $3 AS current, v.created_at, v.created_by, v.operation, v.source, "
            "v.rows, v.training_rows, v.classes, v.statistics, "
            "COALESCE(pg_catalog.pg_total_relation_size(pg_catalog.to_regclass(v.statistics)), 0)::pg_catalog.int8 AS size "
            f"FROM madnb._model_versions AS v WHERE {_KEY} ORDER BY v.version"),
            ["pg_catalog.name", "pg_catalog.text", "pg_catalog.int4"],
        ),
        [name.schema, name.base, m.version],
    )
    return [dict(r) for r in rows]


__all__ = [
    "COLUMNS", "DEFAULT_KEPT", "KEPT_SETTING", "STATISTICS", "Version", "drop_all", "latest", "listing", "next_version", "owned_relation", "read",
    "record", "request", "statistics_of", "stored", "versions_kept",
]

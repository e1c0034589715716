"""The catalog of named models, read in one place.

One row of ``madnb._models`` per model (``migrations/0006``, ``0007``, ``0008``,
``0009``), keyed by the schema of its objects and its identifier
(:class:`madnb_pl.core.names.ModelName`); users read it as the view ``madnb.models``.
:func:`read` and :func:`require` are the only readers: training, dropping,
evaluation, cross-validation and export see the same :class:`CatalogModel`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError
from ..core.names import ModelName, model_name_parts
from ..core.sql import Plpy
from ..predict import generated

TABLE_SUFFIXES = ("_class_priors", "_feature_probs", "_numeric_stats")
"""The model tables' names: the model's identifier + these."""
HELPER_SUFFIXES = ("_scores_best", "_scores_proba", "_scores_proba_jsonb")
"""The names of the per-row helpers of a model outside madnb_models (and of an export): its identifier + these."""
MAX_MODEL_NAME_BYTES = 63 - max(len(s) for s in generated.SUFFIXES + TABLE_SUFFIXES + HELPER_SUFFIXES)


def model_name(text: str | None) -> ModelName:
    """The model's name: one identifier (schema madnb_models) or schema.identifier, short enough for
    the names derived from it (42622 otherwise)."""
    name = model_name_parts(text)
    if len(name.base.encode()) > MAX_MODEL_NAME_BYTES:
        raise MadnbError(
            "42622", f'model name "{name.base}" is too long',
            detail=f"a model name has at most {MAX_MODEL_NAME_BYTES} bytes: its objects' names add suffixes such as _predict_proba_array",
            hint="choose a shorter name",
        )
    return name


@dataclass(frozen=True)
class CatalogModel:
    """A named model as madnb._models describes it."""

    name: ModelName
    kind: str
    source: str
    label: str
    label_type: str
    features: list[dict[str, str]]  # [{name, role, type}] in order
    classes: list[str]
    smoothing: float
    training_rows: int
    parameters: dict[str, Any] | None  # madnb.train's options, as given
    statistics: str  # the statistics table it keeps (quoted, qualified)
    functions: list[str]  # what training created (regprocedure text)
    tables: list[str]  # what training created (regclass text)
    owner: str


_SELECT = (
    "SELECT m.kind, m.source, m.label, m.label_type, m.features::pg_catalog.text AS features, m.classes, m.smoothing, "
    "m.training_rows, m.parameters::pg_catalog.text AS parameters, m.statistics, m.functions, m.tables, "
    "m.owner::pg_catalog.text AS owner FROM madnb._models AS m "
    "WHERE m.schema_name OPERATOR(pg_catalog.=) $1 AND m.name OPERATOR(pg_catalog.=) $2"
)


def read(plpy: Plpy, name: ModelName) -> CatalogModel | None:
    """Model ``name``'s catalog row, or None if there is no such model."""
    rows = plpy.execute(plpy.prepare(_SELECT, ["pg_catalog.name", "pg_catalog.text"]), [name.schema, name.base])
    if not rows:
        return None
    r = rows[0]
    return CatalogModel(
        name, r["kind"], r["source"], r["label"], r["label_type"], json.loads(r["features"]), [str(c) for c in r["classes"]],
        float(r["smoothing"]), int(r["training_rows"]), None if r["parameters"] is None else json.loads(r["parameters"]),
        r["statistics"], list(r["functions"]), list(r["tables"]), r["owner"],
    )


def require(plpy: Plpy, name: ModelName) -> CatalogModel:
    """Model ``name``'s catalog row (42704 if there is none)."""
    m = read(plpy, name)
    if m is None:
        raise MadnbError("42704", f'model "{name.key}" does not exist', hint="madnb.models lists the models")
    return m


def delete(plpy: Plpy, name: ModelName) -> None:
    """Remove model ``name``'s row (row level security: only its owner's members may)."""
    plpy.execute(
        plpy.prepare(
            "DELETE FROM madnb._models AS m WHERE m.schema_name OPERATOR(pg_catalog.=) $1 AND m.name OPERATOR(pg_catalog.=) $2",
            ["pg_catalog.name", "pg_catalog.text"],
        ),
        [name.schema, name.base],
    )


__all__ = ["HELPER_SUFFIXES", "MAX_MODEL_NAME_BYTES", "TABLE_SUFFIXES", "CatalogModel", "delete", "model_name", "read", "require"]

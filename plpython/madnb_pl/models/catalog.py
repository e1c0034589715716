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
from ..core.names import ModelName, NewName, model_name_parts
from ..core.sql import Plpy, Sql
from ..derive.model_tables import ModelTables
from ..predict.explain import ExplainNames
from ..predict.generated import MAX_ROW_CHECKS, FunctionNames, ShareNames
from ..release.statistics_table import KEPT_SCHEMA

PREDICT_SUFFIXES = ("_predict", "_predict_proba", "_predict_proba_array")
"""The prediction functions' names: the model's identifier + these (predict, predict_proba, predict_proba_array)."""
ROW_MODEL_SUFFIXES = ("_row_class", "_row_proba", "_row_proba_array")
"""The internal functions that hold the model for the row form when it cannot call the column form (more than
100 features): the model's identifier + these (predict, predict_proba, predict_proba_array)."""
EXACT_SUFFIX = "_exact_class"
"""The internal function of a model's predict that computes a row's class from its unshifted scores, for the rows
whose shifted scores show no clear winner (:func:`madnb_pl.predict.generated.clear_bound`): the model's identifier + this."""
ROW_CHECK_SUFFIX = "_row_check_"
"""The internal row checks of such a row form: the model's identifier + this + 1, 2, ... (at most
:data:`madnb_pl.predict.generated.MAX_ROW_CHECKS`)."""
TABLE_SUFFIXES = ("_class_priors", "_feature_probs", "_numeric_stats")
"""The model tables' names: the model's identifier + these."""
HELPER_SUFFIXES = ("_scores_best", "_scores_proba", "_scores_proba_jsonb", "_scores_clear")
"""The names of the per-row helpers of a model outside madnb_models (and of an export): its identifier + these."""
SHARE_SUFFIXES = ("_score_share", "_share_encoding")
"""Private prediction's functions (:mod:`madnb_pl.predict.share`): a share of an encoded row -> shares of the
log-scores, and the public encoding; the model's identifier + these."""
EXPLAIN_SUFFIXES = ("_explain", "_row_explanation", "_explain_helper", "_explain_runner_up")
"""The explanation function (:mod:`madnb_pl.predict.explain`), its internal one for a row form that cannot call the
column form, and (a model outside madnb_models) its copies of madnb._nb_explain and madnb._nb_runner_up: the model's
identifier + these."""
FUNCTION_SUFFIXES = (
    PREDICT_SUFFIXES + HELPER_SUFFIXES + ROW_MODEL_SUFFIXES + (EXACT_SUFFIX,) + tuple(f"{ROW_CHECK_SUFFIX}{i}" for i in range(1, MAX_ROW_CHECKS + 1))
    + SHARE_SUFFIXES + EXPLAIN_SUFFIXES
)
"""Every suffix of a model's function names.  No suffix of an object's name ends with another (``_row_class``, not
``_row_predict``): model ``m_row``'s predict function is never model ``m``'s internal one."""
MAX_PREFIX_BYTES = 63 - max(len(s) for s in FUNCTION_SUFFIXES)
"""The longest prefix of an export's function names."""
MAX_MODEL_NAME_BYTES = 63 - max(len(s) for s in FUNCTION_SUFFIXES + TABLE_SUFFIXES)


@dataclass(frozen=True)
class ModelObjects:
    """The names of a model's objects, the one place they are spelled: schema ``schema``, names ``prefix`` + a suffix.

    A named model's objects are ``ModelObjects.of(name)`` (its schema and identifier);
    an exported script's functions are the same names under the export's schema and prefix.
    """

    schema: str
    prefix: str

    @staticmethod
    def of(name: ModelName) -> ModelObjects:
        return ModelObjects(name.schema, name.base)

    def named(self, suffix: str) -> NewName:
        return NewName(self.schema, self.prefix + suffix)

    @property
    def class_priors(self) -> NewName:
        return self.named(TABLE_SUFFIXES[0])

    @property
    def feature_probs(self) -> NewName:
        return self.named(TABLE_SUFFIXES[1])

    @property
    def numeric_stats(self) -> NewName:
        return self.named(TABLE_SUFFIXES[2])

    def tables(self, numeric: bool) -> ModelTables:
        """MADlib's model tables of a model (``numeric``: with Gaussian features, numericFeatureStats too)."""
        return ModelTables(self.feature_probs, self.class_priors, self.numeric_stats if numeric else None)

    @property
    def predict_functions(self) -> list[NewName]:
        """predict, predict_proba and predict_proba_array (:data:`PREDICT_SUFFIXES` order)."""
        return [self.named(s) for s in PREDICT_SUFFIXES]

    @property
    def helpers(self) -> list[NewName]:
        """The per-row helpers' copies (:data:`HELPER_SUFFIXES` order): best, proba, proba_jsonb, clear."""
        return [self.named(s) for s in HELPER_SUFFIXES]

    @property
    def row_models(self) -> list[NewName]:
        """Internal: the model for a row, which the row form calls after its row checks (:data:`ROW_MODEL_SUFFIXES`)."""
        return [self.named(s) for s in ROW_MODEL_SUFFIXES]

    @property
    def exact_class(self) -> NewName:
        """Internal: predict's class from the unshifted scores, for a row near a tie (:data:`EXACT_SUFFIX`)."""
        return self.named(EXACT_SUFFIX)

    @property
    def row_checks(self) -> list[NewName]:
        """Internal: the row form's checks that the row has the feature columns, 1 to :data:`MAX_ROW_CHECKS`."""
        return [self.named(f"{ROW_CHECK_SUFFIX}{i}") for i in range(1, MAX_ROW_CHECKS + 1)]

    @property
    def share_functions(self) -> ShareNames:
        """Private prediction's functions, ``_score_share`` and ``_share_encoding`` (:data:`SHARE_SUFFIXES`)."""
        return ShareNames(*(self.named(s) for s in SHARE_SUFFIXES))

    @property
    def prediction_functions(self) -> FunctionNames:
        """The names :mod:`madnb_pl.predict.generated` and :mod:`madnb_pl.predict.share` write a model's functions under."""
        return FunctionNames(self.predict_functions, self.row_models, self.row_checks, self.share_functions, self.exact_class)

    @property
    def explain_functions(self) -> ExplainNames:
        """The explanation function ``_explain``, its internal ``_row_explanation`` and the row checks it shares
        (calling madnb's helper: :meth:`explain_helper` names a copy)."""
        return ExplainNames(self.named(EXPLAIN_SUFFIXES[0]), self.named(EXPLAIN_SUFFIXES[1]), self.row_checks)

    @property
    def explain_helper(self) -> NewName:
        """The copy of madnb._nb_explain a model outside madnb_models calls (``_explain_helper``)."""
        return self.named(EXPLAIN_SUFFIXES[2])

    @property
    def explain_runner_up(self) -> NewName:
        """The copy of madnb._nb_runner_up its copy of madnb._nb_explain calls (``_explain_runner_up``)."""
        return self.named(EXPLAIN_SUFFIXES[3])

    @property
    def function_names(self) -> list[str]:
        """Every function name a model may have (prediction functions, their internal ones, helpers), unqualified."""
        return [self.prefix + s for s in FUNCTION_SUFFIXES]


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
    privacy: dict[str, Any] | None = None  # a private model's release (epsilon, delta, release_id, ...), None: exact
    version: int = 1  # the model's current version (madnb_pl.models.versions)


_SELECT = Sql(
    "SELECT m.kind, m.source, m.label, m.label_type, m.features::pg_catalog.text AS features, m.classes, m.smoothing, "
    "m.training_rows, m.parameters::pg_catalog.text AS parameters, m.statistics, m.functions, m.tables, "
    "m.owner::pg_catalog.text AS owner, m.privacy::pg_catalog.text AS privacy, m.version FROM madnb._models AS m "
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
        None if r["privacy"] is None else json.loads(r["privacy"]), int(r["version"]),
    )


def require(plpy: Plpy, name: ModelName) -> CatalogModel:
    """Model ``name``'s catalog row (42704 if there is none)."""
    m = read(plpy, name)
    if m is None:
        raise MadnbError("42704", f'model "{name.key}" does not exist', hint="madnb.models lists the models")
    return m


def owned_statistics(plpy: Plpy, statistics: str, owner: str) -> str | None:
    """The table of schema madnb_statistics, owned by role ``owner``, whose quoted name (as training wrote it) is
    ``statistics`` (regclass text), or None.

    The catalog's text is only compared: a row the model's owner edited cannot make a
    superuser's drop or rollback take another role's table.
    """
    rows = plpy.execute(
        plpy.prepare(
            Sql("SELECT c.oid::pg_catalog.regclass::pg_catalog.text AS r FROM pg_catalog.pg_class AS c "
            "WHERE c.relnamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($2) "
            "AND $1 OPERATOR(pg_catalog.=) ('\"' OPERATOR(pg_catalog.||) pg_catalog.replace($2, '\"', '\"\"') "
            "OPERATOR(pg_catalog.||) '\".\"' OPERATOR(pg_catalog.||) "
            "pg_catalog.replace(c.relname::pg_catalog.text, '\"', '\"\"') OPERATOR(pg_catalog.||) '\"') "
            "AND c.relowner OPERATOR(pg_catalog.=) pg_catalog.to_regrole(pg_catalog.quote_ident($3))"),
            ["pg_catalog.text", "pg_catalog.text", "pg_catalog.text"],
        ),
        [statistics, KEPT_SCHEMA, owner],
    )
    return str(rows[0]["r"]) if rows else None


def delete(plpy: Plpy, name: ModelName) -> None:
    """Remove model ``name``'s row (row level security: only its owner's members may)."""
    plpy.execute(
        plpy.prepare(
            Sql("DELETE FROM madnb._models AS m WHERE m.schema_name OPERATOR(pg_catalog.=) $1 AND m.name OPERATOR(pg_catalog.=) $2"),
            ["pg_catalog.name", "pg_catalog.text"],
        ),
        [name.schema, name.base],
    )


__all__ = [
    "EXACT_SUFFIX", "EXPLAIN_SUFFIXES", "FUNCTION_SUFFIXES", "HELPER_SUFFIXES", "MAX_MODEL_NAME_BYTES", "MAX_PREFIX_BYTES", "PREDICT_SUFFIXES",
    "ROW_CHECK_SUFFIX",
    "ROW_MODEL_SUFFIXES", "SHARE_SUFFIXES", "TABLE_SUFFIXES", "CatalogModel",
    "ModelObjects", "delete", "model_name", "owned_statistics", "read", "require",
]

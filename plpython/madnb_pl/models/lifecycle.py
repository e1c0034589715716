"""Named models: madnb.train and madnb.drop_model, and the catalog they keep.

A model name is one identifier (PostgreSQL's rules: unquoted folds to lower
case), unique in the database.  Training a model is the same pipeline for every
kind (:data:`madnb_pl.models.kinds.KINDS`, the interface :class:`madnb_pl.models.kinds.base.Kind`):

    here        the name, its lock, the kind, the options' keys, the common checks
    kind        resolve: parameters checked, source / label / features resolved
                (:func:`madnb_pl.inputs.columns.resolve_inputs`, every kind's)
    here        replacing an older model of the name (its functions kept where they can be)
    kind        statistics: the one pass -> a statistics table (madnb_statistics)
    kind        derive: that table -> the model tables, commented and readable
    kind        read_numbers and function_statements: the model's numbers -> the
                prediction functions, bodies shared by every kind (:mod:`madnb_pl.predict.generated`)
    here        the catalog row of madnb._models (read through the view madnb.models)

madnb.train_from_statistics takes the same steps (:func:`_train`) with the statistics already
released: its kind (:mod:`madnb_pl.models.kinds.statistics`) gathers statistics tables or share
sums where resolve reads a table's columns, and sums them where statistics runs the pass.

The model's objects are named in one place (:class:`madnb_pl.models.catalog.ModelObjects`):
in schema madnb_models, for model ``m``, tables ``m_class_priors``, ``m_feature_probs``,
``m_numeric_stats`` (with Gaussian features), functions ``m_predict``, ``m_predict_proba``,
``m_predict_proba_array``, ``m_explain`` (and, for a row form that cannot call the column form, the internal
``m_row_check_<i>``, ``m_row_class``, ``m_row_proba``, ``m_row_proba_array``, ``m_row_explanation``); its statistics
table is named in the catalog.  A call
either completes or leaves nothing behind.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import MODELS_SCHEMA, Column, ModelName, NewName, Relation, created
from ..core.progress import Progress
from ..core.sql import Plpy, Sql, quote_ident, text_sql
from ..derive import update as updates
from ..inputs import arrays
from ..merge import part_sources
from ..predict import explain, generated
from ..release import statistics_table
from . import catalog, export, versions
from .catalog import CatalogModel, ModelObjects, model_name
from .cross_validation import tuned_request
from .kinds import KIND, Kind, kind_named, parse_options
from .kinds.base import N, Released, T, TrainRequest
from .kinds.statistics import STATISTICS_KIND

MODEL_LOCK = 1835101548
"""The first key of the transaction-level advisory lock a model name is written under (the privacy
ledger's per-source lock uses 1835098222)."""


def _lock_name(plpy: Plpy, name: ModelName) -> None:
    """Hold model ``name``'s advisory lock until the transaction ends.

    Two sessions training (or dropping) one name run one after the other, and the
    second sees what the first committed: 42710 "already exists", not a raw
    unique violation on the catalogs, for two trainings of a new name at once.
    """
    plpy.execute(
        plpy.prepare(
            Sql(f"SELECT pg_catalog.pg_advisory_xact_lock({MODEL_LOCK}, pg_catalog.hashtext($1))"), ["pg_catalog.text"]
        ),
        [f"{quote_ident(name.schema)}.{quote_ident(name.base)}"],
    )


def _check_may_train(plpy: Plpy, name: ModelName) -> None:
    """A role trains a named model into a schema it may create in, where no other role may (42501).

    Schema madnb_models is its owner's (madnb.grant_usage never gives CREATE there);
    any other schema is the training role's choice, e.g. ``analytics.churn``.  In
    both, a role that may create functions there could plant an overload of the
    model's prediction function for an exact row type, which PostgreSQL would
    prefer to the model's (anyelement) one inside everybody's predictions: a schema
    where another role (not a superuser) may create is refused.
    """
    row = plpy.execute(
        plpy.prepare(
            Sql("SELECT n.oid IS NOT NULL AS found, pg_catalog.has_schema_privilege(n.oid, 'CREATE') AS ok, "
            "(SELECT r.rolname::pg_catalog.text FROM pg_catalog.pg_roles AS r WHERE NOT r.rolsuper "
            "AND r.rolname OPERATOR(pg_catalog.<>) CURRENT_USER AND pg_catalog.has_schema_privilege(r.oid, n.oid, 'CREATE') "
            "ORDER BY r.rolname LIMIT 1) AS other, pg_catalog.has_schema_privilege('public', n.oid, 'CREATE') AS everyone "
            "FROM (SELECT 1) AS one LEFT JOIN pg_catalog.pg_namespace AS n ON n.nspname OPERATOR(pg_catalog.=) $1"),
            ["pg_catalog.name"],
        ),
        [name.schema],
    )[0]
    if not row["found"]:
        raise MadnbError("3F000", f'schema "{name.schema}" does not exist', hint=f"create it, or train the model as {quote_ident(name.base)}")
    if not row["ok"]:
        if name.in_models_schema:
            raise MadnbError(
                "42501",
                f"permission denied to train a named model in schema {MODELS_SCHEMA}: only its owner may",
                detail=f"CREATE on {MODELS_SCHEMA} is given to no other role: one that may create functions there could make "
                "its own run inside another role's predictions",
                hint=f"train it into a schema you may create in, e.g. madnb.train('my_schema.{name.base}', ...)",
            )
        raise MadnbError("42501", f"permission denied to train a named model in schema {name.schema}",
                         hint="train it into a schema you may create in")
    if row["everyone"] or row["other"] is not None:
        who = "every role" if row["everyone"] else f'role "{row["other"]}"'
        raise MadnbError(
            "42501",
            f'{who} may create objects in schema "{name.schema}": a named model\'s functions need a schema only their owner may create in',
            detail="a role that may create functions there could plant an overload of the model's prediction function "
            "that PostgreSQL prefers to it, and run its code inside everybody's predictions",
            hint="train the model into a schema of your own (CREATE SCHEMA ... AUTHORIZATION ...)",
        )


def _check_may_drop(plpy: Plpy, name: ModelName, owner: str) -> None:
    """Only the model's owner (or a member of that role, a superuser) drops or replaces it (42501)."""
    ok = plpy.execute(
        plpy.prepare(Sql("SELECT pg_catalog.pg_has_role($1, 'MEMBER') AS ok"), ["pg_catalog.name"]), [owner]
    )[0]["ok"]
    if not ok:
        raise MadnbError("42501", f'must be owner of model "{name.key}"', detail=f'its owner is role "{owner}"')


def _drop_objects(plpy: Plpy, old: CatalogModel, functions: bool, cascade: bool = False) -> None:
    """Drop what a model's training made, as its catalog row ``old`` records it: its tables, its
    statistics table and (``functions``) its prediction functions; nothing else of the same names.

    Without ``cascade`` nothing is dropped with CASCADE: a view of the user's over
    one of them makes the call fail (2BP01), naming the view.
    """
    how = " CASCADE" if cascade else ""
    if functions:
        for fn in _existing(plpy, old, "functions"):
            plpy.execute(Sql(f"DROP FUNCTION {fn}{how}"))
    for table in _existing(plpy, old, "tables"):
        plpy.execute(Sql(f"DROP TABLE {table}{how}"))
    statistics = None if old.statistics is None else catalog.owned_statistics(plpy, old.statistics, old.owner)
    if statistics is not None:
        plpy.execute(Sql(f"DROP TABLE {statistics}{how}"))


_CATALOGS = {
    "functions": ("regprocedure", "proname", "pg_catalog.pg_proc AS x ON x.oid OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure(u.o) "
                  "AND x.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($2) "
                  "AND x.proowner OPERATOR(pg_catalog.=) pg_catalog.to_regrole(pg_catalog.quote_ident($3))"),
    "tables": ("regclass", "relname", "pg_catalog.pg_class AS x ON x.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass(u.o) "
               "AND x.relnamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($2) "
               "AND x.relowner OPERATOR(pg_catalog.=) pg_catalog.to_regrole(pg_catalog.quote_ident($3))"),
}


def _existing(plpy: Plpy, old: CatalogModel, objects: str) -> list[str]:
    """The ``objects`` (functions or tables) the catalog row ``old`` records that still exist, in the
    model's schema and owned by the model's owner, as regprocedure / regclass text; those dropped by
    hand are skipped, and a catalog row naming anything else drops nothing there."""
    return [o for o, _ in _existing_named(plpy, old, objects)]


def _existing_named(plpy: Plpy, old: CatalogModel, objects: str) -> list[tuple[str, str]]:
    """:func:`_existing`, each with its unqualified name."""
    reg, name, join = _CATALOGS[objects]
    rows = plpy.execute(
        plpy.prepare(
            Sql(f"SELECT x.oid::pg_catalog.{reg}::pg_catalog.text AS o, x.{name}::pg_catalog.text AS n "
            f"FROM pg_catalog.unnest($1) WITH ORDINALITY AS u(o, i) JOIN {join} ORDER BY u.i"),
            ["pg_catalog.text[]", "pg_catalog.text", "pg_catalog.text"],
        ),
        [old.functions if objects == "functions" else old.tables, old.name.schema, old.owner],
    )
    return [(r["o"], r["n"]) for r in rows]


def _created_functions(plpy: Plpy, name: ModelName, before: dict[str, str], kept: list[str]) -> list[str]:
    """The prediction functions this training made: those of the model's names that are new since
    ``before`` (regprocedure text -> body hash, taken before they were written), and ``kept`` (the
    previous version's, written in place).  A function of the user's that training would have
    rewritten makes the call fail (42723), so it is never taken over."""
    now = _function_bodies(plpy, name)
    for fn, body in before.items():
        if fn not in kept and now.get(fn) != body:
            raise MadnbError(
                "42723", f"function {fn} already exists and is not part of model \"{name.key}\"",
                hint="drop or rename that function, or choose another model name",
            )
    return sorted(fn for fn in now if fn not in before or fn in kept)


def _function_bodies(plpy: Plpy, name: ModelName) -> dict[str, str]:
    """The functions of schema madnb_models with the model's function names: regprocedure text -> md5 of the body."""
    rows = plpy.execute(
        plpy.prepare(
            Sql("SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text AS f, pg_catalog.md5(p.prosrc) AS h FROM pg_catalog.pg_proc AS p "
            "WHERE p.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($1) "
            "AND p.proname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2)"),
            ["pg_catalog.text", "pg_catalog.text[]"],
        ),
        [name.schema, ModelObjects.of(name).function_names],
    )
    return {r["f"]: r["h"] for r in rows}


def _helpers(plpy: Plpy, name: ModelName) -> generated.Helpers:
    """The per-row helpers model ``name``'s functions call: madnb's own in schema madnb_models; in the
    owner's schema, copies of them next to the model (:func:`madnb_pl.models.export.helper_copies`), so that
    predicting with it needs nothing but what its owner grants (USAGE on that schema)."""
    if name.in_models_schema:
        return generated.MADNB_HELPERS
    copies = export.helper_copies(plpy, ModelObjects.of(name), f"madnb model {name.key}")
    for statement in copies.statements:
        plpy.execute(statement)
    return export.copied_helpers(ModelObjects.of(name))


def _explain_names(plpy: Plpy, name: ModelName, comment_prefix: str) -> explain.ExplainNames:
    """The names model ``name``'s explanation is written under; outside madnb_models it calls a copy of madnb's
    helper next to it (:func:`madnb_pl.predict.explain.helper_copy`), as its prediction functions do (:func:`_helpers`)."""
    objects = ModelObjects.of(name)
    names = objects.explain_functions
    if name.in_models_schema:
        return names
    copy = objects.explain_helper
    _write_functions(plpy, explain.helper_copy(
        plpy, copy, objects.explain_runner_up, objects.helpers[0].sql, comment_prefix, plpy.quote_literal,
    ))
    return dataclasses.replace(names, helper=str(copy.sql))


@dataclass(frozen=True)
class _Made:
    """What a training's prediction functions are told apart by: the functions of the model's names
    before it wrote any (regprocedure text -> body hash) and the previous version's it rewrites in place."""

    before: dict[str, str]
    kept: list[str]

    def functions(self, plpy: Plpy, name: ModelName) -> list[str]:
        return _created_functions(plpy, name, self.before, self.kept)


@entry_point
def train(
    plpy: Plpy,
    model: str | None,
    source: str | None,
    label: str | None,
    features: list[str | None] | None = None,
    exclude: list[str | None] | None = None,
    categorical: list[str | None] | None = None,
    smoothing: float | None = 1.0,
    replace: bool | None = False,
    kind: str | None = KIND,
    epsilon: float | None = None,
    bounds: Any = None,
    domain: str | None = None,
    delta: float | None = None,
    options: Any = None,
    weight: str | None = None,
    tune: Any = None,
) -> None:
    """Train model ``model`` from the columns of ``source`` (see the module docstring); ``weight``: a column of
    sample weights (every statistic weighted, as scikit-learn's ``sample_weight``); with ``tune`` (a grid, jsonb
    text), with the parameters of its best point by cross-validation
    (:func:`madnb_pl.models.cross_validation.tuned_request`)."""
    name = model_name(model)
    _check_may_train(plpy, name)
    _lock_name(plpy, name)
    k = kind_named(kind)
    parameters = parse_options(k.name, options)
    request = TrainRequest(
        source, label, features, exclude, categorical, arrays.parse_smoothing(smoothing), parameters, options is not None,
        epsilon, bounds, domain, delta, weight,
    )
    if replace is None:
        raise MadnbError("22004", "replace must not be NULL")
    if epsilon is not None and weight is not None:
        raise MadnbError(
            "0A000", "a differentially private model cannot be trained with sample weights",
            detail="one row's weight scales its contribution to every count: the noise calibrated to one row "
            "(sensitivity 1) would no longer hide it",
            hint="train the private model without weight, or an exact weighted one (see docs/privacy.md)",
        )
    if epsilon is not None and not k.private:
        raise MadnbError(
            "0A000", f"a differentially private model of kind '{k.name}' is not supported",
            detail="private training from columns derives MADlib's kind of model from the noisy statistics",
            hint=f"train a private model with kind => '{KIND}' (the default), or an exact one of kind '{k.name}'",
        )
    if tune is None:
        _train(plpy, name, k, k.resolve(plpy, request), request, replace)
        return
    if epsilon is not None:
        raise MadnbError(
            "0A000", "tune is not supported for a private model",
            detail="the search scores exact models on the rows, which the private release must not disclose",
            hint="tune an exact model, then train the private one with its parameters",
        )
    tuned = tuned_request(plpy, k, request, tune)
    _train(plpy, name, k, k.resolve(plpy, tuned), tuned, replace)


@entry_point
def train_from_statistics(
    plpy: Plpy,
    model: str | None,
    statistics: list[str | None] | None,
    features: list[str | None] | None = None,
    label: str | None = "class",
    smoothing: float | None = 1.0,
    replace: bool | None = False,
) -> None:
    """Make model ``model`` from released statistics: statistics tables (here, foreign, ``server:table``) or the share
    sums of a secure aggregation, through the pipeline of every training (:mod:`madnb_pl.models.kinds.statistics`)."""
    name = model_name(model)
    if replace is None:
        raise MadnbError("22004", "replace must not be NULL")
    parsed = arrays.parse_smoothing(smoothing)
    _check_may_train(plpy, name)
    _lock_name(plpy, name)
    request = TrainRequest(None, label, features, None, None, parsed, {}, False, None, None, None, None)
    training = STATISTICS_KIND.from_statistics(plpy, statistics, features, label, parsed)
    _train(plpy, name, STATISTICS_KIND, training, request, replace)


@dataclass(frozen=True)
class _Rebuild:
    """A new version of a model from statistics already summed (madnb.update, forget, rollback_model): ``statistics``
    fills the new kept table (and says what it holds) where a training runs its pass; the version is ``operation``,
    made from ``source`` (``rows`` rows); ``source_sql`` / ``catalog_source`` are the model's training source as a
    rollback resolves it and as the catalog shows it."""

    operation: str
    source: str
    rows: int
    source_sql: str
    catalog_source: str
    statistics: Callable[[NewName], Released]


def _train(
    plpy: Plpy, name: ModelName, kind: Kind[T, N], training: T, request: TrainRequest, replace: bool, rebuild: _Rebuild | None = None,
) -> None:
    """The pipeline of every kind, around what the kind supplies: replace, release, derive, predict, catalog, version."""
    progress = Progress(plpy, f"train {name.key}", 4)
    label = kind.label(training)
    entry = kind.catalog_entry(training, request)
    signature = _signature([(f["name"], f["type"]) for f in entry.features])
    kept_functions, kept_internal, old = _clear_old_version(plpy, name, replace, label.type_sql, signature)
    version = versions.next_version(plpy, name, None if old is None else old.version)
    made = _Made(_function_bodies(plpy, name), kept_functions)
    # release: the statistics of the source, kept in madnb_statistics (private: charged, with noise)
    progress.phase("statistics pass")
    kept = statistics_table.kept_name(plpy, NewName(name.schema, name.base))
    released = kind.statistics(plpy, training, name, kept) if rebuild is None else rebuild.statistics(kept)
    # derive: the model tables
    progress.phase("derive the model tables")
    derived = kind.derive(plpy, training, name, kept, released)
    # predict: the generated functions
    progress.phase("write the prediction functions")
    objects = ModelObjects.of(name)
    numbers = kind.read_numbers(plpy, training, objects)
    written = kind.function_statements(
        objects.prediction_functions, kind.comment_prefix(name), training, numbers, _helpers(plpy, name), plpy.quote_literal,
    )
    _write_functions(plpy, written.statements)
    explained = kind.explain_statements(
        _explain_names(plpy, name, kind.comment_prefix(name)), kind.comment_prefix(name), training, numbers, plpy.quote_literal,
    )
    _write_functions(plpy, explained.statements)
    _drop_unwritten(plpy, kept_internal, written.functions + explained.functions)
    progress.phase("catalog")
    source, weight = kind.source(training), kind.weight(training)
    shown = source.display if rebuild is None else rebuild.catalog_source
    _insert_catalog_row(
        plpy, name, [kind.name, shown, label.name, label.type_sql, json.dumps(entry.features),
                     numbers.classes, derived.rows, entry.smoothing,
                     None if released.privacy is None else json.dumps(released.privacy), kept.sql,
                     None if entry.parameters is None else json.dumps(entry.parameters)],
        made.functions(plpy, name), derived.tables, version, weight,
    )
    origin = versions.STATISTICS if kind is STATISTICS_KIND else versions.COLUMNS
    versions.record(
        plpy, name, version, ("replace" if old is not None else "train") if rebuild is None else rebuild.operation,
        shown if rebuild is None else rebuild.source, derived.rows if rebuild is None else rebuild.rows, kept,
        versions.stored(kind.name, origin, source.sql if rebuild is None else rebuild.source_sql, shown, label.name, label.type_sql,
                        entry.features, entry.smoothing, entry.parameters, released.privacy,
                        None if weight is None else weight.name),
        derived.rows, numbers.classes,
    )
    progress.done()


def _clear_old_version(
    plpy: Plpy, name: ModelName, replace: bool, label_type: str, signature: str,
) -> tuple[list[str], list[str], CatalogModel | None]:
    """Make room for model ``name``: 42710 if it exists and not ``replace``; else drop what the old version made but
    the prediction functions the new one rewrites in place, and its catalog row; return those kept functions, the
    internal ones among them (:func:`_drop_unwritten` drops those the new version does not write) and the old
    version's catalog row (None: a new model)."""
    old = catalog.read(plpy, name)
    if old is not None and not replace:
        raise MadnbError(
            "42710", f'model "{name.key}" already exists',
            hint="re-train it with replace => true (queries and views using its functions keep working), "
            "or drop it with madnb.drop_model",
        )
    kept_functions: list[str] = []
    kept_internal: list[str] = []
    if old is not None:
        _check_may_drop(plpy, name, old.owner)
        # The row form keeps its signature; the column form is dropped when the
        # features' types change, and every function when the label's type does.
        # the column form's parameters are named as the features: CREATE OR REPLACE cannot rename them.
        # The internal functions (row checks, row models: only the row form names them; predict's exact one) are kept
        # by the same rule, so that a query that planned the old version's functions can still call them while the
        # new version commits; the new version drops those it does not write (fewer row checks, or none).
        old_types = _signature([(f["name"], f["type"]) for f in old.features])
        keep_all = old.label_type == label_type
        objects = ModelObjects.of(name)
        internal = {n.name for n in objects.row_models + objects.row_checks + [objects.explain_functions.row_model, objects.exact_class]}
        for fn, fn_name in _existing_named(plpy, old, "functions"):
            if not keep_all or (old_types != signature and not fn.endswith("(anyelement)")):
                plpy.execute(Sql(f"DROP FUNCTION {fn}"))
            else:
                kept_functions.append(fn)
                if fn_name in internal:
                    kept_internal.append(fn)
        _drop_objects(plpy, old, functions=False)
        catalog.delete(plpy, name)
    return kept_functions, kept_internal, old


def _drop_unwritten(plpy: Plpy, kept_internal: list[str], written: list[tuple[NewName, str]]) -> None:
    """Drop the previous version's internal functions (``kept_internal``, regprocedure text) that the new version did
    not write (``written``: (name, argument types) of every function it wrote)."""
    if not kept_internal:
        return
    made = plpy.execute(
        plpy.prepare(Sql("SELECT pg_catalog.to_regprocedure(x)::pg_catalog.text AS f FROM pg_catalog.unnest($1) AS x"), ["pg_catalog.text[]"]),
        [[f"{n.sql}({types})" for n, types in written]],
    )
    rewritten = {r["f"] for r in made}
    for fn in kept_internal:
        if fn not in rewritten:
            plpy.execute(Sql(f"DROP FUNCTION {fn}"))


def _write_functions(plpy: Plpy, statements: list[Sql]) -> None:
    """Create (or replace) a model's prediction functions and comment them."""
    for statement in statements:
        plpy.execute(statement)


def _insert_catalog_row(
    plpy: Plpy, name: ModelName, values: list[Any], functions: list[str], tables: list[NewName], version: int,
    weight: Column | None = None,
) -> None:
    """Model ``name``'s row of madnb._models: ``values`` are kind, source, label, label_type, features (jsonb
    text), classes, training_rows, smoothing, privacy (jsonb text or None), statistics, parameters (jsonb text
    or None); then the exact objects training made, ``functions`` (regprocedure text) and ``tables``, which
    drop_model drops; the model's ``version``; and ``weight``, the column of sample weights (only a weighted training
    names the column, so an unweighted one writes the row as before it existed)."""
    extra, param, types, args = "", "", [], []
    if weight is not None:
        extra, param, types, args = ", weight", ", $17", ["pg_catalog.text"], [weight.name]
    plpy.execute(
        plpy.prepare(
            Sql("INSERT INTO madnb._models (name, kind, source, label, label_type, features, classes, training_rows, "
            f"smoothing, privacy, statistics, parameters, functions, tables, schema_name, version{extra}) "
            "VALUES ($1, $2, $3, $4, $5, $6::pg_catalog.jsonb, $7, $8, $9, $10::pg_catalog.jsonb, $11, $12::pg_catalog.jsonb, $13, "
            "ARRAY(SELECT pg_catalog.to_regclass(u.t)::pg_catalog.text FROM pg_catalog.unnest($14) WITH ORDINALITY AS u(t, i) ORDER BY u.i), "
            f"$15, $16{param})"),
            ["pg_catalog.text", "pg_catalog.text", "pg_catalog.text", "pg_catalog.text", "pg_catalog.text",
             "pg_catalog.text", "pg_catalog.text[]", "pg_catalog.int8", "pg_catalog.float8", "pg_catalog.text",
             "pg_catalog.text", "pg_catalog.text", "pg_catalog.text[]", "pg_catalog.text[]", "pg_catalog.name", "pg_catalog.int4", *types],
        ),
        [name.base, *values, functions, [str(t.sql) for t in tables], name.schema, version, *args],
    )


def _signature(features: list[tuple[str, str]]) -> str:
    """The column form's parameters (names and types): when they change, re-training drops that form first."""
    return ", ".join(f"{quote_ident(n)} {t}" for n, t in features)


@entry_point
def drop_model(plpy: Plpy, model: str | None, cascade: bool | None = False) -> None:
    """Drop model ``model``: the functions, tables and statistics table its training made (as the
    catalog records them), then its catalog row; ``cascade``: what uses them too (views, ...)."""
    name = model_name(model)
    if cascade is None:
        raise MadnbError("22004", "cascade must not be NULL")
    _lock_name(plpy, name)
    old = catalog.require(plpy, name)
    _check_may_drop(plpy, name, old.owner)
    _drop_objects(plpy, old, functions=True, cascade=cascade)
    versions.drop_all(plpy, name)
    catalog.delete(plpy, name)


# ---------------------------------------------------------------------------
# New versions from statistics: madnb.update, madnb.forget, madnb.rollback_model
# ---------------------------------------------------------------------------


def _same_model(kind: Kind[T, N], training: T, request: TrainRequest, features: list[dict[str, str]], label_type: str) -> str | None:
    """How ``training`` differs from a model of these features and label type (None: it does not)."""
    now = kind.catalog_entry(training, request).features
    if now != features:
        shown = ", ".join(f"{f['name']} {f['type']} ({f['role']})" for f in now)
        return "it has the features " + shown + "; the model's are " + ", ".join(f"{f['name']} {f['type']} ({f['role']})" for f in features)
    got = kind.label(training).type_sql
    if got != label_type:
        return f"its label is of type {got}, the model's of type {label_type}"
    return None


def _kept_statistics(plpy: Plpy, m: CatalogModel) -> Relation:
    """The statistics model ``m`` keeps (55000 when they are gone)."""
    rel = versions.owned_relation(plpy, m.statistics, m.owner)
    if rel is None:
        raise MadnbError(
            "55000", f'the statistics model "{m.name.key}" keeps are gone', detail=f"table {m.statistics} does not exist",
            hint="train the model again with madnb.train(..., replace => true)",
        )
    return rel


def _changed(plpy: Plpy, model: str | None, source: str | None, operation: str) -> None:
    """madnb.update (``operation`` ADD) and madnb.forget (SUBTRACT): the statistics of ``source``'s rows added to or
    subtracted from the model's kept sum, the model derived from the result as a new version."""
    name = model_name(model)
    _lock_name(plpy, name)
    old = catalog.require(plpy, name)
    _check_may_drop(plpy, name, old.owner)
    what = "add rows to" if operation == updates.ADD else "forget rows of"
    if old.privacy is not None:
        raise MadnbError(
            "0A000", f'cannot {what} the differentially private model "{name.key}"',
            detail="a private model's statistics are a release charged to the ledger: "
            + ("new rows would need a release of their own" if operation == updates.ADD else
               "the difference of two published versions would disclose the forgotten rows' statistics without noise"),
            hint="train the model again from the rows it should hold with madnb.train(..., replace => true, epsilon => ...)"
            " (see docs/privacy.md)",
        )
    previous = versions.latest(plpy, name)
    if previous is not None and previous.model.get("origin") == versions.STATISTICS:
        raise MadnbError(
            "0A000", f'cannot {what} model "{name.key}": it was made from released statistics',
            detail="its statistics are a sum of released parts, named by position, not a table's columns",
            hint="release the statistics of the rows and make the model again with madnb.train_from_statistics(..., replace => true)",
        )
    kind = kind_named(old.kind)
    request = versions.request(old.kind, old.features, old.label, old.parameters, old.smoothing, source)
    if source is None:
        raise MadnbError("22004", "source must not be NULL", hint="source names a table or view of rows with the model's columns")
    training = kind.resolve(plpy, request)
    differs = _same_model(kind, training, request, old.features, old.label_type)
    if differs is not None:
        raise MadnbError(
            "22023", f'source {kind.source(training).display} does not have the columns of model "{name.key}"', detail=differs,
            hint="give a table or view with the model's feature and label columns, of the same types",
        )
    kept = _kept_statistics(plpy, old)
    kept_header = part_sources.read_header(plpy, kept, "kept statistics")
    if kept_header.weighted:
        raise MadnbError(
            "0A000", f'cannot {what} model "{name.key}": it was trained with sample weights',
            detail="its statistics are sums of the weight column's values; madnb.update and madnb.forget count rows unweighted",
            hint="train the model again from the rows it should hold with madnb.train(..., weight => ..., replace => true)",
        )
    token = secrets.token_hex(6)
    part_name, summed_name = NewName("pg_temp", f"madnb_part_{token}"), NewName("pg_temp", f"madnb_sum_{token}")
    part_released = kind.release_part(plpy, training, part_name)
    part = created(plpy, part_name)
    if operation == updates.SUBTRACT:
        names = [f["name"] for f in old.features]
        vector = kept_header.vector

        def attribute(j: int) -> str:
            if vector is None:
                return f'feature "{names[j - 1]}"'
            return f'feature {j} of "{names[0]}"' if vector == "dense" else f'a term of "{names[0]}"'

        updates.check_forgettable(
            plpy, name.key, kept, part, lambda x: text_sql(x, kind.label_builtin(training)), attribute,
        )
    header = updates.write_changed_sum(plpy, operation, kept, kept_header, part, part_released.header, summed_name)
    summed = created(plpy, summed_name)
    rows = int(plpy.execute(
        Sql(f"SELECT COALESCE(pg_catalog.sum(s.n), 0)::pg_catalog.int8 AS n FROM {summed.sql} AS s WHERE s.attr OPERATOR(pg_catalog.=) 0")
    )[0]["n"])
    if rows == 0:
        raise MadnbError(
            "22023", f'forgetting these rows leaves model "{name.key}" with no rows', detail=f"it holds {old.training_rows}, all of them among the rows",
            hint=f"drop the model with madnb.drop_model('{name.key}')",
        )

    def statistics(dest: NewName) -> Released:
        updates.copy_statistics(plpy, summed, header, dest)
        return Released(header, rows)

    source_sql = previous.model["source"] if previous is not None else str(kind.source(training).sql)
    _train(plpy, name, kind, training, request, True,
           _Rebuild(operation, kind.source(training).display, part_released.rows, source_sql, old.source, statistics))
    plpy.execute(Sql(f"DROP TABLE {part.sql}, {summed.sql}"))
    _notice_classes(plpy, name.key, old.classes, catalog.require(plpy, name).classes)


def _notice_classes(plpy: Plpy, model: str, before: list[str], after: list[str]) -> None:
    """A NOTICE for the classes an update or a forget gave the model or took from it (a class its rows had not
    shown, one no remaining row has): its predictions and probability arrays change shape with them."""
    gained, lost = [c for c in after if c not in before], [c for c in before if c not in after]
    for classes, how in ((gained, "gains"), (lost, "loses")):
        if classes:
            shown = ", ".join(classes[:10]) + (", ..." if len(classes) > 10 else "")
            plpy.notice(
                f'model "{model}" {how} {len(classes)} class(es): {shown}',
                detail=f"its classes are now {len(after)}, in the order of madnb.model_classes; "
                "<model>_predict_proba_array gives one probability per class",
            )


@entry_point
def update(plpy: Plpy, model: str | None, source: str | None) -> None:
    """madnb.update: add the rows of ``source`` to model ``model`` (see :func:`_changed`)."""
    _changed(plpy, model, source, updates.ADD)


@entry_point
def forget(plpy: Plpy, model: str | None, source: str | None) -> None:
    """madnb.forget: remove the rows of ``source`` from model ``model`` (see :func:`_changed`)."""
    _changed(plpy, model, source, updates.SUBTRACT)


@entry_point
def rollback_model(plpy: Plpy, model: str | None, version: int | None) -> None:
    """madnb.rollback_model: model ``model`` derived again from the statistics of its version ``version``, as a new version."""
    name = model_name(model)
    if version is None:
        raise MadnbError("22004", "version must not be NULL", hint="madnb.model_versions lists the versions kept")
    _lock_name(plpy, name)
    old = catalog.require(plpy, name)
    _check_may_drop(plpy, name, old.owner)
    v = versions.read(plpy, name, int(version))
    if v is None:
        raise MadnbError(
            "42704", f'model "{name.key}" has no version {version}',
            detail=f"its current version is {old.version}; versions older than the last {versions.versions_kept(plpy)} are not kept",
            hint="madnb.model_versions lists the versions kept",
        )
    stored = v.model
    if stored.get("privacy") is not None or stored.get("origin") == versions.STATISTICS:
        raise MadnbError(
            "0A000", f'version {v.version} of model "{name.key}" cannot be derived again here',
            detail="it is a differentially private model" if stored.get("privacy") is not None
            else "it was made from released statistics (madnb.train_from_statistics)",
            hint="make it again as it was made: madnb.train or madnb.train_from_statistics with replace => true",
        )
    statistics_rel = versions.statistics_of(plpy, name, v)
    kind = kind_named(stored["kind"])
    request = versions.request(stored["kind"], stored["features"], stored["label"], stored["parameters"], float(stored["smoothing"]),
                               stored["source"], stored.get("weight"))
    try:
        training = kind.resolve(plpy, request)
        differs = _same_model(kind, training, request, stored["features"], stored["label_type"])
    except MadnbError as e:
        differs = e.message
    if differs is not None:
        raise MadnbError(
            "55000", f'version {v.version} of model "{name.key}" cannot be derived again: the table it was trained from has changed',
            detail=f"{stored['catalog_source']}: {differs}",
            hint="a rollback reads no row, but writes the prediction functions from the columns of that table: "
            "create it again with those columns (an empty table will do)",
        )
    header = part_sources.read_header(plpy, statistics_rel, f"the statistics of version {v.version}")

    def statistics(dest: NewName) -> Released:
        updates.copy_statistics(plpy, statistics_rel, header, dest)
        return Released(header, v.training_rows)

    _train(plpy, name, kind, training, request, True,
           _Rebuild("rollback", f"version {v.version}", v.training_rows, stored["source"], stored["catalog_source"], statistics))


@entry_point
def model_versions(plpy: Plpy, model: str | None) -> list[dict[str, Any]]:
    """madnb.model_versions: the versions kept of model ``model``, oldest first."""
    return versions.listing(plpy, model_name(model))


__all__ = [
    "drop_model", "forget", "model_name", "model_versions", "rollback_model", "train", "train_from_statistics", "update",
]

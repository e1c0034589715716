"""Named models: madnb.train and madnb.drop_model, and the catalog they keep.

A model name is one identifier (PostgreSQL's rules: unquoted folds to lower
case), unique in the database.  Training a model is the same pipeline as every
other training, from columns:

    columns     source, label and features -> a validated ColumnTraining
    columns     the one statistics pass -> a statistics table (madnb_statistics, value type text)
    derive      that one part -> MADlib's model tables in schema madnb_models
    kinds       'gaussian' / 'categorical': scikit-learn's numbers in those tables, and the priors
    predict     the model's numbers -> generated prediction functions in madnb_models
    catalog     one row of madnb._models (read through the view madnb.models)

Objects of model ``m`` (schema madnb_models): tables ``m_class_priors``,
``m_feature_probs``, ``m_numeric_stats`` (with Gaussian features), functions
``m_predict``, ``m_predict_proba``, ``m_predict_proba_array`` (see
:mod:`madnb_pl.predict.generated`); its statistics table is named in the catalog.  A call
either completes or leaves nothing behind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import MODELS_SCHEMA, ModelName, NewName, created
from ..core.sql import Plpy, quote_ident
from ..derive import model_tables
from ..inputs import arrays, columns
from ..predict import generated
from ..privacy import column_release, private_release
from ..release import column_pass, statistics_table
from . import catalog, export, kinds, vector
from .catalog import CatalogModel, ModelObjects, model_name

KIND = "naive_bayes"
KIND_OPTIONS: dict[str, frozenset[str]] = {KIND: frozenset(), **kinds.KIND_OPTIONS, **vector.OPTIONS}
"""The keys of madnb.train's ``options`` each kind accepts (scikit-learn's parameter names)."""


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
            f"SELECT pg_catalog.pg_advisory_xact_lock({MODEL_LOCK}, pg_catalog.hashtext($1))", ["pg_catalog.text"]
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
            "SELECT n.oid IS NOT NULL AS found, pg_catalog.has_schema_privilege(n.oid, 'CREATE') AS ok, "
            "(SELECT r.rolname::pg_catalog.text FROM pg_catalog.pg_roles AS r WHERE NOT r.rolsuper "
            "AND r.rolname OPERATOR(pg_catalog.<>) CURRENT_USER AND pg_catalog.has_schema_privilege(r.oid, n.oid, 'CREATE') "
            "ORDER BY r.rolname LIMIT 1) AS other, pg_catalog.has_schema_privilege('public', n.oid, 'CREATE') AS everyone "
            "FROM (SELECT 1) AS one LEFT JOIN pg_catalog.pg_namespace AS n ON n.nspname OPERATOR(pg_catalog.=) $1",
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
        plpy.prepare("SELECT pg_catalog.pg_has_role($1, 'MEMBER') AS ok", ["pg_catalog.name"]), [owner]
    )[0]["ok"]
    if not ok:
        raise MadnbError("42501", f'must be owner of model "{name.key}"', detail=f'its owner is role "{owner}"')


def _check_kind(kind: str | None) -> None:
    if kind is None:
        raise MadnbError("22004", "kind must not be NULL", hint=f"kind is '{KIND}' (the default)")
    if kind not in KIND_OPTIONS:
        raise MadnbError("22023", f"unknown kind '{kind}'", hint="kind is one of " + ", ".join(repr(k) for k in KIND_OPTIONS))


def parse_options(kind: str, options: Any) -> dict[str, Any]:
    """``options`` (jsonb text, or NULL) as a dict, checked against the keys ``kind`` accepts.

    Only the keys are checked here; each kind checks its values where it uses them.
    """
    if options is None:
        return {}
    try:
        value = json.loads(options) if isinstance(options, str) else options
    except ValueError as e:  # jsonb arrives valid; a str from Python callers may not be
        raise MadnbError("22023", "options must be a JSON object", detail=str(e)) from None
    if not isinstance(value, dict):
        raise MadnbError("22023", "options must be a JSON object", hint='e.g. options => \'{"alpha": 0.5}\'')
    allowed = KIND_OPTIONS.get(kind, frozenset())
    for key in value:
        if key not in allowed:
            said = ", ".join(sorted(allowed)) if allowed else "none"
            raise MadnbError(
                "22023", f'option "{key}" is not a parameter of kind \'{kind}\'',
                hint=f"kind '{kind}' takes: {said}",
            )
    out: dict[str, Any] = value
    return out


def _drop_objects(plpy: Plpy, old: CatalogModel, functions: bool, cascade: bool = False) -> None:
    """Drop what a model's training made, as its catalog row ``old`` records it: its tables, its
    statistics table and (``functions``) its prediction functions; nothing else of the same names.

    Without ``cascade`` nothing is dropped with CASCADE: a view of the user's over
    one of them makes the call fail (2BP01), naming the view.
    """
    how = " CASCADE" if cascade else ""
    if functions:
        for fn in _existing(plpy, old, "functions"):
            plpy.execute(f"DROP FUNCTION {fn}{how}")
    for table in _existing(plpy, old, "tables"):
        plpy.execute(f"DROP TABLE {table}{how}")
    statistics = old.statistics
    if statistics is not None:
        # the catalog's text is only compared: what is dropped is a table of madnb_statistics whose
        # quoted name (as train wrote it) is that text
        rows = plpy.execute(
            plpy.prepare(
                "SELECT c.oid::pg_catalog.regclass::pg_catalog.text AS r FROM pg_catalog.pg_class AS c "
                "WHERE c.relnamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($2) "
                "AND $1 OPERATOR(pg_catalog.=) ('\"' OPERATOR(pg_catalog.||) pg_catalog.replace($2, '\"', '\"\"') "
                "OPERATOR(pg_catalog.||) '\".\"' OPERATOR(pg_catalog.||) "
                "pg_catalog.replace(c.relname::pg_catalog.text, '\"', '\"\"') OPERATOR(pg_catalog.||) '\"') "
                # the model's owner's table: a row the owner edited cannot make a superuser's drop take another's
                "AND c.relowner OPERATOR(pg_catalog.=) pg_catalog.to_regrole(pg_catalog.quote_ident($3))",
                ["pg_catalog.text", "pg_catalog.text", "pg_catalog.text"],
            ),
            [statistics, statistics_table.KEPT_SCHEMA, old.owner],
        )
        if rows:
            plpy.execute(f"DROP TABLE {rows[0]['r']}{how}")


_CATALOGS = {
    "functions": ("regprocedure", "pg_catalog.pg_proc AS x ON x.oid OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure(u.o) "
                  "AND x.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($2) "
                  "AND x.proowner OPERATOR(pg_catalog.=) pg_catalog.to_regrole(pg_catalog.quote_ident($3))"),
    "tables": ("regclass", "pg_catalog.pg_class AS x ON x.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass(u.o) "
               "AND x.relnamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($2) "
               "AND x.relowner OPERATOR(pg_catalog.=) pg_catalog.to_regrole(pg_catalog.quote_ident($3))"),
}


def _existing(plpy: Plpy, old: CatalogModel, what: str) -> list[str]:
    """The ``what`` (functions or tables) the catalog row ``old`` records that still exist, in the
    model's schema and owned by the model's owner, as regprocedure / regclass text; those dropped by
    hand are skipped, and a catalog row naming anything else drops nothing there."""
    reg, join = _CATALOGS[what]
    rows = plpy.execute(
        plpy.prepare(
            f"SELECT x.oid::pg_catalog.{reg}::pg_catalog.text AS o FROM pg_catalog.unnest($1) WITH ORDINALITY AS u(o, i) "
            f"JOIN {join} ORDER BY u.i",
            ["pg_catalog.text[]", "pg_catalog.text", "pg_catalog.text"],
        ),
        [old.functions if what == "functions" else old.tables, old.name.schema, old.owner],
    )
    return [r["o"] for r in rows]


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
            "SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text AS f, pg_catalog.md5(p.prosrc) AS h FROM pg_catalog.pg_proc AS p "
            "WHERE p.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace($1) "
            "AND p.proname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2)",
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
    best, proba, proba_jsonb = (n.sql for n, _ in copies.functions)
    return generated.Helpers(best, proba, proba_jsonb)


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
) -> None:
    """Train model ``model`` from the columns of ``source`` (see the module docstring)."""
    name = model_name(model)
    _check_may_train(plpy, name)
    _lock_name(plpy, name)
    _check_kind(kind)
    assert kind is not None
    parameters = parse_options(kind, options)
    s_factor = arrays.parse_smoothing(smoothing)
    kp = kinds.parameters(kind, parameters, s_factor) if kind in kinds.KIND_OPTIONS else None
    if kp is not None and kp.kind == kinds.CATEGORICAL:
        s_factor = kp.alpha  # CategoricalNB's alpha is the Laplace smoothing
    if replace is None:
        raise MadnbError("22004", "replace must not be NULL")
    if kind != KIND and epsilon is not None:
        raise MadnbError(
            "0A000", f"a differentially private model of kind '{kind}' is not supported",
            detail="private training from columns derives MADlib's kind of model from the noisy statistics",
            hint=f"train a private model with kind => '{KIND}' (the default), or an exact one of kind '{kind}'",
        )
    vt: vector.VectorTraining | None = None
    if kind in vector.KINDS:
        if s_factor != 1.0:
            raise MadnbError("22023", f"kind '{kind}' takes alpha in options, not smoothing",
                             hint=f"e.g. options => '{{\"alpha\": {s_factor!r}}}'")
        if bounds is not None or domain is not None or delta is not None:
            raise MadnbError(
                "22023", "bounds, domain and delta are used only for a differentially private model",
                hint="leave bounds, domain and delta out",
            )
        vt = vector.training(plpy, kind, vector.parameters(plpy, kind, parameters), source, label, features, exclude, categorical)
        arrays.check_label_type(plpy, vt.label)
        label_type, signature = vt.label.type_sql, _signature([(vt.vector.name, vt.vector.type_sql)])
        private_spec = None
    else:
        t = columns.training(plpy, source, label, features, exclude, categorical, role=None if kp is None else kp.kind)
        arrays.check_label_type(plpy, t.label)
        private_spec = column_release.privacy(plpy, t, epsilon, bounds, domain, delta)
        label_type, signature = t.label.type_sql, _signature([(f.name, f.column.type_sql) for f in t.features])
    old = catalog.read(plpy, name)
    if old is not None and not replace:
        raise MadnbError(
            "42710", f'model "{name.key}" already exists',
            hint="re-train it with replace => true (queries and views using its functions keep working), "
            "or drop it with madnb.drop_model",
        )
    kept_functions: list[str] = []
    if old is not None:
        _check_may_drop(plpy, name, old.owner)
        # The row form keeps its signature; the column form is dropped when the
        # features' types change, and every function when the label's type does.
        # the column form's parameters are named as the features: CREATE OR REPLACE cannot rename them
        old_types = _signature([(f["name"], f["type"]) for f in old.features])
        keep_all = old.label_type == label_type
        for fn in _existing(plpy, old, "functions"):
            if not keep_all or (old_types != signature and not fn.endswith("(anyelement)")):
                plpy.execute(f"DROP FUNCTION {fn}")
            else:
                kept_functions.append(fn)
        _drop_objects(plpy, old, functions=False)
        catalog.delete(plpy, name)
    made = _Made(_function_bodies(plpy, name), kept_functions)
    # release: the statistics of the source, kept in madnb_statistics (private: charged, with noise)
    kept = statistics_table.kept_name(plpy, NewName(name.schema, name.base))
    if vt is not None:
        _train_vector(plpy, name, vt, kept, made)
        return
    tables = ModelObjects.of(name).tables(bool(t.numeric))
    privacy: dict[str, Any] | None = None
    if private_spec is None:
        header, rows = column_pass.write_statistics(plpy, t, kept)
        arrays.warn_suspect_classes(plpy, kept.sql, t.label, t.source)
    else:
        outputs = {"model": name.key, "featureProbs": tables.feature_probs.display, "classPriors": tables.class_priors.display}
        if tables.numeric_stats is not None:
            outputs["numericFeatureStats"] = tables.numeric_stats.display
        p = private_spec.privacy
        header = private_release.write_private(
            plpy, private_spec.shape, p, kept, outputs, {"smoothing": s_factor, **private_spec.ledger(t)},
        )
        private_spec.drop_copy(plpy)
        privacy = {
            "epsilon": json.loads(p.epsilon_text), "delta": p.delta, "release_id": header.release_id,
            "guarantee": p.guarantee, "domain": p.domain_text, "bounds": private_spec.bounds,
        }
    # derive: MADlib's model tables in madnb_models
    model_tables.create_model(plpy, [(created(plpy, kept), header)], tables, s_factor, shape=t.shape())
    if privacy is not None:  # the released (noisy) class counts: the exact number of rows is not disclosed
        rows = int(plpy.execute(
            f"SELECT COALESCE(pg_catalog.sum(c.class_cnt), 0)::pg_catalog.int8 AS n FROM {tables.class_priors.sql} AS c"
        )[0]["n"])
    var_epsilon = None if kp is None else kinds.derive_kind(plpy, kp, t, kept.sql, tables.feature_probs, tables.numeric_stats)
    for table in tables.all():
        said = plpy.execute(
            plpy.prepare("SELECT pg_catalog.obj_description(pg_catalog.to_regclass($1), 'pg_class') AS c", ["pg_catalog.text"]),
            [table.sql],
        )[0]["c"]
        if var_epsilon is not None and table == tables.numeric_stats:
            said = said.replace(
                "(mean, sample variance, non-NULL count)",
                f"(mean, population variance + epsilon {var_epsilon!r} (scikit-learn's GaussianNB), non-NULL count)",
            )
        plpy.execute(f"COMMENT ON TABLE {table.sql} IS {plpy.quote_literal(f'madnb model {name.key}: {said}')}")
        # whoever may predict reads the model's numbers anyway (they are the functions' bodies); readable
        # tables let madnb.model_sql export them for those roles too (USAGE on madnb_models: grant_usage)
        plpy.execute(f"GRANT SELECT ON {table.sql} TO PUBLIC")
    # predict: the generated functions
    numbers = kinds.model_numbers(
        plpy, kp, t, tables.class_priors, tables.feature_probs, tables.numeric_stats, s_factor,
    )
    _write_functions(plpy, generated.function_statements(
        ModelObjects.of(name).predict_functions, f"madnb model {name.key}", t, numbers, _helpers(plpy, name), plpy.quote_literal,
    ))
    feats = [{"name": f.name, "role": f.role, "type": f.column.type_sql} for f in t.features]
    _insert_catalog_row(
        plpy, name, [kind, t.source.display, t.label.name, t.label.type_sql, json.dumps(feats), numbers.classes, rows,
               s_factor, None if privacy is None else json.dumps(privacy), kept.sql,
               json.dumps(parameters) if options is not None else None],
        made.functions(plpy, name), list(tables.all()),
    )


def _train_vector(plpy: Plpy, name: ModelName, t: vector.VectorTraining, kept: NewName, made: _Made) -> None:
    """The rest of madnb.train for the vector kinds (see :mod:`madnb_pl.models.vector`): statistics, model, functions, catalog."""
    header, rows = vector.write_statistics(plpy, t, kept)
    arrays.warn_suspect_classes(plpy, kept.sql, t.label, t.source)
    objects = ModelObjects.of(name)
    cp, fp = objects.class_priors, objects.feature_probs
    vector.derive(plpy, t, created(plpy, kept), header, cp, fp)
    for table, said in (
        (cp, "per class its training rows and log prior (scikit-learn's class_count_, class_log_prior_)"),
        (fp, "per class and feature the summed statistic and its weight (scikit-learn's feature_count_, feature_log_prob_)"),
    ):
        plpy.execute(f"COMMENT ON TABLE {table.sql} IS {plpy.quote_literal(f'madnb model {name.key} ({t.kind}): {said}')}")
        plpy.execute(f"GRANT SELECT ON {table.sql} TO PUBLIC")  # as every model's (see train)
    m = vector.read_model(plpy, t, cp, fp)
    _write_functions(plpy, vector.function_statements(
        objects.predict_functions, f"madnb model {name.key} ({t.kind})", t, m, _helpers(plpy, name), plpy.quote_literal,
    ))
    feats = [{"name": t.vector.name, "role": t.role, "type": t.vector.type_sql}]
    _insert_catalog_row(
        plpy, name, [t.kind, t.source.display, t.label.name, t.label.type_sql, json.dumps(feats), m.classes, rows,
               t.params.alpha, None, kept.sql, json.dumps(t.params.as_json(t.kind))],
        made.functions(plpy, name), [cp, fp],
    )


def _write_functions(plpy: Plpy, statements: list[str]) -> None:
    """Create (or replace) a model's prediction functions and comment them."""
    for statement in statements:
        plpy.execute(statement)


def _insert_catalog_row(plpy: Plpy, name: ModelName, values: list[Any], functions: list[str], tables: list[NewName]) -> None:
    """Model ``name``'s row of madnb._models: ``values`` are kind, source, label, label_type, features (jsonb
    text), classes, training_rows, smoothing, privacy (jsonb text or None), statistics, parameters (jsonb text
    or None); then the exact objects training made, ``functions`` (regprocedure text) and ``tables``, which
    drop_model drops."""
    plpy.execute(
        plpy.prepare(
            "INSERT INTO madnb._models (name, kind, source, label, label_type, features, classes, training_rows, "
            "smoothing, privacy, statistics, parameters, functions, tables, schema_name) "
            "VALUES ($1, $2, $3, $4, $5, $6::pg_catalog.jsonb, $7, $8, $9, $10::pg_catalog.jsonb, $11, $12::pg_catalog.jsonb, $13, "
            "ARRAY(SELECT pg_catalog.to_regclass(u.t)::pg_catalog.text FROM pg_catalog.unnest($14) WITH ORDINALITY AS u(t, i) ORDER BY u.i), $15)",
            ["pg_catalog.text", "pg_catalog.text", "pg_catalog.text", "pg_catalog.text", "pg_catalog.text",
             "pg_catalog.text", "pg_catalog.text[]", "pg_catalog.int8", "pg_catalog.float8", "pg_catalog.text",
             "pg_catalog.text", "pg_catalog.text", "pg_catalog.text[]", "pg_catalog.text[]", "pg_catalog.name"],
        ),
        [name.base, *values, functions, [str(t.sql) for t in tables], name.schema],
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
    catalog.delete(plpy, name)


__all__ = ["KIND", "KIND_OPTIONS", "drop_model", "model_name", "parse_options", "train"]

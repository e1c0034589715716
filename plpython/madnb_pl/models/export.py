"""Export: a named model as a SQL script that predicts without madnb, and its numbers for scikit-learn.

:func:`model_sql` (``madnb.model_sql``) writes a script for a database where
madnb is not installed (and need not be): ``CREATE OR REPLACE FUNCTION``
statements of the model's prediction functions and of the three per-row helpers
they call, all in one schema, with no reference to madnb, its schemas or its
helpers.  :func:`model_numbers` (``madnb._model_numbers``) gives the same
numbers as JSON to the Python package's ``madnb.to_sklearn``.

One core: the script's functions are the ones :mod:`madnb_pl.predict.generated` writes
into madnb_models, built by the same code (:func:`madnb_pl.predict.generated.function_statements`)
from the same numbers (:func:`madnb_pl.predict.generated.read_numbers`), with the
helpers' names swapped for the script's copies; those copies take their bodies
from madnb's installed helpers (``madnb._nb_best``, ``_nb_proba``,
``_nb_proba_jsonb``), so the arg-max with its tie tolerance and the
log-sum-exp are written once, in sql/50_models.sql.

What the script holds, for ``function_name => 'analytics.adult'`` (unqualified:
schema public; NULL: the model's name in schema public):

    analytics.adult_predict(r anyelement), analytics.adult_predict(age integer, ...)
    analytics.adult_predict_proba(...)          jsonb {class: probability}
    analytics.adult_predict_proba_array(...)    float8[] in the classes' order
    analytics.adult_scores_best / _scores_proba / _scores_proba_jsonb   the helpers

The column form takes the feature columns as arguments, in the catalog's order,
typed as the model's own column form (:func:`madnb_pl.inputs.columns.parameter_type`:
a domain's base type; an enum is text: pass its label), each NULL unless given;
the row form takes any row with columns of those names.  A model with
more than 100 features has the row form only.  The class array is written
with exact float text and ISO dates (every entry point's output settings, see
:mod:`madnb_pl.core.errors`), so that it reads back the same in any session.

Re-running a script is safe (CREATE OR REPLACE), and so is running a newer
export of the same model over an older one; a function of the same name and
arguments that is not part of an export of this model (its comment says whose
export it is) stops the script before anything is created (42723).  A script
creates its functions one statement after the other: run it in one transaction
(``psql -1 -f``, or as one string through a driver).

Kinds: :data:`KINDS` maps a model's kind (madnb._models.kind) to its exporter;
a kind without one is refused with 0A000.  The vector kinds (multinomial,
bernoulli, complement) are written by :func:`madnb_pl.models.vector.function_statements`
the same way: the column form takes the one vector column.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import Column, ModelName, NewName, Relation, parse_name
from ..core.sql import F8, TEXT, Plpy, base_type, quote_ident
from ..inputs.columns import GAUSSIAN, ColumnTraining, Feature, parameter_type, plain_name
from ..predict import generated
from ..predict.generated import Helpers, plpy_literal
from . import kinds, vector
from .catalog import MAX_PREFIX_BYTES, CatalogModel, ModelObjects, model_name, require

DEFAULT_SCHEMA = "public"


@dataclass(frozen=True)
class Exported:
    """An exporter's statements and the functions they create, as (name, argument types)."""

    functions: list[tuple[NewName, str]]
    statements: list[str]


@dataclass(frozen=True)
class KindExport:
    """How one kind of model is exported: its script's statements and its numbers (JSON-able)."""

    script: Callable[[Plpy, CatalogModel, ModelObjects, str], Exported]
    numbers: Callable[[Plpy, CatalogModel], dict[str, Any]]


# ---------------------------------------------------------------------------
# The catalog, names and settings
# ---------------------------------------------------------------------------


def target(model: ModelName, function_name: str | None) -> ModelObjects:
    """The schema and prefix of the exported functions (``[schema.]prefix``; default: public and the model's identifier)."""
    parts = [model.base] if function_name is None else parse_name(function_name, "function_name")
    prefix = parts[-1]
    if len(prefix.encode()) > MAX_PREFIX_BYTES:
        raise MadnbError(
            "42622", f'function name "{prefix}" is too long',
            detail=f"the exported functions' names add suffixes such as _predict_proba_array to it: at most {MAX_PREFIX_BYTES} bytes",
            hint="pass a shorter function_name",
        )
    return ModelObjects(parts[0] if len(parts) == 2 else DEFAULT_SCHEMA, prefix)


def kind_export(m: CatalogModel) -> KindExport:
    exporter = KINDS.get(m.kind)
    if exporter is None:
        raise MadnbError(
            "0A000", f"models of kind '{m.kind}' cannot be exported yet", detail=f'model "{m.name.key}"',
            hint="kinds that can be exported: " + ", ".join(sorted(KINDS)),
        )
    return exporter


def _comment_line(text: str) -> str:
    """``text`` made safe in a ``--`` comment: a line break would end the comment (names may hold one)."""
    return text.replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n")


def _dollar_quote(text: str, tag: str = "body") -> str:
    """``text`` as a dollar-quoted string, with a tag that does not occur in it."""
    while f"${tag}$" in text:
        tag += "_"
    return f"${tag}${text}${tag}$"


# ---------------------------------------------------------------------------
# naive_bayes: Gaussian and categorical features (madnb.train's default kind)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportType:
    """A catalog type as the export writes it (:func:`_export_type`)."""

    sql: str
    oid: int
    name: str
    enum: bool  # an enum, written as text
    builtin: bool  # PostgreSQL's own (else written as text)


def _export_type(plpy: Plpy, m: CatalogModel, type_text: str, what: str) -> ExportType:
    """A catalog type as the export writes it.

    A domain becomes its base type (:func:`madnb_pl.core.sql.base_type`), written as the
    model's own column form takes it (:func:`madnb_pl.inputs.columns.parameter_type`:
    pg_catalog-qualified; any other, an enum, as text, its values' labels).
    """
    b = base_type(plpy, type_text)
    if b is None:
        raise MadnbError(
            "42704", f'type {type_text} of {what} of model "{m.name.key}" does not exist any more',
            hint="re-train the model from a table whose columns have existing types",
        )
    sql = parameter_type(b.name, b.builtin)
    if not b.builtin:
        return ExportType(sql, TEXT, "text", b.typtype == "e", False)
    return ExportType(sql, b.oid, b.name, False, True)


def _column_training(plpy: Plpy, m: CatalogModel) -> tuple[ColumnTraining, list[str]]:
    """The model's features and label as :mod:`madnb_pl.predict.generated` builds functions from, typed for the export;
    and each feature's base type name.

    The source is not read (it may have changed or gone since training): only
    the catalog's names, roles and types.  An enum feature stays one: the row
    form reads its label with the target database's enum's output function.
    """
    features, bases = [], []
    for f in m.features:
        b = _export_type(plpy, m, f["type"], f'feature "{f["name"]}"')
        features.append(Feature(Column(f["name"], b.sql, b.oid, None, None), b.oid, f["role"], b.sql, b.enum))
        bases.append(b.name)
    b = _export_type(plpy, m, m.label_type, f'the label "{m.label}"')
    label = Column(m.label, b.sql, b.oid, None, None)
    # label_builtin: how the model tables' classes (of the catalog's type) are read as text
    return ColumnTraining(Relation("", m.source), label, tuple(features), b.builtin), bases


def _check_readable(plpy: Plpy, m: CatalogModel, tables: list[NewName]) -> None:
    """42501 unless the caller may read every one of the model's ``tables``."""
    for table in tables:
        ok = plpy.execute(
            plpy.prepare(
                "SELECT pg_catalog.has_table_privilege(pg_catalog.to_regclass($1), 'SELECT') AS ok", ["pg_catalog.text"]
            ),
            [table.sql],
        )
        if not ok[0]["ok"]:
            raise MadnbError(
                "42501", f'permission denied to read the tables of model "{m.name.key}"', detail=f"table {table.display}",
                hint="roles given madnb.grant_usage read the tables of models trained since madnb.model_sql exists: "
                "re-train the model (replace => true), or ask its owner to export it",
            )


def _naive_bayes_read(plpy: Plpy, m: CatalogModel, t: ColumnTraining) -> generated.ModelNumbers:
    """The model's numbers as its prediction functions hold them (jsonb keys: the catalog's classes, as there)."""
    objects = ModelObjects.of(m.name)
    cp, fp = objects.class_priors, objects.feature_probs
    ns = objects.numeric_stats if t.numeric else None
    _check_readable(plpy, m, [tb for tb in (cp, fp, ns) if tb is not None])
    numbers = kinds.model_numbers(plpy, kinds.stored(m.kind, m.parameters, m.smoothing), t, cp, fp, ns, m.smoothing)
    _check_classes(m, len(numbers.classes), cp)
    return dataclasses.replace(numbers, classes=m.classes)


def _check_classes(m: CatalogModel, found: int, cp: NewName) -> None:
    """55000 when the model tables hold another number of classes than the catalog lists."""
    if found != len(m.classes):
        raise MadnbError(
            "55000", f'the model tables of model "{m.name.key}" do not match its catalog entry',
            detail=f"{found} classes in {cp.display}, {len(m.classes)} in madnb.models",
            hint="re-train the model (replace => true)",
        )


def helper_copies(plpy: Plpy, target: ModelObjects, said: str) -> Exported:
    """Copies of madnb's per-row helpers, their bodies as installed, under the target's names: an exported
    script's, and those of a model outside schema madnb_models (whose functions then need nothing of madnb)."""
    names = target.helpers
    ours = dict(zip(("_nb_best", "_nb_proba", "_nb_proba_jsonb"), names, strict=True))
    rows = plpy.execute(
        plpy.prepare(
            "SELECT p.proname::pg_catalog.text AS name, p.prosrc, l.lanname::pg_catalog.text AS lang, p.provolatile::pg_catalog.text AS vol, "
            "p.proisstrict AS strict, p.proparallel::pg_catalog.text AS par, p.procost::pg_catalog.float8 AS cost "
            "FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_language AS l ON l.oid OPERATOR(pg_catalog.=) p.prolang "
            "WHERE p.pronamespace OPERATOR(pg_catalog.=) 'madnb'::pg_catalog.regnamespace AND p.proname OPERATOR(pg_catalog.=) ANY ($1)",
            ["pg_catalog.name[]"],
        ),
        [list(ours)],
    )
    installed = {r["name"]: r for r in rows}
    # arguments as the call sites in generated._bodies pass them (the bodies use these parameter names)
    signatures = {
        "_nb_best": ("scores pg_catalog.float8[]", "pg_catalog.float8[]", "pg_catalog.int4"),
        "_nb_proba": ("scores pg_catalog.float8[]", "pg_catalog.float8[]", "pg_catalog.float8[]"),
        "_nb_proba_jsonb": (
            "scores pg_catalog.float8[], classes pg_catalog.text[]", "pg_catalog.float8[], pg_catalog.text[]", "pg_catalog.jsonb",
        ),
    }
    what = {
        "_nb_best": "helper: position of the first score within 1e-12 (relative) of the largest",
        "_nb_proba": "helper: class probabilities from log-likelihoods by log-sum-exp",
        "_nb_proba_jsonb": "helper: class probabilities from log-likelihoods as jsonb {class: probability}",
    }
    functions, statements = [], []
    for helper, name in ours.items():
        r = installed.get(helper)
        if r is None:  # pragma: no cover - every install has them
            raise MadnbError("XX000", f"internal error in madnb: helper madnb.{helper} is missing", hint="re-install madnb")
        body = str(r["prosrc"]).replace(generated.MADNB_HELPERS.proba + "(", ours["_nb_proba"].sql + "(")
        if "madnb." in body:  # pragma: no cover - a helper calling another madnb function the export has no copy of
            raise MadnbError("XX000", f"internal error in madnb: helper madnb.{helper} calls madnb", hint="please report this")
        args, types, result = signatures[helper]
        vol = {"i": "IMMUTABLE", "s": "STABLE", "v": "VOLATILE"}[r["vol"]]
        par = {"s": "SAFE", "r": "RESTRICTED", "u": "UNSAFE"}[r["par"]]
        strict = " STRICT" if r["strict"] else ""
        cost = float(r["cost"])
        statements.append(
            f"CREATE OR REPLACE FUNCTION {name.sql}({args}) RETURNS {result}\n"
            f"LANGUAGE {plain_name(str(r['lang']))} {vol}{strict} PARALLEL {par} SECURITY INVOKER COST {int(cost) if cost.is_integer() else cost!r}\n"
            f"AS {_dollar_quote(body)}"
        )
        statements.append(f"COMMENT ON FUNCTION {name.sql}({types}) IS {plpy_literal(f'{said}: {what[helper]}')}")
        functions.append((name, types))
    return Exported(functions, statements)


def _naive_bayes_script(plpy: Plpy, m: CatalogModel, target: ModelObjects, said: str) -> Exported:
    t, _ = _column_training(plpy, m)
    numbers = _naive_bayes_read(plpy, m, t)
    helpers = helper_copies(plpy, target, said)
    best, proba, proba_jsonb = (n.sql for n, _ in helpers.functions)
    names = target.predict_functions
    order = f"the classes {numbers.classes_text}"
    statements = generated.function_statements(names, said, t, numbers, Helpers(best, proba, proba_jsonb), plpy_literal, order)
    functions = [(n, "pg_catalog.anyelement") for n in names]
    if t.num_attrs <= generated.MAX_ARGS:
        functions += [(n, generated.column_signature(t)) for n in names]
    return Exported(helpers.functions + functions, helpers.statements + statements)


def _naive_bayes_numbers(plpy: Plpy, m: CatalogModel) -> dict[str, Any]:
    t, bases = _column_training(plpy, m)
    numbers = _naive_bayes_read(plpy, m, t)
    features: list[dict[str, Any]] = []
    for j, (f, base) in enumerate(zip(m.features, bases, strict=True), start=1):
        out: dict[str, Any] = {"name": f["name"], "role": f["role"], "type": f["type"], "base_type": base}
        if f["role"] == GAUSSIAN:
            lo, hi, per = numbers.gauss.get(j, (0.0, 0.0, [None] * len(m.classes)))
            out.update(window=[lo, hi], terms=[None if p is None else list(p) for p in per])
        else:
            js, lps = numbers.dicts.get(j, ("{}", [[] for _ in m.classes]))
            ranks = json.loads(js)
            out.update(values=sorted(ranks, key=ranks.__getitem__), log_prob=lps)
        features.append(out)
    counts = plpy.execute(
        f"SELECT pg_catalog.array_agg(m.class_cnt::{F8} ORDER BY m.class) AS n "
        f"FROM {ModelObjects.of(m.name).class_priors.sql} AS m"
    )[0]["n"]
    return {
        "format": 1, "model": m.name.base, "schema": m.name.schema, "kind": m.kind, "label": m.label, "label_type": m.label_type, "classes": m.classes,
        "class_count": [float(n) for n in counts], "smoothing": m.smoothing, "training_rows": m.training_rows,
        "log_prior": numbers.prior, "features": features,
    }


# ---------------------------------------------------------------------------
# multinomial, bernoulli, complement: one vector column (madnb_pl.models.vector)
# ---------------------------------------------------------------------------


def _vector_training(plpy: Plpy, m: CatalogModel) -> vector.VectorTraining:
    """The model's vector training as :func:`madnb_pl.models.vector.function_statements` builds functions from,
    typed for the export (base types, pg_catalog-qualified), from the catalog only (the source is not read)."""
    (f,) = m.features
    vb = _export_type(plpy, m, f["type"], f'feature "{f["name"]}"')
    type_sql, oid = vb.sql, vb.oid
    elem_sql, elem_oid = None, None
    if oid != vector.TSVECTOR:
        rows = plpy.execute(
            plpy.prepare(
                "SELECT e.oid::pg_catalog.int8 AS oid, e.typname::pg_catalog.text AS name FROM pg_catalog.pg_type AS t "
                "JOIN pg_catalog.pg_type AS e ON e.oid OPERATOR(pg_catalog.=) t.typelem WHERE t.oid OPERATOR(pg_catalog.=) $1",
                ["pg_catalog.oid"],
            ),
            [oid],
        )
        if not rows or int(rows[0]["oid"]) not in vector.ELEMENT_TYPES:
            raise MadnbError(
                "42804", f'feature "{f["name"]}" of model "{m.name.key}" is of type {f["type"]}, not a vector of counts',
                hint="re-train the model (replace => true)",
            )
        elem_oid, elem_sql = int(rows[0]["oid"]), "pg_catalog." + str(rows[0]["name"])
        type_sql = elem_sql + "[]"
    vec = Column(f["name"], type_sql, oid, elem_sql, elem_oid)
    lb = _export_type(plpy, m, m.label_type, f'the label "{m.label}"')
    params = vector.parameters(plpy, m.kind, m.parameters or {})  # training kept every parameter, checked
    form = vector.SPARSE if oid == vector.TSVECTOR else vector.DENSE
    return vector.VectorTraining(
        Relation("", m.source), Column(m.label, lb.sql, lb.oid, None, None), vec, form, m.kind, params, lb.builtin,
    )


def _vector_tables(m: CatalogModel) -> tuple[NewName, NewName]:
    objects = ModelObjects.of(m.name)
    return objects.class_priors, objects.feature_probs


def _vector_read(plpy: Plpy, m: CatalogModel, t: vector.VectorTraining) -> vector.VectorModel:
    """The model's numbers as its prediction functions hold them (class names: the catalog's, as there)."""
    cp, fp = _vector_tables(m)
    _check_readable(plpy, m, [cp, fp])
    numbers = vector.read_model(plpy, t, cp, fp)
    _check_classes(m, len(numbers.classes), cp)
    return dataclasses.replace(numbers, classes=m.classes)


def _vector_script(plpy: Plpy, m: CatalogModel, target: ModelObjects, said: str) -> Exported:
    t = _vector_training(plpy, m)
    numbers = _vector_read(plpy, m, t)
    helpers = helper_copies(plpy, target, said)
    best, proba, proba_jsonb = (n.sql for n, _ in helpers.functions)
    names = target.predict_functions
    order = f"the classes {numbers.classes_text}"
    statements = vector.function_statements(names, said, t, numbers, Helpers(best, proba, proba_jsonb), plpy_literal, order)
    functions = [(n, "pg_catalog.anyelement") for n in names] + [(n, t.vector.type_sql) for n in names]
    return Exported(helpers.functions + functions, helpers.statements + statements)


def _vector_numbers(plpy: Plpy, m: CatalogModel) -> dict[str, Any]:
    t = _vector_training(plpy, m)
    numbers = _vector_read(plpy, m, t)
    cp, fp = _vector_tables(m)
    counts = plpy.execute(f"SELECT pg_catalog.array_agg(c.class_count ORDER BY c.class) AS n FROM {cp.sql} AS c")[0]["n"]
    feature_count = [
        [float(x) for x in r["n"]]
        for r in plpy.execute(
            f"SELECT pg_catalog.array_agg(f.count ORDER BY f.feature) AS n FROM {fp.sql} AS f GROUP BY f.class ORDER BY f.class"
        )
    ]
    return {
        "format": 1, "model": m.name.base, "schema": m.name.schema, "kind": m.kind, "label": m.label, "label_type": m.label_type, "classes": m.classes,
        "class_count": [float(n) for n in counts], "smoothing": m.smoothing, "training_rows": m.training_rows,
        "parameters": t.params.as_json(m.kind), "log_prior": numbers.log_prior,
        "vector": {"name": t.vector.name, "type": m.features[0]["type"], "form": t.form, "terms": numbers.terms},
        "feature_count": feature_count, "log_prob": numbers.log_prob,
    }


KINDS: dict[str, KindExport] = {
    "naive_bayes": KindExport(_naive_bayes_script, _naive_bayes_numbers),
    # scikit-learn's GaussianNB and CategoricalNB: the same functions, with the kind's numbers (kinds.model_numbers)
    "gaussian": KindExport(_naive_bayes_script, _naive_bayes_numbers),
    "categorical": KindExport(_naive_bayes_script, _naive_bayes_numbers),
    # scikit-learn's MultinomialNB, BernoulliNB and ComplementNB: vector.function_statements with the script's helpers
    **{k: KindExport(_vector_script, _vector_numbers) for k in vector.KINDS},
}


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------


def _guard(m: CatalogModel, functions: list[tuple[NewName, str]], marker: str) -> str:
    """A DO block that stops the script if one of its functions exists and is not part of this model's export."""
    signatures = ", ".join(plpy_literal(f"{n.sql}({types})") for n, types in functions)
    body = f"""
DECLARE
    v_fn pg_catalog.text;
BEGIN
    FOREACH v_fn IN ARRAY ARRAY[{signatures}]::pg_catalog.text[] LOOP
        IF pg_catalog.to_regprocedure(v_fn) IS NOT NULL AND NOT COALESCE(pg_catalog.starts_with(
               pg_catalog.obj_description(pg_catalog.to_regprocedure(v_fn), 'pg_proc'), {plpy_literal(marker + ":")}), false) THEN
            RAISE EXCEPTION 'function % already exists and is not part of the export of model %', v_fn, {plpy_literal(m.name.key)}
                USING ERRCODE = '42723',
                      DETAIL = 'the script would replace it: its comment does not say it belongs to this model''s export',
                      HINT = 'drop that function, or export the model under another function_name';
        END IF;
    END LOOP;
END
"""
    return f"DO {_dollar_quote(body, 'guard')}"


@entry_point
def model_sql(plpy: Plpy, model: str | None, function_name: str | None = None) -> str:
    """The SQL script that creates model ``model``'s prediction functions without madnb (see the module docstring)."""
    name = model_name(model)
    m = require(plpy, name)
    where = target(name, function_name)
    shown = quote_ident(name.base) if name.in_models_schema else name.key
    marker = f"export of madnb model {shown}"
    exported = kind_export(m).script(plpy, m, where, marker)
    version = plpy.execute("SELECT madnb.version() AS v")[0]["v"]
    listing = ",".join(f"\n--   {_comment_line(f'{n.sql}({types})')}" for n, types in exported.functions)
    header = f"""-- Model {_comment_line(shown)} (kind {_comment_line(m.kind)}), exported by madnb {version} (madnb.model_sql).
-- Trained on {_comment_line(m.source)} ({m.training_rows} rows), label {_comment_line(quote_ident(m.label))}, \
{len(m.classes)} classes, {len(m.features)} features.
-- Needs nothing of madnb: run it in one transaction (psql -1 -f FILE) in any PostgreSQL database
-- where schema {_comment_line(quote_ident(where.schema))} exists.  It creates (or replaces) these functions; to drop them:
-- DROP FUNCTION{listing};"""
    statements = [_guard(m, exported.functions, marker), *exported.statements]
    return header + "\n\n" + ";\n\n".join(statements) + ";\n"


@entry_point
def model_numbers(plpy: Plpy, model: str | None) -> str:
    """Model ``model``'s numbers as JSON text (non-finite numbers as -Infinity), for ``madnb.to_sklearn``."""
    m = require(plpy, model_name(model))
    return json.dumps(kind_export(m).numbers(plpy, m))


__all__ = ["KINDS", "Exported", "KindExport", "helper_copies", "model_numbers", "model_sql", "target"]

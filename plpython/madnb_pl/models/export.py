"""Export: a named model as a SQL script that predicts without madnb, and its numbers for scikit-learn.

:func:`model_sql` (``madnb.model_sql``) writes a script for a database where
madnb is not installed (and need not be): ``CREATE OR REPLACE FUNCTION``
statements of the model's prediction functions, its explanation function and
the per-row helpers they call, all in one schema, with no reference to madnb,
its schemas or its helpers.  :func:`model_numbers` (``madnb._model_numbers``) gives the same
numbers as JSON to the Python package's ``madnb.to_sklearn``.

One core: the script's functions are the ones :mod:`madnb_pl.predict.generated` writes
into madnb_models, built by the same code (:func:`madnb_pl.predict.generated.function_statements`)
from the same numbers (:func:`madnb_pl.predict.generated.read_numbers`), with the
helpers' names swapped for the script's copies; those copies take their bodies
from madnb's installed helpers (``madnb._nb_best``, ``_nb_proba``,
``_nb_proba_jsonb``; the explanation's ``madnb._nb_explain`` and
``_nb_runner_up``: :func:`madnb_pl.predict.explain.helper_copy_functions`), so the
arg-max with its tie tolerance, the log-sum-exp and the explanation's sums are
written once, in sql/50_models.sql and sql/52_explain.sql.  The explanation is the
kind's own (:meth:`~madnb_pl.models.kinds.base.Kind.explain_statements`), as
madnb.train writes it.

What the script holds, for ``function_name => 'analytics.adult'`` (unqualified:
schema public; NULL: the model's name in schema public):

    analytics.adult_predict(r anyelement), analytics.adult_predict(age integer, ...)
    analytics.adult_predict_proba(...)          jsonb {class: probability}
    analytics.adult_predict_proba_array(...)    float8[] in the classes' order
    analytics.adult_explain(...)                jsonb: each feature's contribution (docs/explain.md)
    analytics.adult_scores_best / _scores_proba / _scores_proba_jsonb   the helpers
    analytics.adult_explain_helper / _explain_runner_up                 the explanation's helpers

The column form takes the feature columns as arguments, in the catalog's order,
typed as the model's own column form (:func:`madnb_pl.inputs.columns.parameter_type`:
a domain's base type; an enum is text: pass its label), each NULL unless given;
the row form takes any row with columns of those names.  A model with
more than 100 features has the row form only, and the internal functions it
calls (``analytics.adult_row_check_1``, ..., ``analytics.adult_row_class``, ...,
``analytics.adult_row_explanation``: :func:`madnb_pl.predict.generated.checked_row_form`),
which the script creates and lists too.  The class array is written
with exact float text and ISO dates (every entry point's output settings, see
:mod:`madnb_pl.core.errors`), so that it reads back the same in any session.

Re-running a script is safe (CREATE OR REPLACE), and so is running a newer
export of the same model over an older one; a function of the same name and
arguments that is not part of an export of this model (its comment says whose
export it is) stops the script before anything is created (42723).  A script
creates its functions one statement after the other: run it in one transaction
(``psql -1 -f``, or as one string through a driver).

Kinds: a model's kind (madnb._models.kind) is looked up in
:data:`madnb_pl.models.kinds.KINDS`, the registry madnb.train uses; each kind gives its
training from the catalog row (:meth:`~madnb_pl.models.kinds.base.Kind.from_catalog`),
its numbers and its functions' statements, the same as at training (the vector
kinds' column form takes the one vector column); an unknown kind is refused with 0A000.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import ModelName, NewName, parse_name
from ..core.sql import Plpy, Sql, quote_ident
from ..predict import explain, generated
from ..predict.generated import Functions, Helpers, plpy_literal
from .catalog import MAX_PREFIX_BYTES, CatalogModel, ModelObjects, model_name, require
from .kinds import KINDS, Kind
from .kinds.base import N, T

DEFAULT_SCHEMA = "public"


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


def kind_of(m: CatalogModel) -> Kind[Any, Any]:
    """The kind of model ``m`` (0A000 for a kind this madnb does not know)."""
    kind = KINDS.get(m.kind)
    if kind is None:
        raise MadnbError(
            "0A000", f"models of kind '{m.kind}' cannot be exported yet", detail=f'model "{m.name.key}"',
            hint="kinds that can be exported: " + ", ".join(sorted(KINDS)),
        )
    return kind


def _comment_line(text: str) -> str:
    """``text`` made safe in a ``--`` comment: a line break would end the comment (names may hold one)."""
    return text.replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n")


# ---------------------------------------------------------------------------
# Every kind: its numbers, its script
# ---------------------------------------------------------------------------


def _check_readable(plpy: Plpy, m: CatalogModel, tables: list[NewName]) -> None:
    """42501 unless the caller may read every one of the model's ``tables``."""
    for table in tables:
        ok = plpy.execute(
            plpy.prepare(
                Sql("SELECT pg_catalog.has_table_privilege(pg_catalog.to_regclass($1), 'SELECT') AS ok"), ["pg_catalog.text"]
            ),
            [table.sql],
        )
        if not ok[0]["ok"]:
            raise MadnbError(
                "42501", f'permission denied to read the tables of model "{m.name.key}"', detail=f"table {table.display}",
                hint="roles given madnb.grant_usage read the tables of models trained since madnb.model_sql exists: "
                "re-train the model (replace => true), or ask its owner to export it",
            )


def _read(plpy: Plpy, m: CatalogModel, kind: Kind[T, N], training: T) -> N:
    """The model's numbers as its prediction functions hold them (class texts: the catalog's, as there)."""
    objects = ModelObjects.of(m.name)
    tables = kind.tables(objects, training)
    _check_readable(plpy, m, tables)
    numbers = kind.read_numbers(plpy, training, objects)
    _check_classes(m, len(numbers.classes), objects.class_priors)
    return kind.with_classes(numbers, m.classes)


def _check_classes(m: CatalogModel, found: int, cp: NewName) -> None:
    """55000 when the model tables hold another number of classes than the catalog lists."""
    if found != len(m.classes):
        raise MadnbError(
            "55000", f'the model tables of model "{m.name.key}" do not match its catalog entry',
            detail=f"{found} classes in {cp.display}, {len(m.classes)} in madnb.models",
            hint="re-train the model (replace => true)",
        )


def helper_copies(plpy: Plpy, target: ModelObjects, comment_prefix: str) -> Functions:
    """Copies of madnb's per-row helpers (:func:`madnb_pl.predict.explain.installed_copies`: their bodies and settings
    as installed) under the target's names, each overload of them (the scores one by one, up to
    :data:`madnb_pl.predict.generated.SCALAR_MAX_CLASSES`, and as one float8[]): an exported script's, and those of a
    model outside schema madnb_models (whose functions then need nothing of madnb)."""
    best, proba, proba_jsonb, clear = target.helpers
    f8, f8s = "pg_catalog.float8", "pg_catalog.float8[]"
    described = [
        (best, "_nb_best", "pg_catalog.int4", "", "helper: position of the first score within 1e-12 (relative) of the largest"),
        (proba, "_nb_proba", f8s, "", "helper: class probabilities from log-likelihoods by log-sum-exp"),
        (clear, "_nb_clear", "pg_catalog.int4", "bound",
         "helper: position of the largest score when every other is more than 1e-6 * (1 + |largest| + bound) below it, else NULL"),
    ]
    copies: list[explain.HelperCopy] = []
    for name, helper, result, first, text in described:
        lead = [f"{first} {f8}"] if first else []
        lead_types = [f8] if first else []
        # parameters named as the installed bodies use them
        copies.append(explain.HelperCopy(helper, name, ", ".join(lead + [f"scores {f8s}"]), ", ".join(lead_types + [f8s]), result, text))
        for k in range(2, generated.SCALAR_MAX_CLASSES + 1):
            params = [f"{chr(ord('a') + i)} {f8}" for i in range(k)]
            copies.append(explain.HelperCopy(helper, name, ", ".join(lead + params), ", ".join(lead_types + [f8] * k), result,
                                             f"{text} ({k} scores one by one)"))
    copies.append(explain.HelperCopy("_nb_proba_jsonb", proba_jsonb, f"scores {f8s}, classes pg_catalog.text[]", f"{f8s}, pg_catalog.text[]",
                                     "pg_catalog.jsonb", "helper: class probabilities from log-likelihoods as jsonb {class: probability}"))
    h = generated.MADNB_HELPERS
    return explain.installed_copies(
        plpy, copies, {h.best: str(best.sql), h.proba: str(proba.sql), h.clear: str(clear.sql)}, comment_prefix, plpy_literal,
    )


def copied_helpers(target: ModelObjects) -> Helpers:
    """The helpers a model's functions call when they are :func:`helper_copies`' copies under ``target``'s names."""
    return Helpers(*(str(n.sql) for n in target.helpers))


def _script(plpy: Plpy, m: CatalogModel, kind: Kind[T, N], target: ModelObjects, comment_prefix: str) -> Functions:
    """The script's helpers and the model's functions under ``target``'s names: the prediction functions and the
    explanation, both forms, and the internal functions of a row form that cannot call the column form."""
    training = kind.from_catalog(plpy, m)
    numbers = _read(plpy, m, kind, training)
    helpers = helper_copies(plpy, target, comment_prefix)
    copied = copied_helpers(target)
    order = f"the classes {numbers.classes_text}"
    model = kind.function_statements(target.prediction_functions, comment_prefix, training, numbers, copied, plpy_literal, order)
    # the explanation: its helpers' copies (calling the script's copy of _nb_best), then its functions, after the
    # prediction functions (a row form of more than 100 features calls their row checks)
    explain_helpers = explain.helper_copy_functions(
        plpy, target.explain_helper, target.explain_runner_up, copied.best, comment_prefix, plpy_literal,
    )
    explanation = kind.explain_statements(
        dataclasses.replace(target.explain_functions, helper=str(target.explain_helper.sql)), comment_prefix, training, numbers,
        plpy_literal,
    )
    parts = (helpers, explain_helpers, model, explanation)
    return Functions([f for p in parts for f in p.functions], [s for p in parts for s in p.statements])


def _numbers(plpy: Plpy, m: CatalogModel, kind: Kind[T, N]) -> dict[str, Any]:
    """Model ``m``'s numbers as madnb.to_sklearn reads them: the catalog's, then the kind's."""
    training = kind.from_catalog(plpy, m)
    numbers = _read(plpy, m, kind, training)
    return {
        "format": 1, "model": m.name.base, "schema": m.name.schema, "kind": m.kind, "label": m.label, "label_type": m.label_type,
        "classes": m.classes, **kind.export_numbers(plpy, m, training, numbers),
    }


def numbers_of(plpy: Plpy, m: CatalogModel) -> dict[str, Any]:
    """Model ``m``'s numbers (:func:`model_numbers`' without its class priors table)."""
    return _numbers(plpy, m, kind_of(m))


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
    return f"DO {explain.dollar_quote(body, 'guard')}"


@entry_point
def model_sql(plpy: Plpy, model: str | None, function_name: str | None = None) -> str:
    """The SQL script that creates model ``model``'s prediction and explanation functions without madnb (see the module docstring)."""
    name = model_name(model)
    m = require(plpy, name)
    where = target(name, function_name)
    shown = quote_ident(name.base) if name.in_models_schema else name.key
    marker = f"export of madnb model {shown}"
    exported = _script(plpy, m, kind_of(m), where, marker)
    version = plpy.execute(Sql("SELECT madnb.version() AS v"))[0]["v"]
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
    """Model ``model``'s numbers as JSON text (non-finite numbers as -Infinity), for ``madnb.to_sklearn``;
    ``class_priors`` is its class priors table as [schema, name]."""
    m = require(plpy, model_name(model))
    cp = ModelObjects.of(m.name).class_priors  # named here, so that the client never spells a model's objects
    return json.dumps({**_numbers(plpy, m, kind_of(m)), "class_priors": [cp.schema, cp.name]})


__all__ = ["copied_helpers", "helper_copies", "kind_of", "model_numbers", "model_sql", "numbers_of", "target"]

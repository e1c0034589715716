"""Generated explanation functions: each feature's exact share of a named model's log-scores, in SQL the planner inlines.

For a named model, madnb.train writes next to its prediction functions (:mod:`madnb_pl.predict.generated`)

    <model>_explain(row)              jsonb: per class the prior term and each feature's contribution

in the same two forms (the row form; the column form ``<model>_explain(f1 => ..., ...)`` for a model of at
most 100 features) and of the same shape: ``LANGUAGE sql``, one expression with no sub-select (but for the
vector kinds' sub-select forms, as their prediction functions), qualified operators, the model's numbers as
constants, so the planner inlines it into the calling query.  The expression lists, per class, the very
pieces the prediction functions add up -- the log prior (the kind's constant term) and each feature's term
(:func:`madnb_pl.predict.generated.class_terms`; the vector kinds' ``dense_terms`` or per-element products)
-- and hands them to ``madnb._nb_explain`` (``sql/52_explain.sql``), which adds them up in the prediction
functions' order, so that the sum is the log-score they use, and writes::

    {"predicted": class, "runner_up": class (NULL with one class),
     "classes": {class: {"prior": p, "contributions": {feature: c, ...}, "log_score": p + sum c,
                         "log_posterior": log_score - logsumexp(log_scores)}, ...},
     "against_runner_up": [{"feature": f, "difference": c_predicted - c_runner_up}, ...]   (largest first)}

A missing value (NULL) adds nothing: its contribution is 0.  A model of more than
:data:`madnb_pl.predict.generated.INLINE_MAX_TERMS` terms gets PL/pgSQL bodies, as its prediction functions.

A model outside madnb_models, and an exported script (:mod:`madnb_pl.models.export`), call copies of the
helpers instead, made by :func:`installed_copies` (the one rule for every copy of madnb's per-row helpers, the
prediction functions' too: their bodies and settings as installed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core.errors import MadnbError
from ..core.names import NewName
from ..core.sql import F8, Plpy, Sql
from ..inputs.columns import ColumnTraining, column_value_sql, plain_name
from . import generated
from .generated import Form, Functions, ModelNumbers, plpy_literal, row_checks, row_form

JSONB = "pg_catalog.jsonb"
HELPER = "madnb._nb_explain"
RUNNER_UP = "madnb._nb_runner_up"
"""An explanation's runner-up from the class scores and the predicted class (``sql/52_explain.sql``): the one rule,
which madnb._nb_explain and :mod:`madnb_pl.models.importance` call."""
DESCRIPTION = (
    "jsonb explanation: per class the log prior and each feature's contribution to the log-score the prediction functions "
    "use (they sum to it), the log-posterior, the predicted class, the runner-up and the features' differences against it"
)


@dataclass(frozen=True)
class ExplainNames:
    """The names a model's explanation functions are written under (spelled by :class:`madnb_pl.models.catalog.ModelObjects`)."""

    explain: NewName  # <model>_explain: the function users call (row and column forms)
    row_model: NewName  # internal: the explanation for a row, once its row checks pass (a row form without the column form)
    row_checks: list[NewName]  # the prediction functions' row checks (written by them, called here too)
    helper: str = "madnb._nb_explain"  # the per-row helper's SQL name: madnb's, or a model's copy (:func:`helper_copy`)


def text_array(texts: list[str]) -> str:
    """A text[] constant of ``texts`` (any text: quoted array elements in a string constant)."""
    return f"{plpy_literal('{' + ','.join(_element(t) for t in texts) + '}')}::pg_catalog.text[]"


def _element(t: str) -> str:
    return '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'


def call(helper: str, prior: str, contributions: str, features: str, classes: list[str]) -> str:
    """The call of ``helper`` (:attr:`ExplainNames.helper`): ``prior`` a float8[] (K), ``contributions`` a float8[]
    (K x F, or empty), ``features`` a text[] (F)."""
    return f"{helper}({prior}, {contributions}, {features}, {text_array(classes)})"


def body(helper: str, prior: list[str], contributions: list[list[str]], features: list[str], classes: list[str]) -> str:
    """The explanation of one row from the SQL of each class's prior term and each feature's term (K x F expressions)."""
    if not classes:  # no class (an empty private release): nothing to explain
        return call(helper, f"'{{}}'::{F8}[]", f"'{{}}'::{F8}[]", "'{}'::pg_catalog.text[]", [])
    rows = ",\n ".join("ARRAY[" + ", ".join(c) + "]" for c in contributions) if features else ""
    matrix = f"ARRAY[\n {rows}\n]" if features else f"'{{}}'::{F8}[]"
    return call(helper, "ARRAY[" + ", ".join(prior) + "]", matrix, text_array(features), classes)


@dataclass(frozen=True)
class HelperCopy:
    """A copy of one of madnb's per-row helpers (:func:`installed_copies`)."""

    helper: str  # madnb's function, unqualified: "_nb_best"
    name: NewName  # the copy's name
    args: str  # its parameters, named as the installed body uses them: "scores pg_catalog.float8[]"
    types: str  # its argument types, as madnb's function is found by them and the copy is commented on
    result: str  # its result type
    description: str  # its comment, after the comment prefix


def dollar_quote(text: str, tag: str = "body") -> str:
    """``text`` as a dollar-quoted string, with a tag that does not occur in it."""
    while f"${tag}$" in text:
        tag += "_"
    return f"${tag}${text}${tag}$"


def installed_copies(
    plpy: Plpy, copies: list[HelperCopy], calls: dict[str, str], comment_prefix: str, quote: Callable[[str], str],
) -> Functions:
    """CREATE OR REPLACE FUNCTION and COMMENT ON FUNCTION of each of ``copies``: madnb's helper as installed (its
    body, language, volatility, strictness, parallel safety and cost), each call of a madnb function in its body
    renamed by ``calls`` (madnb's SQL name -> the copy's).  The one rule for every copy of madnb's helpers: those
    an exported script holds (:func:`madnb_pl.models.export.helper_copies`, :func:`helper_copy_functions`) and
    those next to a model outside madnb_models, whose functions then need nothing of madnb."""
    rows = plpy.execute(plpy.prepare(
        Sql("SELECT p.prosrc, l.lanname::pg_catalog.text AS lang, p.provolatile::pg_catalog.text AS vol, p.proisstrict AS strict, "
            "p.proparallel::pg_catalog.text AS par, p.procost::pg_catalog.float8 AS cost "
            "FROM pg_catalog.unnest($1::pg_catalog.text[]) WITH ORDINALITY AS s(sig, i) "
            "LEFT JOIN pg_catalog.pg_proc AS p ON p.oid OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure(s.sig) "
            "LEFT JOIN pg_catalog.pg_language AS l ON l.oid OPERATOR(pg_catalog.=) p.prolang ORDER BY s.i"),
        ["pg_catalog.text[]"],
    ), [[f"madnb.{c.helper}({c.types})" for c in copies]])
    functions: list[tuple[NewName, str]] = []
    statements: list[Sql] = []
    for c, r in zip(copies, rows, strict=True):
        if r["prosrc"] is None:  # pragma: no cover - every install has them
            raise MadnbError("XX000", f"internal error in madnb: helper madnb.{c.helper} is missing", hint="re-install madnb")
        body = str(r["prosrc"])
        for theirs, ours in calls.items():
            body = body.replace(theirs + "(", ours + "(")
        if "madnb." in body:  # pragma: no cover - a helper calling another madnb function with no copy
            raise MadnbError("XX000", f"internal error in madnb: helper madnb.{c.helper} calls madnb", hint="please report this")
        vol = {"i": "IMMUTABLE", "s": "STABLE", "v": "VOLATILE"}[r["vol"]]
        par = {"s": "SAFE", "r": "RESTRICTED", "u": "UNSAFE"}[r["par"]]
        strict = " STRICT" if r["strict"] else ""
        cost = float(r["cost"])
        statements.append(Sql(
            f"CREATE OR REPLACE FUNCTION {c.name.sql}({c.args}) RETURNS {c.result}\n"
            f"LANGUAGE {plain_name(str(r['lang']))} {vol}{strict} PARALLEL {par} SECURITY INVOKER "
            f"COST {int(cost) if cost.is_integer() else cost!r}\n"
            f"AS {dollar_quote(body)}"
        ))
        statements.append(Sql(f"COMMENT ON FUNCTION {c.name.sql}({c.types}) IS {quote(f'{comment_prefix}: {c.description}')}"))
        functions.append((c.name, c.types))
    return Functions(functions, statements)


def helper_copy(
    plpy: Plpy, name: NewName, runner_up: NewName, best: str, comment_prefix: str, quote: Callable[[str], str],
) -> list[Sql]:
    """The statements of :func:`helper_copy_functions`."""
    return helper_copy_functions(plpy, name, runner_up, best, comment_prefix, quote).statements


def helper_copy_functions(
    plpy: Plpy, name: NewName, runner_up: NewName, best: str, comment_prefix: str, quote: Callable[[str], str],
) -> Functions:
    """Copies (:func:`installed_copies`) of ``madnb._nb_runner_up`` named ``runner_up`` and of ``madnb._nb_explain``
    named ``name``, calling ``best`` (the model's copy of ``madnb._nb_best``) and ``runner_up``: what the explanation
    of a model outside madnb_models, or of an exported script (:func:`madnb_pl.models.export.model_sql`), calls, so
    that it needs nothing of madnb (as its prediction functions: :func:`madnb_pl.models.export.helper_copies`)."""
    f8s = "pg_catalog.float8[]"
    return installed_copies(plpy, [
        HelperCopy(RUNNER_UP.removeprefix("madnb."), runner_up, f"scores {f8s}, best pg_catalog.int4", f"{f8s}, pg_catalog.int4",
                   "pg_catalog.int4", "helper: an explanation's runner-up, the first of the largest scores but the predicted class's"),
        HelperCopy(HELPER.removeprefix("madnb."), name,
                   f"prior {f8s}, contributions {f8s}, features pg_catalog.text[], classes pg_catalog.text[]",
                   f"{f8s}, {f8s}, pg_catalog.text[], pg_catalog.text[]", JSONB,
                   "helper: a prediction's explanation (jsonb) from each class's prior and features' terms"),
    ], {generated.MADNB_HELPERS.best: best, RUNNER_UP: str(runner_up.sql)}, comment_prefix, quote)


@dataclass(frozen=True)
class Terms:
    """A row's explanation before it is added up, as SQL: per class its prior term and each feature's contribution
    (NULL as 0), in feature order -- the pieces the prediction functions add up -- and the features' names.

    As :mod:`madnb_pl.models.importance` reads a table's rows: ``lookups`` (alias, SQL over the row) is what the
    terms read, computed once per row first (the terms name them as columns of the lookups' relation), and
    ``guard``, over the same relation, the condition a row has an explanation on (None: every row)."""

    prior: list[str]
    contributions: list[list[str]]
    features: list[str]
    lookups: list[tuple[str, str]]
    guard: str | None = None


def table_terms(
    training: ColumnTraining, m: ModelNumbers, value: list[str], looked_up: dict[int, str] | None = None,
    lookups: list[tuple[str, str]] | None = None,
) -> Terms:
    """A statistics-table kind's :class:`Terms`: :func:`madnb_pl.predict.generated.class_terms`' (absolute scores, as the
    arg-max reads them), NULL as 0 (``value``, ``looked_up``: class_terms'; ``lookups``: :attr:`Terms.lookups`)."""
    terms = generated.class_terms(training, m, value, False, looked_up)
    zero = f"'0'::{F8}"
    contributions = [[zero if t is None else f"COALESCE({t}, {zero})" for t in ts] for _, ts in terms]
    return Terms([p for p, _ in terms], contributions, [f.name for f in training.features], lookups or [])


def table_row_terms(training: ColumnTraining, m: ModelNumbers, row: str, looked: str) -> Terms:
    """:func:`table_terms` of row ``row`` (an alias), each feature's lookup (:func:`madnb_pl.predict.generated.lookup_values`)
    a column ``v<j>`` of relation ``looked``."""
    value: list[str] = [column_value_sql(f"{row}.{f.column.sql}", f) for f in training.features]
    lookups = generated.lookup_values(training, m, value)
    return table_terms(training, m, value, {j: f"{looked}.v{j}" for j in lookups}, [(f"v{j}", v) for j, (_, v) in lookups.items()])


def table_body(training: ColumnTraining, m: ModelNumbers, value: list[str], inline: bool, helper: str = HELPER) -> tuple[str, str]:
    """The DECLARE list (PL/pgSQL: not ``inline``) and the body of a statistics-table kind's explanation (:func:`table_terms`)."""
    declare, looked_up = ("", None) if inline else generated.feature_lookups(training, m, value)
    t = table_terms(training, m, value, looked_up)
    return declare, body(helper, t.prior, t.contributions, t.features, m.classes)


def statements(
    names: ExplainNames, comment_prefix: str, volatility: str, quote: Callable[[str], str], column: Form | None,
    row_call: str | None, checked: tuple[list[str], str, bool, str] | None = None,
) -> Functions:
    """CREATE OR REPLACE FUNCTION and COMMENT ON FUNCTION of ``<model>_explain``: the ``column`` form (None: more than
    100 features) and the row form, a call of the column form with ``row_call`` (``name => ($1).name, ...``) or, when
    ``row_call`` is None, ``checked`` = (the columns, the body over the row's fields, inline, declare): the prediction
    functions' row checks of those columns, then the internal ``row_model`` (as
    :func:`madnb_pl.predict.generated.checked_row_form`)."""
    takes = "a row holding the feature columns"
    internal = Functions([], [])
    if row_call is not None:
        row = row_form(takes, [(JSONB, f"{names.explain.sql}({row_call})")])
    else:
        assert checked is not None
        columns, row_body, inline, declare = checked
        used = names.row_checks[:len(row_checks(columns))]
        internal = Functions([(names.row_model, generated.ROW_TYPES)], generated.form_statements(
            [names.row_model], comment_prefix, [f"internal, the model of {names.explain.name}(anyelement) once its row checks pass: the explanation"],
            volatility, [row_form(takes, [(JSONB, row_body)], inline, declare)], quote,
        ))
        r = "$1"
        for check in used:
            r = f"{check.sql}({r})"
        row = row_form(takes, [(JSONB, f"{names.row_model.sql}({r})")])
    forms = [row] if column is None else [column, row]
    return generated.model_functions([names.explain], comment_prefix, [DESCRIPTION], volatility, forms, quote, internal)


def table_statements(
    names: ExplainNames, comment_prefix: str, training: ColumnTraining, m: ModelNumbers, quote: Callable[[str], str],
) -> Functions:
    """``<model>_explain`` of a statistics-table kind ('naive_bayes', 'gaussian', 'categorical'), both forms."""
    volatility = generated.volatility(training)
    inline = len(m.classes) * training.num_attrs <= generated.INLINE_MAX_TERMS
    column = None
    if training.num_attrs <= generated.MAX_ARGS:
        declare, b = table_body(training, m, [f"${j}" for j in range(1, training.num_attrs + 1)], inline, names.helper)
        column = Form(generated.column_parameters(training), generated.column_signature(training),
                      "the feature values (each NULL, a missing value, unless given)", [(JSONB, b)], inline, declare)
    call_args = generated.row_arguments(training, lambda c: f"($1).{c.sql}")
    if call_args is not None:
        return statements(names, comment_prefix, volatility, quote, column, call_args)
    row_values: list[str] = [column_value_sql(f"($1).{f.column.sql}", f) for f in training.features]
    declare, b = table_body(training, m, row_values, inline, names.helper)
    return statements(names, comment_prefix, volatility, quote, column, None,
                      ([str(f.column.sql) for f in training.features], b, inline, declare))


__all__ = [
    "DESCRIPTION", "HELPER", "JSONB", "RUNNER_UP", "ExplainNames", "HelperCopy", "Terms", "body", "call", "dollar_quote", "helper_copy",
    "helper_copy_functions", "installed_copies", "statements", "table_body",
    "table_row_terms", "table_statements", "table_terms", "text_array",
]

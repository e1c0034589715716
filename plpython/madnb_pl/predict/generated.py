"""Generated prediction functions: a model's numbers as constants in SQL functions the planner inlines.

For a named model, :func:`create_functions` writes into schema madnb_models:

    <model>_predict(row)              the predicted class (the label's type)
    <model>_predict_proba(row)        jsonb {class: probability}
    <model>_predict_proba_array(row)  float8[] of probabilities, in the order of madnb.model_classes(model)

each in two forms: the *row form* takes any row that has the feature columns
(``anyelement``: ``SELECT m_predict(t) FROM t``, whatever else the row holds),
the *column form* the feature values themselves, named as the training columns
and typed with their base types (:func:`madnb_pl.inputs.columns.parameter_type`: a
domain's base type, an enum as text), each NULL -- a missing value, which adds
nothing -- unless given (``m_predict(age => 39, workclass => 'Private')``; in a
generated column, which cannot take a whole row).  The row form's body is a
call of the column form with the row's fields, so a row that lacks a feature
column fails with PostgreSQL's short error naming the column, in the context of
the model's function.  A model with more than 100 features (PostgreSQL's limit
on function arguments) has the row form only; its body is as short, a call of
internal functions the planner inlines in turn:

    <model>_predict(r) = <model>_row_class(<model>_row_check_2(<model>_row_check_1(r)))

Each *row check* names some of the feature columns (:func:`row_checks`: as many
as fit in :data:`CHECK_BODY_BYTES`) in a body that fails while it is inlined
when the row lacks one, and otherwise folds to the row itself; the internal
``<model>_row_class``, ``_row_proba``, ``_row_proba_array`` hold the model.  An
error raised while PostgreSQL inlines a SQL function carries the body of the
innermost function being inlined (``sql_inline_error_callback``): a check's,
never the model's, whatever the names' lengths.  The row form of a model whose
one feature is named r (the row form's parameter, so ``f(r => ...)`` cannot name
the column form's) takes the same shape.

Why this shape: each function is ``LANGUAGE sql`` whose body is a single
expression -- per class the log prior plus one term per feature, each a lookup
into constant arrays -- with no sub-select and no SET clause, so PostgreSQL
inlines it into the calling query: the lookups run in the scan of the caller's
table (by parallel workers too), an index scan for one row stays an index scan,
and there is no per-call function overhead except the small arg-max or
log-sum-exp over the K scores (``madnb._nb_best``, ``madnb._nb_proba``, ...,
PL/pgSQL).  A body with a sub-select would not be inlined (about 50 times slower).
A model of more than :data:`INLINE_MAX_TERMS` terms (classes x features) is the
exception: its functions that hold the model are PL/pgSQL returning the same
expression, called once per row, because PostgreSQL's JIT (on by default) would
compile the inlined expression in time that grows much faster than its size;
there each feature is looked up once per row (:func:`feature_lookups`).

The numbers are the views' own: the one-row model of :mod:`madnb_pl.scoring`
(:func:`madnb_pl.scoring.model.model_parts`, dictionary form) is computed once
from the model tables and written into the body (float8 values exactly, by
``repr``), and every term is the views' term: categorical ln(cnt + s) - ln(n_ca
+ s * attr_cnt) looked up by the value's text in a jsonb dictionary (unseen or
missing values add 0); Gaussian a - (r (x - mu))^2 with the views' variance
floor (none for kind 'gaussian', see :mod:`madnb_pl.models.kinds.table`) and clipping window
(NULL and NaN add 0); the arg-max returns the first
class within 1e-12 (relative) of the best, as the classify view's first class;
probabilities by log-sum-exp as the probs view, from scores that leave out the
first class's categorical terms (the same amount in every score of a row: the
probabilities are the same up to rounding, for a third fewer lookups with three
classes, half with two); the arg-max reads its class off those scores too when
one class is clearly ahead, and otherwise (a row near a tie) calls the model's
exact function, which computes the whole scores (:func:`clear_bound`).  The
helpers take up to :data:`SCALAR_MAX_CLASSES` scores one by one.

Volatility: IMMUTABLE -- the numbers are constants of the function -- unless a
categorical feature's text form depends on a setting (date, timestamp, enum:
STABLE).  Re-training with ``replace => true`` replaces the bodies (CREATE OR
REPLACE keeps the functions, so views and queries using them keep working and
see the new model); a stored generated column keeps the values computed when
its rows were written.  Generated SQL qualifies every operator, function and
type, so no object on the caller's search_path runs inside a prediction; it
reads an enum's label with the enum's output function and takes base types, so
no cast or domain CHECK another role defines runs either
(:func:`madnb_pl.core.sql.text_sql`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError
from ..core.names import MODELS_SCHEMA, Column, NewName
from ..core.sql import BOOL, F8, INT2, INT4, INT8, NAME, NUMERIC, TEXT, TEXT_TYPES, UUID, Plpy, Sql, f8_array_const, f8_const
from ..inputs.columns import ColumnTraining, Feature, column_value_sql, gaussian_value_sql, label_text_sql, value_text_sql
from ..scoring.model import model_parts
from ..scoring.plan import ScoringPlan

SCHEMA = MODELS_SCHEMA
MAX_ARGS = 100  # FUNC_MAX_ARGS of a default PostgreSQL build
INLINE_MAX_TERMS = 256
"""The largest model (classes x features) whose functions are inlined SQL.  A larger one is PL/pgSQL
returning the same expression (each feature looked up once per row), never compiled by PostgreSQL's JIT, whose
time grows much faster than the expression (100,000 rows, 100 classes x 3 features, jit = on: inlined
13.6 s, PL/pgSQL 7.0 s; at 2,000 classes the inlined expression is 2.7 MB)."""


def inlined(classes: int, features: int) -> bool:
    """Whether a model of ``classes`` x ``features`` terms has inlined SQL functions (else PL/pgSQL: :data:`INLINE_MAX_TERMS`)."""
    return classes * features <= INLINE_MAX_TERMS


def has_column_form(training: ColumnTraining) -> bool:
    """Whether the model has a column form: at most :data:`MAX_ARGS` features (PostgreSQL's limit on arguments)."""
    return training.num_attrs <= MAX_ARGS


MAX_COLUMNS = 1600
"""The most columns a table has (MaxHeapAttributeNumber): a training source's, so the most features a row form checks."""
CHECK_BODY_BYTES = 1200
"""The longest body of a row check: an error that names a missing column stays under 2 kB with its context."""
_CHECK_HEAD = "SELECT CASE WHEN false AND ROW("
_CHECK_TAIL = ") IS NULL THEN $1 ELSE $1 END"
_MAX_FIELD_BYTES = len(", ($1).") + 2 + 2 * 63
"""A separator and one field of a row check's body: ``($1).`` and the longest quoted identifier (63 bytes of '"')."""
MAX_ROW_CHECKS = -(-MAX_COLUMNS // ((CHECK_BODY_BYTES - len(_CHECK_HEAD) - len(_CHECK_TAIL) + 2) // _MAX_FIELD_BYTES))
"""The most row checks a row form has: :data:`MAX_COLUMNS` features, as few per check as the longest names allow."""
_IMMUTABLE_TEXT = TEXT_TYPES | {NAME, BOOL, UUID, INT2, INT4, INT8, NUMERIC}


@dataclass(frozen=True)
class ModelNumbers:
    """The model as constants: classes, log priors, per categorical attribute a dictionary and
    per-class log-probabilities by rank, per Gaussian attribute its window and per-class (a, r, mu)."""

    classes_text: str  # the classes' array in its text form (class order)
    classes: list[str]  # each class's text (the keys of predict_proba's jsonb)
    prior: list[float]
    dicts: dict[int, tuple[str, list[list[float]]]]  # attr -> (jsonb text, per class the lp by rank)
    gauss: dict[int, tuple[float, float, list[tuple[float, float, float] | None]]]  # attr -> (lo, hi, per class (a, r, mu))


def read_numbers(
    plpy: Plpy, training: ColumnTraining, cp: NewName, fp: NewName, np: NewName | None, smoothing: float, var_floor: bool = True,
) -> ModelNumbers:
    """Compute the views' one-row model from the model tables (:func:`madnb_pl.scoring.model.model_parts`).

    ``var_floor``: the views' variance floor (kind 'gaussian': none, its variances hold scikit-learn's epsilon).
    """
    return read_numbers_smoothed(plpy, training, cp, fp, np, [smoothing], var_floor)[smoothing]


def read_numbers_smoothed(
    plpy: Plpy, training: ColumnTraining, cp: NewName, fp: NewName, np: NewName | None, smoothings: list[float],
    var_floor: bool = True,
) -> dict[float, ModelNumbers]:
    """:func:`read_numbers` of the same model tables at each of ``smoothings`` (a grid's points): what does not
    depend on the smoothing (the classes, priors, dictionaries, Gaussian windows and cells) is read once, and
    only the per-class log-probabilities once per smoothing."""
    k = int(plpy.execute(Sql(f"SELECT pg_catalog.count(*)::pg_catalog.int8 AS k FROM {cp.sql} AS m"))[0]["k"])
    if k == 0:  # a private release whose domain => 'private' kept no class: a model with no classes
        return dict.fromkeys(smoothings, ModelNumbers("{}", [], [], {}, {}))
    has_cat = bool(plpy.execute(Sql(f"SELECT EXISTS (SELECT 1 FROM {fp.sql}) AS e"))[0]["e"])
    n = training.num_attrs

    def parts_at(smoothing: float) -> list[str]:
        plan = ScoringPlan(
            strategy="dict" if has_cat else "none", unroll=False, rectangle=False, k=k, num_attrs=n, numeric_attrs=training.numeric,
            value_type_oid=TEXT, source_elem_oid=TEXT, smoothing=smoothing, check_numeric=False, var_floor=var_floor,
        )
        return model_parts(plan, cp.sql, fp.sql, None if np is None else np.sql, per_class=True)[0]

    parts = parts_at(smoothings[0])
    cat = [j for j in range(1, n + 1) if j not in set(training.numeric)]
    # one row: the classes, priors, dictionaries and Gaussian windows; one row per class: its tables
    # (any number of classes: a select list holds at most 1664 columns)
    one_row = [0]
    # the classes' texts from their type's output function (an enum's owner may plant a cast to text)
    cols = [
        "pg_catalog.textin(pg_catalog.array_out(m0.classes)) AS classes_text",
        f"ARRAY(SELECT {label_text_sql('u.c', training)} FROM pg_catalog.unnest(m0.classes) WITH ORDINALITY AS u(c, i) "
        "ORDER BY u.i) AS class_texts",
        "m0.prior",
    ]
    g = len(parts) - 3  # grids, window, isnum: the last three parts
    # the dictionaries: one row each, from the one object of every feature's (a column per feature would be one
    # aggregate per feature over every feature's values: 1,598 text columns, 1.64 s of a 4.27 s training)
    js: dict[int, str] = {}
    if has_cat and cat:
        js = {int(r["a"]): str(r["js"]) for r in plpy.execute(Sql(
            f"SELECT e.key::pg_catalog.int4 AS a, e.value::pg_catalog.text AS js FROM {parts[2]} AS m2 "
            "CROSS JOIN LATERAL pg_catalog.jsonb_each(m2.jsall) AS e"
        ))}
    if np is not None:
        one_row.append(g + 1)
        cols += [f"m{g + 1}.nlo", f"m{g + 1}.nhi"]
    row: dict[str, Any] = plpy.execute(Sql(f"SELECT {', '.join(cols)} FROM {', '.join(f'{parts[j]} AS m{j}' for j in one_row)}"))[0]

    def per_class(parts: list[str], which: list[tuple[int, str]]) -> list[dict[str, Any]]:
        first = which[0][0]
        joins = "".join(f" JOIN {parts[j]} AS m{j} ON m{j}.pos OPERATOR(pg_catalog.=) m{first}.pos" for j, _ in which[1:])
        rows = list(plpy.execute(Sql(
            f"SELECT {', '.join(c for _, c in which)} FROM {parts[first]} AS m{first}{joins} ORDER BY m{first}.pos"
        )))
        if len(rows) != k:  # pragma: no cover - model_parts gives a row per class
            raise MadnbError("XX000", f"internal error in madnb: {len(rows)} per-class rows for {k} classes")
        return rows

    # the first smoothing's per-class rows hold the Gaussian cells too (they do not depend on the smoothing)
    first: list[tuple[int, str]] = ([(1, "m1.arr AS lut")] if has_cat else []) + ([(g, f"m{g}.a, m{g}.r, m{g}.mu")] if np is not None else [])
    by_class = per_class(parts, first) if first else []
    gauss: dict[int, tuple[float, float, list[tuple[float, float, float] | None]]] = {}
    if np is not None:
        for j in training.numeric:
            per: list[tuple[float, float, float] | None] = []
            for c in by_class:
                a, r, mu = (float(c[w][j - 1]) for w in ("a", "r", "mu"))
                per.append(None if a == 0 and r == 0 and mu == 0 else (a, r, mu))
            gauss[j] = (float(row["nlo"][j - 1]), float(row["nhi"][j - 1]), per)
    widths = {j: len(json.loads(js[j])) for j in cat if j in js}  # a feature with no value seen adds nothing
    out: dict[float, ModelNumbers] = {}
    for i, smoothing in enumerate(smoothings):
        dicts: dict[int, tuple[str, list[list[float]]]] = {}
        if has_cat:
            luts = by_class if i == 0 else per_class(parts_at(smoothing), [(1, "m1.arr AS lut")])
            dicts = {j: (js[j], [[float(x) for x in c["lut"][j - 1][:w]] for c in luts]) for j, w in widths.items()}
        out[smoothing] = ModelNumbers(
            row["classes_text"], [str(c) for c in row["class_texts"]], [float(p) for p in row["prior"]], dicts, gauss,
        )
    return out


def scores_sql(
    training: ColumnTraining, m: ModelNumbers, value: list[str], relative: bool = False, looked_up: dict[int, str] | None = None,
) -> list[Sql]:
    """Per class, its log-likelihood: the log prior plus a term per feature (in feature order, as the views add them).

    ``value[j - 1]`` is the SQL of feature j's value (a column-form argument or a
    field of the row-form argument).  ``looked_up[j]``, when given, is the SQL of
    what every class's term of feature j reads (:func:`feature_lookups`: the
    categorical value's slot, the clipped Gaussian value), computed once per row.

    ``relative``: the scores less one amount per row, for the probabilities only
    (log-sum-exp does not change when every score moves by the same amount): a
    categorical feature whose log-probabilities in the first class are all finite
    adds lp_i - lp_1 to class i and nothing to the first class, so that the first
    class looks nothing up (with 3 classes, a third fewer lookups per row).  The
    probabilities differ from the unshifted ones by rounding only (a few units in
    the last place).  The arg-max's tie tolerance is relative to the best
    log-likelihood: it reads its class off these scores only when one is clearly
    ahead (:func:`clear_bound`), and computes it from the unshifted ones otherwise.
    """
    out = []
    for prior, terms in class_terms(training, m, value, relative, looked_up):
        s: str = prior
        for term in terms:
            if term is not None:
                s += f"\n  OPERATOR(pg_catalog.+) COALESCE({term}, '0'::{F8})"
        out.append(Sql(s))
    return out


def class_terms(
    training: ColumnTraining, m: ModelNumbers, value: list[str], relative: bool = False, looked_up: dict[int, str] | None = None,
) -> list[tuple[str, list[str | None]]]:
    """Per class, the SQL of its log prior and of each feature's term (in feature order; None: the feature adds
    nothing to that class; a term is NULL for a missing or unseen value, which adds nothing): the pieces
    :func:`scores_sql` adds up, and :mod:`madnb_pl.predict.explain` lists (arguments: :func:`scores_sql`'s)."""
    shifted = shifted_features(m) if relative else set()
    out: list[tuple[str, list[str | None]]] = []
    for i in range(len(m.classes)):
        terms: list[str | None] = []
        for j, f in enumerate(training.features, start=1):
            term: str | None = None
            at = None if looked_up is None else looked_up.get(j)
            if j in shifted:
                js, lps = m.dicts[j]
                if i > 0:
                    term = _categorical_term(f, value[j - 1], js, [[x - y for x, y in zip(lps[i], lps[0], strict=True)]], 0, at)
            elif j in m.dicts:
                term = _categorical_term(f, value[j - 1], *m.dicts[j], i, at)
            elif j in m.gauss and m.gauss[j][2][i] is not None:
                a, r, mu = m.gauss[j][2][i]  # type: ignore[misc]
                x = at or _clipped(f, value[j - 1], m.gauss[j])
                term = (
                    f"{f8_const(a)} OPERATOR(pg_catalog.-) (({f8_const(r)} OPERATOR(pg_catalog.*) ({x} OPERATOR(pg_catalog.-) {f8_const(mu)})) "
                    f"OPERATOR(pg_catalog.^) '2'::{F8})"
                )
            terms.append(term)
        out.append((f8_const(m.prior[i]), terms))
    return out


def shifted_features(m: ModelNumbers) -> set[int]:
    """The categorical features whose first class's term :func:`scores_sql`'s ``relative`` scores leave out (every
    log-probability of the first class finite: the same amount can be taken off every class)."""
    return {j for j, (_, lps) in m.dicts.items() if all(math.isfinite(x) for x in lps[0])}


def clear_bound(m: ModelNumbers) -> float | None:
    """The ``bound`` of ``madnb._nb_clear`` for model ``m``'s relative scores, or None (no feature shifted, or a
    constant not finite): when it returns a class, ``<m>_predict`` returns it, and is spared the first class's lookups.

    The relative scores are the scores less S, the first class's terms of the
    shifted features (:func:`shifted_features`): |S| is at most the sum of their
    largest |log-probability| (an unseen or missing value adds 0).  A score's
    terms are the log prior, categorical log-probabilities (at most 0) and
    Gaussian terms a - q (q >= 0), so the sum of the absolute values of its
    terms is at most |score| + 3 P, with P the largest over classes of the sum of
    |prior|, each categorical feature's largest |lp| and each Gaussian |a|.
    ``bound`` is the bound of |S| plus 3 P.  When every other relative score is
    more than 1e-6 (1 + |best| + bound) below the best, the unshifted scores differ
    as much (less the
    rounding of either sum: about 1e-15 of that same magnitude), far more than
    the tie tolerance 1e-12 max(1, |best unshifted score|): the arg-max of the
    unshifted scores returns that class.  ``madnb._nb_clear`` returns NULL for
    every other row (a tie or a near one, NaN), whose class the exact function
    computes from the unshifted scores, as the classify view.
    """
    shifted = shifted_features(m)
    if not shifted or len(m.classes) < 2:
        return None
    s = sum(max(abs(x) for x in m.dicts[j][1][0]) for j in shifted)
    p = 0.0
    for i in range(len(m.classes)):
        t = abs(m.prior[i]) + sum(max(abs(x) for x in lps[i]) for _, lps in m.dicts.values() if lps[i])
        t += sum(abs(g[2][i][0]) for g in m.gauss.values() if g[2][i] is not None)  # type: ignore[index]
        p = max(p, t)
    bound = s + 3 * p
    return bound if math.isfinite(bound) else None


MAX_CODE_RANGE = 4096  # integer values read by subscript when their range is at most this (else the dictionary)


def _codes(js: str, f: Feature) -> tuple[int, int, dict[int, int]] | None:
    """For an integer feature: (lo, hi, {value: rank}) when its values are read by subscript."""
    if f.base_oid not in (INT2, INT4, INT8):
        return None
    ranks = {int(k): int(v) for k, v in json.loads(js).items()}
    lo, hi = min(ranks), max(ranks)
    return (lo, hi, ranks) if hi - lo < MAX_CODE_RANGE else None


def _categorical_index(f: Feature, x: str, js: str, codes: tuple[int, int, dict[int, int]] | None) -> str:
    """The slot of categorical value ``x`` in its classes' tables (:func:`_categorical_term`; ``codes``: :func:`_codes`)."""
    if codes is not None:
        lo, hi, _ = codes
        return (
            f"(pg_catalog.int8smaller(pg_catalog.int8larger(({x})::pg_catalog.int8, '{lo - 1}'::pg_catalog.int8), "
            f"'{hi + 1}'::pg_catalog.int8) OPERATOR(pg_catalog.-) '{lo - 1}'::pg_catalog.int8)::pg_catalog.int4"
        )
    coded = _character_ranks(js)
    if coded is not None:
        return f"pg_catalog.ascii({plpy_literal(coded)}::pg_catalog.jsonb OPERATOR(pg_catalog.->>) {value_text_sql(x, f)})"
    return f"({plpy_literal(js)}::pg_catalog.jsonb OPERATOR(pg_catalog.->>) {value_text_sql(x, f)})::pg_catalog.int4"


MAX_CHARACTER_RANK = 127
"""The largest rank a dictionary writes as one character (an ASCII code, one byte in every server encoding)."""


@functools.lru_cache(maxsize=256)
def _character_ranks(js: str) -> str | None:
    """Dictionary ``js`` (jsonb text, value -> rank) with each rank as the character of that code, when every rank is at
    most :data:`MAX_CHARACTER_RANK` (None otherwise): ``ascii(d ->> x)`` reads the rank, where ``(d ->> x)::int4``
    parses its text (a third of a lookup's time); a missing or unseen value is NULL either way."""
    ranks: dict[str, int] = json.loads(js)
    if not ranks or max(ranks.values()) > MAX_CHARACTER_RANK or min(ranks.values()) < 1:
        return None
    return json.dumps({k: chr(v) for k, v in ranks.items()}, ensure_ascii=False)


def categorical_slot_sql(f: Feature, x: str, js: str) -> str:
    """The slot of categorical value ``x`` in dictionary ``js`` (jsonb text, value -> rank): what a term reads
    (:func:`class_terms`' ``looked_up``) from numbers of that dictionary (:func:`in_dictionary`)."""
    return _categorical_index(f, x, js, _codes(js, f))


def in_dictionary(m: ModelNumbers, dictionaries: dict[int, str]) -> ModelNumbers:
    """``m`` with each categorical feature j's log-probabilities by the ranks of ``dictionaries[j]`` (jsonb text,
    value -> rank 1..n, holding every value of ``m``'s dictionary): several models of one dictionary (the folds'
    of a cross-validation) then read one slot per row (:func:`categorical_slot_sql`).  A value ``m`` has not seen
    gets 0, what its term (NULL: an unseen value adds nothing) adds to a score."""
    dicts: dict[int, tuple[str, list[list[float]]]] = {}
    for j, (js, lps) in m.dicts.items():
        mine: dict[str, int] = json.loads(js)
        shared: dict[str, int] = json.loads(dictionaries[j])
        order = sorted(shared, key=shared.__getitem__)
        dicts[j] = (dictionaries[j], [[lp[mine[v] - 1] if v in mine else 0.0 for v in order] for lp in lps])
    return dataclasses.replace(m, dicts=dicts)


def _categorical_term(f: Feature, x: str, js: str, lps: list[list[float]], i: int, index: str | None = None) -> str:
    """Class i's log-probability of categorical value ``x`` (NULL for a missing or unseen value).

    Integer values in a small range: ``lut[x - lo + 1]`` over the range, clamped
    to one below / above it, where the array has no element (NULL).  Others: the
    rank of the value's text in a jsonb dictionary, then ``lut[rank]``.  ``index``:
    the slot already computed (:func:`_categorical_index`), else it is computed here.
    """
    codes = _codes(js, f)
    idx = index or _categorical_index(f, x, js, codes)
    if codes is not None:
        lo, hi, ranks = codes
        lut = "'{" + ",".join(repr(lps[i][ranks[v] - 1]) if v in ranks else "NULL" for v in range(lo, hi + 1)) + f"}}'::{F8}[]"
        return f"({lut})[{idx}]"
    return f"({f8_array_const(lps[i])})[{idx}]"


def _clipped(f: Feature, x: str, gauss: tuple[float, float, list[tuple[float, float, float] | None]]) -> str:
    """Gaussian value ``x`` clipped to its attribute's window (NULL and NaN: NULL)."""
    lo, hi, _ = gauss
    return f"pg_catalog.float8smaller(pg_catalog.float8larger({gaussian_value_sql(x, f)}, {f8_const(lo)}), {f8_const(hi)})"


def lookup_values(training: ColumnTraining, m: ModelNumbers, value: list[str]) -> dict[int, tuple[str, str]]:
    """Per feature that any class's term reads (a categorical value's slot, a Gaussian value clipped), the type and
    the SQL of what it reads, to be computed once per row (:func:`feature_lookups`; :mod:`madnb_pl.models.importance`)."""
    out: dict[int, tuple[str, str]] = {}
    for j, f in enumerate(training.features, start=1):
        if j in m.dicts:
            out[j] = ("pg_catalog.int4", _categorical_index(f, value[j - 1], m.dicts[j][0], _codes(m.dicts[j][0], f)))
        elif j in m.gauss:
            out[j] = (F8, _clipped(f, value[j - 1], m.gauss[j]))
    return out


def feature_lookups(training: ColumnTraining, m: ModelNumbers, value: list[str]) -> tuple[str, dict[int, str]]:
    """For a PL/pgSQL body: the DECLARE list that computes once per row what every class's term of a feature
    reads (:func:`lookup_values`), and the variables' names by feature."""
    looked = lookup_values(training, m, value)
    declared = [f"_madnb_v{j} {t} := {v};" for j, (t, v) in looked.items()]
    return " ".join(declared), {j: f"_madnb_v{j}" for j in looked}


def plpy_literal(text: str) -> Sql:
    """A string constant read the same whatever standard_conforming_strings says: E'...', backslashes and quotes doubled."""
    return Sql("E'" + text.replace("\\", "\\\\").replace("'", "''") + "'")


def volatility(training: ColumnTraining) -> str:
    """IMMUTABLE unless a categorical feature's text form depends on a setting (DateStyle, an enum's labels)."""
    for f in training.features:
        if not f.gaussian and (f.enum or f.base_oid not in _IMMUTABLE_TEXT):
            return "STABLE"
    return "IMMUTABLE"


@dataclass(frozen=True)
class Helpers:
    """The per-row helpers a generated body calls with the K scores: madnb's own, or the copies of an
    exported script (:mod:`madnb_pl.models.export`), as SQL names."""

    best: str  # arg-max with the classify view's tie tolerance -> int4
    proba: str  # log-sum-exp -> float8[]
    proba_jsonb: str  # log-sum-exp -> jsonb {class: probability}
    clear: str  # the clear winner of shifted scores, else NULL -> int4 (see clear_bound)


MADNB_HELPERS = Helpers("madnb._nb_best", "madnb._nb_proba", "madnb._nb_proba_jsonb", "madnb._nb_clear")
SCALAR_MAX_CLASSES = 4
"""Up to this many classes the helpers take the scores one by one (overloads of 2, 3, 4 float8): an array costs
per row to build and to read.  More classes: one float8[]."""


def scores_call(helper: str, scores: str | list[str], *first: str) -> str:
    """A call of a per-row helper on the K ``scores``: the SQL of each (one by one up to :data:`SCALAR_MAX_CLASSES`)
    or of their float8[] (a kind's score expression); ``first``: arguments before the scores."""
    if isinstance(scores, list):
        if 2 <= len(scores) <= SCALAR_MAX_CLASSES:
            return f"{helper}(" + "".join(f"{a}, " for a in first) + "\n " + ",\n ".join(scores) + "\n)"
        scores = scores_array(scores)
    return f"{helper}({''.join(f'{a}, ' for a in first)}{scores})"


def scores_array(scores: str | list[str]) -> str:
    """The K scores as one float8[]."""
    return scores if isinstance(scores, str) else "ARRAY[\n " + ",\n ".join(scores) + "\n]"


def result_types(label_type: str) -> list[str]:
    """The result types of predict, predict_proba and predict_proba_array for a label of type ``label_type``."""
    return [label_type, "pg_catalog.jsonb", f"{F8}[]"]


def bodies(
    label_type: str, classes_text: str, classes: list[str], scores: str | list[str], helpers: Helpers,
    proba_scores: str | list[str] | None = None, clear: tuple[float, str] | None = None,
) -> list[tuple[str, str]]:
    """(result type, body expression) of predict, predict_proba and predict_proba_array, for every kind.

    ``scores`` is the SQL of the K class scores (a float8[], the kind's score
    expression, or a list of each class's), ``classes_text`` the classes' array in
    its text form and ``classes`` each class's text, in class order;
    ``proba_scores``, when given, the scores the probabilities are computed from
    (``scores`` less one amount per row: :func:`scores_sql`'s ``relative``).  The
    arg-max, the probabilities and the jsonb are madnb's helpers (or an export's
    copies).  ``clear``, with ``proba_scores``: (:func:`clear_bound`, the SQL of the
    row's class position from ``scores``, called only when the shifted scores show
    no clear winner): predict reads the class off ``proba_scores`` when one class is
    clearly ahead (``helpers.clear``) and computes it from ``scores`` otherwise.
    """
    if not classes:  # no class (an empty private release): no prediction, no probability
        return [(label_type, f"NULL::{label_type}"), ("pg_catalog.jsonb", "'{}'::pg_catalog.jsonb"), (f"{F8}[]", f"'{{}}'::{F8}[]")]
    classes_sql = f"{plpy_literal(classes_text)}::{label_type}[]"
    texts = plpy_literal("{" + ",".join('"' + c.replace("\\", "\\\\").replace('"', '\\"') + '"' for c in classes) + "}")
    p = scores if proba_scores is None else proba_scores
    best = scores_call(helpers.best, scores)
    if clear is not None and proba_scores is not None:
        best = f"COALESCE({scores_call(helpers.clear, proba_scores, f8_const(clear[0]))}, {clear[1]})"
    return [
        (label_type, f"({classes_sql})[{best}]"),
        ("pg_catalog.jsonb", f"{helpers.proba_jsonb}({scores_array(p)}, {texts}::pg_catalog.text[])"),
        (f"{F8}[]", scores_call(helpers.proba, p)),
    ]


def calls(names: list[NewName], label_type: str, arguments: str) -> list[tuple[str, str]]:
    """(result type, body) of a form that calls the model's other form with ``arguments`` (``name => value, ...``)."""
    return [(rtype, f"{name.sql}({arguments})") for name, rtype in zip(names, result_types(label_type), strict=True)]


@dataclass(frozen=True)
class FunctionNames:
    """The names a model's prediction functions are written under, spelled by
    :class:`madnb_pl.models.catalog.ModelObjects` (a named model's, or an export's)."""

    predict: list[NewName]  # predict, predict_proba, predict_proba_array: the functions users call
    row_models: list[NewName]  # internal: the same three's model for a row (a row form that cannot call the column form)
    row_checks: list[NewName]  # internal: the row checks, MAX_ROW_CHECKS of them (a row form calls the first few)
    share: ShareNames | None = None  # private prediction's two functions (madnb_pl.predict.share), written by the kinds
    exact: NewName | None = None  # internal: predict's class from the unshifted scores, for rows with no clear winner


@dataclass(frozen=True)
class ShareNames:
    """The names of a model's two private-prediction functions (:mod:`madnb_pl.predict.share`)."""

    score_share: NewName  # <model>_score_share(numeric[]): a share of an encoded row -> its share of each class's log-score
    encoding: NewName  # <model>_share_encoding(): the public encoding of a row (jsonb)


@dataclass(frozen=True)
class Functions:
    """Statements that create functions, and the functions as (name, argument types): what a training
    writes, or what an exported script creates and lists in its header."""

    functions: list[tuple[NewName, str]]
    statements: list[Sql]


@dataclass(frozen=True)
class Form:
    """One form of a model's three prediction functions: its parameters, its signature (for COMMENT ON),
    what its comment says it takes, and the three (result type, body) pairs."""

    parameters: str
    signature: str
    takes: str
    bodies: list[tuple[str, str]]
    inline: bool = True  # an SQL function the planner inlines; False: PL/pgSQL (see INLINE_MAX_TERMS)
    declare: str = ""  # PL/pgSQL only: its DECLARE list (:func:`feature_lookups`)


ROW_SIGNATURE = "anyelement"
"""The row form's argument types (for COMMENT ON)."""
ROW_TYPES = "pg_catalog.anyelement"
"""The row form's argument types, as a script lists its functions."""


def row_form(takes: str, bodies: list[tuple[str, str]], inline: bool = True, declare: str = "") -> Form:
    """The form that takes a row (``anyelement``): ``takes`` says what the row holds (``inline``, ``declare``: :class:`Form`'s)."""
    return Form(f"r {ROW_SIGNATURE}", ROW_SIGNATURE, takes, bodies, inline, declare)


def form_statements(
    names: list[NewName], comment_prefix: str, descriptions: list[str], volatility: str, forms: list[Form], quote: Callable[[str], str],
) -> list[Sql]:
    """CREATE OR REPLACE FUNCTION and COMMENT ON FUNCTION of the three functions ``names`` in each of ``forms``.

    The one writer of every kind's prediction functions: SQL functions the planner
    inlines (a form not ``inline``: PL/pgSQL returning the same expression),
    ``volatility``, PARALLEL SAFE, SECURITY INVOKER; each comment is
    ``comment_prefix: what[i] of form.takes`` (``quote`` writes it as a string constant).
    """
    out: list[Sql] = []
    for form in forms:
        for name, (rtype, body), text in zip(names, form.bodies, descriptions, strict=True):
            declare = f"DECLARE {form.declare} " if form.declare else ""
            language, source = ("sql", "SELECT " + body) if form.inline else ("plpgsql", f"{declare}BEGIN RETURN ({body}); END")
            out.append(Sql(
                f"CREATE OR REPLACE FUNCTION {name.sql}({form.parameters}) RETURNS {rtype} LANGUAGE {language} {volatility} PARALLEL SAFE "
                f"SECURITY INVOKER AS {plpy_literal(source)}"
            ))
            out.append(Sql(f"COMMENT ON FUNCTION {name.sql}({form.signature}) IS " + quote(f"{comment_prefix}: {text} of {form.takes}")))
    return out


def model_functions(
    names: list[NewName], comment_prefix: str, descriptions: list[str], volatility: str, forms: list[Form], quote: Callable[[str], str],
    internal: Functions | None = None,
) -> Functions:
    """The functions users call, ``names`` in each of ``forms`` (:func:`form_statements`), after the ``internal`` ones
    their row form calls (:func:`checked_row_form`); listed row form first, then the column form, then the internal ones."""
    row_first = sorted(forms, key=lambda f: f.signature != ROW_SIGNATURE)
    listed = [(n, ROW_TYPES if f.signature == ROW_SIGNATURE else f.signature) for f in row_first for n in names]
    before = internal or Functions([], [])
    return Functions(
        listed + before.functions, before.statements + form_statements(names, comment_prefix, descriptions, volatility, forms, quote),
    )


def row_checks(columns: list[str]) -> list[tuple[str, list[str]]]:
    """The row checks that a row holds ``columns`` (quoted names): (body, its columns) of each, greedily as many
    columns as fit in :data:`CHECK_BODY_BYTES`, at least one.

    ``CASE WHEN false AND ROW(($1).a, ...) IS NULL THEN $1 ELSE $1 END``: parsing
    it names every column (42703 for a row without one), and the planner folds it
    to ``$1`` (false AND x is false; a CASE with no branch left is its ELSE), so
    the inlined query holds nothing of it.  Field selection, IS NULL, AND and CASE
    resolve no operator or function: nothing of the caller's search_path runs.
    """
    out: list[tuple[str, list[str]]] = []
    chunk: list[str] = []
    for c in columns:
        if chunk and len(_check_body(chunk + [c]).encode()) > CHECK_BODY_BYTES:
            out.append((_check_body(chunk), chunk))
            chunk = []
        chunk.append(c)
    if chunk:
        out.append((_check_body(chunk), chunk))
    return out


def _check_body(columns: list[str]) -> str:
    return _CHECK_HEAD + ", ".join(f"($1).{c}" for c in columns) + _CHECK_TAIL


def checked_row_form(
    names: FunctionNames, comment_prefix: str, descriptions: list[str], volatility: str, columns: list[str],
    model_bodies: list[tuple[str, str]], takes: str, quote: Callable[[str], str], inline: bool = True, declare: str = "",
) -> tuple[Form, Functions]:
    """A row form that does not call the column form, and the internal functions it calls.

    Its bodies are ``<row model>(<check k>(... <check 1>($1)))``: the row checks of
    ``columns`` (:func:`row_checks`), then the internal functions
    :attr:`FunctionNames.row_models`, whose ``model_bodies`` (result type, body over
    the row's fields) hold the model (``inline``, ``declare``: :class:`Form`'s).  The planner inlines the checks while it
    inlines the row form; a row without a column fails there, with a check's short
    body for internal query, in the context of the model's function.
    """
    checks = row_checks(columns)
    if len(checks) > len(names.row_checks):  # pragma: no cover - MAX_COLUMNS bounds the features
        raise MadnbError("XX000", f"internal error in madnb: {len(checks)} row checks, at most {len(names.row_checks)}",
                         hint="please report this")
    used = names.row_checks[:len(checks)]
    user = names.predict[0].name
    statements: list[Sql] = []
    for i, (name, (body, cols)) in enumerate(zip(used, checks, strict=True), start=1):
        what = f"feature column {cols[0]}" if len(cols) == 1 else f"one of the feature columns {', '.join(cols)}"
        statements.append(Sql(
            f"CREATE OR REPLACE FUNCTION {name.sql}(r {ROW_SIGNATURE}) RETURNS {ROW_SIGNATURE} LANGUAGE sql IMMUTABLE PARALLEL SAFE "
            f"SECURITY INVOKER AS {plpy_literal(body)}"
        ))
        statements.append(Sql(f"COMMENT ON FUNCTION {name.sql}({ROW_SIGNATURE}) IS " + quote(
            f"{comment_prefix}: internal, row check {i} of {len(checks)} of the row form ({user}(anyelement) and its siblings): "
            f"fails, naming the column, on a row without {what}; else returns the row "
            "(the planner folds it away as it inlines the row form)"
        )))
    statements += form_statements(
        names.row_models, comment_prefix,
        [f"internal, the model of {p.name}(anyelement) once its row checks pass: {d}" for p, d in zip(names.predict, descriptions, strict=True)],
        volatility, [row_form(takes, model_bodies, inline, declare)], quote,
    )
    row = "$1"
    for check in used:
        row = f"{check.sql}({row})"
    bodies = [(rtype, f"{m.sql}({row})") for m, (rtype, _) in zip(names.row_models, model_bodies, strict=True)]
    return row_form(takes, bodies), Functions([(n, ROW_TYPES) for n in used + names.row_models], statements)


def _bodies(
    training: ColumnTraining, m: ModelNumbers, value: list[str], helpers: Helpers, inline: bool = True,
    exact: tuple[NewName, float] | None = None,
) -> tuple[str, list[tuple[str, str]]]:
    """The DECLARE list (PL/pgSQL: not ``inline``) and (result type, body expression) of predict, predict_proba and
    predict_proba_array.  A PL/pgSQL body looks each feature up once per row (:func:`feature_lookups`).  ``exact``:
    the model's exact function (:func:`exact_function`) and :func:`clear_bound`: predict calls the function with
    ``value`` for a row whose relative scores show no clear winner, and reads every other row's class off them."""
    declare, looked_up = ("", None) if inline else feature_lookups(training, m, value)
    scores = [str(s) for s in scores_sql(training, m, value, False, looked_up)]
    relative = [str(s) for s in scores_sql(training, m, value, True, looked_up)]
    clear = None if exact is None else (exact[1], f"{exact[0].sql}({', '.join(value)})")
    return declare, bodies(training.label.type_sql, m.classes_text, m.classes, scores, helpers, relative, clear)


def exact_function(
    names: FunctionNames, comment_prefix: str, training: ColumnTraining, m: ModelNumbers, helpers: Helpers, quote: Callable[[str], str],
) -> tuple[Functions, NewName, float] | None:
    """The internal function of the column form's parameters that returns the position of predict's class from the
    unshifted scores, as the classify view picks it (``helpers.best``), when predict reads the other rows' class off the
    relative scores (:func:`clear_bound`): PL/pgSQL, not inlined, of COST 1, so that the plan neither holds nor costs
    the expression it runs for the few rows near a tie.  None when predict has no use for it: no column form (more
    than :data:`MAX_ARGS` features), a PL/pgSQL model (it looks each feature up once per row), or no feature shifted.
    With it, its name and the bound predict passes ``madnb._nb_clear``."""
    exact, bound = names.exact, clear_bound(m)
    if exact is None or bound is None or not has_column_form(training) or not inlined(len(m.classes), training.num_attrs):
        return None
    values = [f"${j}" for j in range(1, training.num_attrs + 1)]
    body = scores_call(helpers.best, [str(s) for s in scores_sql(training, m, values)])
    return Functions([(exact, column_signature(training))], [
        Sql(f"CREATE OR REPLACE FUNCTION {exact.sql}({column_parameters(training)}) RETURNS pg_catalog.int4 LANGUAGE plpgsql "
            f"{volatility(training)} PARALLEL SAFE SECURITY INVOKER COST 1 AS {plpy_literal(f'BEGIN RETURN ({body}); END')}"),
        Sql(f"COMMENT ON FUNCTION {exact.sql}({column_signature(training)}) IS " + quote(
            f"{comment_prefix}: internal, the position of the predicted class among the model's classes from the unshifted "
            f"scores, which {names.predict[0].name} computes so only for a row near a tie")),
    ]), exact, bound


def function_statements(
    names: FunctionNames, comment_prefix: str, training: ColumnTraining, m: ModelNumbers, helpers: Helpers, quote: Callable[[str], str],
    class_order: str = "madnb.model_classes",
) -> Functions:
    """CREATE OR REPLACE FUNCTION and COMMENT ON FUNCTION of predict, predict_proba and predict_proba_array, both forms,
    and of the internal functions a row form that holds no call of the column form calls; the functions they create.

    ``names`` are the functions' names (:class:`madnb_pl.models.catalog.ModelObjects`),
    ``comment_prefix`` starts each comment, ``quote`` writes a comment as a string
    constant and ``class_order`` names what gives the probability array's order.
    """
    descriptions = [
        "the predicted class (the first class within 1e-12 of the best log-likelihood, as the classify view's first class)",
        "jsonb {class: probability}",
        f"float8[] of class probabilities in the order of {class_order}",
    ]
    row_values: list[str] = [column_value_sql(f"($1).{f.column.sql}", f) for f in training.features]
    inline = inlined(len(m.classes), training.num_attrs)
    made = exact_function(names, comment_prefix, training, m, helpers, quote)
    exact = None if made is None else (made[1], made[2])
    forms: list[Form] = []
    if has_column_form(training):
        col_values = [f"${j}" for j in range(1, training.num_attrs + 1)]
        params = column_parameters(training)
        declare, col_bodies = _bodies(training, m, col_values, helpers, inline, exact)
        forms.append(Form(params, column_signature(training), "the feature values (each NULL, a missing value, unless given)",
                          col_bodies, inline, declare))
    # the row form's body names only the row's fields or the row checks' functions, so that a row without a
    # feature column fails with a short error naming the column and the function, not with the whole model:
    # a call of the column form, or (no column form) of the internal functions after the row checks
    takes = "a row holding the feature columns"
    internal = None
    call = row_arguments(training, lambda c: f"($1).{c.sql}")
    if call is not None:
        forms.append(row_form(takes, calls(names.predict, training.label.type_sql, call)))
    else:
        declare, row_bodies = _bodies(training, m, row_values, helpers, inline, exact)
        row, internal = checked_row_form(
            names, comment_prefix, descriptions, volatility(training), [str(f.column.sql) for f in training.features],
            row_bodies, takes, quote, inline, declare,
        )
        forms.append(row)
    if made is not None:  # created first: the bodies that call it are checked as they are created
        first = made[0]
        internal = first if internal is None else Functions(first.functions + internal.functions, first.statements + internal.statements)
    return model_functions(names.predict, comment_prefix, descriptions, volatility(training), forms, quote, internal)


def column_parameters(training: ColumnTraining) -> str:
    """The column form's parameters: each feature named as its column, of its base type, NULL (missing) unless given."""
    return ", ".join(f"{f.column.sql} {f.param_type} DEFAULT NULL" for f in training.features)


def row_form_calls_column_form(training: ColumnTraining) -> bool:
    """Whether the row form is a call of the column form: when there is one (at most :data:`MAX_ARGS` features),
    unless the one feature is named r (the call ``f(r => ...)`` would name the row form's parameter too)."""
    return has_column_form(training) and not (training.num_attrs == 1 and training.features[0].name == "r")


def row_arguments(training: ColumnTraining, field: Callable[[Column], str]) -> str | None:
    """The arguments with which the row form calls the column form (``name => value, ...``), ``field(c)`` the SQL of
    the row's column ``c``: ``($1).c`` in the row form, a column carried beside a row's probabilities in
    madnb.evaluate's query (for its rows near a tie); None when the row form does not call the column form
    (:func:`row_form_calls_column_form`)."""
    if not row_form_calls_column_form(training):
        return None
    return ", ".join(f"{f.column.sql} => {column_value_sql(field(f.column), f)}" for f in training.features)


def column_signature(training: ColumnTraining) -> str:
    """The column form's argument types (:attr:`madnb_pl.inputs.columns.Feature.param_type`)."""
    return ", ".join(f.param_type for f in training.features)


__all__ = [
    "CHECK_BODY_BYTES", "INLINE_MAX_TERMS", "MADNB_HELPERS", "MAX_CHARACTER_RANK", "MAX_ARGS", "MAX_COLUMNS", "MAX_ROW_CHECKS", "ROW_SIGNATURE", "ROW_TYPES",
    "SCHEMA", "Form", "FunctionNames", "Functions", "Helpers", "ModelNumbers", "ShareNames", "bodies", "calls", "checked_row_form", "class_terms",
    "SCALAR_MAX_CLASSES", "clear_bound", "has_column_form", "inlined", "column_parameters", "column_signature", "exact_function", "scores_array", "scores_call",
    "shifted_features",
    "feature_lookups", "form_statements", "lookup_values", "function_statements", "model_functions", "result_types", "read_numbers",
    "read_numbers_smoothed", "row_arguments", "row_checks", "row_form",
    "row_form_calls_column_form", "volatility",
]


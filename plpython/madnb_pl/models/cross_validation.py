"""madnb.cross_validate: k-fold cross-validation of a column model, in the database.

The pipeline of :mod:`madnb_pl.models.lifecycle` once, with the folds inside it, for every kind
(:class:`madnb_pl.models.kinds.base.Kind`: what is the kind's own is named by its method):

    inputs      source, label and features -> the kind's training (madnb.train's rules: Kind.resolve)
    release     ONE statistics pass, grouped by fold too (Kind.fold_pass) -> per fold the statistics
                of its complement (Kind.fold_complements, temporary): the sum of the other folds'
                (the table kinds: counts add, Gaussian cells by Chan's formula, every fold's sum in
                one statement, merge.part_sums.write_complement_sums), or their tables (the vector
                kinds)
    derive      per fold f: the sum of its complement's statistics (the vector kinds: per-feature
                sums add) -> the fold-complement model's tables -> its scores as SQL expressions
                (Kind.complement_scores)
    evaluate    one scoring pass over the source: what every fold's model reads from a row
                computed once (Kind.fold_lookups: the table kinds' categorical slots, in one
                dictionary of the folds' values), each row scored by its fold's complement
                model (with a grid, by each point's), aggregated per fold (evaluate.aggregate_sql)
                -> evaluate.metrics per fold

Why the sum of the other folds and not the total minus the fold: a subtraction of
second moments loses digits when the fold's part is most of the total (and can
go negative); the sum of k - 1 parts is the merge every other madnb model uses,
so a fold-complement model is exactly the model ``create_nb_model_from_statistics``
derives from those parts.  The statistics are small (classes x cells), so the k
sums cost nothing next to the pass over the source.

Folds: row r is in fold ``madnb.fold(key, folds, seed)`` =
``int(md5(seed || ':' || key)[0:8], 16) % folds + 1``, key the text of the ``key``
column (default: the row's text form, ``t::text``).  A hash, so folds are only
about equal in size (a fold that gets no row trained on is an error).  The rows of
the folds are the rows the kind trains on (Kind.trained_rows: a label, and for the
vector kinds a vector).  With as many folds as those rows it is leave-one-out
instead (scikit-learn's ``KFold(n_splits=n)``, ``LeaveOneOut``): fold i is the row
with the i-th key in byte order, the keys must be distinct, and the seed plays no
part (:func:`leave_one_out`); the one pass then runs again with those folds (the
source has at most MAX_FOLDS such rows then).

The metrics are madnb.evaluate's (:func:`madnb_pl.models.evaluate.metrics`), with the
classes of the whole source: a class absent from a fold's complement scores
-infinity there (probability 0, never predicted).  Gaussian cells are the one
pass's avg / var_samp per fold, merged: unlike madnb.train, no second pass
refines cells far from zero (|mean| > 1e4 standard deviations).

With ``weight`` (madnb.train's: a column of sample weights) each fold's model is
the weighted model madnb.train would train on the other folds' rows, and the metrics
count rows, as scikit-learn's ``cross_validate(..., params={"sample_weight": w})``
weighs the fits only: the folds are of the rows trained on (a NULL weight: neither
trained on nor scored), the pass sums weights (a table kind's two scans of
madnb.train's weighted pass, grouped by fold too, whose Gaussian moments each
fold's complement merges: :func:`madnb_pl.release.column_pass.weighted_fold_pass`).

Everything is temporary: the tables are dropped before returning, and an error
rolls them back with the statement.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import secrets
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import NewName, Relation, resolve_column
from ..core.progress import Progress
from ..core.sql import F8, Plpy, Sql, once, setting, text_sql, type_is_builtin
from ..inputs import arrays
from ..inputs.arrays import finite_number
from . import evaluate
from .kinds import KIND, kind_named, parse_options
from .kinds.base import FoldLookups, Kind, TrainRequest

MAX_FOLDS = 100
"""More folds than this are refused: each fold is a model derived and a CASE branch in the scoring query."""

MEAN = "mean"
BEST = "best"
MAX_GRID_POINTS = 200
"""More points than this in a grid are refused (each is a model per fold: a CASE branch of the scoring query)."""
MAX_BRANCHES = 2000
"""More points times folds than this are refused: the scoring query holds one model per (point, fold)."""
BEST_BY = "accuracy"
"""The mean metric the best point of a grid has the highest of (scikit-learn's GridSearchCV scores a classifier by
its accuracy); the first in the grid's order among equals, as GridSearchCV's ``best_index_``."""


def fold_sql(key: str, folds: int, seed: int) -> Sql:
    """The fold of a row: ``madnb.fold`` (an inlined SQL function) of the key's text."""
    return Sql(f"madnb.fold({key}, {int(folds)}, {int(seed)})")


ROW_KEY = Sql("pg_catalog.textin(pg_catalog.record_out(t.*))")
"""The default fold key: row ``t``'s text form.  ``t.*``: a column named t would win over the row t; record_out, not a
cast: the row type is the table owner's, who may plant a cast to text."""


def key_sql(plpy: Plpy, source: Relation, key: str | None) -> Sql:
    """The SQL of the fold key over row ``t`` of ``source``: the key column's text, or the whole row's text form
    (:data:`ROW_KEY`)."""
    if key is None:
        return ROW_KEY
    col = resolve_column(plpy, source, key, "key")
    return text_sql(f"t.{col.sql}", type_is_builtin(plpy, col.type_sql))


def _folds(folds: int | None, seed: int | None) -> int:
    if folds is None:
        raise MadnbError("22004", "folds must not be NULL", hint="folds is the number of folds, 5 by default")
    if seed is None:
        raise MadnbError("22004", "seed must not be NULL", hint="seed chooses the fold assignment, 0 by default")
    if not 2 <= folds <= MAX_FOLDS:
        raise MadnbError(
            "22023", f"folds must be from 2 to {MAX_FOLDS}, got {folds}",
            hint="k-fold cross-validation trains on k - 1 folds and scores the remaining one; 5 or 10 are usual",
        )
    return int(folds)


def grid_points(kind: Kind[Any, Any], grid: Any) -> list[dict[str, Any]] | None:
    """The points of ``grid`` (jsonb text: ``{parameter: [values], ...}``, or NULL: None) in scikit-learn's
    ParameterGrid order (the parameters sorted by name, the last one varying fastest).

    Its parameters must be the kind's :attr:`~madnb_pl.models.kinds.base.Kind.tunable` ones (22023 otherwise),
    each a non-empty array of numbers or booleans; the kind checks each value as madnb.train does (:meth:`Kind.tuned`).
    """
    if grid is None:
        return None
    try:
        value = json.loads(grid) if isinstance(grid, str) else grid
    except ValueError as e:  # jsonb arrives valid; a str from Python callers may not be
        raise MadnbError("22023", "grid must be a JSON object", detail=str(e)) from None
    example = 'e.g. grid => \'{"smoothing": [0.5, 1, 2]}\''
    if not isinstance(value, dict) or not value:
        raise MadnbError("22023", "grid must be a JSON object of at least one parameter", hint=example)
    tunable = ", ".join(sorted(kind.tunable)) or "none"
    for name, values in value.items():
        if name not in kind.tunable:
            raise MadnbError(
                "22023", f'grid parameter "{name}" is not tunable for kind \'{kind.name}\'',
                detail="a grid varies only what is derived from the statistics (one pass for every point)"
                + ("; binarize changes the statistics themselves" if name == "binarize" else ""),
                hint=f"kind '{kind.name}' tunes: {tunable}",
            )
        if not isinstance(values, list) or not values or not all(
            isinstance(v, bool) or finite_number(v) for v in values
        ):
            raise MadnbError(
                "22023", f'grid parameter "{name}" must be a non-empty array of numbers or booleans', detail=f"got {values!r}",
                hint=example,
            )
    names = sorted(value)
    count = 1
    for name in names:
        count *= len(value[name])
    if count > MAX_GRID_POINTS:
        raise MadnbError(
            "22023", f"grid has {count} points, more than {MAX_GRID_POINTS}",
            hint="search a coarser grid first, then a finer one around its best point",
        )
    return [dict(zip(names, combination, strict=True)) for combination in itertools.product(*(value[n] for n in names))]


def point_request(request: TrainRequest, point: dict[str, Any]) -> TrainRequest:
    """madnb.train's arguments with one grid point's parameters: ``smoothing`` as the argument, the rest as options
    (over the options given)."""
    options = {**request.options, **{k: v for k, v in point.items() if k != "smoothing"}}
    smoothing = arrays.parse_smoothing(point["smoothing"]) if "smoothing" in point else request.smoothing
    return dataclasses.replace(request, options=options, options_given=request.options_given or bool(options), smoothing=smoothing)


class Temporary:
    """The temporary tables of one call: each named once (:meth:`name`, a :data:`~.kinds.base.TempName`), all
    dropped together (:meth:`drop`)."""

    def __init__(self) -> None:
        self.tag = secrets.token_hex(6)
        self.names: list[NewName] = []

    def name(self, what: str) -> NewName:
        name = NewName("pg_temp", f"madnb_cv_{what}{len(self.names) + 1}_{self.tag}")
        self.names.append(name)
        return name

    def drop(self, plpy: Plpy) -> None:
        for name in self.names:
            plpy.execute(Sql(f"DROP TABLE {name.sql}"))


def leave_one_out(plpy: Plpy, source: Relation, trained_rows: Sql, key: Sql, temp: Temporary) -> Sql:
    """The fold of a row for leave-one-out: the position of its key among the keys of the rows trained on
    (``trained_rows``, a condition on row ``t``) in byte order.

    The sorted keys are kept in a one-row temporary table (read once per query
    that computes folds; dropped with ``temp``); 22023 when two such rows share a
    key (they would share a fold, and some fold would be empty).
    """
    keys = temp.name("keys")
    plpy.execute(
        Sql(f"CREATE TEMPORARY TABLE {keys.sql} ON COMMIT DROP AS SELECT pg_catalog.array_agg(x.k ORDER BY x.k COLLATE \"C\") "
        "AS ks, pg_catalog.count(x.k) AS n, pg_catalog.count(DISTINCT x.k) AS d "
        f"FROM (SELECT {key} AS k FROM {source.sql} AS t WHERE {trained_rows}) AS x")
    )
    r = plpy.execute(Sql(f"SELECT k.n, k.d FROM {keys.sql} AS k"))[0]
    if r["d"] != r["n"]:
        raise MadnbError(
            "22023", f"leave-one-out needs a distinct key for every labelled row of {source.display}",
            detail=f"folds equal the {r['n']} labelled rows (leave-one-out), but only {r['d']} of their keys are distinct",
            hint="name a key column whose values are unique (a primary key), or use fewer folds",
        )
    return Sql(f"pg_catalog.array_position((SELECT k.ks FROM {keys.sql} AS k), {key})")


def proba_sql(k: int, s: str, m: str, lse: str) -> str:
    """The probabilities (float8[] of ``k``; NULL for NULL scores) of scores ``s`` (a float8[]) whose largest is
    ``m`` and whose :func:`lse_sql` is ``lse``: ``madnb._nb_proba``'s operations in its order (sql/50_models.sql),
    written into the query instead of a PL/pgSQL call per row (about 7 us each, more than the rest of a row's
    probabilities)."""
    terms = ", ".join(
        f"CASE WHEN ({s}[{j}] OPERATOR(pg_catalog.-) {m}) OPERATOR(pg_catalog.<) '-700'::{F8} THEN 0::{F8} "
        f"ELSE pg_catalog.exp(({s}[{j}] OPERATOR(pg_catalog.-) {m}) OPERATOR(pg_catalog.-) {lse}) END"
        for j in range(1, k + 1)
    )
    return f"CASE WHEN {s} IS NOT NULL THEN ARRAY[{terms}] END"


def lse_sql(k: int, s: str, m: str) -> str:
    """``madnb._nb_proba``'s log of the sum of the exponentials of scores ``s`` less their largest ``m``."""
    return f"pg_catalog.ln(0::{F8}" + "".join(
        f" OPERATOR(pg_catalog.+) CASE WHEN ({s}[{j}] OPERATOR(pg_catalog.-) {m}) OPERATOR(pg_catalog.<) '-700'::{F8} "
        f"THEN 0::{F8} ELSE pg_catalog.exp({s}[{j}] OPERATOR(pg_catalog.-) {m}) END"
        for j in range(1, k + 1)
    ) + ")"


def scoring_sql(
    kind: Kind[Any, Any], training: Any, fold: Sql, classes_sql: str, k: int, branches: list[Sql], folds: int = 1, points: int = 1,
    lookups: FoldLookups | None = None,
) -> Sql:
    """The rows (g, t, h, y, pr, and w with :func:`weighted`) that :func:`madnb_pl.models.evaluate.aggregate_sql`
    aggregates, for ``k`` classes.

    Every level is aliased ``p``, so that the branches (the fold-complement models'
    scores over the values ``p.c1``, ``p.c2``, ...: the values the scores read,
    ``kind.score_values``, named apart from the source's own names, and over the
    ``lookups`` ``p.l1``, ``p.l2``, ...) read the same at each.  The scan names the
    values and the row's fold; the level above computes the lookups once per row
    (:func:`once`), and carries up only the values no lookup replaces (``lookups.replaced``) -- or, when they are
    ``complete``, groups the rows by fold, label
    and lookups, and every level above reads a group as one row of weight w (its rows:
    they score alike).  The level above computes each row's scores, its fold's branch
    of a simple CASE (which computes the fold once, so that one complement model is
    evaluated per row), then their largest, their log-sum-exp and the probabilities
    (:func:`proba_sql`), each value computed once (:func:`once`): all in the parallel
    workers.  With ``points`` > 1 (a grid of that many points over ``folds`` folds)
    each row is scored once per point in the same pass: the rows below are repeated
    by a ``generate_series`` in a select list over them (each computed once, as the
    level below is not merged into it), and g is the group of (point i from 0, fold
    f): ``f + folds * i``, the 1-based position of its branch in ``branches``.  Above,
    each value computed once too (:func:`once`, not OFFSET 0, which would keep these
    levels and the metrics' grouping in the leader): the largest probability (past
    :data:`madnb_pl.models.evaluate.PAIRWISE_CLASSES` classes), then the
    predicted class read off the probabilities as madnb.evaluate reads it
    (:func:`madnb_pl.models.evaluate.predicted_class_sql`), ``madnb._nb_best`` of the
    row's scores only for a row near a tie.  So the metrics' grouping runs partially in
    each worker, which sends the leader a few rows, not every scored row.
    """
    values = kind.score_values(training)
    grouped = weighted(lookups)
    label = kind.label(training)
    y = f"t.{label.sql}" if kind.label_builtin(training) else text_sql(f"t.{label.sql}", False)
    # the scan: the fold computed once (below a select list that repeats the rows, it would be once per repeat)
    g = once(fold) if points > 1 and lookups is None else fold
    cols = ", ".join(f"{v} AS c{j}" for j, v in enumerate(values, start=1))
    rows = f"SELECT {g} AS g, {y} AS y, {cols} FROM {kind.source(training).sql} AS t WHERE {kind.trained_rows(training)}"
    replaced = lookups.replaced if lookups is not None else frozenset()
    carried = [] if grouped else [f"p.c{j}" for j in range(1, len(values) + 1) if j not in replaced]
    kept_values = list(carried)
    if lookups is not None:
        named = [f"{c if grouped else once(c)} AS l{j}" for j, c in enumerate(lookups.columns, start=1)]
        carried += [f"p.l{j}" for j in range(1, len(lookups.columns) + 1)]
        if grouped:
            keys = ", ".join(str(j) for j in range(1, len(named) + 3))
            rows = f"SELECT p.g, p.y, {', '.join(named)}, pg_catalog.count(*) AS w FROM ({rows}) AS p GROUP BY {keys}"
        else:
            rows = f"SELECT p.g, p.y, {', '.join(kept_values + named)} FROM ({rows}) AS p"
    if grouped:
        carried.append("p.w")
    then = "".join(f", {c}" for c in carried)
    if points > 1:
        rows = (f"SELECT p.g OPERATOR(pg_catalog.+) ({int(folds)} OPERATOR(pg_catalog.*) p.i) AS g, p.g AS f, p.i, p.y{then} "
                f"FROM (SELECT p.g, p.y{then}, pg_catalog.generate_series(0, {int(points) - 1}) AS i FROM ({rows}) AS p) AS p")
    w = ", p.w" if grouped else ""
    if points > 1:  # the point's branch, then the fold's in it: a few comparisons per row, not one per branch
        scores = "CASE p.i " + " ".join(
            f"WHEN {i} THEN CASE p.f " + " ".join(f"WHEN {f} THEN {branches[i * folds + f - 1]}" for f in range(1, folds + 1)) + " END"
            for i in range(points)
        ) + " END"
    else:
        scores = "CASE p.g " + " ".join(f"WHEN {f} THEN {b}" for f, b in enumerate(branches, start=1)) + " END"
    largest = evaluate.margin_level_sql(evaluate.subscripts(k, "p.pr"))
    top = "GREATEST(" + ", ".join(f"p.s[{j}]" for j in range(1, k + 1)) + ")"
    best = evaluate.predicted_class_sql(evaluate.subscripts(k, "p.pr"), None if largest is None else "p.m", "madnb._nb_best(p.s)")
    scored = (
        f"SELECT p.g, p.y, p.s{w}, {once(proba_sql(k, 'p.s', 'p.top', 'p.lse'))} AS pr "
        f"FROM (SELECT p.g, p.y, p.s{w}, p.top, {once(lse_sql(k, 'p.s', 'p.top'))} AS lse "
        f"FROM (SELECT p.g, p.y, p.s{w}, {once(top)} AS top "
        f"FROM (SELECT p.g, p.y{w}, {once(scores)} AS s "
        f"FROM ({rows}) AS p) AS p) AS p) AS p"
    )
    if largest is not None:
        scored = f"SELECT p.g, p.y, p.pr, p.s{w}, {once(largest)} AS m FROM ({scored}) AS p"
    return Sql(f"SELECT p.g, pg_catalog.array_position({classes_sql}, p.y) AS t, {best} AS h, p.y, p.pr{w} FROM ({scored}) AS p")


GROUPED_LOOKUPS = 64
"""At most this many lookups for :func:`scoring_sql` to group the rows that score alike: PostgreSQL groups them by
sorting (it costs a sort by the comparisons, not by the keys compared), and rows alike in most keys compare every
key: 800 text columns, 2,000 rows, 3 folds: the sort 1.83 s, the scan and its lookups 0.11 s.  Rows of that many
features seldom repeat anyway."""


def weighted(lookups: FoldLookups | None) -> bool:
    """Whether :func:`scoring_sql`'s rows are groups of rows that score alike, of weight w (their count): when every
    value is looked up (``complete``), up to :data:`GROUPED_LOOKUPS` lookups."""
    return lookups is not None and lookups.complete and len(lookups.columns) <= GROUPED_LOOKUPS


def mean_metrics(per_fold: list[dict[str, Any]]) -> dict[str, Any]:
    """The mean row: scores averaged over the folds (unweighted, as scikit-learn's cross_validate scores are
    averaged), counts (rows, support, confusion_matrix) summed; roc_auc only when every fold has one."""
    k = len(per_fold)

    def mean(values: list[Any]) -> Any:
        if any(v is None for v in values):
            return None
        if isinstance(values[0], dict):
            return {key: mean([v[key] for v in values]) for key in values[0]}
        if isinstance(values[0], list):
            return [mean(list(column)) for column in zip(*values, strict=True)]
        return sum(values) / k

    def total(values: list[Any]) -> Any:
        if isinstance(values[0], list):
            return [total(list(column)) for column in zip(*values, strict=True)]
        return sum(values)

    first = per_fold[0]
    out: dict[str, Any] = {}
    for name, value in first.items():
        values = [m[name] for m in per_fold]
        if name in ("classes", "positive_class"):
            out[name] = value
        elif name in ("rows", "unknown_label_rows", "unscored_rows", "support", "confusion_matrix"):
            out[name] = total(values)
        else:
            out[name] = mean(values)
    out["folds"] = k
    return out


def validate(
    plpy: Plpy, model_kind: Kind[Any, Any], request: TrainRequest, k: int, sd: int, key: str | None,
    points: list[dict[str, Any]] | None = None,
) -> list[dict[int, dict[str, Any]]]:
    """The cross-validation of madnb.train's model of ``model_kind`` on ``request``: per point of ``points`` (None: the
    request's own parameters, one point) each fold's metrics, all from one statistics pass and one scoring pass."""
    training = model_kind.resolve(plpy, request)
    trainings = [training] if points is None else [model_kind.tuned(plpy, training, point_request(request, p)) for p in points]
    if len(trainings) * k > MAX_BRANCHES:
        raise MadnbError(
            "22023", f"a grid of {len(trainings)} points over {k} folds is {len(trainings) * k} models, more than {MAX_BRANCHES}",
            hint="use fewer points or fewer folds",
        )
    rel, trained_rows = model_kind.source(training), model_kind.trained_rows(training)
    key_expr = key_sql(plpy, rel, key)
    fold = fold_sql(key_expr, k, sd)
    # phases: the statistics pass, each fold's models, the scoring pass, the metrics (fixed by k and the grid, not by the data)
    progress = Progress(plpy, f"cross-validate {rel.display} ({k} folds)", k + 3)
    progress.phase("statistics pass (every fold at once)")
    fold_pass = model_kind.fold_pass(plpy, training, fold)
    labelled = fold_pass.labelled
    if labelled < k:
        raise MadnbError(
            "22023", f"folds ({k}) are more than the labelled rows of {rel.display} ({labelled})",
            hint="use at most as many folds as labelled rows (as many is leave-one-out)",
        )
    temp = Temporary()
    if labelled == k:  # leave-one-out: the pass again, each labelled row its own fold
        plpy.execute(Sql(f"DROP TABLE {fold_pass.table}"))
        fold = leave_one_out(plpy, rel, trained_rows, key_expr, temp)
        with setting(plpy, "client_min_messages", "warning"):  # the first pass gave its NOTICE (rows without a label)
            fold_pass = model_kind.fold_pass(plpy, training, fold)
    s = fold_pass.table
    sizes = {
        r["f"]: int(r["n"])
        for r in plpy.execute(
            Sql(f"SELECT s.f, pg_catalog.sum(s.{fold_pass.rows})::pg_catalog.int8 AS n FROM {s} AS s "
            "WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 GROUP BY s.f")
        )
    }
    if None in sizes:
        raise MadnbError(
            "22004", f"the key of {sizes[None]} labelled row(s) of {rel.display} is NULL",
            detail=f'the key column is "{key}"' if key is not None else None, hint="a row's fold is computed from its key: use a key column without NULLs",
        )
    empty = [f for f in range(1, k + 1) if f not in sizes]
    if empty:
        raise MadnbError(
            "22023", f"fold {empty[0]} of {k} has no labelled rows of {rel.display}",
            detail=f"{labelled} labelled rows; folds are assigned by a hash of the key, so their sizes vary",
            hint="use fewer folds, or another seed",
        )
    builtin = model_kind.label_builtin(training)
    classes: list[str] = list(plpy.execute(
        Sql(f"SELECT ARRAY(SELECT {text_sql('d.c', builtin)} FROM (SELECT DISTINCT s.cls AS c FROM {s} AS s "
        "WHERE s.cls IS NOT NULL) AS d ORDER BY d.c) AS c")
    )[0]["c"])
    complements = model_kind.fold_complements(plpy, training, fold_pass, k, temp.name)
    values = [f"p.c{j}" for j in range(1, len(model_kind.score_values(training)) + 1)]
    made = {name.sql: i for i, name in enumerate(temp.names)}  # every complement's tables, each once, as they were made
    tables = sorted({rel.sql: (rel, h) for c in complements for rel, h in c.parts}.values(), key=lambda p: made.get(p[0].sql, -1))
    lookups = model_kind.fold_lookups(plpy, training, tables, values)
    scores: dict[tuple[int, int], Sql] = {}
    for f, complement in enumerate(complements, start=1):
        progress.phase(f"fold {f} of {k}: the model of the other folds")
        # the fold-complement models: the other folds' statistics summed and derived, as any merge
        for i, sc in enumerate(model_kind.complement_scores(plpy, trainings, complement, classes, values, temp.name, lookups)):
            scores[(i, f)] = sc
    # in the order of scoring_sql's groups: point by point, fold by fold
    branches = [scores[(i, f)] for i in range(len(trainings)) for f in range(1, k + 1)]
    # labels of a type from outside pg_catalog compare as their texts (scoring_sql's y): a cast could be its owner's
    classes_sql = f"$1::pg_catalog.text[]::{model_kind.label(training).type_sql}[]" if builtin else "$1::pg_catalog.text[]"
    query = evaluate.aggregate_sql(
        scoring_sql(model_kind, training, fold, classes_sql, len(classes), branches, k, len(trainings), lookups), len(classes),
        weighted=weighted(lookups),
    )
    progress.phase("score every fold (one pass)")
    result = evaluate.run_aggregate(plpy, query, classes, large=True)  # jit off, parallel workers where the plan allows
    temp.drop(plpy)
    progress.phase("metrics")
    per_group = evaluate.read_metrics(classes, result)
    progress.done()
    return [{f: per_group[f + k * i] for f in range(1, k + 1)} for i in range(len(trainings))]


def best(means: list[dict[str, Any]]) -> int:
    """The position of the best point: the highest mean :data:`BEST_BY`, the first of equals (GridSearchCV's)."""
    top = max(m[BEST_BY] for m in means)
    return next(i for i, m in enumerate(means) if m[BEST_BY] == top)


def _request(
    kind: str | None, source: str | None, label: str | None, features: list[str | None] | None, exclude: list[str | None] | None,
    categorical: list[str | None] | None, smoothing: float | None, options: Any, weight: str | None,
) -> tuple[Kind[Any, Any], TrainRequest]:
    model_kind = kind_named(kind)
    request = TrainRequest(
        source, label, features, exclude, categorical, arrays.parse_smoothing(smoothing), parse_options(model_kind.name, options),
        options is not None, None, None, None, None, weight,
    )
    return model_kind, request


@entry_point
def cross_validate(
    plpy: Plpy,
    source: str | None,
    label: str | None,
    features: list[str | None] | None = None,
    folds: int | None = 5,
    seed: int | None = 0,
    exclude: list[str | None] | None = None,
    categorical: list[str | None] | None = None,
    smoothing: float | None = 1.0,
    key: str | None = None,
    kind: str | None = KIND,
    options: Any = None,
    grid: Any = None,
    weight: str | None = None,
) -> list[dict[str, Any]]:
    """k-fold cross-validation of madnb.train's model on ``source``: rows (fold, metrics jsonb text, parameters), then 'mean'.

    ``kind`` and ``options`` as madnb.train's, for every kind: each fold's model
    gets the kind's numbers from its complement's statistics (the kind's
    :meth:`~madnb_pl.models.kinds.base.Kind.complement_scores`); ``weight`` as madnb.train's (each fold's
    model weighted, the metrics counting rows: see the module docstring).  With ``grid``
    (:func:`grid_points`): those rows for every point, its parameters (jsonb text) in
    ``parameters``, then a row 'best': the best point's (:func:`best`) mean metrics and
    parameters; without, ``parameters`` is NULL.
    """
    k = _folds(folds, seed)
    sd = int(seed)  # type: ignore[arg-type]  # _folds refused NULL
    model_kind, request = _request(kind, source, label, features, exclude, categorical, smoothing, options, weight)
    points = grid_points(model_kind, grid)
    results = validate(plpy, model_kind, request, k, sd, key, points)
    rows = []
    means = []
    for i, per_fold in enumerate(results):
        parameters = None if points is None else json.dumps(points[i])
        mean = mean_metrics([per_fold[f] for f in range(1, k + 1)])
        means.append(mean)
        rows += [{"fold": str(f), "metrics": json.dumps(per_fold[f]), "parameters": parameters} for f in range(1, k + 1)]
        rows.append({"fold": MEAN, "metrics": json.dumps(mean), "parameters": parameters})
    if points is not None:
        b = best(means)
        rows.append({"fold": BEST, "metrics": json.dumps(means[b]), "parameters": json.dumps(points[b])})
    return rows


def tuned_request(plpy: Plpy, model_kind: Kind[Any, Any], request: TrainRequest, tune: Any) -> TrainRequest:
    """madnb.train's ``tune``: ``request`` with the parameters of the best point of grid ``tune`` (:func:`best`) by
    5-fold cross-validation with seed 0 (madnb.cross_validate's defaults, the rows' text forms as keys)."""
    points = grid_points(model_kind, tune)
    assert points is not None
    means = [mean_metrics(list(per_fold.values())) for per_fold in validate(plpy, model_kind, request, 5, 0, None, points)]
    return point_request(request, points[best(means)])


__all__ = [
    "BEST", "BEST_BY", "MAX_BRANCHES", "MAX_FOLDS", "MAX_GRID_POINTS", "ROW_KEY", "Temporary", "best", "cross_validate", "fold_sql",
    "grid_points", "key_sql", "leave_one_out", "mean_metrics", "point_request", "scoring_sql", "tuned_request", "validate",
]

"""Entry points called by the SQL functions (MADlib's interface): the pipeline, stage by stage.

Every call goes through the same stages, each one package:

    inputs.arrays       MADlib's arguments -> a validated Training (names resolved on the caller's path)
    merge.part_sources  the exact release -> a statistics table: release.statistics_table here, or
                        merge.shards (the same pass on each server)
    privacy             the private release -> a statistics table (inputs.privacy_parameters: its parameters)
    merge.federation    statistics tables on other servers (foreign tables' headers; create_nb_federated_tables pulls them)
    merge.secure        secure aggregation: an owner's shares, an aggregation server's share sum, the analyst's reconstruction
    derive.model_tables merge (sum) the statistics tables and derive MADlib's model tables (ModelTables)
    derive.update       add a statistics table to a model in place (its kept sum + the part, derived again)
    scoring             a ScoringPlan for the model, then the classify / probs view over it

Named models (madnb.train, madnb.models) are the same pipeline from ordinary
columns, with their own entry points in :mod:`madnb_pl.models.lifecycle`: inputs.columns ->
release.column_pass -> release.statistics_table -> derive (-> models.kinds: the
numbers of scikit-learn's kinds 'gaussian' and 'categorical') -> predict (the
generated prediction functions); :mod:`madnb_pl.models.export` writes those functions
as a script for a database without madnb (``madnb.model_sql``) and gives their
numbers to the Python package's ``madnb.to_sklearn``.
The vector kinds (multinomial, Bernoulli, complement: one column of counts) have
their statistics pass, derivation and prediction SQL in :mod:`madnb_pl.models.kinds.vector`.

Training is release + derive::

    training = arrays.training(...)                                        # what to train on
    header = part_sources.write_exact_here_or_on_shards(plpy, training, kept)  # or private_release.write_private(...)
    model_tables.merge_and_derive(plpy, [(kept, header)], model, smoothing)    # the model tables

``create_nb_statistics`` stops after the release; ``create_nb_model_from_statistics``
is derive alone, over several parts (local tables, or postgres_fdw foreign tables
whose headers federation reads on their servers); ``create_nb_federated_tables``
is federation's pull from every server, then the same derive.  Each function validates its arguments,
resolves every name against the catalog, and builds SQL only from quoted
identifiers and integers it parsed itself.  A call runs in the caller's
statement: any error rolls back everything it did.
"""

from __future__ import annotations

import re
from typing import Any

from . import scoring
from .core.errors import MadnbError, entry_point
from .core.names import (
    NewName,
    Relation,
    created,
    distinct_outputs,
    has_columns,
    refuse_nondeterministic_collation,
    resolve_column,
    resolve_new_name,
    resolve_relation,
)
from .core.progress import Progress
from .core.sql import Plpy, Sql, quote_ident, with_clause
from .derive import model_tables, update
from .derive.model_tables import ModelTables
from .inputs import arrays, privacy_parameters
from .merge import federation, part_sources, part_sums, secure
from .privacy import private_release
from .release import array_pass, share_table, statistics_table


@entry_point
def create_nb_prepared_data_tables(
    plpy: Plpy,
    training_source: str | None,
    training_class_column: str | None,
    training_attr_column: str | None,
    numeric_indices: str | None,
    num_attrs: int | None,
    feature_probs_dest: str | None,
    numeric_stats_dest: str | None,
    class_priors_dest: str | None,
    use_numeric: bool,
    epsilon: float | None = None,
    bounds: Any = None,
    domain: str | None = None,
    smoothing: float | None = 1.0,
    delta: float | None = None,
) -> None:
    """Train: class priors, feature probabilities and (optionally) Gaussian parameters.

    With ``epsilon`` the model is differentially private (see :mod:`madnb_pl.inputs.privacy_parameters`):
    ``bounds`` are the public bounds of the numeric attributes and ``domain`` the
    public domain of the class labels and categorical values (or ``'private'``,
    with ``delta``: chosen from the data by private partition selection).  ``smoothing`` is
    recorded in the feature table, where the views read it.
    """
    training = arrays.training(plpy, training_source, training_class_column, training_attr_column, numeric_indices, num_attrs, use_numeric)
    smoothing_factor = arrays.parse_smoothing(smoothing)
    privacy = _privacy(plpy, training, epsilon, bounds, domain, delta)
    model = _model_tables(plpy, feature_probs_dest, numeric_stats_dest, class_priors_dest, use_numeric)
    progress = Progress(plpy, f"train {model.feature_probs.display} from {training.source.display}", 2)

    # release: the statistics, kept in schema madnb_statistics
    progress.phase("statistics pass")
    kept = statistics_table.kept_name(plpy, model.feature_probs)
    if privacy is not None:
        outputs = {"featureProbs": model.feature_probs.display, "classPriors": model.class_priors.display}
        if model.numeric_stats is not None:
            outputs["numericFeatureStats"] = model.numeric_stats.display
        header = private_release.write_private(plpy, training, privacy, kept, outputs, {"smoothing": smoothing_factor})
    else:
        header = part_sources.write_exact_here_or_on_shards(plpy, training, kept)
        arrays.warn_suspect_classes(plpy, kept.sql, training.cls, training.source)
    # derive: the model tables from that one part
    progress.phase("derive the model tables")
    model_tables.merge_and_derive(plpy, [(created(plpy, kept), header)], model, smoothing_factor, shape=training)
    progress.done()


def _model_tables(
    plpy: Plpy, feature_probs_dest: str | None, numeric_stats_dest: str | None, class_priors_dest: str | None, numeric: bool,
) -> ModelTables:
    """The new model tables' names, checked distinct (numericFeatureStats only with numeric attributes)."""
    fp = resolve_new_name(plpy, feature_probs_dest, "featureProbsDestName")
    cp = resolve_new_name(plpy, class_priors_dest, "classPriorsDestName")
    numeric_stats: NewName | None = None
    if numeric:
        numeric_stats = resolve_new_name(plpy, numeric_stats_dest, "numericFeatureStatsDestName")
    model = ModelTables(fp, cp, numeric_stats)
    distinct_outputs(*model.all())
    return model



def _privacy(
    plpy: Plpy, training: arrays.Training, epsilon: float | None, bounds: Any, domain: str | None, delta: float | None
) -> privacy_parameters.Privacy | None:
    """The validated private release of ``t`` with ``epsilon``, or None for exact statistics.

    Without epsilon, bounds, domain and delta are refused, so that forgetting
    epsilon never silently releases exact statistics.
    """
    if epsilon is not None:
        return privacy_parameters.privacy_spec(plpy, training, epsilon, bounds, domain, list(training.numeric_given), delta)
    privacy_parameters.refuse_private_arguments(bounds, domain, delta)
    return None


@entry_point
def create_nb_statistics(
    plpy: Plpy,
    training_source: str | None,
    training_class_column: str | None,
    training_attr_column: str | None,
    numeric_indices: str | None,
    num_attrs: int | None,
    statistics_dest: str | None,
    use_numeric: bool,
    epsilon: float | None = None,
    bounds: Any = None,
    domain: str | None = None,
    delta: float | None = None,
) -> None:
    """Release the statistics of a training table into a new statistics table (exact, or private with epsilon).

    The same statistics pass as training; see :mod:`madnb_pl.release.statistics_table`
    for the table and its header.  A private release is charged and ledgered as
    private training is.
    """
    training = arrays.training(plpy, training_source, training_class_column, training_attr_column, numeric_indices, num_attrs, use_numeric)
    privacy = _privacy(plpy, training, epsilon, bounds, domain, delta)
    dest = resolve_new_name(plpy, statistics_dest, "statisticsDestName")
    progress = Progress(plpy, f"release the statistics of {training.source.display}", 1)
    progress.phase("statistics pass")
    if privacy is not None:
        private_release.write_private(plpy, training, privacy, dest, {"statistics": dest.display})
    else:
        part_sources.write_exact_here_or_on_shards(plpy, training, dest)
    plpy.execute(Sql(f"ANALYZE {dest.sql}"))
    progress.done()


@entry_point
def create_nb_model_from_statistics(
    plpy: Plpy,
    statistics: list[str | None] | None,
    feature_probs_dest: str | None,
    numeric_stats_dest: str | None,
    class_priors_dest: str | None,
    smoothing: float | None = 1.0,
) -> None:
    """Merge statistics tables (their sum) and derive MADlib's model tables from the sum.

    The sum is kept, as training keeps its statistics, so that the model can be
    updated (:func:`update_nb_model`).
    """
    if statistics is None:
        raise MadnbError("22004", "statistics must not be NULL", hint="pass an array of statistics table names")
    if len(statistics) == 0:
        raise MadnbError("22023", "statistics is empty", hint="pass at least one statistics table, e.g. ARRAY['stats_a', 'stats_b']")
    smoothing_factor = arrays.parse_smoothing(smoothing)
    parts = []
    for i, name in enumerate(statistics, start=1):
        rel = resolve_relation(plpy, name, f"statistics[{i}]")
        parts.append((rel, part_sources.read_header(plpy, rel, f"statistics[{i}]")))
    model = _statistics_model_tables(plpy, parts[0][1], feature_probs_dest, numeric_stats_dest, class_priors_dest)
    # the model keeps the sum of its parts (in schema madnb_statistics, as training does): updates add to it
    model_tables.merge_and_derive(plpy, parts, model, smoothing_factor, keep=statistics_table.kept_name(plpy, model.feature_probs))


def _statistics_model_tables(
    plpy: Plpy, first: statistics_table.Header, feature_probs_dest: str | None, numeric_stats_dest: str | None,
    class_priors_dest: str | None,
) -> ModelTables:
    """The model tables of a merge: numericFeatureStatsDestName exactly when the statistics have numeric attributes."""
    numeric = bool(first.numeric)
    if numeric and numeric_stats_dest is None:
        raise MadnbError(
            "22004", "numericFeatureStatsDestName must not be NULL: the statistics have numeric attributes",
            hint="name the table for the Gaussian parameters",
        )
    if not numeric and numeric_stats_dest is not None:
        raise MadnbError(
            "22023", "numericFeatureStatsDestName is given but the statistics have no numeric attributes",
            hint="pass NULL as numericFeatureStatsDestName",
        )
    return _model_tables(plpy, feature_probs_dest, numeric_stats_dest, class_priors_dest, numeric)


# The feature table's comment records the numAttrs of the training, so that a view
# can check its own numAttrs against it (a model whose last attributes had no
# values has no feature rows for them).
_NUM_ATTRS_RECORD = re.compile(r"\bnumAttrs = ([0-9]+)\b", re.ASCII)


def _check_num_attrs(plpy: Plpy, n: int, fp: Relation, numeric_stats: Relation | None) -> None:
    """A view's numAttrs must be the model's (22023 otherwise).

    The model's numAttrs is the one recorded in the feature table's comment
    (madnb records it at training), else the largest attribute number of the
    feature and numeric tables (MADlib's tables have rows for every attribute).
    """
    union = f"SELECT f.attr FROM {fp.sql} AS f" + (f" UNION ALL SELECT x.attr FROM {numeric_stats.sql} AS x" if numeric_stats is not None else "")
    row = plpy.execute(
        Sql(f"SELECT pg_catalog.max(a.attr)::pg_catalog.int8 AS hi, pg_catalog.min(a.attr)::pg_catalog.int8 AS lo FROM ({union}) AS a")
    )[0]
    comment = plpy.execute(
        plpy.prepare(Sql("SELECT pg_catalog.obj_description($1, 'pg_class') AS c"), ["oid"]), [fp.oid]
    )[0]["c"]
    found = _NUM_ATTRS_RECORD.search(comment or "")
    recorded = int(found.group(1)) if found else None
    hi, lo = row["hi"], row["lo"]
    if lo is not None and lo < 1:
        raise MadnbError("22023", f"the model has attribute number {lo}; attributes are numbered from 1", detail=f"featureProbsSource {fp.display}")
    if recorded is not None and hi is not None and hi > recorded:
        recorded = None  # the comment is not about these tables
    expected = recorded if recorded is not None else hi
    if expected is None:
        return  # a model without attributes: priors only
    if n != expected:
        how = (
            f"the model was trained with numAttrs = {expected}" if recorded is not None
            else f"the model's attributes are numbered up to {expected}"
        )
        raise MadnbError(
            "22023",
            f"numAttrs is {n} but {how}",
            detail=f"featureProbsSource {fp.display}" + (f", numericFeatureStatsSource {numeric_stats.display}" if numeric_stats is not None else ""),
            hint=f"create the view with numAttrs = {expected}, the length of the attribute arrays the model was trained on",
        )


_FEATURE_COLUMNS = ["class", "attr", "value", "cnt", "attr_cnt"]
_PRIOR_COLUMNS = ["class", "class_cnt", "all_cnt"]


def _check_not_swapped(plpy: Plpy, fp: Relation, cp: Relation) -> None:
    """Model tables given in each other's place say so (42703), rather than naming a missing column."""
    for argument, rel, want, other, looks_like in (
        ("classPriorsSource", cp, _PRIOR_COLUMNS, _FEATURE_COLUMNS, "a feature probabilities table"),
        ("featureProbsSource", fp, _FEATURE_COLUMNS, _PRIOR_COLUMNS, "a class priors table"),
    ):
        if not has_columns(plpy, rel, want) and has_columns(plpy, rel, other):
            raise MadnbError(
                "42703",
                f"{argument} {rel.display} looks like {looks_like}",
                detail=f"it has the columns {', '.join(other)}, not {', '.join(want)}",
                hint="the arguments are featureProbsSource, then classPriorsSource: are the two table names swapped?",
            )


def _class_count(plpy: Plpy, rel_sql: str, argument: str) -> int:
    k = int(plpy.execute(Sql(f"SELECT pg_catalog.count(*)::int8 AS k FROM {rel_sql} AS m"))[0]["k"])
    if k == 0:
        raise MadnbError("22023", f"the model has no classes: {argument} is empty", hint="train the model first")
    return k


def _check_model_columns(plpy: Plpy, rel: Relation, needed: list[str], argument: str) -> None:
    for col in needed:
        resolve_column(plpy, rel, quote_ident(col), argument, compared=col in ("class", "value"))


@entry_point
def create_view(
    plpy: Plpy,
    kind: str,
    feature_probs_source: str | None,
    class_priors_source: str | None,
    numeric_stats_source: str | None,
    use_numeric: bool,
    classify_source: str | None,
    key_column: str | None,
    attr_column: str | None,
    num_attrs: int | None,
    dest: str | None,
) -> None:
    """A classify or probs view over prepared model tables.

    numAttrs must be the model's (see :func:`_check_num_attrs`); model tables
    given in each other's place are reported as such.  What the view does with
    NaN, extreme values, rows of another length and ties: :mod:`madnb_pl.scoring`.
    """
    n = arrays.parse_num_attrs(num_attrs)
    fp = resolve_relation(plpy, feature_probs_source, "featureProbsSource")
    cp = resolve_relation(plpy, class_priors_source, "classPriorsSource")
    _check_not_swapped(plpy, fp, cp)
    _check_model_columns(plpy, cp, _PRIOR_COLUMNS, "classPriorsSource")
    _check_model_columns(plpy, fp, _FEATURE_COLUMNS, "featureProbsSource")
    numeric_stats = None
    if use_numeric:
        numeric_stats = resolve_relation(plpy, numeric_stats_source, "numericFeatureStatsSource")
        _check_model_columns(plpy, numeric_stats, ["class", "attr", "attr_mean", "attr_var", "value_cnt"], "numericFeatureStatsSource")
    # before anything proportional to numAttrs is built
    _check_num_attrs(plpy, n, fp, numeric_stats)
    src, key, attrs = _classify_source(plpy, classify_source, key_column, attr_column, bool(use_numeric))
    out = resolve_new_name(plpy, dest, "destName")
    k = _class_count(plpy, cp.sql, f"classPriorsSource {cp.display}")
    value = resolve_column(plpy, fp, quote_ident("value"), "featureProbsSource")
    has_cat = bool(plpy.execute(Sql(f"SELECT EXISTS (SELECT 1 FROM {fp.sql}) AS e"))[0]["e"])
    plan = scoring.choose_plan(
        plpy, fp_sql=fp.sql, value_type_oid=value.type_oid, has_cat=has_cat, num_attrs=n, k=k,
        source_elem_oid=attrs.elem_oid, collated=((fp, value), (src, attrs)),
        np_sql=None if numeric_stats is None else numeric_stats.sql, fp_oid=fp.oid,
    )
    body = scoring.view_sql(
        plan, kind=kind, prefix=[], cp=cp.sql, fp=fp.sql, numeric_stats=None if numeric_stats is None else numeric_stats.sql,
        source=src.sql, key=key.sql, attrs=attrs.sql,
    )
    plpy.execute(Sql(f"CREATE VIEW {out.sql} AS {body}"))
    output = "classification" if kind == "classify" else "class probabilities"
    plpy.execute(
        Sql(f"COMMENT ON VIEW {out.sql} IS "
        + plpy.quote_literal(f"madnb naive Bayes {output} of {src.display} by the model in {cp.display}, {fp.display}"
                             + (f", {numeric_stats.display}" if numeric_stats is not None else "")))
    )


def _classify_source(plpy: Plpy, source: str | None, key_column: str | None, attr_column: str | None, numeric: bool) -> tuple[Relation, Any, Any]:
    src = resolve_relation(plpy, source, "classifySource")
    key = resolve_column(plpy, src, key_column, "classifyKeyColumn")
    attrs = resolve_column(plpy, src, attr_column, "classifyAttrColumn", compared=True)
    arrays.check_attr_column(attrs, [1] if numeric else [], "classifyAttrColumn")
    return src, key, attrs


@entry_point
def create_adhoc_view(
    plpy: Plpy,
    kind: str,
    training_source: str | None,
    training_class_column: str | None,
    training_attr_column: str | None,
    numeric_indices: str | None,
    use_numeric: bool,
    classify_source: str | None,
    key_column: str | None,
    attr_column: str | None,
    num_attrs: int | None,
    dest: str | None,
) -> None:
    """A classify or probs view that trains from the training table on every query."""
    training = arrays.training(plpy, training_source, training_class_column, training_attr_column, numeric_indices, num_attrs, use_numeric)
    src, key, attrs = _classify_source(plpy, classify_source, key_column, attr_column, bool(training.numeric))
    out = resolve_new_name(plpy, dest, "destName")
    # Validate the training data now, as training would, and choose the view's lookup
    # layout from the model it gives today: one pass into a temporary relation.
    s = array_pass.materialise(plpy, training)
    info = array_pass.check_stats(plpy, s, training)
    k = info["classes"]
    plan = scoring.choose_plan(
        plpy, fp_sql="fp", value_type_oid=training.attrs.elem_oid, has_cat=not training.numeric_only, num_attrs=training.num_attrs, k=k,
        source_elem_oid=attrs.elem_oid, collated=((training.source, training.attrs), (src, attrs)),
        numeric_attrs=list(training.numeric), check_numeric=False, prefix=with_clause(model_tables.model_ctes(s, training)),
    )
    plpy.execute(Sql(f"DROP TABLE {s}"))
    # the view itself trains on every query: with numeric attributes by subscript, and by the unnest pass (which
    # accepts any array shape) only when the arrays are not all of numAttrs elements (decided on the first pass's
    # rows, so that one of the two passes runs).  The unnest pass reads the rows through LIMIT NULL (all of them)
    # or LIMIT 0 (none, and nothing scanned), twice: the planner costs a LIMIT it cannot evaluate at a tenth of its
    # rows, so the two at a hundredth, where a one-time filter's pass is costed whole although it does not run: that
    # cost alone turned JIT on for every query of num200k's probs view, a tenth of it still for mixed200k's views
    # (bench/results/adhoc.md)
    stats = [("stats", array_pass.stats_select(training, by_subscript=False))]
    if training.numeric:
        exact = array_pass.EXACT_AS_UNNESTED.format(stats="stats_fast", n=int(training.num_attrs))
        gate = f"LIMIT CASE WHEN (SELECT {exact}) THEN 0 END"
        unless_exact = (f"(SELECT t.{training.cls.sql}, t.{training.attrs.sql} FROM (SELECT t.{training.cls.sql}, t.{training.attrs.sql} "
                        f"FROM {training.source.sql} AS t {gate}) AS t {gate})")
        stats = [
            ("stats_fast", array_pass.stats_select(training, by_subscript=True, nan_missing=True, mark_short=True)),
            ("stats", Sql(f"SELECT f.* FROM stats_fast AS f WHERE (SELECT {exact}) UNION ALL "
                          f"SELECT u.* FROM ({array_pass.stats_select(training, by_subscript=False, rows=unless_exact)}) AS u")),
        ]
    prefix = stats + model_tables.model_ctes("stats", training)
    body = scoring.view_sql(
        plan, kind=kind, prefix=prefix, cp="cp", fp="fp", numeric_stats="np" if training.numeric else None,
        source=src.sql, key=key.sql, attrs=attrs.sql,
    )
    plpy.execute(Sql(f"CREATE VIEW {out.sql} AS {body}"))
    output = "classification" if kind == "classify" else "class probabilities"
    plpy.execute(
        Sql(f"COMMENT ON VIEW {out.sql} IS "
        + plpy.quote_literal(f"madnb naive Bayes {output} of {src.display}, trained ad hoc from {training.source.display} on every query"))
    )


@entry_point
def update_nb_model(
    plpy: Plpy,
    statistics: str | None,
    feature_probs: str | None,
    numeric_stats: str | None,
    class_priors: str | None,
) -> None:
    """Add a statistics table (new rows of an owner, or a new owner) to an existing model, in place.

    The model's tables keep their identity, so views over them read the updated
    model; see :mod:`madnb_pl.derive.update`.
    """
    update.update_model(plpy, statistics, feature_probs, numeric_stats, class_priors)


@entry_point
def create_nb_federated_tables(
    plpy: Plpy,
    servers: list[str | None] | None,
    remote_statistics: str | None,
    feature_probs_dest: str | None,
    numeric_stats_dest: str | None,
    class_priors_dest: str | None,
    smoothing: float | None = 1.0,
) -> None:
    """Federated training: pull the statistics table ``remote_statistics`` from every foreign server, merge, derive.

    Every server's header is read and checked (compatibility, a part listed
    twice) before any cell crosses the network; then the parts are pulled from
    all servers concurrently (:mod:`madnb_pl.merge.federation`) and merged as
    :func:`create_nb_model_from_statistics` merges local parts, the model
    keeping their sum.  Merging is post-processing: nothing is charged or
    ledgered here.
    """
    smoothing_factor = arrays.parse_smoothing(smoothing)
    names = federation.server_names(plpy, servers)
    with federation.connect(plpy, names, remote_statistics) as fed:
        model = _statistics_model_tables(plpy, fed.parts[0][1], feature_probs_dest, numeric_stats_dest, class_priors_dest)
        part_sums.check_compatible(list(fed.parts))  # before any cell crosses the network
        parts = fed.pull()
    model_tables.merge_and_derive(
        plpy, list(parts), model, smoothing_factor, subject="remote statistics", keep=statistics_table.kept_name(plpy, model.feature_probs),
    )
    for part, _ in parts:
        plpy.execute(Sql(f"DROP TABLE {part.sql}"))


# ---------------------------------------------------------------------------
# Secure aggregation (merge.secure): owner, aggregation server, analyst
# ---------------------------------------------------------------------------

_SHARES_DOMAIN_HINT = (
    "pass domain => 'a table with columns (attr integer, value text)' listing the class labels (attr 0) and the "
    "values of each categorical attribute (attr i): every owner shares every cell of the same public domain"
)


@entry_point
def create_nb_statistics_shares(
    plpy: Plpy,
    training_source: str | None,
    training_class_column: str | None,
    training_attr_column: str | None,
    numeric_indices: str | None,
    num_attrs: int | None,
    share_dests: list[str | None] | None,
    use_numeric: bool,
    epsilon: float | None = None,
    bounds: Any = None,
    domain: str | None = None,
    delta: float | None = None,
    owners: int | None = None,
    noise: str | None = share_table.NOISE_EACH,
) -> None:
    """An owner's statistics as additive shares, one new table per aggregation server (:mod:`madnb_pl.merge.secure`).

    Everything is checked before anything is written: the training, the share
    tables' names (at least two), the bounds of every numeric attribute, the
    public domain table, ``owners`` (no sum of that many owners may wrap) and
    ``noise``.  With ``epsilon`` the release is charged to the source's budget and
    ledger (the aggregation servers add the noise as ``noise`` says: 'each' server
    one central release's, or one central release's 'once' in all, split between
    servers 1 and 2; see :func:`madnb_pl.merge.secure.write_share_sum`).
    """
    training = arrays.training(plpy, training_source, training_class_column, training_attr_column, numeric_indices, num_attrs, use_numeric)
    if delta is not None:
        raise MadnbError(
            "22023", "delta is not used by shares", detail="delta belongs to domain => 'private'; shares need a public domain table",
            hint=_SHARES_DOMAIN_HINT,
        )
    share_table.check_owners(owners)
    mode = share_table.parse_noise_mode(noise, private=epsilon is not None)
    if share_dests is None:
        raise MadnbError("22004", "shareDestNames must not be NULL", hint="name one share table per aggregation server")
    if len(share_dests) < 2:
        raise MadnbError(
            "22023", f"shareDestNames names {len(share_dests)} table(s): secure aggregation needs at least two",
            detail="one share alone is the statistics", hint="name one share table per aggregation server, e.g. ARRAY['share_1', 'share_2']",
        )
    dests = [resolve_new_name(plpy, d, f"shareDestNames[{i}]") for i, d in enumerate(share_dests, start=1)]
    distinct_outputs(*dests)
    parsed = privacy_parameters.parse_bounds(bounds, list(training.numeric_given))
    nb = privacy_parameters.NumericBounds(parsed.bounds, share_table.SHARE_FIXED_POINT_BITS)
    refuse_nondeterministic_collation(plpy, training.source, training.cls, "class column")
    if domain is None or domain.strip().lower() in (privacy_parameters.OBSERVED, privacy_parameters.PRIVATE):
        raise MadnbError(
            "22023", "shares need a public domain table" if domain is None else f"shares need a public domain table, not domain => {domain!r}",
            detail="the cells of every share table are the cells of the public domain, zeros included, so that they say nothing about the data",
            hint=_SHARES_DOMAIN_HINT,
        )
    privacy = None
    if epsilon is not None:  # a private release's parameters and its 20-bit encoding (the noise dwarfs finer steps)
        privacy = privacy_parameters.privacy_spec(plpy, training, epsilon, bounds, domain, list(training.numeric_given))
        nb = privacy.bounds
    dom = privacy_parameters.resolve_domain_table(plpy, domain)
    arrays.refuse_private(plpy, training)
    secure.write_shares(plpy, training, nb, dom, dests, owners, privacy, mode)


@entry_point
def create_nb_share_sum(plpy: Plpy, share_sources: list[str | None] | None, share_sum_dest: str | None) -> None:
    """An aggregation server's sum of one share index of every owner, into a new share-sum table."""
    dest = resolve_new_name(plpy, share_sum_dest, "shareSumDestName")
    secure.write_share_sum(plpy, share_sources, dest)


@entry_point
def create_nb_model_from_shares(
    plpy: Plpy,
    share_sum_sources: list[str | None] | None,
    feature_probs_dest: str | None,
    numeric_stats_dest: str | None,
    class_priors_dest: str | None,
    smoothing: float | None = 1.0,
) -> None:
    """The analyst's model: every aggregation server's share sum added up, decoded and derived.

    The decoded statistics go through the derive stage as any statistics do
    (:func:`madnb_pl.derive.model_tables.merge_and_derive`), and the model keeps
    them in schema madnb_statistics as ``create_nb_model_from_statistics`` keeps its sum.
    """
    smoothing_factor = arrays.parse_smoothing(smoothing)
    parts = secure.gather_share_sums(plpy, share_sum_sources)
    model = _statistics_model_tables(plpy, parts[0][1].statistics, feature_probs_dest, numeric_stats_dest, class_priors_dest)
    decoded, header = secure.reconstruct(plpy, parts)
    model_tables.merge_and_derive(
        plpy, [(decoded, header)], model, smoothing_factor, subject="reconstructed statistics",
        keep=statistics_table.kept_name(plpy, model.feature_probs),
    )
    plpy.execute(Sql(f"DROP TABLE {decoded.sql}"))

"""Online updates: add a new part to an existing model, in place (the paper's Algorithm 3).

Every model madnb writes keeps the sum of the statistics it was derived from,
in a statistics table of schema madnb_statistics named at the end of each model
table's comment (:data:`madnb_pl.derive.model_tables.STATISTICS_RECORD`, with the table's
id); that table's header lists the id of every released part in the sum
(:attr:`madnb_pl.release.statistics_table.Header.part_ids`).  An update is then merge +
derive on two parts, the kept sum and the new one:

    check   the model's record, the part's header: new to the model, compatible, cells a
            release can hold (22023, :func:`madnb_pl.merge.part_sums.check_parts`)
    merge   kept := kept + part (:func:`madnb_pl.merge.part_sums.replace_sum`): Chan et al. for
            exact cells, raw noisy sums for private ones, a new header listing the part
    derive  the model tables' rows replaced from the new sum
            (:func:`madnb_pl.derive.model_tables.derive_from_sum`), with the model's own smoothing

so its cost is that of the part and of the model's cells, whatever the number
of earlier updates, and k updates give the model of one training on the union.
The model tables are the same tables afterwards (same OIDs, rows replaced in
the caller's transaction), so views created before the update read the new
model; a view whose model gained a class raises 55000 until it is created
again (its number of classes is fixed when it is created).

Private parts: adding one is post-processing (nothing is charged; each part
was charged to its owner's ledger when it was released).  The sum keeps the raw
noisy integers; clamps and floors run only when deriving.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace

from ..core.errors import MadnbError
from ..core.names import MODELS_SCHEMA, NewName, Relation, parse_name, resolve_relation
from ..core.sql import Plpy, Sql, quote_ident, temp_name
from ..merge import part_sources, part_sums
from ..release.statistics_table import KEPT_SCHEMA, Header, now, write_header
from . import model_tables

RETRAIN_HINT = (
    "train the model again with madnb.create_nb_prepared_data_tables, or derive it with "
    "madnb.create_nb_model_from_statistics: madnb models keep the statistics an update adds to"
)


def update_model(
    plpy: Plpy,
    statistics: str | None,
    feature_probs: str | None,
    numeric_stats: str | None,
    class_priors: str | None,
) -> None:
    """Add the statistics table ``statistics`` to the model (its three tables), in place."""
    part_rel = resolve_relation(plpy, statistics, "statistics")
    part = part_sources.read_header(plpy, part_rel, "statistics")
    fp = resolve_relation(plpy, feature_probs, "featureProbsDestName")
    cp = resolve_relation(plpy, class_priors, "classPriorsDestName")
    numeric_table = None if numeric_stats is None else resolve_relation(plpy, numeric_stats, "numericFeatureStatsDestName")
    tables = [fp, cp] + ([numeric_table] if numeric_table is not None else [])
    _refuse_named_model(tables)
    if len({r.oid for r in tables}) < len(tables):
        raise MadnbError(
            "22023", "the model's tables must be distinct tables",
            hint="name the featureProbs, numericFeatureStats and classPriors tables of one model",
        )
    # One update of a model at a time (views may read it meanwhile): a concurrent
    # update waits here and then adds its part to the sum this one leaves.
    plpy.execute(Sql(f"LOCK TABLE {', '.join(r.sql for r in tables)} IN SHARE ROW EXCLUSIVE MODE"))
    kept = model_statistics(plpy, fp, cp, numeric_table)
    plpy.execute(Sql(f"LOCK TABLE {kept.sql} IN SHARE ROW EXCLUSIVE MODE"))
    model_header = part_sources.read_header(plpy, kept, "kept statistics")
    _check_recorded_id(plpy, fp, kept, model_header)
    _check_numeric_table(model_header, numeric_table)
    _check_new(part_rel, part, fp, model_header)
    part_sums.refuse_difference(
        part, model_header, f"statistics {part_rel.display} are not compatible with the model {fp.display}", "the model's",
    )
    training = part_sums.statistics_shape(plpy, kept, model_header, "kept statistics")
    part_sums.statistics_shape(plpy, part_rel, part, "statistics")
    # the kept sum is a sum of parts checked when they were added (or of training's own release)
    part_sums.check_parts(plpy, [(part_rel, part)], "statistics {display}")
    smoothing = _smoothing(plpy, fp)
    classes = _classes(plpy, cp)
    header = part_sums.replace_sum(plpy, kept, [(kept, model_header), (part_rel, part)], training)
    model_tables.derive_from_sum(plpy, kept, header, training, model_tables.ModelSql.of((fp, cp, numeric_table)), smoothing, create=False)
    now = _classes(plpy, cp)
    if now != classes:
        plpy.notice(
            f"the model {fp.display} now has {now} classes (it had {classes})",
            detail=f"statistics {part_rel.display} hold rows of a class the model had not seen",
            hint="views created over the model before this update raise SQLSTATE 55000 until they are created again",
        )


def _refuse_named_model(tables: list[Relation]) -> None:
    """A named model's tables are not updated here (0A000): its numbers are also in its generated
    prediction functions and follow its kind (madnb.train), which an update of the tables would not."""
    for rel in tables:
        if rel.schema == MODELS_SCHEMA:
            raise MadnbError(
                "0A000", f"{rel.display} is a table of a named model, which madnb.update_nb_model does not update",
                detail="a named model's prediction functions and its kind's parameters are made by madnb.train",
                hint="add a table's rows to a named model with madnb.update(model, source) (docs/versions.md)",
            )


def _record(plpy: Plpy, rel: Relation) -> tuple[str, str] | None:
    """(quoted name, id) of the statistics a model table's comment says the model keeps, or None."""
    comment = plpy.execute(
        plpy.prepare(Sql("SELECT pg_catalog.obj_description($1, 'pg_class') AS c"), ["pg_catalog.oid"]), [rel.oid]
    )[0]["c"]
    found = model_tables.STATISTICS_RECORD.search(comment or "")
    return (found.group(1), found.group(2)) if found else None


def model_statistics(plpy: Plpy, fp: Relation, cp: Relation, numeric_stats: Relation | None) -> Relation:
    """The statistics table the model keeps (in schema madnb_statistics), as its tables' comments record it.

    22023 for tables madnb did not write (MADlib's) or that are not one model's;
    55000 when the statistics are gone.
    """
    record = _record(plpy, fp)
    if record is None or parse_name(record[0], "kept statistics")[0] != KEPT_SCHEMA:
        raise MadnbError(
            "22023",
            f"featureProbsDestName {fp.display} is not a model madnb can update",
            detail="its comment names no statistics the model keeps: it was made by MADlib, by an older madnb, "
            "or its comment was changed",
            hint=RETRAIN_HINT,
        )
    for argument, rel in (("classPriorsDestName", cp), ("numericFeatureStatsDestName", numeric_stats)):
        if rel is not None and _record(plpy, rel) != record:
            raise MadnbError(
                "22023",
                f"{argument} {rel.display} is not a table of the model {fp.display}",
                detail=f"the comment of {fp.display} names statistics {record[0]} (id {record[1]}); "
                f"the comment of {rel.display} does not",
                hint="name the three tables of one model, as they were created together",
            )
    schema, name = parse_name(record[0], "kept statistics")
    oid = plpy.execute(
        plpy.prepare(Sql("SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o"), ["pg_catalog.text"]),
        [f"{quote_ident(schema)}.{quote_ident(name)}"],
    )[0]["o"]
    if oid is None:
        raise MadnbError(
            "55000",
            f"the statistics the model {fp.display} keeps are gone",
            detail=f"its comment names statistics table {record[0]}, which does not exist",
            hint=RETRAIN_HINT,
        )
    kept = Relation(schema, name, int(oid))
    _check_same_owner(plpy, kept, fp, cp, numeric_stats)
    return kept


def _check_same_owner(plpy: Plpy, kept: Relation, fp: Relation, cp: Relation, numeric_stats: Relation | None) -> None:
    """The kept statistics and the model tables must belong to one role (42501 otherwise).

    The link between a model and its kept statistics is a comment, which the
    model's owner can edit: without this check, pointing a model at another
    role's statistics would make an update (run by a role that may write both,
    e.g. a superuser's job) rewrite that role's statistics and copy its data
    into the model.  Training creates them all as one role.
    """
    rels = [kept, fp, cp] + ([numeric_stats] if numeric_stats is not None else [])
    rows = plpy.execute(
        plpy.prepare(
            Sql("SELECT c.oid::pg_catalog.int8 AS oid, c.relowner::pg_catalog.regrole::pg_catalog.text AS owner "
            "FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) ANY ($1)"),
            ["pg_catalog.oid[]"],
        ),
        [[r.oid for r in rels]],
    )
    owners = {int(r["oid"]): str(r["owner"]) for r in rows}
    for rel in rels[1:]:
        if owners.get(rel.oid) != owners.get(kept.oid):
            raise MadnbError(
                "42501",
                f"the model table {rel.display} and the statistics its comment names belong to different roles",
                detail=f"{rel.display} belongs to {owners.get(rel.oid)}, {kept.display} to {owners.get(kept.oid)}; "
                "training creates a model's tables and its kept statistics as one role",
                hint=RETRAIN_HINT,
            )


def _check_recorded_id(plpy: Plpy, fp: Relation, kept: Relation, h: Header) -> None:
    """The kept statistics must be the ones the model was derived from (55000 otherwise)."""
    record = _record(plpy, fp)
    assert record is not None
    if h.id != record[1]:
        raise MadnbError(
            "55000",
            f"the statistics the model {fp.display} keeps have changed since the model was derived from them",
            detail=f"the model records statistics id {record[1]}; {kept.display} now holds id {h.id} "
            "(another model naming the same statistics, e.g. a copy of this one, was updated)",
            hint=RETRAIN_HINT,
        )


def _check_numeric_table(h: Header, numeric_stats: Relation | None) -> None:
    if h.numeric and numeric_stats is None:
        raise MadnbError(
            "22004", "numericFeatureStatsDestName must not be NULL: the model has numeric attributes",
            hint="name the model's table of Gaussian parameters",
        )
    if not h.numeric and numeric_stats is not None:
        raise MadnbError(
            "22023", "numericFeatureStatsDestName is given but the model has no numeric attributes",
            hint="pass NULL as numericFeatureStatsDestName",
        )


def _check_new(rel: Relation, part: Header, fp: Relation, model: Header) -> None:
    """Each released part is added to a model once (22023 naming it)."""
    dup_id = next((p for p in part.part_ids if p in set(model.part_ids)), None)
    dup_release = next((r for r in part.ledger_releases if r in set(model.ledger_releases)), None)
    if dup_id is None and dup_release is None:
        return
    same = f"release {dup_release} of madnb.privacy_ledger" if dup_release is not None else f"statistics id {dup_id}"
    raise MadnbError(
        "22023",
        f"statistics {rel.display} are already in the model {fp.display}",
        detail=f"the model already holds {same}",
        hint="add each part once: release new rows into a new statistics table and add that",
    )


def _smoothing(plpy: Plpy, fp: Relation) -> float:
    """The model's own smoothing factor, as its feature table records it (1 when it holds no rows)."""
    rows = plpy.execute(Sql(f"SELECT DISTINCT f.smoothing FROM {fp.sql} AS f WHERE f.smoothing IS NOT NULL LIMIT 2"))
    if len(rows) > 1:
        raise MadnbError(
            "22023",
            f"the feature table {fp.display} holds more than one smoothing factor",
            detail="an update derives the model with the model's own smoothing, recorded in column smoothing",
            hint=f"set one factor for the whole table (UPDATE {fp.display} SET smoothing = ...) and update again",
        )
    return float(rows[0]["smoothing"]) if rows else 1.0


def _classes(plpy: Plpy, cp: Relation) -> int:
    return int(plpy.execute(Sql(f"SELECT pg_catalog.count(*)::pg_catalog.int8 AS k FROM {cp.sql} AS c"))[0]["k"])


# ---------------------------------------------------------------------------
# Named models (madnb.update, madnb.forget): the kept sum plus or less a part, into a new statistics table
# ---------------------------------------------------------------------------

ADD, SUBTRACT = "update", "forget"

CELLS = "(cls, attr, value, n, nv, mean, var, mean_lo, s1, s2)"


def create_like(plpy: Plpy, like: Relation, dest: NewName) -> None:
    """A new, empty statistics table ``dest`` with the columns of ``like``; in schema madnb_statistics made for the
    calling role by ``madnb._create_kept_statistics`` (no role but madnb's owner may create there)."""
    template = temp_name("madnb_kept_")
    plpy.execute(Sql(f"CREATE TEMPORARY TABLE {template} (LIKE {like.sql})"))
    if dest.schema == KEPT_SCHEMA:
        plpy.execute(
            plpy.prepare(
                Sql("SELECT madnb._create_kept_statistics($1, $2::pg_catalog.regclass, CURRENT_USER)"),
                ["pg_catalog.text", "pg_catalog.text"],
            ),
            [dest.name, str(template)],
        )
    else:
        plpy.execute(Sql(f"CREATE TABLE {dest.sql} (LIKE {template})"))
    plpy.execute(Sql(f"DROP TABLE {template}"))


def copy_statistics(plpy: Plpy, source: Relation, header: Header, dest: NewName) -> None:
    """Statistics table ``source`` copied, cells and header, into a new table ``dest`` (a version, a rollback)."""
    create_like(plpy, source, dest)
    plpy.execute(Sql(f"INSERT INTO {dest.sql} {CELLS} SELECT s.cls, s.attr, s.value, s.n, s.nv, s.mean, s.var, s.mean_lo, s.s1, s.s2 "
                     f"FROM {source.sql} AS s"))
    write_header(plpy, dest.sql, header)


def write_changed_sum(
    plpy: Plpy, operation: str, kept: Relation, kept_header: Header, part: Relation, part_header: Header, dest: NewName,
) -> Header:
    """The kept sum of a named model plus (:data:`ADD`) or less (:data:`SUBTRACT`) the exact statistics ``part``, into
    a new statistics table ``dest``; return its header.  Costs the model's cells and the part's, never a pass over the
    rows the model was trained on.

    Add: the merge of every sum (:func:`madnb_pl.merge.part_sums.merged_select`, Chan et al. for Gaussian cells; the
    vector kinds' cells are counts, :func:`~madnb_pl.merge.part_sums.counts_sum_select`); the header lists the part.
    Subtract: :func:`madnb_pl.merge.part_sums.difference_select`, after :func:`check_forgettable`.
    """
    part_sums.refuse_difference(
        part_header, kept_header, "the statistics of the rows are not compatible with the model's", "the model's",
    )
    parts = [(kept, kept_header), (part, part_header)]
    if operation == SUBTRACT:
        select = part_sums.difference_select(kept, part, kept_header.numeric_sorted)
        header = replace(kept_header, id=str(uuid.uuid4()), created_at=now(plpy))
    elif kept_header.vector is not None:
        select = part_sums.counts_sum_select(parts)
        header = part_sums.sum_header(plpy, [kept_header, part_header])
    else:
        select = part_sums.merged_select(parts, part_sums.statistics_shape(plpy, kept, kept_header, "kept statistics"))
        header = part_sums.sum_header(plpy, [kept_header, part_header])
    create_like(plpy, kept, dest)
    plpy.execute(Sql(f"INSERT INTO {dest.sql} {CELLS} {select}"))
    write_header(plpy, dest.sql, header)
    plpy.execute(Sql(f"ANALYZE {dest.sql}"))
    return header


FORGET_HINT = (
    "forget only rows the model was trained on: madnb.forget checks that their statistics fit inside the model's, "
    "not that these very rows were trained on (see docs/versions.md)"
)


def check_forgettable(
    plpy: Plpy, model: str, kept: Relation, part: Relation, class_text: Callable[[str], Sql], attribute: Callable[[int], str],
) -> None:
    """Refuse (22023) rows to forget whose statistics do not fit inside the model's: a class, or a categorical value
    (a term, a feature of a vector) of a class, that the model never saw, or more rows (values, a larger sum) than it
    holds.  Nothing else can be told from the statistics: rows never trained on whose cells fit are not detected.

    ``class_text``: a class's text in SQL; ``attribute(j)``: how a message names attribute j.
    """
    tolerance = "1e-9::pg_catalog.numeric OPERATOR(pg_catalog.*) GREATEST(pg_catalog.abs(k.n), 1::pg_catalog.numeric)"
    rows = plpy.execute(
        Sql(f"SELECT {class_text('p.cls')} AS c, p.attr, p.value, p.n::pg_catalog.text AS pn, k.n::pg_catalog.text AS kn, "
        "p.nv, k.nv AS knv, k.attr IS NULL AS unknown "
        f"FROM {part.sql} AS p LEFT JOIN {kept.sql} AS k ON k.cls OPERATOR(pg_catalog.=) p.cls "
        "AND k.attr OPERATOR(pg_catalog.=) p.attr AND k.value IS NOT DISTINCT FROM p.value "
        f"WHERE k.attr IS NULL OR p.n OPERATOR(pg_catalog.>) (k.n OPERATOR(pg_catalog.+) ({tolerance})) "
        "OR p.nv OPERATOR(pg_catalog.>) k.nv ORDER BY p.attr, p.value LIMIT 1")
    )
    if not rows:
        return
    r = rows[0]
    cls, attr = r["c"], int(r["attr"])
    if attr == 0:
        what = (f"rows of class {cls}, which model \"{model}\" does not have" if r["unknown"]
                else f"{r['pn']} rows of class {cls}; model \"{model}\" holds {r['kn']}")
    elif r["unknown"]:
        what = f"value {r['value']!r} of {attribute(attr)} in class {cls}, which model \"{model}\" never saw"
    elif r["nv"] is not None:
        what = f"{r['nv']} values of {attribute(attr)} in class {cls}; model \"{model}\" holds {r['knv']}"
    else:
        shown = "" if r["value"] is None else f" value {r['value']!r}"
        what = f"{r['pn']} of {attribute(attr)}{shown} in class {cls}; model \"{model}\" holds {r['kn']}"
    raise MadnbError(
        "22023", "the rows to forget were not all trained on", detail=f"they hold {what}", hint=FORGET_HINT,
    )


__all__ = [
    "ADD", "SUBTRACT", "RETRAIN_HINT", "check_forgettable", "copy_statistics", "create_like", "model_statistics",
    "update_model", "write_changed_sum",
]

"""Federated evaluation: each owner releases the counts behind a model's metrics on its rows; the sum is the metrics.

An owner holds a named model (trained from the federation's statistics, or the
same model installed on its server) and labelled rows it does not share.
``madnb.release_evaluation`` scores its rows with the model in one pass and
stores, in a new table with a header (the table's comment, as statistics tables
have), not the metrics but the counts they are computed from
(:func:`madnb_pl.models.evaluate.counts_sql`, the counts madnb.evaluate itself
aggregates):

* 'cell' rows: per true class t (its position in the model's classes; NULL for a
  label that is not a class, u its text), predicted class h: the rows n and
  their log-loss sum;
* 'score' rows: per ranked class t (two classes: the second; more, with
  ``curves => true``: each) and distinct score: its positives n and negatives m.

``madnb.evaluate_from_releases`` adds the releases up (local tables, foreign
tables whose headers it reads on their servers, or ``server:table`` pulled over
dblink as ``create_nb_federated_tables`` pulls statistics) and computes the metrics from
the sum with :func:`madnb_pl.models.evaluate.from_counts_sql` and
:func:`madnb_pl.models.evaluate.read_metrics`, the functions madnb.evaluate
uses: the metrics of the federation are those of madnb.evaluate on the union of
the owners' rows (exact releases: counts equal, log-loss sums to floating point).

With ``epsilon`` the release is differentially private (add or remove one row of
the owner's source), charged to the source in the owner's ledger before any
noise is drawn (``madnb.record_private_release``), and the exact counts never
leave the one statement that adds the noise (``madnb._dp_laplace``, the exact
discrete Laplace sampler behind ``madnb.dp_laplace``).  Epsilon is split evenly over its parts:

* cells: every (t, h) of the public domain (t among the classes or NULL, h a
  class or NULL: no class predicted), one noisy count each; one row is in one
  cell: sensitivity 1;
* loss: the sum over the rows of round(loss * 2**LOSS_BITS), each row's term
  between 0 and :data:`LOSS_SENSITIVITY` (-ln eps: log-loss's clipping);
* scores (two classes, or more with ``curves``): per ranked class, the score's
  bin of ``score_bins`` equal bins of [0, 1], noisy positives and negatives; one
  row is in one bin per ranked class: sensitivity the number of ranked classes.

The aggregator clamps each summed count at 0 (after the sum, never before) and
reads a bin's scores as its midpoint (exact releases in the sum are binned
alike).  Labels that are not classes are not released privately (their rows
are, as cells of t NULL): balanced_accuracy then counts no class for them.
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.names import NewName, Relation, created, parse_name, resolve_column, resolve_new_name, resolve_relation
from ..core.progress import Progress
from ..core.sql import F8, Plpy, Sql, float8_literal, quote_ident, temp_name, type_is_builtin, without_jit
from ..inputs import privacy_parameters
from ..merge.federation import Link, RemoteTable, closing, dblink_schema, foreign_comment, remote_table, server_names
from ..merge.part_sources import split_source
from ..privacy.private_release import charge_epsilon
from ..release.statistics_table import comment_and_kind, now
from . import evaluate
from .catalog import CatalogModel, model_name, require
from .export import numbers_of

FORMAT = 1
COMMENT_PREFIX = "madnb evaluation "
EXACT = "exact"
PRIVATE = "private"
COLUMNS = (
    ("part", "text"), ("t", "integer"), ("h", "integer"), ("u", "text"), ("n", "bigint"), ("m", "bigint"),
    ("score", "double precision"), ("loss", "double precision"),
)
"""A release's columns and their types (format_type's spelling)."""
LOSS_BITS = 16
"""Fixed-point bits of a private release's log-loss sum: each row's loss is rounded to a multiple of 2**-LOSS_BITS."""
LOSS_SENSITIVITY = math.ceil(-math.log(evaluate.EPS) * 2**LOSS_BITS)
"""The most one row adds to a private release's fixed-point log-loss sum (its loss is at most -ln eps)."""
SCORE_BINS = 100
"""The default bins of [0, 1] for a private release's scores."""
SCORE_BINS_MAX = 100000
HINT = "evaluation releases are made by madnb.release_evaluation on the owner's server; their comment is their header"


def _ddl() -> str:
    return "(" + ", ".join(f"{quote_ident(c)} {t}" for c, t in COLUMNS) + ")"


def checksum_sql(rel: Sql) -> Sql:
    """md5 of a release's rows in one order (each value's text, floats exact): the header's ``checksum``."""
    cols = ", ".join(f"pg_catalog.quote_nullable(x.{quote_ident(c)})" for c, _ in COLUMNS)
    order = 'x.part COLLATE pg_catalog."C", x.t, x.h, x.u COLLATE pg_catalog."C", x.score, x.n, x.m, x.loss'
    return Sql(
        f"SELECT pg_catalog.md5(COALESCE(pg_catalog.string_agg(pg_catalog.concat_ws('|', {cols}), "
        f"E'\\n' ORDER BY {order}), '')) AS k FROM {rel} AS x"
    )


def model_fingerprint(plpy: Plpy, m: CatalogModel) -> str:
    """sha256 of the model's numbers (its kind, label, classes and every derived parameter), not of its name:
    the same model on two servers, whatever it is called there, has the same fingerprint."""
    numbers = {k: v for k, v in numbers_of(plpy, m).items() if k not in ("model", "schema")}
    return hashlib.sha256(json.dumps(numbers, sort_keys=True).encode()).hexdigest()


def ranked_classes(k: int, curves: bool) -> list[int]:
    """The positions of the classes whose scores a release holds: the positive class of two, each of more with curves."""
    return [2] if k == 2 else list(range(1, k + 1)) if curves and k > 2 else []


def bin_sql(score: str, bins: int) -> str:
    """The bin (0 .. bins - 1) of probability ``score`` among ``bins`` equal bins of [0, 1] (1 in the last; NaN too)."""
    return (f"CASE WHEN {score} OPERATOR(pg_catalog.<) 1::{F8} THEN GREATEST(pg_catalog.floor({score} OPERATOR(pg_catalog.*) "
            f"{bins}::{F8}), 0::{F8})::pg_catalog.int4 ELSE {bins - 1} END")


# ---------------------------------------------------------------------------
# The owner: madnb.release_evaluation
# ---------------------------------------------------------------------------


@entry_point
def release_evaluation(
    plpy: Plpy, model: str | None, source: str | None, output_table: str | None, label: str | None = None,
    curves: bool | None = False, epsilon: float | None = None, score_bins: int | None = None,
) -> str:
    """Release the counts behind model ``model``'s metrics on ``source`` into new table ``output_table``; return its header."""
    if curves is None:
        raise MadnbError("22004", "curves must not be NULL", hint="curves => true releases every class's scores (more than two classes)")
    name = model_name(model)
    m = require(plpy, name)
    rel = resolve_relation(plpy, source, "source")
    col = resolve_column(plpy, rel, quote_ident(m.label) if label is None else label, "label")
    dest = resolve_new_name(plpy, output_table, "output_table")
    k = len(m.classes)
    ranked = ranked_classes(k, bool(curves))
    private = epsilon is not None
    if not private and score_bins is not None:
        raise MadnbError("22023", "score_bins is used only for a private release", hint="give epsilon too, or leave score_bins out")
    bins = SCORE_BINS if score_bins is None else score_bins
    if private and not 2 <= bins <= SCORE_BINS_MAX:
        raise MadnbError("22023", f"score_bins must be between 2 and {SCORE_BINS_MAX}, got {bins}", hint=f"the default is {SCORE_BINS}")
    eps = privacy_parameters.parse_epsilon(epsilon) if private else None
    parts = 2 + (1 if ranked else 0)
    per_part = privacy_parameters.per_query_epsilon(eps, parts) if eps is not None else None
    if eps is not None and per_part is not None:
        privacy_parameters.check_epsilon_per_query(eps, per_part, parts)
    rows = evaluate.scored_rows_sql(
        name, rel.sql, col.name, m.label_type, k, type_is_builtin(plpy, m.label_type), type_is_builtin(plpy, col.type_sql),
        ties=evaluate.tie_rows(plpy, m, rel),
    )
    progress = Progress(plpy, f"release the evaluation of {name.key} on {rel.display}", 2)
    progress.phase("score and count every row (one pass)")
    plpy.execute(Sql(f"CREATE TABLE {dest.sql} {_ddl()}"))
    header: dict[str, Any] = {
        "format": FORMAT, "id": str(uuid.uuid4()), "mode": PRIVATE if private else EXACT, "model": name.key,
        "fingerprint": model_fingerprint(plpy, m), "classes": m.classes, "ranked": ranked, "source": rel.display,
        "label": col.name, "created_at": now(plpy),
    }
    if eps is None or per_part is None:
        result = evaluate.run_aggregate(plpy, evaluate.counts_sql(rows, k, bool(curves)), m.classes, ranked=bool(curves))
        _insert(plpy, dest.sql, result)
        labelled = sum(int(r["n"]) for r in result if r["part"] == "cell")
        if labelled == 0:
            raise MadnbError(
                "22000", f"no labelled rows to evaluate model {name.key} on",
                detail=f'every row of {rel.display} has a NULL "{col.name}" (or there are none)',
                hint="release the evaluation of a table or view with labelled rows",
            )
        header["rows"] = labelled
    else:
        text = privacy_parameters.epsilon_text(eps)
        sensitivity = {"cells": 1, "loss": LOSS_SENSITIVITY, **({"scores": len(ranked)} if ranked else {})}
        header.update({
            "epsilon": text, "epsilon_per_part": per_part, "score_bins": bins, "loss_bits": LOSS_BITS, "sensitivity": sensitivity,
            "guarantee": f"epsilon {text}-differentially private (add or remove one row of {rel.display}), given the model",
        })
        ledger = {
            "evaluation": name.key, "model_fingerprint": header["fingerprint"], "label": col.name, "release": dest.display,
            "parts": list(sensitivity), "epsilon_per_query": per_part, "sensitivity": sensitivity, "score_bins": bins,
            "loss_bits": LOSS_BITS, "neighbouring": "add or remove one row", "guarantee": header["guarantee"],
        }
        header["release_id"] = charge_epsilon(plpy, rel, text, ledger)  # before any noise is drawn
        released = temp_name("madnb_released_")
        query = _private_sql(rows, k, ranked, bins, per_part)
        with without_jit(plpy):
            plpy.execute(
                plpy.prepare(Sql(f"CREATE TEMPORARY TABLE {released} ON COMMIT DROP AS {query}"), evaluate.PARAMETER_TYPES),
                [m.classes, evaluate.EPS],
            )
        cols = ", ".join(quote_ident(c) for c, _ in COLUMNS)
        plpy.execute(Sql(f"INSERT INTO {dest.sql} ({cols}) SELECT {cols} FROM {released}"))
        plpy.execute(Sql(f"DROP TABLE {released}"))
    progress.phase("header")
    header["checksum"] = str(plpy.execute(checksum_sql(dest.sql))[0]["k"])
    text_header = json.dumps(header, sort_keys=True)
    plpy.execute(Sql(f"COMMENT ON TABLE {dest.sql} IS {plpy.quote_literal(COMMENT_PREFIX + text_header)}"))
    progress.done()
    return text_header


def _insert(plpy: Plpy, dest: Sql, result: Any) -> None:
    cols = [c for c, _ in COLUMNS]
    types = ["text[]", "int4[]", "int4[]", "text[]", "int8[]", "int8[]", "float8[]", "float8[]"]
    values = [[None if r[c] is None else (int(r[c]) if t in ("int4[]", "int8[]") else float(r[c]) if t == "float8[]" else str(r[c]))
               for r in result] for c, t in zip(cols, types, strict=True)]
    args = ", ".join(f"pg_catalog.unnest(${i}::pg_catalog.{t})" for i, t in enumerate(types, start=1))
    plpy.execute(plpy.prepare(
        Sql(f"INSERT INTO {dest} ({', '.join(quote_ident(c) for c in cols)}) SELECT * FROM ROWS FROM ({args})"),
        [f"pg_catalog.{t}" for t in types],
    ), values)


def _private_sql(rows: str, k: int, ranked: list[int], bins: int, per_part: float) -> str:
    """Every cell of the public domain with its noise, from the exact counts of :func:`evaluate.counts_sql`'s c and s,
    in one statement (the exact counts never leave it)."""
    counts, _ranks, scores = evaluate.counts_ctes_sql(rows, k, bool(ranked) and k > 2, fixed_loss=(LOSS_BITS, LOSS_SENSITIVITY))
    e = float8_literal(per_part)

    def noisy(x: str, sensitivity: int) -> str:
        return f"madnb._dp_laplace(COALESCE({x}, 0), {sensitivity}, {e})::pg_catalog.int8"

    nulls = f"NULL::pg_catalog.int8, NULL::{F8}, NULL::{F8}"
    # a class position, or NULL: a label that is not a class (t), a row the model predicts no class for (h)
    classes_or_null = f"SELECT pg_catalog.generate_series(1, {k}) UNION ALL SELECT NULL::pg_catalog.int4"
    out = f"""{counts}
SELECT 'cell'::pg_catalog.text AS part, d.t, d.h, NULL::pg_catalog.text AS u, {noisy("x.n", 1)} AS n, NULL::pg_catalog.int8 AS m,
       NULL::{F8} AS score, NULL::{F8} AS loss
FROM (SELECT t.t, h.h FROM ({classes_or_null}) AS t(t) CROSS JOIN ({classes_or_null}) AS h(h)) AS d
LEFT JOIN (SELECT c.t, c.h, pg_catalog.sum(c.n) AS n FROM c GROUP BY c.t, c.h) AS x
  ON COALESCE(x.t, 0) OPERATOR(pg_catalog.=) COALESCE(d.t, 0) AND COALESCE(x.h, 0) OPERATOR(pg_catalog.=) COALESCE(d.h, 0)
UNION ALL
SELECT 'loss', NULL, NULL, NULL,
       {noisy("(SELECT pg_catalog.sum(c.z) FROM c WHERE c.t IS NOT NULL)", LOSS_SENSITIVITY)}, {nulls}"""
    if ranked and scores is not None:
        classes = ", ".join(f"({j})" for j in ranked)
        out += f"""
UNION ALL
SELECT 'score', d.j, d.b, NULL, {noisy("x.pos", len(ranked))}, {noisy("x.neg", len(ranked))}, NULL, NULL
FROM (SELECT j.j, b.b FROM (VALUES {classes}) AS j(j) CROSS JOIN pg_catalog.generate_series(0, {bins - 1}) AS b(b)) AS d
LEFT JOIN (SELECT q.j, {bin_sql("q.score", bins)} AS b, pg_catalog.sum(q.pos) AS pos, pg_catalog.sum(q.neg) AS neg
           FROM {scores} AS q GROUP BY 1, 2) AS x
  ON x.j OPERATOR(pg_catalog.=) d.j AND x.b OPERATOR(pg_catalog.=) d.b"""
    return out


# ---------------------------------------------------------------------------
# The aggregator: madnb.evaluate_from_releases
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Release:
    """One listed release: where it is, how it is named in messages, its header."""

    rel: Relation  # here: the table, a foreign table, or the temporary table a server:table was pulled into
    subject: str  # sources[i] and its name
    header: dict[str, Any]
    name: str  # its name in the result: the table's, or "<remote table> on server <server>"

    @property
    def private(self) -> bool:
        return bool(self.header["mode"] == PRIVATE)


_FIELDS: dict[str, type | tuple[type, ...]] = {
    "format": int, "id": str, "mode": str, "model": str, "fingerprint": str, "classes": list, "ranked": list,
    "checksum": str, "source": str,
}
_PRIVATE_FIELDS: dict[str, type | tuple[type, ...]] = {"epsilon": str, "score_bins": int, "loss_bits": int, "release_id": int}


def _bad(subject: str, message: str, detail: str, hint: str = HINT) -> MadnbError:
    return MadnbError("22023", f"{subject} {message}", detail=detail, hint=hint)


def _not_release(subject: str, where: str, detail: str) -> MadnbError:
    return _bad(f"{subject} {where}", "is not a madnb evaluation release", detail)


def parse_release_header(comment: str | None, subject: str) -> dict[str, Any]:
    """The header of a release's comment, every field of the right type (22023 naming ``subject`` and the field)."""
    if not comment or not comment.startswith(COMMENT_PREFIX):
        raise _bad(subject, "is not a madnb evaluation release", "its comment holds no madnb evaluation header")
    try:
        h = json.loads(comment[len(COMMENT_PREFIX):])
    except ValueError as e:
        raise _bad(subject, "has an unreadable evaluation header", str(e)) from None
    if not isinstance(h, dict):
        raise _bad(subject, "has an unreadable evaluation header", "it is not a JSON object")
    fields = {**_FIELDS, **(_PRIVATE_FIELDS if h.get("mode") == PRIVATE else {})}
    for f, t in fields.items():
        if not isinstance(h.get(f), t) or isinstance(h.get(f), bool):
            raise _bad(subject, "has a tampered evaluation header", f'its field "{f}" is {json.dumps(h.get(f))}')
    if h["format"] != FORMAT:
        raise _bad(subject, f"has evaluation format {h['format']}, not {FORMAT}", "", "release the evaluation again with this madnb")
    if h["mode"] not in (EXACT, PRIVATE):
        raise _bad(subject, "has a tampered evaluation header", f"its mode is {h['mode']!r}")
    k = len(h["classes"])
    if k == 0 or not all(isinstance(c, str) for c in h["classes"]):
        raise _bad(subject, "has a tampered evaluation header", "its classes are not a list of texts")
    if h["ranked"] != ranked_classes(k, h["ranked"] != [] and k > 2):
        raise _bad(subject, "has a tampered evaluation header", f"its ranked classes are {h['ranked']}")
    if h["mode"] == PRIVATE and not 2 <= h["score_bins"] <= SCORE_BINS_MAX:
        raise _bad(subject, "has a tampered evaluation header", f"its score_bins is {h['score_bins']}")
    return h


def _read(plpy: Plpy, text: str | None, i: int) -> Release:
    rel = resolve_relation(plpy, text, f"sources[{i}]")
    subject = f"sources[{i}] ({rel.display})"
    comment, kind = comment_and_kind(plpy, rel)
    name = rel.display
    if kind == "f":
        comment, _server, name = foreign_comment(plpy, rel, f"sources[{i}]", [c for c, _ in COLUMNS], _not_release)
        subject = f"sources[{i}] ({name})"
    types = {
        str(r["name"]): str(r["typ"]) for r in plpy.execute(plpy.prepare(Sql(
            "SELECT a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ "
            "FROM pg_catalog.pg_attribute AS a WHERE a.attrelid OPERATOR(pg_catalog.=) $1 "
            "AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped"), ["pg_catalog.oid"]), [rel.oid])
    }
    for c, t in COLUMNS:
        if types.get(c) != t:
            raise _bad(subject, "is not a madnb evaluation release",
                       f'its column "{c}" is {types[c]}, not {t}' if c in types else f'it has no column "{c}"')
    return Release(rel, subject, parse_release_header(comment, subject), name)


def _check(plpy: Plpy, releases: list[Release], model: str | None, curves: bool) -> dict[str, Any]:
    """Every release of one model, once, with what ``curves`` needs (headers only); return the model's facts (``model``'s,
    or the first release's)."""
    if model is not None:
        m = require(plpy, model_name(model))
        mine = {"model": m.name.key, "fingerprint": model_fingerprint(plpy, m), "classes": m.classes}
    else:
        mine = releases[0].header
    seen: dict[str, str] = {}
    for r in releases:
        h = r.header
        if h["id"] in seen:
            raise _bad(r.subject, "is listed twice", f"it is the same release ({h['id']}) as {seen[h['id']]}",
                       "list each owner's release once: the federation's metrics add them up")
        seen[h["id"]] = r.subject
        if h["fingerprint"] != mine["fingerprint"] or h["classes"] != mine["classes"]:
            whose = f"model {model_name(model).key} here" if model is not None else f"{releases[0].subject}'s"
            raise _bad(r.subject, f"is an evaluation of another model than {whose}",
                       f"it evaluates model {h['model']} (fingerprint {h['fingerprint'][:16]}, classes {h['classes']}); "
                       f"{mine['model']} has fingerprint {mine['fingerprint'][:16]}, classes {mine['classes']}",
                       "every owner evaluates the same model: trained from the same statistics (madnb.train_from_statistics) "
                       "or installed from the same export")
        if curves and len(h["classes"]) > 2 and not h["ranked"]:
            raise _bad(r.subject, "holds no scores of each class", "curves of more than two classes need every class's scores",
                       "release the evaluation with curves => true")
        if r.private and any(x.private and x.header["score_bins"] != h["score_bins"] for x in releases):
            raise _bad(r.subject, f"has {h['score_bins']} score bins, another private release has a different number",
                       "private releases' scores add up bin by bin", "release them with the same score_bins")
    return mine


def _of(rows: Sql, i: int) -> Sql:
    """The rows of the ``i``-th release (0-based) among ``rows``, the temporary table every release is read into once."""
    cols = ", ".join(f"x.{quote_ident(c)}" for c, _ in COLUMNS)
    return Sql(f"(SELECT {cols} FROM {rows} AS x WHERE x.src OPERATOR(pg_catalog.=) {int(i)})")


def _check_checksums(plpy: Plpy, rows: Sql, releases: list[Release]) -> None:
    """Each release's rows are the ones its header's checksum was computed from (22023 naming the first that is not)."""
    for i, r in enumerate(releases):
        got = str(plpy.execute(checksum_sql(_of(rows, i)))[0]["k"])
        if got != r.header["checksum"]:
            raise _bad(r.subject, "does not match its header", "its rows' checksum is not the header's: the table or its header was altered",
                       "a release is not to be altered: release the evaluation again")


@entry_point
def evaluate_from_releases(plpy: Plpy, sources: list[str | None] | None, model: str | None = None, curves: bool | None = False) -> str:
    """madnb.evaluate's metrics of the sum of evaluation releases ``sources`` (jsonb text; see the module docstring)."""
    if curves is None:
        raise MadnbError("22004", "curves must not be NULL", hint="curves => true adds the ROC, precision-recall and calibration curves")
    if sources is None:
        raise MadnbError("22004", "sources must not be NULL", hint="pass an array of evaluation releases, e.g. ARRAY['owner1.eval', 'owner2.eval']")
    if len(sources) == 0:
        raise MadnbError("22023", "sources is empty", hint="pass at least one evaluation release")
    with _gathered(plpy, sources, lambda rs: _check(plpy, rs, model, bool(curves))) as (releases, mine):
        return _evaluate(plpy, releases, mine, bool(curves))


@contextmanager
def _gathered(
    plpy: Plpy, sources: list[str | None], check: Callable[[list[Release]], dict[str, Any]],
) -> Iterator[tuple[list[Release], dict[str, Any]]]:
    """The releases of ``sources`` -- tables here, postgres_fdw foreign tables, or ``server:table`` over dblink
    (:func:`madnb_pl.merge.part_sources.split_source`) -- every header read and ``check``-ed before any row of a
    ``server:table`` crosses the network; those are then pulled into temporary tables (ON COMMIT DROP)."""
    here: dict[int, Release] = {}
    remote: list[tuple[int, str, str]] = []
    for i, text in enumerate(sources, start=1):
        server, name = split_source(text, f"sources[{i}]")
        if server is None:
            here[i] = _read(plpy, name, i)
        else:
            server_names(plpy, [quote_ident(server)])
            remote.append((i, server, ".".join(quote_ident(p) for p in parse_name(name, f"sources[{i}]"))))
    if not remote:
        releases = [here[i] for i in sorted(here)]
        yield releases, check(releases)
        return
    dblink = dblink_schema(plpy)
    with closing([]) as links:
        pulled: dict[int, tuple[Link, RemoteTable, Release]] = {}
        for i, server, qualified in remote:
            link = Link(plpy, dblink, server, f"sources[{i}]")
            links.append(link)
            link.connect()
            table = remote_table(link, qualified, "the evaluation release")
            label = f"{table.display} on server {server}"
            subject = f"sources[{i}] ({label})"
            for c, t in COLUMNS:
                there = table.columns.get(c)
                if there is None or there.formatted != t:
                    raise _bad(subject, "is not a madnb evaluation release",
                               f'its column "{c}" is {there.formatted}, not {t}' if there is not None else f'it has no column "{c}"')
            header = parse_release_header(table.comment, subject)
            name = "madnb_release_" + secrets.token_hex(6)
            plpy.execute(Sql(f"CREATE TEMPORARY TABLE {quote_ident(name)} {_ddl()} ON COMMIT DROP"))
            rel = created(plpy, NewName("pg_temp", name))
            pulled[i] = (link, table, Release(rel, subject, header, label))
        releases = [here[i] if i in here else pulled[i][2] for i in range(1, len(sources) + 1)]
        mine = check(releases)
        for link, table, _ in pulled.values():
            link.send(Sql(f"SELECT {', '.join('s.' + quote_ident(c) for c, _ in COLUMNS)} FROM {table.sql} AS s"), "send the evaluation release")
        for link, _, r in pulled.values():
            link.collect(r.rel.sql, Sql(", ".join(f"{quote_ident(c)} {t}" for c, t in COLUMNS)), "send the evaluation release")
    yield releases, mine
    for _, _, r in pulled.values():
        plpy.execute(Sql(f"DROP TABLE {r.rel.sql}"))


def _evaluate(plpy: Plpy, releases: list[Release], mine: dict[str, Any], curves: bool) -> str:
    """The metrics of the sum of the checked ``releases`` (their rows here)."""
    classes: list[str] = list(mine["classes"])
    k = len(classes)
    private = any(r.private for r in releases)
    bins = next((int(r.header["score_bins"]) for r in releases if r.private), 0)
    rows = temp_name("madnb_releases_")  # every release's rows, read once (a foreign table's cross the network once)
    plpy.execute(Sql(f"CREATE TEMPORARY TABLE {rows} (src pg_catalog.int4, {_ddl()[1:]} ON COMMIT DROP"))
    cols = ", ".join(quote_ident(c) for c, _ in COLUMNS)
    for i, r in enumerate(releases):
        plpy.execute(Sql(f"INSERT INTO {rows} (src, {cols}) SELECT {i}, {cols} FROM {r.rel.sql}"))
    _check_checksums(plpy, rows, releases)
    _check_rows(plpy, rows, releases, k)
    # the counts summed, each clamped at 0 after the sum (private releases' are noisy); a private release's scores
    # are bins (h), read at their midpoints, and exact ones are binned alike; a private release's log-loss sum
    # (fixed point) joins the (1, 1) cell: the log-loss reads only the sum over the known cells
    loss = (f"UNION ALL SELECT 1, 1, 1, NULL, 0, GREATEST(pg_catalog.sum(x.n), 0)::{F8} OPERATOR(pg_catalog./) "
            f"{float(2**LOSS_BITS)!r}::{F8} FROM {rows} AS x WHERE x.part OPERATOR(pg_catalog.=) 'loss'") if private else ""
    score = f"(({bin_sql('x.score', bins)})::{F8} OPERATOR(pg_catalog.+) 0.5::{F8}) OPERATOR(pg_catalog./) {bins}::{F8}" if private else "x.score"
    private_score = f"(x.h::{F8} OPERATOR(pg_catalog.+) 0.5::{F8}) OPERATOR(pg_catalog./) {bins}::{F8}"
    query = f"""WITH c AS MATERIALIZED (
  SELECT 1 AS g, x.t, x.h, x.u, GREATEST(pg_catalog.sum(x.n), 0) AS n, pg_catalog.sum(x.loss) AS loss
  FROM {rows} AS x WHERE x.part OPERATOR(pg_catalog.=) 'cell' GROUP BY x.t, x.h, x.u
  {loss}),
s AS MATERIALIZED (
  SELECT 1 AS g, y.j, y.score, y.pos, y.neg
  FROM (SELECT x.t AS j, x.score, GREATEST(pg_catalog.sum(x.pos), 0) AS pos, GREATEST(pg_catalog.sum(x.neg), 0) AS neg
        FROM (SELECT x.t, CASE WHEN x.h IS NOT NULL THEN {private_score} ELSE {score} END AS score, x.n AS pos, x.m AS neg
              FROM {rows} AS x WHERE x.part OPERATOR(pg_catalog.=) 'score') AS x
        GROUP BY x.t, x.score) AS y
  WHERE y.pos OPERATOR(pg_catalog.+) y.neg OPERATOR(pg_catalog.>) 0)
{evaluate.from_counts_sql(evaluate.ranks_sql(k, curves))}"""
    result = plpy.execute(Sql(query))
    plpy.execute(Sql(f"DROP TABLE {rows}"))
    if not sum(int(r["a"]) for r in result if r["what"] == "cell" and r["t"] is not None):
        raise MadnbError(
            "22000", "no labelled rows of the model's classes in the releases",
            detail=f"the {len(releases)} releases' counts of rows whose label is a class add up to none" + (" (after the noise)" if private else ""),
            hint="each owner releases the evaluation of a table with labelled rows",
        )
    out = evaluate.read_metrics(classes, result)[1]
    out["federation"] = {
        "model": mine["model"], "fingerprint": mine["fingerprint"], "mode": PRIVATE if private else EXACT,
        "releases": [
            {"source": r.name, "id": r.header["id"], "mode": r.header["mode"], "owner_source": r.header["source"],
             **({"epsilon": r.header["epsilon"], "release_id": r.header["release_id"]} if r.private else {"rows": r.header.get("rows")})}
            for r in releases
        ],
        **({"score_bins": bins, "approximate": APPROXIMATE} if private else {}),
    }
    return json.dumps(out)


APPROXIMATE = (
    "noisy counts, each summed count clamped at 0: every metric is an estimate; log_loss is a noisy fixed-point sum over "
    "a noisy count; roc_auc and the curves are those of the binned scores (a bin's scores tie, read at its midpoint); "
    "balanced_accuracy counts no class for labels that are not the model's"
)
"""What madnb.evaluate_from_releases says of a sum holding a private release (its ``federation.approximate``)."""


def _check_rows(plpy: Plpy, rows: Sql, releases: list[Release], k: int) -> None:
    """Each release's rows are of its parts, classes and bins (22023 naming the first release that is not)."""
    for i, r in enumerate(releases):
        bins = int(r.header["score_bins"]) if r.private else 0
        ranked = ", ".join(str(j) for j in r.header["ranked"]) or "NULL"
        ok_cell = (f"x.part OPERATOR(pg_catalog.=) 'cell' AND (x.t IS NULL OR x.t OPERATOR(pg_catalog.<=) {k} AND x.t OPERATOR(pg_catalog.>=) 1) "
                   f"AND (x.h IS NULL OR x.h OPERATOR(pg_catalog.>=) 1 AND x.h OPERATOR(pg_catalog.<=) {k}) AND x.n IS NOT NULL")
        ok_score = (f"x.part OPERATOR(pg_catalog.=) 'score' AND x.t OPERATOR(pg_catalog.=) ANY (ARRAY[{ranked}]::pg_catalog.int4[]) "
                    "AND x.n IS NOT NULL AND x.m IS NOT NULL AND "
                    + (f"x.h OPERATOR(pg_catalog.>=) 0 AND x.h OPERATOR(pg_catalog.<) {bins} AND x.score IS NULL" if r.private
                       else "x.h IS NULL"))  # an exact score is NULL for rows without probabilities, as in madnb.evaluate
        ok_loss = "x.part OPERATOR(pg_catalog.=) 'loss' AND x.n IS NOT NULL" if r.private else "false"
        nonneg = "true" if r.private else "x.n OPERATOR(pg_catalog.>=) 0 AND COALESCE(x.m, 0) OPERATOR(pg_catalog.>=) 0"
        bad = plpy.execute(Sql(
            f"SELECT pg_catalog.count(*) AS n FROM {_of(rows, i)} AS x WHERE NOT COALESCE((({ok_cell}) OR ({ok_score}) OR ({ok_loss})) AND {nonneg}, false)"
        ))[0]["n"]
        if int(bad):
            raise _bad(r.subject, "does not match its header", f"{bad} of its rows are not counts of its classes and parts",
                       "a release is not to be altered: release the evaluation again")


__all__ = [
    "APPROXIMATE", "COLUMNS", "COMMENT_PREFIX", "FORMAT", "LOSS_BITS", "LOSS_SENSITIVITY", "SCORE_BINS", "bin_sql", "checksum_sql",
    "evaluate_from_releases", "model_fingerprint", "parse_release_header", "ranked_classes", "release_evaluation",
]

"""Private prediction: classify rows with a model held by two or more servers, none of which sees a row.

:func:`private_predict` encodes each row as the public encoding of the model says
(``madnb_models.<model>_share_encoding()``, see docs/private_prediction.md), splits
the encoded row into additive shares modulo a prime with :mod:`secrets`, sends each
server one share (``<model>_score_share``), adds the servers' answers and turns the
scores into probabilities.  The fixed-point arithmetic and the encoding are the
server's (``madnb_pl.predict.share``); here are only the client's steps.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from fractions import Fraction
from typing import Any

import psycopg
from psycopg import sql

from ._install import Target, connection
from .sklearn_export import _missing, _text_of

ENCODING_SUFFIX = "_share_encoding"
"""The function that gives a model's public encoding: the model's name + this (madnb_pl.models.catalog.SHARE_SUFFIXES)."""
ENCODING_FORMAT = 1
BATCH_ROWS = 500
"""Rows per query to each server."""


class PrivatePredictionError(RuntimeError):
    """The servers do not hold the same model, or a server's answer is not a share of a score."""


def private_predict(
    servers: Sequence[Target], model: str, rows: Any, *, batch_rows: int = BATCH_ROWS,
) -> list[dict[str, float]]:
    """Class probabilities of ``rows`` under ``model``, computed by ``servers`` without any of them seeing a row.

    Parameters
    ----------
    servers : sequence of connection targets
        Two or more databases that hold the same model: each anything :func:`madnb.connection`
        takes (a URL, a psycopg connection, a SQLAlchemy engine or connection).  The model may
        have been trained there (``madnb.train``) or installed from ``madnb.model_sql``.
    model : str
        The model's name as ``madnb.train`` took it (unqualified: schema ``madnb_models``), or
        for an exported script its ``function_name`` (``'public.adult_nb'``).  The same on
        every server.
    rows : pandas.DataFrame or iterable of mappings
        The rows to classify, with the model's feature columns by name (other columns are
        ignored; a missing column, ``None`` and NaN are missing values).  Values as
        :func:`madnb.to_sklearn` takes them.
    batch_rows : int, optional
        Rows sent to each server per query (one query per server per batch).

    Returns
    -------
    list of dict
        Per row, ``{class: probability}`` as the model's ``_predict_proba`` gives it (class
        texts as keys), equal to it within 1e-9 (absolute, each probability; the fixed-point
        error itself is far smaller, see docs/private_prediction.md).

    Raises
    ------
    ValueError
        Fewer than two servers, or two that reach the same database (address, port and name).
    PrivatePredictionError
        The servers hold different models (their fingerprints differ), or an answer is malformed.
    psycopg.errors.FeatureNotSupported
        (SQLSTATE 0A000, from the server) a model that cannot be served: a vector kind, no
        class, a non-finite number.
    psycopg.Error
        From a server without the model: 42883 (no such function), 3F000 (no such schema).

    Notes
    -----
    Each server receives, per row, one vector of integers drawn uniformly modulo p
    (:mod:`secrets`): alone (or with all but one of the others) it is independent of the
    row; what it returns is its share of the scores, as uniform.  The servers learn how
    many rows were classified, and when; all of them together could add their shares up:
    the rows stay private while at least one server does not collude with the others.
    """
    if len(servers) < 2:
        raise ValueError(f"private prediction needs two or more servers, got {len(servers)}")
    if batch_rows < 1:
        raise ValueError("batch_rows must be at least 1")
    records = _records(rows)
    with ExitStack() as stack:
        conns = [stack.enter_context(connection(s)) for s in servers]
        _check_distinct(conns)
        encodings = [_encoding(c, model) for c in conns]
        enc = encodings[0]
        for i, e in enumerate(encodings[1:], start=2):
            if e["fingerprint"] != enc["fingerprint"]:
                raise PrivatePredictionError(
                    f"the servers hold different models named {model!r}: server 1 has fingerprint {enc['fingerprint'][:16]}..., "
                    f"server {i} {e['fingerprint'][:16]}... (re-train or re-install the same model on every server)"
                )
        encoder = _Encoder(enc)
        out: list[dict[str, float]] = []
        pool = stack.enter_context(ThreadPoolExecutor(max_workers=len(conns)))  # the servers compute at the same time
        for start in range(0, len(records), batch_rows):
            batch = [encoder.encode(r) for r in records[start:start + batch_rows]]
            shares = [_split(e, len(conns), encoder.p) for e in batch]  # per row, one vector per server
            asked = [
                pool.submit(_score_shares, c, e, ["{" + ",".join(map(str, row[s])) + "}" for row in shares])
                for s, (c, e) in enumerate(zip(conns, encodings, strict=True))
            ]
            totals = [[0] * encoder.k for _ in batch]
            for s, answered in enumerate(asked, start=1):
                answers = answered.result()
                if len(answers) != len(batch) or any(len(a) != encoder.k for a in answers):
                    raise PrivatePredictionError(f"server {s} did not answer one share of each class's score per row")
                for t, a in zip(totals, answers, strict=True):
                    for j, x in enumerate(a):
                        t[j] = (t[j] + x) % encoder.p
            out.extend(encoder.probabilities(t) for t in totals)
    return out


def _records(rows: Any) -> list[Mapping[str, Any]]:
    """``rows`` as a list of mappings (a DataFrame's records)."""
    if hasattr(rows, "to_dict") and hasattr(rows, "columns"):  # a pandas DataFrame
        return list(rows.to_dict("records"))
    if isinstance(rows, Mapping):
        raise TypeError("rows must be a DataFrame or an iterable of mappings (a list of dicts), not one mapping")
    records = list(rows) if isinstance(rows, Iterable) else None
    if records is None or not all(isinstance(r, Mapping) for r in records):
        raise TypeError("rows must be a DataFrame or an iterable of mappings (a list of dicts)")
    return records


def _check_distinct(conns: list[psycopg.Connection[Any]]) -> None:
    """ValueError when two of the connections reach the same database (address, port and name): it would get two shares."""
    seen: dict[tuple[Any, ...], int] = {}
    for i, c in enumerate(conns, start=1):
        where = c.execute(
            "SELECT pg_catalog.inet_server_addr()::pg_catalog.text, pg_catalog.inet_server_port(), pg_catalog.current_database()::pg_catalog.text"
        ).fetchone()
        key = tuple(where or ())
        if key in seen:
            raise ValueError(
                f"servers {seen[key]} and {i} are the same database: it would receive two shares of each row "
                "(give each share to another server, run by another party)"
            )
        seen[key] = i


def _encoding(conn: psycopg.Connection[Any], model: str) -> dict[str, Any]:
    """The model's public encoding on one server (its ``_share_encoding()``)."""
    parts = conn.execute("SELECT pg_catalog.parse_ident(%s)", [model]).fetchone()
    names: list[str] = list(parts[0]) if parts else []
    if len(names) == 1:
        names = ["madnb_models", *names]
    if len(names) != 2:
        raise ValueError(f"model must be a name or schema.name, got {model!r}")
    fn = sql.Identifier(names[0], names[1] + ENCODING_SUFFIX)
    row = conn.execute(sql.SQL("SELECT {}()::pg_catalog.text").format(fn)).fetchone()
    enc: dict[str, Any] = json.loads(row[0]) if row else {}
    if enc.get("format") != ENCODING_FORMAT:
        raise PrivatePredictionError(f"the encoding of model {model!r} has format {enc.get('format')!r}: this madnb reads format 1")
    return enc


def _score_shares(conn: psycopg.Connection[Any], enc: dict[str, Any], shares: list[str]) -> list[list[int]]:
    """One server's shares of every class's score for a batch of share vectors (their text forms), one query."""
    fn = sql.Identifier(*enc["score_function"])
    rows = conn.execute(
        sql.SQL(
            "SELECT {}(u.s::pg_catalog.numeric[])::pg_catalog.text FROM pg_catalog.unnest(%s::pg_catalog.text[]) "
            "WITH ORDINALITY AS u(s, n) ORDER BY u.n"
        ).format(fn),
        [shares],
    ).fetchall()
    return [[int(x) for x in r[0].strip("{}").split(",")] if r[0] else [] for r in rows]


def _split(e: list[int], m: int, p: int) -> list[list[int]]:
    """``m`` vectors uniform modulo ``p`` that add up to ``e`` (mod ``p``): m - 1 drawn, the last the difference."""
    drawn = [_uniform(len(e), p) for _ in range(m - 1)]
    last = [(x - sum(col)) % p for x, *col in zip(e, *drawn, strict=True)]
    return [*drawn, last]


def _uniform(n: int, p: int) -> list[int]:
    """``n`` integers uniform in [0, p), from :mod:`secrets`: p's bit length of random bits each, drawn again while
    >= p (rejection: exactly uniform; for a Mersenne prime a redraw has probability 2^-1279)."""
    bits = p.bit_length()
    size, mask = (bits + 7) // 8, (1 << bits) - 1
    pool = secrets.token_bytes(size * n)
    out = [int.from_bytes(pool[i * size:(i + 1) * size], "big") & mask for i in range(n)]
    return [v if v < p else secrets.randbelow(p) for v in out]


class _Encoder:
    """A row -> its integer encoding (slots of the model's public encoding); summed scores -> probabilities."""

    def __init__(self, enc: dict[str, Any]) -> None:
        self.p = int(enc["modulus"])
        self.one = 1 << int(enc["input_bits"])
        self.scale = Fraction(1 << (int(enc["input_bits"]) + int(enc["coefficient_bits"])))
        self.classes: list[str] = list(enc["classes"])
        self.k = len(self.classes)
        self.width = int(enc["width"])
        self.features: list[dict[str, Any]] = enc["features"]
        self.text = [_text_of(f["text"]) if f["role"] == "categorical" else None for f in self.features]
        self.slot = [{v: i for i, v in enumerate(f.get("values", []))} for f in self.features]
        self.na = _na_markers()

    def encode(self, row: Mapping[str, Any]) -> list[int]:
        out = [self.one]
        for f, text, slot in zip(self.features, self.text, self.slot, strict=True):
            v = row.get(f["name"])
            missing = _missing(v, self.na)
            if f["role"] == "categorical":
                hot = [0] * len(slot)
                if not missing and text is not None:
                    at = slot.get(text(v))
                    if at is not None:  # a value the model never saw adds nothing, as a missing one
                        hot[at] = self.one
                out += hot
                continue
            x = math.nan if missing or v is None else float(v)
            if math.isnan(x):
                out += [0, 0, 0]
                continue
            lo, hi = f["window"]
            u = Fraction(min(max(x, lo), hi)) / Fraction(f["scale"])
            out += [self.one, round(u * self.one), round(u * u * self.one)]
        if len(out) != self.width:  # pragma: no cover - the encoding's width is its slots'
            raise PrivatePredictionError(f"the model's encoding has {self.width} slots, a row gave {len(out)}")
        return out

    def probabilities(self, total: list[int]) -> dict[str, float]:
        """Summed shares (mod p) -> scores (signed residues / the fixed point) -> probabilities by log-sum-exp."""
        scores = [float(Fraction(t - self.p if t > self.p // 2 else t) / self.scale) for t in total]
        top = max(scores)
        w = [math.exp(s - top) for s in scores]
        z = math.fsum(w)
        return {c: x / z for c, x in zip(self.classes, w, strict=True)}


def _na_markers() -> tuple[Any, ...]:
    try:
        import pandas
    except ImportError:  # pragma: no cover - pandas is optional
        return ()
    return (pandas.NA, pandas.NaT)


__all__ = ["PrivatePredictionError", "private_predict"]

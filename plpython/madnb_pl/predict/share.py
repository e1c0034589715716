"""Private prediction: a model's log-scores as a linear function of an additively shared, encoded row.

For a named model, :func:`share_functions` writes into its schema, next to the prediction functions
of :mod:`madnb_pl.predict.generated`:

    <model>_share_encoding()           jsonb: the public encoding of a row (below) and the model's fingerprint
    <model>_score_share(numeric[])     numeric[]: one share of the encoded row -> its share of every class's log-score

The client (``madnb.private_predict`` in the Python package) encodes a row as the
integer vector e of :data:`ENCODING_FORMAT` 1, slot by slot:

* slot 1, the constant: ``S`` (the fixed-point one; its coefficient is the class's log prior);
* each categorical feature, one slot per value the model knows (the values of its
  dictionary, in rank order): ``S`` in the slot of the row's value, 0 elsewhere -- a
  missing (NULL) or unseen value is all zeros, so it adds nothing, as in ``_predict_proba``;
* each Gaussian feature, three slots: ``S`` when the value is present (not NULL, not
  NaN; else the three are 0, and it adds nothing), ``round(S * u)`` and ``round(S * u^2)``
  for u = x / scale, x clipped to the feature's window as the prediction functions clip it
  and scale the largest |mu| + sigma of a class (:func:`_scale`: u is about 1 for ordinary
  values; at the window's edge, 1e100 standard deviations out, it is about 1e100);

with ``S = 2^INPUT_BITS``; it draws m - 1 vectors uniformly in [0, p) (a CSPRNG) and the
m-th so that the m add up to e mod p, and sends server i the i-th.  Each alone is
uniform whatever the row: no server learns anything of it.  ``_score_share`` returns,
per class c, ``sum_k w[c, k] * share[k] mod p``, where ``w[c, k] = round(T * coefficient)``
(``T = 2^COEFFICIENT_BITS``) and the coefficients make the score exactly the model's:

    log prior_c                          (slot 1: the constant)
    lp_c(v)                              (categorical value v: ln P(v | c), the functions' own numbers)
    a - r^2 mu^2,  2 r^2 mu scale,  -r^2 scale^2
                                         (Gaussian: a - (r (x - mu))^2 expanded in 1, u, u^2; 0 for a
                                         class without parameters, which adds nothing there)

computed exactly (:class:`fractions.Fraction` of the float8 numbers) before the one rounding.
The constant terms (priors, Gaussian normalisers) are thus coefficients of slots the client
sets, never added by a server or by the client: every server runs the same function on
its share, and none is told its index.  Adding the m answers mod p gives
``T * S * score`` up to rounding (a signed residue: p is far larger than any score can
make it, :func:`encoding` refuses a model where it could wrap); the client divides and
normalises by log-sum-exp.  Fixed-point error: each coefficient is rounded by at most
2^-65 and each u, u^2 by 2^-129, so each score is within about ``W * 2^-64 * (1 + max|coefficient|)``
of the exact one for W slots -- far below float8 rounding of the scores for any realistic
model; the probabilities equal ``_predict_proba``'s within 1e-9 (what the tests check;
typically 1e-15).  The body of ``_score_share`` is PL/pgSQL (the share's shape checked,
22023) returning one expression per class, its sum nested as a balanced tree.

The encoding is public: what ``madnb.to_sklearn`` gives too (values, classes, windows),
plus the modulus and the scales; its ``fingerprint`` (SHA-256 of the encoding and the
integer coefficients) lets the client check that every server holds the same model.  A
model whose score is not linear in such an encoding (the vector kinds, for now), that has
no class, or whose numbers are not all finite (a prior of 0, ln 0) gets both functions
too, raising 0A000 with the reason: re-training never leaves an older model's shares
function behind, and the client gets the server's reason.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core.names import NewName
from ..core.sql import Sql
from ..inputs.columns import ColumnTraining
from .generated import Functions, ModelNumbers, ShareNames, plpy_literal

MODULUS = 2**1279 - 1
"""The prime p of the shares, the Mersenne prime 2^1279 - 1: large enough that a score times the fixed point
``2^(INPUT_BITS + COEFFICIENT_BITS)`` stays below p / 2 even for a value at the edge of a Gaussian feature's
clipping window (1e100 standard deviations out: a log-score of about -1e200, 2^665)."""
INPUT_BITS = 128
"""The encoded row's fixed point: a one is ``2^INPUT_BITS``."""
COEFFICIENT_BITS = 64
"""The coefficients' fixed point: coefficient c is ``round(c * 2^COEFFICIENT_BITS)``."""
ENCODING_FORMAT = 1
SHARE_TYPE = "pg_catalog.numeric[]"


@dataclass(frozen=True)
class Encoding:
    """A model's public encoding (the jsonb of ``_share_encoding``) and, per class, its integer coefficients."""

    public: dict[str, Any]
    weights: list[list[int]]

    @property
    def width(self) -> int:
        return len(self.weights[0])


def _fixed(x: Fraction) -> int:
    return round(x * (1 << COEFFICIENT_BITS))


def _fixed_float(x: float) -> int:
    """:func:`_fixed` of float ``x`` (finite), without a Fraction: ``x * 2^COEFFICIENT_BITS`` is exact in float8 (a
    power of two; ldexp raises OverflowError past float8's range, then the Fraction's product), and Python rounds
    a float half to even as it rounds a Fraction (a model's every log-probability: a Fraction per value was a third
    of a training's Python time)."""
    try:
        return round(math.ldexp(x, COEFFICIENT_BITS))
    except OverflowError:
        return _fixed(Fraction(x))


def encoding(training: ColumnTraining, m: ModelNumbers) -> Encoding | str:
    """The encoding and coefficients of a model of Gaussian and categorical features, or why it cannot be served."""
    k = len(m.classes)
    if k == 0:
        return "the model has no class"
    bad = [c for c, p in zip(m.classes, m.prior, strict=True) if not math.isfinite(p)]
    if bad:
        return f"class {bad[0]} has prior probability 0 (log prior -Infinity): a share of a score is a finite number"
    weights: list[list[int]] = [[_fixed_float(p)] for p in m.prior]
    reaches: list[tuple[Fraction, Fraction]] = []  # per Gaussian feature, the largest |u| and u^2
    features: list[dict[str, Any]] = []
    for j, f in enumerate(training.features, start=1):
        if f.gaussian:
            lo, hi, per = m.gauss.get(j, (0.0, 0.0, [None] * k))
            if not all(math.isfinite(x) for x in (lo, hi)):
                return f'feature "{f.name}" has an infinite clipping window'
            present = [t for t in per if t is not None]
            if not all(math.isfinite(x) for t in present for x in t):
                return f'feature "{f.name}" has a Gaussian parameter that is not finite'
            scale = _scale(present)
            s = Fraction(scale)
            far = max(abs(Fraction(lo)), abs(Fraction(hi))) / s  # the largest |u| of a clipped value
            reaches.append((far, far * far))
            for c, terms in enumerate(per):
                if terms is None:
                    weights[c] += [0, 0, 0]
                    continue
                a, r, mu = (Fraction(x) for x in terms)
                weights[c] += [_fixed(a - r * r * mu * mu), _fixed(2 * r * r * mu * s), _fixed(-r * r * s * s)]
            features.append({"name": f.name, "role": "gaussian", "window": [lo, hi], "scale": scale})
        else:
            js, lps = m.dicts.get(j, ("{}", [[] for _ in range(k)]))
            ranks: dict[str, int] = json.loads(js)
            values = sorted(ranks, key=ranks.__getitem__)
            for c in range(k):
                row = lps[c]
                if not all(math.isfinite(x) for x in row):
                    return f'feature "{f.name}" has a value of probability 0 in class {m.classes[c]} (smoothing 0)'
                weights[c] += [_fixed_float(x) for x in row[:len(values)]]
            # the base type's name, as madnb.to_sklearn's export gives it: the client's rule for a value's text form
            # (madnb.sklearn_export; a type without a rule of its own, an enum's label included, is str)
            text = f.param_type.removeprefix("pg_catalog.")
            features.append({"name": f.name, "role": "categorical", "text": text, "values": values})
    # the largest |element| of an encoded row, slot by slot (in units of the fixed-point one): 1 but for u and u^2
    reach: list[Fraction | int] = [1]  # ints but for u and u^2: exact sums of ints where every slot's reach is 1
    g = iter(reaches)
    for feature in features:
        reach += [1, *next(g)] if feature["role"] == "gaussian" else [1] * len(feature["values"])
    bound = max(sum(abs(w) * r for w, r in zip(row, reach, strict=True)) for row in weights) * (1 << INPUT_BITS)
    if 2 * bound >= MODULUS:
        return (f"a log-score at the edge of a Gaussian feature's clipping window reaches 2^{math.log2(bound) - INPUT_BITS - COEFFICIENT_BITS:.0f}, "
                "too large for the shares' modulus")
    public: dict[str, Any] = {
        "format": ENCODING_FORMAT, "modulus": str(MODULUS), "input_bits": INPUT_BITS, "coefficient_bits": COEFFICIENT_BITS,
        "classes": m.classes, "width": len(weights[0]), "features": features,
    }
    digest = hashlib.sha256(json.dumps([public, [[str(w) for w in row] for row in weights]], sort_keys=True).encode()).hexdigest()
    return Encoding({**public, "fingerprint": digest}, weights)


def _scale(terms: list[tuple[float, float, float]]) -> float:
    """A Gaussian feature's unit u = x / scale: the largest |mu| + sigma of a class (sigma = 1 / (r sqrt 2)); 1 if none."""
    return max((abs(mu) + 1 / (r * math.sqrt(2)) for _, r, mu in terms if r > 0), default=1.0) or 1.0


def share_functions(
    names: ShareNames, comment_prefix: str, served: Encoding | str, quote: Callable[[str], str],
) -> Functions:
    """CREATE OR REPLACE FUNCTION / COMMENT ON FUNCTION of ``_share_encoding`` and ``_score_share`` (``served``: the
    model's :func:`encoding`, or why it cannot be served: then both raise 0A000 with that reason)."""
    enc, share = names.encoding, names.score_share
    statements: list[Sql] = []
    if isinstance(served, str):
        refusal = (
            f"RAISE EXCEPTION 'this model cannot be used for private prediction' USING ERRCODE = '0A000', "
            f"DETAIL = {plpy_literal(served)}, "
            "HINT = 'private prediction serves models of Gaussian and categorical features with finite numbers'; "
        )
        statements.append(_create(enc, "", "pg_catalog.jsonb", "plpgsql", f"BEGIN {refusal}END", strict=False))
        statements.append(_create(share, f"share {SHARE_TYPE}", SHARE_TYPE, "plpgsql", f"BEGIN {refusal}END", strict=False))
        what = f"; this model cannot be served ({served}): raises 0A000"
    else:
        public = {**served.public, "score_function": [share.schema, share.name]}
        statements.append(_create(enc, "", "pg_catalog.jsonb", "sql", f"SELECT {plpy_literal(json.dumps(public))}::pg_catalog.jsonb", strict=False))
        statements.append(_create(share, f"share {SHARE_TYPE}", SHARE_TYPE, "plpgsql", _share_body(served)))
        what = ""
    statements.append(Sql(f"COMMENT ON FUNCTION {enc.sql}() IS " + quote(
        f"{comment_prefix}: private prediction, the public encoding of a row for {share.name} (jsonb: modulus, scales, classes, "
        f"features and their values, the model's fingerprint){what}"
    )))
    statements.append(Sql(f"COMMENT ON FUNCTION {share.sql}({SHARE_TYPE}) IS " + quote(
        f"{comment_prefix}: private prediction, one additive share (mod p) of an encoded row -> its share of every class's "
        f"log-score, in class order (madnb.private_predict adds the servers' answers){what}"
    )))
    return Functions([(enc, ""), (share, SHARE_TYPE)], statements)


def _balanced_sum(terms: list[str]) -> str:
    """``terms`` added as a balanced tree of OPERATOR(pg_catalog.+): depth log2(n), not n."""
    if len(terms) == 1:
        return terms[0]
    half = len(terms) // 2
    return f"({_balanced_sum(terms[:half])} OPERATOR(pg_catalog.+) {_balanced_sum(terms[half:])})"


def _create(name: NewName, parameters: str, result: str, language: str, source: str, strict: bool = True) -> Sql:
    return Sql(
        f"CREATE OR REPLACE FUNCTION {name.sql}({parameters}) RETURNS {result} LANGUAGE {language} IMMUTABLE"
        f"{' STRICT' if strict else ''} PARALLEL SAFE SECURITY INVOKER AS {plpy_literal(source)}"
    )


def _share_body(e: Encoding) -> str:
    """PL/pgSQL: the share checked (one dimension from 1, ``width`` elements, none NULL; else 22023), then per class
    the sum of its coefficients times the share's elements, mod p (the non-zero coefficients only), as one
    expression (PL/pgSQL's simple-expression path: no query per call); the sums nest as a balanced tree, so that
    thousands of terms stay a shallow expression."""
    p = "_madnb_p"
    width = f"'{e.width}'::pg_catalog.int4"
    classes = []
    for row in e.weights:
        terms = [f"('{x}'::pg_catalog.numeric OPERATOR(pg_catalog.*) share[{slot}])" for slot, x in enumerate(row, start=1) if x != 0]
        total = _balanced_sum(terms) if terms else "'0'::pg_catalog.numeric"
        classes.append(f"pg_catalog.mod(pg_catalog.mod({total}, {p}) OPERATOR(pg_catalog.+) {p}, {p})")
    sums = "ARRAY[" + ", ".join(classes) + "]"
    return (
        f"DECLARE {p} pg_catalog.numeric := '{MODULUS}'::pg_catalog.numeric; BEGIN "
        f"IF COALESCE(pg_catalog.array_ndims(share), 0) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_lower(share, 1) OPERATOR(pg_catalog.<>) 1 "
        f"OR pg_catalog.array_length(share, 1) OPERATOR(pg_catalog.<>) {width} OR pg_catalog.array_position(share, NULL) IS NOT NULL THEN "
        f"RAISE EXCEPTION 'a share of this model is an array of {e.width} numbers' USING ERRCODE = '22023', "
        "DETAIL = pg_catalog.format('got %s', pg_catalog.array_dims(share)), "
        "HINT = 'private_predict of the madnb Python package encodes and shares rows'; "
        f"END IF; RETURN {sums}; END"
    )


__all__ = [
    "COEFFICIENT_BITS", "ENCODING_FORMAT", "INPUT_BITS", "MODULUS", "SHARE_TYPE", "Encoding", "encoding", "share_functions",
]

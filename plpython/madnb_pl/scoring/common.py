"""Constants and small SQL helpers shared by the scoring builders (see :mod:`madnb_pl.scoring`)."""

from __future__ import annotations

from ..core.sql import BOOL, DATE, F8, FLOAT4, FLOAT8, INTEGER_TYPES, NAME, NUMERIC, TEXT_TYPES, TIMESTAMP, TIMESTAMPTZ, UUID, text_sql

VAR_FLOOR_FACTOR = 1e-9
# Classes whose log-likelihoods are within TIE_TOLERANCE * max(1, |best|) of the best
# one are all returned by classify: a tie that is exact in rational arithmetic
# (10 rows per class, 4/12 * 9/12 against 6/12 * 6/12) is rarely exact in floating
# point, and MADlib's install-check expects both classes.  Rounding of a sum of n
# log terms is about n * 1e-16 relative, far below it.
TIE_TOLERANCE = 1e-12
# A Gaussian value x is clipped to [min mean - R, max mean + R] of its attribute,
# R = GAUSS_CLIP_SDS * the smallest (floored) standard deviation of the classes,
# before (x - mean) is squared, so that no term can overflow (1e308, Infinity).  A
# value that far out scores below -GAUSS_CLIP_SDS**2 / 2 in the narrowest class
# and the classes' order there is the order of their variances, as at infinity.
GAUSS_CLIP_SDS = 1e100
# Views of up to this many classes hold a column per class; beyond it, the class-rows form.
MAX_CLASSES = 500
MAX_CODE_SLOTS = 4_000_000
# The unrolled (parallel) form writes one term per (class, attribute) into the
# view; beyond these sizes the view uses the per-row LATERAL form.  The bound is
# JIT: with PostgreSQL's default jit = on, compiling the expression grows much
# faster than its size (measured, 20,000 rows, 3 classes: 300 terms +0.45 s,
# 750 terms 20 s against 0.75 s with jit off), while the LATERAL form is as fast
# as the unrolled one from about 60 attributes on.
UNROLL_MAX_ATTRS = 128
UNROLL_MAX_TERMS = 128
# The LATERAL form writes the positions 1..numAttrs into the view up to this many.
MAX_POSITION_LITERAL = 10_000
# The probs view picks class i's log-likelihood with a CASE up to this many classes
# (linear in K per output row), beyond it from an array built once per source row.
CASE_PICK_MAX_CLASSES = 16
INTEGRAL_CHECK_TYPES = frozenset({FLOAT4, FLOAT8, NUMERIC})  # codes if every value is whole
# Types with a canonical text form (equal values, equal text within a query, see
# dict_key): their values are looked up in a jsonb dictionary in the unrolled form.
# text, varchar, char(n) and name only under a deterministic collation.  Not float
# (0 = -0, NaNs, and its text form depends on extra_float_digits) or interval
# ('1 day' = '24 hours').
DICT_TYPES = TEXT_TYPES | {NAME, BOOL, DATE, TIMESTAMP, TIMESTAMPTZ, UUID, NUMERIC}


def dict_key(expr: str, type_oid: int | None) -> str:
    """The dictionary key of a value: its text form, made canonical where needed.

    char(n) loses its trailing blanks in the cast (its equality ignores them);
    numeric drops trailing zeros (1.50 = 1.5).  Only PostgreSQL's own types reach
    it (the ``dict`` strategy needs a model value type of :data:`DICT_TYPES` and a
    source element of the same type), so the cast is pg_catalog's
    (:func:`madnb_pl.core.sql.text_sql`): no other role can plant one.
    """
    assert type_oid in DICT_TYPES
    if type_oid == NUMERIC:
        return f"pg_catalog.trim_scale({expr})::pg_catalog.text"
    return text_sql(expr, builtin=True)
def tie_threshold(best: str) -> str:
    """The lowest log-likelihood classify returns with the best one, ``best``: within TIE_TOLERANCE of it."""
    return f"{best} - {TIE_TOLERANCE!r}::{F8} * GREATEST(1::{F8}, pg_catalog.abs({best}))"


def shifted_or_null(score: str, best: str) -> str:
    """A score less the best one, NULL below -700 (where exp() underflows: probability 0), as the probs view uses it."""
    return f"CASE WHEN {score} - {best} < -700 THEN NULL ELSE {score} - {best} END"


def ln_or_minus_infinity(expr: str) -> str:
    """Natural log that maps 0 (possible with smoothing 0 or noisy counts) to -Infinity."""
    return f"(CASE WHEN ({expr}) > 0 THEN pg_catalog.ln(({expr})::{F8}) ELSE '-Infinity'::{F8} END)"


__all__ = [
    "CASE_PICK_MAX_CLASSES", "DICT_TYPES", "F8", "GAUSS_CLIP_SDS", "INTEGER_TYPES", "INTEGRAL_CHECK_TYPES", "MAX_CLASSES",
    "dict_key", "ln_or_minus_infinity", "shifted_or_null", "tie_threshold",
    "MAX_CODE_SLOTS", "MAX_POSITION_LITERAL", "TEXT_TYPES", "TIE_TOLERANCE", "UNROLL_MAX_ATTRS", "UNROLL_MAX_TERMS", "VAR_FLOOR_FACTOR",
]

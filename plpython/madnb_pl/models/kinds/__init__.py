"""The kinds of model madnb.train makes, behind one interface (:class:`.base.Kind`), and their registry.

:mod:`.base` is the interface and the little every kind shares; :mod:`.table` the kinds of the
statistics table ('naive_bayes': MADlib's numbers, the private kind; 'gaussian' and 'categorical':
scikit-learn's GaussianNB and CategoricalNB); :mod:`.vector` the kinds of one vector column
('multinomial', 'bernoulli', 'complement': MultinomialNB, BernoulliNB, ComplementNB).  Training, export, evaluation and
cross-validation look a kind up in :data:`KINDS` (:func:`kind_named`, its options' keys
checked by :func:`parse_options`) and know nothing else of it.  A new kind is a
module with a :class:`.base.Kind` subclass and one entry here.
"""

from __future__ import annotations

import json
from typing import Any

from ...core.errors import MadnbError
from .base import Kind
from .table import NAIVE_BAYES, TABLE_KINDS
from .vector import VECTOR_KINDS

_ALL: tuple[Kind[Any, Any], ...] = (*TABLE_KINDS, *VECTOR_KINDS)
KINDS: dict[str, Kind[Any, Any]] = {k.name: k for k in _ALL}
"""Every kind of madnb.train by its name (madnb._models.kind), 'naive_bayes' (the default) first."""

KIND = NAIVE_BAYES
"""madnb.train's default kind."""


def kind_named(kind: str | None) -> Kind[Any, Any]:
    """The kind of this name (:data:`madnb_pl.models.kinds.KINDS`); 22004 for NULL, 22023 for an unknown name."""
    if kind is None:
        raise MadnbError("22004", "kind must not be NULL", hint=f"kind is '{KIND}' (the default)")
    k = KINDS.get(kind)
    if k is None:
        raise MadnbError("22023", f"unknown kind '{kind}'", hint="kind is one of " + ", ".join(repr(n) for n in KINDS))
    return k


def parse_options(kind: str, options: Any) -> dict[str, Any]:
    """``options`` (jsonb text, or NULL) as a dict, checked against the keys ``kind`` accepts.

    Only the keys are checked here; each kind checks its values where it uses them.
    """
    if options is None:
        return {}
    try:
        value = json.loads(options) if isinstance(options, str) else options
    except ValueError as e:  # jsonb arrives valid; a str from Python callers may not be
        raise MadnbError("22023", "options must be a JSON object", detail=str(e)) from None
    if not isinstance(value, dict):
        raise MadnbError("22023", "options must be a JSON object", hint='e.g. options => \'{"alpha": 0.5}\'')
    allowed = KINDS[kind].options
    for key in value:
        if key not in allowed:
            accepted = ", ".join(sorted(allowed)) if allowed else "none"
            raise MadnbError(
                "22023", f'option "{key}" is not a parameter of kind \'{kind}\'',
                hint=f"kind '{kind}' takes: {accepted}",
            )
    out: dict[str, Any] = value
    return out


__all__ = ["KIND", "KINDS", "Kind", "kind_named", "parse_options"]

"""The kinds of model madnb.train makes, behind one interface (:class:`.base.Kind`), and their registry.

:mod:`.base` is the interface and the little every kind shares; :mod:`.table` the kinds of the
statistics table ('naive_bayes': MADlib's numbers, the private kind; 'gaussian' and 'categorical':
scikit-learn's GaussianNB and CategoricalNB); :mod:`.vector` the kinds of one vector column
('multinomial', 'bernoulli', 'complement': MultinomialNB, BernoulliNB, ComplementNB).  Training, export, evaluation and
cross-validation look a kind up in :data:`KINDS` and know nothing else of it.  A new kind is a
module with a :class:`.base.Kind` subclass and one entry here.
"""

from __future__ import annotations

from typing import Any

from .base import Kind
from .table import TABLE_KINDS
from .vector import VECTOR_KINDS

_ALL: tuple[Kind[Any, Any], ...] = (*TABLE_KINDS, *VECTOR_KINDS)
KINDS: dict[str, Kind[Any, Any]] = {k.name: k for k in _ALL}
"""Every kind of madnb.train by its name (madnb._models.kind), 'naive_bayes' (the default) first."""

__all__ = ["KINDS", "Kind"]

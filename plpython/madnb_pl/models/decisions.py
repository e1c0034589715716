"""Decisions at query time: replaced priors, class weights, a cost matrix or a threshold, without retraining.

A named model's prediction functions give each row's class probabilities
(``<m>_predict_proba_array``, in the order of ``madnb.model_classes``).  A
*decision* changes what is made of them, for every kind alike:

* ``priors`` (one per class, >= 0, not all 0; only their ratios matter) replace
  the log prior the model's scores hold (:meth:`Kind.score_log_prior
  <madnb_pl.models.kinds.base.Kind.score_log_prior>`): each class's log-score
  moves by ln(prior') - ln(prior), so the probabilities are those of the same
  likelihoods under the new priors (kind complement, whose scores hold no prior,
  gains them);
* ``class_weights`` (one per class, >= 0) multiply each class's probability before
  they are normalised again: the priors times the weights (what training on rows
  weighted by class would change in the priors);
* ``costs`` (a K x K matrix, ``costs[i][j]`` the cost of predicting class j for a
  row of class i, >= 0): the predicted class is the one of least expected cost,
  the first j minimising sum_i p_i costs[i][j] (``argmin(proba @ costs)``), with
  the probabilities as the priors and weights leave them;
* ``threshold`` (two classes, in [0, 1]): the positive class -- the second of
  ``madnb.model_classes``, scikit-learn's ``classes_[1]`` -- is predicted when its
  probability is at least the threshold (as ``precision_recall_curve``'s
  thresholds); not with ``costs``.

Otherwise the predicted class is the first of the largest (adjusted) probability.

:func:`resolve` checks a decision against a model (22023 for a wrong length, a
negative, NaN or infinite value, a threshold outside [0, 1] or of a model of more
than two classes) and :func:`decision` (``madnb.decision``) gives it as jsonb; the
per-row work is ``madnb.decide_proba_array`` and ``madnb._nb_decide`` (PL/pgSQL,
sql/52_decisions.sql), which ``madnb.decide``, ``madnb.decide_proba`` and
``madnb.evaluate`` call, so a decision means the same everywhere.  A class whose
probability underflowed to 0 (a log-score more than 700 below the best) stays at
0 whatever its new prior.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ..core.errors import MadnbError, entry_point
from ..core.sql import Plpy
from .catalog import CatalogModel, ModelObjects, model_name, require
from .kinds import KINDS


@dataclass(frozen=True)
class Decision:
    """A decision checked against a model of ``len(classes)`` classes (see the module docstring)."""

    model: str
    classes: list[str]
    priors: list[float] | None = None
    class_weights: list[float] | None = None
    costs: list[list[float]] | None = None
    threshold: float | None = None
    shift: list[float] | None = None  # per class, what its log-score gains (priors and weights), None: nothing

    def given(self) -> dict[str, Any]:
        """What was asked for (the jsonb keys users read)."""
        return {"priors": self.priors, "class_weights": self.class_weights, "costs": self.costs, "threshold": self.threshold}

    def as_json(self) -> str:
        """The jsonb that madnb.decision returns and the per-row helpers read (``_shift``, ``_costs``: float8[] text)."""
        k = len(self.classes)
        return json.dumps({
            "model": self.model, "classes": self.classes, "k": k, **self.given(),
            "positive_class": self.classes[1] if k == 2 else None,
            "_shift": None if self.shift is None else _array_text(self.shift),
            "_costs": None if self.costs is None else "{" + ",".join(_array_text(r) for r in self.costs) + "}",
        })


def _array_text(values: list[float]) -> str:
    """A float8[]'s text, exactly (repr), infinities as PostgreSQL writes them."""
    return "{" + ",".join("Infinity" if v == math.inf else "-Infinity" if v == -math.inf else repr(v) for v in values) + "}"


def _bad(message: str, detail: str | None = None, hint: str | None = None) -> MadnbError:
    return MadnbError("22023", message, detail=detail, hint=hint)


def _number(name: str, v: Any) -> float:
    if v is None or isinstance(v, list) or not math.isfinite(float(v)) or float(v) < 0:
        raise _bad(f"{name} must hold finite numbers that are not negative", detail=f"got {v!r}")
    return float(v)


def _per_class(name: str, values: Any, m: CatalogModel) -> list[float] | None:
    """One number >= 0 per class, not all 0 (22023 otherwise)."""
    if values is None:
        return None
    k = len(m.classes)
    if not isinstance(values, list) or any(isinstance(v, list) for v in values):
        raise _bad(f"{name} must be a one-dimensional array", hint=f"give one number per class of model {m.name.key}")
    if len(values) != k:
        raise _bad(
            f"{name} has {len(values)} values, but model {m.name.key} has {k} classes",
            detail="its classes: " + ", ".join(m.classes[:10]) + (", ..." if k > 10 else ""),
            hint="give one number per class, in the order of madnb.model_classes",
        )
    out = [_number(name, v) for v in values]
    if k and not any(out):
        raise _bad(f"{name} must not all be 0", hint="a class with 0 is never predicted; at least one must be positive")
    return out


def _costs(costs: Any, m: CatalogModel) -> list[list[float]] | None:
    if costs is None:
        return None
    k = len(m.classes)
    if not isinstance(costs, list) or len(costs) != k or any(not isinstance(r, list) or len(r) != k for r in costs):
        raise _bad(
            f"costs must be a {k} x {k} matrix for model {m.name.key}",
            detail=f"costs[i][j] is the cost of predicting class j for a row of class i, over its {k} classes",
            hint="give a two-dimensional float8 array, rows and columns in the order of madnb.model_classes",
        )
    return [[_number("costs", v) for v in r] for r in costs]


def resolve(
    plpy: Plpy, m: CatalogModel, priors: Any = None, class_weights: Any = None, costs: Any = None, threshold: Any = None,
) -> Decision:
    """The decision asked for, checked against model ``m`` (22023: see the module docstring)."""
    k = len(m.classes)
    p = _per_class("priors", priors, m)
    w = _per_class("class_weights", class_weights, m)
    c = _costs(costs, m)
    t: float | None = None
    if threshold is not None:
        t = float(threshold)
        if not 0 <= t <= 1:  # NaN too
            raise _bad("threshold must be between 0 and 1", detail=f"got {threshold!r}",
                       hint="the positive class is predicted when its probability is at least the threshold")
        if k != 2:
            raise _bad(f"a threshold needs a model of two classes, and model {m.name.key} has {k}",
                       hint="for more classes give costs, or class_weights")
        if c is not None:
            raise _bad("give costs or a threshold, not both", hint="a threshold is the decision of costs [[0, a], [b, 0]] at a / (a + b)")
    if p is not None and w is not None and not any(x * y for x, y in zip(p, w, strict=True)):
        raise _bad("priors times class_weights must not all be 0", hint="at least one class needs a positive prior and weight")
    shift: list[float] | None = None
    if p is not None or w is not None:
        old = score_log_prior(plpy, m) if p is not None else [0.0] * k  # weights alone: each class gains ln w
        new = [0.0] * k if p is None else [math.log(x) if x > 0 else -math.inf for x in p]
        weight = [0.0] * k if w is None else [math.log(x) if x > 0 else -math.inf for x in w]
        shift = [a + b - (o if math.isfinite(o) else 0.0) for a, b, o in zip(new, weight, old, strict=True)]
    return Decision(m.name.key, list(m.classes), p, w, c, t, shift)


def score_log_prior(plpy: Plpy, m: CatalogModel) -> list[float]:
    """The log prior of each class in model ``m``'s scores (its kind's numbers, read from its tables)."""
    kind = KINDS[m.kind]
    training = kind.from_catalog(plpy, m)
    return [float(x) for x in kind.score_log_prior(training, kind.read_numbers(plpy, training, ModelObjects.of(m.name)))]


@entry_point
def decision(
    plpy: Plpy, model: str | None, priors: Any = None, class_weights: Any = None, costs: Any = None, threshold: float | None = None,
) -> str:
    """madnb.decision: the decision for model ``model``, checked, as jsonb text (see the module docstring)."""
    m = require(plpy, model_name(model))
    return resolve(plpy, m, priors, class_weights, costs, threshold).as_json()


__all__ = ["Decision", "decision", "resolve", "score_log_prior"]

"""MixedNB: the scikit-learn estimator of a madnb model with categorical and Gaussian features.

Imported only by :mod:`madnb.sklearn_export` when it is needed (it imports scikit-learn).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

TIE_TOLERANCE = 1e-12  # madnb's arg-max: the first class within this (relative) of the best (madnb._nb_best)


class MixedNB(ClassifierMixin, BaseEstimator):  # type: ignore[misc]
    """Naive Bayes over categorical codes and Gaussian values, as a madnb model computes it.

    Input: the codes of the ``n_categorical_`` categorical features (as
    :class:`~sklearn.naive_bayes.CategoricalNB` takes them) followed by the
    Gaussian features' values.  Per class, the joint log-likelihood is
    ``class_log_prior_``, plus ``feature_log_prob_[i][class, code]`` per
    categorical feature, plus per Gaussian feature whose value is present (not
    NaN) and whose class has parameters (``theta_`` not NaN)
    ``-ln(2 pi var_) / 2 - (x - theta_)^2 / (2 var_)``, x clipped to
    ``window_`` (madnb's clipping, far beyond any real value).  Probabilities by
    log-sum-exp; :meth:`predict` takes the first class within 1e-12 (relative)
    of the best, as madnb does.

    Made by :func:`madnb.to_sklearn` from a model trained in PostgreSQL: it has
    no ``fit`` of its own.
    """

    classes_: np.ndarray
    class_log_prior_: np.ndarray
    class_count_: np.ndarray
    feature_log_prob_: list[np.ndarray]
    theta_: np.ndarray
    var_: np.ndarray
    window_: np.ndarray
    n_categorical_: int
    n_features_in_: int

    def fit(self, X: Any, y: Any) -> MixedNB:
        raise NotImplementedError("MixedNB holds a model trained in PostgreSQL: train with madnb.train, then madnb.to_sklearn")

    def _joint_log_likelihood(self, X: Any) -> np.ndarray:
        check_is_fitted(self)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[-1]} features, but MixedNB is expecting {self.n_features_in_} features as input")
        jll = np.tile(self.class_log_prior_, (X.shape[0], 1))
        for i, lp in enumerate(self.feature_log_prob_):
            jll += lp[:, X[:, i].astype(np.int64)].T
        g = X[:, self.n_categorical_:]
        for j in range(g.shape[1]):
            x = np.clip(g[:, j], self.window_[j, 0], self.window_[j, 1])
            present = ~np.isnan(x)
            for c in range(len(self.classes_)):
                if math.isnan(self.theta_[c, j]):
                    continue  # the class had no value of this feature: madnb adds nothing
                var = self.var_[c, j]
                term = -0.5 * math.log(2.0 * math.pi * var) - (x[present] - self.theta_[c, j]) ** 2 / (2.0 * var)
                jll[present, c] += term
        return jll

    def predict_log_proba(self, X: Any) -> np.ndarray:
        jll = self._joint_log_likelihood(X)
        top = jll.max(axis=1, keepdims=True)
        out: np.ndarray = jll - (top + np.log(np.exp(jll - top).sum(axis=1, keepdims=True)))
        return out

    def predict_proba(self, X: Any) -> np.ndarray:
        out: np.ndarray = np.exp(self.predict_log_proba(X))
        return out

    def predict(self, X: Any) -> np.ndarray:
        jll = self._joint_log_likelihood(X)
        best = jll.max(axis=1, keepdims=True)
        first = (jll >= best - TIE_TOLERANCE * np.maximum(1.0, np.abs(best))).argmax(axis=1)
        out: np.ndarray = self.classes_[first]
        return out

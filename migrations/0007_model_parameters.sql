-- A named model's kind-specific parameters (issue 12 point 5).
--
-- madnb.train's `options` (scikit-learn's parameter names: alpha, fit_prior,
-- class_prior, var_smoothing, min_categories, binarize, norm) are kept with the
-- model as given, after validation for its kind; NULL when none were given.

ALTER TABLE madnb._models ADD COLUMN parameters jsonb;

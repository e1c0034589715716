"""Stage 5a, predict: a named model's numbers written as constants into inlinable SQL functions in schema
madnb_models (:mod:`.generated`: ``<model>_predict``, ``_predict_proba``, ``_predict_proba_array``, in row
and column forms), with the few helpers they call."""

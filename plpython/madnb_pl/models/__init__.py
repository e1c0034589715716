"""The named-model face on top of the pipeline: ``madnb.train`` and ``drop_model`` (:mod:`.lifecycle`), the
catalog ``madnb._models`` (:mod:`.catalog`, its one reader), the kinds behind one interface (:mod:`.kinds`: its
registry, :mod:`.kinds.base` the interface, :mod:`.kinds.table` the statistics-table kinds, :mod:`.kinds.vector`
multinomial, Bernoulli and complement), ``evaluate`` (:mod:`.evaluate`), decisions at query time (:mod:`.decisions`,
``threshold_curve`` in :mod:`.thresholds`), ``cross_validate`` (:mod:`.cross_validation`), federated evaluation
(:mod:`.federated_evaluation`) and export to SQL and scikit-learn (:mod:`.export`)."""

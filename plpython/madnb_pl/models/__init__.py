"""The named-model face on top of the pipeline: ``madnb.train`` and ``drop_model`` (:mod:`.lifecycle`), the
catalog ``madnb._models`` (:mod:`.catalog`, its one reader), the kinds (:mod:`.kinds` for the statistics-table
kinds, :mod:`.vector` for multinomial, Bernoulli and complement), ``evaluate`` (:mod:`.evaluate`),
``cross_validate`` (:mod:`.cross_validation`) and export to SQL and scikit-learn (:mod:`.export`)."""

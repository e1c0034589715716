"""Stage 4, derive: model tables (class priors, feature probabilities, Gaussian parameters) from summed
statistics, in MADlib's format (:mod:`.model_tables`), and the online update that adds a part to a model's
kept sum and rewrites its tables in place (:mod:`.update`)."""

-- Training: MADlib's create_nb_prepared_data_tables, both overloads.
-- Entry points resolve the names they are given on the caller's search_path
-- (as MADlib does), so their SQL functions cannot SET search_path; instead the
-- Python entry point pins search_path = pg_catalog, pg_temp while it runs
-- (madnb_pl.core.errors.entry_point) and switches back for exactly those lookups.
-- MADlib's parameters come first; madnb's own are optional and named
-- (migration 0002 dropped the 6- and 8-argument signatures they replace):
--   epsilon   total privacy budget of the run; NULL = exact model
--   bounds    public {lower, upper} per numeric attribute (with epsilon)
--   domain    table (attr, value) of the public domain, 'private' (values chosen
--             from the data by differentially private partition selection) or
--             'observed' (values taken from the data: not private), with epsilon
--   smoothing Laplace smoothing factor s, recorded in the feature table
--   delta     the delta of domain => 'private' ((epsilon, delta)-DP)
-- (migration 0004 dropped the signatures without delta)
--
-- The public functions are thin PL/pgSQL wrappers around one internal PL/Python
-- function: they re-raise its errors with the same SQLSTATE, message, DETAIL and
-- HINT, so that a user sees a PostgreSQL error naming the madnb function rather
-- than PL/Python's exception prefix and traceback (the reraise marker, expanded by
-- the script builder).

CREATE OR REPLACE FUNCTION madnb._train(
    training_source text,
    training_class_column text,
    training_attr_column text,
    numeric_indices text,
    num_attrs integer,
    feature_probs_dest text,
    numeric_stats_dest text,
    class_priors_dest text,
    use_numeric boolean,
    epsilon float8,
    bounds float8[],
    domain text,
    smoothing float8,
    delta float8
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_prepared_data_tables(
    plpy, training_source=training_source, training_class_column=training_class_column,
    training_attr_column=training_attr_column, numeric_indices=numeric_indices, num_attrs=num_attrs,
    feature_probs_dest=feature_probs_dest, numeric_stats_dest=numeric_stats_dest,
    class_priors_dest=class_priors_dest, use_numeric=use_numeric,
    epsilon=epsilon, bounds=bounds, domain=domain, smoothing=smoothing, delta=delta)
$python$;
COMMENT ON FUNCTION madnb._train(text, text, text, text, integer, text, text, text, boolean, float8, float8[], text, float8, float8) IS
    'internal: the PL/Python entry point behind both create_nb_prepared_data_tables overloads';

CREATE OR REPLACE FUNCTION madnb.create_nb_prepared_data_tables(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "numAttrs" integer,
    "featureProbsDestName" text,
    "classPriorsDestName" text,
    epsilon float8 DEFAULT NULL,
    bounds float8[] DEFAULT NULL,
    domain text DEFAULT NULL,
    smoothing float8 DEFAULT 1,
    delta float8 DEFAULT NULL
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._train(
        training_source => "trainingSource", training_class_column => "trainingClassColumn",
        training_attr_column => "trainingAttrColumn", numeric_indices => NULL, num_attrs => "numAttrs",
        feature_probs_dest => "featureProbsDestName", numeric_stats_dest => NULL,
        class_priors_dest => "classPriorsDestName", use_numeric => false,
        epsilon => epsilon, bounds => bounds, domain => domain, smoothing => smoothing,
        delta => delta);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_prepared_data_tables(text, text, text, integer, text, text, float8, float8[], text, float8, float8) IS
    'train naive Bayes on categorical attributes: creates the feature probabilities and class priors tables (MADlib interface; optional epsilon, domain, delta for differential privacy, smoothing)';

CREATE OR REPLACE FUNCTION madnb.create_nb_prepared_data_tables(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "numericAttrsColumnIndices" text,
    "numAttrs" integer,
    "featureProbsDestName" text,
    "numericFeatureStatsDestName" text,
    "classPriorsDestName" text,
    epsilon float8 DEFAULT NULL,
    bounds float8[] DEFAULT NULL,
    domain text DEFAULT NULL,
    smoothing float8 DEFAULT 1,
    delta float8 DEFAULT NULL
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._train(
        training_source => "trainingSource", training_class_column => "trainingClassColumn",
        training_attr_column => "trainingAttrColumn", numeric_indices => "numericAttrsColumnIndices",
        num_attrs => "numAttrs", feature_probs_dest => "featureProbsDestName",
        numeric_stats_dest => "numericFeatureStatsDestName", class_priors_dest => "classPriorsDestName",
        use_numeric => true, epsilon => epsilon, bounds => bounds, domain => domain, smoothing => smoothing,
        delta => delta);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_prepared_data_tables(text, text, text, text, integer, text, text, text, float8, float8[], text, float8, float8) IS
    'train naive Bayes with Gaussian numeric attributes: creates the feature probabilities, numeric parameters and class priors tables (MADlib interface; optional epsilon, bounds, domain, delta for differential privacy, smoothing)';

-- Statistics tables (issue 10): the released object between training data and
-- a model.  create_nb_statistics runs the one statistics pass (exact, or
-- differentially private with epsilon, ledgered like private training) into a
-- new table whose comment is its header; create_nb_model_from_statistics checks
-- that its parts are compatible, sums them and derives MADlib's model tables.
-- create_nb_prepared_data_tables (sql/10_training.sql) is exactly these two
-- steps and keeps its statistics in schema madnb_statistics (migration 0005).
-- Same pattern as sql/10_training.sql: thin PL/pgSQL wrappers re-raising the
-- errors of one internal PL/Python function each.

CREATE OR REPLACE FUNCTION madnb._create_statistics(
    training_source text,
    training_class_column text,
    training_attr_column text,
    numeric_indices text,
    num_attrs integer,
    statistics_dest text,
    use_numeric boolean,
    epsilon float8,
    bounds float8[],
    domain text,
    delta float8
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_statistics(
    plpy, training_source=training_source, training_class_column=training_class_column,
    training_attr_column=training_attr_column, numeric_indices=numeric_indices, num_attrs=num_attrs,
    statistics_dest=statistics_dest, use_numeric=use_numeric,
    epsilon=epsilon, bounds=bounds, domain=domain, delta=delta)
$python$;
COMMENT ON FUNCTION madnb._create_statistics(text, text, text, text, integer, text, boolean, float8, float8[], text, float8) IS
    'internal: the PL/Python entry point behind both create_nb_statistics overloads';

CREATE OR REPLACE FUNCTION madnb.create_nb_statistics(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "numAttrs" integer,
    "statisticsDestName" text,
    epsilon float8 DEFAULT NULL,
    bounds float8[] DEFAULT NULL,
    domain text DEFAULT NULL,
    delta float8 DEFAULT NULL
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_statistics(
        training_source => "trainingSource", training_class_column => "trainingClassColumn",
        training_attr_column => "trainingAttrColumn", numeric_indices => NULL, num_attrs => "numAttrs",
        statistics_dest => "statisticsDestName", use_numeric => false,
        epsilon => epsilon, bounds => bounds, domain => domain, delta => delta);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_statistics(text, text, text, integer, text, float8, float8[], text, float8) IS
    'release the naive Bayes statistics of categorical attributes into a new statistics table (exact, or differentially private with epsilon, domain, delta)';

CREATE OR REPLACE FUNCTION madnb.create_nb_statistics(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "numericAttrsColumnIndices" text,
    "numAttrs" integer,
    "statisticsDestName" text,
    epsilon float8 DEFAULT NULL,
    bounds float8[] DEFAULT NULL,
    domain text DEFAULT NULL,
    delta float8 DEFAULT NULL
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_statistics(
        training_source => "trainingSource", training_class_column => "trainingClassColumn",
        training_attr_column => "trainingAttrColumn", numeric_indices => "numericAttrsColumnIndices",
        num_attrs => "numAttrs", statistics_dest => "statisticsDestName", use_numeric => true,
        epsilon => epsilon, bounds => bounds, domain => domain, delta => delta);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_statistics(text, text, text, text, integer, text, float8, float8[], text, float8) IS
    'release the naive Bayes statistics with Gaussian numeric attributes into a new statistics table (exact, or differentially private with epsilon, bounds, domain, delta)';

CREATE OR REPLACE FUNCTION madnb._model_from_statistics(
    statistics text[],
    feature_probs_dest text,
    numeric_stats_dest text,
    class_priors_dest text,
    smoothing float8
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_model_from_statistics(
    plpy, statistics=statistics, feature_probs_dest=feature_probs_dest, numeric_stats_dest=numeric_stats_dest,
    class_priors_dest=class_priors_dest, smoothing=smoothing)
$python$;
COMMENT ON FUNCTION madnb._model_from_statistics(text[], text, text, text, float8) IS
    'internal: the PL/Python entry point behind create_nb_model_from_statistics';

CREATE OR REPLACE FUNCTION madnb.create_nb_model_from_statistics(
    statistics text[],
    "featureProbsDestName" text,
    "numericFeatureStatsDestName" text,
    "classPriorsDestName" text,
    smoothing float8 DEFAULT 1
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._model_from_statistics(
        statistics => statistics, feature_probs_dest => "featureProbsDestName",
        numeric_stats_dest => "numericFeatureStatsDestName", class_priors_dest => "classPriorsDestName",
        smoothing => smoothing);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_model_from_statistics(text[], text, text, text, float8) IS
    'merge statistics tables (their sum) and derive the feature probabilities, numeric parameters (NULL when nothing is numeric) and class priors tables';

-- Online updates (issue 11, point 4): add a new part to a model in place.  The
-- model tables keep their identity (rows replaced in the caller's transaction),
-- so views over them read the updated model.
CREATE OR REPLACE FUNCTION madnb._update_model(
    statistics text,
    feature_probs text,
    numeric_stats text,
    class_priors text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.update_nb_model(
    plpy, statistics=statistics, feature_probs=feature_probs, numeric_stats=numeric_stats,
    class_priors=class_priors)
$python$;
COMMENT ON FUNCTION madnb._update_model(text, text, text, text) IS
    'internal: the PL/Python entry point behind update_nb_model';

CREATE OR REPLACE FUNCTION madnb.update_nb_model(
    statistics text,
    "featureProbsDestName" text,
    "numericFeatureStatsDestName" text,
    "classPriorsDestName" text
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._update_model(
        statistics => statistics, feature_probs => "featureProbsDestName",
        numeric_stats => "numericFeatureStatsDestName", class_priors => "classPriorsDestName");
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.update_nb_model(text, text, text, text) IS
    'add a statistics table (new rows, or a new owner) to an existing model in place: the model becomes the one derived from the sum of its statistics and the new part; views over it keep working (55000 when its class set grew)';

-- Training: MADlib's create_nb_prepared_data_tables, both overloads.
-- Entry points resolve the names they are given on the caller's search_path
-- (as MADlib does), so they do not pin search_path; every object they touch
-- is schema-qualified in the SQL they build.
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
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_prepared_data_tables(
    plpy, trainingSource, trainingClassColumn, trainingAttrColumn, None, numAttrs,
    featureProbsDestName, None, classPriorsDestName, use_numeric=False,
    epsilon=epsilon, bounds=bounds, domain=domain, smoothing=smoothing, delta=delta)
$python$;
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
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_prepared_data_tables(
    plpy, trainingSource, trainingClassColumn, trainingAttrColumn, numericAttrsColumnIndices, numAttrs,
    featureProbsDestName, numericFeatureStatsDestName, classPriorsDestName, use_numeric=True,
    epsilon=epsilon, bounds=bounds, domain=domain, smoothing=smoothing, delta=delta)
$python$;
COMMENT ON FUNCTION madnb.create_nb_prepared_data_tables(text, text, text, text, integer, text, text, text, float8, float8[], text, float8, float8) IS
    'train naive Bayes with Gaussian numeric attributes: creates the feature probabilities, numeric parameters and class priors tables (MADlib interface; optional epsilon, bounds, domain, delta for differential privacy, smoothing)';

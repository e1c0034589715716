-- Training: MADlib's create_nb_prepared_data_tables, both overloads.
-- Entry points resolve the names they are given on the caller's search_path
-- (as MADlib does), so they do not pin search_path; every object they touch
-- is schema-qualified in the SQL they build.

CREATE OR REPLACE FUNCTION madnb.create_nb_prepared_data_tables(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "numAttrs" integer,
    "featureProbsDestName" text,
    "classPriorsDestName" text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_prepared_data_tables(
    plpy, trainingSource, trainingClassColumn, trainingAttrColumn, None, numAttrs,
    featureProbsDestName, None, classPriorsDestName, use_numeric=False)
$python$;
COMMENT ON FUNCTION madnb.create_nb_prepared_data_tables(text, text, text, integer, text, text) IS
    'train naive Bayes on categorical attributes: creates the feature probabilities and class priors tables (MADlib interface)';

CREATE OR REPLACE FUNCTION madnb.create_nb_prepared_data_tables(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "numericAttrsColumnIndices" text,
    "numAttrs" integer,
    "featureProbsDestName" text,
    "numericFeatureStatsDestName" text,
    "classPriorsDestName" text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_prepared_data_tables(
    plpy, trainingSource, trainingClassColumn, trainingAttrColumn, numericAttrsColumnIndices, numAttrs,
    featureProbsDestName, numericFeatureStatsDestName, classPriorsDestName, use_numeric=True)
$python$;
COMMENT ON FUNCTION madnb.create_nb_prepared_data_tables(text, text, text, text, integer, text, text, text) IS
    'train naive Bayes with Gaussian numeric attributes: creates the feature probabilities, numeric parameters and class priors tables (MADlib interface)';

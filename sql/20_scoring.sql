-- Scoring: MADlib's create_nb_classify_view and create_nb_probs_view,
-- from prepared tables and ad hoc from the training table.

CREATE OR REPLACE FUNCTION madnb.create_nb_classify_view(
    "featureProbsSource" text,
    "classPriorsSource" text,
    "classifySource" text,
    "classifyKeyColumn" text,
    "classifyAttrColumn" text,
    "numAttrs" integer,
    "destName" text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_view(plpy, "classify", featureProbsSource, classPriorsSource, None, False,
                         classifySource, classifyKeyColumn, classifyAttrColumn, numAttrs, destName)
$python$;
COMMENT ON FUNCTION madnb.create_nb_classify_view(text, text, text, text, text, integer, text) IS
    'create a view (key, nb_classification) classifying each row of classifySource with prepared categorical model tables';

CREATE OR REPLACE FUNCTION madnb.create_nb_classify_view(
    "featureProbsSource" text,
    "classPriorsSource" text,
    "classifySource" text,
    "classifyKeyColumn" text,
    "classifyAttrColumn" text,
    "numAttrs" integer,
    "numericFeatureStatsSource" text,
    "destName" text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_view(plpy, "classify", featureProbsSource, classPriorsSource, numericFeatureStatsSource, True,
                         classifySource, classifyKeyColumn, classifyAttrColumn, numAttrs, destName)
$python$;
COMMENT ON FUNCTION madnb.create_nb_classify_view(text, text, text, text, text, integer, text, text) IS
    'create a view (key, nb_classification) classifying each row of classifySource with prepared model tables including Gaussian parameters';

CREATE OR REPLACE FUNCTION madnb.create_nb_classify_view(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "classifySource" text,
    "classifyKeyColumn" text,
    "classifyAttrColumn" text,
    "numAttrs" integer,
    "destName" text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_adhoc_view(plpy, "classify", trainingSource, trainingClassColumn, trainingAttrColumn, None, False,
                               classifySource, classifyKeyColumn, classifyAttrColumn, numAttrs, destName)
$python$;
COMMENT ON FUNCTION madnb.create_nb_classify_view(text, text, text, text, text, text, integer, text) IS
    'create a view (key, nb_classification) that trains on trainingSource (categorical attributes) and classifies classifySource on every query (ad hoc)';

CREATE OR REPLACE FUNCTION madnb.create_nb_classify_view(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "numericAttrsColumnIndices" text,
    "classifySource" text,
    "classifyKeyColumn" text,
    "classifyAttrColumn" text,
    "numAttrs" integer,
    "destName" text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_adhoc_view(plpy, "classify", trainingSource, trainingClassColumn, trainingAttrColumn,
                               numericAttrsColumnIndices, True,
                               classifySource, classifyKeyColumn, classifyAttrColumn, numAttrs, destName)
$python$;
COMMENT ON FUNCTION madnb.create_nb_classify_view(text, text, text, text, text, text, text, integer, text) IS
    'create a view (key, nb_classification) that trains on trainingSource with Gaussian numeric attributes and classifies classifySource on every query (ad hoc)';

CREATE OR REPLACE FUNCTION madnb.create_nb_probs_view(
    "featureProbsSource" text,
    "classPriorsSource" text,
    "classifySource" text,
    "classifyKeyColumn" text,
    "classifyAttrColumn" text,
    "numAttrs" integer,
    "destName" text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_view(plpy, "probs", featureProbsSource, classPriorsSource, None, False,
                         classifySource, classifyKeyColumn, classifyAttrColumn, numAttrs, destName)
$python$;
COMMENT ON FUNCTION madnb.create_nb_probs_view(text, text, text, text, text, integer, text) IS
    'create a view (key, class, nb_prob) with every class''s probability for each row of classifySource, from prepared categorical model tables';

CREATE OR REPLACE FUNCTION madnb.create_nb_probs_view(
    "featureProbsSource" text,
    "classPriorsSource" text,
    "classifySource" text,
    "classifyKeyColumn" text,
    "classifyAttrColumn" text,
    "numAttrs" integer,
    "numericFeatureStatsSource" text,
    "destName" text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_view(plpy, "probs", featureProbsSource, classPriorsSource, numericFeatureStatsSource, True,
                         classifySource, classifyKeyColumn, classifyAttrColumn, numAttrs, destName)
$python$;
COMMENT ON FUNCTION madnb.create_nb_probs_view(text, text, text, text, text, integer, text, text) IS
    'create a view (key, class, nb_prob) with every class''s probability for each row of classifySource, from prepared model tables including Gaussian parameters';

CREATE OR REPLACE FUNCTION madnb.create_nb_probs_view(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "classifySource" text,
    "classifyKeyColumn" text,
    "classifyAttrColumn" text,
    "numAttrs" integer,
    "destName" text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_adhoc_view(plpy, "probs", trainingSource, trainingClassColumn, trainingAttrColumn, None, False,
                               classifySource, classifyKeyColumn, classifyAttrColumn, numAttrs, destName)
$python$;
COMMENT ON FUNCTION madnb.create_nb_probs_view(text, text, text, text, text, text, integer, text) IS
    'create a view (key, class, nb_prob) that trains on trainingSource (categorical attributes) and gives every class''s probability for each row of classifySource on every query (ad hoc)';

CREATE OR REPLACE FUNCTION madnb.create_nb_probs_view(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "numericAttrsColumnIndices" text,
    "classifySource" text,
    "classifyKeyColumn" text,
    "classifyAttrColumn" text,
    "numAttrs" integer,
    "destName" text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_adhoc_view(plpy, "probs", trainingSource, trainingClassColumn, trainingAttrColumn,
                               numericAttrsColumnIndices, True,
                               classifySource, classifyKeyColumn, classifyAttrColumn, numAttrs, destName)
$python$;
COMMENT ON FUNCTION madnb.create_nb_probs_view(text, text, text, text, text, text, text, integer, text) IS
    'create a view (key, class, nb_prob) that trains on trainingSource with Gaussian numeric attributes and gives every class''s probability for each row of classifySource on every query (ad hoc)';

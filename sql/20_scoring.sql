-- Scoring: MADlib's create_nb_classify_view and create_nb_probs_view,
-- from prepared tables and ad hoc from the training table.
--
-- The public functions are thin PL/pgSQL wrappers around two internal PL/Python
-- functions (prepared tables / ad hoc) that re-raise their errors with the same
-- SQLSTATE, message, DETAIL and HINT (see sql/10_training.sql).

CREATE OR REPLACE FUNCTION madnb._create_view(
    kind text,
    feature_probs_source text,
    class_priors_source text,
    numeric_stats_source text,
    use_numeric boolean,
    classify_source text,
    key_column text,
    attr_column text,
    num_attrs integer,
    dest text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_view(
    plpy, kind=kind, feature_probs_source=feature_probs_source, class_priors_source=class_priors_source,
    numeric_stats_source=numeric_stats_source, use_numeric=use_numeric, classify_source=classify_source,
    key_column=key_column, attr_column=attr_column, num_attrs=num_attrs, dest=dest)
$python$;
COMMENT ON FUNCTION madnb._create_view(text, text, text, text, boolean, text, text, text, integer, text) IS
    'internal: the PL/Python entry point behind the classify and probs views over prepared model tables';

CREATE OR REPLACE FUNCTION madnb._create_adhoc_view(
    kind text,
    training_source text,
    training_class_column text,
    training_attr_column text,
    numeric_indices text,
    use_numeric boolean,
    classify_source text,
    key_column text,
    attr_column text,
    num_attrs integer,
    dest text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_adhoc_view(
    plpy, kind=kind, training_source=training_source, training_class_column=training_class_column,
    training_attr_column=training_attr_column, numeric_indices=numeric_indices, use_numeric=use_numeric,
    classify_source=classify_source, key_column=key_column, attr_column=attr_column, num_attrs=num_attrs,
    dest=dest)
$python$;
COMMENT ON FUNCTION madnb._create_adhoc_view(text, text, text, text, text, boolean, text, text, text, integer, text) IS
    'internal: the PL/Python entry point behind the ad hoc classify and probs views';

CREATE OR REPLACE FUNCTION madnb.create_nb_classify_view(
    "featureProbsSource" text,
    "classPriorsSource" text,
    "classifySource" text,
    "classifyKeyColumn" text,
    "classifyAttrColumn" text,
    "numAttrs" integer,
    "destName" text
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_view(
        kind => 'classify', feature_probs_source => "featureProbsSource", class_priors_source => "classPriorsSource",
        numeric_stats_source => NULL, use_numeric => false, classify_source => "classifySource",
        key_column => "classifyKeyColumn", attr_column => "classifyAttrColumn", num_attrs => "numAttrs",
        dest => "destName");
--@madnb-reraise
END
$$;
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
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_view(
        kind => 'classify', feature_probs_source => "featureProbsSource", class_priors_source => "classPriorsSource",
        numeric_stats_source => "numericFeatureStatsSource", use_numeric => true, classify_source => "classifySource",
        key_column => "classifyKeyColumn", attr_column => "classifyAttrColumn", num_attrs => "numAttrs",
        dest => "destName");
--@madnb-reraise
END
$$;
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
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_adhoc_view(
        kind => 'classify', training_source => "trainingSource", training_class_column => "trainingClassColumn",
        training_attr_column => "trainingAttrColumn", numeric_indices => NULL, use_numeric => false,
        classify_source => "classifySource", key_column => "classifyKeyColumn", attr_column => "classifyAttrColumn",
        num_attrs => "numAttrs", dest => "destName");
--@madnb-reraise
END
$$;
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
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_adhoc_view(
        kind => 'classify', training_source => "trainingSource", training_class_column => "trainingClassColumn",
        training_attr_column => "trainingAttrColumn", numeric_indices => "numericAttrsColumnIndices", use_numeric => true,
        classify_source => "classifySource", key_column => "classifyKeyColumn", attr_column => "classifyAttrColumn",
        num_attrs => "numAttrs", dest => "destName");
--@madnb-reraise
END
$$;
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
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_view(
        kind => 'probs', feature_probs_source => "featureProbsSource", class_priors_source => "classPriorsSource",
        numeric_stats_source => NULL, use_numeric => false, classify_source => "classifySource",
        key_column => "classifyKeyColumn", attr_column => "classifyAttrColumn", num_attrs => "numAttrs",
        dest => "destName");
--@madnb-reraise
END
$$;
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
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_view(
        kind => 'probs', feature_probs_source => "featureProbsSource", class_priors_source => "classPriorsSource",
        numeric_stats_source => "numericFeatureStatsSource", use_numeric => true, classify_source => "classifySource",
        key_column => "classifyKeyColumn", attr_column => "classifyAttrColumn", num_attrs => "numAttrs",
        dest => "destName");
--@madnb-reraise
END
$$;
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
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_adhoc_view(
        kind => 'probs', training_source => "trainingSource", training_class_column => "trainingClassColumn",
        training_attr_column => "trainingAttrColumn", numeric_indices => NULL, use_numeric => false,
        classify_source => "classifySource", key_column => "classifyKeyColumn", attr_column => "classifyAttrColumn",
        num_attrs => "numAttrs", dest => "destName");
--@madnb-reraise
END
$$;
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
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_adhoc_view(
        kind => 'probs', training_source => "trainingSource", training_class_column => "trainingClassColumn",
        training_attr_column => "trainingAttrColumn", numeric_indices => "numericAttrsColumnIndices", use_numeric => true,
        classify_source => "classifySource", key_column => "classifyKeyColumn", attr_column => "classifyAttrColumn",
        num_attrs => "numAttrs", dest => "destName");
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_probs_view(text, text, text, text, text, text, text, integer, text) IS
    'create a view (key, class, nb_prob) that trains on trainingSource with Gaussian numeric attributes and gives every class''s probability for each row of classifySource on every query (ad hoc)';

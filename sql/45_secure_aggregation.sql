-- Secure aggregation (issue 20, part 1): owners split their integer statistics
-- into additive shares modulo the prime 2**127 - 1, one table per aggregation
-- server (create_nb_statistics_shares; with epsilon, charged to the owner's
-- ledger); each aggregation server sums its share of every owner, adding one
-- central release's noise to private shares, or with noise => 'once' servers 1
-- and 2 half of one each (create_nb_share_sum); the analyst adds the share sums,
-- decodes them and derives the model (create_nb_model_from_shares).  Remote
-- tables are reached as create_nb_federated_tables reaches owners (postgres_fdw
-- servers, user mappings, dblink).  Same pattern as sql/15_statistics.sql: thin
-- PL/pgSQL wrappers re-raising the errors of one internal PL/Python function each.

-- create_nb_statistics_shares gained noise (who adds a private release's noise): the signatures without it go.
DROP FUNCTION IF EXISTS madnb.create_nb_statistics_shares(text, text, text, integer, text[], float8, float8[], text, float8, integer);
DROP FUNCTION IF EXISTS madnb.create_nb_statistics_shares(text, text, text, text, integer, text[], float8, float8[], text, float8, integer);
DROP FUNCTION IF EXISTS madnb._create_statistics_shares(text, text, text, text, integer, text[], boolean, float8, float8[], text, float8, integer);

CREATE OR REPLACE FUNCTION madnb._create_statistics_shares(
    training_source text,
    training_class_column text,
    training_attr_column text,
    numeric_indices text,
    num_attrs integer,
    share_dests text[],
    use_numeric boolean,
    epsilon float8,
    bounds float8[],
    domain text,
    delta float8,
    owners integer,
    noise text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_statistics_shares(
    plpy, training_source=training_source, training_class_column=training_class_column,
    training_attr_column=training_attr_column, numeric_indices=numeric_indices, num_attrs=num_attrs,
    share_dests=share_dests, use_numeric=use_numeric,
    epsilon=epsilon, bounds=bounds, domain=domain, delta=delta, owners=owners, noise=noise)
$python$;
COMMENT ON FUNCTION madnb._create_statistics_shares(text, text, text, text, integer, text[], boolean, float8, float8[], text, float8, integer, text) IS
    'internal: the PL/Python entry point behind both create_nb_statistics_shares overloads';

CREATE OR REPLACE FUNCTION madnb.create_nb_statistics_shares(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "numAttrs" integer,
    "shareDestNames" text[],
    epsilon float8 DEFAULT NULL,
    bounds float8[] DEFAULT NULL,
    domain text DEFAULT NULL,
    delta float8 DEFAULT NULL,
    owners integer DEFAULT NULL,
    noise text DEFAULT 'each'
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_statistics_shares(
        training_source => "trainingSource", training_class_column => "trainingClassColumn",
        training_attr_column => "trainingAttrColumn", numeric_indices => NULL, num_attrs => "numAttrs",
        share_dests => "shareDestNames", use_numeric => false,
        epsilon => epsilon, bounds => bounds, domain => domain, delta => delta, owners => owners,
        noise => noise);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_statistics_shares(text, text, text, integer, text[], float8, float8[], text, float8, integer, text) IS
    'secure aggregation, owner: the integer statistics of categorical attributes over every cell of the public domain, as one additive share table per aggregation server (modulo 2**127 - 1); with epsilon charged to the source''s budget, the aggregation servers adding the noise: one central release''s each (noise => ''each'', the default) or one in all (noise => ''once'': servers 1 and 2 each hold half of it)';

CREATE OR REPLACE FUNCTION madnb.create_nb_statistics_shares(
    "trainingSource" text,
    "trainingClassColumn" text,
    "trainingAttrColumn" text,
    "numericAttrsColumnIndices" text,
    "numAttrs" integer,
    "shareDestNames" text[],
    epsilon float8 DEFAULT NULL,
    bounds float8[] DEFAULT NULL,
    domain text DEFAULT NULL,
    delta float8 DEFAULT NULL,
    owners integer DEFAULT NULL,
    noise text DEFAULT 'each'
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._create_statistics_shares(
        training_source => "trainingSource", training_class_column => "trainingClassColumn",
        training_attr_column => "trainingAttrColumn", numeric_indices => "numericAttrsColumnIndices",
        num_attrs => "numAttrs", share_dests => "shareDestNames", use_numeric => true,
        epsilon => epsilon, bounds => bounds, domain => domain, delta => delta, owners => owners,
        noise => noise);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_statistics_shares(text, text, text, text, integer, text[], float8, float8[], text, float8, integer, text) IS
    'secure aggregation, owner: the integer statistics with Gaussian attributes (fixed-point sums of values clipped to bounds) over every cell of the public domain, as one additive share table per aggregation server (modulo 2**127 - 1); with epsilon charged to the source''s budget, the aggregation servers adding the noise: one central release''s each (noise => ''each'', the default) or one in all (noise => ''once'': servers 1 and 2 each hold half of it)';

CREATE OR REPLACE FUNCTION madnb._share_sum(
    share_sources text[],
    share_sum_dest text
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_share_sum(plpy, share_sources=share_sources, share_sum_dest=share_sum_dest)
$python$;
COMMENT ON FUNCTION madnb._share_sum(text[], text) IS
    'internal: the PL/Python entry point behind create_nb_share_sum';

CREATE OR REPLACE FUNCTION madnb.create_nb_share_sum(
    "shareSources" text[],
    "shareSumDestName" text
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._share_sum(share_sources => "shareSources", share_sum_dest => "shareSumDestName");
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_share_sum(text[], text) IS
    'secure aggregation, aggregation server: the sum modulo 2**127 - 1 of one share index of every owner (tables here, foreign tables, or server:table over dblink), headers checked, plus its noise for private shares (one central release''s discrete Laplace; with the owners'' noise => ''once'', server 1 adds and server 2 subtracts a one-sided geometric, the others nothing), into a new share-sum table';

CREATE OR REPLACE FUNCTION madnb._model_from_shares(
    share_sum_sources text[],
    feature_probs_dest text,
    numeric_stats_dest text,
    class_priors_dest text,
    smoothing float8
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_model_from_shares(
    plpy, share_sum_sources=share_sum_sources, feature_probs_dest=feature_probs_dest,
    numeric_stats_dest=numeric_stats_dest, class_priors_dest=class_priors_dest, smoothing=smoothing)
$python$;
COMMENT ON FUNCTION madnb._model_from_shares(text[], text, text, text, float8) IS
    'internal: the PL/Python entry point behind create_nb_model_from_shares';

CREATE OR REPLACE FUNCTION madnb.create_nb_model_from_shares(
    "shareSumSources" text[],
    "featureProbsDestName" text,
    "numericFeatureStatsDestName" text,
    "classPriorsDestName" text,
    smoothing float8 DEFAULT 1
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._model_from_shares(
        share_sum_sources => "shareSumSources", feature_probs_dest => "featureProbsDestName",
        numeric_stats_dest => "numericFeatureStatsDestName", class_priors_dest => "classPriorsDestName",
        smoothing => smoothing);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_model_from_shares(text[], text, text, text, float8) IS
    'secure aggregation, analyst: add the share sums of every aggregation server, decode the statistics and derive the feature probabilities, numeric parameters (NULL when nothing is numeric) and class priors tables';

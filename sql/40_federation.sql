-- Federated training (issue 11): owners release statistics on their own servers
-- (madnb.create_nb_statistics), the aggregator merges them.  Servers are the
-- user's postgres_fdw foreign servers and user mappings; madnb reaches them with
-- dblink (contrib) over the same servers and mappings.  The other way in is
-- create_nb_model_from_statistics over foreign tables (IMPORT FOREIGN SCHEMA),
-- whose headers are read on their servers (sql/15_statistics.sql).
-- Same pattern as sql/15_statistics.sql: a thin PL/pgSQL wrapper re-raising the
-- errors of one internal PL/Python function.

CREATE OR REPLACE FUNCTION madnb._federated_tables(
    servers text[],
    remote_statistics text,
    feature_probs_dest text,
    numeric_stats_dest text,
    class_priors_dest text,
    smoothing float8
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.api.create_nb_federated_tables(
    plpy, servers=servers, remote_statistics=remote_statistics, feature_probs_dest=feature_probs_dest,
    numeric_stats_dest=numeric_stats_dest, class_priors_dest=class_priors_dest, smoothing=smoothing)
$python$;
COMMENT ON FUNCTION madnb._federated_tables(text[], text, text, text, text, float8) IS
    'internal: the PL/Python entry point behind create_nb_federated_tables';

CREATE OR REPLACE FUNCTION madnb.create_nb_federated_tables(
    servers text[],
    "remoteStatisticsName" text,
    "featureProbsDestName" text,
    "numericFeatureStatsDestName" text,
    "classPriorsDestName" text,
    smoothing float8 DEFAULT 1
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._federated_tables(
        servers => servers, remote_statistics => "remoteStatisticsName", feature_probs_dest => "featureProbsDestName",
        numeric_stats_dest => "numericFeatureStatsDestName", class_priors_dest => "classPriorsDestName",
        smoothing => smoothing);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.create_nb_federated_tables(text[], text, text, text, text, float8) IS
    'federated training: pull the statistics table "remoteStatisticsName" from every foreign server (over dblink, concurrently), merge the parts and derive the feature probabilities, numeric parameters (NULL when nothing is numeric) and class priors tables';

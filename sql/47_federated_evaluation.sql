-- Federated evaluation (issue 22, point 6): each owner releases the counts behind
-- a named model's metrics on its own labelled rows (madnb.release_evaluation, exact
-- or differentially private, charged to its ledger); the aggregator adds the
-- releases up into madnb.evaluate's metrics of the whole federation
-- (madnb.evaluate_from_releases).  plpython/madnb_pl/models/federated_evaluation.py;
-- docs/federation.md "Federated evaluation".

CREATE OR REPLACE FUNCTION madnb._release_evaluation(
    model text, source text, output_table text, label text, curves boolean, epsilon float8, score_bins integer
) RETURNS pg_catalog.jsonb
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
return madnb_pl.models.federated_evaluation.release_evaluation(
    plpy, model=model, source=source, output_table=output_table, label=label, curves=curves, epsilon=epsilon,
    score_bins=score_bins)
$python$;
COMMENT ON FUNCTION madnb._release_evaluation(text, text, text, text, boolean, float8, integer) IS
    'internal: the PL/Python entry point behind madnb.release_evaluation';

CREATE OR REPLACE FUNCTION madnb.release_evaluation(
    model text,
    source text,
    output_table text,
    label text DEFAULT NULL,
    curves boolean DEFAULT false,
    epsilon float8 DEFAULT NULL,
    score_bins integer DEFAULT NULL
) RETURNS pg_catalog.jsonb
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    RETURN madnb._release_evaluation(
        model => model, source => source, output_table => output_table, label => label, curves => curves,
        epsilon => epsilon, score_bins => score_bins);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.release_evaluation(text, text, text, text, boolean, float8, integer) IS
    'federated evaluation, on an owner''s server: score the labelled rows of source with a named model and store the counts behind madnb.evaluate''s metrics (confusion cells with their log-loss sums, each distinct score''s positives and negatives) in a new table with a header; epsilon => e: differentially private (noisy counts, scores in score_bins bins, charged to source''s ledger); returns the header';

CREATE OR REPLACE FUNCTION madnb._evaluate_from_releases(sources text[], model text, curves boolean) RETURNS pg_catalog.jsonb
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
return madnb_pl.models.federated_evaluation.evaluate_from_releases(plpy, sources=sources, model=model, curves=curves)
$python$;
COMMENT ON FUNCTION madnb._evaluate_from_releases(text[], text, boolean) IS
    'internal: the PL/Python entry point behind madnb.evaluate_from_releases';

CREATE OR REPLACE FUNCTION madnb.evaluate_from_releases(sources text[], model text DEFAULT NULL, curves boolean DEFAULT false)
RETURNS pg_catalog.jsonb
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    RETURN madnb._evaluate_from_releases(sources => sources, model => model, curves => curves);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.evaluate_from_releases(text[], text, boolean) IS
    'federated evaluation, on the aggregator: madnb.evaluate''s metrics of the sum of the evaluation releases in sources (tables, or foreign tables whose headers are read on their servers), each of the same model (model: checked against this named model), each listed once; exact releases give the metrics of the union of the owners'' rows; a private one makes them estimates (see federation.mode)';

-- Exact explanations of named models (issue 22, point 1; docs/explain.md).
--
-- madnb.train writes, next to a model's prediction functions, madnb_models.<model>_explain
-- (row form and column form, as the prediction functions: plpython/madnb_pl/predict/explain.py):
-- an inlined SQL expression that lists, per class, the log prior and each feature's term of the
-- very score the prediction functions add up, and hands them to madnb._nb_explain below, which
-- adds them up in the same order (so the sum is the predict functions' log-score, bit for bit
-- where their body is one expression) and writes the jsonb.  madnb.feature_importance averages
-- the same terms over a table's rows in one SELECT over it, as float8 (no jsonb per row).

-- The runner-up of an explanation: the first class of the largest score but the predicted class's (0 with
-- one class).  madnb._nb_explain and madnb.feature_importance (plpython/madnb_pl/models/importance.py) both
-- call it, so that they name the same class.
CREATE OR REPLACE FUNCTION madnb._nb_runner_up(scores pg_catalog.float8[], best integer) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    v_runner integer := 0;
    i integer;
BEGIN
    FOR i IN 1 .. pg_catalog.array_upper(scores, 1) LOOP
        IF i OPERATOR(pg_catalog.<>) best AND (v_runner OPERATOR(pg_catalog.=) 0 OR scores[i] OPERATOR(pg_catalog.>) scores[v_runner]) THEN
            v_runner := i;
        END IF;
    END LOOP;
    RETURN v_runner;
END
$$;
COMMENT ON FUNCTION madnb._nb_runner_up(float8[], integer) IS
    'internal: position of the first of the largest scores but the one at best (0 with one score): an explanation''s runner-up';

CREATE OR REPLACE FUNCTION madnb._nb_explain(
    prior pg_catalog.float8[], contributions pg_catalog.float8[], features pg_catalog.text[], classes pg_catalog.text[]
) RETURNS pg_catalog.jsonb
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER
AS $$
DECLARE
    k integer := pg_catalog.array_upper(prior, 1);
    f integer := COALESCE(pg_catalog.array_upper(features, 1), 0);
    v_scores pg_catalog.float8[];
    v_s pg_catalog.float8;
    v_max pg_catalog.float8;
    v_sum pg_catalog.float8 := 0;
    v_lse pg_catalog.float8;
    v_best integer;
    v_runner integer;
    v_classes pg_catalog.jsonb;
    v_against pg_catalog.jsonb := '[]'::pg_catalog.jsonb;
    i integer;
    j integer;
BEGIN
    IF k IS NULL THEN  -- a model with no class (an empty private release)
        RETURN pg_catalog.jsonb_build_object('predicted', NULL, 'runner_up', NULL, 'classes', '{}'::pg_catalog.jsonb,
                                             'against_runner_up', '[]'::pg_catalog.jsonb);
    END IF;
    -- each class's score as the prediction functions add it: the prior, then each term in feature order
    FOR i IN 1 .. k LOOP
        v_s := prior[i];
        FOR j IN 1 .. f LOOP
            v_s := v_s OPERATOR(pg_catalog.+) contributions[i][j];
        END LOOP;
        v_scores[i] := v_s;
    END LOOP;
    v_best := madnb._nb_best(v_scores);  -- the predicted class, as <model>_predict picks it
    v_runner := madnb._nb_runner_up(v_scores, v_best);
    -- log-sum-exp as the probabilities are computed (terms below -700 add 0)
    v_max := v_scores[1];
    FOR i IN 2 .. k LOOP
        IF v_scores[i] OPERATOR(pg_catalog.>) v_max THEN
            v_max := v_scores[i];
        END IF;
    END LOOP;
    FOR i IN 1 .. k LOOP
        v_sum := v_sum OPERATOR(pg_catalog.+) CASE WHEN (v_scores[i] OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8
            THEN 0::pg_catalog.float8 ELSE pg_catalog.exp(v_scores[i] OPERATOR(pg_catalog.-) v_max) END;
    END LOOP;
    v_lse := pg_catalog.ln(v_sum);
    -- every class in one query (a query per class costs each row about 70 us a class)
    v_classes := (
        SELECT pg_catalog.jsonb_object_agg(classes[c.i], pg_catalog.jsonb_build_object(
            'prior', prior[c.i],
            'contributions', COALESCE((SELECT pg_catalog.jsonb_object_agg(features[u.j], contributions[c.i][u.j] ORDER BY u.j)
                                       FROM pg_catalog.generate_series(1, f) AS u(j)), '{}'::pg_catalog.jsonb),
            'log_score', v_scores[c.i],
            'log_posterior', (v_scores[c.i] OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse))
        FROM pg_catalog.generate_series(1, k) AS c(i));
    IF v_runner OPERATOR(pg_catalog.>) 0 AND f OPERATOR(pg_catalog.>) 0 THEN
        v_against := (
            SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('feature', features[d.j], 'difference', d.d) ORDER BY d.d DESC, d.j)
            FROM (SELECT u.j, contributions[v_best][u.j] OPERATOR(pg_catalog.-) contributions[v_runner][u.j] AS d
                  FROM pg_catalog.generate_series(1, f) AS u(j)) AS d);
    END IF;
    RETURN pg_catalog.jsonb_build_object(
        'predicted', classes[v_best],
        'runner_up', CASE WHEN v_runner OPERATOR(pg_catalog.>) 0 THEN classes[v_runner] END,
        'classes', v_classes,
        'against_runner_up', v_against);
END
$$;
COMMENT ON FUNCTION madnb._nb_explain(float8[], float8[], text[], text[]) IS
    'internal: a prediction''s explanation (jsonb) from each class''s prior term and features'' terms (a classes x features array), added up in the order the prediction functions add them';

CREATE OR REPLACE FUNCTION madnb._feature_importance(model text, source text)
RETURNS TABLE (feature text, mean_abs_contribution pg_catalog.float8, mean_contribution pg_catalog.float8,
               mean_abs_against_runner_up pg_catalog.float8, rows pg_catalog.int8)
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
return madnb_pl.models.importance.feature_importance(plpy, model=model, source=source)
$python$;
COMMENT ON FUNCTION madnb._feature_importance(text, text) IS 'internal: the PL/Python entry point behind madnb.feature_importance';

CREATE OR REPLACE FUNCTION madnb.feature_importance(model text, source text)
RETURNS TABLE (feature text, mean_abs_contribution pg_catalog.float8, mean_contribution pg_catalog.float8,
               mean_abs_against_runner_up pg_catalog.float8, rows pg_catalog.int8)
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    RETURN QUERY SELECT i.feature, i.mean_abs_contribution, i.mean_contribution, i.mean_abs_against_runner_up, i.rows
    FROM madnb._feature_importance(model => model, source => source) AS i;
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.feature_importance(text, text) IS
    'per feature of a named model, over the rows of a table or view (one pass): the mean absolute and the mean contribution to the predicted class''s log-score, and the mean absolute difference of its contributions to the predicted class and the runner-up, largest first';

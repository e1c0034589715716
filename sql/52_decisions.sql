-- Decisions at query time (issue 22, point 3; docs/decisions.md,
-- plpython/madnb_pl/models/decisions.py): replaced priors, class weights, a cost
-- matrix or a threshold applied to a named model's probabilities, for every
-- kind, without retraining.  madnb.decision checks a decision against a model
-- once (put it in FROM: it reads the model); the per-row functions take it with
-- the probabilities of <model>_predict_proba_array (row or column form), which
-- the planner still inlines.  The model's own functions are unchanged.

CREATE OR REPLACE FUNCTION madnb._decision(model text, priors float8[], class_weights float8[], costs float8[], threshold float8)
RETURNS pg_catalog.jsonb
LANGUAGE plpython3u STABLE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
return madnb_pl.models.decisions.decision(
    plpy, model=model, priors=priors, class_weights=class_weights, costs=costs, threshold=threshold)
$python$;
COMMENT ON FUNCTION madnb._decision(text, float8[], float8[], float8[], float8) IS 'internal: the PL/Python entry point behind madnb.decision';

CREATE OR REPLACE FUNCTION madnb.decision(
    model text,
    priors float8[] DEFAULT NULL,
    class_weights float8[] DEFAULT NULL,
    costs float8[] DEFAULT NULL,
    threshold float8 DEFAULT NULL
) RETURNS pg_catalog.jsonb
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    RETURN madnb._decision(model => model, priors => priors, class_weights => class_weights, costs => costs, threshold => threshold);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.decision(text, float8[], float8[], float8[], float8) IS
    'a decision for a named model, checked against it, for madnb.decide, decide_proba and decide_proba_array: priors (replacing the class priors), class_weights (multiplying the probabilities), costs (costs[i][j]: predicting class j for a row of class i; the class of least expected cost) or, for two classes, a threshold on the positive class''s (the second of madnb.model_classes) probability; classes in the order of madnb.model_classes';

-- Per row: the probabilities under the decision's priors and weights, from the
-- model's: log-scores recovered as ln p (a class of probability 0 stays at 0),
-- moved by the decision's shift, and madnb._nb_proba's log-sum-exp.  Up to 3
-- classes written out (once per row, each PL/pgSQL statement costs).
CREATE OR REPLACE FUNCTION madnb.decide_proba_array(decision pg_catalog.jsonb, proba pg_catalog.float8[]) RETURNS pg_catalog.float8[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    v_k integer := (decision OPERATOR(pg_catalog.->>) 'k'::pg_catalog.text)::pg_catalog.int4;
    v_shift pg_catalog.float8[] := (decision OPERATOR(pg_catalog.->>) '_shift'::pg_catalog.text)::pg_catalog.float8[];
    v_q pg_catalog.float8[];
    v_n integer := pg_catalog.cardinality(proba);
    i integer;
BEGIN
    IF v_n OPERATOR(pg_catalog.<>) v_k THEN
        RAISE EXCEPTION 'the decision is for a model of % classes, but the probabilities are of %', v_k, v_n
            USING ERRCODE = '22023', HINT = 'give the probabilities of the decision''s model''s <model>_predict_proba_array';
    END IF;
    IF v_shift IS NULL THEN
        RETURN proba;
    END IF;
    IF v_k OPERATOR(pg_catalog.=) 2 THEN
        v_q := ARRAY[
            CASE WHEN proba[1] OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND v_shift[1] OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.float8
                 THEN pg_catalog.ln(proba[1]) OPERATOR(pg_catalog.+) v_shift[1] ELSE '-Infinity'::pg_catalog.float8 END,
            CASE WHEN proba[2] OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND v_shift[2] OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.float8
                 THEN pg_catalog.ln(proba[2]) OPERATOR(pg_catalog.+) v_shift[2] ELSE '-Infinity'::pg_catalog.float8 END];
    ELSIF v_k OPERATOR(pg_catalog.=) 3 THEN
        v_q := ARRAY[
            CASE WHEN proba[1] OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND v_shift[1] OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.float8
                 THEN pg_catalog.ln(proba[1]) OPERATOR(pg_catalog.+) v_shift[1] ELSE '-Infinity'::pg_catalog.float8 END,
            CASE WHEN proba[2] OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND v_shift[2] OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.float8
                 THEN pg_catalog.ln(proba[2]) OPERATOR(pg_catalog.+) v_shift[2] ELSE '-Infinity'::pg_catalog.float8 END,
            CASE WHEN proba[3] OPERATOR(pg_catalog.>) 0::pg_catalog.float8 AND v_shift[3] OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.float8
                 THEN pg_catalog.ln(proba[3]) OPERATOR(pg_catalog.+) v_shift[3] ELSE '-Infinity'::pg_catalog.float8 END];
    ELSE
        FOR i IN 1 .. v_k LOOP
            v_q[i] := CASE WHEN proba[i] OPERATOR(pg_catalog.>) 0::pg_catalog.float8
                             AND v_shift[i] OPERATOR(pg_catalog.>) '-Infinity'::pg_catalog.float8
                           THEN pg_catalog.ln(proba[i]) OPERATOR(pg_catalog.+) v_shift[i] ELSE '-Infinity'::pg_catalog.float8 END;
        END LOOP;
    END IF;
    -- every class of a positive probability has prior (or weight) 0: no probabilities (log-sum-exp of -inf only)
    RETURN CASE WHEN '-Infinity'::pg_catalog.float8 OPERATOR(pg_catalog.=) ALL (v_q) THEN NULL ELSE madnb._nb_proba(v_q) END;
END
$$;
COMMENT ON FUNCTION madnb.decide_proba_array(pg_catalog.jsonb, pg_catalog.float8[]) IS
    'the class probabilities of a row under a madnb.decision''s priors and class weights, from the model''s <model>_predict_proba_array, in the order of madnb.model_classes';

-- Per row: the decided class's position, from the probabilities decide_proba_array gives.
CREATE OR REPLACE FUNCTION madnb._nb_decide(decision pg_catalog.jsonb, proba pg_catalog.float8[]) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    v_threshold pg_catalog.float8 := (decision OPERATOR(pg_catalog.->>) 'threshold'::pg_catalog.text)::pg_catalog.float8;
    v_costs pg_catalog.float8[];
    v_k integer := pg_catalog.cardinality(proba);
    v_best integer := 1;
    v_least pg_catalog.float8;
    v_cost pg_catalog.float8;
    i integer;
    j integer;
BEGIN
    IF v_threshold IS NOT NULL THEN
        RETURN CASE WHEN proba[2] OPERATOR(pg_catalog.>=) v_threshold THEN 2 ELSE 1 END;
    END IF;
    v_costs := (decision OPERATOR(pg_catalog.->>) '_costs'::pg_catalog.text)::pg_catalog.float8[];
    IF v_costs IS NOT NULL THEN
        FOR j IN 1 .. v_k LOOP
            v_cost := 0;
            FOR i IN 1 .. v_k LOOP
                v_cost := v_cost OPERATOR(pg_catalog.+) (proba[i] OPERATOR(pg_catalog.*) v_costs[i][j]);
            END LOOP;
            IF v_least IS NULL OR v_cost OPERATOR(pg_catalog.<) v_least THEN
                v_least := v_cost;
                v_best := j;
            END IF;
        END LOOP;
        RETURN v_best;
    END IF;
    IF v_k OPERATOR(pg_catalog.=) 2 THEN
        RETURN CASE WHEN proba[2] OPERATOR(pg_catalog.>) proba[1] THEN 2 ELSE 1 END;
    END IF;
    FOR i IN 2 .. v_k LOOP
        IF proba[i] OPERATOR(pg_catalog.>) proba[v_best] THEN
            v_best := i;
        END IF;
    END LOOP;
    RETURN v_best;
END
$$;
COMMENT ON FUNCTION madnb._nb_decide(pg_catalog.jsonb, pg_catalog.float8[]) IS
    'internal: the position of the class a madnb.decision decides from probabilities of madnb.decide_proba_array: the second at or above its threshold, else the least expected cost (costs[true][predicted]), else the first largest';

CREATE OR REPLACE FUNCTION madnb.decide(decision pg_catalog.jsonb, proba pg_catalog.float8[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
AS $$SELECT (decision OPERATOR(pg_catalog.->) 'classes'::pg_catalog.text) OPERATOR(pg_catalog.->>)
    (madnb._nb_decide(decision, madnb.decide_proba_array(decision, proba)) OPERATOR(pg_catalog.-) 1)$$;
COMMENT ON FUNCTION madnb.decide(pg_catalog.jsonb, pg_catalog.float8[]) IS
    'the class a madnb.decision predicts for a row (as text, as madnb.model_classes writes it), from the model''s <model>_predict_proba_array: the positive class at or above the threshold, the class of least expected cost, or the first most probable';

CREATE OR REPLACE FUNCTION madnb.decide_proba(decision pg_catalog.jsonb, proba pg_catalog.float8[]) RETURNS pg_catalog.jsonb
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    v_p pg_catalog.float8[] := madnb.decide_proba_array(decision, proba);
    v_out pg_catalog.jsonb := '{}'::pg_catalog.jsonb;
    i integer;
BEGIN
    IF v_p IS NULL THEN
        RETURN NULL;
    END IF;
    IF pg_catalog.cardinality(v_p) OPERATOR(pg_catalog.>) 16 THEN
        -- each || copies the object: quadratic in the classes; one aggregate is linear (as madnb._nb_proba_jsonb)
        RETURN (SELECT pg_catalog.jsonb_object_agg(u.c, u.p)
                FROM ROWS FROM (pg_catalog.jsonb_array_elements_text(decision OPERATOR(pg_catalog.->) 'classes'::pg_catalog.text),
                                pg_catalog.unnest(v_p)) AS u(c, p));
    END IF;
    FOR i IN 1 .. pg_catalog.cardinality(v_p) LOOP
        v_out := v_out OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(
            (decision OPERATOR(pg_catalog.->) 'classes'::pg_catalog.text) OPERATOR(pg_catalog.->>) (i OPERATOR(pg_catalog.-) 1), v_p[i]);
    END LOOP;
    RETURN v_out;
END
$$;
COMMENT ON FUNCTION madnb.decide_proba(pg_catalog.jsonb, pg_catalog.float8[]) IS
    'the class probabilities of a row under a madnb.decision''s priors and class weights as jsonb {class: probability}, from the model''s <model>_predict_proba_array';

-- madnb.threshold_curve: a two-class model's precision, recall and cost at every
-- distinct threshold, in one pass (plpython/madnb_pl/models/thresholds.py).
CREATE OR REPLACE FUNCTION madnb._threshold_curve(model text, source text, label text, costs float8[])
RETURNS TABLE (threshold float8, true_positives bigint, false_positives bigint, false_negatives bigint, true_negatives bigint,
               "precision" float8, recall float8, cost float8)
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
return madnb_pl.models.thresholds.threshold_curve(plpy, model=model, source=source, label=label, costs=costs)
$python$;
COMMENT ON FUNCTION madnb._threshold_curve(text, text, text, float8[]) IS 'internal: the PL/Python entry point behind madnb.threshold_curve';

CREATE OR REPLACE FUNCTION madnb.threshold_curve(model text, source text, label text DEFAULT NULL, costs float8[] DEFAULT NULL)
RETURNS TABLE (threshold float8, true_positives bigint, false_positives bigint, false_negatives bigint, true_negatives bigint,
               "precision" float8, recall float8, cost float8)
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    RETURN QUERY SELECT * FROM madnb._threshold_curve(model => model, source => source, label => label, costs => costs);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.threshold_curve(text, text, text, float8[]) IS
    'a two-class named model on the labelled rows of a table or view (label NULL: the model''s label column): at every distinct probability of the positive class (the second of madnb.model_classes), ascending, the counts, precision and recall of predicting it at or above that threshold, and the mean cost per row (costs[i][j]: predicting class j for a row of class i; default 0 right, 1 wrong: the error rate), in one pass';

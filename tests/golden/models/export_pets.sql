-- Model "pets_nb" (kind naive_bayes), exported by madnb <version> (madnb.model_sql).
-- Trained on public.pets (45 rows), label "species", 3 classes, 5 features.
-- Needs nothing of madnb: run it in one transaction (psql -1 -f FILE) in any PostgreSQL database
-- where schema "analytics" exists.  It creates (or replaces) these functions; to drop them:
-- DROP FUNCTION
--   "analytics"."pets_scores_best"(pg_catalog.float8[]),
--   "analytics"."pets_scores_best"(pg_catalog.float8, pg_catalog.float8),
--   "analytics"."pets_scores_best"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8),
--   "analytics"."pets_scores_best"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8),
--   "analytics"."pets_scores_proba"(pg_catalog.float8[]),
--   "analytics"."pets_scores_proba"(pg_catalog.float8, pg_catalog.float8),
--   "analytics"."pets_scores_proba"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8),
--   "analytics"."pets_scores_proba"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8),
--   "analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8[]),
--   "analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8),
--   "analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8),
--   "analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8),
--   "analytics"."pets_scores_proba_jsonb"(pg_catalog.float8[], pg_catalog.text[]),
--   "analytics"."pets_explain_runner_up"(pg_catalog.float8[], pg_catalog.int4),
--   "analytics"."pets_explain_helper"(pg_catalog.float8[], pg_catalog.float8[], pg_catalog.text[], pg_catalog.text[]),
--   "analytics"."pets_predict"(pg_catalog.anyelement),
--   "analytics"."pets_predict_proba"(pg_catalog.anyelement),
--   "analytics"."pets_predict_proba_array"(pg_catalog.anyelement),
--   "analytics"."pets_predict"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric),
--   "analytics"."pets_predict_proba"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric),
--   "analytics"."pets_predict_proba_array"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric),
--   "analytics"."pets_exact_class"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric),
--   "analytics"."pets_share_encoding"(),
--   "analytics"."pets_score_share"(pg_catalog.numeric[]),
--   "analytics"."pets_explain"(pg_catalog.anyelement),
--   "analytics"."pets_explain"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric);

DO $guard$
DECLARE
    v_fn pg_catalog.text;
BEGIN
    FOREACH v_fn IN ARRAY ARRAY[E'"analytics"."pets_scores_best"(pg_catalog.float8[])', E'"analytics"."pets_scores_best"(pg_catalog.float8, pg_catalog.float8)', E'"analytics"."pets_scores_best"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8)', E'"analytics"."pets_scores_best"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8)', E'"analytics"."pets_scores_proba"(pg_catalog.float8[])', E'"analytics"."pets_scores_proba"(pg_catalog.float8, pg_catalog.float8)', E'"analytics"."pets_scores_proba"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8)', E'"analytics"."pets_scores_proba"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8)', E'"analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8[])', E'"analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8)', E'"analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8)', E'"analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8)', E'"analytics"."pets_scores_proba_jsonb"(pg_catalog.float8[], pg_catalog.text[])', E'"analytics"."pets_explain_runner_up"(pg_catalog.float8[], pg_catalog.int4)', E'"analytics"."pets_explain_helper"(pg_catalog.float8[], pg_catalog.float8[], pg_catalog.text[], pg_catalog.text[])', E'"analytics"."pets_predict"(pg_catalog.anyelement)', E'"analytics"."pets_predict_proba"(pg_catalog.anyelement)', E'"analytics"."pets_predict_proba_array"(pg_catalog.anyelement)', E'"analytics"."pets_predict"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric)', E'"analytics"."pets_predict_proba"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric)', E'"analytics"."pets_predict_proba_array"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric)', E'"analytics"."pets_exact_class"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric)', E'"analytics"."pets_share_encoding"()', E'"analytics"."pets_score_share"(pg_catalog.numeric[])', E'"analytics"."pets_explain"(pg_catalog.anyelement)', E'"analytics"."pets_explain"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric)']::pg_catalog.text[] LOOP
        IF pg_catalog.to_regprocedure(v_fn) IS NOT NULL AND NOT COALESCE(pg_catalog.starts_with(
               pg_catalog.obj_description(pg_catalog.to_regprocedure(v_fn), 'pg_proc'), E'export of madnb model "pets_nb":'), false) THEN
            RAISE EXCEPTION 'function % already exists and is not part of the export of model %', v_fn, E'pets_nb'
                USING ERRCODE = '42723',
                      DETAIL = 'the script would replace it: its comment does not say it belongs to this model''s export',
                      HINT = 'drop that function, or export the model under another function_name';
        END IF;
    END LOOP;
END
$guard$;

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_best"(scores pg_catalog.float8[]) RETURNS pg_catalog.int4
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_best pg_catalog.float8 := scores[1];
    v_threshold pg_catalog.float8;
    i integer;
BEGIN
    -- up to 4 classes: the overload of that many scores (the same operations, without the loops)
    IF pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 2 THEN
        RETURN "analytics"."pets_scores_best"(scores[1], scores[2]);
    END IF;
    IF pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 3 THEN
        RETURN "analytics"."pets_scores_best"(scores[1], scores[2], scores[3]);
    END IF;
    IF pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 4 THEN
        RETURN "analytics"."pets_scores_best"(scores[1], scores[2], scores[3], scores[4]);
    END IF;
    FOR i IN 2 .. pg_catalog.array_upper(scores, 1) LOOP
        IF scores[i] OPERATOR(pg_catalog.>) v_best THEN
            v_best := scores[i];
        END IF;
    END LOOP;
    -- the classify view's tie tolerance (scoring.TIE_TOLERANCE): its first class
    v_threshold := v_best OPERATOR(pg_catalog.-) (1e-12::pg_catalog.float8 OPERATOR(pg_catalog.*)
        GREATEST(1::pg_catalog.float8, pg_catalog.abs(v_best)));
    FOR i IN 1 .. pg_catalog.array_upper(scores, 1) LOOP
        IF scores[i] OPERATOR(pg_catalog.>=) v_threshold THEN
            RETURN i;
        END IF;
    END LOOP;
    RETURN 1;
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_best"(pg_catalog.float8[]) IS E'export of madnb model "pets_nb": helper: position of the first score within 1e-12 (relative) of the largest';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_best"(a pg_catalog.float8, b pg_catalog.float8) RETURNS pg_catalog.int4
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_threshold pg_catalog.float8 := GREATEST(a, b) OPERATOR(pg_catalog.-) (1e-12::pg_catalog.float8 OPERATOR(pg_catalog.*) GREATEST(1::pg_catalog.float8, pg_catalog.abs(GREATEST(a, b))));
BEGIN
    RETURN CASE WHEN a OPERATOR(pg_catalog.>=) v_threshold THEN 1 WHEN b OPERATOR(pg_catalog.>=) v_threshold THEN 2 ELSE 1 END;
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_best"(pg_catalog.float8, pg_catalog.float8) IS E'export of madnb model "pets_nb": helper: position of the first score within 1e-12 (relative) of the largest (2 scores one by one)';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_best"(a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8) RETURNS pg_catalog.int4
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_threshold pg_catalog.float8 := GREATEST(a, b, c) OPERATOR(pg_catalog.-) (1e-12::pg_catalog.float8 OPERATOR(pg_catalog.*) GREATEST(1::pg_catalog.float8, pg_catalog.abs(GREATEST(a, b, c))));
BEGIN
    RETURN CASE WHEN a OPERATOR(pg_catalog.>=) v_threshold THEN 1 WHEN b OPERATOR(pg_catalog.>=) v_threshold THEN 2 WHEN c OPERATOR(pg_catalog.>=) v_threshold THEN 3 ELSE 1 END;
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_best"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8) IS E'export of madnb model "pets_nb": helper: position of the first score within 1e-12 (relative) of the largest (3 scores one by one)';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_best"(a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8, d pg_catalog.float8) RETURNS pg_catalog.int4
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_threshold pg_catalog.float8 := GREATEST(a, b, c, d) OPERATOR(pg_catalog.-) (1e-12::pg_catalog.float8 OPERATOR(pg_catalog.*) GREATEST(1::pg_catalog.float8, pg_catalog.abs(GREATEST(a, b, c, d))));
BEGIN
    RETURN CASE WHEN a OPERATOR(pg_catalog.>=) v_threshold THEN 1 WHEN b OPERATOR(pg_catalog.>=) v_threshold THEN 2 WHEN c OPERATOR(pg_catalog.>=) v_threshold THEN 3 WHEN d OPERATOR(pg_catalog.>=) v_threshold THEN 4 ELSE 1 END;
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_best"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8) IS E'export of madnb model "pets_nb": helper: position of the first score within 1e-12 (relative) of the largest (4 scores one by one)';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_proba"(scores pg_catalog.float8[]) RETURNS pg_catalog.float8[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_max pg_catalog.float8 := scores[1];
    v_sum pg_catalog.float8 := 0;
    v_lse pg_catalog.float8;
    v_out pg_catalog.float8[];
    i integer;
    k integer := pg_catalog.array_upper(scores, 1);
BEGIN
    -- log-sum-exp as the probs view: d_i = l_i - max, probability 0 below -700; the sum adds from 0 in
    -- class order.  Up to 4 classes: the overload of that many scores (the same operations, without the loops)
    IF k OPERATOR(pg_catalog.=) 2 THEN
        RETURN "analytics"."pets_scores_proba"(scores[1], scores[2]);
    END IF;
    IF k OPERATOR(pg_catalog.=) 3 THEN
        RETURN "analytics"."pets_scores_proba"(scores[1], scores[2], scores[3]);
    END IF;
    IF k OPERATOR(pg_catalog.=) 4 THEN
        RETURN "analytics"."pets_scores_proba"(scores[1], scores[2], scores[3], scores[4]);
    END IF;
    FOR i IN 2 .. k LOOP
        IF scores[i] OPERATOR(pg_catalog.>) v_max THEN
            v_max := scores[i];
        END IF;
    END LOOP;
    FOR i IN 1 .. k LOOP
        v_sum := v_sum OPERATOR(pg_catalog.+) CASE WHEN (scores[i] OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8
            THEN 0::pg_catalog.float8 ELSE pg_catalog.exp(scores[i] OPERATOR(pg_catalog.-) v_max) END;
    END LOOP;
    v_lse := pg_catalog.ln(v_sum);
    FOR i IN 1 .. k LOOP
        v_out[i] := CASE WHEN (scores[i] OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8
            THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((scores[i] OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse) END;
    END LOOP;
    RETURN v_out;
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_proba"(pg_catalog.float8[]) IS E'export of madnb model "pets_nb": helper: class probabilities from log-likelihoods by log-sum-exp';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_proba"(a pg_catalog.float8, b pg_catalog.float8) RETURNS pg_catalog.float8[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_max pg_catalog.float8 := GREATEST(a, b);
    v_lse pg_catalog.float8 := pg_catalog.ln(0::pg_catalog.float8
        OPERATOR(pg_catalog.+) CASE WHEN (a OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((a OPERATOR(pg_catalog.-) v_max)) END
        OPERATOR(pg_catalog.+) CASE WHEN (b OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((b OPERATOR(pg_catalog.-) v_max)) END);
BEGIN
    RETURN ARRAY[
        CASE WHEN (a OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((a OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse) END,
        CASE WHEN (b OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((b OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse) END];
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_proba"(pg_catalog.float8, pg_catalog.float8) IS E'export of madnb model "pets_nb": helper: class probabilities from log-likelihoods by log-sum-exp (2 scores one by one)';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_proba"(a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8) RETURNS pg_catalog.float8[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_max pg_catalog.float8 := GREATEST(a, b, c);
    v_lse pg_catalog.float8 := pg_catalog.ln(0::pg_catalog.float8
        OPERATOR(pg_catalog.+) CASE WHEN (a OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((a OPERATOR(pg_catalog.-) v_max)) END
        OPERATOR(pg_catalog.+) CASE WHEN (b OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((b OPERATOR(pg_catalog.-) v_max)) END
        OPERATOR(pg_catalog.+) CASE WHEN (c OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((c OPERATOR(pg_catalog.-) v_max)) END);
BEGIN
    RETURN ARRAY[
        CASE WHEN (a OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((a OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse) END,
        CASE WHEN (b OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((b OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse) END,
        CASE WHEN (c OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((c OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse) END];
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_proba"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8) IS E'export of madnb model "pets_nb": helper: class probabilities from log-likelihoods by log-sum-exp (3 scores one by one)';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_proba"(a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8, d pg_catalog.float8) RETURNS pg_catalog.float8[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_max pg_catalog.float8 := GREATEST(a, b, c, d);
    v_lse pg_catalog.float8 := pg_catalog.ln(0::pg_catalog.float8
        OPERATOR(pg_catalog.+) CASE WHEN (a OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((a OPERATOR(pg_catalog.-) v_max)) END
        OPERATOR(pg_catalog.+) CASE WHEN (b OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((b OPERATOR(pg_catalog.-) v_max)) END
        OPERATOR(pg_catalog.+) CASE WHEN (c OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((c OPERATOR(pg_catalog.-) v_max)) END
        OPERATOR(pg_catalog.+) CASE WHEN (d OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((d OPERATOR(pg_catalog.-) v_max)) END);
BEGIN
    RETURN ARRAY[
        CASE WHEN (a OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((a OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse) END,
        CASE WHEN (b OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((b OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse) END,
        CASE WHEN (c OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((c OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse) END,
        CASE WHEN (d OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.<) '-700'::pg_catalog.float8 THEN 0::pg_catalog.float8 ELSE pg_catalog.exp((d OPERATOR(pg_catalog.-) v_max) OPERATOR(pg_catalog.-) v_lse) END];
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_proba"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8) IS E'export of madnb model "pets_nb": helper: class probabilities from log-likelihoods by log-sum-exp (4 scores one by one)';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_clear"(bound pg_catalog.float8, scores pg_catalog.float8[]) RETURNS pg_catalog.int4
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_max pg_catalog.float8 := scores[1];
    v_cut pg_catalog.float8;
    v_at integer;
    i integer;
    k integer := pg_catalog.array_upper(scores, 1);
BEGIN
    -- a clear winner of scores that may all be off by one amount (the generated functions' shifted
    -- scores, generated.clear_bound): the largest, when every other score is more than
    -- 1e-6 * (1 + |largest| + bound) below it; NULL otherwise (a tie or a near one, NaN), and the
    -- caller computes the class from the unshifted scores.  Up to 4 classes: the overload of that many
    IF k OPERATOR(pg_catalog.=) 2 THEN
        RETURN "analytics"."pets_scores_clear"(bound, scores[1], scores[2]);
    END IF;
    IF k OPERATOR(pg_catalog.=) 3 THEN
        RETURN "analytics"."pets_scores_clear"(bound, scores[1], scores[2], scores[3]);
    END IF;
    IF k OPERATOR(pg_catalog.=) 4 THEN
        RETURN "analytics"."pets_scores_clear"(bound, scores[1], scores[2], scores[3], scores[4]);
    END IF;
    FOR i IN 2 .. k LOOP
        v_max := GREATEST(v_max, scores[i]);
    END LOOP;
    v_cut := v_max OPERATOR(pg_catalog.-) (1e-6::pg_catalog.float8 OPERATOR(pg_catalog.*)
        ((1::pg_catalog.float8 OPERATOR(pg_catalog.+) pg_catalog.abs(v_max)) OPERATOR(pg_catalog.+) bound));
    FOR i IN 1 .. k LOOP
        IF scores[i] OPERATOR(pg_catalog.>) v_cut THEN
            IF v_at IS NOT NULL THEN
                RETURN NULL;
            END IF;
            v_at := i;
        END IF;
    END LOOP;
    RETURN v_at;
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8[]) IS E'export of madnb model "pets_nb": helper: position of the largest score when every other is more than 1e-6 * (1 + |largest| + bound) below it, else NULL';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_clear"(bound pg_catalog.float8, a pg_catalog.float8, b pg_catalog.float8) RETURNS pg_catalog.int4
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_cut pg_catalog.float8 := GREATEST(a, b) OPERATOR(pg_catalog.-) (1e-6::pg_catalog.float8 OPERATOR(pg_catalog.*) ((1::pg_catalog.float8 OPERATOR(pg_catalog.+) pg_catalog.abs(GREATEST(a, b))) OPERATOR(pg_catalog.+) bound));
BEGIN
    RETURN CASE
        WHEN a OPERATOR(pg_catalog.>) v_cut THEN CASE WHEN b OPERATOR(pg_catalog.>) v_cut THEN NULL ELSE 1 END
        WHEN b OPERATOR(pg_catalog.>) v_cut THEN 2
    END;
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8) IS E'export of madnb model "pets_nb": helper: position of the largest score when every other is more than 1e-6 * (1 + |largest| + bound) below it, else NULL (2 scores one by one)';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_clear"(bound pg_catalog.float8, a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8) RETURNS pg_catalog.int4
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_cut pg_catalog.float8 := GREATEST(a, b, c) OPERATOR(pg_catalog.-) (1e-6::pg_catalog.float8 OPERATOR(pg_catalog.*) ((1::pg_catalog.float8 OPERATOR(pg_catalog.+) pg_catalog.abs(GREATEST(a, b, c))) OPERATOR(pg_catalog.+) bound));
BEGIN
    RETURN CASE
        WHEN a OPERATOR(pg_catalog.>) v_cut THEN CASE WHEN b OPERATOR(pg_catalog.>) v_cut OR c OPERATOR(pg_catalog.>) v_cut THEN NULL ELSE 1 END
        WHEN b OPERATOR(pg_catalog.>) v_cut THEN CASE WHEN c OPERATOR(pg_catalog.>) v_cut THEN NULL ELSE 2 END
        WHEN c OPERATOR(pg_catalog.>) v_cut THEN 3
    END;
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8) IS E'export of madnb model "pets_nb": helper: position of the largest score when every other is more than 1e-6 * (1 + |largest| + bound) below it, else NULL (3 scores one by one)';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_clear"(bound pg_catalog.float8, a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8, d pg_catalog.float8) RETURNS pg_catalog.int4
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    v_cut pg_catalog.float8 := GREATEST(a, b, c, d) OPERATOR(pg_catalog.-) (1e-6::pg_catalog.float8 OPERATOR(pg_catalog.*) ((1::pg_catalog.float8 OPERATOR(pg_catalog.+) pg_catalog.abs(GREATEST(a, b, c, d))) OPERATOR(pg_catalog.+) bound));
BEGIN
    RETURN CASE
        WHEN a OPERATOR(pg_catalog.>) v_cut THEN CASE WHEN b OPERATOR(pg_catalog.>) v_cut OR c OPERATOR(pg_catalog.>) v_cut OR d OPERATOR(pg_catalog.>) v_cut THEN NULL ELSE 1 END
        WHEN b OPERATOR(pg_catalog.>) v_cut THEN CASE WHEN c OPERATOR(pg_catalog.>) v_cut OR d OPERATOR(pg_catalog.>) v_cut THEN NULL ELSE 2 END
        WHEN c OPERATOR(pg_catalog.>) v_cut THEN CASE WHEN d OPERATOR(pg_catalog.>) v_cut THEN NULL ELSE 3 END
        WHEN d OPERATOR(pg_catalog.>) v_cut THEN 4
    END;
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_clear"(pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8, pg_catalog.float8) IS E'export of madnb model "pets_nb": helper: position of the largest score when every other is more than 1e-6 * (1 + |largest| + bound) below it, else NULL (4 scores one by one)';

CREATE OR REPLACE FUNCTION "analytics"."pets_scores_proba_jsonb"(scores pg_catalog.float8[], classes pg_catalog.text[]) RETURNS pg_catalog.jsonb
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
DECLARE
    -- up to 4 classes the overload of that many scores directly (through the array form: one more call per row)
    -- (a searched CASE: the simple form's = would be resolved on the caller's search_path)
    v_p pg_catalog.float8[] := CASE
        WHEN pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 2 THEN "analytics"."pets_scores_proba"(scores[1], scores[2])
        WHEN pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 3 THEN "analytics"."pets_scores_proba"(scores[1], scores[2], scores[3])
        WHEN pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 4 THEN "analytics"."pets_scores_proba"(scores[1], scores[2], scores[3], scores[4])
        ELSE "analytics"."pets_scores_proba"(scores) END;
    v_out pg_catalog.jsonb := '{}'::pg_catalog.jsonb;
    i integer;
BEGIN
    IF pg_catalog.array_upper(v_p, 1) OPERATOR(pg_catalog.>) 16 THEN
        -- each || copies the object: quadratic in the classes; one aggregate is linear
        RETURN (SELECT pg_catalog.jsonb_object_agg(u.c, u.p) FROM ROWS FROM (pg_catalog.unnest(classes), pg_catalog.unnest(v_p)) AS u(c, p));
    END IF;
    FOR i IN 1 .. pg_catalog.array_upper(v_p, 1) LOOP
        v_out := v_out OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(classes[i], v_p[i]);
    END LOOP;
    RETURN v_out;
END
$body$;

COMMENT ON FUNCTION "analytics"."pets_scores_proba_jsonb"(pg_catalog.float8[], pg_catalog.text[]) IS E'export of madnb model "pets_nb": helper: class probabilities from log-likelihoods as jsonb {class: probability}';

CREATE OR REPLACE FUNCTION "analytics"."pets_explain_runner_up"(scores pg_catalog.float8[], best pg_catalog.int4) RETURNS pg_catalog.int4
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $body$
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
$body$;

COMMENT ON FUNCTION "analytics"."pets_explain_runner_up"(pg_catalog.float8[], pg_catalog.int4) IS E'export of madnb model "pets_nb": helper: an explanation''s runner-up, the first of the largest scores but the predicted class''s';

CREATE OR REPLACE FUNCTION "analytics"."pets_explain_helper"(prior pg_catalog.float8[], contributions pg_catalog.float8[], features pg_catalog.text[], classes pg_catalog.text[]) RETURNS pg_catalog.jsonb
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 100
AS $body$
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
    v_best := "analytics"."pets_scores_best"(v_scores);  -- the predicted class, as <model>_predict picks it
    v_runner := "analytics"."pets_explain_runner_up"(v_scores, v_best);
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
$body$;

COMMENT ON FUNCTION "analytics"."pets_explain_helper"(pg_catalog.float8[], pg_catalog.float8[], pg_catalog.text[], pg_catalog.text[]) IS E'export of madnb model "pets_nb": helper: a prediction''s explanation (jsonb) from each class''s prior and features'' terms';

CREATE OR REPLACE FUNCTION "analytics"."pets_exact_class"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS pg_catalog.int4 LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SECURITY INVOKER COST 1 AS E'BEGIN RETURN ("analytics"."pets_scores_best"(
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-0.8109302162163288,-2.8903717578961645,-0.693147180559945}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.11778303565638337,NULL,-2.8903717578961645,NULL,-2.8903717578961645}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.1050673998975498''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.215951278989814''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.239999999999999''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.2682639865946794,-1.4469189829363256}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8694179138011962''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.27333613679526697''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.8903717578961645,-0.693147180559945,-0.8109302162163288}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-2.8903717578961645,NULL,-0.11778303565638337,NULL,-2.8903717578961645}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.1117677175491734''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.214509173500923''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.220000000000001''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.3483066942682158,-1.2237754316221159}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8148182678187001''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.28867513459481287''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.8903717578961645,-0.11778303565638337,-2.8903717578961645}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-2.8903717578961645,NULL,-2.8903717578961645,NULL,-0.11778303565638337}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.118379432708844''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.21309557824078387''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.2299999999999995''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.3483066942682158,-1.2237754316221159}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8694179138011962''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.27333613679526697''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
)); END';

COMMENT ON FUNCTION "analytics"."pets_exact_class"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric) IS E'export of madnb model "pets_nb": internal, the position of the predicted class among the model''s classes from the unshifted scores, which pets_predict computes so only for a row near a tie';

CREATE OR REPLACE FUNCTION "analytics"."pets_predict"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS pg_catalog.varchar LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT (E''{cat,dog,fish}''::pg_catalog.varchar[])[COALESCE("analytics"."pets_scores_clear"(''44.12994280201519''::pg_catalog.float8, 
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''-2.1050673998975498''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.215951278989814''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.239999999999999''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8694179138011962''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.27333613679526697''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.0794415416798357,2.1972245773362196,-0.11778303565638382}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-2.772588722239781,NULL,2.772588722239781,NULL,0.0}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.1117677175491734''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.214509173500923''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.220000000000001''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08004270767353638,0.2231435513142097}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8148182678187001''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.28867513459481287''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.0794415416798357,2.772588722239781,-2.1972245773362196}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-2.772588722239781,NULL,0.0,NULL,2.772588722239781}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.118379432708844''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.21309557824078387''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.2299999999999995''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08004270767353638,0.2231435513142097}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8694179138011962''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.27333613679526697''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
), "analytics"."pets_exact_class"($1, $2, $3, $4, $5))]';

COMMENT ON FUNCTION "analytics"."pets_predict"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric) IS E'export of madnb model "pets_nb": the predicted class (the first class within 1e-12 of the best log-likelihood, as the classify view''s first class) of the feature values (each NULL, a missing value, unless given)';

CREATE OR REPLACE FUNCTION "analytics"."pets_predict_proba"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "analytics"."pets_scores_proba_jsonb"(ARRAY[
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''-2.1050673998975498''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.215951278989814''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.239999999999999''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8694179138011962''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.27333613679526697''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.0794415416798357,2.1972245773362196,-0.11778303565638382}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-2.772588722239781,NULL,2.772588722239781,NULL,0.0}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.1117677175491734''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.214509173500923''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.220000000000001''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08004270767353638,0.2231435513142097}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8148182678187001''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.28867513459481287''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.0794415416798357,2.772588722239781,-2.1972245773362196}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-2.772588722239781,NULL,0.0,NULL,2.772588722239781}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.118379432708844''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.21309557824078387''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.2299999999999995''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08004270767353638,0.2231435513142097}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8694179138011962''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.27333613679526697''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
], E''{"cat","dog","fish"}''::pg_catalog.text[])';

COMMENT ON FUNCTION "analytics"."pets_predict_proba"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric) IS E'export of madnb model "pets_nb": jsonb {class: probability} of the feature values (each NULL, a missing value, unless given)';

CREATE OR REPLACE FUNCTION "analytics"."pets_predict_proba_array"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS pg_catalog.float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "analytics"."pets_scores_proba"(
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE(''-2.1050673998975498''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.215951278989814''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.239999999999999''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8694179138011962''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.27333613679526697''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.0794415416798357,2.1972245773362196,-0.11778303565638382}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-2.772588722239781,NULL,2.772588722239781,NULL,0.0}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.1117677175491734''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.214509173500923''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.220000000000001''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08004270767353638,0.2231435513142097}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8148182678187001''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.28867513459481287''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8),
 ''-1.0986122886681098''::pg_catalog.float8
  OPERATOR(pg_catalog.+) COALESCE((''{-2.0794415416798357,2.772588722239781,-2.1972245773362196}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-2.772588722239781,NULL,0.0,NULL,2.772588722239781}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-2.118379432708844''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.21309557824078387''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.2299999999999995''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE((''{-0.08004270767353638,0.2231435513142097}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8)
  OPERATOR(pg_catalog.+) COALESCE(''-1.8694179138011962''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.27333613679526697''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)
)';

COMMENT ON FUNCTION "analytics"."pets_predict_proba_array"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric) IS E'export of madnb model "pets_nb": float8[] of class probabilities in the order of the classes {cat,dog,fish} of the feature values (each NULL, a missing value, unless given)';

CREATE OR REPLACE FUNCTION "analytics"."pets_predict"(r anyelement) RETURNS pg_catalog.varchar LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "analytics"."pets_predict"("colour" => ($1)."colour", "legs" => ($1)."legs", "weight" => ($1)."weight", "indoor" => ($1)."indoor", "age" => ($1)."age")';

COMMENT ON FUNCTION "analytics"."pets_predict"(anyelement) IS E'export of madnb model "pets_nb": the predicted class (the first class within 1e-12 of the best log-likelihood, as the classify view''s first class) of a row holding the feature columns';

CREATE OR REPLACE FUNCTION "analytics"."pets_predict_proba"(r anyelement) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "analytics"."pets_predict_proba"("colour" => ($1)."colour", "legs" => ($1)."legs", "weight" => ($1)."weight", "indoor" => ($1)."indoor", "age" => ($1)."age")';

COMMENT ON FUNCTION "analytics"."pets_predict_proba"(anyelement) IS E'export of madnb model "pets_nb": jsonb {class: probability} of a row holding the feature columns';

CREATE OR REPLACE FUNCTION "analytics"."pets_predict_proba_array"(r anyelement) RETURNS pg_catalog.float8[] LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "analytics"."pets_predict_proba_array"("colour" => ($1)."colour", "legs" => ($1)."legs", "weight" => ($1)."weight", "indoor" => ($1)."indoor", "age" => ($1)."age")';

COMMENT ON FUNCTION "analytics"."pets_predict_proba_array"(anyelement) IS E'export of madnb model "pets_nb": float8[] of class probabilities in the order of the classes {cat,dog,fish} of a row holding the feature columns';

CREATE OR REPLACE FUNCTION "analytics"."pets_share_encoding"() RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT E''{"format": 1, "modulus": "10407932194664399081925240327364085538615262247266704805319112350403608059673360298012239441732324184842421613954281007791383566248323464908139906605677320762924129509389220345773183349661583550472959420547689811211693677147548478866962501384438260291732348885311160828538416585028255604666224831890918801847068222203140521026698435488732958028878050869736186900714720710555703168729087", "input_bits": 128, "coefficient_bits": 64, "classes": ["cat", "dog", "fish"], "width": 15, "features": [{"name": "colour", "role": "categorical", "text": "text", "values": ["black", "ginger", "white"]}, {"name": "legs", "role": "categorical", "text": "int4", "values": ["0", "2", "4"]}, {"name": "weight", "role": "gaussian", "window": [-3.2743810756494775e+100, 3.2743810756494775e+100], "scale": 9.548261162545398}, {"name": "indoor", "role": "categorical", "text": "bool", "values": ["false", "true"]}, {"name": "age", "role": "gaussian", "window": [-2.449489742783178e+100, 2.449489742783178e+100], "scale": 7.356180264738498}], "fingerprint": "51cd7b6ed4150026b75dc0efba949c638e5643ef497b989cae14c8667ede25f6", "score_function": ["analytics", "pets_score_share"]}''::pg_catalog.jsonb';

CREATE OR REPLACE FUNCTION "analytics"."pets_score_share"(share pg_catalog.numeric[]) RETURNS pg_catalog.numeric[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER AS E'DECLARE _madnb_p pg_catalog.numeric := ''10407932194664399081925240327364085538615262247266704805319112350403608059673360298012239441732324184842421613954281007791383566248323464908139906605677320762924129509389220345773183349661583550472959420547689811211693677147548478866962501384438260291732348885311160828538416585028255604666224831890918801847068222203140521026698435488732958028878050869736186900714720710555703168729087''::pg_catalog.numeric; BEGIN IF COALESCE(pg_catalog.array_ndims(share), 0) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_lower(share, 1) OPERATOR(pg_catalog.<>) 1 OR pg_catalog.array_length(share, 1) OPERATOR(pg_catalog.<>) ''15''::pg_catalog.int4 OR pg_catalog.array_position(share, NULL) IS NOT NULL THEN RAISE EXCEPTION ''a share of this model is an array of 15 numbers'' USING ERRCODE = ''22023'', DETAIL = pg_catalog.format(''got %s'', pg_catalog.array_dims(share)), HINT = ''private_predict of the madnb Python package encodes and shares rows''; END IF; RETURN ARRAY[pg_catalog.mod(pg_catalog.mod(((((''-20265819725292941312''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) ((''-14959022160180568064''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2]) OPERATOR(pg_catalog.+) (''-53317948095788531712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]))) OPERATOR(pg_catalog.+) (((''-12786308645202649088''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]) OPERATOR(pg_catalog.+) (''-2172713514977910784''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5])) OPERATOR(pg_catalog.+) ((''-53317948095788531712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6]) OPERATOR(pg_catalog.+) (''-53317948095788531712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7])))) OPERATOR(pg_catalog.+) ((((''-72328219205085578484''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) (''102510926370463608909''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9])) OPERATOR(pg_catalog.+) ((''-78429575080100050463''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[10]) OPERATOR(pg_catalog.+) (''-4948597104905101312''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[11]))) OPERATOR(pg_catalog.+) (((''-26690944173618515968''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[12]) OPERATOR(pg_catalog.+) (''-45053630639465961251''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[13])) OPERATOR(pg_catalog.+) ((''56150720567049933433''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[14]) OPERATOR(pg_catalog.+) (''-74579342948893396511''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[15]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p), pg_catalog.mod(pg_catalog.mod(((((''-20265819725292941312''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) ((''-53317948095788531712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2]) OPERATOR(pg_catalog.+) (''-12786308645202649088''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]))) OPERATOR(pg_catalog.+) (((''-14959022160180568064''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]) OPERATOR(pg_catalog.+) (''-53317948095788531712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5])) OPERATOR(pg_catalog.+) ((''-2172713514977910784''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6]) OPERATOR(pg_catalog.+) (''-53317948095788531712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7])))) OPERATOR(pg_catalog.+) ((((''-71794413094488097294''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) (''100822191048632336418''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9])) OPERATOR(pg_catalog.+) ((''-77385579671413849093''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[10]) OPERATOR(pg_catalog.+) (''-6425124448325574656''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[11]))) OPERATOR(pg_catalog.+) (((''-22574672190826614784''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[12]) OPERATOR(pg_catalog.+) (''-58073146891690506803''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[13])) OPERATOR(pg_catalog.+) ((''90465049802469354595''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[14]) OPERATOR(pg_catalog.+) (''-83184651750688802361''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[15]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p), pg_catalog.mod(pg_catalog.mod(((((''-20265819725292941312''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[1]) OPERATOR(pg_catalog.+) ((''-53317948095788531712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[2]) OPERATOR(pg_catalog.+) (''-2172713514977910784''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[3]))) OPERATOR(pg_catalog.+) (((''-53317948095788531712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[4]) OPERATOR(pg_catalog.+) (''-53317948095788531712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[5])) OPERATOR(pg_catalog.+) ((''-53317948095788531712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[6]) OPERATOR(pg_catalog.+) (''-2172713514977910784''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[7])))) OPERATOR(pg_catalog.+) ((((''-71589278544657615597''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[8]) OPERATOR(pg_catalog.+) (''99657716175315980593''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[9])) OPERATOR(pg_catalog.+) ((''-76369012913703203841''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[10]) OPERATOR(pg_catalog.+) (''-6425124448325574656''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[11]))) OPERATOR(pg_catalog.+) (((''-22574672190826614784''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[12]) OPERATOR(pg_catalog.+) (''-65832721665023840712''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[13])) OPERATOR(pg_catalog.+) ((''96704018754363775246''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[14]) OPERATOR(pg_catalog.+) (''-74579342948893396511''::pg_catalog.numeric OPERATOR(pg_catalog.*) share[15]))))), _madnb_p) OPERATOR(pg_catalog.+) _madnb_p, _madnb_p)]; END';

COMMENT ON FUNCTION "analytics"."pets_share_encoding"() IS E'export of madnb model "pets_nb": private prediction, the public encoding of a row for pets_score_share (jsonb: modulus, scales, classes, features and their values, the model''s fingerprint)';

COMMENT ON FUNCTION "analytics"."pets_score_share"(pg_catalog.numeric[]) IS E'export of madnb model "pets_nb": private prediction, one additive share (mod p) of an encoded row -> its share of every class''s log-score, in class order (madnb.private_predict adds the servers'' answers)';

CREATE OR REPLACE FUNCTION "analytics"."pets_explain"("colour" pg_catalog.text DEFAULT NULL, "legs" pg_catalog.int4 DEFAULT NULL, "weight" pg_catalog.float8 DEFAULT NULL, "indoor" pg_catalog.bool DEFAULT NULL, "age" pg_catalog.numeric DEFAULT NULL) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "analytics"."pets_explain_helper"(ARRAY[''-1.0986122886681098''::pg_catalog.float8, ''-1.0986122886681098''::pg_catalog.float8, ''-1.0986122886681098''::pg_catalog.float8], ARRAY[
 ARRAY[COALESCE((''{-0.8109302162163288,-2.8903717578961645,-0.693147180559945}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8), COALESCE((''{-0.11778303565638337,NULL,-2.8903717578961645,NULL,-2.8903717578961645}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8), COALESCE(''-2.1050673998975498''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.215951278989814''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.239999999999999''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8), COALESCE((''{-0.2682639865946794,-1.4469189829363256}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8), COALESCE(''-1.8694179138011962''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.27333613679526697''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''2.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)],
 ARRAY[COALESCE((''{-2.8903717578961645,-0.693147180559945,-0.8109302162163288}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8), COALESCE((''{-2.8903717578961645,NULL,-0.11778303565638337,NULL,-2.8903717578961645}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8), COALESCE(''-2.1117677175491734''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.214509173500923''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.220000000000001''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8), COALESCE((''{-0.3483066942682158,-1.2237754316221159}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8), COALESCE(''-1.8148182678187001''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.28867513459481287''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.0''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)],
 ARRAY[COALESCE((''{-2.8903717578961645,-0.11778303565638337,-2.8903717578961645}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"black": "\\\\u0001", "white": "\\\\u0003", "ginger": "\\\\u0002"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($1)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8), COALESCE((''{-2.8903717578961645,NULL,-2.8903717578961645,NULL,-0.11778303565638337}''::pg_catalog.float8[])[(pg_catalog.int8smaller(pg_catalog.int8larger(($2)::pg_catalog.int8, ''-1''::pg_catalog.int8), ''5''::pg_catalog.int8) OPERATOR(pg_catalog.-) ''-1''::pg_catalog.int8)::pg_catalog.int4], ''0''::pg_catalog.float8), COALESCE(''-2.118379432708844''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.21309557824078387''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($3)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($3)::pg_catalog.float8 END, ''-3.2743810756494775e+100''::pg_catalog.float8), ''3.2743810756494775e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''6.2299999999999995''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8), COALESCE((''{-0.3483066942682158,-1.2237754316221159}''::pg_catalog.float8[])[pg_catalog.ascii(E''{"true": "\\\\u0002", "false": "\\\\u0001"}''::pg_catalog.jsonb OPERATOR(pg_catalog.->>) (($4)::pg_catalog.text COLLATE pg_catalog."C"))], ''0''::pg_catalog.float8), COALESCE(''-1.8694179138011962''::pg_catalog.float8 OPERATOR(pg_catalog.-) ((''0.27333613679526697''::pg_catalog.float8 OPERATOR(pg_catalog.*) (pg_catalog.float8smaller(pg_catalog.float8larger(CASE WHEN ($5)::pg_catalog.float8 OPERATOR(pg_catalog.=) ''NaN''::pg_catalog.float8 THEN NULL ELSE ($5)::pg_catalog.float8 END, ''-2.449489742783178e+100''::pg_catalog.float8), ''2.449489742783178e+100''::pg_catalog.float8) OPERATOR(pg_catalog.-) ''4.769230769230769''::pg_catalog.float8)) OPERATOR(pg_catalog.^) ''2''::pg_catalog.float8), ''0''::pg_catalog.float8)]
], E''{"colour","legs","weight","indoor","age"}''::pg_catalog.text[], E''{"cat","dog","fish"}''::pg_catalog.text[])';

COMMENT ON FUNCTION "analytics"."pets_explain"(pg_catalog.text, pg_catalog.int4, pg_catalog.float8, pg_catalog.bool, pg_catalog.numeric) IS E'export of madnb model "pets_nb": jsonb explanation: per class the log prior and each feature''s contribution to the log-score the prediction functions use (they sum to it), the log-posterior, the predicted class, the runner-up and the features'' differences against it of the feature values (each NULL, a missing value, unless given)';

CREATE OR REPLACE FUNCTION "analytics"."pets_explain"(r anyelement) RETURNS pg_catalog.jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER AS E'SELECT "analytics"."pets_explain"("colour" => ($1)."colour", "legs" => ($1)."legs", "weight" => ($1)."weight", "indoor" => ($1)."indoor", "age" => ($1)."age")';

COMMENT ON FUNCTION "analytics"."pets_explain"(anyelement) IS E'export of madnb model "pets_nb": jsonb explanation: per class the log prior and each feature''s contribution to the log-score the prediction functions use (they sum to it), the log-posterior, the predicted class, the runner-up and the features'' differences against it of a row holding the feature columns';

-- Named models (issue 12): train from ordinary columns, a catalog, predict in any query.
--
-- madnb.train runs the same pipeline as every training (one statistics pass into
-- a statistics table, then derive) and generates per-model prediction functions
-- in schema madnb_models (see docs/models.md and plpython/madnb_pl/predict/generated.py).
-- Same pattern as sql/15_statistics.sql: thin PL/pgSQL wrappers re-raising the
-- errors of one internal PL/Python function each.  The small per-row helpers
-- (_nb_best, _nb_proba, _nb_proba_jsonb) are PL/pgSQL: the generated functions
-- are inlined into the caller's query and call them once per row.

-- madnb.train gained `options` (the kinds' parameters), then `weight` (sample weights)
DROP FUNCTION IF EXISTS madnb.train(text, text, text, text[], text[], text[], float8, boolean, text, float8, jsonb, text, float8);
DROP FUNCTION IF EXISTS madnb._train(text, text, text, text[], text[], text[], float8, boolean, text, float8, jsonb, text, float8);
-- and then `tune` (a grid searched by cross-validation), each alone first: the signatures without both go.
DROP FUNCTION IF EXISTS madnb.train(text, text, text, text[], text[], text[], float8, boolean, text, float8, jsonb, text, float8, jsonb);
DROP FUNCTION IF EXISTS madnb._train(text, text, text, text[], text[], text[], float8, boolean, text, float8, jsonb, text, float8, jsonb);
DROP FUNCTION IF EXISTS madnb.train(text, text, text, text[], text[], text[], float8, boolean, text, float8, jsonb, text, float8, jsonb, text);
DROP FUNCTION IF EXISTS madnb._train(text, text, text, text[], text[], text[], float8, boolean, text, float8, jsonb, text, float8, jsonb, text);
DROP FUNCTION IF EXISTS madnb.train(text, text, text, text[], text[], text[], float8, boolean, text, float8, jsonb, text, float8, jsonb, jsonb);
DROP FUNCTION IF EXISTS madnb._train(text, text, text, text[], text[], text[], float8, boolean, text, float8, jsonb, text, float8, jsonb, jsonb);

CREATE OR REPLACE FUNCTION madnb._train(
    model text,
    source text,
    label text,
    features text[],
    exclude text[],
    categorical text[],
    smoothing float8,
    replace boolean,
    kind text,
    epsilon float8,
    bounds jsonb,
    domain text,
    delta float8,
    options jsonb,
    weight text,
    tune jsonb
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.models.lifecycle.train(
    plpy, model=model, source=source, label=label, features=features, exclude=exclude,
    categorical=categorical, smoothing=smoothing, replace=replace, kind=kind,
    epsilon=epsilon, bounds=bounds, domain=domain, delta=delta, options=options, weight=weight, tune=tune)
$python$;
COMMENT ON FUNCTION madnb._train(text, text, text, text[], text[], text[], float8, boolean, text, float8, jsonb, text, float8, jsonb, text, jsonb) IS
    'internal: the PL/Python entry point behind madnb.train';

CREATE OR REPLACE FUNCTION madnb.train(
    model text,
    source text,
    label text,
    features text[] DEFAULT NULL,
    exclude text[] DEFAULT NULL,
    categorical text[] DEFAULT NULL,
    smoothing float8 DEFAULT 1,
    replace boolean DEFAULT false,
    kind text DEFAULT 'naive_bayes',
    epsilon float8 DEFAULT NULL,
    bounds jsonb DEFAULT NULL,
    domain text DEFAULT NULL,
    delta float8 DEFAULT NULL,
    options jsonb DEFAULT NULL,
    weight text DEFAULT NULL,
    tune jsonb DEFAULT NULL
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._train(
        model => model, source => source, label => label, features => features, exclude => exclude,
        categorical => categorical, smoothing => smoothing, replace => replace, kind => kind,
        epsilon => epsilon, bounds => bounds, domain => domain, delta => delta, options => options, weight => weight, tune => tune);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.train(text, text, text, text[], text[], text[], float8, boolean, text, float8, jsonb, text, float8, jsonb, text, jsonb) IS
    'train a named naive Bayes model from the columns of a table or view (numeric columns Gaussian, text, boolean, date and enum columns categorical; kind gaussian or categorical: scikit-learn''s GaussianNB or CategoricalNB; multinomial, bernoulli, complement: one vector column of counts; their parameters in options; tune: a grid of them, the best by 5-fold cross-validation; epsilon, bounds, domain: differentially private; weight: a column of sample weights); predict with madnb_models.<model>_predict(row)';

-- A named model from released statistics (issue 20): statistics tables (here,
-- foreign tables, server:table over dblink) or the share sums of a secure
-- aggregation, through the same pipeline as madnb.train after its release.
CREATE OR REPLACE FUNCTION madnb._train_from_statistics(
    model text,
    statistics text[],
    features text[],
    label text,
    smoothing float8,
    replace boolean
) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.models.lifecycle.train_from_statistics(
    plpy, model=model, statistics=statistics, features=features, label=label, smoothing=smoothing, replace=replace)
$python$;
COMMENT ON FUNCTION madnb._train_from_statistics(text, text[], text[], text, float8, boolean) IS
    'internal: the PL/Python entry point behind madnb.train_from_statistics';

CREATE OR REPLACE FUNCTION madnb.train_from_statistics(
    model text,
    statistics text[],
    features text[] DEFAULT NULL,
    label text DEFAULT 'class',
    smoothing float8 DEFAULT 1,
    replace boolean DEFAULT false
) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._train_from_statistics(
        model => model, statistics => statistics, features => features, label => label,
        smoothing => smoothing, replace => replace);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.train_from_statistics(text, text[], text[], text, float8, boolean) IS
    'make a named naive Bayes model from released statistics: statistics tables (here, foreign tables, or server:table on federated servers; merged as create_nb_model_from_statistics merges them) or every aggregation server''s share sum (reconstructed as create_nb_model_from_shares does); features name the attribute positions (default attr_1 ..), label the class; predict with madnb_models.<model>_predict(row)';

CREATE OR REPLACE FUNCTION madnb._drop_model(model text, "cascade" boolean) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.models.lifecycle.drop_model(plpy, model=model, cascade=cascade)
$python$;
COMMENT ON FUNCTION madnb._drop_model(text, boolean) IS 'internal: the PL/Python entry point behind madnb.drop_model';

CREATE OR REPLACE FUNCTION madnb.drop_model(model text, "cascade" boolean DEFAULT false) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._drop_model(model => model, "cascade" => "cascade");
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.drop_model(text, boolean) IS
    'drop a named model: exactly the prediction functions, model tables and statistics table its training made, and its catalog entry (fails, naming them, while views use them; cascade => true drops those too)';

CREATE OR REPLACE FUNCTION madnb.model_classes(model text) RETURNS text[]
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_parts text[];
    v_classes text[];
BEGIN
    IF model IS NULL THEN
        RAISE EXCEPTION 'model must not be NULL' USING ERRCODE = '22004';
    END IF;
    v_parts := pg_catalog.parse_ident(model);
    IF pg_catalog.cardinality(v_parts) > 2 THEN
        RAISE EXCEPTION 'invalid model: % is not a model name', pg_catalog.quote_literal(model)
            USING ERRCODE = '42602', HINT = 'a model name is one identifier, or schema.identifier';
    END IF;
    IF pg_catalog.cardinality(v_parts) = 1 THEN
        v_parts := ARRAY['madnb_models', v_parts[1]];
    END IF;
    SELECT m.classes INTO v_classes FROM madnb._models AS m WHERE m.schema_name = v_parts[1] AND m.name = v_parts[2];
    IF NOT FOUND THEN
        RAISE EXCEPTION 'model "%" does not exist', model USING ERRCODE = '42704', HINT = 'madnb.models lists the models';
    END IF;
    RETURN v_classes;
END
$$;
COMMENT ON FUNCTION madnb.model_classes(text) IS
    'the classes of a named model as text, in the order of <model>_predict_proba_array';

-- Per-row helpers of the generated prediction functions.  Scores are
-- log-likelihoods; none is NULL.
-- Up to 4 classes the generated functions pass the scores one by one (an array
-- to build and read costs per row): these overloads, which the array forms call.
CREATE OR REPLACE FUNCTION madnb._nb_best(a pg_catalog.float8, b pg_catalog.float8) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    v_threshold pg_catalog.float8 := GREATEST(a, b) OPERATOR(pg_catalog.-) (1e-12::pg_catalog.float8 OPERATOR(pg_catalog.*) GREATEST(1::pg_catalog.float8, pg_catalog.abs(GREATEST(a, b))));
BEGIN
    RETURN CASE WHEN a OPERATOR(pg_catalog.>=) v_threshold THEN 1 WHEN b OPERATOR(pg_catalog.>=) v_threshold THEN 2 ELSE 1 END;
END
$$;
COMMENT ON FUNCTION madnb._nb_best(float8, float8) IS
    'internal: madnb._nb_best of 2 scores given one by one (no array to build and read per row)';

CREATE OR REPLACE FUNCTION madnb._nb_proba(a pg_catalog.float8, b pg_catalog.float8) RETURNS pg_catalog.float8[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
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
$$;
COMMENT ON FUNCTION madnb._nb_proba(float8, float8) IS
    'internal: madnb._nb_proba of 2 scores given one by one (no array to build and read per row)';

CREATE OR REPLACE FUNCTION madnb._nb_clear(bound pg_catalog.float8, a pg_catalog.float8, b pg_catalog.float8) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    v_cut pg_catalog.float8 := GREATEST(a, b) OPERATOR(pg_catalog.-) (1e-6::pg_catalog.float8 OPERATOR(pg_catalog.*) ((1::pg_catalog.float8 OPERATOR(pg_catalog.+) pg_catalog.abs(GREATEST(a, b))) OPERATOR(pg_catalog.+) bound));
BEGIN
    RETURN CASE
        WHEN a OPERATOR(pg_catalog.>) v_cut THEN CASE WHEN b OPERATOR(pg_catalog.>) v_cut THEN NULL ELSE 1 END
        WHEN b OPERATOR(pg_catalog.>) v_cut THEN 2
    END;
END
$$;
COMMENT ON FUNCTION madnb._nb_clear(float8, float8, float8) IS
    'internal: madnb._nb_clear of 2 scores given one by one';

CREATE OR REPLACE FUNCTION madnb._nb_best(a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    v_threshold pg_catalog.float8 := GREATEST(a, b, c) OPERATOR(pg_catalog.-) (1e-12::pg_catalog.float8 OPERATOR(pg_catalog.*) GREATEST(1::pg_catalog.float8, pg_catalog.abs(GREATEST(a, b, c))));
BEGIN
    RETURN CASE WHEN a OPERATOR(pg_catalog.>=) v_threshold THEN 1 WHEN b OPERATOR(pg_catalog.>=) v_threshold THEN 2 WHEN c OPERATOR(pg_catalog.>=) v_threshold THEN 3 ELSE 1 END;
END
$$;
COMMENT ON FUNCTION madnb._nb_best(float8, float8, float8) IS
    'internal: madnb._nb_best of 3 scores given one by one (no array to build and read per row)';

CREATE OR REPLACE FUNCTION madnb._nb_proba(a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8) RETURNS pg_catalog.float8[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
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
$$;
COMMENT ON FUNCTION madnb._nb_proba(float8, float8, float8) IS
    'internal: madnb._nb_proba of 3 scores given one by one (no array to build and read per row)';

CREATE OR REPLACE FUNCTION madnb._nb_clear(bound pg_catalog.float8, a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    v_cut pg_catalog.float8 := GREATEST(a, b, c) OPERATOR(pg_catalog.-) (1e-6::pg_catalog.float8 OPERATOR(pg_catalog.*) ((1::pg_catalog.float8 OPERATOR(pg_catalog.+) pg_catalog.abs(GREATEST(a, b, c))) OPERATOR(pg_catalog.+) bound));
BEGIN
    RETURN CASE
        WHEN a OPERATOR(pg_catalog.>) v_cut THEN CASE WHEN b OPERATOR(pg_catalog.>) v_cut OR c OPERATOR(pg_catalog.>) v_cut THEN NULL ELSE 1 END
        WHEN b OPERATOR(pg_catalog.>) v_cut THEN CASE WHEN c OPERATOR(pg_catalog.>) v_cut THEN NULL ELSE 2 END
        WHEN c OPERATOR(pg_catalog.>) v_cut THEN 3
    END;
END
$$;
COMMENT ON FUNCTION madnb._nb_clear(float8, float8, float8, float8) IS
    'internal: madnb._nb_clear of 3 scores given one by one';

CREATE OR REPLACE FUNCTION madnb._nb_best(a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8, d pg_catalog.float8) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    v_threshold pg_catalog.float8 := GREATEST(a, b, c, d) OPERATOR(pg_catalog.-) (1e-12::pg_catalog.float8 OPERATOR(pg_catalog.*) GREATEST(1::pg_catalog.float8, pg_catalog.abs(GREATEST(a, b, c, d))));
BEGIN
    RETURN CASE WHEN a OPERATOR(pg_catalog.>=) v_threshold THEN 1 WHEN b OPERATOR(pg_catalog.>=) v_threshold THEN 2 WHEN c OPERATOR(pg_catalog.>=) v_threshold THEN 3 WHEN d OPERATOR(pg_catalog.>=) v_threshold THEN 4 ELSE 1 END;
END
$$;
COMMENT ON FUNCTION madnb._nb_best(float8, float8, float8, float8) IS
    'internal: madnb._nb_best of 4 scores given one by one (no array to build and read per row)';

CREATE OR REPLACE FUNCTION madnb._nb_proba(a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8, d pg_catalog.float8) RETURNS pg_catalog.float8[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
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
$$;
COMMENT ON FUNCTION madnb._nb_proba(float8, float8, float8, float8) IS
    'internal: madnb._nb_proba of 4 scores given one by one (no array to build and read per row)';

CREATE OR REPLACE FUNCTION madnb._nb_clear(bound pg_catalog.float8, a pg_catalog.float8, b pg_catalog.float8, c pg_catalog.float8, d pg_catalog.float8) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
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
$$;
COMMENT ON FUNCTION madnb._nb_clear(float8, float8, float8, float8, float8) IS
    'internal: madnb._nb_clear of 4 scores given one by one';

CREATE OR REPLACE FUNCTION madnb._nb_best(scores pg_catalog.float8[]) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    v_best pg_catalog.float8 := scores[1];
    v_threshold pg_catalog.float8;
    i integer;
BEGIN
    -- up to 4 classes: the overload of that many scores (the same operations, without the loops)
    IF pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 2 THEN
        RETURN madnb._nb_best(scores[1], scores[2]);
    END IF;
    IF pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 3 THEN
        RETURN madnb._nb_best(scores[1], scores[2], scores[3]);
    END IF;
    IF pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 4 THEN
        RETURN madnb._nb_best(scores[1], scores[2], scores[3], scores[4]);
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
$$;
COMMENT ON FUNCTION madnb._nb_best(float8[]) IS
    'internal: position of the first score within 1e-12 (relative) of the largest, as the classify view picks its first class';

CREATE OR REPLACE FUNCTION madnb._nb_proba(scores pg_catalog.float8[]) RETURNS pg_catalog.float8[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
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
        RETURN madnb._nb_proba(scores[1], scores[2]);
    END IF;
    IF k OPERATOR(pg_catalog.=) 3 THEN
        RETURN madnb._nb_proba(scores[1], scores[2], scores[3]);
    END IF;
    IF k OPERATOR(pg_catalog.=) 4 THEN
        RETURN madnb._nb_proba(scores[1], scores[2], scores[3], scores[4]);
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
$$;
COMMENT ON FUNCTION madnb._nb_proba(float8[]) IS
    'internal: class probabilities from log-likelihoods by log-sum-exp, as the probs view computes them';

CREATE OR REPLACE FUNCTION madnb._nb_clear(bound pg_catalog.float8, scores pg_catalog.float8[]) RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
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
        RETURN madnb._nb_clear(bound, scores[1], scores[2]);
    END IF;
    IF k OPERATOR(pg_catalog.=) 3 THEN
        RETURN madnb._nb_clear(bound, scores[1], scores[2], scores[3]);
    END IF;
    IF k OPERATOR(pg_catalog.=) 4 THEN
        RETURN madnb._nb_clear(bound, scores[1], scores[2], scores[3], scores[4]);
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
$$;
COMMENT ON FUNCTION madnb._nb_clear(float8, float8[]) IS
    'internal: the position of the largest score when every other is more than 1e-6 * (1 + |largest| + bound) below it, else NULL: <model>_predict reads its class off shifted scores so, and computes it from the unshifted ones otherwise';

CREATE OR REPLACE FUNCTION madnb._nb_proba_jsonb(scores pg_catalog.float8[], classes pg_catalog.text[]) RETURNS pg_catalog.jsonb
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER COST 1
AS $$
DECLARE
    -- up to 4 classes the overload of that many scores directly (through the array form: one more call per row)
    -- (a searched CASE: the simple form's = would be resolved on the caller's search_path)
    v_p pg_catalog.float8[] := CASE
        WHEN pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 2 THEN madnb._nb_proba(scores[1], scores[2])
        WHEN pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 3 THEN madnb._nb_proba(scores[1], scores[2], scores[3])
        WHEN pg_catalog.array_upper(scores, 1) OPERATOR(pg_catalog.=) 4 THEN madnb._nb_proba(scores[1], scores[2], scores[3], scores[4])
        ELSE madnb._nb_proba(scores) END;
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
$$;
COMMENT ON FUNCTION madnb._nb_proba_jsonb(float8[], text[]) IS
    'internal: class probabilities from log-likelihoods as jsonb {class: probability}';

CREATE OR REPLACE VIEW madnb.models AS
SELECT CASE WHEN m.schema_name OPERATOR(pg_catalog.=) 'madnb_models' THEN m.name
            ELSE pg_catalog.format('%I.%I', m.schema_name, m.name) END AS name,
       m.kind,
       m.source,
       m.label,
       m.label_type,
       m.features,
       m.classes,
       m.training_rows,
       m.smoothing,
       CASE WHEN m.privacy IS NULL THEN 'exact' ELSE 'private' END AS privacy,
       (m.privacy OPERATOR(pg_catalog.->>) 'epsilon')::float8 AS epsilon,
       (m.privacy OPERATOR(pg_catalog.->>) 'delta')::float8 AS delta,
       (m.privacy OPERATOR(pg_catalog.->>) 'release_id')::bigint AS release_id,
       pg_catalog.format('%I.%I', m.schema_name, m.name OPERATOR(pg_catalog.||) '_predict') AS predict_function,
       m.statistics,
       m.created_at,
       m.created_by,
       m.owner,
       (SELECT COALESCE(pg_catalog.sum(pg_catalog.pg_total_relation_size(r.oid)), 0)::bigint
          FROM (SELECT pg_catalog.to_regclass(t.t) FROM pg_catalog.unnest(m.tables) AS t(t)
                UNION ALL SELECT pg_catalog.to_regclass(m.statistics)) AS r(oid)
         WHERE r.oid IS NOT NULL) AS size,
       m.parameters,
       m.schema_name,
       m.weight,
       m.version,
       pg_catalog.format('%I.%I', m.schema_name, m.name OPERATOR(pg_catalog.||) '_explain') AS explain_function
FROM madnb._models AS m;
COMMENT ON VIEW madnb.models IS
    'one row per named model (madnb.train, madnb.train_from_statistics): what it was trained on, its classes, privacy, owner and size';
COMMENT ON COLUMN madnb.models.name IS 'the model''s name as madnb.train was given it: one identifier (objects in schema madnb_models) or schema.identifier';
COMMENT ON COLUMN madnb.models.schema_name IS 'the schema of the model''s prediction functions and tables';
COMMENT ON COLUMN madnb.models.kind IS 'the kind of naive Bayes: naive_bayes (Gaussian numeric and categorical features, as MADlib''s), gaussian or categorical (scikit-learn''s GaussianNB, CategoricalNB), or multinomial, bernoulli, complement (one vector column of counts, as scikit-learn''s MultinomialNB, BernoulliNB, ComplementNB)';
COMMENT ON COLUMN madnb.models.source IS 'the table or view it was trained from, as schema.name when trained; for madnb.train_from_statistics the statistics tables or share sums it was made from, as given';
COMMENT ON COLUMN madnb.models.label IS 'the label column';
COMMENT ON COLUMN madnb.models.label_type IS 'the label''s type: what <model>_predict returns';
COMMENT ON COLUMN madnb.models.features IS 'the features in order: [{name, role (gaussian or categorical; counts or binary for the vector kinds), type}]';
COMMENT ON COLUMN madnb.models.classes IS 'the classes as text, in the order of <model>_predict_proba_array';
COMMENT ON COLUMN madnb.models.training_rows IS 'labelled rows it was trained on';
COMMENT ON COLUMN madnb.models.smoothing IS 'the Laplace smoothing factor of categorical features (alpha for kind categorical and the vector kinds; unused by kind gaussian)';
COMMENT ON COLUMN madnb.models.privacy IS 'exact, or private (then epsilon, delta and the ledger''s release_id)';
COMMENT ON COLUMN madnb.models.epsilon IS 'private models: the total epsilon of the release';
COMMENT ON COLUMN madnb.models.delta IS 'private models: delta of the release';
COMMENT ON COLUMN madnb.models.release_id IS 'private models: the release in madnb.privacy_ledger';
COMMENT ON COLUMN madnb.models.predict_function IS 'the generated prediction function (also _predict_proba and _predict_proba_array)';
COMMENT ON COLUMN madnb.models.statistics IS 'the statistics table the model was derived from (merge it with others, add to it)';
COMMENT ON COLUMN madnb.models.created_at IS 'when it was trained';
COMMENT ON COLUMN madnb.models.created_by IS 'the session user who trained it';
COMMENT ON COLUMN madnb.models.owner IS 'the role that owns its objects (it and its members may replace or drop it)';
COMMENT ON COLUMN madnb.models.size IS 'bytes of its model tables and statistics table';
COMMENT ON COLUMN madnb.models.weight IS 'the column of sample weights it was trained with (madnb.train''s weight: every count and sum weighted, as scikit-learn''s sample_weight), NULL when unweighted';
COMMENT ON COLUMN madnb.models.parameters IS 'the kind''s parameters given in madnb.train''s options (scikit-learn''s names), NULL when none; the vector kinds list all of theirs as used (alpha, fit_prior, class_prior, binarize, norm)';

COMMENT ON COLUMN madnb.models.explain_function IS 'the generated explanation function (docs/explain.md): each feature''s contribution to each class''s log-score';
COMMENT ON COLUMN madnb.models.version IS 'its current version: each train, replace, update, forget and rollback makes one (madnb.model_versions lists them)';

REVOKE ALL ON madnb._models FROM PUBLIC;

-- madnb.evaluate: a named model's metrics on a labelled table, in one pass over
-- it (plpython/madnb_pl/models/evaluate.py; docs/models.md "Evaluating a model").
DROP FUNCTION IF EXISTS madnb.evaluate(text, text, text);
DROP FUNCTION IF EXISTS madnb._evaluate(text, text, text);
-- madnb.evaluate gained the decisions at query time (priors, class_weights, costs, threshold): the old signature goes.
DROP FUNCTION IF EXISTS madnb.evaluate(text, text, text, boolean);
DROP FUNCTION IF EXISTS madnb._evaluate(text, text, text, boolean);
CREATE OR REPLACE FUNCTION madnb._evaluate(
    model text, source text, label text, curves boolean, priors float8[], class_weights float8[], costs float8[], threshold float8
) RETURNS pg_catalog.jsonb
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
return madnb_pl.models.evaluate.evaluate(
    plpy, model=model, source=source, label=label, curves=curves,
    priors=priors, class_weights=class_weights, costs=costs, threshold=threshold)
$python$;
COMMENT ON FUNCTION madnb._evaluate(text, text, text, boolean, float8[], float8[], float8[], float8) IS 'internal: the PL/Python entry point behind madnb.evaluate';

CREATE OR REPLACE FUNCTION madnb.evaluate(
    model text, source text, label text DEFAULT NULL, curves boolean DEFAULT false,
    priors float8[] DEFAULT NULL, class_weights float8[] DEFAULT NULL, costs float8[] DEFAULT NULL, threshold float8 DEFAULT NULL
) RETURNS pg_catalog.jsonb
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    RETURN madnb._evaluate(model => model, source => source, label => label, curves => curves,
                           priors => priors, class_weights => class_weights, costs => costs, threshold => threshold);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.evaluate(text, text, text, boolean, float8[], float8[], float8[], float8) IS
    'metrics of a named model on the labelled rows of a table or view (label NULL: the model''s label column), named as scikit-learn''s: accuracy, balanced_accuracy, precision, recall, f1, support, confusion_matrix, log_loss, roc_auc (two classes; more with curves), as jsonb; curves => true adds each class''s one-vs-rest AUC and the ROC, precision-recall and calibration curves; priors, class_weights, costs, threshold: scored under that decision, as madnb.decide (with costs: total_cost and expected_cost)';

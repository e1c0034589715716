-- Cross-validation (issue 12): madnb.fold, the documented fold assignment, and
-- madnb.cross_validate, k-fold cross-validation of madnb.train's model with one
-- statistics pass over the source, for every kind (plpython/madnb_pl/models/cross_validation.py; docs/models.md
-- "Cross-validation").  Same pattern as sql/50_models.sql: a thin PL/pgSQL wrapper
-- re-raising the errors of one internal PL/Python function.

CREATE OR REPLACE FUNCTION madnb._fold_error(folds integer, seed integer) RETURNS integer
LANGUAGE plpgsql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF folds IS NULL OR seed IS NULL THEN
        RAISE EXCEPTION 'folds and seed must not be NULL' USING ERRCODE = '22004';
    END IF;
    RAISE EXCEPTION 'folds must be at least 1, got %', folds
        USING ERRCODE = '22023', HINT = 'madnb.fold(key, folds, seed) is a number from 1 to folds';
END
$$;
COMMENT ON FUNCTION madnb._fold_error(integer, integer) IS 'internal: the error of madnb.fold for folds < 1 or a NULL folds or seed';

-- A LANGUAGE sql function whose body is one expression: PostgreSQL inlines it into
-- the calling query (no call per row).  The formula, to recompute it elsewhere:
-- fold = int(md5(str(seed) + ':' + key)[0:8], 16) % folds + 1 (md5 of the text's bytes in the database encoding).
CREATE OR REPLACE FUNCTION madnb.fold(key text, folds integer, seed integer DEFAULT 0) RETURNS integer
LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE SECURITY INVOKER
AS $$
SELECT CASE WHEN folds OPERATOR(pg_catalog.>=) 1 AND seed IS NOT NULL
    THEN ((('x' OPERATOR(pg_catalog.||) pg_catalog.substr(pg_catalog.md5(seed::pg_catalog.text OPERATOR(pg_catalog.||) ':'
              OPERATOR(pg_catalog.||) key), 1, 8))::pg_catalog.bit(32)::pg_catalog.int8
          OPERATOR(pg_catalog.%) folds::pg_catalog.int8) OPERATOR(pg_catalog.+) 1)::pg_catalog.int4
    ELSE madnb._fold_error(folds, seed) END
$$;
COMMENT ON FUNCTION madnb.fold(text, integer, integer) IS
    'the cross-validation fold (1 to folds) of a row with this key: int(md5(seed || '':'' || key)[0:8], 16) % folds + 1, as madnb.cross_validate assigns folds; NULL for a NULL key';

CREATE OR REPLACE FUNCTION madnb.fold(key bigint, folds integer, seed integer DEFAULT 0) RETURNS integer
LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE SECURITY INVOKER
AS $$
SELECT madnb.fold(key::pg_catalog.text, folds, seed)
$$;
COMMENT ON FUNCTION madnb.fold(bigint, integer, integer) IS
    'the cross-validation fold (1 to folds) of an integer key: madnb.fold(key::text, folds, seed)';

-- Its scoring query computes each row's scores, their largest and their log-sum-exp once, in levels of
-- their own (and private training from columns each row's fixed-point codes): a subquery whose select
-- list calls a VOLATILE function is not flattened into the level above (which would compute the value
-- once per reference), and these are PARALLEL SAFE (the level stays in the parallel workers, unlike
-- OFFSET 0) and LANGUAGE sql: inlined once the level is planned.
CREATE OR REPLACE FUNCTION madnb._once(x pg_catalog.float8[]) RETURNS pg_catalog.float8[]
LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL SAFE SECURITY INVOKER
AS $$ SELECT x $$;
COMMENT ON FUNCTION madnb._once(float8[]) IS 'internal: x, computed once in its query level (madnb.cross_validate''s scoring query)';

CREATE OR REPLACE FUNCTION madnb._once(x pg_catalog.float8) RETURNS pg_catalog.float8
LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL SAFE SECURITY INVOKER
AS $$ SELECT x $$;
COMMENT ON FUNCTION madnb._once(float8) IS 'internal: x, computed once in its query level (madnb.cross_validate''s scoring query, the fixed-point codes of private training from columns)';

CREATE OR REPLACE FUNCTION madnb._once(x pg_catalog.int4) RETURNS pg_catalog.int4
LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL SAFE SECURITY INVOKER
AS $$ SELECT x $$;
COMMENT ON FUNCTION madnb._once(int4) IS 'internal: x, computed once in its query level (madnb.cross_validate''s scoring query: a row''s fold, a categorical value''s slot)';

-- The per-fold statistics pass computes every Gaussian feature's count, mean and variance in each grouping
-- set of its categorical counts (release/column_pass.py, stats_select), so one scan computes each row's
-- fold once: one aggregate per feature instead of count, avg and var_samp.  Its state is theirs
-- (float8_accum's {N, Sx, Sxx}, the combine function theirs): count = N, avg = Sx / N, var_samp =
-- Sxx / (N - 1), the numbers avg and var_samp return.  Built-in functions only, fixed when created.
CREATE OR REPLACE AGGREGATE madnb._moments(pg_catalog.float8) (
    SFUNC = pg_catalog.float8_accum, STYPE = pg_catalog.float8[], INITCOND = '{0,0,0}',
    COMBINEFUNC = pg_catalog.float8_combine, PARALLEL = SAFE
);
COMMENT ON AGGREGATE madnb._moments(pg_catalog.float8) IS
    'internal: {N, Sx, Sxx} of the non-NULL values, the state of avg and var_samp (N the count, Sx / N the mean, Sxx / (N - 1) the sample variance): madnb.cross_validate''s per-fold Gaussian cells';

-- cross_validate gained kind and options: the old signatures go.
DROP FUNCTION IF EXISTS madnb.cross_validate(text, text, text[], integer, integer, text[], text[], float8, text);
DROP FUNCTION IF EXISTS madnb._cross_validate(text, text, text[], integer, integer, text[], text[], float8, text);
-- cross_validate gained grid (and the parameters column): the signatures without it go.
DROP FUNCTION IF EXISTS madnb.cross_validate(text, text, text[], integer, integer, text[], text[], float8, text, text, jsonb);
DROP FUNCTION IF EXISTS madnb._cross_validate(text, text, text[], integer, integer, text[], text[], float8, text, text, jsonb);
-- cross_validate gained weight (madnb.train's sample weights): the signatures without it go.
DROP FUNCTION IF EXISTS madnb.cross_validate(text, text, text[], integer, integer, text[], text[], float8, text, text, jsonb, jsonb);
DROP FUNCTION IF EXISTS madnb._cross_validate(text, text, text[], integer, integer, text[], text[], float8, text, text, jsonb, jsonb);

CREATE OR REPLACE FUNCTION madnb._cross_validate(
    source text,
    label text,
    features text[],
    folds integer,
    seed integer,
    exclude text[],
    categorical text[],
    smoothing float8,
    key text,
    kind text,
    options jsonb,
    grid jsonb,
    weight text
) RETURNS TABLE (fold text, metrics pg_catalog.jsonb, parameters pg_catalog.jsonb)
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
return madnb_pl.models.cross_validation.cross_validate(
    plpy, source=source, label=label, features=features, folds=folds, seed=seed, exclude=exclude,
    categorical=categorical, smoothing=smoothing, key=key, kind=kind, options=options, grid=grid, weight=weight)
$python$;
COMMENT ON FUNCTION madnb._cross_validate(text, text, text[], integer, integer, text[], text[], float8, text, text, jsonb, jsonb, text) IS
    'internal: the PL/Python entry point behind madnb.cross_validate';

CREATE OR REPLACE FUNCTION madnb.cross_validate(
    source text,
    label text,
    features text[] DEFAULT NULL,
    folds integer DEFAULT 5,
    seed integer DEFAULT 0,
    exclude text[] DEFAULT NULL,
    categorical text[] DEFAULT NULL,
    smoothing float8 DEFAULT 1,
    key text DEFAULT NULL,
    kind text DEFAULT 'naive_bayes',
    options jsonb DEFAULT NULL,
    grid jsonb DEFAULT NULL,
    weight text DEFAULT NULL
) RETURNS TABLE (fold text, metrics pg_catalog.jsonb, parameters pg_catalog.jsonb)
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    RETURN QUERY SELECT c.fold, c.metrics, c.parameters FROM madnb._cross_validate(
        source => source, label => label, features => features, folds => folds, seed => seed, exclude => exclude,
        categorical => categorical, smoothing => smoothing, key => key, kind => kind, options => options, grid => grid,
        weight => weight) AS c;
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.cross_validate(text, text, text[], integer, integer, text[], text[], float8, text, text, jsonb, jsonb, text) IS
    'k-fold cross-validation of madnb.train''s model (any kind) in the database with one statistics pass: one row per fold (1 to folds, its rows as madnb.fold(key, folds, seed) assigns them) with madnb.evaluate''s metrics of the model trained on the other folds, then a row ''mean''; with grid (jsonb {parameter: [values]}) those rows for every point, its parameters in column parameters, then a row ''best'' (highest mean accuracy), all from one statistics pass and one scoring pass; with weight (madnb.train''s sample weights) each fold''s model is weighted and the metrics count rows (scikit-learn''s cross_validate with fit params sample_weight); writes nothing';

-- Differential privacy: the noise primitive, budgets and their status.
-- The ledger and budget tables are created by migrations/0002_privacy.sql.
-- Private training itself is create_nb_prepared_data_tables(..., epsilon => ...).

CREATE OR REPLACE FUNCTION madnb._dp_laplace(value numeric, sensitivity numeric, epsilon float8) RETURNS numeric
LANGUAGE plpython3u VOLATILE STRICT PARALLEL RESTRICTED SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $python$
#@madnb-prelude
return madnb_pl.dp.laplace(plpy, value, sensitivity, epsilon)
$python$;
COMMENT ON FUNCTION madnb._dp_laplace(numeric, numeric, float8) IS
    'internal: the PL/Python sampler behind madnb.dp_laplace (which validates its arguments first)';

-- Validates in PL/pgSQL (so an error is a plain PostgreSQL error, never a Python
-- traceback), then draws in PL/Python; no exception block: no subtransaction per cell.
CREATE OR REPLACE FUNCTION madnb.dp_laplace(value numeric, sensitivity numeric, epsilon float8) RETURNS numeric
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- the message never contains value
    IF value IN ('NaN', 'Infinity', '-Infinity') OR value <> trunc(value) THEN
        RAISE EXCEPTION 'value must be an integer'
            USING ERRCODE = '22023', HINT = 'noise is added to counts and fixed-point sums';
    END IF;
    IF sensitivity IN ('NaN', 'Infinity', '-Infinity') OR sensitivity <> trunc(sensitivity) THEN
        RAISE EXCEPTION 'sensitivity must be an integer'
            USING ERRCODE = '22023', HINT = 'noise is added to counts and fixed-point sums';
    END IF;
    IF sensitivity <= 0 THEN
        RAISE EXCEPTION 'sensitivity must be positive'
            USING ERRCODE = '22023', HINT = 'the most one row can change the value, e.g. 1 for a count';
    END IF;
    IF NOT (epsilon > 0 AND epsilon < 'Infinity'::float8) THEN
        RAISE EXCEPTION 'epsilon must be a positive finite number'
            USING ERRCODE = '22023', HINT = 'the privacy budget of this one released number';
    END IF;
    RETURN madnb._dp_laplace(value, sensitivity, epsilon);
END
$$;
COMMENT ON FUNCTION madnb.dp_laplace(numeric, numeric, float8) IS
    'integer value plus exact discrete Laplace noise, P(x) proportional to exp(-epsilon |x| / sensitivity), from the OS CSPRNG; apply it once per released cell to a finished aggregate, e.g. dp_laplace(count(*), 1, 0.5)';

CREATE OR REPLACE FUNCTION madnb.set_privacy_budget(source regclass, total_epsilon numeric) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_name text;
    v_seq text;
    v_spent bigint;
BEGIN
    IF source IS NULL THEN
        RAISE EXCEPTION 'source must not be NULL' USING ERRCODE = '22004';
    END IF;
    IF total_epsilon IS NULL OR NOT (total_epsilon > 0 AND total_epsilon <= 1000000) THEN
        RAISE EXCEPTION 'total_epsilon must be above 0 and at most 1000000, got %', total_epsilon
            USING ERRCODE = '22023',
                  HINT = 'the budget is the total epsilon that all differentially private releases from this source may spend';
    END IF;
    SELECT n.nspname || '.' || c.relname INTO v_name
    FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
    WHERE c.oid = source;
    v_seq := 'privacy_spent_' || source::oid::text;
    IF pg_catalog.to_regclass(pg_catalog.format('madnb.%I', v_seq)) IS NULL THEN
        -- OWNED BY: dropping madnb (or its budget table) drops the spent counters too
        EXECUTE pg_catalog.format(
            'CREATE SEQUENCE madnb.%I AS bigint MINVALUE 0 NO CYCLE OWNED BY madnb.privacy_budget.spent_sequence', v_seq);
        EXECUTE pg_catalog.format('COMMENT ON SEQUENCE madnb.%I IS %L', v_seq,
            'epsilon spent on ' || v_name || ' in units of 1e-12 (see madnb.privacy_budget)');
        -- Releases recorded before the budget was set count against it.
        SELECT COALESCE(pg_catalog.sum(pg_catalog.ceil(l.epsilon * 1000000000000)), 0)::bigint INTO v_spent
        FROM madnb.privacy_ledger AS l WHERE l.source_oid = source::oid;
        PERFORM pg_catalog.setval(pg_catalog.format('madnb.%I', v_seq)::regclass, v_spent, true);
    END IF;
    INSERT INTO madnb.privacy_budget AS b (source_oid, source_name, total_epsilon, spent_sequence)
    VALUES (source::oid, v_name, total_epsilon, pg_catalog.format('madnb.%I', v_seq)::regclass)
    ON CONFLICT (source_oid) DO UPDATE
        SET total_epsilon = EXCLUDED.total_epsilon, source_name = EXCLUDED.source_name,
            set_at = pg_catalog.now(), set_by = CURRENT_USER;
END
$$;
COMMENT ON FUNCTION madnb.set_privacy_budget(regclass, numeric) IS
    'set (or change) the total epsilon that differentially private training from this source may spend; releases already in the ledger count against it';

CREATE OR REPLACE VIEW madnb.privacy_budget_status AS
SELECT b.source_oid,
       b.source_name,
       b.total_epsilon,
       pg_catalog.trim_scale(s.spent / 1000000000000) AS spent_epsilon,
       pg_catalog.trim_scale(GREATEST(b.total_epsilon - s.spent / 1000000000000, 0)) AS remaining_epsilon,
       COALESCE(l.releases, 0) AS releases,
       pg_catalog.trim_scale((s.spent - COALESCE(l.recorded, 0)) / 1000000000000) AS unrecorded_epsilon
FROM madnb.privacy_budget AS b
CROSS JOIN LATERAL (
    SELECT COALESCE(pg_catalog.pg_sequence_last_value(b.spent_sequence), 0)::numeric AS spent
) AS s
LEFT JOIN (
    SELECT x.source_oid, pg_catalog.count(*) AS releases,
           pg_catalog.sum(pg_catalog.ceil(x.epsilon * 1000000000000)) AS recorded
    FROM madnb.privacy_ledger AS x GROUP BY x.source_oid
) AS l ON l.source_oid = b.source_oid;
COMMENT ON VIEW madnb.privacy_budget_status IS
    'per budgeted source: total, spent (rollback-proof), remaining, releases in the ledger, and epsilon spent by releases whose callers rolled back (unrecorded)';

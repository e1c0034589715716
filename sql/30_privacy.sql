-- Differential privacy: the noise primitive, the accounting functions, roles,
-- and the views of the ledger and budgets.
--
-- The privacy state lives in schema madnb_privacy (migrations/0003_privacy_state.sql):
-- the ledger, the budgets and one spent counter per source, keyed by schema and
-- table name.  Users have no privilege on it.  Only two SECURITY DEFINER
-- functions write it, each under a transaction-level advisory lock per source
-- taken before it reads anything, so a release in flight and a budget being set
-- are serialised: madnb.record_private_release (every release; EXECUTE given by
-- grant_usage) and madnb.set_privacy_budget (admin roles only).
-- Private training itself is create_nb_prepared_data_tables(..., epsilon => ...).

CREATE OR REPLACE FUNCTION madnb._dp_laplace(value numeric, sensitivity numeric, epsilon float8) RETURNS numeric
LANGUAGE plpython3u VOLATILE STRICT PARALLEL RESTRICTED SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $python$
#@madnb-prelude
return madnb_pl.privacy.noise.laplace(plpy, value, sensitivity, epsilon)
$python$;
COMMENT ON FUNCTION madnb._dp_laplace(numeric, numeric, float8) IS
    'internal: the PL/Python sampler behind madnb.dp_laplace (which validates its arguments first); madnb''s own statements, run from PL/Python, call it directly (in a session that has not loaded madnb''s Python it fails inside a parallel query: call madnb.dp_laplace)';

-- The release's noise: every released number of one kind (counts, sums, sums of squares) in one
-- call, so that a large domain costs one PL/Python call per kind, not per cell.
CREATE OR REPLACE FUNCTION madnb._dp_laplace_array(vals numeric[], sensitivity numeric, epsilon float8) RETURNS numeric[]
LANGUAGE plpython3u VOLATILE STRICT PARALLEL RESTRICTED SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $python$
#@madnb-prelude
return madnb_pl.privacy.noise.laplace_array(plpy, vals, sensitivity, epsilon)
$python$;
COMMENT ON FUNCTION madnb._dp_laplace_array(numeric[], numeric, float8) IS
    'internal: each integer of vals plus its own exact discrete Laplace noise (as madnb.dp_laplace), in order; the private release draws all its numbers of one sensitivity in one call (from PL/Python, which has loaded madnb''s Python: in a session that has not, it fails inside a parallel query)';

-- Validates in PL/pgSQL (so an error is a plain PostgreSQL error, never a Python
-- traceback), then draws in PL/Python; no exception block: no subtransaction per cell.
-- PARALLEL UNSAFE: a query that calls it runs without parallel workers.  In a session that has not yet
-- loaded madnb's Python, the first call loads it through plpy.execute, whose subtransaction a parallel
-- operation refuses ("cannot start subtransactions during a parallel operation"), so a RESTRICTED call
-- in a parallel query's leader failed in a fresh session.  madnb's own statements call madnb._dp_laplace
-- (RESTRICTED: their scans keep their workers) from PL/Python, which has loaded it.
CREATE OR REPLACE FUNCTION madnb.dp_laplace(value numeric, sensitivity numeric, epsilon float8) RETURNS numeric
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY INVOKER
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

CREATE OR REPLACE FUNCTION madnb._privacy_counter(schema_name name, table_name name) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
SELECT 'spent_' || pg_catalog.left(pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
    pg_catalog.length(schema_name)::text || ':' || schema_name || table_name, 'UTF8')), 'hex'), 40)
$$;
COMMENT ON FUNCTION madnb._privacy_counter(name, name) IS
    'internal: name of the sequence in schema madnb_privacy that holds the epsilon spent on a source (a hash of its schema and table name)';

CREATE OR REPLACE FUNCTION madnb._privacy_spent(schema_name name, table_name name) RETURNS bigint
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_seq regclass := pg_catalog.to_regclass(
        pg_catalog.format('madnb_privacy.%I', madnb._privacy_counter(schema_name, table_name)));
BEGIN
    IF v_seq IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN COALESCE(pg_catalog.pg_sequence_last_value(v_seq), 0);
END
$$;
COMMENT ON FUNCTION madnb._privacy_spent(name, name) IS
    'internal: epsilon spent on a source in units of 1e-12 (rollback-proof), NULL if nothing was ever charged to it; read-only';

CREATE OR REPLACE FUNCTION madnb._privacy_lock_source(source regclass, OUT schema_name name, OUT table_name name)
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    SELECT n.nspname, c.relname INTO schema_name, table_name
    FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
    WHERE c.oid = source;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'relation with OID % does not exist', source::oid USING ERRCODE = '42P01';
    END IF;
    -- held until the transaction ends: charges and budget changes for one source
    -- run one at a time, and each sees what the previous one committed or spent
    PERFORM pg_catalog.pg_advisory_xact_lock(1835098222,
        pg_catalog.hashtext(pg_catalog.length(schema_name)::text || ':' || schema_name || table_name));
END
$$;
COMMENT ON FUNCTION madnb._privacy_lock_source(regclass) IS
    'internal: schema and table name of a source, after taking its transaction-level advisory lock (serialises charges and budget changes per source)';

CREATE OR REPLACE FUNCTION madnb._privacy_ensure_counter(schema_name name, table_name name) RETURNS regclass
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_name text := madnb._privacy_counter(schema_name, table_name);
    v_seq regclass := pg_catalog.to_regclass(pg_catalog.format('madnb_privacy.%I', v_name));
    v_spent numeric;
BEGIN
    IF v_seq IS NOT NULL THEN
        RETURN v_seq;
    END IF;
    EXECUTE pg_catalog.format('CREATE SEQUENCE madnb_privacy.%I AS bigint MINVALUE 0 START 0 NO CYCLE', v_name);
    EXECUTE pg_catalog.format('COMMENT ON SEQUENCE madnb_privacy.%I IS %L', v_name,
        'epsilon spent on ' || schema_name || '.' || table_name || ' in units of 1e-12 (see madnb.privacy_budget_status)');
    v_seq := pg_catalog.format('madnb_privacy.%I', v_name)::regclass;
    -- releases recorded before the counter existed (e.g. restored without it) count
    SELECT pg_catalog.sum(pg_catalog.ceil(l.epsilon * 1000000000000)) INTO v_spent
    FROM madnb_privacy.ledger AS l
    WHERE l.schema_name = _privacy_ensure_counter.schema_name AND l.table_name = _privacy_ensure_counter.table_name;
    IF v_spent > 0 THEN
        PERFORM pg_catalog.setval(v_seq, LEAST(v_spent, 9223372036854775807)::bigint, true);
    END IF;
    RETURN v_seq;
END
$$;
COMMENT ON FUNCTION madnb._privacy_ensure_counter(name, name) IS
    'internal: the spent counter of a source, created (and started at what the ledger records) if missing';

CREATE OR REPLACE FUNCTION madnb.record_private_release(source regclass, epsilon numeric, parameters jsonb) RETURNS bigint
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_key record;
    v_seq regclass;
    v_spent bigint;
    v_cost numeric;
    v_total numeric;
    v_limit numeric;
    v_id bigint;
BEGIN
    IF source IS NULL THEN
        RAISE EXCEPTION 'source must not be NULL' USING ERRCODE = '22004';
    END IF;
    IF epsilon IS NULL OR epsilon = 'NaN' OR NOT epsilon > 0 THEN
        RAISE EXCEPTION 'epsilon must be a positive number, got %', epsilon
            USING ERRCODE = '22023', HINT = 'a release only ever adds to what a source has spent';
    END IF;
    IF parameters IS NULL OR pg_catalog.jsonb_typeof(parameters) <> 'object' THEN
        RAISE EXCEPTION 'parameters must be a json object' USING ERRCODE = '22023';
    END IF;
    IF NOT (pg_catalog.has_table_privilege(SESSION_USER, source, 'SELECT')
            OR pg_catalog.has_any_column_privilege(SESSION_USER, source, 'SELECT')) THEN
        RAISE EXCEPTION 'permission denied to record a release from %', source
            USING ERRCODE = '42501',
                  DETAIL = pg_catalog.format('role %s may not read %s', SESSION_USER, source),
                  HINT = 'a release is charged to a source only by a role that can read it';
    END IF;
    v_key := madnb._privacy_lock_source(source);
    v_seq := madnb._privacy_ensure_counter(v_key.schema_name, v_key.table_name);
    v_spent := COALESCE(pg_catalog.pg_sequence_last_value(v_seq), 0);
    v_cost := pg_catalog.ceil(epsilon * 1000000000000);
    SELECT b.total_epsilon INTO v_total FROM madnb_privacy.budget AS b
    WHERE b.schema_name = v_key.schema_name AND b.table_name = v_key.table_name;
    IF v_total IS NOT NULL THEN
        v_limit := pg_catalog.floor(v_total * 1000000000000);
        IF v_spent + v_cost > v_limit THEN
            RAISE EXCEPTION 'the privacy budget of %.% would be exceeded', v_key.schema_name, v_key.table_name
                USING ERRCODE = '53400',
                      DETAIL = pg_catalog.format('this release needs epsilon %s; the budget is %s, of which %s is left',
                          pg_catalog.trim_scale(epsilon), v_total,
                          pg_catalog.trim_scale(GREATEST(v_limit - v_spent, 0) / 1000000000000)),
                      HINT = 'train with a smaller epsilon, or ask an administrator to raise the budget with madnb.set_privacy_budget()';
        END IF;
    END IF;
    -- setval is not undone by ROLLBACK: the charge stays even if the caller rolls back.
    -- Saturates: a budget is at most 1e6 (1e18 units), so a full counter exceeds every budget.
    PERFORM pg_catalog.setval(v_seq, LEAST(v_spent + v_cost, 9223372036854775807)::bigint, true);
    INSERT INTO madnb_privacy.ledger (schema_name, table_name, epsilon, mechanism, parameters, released_by)
    VALUES (v_key.schema_name, v_key.table_name, epsilon, 'discrete laplace (two-sided geometric)', parameters, SESSION_USER)
    RETURNING release_id INTO v_id;
    RETURN v_id;
END
$$;
COMMENT ON FUNCTION madnb.record_private_release(regclass, numeric, jsonb) IS
    'charge a differentially private release of epsilon to its source (53400 if that would exceed the budget) and record it in the ledger as the session user; called by private training before any noise is drawn; can only add';

CREATE OR REPLACE FUNCTION madnb.set_privacy_budget(source regclass, total_epsilon numeric) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_key record;
BEGIN
    IF source IS NULL THEN
        RAISE EXCEPTION 'source must not be NULL' USING ERRCODE = '22004';
    END IF;
    IF total_epsilon IS NULL OR NOT (total_epsilon > 0 AND total_epsilon <= 1000000) THEN
        RAISE EXCEPTION 'total_epsilon must be above 0 and at most 1000000, got %', total_epsilon
            USING ERRCODE = '22023',
                  HINT = 'the budget is the total epsilon that all differentially private releases from this source may spend';
    END IF;
    v_key := madnb._privacy_lock_source(source);
    -- a counter created now starts at what the ledger records
    PERFORM madnb._privacy_ensure_counter(v_key.schema_name, v_key.table_name);
    INSERT INTO madnb_privacy.budget AS b (schema_name, table_name, total_epsilon, set_at, set_by)
    VALUES (v_key.schema_name, v_key.table_name, total_epsilon, pg_catalog.now(), SESSION_USER)
    ON CONFLICT (schema_name, table_name) DO UPDATE
        SET total_epsilon = EXCLUDED.total_epsilon, set_at = EXCLUDED.set_at, set_by = EXCLUDED.set_by;
END
$$;
COMMENT ON FUNCTION madnb.set_privacy_budget(regclass, numeric) IS
    'set (or change) the total epsilon that differentially private training from this source may spend; everything already spent counts; for admin roles (grant_usage(role, admin => true)) and superusers';

CREATE OR REPLACE VIEW madnb.privacy_ledger AS
SELECT l.release_id,
       pg_catalog.to_regclass(pg_catalog.format('%I.%I', l.schema_name, l.table_name))::oid AS source_oid,
       (l.schema_name || '.' || l.table_name) AS source_name,
       l.schema_name,
       l.table_name,
       l.epsilon,
       l.mechanism,
       l.parameters,
       l.released_at,
       l.released_by,
       (l.parameters ->> 'delta')::pg_catalog.float8 AS delta
FROM madnb_privacy.ledger AS l;
COMMENT ON VIEW madnb.privacy_ledger IS
    'one row per differentially private release: source (schema and table name; source_oid is the relation now carrying that name), total epsilon, mechanism, parameters, time and session user, and delta';

CREATE OR REPLACE VIEW madnb.privacy_budget AS
SELECT pg_catalog.to_regclass(pg_catalog.format('%I.%I', b.schema_name, b.table_name))::oid AS source_oid,
       (b.schema_name || '.' || b.table_name) AS source_name,
       b.schema_name,
       b.table_name,
       b.total_epsilon,
       b.set_at,
       b.set_by
FROM madnb_privacy.budget AS b;
COMMENT ON VIEW madnb.privacy_budget IS
    'total epsilon per training source (set with madnb.set_privacy_budget), keyed by schema and table name; a release that would exceed it fails before any noise is drawn';

CREATE OR REPLACE VIEW madnb.privacy_budget_status AS
SELECT b.source_oid,
       b.source_name,
       b.total_epsilon,
       pg_catalog.trim_scale(s.spent / 1000000000000) AS spent_epsilon,
       pg_catalog.trim_scale(GREATEST(b.total_epsilon - s.spent / 1000000000000, 0)) AS remaining_epsilon,
       COALESCE(l.releases, 0) AS releases,
       pg_catalog.trim_scale((s.spent - COALESCE(l.recorded, 0)) / 1000000000000) AS unrecorded_epsilon
FROM madnb.privacy_budget AS b
LEFT JOIN (
    SELECT x.schema_name, x.table_name, pg_catalog.count(*) AS releases,
           pg_catalog.sum(pg_catalog.ceil(x.epsilon * 1000000000000)) AS recorded
    FROM madnb_privacy.ledger AS x GROUP BY x.schema_name, x.table_name
) AS l ON l.schema_name = b.schema_name AND l.table_name = b.table_name
-- no counter yet (it is created by the next charge): what the ledger records
CROSS JOIN LATERAL (
    SELECT COALESCE(madnb._privacy_spent(b.schema_name, b.table_name), l.recorded, 0)::numeric AS spent
) AS s;
COMMENT ON VIEW madnb.privacy_budget_status IS
    'per budgeted source: total, spent (rollback-proof), remaining, releases in the ledger, and epsilon spent by releases whose callers rolled back (unrecorded)';

COMMENT ON COLUMN madnb.privacy_ledger.release_id IS 'the release''s id; a gap marks a release whose caller rolled back (its charge stays)';
COMMENT ON COLUMN madnb.privacy_ledger.source_oid IS 'the relation that now carries the source''s name, NULL if none';
COMMENT ON COLUMN madnb.privacy_ledger.source_name IS 'the source as schema.table when it was released';
COMMENT ON COLUMN madnb.privacy_ledger.schema_name IS 'the source''s schema (with table_name, the key of its account)';
COMMENT ON COLUMN madnb.privacy_ledger.table_name IS 'the source''s table (with schema_name, the key of its account)';
COMMENT ON COLUMN madnb.privacy_ledger.epsilon IS 'total epsilon of the release, as the exact decimal the float8 argument prints as';
COMMENT ON COLUMN madnb.privacy_ledger.mechanism IS 'the noise mechanism, set by madnb';
COMMENT ON COLUMN madnb.privacy_ledger.parameters IS 'what the release did: per-query epsilon, queries, delta, guarantee, neighbouring relation, bounds, domain, selection, fixed-point encoding, sensitivities, smoothing, outputs';
COMMENT ON COLUMN madnb.privacy_ledger.released_at IS 'when the release was recorded';
COMMENT ON COLUMN madnb.privacy_ledger.released_by IS 'the session user who made the release (never chosen by the caller)';
COMMENT ON COLUMN madnb.privacy_ledger.delta IS 'delta of the release: 0 for epsilon-DP (a public domain), the delta given for (epsilon, delta)-DP (domain => ''private''); parameters->>''delta''';
COMMENT ON COLUMN madnb.privacy_budget.source_oid IS 'the relation that now carries the source''s name, NULL if none';
COMMENT ON COLUMN madnb.privacy_budget.source_name IS 'the source as schema.table';
COMMENT ON COLUMN madnb.privacy_budget.schema_name IS 'the source''s schema (with table_name, the key of its account)';
COMMENT ON COLUMN madnb.privacy_budget.table_name IS 'the source''s table (with schema_name, the key of its account)';
COMMENT ON COLUMN madnb.privacy_budget.total_epsilon IS 'the total epsilon all private releases from the source may spend';
COMMENT ON COLUMN madnb.privacy_budget.set_at IS 'when the budget was last set';
COMMENT ON COLUMN madnb.privacy_budget.set_by IS 'the session user who last set it';
COMMENT ON COLUMN madnb.privacy_budget_status.source_oid IS 'the relation that now carries the source''s name, NULL if none';
COMMENT ON COLUMN madnb.privacy_budget_status.source_name IS 'the source as schema.table';
COMMENT ON COLUMN madnb.privacy_budget_status.total_epsilon IS 'the budget';
COMMENT ON COLUMN madnb.privacy_budget_status.spent_epsilon IS 'epsilon spent on the source, rolled-back releases included (charges round up to 1e-12)';
COMMENT ON COLUMN madnb.privacy_budget_status.remaining_epsilon IS 'what is left of the budget, at least 0';
COMMENT ON COLUMN madnb.privacy_budget_status.releases IS 'releases of the source in the ledger';
COMMENT ON COLUMN madnb.privacy_budget_status.unrecorded_epsilon IS 'epsilon spent by releases whose callers rolled back (charged, not in the ledger)';

-- The statistics a training keeps go to schema madnb_statistics, where no role
-- but madnb's owner may create objects; this makes the table for the role that
-- trains, as a copy of the columns of a temporary table of its session (the
-- column list of madnb_pl.release.statistics_table.columns_ddl), owned by that role.
CREATE OR REPLACE FUNCTION madnb._create_kept_statistics(name text, template regclass, owner name) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_columns text;
BEGIN
    IF NOT pg_catalog.pg_has_role(SESSION_USER, owner, 'MEMBER') THEN
        RAISE EXCEPTION 'permission denied to keep statistics for role "%"', owner
            USING ERRCODE = '42501', HINT = 'statistics are kept for the role that trains';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_class AS c
                   WHERE c.oid OPERATOR(pg_catalog.=) template AND c.relkind OPERATOR(pg_catalog.=) 'r'
                     AND c.relnamespace OPERATOR(pg_catalog.=) pg_catalog.pg_my_temp_schema()) THEN
        RAISE EXCEPTION 'the template of a kept statistics table must be a temporary table of this session'
            USING ERRCODE = '42809';
    END IF;
    SELECT pg_catalog.string_agg(a.attname::pg_catalog.text, ',' ORDER BY a.attnum) INTO v_columns
    FROM pg_catalog.pg_attribute AS a
    WHERE a.attrelid OPERATOR(pg_catalog.=) template AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped;
    IF v_columns IS DISTINCT FROM 'cls,attr,value,n,nv,mean,mean_lo,var,s1,s2' THEN
        RAISE EXCEPTION 'the template of a kept statistics table has the columns of a statistics table'
            USING ERRCODE = '42809', DETAIL = pg_catalog.format('it has %s', v_columns);
    END IF;
    EXECUTE pg_catalog.format('CREATE TABLE madnb_statistics.%I (LIKE %s)', name, template);
    EXECUTE pg_catalog.format('ALTER TABLE madnb_statistics.%I OWNER TO %I', name, owner);
END
$$;
COMMENT ON FUNCTION madnb._create_kept_statistics(text, regclass, name) IS
    'internal: creates table madnb_statistics.<name> for the statistics a training keeps, with the columns of a temporary table of the session, owned by the training role (no other role may create in that schema)';
REVOKE ALL ON FUNCTION madnb._create_kept_statistics(text, regclass, name) FROM PUBLIC;

CREATE OR REPLACE FUNCTION madnb.grant_usage(role name, admin boolean DEFAULT false) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF role IS NULL OR admin IS NULL THEN
        RAISE EXCEPTION 'role and admin must not be NULL' USING ERRCODE = '22004';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles AS r WHERE r.rolname = role) THEN
        RAISE EXCEPTION 'role "%" does not exist', role USING ERRCODE = '42704';
    END IF;
    EXECUTE pg_catalog.format('GRANT USAGE ON SCHEMA madnb TO %I', role);
    -- training keeps its statistics in a table of madnb_statistics, which
    -- madnb._create_kept_statistics makes for the role: never CREATE there (a view
    -- of the role's there over another role's table would block that role's drops)
    EXECUTE pg_catalog.format('GRANT USAGE ON SCHEMA madnb_statistics TO %I', role);
    EXECUTE pg_catalog.format(
        'GRANT EXECUTE ON FUNCTION madnb._create_kept_statistics(pg_catalog.text, pg_catalog.regclass, pg_catalog.name) TO %I', role);
    -- named models (madnb.train): predict with them and read the catalog.  Never CREATE on
    -- madnb_models: a role that may create functions there can plant an overload of another
    -- role's prediction function with an exact row type, which PostgreSQL then prefers to
    -- madnb's own (anyelement) one; only the schema's owner trains and drops named models.
    EXECUTE pg_catalog.format('GRANT USAGE ON SCHEMA madnb_models TO %I', role);
    -- named models of its own, in a schema it may create in (madnb.train('analytics.churn', ...)):
    -- row level security lets it write only the catalog rows of its own models, for such schemas
    EXECUTE pg_catalog.format('GRANT SELECT, INSERT, DELETE ON madnb._models TO %I', role);
    EXECUTE pg_catalog.format('GRANT SELECT, INSERT, DELETE ON madnb._model_versions TO %I', role);
    EXECUTE pg_catalog.format('GRANT SELECT ON madnb.models TO %I', role);
    -- training aggregates into temporary tables; PUBLIC has TEMP unless an administrator revoked it
    EXECUTE pg_catalog.format('GRANT TEMPORARY ON DATABASE %I TO %I', pg_catalog.current_database(), role);
    EXECUTE pg_catalog.format(
        'GRANT EXECUTE ON FUNCTION madnb.record_private_release(pg_catalog.regclass, pg_catalog.numeric, pg_catalog.jsonb) TO %I', role);
    EXECUTE pg_catalog.format('GRANT SELECT ON madnb.privacy_ledger, madnb.privacy_budget, madnb.privacy_budget_status TO %I', role);
    IF admin THEN
        EXECUTE pg_catalog.format(
            'GRANT EXECUTE ON FUNCTION madnb.set_privacy_budget(pg_catalog.regclass, pg_catalog.numeric) TO %I', role);
    END IF;
END
$$;
COMMENT ON FUNCTION madnb.grant_usage(name, boolean) IS
    'let a role train (exact and private; its statistics are kept in schema madnb_statistics, which madnb creates for it: never CREATE on a madnb schema), train, replace and drop named models of its own in a schema it may create in (madnb.train(''its_schema.model'', ...)), predict with the models of schema madnb_models (only that schema''s owner trains there), create views and read the ledger and budgets; with admin => true also set budgets; never direct write access to privacy state';

CREATE OR REPLACE FUNCTION madnb.revoke_usage(role name) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF role IS NULL THEN
        RAISE EXCEPTION 'role must not be NULL' USING ERRCODE = '22004';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles AS r WHERE r.rolname = role) THEN
        RAISE EXCEPTION 'role "%" does not exist', role USING ERRCODE = '42704';
    END IF;
    EXECUTE pg_catalog.format(
        'REVOKE EXECUTE ON FUNCTION madnb.set_privacy_budget(pg_catalog.regclass, pg_catalog.numeric) FROM %I', role);
    EXECUTE pg_catalog.format(
        'REVOKE EXECUTE ON FUNCTION madnb.record_private_release(pg_catalog.regclass, pg_catalog.numeric, pg_catalog.jsonb) FROM %I', role);
    EXECUTE pg_catalog.format('REVOKE SELECT ON madnb.privacy_ledger, madnb.privacy_budget, madnb.privacy_budget_status FROM %I', role);
    EXECUTE pg_catalog.format('REVOKE USAGE ON SCHEMA madnb FROM %I', role);
    EXECUTE pg_catalog.format('REVOKE USAGE, CREATE ON SCHEMA madnb_statistics FROM %I', role);
    EXECUTE pg_catalog.format(
        'REVOKE EXECUTE ON FUNCTION madnb._create_kept_statistics(pg_catalog.text, pg_catalog.regclass, pg_catalog.name) FROM %I', role);
    EXECUTE pg_catalog.format('REVOKE SELECT ON madnb.models FROM %I', role);
    EXECUTE pg_catalog.format('REVOKE SELECT, INSERT, UPDATE, DELETE ON madnb._models FROM %I', role);
    EXECUTE pg_catalog.format('REVOKE SELECT, INSERT, DELETE ON madnb._model_versions FROM %I', role);
    EXECUTE pg_catalog.format('REVOKE USAGE, CREATE ON SCHEMA madnb_models FROM %I', role);
END
$$;
COMMENT ON FUNCTION madnb.revoke_usage(name) IS 'take back what madnb.grant_usage gave a role in schemas madnb, madnb_statistics and madnb_models (TEMP on the database is left as it is)';

-- Writers of privacy state and role management: not for PUBLIC.
REVOKE ALL ON FUNCTION madnb.record_private_release(regclass, numeric, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION madnb.set_privacy_budget(regclass, numeric) FROM PUBLIC;
REVOKE ALL ON FUNCTION madnb._privacy_lock_source(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION madnb._privacy_ensure_counter(name, name) FROM PUBLIC;
REVOKE ALL ON FUNCTION madnb.grant_usage(name, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION madnb.revoke_usage(name) FROM PUBLIC;

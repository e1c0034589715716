-- Support objects: version, the PL/Python loader's companions, internal checks.
-- Idempotent: re-run on every install and upgrade.

CREATE OR REPLACE FUNCTION madnb.version() RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$ SELECT '@MADNB_VERSION@'::text $$;
COMMENT ON FUNCTION madnb.version() IS 'madnb version of the installed SQL objects';

CREATE OR REPLACE FUNCTION madnb._check_class_count(actual bigint, expected integer) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF actual IS DISTINCT FROM expected THEN
        RAISE EXCEPTION 'the model has % classes but the view was created for %', actual, expected
            USING ERRCODE = '55000',
                  HINT = 'the model''s class set changed since the view was created: drop the view and create it again';
    END IF;
    RETURN true;
END
$$;
COMMENT ON FUNCTION madnb._check_class_count(bigint, integer) IS
    'internal: raises 55000 when a view''s model no longer has the number of classes the view was built for';

INSERT INTO madnb.install_log (version) VALUES ('@MADNB_VERSION@');

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
COMMENT ON COLUMN madnb.install_log.version IS 'the madnb version the install or upgrade run put in place';
COMMENT ON COLUMN madnb.install_log.installed_at IS 'when the run happened (transaction time)';
COMMENT ON COLUMN madnb.install_log.installed_by IS 'the role that ran it (current_user)';

CREATE OR REPLACE FUNCTION madnb._check_code_slots(slots bigint, max_slots integer) RETURNS integer
LANGUAGE plpgsql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF slots > max_slots THEN
        RAISE EXCEPTION 'the model''s attribute values span % codes, more than this view supports (%)', slots, max_slots
            USING ERRCODE = '55000',
                  HINT = 'the model''s values changed since the view was created: drop the view and create it again';
    END IF;
    RETURN slots::integer;
END
$$;
COMMENT ON FUNCTION madnb._check_code_slots(bigint, integer) IS
    'internal: raises 55000 when a view''s integer-code lookup table would exceed the size it was created for';

CREATE OR REPLACE FUNCTION madnb._check_whole_values(whole boolean) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF whole IS FALSE THEN
        RAISE EXCEPTION 'the model now has fractional attribute values but the view was created for whole-number codes'
            USING ERRCODE = '55000',
                  HINT = 'drop the view and create it again';
    END IF;
    RETURN true;
END
$$;
COMMENT ON FUNCTION madnb._check_whole_values(boolean) IS
    'internal: raises 55000 when a view built for whole-number attribute codes meets a fractional value in its model';

CREATE OR REPLACE FUNCTION madnb._planner_hint(integer) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$ BEGIN RETURN true; END $$;
COMMENT ON FUNCTION madnb._planner_hint(integer) IS
    'internal: always true; opaque to the planner, it lowers a model relation''s row estimate so the model is the hashed side of a join';

CREATE OR REPLACE FUNCTION madnb._check_view_model(ok boolean, what text) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'the model''s % changed since the view was created', what
            USING ERRCODE = '55000',
                  HINT = 'drop the view and create it again';
    END IF;
    RETURN true;
END
$$;
COMMENT ON FUNCTION madnb._check_view_model(boolean, text) IS
    'internal: raises 55000 when a view''s model no longer has the shape (e.g. the Gaussian attributes) the view was built for';

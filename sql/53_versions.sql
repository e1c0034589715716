-- Versions of named models, and new versions from the rows added or removed (issue 22, points 2, 4, 7):
-- madnb.update, madnb.forget, madnb.model_versions, madnb.rollback_model
-- (plpython/madnb_pl/models/lifecycle.py, models/versions.py; docs/versions.md).
-- Thin PL/pgSQL wrappers re-raising the errors of one internal PL/Python function each.

CREATE OR REPLACE FUNCTION madnb._update(model text, source text) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.models.lifecycle.update(plpy, model=model, source=source)
$python$;
COMMENT ON FUNCTION madnb._update(text, text) IS 'internal: the PL/Python entry point behind madnb.update';

CREATE OR REPLACE FUNCTION madnb.update(model text, source text) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._update(model => model, source => source);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.update(text, text) IS
    'add the rows of a table or view (the model''s feature and label columns) to a named model of any kind, in place: its statistics plus theirs, the same model as training on the union; a new version; the prediction functions rewritten in place';

CREATE OR REPLACE FUNCTION madnb._forget(model text, source text) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.models.lifecycle.forget(plpy, model=model, source=source)
$python$;
COMMENT ON FUNCTION madnb._forget(text, text) IS 'internal: the PL/Python entry point behind madnb.forget';

CREATE OR REPLACE FUNCTION madnb.forget(model text, source text) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._forget(model => model, source => source);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.forget(text, text) IS
    'remove rows the named model was trained on (a table or view with its columns): their statistics subtracted from the model''s, the same model as training on the other rows; a new version; exact models only';

CREATE OR REPLACE FUNCTION madnb._versions_of(model text)
RETURNS TABLE (version integer, current boolean, created_at timestamptz, created_by name, operation text, source text,
               rows bigint, training_rows bigint, classes text[], statistics text, size bigint)
LANGUAGE plpython3u STABLE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
return madnb_pl.models.lifecycle.model_versions(plpy, model=model)
$python$;
COMMENT ON FUNCTION madnb._versions_of(text) IS 'internal: the PL/Python entry point behind madnb.model_versions';

CREATE OR REPLACE FUNCTION madnb.model_versions(model text)
RETURNS TABLE (version integer, current boolean, created_at timestamptz, created_by name, operation text, source text,
               rows bigint, training_rows bigint, classes text[], statistics text, size bigint)
LANGUAGE plpgsql STABLE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    RETURN QUERY SELECT v.version, v.current, v.created_at, v.created_by, v.operation, v.source, v.rows, v.training_rows,
        v.classes, v.statistics, v.size FROM madnb._versions_of(model => model) AS v;
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.model_versions(text) IS
    'the versions kept of a named model, oldest first: each made by train, replace, update, forget or rollback, when, by whom, from what source and how many rows, with its classes and statistics table (madnb.model_versions_kept: how many are kept, default 10)';

CREATE OR REPLACE FUNCTION madnb._rollback_model(model text, version integer) RETURNS void
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
madnb_pl.models.lifecycle.rollback_model(plpy, model=model, version=version)
$python$;
COMMENT ON FUNCTION madnb._rollback_model(text, integer) IS 'internal: the PL/Python entry point behind madnb.rollback_model';

CREATE OR REPLACE FUNCTION madnb.rollback_model(model text, version integer) RETURNS void
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    PERFORM madnb._rollback_model(model => model, version => version);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.rollback_model(text, integer) IS
    'make a named model what one of its kept versions was, from that version''s statistics (no row read), as a new version; the prediction functions rewritten in place';

COMMENT ON COLUMN madnb._model_versions.schema_name IS 'the schema of the model''s objects (as madnb._models.schema_name)';
COMMENT ON COLUMN madnb._model_versions.name IS 'the model''s identifier (as madnb._models.name)';
COMMENT ON COLUMN madnb._model_versions.version IS 'the version''s number: 1 for the first training, one more for each change';
COMMENT ON COLUMN madnb._model_versions.operation IS 'what made it: train, replace, update, forget or rollback';
COMMENT ON COLUMN madnb._model_versions.source IS 'what it was made from: the table trained on, the rows added or removed, or the version rolled back to';
COMMENT ON COLUMN madnb._model_versions.rows IS 'the rows that operation read (trained on, added, removed; a rollback: the version''s rows)';
COMMENT ON COLUMN madnb._model_versions.training_rows IS 'the rows the version''s model holds';
COMMENT ON COLUMN madnb._model_versions.classes IS 'the version''s classes as text';
COMMENT ON COLUMN madnb._model_versions.statistics IS 'the version''s statistics table in schema madnb_statistics (a copy, owned by the model''s owner)';
COMMENT ON COLUMN madnb._model_versions.model IS 'what derives the model from those statistics again: kind, label, features, parameters, the table whose columns it has';
COMMENT ON COLUMN madnb._model_versions.owner IS 'the role that owns the model';
COMMENT ON COLUMN madnb._model_versions.created_at IS 'when it was made';
COMMENT ON COLUMN madnb._model_versions.created_by IS 'the session user who made it';
COMMENT ON COLUMN madnb._models.version IS 'the model''s current version (madnb._model_versions)';

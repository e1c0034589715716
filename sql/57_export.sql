-- Export (issue 12): a named model as a SQL script that predicts and explains
-- without madnb (madnb.model_sql), and its numbers for the Python package's madnb.to_sklearn.
--
-- Both read the catalog and the model's tables in madnb_models and build their
-- output with the code that writes the model's own prediction functions
-- (plpython/madnb_pl/models/export.py; docs/models.md "Exporting a model").  Same
-- pattern as sql/50_models.sql: thin PL/pgSQL wrappers re-raising the errors of
-- one internal PL/Python function each.

CREATE OR REPLACE FUNCTION madnb._model_sql(model text, function_name text) RETURNS text
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
return madnb_pl.models.export.model_sql(plpy, model=model, function_name=function_name)
$python$;
COMMENT ON FUNCTION madnb._model_sql(text, text) IS 'internal: the PL/Python entry point behind madnb.model_sql';

CREATE OR REPLACE FUNCTION madnb.model_sql(model text, function_name text DEFAULT NULL) RETURNS text
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    RETURN madnb._model_sql(model => model, function_name => function_name);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb.model_sql(text, text) IS
    'a SQL script that creates a named model''s prediction and explanation functions (<function_name>_predict, _predict_proba, _predict_proba_array, _explain over the feature columns) in a database without madnb; function_name is [schema.]name, default the model''s name in schema public';

CREATE OR REPLACE FUNCTION madnb._model_numbers_py(model text) RETURNS text
LANGUAGE plpython3u VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $python$
#@madnb-prelude
return madnb_pl.models.export.model_numbers(plpy, model=model)
$python$;
COMMENT ON FUNCTION madnb._model_numbers_py(text) IS 'internal: the PL/Python entry point behind madnb._model_numbers';

CREATE OR REPLACE FUNCTION madnb._model_numbers(model text) RETURNS text
LANGUAGE plpgsql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE SECURITY INVOKER
AS $$
BEGIN
    RETURN madnb._model_numbers_py(model => model);
--@madnb-reraise
END
$$;
COMMENT ON FUNCTION madnb._model_numbers(text) IS
    'internal: a named model''s numbers as its prediction functions hold them, as JSON text (-Infinity where a log-probability is that); read by madnb.to_sklearn of the Python package';

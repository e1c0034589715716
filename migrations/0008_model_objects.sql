-- The exact objects each named model made (issue 17, A5).
--
-- drop_model used to drop every function of schema madnb_models whose name was
-- one of the model's function names, so a function a user had made by hand
-- with such a name went too.  The catalog now records what training created:
-- `functions` (regprocedure text) and `tables` (regclass text); drop_model and
-- `madnb uninstall --cascade` drop those and nothing else.  Models trained
-- before this migration get the objects their names give today (what the old
-- drop_model would have dropped).
--
-- drop_model gains a `cascade` parameter (the client's uninstall --cascade calls
-- it): the old one-argument signatures go, or a positional call would be
-- ambiguous.

ALTER TABLE madnb._models ADD COLUMN functions text[], ADD COLUMN tables text[];
UPDATE madnb._models AS m SET
    functions = ARRAY(
        SELECT p.oid::pg_catalog.regprocedure::pg_catalog.text FROM pg_catalog.pg_proc AS p
        WHERE p.pronamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace('madnb_models')
          AND p.proname::pg_catalog.text OPERATOR(pg_catalog.=) ANY (ARRAY[
              m.name OPERATOR(pg_catalog.||) '_predict', m.name OPERATOR(pg_catalog.||) '_predict_proba',
              m.name OPERATOR(pg_catalog.||) '_predict_proba_array'])
        ORDER BY 1),
    tables = ARRAY(
        SELECT c.oid::pg_catalog.regclass::pg_catalog.text FROM pg_catalog.pg_class AS c
        WHERE c.relnamespace OPERATOR(pg_catalog.=) pg_catalog.to_regnamespace('madnb_models')
          AND c.relname::pg_catalog.text OPERATOR(pg_catalog.=) ANY (ARRAY[
              m.name OPERATOR(pg_catalog.||) '_class_priors', m.name OPERATOR(pg_catalog.||) '_feature_probs',
              m.name OPERATOR(pg_catalog.||) '_numeric_stats'])
        ORDER BY 1);
ALTER TABLE madnb._models ALTER COLUMN functions SET NOT NULL, ALTER COLUMN tables SET NOT NULL;

DO $madnb_drop_model_signature$
BEGIN
    IF pg_catalog.to_regprocedure('madnb.drop_model(pg_catalog.text)') IS NOT NULL THEN
        DROP FUNCTION madnb.drop_model(pg_catalog.text);
    END IF;
    IF pg_catalog.to_regprocedure('madnb._drop_model(pg_catalog.text)') IS NOT NULL THEN
        DROP FUNCTION madnb._drop_model(pg_catalog.text);
    END IF;
END
$madnb_drop_model_signature$;

-- Private partition selection (issue 9, B5).
--
-- create_nb_prepared_data_tables gained an optional named parameter, delta
-- (with domain => 'private').  CREATE OR REPLACE with one more parameter makes
-- a new overload and keeps the old one, which would make MADlib's positional
-- calls ambiguous: drop the 10- and 12-argument signatures here;
-- sql/10_training.sql creates their replacements right after the migrations.
DROP FUNCTION IF EXISTS madnb.create_nb_prepared_data_tables(text, text, text, integer, text, text, float8, float8[], text, float8);
DROP FUNCTION IF EXISTS madnb.create_nb_prepared_data_tables(text, text, text, text, integer, text, text, text, float8, float8[], text, float8);

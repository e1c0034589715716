-- A named model's weight column (issue 22 point 7).
--
-- madnb.train(..., weight => 'column') weights every statistic by that column
-- (scikit-learn's sample_weight); the catalog keeps the column's name, NULL for
-- an unweighted model.

ALTER TABLE madnb._models ADD COLUMN weight text;

"""Stage 2, release: one pass over the training rows into a statistics table (per class its count, per
categorical cell its count, per Gaussian attribute count, mean and variance).  :mod:`.array_pass` is the pass
over MADlib's attribute arrays, :mod:`.column_pass` over ordinary columns; :mod:`.statistics_table` is the
released object itself (its header, cells, checks and the far-from-zero refinement), which every later stage
reads."""

"""Stage 2, private variant: the release with differential-privacy noise drawn inside the aggregation.
:mod:`.noise` is the exact discrete Laplace sampler (and ``madnb.dp_laplace``), :mod:`.private_release` the
private release of a table (domain, the charge to the budget and ledger, the noisy pass), and
:mod:`.column_release` what the column face adds (bounds and domain by column name)."""

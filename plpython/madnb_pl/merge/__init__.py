"""Stage 3, merge: statistics tables from here, from other servers and from shards, checked and summed.
:mod:`.part_sums` holds the compatibility rules and the sums (Chan's formula for exact parts, raw noisy
integers for private ones), :mod:`.federation` the dblink connection layer and pulling parts from foreign
servers, :mod:`.shards` the release of a table partitioned over servers, and :mod:`.part_sources` where a
part's header is read and whether a release runs locally or on shards."""

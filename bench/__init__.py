"""madnb's benchmark: ``make bench`` (or ``python -m bench.run``).

Every figure is a ratio to a baseline measured on the same table in the same run
(``SELECT sum(v) FROM t, unnest(attributes) v``), never an absolute time.
"""

# PGXS part of `make install` (called by the main Makefile after generating the script).
EXTENSION = madnb
DATA      = $(wildcard build/madnb--*.sql)
PG_CONFIG ?= pg_config
PGXS      := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

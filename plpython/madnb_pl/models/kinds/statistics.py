"""A named model made from released statistics (``madnb.train_from_statistics``): kind 'naive_bayes' with
another release.

madnb.train's kind 'naive_bayes' releases the statistics of a table's columns
into the model's statistics table, then derives, generates and catalogues the
model.  Here the statistics are already released -- statistics tables
(``madnb.create_nb_statistics``: MADlib's array face, attributes by position)
here, behind foreign tables or on federated servers, or the share sums of a
secure aggregation (:mod:`madnb_pl.merge.statistics_sources`) -- so the release
step is their sum (:func:`madnb_pl.derive.model_tables.merge`, the merge of
``create_nb_model_from_statistics``; share sums reconstructed first, as
``create_nb_model_from_shares`` does), written as the model's statistics table
in the form of a column model's: categorical values as their text form
(:func:`madnb_pl.inputs.columns.column_text_sql`), attribute i = feature i.
Everything after it is :class:`~madnb_pl.models.kinds.table.TableKind`'s for
'naive_bayes' (derive, the numbers, the prediction functions, and from the
catalog row export and evaluate), so the model *is* a 'naive_bayes' model, and
its catalog row says so.

The features are the attribute positions 1..numAttrs, named by the caller
(default ``attr_1`` ..): a categorical position takes values of the statistics'
element type (a domain: its base type), a numeric (Gaussian) one float8; the
label's type is the statistics' class type.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from ...core.errors import MadnbError
from ...core.names import Column, ModelName, NewName, Relation, parse_name
from ...core.sql import F8, FLOAT8, Plpy, Sql, base_type
from ...derive import model_tables
from ...inputs import arrays
from ...inputs.columns import (
    CATEGORICAL,
    GAUSSIAN,
    ColumnTraining,
    Feature,
    check_feature_names,
    column_names,
    column_text_sql,
    parameter_type,
)
from ...merge import part_sums, statistics_sources
from ...merge.statistics_sources import Sources
from ...release import statistics_table
from .base import Released
from .table import NAIVE_BAYES, TableKind, TableTraining


@dataclass(frozen=True)
class SourceList(Relation):
    """What the catalog shows as the model's source: the statistics sources as given (no relation of its own)."""

    text: str = ""

    @property
    def display(self) -> str:
        return self.text


@dataclass(frozen=True)
class StatisticsTraining(TableTraining):
    """A 'naive_bayes' training whose statistics are ``sources`` (gathered, checked, not yet summed)."""

    sources: Sources | None = None


def feature_names(features: list[str | None] | None, label: str | None) -> tuple[list[str] | None, str]:
    """The features' names (None: the default ``attr_1`` ..) and the label's, checked before any statistics are read:
    NULLs (22004), a name listed twice (42701, as madnb.train), the label among the features (22023)."""
    if label is None:
        raise MadnbError("22004", "label must not be NULL", hint="label names the class column of the model (by default 'class')")
    (name,) = parse_name(label, "label", max_parts=1)
    if features is None:
        return None, name
    names = column_names(features, "features")
    check_feature_names(names, name)
    return names, name


class StatisticsKind(TableKind):
    """Kind 'naive_bayes' made from released statistics (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(NAIVE_BAYES, frozenset(), private=True)

    def from_statistics(
        self, plpy: Plpy, statistics: list[str | None] | None, features: list[str | None] | None, label: str | None, smoothing: float,
    ) -> StatisticsTraining:
        """The training of statistics sources ``statistics`` (gathered: remote ones pulled, share sums reconstructed),
        their attribute positions named ``features`` and their class ``label``."""
        names, label_name = feature_names(features, label)
        sources = statistics_sources.gather(plpy, statistics)
        rel, header = sources.parts[0]
        shape = part_sums.statistics_shape(plpy, rel, header, sources.subject)  # the part's types, checked against its header
        n = header.num_attrs
        if names is None:
            names = [f"attr_{i}" for i in range(1, n + 1)]
            if label_name in names:
                raise MadnbError("22023", f'the label "{label_name}" is also the name of a feature', hint="name the features, or the label otherwise")
        elif len(names) != n:
            raise MadnbError(
                "22023", f"features names {len(names)} attribute(s); the statistics have numAttrs = {n}",
                hint=f"name every attribute position 1 to {n} in order, or leave features NULL for attr_1 .. attr_{n}",
            )
        elem = base_type(plpy, int(shape.attrs.elem_oid or 0))
        cls = base_type(plpy, shape.cls.type_oid)
        if elem is None or cls is None:  # pragma: no cover - the statistics table's own column types
            raise MadnbError("XX000", "internal error in madnb: a statistics table's column type does not exist")
        numeric = set(header.numeric)
        out = []
        for i, name in enumerate(names, start=1):
            if i in numeric:
                out.append(Feature(Column(name, "double precision", FLOAT8, None, None), FLOAT8, GAUSSIAN, F8))
            else:
                out.append(Feature(
                    Column(name, elem.sql, elem.oid, None, None), elem.oid, CATEGORICAL, parameter_type(elem.name, elem.builtin), elem.typtype == "e",
                ))
        lab = Column(label_name, cls.sql, cls.oid, None, None)
        arrays.check_label_type(plpy, lab)
        shown = SourceList("", "", 0, text=", ".join(str(s) for s in statistics or []))
        return StatisticsTraining(ColumnTraining(shown, lab, tuple(out), cls.builtin), None, smoothing, sources=sources)

    def statistics(self, plpy: Plpy, training: TableTraining, model: ModelName, kept: NewName) -> Released:
        """The sources' sum into the model's statistics table ``kept``, categorical values as their text form."""
        assert isinstance(training, StatisticsTraining) and training.sources is not None
        sources = training.sources
        categorical = next((f for f in training.columns.features if not f.gaussian), None)

        def value_text(v: str) -> Sql:
            return Sql(f"({v})::pg_catalog.text") if categorical is None else column_text_sql(v, categorical)  # no value: NULL

        rel, header, _ = model_tables.merge(plpy, sources.parts, sources.subject, keep=kept, value_text=value_text)
        sources.drop_temporary(plpy)
        if header.private and header.domain_fingerprint is not None:  # the domain's cells, now with their text values
            fingerprint = plpy.execute(statistics_table.cells_check_select(rel.sql, header))[0]["fingerprint"]
            header = replace(header, domain_fingerprint=str(fingerprint))
            statistics_table.write_header(plpy, rel.sql, header)
        plpy.execute(Sql(f"ANALYZE {rel.sql}"))
        if not header.private:
            rows = int(plpy.execute(
                Sql(f"SELECT COALESCE(pg_catalog.sum(s.n), 0)::pg_catalog.int8 AS n FROM {rel.sql} AS s "
                    "WHERE s.attr OPERATOR(pg_catalog.=) 0")
            )[0]["n"])
            return Released(header, rows)
        releases = header.ledger_releases
        privacy = {
            "epsilon": None if header.epsilon is None else json.loads(header.epsilon), "delta": header.delta,
            "release_id": releases[0] if len(releases) == 1 and isinstance(releases[0], int) else None,
            "release_ids": releases, "guarantee": header.guarantee, "domain": header.domain, "bounds": header.bounds,
        }
        return Released(header, 0, privacy)  # the rows: the released class counts (derive)


STATISTICS_KIND = StatisticsKind()
"""madnb.train_from_statistics's kind (its models are catalogued as 'naive_bayes': :data:`madnb_pl.models.kinds.KINDS`)."""

__all__ = ["STATISTICS_KIND", "SourceList", "StatisticsKind", "StatisticsTraining", "feature_names"]

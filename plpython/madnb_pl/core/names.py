"""Names are identifiers, never code.

Every table, view and column argument is parsed here with PostgreSQL's rules for
identifiers (optionally schema-qualified, optionally double-quoted, unquoted parts
folded to lower case) and resolved against the catalog.  What reaches generated
SQL is always :func:`quote_ident` of a parsed part, so a hostile name is data.

Unqualified names are resolved on the caller's search_path, as MADlib does:
an unqualified source is found there (``to_regclass``) and an unqualified output
goes to the caller's current schema (``current_schema()``).  Entry points run
under ``pg_catalog, pg_temp`` (see :mod:`madnb_pl.core.errors`), so exactly those two
lookups switch back to the caller's path (:func:`_on_callers_search_path`), in
statements that hold no operator and only schema-qualified functions and types.
Column types are printed with ``format_type`` under the pinned path, so a type
outside pg_catalog comes out schema-qualified and means the same type in the
SQL built from it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .errors import PINNED_SEARCH_PATH, MadnbError, caller_search_path, set_search_path
from .sql import Plpy, Sql, quote_ident

_FIRST = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_REST = _FIRST | set("0123456789$")
_MAX_IDENT_BYTES = 63




def parse_name(text: str | None, argument: str, max_parts: int = 2) -> list[str]:
    """Split ``text`` into identifier parts with PostgreSQL's rules.

    ``schema.table``, ``"My Schema"."My Table"``, ``Table`` (folded to ``table``).
    Raises 22004 for NULL and 42602 for anything that is not such a name.
    """
    if text is None:
        raise MadnbError("22004", f"{argument} must not be NULL")
    parts: list[str] = []
    i, n = 0, len(text)

    def bad(reason: str) -> MadnbError:
        return MadnbError(
            "42602",
            f"invalid {argument}: {text!r} is not a valid name",
            detail=reason,
            hint='names are identifiers, optionally schema-qualified; quote names with spaces, '
            'capitals or special characters: \'"My Table"\' or \'myschema."My Table"\'',
        )

    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            raise bad("a name part is missing")
        if text[i] == '"':
            j = i + 1
            buf = []
            while True:
                if j >= n:
                    raise bad("unterminated quoted identifier")
                if text[j] == '"':
                    if j + 1 < n and text[j + 1] == '"':
                        buf.append('"')
                        j += 2
                        continue
                    break
                buf.append(text[j])
                j += 1
            part = "".join(buf)
            if part == "":
                raise bad("zero-length quoted identifier")
            i = j + 1
        else:
            if not (text[i] in _FIRST or ord(text[i]) > 127):
                raise bad(f"unexpected character {text[i]!r}")
            j = i
            while j < n and (text[j] in _REST or ord(text[j]) > 127):
                j += 1
            part = text[i:j].lower() if text[i:j].isascii() else "".join(
                c.lower() if c.isascii() else c for c in text[i:j]
            )
            i = j
        if len(part.encode("utf-8")) > _MAX_IDENT_BYTES:
            raise bad(f"name part longer than {_MAX_IDENT_BYTES} bytes")
        parts.append(part)
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            break
        if text[i] != ".":
            raise bad(f"unexpected character {text[i]!r} after a name part")
        i += 1
    if len(parts) > max_parts:
        raise bad(f"at most {max_parts} dotted parts are allowed")
    return parts


@dataclass(frozen=True)
class QualifiedName:
    """A schema-qualified name."""

    schema: str
    name: str

    @property
    def sql(self) -> Sql:
        """The schema-qualified, quoted name for generated SQL."""
        return Sql(f"{quote_ident(self.schema)}.{quote_ident(self.name)}")

    @property
    def display(self) -> str:
        """The name for messages."""
        return f"{self.schema}.{self.name}"


@dataclass(frozen=True)
class NewName(QualifiedName):
    """A name for an object to be created (schema defaults to the current schema)."""


@dataclass(frozen=True)
class Relation(QualifiedName):
    """A resolved, existing table or view."""

    oid: int = 0


@dataclass(frozen=True)
class SubSelect(Relation):
    """Some rows of relation ``schema.name``: the sub-select ``select``, read wherever SQL reads a relation by its
    name (``FROM {sql} AS s``); one fold's sum in a table of every fold's complement
    (:func:`madnb_pl.merge.part_sums.write_complement_sums`)."""

    select: Sql = Sql("")

    @property
    def sql(self) -> Sql:
        """The sub-select, parenthesised."""
        return Sql(f"({self.select})")


MODELS_SCHEMA = "madnb_models"
"""Where the objects of a named model given as one identifier live (madnb's owner alone trains there)."""


@dataclass(frozen=True)
class ModelName:
    """A named model's name: the schema its objects live in and the identifier their names start with.

    ``madnb.train('churn', ...)`` is ``ModelName('madnb_models', 'churn')``;
    ``madnb.train('analytics.churn', ...)`` is ``ModelName('analytics', 'churn')``,
    whose objects are ``analytics.churn_predict``, ``analytics.churn_class_priors``, ... (spelled in one
    place: :class:`madnb_pl.models.catalog.ModelObjects`).
    The catalog is keyed by both parts; :attr:`key` is how users write the name.
    """

    schema: str
    base: str

    @property
    def key(self) -> str:
        """The name as users write it: the identifier alone in madnb_models, else schema.identifier (quoted as needed)."""
        if self.schema == MODELS_SCHEMA:
            return self.base
        return f"{_shown(self.schema)}.{_shown(self.base)}"

    @property
    def in_models_schema(self) -> bool:
        return self.schema == MODELS_SCHEMA


_PLAIN = re.compile(r"[a-z_][a-z0-9_$]*")


def _shown(part: str) -> str:
    """An identifier as users write it: plain when it is (lower case, no special characters), else quoted."""
    return part if _PLAIN.fullmatch(part) else quote_ident(part)


def model_name_parts(text: str | None) -> ModelName:
    """Parse a model name: one identifier (schema madnb_models) or schema.identifier."""
    parts = parse_name(text, "model", max_parts=2)
    return ModelName(parts[0], parts[1]) if len(parts) == 2 else ModelName(MODELS_SCHEMA, parts[0])


@dataclass(frozen=True)
class Column:
    """A resolved column with its type as ``format_type`` spells it."""

    name: str
    type_sql: str
    type_oid: int
    elem_sql: str | None  # element type when the column is an array
    elem_oid: int | None

    @property
    def sql(self) -> Sql:
        """The quoted column name for generated SQL."""
        return Sql(quote_ident(self.name))


def _qualified_text(parts: list[str]) -> str:
    return ".".join(quote_ident(p) for p in parts)


@contextlib.contextmanager
def _on_callers_search_path(plpy: Plpy) -> Iterator[None]:
    """The caller's search_path for the statements inside, then the pinned one again.

    Outside an entry point nothing is pinned and nothing changes.  The statements
    inside must be safe under any search_path: no operator, only schema-qualified
    functions and types (plans are re-analysed when search_path changes).
    """
    caller = caller_search_path()
    if caller is None:
        yield
        return
    set_search_path(plpy, caller)
    try:
        yield
    finally:
        set_search_path(plpy, PINNED_SEARCH_PATH)


def resolve_relation(plpy: Plpy, text: str | None, argument: str) -> Relation:
    """Resolve an existing table or view (caller's search_path for unqualified names)."""
    parts = parse_name(text, argument)
    with _on_callers_search_path(plpy):
        found = plpy.execute(
            plpy.prepare(
                Sql("SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS oid"), ["pg_catalog.text"]
            ),
            [_qualified_text(parts)],
        )[0]["oid"]
    rows = [] if found is None else plpy.execute(
        plpy.prepare(
            Sql("SELECT c.oid::pg_catalog.int8 AS oid, n.nspname::pg_catalog.text AS schema, "
            "c.relname::pg_catalog.text AS name, c.relkind::pg_catalog.text AS kind "
            "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace "
            "WHERE c.oid OPERATOR(pg_catalog.=) $1"),
            ["pg_catalog.oid"],
        ),
        [found],
    )
    if not rows:
        raise MadnbError(
            "42P01",
            f"relation {_qualified_text(parts)} does not exist",
            detail=f"{argument} is {text!r}",
            hint="unqualified names are looked up on the search_path; check the name and its quoting",
        )
    r = rows[0]
    if r["kind"] not in ("r", "v", "m", "f", "p"):
        raise MadnbError("42809", f"{argument} {r['schema']}.{r['name']} is not a table or view")
    return Relation(r["schema"], r["name"], int(r["oid"]))


def refuse_nondeterministic_collation(plpy: Plpy, rel: Relation, col: Column, argument: str) -> None:
    """0A000 when ``col`` has a nondeterministic collation (e.g. case-insensitive ICU).

    madnb groups rows by the label's own value: under such a collation GROUP BY
    merges 'a' and 'A' into one class (whichever spelling it meets first), and a
    private release would count one row in several cells of one query.
    """
    plan = plpy.prepare(
        Sql("SELECT c.collname::pg_catalog.text AS coll FROM pg_catalog.pg_attribute a "
        "JOIN pg_catalog.pg_collation c ON c.oid OPERATOR(pg_catalog.=) a.attcollation "
        "WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2 AND NOT c.collisdeterministic"),
        ["pg_catalog.oid", "pg_catalog.name"],
    )
    rows = plpy.execute(plan, [rel.oid, col.name])
    if rows:
        raise MadnbError(
            "0A000", f'{argument} "{col.name}" has the nondeterministic collation "{rows[0]["coll"]}"',
            detail="values equal under it (such as 'a' and 'A') would be merged into one class",
            hint=f'train from a view that gives the column a deterministic collation, e.g. {quote_ident(col.name)} COLLATE "C"',
        )


def resolve_column(plpy: Plpy, rel: Relation, text: str | None, argument: str, compared: bool = False) -> Column:
    """Resolve a column of ``rel`` (one identifier, quoted or not): :func:`resolve_columns` of one."""
    return resolve_columns(plpy, rel, [text], argument, compared)[0]


def has_columns(plpy: Plpy, rel: Relation, names: Sequence[str]) -> bool:
    """Whether ``rel`` has every column of ``names`` (distinct catalog names, not identifiers to parse)."""
    rows = plpy.execute(
        plpy.prepare(
            Sql("SELECT pg_catalog.count(*)::pg_catalog.int4 AS k FROM pg_catalog.pg_attribute AS a "
            "WHERE a.attrelid OPERATOR(pg_catalog.=) $1 AND a.attname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($2) "
            "AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped"),
            ["pg_catalog.oid", "pg_catalog.text[]"],
        ),
        [rel.oid, list(names)],
    )
    return int(rows[0]["k"]) == len(set(names))


# One row per wanted column (in the order asked, NULL where there is none): its type as SQL text
# (format_type qualifies every type outside pg_catalog under the pinned search_path, so the text
# means the same type in the SQL built from it), its element type for an array, and -- for
# compared columns -- the schema of a default btree / hash operator class outside pg_catalog for
# the values' type or a domain's base type (see _compared_type_error).
_COLUMNS_SQL = Sql(
    "WITH RECURSIVE w(ord, name) AS (SELECT u.o, u.n FROM pg_catalog.unnest($2::pg_catalog.name[]) WITH ORDINALITY AS u(n, o)), "
    "c AS (SELECT w.ord, a.attname::pg_catalog.text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, "
    "a.atttypid::pg_catalog.int8 AS typoid, "
    "CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0 "
    "     THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, "
    "CASE WHEN t.typcategory OPERATOR(pg_catalog.=) 'A' AND t.typelem OPERATOR(pg_catalog.<>) 0 "
    "     THEN t.typelem::pg_catalog.int8 END AS elemoid "
    "FROM w LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid OPERATOR(pg_catalog.=) $1 "
    "AND a.attname OPERATOR(pg_catalog.=) w.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped "
    "LEFT JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) a.atttypid), "
    "d(ord, oid) AS (SELECT c.ord, COALESCE(c.elemoid, c.typoid)::pg_catalog.oid FROM c WHERE $3 AND c.typoid IS NOT NULL "
    "UNION ALL SELECT d.ord, t.typbasetype FROM pg_catalog.pg_type AS t JOIN d ON t.oid OPERATOR(pg_catalog.=) d.oid "
    "WHERE t.typbasetype OPERATOR(pg_catalog.<>) 0) "
    "SELECT c.name, c.typ, c.typoid, c.elem, c.elemoid, (SELECT n.nspname::pg_catalog.text FROM pg_catalog.pg_opclass AS o "
    "JOIN pg_catalog.pg_am AS m ON m.oid OPERATOR(pg_catalog.=) o.opcmethod "
    "JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) o.opcnamespace "
    "WHERE o.opcdefault AND m.amname OPERATOR(pg_catalog.=) ANY ('{btree,hash}'::pg_catalog.name[]) "
    "AND o.opcintype OPERATOR(pg_catalog.=) ANY (SELECT d.oid FROM d WHERE d.ord OPERATOR(pg_catalog.=) c.ord) "
    "AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.name LIMIT 1) AS equality_schema "
    "FROM c ORDER BY c.ord"
)


def resolve_columns(
    plpy: Plpy, rel: Relation, texts: Sequence[str | None], argument: str, compared: bool = False,
) -> list[Column]:
    """Resolve columns of ``rel`` (each one identifier, quoted or not), in one catalog query for all of them.

    ``compared``: madnb compares the columns' values (their elements, for an array)
    with each other, so their types must compare with pg_catalog's operators
    (:func:`_compared_type_error`).  The first column that does not exist, or does not
    compare so, is the error.
    """
    names = [parse_name(text, argument, max_parts=1)[0] for text in texts]
    rows = plpy.execute(plpy.prepare(_COLUMNS_SQL, ["pg_catalog.oid", "pg_catalog.name[]", "pg_catalog.bool"]), [rel.oid, names, compared])
    out: list[Column] = []
    for text, name, r in zip(texts, names, rows, strict=True):
        if r["name"] is None:
            raise MadnbError(
                "42703",
                f'column "{name}" does not exist in {rel.display}',
                detail=f"{argument} is {text!r}",
                hint="column names are identifiers: quote names with capitals or spaces",
            )
        col = Column(r["name"], r["typ"], int(r["typoid"]), r["elem"], None if r["elemoid"] is None else int(r["elemoid"]))
        if r["equality_schema"] is not None:
            raise _compared_type_error(col, r["equality_schema"], argument)
        out.append(col)
    return out


def _compared_type_error(col: Column, schema: str, argument: str) -> MadnbError:
    """0A000 for values whose type (or a domain's base type) has its own default equality outside pg_catalog.

    madnb's SQL compares with pg_catalog's operators only (see :mod:`madnb_pl.core.errors`),
    while GROUP BY and DISTINCT use the type's own default operator class: for such a
    type (citext, say) the two would disagree and the model would be silently wrong.
    Domains and enums compare with pg_catalog's operators and are fine.  Default
    operator classes need a superuser to create, so no user can make madnb refuse a type.
    """
    typ = col.elem_sql if col.elem_oid is not None else col.type_sql
    return MadnbError(
        "0A000",
        f'{argument} "{col.name}" holds values of type {typ}, whose equality is defined in schema {schema}, not in pg_catalog',
        detail="madnb compares values only with pg_catalog's operators, so that no object on the search_path "
        "can run inside it; values of this type would be grouped by their own equality but compared by "
        "pg_catalog's (for citext: case-sensitively), giving a wrong model",
        hint="train and classify from a view that casts the column to a type pg_catalog compares, "
        "e.g. lower(x::text) for case-insensitive text",
    )


def resolve_new_name(plpy: Plpy, text: str | None, argument: str) -> NewName:
    """Check that a table or view to be created does not exist yet (42P07 otherwise)."""
    parts = parse_name(text, argument)
    if len(parts) == 2:
        schema = parts[0]
        rows = plpy.execute(
            plpy.prepare(
                Sql("SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname OPERATOR(pg_catalog.=) $1"), ["pg_catalog.name"]
            ),
            [schema],
        )
        if not rows:
            raise MadnbError("3F000", f'schema "{schema}" does not exist', detail=f"{argument} is {text!r}")
    else:
        with _on_callers_search_path(plpy):
            schema = plpy.execute(Sql("SELECT pg_catalog.current_schema()::pg_catalog.text AS s"))[0]["s"]
        if schema is None:
            raise MadnbError(
                "3F000",
                "no schema has been selected to create in",
                detail=f"{argument} is {text!r}",
                hint="qualify the name with a schema or set search_path",
            )
    new = NewName(schema, parts[-1])
    rows = plpy.execute(
        plpy.prepare(Sql("SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken"), ["pg_catalog.text"]),
        [_qualified_text([new.schema, new.name])],
    )
    if rows[0]["taken"]:
        raise MadnbError(
            "42P07",
            f'relation "{new.display}" already exists',
            detail=f"{argument} is {text!r}",
            hint="drop it first or choose another name",
        )
    return new


def created(plpy: Plpy, name: NewName) -> Relation:
    """The relation just created under ``name`` (its OID looked up once)."""
    oid = plpy.execute(
        plpy.prepare(Sql("SELECT pg_catalog.to_regclass($1)::pg_catalog.oid::pg_catalog.int8 AS o"), ["pg_catalog.text"]),
        [name.sql],
    )[0]["o"]
    return Relation(name.schema, name.name, int(oid))


def distinct_outputs(*names: NewName) -> None:
    """Two outputs of one call may not share a name."""
    seen: set[tuple[str, str]] = set()
    for n in names:
        key = (n.schema, n.name)
        if key in seen:
            raise MadnbError("42P07", f'output name "{n.display}" is given twice', hint="give each output its own name")
        seen.add(key)

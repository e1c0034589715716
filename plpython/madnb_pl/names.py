"""Names are identifiers, never code.

Every table, view and column argument is parsed here with PostgreSQL's rules for
identifiers (optionally schema-qualified, optionally double-quoted, unquoted parts
folded to lower case) and resolved against the catalog.  What reaches generated
SQL is always :func:`quote_ident` of a parsed part, so a hostile name is data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import MadnbError

_FIRST = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_REST = _FIRST | set("0123456789$")
_MAX_IDENT_BYTES = 63


def quote_ident(name: str) -> str:
    """Always-quoted identifier, as ``format('%I')`` would quote a name that needs it."""
    if "\x00" in name:
        raise MadnbError("42602", "identifier contains a NUL character")
    return '"' + name.replace('"', '""') + '"'


def parse_name(text: str | None, what: str, max_parts: int = 2) -> list[str]:
    """Split ``text`` into identifier parts with PostgreSQL's rules.

    ``schema.table``, ``"My Schema"."My Table"``, ``Table`` (folded to ``table``).
    Raises 22004 for NULL and 42602 for anything that is not such a name.
    """
    if text is None:
        raise MadnbError("22004", f"{what} must not be NULL")
    parts: list[str] = []
    i, n = 0, len(text)

    def bad(reason: str) -> MadnbError:
        return MadnbError(
            "42602",
            f"invalid {what}: {text!r} is not a valid name",
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
    def sql(self) -> str:
        """The schema-qualified, quoted name for generated SQL."""
        return f"{quote_ident(self.schema)}.{quote_ident(self.name)}"

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
class Column:
    """A resolved column with its type as ``format_type`` spells it."""

    name: str
    type_sql: str
    type_oid: int
    elem_sql: str | None  # element type when the column is an array
    elem_oid: int | None

    @property
    def sql(self) -> str:
        return quote_ident(self.name)


def _qualified_text(parts: list[str]) -> str:
    return ".".join(quote_ident(p) for p in parts)


def resolve_relation(plpy: Any, text: str | None, what: str) -> Relation:
    """Resolve an existing table or view (caller's search_path for unqualified names)."""
    parts = parse_name(text, what)
    plan = plpy.prepare(
        "SELECT c.oid::int8 AS oid, n.nspname::text AS schema, c.relname::text AS name, c.relkind::text AS kind "
        "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.oid = pg_catalog.to_regclass($1)",
        ["text"],
    )
    rows = plpy.execute(plan, [_qualified_text(parts)])
    if not rows:
        raise MadnbError(
            "42P01",
            f"relation {_qualified_text(parts)} does not exist",
            detail=f"{what} is {text!r}",
            hint="unqualified names are looked up on the search_path; check the name and its quoting",
        )
    r = rows[0]
    if r["kind"] not in ("r", "v", "m", "f", "p"):
        raise MadnbError("42809", f"{what} {r['schema']}.{r['name']} is not a table or view")
    return Relation(r["schema"], r["name"], int(r["oid"]))


def resolve_column(plpy: Any, rel: Relation, text: str | None, what: str) -> Column:
    """Resolve a column of ``rel`` (one identifier, quoted or not)."""
    (name,) = parse_name(text, what, max_parts=1)
    plan = plpy.prepare(
        "SELECT a.attname::text AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ, "
        "a.atttypid::int8 AS typoid, "
        "CASE WHEN t.typcategory = 'A' AND t.typelem <> 0 "
        "     THEN pg_catalog.format_type(t.typelem, a.atttypmod) END AS elem, "
        "CASE WHEN t.typcategory = 'A' AND t.typelem <> 0 THEN t.typelem::int8 END AS elemoid "
        "FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid "
        "WHERE a.attrelid = $1 AND a.attname = $2 AND a.attnum > 0 AND NOT a.attisdropped",
        ["oid", "name"],
    )
    rows = plpy.execute(plan, [rel.oid, name])
    if not rows:
        raise MadnbError(
            "42703",
            f'column "{name}" does not exist in {rel.display}',
            detail=f"{what} is {text!r}",
            hint="column names are identifiers: quote names with capitals or spaces",
        )
    r = rows[0]
    return Column(r["name"], r["typ"], int(r["typoid"]), r["elem"], None if r["elemoid"] is None else int(r["elemoid"]))


def resolve_new_name(plpy: Any, text: str | None, what: str) -> NewName:
    """Check that a table or view to be created does not exist yet (42P07 otherwise)."""
    parts = parse_name(text, what)
    if len(parts) == 2:
        schema = parts[0]
        rows = plpy.execute(
            plpy.prepare("SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1", ["name"]), [schema]
        )
        if not rows:
            raise MadnbError("3F000", f'schema "{schema}" does not exist', detail=f"{what} is {text!r}")
    else:
        schema = plpy.execute("SELECT pg_catalog.current_schema()::text AS s")[0]["s"]
        if schema is None:
            raise MadnbError(
                "3F000",
                "no schema has been selected to create in",
                detail=f"{what} is {text!r}",
                hint="qualify the name with a schema or set search_path",
            )
    new = NewName(schema, parts[-1])
    rows = plpy.execute(
        plpy.prepare("SELECT pg_catalog.to_regclass($1) IS NOT NULL AS taken", ["text"]),
        [_qualified_text([new.schema, new.name])],
    )
    if rows[0]["taken"]:
        raise MadnbError(
            "42P07",
            f'relation "{new.display}" already exists',
            detail=f"{what} is {text!r}",
            hint="drop it first or choose another name",
        )
    return new


def distinct_outputs(*names: NewName) -> None:
    """Two outputs of one call may not share a name."""
    seen: set[tuple[str, str]] = set()
    for n in names:
        key = (n.schema, n.name)
        if key in seen:
            raise MadnbError("42P07", f'output name "{n.display}" is given twice', hint="give each output its own name")
        seen.add(key)

"""The share tables' format and bound, without a server (madnb_pl.release.share_table, madnb_pl.merge.secure)."""

from __future__ import annotations

import json

import pytest

from madnb_pl.core.errors import MadnbError
from madnb_pl.merge.part_sources import split_source
from madnb_pl.release import share_table
from madnb_pl.release.statistics_table import Header


def header(**changes: object) -> share_table.ShareHeader:
    stats = Header(format=1, id="s", mode="exact", num_attrs=2, numeric=[2], class_type="text", element_type="double precision",
                   source="public.t", created_at="now", bounds=[[2, -1.0, 1.0]], fixed_point_bits=40, fixed_point_scale=1 << 40)
    fields: dict[str, object] = dict(
        format=1, kind="share", id="x", statistics=stats, share_index=1, shares=2, modulus=str((1 << 127) - 1), owners=["o"],
        releases=["s"], expected_owners=None, created_at="now",
    )
    fields.update(changes)
    return share_table.ShareHeader(**fields)  # type: ignore[arg-type]


def test_the_modulus_is_the_mersenne_prime_2_to_the_127_minus_1() -> None:
    p = share_table.MODULUS
    assert p == 2**127 - 1 and all(pow(a, p - 1, p) == 1 for a in (2, 3, 5, 7, 11, 13))


def test_no_sum_of_the_most_owners_allowed_can_wrap_and_one_more_could() -> None:
    half = (share_table.MODULUS - 1) // 2
    per_owner = share_table.ROWS_PER_OWNER_MAX * (1 << share_table.SHARE_FIXED_POINT_BITS) ** 2  # the largest sum of squares
    assert share_table.MAX_OWNERS == 16383
    assert share_table.MAX_OWNERS * per_owner <= half < (share_table.MAX_OWNERS + 1) * per_owner
    share_table.check_owners(share_table.MAX_OWNERS)
    with pytest.raises(MadnbError) as e:
        share_table.check_owners(share_table.MAX_OWNERS + 1)
    assert e.value.sqlstate == "22023"


def test_a_share_header_reads_back_as_written_and_any_edited_field_is_refused_as_tampered() -> None:
    text = header().text()
    assert share_table.parse(text, "s", "t", "share") == header().sealed()
    fields = json.loads(text[len(share_table.COMMENT_PREFIX):])
    for key, value in (("share_index", 2), ("modulus", "7"), ("owners", ["o", "p"])):
        edited = share_table.COMMENT_PREFIX + json.dumps({**fields, key: value})
        with pytest.raises(MadnbError) as e:
            share_table.parse(edited, "shareSources[1]", "public.t", "share")
        assert e.value.sqlstate == "22023" and e.value.message == "shareSources[1] public.t has a tampered share header"


def test_a_source_names_a_table_or_a_server_and_a_table_split_at_a_colon_outside_double_quotes() -> None:
    assert split_source("public.share_1", "s") == (None, "public.share_1")
    assert split_source("owner1:public.share_1", "s") == ("owner1", "public.share_1")
    assert split_source('"Owner:1":share', "s") == ("Owner:1", "share")
    assert split_source('"a:b"', "s") == (None, '"a:b"')

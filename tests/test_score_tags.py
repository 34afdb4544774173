"""Template helpers that stand in for Django's own for speed must give
exactly what Django's would."""

from __future__ import annotations

import pytest
from django.template import engines
from django.urls import NoReverseMatch, reverse, set_script_prefix

from scorekeeper.templatetags.score_tags import match_url

SHEET_URLS = [
    ("match", 1),
    ("record_hand", 1),
    ("save_bids", 1),
    ("preview", 1),
    ("match_changed", 1),
    ("undo_hand", 1),
    ("history", 1),
    ("share", 1),
    ("edit_hand", 2),
]


@pytest.mark.parametrize(("name", "arity"), SHEET_URLS)
@pytest.mark.parametrize("prefix", ["/", "/club/"])
def test_match_url_is_what_reverse_gives(name, arity, prefix):
    set_script_prefix(prefix)
    try:
        for ids in ([1, 2][:arity], [987_654_320, 987_654_321][:arity], [40213, 7][:arity], ["12", "3"][:arity]):
            assert match_url(name, *ids) == reverse(name, args=ids), (name, ids)
    finally:
        set_script_prefix("/")


def test_match_url_in_a_template_and_as_a_variable():
    template = engines["django"].from_string(
        "{% load score_tags %}{% match_url 'edit_hand' m 3 %} {% match_url 'record_hand' m as u %}[{{ u }}]"
    )
    assert template.render({"m": 42}) == f"{reverse('edit_hand', args=[42, 3])} [{reverse('record_hand', args=[42])}]"


def test_match_url_refuses_what_is_not_an_id():
    with pytest.raises(ValueError):
        match_url("record_hand", "1/../../admin")
    with pytest.raises(NoReverseMatch):
        match_url("edit_hand", 1)  # too few ids, as {% url %} would say

"""The admin under the app's Content Security Policy (no inline script or
style): its pages load with no violation reported, and their scripts run
(select all on a change list, the players' autocomplete in a match's seats,
adding a row of an inline)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import NAMES2

pytestmark = pytest.mark.e2e
TABLET = pytest.mark.parametrize("size", ["tablet"], indirect=True)


@TABLET
def test_the_admin_works_under_the_csp(app, shot):
    page = app.page
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation',"
        " e => console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    user = app.make_organiser()
    app.log_in_fast(user)
    match = app.make_match("spades", NAMES2, {"target": 500}, hands=[{"bids": [4, 5], "tricks": [6, 7]}], owner=user)

    response = page.goto("/admin/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.get_by_role("link", name="Matches")).to_be_visible()

    page.goto("/admin/scorekeeper/match/")
    page.locator("#action-toggle").check()  # actions.js
    expect(page.locator(".action-counter")).to_contain_text("1 of 1 selected")

    page.goto(f"/admin/scorekeeper/match/{match.pk}/change/")
    expect(page.locator(".select2-container").first).to_be_visible()  # the seats' player autocomplete
    rows = page.locator("#seats-group tr.dynamic-seats")
    expect(rows).to_have_count(2)  # Ann and Bob
    page.locator("#seats-group .add-row a").click()  # inlines.js adds a row
    expect(rows).to_have_count(3)
    shot("admin-match-change")

    page.goto("/admin/scorekeeper/player/add/")
    page.locator("#id_name").fill("Newcomer")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("Newcomer")
    assert violations == []

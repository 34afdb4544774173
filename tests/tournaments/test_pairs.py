"""A pairs event: a Swiss of 8 fixed pairs over three rounds of Court Piece,
through the pages, every table on its two pairs' own phones (the side A
pair enters, the side B pair confirms). An entrant is a pair; the pairs sit
partners opposite (RULES.md 1.5); standings are by pair, match points with
the score difference next.

The results follow one rule, so the standings can be known without the
app: the pair registered earlier always wins its table (two kots, the
target of 2 courts). Whatever the Swiss pairs, after three rounds exactly
one pair has won 3 (6 match points), three have won 2, three 1, one none."""

from __future__ import annotations

import re

import pytest

from scorekeeper.audit import Actor
from scorekeeper.models import Entrant, Match, Player, Round, Table
from scorekeeper.tournaments import services

from ..conftest import form_values, text_of
from .helpers import client_for
from .test_views import card_tokens

pytestmark = pytest.mark.django_db

PAIRS = ["Ann & Ari", "Bea & Ben", "Cal & Cy", "Dee & Dot", "Eve & Eli", "Fay & Flo", "Gus & Gil", "Hal & Hoy"]
STRENGTH = {pair.split(" & ")[0]: k for k, pair in enumerate(PAIRS)}  # the first-named player: lower wins


def enter_deal(device, match_id: int, winner: int) -> None:
    """Side A's phone: the side that took seven, a kot, Save (the form as drawn)."""
    form = form_values(device.get(f"/matches/{match_id}/").content.decode(), "entry-form")
    saved = device.post(f"/matches/{match_id}/hands/", {**form, "winner": str(winner), "court": "first7"})
    assert saved.status_code == 302, text_of(saved)


def confirm_deal(device, match_id: int, number: int) -> None:
    """Side B's phone: the check card of deal ``number``, then "Correct"."""
    card = device.get(f"/matches/{match_id}/hands/{number}/check/").content.decode()
    version = re.search(r'name="version" value="(\d+)"', card).group(1)
    key = re.search(r'name="client_key" value="([^"]+)"', card).group(1)
    answer = device.post(
        f"/matches/{match_id}/hands/{number}/check/", {"version": version, "client_key": key, "verdict": "correct"}
    )
    assert answer.status_code in (200, 302), text_of(answer)


def standings_rows(page: str) -> list[tuple[str, str]]:
    return [
        (name, points) for name, points in re.findall(r'<th scope="row">([^<]+)</th><td class="mp">([^<]+)</td>', page)
    ]


def test_a_swiss_of_eight_pairs_over_three_rounds(organiser):
    org = client_for(organiser)
    t = services.create_tournament(
        name="Rang Night", game="courtpiece", format="swiss", rounds=3, actor=Actor.organiser(organiser)
    )
    url = f"/tournaments/{t.pk}/"
    page = text_of(org.get(url))
    assert "Register pairs" in page and "One pair a line" in page

    # Registration: one pair a line; a single name and a player already in a pair are refused in words.
    answer = org.post(f"{url}players/", {"names": "\n".join([*PAIRS, "Ivy", "Ann & Zed"])}, follow=True)
    page = text_of(answer)
    assert "Registered: Ann & Ari, Bea & Ben, Cal & Cy" in page
    assert "Ivy: a pair is two names, e.g. “Ann & Cat”." in page
    assert "Ann & Zed: Ann is already in a pair." in page
    again = text_of(org.post(f"{url}players/", {"names": "Ari & Ann"}, follow=True))
    assert "Already registered: Ari & Ann." in again
    assert Entrant.objects.filter(tournament=t).count() == 8
    assert not Player.objects.filter(name="Zed").exists()

    met = set()
    for number in (1, 2, 3):
        assert org.post(f"{url}rounds/start/").status_code == 302
        rnd = Round.objects.get(tournament=t, number=number)
        assert org.post(f"{url}rounds/{rnd.pk}/publish/").status_code == 302
        cards = text_of(org.get(f"{url}cards/?round={number}"))
        tokens = card_tokens(cards)
        tables = list(Table.objects.filter(round=rnd).select_related("match").order_by("number"))
        assert len(tables) == 4
        # Each card: the four players in seat order, a code per pair, who deals first.
        first = tables[0].match.player_names
        seats = re.search(r'id="table-1".*?<ol class="seats">(.*?)</ol>', cards, re.S).group(1)
        assert re.findall(r"<li>([^<]+)</li>", seats) == first
        assert f"{first[0]} & {first[2]}'s phone" in cards and "Each pair scans its own code" in cards
        assert f"{first[0]} (seat 1) deals first." in cards
        for table in tables:
            names = table.match.player_names
            a, b = names[0], names[1]
            # Partners opposite: the pair of seat 1 also holds seat 3, the other pair seats 2 and 4.
            assert f"{names[0]} & {names[2]}" in PAIRS and f"{names[1]} & {names[3]}" in PAIRS
            assert frozenset((a, b)) not in met  # a Swiss never pairs two pairs twice
            met.add(frozenset((a, b)))
            side_a, side_b = client_for(), client_for()
            token_a, token_b = tokens[str(table.number)]
            assert side_a.post(f"/l/{token_a}/")["Location"] == f"/matches/{table.match_id}/"
            assert side_b.post(f"/l/{token_b}/")["Location"] == f"/matches/{table.match_id}/"
            winner = 0 if STRENGTH[a] < STRENGTH[b] else 1
            enter_deal(side_a, table.match_id, winner)
            enter_deal(side_a, table.match_id, winner)
            match = Match.objects.get(pk=table.match_id)
            assert match.status == "finished" and match.winners == [winner] and match.totals[winner] == 2
            # Over, but not counted until the other pair has checked both deals.
            won_by = f"{names[winner]} &amp; {names[winner + 2]}"
            before = dict(standings_rows(org.get(f"{url}standings/").content.decode()))[won_by]
            confirm_deal(side_b, table.match_id, 1)
            confirm_deal(side_b, table.match_id, 2)
            after = dict(standings_rows(org.get(f"{url}standings/").content.decode()))[won_by]
            assert int(after) == int(before) + 2
            assert Match.objects.get(pk=table.match_id).unconfirmed_hands == 0
        assert Round.objects.get(pk=rnd.pk).status == "complete" or "Start round" in text_of(org.get(url))

    page = org.get(f"/tournaments/{t.pk}/standings/").content.decode()
    rows = standings_rows(page)
    assert [points for _name, points in rows] == ["6", "4", "4", "4", "2", "2", "2", "0"]
    assert rows[0][0] == "Ann &amp; Ari" and rows[-1][0] == "Hal &amp; Hoy"
    assert {name for name, _points in rows} == {pair.replace("&", "&amp;") for pair in PAIRS}
    last = Round.objects.get(tournament=t, number=3)
    for page_url in (url, f"{url}pairings/", f"{url}cards/?round=3"):
        answer = org.get(page_url)
        assert answer.status_code == 200 and "Ann &amp; Ari" in answer.content.decode(), page_url
    assert org.get(f"{url}rounds/{last.pk}/desk/").status_code == 200  # every table done: nothing to chase
    results = org.get(f"{url}results.csv").content.decode()
    assert results.count("\n") >= 12 and "Ann & Ari" in results  # a line per table of the three rounds
    csv = org.get(f"/tournaments/{t.pk}/standings.csv").content.decode()
    assert "Ann & Ari" in csv and "Hal & Hoy" in csv
    # A player's own record follows from the pair's: Ari won all three, as Ann did.
    ari = text_of(client_for().get(f"/players/{Player.objects.get(name='Ari').pk}/"))
    assert "3 matches" in ari and "3 won" in ari


def test_a_pairs_event_is_paired_not_seated(organiser):
    with pytest.raises(services.ServiceError) as error:
        services.create_tournament(
            name="x", game="partnership_spades", format="seated", rounds=2, actor=Actor.organiser(organiser)
        )
    assert "played by pairs, two pairs a table" in error.value.message


def test_a_pairs_event_survives_a_backup_restored_twice(organiser):
    import json

    from scorekeeper.backups.export import export_everything
    from scorekeeper.backups.restore import import_backup
    from scorekeeper.tournaments import selectors

    from ..backups.test_backups import empty_the_database
    from ..conftest import play
    from .helpers import make, publish_next, tables_of

    t = make(organiser, PAIRS[:4], game="partnership_spades", rounds=2, options={"target": 100})
    for table in tables_of(publish_next(t, organiser)):
        play(table.match, {"bids": [4, 4, 4, 4], "tricks": [9, 4]})  # 81 to -80: seat 1's pair leads
        play(table.match, {"bids": [2, 2, 2, 2], "tricks": [7, 6]})  # 43 more: 124, over the target
    before = [(r.rank, r.name, r.match_points) for r in selectors.standings(t).rows]
    assert [points for _rank, _name, points in before] == [2, 2, 0, 0]
    backup = json.dumps(export_everything())
    empty_the_database()
    import_backup(backup)
    import_backup(backup)  # twice: found again, not doubled
    assert Entrant.objects.count() == 4
    assert (
        sorted(f"{e.player.name} & {e.partner.name}" for e in Entrant.objects.select_related("player", "partner"))
        == PAIRS[:4]
    )
    restored = selectors.standings(t.__class__.objects.get())
    assert [(r.rank, r.name, r.match_points) for r in restored.rows] == before


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda e: e.pop("partner"), "a pair's partner is not in the file's players"),
        (lambda e: e.update(partner=999), "a pair's partner is not in the file's players"),
        (lambda e: e.update(partner=e["player"]), "is entered twice"),
    ],
)
def test_a_damaged_pairs_backup_is_refused_in_words(organiser, damage, words):
    import json

    from scorekeeper.backups.export import export_everything
    from scorekeeper.backups.restore import import_backup

    from .helpers import make

    make(organiser, PAIRS[:2], game="courtpiece", rounds=1, options={})
    backup = export_everything()
    damage(backup["tournaments"][0]["entrants"][0])
    with pytest.raises(services.ServiceError) as error:
        import_backup(json.dumps(backup))
    assert words in error.value.message
    assert Entrant.objects.count() == 2  # nothing imported


def test_the_new_tournament_page_offers_pairs_events(organiser):
    page = text_of(client_for(organiser).get("/tournaments/new/"))
    assert page.count("Pairs: round robin, double round robin or Swiss of fixed partnerships") == 2

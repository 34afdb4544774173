"""Backups: export, then import into an empty database, gives back the same
sheets, standings and ratings; a bad file imports nothing and says why."""

import json

import pytest
from django.core.management import CommandError, call_command

from scorekeeper.audit import Actor
from scorekeeper.backups.export import export_everything, export_match, sheet_csv_rows
from scorekeeper.backups.restore import import_backup
from scorekeeper.errors import ServiceError
from scorekeeper.matches.selectors import score_sheet
from scorekeeper.models import Entrant, Hand, Match, Player, Round, Seat, Table, Tournament
from scorekeeper.players.selectors import game_ratings
from scorekeeper.tournaments import selectors as tournament_selectors
from scorekeeper.tournaments.ending import end_table_early

from ..conftest import MODEL_BACKEND, bid, contract, deal, play, spades_hand
from ..tournaments.helpers import make, publish_next, tables_of


def every_game(make_match):
    """A match of each game (finished and in progress), bids in play, one abandoned."""
    spades = make_match("spades", options={"target": 100}, hands=[spades_hand([7, 4], [8, 5])] * 2)
    in_play = make_match("spades", hands=[spades_hand([3, 4], [5, 8])])
    bid(in_play, {"bids": [4, 5]})
    bridge = make_match(
        "drawbridge", hands=[contract(0, 4, "S", 10, "double"), {"passed_out": True}, contract(1, 3, "NT", 7)]
    )
    sixty = make_match("sixtysix", options={"target": 3}, hands=[deal("out", 0, [70, 30]), deal("out", 0, [70, 20])])
    ohhell = make_match("ohhell", hands=[{"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]}])
    gone = make_match("spades", names=["Eve", "Fay"], hands=[spades_hand([3, 4], [5, 8])])
    Match.objects.filter(pk=gone.pk).update(status=Match.Status.ABANDONED)
    # The games with partnerships (RULES.md 7.8 P7, 8.8 C5 and C4): totals and winners per side.
    four = ["Gus", "Hal", "Ivy", "Jo"]
    p7 = [{"bids": [3, 3, 3, 3], "tricks": t} for t in ([7, 6], [6, 7], [5, 8])]
    p7[1]["bids"] = [2, 2, 2, 2]
    partners = make_match("partnership_spades", names=four, options={"target": 100}, hands=p7)
    court = make_match("courtpiece", names=four, hands=[{"winner": w} for w in (1, 1, 0, 0, 0, 0, 0, 0, 0, 1)])
    bid(court, {"trumps": "H"})
    bavney = make_match("courtpiece", names=four, hands=[{"winner": 1, "court": "all13", "trumps": "S"}])
    return [spades, in_play, bridge, sixty, ohhell, gone, partners, court, bavney]


def sheet_facts(match_id):
    sheet = score_sheet(match_id)
    return {
        "game": sheet.match.game,
        "names": sheet.names,
        "status": sheet.match.status,
        "totals": sheet.totals,
        "winners": sheet.winners,
        "rows": [(r.number, r.entry, r.points, r.totals) for r in sheet.rows],
        "pending": sheet.match.pending_bidding,
    }


def empty_the_database():
    for model in (Table, Round, Entrant, Tournament, Hand, Seat, Match, Player):
        model.objects.all().delete()


@pytest.mark.django_db
def test_round_trip_of_every_game_and_a_tournament(make_match, organiser):
    matches = every_game(make_match)
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], rounds=2)
    rnd = publish_next(t, organiser)
    first, second = tables_of(rnd)
    play(first.match, {"bids": [10, 2], "tricks": [11, 2]})
    play(second.match, {"bids": [3, 3], "tricks": [6, 7]})
    end_table_early(table_id=second.pk, actor=Actor.organiser(organiser))
    before_sheets = sorted((sheet_facts(m.pk) for m in matches), key=repr)
    before_standings = [
        (r.rank, r.name, r.match_points, r.tiebreaks, r.games_played) for r in tournament_selectors.standings(t).rows
    ]
    before_ratings = {
        (game, Player.objects.get(pk=k).name): (r.mu, r.sigma)
        for game in ("spades", "partnership_spades", "courtpiece")
        for k, r in game_ratings(game).items()
    }
    backup = json.dumps(export_everything())

    empty_the_database()
    done = import_backup(backup)
    assert (done.matches, done.tournaments) == (len(matches) + 2, 1)

    imported = Match.objects.exclude(table__isnull=False)
    assert sorted((sheet_facts(m.pk) for m in imported), key=repr) == before_sheets
    t2 = Tournament.objects.get()
    assert [
        (r.rank, r.name, r.match_points, r.tiebreaks, r.games_played) for r in tournament_selectors.standings(t2).rows
    ] == before_standings
    after_ratings = {
        (game, Player.objects.get(pk=k).name): (r.mu, r.sigma)
        for game in ("spades", "partnership_spades", "courtpiece")
        for k, r in game_ratings(game).items()
    }
    assert {game for game, _name in after_ratings} == {"spades", "partnership_spades", "courtpiece"}
    assert after_ratings.keys() == before_ratings.keys()
    for name, (mu, sigma) in before_ratings.items():
        assert after_ratings[name] == (pytest.approx(mu), pytest.approx(sigma))
    ended = Table.objects.get(round__tournament=t2, number=second.number)
    assert ended.ended_early_at is not None and ended.match.status == "finished"


@pytest.mark.django_db
def test_a_file_with_one_illegal_hand_imports_nothing_and_says_where(make_match):
    every_game(make_match)
    data = export_everything()
    bridge = next(m for m in data["matches"] if m["game"] == "drawbridge")
    bridge["hands"][2]["tricks"] = 14
    counts = (Match.objects.count(), Hand.objects.count(), Player.objects.count())
    with pytest.raises(ServiceError) as refused:
        import_backup(json.dumps(data))
    message = refused.value.message
    assert message.startswith("Nothing was imported:")
    assert "Draw Bridge: Ann · Bob" in message and "Hand 3" in message
    assert (Match.objects.count(), Hand.objects.count(), Player.objects.count()) == counts


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda d: d.update(schema="other"), "not a Scorekeeper backup"),
        (lambda d: d.update(version=99), "version is 99"),
        (lambda d: d["matches"][0].update(players=[999, 998]), "player 999 is not in the file's players"),
        (lambda d: d["matches"][0].update(game="poker"), '"poker" is not one of ours'),
        (lambda d: d["players"].append(dict(d["players"][0])), "two players have the number"),
        (
            lambda d: d["tournaments"][0]["rounds"][0]["tables"][0].update(match=12345),
            "a table's match is not in the file",
        ),
        (lambda d: d["tournaments"][0]["entrants"].append({"player": 777}), "an entrant is not in the file's players"),
    ],
)
def test_broken_references_are_named(make_match, organiser, damage, words):
    make_match("spades", hands=[spades_hand([3, 4], [5, 8])])
    t = make(organiser, ["Ann", "Bob"], rounds=1)
    publish_next(t, organiser)
    data = export_everything()
    damage(data)
    before = Match.objects.count()
    with pytest.raises(ServiceError) as refused:
        import_backup(json.dumps(data))
    assert words in refused.value.message
    assert Match.objects.count() == before


@pytest.mark.django_db
def test_not_json_is_refused_in_words():
    with pytest.raises(ServiceError, match="not a Scorekeeper backup"):
        import_backup(b"\xff\xfe garbage")


@pytest.mark.django_db
def test_importing_into_a_club_with_players_reuses_them(make_match):
    match = make_match("spades", hands=[spades_hand([3, 4], [5, 8])])
    data = export_match(match)
    data["players"][0]["name"] = "ANN"  # the same person, written another way
    import_backup(json.dumps(data), as_copy=True)  # the match is here already: only a copy adds it again
    assert Player.objects.filter(name__iexact="ann").count() == 1
    assert Match.objects.count() == 2


@pytest.mark.django_db
def test_manage_py_export_and_import(make_match, tmp_path, capsys):
    match = make_match("sixtysix", hands=[deal("out", 0, [70, 30])])
    path = tmp_path / "club.json"
    call_command("export", str(path))
    empty_the_database()
    call_command("import", str(path))
    assert "Restored 1 match." in capsys.readouterr().out
    assert Match.objects.get().totals == [2, 0]
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "scorekeeper-backup", "version": 1, "matches": 3}')
    with pytest.raises(CommandError, match="must be a list"):
        call_command("import", str(bad))
    assert match.pk  # the first one is gone with the emptied database; nothing new came in
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_the_score_sheet_as_csv(web, owned):
    match = owned("spades", names=["=cmd", "Bob"], hands=[spades_hand([7, 4], [8, 5]), spades_hand([3, 4], [5, 8])])
    rows = sheet_csv_rows(match)
    assert rows[0] == ["hand", "'=cmd points", "Bob points", "'=cmd total", "Bob total"]
    assert rows[1] == [1, 71, 41, 71, 41]
    assert rows[2] == [2, 32, 44, 103, 85]  # Ann 3 bid, 5 taken: 32; Bob 4 bid, 8 taken: 44
    assert rows[-1][:3] == ["total", 103, 85]
    response = web.get(f"/matches/{match.pk}/sheet.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert b"'=cmd points" in response.content


@pytest.mark.django_db
def test_who_may_download_and_restore(web, owned, django_user_model):
    from django.test import Client

    match = owned("spades")
    assert web.get(f"/matches/{match.pk}/export.json").status_code == 200
    client = Client()
    assert client.get(f"/matches/{match.pk}/export.json").status_code == 403  # a spectator
    stranger = django_user_model.objects.create_user(username="stranger")
    client.force_login(stranger, backend=MODEL_BACKEND)
    assert client.get(f"/matches/{match.pk}/export.json").status_code == 403
    assert client.get("/backup/everything.json").status_code == 403  # not an administrator
    admin = django_user_model.objects.create_superuser(username="root2", password=None)
    client.force_login(admin, backend=MODEL_BACKEND)
    response = client.get("/backup/everything.json")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    assert json.loads(response.content)["schema"] == "scorekeeper-backup"


@pytest.mark.django_db
def test_restore_from_the_page(web, make_match):
    from django.core.files.uploadedfile import SimpleUploadedFile

    match = make_match("spades", hands=[spades_hand([3, 4], [5, 8])])
    good = json.dumps(export_match(match)).encode()
    response = web.post(
        "/backup/", {"file": SimpleUploadedFile("b.json", good, "application/json"), "as_copy": "1"}, follow=True
    )
    assert "Restored as a copy: 1 match." in response.content.decode()
    assert Match.objects.count() == 2
    response = web.post("/backup/", {"file": SimpleUploadedFile("b.json", b"{}", "application/json")})
    assert response.status_code == 422 and "Nothing was imported" in response.content.decode()
    assert web.post("/backup/", {}).status_code == 422
    assert Match.objects.count() == 2


@pytest.mark.django_db
def test_confirmations_survive_the_round_trip(organiser):
    """A tournament whose tables wait for the other side: the confirmed
    table counts after the restore, the unconfirmed one still waits."""
    import uuid

    from scorekeeper.matches import services as match_services

    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], rounds=2, confirm_hands=True)
    first, second = tables_of(publish_next(t, organiser))
    for table in (first, second):
        play(table.match, {"bids": [10, 2], "tricks": [11, 2]})
    checked = Match.objects.get(pk=first.match_id)
    match_services.check_hand(
        match_id=checked.pk,
        number=1,
        correct=True,
        version=checked.version,
        client_key=uuid.uuid4().hex,
        actor=Actor.organiser(organiser),
    )
    before = [(r.name, r.match_points, r.games_played) for r in tournament_selectors.standings(t).rows]
    assert sum(r[2] for r in before) == 2  # one table counts: its two players
    backup = json.dumps(export_everything())
    empty_the_database()
    import_backup(backup)
    t2 = Tournament.objects.get()
    assert t2.confirm_hands is True
    assert [(r.name, r.match_points, r.games_played) for r in tournament_selectors.standings(t2).rows] == before
    assert sorted(Hand.objects.values_list("confirmation", flat=True)) == ["confirmed", "pending"]


@pytest.mark.django_db
def test_a_backup_larger_than_a_form_restores_through_the_page(web, make_match):
    """A club's backup is soon larger than a form's fields may be (256 kB):
    the file is streamed to the page, up to 50 MB."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    for i in range(300):
        make_match("ohhell", names=[f"P{i}a", f"P{i}b", f"P{i}c"], hands=[{"bids": [0, 1, 0], "tricks": [0, 1, 0]}])
    raw = json.dumps(export_everything(), indent=4).encode()
    assert len(raw) > 300 * 1024
    empty_the_database()
    page = web.post("/backup/", {"file": SimpleUploadedFile("club.json", raw)}, follow=True)
    assert "Restored 300 matches." in page.content.decode()


@pytest.mark.django_db
def test_how_an_oh_hell_event_counts_survives_the_round_trip(organiser):
    """Ranked by total score: the file says so, and the restored event ranks
    the same way; a file from before the choice counts placement points."""
    t = make(organiser, ["Ann", "Bob", "Cat"], game="ohhell", fmt="seated", rounds=1, options={"schedule": "up"})
    Tournament.objects.filter(pk=t.pk).update(oh_hell_points="total_score")
    (table,) = tables_of(publish_next(t, organiser))
    play(table.match, {"bids": [1, 0, 1], "tricks": [1, 0, 0]})  # 11, 10, 0
    end_table_early(table_id=table.pk, actor=Actor.organiser(organiser))
    before = [(r.rank, r.name, r.match_points) for r in tournament_selectors.standings(Tournament.objects.get()).rows]
    data = export_everything()
    assert data["tournaments"][0]["oh_hell_points"] == "total_score"

    empty_the_database()
    import_backup(json.dumps(data))
    restored = Tournament.objects.get()
    assert restored.oh_hell_points == "total_score"
    standings = tournament_selectors.standings(restored)
    assert standings.points_label == "Total score"
    assert [(r.rank, r.name, r.match_points) for r in standings.rows] == before
    assert sorted(points for _rank, _name, points in before) == [0, 10, 11]

    empty_the_database()
    del data["tournaments"][0]["oh_hell_points"]
    import_backup(json.dumps(data))
    assert Tournament.objects.get().oh_hell_points == "placement"

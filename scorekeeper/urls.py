"""The app's URLs, one list per room. Ids use the ``id`` converter
(``converters``): at most 18 digits, so every id fits the database."""

from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from . import converters  # noqa: F401 - registers <id:...>
from .access import views as access
from .access.login_form import LoginForm
from .backups import views as backups
from .installable import manifest, service_worker
from .matches.views import confirm, corrections, lifecycle, rules, sheet
from .players import views as players
from .tournaments.views import organiser, public

urlpatterns = [
    path("", lifecycle.home, name="home"),
    path("matches/new/", lifecycle.new_match, name="new_match"),
    path("matches/<id:match_id>/", sheet.match_sheet, name="match"),
    path("matches/<id:match_id>/changed/", sheet.match_changed, name="match_changed"),
    path("matches/<id:match_id>/bids/", sheet.save_bids, name="save_bids"),
    path("matches/<id:match_id>/bids/clear/", sheet.clear_bids, name="clear_bids"),
    path("matches/<id:match_id>/hands/", sheet.record_hand, name="record_hand"),
    path("matches/<id:match_id>/preview/", sheet.preview, name="preview"),
    path("matches/<id:match_id>/hands/<id:number>/edit/", corrections.edit_hand, name="edit_hand"),
    path("matches/<id:match_id>/hands/<id:number>/preview/", corrections.edit_preview, name="edit_preview"),
    path("matches/<id:match_id>/undo/", corrections.undo_hand, name="undo_hand"),
    path("matches/<id:match_id>/history/", corrections.history, name="history"),
    path("matches/<id:match_id>/hands/<id:number>/check/", confirm.check_hand, name="check_hand"),
    path("matches/<id:match_id>/accept/", confirm.accept_match, name="accept_match"),
    re_path(
        r"^matches/(?P<match_id>[0-9]{1,18})/(?P<action>abandon|reopen|again)/$",
        lifecycle.match_action,
        name="match_action",
    ),
]

urlpatterns += [
    path("games/<slug:game_id>/rules/", rules.game_rules, name="game_rules"),
]

urlpatterns += [
    path("sw.js", service_worker, name="service_worker"),
    path("manifest.webmanifest", manifest, name="manifest"),
]

urlpatterns += [
    path("players/", players.players, name="players"),
    path("players/<id:player_id>/rename/", players.rename_player, name="rename_player"),
    path("players/<id:player_id>/", players.player_page, name="player"),
    path("players/named/", players.player_by_name, name="player_by_name"),
    path("ratings/", players.ratings, name="ratings"),
    path("backup/", backups.backup_page, name="backup"),
    path("backup/everything.json", backups.everything_json, name="backup_everything"),
    path("matches/<id:match_id>/export.json", backups.match_json, name="match_json"),
    path("matches/<id:match_id>/sheet.csv", backups.match_csv, name="match_csv"),
    path("tournaments/<id:pk>/export.json", backups.tournament_json, name="tournament_json"),
]

urlpatterns += [
    path("setup/", access.setup, name="setup"),
    path(
        "login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, authentication_form=LoginForm),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("l/<str:token>/", access.open_link, name="open_link"),
    path("matches/<id:match_id>/share/", access.share, name="share"),
    path("matches/<id:match_id>/share/<id:link_id>/revoke/", access.revoke, name="revoke_link"),
    path("matches/<id:match_id>/co-organisers/", access.add_co_organiser, name="add_co_organiser"),
]

urlpatterns += [
    path("tournaments/", organiser.tournament_list, name="tournaments"),
    path("tournaments/new/", organiser.new_tournament, name="new_tournament"),
    path("tournaments/<id:pk>/", organiser.dashboard, name="tournament"),
    path("tournaments/<id:pk>/players/", organiser.register, name="tournament_register"),
    path("tournaments/<id:pk>/players/<id:entrant_id>/drop/", organiser.drop, name="tournament_drop"),
    path("tournaments/<id:pk>/rounds/start/", organiser.start_round, name="tournament_start_round"),
    path("tournaments/<id:pk>/rounds/<id:round_id>/", organiser.round_review, name="tournament_round"),
    path("tournaments/<id:pk>/rounds/<id:round_id>/swap/", organiser.swap, name="tournament_swap"),
    path("tournaments/<id:pk>/rounds/<id:round_id>/publish/", organiser.publish, name="tournament_publish"),
    path("tournaments/<id:pk>/rounds/<id:round_id>/links/", organiser.round_links, name="tournament_round_links"),
    path("tournaments/<id:pk>/rounds/<id:round_id>/desk/", organiser.desk, name="tournament_desk"),
    path("tournaments/<id:pk>/rounds/<id:round_id>/clock/", organiser.desk_clock, name="tournament_desk_clock"),
    path("tournaments/<id:pk>/cards/", organiser.table_cards, name="tournament_cards"),
    path("tournaments/<id:pk>/tables/<id:table_id>/link/", organiser.table_link, name="tournament_table_link"),
    path("tournaments/<id:pk>/tables/<id:table_id>/end/", organiser.end_table, name="tournament_end_table"),
    path("tournaments/<id:pk>/standings/", public.standings_page, name="tournament_standings"),
    path("tournaments/<id:pk>/standings.csv", public.standings_csv, name="tournament_standings_csv"),
    path("tournaments/<id:pk>/results.csv", public.results_csv, name="tournament_results_csv"),
    path("tournaments/<id:pk>/pairings/", public.pairings, name="tournament_pairings"),
]

import os

from django.contrib.auth import views as auth_views
from django.urls import path

from .auth_forms import LoginForm
from .views import access, matches
from .views import tournaments as tournament_views

urlpatterns = [
    path("", matches.home, name="home"),
    path("setup/", access.setup, name="setup"),
    path(
        "login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, authentication_form=LoginForm),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("l/<str:token>/", access.open_link, name="open_link"),
    path("players/", matches.players, name="players"),
    path("players/<int:player_id>/rename/", matches.rename_player, name="rename_player"),
    path("matches/new/", matches.new_match, name="new_match"),
    path("matches/<int:match_id>/", matches.match_sheet, name="match"),
    path("matches/<int:match_id>/changed/", matches.match_changed, name="match_changed"),
    path("matches/<int:match_id>/bids/", matches.save_bids, name="save_bids"),
    path("matches/<int:match_id>/bids/clear/", matches.clear_bids, name="clear_bids"),
    path("matches/<int:match_id>/hands/", matches.record_hand, name="record_hand"),
    path("matches/<int:match_id>/preview/", matches.preview, name="preview"),
    path("matches/<int:match_id>/hands/<int:number>/edit/", matches.edit_hand, name="edit_hand"),
    path("matches/<int:match_id>/undo/", matches.undo_hand, name="undo_hand"),
    path("matches/<int:match_id>/share/", access.share, name="share"),
    path("matches/<int:match_id>/share/<int:link_id>/revoke/", access.revoke, name="revoke_link"),
    path("matches/<int:match_id>/history/", access.history, name="history"),
    path("matches/<int:match_id>/co-organisers/", access.add_co_organiser, name="add_co_organiser"),
    path("matches/<int:match_id>/<slug:action>/", matches.match_action, name="match_action"),
]

# ---------------------------------------------------------------- tournaments
urlpatterns += [
    path("tournaments/", tournament_views.tournament_list, name="tournaments"),
    path("tournaments/new/", tournament_views.new_tournament, name="new_tournament"),
    path("tournaments/<int:pk>/", tournament_views.dashboard, name="tournament"),
    path("tournaments/<int:pk>/players/", tournament_views.register, name="tournament_register"),
    path("tournaments/<int:pk>/players/<int:entrant_id>/drop/", tournament_views.drop, name="tournament_drop"),
    path("tournaments/<int:pk>/rounds/start/", tournament_views.start_round, name="tournament_start_round"),
    path("tournaments/<int:pk>/rounds/<int:round_id>/", tournament_views.round_review, name="tournament_round"),
    path("tournaments/<int:pk>/rounds/<int:round_id>/swap/", tournament_views.swap, name="tournament_swap"),
    path("tournaments/<int:pk>/rounds/<int:round_id>/publish/", tournament_views.publish, name="tournament_publish"),
    path(
        "tournaments/<int:pk>/rounds/<int:round_id>/links/", tournament_views.round_links, name="tournament_round_links"
    ),
    path("tournaments/<int:pk>/cards/", tournament_views.table_cards, name="tournament_cards"),
    path("tournaments/<int:pk>/tables/<int:table_id>/link/", tournament_views.table_link, name="tournament_table_link"),
    path("tournaments/<int:pk>/tables/<int:table_id>/end/", tournament_views.end_table, name="tournament_end_table"),
    path("tournaments/<int:pk>/standings/", tournament_views.standings_page, name="tournament_standings"),
    path("tournaments/<int:pk>/standings.csv", tournament_views.standings_csv, name="tournament_standings_csv"),
    path("tournaments/<int:pk>/results.csv", tournament_views.results_csv, name="tournament_results_csv"),
    path("tournaments/<int:pk>/pairings/", tournament_views.pairings, name="tournament_pairings"),
]

# ------------------------------------------------------- benchmark baseline
# Only for bench/load.py: never registered unless the environment asks for it.
if os.environ.get("SCOREKEEPER_BENCH_BASELINE") == "1":
    from .views import baseline as baseline_views

    urlpatterns += [path("bench/baseline/", baseline_views.baseline, name="bench_baseline")]

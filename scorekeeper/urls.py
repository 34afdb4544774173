from django.contrib.auth import views as auth_views
from django.urls import path

from .views import access, matches

urlpatterns = [
    path("", matches.home, name="home"),
    path("setup/", access.setup, name="setup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("l/<str:token>/", access.open_link, name="open_link"),
    path("players/", matches.players, name="players"),
    path("players/<int:player_id>/rename/", matches.rename_player, name="rename_player"),
    path("matches/new/", matches.new_match, name="new_match"),
    path("matches/<int:match_id>/", matches.match_sheet, name="match"),
    path("matches/<int:match_id>/bids/", matches.save_bids, name="save_bids"),
    path("matches/<int:match_id>/bids/clear/", matches.clear_bids, name="clear_bids"),
    path("matches/<int:match_id>/hands/", matches.record_hand, name="record_hand"),
    path("matches/<int:match_id>/preview/", matches.preview, name="preview"),
    path("matches/<int:match_id>/hands/<int:number>/edit/", matches.edit_hand, name="edit_hand"),
    path("matches/<int:match_id>/undo/", matches.undo_hand, name="undo_hand"),
    path("matches/<int:match_id>/share/", access.share, name="share"),
    path("matches/<int:match_id>/share/<int:link_id>/revoke/", access.revoke, name="revoke_link"),
    path("matches/<int:match_id>/co-organisers/", access.add_co_organiser, name="add_co_organiser"),
    path("matches/<int:match_id>/<slug:action>/", matches.match_action, name="match_action"),
]

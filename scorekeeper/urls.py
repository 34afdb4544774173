from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("players/", views.players, name="players"),
    path("players/<int:player_id>/rename/", views.rename_player, name="rename_player"),
    path("matches/new/", views.new_match, name="new_match"),
    path("matches/<int:match_id>/", views.match_sheet, name="match"),
    path("matches/<int:match_id>/bids/", views.save_bids, name="save_bids"),
    path("matches/<int:match_id>/hands/", views.record_hand, name="record_hand"),
    path("matches/<int:match_id>/preview/", views.preview, name="preview"),
    path("matches/<int:match_id>/hands/<int:number>/edit/", views.edit_hand, name="edit_hand"),
    path("matches/<int:match_id>/undo/", views.undo_hand, name="undo_hand"),
    path("matches/<int:match_id>/<slug:action>/", views.match_action, name="match_action"),
]

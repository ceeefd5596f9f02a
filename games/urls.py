"""Page URLs of the games app (the JSON API lives under /api/, see games/api.py)."""

from django.urls import path

from games import views, views_finished, views_lobby, views_notes

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.new_table, name="new"),
    path("inbox/", views_lobby.inbox, name="inbox"),
    path("inbox/count/", views_lobby.inbox_count, name="inbox_count"),
    path("open-tables/", views_lobby.open_tables, name="open_tables"),
    path("<int:game_id>/", views.game_page, name="game"),
    path("<int:game_id>/panels/", views.panels, name="panels"),
    path("<int:game_id>/act/", views.act, name="act"),
    path("<int:game_id>/query/<slug:name>/", views.query, name="query"),
    path("<int:game_id>/chat/", views.chat, name="chat"),
    path("<int:game_id>/notes/", views_notes.save_note, name="notes"),
    path("<int:game_id>/join/", views.join, name="join"),
    path("<int:game_id>/leave/", views.leave, name="leave"),
    path("<int:game_id>/resign/", views.resign, name="resign"),
    path("<int:game_id>/abort/", views.abort, name="abort"),
    path("<int:game_id>/replace-vote/", views.replace_vote, name="replace_vote"),
    # A finished game: its fairness verdict, a rematch, the step-by-step replay.
    path("<int:game_id>/verify/", views_finished.verify, name="verify"),
    path("<int:game_id>/rematch/", views_finished.rematch, name="rematch"),
    path("<int:game_id>/replay.json", views_finished.replay, name="replay"),
    path(
        "<int:game_id>/replay/<int:step>/board/",
        views_finished.replay_step_board,
        name="replay_board",
    ),
    path("<int:game_id>/download/", views_finished.download, name="download"),
]

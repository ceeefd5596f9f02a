"""Page URLs of the games app (the JSON API lives under /api/, see games/api/tables.py)."""

from django.urls import path

from games.web import finished, lobby, notes, page, posts

app_name = "games"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("new/", lobby.new_table, name="new"),
    path("inbox/", lobby.inbox, name="inbox"),
    path("inbox/count/", lobby.inbox_count, name="inbox_count"),
    path("open-tables/", lobby.open_tables, name="open_tables"),
    path("<int:game_id>/", page.game_page, name="game"),
    path("<int:game_id>/panels/", page.panels, name="panels"),
    path("<int:game_id>/act/", posts.act, name="act"),
    path("<int:game_id>/query/<slug:name>/", page.query, name="query"),
    path("<int:game_id>/chat/", posts.chat, name="chat"),
    path("<int:game_id>/notes/", notes.save_note, name="notes"),
    path("<int:game_id>/join/", posts.join, name="join"),
    path("<int:game_id>/leave/", posts.leave, name="leave"),
    path("<int:game_id>/resign/", posts.resign, name="resign"),
    path("<int:game_id>/abort/", posts.abort, name="abort"),
    path("<int:game_id>/replace-vote/", posts.replace_vote, name="replace_vote"),
    # A finished game: its fairness verdict, a rematch, the step-by-step replay.
    path("<int:game_id>/verify/", finished.verify, name="verify"),
    path("<int:game_id>/rematch/", finished.rematch, name="rematch"),
    path("<int:game_id>/replay.json", finished.replay, name="replay"),
    path(
        "<int:game_id>/replay/<int:step>/board/",
        finished.replay_step_board,
        name="replay_board",
    ),
    path("<int:game_id>/download/", finished.download, name="download"),
]

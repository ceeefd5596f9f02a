from django.urls import path

from accounts import views

urlpatterns = [
    path("accounts/settings/", views.settings_view, name="settings"),
    path(
        "accounts/settings/tokens/<int:token_id>/revoke/",
        views.token_revoke,
        name="token_revoke",
    ),
    path("users/<str:username>/", views.profile, name="profile"),
    path("games/<int:game_id>/verify/", views.game_verify, name="game_verify"),
    path("games/<int:game_id>/rematch/", views.game_rematch, name="game_rematch"),
    path("games/<int:game_id>/replay.json", views.game_replay, name="game_replay"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:game>/", views.leaderboard, name="leaderboard_game"),
]

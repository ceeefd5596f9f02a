from django.urls import path

from players import mutes, views

urlpatterns = [
    path("accounts/settings/", views.settings_view, name="settings"),
    path(
        "accounts/settings/tokens/<int:token_id>/revoke/",
        views.token_revoke,
        name="token_revoke",
    ),
    path("users/<str:username>/", views.profile, name="profile"),
    path("users/<str:username>/mute/", mutes.mute, name="mute"),
    path("users/<str:username>/unmute/", mutes.unmute, name="unmute"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:game>/", views.leaderboard, name="leaderboard_game"),
]

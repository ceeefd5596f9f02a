from django.urls import path

from accounts import views, views_language, views_mutes

urlpatterns = [
    path("accounts/settings/", views.settings_view, name="settings"),
    path(
        "accounts/settings/tokens/<int:token_id>/revoke/",
        views.token_revoke,
        name="token_revoke",
    ),
    path("language/", views_language.language_set, name="language_set"),
    path("users/<str:username>/", views.profile, name="profile"),
    path("users/<str:username>/mute/", views_mutes.mute, name="mute"),
    path("users/<str:username>/unmute/", views_mutes.unmute, name="unmute"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:game>/", views.leaderboard, name="leaderboard_game"),
]

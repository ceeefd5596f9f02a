from allauth.account import views as allauth_views
from django.contrib import admin
from django.urls import include, path, re_path

from colorado import views, views_app
from colorado.api import api
from colorado.api import not_found as api_not_found
from games.web import bots as game_bots
from games.web import page as game_page
from notifications import push_views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", include("games.urls")),
    path("how-to-play/", game_page.how_to_play, name="how_to_play"),
    path("how-to-play/<slug:slug>/", game_page.how_to_play, name="how_to_play_title"),
    path("bots/", game_bots.bots_page, name="bots"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("sw.js", push_views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views_app.manifest, name="manifest"),
    path("offline/", views_app.offline, name="offline"),
    # The old names of the sign-in and sign-out pages; allauth serves both.
    path("accounts/login/", allauth_views.login, name="login"),
    path("accounts/logout/", allauth_views.logout, name="logout"),
    path("accounts/", include("allauth.urls")),
    path("", include("webhooks.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("accounts.urls")),
    path("", include("players.urls")),
    path("api/", api.urls),
    # Anything else under /api/: the API's JSON 404 (colorado.api.not_found).
    re_path(r"^api/(?P<rest>.*)$", api_not_found),
    path("notifications/", include("notifications.urls")),
    path("admin/", admin.site.urls),
]

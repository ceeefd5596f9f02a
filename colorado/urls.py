from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from colorado import views
from colorado.api import api
from games import views as game_views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", include("games.urls")),
    path("how-to-play/", game_views.how_to_play, name="how_to_play"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
]

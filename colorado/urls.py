from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from colorado import views
from colorado.api import api

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/", api.urls),
    path("notifications/", include("notifications.urls")),
    path("admin/", admin.site.urls),
]

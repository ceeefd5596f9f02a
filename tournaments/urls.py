from django.urls import path

from tournaments import views, views_ladder

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_new, name="new"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/live/", views.tournament_live, name="live"),
    path("<int:tournament_id>/join/", views.tournament_join, name="join"),
    path("<int:tournament_id>/leave/", views.tournament_leave, name="leave"),
    path("ladder/<slug:title>/", views_ladder.ladder_page, name="ladder"),
    path(
        "ladder/<slug:title>/<str:action>/",
        views_ladder.ladder_action,
        name="ladder_action",
    ),
]

from django.urls import path

from notifications import push_views, views

app_name = "notifications"
urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("push/subscribe/", push_views.subscribe, name="push_subscribe"),
    path("push/unsubscribe/", push_views.unsubscribe_endpoint, name="push_unsubscribe"),
    path("push/<int:subscription_id>/remove/", push_views.remove, name="push_remove"),
]

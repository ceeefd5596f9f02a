from django.urls import path

from accounts import views_language

urlpatterns = [
    path("language/", views_language.language_set, name="language_set"),
]

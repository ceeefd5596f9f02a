from django.urls import path

from webhooks import views

urlpatterns = [
    path("accounts/settings/webhooks/", views.webhooks_page, name="webhooks"),
    path(
        "accounts/settings/webhooks/<int:hook_id>/delete/",
        views.webhook_delete,
        name="webhook_delete",
    ),
    path(
        "accounts/settings/webhooks/<int:hook_id>/enable/",
        views.webhook_enable,
        name="webhook_enable",
    ),
]

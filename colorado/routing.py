"""WebSocket routes (the game consumer is added by the games app)."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []

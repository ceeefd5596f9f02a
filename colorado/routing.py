"""WebSocket routes."""

from django.urls import URLPattern, path

from games.live.consumers import GameConsumer
from notifications.consumers import LiveConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/live/", LiveConsumer.as_asgi()),
]

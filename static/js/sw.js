/* The site's service worker (served at /sw.js, scope /): shows the Web Push notifications
 * the server sends (notifications/push.py: {title, body, url, tag}, already in the player's
 * language) and opens the table when one is clicked. */
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  if (!data.title) return;
  event.waitUntil(self.registration.showNotification(data.title, {
    body: data.body || "",
    tag: data.tag || undefined,
    renotify: Boolean(data.tag),
    icon: "/static/img/icon-192.png",
    badge: "/static/img/favicon.svg",
    data: { url: data.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].url === url.href && "focus" in list[i]) return list[i].focus();
    }
    return self.clients.openWindow(url.href);
  }));
});

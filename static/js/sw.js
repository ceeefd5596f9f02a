/* The site's service worker (served at /sw.js, scope /, registered by static/js/site.js):
 * - keeps the static shell (the site's styles, scripts and icons) and the offline page in a
 *   cache, so a page that cannot be reached shows the offline page; pages themselves, game
 *   documents, the API and sockets always go to the network and are never cached (a table
 *   is always read fresh);
 * - shows the Web Push notifications the server sends (notifications/push.py: {title, body,
 *   url, tag}, already in the player's language) and opens the table when one is clicked. */
"use strict";

var CACHE = "shell-v1";
var OFFLINE = "/offline/";
var SHELL = [OFFLINE, "/static/css/site.css", "/static/js/site.js", "/static/img/favicon.svg",
  "/static/img/icon-192.png"];

self.addEventListener("install", function (event) {
  // Asked without cookies: the cached pages are nobody's (no name, no form token).
  var requests = SHELL.map(function (path) { return new Request(path, { credentials: "omit" }); });
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(requests); })
    .then(function () { return self.skipWaiting(); }));
});
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page: the network, or the offline page when there is none. Never cached.
    event.respondWith(fetch(request).catch(function () { return caches.match(OFFLINE, { ignoreVary: true }); }));
    return;
  }
  if (url.pathname.indexOf("/static/") === 0) {
    // The shell: the network first (a new deployment's files), the cache when offline.
    event.respondWith(fetch(request).then(function (answer) {
      if (answer.ok) {
        var copy = answer.clone();
        caches.open(CACHE).then(function (c) { c.put(request, copy); });
      }
      return answer;
    }).catch(function () { return caches.match(request); }));
  }
  // Everything else (game documents, panels, the API): the network, untouched.
});

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

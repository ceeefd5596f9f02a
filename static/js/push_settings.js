/* The settings page's "Notifications on this device" (notifications/push.py): registers the
 * service worker, subscribes this browser with the site's VAPID key and the events ticked,
 * and sends the subscription to the server; or takes it back. */
(function () {
  "use strict";
  var box = document.getElementById("push-settings");
  if (!box) return;
  var on = document.getElementById("push-on"), off = document.getElementById("push-off");
  var status = document.getElementById("push-status");
  function say(key) { status.textContent = status.getAttribute("data-" + key) || ""; }
  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var i = document.querySelector("input[name=csrfmiddlewaretoken]");
    return i ? i.value : "";
  }
  function post(url, data) {
    return fetch(url, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(data) });
  }
  function keyBytes(text) {
    var s = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(s), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function label() {
    var ua = navigator.userAgent, browser = /Firefox\//.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge"
      : /Chrome\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "Browser";
    var system = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Windows/.test(ua) ? "Windows"
      : /Mac OS/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "";
    return system ? browser + " · " + system : browser;
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }
  var registration = navigator.serviceWorker.register("/sw.js", { scope: "/" });
  function show(sub) { on.hidden = Boolean(sub); off.hidden = !sub; say(sub ? "on" : "off"); }
  registration.then(function (reg) { return reg.pushManager.getSubscription(); }).then(show, function () { show(null); });
  on.addEventListener("click", function () {
    var events = Array.prototype.slice.call(box.querySelectorAll("input[name=push_event]:checked"))
      .map(function (i) { return i.value; });
    Notification.requestPermission().then(function (perm) {
      if (perm !== "granted") { say("denied"); return null; }
      return registration.then(function (reg) {
        return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) });
      }).then(function (sub) {
        var data = sub.toJSON(); data.events = events; data.label = label();
        return post(box.dataset.subscribeUrl, data).then(function (r) {
          if (!r.ok) throw new Error("refused");
          window.location.reload();
        });
      });
    }).catch(function () { say("failed"); });
  });
  off.addEventListener("click", function () {
    registration.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
      if (!sub) { show(null); return null; }
      return post(box.dataset.unsubscribeUrl, { endpoint: sub.endpoint })
        .then(function () { return sub.unsubscribe(); })
        .then(function () { window.location.reload(); });
    }).catch(function () { say("failed"); });
  });
})();

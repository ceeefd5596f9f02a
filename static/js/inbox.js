/* The header's "N games waiting for you", kept live by the /ws/live/ socket
 * (notifications/consumers.py). On the lobby the same socket also says when the open tables
 * changed; this script then fires "live:lobby" on the document and lobby.js fetches the list.
 * Without the socket (or scripts) the figure is the one the page was rendered with; after a
 * lost connection it reconnects with a growing delay and asks for the count again. */
(function () {
  "use strict";
  var link = document.getElementById("inbox-link");
  if (!link || !window.WebSocket) return;
  var countEl = document.getElementById("inbox-count");
  var words = document.getElementById("inbox-words");
  var lobby = !!document.getElementById("open-tables");
  var delay = 1000;

  function show(n) {
    countEl.textContent = String(n);
    if (words) words.textContent = n === 1 ? words.dataset.one : words.dataset.many;
    link.classList.toggle("waiting", n > 0);
    link.dataset.count = String(n);
  }

  function connect() {
    var proto = location.protocol === "https:" ? "wss:" : "ws:";
    var url = proto + "//" + location.host + link.dataset.ws + (lobby ? "?lobby=1" : "");
    var socket;
    try { socket = new WebSocket(url); } catch (e) { return; }
    socket.onopen = function () { delay = 1000; link.dataset.live = "1"; };
    socket.onmessage = function (msg) {
      var data;
      try { data = JSON.parse(msg.data); } catch (e) { return; }
      if (data.type === "inbox" && typeof data.count === "number") show(data.count);
      else if (data.type === "lobby") document.dispatchEvent(new CustomEvent("live:lobby"));
    };
    socket.onclose = function (ev) {
      link.dataset.live = "";
      if (ev.code === 4401) return;  // signed out
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 60000);
    };
  }
  connect();
})();

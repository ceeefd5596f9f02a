/* A table waiting for players: follow it on the game socket (/ws/games/<id>/) and reload
 * the page when a seat is taken or given up, or when the game starts or is aborted, so the
 * creator sees who joined and lands on the board without reloading by hand. */
(function () {
  "use strict";
  var box = document.getElementById("waiting-table");
  if (!box || !window.WebSocket) return;
  var seats = parseInt(box.dataset.seats, 10);
  var delay = 1000;
  function connect() {
    var proto = location.protocol === "https:" ? "wss:" : "ws:";
    var socket = new WebSocket(proto + "//" + location.host + box.dataset.ws);
    socket.onopen = function () { delay = 1000; box.dataset.live = "1"; };
    socket.onmessage = function (msg) {
      var data;
      try { data = JSON.parse(msg.data); } catch (e) { return; }
      if (data.type !== "game") return;
      var taken = (data.seats || []).length;
      if (data.status !== box.dataset.status || taken !== seats) location.reload();
    };
    socket.onclose = function (ev) {
      box.dataset.live = "";
      if (ev.code === 4403 || ev.code === 4404) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();

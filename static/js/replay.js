/* Step-by-step replay of a finished game: fetches the public views after each move
 * (GET /games/<id>/replay.json) and draws them with the title's board renderer (the
 * ``render(view, client)`` and ``changed(prevView, view)`` of its entry in
 * window.TitleClients), or, when the document says ``"board": "server"``, with the board
 * the title draws on the server for that step (GET /games/<id>/replay/<n>/board/, fetched
 * once per step); a title with neither gets the view as a list. Beside the board: the
 * step's facts (face-up cards, revealed bids, scores: WebTitle.replay_facts) and its log
 * lines. Buttons, and the arrow keys, Home and End, move through it. */
(function () {
  "use strict";
  function start() {
    var panel = document.getElementById("replay");
    var dataEl = document.getElementById("game-data");
    if (!panel || !dataEl || !window.fetch) return;
    var title = (window.TitleClients || []).filter(function (c) { return c.render; })[0] || {
      render: function (view) {
        var dl = document.createElement("dl");
        Object.keys(view).forEach(function (k) {
          var dt = document.createElement("dt"), dd = document.createElement("dd");
          dt.textContent = k; dd.textContent = JSON.stringify(view[k]);
          dl.appendChild(dt); dl.appendChild(dd);
        });
        return dl.outerHTML;
      }
    };
    var client = JSON.parse(dataEl.textContent);
    var boardEl = document.getElementById("replay-board");
    var stepEl = document.getElementById("replay-step");
    var moveEl = document.getElementById("replay-move");
    var template = stepEl.getAttribute("data-template");
    var factsEl = document.getElementById("replay-facts");
    var logEl = document.getElementById("replay-log");
    var boardUrl = panel.getAttribute("data-board-url") || "";
    var serverBoard = false, boards = {};
    var steps = [], at = 0;

    function fill(list, lines) {
      if (!list) return;
      list.innerHTML = "";
      (lines || []).forEach(function (line) {
        var li = document.createElement("li");
        li.textContent = line;
        list.appendChild(li);
      });
    }
    function drawServer(n) {
      if (boards[n] !== undefined) { boardEl.innerHTML = boards[n]; return; }
      fetch(boardUrl.replace(/\/0\/board\/$/, "/" + n + "/board/"), { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html === null) return;
          boards[n] = html;
          if (at === n) boardEl.innerHTML = html;
        })
        .catch(function () {});
    }

    function show(n) {
      if (!steps.length) return;
      var prev = steps[at];
      at = Math.max(0, Math.min(steps.length - 1, n));
      if (serverBoard) drawServer(at);
      else boardEl.innerHTML = title.render(steps[at].view, client);
      fill(factsEl, steps[at].facts);
      fill(logEl, steps[at].log);
      if (!serverBoard && prev && prev !== steps[at] && title.changed) {
        title.changed(prev.view, steps[at].view).forEach(function (c) {
          var el = boardEl.querySelector('[data-cell="' + c + '"]');
          if (el) el.classList.add("changed");
        });
      }
      stepEl.textContent = template.replace("%(n)s", at).replace("%(m)s", steps.length - 1);
      moveEl.textContent = steps[at].text;
      panel.setAttribute("data-at", String(at));
    }
    function go(where) {
      if (where === "first") show(0);
      else if (where === "back") show(at - 1);
      else if (where === "forward") show(at + 1);
      else if (where === "last") show(steps.length - 1);
    }
    Array.prototype.forEach.call(panel.querySelectorAll("button[data-step]"), function (b) {
      b.addEventListener("click", function () { go(b.getAttribute("data-step")); });
    });
    var KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
    document.addEventListener("keydown", function (ev) {
      var t = ev.target, tag = t && t.tagName;
      if (!KEYS[ev.key] || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
      if (t && t.closest && t.closest("#board")) return;  // the live board has its own keys
      ev.preventDefault();
      go(KEYS[ev.key]);
    });
    fetch(panel.getAttribute("data-url"), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) {
        if (!d || !d.steps || !d.steps.length) return;
        steps = d.steps;
        serverBoard = d.board === "server" && !!boardUrl;
        at = steps.length - 1;
        show(at);
      })
      .catch(function () {});
  }
  // Deferred scripts run in document order and this one comes before the title's scripts:
  // wait for DOMContentLoaded, which fires after every deferred script has run.
  if (document.readyState === "complete") start();
  else document.addEventListener("DOMContentLoaded", start);
})();

/* The game page's small client: live updates over the WebSocket, board interactions for
 * flags, claims and sales, and forms posted without a reload. Without this script (or without
 * a WebSocket) every form still posts normally and a reload shows the new state. */
(function () {
  "use strict";
  var dataEl = document.getElementById("game-data");
  if (!dataEl || !window.CCBoard) return;
  var state = JSON.parse(dataEl.textContent);
  var S = state.strings;
  var boardEl = document.getElementById("board");
  var statusEl = document.getElementById("live-status");
  var baseTitle = document.title.replace(new RegExp("^" + S.your_turn + " · "), "");
  var mode = null;            // "flag" | "claim" | "sell" | null
  var claim = { card: null, flag: null, second: null, previews: null };
  var socket = null, retry = 0, pollTimer = null;

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var i = $("input[name=csrfmiddlewaretoken]");
    return i ? i.value : "";
  }
  function myTurn() { return state.my_seat !== null && state.to_act.indexOf(state.my_seat) >= 0; }
  function setTitle() { document.title = (myTurn() ? S.your_turn + " · " : "") + baseTitle; }
  var lastError = null;  // kept across panel swaps while the table has not moved on
  function showError(msg) {
    lastError = msg ? { msg: msg, version: state.version } : null;
    var e = $("#act-error");
    if (!e) return;
    e.textContent = msg || ""; e.hidden = !msg;
  }

  /* ---------------- board ---------------- */
  function drawBoard(prevView) {
    boardEl.innerHTML = CCBoard.render(state.view, state.names, state.board_strings);
    if (prevView) {
      CCBoard.changedCells(prevView, state.view).forEach(function (c) {
        var el = cellEl(c); if (el) el.classList.add("changed");
      });
    }
    applyMode();
  }
  function cellEl(name) { return boardEl.querySelector('[data-cell="' + name + '"]'); }
  function clearTargets() {
    $all(".cell.target, .cell.selected, .cell.ghost", boardEl).forEach(function (el) {
      el.classList.remove("target", "selected", "ghost", "pick-second");
      el.removeAttribute("tabindex"); el.removeAttribute("role"); el.removeAttribute("aria-label");
    });
  }
  function target(name, label, extra) {
    var el = cellEl(name); if (!el) return;
    el.classList.add("target"); if (extra) el.classList.add(extra);
    el.setAttribute("tabindex", "0"); el.setAttribute("role", "button");
    el.setAttribute("aria-label", label);
  }
  function legal(type) { return state.legal_actions.filter(function (a) { return a.type === type; }); }

  function applyMode() {
    clearTargets();
    if (mode === "flag") {
      var colour = ($("#flag-form input[name=colour]:checked") || {}).value;
      legal("place_flag").forEach(function (a) { if (a.colour === colour) target(a.cell, a.cell); });
    } else if (mode === "sell") {
      legal("sell").forEach(function (a) { target(a.cell, a.cell); });
    } else if (mode === "claim" && claim.card) {
      var acts = legal("claim").filter(function (a) { return a.card === claim.card; });
      if (!claim.flag) {
        var seen = {};
        acts.forEach(function (a) { if (!seen[a.flag]) { seen[a.flag] = 1; target(a.flag, a.flag); } });
      } else {
        var f = cellEl(claim.flag); if (f) f.classList.add("selected");
        acts.forEach(function (a) {
          if (a.flag === claim.flag && a.second) {
            if (claim.second === a.second) { var s = cellEl(a.second); if (s) s.classList.add("selected"); }
            else target(a.second, a.second, "pick-second");
          }
        });
      }
    }
  }

  function activate(name) {
    if (mode === "flag") {
      var sel = $("#flag-cell"); if (!sel) return;
      sel.value = name; submit($("#flag-form"));
    } else if (mode === "sell") {
      if (window.confirm(S.confirm_sell.replace("%(cell)s", name))) {
        $("#sell-cell").value = name; submit($("#sell-form"));
      }
    } else if (mode === "claim") {
      if (!claim.flag) { claim.flag = name; claim.second = null; }
      else { claim.second = name; }
      afterClaimStep();
    }
  }
  boardEl.addEventListener("click", function (ev) {
    var el = ev.target.closest && ev.target.closest(".cell.target");
    if (el) activate(el.getAttribute("data-cell"));
  });
  boardEl.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    var el = ev.target.closest && ev.target.closest(".cell.target");
    if (el) { ev.preventDefault(); activate(el.getAttribute("data-cell")); }
  });

  /* ---------------- claims ---------------- */
  function claimOptions() {
    return legal("claim").filter(function (a) { return a.card === claim.card && a.flag === claim.flag; });
  }
  function afterClaimStep() {
    var step = $("#claim-step"), form = $("#claim-form");
    if (!form) return;
    var opts = claimOptions();
    var needSecond = opts.some(function (a) { return a.second; });
    if (!claim.flag) { step.textContent = S.choose_flag; }
    else if (needSecond && !claim.second) { step.textContent = S.choose_second; }
    else { step.textContent = ""; }
    form.elements.flag.value = claim.flag || "";
    form.elements.second.value = claim.second || "";
    var choice = $("#claim-choice");
    var ready = claim.flag && (!needSecond || claim.second);
    if (choice) choice.value = ready ? claim.card + "|" + claim.flag + "|" + (claim.second || "") : "";
    var btn = $("#claim-submit");
    if (btn) btn.disabled = !ready;
    applyMode();
    showPreview();
  }
  function showPreview() {
    var box = $("#claim-preview"); if (!box) return;
    box.innerHTML = "";
    if (!claim.previews || !claim.flag) return;
    var row = claim.previews.filter(function (p) {
      return p.flag === claim.flag && (p.second || null) === (claim.second || null);
    })[0];
    if (!row) return;
    var html = "<table><thead><tr><th></th><th>" + state.preview_strings.now + "</th><th>" +
      state.preview_strings.after + "</th></tr></thead><tbody>";
    row.before.forEach(function (b, seat) {
      var a = row.after[seat], d = a.total - b.total;
      html += "<tr><th scope=\"row\">" + escapeHtml(state.names[seat] || "") + "</th><td class=\"num\">" + b.total +
        "</td><td class=\"num\">" + a.total + (d ? ' <span class="' + (d > 0 ? "gain" : "loss") + '">(' + (d > 0 ? "+" : "") + d + ")</span>" : "") + "</td></tr>";
    });
    html += "</tbody></table><p class=\"muted small\">" + state.preview_strings.explain + "</p>";
    box.innerHTML = html;
  }
  function escapeHtml(s) { var d = document.createElement("div"); d.textContent = s; return d.innerHTML; }
  function chooseCard(card) {
    claim = { card: card, flag: null, second: null, previews: null };
    mode = "claim";
    var opts = legal("claim").filter(function (a) { return a.card === card; });
    var flags = {}; opts.forEach(function (a) { flags[a.flag] = 1; });
    if (Object.keys(flags).length === 1) claim.flag = Object.keys(flags)[0];
    var secs = opts.filter(function (a) { return a.flag === claim.flag; });
    if (claim.flag && secs.length === 1) claim.second = secs[0].second;
    afterClaimStep();
    fetch(state.urls.preview + "?card=" + encodeURIComponent(card), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) { if (d && claim.card === card) { claim.previews = d.placements; showPreview(); } })
      .catch(function () {});
  }

  /* ---------------- panels: wiring after each (re)render ---------------- */
  function wirePanels() {
    var flagForm = $("#flag-form");
    mode = null;
    if (flagForm) {
      mode = "flag";
      $all("input[name=colour]", flagForm).forEach(function (i) { i.addEventListener("change", applyMode); });
    }
    var claimForm = $("#claim-form");
    if (claimForm) {
      mode = "claim";
      $all("input[name=card]", claimForm).forEach(function (i) {
        i.addEventListener("change", function () { chooseCard(i.value); });
      });
      var btn = $("#claim-submit"); if (btn) btn.disabled = true;
      $("#claim-choice").addEventListener("change", function (ev) {
        var v = ev.target.value.split("|");
        if (v.length === 3) {
          claim.card = v[0]; claim.flag = v[1]; claim.second = v[2] || null;
          var radio = $('input[name=card][value="' + v[0] + '"]', claimForm); if (radio) radio.checked = true;
          afterClaimStep();
        }
      });
      if (claim.card && $('input[name=card][value="' + claim.card + '"]', claimForm)) {
        $('input[name=card][value="' + claim.card + '"]', claimForm).checked = true;
        afterClaimStep();
      } else { claim = { card: null, flag: null, second: null, previews: null }; }
    }
    var sellBox = $("#sell-box");
    if (sellBox) {
      sellBox.addEventListener("toggle", function () {
        mode = sellBox.open ? "sell" : (claimForm ? "claim" : flagForm ? "flag" : null);
        applyMode();
      });
      if (sellBox.open) mode = "sell";
    }
    var bidForm = $("#bid-form");
    if (bidForm) {
      var update = function () {
        var n = $all("input[name=cowboys]:checked", bidForm).length;
        var b = $("#bid-submit");
        if (b) b.textContent = n ? state.bid_strings.some.replace("%(n)s", n) : state.bid_strings.none;
      };
      $all("input[name=cowboys]", bidForm).forEach(function (i) { i.addEventListener("change", update); });
    }
    $all("form[data-ajax]").forEach(function (f) {
      if (f.dataset.wired) return;
      f.dataset.wired = "1";
      f.addEventListener("submit", function (ev) { ev.preventDefault(); submit(f, ev.submitter); });
    });
    applyMode();
  }

  /* ---------------- posting ---------------- */
  var posting = 0;
  function submit(form, submitter) {
    if (!form) return;
    posting += 1;
    var body = new FormData(form);
    if (submitter && submitter.name) body.append(submitter.name, submitter.value);
    if (form.elements.version) body.set("version", String(state.version));
    $all("button", form).forEach(function (b) { b.disabled = true; });
    showError("");
    fetch(form.action, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrf() }
    }).then(function (r) {
      return r.json().then(function (d) { return { ok: r.ok, data: d }; });
    }).then(function (res) {
      posting -= 1;
      $all("button", form).forEach(function (b) { b.disabled = false; });
      if (!res.ok) {
        if (res.data.current) receiveDocument(res.data.current);
        else resync();  // the page may have acted on a table that had moved on
        showError(res.data.message || "Error");
        return;
      }
      if (form.dataset.ajax === "chat") { form.reset(); refreshPanels(); return; }
      if (res.data.view) receiveDocument(res.data);
      else refreshPanels();
    }).catch(function () {
      posting -= 1;
      form.submit();  // the network or the script failed: fall back to a plain POST
    });
  }

  /* ---------------- live updates ---------------- */
  function keepInputs() {
    var kept = {};
    $all("input[data-keep]").forEach(function (i) { kept[i.form ? i.form.id + ":" + i.name + ":" + i.value : i.value] = i.checked; });
    return kept;
  }
  function restoreInputs(kept) {
    $all("input[data-keep]").forEach(function (i) {
      var k = i.form ? i.form.id + ":" + i.name + ":" + i.value : i.value;
      if (!(k in kept)) return;
      if (i.type === "radio") { if (kept[k]) i.checked = true; }
      else i.checked = kept[k];
    });
  }
  /* Panel refreshes run one at a time (a newer answer can never be replaced by an older
   * one); a refresh asked for while one runs is done once more after it. */
  var refreshing = false, again = false;
  function refreshPanels() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    fetch(state.urls.panels, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) swapPanels(html); })
      .catch(function () {})
      .then(function () {
        refreshing = false;
        if (again) { again = false; refreshPanels(); }
      });
  }
  /* The panels come from the server as HTML: the players list with who is to act and each
   * deadline already written in the viewer's time zone ({% deadline %}), so nothing here
   * formats a date and a redraw shows exactly what a reload would. */
  function swapPanels(html) {
    var doc = new DOMParser().parseFromString("<div>" + html + "</div>", "text/html");
    var kept = keepInputs();
    var oldLog = {};
    $all(".log-list li").forEach(function (li) { oldLog[li.textContent] = 1; });
    var oldScores = {};
    $all(".players-table tr[data-seat]").forEach(function (tr) { oldScores[tr.dataset.seat] = tr.textContent; });
    var sellOpen = $("#sell-box") && $("#sell-box").open;
    var active = document.activeElement && document.activeElement.id;
    $all("[data-swap]", doc).forEach(function (fresh) {
      var old = document.getElementById(fresh.id);
      if (old) old.replaceWith(fresh);
    });
    restoreInputs(kept);
    if (sellOpen && $("#sell-box")) $("#sell-box").open = true;
    if (active && document.getElementById(active)) document.getElementById(active).focus();
    $all(".log-list li").forEach(function (li) { if (!oldLog[li.textContent]) li.classList.add("fresh"); });
    $all(".players-table tr[data-seat]").forEach(function (tr) {
      if (oldScores[tr.dataset.seat] !== undefined && oldScores[tr.dataset.seat] !== tr.textContent) tr.classList.add("fresh");
    });
    wirePanels();
    setTitle();
    if (lastError && lastError.version === state.version) showError(lastError.msg);
    else lastError = null;
  }
  /* True while the page is catching up (tests and the status line use it). */
  function busy() {
    var act = $(".act");
    return refreshing || again || posting > 0 || !act || act.dataset.version !== String(state.version);
  }
  function receiveDocument(d) {
    receive({ version: d.version, view: d.view, legal_actions: d.legal_actions, to_act: d.to_act, status: d.status });
  }
  function receive(msg) {
    if (typeof msg.version !== "number" || msg.version < state.version) return;
    // The end can arrive with a version the page already shows (panels refreshed first):
    // the status change alone must still take the page to the final scores.
    if (msg.status === "finished" && state.status !== "finished") { window.location.reload(); return; }
    if (msg.version === state.version && !msg.refresh && msg.view && JSON.stringify(msg.view) === JSON.stringify(state.view) && msg.type !== "chat") return;
    var prev = state.view;
    state.version = msg.version;
    if (msg.view) state.view = msg.view;
    if (msg.legal_actions) state.legal_actions = msg.legal_actions;
    if (msg.to_act) state.to_act = msg.to_act;
    if (msg.status && msg.status !== state.status) {
      state.status = msg.status;
      if (msg.status === "finished") { window.location.reload(); return; }
    }
    drawBoard(prev);
    refreshPanels();
    setTitle();
  }

  function resync() {
    hello();
    refreshPanels();
  }
  function setLive(on) {
    if (!statusEl) return;
    statusEl.textContent = on ? S.live : S.offline;
    statusEl.className = "live-status " + (on ? "on" : "off");
  }
  function connect() {
    if (!("WebSocket" in window)) { setLive(false); return; }
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + state.urls.ws;
    try { socket = new WebSocket(url); } catch (e) { setLive(false); schedule(); return; }
    socket.onopen = function () {
      retry = 0; setLive(true);
      hello();
    };
    socket.onmessage = function (ev) {
      var msg; try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "game") receive(msg);
      else if (msg.type === "chat") refreshPanels();
    };
    socket.onclose = function () { setLive(false); schedule(); };
  }
  function schedule() {
    retry = Math.min(retry + 1, 4);
    window.setTimeout(connect, 1000 * Math.pow(2, retry - 1));  // 1, 2, 4, then every 8 s
  }

  window.CCGame = { state: state, receive: receive, refreshPanels: refreshPanels, busy: busy,
    debug: function () { return { refreshing: refreshing, again: again, posting: posting, act: ($(".act") || {dataset: {}}).dataset.version, version: state.version }; } };
  wirePanels();
  setTitle();
  connect();
  function hello() {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "hello", version: state.version }));
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) return;
    if (!socket || socket.readyState !== 1) refreshPanels(); else hello();
  });
  // Safety net: a visible page asks for the current version now and then (every 10 s while
  // it waits for others, every 45 s on my turn), so a group message lost on the channel layer
  // delays an update by at most that long.
  var lastHello = Date.now();
  window.setInterval(function () {
    if (document.hidden || state.status !== "running") return;
    var every = myTurn() ? 45000 : 10000;
    if (Date.now() - lastHello >= every) { lastHello = Date.now(); hello(); }
  }, 5000);
})();

/* The game page's small client, for every title: live updates over the WebSocket, the
 * panels swapped in from the server, and forms posted without a reload. A title's own
 * script (loaded before this one) pushes {start, draw, wire} onto window.TitleClients:
 * ``start(table)`` once, ``draw(prevView)`` after each update of the view, ``wire()`` after
 * each panel swap. Without scripts (or without a WebSocket) every form still posts
 * normally and a reload shows the new state. */
(function () {
  "use strict";
  var dataEl = document.getElementById("game-data");
  if (!dataEl) return;
  var state = JSON.parse(dataEl.textContent);
  var S = state.strings;
  var boardEl = document.getElementById("board");
  var statusEl = document.getElementById("live-status");
  var baseTitle = document.title.replace(new RegExp("^" + S.your_turn + " · "), "");
  var socket = null, retry = 0, pollTimer = null;

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var i = $("input[name=csrfmiddlewaretoken]");
    return i ? i.value : "";
  }
  function myTurn() {
    // A seat its player resigned (or was replaced in) is the bot's: never "your turn".
    return state.my_seat !== null && !state.my_seat_out && state.to_act.indexOf(state.my_seat) >= 0;
  }
  function setTitle() { document.title = (myTurn() ? S.your_turn + " · " : "") + baseTitle; }
  var lastError = null;  // kept across panel swaps while the table has not moved on
  function showError(msg) {
    lastError = msg ? { msg: msg, version: state.version } : null;
    var e = $("#act-error");
    if (!e) return;
    e.textContent = msg || ""; e.hidden = !msg;
  }

  /* ---------------- the title's part ---------------- */
  var titles = window.TitleClients || [];
  function drawBoard(prevView) { titles.forEach(function (t) { if (t.draw) t.draw(prevView); }); }
  function legal(type) { return state.legal_actions.filter(function (a) { return a.type === type; }); }

  function wirePanels() {
    titles.forEach(function (t) { if (t.wire) t.wire(); });
    $all("form[data-ajax]").forEach(function (f) {
      if (f.dataset.wired) return;
      f.dataset.wired = "1";
      f.addEventListener("submit", function (ev) { ev.preventDefault(); submit(f, ev.submitter); });
    });
  }

  /* ---------------- posting ---------------- */
  /* Moves go over the page's socket when it is open ({"type": "action", "form", "version",
   * "client_id"}; the server answers {"type": "answer", "client_id", "status", "body"} with
   * what the HTTP endpoint would answer), else — or when no answer comes in time — as a
   * POST of the form carrying the same client_id, so a move is never made twice. */
  var Transport = {
    waiting: {},  // client_id -> function(answer)
    timeout: 8000,
    open: function () { return !!socket && socket.readyState === 1; },
    newId: function () { return "page:" + Date.now().toString(36) + ":" + Math.random().toString(36).slice(2, 10); },
    formFields: function (body) {
      var fields = {};
      body.forEach(function (value, key) {
        if (key === "csrfmiddlewaretoken" || key === "version" || key === "client_id" || typeof value !== "string") return;
        (fields[key] = fields[key] || []).push(value);
      });
      return fields;
    },
    /* A promise of {ok, data}, as the HTTP path gives; rejected when the socket cannot. */
    act: function (body, clientId) {
      var self = this;
      return new Promise(function (resolve, reject) {
        if (!self.open()) { reject(new Error("socket closed")); return; }
        var timer = window.setTimeout(function () { delete self.waiting[clientId]; reject(new Error("no answer")); }, self.timeout);
        self.waiting[clientId] = function (answer) {
          window.clearTimeout(timer);
          if (answer === null) { reject(new Error("socket closed")); return; }
          resolve({ ok: answer.status >= 200 && answer.status < 300, data: answer.body || {} });
        };
        var version = body.get("version");
        try {
          socket.send(JSON.stringify({ type: "action", form: self.formFields(body), client_id: clientId,
            version: version === null || version === "" ? null : Number(version) }));
        } catch (e) { delete self.waiting[clientId]; window.clearTimeout(timer); reject(e); }
      });
    },
    answered: function (msg) {
      var done = this.waiting[msg.client_id];
      if (!done) return;
      delete this.waiting[msg.client_id];
      done(msg);
    },
    closed: function () {  // the socket went down: every waiting move goes over HTTP
      var waiting = this.waiting;
      this.waiting = {};
      Object.keys(waiting).forEach(function (k) { waiting[k](null); });
    },
    post: function (form, body) {
      return fetch(form.action, {
        method: "POST", body: body, credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRFToken": csrf() }
      }).then(function (r) {
        return r.json().then(function (d) { return { ok: r.ok, data: d }; });
      });
    },
    send: function (form, body) {
      if (form.dataset.ajax === "chat") return this.post(form, body);
      var self = this, clientId = this.newId();
      body.set("client_id", clientId);
      if (!this.open()) return this.post(form, body);
      return this.act(body, clientId).catch(function () { return self.post(form, body); });
    }
  };
  var posting = 0;
  var lastMoveFrom = -1;  // the version my last accepted move was sent with
  var moveHold = false;   // a move is on its way, or the panels do not show its table yet
  var focusHome = null;   // the form whose (now disabled) button had the focus when it was sent
  function submit(form, submitter) {
    if (!form) return;
    // One move at a time: a second click (a double-click on a lit cell) while a move is on
    // its way, or before the page shows the table it produced, sends nothing.
    var isMove = form.dataset.ajax !== "chat";
    if (isMove && moveHold) return;
    if (isMove) moveHold = true;
    var sentFrom = state.version;
    posting += 1;
    var body = new FormData(form);
    if (submitter && submitter.name) body.append(submitter.name, submitter.value);
    if (form.elements.version) body.set("version", String(state.version));
    // Disabling the buttons drops the focus to the page: the redraw gives it back (refresh).
    if (form.id && form.contains(document.activeElement)) focusHome = form.id;
    $all("button", form).forEach(function (b) { b.disabled = true; });
    showError("");
    Transport.send(form, body).then(function (res) {
      posting -= 1;
      $all("button", form).forEach(function (b) { b.disabled = false; });
      if (!res.ok) {
        if (isMove) moveHold = false;
        if (res.data.current) receiveDocument(res.data.current);
        else resync();  // the page may have acted on a table that had moved on
        // A stale answer to a post sent from the table my own accepted move left is no
        // news: the move went through.
        if (res.data.code === "stale_version" && sentFrom <= lastMoveFrom) return;
        showError(res.data.message || "Error");
        return;
      }
      if (isMove) lastMoveFrom = sentFrom;
      if (form.dataset.ajax === "chat") { form.reset(); refreshPanels(); return; }
      if (res.data.view) receiveDocument(res.data);
      else refreshPanels();
      // The panels may already show this table (a live update got there first).
      var act = $(".act");
      if (isMove && !refreshing && act && act.dataset.version === String(state.version)) moveHold = false;
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
    var opened = $all("details[id][open]").map(function (d) { return d.id; });
    var focused = document.activeElement;
    var active = focused && focused.id;
    // A control without an id (a form's answer button) is found again through its form, or
    // failing that the action panel, so a keyboard user's focus is not dropped to the page.
    var activeForm = focused && focused.closest && focused.closest("form[id]");
    activeForm = (activeForm && activeForm.id) || focusHome;
    var inAct = !!(focused && focused.closest && focused.closest(".act"));
    $all("[data-swap]", doc).forEach(function (fresh) {
      var old = document.getElementById(fresh.id);
      if (!old || old.innerHTML === fresh.innerHTML) return;
      if (old.hasAttribute("data-swap-once") && old.children.length) return;  // filled once, kept
      old.replaceWith(fresh);
      // Scripts parsed from a string do not run: load the swapped-in panel's anew (the
      // replay's, when the end of the game arrives live).
      $all("script[src]", fresh).forEach(function (s) {
        var run = document.createElement("script");
        run.src = s.src;
        s.replaceWith(run);
      });
    });
    restoreInputs(kept);
    opened.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
    if (active && document.getElementById(active)) document.getElementById(active).focus();
    else if ((activeForm || inAct) && (!document.activeElement || document.activeElement === document.body)) {
      var home = (activeForm && document.getElementById(activeForm)) || $(".act");
      var control = home && home.querySelector("button:not([disabled]), input:not([type=hidden]):not([disabled]), select, a[href]");
      if (control) control.focus();
    }
    if (activeForm === focusHome) focusHome = null;
    var news = [];
    $all(".log-list li").forEach(function (li) {
      if (!oldLog[li.textContent]) { li.classList.add("fresh"); news.push(li.textContent.trim()); }
    });
    // What the move did, for screen readers (a polite live region; the log is newest first).
    var said = document.getElementById("move-news");
    if (said && news.length) said.textContent = news.reverse().join(" ");
    $all(".players-table tr[data-seat]").forEach(function (tr) {
      if (oldScores[tr.dataset.seat] !== undefined && oldScores[tr.dataset.seat] !== tr.textContent) tr.classList.add("fresh");
    });
    var act = $(".act");
    if (moveHold && !posting && act && act.dataset.version === String(state.version)) moveHold = false;
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
    var ending = msg.status === "finished" && state.status !== "finished";
    if (!ending && msg.version === state.version && !msg.refresh && msg.view && JSON.stringify(msg.view) === JSON.stringify(state.view) && msg.type !== "chat") return;
    var prev = state.view;
    state.version = msg.version;
    if (msg.view) state.view = msg.view;
    if (msg.legal_actions) state.legal_actions = msg.legal_actions;
    if (msg.to_act) state.to_act = msg.to_act;
    // The end swaps in the final scores and the after-game panel like any other update
    // (no reload: the page, the chat and the focus stay where they are).
    if (msg.status && msg.status !== state.status) state.status = msg.status;
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
      else if (msg.type === "answer") Transport.answered(msg);
      else if (msg.type === "chat") refreshPanels();
    };
    socket.onclose = function () { Transport.closed(); setLive(false); schedule(); };
  }
  function schedule() {
    retry = Math.min(retry + 1, 4);
    window.setTimeout(connect, 1000 * Math.pow(2, retry - 1));  // 1, 2, 4, then every 8 s
  }

  // The chat field's counter (issue 43): how many characters are used of the most a message
  // may hold, so the field never stops silently.
  var chatText = document.getElementById("chat-text"), chatCount = document.getElementById("chat-count");
  if (chatText && chatCount) {
    var countChat = function () {
      chatCount.textContent = chatText.value.length + "/" + chatCount.dataset.max;
      chatCount.classList.toggle("full", chatText.value.length >= Number(chatCount.dataset.max));
    };
    chatText.addEventListener("input", countChat);
    chatText.form.addEventListener("reset", function () { window.setTimeout(countChat, 0); });
    countChat();
  }
  // "Next game waiting (N)" (issue 43): the key n follows it, outside a text field.
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "n" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var next = document.getElementById("next-game");
    if (next) { ev.preventDefault(); window.location.assign(next.href); }
  });

  window.GameTable = { state: state, receive: receive, refreshPanels: refreshPanels, busy: busy,
    submit: submit, legal: legal, showError: showError, board: boardEl, transport: Transport,
    debug: function () { return { refreshing: refreshing, again: again, posting: posting, act: ($(".act") || {dataset: {}}).dataset.version, version: state.version }; } };
  titles.forEach(function (t) { if (t.start) t.start(window.GameTable); });
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

/* Colorado County on the game page: the board's lit cells for flags, claims and sales, the
 * claim preview and the bid button's words. The generic page client (static/js/game.js)
 * does the socket, the panels and the posting; it calls ``draw`` after each update and
 * ``wire`` after each panel swap. Without scripts every form here still posts normally. */
(function () {
  "use strict";
  var api = null, state = null, S = null, boardEl = null;
  var mode = null;            // "flag" | "claim" | "sell" | null
  var claim = { card: null, flag: null, second: null, previews: null };
  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function submit(form, submitter) { api.submit(form, submitter); }
  /* ---------------- board ---------------- */
  function drawBoard(prevView) {
    // The redraw replaces every cell: a player whose focus was on the board keeps it on the
    // same cell (after a move made from the keyboard, for one).
    var hadFocus = boardEl.contains(document.activeElement);
    boardEl.innerHTML = CCBoard.render(state.view, state.names, state.board_strings);
    if (prevView) {
      CCBoard.changedCells(prevView, state.view).forEach(function (c) {
        var el = cellEl(c); if (el) el.classList.add("changed");
      });
    }
    applyMode();
    if (hadFocus && focusCell && cellEl(focusCell)) cellEl(focusCell).focus();
  }
  function cellEl(name) { return boardEl.querySelector('[data-cell="' + name + '"]'); }
  function clearTargets() {
    $all(".cell.target, .cell.selected, .cell.ghost", boardEl).forEach(function (el) {
      el.classList.remove("target", "selected", "ghost", "pick-second");
      el.removeAttribute("role"); el.removeAttribute("aria-label");
    });
  }
  function target(name, label, extra) {
    var el = cellEl(name); if (!el) return;
    el.classList.add("target"); if (extra) el.classList.add(extra);
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", label);
  }
  /* ---------------- keyboard: one Tab stop, arrows move ---------------- */
  // The board is one stop in the Tab order (a roving tabindex): the cell last focused, else
  // the first lit one, else A1. The arrow keys (and Home, End) move across the 15 x 10 cells.
  var COLS = "ABCDEFGHIJKLMNO", ROWS = 10;
  var focusCell = null;
  function roving() {
    var cells = $all(".cell", boardEl);
    if (!cells.length || state.status !== "running") return;  // a finished board is a picture
    var first = $(".cell.target", boardEl);
    var kept = focusCell && cellEl(focusCell);
    var stop = kept && (boardEl.contains(document.activeElement) || kept.classList.contains("target") || !first)
      ? kept : (first || cells[0]);
    cells.forEach(function (el) { el.setAttribute("tabindex", el === stop ? "0" : "-1"); });
  }
  function moveFocus(name, key) {
    var col = COLS.indexOf(name[0]), row = parseInt(name.slice(1), 10);
    if (key === "ArrowLeft") col = Math.max(0, col - 1);
    else if (key === "ArrowRight") col = Math.min(COLS.length - 1, col + 1);
    else if (key === "ArrowUp") row = Math.max(1, row - 1);
    else if (key === "ArrowDown") row = Math.min(ROWS, row + 1);
    else if (key === "Home") col = 0;
    else if (key === "End") col = COLS.length - 1;
    else return false;
    var el = cellEl(COLS[col] + row);
    if (el) { focusCell = COLS[col] + row; roving(); el.focus(); }
    return true;
  }
  function legal(type) { return state.legal_actions.filter(function (a) { return a.type === type; }); }

  function applyMode() {
    clearTargets();
    lightTargets();
    roving();
  }
  function lightTargets() {
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
      // A flag stays where it lands: one click asks first, as a sale does (issue 43).
      if (!window.confirm(S.confirm_flag.replace("%(cell)s", name))) return;
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
  /* ---------------- a bid across a land sale ---------------- */
  // A sale opened by someone else (a bot, often) takes the bid form away until it is
  // settled. The ticked cowboys are kept for this turn's bid and ticked again when the form
  // comes back; a bid sent just as the sale opened (refused: the table had moved on) is sent
  // again once the sale is settled, and the sale panel says so meanwhile.
  var bid = null;  // {turn, cowboys, sent, waiting}
  function bidTurn() { return state.view.round + ":" + state.view.turn; }
  function remember(form, sent) {
    var ticked = $all("input[name=cowboys]:checked", form).map(function (i) { return i.value; });
    bid = { turn: bidTurn(), cowboys: ticked, sent: sent || (bid && bid.turn === bidTurn() && bid.sent), waiting: false };
  }
  function sameBid(a, b) {
    return a !== null && a !== undefined && a.map(String).sort().join(",") === b.slice().sort().join(",");
  }
  function keepBid(form) {
    if (!bid) return;
    var view = state.view;
    var isIn = sameBid(view.my_bid, bid.cowboys);
    if (bid.turn !== bidTurn() || view.phase === "over") { bid = null; return; }
    if (view.phase === "sale") {
      if (bid.sent && !isIn) {
        bid.waiting = true;
        var box = $("#sale-status");
        if (box && !$("#bid-kept", box)) {
          var p = document.createElement("p");
          p.id = "bid-kept"; p.className = "bid-kept";
          p.textContent = (bid.cowboys.length ? S.bid_kept.replace("%(cowboys)s", bid.cowboys.join(", ")) : S.bid_kept_none);
          box.appendChild(p);
        }
      }
      return;
    }
    if (!form || view.phase !== "bid") return;
    if (isIn && !bid.waiting) { bid = null; return; }  // it is in
    $all("input[name=cowboys]", form).forEach(function (i) { i.checked = bid.cowboys.indexOf(i.value) >= 0; });
    if (bid.waiting) {
      bid.waiting = false;  // sent once more, not again if refused
      window.setTimeout(function () { if ($("#bid-form") === form) submit(form); }, 0);
    }
  }
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
    fetch(state.urls.query + "claim_preview/?card=" + encodeURIComponent(card), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) { if (d && claim.card === card) { claim.previews = d.answer; showPreview(); } })
      .catch(function () {});
  }


  function wire() {
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
      var picked = $("input[name=card]:checked", claimForm);
      if (claim.card && $('input[name=card][value="' + claim.card + '"]', claimForm)) {
        $('input[name=card][value="' + claim.card + '"]', claimForm).checked = true;
        afterClaimStep();
      } else if (picked) {
        chooseCard(picked.value); // chosen before this script ran (it is deferred)
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
        if (b) b.textContent = n === 1 ? state.bid_strings.one : n ? state.bid_strings.some.replace("%(n)s", n) : state.bid_strings.none;
      };
      $all("input[name=cowboys]", bidForm).forEach(function (i) {
        i.addEventListener("change", function () { remember(bidForm, false); update(); });
      });
      // Registered before the page's own handler (wire runs first), so it sees every send.
      bidForm.addEventListener("submit", function () { remember(bidForm, true); });
    }
    keepBid(bidForm);
    applyMode();
  }
  function start(table) {
    api = table; state = table.state; S = state.strings; boardEl = table.board;
    if (!boardEl || !window.CCBoard) return;
    boardEl.addEventListener("click", function (ev) {
      var el = ev.target.closest && ev.target.closest(".cell.target");
      if (el) activate(el.getAttribute("data-cell"));
    });
    boardEl.addEventListener("keydown", function (ev) {
      var cell = ev.target.closest && ev.target.closest(".cell");
      if (!cell) return;
      if (ev.key === "Enter" || ev.key === " ") {
        if (cell.classList.contains("target")) { ev.preventDefault(); activate(cell.getAttribute("data-cell")); }
        return;
      }
      if (!ev.altKey && !ev.ctrlKey && !ev.metaKey && moveFocus(cell.getAttribute("data-cell"), ev.key)) ev.preventDefault();
    });
    boardEl.addEventListener("focusin", function (ev) {
      var cell = ev.target.closest && ev.target.closest(".cell");
      if (cell) { focusCell = cell.getAttribute("data-cell"); roving(); }
    });
  }
  (window.TitleClients = window.TitleClients || []).push({
    start: start, draw: function (prev) { if (boardEl && window.CCBoard) drawBoard(prev); }, wire: wire,
    // The replay draws each step's public view with the same renderer.
    render: function (view, client) { return CCBoard.render(view, client.names, client.board_strings); },
    changed: function (prev, view) { return CCBoard.changedCells(prev, view); }
  });
})();

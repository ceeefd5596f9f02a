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
      if (ev.key !== "Enter" && ev.key !== " ") return;
      var el = ev.target.closest && ev.target.closest(".cell.target");
      if (el) { ev.preventDefault(); activate(el.getAttribute("data-cell")); }
    });
  }
  (window.TitleClients = window.TitleClients || []).push({
    start: start, draw: function (prev) { if (boardEl && window.CCBoard) drawBoard(prev); }, wire: wire,
    // The replay draws each step's public view with the same renderer.
    render: function (view, client) { return CCBoard.render(view, client.names, client.board_strings); },
    changed: function (prev, view) { return CCBoard.changedCells(prev, view); }
  });
})();

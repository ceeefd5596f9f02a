/* The game page's private notepad: saved as one types (one second after the last key),
 * when the field loses focus, and before the page is left. Without scripts the form's
 * "Save notes" button posts it. The note goes to the player's own table only
 * (games/views_notes.py); nothing else on the page reads it. */
(function () {
  "use strict";
  var form = document.getElementById("notes-form");
  if (!form) return;
  var text = document.getElementById("notes-text");
  var status = document.getElementById("notes-status");
  var timer = null, saved = text.value, inFlight = false, again = false;

  function csrf() {
    var i = form.querySelector("input[name=csrfmiddlewaretoken]");
    return i ? i.value : "";
  }
  function say(key) { status.textContent = key ? status.getAttribute("data-" + key) : ""; }

  function save() {
    timer = null;
    if (text.value === saved) return;
    if (inFlight) { again = true; return; }
    inFlight = true;
    var sending = text.value;
    say("saving");
    var body = new FormData(form);
    fetch(form.action, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrf() }
    }).then(function (r) {
      if (!r.ok) throw new Error(String(r.status));
      saved = sending;
      say(text.value === saved ? "saved" : "saving");
    }).catch(function () { say("failed"); }).then(function () {
      inFlight = false;
      if (again || text.value !== saved) { again = false; schedule(); }
    });
  }
  function schedule() {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, 1000);
  }
  text.addEventListener("input", schedule);
  text.addEventListener("blur", function () { if (timer) { clearTimeout(timer); save(); } });
  form.addEventListener("submit", function (e) { e.preventDefault(); if (timer) clearTimeout(timer); save(); });
  window.addEventListener("pagehide", function () {
    if (text.value !== saved && navigator.sendBeacon) navigator.sendBeacon(form.action, new FormData(form));
  });
})();

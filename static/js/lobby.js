/* New-table form: show the custom clock hours only with the custom clock, the bot level only
 * with bot seats. Without this script every field simply stays visible.
 * The open tables: when the live socket (inbox.js) says they changed, fetch the list this
 * player may see and swap it in, so tables appear, fill and disappear without a reload. */
(function () {
  "use strict";
  var clock = document.getElementById("id_clock");
  var bots = document.getElementById("id_bots");
  function show(cls, on) {
    Array.prototype.forEach.call(document.querySelectorAll(cls), function (el) { el.hidden = !on; });
  }
  function update() {
    if (clock) show(".field-initial_hours, .field-increment_hours, .field-max_hours, .clock-note", clock.value === "custom");
    if (bots) show(".field-bot_kind", parseInt(bots.value || "0", 10) > 0);
  }
  if (clock) clock.addEventListener("change", update);
  if (bots) bots.addEventListener("input", update);
  update();

  var list = document.getElementById("open-tables");
  if (!list) return;
  var timer = null;
  function schedule(wait) {
    if (!timer) timer = setTimeout(run, wait);  // a burst of changes: one fetch
  }
  function run() {
    timer = null;
    var active = document.activeElement;
    if (active && active !== document.body && list.contains(active)) {
      schedule(2000);  // never pull the list from under a click or a focused button
      return;
    }
    fetch(list.dataset.url, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null) return;
        list.innerHTML = html;
        list.dataset.updates = String((parseInt(list.dataset.updates || "0", 10) || 0) + 1);
      })
      .catch(function () { schedule(5000); });
  }
  document.addEventListener("live:lobby", function () { schedule(150); });
})();

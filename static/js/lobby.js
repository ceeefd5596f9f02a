/* New-table form: show the custom clock hours only with the custom clock, the bot level only
 * with bot seats. Without this script every field simply stays visible. */
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
})();

/* A running tournament's page: its standings and rounds are fetched again every half
 * minute (tournaments/views.py, tournament_live), so a finished table shows without a
 * reload. Without scripts, a reload shows the same. */
(function () {
  "use strict";
  var box = document.getElementById("tournament-live");
  if (!box) return;
  function refresh() {
    fetch(box.getAttribute("data-url"), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) box.innerHTML = html; })
      .catch(function () {});
  }
  setInterval(refresh, 30000);
})();

// Every page: tell the server the browser's time zone, so a visitor's deadlines and dates
// are shown in it (a signed-in player's own setting wins).
(function () {
  "use strict";
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && document.cookie.indexOf("tz=" + encodeURIComponent(zone)) === -1) {
      document.cookie = "tz=" + encodeURIComponent(zone) + ";path=/;max-age=31536000;samesite=lax";
    }
  } catch (e) { /* no Intl: the server's default zone is used */ }
})();
// A phone's header: the site's and the account's links fold into a menu behind one button
// (without scripts they stay open under the brand).
(function () {
  "use strict";
  var button = document.querySelector(".menu-toggle");
  var menu = document.getElementById("site-menu");
  if (!button || !menu) return;
  button.hidden = false;
  document.querySelector(".site-header").classList.add("menu-ready");
  function set(open) {
    button.setAttribute("aria-expanded", open ? "true" : "false");
    menu.classList.toggle("open", open);
  }
  button.addEventListener("click", function () { set(button.getAttribute("aria-expanded") !== "true"); });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && menu.classList.contains("open")) { set(false); button.focus(); }
  });
})();

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
// The installable app (issue 43): the service worker serves the offline page and caches the
// static shell (static/js/sw.js); the settings page offers to install where the browser can.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  var button = document.getElementById("install-app");
  if (!button) return;
  var offer = null;
  window.addEventListener("beforeinstallprompt", function (ev) {
    ev.preventDefault();
    offer = ev;
    button.hidden = false;
  });
  button.addEventListener("click", function () {
    if (!offer) return;
    offer.prompt();
    offer.userChoice.then(function () { offer = null; button.hidden = true; });
  });
  window.addEventListener("appinstalled", function () { button.hidden = true; });
})();
// A table that scrolls sideways in its box (a phone) takes the keyboard's focus, so that the
// arrow keys can scroll it (WCAG 2.1.1; axe's scrollable-region-focusable).
(function () {
  "use strict";
  function mark() {
    Array.prototype.forEach.call(document.querySelectorAll(".table-scroll"), function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
      else if (!scrolls && box.getAttribute("tabindex") === "0") box.removeAttribute("tabindex");
    });
  }
  mark();
  window.addEventListener("resize", mark);
})();

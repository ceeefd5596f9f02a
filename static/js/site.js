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

/* A board that fits a phone (issue 43): it opens fitted to the screen's width, the whole
 * board in view, and zooms in and out by the bar's buttons, the + and - keys, a pinch and a
 * double tap; zoomed, it pans inside its frame. On a touch screen, while the places to tap
 * (the board's data-zoom-targets) are smaller than a finger, a tap zooms in around the place
 * tapped instead of playing there; zoomed in, a tap plays. After each redraw the place the
 * player acts on (the focused or selected one, else the first lit one) is kept in view.
 * The zoom is a CSS variable on #board (--zoom, set through the CSSOM: the site's CSP allows
 * no style attributes); redraws replace the board's content, never #board itself. */
(function () {
  "use strict";
  var board = document.getElementById("board");
  var bar = document.querySelector(".zoom-bar");
  if (!board || !bar || !board.dataset.zoomTargets) return;
  var targets = board.dataset.zoomTargets;
  var FINGER = 44, MAX = 4, STEP = 1.5;
  var zoom = 1, lastZoomAt = 0;  // when a tap last zoomed
  // Whether the click being handled came from a finger (a mouse or a pen plays at once).
  var coarse = false;
  board.addEventListener("pointerdown", function (ev) { coarse = ev.pointerType === "touch"; }, true);

  bar.hidden = false;
  board.classList.add("zooming");

  function targetSize() {
    var el = board.querySelector(targets);
    if (!el) return FINGER;
    var r = el.getBoundingClientRect();
    return Math.min(r.width, r.height) || FINGER;
  }
  function playZoom() {
    // The zoom at which a place to tap is a finger wide.
    return Math.min(MAX, Math.max(1, Math.ceil(zoom * FINGER / targetSize() * 10) / 10));
  }
  function setZoom(z, cx, cy) {
    z = Math.min(MAX, Math.max(1, z));
    var rect = board.getBoundingClientRect();
    if (cx === undefined) { cx = rect.width / 2; cy = rect.height / 2; }
    // The point under (cx, cy), in the board's own coordinates, stays under it.
    var px = (board.scrollLeft + cx) / zoom, py = (board.scrollTop + cy) / zoom;
    zoom = z;
    board.style.setProperty("--zoom", String(z));
    board.classList.toggle("zoomed", z > 1);
    board.scrollLeft = px * z - cx;
    board.scrollTop = py * z - cy;
    bar.querySelector("[data-zoom=out]").disabled = z <= 1;
    bar.querySelector("[data-zoom=fit]").disabled = z <= 1;
    bar.querySelector("[data-zoom=in]").disabled = z >= MAX;
  }
  function at(ev) {
    var rect = board.getBoundingClientRect();
    return [ev.clientX - rect.left, ev.clientY - rect.top];
  }

  bar.addEventListener("click", function (ev) {
    var b = ev.target.closest("[data-zoom]");
    if (!b) return;
    var kind = b.getAttribute("data-zoom");
    setZoom(kind === "in" ? zoom * STEP : kind === "out" ? zoom / STEP : 1);
  });
  board.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "+" || ev.key === "=") { setZoom(zoom * STEP); ev.preventDefault(); }
    else if (ev.key === "-") { setZoom(zoom / STEP); ev.preventDefault(); }
    else if (ev.key === "0") { setZoom(1); ev.preventDefault(); }
  });

  // A tap while the places are smaller than a finger zooms in there; a click just after a
  // zoom (the second tap of a double tap) does nothing.
  var lastTap = { t: 0, x: 0, y: 0 };
  board.addEventListener("click", function (ev) {
    var p = at(ev), now = Date.now();
    var double = now - lastTap.t < 350 && Math.abs(p[0] - lastTap.x) < 30 && Math.abs(p[1] - lastTap.y) < 30;
    lastTap = { t: now, x: p[0], y: p[1] };
    if (double && coarse) {
      ev.stopPropagation(); ev.preventDefault();
      if (now - lastZoomAt > 350) { setZoom(zoom > 1 ? 1 : playZoom(), p[0], p[1]); lastZoomAt = now; }
      return;
    }
    if (now - lastZoomAt < 350) { ev.stopPropagation(); ev.preventDefault(); return; }
    if (coarse && targetSize() < FINGER - 4) {
      ev.stopPropagation(); ev.preventDefault();
      setZoom(playZoom(), p[0], p[1]);
      lastZoomAt = now;
    }
  }, true);

  // Pinch: two fingers on the board zoom it around their midpoint (one finger pans, as the
  // frame scrolls; touch-action keeps the browser's own pinch off the board).
  var pinch = null;
  function spread(t) { return Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY); }
  board.addEventListener("touchstart", function (ev) {
    if (ev.touches.length === 2) {
      var rect = board.getBoundingClientRect();
      pinch = { d: spread(ev.touches), z: zoom,
        cx: (ev.touches[0].clientX + ev.touches[1].clientX) / 2 - rect.left,
        cy: (ev.touches[0].clientY + ev.touches[1].clientY) / 2 - rect.top };
    }
  }, { passive: true });
  board.addEventListener("touchmove", function (ev) {
    if (!pinch || ev.touches.length !== 2) return;
    ev.preventDefault();
    setZoom(pinch.z * spread(ev.touches) / pinch.d, pinch.cx, pinch.cy);
  }, { passive: false });
  board.addEventListener("touchend", function (ev) { if (ev.touches.length < 2) pinch = null; });

  // After a redraw: the place the player acts on stays in view.
  function keepInView() {
    if (zoom <= 1) return;
    var f = board.getBoundingClientRect();
    function inView(e) {
      var r = e.getBoundingClientRect();
      return r.left >= f.left && r.right <= f.right && r.top >= f.top && r.bottom <= f.bottom;
    }
    var el = board.querySelector(".selected, .kbd-focus, :focus");
    if (!el) {
      var lit = Array.prototype.slice.call(board.querySelectorAll(".target"));
      if (!lit.length || lit.some(inView)) return;
      el = lit[0];
    }
    var r = el.getBoundingClientRect();
    if (r.left < f.left) board.scrollLeft -= f.left - r.left + 8;
    else if (r.right > f.right) board.scrollLeft += r.right - f.right + 8;
    if (r.top < f.top) board.scrollTop -= f.top - r.top + 8;
    else if (r.bottom > f.bottom) board.scrollTop += r.bottom - f.bottom + 8;
  }
  new MutationObserver(function () { window.requestAnimationFrame(keepInView); })
    .observe(board, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });

  window.BoardZoom = { zoom: function () { return zoom; }, set: setZoom, targetSize: targetSize };
  setZoom(1);
})();

/* La Conquista del Oeste: the map's frame. The map is drawn on the server at one map unit
 * per CSS pixel and swapped in after each update; this script opens it on the viewer's
 * pawn, keeps the zoom and the scroll position across swaps, and wires the zoom buttons
 * (out, in, the whole map across the frame, back to my pawn).
 * Without it the map still scrolls in its frame (touch, keyboard, mouse). */
(function () {
  "use strict";
  var zoom = 1, opened = false, scroll = null;
  var STEPS = [0.5, 0.65, 0.8, 1, 1.25, 1.5, 2];

  function wrap() { return document.querySelector(".lc-board-wrap"); }
  function map() { return document.querySelector(".lc-map"); }
  function size(svg) {
    var box = svg.viewBox.baseVal;
    svg.setAttribute("width", String(Math.round(box.width * zoom)));
    svg.setAttribute("height", String(Math.round(box.height * zoom)));
  }
  function centre(w, svg) {
    var x = Number(svg.getAttribute("data-focus-x")), y = Number(svg.getAttribute("data-focus-y"));
    if (!isFinite(x) || !isFinite(y) || !svg.hasAttribute("data-focus-x")) return;
    w.scrollLeft = Math.max(0, x * zoom - w.clientWidth / 2);
    w.scrollTop = Math.max(0, y * zoom - w.clientHeight / 2);
  }
  function setZoom(next) {
    var w = wrap(), svg = map();
    if (!w || !svg) return;
    var cx = (w.scrollLeft + w.clientWidth / 2) / zoom, cy = (w.scrollTop + w.clientHeight / 2) / zoom;
    zoom = next;
    size(svg);
    w.scrollLeft = Math.max(0, cx * zoom - w.clientWidth / 2);
    w.scrollTop = Math.max(0, cy * zoom - w.clientHeight / 2);
    remember();
  }
  // The whole map across the frame's width (on a phone, an overview to zoom in from).
  function fitZoom() {
    var w = wrap(), svg = map();
    if (!w || !svg) return zoom;
    return Math.min(1, w.clientWidth / svg.viewBox.baseVal.width);
  }
  function remember() {
    var w = wrap();
    if (w) scroll = { left: w.scrollLeft, top: w.scrollTop };
  }
  function wire() {
    var w = wrap(), svg = map();
    if (!w || !svg) return;
    size(svg);
    if (!opened) { centre(w, svg); opened = true; }
    else if (scroll) { w.scrollLeft = scroll.left; w.scrollTop = scroll.top; }
    remember();
    if (!w.dataset.lcWired) {
      w.dataset.lcWired = "1";
      w.addEventListener("scroll", remember, { passive: true });
    }
    var bar = document.querySelector("[data-lc-zoom]");
    if (bar && !bar.dataset.lcWired) {
      bar.dataset.lcWired = "1";
      bar.hidden = false;
      bar.addEventListener("click", function (ev) {
        var b = ev.target.closest("button[data-zoom]");
        if (!b) return;
        var bigger = STEPS.filter(function (z) { return z > zoom + 1e-6; });
        var smaller = STEPS.filter(function (z) { return z < zoom - 1e-6; });
        if (b.dataset.zoom === "in" && bigger.length) setZoom(bigger[0]);
        else if (b.dataset.zoom === "out" && smaller.length) setZoom(smaller[smaller.length - 1]);
        else if (b.dataset.zoom === "fit") setZoom(fitZoom());
        else if (b.dataset.zoom === "me") { centre(wrap(), map()); remember(); }
      });
    }
  }
  window.TitleClients = window.TitleClients || [];
  window.TitleClients.push({ start: wire, wire: wire });
  if (!document.getElementById("game-data")) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
    else wire();
  }
})();

/* La Conquista del Oeste: the map's frame. The map is drawn on the server at one map unit
 * per CSS pixel and swapped in after each update; this script opens it on the viewer's
 * pawn, keeps the zoom and the scroll position across swaps, and wires the zoom buttons.
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
        var i = STEPS.indexOf(zoom);
        if (b.dataset.zoom === "in" && i < STEPS.length - 1) setZoom(STEPS[i + 1]);
        else if (b.dataset.zoom === "out" && i > 0) setZoom(STEPS[i - 1]);
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

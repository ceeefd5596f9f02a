/* The Colorado County board as SVG markup, drawn from an engine view.
 * Mirror of games/board_svg.py: the same view gives the same markup (a browser test checks
 * it), so a live update redraws exactly what a reload would show. */
(function () {
  "use strict";
  var COLS = "ABCDEFGHIJKLMNO";
  var ROWS = 10, CELL = 40, PAD = 22;
  var WIDTH = PAD + CELL * COLS.length + 2, HEIGHT = PAD + CELL * ROWS + 2;
  var SHAPES = ["circle", "square", "triangle", "diamond"];
  var FLAG_LETTERS = { yellow: "Y", red: "R", green: "G", blue: "B" };

  function g(x) { return String(Number(Number(x).toPrecision(6))); }  // Python's :g
  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  }
  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, k) { return String(values[k]); });
  }
  function shape(seat, size) {
    var s = size === undefined ? 13 : size;
    var kind = SHAPES[seat % SHAPES.length], body;
    if (kind === "circle") body = '<circle r="' + g(s) + '"/>';
    else if (kind === "square") body = '<rect x="' + g(-s * 0.9) + '" y="' + g(-s * 0.9) + '" width="' + g(s * 1.8) + '" height="' + g(s * 1.8) + '"/>';
    else if (kind === "triangle") body = '<polygon points="0,' + g(-s * 1.1) + " " + g(s * 1.05) + "," + g(s * 0.8) + " " + g(-s * 1.05) + "," + g(s * 0.8) + '"/>';
    else body = '<polygon points="0,' + g(-s * 1.15) + " " + g(s * 1.15) + ",0 0," + g(s * 1.15) + " " + g(-s * 1.15) + ',0"/>';
    var dy = kind === "triangle" ? ' dy="3"' : "";
    return body + "<text" + dy + ">" + (seat + 1) + "</text>";
  }
  function flag(colour) {
    var letter = FLAG_LETTERS[colour] || "?";
    return '<g class="flag f-' + esc(colour) + '"><line x1="11" y1="6" x2="11" y2="35"/>' +
      '<path d="M12 6 L34 14 L12 22 Z"/><text x="19" y="18">' + letter + "</text></g>";
  }
  function cellXY(name) {
    return [PAD + COLS.indexOf(name[0]) * CELL, PAD + (parseInt(name.slice(1), 10) - 1) * CELL];
  }
  function who(names, seat, t) {
    return seat >= 0 && seat < names.length ? names[seat] : fmt(t.seat, { n: seat + 1 });
  }
  function title(name, content, lake, border, names, t) {
    if (lake) {
      var w = lake.owner === null || lake.owner === undefined ? t.nobody : who(names, lake.owner, t);
      return fmt(t.lake, { cell: name, value: lake.value, who: w });
    }
    var parts = [name];
    if (border) parts.push(t.border);
    if (content) {
      if ("marker" in content) parts.push(fmt(t.marker, { who: who(names, content.marker, t) }));
      else if ("flag" in content) parts.push(fmt(t.flag, { colour: t[content.flag] || content.flag }));
      else if ("for_sale" in content) parts.push(fmt(t.for_sale, { who: who(names, content.for_sale, t) }));
    } else {
      parts.push(t.free);
    }
    return parts.join(", ");
  }

  function render(view, names, t) {
    var board = view.board, cells = board.cells || {}, lakes = board.lakes || [];
    var border = {}, lakeOf = {}, out = [], i, r;
    (board.border || []).forEach(function (c) { border[c] = true; });
    lakes.forEach(function (lake) { lake.cells.forEach(function (c) { lakeOf[c] = lake; }); });
    out.push('<svg class="board-svg" viewBox="0 0 ' + WIDTH + " " + HEIGHT + '" ' +
      'xmlns="http://www.w3.org/2000/svg" aria-labelledby="board-title">');
    out.push('<title id="board-title">' + esc(t.title) + "</title>");
    out.push('<g class="labels" aria-hidden="true">');
    for (i = 0; i < COLS.length; i++) out.push('<text x="' + (PAD + i * CELL + CELL / 2) + '" y="' + (PAD - 7) + '">' + COLS[i] + "</text>");
    for (r = 0; r < ROWS; r++) out.push('<text x="' + Math.floor(PAD / 2) + '" y="' + (PAD + r * CELL + CELL / 2 + 5) + '">' + (r + 1) + "</text>");
    out.push('</g><g class="cells">');
    for (r = 0; r < ROWS; r++) {
      for (i = 0; i < COLS.length; i++) {
        var name = COLS[i] + (r + 1), xy = cellXY(name), lake = lakeOf[name], content = cells[name];
        var classes = ["cell", lake ? "lake" : "land"];
        if (border[name]) classes.push("border");
        var parts = ['<g class="' + classes.join(" ") + '" data-cell="' + name + '" transform="translate(' + xy[0] + "," + xy[1] + ')"><title>' +
          esc(title(name, content, lake, !!border[name], names, t)) + "</title>" +
          '<rect class="ground" width="' + CELL + '" height="' + CELL + '"/>'];
        if (!lake && border[name]) parts.push('<path class="border-mark" d="M3 3 L9 3 M3 3 L3 9"/>');
        if (content) {
          if ("marker" in content) parts.push('<g class="marker p' + content.marker + '" transform="translate(20,20)">' + shape(content.marker) + "</g>");
          else if ("flag" in content) parts.push(flag(String(content.flag)));
          else if ("for_sale" in content) parts.push('<g class="marker p' + content.for_sale + ' for-sale" transform="translate(20,20)">' + shape(content.for_sale) + "</g>");
        }
        parts.push("</g>");
        out.push(parts.join(""));
      }
    }
    out.push('</g><g class="lake-labels" aria-hidden="true">');
    lakes.forEach(function (lake) {
      var sx = 0, sy = 0;
      lake.cells.forEach(function (c) { var p = cellXY(c); sx += p[0]; sy += p[1]; });
      var cx = sx / lake.cells.length + CELL / 2, cy = sy / lake.cells.length + CELL / 2;
      out.push('<g class="lake-label" data-lake="' + esc(lake.id) + '" transform="translate(' + g(cx) + "," + g(cy) + ')">' +
        '<circle class="lake-value" r="11"/><text dy="5">' + parseInt(lake.value, 10) + "</text>");
      if (lake.owner !== null && lake.owner !== undefined) {
        out.push('<g class="marker owner p' + lake.owner + '" transform="translate(17,-13) scale(0.6)">' + shape(lake.owner) + "</g>");
      }
      out.push("</g>");
    });
    out.push("</g></svg>");
    return out.join("");
  }

  /* Cells whose content or lake owner differ between two views (for the change highlight). */
  function changedCells(before, after) {
    var out = [], a = (before && before.board.cells) || {}, b = after.board.cells || {}, seen = {};
    Object.keys(a).concat(Object.keys(b)).forEach(function (c) {
      if (seen[c]) return; seen[c] = true;
      if (JSON.stringify(a[c] || null) !== JSON.stringify(b[c] || null)) out.push(c);
    });
    var owners = {};
    ((before && before.board.lakes) || []).forEach(function (l) { owners[l.id] = l.owner; });
    after.board.lakes.forEach(function (l) {
      if (before && owners[l.id] !== l.owner) out = out.concat(l.cells);
    });
    return out;
  }

  window.CCBoard = { render: render, changedCells: changedCells, shape: shape };
})();

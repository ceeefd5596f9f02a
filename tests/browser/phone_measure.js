// What is wider than the viewport, which controls are too small to tap, and which text is
// smaller than 12 px, on the page as it is (tests/browser/test_phone.py).
(() => {
  const vw = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > vw + 1 && !el.closest('.table-scroll, .zoom-frame, .visually-hidden, .skip-link')) {
      wide.push(el.tagName + '.' + el.className + '#' + el.id + ' ' + Math.round(r.right));
    }
  }
  const small = [];
  const taps = 'a[href], button, select, input:not([type=hidden]), summary, [role=button], textarea';
  for (const el of document.querySelectorAll(taps)) {
    // A zooming board's places are a finger wide once zoomed (test_phone_board.py).
    if (el.closest('.visually-hidden, .skip-link, [hidden], .board.zooming')
        || el.matches('.chip input, .card-choice input')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (el.closest('p, li, td, dd, .help, .legend') && el.tagName === 'A' && !el.matches('.button, .inbox-link')) continue;
    if (r.height < 43.5 && !(el.type === 'checkbox' || el.type === 'radio')) {
      small.push(el.tagName + '.' + el.className + ' "' + (el.innerText || el.value || '').trim().slice(0, 20) + '" ' + Math.round(r.height));
    }
  }
  const tiny = [];
  for (const el of document.querySelectorAll('p, li, td, th, label, a, button, span')) {
    if (el.closest('.visually-hidden, svg')) continue;
    const t = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (t && parseFloat(getComputedStyle(el).fontSize) < 12) tiny.push(el.tagName + '.' + el.className);
  }
  return {scroll: document.documentElement.scrollWidth, vw, wide: wide.slice(0, 8),
          small: small.slice(0, 12), tiny: tiny.slice(0, 8)};
})()

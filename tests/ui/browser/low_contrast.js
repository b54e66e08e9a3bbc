// Text under 4.5:1 against its background (3:1 when large), as axe-core's colour-contrast rule.
(() => {
  const rgb = (text) => (text.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (node) => {
    for (let e = node; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] >= 0.99)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  const seen = new Set();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const host = walk.currentNode.parentElement;
    if (!walk.currentNode.textContent.trim() || !host || seen.has(host)) continue;
    seen.add(host);
    if (!host.checkVisibility() || host.closest(".visually-hidden, svg")) continue;
    if (host.closest(".overlay") === null && document.body.classList.contains("overlay-open")) continue;
    const style = getComputedStyle(host);
    const fg = rgb(style.color).slice(0, 3);
    const [a, b] = [lum(fg), lum(background(host))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) low.push(`${host.tagName}#${host.id}.${host.className}: ${ratio.toFixed(2)} "${walk.currentNode.textContent.trim().slice(0, 30)}"`);
  }
  return low;
})

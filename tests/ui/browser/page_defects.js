// The other defects axe-core found on the old page: an empty header, a glyph the fonts lack,
// a scrolling log that takes no focus, a button with no name.
(() => {
  const found = [];
  for (const th of document.querySelectorAll("th")) if (!th.textContent.trim()) found.push("an empty table header");
  if (document.body.textContent.includes("\uff0b")) found.push("a fullwidth plus, which the fonts lack");
  for (const node of document.querySelectorAll(".log, .lines")) {
    if (node.scrollHeight > node.clientHeight && node.tabIndex < 0) found.push(`#${node.id} scrolls but takes no focus`);
  }
  for (const b of document.querySelectorAll("button")) {
    if (b.checkVisibility() && !(b.textContent.trim() || b.getAttribute("aria-label"))) found.push("a button with no name");
  }
  return found;
})

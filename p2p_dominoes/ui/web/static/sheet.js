// Kozel's score sheet, «Мы / Они» (Us / Them): one row per hand with what each pair wrote (an
// amount under 13 struck out, "not written"), the hand's ceremony title, the running totals and
// the 101 line. The peer sends every word in the player's language; nothing here is from a peer
// but as textContent.

import { el } from "./dom.js";

function cell(c) {
  const amount = !c.amount ? el("span", { textContent: "—" })
    : c.written ? el("span", { textContent: String(c.amount) })
    : el("s", { textContent: String(c.amount) });
  const parts = [amount];
  if (c.note) parts.push(" ", el("span", { className: "sheet-note", textContent: `(${c.note})` }));
  return el("td", {}, ...parts);
}

export function renderSheet(node, s) {
  const sheet = s.sheet;
  node.hidden = !sheet;
  if (!sheet) return;
  const w = sheet.words;
  const head = el("tr", {},
    el("th", { scope: "col", textContent: w.hand }),
    el("th", { scope: "col" }, `${w.us} `, el("span", { className: "sheet-pair", translate: "no", textContent: `(${sheet.pairs[0]})` })),
    el("th", { scope: "col" }, `${w.them} `, el("span", { className: "sheet-pair", translate: "no", textContent: `(${sheet.pairs[1]})` })));
  const rows = sheet.rows.map((r) => el("tr", {},
    el("th", { scope: "row", textContent: r.title ? `${r.hand}: ${r.title}` : String(r.hand) + (r.note ? ` (${r.note})` : "") }),
    cell(r.cells[0]), cell(r.cells[1])));
  const last = sheet.rows[sheet.rows.length - 1];
  const totals = last ? [last.cells[0].total, last.cells[1].total] : [0, 0];
  const line = el("tr", { className: "sheet-line" },
    el("th", { scope: "row", textContent: w.total }),
    el("td", { className: totals[0] >= sheet.target ? "sheet-goat" : "", textContent: String(totals[0]) }),
    el("td", { className: totals[1] >= sheet.target ? "sheet-goat" : "", textContent: String(totals[1]) }));
  // The rows scroll inside a bounded box (the header and the total stay put), the latest at the
  // bottom in view: a long match never pushes the board and the hand off the table.
  const scroll = el("div", { className: "sheet-scroll", tabIndex: 0 },
    el("table", { className: "sheet" }, el("thead", {}, head), el("tbody", {}, ...rows, line)));
  node.replaceChildren(
    el("h3", { textContent: w.title }),
    scroll,
    el("p", { className: "sheet-target", textContent: sheet.line }));
  scroll.scrollTop = scroll.scrollHeight;
}

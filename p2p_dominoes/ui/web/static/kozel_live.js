// Kozel during play: the partner's badge on the seat across the table, and the words a hand's
// end says aloud (the live region) — which pair scored and why, and a ceremony by its name and
// what it does. The words come from the peer (engine/kozel_text.py), in the page's language.

import { t } from "./strings.js";

// Whether `seat` is the player's partner (pairs: seats 1+3 and 2+4, opposite each other).
export function isPartner(s, seat) {
  const me = s.seat ?? 0;
  return Boolean(s.pairs) && s.names.length === 4 && seat !== me && seat % 2 === me % 2;
}

// The words for a Kozel hand's end, once per hand: `words` for the screen reader (the pairs'
// sentence, ceremony included) and `ceremony` for the caption ("Ceremony: …"), or empty.
export function kozelEndWords(prev, s) {
  const end = s?.screen === "table" ? s.end : null;
  if (!end?.pairs) return { words: "", ceremony: "" };
  const before = prev?.screen === "table" ? prev.end : null;
  if (before?.pairs && before.hand_number === end.hand_number) return { words: "", ceremony: "" };
  const ceremony = end.ceremony_text ? t("ceremony", end.ceremony_text) : "";
  return { words: end.words || "", ceremony };
}

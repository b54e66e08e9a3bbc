// What just happened: taken from the peer's `recent_actions` (each move with its serial, so two
// moves in one snapshot are both told), else worked out from consecutive snapshots: the last
// tile played, the tile just drawn, passes and draws per seat, and a short caption per move
// ("Bob played [2|5] on the 5") that the live region also reads.

import { t } from "./strings.js";

export const moves = {
  hand: null,       // the hand number these belong to
  lead: 0,          // index of the first tile played, in `line`
  last: null,       // key of the last tile played
  arrive: false,    // the last tile has just arrived: slide it in once
  fresh: new Set(), // keys in my hand drawn since my last play
  badges: {},       // seat -> { kind: "draw"|"pass", count }
  caption: "",
  recent: [],       // the last few captions, newest first
  finalLine: null,  // the last line seen of the hand that ended (kept for the summary)
  serial: 0,        // the serial of the last move captioned (the peer's `recent_actions`)
  leadTile: null,   // key of the hand's first tile (the lead's index moves as tiles go left)
  events: [],       // what happened since the page last looked: { kind, seat, key } (sound, motion)
};

function tileText(key) {
  const [a, b] = String(key).split("|");
  return t("tile_text", a, b);
}

function nameOf(s, seat) {
  return s.names[seat] ?? t("seat_n", seat + 1);
}

function played(s, seat, key, end, value) {
  const mine = seat === s.seat;
  moves.events.push({ kind: "play", seat, key });
  moves.last = key;
  moves.arrive = true;
  delete moves.badges[seat];
  if (mine) moves.fresh.clear();
  if (end === "lead" || value === null || value === undefined) {
    return mine ? t("you_led", tileText(key)) : t("led", nameOf(s, seat), tileText(key));
  }
  return mine ? t("you_played_on", tileText(key), value) : t("played_on", nameOf(s, seat), tileText(key), value);
}

// A draw of `count` tiles (0: a tile drawn before became readable in my hand).
function drew(s, seat, count, newKeys) {
  const badge = moves.badges[seat];
  if (count || newKeys.length) moves.events.push({ kind: "draw", seat, key: newKeys[0] ?? null });
  if (count) moves.badges[seat] = { kind: "draw", count: (badge?.kind === "draw" ? badge.count : 0) + count };
  if (seat === s.seat) {
    for (const key of newKeys) moves.fresh.add(key);
    return newKeys.length ? t("you_drew", newKeys.map(tileText).join(" ")) : "";
  }
  return t("drew", nameOf(s, seat));
}

function passed(s, seat) {
  moves.events.push({ kind: "pass", seat, key: null });
  moves.badges[seat] = { kind: "pass", count: 0 };
  return seat === s.seat ? t("you_passed") : t("passed", nameOf(s, seat));
}

// Compare the new snapshot `s` with the previous one; returns the caption of what changed
// ("" when nothing visible happened).
export function observe(prev, s) {
  if (s.screen !== "table") return "";
  moves.arrive = false;
  // The last board of a hand that ended, kept by the peer until the next hand is dealt: it
  // belongs to the hand we already follow.
  if (s.final_board) return "";
  const newHand = !prev || prev.screen !== "table" || moves.hand !== s.hand_number;
  if (newHand) {
    if (prev && prev.screen === "table" && prev.line?.length) moves.finalLine = { line: prev.line, lead: moves.lead, last: moves.last };
    moves.hand = s.hand_number;
    moves.lead = s.lead ?? Math.floor((s.line.length - 1) / 2);
    if (s.line.length <= 1) moves.lead = 0;
    moves.last = null;
    moves.fresh = new Set();
    moves.badges = {};
    moves.caption = "";
    moves.recent = [];
    moves.leadTile = s.line.length ? s.line[moves.lead].tile : null;
    for (const action of s.recent_actions || []) moves.serial = Math.max(moves.serial, action.serial);
    return "";
  }
  if (Array.isArray(s.recent_actions)) return observeActions(prev, s);
  if (typeof s.lead === "number") moves.lead = s.lead;
  let caption = "";
  const action = s.last_action;
  const before = prev.line || [];
  const now = s.line || [];
  const changed = JSON.stringify(action) !== JSON.stringify(prev.last_action)
    || JSON.stringify([prev.turn, prev.counts, prev.line?.length]) !== JSON.stringify([s.turn, s.counts, now.length]);
  if (action && changed) {
    if (action.kind === "play" && now.length > before.length) {
      if (typeof s.lead !== "number" && action.end === "left") moves.lead += 1;
      caption = played(s, action.seat, action.tile, action.end, action.value);
    } else if (action.kind === "draw") {
      const had = new Set(prev.hand.map((h) => h.tile));
      const fresh = s.hand.map((h) => h.tile).filter((k) => !had.has(k));
      const grew = Math.max(0, s.counts[action.seat] - (prev.counts[action.seat] ?? s.counts[action.seat]));
      if (grew || (action.seat === s.seat && fresh.length)) {
        caption = drew(s, action.seat, grew, action.seat === s.seat ? fresh : []);
      }
    } else if (action.kind === "pass") {
      caption = passed(s, action.seat);
    }
  } else if (!action && prev.turn !== null && prev.turn !== undefined) {
    if (now.length === before.length + 1) {
      const seat = prev.turn;
      if (!before.length) caption = played(s, seat, now[0].tile, "lead", null);
      else if (now[0].tile !== before[0].tile) {
        if (typeof s.lead !== "number") moves.lead += 1;
        caption = played(s, seat, now[0].tile, "left", now[0].right);
      } else {
        const tile = now[now.length - 1];
        caption = played(s, seat, tile.tile, "right", tile.left);
      }
    } else if (now.length === before.length) {
      // Draws: another seat's count grows; my own draw shows as new keys in my hand (the
      // count may grow a snapshot before the tile is readable).
      for (let seat = 0; seat < s.counts.length; seat += 1) {
        const grew = s.counts[seat] - (prev.counts[seat] ?? s.counts[seat]);
        if (grew > 0 && seat !== s.seat) caption = drew(s, seat, grew, []);
      }
      const had = new Set(prev.hand.map((h) => h.tile));
      const newKeys = s.hand.map((h) => h.tile).filter((k) => !had.has(k));
      if (newKeys.length && prev.hand.length) caption = drew(s, s.seat, newKeys.length, newKeys);
      if (!caption && s.turn !== prev.turn && s.turn !== null && s.counts.length === prev.counts.length
          && s.counts.every((c, i) => c === prev.counts[i])) {
        caption = passed(s, prev.turn);
      }
    }
  }
  if (caption) {
    moves.caption = caption;
    moves.recent = [caption, ...moves.recent].slice(0, 3);
  }
  return caption;
}

// Every move the peer lists since the last one captioned (several can come in one snapshot),
// oldest first; returns their captions joined, for the live region.
function observeActions(prev, s) {
  if (!moves.leadTile && s.line.length) moves.leadTile = s.line[0].tile;
  const at = s.line.findIndex((tile) => tile.tile === moves.leadTile);
  if (at >= 0) moves.lead = at;
  const had = new Set(prev.hand.map((h) => h.tile));
  const newKeys = s.hand.map((h) => h.tile).filter((k) => !had.has(k));
  if (prev.hand.length) for (const key of newKeys) moves.fresh.add(key);
  const captions = [];
  for (const action of s.recent_actions) {
    if (action.serial <= moves.serial) continue;
    moves.serial = action.serial;
    let caption = "";
    if (action.kind === "play") caption = played(s, action.seat, action.tile, action.end, action.value);
    else if (action.kind === "pass") caption = passed(s, action.seat);
    else if (action.kind === "draw") {
      const mine = action.seat === s.seat;
      const keys = mine ? (action.drawn ? [action.drawn] : newKeys) : [];
      caption = drew(s, action.seat, 1, keys);
    }
    if (caption) captions.push(caption);
  }
  if (!captions.length) return "";
  moves.caption = captions[captions.length - 1];
  moves.recent = [...[...captions].reverse(), ...moves.recent].slice(0, 3);
  return captions.join(". ");
}

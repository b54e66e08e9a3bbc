// The table's sounds, made on the spot with WebAudio (nothing is fetched, nothing is shipped):
// a tile's clack, a draw, a pass, your turn, a hand won, a match won, someone asking for a seat,
// and Kozel's goat bleating at the match's end (its moment, overlays.js).
// Off until the player turns them on; the switch and the volume are remembered by this browser
// (localStorage). Each cue played is also told to the page as a "p2p-sound" event.

const ON_KEY = "p2p-dominoes-sound";      // "on" / "off" (off when never set)
const VOLUME_KEY = "p2p-dominoes-volume"; // 0–100

let audio = null;

export function soundOn() {
  return localStorage.getItem(ON_KEY) === "on";
}

export function volume() {
  const stored = Number.parseInt(localStorage.getItem(VOLUME_KEY) ?? "", 10);
  return Number.isFinite(stored) ? Math.min(100, Math.max(0, stored)) : 60;
}

export function setSound(on) {
  localStorage.setItem(ON_KEY, on ? "on" : "off");
  if (on) context()?.resume();  // a click: the browser lets the page make sound from now on
}

export function setVolume(value) {
  localStorage.setItem(VOLUME_KEY, String(Math.min(100, Math.max(0, Math.round(value)))));
}

function context() {
  if (!window.AudioContext) return null;
  audio = audio || new AudioContext();
  return audio;
}

// A tone: frequency `f` Hz from `at` s for `length` s, with a quick attack and a soft decay.
function tone(ctx, out, f, at, length, type = "sine", level = 1) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(out);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

// A burst of filtered noise: the wood of a tile (`f` the band's centre).
function knock(ctx, out, at, f, length, level = 1) {
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const band = ctx.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = f;
  band.Q.value = 1.2;
  const gain = ctx.createGain();
  gain.gain.value = level;
  source.connect(band).connect(gain).connect(out);
  source.start(at);
}

// A bleat: a buzzy tone (sawtooth through a soft "eh" formant) that wobbles fast in pitch and
// loudness, rising a little then sagging — "meh-eh-eh", short and a bit silly.
function bleat(ctx, out, at, f, length, level = 1) {
  const osc = ctx.createOscillator();
  osc.type = "sawtooth";
  osc.frequency.setValueAtTime(f * .9, at);
  osc.frequency.linearRampToValueAtTime(f, at + .07);
  osc.frequency.linearRampToValueAtTime(f * .82, at + length);
  const wobble = ctx.createOscillator();  // the goat's vibrato (about 19 wobbles a second)
  wobble.frequency.value = 19;
  const depth = ctx.createGain();
  depth.gain.value = f * .05;
  wobble.connect(depth).connect(osc.frequency);
  const throb = ctx.createGain();  // and the loudness wobbling with it
  throb.gain.value = .3;
  wobble.connect(throb);
  const formant = ctx.createBiquadFilter();
  formant.type = "bandpass";
  formant.frequency.value = 1100;
  formant.Q.value = 1.4;
  const trem = ctx.createGain();
  trem.gain.value = .7;
  throb.connect(trem.gain);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + .04);
  gain.gain.setValueAtTime(level, at + length * .6);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(formant).connect(trem).connect(gain).connect(out);
  for (const node of [osc, wobble]) { node.start(at); node.stop(at + length + .02); }
}

const CUES = {
  clack: (ctx, out, t0) => { knock(ctx, out, t0, 2400, 0.06, 1.6); knock(ctx, out, t0 + 0.012, 900, 0.05, 0.9); },
  draw: (ctx, out, t0) => { knock(ctx, out, t0, 1500, 0.16, 0.7); knock(ctx, out, t0 + 0.09, 2600, 0.05, 0.6); },
  pass: (ctx, out, t0) => { tone(ctx, out, 392, t0, 0.16, "triangle", 0.5); tone(ctx, out, 294, t0 + 0.13, 0.22, "triangle", 0.5); },
  turn: (ctx, out, t0) => { tone(ctx, out, 660, t0, 0.18, "sine", 0.6); tone(ctx, out, 880, t0 + 0.12, 0.28, "sine", 0.5); },
  hand_won: (ctx, out, t0) => [523, 659, 784].forEach((f, i) => tone(ctx, out, f, t0 + i * 0.11, 0.3, "triangle", 0.5)),
  match_won: (ctx, out, t0) => [523, 659, 784, 1047, 1319].forEach((f, i) => tone(ctx, out, f, t0 + i * 0.12, i === 4 ? 0.8 : 0.3, "triangle", 0.5)),
  goat: (ctx, out, t0) => { bleat(ctx, out, t0, 460, .2, 1.4); bleat(ctx, out, t0 + .26, 410, .6, 1.6); },
  ask: (ctx, out, t0) => { tone(ctx, out, 784, t0, 0.2, "sine", 0.5); tone(ctx, out, 988, t0 + 0.16, 0.2, "sine", 0.5); tone(ctx, out, 784, t0 + 0.32, 0.3, "sine", 0.4); },
};

// Plays the cue `name` when the player turned sound on (and the volume is above 0).
export function play(name) {
  if (!soundOn() || !CUES[name] || volume() === 0) return false;
  const ctx = context();
  if (!ctx) return false;
  const out = ctx.createGain();
  out.gain.value = 0.35 * (volume() / 100) ** 2;  // (loudness grows about with the square)
  out.connect(ctx.destination);
  CUES[name](ctx, out, ctx.currentTime + 0.01);
  document.dispatchEvent(new CustomEvent("p2p-sound", { detail: name }));
  return true;
}

// What the cue `name` sounds like, rendered offline (no speaker, whatever the switch says):
// its samples at 22 050 Hz for `seconds`, at full volume. For checking that a cue is heard.
export async function rendered(name, seconds = 1.5) {
  const ctx = new OfflineAudioContext(1, Math.ceil(22050 * seconds), 22050);
  CUES[name](ctx, ctx.destination, 0.01);
  return (await ctx.startRendering()).getChannelData(0);
}

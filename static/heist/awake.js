// A seated guest's phone stays awake and gets noticed.
//
// Awake: the Screen Wake Lock where the browser offers it. It is only offered in a
// secure context (HTTPS, or localhost), so a phone on the laptop's plain-HTTP LAN
// address has none; there (and where the lock is refused) the phone shows a short
// "keep your screen on" note with where the setting is. We do not use the old trick of
// a looping muted video: current iOS Safari lets a page sleep through a muted, looping
// video and Android Chrome does not hold the screen for one on plain HTTP, so it would
// promise what it does not do.
//
// Noticed: a buzz where the phone can vibrate; where it cannot (iPhones ignore
// navigator.vibrate), a short chime through WebAudio, unlocked by the guest's first tap
// (browsers keep audio silent until a page has been touched).
import { fill, h } from "./ui.js";

const NOTE_KEY = "heist.awake-note";
let lock = null;
let wanted = false;
let state = "off"; // off | locked | unsupported | refused
let audio = null;
let onChange = null;

function setState(next) {
  const changed = next !== state;
  state = next;
  document.body.dataset.wakeLock = next;
  if (changed && next === "refused" && onChange) onChange(); // the note shows
}

async function acquire() {
  if (!wanted || lock || document.visibilityState !== "visible") return;
  if (!("wakeLock" in navigator) || !window.isSecureContext) {
    setState("unsupported");
    return;
  }
  try {
    lock = await navigator.wakeLock.request("screen");
    setState("locked");
    lock.addEventListener("release", () => {
      lock = null;
      if (state === "locked") setState("off");
    });
  } catch {
    setState("refused"); // a low battery, a power-saving mode, a policy
  }
}

// The lock is dropped whenever the page is hidden; take it again when it is back.
document.addEventListener("visibilitychange", () => { acquire(); });

/** Hold the screen on while `seated` (the party is on and this phone has a seat);
 * `redraw` is called when the note below must show after all. */
export function keepAwake(seated, redraw = null) {
  wanted = Boolean(seated);
  onChange = redraw;
  if (wanted) acquire();
  else if (lock) {
    const l = lock;
    lock = null;
    setState("off");
    l.release().catch(() => {});
  }
}

/** The note shown where the screen cannot be held on, until the guest dismisses it. */
export function awakeNote(onDismiss) {
  if (!wanted || (state !== "unsupported" && state !== "refused") || localStorage.getItem(NOTE_KEY)) return null;
  const apple = /iPhone|iPad|iPod/.test(navigator.userAgent);
  return h("section", { class: "notice awake-note", id: "awake-note", role: "note" },
    h("p", {}, fill(apple
      ? gettext("%(keep)s while you play: Settings › Display & Brightness › Auto-Lock › Never (set it back after the party).")
      : gettext("%(keep)s while you play: Settings › Display › Screen timeout, the longest there is."), { keep: h("strong", { text: gettext("Keep your screen on") }) })),
    h("button", { class: "btn small", type: "button", text: gettext("OK"), on: { click: () => { localStorage.setItem(NOTE_KEY, "1"); onDismiss(); } } }));
}

// Browsers only let a page make sound after a tap: make the audio context on the first.
function unlock() {
  if (audio) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  audio = new Ctx();
  // iOS starts it suspended until a sound is started from a tap: a silent one.
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  gain.gain.value = 0;
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.01);
}
for (const ev of ["pointerdown", "keydown", "touchend"]) document.addEventListener(ev, unlock, { capture: true, passive: true });

function chime(notes) {
  if (!audio) return false;
  if (audio.state === "suspended") audio.resume();
  let t = audio.currentTime + 0.02;
  for (const [freq, len] of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.35, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + len);
    osc.connect(gain).connect(audio.destination);
    osc.start(t);
    osc.stop(t + len + 0.02);
    t += len + 0.06;
  }
  return true;
}

const PATTERNS = {
  turn: { buzz: [180, 90, 180], notes: [[660, 0.14], [880, 0.2]] },
  react: { buzz: [250, 120, 250, 120, 250], notes: [[988, 0.12], [988, 0.12], [988, 0.18]] },
};

/** Call the guest: a buzz where the phone vibrates, else a chime. Says which it used
 * on the body (data-cue, data-cue-by) for the screens' tests. */
export function cue(kind) {
  const p = PATTERNS[kind] || PATTERNS.turn;
  let by = "none";
  if (typeof navigator.vibrate === "function" && navigator.vibrate(p.buzz)) by = "vibrate";
  else if (chime(p.notes)) by = "sound";
  document.body.dataset.cue = kind;
  document.body.dataset.cueBy = by;
  return by;
}

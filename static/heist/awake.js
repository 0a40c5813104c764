// A seated guest's phone, a captain's tablet and the big screen stay awake (holdAwake,
// called by each page's shell for every game); a guest gets noticed.
//
// Awake: the Screen Wake Lock where the browser offers it. It is only offered in a
// secure context (HTTPS, or localhost), so a phone on the laptop's plain-HTTP LAN
// address has none. There (and where the lock is refused) we do what NoSleep.js 0.12.0
// (MIT, static/heist/nosleep/LICENSE) does: from the guest's first tap, play a tiny
// looping video with a silent sound track, hidden, inline. It is not muted on purpose:
// Chromium holds the screen on for a playing video only while it is audible (a sound
// track and a volume above 0) or large and on screen, and the track is silence. The
// videos are NoSleep's own, served from /static/ (the CSP allows media from this origin
// only, so not its data: URLs); the page's own code is here because NoSleep ships no ES
// module and cannot load them from a URL. A hidden page pauses it (and the OS may too);
// back in the foreground it plays again.
//
// Where neither runs (before the first tap, or the browser refuses to play), the phone
// shows a short "keep your screen on" note with where the setting is.
//
// Noticed: a buzz where the phone can vibrate; where it cannot (iPhones ignore
// navigator.vibrate), a short chime through WebAudio, unlocked by the guest's first tap
// (browsers keep audio silent until a page has been touched).
import { fill, h, render } from "./ui.js";

const NOTE_KEY = "heist.awake-note";
const VIDEOS = [["webm", "silence.webm"], ["mp4", "silence.mp4"]];
let lock = null;
let video = null;
let wanted = false;
let tapped = false;
let drawing = false; // inside keepAwake, called by a redraw: the note is drawn after it anyway
let state = "off"; // off | locked | video | unsupported | refused
let audio = null;
let onChange = null;

const noteShows = () => wanted && (state === "unsupported" || state === "refused");

function setState(next) {
  const before = noteShows();
  state = next;
  document.body.dataset.wakeLock = next;
  if (!drawing && onChange && before !== noteShows()) onChange(); // the note shows, or goes
}

// What holds the screen when the video does not run: nothing, so the note.
const fallback = () => ("wakeLock" in navigator && window.isSecureContext ? "refused" : "unsupported");

async function acquire() {
  if (!wanted || lock || document.visibilityState !== "visible") return;
  if (!("wakeLock" in navigator) || !window.isSecureContext) {
    if (state !== "video") setState("unsupported");
    playVideo();
    return;
  }
  try {
    lock = await navigator.wakeLock.request("screen");
    setState("locked");
    pauseVideo();
    lock.addEventListener("release", () => {
      lock = null;
      if (state === "locked") setState("off");
    });
  } catch {
    if (state !== "video") setState("refused"); // a low battery, a power-saving mode, a policy
    playVideo();
  }
}

function wakeVideo() {
  if (video) return video;
  video = document.createElement("video");
  video.className = "wake-video";
  video.hidden = true;
  video.loop = true;
  video.playsInline = true;
  video.setAttribute("playsinline", ""); // older iOS reads only the attribute
  video.setAttribute("aria-hidden", "true");
  video.preload = "auto";
  for (const [type, file] of VIDEOS) {
    const source = document.createElement("source");
    source.src = new URL(`./nosleep/${file}`, import.meta.url).href;
    source.type = `video/${type}`;
    video.append(source);
  }
  // The mp4 (Safari's) is longer than its loop point: NoSleep jumps back within it.
  video.addEventListener("timeupdate", () => {
    if (video.duration > 1 && video.currentTime > 0.5) video.currentTime = Math.random();
  });
  // Paused by something else on a page in view (a call, the OS): the note, until a tap.
  video.addEventListener("pause", () => {
    if (state === "video" && wanted && document.visibilityState === "visible") setState(fallback());
  });
  document.body.append(video);
  return video;
}

// Plays once the page has been tapped (browsers refuse sound before); a refusal waits
// for the next tap, with the note showing meanwhile.
function playVideo() {
  if (!wanted || lock || !tapped || document.visibilityState !== "visible") return;
  const v = wakeVideo();
  if (!v.paused) return;
  v.play().then(() => { if (wanted && !lock) setState("video"); }, () => {});
}

function pauseVideo() {
  if (video && !video.paused) video.pause();
}

function onGesture() {
  tapped = true;
  playVideo();
}
for (const ev of ["pointerdown", "click", "keydown", "touchend"]) document.addEventListener(ev, onGesture, { capture: true, passive: true });

// The lock is dropped whenever the page is hidden, and a hidden page has no use for the
// video: pause it then, and take either again when the page is back.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") pauseVideo();
  else acquire();
});

/** Hold the screen on while `seated` (the party is on and this phone has a seat);
 * `redraw` is called when the note below must show or go. */
export function keepAwake(seated, redraw = null) {
  wanted = Boolean(seated);
  onChange = redraw;
  drawing = true;
  try {
    if (wanted) acquire();
    else {
      pauseVideo();
      if (state === "video") setState("off");
      if (lock) {
        const l = lock;
        lock = null;
        setState("off");
        l.release().catch(() => {});
      }
    }
  } finally {
    drawing = false;
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

/** The shells' wake call (play.js, tablet.js, screen.js: every game's phone, tablet and
 * big screen get it, none does it itself): hold the screen on while `on`, and where it
 * cannot be held draw the note into `noteEl` (null: a screen with no one to read a
 * phone's settings, the big screen). */
export function holdAwake(noteEl, on) {
  const draw = noteEl ? () => render(noteEl, awakeNote(draw)) : null;
  keepAwake(on, draw);
  if (draw) draw();
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

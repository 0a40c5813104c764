// The step clocks on the captain's tablet and the host's dashboard (docs/RULES.md, "When a
// guest does not answer"): when a quiet guest's step may be played for them (the rules'
// do-nothing choice, the game's clock's stand-in: games/definition.py Clock), the buttons
// that do it, and the call (a short sound, the title, the focus) when that becomes possible.

import { gameInfo } from "./game.js";
import { h, seatName } from "./ui.js";

/** From when (server epoch seconds) the captain or host may play the step the table
 * waits on for its guest, or null (no clock: it waits). A step the rules let be passed
 * (`rules_pass`, a rulebook's own wait: one game's reaction, 60 s) also after that.
 * tables/clock.py `pass_from` says the same on the server. `meta.step`:
 * tables/selectors.py step_for_screens. */
export function passFrom(view, meta) {
  const step = meta.step;
  if (!step) return null;
  const due = meta.step_clock ? meta.step_due_at : null;
  if (step.rules_pass !== null && step.rules_pass !== undefined && meta.window_opened_at) {
    const rulebook = meta.window_opened_at + step.rules_pass;
    return due ? Math.min(due, rulebook) : rulebook;
  }
  return due || null;
}

/** The words the game gives a step (heist-game's `steps`, its definition's step_texts):
 * its own where it has them, the host's plain ones where not. */
function stepWords(name) {
  const own = (gameInfo().steps || {})[name] || {};
  return {
    standIn: own.stand_in || gettext("Play for %(name)s"),
    before: own.before || gettext("It may be played for them in "),
    waited: own.waited || gettext("Table %(letter)s: a step has waited %(seconds)s s for %(names)s"),
  };
}

/** The step the table waits on: its name (`what`, the game's), who it waits for, and
 * the do-nothing choice for each: the clock's stand-in with each seat's own `seat`.
 * `label(name)` is the button's whole sentence ("Pass the turn for Ann"), `waited` the
 * host's alert. Null when no seat's step can be stood in for (a duty, such as a go-ahead
 * only the captain gives). */
export function standIn(view, meta) {
  const step = meta.step;
  if (!step || !step.stand_in || step.stand_in.seat === undefined) return null;
  const words = stepWords(step.name);
  return {
    what: step.name,
    seats: step.waiting,
    before: words.before,
    waited: words.waited,
    label: (name) => interpolate(words.standIn, { name }, true),
    action: (seat) => ({ ...step.stand_in, seat }),
  };
}

/** A pass is possible now (server time `now`): the step and its seats, or null. */
export function passableNow(view, meta, now) {
  const from = passFrom(view, meta);
  if (from === null || now < from) return null;
  const step = standIn(view, meta);
  return step && step.seats.length ? step : null;
}

/** The buttons for a step whose clock runs (one the rules let be passed has the game's): each
 * enables when the clock runs out (ui.js startClocks ticks them), with the time left. */
export function standInBox(view, meta, { onAct, mySeat = null, big = false } = {}) {
  const step = standIn(view, meta);
  const from = passFrom(view, meta);
  // A step the rules let be passed (`rules_pass`) has its own box in the game's screens.
  if (!step || meta.step.rules_pass || from === null || !meta.step_clock) return null;
  const began = from - meta.step_clock;
  const who = step.seats.filter((s) => s !== mySeat);
  if (!who.length) return null;
  const server = meta.step_clock_server;
  return h("div", { class: "standin", role: "group", "aria-label": gettext("Step clock"), data: { standin: step.what } },
    h("p", { class: "hint" },
      h("span", { class: "countdown", data: { openedAt: began, countdown: meta.step_clock,
        before: step.before,
        after: server ? gettext("The clock ran out: play it now, or the server will in a moment.") : gettext("The clock ran out: you may play it for them.") }, text: "" })),
    who.map((seat) => h("button", {
      class: `btn standin-pass ${big ? "primary big" : "small"}`, type: "button", disabled: true,
      data: { openedAt: began, passAfter: meta.step_clock, key: `standin-${meta.id}-${step.what}-${seat}` },
      on: { click: (ev) => onAct && onAct(step.action(seat), ev.currentTarget, step.label(seatName(meta, seat))) },
    }, step.label(seatName(meta, seat)), h("span", { class: "pass-hint" }))));
}

// --- the call ------------------------------------------------------------------------------

/** Whether a pass possible now is worth a call: not when the server plays the step
 * itself at this very moment (the host chose it), only when a person must act (no
 * server play, or a rulebook's own pass, `rules_pass`, before a longer clock). */
export function worthCalling(view, meta) {
  if (!meta.step_clock || !meta.step_clock_server || !meta.step_due_at) return true;
  const from = passFrom(view, meta);
  return from !== null && from < meta.step_due_at - 1;
}

let audio = null;

/** Browsers let a page sound only after a tap: the first tap anywhere readies the sound. */
function readyAudio() {
  if (audio) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try { audio = new Ctx(); } catch { audio = null; }
}
for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, readyAudio, { capture: true });

/** A short two-note chime (WebAudio): a tablet or laptop does not vibrate. Counted on
 * window.heistChimes, for the browser tests. */
export function chime() {
  window.heistChimes = (window.heistChimes || 0) + 1;
  readyAudio();
  if (!audio) return;
  try {
    if (audio.state === "suspended") audio.resume();
    const t = audio.currentTime;
    for (const [i, freq] of [[0, 880], [1, 1320]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.25, t + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.18 + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(t + i * 0.18);
      osc.stop(t + i * 0.18 + 0.17);
    }
  } catch { /* no sound: the title and the focus still call */ }
}

const called = new Set();

/** Call the person once per step when its pass becomes possible: the chime, and the
 * focus on the first enabled pass button. `key` names the step (table and version).
 * True when it called now. */
export function callOnce(key, root = document) {
  if (called.has(key)) return false;
  called.add(key);
  chime();
  const button = root.querySelector("button[data-pass-after]:not([disabled])");
  if (button) button.focus({ preventScroll: false });
  return true;
}

// DOM helpers and the words every page shares (a game's own words live in its package:
// games/<name>/static/<name>/).
// Everything that shows data builds DOM nodes and sets textContent: never innerHTML.

// The texts' translations: templates/base.html loads Django's catalogue (/jsi18n/<lang>.js)
// before any module, which defines gettext, ngettext, pgettext and interpolate. A page
// without it (a test's bare page of modules) gets them as English no-ops, so no module
// that imports this one fails on them.
if (typeof globalThis.gettext !== "function") {
  globalThis.gettext = (msgid) => msgid;
  globalThis.ngettext = (singular, plural, count) => (count === 1 ? singular : plural);
  globalThis.pgettext = (context, msgid) => msgid;
  globalThis.interpolate = (fmt, obj, named) => (named
    ? fmt.replace(/%\(\s*([^)]+)\s*\)s/g, (m) => String(obj[m.slice(2, -2)]))
    : fmt.replace(/%s/g, () => String(obj.shift())));
}

/** h("button", {class: "btn", on: {click: fn}, aria: {pressed: "true"}}, "text", child, [more]) */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") el.className = value;
      else if (key === "text") el.textContent = value;
      else if (key === "on") for (const [ev, fn] of Object.entries(value)) el.addEventListener(ev, fn);
      else if (key === "aria") for (const [a, v] of Object.entries(value)) { if (v !== null && v !== undefined) el.setAttribute(`aria-${a}`, String(v)); }
      else if (key === "data") for (const [d, v] of Object.entries(value)) { if (v !== null && v !== undefined) el.dataset[d] = String(v); }
      else if (key === "disabled" || key === "hidden" || key === "checked" || key === "required") el[key] = Boolean(value);
      else if (key === "value") el.value = value;
      else el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export const $ = (sel, root = document) => root.querySelector(sel);

/** A translated sentence with elements inside: each %(name)s of `template` becomes
 * `parts[name]` (a node, or text), the rest text. For sentences with a tag or a link
 * in them, so the whole sentence is translated, never its pieces. Returns an array for h(). */
export function fill(template, parts) {
  return template.split(/(%\(\w+\)s)/).filter((piece) => piece !== "").map((piece) => {
    const m = /^%\((\w+)\)s$/.exec(piece);
    if (!m || !(m[1] in parts)) return piece;
    const part = parts[m[1]];
    if (part === null || part === undefined) return null; // h() leaves it out
    return part instanceof Node ? part : String(part);
  });
}

/** Replace a container's children, keeping keyboard focus on the "same" control
 * (matched by data-key) so live updates don't throw a screen-reader user out. */
/** `draw` at most once a frame, however many updates ask for it in that frame (a live
 * page whose every table sends dozens of updates a second would fall behind the room
 * drawing each). A hidden or throttled tab gets no frames: it draws within 250 ms anyway. */
export function oncePerFrame(draw) {
  let queued = false;
  const once = () => {
    if (!queued) return;
    queued = false;
    draw();
  };
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(once);
    setTimeout(once, 250);
  };
}

export function render(container, ...children) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.key : null;
  container.replaceChildren();
  append(container, children);
  if (key) {
    const again = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

// --- toasts and the connection banner -------------------------------------------------

export function toast(message, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h(
    "div",
    { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", { class: "icon", "aria-hidden": "true", text: kind === "error" ? "⚠" : "✓" }),
    h("span", { class: "msg", text: message }),
    h("button", { class: "close", type: "button", "aria-label": gettext("Dismiss"), text: "×", on: { click: () => item.remove() } }),
  );
  box.appendChild(item);
  setTimeout(() => item.remove(), kind === "error" ? 8000 : 4000);
}

/** Show a server/network error to the person who caused it. */
export function showError(err) {
  const message = err && err.message ? err.message : String(err);
  toast(message.charAt(0).toUpperCase() + message.slice(1), "error");
}

let bannerTimer = null;
export function banner(state, text) {
  const el = document.getElementById("conn");
  if (!el) return;
  clearTimeout(bannerTimer);
  const icons = { connecting: "⟳", reconnecting: "⟳", online: "✓", lost: "✕", down: "✕" };
  el.className = `conn ${state}`;
  el.replaceChildren(h("span", { "aria-hidden": "true", text: icons[state] || "" }), " ", text);
  el.hidden = false;
  if (state === "online") bannerTimer = setTimeout(() => { el.hidden = true; }, 2500);
}

// --- taps waiting for the server ------------------------------------------------------------

const SLOW_MS = 3000;

/** Show at once that a tap was sent and is waiting for the server's answer, and say so
 * plainly if no answer came after a few seconds (a stalled connection). Returns the
 * promise. */
export function track(promise, what = gettext("Sending")) {
  let box = document.getElementById("pending");
  if (!box) {
    box = h("div", { id: "pending", class: "pending-box", role: "status", "aria-live": "polite" });
    document.body.appendChild(box);
  }
  const text = h("span", { class: "msg", text: `${what}…` });
  const item = h("div", { class: "pending-item", data: { state: "sending" } }, h("span", { class: "spinner", "aria-hidden": "true" }), text);
  box.appendChild(item);
  const slow = setTimeout(() => {
    item.dataset.state = "slow";
    text.textContent = interpolate(gettext("%(what)s: not confirmed yet. The connection is slow or down; it is sent again as soon as it is back."), { what }, true);
  }, SLOW_MS);
  const done = () => { clearTimeout(slow); item.remove(); };
  promise.then(done, done);
  return promise;
}

/** Set the tab title, with a marker while something needs this person. */
export function titleAlert(base, alert) {
  const title = alert ? `● ${alert} · ${base}` : base;
  if (document.title !== title) document.title = title;
}

/** A short buzz where the device can (phones; ignored elsewhere). */
export function buzz(pattern = [180, 90, 180]) {
  try {
    if (navigator.vibrate) navigator.vibrate(pattern);
  } catch { /* not allowed before a first tap: the title and the prompt still say it */ }
}

// --- ids ---------------------------------------------------------------------------------

/** A fresh request id. crypto.randomUUID exists only in secure contexts (HTTPS or
 * localhost); phones on a LAN reach the box over plain http, so fall back to
 * getRandomValues, which works everywhere. */
export function newId() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// --- storage -----------------------------------------------------------------------------

export function loadJSON(key) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

export function normalizeCode(raw) {
  return String(raw || "").trim().toUpperCase().replace(/[\s-]/g, "");
}

// --- the rules, as the engine states them ---------------------------------------------------

let RULES = null;

/** What the screens need of the rules, as the engine states them: the party's game's
 * rules_for_screens() (its shape is the game's own; its modules read it), embedded in every page by
 * templates/base.html as <script id="heist-rules" type="application/json">. Read once. */
export function rules() {
  if (RULES === null) {
    const el = document.getElementById("heist-rules");
    if (!el) throw new Error("this page carries no #heist-rules (templates/base.html embeds the engine's rules)");
    RULES = JSON.parse(el.textContent);
  }
  return RULES;
}

// --- names ----------------------------------------------------------------------------------

/** What a sentence says for the person reading, in place of their name: "you".
 * namer() gives it for their own seat; a game's sentences tell it from a name by it. */
export function youWord() {
  return pgettext("the person reading, in place of their name", "you");
}

/** Seat -> display name for a table payload's roster. */
export function namer(meta, mySeat = null) {
  return (seat) => {
    if (seat === mySeat) return youWord();
    const r = meta && meta.roster && meta.roster[seat];
    return r ? r.name : interpolate(gettext("seat %(number)s"), { number: seat + 1 }, true);
  };
}

export function seatName(meta, seat) {
  const r = meta && meta.roster && meta.roster[seat];
  return r ? r.name : interpolate(gettext("Seat %(number)s"), { number: seat + 1 }, true);
}

/** A translated sentence with its named placeholders filled: `interpolate` for plain
 * values (`fill` where a value is an element). */
export const fmt = (text, values) => interpolate(text, values, true);

/** A sentence-start text set inside a sentence ("Name taken" after "Sorry: "): English and
 * Spanish lower its first letter; German keeps it (its nouns keep their capital). */
export function midSentence(text) {
  return (document.documentElement.lang || "en").startsWith("de") ? text : `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}

/** Items as one list in the page's language ("A, B y C", "A, B und C"). `english`: the
 * separator an English screen kept from before it had languages (" and ", ", "); without
 * it English gets its own list too. */
export function listText(items, english = null) {
  const lang = document.documentElement.lang || "en";
  const words = items.map(String);
  if (english !== null && lang.startsWith("en")) return words.join(english);
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(words);
  } catch {
    return words.join(", ");
  }
}

/** `text` with exactly one closing mark: "… to Jo A." stays so, never "Jo A.." (a name
 * may end in a full stop); a sentence without one gets its full stop. */
export function sentence(text) {
  const body = text.endsWith(".") && !text.endsWith("...") ? text.slice(0, -1) : text;
  return /[.!?…]$/.test(body) ? body : `${body}.`;
}

/** The live "waited N s" clocks and 60-second pass buttons. Elements carry
 * data-opened-at (server epoch seconds) and data-pass-after (seconds). */
let clockTick = null;

/** Update the clocks now (call after re-rendering, so buttons don't wait a second). */
export function tickClocks() {
  if (clockTick) clockTick();
}

export function startClocks(serverNow) {
  const tick = () => {
    const now = serverNow();
    for (const el of document.querySelectorAll("[data-opened-at]")) {
      const waited = Math.max(0, Math.floor(now - Number(el.dataset.openedAt)));
      if (el.dataset.clock !== undefined) {
        const text = interpolate(gettext("waited %(seconds)s s"), { seconds: waited }, true);
        if (el.textContent !== text) el.textContent = text;
      }
      if (el.dataset.countdown !== undefined) {
        // "may be passed in 42 s" until the captain or host may pass this seat
        const left = Math.max(0, Number(el.dataset.countdown) - waited);
        const text = left > 0 ? `${el.dataset.before || ""}${left} s` : el.dataset.after || "";
        if (el.textContent !== text) el.textContent = text;
      }
      if (el.dataset.passAfter !== undefined) {
        const ready = waited >= Number(el.dataset.passAfter);
        if (el.dataset.busy !== "1") el.disabled = !ready;
        const hint = el.querySelector(".pass-hint");
        if (hint) hint.textContent = ready ? "" : interpolate(gettext(" (in %(seconds)s s)"), { seconds: Number(el.dataset.passAfter) - waited }, true);
      }
    }
  };
  clockTick = tick;
  tick();
  return setInterval(tick, 1000);
}

/** What the server said of a refusal, in this page's language: its `message`, except the
 * front door's "busy" (config/admission.py), written before any language is known. */
export function serverSays(data) {
  if (data && data.error === "busy") return gettext("The party host is busy; try again in a moment");
  return data ? data.message : undefined;
}

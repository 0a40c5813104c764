// DOM helpers and the game's vocabulary, shared by every page.
// Everything that shows data builds DOM nodes and sets textContent: never innerHTML.

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
    h("button", { class: "close", type: "button", "aria-label": "Dismiss", text: "×", on: { click: () => item.remove() } }),
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
export function track(promise, what = "Sending") {
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
    text.textContent = `${what}: not confirmed yet. The connection is slow or down; it is sent again as soon as it is back.`;
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

/** What the screens need of the rules (card texts, kinds and target counts, the
 * two-player rule, round names, the hand limit, the vault's gift-id base), as the engine
 * states them: games/yankee/catalogue.py rules_for_screens(), embedded in every page by
 * templates/base.html as <script id="heist-rules" type="application/json">. Read once. */
export function rules() {
  if (RULES === null) {
    const el = document.getElementById("heist-rules");
    if (!el) throw new Error("this page carries no #heist-rules (templates/base.html embeds the engine's rules)");
    RULES = JSON.parse(el.textContent);
  }
  return RULES;
}

/** "THE SNOOP" for round 1, ... ("" for a round the rules do not name). */
export function roundName(round) {
  return rules().rounds[String(round)] || "";
}

/** How many rounds a game has. */
export function roundCount() {
  return Object.keys(rules().rounds).length;
}

// --- the game's words ----------------------------------------------------------------------

export const KINDS = {
  MOVE: { icon: "⇄", label: "Move" },
  SCHEME: { icon: "◆", label: "Scheme" },
  REACTION: { icon: "☂", label: "Reaction" },
};

/** How many other players a card names when played at a table of `players` (the
 * engine's count; YANKEE HEIST names one at a two-player table). */
export function targetCount(cardName, players) {
  const card = rules().cards[cardName];
  if (!card) return 0;
  return players === 2 ? card.targets_two_players : card.targets;
}

/** What is written on the physical gift: a guest's number, or V1.. for vault gifts. */
export function giftLabel(id) {
  const base = rules().vault.id_base;
  return id >= base ? `V${id - base}` : String(id);
}

/** A card as a (non-interactive or interactive) element. */
export function cardFace(card, { tag = "div", props = {}, extra = null } = {}) {
  const kind = KINDS[card.kind] || { icon: "", label: card.kind };
  const info = rules().cards[card.card] || { effect: "" };
  return h(
    tag,
    { class: `card kind-${card.kind.toLowerCase()}`, data: { cardId: card.id, cardName: card.card }, ...props },
    h("span", { class: "card-kind" }, h("span", { "aria-hidden": "true", text: kind.icon }), ` ${kind.label}`),
    h("strong", { class: "card-title", text: card.title }),
    h("span", { class: "card-effect", text: info.effect }),
    extra,
  );
}

/** Seat -> display name for a table payload's roster. */
export function namer(meta, mySeat = null) {
  return (seat) => {
    if (seat === mySeat) return "you";
    const r = meta && meta.roster && meta.roster[seat];
    return r ? r.name : `seat ${seat + 1}`;
  };
}

export function seatName(meta, seat) {
  const r = meta && meta.roster && meta.roster[seat];
  return r ? r.name : `Seat ${seat + 1}`;
}

/** "swap Alex's gift 3 with your gift 5" / "gift 3: Alex → Bea, ..." for a window move. */
export function describeMove(move, gifts, name) {
  const giftOf = (seat) => `gift ${giftLabel(gifts[seat])}`;
  const possessive = (seat) => (name(seat) === "you" ? "your" : `${name(seat)}'s`);
  if (move.length === 2 && move[0][0] === move[1][1] && move[0][1] === move[1][0]) {
    const [a, b] = move[0];
    return `swap ${possessive(a)} ${giftOf(a)} with ${possessive(b)} ${giftOf(b)}`;
  }
  return "rotate gifts: " + move.map(([from, to]) => `${possessive(from)} ${giftOf(from)} goes to ${name(to)}`).join(", ");
}

/** `text` with exactly one closing mark: "… to Jo A." stays so, never "Jo A.." (a name
 * may end in a full stop); a sentence without one gets its full stop. */
export function sentence(text) {
  const body = text.endsWith(".") && !text.endsWith("...") ? text.slice(0, -1) : text;
  return /[.!?…]$/.test(body) ? body : `${body}.`;
}

/** One event as a sentence for the table's log, or null for noise. */
export function describeEvent(e, name) {
  const line = eventLine(e, name);
  return line ? sentence(line) : line;
}

function eventLine(e, name) {
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const N = (seat) => cap(name(seat));
  switch (e.type) {
    case "round_started":
      return `Round ${e.round} — ${roundName(e.round)}: ${name(e.starter)} ${name(e.starter) === "you" ? "start" : "starts"}.`;
    case "card_played": {
      const t = (e.targets || []).map(name);
      let s = `${N(e.seat)} played ${e.card_name}`;
      if (t.length) s += ` on ${t.join(" and ")}`;
      if (e.direction) s += ` (${e.direction})`;
      return s + ".";
    }
    case "swipe":
      return `${N(e.seat)} cashed in 2 cards to SWIPE at ${name(e.target)}.`;
    case "regrouped":
      return e.count ? `${N(e.seat)} regrouped ${e.count} card${e.count > 1 ? "s" : ""}.` : `${N(e.seat)} passed.`;
    case "vault_exchanged":
      return `${N(e.seat)} gave gift ${giftLabel(e.gave)} to the vault and took gift ${giftLabel(e.took)}: ${e.description}.`;
    case "blocked":
      return `⊘ ${N(e.seat)} blocked it with ${e.card_name}!`;
    case "gifts_moved":
      return `${e.label}: ` + e.moves.map((m) => `gift ${giftLabel(m.gift)} → ${name(m.to)}`).join(", ") + ".";
    case "reaction_timed_out":
      return `${N(e.seat)} did not answer in time: the move was let happen for them.`;
    case "turn_timed_out":
      return `${N(e.seat)}'s turn ran out: passed for them.`;
    case "trim_timed_out":
      return `${N(e.seat)}'s discard ran out: cards discarded at random.`;
    case "peeked":
      return e.own ? null : `You peeked at gift ${giftLabel(e.gift)}: ${e.description}`;
    case "pickpocketed":
      return `${N(e.seat)} pickpocketed a card from ${name(e.target)}.`;
    case "drew":
      if (e.reason === "comeback") return `${N(e.seat)} drew a comeback card.`;
      if (e.reason === "tripwire") return `${N(e.seat)} drew ${e.count} from TRIPWIRE.`;
      if (e.reason === "inside_man") return `${N(e.seat)} drew ${e.count} (INSIDE MAN).`;
      return null;
    case "reshuffled":
      return "The discards were shuffled into a new draw pile.";
    case "round_ended":
      return `Round ${e.round} is over.`;
    case "reveal_due":
      return "Unwrap and show every gift!";
    case "revealed":
      return "All gifts are revealed.";
    case "at_gate":
      return "This table waits at the gate for the relay.";
    case "relay_seat_drawn":
      return `Relay: ${name(e.seat)} will pass gift ${giftLabel(e.gift)}.`;
    case "relay_exchanged":
      return `Relay: ${name(e.seat)} received gift ${giftLabel(e.received)}.`;
    case "game_over":
      return "Game over: keep the gift in front of you.";
    default:
      return null;
  }
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
        const text = `waited ${waited} s`;
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
        if (hint) hint.textContent = ready ? "" : ` (in ${Number(el.dataset.passAfter) - waited} s)`;
      }
    }
  };
  clockTick = tick;
  tick();
  return setInterval(tick, 1000);
}

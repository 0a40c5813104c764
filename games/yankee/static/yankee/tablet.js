// Yankee Heist on a captain's tablet (the tablet module: static/heist/tablet.js is its
// shell and says what `mount` returns): the table's public view, large, and the captain's
// duty now: confirm the reveal, pass a reaction after 60 s, play a quiet guest's step,
// draw the relay seat, say a relayed gift arrived; the hand-over panel.
import { relayEntry, relayRan, ringLine, walkOf, walkText } from "../heist/party.js";
import { eventLog, noteEvents, resultList, roundTitle, seatList, statusLine, vaultList, windowBox } from "./tableview.js";
import { callOnce, standIn, standInBox, worthCalling } from "../heist/standin.js";
import { buzz, fill, h, render, seatName, showError, tickClocks, titleAlert, track } from "../heist/ui.js";
import { giftLabel, relayWords } from "./words.js";

let S = null; // the shell's state: party, payload, passKey
let live = null;
let root = null;
let duty = null;
let handoverPanel = null;
let offlineSeats = () => new Set();
const logs = new Map(); // each table's event log, as the updates tell it
let lastDuty = "";

function tableInfo() {
  const letter = S.payload && S.payload.table.letter;
  return ((S.party && S.party.tables) || []).find((t) => t.letter === letter) || {};
}

function promptBox(kind, headline, urgent, ...body) {
  return h("section", { class: `panel prompt duty duty-${kind}`, id: "duty", "aria-labelledby": "duty-h", data: { duty: kind, headline, urgent: urgent ? "1" : "0" } },
    h("h2", { id: "duty-h", tabindex: "-1", text: headline }), ...body);
}

/** The one thing the captain should do (or watch) now. */
function dutyPrompt(view, meta) {
  const relay = S.party && S.party.relay;
  if (view.phase === "reveal") {
    return promptBox("reveal", gettext("Round 1 is over: everyone unwraps their gift"), true,
      h("p", { class: "big", text: gettext("When every gift at the table is unwrapped and shown, start round 2.") }),
      h("button", { class: "btn primary big", type: "button", id: "confirm-reveal", data: { key: "reveal" },
        on: { click: (ev) => duty({ type: "confirm_reveal" }, ev.currentTarget, gettext("Starting round 2")) } }, gettext("Everyone unwrapped — start round 2")));
  }
  const quiet = S.passKey ? standIn(view, meta) : null;
  if (quiet && quiet.what !== "reaction") {
    const who = quiet.seats.map((s) => seatName(meta, s)).join(", ");
    return promptBox(quiet.what, interpolate(quiet.what === "turn" ? gettext("%(names)s's turn ran out") : gettext("%(names)s must discard: the clock ran out"), { names: who }, true), true,
      h("p", { class: "big", text: quiet.what === "turn"
        ? gettext("Ask them to play. If they cannot, pass the turn for them: they keep their cards.")
        : gettext("Ask them to choose. If they cannot, discard at random for them.") }),
      standInBox(view, meta, { onAct: duty, big: true }));
  }
  if (view.phase === "reaction") {
    return promptBox("reaction", quiet ? interpolate(gettext("A reaction waits for %(names)s"), { names: quiet.seats.map((s) => seatName(meta, s)).join(", ") }, true) : gettext("A reaction is open"), Boolean(quiet),
      h("p", { class: "hint", text: gettext("Asked players answer on their phones. After 60 s without an answer you may let the move happen for them.") }),
      windowBox(view, meta, { duty: true, onPass: (_t, seat, button, window) => duty({ type: "timeout_pass", seat, window }, button, interpolate(gettext("Passing for %(name)s"), { name: seatName(meta, seat) }, true)) }));
  }
  if (view.phase === "gate") {
    const gate = (S.party && S.party.gate) || { tables: 1, at_gate: 1 };
    if (!relay) {
      return promptBox("gate", interpolate(ngettext("At the gate: %(at)s of %(tables)s table is here", "At the gate: %(at)s of %(tables)s tables are here", gate.tables), { at: gate.at_gate, tables: gate.tables }, true), false,
        h("p", { text: gettext("Every table stops after round 2. When all are here the host opens the relay; then you draw the relay seat here.") }));
    }
    const walk = walkOf(relay, meta.letter);
    if (walk) return walkPrompt(walk, relay, meta);
    const seat = view.relay_seat;
    if (seat === null || seat === undefined) {
      return promptBox("draw", gettext("Draw the relay seat"), true,
        ringLine(relay, "ring big-ring"),
        h("p", { class: "big", text: gettext("The server draws one seat at this table at random. That player carries their gift to the next table.") }),
        h("button", { class: "btn primary big", type: "button", id: "draw-relay", data: { key: "draw-relay" },
          on: { click: (ev) => duty({ type: "draw_relay_seat" }, ev.currentTarget, gettext("Drawing the relay seat")) } }, gettext("Draw the relay seat")));
    }
    const next = relay.ring[(relay.ring.indexOf(meta.letter) + 1) % relay.ring.length];
    return promptBox("drawn", interpolate(gettext("Drawn: %(name)s (seat %(seat)s)"), { name: seatName(meta, seat), seat: seat + 1 }, true), false,
      ringLine(relay, "ring big-ring"),
      h("p", { class: "big" }, interpolate(gettext("%(name)s carries gift %(gift)s to table %(next)s when the host runs the relay."),
        { name: seatName(meta, seat), gift: giftLabel(view.seats[seat].gift), next }, true)),
      h("p", { class: "hint", text: gettext("Waiting for the host to run the relay.") }));
  }
  if (relayRan(relay) && view.round === 3 && view.phase !== "over") {
    const mine = relayEntry(relay, meta.letter);
    if (mine) {
      return promptBox("relay", gettext("The relay ran"), false,
        h("p", { class: "big" }, interpolate(gettext("%(guest)s (seat %(seat)s) carries gift %(sent)s to table %(to)s and brings back gift %(received)s from table %(from)s."),
          { guest: mine.guest, seat: mine.seat + 1, sent: mine.sent, to: mine.sent_to, received: mine.received, from: mine.received_from }, true)),
        h("p", { class: "status-line", text: statusLine(view, meta) }));
    }
  }
  if (view.phase === "over") return promptBox("over", gettext("Game over: everyone keeps the gift in front of them"), false);
  return promptBox("watch", statusLine(view, meta), false,
    h("p", { class: "hint", text: clockHint(meta) }),
    standInBox(view, meta, { onAct: duty }));
}

function clockHint(meta) {
  if (!meta.step_clock) return gettext("Nothing for the captain to do now. Duties appear here: confirm the reveal, pass a reaction after 60 s, draw the relay seat.");
  const clock = meta.step_clock === 120 ? gettext("2 min") : interpolate(gettext("%(seconds)s s"), { seconds: meta.step_clock }, true);
  return interpolate(meta.step_clock_server
    ? gettext("Nothing for the captain to do now. Step clock: %(clock)s; when a guest's step runs out, the server plays it for them (pass, discard at random, let it happen).")
    : gettext("Nothing for the captain to do now. Step clock: %(clock)s; when a guest's step runs out, you may play it for them here."), { clock }, true);
}

/** The relay's walk at this table: the gift it waits for, who carries it, and the
 * button that says it arrived (docs/RULES.md). */
function walkPrompt(walk, relay, meta) {
  const { mine, from } = walk;
  if (!walk.arrived) {
    return promptBox("walk", interpolate(gettext("Waiting for gift %(gift)s from table %(from)s (carried by %(carrier)s)"), { gift: mine.received, from: from.table, carrier: from.guest }, true), true,
      h("p", { class: "big" }, interpolate(gettext("%(carrier)s brings gift %(gift)s to %(guest)s (seat %(seat)s). When it is here, say so: the table plays round 3 once it is in and %(guest)s has delivered gift %(sent)s to table %(to)s."),
        { carrier: from.guest, gift: mine.received, guest: mine.guest, seat: mine.seat + 1, sent: mine.sent, to: mine.sent_to }, true)),
      h("button", { class: "btn primary big", type: "button", id: "gift-arrived", data: { key: "gift-arrived" },
        on: { click: (ev) => arrived(mine.table_id, ev.currentTarget) } }, interpolate(gettext("Gift %(gift)s has arrived"), { gift: mine.received }, true)));
  }
  return promptBox("walk", walkText(relay, meta.letter, relayWords), false,
    h("p", { class: "hint", text: interpolate(gettext("Round 3 starts by itself once %(guest)s has delivered gift %(sent)s at table %(to)s."), { guest: mine.guest, sent: mine.sent, to: mine.sent_to }, true) }));
}

/** The table's line: once the relay has run, a table still at the gate is waiting for
 * its carriers' walks, not for the other tables. */
function tableStatus(view, meta) {
  const walk = view.phase === "gate" ? walkText(S.party && S.party.relay, meta.letter, relayWords) : "";
  return walk || statusLine(view, meta);
}

function arrived(tableId, button) {
  button.disabled = true;
  button.dataset.busy = "1";
  track(live.party("confirm_delivery", { table: tableId }), gettext("Confirming the gift")).catch(showError).finally(() => {
    button.disabled = false;
    delete button.dataset.busy;
  });
}

function draw() {
  const { view, table: meta } = S.payload;
  const info = tableInfo();
  const prompt = dutyPrompt(view, meta);
  render(root,
    h("header", { class: "tablet-head" },
      h("h1", {}, fill(gettext("Table %(letter)s"), { letter: h("strong", { class: "table-letter", text: meta.letter }) })),
      h("p", { class: "tablet-sub" },
        h("span", { class: "mark captain" }, h("span", { "aria-hidden": "true", text: "⚑ " }), gettext("Captain's tablet")),
        ` ${info.captain ? interpolate(gettext("Captain: %(name)s"), { name: info.captain }, true) : gettext("No captain")} · ${roundTitle(view)}`)),
    prompt,
    h("section", { class: "panel tablet-table", "aria-labelledby": "table-h", data: { version: S.payload.version, phase: view.phase } },
      h("h2", { id: "table-h", text: interpolate(gettext("Table %(letter)s"), { letter: meta.letter }, true) }),
      h("p", { class: "status-line", text: tableStatus(view, meta) }),
      resultList(view, meta),
      seatList(view, meta, { offline: offlineSeats() }),
      vaultList(view)),
    handoverPanel(view, meta),
    eventLog(logs.get(meta.id)),
  );
  tickClocks();
  const headline = prompt.dataset.headline;
  if (prompt.dataset.urgent === "1" && headline !== lastDuty) {
    // A new duty: buzz, mark the tab and move the focus to it (screen readers read it).
    buzz();
    const heading = prompt.querySelector("h2");
    if (heading) heading.focus({ preventScroll: false });
  }
  lastDuty = headline;
  titleAlert(interpolate(gettext("Table %(letter)s · captain's tablet"), { letter: meta.letter }, true), prompt.dataset.urgent === "1" ? headline : null);
  // A quiet guest's step may be played: chime, focus its button (unless the server plays it now).
  if (S.passKey && worthCalling(view, meta)) callOnce(S.passKey, prompt);
  document.body.dataset.phase = view.phase;
}


/** Draw Yankee Heist's tablet into `rootEl`; `ctx` lends the shell's socket, state and duties. */
export function mount(rootEl, ctx) {
  root = rootEl;
  S = ctx.state;
  live = ctx.live;
  duty = ctx.duty;
  handoverPanel = ctx.handoverPanel;
  if (ctx.offlineSeats) offlineSeats = ctx.offlineSeats;
  return {
    table(msg) {
      noteEvents(logs, msg);
    },
    draw,
  };
}

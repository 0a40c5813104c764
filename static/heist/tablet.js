// A captain's tablet: paired by the host to one table (docs/PROTOCOL.md, role
// "tablet"). It shows that table's public view, large, and the captain's duties:
// confirm the reveal, pass a reaction after 60 s, draw the relay seat, hand a seat to a
// substitute. It never holds a hand: the server sends it the public view only.
import { Live } from "./live.js";
import { seatNotice } from "./offers.js";
import { relayEntry, relayRan, ringLine, walkOf, walkText } from "./party.js";
import { eventLog, noteEvents, resultList, roundTitle, seatList, statusLine, vaultList, windowBox } from "../yankee/tableview.js";
import { callOnce, passableNow, standIn, standInBox, worthCalling } from "./standin.js";
import { buzz, fill, giftLabel, h, loadJSON, render, seatName, serverSays, showError, startClocks, tickClocks, titleAlert, toast, track } from "./ui.js";
import { renderTable } from "../royal/table.js";

const app = document.getElementById("app");
const code = app.dataset.code;
// A Royal Heist table: drawn by royal/table.js (no stand-ins, gifts or relay here).
const ROYAL = app.dataset.game === "royal";
const partyName = app.dataset.partyName;
const key = `heist.tablet.${code}`;
const root = document.getElementById("tablet");
const pairBox = document.getElementById("pair");

const S = { party: null, payload: null, logs: new Map(), claims: new Map(), fatal: null, duty: "", openHandover: false };
let live = null;

/** Trade a one-time pairing code for this tablet's own secret. */
async function pair(pairing) {
  const box = document.getElementById("pair-error");
  box.hidden = true;
  const res = await fetch(`/api/parties/${encodeURIComponent(code)}/tablets`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pairing }),
  }).catch(() => null);
  const data = res ? await res.json().catch(() => ({})) : {};
  if (!res || res.status !== 201) {
    // the server's message arrives in this page's language; ours are whole sentences
    const said = serverSays(data);
    const message = res && said ? said.charAt(0).toUpperCase() + said.slice(1) + "."
      : res ? interpolate(gettext("The server refused (%(status)s)."), { status: res.status }, true)
        : gettext("Could not reach the party host; check the connection.");
    box.textContent = message;
    box.hidden = false;
    pairBox.hidden = false;
    return false;
  }
  localStorage.setItem(key, JSON.stringify({ token: data.token, tablet: data.tablet, letter: data.letter }));
  return true;
}

async function boot() {
  // The QR code carries the one-time code in the fragment: read it, then drop it
  // from the address bar and history (it is spent anyway).
  const fragment = location.hash.replace(/^#/, "").trim();
  if (fragment) {
    history.replaceState(null, "", location.pathname);
    await pair(fragment);
  }
  const stored = loadJSON(key);
  if (!stored || !stored.token) {
    pairBox.hidden = false;
    document.getElementById("pair-code").focus();
    return;
  }
  pairBox.hidden = true;
  start(stored.token);
}

document.getElementById("pair-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const field = document.getElementById("pair-code");
  const value = field.value.trim().toUpperCase();
  if (!value) {
    field.focus();
    return;
  }
  ev.submitter.disabled = true;
  try {
    if (await pair(value)) {
      pairBox.hidden = true;
      start(loadJSON(key).token);
    }
  } finally {
    ev.submitter.disabled = false;
  }
});

function start(token) {
  live = new Live({
    code,
    role: "tablet",
    token,
    onSnapshot(snap) {
      S.party = snap.party;
      S.payload = snap.table;
      draw();
    },
    onTable(msg) {
      S.payload = msg;
      noteEvents(S.logs, msg);
      draw();
    },
    onParty(party) {
      S.party = { ...(S.party || {}), ...party };
      draw();
    },
    onNotice(msg) {
      // hand-overs at this table: an offer stays until handled, the rest are toasts
      seatNotice(msg, (m, button) => {
        const r = S.payload && S.payload.table.roster[m.seat];
        if (r) handOver(r.guest, button);
      });
    },
    onFatal(closeCode, message) {
      S.fatal = message;
      if (closeCode === 4401 || closeCode === 4403) localStorage.removeItem(key); // that key opens nothing now
      draw();
    },
  }).start();
  window.heistLive = live;
  startClocks(() => live.serverNow());
  // A quiet guest's step clock runs out between messages: redraw when it does.
  setInterval(() => {
    if (S.payload && !S.fatal && passKey() !== S.passKey) draw();
  }, 1000);
}

/** Which step may be played for its quiet guest now ("" for none). */
function passKey() {
  const { view, table: meta } = S.payload;
  return passableNow(view, meta, live.serverNow()) ? `${meta.id}:${S.payload.version}` : "";
}

function duty(action, button, what) {
  button.disabled = true;
  button.dataset.busy = "1";
  track(live.act(action, { table: S.payload.table.id }), what).catch(showError).finally(() => {
    button.disabled = false;
    delete button.dataset.busy;
  });
}

function tableInfo() {
  const letter = S.payload && S.payload.table.letter;
  return ((S.party && S.party.tables) || []).find((t) => t.letter === letter) || {};
}

function draw() {
  if (S.fatal) {
    render(root, h("section", { class: "panel", role: "alert" },
      h("h1", { text: gettext("This tablet is no longer paired") }),
      h("p", { text: S.fatal }),
      h("p", { text: gettext("Ask the host for a new pairing code.") })));
    pairBox.hidden = false;
    titleAlert(interpolate(gettext("Captain's tablet · %(party)s"), { party: partyName }, true), null);
    return;
  }
  if (!S.payload) return;
  const { view, table: meta } = S.payload;
  S.passKey = passKey();
  if (ROYAL) {
    // the room, who is inside, the clock, and the captain's one duty: a quiet guest's
    // choice once the clock has run out (get out, the rules' empty fist)
    render(root, renderTable(view, meta), standInBox(view, meta, { onAct: duty, big: true }));
    tickClocks();
    if (S.passKey && worthCalling(view, meta)) callOnce(S.passKey, root);
    return;
  }
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
      h("p", { class: "status-line", text: statusLine(view, meta) }),
      resultList(view, meta),
      seatList(view, meta),
      vaultList(view)),
    handoverPanel(view, meta),
    eventLog(S.logs.get(meta.id)),
  );
  tickClocks();
  const headline = prompt.dataset.headline;
  if (prompt.dataset.urgent === "1" && headline !== S.duty) {
    // A new duty: buzz, mark the tab and move the focus to it (screen readers read it).
    buzz();
    const heading = prompt.querySelector("h2");
    if (heading) heading.focus({ preventScroll: false });
  }
  S.duty = headline;
  titleAlert(interpolate(gettext("Table %(letter)s · captain's tablet"), { letter: meta.letter }, true), prompt.dataset.urgent === "1" ? headline : null);
  // A quiet guest's step may be played: chime, focus its button (unless the server plays it now).
  if (S.passKey && worthCalling(view, meta)) callOnce(S.passKey, prompt);
  document.body.dataset.phase = view.phase;
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
  return promptBox("walk", walkText(relay, meta.letter), false,
    h("p", { class: "hint", text: interpolate(gettext("Round 3 starts by itself once %(guest)s has delivered gift %(sent)s at table %(to)s."), { guest: mine.guest, sent: mine.sent, to: mine.sent_to }, true) }));
}

function arrived(tableId, button) {
  button.disabled = true;
  button.dataset.busy = "1";
  track(live.party("confirm_delivery", { table: tableId }), gettext("Confirming the gift")).catch(showError).finally(() => {
    button.disabled = false;
    delete button.dataset.busy;
  });
}

function handoverPanel(view, meta) {
  if (view.phase === "over") return null;
  return h("section", { class: "panel captain-panel", "aria-labelledby": "handover-h" },
    h("h2", { id: "handover-h", text: gettext("Hand a seat to a substitute") }),
    h("details", { class: "handover", open: S.openHandover, on: { toggle: (ev) => { S.openHandover = ev.currentTarget.open; } } },
      h("summary", { text: gettext("A guest has to leave") }),
      h("p", { class: "hint", text: gettext("The substitute takes the seat, the gift and the cards: give them the code to type on the join page.") }),
      h("ul", { class: "plain handover-list" }, meta.roster.map((r, seat) => {
        const claim = S.claims.get(r.guest);
        return h("li", { class: "row wrap" },
          h("span", { class: "seat-no", text: String(seat + 1) }),
          h("strong", { text: r.name }),
          h("button", { class: "btn small", type: "button", text: gettext("Hand over seat"), "aria-label": interpolate(gettext("Hand %(name)s's seat to a substitute"), { name: r.name }, true), data: { key: `handover-${r.guest}` },
            on: { click: (ev) => handOver(r.guest, ev.currentTarget) } }),
          claim && claim.until > Date.now()
            ? h("span", { class: "claim", role: "status" }, fill(gettext("Hand-over code %(code)s — the substitute opens the join page, taps “Taking over someone's seat?” and types it."),
              { code: h("strong", { class: "code-inline", text: claim.claim }) }))
            : null);
      }))));
}

function handOver(guest, button) {
  button.disabled = true;
  track(live.party("hand_over_seat", { guest }), gettext("Asking for a hand-over code")).then((reply) => {
    S.claims.set(guest, { claim: reply.claim, until: Date.now() + reply.minutes * 60000 });
    S.openHandover = true;
    draw();
  }, showError).finally(() => { button.disabled = false; });
}

boot();

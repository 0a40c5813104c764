// A captain's tablet: paired by the host to one table (docs/PROTOCOL.md, role
// "tablet"). It shows that table's public view, large, and the captain's duties, which
// are the game's (its definition's DUTY actions, games/definition.py Role; its tablet
// module draws them): a quiet guest's step played once its clock ran out, and whatever
// else the game asks of a captain, such as a relay's draw or a hand-over. It never holds
// a hand: the server sends it the public view only.
//
// This is the shell: pairing, the socket (live.js), a quiet guest's step clock, the
// captain's duties as acts, hand-overs; the party's game's tablet module (heist-game's
// `module`, game.js) draws the table. Its interface: `mount(root, ctx)` returns
// `{draw(), table?(msg)}`: `draw()` draws `ctx.state.payload` (the latest table payload:
// `view`, `table` meta) with `ctx.state.party` and `ctx.state.passKey` (non-empty while
// a quiet guest's step may be played for them, standin.js), and is called on every
// change; `table(msg)` sees each table update first (an event log). `ctx` adds to
// game.js's: `state`, `duty(action, button, what)` (the captain's act at this table,
// the button busy meanwhile), `handoverPanel(view, meta)` (the hand-over panel) and
// `offlineSeats()` (the seats whose guest is not connected, presence.js: the shell
// names them above the table; a module may mark them on its seats too).
import { gameInfo, gameModule, liveFacade } from "./game.js";
import { Live } from "./live.js";
import { seatNotice } from "./offers.js";
import { passableNow } from "./standin.js";
import { TablePresence, offlineLine } from "./presence.js";
import { holdAwake } from "./awake.js";
import { fill, h, loadJSON, render, serverSays, showError, startClocks, titleAlert, track } from "./ui.js";

const app = document.getElementById("app");
const code = app.dataset.code;
const partyName = app.dataset.partyName;
const key = `heist.tablet.${code}`;
const root = document.getElementById("tablet");
const pairBox = document.getElementById("pair");
const offlineSlot = document.getElementById("tablet-offline");
const presence = new TablePresence(); // who at this table is not connected

const S = { party: null, payload: null, claims: new Map(), fatal: null, passKey: "", openHandover: false };
let live = null;
let screen = null; // the game's tablet module, mounted

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

async function start(token) {
  const game = await gameModule();
  screen = game.mount(root, {
    code, game: gameInfo(), partyName, live: liveFacade(() => live), state: S, duty, handoverPanel,
    offlineSeats: () => presence.seats(S.payload && S.payload.table),
  });
  live = new Live({
    code,
    role: "tablet",
    token,
    onSnapshot(snap) {
      S.party = snap.party;
      S.payload = snap.table;
      presence.snapshot(snap);
      draw();
    },
    onTable(msg) {
      S.payload = msg;
      if (screen.table) screen.table(msg);
      draw();
    },
    onParty(party) {
      S.party = { ...(S.party || {}), ...party };
      draw();
    },
    onPresence(guest, online) {
      if (presence.update(guest, online)) draw();
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
  holdAwake(document.getElementById("awake-slot"), true); // a tablet at the table stays on (awake.js)
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
  track(live.act(action, { table: S.payload.table.id, version: S.payload.version }), what).catch(showError).finally(() => {
    button.disabled = false;
    delete button.dataset.busy;
  });
}

function draw() {
  if (S.fatal) {
    render(root, h("section", { class: "panel", role: "alert" },
      h("h1", { text: gettext("This tablet is no longer paired") }),
      h("p", { text: S.fatal }),
      h("p", { text: gettext("Ask the host for a new pairing code.") })));
    pairBox.hidden = false;
    titleAlert(interpolate(gettext("Captain's tablet · %(party)s"), { party: partyName }, true), null);
    render(offlineSlot);
    return;
  }
  if (!S.payload || !screen) return;
  S.passKey = passKey();
  screen.draw();
  render(offlineSlot, S.payload.view.phase === "over" ? null : offlineLine(S.payload.table, presence.seats(S.payload.table)));
}

function handoverPanel(view, meta) {
  if (view.phase === "over") return null;
  return h("section", { class: "panel captain-panel", "aria-labelledby": "handover-h" },
    h("h2", { id: "handover-h", text: gettext("Hand a seat to a substitute") }),
    h("details", { class: "handover", open: S.openHandover, on: { toggle: (ev) => { S.openHandover = ev.currentTarget.open; } } },
      h("summary", { text: gettext("A guest has to leave") }),
      // what the seat holds is the game's; the host knows only whether it brought gifts
      h("p", { class: "hint", text: gameInfo().features.gifts
        ? gettext("The substitute takes the seat and the gift in front of it: give them the code to type on the join page.")
        : gettext("The substitute takes the seat: give them the code to type on the join page.") }),
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

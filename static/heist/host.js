// Host dashboard: the lobby filling live, vault gifts, dealing, then every table. With
// several tables: a compact card per table, the party bar (the gate, the relay ring,
// the captains' draws, running the relay and what it moved), and the party's result
// with a CSV download.
//
// One module in the screens' style: constants, one state object `S`, small named
// functions that draw from it, and `start()` at the bottom.
import { drawLatePanel } from "./latepanel.js";
import { Live } from "./live.js";
import { seatNotice } from "./offers.js";
import { drawnSeatList, gateProgress, gateSeen, gateText, isMultiTable, relayResultList, relayWords, ringLine, walkCount, walkList } from "./party.js";
import { callOnce, passFrom, passableNow, worthCalling } from "./standin.js";
import { fill, fmt, h, listText, midSentence, oncePerFrame, render, seatName, serverSays, showError, startClocks, tickClocks, titleAlert, toast, track } from "./ui.js";
import { storyLink } from "./story-link.js";
import { gameInfo, gameModule, liveFacade, tableCount } from "./game.js";

const IDLE_SECONDS = 120; // a table that has not moved for this long needs a look
const PARTY_NAME = document.title;

// The page's language (templates/base.html): numbers, times and lists in its words.
const LANG = document.documentElement.lang || "en";
/** Names (or phrases) as a list: "Ann, Bea" in English as before; "Ann y Bea", "Ann und Bea". */
const listOf = (items) => listText(items.map(String), ", ");
/** A clock time, hours and minutes. */
const clockTime = (ms) => new Date(ms).toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" });

const app = document.getElementById("app");
const code = app.dataset.code;
const token = localStorage.getItem(`heist.host.${code}`);
// The party's game (heist-game) and its tile module (game.js), mounted in start().
const GAME = gameInfo();
let screen = null;
let tileModule = null; // the game's tile module (its exports beside `mount`)

const S = {
  party: null,
  tables: new Map(), // table id -> latest public payload
  editing: null, // {id, draft} while renaming a guest
  removing: null, // guest id awaiting a second tap
  claims: new Map(), // guest id -> {claim, until} one-time hand-over codes we asked for
  partyError: null, // the server's last refusal of a relay command, shown in the party bar
  details: null, // the table id whose details are open
  pairings: new Map(), // table id -> {pairing, qr, until, before}: a one-time code we asked for (before: the tablets paired then)
};
let live = null;

async function start() {
  const game = await gameModule();
  tileModule = game;
  screen = game.mount(document.getElementById("tables"), {
    code,
    game: GAME,
    live: liveFacade(() => live),
    state: S,
    actAt,
    busy,
    command,
    partyCommand,
    tabletsPanel,
    tabletsAt,
    openDetails,
    guestsAt,
    seatActions,
    giftArrived,
    listOf,
    waitingFor,
  });
  document.getElementById("host").hidden = false;
  live = new Live({
    code,
    role: "host",
    token,
    onSnapshot(snap) {
      S.party = snap.party;
      S.tables = new Map(snap.tables.map((t) => [t.table.id, t]));
      draw();
    },
    onTable(msg) {
      S.tables.set(msg.table.id, msg);
      if (screen.table) screen.table(msg);
      if (screen.perFrame) redrawTables();
      else drawTables();
    },
    onParty(party, role) {
      if (role !== "host") return; // the public copy has no roster
      S.party = party;
      draw();
    },
    onNotice(msg) {
      // hand-overs at any table: an offer stays until handled, the rest are toasts
      seatNotice(msg, (m, button) => {
        const t = S.tables.get(m.table);
        const r = t && t.table.roster[m.seat];
        if (!r) return;
        if (document.body.dataset.tables === "many") openDetails(m.table); // the code shows there, by the seat
        askHandOver(r.guest, button);
      });
    },
    onPresence(guestId, online) {
      const g = S.party && (S.party.guests || []).find((x) => x.id === guestId);
      if (g && g.online !== online) {
        g.online = online;
        draw();
      }
    },
    onFatal(_code, message) {
      const box = document.getElementById("no-access");
      box.hidden = false;
      box.querySelector("p").textContent = message;
      document.getElementById("host").hidden = true;
    },
  }).start();
  window.heistLive = live; // for debugging from the console
  startClocks(() => live.serverNow());
  // Alerts depend on the clock (a step whose clock or the rules' own wait ran out, an idle table).
  setInterval(() => { if (S.party) drawAlerts(); }, 1000);
  // Online marks change without any party message: refresh them now and then.
  setInterval(() => { if (live.ready && document.visibilityState === "visible") live.resync(); }, 20000);
  document.getElementById("details").addEventListener("close", detailsClosed);
  document.getElementById("vault-form").addEventListener("submit", addVaultGift);
}

// --- sending ----------------------------------------------------------------------------

/** Send with `button` busy meanwhile. Resolves true when the server said ok, false
 * after showing its error. */
function busy(button, promise) {
  if (button) { button.disabled = true; button.dataset.busy = "1"; }
  return track(promise, gettext("Sending")).then(() => true, (err) => { showError(err); return false; }).finally(() => {
    if (button) { button.disabled = false; delete button.dataset.busy; }
  });
}

function command(button, name, args) {
  return busy(button, live.party(name, args));
}

/** An act at `table` from this dashboard: with the version it shows of that table, as
 * every act carries (docs/PROTOCOL.md; a game's checked action is refused without it).
 * The tile module builds the action (a captain's duty the host may do at any table):
 * the shell never names a game's action. */
function actAt(table, action, button) {
  const shown = S.tables.get(table);
  return busy(button, live.act(action, { table, version: shown ? shown.version : undefined }));
}

// --- lobby -----------------------------------------------------------------------------

/** A name as people say it: the server tells a second "Sam" apart as "Sam (2)", but
 * at the table both are still called Sam, so the host is asked to rename one. */
function nameKey(name) {
  return name.trim().toLowerCase().replace(/\s\(\d+\)$/, "");
}

function duplicateNames(guests) {
  const counts = new Map();
  for (const g of guests) {
    const k = nameKey(g.name);
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  return new Set([...counts].filter(([, n]) => n > 1).map(([k]) => k));
}

/** Vault gifts the deal needs for this many guests: what the lobby's numbers say. */
function vaultCount(p, guests) {
  const tables = tableCount(guests.length); // the server's seating, by the game's table_max
  const have = (p.vault_gifts || []).length;
  const need = p.vault_needed !== undefined ? p.vault_needed : p.vault_size * tables;
  return { tables, have, need };
}

/** Why the cards cannot be dealt yet (the vault short or over), or null. */
function dealBlocked(p, guests) {
  if (!(p.vault_size > 0) || guests.length < 2) return null;
  const { have, need } = vaultCount(p, guests);
  if (have < need) {
    return fmt(ngettext("Add %(n)s more vault gift first: %(have)s of %(need)s needed.", "Add %(n)s more vault gifts first: %(have)s of %(need)s needed.", need - have),
      { n: need - have, have, need });
  }
  if (have > need) {
    return fmt(ngettext("Remove %(n)s vault gift first: %(have)s for %(need)s places.", "Remove %(n)s vault gifts first: %(have)s for %(need)s places.", have - need),
      { n: have - need, have, need });
  }
  return null;
}

/** Lobby: how many joined, names used twice, vault gifts needed for this many. */
function drawLobbyStats(p, guests, dups) {
  const box = document.getElementById("lobby-stats");
  if (p.status !== "lobby") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const { tables, have, need } = vaultCount(p, guests);
  const items = [
    h("li", { class: "stat", data: { stat: "joined" } },
      fill(ngettext("%(guests)s joined · %(tables)s table", "%(guests)s joined · %(tables)s tables", tables),
        { guests: h("strong", { text: String(guests.length) }), tables })),
  ];
  if (dups.size) {
    const names = guests.filter((g) => dups.has(nameKey(g.name))).map((g) => g.name);
    items.push(h("li", { class: "stat warn", data: { stat: "duplicates" } }, h("span", { "aria-hidden": "true", text: "⚠ " }),
      fmt(gettext("Same name twice: %(names)s. Rename one so the tables can tell them apart."), { names: listOf([...new Set(names)]) })));
  }
  if (p.vault_size > 0) {
    const ok = have === need;
    items.push(h("li", { class: `stat ${ok ? "ok" : "warn"}`, data: { stat: "vault" } },
      h("span", { "aria-hidden": "true", text: ok ? "✓ " : "⚠ " }),
      fmt(ok
        ? ngettext("Vault gifts: %(have)s of %(need)s needed (%(per)s per table × %(tables)s table)", "Vault gifts: %(have)s of %(need)s needed (%(per)s per table × %(tables)s tables)", tables)
        : have < need
          ? ngettext("Vault gifts: %(have)s of %(need)s needed (%(per)s per table × %(tables)s table) — add %(n)s more before dealing.", "Vault gifts: %(have)s of %(need)s needed (%(per)s per table × %(tables)s tables) — add %(n)s more before dealing.", tables)
          : ngettext("Vault gifts: %(have)s of %(need)s needed (%(per)s per table × %(tables)s table) — remove %(n)s before dealing.", "Vault gifts: %(have)s of %(need)s needed (%(per)s per table × %(tables)s tables) — remove %(n)s before dealing.", tables),
      { have, need, per: p.vault_size, tables, n: Math.abs(need - have) })));
  }
  // The simulator's estimate for the guests so far (docs/SIMULATION.md).
  if (p.estimate) {
    const e = p.estimate;
    items.push(h("li", { class: "stat", data: { stat: "estimate" } },
      fmt(gettext("Estimated party length: %(low)s–%(high)s min (%(details)s)"), {
        low: e.low.toLocaleString(LANG),
        high: e.high.toLocaleString(LANG),
        details: listOf([
          fmt(ngettext("%(n)s guest", "%(n)s guests", e.guests), { n: e.guests }),
          fmt(ngettext("%(n)s table", "%(n)s tables", e.tables), { n: e.tables }),
          e.games > 1 ? fmt(ngettext("%(n)s game in a row", "%(n)s games in a row", e.games), { n: e.games }) : null,
        ].filter(Boolean)),
      })));
  }
  render(box, h("ul", { class: "plain stats" }, items));
}

function guestRow(g, seated, dups = new Set()) {
  const online = g.online
    ? h("span", { class: "presence on" }, h("span", { "aria-hidden": "true", text: "● " }), gettext("online"))
    : h("span", { class: "presence off" }, h("span", { "aria-hidden": "true", text: "○ " }), gettext("offline"));
  const place = g.table ? h("span", { class: "hint", text: fmt(gettext("table %(letter)s, seat %(seat)s"), { letter: g.table, seat: g.seat + 1 }) }) : null;
  const captain = g.captain ? h("span", { class: "mark captain" }, h("span", { "aria-hidden": "true", text: "⚑ " }), gettext("captain")) : null;
  let actions;
  if (S.editing && S.editing.id === g.id) {
    const input = h("input", {
      id: `rename-${g.id}`,
      value: S.editing.draft,
      maxlength: 40,
      "aria-label": fmt(gettext("New name for %(name)s"), { name: g.name }),
      data: { key: `rename-input-${g.id}` },
      on: { input: (ev) => { S.editing.draft = ev.target.value; } },
    });
    actions = h(
      "form",
      {
        class: "row",
        on: {
          submit: (ev) => {
            ev.preventDefault();
            const name = S.editing.draft.trim();
            command(ev.submitter, "rename_guest", { guest: g.id, name }).then((ok) => { if (ok) { S.editing = null; draw(); } });
          },
        },
      },
      input,
      h("button", { class: "btn small primary", type: "submit", text: gettext("Save") }),
      h("button", { class: "btn small", type: "button", text: gettext("Cancel"), on: { click: () => { S.editing = null; draw(); } } }),
    );
    setTimeout(() => { if (document.activeElement === document.body) input.focus(); });
  } else if (!seated) {
    actions = h(
      "span",
      { class: "row wrap" }, // wraps where a long name or a longer language does not fit
      h("button", {
        class: "btn small", type: "button", text: gettext("Rename"), "aria-label": fmt(gettext("Rename %(name)s"), { name: g.name }), data: { key: `rename-${g.id}` },
        on: { click: () => { S.editing = { id: g.id, draft: g.name }; S.removing = null; draw(); } },
      }),
      S.removing === g.id
        ? [
            h("button", { class: "btn small danger", type: "button", text: fmt(gettext("Really remove %(name)s?"), { name: g.name }), data: { key: `remove-yes-${g.id}` }, on: { click: (ev) => command(ev.currentTarget, "remove_guest", { guest: g.id }).then((ok) => { if (ok) S.removing = null; }) } }),
            h("button", { class: "btn small", type: "button", text: gettext("Keep"), on: { click: () => { S.removing = null; draw(); } } }),
          ]
        : h("button", { class: "btn small", type: "button", text: gettext("Remove"), "aria-label": fmt(gettext("Remove %(name)s"), { name: g.name }), data: { key: `remove-${g.id}` }, on: { click: () => { S.removing = g.id; draw(); } } }),
      // the game's own choice for this guest before the deal (a team set by hand), if any
      screen.lobbyGuest ? screen.lobbyGuest(g) : null,
    );
  } else if (g.table) {
    actions = seatActions(g, fmt(gettext("Make %(name)s the table captain"), { name: g.name }));
  } else {
    // No seat while the tables play: a late arrival (the late-arrivals panel), or a
    // guest whose seat a late arrival plays for them.
    actions = h("span", { class: "hint", text: g.played_by ? fmt(gettext("left: %(name)s plays the seat for them"), { name: g.played_by }) : g.late ? gettext("arrived late") : "" });
  }
  return h(
    "li",
    { class: `guest ${g.online ? "online" : "offline"}`, data: { guest: g.id } },
    // the number the guest writes on their gift, or (a game without gifts) their guest number
    h("span", { class: "gift-badge", "aria-label": GAME.features.gifts ? fmt(gettext("gift %(gift)s"), { gift: g.gift_number }) : fmt(gettext("guest %(number)s"), { number: g.gift_number }), text: String(g.gift_number) }),
    h("span", { class: "guest-main" }, h("strong", { class: "guest-name", text: g.name }), " ", online, " ", place, " ", captain,
      dups.has(nameKey(g.name)) ? h("span", { class: "mark dup" }, h("span", { "aria-hidden": "true", text: "⚠ " }), gettext("same name as another guest")) : null),
    actions,
  );
}

/** Make captain / Hand over seat for a seated guest, and the claim code once asked. */
function seatActions(g, captainLabel) {
  const claim = S.claims.get(g.id);
  return h(
    "span",
    { class: "row wrap seat-actions" },
    g.captain ? null : h("button", { class: "btn small", type: "button", text: gettext("Make captain"), "aria-label": captainLabel, data: { key: `captain-${g.id}` }, on: { click: (ev) => command(ev.currentTarget, "set_captain", { guest: g.id }) } }),
    h("button", {
      class: "btn small", type: "button", text: gettext("Hand over seat"), "aria-label": fmt(gettext("Hand %(name)s's seat to a substitute"), { name: g.name }), data: { key: `handover-${g.id}` },
      on: { click: (ev) => askHandOver(g.id, ev.currentTarget) },
    }),
    claim && claim.until > Date.now()
      ? h("span", { class: "claim", role: "status" },
          fill(gettext("Hand-over code %(code)s — the substitute opens the join page, taps “Taking over a seat?” and types it (valid until %(time)s)."),
            { code: h("strong", { class: "code-inline", text: claim.claim }), time: clockTime(claim.until) }))
      : null,
  );
}

/** Ask for a one-time code a substitute types to take this guest's seat. */
function askHandOver(guestId, button) {
  button.disabled = true;
  live.party("hand_over_seat", { guest: guestId }).then((reply) => {
    S.claims.set(guestId, { claim: reply.claim, until: Date.now() + reply.minutes * 60000 });
    draw();
  }, showError).finally(() => { button.disabled = false; });
}

function draw() {
  const p = S.party;
  if (!p) return;
  const seated = p.status !== "lobby";
  const guests = p.guests || [];
  document.getElementById("party-status").textContent =
    p.status === "lobby" ? (p.registration_open ? gettext("· guests are joining") : gettext("· registration closed")) : p.status === "playing" ? gettext("· playing") : gettext("· over");
  document.getElementById("guest-count").textContent = `(${guests.length})`;
  document.body.dataset.stage = p.status;
  document.body.dataset.tables = isMultiTable(p) ? "many" : "one";
  const dups = duplicateNames(guests);
  render(
    document.getElementById("roster"),
    guests.length ? guests.map((g) => guestRow(g, seated, dups)) : h("li", { class: "hint", text: gettext("Nobody yet. Share the code or the QR code.") }),
  );
  drawLobbyStats(p, guests, dups);
  drawClockPanel();
  const controls = [];
  if (!seated) {
    controls.push(
      p.registration_open
        ? h("button", { class: "btn", type: "button", text: gettext("Close registration"), data: { key: "close-reg" }, on: { click: (ev) => command(ev.currentTarget, "close_registration") } })
        : h("button", { class: "btn", type: "button", text: gettext("Reopen registration"), data: { key: "open-reg" }, on: { click: (ev) => command(ev.currentTarget, "reopen_registration") } }),
      h("button", {
        class: "btn primary big", type: "button", id: "deal", data: { key: "deal" },
        text: screen.words.deal(guests.length, GAME.min_players),
        disabled: guests.length < GAME.min_players || Boolean(dealBlocked(p, guests)),
        "aria-describedby": dealBlocked(p, guests) ? "deal-why" : null,
        on: { click: (ev) => command(ev.currentTarget, "seat").then((ok) => ok && toast(screen.words.dealt, "ok")) },
      }),
      dealBlocked(p, guests) ? h("p", { class: "deal-why", id: "deal-why", role: "status", text: dealBlocked(p, guests) }) : null,
    );
  }
  render(document.getElementById("lobby-controls"), controls);
  document.getElementById("join-panel").classList.toggle("compact", seated);
  // Several tables: the overview takes the screen; each table's details list its
  // guests, with their actions.
  const many = seated && isMultiTable(p);
  document.getElementById("lobby").hidden = many;
  document.getElementById("join-panel").hidden = many;

  const vaultPanel = document.getElementById("vault-panel");
  vaultPanel.hidden = !(p.vault_size > 0) || many;
  if (p.vault_size > 0 && GAME.features.vaults) {
    render(
      document.getElementById("vault-list"),
      (p.vault_gifts || []).map((v) =>
        h("li", {},
          fill(v.table ? gettext("%(gift)s from %(contributor)s — table %(letter)s") : gettext("%(gift)s from %(contributor)s"),
            { gift: h("span", { class: "gift-tag", text: v.label }), contributor: v.contributor, letter: v.table }),
          seated ? null : h("button", { class: "btn small", type: "button", text: gettext("Remove"), "aria-label": fmt(gettext("Remove vault gift %(gift)s"), { gift: v.label }), on: { click: (ev) => command(ev.currentTarget, "remove_vault_gift", { number: v.number }) } })),
      ),
    );
    document.getElementById("vault-form").hidden = seated;
  }
  drawLatePanel(document.getElementById("late-panel"), p, command, GAME.features.gifts);
  drawTables();
  drawResult();
}

function sortedTables() {
  return [...S.tables.values()].sort((a, b) => a.table.letter.localeCompare(b.table.letter));
}

function drawTables() {
  const p = S.party;
  const multi = isMultiTable(p);
  const box = document.getElementById("tables");
  box.classList.toggle("compact", multi);
  box.classList.toggle("overview", multi);
  screen.draw(sortedTables());
  drawDetails();
  drawPartyBar();
  drawAlerts();
  tickClocks();
}

// A game's tables may redraw at most once a frame (its `perFrame`), as the big screen's
// do: where every seat decides at once, 13 tables send dozens of updates a second, and a
// dashboard redrawn whole for each fell seconds behind the room.
const redrawTables = oncePerFrame(() => drawTables());

// --- the overview: a tile per table ----------------------------------------------------------

function tabletsAt(tableId) {
  return ((S.party && S.party.tablets) || []).filter((t) => t.table === tableId);
}

/** Who the table waits for, in a few words ("Bea's turn", "Asking Cam, Dee") and since
 * when (epoch seconds, or null). The game says it from its own steps: its tile module's
 * `waitingFor(view, meta, {listOf})` export (null: the shell's words). The shell knows
 * only the party's moments (the gate, the end) and the step the table's clock names. */
function waitingFor(view, meta) {
  const own = tileModule && tileModule.waitingFor ? tileModule.waitingFor(view, meta, { listOf }) : null;
  if (own) return own;
  if (view.phase === "gate") return { text: gettext("Waiting at the gate"), since: null };
  if (view.phase === "over") return { text: gettext("Game over"), since: null };
  const seats = meta.step ? meta.step.waiting.map((seat) => seatName(meta, seat)) : [];
  if (!seats.length) return { text: "", since: null };
  return { text: fmt(ngettext("Waiting for %(names)s", "Waiting for %(names)s", seats.length), { names: listOf(seats) }), since: meta.acted_at };
}

// --- one table's details, on demand ------------------------------------------------------------

function openDetails(tableId) {
  S.details = tableId;
  const dialog = document.getElementById("details");
  drawTables();
  if (!dialog.open) dialog.showModal();
  const heading = dialog.querySelector("h2");
  if (heading) heading.focus();
}

function drawDetails() {
  const dialog = document.getElementById("details");
  const payload = S.details !== null ? S.tables.get(S.details) : null;
  if (!payload || !isMultiTable(S.party)) {
    if (dialog.open) dialog.close();
    return;
  }
  render(dialog,
    h("div", { class: "details-bar" },
      h("button", { class: "btn small", type: "button", data: { key: "details-close" }, on: { click: () => dialog.close() } }, gettext("Close"))),
    screen.details ? screen.details(payload) : seatsCard(payload.table),
    tabletsPanel(payload.table));
}

/** A table's details where its game draws none: its seats, who is online and who is not
 * (what the offline alert's Details is opened for). */
function seatsCard(meta) {
  return h("section", { class: "seats-card", "aria-labelledby": `seats-${meta.id}-h` },
    h("h2", { id: `seats-${meta.id}-h`, tabindex: "-1", text: fmt(gettext("Table %(letter)s"), { letter: meta.letter }) }),
    h("ul", { class: "plain" }, guestsAt(meta.letter).map((g) => h("li", { class: `guest ${g.online ? "online" : "offline"}`, data: { guest: g.id } },
      h("strong", { text: g.name }), " ",
      g.online
        ? h("span", { class: "presence on" }, h("span", { "aria-hidden": "true", text: "● " }), gettext("online"))
        : h("span", { class: "presence off" }, h("span", { "aria-hidden": "true", text: "○ " }), gettext("offline")),
      " ", h("span", { class: "hint", text: fmt(gettext("table %(letter)s, seat %(seat)s"), { letter: g.table, seat: g.seat + 1 }) })))));
}

/** Pair a captain's tablet with this table (a QR code and a one-time code), and the
 * tablets paired so far, each with Unpair. */
function tabletsPanel(meta) {
  const paired = tabletsAt(meta.id);
  // A code is good for one tablet: once a tablet the code was not asked beside pairs,
  // it was used, and its QR code would only send the next tablet to a refusal.
  if (S.pairings.has(meta.id) && paired.some((t) => !S.pairings.get(meta.id).before.has(t.id))) S.pairings.delete(meta.id);
  const pending = S.pairings.get(meta.id);
  const showing = pending && pending.until > Date.now();
  return h("section", { class: "tablets-panel", "aria-labelledby": `tablets-${meta.id}-h` },
    h("h3", { id: `tablets-${meta.id}-h`, text: fmt(gettext("Captain's tablet for table %(letter)s"), { letter: meta.letter }) }),
    paired.length
      ? h("ul", { class: "plain tablet-list" }, paired.map((t, i) => h("li", { class: "row wrap" },
          h("span", { text: fmt(gettext("✓ Tablet %(n)s paired at %(time)s"), { n: i + 1, time: clockTime(t.paired_at * 1000) }) }),
          h("button", { class: "btn small danger", type: "button", data: { key: `unpair-${t.id}` }, "aria-label": fmt(gettext("Unpair tablet %(n)s of table %(letter)s"), { n: i + 1, letter: meta.letter }),
            on: { click: (ev) => command(ev.currentTarget, "revoke_tablet", { tablet: t.id }) } }, gettext("Unpair")))))
      : h("p", { class: "hint", data: { duty: "tablet" }, text: dutyWords().tablet }),
    showing
      ? h("div", { class: "pairing", role: "status" },
          h("img", { class: "qr", src: pending.qr, width: 180, height: 180, alt: fmt(gettext("QR code to pair a tablet with table %(letter)s"), { letter: meta.letter }) }),
          h("p", {}, fill(gettext("Scan with the tablet, or open %(url)s and type %(code)s. One use, valid until %(time)s."), {
            url: h("strong", { class: "pairing-url", text: pending.url || `${location.origin}/t/${code}/` }),
            code: h("strong", { class: "code-inline pairing-code", text: pending.pairing }),
            time: clockTime(pending.until),
          })))
      : null,
    h("button", { class: "btn small", type: "button", data: { key: `pair-${meta.id}` }, "aria-label": fmt(gettext("Pair a tablet with table %(letter)s"), { letter: meta.letter }),
      on: { click: (ev) => askPairing(meta.id, ev.currentTarget) } }, showing ? gettext("New pairing code") : gettext("Pair a tablet")));
}

/** Ask for a one-time code (and its QR code) that pairs a tablet with this table. */
function askPairing(tableId, button) {
  button.disabled = true;
  track(live.party("pair_tablet", { table: tableId }), gettext("Asking for a pairing code")).then((reply) => {
    const before = new Set(tabletsAt(tableId).map((t) => t.id));
    S.pairings.set(tableId, { pairing: reply.pairing, qr: reply.qr, url: reply.url, until: Date.now() + reply.minutes * 60000, before });
    drawTables();
  }, showError).finally(() => { button.disabled = false; });
}

// --- what needs the host, first ------------------------------------------------------------------

function alertsNow() {
  const p = S.party;
  if (!p || p.status !== "playing") return [];
  const now = live.serverNow();
  const out = [];
  for (const t of sortedTables()) {
    const { view, table: meta } = t;
    const letter = meta.letter;
    const quiet = passableNow(view, meta, now);
    if (quiet) {
      // A quiet guest's step ran out (docs/RULES.md): the host may play it for them.
      const began = meta.step.rules_pass ? meta.window_opened_at : passFrom(view, meta) - meta.step_clock;
      const names = listOf(quiet.seats.map((s) => seatName(meta, s)));
      // `sig`: what the alert says without its seconds (a new one redraws the list).
      out.push({ rank: 0, key: `pass-${meta.id}`, letter, kind: "pass", payload: t, step: quiet, version: t.version, sig: `${quiet.what}:${names}`,
        text: fmt(quiet.waited, { letter, seconds: Math.floor(now - began), names }) });
    }
    const offline = guestsAt(letter).filter((g) => !g.online);
    if (offline.length) {
      const names = listOf(offline.map((g) => g.name));
      out.push({ rank: 1, key: `off-${meta.id}`, letter, kind: "offline", sig: names,
        text: fmt(ngettext("Table %(letter)s: %(names)s is offline", "Table %(letter)s: %(names)s are offline", offline.length), { letter, names }) });
    }
    // a step waits on people (the game's clock names one): not the gate, not the end
    if (meta.step && meta.acted_at && now - meta.acted_at >= IDLE_SECONDS) {
      const who = waitingFor(view, meta);
      const minutes = Math.floor((now - meta.acted_at) / 60);
      out.push({ rank: 2, key: `idle-${meta.id}`, letter, kind: "idle", sig: `${minutes}:${who.text}`,
        text: fmt(gettext("Table %(letter)s has not moved for %(minutes)s min (%(waiting)s)"), { letter, minutes, waiting: midSentence(who.text) }) });
    }
  }
  return out.sort((a, b) => a.rank - b.rank || a.letter.localeCompare(b.letter));
}

// Past a few alerts the list folds: every quiet guest's pass (a button the host has to
// press) and the first others stay in sight, the rest fold into one line naming their
// tables, unfolded on demand over the tables (heist.css), so a room of offline phones
// never squeezes the tables' tiles. With many tables the first alert and that line share
// one line (each tile names its offline guests too).
const alertsShown = () => (document.body.dataset.tables === "many" ? 1 : 2);
let alertsUnfolded = false; // the host unfolded the rest (kept across redraws)

function alertItem(a) {
  return h("li", { class: `alert alert-${a.kind}`, data: { alert: a.key, kind: a.kind, letter: a.letter } },
    h("span", { "aria-hidden": "true", class: "alert-icon", text: { pass: "⚠", offline: "○", idle: "…" }[a.kind] }),
    h("span", { class: "alert-text", title: a.text, text: a.text }),
    a.kind === "pass"
      ? a.step.seats.map((seat) => h("button", {
          class: "btn small primary", type: "button", data: { key: `alert-pass-${a.payload.table.id}-${seat}`, passAfter: 0, openedAt: 0 },
          on: { click: (ev) => actAt(a.payload.table.id, a.step.action(seat), ev.currentTarget) },
        }, a.step.label(seatName(a.payload.table, seat))))
      : h("button", { class: "btn small", type: "button", data: { key: `alert-details-${a.key}` }, "aria-label": fmt(gettext("Details of table %(letter)s"), { letter: a.letter }),
          on: { click: () => openDetails(sortedTables().find((t) => t.table.letter === a.letter).table.id) } }, gettext("Details")));
}

/** The folded alerts' line: how many, and at which tables, by kind. */
function foldedLine(folded) {
  const at = (kind) => folded.filter((a) => a.kind === kind).map((a) => a.letter);
  const offline = at("offline");
  const idle = at("idle");
  return [
    h("strong", { text: fmt(ngettext("%(n)s more alert:", "%(n)s more alerts:", folded.length), { n: folded.length }) }), " ",
    h("span", { class: "alert-more-what", text: [
      offline.length ? fmt(gettext("offline at %(tables)s"), { tables: offline.join(", ") }) : null,
      idle.length ? fmt(gettext("not moving at %(tables)s"), { tables: idle.join(", ") }) : null,
    ].filter(Boolean).join(" · ") }),
  ];
}

function drawAlerts() {
  const box = document.getElementById("alerts");
  const alerts = alertsNow();
  const sig = alerts.map((a) => `${a.key}:${a.sig}`).join("|");
  titleAlert(PARTY_NAME, alerts.length ? fmt(ngettext("%(n)s needs you", "%(n)s need you", alerts.length), { n: alerts.length }) : null);
  if (box.dataset.sig === sig && !box.hidden === Boolean(alerts.length)) {
    // Same alerts: only the seconds moved.
    for (const a of alerts) {
      const el = box.querySelector(`[data-alert="${a.key}"] .alert-text`);
      if (el && el.textContent !== a.text) { el.textContent = a.text; el.title = a.text; }
    }
    return;
  }
  box.dataset.sig = sig;
  box.hidden = !alerts.length;
  // Sorted passes first: the passes and then the first others, up to alertsShown().
  const few = alertsShown();
  const fold = alerts.length > few + 1;
  const shown = fold ? alerts.filter((a, i) => a.kind === "pass" || i < few) : alerts;
  const folded = alerts.filter((a) => !shown.includes(a));
  if (!folded.length) alertsUnfolded = false;
  render(box,
    h("h2", { class: "sr-only", text: gettext("Needs you") }),
    h("ul", { class: "plain alert-list" }, shown.map(alertItem)),
    folded.length
      ? h("details", { class: "alert-more", open: alertsUnfolded, on: { toggle: (ev) => { alertsUnfolded = ev.currentTarget.open; } } },
          h("summary", { data: { key: "alert-more" } }, foldedLine(folded)),
          h("ul", { class: "plain alert-list" }, folded.map(alertItem)))
      : null);
  // A pass became possible: call the host once per step (a chime, the focus on its button).
  for (const a of alerts) {
    if (a.kind === "pass" && worthCalling(a.payload.view, a.payload.table)) callOnce(`${a.payload.table.id}:${a.version}`, box);
  }
}

// --- the step clock ---------------------------------------------------------------------------

const CLOCKS = [[0, pgettext("step clock", "Off")], [60, gettext("60 s")], [120, gettext("2 min")]];

/** What the step clock times and what a captain's tablet does, in the party's game's
 * words (heist-game's `duties`, its definition's duty_texts) where it has them, the
 * host's plain ones where not: `clock` (the menu: which steps wait, each one's stand-in),
 * `clock_off` (with the clock off) and `tablet` (the captain's duties, no tablet yet). */
function dutyWords() {
  const own = GAME.duties || {};
  return {
    clock: own.clock || gettext("How long a quiet guest's step may wait. Then the table's captain or you may play the rules' do-nothing choice for them."),
    clock_off: own.clock_off || gettext("Off: every step waits for its guest."),
    tablet: own.tablet || gettext("No tablet yet. The captain's duties can run on a tablet at the table."),
  };
}

/** The party's step clock, changeable at any time (events/party/services.py party_set_clock):
 * a drop-down in the header line, like the printables, so it never pushes the tables. */
function drawClockPanel() {
  const p = S.party;
  const panel = document.getElementById("clock-panel");
  panel.hidden = !p || p.status === "over";
  if (panel.hidden) return;
  const label = (CLOCKS.find(([v]) => v === p.step_clock) || [0, fmt(gettext("%(seconds)s s"), { seconds: p.step_clock })])[1];
  document.getElementById("clock-summary").textContent =
    fmt(p.step_clock && p.step_clock_server ? gettext("Step clock: %(clock)s · the server plays") : gettext("Step clock: %(clock)s"), { clock: label });
  const sig = `${p.step_clock}:${p.step_clock_server}`;
  const menu = document.getElementById("clock-menu");
  if (menu.dataset.sig === sig) return;
  menu.dataset.sig = sig;
  const send = (ev) => {
    const clock = Number(menu.querySelector("#step-clock").value);
    const server = menu.querySelector("#step-clock-server").checked;
    busy(ev.currentTarget, live.party("set_clock", { step_clock: clock, step_clock_server: server }));
  };
  render(menu,
    h("p", { class: "hint", data: { duty: "clock" }, text: dutyWords().clock }),
    h("div", { class: "row wrap" },
      h("label", { for: "step-clock", text: gettext("Step clock") }),
      h("select", { id: "step-clock", data: { key: "step-clock" }, on: { change: send } },
        CLOCKS.map(([v, text]) => h("option", { value: String(v), selected: v === p.step_clock }, text)))),
    h("div", { class: "check" },
      h("input", { id: "step-clock-server", type: "checkbox", checked: p.step_clock_server, data: { key: "step-clock-server" }, on: { change: send } }),
      h("label", { for: "step-clock-server", text: gettext("When it runs out, the server plays for them") })),
    p.step_clock ? null : h("p", { class: "hint", data: { duty: "clock-off" }, text: dutyWords().clock_off }));
}

// --- several tables ----------------------------------------------------------------------

function guestsAt(letter) {
  return ((S.party && S.party.guests) || []).filter((g) => g.table === letter).sort((a, b) => a.seat - b.seat);
}

function captainName(letter) {
  const c = guestsAt(letter).find((g) => g.captain);
  return c ? c.name : null;
}

/** Where a table short of the gate stands, for the party bar: `{text, progress}`, the
 * table named in a few words ("B (round 2, turn 3 of 5)") and its way to the gate, 0-1.
 * The game's tile module says it (its `beforeGate(view, meta)` export); the shell knows
 * only that a table at the gate or over has gone the whole way, and names the others. */
function beforeGate(t) {
  const { view, table: meta } = t;
  if (view.phase === "gate" || view.phase === "over") return { text: meta.letter, progress: 1 };
  const own = tileModule && tileModule.beforeGate ? tileModule.beforeGate(view, meta) : null;
  return own || { text: meta.letter, progress: 0 };
}

/** The relay's mechanics, for a game with the relay (GAME.features.relay): the gate and
 * its count, the ring, the captains' draws (each table's `relay_draw`), the walks and
 * the buttons. What the tables do after it is the game's (its tile's `relayWords`,
 * party.js RELAY_WORDS). */
function drawPartyBar() {
  const p = S.party;
  const bar = document.getElementById("party-bar");
  // Only while the tables play: at the end the result says it all.
  if (!p || p.status !== "playing" || !isMultiTable(p) || !GAME.features.relay) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  const relay = p.relay;
  const payloads = sortedTables();
  const gate = gateSeen(p, payloads);
  const words = relayWords(tileModule && tileModule.relayWords);
  const parts = [];
  if (!relay) {
    const behind = payloads.filter((t) => t.view.phase !== "gate");
    const progress = gateProgress(payloads, (t) => beforeGate(t).progress);
    parts.push(
      h("div", { class: "gate-row" },
        h("h2", { id: "party-bar-h", class: "bar-title", text: gettext("The gate") }),
        h("p", { class: `gate-count ${gate.open ? "open" : ""}`, role: "status" },
          h("span", { "aria-hidden": "true", text: gate.open ? "✓ " : "‖ " }), gateText(gate)),
        h("progress", { class: "gate-progress", max: 100, value: Math.round(progress * 100), "aria-label": fmt(gettext("Room progress to the gate: %(percent)s"), { percent: `${Math.round(progress * 100)} %` }) }),
        h("button", {
          class: "btn primary", type: "button", id: "open-relay", data: { key: "open-relay" }, disabled: !gate.open,
          on: { click: (ev) => partyCommand(ev.currentTarget, "open_relay") },
        }, gate.open
          ? gettext("Open the relay")
          : fmt(ngettext("Open the relay (waiting for %(n)s more table)", "Open the relay (waiting for %(n)s more tables)", gate.tables - gate.at_gate), { n: gate.tables - gate.at_gate }))),
      behind.length
        // One line on the laptop (heist.css): each table's tile says where it stands; the
        // whole list in its tooltip.
        ? h("p", { class: "gate-waiting", title: behind.map((t) => beforeGate(t).text).join(" · ") }, h("strong", { text: gettext("Everyone waits for: ") }),
            behind.map((t) => beforeGate(t).text).join(" · "))
        : h("p", { class: "gate-waiting", text: words.ready() }),
    );
  } else {
    parts.push(h("div", { class: "gate-row" },
      h("h2", { id: "party-bar-h", class: "bar-title", text: gettext("The relay") }),
      ringLine(relay, "ring"),
      relay.status === "done"
        ? h("p", { class: "gate-count done", role: "status" }, h("span", { "aria-hidden": "true", text: "✓ " }), words.done())
        : null,
      // On the relay's own line: in sight however long the list of walks below.
      relay.status === "walk"
        ? h("button", {
            class: "btn", type: "button", id: "all-arrived", data: { key: "all-arrived" },
            on: { click: (ev) => partyCommand(ev.currentTarget, "confirm_all_deliveries") },
          }, words.allArrived())
        : null));
    if (relay.status === "walk") {
      const count = walkCount(relay);
      parts.push(
        h("p", { class: "gate-count walking", role: "status" }, h("span", { "aria-hidden": "true", text: "⇢ " }), words.walking(count)),
        walkList(relay, giftArrived, words),
        h("details", { class: "relay-details" }, h("summary", { text: gettext("What the relay moves") }), relayResultList(relay)),
      );
    } else if (relay.status === "open") {
      const drawn = payloads.filter((t) => t.table.relay_draw).length;
      const all = drawn === relay.ring.length;
      parts.push(
        drawnSeatList(relay, payloads, captainName),
        h("button", {
          class: "btn primary", type: "button", id: "run-relay", data: { key: "run-relay" }, disabled: !all,
          on: { click: (ev) => partyCommand(ev.currentTarget, "run_relay") },
        }, all
          ? gettext("Run the relay")
          : fmt(ngettext("Run the relay (%(n)s table still to draw)", "Run the relay (%(n)s tables still to draw)", relay.ring.length - drawn), { n: relay.ring.length - drawn })),
      );
    } else if (p.status === "playing") {
      parts.push(h("details", { class: "relay-details" }, h("summary", { text: gettext("What the relay moved") }), relayResultList(relay)));
    }
  }
  // A refusal stands until the party moves on (its revision changes).
  if (S.partyError && S.partyError.revision === p.revision) parts.push(h("p", { class: "form-error", role: "alert", text: S.partyError.message }));
  render(bar, parts);
}

/** The host's override for one table: its relay gift has arrived. */
function giftArrived(entry, button) {
  S.partyError = null;
  return busy(button, live.party("confirm_delivery", { table: entry.table_id }));
}

/** A relay command: its refusal stays in the party bar (and a toast). */
function partyCommand(button, name) {
  S.partyError = null;
  return busy(button, live.party(name).catch((err) => {
    S.partyError = { message: err.message.charAt(0).toUpperCase() + err.message.slice(1), revision: S.party.revision };
    throw err;
  })).then((ok) => { drawPartyBar(); return ok; });
}

// --- the end -------------------------------------------------------------------------------

function drawResult() {
  const p = S.party;
  const box = document.getElementById("result");
  if (!p || !p.result || !p.result.over) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  render(box,
    h("h2", { id: "result-h", text: gettext("The party's result") }),
    screen.result(p.result, { csv: csvButton(), story: storyLink }));
}

function csvButton() {
  return h("button", { class: "btn primary", type: "button", id: "download-csv", data: { key: "csv" }, on: { click: (ev) => downloadCsv(ev.currentTarget) } }, gettext("Download CSV"));
}

/** Fetch the CSV with the host key in the Authorization header (never in a URL) and
 * save it through a Blob and a download link. */
async function downloadCsv(button) {
  button.disabled = true;
  try {
    const res = await fetch(`/api/parties/${encodeURIComponent(code)}/result.csv`, { headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok) {
      const data = await res.json().catch(() => ({}));
      throw new Error(serverSays(data) || fmt(gettext("the server refused the download (%(status)s)"), { status: res.status }));
    }
    const url = URL.createObjectURL(await res.blob());
    const link = h("a", { href: url, download: `${GAME.title.toLowerCase().replaceAll(" ", "-")}-${code}.csv`, hidden: true });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = false;
  }
}

/** The details dialog closed: back to the table's Details button (the overview may
 * have been redrawn meanwhile). */
function detailsClosed() {
  const id = S.details;
  S.details = null;
  const back = id !== null && document.querySelector(`#tables [data-key="details-${id}"]`);
  if (back) back.focus();
}

function addVaultGift(ev) {
  ev.preventDefault();
  const contributor = document.getElementById("vault-contributor");
  const description = document.getElementById("vault-description");
  command(ev.submitter, "add_vault_gift", { contributor: contributor.value.trim(), description: description.value.trim() }).then((ok) => {
    if (!ok) return;
    contributor.value = "";
    description.value = "";
  });
}

if (!token) document.getElementById("no-access").hidden = false;
else start();

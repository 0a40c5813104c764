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
import { drawnSeatList, gateProgress, gateSeen, gateText, isMultiTable, partyResultTables, relayResultList, ringLine, walkCount, walkList, walkOf, walkText } from "./party.js";
import { eventLog, noteEvents, roundTitle, statusLine, tableCard, vaultList, windowBox } from "../yankee/tableview.js";
import { callOnce, passFrom, passableNow, worthCalling } from "./standin.js";
import { fill, fmt, giftLabel, h, listText, midSentence, oncePerFrame, render, seatName, serverSays, showError, startClocks, tickClocks, titleAlert, toast, track } from "./ui.js";
import { leaderRow, renderLeaderboard, renderResult } from "../royal/leaderboard.js";
import { ROYAL_STORY, storyLink } from "./story-link.js";
import { renderTable } from "../royal/table.js";

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
// A Royal Heist party (the page says which game): its tables drawn by royal/table.js and
// a leaderboard; none of Yankee Heist's panels (relay, vault, gifts, stand-ins).
const ROYAL = app.dataset.game === "royal";

const S = {
  party: null,
  tables: new Map(), // table id -> latest public payload
  logs: new Map(), // table id -> event lines
  editing: null, // {id, draft} while renaming a guest
  removing: null, // guest id awaiting a second tap
  claims: new Map(), // guest id -> {claim, until} one-time hand-over codes we asked for
  partyError: null, // the server's last refusal of a relay command, shown in the party bar
  details: null, // the table id whose details are open
  pairings: new Map(), // table id -> {pairing, qr, until}: a one-time code we asked for
  boardScroll: 0, // how far the host scrolled a Royal party's leaderboard (kept across redraws)
};
let live = null;

function start() {
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
      noteEvents(S.logs, msg);
      if (ROYAL) redrawTables();
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
  // Alerts depend on the clock (a reaction that has waited 60 s, an idle table).
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

/** The captain's duties the host may do at any table (passed to tableview.js). */
const DUTIES = {
  duty: true,
  // Naming the window: a pass tapped as the window closed never passes the next one.
  onPass: (table, seat, button, window) => busy(button, live.act({ type: "timeout_pass", seat, window }, { table })),
  onConfirm: (table, button) => busy(button, live.act({ type: "confirm_reveal" }, { table })),
};

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
  const tables = Math.max(1, Math.ceil(guests.length / 10));
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
    h("span", { class: "gift-badge", "aria-label": fmt(gettext("gift %(gift)s"), { gift: g.gift_number }), text: String(g.gift_number) }),
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
        text: ROYAL
          ? (guests.length < 3 ? gettext("Seat everyone (needs 3 guests)") : fmt(ngettext("Seat everyone (%(n)s player)", "Seat everyone (%(n)s players)", guests.length), { n: guests.length }))
          : guests.length < 2 ? gettext("Deal the cards (needs 2 guests)") : fmt(ngettext("Deal the cards (%(n)s player)", "Deal the cards (%(n)s players)", guests.length), { n: guests.length }),
        disabled: guests.length < (ROYAL ? 3 : 2) || Boolean(dealBlocked(p, guests)),
        "aria-describedby": dealBlocked(p, guests) ? "deal-why" : null,
        on: { click: (ev) => command(ev.currentTarget, "seat").then((ok) => ok && toast(ROYAL ? gettext("Everyone is seated: the heists begin.") : gettext("Cards dealt. Everyone takes the gift their phone shows."), "ok")) },
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
  if (p.vault_size > 0 && !ROYAL) {
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
  drawLatePanel(document.getElementById("late-panel"), p, command);
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
  if (ROYAL) {
    drawRoyalTables(box);
    return;
  }
  if (multi) {
    // The overview: every table as a tile, all on one screen; details on demand.
    render(box, sortedTables().map((t) => tile(t)));
  } else {
    render(box, sortedTables().map((t) => [tableCard(t, S.logs.get(t.table.id), DUTIES), tabletsPanel(t.table)]));
  }
  drawDetails();
  drawPartyBar();
  drawAlerts();
  tickClocks();
}

// A Royal party's tables redraw at most once a frame, as the big screen's do: every
// seat decides at once, so 13 tables send dozens of updates a second, and the dashboard
// (every table and a leaderboard of 100, redrawn whole) fell seconds behind the room.
const redrawTables = oncePerFrame(() => drawTables());

/** A Royal Heist party's tables: each table's tile and the party's leaderboard (every
 * seat's bank, from the tables' views). */
function drawRoyalTables(box) {
  const tables = sortedTables();
  const rows = tables.flatMap(({ view, table: meta }) =>
    view.seats.map((s) => leaderRow(s, seatName(meta, s.seat), meta.letter)));
  // With many tables the leaderboard scrolls in its own box (royal.css): reachable by
  // keyboard, and where it was scrolled to (and its focus) kept across every redraw.
  const board = renderLeaderboard(rows);
  if (isMultiTable(S.party)) {
    board.tabIndex = 0;
    board.dataset.key = "royal-leaderboard";
    board.addEventListener("scroll", () => { S.boardScroll = board.scrollTop; });
  }
  box.classList.add("r-tables");
  // Whole tables, not `.tile`s (the dashboard folds Yankee's tiles at the end), in one
  // block across #tables' grid; each table with its tablets in one box, so that with
  // many tables (13 for 100 guests) royal.css lays them out as a grid on one screen.
  render(box, tables.length
    ? h("div", { class: "r-host" }, royalGate(tables), board,
      // A table's box scrolls when its seats outgrow it (royal.css, many tables): a keyboard
      // reaches it as it reaches the leaderboard (axe: scrollable-region-focusable).
      h("div", { class: "r-host-tables" }, tables.map((t) => h("div", { class: "r-host-table", data: { letter: t.table.letter, key: `royal-table-${t.table.letter}` }, tabindex: "0", role: "region", "aria-label": fmt(gettext("Table %(letter)s"), { letter: t.table.letter }) },
        renderTable(t.view, t.table), tabletsPanel(t.table)))))
    : null);
  if (S.boardScroll) {
    const keep = () => { if (board.isConnected && board.scrollTop !== S.boardScroll) board.scrollTop = S.boardScroll; };
    keep();
    requestAnimationFrame(keep); // the first layout of the new box may not have its height yet
  }
  tickClocks();
}

/** The gate of a Royal Heist party of several tables: every table stops half-way; once
 * all are there (or finished), the host opens the second half for all at once. */
function royalGate(tables) {
  const phases = tables.map((t) => t.view.phase);
  const waiting = phases.filter((p) => p === "gate").length;
  if (!waiting) return null;
  const ready = phases.every((p) => p === "gate" || p === "over");
  return h("div", { class: "panel r-gate", role: "status" }, [
    h("p", {}, ready
      ? gettext("Every table is at the gate.")
      : fmt(ngettext("At the gate: %(waiting)s of %(tables)s table. The others are still playing their first half.", "At the gate: %(waiting)s of %(tables)s tables. The others are still playing their first half.", tables.length),
        { waiting, tables: tables.length })),
    ready
      ? h("button", {
          type: "button",
          class: "btn primary big",
          data: { key: "royal-open-gate" },
          on: { click: (ev) => partyCommand(ev.currentTarget, "open_gate") },
        }, gettext("Open the gate: play the second half"))
      : null,
  ]);
}

// --- the overview: a tile per table ----------------------------------------------------------

function tabletsAt(tableId) {
  return ((S.party && S.party.tablets) || []).filter((t) => t.table === tableId);
}

/** Who the table waits for, in a few words: "Bea's turn", "asking Cam, Dee". */
function waitingFor(view, meta) {
  const name = (seat) => seatName(meta, seat);
  switch (view.phase) {
    case "action": return { text: fmt(gettext("%(name)s's turn"), { name: name(view.active) }), since: meta.acted_at };
    case "reaction": return { text: fmt(gettext("Asking %(names)s"), { names: listOf((view.window ? view.window.waiting : []).map(name)) }), since: meta.window_opened_at };
    case "trim": {
      const seats = Object.keys(view.trims || {}).map((x) => name(Number(x)));
      return { text: fmt(ngettext("%(names)s discarding", "%(names)s discarding", seats.length), { names: listOf(seats) }), since: meta.acted_at };
    }
    case "reveal": return { text: gettext("Unwrapping: the captain starts round 2"), since: meta.acted_at };
    case "decide": {
      const seats = (view.waiting_for || []).map(name);
      return { text: fmt(ngettext("Waiting for %(names)s to choose", "Waiting for %(names)s to choose", seats.length), { names: listOf(seats) }), since: meta.acted_at };
    }
    case "gate": return { text: gettext("Waiting at the gate"), since: null };
    case "over": return { text: gettext("Game over"), since: null };
    default: return { text: "", since: null };
  }
}

function tile(payload) {
  const { view, table: meta } = payload;
  const letter = meta.letter;
  const guests = guestsAt(letter);
  const offline = guests.filter((g) => !g.online);
  const captain = guests.find((g) => g.captain);
  const walk = view.phase === "gate" ? walkOf(S.party.relay, letter) : null;
  const gate = walk ? walkStatus(walk) : gateStatus(view);
  // The host's "Gift arrived" overrides are in the party bar (the tiles keep their size).
  const who = walk
    ? {
        text: walk.arrived
          ? fmt(gettext("Waiting for %(name)s to deliver gift %(gift)s"), { name: walk.mine.guest, gift: walk.mine.sent })
          : fmt(gettext("Waiting for gift %(gift)s from %(letter)s (%(name)s)"), { gift: walk.mine.received, letter: walk.from.table, name: walk.from.guest }),
        since: null,
      }
    : waitingFor(view, meta);
  const tablets = tabletsAt(meta.id);
  return h("article", {
    class: `tile phase-${view.phase}${offline.length ? " has-offline" : ""}`,
    "aria-labelledby": `tile-${meta.id}-h`,
    data: { tableId: meta.id, letter, version: payload.version, phase: view.phase, round: view.round },
  },
  h("div", { class: "tile-top" },
    h("h2", { id: `tile-${meta.id}-h`, class: "tile-head" },
      h("span", { class: "table-letter", text: letter }),
      h("span", { class: "sr-only", text: fmt(gettext("Table %(letter)s, "), { letter }) }),
      h("span", { class: "round", text: view.phase === "over" ? gettext("Game over") : fmt(gettext("Round %(round)s · turn %(turn)s of %(players)s"), { round: view.round, turn: Math.min(view.turn + 1, view.players), players: view.players }) })),
    h("button", { class: "btn small details-btn", type: "button", data: { key: `details-${meta.id}` }, "aria-label": fmt(gettext("Details of table %(letter)s"), { letter }), "aria-haspopup": "dialog",
      on: { click: () => openDetails(meta.id) } }, gettext("Details"))),
  h("p", { class: "tile-who" }, h("strong", { text: who.text }),
    who.since ? h("span", { class: "clock", data: { openedAt: who.since, clock: "" }, text: "" }) : null),
  h("p", { class: `gate-status ${gate.cls}` }, h("span", { "aria-hidden": "true", text: `${gate.icon} ` }), gate.short),
  h("p", { class: `presence-line ${offline.length ? "some-off" : "all-on"}` },
    h("span", { "aria-hidden": "true", text: offline.length ? "○ " : "● " }),
    offline.length ? fmt(gettext("Offline: %(names)s"), { names: listOf(offline.map((g) => g.name)) }) : gettext("Everyone connected")),
  h("p", { class: "captain-line" }, h("span", { "aria-hidden": "true", text: "⚑ " }), captain ? fmt(gettext("Captain: %(name)s"), { name: captain.name }) : gettext("No captain"),
    h("span", { class: tablets.length ? "tablet-mark on" : "tablet-mark off", text: tablets.length ? gettext(" · tablet ✓") : gettext(" · no tablet") })),
  view.phase === "reveal"
    ? h("button", { class: "btn small", type: "button", data: { key: `reveal-${meta.id}` }, "aria-label": fmt(gettext("Start round 2 at table %(letter)s"), { letter }), on: { click: (ev) => DUTIES.onConfirm(meta.id, ev.currentTarget) } }, gettext("Start round 2"))
    : null,
  );
}

/** A table waiting for its relay walks, in the tiles' words. */
function walkStatus(walk) {
  return walk.arrived
    ? {
        icon: "◐",
        text: fmt(gettext("Gift %(gift)s arrived; waiting for its carrier %(name)s"), { gift: walk.mine.received, name: walk.mine.guest }),
        short: fmt(gettext("Gift %(gift)s is in"), { gift: walk.mine.received }),
        cls: "walking",
      }
    : { icon: "⇢", text: fmt(gettext("Waiting for gift %(gift)s from table %(letter)s"), { gift: walk.mine.received, letter: walk.from.table }), short: gettext("Relay gift on its way"), cls: "walking" };
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
    compactCard(payload),
    tabletsPanel(payload.table));
}

/** Pair a captain's tablet with this table (a QR code and a one-time code), and the
 * tablets paired so far, each with Unpair. */
function tabletsPanel(meta) {
  const paired = tabletsAt(meta.id);
  const pending = S.pairings.get(meta.id);
  const showing = pending && pending.until > Date.now();
  return h("section", { class: "tablets-panel", "aria-labelledby": `tablets-${meta.id}-h` },
    h("h3", { id: `tablets-${meta.id}-h`, text: fmt(gettext("Captain's tablet for table %(letter)s"), { letter: meta.letter }) }),
    paired.length
      ? h("ul", { class: "plain tablet-list" }, paired.map((t, i) => h("li", { class: "row wrap" },
          h("span", { text: fmt(gettext("✓ Tablet %(n)s paired at %(time)s"), { n: i + 1, time: clockTime(t.paired_at * 1000) }) }),
          h("button", { class: "btn small danger", type: "button", data: { key: `unpair-${t.id}` }, "aria-label": fmt(gettext("Unpair tablet %(n)s of table %(letter)s"), { n: i + 1, letter: meta.letter }),
            on: { click: (ev) => command(ev.currentTarget, "revoke_tablet", { tablet: t.id }) } }, gettext("Unpair")))))
      : h("p", { class: "hint", text: gettext("No tablet yet. The captain's duties (reveal, passing for a quiet guest once the step clock runs out, relay draw and delivery, hand-over) can run on a tablet at the table.") }),
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
    S.pairings.set(tableId, { pairing: reply.pairing, qr: reply.qr, url: reply.url, until: Date.now() + reply.minutes * 60000 });
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
      const began = quiet.what === "reaction" ? meta.window_opened_at : passFrom(view, meta) - meta.step_clock;
      const waited = {
        turn: gettext("Table %(letter)s: a turn has waited %(seconds)s s for %(names)s"),
        trim: gettext("Table %(letter)s: a discard has waited %(seconds)s s for %(names)s"),
        reaction: gettext("Table %(letter)s: a reaction has waited %(seconds)s s for %(names)s"),
        decide: gettext("Table %(letter)s: a decision has waited %(seconds)s s for %(names)s"),
      }[quiet.what];
      const names = listOf(quiet.seats.map((s) => seatName(meta, s)));
      // `sig`: what the alert says without its seconds (a new one redraws the list).
      out.push({ rank: 0, key: `pass-${meta.id}`, letter, kind: "pass", payload: t, step: quiet, version: t.version, sig: `${quiet.what}:${names}`,
        text: fmt(waited, { letter, seconds: Math.floor(now - began), names }) });
    }
    const offline = guestsAt(letter).filter((g) => !g.online);
    if (offline.length) {
      const names = listOf(offline.map((g) => g.name));
      out.push({ rank: 1, key: `off-${meta.id}`, letter, kind: "offline", sig: names,
        text: fmt(ngettext("Table %(letter)s: %(names)s is offline", "Table %(letter)s: %(names)s are offline", offline.length), { letter, names }) });
    }
    if (["action", "reaction", "trim", "reveal", "decide"].includes(view.phase) && meta.acted_at && now - meta.acted_at >= IDLE_SECONDS) {
      const who = waitingFor(view, meta);
      const minutes = Math.floor((now - meta.acted_at) / 60);
      out.push({ rank: 2, key: `idle-${meta.id}`, letter, kind: "idle", sig: `${minutes}:${who.text}`,
        text: fmt(gettext("Table %(letter)s has not moved for %(minutes)s min (%(waiting)s)"), { letter, minutes, waiting: midSentence(who.text) }) });
    }
  }
  return out.sort((a, b) => a.rank - b.rank || a.letter.localeCompare(b.letter));
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
      if (el && el.textContent !== a.text) el.textContent = a.text;
    }
    return;
  }
  box.dataset.sig = sig;
  box.hidden = !alerts.length;
  render(box,
    h("h2", { class: "sr-only", text: gettext("Needs you") }),
    h("ul", { class: "plain alert-list" }, alerts.map((a) => h("li", { class: `alert alert-${a.kind}`, data: { alert: a.key, kind: a.kind, letter: a.letter } },
      h("span", { "aria-hidden": "true", class: "alert-icon", text: { pass: "⚠", offline: "○", idle: "…" }[a.kind] }),
      h("span", { class: "alert-text", text: a.text }),
      a.kind === "pass"
        ? a.step.seats.map((seat) => h("button", {
            class: "btn small primary", type: "button", data: { key: `alert-pass-${a.payload.table.id}-${seat}`, passAfter: 0, openedAt: 0 },
            on: { click: (ev) => busy(ev.currentTarget, live.act(a.step.action(seat), { table: a.payload.table.id })) },
          }, passLabel(a.step, seatName(a.payload.table, seat))))
        : h("button", { class: "btn small", type: "button", data: { key: `alert-details-${a.key}` }, "aria-label": fmt(gettext("Details of table %(letter)s"), { letter: a.letter }),
            on: { click: () => openDetails(sortedTables().find((t) => t.table.letter === a.letter).table.id) } }, gettext("Details"))))));
  // A pass became possible: call the host once per step (a chime, the focus on its button).
  for (const a of alerts) {
    if (a.kind === "pass" && worthCalling(a.payload.view, a.payload.table)) callOnce(`${a.payload.table.id}:${a.version}`, box);
  }
}

/** The button that plays a quiet guest's step: a whole sentence per kind of step (the
 * step's own `verb` is English). */
function passLabel(step, name) {
  const label = {
    turn: gettext("Pass the turn for %(name)s"),
    trim: gettext("Discard at random for %(name)s"),
    reaction: gettext("Pass for %(name)s"),
    decide: gettext("Get out for %(name)s"),
  }[step.what];
  return label ? fmt(label, { name }) : `${step.verb} ${name}`;
}

// --- the step clock ---------------------------------------------------------------------------

const CLOCKS = [[0, pgettext("step clock", "Off")], [60, gettext("60 s")], [120, gettext("2 min")]];

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
    h("p", { class: "hint", text: gettext("How long a quiet guest's turn, reaction, discard or reveal may wait. Then the table's captain or you may play the rules' do-nothing choice for them: pass the turn, discard at random, let the move happen, start round 2.") }),
    h("div", { class: "row wrap" },
      h("label", { for: "step-clock", text: gettext("Step clock") }),
      h("select", { id: "step-clock", data: { key: "step-clock" }, on: { change: send } },
        CLOCKS.map(([v, text]) => h("option", { value: String(v), selected: v === p.step_clock }, text)))),
    h("div", { class: "check" },
      h("input", { id: "step-clock-server", type: "checkbox", checked: p.step_clock_server, data: { key: "step-clock-server" }, on: { change: send } }),
      h("label", { for: "step-clock-server", text: gettext("When it runs out, the server plays for them") })),
    p.step_clock ? null : h("p", { class: "hint", text: gettext("Off: every step waits for its guest (a reaction may still be passed after 60 s).") }));
}

// --- several tables ----------------------------------------------------------------------

function guestsAt(letter) {
  return ((S.party && S.party.guests) || []).filter((g) => g.table === letter).sort((a, b) => a.seat - b.seat);
}

function captainName(letter) {
  const c = guestsAt(letter).find((g) => g.captain);
  return c ? c.name : null;
}

/** Where a table is on its way to (or past) the gate, in words and an icon. */
function gateStatus(view) {
  if (view.phase === "over") return { icon: "■", text: gettext("Finished round 4"), short: gettext("Finished"), cls: "over" };
  if (view.phase === "gate") return { icon: "‖", text: gettext("At the gate: finished round 2"), short: gettext("At the gate"), cls: "at-gate" };
  if (view.relayed) return { icon: "✓", text: gettext("Relay done; playing on"), short: gettext("Relay done"), cls: "past" };
  if (view.gate) {
    const turn = Math.min(view.turn + 1, view.players);
    return {
      icon: "▶",
      text: fmt(gettext("Not at the gate yet: round %(round)s, turn %(turn)s of %(players)s"), { round: view.round, turn, players: view.players }),
      short: gettext("Not at the gate yet"),
      cls: "playing",
    };
  }
  return { icon: "▶", text: gettext("Playing"), short: gettext("Playing"), cls: "playing" };
}

function compactCard(payload) {
  const { view, table: meta } = payload;
  const letter = meta.letter;
  const guests = guestsAt(letter);
  const bySeat = new Map(guests.map((g) => [g.seat, g]));
  const offline = guests.filter((g) => !g.online);
  const captain = guests.find((g) => g.captain);
  const relay = S.party.relay;
  const walk = view.phase === "gate" ? walkOf(relay, letter) : null;
  // After the relay ran, a table at the gate waits for its walks (docs/RULES.md).
  const gate = walk ? { icon: "⇢", text: walkText(relay, letter), cls: "walking" } : gateStatus(view);
  const waiting = new Set(view.window ? view.window.waiting : []);
  let relayLine = null;
  if (walk && !walk.arrived) {
    relayLine = h("p", { class: "relay-line walking" },
      h("button", { class: "btn small", type: "button", data: { key: `arrived-${meta.id}` }, "aria-label": fmt(gettext("Gift %(gift)s has arrived at table %(letter)s"), { gift: walk.mine.received, letter }),
        text: fmt(gettext("Gift %(gift)s arrived"), { gift: walk.mine.received }),
        on: { click: (ev) => giftArrived(walk.mine, ev.currentTarget) } }));
  }
  if (view.phase === "gate" && relay && relay.status === "open") {
    if (view.relay_seat === null) {
      relayLine = h("p", { class: "relay-line pending" },
        h("span", { "aria-hidden": "true", text: "○ " }),
        captain ? fmt(gettext("Relay seat not drawn yet (captain %(name)s)"), { name: captain.name }) : gettext("Relay seat not drawn yet"), " ",
        h("button", { class: "btn small", type: "button", data: { key: `draw-${meta.id}` }, "aria-label": fmt(gettext("Draw the relay seat for table %(letter)s"), { letter }), text: gettext("Draw the relay seat"),
          on: { click: (ev) => busy(ev.currentTarget, live.act({ type: "draw_relay_seat" }, { table: meta.id })) } }));
    } else {
      const r = meta.roster[view.relay_seat];
      relayLine = h("p", { class: "relay-line done" }, h("span", { "aria-hidden": "true", text: "✓ " }),
        fmt(gettext("Drawn seat: %(name)s (seat %(seat)s, gift %(gift)s)"), { name: r ? r.name : "", seat: view.relay_seat + 1, gift: giftLabel(view.seats[view.relay_seat].gift) }));
    }
  }
  return h(
    "article",
    {
      class: `panel table compact-table phase-${view.phase}`,
      "aria-labelledby": `table-${meta.id}-h`,
      data: { tableId: meta.id, letter, version: payload.version, phase: view.phase, round: view.round },
    },
    h("h2", { id: `table-${meta.id}-h` },
      h("span", { class: "table-letter", text: fmt(gettext("Table %(letter)s"), { letter }) }), " ",
      h("span", { class: "round", text: `· ${roundTitle(view)}` })),
    h("p", { class: `gate-status ${gate.cls}` }, h("span", { "aria-hidden": "true", text: `${gate.icon} ` }), gate.text),
    h("p", { class: "status-line", text: statusLine(view, meta) }),
    windowBox(view, meta, DUTIES),
    view.phase === "reveal"
      ? h("button", { class: "btn primary", type: "button", data: { key: `reveal-${meta.id}` }, on: { click: (ev) => DUTIES.onConfirm(meta.id, ev.currentTarget) } }, fmt(gettext("Everyone at table %(letter)s unwrapped — start round 2"), { letter }))
      : null,
    relayLine,
    h("p", { class: "captain-line" }, h("span", { "aria-hidden": "true", text: "⚑ " }), captain ? fmt(gettext("Captain: %(name)s"), { name: captain.name }) : gettext("No captain")),
    h("p", { class: `presence-line ${offline.length ? "some-off" : "all-on"}`, role: "status" },
      h("span", { "aria-hidden": "true", text: offline.length ? "○ " : "● " }),
      offline.length ? fmt(gettext("Disconnected: %(names)s"), { names: listOf(offline.map((g) => g.name)) }) : gettext("Everyone connected")),
    h("ol", { class: "seats compact", "aria-label": fmt(gettext("Seats at table %(letter)s"), { letter }) },
      view.seats.map((s) => {
        const g = bySeat.get(s.seat);
        const name = g ? g.name : (meta.roster[s.seat] || {}).name || fmt(gettext("Seat %(seat)s"), { seat: s.seat + 1 });
        const marks = [];
        if (g && g.captain) marks.push(h("span", { class: "mark captain" }, h("span", { "aria-hidden": "true", text: "⚑ " }), gettext("captain")));
        if (g && !g.online) marks.push(h("span", { class: "mark offline" }, h("span", { "aria-hidden": "true", text: "○ " }), gettext("offline")));
        if (view.active === s.seat && view.phase !== "over") marks.push(h("span", { class: "mark turn" }, h("span", { "aria-hidden": "true", text: "▶ " }), pgettext("seat mark", "turn")));
        if (waiting.has(s.seat)) marks.push(h("span", { class: "mark asked" }, h("span", { "aria-hidden": "true", text: "? " }), gettext("being asked")));
        if ((view.trims || {})[String(s.seat)]) marks.push(h("span", { class: "mark trim" }, h("span", { "aria-hidden": "true", text: "✂ " }), gettext("discarding")));
        if (view.relay_seat === s.seat && !view.relayed) marks.push(h("span", { class: "mark relay" }, h("span", { "aria-hidden": "true", text: "⇄ " }), pgettext("seat mark", "relay")));
        return h("li", { class: `seat${view.active === s.seat ? " active" : ""}`, data: { seat: s.seat, guest: g ? g.id : null } },
          h("span", { class: "seat-no", text: `${s.seat + 1}` }),
          h("span", { class: "seat-main" },
            h("strong", { class: "seat-name", text: name }),
            h("span", { class: "seat-gift" }, h("span", { class: "gift-tag", text: fmt(gettext("gift %(gift)s"), { gift: giftLabel(s.gift) }) }), s.open && s.description ? ` ${s.description}` : ""),
            marks.length ? h("span", { class: "marks" }, marks) : null,
            g ? seatActions(g, fmt(gettext("Make %(name)s captain of table %(letter)s"), { name: g.name, letter })) : null),
          h("span", { class: "seat-cards", "aria-label": fmt(ngettext("%(n)s card in hand", "%(n)s cards in hand", s.cards), { n: s.cards }) }, h("span", { "aria-hidden": "true", text: "🂠 " }), `${s.cards}`));
      })),
    vaultList(view),
    h("details", { class: "table-log" }, h("summary", { text: fmt(gettext("What happened at table %(letter)s"), { letter }) }), eventLog(S.logs.get(meta.id)) || h("p", { class: "hint", text: gettext("Nothing yet.") })),
  );
}

function drawPartyBar() {
  const p = S.party;
  const bar = document.getElementById("party-bar");
  // Only while the tables play: at the end the result says it all.
  if (!p || p.status !== "playing" || !isMultiTable(p) || ROYAL) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  const relay = p.relay;
  const payloads = sortedTables();
  const gate = gateSeen(p, payloads);
  const parts = [];
  if (!relay) {
    const behind = payloads.filter((t) => t.view.phase !== "gate");
    const progress = gateProgress(payloads);
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
        ? h("p", { class: "gate-waiting" }, h("strong", { text: gettext("Everyone waits for: ") }),
            behind.map((t) => fmt(t.view.phase === "reveal"
              ? gettext("%(letter)s (unwrapping after round 1)")
              : gettext("%(letter)s (round %(round)s, turn %(turn)s of %(players)s)"),
            { letter: t.table.letter, round: t.view.round, turn: Math.min(t.view.turn + 1, t.view.players), players: t.view.players })).join(" · "))
        : h("p", { class: "gate-waiting", text: gettext("Every table finished round 2. Open the relay and announce the order; each captain draws a seat.") }),
    );
  } else {
    parts.push(h("div", { class: "gate-row" },
      h("h2", { id: "party-bar-h", class: "bar-title", text: gettext("The relay") }),
      ringLine(relay, "ring"),
      relay.status === "done"
        ? h("p", { class: "gate-count done", role: "status" }, h("span", { "aria-hidden": "true", text: "✓ " }), gettext("The relay has run: every table plays rounds 3 and 4."))
        : null));
    if (relay.status === "walk") {
      const count = walkCount(relay);
      parts.push(
        h("p", { class: "gate-count walking", role: "status" }, h("span", { "aria-hidden": "true", text: "⇢ " }),
          fmt(ngettext("The carriers are walking: %(arrived)s of %(gifts)s gift arrived. Each table plays round 3 once its gift is in and its own carrier has delivered.",
            "The carriers are walking: %(arrived)s of %(gifts)s gifts arrived. Each table plays round 3 once its gift is in and its own carrier has delivered.", count.gifts),
          { arrived: count.arrived, gifts: count.gifts })),
        walkList(relay, giftArrived),
        h("button", {
          class: "btn", type: "button", id: "all-arrived", data: { key: "all-arrived" },
          on: { click: (ev) => partyCommand(ev.currentTarget, "confirm_all_deliveries") },
        }, gettext("Every gift has arrived — start round 3 everywhere")),
        h("details", { class: "relay-details" }, h("summary", { text: gettext("What the relay moves") }), relayResultList(relay)),
      );
    } else if (relay.status === "open") {
      const drawn = payloads.filter((t) => t.view.relay_seat !== null && t.view.relay_seat !== undefined).length;
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
  if (ROYAL) { // no gifts: every guest's jewels across the tables, the winners, the champions
    render(box,
      h("h2", { id: "result-h", text: gettext("The party's result") }),
      renderResult(p.result, { actions: h("p", { class: "r-actions" }, csvButton(), " ", storyLink(code, { text: ROYAL_STORY })) }));
    return;
  }
  render(box,
    h("h2", { id: "result-h", text: gettext("The party's result") }),
    h("p", { text: gettext("Everyone keeps the gift in front of them; leftover vault gifts go back to their contributors.") }),
    csvButton(),
    partyResultTables(p.result));
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
    const link = h("a", { href: url, download: `${ROYAL ? "royal" : "yankee"}-heist-${code}.csv`, hidden: true });
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

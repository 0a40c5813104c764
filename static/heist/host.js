// Host dashboard: the lobby filling live, vault gifts, dealing, then every table. With
// several tables: a compact card per table, the party bar (the gate, the relay ring,
// the captains' draws, running the relay and what it moved), and the party's result
// with a CSV download.
import { Live } from "./live.js";
import { drawnSeatList, gateText, isMultiTable, partyResultTables, relayResultList, ringLine } from "./party.js";
import { eventLog, noteEvents, roundTitle, statusLine, tableCard, vaultList, windowBox } from "./tableview.js";
import { giftLabel, h, render, showError, startClocks, tickClocks, toast } from "./ui.js";

const app = document.getElementById("app");
const code = app.dataset.code;
const token = localStorage.getItem(`heist.host.${code}`);

const state = {
  party: null,
  tables: new Map(), // table id -> latest public payload
  logs: new Map(), // table id -> event lines
  editing: null, // {id, draft} while renaming a guest
  removing: null, // guest id awaiting a second tap
  claims: new Map(), // guest id -> {claim, until} one-time hand-over codes we asked for
  partyError: null, // the server's last refusal of a relay command, shown in the party bar
};

if (!token) {
  document.getElementById("no-access").hidden = false;
} else {
  document.getElementById("host").hidden = false;
  const live = new Live({
    code,
    role: "host",
    token,
    onSnapshot(snap) {
      state.party = snap.party;
      state.tables = new Map(snap.tables.map((t) => [t.table.id, t]));
      draw();
    },
    onTable(msg) {
      state.tables.set(msg.table.id, msg);
      noteEvents(state.logs, msg);
      drawTables();
    },
    onParty(party, role) {
      if (role !== "host") return; // the public copy has no roster
      state.party = party;
      draw();
    },
    onNotice(msg) {
      toast(msg.message, "ok"); // hand-overs at any table, as they happen
    },
    onPresence(guestId, online) {
      const g = state.party && (state.party.guests || []).find((x) => x.id === guestId);
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
  // Online marks change without any party message: refresh them now and then.
  setInterval(() => { if (live.ready && document.visibilityState === "visible") live.resync(); }, 20000);

  const busy = (button, promise) => {
    if (button) { button.disabled = true; button.dataset.busy = "1"; }
    // Resolves true when the server said ok, false after showing its error.
    return promise.then(() => true, (err) => { showError(err); return false; }).finally(() => {
      if (button) { button.disabled = false; delete button.dataset.busy; }
    });
  };

  const command = (button, name, args) => busy(button, live.party(name, args));

  // --- lobby -----------------------------------------------------------------------------

  function guestRow(g, seated) {
    const online = g.online
      ? h("span", { class: "presence on" }, h("span", { "aria-hidden": "true", text: "● " }), "online")
      : h("span", { class: "presence off" }, h("span", { "aria-hidden": "true", text: "○ " }), "offline");
    const place = g.table ? h("span", { class: "hint", text: `table ${g.table}, seat ${g.seat + 1}` }) : null;
    const captain = g.captain ? h("span", { class: "mark captain" }, h("span", { "aria-hidden": "true", text: "⚑ " }), "captain") : null;
    let actions;
    if (state.editing && state.editing.id === g.id) {
      const input = h("input", {
        id: `rename-${g.id}`,
        value: state.editing.draft,
        maxlength: 40,
        "aria-label": `New name for ${g.name}`,
        data: { key: `rename-input-${g.id}` },
        on: { input: (ev) => { state.editing.draft = ev.target.value; } },
      });
      actions = h(
        "form",
        {
          class: "row",
          on: {
            submit: (ev) => {
              ev.preventDefault();
              const name = state.editing.draft.trim();
              command(ev.submitter, "rename_guest", { guest: g.id, name }).then((ok) => { if (ok) { state.editing = null; draw(); } });
            },
          },
        },
        input,
        h("button", { class: "btn small primary", type: "submit", text: "Save" }),
        h("button", { class: "btn small", type: "button", text: "Cancel", on: { click: () => { state.editing = null; draw(); } } }),
      );
      setTimeout(() => { if (document.activeElement === document.body) input.focus(); });
    } else if (!seated) {
      actions = h(
        "span",
        { class: "row" },
        h("button", {
          class: "btn small", type: "button", text: "Rename", "aria-label": `Rename ${g.name}`, data: { key: `rename-${g.id}` },
          on: { click: () => { state.editing = { id: g.id, draft: g.name }; state.removing = null; draw(); } },
        }),
        state.removing === g.id
          ? [
              h("button", { class: "btn small danger", type: "button", text: `Really remove ${g.name}?`, data: { key: `remove-yes-${g.id}` }, on: { click: (ev) => command(ev.currentTarget, "remove_guest", { guest: g.id }).then((ok) => { if (ok) state.removing = null; }) } }),
              h("button", { class: "btn small", type: "button", text: "Keep", on: { click: () => { state.removing = null; draw(); } } }),
            ]
          : h("button", { class: "btn small", type: "button", text: "Remove", "aria-label": `Remove ${g.name}`, data: { key: `remove-${g.id}` }, on: { click: () => { state.removing = g.id; draw(); } } }),
      );
    } else {
      actions = seatActions(g, `Make ${g.name} the table captain`);
    }
    return h(
      "li",
      { class: `guest ${g.online ? "online" : "offline"}`, data: { guest: g.id } },
      h("span", { class: "gift-badge", "aria-label": `gift ${g.gift_number}`, text: String(g.gift_number) }),
      h("span", { class: "guest-main" }, h("strong", { class: "guest-name", text: g.name }), " ", online, " ", place, " ", captain),
      actions,
    );
  }

  /** Make captain / Hand over seat for a seated guest, and the claim code once asked. */
  function seatActions(g, captainLabel) {
    const claim = state.claims.get(g.id);
    return h(
      "span",
      { class: "row wrap seat-actions" },
      g.captain ? null : h("button", { class: "btn small", type: "button", text: "Make captain", "aria-label": captainLabel, data: { key: `captain-${g.id}` }, on: { click: (ev) => command(ev.currentTarget, "set_captain", { guest: g.id }) } }),
      h("button", {
        class: "btn small", type: "button", text: "Hand over seat", "aria-label": `Hand ${g.name}'s seat to a substitute`, data: { key: `handover-${g.id}` },
        on: { click: (ev) => {
          const button = ev.currentTarget;
          button.disabled = true;
          live.party("hand_over_seat", { guest: g.id }).then((reply) => {
            state.claims.set(g.id, { claim: reply.claim, until: Date.now() + reply.minutes * 60000 });
            draw();
          }, showError).finally(() => { button.disabled = false; });
        } },
      }),
      claim && claim.until > Date.now()
        ? h("span", { class: "claim", role: "status" }, "Hand-over code ", h("strong", { class: "code-inline", text: claim.claim }),
            ` — the substitute opens the join page, taps “Taking over a seat?” and types it (valid until ${new Date(claim.until).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}).`)
        : null,
    );
  }

  function draw() {
    const p = state.party;
    if (!p) return;
    const seated = p.status !== "lobby";
    const guests = p.guests || [];
    document.getElementById("party-status").textContent =
      p.status === "lobby" ? (p.registration_open ? "· guests are joining" : "· registration closed") : p.status === "playing" ? "· playing" : "· over";
    document.getElementById("guest-count").textContent = `(${guests.length})`;
    // The simulator's estimate for the guests so far (docs/SIMULATION.md), lobby only.
    const est = document.getElementById("party-estimate");
    est.hidden = seated || !p.estimate;
    if (p.estimate) {
      const e = p.estimate;
      est.textContent = `Estimated party length: ${e.low}–${e.high} min (${e.guests} guests, ${e.tables} table${e.tables > 1 ? "s" : ""}).`;
    }
    render(
      document.getElementById("roster"),
      guests.length ? guests.map((g) => guestRow(g, seated)) : h("li", { class: "hint", text: "Nobody yet. Share the code or the QR code." }),
    );
    const controls = [];
    if (!seated) {
      controls.push(
        p.registration_open
          ? h("button", { class: "btn", type: "button", text: "Close registration", data: { key: "close-reg" }, on: { click: (ev) => command(ev.currentTarget, "close_registration") } })
          : h("button", { class: "btn", type: "button", text: "Reopen registration", data: { key: "open-reg" }, on: { click: (ev) => command(ev.currentTarget, "reopen_registration") } }),
        h("button", {
          class: "btn primary big", type: "button", id: "deal", data: { key: "deal" },
          text: guests.length < 2 ? "Deal the cards (needs 2 guests)" : `Deal the cards (${guests.length} players)`,
          disabled: guests.length < 2,
          on: { click: (ev) => command(ev.currentTarget, "seat").then((ok) => ok && toast("Cards dealt. Everyone takes the gift their phone shows.", "ok")) },
        }),
      );
    }
    render(document.getElementById("lobby-controls"), controls);
    document.getElementById("join-panel").classList.toggle("compact", seated);
    // Several tables: each table's card lists its guests, with their actions.
    document.getElementById("lobby").hidden = seated && isMultiTable(p);

    const vaultPanel = document.getElementById("vault-panel");
    vaultPanel.hidden = !(p.vault_size > 0);
    if (p.vault_size > 0) {
      render(
        document.getElementById("vault-list"),
        (p.vault_gifts || []).map((v) =>
          h("li", {}, h("span", { class: "gift-tag", text: v.label }), ` from ${v.contributor}`, v.table ? ` — table ${v.table}` : "",
            seated ? null : h("button", { class: "btn small", type: "button", text: "Remove", "aria-label": `Remove vault gift ${v.label}`, on: { click: (ev) => command(ev.currentTarget, "remove_vault_gift", { number: v.number }) } })),
        ),
      );
      document.getElementById("vault-form").hidden = seated;
    }
    drawTables();
    drawResult();
  }

  function sortedTables() {
    return [...state.tables.values()].sort((a, b) => a.table.letter.localeCompare(b.table.letter));
  }

  function drawTables() {
    const p = state.party;
    const multi = isMultiTable(p);
    const duties = {
      duty: true,
      // Naming the window: a pass tapped as the window closed never passes the next one.
      onPass: (table, seat, button, window) => busy(button, live.act({ type: "timeout_pass", seat, window }, { table })),
      onConfirm: (table, button) => busy(button, live.act({ type: "confirm_reveal" }, { table })),
    };
    const cards = sortedTables().map((t) => (multi ? compactCard(t, duties) : tableCard(t, state.logs.get(t.table.id), duties)));
    const box = document.getElementById("tables");
    box.classList.toggle("compact", multi);
    render(box, cards);
    drawPartyBar();
    tickClocks();
  }

  // --- several tables ----------------------------------------------------------------------

  function guestsAt(letter) {
    return ((state.party && state.party.guests) || []).filter((g) => g.table === letter).sort((a, b) => a.seat - b.seat);
  }

  function captainName(letter) {
    const c = guestsAt(letter).find((g) => g.captain);
    return c ? c.name : null;
  }

  /** Where a table is on its way to (or past) the gate, in words and an icon. */
  function gateStatus(view) {
    if (view.phase === "over") return { icon: "■", text: "Finished round 4", cls: "over" };
    if (view.phase === "gate") return { icon: "‖", text: "At the gate: finished round 2", cls: "at-gate" };
    if (view.relayed) return { icon: "✓", text: "Relay done; playing on", cls: "past" };
    if (view.gate) {
      const turn = Math.min(view.turn + 1, view.players);
      return { icon: "▶", text: `Not at the gate yet: round ${view.round}, turn ${turn} of ${view.players}`, cls: "playing" };
    }
    return { icon: "▶", text: "Playing", cls: "playing" };
  }

  function compactCard(payload, duties) {
    const { view, table: meta } = payload;
    const letter = meta.letter;
    const guests = guestsAt(letter);
    const bySeat = new Map(guests.map((g) => [g.seat, g]));
    const offline = guests.filter((g) => !g.online);
    const captain = guests.find((g) => g.captain);
    const gate = gateStatus(view);
    const waiting = new Set(view.window ? view.window.waiting : []);
    const relay = state.party.relay;
    let relayLine = null;
    if (view.phase === "gate" && relay && relay.status === "open") {
      if (view.relay_seat === null) {
        relayLine = h("p", { class: "relay-line pending" },
          h("span", { "aria-hidden": "true", text: "○ " }), `Relay seat not drawn yet${captain ? ` (captain ${captain.name})` : ""} `,
          h("button", { class: "btn small", type: "button", data: { key: `draw-${meta.id}` }, "aria-label": `Draw the relay seat for table ${letter}`, text: "Draw the relay seat",
            on: { click: (ev) => busy(ev.currentTarget, live.act({ type: "draw_relay_seat" }, { table: meta.id })) } }));
      } else {
        const r = meta.roster[view.relay_seat];
        relayLine = h("p", { class: "relay-line done" }, h("span", { "aria-hidden": "true", text: "✓ " }),
          `Drawn seat: ${r ? r.name : ""} (seat ${view.relay_seat + 1}, gift ${giftLabel(view.seats[view.relay_seat].gift)})`);
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
        h("span", { class: "table-letter", text: `Table ${letter}` }), " ",
        h("span", { class: "round", text: `· ${roundTitle(view)}` })),
      h("p", { class: `gate-status ${gate.cls}` }, h("span", { "aria-hidden": "true", text: `${gate.icon} ` }), gate.text),
      h("p", { class: "status-line", text: statusLine(view, meta) }),
      windowBox(view, meta, duties),
      view.phase === "reveal"
        ? h("button", { class: "btn primary", type: "button", data: { key: `reveal-${meta.id}` }, on: { click: (ev) => duties.onConfirm(meta.id, ev.currentTarget) } }, `Everyone at table ${letter} unwrapped — start round 2`)
        : null,
      relayLine,
      h("p", { class: "captain-line" }, h("span", { "aria-hidden": "true", text: "⚑ " }), captain ? `Captain: ${captain.name}` : "No captain"),
      h("p", { class: `presence-line ${offline.length ? "some-off" : "all-on"}`, role: "status" },
        h("span", { "aria-hidden": "true", text: offline.length ? "○ " : "● " }),
        offline.length ? `Disconnected: ${offline.map((g) => g.name).join(", ")}` : "Everyone connected"),
      h("ol", { class: "seats compact", "aria-label": `Seats at table ${letter}` },
        view.seats.map((s) => {
          const g = bySeat.get(s.seat);
          const name = g ? g.name : (meta.roster[s.seat] || {}).name || `Seat ${s.seat + 1}`;
          const marks = [];
          if (g && g.captain) marks.push(h("span", { class: "mark captain" }, h("span", { "aria-hidden": "true", text: "⚑ " }), "captain"));
          if (g && !g.online) marks.push(h("span", { class: "mark offline" }, h("span", { "aria-hidden": "true", text: "○ " }), "offline"));
          if (view.active === s.seat && view.phase !== "over") marks.push(h("span", { class: "mark turn" }, h("span", { "aria-hidden": "true", text: "▶ " }), "turn"));
          if (waiting.has(s.seat)) marks.push(h("span", { class: "mark asked" }, h("span", { "aria-hidden": "true", text: "? " }), "being asked"));
          if ((view.trims || {})[String(s.seat)]) marks.push(h("span", { class: "mark trim" }, h("span", { "aria-hidden": "true", text: "✂ " }), "discarding"));
          if (view.relay_seat === s.seat && !view.relayed) marks.push(h("span", { class: "mark relay" }, h("span", { "aria-hidden": "true", text: "⇄ " }), "relay"));
          return h("li", { class: `seat${view.active === s.seat ? " active" : ""}`, data: { seat: s.seat, guest: g ? g.id : null } },
            h("span", { class: "seat-no", text: `${s.seat + 1}` }),
            h("span", { class: "seat-main" },
              h("strong", { class: "seat-name", text: name }),
              h("span", { class: "seat-gift" }, h("span", { class: "gift-tag", text: `gift ${giftLabel(s.gift)}` }), s.open && s.description ? ` ${s.description}` : ""),
              marks.length ? h("span", { class: "marks" }, marks) : null,
              g ? seatActions(g, `Make ${g.name} captain of table ${letter}`) : null),
            h("span", { class: "seat-cards", "aria-label": `${s.cards} cards in hand` }, h("span", { "aria-hidden": "true", text: "🂠 " }), `${s.cards}`));
        })),
      vaultList(view),
      h("details", { class: "table-log" }, h("summary", { text: `What happened at table ${letter}` }), eventLog(state.logs.get(meta.id)) || h("p", { class: "hint", text: "Nothing yet." })),
    );
  }

  function drawPartyBar() {
    const p = state.party;
    const bar = document.getElementById("party-bar");
    if (!p || p.status === "lobby" || !isMultiTable(p)) {
      bar.hidden = true;
      return;
    }
    bar.hidden = false;
    const gate = p.gate;
    const relay = p.relay;
    const payloads = sortedTables();
    const parts = [
      h("h2", { id: "party-bar-h", text: "The gate and the relay" }),
      relay && relay.status === "done"
        ? h("p", { class: "gate-count done", role: "status" }, h("span", { "aria-hidden": "true", text: "✓ " }), "The relay has run: every table plays rounds 3 and 4.")
        : h("p", { class: `gate-count ${gate.open ? "open" : ""}`, role: "status" },
          h("span", { "aria-hidden": "true", text: gate.open ? "✓ " : "‖ " }), gateText(p)),
    ];
    if (!relay) {
      parts.push(
        h("p", { class: "hint", text: gate.open
          ? "Every table finished round 2. Open the relay, then announce the order; each captain draws a seat."
          : "Each table plays rounds 1 and 2, then waits here. The relay opens when every table is at the gate." }),
        h("button", {
          class: "btn primary big", type: "button", id: "open-relay", data: { key: "open-relay" }, disabled: !gate.open,
          on: { click: (ev) => partyCommand(ev.currentTarget, "open_relay") },
        }, gate.open ? "Open the relay" : `Open the relay (waiting for ${gate.tables - gate.at_gate} more table${gate.tables - gate.at_gate === 1 ? "" : "s"})`),
      );
    } else {
      parts.push(h("h3", { text: "Relay order" }), ringLine(relay, "ring big-ring"));
      if (relay.status === "open") {
        const drawn = payloads.filter((t) => t.view.relay_seat !== null && t.view.relay_seat !== undefined).length;
        const all = drawn === relay.ring.length;
        parts.push(
          h("p", { class: "hint", text: "Announce the order. Each table captain taps “Draw the relay seat” on their phone." }),
          drawnSeatList(relay, payloads, captainName),
          h("button", {
            class: "btn primary big", type: "button", id: "run-relay", data: { key: "run-relay" }, disabled: !all,
            on: { click: (ev) => partyCommand(ev.currentTarget, "run_relay") },
          }, all ? "Run the relay" : `Run the relay (${relay.ring.length - drawn} table${relay.ring.length - drawn === 1 ? "" : "s"} still to draw)`),
        );
      } else {
        parts.push(
          h("h3", { id: "relay-result-h", text: "The relay moved these gifts" }),
          relayResultList(relay),
          h("p", { class: "hint", text: "Each drawn player carries their gift to the next table at the same moment. Then every table plays rounds 3 and 4." }),
        );
      }
    }
    // A refusal stands until the party moves on (its revision changes).
    if (state.partyError && state.partyError.revision === p.revision) parts.push(h("p", { class: "form-error", role: "alert", text: state.partyError.message }));
    render(bar, parts);
  }

  /** A relay command: its refusal stays in the party bar (and a toast). */
  function partyCommand(button, name) {
    state.partyError = null;
    return busy(button, live.party(name).catch((err) => {
      state.partyError = { message: err.message.charAt(0).toUpperCase() + err.message.slice(1), revision: state.party.revision };
      throw err;
    })).then((ok) => { drawPartyBar(); return ok; });
  }

  // --- the end -------------------------------------------------------------------------------

  function drawResult() {
    const p = state.party;
    const box = document.getElementById("result");
    if (!p || !p.result || !p.result.over) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    render(box,
      h("h2", { id: "result-h", text: "The party's result" }),
      h("p", { text: "Everyone keeps the gift in front of them; leftover vault gifts go back to their contributors." }),
      h("button", { class: "btn primary", type: "button", id: "download-csv", data: { key: "csv" }, on: { click: (ev) => downloadCsv(ev.currentTarget) } }, "Download CSV"),
      partyResultTables(p.result));
  }

  /** Fetch the CSV with the host key in the Authorization header (never in a URL) and
   * save it through a Blob and a download link. */
  async function downloadCsv(button) {
    button.disabled = true;
    try {
      const res = await fetch(`/api/parties/${encodeURIComponent(code)}/result.csv`, { headers: { Authorization: `Bearer ${token}` } });
      if (!res.ok) {
        const data = await res.json().catch(() => ({}));
        throw new Error(data.message || `the server refused the download (${res.status})`);
      }
      const url = URL.createObjectURL(await res.blob());
      const link = h("a", { href: url, download: `yankee-heist-${code}.csv`, hidden: true });
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

  document.getElementById("vault-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const contributor = document.getElementById("vault-contributor");
    const description = document.getElementById("vault-description");
    command(ev.submitter, "add_vault_gift", { contributor: contributor.value.trim(), description: description.value.trim() }).then((ok) => {
      if (!ok) return;
      contributor.value = "";
      description.value = "";
    });
  });
}

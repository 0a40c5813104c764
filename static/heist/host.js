// Host dashboard: the lobby filling live, vault gifts, dealing, then every table.
import { Live } from "./live.js";
import { noteEvents, tableCard } from "./tableview.js";
import { h, render, showError, startClocks, tickClocks, toast } from "./ui.js";

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
      const claim = state.claims.get(g.id);
      actions = h(
        "span",
        { class: "row wrap" },
        g.captain ? null : h("button", { class: "btn small", type: "button", text: "Make captain", "aria-label": `Make ${g.name} the table captain`, on: { click: (ev) => command(ev.currentTarget, "set_captain", { guest: g.id }) } }),
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
    return h(
      "li",
      { class: `guest ${g.online ? "online" : "offline"}`, data: { guest: g.id } },
      h("span", { class: "gift-badge", "aria-label": `gift ${g.gift_number}`, text: String(g.gift_number) }),
      h("span", { class: "guest-main" }, h("strong", { class: "guest-name", text: g.name }), " ", online, " ", place, " ", captain),
      actions,
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
  }

  function drawTables() {
    const cards = [...state.tables.values()]
      .sort((a, b) => a.table.letter.localeCompare(b.table.letter))
      .map((t) =>
        tableCard(t, state.logs.get(t.table.id), {
          duty: true,
          onPass: (table, seat, button) => busy(button, live.act({ type: "timeout_pass", seat }, { table })),
          onConfirm: (table, button) => busy(button, live.act({ type: "confirm_reveal" }, { table })),
        }),
      );
    render(document.getElementById("tables"), cards);
    tickClocks();
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

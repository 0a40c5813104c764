// Yankee Heist on a guest's phone (the phone module: static/heist/play.js is its shell
// and says what `mount` returns): lobby, then your gift, your hand, your turn, reaction
// and trim prompts, the reveal and the end; a captain's duties at their table.
//
// One module in the screens' style: constants, one state object `S`, small named
// functions that draw from it, and `mount()` at the bottom.
import { cue } from "../heist/awake.js";
import { relayEntry, relayRan, ringLine, walkOf, walkText } from "../heist/party.js";
import { storyLink } from "../heist/story-link.js";
import { eventLog, giftWord, noteEvents, resultList, roundTitle, seatList, statusLine, vaultList, windowBox } from "./tableview.js";
import { standInBox } from "../heist/standin.js";
import { TablePresence, offlineMark } from "../heist/presence.js";
import { fill, fmt, h, listText, namer, render, rules, seatName, showError, tickClocks, titleAlert, toast, track } from "../heist/ui.js";
import { cardFace, describeMove, giftLabel, relayWords, targetCount } from "./words.js";
import { sentence } from "../heist/ui.js"; // names may end in a full stop ("Jo A.")

const PARTY_NAME = document.title;

let code = "";
let root = null;

const S = {
  me: null,
  party: null,
  seat: null, // latest `table` payload with this seat's view
  logs: new Map(),
  ui: freshUi(),
  promptKey: null,
  sentVersion: null, // an action is on its way for this version: keep the controls busy
  sending: false,
  fatal: null,
  announced: "",
  claims: new Map(), // guest id -> {claim, until}: hand-over codes this captain asked for
  openHandover: false,
  alerted: "", // the prompt we last buzzed for
  takesHome: null, // at the end: what this guest takes home besides their gift (the snapshot's takes_home)
};

function freshUi() {
  // mode: play | swipe | regroup | vault; card: the card being played; picks: cards
  // chosen for swipe/regroup/vault/trim; target/gift: swipe target, vault gift.
  return { mode: "play", card: null, targets: [], extra: null, direction: null, picks: [], target: null, gift: null };
}

let live = null;
const presence = new TablePresence(); // a captain's: who at the table is not connected

/** The screen the shell feeds (static/heist/play.js). */
const SCREEN = {
  snapshot(snap) {
    S.me = snap.me;
    S.party = snap.party;
    S.takesHome = snap.takes_home || null;
    presence.snapshot(snap); // a captain's snapshot names them (nobody else's)
    if (snap.table) S.seat = snap.table;
    else S.seat = null;
    draw();
  },
  table(msg) {
    S.seat = msg;
    noteEvents(S.logs, msg, msg.view.you);
    draw();
  },
  party(party) {
    // (The party's end: the shell resyncs, and the snapshot lists what this guest takes home.)
    S.party = { ...(S.party || {}), ...party };
    draw(); // the gate count and the relay show on the seated screen too
  },
  notice(msg) {
    toast(msg.message, "ok"); // every seat at the table sees hand-overs happen
  },
  presence(guest, online) {
    if (presence.update(guest, online)) draw();
  },
  fatal(closeCode, message) {
    S.fatal = message;
    draw();
  },
  draw,
};

// --- sending ---------------------------------------------------------------------------------

function send(action) {
  const view = S.seat.view;
  S.sending = true;
  S.sentVersion = view.version;
  draw();
  track(live.act(action, { version: view.version }), gettext("Sending your move"))
    .then(
      () => {},
      (err) => {
        S.sentVersion = null;
        showError(err);
      },
    )
    .finally(() => {
      S.sending = false;
      draw();
    });
}

function duty(action, button, label) {
  button.disabled = true;
  button.dataset.busy = "1";
  track(live.act(action, { version: S.seat.version }), label || gettext("Sending")).catch(showError).finally(() => {
    button.disabled = false;
    delete button.dataset.busy;
  });
}

function busy() {
  return S.sending || (S.seat && S.sentVersion === S.seat.view.version);
}

// --- drawing ---------------------------------------------------------------------------------

function draw() {
  if (S.fatal) {
    render(
      root,
      h("section", { class: "panel", role: "alert" },
        h("h1", { text: gettext("You're not at this table any more") }),
        h("p", { text: S.fatal }),
        fatalNext()),
    );
    return;
  }
  if (!S.me) return;
  if (!S.seat) {
    drawLobby();
    return;
  }
  const { view, table: meta } = S.seat;
  const key = `${view.phase}:${view.round}:${view.turn}:${view.must_trim}:${view.asked}`;
  if (key !== S.promptKey) {
    S.promptKey = key;
    S.ui = freshUi();
  }
  if (S.sentVersion !== null && S.sentVersion !== view.version) S.sentVersion = null;
  const handIds = new Set(view.hand.map((c) => c.id));
  S.ui.picks = S.ui.picks.filter((id) => handIds.has(id));

  const prompt = promptFor(view, meta);
  const relay = relayPanel(view, meta);
  render(
    root,
    // Under the shell's head (the table, the seat, the guest: play.js): the round and,
    // on a wider screen, who does the captain's duties here.
    h("p", { class: "seat-sub hint" }, h("span", { text: roundTitle(view) }),
      h("span", { class: "captain-name" }, " · ", h("span", { "aria-hidden": "true", text: "⚑ " }), captainWords(meta))),
    relay,
    prompt,
    S.me.captain ? captainPanel(view, meta) : null,
    view.phase === "over" ? null : giftPanel(view),
    prompt.dataset.usesHand || view.phase === "over" ? null : handPanel(view),
    h("section", { class: "panel", "aria-labelledby": "table-h", data: { version: S.seat.version } },
      h("h2", { id: "table-h", text: fmt(gettext("Table %(letter)s"), { letter: meta.letter }) }),
      h("p", { class: "status-line", text: statusLine(view, meta, view.you) }),
      windowBox(view, meta, { mySeat: view.you, duty: S.me.captain, onPass: (_t, seat, button, window) => duty({ type: "timeout_pass", seat, window }, button) }),
      resultList(view, meta, { mySeat: view.you }),
      seatList(view, meta, { mySeat: view.you, myGift: S.me.gift_number }),
      vaultList(view)),
    view.phase === "over" ? null : leavingPanel(),
    eventLog(S.logs.get(meta.id)),
  );
  tickClocks();
  announce([relay && relay.dataset.headline, prompt.dataset.headline].filter(Boolean).join(" "));
  document.body.dataset.phase = view.phase;
  alertIfNeeded(prompt, view);
}

/** Your turn, or you are asked to react: impossible to miss. A buzz where the phone
 * can, the tab title, and the focus on the prompt (a screen reader reads it). */
function alertIfNeeded(prompt, view) {
  const kind = prompt.dataset.prompt;
  const urgent = ["turn", "react", "trim", "carry"].includes(kind);
  titleAlert(PARTY_NAME, urgent ? prompt.dataset.headline : null);
  const key = urgent ? kind : "";
  if (key === S.alerted) return; // the same prompt, redrawn: no second buzz
  S.alerted = key;
  if (!urgent) return;
  cue(kind === "react" ? "react" : "turn"); // a buzz, or a chime where the phone cannot vibrate
  const heading = prompt.querySelector("h2");
  if (heading && !prompt.contains(document.activeElement)) {
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
    // At once, not smoothly: a smooth scroll is cancelled by the redraw that often follows
    // (a reconnection's snapshot, the next update), and left the hand below the fold at
    // 320x568 (tests/browser/test_screens_browser.py, about one run in three).
    prompt.scrollIntoView({ block: "start", behavior: "auto" });
  }
}

/** "Captain: Bea (tablet at the table)": who does the captain's duties here. */
function captainWords(meta) {
  const t = ((S.party && S.party.tables) || []).find((x) => x.letter === meta.letter) || {};
  const who = t.captain ? fmt(gettext("Captain: %(name)s"), { name: t.captain }) : gettext("No captain yet");
  return t.tablet ? `${who} · ${gettext("the captain's tablet is at the table")}` : who;
}

function announce(text) {
  if (text === S.announced) return;
  S.announced = text;
  let region = document.getElementById("announce");
  if (!region) {
    region = h("div", { id: "announce", class: "sr-only", role: "status", "aria-live": "polite" });
    document.body.appendChild(region);
  }
  region.textContent = text;
}

/** What is true after losing the seat: joining again only while the lobby is open; once
 * the cards are dealt the seat plays on for its guest (docs/RULES.md). */
function fatalNext() {
  const status = (S.party || {}).status;
  if (status === "over") {
    // the story page, not the join page: this browser's seat secret would send it back here
    return h("p", {}, h("a", { class: "btn", href: `/story/${encodeURIComponent(code)}/` }, gettext("See who took what home")));
  }
  if (status === "playing") {
    // This phone hears no more of the party: the join page shows the result once it ends.
    return [
      h("p", { class: "hint", text: gettext("The cards are dealt, so you cannot take another seat. If a substitute took yours, they play it for you: the gift in front of it at the end is yours. Ask the host.") }),
      h("p", null, h("a", { class: "btn", href: `/story/${encodeURIComponent(code)}/` }, gettext("See who took what home"))),
    ];
  }
  return h("p", {}, h("a", { class: "btn", href: `/j/${code}/` }, gettext("Join again")));
}

/** An unseated guest while the tables play: a late arrival waiting (or not) for a seat,
 * or a guest whose seat a late arrival plays for them (docs/RULES.md). */
function drawNotSeated(p) {
  const me = S.me;
  const over = p.status === "over";
  // The shell's head above says who plays the seat, or that the guest is registered late.
  const lines = me.played_by
    ? [
        h("p", { text: over
          ? gettext("The game is over: the gift in front of your old seat is yours.")
          : gettext("You handed your seat over: a late arrival plays it for you. At the end the gift in front of it is yours.") }),
      ]
    : [
        h("p", { class: "write-number" }, fill(gettext("Write %(number)s on your gift"), { number: h("strong", { class: "gift-number", text: String(me.gift_number) }) })),
        h("p", { text: gettext("and put it on the late-gifts shelf: you take it home at the end.") }),
        h("p", { class: "secret" }, h("span", { class: "hint", text: gettext("Your secret description: ") }), me.description),
        over
          ? h("p", { text: gettext("The party is over: take your own gift home. Thanks for coming!") })
          : h("p", { class: "waiting" }, h("span", { class: "spinner", "aria-hidden": "true" }),
              gettext("The tables are playing. If a guest has to leave, the host may seat you in their place; this page will show your seat.")),
      ];
  render(root, h("section", { class: "panel lobby late-arrival", "aria-labelledby": "seat-h" }, ...lines));
  announce(me.played_by ? fmt(gettext("%(stand_in)s plays your seat."), { stand_in: me.played_by }) : gettext("Registered as a late arrival."));
}

function drawLobby() {
  const p = S.party || {};
  if (p.status && p.status !== "lobby" && (S.me.late || S.me.played_by)) {
    drawNotSeated(p);
    return;
  }
  render(
    root,
    // The shell's head above names the party and the guest (play.js).
    h("section", { class: "panel lobby", "aria-labelledby": "seat-h" },
      h("p", { class: "write-number" }, fill(gettext("Write %(number)s on your gift"), { number: h("strong", { class: "gift-number", text: String(S.me.gift_number) }) })),
      h("p", {}, gettext("and put it on the gift pile.")),
      h("p", { class: "secret" }, h("span", { class: "hint", text: gettext("Your secret description: ") }), S.me.description),
      h("p", { class: "waiting" }, h("span", { class: "spinner", "aria-hidden": "true" }),
        p.guest_count
          ? fmt(ngettext("Waiting for the host to deal the cards · %(n)s guest in.", "Waiting for the host to deal the cards · %(n)s guests in.", p.guest_count), { n: p.guest_count })
          : gettext("Waiting for the host to deal the cards."))),
  );
  announce(gettext("Waiting for the host to deal the cards."));
}

function giftPanel(view) {
  const mine = view.seats[view.you];
  let desc;
  if (mine.open) desc = h("p", {}, h("span", { class: "hint", text: gettext("Unwrapped: ") }), mine.description);
  else if (mine.description) {
    const how = view.gift === S.me.gift_number ? gettext("You brought this one: ") : gettext("Your secret peek: ");
    desc = h("p", { class: "secret" }, h("span", { class: "hint", text: how }), mine.description);
  }
  else desc = h("p", { class: "hint", text: gettext("Still wrapped: you haven't seen inside.") });
  return h("section", { class: "panel gift-panel", "aria-labelledby": "gift-h" },
    h("h2", { id: "gift-h", class: "sr-only", text: gettext("Your gift") }),
    h("p", { class: "take" }, fill(view.phase === "over" ? gettext("Keep gift %(gift)s") : gettext("Take gift %(gift)s"), { gift: h("strong", { class: "gift-number", text: giftLabel(view.gift) }) })),
    desc);
}

function handPanel(view) {
  return h("section", { class: "panel", "aria-labelledby": "hand-h" },
    h("h2", { id: "hand-h", text: fmt(gettext("Your hand (%(n)s)"), { n: view.hand.length }) }),
    view.hand.length ? h("div", { class: "hand", id: "hand" }, view.hand.map((c) => cardFace(c))) : h("p", { class: "hint", text: gettext("No cards.") }));
}

/** The one thing this phone should do now. */
function promptFor(view, meta) {
  const name = namer(meta, view.you);
  if (view.phase === "over") {
    const mine = view.seats[view.you];
    const returns = (S.takesHome || []).filter((r) => r.kind === "vault_return");
    // A substitute played this seat for the guest who left: its gift goes home with
    // them; a late arrival keeps their own gift (docs/RULES.md).
    const keep = (S.takesHome || []).find((r) => r.kind === "keeps");
    const own = (S.takesHome || []).find((r) => r.kind === "late");
    const forGuest = keep && keep.guest !== S.me.name ? keep.guest : S.me.playing_for || null;
    const big = (text, gift) => h("li", { class: "big" }, fill(text, { gift: h("strong", { class: "gift-number", text: gift }), name: forGuest, description: mine.description }));
    const seatGift = forGuest
      ? big(gettext("Gift %(gift)s goes home with %(name)s: you played this seat for them."), giftLabel(view.gift))
      : big(mine.description ? gettext("Keep gift %(gift)s: %(description)s") : gettext("Keep gift %(gift)s"), giftLabel(view.gift));
    return prompt("end", gettext("The heist is over"),
      h("h3", { text: gettext("You take home") }),
      h("ul", { class: "plain takes-home" },
        seatGift,
        own ? big(gettext("Keep gift %(gift)s: your own gift, from the late-gifts shelf."), own.gift) : null,
        returns.map((r) => h("li", { class: "big" }, fill(gettext("Also gift %(gift)s: %(description)s — the gift you brought, back from the vault."), { gift: h("strong", { class: "gift-number", text: r.gift }), description: r.description })))),
      S.party && S.party.status === "over"
        ? h("p", { text: gettext("That's everything. Unused cards have no value. Thanks for heisting!") })
        : h("p", { text: gettext("Keep it. Other tables are still playing; leftover vault gifts go home when every table is done.") }),
      storyLink(code));
  }
  if (view.phase === "reveal") {
    return prompt("reveal", gettext("Unwrap and show your gift"),
      h("p", { text: revealText(meta) }),
      S.me.captain ? h("button", { class: "btn primary big", type: "button", data: { key: "reveal" }, on: { click: (ev) => duty({ type: "confirm_reveal" }, ev.currentTarget) } }, gettext("Everyone unwrapped — start round 2")) : null);
  }
  if (view.phase === "gate") return gatePrompt(view, meta);
  if (view.asked) return reactionPrompt(view, meta, name);
  if (view.phase === "reaction" && view.answer) {
    const a = view.answer;
    const card = a.block ? (view.hand.find((c) => c.id === a.card) || { title: gettext("your reaction") }) : null;
    return prompt("answered", a.block ? gettext("You blocked") : gettext("You let it happen"),
      h("p", { text: a.block ? fmt(gettext("You answered with %(card)s; waiting for the others."), { card: card.title }) : gettext("You let it happen; waiting for the others.") }));
  }
  if (view.must_trim > 0) return trimPrompt(view);
  if (view.phase === "action" && view.active === view.you) return turnPrompt(view, meta, name);
  const line = statusLine(view, meta, view.you);
  const el = prompt("wait", line);
  el.querySelector("h2").prepend(h("span", { class: "spinner", "aria-hidden": "true" }));
  el.querySelector("h2").classList.add("waiting");
  return el;
}

/** Who starts round 2 after the reveal, in one whole sentence per case. */
function revealText(meta) {
  const t = ((S.party && S.party.tables) || []).find((x) => x.letter === meta.letter) || {};
  if (t.tablet) return gettext("Round 1 is over. Unwrap your gift and show it to everyone. The captain's tablet starts round 2 when every gift is shown.");
  if (t.captain) return fmt(gettext("Round 1 is over. Unwrap your gift and show it to everyone. Your captain, %(name)s, starts round 2 when every gift is shown."), { name: t.captain });
  return gettext("Round 1 is over. Unwrap your gift and show it to everyone. The host starts round 2 when every gift is shown.");
}

function prompt(kind, headline, ...body) {
  const el = h("section", { class: `panel prompt prompt-${kind}`, id: "prompt", "aria-labelledby": "prompt-h", data: { prompt: kind, headline } },
    h("h2", { id: "prompt-h", text: headline }), ...body);
  return el;
}

// --- the gate and the relay (several tables) --------------------------------------------------

function gatePrompt(view, meta) {
  const p = S.party || {};
  const gate = p.gate || { tables: 1, at_gate: 1 };
  const relay = p.relay;
  if (relayRan(relay) && walkOf(relay, meta.letter)) return walkPrompt(view, meta, relay);
  const stay = h("p", { text: gettext("Stay in your seat with your gift. One drawn player per table passes their gift to the next table; nobody can block it.") });
  if (!relay) {
    const more = gate.tables - gate.at_gate;
    const headline = more > 0
      ? fmt(ngettext("Your table finished round 2 — waiting for %(n)s more table", "Your table finished round 2 — waiting for %(n)s more tables", more), { n: more })
      : gettext("Every table finished round 2 — waiting for the host to open the relay");
    const el = prompt("gate", headline, h("p", { class: "gate-count", text: fmt(gettext("Tables at the gate: %(at)s of %(total)s"), { at: gate.at_gate, total: gate.tables }) }), stay);
    el.querySelector("h2").prepend(h("span", { class: "spinner", "aria-hidden": "true" }));
    return el;
  }
  const seat = view.relay_seat;
  const parts = [h("p", { class: "hint", text: gettext("The relay order:") }), ringLine(relay, "ring big-ring")];
  const next = relay.ring[(relay.ring.indexOf(meta.letter) + 1) % relay.ring.length];
  if (seat === null || seat === undefined) {
    parts.push(S.me.captain
      ? h("button", { class: "btn primary big", type: "button", id: "draw-relay", data: { key: "draw-relay" }, on: { click: (ev) => duty({ type: "draw_relay_seat" }, ev.currentTarget) } }, gettext("Draw the relay seat"))
      : h("p", { text: gettext("Waiting for your table captain to draw a seat.") }));
    if (S.me.captain) parts.push(h("p", { class: "hint", text: gettext("You are the captain: the server draws one seat at your table at random, like a seat-number slip.") }));
  } else if (seat === view.you) {
    parts.push(h("p", { class: "big drawn-me" }, h("span", { "aria-hidden": "true", text: "⇄ " }),
      h("strong", { text: fmt(gettext("You were drawn! Your gift %(gift)s goes to table %(table)s when the host runs the relay."), { gift: giftLabel(view.gift), table: next }) })));
  } else {
    parts.push(h("p", { class: "drawn-seat" }, h("span", { "aria-hidden": "true", text: "✓ " }),
      fmt(gettext("Drawn seat: seat %(seat)s (%(name)s) passes gift %(gift)s to table %(table)s."), { seat: seat + 1, name: seatName(meta, seat), gift: giftLabel(view.seats[seat].gift), table: next })));
  }
  if (seat !== null && seat !== undefined) parts.push(h("p", { class: "hint", text: gettext("Waiting for the host to run the relay.") }));
  return prompt("gate", gettext("The relay is open"), ...parts);
}

/** The walk (docs/RULES.md): each drawn player carries their gift to the next table;
 * the table plays round 3 once its gift is in and its own carrier has delivered. The
 * carrier sees where to go first, and the button that says it is done; the others see
 * what their table waits for; the captain may confirm the gift that arrived. */
function walkPrompt(view, meta, relay) {
  const w = walkOf(relay, meta.letter);
  const carrier = w.mine.seat === view.you;
  if (carrier && !w.delivered) {
    return prompt("carry", fmt(gettext("Carry gift %(gift)s to table %(table)s"), { gift: w.mine.sent, table: w.mine.sent_to }),
      h("p", { class: "carry-to", id: "carry-to" }, fmt(gettext("Take gift %(gift)s to table %(table)s, seat %(seat)s (%(name)s)."), { gift: w.mine.sent, table: w.mine.sent_to, seat: w.to.seat + 1, name: w.to.guest })),
      h("button", { class: "btn primary big", type: "button", id: "delivered", data: { key: "delivered" },
        on: { click: (ev) => deliver(w.to.table_id, ev.currentTarget, gettext("Saying you delivered it")) } }, fmt(gettext("I delivered gift %(gift)s"), { gift: w.mine.sent })),
      h("p", { text: fmt(gettext("Then come back to your seat: gift %(gift)s from table %(table)s (carried by %(name)s) is brought to you. Your table plays round 3 once both gifts are in."), { gift: w.mine.received, table: w.mine.received_from, name: w.from.guest }) }));
  }
  const headline = carrier ? fmt(gettext("You delivered gift %(gift)s: back to your seat"), { gift: w.mine.sent }) : walkText(relay, meta.letter, relayWords);
  const el = prompt("walk", headline,
    carrier ? h("p", { class: "big", text: walkText(relay, meta.letter, relayWords) }) : null,
    !carrier && !w.delivered
      ? h("p", { text: fmt(gettext("%(name)s (seat %(seat)s) carries gift %(gift)s to table %(table)s; nobody plays until they are back."), { name: w.mine.guest, seat: w.mine.seat + 1, gift: w.mine.sent, table: w.mine.sent_to }) })
      : null,
    S.me.captain && !w.arrived
      ? h("button", { class: "btn primary big", type: "button", id: "gift-arrived", data: { key: "gift-arrived" },
          on: { click: (ev) => deliver(w.mine.table_id, ev.currentTarget, gettext("Confirming the gift")) } }, fmt(gettext("Gift %(gift)s has arrived"), { gift: w.mine.received }))
      : null);
  el.querySelector("h2").prepend(h("span", { class: "spinner", "aria-hidden": "true" }));
  return el;
}

/** A relay gift has arrived at table `tableId` (the carrier's, or the captain's word). */
function deliver(tableId, button, what) {
  button.disabled = true;
  button.dataset.busy = "1";
  track(live.party("confirm_delivery", { table: tableId }), what).catch(showError).finally(() => {
    button.disabled = false;
    delete button.dataset.busy;
  });
}

/** In round 3, what the relay changed at this table. */
function relayPanel(view, meta) {
  const relay = S.party && S.party.relay;
  if (!relayRan(relay) || view.phase === "over" || view.phase === "gate" || view.round !== 3) return null;
  const mine = relayEntry(relay, meta.letter);
  if (!mine) return null;
  const text = mine.seat === view.you
    ? fmt(gettext("You carried gift %(sent)s to table %(to)s and received gift %(received)s from table %(from)s."), { sent: mine.sent, to: mine.sent_to, received: mine.received, from: mine.received_from })
    : fmt(gettext("%(name)s (seat %(seat)s) sent gift %(sent)s to table %(to)s and received gift %(received)s from table %(from)s."), { name: mine.guest, seat: mine.seat + 1, sent: mine.sent, to: mine.sent_to, received: mine.received, from: mine.received_from });
  return h("section", { class: "panel relay-panel", id: "relay-errand", "aria-labelledby": "relay-h" },
    h("h2", { id: "relay-h" }, h("span", { "aria-hidden": "true", text: "⇄ " }), gettext("The relay ran")),
    h("p", { text }));
}

// --- captain duties ---------------------------------------------------------------------------

function captainPanel(view, meta) {
  const pending = [];
  if (view.phase === "reveal") pending.push(gettext("Confirm the reveal (the button above) once everyone has unwrapped."));
  if (view.phase === "reaction") pending.push(gettext("A reaction nobody answers can be passed after 60 s (the button under Table)."));
  // A quiet guest's turn or discard, played for them once the step clock ran out: the
  // tablet's buttons, so a table without a tablet does not wait on the host.
  const standIn = standInBox(view, meta, { onAct: duty, mySeat: view.you });
  if (view.phase === "gate" && relayRan(S.party && S.party.relay)) pending.push(gettext("The relay's walk: confirm the gift that arrives at your table (the button above)."));
  else if (view.phase === "gate") pending.push(gettext("At the gate: draw the relay seat once the host opens the relay."));
  return h("section", { class: "panel captain-panel", "aria-labelledby": "captain-h" },
    h("h2", { id: "captain-h" }, h("span", { "aria-hidden": "true", text: "⚑ " }), fmt(gettext("Captain of table %(letter)s"), { letter: meta.letter })),
    standIn,
    pending.length ? h("ul", { class: "duties" }, pending.map((t) => h("li", { text: t })))
      : standIn ? null : h("p", { class: "hint", text: gettext("Your duties: confirm the reveal, pass a reaction after 60 s, play a quiet guest's turn or discard once the step clock runs out, draw the relay seat, hand a seat to a substitute.") }),
    h("details", { class: "handover", open: S.openHandover, on: { toggle: (ev) => { S.openHandover = ev.currentTarget.open; } } },
      h("summary", { text: gettext("Hand a seat to a substitute") }),
      h("p", { class: "hint", text: gettext("For a guest who has to leave: the substitute takes the seat, gift and cards. The guest taps “Offer my seat” first, unless their phone has been offline for 2 minutes; the host can always do it.") }),
      h("ul", { class: "plain handover-list" }, meta.roster.map((r, seat) => {
        const claim = S.claims.get(r.guest);
        return h("li", { class: "row wrap" },
          h("span", { class: "seat-no", text: String(seat + 1) }),
          h("strong", { text: seat === view.you ? fmt(gettext("%(name)s (you)"), { name: r.name }) : r.name }),
          presence.offline.has(r.guest) ? offlineMark() : null,
          h("button", { class: "btn small", type: "button", text: gettext("Hand over seat"), "aria-label": fmt(gettext("Hand %(name)s's seat to a substitute"), { name: r.name }), data: { key: `handover-${r.guest}` },
            on: { click: (ev) => handOver(r.guest, ev.currentTarget) } }),
          claim && claim.until > Date.now()
            ? h("span", { class: "claim", role: "status" }, fill(gettext("Hand-over code %(code)s — the substitute opens the join page, taps “Taking over a seat?” and types it."), { code: h("strong", { class: "code-inline", text: claim.claim }) }))
            : null);
      }))));
}

/** A guest who has to leave consents here: only then may the captain hand their seat
 * over while their phone is still online (the host always may). */
function leavingPanel() {
  return h("details", { class: "handover leaving" },
    h("summary", { text: gettext("Leaving early?") }),
    h("p", { class: "hint", text: gettext("Offer your seat: your captain or the host can then give it, with your gift and cards, to a substitute.") }),
    h("button", { class: "btn small", type: "button", id: "offer-seat", text: gettext("Offer my seat to a substitute"),
      on: { click: (ev) => offerSeat(ev.currentTarget) } }));
}

function offerSeat(button) {
  button.disabled = true;
  live.party("offer_seat").then((reply) => {
    toast(fmt(ngettext("Seat offered: your captain or the host can hand it over in the next %(n)s minute.", "Seat offered: your captain or the host can hand it over in the next %(n)s minutes.", reply.minutes), { n: reply.minutes }), "ok");
  }, showError).finally(() => { button.disabled = false; });
}

function handOver(guest, button) {
  button.disabled = true;
  live.party("hand_over_seat", { guest }).then((reply) => {
    S.claims.set(guest, { claim: reply.claim, until: Date.now() + reply.minutes * 60000 });
    S.openHandover = true;
    draw();
  }, showError).finally(() => { button.disabled = false; });
}

// --- the reaction window ----------------------------------------------------------------------

function reactionPrompt(view, meta, name) {
  const w = view.window;
  const gifts = view.seats.map((s) => s.gift);
  // One button per kind of reaction card: two TRIPWIREs block the same way.
  const reactions = [];
  const held = {};
  for (const c of view.hand.filter((x) => x.kind === "REACTION")) {
    held[c.card] = (held[c.card] || 0) + 1;
    if (held[c.card] === 1) reactions.push(c);
  }
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const opened = meta.window_opened_at;
  return prompt("react", gettext("You are asked: block it or let it happen?"),
    h("p", { class: "big" }, h("strong", { text: fmt(gettext("%(name)s is trying to %(card)s"), { name: cap(name(w.active)), card: w.label }) }), sentence(`: ${describeMove(w.move, gifts, name)}`)),
    opened
      ? h("p", { class: "react-clock" },
          h("span", { data: { openedAt: opened, countdown: meta.reaction_timeout || 60, before: `${gettext("Answer now: after 60 s the captain may pass for you. Time left:")} `, after: gettext("Answer now: the captain may pass for you at any moment.") }, text: "" }))
      : null,
    reactions.length
      ? h("div", { class: "choices" }, reactions.map((c) =>
          cardFace(c, { tag: "button", props: { type: "button", class: `card kind-reaction choice`, disabled: busy(), data: { cardId: c.id, cardName: c.card, key: `block-${c.id}` }, "aria-label": fmt(gettext("Block with %(card)s"), { card: c.title }), on: { click: () => send({ type: "react", card: c.id, window: w.version }) } },
            extra: h("span", { class: "card-cta", text: held[c.card] > 1
              ? fmt(ngettext("Block with %(card)s (you hold %(n)s)", "Block with %(card)s (you hold %(n)s)", held[c.card]), { card: c.title, n: held[c.card] })
              : fmt(gettext("Block with %(card)s"), { card: c.title }) }) })))
      : h("p", { class: "hint", text: gettext("You have no reaction card to block with.") }),
    h("button", { class: "btn big", type: "button", id: "let-it-happen", data: { key: "pass" }, disabled: busy(), on: { click: () => send({ type: "react", card: null, window: w.version }) } }, gettext("Let it happen")),
  );
}

// --- trimming -------------------------------------------------------------------------------

function trimPrompt(view) {
  const k = view.must_trim;
  const ui = S.ui;
  const el = prompt("trim", fmt(ngettext("Discard %(n)s card", "Discard %(n)s cards", k), { n: k }),
    h("p", { text: fmt(ngettext("You have %(n)s card; keep %(limit)s. Choose exactly %(k)s to discard.", "You have %(n)s cards; keep %(limit)s. Choose exactly %(k)s to discard.", view.hand.length), { n: view.hand.length, limit: rules().hand_limit, k }) }),
    pickableHand(view, { max: k }),
    h("button", {
      class: "btn primary big", type: "button", id: "confirm", data: { key: "confirm" },
      disabled: busy() || ui.picks.length !== k,
      on: { click: () => send({ type: "trim", cards: [...ui.picks] }) },
    }, ui.picks.length === k ? fmt(gettext("Discard %(cards)s"), { cards: pickedTitles(view) }) : fmt(gettext("Choose %(n)s more"), { n: k - ui.picks.length })));
  el.dataset.usesHand = "1";
  return el;
}

function pickedTitles(view) {
  return listText(S.ui.picks.map((id) => view.hand.find((c) => c.id === id).title), " and ");
}

/** The hand as toggle buttons for picking up to `max` cards. */
function pickableHand(view, { max, label = gettext("Your hand") }) {
  const ui = S.ui;
  // "spend": the cards are chosen to give up, so what each does is left out (heist.css)
  return h("div", { class: "hand pick spend", id: "hand", role: "group", "aria-label": label },
    view.hand.map((c) => {
      const picked = ui.picks.includes(c.id);
      return cardFace(c, {
        tag: "button",
        props: {
          type: "button", "aria-pressed": picked ? "true" : "false", disabled: busy(),
          data: { cardId: c.id, cardName: c.card, key: `card-${c.id}` },
          on: { click: () => {
            if (picked) ui.picks = ui.picks.filter((x) => x !== c.id);
            else if (ui.picks.length < max) ui.picks.push(c.id);
            else if (max > 0) ui.picks = [...ui.picks.slice(1), c.id];
            draw();
          } },
        },
        extra: h("span", { class: "tick", "aria-hidden": "true", text: picked ? `✓ ${gettext("chosen")}` : "" }),
      });
    }));
}

// --- your turn --------------------------------------------------------------------------------

function turnPrompt(view, meta, name) {
  const ui = S.ui;
  const modes = [
    ["play", gettext("Play a card")],
    ["swipe", gettext("Swipe: spend 2 cards")],
    ["regroup", gettext("Regroup or pass")],
  ];
  if (view.can_use_vault) modes.push(["vault", gettext("Vault exchange")]);
  const modeField = h("fieldset", { class: "modes" },
    h("legend", { text: gettext("Choose one action") }),
    modes.map(([value, text]) => h("label", { class: `mode${ui.mode === value ? " on" : ""}` },
      h("input", { type: "radio", name: "mode", value, checked: ui.mode === value, data: { key: `mode-${value}` },
        on: { change: () => { S.ui = { ...freshUi(), mode: value }; draw(); } } }),
      ` ${text}`)));
  let body;
  if (ui.mode === "swipe") body = swipeBody(view, meta);
  else if (ui.mode === "regroup") body = regroupBody(view);
  else if (ui.mode === "vault") body = vaultBody(view);
  else body = playBody(view, meta, name);
  // A card chosen, or a swipe's or vault's two cards: the decision is what comes next (the
  // modes come back when the card is tapped again, or the two cards changed).
  const deciding = (ui.mode === "play" && ui.card !== null) || (["swipe", "vault"].includes(ui.mode) && ui.picks.length === 2);
  const el = prompt("turn", gettext("Your turn!"), deciding ? null : h("p", { class: "hint", text: gettext("You drew a card. Do exactly one thing:") }), deciding ? null : modeField, body);
  el.dataset.usesHand = "1";
  return el;
}

function reasonNotPlayable(card, view) {
  if (card.kind === "REACTION") return gettext("Reaction: only when your gift is threatened");
  if (card.card === "YANKEE_HEIST" && view.hand.length < 2) return gettext("Needs another card to pay with");
  if (card.card === "CASE_THE_JOINT") return gettext("No wrapped gift to peek at");
  if (card.card === "PICKPOCKET") return gettext("Nobody has cards to take");
  return gettext("No legal target now");
}

function playBody(view, meta, name) {
  const ui = S.ui;
  const playable = view.playable || {};
  // Once a card is chosen only it stays, so what it needs (whom, which way) and the
  // confirm button follow right under it, on one phone screen; tap it again to go back.
  // The cards that can be played first: the top of the hand is what shows on a small phone.
  const canPlay = (c) => Object.prototype.hasOwnProperty.call(playable, String(c.id));
  const shown = ui.card === null
    ? [...view.hand.filter(canPlay), ...view.hand.filter((c) => !canPlay(c))]
    : view.hand.filter((c) => c.id === ui.card);
  const cards = h("div", { class: `hand pick${ui.card === null ? "" : " chosen"}`, id: "hand", role: "group", "aria-label": gettext("Choose a card to play") },
    shown.map((c) => {
      const ok = Object.prototype.hasOwnProperty.call(playable, String(c.id));
      const chosen = ui.card === c.id;
      return cardFace(c, {
        tag: "button",
        props: {
          type: "button", disabled: busy() || !ok, "aria-pressed": chosen ? "true" : "false",
          data: { cardId: c.id, cardName: c.card, key: `card-${c.id}` },
          on: { click: () => { S.ui = { ...freshUi(), mode: "play", card: chosen ? null : c.id }; draw(); } },
        },
        extra: ok ? h("span", { class: "tick", "aria-hidden": "true", text: chosen ? `✓ ${gettext("chosen · tap to change")}` : "" }) : h("span", { class: "why", text: reasonNotPlayable(c, view) }),
      });
    }));
  if (ui.card === null) return [cards, h("p", { class: "hint", text: gettext("Tap a card to play it.") })];

  const card = view.hand.find((c) => c.id === ui.card);
  if (!card) return cards;
  const need = targetCount(card.card, view.players);
  const legal = playable[String(card.id)] || [];
  const parts = [cards];
  if (need > 0) {
    const ask = {
      SNATCH: gettext("Swap your gift with whom?"),
      SWITCHEROO: gettext("Choose two players whose gifts swap"),
      THREE_GIFT_GRIFT: gettext("Choose the two other players in the rotation"),
      YANKEE_HEIST: need === 1 ? gettext("Swap with whom?") : gettext("Choose who you swap with first, then second"),
      CASE_THE_JOINT: gettext("Peek at whose wrapped gift?"),
      PICKPOCKET: gettext("Take a random card from whom?"),
    }[card.card];
    // One decision at a time: once the players are chosen and the card needs more (a
    // card to pay with, a direction), they shrink to a line with a Change button.
    const more = card.card === "YANKEE_HEIST" || card.card === "THREE_GIFT_GRIFT";
    if (more && ui.targets.length === need) {
      parts.push(h("p", { class: "chosen-targets" },
        h("span", { text: chosenTargets(card, ui.targets.map((t) => seatName(meta, t))) }),
        h("button", { class: "btn small", type: "button", data: { key: "change-targets" }, disabled: busy(), on: { click: () => { ui.targets = []; draw(); } } }, gettext("Change"))));
    } else {
      parts.push(targetPicker(view, meta, legal, need, ask, ui.targets, (t) => { ui.targets = t; draw(); }, card.card === "YANKEE_HEIST"));
    }
  }
  if (card.card === "YANKEE_HEIST" && ui.targets.length === need) {
    parts.push(h("div", { class: "sub", role: "group", "aria-labelledby": "extra-h" },
      h("h3", { id: "extra-h", text: gettext("Pay with one more card") }),
      h("div", { class: "hand pick mini" }, view.hand.filter((c) => c.id !== card.id).map((c) =>
        cardFace(c, { tag: "button", props: { type: "button", disabled: busy(), "aria-pressed": ui.extra === c.id ? "true" : "false", data: { cardId: c.id, cardName: c.card, key: `extra-${c.id}` }, on: { click: () => { ui.extra = ui.extra === c.id ? null : c.id; draw(); } } },
          extra: h("span", { class: "tick", "aria-hidden": "true", text: ui.extra === c.id ? `✓ ${gettext("pays")}` : "" }) })))));
  }
  if (card.card === "THREE_GIFT_GRIFT" && ui.targets.length === need) {
    parts.push(directionPicker(view, name));
  }
  const done = ui.targets.length === need && (card.card !== "YANKEE_HEIST" || ui.extra !== null) && (card.card !== "THREE_GIFT_GRIFT" || ui.direction);
  const summary = playSummary(card, ui, (seat) => seatName(meta, seat));
  parts.push(h("button", {
    class: "btn primary big", type: "button", id: "confirm", data: { key: "confirm" }, disabled: busy() || !done,
    on: { click: () => {
      const action = { type: "play", card: card.id, targets: [...ui.targets] };
      if (card.card === "YANKEE_HEIST") action.extra = ui.extra;
      if (card.card === "THREE_GIFT_GRIFT") action.direction = ui.direction;
      send(action);
    } },
  }, done ? summary : need > ui.targets.length ? gettext("Choose players first") : card.card === "YANKEE_HEIST" ? gettext("Choose a card to pay with first") : gettext("Choose a direction first")));
  return parts;
}

/** "Swap with Bea, then Cy" (YANKEE HEIST) / "With Bea and Cy" (THREE-GIFT GRIFT). */
function chosenTargets(card, names) {
  if (card.card !== "YANKEE_HEIST") return fmt(gettext("With %(names)s"), { names: listText(names, " and ") });
  if (names.length > 1) return fmt(gettext("Swap with %(first)s, then %(second)s"), { first: names[0], second: names[1] });
  return fmt(gettext("Swap with %(name)s"), { name: names[0] });
}

/** What the confirm button says, in the card's own terms. */
function playSummary(card, ui, name) {
  const [a, b] = ui.targets.map(name);
  const card_ = card.title;
  const v = { card: card_, a, b };
  if (!ui.targets.length) return card.card === "INSIDE_MAN" ? fmt(gettext("Play %(card)s: draw 2"), v) : fmt(gettext("Play %(card)s"), v);
  switch (card.card) {
    case "SNATCH": return fmt(gettext("Play %(card)s: swap with %(a)s"), v);
    case "SWITCHEROO": return b ? fmt(gettext("Play %(card)s: swap %(a)s and %(b)s"), v) : fmt(gettext("Play %(card)s on %(a)s"), v);
    case "THREE_GIFT_GRIFT": {
      const names = listText([a, b].filter(Boolean), " and ");
      if (ui.direction === "clockwise") return fmt(gettext("Play %(card)s with %(names)s, clockwise"), { card: card_, names });
      if (ui.direction === "counterclockwise") return fmt(gettext("Play %(card)s with %(names)s, counterclockwise"), { card: card_, names });
      return fmt(gettext("Play %(card)s with %(names)s"), { card: card_, names });
    }
    case "YANKEE_HEIST": return b ? fmt(gettext("Play %(card)s: swap with %(a)s, then %(b)s"), v) : fmt(gettext("Play %(card)s: swap with %(a)s"), v);
    case "CASE_THE_JOINT": return fmt(gettext("Play %(card)s: peek at %(a)s's gift"), v);
    case "PICKPOCKET": return fmt(gettext("Play %(card)s: take a card from %(a)s"), v);
    default: return fmt(gettext("Play %(card)s on %(names)s"), { card: card_, names: listText(ui.targets.map(name), " and ") });
  }
}

/** Buttons for the legal targets; `ordered` shows 1st/2nd (YANKEE HEIST). */
function targetPicker(view, meta, legal, need, ask, chosen, set, ordered = false) {
  return h("div", { class: "sub", role: "group", "aria-labelledby": "targets-h" },
    h("h3", { id: "targets-h", text: ask }),
    h("div", { class: "targets" }, legal.map((seat) => {
      const at = chosen.indexOf(seat);
      const s = view.seats[seat];
      return h("button", {
        type: "button", class: "btn target", disabled: busy(), "aria-pressed": at >= 0 ? "true" : "false",
        data: { seat, key: `target-${seat}` },
        on: { click: () => {
          if (at >= 0) set(chosen.filter((x) => x !== seat));
          else if (chosen.length < need) set([...chosen, seat]);
          else set([...chosen.slice(0, need - 1), seat]);
        } },
      },
      at >= 0 ? h("span", { class: "tick", text: ordered && need > 1 ? `${at === 0 ? gettext("1st") : gettext("2nd")} ` : "✓ " }) : null,
      h("strong", { text: seatName(meta, seat) }),
      h("span", { class: "hint", text: ` ${giftWord(s.gift)}${s.description ? `: ${s.description}` : ""}` }));
    })));
}

function directionPicker(view, name) {
  const ui = S.ui;
  const n = view.players;
  const cw = (s) => (s - view.you + n) % n;
  let preview = () => "";
  if (ui.targets.length === 2) {
    // The engine's ring: you and the two others in clockwise order from you; each gift
    // moves one step along the ring in the direction named.
    const [p, q] = [...ui.targets].sort((a, b) => cw(a) - cw(b));
    const ring = { clockwise: [view.you, p, q], counterclockwise: [view.you, q, p] };
    preview = (dir) => ` ${fmt(gettext("(gifts move %(ring)s → you)"), { ring: ring[dir].map(name).join(" → ") })}`;
  }
  return h("fieldset", { class: "sub directions" },
    h("legend", { text: gettext("Rotate which way? Each gift moves to the next person.") }),
    ["clockwise", "counterclockwise"].map((dir) => h("label", { class: `mode${ui.direction === dir ? " on" : ""}` },
      h("input", { type: "radio", name: "direction", value: dir, checked: ui.direction === dir, data: { key: `dir-${dir}` }, on: { change: () => { ui.direction = dir; draw(); } } }),
      ` ${dir === "clockwise" ? gettext("Clockwise") : gettext("Counterclockwise")}`,
      h("span", { class: "hint", text: preview(dir) }))));
}

/** The two cards a swipe or a vault exchange spends, once chosen: one line with a Change
 * button, so what comes next (whom, which gift) and the confirm fit under it. */
function spentLine(view) {
  return h("p", { class: "chosen-targets spent" },
    h("span", { text: fmt(gettext("Spending %(cards)s"), { cards: pickedTitles(view) }) }),
    h("button", { class: "btn small", type: "button", data: { key: "change-cards" }, disabled: busy(), on: { click: () => { S.ui.picks = []; S.ui.target = null; S.ui.gift = null; draw(); } } }, gettext("Change")));
}

function swipeBody(view, meta) {
  const ui = S.ui;
  const others = view.seats.map((s) => s.seat).filter((s) => s !== view.you);
  const done = ui.picks.length === 2 && ui.target !== null;
  // One decision at a time: the two cards, then whom.
  const cardsChosen = ui.picks.length === 2;
  return [
    cardsChosen ? spentLine(view) : h("p", { class: "hint", text: gettext("Spend any 2 cards to try to swap gifts with one player. They may block; the cards are spent either way.") }),
    cardsChosen ? null : pickableHand(view, { max: 2, label: gettext("Choose 2 cards to spend") }),
    cardsChosen ? targetPicker(view, meta, others, 1, gettext("Swap with whom?"), ui.target === null ? [] : [ui.target], (t) => { ui.target = t.length ? t[0] : null; draw(); }) : null,
    h("button", {
      class: "btn primary big", type: "button", id: "confirm", data: { key: "confirm" }, disabled: busy() || !done,
      on: { click: () => send({ type: "swipe", cards: [...ui.picks], target: ui.target }) },
    }, done ? fmt(gettext("Swipe at %(name)s"), { name: seatName(meta, ui.target) }) : gettext("Swipe — choose 2 cards and a player")),
  ];
}

function regroupBody(view) {
  const ui = S.ui;
  const k = ui.picks.length;
  return [
    h("p", { class: "hint", text: gettext("Discard 0, 1 or 2 cards and draw as many. Choosing none is a pass.") }),
    pickableHand(view, { max: 2, label: gettext("Choose up to 2 cards to discard") }),
    h("button", {
      class: "btn primary big", type: "button", id: "confirm", data: { key: "confirm" }, disabled: busy(),
      on: { click: () => send({ type: "regroup", cards: [...ui.picks] }) },
    }, k === 0 ? gettext("Pass (keep my hand)") : fmt(ngettext("Discard %(n)s and draw %(n)s", "Discard %(n)s and draw %(n)s", k), { n: k })),
  ];
}

function vaultBody(view) {
  const ui = S.ui;
  const done = ui.picks.length === 2 && ui.gift !== null;
  // One decision at a time: the two cards, then which vault gift.
  const cardsChosen = ui.picks.length === 2;
  return [
    cardsChosen ? spentLine(view) : h("p", { class: "hint", text: gettext("Spend any 2 cards: your gift goes into the vault and you take a vault gift (it is unwrapped at once). Nobody can block it.") }),
    cardsChosen ? null : pickableHand(view, { max: 2, label: gettext("Choose 2 cards to spend") }),
    !cardsChosen ? null : h("div", { class: "sub", role: "group", "aria-labelledby": "vault-h" },
      h("h3", { id: "vault-h", text: gettext("Take which vault gift?") }),
      h("div", { class: "targets" }, view.vault.map((v) => h("button", {
        type: "button", class: "btn target", disabled: busy(), "aria-pressed": ui.gift === v.gift ? "true" : "false", data: { key: `vault-${v.gift}` },
        on: { click: () => { ui.gift = ui.gift === v.gift ? null : v.gift; draw(); } },
      }, ui.gift === v.gift ? "✓ " : "", h("strong", { text: giftWord(v.gift) }), h("span", { class: "hint", text: v.description ? `: ${v.description}` : ` (${gettext("wrapped")})` }))))),
    h("button", {
      class: "btn primary big", type: "button", id: "confirm", data: { key: "confirm" }, disabled: busy() || !done,
      on: { click: () => send({ type: "vault", cards: [...ui.picks], gift: ui.gift }) },
    }, done ? fmt(gettext("Exchange for gift %(gift)s"), { gift: giftLabel(ui.gift) }) : gettext("Vault — choose 2 cards and a gift")),
  ];
}

/** Draw Yankee Heist's phone into `rootEl`; `ctx.live` is the shell's socket. */
/** A seat's private part beyond its keys (static/heist/live.js mergePrivate calls this
 * after setting them): the gifts this seat peeked show their descriptions in the seats
 * and the vault, marked `peeked` (games/yankee/views.py merge_private). */
export function mergePrivate(view, p) {
  const peeked = new Map((p.peeked || []).map(([gift, description]) => [gift, description]));
  const mark = (entry) => (!entry.open && peeked.has(entry.gift)
    ? { ...entry, description: peeked.get(entry.gift), peeked: true }
    : entry);
  const out = { ...view, seats: view.seats.map(mark) };
  if (view.vault) out.vault = view.vault.map(mark);
  return out;
}

/** mergePrivate's peeks undone (views.py unmerge_private): the public seats and vault. */
export function unmergePrivate(view) {
  const plain = (entry) => {
    if (!entry.peeked) return entry;
    const { peeked, ...rest } = entry;
    return { ...rest, description: null };
  };
  const out = { ...view, seats: view.seats.map(plain) };
  if (view.vault) out.vault = view.vault.map(plain);
  return out;
}

export function mount(rootEl, ctx) {
  root = rootEl;
  code = ctx.code;
  live = ctx.live;
  return SCREEN;
}

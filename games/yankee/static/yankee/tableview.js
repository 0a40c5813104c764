// A table as everyone may see it (the engine's public_view, or a seat view's public
// part): used by the host dashboard, the big screen and the phones' table overview.
import { fill, h, listText, namer, rules, seatName } from "../heist/ui.js";
import { offlineMark } from "../heist/presence.js";
import { describeEvent, describeMove, giftLabel, roundCount, roundName } from "./words.js";
import { sentence } from "../heist/ui.js"; // names may end in a full stop ("Jo A.")

const PASS_AFTER = 60;

/** How far a table is on its way to the gate (0-1): its turns of rounds 1-2 (at the
 * gate, past it or over: 1; unwrapping after round 1: 0.5). */
export function toGate(view) {
  if (view.phase === "gate" || view.relayed || view.phase === "over") return 1;
  if (view.phase === "reveal") return 0.5;
  return Math.min(1, ((view.round - 1) * view.players + Math.min(view.turn, view.players)) / (2 * view.players));
}

export function roundTitle(view) {
  if (view.phase === "over") return gettext("Game over");
  return interpolate(gettext("Round %(round)s of %(count)s — %(name)s"), { round: view.round, count: roundCount(), name: roundName(view.round) }, true);
}

/** One sentence: what the table is waiting for. `mySeat` words it for a phone. */
export function statusLine(view, meta, mySeat = null) {
  const name = namer(meta, mySeat);
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  switch (view.phase) {
    case "action":
      return view.active === mySeat ? gettext("Your turn!") : interpolate(gettext("%(name)s's turn."), { name: cap(name(view.active)) }, true);
    case "reaction": {
      const w = view.window;
      const waiting = w ? w.waiting : [];
      const names = listText(waiting.map(name), ", ");
      if (mySeat !== null && waiting.length === 1 && waiting[0] === mySeat) {
        return interpolate(gettext("%(name)s plays %(card)s: waiting for you to block or let it happen."), { name: cap(name(w.active)), card: w.label }, true);
      }
      if (mySeat !== null && w.active === mySeat) {
        return interpolate(gettext("You play %(card)s: waiting for %(names)s to block or let it happen."), { card: w.label, names }, true);
      }
      return interpolate(gettext("%(name)s plays %(card)s: waiting for %(names)s to block or let it happen."), { name: cap(name(w.active)), card: w.label, names }, true);
    }
    case "trim":
      if (mySeat !== null && Object.keys(view.trims).length === 1 && Number(Object.keys(view.trims)[0]) === mySeat) {
        return interpolate(gettext("Waiting for you to discard down to %(limit)s."), { limit: rules().hand_limit }, true);
      }
      return interpolate(gettext("Waiting for %(names)s to discard down to %(limit)s."), { names: listText(Object.keys(view.trims).map((s) => name(Number(s))), ", "), limit: rules().hand_limit }, true);
    case "reveal":
      return gettext("Round 1 is over: everyone unwraps and shows their gift. The table's captain starts round 2.");
    case "gate":
      return gettext("Waiting at the gate for the other tables and the relay.");
    case "over":
      return gettext("Game over: everyone keeps the gift in front of them.");
    default:
      return "";
  }
}

/** The seats of a table: name, gift label (+ description when open or peeked), cards. */
export function seatList(view, meta, { mySeat = null, myGift = null, offline = null } = {}) {
  const waiting = new Set(view.window ? view.window.waiting : []);
  const trims = view.trims || {};
  return h(
    "ol",
    { class: "seats", "aria-label": interpolate(gettext("Seats at table %(letter)s"), { letter: meta.letter }, true) },
    view.seats.map((s) => {
      const you = s.seat === mySeat;
      const marks = [];
      if (view.active === s.seat && view.phase !== "over") marks.push(h("span", { class: "mark turn" }, h("span", { "aria-hidden": "true", text: "▶ " }), gettext("turn")));
      if (waiting.has(s.seat)) marks.push(h("span", { class: "mark asked" }, h("span", { "aria-hidden": "true", text: "? " }), gettext("being asked")));
      if (offline && offline.has(s.seat)) marks.push(offlineMark()); // the captain's screens: not connected
      if (trims[String(s.seat)]) marks.push(h("span", { class: "mark trim" }, h("span", { "aria-hidden": "true", text: "✂ " }), interpolate(gettext("discarding %(n)s"), { n: trims[String(s.seat)] }, true)));
      let desc = null;
      if (s.description) {
        // Not open but known to this phone: the gift they brought, or one they peeked at.
        const how = s.open ? "" : s.gift === myGift ? gettext("you brought it: ") : you ? gettext("your peek: ") : gettext("you peeked: ");
        desc = h("span", { class: `gift-desc${s.open ? "" : " peek"}` }, how ? h("em", { text: how }) : null, s.description);
      } else if (!s.open) {
        desc = h("span", { class: "gift-desc wrapped", text: gettext("wrapped") });
      }
      return h(
        "li",
        { class: `seat${you ? " me" : ""}${view.active === s.seat ? " active" : ""}`, data: { seat: s.seat } },
        h("span", { class: "seat-no", text: `${s.seat + 1}` }),
        h(
          "span",
          { class: "seat-main" },
          h("strong", { class: "seat-name", text: you ? interpolate(gettext("%(name)s (you)"), { name: seatName(meta, s.seat) }, true) : seatName(meta, s.seat) }),
          h("span", { class: "seat-gift" }, h("span", { class: "gift-tag", text: giftWord(s.gift) }), " ", desc),
          marks.length ? h("span", { class: "marks" }, marks) : null,
        ),
        h("span", { class: "seat-cards", "aria-label": interpolate(ngettext("%(n)s card in hand", "%(n)s cards in hand", s.cards), { n: s.cards }, true) }, h("span", { "aria-hidden": "true", text: "🂠 " }), `${s.cards}`),
      );
    }),
  );
}

/** "gift 7", "gift V2": a gift's tag. */
export function giftWord(gift) {
  return interpolate(gettext("gift %(gift)s"), { gift: giftLabel(gift) }, true);
}

export function vaultList(view) {
  if (!view.vault || !view.vault.length) return null;
  return h(
    "div",
    { class: "vault" },
    h("h3", { text: gettext("Vault") }),
    h(
      "ul",
      { class: "plain" },
      view.vault.map((v) =>
        h("li", {}, h("span", { class: "gift-tag", text: giftWord(v.gift) }), " ", v.description ? v.description : h("span", { class: "wrapped", text: gettext("wrapped") })),
      ),
    ),
  );
}

/** The open reaction window: the move, who is asked, the clock, and (for the host or
 * captain) a "Pass for X" button per unanswered seat that enables at 60 s. */
export function windowBox(view, meta, { mySeat = null, duty = false, onPass = null } = {}) {
  const w = view.window;
  if (!w || view.phase !== "reaction") return null;
  const name = namer(meta, mySeat);
  const gifts = view.seats.map((s) => s.gift);
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const opened = meta.window_opened_at;
  return h(
    "div",
    { class: "window", role: "group", "aria-label": gettext("Reaction window") },
    h("p", {}, h("strong", { text: mySeat !== null && w.active === mySeat
      ? interpolate(gettext("You play %(card)s"), { card: w.label }, true)
      : interpolate(gettext("%(name)s plays %(card)s"), { name: cap(name(w.active)), card: w.label }, true) }), sentence(`: ${describeMove(w.move, gifts, name)}`)),
    h(
      "ul",
      { class: "asked-list" },
      w.waiting.map((seat) =>
        h(
          "li",
          {},
          h("span", {}, h("span", { "aria-hidden": "true", text: "? " }), `${seat === mySeat ? gettext("Asking you") : interpolate(gettext("Asking %(name)s"), { name: name(seat) }, true)} `),
          opened ? h("span", { class: "clock", data: { openedAt: opened, clock: "" }, text: "" }) : null,
          opened ? h("span", { class: "countdown", data: { openedAt: opened, countdown: meta.reaction_timeout || PASS_AFTER, before: `· ${gettext("may be passed in")} `, after: `· ${gettext("may be passed now")}` }, text: "" }) : null,
          duty && seat !== mySeat && opened
            ? h(
                "button",
                {
                  class: "btn small",
                  type: "button",
                  disabled: true,
                  data: { openedAt: opened, passAfter: meta.reaction_timeout || PASS_AFTER, key: `pass-${meta.id}-${seat}` },
                  on: { click: (ev) => onPass && onPass(meta.id, seat, ev.currentTarget, w.version) },
                },
                interpolate(gettext("Pass for %(name)s"), { name: seatName(meta, seat) }, true),
                h("span", { class: "pass-hint" }),
              )
            : null,
        ),
      ),
    ),
  );
}

export function resultList(view, meta, { mySeat = null } = {}) {
  if (view.phase !== "over" || !view.result) return null;
  return h(
    "div",
    { class: "result" },
    h("h3", { text: gettext("Who keeps what") }),
    h(
      "ul",
      { class: "plain keeps" },
      view.result.map((gift, seat) => {
        const s = view.seats[seat];
        // A seat a substitute played goes home with the guest who left (docs/RULES.md).
        const forGuest = meta && meta.roster && meta.roster[seat] && meta.roster[seat].played_for;
        return h(
          "li",
          { class: seat === mySeat ? "me" : "" },
          fill(forGuest ? gettext("%(name)s (played by %(stand_in)s) keeps %(gift)s") : gettext("%(name)s keeps %(gift)s"), {
            name: h("strong", { text: forGuest || seatName(meta, seat) }),
            stand_in: seatName(meta, seat),
            gift: h("span", { class: "gift-tag", text: giftWord(gift) }),
          }),
          s && s.description ? `: ${s.description}` : "",
        );
      }),
    ),
  );
}

export function eventLog(lines, label = gettext("What happened")) {
  if (!lines || !lines.length) return null;
  return h(
    "section",
    { class: "log-box", "aria-label": label },
    h("h3", { text: label }),
    // role=log on a wrapper: on the <ol> itself it would hide the list from assistive tech.
    // In the order things happened, the newest last (as a log adds its lines): newest
    // first, "⊘ Bea blocked it" sat under the next move and read as that move's block.
    h("div", { role: "log" }, h("ol", { class: "log" }, lines.slice(-8).map((t) => h("li", { text: t })))),
  );
}

/** Append a table message's events to a per-table log (a Map id -> lines). */
export function noteEvents(logs, msg, mySeat = null) {
  const lines = logs.get(msg.table.id) || [];
  const name = namer(msg.table, mySeat);
  for (const e of msg.events || []) {
    const line = describeEvent(e, name);
    if (line) lines.push(line);
  }
  logs.set(msg.table.id, lines.slice(-30));
}

/** The whole public table card (host dashboard, big screen). */
export function tableCard(payload, lines, { duty = false, onPass = null, onConfirm = null } = {}) {
  const { view, table: meta } = payload;
  return h(
    "article",
    {
      class: `panel table phase-${view.phase}`,
      "aria-labelledby": `table-${meta.id}-h`,
      data: { tableId: meta.id, version: payload.version, phase: view.phase, round: view.round },
    },
    h("h2", { id: `table-${meta.id}-h` }, `${interpolate(gettext("Table %(letter)s"), { letter: meta.letter }, true)} `, h("span", { class: "round", text: `· ${roundTitle(view)}` })),
    h("p", { class: "status-line", text: statusLine(view, meta) }),
    windowBox(view, meta, { duty, onPass }),
    duty && view.phase === "reveal"
      ? h("button", { class: "btn primary big", type: "button", data: { key: `reveal-${meta.id}` }, on: { click: (ev) => onConfirm && onConfirm(meta.id, ev.currentTarget) } }, gettext("Everyone unwrapped — start round 2"))
      : null,
    resultList(view, meta),
    seatList(view, meta),
    vaultList(view),
    h("p", { class: "hint" }, interpolate(gettext("Draw pile %(draw)s · discards %(discards)s"), { draw: view.draw_pile, discards: view.discards }, true)),
    eventLog(lines),
  );
}

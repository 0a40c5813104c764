// Royal Heist: the pieces every Royal screen shares, built from the engine's views
// (games/royal/views.py public_view, or a seat_view's public part): the rooms in a row,
// the seats with their satchels and banks, the decide clock and the reveal's flip.
// Text only through textContent (ui.js h); every string this module shows is in TEXT,
// translated (the page's catalogue, /jsi18n/, loads before the modules); the card titles
// and rank names arrive translated in the server's rules JSON.
import { h, listText, namer } from "../heist/ui.js";
import { offlineMark } from "../heist/presence.js";

export const TEXT = {
  heist: (n, of) => interpolate(gettext("Heist %(n)s of %(of)s"), { n, of }, true),
  game: (n, of) => interpolate(gettext("Game %(n)s of %(of)s"), { n, of }, true),
  total: gettext("Total"),
  gameTied: (n, jewels) => interpolate(ngettext(
    "Game %(game)s is over: everyone banked %(jewels)s jewel. The banks start again at 0; the totals keep adding up.",
    "Game %(game)s is over: everyone banked %(jewels)s jewels. The banks start again at 0; the totals keep adding up.", jewels), { game: n, jewels }, true),
  gameOver: (n, names, jewels) => interpolate(ngettext(
    "Game %(game)s is over: %(names)s banked the most (%(jewels)s jewel). The banks start again at 0; the totals keep adding up.",
    "Game %(game)s is over: %(names)s banked the most (%(jewels)s jewels). The banks start again at 0; the totals keep adding up.", jewels),
  { game: n, names: listText(names), jewels }, true),
  rooms: gettext("Rooms"),
  noRooms: gettext("No room turned up yet."),
  jewelsLeft: (n) => interpolate(gettext("%(n)s left"), { n }, true),
  worth: (n) => interpolate(ngettext("%(n)s jewel", "%(n)s jewels", n), { n }, true),
  danger: gettext("danger"),
  plus: (card) => `+ ${card}`,
  seats: gettext("Who is where"),
  jewelsBanked: gettext("Jewels banked"),
  winner: pgettext("Royal Heist: a seat that won its table", "winner"),
  inside: pgettext("Royal Heist: a seat still in the heist", "inside"),
  out: pgettext("Royal Heist: a seat that left the heist", "out"),
  satchel: gettext("Satchel"),
  bank: pgettext("Royal Heist: the jewels a seat has banked", "Bank"),
  decided: gettext("decided"),
  deciding: gettext("deciding…"),
  pressedOn: gettext("pressed on"),
  gotOut: gettext("got out"),
  lastStep: gettext("last step: "),
  dangersSeen: gettext("Dangers this heist"),
  noDangers: gettext("none yet"),
  clockBefore: gettext("Time to choose: "),
  clockAfter: gettext("Time is up: the clock gets the undecided out."),
  clockAfterDuty: gettext("Time is up: the captain or the host may now get the undecided out."),
  clockUp: gettext("Time is up."),
  jewels: (n) => interpolate(ngettext("%(n)s jewel", "%(n)s jewels", n), { n }, true),
  roomDanger: (card) => interpolate(gettext("%(card)s: danger"), { card }, true),
  roomWorth: (card, worth, left) => interpolate(gettext("%(card)s: %(worth)s, %(left)s"), { card, worth, left }, true),
  roomWorthBonus: (card, bonus, worth, left) => interpolate(gettext("%(card)s plus %(bonus)s: %(worth)s, %(left)s"), { card, bonus, worth, left }, true),
};

const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const JOKER_FACE = "★";

let RULES;

/** Royal's rules as the engine states them (games/royal/catalogue.py rules_for_screens():
 * card titles, danger rank names), from the page's <script id="heist-rules"
 * type="application/json"> (the party's game's rules, templates/base.html) when it
 * carries one (read once); null without. */
export function royalRules() {
  if (RULES === undefined) {
    const el = typeof document !== "undefined" ? document.getElementById("heist-rules") : null;
    RULES = el ? JSON.parse(el.textContent) : null;
  }
  return RULES;
}

/** Give the rules directly (a page that has them from elsewhere). */
export function setRoyalRules(rules) {
  RULES = rules;
}

/** "7H" -> "7♥", "QS" -> "Q♠", "X1" -> "★" (a Joker has no suit): the code as printed. */
export function cardShort(code) {
  if (!code) return "";
  if (code[0] === "X") return JOKER_FACE;
  return `${code[0]}${SUIT_SYMBOL[code[1]] || ""}`;
}

/** "7 of hearts", "Queen of spades", "Joker": the engine's title; the code itself on a
 * page without the rules. */
export function cardTitle(code) {
  if (!code) return "";
  const rules = royalRules();
  const card = rules && rules.cards && rules.cards[code];
  return card ? card.title : cardShort(code);
}

/** "Queen" for "Q": the engine's name of a danger rank. */
export function rankName(rank) {
  const rules = royalRules();
  return (rules && rules.danger_ranks && rules.danger_ranks[rank]) || rank;
}

/** True when the table plays several games in a row (a party's running total). */
export function severalGames(view) {
  return (view.games || 1) > 1;
}

/** Where the table is: ["Heist 5 of 5"], or ["Game 2 of 3", "Heist 5 of 5"] when it
 * plays several games in a row. */
export function heistParts(view) {
  const heist = TEXT.heist(view.heist, view.heists);
  return severalGames(view) ? [TEXT.game(view.game, view.games), heist] : [heist];
}

/** A title of parts ("Table A", "Game 2 of 2", "Heist 5 of 5") as the items of a
 * `.r-title` (royal.css): a part moves to the next line whole, never "Heist 5 of / 5"
 * (a narrow big-screen tile did that), and breaks inside only when it alone is wider
 * than the line; a dot stands between two parts on one line, none starts a line. */
export function titleParts(parts, first = null) {
  return [first, ...parts.map((text) => h("span", { class: "r-part", text }))];
}

/** The game before this one ended a moment ago (the new game's first room is up): who
 * banked the most in it. The winners are the seats whose total grew the most, which
 * needs the last game's banks: the view's `last_heist` carries the game it ended. */
export function lastGameNews(view, meta, name) {
  const last = view.last_heist;
  if (!severalGames(view) || !last || view.phase !== "decide" || view.heist !== 1 || last.game !== view.game - 1) return null;
  if ((view.rooms || []).length > 1) return null;
  const banked = last.game_banks || null;
  if (!banked) return null;
  const best = Math.max(...banked);
  const names = banked.flatMap((b, s) => (b === best ? [name(s)] : []));
  const text = names.length === banked.length ? TEXT.gameTied(last.game, best) : TEXT.gameOver(last.game, names, best);
  return h("p", { class: "r-news game-over", text });
}

/** One room as a card face: rank and suit, its worth (or "danger"), the jewels on it. */
export function roomFace(room, { latest = false } = {}) {
  const red = room.card[1] === "H" || room.card[1] === "D";
  const label = room.kind === "danger"
    ? TEXT.roomDanger(cardTitle(room.card))
    : room.bonus
      ? TEXT.roomWorthBonus(cardTitle(room.card), cardTitle(room.bonus), TEXT.worth(room.value), TEXT.jewelsLeft(room.jewels))
      : TEXT.roomWorth(cardTitle(room.card), TEXT.worth(room.value), TEXT.jewelsLeft(room.jewels));
  return h("li", { class: `r-room kind-${room.kind}${red ? " red" : ""}${latest ? " latest" : ""}`, "aria-label": label, data: { card: room.card } },
    h("span", { class: "r-face", "aria-hidden": "true", text: cardShort(room.card) }),
    room.bonus ? h("span", { class: "r-bonus", "aria-hidden": "true", text: TEXT.plus(cardShort(room.bonus)) }) : null,
    h("span", { class: "r-worth", "aria-hidden": "true", text: room.kind === "danger" ? TEXT.danger : TEXT.worth(room.value) }),
    // a danger room holds no jewels of its own: "0 left" on it would read as the rooms' count
    room.kind === "danger" && !room.jewels ? null : h("span", { class: `r-left${room.jewels ? "" : " none"}`, "aria-hidden": "true", text: TEXT.jewelsLeft(room.jewels) }));
}

/** The rooms of this heist, oldest first, the newest marked. */
export function roomRow(view) {
  const rooms = view.rooms || [];
  return h("section", { class: "r-rooms-box", "aria-label": TEXT.rooms },
    h("h3", { class: "r-label", text: TEXT.rooms }),
    rooms.length
      ? h("ol", { class: "r-rooms" }, rooms.map((r, i) => roomFace(r, { latest: i === rooms.length - 1 })))
      : h("p", { class: "hint", text: TEXT.noRooms }));
}

/** The danger ranks turned up this heist, in order. */
export function dangerLine(view) {
  const seen = view.dangers || [];
  return h("p", { class: "r-dangers" },
    h("span", { class: "r-label", text: `${TEXT.dangersSeen}: ` }),
    seen.length ? seen.map((r) => h("span", { class: "r-danger-chip", text: rankName(r) })) : TEXT.noDangers);
}

/** A key naming one reveal (a reveal is followed by a room or the heist's end). */
function revealKey(view) {
  return `${view.heist}:${(view.rooms || []).length}:${JSON.stringify(view.revealed || {})}`;
}

const flipped = new Map(); // table id -> the reveal already flipped on this page

/** True the first time a screen draws this reveal: the choices flip then, once, and
 * not again when the same view is drawn again (a clock tick, a decision of the next
 * step). */
export function flipsNow(view, meta) {
  const revealed = view.revealed || {};
  if (!Object.keys(revealed).length) return false;
  const id = meta && meta.id !== undefined ? meta.id : "table";
  const key = revealKey(view);
  if (flipped.get(id) === key) return false;
  flipped.set(id, key);
  return true;
}

/** What a seat shows of its choice: before the reveal only whether it decided. */
function choiceMark(view, seat, flip) {
  const revealed = view.revealed || {};
  const key = String(seat.seat);
  if (view.phase === "decide" && seat.inside) {
    return seat.decided
      ? h("span", { class: "r-mark decided" }, h("span", { "aria-hidden": "true", text: "✓ " }), TEXT.decided)
      : h("span", { class: "r-mark deciding" }, h("span", { "aria-hidden": "true", text: "… " }), TEXT.deciding);
  }
  if (key in revealed) {
    const on = revealed[key];
    return h("span", { class: `r-mark r-choice ${on ? "press" : "leave"}${flip ? " flip" : ""}`, data: { choice: on ? "press_on" : "get_out" } },
      h("span", { "aria-hidden": "true", text: on ? "▶ " : "⇦ " }), on ? TEXT.pressedOn : TEXT.gotOut);
  }
  return null;
}

/** The last reveal's choice for a seat still inside and deciding again (the flip shows
 * it until the next reveal). */
function lastChoice(view, seat, flip) {
  const revealed = view.revealed || {};
  const key = String(seat.seat);
  if (!(key in revealed) || !(view.phase === "decide" && seat.inside)) return null;
  const on = revealed[key];
  return h("span", { class: "r-last" }, TEXT.lastStep,
    h("span", { class: `r-mark r-choice ${on ? "press" : "leave"}${flip ? " flip" : ""}`, data: { choice: on ? "press_on" : "get_out" } },
      h("span", { "aria-hidden": "true", text: on ? "▶ " : "⇦ " }), on ? TEXT.pressedOn : TEXT.gotOut));
}

/** The seats: name, inside or out, satchel, bank, decided (never what until the reveal). */
export function seatBoard(view, meta, { mySeat = null, flip = false, offline = null } = {}) {
  const name = namer(meta, mySeat);
  // At the end every satchel is empty and nobody is inside: each seat's jewels, the
  // winners marked, are the table's result.
  const over = view.phase === "over";
  const winners = new Set(over ? view.winners || [] : []);
  const label = over ? TEXT.jewelsBanked : TEXT.seats;
  return h("section", { class: "r-seats-box", "aria-label": label },
    h("table", { class: "r-seats" },
      h("caption", { class: "r-label", text: label }),
      h("thead", null, h("tr", null,
        h("th", { scope: "col", text: "" }), over ? null : h("th", { scope: "col", text: "" }),
        over ? null : h("th", { scope: "col", class: "num", text: TEXT.satchel }), h("th", { scope: "col", class: "num", text: TEXT.bank }),
        severalGames(view) ? h("th", { scope: "col", class: "num", text: TEXT.total }) : null)),
      h("tbody", null, view.seats.map((s) => h("tr", { class: `${over ? (winners.has(s.seat) ? "winner" : "") : s.inside ? "in" : "out"}${s.seat === mySeat ? " me" : ""}`, data: { seat: s.seat } },
        h("th", { scope: "row", class: "r-name" }, name(s.seat), offline && offline.has(s.seat) ? [" ", offlineMark()] : null,
          winners.has(s.seat) ? [" ", h("span", { class: "r-mark r-winner" }, h("span", { "aria-hidden": "true", text: "★ " }), TEXT.winner)] : null),
        over
          ? null
          : h("td", { class: "r-state" },
            h("span", { class: `r-where ${s.inside ? "in" : "out"}`, text: s.inside ? TEXT.inside : TEXT.out }), " ",
            choiceMark(view, s, flip), " ", lastChoice(view, s, flip)),
        over ? null : h("td", { class: "num", text: String(s.satchel) }),
        h("td", { class: "num r-bank", text: String(s.bank) }),
        severalGames(view) ? h("td", { class: "num r-total", text: String(s.total) }) : null)))));
}

/** The decide clock: ui.js startClocks ticks it (data-opened-at, data-countdown), as
 * on Yankee's step clocks; the deadline is the table payload's `step_due_at`. `short`:
 * a big-screen tile's, which says only that time is up (who acts then is the captain's
 * and host's business), so the line stays one line when the clock runs out between two
 * draws, and the tile measured at the last draw stays whole. */
export function decideClock(view, meta, { short = false } = {}) {
  if (view.phase !== "decide" || !meta || !meta.step_clock || !meta.step_due_at) return null;
  return h("p", { class: "r-clock", role: "timer" },
    h("span", { class: "countdown", data: { openedAt: meta.step_due_at - meta.step_clock, countdown: meta.step_clock, before: TEXT.clockBefore,
      // the server plays the clock's choice only when the host chose so; else a person does
      after: short ? TEXT.clockUp : meta.step_clock_server ? TEXT.clockAfter : TEXT.clockAfterDuty }, text: "" }));
}

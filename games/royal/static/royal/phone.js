// Royal Heist on a guest's phone: the seat's view (games/royal/views.py seat_view) and
// the table's details (meta: roster, step_clock, step_due_at) as DOM. Two thumb-sized
// buttons while the seat may decide; the choice, once made, shown locked and kept
// secret until the reveal. renderPhone opens no socket: onDecide(pressOn) does.
//
// The phone module (static/heist/play.js is its shell and says what `mount` returns): the
// lobby until the guest is seated, then renderPhone on every table update; a decision
// goes out as the seat's own `act`.
import { h, listText, namer, render, sentence, showError, tickClocks, track } from "../heist/ui.js";
import { standInBox } from "../heist/standin.js";
import { EVERY_TABLE_STORY, storyLink } from "../heist/story-link.js";
import { cardTitle, dangerLine, decideClock, flipsNow, heistParts, lastGameNews, rankName, roomRow, seatBoard, severalGames, titleParts } from "./rooms.js";

export const TEXT = {
  pressOn: gettext("Press on"),
  getOut: gettext("Get out"),
  pressOnHint: gettext("keep your satchel at risk for the next room"),
  getOutHint: gettext("bank your satchel and a share of what is left"),
  choose: gettext("Press on or get out?"),
  lockedOn: gettext("You chose to press on — hidden until everyone inside has chosen."),
  lockedOut: gettext("You chose to get out — hidden until everyone inside has chosen."),
  waiting: gettext("Waiting for the others to choose."),
  gotOutBanked: (n) => interpolate(ngettext("You got out with %(n)s jewel banked. Wait for the next heist.", "You got out with %(n)s jewels banked. Wait for the next heist.", n), { n }, true),
  satchel: gettext("Your satchel"),
  bank: gettext("Your bank"),
  total: gettext("Your total"),
  jewels: (n) => interpolate(ngettext("%(n)s jewel", "%(n)s jewels", n), { n }, true),
  roomGave: (card, n) => interpolate(ngettext("%(card)s turned up: %(n)s jewel into your satchel.", "%(card)s turned up: %(n)s jewels into your satchel.", n), { card, n }, true),
  roomGaveNothing: (card) => interpolate(gettext("%(card)s turned up: it did not divide, nothing for you; it stays in the room."), { card }, true),
  roomDanger: (card, rank) => interpolate(gettext("%(card)s turned up: danger! A second %(rank)s ends this heist."), { card, rank }, true),
  roomSeen: (card) => interpolate(gettext("%(card)s turned up."), { card }, true),
  withBonus: (card, bonus) => interpolate(gettext("%(card)s (with the %(bonus)s)"), { card, bonus }, true),
  caught: (card, lost) => (lost
    ? interpolate(ngettext("Last heist: the %(card)s caught everyone still inside (%(lost)s jewel in the rooms lost).",
      "Last heist: the %(card)s caught everyone still inside (%(lost)s jewels in the rooms lost).", lost), { card, lost }, true)
    : interpolate(gettext("Last heist: the %(card)s caught everyone still inside."), { card }, true)),
  allOut: gettext("Last heist: everyone got out in time."),
  gate: gettext("Half-way: the game waits at the gate until the host opens it."),
  over: gettext("Game over."),
  youWon: gettext("You won!"),
  youTied: gettext("You share the win!"),
  // a name that ends with its initial's full stop ("Hana A.") ends the sentence with it
  winners: (names) => sentence(interpolate(ngettext("Winner: %(names)s.", "Winners: %(names)s.", names.length), { names: names.join(", ") }, true)),
  finalBank: (n) => interpolate(ngettext("You banked %(n)s jewel in all.", "You banked %(n)s jewels in all.", n), { n }, true),
  finalTotal: (n, games) => interpolate(ngettext("You banked %(n)s jewel over %(games)s games.", "You banked %(n)s jewels over %(games)s games.", n), { n, games }, true),
  group: gettext("Your choice"),
  captainOf: (letter) => interpolate(gettext("Captain of table %(letter)s"), { letter }, true),
  captainHint: gettext("When a guest's clock runs out, get them out here (the rules' choice for a guest who does not answer), so the table does not wait for the host."),
  inRooms: (n) => interpolate(ngettext("%(n)s jewel in the rooms", "%(n)s jewels in the rooms", n), { n }, true),
  roomEnded: (card, rank) => interpolate(gettext("%(card)s turned up: the second %(rank)s ended this heist."), { card, rank }, true),
  lastChoices: (pressed, out) => [
    pressed.length ? sentence(interpolate(gettext("Pressed on: %(names)s."), { names: listText(pressed) }, true)) : "",
    out.length ? sentence(interpolate(gettext("Got out: %(names)s."), { names: listText(out) }, true)) : "",
  ].filter(Boolean).join(" "),
  caughtWho: (names) => sentence(interpolate(gettext("Caught: %(names)s."), { names: listText(names) }, true)),
  champions: (names) => interpolate(ngettext("Champion of the party: %(names)s", "Champions of the party: %(names)s", names.length), { names: listText(names) }, true),
  rank: (rank, of) => interpolate(gettext("You placed %(rank)s of %(of)s guests."), { rank, of }, true),
  leftResult: gettext("When the party is over, its result is on the party's story page:"),
  seeResult: gettext("See the result"),
};

/** The newest room and what it gave this seat (an even share of its worth among the
 * seats inside when it was turned up: nobody leaves between a room and the next reveal). */
function roomNews(view) {
  const rooms = view.rooms || [];
  if (!rooms.length) return null;
  const room = rooms[rooms.length - 1];
  const name = room.bonus ? TEXT.withBonus(cardTitle(room.card), cardTitle(room.bonus)) : cardTitle(room.card);
  if (room.kind === "danger") {
    // The rank's second danger ended the heist (the final room of the game stays shown).
    const ended = (view.dangers || []).filter((r) => r === room.rank).length > 1 || view.phase === "over";
    return h("p", { class: "r-news danger", text: ended ? TEXT.roomEnded(name, rankName(room.rank)) : TEXT.roomDanger(name, rankName(room.rank)) });
  }
  if (!view.inside) return h("p", { class: "r-news", text: TEXT.roomSeen(name) });
  const inside = view.seats.filter((s) => s.inside).length;
  const share = inside ? Math.floor(room.value / inside) : 0;
  return h("p", { class: "r-news gain", data: { share } }, share ? TEXT.roomGave(name, share) : TEXT.roomGaveNothing(name));
}

/** How the previous heist ended, while the new one has just begun: how, who was caught,
 * and the last choices shown (`lastReveal`: the reveal this phone saw end it; the new
 * heist's view starts with none). */
function lastHeistNews(view, meta, lastReveal) {
  const last = view.last_heist;
  if (!last || view.phase !== "decide" || last.heist !== view.heist - 1 || (view.rooms || []).length > 1) return null;
  const name = namer(meta, view.you);
  const lines = [last.ended === "caught" ? TEXT.caught(cardTitle(last.card), last.rooms_lost) : TEXT.allOut];
  if ((last.caught || []).length) lines.push(TEXT.caughtWho(last.caught.map(name)));
  if (lastReveal && lastReveal.heist === last.heist && lastReveal.game === last.game) {
    const seats = Object.keys(lastReveal.revealed).map(Number).sort((a, b) => a - b);
    lines.push(TEXT.lastChoices(seats.filter((s) => lastReveal.revealed[s]).map(name), seats.filter((s) => !lastReveal.revealed[s]).map(name)));
  }
  return h("p", { class: `r-news ${last.ended}`, data: { lastHeist: last.heist } }, lines.filter(Boolean).join(" "));
}

function decideButtons(view, onDecide) {
  const can = Boolean(view.can_decide);
  const chosen = view.decision;
  const press = (pressOn) => (ev) => {
    if (!can) return;
    for (const b of ev.currentTarget.parentElement.querySelectorAll("button")) b.disabled = true;
    ev.currentTarget.setAttribute("aria-pressed", "true");
    if (onDecide) onDecide(pressOn);
  };
  const button = (pressOn) => h("button", {
    type: "button",
    class: `btn r-decide ${pressOn ? "press" : "leave"}`,
    disabled: !can,
    aria: { pressed: chosen === null || chosen === undefined ? null : String(chosen === pressOn) },
    data: { key: `royal-decide-${pressOn ? "on" : "out"}`, choice: pressOn ? "press_on" : "get_out" },
    on: { click: press(pressOn) },
  }, h("span", { class: "r-verb", text: pressOn ? TEXT.pressOn : TEXT.getOut }),
  h("span", { class: "r-hint", text: pressOn ? TEXT.pressOnHint : TEXT.getOutHint }));
  return h("div", { class: "r-buttons", role: "group", "aria-label": TEXT.group }, button(true), button(false));
}

function choicePanel(view, meta, onDecide, standing) {
  if (view.phase === "gate") return h("p", { class: "r-status", text: TEXT.gate });
  if (view.phase === "over") {
    const you = view.seats[view.you];
    const winners = view.winners || [];
    const names = winners.map(namer(meta, view.you));
    const head = winners.includes(view.you) ? (winners.length > 1 ? TEXT.youTied : TEXT.youWon) : TEXT.over;
    const final = severalGames(view) ? TEXT.finalTotal(you.total, view.games) : TEXT.finalBank(you.bank);
    return h("div", { class: "r-status over" }, h("p", { class: "r-big", text: head }), h("p", { text: TEXT.winners(names) }), h("p", { text: final }),
      standing ? h("p", { class: "r-party-rank", data: { rank: standing.rank } }, TEXT.rank(standing.rank, standing.of)) : null,
      standing && (standing.champions || []).length ? h("p", { class: "r-champion" }, TEXT.champions(standing.champions)) : null);
  }
  if (!view.inside) {
    return h("p", { class: "r-status out", text: TEXT.gotOutBanked(view.seats[view.you].bank) });
  }
  const chosen = view.decision;
  const locked = chosen === true || chosen === false;
  return h("div", { class: "r-choose" },
    h("p", { class: "r-status", role: "status", "aria-live": "polite", text: locked ? (chosen ? TEXT.lockedOn : TEXT.lockedOut) : view.can_decide ? TEXT.choose : TEXT.waiting }),
    decideButtons(view, onDecide),
    decideClock(view, meta));
}

/** A captain's duty on their own phone, as on a tablet: a quiet guest's choice played
 * for them once the clock has run out (standin.js, the tablets' buttons). */
function captainBox(view, meta, onDuty) {
  const box = standInBox(view, meta, { onAct: onDuty, mySeat: view.you });
  return h("section", { class: "panel captain-panel r-captain", "aria-labelledby": "captain-h" },
    h("h2", { id: "captain-h" }, h("span", { "aria-hidden": "true", text: "⚑ " }), TEXT.captainOf(meta.letter)),
    box || h("p", { class: "hint", text: TEXT.captainHint }));
}

/** The phone's whole Royal screen for one seat, under the shell's head (the table, the
 * seat and the guest: static/heist/play.js). */
export function renderPhone(view, meta, { onDecide, me = null, onDuty = null, standing = null, lastReveal = null } = {}) {
  const you = view.seats[view.you];
  const flip = flipsNow(view, { id: `phone:${meta && meta.id}` });
  return h("div", { class: "royal r-phone", data: { version: view.version, phase: view.phase } },
    h("header", { class: "r-head" },
      h("h2", { class: "r-title" }, titleParts(heistParts(view))),
      h("dl", { class: "r-purse" },
        h("div", null, h("dt", { text: TEXT.satchel }), h("dd", { class: "r-satchel", text: TEXT.jewels(you.satchel) })),
        h("div", null, h("dt", { text: TEXT.bank }), h("dd", { class: "r-bankv", text: TEXT.jewels(you.bank) })),
        severalGames(view) ? h("div", null, h("dt", { text: TEXT.total }), h("dd", { class: "r-totalv", text: TEXT.jewels(you.total) })) : null)),
    // The room just turned up, then the choice: both on a 320x568 screen whatever news
    // follows (how the last heist or game ended reads fine under the buttons).
    roomNews(view),
    choicePanel(view, meta, onDecide, standing),
    me && me.captain && onDuty && view.phase === "decide" ? captainBox(view, meta, onDuty) : null,
    lastGameNews(view, meta, namer(meta, view.you)),
    lastHeistNews(view, meta, lastReveal),
    dangerLine(view),
    roomRow(view),
    h("p", { class: "r-meta r-in-rooms", text: TEXT.inRooms(view.jewels_in_rooms || 0) }),
    seatBoard(view, meta, { mySeat: view.you, flip }));
}

/** Draw Royal Heist's phone into `root`; `ctx.live` is the shell's socket. */
export function mount(root, ctx) {
  const S = {
    me: null,
    party: null,
    seat: null, // the latest `table` payload with this seat's view
    sentVersion: null, // a decision is on its way, made at this version
    fatal: null,
    standing: null, // at the end: the party's champions and this guest's rank
    lastReveal: null, // the newest reveal seen: {game, heist, revealed}, kept into the next heist
  };

  /** A guest without a seat once the tables play: a leaver whose seat a late arrival
   * plays on (at the end: their rank and the champions, never a dead end), or a late
   * arrival waiting for a seat. */
  function drawUnseated(p) {
    const me = S.me;
    const over = p.status === "over";
    const standing = S.standing;
    // The shell's head above says who plays the seat, or that the guest is registered late.
    render(root, h("section", { class: "panel lobby r-unseated", "aria-labelledby": "seat-h" },
      over && standing ? h("p", { class: "r-party-rank", data: { rank: standing.rank } }, TEXT.rank(standing.rank, standing.of)) : null,
      over && standing && (standing.champions || []).length ? h("p", { class: "r-champion" }, TEXT.champions(standing.champions)) : null,
      over
        ? h("p", null, h("a", { class: "btn primary", href: `/story/${encodeURIComponent(ctx.code)}/`, text: TEXT.seeResult }))
        : h("p", { class: "hint" }, TEXT.leftResult, " ", h("a", { href: `/story/${encodeURIComponent(ctx.code)}/`, text: TEXT.seeResult }))));
  }

  /** Remember the newest reveal from the update's events: the reveal that ends a heist
   * comes in the same update as the next heist, whose view starts without it. */
  function noteReveal(msg) {
    const view = msg.view;
    for (const e of msg.events || []) {
      if (e.type !== "revealed") continue;
      const last = view.last_heist;
      const game = last && last.heist === e.heist ? last.game : view.game;
      const revealed = Object.fromEntries(Object.entries(e.choices || {}).map(([seat, c]) => [seat, c === "press_on"]));
      S.lastReveal = { game, heist: e.heist, revealed };
    }
  }

  /** A captain's pass for a quiet guest, from this phone. */
  function duty(action, button, label) {
    button.disabled = true;
    track(ctx.live.act(action, { version: S.seat.version }), label || gettext("Sending")).catch(showError).finally(() => { button.disabled = false; });
  }

  /** The seat's decision, for the room this screen shows: the frame carries the version
   * drawn, so a late second tap (made while the first one's update redraws the buttons)
   * is refused as stale once the room has changed, and the server sends a snapshot,
   * instead of being kept for a room the guest never saw. Another seat's decision on the
   * same room (a newer version) does not refuse it: the room began before both
   * (docs/PROTOCOL.md). The server applies a resent frame once (its `re`). */
  function decide(pressOn) {
    const version = S.seat.view.version;
    S.sentVersion = version;
    track(ctx.live.act({ type: "decide", press_on: pressOn }, { version }), gettext("Sending your choice"))
      .catch((err) => {
        S.sentVersion = null;
        showError(err);
        draw();
      });
  }

  function draw() {
    if (S.fatal) {
      render(root, h("section", { class: "panel", role: "alert" },
        h("h1", { text: gettext("You're not at this table any more") }),
        h("p", { text: S.fatal }),
        h("p", { text: TEXT.leftResult }),
        h("p", null, h("a", { class: "btn primary", href: `/story/${encodeURIComponent(ctx.code)}/`, text: TEXT.seeResult }))));
      return;
    }
    if (!S.me) return;
    if (!S.seat && S.party && S.party.status !== "lobby") {
      drawUnseated(S.party);
      return;
    }
    if (!S.seat) {
      const p = S.party || {};
      // The shell's head above names the party and the guest (play.js).
      render(root, h("section", { class: "panel lobby", "aria-labelledby": "seat-h" },
        h("p", { class: "waiting" }, h("span", { class: "spinner", "aria-hidden": "true" }),
          p.guest_count
            ? interpolate(ngettext("Waiting for the host to seat everyone · %(n)s guest in.", "Waiting for the host to seat everyone · %(n)s guests in.", p.guest_count), { n: p.guest_count }, true)
            : gettext("Waiting for the host to seat everyone."))));
      return;
    }
    const { view, table: meta } = S.seat;
    if (S.sentVersion !== null && S.sentVersion !== view.version) S.sentVersion = null;
    // While a decision is on its way the buttons stay locked (the view cannot say so yet).
    const shown = S.sentVersion === null ? view : { ...view, can_decide: false };
    const over = S.party && S.party.status === "over"; // every table is done: the story is told
    render(root, [
      renderPhone(shown, meta, { onDecide: decide, me: S.me, onDuty: duty, standing: S.standing, lastReveal: S.lastReveal }),
      over ? h("p", { class: "r-story" }, storyLink(ctx.code, { text: EVERY_TABLE_STORY })) : null]);
    tickClocks();
  }

  return {
    snapshot(snap) {
      S.me = snap.me;
      S.party = snap.party;
      S.seat = snap.table || null;
      S.standing = snap.standing || null;
      draw();
    },
    table(msg) {
      S.seat = msg;
      noteReveal(msg);
      draw();
    },
    party(party) {
      // (The party's end: the shell resyncs, and the snapshot brings the champions and
      // this guest's rank.)
      S.party = { ...(S.party || {}), ...party };
      draw();
    },
    fatal(closeCode, message) {
      S.fatal = message;
      draw();
    },
    draw,
  };
}

// Yankee Heist's words on its screens: its rounds' names, its cards' faces and the
// sentences its table log tells (each phone, tablet and big-screen module of the game
// imports them; the host's static/heist/ui.js keeps only what every game shares).
import { h, listText, rules, sentence, youWord } from "../heist/ui.js";

/** What is written on the physical gift: a guest's number, or V1.. for vault gifts
 * (the engine's gift_label, from its rules: a vault gift's id is `vault.id_base` + its
 * number). */
export function giftLabel(id) {
  const base = rules().vault.id_base;
  return id >= base ? `V${id - base}` : String(id);
}

/** "THE SNOOP" for round 1, ... ("" for a round the rules do not name). */
export function roundName(round) {
  return rules().rounds[String(round)] || "";
}

/** The relay's sentences in Yankee Heist's rounds (the gate after round 2, rounds 3 and 4
 * after the relay): the host's party bar takes them from the tile module's `relayWords`
 * (static/heist/party.js RELAY_WORDS says what each is), the game's own screens from here. */
export const relayWords = {
  ready: () => gettext("Every table finished round 2. Open the relay and announce the order; each captain draws a seat."),
  walking: ({ arrived, gifts }) => interpolate(ngettext(
    "The carriers are walking: %(arrived)s of %(gifts)s gift arrived. Each table plays round 3 once its gift is in and its own carrier has delivered.",
    "The carriers are walking: %(arrived)s of %(gifts)s gifts arrived. Each table plays round 3 once its gift is in and its own carrier has delivered.", gifts),
  { arrived, gifts }, true),
  allArrived: () => gettext("Every gift has arrived — start round 3 everywhere"),
  done: () => gettext("The relay has run: every table plays rounds 3 and 4."),
  playing: (args) => interpolate(gettext("Gift %(received)s arrived from table %(from)s: playing round 3"), args, true),
};

/** How many rounds a game has. */
export function roundCount() {
  return Object.keys(rules().rounds).length;
}

export const KINDS = {
  MOVE: { icon: "⇄", label: pgettext("card kind", "Move") },
  SCHEME: { icon: "◆", label: pgettext("card kind", "Scheme") },
  REACTION: { icon: "☂", label: pgettext("card kind", "Reaction") },
};

/** How many other players a card names when played at a table of `players` (the
 * engine's count: a card may name fewer at a two-player table). */
export function targetCount(cardName, players) {
  const card = rules().cards[cardName];
  if (!card) return 0;
  return players === 2 ? card.targets_two_players : card.targets;
}

/** A card as a (non-interactive or interactive) element. */
export function cardFace(card, { tag = "div", props = {}, extra = null } = {}) {
  const kind = KINDS[card.kind] || { icon: "", label: card.kind };
  const info = rules().cards[card.card] || { effect: "" };
  return h(
    tag,
    { class: `card kind-${card.kind.toLowerCase()}`, data: { cardId: card.id, cardName: card.card }, ...props },
    h("span", { class: "card-kind" }, h("span", { "aria-hidden": "true", text: kind.icon }), ` ${kind.label}`),
    h("strong", { class: "card-title", text: card.title }),
    h("span", { class: "card-effect", text: info.effect }),
    extra,
  );
}

/** "swap Alex's gift 3 with your gift 5" / "gift 3: Alex → Bea, ..." for a window move. */
export function describeMove(move, gifts, name) {
  const me = (seat) => name(seat) === youWord();
  const gift = (seat) => giftLabel(gifts[seat]);
  if (move.length === 2 && move[0][0] === move[1][1] && move[0][1] === move[1][0]) {
    const [a, b] = move[0];
    const args = { a: name(a), b: name(b), gift_a: gift(a), gift_b: gift(b) };
    if (me(a)) return interpolate(gettext("swap your gift %(gift_a)s with %(b)s's gift %(gift_b)s"), args, true);
    if (me(b)) return interpolate(gettext("swap %(a)s's gift %(gift_a)s with your gift %(gift_b)s"), args, true);
    return interpolate(gettext("swap %(a)s's gift %(gift_a)s with %(b)s's gift %(gift_b)s"), args, true);
  }
  const moves = move.map(([from, to]) => {
    const args = { owner: name(from), gift: gift(from), to: name(to) };
    if (me(from)) return interpolate(gettext("your gift %(gift)s goes to %(to)s"), args, true);
    if (me(to)) return interpolate(gettext("%(owner)s's gift %(gift)s goes to you"), args, true);
    return interpolate(gettext("%(owner)s's gift %(gift)s goes to %(to)s"), args, true);
  });
  return interpolate(gettext("rotate gifts: %(moves)s"), { moves: moves.join(", ") }, true);
}

/** One event as a sentence for the table's log, or null for noise. */
export function describeEvent(e, name) {
  const line = eventLine(e, name);
  return line ? sentence(line) : line;
}

/** The person reading as the object of a sentence ("played on you", "SWIPE at you"). */
function youObject() {
  return pgettext("the person reading as an object: played on you, SWIPE at you", "you");
}

const DIRECTIONS = {
  clockwise: () => gettext("clockwise"),
  counterclockwise: () => gettext("counterclockwise"),
};

function eventLine(e, name) {
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const me = (seat) => name(seat) === youWord();
  const N = (seat) => cap(name(seat));
  const obj = (seat) => (me(seat) ? youObject() : name(seat));
  // Whole sentences: `mine` when the person reading did it, `theirs` (with %(actor)s) otherwise.
  const say = (seat, mine, theirs, args = {}) => interpolate(me(seat) ? mine : theirs, { actor: N(seat), ...args }, true);
  switch (e.type) {
    case "round_started": {
      const args = { round: e.round, round_name: roundName(e.round), starter: name(e.starter) };
      return me(e.starter)
        ? interpolate(gettext("Round %(round)s — %(round_name)s: you start."), args, true)
        : interpolate(gettext("Round %(round)s — %(round_name)s: %(starter)s starts."), args, true);
    }
    case "card_played": {
      const t = (e.targets || []).map(obj);
      const args = { card: e.card_name, targets: listText(t) };
      let s = t.length
        ? say(e.seat, gettext("You played %(card)s on %(targets)s"), gettext("%(actor)s played %(card)s on %(targets)s"), args)
        : say(e.seat, gettext("You played %(card)s"), gettext("%(actor)s played %(card)s"), args);
      if (e.direction) s += ` (${DIRECTIONS[e.direction] ? DIRECTIONS[e.direction]() : e.direction})`;
      return s + ".";
    }
    case "swipe":
      return say(e.seat, gettext("You cashed in 2 cards to SWIPE at %(target)s."), gettext("%(actor)s cashed in 2 cards to SWIPE at %(target)s."), { target: obj(e.target) });
    case "regrouped":
      return e.count
        ? say(e.seat,
          ngettext("You regrouped %(count)s card.", "You regrouped %(count)s cards.", e.count),
          ngettext("%(actor)s regrouped %(count)s card.", "%(actor)s regrouped %(count)s cards.", e.count), { count: e.count })
        : say(e.seat, gettext("You passed."), gettext("%(actor)s passed."));
    case "vault_exchanged":
      return say(e.seat,
        gettext("You gave gift %(gave)s to the vault and took gift %(took)s: %(description)s."),
        gettext("%(actor)s gave gift %(gave)s to the vault and took gift %(took)s: %(description)s."),
        { gave: giftLabel(e.gave), took: giftLabel(e.took), description: e.description });
    case "blocked":
      return say(e.seat, gettext("⊘ You blocked it with %(card)s!"), gettext("⊘ %(actor)s blocked it with %(card)s!"), { card: e.card_name });
    case "gifts_moved":
      return `${e.label}: ` + e.moves.map((m) => interpolate(gettext("gift %(gift)s → %(to)s"), { gift: giftLabel(m.gift), to: name(m.to) }, true)).join(", ") + ".";
    case "reaction_timed_out":
      return say(e.seat, gettext("You did not answer in time: the move was let happen for you."), gettext("%(actor)s did not answer in time: the move was let happen for them."));
    case "turn_timed_out":
      return say(e.seat, gettext("Your turn ran out: passed for you."), gettext("%(actor)s's turn ran out: passed for them."));
    case "trim_timed_out":
      return say(e.seat, gettext("Your discard ran out: cards discarded at random."), gettext("%(actor)s's discard ran out: cards discarded at random."));
    case "peeked":
      return e.own ? null : interpolate(gettext("You peeked at gift %(gift)s: %(description)s"), { gift: giftLabel(e.gift), description: e.description }, true);
    case "pickpocketed":
      if (me(e.target)) return interpolate(gettext("%(actor)s pickpocketed a card from you."), { actor: N(e.seat) }, true);
      return say(e.seat, gettext("You pickpocketed a card from %(target)s."), gettext("%(actor)s pickpocketed a card from %(target)s."), { target: name(e.target) });
    case "drew":
      if (e.reason === "comeback") return say(e.seat, gettext("You drew a comeback card."), gettext("%(actor)s drew a comeback card."));
      if (e.reason === "tripwire") {
        return say(e.seat,
          ngettext("You drew %(count)s from TRIPWIRE.", "You drew %(count)s from TRIPWIRE.", e.count),
          ngettext("%(actor)s drew %(count)s from TRIPWIRE.", "%(actor)s drew %(count)s from TRIPWIRE.", e.count), { count: e.count });
      }
      if (e.reason === "inside_man") {
        return say(e.seat,
          ngettext("You drew %(count)s (INSIDE MAN).", "You drew %(count)s (INSIDE MAN).", e.count),
          ngettext("%(actor)s drew %(count)s (INSIDE MAN).", "%(actor)s drew %(count)s (INSIDE MAN).", e.count), { count: e.count });
      }
      return null;
    case "reshuffled":
      return gettext("The discards were shuffled into a new draw pile.");
    case "round_ended":
      return interpolate(gettext("Round %(round)s is over."), { round: e.round }, true);
    case "reveal_due":
      return gettext("Unwrap and show every gift!");
    case "revealed":
      return gettext("All gifts are revealed.");
    case "at_gate":
      return gettext("This table waits at the gate for the relay.");
    case "relay_seat_drawn":
      return me(e.seat)
        ? interpolate(gettext("Relay: you will pass gift %(gift)s."), { gift: giftLabel(e.gift) }, true)
        : interpolate(gettext("Relay: %(name)s will pass gift %(gift)s."), { name: name(e.seat), gift: giftLabel(e.gift) }, true);
    case "relay_exchanged":
      return me(e.seat)
        ? interpolate(gettext("Relay: you received gift %(gift)s."), { gift: giftLabel(e.received) }, true)
        : interpolate(gettext("Relay: %(name)s received gift %(gift)s."), { name: name(e.seat), gift: giftLabel(e.received) }, true);
    case "game_over":
      return gettext("Game over: keep the gift in front of you.");
    default:
      return null;
  }
}

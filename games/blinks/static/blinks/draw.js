// What every Blinks Heist screen draws the same way (games/blinks/views.py is the view):
// the vault as hexes with each Blink's health in its claimer's team colour, the teams,
// whose turn it is, the record waiting for the captain, and the end.
import { offlineMark } from "../heist/presence.js";
import { h, rules, sentence } from "../heist/ui.js";

/** The four teams as the rules name them: [{team, colour, name}]. */
export function teams() {
  return rules().teams;
}

export function teamName(team) {
  const t = teams()[team];
  return t ? t.name : "";
}

/** A guest's name at this table (the roster), or "Seat N". */
export function nameOf(meta, seat) {
  const r = meta && meta.roster && meta.roster[seat];
  return r ? r.name : interpolate(gettext("Seat %(number)s"), { number: seat + 1 }, true);
}

/** A team's colour chip with its name. */
export function teamChip(team, text = null) {
  return h("span", { class: `bk-chip bk-team-${team}`, data: { team } }, text === null ? teamName(team) : text);
}

/** What a record says: "hit Blink 4", "a miss", with "touched on the way back". */
export function recordText(record) {
  const what = record.hit === null
    ? gettext("a miss")
    : interpolate(gettext("a hit on Blink %(blink)s"), { blink: record.hit }, true);
  return record.touched ? interpolate(gettext("%(what)s, touched on the way back"), { what }, true) : what;
}

/** The vault: one hex per Blink, its number and health; a claimed one in its team's colour.
 * `onPick(blink)`: the hexes still in the vault are buttons (a hit's Blink). */
export function vaultHexes(view, { onPick = null, big = false } = {}) {
  const box = h("div", { class: `bk-vault${big ? " big" : ""}`, data: { left: view.left } });
  for (const b of view.vault) {
    const claimed = b.claimed_by !== null;
    const label = claimed
      ? interpolate(gettext("Blink %(blink)s, claimed"), { blink: b.blink }, true)
      : interpolate(gettext("Blink %(blink)s, health %(health)s of %(max)s"), { blink: b.blink, health: b.health, max: view.health }, true);
    const pips = h("span", { class: "bk-pips", "aria-hidden": "true" },
      ...Array.from({ length: view.health }, (_, i) => h("i", { class: i < b.health ? "on" : "" })));
    const props = {
      class: `bk-hex${claimed ? ` claimed bk-team-${b.team}` : ""}${!claimed && b.health * 2 <= view.health ? " weak" : ""}`,
      data: { blink: b.blink, health: b.health, team: claimed ? b.team : null },
      "aria-label": label,
      title: label,
    };
    if (onPick && !claimed) {
      box.append(h("button", { ...props, type: "button", on: { click: () => onPick(b.blink) } }, h("b", { text: String(b.blink) }), pips));
    } else {
      box.append(h("div", { ...props, role: "img" }, h("b", { text: String(b.blink) }), pips));
    }
  }
  return box;
}

/** The table's seats: name, team colour, claimed Blinks, a skip coming, whose turn;
 * `offline`: the seats whose guest is not connected (the captain's tablet marks them). */
export function seatList(view, meta, mySeat = null, offline = null) {
  return h("ol", { class: "bk-seats" }, view.seats.map((s) => h("li", {
    class: `bk-team-${s.team}${view.turn === s.seat ? " up" : ""}`,
    data: { seat: s.seat, team: s.team, claimed: s.claimed },
  },
  h("span", { class: "bk-name", text: s.seat === mySeat ? gettext("You") : nameOf(meta, s.seat) }),
  offline && offline.has(s.seat) ? [" ", offlineMark()] : null,
  " ",
  h("span", { class: "bk-claimed", text: interpolate(ngettext("%(n)s Blink", "%(n)s Blinks", s.claimed), { n: s.claimed }, true) }),
  s.skips_next ? h("span", { class: "bk-skip", text: gettext("skips next turn") }) : null)));
}

/** Whose turn, or the record waiting for the captain, or the end. */
export function turnLine(view, meta) {
  if (view.phase === "over") {
    const names = (view.winners || []).map((s) => nameOf(meta, s)).join(", ");
    return h("p", { class: "bk-turn over", text: sentence(interpolate(gettext("The vault is empty. Most gold Blinks: %(names)s."), { names }, true)) });
  }
  if (view.pending) {
    return h("p", { class: "bk-turn pending", text: interpolate(gettext("%(name)s recorded %(what)s: the captain confirms."),
      { name: nameOf(meta, view.pending.seat), what: recordText(view.pending) }, true) });
  }
  // in the thrower's team colour (drawn or set by the host), as every screen shows teams
  const team = view.seats && view.seats[view.turn] ? view.seats[view.turn].team : null;
  return h("p", { class: `bk-turn${team === null ? "" : ` bk-team-${team}`}`, data: { turn: view.turn, team } },
    interpolate(gettext("%(name)s throws now."), { name: nameOf(meta, view.turn) }, true));
}

/** The four teams' claimed Blinks: `totals[team]`. */
export function teamTotals(totals, { leaders = null } = {}) {
  const best = Math.max(0, ...totals);
  return h("ol", { class: "bk-totals" }, totals.map((n, team) => h("li", {
    class: `bk-team-${team}${(leaders ? leaders.includes(team) : best > 0 && n === best) ? " leads" : ""}`,
    data: { team, total: n },
  }, h("span", { class: "bk-name", text: teamName(team) }), " ", h("b", { text: String(n) }))));
}

/** Every table's claims added up by team. */
export function sumTeams(tables) {
  const totals = teams().map(() => 0);
  for (const p of tables) for (const [team, n] of (p.view.team_claims || []).entries()) totals[team] += n;
  return totals;
}

/** The captain's call on the record waiting: a miss or a hit on a Blink still in the
 * vault, touched on the way back or not; `send(hit, touched)`. */
export function captainsCall(view, send) {
  let touched = false;
  const toggle = h("button", { type: "button", class: "btn bk-touched", "aria-pressed": "false", text: gettext("Touched on the way back") });
  toggle.addEventListener("click", () => {
    touched = !touched;
    toggle.setAttribute("aria-pressed", String(touched));
  });
  const miss = h("button", { type: "button", class: "btn bk-miss", text: gettext("It was a miss"), on: { click: (ev) => send(null, touched, ev.currentTarget) } });
  return h("details", { class: "bk-call" },
    h("summary", { text: gettext("Captain's call: it was not so") }),
    h("p", { class: "hint", text: gettext("Tap the Blink it hit, or a miss.") }),
    vaultHexes(view, { onPick: (blink) => send(blink, touched, toggle) }),
    h("div", { class: "bk-row" }, miss, toggle));
}

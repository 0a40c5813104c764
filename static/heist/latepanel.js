// The host's late-arrivals panel (docs/RULES.md, "Late arrivals"): who registered once
// the tables were seated, and the one thing the host can do for them during play, seat
// one in place of a guest who leaves (`seat_late_guest`). At a party with gifts
// (the game's features.gifts) whoever is not seated takes their own gift home; a late
// gift never goes into a vault (every table's vault holds the same number). A game
// without gifts hears nothing of them: its guests have numbers, no gift to take home.
import { fill, fmt, h, render } from "./ui.js";

// The guest picked for each late arrival: the dashboard redraws on every table update,
// and a pick must survive it.
const picked = new Map();

// Whether the host unfolded the panel: it folds to one line by default, and unfolded it
// lies over the tables on the laptop, so it never pushes them out of sight; it folds
// again when the party ends.
let unfolded = false;

/** Draw the panel into `section` (hidden while nobody arrived late). `command(button,
 * name, args)` sends a party command as the rest of the dashboard does; `gifts`: the
 * party's game brings gifts. */
export function drawLatePanel(section, party, command, gifts) {
  const guests = party.guests || [];
  const late = guests.filter((g) => g.late);
  section.hidden = late.length === 0 || party.status === "lobby";
  if (section.hidden) return;
  const seated = guests.filter((g) => g.table).sort((a, b) => a.table.localeCompare(b.table) || a.seat - b.seat);
  const playing = party.status === "playing";
  if (!playing) unfolded = false;
  const fold = h("details", { class: "late-fold", open: unfolded, on: { toggle: (ev) => { unfolded = ev.currentTarget.open; } } },
    h("summary", { data: { key: "late-fold" } },
      h("h2", { id: "late-panel-h" }, `${gettext("Late arrivals")} `, h("span", { class: "count", text: `(${late.length})` })),
      h("span", { class: "hint late-names", text: late.map((g) => g.name).join(", ") })),
    // In one box: on the laptop it drops down over the tables (heist.css), which keep their place.
    h("div", { class: "late-body" },
      h("p", { class: "hint", text: gifts
        ? gettext("They registered once the tables were seated. Each writes their number on their gift and puts it on the late-gifts shelf: they take it home at the end. If a guest has to leave, seat a late arrival in their place: they play that seat for the guest who left, who keeps the gift in front of it.")
        : gettext("They registered once the tables were seated. If a guest has to leave, seat a late arrival in their place: they play that seat for the guest who left.") }),
      h("ul", { class: "plain late-list" }, late.map((g) => lateRow(g, seated, playing, command, gifts)))));
  render(section, fold);
}

function lateRow(g, seated, playing, command, gifts) {
  // the number written on their gift, or (a game without gifts) their guest number, as the lobby's roster shows it
  const badge = [h("span", { class: "gift-badge", "aria-label": gifts ? fmt(gettext("gift %(gift)s"), { gift: g.gift_number }) : fmt(gettext("guest %(number)s"), { number: g.gift_number }), text: String(g.gift_number) }), " "];
  if (g.playing_for) {
    return h("li", { class: "late-guest seated", data: { guest: g.id } }, badge,
      fill(gifts ? gettext("%(name)s plays table %(table)s, seat %(seat)s for %(guest)s; takes their own gift home.") : gettext("%(name)s plays table %(table)s, seat %(seat)s for %(guest)s."),
        { name: h("strong", { text: g.name }), table: g.table, seat: g.seat + 1, guest: g.playing_for }));
  }
  if (!playing || !seated.length) {
    return h("li", { class: "late-guest", data: { guest: g.id } }, badge,
      fill(gifts ? gettext("%(name)s takes their own gift home.") : gettext("%(name)s has no seat."), { name: h("strong", { text: g.name }) }));
  }
  const chosen = picked.get(g.id) || "";
  const pick = h("select", {
    id: `late-for-${g.id}`, "aria-label": fmt(gettext("Seat %(name)s in place of"), { name: g.name }), data: { key: `late-for-${g.id}` },
    on: { change: (ev) => picked.set(g.id, ev.currentTarget.value) },
  },
    h("option", { value: "", text: gettext("in place of…") }),
    seated.map((s) => h("option", { value: String(s.id), selected: String(s.id) === chosen, text: fmt(gettext("%(name)s (table %(table)s, seat %(seat)s)"), { name: s.name, table: s.table, seat: s.seat + 1 }) })));
  const seat = h("button", {
    class: "btn small", type: "button", text: fmt(gettext("Seat %(name)s"), { name: g.name }), data: { key: `late-seat-${g.id}` },
    on: { click: (ev) => {
      if (!pick.value) { pick.focus(); return; }
      command(ev.currentTarget, "seat_late_guest", { late_guest: g.id, guest: Number(pick.value) })
        .then((ok) => { if (ok) picked.delete(g.id); });
    } },
  });
  return h("li", { class: "late-guest waiting", data: { guest: g.id } }, badge,
    fill(gifts ? gettext("%(name)s waits for a seat, or takes their own gift home. %(choice)s %(button)s") : gettext("%(name)s waits for a seat. %(choice)s %(button)s"),
      { name: h("strong", { text: g.name }), choice: pick, button: seat }));
}

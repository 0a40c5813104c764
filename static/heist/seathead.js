// The top of a guest's phone, the same in every game (play.js draws it above the game's
// module, from the snapshot's `me` and `party` and each table update's letter and seat).
//
// Seated: the table's letter and the seat, large (a room may have 13 tables, and a
// guest glances at the phone to find theirs), then whose phone it is. Not seated: the
// party's name and the guest's own, so a guest in the lobby sees they joined the right
// party under the right name; once the tables play, the same line says a late arrival
// is registered, or who plays the seat of a guest who handed it over. The game's module
// draws everything under it.
import { fill, h } from "./ui.js";

/** The phone's head for `me` (the snapshot's), `where` ({letter, seat}, the seat's table
 * by the last snapshot or update, null unseated) and the party's `status` and `name`. */
export function seatHead({ me, where, status, partyName }) {
  if (!me) return null;
  if (where) {
    const seat = where.seat + 1;
    return h("header", { class: "seat-head", id: "seat-head", data: { letter: where.letter, seat } },
      h("h1", { id: "seat-h", "aria-label": interpolate(gettext("Table %(letter)s, seat %(seat)s"), { letter: where.letter, seat }, true) },
        fill(gettext("Table %(letter)s · seat %(seat)s"), {
          letter: h("strong", { class: "table-letter", text: where.letter }),
          seat: h("strong", { class: "seat-number", text: String(seat) }),
        })),
      h("p", { class: "seat-guest", text: me.captain ? `${me.name} · ${gettext("table captain")}` : me.name }));
  }
  let line;
  if (me.played_by) line = interpolate(gettext("%(stand_in)s plays your seat, %(name)s"), { stand_in: me.played_by, name: me.name }, true);
  else if (me.late && status && status !== "lobby") line = interpolate(gettext("You're registered as a late arrival, %(name)s"), { name: me.name }, true);
  else line = interpolate(gettext("You're in, %(name)s!"), { name: me.name }, true);
  return h("header", { class: "seat-head lobby-head", id: "seat-head" },
    partyName ? h("p", { class: "eyebrow party-name", text: partyName }) : null,
    h("h1", { id: "seat-h", text: line }));
}

/** Where a seat's snapshot or update puts this phone: {letter, seat}, or null. */
export function whereFrom(me, payload) {
  const meta = payload && payload.table;
  const view = payload && payload.view;
  if (meta && meta.letter && view && typeof view.you === "number") return { letter: meta.letter, seat: view.you };
  if (me && me.table && typeof me.seat === "number") return { letter: me.table, seat: me.seat };
  return null;
}

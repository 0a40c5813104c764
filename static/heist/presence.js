// Who at a table is not connected, for that table's captain's screens (its tablet, the
// captain's phone): a quiet guest may simply have closed their phone, and the captain
// is the one who goes and asks. The snapshot's `offline` (guest ids) says it on every
// (re)connect and resync; each `presence` message changes it in between (the server
// sends these screens their own table's guests only: events/live/presence.py).
import { h } from "./ui.js";

export class TablePresence {
  constructor() {
    this.offline = new Set();
  }

  /** A snapshot: the whole truth again (a `presence` message may have been lost). */
  snapshot(snap) {
    this.offline = new Set((snap && snap.offline) || []);
  }

  /** A `presence` message; true when it changed anything. */
  update(guest, online) {
    if (online === !this.offline.has(guest)) return false;
    if (online) this.offline.delete(guest);
    else this.offline.add(guest);
    return true;
  }

  /** The seats of `meta`'s roster whose guest is not connected. */
  seats(meta) {
    const roster = (meta && meta.roster) || [];
    const out = new Set();
    roster.forEach((r, seat) => {
      if (r && this.offline.has(r.guest)) out.add(seat);
    });
    return out;
  }
}

/** The mark a seat row carries while its guest is not connected. */
export function offlineMark() {
  return h("span", { class: "mark offline" }, h("span", { "aria-hidden": "true", text: "○ " }), gettext("offline"));
}

/** One line above the table's screen naming every seat whose guest is not connected
 * (null when everyone is): every game's tablet shows it, whatever it draws. */
export function offlineLine(meta, seats) {
  if (!seats.size) return null;
  const names = [...seats].sort((a, b) => a - b).map((seat) => interpolate(gettext("%(name)s (seat %(seat)s)"),
    { name: (meta.roster[seat] || {}).name || "", seat: seat + 1 }, true));
  return h("p", { class: "offline-line", role: "status", data: { offline: [...seats].join(",") } },
    offlineMark(), " ",
    interpolate(gettext("Not connected: %(names)s"), { names: names.join(", ") }, true));
}

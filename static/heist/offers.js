// A guest's seat offer ("I have to leave: my seat may go to a substitute") on the
// captain's tablet and the host's dashboard: it stays on screen until it is handled
// (the seat is handed over) or dismissed, not a toast that is gone in 4 seconds.
import { h, toast } from "./ui.js";

const offers = new Map(); // "table:seat" -> {msg, at}

/** Take a table notice: an offer is kept on screen, a hand-over of that seat ends it;
 * every other notice is a toast, as before. `act(msg, button)` hands the seat over. */
export function seatNotice(msg, act) {
  const key = `${msg.table}:${msg.seat}`;
  if (msg.kind === "offer") offers.set(key, { msg, at: new Date() });
  else {
    if (msg.kind === "handover" || msg.kind === "claimed") offers.delete(key);
    toast(msg.message, "ok");
  }
  drawOffers(act);
}

function drawOffers(act) {
  let box = document.getElementById("offers");
  if (!box) {
    box = h("section", { id: "offers", class: "offers", "aria-label": gettext("Seat offers"), "aria-live": "assertive" });
    document.getElementById("main").prepend(box);
  }
  box.hidden = offers.size === 0;
  box.replaceChildren(...[...offers.entries()].map(([key, { msg, at }]) =>
    h("div", { class: "offer", role: "alert", data: { table: msg.table, seat: msg.seat } },
      h("span", { class: "offer-icon", "aria-hidden": "true", text: "✋" }),
      h("p", { class: "offer-text" }, msg.message, " ", h("span", { class: "hint", text: interpolate(gettext("Offered at %(time)s."), { time: at.toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" }) }, true) })),
      act ? h("button", { class: "btn primary small", type: "button", text: gettext("Hand over seat"), on: { click: (ev) => act(msg, ev.currentTarget) } }) : null,
      h("button", { class: "btn small", type: "button", text: gettext("Dismiss"), "aria-label": interpolate(gettext("Dismiss: %(message)s"), { message: msg.message }, true), on: { click: () => { offers.delete(key); drawOffers(act); } } }))));
}

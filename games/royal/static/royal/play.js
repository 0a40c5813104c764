// A guest's phone at a Royal Heist party (/p/CODE/ when the party's game is "royal"):
// the same socket as Yankee Heist's phone (live.js: versions, patches, resync), the
// seat's view drawn by renderPhone (phone.js) on every table update, and a decision
// sent as the seat's own `act`. Yankee Heist's phone page (../play.js) is not loaded.
import { Live } from "../heist/live.js";
import { h, loadJSON, render, showError, startClocks, track } from "../heist/ui.js";
import { ROYAL_STORY, storyLink } from "../heist/story-link.js";
import { renderPhone } from "./phone.js";

const app = document.getElementById("app");
const code = app.dataset.code;
const seatKey = `heist.seat.${code}`;
const stored = loadJSON(seatKey);
const root = document.getElementById("phone");

const S = {
  me: null,
  party: null,
  seat: null, // the latest `table` payload with this seat's view
  sentVersion: null, // a decision is on its way, made at this version
  fatal: null,
};

let live = null;

function start() {
  live = new Live({
    code,
    role: "guest",
    token: stored.token,
    onSnapshot(snap) {
      S.me = snap.me;
      S.party = snap.party;
      S.seat = snap.table || null;
      draw();
    },
    onTable(msg) {
      if (!msg.view || msg.view.you === undefined) return; // a captain's public copy
      if (S.me && S.me.seat === null) return; // an update in flight from before a reseat
      S.seat = msg;
      draw();
    },
    onParty(party) {
      S.party = { ...(S.party || {}), ...party };
      draw();
    },
    onFatal(fatalCode, message) {
      S.fatal = message;
      if (fatalCode === 4401 || fatalCode === 4403) localStorage.removeItem(seatKey);
      draw();
    },
  }).start();
  window.heistLive = live;
  startClocks(() => live.serverNow());
}

/** The seat's decision: no `version` in the frame, as for Yankee's reactions. Everyone
 * inside decides at once, so another seat's decision (a new version) must not refuse
 * this one; the server applies a resent frame once (its `re`). */
function decide(pressOn) {
  S.sentVersion = S.seat.view.version;
  track(live.act({ type: "decide", press_on: pressOn }), gettext("Sending your choice"))
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
      h("p", { text: S.fatal })));
    return;
  }
  if (!S.me) return;
  if (!S.seat) {
    const p = S.party || {};
    render(root, h("section", { class: "panel lobby", "aria-labelledby": "lobby-h" },
      h("p", { class: "eyebrow", text: p.name || app.dataset.partyName }),
      h("h1", { id: "lobby-h" }, interpolate(gettext("You're in, %(name)s!"), { name: S.me.name }, true)),
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
  render(root, [renderPhone(shown, meta, { onDecide: decide }), over ? h("p", { class: "r-story" }, storyLink(code, { text: ROYAL_STORY })) : null]);
}

if (!stored || !stored.token) document.getElementById("no-seat").hidden = false;
else start();

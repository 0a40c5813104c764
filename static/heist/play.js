// A guest's phone (/p/CODE/): the shell around the party's game's phone module.
//
// The shell holds the seat's secret (localStorage, from the join page), opens the socket
// (live.js: versions, patches, resync on a gap, reconnection, presence), starts the
// screens' clocks and draws the phone's head, the same in every game (seathead.js: the
// table and seat, or in the lobby the party's name and the guest's); the game's phone
// module (heist-game's `module`, game.js) draws everything under it and sends the seat's
// acts through `ctx.live`. When the party ends the shell resyncs once: the party update
// that says so carries no one's result, the snapshot does (`standing`, `takes_home`).
//
// The phone module's interface: `mount(root, ctx)` returns the screen, whose methods the
// shell calls as the socket speaks, each then drawing what changed (and, optional, the
// module's `mergePrivate(view, private)` and `unmergePrivate(view)` for a seat's private
// part that is more than the keys heist-game's private_keys names: live.js):
//   snapshot(snap)   the socket's snapshot (on connect, on a resync): me, party, table
//                    and, once the party is over, the guest's result;
//   table(msg)       a table update carrying this seat's view (a captain's public copy
//                    and an update from before a reseat are not passed on);
//   party(party)     the party's update (merged into the last one by the screen);
//   notice(msg)      a notice to this seat (hand-overs at its table), optional;
//   presence(guest, online)  a captain's phone: a guest at its table (dis)connected
//                    (the snapshot's `offline` lists who is not), optional;
//   fatal(code, msg) the socket was closed for good (the seat is gone): the shell has
//                    already forgotten a secret that opens nothing (4401, 4403).
import { gameModule, gameInfo, liveFacade } from "./game.js";
import { holdAwake } from "./awake.js";
import { Live } from "./live.js";
import { seatHead, whereFrom } from "./seathead.js";
import { loadJSON, render, startClocks } from "./ui.js";

const app = document.getElementById("app");
const code = app.dataset.code;
const seatKey = `heist.seat.${code}`;
const stored = loadJSON(seatKey);
const root = document.getElementById("phone");
const head = document.getElementById("seat-head-slot");

async function start() {
  let live = null;
  const game = await gameModule();
  const screen = game.mount(root, { code, game: gameInfo(), partyName: app.dataset.partyName, live: liveFacade(() => live) });
  let seated = true; // by the last snapshot
  let status = null; // the party's, by the last snapshot or update
  let me = null; // the snapshot's
  let partyName = app.dataset.partyName;
  let where = null; // {letter, seat}: this phone's table and seat, by the last snapshot or update
  const drawHead = () => render(head, seatHead({ me, where, status, partyName }));
  // The screen stays on while this guest has a seat at a party not yet over (awake.js).
  const note = document.getElementById("awake-slot");
  const awake = () => holdAwake(note, seated && status !== "over");
  live = new Live({
    code,
    role: "guest",
    token: stored.token,
    // the seat's private part joins its view as the game says (live.js mergePrivate)
    privacy: { keys: gameInfo().private_keys, merge: game.mergePrivate, unmerge: game.unmergePrivate },
    onSnapshot(snap) {
      seated = Boolean(snap.me && snap.me.seat !== null);
      if (snap.party && snap.party.status) status = snap.party.status;
      if (snap.party && snap.party.name) partyName = snap.party.name;
      me = snap.me || null;
      where = seated ? whereFrom(me, snap.table) : null;
      awake();
      drawHead();
      screen.snapshot(snap);
    },
    onTable(msg) {
      if (!msg.view || msg.view.you === undefined) return; // a captain's public copy: the seat view says it all
      // Not seated (by the last snapshot): a seat's update still in flight when a late
      // arrival took this guest's seat; the snapshot that seats this phone brings its view.
      if (!seated) return;
      const now = whereFrom(me, msg);
      if (now && (!where || now.letter !== where.letter || now.seat !== where.seat)) {
        where = now;
        drawHead();
      }
      screen.table(msg);
    },
    onParty(party) {
      const ended = party.status === "over" && status !== "over";
      if (party.status && party.status !== status) {
        status = party.status;
        awake();
        drawHead();
      }
      screen.party(party);
      // Every game's phone says how the party ended for this guest (their rank, their
      // team, the gifts they take home): that is in the snapshot alone.
      if (ended) live.resync();
    },
    onNotice(msg) {
      if (screen.notice) screen.notice(msg);
    },
    onPresence(guest, online) {
      if (screen.presence) screen.presence(guest, online);
    },
    onFatal(closeCode, message) {
      if (closeCode === 4401 || closeCode === 4403) localStorage.removeItem(seatKey); // that key opens nothing any more
      render(head); // the game's screen says why this phone no longer plays a seat
      screen.fatal(closeCode, message);
    },
  }).start();
  window.heistLive = live;
  startClocks(() => live.serverNow());
}

if (!stored || !stored.token) document.getElementById("no-seat").hidden = false;
else start();

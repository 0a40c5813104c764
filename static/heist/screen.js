// The big screen (projector, 1920x1080 or 1280x720): it never scrolls. Lobby: the QR
// code and join code large, names as guests join. Then the party's game's board module
// (heist-game's `module`, game.js) draws the tables, the party's progress and the end.
//
// This is the shell: the socket (a spectator's, live.js), every table's latest payload,
// one draw per frame, the lobby. The board module's interface: `mount(root, ctx)` returns
// `{draw(state), table?(msg), fit?(box)}`: `draw({party, tables})` (the party; every table's latest
// payload, by letter) draws into the page's regions #lobby-note (a line under the
// party's name), #tables, #party-bar and #end (templates/events/screen.html), hiding
// what it does not use; `table(msg)` sees each table update first (an event log).
//
// The shell sizes the grid of tables for every game: each child of #tables that carries
// `data-letter` is a table's tile; the shell lays them out in columns and rows, and when
// one would not show whole (text stays at 24 px or more at 1280x720, heist.css), it
// shows the tables a page at a time, turning the page every PAGE_MS, so that no table
// is ever cut off, however many there are and whichever game draws them.
import { gameInfo, gameModule, liveFacade } from "./game.js";
import { Live } from "./live.js";
import { holdAwake } from "./awake.js";
import { fmt, h, oncePerFrame, render, startClocks } from "./ui.js";

// How long each page of tables shows: long enough to find one's table and read it.
const PAGE_MS = 12000;
// How far a few tables' tiles grow to use the screen (grow below), in steps of ZOOM_STEP.
const MAX_ZOOM = 2.5;
const ZOOM_STEP = 0.05;

const app = document.getElementById("app");
const code = app.dataset.code;
const tables = new Map();
let party = null;
let screen = null; // the game's board module, mounted

const sorted = () => [...tables.values()].sort((a, b) => a.table.letter.localeCompare(b.table.letter));

function draw() {
  if (!party || !screen) return;
  const stage = party.status;
  document.body.dataset.stage = stage;
  document.getElementById("join-panel").hidden = stage !== "lobby";
  if (stage === "lobby") drawLobby();
  screen.draw({ party, tables: sorted() });
  pageTables();
}

// --- the tables, a page at a time when they do not all fit -------------------------------

const paging = { sig: "", pages: 1, cols: 0, page: 0, fewer: false, timer: null };

/** Columns for `n` tiles on a landscape screen (rows follow): 10 tables as 5 by 2. */
function columnsFor(n) {
  if (n <= 1) return 1;
  if (n === 2 || n === 4) return 2;
  if (n <= 6) return 3;
  if (n <= 8) return 4;
  return 5;
}

/** The grids to try for `per` tiles, the usual one first: then one, two, three rows
 * (a game's tiles may be tall and narrow, or short and wide). */
function shapesFor(per) {
  const out = [columnsFor(per)];
  for (let rows = 1; rows <= 3; rows++) {
    const cols = Math.ceil(per / rows);
    if (!out.includes(cols)) out.push(cols);
  }
  return out;
}

/** Lay the tiles out `per` to a page in `cols` columns and show page `page` (the others
 * leave the grid), then let the board drop what its tiles can do without at this size. */
function layout(box, tiles, per, cols, page) {
  // Through the CSSOM: the CSP forbids style attributes, not a script's own styles.
  box.style.setProperty("--tile-cols", String(cols));
  box.style.setProperty("--tile-rows", String(Math.ceil(per / cols)));
  tiles.forEach((el, i) => el.classList.toggle("off-page", Math.floor(i / per) !== page));
  if (screen.fit) screen.fit(box);
}

/** Whether a shown tile (or anything else in the grid, a game's leaderboard) is cut off:
 * its content taller or wider than its box. */
function cutOff(box) {
  return [...box.children].some((el) => !el.classList.contains("off-page") && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1));
}

/** The columns in which every page shows whole, `pages` pages' worth at a time; 0 if none. */
function fitsIn(box, tiles, pages) {
  const per = Math.ceil(tiles.length / pages);
  for (const cols of shapesFor(per)) {
    let whole = true;
    for (let p = 0; whole && p * per < tiles.length; p++) {
      layout(box, tiles, per, cols, p);
      whole = !cutOff(box);
    }
    if (whole) return cols;
  }
  return 0;
}

function pageTables() {
  const box = document.getElementById("tables");
  const tiles = box.hidden ? [] : [...box.children].filter((el) => el.dataset.letter);
  // The pages and the board's fit are measured at the size the tiles are laid out for
  // (24 px at 1280x720); grow() then zooms them when they leave the screen half empty.
  setZoom([...box.children], 1);
  const sig = `${tiles.length}:${innerWidth}x${innerHeight}:${party.status}`;
  if (sig !== paging.sig) Object.assign(paging, { sig, pages: 1, cols: 0, page: 0, fewer: false });
  const label = document.getElementById("tables-page");
  if (!tiles.length) {
    box.style.removeProperty("--tile-cols");
    box.style.removeProperty("--tile-rows");
    label.hidden = true;
    delete box.dataset.pages;
    return;
  }
  // Fewer pages when the tables became quieter (tried as a page turns, not every frame),
  // more as soon as a tile on the page shown would be cut off.
  if (paging.fewer) {
    paging.fewer = false;
    for (let cols; paging.pages > 1 && (cols = fitsIn(box, tiles, paging.pages - 1));) {
      paging.pages--;
      paging.cols = cols;
    }
    // A board's fit drops parts for good: after a trial that did not fit, draw afresh.
    if (paging.pages > 1) redraw();
  }
  let per = Math.ceil(tiles.length / paging.pages);
  paging.page %= Math.ceil(tiles.length / per);
  layout(box, tiles, per, paging.cols || columnsFor(per), paging.page);
  if (cutOff(box)) {
    let cols = 0;
    while (paging.pages < tiles.length && !(cols = fitsIn(box, tiles, paging.pages))) paging.pages++;
    per = Math.ceil(tiles.length / paging.pages);
    paging.cols = cols || columnsFor(per);
    paging.page %= Math.ceil(tiles.length / per);
    layout(box, tiles, per, paging.cols, paging.page);
  }
  const pages = Math.ceil(tiles.length / per);
  box.dataset.pages = String(pages);
  box.dataset.page = String(paging.page + 1);
  label.hidden = pages === 1;
  if (pages > 1) {
    const shown = tiles.slice(paging.page * per, (paging.page + 1) * per);
    label.textContent = fmt(gettext("Tables %(first)s–%(last)s · page %(page)s of %(pages)s"), {
      first: shown[0].dataset.letter, last: shown[shown.length - 1].dataset.letter, page: paging.page + 1, pages,
    });
  }
  if (pages > 1 && !paging.timer) startPaging();
  if (pages === 1 && paging.timer) { clearInterval(paging.timer); paging.timer = null; }
  if (pages === 1) grow(box, sig);
  else growth.zoom = 1;
  box.dataset.zoom = String(growth.zoom);
}

// --- a few tables, grown to use the screen ------------------------------------------------
//
// One table, or a few, laid out at 24 px fill a corner of the screen and leave the rest
// empty: the room reads them from its back. Every tile then grows (CSS zoom:
// a game's tiles mix em, rem and px) to the largest step at which none is cut off, up to
// MAX_ZOOM. The board's fit ran at 1 before (layout), so a tile never drops a part to
// grow. The zoom found is kept while it still fits, so the text does not change size at
// every update; it is sought again when the screen or the tables change, when it no
// longer fits (a longer log, a new row), and at most once a page time to grow again.

const growth = { zoom: 1, sig: "", at: 0 };

function setZoom(els, z) {
  for (const el of els) {
    if (z === 1) el.style.removeProperty("zoom");
    else el.style.setProperty("zoom", String(z));
  }
}

function grow(box, sig) {
  // The tables' tiles only: a game's leaderboard beside them keeps its column's width,
  // and grown in it, its heading broke between two letters ("Leade-rboard").
  const shown = [...box.children].filter((el) => el.dataset.letter && !el.classList.contains("off-page"));
  const fitsAt = (z) => {
    setZoom(shown, z);
    return !cutOff(box);
  };
  const now = Date.now();
  const fresh = sig !== growth.sig || now - growth.at > PAGE_MS;
  if (!fresh && (growth.zoom === 1 || fitsAt(growth.zoom))) return;
  growth.sig = sig;
  growth.at = now;
  // Steps of ZOOM_STEP, halved: the largest that fits (1 always does: the layout's own).
  let lo = 0;
  let hi = Math.round((MAX_ZOOM - 1) / ZOOM_STEP);
  if (!fitsAt(1 + ZOOM_STEP)) hi = 0;
  else lo = 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fitsAt(1 + mid * ZOOM_STEP)) lo = mid;
    else hi = mid - 1;
  }
  growth.zoom = Math.round((1 + lo * ZOOM_STEP) * 100) / 100;
  setZoom(shown, growth.zoom);
}

function startPaging() {
  clearInterval(paging.timer);
  paging.timer = setInterval(() => { paging.page += 1; paging.fewer = true; redraw(); }, PAGE_MS);
}

/** Show page `i` now (0-based) and restart its clock: the browser tests look at each page. */
window.heistScreenPage = (i) => {
  paging.page = i;
  if (paging.timer) startPaging();
  draw();
};

function drawLobby() {
  const names = party.names || [];
  document.getElementById("joined-count").textContent = String(party.guest_count);
  // Newest first: when the wall is full, the oldest names are the ones cut off.
  const wall = document.getElementById("names");
  render(wall, [...names].reverse().map((n, i) => h("li", { class: i === 0 ? "name newest" : "name", text: n })));
  moreOnTheWall(wall);
}

/** A wall too small for every name says how many it leaves out ("+12 more"), the oldest
 * names giving way to that line rather than being cut off unannounced. */
function moreOnTheWall(wall) {
  if (wall.scrollHeight <= wall.clientHeight + 1) return;
  const shown = [...wall.children];
  const more = h("li", { class: "name more" });
  wall.append(more);
  const bottom = () => wall.getBoundingClientRect().bottom + 1;
  let hidden = 0;
  do {
    const last = shown.pop();
    if (!last) break;
    last.hidden = true;
    hidden += 1;
    more.textContent = interpolate(gettext("+%(count)s more"), { count: hidden.toLocaleString(document.documentElement.lang) }, true);
  } while (more.getBoundingClientRect().bottom > bottom() || (shown.length && shown[shown.length - 1].getBoundingClientRect().bottom > bottom()));
}

// One draw per frame, however many updates arrive in it: a draw lays out every tile
// and fits it (fitTiles measures), and ten tables of fast play send dozens of updates
// a second; drawn one by one, the screen fell seconds behind the room.
const redraw = oncePerFrame(() => draw());

// The wall's "+N more" is measured: measured before the page had its final size (its
// fonts, the grid around it), it hid names that fit and nothing drew it again until the
// next guest joined. Its size settling draws it again.
let wallSize = "";
new ResizeObserver(([entry]) => {
  const size = `${Math.round(entry.contentRect.width)}x${Math.round(entry.contentRect.height)}`;
  if (size !== wallSize) { wallSize = size; if (party) redraw(); }
}).observe(document.getElementById("names"));
document.fonts.ready.then(() => { if (party) redraw(); });

const game = await gameModule();
let live = null;
screen = game.mount(app, { code, game: gameInfo(), live: liveFacade(() => live) });
live = new Live({
  code,
  role: "spectator",
  token: null,
  onSnapshot(snap) {
    party = snap.party;
    tables.clear();
    for (const t of snap.tables) tables.set(t.table.id, t);
    redraw();
  },
  onTable(msg) {
    tables.set(msg.table.id, msg);
    if (screen.table) screen.table(msg);
    redraw();
  },
  onParty(p) {
    const hadTables = party && party.tables && party.tables.length;
    party = p;
    // Seating makes tables this socket has not seen yet: fetch them.
    if (!hadTables && p.tables && p.tables.length) live.resync();
    redraw();
  },
}).start();
holdAwake(null, true); // the big screen stays on all night (awake.js); no phone's note on it
startClocks(() => live.serverNow());
window.heistLive = live;
window.addEventListener("resize", () => redraw());

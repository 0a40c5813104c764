// The one live connection a screen keeps to its party (docs/PROTOCOL.md).
//
// - connects to /ws/party/<CODE>/ (wss on https pages), says hello, keeps the latest
//   snapshot and every table's last version;
// - a `table` message whose version is not last+1 means we missed one: send `resync`;
// - reconnects with jittered exponential backoff (capped at 5 s) on close or error, at
//   once when the browser comes back online or the page becomes visible again;
// - an application heartbeat: pings every 2 s and, with no frame at all (the server
//   answers every ping with a pong) for 4 s, drops the socket as dead, says so at once
//   and reconnects: a stalled connection (Wi-Fi gone quiet, a proxy that stopped
//   forwarding) leaves a WebSocket open for a minute or more without this;
// - every action frame carries a fresh `re` id and is resent with the same id after a
//   drop until its reply arrives (the server applies it once);
// - a pong naming newer versions than this screen has (broadcasts lost): resync.
import { banner, newId } from "./ui.js";
import { keepPass } from "./pass.js";

const PING_MS = 2000;
const DEAD_AFTER_MS = 4000; // no frame at all for this long: the socket is dead
const CHECK_MS = 250; // how often the heartbeat looks (a dead socket shows within 5 s)
const BACKOFF_BASE_MS = 300;
const BACKOFF_CAP_MS = 5000;
// Why the server closed for good, in the page's language (gettext: templates/base.html
// loads the catalogue before this module).
const FATAL = {
  4401: gettext("The host removed you from this party."),
  4403: gettext("This device's key does not open a seat at this party."),
  4404: gettext("No party has that code."),
  4409: gettext("This seat is open on newer screens, so this one stopped. Reload to use it here."),
  4410: gettext("This party has expired."),
};

export class LiveError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

export class Live {
  /**
   * @param {object} o
   * @param {string} o.code party code
   * @param {"host"|"guest"|"tablet"|"spectator"} o.role
   * @param {string|null} o.token the secret from localStorage (null for spectators)
   * @param {(snap: object) => void} o.onSnapshot
   * @param {(msg: object) => void} o.onTable a `table` message, in version order
   * @param {(party: object, role: string) => void} [o.onParty]
   * @param {(guest: number, online: boolean) => void} [o.onPresence]
   * @param {(code: number|string, message: string) => void} [o.onFatal]
   * @param {{keys: string[], merge?: Function, unmerge?: Function}} [o.privacy] how a
   *   seat's private part joins the public view (mergePrivate): the game's private_keys
   *   (heist-game), and its module's own `mergePrivate`/`unmergePrivate` when it has them
   */
  constructor(o) {
    this.o = o;
    this.privacy = o.privacy || { keys: [] };
    this.ws = null;
    this.ready = false;
    this.stopped = false;
    this.attempt = 0;
    this.everReady = false;
    this.pending = new Map(); // re -> {frame, resolve, reject, resend, sent}
    this.resyncing = null; // the resync in flight, if any
    this.versions = new Map(); // "<table id>:seat|pub" -> last version applied
    this.copies = new Map(); // the same key -> {view, table}: its public view and details at that version
    this.snapshot = null;
    this.clockOffset = 0; // server epoch ms - local epoch ms
    this.lastFrameAt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.checkTimer = null;
    this.helloRe = null;
    this.listeners = new Set(); // (state) => void: "connecting" | "online" | "down" | "lost"
  }

  /** Be told when the connection goes up or down (a screen greys its controls). */
  onState(fn) {
    this.listeners.add(fn);
  }

  setState(state) {
    this.state = state;
    document.documentElement.dataset.conn = state;
    for (const fn of this.listeners) fn(state);
  }

  start() {
    window.addEventListener("online", () => this.kick());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.kick();
    });
    window.addEventListener("pageshow", (e) => { if (e.persisted) this.kick(); });
    keepPass(this.o.code, this.o.token); // pages and sockets past the venue's shared limits
    this.open();
    return this;
  }

  /** Server time now, in epoch seconds (for the screens' clocks). */
  serverNow() {
    return (Date.now() + this.clockOffset) / 1000;
  }

  // --- requests --------------------------------------------------------------------------

  /** A table action, with `version`: the version of the table the screen showed when it
   * was tapped (every screen sends it; the server refuses an action its game checks
   * without it, docs/PROTOCOL.md). Resolves with the `ok` reply, rejects with a LiveError. */
  act(action, { table, version } = {}) {
    const frame = { type: "act", action };
    if (table !== undefined && table !== null) frame.table = table;
    if (version !== undefined && version !== null) frame.version = version;
    return this.request(frame, true);
  }

  /** A party command (host; captain for some). Not resent after a drop: the reply
   * tells whether it happened, and most commands are not idempotent. */
  party(command, args = {}) {
    return this.request({ type: "party", command, ...args }, false);
  }

  /** One resync in flight at a time: its snapshot answers every gap or pong seen
   * while it is on its way (the server replays after it what it sent meanwhile). A
   * resync per gap piled up behind a slow read, each one more read. */
  resync() {
    if (!this.resyncing) {
      this.resyncing = this.request({ type: "resync" }, true)
        .catch(() => {})
        .finally(() => { this.resyncing = null; });
    }
    return this.resyncing;
  }

  request(frame, resend) {
    const re = newId();
    const full = { ...frame, re };
    return new Promise((resolve, reject) => {
      if (this.stopped) {
        reject(new LiveError("closed", gettext("This screen is no longer connected to the party.")));
        return;
      }
      const entry = { frame: full, resolve, reject, resend, sent: false };
      this.pending.set(re, entry);
      if (this.ready) this.transmit(entry);
      // else: sent right after the next hello (nothing was sent, so no risk of doing it twice)
    });
  }

  transmit(entry) {
    try {
      this.ws.send(JSON.stringify(entry.frame));
      entry.sent = true;
    } catch {
      /* the close handler will resend or reject it */
    }
  }

  // --- the socket ------------------------------------------------------------------------

  kick() {
    if (this.stopped) return;
    if (!this.ws || this.ws.readyState === WebSocket.CLOSING || this.ws.readyState === WebSocket.CLOSED) {
      this.attempt = 0;
      this.open();
    } else if (this.ready) {
      this.ping(); // a phone waking up: check the socket is really alive
    }
  }

  open() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/party/${encodeURIComponent(this.o.code)}/`);
    this.ws = ws;
    this.ready = false;
    if (this.state !== "down") {
      banner(this.everReady ? "reconnecting" : "connecting", this.everReady ? gettext("Reconnecting…") : gettext("Connecting…"));
      this.setState("connecting");
    }
    this.lastFrameAt = Date.now();
    clearInterval(this.checkTimer);
    // A handshake that hangs (the network stalled) counts as dead too.
    this.checkTimer = setInterval(() => this.check(), CHECK_MS);
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.lastFrameAt = Date.now();
      this.helloRe = newId();
      // patches: table updates as changes since the version before (docs/PROTOCOL.md)
      const hello = { type: "hello", role: this.o.role, token: this.o.token, re: this.helloRe, patches: true };
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.lastFrameAt = Date.now();
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => this.closed(ws, ev.code);
    ws.onerror = () => {
      // onclose follows; make sure it does even on odd browsers
      try { ws.close(); } catch { /* already closed */ }
    };
  }

  /** Drop a socket we believe dead without waiting for the closing handshake. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try { ws.close(); } catch { /* ignore */ }
    this.closed(ws, 1006);
  }

  closed(ws, code) {
    if (ws !== this.ws) return;
    this.ready = false;
    clearInterval(this.pingTimer);
    clearInterval(this.checkTimer);
    if (this.stopped) return; // already told why (removed, bad secret): keep those words
    for (const [re, entry] of this.pending) {
      if (entry.sent && !entry.resend) {
        this.pending.delete(re);
        entry.reject(new LiveError("offline", gettext("The connection dropped before the server answered; check and try again.")));
      }
    }
    if (FATAL[code]) {
      this.stop(code, FATAL[code]);
      return;
    }
    if (this.stopped) return;
    const base = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** this.attempt);
    const delay = Math.round(base * (0.5 + Math.random() * 0.5));
    this.attempt += 1;
    if (this.everReady) {
      banner("down", gettext("Connection lost — reconnecting… Taps wait until it is back."));
      this.setState("down");
    } else {
      banner("reconnecting", gettext("Connecting…"));
    }
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  stop(code, message) {
    this.stopped = true;
    this.ready = false;
    clearInterval(this.pingTimer);
    clearInterval(this.checkTimer);
    clearTimeout(this.retryTimer);
    for (const entry of this.pending.values()) entry.reject(new LiveError("closed", message));
    this.pending.clear();
    banner("lost", message);
    this.setState("lost");
    if (this.o.onFatal) this.o.onFatal(code, message);
  }

  ping() {
    if (!this.ready) return;
    try { this.ws.send(JSON.stringify({ type: "ping" })); } catch { this.drop(); }
  }

  /** The heartbeat's watch: no frame (not even a pong) for DEAD_AFTER_MS. */
  check() {
    if (!this.ws || this.stopped) return;
    // A hidden page's timers are throttled: judge it when it is visible again.
    if (document.visibilityState === "hidden") {
      this.lastFrameAt = Math.max(this.lastFrameAt, Date.now() - PING_MS);
      return;
    }
    if (Date.now() - this.lastFrameAt > DEAD_AFTER_MS) this.drop();
  }

  receive(msg) {
    switch (msg.type) {
      case "snapshot":
        this.applySnapshot(msg);
        return;
      case "table":
        this.applyTable(msg);
        return;
      case "party":
        if (msg.party && typeof msg.party.revision === "number") {
          // Two processes' broadcasts may cross on the way: an older one changes nothing.
          if (this.revision !== undefined && msg.party.revision < this.revision) return;
          this.revision = msg.party.revision;
        }
        if (this.o.onParty) this.o.onParty(msg.party, msg.role);
        return;
      case "presence": // a guest's phone (dis)connected: to the host, and to its table's captain screens
        if (this.o.onPresence) this.o.onPresence(msg.guest, msg.online);
        return;
      case "pong":
        this.noteServerTime(msg.server_time);
        this.checkPong(msg);
        return;
      case "notice": // a table announcement (a seat offered, handed over, claimed)
        if (this.o.onNotice) this.o.onNotice(msg);
        return;
      case "removed":
        this.stop(4401, msg.message || FATAL[4401]);
        return;
      case "ok":
      case "error":
        this.reply(msg);
        return;
      default:
    }
  }

  reply(msg) {
    if (msg.type === "error" && msg.re && msg.re === this.helloRe) {
      // bad_secret: the server closes with 4403 right after; stop now with its words
      this.stop(4403, msg.message);
      return;
    }
    const entry = msg.re ? this.pending.get(msg.re) : null;
    if (!entry) {
      if (msg.type === "error" && (msg.code === "no_party" || msg.code === "expired")) {
        this.stop(msg.code === "expired" ? 4410 : 4404, msg.message);
      }
      return;
    }
    this.pending.delete(msg.re);
    if (msg.type === "ok") entry.resolve(msg);
    else entry.reject(new LiveError(msg.code, msg.message));
  }

  applySnapshot(msg) {
    const isHello = msg.re && msg.re === this.helloRe;
    this.snapshot = msg;
    this.revision = msg.party ? msg.party.revision : undefined;
    this.versions.clear();
    this.copies.clear();
    const note = (payload, stream) => {
      if (payload) {
        this.versions.set(`${payload.table.id}:${stream}`, payload.version);
        const view = stream === "seat" ? unmergePrivate(payload.view, this.privacy) : payload.view;
        this.copies.set(`${payload.table.id}:${stream}`, { view, table: payload.table });
        this.noteServerTime(payload.table.server_time);
      }
    };
    if (msg.role === "guest") {
      note(msg.table, "seat");
      note(msg.public, "pub");
    } else if (msg.role === "tablet") {
      note(msg.table, "pub");
    } else {
      for (const t of msg.tables || []) note(t, "pub");
    }
    this.o.onSnapshot(msg);
    if (isHello) {
      this.ready = true;
      this.attempt = 0;
      banner("online", this.everReady ? gettext("Back online") : gettext("Connected"));
      this.everReady = true;
      this.setState("online");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_MS);
      // Anything not yet answered goes (again) with the same id: the server applies
      // an action once and answers a repeat with `duplicate: true`.
      for (const entry of this.pending.values()) this.transmit(entry);
    } else if (msg.re) {
      const entry = this.pending.get(msg.re);
      if (entry) {
        this.pending.delete(msg.re);
        entry.resolve(msg);
      }
    }
  }

  applyTable(msg) {
    const stream = msg.private || (msg.view && msg.view.you !== undefined) ? "seat" : "pub";
    const key = `${msg.table.id}:${stream}`;
    const last = this.versions.get(key);
    if (msg.patch) {
      // The changes since version `base`: applied to our copy of exactly that version,
      // with the roster that goes with its tag; otherwise we missed something.
      if (last !== undefined && msg.version <= last) return;
      const copy = this.copies.get(key);
      if (last !== msg.base || !copy || copy.table.roster_tag !== msg.table.roster_tag) {
        // Before the first snapshot, or while a resync is on its way, that brings it.
        if (this.snapshot && !this.resyncing) this.resync();
        return;
      }
      const { patch, base, ...rest } = msg;
      msg = { ...rest, view: applyPatch(copy.view, patch), table: { ...copy.table, ...msg.table } };
    }
    // An older version is stale news. The same version again is the same state with
    // fresher table details (a seat handed over renames the roster): take it.
    if (last !== undefined && msg.version < last) return;
    this.copies.set(key, { view: msg.view, table: msg.table });
    if (msg.private) msg = mergePrivate(msg, this.privacy);
    this.versions.set(key, msg.version);
    this.noteServerTime(msg.table.server_time);
    this.o.onTable(msg);
    if (last !== undefined && msg.version > last + 1) this.resync(); // we missed one
  }

  /** A pong names the versions this socket reads (docs/PROTOCOL.md): behind on any,
   * or not knowing a table we read (seated while a broadcast was lost), we missed
   * something the channel layer did not bring: resync. */
  checkPong(msg) {
    const PONG_GRACE_MS = 700;
    // Looked at again a moment later: the broadcast of an action committed just before
    // the pong is usually still on its way, and then no resync is needed.
    if (this.behind(msg)) setTimeout(() => { if (this.ready && this.behind(msg)) this.resync(); }, PONG_GRACE_MS);
  }

  behind(msg) {
    if (!this.snapshot) return false;
    const party = this.snapshot.party || {};
    let behind = typeof msg.revision === "number" && msg.revision > (this.revision ?? party.revision ?? 0);
    for (const [id, version] of Object.entries(msg.tables || {})) {
      const mine = ["seat", "pub"].map((s) => this.versions.get(`${id}:${s}`)).filter((v) => v !== undefined);
      if (mine.length === 0 || Math.min(...mine) < version) behind = true;
    }
    return behind;
  }

  noteServerTime(seconds) {
    if (typeof seconds === "number") this.clockOffset = seconds * 1000 - Date.now();
  }
}

/** A public view with a patch applied (the games' views' `apply_patch`): `set` the
 * keys that changed, `unset` the keys gone, `seats` [index, entry] the seats that changed. */
export function applyPatch(view, patch) {
  const out = { ...view };
  for (const key of patch.unset || []) delete out[key];
  Object.assign(out, patch.set || {});
  if (patch.seats) {
    out.seats = [...out.seats];
    for (const [index, entry] of patch.seats) out.seats[index] = entry;
  }
  return out;
}

/** The public view inside a seat's whole view (a definition's `unmerge_private`): what
 * a patch applies to. The game's private keys go; a game that merges more than keys
 * (its module's `unmergePrivate`) takes its own back out. */
export function unmergePrivate(view, privacy) {
  const out = { ...view };
  for (const key of privacy.keys) delete out[key];
  return privacy.unmerge ? privacy.unmerge(out) : out;
}

/** A seat's `table` message comes as the public view plus the seat's private part: the
 * keys its game declares private (heist-game's private_keys: the seat's hand, what it
 * may do...) and its own events when they differ. The seat's whole view is the public
 * view with those keys set (a definition's `merge_private`); a game whose private part
 * also changes the public keys (its module's `mergePrivate(view, private)`) does that
 * itself, after. */
export function mergePrivate(msg, privacy) {
  const p = msg.private;
  let view = { ...msg.view };
  for (const key of privacy.keys) if (key in p) view[key] = p[key];
  if (privacy.merge) view = privacy.merge(view, p);
  const out = { ...msg, view, events: p.events || msg.events };
  delete out.private;
  return out;
}

// The party's game on this page, and its module: the seam between the host's pages and a
// game's screens (docs/GAMES.md).
//
// Every page of a party embeds <script id="heist-game" type="application/json">
// (events/web/screens.py game_for_page): {name, title, features: {gifts, vaults, relay,
// gate, games, max_games}, min_players, table_max, private_keys, steps, duties, module,
// css}: `steps` and `duties` the game's words for its stand-ins and duties. `module`
// is the static URL of the game's module for this page, from its package
// (games/<name>/static/<name>/): phone.js on a guest's phone, tablet.js on a captain's
// tablet, tile.js on the host's dashboard, board.js on the big screen. The host's page
// script (play.js, tablet.js, host.js, screen.js) keeps the shell (the socket with its
// resync on a version gap and reconnection, presence, language, the wake lock, pairing)
// and `import()`s the module by that URL; it never names a game.
//
// Every game module exports `mount(root, ctx)`, which draws into `root` and returns the
// screen: `{draw(...), ...}` (each page script's header says what its screens answer).
// `ctx` is what the shell lends the game: `code` (the party's join code), `game` (the
// facts above), `partyName`, and `live`, the shell's socket: `act(action, opts)`,
// `party(command, args)`, `resync()`, `serverNow()` (live.js), each a promise of the
// server's reply.

let GAME = null;

/** The party's game's facts on this page (heist-game), read once. */
export function gameInfo() {
  if (GAME === null) {
    const el = document.getElementById("heist-game");
    if (!el) throw new Error("this page carries no #heist-game (templates/base.html embeds the party's game)");
    GAME = JSON.parse(el.textContent);
  }
  return GAME;
}

/** The game's module for this page (its `module` URL), imported once. */
export function gameModule() {
  return import(gameInfo().module);
}

/** How many tables the server seats `guests` at for this game: tables/seating.py
 * table_count with the game's table_max (a lobby's count must be the seating's). */
export function tableCount(guests) {
  return Math.max(1, Math.ceil(guests / gameInfo().table_max));
}

/** The shell's socket as a game sees it: a live.js Live bound later (the screen is
 * mounted before the socket starts, so that no message finds it missing). */
export function liveFacade(getLive) {
  return {
    act: (action, opts) => getLive().act(action, opts),
    party: (command, args) => getLive().party(command, args),
    resync: () => getLive().resync(),
    serverNow: () => getLive().serverNow(),
  };
}

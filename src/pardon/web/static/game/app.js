/**
 * game/app.js — the game page's shared state (`app`, which is also window.pardonGame), its
 * constants, `$`, and the names of colours and cards.  All of it is read as the page loads:
 * it imports nothing from the page's other modules (game.js and game/*.js), so it is whole
 * before any of them runs.
 */

import { decodePart, store, stored } from "/static/site.js";

export const PAWN_KINDS = new Set(["step", "switch", "sorry", "bonus-home"]);
export const TOKEN_KINDS = new Set(["fire", "ice"]);
const NAMES = { red: "Red", blue: "Blue", yellow: "Yellow", green: "Green" };
const CARD_LABELS = { sorry: "Sorry!" };
export const NOTE_MS = 2500; // how long a passing note stays
export const AUTO_PASS_MS = 900; // long enough to see the card that cannot be used
export const AUTO_PASS_KEY = "pardon.autoPass";
/** How long the page waits to hear from the server, in ms, before it takes the connection for dead:
 * a phone that slept, or a network that changed, can leave a socket that never says it closed.
 * A move is answered at once; a hint is thought about first.  Between moves a ping goes every
 * `ping` ms while the page is in sight.  A page out of sight for `wake` ms or more (a phone put
 * down) connects again as it comes back; back sooner (a glance at another tab), it pings.  A test may shorten them (window.pardonTimeouts, set before
 * this script runs); nothing makes them longer. */
export const WAITS = shorterOf({ move: 8000, hint: 20000, ping: 20000, pong: 10000, wake: 10000 }, window.pardonTimeouts);
/** Which waits each message from the server ends (besides the ping's, which anything ends: the line is alive). */
export const ANSWERS = { event: ["move"], state: ["move"], sync: ["move"], error: ["move", "hint"], hint: ["hint"] };
export const $ = (id) => document.getElementById(id);
export const name = (colour) => NAMES[colour] ?? colour;
export const cardLabel = (card) => CARD_LABELS[card] ?? card;
export const touch = () => window.matchMedia?.("(pointer: coarse)").matches ?? false;
export const choose = () => (touch() ? "Tap" : "Click");
/** How a player starts a half-made move again: a phone has no Escape key, but a Cancel button. */
export const startAgain = () => (touch() ? "Cancel" : "Escape");

export const gameId = decodePart(location.pathname.split("/").filter(Boolean).pop() ?? "");
export const app = {
  token: readToken(),
  socket: null,
  role: null,
  seats: [], // the colours this connection plays
  state: null,
  lastEvent: 0,
  board: null,
  boardRules: null,
  queue: Promise.resolve(),
  selection: null, // {chosen: [[pawnKey, landingPlace]], candidates: [move]}
  pending: false,
  card: null, // in hand games, the card chosen from the hand
  hints: false,
  hinted: null,
  hintAsked: null, // the event a hint has been asked for, until its answer comes
  whyAsked: null, // {event, pawn, to, text, otherwise}: why a pawn cannot go somewhere, until the answer comes
  turnShownAt: -Infinity, // when the decision passed to another player (performance.now())
  sentAt: -Infinity, // when this screen last sent a move
  retry: 0,
  retryTimer: null, // the next try to connect, after a connection was lost
  hiddenAt: null, // when the page went out of sight (performance.now()), while it is
  waits: new Map(), // what the page waits to hear from the server ("move", "hint", "pong"): its timer
  unanswered: null, // the event of a move that had no answer: said after the reconnect, if it was not made
  closedForGood: false,
  passTo: null, // on a screen of several players, the player the turn has just passed to, until they act
  lastError: null, // the last error the server sent: a close for good says why
  refusal: null, // {text, event}: the refusal on show, and the event it came at (a later one clears it)
  ready: false, // the latest state is drawn and no animation runs
  autoPassed: null, // the event at which this page passed by itself (the log says so)
  autoPassTimer: null, // the pass by itself about to be sent
  autoPass: null, // "on" or "off" as chosen on this page: the choice stands even if storage refuses to keep it
  keepFocus: false, // a move was made from a control that goes away: the focus must stay on the page
  announced: null, // the event whose decision the live region has said is this page's
  lastSpoken: null, // the event of what the live region says now
  revealed: null, // on a hot-seat screen with hands, the colour whose player has said they hold the device
  focusedEvent: null, // the event whose first movable pawn has had the focus
  tokenChoice: null, // {moves, byPawn, byPlace}: a Fire or Ice token still to place
  analysis: null, // the coach's analysis of the finished game (GET /api/games/{id}/analysis)
  analysing: null, // the game whose analysis has been asked for
  reviewing: null, // the decision of a mistake shown on the board, if one is
};
window.pardonGame = app; // for tests and the curious

// --- read as the page loads: the token (app.token) and the waits (WAITS) ----------------

export function readToken() {
  const match = /token=([^&]+)/.exec(location.hash);
  const key = `pardon.token.${gameId}`;
  if (match) {
    const token = decodePart(match[1]);
    store(key, token, { session: true }); // with storage off, the fragment still works
    store(key, token);
    return token;
  }
  return stored(key, { session: true }) ?? stored(key);
}

/** `waits` with each of `asked` that is shorter in its place. */
function shorterOf(waits, asked) {
  const chosen = { ...waits };
  for (const [what, ms] of Object.entries(asked ?? {})) {
    if (what in chosen && Number(ms) > 0) chosen[what] = Math.min(chosen[what], Number(ms));
  }
  return chosen;
}

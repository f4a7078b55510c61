/**
 * game.js — the game page: a websocket to the server (docs/protocol.md), the board (board.js),
 * and the choice of a move among those the server sent.  It knows no rules: every legal move,
 * its pawn actions and paths, the other ways of making it, its words, the teams, and why a pawn
 * cannot move come from the server.
 */

import {
  animateDecision,
  clearMarks,
  createBoard,
  loadGeometry,
  markCursor,
  markPawns,
  markPlaces,
  pawnPlace,
  placeKey,
  setFocusable,
  showCard,
  showPosition,
  showTurn,
  tokenWords,
} from "/static/board.js";
import { chanceGraph, mistakeList, unjudged } from "/static/coach.js";
import {
  api,
  decodePart,
  forget,
  hostTokenOf,
  levelName,
  noteMyGame,
  seatLabel,
  seatToComputer,
  store,
  stored,
} from "/static/site.js";

const PAWN_KINDS = new Set(["step", "switch", "sorry", "bonus-home"]);
const TOKEN_KINDS = new Set(["fire", "ice"]);
const NAMES = { red: "Red", blue: "Blue", yellow: "Yellow", green: "Green" };
const CARD_LABELS = { sorry: "Sorry!" };
const NOTE_MS = 2500; // how long a passing note stays
const AUTO_PASS_MS = 900; // long enough to see the card that cannot be used
const AUTO_PASS_KEY = "pardon.autoPass";
/** How long the page waits to hear from the server, in ms, before it takes the connection for dead:
 * a phone that slept, or a network that changed, can leave a socket that never says it closed.
 * A move is answered at once; a hint is thought about first.  Between moves a ping goes every
 * `ping` ms while the page is in sight.  A page out of sight for `wake` ms or more (a phone put
 * down) connects again as it comes back; back sooner (a glance at another tab), it pings.  A test may shorten them (window.pardonTimeouts, set before
 * this script runs); nothing makes them longer. */
const WAITS = shorterOf({ move: 8000, hint: 20000, ping: 20000, pong: 10000, wake: 10000 }, window.pardonTimeouts);
/** Which waits each message from the server ends (besides the ping's, which anything ends: the line is alive). */
const ANSWERS = { event: ["move"], state: ["move"], sync: ["move"], error: ["move", "hint"], hint: ["hint"] };
const $ = (id) => document.getElementById(id);
const name = (colour) => NAMES[colour] ?? colour;
const cardLabel = (card) => CARD_LABELS[card] ?? card;
const touch = () => window.matchMedia?.("(pointer: coarse)").matches ?? false;
const choose = () => (touch() ? "Tap" : "Click");
/** How a player starts a half-made move again: a phone has no Escape key, but a Cancel button. */
const startAgain = () => (touch() ? "Cancel" : "Escape");

const gameId = decodePart(location.pathname.split("/").filter(Boolean).pop() ?? "");
const app = {
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

// --- token and connection ----------------------------------------------------------------

function readToken() {
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

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
  app.socket = socket;
  socket.addEventListener("open", () => {
    if (app.socket !== socket) return; // given up for a newer one
    app.retry = 0;
    setConnection("Connected", false);
    const hello = { type: "hello", since: app.lastEvent };
    if (app.token) hello.token = app.token;
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (event) => {
    if (app.socket !== socket) return; // a connection given up for dead that spoke after all: the new one's sync says it
    const message = JSON.parse(event.data);
    heard(message); // now, not once the animations queued before it are over
    app.queue = app.queue.then(() => handle(message)).catch((error) => console.error(error));
  });
  socket.addEventListener("close", (event) => {
    if (app.socket !== socket) return;
    stopWaiting();
    app.pending = false;
    app.hintAsked = null; // an answer on its way is lost with the connection
    if ([4401, 4404, 1008, 1011].includes(event.code)) { // bad token, no game, protocol broken, game broken
      app.closedForGood = true;
      setConnection("Not connected", true);
      if (app.state) $("turn").textContent = closedWhy(event.code);
      else showClosed(event.code); // no game was ever shown: no empty board, only why, and the way home
      return;
    }
    const delay = Math.min(5000, 400 * 2 ** app.retry++);
    const busy = event.code === 1013; // too many connections now, or this page fell behind
    setConnection(busy ? "The server is busy — trying again…" : "Connection lost — reconnecting…", true);
    app.retryTimer = setTimeout(connect, delay);
  });
}

function closedWhy(code) {
  if (code === 4404) return "There is no such game.";
  if (code === 4401) return "This link does not open a seat of this game.";
  return app.lastError ? `The server closed the connection: ${app.lastError}` : "The server closed the connection.";
}

/** The page when there is no game to show (no such game, a link that opens no seat): why, plainly, and a link home. */
function showClosed(code) {
  $("game").hidden = true;
  $("closed").hidden = false;
  $("closed-why").textContent = closedWhy(code);
  $("closed-help").textContent =
    code === 4404
      ? "The link may be mistyped or cut short, or the game has been removed."
      : code === 4401
        ? "The link may be mistyped or cut short. Ask whoever sent it for the link again."
        : "Try again in a moment, or start another game.";
  document.title = `${closedWhy(code)} — pardon`;
}

function reconnect() {
  const old = app.socket;
  app.socket = null;
  stopWaiting();
  clearTimeout(app.retryTimer); // one new connection, not a second when the retry comes
  old?.close();
  connect();
}

/** Whether the message went (a connection is open). */
function send(message) {
  if (app.socket?.readyState !== WebSocket.OPEN) return false;
  app.socket.send(JSON.stringify(message));
  return true;
}

// --- a connection that died without a word --------------------------------------------------
// A socket whose network went away (a phone asleep, Wi-Fi to mobile data) may never fire its
// close event: the page would say "Connected" and wait for ever for the answer to a move.  So
// every move and hint waits a while for its answer, a ping goes now and then, and the page opens
// a new connection when it comes back into sight; the sync (hello with `since`) does the rest.

/** Wait for the answer to `what` ("move", "hint", "pong"); none in time means the connection is dead. */
function expectAnswer(what) {
  clearTimeout(app.waits.get(what));
  app.waits.set(what, setTimeout(noAnswer, WAITS[what]));
}

function answered(what) {
  clearTimeout(app.waits.get(what));
  app.waits.delete(what);
}

function stopWaiting() {
  for (const what of [...app.waits.keys()]) answered(what);
}

/** A message came: the connection lives, and the waits it answers are over. */
function heard(message) {
  answered("pong");
  for (const what of ANSWERS[message.type] ?? []) answered(what);
}

/** Nothing came back in time: say so, and connect again.  A move sent may not have arrived: the
 * sync says whether it did (see madeAgain), and a move half made stays as it was. */
function noAnswer() {
  if (app.closedForGood) return;
  if (app.waits.has("move")) app.unanswered = app.state?.event ?? null; // whichever wait ran out first
  app.pending = false;
  hintAnswered();
  const text = "No answer from the server: reconnecting…";
  say(text);
  app.refusal = { text, event: -1 }; // the state of the next connection clears it
  setConnection("No answer — reconnecting…", true);
  reconnect();
}

/** After a reconnect for a move that had no answer: if the game is still at that move, it never
 * arrived, and the player is asked to make it again. */
function madeAgain(state) {
  const event = app.unanswered;
  app.unanswered = null;
  if (event === null || state.event !== event || !myDecision()) return;
  const text = "Connected again. Your move was not made: make it again.";
  say(text);
  app.refusal = { text, event };
}

/** Now and then while the page is in sight: a ping, unless an answer is awaited already. */
function pingNow() {
  if (document.visibilityState === "hidden" || app.closedForGood || app.waits.size) return;
  if (send({ type: "ping" })) expectAnswer("pong");
}

/** The page is in sight again (a phone woke up), the network is back, or Back brought the page
 * from the browser's cache: its connection may have died meanwhile without a word, so a new one
 * is opened, and its sync brings the game up to date. */
function wake() {
  app.hiddenAt = null;
  if (app.closedForGood || document.visibilityState === "hidden") return;
  if (app.socket?.readyState === WebSocket.CONNECTING) return; // a new one is on its way already
  reconnect();
}

/** Out of sight, or back: a page back after a while connects again (its line may have died
 * meanwhile); one back from a glance at another tab only pings, so that the other players do
 * not see its seat leave and come back. */
function inSight() {
  if (document.visibilityState === "hidden") {
    app.hiddenAt ??= performance.now();
    return;
  }
  const away = app.hiddenAt === null ? Infinity : performance.now() - app.hiddenAt;
  app.hiddenAt = null;
  if (away >= WAITS.wake) wake();
  else pingNow();
}

function setConnection(text, offline) {
  const node = $("connection");
  node.textContent = text;
  node.classList.toggle("offline", offline);
}

// --- messages ----------------------------------------------------------------------------

async function handle(message) {
  switch (message.type) {
    case "welcome":
      app.role = message.role;
      app.seats = message.seats;
      if (app.seats.length) noteMyGame(gameId); // the home page offers it again until it is over
      if (app.lastError && $("message").textContent === app.lastError) say(""); // a refusal before this connection
      app.lastError = null;
      return;
    case "sync":
      for (const event of message.events) log(logText(event.text ?? `${name(event.colour)}: ${event.move}`, event.event, event.colour));
      if (app.autoPassed === message.state.event) {
        // a pass by itself that this new connection has not heard of was lost with the old one
        // (never sent, or never stored): pass again, rather than wait for it for ever
        clearTimeout(app.autoPassTimer);
        app.autoPassed = null;
      }
      return show(message.state, null);
    case "event":
      return show(message.state, message.state.last ?? message.decision);
    case "state":
      return show(message.state, null);
    case "presence":
      if (app.state) {
        app.state.seats = message.seats;
        renderSeats();
        renderTurn();
      }
      return;
    case "hint":
      return showHint(message);
    case "why":
      return showWhy(message);
    case "error":
      return showError(message);
    default:
      return;
  }
}

async function show(state, decision) {
  const before = app.state;
  const focused = focusedControl(); // the same turn drawn again (a reconnect): the focus comes back to it
  if (app.reviewing !== null) endReview(); // the board is drawn anew just below
  app.ready = false;
  app.state = state;
  app.lastEvent = state.event;
  app.pending = false;
  if (state.decider !== before?.decider) {
    app.turnShownAt = performance.now();
    app.passTo = state.decider; // "Pass the device to …" until they act
  }
  for (const move of state.moves) move.shownAt = state.event; // a button knows the decision it was drawn for
  if (before && state.event !== before.event) {
    // a decision since, heard live or in a sync after a reconnect: nothing half-made of the one before
    // stands (a split 7 begun on a phone that slept while another tab played), nor the card chosen
    app.selection = null;
    app.tokenChoice = null;
    app.card = null;
  }
  if (app.refusal && state.event > app.refusal.event) {
    // the game has moved on since: what was said of an earlier move no longer applies
    if ($("message").textContent === app.refusal.text) say("");
    app.refusal = null;
  }
  madeAgain(state);
  await ensureBoard(state);
  // until the new state is drawn, no pawn is a Tab stop: one left from the decision before would
  // say "can move" (or why not) of a turn that is over
  setFocusable(app.board, []);
  if (decision && before && state.last && state.event === before.event + 1) {
    clearMarks(app.board);
    app.selection = null;
    app.tokenChoice = null;
    if (app.autoPassed === before.event) rememberAutoPass(state.event);
    const text = logText(state.last.text, state.event, state.last.colour);
    log(text);
    announce(spokenDecision(state.last, text));
    await animateDecision(app.board, before.position, state.position, state.last);
  } else {
    await showPosition(app.board, state.position);
  }
  if (app.state !== state) return; // a newer state came while animating
  render();
  if (before && state.event === before.event) restoreFocus(focused);
  keepFocus();
  announceTurn();
  const settling = sameTapLeft(); // a tap now would still be the last player's double tap
  if (settling > 0) setTimeout(() => app.state === state && (app.ready = true), settling);
  else app.ready = true;
}

/** How long a tap is still taken for the last player's double tap (see play), in ms; 0 if not. */
function sameTapLeft() {
  if (app.seats.length < 2 || app.turnShownAt <= app.sentAt) return 0;
  return Math.max(0, SAME_TAP_MS - (performance.now() - app.sentAt));
}

/** A decision as the live region says it: a pawn of this page's player sent back is said so, plainly. */
function spokenDecision(last, text) {
  if (app.seats.length !== 1 || app.seats.includes(last.colour)) return text;
  const mine = (last.bumps ?? []).filter((key) => app.seats.includes(key.split(":")[0])).length;
  if (!mine) return text;
  const pawns = mine > 1 ? `${mine} of your pawns` : "your pawn";
  // the bump said once: "(sends Red back to Start)" becomes "(bumped your pawn: sends Red back to Start)"
  const sends = /\((sends [^()]* back to Start)\)/;
  if (sends.test(text)) return text.replace(sends, `(bumped ${pawns}: $1)`);
  return `${text}. ${playerName(last.colour)} bumped ${pawns} back to Start.`;
}

/** When the decision becomes this page's, the live region says so, with the card to play: a
 * player who does not see the board hears it is their turn, and what they drew. */
function announceTurn() {
  const state = app.state;
  if (!myDecision() || app.announced === state.event) return;
  app.announced = state.event;
  const who = app.seats.length > 1 ? `${playerName(state.decider)} to play` : "Your turn";
  let what = "";
  if (handHidden()) what = `pass the device to ${playerName(state.decider)}.`;
  else if (state.stage === "answering") what = `${name(state.position.turn)} doubled the stakes: accept, or drop out.`;
  else if (state.stage !== "card") what = "draw your card.";
  else if (state.card && state.moves.every((move) => move.pass)) {
    what = `you drew ${cardWords(state.card)}, and no pawn can use it${becauseOf(state.card)}.`;
  } else if (state.card) what = `you drew ${cardWords(state.card)}. ${state.card_text ?? ""}`.trim();
  else if (state.position.hands) what = "choose a card from your hand.";
  // a hidden hand's gate: the player to pass the device to is named once
  announce(handHidden() ? `Pass the device to ${playerName(state.decider)}.` : `${who}: ${what}`);
}

const cardWords = (card) => (card === "sorry" ? "a Sorry! card" : `${["8", "11"].includes(card) ? "an" : "a"} ${card}`);

/** What has the keyboard's focus among the controls a redraw makes anew: a pawn (by key), a
 * card of the hand, a move's button; null if none of them. */
function focusedControl() {
  const active = document.activeElement;
  if (!active || active === document.body) return null;
  if (active.classList?.contains("pawn")) return { pawn: active.dataset.key };
  if (active.closest?.("#hand") && active.dataset.card) return { card: active.dataset.card };
  if (active.closest?.("#choices")) return { choice: active.dataset.move ?? null, id: active.id || null, text: active.textContent };
  return null;
}

/** Give the focus back to the control it was on before the page was drawn again, if it is still there. */
function restoreFocus(focused) {
  const active = document.activeElement;
  if (!focused || (active && active !== document.body)) return;
  let target = null;
  if (focused.pawn) target = app.board.svg.querySelector(`.pawn[tabindex][data-key="${CSS.escape(focused.pawn)}"]`);
  else if (focused.card) target = $("hand").querySelector(`button[data-card="${CSS.escape(focused.card)}"]:not([disabled])`);
  else {
    const buttons = [...$("choices").querySelectorAll("button")];
    target =
      buttons.find((button) => focused.id && button.id === focused.id) ??
      buttons.find((button) => focused.choice && button.dataset.move === focused.choice) ??
      buttons.find((button) => button.textContent === focused.text) ??
      null;
  }
  target?.focus({ preventScroll: true });
}

/** A move made from the board or the buttons takes its control away: the focus, which would
 * fall to the top of the page, goes to the banner that says whose turn it is now. */
function keepFocus() {
  const active = document.activeElement;
  if (!app.keepFocus || (active && active !== document.body)) return;
  app.keepFocus = false;
  if (!$("game-over").hidden) return;
  $("turn").focus({ preventScroll: true });
}

/** The colour whose side is at the bottom: the seat this page plays (its first), else the first seat. */
function seatAtBottom(state) {
  return app.seats[0] ?? state.seats[0]?.colour ?? "red";
}

async function ensureBoard(state) {
  const seat = seatAtBottom(state);
  if (app.board && app.boardRules === state.rules && app.board.seat === seat) return;
  const geometry = await loadGeometry(state.rules);
  app.board = createBoard($("board"), geometry, { onPawn: clickPawn, onPlace: clickPlace, seat });
  app.boardRules = state.rules;
}

/** The page's heading says the game in words, its rules and its players; the game's id is in
 * sight in it, but not read out (a screen reader's heading list says the game, not a code). */
function renderTitle() {
  const state = app.state;
  const players = state.seats.map((seat) => {
    const mine = app.seats.length === 1 && app.seats.includes(seat.colour) ? " (you)" : "";
    return `${playerName(seat.colour)}${seat.kind === "bot" ? " (computer)" : mine}`;
  });
  const list = players.length > 1 ? `${players.slice(0, -1).join(", ")} and ${players.at(-1)}` : players.join("");
  const title = $("game-title");
  const rules = `Sorry! · ${state.rules_name ?? state.rules}`;
  if (title.dataset.said !== `${rules}|${list}|${state.game}`) {
    title.dataset.said = `${rules}|${list}|${state.game}`;
    title.textContent = `${rules} · game ${state.game}`;
    title.setAttribute("aria-label", `${rules}: ${list}`);
  }
}

function showError(message) {
  app.pending = false;
  hintAnswered();
  app.lastError = message.message;
  const event = message.event ?? app.state?.event ?? 0;
  if (message.code === "stale" || message.code === "bad_event") {
    say("The game moved on: catching up…", true);
    app.refusal = { text: "The game moved on: catching up…", event: -1 }; // the next state shown clears it
    reconnect();
    return;
  }
  say(message.message);
  app.refusal = { text: message.message, event };
  if (app.state) render();
}

// --- rendering ---------------------------------------------------------------------------

function render() {
  const state = app.state;
  renderTitle();
  showTurn(app.board, state.status === "playing" ? state.decider : null);
  renderSeats();
  renderTurn();
  renderHand(); // first: it settles which card of the hand is chosen, the card shown
  renderCard();
  renderChoices();
  renderGameOver();
}

/** The card in play, on the board and beside it: the card drawn, or in a hand game the card
 * chosen from the hand (nothing is drawn there: the hand is what a player plays from). */
function renderCard() {
  const { card: drawn, card_text: drawnText, status } = app.state;
  const chosen = drawn ? null : handCard();
  const card = status === "waiting" ? null : (drawn ?? chosen); // no card is shown before everyone is here
  const text = chosen ? app.state.hand_texts?.[chosen] : drawnText;
  showCard(app.board, { card, text, pack: app.state.pack, discards: app.state.discards.count });
  const big = $("big-card");
  big.textContent = card ? cardLabel(card) : "—";
  big.classList.toggle("none", !card);
  big.classList.toggle("long", cardLabel(card ?? "").length > 2);
  $("card-name").textContent = card ? `Card: ${cardLabel(card)}` : noCardWords();
  $("card-text").textContent = card ? (text ?? "") : "";
}

/** The card chosen from this page's hand while the decision is its own, else null. */
const handCard = () => (app.state.position.hands && myDecision() && !handHidden() ? app.card : null);

/** What the card panel says with no card in play: a hand game never draws one before it is played. */
function noCardWords() {
  const state = app.state;
  if (state.status !== "playing") return "";
  if (!state.position.hands) return state.pack != null ? "No card drawn" : "";
  if (myDecision() && !handHidden()) return "No card chosen yet";
  return state.decider ? `${playerName(state.decider)} chooses a card from their hand` : "";
}

function myDecision() {
  const state = app.state;
  return state.status === "playing" && state.moves.length > 0 && app.seats.includes(state.decider);
}

function seatOf(colour) {
  return app.state?.seats.find((seat) => seat.colour === colour) ?? { colour, kind: "human", name: name(colour) };
}

/** A player as the page names them: a name typed in for the seat, with its colour; else the colour. */
function playerName(colour) {
  const seat = seatOf(colour);
  return seat.kind === "bot" ? name(colour) : seatLabel(seat);
}

/** While the game waits, the host (the browser that made it, which keeps its token) may let a
 * computer play the seat of a friend who cannot come; everyone else is told whom it waits for. */
function renderNoShows() {
  const box = $("no-shows");
  const state = app.state;
  const missing = state.status === "waiting" ? state.seats.filter((seat) => !seat.taken) : [];
  const hostToken = missing.length ? hostTokenOf(state.game) : null;
  box.hidden = !hostToken;
  if (!hostToken) return box.replaceChildren();
  const shown = [...box.querySelectorAll("button")].map((button) => button.dataset.colour).join();
  if (shown === missing.map((seat) => seat.colour).join()) return; // as drawn: keep the focus where it is
  box.replaceChildren(
    ...missing.map((seat) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.colour = seat.colour;
      button.textContent = `Computer plays ${playerName(seat.colour)} instead`;
      button.addEventListener("click", () => handOver(button, seat.colour, hostToken));
      return button;
    }),
  );
}

async function handOver(button, colour, hostToken) {
  button.disabled = true;
  try {
    await seatToComputer(app.state.game, colour, hostToken); // the server then sends everyone the new state
    say("");
  } catch (failure) {
    button.disabled = false;
    say(`${playerName(colour)}'s seat could not be handed to the computer: ${failure.message}`);
  }
}

/** The partnership of `colour` in a partners game (its colours), else null. */
function teamOf(colour) {
  return app.state.teams?.find((team) => team.includes(colour)) ?? null;
}

function renderTurn() {
  const state = app.state;
  const banner = $("turn");
  const passDevice = $("pass-device");
  passDevice.hidden = true;
  banner.classList.remove("yours");
  renderNoShows();
  if (state.status === "waiting") {
    const missing = state.seats.filter((seat) => !seat.taken).map((seat) => playerName(seat.colour)); // not who came and went
    banner.textContent = missing.length ? `Waiting for ${missing.join(", ")} to join` : "Starting…";
    return;
  }
  if (state.status === "finished" || !state.decider) {
    banner.textContent = state.winner ? winnerText(state.winner) : "The game is over";
    return;
  }
  const decider = state.decider;
  const dot = `<span class="dot ${decider}" aria-hidden="true"></span>`;
  const words = document.createElement("span");
  if (myDecision()) {
    banner.classList.add("yours");
    words.textContent = app.seats.length > 1 ? `${playerName(decider)} to play` : `Your turn (${name(decider)})`;
    if (app.seats.length > 1 && app.passTo === decider && !handHidden()) { // a hidden hand's gate says it itself
      passDevice.hidden = false;
      passDevice.textContent = `Pass the device to ${playerName(decider)}`;
    }
  } else {
    const seat = seatOf(decider);
    const who =
      seat.kind === "bot" ? ` (computer, ${levelName(seat.level)})` : seat.computer_playing ? " (computer while away)" : "";
    words.textContent = `${playerName(decider)}'s turn${who}`;
  }
  banner.innerHTML = dot;
  banner.append(" ", words);
  const team = teamOf(decider);
  if (team) banner.append(teamWords(decider, team));
}

/** In a partners game, which team is playing, and, once a player's own pawns are all Home, that
 * they play their partner's: a family at one screen sees at once whose pawns move. */
function teamWords(decider, team) {
  const partner = team.find((colour) => colour !== decider);
  const line = document.createElement("span");
  line.className = "team-line";
  const pawns = app.state.position.pawns[decider] ?? [];
  const allHome = pawns.length > 0 && pawns.every((where) => where === "home");
  line.textContent = allHome
    ? `All ${name(decider)}'s pawns are Home: ${name(decider)} plays ${name(partner)}'s pawns for the team.`
    : `Team ${team.map(name).join(" and ")}`;
  return line;
}

function renderSeats() {
  const state = app.state;
  const list = $("seats");
  list.replaceChildren();
  for (const seat of state.seats) {
    const item = document.createElement("li");
    item.dataset.colour = seat.colour;
    if (seat.colour === state.decider && state.status === "playing") item.classList.add("deciding");
    const mine = app.seats.length === 1 && app.seats.includes(seat.colour) ? " (you)" : "";
    let status = seat.kind === "bot" ? "" : seat.connected ? "here" : "not here";
    if (state.status === "waiting" && seat.kind !== "bot") {
      const missing = seat.joining ? "someone is joining from the lobby" : seat.open ? "open to anyone in the lobby" : "invited, not joined yet";
      status = seat.connected ? "joined" : seat.taken ? "joined, not here now" : missing;
    }
    if (seat.computer_playing && seat.kind !== "bot") status = "away: the computer plays";
    if (seat.kind === "hotseat" && app.seats.length > 1) status = "on this screen";
    else if (seat.windows > 1) status += ` · open in ${seat.windows} windows`; // a second tab, or a link passed on
    const home = (state.position.pawns[seat.colour] ?? []).filter((where) => where === "home").length;
    item.innerHTML = `<span class="dot ${seat.colour}" aria-hidden="true"></span> <span></span><span class="status"></span>`;
    item.children[1].textContent = `${seatLabel(seat)}${mine} · ${home} Home`;
    item.children[2].textContent = status;
    list.appendChild(item);
  }
  const teams = state.teams;
  $("teams").hidden = !teams;
  $("teams").textContent = teams
    ? `Partners: ${teams.map((team) => team.map(name).join(" and ")).join(" against ")}. A card may move either partner's pawns.`
    : "";
  const doubling = state.position.doubling;
  $("stake").textContent = doubling
    ? `Stake ×${doubling.stake}${doubling.out.length ? ` · out: ${doubling.out.map(name).join(", ")}` : ""}`
    : "";
}

/** On a hot-seat screen of several players with hands of cards, whether the hand on show must
 * stay face down: between turns, and at a player's turn until they say they hold the device. */
function handHidden() {
  const state = app.state;
  if (!state.position.hands || app.seats.length < 2) return false;
  return !myDecision() || app.revealed !== state.decider;
}

function renderHand() {
  const hands = app.state.position.hands;
  const viewer = app.state.viewer;
  const hidden = handHidden();
  const hand = hands && viewer && !hidden ? hands[viewer] : null;
  if (hidden) app.card = null;
  $("hand-wrap").hidden = !hand || hand.length === 0;
  $("hand-title").textContent = app.seats.length > 1 && viewer ? `${playerName(viewer)}'s hand` : "Your hand";
  $("hand").setAttribute("aria-label", $("hand-title").textContent);
  const box = $("hand");
  box.replaceChildren();
  if (!hand) return;
  const playable = new Set(myDecision() ? app.state.moves.map((move) => move.card) : []);
  if (app.card && !playable.has(app.card)) app.card = null;
  if (playable.size === 1) app.card = [...playable][0];
  for (const card of hand) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = cardLabel(card);
    button.classList.toggle("long", cardLabel(card).length > 2);
    button.dataset.card = card;
    button.setAttribute("aria-label", `play the ${cardLabel(card)}`);
    button.setAttribute("aria-pressed", String(app.card === card));
    button.disabled = !playable.has(card);
    button.addEventListener("click", () => {
      forgetHalfMove(); // a move begun with another card is given up
      app.card = card;
      app.selection = null;
      app.tokenChoice = null;
      renderHand();
      renderCard();
      renderChoices();
      keepHalfMove(); // the card stays chosen across a reload
      // the card chosen, the keyboard goes on to its pawns (or its button: a discard, a pass)
      const next = app.board.svg.querySelector(".pawn.movable[tabindex]") ?? $("choices").querySelector("button");
      next?.focus({ preventScroll: true });
      movableInView(); // the hand is under the board: on a phone held upright the pawns were scrolled away
    });
    box.appendChild(button);
  }
}

/** The moves now open to a choice: all of them, or those of the card chosen from a hand. */
function openMoves() {
  if (!myDecision()) return [];
  const moves = app.state.moves;
  if (app.state.position.hands && app.state.stage === "card") {
    return app.card ? moves.filter((move) => move.card === app.card) : [];
  }
  return moves;
}

/** The moves the list of all legal moves shows: those of the card in play; in a hand game before
 * a card is chosen, those of every card of the hand (each names its card), not none. */
function listedMoves() {
  const open = openMoves();
  const state = app.state;
  return !open.length && myDecision() && state.position.hands && state.stage === "card" ? state.moves : open;
}

const pawnActions = (move) => move.actions.filter((action) => PAWN_KINDS.has(action.kind));
const tokenActions = (move) => move.actions.filter((action) => TOKEN_KINDS.has(action.kind));
const landingPlace = (action) => placeKey(action.colour, action.landing ?? action.to);

/** Every way of making each move by its pawns: the move's own, then the others the server lists
 * (a split 7 with the outcome of another): {move, actions}. */
function routesOf(moves) {
  const routes = [];
  for (const move of moves) {
    const own = pawnActions(move);
    if (!own.length) continue;
    routes.push({ move, actions: own, own: true });
    for (const way of move.ways ?? []) routes.push({ move, actions: way, own: false });
  }
  return routes;
}

function buttonLabel(move) {
  const kinds = move.actions.map((action) => action.kind);
  if (kinds.includes("double")) return "Double the stakes";
  if (kinds.includes("accept")) return "Accept the double";
  if (kinds.includes("drop")) return "Drop out";
  if (!move.actions.length && app.state.stage !== "card") return "Draw a card";
  if (move.pass) return app.state.position.hands ? `Discard the ${cardLabel(move.card)}` : "Pass";
  if (!move.actions.length) return "Draw a card";
  return move.text;
}

/** What the player is asked once a pawn is chosen: its places are marked on the board. */
const pawnChosenPrompt = () => `Now ${choose().toLowerCase()} a marked place to move it there, or another pawn.`;

/** What the player is asked, in words, before any pawn is chosen. */
function promptFor(moves, routes, buttons) {
  const state = app.state;
  const kinds = new Set(moves.flatMap((move) => move.actions.map((action) => action.kind)));
  if (state.stage === "answering") {
    const stake = state.position.doubling?.stake ?? 1;
    const counts = stake > 1 ? `×${2 * stake} (×${stake} until now)` : "double";
    return `${name(state.position.turn)} doubled the stakes: accept, and every score of this game counts ${counts}; or drop out, and score nothing for this game.`;
  }
  if (state.stage !== "card") {
    const fire = routes.length ? `Your Fire pawn may first jump ahead to the next corner (${choose().toLowerCase()} it). ` : "";
    const double = kinds.has("double") ? "Double the stakes before you draw, or draw your card." : "Draw your card.";
    return fire + double;
  }
  const deadHand = state.position.hands && state.moves.every((move) => move.pass);
  if (deadHand && !app.card) return "No card in your hand can be used: choose one to discard, and draw another.";
  if (state.position.hands && !app.card) return "Choose a card from your hand.";
  if (deadHand && buttons.some((move) => move.pass)) {
    return `No card in your hand can be used: discard the ${cardLabel(app.card)}, or choose another card to discard.`;
  }
  if (routes.length) {
    const pass = buttons.some((move) => move.pass) ? ", or pass" : "";
    const back = otherCards() && !touch() ? " (Escape: choose another card)" : ""; // a tap on another card does it
    return `${choose()} a pawn to see where it can go${pass}.${back}`;
  }
  if (buttons.some((move) => move.pass)) {
    return `${noPawnCanUse(app.card ?? state.card)} Your turn is over: press Pass.`;
  }
  return "Your decision:";
}

/** That no pawn can use `card`, and why. */
const noPawnCanUse = (card) => `No pawn can use the ${cardLabel(card)}${becauseOf(card)}.`;

/** Why no pawn can use `card`, from the server's reasons for each pawn (" — …"), or "" if it gave none.
 * A family new to the game learns the rule that stops them, not only that they are stopped. */
function becauseOf(card) {
  const reasons = Object.entries(app.state.why_not?.[card] ?? {});
  const moving = reasons.filter(([key]) => !key.endsWith(":home")); // a pawn Home is no news
  const said = [...new Set((moving.length ? moving : reasons).map(([, why]) => why))];
  return said.length ? ` — ${said.join("; ")}` : "";
}

function renderChoices() {
  const choices = $("choices");
  choices.replaceChildren();
  clearMarks(app.board);
  const moves = openMoves();
  const mine = myDecision();
  $("moves-panel").hidden = !mine;
  $("auto-pass-row").hidden = !app.seats.length || app.state.status !== "playing"; // a choice for the game under way
  $("auto-pass").checked = autoPassOn();
  if (!mine) {
    setFocusable(app.board, []);
    $("prompt").textContent = "";
    app.selection = null;
    app.tokenChoice = null;
    app.revealed = null; // the next player on this screen shows their hand when they hold the device
    renderMoveList([]);
    return;
  }
  if (handHidden()) return renderHandGate();
  if (app.tokenChoice) return renderTokenChoice();
  const routes = routesOf(moves);
  if (!app.selection) {
    app.selection = { chosen: [], candidates: routes, pawn: null };
    if (resumeHalfMove()) return renderMoveList(listedMoves());
  }
  const selection = app.selection;
  const buttons = moves.filter((move) => !pawnActions(move).length);
  if (selection.chosen.length) {
    $("prompt").textContent = halfMovePrompt();
  } else if (selection.pawn) {
    $("prompt").textContent = pawnChosenPrompt();
  } else {
    $("prompt").textContent = promptFor(moves, routes, buttons);
  }
  if (passByItself(moves)) return markSelection(); // the pawns say why none can move, not what the last card allowed
  if (!selection.chosen.length) {
    for (const move of buttons) {
      const button = choices.appendChild(moveButton(move, buttonLabel(move), move.pass ? "" : "primary"));
      if (buttonLabel(move) === "Draw a card") button.dataset.draw = "";
    }
  } else {
    choices.appendChild(cancelButton());
  }
  if (moves.length === 1 && !selection.chosen.length) {
    const only = moves[0];
    if (pawnActions(only).length) choices.prepend(moveButton(only, `Play: ${only.text}`, "primary confirm"));
    const first = choices.querySelector("button");
    first?.focus({ preventScroll: true });
    inView(first); // the one thing to do: on a tablet held upright it sat below the screen
    app.focusedEvent = app.state.event;
  }
  if (app.hints && hintable() && !selection.chosen.length) {
    const hint = document.createElement("button");
    hint.type = "button";
    hint.id = "hint";
    markHint(hint, app.hintAsked === app.state.event);
    hint.addEventListener("click", askHint);
    choices.appendChild(hint);
  }
  markSelection();
  focusFirstPawn();
  renderMoveList(listedMoves());
}

/** A hot-seat turn with a hand of cards: nothing of the hand shows until its player has the device. */
function renderHandGate() {
  const who = playerName(app.state.decider);
  $("moves-panel").hidden = true;
  setFocusable(app.board, []);
  app.selection = null;
  app.tokenChoice = null;
  renderMoveList([]);
  $("prompt").textContent = `Pass the device to ${who}. ${who}: show your hand once nobody else can see the screen.`;
  const show = document.createElement("button");
  show.type = "button";
  show.id = "show-hand";
  show.className = "primary";
  show.textContent = `Show ${who}'s hand`;
  show.addEventListener("click", () => {
    app.revealed = app.state.decider;
    app.passTo = null; // they hold the device now
    app.focusedEvent = null;
    renderHand();
    renderCard();
    renderChoices();
    focusFirstCard();
    // the hand is what to tap next, unless its one card is chosen already: then its pawns are
    handCard() ? movableInView() : inView($("hand-wrap"));
  });
  $("choices").replaceChildren(show);
  const active = document.activeElement;
  if (!active || active === document.body || active.closest("#board, #choices, #hand, #turn")) show.focus({ preventScroll: true });
  inView(show);
}

/** Bring `element` on screen if it is off it (not at all if it is on screen already). */
function inView(element) {
  if (offScreen(element)) element.scrollIntoView({ block: "nearest" });
}

function offScreen(element) {
  const box = element?.getBoundingClientRect();
  return Boolean(box) && (box.bottom > window.innerHeight || box.top < 0);
}

/** Bring the pawns that can move on screen, with the board round them, if any of them is off it. */
function movableInView() {
  const movable = [...app.board.svg.querySelectorAll(".pawn.movable")];
  if (!movable.some(offScreen)) return;
  $("board").scrollIntoView({ block: "nearest" });
  inView(movable.find(offScreen)); // a board taller than the screen
}

/** In a hand game, the first card that can be played takes the focus at the start of a decision. */
function focusFirstCard() {
  if (!app.card) firstPlayableCard()?.focus({ preventScroll: true });
}

const firstPlayableCard = () => $("hand").querySelector("button:not([disabled])");

/** At the start of a decision with pawns to choose from, the focus goes to the first of them:
 * a keyboard player presses Enter at once rather than Tab through the page. */
function focusFirstPawn() {
  if (app.focusedEvent === app.state.event || !app.selection || app.selection.chosen.length || app.selection.pawn) return;
  const active = document.activeElement;
  const elsewhere = active && active !== document.body && !active.closest("#board, #choices, #game-over, #turn");
  if (elsewhere) return; // the player is busy with something else on the page: leave them there
  // before the draw, the Draw button comes first: the Fire pawn's jump is optional, a Tab away
  const draw = app.state.stage !== "card" ? $("choices").querySelector("button[data-draw]") : null;
  const pawn = app.board.svg.querySelector(".pawn.movable[tabindex]");
  const card = app.state.position.hands && !app.card ? firstPlayableCard() : null;
  if (!pawn && !card && !draw) return;
  app.focusedEvent = app.state.event;
  (draw ?? card ?? pawn).focus({ preventScroll: true }); // a hand game begins with the choice of a card
  // the page may still be scrolled down to the last turn's button: the pawns to tap come back in sight
  if (!draw && !card) movableInView();
}

// --- passing automatically ------------------------------------------------------------------

/** Whether this page passes by itself when no pawn can move: the player's choice, else on when
 * a computer plays in the game (the game would wait for nothing but a click). */
function autoPassOn() {
  const chosen = app.autoPass ?? stored(AUTO_PASS_KEY); // the choice made on this page stands, stored or not
  if (chosen === "on" || chosen === "off") return chosen === "on";
  return Boolean(app.state?.seats.some((seat) => seat.kind === "bot"));
}

/** The decisions this page passed by itself, kept for the game in this tab: a reload's log says so too. */
function autoPassedDecisions() {
  try {
    const decisions = JSON.parse(stored(`pardon.autoPassed.${gameId}`, { session: true }) ?? "[]");
    return Array.isArray(decisions) ? decisions : [];
  } catch {
    return []; // not what this page wrote
  }
}

/** With storage off, the log says it now, and forgets it on a reload. */
function rememberAutoPass(decision) {
  store(`pardon.autoPassed.${gameId}`, JSON.stringify([...autoPassedDecisions(), decision]), { session: true });
}

/** A decision's line in the log; one this page passed by itself says so. */
function logText(text, decision, colour) {
  const named = byName(text, colour);
  return autoPassedDecisions().includes(decision) ? `${named} — passed automatically` : named;
}

/** A decision's words with its player named as the page names them ("Papa (Yellow) plays a 3"),
 * where a name was given for the seat; the server's words name the colour alone. */
function byName(text, colour) {
  if (!colour || !app.state) return text;
  const plain = name(colour);
  const named = playerName(colour);
  return named !== plain && text.startsWith(`${plain} `) ? `${named}${text.slice(plain.length)}` : text;
}

function setAutoPass(on) {
  app.autoPass = on ? "on" : "off";
  store(AUTO_PASS_KEY, app.autoPass); // with storage off, kept for this page only
  if (!app.state) return;
  if (!on && app.autoPassed === app.state.event && app.pending) {
    app.autoPassed = null; // a pass about to happen by itself waits for the player after all
    app.pending = false;
  }
  renderChoices();
}

/** A card that no pawn can use, with passing automatically on: say so, pass after a moment. */
function passByItself(moves) {
  const state = app.state;
  const only = moves.length === 1 ? moves[0] : null;
  if (!only?.pass || state.stage !== "card" || !autoPassOn()) return false;
  if (new Set(state.moves.map((move) => move.card)).size > 1) return false; // which card to discard is a choice
  $("prompt").textContent = `${noPawnCanUse(only.card ?? state.card)} Your turn is over: passing automatically.`;
  app.pending = true; // nothing else can be done meanwhile (the same state shown again stays so)
  if (app.autoPassed === state.event) return true;
  app.autoPassed = state.event;
  const event = state.event;
  app.autoPassTimer = setTimeout(() => {
    if (app.state.event !== event || !myDecision()) return;
    app.pending = false;
    if (!autoPassOn()) {
      // turned off meanwhile: the player passes with the button
      app.autoPassed = null;
      renderChoices();
      return;
    }
    play(only);
  }, AUTO_PASS_MS);
  return true;
}

function moveButton(move, label, cls) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.className = cls;
  button.title = move.text;
  button.dataset.move = move.move;
  button.addEventListener("click", () => play(move));
  return button;
}

function cancelButton() {
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", cancelSelection);
  return cancel;
}

function renderMoveList(moves) {
  const list = $("moves");
  list.replaceChildren();
  $("move-count").textContent = String(moves.length);
  const chances = app.hinted && app.hinted.event === app.state.event ? app.hinted.chances : null;
  const ordered = chances ? [...moves].sort((a, b) => (chances[b.move] ?? 0) - (chances[a.move] ?? 0)) : moves;
  for (const move of ordered) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.text;
    button.dataset.move = move.move;
    if (chances && move.move in chances) {
      button.classList.add("hinted");
      button.dataset.chance = `${Math.round(chances[move.move] * 100)}% to win`;
    }
    button.addEventListener("click", () => play(move));
    button.addEventListener("focus", () => preview(move));
    button.addEventListener("mouseenter", () => preview(move));
    button.addEventListener("blur", markSelection);
    button.addEventListener("mouseleave", markSelection);
    item.appendChild(button);
    list.appendChild(item);
  }
}

function preview(move) {
  clearMarks(app.board);
  const actions = pawnActions(move);
  markPawns(app.board, actions.map((action) => action.pawn), "selected");
  markPlaces(app.board, actions.map((action) => ({ key: landingPlace(action), label: move.text, cls: "preview" })));
}

// --- choosing a move on the board ---------------------------------------------------------

/** The pawn actions of a route still to choose, given the parts chosen so far. */
function remaining(route, chosen) {
  const used = new Set(chosen.map(([pawn]) => pawn));
  return route.actions.filter((action) => !used.has(action.pawn));
}

function movablePawns() {
  const { chosen, candidates } = app.selection;
  const keys = new Set();
  for (const route of candidates) for (const action of remaining(route, chosen)) keys.add(action.pawn);
  return [...keys];
}

function markSelection() {
  if (!app.board || !app.selection || app.tokenChoice) return;
  clearMarks(app.board);
  const { chosen } = app.selection;
  const movable = movablePawns();
  const unplayable = unplayablePawns(movable);
  const cannot = (key) => (chosen.length ? restOfMove(key) : `cannot move with the ${cardLabel(app.card ?? app.state.card)}`);
  const labels = Object.fromEntries([
    ...unplayable.map((key) => [key, `${describeKey(key)}: ${cannot(key)}`]),
    ...movable.map((key) => [key, `${describeKey(key)}: can move`]),
  ]);
  markPawns(app.board, movable, "movable");
  markPawns(app.board, chosen.map(([pawn]) => pawn), "selected");
  if (app.selection.pawn) {
    markPawns(app.board, [app.selection.pawn], "selected");
    const places = destinations(app.selection.pawn);
    const marks = markPlaces(app.board, places);
    const targets = places.filter((place) => place.targetPawn).map((place) => place.targetPawn);
    markPawns(app.board, targets, "target");
    // a pawn to switch with, or to bump with the Sorry!: named by what choosing it does
    for (const place of places) if (place.targetPawn) labels[place.targetPawn] = targetLabel(place);
    setFocusable(app.board, [...movable, ...targets], labels, unplayable);
    marks[0]?.focus({ preventScroll: true });
  } else {
    setFocusable(app.board, movable, labels, unplayable);
  }
}

/** Why `key` takes no part in the rest of a move begun, as a player says it: in a split 7 the pawn
 * just moved has had its share, and another must move the rest; after the Fire pawn reached Home,
 * another goes straight Home with it. */
function restOfMove(key) {
  const { chosen, candidates } = app.selection;
  const card = app.card ?? app.state.card;
  if (app.state.why_not?.[card]?.[key]) return `cannot move with the ${cardLabel(card)}`; // at all: Enter says why
  const rest = candidates.flatMap((route) => remaining(route, chosen));
  const bonus = rest.length > 0 && rest.every((action) => action.kind === "bonus-home");
  const counts = new Set(rest.map((action) => action.steps));
  const left = counts.size === 1 ? [...counts][0] : null; // the count still to move, the same whichever pawn takes it
  const done = chosen.find(([pawn]) => pawn === key);
  if (done && bonus) return "is Home with the Fire: another of your pawns goes straight Home with it";
  if (bonus) return "cannot go straight Home with the Fire pawn";
  if (done) {
    const part = candidates.flatMap((route) => route.actions).find((action) => action.pawn === key && landingPlace(action) === done[1]);
    if (part?.steps != null && left != null) {
      return `moved ${part.steps} already with this ${cardLabel(card)}: the other ${left} must move another pawn`;
    }
    return `has made its part of this ${cardLabel(card)}: the rest must move another pawn`;
  }
  return left != null ? `cannot move the other ${left} of this ${cardLabel(card)}` : "cannot take the rest of the move";
}

/** The player's pawns that cannot move with the card in play: Tab reaches them too (marked
 * aria-disabled), so that a player without a mouse may ask why not, as a click does.  None
 * before a card is drawn or chosen. */
function unplayablePawns(movable) {
  const state = app.state;
  if (state.stage !== "card" || !(app.card ?? state.card)) return [];
  const colours = new Set([state.decider, ...pawnsOfMoves()]); // a partner's too, where a move may move theirs
  const keys = new Set();
  for (const colour of colours) {
    for (const where of state.position.pawns[colour] ?? []) {
      if (where !== "home") keys.add(`${colour}:${where}`); // a pawn Home never moves: no Tab stop to ask why
    }
  }
  for (const key of movable) keys.delete(key);
  return [...keys];
}

function describeKey(key) {
  const [colour, where] = key.split(":");
  const held = tokenWords(app.state?.position, key); // ", frozen by the Ice"
  if (where === "start") return `${name(colour)} pawn in Start${held}`;
  if (where === "home") return `${name(colour)} pawn at Home${held}`;
  return `${name(colour)} pawn on ${where}${held}`;
}

/** A place a pawn lands on, as said: "10", "S2", "Home", "Start". */
const landingWords = (landing) => (landing === "home" ? "Home" : landing === "start" ? "Start" : String(landing));

/** What choosing the pawn a move switches with or bumps does, said on that pawn. */
function targetLabel(place) {
  const [colour, where] = place.targetPawn.split(":");
  const whose = app.seats.includes(colour) && app.seats.length === 1 ? "your" : `${name(colour)}'s`;
  const spot = /^\d+$/.test(where) ? `on ${where}` : where === "start" ? "in Start" : `on ${where}`;
  const held = tokenWords(app.state?.position, place.targetPawn);
  if (place.action.kind === "switch") return `Switch with ${whose} pawn ${spot}${held}`;
  if (place.action.kind === "sorry") return `Bump ${whose} pawn ${spot}${held} with the Sorry!`;
  return `${place.label}${held}`;
}

/** The places a pawn may go now: one per landing, labelled with what happens there. */
function destinations(pawn) {
  const { chosen, candidates } = app.selection;
  const byPlace = new Map();
  for (const route of candidates) {
    for (const action of remaining(route, chosen)) {
      if (action.pawn !== pawn) continue;
      const key = landingPlace(action);
      const entry = byPlace.get(key) ?? { key, routes: [], action };
      entry.routes.push(route);
      byPlace.set(key, entry);
    }
  }
  return [...byPlace.values()].map((entry) => {
    const action = entry.action;
    const badge =
      action.kind === "switch" ? "switch" : action.kind === "sorry" ? "Sorry!" : action.steps != null ? signed(action.steps) : "";
    const moves = new Set(entry.routes.map((route) => route.move.move));
    const complete = entry.routes.every((route) => route.own && remaining(route, chosen).length === 1);
    const label =
      complete && moves.size === 1 && !tokenActions(entry.routes[0].move).length
        ? entry.routes[0].move.text
        : `${describeKey(pawn)} to ${landingWords(action.landing)}${action.slide ? ", then slides" : ""}${partOf(action)}`;
    return { key: entry.key, label, badge, action, targetPawn: action.target ?? null, cls: action.slide ? "slide-mark" : "" };
  });
}

/** The share of the card a part of a split move takes (", 6 of the 7"), or "". */
function partOf(action) {
  const card = app.card ?? app.state.card;
  return action.kind === "step" && action.steps > 0 && card === "7" ? `, ${action.steps} of the 7` : "";
}

const signed = (steps) => (steps < 0 ? `−${-steps}` : `${steps}`);

function clickPawn(key) {
  if (!app.state) return;
  // a card no pawn can use, passed by itself in a moment: nothing can be chosen, but a player may still ask why
  if (app.pending && app.autoPassed === app.state.event && myDecision()) return whyNot(key);
  if (app.pending) return;
  const selection = app.selection;
  if (!myDecision()) {
    const state = app.state;
    if (!app.seats.length) note("You are watching this game.");
    else if (state.status === "playing" && state.decider) note(`It is ${name(state.decider)}'s turn, not yours.`);
    return;
  }
  if (handHidden()) return note(`Show ${playerName(app.state.decider)}'s hand first.`);
  if (app.tokenChoice) return chooseToken(app.tokenChoice.byPawn.get(key));
  if (selection?.pawn) {
    const targeted = destinations(selection.pawn).find((dest) => dest.targetPawn === key);
    const reached = targeted?.key ?? destinationAt(selection.pawn, pawnPlace(key));
    if (reached) return chooseDestination(reached);
  }
  if (selection && movablePawns().includes(key)) {
    selection.pawn = key;
    say("");
    if (!selection.chosen.length) $("prompt").textContent = pawnChosenPrompt();
    markSelection();
    return;
  }
  const [colour] = key.split(":");
  if (selection?.pawn && !pawnsOfMoves().has(colour)) return cannotReach(selection, pawnPlace(key)); // an opponent's pawn
  whyNot(key);
}

/** The destination of ``pawn`` that pointing at ``place`` chooses: a marked square, or the end
 * of the one slide that carries the pawn there (where the pawn ends up); null if none. */
function destinationAt(pawn, place) {
  const dests = destinations(pawn);
  if (dests.some((dest) => dest.key === place)) return place;
  const slidTo = dests.filter((dest) => dest.action.slide && placeKey(dest.action.colour, dest.action.to) === place);
  return slidTo.length === 1 ? slidTo[0].key : null;
}

function whyNot(key) {
  const state = app.state;
  const card = app.card ?? state.card;
  const reasons = (card && state.why_not[card]) || {};
  if (reasons[key]) return say(`Why not? ${reasons[key]}.`);
  const [colour] = key.split(":");
  if (colour !== state.decider && !pawnsOfMoves().has(colour)) {
    // on a screen of several players "you" is whoever holds it: name the player to move
    const playing = app.seats.length > 1 ? `it is ${playerName(state.decider)}'s turn` : `you play ${name(state.decider)}`;
    return say(`That is ${name(colour)}'s pawn: ${playing}.`);
  }
  if (app.selection?.chosen.length) return say(`That pawn ${restOfMove(key)}.`);
  if (!card && state.position.hands) return say("Choose a card from your hand first.");
  if (!card) return say("Draw a card first.");
  return say(`That pawn cannot use the ${cardLabel(card)} now.`);
}

function pawnsOfMoves() {
  const colours = new Set();
  for (const move of app.state.moves) for (const action of pawnActions(move)) colours.add(action.colour);
  return colours;
}

function clickPlace(place) {
  if (app.pending || !app.state || !myDecision() || !app.selection) return;
  if (app.tokenChoice) {
    const move = app.tokenChoice.byPlace.get(place);
    return move ? chooseToken(move) : say("Choose one of the marked pawns, or a button.");
  }
  const selection = app.selection;
  if (selection.pawn) {
    const reached = destinationAt(selection.pawn, place);
    return reached ? chooseDestination(reached) : cannotReach(selection, place);
  }
  const pawnHere = movablePawns().find((key) => pawnPlace(key) === place);
  if (pawnHere) return clickPawn(pawnHere);
  say("Choose one of your marked pawns first.");
}

/** A square the chosen pawn cannot reach: say so at once, and ask the server why (the rules
 * live there), unless part of a split 7 is made already (what is left of it says why). */
function cannotReach(selection, place) {
  const otherwise = touch() && !selection.chosen.length ? "another pawn" : startAgain(); // Cancel shows once a part is made
  const text = `That is not a square this pawn can reach. Choose a marked square, or ${otherwise}.`;
  say(text);
  const card = app.card ?? app.state.card;
  if (selection.chosen.length || !card) return;
  const [colour] = selection.pawn.split(":");
  const to = place.startsWith("sq:") ? `${colour}:${place.slice(3)}` : place;
  app.whyAsked = { event: app.state.event, pawn: selection.pawn, to, text, otherwise };
  send({ type: "why", event: app.state.event, card, pawn: selection.pawn, to, ...seatField() });
}

/** The server's answer to "why can this pawn not go there?", if the question still stands. */
function showWhy(message) {
  const asked = app.whyAsked;
  app.whyAsked = null;
  const still = asked && message.event === app.state?.event && message.pawn === app.selection?.pawn && message.to === asked.to;
  if (!still || !message.reason || $("message").textContent !== asked.text) return;
  say(`That pawn cannot go there: ${message.reason}. Choose a marked square, or ${asked.otherwise}.`);
}

const distinctMoves = (routes) => [...new Map(routes.map((route) => [route.move.move, route.move])).values()];

/** What is left to do once part of a move is made: the rest of a split 7, or the pawn that goes
 * Home with the Fire pawn.  The same words whenever the page is drawn (a reload makes the part again). */
function halfMovePrompt() {
  if (onlyBonusLeft()) return "The Fire pawn is Home: choose another of your pawns to go straight Home with it.";
  return `Split 7: now move another pawn the rest of the way (${startAgain()} to start again).`;
}

/** Whether what is left is the pawn sent Home with the Fire pawn (not the rest of a split 7). */
function onlyBonusLeft() {
  const { chosen, candidates } = app.selection;
  return candidates.every((route) => remaining(route, chosen).every((action) => action.kind === "bonus-home"));
}

function chooseDestination(place) {
  const selection = app.selection;
  const pawn = selection.pawn;
  const chosen = [...selection.chosen, [pawn, place]];
  const candidates = selection.candidates.filter((route) =>
    remaining(route, selection.chosen).some((action) => action.pawn === pawn && landingPlace(action) === place),
  );
  const complete = distinctMoves(candidates.filter((route) => remaining(route, chosen).length === 0));
  const partial = candidates.filter((route) => remaining(route, chosen).length > 0);
  if (complete.length === 1 && !partial.length) return play(complete[0]);
  app.selection = { chosen, candidates: partial.length ? partial : candidates, pawn: null };
  keepHalfMove(); // a reload asks again where the token goes, or which of these
  if (!partial.length && onlyTokensDiffer(complete)) return askToken(complete);
  if (!partial.length || complete.length) {
    // the same pawns to the same squares in more than one way: let the player name it
    const choices = $("choices");
    choices.replaceChildren();
    $("prompt").textContent = partial.length ? "Play this alone, or move another pawn:" : "Which of these?";
    for (const move of complete) choices.appendChild(moveButton(move, move.text, "primary"));
    choices.appendChild(cancelButton());
    clearMarks(app.board);
    markPawns(app.board, chosen.map(([key]) => key), "selected");
    if (partial.length) markSelection();
    choices.querySelector("button")?.focus({ preventScroll: true });
    inView(choices); // every one of them, not only the first: on a phone they may be under the screen
    return;
  }
  $("prompt").textContent = halfMovePrompt();
  say("");
  $("choices").replaceChildren(cancelButton()); // as a later render has it: a phone has no Escape key to start again
  markSelection();
  const first = movablePawns();
  if (first.length === 1) {
    app.selection.pawn = first[0];
    markSelection(); // the one pawn's first ring takes the focus
  } else {
    // the focus, on a ring that is gone, goes to the first pawn that can take the rest (else Cancel)
    const next = first.length ? app.board.svg.querySelector(".pawn.movable[tabindex]") : null;
    (next ?? $("choices").querySelector("button"))?.focus({ preventScroll: true });
  }
  announce(onlyBonusLeft() ? $("prompt").textContent : halfMadeWords(pawn, place, partial, chosen));
}

/** What is said once the first part of a split is made: "Moved 6 of the 7: now move another pawn 1." */
function halfMadeWords(pawn, place, partial, chosen) {
  const card = app.card ?? app.state.card;
  const part = partial.flatMap((route) => route.actions).find((action) => action.pawn === pawn && landingPlace(action) === place);
  const counts = new Set(partial.flatMap((route) => remaining(route, chosen)).map((action) => action.steps));
  const left = counts.size === 1 ? [...counts][0] : null;
  const moved = part?.steps != null ? `Moved ${part.steps} of the ${cardLabel(card)}` : "First part made";
  const rest = left != null ? `now move another pawn ${left}` : "now move another pawn the rest of the way";
  return `${moved}: ${rest} (${startAgain()} to start again).`;
}

// --- the keyboard's cursor: "why can't this pawn go there?" without a mouse ---------------------
// With a pawn chosen, the arrow keys move a cursor square by square along the pawn's way (right
// and down forward, left and up back); on a marked place the ring itself takes the focus, and
// Enter on any other asks why not, as a click there does.

const ARROWS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** The next place along the way of a pawn of `colour` from `place`, forward (1) or back (-1). */
function wayStep(place, colour, direction) {
  const geometry = app.board.geometry;
  const length = geometry.track.length;
  const player = geometry.players[colour];
  const [first, second] = place.split(":");
  if (first === "sq") {
    const square = Number(second);
    if (direction > 0 && square === player.entrance) return `${colour}:S1`;
    return `sq:${(square + direction + length) % length}`;
  }
  if (second === "start") return direction > 0 ? `sq:${player.start_exit}` : null;
  if (second === "home") return direction > 0 ? null : `${colour}:S${player.safety.length}`;
  const index = Number(second.slice(1)) + direction;
  if (index < 1) return `sq:${player.entrance}`;
  return index > player.safety.length ? `${colour}:home` : `${colour}:S${index}`;
}

function placeWords(place) {
  const [first, second] = place.split(":");
  if (first === "sq") return `Square ${second}`;
  if (second === "home") return `${name(first)} Home`;
  if (second === "start") return `${name(first)} Start`;
  return `${name(first)} Safety Zone ${second}`;
}

/** Move the cursor one place along the chosen pawn's way; whether there was a pawn to move it for. */
function moveCursor(direction) {
  const selection = app.selection;
  const active = document.activeElement;
  if (!app.board || !selection?.pawn || app.tokenChoice || app.pending || !myDecision()) return false;
  if (!active?.closest?.("#board")) return false;
  const [colour] = selection.pawn.split(":");
  const from = active.classList.contains("mark") ? active.dataset.place : pawnPlace(selection.pawn);
  const next = wayStep(from, colour, direction);
  if (!next) return true;
  const ring = app.board.svg.querySelector(`.mark:not(.cursor-mark)[data-place="${CSS.escape(next)}"]`);
  if (ring) {
    app.board.svg.querySelector(".cursor-mark")?.remove();
    ring.focus({ preventScroll: true });
  } else {
    markCursor(app.board, next, `${placeWords(next)}: not a place this pawn can go. Enter asks why not.`);
  }
  return true;
}

// --- a move half made, across a reload ---------------------------------------------------------
// A split 7 (or the Fire pawn's partner) is made in parts; a reload, or a phone that drops the
// page, once threw away the part made.  The parts are kept for this tab and this decision only.

const halfKey = () => `pardon.half.${gameId}`;

function keepHalfMove() {
  const chosen = app.selection?.chosen ?? [];
  const card = app.state.position.hands ? app.card : null; // the card chosen from a hand: its parts are its moves
  if (chosen.length || card) {
    store(halfKey(), JSON.stringify({ event: app.state.event, seat: app.state.decider, chosen, card }), { session: true });
  }
}

function forgetHalfMove() {
  forget(halfKey(), { session: true });
}

/** Make again the parts kept for this very decision, as if clicked; whether there were any. */
function resumeHalfMove() {
  let kept = null;
  try {
    kept = JSON.parse(stored(halfKey(), { session: true }) ?? "null");
  } catch {
    kept = null;
  }
  if (!kept || kept.event !== app.state.event || kept.seat !== app.state.decider || !Array.isArray(kept.chosen)) return false;
  forgetHalfMove(); // made again below, and kept again if it still stands
  if (kept.card && app.state.position.hands && app.state.moves.some((move) => move.card === kept.card)) {
    app.card = kept.card; // the card chosen from the hand, chosen again
    app.selection = { chosen: [], candidates: routesOf(openMoves()), pawn: null };
    renderHand();
    renderCard();
    keepHalfMove();
  }
  if (!kept.chosen.length) return false;
  for (const part of kept.chosen) {
    const [pawn, place] = Array.isArray(part) ? part : [];
    if (app.selection) app.selection.pawn = pawn;
    if (!app.selection || !destinations(pawn).some((dest) => dest.key === place)) {
      app.selection = { chosen: [], candidates: routesOf(openMoves()), pawn: null }; // no longer a way: start afresh
      return false;
    }
    chooseDestination(place);
    if (app.pending || !app.selection) return true;
  }
  return true;
}

// --- the Fire and Ice tokens ------------------------------------------------------------------

/** Whether `moves` move the same pawns the same way and differ only in where a token goes. */
function onlyTokensDiffer(moves) {
  if (moves.length < 2) return false;
  const pawnsOf = (move) => JSON.stringify(pawnActions(move).map((action) => [action.pawn, action.landing]).sort());
  return moves.every((move) => pawnsOf(move) === pawnsOf(moves[0])) && moves.some((move) => tokenActions(move).length);
}

const TOKEN_WORDS = {
  ice:
    "Before moving, the 1 puts the Ice on an opponent's pawn: that pawn cannot move or be moved until the Ice moves on, " +
    "and no pawn may land on its square.",
  fire:
    "You may put the Fire on one of your pawns: before each of your draws it may jump ahead to the next corner, " +
    "and when it reaches Home another of your pawns goes Home with it.",
};

/** Ask where the token goes: the pawns it may go on are marked on the board, and named on buttons. */
function askToken(moves) {
  const kind = moves.flatMap(tokenActions)[0]?.kind ?? "fire";
  const byPawn = new Map();
  const byPlace = new Map();
  for (const move of moves) {
    const token = tokenActions(move).find((action) => action.kind === kind);
    if (!token?.pawn) continue;
    byPawn.set(token.pawn, move);
    byPlace.set(pawnPlace(token.pawn), move);
  }
  app.tokenChoice = { kind, moves, byPawn, byPlace };
  renderTokenChoice();
  // the focus is on a ring now: what the choice is, said aloud, not only written under the card
  announce(`${TOKEN_WORDS[kind]} Choose a marked pawn, or a button.`);
}

function tokenLabel(move, kind) {
  const token = tokenActions(move).find((action) => action.kind === kind);
  if (!token) return kind === "fire" ? "No Fire this time" : "Without the Ice";
  if (!token.pawn) return kind === "ice" ? "The Ice goes back to the centre" : "The Fire goes back to the centre";
  const [colour, where] = token.pawn.split(":");
  const whose = app.seats.includes(colour) ? "your" : `${name(colour)}'s`;
  const place = /^\d+$/.test(where) ? `on ${where}` : where === "start" ? "in Start" : `on ${where}`;
  return `${kind === "ice" ? "Ice" : "Fire"} on ${whose} pawn ${place}`;
}

function renderTokenChoice() {
  const { kind, moves, byPawn } = app.tokenChoice;
  const choices = $("choices");
  choices.replaceChildren();
  $("prompt").textContent = `${TOKEN_WORDS[kind]} ${choose()} a marked pawn, or a button:`;
  for (const move of moves) choices.appendChild(moveButton(move, tokenLabel(move, kind), "primary"));
  choices.appendChild(cancelButton());
  clearMarks(app.board);
  markPawns(app.board, app.selection.chosen.map(([key]) => key), "selected");
  const keys = [...byPawn.keys()];
  markPawns(app.board, keys, "target");
  const marks = markPlaces(
    app.board,
    keys.map((key) => ({ key: pawnPlace(key), label: tokenLabel(byPawn.get(key), kind), cls: `token-mark ${kind}-mark` })),
  );
  setFocusable(app.board, keys, Object.fromEntries(keys.map((key) => [key, tokenLabel(byPawn.get(key), kind)])));
  (marks[0] ?? choices.querySelector("button"))?.focus({ preventScroll: true });
  inView(choices); // the buttons say each choice in words: on a phone they were under the screen
}

function chooseToken(move) {
  if (!move) return say("Choose one of the marked pawns, or a button.");
  play(move);
}

function cancelSelection() {
  forgetHalfMove();
  app.selection = null;
  app.tokenChoice = null;
  say("");
  renderChoices();
}

function seatField() {
  return app.seats.length > 1 ? { seat: app.state.decider } : {};
}

/** On a screen of several players, a tap this soon after this screen's last move, once the turn
 * has passed to another, is the last player's double tap, not the next player's choice. */
const SAME_TAP_MS = 600;

function play(move) {
  if (app.pending || !myDecision()) return;
  // a button drawn for a decision before this one (a double tap landing as the turn moves on)
  // plays nothing, though the same words may be a move now
  if (move.shownAt !== app.state.event) return;
  if (sameTapLeft() > 0) return;
  if (app.socket?.readyState !== WebSocket.OPEN) {
    // nothing would go: say so, rather than wait for an answer that cannot come
    const text = "Not connected: that move was not sent. Make it again once the connection is back.";
    say(text);
    app.refusal = { text, event: -1 }; // the state of the next connection clears it
    return;
  }
  app.pending = true;
  app.passTo = null;
  app.sentAt = performance.now();
  forgetHalfMove();
  say("");
  app.keepFocus = Boolean(document.activeElement?.closest?.("#board, #choices, #hand, #moves"));
  if (send({ type: "move", move: move.move, event: app.state.event, ...seatField() })) expectAnswer("move");
  if (app.keepFocus && document.activeElement?.closest?.("#board")) {
    // the rings and pawns are redrawn: the focus waits on the banner that says whose turn it is
    app.keepFocus = false;
    $("turn").focus({ preventScroll: true });
  }
}

/** Ask the server for a hint; the button waits, disabled, until the answer (or a refusal) comes. */
/** Whether a hint has something to rank: the moves of the card drawn, or in a hand game those of
 * every card of the hand (whichever card is chosen, the hint weighs them all). */
function hintable() {
  const state = app.state;
  if (state.position.hands && state.stage === "card") return state.moves.length > 1;
  return Boolean(state.card) && openMoves().length > 1;
}

function askHint() {
  if (app.hintAsked === app.state.event || !myDecision()) return;
  app.hintAsked = app.state.event;
  markHint($("hint"), true);
  if (send({ type: "hint", event: app.state.event, ...seatField() })) expectAnswer("hint");
}

function hintAnswered() {
  if (app.hintAsked === null) return;
  app.hintAsked = null;
  markHint($("hint"), false);
}

/** The Hint button while its question waits for an answer: one question at a time, since a
 * second click would only ask again (aria-disabled keeps the focus on it). */
function markHint(button, asking) {
  if (!button) return;
  button.setAttribute("aria-disabled", String(asking));
  button.textContent = asking ? "Hint: thinking…" : "Hint";
}

function showHint(message) {
  hintAnswered();
  const chances = Object.fromEntries(message.moves.map((move) => [move.move, move.chance]));
  app.hinted = { event: message.event, chances };
  const best = message.moves[0];
  const move = app.state.moves.find((candidate) => candidate.move === best?.move);
  if (move) {
    const why = typeof message.reason === "string" && message.reason ? `. ${message.reason}` : "";
    say(`Hint: ${move.text} (${Math.round(best.chance * 100)}% to win)${why}`, true);
    $("moves-details").open = true;
    preview(move);
  }
  renderMoveList(listedMoves());
}

// --- game over ---------------------------------------------------------------------------

/** The colours that dropped out of a doubled game: they score nothing (docs/rules.md: "Points"). */
function droppedOut() {
  return app.state?.position.doubling?.out ?? [];
}

/** Who won: the winning team's players still in the game (a partner who dropped out of a double
 * won nothing), else the winner alone. */
function winners(winner) {
  const team = teamOf(winner);
  if (!team) return [winner];
  const stayed = team.filter((colour) => !droppedOut().includes(colour));
  return stayed.length ? stayed : team;
}

/** Who won, in words: the team in a partners game, a name typed in for a seat, else the colour;
 * a partner who dropped out of a double is said to have, rather than to win. */
function winnerText(winner) {
  const team = teamOf(winner);
  if (!team) return `${playerName(winner)} wins!`;
  const won = winners(winner);
  if (won.length === team.length) return `${team.map(playerName).join(" and ")} win!`;
  const out = team.filter((colour) => !won.includes(colour)).map(playerName);
  return `${won.map(playerName).join(" and ")} ${won.length > 1 ? "win" : "wins"}! (${out.join(" and ")} dropped out.)`;
}

function renderGameOver() {
  const state = app.state;
  const over = state.status === "finished" && state.winner;
  const overlay = $("game-over");
  $("after-game").hidden = !over || !overlay.hidden;
  if (!over) {
    showOverlay(false);
    return;
  }
  offerRematch(state);
  if (overlay.dataset.shown === state.game) return;
  overlay.dataset.shown = state.game;
  const team = teamOf(state.winner);
  const won = winners(state.winner).some((colour) => app.seats.includes(colour));
  const named = !team && playerName(state.winner) !== name(state.winner); // the name says who already
  const whole = team && winners(state.winner).length === team.length;
  const mine = won && app.seats.length === 1 && !named ? (whole ? " — your team wins!" : " — you win!") : "";
  const dots = winners(state.winner).map((colour) => `<span class="dot ${colour}" aria-hidden="true"></span>`);
  $("winner").innerHTML = `${dots.join("")} `; // partners win together: both colours
  const solo = state.cards_drawn != null;
  $("winner").append(solo ? `All Home in ${state.cards_drawn} cards!` : `${winnerText(state.winner)}${mine}`);
  $("result-note").textContent = resultNote(state);
  $("result-note").hidden = !$("result-note").textContent;
  const scores = state.position.scores;
  const table = $("final-scores");
  table.hidden = !scores;
  if (scores) {
    table.innerHTML = "<tr><th>Player</th><th>Points</th></tr>";
    for (const [colour, points] of Object.entries(scores)) {
      const row = table.insertRow();
      const out = droppedOut().includes(colour) ? " (dropped out)" : "";
      row.insertCell().textContent = `${playerName(colour)}${out}`;
      row.insertCell().textContent = String(points);
    }
  }
  for (const link of document.querySelectorAll(".replay-link")) link.href = `/replay/${state.game}`;
  $("record-link").href = `/api/games/${state.game}/record`;
  $("scorekeeper-link").href = `/scorekeeper?add=${encodeURIComponent(state.game)}`;
  const canRematch = Boolean(app.token) && app.role !== "spectator";
  $("rematch").hidden = !canRematch;
  $("after-rematch").hidden = !canRematch;
  loadAnalysis(state.game); // first: it shows the coach's panel, which a reload may put the focus in
  const closed = stored(resultKey(), { session: true }); // closed before a reload: stays closed
  if (closed === "coach") showHowItWent();
  else if (closed) closeResult({ focus: false });
  else openResult();
}

const resultKey = () => `pardon.result.${gameId}`;

/** A rematch made by another player of the game: its buttons say they join it, and the player is told. */
function offerRematch(state) {
  if (!state.rematch || !app.token || app.role === "spectator") return;
  for (const id of ["rematch", "after-rematch"]) $(id).textContent = "Join the rematch";
  const text = "A rematch has been made: join it here.";
  $("rematch-message").textContent = text;
  if ($("game-over").hidden && $("message").textContent !== text) say(text, true);
}

/** What the end of a solo challenge or a doubled game needs said besides who won. */
function resultNote(state) {
  if (state.cards_drawn != null) {
    return `${playerName(state.winner)} brought every pawn Home in ${state.cards_drawn} cards. Fewer is better: try again to beat it.`;
  }
  const doubling = state.position.doubling;
  if (!doubling) return "";
  const out = doubling.out.map(playerName);
  const dropped = out.length
    ? `${out.join(" and ")} dropped out of the double and ${out.length > 1 ? "score" : "scores"} nothing. `
    : "";
  return doubling.stake > 1 ? `${dropped}Doubled: every score counts ×${doubling.stake}.` : dropped.trim();
}

/** The end-of-game dialog; "See the board" closes it, and the side panel offers it again. */
function openResult() {
  forget(resultKey(), { session: true });
  showOverlay(true);
  $("after-game").hidden = true;
  ($("rematch").hidden ? $("close-over") : $("rematch")).focus();
}

function closeResult({ focus = true, why = "board" } = {}) {
  showOverlay(false);
  $("after-game").hidden = false;
  store(resultKey(), why, { session: true });
  if (focus) $("show-result").focus();
}

/** The end-of-game dialog is modal: while it is open the page behind it is inert, so Tab stays
 * in the dialog rather than wander among the controls it covers. */
function showOverlay(open) {
  $("game-over").hidden = !open;
  for (const behind of document.querySelectorAll("body > header, body > main")) behind.inert = open;
}

function showHowItWent() {
  closeResult({ why: "coach" });
  const title = $("coach-title");
  title.scrollIntoView({ block: "nearest" });
  title.focus({ preventScroll: true });
}

// --- how the game went: the coach ----------------------------------------------------------

/** Ask for the finished game's analysis once, and show it; a failure is said, and nothing else changes. */
async function loadAnalysis(game) {
  if (app.analysing === game) return;
  app.analysing = game;
  const panel = $("coach");
  panel.hidden = false;
  panel.dataset.state = "loading";
  $("coach-status").textContent = "Analysing the game…";
  let analysis;
  try {
    analysis = await api(`/api/games/${encodeURIComponent(game)}/analysis`);
  } catch (error) {
    if (app.analysing !== game) return;
    panel.dataset.state = "failed";
    $("coach-status").textContent = `The game could not be analysed: ${error.message}`;
    return;
  }
  if (app.analysing !== game) return;
  app.analysis = analysis;
  try {
    renderAnalysis(analysis);
    panel.dataset.state = "ready";
  } catch (error) {
    console.error(error);
    panel.dataset.state = "failed";
    $("coach-status").textContent = "The game's analysis could not be shown.";
  }
}

/** The coached players this page cares about: its own seats if it plays any that were coached, else all. */
function playersShown(analysis) {
  const mine = analysis.coached.filter((colour) => app.seats.includes(colour));
  return mine.length ? mine : analysis.coached;
}

/** The mistakes of those players. */
function mistakesShown(analysis) {
  const players = playersShown(analysis);
  return analysis.mistakes.filter((mistake) => players.includes(mistake.colour));
}

function renderAnalysis(analysis) {
  const final = Object.fromEntries(analysis.seats.map((colour) => [colour, 0]));
  for (const colour of teamOf(analysis.winner) ?? [analysis.winner]) if (colour in final) final[colour] = 1;
  const mistakes = mistakesShown(analysis);
  const level = levelName(analysis.level);
  const mineOnly = app.seats.length === 1 && analysis.coached.includes(app.seats[0]);
  $("coach-status").textContent = `Every player's chance to win, turn by turn, as the computer (${level}) judges it.`;
  $("coach-graph").replaceChildren(chanceGraph(analysis, { names: playerName, final: analysis.winner ? final : null, marks: mistakes }));
  const title = $("mistakes-title");
  title.hidden = false;
  title.textContent = mineOnly ? "Your biggest mistakes" : "Biggest mistakes";
  const box = $("coach-mistakes");
  if (!analysis.coached.length) {
    box.replaceChildren(paragraph("Only computers played this game: there are no mistakes to show."));
  } else if (analysis.seats.length === 1) {
    box.replaceChildren(); // the note under the graph says the solo challenge is not judged
    title.hidden = true;
  } else if (playersShown(analysis).length > 1 && mistakes.length) {
    // several players at this screen (or a spectator): each finds their own, under their name
    box.replaceChildren(...playersShown(analysis).map((colour) => playerMistakes(analysis, colour, level)));
  } else if (!mistakes.length) {
    box.replaceChildren(paragraph(noMistakes(analysis, mineOnly ? "you" : "anyone", level)));
  } else {
    const mine = (colour) => app.seats.length === 1 && app.seats.includes(colour);
    box.replaceChildren(mistakeList(mistakes, { mine, names: playerName, onShow: showMistake }));
  }
}

/** "No mistakes" said of cards only where doubling decisions, which are not judged, were made. */
function noMistakes(analysis, who, level) {
  const what = unjudged(analysis) ? "card" : "move";
  return `No mistakes: every ${what} ${who} played was as good as the computer's best (${level}).`;
}

/** One player's mistakes under their name, or that they made none. */
function playerMistakes(analysis, colour, level) {
  const own = analysis.mistakes.filter((mistake) => mistake.colour === colour);
  const section = document.createElement("section");
  section.className = "player-mistakes";
  section.dataset.colour = colour;
  const heading = document.createElement("h4");
  heading.className = "player-mistakes-title";
  const dot = document.createElement("span");
  dot.className = `dot ${colour}`;
  dot.setAttribute("aria-hidden", "true");
  heading.append(dot, ` ${playerName(colour)}`);
  const body = own.length
    ? mistakeList(own, { mine: () => false, names: playerName, onShow: showMistake })
    : paragraph(noMistakes(analysis, playerName(colour), level));
  section.append(heading, body);
  return section;
}

function paragraph(text) {
  const node = document.createElement("p");
  node.className = "no-mistakes";
  node.textContent = text;
  return node;
}

/** The board as it was before the mistake, with the better move marked on it. */
async function showMistake(mistake) {
  if (!app.board) return;
  app.reviewing = mistake.decision;
  clearMarks(app.board);
  setFocusable(app.board, []);
  await showPosition(app.board, mistake.position);
  if (app.reviewing !== mistake.decision) return;
  // the card beside the marks is the better move's: in a hand game it may be another of the hand
  const card = mistake.better_card ?? mistake.card;
  const text = mistake.better_card_text ?? mistake.card_text;
  const otherCard = card !== mistake.card;
  showCard(app.board, { card, text, pack: mistake.pack, discards: mistake.discards });
  showTurn(app.board, mistake.colour);
  const big = $("big-card"); // the card beside the board too, until the end is shown again
  big.textContent = cardLabel(card);
  big.classList.remove("none");
  big.classList.toggle("long", cardLabel(card).length > 2);
  $("card-name").textContent = otherCard
    ? `Better card: ${cardLabel(card)} (turn ${mistake.turn}; the ${cardLabel(mistake.card)} was played)`
    : `Card: ${cardLabel(card)} (turn ${mistake.turn})`;
  $("card-text").textContent = text;
  const better = mistake.better_move;
  const actions = pawnActions(better);
  markPawns(app.board, actions.map((action) => action.pawn), "selected");
  markPawns(app.board, better.bumps ?? [], "target");
  const label = `Better: ${better.text}`;
  // a ring to look at, not a button: it chooses nothing
  markPlaces(app.board, actions.map((action) => ({ key: landingPlace(action), label, cls: "preview better-mark", show: true })));
  $("board").dataset.reviewing = String(mistake.decision);
  $("reviewing-text").textContent =
    `Turn ${mistake.turn}, before this move: ${mistake.played_text}. ` +
    `Marked on the board, the better move${otherCard ? `, with the ${cardLabel(card)}` : ""}: ${better.text}.`;
  $("reviewing").hidden = false;
  $("board").scrollIntoView({ block: "nearest" });
  inView($("reviewing")); // under the board on a phone held upright: what the board shows, and the way back
  // the button pressed may be off screen now: the focus goes to the words of what the board shows,
  // with "Back to the end" next
  $("reviewing-text").focus({ preventScroll: true });
}

function endReview() {
  app.reviewing = null;
  $("reviewing").hidden = true;
  delete $("board").dataset.reviewing;
}

/** Back to the board as the game ended. */
function stopReviewing() {
  endReview();
  if (!app.board || !app.state) return;
  clearMarks(app.board);
  showPosition(app.board, app.state.position);
  render();
}

async function rematch() {
  const state = app.state;
  if (state.rematch) return goTo(state.rematch);
  try {
    const body = await api(`/api/games/${state.game}/rematch`, {
      method: "POST",
      headers: { Authorization: `Bearer ${app.token}` },
    });
    goTo(body.id);
  } catch (error) {
    $("rematch-message").textContent = error.message;
    if ($("game-over").hidden) say(error.message);
  }
}

function goTo(id) {
  store(`pardon.token.${id}`, app.token, { session: true }); // with storage off, the fragment carries it
  location.assign(`/play/${id}#token=${encodeURIComponent(app.token)}`);
}

// --- words -------------------------------------------------------------------------------

function say(text, info = false) {
  const node = $("message");
  node.textContent = text;
  node.classList.toggle("info", info);
}

let noteTimer = null;

/** A passing note: said, then cleared unless something else has been said meanwhile. */
function note(text) {
  say(text, true);
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => {
    if ($("message").textContent === text) say("");
  }, NOTE_MS);
}

/** How many things said the live log keeps (a screen reader hears each as it is added). */
const SPOKEN_KEPT = 20;

/** Say `text` aloud: a line added to the live log (role="log"), so that moves made quickly one
 * after another are each heard, where one region replaced each time lost all but the last. */
function announce(text) {
  if (!text) return;
  const live = $("live");
  const line = document.createElement("p");
  line.textContent = sentence(text);
  live.append(line);
  while (live.children.length > SPOKEN_KEPT) live.firstElementChild.remove();
  app.lastSpoken = app.state?.event ?? null;
}

/** `text` ending as a sentence does. */
const sentence = (text) => (/[.!?:]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

function log(text) {
  const item = document.createElement("li");
  item.textContent = text;
  const list = $("log");
  list.appendChild(item);
  list.scrollTop = list.scrollHeight;
}

// --- start -------------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (ARROWS[event.key] && moveCursor(ARROWS[event.key])) {
    event.preventDefault();
    return;
  }
  if (event.key !== "Escape") return;
  if (!$("game-over").hidden) {
    closeResult();
    event.preventDefault();
  } else if (app.selection && (app.selection.pawn || app.selection.chosen.length || app.tokenChoice)) {
    const chosen = app.selection.chosen[0]?.[0] ?? app.selection.pawn; // the pawn the move began with
    cancelSelection();
    event.preventDefault();
    // the ring that had the focus is gone: the focus goes back to that pawn (else the first that can move)
    const pawn = chosen && app.board.svg.querySelector(`.pawn[tabindex][data-key="${CSS.escape(chosen)}"]`);
    const active = document.activeElement;
    if (pawn) pawn.focus({ preventScroll: true });
    else if (!active || active === document.body || !active.isConnected) {
      (app.board.svg.querySelector(".pawn.movable[tabindex]") ?? $("choices").querySelector("button"))?.focus({ preventScroll: true });
    }
  } else if (otherCards()) {
    // nothing half-made: back to the hand, which comes after the board in the page (Shift+Tab never reaches it)
    event.preventDefault();
    $("hand").querySelector(`button[data-card="${CSS.escape(app.card)}"]`)?.focus({ preventScroll: true });
  }
});

/** Whether a card of a hand is chosen and another could be chosen instead (on this player's turn). */
const otherCards = () =>
  Boolean(app.state?.position.hands && app.card && myDecision() && app.state.stage === "card") &&
  new Set(app.state.moves.map((move) => move.card)).size > 1;
$("rematch").addEventListener("click", rematch);
$("after-rematch").addEventListener("click", rematch);
$("close-over").addEventListener("click", () => closeResult());
$("show-result").addEventListener("click", openResult);
$("how-it-went").addEventListener("click", showHowItWent);
$("back-to-end").addEventListener("click", () => {
  stopReviewing();
  $("coach-title").focus({ preventScroll: true });
});
$("auto-pass").addEventListener("change", (event) => setAutoPass(event.target.checked));
document.addEventListener("visibilitychange", inSight);
window.addEventListener("online", wake);
window.addEventListener("pageshow", (event) => event.persisted && wake());
setInterval(pingNow, WAITS.ping);
window.addEventListener("hashchange", () => {
  const token = readToken();
  if (token && token !== app.token) {
    app.token = token;
    app.lastEvent = 0;
    app.state = null;
    $("log").replaceChildren();
    reconnect();
  }
});

api(`/api/games/${encodeURIComponent(gameId)}`)
  .then((summary) => {
    app.hints = Boolean(summary?.hints);
    if (app.state) renderChoices();
  })
  .catch(() => {});
connect();

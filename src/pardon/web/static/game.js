/**
 * game.js — the game page: a websocket to the server (docs/protocol.md), the board (board.js),
 * and the choice of a move among those the server sent.  It knows no rules: every legal move,
 * its pawn actions and paths, its words, and why a pawn cannot move come from the server.
 */

import {
  animateDecision,
  clearMarks,
  createBoard,
  loadGeometry,
  markPawns,
  markPlaces,
  pawnPlace,
  placeKey,
  setFocusable,
  showCard,
  showPosition,
  showTurn,
} from "/static/board.js";
import { api } from "/static/site.js";

const PAWN_KINDS = new Set(["step", "switch", "sorry", "bonus-home"]);
const NAMES = { red: "Red", blue: "Blue", yellow: "Yellow", green: "Green" };
const CARD_LABELS = { sorry: "Sorry!" };
const NOTE_MS = 2500; // how long a passing note stays
const $ = (id) => document.getElementById(id);
const name = (colour) => NAMES[colour] ?? colour;
const cardLabel = (card) => CARD_LABELS[card] ?? card;

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");
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
  retry: 0,
  closedForGood: false,
  lastDecider: null,
  lastError: null, // the last error the server sent: a close for good says why
  ready: false, // the latest state is drawn and no animation runs
};
window.pardonGame = app; // for tests and the curious

// --- token and connection ----------------------------------------------------------------

function readToken() {
  const match = /token=([^&]+)/.exec(location.hash);
  const key = `pardon.token.${gameId}`;
  if (match) {
    const token = decodeURIComponent(match[1]);
    try {
      sessionStorage.setItem(key, token);
      localStorage.setItem(key, token);
    } catch {
      /* storage may be off: the fragment still works */
    }
    return token;
  }
  try {
    return sessionStorage.getItem(key) ?? localStorage.getItem(key);
  } catch {
    return null;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
  app.socket = socket;
  socket.addEventListener("open", () => {
    app.retry = 0;
    setConnection("Connected", false);
    const hello = { type: "hello", since: app.lastEvent };
    if (app.token) hello.token = app.token;
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    app.queue = app.queue.then(() => handle(message)).catch((error) => console.error(error));
  });
  socket.addEventListener("close", (event) => {
    if (app.socket !== socket) return;
    app.pending = false;
    if ([4401, 4404, 1008, 1011].includes(event.code)) { // bad token, no game, protocol broken, game broken
      app.closedForGood = true;
      setConnection("Not connected", true);
      $("turn").textContent = closedWhy(event.code);
      return;
    }
    const delay = Math.min(5000, 400 * 2 ** app.retry++);
    const busy = event.code === 1013; // too many connections now, or this page fell behind
    setConnection(busy ? "The server is busy — trying again…" : "Connection lost — reconnecting…", true);
    setTimeout(connect, delay);
  });
}

function closedWhy(code) {
  if (code === 4404) return "There is no such game.";
  if (code === 4401) return "This link does not open a seat of this game.";
  return app.lastError ? `The server closed the connection: ${app.lastError}` : "The server closed the connection.";
}

function reconnect() {
  const old = app.socket;
  app.socket = null;
  old?.close();
  connect();
}

function send(message) {
  if (app.socket?.readyState === WebSocket.OPEN) app.socket.send(JSON.stringify(message));
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
      if (app.lastError && $("message").textContent === app.lastError) say(""); // a refusal before this connection
      app.lastError = null;
      return;
    case "sync":
      for (const event of message.events) log(`${name(event.colour)}: ${event.move}`);
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
    case "error":
      return showError(message);
    default:
      return;
  }
}

async function show(state, decision) {
  const before = app.state;
  app.ready = false;
  app.state = state;
  app.lastEvent = state.event;
  app.pending = false;
  await ensureBoard(state);
  if (decision && before && state.last && state.event === before.event + 1) {
    clearMarks(app.board);
    app.selection = null;
    const text = state.last.text;
    log(text);
    announce(text);
    await animateDecision(app.board, before.position, state.position, state.last);
  } else {
    await showPosition(app.board, state.position);
  }
  if (app.state !== state) return; // a newer state came while animating
  render();
  app.ready = true;
}

async function ensureBoard(state) {
  if (app.board && app.boardRules === state.rules) return;
  const geometry = await loadGeometry(state.rules);
  app.board = createBoard($("board"), geometry, { onPawn: clickPawn, onPlace: clickPlace });
  app.boardRules = state.rules;
  $("game-title").textContent = `${state.rules} · game ${state.game}`;
}

function showError(message) {
  app.pending = false;
  app.lastError = message.message;
  if (message.code === "stale" || message.code === "bad_event") {
    say("The game moved on: catching up…", true);
    reconnect();
    return;
  }
  say(message.message);
  if (app.state) render();
}

// --- rendering ---------------------------------------------------------------------------

function render() {
  const state = app.state;
  showCard(app.board, {
    card: state.card,
    text: state.card_text,
    pack: state.pack,
    discards: state.discards.count,
  });
  showTurn(app.board, state.status === "playing" ? state.decider : null);
  renderCard();
  renderSeats();
  renderTurn();
  renderHand();
  renderChoices();
  renderGameOver();
}

function renderCard() {
  const { card, card_text: text } = app.state;
  const big = $("big-card");
  big.textContent = card ? cardLabel(card) : "—";
  big.classList.toggle("none", !card);
  $("card-name").textContent = card ? `Card: ${cardLabel(card)}` : app.state.pack != null ? "No card drawn" : "";
  $("card-text").textContent = text ?? "";
}

function myDecision() {
  const state = app.state;
  return state.status === "playing" && state.moves.length > 0 && app.seats.includes(state.decider);
}

function renderTurn() {
  const state = app.state;
  const banner = $("turn");
  const passDevice = $("pass-device");
  passDevice.hidden = true;
  banner.classList.remove("yours");
  if (state.status === "waiting") {
    const missing = state.seats.filter((seat) => !seat.connected).map((seat) => name(seat.colour));
    banner.textContent = missing.length ? `Waiting for ${missing.join(", ")} to join` : "Starting…";
    return;
  }
  if (state.status === "finished" || !state.decider) {
    banner.textContent = state.winner ? `${name(state.winner)} wins!` : "The game is over";
    return;
  }
  const decider = state.decider;
  const dot = `<span class="dot ${decider}"></span>`;
  if (myDecision()) {
    banner.classList.add("yours");
    banner.innerHTML = app.seats.length > 1 ? `${dot} ${name(decider)} to play` : `${dot} Your turn (${name(decider)})`;
    if (app.seats.length > 1 && app.lastDecider !== decider) {
      passDevice.hidden = false;
      passDevice.textContent = `Pass the device to ${name(decider)}`;
    }
  } else {
    const seat = state.seats.find((s) => s.colour === decider);
    const who = seat?.kind === "bot" ? " (computer)" : seat?.computer_playing ? " (computer while away)" : "";
    banner.innerHTML = `${dot} ${name(decider)}'s turn${who}`;
  }
}

function renderSeats() {
  const state = app.state;
  const list = $("seats");
  list.replaceChildren();
  for (const seat of state.seats) {
    const item = document.createElement("li");
    if (seat.colour === state.decider && state.status === "playing") item.classList.add("deciding");
    const mine = app.seats.includes(seat.colour) ? " (you)" : "";
    let status = seat.kind === "bot" ? "computer" : seat.connected ? "here" : "not here";
    if (state.status === "waiting" && seat.kind !== "bot") status = seat.connected ? "joined" : "invited, not joined yet";
    if (seat.computer_playing && seat.kind !== "bot") status = "away: the computer plays";
    const home = (state.position.pawns[seat.colour] ?? []).filter((where) => where === "home").length;
    item.innerHTML = `<span class="dot ${seat.colour}"></span> <span></span><span class="status"></span>`;
    item.children[1].textContent = `${seat.name}${mine} · ${home} Home`;
    item.children[2].textContent = status;
    list.appendChild(item);
  }
  const doubling = state.position.doubling;
  $("stake").textContent = doubling
    ? `Stake ×${doubling.stake}${doubling.out.length ? ` · out: ${doubling.out.map(name).join(", ")}` : ""}`
    : "";
}

function renderHand() {
  const hands = app.state.position.hands;
  const viewer = app.state.viewer;
  const hand = hands && viewer ? hands[viewer] : null;
  $("hand-wrap").hidden = !hand || hand.length === 0;
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
    button.dataset.card = card;
    button.setAttribute("aria-label", `play the ${cardLabel(card)}`);
    button.setAttribute("aria-pressed", String(app.card === card));
    button.disabled = !playable.has(card);
    button.addEventListener("click", () => {
      app.card = card;
      app.selection = null;
      renderHand();
      renderChoices();
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

const pawnActions = (move) => move.actions.filter((action) => PAWN_KINDS.has(action.kind));
const landingPlace = (action) => placeKey(action.colour, action.landing ?? action.to);

function buttonLabel(move) {
  if (move.pass) return app.state.position.hands ? `Discard the ${cardLabel(move.card)}` : "Pass";
  const kinds = move.actions.map((action) => action.kind);
  if (kinds.includes("double")) return "Double the stakes";
  if (kinds.includes("accept")) return "Accept the double";
  if (kinds.includes("drop")) return "Drop out";
  if (!move.actions.length) return "Draw a card";
  return move.text;
}

function renderChoices() {
  const choices = $("choices");
  choices.replaceChildren();
  clearMarks(app.board);
  const moves = openMoves();
  const mine = myDecision();
  $("moves-panel").hidden = !mine;
  if (!mine) {
    setFocusable(app.board, []);
    $("prompt").textContent = "";
    app.selection = null;
    renderMoveList([]);
    return;
  }
  app.lastDecider = app.state.decider;
  const selection = app.selection ?? { chosen: [], candidates: moves.filter((move) => pawnActions(move).length) };
  app.selection = selection;
  const buttons = moves.filter((move) => !pawnActions(move).length);
  if (app.state.position.hands && app.state.stage === "card" && !app.card) {
    $("prompt").textContent = "Choose a card from your hand.";
  } else if (selection.chosen.length) {
    $("prompt").textContent = "Now choose where it goes (Escape to start again).";
  } else if (selection.candidates.length) {
    $("prompt").textContent = buttons.some((move) => move.pass)
      ? "Click a pawn to move it, or pass."
      : "Click a pawn to see where it can go.";
  } else {
    $("prompt").textContent = buttons.some((move) => move.pass) ? "No pawn can use this card." : "Your decision:";
  }
  if (!selection.chosen.length) {
    for (const move of buttons) choices.appendChild(moveButton(move, buttonLabel(move), move.pass ? "" : "primary"));
  } else {
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", cancelSelection);
    choices.appendChild(cancel);
  }
  if (moves.length === 1 && !selection.chosen.length) {
    const only = moves[0];
    if (pawnActions(only).length) choices.prepend(moveButton(only, `Play: ${only.text}`, "primary confirm"));
    const first = choices.querySelector("button");
    first?.focus({ preventScroll: true });
  }
  if (app.hints && app.state.card && !selection.chosen.length && moves.length > 1) {
    const hint = document.createElement("button");
    hint.type = "button";
    hint.id = "hint";
    hint.textContent = "Hint";
    hint.addEventListener("click", () => send({ type: "hint", event: app.state.event, ...seatField() }));
    choices.appendChild(hint);
  }
  markSelection();
  renderMoveList(moves);
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

/** Pawn keys still to choose from, and for a chosen pawn its destinations. */
function remaining(move, chosen) {
  const used = new Set(chosen.map(([pawn]) => pawn));
  return pawnActions(move).filter((action) => !used.has(action.pawn));
}

function movablePawns() {
  const { chosen, candidates } = app.selection;
  const keys = new Set();
  for (const move of candidates) for (const action of remaining(move, chosen)) keys.add(action.pawn);
  return [...keys];
}

function markSelection() {
  if (!app.board || !app.selection) return;
  clearMarks(app.board);
  const { chosen } = app.selection;
  const movable = movablePawns();
  const labels = Object.fromEntries(movable.map((key) => [key, `${describeKey(key)}: can move`]));
  markPawns(app.board, movable, "movable");
  markPawns(app.board, chosen.map(([pawn]) => pawn), "selected");
  if (app.selection.pawn) {
    markPawns(app.board, [app.selection.pawn], "selected");
    const places = destinations(app.selection.pawn);
    const marks = markPlaces(app.board, places);
    const targets = places.filter((place) => place.targetPawn).map((place) => place.targetPawn);
    markPawns(app.board, targets, "target");
    setFocusable(app.board, [...movable, ...targets], labels);
    marks[0]?.focus({ preventScroll: true });
  } else {
    setFocusable(app.board, movable, labels);
  }
}

function describeKey(key) {
  const [colour, where] = key.split(":");
  if (where === "start") return `${name(colour)} pawn in Start`;
  if (where === "home") return `${name(colour)} pawn at Home`;
  return /^\d+$/.test(where) ? `${name(colour)} pawn on ${where}` : `${name(colour)} pawn on ${where}`;
}

/** The places a pawn may go now: one per landing, labelled with what happens there. */
function destinations(pawn) {
  const { chosen, candidates } = app.selection;
  const byPlace = new Map();
  for (const move of candidates) {
    for (const action of remaining(move, chosen)) {
      if (action.pawn !== pawn) continue;
      const key = landingPlace(action);
      const entry = byPlace.get(key) ?? { key, moves: [], action };
      entry.moves.push(move);
      byPlace.set(key, entry);
    }
  }
  return [...byPlace.values()].map((entry) => {
    const action = entry.action;
    const badge =
      action.kind === "switch" ? "switch" : action.kind === "sorry" ? "Sorry!" : action.steps != null ? signed(action.steps) : "";
    const complete = entry.moves.every((move) => remaining(move, chosen).length === 1);
    const label = complete && entry.moves.length === 1 ? entry.moves[0].text : `${describeKey(pawn)} to ${action.landing}${action.slide ? ", then slides" : ""}`;
    return { key: entry.key, label, badge, targetPawn: action.target ?? null, cls: action.slide ? "slide-mark" : "" };
  });
}

const signed = (steps) => (steps < 0 ? `−${-steps}` : `${steps}`);

function clickPawn(key) {
  if (app.pending || !app.state) return;
  const selection = app.selection;
  if (!myDecision()) {
    const state = app.state;
    if (!app.seats.length) note("You are watching this game.");
    else if (state.status === "playing" && state.decider) note(`It is ${name(state.decider)}'s turn, not yours.`);
    return;
  }
  if (selection?.pawn) {
    const place = pawnPlace(key);
    if (destinations(selection.pawn).some((dest) => dest.key === place || dest.targetPawn === key)) {
      return chooseDestination(destinations(selection.pawn).find((dest) => dest.key === place || dest.targetPawn === key).key);
    }
  }
  if (selection && movablePawns().includes(key)) {
    selection.pawn = key;
    say("");
    markSelection();
    return;
  }
  whyNot(key);
}

function whyNot(key) {
  const state = app.state;
  const card = app.card ?? state.card;
  const reasons = (card && state.why_not[card]) || {};
  if (reasons[key]) return say(`Why not? ${reasons[key]}.`);
  const [colour] = key.split(":");
  if (app.selection?.chosen.length) return say("That pawn cannot take the rest of the move.");
  if (colour !== state.decider && !pawnsOfMoves().has(colour)) return say(`That is ${name(colour)}'s pawn: you play ${name(state.decider)}.`);
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
  const selection = app.selection;
  if (selection.pawn && destinations(selection.pawn).some((dest) => dest.key === place)) return chooseDestination(place);
  if (selection.pawn) return say("That is not a square this pawn can reach. Choose a marked square, or Escape.");
  const pawnHere = movablePawns().find((key) => pawnPlace(key) === place);
  if (pawnHere) return clickPawn(pawnHere);
  say("Choose one of your marked pawns first.");
}

function chooseDestination(place) {
  const selection = app.selection;
  const pawn = selection.pawn;
  const chosen = [...selection.chosen, [pawn, place]];
  const candidates = selection.candidates.filter((move) =>
    remaining(move, selection.chosen).some((action) => action.pawn === pawn && landingPlace(action) === place),
  );
  const complete = candidates.filter((move) => remaining(move, chosen).length === 0);
  const partial = candidates.filter((move) => remaining(move, chosen).length > 0);
  if (complete.length === 1 && !partial.length) return play(complete[0]);
  app.selection = { chosen, candidates: partial.length ? partial : complete, pawn: null };
  if (!partial.length || complete.length) {
    // the same pawns to the same squares in more than one way (Fire, Ice): let the player name it
    const choices = $("choices");
    choices.replaceChildren();
    $("prompt").textContent = partial.length ? "Play this alone, or move another pawn:" : "Which of these?";
    for (const move of complete) choices.appendChild(moveButton(move, move.text, "primary"));
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", cancelSelection);
    choices.appendChild(cancel);
    clearMarks(app.board);
    markPawns(app.board, chosen.map(([key]) => key), "selected");
    if (partial.length) markSelection();
    choices.querySelector("button")?.focus();
    return;
  }
  $("prompt").textContent = "Split 7: now move another pawn the rest of the way.";
  say("");
  markSelection();
  const first = movablePawns();
  if (first.length === 1) {
    app.selection.pawn = first[0];
    markSelection();
  }
}

function cancelSelection() {
  app.selection = null;
  say("");
  renderChoices();
}

function seatField() {
  return app.seats.length > 1 ? { seat: app.state.decider } : {};
}

function play(move) {
  if (app.pending || !myDecision()) return;
  app.pending = true;
  say("");
  send({ type: "move", move: move.move, event: app.state.event, ...seatField() });
}

function showHint(message) {
  const chances = Object.fromEntries(message.moves.map((move) => [move.move, move.chance]));
  app.hinted = { event: message.event, chances };
  const best = message.moves[0];
  const move = app.state.moves.find((candidate) => candidate.move === best?.move);
  if (move) {
    say(`Hint: ${move.text} (${Math.round(best.chance * 100)}% to win)`, true);
    $("moves-details").open = true;
    preview(move);
  }
  renderMoveList(openMoves());
}

// --- game over ---------------------------------------------------------------------------

function renderGameOver() {
  const state = app.state;
  const over = state.status === "finished" && state.winner;
  const overlay = $("game-over");
  if (!over) {
    overlay.hidden = true;
    return;
  }
  if (overlay.dataset.shown === state.game) return;
  overlay.dataset.shown = state.game;
  overlay.hidden = false;
  const mine = app.seats.includes(state.winner) && app.seats.length === 1 ? " — you win!" : "";
  $("winner").innerHTML = `<span class="dot ${state.winner}"></span> ${name(state.winner)} wins!${mine}`;
  const scores = state.position.scores;
  const table = $("final-scores");
  table.hidden = !scores;
  if (scores) {
    table.innerHTML = "<tr><th>Player</th><th>Points</th></tr>";
    for (const [colour, points] of Object.entries(scores)) {
      const row = table.insertRow();
      row.insertCell().textContent = name(colour);
      row.insertCell().textContent = String(points);
    }
  }
  $("replay-link").href = `/replay/${state.game}`;
  $("record-link").href = `/api/games/${state.game}/record`;
  $("scorekeeper-link").href = `/scorekeeper?add=${encodeURIComponent(state.game)}`;
  const rematch = $("rematch");
  rematch.hidden = !app.token || app.role === "spectator";
  rematch.focus();
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
  }
}

function goTo(id) {
  try {
    sessionStorage.setItem(`pardon.token.${id}`, app.token);
  } catch {
    /* the fragment carries it */
  }
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

function announce(text) {
  $("live").textContent = text;
}

function log(text) {
  const item = document.createElement("li");
  item.textContent = text;
  const list = $("log");
  list.appendChild(item);
  list.scrollTop = list.scrollHeight;
}

// --- start -------------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && app.selection && (app.selection.pawn || app.selection.chosen.length)) {
    cancelSelection();
    event.preventDefault();
  }
});
$("rematch").addEventListener("click", rematch);
$("close-over").addEventListener("click", () => {
  $("game-over").hidden = true;
});
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

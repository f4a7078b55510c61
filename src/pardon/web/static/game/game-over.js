/**
 * game/game-over.js — the end of the game: who won, the result dialog, a rematch, and the
 * coach's "How the game went".
 */

import { clearMarks, markPawns, markPlaces, pawnPlace, setFocusable, showCard, showPosition, showTurn } from "/static/board.js";
import { aCard, chanceGraph, mistakeList, moveWords, movesNothing, turnsOf, turnWords, unjudged } from "/static/coach.js";
import { render } from "/static/game.js";
import { api, forget, levelName, store, stored } from "/static/site.js";
import { $, app, cardLabel, gameId, name } from "/static/game/app.js";
import { inView, landingPlace, pawnActions, tokenActions } from "/static/game/choices.js";
import { playerName, teamOf } from "/static/game/turn.js";
import { say } from "/static/game/words.js";

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
export function winnerText(winner) {
  const team = teamOf(winner);
  if (!team) return `${playerName(winner)} wins!`;
  const won = winners(winner);
  if (won.length === team.length) return `${team.map(playerName).join(" and ")} win!`;
  const out = team.filter((colour) => !won.includes(colour)).map(playerName);
  return `${won.map(playerName).join(" and ")} ${won.length > 1 ? "win" : "wins"}! (${out.join(" and ")} dropped out.)`;
}

export function renderGameOver() {
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
export function openResult() {
  forget(resultKey(), { session: true });
  showOverlay(true);
  $("after-game").hidden = true;
  ($("rematch").hidden ? $("close-over") : $("rematch")).focus();
}

export function closeResult({ focus = true, why = "board" } = {}) {
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

export function showHowItWent() {
  closeResult({ why: "coach" });
  const title = $("coach-title");
  title.scrollIntoView({ block: "nearest" });
  title.focus({ preventScroll: true });
}

// --- how the game went: the coach ----------------------------------------------------------

/** Times the page asks again for an analysis the server is too busy to make now (429, 503). */
const ANALYSIS_TRIES = 8;

/** Ask for the finished game's analysis, and show it.  While the server is too busy (it says
 * when to come back) the page waits and asks again, saying so; any other failure is said, and
 * nothing else changes. */
async function loadAnalysis(game) {
  if (app.analysing === game) return;
  app.analysing = game;
  const panel = $("coach");
  panel.hidden = false;
  panel.dataset.state = "loading";
  $("coach-status").textContent = "Analysing the game…";
  let analysis;
  for (let tries = 1; ; tries += 1) {
    try {
      analysis = await api(`/api/games/${encodeURIComponent(game)}/analysis`);
      break;
    } catch (error) {
      if (app.analysing !== game) return;
      if ((error.status === 429 || error.status === 503) && tries < ANALYSIS_TRIES) {
        const seconds = Math.min(Math.max(error.retryAfter || 5, 1), 30);
        $("coach-status").textContent = `The server is busy analysing other games: trying again in ${seconds} s…`;
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        if (app.analysing !== game) return;
        $("coach-status").textContent = "Analysing the game…";
        continue;
      }
      panel.dataset.state = "failed";
      $("coach-status").textContent = `The game could not be analysed: ${error.message}`;
      return;
    }
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

/** The graph's lines at first: this page's own (a partner's too), else the winner's side, else
 * the first coached player's; the others on request. */
function ownLines(analysis) {
  const mine = analysis.seats.filter((colour) => app.seats.includes(colour));
  const first = mine.length ? mine : [analysis.winner ?? analysis.coached[0] ?? analysis.seats[0]];
  const side = first.flatMap((colour) => teamOf(colour) ?? [colour]);
  return analysis.seats.filter((colour) => side.includes(colour));
}

/** Whose chance the graph shows at first, in words. */
function whoseChance(analysis, own) {
  const mine = own.filter((colour) => app.seats.includes(colour));
  if (own.length === analysis.seats.length) return analysis.seats.length > 1 ? "Every player's chance to win" : "The chance to win";
  if (!mine.length) return "The winner's chance to win";
  if (mine.length === 1) return own.length > 1 ? "Your team's chance to win" : "Your chance to win";
  return "Your chances to win";
}

/** A player's short name, for "Sam's 12th turn": a name typed in for the seat, else the colour. */
function shortName(colour) {
  const seat = app.state?.seats.find((each) => each.colour === colour);
  const typed = seat && seat.kind !== "bot" && !seat.open ? seat.name : null;
  return typed && typed.toLowerCase() !== colour ? typed : name(colour);
}

/** What the coach's panel keeps: the game's turns, placed (coach.js turnsOf). */
const coached = { turns: [] };

/** Whether "you" is said of a colour: the page plays it and no other. */
const mineAlone = (colour) => app.seats.length === 1 && app.seats.includes(colour);

function renderAnalysis(analysis) {
  const final = Object.fromEntries(analysis.seats.map((colour) => [colour, 0]));
  for (const colour of teamOf(analysis.winner) ?? [analysis.winner]) if (colour in final) final[colour] = 1;
  const mistakes = mistakesShown(analysis);
  const level = levelName(analysis.level);
  const mineOnly = app.seats.length === 1 && analysis.coached.includes(app.seats[0]);
  const own = ownLines(analysis);
  coached.turns = turnsOf(analysis.decisions);
  $("coach-status").textContent = `${whoseChance(analysis, own)}, round by round, as the computer (${level}) judges it.`;
  const graph = chanceGraph(analysis, { names: playerName, final: analysis.winner ? final : null, own, you: mineAlone, marks: mistakes });
  $("coach-graph").replaceChildren(graph);
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
    box.replaceChildren(mistakeList(mistakes, { mine: mineAlone, names: playerName, owner: shortName, turns: coached.turns, onShow: showMistake }));
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
    ? mistakeList(own, { mine: () => false, names: playerName, owner: shortName, turns: coached.turns, onShow: showMistake })
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

/** Where a move's marks go: its pawns (by key) and the places they land on; a Fire or Ice token's
 * pawn where the move moves no pawn of its own. */
function marksOf(move) {
  const actions = pawnActions(move);
  const tokens = tokenActions(move).filter((action) => action.pawn);
  return {
    pawns: [...actions.map((action) => action.pawn), ...tokens.map((action) => action.pawn)],
    places: [...actions.map(landingPlace), ...(actions.length ? [] : tokens.map((action) => pawnPlace(action.pawn)))],
  };
}

/** A small ring as the board draws it, beside the words that say what it marks. */
function ring(kind) {
  const NS = "http://www.w3.org/2000/svg";
  const image = document.createElementNS(NS, "svg");
  image.setAttribute("viewBox", "0 0 24 24");
  image.setAttribute("class", `legend-ring ${kind}-mark`);
  image.setAttribute("aria-hidden", "true");
  const circle = document.createElementNS(NS, "circle");
  for (const [key, value] of Object.entries({ cx: 12, cy: 12, r: 8.5, class: "mark-ring" })) circle.setAttribute(key, String(value));
  image.append(circle);
  return image;
}

/** "dotted purple ring", "solid green rings": how a move's places are marked, in words. */
const rings = (places, how = "dotted purple") => `${how} ring${places.length > 1 ? "s" : ""}`;

function line(cls, ...children) {
  const span = document.createElement("span");
  span.className = `review-line ${cls}`;
  span.append(...children);
  return span;
}

/** The board as it was before the mistake, with both moves marked on it: the move played (its
 * pawns and places ringed dotted) and the better one (ringed solid); a move that moves nothing
 * (a pass, a declined switch, a discard) is said in words, with nothing marked for it. */
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
  const where = turnWords(mistake, coached.turns, { mine: mineAlone, owner: shortName });
  const said = where.replace(/^Your/, "your").replace(/ \(round \d+\)$/, ""); // "your 12th turn"
  showCard(app.board, { card, text, pack: mistake.pack, discards: mistake.discards });
  showTurn(app.board, mistake.colour);
  const big = $("big-card"); // the card beside the board too, until the end is shown again
  big.textContent = cardLabel(card);
  big.classList.remove("none");
  big.classList.toggle("long", cardLabel(card).length > 2);
  $("card-name").textContent = otherCard
    ? `Better card: ${cardLabel(card)} (${said}; the ${cardLabel(mistake.card)} was played)`
    : `Card: ${cardLabel(card)} (${said})`;
  $("card-text").textContent = text;
  const who = mineAlone(mistake.colour) ? "You" : shortName(mistake.colour);
  const played = marksOf(mistake.played_move);
  const better = marksOf(mistake.better_move);
  const playedWords = moveWords(mistake.played_move, mistake.played_text, who);
  const betterWords = moveWords(mistake.better_move, mistake.better_text); // its card in its words
  markPawns(app.board, better.pawns, "selected");
  markPawns(app.board, played.pawns.filter((key) => !better.pawns.includes(key)), "played-pawn");
  markPawns(app.board, mistake.better_move.bumps ?? [], "target");
  // rings to look at, not buttons: they choose nothing
  markPlaces(app.board, [
    ...played.places.map((key) => ({ key, label: `Played: ${playedWords}`, cls: "preview played-mark", show: true })),
    ...better.places.map((key) => ({ key, label: `Better: ${betterWords}`, cls: "preview better-mark", show: true })),
  ]);
  $("board").dataset.reviewing = String(mistake.decision);
  const before = mineAlone(mistake.colour) ? "before your move" : "before the move";
  // a move with nothing to mark (a pass, a declined switch, a discard) is said in words alone
  $("reviewing-text").replaceChildren(
    line("review-where", `${where}, with ${aCard(mistake.card)}: the board ${before}.`),
    " ", // one line each on the screen; words apart when read out
    played.places.length
      ? line("review-played", ring("played"), `Played (${rings(played.places)}): ${playedWords}.`)
      : line("review-played", movesNothing(mistake.played_move) ? `${playedWords}.` : `Played: ${playedWords}.`),
    " ",
    better.places.length
      ? line("review-better", ring("better"), `Better (${rings(better.places, "solid green")}): ${betterWords}.`)
      : line("review-better", `Better: ${betterWords}.`),
  );
  $("reviewing").hidden = false;
  $("board").scrollIntoView({ block: "nearest" });
  inView($("reviewing")); // under the board on a phone held upright: what the board shows, and the way back
  // the button pressed may be off screen now: the focus goes to the words of what the board shows,
  // with "Back to the end" next
  $("reviewing-text").focus({ preventScroll: true });
}

export function endReview() {
  app.reviewing = null;
  if (app.board) markPawns(app.board, [], "played-pawn"); // clearMarks knows nothing of it
  $("reviewing").hidden = true;
  delete $("board").dataset.reviewing;
}

/** Back to the board as the game ended. */
export function stopReviewing() {
  endReview();
  if (!app.board || !app.state) return;
  clearMarks(app.board);
  showPosition(app.board, app.state.position);
  render();
}

export async function rematch() {
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

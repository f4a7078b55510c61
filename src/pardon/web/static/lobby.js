/**
 * lobby.js — public games waiting for players, refreshed every few seconds; Join takes an open
 * seat (POST /api/games/{id}/join) and goes to it.
 */
import { api, capitalise, chip, el, levelName, localPath, say } from "/static/site.js";

const REFRESH_MS = 3000;
const $ = (id) => document.getElementById(id);
let joining = false;
let loadFailed = false;

/** Who plays a seat: a seat joined whose player has not come yet is offered again if they do not come soon. */
function player(seat) {
  if (seat.kind === "bot") return `computer (${levelName(seat.level)})`;
  if (seat.open) return "open seat";
  return seat.joining ? "someone is joining" : seat.name;
}

function seatLine(game, seat) {
  const who = player(seat);
  const badge = seat.kind === "bot" ? "Computer" : seat.joining ? "Being joined" : "Taken";
  const action = seat.open
    ? el(
        "button",
        {
          type: "button",
          class: "primary",
          "aria-describedby": `title-${game.id}`, // the visible words are the name; the game describes it
          onclick: (event) => join(game.id, seat.colour, event.currentTarget),
        },
        `Join as ${capitalise(seat.colour)}`,
      )
    : el("span", { class: `badge ${seat.joining ? "waiting" : "joined"}` }, badge);
  return el("li", {}, el("span", {}, chip(seat.colour), " ", el("span", { class: "who" }, who)), action);
}

function gameCard(game) {
  const open = game.seats.filter((seat) => seat.open).length;
  return el(
    "li",
    { class: "panel game-card", dataset: { game: game.id } },
    el(
      "h2",
      {},
      el("span", { id: `title-${game.id}` }, `${game.rules_name ?? capitalise(game.rules)} game · ${game.seats.length} players`),
      el("span", { class: "badge open" }, `${open} open`),
    ),
    el("ul", { class: "seats-list", "aria-label": "Seats" }, ...game.seats.map((seat) => seatLine(game, seat))),
    el("p", { class: "hint" }, game.hints ? "Hints on request" : "No hints"),
  );
}

async function refresh() {
  if (joining) return;
  let lobby;
  try {
    lobby = await api("/api/lobby");
  } catch (error) {
    say($("lobby-error"), `The lobby could not be loaded: ${error.message}`);
    loadFailed = true;
    return;
  }
  if (loadFailed) say($("lobby-error"), ""); // a refusal to join stays until the next try
  loadFailed = false;
  const games = $("games");
  games.setAttribute("aria-busy", "false");
  if (!lobby.games.length) {
    games.replaceChildren(
      el(
        "div",
        { class: "panel empty" },
        el("h2", {}, "No public games are waiting"),
        el("p", {}, "Create one and tick “Public”, or play the computer while you wait."),
        el("a", { class: "button primary", href: "/" }, "Start a game"),
      ),
    );
  } else {
    games.replaceChildren(el("ul", { class: "games" }, ...lobby.games.map(gameCard)));
  }
  $("updated").textContent = `Updated ${new Date().toLocaleTimeString()}; refreshes by itself.`;
}

async function join(id, colour, button) {
  joining = true;
  button.disabled = true;
  say($("lobby-error"), "");
  loadFailed = false;
  try {
    const joined = await api(`/api/games/${id}/join`, { json: { seat: colour } });
    location.assign(localPath(joined.link));
  } catch (error) {
    say($("lobby-error"), `Could not join as ${capitalise(colour)}: ${error.message}`);
    button.disabled = false;
    joining = false;
    refresh();
  }
}

window.addEventListener("pageshow", (event) => {
  if (!event.persisted || !joining) return;
  joining = false; // back from the seat joined (the back-forward cache): the lobby as it is now, its buttons live
  refresh();
});
$("refresh").addEventListener("click", refresh);
refresh();
setInterval(refresh, REFRESH_MS);

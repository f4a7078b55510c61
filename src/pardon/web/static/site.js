/**
 * site.js — what the pages around the game share: calling the REST API with readable errors,
 * building elements, colour chips (a letter as well as a colour), copying links, and the
 * browser's storage without its exceptions.
 */

export const COLOURS = ["red", "blue", "yellow", "green"];
export const LETTERS = { red: "R", blue: "B", yellow: "Y", green: "G" };
/** The computer levels as players know them (the server's names are its search methods); the
 * server names a new computer seat the same way (LEVEL_NAMES in src/pardon/web/api.py). */
export const LEVEL_NAMES = {
  random: "Beginner",
  greedy: "Easy",
  tactician: "Medium",
  expectimax: "Hard",
  mcts: "Patient",
  expert: "Expert",
};

/** A part of the address decoded: a broken escape ("%E0%A", a link cut short) is taken as it
 * is, so the server can say there is no such game, instead of the page stopping dead. */
export function decodePart(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/* --- the browser's storage ---------------------------------------------------------------
 * localStorage and sessionStorage may refuse at any time: in private browsing, with cookies
 * turned off (where merely reading `window.localStorage` throws), or with the quota full.  What
 * the pages keep there is a convenience (a seat's token, a setting, a game to show again), so
 * these three never throw: what cannot be read is null, what cannot be kept is not kept (they
 * answer false), and the page goes on without it.  `session: true` for sessionStorage. */

function storageArea(session) {
  return session ? window.sessionStorage : window.localStorage;
}

/** The text kept under `key`, or null: none kept, or the storage refuses. */
export function stored(key, { session = false } = {}) {
  try {
    return storageArea(session).getItem(key);
  } catch {
    return null;
  }
}

/** Keep `value` (text) under `key`; whether it was kept. */
export function store(key, value, { session = false } = {}) {
  try {
    storageArea(session).setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** Forget what is kept under `key`; whether the storage let it. */
export function forget(key, { session = false } = {}) {
  try {
    storageArea(session).removeItem(key);
    return true;
  } catch {
    return false;
  }
}

export function capitalise(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/** A computer level's name for players: "Hard" for expectimax (a level with options: its own name). */
export function levelName(level) {
  return LEVEL_NAMES[level] ?? capitalise(level ?? "");
}

/** The name typed in for a person's seat ("Ann"), or "" where none was (a computer, an open
 * seat, a seat named by its colour). */
export function typedName(seat) {
  const given = seat.kind !== "bot" && !seat.open ? seat.name : "";
  return given && given !== capitalise(seat.colour) ? given : "";
}

/** Who plays a seat, in words: "Blue computer (Hard)", "Ann (Red)", or just "Red". */
export function seatLabel(seat) {
  const colour = capitalise(seat.colour);
  if (seat.kind === "bot") return `${colour} computer (${levelName(seat.level)})`;
  const given = typedName(seat);
  return given ? `${given} (${colour})` : colour;
}

/** Call the API; a refusal becomes an Error carrying the server's message. */
export async function api(path, { method, json, headers } = {}) {
  const init = {
    method: method || (json === undefined ? "GET" : "POST"),
    headers: { Accept: "application/json", ...headers },
  };
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    init.headers["Content-Type"] = "application/json";
  }
  let answer;
  try {
    answer = await fetch(path, init);
  } catch {
    throw new Error("The pardon server cannot be reached. Is it still running?");
  }
  let body = null;
  try {
    body = await answer.json();
  } catch {
    body = null;
  }
  if (!answer.ok) {
    const error = new Error(body && body.message ? body.message : `The server refused the request (${answer.status}).`);
    error.code = body && body.error;
    error.status = answer.status;
    error.retryAfter = Number(answer.headers.get("Retry-After")) || null; // seconds, where the server says
    throw error;
  }
  return body;
}

/* --- the host's online game ---------------------------------------------------------------
 * The home page keeps the online game it made (with the host's token) until it starts, so that
 * both the home page and the host's own seat can let a computer play a friend's seat. */

export const ONLINE_GAME_KEY = "pardon.onlineGame";

/** The online game this browser created and still waits for players ({game, colour, isPublic}:
 * its links are shown only on the home page); null if none, or not what the home page wrote. */
export function savedOnlineGame() {
  try {
    const saved = JSON.parse(stored(ONLINE_GAME_KEY) ?? "null");
    return saved?.game?.id ? saved : null;
  } catch {
    return null;
  }
}

/** The host's token of game `id`, if this browser made it; else null. */
export function hostTokenOf(id) {
  const game = savedOnlineGame()?.game;
  return game?.id === id && typeof game.host_token === "string" ? game.host_token : null;
}

/** Let a computer play the seat of `colour`, whose player has not come (the host only): the
 * game's summary after it.  A refusal throws, saying why (the friend came just now, say). */
export function seatToComputer(id, colour, hostToken) {
  const path = `/api/games/${encodeURIComponent(id)}/seats/${colour}/computer`;
  return api(path, { json: {}, headers: { Authorization: `Bearer ${hostToken}` } });
}

/* --- the games this browser plays ------------------------------------------------------------
 * The game page notes each game it opens a seat of (newest first), so that the home page can
 * offer them again: a hot-seat game put down, or a game against the computer left by mistake. */

export const MY_GAMES_KEY = "pardon.myGames";
const MY_GAMES_KEPT = 12;

/** The ids of the games this browser has opened a seat of, newest first. */
export function myGames() {
  try {
    const kept = JSON.parse(stored(MY_GAMES_KEY) ?? "[]");
    return Array.isArray(kept) ? kept.filter((id) => typeof id === "string") : [];
  } catch {
    return [];
  }
}

/** Note game `id` as the newest of this browser's games. */
export function noteMyGame(id) {
  store(MY_GAMES_KEY, JSON.stringify([id, ...myGames().filter((other) => other !== id)].slice(0, MY_GAMES_KEPT)));
}

/** Forget game `id` (it is over, or the server no longer has it). */
export function forgetMyGame(id) {
  store(MY_GAMES_KEY, JSON.stringify(myGames().filter((other) => other !== id)));
}

/** el("p", {class: "x", onclick: f}, "text", child) */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** A colour chip: a coloured disc with the colour's letter, and its name for everyone. */
export function chip(colour, label) {
  return el(
    "span",
    { class: `chip chip-${colour}` },
    el("span", { class: "chip-disc", "aria-hidden": "true" }, LETTERS[colour] || "?"),
    el("span", { class: "chip-name" }, label ?? capitalise(colour)),
  );
}

/** Show a message in a status element (role=alert or status); empty text hides it. */
export function say(element, text, kind = "error") {
  element.textContent = text || "";
  element.hidden = !text;
  element.classList.toggle("is-error", kind === "error");
  element.classList.toggle("is-ok", kind === "ok");
}

/** Copy `text`; without the clipboard API (an insecure origin) select the input for Ctrl+C. */
export async function copy(text, input) {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      try {
        if (document.execCommand("copy")) return true;
      } catch {
        /* selected for the user to copy */
      }
    }
    return false;
  }
}

/** A read-only link with a Copy button that says what happened. */
export function copyField(link, label) {
  const input = el("input", { type: "text", readonly: true, value: link, class: "link-field", "aria-label": label });
  input.addEventListener("focus", () => input.select());
  const button = el("button", { type: "button", class: "copy", "aria-label": `Copy ${label}` }, "Copy");
  // The button's new words are not read out (its name is its label): a status region says them.
  const status = el("span", { class: "visually-hidden", role: "status" });
  let restore = null;
  button.addEventListener("click", async () => {
    const done = await copy(link, input);
    button.textContent = done ? "Copied!" : "Press Ctrl+C";
    button.classList.toggle("copied", done);
    status.textContent = done ? `Copied ${label}` : "Not copied: the link is selected, press Ctrl+C";
    clearTimeout(restore);
    restore = setTimeout(() => {
      button.textContent = "Copy";
      button.classList.remove("copied");
      status.textContent = "";
    }, 2500);
  });
  return el("div", { class: "copy-row" }, input, button, shareButton(link, label), status);
}

/** On a phone (a browser that can share): the link straight into a message, an e-mail, a chat. */
function shareButton(link, label) {
  if (typeof navigator.share !== "function") return null;
  const button = el("button", { type: "button", class: "copy", "aria-label": `Share ${label}` }, "Share");
  button.addEventListener("click", async () => {
    try {
      await navigator.share({ title: "Sorry! on pardon", text: "Come and play Sorry! with me", url: link });
    } catch {
      /* closed without sharing: the link is still there to copy */
    }
  });
  return button;
}

/** A relative address for the browser from an absolute link the server wrote. */
export function localPath(link) {
  const url = new URL(link, location.href);
  return url.pathname + url.hash;
}

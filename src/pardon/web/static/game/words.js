/**
 * game/words.js — what the page says: the message under the card, a passing note, the live log
 * a screen reader hears, and the game's log.
 */

import { $, app, NOTE_MS } from "/static/game/app.js";

// --- words -------------------------------------------------------------------------------

export function say(text, info = false) {
  const node = $("message");
  node.textContent = text;
  node.classList.toggle("info", info);
}

let noteTimer = null;

/** A passing note: said, then cleared unless something else has been said meanwhile. */
export function note(text) {
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
export function announce(text) {
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

export function log(text) {
  const item = document.createElement("li");
  item.textContent = text;
  const list = $("log");
  list.appendChild(item);
  list.scrollTop = list.scrollHeight;
}

// What the race pages say of a race and its racers: titles, names, statuses and times in words.
// Server text reaches HTML only through escapeHtml.

import { playerNames } from "./api.js";
import { gameInfo, presetTitle } from "./games.js";
import { escapeHtml } from "./html.js";
import { formatTime } from "./render.js";

/** "<game> · <preset>": the game and its preset, as the catalogue titles them. */
export function raceTitle(race) {
  const game = gameInfo(race.game);
  return game.presets.length > 1 ? `${game.title} · ${presetTitle(race.game, race.variant)}` : game.title;
}

const NAMES_AT_ONCE = 32; // the server's bound
const names = new Map(); // player id -> the account's name, or null for a guest
const GUEST_RECHECK_MS = 30_000; // a guest may sign up during a race: asked again after this
const guestSince = new Map(); // player id -> when the server last said it has no name
const due = (player) => !names.has(player)
  || (names.get(player) === null && Date.now() - guestSince.get(player) >= GUEST_RECHECK_MS);

const RETRY_MS = 10_000;
let quietUntil = 0; // after a failed ask, none until then (a race sends frames often)
const asking = new Set(); // ids of an ask on its way: a frame meanwhile does not ask for them again

/** Learn the display names of `players` not known yet (and of guests now and then: one may sign up
 * mid-race); true when a name changed (draw again). A failed ask is not fatal: the racers keep their
 * short form, and a later draw asks again. */
export async function learnNames(players) {
  const unknown = [...new Set(players)]
    .filter((player) => due(player) && !asking.has(player))
    .slice(0, NAMES_AT_ONCE);
  if (!unknown.length || Date.now() < quietUntil) return false;
  unknown.forEach((player) => asking.add(player));
  try {
    const { players: found } = await playerNames(unknown);
    let changed = false;
    for (const { player, name } of found) {
      changed ||= names.get(player) !== name;
      names.set(player, name);
      if (name === null) guestSince.set(player, Date.now());
    }
    return changed;
  } catch {
    quietUntil = Date.now() + RETRY_MS;
    return false;
  } finally {
    unknown.forEach((player) => asking.delete(player));
  }
}

/** A racer as others see them: "You" for this player, else the account's name, else (a guest, or a name
 * not learnt yet) a short form of the player id. */
export function racerName(player, me) {
  if (player === me) return "You";
  const name = names.get(player);
  return name ?? (names.has(player) ? guestName(player) : `Player ${shortId(player)}`);
}

const shortId = (player) => String(player).replace(/^g_/, "").slice(0, 6);

/** A player with no account name, the same on every race page: "Guest abc123". */
export const guestName = (player) => `Guest ${shortId(player)}`;

export function racerHtml(player, me, race) {
  const host = race.host === player ? ' <span class="badge host">host</span>' : "";
  return `<span class="racer-name${player === me ? " me" : ""}" title="${escapeHtml(player)}">${escapeHtml(racerName(player, me))}</span>${host}`;
}

const PROGRESS_WORDS = { in_play: "in play", won: "won", stuck: "stuck", resigned: "resigned",
  disconnected: "disconnected", waiting: "waiting" };
export const progressWord = (status) => PROGRESS_WORDS[status] ?? status;

const RESULT_WORDS = { won: "won", lost: "stuck", abandoned: "resigned", timed_out: "out of time",
  rejected: "win rejected" };
export const resultWord = (result) => RESULT_WORDS[result] ?? result ?? "–";

export const timeText = (ms) => (ms == null ? "–" : formatTime(ms));

/** A countdown's whole seconds left (never below zero). */
export const secondsLeft = (atMs, nowMs) => Math.max(0, Math.ceil((atMs - nowMs) / 1000));

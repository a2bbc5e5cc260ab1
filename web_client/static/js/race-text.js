// What the race pages say of a race and its racers: titles, names, statuses and times in words.
// Server text reaches HTML only through escapeHtml.

import { gameInfo, presetTitle } from "./games.js";
import { escapeHtml } from "./html.js";
import { formatTime } from "./render.js";

/** "<game> · <preset>": the game and its preset, as the catalogue titles them. */
export function raceTitle(race) {
  const game = gameInfo(race.game);
  return game.presets.length > 1 ? `${game.title} · ${presetTitle(race.game, race.variant)}` : game.title;
}

/** A racer as others see them: "You" for this player, else a short form of the player id. */
export function racerName(player, me) {
  return player === me ? "You" : `Player ${String(player).slice(0, 8)}`;
}

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

// Every racer's progress as bars: counts and a status from the race socket's s2c.race_progress frames
// (cards home or cleared out of all cards, moves), never a card. Racers and spectators see the same.

import { escapeHtml } from "./html.js";
import { progressWord, racerHtml, timeText } from "./race-text.js";

/** A racer's status as shown: the progress frame's, "disconnected" while their sockets are all closed
 * in play, "waiting" before their first frame. */
export function shownStatus(racer, progress) {
  const status = progress?.status ?? "waiting";
  return racer.connected === false && (status === "in_play" || status === "waiting") ? "disconnected" : status;
}

function racerItem(racer, progress, me, race) {
  const status = shownStatus(racer, progress);
  const home = progress?.cards_home ?? 0;
  const total = progress ? progress.cards_home + progress.cards_left : 0;
  const percent = total ? Math.round((home / total) * 100) : 0;
  const counts = progress
    ? `${progress.moves} moves · ${progress.cards_left} cards left${progress.elapsed_ms != null && status !== "in_play" ? ` · ${timeText(progress.elapsed_ms)}` : ""}`
    : "not started yet";
  return `
    <li class="racer${racer.player === me ? " me" : ""}" data-player="${escapeHtml(racer.player)}" data-status="${escapeHtml(status)}">
      <span class="racer-who">${racerHtml(racer.player, me, race)}
        <span class="badge progress-${escapeHtml(status)}">${escapeHtml(progressWord(status))}</span></span>
      <span class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="${total}" aria-valuenow="${home}"
        aria-label="${escapeHtml(`${home} of ${total} cards done`)}"><span style="width: ${percent}%"></span></span>
      <span class="racer-counts">${escapeHtml(counts)}</span>
    </li>`;
}

export function renderProgress(list, raceState, me) {
  const race = raceState.race;
  list.innerHTML = race.racers.map((r) => racerItem(r, raceState.progress.get(r.player), me, race)).join("");
}

// The results: the standings in finishing order (won first, then time, then moves, as the server
// ranked them), each racer's rating change once the race is rated, a link to each racer's replay (a
// race game's replay is public once the race is over), the revealed deal, and the one-click rematch.

import { escapeHtml } from "./html.js";
import { raceRatings, rematch } from "./race-api.js";
import { renderProgress } from "./race-progress.js";
import { raceTitle, racerHtml, resultWord, timeText } from "./race-text.js";

const RATINGS_TRIES = 30; // a race is rated a moment after its results are final: ask again each second
const signed = (n) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(2)}`;

function ratingCell(change) {
  if (!change) return '<span class="hint">–</span>';
  const delta = change.after - change.before;
  const provisional = change.provisional ? ' <span class="badge provisional" title="fewer than 10 races on this board">provisional</span>' : "";
  const first = change.first_race ? "first race" : `was ${change.before.toFixed(2)}`;
  return `<span class="rating-change ${delta >= 0 ? "up" : "down"}" data-rating-change="${delta.toFixed(4)}">${signed(delta)}</span>
    <span class="rating-now" title="${first}; mu ${change.mu.toFixed(2)}, uncertainty sigma ${change.sigma.toFixed(2)}">now
    ${change.after.toFixed(2)} <span class="sigma">±${change.sigma.toFixed(1)}</span></span>${provisional}`;
}

function standingsRows(race, me, ratings) {
  const games = new Map(race.racers.map((r) => [r.player, r.game_id]));
  const changes = new Map((ratings?.changes ?? []).map((c) => [c.player, c]));
  return (race.standings ?? []).map((s) => {
    const game = games.get(s.player);
    const replay = game ? `<a class="replay-link" href="replay.html?game=${encodeURIComponent(game)}"
      data-replay-link="${escapeHtml(game)}">Replay</a>` : "";
    return `<tr class="standing${s.player === me ? " me" : ""}" data-player="${escapeHtml(s.player)}" data-place="${s.place}">
      <td data-label="Place" class="place">${s.place}</td>
      <td data-label="Racer">${racerHtml(s.player, me, race)}</td>
      <td data-label="Result"><span class="badge result-${escapeHtml(s.result)}">${escapeHtml(resultWord(s.result))}</span></td>
      <td data-label="Moves">${s.moves ?? "–"}</td>
      <td data-label="Time">${timeText(s.time_ms)}</td>
      <td data-label="Rating" class="rating">${ratingCell(changes.get(s.player))}</td>
      <td data-label="Replay">${replay}</td>
    </tr>`;
  }).join("");
}

export function mountResults(holder, ctx) {
  const { state: raceState, me } = ctx;
  holder.innerHTML = `
    <section class="panel race-results" aria-labelledby="results-title">
      <h1 id="results-title"></h1>
      <p class="race-final-note" aria-live="polite"></p>
      <div class="table-scroll"><table class="race-standings">
        <thead><tr><th>Place</th><th>Racer</th><th>Result</th><th>Moves</th><th>Time</th><th>Rating</th><th>Replay</th></tr></thead>
        <tbody></tbody>
      </table></div>
      <p class="race-deal hint"></p>
      <div class="race-actions">
        <button type="button" class="primary" data-results="rematch" hidden>Rematch</button>
        <a class="rematch-link" hidden>Go to the rematch</a>
        <a class="race-replay-link" data-race-replay hidden>Watch the race replay</a>
        <a href="race.html#/">Another race</a>
      </div>
      <details class="race-last-progress"><summary>Everyone's last progress</summary><ol class="race-progress"></ol></details>
    </section>`;
  const el = (selector) => holder.querySelector(selector);
  let ratings = null;
  let asking = false;
  let tries = 0;
  let retry = null;
  const askRatings = async () => {
    retry = null;
    asking = true;
    tries += 1;
    try {
      ratings = await raceRatings(raceState.race.race_id);
    } catch (error) {
      ctx.toast(ctx.errorText(error), "error");
    } finally {
      asking = false;
    }
    if (!ratings?.rated && tries < RATINGS_TRIES) retry = setTimeout(askRatings, 1000);
    update();
  };
  const update = () => {
    const race = raceState.race;
    el("#results-title").textContent = `Results · ${raceTitle(race)}`;
    const why = { all_finished: "Everyone has finished.", time_limit: "The time limit ended the race.",
      emptied: "Everyone left before the start." }[race.end_reason] ?? "";
    const state = race.final ? (ratings?.rated ? "Final results, rated." : "Final results; rating…")
      : "Checking the wins by replaying them…";
    el(".race-final-note").textContent = race.standings ? `${why} ${state}` : why;
    el(".race-results").dataset.final = String(race.final);
    el(".race-results").dataset.rated = String(Boolean(ratings?.rated));
    el(".race-standings tbody").innerHTML = standingsRows(race, me, ratings);
    el(".race-deal").textContent = race.seed == null ? ""
      : `The deal was number ${race.seed} (salt ${race.salt}; its commitment ${race.commitment.slice(0, 16)}… was public from the start).`;
    const seated = race.racers.some((r) => r.player === me);
    el("[data-results=rematch]").hidden = !seated || Boolean(race.rematch) || !race.standings;
    const link = el(".rematch-link");
    link.hidden = !race.rematch;
    if (race.rematch) link.href = `race.html#/r/${encodeURIComponent(race.rematch)}`;
    const watch = el("[data-race-replay]");  // every racer side by side, once the race is over
    watch.hidden = !race.standings;
    watch.href = `replay.html?race=${encodeURIComponent(race.race_id)}`;
    renderProgress(el(".race-progress"), raceState, me);
    if (race.final && !ratings?.rated && !asking && retry === null && tries < RATINGS_TRIES) askRatings();
  };
  el(".race-results").addEventListener("click", async (event) => {
    if (!event.target.closest("[data-results=rematch]")) return;
    try {
      const again = await rematch(raceState.race.race_id);
      ctx.go(`#/r/${encodeURIComponent(again.race_id)}`);
    } catch (error) {
      ctx.toast(ctx.errorText(error), "error");
    }
  });
  return { update, leave: () => clearTimeout(retry) };
}

// The leaderboard page, leaderboard.html?challenge=<key>&offset=<n>[&limit=<n>]: a challenge's verified wins
// (fewer moves, then less server time, then the earlier finish), a page at a time, its counts, and
// my standing; my win still being replayed by the server's check is shown as "checking", and a win the
// human-speed review flagged as "review" (it keeps its place until an operator has looked at it).

import { mountAccount } from "./account.js";
import { ApiError, dailyDay, identity, leaderboard } from "./api.js";
import { markBusy } from "./busy.js";
import {
  challengePreset, challengeTitle, checkHtml, commitmentHtml, counts, dayLabel, hoursHtml, installCopy, mineText,
  pollDelay, resultText, revealedHtml, serverClock, startCountdowns,
} from "./challenge.js";
import { loadCatalog } from "./games.js";
import { ghostButtonHtml, installGhostButtons } from "./ghost.js";
import { escapeHtml } from "./html.js";
import { sentence } from "./notice.js";
import { formatTime } from "./render.js";

const PAGE = 20;
const POLL_MS = 30_000;
const app = document.getElementById("app");
const params = new URLSearchParams(location.search);
const key = params.get("challenge");
const offset = Math.max(0, Math.floor(Number(params.get("offset")) || 0));
const limit = Math.min(100, Math.max(1, Math.floor(Number(params.get("limit")) || PAGE))); // the server's bounds

const pageHref = (at) => `leaderboard.html?challenge=${encodeURIComponent(key)}${at ? `&offset=${at}` : ""}${
  params.has("limit") ? `&limit=${limit}` : ""}`;
const finishedAt = (ms) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

// The review's reason codes (services/validator/review.py) in words, for the mark's title.
const REVIEW_REASONS = {
  fast_first_move: "first move quicker than a person can answer the deal",
  fast_moves: "most moves quicker than a click",
  even_tempo: "moves as evenly spaced as a metronome",
  fast_total: "the whole game quicker than its moves can be made",
};

function reviewHtml(entry) {
  if (!entry.review) return "";
  const why = (entry.review_reasons ?? []).map((code) => REVIEW_REASONS[code] ?? code).join("; ");
  return ` <span class="review" data-review="${escapeHtml((entry.review_reasons ?? []).join(" "))}"
    title="${escapeHtml(`Under review, still ranked: ${why || "flagged"}`)}">review<span class="visually-hidden">:
    ${escapeHtml(why || "flagged")}</span></span>`;
}

function row({ rank, entry }, me, extraClass = "", replay = false) {
  const mine = entry.player === me;
  return `<tr class="${mine ? "mine" : ""} ${extraClass}" ${mine ? 'aria-current="true"' : ""} data-player="${escapeHtml(entry.player)}">
    <td data-label="Rank" class="rank">${escapeHtml(rank)}</td>
    <td data-label="Player">${escapeHtml(entry.name ?? "a player")}${mine ? ' <span class="you">(you)</span>' : ""}${
      reviewHtml(entry)}</td>
    <td data-label="Moves">${escapeHtml(entry.moves)}</td>
    <td data-label="Time">${escapeHtml(formatTime(entry.time_ms))}</td>
    <td data-label="Finished" class="finished">${escapeHtml(finishedAt(entry.finished_at_ms))} UTC</td>
    ${replay ? `<td data-label="Replay"><a href="replay.html?game=${encodeURIComponent(entry.game_id)}"
      data-replay-link="${escapeHtml(entry.game_id)}">Replay</a></td>` : ""}
  </tr>`;
}

function standingHtml(board, me) {
  const mine = board.mine;
  const status = mine?.status ?? null;
  const game = mine?.entry ? { status: mine.entry.result, moves: mine.entry.moves, elapsed_ms: mine.entry.time_ms } : null;
  const text = status === "pending" ? `${resultText("won", mine.entry.moves, mine.entry.time_ms)} · checking`
    : mineText(status, mine?.rank, game, board.counts.wins, ["open", "scheduled"].includes(board.challenge.status))
      + (status === "verified" && mine.entry?.review ? " · under review" : "");
  return `<p class="standing" data-mine="${escapeHtml(status ?? "none")}" data-rank="${escapeHtml(mine?.rank ?? "")}">
    <span class="label">You</span> ${escapeHtml(text)}</p>`;
}

function tableHtml(board, me) {
  const { rows, total } = board.page;
  const final = board.challenge.status === "final"; // every attempt's replay is public from the reveal on
  const pending = board.mine?.status === "pending" && board.mine.entry
    ? row({ rank: "checking", entry: board.mine.entry }, me, "checking") : "";
  if (!rows.length && !pending) return '<p class="hint">No verified win yet.</p>';
  const first = total ? offset + 1 : 0;
  const last = offset + rows.length;
  return `<table class="leaderboard">
      <caption>Verified wins ${first}–${last} of ${total}${board.page.final ? " (final)" : ""}</caption>
      <thead><tr><th>Rank</th><th>Player</th><th>Moves</th><th>Time</th><th class="finished">Finished</th>${
        final ? "<th>Replay</th>" : ""}</tr></thead>
      <tbody>${rows.map((r) => row(r, me, "", final)).join("")}</tbody>
      ${pending ? `<tbody class="pending">${pending}</tbody>` : ""}
    </table>
    <nav class="pager" aria-label="Leaderboard pages">
      ${offset > 0 ? `<a class="button-link" rel="prev" href="${pageHref(Math.max(0, offset - limit))}">Previous</a>` : ""}
      ${last < total ? `<a class="button-link" rel="next" href="${pageHref(offset + limit)}">Next</a>` : ""}
    </nav>`;
}

function countsHtml(c) {
  const items = [["players", c.players, "ranked player", "ranked players"], ["playing", c.playing, "playing", "playing"],
    ["pending", c.pending, "checking", "checking"], ["wins", c.wins, "verified win", "verified wins"],
    ["losses", c.losses, "lost or resigned", "lost or resigned"], ["rejected", c.rejected, "not accepted", "not accepted"],
    ["guests", c.guests, "guest (unranked)", "guests (unranked)"]];
  return `<ul class="counts" aria-label="${escapeHtml(counts(c))}">${items.map(([name, n, one, many]) =>
    `<li data-count="${name}"><strong>${escapeHtml(n)}</strong> ${escapeHtml(n === 1 ? one : many)}</li>`).join("")}</ul>`;
}

function render(board, me, now) {
  const info = board.challenge;
  document.title = `Leaderboard · ${challengeTitle(info)} · ${info.date}`;
  app.innerHTML = `<section class="panel leaderboard-page" data-challenge="${escapeHtml(info.challenge)}">
      <h1>${escapeHtml(challengeTitle(info))} <span class="preset">${escapeHtml(challengePreset(info))}</span>${checkHtml(info)}</h1>
      <p class="sub">Daily challenge of ${escapeHtml(dayLabel(info.date))} (UTC)</p>
      ${hoursHtml(info, now)}
      ${standingHtml(board, me)}
      ${countsHtml(board.counts)}
      ${tableHtml(board, me)}
      ${ghostButtonHtml(info, board.counts)}
      ${commitmentHtml(info.commitment)}
      ${revealedHtml(info)}
      <p><a href="./">Back to today's challenges</a></p>
    </section>`;
  markBusy(app); // a poll drew the page again while a ghost race was being started
}

let poll = null;
const shownSince = performance.now();
let stopCountdowns = () => {};

async function load() {
  clearTimeout(poll);
  if (!key) {
    app.innerHTML = `<section class="panel"><h1>Which leaderboard?</h1>
      <p>Open a challenge's leaderboard from <a href="./">today's challenges</a>.</p></section>`;
    return;
  }
  let board;
  let me;
  let day;
  try {
    await loadCatalog().catch(() => null); // without it a game shows by its id
    // The day's answer carries the server's clock, which the challenge's hours count against.
    [board, { player_id: me }, day] = await Promise.all([
      leaderboard(key, offset, limit), identity(), dailyDay(key.split("/")[0])]);
  } catch (error) {
    app.innerHTML = `<section class="panel"><h1>Leaderboard</h1><p class="reason"></p>
      <p><a href="./">Back to today's challenges</a></p></section>`;
    app.querySelector(".reason").textContent = `This leaderboard could not be loaded: ${
      sentence(error instanceof ApiError ? error.message : String(error))}`;
    return;
  }
  render(board, me, day.now_ms);
  stopCountdowns();
  stopCountdowns = startCountdowns(app, serverClock(day.now_ms), load);
  if (!board.counts.final) poll = setTimeout(load, pollDelay([board.mine?.status], POLL_MS, shownSince));
}

installCopy(app);
installGhostButtons(app);
mountAccount({ onChange: load });
load();

// The race replay, replay.html?race=<id>&t=<ms>: every racer of a finished race side by side, in
// finishing order, each board at its own step for one shared time since the start signal. Data from
// GET /api/races/{id}/replay (public once the race has ended: no token needed); every board is drawn
// by render.js, the play page's renderer. The clock is race-clock.js; the page only draws.

import { gameInfo, loadCatalog } from "./games.js";
import { escapeHtml } from "./html.js";
import { RACE_SPEEDS, RaceClock, stepAt } from "./race-clock.js";
import { guestName } from "./race-text.js";
import { formatTime, renderBoard } from "./render.js";
import { ICONS } from "./replay-view.js";

const RESULT_TEXT = { won: "Won", lost: "Stuck", abandoned: "Resigned", timed_out: "Not finished in time",
  rejected: "Win not accepted" };
const END_TEXT = { all_finished: "every racer finished", time_limit: "the time limit ended it", emptied: "everyone left" };
const STATUS_TEXT = { in_progress: "in play", won: "won", lost: "stuck", abandoned: "resigned" };

/** "0:07.4": the race clock, to a tenth of a second. */
export function clockText(ms) {
  return `${formatTime(ms)}.${Math.floor((ms % 1000) / 100)}`;
}

const racerName = (racer) => racer.name ?? guestName(racer.player);

function resultText(racer) {
  const result = RESULT_TEXT[racer.result] ?? racer.result;
  const time = racer.time_ms == null ? "" : `, ${clockText(racer.time_ms)}`;
  const checking = racer.result === "won" && racer.verified == null ? " (being checked)" : "";
  return `${result} · ${racer.moves} moves${time}${checking}`;
}

function orderHtml(data) {
  return `<ol class="race-order" aria-label="Finishing order">${data.racers.map((racer) => `
    <li data-player="${escapeHtml(racer.player)}" data-place="${escapeHtml(racer.place ?? "")}">
      <span class="place">${escapeHtml(racer.place ?? "–")}</span>
      <span class="who">${escapeHtml(racerName(racer))}</span>
      <span class="result" data-result="${escapeHtml(racer.result)}">${escapeHtml(resultText(racer))}</span>
      <a href="replay.html?game=${encodeURIComponent(racer.game_id)}" aria-label="Replay of ${escapeHtml(racerName(racer))}'s game, with the analysis">Replay</a>
    </li>`).join("")}</ol>`;
}

function boardsHtml(data, title) {
  return data.racers.map((racer) => `
    <article class="racer" data-player="${escapeHtml(racer.player)}" data-place="${escapeHtml(racer.place ?? "")}">
      <header><span class="place" aria-label="place">${escapeHtml(racer.place ?? "–")}</span>
        <h2>${escapeHtml(racerName(racer))}</h2><span class="racer-step" aria-live="off"></span></header>
      <div class="board" aria-label="${escapeHtml(`${title}: ${racerName(racer)}'s board at the time shown`)}"></div>
    </article>`).join("");
}

function skeleton(root, data, title) {
  const ended = END_TEXT[data.end_reason] ?? data.end_reason;
  root.innerHTML = `
    <section class="replay race-replay">
      <div class="replay-head">
        <h1 class="game-title">${escapeHtml(title)}: race replay</h1>
        <p class="status">${escapeHtml(data.racers.length)} racers · ${escapeHtml(ended)} · ${escapeHtml(clockText(data.duration_ms))}
          · deal number ${escapeHtml(data.seed)}${data.status === "final" ? "" : " · results not final yet"}</p>
        <div class="replay-links"><button type="button" class="share">Share this moment</button></div>
      </div>
      ${orderHtml(data)}
      <div class="controls" role="toolbar" aria-label="Race replay controls">
        <button type="button" data-control="first" aria-label="The start (Home)" title="The start (Home)">${ICONS.first}</button>
        <button type="button" data-control="back" aria-label="The move before (←)" title="The move before (←)">${ICONS.back}</button>
        <button type="button" data-control="play" class="primary play" aria-label="Play (Space)">▶ Play</button>
        <button type="button" data-control="forward" aria-label="The next move (→)" title="The next move, any racer's (→)">${ICONS.forward}</button>
        <button type="button" data-control="end" aria-label="The end (End)" title="The end (End)">${ICONS.end}</button>
        <label class="speed">Speed
          <select name="speed">${RACE_SPEEDS.map((s) => `<option value="${s}">${s}×</option>`).join("")}</select>
        </label>
        <span class="position" aria-live="off"></span>
      </div>
      <input type="range" class="scrub" min="0" max="${escapeHtml(data.duration_ms)}" step="1" value="0" aria-label="Time since the start">
      <div class="race-boards">${boardsHtml(data, title)}</div>
    </section>`;
  return {
    controls: root.querySelector(".controls"),
    play: root.querySelector("[data-control=play]"),
    speed: root.querySelector("select[name=speed]"),
    position: root.querySelector(".position"),
    scrub: root.querySelector(".scrub"),
    share: root.querySelector(".share"),
    racers: [...root.querySelectorAll("article.racer")].map((el) => ({
      el, board: el.querySelector(".board"), step: el.querySelector(".racer-step"), shown: -1 })),
  };
}

/** Draw time `clock.t`: each racer's board at its last step by then, the controls, the scrub bar. */
function renderTime(parts, data, clock, force = false) {
  data.racers.forEach((racer, i) => {
    const part = parts.racers[i];
    const k = stepAt(racer.steps, clock.t);
    const last = racer.steps.length - 1;
    const status = racer.steps[k].view.status;
    part.el.dataset.step = String(k);
    part.el.dataset.state = status;
    part.step.textContent = `${k === 0 ? "the deal" : `move ${k} of ${last}`} · ${STATUS_TEXT[status] ?? status}`;
    if (k === part.shown && !force) return;
    part.shown = k;
    const state = { view: racer.steps[k].view, role: "spectator", selection: null, pending: null };
    renderBoard(part.board, state, { revealed: true, unseen: new Set(racer.steps[k].hidden) });
  });
  parts.position.textContent = `${clockText(clock.t)} of ${clockText(data.duration_ms)}`;
  parts.scrub.value = String(clock.t);
  parts.scrub.setAttribute("aria-valuetext", `${clockText(clock.t)} since the start`);
  parts.play.textContent = clock.playing ? "⏸ Pause" : "▶ Play";
  parts.play.setAttribute("aria-label", clock.playing ? "Pause (Space)" : "Play (Space)");
  parts.play.dataset.playing = clock.playing ? "1" : "";
  parts.speed.value = String(clock.speed);
  for (const [control, disabled] of [["first", clock.t === 0], ["back", clock.t === 0],
    ["forward", clock.t >= data.duration_ms], ["end", clock.t >= data.duration_ms]]) {
    parts.controls.querySelector(`[data-control=${control}]`).disabled = disabled;
  }
}

/** This page's link to a moment of the race: ?race and ?t (ms since the start), nothing else. */
export function momentUrl(raceId, t) {
  const url = new URL(location.pathname, location.origin);
  url.searchParams.set("race", raceId);
  url.searchParams.set("t", String(t));
  return url.toString();
}

function attach(parts, data, clock, share) {
  parts.controls.addEventListener("click", (event) => {
    const control = event.target.closest("[data-control]")?.dataset.control;
    ({ first: () => clock.first(), back: () => clock.back(), play: () => clock.toggle(),
      forward: () => clock.forward(), end: () => clock.end() })[control]?.();
  });
  parts.speed.addEventListener("change", () => clock.setSpeed(parts.speed.value));
  parts.scrub.addEventListener("input", () => clock.seek(parts.scrub.value));
  parts.share.addEventListener("click", () => share(momentUrl(data.race_id, clock.t)));
  const keys = { ArrowLeft: () => clock.back(), ArrowRight: () => clock.forward(), Home: () => clock.first(),
    End: () => clock.end(), " ": () => clock.toggle() };
  document.addEventListener("keydown", (event) => {
    const action = keys[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("select, input:not([type=range]), textarea")) return;
    if (event.target.matches("input[type=range]") && event.key !== " ") return; // the scrub bar's own keys
    event.preventDefault();
    action();
  });
  document.addEventListener("keyup", (event) => {
    if (event.key === " " && event.target.closest("button")) event.preventDefault();
  });
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => renderTime(parts, data, clock, true), 100);
  });
}

/** Load and show the race; `helpers` are the replay page's toast, announce, showProblem and share. */
export async function openRaceReplay(root, raceId, { announce, showProblem, share }) {
  let response;
  let body;
  try {
    [response] = await Promise.all([fetch(`/api/races/${encodeURIComponent(raceId)}/replay`), loadCatalog().catch(() => null)]);
    body = await response.json().catch(() => ({}));
  } catch (error) {
    showProblem("The race replay did not load", String(error.message ?? error), true);
    return;
  }
  if (!response.ok) {
    const titles = { 409: "The race is not over", 404: "No such race", 503: "The server is busy" };
    showProblem(titles[response.status] ?? "The race replay did not load", body.message ?? `HTTP ${response.status}`,
      response.status === 503);
    root.querySelector(".problem").dataset.code = body.code ?? "";
    return;
  }
  const data = body;
  const title = gameInfo(data.game).title;
  document.title = `${title}: race replay · Patience Arena`;
  const parts = skeleton(root, data, title);
  const marks = data.racers.flatMap((racer) => racer.steps.slice(1).map((step) => step.elapsed_ms ?? 0));
  const clock = new RaceClock(marks, data.duration_ms, () => {
    renderTime(parts, data, clock);
    if (!clock.playing) {
      history.replaceState(null, "", momentUrl(data.race_id, clock.t));
      announce(parts.position.textContent);
    }
  });
  const asked = Number(new URLSearchParams(location.search).get("t") ?? 0);
  clock.t = Math.max(0, Math.min(data.duration_ms, Number.isFinite(asked) ? Math.round(asked) : 0));
  attach(parts, data, clock, share);
  renderTime(parts, data, clock, true);
  // Read-only handle for tests and the curious: the data and the clock shown.
  window.raceReplay = { data, clock };
}

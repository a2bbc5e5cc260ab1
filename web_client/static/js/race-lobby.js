// The race lobby: the create form (a game and variant of the daily catalogue, seats, time limit), the
// join-by-code form, and the room before the start: seats and ready states, the join code and link,
// ready / start / leave, and the countdown to the server's start signal (its clock, not this one's).

import { escapeHtml } from "./html.js";
import { createRace, joinByCode, joinLink, joinRace, leaveRace, raceCatalogue, setReady, startRace } from "./race-api.js";
import { serverNow } from "./race-link.js";
import { mountRatings } from "./race-ratings.js";
import { raceTitle, racerHtml, secondsLeft, timeText } from "./race-text.js";

const LIMIT_CHOICES_MIN = [1, 2, 5, 10, 15, 20, 30, 45, 60];

export async function mountCreate(app, { me, toast, errorText, current, go }) {
  const catalogue = await raceCatalogue();
  if (!current()) return () => {};
  const seats = [];
  for (let n = catalogue.min_seats; n <= catalogue.max_seats; n += 1) seats.push(n);
  const limits = LIMIT_CHOICES_MIN.map((m) => m * 60_000)
    .filter((ms) => ms >= catalogue.min_time_limit_ms && ms <= catalogue.max_time_limit_ms);
  app.innerHTML = `
    <section class="race-start">
      <form id="create-race" class="panel">
        <h1>Start a race</h1>
        <p class="hint">Everyone gets the same secret deal at the same signal; the fastest win takes it.</p>
        <label class="field">Game
          <select name="entry">${catalogue.games.map((g, i) => `<option value="${i}">${escapeHtml(g.title)}</option>`).join("")}</select>
        </label>
        <label class="field">Seats
          <select name="seats">${seats.map((n) => `<option ${n === 4 ? "selected" : ""}>${n}</option>`).join("")}</select>
        </label>
        <label class="field">Time limit
          <select name="limit">${limits.map((ms) => `<option value="${ms}" ${ms === catalogue.default_time_limit_ms ? "selected" : ""}>${ms / 60_000} min</option>`).join("")}</select>
        </label>
        <button type="submit" class="primary">Create the race</button>
      </form>
      <form id="join-race" class="panel">
        <h2>Join a race</h2>
        <label class="field">Join code
          <input name="code" required autocomplete="off" autocapitalize="characters" spellcheck="false"
            maxlength="16" placeholder="e.g. KXQDMT">
        </label>
        <button type="submit" class="primary">Join</button>
      </form>
      <section class="panel race-boards" aria-labelledby="ratings-title"></section>
    </section>`;
  mountRatings(app.querySelector(".race-boards"), catalogue, me, { toast, errorText });
  const create = app.querySelector("#create-race");
  create.addEventListener("submit", async (event) => {
    event.preventDefault();
    const entry = catalogue.games[Number(create.elements.entry.value)];
    try {
      const view = await createRace(entry.game, entry.variant, Number(create.elements.seats.value),
        Number(create.elements.limit.value));
      go(`#/r/${encodeURIComponent(view.race_id)}`);
    } catch (error) {
      toast(errorText(error), "error");
    }
  });
  const join = app.querySelector("#join-race");
  join.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const view = await joinByCode(join.elements.code.value.trim());
      go(`#/r/${encodeURIComponent(view.race_id)}`);
    } catch (error) {
      toast(errorText(error), "error");
    }
  });
  return () => {};
}

function seatsHtml(race, me) {
  const taken = race.racers.map((r) => `
    <li class="seat" data-player="${escapeHtml(r.player)}" data-ready="${r.ready}">
      ${racerHtml(r.player, me, race)}
      <span class="badge ${r.ready ? "ready" : "not-ready"}">${r.ready ? "ready" : "not ready"}</span>
    </li>`);
  const open = Array.from({ length: Math.max(0, race.seats - race.racers.length) },
    () => '<li class="seat open"><span class="hint">open seat</span></li>');
  return [...taken, ...open].join("");
}

export function mountLobby(holder, ctx) {
  const { state, me } = ctx;
  holder.innerHTML = `
    <section class="panel race-lobby" aria-labelledby="race-title">
      <h1 id="race-title"></h1>
      <p class="race-meta"></p>
      <div class="race-share">
        <p>Join code <strong class="race-code"></strong>
          <button type="button" data-lobby="copy">Copy the join link</button></p>
        <p class="race-links">The link: <a class="join-link"></a> · Spectators: <a class="watch-link">watch link</a></p>
        <p class="hint">The deal's commitment, revealed with the deal at the end: <code class="race-commitment"></code></p>
      </div>
      <h2>Seats</h2>
      <ol class="race-seats"></ol>
      <p class="race-countdown" aria-live="assertive" hidden>Starting in <strong data-countdown></strong></p>
      <div class="race-actions" role="toolbar" aria-label="Lobby">
        <button type="button" class="primary" data-lobby="ready">Ready</button>
        <button type="button" data-lobby="start">Start now</button>
        <button type="button" data-lobby="leave">Leave</button>
        <button type="button" class="primary" data-lobby="sit">Take a seat</button>
      </div>
      <p class="race-role hint"></p>
    </section>`;
  const el = (selector) => holder.querySelector(selector);
  const mine = () => state.race.racers.find((r) => r.player === me) ?? null;
  const tick = () => {
    const race = state.race;
    if (race?.status !== "countdown" || race.start_at_ms == null) return;
    const left = secondsLeft(race.start_at_ms, serverNow(state));
    const text = left > 0 ? String(left) : "Go!";
    const shown = el("[data-countdown]");
    if (shown.textContent !== text) shown.textContent = text; // (a live region: said once a second, not on every tick)
  };
  const update = () => {
    const race = state.race;
    el("#race-title").textContent = `Race · ${raceTitle(race)}`;
    el(".race-meta").textContent = `${race.racers.length} of ${race.seats} seats · time limit ${timeText(race.time_limit_ms)}`
      + ` · the deal is ${race.check === "exact_solver" ? "proven winnable by the solver" : "not lost as dealt (no solver for this game)"}`;
    el(".race-commitment").textContent = race.commitment;
    el(".race-code").textContent = race.code;
    const link = el(".join-link");
    link.href = race.join_path;
    link.textContent = joinLink(race);
    el(".watch-link").href = `race.html#/r/${encodeURIComponent(race.race_id)}`;
    el(".race-seats").innerHTML = seatsHtml(race, me);
    const seat = mine();
    const lobby = race.status === "lobby";
    const button = (name) => el(`[data-lobby=${name}]`);
    button("ready").hidden = !seat || !lobby;
    button("ready").textContent = seat?.ready ? "Not ready" : "Ready";
    button("ready").dataset.ready = String(Boolean(seat?.ready));
    button("start").hidden = !lobby || race.host !== me;
    button("start").disabled = race.racers.length < 2;
    button("leave").hidden = !seat || !lobby;
    button("sit").hidden = Boolean(seat) || !lobby || race.racers.length >= race.seats;
    el(".race-countdown").hidden = race.status !== "countdown";
    el(".race-role").textContent = seat
      ? (lobby ? "When every seat is ready (two at least), the countdown starts." : "Get ready: your board opens at the signal.")
      : "You are watching: every racer's progress shows, and no card until the end.";
    tick();
  };
  const act = async (name) => {
    const race = state.race;
    try {
      if (name === "ready") await setReady(race.race_id, !mine()?.ready);
      if (name === "start") await startRace(race.race_id);
      if (name === "leave") {
        await leaveRace(race.race_id);
        ctx.go("#/");
      }
      if (name === "sit") {
        await joinRace(race.race_id);
        ctx.resync(); // a new snapshot: this socket now counts as a racer's
      }
      if (name === "copy") {
        if (navigator.clipboard) { // (only on https or localhost)
          await navigator.clipboard.writeText(joinLink(race));
          ctx.toast("The join link is copied.");
        } else {
          getSelection().selectAllChildren(el(".join-link"));
          ctx.toast("Copy the selected link.");
        }
      }
    } catch (error) {
      ctx.toast(ctx.errorText(error), "error");
    }
  };
  el(".race-lobby").addEventListener("click", (event) => {
    const name = event.target.closest("[data-lobby]")?.dataset.lobby;
    if (name) act(name);
  });
  const timer = setInterval(tick, 200);
  return { update, leave: () => clearInterval(timer) };
}

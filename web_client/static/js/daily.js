// The daily hub at the top of the start page: today's challenges (title, preset, commitment, time
// left on the server's clock, my result and rank, Play / Continue / Practice, the leaderboard),
// yesterday's results with the revealed deal once final, and the commitments published ahead.

import { confirmAbandon } from "./abandon.js";
import { currentAccount, openAccountDialog } from "./account.js";
import { attempt, dailies, getGame, leaderboard, practice } from "./api.js";
import { attr, failedText, markBusy, whileBusy } from "./busy.js";
import {
  challengePreset, challengeTitle, checkHtml, commitmentHtml, counts, dayLabel, hoursHtml, installCopy,
  leaderboardHref, mineText, pollDelay, resultText, revealedHtml, serverClock, shortCommitment, startCountdowns,
} from "./challenge.js";
import { ghostButtonHtml, installGhostButtons } from "./ghost.js";
import { escapeHtml } from "./html.js";
import { sentence, toast } from "./notice.js";

const POLL_MS = 60_000;
const PODIUM = 3;

// An account made after a challenge opened plays it as a guest does: unranked, on the guests' deal.
const NEW_ACCOUNT = "Unranked: this challenge opened before your account, so you play the guests' deal.";

const playing = (mine) => mine?.status === "playing" || mine?.status === "guest_playing";

function actionsHtml({ challenge: info, mine, counts: c }) {
  const over = Boolean(mine?.game_id) && !playing(mine);
  const of = escapeHtml(`${challengeTitle(info)} (${challengePreset(info)}), ${dayLabel(info.date)}`);
  const button = (action, label, primary) => `<button type="button" ${primary ? 'class="primary"' : ""}
    data-daily="${action}" aria-label="${label} ${of}">${label}</button>`;
  let main = "";
  if (playing(mine) && info.status !== "final") main = button("play", "Continue", true);
  else if (!mine?.game_id && info.status === "open") main = button("play", "Play", true);
  // Practice on the deal opens at the reveal, not at the end of my attempt: its undo would show every
  // card of a deal others are still playing, to hand on to a second account or a friend.
  else if (info.status === "final") main = button("practice", "Practice", false);
  else if (over) main = `<span class="practice-later">Practice opens at the reveal</span>`;
  return `<div class="daily-actions">${main}${ghostButtonHtml(info, c)}
    <a class="button-link" href="${leaderboardHref(info.challenge)}" aria-label="Leaderboard of ${of}">Leaderboard</a></div>`;
}

function cardHead(info) {
  return `<header><h3>${escapeHtml(challengeTitle(info))}</h3>
    <span class="preset">${escapeHtml(challengePreset(info))}</span>${checkHtml(info)}</header>`;
}

function mineHtml({ challenge: info, mine, counts: c }, game) {
  const status = mine?.status ?? null;
  const open = info.status === "open" || info.status === "scheduled";
  return `<p class="daily-mine" data-mine="${escapeHtml(status ?? "none")}"><span class="label">You:</span>
    <span class="text">${escapeHtml(mineText(status, mine?.rank, game, c.wins, open))}</span></p>${
    mine?.unranked === "new_account" ? `<p class="hint" data-unranked="new_account">${NEW_ACCOUNT}</p>` : ""}`;
}

function todayCard(card, game, now) {
  const info = card.challenge;
  return `<article class="daily-card" data-challenge="${escapeHtml(info.challenge)}" data-status="${escapeHtml(info.status)}">
    ${cardHead(info)}
    ${hoursHtml(info, now)}
    ${mineHtml(card, game)}
    <p class="daily-counts">${escapeHtml(counts(card.counts))}</p>
    ${commitmentHtml(info.commitment)}
    ${actionsHtml(card)}
  </article>`;
}

function podiumHtml(rows) {
  if (!rows?.length) return '<p class="hint">No verified win.</p>';
  return `<ol class="podium">${rows.map(({ rank, entry }) => `<li><span class="rank">${rank}</span>
    ${escapeHtml(entry.name ?? "a player")} · ${escapeHtml(resultText("won", entry.moves, entry.time_ms))}</li>`).join("")}</ol>`;
}

function pastCard(card, game, rows, now) {
  const info = card.challenge;
  return `<article class="daily-card past" data-challenge="${escapeHtml(info.challenge)}" data-status="${escapeHtml(info.status)}">
    ${cardHead(info)}
    ${hoursHtml(info, now)}
    <p class="daily-counts">${escapeHtml(counts(card.counts))}</p>
    ${podiumHtml(rows)}
    ${mineHtml(card, game)}
    ${commitmentHtml(info.commitment)}
    ${revealedHtml(info)}
    ${actionsHtml(card)}
  </article>`;
}

function upcomingHtml(list) {
  if (!list.length) return "";
  return `<details class="upcoming">
    <summary>Commitments published ahead (${list.length})</summary>
    <ul>${list.map((info) => `<li data-challenge="${escapeHtml(info.challenge)}">
      <span class="date">${escapeHtml(dayLabel(info.date))}</span>
      <span>${escapeHtml(challengeTitle(info))} · ${escapeHtml(challengePreset(info))}</span>
      <span class="commitment"><code title="${escapeHtml(info.commitment)}">${escapeHtml(shortCommitment(info.commitment))}</code>
        <button type="button" class="copy" data-copy="${escapeHtml(info.commitment)}" aria-label="Copy the commitment">Copy</button></span>
    </li>`).join("")}</ul>
    <p class="hint">Each deal is fixed now; its seed is revealed after its day, and anyone can check it against this.</p>
  </details>`;
}

function guestNote() {
  if (currentAccount()?.name) return "";
  // Guests (and accounts made after a challenge opened) get a deal of their own, never the ranked one:
  // a throwaway identity would otherwise let anyone look at the ranked deal before playing it for real.
  return `<p class="guest-note">As a guest you play each daily unranked, on a guests' deal (not the ranked one).
    <button type="button" class="link" data-daily="sign-up">Sign up</button> to be ranked from the next challenge on
    (one already open stays unranked, on the guests' deal). Your games come with you.</p>`;
}

/** My attempts' summaries (moves, time) by game id, and yesterday's podiums by challenge, fetched together. */
async function details(body) {
  const cards = [...body.today.challenges, ...body.yesterday.challenges];
  const games = await Promise.all(cards.map((c) => (c.mine?.game_id ? getGame(c.mine.game_id).catch(() => null) : null)));
  const podiums = await Promise.all(body.yesterday.challenges.map(
    (c) => leaderboard(c.challenge.challenge, 0, PODIUM).then((b) => b.page.rows).catch(() => null)));
  return {
    games: new Map(cards.map((c, i) => [c.challenge.challenge, games[i]])),
    podiums: new Map(body.yesterday.challenges.map((c, i) => [c.challenge.challenge, podiums[i]])),
  };
}

/** What a redraw would lose: whether the commitments ahead are unfolded, and which button had the focus. */
function viewState(section) {
  const focused = section.contains(document.activeElement) ? document.activeElement : null;
  const card = focused?.closest("[data-challenge]")?.dataset.challenge;
  const control = focused?.dataset.daily ? `[data-daily="${focused.dataset.daily}"]` : focused?.matches(".copy") ? ".copy" : null;
  return { ahead: section.querySelector("details.upcoming")?.open ?? false, card, control };
}

function restore(section, { ahead, card, control }) {
  const details = section.querySelector("details.upcoming");
  if (details) details.open = ahead;
  if (card && control) {
    const holder = [...section.querySelectorAll("[data-challenge]")].find((el) => el.dataset.challenge === card);
    holder?.querySelector(control)?.focus({ preventScroll: true });
  }
}

function render(section, body, { games, podiums }) {
  const kept = viewState(section);
  const now = body.today.now_ms;
  const today = body.today.challenges;
  const yesterday = body.yesterday.challenges;
  section.innerHTML = `
    <div class="daily-head"><h1 id="daily-title">Today's challenges</h1>
      <span class="date">${escapeHtml(dayLabel(body.today.date))} (UTC)</span></div>
    ${guestNote()}
    <div class="daily-cards" data-day="today">${today.length
      ? today.map((c) => todayCard(c, games.get(c.challenge.challenge), now)).join("")
      : '<p class="hint">No daily challenge today.</p>'}</div>
    ${yesterday.length ? `<h2 class="daily-sub">Yesterday <span class="date">${escapeHtml(dayLabel(body.yesterday.date))}</span></h2>
      <div class="daily-cards" data-day="yesterday">${yesterday.map((c) =>
        pastCard(c, games.get(c.challenge.challenge), podiums.get(c.challenge.challenge), now)).join("")}</div>` : ""}
    ${upcomingHtml(body.upcoming)}`;
  markBusy(section); // a poll drew the cards again while a Play was out: that button stays busy
  restore(section, kept);
}

/** Start the attempt or the practice game and open it; true when the page is leaving for it. */
async function act(action, card) {
  const key = card.dataset.challenge;
  const title = card.querySelector("h3")?.textContent ?? "";
  if (action === "play") {
    const game = await attempt(key);
    // A named account made after the challenge opened is answered an unranked attempt: say so once.
    if (currentAccount()?.name && game.ranked === false) toast(NEW_ACCOUNT);
    location.hash = `#/play/${encodeURIComponent(game.id)}`;
    return true;
  }
  if (action === "practice") {
    if (!(await confirmAbandon(`practice on the daily ${title}`))) return false;
    const game = await practice(key);
    location.hash = `#/play/${encodeURIComponent(game.id)}`;
    return true;
  }
  return false;
}

const FAILED = { play: "Your attempt did not start", practice: "The practice game did not start" };

/** Draw the hub into `section` and keep it current; returns the function that stops it. */
export function mountDailyHub(section) {
  let stopCountdowns = () => {};
  let poll = null;
  let stopped = false;
  const shownSince = performance.now();
  const load = async () => {
    clearTimeout(poll);
    let body;
    let extra;
    try {
      body = await dailies();
      extra = await details(body);
    } catch (error) {
      if (stopped) return;
      section.innerHTML = `<h1 id="daily-title">Today's challenges</h1><p class="reason"></p>
        <p><button type="button" data-daily="retry">Try again</button></p>`;
      section.querySelector(".reason").textContent = `The daily challenges could not be loaded: ${sentence(error.message)}`;
      return;
    }
    if (stopped) return;
    render(section, body, extra);
    stopCountdowns();
    stopCountdowns = startCountdowns(section, serverClock(body.today.now_ms), load);
    const statuses = [...body.today.challenges, ...body.yesterday.challenges].map((c) => c.mine?.status);
    poll = setTimeout(load, pollDelay(statuses, POLL_MS, shownSince));
  };
  installCopy(section);
  installGhostButtons(section);
  section.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-daily]");
    if (!button) return;
    const action = button.dataset.daily;
    if (action === "retry") return load();
    if (action === "sign-up") return openAccountDialog("sign-up");
    const card = button.closest("[data-challenge]");
    // The card's key and the action name the button again after a redraw (busy.js).
    const selector = `.daily-card${attr("data-challenge", card.dataset.challenge)} ${attr("data-daily", action)}`;
    try {
      await whileBusy(section, selector, () => act(action, card));
    } catch (error) {
      toast(failedText(FAILED[action] ?? "That did not work", error), "error");
    }
  });
  load();
  return { reload: load, leave: () => { stopped = true; clearTimeout(poll); stopCountdowns(); } };
}

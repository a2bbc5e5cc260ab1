// What the daily hub and the leaderboard page both say about a challenge: its name (title from the
// catalogue, the preset's name), its hours against the server's clock, the commitment with a copy
// button, the player's own standing, and the revealed deal once the day is final.

import { gameInfo, presetTitle } from "./games.js";
import { escapeHtml } from "./html.js";
import { toast } from "./notice.js";
import { formatTime } from "./render.js";

export const leaderboardHref = (key) => `leaderboard.html?challenge=${encodeURIComponent(key)}`;

export const challengeTitle = (info) => gameInfo(info.game).title;
export const challengePreset = (info) => presetTitle(info.game, info.variant);

/** "Mon 14 Mar" for a challenge's date (a UTC day). */
export function dayLabel(date) {
  const day = new Date(`${date}T00:00:00Z`);
  return day.toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
}

/** The server's "now", ticking locally from the `now_ms` of its last answer (every time that counts is the server's). */
export function serverClock(nowMs) {
  const offset = nowMs - Date.now();
  return () => Date.now() + offset;
}

/** What the hours say now: [label, the time counted down to, or null]. */
export function hoursOf(info) {
  if (info.status === "scheduled") return ["Opens in", info.opens_at_ms];
  if (info.status === "open") return ["Closes in", info.closes_at_ms];
  if (info.status === "closed") return ["Closed · results final in", info.final_at_ms];
  return ["Final: every result is in", null];
}

export const countdownText = (ms) => formatTime(Math.max(0, ms));

export function hoursHtml(info, now) {
  const [label, until] = hoursOf(info);
  const count = until === null ? "" : ` <strong class="countdown" data-countdown="${escapeHtml(until)}"
    data-running="${until > now ? "yes" : "no"}">${countdownText(until - now)}</strong>`;
  return `<p class="daily-time" data-hours="${escapeHtml(info.status)}">${escapeHtml(label)}${count}</p>`;
}

/** `check: weak` beside a challenge whose deal was only checked not lost as dealt (a server setting lets a
 * day fall back to that when the solver could not prove a deal winnable); nothing for a proven deal. */
export function checkHtml(info) {
  if (info.check !== "weak") return "";
  const why = "This day's deal was not proven winnable";
  // The title for a pointer, the hidden words for a screen reader (a title alone is often not read out).
  return `<span class="badge check-weak" data-check="weak" title="${why}">check: weak<span
    class="visually-hidden">: ${why.toLowerCase()}</span></span>`;
}

export const shortCommitment = (text) => `${String(text).slice(0, 12)}…`;

/** The commitment, short, with its full text in the title and a button that copies all of it. */
export function commitmentHtml(commitment, label = "Commitment") {
  const full = escapeHtml(commitment);
  return `<p class="commitment"><span class="label">${escapeHtml(label)}</span>
    <code title="${full}" data-commitment="${full}">${escapeHtml(shortCommitment(commitment))}</code>
    <button type="button" class="copy" data-copy="${full}" aria-label="Copy the ${escapeHtml(label.toLowerCase())}">Copy</button></p>`;
}

/** One click handler for every [data-copy] button under `root`. */
export function installCopy(root) {
  root.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    try {
      await navigator.clipboard.writeText(button.dataset.copy);
      toast("Copied.");
    } catch {
      // No clipboard (an insecure page, or refused): select the text so the player can copy it.
      const code = button.parentElement.querySelector("code");
      if (code) {
        code.textContent = button.dataset.copy;
        getSelection().selectAllChildren(code);
      }
      toast("Selected: copy it with Ctrl+C.");
    }
  });
}

/** Tick every [data-countdown] under `root`; `onZero` once one of them crosses zero while shown (one
 * already at zero does not fire again, so a page that reloads on it waits for its regular poll). */
export function startCountdowns(root, now, onZero) {
  let fired = false;
  const timer = setInterval(() => {
    for (const el of root.querySelectorAll("[data-countdown]")) {
      const left = Number(el.dataset.countdown) - now();
      const wasRunning = el.dataset.running !== "no";
      el.textContent = countdownText(left);
      el.dataset.running = left > 0 ? "yes" : "no";
      if (left <= 0 && wasRunning && !fired) {
        fired = true;
        onZero();
      }
    }
  }, 1000);
  return () => clearInterval(timer);
}

const POLL_SOON_MS = 3000;
const SOON_AFTER_OPEN_MS = 60_000;

/** How long a board page waits before it looks again, given my statuses on the boards it shows: soon
 * while a win of mine is being checked, and soon in the page's first minute while an attempt of mine
 * still shows as in play. A game just won reaches its board a moment after the last move, so a page
 * opened from the end dialog may first see it in play; without this it would say so until the slow
 * poll. Past that minute an attempt in play is one being played elsewhere: the slow poll will do.
 * `shownSince` is the performance.now() at which the page (or the hub, in the single-page app) was shown. */
export function pollDelay(statuses, slowMs, shownSince) {
  if (statuses.includes("pending")) return POLL_SOON_MS;
  const inPlay = statuses.some((status) => status === "playing" || status === "guest_playing");
  return inPlay && performance.now() - shownSince < SOON_AFTER_OPEN_MS ? POLL_SOON_MS : slowMs;
}

const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** A finished game's result, from its summary or its board entry: "Won in 27 moves, 1:02". */
export function resultText(result, moves, timeMs) {
  const time = timeMs == null ? "" : `, ${formatTime(timeMs)}`;
  if (result === "won") return `Won in ${plural(moves, "move")}${time}`;
  if (result === "lost") return `No moves left after ${plural(moves, "move")}`;
  if (result === "abandoned") return `Resigned after ${plural(moves, "move")}`;
  return `${plural(moves, "move")} so far`;
}

/**
 * My part, as words: `status` is the board's (playing, pending, verified, rejected, lost, abandoned,
 * guest_playing, guest_done), `game` my attempt's summary when known, `wins` the verified wins,
 * `open` whether the challenge can still be played.
 */
export function mineText(status, rank, game, wins, open = true) {
  const result = game ? resultText(game.status === "in_progress" ? null : game.status, game.moves, game.elapsed_ms) : "";
  switch (status) {
    case null: case undefined: return open ? "Not played yet" : "Not played";
    case "playing": return `In play: ${result}`;
    // A guest's, or an account's made after the challenge opened: both unranked, on the guests' deal.
    case "guest_playing": return `In play, unranked: ${result}`;
    case "guest_done": return `${result || "Played"} · unranked`;
    case "pending": return `${result || "Won"} · checking`;
    case "verified": return `${result || "Won"} · rank ${rank} of ${plural(wins, "win")}`;
    case "rejected": return "Your win was not accepted by the replay check";
    default: return result || ({ lost: "Lost", abandoned: "Resigned" }[status] ?? status);
  }
}

export const counts = (c) => [
  plural(c.players, "player"), plural(c.wins, "win"),
  ...(c.pending ? [`${c.pending} checking`] : []), ...(c.playing ? [`${c.playing} playing`] : []),
  ...(c.guests ? [plural(c.guests, "guest")] : []),
].join(" · ");

/** The revealed deal (seed, counter, salt) of a final challenge, and how anyone checks it. */
export function revealedHtml(info) {
  if (info.seed == null) return '<p class="hint" data-revealed="none">The deal\'s seed is revealed once the day is final.</p>';
  const check = `arena verify-daily ${info.date} --server ${location.origin}`;
  return `<dl class="revealed">
      <dt>Seed</dt><dd><code data-revealed="seed">${escapeHtml(info.seed)}</code></dd>
      <dt>Counter</dt><dd><code data-revealed="counter">${escapeHtml(info.counter)}</code></dd>
      <dt>Salt</dt><dd><code data-revealed="salt">${escapeHtml(info.salt)}</code></dd>
    </dl>
    <p class="hint">Check the seed against the commitment: <code>${escapeHtml(check)}</code></p>`;
}

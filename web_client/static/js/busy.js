// A button that asks the server for a new game is busy from the click until the answer: disabled and
// aria-busy, and a second click meanwhile starts nothing. Two requests in flight could each make a game
// (a daily attempt raced against itself), so the guard is a set of requests in flight, not only the
// button's `disabled`: a scripted click, or a click on the same button drawn again by a poll while the
// first request is out, is refused too.

import { ApiError } from "./api.js";
import { sentence } from "./notice.js";
import { LinkRefusal } from "./socket.js";

const inFlight = new Set(); // selectors of the buttons whose request is out

function mark(root, selector, busy) {
  for (const button of root.querySelectorAll(selector)) {
    button.disabled = busy;
    if (busy) button.setAttribute("aria-busy", "true");
    else button.removeAttribute("aria-busy");
  }
}

/**
 * Run `work` for the button(s) under `root` matching `selector`, unless one is already running (then
 * nothing, and false). `work` resolves true when the page is leaving for the new game: the button then
 * stays busy, so nothing can be clicked again before the page goes. Otherwise (nothing started, or an
 * error, which is thrown on for the caller to show) the button is enabled again.
 */
export async function whileBusy(root, selector, work) {
  if (inFlight.has(selector)) return false;
  inFlight.add(selector);
  mark(root, selector, true);
  let leaving = false;
  try {
    leaving = Boolean(await work());
    return leaving;
  } finally {
    if (leaving) afterLeaving(root, selector);
    else release(root, selector);
  }
}

function release(root, selector) {
  inFlight.delete(selector);
  mark(root, selector, false);
}

const LEAVE_MS = 5000;

/** Busy until the page has gone, or LEAVE_MS later if it never did (then it works again). The
 * single-page app keeps this module across routes, so the guard ends on the route's change; the old
 * buttons stay disabled while the next route loads over them. A document left for another (pagehide)
 * has its buttons enabled, for the back button may show it again from the browser's cache. */
function afterLeaving(root, selector) {
  const done = (enable) => {
    clearTimeout(timer);
    window.removeEventListener("hashchange", routed);
    window.removeEventListener("pagehide", hidden);
    if (enable) release(root, selector);
    else inFlight.delete(selector);
  };
  const routed = () => done(false);
  const hidden = () => done(true);
  const timer = setTimeout(hidden, LEAVE_MS);
  window.addEventListener("hashchange", routed);
  window.addEventListener("pagehide", hidden);
}

/** After `root` is drawn again: its buttons whose request is still out are shown busy again. */
export function markBusy(root) {
  for (const selector of inFlight) mark(root, selector, true);
}

/** A CSS attribute selector for `value` (challenge keys hold "/", "=" and ","). */
export const attr = (name, value) => `[${name}="${CSS.escape(String(value))}"]`;

/** The toast after a start failed: what did not start, and the server's reason (over HTTP or the socket),
 * or that it was out of reach. */
export function failedText(what, error) {
  const why = error instanceof ApiError || error instanceof LinkRefusal ? sentence(error.message)
    : error instanceof TypeError ? "The server could not be reached; try again." : sentence(String(error));
  return `${what}: ${why}`;
}

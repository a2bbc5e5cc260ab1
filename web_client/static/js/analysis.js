// The solver's review of a replay, as the server sent it: a strip with one cell per step (still
// winnable, no longer winnable, not decided), the point of no return marked, and a summary in words.
// Every verdict is the server's; nothing here judges a position.

import { escapeHtml } from "./html.js";
import { describeMove } from "./moves.js";

export const VERDICT_TEXT = {
  winnable: "still winnable",
  unwinnable: "no longer winnable",
  unknown: "not decided within the solver's budget",
};

/** Fill the strip: one cell per step, `data-step` on each (a click on one seeks there). */
export function renderStrip(strip, analysis) {
  strip.replaceChildren();
  if (!analysis) return;
  const cells = analysis.verdicts.map((verdict, step) => {
    const cell = document.createElement("span");
    cell.className = `cell v-${verdict}`;
    cell.dataset.step = step;
    cell.title = `${step === 0 ? "The deal" : `After move ${step}`}: ${VERDICT_TEXT[verdict] ?? verdict}`;
    if (analysis.point_of_no_return === "found" && step === analysis.lost_at) cell.classList.add("no-return");
    return cell;
  });
  strip.append(...cells);
  const counts = Object.entries(VERDICT_TEXT)
    .map(([verdict, text]) => [analysis.verdicts.filter((v) => v === verdict).length, text])
    .filter(([n]) => n > 0)
    .map(([n, text]) => `${n} ${n === 1 ? "position" : "positions"} ${text}`);
  strip.setAttribute("aria-label", `Winnable after each move: ${counts.join(", ")}`);
}

/** Mark the strip's cell of the step shown. */
export function markStripStep(strip, step) {
  strip.querySelector(".cell.current")?.classList.remove("current");
  strip.querySelector(`.cell[data-step="${step}"]`)?.classList.add("current");
}

/** The summary paragraph's HTML: the point of no return (with a button to go there), or why there is none. */
export function summaryHtml(data) {
  const analysis = data.analysis;
  if (!analysis) {
    return `<p>No analysis: ${escapeHtml(data.analysis_note ?? "this game has no solver")}.</p>`;
  }
  const parts = [];
  const found = analysis.point_of_no_return;
  if (found === "found") {
    const step = data.steps[analysis.lost_at];
    parts.push(`<p class="no-return-text"><strong>Point of no return: move ${analysis.lost_at}</strong>
      (${escapeHtml(describeMove(step).text)}). Before it the game could still be won; after it, no line wins.
      <button type="button" data-seek="${analysis.lost_at}">Go to move ${analysis.lost_at}</button></p>`);
  } else if (found === "deal") {
    parts.push("<p>This deal could not be won from the start: no move is to blame.</p>");
  } else if (found === "never" && data.status !== "won") {
    parts.push("<p>Still winnable at the end: a winning line was left when the game stopped.</p>");
  } else if (found === "unknown") {
    parts.push(`<p>The solver could not decide every position within its budget
      (${escapeHtml(analysis.nodes.toLocaleString("en"))} search nodes), so no point of no return is shown.</p>`);
  }
  if (data.status === "won") {
    const shortest = analysis.shortest_line;
    parts.push(`<p class="won-text">Won in <strong>${escapeHtml(data.moves)} moves</strong>${shortest == null ? ""
      : `; the shortest winning line the solver knows: <strong>${escapeHtml(shortest)} moves</strong>`}.</p>`);
  }
  return parts.join("");
}

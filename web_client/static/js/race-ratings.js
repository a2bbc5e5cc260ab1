// The race rating boards on the race start page: one game and variant at a time (the race catalogue's
// entries), best first by the conservative rating, each with its uncertainty and provisional mark, as
// GET /api/ratings/{game} ranks them. Ratings are the server's projection of race results.

import { request } from "./api.js";
import { escapeHtml } from "./html.js";
import { learnNames, racerName } from "./race-text.js";

const BOARD_SIZE = 20;

const boardOf = (entry) =>
  request("GET", `/api/ratings/${encodeURIComponent(entry.game)}?variant=${encodeURIComponent(entry.variant_text)}&limit=${BOARD_SIZE}`);

function rowsHtml(rows, me) {
  if (!rows.length) return '<tr><td colspan="4" class="hint">No rated race yet.</td></tr>';
  return rows.map((r) => `
    <tr data-player="${escapeHtml(r.player)}"${r.player === me ? ' class="me"' : ""}>
      <td data-label="Place">${r.place}</td>
      <td data-label="Racer" title="${escapeHtml(r.player)}">${escapeHtml(racerName(r.player, me))}</td>
      <td data-label="Rating">${r.rating.toFixed(2)} <span class="sigma">±${r.sigma.toFixed(1)}</span>
        ${r.provisional ? '<span class="badge provisional">provisional</span>' : ""}</td>
      <td data-label="Races">${r.races}</td>
    </tr>`).join("");
}

/** The boards' panel into `panel`, the first catalogue entry shown. */
export function mountRatings(panel, catalogue, me, { toast, errorText }) {
  panel.innerHTML = `
    <h2 id="ratings-title">Race ratings</h2>
    <label class="field">Board
      <select name="board">${catalogue.games.map((g, i) => `<option value="${i}">${escapeHtml(g.title)}</option>`).join("")}</select>
    </label>
    <div class="table-scroll"><table class="race-standings race-ratings" aria-labelledby="ratings-title">
      <thead><tr><th>Place</th><th>Racer</th><th>Rating</th><th>Races</th></tr></thead><tbody></tbody>
    </table></div>
    <p class="hint">A rating is mu − 3 sigma: it rises as the uncertainty (±) shrinks; provisional for the first 10 races.</p>`;
  const menu = panel.querySelector("select[name=board]");
  const show = async () => {
    const entry = catalogue.games[Number(menu.value)];
    try {
      const rows = await boardOf(entry);
      await learnNames(rows.map((r) => r.player));
      if (catalogue.games[Number(menu.value)] !== entry) return; // another board was chosen meanwhile
      panel.querySelector("tbody").innerHTML = rowsHtml(rows, me);
      panel.dataset.board = `${entry.game}/${entry.variant_text}`;
    } catch (error) {
      toast(errorText(error), "error");
    }
  };
  menu.addEventListener("change", show);
  show();
}

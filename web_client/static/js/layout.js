// How big the cards are and how far apart the columns stand, from the board's width alone. Side by side
// when the cards can stay a comfortable size; on a narrow screen (a 360 px phone) the columns overlap
// instead, each covering the right-hand part of the one before, so the cards stay big enough to read
// and the top-left index of every card stays in sight. Sizes go to CSS as custom properties.

const GAP = 0.16; // space between columns side by side, in card widths
const SIDE_BY_SIDE_MIN = 46; // px: a narrower card would be hard to read, so columns overlap instead
const SHOWN = 0.64; // overlapping: the part of a card the next column leaves in sight (rank and suit)
const MIN_CARD = 30;
const MAX_CARD = 104;
const MAX_OVERLAPPED = 72; // overlapping cards wider than this would leave the screen's height short

/** `{cw, step, overlap}`: card width and the step from a column's left edge to the next one's, px. */
export function geometry(width, columns) {
  const n = Math.max(1, columns);
  const side = Math.floor(width / (n + (n + 1) * GAP));
  if (side >= SIDE_BY_SIDE_MIN) {
    const cw = Math.min(MAX_CARD, side);
    return { cw, step: cw * (1 + GAP), overlap: false };
  }
  const cw = Math.max(MIN_CARD, Math.min(MAX_OVERLAPPED, Math.floor(width / (1 + (n - 1) * SHOWN))));
  const step = n > 1 ? Math.min(cw * (1 + GAP), (width - cw) / (n - 1)) : cw;
  return { cw, step, overlap: true };
}

/**
 * The board's geometry for a tableau of `tableau` columns under a top row `topUnits` cards wide (a
 * waste counts 1.6). Where everything fits side by side the top row sets the width too; where the
 * columns must overlap, the tableau alone does and the top row's right-hand group wraps below.
 */
export function boardGeometry(board, tableau, topUnits) {
  const width = Math.max(200, (board.clientWidth || window.innerWidth) - 4);
  let columns = Math.max(tableau, Math.ceil(topUnits), 4);
  let g = geometry(width, columns);
  if (g.overlap) g = geometry(width, (columns = Math.max(tableau, 4)));
  const ch = Math.round(g.cw * 1.4);
  const gap = g.step - g.cw; // negative when the columns overlap
  const tableWidth = g.overlap ? (columns - 1) * g.step + g.cw : columns * g.step + gap;
  board.style.setProperty("--cw", `${g.cw}px`);
  board.style.setProperty("--ch", `${ch}px`);
  board.style.setProperty("--col-gap", `${gap.toFixed(2)}px`);
  board.style.setProperty("--table-w", `${Math.ceil(tableWidth) + 2}px`);
  board.classList.toggle("overlapped", g.overlap);
  return { cw: g.cw, ch };
}

// Blocking renderer for arena's viewer: the 13x13 board with every piece outlined in its
// player's colour, the piece just placed highlighted, and per player the score and the
// shapes still in hand.
function render(view, host, ctx) {
  const C = 30, X0 = 12, Y0 = 12, N = view.board.length, BOARD = N * C;
  const MINI = 7, SIDE_X = X0 + BOARD + 22, SIDE_W = 330;
  const seats = view.scores.length;
  const rowH = 40 + Math.ceil(view.letters.length / 9) * 40;
  const width = SIDE_X + SIDE_W, height = Math.max(Y0 * 2 + BOARD, 10 + seats * rowH);
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">`];
  const tint = (seat) => ctx.colors[seat % ctx.colors.length];

  out.push(`<rect x="${X0}" y="${Y0}" width="${BOARD}" height="${BOARD}" fill="#fff" stroke="#9aa3b2"/>`);
  for (let i = 1; i < N; i++) {
    out.push(`<path d="M${X0 + i * C} ${Y0}v${BOARD}M${X0} ${Y0 + i * C}h${BOARD}" stroke="#e3e6eb"/>`);
  }
  // Each player's starting corner: seat 0 top-left, 1 bottom-right, 2 bottom-left, 3 top-right.
  const corners = [[0, 0], [N - 1, N - 1], [0, N - 1], [N - 1, 0]];
  for (let s = 0; s < seats; s++) {
    const [cx, cy] = corners[s];
    out.push(`<circle cx="${X0 + cx * C + C / 2}" cy="${Y0 + cy * C + C / 2}" r="5" fill="${tint(s)}" opacity=".5"/>`);
  }
  // The game's highlight names the shape placed last; it is marked on the step that placed it.
  const justPlaced = ctx.step && ctx.step.actions && Object.keys(ctx.step.actions).length > 0;
  const placed = (view.highlight || []).find((h) => h.kind === "placed");
  const key = (cells) => cells.map(([x, y]) => `${x},${y}`).sort().join(" ");
  const lastKey = placed ? key(placed.cells) : null;
  view.pieces.forEach(([seat, letter, cells], i) => {
    const last = justPlaced && lastKey !== null && key(cells) === lastKey;
    const mine = new Set(cells.map(([x, y]) => `${x},${y}`));
    for (const [x, y] of cells) {
      out.push(`<rect data-owner="${seat}" x="${X0 + x * C}" y="${Y0 + y * C}" width="${C}" height="${C}" ` +
        `fill="${tint(seat)}" opacity="${last ? 1 : 0.8}"/>`);
    }
    // The piece's outline: the cell edges not shared with another of its cells.
    const edges = [];
    for (const [x, y] of cells) {
      const px = X0 + x * C, py = Y0 + y * C;
      if (!mine.has(`${x},${y - 1}`)) edges.push(`M${px} ${py}h${C}`);
      if (!mine.has(`${x},${y + 1}`)) edges.push(`M${px} ${py + C}h${C}`);
      if (!mine.has(`${x - 1},${y}`)) edges.push(`M${px} ${py}v${C}`);
      if (!mine.has(`${x + 1},${y}`)) edges.push(`M${px + C} ${py}v${C}`);
    }
    out.push(`<path d="${edges.join("")}" fill="none" stroke="${last ? "#111" : "#fff"}" ` +
      `stroke-width="${last ? 4 : 2}"${last ? ' data-last="1"' : ""}/>`);
    const [lx, ly] = cells[0];
    out.push(`<text x="${X0 + lx * C + C / 2}" y="${Y0 + ly * C + C / 2 + 5}" font-size="13" ` +
      `font-weight="700" fill="#fff" text-anchor="middle">${ctx.esc(letter)}</text>`);
  });

  for (let s = 0; s < seats; s++) {
    const y0 = 10 + s * rowH;
    const status = view.forfeited[s] ? " · forfeited" : view.out[s] ? " · out" : "";
    const turn = view.current === s ? " · to play" : "";
    out.push(`<rect x="${SIDE_X}" y="${y0}" width="6" height="${rowH - 10}" fill="${tint(s)}"/>`);
    out.push(`<text x="${SIDE_X + 14}" y="${y0 + 15}" font-size="14" font-weight="600">` +
      `${ctx.esc(ctx.players[s] || `seat ${s}`)}</text>`);
    out.push(`<text x="${SIDE_X + SIDE_W - 4}" y="${y0 + 15}" font-size="13" text-anchor="end" data-score="${s}">` +
      `${view.scores[s]} squares${status}${turn}</text>`);
    // Shapes in hand, drawn small; the ones already played are left out.
    [...view.remaining[s]].forEach((letter, i) => {
      const sx = SIDE_X + 14 + (i % 9) * 35, sy = y0 + 26 + Math.floor(i / 9) * 40;
      for (const [x, y] of view.shapes[letter] || []) {
        out.push(`<rect data-hand="${s}" x="${sx + x * MINI}" y="${sy + y * MINI}" width="${MINI - 1}" ` +
          `height="${MINI - 1}" fill="${tint(s)}"/>`);
      }
    });
  }
  out.push("</svg>");
  host.innerHTML = out.join("");
}

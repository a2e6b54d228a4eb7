// 5x5 ability chess renderer for arena's viewer: the board (row 0, white's home, on top),
// blocked setup squares, the last move, shields, the fog a side plays under (the squares
// it cannot see are hatched), and each side's abilities, used or left.
function render(view, host, ctx) {
  const C = 66, X0 = 28, Y0 = 40, N = view.board.length, BOARD = N * C, SIDE_X = X0 + BOARD + 24;
  const width = SIDE_X + 270, height = Y0 + BOARD + 34;
  const GLYPHS = { K: "♚", Q: "♛", R: "♜", B: "♝", P: "♟" };
  const NAMES = ["white", "black"];
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">`,
    `<defs><pattern id="fog" width="8" height="8" patternUnits="userSpaceOnUse" ` +
    `patternTransform="rotate(45)"><rect width="8" height="8" fill="rgba(70,80,100,.30)"/>` +
    `<line x1="0" y1="0" x2="0" y2="8" stroke="rgba(255,255,255,.45)" stroke-width="3"/></pattern></defs>`];
  const sq = (r, c) => [X0 + c * C, Y0 + r * C];

  let status;
  if (view.over) status = view.winner ? `${view.winner} wins: ${view.reason}` : `draw: ${view.reason}`;
  else if (view.phase === "setup") status = `setup step ${view.setupStep}, ${view.toMove} to place`;
  else status = `ply ${view.ply + 1}, ${view.toMove} to move`;
  out.push(`<text x="${X0}" y="24" font-size="15" font-weight="600" data-status="1">${ctx.esc(status)}</text>`);

  // The game's highlight: the last move's from and to squares, or the square just placed on.
  const mark = (view.highlight || []).find((h) => h.kind === "move" || h.kind === "placed");
  const move = mark && mark.kind === "move" ? { frm: mark.cells[0], to: mark.cells[1] } : null;
  const marked = new Set(mark ? mark.cells.map(([r, c]) => `${r},${c}`) : []);
  const blocked = new Set(view.blockedTiles.map(([r, c]) => `${r},${c}`));
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      const [x, y] = sq(r, c);
      let fill = (r + c) % 2 ? "#b58863" : "#f0d9b5";
      if (marked.has(`${r},${c}`)) fill = (r + c) % 2 ? "#c9b03c" : "#f3e27a";
      const lit = marked.has(`${r},${c}`) ? ` data-highlight="${mark.kind}"` : "";
      out.push(`<rect x="${x}" y="${y}" width="${C}" height="${C}" fill="${fill}"${lit}/>`);
      if (blocked.has(`${r},${c}`)) {
        out.push(`<rect data-blocked="1" x="${x + 6}" y="${y + 6}" width="${C - 12}" height="${C - 12}" ` +
          `fill="#333" rx="4"/><path d="M${x + 16} ${y + 16}L${x + C - 16} ${y + C - 16}M${x + C - 16} ${y + 16}` +
          `L${x + 16} ${y + C - 16}" stroke="#eee" stroke-width="4"/>`);
      }
    }
  }
  for (let i = 0; i < N; i++) {
    out.push(`<text x="${X0 - 12}" y="${Y0 + i * C + C / 2 + 5}" font-size="12" fill="#666" ` +
      `text-anchor="middle">${i}</text>`);
    out.push(`<text x="${X0 + i * C + C / 2}" y="${Y0 + BOARD + 16}" font-size="12" fill="#666" ` +
      `text-anchor="middle">${i}</text>`);
  }
  // Shields: effects against colour c name the opponent's piece c may not capture.
  for (let c = 0; c < 2; c++) {
    for (const [name, left, target] of view.abilitiesActivated[c]) {
      if (name !== "shield" || left <= 0 || !target) continue;
      const [x, y] = sq(target[0], target[1]);
      out.push(`<rect data-shield="1" x="${x + 3}" y="${y + 3}" width="${C - 6}" height="${C - 6}" rx="10" ` +
        `fill="none" stroke="#1e88e5" stroke-width="5"/>`);
    }
  }
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      const piece = view.board[r][c];
      if (!piece || piece === "F") continue;
      const [x, y] = sq(r, c), white = piece[0] === "W";
      out.push(`<text data-piece="${piece}" x="${x + C / 2}" y="${y + C / 2 + 17}" font-size="50" ` +
        `text-anchor="middle" font-family="DejaVu Sans, Segoe UI Symbol, sans-serif" ` +
        `fill="${white ? "#fff" : "#111"}" stroke="${white ? "#111" : "#fff"}" stroke-width="1.2">` +
        `${GLYPHS[piece[1]] || piece[1]}</text>`);
    }
  }
  // Fog: hatch what the fogged side cannot see (its state.json shows those squares as fog).
  const fogged = [];
  view.fog.forEach((hidden, c) => {
    if (!hidden) return;
    fogged.push(NAMES[c]);
    for (const [r, cc] of hidden) {
      const [x, y] = sq(r, cc);
      out.push(`<rect data-fog="${c}" x="${x}" y="${y}" width="${C}" height="${C}" fill="url(#fog)"/>`);
    }
  });
  if (move) {
    const [fx, fy] = sq(move.frm[0], move.frm[1]), [tx, ty] = sq(move.to[0], move.to[1]);
    out.push(`<line x1="${fx + C / 2}" y1="${fy + C / 2}" x2="${tx + C / 2}" y2="${ty + C / 2}" ` +
      `stroke="rgba(30,60,200,.55)" stroke-width="6" stroke-linecap="round"/>`);
  }

  // Side panel: per colour, the player, abilities left or used, effects it suffers.
  for (let c = 0; c < 2; c++) {
    const y0 = Y0 + c * 150;
    const name = ctx.players[c] || NAMES[c];
    out.push(`<rect x="${SIDE_X}" y="${y0}" width="22" height="22" rx="4" fill="${c ? "#111" : "#fff"}" ` +
      `stroke="#111"/><text x="${SIDE_X + 30}" y="${y0 + 16}" font-size="14" font-weight="600">` +
      `${ctx.esc(name)} (${NAMES[c]})</text>`);
    ["fog", "pawnReset", "shield"].forEach((ability, i) => {
      const left = view.abilitiesRemaining[c].includes(ability);
      const bx = SIDE_X + i * 84, by = y0 + 32;
      out.push(`<g data-ability="${ability}" data-left="${left ? 1 : 0}"><rect x="${bx}" y="${by}" width="78" ` +
        `height="24" rx="12" fill="${left ? "#e3f2fd" : "#eee"}" stroke="${left ? "#1e88e5" : "#bbb"}"/>` +
        `<text x="${bx + 39}" y="${by + 16}" font-size="12" text-anchor="middle" ` +
        `fill="${left ? "#0d47a1" : "#999"}"${left ? "" : ' text-decoration="line-through"'}>${ability}</text></g>`);
    });
    const effects = view.abilitiesActivated[c].map(([n, left, target]) =>
      `${n} on ${NAMES[c]}` + (target ? ` [${target}]` : "") + (left > 0 ? ` (${left} left)` : " (done)"));
    effects.forEach((text, i) => out.push(`<text x="${SIDE_X}" y="${y0 + 76 + i * 16}" font-size="12" ` +
      `fill="#555">${ctx.esc(text)}</text>`));
  }
  if (fogged.length) {
    out.push(`<text x="${SIDE_X}" y="${Y0 + 310}" font-size="12" fill="#555">hatched: hidden from ` +
      `${fogged.join(", ")} (fog)</text>`);
  }
  out.push("</svg>");
  host.innerHTML = out.join("");
}

// arena's game viewer: plays a stored replay step by step (no dependencies, works offline).
// The page embeds the replay gzipped in base64 (#arena-data) and, when the game has one,
// its renderer as window.ARENA_RENDER = function (view, host, ctx). Bot output is only
// ever inserted as text, never as HTML.
"use strict";

// The replay's schema, as arena.records defines it (Replay, ReplayStep, SeatIO, ForfeitEntry);
// the page receives it with each step's full view added (views[i]).
/**
 * @typedef {{input: string, lines: string[], ms: number, budget_ms: number, stderr: string,
 *            late?: boolean, wait_ms?: number, wall_ms?: number, exit_code?: (number|null),
 *            replies?: Object<string, string>}} SeatIO
 * @typedef {{reason: string, detail: string, raw: string}} ForfeitEntry
 * @typedef {{to_act: number[], moves: Object<string, string>, messages: Object<string, string>,
 *            forfeits: Object<string, ForfeitEntry>, io: Object<string, SeatIO>,
 *            actions?: Object<string, *>, view?: Array, turn?: number}} ReplayStep
 * @typedef {{format: number, game: string, version: number, seed: number, settings: Object,
 *            players: string[], start_view: *, steps: ReplayStep[],
 *            outcome: {ranks: number[], scores: number[], reason: string},
 *            seats: Object[], final: *, epilogue?: Object<string, string>}} Replay
 */

const SEAT_COLORS = ["#e4572e", "#2f6fde", "#1f9d55", "#b83fd0"];

async function inflate(b64) {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

// The patch format of arena.referee.viewdiff: [path, value] sets, [path] deletes a key.
function applyPatch(view, ops) {
  for (const op of ops) {
    const path = op[0];
    if (path.length === 0) { view = structuredClone(op[1]); continue; }
    let target = view;
    for (let i = 0; i < path.length - 1; i++) target = target[path[i]];
    const key = path[path.length - 1];
    if (op.length === 1) delete target[key];
    else target[key] = structuredClone(op[1]);
  }
  return view;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") node.textContent = v;
    else if (k === "cls") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function ordinal(rank) { return ["1st", "2nd", "3rd"][rank] || `${rank + 1}th`; }

class Viewer {
  constructor(data) {
    this.data = data;
    this.replay = data.replay;
    this.steps = this.replay.steps;
    this.players = this.replay.players;
    this.views = [structuredClone(this.replay.start_view)];
    for (const step of this.steps) {
      this.views.push(applyPatch(structuredClone(this.views[this.views.length - 1]), step.view || []));
    }
    this.index = 0;
    this.timer = null;
    this.speed = 1;
    this.holdMs = 0;
    this.render = typeof window.ARENA_RENDER === "function" ? window.ARENA_RENDER : null;
  }

  build() {
    const r = this.replay;
    document.getElementById("players").replaceChildren(...this.players.map((name, seat) =>
      el("span", { cls: "player" }, el("span", { cls: "chip", style: `background:${SEAT_COLORS[seat % 4]}` }),
        `${name}  `)));
    // The result is shown at the last step only: no spoiler while stepping through.
    this.outcomeText = "";
    if (r.outcome) {
      const parts = this.players.map((name, seat) => {
        const rank = r.outcome.ranks[seat];
        return `${name}: ${ordinal(rank)} (${r.outcome.scores[seat]})`;
      });
      this.outcomeText = `${parts.join(" · ")} — ${r.outcome.reason || ""}`;
    }
    const slider = document.getElementById("slider");
    slider.max = String(this.steps.length);
    slider.addEventListener("input", () => this.show(Number(slider.value)));
    document.getElementById("first").onclick = () => this.show(0);
    document.getElementById("prev").onclick = () => this.show(this.index - 1);
    document.getElementById("next").onclick = () => this.show(this.index + 1);
    document.getElementById("last").onclick = () => this.show(this.steps.length);
    document.getElementById("play").onclick = () => this.toggle();
    document.getElementById("speed").onchange = (e) => {
      this.speed = Number(e.target.value);
      if (this.timer) { this.pause(); this.play(); }
    };
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "SELECT") return;
      if (e.key === "ArrowRight") { this.show(this.index + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { this.show(this.index - 1); e.preventDefault(); }
      else if (e.key === "Home") this.show(0);
      else if (e.key === "End") this.show(this.steps.length);
      else if (e.key === " ") { this.toggle(); e.preventDefault(); }
    });
    const m = /step=(\d+)/.exec(location.hash);
    this.show(m ? Number(m[1]) : 0);
  }

  toggle() { if (this.timer) this.pause(); else this.play(); }

  play() {
    if (this.index >= this.steps.length) this.show(0);
    document.getElementById("play").textContent = "pause";
    // Each step stays at least as long as its renderer asked (ctx.hold) for its animation.
    const next = () => {
      this.timer = setTimeout(() => {
        if (this.index >= this.steps.length) { this.pause(); return; }
        this.show(this.index + 1);
        next();
      }, Math.max(600 / this.speed, this.holdMs));
    };
    next();
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = null;
    document.getElementById("play").textContent = "play";
  }

  show(index) {
    index = Math.max(0, Math.min(this.steps.length, index));
    this.index = index;
    const step = index > 0 ? this.steps[index - 1] : null;
    document.getElementById("slider").value = String(index);
    const turn = step && step.turn != null ? `, turn ${step.turn}` : "";
    document.getElementById("step-label").textContent =
      index === 0 ? `start (${this.steps.length} steps)` : `step ${index} / ${this.steps.length}${turn}`;
    history.replaceState(null, "", `#step=${index}`);
    const outcome = document.getElementById("outcome");
    const last = index === this.steps.length;
    const hidden = `result hidden until the last step (step ${this.steps.length}: press End)`;
    outcome.textContent = last || !this.outcomeText ? this.outcomeText : hidden;
    outcome.classList.toggle("muted", !last);
    this.drawBoard(index, step);
    this.drawSeats(step);
    document.body.dataset.step = String(index);
  }

  drawBoard(index, step) {
    const host = document.getElementById("board");
    const view = this.views[index];
    this.holdMs = 0;
    if (this.render) {
      try {
        const previous = index > 0 ? this.views[index - 1] : null;
        const hold = (ms) => { this.holdMs = Math.max(this.holdMs, Number(ms) || 0); };
        this.render(view, host, { players: this.players, colors: SEAT_COLORS, step, index, previous,
          esc, settings: this.replay.settings || {}, speed: this.speed, hold });
        return;
      } catch (err) {
        host.replaceChildren(el("div", { cls: "bad", text: `renderer failed: ${err}` }),
          el("pre", { text: JSON.stringify(view, null, 1) }));
        return;
      }
    }
    const text = this.data.text ? this.data.text[index] : null;
    host.replaceChildren(el("pre", { cls: "text-render", text: text || JSON.stringify(view, null, 1) }));
  }

  drawSeats(step) {
    const box = document.getElementById("seats");
    box.replaceChildren(...this.players.map((name, seat) => this.seatPanel(name, seat, step)));
  }

  seatPanel(name, seat, step) {
    const key = String(seat);
    const io = step && step.io ? step.io[key] : null;
    const forfeit = step && step.forfeits ? step.forfeits[key] : null;
    const panel = el("div", { cls: "panel seat" + (io ? "" : " idle"), "data-seat": key });
    panel.style.borderLeftColor = SEAT_COLORS[seat % 4];
    const right = io ? `${io.ms.toFixed(1)} ms` + (io.budget_ms ? ` / ${io.budget_ms} ms` : "")
      + (io.late ? " LATE" : "") : "";
    panel.append(el("h3", {}, el("span", { text: `${name} (seat ${seat})` }),
      el("span", { cls: "muted time", text: right })));
    if (!io) {
      panel.append(el("div", { cls: "muted", text: step ? "not to act this step" : "" }));
      return panel;
    }
    if (io.budget_ms) {
      const frac = io.ms / io.budget_ms;
      const bar = el("div");
      bar.style.width = `${Math.min(100, frac * 100).toFixed(1)}%`;
      if (frac > 1) bar.className = "over"; else if (frac > 0.5) bar.className = "slow";
      panel.append(el("div", { cls: "timebar", title: `${(frac * 100).toFixed(1)}% of the budget` }, bar));
    }
    if (forfeit) {
      // A crash's detail goes on with the end of the bot's stderr (its traceback).
      const [summary, ...tail] = String(forfeit.detail).split("\n");
      const stderr = tail.length ? el("pre", { cls: "crash-stderr",
        text: tail.map((line) => line.replace(/^  /, "")).join("\n") }) : null;
      panel.append(el("div", { cls: "forfeit" },
        el("b", { text: `forfeit: ${forfeit.reason}` }),
        ` — ${tail.length ? summary.replace(/; its stderr ends:$/, "") : summary}`,
        tail.length ? el("div", { cls: "muted", text: "its stderr ends:" }) : null, stderr,
        forfeit.raw ? el("pre", { text: forfeit.raw }) : null));
    }
    const answers = el("div", { cls: "answer" });
    const replies = io.replies || {};
    io.lines.forEach((line, i) => {
      answers.append(el("pre", { cls: "line", text: line }));
      if (replies[String(i)] != null) {
        answers.append(el("details", { cls: "reply" }, el("summary", { text: "reply" }),
          el("pre", { text: replies[String(i)] })));
      }
    });
    if (!io.lines.length) answers.append(el("span", { cls: "muted", text: "(no answer)" }));
    panel.append(el("div", { cls: "row" }, el("span", { cls: "k", text: "answer" }), answers));
    const message = step.messages ? step.messages[key] : null;
    if (message) {
      panel.append(el("div", { cls: "row" }, el("span", { cls: "k", text: "message" }),
        el("span", { cls: "message", text: message })));
    }
    const action = step.actions ? step.actions[key] : undefined;
    if (action !== undefined) {
      panel.append(el("div", { cls: "row" }, el("span", { cls: "k", text: "parsed" }),
        el("code", { text: JSON.stringify(action) })));
    }
    if (io.exit_code != null) {
      panel.append(el("div", { cls: "row" }, el("span", { cls: "k", text: "exit code" }),
        el("span", { text: String(io.exit_code) })));
    }
    if (io.stderr) {
      panel.append(el("div", { cls: "row" }, el("span", { cls: "k", text: "stderr" })),
        el("pre", { cls: "stderr", text: io.stderr }));
    }
    panel.append(el("details", { cls: "row" }, el("summary", { text: "input" }),
      el("pre", { cls: "input", text: io.input })));
    return panel;
  }
}

(async function main() {
  const data = JSON.parse(await inflate(document.getElementById("arena-data").textContent.trim()));
  const viewer = new Viewer(data);
  window.arenaViewer = viewer;
  viewer.build();
  document.body.dataset.ready = "1";
})().catch((err) => {
  document.getElementById("board").textContent = `could not load the replay: ${err}`;
});

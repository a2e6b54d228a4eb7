// Smash The Code: drops each pair upright in the emptiest column.
// (Declared here: a bare tsc has no Node typings.)
declare const require: (name: string) => any;
declare const process: { stdin: unknown; stdout: { write(text: string): void } };

const readline = require("readline");
const input = readline.createInterface({ input: process.stdin });
let lines: string[] = [];

input.on("line", (line: string) => {
  lines.push(line);
  if (lines.length < 34) {
    return;
  }
  const free: number[] = [0, 0, 0, 0, 0, 0];
  for (const row of lines.slice(9, 21)) {
    for (let c = 0; c < 6 && c < row.length; c++) {
      if (row[c] === ".") {
        free[c]++;
      }
    }
  }
  let best = 0;
  for (let c = 1; c < 6; c++) {
    if (free[c] > free[best]) {
      best = c;
    }
  }
  process.stdout.write(`${best} 1\n`);
  lines = [];
});

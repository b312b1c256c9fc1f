// Writes <out>/index.json: one row per captured run (directory, library,
// scenario, encoding, payload count and bytes, tool calls, split flag).
//   node src/index.js <out dir>
import fs from "node:fs";
import path from "node:path";

const out = process.argv[2];
const runs = [];
for (const lib of fs.readdirSync(out).sort()) {
  const libDir = path.join(out, lib);
  if (!fs.statSync(libDir).isDirectory()) continue;
  for (const enc of fs.readdirSync(libDir).sort()) {
    for (const sc of fs.readdirSync(path.join(libDir, enc)).sort()) {
      const dir = path.join(libDir, enc, sc);
      const gtPath = path.join(dir, "ground_truth.json");
      if (!fs.existsSync(gtPath)) continue;
      const gt = JSON.parse(fs.readFileSync(gtPath, "utf8"));
      const bytes = gt.files.reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
      const turns = gt.turns || [gt];
      runs.push({
        dir: `${lib}/${enc}/${sc}`,
        library: lib,
        scenario: sc,
        encoding: enc,
        payloads: gt.files.length,
        payload_bytes: bytes,
        split_requests: gt.split_requests,
        turns: turns.length,
        tool_calls: turns.reduce((n, t) => n + t.tool_calls.length, 0),
        expect_failure_flag: gt.expect_failure_flag,
      });
    }
  }
}
fs.writeFileSync(path.join(out, "index.json"), JSON.stringify({ runs }, null, 1) + "\n");
console.log(`index.json: ${runs.length} runs`);

// Prints the spans of a capture run directory (JSON payloads) as a tree:
//   node src/inspect.js <run dir> [attribute-prefix ...]
import fs from "node:fs";
import path from "node:path";

const [dir, ...prefixes] = process.argv.slice(2);
const spans = [];
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".json") && f.startsWith("payload-")).sort()) {
  const body = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
  for (const rs of body.resourceSpans || [])
    for (const ss of rs.scopeSpans || [])
      for (const s of ss.spans || []) spans.push({ ...s, file: f, scope: ss.scope?.name });
}
const val = (v) => {
  if (!v) return v;
  for (const k of ["stringValue", "intValue", "doubleValue", "boolValue"]) if (k in v) return v[k];
  if (v.arrayValue) return (v.arrayValue.values || []).map(val);
  return JSON.stringify(v);
};
const byParent = new Map();
const ids = new Set(spans.map((s) => s.spanId));
for (const s of spans) {
  const p = s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : "";
  if (!byParent.has(p)) byParent.set(p, []);
  byParent.get(p).push(s);
}
function show(p, depth) {
  const kids = (byParent.get(p) || []).sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
  for (const s of kids) {
    const st = s.status?.code ? ` status=${s.status.code}:${s.status.message || ""}` : "";
    console.log(`${"  ".repeat(depth)}${s.name} [${s.file} ${s.scope}]${st}${s.events?.length ? " events=" + s.events.map((e) => e.name).join(",") : ""}`);
    for (const a of s.attributes || []) {
      if (prefixes.length && !prefixes.some((x) => a.key.startsWith(x))) continue;
      let v = String(val(a.value));
      if (v.length > 160) v = v.slice(0, 160) + "…";
      console.log(`${"  ".repeat(depth + 2)}${a.key}=${v}`);
    }
    show(s.spanId, depth + 1);
  }
}
show("", 0);

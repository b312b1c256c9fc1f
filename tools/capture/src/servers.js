// Two loopback HTTP servers in one process:
//
//   model server   /r/<library>/<encoding>/<scenario>/v1/chat/completions
//                  /r/<library>/<encoding>/<scenario>/v1/responses
//                  A scripted OpenAI-compatible endpoint (Chat Completions and
//                  Responses API, non-streaming) answering from scenarios.js.
//                  GET /count/<library>/<encoding>/<scenario> returns how many
//                  model requests that run made.
//   capture server /c/<library>/<encoding>/<scenario>/v1/traces
//                  An OTLP/HTTP trace receiver that stores every request body
//                  as received, in arrival order, as
//                  <out>/<library>/<encoding>/<scenario>/payload-NNNN.(pb|json).
//
// Usage: node src/servers.js <outDir> <modelPort> <capturePort>
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { scriptedStep } from "./scenarios.js";

const [outDir, modelPort, capturePort] = process.argv.slice(2);
if (!outDir || !modelPort || !capturePort) {
  console.error("usage: node src/servers.js <outDir> <modelPort> <capturePort>");
  process.exit(2);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let buf = Buffer.concat(chunks);
      const enc = (req.headers["content-encoding"] || "").toLowerCase();
      if (enc === "gzip") buf = zlib.gunzipSync(buf);
      else if (enc === "deflate") buf = zlib.inflateSync(buf);
      else if (enc === "br") buf = zlib.brotliDecompressSync(buf);
      resolve(buf);
    });
    req.on("error", reject);
  });
}

function send(res, status, body, type = "application/json") {
  const data = typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(data) });
  res.end(data);
}

// ---------- capture server ----------

const payloadCounters = new Map();

const capture = http.createServer(async (req, res) => {
  try {
    const m = /^\/c\/([^/]+)\/([^/]+)\/([^/]+)\/v1\/traces$/.exec(req.url);
    if (req.method !== "POST" || !m) return send(res, 404, { error: "not found" });
    const body = await readBody(req);
    const type = (req.headers["content-type"] || "").split(";")[0].trim();
    const ext = type === "application/x-protobuf" ? "pb" : type === "application/json" ? "json" : null;
    if (!ext) return send(res, 415, { error: `unsupported content-type ${type}` });
    const key = `${m[1]}/${m[2]}/${m[3]}`;
    const n = (payloadCounters.get(key) || 0) + 1;
    payloadCounters.set(key, n);
    const dir = path.join(outDir, m[1], m[2], m[3]);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `payload-${String(n).padStart(4, "0")}.${ext}`), body);
    // An empty ExportTraceServiceResponse in the request's encoding.
    if (ext === "pb") return send(res, 200, Buffer.alloc(0), "application/x-protobuf");
    return send(res, 200, "{}");
  } catch (err) {
    console.error("capture:", err);
    send(res, 500, { error: String(err) });
  }
});

// ---------- model server ----------

const modelCounts = new Map();
const CREATED = 1764000000;

// Position of the conversation: which user turn, and how many tool outputs
// came back after the last user message.
function chatPosition(body) {
  const msgs = body.messages || [];
  let users = 0;
  let outputs = 0;
  for (const m of msgs) {
    if (m.role === "user") {
      users++;
      outputs = 0;
    } else if (m.role === "tool") outputs++;
  }
  const offered = (body.tools || []).map((t) => (t.function ? t.function.name : t.name));
  return { turn: users - 1, outputs, offered };
}

function responsesPosition(body) {
  const items = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input || [];
  let users = 0;
  let outputs = 0;
  for (const it of items) {
    const isUser = it.role === "user" && (it.type === undefined || it.type === "message");
    if (isUser) {
      users++;
      outputs = 0;
    } else if (it.type === "function_call_output") outputs++;
  }
  const offered = (body.tools || []).map((t) => t.name || (t.function && t.function.name));
  return { turn: users - 1, outputs, offered };
}

function usage(body, step) {
  const input = 40 + Math.ceil(JSON.stringify(body.messages || body.input || "").length / 40);
  const output = step.text ? Math.ceil(step.text.length / 4) : 12 * step.calls.length;
  return { input, output };
}

function chatResponse(scenario, body, step) {
  const u = usage(body, step);
  const message = { role: "assistant", content: step.text ?? null, refusal: null };
  if (step.calls.length) {
    message.tool_calls = step.calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }));
  }
  return {
    id: `chatcmpl-${scenario}-${step.turn}-${step.index}`,
    object: "chat.completion",
    created: CREATED,
    model: "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, message, logprobs: null, finish_reason: step.calls.length ? "tool_calls" : "stop" }],
    usage: {
      prompt_tokens: u.input,
      completion_tokens: u.output,
      total_tokens: u.input + u.output,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    },
    system_fingerprint: "fp_capture",
  };
}

function responsesResponse(scenario, body, step) {
  const u = usage(body, step);
  const output = [];
  if (step.text !== undefined) {
    output.push({
      type: "message",
      id: `msg_${scenario}_${step.turn}_${step.index}`,
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: step.text, annotations: [], logprobs: [] }],
    });
  }
  for (const c of step.calls) {
    output.push({
      type: "function_call",
      id: `fc_${c.id}`,
      call_id: c.id,
      name: c.name,
      arguments: JSON.stringify(c.args),
      status: "completed",
    });
  }
  return {
    id: `resp_${scenario}_${step.turn}_${step.index}`,
    object: "response",
    created_at: CREATED,
    status: "completed",
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: "gpt-4o-mini-2024-07-18",
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: body.temperature ?? 1,
    text: { format: { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools || [],
    top_p: body.top_p ?? 1,
    truncation: "disabled",
    usage: {
      input_tokens: u.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: u.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: u.input + u.output,
    },
    user: null,
    metadata: {},
  };
}

const model = http.createServer(async (req, res) => {
  try {
    let m = /^\/count\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(req.url);
    if (req.method === "GET" && m) return send(res, 200, { count: modelCounts.get(req.url.slice(7)) || 0 });
    m = /^\/r\/([^/]+)\/([^/]+)\/([^/]+)\/v1\/(chat\/completions|responses)$/.exec(req.url);
    if (req.method !== "POST" || !m) return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    const key = `${m[1]}/${m[2]}/${m[3]}`;
    const scenario = m[3];
    const api = m[4];
    const body = JSON.parse((await readBody(req)).toString("utf8"));
    if (body.stream) return send(res, 400, { error: { message: "streaming is not scripted" } });
    const pos = api === "responses" ? responsesPosition(body) : chatPosition(body);
    const s = scriptedStep(scenario, pos.turn, pos.outputs);
    for (const c of s.calls) {
      if (!pos.offered.includes(c.name)) {
        throw new Error(`${key}: scripted tool ${c.name} not offered (offered: ${pos.offered.join(",")})`);
      }
    }
    const step = { ...s, turn: pos.turn };
    modelCounts.set(key, (modelCounts.get(key) || 0) + 1);
    send(res, 200, api === "responses" ? responsesResponse(scenario, body, step) : chatResponse(scenario, body, step));
  } catch (err) {
    console.error("model:", err.message);
    send(res, 400, { error: { message: String(err.message || err), type: "invalid_request_error" } });
  }
});

model.listen(Number(modelPort), "127.0.0.1", () => {
  capture.listen(Number(capturePort), "127.0.0.1", () => {
    console.log(`model server on 127.0.0.1:${modelPort}, capture server on 127.0.0.1:${capturePort}, writing ${outDir}`);
  });
});

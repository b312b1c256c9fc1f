// Shared plumbing for the agent scripts: command line, OTLP exporters pointed
// at the capture server, and the ground-truth recorder.
import fs from "node:fs";
import path from "node:path";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { SCENARIOS, SPLIT_SCENARIOS, TOOLS, errorText } from "./scenarios.js";

/** parseArgs reads `--encoding json|proto --scenario NAME` plus the environment run.sh sets. */
export function parseArgs(library) {
  const args = process.argv.slice(2);
  const get = (k) => {
    const i = args.indexOf(k);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const encoding = get("--encoding");
  const scenario = get("--scenario");
  if (!["json", "proto"].includes(encoding)) throw new Error("--encoding must be json or proto");
  if (!SCENARIOS[scenario]) throw new Error(`unknown --scenario ${scenario}`);
  const modelPort = process.env.CAPTURE_MODEL_PORT || "18080";
  const capturePort = process.env.CAPTURE_OTLP_PORT || "18081";
  const outDir = process.env.CAPTURE_OUT_DIR;
  if (!outDir) throw new Error("CAPTURE_OUT_DIR is not set");
  const runKey = `${library}/${encoding}/${scenario}`;
  return {
    library,
    encoding,
    scenario,
    sc: SCENARIOS[scenario],
    split: SPLIT_SCENARIOS.has(scenario),
    runKey,
    runDir: path.join(outDir, library, encoding, scenario),
    modelBase: `http://127.0.0.1:${modelPort}/r/${runKey}/v1`,
    modelCountURL: `http://127.0.0.1:${modelPort}/count/${runKey}`,
    tracesURL: `http://127.0.0.1:${capturePort}/c/${runKey}/v1/traces`,
  };
}

/** makeExporter returns the OTLP/HTTP exporter for the run's encoding. */
export function makeExporter(run) {
  const Exporter = run.encoding === "proto" ? ProtoExporter : JsonExporter;
  return new Exporter({ url: run.tracesURL, timeoutMillis: 10000 });
}

/**
 * makeProcessor batches the whole run into one request, or, for split runs,
 * exports every few spans so the run arrives in several requests, children
 * first and the root last.
 */
export function makeProcessor(run, exporter = makeExporter(run)) {
  return new BatchSpanProcessor(exporter, {
    maxExportBatchSize: run.split ? 3 : 4096,
    maxQueueSize: 8192,
    scheduledDelayMillis: 600000,
    exportTimeoutMillis: 10000,
  });
}

/** makeProvider builds a tracer provider exporting to the capture server. */
export function makeProvider(run, { register = true } = {}) {
  const processor = makeProcessor(run);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      "service.name": `capture-${run.library}`,
      "service.version": "1.0.0",
    }),
    spanProcessors: [processor],
  });
  if (register) provider.register();
  return provider;
}

/**
 * Truth records what the agent really did: each tool invocation in start
 * order with its arguments, call id, result or error, and the agent that ran
 * it; then writes ground_truth.json.
 */
export class Truth {
  constructor(run, extra = {}) {
    this.run = run;
    this.turns = [];
    this.handoffs = [];
    this.extra = extra;
    this.current = null;
    this.modelCallsBefore = 0;
  }

  async beginTurn(userInput) {
    this.modelCallsBefore = await this.modelCalls();
    this.current = { user_input: userInput, tool_calls: [], final_response: null, llm_calls: 0 };
    this.turns.push(this.current);
  }

  async endTurn(finalResponse) {
    this.current.final_response = finalResponse;
    this.current.llm_calls = (await this.modelCalls()) - this.modelCallsBefore;
  }

  async modelCalls() {
    const r = await fetch(this.run.modelCountURL);
    return (await r.json()).count;
  }

  /** start records a tool invocation; the returned entry is finished by ok/fail. */
  start(name, args, callId, agent) {
    const e = { name, args, call_id: callId ?? null };
    if (agent) e.agent = agent;
    this.current.tool_calls.push(e);
    return e;
  }

  /**
   * wrap returns a tool body that runs TOOLS[name] and records the
   * invocation. getCallId(...execArgs) extracts the call id the library
   * passes to the tool, when it does.
   */
  tool(name, { agent, getCallId = () => null } = {}) {
    return async (args, ...rest) => {
      const e = this.start(name, args, getCallId(args, ...rest), agent);
      try {
        const result = TOOLS[name].run(args);
        e.result = result;
        return result;
      } catch (err) {
        e.error = errorText(err);
        throw err;
      }
    };
  }

  handoff(from, to, callId) {
    this.handoffs.push({ from_agent: from, to_agent: to, call_id: callId ?? null });
  }

  write(fields = {}) {
    const { run } = this;
    const sc = run.sc;
    const files = fs
      .readdirSync(run.runDir)
      .filter((f) => /^payload-\d{4}\.(pb|json)$/.test(f))
      .sort();
    const last = this.turns[this.turns.length - 1];
    const allCalls = this.turns.flatMap((t) => t.tool_calls);
    const gt = {
      library: run.library,
      scenario: run.scenario,
      encoding: run.encoding,
      files,
      split_requests: files.length > 1,
      user_input: last.user_input,
      tool_calls: last.tool_calls,
      tool_error_on: sc.errorOn ?? null,
      final_response: last.final_response,
      expect_failure_flag: allCalls.some((c) => c.error !== undefined),
      agent_name: sc.agent,
      system_prompt: sc.system,
      model: "gpt-4o-mini",
      llm_calls: last.llm_calls,
      ...fields,
      ...this.extra,
    };
    if (this.turns.length > 1) {
      gt.session_id = sc.sessionId ?? null;
      gt.turns = this.turns;
    }
    if (sc.subagents) {
      gt.agents = [sc.agent, ...Object.keys(sc.subagents)];
      gt.handoffs = this.handoffs;
      gt.subagent_system_prompts = Object.fromEntries(Object.entries(sc.subagents).map(([k, v]) => [k, v.system]));
    }
    fs.writeFileSync(path.join(run.runDir, "ground_truth.json"), JSON.stringify(gt, null, 2) + "\n");
    console.log(`${run.runKey}: ${files.length} payload(s), ${allCalls.length} tool call(s)`);
  }
}

/** flushBetweenTurns forces an export between turns of split runs. */
export async function flushBetweenTurns(run, flush) {
  if (run.split) await flush();
}

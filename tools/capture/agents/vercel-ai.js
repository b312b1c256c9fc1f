// Vercel AI SDK 7 with @ai-sdk/otel's OpenTelemetry integration (OTel GenAI
// semantic-convention spans: invoke_agent → step N → chat / execute_tool).
import * as ai from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { OpenTelemetry } from "@ai-sdk/otel";
import { makeProvider, parseArgs } from "../src/common.js";
import { runVercel } from "../src/vercel.js";

const run = parseArgs("vercel-ai");
const provider = makeProvider(run);
ai.registerTelemetry(new OpenTelemetry({ tracer: provider.getTracer("ai"), runtimeContext: true }));

const sessionId = run.sc.sessionId;
await runVercel({
  run,
  ai,
  createOpenAI,
  provider,
  extra: { telemetry_integration: "OpenTelemetry", transport: "responses" },
  telemetryFor: (agentName) => ({
    telemetry: {
      functionId: agentName,
      ...(sessionId ? { includeRuntimeContext: { sessionId: true } } : {}),
    },
    ...(sessionId ? { runtimeContext: { sessionId } } : {}),
  }),
});

// Vercel AI SDK 6 with its built-in telemetry (experimental_telemetry): the
// legacy ai.* spans (ai.generateText → ai.generateText.doGenerate / ai.toolCall).
import * as ai from "ai6";
import { createOpenAI } from "ai-sdk-openai3";
import { makeProvider, parseArgs } from "../src/common.js";
import { runVercel } from "../src/vercel.js";

const run = parseArgs("vercel-ai-legacy");
const provider = makeProvider(run);
const tracer = provider.getTracer("ai");

const sessionId = run.sc.sessionId;
await runVercel({
  run,
  ai,
  createOpenAI,
  provider,
  extra: { telemetry_integration: "experimental_telemetry", transport: "responses" },
  telemetryFor: (agentName) => ({
    experimental_telemetry: {
      isEnabled: true,
      functionId: agentName,
      tracer,
      metadata: sessionId ? { sessionId } : {},
    },
  }),
});

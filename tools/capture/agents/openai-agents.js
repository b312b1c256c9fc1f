// @openai/agents (Responses API) traced with OpenInference's openai-agents
// instrumentation, exported over OTLP/HTTP.
import * as agents from "@openai/agents";
import OpenAI from "openai";
import { context } from "@opentelemetry/api";
import { setSession } from "@arizeai/openinference-core";
import { OpenAIAgentsInstrumentation } from "@arizeai/openinference-instrumentation-openai-agents";
import { TOOLS, HANDOFF_PREFIX } from "../src/scenarios.js";
import { Truth, makeProvider, parseArgs, flushBetweenTurns } from "../src/common.js";

const run = parseArgs("openai-agents");
const provider = makeProvider(run);
new OpenAIAgentsInstrumentation({ tracerProvider: provider }).manuallyInstrument(agents);

agents.setDefaultOpenAIClient(new OpenAI({ baseURL: run.modelBase, apiKey: "sk-capture" }));
agents.setOpenAIAPI("responses");

const truth = new Truth(run, { transport: "responses" });
const sc = run.sc;

function makeTools(names, agentName) {
  return names.map((name) =>
    agents.tool({
      name,
      description: TOOLS[name].description,
      parameters: TOOLS[name].schema,
      execute: truth.tool(name, {
        agent: sc.subagents ? agentName : undefined,
        getCallId: (_args, _ctx, details) => details?.toolCall?.callId ?? null,
      }),
    }),
  );
}

const subagents = Object.entries(sc.subagents || {}).map(
  ([name, def]) =>
    new agents.Agent({
      name,
      instructions: def.system,
      handoffDescription: def.description,
      model: "gpt-4o-mini",
      tools: makeTools(def.tools, name),
    }),
);
const agent = new agents.Agent({
  name: sc.agent,
  instructions: sc.system,
  model: "gpt-4o-mini",
  tools: makeTools(sc.tools, sc.agent),
  handoffs: subagents,
});

let history = [];
const ctx = sc.sessionId ? setSession(context.active(), { sessionId: sc.sessionId }) : context.active();
await context.with(ctx, async () => {
  for (const turn of sc.turns) {
    await truth.beginTurn(turn.user);
    const input = [...history, { role: "user", content: turn.user }];
    const result = await agents.run(agent, input, {
      groupId: sc.sessionId,
      maxTurns: 10,
    });
    // Handoffs are function calls named transfer_to_<agent> in the run's items.
    for (const item of result.newItems) {
      if (item.type === "handoff_call_item") {
        const raw = item.rawItem;
        truth.handoff(sc.agent, raw.name.slice(HANDOFF_PREFIX.length), raw.callId);
      }
    }
    history = result.history;
    await truth.endTurn(result.finalOutput);
    await flushBetweenTurns(run, () => provider.forceFlush());
  }
});

await provider.forceFlush();
await provider.shutdown();
truth.write();

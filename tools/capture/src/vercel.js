// Agent loop shared by the Vercel AI SDK captures. The caller passes the SDK
// module (ai 7 or ai 6), its OpenAI provider factory and the per-call
// telemetry options.
//
// Handoff: the triage agent calls transfer_to_<agent> (a tool returning the
// target's name, with the loop stopped on that call); the target agent then
// continues the same conversation. Both agent calls run inside one
// application span so the run is a single trace.
import { trace } from "@opentelemetry/api";
import { TOOLS, HANDOFF_PREFIX } from "./scenarios.js";
import { Truth, flushBetweenTurns } from "./common.js";

export async function runVercel({ run, ai, createOpenAI, provider, telemetryFor, extra }) {
  const sc = run.sc;
  const truth = new Truth(run, extra);
  const openai = createOpenAI({ baseURL: run.modelBase, apiKey: "sk-capture" });
  const model = openai("gpt-4o-mini");

  const toolsFor = (names, agentName, handoffs = []) => {
    const tools = {};
    for (const name of names) {
      tools[name] = ai.tool({
        description: TOOLS[name].description,
        inputSchema: TOOLS[name].schema,
        execute: truth.tool(name, {
          agent: sc.subagents ? agentName : undefined,
          getCallId: (_args, opts) => opts?.toolCallId ?? null,
        }),
      });
    }
    for (const target of handoffs) {
      tools[HANDOFF_PREFIX + target] = ai.tool({
        description: `Hand the conversation to ${target}.`,
        inputSchema: TOOLS.get_weather.schema.pick({}),
        execute: async (_args, opts) => {
          truth.handoff(agentName, target, opts?.toolCallId);
          return { assistant: target };
        },
      });
    }
    return tools;
  };

  const generate = (agentName, system, tools, messages, stopOn) =>
    ai.generateText({
      model,
      system,
      messages,
      tools,
      stopWhen: stopOn ? [ai.stepCountIs(10), ai.hasToolCall(stopOn)] : ai.stepCountIs(10),
      ...telemetryFor(agentName),
    });

  let history = [];
  for (const turn of sc.turns) {
    await truth.beginTurn(turn.user);
    const messages = [...history, { role: "user", content: turn.user }];
    let result;
    if (sc.subagents) {
      const [target] = sc.handoffs;
      const sub = sc.subagents[target];
      const tracer = trace.getTracer("capture-app");
      result = await tracer.startActiveSpan("support_request", async (span) => {
        try {
          const first = await generate(
            sc.agent,
            sc.system,
            toolsFor(sc.tools, sc.agent, sc.handoffs),
            messages,
            HANDOFF_PREFIX + target,
          );
          const cont = [...messages, ...first.response.messages];
          return await generate(target, sub.system, toolsFor(sub.tools, target), cont);
        } finally {
          span.end();
        }
      });
      history = [...messages, ...result.response.messages];
    } else {
      result = await generate(sc.agent, sc.system, toolsFor(sc.tools, sc.agent), messages);
      history = [...messages, ...result.response.messages];
    }
    await truth.endTurn(result.text);
    await flushBetweenTurns(run, () => provider.forceFlush());
  }
  await provider.forceFlush();
  await provider.shutdown();
  truth.write();
}

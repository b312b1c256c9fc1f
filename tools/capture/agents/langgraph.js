// LangGraph.js createReactAgent on ChatOpenAI (Chat Completions), traced with
// OpenInference's LangChain instrumentation.
import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { LangChainInstrumentation } from "@arizeai/openinference-instrumentation-langchain";
import { context } from "@opentelemetry/api";
import { setSession } from "@arizeai/openinference-core";
import { makeProvider, parseArgs, Truth, flushBetweenTurns } from "../src/common.js";
import { TOOLS } from "../src/scenarios.js";

const run = parseArgs("langgraph");
if (run.sc.subagents) throw new Error("langgraph capture has no handoff scenario");
const provider = makeProvider(run);
const instrumentation = new LangChainInstrumentation({ tracerProvider: provider });
instrumentation.manuallyInstrument(CallbackManagerModule);

const { ChatOpenAI } = await import("@langchain/openai");
const { tool } = await import("@langchain/core/tools");
const { createReactAgent } = await import("@langchain/langgraph/prebuilt");
const { MemorySaver } = await import("@langchain/langgraph");

const sc = run.sc;
const truth = new Truth(run, { transport: "chat_completions" });
const model = new ChatOpenAI({
  model: "gpt-4o-mini",
  apiKey: "sk-capture",
  configuration: { baseURL: run.modelBase },
  maxRetries: 0,
});
const tools = sc.tools.map((name) =>
  tool(truth.tool(name, { getCallId: (_args, config) => config?.toolCall?.id ?? null }), {
    name,
    description: TOOLS[name].description,
    schema: TOOLS[name].schema,
  }),
);
const agent = createReactAgent({
  llm: model,
  tools,
  prompt: sc.system,
  name: sc.agent,
  checkpointer: new MemorySaver(),
});

const threadId = sc.sessionId ?? `thread-${run.scenario}`;
const ctx = sc.sessionId ? setSession(context.active(), { sessionId: sc.sessionId }) : context.active();
await context.with(ctx, async () => {
  for (const turn of sc.turns) {
    await truth.beginTurn(turn.user);
    const state = await agent.invoke(
      { messages: [{ role: "user", content: turn.user }] },
      { configurable: { thread_id: threadId }, recursionLimit: 20 },
    );
    const last = state.messages[state.messages.length - 1];
    await truth.endTurn(typeof last.content === "string" ? last.content : JSON.stringify(last.content));
    await flushBetweenTurns(run, () => provider.forceFlush());
  }
});
await provider.forceFlush();
await provider.shutdown();
truth.write();

// OpenLLMetry: @traceloop/node-server-sdk decorators (workflow → agent →
// tool) around a hand-written tool loop on the openai client (Chat
// Completions), which the SDK's OpenAI instrumentation traces.
import * as traceloop from "@traceloop/node-server-sdk";
import OpenAI from "openai";
import { z } from "zod";
import { TOOLS, HANDOFF_PREFIX, errorText } from "../src/scenarios.js";
import { Truth, makeExporter, parseArgs, flushBetweenTurns } from "../src/common.js";

const run = parseArgs("traceloop");
traceloop.initialize({
  appName: "capture-traceloop",
  baseUrl: "http://127.0.0.1:9",
  apiKey: "capture",
  exporter: makeExporter(run),
  // Split runs export every span on its own as it ends (children first).
  disableBatch: run.split,
  instrumentModules: { openAI: OpenAI },
  silenceInitializationMessage: true,
  traceContent: true,
});

const client = new OpenAI({ baseURL: run.modelBase, apiKey: "sk-capture" });
const sc = run.sc;
const truth = new Truth(run, { transport: "chat_completions" });

const toolDefs = (names, handoffs = []) => [
  ...names.map((name) => ({
    type: "function",
    function: { name, description: TOOLS[name].description, parameters: z.toJSONSchema(TOOLS[name].schema) },
  })),
  ...handoffs.map((target) => ({
    type: "function",
    function: {
      name: HANDOFF_PREFIX + target,
      description: `Hand the conversation to ${target}.`,
      parameters: { type: "object", properties: {}, additionalProperties: false },
    },
  })),
];

// agentLoop runs one agent until it answers or hands off; it appends to
// messages and returns { text } or { handoff }.
async function agentLoop(agentName, system, names, handoffs, messages) {
  return traceloop.withAgent({ name: agentName }, async () => {
    for (let i = 0; i < 10; i++) {
      const res = await client.chat.completions.create({
        model: "gpt-4o-mini",
        messages: [{ role: "system", content: system }, ...messages],
        tools: toolDefs(names, handoffs),
      });
      const msg = res.choices[0].message;
      messages.push({ role: "assistant", content: msg.content, ...(msg.tool_calls ? { tool_calls: msg.tool_calls } : {}) });
      if (!msg.tool_calls || msg.tool_calls.length === 0) return { text: msg.content };
      let handoff = null;
      for (const call of msg.tool_calls) {
        const name = call.function.name;
        const args = JSON.parse(call.function.arguments);
        if (name.startsWith(HANDOFF_PREFIX)) {
          const target = name.slice(HANDOFF_PREFIX.length);
          const out = await traceloop.withTool({ name }, async () => ({ assistant: target }), args);
          truth.handoff(agentName, target, call.id);
          messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(out) });
          handoff = target;
          continue;
        }
        const body = truth.tool(name, { agent: sc.subagents ? agentName : undefined, getCallId: () => call.id });
        let content;
        try {
          content = JSON.stringify(await traceloop.withTool({ name }, body, args));
        } catch (err) {
          content = `Error: ${errorText(err)}`;
        }
        messages.push({ role: "tool", tool_call_id: call.id, content });
      }
      if (handoff) return { handoff };
    }
    throw new Error("agent loop did not finish");
  });
}

const messages = [];
const workflowName = sc.subagents ? "support_request" : `${sc.agent}_request`;
for (const turn of sc.turns) {
  await truth.beginTurn(turn.user);
  messages.push({ role: "user", content: turn.user });
  const out = await traceloop.withWorkflow(
    {
      name: workflowName,
      ...(sc.sessionId
        ? { conversationId: sc.sessionId, associationProperties: { session_id: sc.sessionId } }
        : {}),
    },
    async (input) => {
      let r = await agentLoop(sc.agent, sc.system, sc.tools, sc.handoffs || [], messages);
      while (r.handoff) {
        const sub = sc.subagents[r.handoff];
        r = await agentLoop(r.handoff, sub.system, sub.tools, [], messages);
      }
      return r.text;
    },
    { user_input: turn.user },
  );
  await truth.endTurn(out);
  await flushBetweenTurns(run, () => traceloop.forceFlush());
}
await traceloop.forceFlush();
truth.write();
process.exit(0);

// Scenario catalogue shared by the scripted model server and the agent scripts.
//
// A scenario is a conversation of one or more user turns. Each turn lists the
// model's scripted steps: a step either requests tool calls or answers with
// text. The server picks the step from the request itself (turn = number of
// user messages, step = number of tool outputs after the last user message),
// so it is stateless and every library gets the same answers.
import { z } from "zod";

export class CampaignLockedError extends Error {
  constructor(message) {
    super(message);
    this.name = "CampaignLockedError";
  }
}

const WEATHER = {
  Paris: { city: "Paris", temperature_c: 18, condition: "cloudy" },
  Berlin: { city: "Berlin", temperature_c: 14, condition: "light rain" },
  Rome: { city: "Rome", temperature_c: 24, condition: "sunny" },
};

// TOOLS: name -> { description, schema (zod), run(args) }.
export const TOOLS = {
  get_weather: {
    description: "Get the current weather for a city.",
    schema: z.object({ city: z.string().describe("City name, e.g. Paris") }),
    run: ({ city }) => {
      const w = WEATHER[city];
      if (!w) throw new Error(`unknown city ${city}`);
      return { ...w };
    },
  },
  get_user_preferences: {
    description: "Look up a user's saved home preferences.",
    schema: z.object({ user_id: z.string() }),
    run: ({ user_id }) => ({
      user_id,
      preferred_temperature: 23,
      unit: "celsius",
      preferred_room: "Living Room",
    }),
  },
  get_lock_status: {
    description: "Report whether a door is locked.",
    schema: z.object({ door: z.string() }),
    run: ({ door }) => ({ door, locked: true, battery_percent: 81 }),
  },
  set_temperature: {
    description: "Set the thermostat of a room.",
    schema: z.object({ location: z.string(), temperature: z.number() }),
    run: ({ location, temperature }) => ({ location, temperature, status: "ok" }),
  },
  get_campaign: {
    description: "Fetch a marketing campaign by id.",
    schema: z.object({ campaign_id: z.string() }),
    run: ({ campaign_id }) => ({
      campaign_id,
      site_id: "Y",
      start_date: "2025-12-01",
      budget: 1000,
      currency: "USD",
      status: "scheduled",
    }),
  },
  reschedule_campaign: {
    description: "Move a campaign to a new start date and budget.",
    schema: z.object({
      campaign_id: z.string(),
      site_id: z.string(),
      start_date: z.string(),
      budget: z.number(),
    }),
    run: ({ campaign_id }) => {
      throw new CampaignLockedError(
        `campaign ${campaign_id} is locked by another editor; reschedule rejected`,
      );
    },
  },
  lookup_invoice: {
    description: "Look up an invoice by id.",
    schema: z.object({ invoice_id: z.string() }),
    run: ({ invoice_id }) => ({
      invoice_id,
      amount: 129.5,
      currency: "EUR",
      status: "paid",
      paid_on: "2025-11-02",
    }),
  },
};

/** errorText renders a thrown tool error the way ground truth records it. */
export function errorText(err) {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

// Handoff tool names as the model sees them (the @openai/agents convention).
export const HANDOFF_PREFIX = "transfer_to_";

export const SCENARIOS = {
  "single-tool": {
    prefix: "wx",
    agent: "weather_assistant",
    system: "You are a weather assistant. Use get_weather for current conditions and answer in one sentence.",
    tools: ["get_weather"],
    turns: [
      {
        user: "What's the weather in Paris right now?",
        steps: [
          { calls: [["get_weather", { city: "Paris" }]] },
          { text: "It's 18°C and cloudy in Paris right now." },
        ],
      },
    ],
  },
  "multi-tool": {
    prefix: "home",
    agent: "home_assistant",
    system: "You are a smart-home assistant. Use the available tools to act on the user's devices, then confirm briefly.",
    tools: ["get_user_preferences", "get_lock_status", "set_temperature"],
    turns: [
      {
        user: "Set the living room to my preferred temperature and tell me if the front door is locked.",
        steps: [
          {
            calls: [
              ["get_user_preferences", { user_id: "user_y" }],
              ["get_lock_status", { door: "front" }],
            ],
          },
          { calls: [["set_temperature", { location: "Living Room", temperature: 23 }]] },
          { text: "Done: the Living Room is set to your preferred 23°C, and the front door is locked." },
        ],
      },
    ],
  },
  "repeated-tool": {
    prefix: "cmp",
    agent: "weather_assistant",
    system: "You are a weather assistant. Use get_weather for current conditions and answer in one sentence.",
    tools: ["get_weather"],
    turns: [
      {
        user: "Which is warmer right now, Paris, Berlin or Rome?",
        steps: [
          { calls: [["get_weather", { city: "Paris" }]] },
          { calls: [["get_weather", { city: "Berlin" }]] },
          { calls: [["get_weather", { city: "Rome" }]] },
          { text: "Rome is the warmest at 24°C and sunny, ahead of Paris (18°C) and Berlin (14°C)." },
        ],
      },
    ],
  },
  "failing-tool": {
    prefix: "camp",
    agent: "campaign_manager",
    system: "You are a marketing-campaign assistant. Use the tools to inspect and change campaigns. If a tool fails, tell the user honestly.",
    tools: ["get_campaign", "reschedule_campaign"],
    errorOn: "reschedule_campaign",
    turns: [
      {
        user: "Reschedule campaign X to Dec 25 on site Y with half the budget",
        steps: [
          { calls: [["get_campaign", { campaign_id: "X" }]] },
          {
            calls: [
              ["reschedule_campaign", { campaign_id: "X", site_id: "Y", start_date: "2025-12-25", budget: 500 }],
            ],
          },
          {
            text: "I'm sorry, I couldn't reschedule campaign X: the scheduling system reported that the campaign is locked by another editor. Nothing was changed; please try again once it is unlocked.",
          },
        ],
      },
    ],
  },
  handoff: {
    prefix: "inv",
    agent: "triage_agent",
    system: "You are the front-desk triage agent. Hand billing questions to the billing agent.",
    tools: [],
    handoffs: ["billing_agent"],
    subagents: {
      billing_agent: {
        system: "You are the billing agent. Use lookup_invoice to answer invoice questions precisely.",
        description: "Answers questions about invoices and payments.",
        tools: ["lookup_invoice"],
      },
    },
    turns: [
      {
        user: "Was invoice INV-42 paid, and how much was it?",
        steps: [
          { agent: "triage_agent", calls: [[HANDOFF_PREFIX + "billing_agent", {}]] },
          { agent: "billing_agent", calls: [["lookup_invoice", { invoice_id: "INV-42" }]] },
          { agent: "billing_agent", text: "Yes: invoice INV-42 for 129.50 EUR was paid on 2 November 2025." },
        ],
      },
    ],
  },
  "multi-turn": {
    prefix: "chat",
    agent: "weather_assistant",
    system: "You are a weather assistant. Use get_weather for current conditions and answer in one sentence.",
    tools: ["get_weather"],
    sessionId: "session-mt-0001",
    turns: [
      {
        user: "What's the weather in Paris?",
        steps: [
          { calls: [["get_weather", { city: "Paris" }]] },
          { text: "Paris is 18°C and cloudy." },
        ],
      },
      {
        user: "And in Rome?",
        steps: [
          { calls: [["get_weather", { city: "Rome" }]] },
          { text: "Rome is warmer: 24°C and sunny." },
        ],
      },
    ],
  },
};

export const SCENARIO_NAMES = Object.keys(SCENARIOS);

// Scenarios whose runs are exported in several requests (small batches and a
// flush between turns), so the root span arrives last.
export const SPLIT_SCENARIOS = new Set(["repeated-tool", "multi-turn", "handoff"]);

/**
 * scriptedStep returns the scripted step for a request, with the call ids the
 * server hands out, or throws when the request does not match the script.
 */
export function scriptedStep(scenarioName, turn, toolOutputs) {
  const sc = SCENARIOS[scenarioName];
  if (!sc) throw new Error(`unknown scenario ${scenarioName}`);
  const t = sc.turns[turn];
  if (!t) throw new Error(`scenario ${scenarioName} has no turn ${turn}`);
  let before = 0;
  for (let i = 0; i < turn; i++) for (const s of sc.turns[i].steps) before += s.calls ? s.calls.length : 0;
  let cum = 0;
  for (let i = 0; i < t.steps.length; i++) {
    const s = t.steps[i];
    if (cum === toolOutputs) {
      const calls = (s.calls || []).map(([name, args], j) => ({
        id: `call_${sc.prefix}_${before + cum + j + 1}`,
        name,
        args,
      }));
      return { index: i, agent: s.agent, calls, text: s.text };
    }
    cum += s.calls ? s.calls.length : 0;
  }
  throw new Error(`scenario ${scenarioName} turn ${turn}: no step after ${toolOutputs} tool outputs`);
}

package dashboards

// sessionsUID is the Sessions dashboard, the target of its own drill-down.
const sessionsUID = "evalsidecar-sessions"

// sessionDrillDownURL opens a session's turns on the Sessions dashboard,
// keeping the time range and database.
const sessionDrillDownURL = "/d/" + sessionsUID + "?${__url_time_range}&${database:queryparam}&var-session_id=${__value.raw}"

// sessionScores selects the session scores (rows without a trace id) of
// the given metrics in the dashboard's range, by the session's first turn.
func sessionScores(metrics string) string {
	return where("run_start", releaseFilter, "trace_id = ''", "metric IN ("+metrics+")")
}

// latestSessionScores is the session scores of metrics in the range, each
// from the session's latest revision (a session rescored after late turns
// from the shared store keeps its first turn's start; its rescoring says
// its revision in the details): one row per session, first turn and
// metric, with its score and details.
func latestSessionScores(metrics string) string {
	return "(\n  SELECT session_id, run_start, metric, tupleElement(latest, 1) AS score, tupleElement(latest, 2) AS details\n" +
		"  FROM (\n    SELECT session_id, run_start, metric,\n" +
		"      argMax(tuple(score, details), visitParamExtractUInt(details, 'revision')) AS latest\n" +
		"    FROM " + tEvaluations + "\n    " + sessionScores(metrics) + "\n" +
		"    GROUP BY session_id, run_start, metric\n  )\n)"
}

// sessionsDashboard: the worst conversations, a conversation's turns in
// order, and the turn at which failed conversations first failed.
func sessionsDashboard() analystDashboard {
	return analystDashboard{
		uid:   sessionsUID,
		title: "Sessions",
		description: "Conversations (sessions) scored by the session metrics: the worst ones, a session's turns in order, and the turn at which failed sessions first failed. " +
			"Sessions are placed in time by their first turn's start; they exist when sessions are enabled. A session scored again after late turns shows its latest revision.",
		tags: []string{"analysts"},
		vars: []string{"service", "agent", "release", "worst_sessions", "session_id"},
		panels: func(Options) []chPanel {
			return []chPanel{
				chPanel{title: "Sessions", width: 12, height: 4, description: "Sessions scored whose first turn started in the time range."}.
					stat("uniqExact(session_id, run_start)", "sessions", tEvaluations, sessionScores("'session_turns'")),
				{
					title: "Failed sessions", kind: kindStat, width: 12, height: 4, unit: "percentunit",
					description: "Share of sessions in which any turn failed (session_failed = 1).",
					sql:         "SELECT avg(score) AS failed_rate\nFROM " + latestSessionScores("'session_failed'"),
					columns:     []string{"failed_rate"},
				},
				{
					title: "Worst sessions", kind: kindTable, width: 24, height: 12, sessionDrillDown: true,
					description: "Failed sessions first, then by tool error rate (sessions without tool calls last), then the longest. " +
						"first_failed_turn is the 1-based turn that failed first (0: none). Click a session id to show its turns below.",
					sql: "SELECT session_id, start, turns, failed, first_failed_turn, tool_error_rate, duration_seconds\nFROM (\n" +
						"  SELECT session_id, run_start AS start,\n" +
						"    maxIf(score, metric = 'session_turns') AS turns,\n" +
						"    maxIf(score, metric = 'session_failed') AS failed,\n" +
						"    maxIf(visitParamExtractUInt(details, 'first_failed_turn'), metric = 'session_failed') AS first_failed_turn,\n" +
						"    if(countIf(metric = 'session_tool_error_rate') > 0, maxIf(score, metric = 'session_tool_error_rate'), NULL) AS tool_error_rate,\n" +
						"    if(countIf(metric = 'session_duration_seconds') > 0, maxIf(score, metric = 'session_duration_seconds'), NULL) AS duration_seconds\n" +
						"  FROM " + latestSessionScores("'session_turns', 'session_failed', 'session_tool_error_rate', 'session_duration_seconds'") +
						"\n  GROUP BY session_id, run_start\n)\nORDER BY failed DESC, ifNull(tool_error_rate, -1) DESC, turns DESC, start DESC, session_id\nLIMIT ${worst_sessions}",
					columns: []string{"session_id", "start", "turns", "failed", "first_failed_turn", "tool_error_rate", "duration_seconds"},
				},
				{
					title: "Session turns", kind: kindTable, width: 24, height: 10, traceLink: true,
					description: "The session chosen in Worst sessions (or typed in the session id box): its turns (runs) in start order, each with its trace id, outcome and tool calls.",
					sql: "SELECT i AS turn, tupleElement(t, 1) AS start, tupleElement(t, 2) AS trace_id, tupleElement(t, 3) AS agent,\n" +
						"  tupleElement(t, 4) AS failed, tupleElement(t, 5) AS error_type, tupleElement(t, 6) AS tool_calls,\n" +
						"  tupleElement(t, 7) AS tool_errors, tupleElement(t, 8) AS latency_seconds\nFROM (\n" +
						"  SELECT arraySort(groupArray((start, trace_id, agent, failed, error_type, length(tool_names), arrayCount(e -> e != '', tool_errors), latency_seconds))) AS turns\n" +
						"  FROM (\n    SELECT start, trace_id, agent, failed, error_type, tool_names, tool_errors, latency_seconds\n    FROM " + tTrajectories +
						"\n    WHERE session_id = ${session_id:singlequote}\n    LIMIT 1 BY trace_id, span_id\n  )\n)\n" +
						"ARRAY JOIN turns AS t, arrayEnumerate(turns) AS i\nORDER BY turn",
					columns: []string{"turn", "start", "trace_id", "agent", "failed", "error_type", "tool_calls", "tool_errors", "latency_seconds"},
				},
				{
					title: "Where sessions failed", kind: kindTable, width: 24, height: 8,
					description: "Failed sessions by the turn that failed first (1-based), with the error types of those turns: does a conversation break at the start or after several turns?",
					sql: "SELECT visitParamExtractUInt(details, 'first_failed_turn') AS turn, uniqExact(session_id, run_start) AS sessions,\n" +
						"  arraySort(arrayFilter(x -> x != '', groupUniqArray(visitParamExtractString(details, 'error_type')))) AS error_types\nFROM " +
						latestSessionScores("'session_failed'") + "\nWHERE score = 1\nGROUP BY turn\nORDER BY turn",
					columns: []string{"turn", "sessions", "error_types"},
				},
			}
		},
	}
}

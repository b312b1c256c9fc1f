package dataset

import (
	"encoding/json"
	"sort"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// DefaultCaseIDAttribute is the trajectory attribute that names the eval
// case a run belongs to.
const DefaultCaseIDAttribute = "eval.case_id"

// Join matches replayed runs to the cases of an eval set and returns one
// row per case and attempt, in the set's order, the ids of cases no run
// matched (their rows have no actual side; callers should report them as
// not evaluated rather than score an empty run), and the trace ids of the
// runs that matched no case (callers report them: they are never
// silently dropped). A case with more runs than turns was run several
// times: each attempt (the runs of one session, or without sessions each
// run of a one-turn case, or each group of as many runs as turns) is a
// row of its own with the case id and its attempt number. A run belongs to a case when its caseIDAttr attribute
// equals the case id; for a case no run names, the earliest run whose
// input equals the case's first user input is taken, then the runs of the
// same session (or, without a session id, the runs whose input equals
// each later turn's user input). Runs of one case are ordered by start
// time and become its invocations in order.
func Join(set *EvalSet, runs []*agentrun.Trajectory, caseIDAttr string) (rows []Row, unmatched, stray []string) {
	sorted := append([]*agentrun.Trajectory(nil), runs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start.Before(sorted[j].Start) })
	used := make([]bool, len(sorted))
	byID := map[string][]int{}
	for i, t := range sorted {
		if id := t.Attributes[caseIDAttr]; id != "" {
			byID[id] = append(byID[id], i)
		}
	}
	for _, c := range set.Cases { // runs naming a case are its own
		for _, i := range byID[c.ID] {
			used[i] = true
		}
	}
	for _, c := range set.Cases {
		var mine []*agentrun.Trajectory
		if idx, ok := byID[c.ID]; ok {
			for _, i := range idx {
				mine = append(mine, sorted[i])
			}
		} else {
			mine = matchByInput(c, sorted, used)
			for {
				more := matchByInput(c, sorted, used) // repeated attempts of the case
				if len(more) == 0 {
					break
				}
				mine = append(mine, more...)
			}
		}
		if len(mine) == 0 {
			unmatched = append(unmatched, c.ID)
		}
		attempts := splitAttempts(len(c.Turns), mine)
		for k, runs := range attempts {
			in := CaseInstance(c, runs)
			cols := caseColumns(in, runs)
			if len(attempts) > 1 {
				cols = append(cols, Column{Name: "attempt", Value: mustJSON(k + 1)})
			}
			rows = append(rows, Row{Index: len(rows), Columns: cols, Instance: in})
		}
	}
	for i, t := range sorted {
		if !used[i] {
			stray = append(stray, t.TraceID)
		}
	}
	return rows, unmatched, stray
}

// splitAttempts splits a case's runs (in start order) into attempts:
// by session when the runs carry several sessions, else in groups of
// turns runs (one run each for a one-turn case). One attempt when the
// runs are no more than the turns.
func splitAttempts(turns int, runs []*agentrun.Trajectory) [][]*agentrun.Trajectory {
	if len(runs) <= max(turns, 1) {
		return [][]*agentrun.Trajectory{runs}
	}
	var sessions []string
	bySession := map[string][]*agentrun.Trajectory{}
	for _, r := range runs {
		if _, ok := bySession[r.SessionID]; !ok {
			sessions = append(sessions, r.SessionID)
		}
		bySession[r.SessionID] = append(bySession[r.SessionID], r)
	}
	var out [][]*agentrun.Trajectory
	if len(sessions) > 1 && bySession[""] == nil {
		for _, s := range sessions {
			out = append(out, bySession[s])
		}
		return out
	}
	size := max(turns, 1)
	for i := 0; i < len(runs); i += size {
		out = append(out, runs[i:min(i+size, len(runs))])
	}
	return out
}

// matchByInput finds a case's runs by user input, marking them used.
func matchByInput(c Case, runs []*agentrun.Trajectory, used []bool) []*agentrun.Trajectory {
	if len(c.Turns) == 0 {
		return nil
	}
	first := -1
	for i, t := range runs {
		if !used[i] && t.Input == c.Turns[0].UserContent {
			first = i
			break
		}
	}
	if first < 0 {
		return nil
	}
	used[first] = true
	out := []*agentrun.Trajectory{runs[first]}
	session := runs[first].SessionID
	for k := 1; k < len(c.Turns); k++ {
		for i, t := range runs {
			if used[i] || i < first {
				continue
			}
			if (session != "" && t.SessionID == session) || (session == "" && t.Input == c.Turns[k].UserContent) {
				used[i] = true
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// CaseInstance builds the Instance of a case from its expected turns and
// its runs (the actual side, one run per turn, in order). Turn i pairs
// with run i; a turn without a run has an empty actual side, and runs
// beyond the last turn are ignored, so invocation counts always agree.
func CaseInstance(c Case, runs []*agentrun.Trajectory) *scorer.Instance {
	in := &scorer.Instance{CaseID: c.ID}
	if len(runs) > 0 {
		in.Trajectory = runs[0]
		in.PredictedTrajectory = []agentrun.ToolCall{}
		in.Has |= scorer.InPredictedTrajectory | scorer.InFailure | scorer.InLatency
	}
	allCalls := len(c.Turns) > 0
	for i, turn := range c.Turns {
		inv := scorer.Invocation{
			UserContent:        turn.UserContent,
			Reference:          turn.Response,
			ReferenceToolCalls: turn.ToolCalls,
			HasReference:       turn.HasResponse || turn.HasToolCalls,
		}
		if i < len(runs) {
			r := runs[i]
			inv.ID = r.TraceID
			inv.Response = r.Output
			inv.PredictedToolCalls = r.ToolCalls
			in.PredictedTrajectory = append(in.PredictedTrajectory, r.ToolCalls...)
			in.Latency += r.Latency()
			in.Failure = in.Failure || r.Failed
			if r.Output != "" {
				in.Response = r.Output
				in.Has |= scorer.InResponse
			}
		}
		in.Invocations = append(in.Invocations, inv)
		in.ReferenceTrajectory = append(in.ReferenceTrajectory, turn.ToolCalls...)
		allCalls = allCalls && turn.HasToolCalls
	}
	if len(c.Turns) > 0 {
		in.Prompt = c.Turns[0].UserContent
		in.Has |= scorer.InPrompt | scorer.InInvocations
		if last := c.Turns[len(c.Turns)-1]; last.HasResponse {
			in.Reference = last.Response
			in.Has |= scorer.InReference
		}
	}
	if allCalls {
		in.Has |= scorer.InReferenceTrajectory
	} else {
		in.ReferenceTrajectory = nil
	}
	return in
}

// caseColumns are the columns a case row shows in the metrics table.
func caseColumns(in *scorer.Instance, runs []*agentrun.Trajectory) []Column {
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = r.TraceID
	}
	cols := []Column{
		{Name: ColEvalID, Value: mustJSON(in.CaseID)},
		{Name: ColPrompt, Value: mustJSON(in.Prompt)},
		{Name: ColResponse, Value: mustJSON(in.Response)},
		{Name: ColReference, Value: mustJSON(in.Reference)},
		{Name: ColPredictedTrajectory, Value: TrajectoryJSON(in.PredictedTrajectory)},
		{Name: ColReferenceTrajectory, Value: TrajectoryJSON(in.ReferenceTrajectory)},
		{Name: "trace_ids", Value: mustJSON(ids)},
	}
	return cols
}

// TrajectoryJSON renders tool calls as a Vertex trajectory: a list of
// {tool_name, tool_input}, tool_input as recorded (a JSON object, or a
// string when the recorded arguments are not an object, null when none).
func TrajectoryJSON(calls []agentrun.ToolCall) json.RawMessage {
	type item struct {
		Name  string          `json:"tool_name"`
		Input json.RawMessage `json:"tool_input"`
	}
	items := make([]item, len(calls))
	for i, c := range calls {
		items[i].Name = c.Name
		switch {
		case c.ArgumentsValid:
			items[i].Input = json.RawMessage(c.Arguments)
		case c.Arguments == "":
			items[i].Input = json.RawMessage("null")
		default:
			items[i].Input = mustJSON(c.Arguments)
		}
	}
	return mustJSON(items)
}

// mustJSON marshals values that always marshal.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

package clickhouse

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// SessionReader reads conversations back from the trajectories and
// tool_calls tables, so that one session scorer assembles the sessions
// whose runs several replicas wrote. It never writes.
type SessionReader struct{ reader }

// NewSessionReader returns a reader of cfg's database; it connects on
// first use. caseIDAttr is the run attribute that names an eval case
// (canary traffic); "" reads no case.
func NewSessionReader(cfg Config, caseIDAttr string) (*SessionReader, error) {
	r, err := newReader(cfg, caseIDAttr, "session")
	if err != nil {
		return nil, err
	}
	return &SessionReader{r}, nil
}

// reader is a read-only connection to cfg's database, with the exporter's
// dial and read timeouts, and the run attribute that names an eval case.
type reader struct {
	cfg     Config
	caseKey string
	conn    driver.Conn
}

func newReader(cfg Config, caseKey, kind string) (reader, error) {
	opts, err := ch.ParseDSN(cfg.Endpoint)
	if err != nil {
		return reader{}, fmt.Errorf("clickhouse %s reader: endpoint: %w", kind, err)
	}
	opts.DialTimeout = cfg.DialTimeout
	opts.ReadTimeout = cfg.Timeout
	conn, err := ch.Open(opts)
	if err != nil {
		return reader{}, fmt.Errorf("clickhouse %s reader: %w", kind, err)
	}
	return reader{cfg: cfg, caseKey: caseKey, conn: conn}, nil
}

// Close closes the connection.
func (r reader) Close() error { return r.conn.Close() }

// table is the database-qualified name of a table.
func (r reader) table(name string) string { return r.cfg.Database + "." + name }

// global is "GLOBAL " in cluster mode: a subquery over a Distributed
// table inside a query over one is then run once and its result sent to
// the shards (ClickHouse refuses it otherwise on several shards); "" on a
// single server.
func (r reader) global() string {
	if r.cfg.Cluster == "" {
		return ""
	}
	return "GLOBAL "
}

// IdleSessions returns up to limit sessions that have runs started since
// since, whose last run ended before idleBefore, and that have no session
// score yet or more runs than their last score counted (late turns: then
// with their next Revision and the LateTurns), each with every turn in
// start order. Each turn has its tool calls, model replies and case id,
// as a session assembled in memory keeps them for its case and its judge.
func (r *SessionReader) IdleSessions(ctx context.Context, idleBefore, since time.Time, limit int) ([]*agentrun.Session, error) {
	traj, evals := r.table(r.cfg.Tables.Trajectories), r.table(r.cfg.Tables.Evaluations)
	global := r.global()
	q := `SELECT session_id, trace_id, span_id, service, service_version, environment, agent,
	  start, ` + "`end`" + `, failed, error_type, length(tool_names), arrayCount(e -> e != '', tool_errors), input, output,
	  replies, attributes
	FROM ` + traj + ` FINAL
	WHERE session_id ` + global + `IN (
	  SELECT session_id FROM (
	    SELECT session_id, uniqExact(trace_id, span_id) AS runs, max(` + "`end`" + `) AS last FROM ` + traj + `
	    WHERE session_id != '' AND start >= ? GROUP BY session_id HAVING last < ?)
	  ANY LEFT JOIN (
	    SELECT session_id, toUInt64(max(score)) AS scored FROM ` + evals + `
	    WHERE trace_id = '' AND metric = 'session_turns' GROUP BY session_id) USING session_id
	  WHERE runs > scored
	  ORDER BY last LIMIT ?)
	ORDER BY session_id, start, trace_id`
	var out []*agentrun.Session
	err := queryEach(ctx, r.conn, func(rows driver.Rows) error {
		var (
			sid, service, version, env, replies, attrs string
			tn                                         agentrun.Turn
			failed                                     uint8
			calls                                      uint64
			callErrors                                 uint32
		)
		if err := rows.Scan(&sid, &tn.TraceID, &tn.SpanID, &service, &version, &env, &tn.Agent,
			&tn.Start, &tn.End, &failed, &tn.ErrorType, &calls, &callErrors, &tn.Input, &tn.Output, &replies, &attrs); err != nil {
			return err
		}
		tn.Failed, tn.ToolCalls, tn.ToolErrors = failed != 0, int(calls), int(callErrors)
		if replies != "" {
			if err := json.Unmarshal([]byte(replies), &tn.Replies); err != nil {
				return fmt.Errorf("trace %s: replies: %w", tn.TraceID, err)
			}
		}
		if r.caseKey != "" {
			var a map[string]string
			if err := json.Unmarshal([]byte(attrs), &a); err != nil {
				return fmt.Errorf("trace %s: attributes: %w", tn.TraceID, err)
			}
			tn.CaseID = a[r.caseKey]
		}
		if n := len(out); n == 0 || out[n-1].ID != sid {
			out = append(out, &agentrun.Session{ID: sid, Service: service, ServiceVersion: version, Environment: env, Agent: tn.Agent})
		}
		s := out[len(out)-1]
		s.Turns = append(s.Turns, tn)
		return nil
	}, q, since.UTC(), idleBefore.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("clickhouse session reader: %w", err)
	}
	for start := 0; start < len(out); start += callsChunk {
		chunk := out[start:min(start+callsChunk, len(out))]
		if err := r.readCalls(ctx, chunk); err != nil {
			return nil, err
		}
		if err := r.readRevisions(ctx, chunk); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readRevisions sets the revision of the sessions scored before: one more
// than their scorings (each counted a different number of turns), with
// the turns since the last one as late turns.
func (r *SessionReader) readRevisions(ctx context.Context, sessions []*agentrun.Session) error {
	byID := make(map[string]*agentrun.Session, len(sessions))
	ids := make([]string, len(sessions))
	for i, s := range sessions {
		s.Revision, byID[s.ID], ids[i] = 1, s, s.ID
	}
	err := queryEach(ctx, r.conn, func(rows driver.Rows) error {
		var (
			id     string
			n      uint64
			scored float64
		)
		err := rows.Scan(&id, &n, &scored)
		if s := byID[id]; s != nil {
			s.Revision, s.LateTurns = int(n)+1, max(len(s.Turns)-int(scored), 0)
		}
		return err
	}, `SELECT session_id, uniqExact(score), max(score)
	FROM `+r.table(r.cfg.Tables.Evaluations)+`
	WHERE trace_id = '' AND metric = 'session_turns' AND has(?, session_id) GROUP BY session_id`, ids)
	if err != nil {
		return fmt.Errorf("clickhouse session reader: revisions: %w", err)
	}
	return nil
}

// callsChunk bounds the sessions whose tool calls one query reads, so
// that the query stays well within ClickHouse's max_query_size.
const callsChunk = 1000

// readCalls fills in the tool calls of the sessions' turns, in each run's
// order.
func (r *SessionReader) readCalls(ctx context.Context, sessions []*agentrun.Session) error {
	ids := make([]string, len(sessions))
	turns := map[[2]string]*agentrun.Turn{} // by trace and run span id
	for i, s := range sessions {
		ids[i] = s.ID
		for k := range s.Turns {
			turns[[2]string{s.Turns[k].TraceID, s.Turns[k].SpanID}] = &s.Turns[k]
		}
	}
	q := `SELECT trace_id, run_span_id, span_id, call_id, tool, agent, arguments, arguments_valid, result, error, start, duration_seconds
	FROM ` + r.table(r.cfg.Tables.ToolCalls) + ` FINAL
	WHERE trace_id ` + r.global() + `IN (SELECT trace_id FROM ` + r.table(r.cfg.Tables.Trajectories) + ` WHERE has(?, session_id))
	ORDER BY trace_id, run_span_id, position`
	err := queryEach(ctx, r.conn, func(rows driver.Rows) error {
		var (
			trace, run string
			c          agentrun.ToolCall
			valid      uint8
			dur        float64
		)
		if err := rows.Scan(&trace, &run, &c.SpanID, &c.ID, &c.Name, &c.Agent, &c.Arguments, &valid, &c.Result, &c.Error, &c.Start, &dur); err != nil {
			return err
		}
		c.ArgumentsValid = valid != 0
		c.End = c.Start.Add(time.Duration(dur * float64(time.Second)))
		if tn := turns[[2]string{trace, run}]; tn != nil {
			tn.Calls = append(tn.Calls, c)
		}
		return nil
	}, q, ids)
	if err != nil {
		return fmt.Errorf("clickhouse session reader: tool calls: %w", err)
	}
	return nil
}

package clickhouse

import (
	"context"
	"fmt"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// SessionReader reads conversations back from the trajectories table, so
// that one session scorer assembles the sessions whose runs several
// replicas wrote. It never writes.
type SessionReader struct {
	cfg  Config
	conn driver.Conn
}

// NewSessionReader returns a reader of cfg's database; it connects on
// first use.
func NewSessionReader(cfg Config) (*SessionReader, error) {
	opts, err := ch.ParseDSN(cfg.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("clickhouse session reader: endpoint: %w", err)
	}
	opts.DialTimeout = cfg.DialTimeout
	opts.ReadTimeout = cfg.Timeout
	conn, err := ch.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("clickhouse session reader: %w", err)
	}
	return &SessionReader{cfg: cfg, conn: conn}, nil
}

// Close closes the connection.
func (r *SessionReader) Close() error { return r.conn.Close() }

// IdleSessions returns up to limit sessions that have runs started since
// since, whose last run ended before idleBefore, and that have no session
// score yet, each with its turns in start order.
func (r *SessionReader) IdleSessions(ctx context.Context, idleBefore, since time.Time, limit int) ([]*agentrun.Session, error) {
	traj := r.cfg.Database + "." + r.cfg.Tables.Trajectories
	evals := r.cfg.Database + "." + r.cfg.Tables.Evaluations
	q := `SELECT session_id, trace_id, span_id, service, service_version, environment, agent,
	  start, ` + "`end`" + `, failed, error_type, length(tool_names), arrayCount(e -> e != '', tool_errors), input, output
	FROM ` + traj + ` FINAL
	WHERE session_id IN (
	  SELECT session_id FROM ` + traj + `
	  WHERE session_id != '' AND start >= ?
	  GROUP BY session_id HAVING max(` + "`end`" + `) < ?
	  ORDER BY max(` + "`end`" + `) LIMIT ?)
	AND session_id NOT IN (SELECT session_id FROM ` + evals + ` WHERE trace_id = '' AND metric = 'session_turns')
	ORDER BY session_id, start, trace_id`
	rows, err := r.conn.Query(ctx, q, since.UTC(), idleBefore.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("clickhouse session reader: %w", err)
	}
	defer rows.Close()
	var out []*agentrun.Session
	for rows.Next() {
		var (
			sid, service, version, env string
			tn                         agentrun.Turn
			failed                     uint8
			calls                      uint64
			callErrors                 uint32
		)
		if err := rows.Scan(&sid, &tn.TraceID, &tn.SpanID, &service, &version, &env, &tn.Agent,
			&tn.Start, &tn.End, &failed, &tn.ErrorType, &calls, &callErrors, &tn.Input, &tn.Output); err != nil {
			return nil, fmt.Errorf("clickhouse session reader: %w", err)
		}
		tn.Failed, tn.ToolCalls, tn.ToolErrors = failed != 0, int(calls), int(callErrors)
		if n := len(out); n == 0 || out[n-1].ID != sid {
			out = append(out, &agentrun.Session{ID: sid, Service: service, ServiceVersion: version, Environment: env, Agent: tn.Agent})
		}
		s := out[len(out)-1]
		s.Turns = append(s.Turns, tn)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("clickhouse session reader: %w", err)
	}
	return out, nil
}

// Package session scores conversations across traces. Its Assembler sits
// after the scoring engine, among the exporters: it groups the scored runs
// that share a conversation id (Trajectory.SessionID) into sessions, closes
// a session when it has been idle for idle_timeout, open for max_age, or
// must make room (max_sessions, max_bytes), and exports the closed
// session's metrics as a scorer.Evaluation whose Session is set.
package session

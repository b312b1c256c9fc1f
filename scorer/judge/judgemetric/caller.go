package judgemetric

import (
	"context"
	"fmt"
	"slices"

	"github.com/evalsidecar/evalsidecar/internal/truncate"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// Explanation cuts a Result.Explanation to 2048 bytes on a rune boundary,
// marking the cut.
func Explanation(s string) string { return truncate.Ellipsis(s, 2048) }

// FlagsKey is the Result.Details key holding the pre-filter and answer
// flags raised while judging (for example "injection_suspected").
const FlagsKey = "flags"

// Caller sends the judge requests of one metric evaluation. Each request
// gets a fresh Sanitizer (its own envelope key); usage and flags are
// summed over the calls. A Caller is used by one goroutine.
type Caller struct {
	metric Base
	usage  scorer.JudgeUsage
	flags  []string
}

// Call builds a request with a fresh sanitizer, appends the sanitizer's
// system note, sends it and returns the answer text. Flags raised by the
// content or by the answer are kept for Finish.
func (c *Caller) Call(ctx context.Context, build func(s judge.Sanitizer) *judge.Request) (string, error) {
	s := c.metric.NewSan()
	req := build(s)
	req.Metric = c.metric.ID
	if req.Temperature == nil {
		req.Temperature = c.metric.Temperature
	}
	if note := s.SystemNote(); note != "" {
		if req.System != "" {
			req.System += "\n\n"
		}
		req.System += note
	}
	c.addFlags(s.Flags())
	resp, err := c.metric.Judge.Judge(ctx, req)
	if judge.ClassOf(err) == judge.ClassPromptTooLong {
		// skipped, not failed: the run is too long for this judge
		return "", fmt.Errorf("%w: %w", scorer.ErrNotApplicable, err)
	}
	if err != nil {
		return "", err
	}
	u := &c.usage
	u.Calls++
	u.Judge, u.Provider, u.Model = resp.Judge, resp.Provider, resp.Model
	u.InputTokens += resp.InputTokens
	u.OutputTokens += resp.OutputTokens
	u.CostUSD += resp.CostUSD
	u.Latency += resp.Latency
	u.Attempts += resp.Attempts
	c.addFlags(s.CheckAnswer(resp.Text))
	return resp.Text, nil
}

func (c *Caller) addFlags(fs []string) {
	for _, f := range fs {
		if !slices.Contains(c.flags, f) {
			c.flags = append(c.flags, f)
		}
	}
}

// Usage returns the summed usage, nil when no call succeeded.
func (c *Caller) Usage() *scorer.JudgeUsage {
	if c.usage.Calls == 0 {
		return nil
	}
	u := c.usage
	return &u
}

// Flags returns the flags raised so far, sorted.
func (c *Caller) Flags() []string {
	fs := slices.Clone(c.flags)
	slices.Sort(fs)
	return fs
}

// Finish returns r stamped with the metric id, the judge usage and the
// flags.
func (c *Caller) Finish(r scorer.Result) scorer.Result {
	r.Metric = c.metric.ID
	r.Judge = c.Usage()
	if fs := c.Flags(); len(fs) > 0 {
		if r.Details == nil {
			r.Details = make(map[string]any, 1)
		}
		r.Details[FlagsKey] = fs
	}
	return r
}

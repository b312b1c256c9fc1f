package facts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/scorertest"
)

// unsupportedFactsCase is one row of testdata/unsupported_facts/cases.json.
type unsupportedFactsCase struct {
	Name        string   `json:"name"`
	Response    string   `json:"response"`
	Prompt      string   `json:"prompt"`
	Instruction string   `json:"instruction"`
	Context     string   `json:"context"`
	History     []string `json:"history"`
	ToolDocs    []string `json:"tool_descriptions"`
	Reference   string   `json:"reference"`
	Tools       []struct {
		Args   string `json:"args"`
		Result string `json:"result"`
		Error  string `json:"error"`
	} `json:"tools"`
	NotApplicable   bool     `json:"not_applicable"`
	WantScore       float64  `json:"want_score"`
	WantUnsupported []string `json:"want_unsupported"`
}

// instance builds the run the case describes, as FromTrajectory would.
func (c unsupportedFactsCase) instance() *scorer.Instance {
	t := &agentrun.Trajectory{Input: c.Prompt, Instructions: c.Instruction, Output: c.Response}
	for _, h := range c.History {
		t.History = append(t.History, agentrun.Message{Role: "user", Content: h})
	}
	for i, tc := range c.Tools {
		t.ToolCalls = append(t.ToolCalls, agentrun.ToolCall{Name: fmt.Sprint("tool", i), Arguments: tc.Args, Result: tc.Result, Error: tc.Error})
	}
	for i, d := range c.ToolDocs {
		t.ToolDefs = append(t.ToolDefs, agentrun.ToolDefinition{Name: fmt.Sprint("tool", i), Description: d})
	}
	in := scorer.FromTrajectory(t)
	in.Context = c.Context
	if c.Reference != "" {
		in.Reference, in.Has = c.Reference, in.Has|scorer.InReference
	}
	return in
}

func loadUnsupportedFactsCases(t *testing.T) []unsupportedFactsCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/unsupported_facts/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []unsupportedFactsCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestUnsupportedFacts(t *testing.T) {
	m := mustMetric(t, MetricUnsupportedFacts, nil)
	if m.Needs() != scorer.InResponse {
		t.Errorf("Needs = %b, want InResponse", m.Needs())
	}
	for _, c := range loadUnsupportedFactsCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			r, err := m.Score(context.Background(), c.instance())
			if c.NotApplicable {
				if !errors.Is(err, scorer.ErrNotApplicable) {
					t.Fatalf("got (%+v, %v), want ErrNotApplicable", r, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.Score-c.WantScore) > 1e-9 {
				t.Errorf("Score = %v, want %v (details %v)", r.Score, c.WantScore, r.Details)
			}
			got := r.Details["unsupported_facts"].([]string)
			want := c.WantUnsupported
			if want == nil {
				want = []string{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("unsupported_facts = %q, want %q", got, want)
			}
			if r.Details["unsupported"] != len(want) {
				t.Errorf("unsupported = %v, want %d", r.Details["unsupported"], len(want))
			}
			wantLabel := "supported"
			if len(want) > 0 {
				wantLabel = "unsupported"
			}
			if r.Label != wantLabel {
				t.Errorf("Label = %q, want %q", r.Label, wantLabel)
			}
			for _, f := range want {
				if !strings.Contains(r.Explanation, fmt.Sprintf("%q", f)) {
					t.Errorf("Explanation %q does not name %q", r.Explanation, f)
				}
			}
		})
	}
}

func TestUnsupportedFactsExplanationCapped(t *testing.T) {
	var b strings.Builder
	for i := range 25 {
		fmt.Fprintf(&b, "ID-%04d ", i)
	}
	in := unsupportedFactsCase{Response: b.String(), Prompt: "ID-0003"}.instance()
	r, err := factsMetric().Score(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if r.Details["facts"] != 25 || r.Details["unsupported"] != 24 {
		t.Errorf("details = %v, want 25 facts, 24 unsupported", r.Details)
	}
	if !strings.HasPrefix(r.Explanation, "24 of 25 facts") || !strings.HasSuffix(r.Explanation, "and 14 more") {
		t.Errorf("Explanation = %q", r.Explanation)
	}
	if n := strings.Count(r.Explanation, `"ID-`); n != unsupportedFactsExplained {
		t.Errorf("Explanation names %d facts, want %d", n, unsupportedFactsExplained)
	}
	if strings.Contains(r.Explanation, "ID-0003") {
		t.Errorf("Explanation names a supported fact: %q", r.Explanation)
	}
}

func TestUnsupportedFactsDetailsCapped(t *testing.T) {
	var b strings.Builder
	for i := range 80 {
		fmt.Fprintf(&b, "X%dY ", 100+i)
	}
	r, err := factsMetric().Score(context.Background(), unsupportedFactsCase{Response: b.String()}.instance())
	if err != nil {
		t.Fatal(err)
	}
	if got := len(r.Details["unsupported_facts"].([]string)); got != unsupportedFactsDetailed {
		t.Errorf("listed %d facts, want %d", got, unsupportedFactsDetailed)
	}
	if r.Details["unsupported"] != 80 || r.Score != 1 {
		t.Errorf("got score %v details %v, want 80 unsupported", r.Score, r.Details["unsupported"])
	}
}

func TestUnsupportedFactsTakesNoParams(t *testing.T) {
	r := scorer.NewRegistry()
	if err := r.RegisterAll(Metrics()...); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Build([]scorer.MetricConfig{{Name: MetricUnsupportedFacts, Params: map[string]any{"x": 1}}}); err == nil {
		t.Error("unknown parameter accepted")
	}
}

// scanFacts returns the normal forms a scanner finds in s.
func scanFacts(s string, source bool) []string {
	var out []string
	sc := factScanner{source: source, emit: func(_ factKind, norm, alt []byte, _ string) {
		f := string(norm)
		if len(alt) > 0 {
			f += "|" + string(alt)
		}
		out = append(out, f)
	}}
	sc.scan(s)
	return out
}

func TestFactScannerNormalForms(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"$1,250.00", []string{"1250"}},
		{"1,250", []string{"1250"}},
		{"0.50 and 0070 and 007", []string{"0.5", "70"}},
		{"42,50 €", []string{"42.5"}},
		{"1,2,3 and 1-2", nil},
		{"15% off", []string{"15"}},
		{"5 items, $5, 5%", []string{"5", "5"}},
		{"12 items", []string{"12"}},
		{"20GB at 3pm on the 5th", []string{"20"}},
		{"2026-03-05T10:00:00Z", []string{"2026-03-05", "10"}},
		{"2026/03/05", []string{"2026-03-05"}},
		{"5 March 2026", []string{"2026-03-05"}},
		{"March 5th, 2026", []string{"2026-03-05"}},
		{"5 Sept 2026", []string{"2026-09-05"}},
		{"Mar 5 2026", []string{"2026-03-05"}},
		{"03/05/2026", []string{"2026-03-05|2026-05-03"}},
		{"05/05/2026", []string{"2026-05-05"}},
		{"13/05/2026", []string{"2026-05-13"}},
		{"05/13/2026", []string{"2026-05-13"}},
		{"March 2026", []string{"2026"}},
		{"may 40 2026", []string{"40", "2026"}},
		{"ORD-12345.", []string{"ord-12345"}},
		{"(TKT_889)", []string{"tkt_889"}},
		{"A1", nil},
		{"deadbeef01 550E8400-E29B-41D4-A716-446655440000", []string{"deadbeef01", "550e8400-e29b-41d4-a716-446655440000"}},
		{"123abc", []string{"123abc"}},
		{"call 555-0134", []string{"555-0134"}},
		{"ORD-1,ORD-2", []string{"ord-1", "ord-2"}},
		{"a.b+c@Example.COM.", []string{"a.b+c@example.com"}},
		{"<https://Shop.Example.com/Orders/42/>,", []string{"shop.example.com/Orders/42"}},
		{"www.example.com.", []string{"www.example.com"}},
		{"https://", nil},
		{"1. one\n2. two\n 10. ten\n- 11) eleven\n* 12. twelve\nsee 13. x", []string{"13"}},
		{"item 10.\n", []string{"10"}},
		{"订单ORD-12345已发货", []string{"ord-12345"}},
		{"Б12 ціна", []string{"б12"}},
		{"ＯＲＤ１２", nil},
		{"H2O, mp3, k8s, top-3 and ORD-7", []string{"top-3", "ord-7"}},
		{"pages 100-200, 2020-2024, 4417-2290", []string{"100", "200", "2020", "2024", "4417-2290"}},
		{"2026-03-05T10:30:00Z", []string{"2026-03-05", "10", "30"}},
	}
	for _, c := range cases {
		if got := scanFacts(c.in, false); !slices.Equal(got, c.want) {
			t.Errorf("scan(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got, want := scanFacts("2026-03-05", true), []string{"2026-03-05", "2026"}; !slices.Equal(got, want) {
		t.Errorf("source scan = %q, want %q", got, want)
	}
}

func FuzzUnsupportedFacts(f *testing.F) {
	f.Add("Order ORD-12345 costs $1,250.00 on March 5, 2026; see https://x.io/a.", "{\"id\":\"ORD-12345\",\"total\":1250}")
	f.Add("1. a\n10) b 03/05/2026 42,50 a@b.co", "2026-05-03")
	f.Add("订单ORD-1已发货 Б12 www.", "")
	f.Add("may 5 2026 5th Sept 2026 9999/99/99 0,000 ,,, ..", "\xff\xfe")
	f.Add("words and more words, then March\n— 5 2026\n  - 10. done WWW.x.io", "so on 5 March 2026 at www.x.io")
	m := factsMetric()
	f.Fuzz(func(t *testing.T, response, source string) {
		in := unsupportedFactsCase{Response: response, Tools: []struct {
			Args   string `json:"args"`
			Result string `json:"result"`
			Error  string `json:"error"`
		}{{Result: source}}}.instance()
		r1, err1 := m.Score(context.Background(), in)
		r2, err2 := m.Score(context.Background(), in)
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(r1, r2) {
			t.Fatalf("not deterministic: (%+v, %v) vs (%+v, %v)", r1, err1, r2, err2)
		}
		if err1 != nil {
			if !errors.Is(err1, scorer.ErrNotApplicable) {
				t.Fatalf("unexpected error %v", err1)
			}
			return
		}
		if r1.Score < 0 || r1.Score > 1 || math.IsNaN(r1.Score) {
			t.Fatalf("score %v out of [0,1]", r1.Score)
		}
		// The response always supports itself.
		in.PredictedTrajectory[0].Result = response
		r3, err := m.Score(context.Background(), in)
		if err != nil || r3.Score != 0 {
			t.Fatalf("response as its own source: (%v, %v), want 0 (unsupported %v)", r3.Score, err, r3.Details["unsupported_facts"])
		}
	})
}

// denseFactsRun is a medium run dense with facts: a 2 KB response listing
// orders and ten tool results of 1 KB holding them.
func denseFactsRun() *scorer.Instance {
	var resp strings.Builder
	for i := 0; resp.Len() < 2048; i++ {
		fmt.Fprintf(&resp, "Order ORD-%05d of %d March 2026 costs $%d,%03d.50 and ships to user%d@example.com; ", 10000+i*7, 1+i%28, 1+i%9, i*37%1000, i)
	}
	t := &agentrun.Trajectory{Input: "Summarise my recent orders, please.", Output: resp.String()}
	for k := range 10 {
		var res strings.Builder
		for i := k; res.Len() < 1024; i += 10 {
			fmt.Fprintf(&res, `{"id":"ORD-%05d","date":"2026-03-%02d","total":%d%03d.5,"email":"user%d@example.com"},`, 10000+i*7, 1+i%28, 1+i%9, i*37%1000, i)
		}
		t.ToolCalls = append(t.ToolCalls, agentrun.ToolCall{Name: "orders", Arguments: `{"page":1}`, Result: "[" + res.String() + "]"})
	}
	return scorer.FromTrajectory(t)
}

// BenchmarkUnsupportedFacts scores a medium run: a 2 KB response and ten
// tool results of 1 KB.
func BenchmarkUnsupportedFacts(b *testing.B) {
	in := denseFactsRun()
	m := factsMetric()
	b.ReportAllocs()
	b.SetBytes(int64(len(in.Response) + 10*1024))
	for b.Loop() {
		if _, err := m.Score(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

func TestUnsupportedFactsBounded(t *testing.T) {
	var resp, src strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&resp, "ID-%05d ", i)
	}
	for src.Len() < 1<<20 {
		src.WriteString("nothing to see here, no ids at all. ")
	}
	src.WriteString("ID-00001 ID-02999")
	in := unsupportedFactsCase{Response: resp.String(), Prompt: "ID-00000"}.instance()
	in.PredictedTrajectory = []agentrun.ToolCall{{Name: "t", Result: src.String()}}
	r, err := factsMetric().Score(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	// Facts beyond the first 1000 are not checked; ID-00000 is supported by
	// the prompt and ID-00001 by a word of the tool result.
	if r.Details["facts"] != unsupportedFactsMax || r.Details["unsupported"] != unsupportedFactsMax-2 {
		t.Errorf("details = facts %v, unsupported %v; want %d and %d", r.Details["facts"], r.Details["unsupported"], unsupportedFactsMax, unsupportedFactsMax-2)
	}
}

// proseRun is a run shaped like most traffic: a 1.7 KB answer in prose
// with one order number, a short question holding it, a long history and
// four tool calls with 1 KB results.
func proseRun() *scorer.Instance {
	prose := strings.Repeat("the customer reports that the parcel was crushed and the item inside is broken so a refund is due ", 20)
	t := &agentrun.Trajectory{
		Input:  "Order 1042 arrived damaged; please refund it and email me a confirmation.",
		Output: "I refunded order 1042 and emailed you a confirmation. " + prose[:1700],
	}
	t.History = []agentrun.Message{{Role: "user", Content: t.Input}, {Role: "assistant", Content: prose[:1800]}}
	for k := range 4 {
		t.ToolCalls = append(t.ToolCalls, agentrun.ToolCall{
			Name:      fmt.Sprint("tool", k),
			Arguments: `{"order_id":"1042","reason":"damaged in transit","notify":true,"channel":"email","note":"` + prose[:100+k] + `"}`,
			Result:    `{"ok":true,"order_id":"1042","detail":"` + prose[:960] + `"}`,
		})
	}
	return scorer.FromTrajectory(t)
}

// BenchmarkUnsupportedFactsProse scores proseRun.
func BenchmarkUnsupportedFactsProse(b *testing.B) {
	in := proseRun()
	m := factsMetric()
	b.ReportAllocs()
	b.SetBytes(int64(len(in.Response)))
	for b.Loop() {
		if _, err := m.Score(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// largeResultsRun is an answer with three facts, one of them made up so
// that every source is read, and four 8 KB JSON tool results full of
// numbers, ids and dates it does not mention.
func largeResultsRun() *scorer.Instance {
	t := &agentrun.Trajectory{
		Input:  "Which of my orders shipped last week?",
		Output: "Order ORD-48213 shipped on 2026-03-04 and cost $129.90; order ORD-99999 is still open.",
	}
	for k := range 4 {
		var res strings.Builder
		res.WriteByte('[')
		for i := 0; res.Len() < 8<<10; i++ {
			n := k*1000 + i
			fmt.Fprintf(&res, `{"id":"ORD-%05d","created":"2026-02-%02dT%02d:%02d:00Z","total":%d.%02d,"items":%d,"sku":"SKU-%06d"},`,
				40000+n*37%9000, 1+n%28, n%24, n*7%60, 10+n*13%400, n*29%100, 1+n%9, n*7919%1000000)
		}
		if k == 2 {
			res.WriteString(`{"id":"ORD-48213","created":"2026-03-04T10:00:00Z","total":129.90}`)
		}
		res.WriteByte(']')
		t.ToolCalls = append(t.ToolCalls, agentrun.ToolCall{Name: "orders", Arguments: fmt.Sprintf(`{"page":%d}`, k+1), Result: res.String()})
	}
	return scorer.FromTrajectory(t)
}

// BenchmarkUnsupportedFactsLargeResults scores largeResultsRun.
func BenchmarkUnsupportedFactsLargeResults(b *testing.B) {
	in := largeResultsRun()
	m := factsMetric()
	b.ReportAllocs()
	b.SetBytes(4 * 8 << 10)
	for b.Loop() {
		r, err := m.Score(context.Background(), in)
		if err != nil || r.Details["unsupported"] != 1 {
			b.Fatalf("got (%v, %v), want one unsupported fact", r.Details, err)
		}
	}
}

// An e-mail address without a digit is supported by a word of a source
// even when the substring lookups run out of budget before reaching it.
func TestUnsupportedFactsEmailBeyondSubstringBudget(t *testing.T) {
	var resp, src strings.Builder
	for i := range unsupportedFactsMax - 1 {
		fmt.Fprintf(&resp, "ID-%05d ", i)
	}
	resp.WriteString("mail a@b.co")
	for src.Len() < 20<<10 {
		src.WriteString("no ids here at all, just words and the odd 42. ")
	}
	src.WriteString("write to A@B.CO")
	in := unsupportedFactsCase{Response: resp.String(), Tools: []struct {
		Args   string `json:"args"`
		Result string `json:"result"`
		Error  string `json:"error"`
	}{{Result: src.String()}}}.instance()
	r, err := factsMetric().Score(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if r.Details["facts"] != unsupportedFactsMax || r.Details["unsupported"] != unsupportedFactsMax-1 {
		t.Errorf("details = facts %v, unsupported %v; want %d and %d", r.Details["facts"], r.Details["unsupported"], unsupportedFactsMax, unsupportedFactsMax-1)
	}
}

// mustMetric builds a fact-checking metric with params.
func mustMetric(t testing.TB, name string, params map[string]any) scorer.Metric {
	return scorertest.MustMetric(t, Metrics(), name, params)
}

// factsMetric is unsupported_facts as the registry builds it.
func factsMetric() scorer.Metric {
	return scorer.Func(MetricUnsupportedFacts, scorer.InResponse, unsupportedFacts)
}

// TestHasPrefixFold checks hasPrefixFold against its definition,
// strings.EqualFold on the prefix's length, on every string of up to four
// runes drawn from letters that fold to the prefixes' letters (the Kelvin
// sign, the long s, dotted and dotless i among them), their cases, and
// the prefixes' punctuation.
func TestHasPrefixFold(t *testing.T) {
	alphabet := []string{"w", "W", "h", "H", "t", "T", "p", "P", "s", "S", "ſ", "K", "k", "İ", "ı", ":", "/", "."}
	var texts []string
	var grow func(s string, n int)
	grow = func(s string, n int) {
		texts = append(texts, s)
		if n == 0 {
			return
		}
		for _, r := range alphabet {
			grow(s+r, n-1)
		}
	}
	grow("", 4)
	for _, prefix := range []string{"www", "www.", "http://", "https://"} {
		for _, tail := range texts {
			for _, s := range []string{tail, prefix[:len(prefix)/2] + tail, strings.ToUpper(prefix[:len(prefix)-1]) + tail} {
				want := len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
				if got := hasPrefixFold(s, prefix); got != want {
					t.Fatalf("hasPrefixFold(%q, %q) = %v, want %v", s, prefix, got, want)
				}
			}
		}
	}
}

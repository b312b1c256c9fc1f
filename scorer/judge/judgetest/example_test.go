package judgetest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
)

// exampleT lets the example run outside a test: New only needs Helper
// and Cleanup.
type exampleT struct {
	testing.TB
	cleanups []func()
}

func (*exampleT) Helper()            {}
func (t *exampleT) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) close() {
	for _, f := range t.cleanups {
		f()
	}
}

func Example() {
	t := &exampleT{}
	defer t.close()
	srv := judgetest.New(t)
	// First a rate limit with a hint, then a structured answer.
	srv.Enqueue(judgetest.Anthropic,
		judgetest.RetryAfter(2*time.Second),
		judgetest.JSON(`{"score":5}`),
	)
	for range 2 {
		body := `{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"grade"}],` +
			`"tools":[{"name":"verdict","input_schema":{"type":"object"}}],"tool_choice":{"type":"tool","name":"verdict"}}`
		resp, err := http.Post(srv.URL()+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Retry-After"), strings.Contains(string(b), `"input":{"score":5}`))
	}
	r := srv.Requests()[1]
	fmt.Println(r.Route, r.Model, r.User, r.SchemaName, r.MaxTokens)
	// Output:
	// 429 2 false
	// 200  true
	// anthropic claude-sonnet-4-5 grade verdict 64
}

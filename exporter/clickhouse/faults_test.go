package clickhouse

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/configretry"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// checkExactlyOnce asserts that every table holds the rows of runs 0..n-1
// exactly once: as many distinct row keys as expected, and as many rows
// after FINAL. Rows of later runs (exported but never acknowledged) may
// exist and are not counted.
func checkExactlyOnce(t *testing.T, s *testServer, n int) {
	t.Helper()
	for tb := range numTables {
		want := n * rowsPerEvaluation[tb]
		runs := fmt.Sprintf("trace_id <= '%032x'", n)
		uniq := s.count(t, fmt.Sprintf("SELECT uniqExact(row_key) FROM %s.%s WHERE %s", s.db, tb, runs))
		final := s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s FINAL WHERE %s", s.db, tb, runs))
		raw := s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s WHERE %s", s.db, tb, runs))
		t.Logf("%s: %d rows, %d distinct keys, %d after FINAL, want %d", tb, raw, uniq, final, want)
		if uniq != want || final != want {
			t.Errorf("%s: %d distinct keys and %d rows after FINAL, want %d", tb, uniq, final, want)
		}
	}
}

// allRunsVisible reports whether every table holds the distinct rows of
// runs 1..n.
func allRunsVisible(t *testing.T, s *testServer, n int) bool {
	t.Helper()
	for tb := range numTables {
		q := fmt.Sprintf("SELECT uniqExact(row_key) FROM %s.%s WHERE trace_id <= '%032x'", s.db, tb, n)
		if s.count(t, q) != n*rowsPerEvaluation[tb] {
			return false
		}
	}
	return true
}

// TestServerRestartDuringIngest stops ClickHouse during steady ingest and
// starts it again: every row arrives exactly once.
func TestServerRestartDuringIngest(t *testing.T) {
	srv := newPrivateServer(t)
	s := connectTestServer(t, srv.dsn())
	cfg := s.config(t)
	cfg.Endpoint = srv.dsn()
	h := startExporter(t, cfg)

	var exported atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := h.x.Export(context.Background(), testEvaluation(i)); err != nil {
				t.Errorf("export %d: %v", i, err)
				return
			}
			exported.Add(1)
			time.Sleep(time.Millisecond)
		}
	}()
	waitFor(t, 30*time.Second, "first inserts", func() bool { return h.rows("evaluations", exporter.OutcomeSent) > 0 })
	srv.stop()
	waitFor(t, 30*time.Second, "failed inserts during the outage", func() bool {
		return h.rows("evaluations", exporter.OutcomeRetried) > 0 && exported.Load() > 0
	})
	time.Sleep(time.Second) // keep ingesting while the server is down
	srv.start()
	before := exported.Load()
	waitFor(t, 30*time.Second, "ingest after the restart", func() bool { return exported.Load() > before+200 })
	close(stop)
	wg.Wait()
	if err := h.x.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	n := int(exported.Load())
	waitFor(t, 60*time.Second, "spool to drain", func() bool { return h.x.queueRows() == 0 })
	checkExactlyOnce(t, s, n)
	if d := h.dropped(reasonSpoolFull) + h.dropped(reasonQueueFull); d != 0 {
		t.Errorf("%d rows dropped", d)
	}
}

// helperEnv configures TestHelperSidecar when it runs as a child process.
type helperEnv struct {
	DSN, Database, Spool string
	From, To             int
}

const helperVar = "EVALSIDECAR_CLICKHOUSE_HELPER"

// TestHelperSidecar is not a test: it is the sidecar process that
// TestSIGKILLLosesNoAcknowledgedRow starts and kills. It exports runs
// From..To, flushing every 25 and printing "acked N" after each flush, then
// drains and prints "drained".
func TestHelperSidecar(t *testing.T) {
	raw := os.Getenv(helperVar)
	if raw == "" {
		t.Skip("helper process for TestSIGKILLLosesNoAcknowledgedRow")
	}
	var env helperEnv
	if err := json.Unmarshal([]byte(raw), &env); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Enabled = true
	cfg.Endpoint, cfg.Database = env.DSN, env.Database
	cfg.Spool.Directory, cfg.Spool.Fsync = env.Spool, true
	cfg.FlushInterval = 20 * time.Millisecond
	cfg.RetryOnFailure = configretry.BackOffConfig{Enabled: true, InitialInterval: 20 * time.Millisecond, MaxInterval: 200 * time.Millisecond, Multiplier: 2, RandomizationFactor: 0.1}
	x, err := New(cfg, telemetry.Settings{Version: "helper"})
	if err != nil {
		t.Fatal(err)
	}
	// A fixed clock: a run re-exported after a kill (it was not
	// acknowledged) gives the same rows, as a re-sent trace would.
	x.now = func() time.Time { return baseTime.Add(time.Hour) }
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := env.From; i < env.To; i++ {
		if err := x.Export(context.Background(), testEvaluation(i)); err != nil {
			t.Fatal(err)
		}
		if (i+1)%25 == 0 || i+1 == env.To {
			if err := x.Flush(context.Background()); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(os.Stdout, "acked %d\n", i+1)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := x.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(os.Stdout, "drained")
}

// runHelper starts the helper exporting from..to. With killAfter > 0 it is
// killed with SIGKILL once it has acknowledged that many runs (counted from
// from); it returns the last acknowledged run count.
func runHelper(t *testing.T, env helperEnv, killAfter int) int {
	t.Helper()
	b, _ := json.Marshal(env)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSidecar$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperVar+"="+string(b))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked, drained := env.From, false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if n, ok := strings.CutPrefix(line, "acked "); ok {
			acked, _ = strconv.Atoi(n)
			if killAfter > 0 && acked-env.From >= killAfter {
				_ = cmd.Process.Kill() // SIGKILL
				break
			}
		}
		if line == "drained" {
			drained = true
		}
	}
	_ = cmd.Wait()
	if killAfter == 0 && !drained {
		t.Fatalf("helper exporting %d..%d did not drain", env.From, env.To)
	}
	return acked
}

// TestSIGKILLLosesNoAcknowledgedRow kills the exporting process with
// SIGKILL at random points several times; each restart replays the spool
// and continues from the last acknowledged run. In the end every
// acknowledged run's rows are in ClickHouse, once.
func TestSIGKILLLosesNoAcknowledgedRow(t *testing.T) {
	s := newTestServer(t)
	env := helperEnv{DSN: s.dsn, Database: s.db, Spool: t.TempDir()}
	const kills = 4
	for k := range kills {
		env.To = env.From + 100000
		acked := runHelper(t, env, 50+rand.IntN(200))
		t.Logf("kill %d: acknowledged runs %d..%d", k+1, env.From, acked)
		env.From = acked
	}
	env.To = env.From + 10
	final := runHelper(t, env, 0)
	checkExactlyOnce(t, s, final)
}

// TestSchemaDriftParksAndResumes drops a column while writing: the
// table's batches park (metric up), nothing is written without the column,
// other tables keep writing, and everything arrives once the column is
// back.
func TestSchemaDriftParksAndResumes(t *testing.T) {
	s := newTestServer(t)
	h := startExporter(t, s.config(t))
	ctx := context.Background()
	export := func(from, to int) {
		for i := from; i < to; i++ {
			if err := h.x.Export(ctx, testEvaluation(i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := h.x.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	export(0, 100)
	waitFor(t, 30*time.Second, "first rows", func() bool { return h.rows("evaluations", exporter.OutcomeSent) == 200 })

	if err := s.exec(ctx, "ALTER TABLE "+s.db+".evaluations DROP COLUMN label"); err != nil {
		t.Fatal(err)
	}
	export(100, 200)
	waitFor(t, 30*time.Second, "the batch to park", func() bool { return h.rows("evaluations", exporter.OutcomeParked) > 0 })
	parked := testutilGauge(h, "evaluations")
	if parked != 1 {
		t.Errorf("parked batches gauge = %v, want 1", parked)
	}
	// Other tables are not held up by the parked one.
	waitFor(t, 30*time.Second, "trajectories to keep flowing", func() bool { return h.rows("trajectories", exporter.OutcomeSent) == 200 })
	if got := s.count(t, "SELECT count() FROM "+s.db+".evaluations"); got != 200 {
		t.Errorf("evaluations has %d rows while parked, want the 200 written before the drop", got)
	}
	export(200, 250) // more while parked: queued behind the parked batch

	if err := s.exec(ctx, "ALTER TABLE "+s.db+".evaluations ADD COLUMN label String AFTER score"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "writing to resume", func() bool { return h.rows("evaluations", exporter.OutcomeSent) == 500 })
	if g := testutilGauge(h, "evaluations"); g != 0 {
		t.Errorf("parked batches gauge = %v after resume, want 0", g)
	}
	// The other tables' last batches may still be in flight: wait for every
	// run's rows to be visible before checking that each arrived once.
	waitFor(t, 30*time.Second, "every table to hold all runs", func() bool { return allRunsVisible(t, s, 250) })
	checkExactlyOnce(t, s, 250)
	// Rows written after the drop carry their label: nothing degraded.
	q := fmt.Sprintf("SELECT count() FROM %s.evaluations WHERE metric = 'hallucination_v1' AND label != 'ok' AND trace_id > '%032x'", s.db, 100)
	if got := s.count(t, q); got != 0 {
		t.Errorf("%d rows written after the drop lack their label", got)
	}
	if d := h.dropped(reasonPermanent); d != 0 {
		t.Errorf("%d rows dropped as permanent errors", d)
	}
}

func testutilGauge(h *harness, table string) float64 {
	return gaugeValue(h.x.m.parked.WithLabelValues(table))
}

// TestSpoolFullDropsByPolicy fills the spool while ClickHouse is
// unreachable: the policy's batches are dropped and counted exactly, so
// rows in ClickHouse plus rows counted as dropped equal rows exported.
func TestSpoolFullDropsByPolicy(t *testing.T) {
	for _, policy := range []string{DropOldest, DropNewest} {
		t.Run(policy, func(t *testing.T) {
			s := newTestServer(t)
			cfg := s.config(t)
			// Create the schema while the server is reachable.
			h0 := startExporter(t, cfg)
			if err := h0.x.Export(context.Background(), testEvaluation(0)); err != nil {
				t.Fatal(err)
			}
			_ = h0.x.Flush(context.Background())
			waitFor(t, 30*time.Second, "schema", func() bool { return h0.rows("evaluations", exporter.OutcomeSent) == 2 })
			_ = h0.x.Shutdown(context.Background())
			_ = s.exec(context.Background(), "TRUNCATE TABLE "+s.db+".evaluations")
			for _, tb := range []string{"trajectories", "tool_calls", "eval_decisions", "feedback"} {
				_ = s.exec(context.Background(), "TRUNCATE TABLE "+s.db+"."+tb)
			}

			p := newProxy(t, strings.TrimPrefix(s.dsn, "clickhouse://"))
			p.setUp(false)
			cfg.Endpoint = p.dsn(s.dsn)
			cfg.Spool.DropPolicy = policy
			cfg.Spool.MaxBytes = 64 << 10
			cfg.FlushInterval = time.Hour // batches sealed by Flush only
			h := startExporter(t, cfg)
			const n, per = 400, 10
			for i := 0; i < n; i += per {
				for j := i; j < i+per; j++ {
					if err := h.x.Export(context.Background(), testEvaluation(j)); err != nil {
						t.Fatal(err)
					}
				}
				if err := h.x.Flush(context.Background()); err != nil {
					t.Fatal(err)
				}
				if i == 0 { // a sender retries the first seal before the spool fills
					waitFor(t, 30*time.Second, "a sender retrying", func() bool { return h.x.stalled.Load() > 0 })
				}
			}
			if h.dropped(reasonSpoolFull) == 0 {
				t.Fatal("spool never filled; lower max_bytes")
			}
			p.setUp(true)
			waitFor(t, 60*time.Second, "spool to drain", func() bool { return h.x.queueRows() == 0 })
			total := 0
			for tb := range numTables {
				in := s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s", s.db, tb))
				dropped := h.rows(tb.String(), exporter.OutcomeDropped)
				total += dropped
				if in+dropped != n*rowsPerEvaluation[tb] {
					t.Errorf("%s: %d rows inserted + %d dropped != %d exported", tb, in, dropped, n*rowsPerEvaluation[tb])
				}
			}
			if got := h.dropped(reasonSpoolFull); got != total {
				t.Errorf("evalsidecar_dropped_total{reason=spool_full} = %d, records_total{dropped} = %d", got, total)
			}
			// Which runs survived shows the policy: the newest for
			// drop_oldest (the batch a sender was already retrying is
			// never evicted, so the very first survives too), the oldest
			// for drop_newest.
			var first, last string
			if err := s.conn.QueryRow(context.Background(), fmt.Sprintf(
				"SELECT min(trace_id), max(trace_id) FROM %s.trajectories", s.db)).Scan(&first, &last); err != nil {
				t.Fatal(err)
			}
			oldest, newest := fmt.Sprintf("%032x", 1), fmt.Sprintf("%032x", n)
			switch policy {
			case DropOldest:
				second := fmt.Sprintf("%032x", per+1)
				if last != newest || s.count(t, fmt.Sprintf("SELECT count() FROM %s.trajectories WHERE trace_id = '%s'", s.db, second)) != 0 {
					t.Errorf("drop_oldest kept runs %s..%s", first, last)
				}
			case DropNewest:
				if first != oldest || last == newest {
					t.Errorf("drop_newest kept runs %s..%s", first, last)
				}
			}
			// Batches sealed together are kept or dropped together: every
			// run left has its rows in every table, and no table has rows
			// of a run whose trajectory was dropped.
			runs := s.count(t, fmt.Sprintf("SELECT count() FROM %s.trajectories", s.db))
			for tb := range numTables {
				if tb == tTrajectories {
					continue
				}
				if got := s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s", s.db, tb)); got != runs*rowsPerEvaluation[tb] {
					t.Errorf("%s: %d rows for %d runs, want %d", tb, got, runs, runs*rowsPerEvaluation[tb])
				}
				if got := s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s WHERE trace_id NOT IN (SELECT trace_id FROM %s.trajectories)", s.db, tb, s.db)); got != 0 {
					t.Errorf("%s: %d rows of runs without a trajectory", tb, got)
				}
			}
		})
	}
}

package clickhouse

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

type dropCount map[string]int

func (d dropCount) add(table string, rows int, reason string) { d[table+"/"+reason] += rows }

func newTestSpool(dir string, maxBytes int64, policy string, d dropCount) *spool {
	return newSpool(SpoolConfig{Directory: dir, MaxBytes: maxBytes, DropPolicy: policy, Fsync: true},
		slog.New(slog.DiscardHandler), d.add)
}

// runBatches returns a batch per table holding the rows of
// testEvaluation(i).
func runBatches(i int) [numTables]*batch {
	var bs [numTables]*batch
	for x := range numTables {
		bs[x] = newBatch(x, tableDefs[x].columns, 0)
	}
	rb := rowBuilder{}
	rb.append(&bs, testEvaluation(i), baseTime)
	return bs
}

// pushN pushes n one-run batches of table tb and returns their sizes.
func pushN(t *testing.T, s *spool, tb tableID, from, n int) int64 {
	t.Helper()
	var size int64
	for i := from; i < from+n; i++ {
		bs := runBatches(i)
		seq := s.nextSeq()
		data := encodeBatch(nil, bs[tb], "tok", seq)
		size = int64(len(data))
		s.push([]spoolItem{{b: bs[tb], seq: seq, token: "tok", data: data}})
	}
	return size
}

// spooledRows returns the rows s holds.
func spooledRows(s *spool) int {
	_, rows := s.stats()
	return rows
}

// runsOf pops every batch of tb, the only table s holds, and returns the
// trace ids of its rows.
func runsOf(t *testing.T, s *spool, tb tableID) []string {
	t.Helper()
	var ids []string
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for spooledRows(s) > 0 {
		e, err := s.head(ctx, tb)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.load(e)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, b.cols[2].str...) // trace_id is column 2 of trajectories
		s.done(e)
	}
	return ids
}

func TestSpoolReplaysInOrderAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	d := dropCount{}
	s := newTestSpool(dir, 1<<30, DropOldest, d)
	if err := s.open(); err != nil {
		t.Fatal(err)
	}
	pushN(t, s, tTrajectories, 0, 5)
	s.close() // the process ends

	// A new process finds the files and continues the sequence after them.
	s2 := newTestSpool(dir, 1<<30, DropOldest, d)
	if err := s2.open(); err != nil {
		t.Fatal(err)
	}
	if _, rows := s2.stats(); rows != 5 {
		t.Fatalf("reloaded %d rows, want 5", rows)
	}
	pushN(t, s2, tTrajectories, 5, 3)
	got := runsOf(t, s2, tTrajectories)
	if len(got) != 8 {
		t.Fatalf("%d runs, want 8", len(got))
	}
	for i, id := range got {
		if want := testEvaluation(i).Trajectory.TraceID; id != want {
			t.Fatalf("run %d is %s, want %s (replay out of order)", i, id, want)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*"+spoolExt)); len(files) != 0 {
		t.Errorf("%d files left after every batch was done", len(files))
	}
	if len(d) != 0 {
		t.Errorf("drops: %v", d)
	}
}

func TestSpoolQuarantinesCorruptFiles(t *testing.T) {
	dir := t.TempDir()
	d := dropCount{}
	s := newTestSpool(dir, 1<<30, DropOldest, d)
	_ = s.open()
	pushN(t, s, tTrajectories, 0, 3)
	s.close()
	files, _ := filepath.Glob(filepath.Join(dir, "*"+spoolExt))
	// Damage the middle batch's body (header intact) and add garbage and a
	// stray temporary file.
	data, _ := os.ReadFile(files[1])
	data[len(data)-8] ^= 0xff
	_ = os.WriteFile(files[1], data, 0o640)
	_ = os.WriteFile(filepath.Join(dir, "00000000000000000099-trajectories.batch"), []byte("garbage"), 0o640)
	_ = os.WriteFile(filepath.Join(dir, "x.batch.tmp"), []byte("partial"), 0o640)

	s2 := newTestSpool(dir, 1<<30, DropOldest, d)
	if err := s2.open(); err != nil {
		t.Fatal(err)
	}
	got := runsOf(t, s2, tTrajectories)
	if len(got) != 2 {
		t.Errorf("%d runs survive, want 2", len(got))
	}
	if d["unknown/"+reasonSpoolCorrupt]+d["trajectories/"+reasonSpoolCorrupt] != 2 {
		t.Errorf("drops %v, want 2 corrupt (the damaged file counted at load, the garbage file as one)", d)
	}
	corrupt, _ := filepath.Glob(filepath.Join(dir, "*.corrupt"))
	if len(corrupt) != 2 {
		t.Errorf("%d files quarantined, want 2", len(corrupt))
	}
	if _, err := os.Stat(filepath.Join(dir, "x.batch.tmp")); !os.IsNotExist(err) {
		t.Error("stray temporary file was not removed")
	}
}

func TestSpoolDropPolicies(t *testing.T) {
	for _, policy := range []string{DropOldest, DropNewest} {
		for _, dir := range []string{"", "disk"} {
			t.Run(policy+"/"+map[string]string{"": "memory", "disk": "disk"}[dir], func(t *testing.T) {
				if dir != "" {
					dir = t.TempDir()
				}
				d := dropCount{}
				probe := newTestSpool("", 1<<30, policy, dropCount{})
				size := pushN(t, probe, tTrajectories, 0, 1)
				s := newTestSpool(dir, 4*size+size/2, policy, d) // room for 4 batches
				_ = s.open()
				pushN(t, s, tTrajectories, 0, 10)
				got := runsOf(t, s, tTrajectories)
				if len(got) != 4 || d["trajectories/"+reasonSpoolFull] != 6 {
					t.Fatalf("kept %d runs, dropped %v; want 4 kept, 6 dropped", len(got), d)
				}
				first := testEvaluation(6).Trajectory.TraceID
				if policy == DropNewest {
					first = testEvaluation(0).Trajectory.TraceID
				}
				if got[0] != first {
					t.Errorf("first kept run %s, want %s", got[0], first)
				}
			})
		}
	}
}

func TestSpoolNeverEvictsInFlight(t *testing.T) {
	d := dropCount{}
	probe := newTestSpool("", 1<<30, DropOldest, dropCount{})
	size := pushN(t, probe, tTrajectories, 0, 1)
	s := newTestSpool("", 2*size+size/2, DropOldest, d)
	pushN(t, s, tTrajectories, 0, 1)
	e, _ := s.head(context.Background(), tTrajectories) // a sender owns it
	pushN(t, s, tTrajectories, 1, 3)
	if spooledRows(s) != 2 || d["trajectories/"+reasonSpoolFull] != 2 {
		t.Errorf("rows %d, drops %v", spooledRows(s), d)
	}
	s.done(e)
	got := runsOf(t, s, tTrajectories)
	if len(got) != 1 || !strings.HasSuffix(got[0], "4") {
		t.Errorf("left %v, want only the newest run", got)
	}
}

// pushSeals pushes n seals of one run each, a batch per table, and
// returns the size of one seal.
func pushSeals(t *testing.T, s *spool, from, n int) int64 {
	t.Helper()
	var size int64
	for i := from; i < from+n; i++ {
		bs := runBatches(i)
		items := make([]spoolItem, numTables)
		size = 0
		for x := range numTables {
			seq := s.nextSeq()
			items[x] = spoolItem{b: bs[x], seq: seq, token: "tok", data: encodeBatch(nil, bs[x], "tok", seq)}
			size += int64(len(items[x].data))
		}
		s.push(items)
	}
	return size
}

// spooledRuns returns, per table, the trace ids of the runs whose rows
// are spooled, without taking them.
func spooledRuns(t *testing.T, s *spool) [numTables][]string {
	t.Helper()
	var out [numTables][]string
	s.mu.Lock()
	defer s.mu.Unlock()
	for tb := range numTables {
		for _, e := range s.queues[tb] {
			b, err := s.load(e)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range tableDefs[tb].columns {
				if c.name == "trace_id" {
					out[tb] = append(out[tb], slices.Compact(slices.Clone(b.cols[i].str))...)
				}
			}
		}
	}
	return out
}

// The batches of one seal are kept or dropped together, by either policy,
// on disk and in memory, and across a restart; a seal a sender has
// started is never evicted.
func TestSpoolKeepsSealsWhole(t *testing.T) {
	for _, policy := range []string{DropOldest, DropNewest} {
		for _, disk := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/disk=%v", policy, disk), func(t *testing.T) {
				dir := ""
				if disk {
					dir = t.TempDir()
				}
				size := pushSeals(t, newTestSpool("", 1<<30, policy, dropCount{}), 0, 1)
				d := dropCount{}
				s := newTestSpool(dir, 3*size+size/2, policy, d) // room for 3 seals
				if err := s.open(); err != nil {
					t.Fatal(err)
				}
				pushSeals(t, s, 0, 2)
				if disk { // a restart: the groups come back from the file names
					s.close()
					s = newTestSpool(dir, 3*size+size/2, policy, d)
					if err := s.open(); err != nil {
						t.Fatal(err)
					}
				}
				pushSeals(t, s, 2, 5)
				runs := spooledRuns(t, s)
				want := []string{testEvaluation(4).Trajectory.TraceID, testEvaluation(5).Trajectory.TraceID, testEvaluation(6).Trajectory.TraceID}
				if policy == DropNewest {
					want = []string{testEvaluation(0).Trajectory.TraceID, testEvaluation(1).Trajectory.TraceID, testEvaluation(2).Trajectory.TraceID}
				}
				for tb := range numTables {
					if !slices.Equal(runs[tb], want) {
						t.Errorf("%s holds runs %v, want %v", tb, runs[tb], want)
					}
					if got := d[tb.String()+"/"+reasonSpoolFull]; got != 4*rowsPerEvaluation[tb] {
						t.Errorf("%s: %d rows dropped, want %d", tb, got, 4*rowsPerEvaluation[tb])
					}
				}
			})
		}
	}

	// drop_oldest: once one batch of the oldest seal is sent, the rest
	// of it stays and the next oldest whole seal goes instead.
	size := pushSeals(t, newTestSpool("", 1<<30, DropOldest, dropCount{}), 0, 1)
	d := dropCount{}
	s := newTestSpool("", 2*size+size/2, DropOldest, d)
	pushSeals(t, s, 0, 2)
	e, _ := s.head(context.Background(), tTrajectories)
	s.done(e) // run 0's trajectory is in ClickHouse
	pushSeals(t, s, 2, 1)
	runs := spooledRuns(t, s)
	run := func(i int) string { return testEvaluation(i).Trajectory.TraceID }
	if want := []string{run(0), run(2)}; !slices.Equal(runs[tEvaluations], want) {
		t.Errorf("evaluations hold runs %v, want %v", runs[tEvaluations], want)
	}
	if want := []string{run(2)}; !slices.Equal(runs[tTrajectories], want) {
		t.Errorf("trajectories hold runs %v, want %v", runs[tTrajectories], want)
	}
}

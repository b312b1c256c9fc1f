package otlpfile

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// summary renders one line per item: position, signal and item count.
func summary(it Item) string {
	signal, n := "unknown", 0
	switch it.Signal {
	case SignalTraces:
		signal, n = "traces", it.Traces.SpanCount()
	case SignalLogs:
		signal, n = "logs", it.Logs.LogRecordCount()
	}
	return fmt.Sprintf("%s %s %d\n", filepath.ToSlash(it.Position()), signal, n)
}

func TestReadGolden(t *testing.T) {
	cases := []struct {
		name   string
		paths  []string
		golden string
	}{
		{"directory walked in lexical order", []string{"testdata/replay"}, "replay_dir.golden"},
		{"files in the order given", []string{"testdata/replay/sub/d_filexporter.jsonl", "testdata/replay/a_traces.pb"}, "replay_files.golden"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			err := Read(context.Background(), tc.paths, func(it Item) error {
				b.WriteString(summary(it))
				return nil
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("updated golden file %s", path)
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("items:\n%s\nwant:\n%s", b.String(), want)
			}
		})
	}
}

func TestReadErrorsNameTheSource(t *testing.T) {
	cases := []struct {
		path, want string
		itemsFirst int
	}{
		{"testdata/bad/line3.jsonl", "testdata/bad/line3.jsonl:3: decode JSON traces request", 2},
		{"testdata/bad/truncated.pb", "testdata/bad/truncated.pb: decode protobuf traces request", 0},
		{"testdata/bad/metrics.json", `testdata/bad/metrics.json: neither "resourceSpans" nor "resourceLogs"`, 0},
		{"testdata/replay/ignored.txt", `unsupported file extension ".txt"`, 0},
		{"testdata/missing.json", "no such file", 0},
	}
	for _, tc := range cases {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			items := 0
			err := Read(context.Background(), []string{tc.path}, func(Item) error { items++; return nil }, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
			if items != tc.itemsFirst {
				t.Errorf("items before the error = %d, want %d", items, tc.itemsFirst)
			}
		})
	}
}

func TestReadStopsOnCallbackError(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := Read(context.Background(), []string{"testdata/replay"}, func(Item) error { calls++; return stop }, nil)
	if !errors.Is(err, stop) || err != stop || calls != 1 {
		t.Fatalf("err = %v after %d calls, want the callback's error after 1", err, calls)
	}
}

func TestReadHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Read(ctx, []string{"testdata/replay"}, func(Item) error { return nil }, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestDecodeJSONDetection(t *testing.T) {
	f := func(in string, want Signal, wantErr bool) {
		t.Helper()
		it, err := DecodeJSON([]byte(in))
		if (err != nil) != wantErr || (err == nil && it.Signal != want) {
			t.Errorf("DecodeJSON(%q) = %v, %v; want %v, err %v", in, it.Signal, err, want, wantErr)
		}
	}
	f(`{"resourceSpans":[]}`, SignalTraces, false)
	f(`{"resource_spans":[]}`, SignalTraces, false)
	f(`{"other":{"resourceLogs":1},"resourceLogs":[]}`, SignalLogs, false)
	f(`{}`, 0, true)
	f(`[]`, 0, true)
	f(``, 0, true)
	f(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"kind":"NOPE"}]}]}]}`, 0, true)
}

// FuzzDecodeJSON: any line must decode or fail cleanly, never panic.
func FuzzDecodeJSON(f *testing.F) {
	for _, p := range []string{"testdata/replay/c_logs.json", "testdata/replay/b_genai.json", "testdata/bad/metrics.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"kvlistValue":{"values":[{"key":"a","value":{"arrayValue":{}}}]}}}]}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		it, err := DecodeJSON(b)
		if err == nil && it.Signal != SignalTraces && it.Signal != SignalLogs {
			t.Fatalf("decoded without a signal")
		}
	})
}

// FuzzDecodeProto: any bytes must decode or fail cleanly, never panic.
func FuzzDecodeProto(f *testing.F) {
	for _, p := range []string{"testdata/replay/a_traces.pb", "testdata/bad/truncated.pb"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = DecodeProto(b)
	})
}

// FuzzReadLines: a .jsonl stream of any content never panics, and every
// error names the source and a line.
func FuzzReadLines(f *testing.F) {
	b, err := os.ReadFile("testdata/bad/line3.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte("\n\n{\"resourceSpans\":[]}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		err := ReadLines(context.Background(), strings.NewReader(string(b)), "fuzz.jsonl", func(Item) error { return nil })
		if err != nil && !strings.HasPrefix(err.Error(), "fuzz.jsonl:") {
			t.Fatalf("error does not name the source and line: %v", err)
		}
	})
}

// In a directory, files that are not OTLP (another extension, or a .json
// file that is not an OTLP request, such as a ground truth beside the
// captures) are skipped and reported; the captures are all read.
func TestReadSkipsNonOTLPInDirectory(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "replay", "b_genai.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"payload.json":      src,
		"ground_truth.json": []byte(`{"user_input": "hi", "tool_calls": []}`),
		"notes.txt":         []byte("notes"),
		"bad.jsonl":         []byte("not json\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	items := 0
	var skipped []string
	err = Read(context.Background(), []string{dir}, func(Item) error { items++; return nil }, func(path string, _ error) {
		skipped = append(skipped, filepath.Base(path))
	})
	if err != nil {
		t.Fatal(err)
	}
	if items != 1 || strings.Join(skipped, ",") != "bad.jsonl,ground_truth.json,notes.txt" {
		t.Errorf("%d items, skipped %v", items, skipped)
	}
	// a file named directly is still an error
	if err := Read(context.Background(), []string{filepath.Join(dir, "ground_truth.json")}, func(Item) error { return nil }, nil); err == nil {
		t.Error("a named non-OTLP file read without an error")
	}
}

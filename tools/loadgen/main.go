// Command loadgen replays recorded agent runs (the extractor's captures of
// real instrumentation libraries) against an OTLP endpoint with fresh trace
// ids, cut into small requests and interleaved across many runs in flight,
// at a fixed rate or at saturation. With -pid it also reports the CPU time
// and peak memory the target process used during the replay.
//
//	go run ./tools/loadgen -endpoint 127.0.0.1:4317 -runs 10000 -rate 500
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/loadgen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run() error {
	var cfg loadgen.Config
	var captures string
	var pid int
	var runsOut, endpoints string
	flag.StringVar(&cfg.Protocol, "protocol", "grpc", "grpc or http")
	flag.StringVar(&endpoints, "endpoint", "127.0.0.1:4317", "OTLP endpoint: host:port for grpc, base URL or host:port for http; several, comma-separated, get requests in turn")
	flag.StringVar(&captures, "captures", "extractor/testdata/realclients", "directory of captures (each with ground_truth.json and payload-* files)")
	flag.IntVar(&cfg.Runs, "runs", 0, "runs to send (0: until -duration)")
	flag.DurationVar(&cfg.Duration, "duration", 0, "how long to start new runs (0: until -runs)")
	flag.Float64Var(&cfg.Rate, "rate", 0, "runs per second (0: as fast as the endpoint answers)")
	flag.IntVar(&cfg.InFlight, "in-flight", 1000, "runs interleaved at once")
	flag.IntVar(&cfg.SpansPerRequest, "spans-per-request", 8, "spans in one request")
	flag.IntVar(&cfg.Senders, "senders", 4, "requests in flight at once")
	flag.Uint64Var(&cfg.Seed, "seed", uint64(time.Now().UnixNano()), "random seed")
	flag.IntVar(&pid, "pid", 0, "process whose CPU time and peak RSS to report")
	flag.StringVar(&runsOut, "runs-out", "", "write every run sent (capture, trace ids, acknowledged) here as JSON")
	flag.Parse()

	cfg.Endpoints = strings.Split(endpoints, ",")
	cs, err := loadgen.LoadCaptures(captures)
	if err != nil {
		return err
	}
	cfg.Captures = cs
	var before loadgen.ProcStats
	if pid > 0 {
		if before, err = loadgen.ReadProcStats(pid); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := loadgen.Replay(ctx, cfg)
	if err != nil {
		return err
	}
	secs := rep.Elapsed.Seconds()
	fmt.Printf("runs %d (acknowledged %d), spans %d, requests %d (failed %d) in %.1fs: %.0f runs/s, %.0f spans/s\n",
		len(rep.Runs), len(rep.Acked()), rep.Spans, rep.Requests, rep.Failed, secs, float64(len(rep.Runs))/secs, float64(rep.Spans)/secs)
	fmt.Printf("request round trip: p50 %v, p99 %v, max %v\n", rep.Latency(0.5), rep.Latency(0.99), rep.Latency(1))
	for _, e := range rep.Errors {
		fmt.Println("error:", e)
	}
	if pid > 0 {
		after, err := loadgen.ReadProcStats(pid)
		if err != nil {
			return err
		}
		cpu := after.CPUSeconds - before.CPUSeconds
		fmt.Printf("pid %d: %.2f CPU-seconds (%.2f per 100K spans), peak RSS %.1f MiB\n",
			pid, cpu, cpu*100000/float64(max(rep.Spans, 1)), float64(after.PeakRSS)/(1<<20))
	}
	if runsOut != "" {
		raw, err := json.Marshal(rep.Runs)
		if err != nil {
			return err
		}
		return os.WriteFile(runsOut, raw, 0o644)
	}
	return nil
}

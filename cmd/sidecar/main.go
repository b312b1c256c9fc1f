// Command sidecar is the evalsidecar binary: an OpenTelemetry-native sidecar
// that scores LLM agent runs from their traces.
//
// Usage:
//
//	sidecar [serve] [flags]     receive OTLP and score every agent run (default)
//	sidecar replay [flags] FILE|DIR...
//	sidecar eval --dataset FILE | --evalset FILE --traces PATH... [flags]
//	sidecar demo [flags]        serve plus a built-in agent simulator
//	sidecar version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// errUsage marks a command-line error; main prints usage and exits 2.
var errUsage = errors.New("usage error")

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a subcommand and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "serve":
		err = serveCmd(ctx, args, stdout, stderr)
	case "replay":
		err = replayCmd(ctx, args, stdout, stderr)
	case "eval":
		return evalCmd(ctx, args, stdout, stderr)
	case "demo":
		err = demoCmd(ctx, args, stdout, stderr)
	case "dashboards":
		err = dashboardsCmd(ctx, args, stdout, stderr)
	case "version":
		_, err = fmt.Fprintf(stdout, "evalsidecar %s\n", version)
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "sidecar: unknown command %q\n\n", cmd)
		usage(stderr)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "sidecar %s: %v\n", cmd, err)
		return 2
	default:
		fmt.Fprintf(stderr, "sidecar %s: %v\n", cmd, err)
		return 1
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `evalsidecar: online evaluation of LLM agents from their OpenTelemetry traces.

Usage:
  sidecar [serve] [-config FILE] [flags]   receive OTLP on :4317/:4318, score every agent run,
                                           expose Prometheus metrics on :9464 and write JSON lines
  sidecar replay [-config FILE] -output DIR FILE|DIR...
                                           score captured OTLP files (.pb, .json, .jsonl) offline
  sidecar eval --dataset FILE | --evalset FILE --traces PATH... [--metrics ID,...] [--criteria FILE] [--output DIR]
                                           score a Vertex/Ragas dataset or an ADK eval set offline; exit 1 when a criterion fails
  sidecar demo [-runs N] [flags]           serve with a built-in agent simulator and a live table
  sidecar dashboards [-out DIR]            write the Grafana dashboards as JSON
  sidecar version                          print the version

Run "sidecar COMMAND -h" for the flags of a command.
`)
}

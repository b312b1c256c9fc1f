// Command sidecar is the evalsidecar binary: an OpenTelemetry-native sidecar
// that scores LLM agent runs from their traces. "sidecar --help" lists its
// commands; "sidecar COMMAND -h" the flags of one.
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

// command is one subcommand: its name, its one-line summary for --help,
// and what runs it (returning the exit code).
type command struct {
	name, summary string
	run           func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists every subcommand in the order --help shows them.
func commands() []command {
	return []command{
		{"serve", "receive OTLP, score every agent run and export the scores (the default command)", exitCode("serve", serveCmd)},
		{"validate", "check a configuration with its flags and --set overrides; print every problem with its key path", exitCode("validate", validateCmd)},
		{"replay", "score captured OTLP files (.pb, .json, .jsonl) offline", exitCode("replay", replayCmd)},
		{"eval", "score a dataset or an ADK eval set offline; exit 1 when a criterion fails", evalCmd},
		{"demo", "serve with a built-in agent simulator and a live table", exitCode("demo", demoCmd)},
		{"dashboards", "write the Grafana dashboards as JSON", exitCode("dashboards", dashboardsCmd)},
		{"version", "print the version", func(_ context.Context, _ []string, stdout, _ io.Writer) int {
			fmt.Fprintf(stdout, "evalsidecar %s\n", version)
			return 0
		}},
		{"help", "show this help", func(_ context.Context, _ []string, stdout, _ io.Writer) int {
			usage(stdout)
			return 0
		}},
	}
}

// run dispatches a subcommand and returns the process exit code. Without
// one it serves; -h/--help and -v/--version work as the commands do.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	stderr = &lockedWriter{w: stderr}
	name := "serve"
	if len(args) > 0 {
		switch first := args[0]; {
		case first == "-h" || first == "-help" || first == "--help":
			name, args = "help", args[1:]
		case first == "-v" || first == "-version" || first == "--version":
			name, args = "version", args[1:]
		case first != "" && first[0] != '-':
			name, args = first, args[1:]
		}
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "sidecar: unknown command %q\n\n", name)
	usage(stderr)
	return 2
}

// exitCode adapts a command returning an error: 0 on success or -h, 2 on
// a usage error, 1 otherwise (the error printed first, except for
// validate's problems, which it printed itself).
func exitCode(name string, f func(context.Context, []string, io.Writer, io.Writer) error) func(context.Context, []string, io.Writer, io.Writer) int {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		err := f(ctx, args, stdout, stderr)
		var invalid errInvalid
		switch {
		case err == nil, errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &invalid):
			return 1
		case errors.Is(err, errUsage):
			fmt.Fprintf(stderr, "sidecar %s: %v\n", name, err)
			return 2
		default:
			fmt.Fprintf(stderr, "sidecar %s: %v\n", name, err)
			return 1
		}
	}
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "evalsidecar %s: online evaluation of LLM agents from their OpenTelemetry traces.\n\n", version)
	fmt.Fprintf(w, "Usage: sidecar [COMMAND] [flags]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
serve, validate, replay and demo read the same configuration:
  -config FILE              YAML configuration (env EVALSIDECAR_CONFIG); the defaults without one
  --set key.path=value      override one key (repeatable), e.g. --set exporters.clickhouse.enabled=true
  -data-dir DIR             where JSON lines files and the ClickHouse spool go (storage.directory)

Run "sidecar COMMAND -h" for the flags of a command; -v or --version prints the version.
`)
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/evalsidecar/evalsidecar/dashboards"
)

// dashboardsCmd writes the Grafana dashboards as JSON files.
func dashboardsCmd(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dashboards", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "dashboards/generated", "`directory` to write <uid>.json into")
	opts := dashboards.DefaultOptions()
	fs.StringVar(&opts.TraceURLTemplate, "trace-url", opts.TraceURLTemplate, "link `template` from a trace id to the trace UI; ${trace_id} is replaced")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	files, err := dashboards.Write(*out, opts)
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return err
}

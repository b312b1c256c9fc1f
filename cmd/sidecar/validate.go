package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/pipeline"
)

// errInvalid marks a configuration that validate rejected; its problems
// are already printed.
type errInvalid struct{ problems int }

func (e errInvalid) Error() string {
	return fmt.Sprintf("%d problem(s) in the configuration", e.problems)
}

// validateCmd loads the configuration as serve would (file, flags, --set)
// and reports every problem, one per line with its key path, without
// starting anything. Exit status 0 when the configuration is valid, 1
// otherwise, as otelcol validate.
func validateCmd(_ context.Context, args []string, _ io.Writer, stderr io.Writer) error {
	cf, err := parseConfigFlags("validate", args, stderr)
	if err != nil {
		return err
	}
	cfg, err := cf.load()
	if err == nil {
		err = pipeline.CheckBaseline(cfg)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return errInvalid{problems: strings.Count(err.Error(), "\n") + 1}
	}
	return nil
}

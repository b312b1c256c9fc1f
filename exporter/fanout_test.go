package exporter

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// fake records lifecycle calls in a shared log and fails on demand.
type fake struct {
	name                        string
	log                         *[]string
	exportErr, startErr, endErr error
}

func (f *fake) Export(_ context.Context, _ *scorer.Evaluation) error {
	*f.log = append(*f.log, "export "+f.name)
	return f.exportErr
}

func (f *fake) Start(context.Context) error {
	*f.log = append(*f.log, "start "+f.name)
	return f.startErr
}

func (f *fake) Shutdown(context.Context) error {
	*f.log = append(*f.log, "shutdown "+f.name)
	return f.endErr
}

func TestFanout(t *testing.T) {
	errA, errC := errors.New("a failed"), errors.New("c failed")
	cases := []struct {
		name    string
		fakes   func(log *[]string) []Exporter
		run     func(ctx context.Context, f *Fanout) error
		wantLog []string
		wantErr []error
	}{
		{
			name: "export reaches all and joins errors",
			fakes: func(log *[]string) []Exporter {
				return []Exporter{&fake{name: "a", log: log, exportErr: errA}, &fake{name: "b", log: log}, &fake{name: "c", log: log, exportErr: errC}}
			},
			run:     func(ctx context.Context, f *Fanout) error { return f.Export(ctx, &scorer.Evaluation{}) },
			wantLog: []string{"export a", "export b", "export c"},
			wantErr: []error{errA, errC},
		},
		{
			name: "export without errors",
			fakes: func(log *[]string) []Exporter {
				return []Exporter{&fake{name: "a", log: log}, nil, &fake{name: "b", log: log}}
			},
			run:     func(ctx context.Context, f *Fanout) error { return f.Export(ctx, &scorer.Evaluation{}) },
			wantLog: []string{"export a", "export b"},
		},
		{
			name: "start in order, shutdown in reverse",
			fakes: func(log *[]string) []Exporter {
				return []Exporter{&fake{name: "a", log: log}, &fake{name: "b", log: log}, &fake{name: "c", log: log}}
			},
			run: func(ctx context.Context, f *Fanout) error {
				return errors.Join(f.Start(ctx), f.Shutdown(ctx))
			},
			wantLog: []string{"start a", "start b", "start c", "shutdown c", "shutdown b", "shutdown a"},
		},
		{
			name: "failed start undoes the started ones",
			fakes: func(log *[]string) []Exporter {
				return []Exporter{&fake{name: "a", log: log, endErr: errA}, &fake{name: "b", log: log}, &fake{name: "c", log: log, startErr: errC}, &fake{name: "d", log: log}}
			},
			run:     func(ctx context.Context, f *Fanout) error { return f.Start(ctx) },
			wantLog: []string{"start a", "start b", "start c", "shutdown b", "shutdown a"},
			wantErr: []error{errC, errA},
		},
		{
			name: "shutdown continues past errors",
			fakes: func(log *[]string) []Exporter {
				return []Exporter{&fake{name: "a", log: log, endErr: errA}, &fake{name: "b", log: log}, &fake{name: "c", log: log, endErr: errC}}
			},
			run:     func(ctx context.Context, f *Fanout) error { return f.Shutdown(ctx) },
			wantLog: []string{"shutdown c", "shutdown b", "shutdown a"},
			wantErr: []error{errC, errA},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var log []string
			err := c.run(t.Context(), NewFanout(c.fakes(&log)...))
			if !reflect.DeepEqual(log, c.wantLog) {
				t.Errorf("calls %v, want %v", log, c.wantLog)
			}
			if len(c.wantErr) == 0 && err != nil {
				t.Errorf("unexpected error %v", err)
			}
			for _, w := range c.wantErr {
				if !errors.Is(err, w) {
					t.Errorf("error %v does not wrap %v", err, w)
				}
			}
		})
	}
}

func TestEmptyFanout(t *testing.T) {
	f := NewFanout()
	if err := errors.Join(f.Start(t.Context()), f.Export(t.Context(), &scorer.Evaluation{}), f.Shutdown(t.Context())); err != nil {
		t.Fatal(err)
	}
}

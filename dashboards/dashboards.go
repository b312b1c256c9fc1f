// Package dashboards defines the sidecar's Grafana dashboards as Go code
// with the Grafana foundation SDK, and writes them as JSON for file
// provisioning. The generated JSON is committed under dashboards/generated
// and a test fails when it is stale.
package dashboards

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
)

// Options are the settings baked into the generated dashboards.
type Options struct {
	// TraceURLTemplate links a trace id to the team's trace UI; "${trace_id}"
	// is replaced by the id, e.g. "https://tempo.example/trace/${trace_id}".
	TraceURLTemplate string
}

// DefaultOptions are the options of the committed JSON.
func DefaultOptions() Options {
	return Options{TraceURLTemplate: "/explore?left={\"queries\":[{\"query\":\"${trace_id}\"}]}"}
}

// Dashboard is one generated dashboard.
type Dashboard struct {
	// UID is the dashboard's Grafana uid and the base name of its JSON file.
	UID   string
	Build func(Options) *dashboard.DashboardBuilder
}

// All returns every dashboard, sorted by uid.
func All() []Dashboard {
	all := append(sreDashboards(), analystDashboards()...)
	sort.Slice(all, func(i, j int) bool { return all[i].UID < all[j].UID })
	return all
}

// Render builds d and returns its indented JSON.
func Render(d Dashboard, o Options) ([]byte, error) {
	built, err := d.Build(o).Build()
	if err != nil {
		return nil, fmt.Errorf("dashboard %s: %w", d.UID, err)
	}
	b, err := json.MarshalIndent(built, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("dashboard %s: %w", d.UID, err)
	}
	return append(b, '\n'), nil
}

// Write renders every dashboard into dir as <uid>.json.
func Write(dir string, o Options) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, d := range All() {
		b, err := Render(d, o)
		if err != nil {
			return files, err
		}
		path := filepath.Join(dir, d.UID+".json")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

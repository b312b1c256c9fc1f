package dashboards

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
)

// TestDashboardsRoundTripFitAndReduce checks every rendered dashboard:
// its JSON decodes into the SDK's dashboard types and encodes back to the
// same document, every panel lies inside the 24-column grid without
// overlapping another, and no option is a null reducer.
func TestDashboardsRoundTripFitAndReduce(t *testing.T) {
	for _, d := range All() {
		t.Run(d.UID, func(t *testing.T) {
			b, err := Render(d, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			var typed dashboard.Dashboard
			if err := json.Unmarshal(b, &typed); err != nil {
				t.Fatalf("decode into dashboard.Dashboard: %v", err)
			}
			again, err := json.Marshal(typed)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(again, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the JSON does not round-trip through the SDK types:\n got %s\nwant %s", again, b)
			}
			var taken [][24]bool
			for _, p := range typed.Panels {
				var title string
				var g *dashboard.GridPos
				switch {
				case p.Panel != nil:
					title, g = derefTitle(p.Panel.Title), p.Panel.GridPos
				case p.RowPanel != nil:
					title, g = derefTitle(p.RowPanel.Title), p.RowPanel.GridPos
					// A collapsed row's panels take the grid when it opens.
					for _, in := range p.RowPanel.Panels {
						if ig := in.GridPos; ig == nil || ig.W == 0 || ig.X+ig.W > 24 {
							t.Errorf("panel %q in row %q: grid position %+v is outside the 24-column grid", derefTitle(in.Title), title, ig)
						}
					}
				}
				if g == nil || g.W == 0 || g.H == 0 || g.X+g.W > 24 {
					t.Errorf("panel %q: grid position %+v is outside the 24-column grid", title, g)
					continue
				}
				for y := g.Y; y < g.Y+g.H; y++ {
					for int(y) >= len(taken) {
						taken = append(taken, [24]bool{})
					}
					for x := g.X; x < g.X+g.W; x++ {
						if taken[y][x] {
							t.Errorf("panel %q overlaps another at (%d, %d)", title, x, y)
						}
						taken[y][x] = true
					}
				}
			}
			if strings.Contains(string(b), `"reducer": null`) {
				t.Error(`a panel has "reducer": null`)
			}
		})
	}
}

func derefTitle(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

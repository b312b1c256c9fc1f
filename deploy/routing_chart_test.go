package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestChartRoutingTier renders the gateway with and without the trace-id
// routing tier and checks its wiring: on by default whenever more than one
// replica can run; agents' Service selecting the routing pods; the resolver
// naming the headless Service over the sidecars, which carries their OTLP
// port; the ServiceMonitor scraping each sidecar once, never the routing
// pods. Each rendered Collector configuration is validated by the real
// Collector (the components of the upstream contrib image, built with the
// Collector builder).
func TestChartRoutingTier(t *testing.T) {
	helm := helmBin(t)
	otelcol := binary(t, "EVALSIDECAR_OTELCOL_BIN", "otelcol-evalsidecar")
	for _, tc := range []struct {
		name    string
		set     []string
		routing bool
		dns     bool
	}{
		{"default two replicas", nil, true, false},
		{"one replica", []string{"replicaCount=1"}, false, false},
		{"one replica with autoscaling", []string{"replicaCount=1", "autoscaling.enabled=true"}, true, false},
		{"forced off", []string{"routing.enabled=false"}, false, false},
		{"forced on with one replica", []string{"replicaCount=1", "routing.enabled=true"}, true, false},
		{"statefulset with the dns resolver", []string{"mode=statefulset", "routing.resolver=dns", "serviceMonitor.enabled=true"}, true, true},
		{"statefulset without routing", []string{"mode=statefulset", "routing.enabled=false", "serviceMonitor.enabled=true"}, false, false},
		{"sidecar mode", []string{"mode=sidecar"}, false, false},
		{"service monitor", []string{"serviceMonitor.enabled=true"}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"template", "rel", chartDir, "--namespace", "agents"}
			for _, s := range tc.set {
				args = append(args, "--set", s)
			}
			objs := renderArgs(t, helm, args...)
			byName := map[string]manifest{}
			for _, o := range objs {
				byName[o.kind()+"/"+str(o, "metadata", "name")] = o
			}
			routingDep, on := byName["Deployment/rel-evalsidecar-routing"]
			if on != tc.routing {
				t.Fatalf("routing tier rendered: %v, want %v", on, tc.routing)
			}
			svc, gateway := byName["Service/rel-evalsidecar"]
			if !gateway {
				if on {
					t.Fatal("routing tier without a gateway Service")
				}
				return
			}
			headless, hasHeadless := byName["Service/rel-evalsidecar-headless"]
			if on {
				if !hasHeadless {
					t.Fatal("no headless Service for the resolver")
				}
				if got := get(svc, "spec", "selector"); !sameLabels(got, get(routingDep, "spec", "selector", "matchLabels")) {
					t.Errorf("agents' Service selects %v, not the routing pods", got)
				}
				if portNamed(headless, "otlp-grpc") == nil || get(headless, "spec", "publishNotReadyAddresses") != false {
					t.Error("headless Service lacks the OTLP port or publishes replicas that are not ready")
				}
				cfg := str(byName["ConfigMap/rel-evalsidecar-routing"], "data", "config.yaml")
				for _, want := range []string{"routing_key: attributes", "- evalsidecar.route", "span.trace_id.string", "log.trace_id.string", "transform/route", "logs:", "traces:"} {
					if !strings.Contains(cfg, want) {
						t.Errorf("routing config lacks %q:\n%s", want, cfg)
					}
				}
				wantResolver := "service: rel-evalsidecar-headless.agents"
				if tc.dns {
					wantResolver = "hostname: rel-evalsidecar-headless.agents.svc.cluster.local"
				}
				if !strings.Contains(cfg, wantResolver) {
					t.Errorf("resolver does not name the headless Service (%q):\n%s", wantResolver, cfg)
				}
				if _, role := byName["Role/rel-evalsidecar-routing"]; role == tc.dns {
					t.Errorf("Role rendered: %v with the %s resolver", role, map[bool]string{true: "dns", false: "k8s"}[tc.dns])
				}
				validateCollectorConfig(t, otelcol, cfg)
			} else if get(svc, "spec", "selector", "app.kubernetes.io/name") != "evalsidecar" {
				t.Errorf("agents' Service selects %v without routing", get(svc, "spec", "selector"))
			}
			// exactly one Service carries the sidecars' metrics port and the scrape label
			scraped := 0
			for _, o := range objs {
				if o.kind() == "Service" && portNamed(o, "metrics") != nil {
					scraped++
					if get(o, "metadata", "labels", "evalsidecar.io/scrape") != "true" {
						t.Errorf("Service %s has the metrics port without the scrape label", str(o, "metadata", "name"))
					}
					if got := get(o, "spec", "selector", "app.kubernetes.io/name"); got != "evalsidecar" {
						t.Errorf("Service %s exposes metrics of %v", str(o, "metadata", "name"), got)
					}
				}
			}
			if scraped != 1 {
				t.Errorf("%d Services expose the sidecars' metrics port, want 1", scraped)
			}
			if sm, ok := byName["ServiceMonitor/rel-evalsidecar"]; ok && get(sm, "spec", "selector", "matchLabels", "evalsidecar.io/scrape") != "true" {
				t.Error("ServiceMonitor does not select the scraped Service only")
			}
		})
	}
}

// portNamed returns the Service port named name, or nil.
func portNamed(svc manifest, name string) any {
	for _, p := range list(svc, "spec", "ports") {
		if str(p, "name") == name {
			return p
		}
	}
	return nil
}

// sameLabels reports whether two label maps are equal.
func sameLabels(a, b any) bool {
	am, _ := a.(map[string]any)
	bm, _ := b.(map[string]any)
	if len(am) != len(bm) || len(am) == 0 {
		return false
	}
	for k, v := range am {
		if bm[k] != v {
			return false
		}
	}
	return true
}

// validateCollectorConfig runs `otelcol validate` on cfg.
func validateCollectorConfig(t *testing.T, otelcol, cfg string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(otelcol, "validate", "--config", path).CombinedOutput(); err != nil {
		t.Errorf("the Collector refuses the routing config: %v\n%s\n%s", err, out, cfg)
	}
}

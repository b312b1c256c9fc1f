package deploy

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/yaml"

	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// TestChartSessionScorer renders the gateway with one replica, several
// replicas and as a StatefulSet, each with sessions off and on, and checks
// who scores conversations: with several replicas exactly one session
// scorer (one pod, replaced with Recreate, reading sessions from
// ClickHouse, reached by no OTLP Service, scraped like the replicas) while
// the replicas keep sessions off; with one replica that replica, in
// memory; with sessions off nobody. Every rendered configuration passes
// the sidecar's own parser, and Kubernetes label selectors are evaluated
// as the API server does.
func TestChartSessionScorer(t *testing.T) {
	helm := helmBin(t)
	clickhouse := []string{"config.exporters.clickhouse.enabled=true", "config.exporters.clickhouse.endpoint=clickhouse://clickhouse:9000"}
	for _, tc := range []struct {
		name     string
		set      []string
		sessions bool // conversations are scored
		scorer   bool // by the session scorer, not the replica
	}{
		{"one replica off", []string{"replicaCount=1"}, false, false},
		{"one replica on", []string{"replicaCount=1", "sessions.enabled=true"}, true, false},
		{"several replicas off", append([]string{"replicaCount=3"}, clickhouse...), false, false},
		{"several replicas on", append([]string{"replicaCount=3", "sessions.enabled=true", "sessions.resources.limits.memory=256Mi"}, clickhouse...), true, true},
		{"several replicas on through config.sessions", append([]string{"replicaCount=3", "config.sessions.enabled=true"}, clickhouse...), true, true},
		{"one replica autoscaled on", append([]string{"replicaCount=1", "autoscaling.enabled=true", "sessions.enabled=true"}, clickhouse...), true, true},
		{"several replicas without routing on", append([]string{"replicaCount=3", "routing.enabled=false", "sessions.enabled=true"}, clickhouse...), true, true},
		{"statefulset off", append([]string{"mode=statefulset", "replicaCount=3"}, clickhouse...), false, false},
		{"statefulset on", append([]string{"mode=statefulset", "replicaCount=3", "sessions.enabled=true"}, clickhouse...), true, true},
		{"statefulset one replica on", []string{"mode=statefulset", "replicaCount=1", "routing.enabled=false", "sessions.enabled=true"}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"template", "rel", chartDir, "--namespace", "agents",
				"--set", "serviceMonitor.enabled=true", "--set", "podMonitor.enabled=true", "--set", "networkPolicy.enabled=true"}
			for _, s := range tc.set {
				args = append(args, "--set", s)
			}
			objs := renderArgs(t, helm, args...)
			byName := map[string]manifest{}
			var scorers, workloads []manifest
			for _, o := range objs {
				byName[o.kind()+"/"+str(o, "metadata", "name")] = o
				if o.kind() != "Deployment" && o.kind() != "StatefulSet" {
					continue
				}
				switch str(o, "metadata", "labels", "app.kubernetes.io/component") {
				case "sessions":
					scorers = append(scorers, o)
				case "gateway":
					workloads = append(workloads, o)
				}
			}
			if len(workloads) != 1 {
				t.Fatalf("%d gateway workloads, want 1", len(workloads))
			}
			_, gwCfg := checkConfigMap(t, []manifest{byName["ConfigMap/rel-evalsidecar"]})
			if got := len(scorers); got != map[bool]int{true: 1, false: 0}[tc.scorer] {
				t.Fatalf("%d session scorers, want scorer=%v", got, tc.scorer)
			}
			if !tc.scorer {
				if gwCfg.Sessions.Enabled != tc.sessions {
					t.Errorf("replica config sessions.enabled = %v, want %v", gwCfg.Sessions.Enabled, tc.sessions)
				}
				if tc.sessions && gwCfg.Sessions.Source != session.SourceMemory {
					t.Errorf("single replica assembles sessions from %q, want memory", gwCfg.Sessions.Source)
				}
				return
			}
			if gwCfg.Sessions.Enabled {
				t.Error("the replicas score sessions alongside the session scorer")
			}
			mem := str(workloads[0], "spec", "template", "spec", "containers", 0, "resources", "limits", "memory")
			for _, kv := range tc.set {
				if v, ok := strings.CutPrefix(kv, "sessions.resources.limits.memory="); ok {
					mem = v
				}
			}
			checkSessionScorer(t, objs, byName, scorers[0], workloads[0], config.ExporterConfig[chexp.Config](gwCfg.Exporters), mem)
		})
	}
}

// checkSessionScorer checks the session scorer's objects against the
// gateway's: its configuration, pod (memory limit mem), and who selects
// its pods.
func checkSessionScorer(t *testing.T, objs []manifest, byName map[string]manifest, dep, gateway manifest, gwClickHouse any, mem string) {
	t.Helper()
	if get(dep, "spec", "replicas") != 1 || str(dep, "spec", "strategy", "type") != "Recreate" {
		t.Errorf("session scorer: replicas %v, strategy %v; want 1 and Recreate", get(dep, "spec", "replicas"), get(dep, "spec", "strategy"))
	}
	pod := get(dep, "spec", "template")
	var cmName string
	for _, v := range list(pod, "spec", "volumes") {
		if str(v, "name") == "evalsidecar-config" {
			cmName = str(v, "configMap", "name")
		}
	}
	if cmName == "" || cmName == "rel-evalsidecar" {
		t.Fatalf("session scorer mounts config map %q, want its own", cmName)
	}
	text, cfg := checkConfigMap(t, []manifest{byName["ConfigMap/"+cmName]})
	if !cfg.Sessions.Enabled || cfg.Sessions.Source != session.SourceClickHouse {
		t.Errorf("session scorer config: sessions enabled %v source %q, want true and clickhouse", cfg.Sessions.Enabled, cfg.Sessions.Source)
	}
	if ch := config.ExporterConfig[chexp.Config](cfg.Exporters); !ch.Enabled || !reflect.DeepEqual(ch, gwClickHouse) {
		t.Errorf("session scorer's ClickHouse exporter %+v differs from the replicas' %+v", ch, gwClickHouse)
	}
	for _, ep := range []string{cfg.Receiver.GRPC.Endpoint, cfg.Receiver.HTTP.Endpoint} {
		if host, _, _ := net.SplitHostPort(ep); host != "127.0.0.1" {
			t.Errorf("session scorer receiver listens on %s, want localhost only", ep)
		}
	}
	sum := sha256.Sum256([]byte(strings.TrimSuffix(text, "\n")))
	if got := str(pod, "metadata", "annotations", "checksum/config"); got != hex.EncodeToString(sum[:]) {
		t.Errorf("session scorer checksum/config %s is not the hash of its config", got)
	}
	c := get(pod, "spec", "containers", 0)
	gc := get(gateway, "spec", "template", "spec", "containers", 0)
	if limit := str(c, "resources", "limits", "memory"); limit != mem {
		t.Errorf("session scorer memory limit %s, want %s", limit, mem)
	} else if want := strconv.FormatInt(memBytes(t, mem)*8/10, 10); str(c, "env", 0, "name") != "GOMEMLIMIT" || !closeInt(str(c, "env", 0, "value"), want) {
		t.Errorf("session scorer env %v: want GOMEMLIMIT %s (80%% of %s)", get(c, "env"), want, mem)
	}
	if str(c, "image") != str(gc, "image") {
		t.Errorf("session scorer image %s differs from the replicas'", str(c, "image"))
	}
	podLabels := labels.Set{}
	for k, v := range get(pod, "metadata", "labels").(map[string]any) {
		podLabels[k] = v.(string)
	}
	gwLabels := labels.Set{}
	for k, v := range get(gateway, "spec", "template", "metadata", "labels").(map[string]any) {
		gwLabels[k] = v.(string)
	}
	if !labelSelector(t, get(dep, "spec", "selector")).Matches(podLabels) {
		t.Error("session scorer Deployment does not select its pods")
	}
	if labelSelector(t, get(gateway, "spec", "selector")).Matches(podLabels) || labelSelector(t, get(dep, "spec", "selector")).Matches(gwLabels) {
		t.Error("the gateway's and the session scorer's selectors overlap")
	}
	scraped := 0
	for _, o := range objs {
		switch o.kind() {
		case "Service":
			sel, _ := get(o, "spec", "selector").(map[string]any)
			set := labels.Set{}
			for k, v := range sel {
				set[k] = v.(string)
			}
			if !labels.SelectorFromSet(set).Matches(podLabels) {
				continue
			}
			if portNamed(o, "otlp-grpc") != nil || portNamed(o, "otlp-http") != nil {
				t.Errorf("Service %s sends OTLP to the session scorer", str(o, "metadata", "name"))
			}
			svcLabels := labels.Set{}
			for k, v := range get(o, "metadata", "labels").(map[string]any) {
				svcLabels[k] = v.(string)
			}
			if portNamed(o, "metrics") != nil && labelSelector(t, get(byName["ServiceMonitor/rel-evalsidecar"], "spec", "selector")).Matches(svcLabels) {
				scraped++
			}
		case "PodDisruptionBudget":
			if labelSelector(t, get(o, "spec", "selector")).Matches(podLabels) {
				t.Error("the PodDisruptionBudget counts the session scorer")
			}
		case "NetworkPolicy":
			if sel := labelSelector(t, get(o, "spec", "podSelector")); !sel.Matches(podLabels) || !sel.Matches(gwLabels) {
				t.Error("the NetworkPolicy does not cover both the replicas and the session scorer")
			}
		}
	}
	if scraped != 1 {
		t.Errorf("the ServiceMonitor scrapes the session scorer through %d Services, want 1", scraped)
	}
	pm := labelSelector(t, get(byName["PodMonitor/rel-evalsidecar"], "spec", "selector"))
	if !pm.Matches(podLabels) || !pm.Matches(gwLabels) {
		t.Error("the PodMonitor does not select both the replicas and the session scorer")
	}
	if rd, ok := byName["Deployment/rel-evalsidecar-routing"]; ok {
		routingLabels := labels.Set{}
		for k, v := range get(rd, "spec", "template", "metadata", "labels").(map[string]any) {
			routingLabels[k] = v.(string)
		}
		if pm.Matches(routingLabels) {
			t.Error("the PodMonitor selects the routing tier's pods")
		}
	}
}

// labelSelector converts a rendered metav1.LabelSelector.
func labelSelector(t *testing.T, v any) labels.Selector {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var ls metav1.LabelSelector
	if err := yaml.UnmarshalStrict(b, &ls); err != nil {
		t.Fatal(err)
	}
	sel, err := metav1.LabelSelectorAsSelector(&ls)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// TestChartSessionScorerNeedsClickHouse checks that several replicas
// scoring conversations without ClickHouse fail at render, naming the key.
func TestChartSessionScorerNeedsClickHouse(t *testing.T) {
	helm := helmBin(t)
	for _, set := range []string{"sessions.enabled=true", "mode=statefulset,sessions.enabled=true", "replicaCount=1,autoscaling.enabled=true,config.sessions.enabled=true"} {
		out, err := exec.Command(helm, "template", "t", chartDir, "--set", set).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "config.exporters.clickhouse.enabled: true") {
			t.Errorf("--set %s: err %v, output does not name config.exporters.clickhouse.enabled:\n%s", set, err, out)
		}
	}
}

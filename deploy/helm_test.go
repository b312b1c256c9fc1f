package deploy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	promexp "github.com/evalsidecar/evalsidecar/exporter/prometheus"
	"github.com/evalsidecar/evalsidecar/internal/config"
)

const (
	chartDir    = "helm/evalsidecar"
	helmVersion = "helm.sh/helm/v3/cmd/helm@v3.22.0"
)

var (
	helmOnce sync.Once
	helmPath string
	helmErr  error
)

// helmBin returns helm: EVALSIDECAR_HELM_BIN, or helm v3.22.0 built from
// the Go module proxy into a temporary directory (once per test binary).
func helmBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("EVALSIDECAR_HELM_BIN"); p != "" {
		return p
	}
	helmOnce.Do(func() {
		dir, err := os.MkdirTemp("", "evalsidecar-helm")
		if err != nil {
			helmErr = err
			return
		}
		cmd := exec.Command("go", "install", helmVersion)
		cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			helmErr = fmt.Errorf("go install %s: %v\n%s", helmVersion, err, out)
			return
		}
		helmPath = filepath.Join(dir, "helm")
	})
	if helmErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(helmErr)
		}
		t.Skip(helmErr)
	}
	return helmPath
}

// valuesMatrix lists the value files the chart is linted and rendered
// with: the defaults and every ci/*.yaml scenario.
func valuesMatrix(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(chartDir, "ci", "*-values.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no ci values: %v", err)
	}
	return append([]string{""}, files...)
}

func helmArgs(valuesFile string, args ...string) []string {
	if valuesFile != "" {
		args = append(args, "-f", valuesFile)
	}
	return args
}

func name(valuesFile string) string {
	if valuesFile == "" {
		return "defaults"
	}
	return strings.TrimSuffix(filepath.Base(valuesFile), "-values.yaml")
}

func TestHelmLint(t *testing.T) {
	helm := helmBin(t)
	for _, vf := range valuesMatrix(t) {
		t.Run(name(vf), func(t *testing.T) {
			out, err := exec.Command(helm, helmArgs(vf, "lint", "--strict", chartDir)...).CombinedOutput()
			if err != nil {
				t.Errorf("helm lint --strict: %v\n%s", err, out)
			}
		})
	}
}

// TestHelmLintRejectsBadValues checks that the schema and NOTES.txt refuse
// invalid values with a message naming them.
func TestHelmLintRejectsBadValues(t *testing.T) {
	helm := helmBin(t)
	for _, c := range []struct{ set, want string }{
		{"mode=daemonset", "mode"},
		{"ports.metrics=0", "metrics"},
		{"unknownKey=1", "unknownKey"},
		{"mode=sidecar,autoscaling.enabled=true", "autoscaling applies to mode \"deployment\" or \"statefulset\" only"},
		{"dataVolume.existingClaim=data,replicaCount=2", "Use mode \"statefulset\""},
		{"dataVolume.existingClaim=data,replicaCount=1,autoscaling.enabled=true", "share one ClickHouse spool directory"},
		{"mode=statefulset,dataVolume.existingClaim=data", "each replica gets its own claim"},
		{"nativeSidecar=true", "nativeSidecar applies to mode \"sidecar\" only"},
		{"dataVolume.sizeLimit=lots", "sizeLimit"},
		{"extraVolumeMounts[0].name=x", "mountPath"},
		{"secretEnv.X.secretName=s", "key"},
		{"judge.env[0].name=OPENAI_API_KEY,judge.env[0].key=openai", "judge.existingSecret is required"},
		{"judge.existingSecret=k,judge.env[0].name=OPENAI-KEY,judge.env[0].key=openai", "/judge/env/0/name"},
		{"judge.existingSecret=k,judge.env[0].name=OPENAI_API_KEY", "key"},
		{"judge.secret=k", "secret"},
		{"sessions.enable=true", "enable"},
	} {
		out, err := exec.Command(helm, "template", "t", chartDir, "--set", c.set).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("--set %s: err %v, output does not name %q:\n%s", c.set, err, c.want, out)
		}
	}
}

// manifest is one rendered Kubernetes object.
type manifest map[string]any

func (m manifest) kind() string { return str(m, "kind") }

// render runs helm template with the values file and returns the objects.
func render(t *testing.T, helm, valuesFile string) []manifest {
	t.Helper()
	return renderArgs(t, helm, helmArgs(valuesFile, "template", "rel", chartDir, "--namespace", "agents")...)
}

// renderArgs runs helm with args and returns the objects it prints.
func renderArgs(t *testing.T, helm string, args ...string) []manifest {
	t.Helper()
	out, err := exec.Command(helm, args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("helm template: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(out))
	var objs []manifest
	for {
		var m map[string]any // nested maps decode as map[string]any too
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("rendered YAML: %v", err)
		}
		if m != nil {
			objs = append(objs, manifest(m))
		}
	}
	return objs
}

// get walks maps and lists: get(m, "spec", "template", 0, "name").
func get(v any, path ...any) any {
	if m, ok := v.(manifest); ok {
		v = map[string]any(m)
	}
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func str(v any, path ...any) string {
	s, _ := get(v, path...).(string)
	return s
}

func list(v any, path ...any) []any {
	l, _ := get(v, path...).([]any)
	return l
}

// TestHelmTemplateInvariants renders every scenario and checks what a
// broken chart would get wrong: the container ports, Service ports and
// probes agree with the configuration the sidecar reads (which must pass
// the sidecar's own validation), the security context is locked down,
// the checksum annotation is the hash of the config, GOMEMLIMIT follows
// the memory limit, secrets come from Secret references only, and the
// optional objects carry the committed rules and dashboards.
func TestHelmTemplateInvariants(t *testing.T) {
	helm := helmBin(t)
	for _, vf := range valuesMatrix(t) {
		t.Run(name(vf), func(t *testing.T) {
			values := map[string]any{}
			if vf != "" {
				b, err := os.ReadFile(vf)
				if err != nil {
					t.Fatal(err)
				}
				if err := yaml.Unmarshal(b, &values); err != nil {
					t.Fatal(err)
				}
			}
			objs := render(t, helm, vf)
			// the routing tier's objects are checked by TestChartRoutingTier,
			// the session scorer's by TestChartSessionScorer
			byKind, routing := map[string][]manifest{}, map[string][]manifest{}
			for _, o := range objs {
				switch get(o, "metadata", "labels", "app.kubernetes.io/component") {
				case "routing":
					routing[o.kind()] = append(routing[o.kind()], o)
					continue
				case "sessions":
					continue
				}
				byKind[o.kind()] = append(byKind[o.kind()], o)
			}
			cfgText, cfg := checkConfigMap(t, byKind["ConfigMap"])
			checkMonitors(t, byKind, values)
			mode := str(values, "mode")
			if mode == "sidecar" {
				for _, k := range []string{"Deployment", "StatefulSet", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "NetworkPolicy"} {
					if len(byKind[k]) > 0 {
						t.Errorf("sidecar mode renders a %s", k)
					}
				}
				if host, _, _ := net.SplitHostPort(cfg.Receiver.GRPC.Endpoint); host != "127.0.0.1" {
					t.Errorf("sidecar mode: receiver listens on %s, want localhost only", cfg.Receiver.GRPC.Endpoint)
				}
				return
			}
			kind, other := "Deployment", "StatefulSet"
			if mode == "statefulset" {
				kind, other = other, kind
			}
			if len(byKind[kind]) != 1 || len(byKind[other]) != 0 {
				t.Fatalf("mode %q: want one %s and no %s, got %d and %d", mode, kind, other, len(byKind[kind]), len(byKind[other]))
			}
			dep := byKind[kind][0]
			checkDeployment(t, dep, cfgText, cfg, get(values, "useGOMEMLIMIT") != false)
			checkDataVolume(t, dep, cfg, values)
			checkSecretEnv(t, dep, cfgText, values)
			var svc manifest
			for _, s := range byKind["Service"] {
				if !strings.HasSuffix(str(s, "metadata", "name"), "-headless") {
					svc = s
				} else if mode == "statefulset" && str(dep, "spec", "serviceName") != str(s, "metadata", "name") {
					t.Errorf("headless Service %s is not the StatefulSet's serviceName", str(s, "metadata", "name"))
				}
			}
			if len(routing["Deployment"]) == 1 {
				checkService(t, svc, routing["Deployment"][0]) // agents send to the routing tier
			} else {
				checkService(t, svc, dep)
			}
			checkOptional(t, byKind, values)
		})
	}
}

// checkConfigMap parses the sidecar config of the chart's ConfigMap with
// the sidecar's loader (environment references resolve to "x").
func checkConfigMap(t *testing.T, cms []manifest) (string, config.Config) {
	t.Helper()
	for _, cm := range cms {
		text := str(cm, "data", "config.yaml")
		if text == "" {
			continue
		}
		cfg, err := config.Parse([]byte(text), func(string) (string, bool) { return "x", true })
		if err != nil {
			t.Fatalf("rendered config.yaml is rejected by the sidecar: %v\n%s", err, text)
		}
		return text, cfg
	}
	t.Fatal("no ConfigMap with config.yaml")
	return "", config.Config{}
}

func port(t *testing.T, endpoint string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func checkDeployment(t *testing.T, dep manifest, cfgText string, cfg config.Config, gomemlimit bool) {
	t.Helper()
	pod := get(dep, "spec", "template")
	c := get(pod, "spec", "containers", 0)
	ports := map[string]int{}
	for _, p := range list(c, "ports") {
		ports[str(p, "name")] = get(p, "containerPort").(int)
	}
	want := map[string]string{
		"otlp-grpc": cfg.Receiver.GRPC.Endpoint,
		"otlp-http": cfg.Receiver.HTTP.Endpoint,
		"metrics":   config.ExporterConfig[promexp.Config](cfg.Exporters).Endpoint,
	}
	for name, ep := range want {
		if host, _, _ := net.SplitHostPort(ep); host != "0.0.0.0" {
			t.Errorf("%s: config listens on %s, not reachable from other pods", name, ep)
		}
		if ports[name] != port(t, ep) {
			t.Errorf("container port %s = %d, config endpoint %s", name, ports[name], ep)
		}
	}
	for probe, path := range map[string]string{"livenessProbe": "/healthz", "readinessProbe": "/readyz"} {
		if got := str(c, probe, "httpGet", "path"); got != path {
			t.Errorf("%s path %q, want %s", probe, got, path)
		}
		if got := get(c, probe, "httpGet", "port"); got != "metrics" && got != ports["metrics"] {
			t.Errorf("%s port %v, want the metrics port", probe, got)
		}
	}
	if get(pod, "spec", "securityContext", "runAsNonRoot") != true {
		t.Error("pod securityContext.runAsNonRoot is not true")
	}
	sc := get(c, "securityContext")
	if get(sc, "readOnlyRootFilesystem") != true || get(sc, "allowPrivilegeEscalation") != false || get(sc, "runAsNonRoot") != true {
		t.Errorf("container securityContext not locked down: %v", sc)
	}
	if caps := list(sc, "capabilities", "drop"); len(caps) != 1 || caps[0] != "ALL" {
		t.Errorf("capabilities.drop = %v, want [ALL]", caps)
	}
	sum := sha256.Sum256([]byte(strings.TrimSuffix(cfgText, "\n")))
	if got := str(pod, "metadata", "annotations", "checksum/config"); got != hex.EncodeToString(sum[:]) {
		t.Errorf("checksum/config %q is not the hash of the config", got)
	}
	env := map[string]any{}
	for _, e := range list(c, "env") {
		env[str(e, "name")] = e
	}
	if limit := str(c, "resources", "limits", "memory"); limit != "" && gomemlimit {
		gml, ok := env["GOMEMLIMIT"]
		if !ok {
			t.Errorf("memory limit %s but no GOMEMLIMIT", limit)
		} else if got, want := str(gml, "value"), strconv.FormatInt(memBytes(t, limit)*8/10, 10); !closeInt(got, want) {
			t.Errorf("GOMEMLIMIT = %s, want 80%% of %s = %s", got, limit, want)
		}
	} else if _, ok := env["GOMEMLIMIT"]; ok {
		t.Error("GOMEMLIMIT set without a memory limit or with useGOMEMLIMIT=false")
	}
	for n, e := range env {
		if n == "GOMEMLIMIT" {
			continue
		}
		if str(e, "valueFrom", "secretKeyRef", "name") == "" && get(e, "value") != nil {
			t.Errorf("env %s has an inline value", n)
		}
		if strings.Contains(cfgText, "secretName") {
			t.Error("secret references leaked into the ConfigMap")
		}
	}
	mounted := func(dir string) bool {
		for _, m := range list(c, "volumeMounts") {
			if mp := str(m, "mountPath"); dir == mp || strings.HasPrefix(dir, mp+"/") {
				return true
			}
		}
		return false
	}
	jl, ch := config.ExporterConfig[jsonl.Config](cfg.Exporters), config.ExporterConfig[chexp.Config](cfg.Exporters)
	for _, dir := range []string{jl.Directory, ch.Spool.Directory, "/etc/evalsidecar"} {
		if !mounted(dir) {
			t.Errorf("no volume mounted at %s (the root filesystem is read-only)", dir)
		}
	}
	if str(c, "startupProbe", "httpGet", "path") != "/healthz" {
		t.Error("no startupProbe on /healthz")
	}
}

// checkDataVolume checks that the data volume holds what the exporters may
// keep, computed here from the configuration the sidecar reads: JSON lines
// keep 3 streams of max_files rotated files and the current one, each up to
// max_file_bytes; the ClickHouse spool max_bytes. An emptyDir smaller than
// that gets the pod evicted; a claim smaller fills up. In mode statefulset
// every replica has its own claim.
func checkDataVolume(t *testing.T, workload manifest, cfg config.Config, values map[string]any) {
	t.Helper()
	var need int64
	jl, ch := config.ExporterConfig[jsonl.Config](cfg.Exporters), config.ExporterConfig[chexp.Config](cfg.Exporters)
	if jl.Enabled {
		need += 3 * int64(jl.MaxFiles+1) * jl.MaxFileBytes
	}
	if ch.Enabled {
		need += ch.Spool.MaxBytes
	}
	var data any
	for _, v := range list(workload, "spec", "template", "spec", "volumes") {
		if str(v, "name") == "evalsidecar-data" {
			data = v
		}
	}
	switch {
	case str(values, "mode") == "statefulset":
		if data != nil {
			t.Error("statefulset mode: evalsidecar-data is a pod volume, not a claim template")
		}
		claims := list(workload, "spec", "volumeClaimTemplates")
		if len(claims) != 1 || str(claims[0], "metadata", "name") != "evalsidecar-data" {
			t.Fatalf("statefulset mode: volumeClaimTemplates %v, want one named evalsidecar-data", claims)
		}
		if got := memBytes(t, str(claims[0], "spec", "resources", "requests", "storage")); got < need {
			t.Errorf("each replica's claim holds %d bytes, the exporters may keep %d", got, need)
		}
	case data == nil:
		t.Error("no evalsidecar-data volume")
	case get(data, "emptyDir") != nil:
		limit := str(data, "emptyDir", "sizeLimit")
		if limit == "" {
			t.Fatal("the data emptyDir has no sizeLimit")
		}
		if got := memBytes(t, limit); got < need && str(values, "dataVolume", "sizeLimit") == "" {
			t.Errorf("emptyDir sizeLimit %s (%d bytes) is below what the exporters may keep (%d bytes)", limit, got, need)
		}
	case str(data, "persistentVolumeClaim", "claimName") != str(values, "dataVolume", "existingClaim"):
		t.Errorf("data volume %v is not dataVolume.existingClaim", data)
	}
}

// checkMonitors checks the ServiceMonitor and PodMonitor: each scrapes the
// metrics port with honorLabels (so the sidecar's labels survive the
// Operator's target labels), and the PodMonitor selects the pods.
func checkMonitors(t *testing.T, byKind map[string][]manifest, values map[string]any) {
	t.Helper()
	for _, sm := range byKind["ServiceMonitor"] {
		if get(sm, "spec", "endpoints", 0, "honorLabels") != true {
			t.Error("ServiceMonitor without honorLabels: true")
		}
	}
	want := get(values, "podMonitor", "enabled") == true
	if want != (len(byKind["PodMonitor"]) == 1) {
		t.Fatalf("podMonitor.enabled=%v but %d PodMonitors", want, len(byKind["PodMonitor"]))
	}
	if !want {
		return
	}
	pm := byKind["PodMonitor"][0]
	ep := get(pm, "spec", "podMetricsEndpoints", 0)
	if str(ep, "port") != "metrics" || get(ep, "honorLabels") != true {
		t.Errorf("PodMonitor endpoint %v: want port metrics with honorLabels: true", ep)
	}
	if sel, _ := get(pm, "spec", "selector", "matchLabels").(map[string]any); len(sel) == 0 {
		t.Error("PodMonitor selects no pods")
	}
}

// memBytes converts a Kubernetes memory quantity with a binary or decimal
// suffix.
func memBytes(t *testing.T, q string) int64 {
	t.Helper()
	mult := map[string]int64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "K": 1e3, "M": 1e6, "G": 1e9}
	for _, suf := range []string{"Ki", "Mi", "Gi", "K", "M", "G"} {
		if strings.HasSuffix(q, suf) {
			n, err := strconv.ParseInt(strings.TrimSuffix(q, suf), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n * mult[suf]
		}
	}
	n, err := strconv.ParseInt(q, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// closeInt compares two integers allowing the rounding of 80%.
func closeInt(a, b string) bool {
	x, err1 := strconv.ParseInt(a, 10, 64)
	y, err2 := strconv.ParseInt(b, 10, 64)
	return err1 == nil && err2 == nil && x-y <= 1 && y-x <= 1
}

// envRef is a ${env:NAME} reference in the sidecar configuration.
var envRef = regexp.MustCompile(`\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}`)

// checkSecretEnv checks that every ${env:NAME} the configuration refers
// to is set on the container, and that each judge.env entry comes from
// its key of judge.existingSecret.
func checkSecretEnv(t *testing.T, dep manifest, cfgText string, values map[string]any) {
	t.Helper()
	env := map[string]any{}
	for _, e := range list(dep, "spec", "template", "spec", "containers", 0, "env") {
		env[str(e, "name")] = e
	}
	for _, m := range envRef.FindAllStringSubmatch(cfgText, -1) {
		if env[m[1]] == nil {
			t.Errorf("the config refers to ${env:%s}, which no container env var sets", m[1])
		}
	}
	secret := str(values, "judge", "existingSecret")
	for _, e := range list(values, "judge", "env") {
		name, key := str(e, "name"), str(e, "key")
		got := env[name]
		if got == nil {
			t.Errorf("judge.env %s is not set on the container", name)
			continue
		}
		if str(got, "valueFrom", "secretKeyRef", "name") != secret || str(got, "valueFrom", "secretKeyRef", "key") != key {
			t.Errorf("env %s = %v, want key %q of Secret %q", name, got, key, secret)
		}
	}
}

func checkService(t *testing.T, svc, dep manifest) {
	t.Helper()
	c := get(dep, "spec", "template", "spec", "containers", 0)
	named := map[string]bool{}
	for _, p := range list(c, "ports") {
		named[str(p, "name")] = true
	}
	for _, p := range list(svc, "spec", "ports") {
		if !named[str(p, "targetPort")] {
			t.Errorf("Service port %s targets %q, which the container does not declare", str(p, "name"), str(p, "targetPort"))
		}
	}
	sel, _ := get(svc, "spec", "selector").(map[string]any)
	labels, _ := get(dep, "spec", "template", "metadata", "labels").(map[string]any)
	for k, v := range sel {
		if labels[k] != v {
			t.Errorf("Service selector %s=%v does not match the pod labels", k, v)
		}
	}
}

func checkOptional(t *testing.T, byKind map[string][]manifest, values map[string]any) {
	t.Helper()
	on := func(key string) bool { return get(values, key, "enabled") == true }
	if want := on("prometheusRule"); want != (len(byKind["PrometheusRule"]) == 1) {
		t.Errorf("prometheusRule.enabled=%v but %d PrometheusRule objects", want, len(byKind["PrometheusRule"]))
	} else if want {
		checkPrometheusRule(t, byKind["PrometheusRule"][0], values)
	}
	if want := on("serviceMonitor"); want != (len(byKind["ServiceMonitor"]) == 1) {
		t.Errorf("serviceMonitor.enabled=%v but %d ServiceMonitor objects", want, len(byKind["ServiceMonitor"]))
	} else if want && str(byKind["ServiceMonitor"][0], "spec", "endpoints", 0, "port") != "metrics" {
		t.Error("ServiceMonitor does not scrape the metrics port")
	}
	workload := append(byKind["Deployment"], byKind["StatefulSet"]...)[0]
	if want := on("autoscaling"); want != (len(byKind["HorizontalPodAutoscaler"]) == 1) {
		t.Errorf("autoscaling.enabled=%v but %d HPAs", want, len(byKind["HorizontalPodAutoscaler"]))
	} else if want {
		hpa := byKind["HorizontalPodAutoscaler"][0]
		if get(workload, "spec", "replicas") != nil {
			t.Errorf("the %s sets replicas while an HPA scales it", workload.kind())
		}
		if str(hpa, "spec", "scaleTargetRef", "kind") != workload.kind() || str(hpa, "spec", "scaleTargetRef", "name") != str(workload, "metadata", "name") {
			t.Errorf("HPA scales %v, not the %s", get(hpa, "spec", "scaleTargetRef"), workload.kind())
		}
		if b := get(values, "autoscaling", "behavior"); b != nil && !reflect.DeepEqual(get(hpa, "spec", "behavior"), b) {
			t.Errorf("HPA behavior %v, want autoscaling.behavior %v", get(hpa, "spec", "behavior"), b)
		}
	}
	if want := on("networkPolicy"); want != (len(byKind["NetworkPolicy"]) == 1) {
		t.Errorf("networkPolicy.enabled=%v but %d NetworkPolicies", want, len(byKind["NetworkPolicy"]))
	}
	pdbOn := get(values, "podDisruptionBudget", "enabled") != false
	if pdbOn != (len(byKind["PodDisruptionBudget"]) == 1) {
		t.Errorf("podDisruptionBudget.enabled=%v but %d PDBs", pdbOn, len(byKind["PodDisruptionBudget"]))
	}
	dashboards := 0
	for _, cm := range byKind["ConfigMap"] {
		data, _ := get(cm, "data").(map[string]any)
		for k, v := range data {
			if !strings.HasSuffix(k, ".json") {
				continue
			}
			dashboards++
			if str(cm, "metadata", "labels", "grafana_dashboard") != "1" {
				t.Errorf("dashboard ConfigMap %s lacks the grafana_dashboard label", str(cm, "metadata", "name"))
			}
			want, err := os.ReadFile(filepath.Join("..", "dashboards", "generated", k))
			if err != nil || strings.TrimSpace(v.(string)) != strings.TrimSpace(string(want)) {
				t.Errorf("dashboard %s differs from dashboards/generated/%s (%v)", k, k, err)
			}
		}
	}
	if on("dashboards") != (dashboards > 0) {
		t.Errorf("dashboards.enabled=%v but %d dashboards rendered", on("dashboards"), dashboards)
	}
}

func checkPrometheusRule(t *testing.T, pr manifest, values map[string]any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(chartDir, "files", "evalsidecar.rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := yaml.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	groups := list(pr, "spec", "groups")
	if len(groups) != len(list(file, "groups")) {
		t.Fatalf("PrometheusRule has %d groups, the rule file %d", len(groups), len(list(file, "groups")))
	}
	extra, _ := get(values, "prometheusRule", "additionalRuleLabels").(map[string]any)
	for gi, g := range groups {
		want := list(file, "groups", gi, "rules")
		got := list(g, "rules")
		if len(got) != len(want) {
			t.Errorf("group %s: %d rules, want %d", str(g, "name"), len(got), len(want))
			continue
		}
		for ri := range got {
			if str(got[ri], "expr") != str(want[ri], "expr") {
				t.Errorf("group %s rule %d: expression differs from the rule file", str(g, "name"), ri)
			}
			if str(got[ri], "alert") == "" {
				continue
			}
			for k, v := range extra {
				if get(got[ri], "labels", k) != v {
					t.Errorf("alert %s lacks additional label %s=%v", str(got[ri], "alert"), k, v)
				}
			}
			if str(got[ri], "labels", "severity") == "" {
				t.Errorf("alert %s lost its severity label", str(got[ri], "alert"))
			}
		}
	}
}

// TestChartDashboardsUpToDate checks that the dashboards shipped in the
// chart equal the generated ones (`make dashboards` copies them).
func TestChartDashboardsUpToDate(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(chartDir, "files", "dashboards", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no dashboards in the chart: %v", err)
	}
	for _, f := range files {
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "dashboards", "generated", filepath.Base(f)))
		if err != nil {
			t.Errorf("%s has no generated source: %v", f, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run make dashboards", f)
		}
	}
}

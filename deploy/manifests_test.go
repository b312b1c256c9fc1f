package deploy

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	yaml3 "gopkg.in/yaml.v3"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// kinds maps every kind the chart renders to its Go type.
var kinds = map[schema.GroupVersionKind]func() runtime.Object{
	appsv1.SchemeGroupVersion.WithKind("Deployment"):                     func() runtime.Object { return &appsv1.Deployment{} },
	appsv1.SchemeGroupVersion.WithKind("StatefulSet"):                    func() runtime.Object { return &appsv1.StatefulSet{} },
	corev1.SchemeGroupVersion.WithKind("Service"):                        func() runtime.Object { return &corev1.Service{} },
	corev1.SchemeGroupVersion.WithKind("ServiceAccount"):                 func() runtime.Object { return &corev1.ServiceAccount{} },
	corev1.SchemeGroupVersion.WithKind("ConfigMap"):                      func() runtime.Object { return &corev1.ConfigMap{} },
	autoscalingv2.SchemeGroupVersion.WithKind("HorizontalPodAutoscaler"): func() runtime.Object { return &autoscalingv2.HorizontalPodAutoscaler{} },
	policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"):          func() runtime.Object { return &policyv1.PodDisruptionBudget{} },
	networkingv1.SchemeGroupVersion.WithKind("NetworkPolicy"):            func() runtime.Object { return &networkingv1.NetworkPolicy{} },
	rbacv1.SchemeGroupVersion.WithKind("Role"):                           func() runtime.Object { return &rbacv1.Role{} },
	rbacv1.SchemeGroupVersion.WithKind("RoleBinding"):                    func() runtime.Object { return &rbacv1.RoleBinding{} },
	monitoringv1.SchemeGroupVersion.WithKind("ServiceMonitor"):           func() runtime.Object { return &monitoringv1.ServiceMonitor{} },
	monitoringv1.SchemeGroupVersion.WithKind("PodMonitor"):               func() runtime.Object { return &monitoringv1.PodMonitor{} },
	monitoringv1.SchemeGroupVersion.WithKind("PrometheusRule"):           func() runtime.Object { return &monitoringv1.PrometheusRule{} },
}

// decodeStrict decodes every document of a helm template output into the
// Kubernetes (k8s.io/api) or Prometheus Operator type of its apiVersion
// and kind, with unknown or misplaced fields as errors.
func decodeStrict(t *testing.T, out []byte) []runtime.Object {
	t.Helper()
	dec := yaml3.NewDecoder(bytes.NewReader(out))
	var objs []runtime.Object
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("rendered YAML: %v", err)
		}
		if doc == nil {
			continue
		}
		b, err := yaml3.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		apiVersion, _ := doc["apiVersion"].(string)
		kind, _ := doc["kind"].(string)
		gv, err := schema.ParseGroupVersion(apiVersion)
		if err != nil {
			t.Errorf("%s: apiVersion %q: %v", kind, apiVersion, err)
			continue
		}
		newObj, ok := kinds[gv.WithKind(kind)]
		if !ok {
			t.Errorf("%s %s: no Go type to check it against", apiVersion, kind)
			continue
		}
		obj := newObj()
		if err := yaml.UnmarshalStrict(b, obj); err != nil {
			t.Errorf("%s %s does not decode strictly: %v", kind, doc["metadata"].(map[string]any)["name"], err)
			continue
		}
		objs = append(objs, obj)
	}
	return objs
}

func helmTemplate(t *testing.T, helm string, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(helm, args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, ee.Stderr)
		}
		t.Fatal(err)
	}
	return out
}

// TestManifestsDecodeStrictly renders every scenario of the values matrix
// and decodes each object into its Go type: a misspelt or misplaced field
// (which the API server would drop or refuse) fails here.
func TestManifestsDecodeStrictly(t *testing.T) {
	helm := helmBin(t)
	for _, vf := range valuesMatrix(t) {
		t.Run(name(vf), func(t *testing.T) {
			out := helmTemplate(t, helm, helmArgs(vf, "template", "rel", chartDir, "--namespace", "agents")...)
			if objs := decodeStrict(t, out); len(objs) < 1 {
				t.Error("nothing rendered")
			}
		})
	}
}

// copyDir copies the chart at src to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSubchartSidecarMode installs the chart where sidecar users put it:
// as a dependency of an agent's chart (testdata/agent-chart), whose pod
// includes the evalsidecar container and volumes, with global values. It
// must lint and render, every object must decode strictly, and the agent
// pod must carry a native sidecar (an init container with restartPolicy
// Always) with a startup probe, the image under global.imageRegistry, the
// TLS volume mounted, and a PodMonitor that selects the pod.
func TestSubchartSidecarMode(t *testing.T) {
	helm := helmBin(t)
	dir := filepath.Join(t.TempDir(), "agent")
	copyDir(t, filepath.Join("testdata", "agent-chart"), dir)
	copyDir(t, chartDir, filepath.Join(dir, "charts", "evalsidecar"))
	if out, err := exec.Command(helm, "lint", "--strict", dir).CombinedOutput(); err != nil {
		t.Fatalf("helm lint --strict of the parent chart: %v\n%s", err, out)
	}
	out := helmTemplate(t, helm, "template", "shop", dir, "--namespace", "agents")
	var dep *appsv1.Deployment
	var pm *monitoringv1.PodMonitor
	var cm *corev1.ConfigMap
	for _, o := range decodeStrict(t, out) {
		switch o := o.(type) {
		case *appsv1.Deployment:
			dep = o
		case *monitoringv1.PodMonitor:
			pm = o
		case *corev1.ConfigMap:
			cm = o
		case *appsv1.StatefulSet, *corev1.Service:
			t.Errorf("sidecar mode renders a %T", o)
		}
	}
	if dep == nil || pm == nil || cm == nil {
		t.Fatalf("want the agent Deployment, a PodMonitor and the ConfigMap; got %v %v %v", dep != nil, pm != nil, cm != nil)
	}
	pod := dep.Spec.Template.Spec
	if len(pod.InitContainers) != 1 || pod.InitContainers[0].Name != "evalsidecar" {
		t.Fatalf("init containers %v, want the evalsidecar native sidecar", pod.InitContainers)
	}
	c := pod.InitContainers[0]
	if c.RestartPolicy == nil || *c.RestartPolicy != corev1.ContainerRestartPolicyAlways {
		t.Error("evalsidecar init container without restartPolicy: Always: it would block the agent from starting")
	}
	if c.StartupProbe == nil || c.StartupProbe.HTTPGet == nil || c.StartupProbe.HTTPGet.Path != "/healthz" {
		t.Error("no startup probe: the agent would start before the sidecar listens")
	}
	if c.Image != "registry.example.com/ghcr.io/evalsidecar/evalsidecar:0.1.0" {
		t.Errorf("image %q does not follow global.imageRegistry", c.Image)
	}
	volumes := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = v
	}
	for _, m := range c.VolumeMounts {
		if _, ok := volumes[m.Name]; !ok {
			t.Errorf("mount %s at %s has no volume in the pod", m.Name, m.MountPath)
		}
	}
	if v := volumes["otlp-tls"]; v.Secret == nil || v.Secret.SecretName != "shop-agent-otlp-tls" {
		t.Errorf("extra volume otlp-tls = %+v", v)
	}
	if v := volumes["evalsidecar-config"]; v.ConfigMap == nil || v.ConfigMap.Name != cm.Name {
		t.Errorf("config volume %+v does not mount the subchart's ConfigMap %s", v, cm.Name)
	}
	if v := volumes["evalsidecar-data"]; v.EmptyDir == nil || v.EmptyDir.SizeLimit == nil || v.EmptyDir.SizeLimit.Value() < 3*6*100<<20+1<<30 {
		t.Errorf("data volume %+v does not hold JSON lines and the spool", v)
	}
	for k, v := range pm.Spec.Selector.MatchLabels {
		if dep.Spec.Template.Labels[k] != v {
			t.Errorf("PodMonitor selects %s=%s, which the agent pod does not carry", k, v)
		}
	}
	if len(pm.Spec.PodMetricsEndpoints) != 1 || !pm.Spec.PodMetricsEndpoints[0].HonorLabels {
		t.Error("PodMonitor endpoint without honorLabels")
	}
	if got := dep.Spec.Template.Annotations["checksum/config"]; got == "" {
		t.Error("the agent pod does not roll on config changes")
	}
	// sized for one agent, with GOMEMLIMIT at 80 % of its limit
	if req, lim := c.Resources.Requests.Memory(), c.Resources.Limits.Memory(); req.String() != "96Mi" || lim.String() != "256Mi" {
		t.Errorf("memory request %s, limit %s; want the agent chart's 96Mi and 256Mi", req, lim)
	}
	gomemlimit := ""
	for _, e := range c.Env {
		if e.Name == "GOMEMLIMIT" {
			gomemlimit = e.Value
		}
	}
	if want := strconv.Itoa(int(math.Round(0.8 * (256 << 20)))); gomemlimit != want {
		t.Errorf("GOMEMLIMIT = %q, want 80 %% of 256Mi (%s)", gomemlimit, want)
	}
}

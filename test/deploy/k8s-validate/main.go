// k8s-validate decodes every manifest of a `helm template` output STRICTLY against the real
// Kubernetes API types (k8s.io/api, and prometheus-operator's for ServiceMonitor): an unknown or
// misspelt field, a duplicate key, a wrong type or an unknown kind is an error. It also checks
// object names, label syntax and the chart's label contract, and prints one JSON line per object
// (kind, name, labels, pod template labels) for the test to assert on. Exit 1 on any error.
//
// Usage: helm template ... | k8s-validate [-objects]
// -objects adds each decoded object (as the typed struct encodes it) to its line.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	k8sjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

type summary struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Name       string            `json:"name"`
	Labels     map[string]string `json:"labels"`
	PodLabels  map[string]string `json:"podLabels,omitempty"`
	Object     runtime.Object    `json:"object,omitempty"`
}

var docSeparator = regexp.MustCompile(`(?m)^---\s*$`)

func main() {
	withObjects := flag.Bool("objects", false, "print each decoded object too")
	flag.Parse()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, autoscalingv2.AddToScheme, policyv1.AddToScheme,
		networkingv1.AddToScheme, rbacv1.AddToScheme, batchv1.AddToScheme, monitoringv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			fail("scheme: %v", err)
		}
	}
	strict := k8sjson.NewSerializerWithOptions(k8sjson.DefaultMetaFactory, scheme, scheme,
		k8sjson.SerializerOptions{Yaml: false, Strict: true})

	input, err := io.ReadAll(bufio.NewReader(os.Stdin))
	if err != nil {
		fail("read: %v", err)
	}
	errors := 0
	count := 0
	out := json.NewEncoder(os.Stdout)
	for i, doc := range docSeparator.Split(string(input), -1) {
		source := sourceOf(doc)
		if isEmpty(doc) {
			continue
		}
		report := func(format string, args ...any) {
			errors++
			fmt.Fprintf(os.Stderr, "document %d (%s): %s\n", i, source, fmt.Sprintf(format, args...))
		}
		// Duplicate keys are refused here; sigs.k8s.io/yaml would otherwise keep the last one.
		js, err := yaml.YAMLToJSONStrict([]byte(doc))
		if err != nil {
			report("yaml: %v", err)
			continue
		}
		obj, gvk, err := strict.Decode(js, nil, nil)
		if err != nil {
			report("%v", err)
			continue
		}
		count++
		m, err := meta.Accessor(obj)
		if err != nil {
			report("no metadata: %v", err)
			continue
		}
		for _, msg := range validation.IsDNS1123Subdomain(m.GetName()) {
			report("metadata.name %q: %s", m.GetName(), msg)
		}
		if gvk.Kind == "Service" {
			for _, msg := range validation.IsDNS1035Label(m.GetName()) {
				report("Service name %q: %s", m.GetName(), msg)
			}
		}
		for _, e := range metav1validation.ValidateLabels(m.GetLabels(), field.NewPath("metadata", "labels")) {
			report("%v", e)
		}
		for _, key := range []string{"app.kubernetes.io/name", "app.kubernetes.io/instance", "app.kubernetes.io/component"} {
			if m.GetLabels()[key] == "" {
				report("label %s missing", key)
			}
		}
		s := summary{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Name: m.GetName(), Labels: m.GetLabels()}
		if d, ok := obj.(*appsv1.Deployment); ok {
			s.PodLabels = d.Spec.Template.Labels
			checkPod(d.Spec.Template.Spec, report)
			if d.Spec.Selector == nil || !subset(d.Spec.Selector.MatchLabels, d.Spec.Template.Labels) {
				report("selector does not match the pod template's labels")
			}
		}
		if *withObjects {
			s.Object = obj
		}
		if err := out.Encode(s); err != nil {
			fail("write: %v", err)
		}
	}
	if count == 0 {
		fail("no manifests on stdin")
	}
	if errors > 0 {
		fail("%d error(s) in %d manifest(s)", errors, count)
	}
}

// checkPod checks what the API server would refuse and the types cannot say.
func checkPod(spec corev1.PodSpec, report func(string, ...any)) {
	for _, c := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		for _, msg := range validation.IsDNS1123Label(c.Name) {
			report("container name %q: %s", c.Name, msg)
		}
		for _, p := range c.Ports {
			if p.Name != "" {
				for _, msg := range validation.IsValidPortName(p.Name) {
					report("container %s port name %q: %s", c.Name, p.Name, msg)
				}
			}
			for _, msg := range validation.IsValidPortNum(int(p.ContainerPort)) {
				report("container %s port %d: %s", c.Name, p.ContainerPort, msg)
			}
		}
		for _, e := range c.Env {
			for _, msg := range validation.IsEnvVarName(e.Name) {
				report("container %s env %q: %s", c.Name, e.Name, msg)
			}
		}
	}
}

func subset(sel, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func sourceOf(doc string) string {
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "# Source: ") {
			return strings.TrimPrefix(line, "# Source: ")
		}
	}
	return "?"
}

func isEmpty(doc string) bool {
	for _, line := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "k8s-validate: "+format+"\n", args...)
	os.Exit(1)
}

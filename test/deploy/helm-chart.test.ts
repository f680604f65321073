import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeTier } from "../support/tier.js";
import { ROOT } from "../e2e/support/process-runner.js";

/**
 * The Helm chart (deploy/helm/tessera): `helm lint`, `helm template` with the default values and
 * the production example, and every rendered manifest decoded strictly against the real
 * Kubernetes API types by test/deploy/k8s-validate (k8s.io/api; unknown fields refused).
 * TESSERA_TEST_HELM names a helm binary, TESSERA_TEST_K8S_VALIDATE the built validator (.ci/run
 * builds both).
 */
const CHART = join(ROOT, "deploy", "helm", "tessera");
const PRODUCTION = join(ROOT, "deploy", "examples", "values-production.yaml");
const DEV = join(ROOT, "deploy", "examples", "values-dev.yaml");
const COMPONENTS = ["gateway", "directory", "token", "saml", "broker", "federation", "audit"];
const SERVICES = COMPONENTS.slice(1);

interface Run { status: number | null; stdout: string; stderr: string }
interface Manifest {
  apiVersion: string; kind: string; name: string;
  labels: Record<string, string>; podLabels?: Record<string, string>;
  // The decoded object, as k8s.io/api encodes it.
  object: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function run(cmd: string, args: string[], input?: string): Run {
  const r = spawnSync(cmd, args, { encoding: "utf8", input, maxBuffer: 64 * 1024 * 1024, cwd: ROOT });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describeTier("Helm chart", ["TESSERA_TEST_HELM", "TESSERA_TEST_K8S_VALIDATE"], () => {
  const helm = (...args: string[]) => run(process.env.TESSERA_TEST_HELM as string, args);
  const validate = (yaml: string) => run(process.env.TESSERA_TEST_K8S_VALIDATE as string, ["-objects"], yaml);

  function template(...args: string[]): string {
    const r = helm("template", "tessera", CHART, "--namespace", "iam", ...args);
    if (r.status !== 0) throw new Error(`helm template failed: ${r.stderr}`);
    return r.stdout;
  }
  function manifests(yaml: string): Manifest[] {
    const r = validate(yaml);
    if (r.status !== 0) throw new Error(`k8s-validate refused the manifests:\n${r.stderr}`);
    return r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Manifest);
  }
  const named = (ms: Manifest[], kind: string) => ms.filter((m) => m.kind === kind).map((m) => m.name).sort();
  const one = (ms: Manifest[], kind: string, name: string) => {
    const m = ms.find((x) => x.kind === kind && x.name === name);
    if (!m) throw new Error(`${kind} ${name} not rendered`);
    return m.object;
  };
  const all = (suffixes: string[]) => suffixes.map((s) => `tessera-${s}`).sort();

  let defaults: Manifest[];
  let production: Manifest[];
  beforeAll(() => {
    defaults = manifests(template());
    production = manifests(template("-f", PRODUCTION));
  });

  it("passes helm lint with the default values and the production example, and renders the dev example", () => {
    const d = helm("lint", CHART, "--strict");
    expect([d.status, d.stderr]).toEqual([0, ""]);
    expect(d.stdout).toContain("1 chart(s) linted, 0 chart(s) failed");
    const p = helm("lint", CHART, "--strict", "-f", PRODUCTION);
    expect([p.status, p.stderr]).toEqual([0, ""]);
    // skaffold's dev profile: one replica each, no HPA.
    const dev = manifests(template("-f", DEV));
    expect(named(dev, "HorizontalPodAutoscaler")).toEqual([]);
    expect(named(dev, "Deployment")).toEqual(all(COMPONENTS));
    expect(dev.filter((m) => m.kind === "Deployment").map((m) => m.object.spec.replicas)).toEqual(COMPONENTS.map(() => 1));
  });

  it("renders every component with its Deployment, Service, PDB and NetworkPolicy by default, and HPAs for token and gateway", () => {
    expect(named(defaults, "Deployment")).toEqual(all(COMPONENTS));
    expect(named(defaults, "Service")).toEqual(all(COMPONENTS));
    expect(named(defaults, "PodDisruptionBudget")).toEqual(all(COMPONENTS));
    expect(named(defaults, "NetworkPolicy")).toEqual(all(COMPONENTS));
    expect(named(defaults, "HorizontalPodAutoscaler")).toEqual(all(["gateway", "token"]));
    expect(named(defaults, "ConfigMap")).toEqual(all(["common", ...COMPONENTS]));
    expect(named(defaults, "Secret")).toEqual(["tessera-secrets"]);
    expect(named(defaults, "Ingress")).toEqual([]);
    expect(named(defaults, "ServiceMonitor")).toEqual([]);
    // An HPA owns the replica count: the Deployment leaves it unset.
    expect(one(defaults, "Deployment", "tessera-token").spec.replicas).toBeUndefined();
    expect(one(defaults, "Deployment", "tessera-saml").spec.replicas).toBe(1);
  });

  it("renders the production example: Ingress, ServiceMonitors, your Secrets and no generated one", () => {
    expect(named(production, "Ingress")).toEqual(["tessera"]);
    expect(named(production, "ServiceMonitor")).toEqual(all(COMPONENTS));
    expect(named(production, "Secret")).toEqual([]);
    expect(named(production, "HorizontalPodAutoscaler")).toEqual(all(["directory", "gateway", "token"]));
    const ingress = one(production, "Ingress", "tessera");
    expect(ingress.spec.rules[0].host).toBe("id.example.com");
    expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({ name: "tessera-gateway", port: { name: "http" } });
    const env = one(production, "Deployment", "tessera-token").spec.template.spec.containers[0].env;
    expect(env.find((e: { name: string }) => e.name === "TESSERA_MONGODB_URI").valueFrom.secretKeyRef).toEqual({ name: "tessera-mongodb", key: "uri" });
    expect(env.find((e: { name: string }) => e.name === "TESSERA_MASTER_KEY").valueFrom.secretKeyRef).toEqual({ name: "tessera-keys", key: "master-key" });
  });

  it("labels every object with name, instance and component, and selects pods by them", () => {
    for (const ms of [defaults, production]) {
      for (const m of ms) {
        expect([m.kind, m.labels["app.kubernetes.io/name"], m.labels["app.kubernetes.io/instance"]]).toEqual([m.kind, "tessera", "tessera"]);
        expect(m.labels["app.kubernetes.io/component"]).toMatch(/^(gateway|directory|token|saml|broker|federation|audit|config|secrets|serviceaccount)$/);
      }
      for (const c of COMPONENTS) {
        const d = one(ms, "Deployment", `tessera-${c}`);
        expect(d.spec.selector.matchLabels).toEqual({ "app.kubernetes.io/name": "tessera", "app.kubernetes.io/instance": "tessera", "app.kubernetes.io/component": c });
        expect(d.spec.template.metadata.labels["app.kubernetes.io/component"]).toBe(c);
        expect(one(ms, "Service", `tessera-${c}`).spec.selector).toEqual(d.spec.selector.matchLabels);
      }
    }
  });

  it("runs each process non-root on a read-only root, with probes on /health and /health/ready", () => {
    for (const c of COMPONENTS) {
      const pod = one(defaults, "Deployment", `tessera-${c}`).spec.template.spec;
      const container = pod.containers[0];
      expect(container.args).toEqual([c]);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } });
      expect(container.volumeMounts).toEqual([{ name: "tmp", mountPath: "/tmp" }]);
      const port = c === "gateway" ? "http" : "grpc";
      expect(container.livenessProbe.httpGet).toEqual({ path: "/health", port });
      expect(container.readinessProbe.httpGet).toEqual({ path: c === "gateway" ? "/health" : "/health/ready", port });
      expect(container.startupProbe.httpGet).toEqual({ path: c === "gateway" ? "/health/ready" : "/health", port });
      expect(container.resources.requests.cpu).toBeDefined();
      expect(container.resources.limits.memory).toBeDefined();
      expect(pod.topologySpreadConstraints.map((t: { topologyKey: string }) => t.topologyKey)).toEqual(["topology.kubernetes.io/zone", "kubernetes.io/hostname"]);
      expect(pod.automountServiceAccountToken).toBe(false);
    }
  });

  it("takes every TESSERA_* setting from a ConfigMap or a Secret, never a literal in the pod", () => {
    const secretRefs = new Set(["TESSERA_MASTER_KEY", "TESSERA_ADMIN_API_KEY", "TESSERA_ADMIN_PASSWORD", "TESSERA_MONGODB_URI", "TESSERA_NATS_URL"]);
    for (const c of COMPONENTS) {
      const container = one(defaults, "Deployment", `tessera-${c}`).spec.template.spec.containers[0];
      for (const e of container.env) {
        expect([e.name, e.value]).toEqual([e.name, undefined]);
        expect(secretRefs.has(e.name)).toBe(true);
        expect(e.valueFrom.secretKeyRef.name).toBe("tessera-secrets");
      }
      expect(container.envFrom.map((f: { configMapRef: { name: string } }) => f.configMapRef.name)).toEqual(["tessera-common", `tessera-${c}`]);
    }
    const common = one(defaults, "ConfigMap", "tessera-common").data;
    expect(common).toMatchObject({
      TESSERA_STORE: "mongodb", TESSERA_PUBLIC_URL: "http://localhost:8080", TESSERA_LOG_LEVEL: "info",
      TESSERA_INTERNAL_TRANSPORT: "frames", TESSERA_INTERNAL_CONNECTIONS: "2",
    });
    // Connection strings may hold credentials: they are in the Secret, not here.
    expect([common.TESSERA_NATS_URL, common.TESSERA_MONGODB_URI]).toEqual([undefined, undefined]);
    for (const s of SERVICES) {
      expect(common[`TESSERA_${s.toUpperCase()}_URL`]).toBe(`http://tessera-${s}.iam.svc.cluster.local:50051`);
      // A service listens on every interface of its pod, at the port others dial.
      expect(one(defaults, "ConfigMap", `tessera-${s}`).data[`TESSERA_${s.toUpperCase()}_URL`]).toBe("http://0.0.0.0:50051");
    }
    expect(one(defaults, "ConfigMap", "tessera-token").data).toMatchObject({ TESSERA_KEY_ROTATION_DAYS: "30", TESSERA_DEVICE_USER_CODE_FAILURES: "10" });
    expect(one(defaults, "ConfigMap", "tessera-saml").data).toMatchObject({ TESSERA_SAML_KEY_BITS: "2048", TESSERA_SAML_KEY_GRACE_SECONDS: "2592000" });
    expect(one(defaults, "ConfigMap", "tessera-gateway").data).toEqual({ TESSERA_HOST: "0.0.0.0", TESSERA_PORT: "8080", TESSERA_TRUST_PROXY: "false" });
    const directoryEnv = one(defaults, "Deployment", "tessera-directory").spec.template.spec.containers[0].env.map((e: { name: string }) => e.name);
    expect(directoryEnv).toContain("TESSERA_ADMIN_PASSWORD");
    expect(one(defaults, "Deployment", "tessera-gateway").spec.template.spec.containers[0].env.map((e: { name: string }) => e.name))
      .toEqual(["TESSERA_MASTER_KEY", "TESSERA_ADMIN_API_KEY", "TESSERA_NATS_URL"]);
  });

  it("generates a 32-byte base64url master key and an admin API key, kept on uninstall", () => {
    const secret = one(defaults, "Secret", "tessera-secrets");
    expect(secret.metadata.annotations).toEqual({ "helm.sh/resource-policy": "keep" });
    const value = (k: string) => Buffer.from(secret.data[k], "base64").toString("utf8");
    expect(value("master-key")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(value("master-key"), "base64url").length).toBe(32);
    expect(value("admin-api-key")).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(value("mongodb-uri")).toBe("mongodb://mongodb:27017");
    expect(value("nats-url")).toBe("nats://nats:4222");
    // Without a cluster to look the Secret up in, each render generates anew.
    const again = manifests(template());
    expect(one(again, "Secret", "tessera-secrets").data["master-key"]).not.toBe(secret.data["master-key"]);
  });

  it("lets each service take gRPC only from the gateway and its callers; the gateway from anyone by default", () => {
    const from = (name: string) => one(defaults, "NetworkPolicy", `tessera-${name}`).spec.ingress;
    const components = (rule: { from?: Array<{ podSelector?: { matchLabels: Record<string, string> } }> }) =>
      (rule.from ?? []).filter((p) => p.podSelector).map((p) => p.podSelector!.matchLabels["app.kubernetes.io/component"]);
    expect(from("gateway")).toEqual([{ ports: [{ protocol: "TCP", port: "http" }] }]);
    expect(components(from("directory")[0])).toEqual(["gateway", "token", "saml"]);
    for (const s of ["token", "saml", "broker", "federation", "audit"]) {
      expect(components(from(s)[0])).toEqual(["gateway"]);
    }
    for (const s of SERVICES) {
      const rules = from(s);
      expect(rules).toHaveLength(2);
      expect(rules[1].from).toEqual([{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "monitoring" } } }]);
      expect(one(defaults, "NetworkPolicy", `tessera-${s}`).spec.policyTypes).toEqual(["Ingress"]);
    }
  });

  it("refuses a misspelt field, a wrong type and an unknown kind (the validator is strict)", () => {
    const yaml = template();
    const misspelt = validate(yaml.replace("containerPort:", "containerPrt:"));
    expect(misspelt.status).toBe(1);
    expect(misspelt.stderr).toContain('strict decoding error: unknown field "spec.template.spec.containers[0].ports[0].containerPrt"');
    const wrongType = validate(yaml.replace(/replicas: 1\n/, 'replicas: "one"\n'));
    expect(wrongType.status).toBe(1);
    expect(wrongType.stderr).toContain("spec.replicas of type int32");
    const unknownKind = validate(`${yaml}\n---\napiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: x}\n`);
    expect(unknownKind.status).toBe(1);
    expect(unknownKind.stderr).toContain('no kind "Deploymnet" is registered');
    const duplicate = validate(yaml.replace("revisionHistoryLimit: 5\n", "revisionHistoryLimit: 5\n  revisionHistoryLimit: 6\n"));
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toContain('"revisionHistoryLimit"');
    // The audit Service without its component label.
    const docs = yaml.split("\n---\n");
    const at = docs.findIndex((d) => d.includes("\nkind: Service\n") && d.includes("\n  name: tessera-audit\n"));
    docs[at] = docs[at]!.replace("\n    app.kubernetes.io/component: audit\n", "\n");
    const label = validate(docs.join("\n---\n"));
    expect(label.status).toBe(1);
    expect(label.stderr).toContain("label app.kubernetes.io/component missing");
  });

  it("refuses bad values through values.schema.json, naming the field", () => {
    const refused = (set: string, message: string) => {
      const r = helm("template", "tessera", CHART, "--set", set);
      expect([set, r.status]).toEqual([set, 1]);
      expect(r.stderr).toContain(message);
    };
    refused("services.saml.config.keyBits=1024", "at '/services/saml/config/keyBits': value must be one of 2048, 3072");
    refused("gateway.replicass=2", "at '/gateway': additional properties 'replicass' not allowed");
    refused("publicUrl=ftp://id.example.com", "at '/publicUrl'");
    refused("mongodb.uri=http://mongo:27017", "at '/mongodb/uri'");
    refused("services.token.config.keyRotationDays=0", "at '/services/token/config/keyRotationDays'");
    refused("services.token.env.PATH=/x", "invalid propertyName 'PATH'");
    refused("logLevel=verbose", "at '/logLevel'");
    refused("internalHop.transport=grpc", "at '/internalHop/transport'");
    refused("internalHop.connections=0", "at '/internalHop/connections'");
  });

  it("documents every values.yaml field in the schema and sets the schema's required fields", () => {
    const schema = JSON.parse(readFileSync(join(CHART, "values.schema.json"), "utf8"));
    expect(schema.additionalProperties).toBe(false);
    const values = readFileSync(join(CHART, "values.yaml"), "utf8");
    for (const key of values.split("\n").filter((l) => /^[a-zA-Z]+:/.test(l)).map((l) => l.split(":")[0]!)) {
      expect([key, schema.properties[key] !== undefined]).toEqual([key, true]);
    }
  });
});

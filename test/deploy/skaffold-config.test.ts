import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describeTier } from "../support/tier.js";
import { ROOT } from "../e2e/support/process-runner.js";

/**
 * skaffold.yaml, checked without skaffold: the Go module proxy refuses skaffold's module here (403
 * on its version list), so `skaffold render` cannot run. This is the stand-in. For the base config
 * and each profile (a profile's `deploy` and `build` replace the base's, as skaffold applies
 * them), every file it names exists, every value it sets is a key of the chart's values, and the
 * Tessera release renders with exactly those values and namespace through `helm template`, every
 * manifest decoded strictly by test/deploy/k8s-validate; the port-forward names a rendered Service
 * port. What it cannot check: skaffold's own schema and its template expansion, beyond the names
 * skaffold documents (IMAGE_REPO_<artifact>, IMAGE_TAG_<artifact>, IMAGE_DIGEST_<artifact>).
 */
interface Release {
  name: string;
  chartPath?: string;
  remoteChart?: string;
  namespace?: string;
  valuesFiles?: string[];
  setValueTemplates?: Record<string, string>;
}
interface Deploy { helm: { releases: Release[] } }
interface Config {
  apiVersion: string;
  kind: string;
  build: { artifacts: Array<{ image: string; docker: { dockerfile: string } }> };
  deploy: Deploy;
  portForward: Array<{ resourceType: string; resourceName: string; namespace: string; port: number }>;
  profiles: Array<{ name: string; deploy?: Deploy; build?: object }>;
}

const config = parse(readFileSync(join(ROOT, "skaffold.yaml"), "utf8")) as Config;
const chartValues = parse(readFileSync(join(ROOT, "deploy/helm/tessera/values.yaml"), "utf8")) as Record<string, unknown>;
/** What skaffold puts in the templates it documents, for the artifact `tessera`. */
const TEMPLATE_VALUES: Record<string, string> = {
  IMAGE_REPO_tessera: "registry.example.com/tessera",
  IMAGE_TAG_tessera: "abc1234",
  IMAGE_DIGEST_tessera: "sha256:" + "0".repeat(64),
};

function hasKey(values: Record<string, unknown>, dotted: string): boolean {
  let at: unknown = values;
  for (const part of dotted.split(".")) {
    if (typeof at !== "object" || at === null || !(part in at)) return false;
    at = (at as Record<string, unknown>)[part];
  }
  return true;
}

function expand(template: string): string {
  return template.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_m, name: string) => {
    const v = TEMPLATE_VALUES[name];
    if (v === undefined) throw new Error(`skaffold.yaml uses {{.${name}}}, which skaffold does not set for the artifact tessera`);
    return v;
  });
}

/** The deployments skaffold runs: the base config's, then each profile's in its place. */
const deployments: Array<[string, Deploy]> = [["base", config.deploy], ...config.profiles.map((p): [string, Deploy] => [p.name, p.deploy ?? config.deploy])];

describe("skaffold.yaml", () => {
  it("is a skaffold v4beta11 Config that builds the repository's Dockerfile as `tessera`, with dev and prod profiles", () => {
    expect([config.apiVersion, config.kind]).toEqual(["skaffold/v4beta11", "Config"]);
    expect(config.build.artifacts.map((a) => [a.image, a.docker.dockerfile])).toEqual([["tessera", "Dockerfile"]]);
    expect(existsSync(join(ROOT, "Dockerfile"))).toBe(true);
    expect(config.profiles.map((p) => p.name)).toEqual(["dev", "prod"]);
  });

  it.each(deployments)("%s: names files that exist, chart values that exist, and only templates skaffold sets", (_name, deploy) => {
    const local = deploy.helm.releases.filter((r) => r.chartPath);
    expect(local.map((r) => [r.name, r.chartPath])).toEqual([["tessera", "deploy/helm/tessera"]]);
    for (const r of local) {
      expect(existsSync(join(ROOT, r.chartPath!, "Chart.yaml"))).toBe(true);
      for (const f of r.valuesFiles ?? []) expect([f, existsSync(join(ROOT, f))]).toEqual([f, true]);
      for (const [key, template] of Object.entries(r.setValueTemplates ?? {})) {
        expect([key, hasKey(chartValues, key)]).toEqual([key, true]);
        expect(() => expand(template)).not.toThrow();
      }
    }
    // The community charts of the dev profile are fetched by helm at deploy time (remoteChart).
    for (const r of deploy.helm.releases.filter((x) => !x.chartPath)) expect(r.remoteChart).toEqual(expect.any(String));
  });
});

describeTier("skaffold.yaml rendered as skaffold would (helm template)", ["TESSERA_TEST_HELM", "TESSERA_TEST_K8S_VALIDATE"], () => {
  const run = (cmd: string, args: string[], input?: string) => {
    const r = spawnSync(cmd, args, { encoding: "utf8", input, maxBuffer: 64 * 1024 * 1024, cwd: ROOT });
    if (r.error) throw r.error;
    return r;
  };

  it.each(deployments)("%s: the Tessera release renders, every manifest decodes strictly, and the port-forward finds its Service", (_name, deploy) => {
    const release = deploy.helm.releases.find((r) => r.chartPath)!;
    const args = ["template", release.name, release.chartPath!, "--namespace", release.namespace ?? "default"];
    for (const f of release.valuesFiles ?? []) args.push("-f", f);
    for (const [key, template] of Object.entries(release.setValueTemplates ?? {})) args.push("--set", `${key}=${expand(template)}`);
    const rendered = run(process.env.TESSERA_TEST_HELM as string, args);
    expect([rendered.status, rendered.stderr]).toEqual([0, ""]);
    const decoded = run(process.env.TESSERA_TEST_K8S_VALIDATE as string, ["-objects"], rendered.stdout);
    expect([decoded.status, decoded.stderr]).toEqual([0, ""]);
    const objects = decoded.stdout.trim().split("\n").map((l) => JSON.parse(l) as { kind: string; name: string; object: { spec: { ports?: Array<{ port: number }>; template?: { spec: { containers: Array<{ image: string }> } } } } });
    // The image skaffold built is the one every Deployment runs (by digest when the profile sets it).
    const images = new Set(objects.filter((o) => o.kind === "Deployment").flatMap((o) => o.object.spec.template!.spec.containers.map((c) => c.image)));
    const digest = release.setValueTemplates?.["image.digest"] !== undefined;
    expect([...images]).toEqual([digest ? `registry.example.com/tessera@${TEMPLATE_VALUES.IMAGE_DIGEST_tessera}` : "registry.example.com/tessera:abc1234"]);
    if (release.namespace === config.portForward[0]!.namespace) {
      for (const pf of config.portForward) {
        const svc = objects.find((o) => o.kind === "Service" && o.name === pf.resourceName);
        expect([pf.resourceName, svc?.object.spec.ports?.map((p) => p.port)]).toEqual([pf.resourceName, expect.arrayContaining([pf.port])]);
      }
    }
  });
});

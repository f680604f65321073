import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/**
 * The cores this process may use: the CPUs it may run on (affinity) and, on Linux, no more than its
 * cgroup's CPU quota, rounded down and at least 1. Node 20's `os.availableParallelism()` (libuv
 * 1.46) reads only the affinity, so in a container limited to 1 CPU on a 64-core node it says 64;
 * libuv 1.49 (Node 22) added the quota with the same rounding, which this mirrors. Used to size
 * the password-hashing slots: a Helm-deployed directory with a CPU limit would otherwise run as
 * many 19 MiB argon2 jobs at once as the node has cores, thrashing its share and filling the
 * threadpool that token signing also uses.
 */
export function cpuBudget(read: (path: string) => string | null = readOrNull, cores = availableParallelism()): number {
  const quota = cgroupQuota(read);
  return quota === null ? cores : Math.max(1, Math.min(cores, Math.floor(quota)));
}

/** The CPU quota in cores (quota / period) of this process's cgroup, or null when unlimited or unknown. */
export function cgroupQuota(read: (path: string) => string | null): number | null {
  const self = read("/proc/self/cgroup");
  if (self === null) return null;
  for (const line of self.split("\n")) {
    const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line.trim()) ?? [];
    if (path === undefined) continue;
    if (controllers === "") {
      // cgroup v2 (the unified hierarchy): "<quota|max> <period>" in cpu.max, in this process's
      // cgroup and its ancestors (a limit set on a parent slice binds too); the tightest wins.
      const quotas = ancestry(path).map((p) => parseCpuMax(read(`/sys/fs/cgroup${dir(p)}cpu.max`))).filter((q): q is number => q !== null);
      if (quotas.length > 0) return Math.min(...quotas);
    } else if (controllers!.split(",").includes("cpu")) {
      // cgroup v1: cpu.cfs_quota_us (-1 when unlimited) over cpu.cfs_period_us, under the cpu controller's mount.
      for (const mount of [`/sys/fs/cgroup/${controllers}`, "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"]) {
        for (const base of [`${mount}${dir(path)}`, `${mount}/`]) {
          const q = ratio(read(`${base}cpu.cfs_quota_us`), read(`${base}cpu.cfs_period_us`));
          if (q !== undefined) return q;
        }
      }
    }
  }
  return null;
}

/** cgroup v2 `cpu.max`: "max 100000" is unlimited; "150000 100000" is 1.5 cores. */
export function parseCpuMax(text: string | null): number | null {
  if (text === null) return null;
  const [quota, period] = text.trim().split(/\s+/);
  if (quota === "max") return null;
  return ratio(quota ?? null, period ?? "100000") ?? null;
}

/** quota / period when both are positive integers; null when the quota says unlimited (-1); undefined when unreadable. */
function ratio(quota: string | null, period: string | null): number | null | undefined {
  if (quota === null || period === null) return undefined;
  const q = Number(quota.trim());
  const p = Number(period.trim());
  if (!Number.isInteger(q) || !Number.isInteger(p) || p <= 0) return undefined;
  return q > 0 ? q / p : null;
}

/** "/a/b" -> ["/a/b", "/a", "/"]. */
function ancestry(path: string): string[] {
  const parts = path.split("/").filter(Boolean);
  return parts.map((_, i) => `/${parts.slice(0, parts.length - i).join("/")}`).concat("/");
}

function dir(path: string): string {
  return path === "/" || path === "" ? "/" : `${path.replace(/\/+$/, "")}/`;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

import { cgroupQuota, cpuBudget, parseCpuMax } from "./cpu-budget.js";

/** A file system of the given files; anything else is unreadable. */
const files = (fs: Record<string, string>) => (path: string): string | null => fs[path] ?? null;

describe("cpuBudget", () => {
  it("reads cgroup v2 cpu.max: unlimited, whole and fractional quotas", () => {
    expect([parseCpuMax("max 100000\n"), parseCpuMax("200000 100000\n"), parseCpuMax("150000 100000"), parseCpuMax("50000 100000")])
      .toEqual([null, 2, 1.5, 0.5]);
    expect([parseCpuMax(null), parseCpuMax(""), parseCpuMax("x 100000"), parseCpuMax("100000 0")]).toEqual([null, null, null, null]);
  });

  it("limits the cores to the quota of this process's cgroup v2, rounded down, at least 1", () => {
    const v2 = (cpuMax: string) => files({ "/proc/self/cgroup": "0::/\n", "/sys/fs/cgroup/cpu.max": cpuMax });
    expect([cpuBudget(v2("max 100000"), 64), cpuBudget(v2("100000 100000"), 64), cpuBudget(v2("250000 100000"), 64), cpuBudget(v2("50000 100000"), 64)])
      .toEqual([64, 1, 2, 1]);
    // The affinity still bounds it: a quota of 8 cores on a process pinned to 2.
    expect(cpuBudget(v2("800000 100000"), 2)).toBe(2);
  });

  it("takes the tightest quota along the cgroup v2 ancestry (a limit on a parent slice binds)", () => {
    const read = files({
      "/proc/self/cgroup": "0::/kubepods.slice/pod1/app\n",
      "/sys/fs/cgroup/kubepods.slice/pod1/app/cpu.max": "max 100000",
      "/sys/fs/cgroup/kubepods.slice/pod1/cpu.max": "300000 100000",
      "/sys/fs/cgroup/kubepods.slice/cpu.max": "1600000 100000",
      "/sys/fs/cgroup/cpu.max": "max 100000",
    });
    expect(cgroupQuota(read)).toBe(3);
    expect(cpuBudget(read, 64)).toBe(3);
  });

  it("reads cgroup v1 cfs quota and period under the cpu controller; -1 is unlimited", () => {
    const v1 = (quota: string) => files({
      "/proc/self/cgroup": "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n",
      "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": quota,
      "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n",
    });
    expect([cpuBudget(v1("200000\n"), 16), cpuBudget(v1("-1\n"), 16), cpuBudget(v1("20000\n"), 16)]).toEqual([2, 16, 1]);
    // Inside the container's own namespace the controller directory is the mount's root.
    const ns = files({
      "/proc/self/cgroup": "4:cpu,cpuacct:/docker/abc\n",
      "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "400000",
      "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000",
    });
    expect(cpuBudget(ns, 16)).toBe(4);
  });

  it("keeps the cores when there is no cgroup to read (not Linux, or not mounted)", () => {
    expect(cpuBudget(files({}), 8)).toBe(8);
    expect(cpuBudget(files({ "/proc/self/cgroup": "0::/\n" }), 8)).toBe(8);
    expect(cpuBudget(files({ "/proc/self/cgroup": "garbage\n" }), 8)).toBe(8);
  });
});

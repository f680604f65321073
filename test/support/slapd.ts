import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "ldapts";

/** The shared directory .ci/run starts (TESSERA_TEST_LDAP_URL and friends), with the recipe's defaults. */
export interface LdapTarget {
  url: string;
  bindDn: string;
  bindPassword: string;
  baseDn: string;
}

export function sharedLdap(): LdapTarget {
  return {
    url: process.env.TESSERA_TEST_LDAP_URL as string,
    bindDn: process.env.TESSERA_TEST_LDAP_BIND_DN ?? "cn=admin,dc=example,dc=test",
    bindPassword: process.env.TESSERA_TEST_LDAP_BIND_PASSWORD ?? "secret",
    baseDn: process.env.TESSERA_TEST_LDAP_BASE_DN ?? "dc=example,dc=test",
  };
}

/**
 * The slapd.conf of ci-recipes.md (mdb, dc=example,dc=test, nis/cosine/inetorgperson). entryUUID
 * and modifyTimestamp are operational attributes slapd keeps by itself. `limits` keeps the
 * default size limit of 500 for ordinary binds but lets a paged search (RFC 2696) walk any number
 * of entries, page by page, as directories are usually configured: a sync that does not page fails.
 */
export function slapdConf(dir: string, suffix = "dc=example,dc=test", rootPw = "secret"): string {
  return [
    "include /etc/ldap/schema/core.schema",
    "include /etc/ldap/schema/cosine.schema",
    "include /etc/ldap/schema/inetorgperson.schema",
    "include /etc/ldap/schema/nis.schema",
    "modulepath /usr/lib/ldap",
    "moduleload back_mdb",
    `pidfile ${dir}/slapd.pid`,
    `argsfile ${dir}/slapd.args`,
    "sizelimit size.soft=500 size.hard=500 size.prtotal=unlimited",
    "database mdb",
    "maxsize 1073741824",
    `suffix "${suffix}"`,
    `rootdn "cn=admin,${suffix}"`,
    `rootpw ${rootPw}`,
    `directory ${dir}/db`,
    "index objectClass eq",
    "index uid eq",
    "index entryUUID eq",
    "",
  ].join("\n");
}

/**
 * A private slapd (for a test that stops and restarts its server), from the Debian package's
 * binary, in its own temp dir on the given port. `stop()` kills it by the pid it wrote;
 * `start()` starts it again on the same data and port.
 */
export class PrivateSlapd {
  readonly dir = mkdtempSync(join(tmpdir(), "tessera-slapd-"));
  readonly url: string;
  readonly target: LdapTarget;

  constructor(readonly port: number) {
    this.url = `ldap://127.0.0.1:${port}`;
    this.target = { url: this.url, bindDn: "cn=admin,dc=example,dc=test", bindPassword: "secret", baseDn: "dc=example,dc=test" };
    mkdirSync(join(this.dir, "db"));
    writeFileSync(join(this.dir, "slapd.conf"), slapdConf(this.dir));
  }

  async start(): Promise<void> {
    const slapd = process.env.TESSERA_TEST_SLAPD_PATH ?? "/usr/sbin/slapd";
    await new Promise<void>((resolve, reject) => {
      const p = spawn(slapd, ["-f", join(this.dir, "slapd.conf"), "-h", `${this.url}/`], { stdio: "ignore" });
      p.once("error", reject);
      p.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`slapd exited ${code}`))));
    });
    for (let i = 0; i < 100; i++) {
      const c = new Client({ url: this.url, connectTimeout: 500 });
      try {
        await c.bind(this.target.bindDn, this.target.bindPassword);
        await c.unbind();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`slapd on ${this.url} did not answer`);
  }

  async seedBase(): Promise<void> {
    await withLdap(this.target, async (c) => {
      await c.add("dc=example,dc=test", { objectClass: ["dcObject", "organization"], dc: "example", o: "Example" });
    });
  }

  async stop(): Promise<void> {
    let pid: number;
    try {
      pid = Number(readFileSync(join(this.dir, "slapd.pid"), "utf8").trim());
    } catch {
      return;
    }
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      return;
    }
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 50));
      } catch {
        return;
      }
    }
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function withLdap<T>(t: LdapTarget, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ url: t.url, timeout: 30_000, connectTimeout: 5_000 });
  try {
    await c.bind(t.bindDn, t.bindPassword);
    return await fn(c);
  } finally {
    await c.unbind().catch(() => undefined);
  }
}

export interface Person {
  uid: string;
  cn?: string;
  sn?: string;
  givenName?: string;
  mail?: string;
  password?: string;
}

/** An inetOrgPerson entry under `ou`, its DN built with `rdnValue` escaped by the caller when needed. */
export async function addPerson(c: Client, parentDn: string, p: Person, rdn = `uid=${p.uid}`): Promise<string> {
  const dn = `${rdn},${parentDn}`;
  const attrs: Record<string, string | string[]> = { objectClass: ["inetOrgPerson"], uid: p.uid, cn: p.cn ?? p.uid, sn: p.sn ?? "Person" };
  if (p.givenName) attrs.givenName = p.givenName;
  if (p.mail) attrs.mail = p.mail;
  if (p.password) attrs.userPassword = p.password;
  await c.add(dn, attrs);
  return dn;
}

/** A fresh organizational unit for one test, under the base. */
export async function addOu(c: Client, baseDn: string, name: string): Promise<string> {
  const dn = `ou=${name},${baseDn}`;
  await c.add(dn, { objectClass: ["organizationalUnit"], ou: name });
  return dn;
}

/** A reader account (not the rootdn, so the default size limit of 500 applies to it). */
export async function addReader(c: Client, parentDn: string, name: string, password: string): Promise<string> {
  const dn = `cn=${name},${parentDn}`;
  await c.add(dn, { objectClass: ["organizationalRole", "simpleSecurityObject"], cn: name, userPassword: password });
  return dn;
}


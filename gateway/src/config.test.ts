import { loadGatewayConfig } from "./config.js";
import { loadDirectoryConfig } from "../../services/directory/src/config.js";
import { loadSamlConfig } from "../../services/saml/src/config.js";
import { loadTokenConfig } from "../../services/token/src/config.js";
import { loadBrokerConfig } from "../../services/broker/src/config.js";

/**
 * Every reader of TESSERA_PUBLIC_URL sees one form of it: an upper-case scheme once passed the
 * boot checks while cookies (`Secure` when the URL starts with "https:") and discovery (which
 * refused a baseUrl not starting with "http(s)://") saw the raw string.
 */
describe("TESSERA_PUBLIC_URL as the processes read it", () => {
  const readers = [
    ["gateway", loadGatewayConfig], ["directory", loadDirectoryConfig], ["saml", loadSamlConfig], ["token", loadTokenConfig],
    ["broker", loadBrokerConfig],
  ] as const;

  it.each(readers)("the %s reads an upper-case scheme and host in lower case, without the trailing slash", (_name, load) => {
    expect(load({ TESSERA_PUBLIC_URL: "HTTPS://ID.Example.com/" }).publicUrl).toBe("https://id.example.com");
    expect(load({ TESSERA_PUBLIC_URL: "HTTPS://ID.Example.com/Tessera/" }).publicUrl).toBe("https://id.example.com/Tessera");
  });

  it.each(readers)("the %s defaults to http://localhost:<TESSERA_PORT>", (_name, load) => {
    expect(load({ TESSERA_PORT: "9090" }).publicUrl).toBe("http://localhost:9090");
  });
});

// Checked at boot (startup-failure.ts turns the ConfigError into one line and exit 78), where
// express would only have compiled the list when the app was built, and thrown a TypeError.
describe("TESSERA_TRUST_PROXY as the gateway reads it", () => {
  it.each([
    ["true", true], ["false", false], ["2", 2], ["loopback", "loopback"],
    ["loopback, 10.0.0.0/8, fd00::/8", "loopback, 10.0.0.0/8, fd00::/8"], ["uniquelocal,linklocal", "uniquelocal,linklocal"],
  ])("reads %p", (given, read) => {
    expect(loadGatewayConfig({ TESSERA_TRUST_PROXY: given }).trustProxy).toEqual(read);
  });

  it.each(["maybe", "10.0.0.0/33", "loopback,", "yes"])("refuses %p naming the variable", (given) => {
    expect(() => loadGatewayConfig({ TESSERA_TRUST_PROXY: given })).toThrow(
      `TESSERA_TRUST_PROXY: must be true, false, a hop count, or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal, got "${given}"`);
  });
});

describe("TESSERA_MASTER_KEY as every process reads it", () => {
  it("takes 32 bytes in base64url, with or without padding, or in base64", () => {
    const key = Buffer.alloc(32, 0xfb);
    for (const v of [key.toString("base64url"), key.toString("base64"), `${key.toString("base64url")}=`]) {
      expect(loadGatewayConfig({ TESSERA_MASTER_KEY: v }).common.masterKey).toBe(v);
    }
  });

  it.each([
    ["short", "got 3 bytes"],
    [Buffer.alloc(31).toString("base64url"), "got 31 bytes"],
    [Buffer.alloc(33).toString("base64url"), "got 33 bytes"],
    ["not a key at all, with spaces!", "got 30 characters that are not base64url"],
  ])("refuses %p without echoing it", (given, got) => {
    expect(() => loadGatewayConfig({ TESSERA_MASTER_KEY: given })).toThrow(
      `TESSERA_MASTER_KEY: must be 32 random bytes in base64url (43 characters; e.g. openssl rand -base64 32 | tr '+/' '-_' | tr -d '='), ${got}`);
  });
});

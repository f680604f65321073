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

import { baseUrl, ConfigError, url } from "./config.js";

/** TESSERA_PUBLIC_URL in one form (DESIGN 4, "Config"): what issuers, cookies and links are built from. */
describe("baseUrl", () => {
  const read = (v: string | undefined, fallback?: string) => baseUrl({ TESSERA_PUBLIC_URL: v }, "TESSERA_PUBLIC_URL", fallback);

  it.each([
    ["HTTPS://ID.Example.COM", "https://id.example.com"],
    ["https://id.example.com/", "https://id.example.com"],
    ["Http://LocalHost:8080//", "http://localhost:8080"],
    ["https://id.example.com:443/Auth/", "https://id.example.com/Auth"],
    ["http://id.example.com:80/a b/", "http://id.example.com/a%20b"],
    ["https://bücher.example/", "https://xn--bcher-kva.example"],
    ["https://id.example.com:8443/iam", "https://id.example.com:8443/iam"],
  ])("normalises %s to %s", (given, wanted) => {
    expect(read(given)).toBe(wanted);
  });

  it("normalises the fallback the same way", () => {
    expect(read(undefined, "http://LOCALHOST:8080/")).toBe("http://localhost:8080");
    expect(read("", "http://localhost:8080")).toBe("http://localhost:8080");
  });

  it.each([
    ["id.example.com", "TESSERA_PUBLIC_URL: must be an absolute http(s) URL, got \"id.example.com\""],
    ["ftp://id.example.com", "TESSERA_PUBLIC_URL: must be an http(s) URL, got \"ftp://id.example.com\""],
    ["nats://id.example.com", "TESSERA_PUBLIC_URL: must be an http(s) URL, got \"nats://id.example.com\""],
    ["https://id.example.com/?a=1", "TESSERA_PUBLIC_URL: must have no query or fragment, got \"https://id.example.com/?a=1\""],
    ["https://id.example.com/?", "TESSERA_PUBLIC_URL: must have no query or fragment, got \"https://id.example.com/?\""],
    ["https://id.example.com/#x", "TESSERA_PUBLIC_URL: must have no query or fragment, got \"https://id.example.com/#x\""],
    ["https://admin:s3cret@id.example.com", "TESSERA_PUBLIC_URL: must not contain credentials"],
  ])("stops at %s", (given, message) => {
    expect(() => read(given)).toThrow(ConfigError);
    expect(() => read(given)).toThrow(message);
  });
});

/** A URL setting's error never shows a password it carries (it reaches the logs). */
describe("url", () => {
  it.each([
    ["mongodb+srv://app:s3cret@db.example.com/iam", "TESSERA_MONGODB_URI: must be an absolute URL, got \"mongodb+srv://***@db.example.com/iam\""],
    ["redis://:s3cret@cache:6379", "TESSERA_MONGODB_URI: must be an absolute URL, got \"redis://***@cache:6379\""],
    ["db.example.com:27017", "TESSERA_MONGODB_URI: must be an absolute URL, got \"db.example.com:27017\""],
  ])("refuses %s without its credentials", (given, message) => {
    expect(() => url({ TESSERA_MONGODB_URI: given }, "TESSERA_MONGODB_URI")).toThrow(new ConfigError("TESSERA_MONGODB_URI", message.replace("TESSERA_MONGODB_URI: ", "")));
  });

  it("accepts a mongodb URL with credentials as given", () => {
    expect(url({ TESSERA_MONGODB_URI: "mongodb://app:s3cret@db:27017/" }, "TESSERA_MONGODB_URI")).toBe("mongodb://app:s3cret@db:27017");
  });
});

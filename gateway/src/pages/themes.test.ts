import { resolveTheme } from "./themes.js";

// Theme rendering (DESIGN 5): presets, overrides, and only values safe in a <style> block or src attribute.
describe("resolveTheme", () => {
  it("uses the preset and applies valid overrides", () => {
    expect(resolveTheme("midnight", { primaryColor: "#AbC", logoUrl: "https://cdn.example.com/l.png" })).toEqual({
      name: "midnight", primaryColor: "#AbC", secondaryColor: "#c4b5fd", backgroundColor: "#0f172a", textColor: "#e2e8f0",
      logoUrl: "https://cdn.example.com/l.png", faviconUrl: "",
      dark: true, surfaceColor: "#202739", borderColor: "#3a4150", mutedColor: "#a4a7ae", onPrimaryColor: "#111111",
    });
  });

  it("derives light surfaces for a light page, and dark text on a light primary colour", () => {
    expect(resolveTheme("tessera", { primaryColor: "#ffe066" })).toMatchObject({
      dark: false, surfaceColor: "#ffffff", borderColor: "#d5d9e0", mutedColor: "#5b6472", onPrimaryColor: "#111111",
    });
    expect(resolveTheme("tessera", {}).onPrimaryColor).toBe("#ffffff");
  });

  it("falls back to the default preset for an unknown name", () => {
    expect(resolveTheme("authme", {}).name).toBe("tessera");
  });

  it.each([
    ["red;}body{display:none"], ["#12345"], ["rgb(1,2,3)"], ["#fff</style><script>"], ["expression(alert(1))"],
  ])("drops the colour %s", (bad) => {
    expect(resolveTheme("ocean", { primaryColor: bad, textColor: bad }).primaryColor).toBe("#0891b2");
  });

  it.each([
    ["javascript:alert(1)"], ["data:image/png;base64,AAAA"], ["//evil.example.com/x.png"], ["not a url"],
    // The pages' CSP (img-src 'self' data: https:) would block these: no <img> the browser refuses.
    ["http://cdn.example.com/l.png"], [`https://cdn.example.com/${"a".repeat(2048)}.png`],
  ])("drops the URL %s", (bad) => {
    expect(resolveTheme("tessera", { logoUrl: bad, faviconUrl: bad })).toMatchObject({ logoUrl: "", faviconUrl: "" });
  });

  it("keeps an https URL of up to 2048 characters, as WHATWG serialises it", () => {
    const long = `https://cdn.example.com/${"a".repeat(2048 - 28)}.png`;
    expect(long).toHaveLength(2048);
    expect(resolveTheme("tessera", { logoUrl: long, faviconUrl: "HTTPS://CDN.example.com/f.ico" })).toMatchObject({ logoUrl: long, faviconUrl: "https://cdn.example.com/f.ico" });
  });
});

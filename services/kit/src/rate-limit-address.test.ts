import { rateLimitAddress } from "./rate-limit-address.js";

describe("rateLimitAddress", () => {
  it("keeps an IPv4 address, also IPv4-mapped", () => {
    expect(rateLimitAddress("203.0.113.7")).toBe("203.0.113.7");
    expect(rateLimitAddress("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(rateLimitAddress("::FFFF:cb00:7107")).toBe("203.0.113.7");
  });

  it("keys every address of one IPv6 /64 alike, and different /64s apart", () => {
    const key = "2001:db8:85a3:8d3::/64";
    for (const a of ["2001:db8:85a3:8d3:1319:8a2e:370:7348", "2001:0DB8:85A3:08D3::1", "2001:db8:85a3:8d3::", "2001:db8:85a3:8d3:ffff:ffff:ffff:ffff", "2001:db8:85a3:8d3::1.2.3.4", "2001:db8:85a3:8d3::1%eth0"]) {
      expect(rateLimitAddress(a)).toBe(key);
    }
    expect(rateLimitAddress("2001:db8:85a3:8d4::1")).toBe("2001:db8:85a3:8d4::/64");
    expect(rateLimitAddress("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitAddress("fe80::1")).toBe("fe80:0:0:0::/64");
    expect(rateLimitAddress("1::")).toBe("1:0:0:0::/64");
    expect(rateLimitAddress("1:2:3:4:5:6:7:8")).toBe("1:2:3:4::/64");
    expect(rateLimitAddress("1:2:3::8")).toBe("1:2:3:0::/64");
  });

  it("returns anything that is not an address as given", () => {
    expect(rateLimitAddress(undefined)).toBe("");
    expect(rateLimitAddress("")).toBe("");
    expect(rateLimitAddress("unknown")).toBe("unknown");
  });
});

import { describe, expect, it } from "vitest";
import { clientKey } from "./client-key.ts";

describe("clientKey", () => {
  it("keeps an IPv4 address, also when it comes IPv4-mapped", () => {
    expect(clientKey("192.0.2.1")).toBe("192.0.2.1");
    expect(clientKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
  });

  it("keys an IPv6 address by its /64, however it is written", () => {
    const key = "2001:db8:7:9::/64";
    for (const address of ["2001:db8:7:9::1", "2001:0DB8:0007:0009:ffff::", "[2001:db8:7:9:1:2:3:4]", "2001:db8:7:9:0:0:1.2.3.4"]) {
      expect(clientKey(address)).toBe(key);
    }
    expect(clientKey("2001:db8:7:a::1")).not.toBe(key);
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("leaves anything that is not an address as it is", () => {
    expect(clientKey("unknown")).toBe("unknown");
  });
});

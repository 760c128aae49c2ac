/**
 * The SSRF guard in front of web_fetch: only http(s), and unless a tool entry allows private
 * networks, no loopback, private, link-local (cloud metadata) or reserved address — whether
 * written as a literal in any encoding or reached through DNS.
 */
import { describe, expect, it } from "vitest";
import { isBlockedAddress } from "../../src/agent/tools/web/blocked-addresses.js";
import { checkFetchTarget, type HostResolver } from "../../src/agent/tools/web/url-guard.js";

const guarded = { allowPrivateNetwork: false };

async function refusalOf(url: string, resolve?: HostResolver): Promise<string> {
  try {
    await checkFetchTarget(url, { ...guarded, ...(resolve ? { resolve } : {}) });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return "allowed";
}

describe("isBlockedAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "0.0.0.0",
    "10.0.0.1",
    "10.255.0.9",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "fe80::1",
    "fe80::1%eth0",
    "fd00::1",
    "fc00::abcd",
    "ff02::1",
    "64:ff9b::7f00:1",
    "64:ff9b::10.0.0.1",
    "2002:7f00:1::",
    "2002:a9fe:a9fe::1",
    "2001:db8::1",
    "not-an-address",
  ])("blocks %s", (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows the public address %s", (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe("checkFetchTarget", () => {
  it.each([
    "http://127.0.0.1/",
    "http://127.0.0.1:8080/admin",
    "http://[::1]/",
    "http://10.1.2.3/",
    "http://169.254.169.254/latest/meta-data/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://017700000001/",
    "http://[::ffff:127.0.0.1]/",
    "http://[fd00::1]:81/",
    "https://192.168.0.1/",
    "http://0/",
  ])("refuses the private literal %s before connecting", async (url) => {
    expect(await refusalOf(url)).toMatch(/^Refusing to fetch .*private, loopback, link-local/);
  });

  it("refuses a host name that resolves to loopback (localhost via /etc/hosts)", async () => {
    expect(await refusalOf("http://localhost:9/")).toMatch(/"localhost" resolves to/);
  });

  it("refuses when any of a host's addresses is private (a mixed DNS answer)", async () => {
    const mixed: HostResolver = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ];
    expect(await refusalOf("https://mixed.example/", mixed)).toMatch(/resolves to 10\.0\.0\.7/);
  });

  it("answers with the checked addresses, which the connection is then pinned to", async () => {
    const resolve: HostResolver = async () => [{ address: "93.184.216.34", family: 4 }];
    const target = await checkFetchTarget("https://public.example/a?b=1", { ...guarded, resolve });
    expect(target.url.href).toBe("https://public.example/a?b=1");
    expect(target.addresses).toEqual([{ address: "93.184.216.34", family: 4 }]);
  });

  it("says when a host cannot be resolved", async () => {
    const nowhere: HostResolver = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    expect(await refusalOf("https://nowhere.invalid/", nowhere)).toMatch(
      /Could not resolve the host "nowhere.invalid"/,
    );
  });

  it.each([
    ["file:///etc/passwd", /"file:" URLs are refused/],
    ["ftp://example.com/x", /"ftp:" URLs are refused/],
    ["gopher://example.com/", /"gopher:" URLs are refused/],
    ["javascript:alert(1)", /"javascript:" URLs are refused/],
    ["data:text/plain,hi", /"data:" URLs are refused/],
    ["example.com/page", /is not a valid URL/],
    ["https://user:secret@example.com/", /embedded credentials/],
  ])("refuses %s", async (url, expected) => {
    expect(await refusalOf(url)).toMatch(expected);
  });

  it("with allow_private_network, private targets pass and DNS is left to the connection", async () => {
    const target = await checkFetchTarget("http://127.0.0.1:1/", { allowPrivateNetwork: true });
    expect(target.addresses).toBeNull();
    await expect(
      checkFetchTarget("file:///etc/passwd", { allowPrivateNetwork: true }),
    ).rejects.toThrow(/"file:" URLs are refused/);
  });
});

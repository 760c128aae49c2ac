import { BlockList, isIPv4, isIPv6 } from "node:net";

/**
 * Address ranges web_fetch never connects to unless a tool entry sets `allow_private_network`:
 * loopback, private, link-local (cloud metadata lives at 169.254.169.254), carrier-grade NAT,
 * multicast, documentation, benchmarking and reserved ranges. IPv4-mapped IPv6 addresses
 * (`::ffff:127.0.0.1`) are checked against the IPv4 rules by BlockList itself.
 */
const BLOCKED_IPV4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

const BLOCKED_IPV6: ReadonlyArray<readonly [string, number]> = [
  // Unspecified, loopback and the deprecated IPv4-compatible block (::a.b.c.d).
  ["::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  // Teredo tunnels carry an obfuscated IPv4 address; no public page needs one.
  ["2001::", 32],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];

const blocked = new BlockList();
for (const [network, prefix] of BLOCKED_IPV4) blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of BLOCKED_IPV6) blocked.addSubnet(network, prefix, "ipv6");

/** True for an address web tools must not reach by default; non-addresses count as blocked. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIPv4(bare)) return blocked.check(bare, "ipv4");
  if (!isIPv6(bare)) return true;
  if (blocked.check(bare, "ipv6")) return true;
  const embedded = embeddedIpv4(bare);
  return embedded !== null && blocked.check(embedded, "ipv4");
}

/**
 * The IPv4 address inside a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address: a gateway would
 * forward to it, so it is judged like the IPv4 address itself.
 */
function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const isNat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => !g);
  if (isNat64) return ipv4FromGroups(groups[6], groups[7]);
  if (groups[0] === 0x2002) return ipv4FromGroups(groups[1], groups[2]);
  return null;
}

function ipv4FromGroups(high: number | undefined, low: number | undefined): string {
  const h = high ?? 0;
  const l = low ?? 0;
  return [h >> 8, h & 0xff, l >> 8, l & 0xff].join(".");
}

/** `2002:a00:1::` → eight 16-bit numbers; null when the text is not a plain IPv6 address. */
function expandIpv6(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const bytes = dotted[1].split(".").map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string | undefined): number[] =>
    part ? part.split(":").map((group) => Number.parseInt(group, 16)) : [];
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : null;
}

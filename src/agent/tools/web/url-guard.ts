import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { isBlockedAddress } from "./blocked-addresses.js";
import { WebToolError } from "./web-tool-error.js";

/** Every address a host name resolves to (injectable so tests can play a hostile DNS). */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export interface FetchTargetPolicy {
  /** Off by default: only public addresses may be fetched (no SSRF into the host's network). */
  allowPrivateNetwork: boolean;
  resolve?: HostResolver;
  /** Test seam: which addresses count as private (default: the built-in ranges). */
  isBlockedAddress?: (address: string) => boolean;
}

export interface FetchTarget {
  url: URL;
  /**
   * The checked addresses the connection must use, so a second DNS answer cannot swap in a
   * private address after the check (DNS rebinding); null when private networks are allowed.
   */
  addresses: LookupAddress[] | null;
}

const resolveWithSystemDns: HostResolver = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true });

/** An absolute http(s) URL without embedded credentials, or a WebToolError saying what to fix. */
export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WebToolError(
      `"${raw}" is not a valid URL; give an absolute URL such as https://example.com/page.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WebToolError(
      `Only http:// and https:// URLs can be fetched; "${url.protocol}" URLs are refused.`,
    );
  }
  if (url.username || url.password) {
    throw new WebToolError("URLs with embedded credentials (user:password@host) are refused.");
  }
  return url;
}

/**
 * Checks a URL the model asked for (or a redirect target) before any connection is made:
 * http(s) only, and unless private networks are allowed, every address the host resolves to
 * must be public. Returns the addresses to connect to.
 */
export async function checkFetchTarget(
  target: string | URL,
  policy: FetchTargetPolicy,
): Promise<FetchTarget> {
  const url = parseHttpUrl(typeof target === "string" ? target : target.href);
  if (policy.allowPrivateNetwork) return { url, addresses: null };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const family = isIP(host);
  let addresses: LookupAddress[];
  if (family !== 0) {
    addresses = [{ address: host, family }];
  } else {
    try {
      addresses = await (policy.resolve ?? resolveWithSystemDns)(host);
    } catch {
      throw new WebToolError(`Could not resolve the host "${host}"; check the URL.`);
    }
    if (addresses.length === 0) {
      throw new WebToolError(`Could not resolve the host "${host}"; check the URL.`);
    }
  }
  const isBlocked = policy.isBlockedAddress ?? isBlockedAddress;
  const refused = addresses.find((entry) => isBlocked(entry.address));
  if (refused) {
    throw new WebToolError(
      `Refusing to fetch ${url.origin}: ${host === refused.address ? "it is" : `"${host}" resolves to`} ` +
        `${refused.address}, a private, loopback, link-local or reserved address. Only public ` +
        "addresses can be fetched.",
    );
  }
  return { url, addresses };
}

/** A `lookup` for http.request that answers with the already checked addresses only. */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = addresses.filter((entry) => wanted === 0 || entry.family === wanted);
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error("no checked address of the wanted family");
      error.code = "ENOTFOUND";
      callback(error, "", 0);
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

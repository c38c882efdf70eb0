import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

/**
 * The address ranges a URL given by a user or an administrator may point into without reaching
 * the public internet. An operator opts in to each by name; everything else is refused.
 */
export const NON_PUBLIC_RANGES = ['loopback', 'private', 'link-local', 'unspecified'] as const;
export type NonPublicRange = (typeof NON_PUBLIC_RANGES)[number];

type Subnet = readonly [address: string, prefix: number, family: 'ipv4' | 'ipv6'];

const SUBNETS: Record<NonPublicRange, readonly Subnet[]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  // RFC 1918, carrier-grade NAT (RFC 6598), benchmarking (RFC 2544) and IPv6 unique local.
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['100.64.0.0', 10, 'ipv4'],
    ['198.18.0.0', 15, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
  // Where cloud metadata services answer (169.254.169.254, fd00:ec2::254 is covered by private).
  'link-local': [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  unspecified: [
    ['0.0.0.0', 8, 'ipv4'],
    ['::', 128, 'ipv6'],
  ],
};

const LISTS = Object.fromEntries(
  NON_PUBLIC_RANGES.map((range) => {
    const list = new BlockList();
    for (const [address, prefix, family] of SUBNETS[range]) list.addSubnet(address, prefix, family);
    return [range, list];
  }),
) as Record<NonPublicRange, BlockList>;

/** `localhost` and anything under it resolve to loopback by convention (RFC 6761), whatever DNS says. */
const LOCALHOST_NAME = /^(.+\.)?localhost\.?$/i;

/**
 * The non-public range a URL's host is in, judged from the host as written: an IP literal in any
 * notation the WHATWG URL parser accepts (`2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]` are all
 * normalised by it) or a localhost name. Other names are not resolved here: the caller that
 * connects is the one that could check the address it reaches.
 */
export function nonPublicRangeOf(url: string): NonPublicRange | undefined {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  if (LOCALHOST_NAME.test(host)) return 'loopback';
  return rangeOfAddress(host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);
}

/** The non-public range an IP literal is in; undefined for a public address or anything not an IP. */
function rangeOfAddress(address: string): NonPublicRange | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return NON_PUBLIC_RANGES.find((range) => LISTS[range].check(address, type));
}

/** Whether an IP address (as a socket reports it, IPv4-mapped IPv6 included) is in a non-public range. */
export function isNonPublicAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return rangeOfAddress(plain) !== undefined;
}

/**
 * Parses an operator's comma-separated list of range names (`loopback,private`), or `none` (an empty
 * variable counts as unset, so it cannot say "none"); unknown names throw.
 */
export function parseAllowedRanges(value: string): readonly NonPublicRange[] {
  if (value.trim().toLowerCase() === 'none') return [];
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  for (const name of names) {
    if (!(NON_PUBLIC_RANGES as readonly string[]).includes(name)) {
      throw new Error(`unknown address range "${name}" (known: ${NON_PUBLIC_RANGES.join(', ')})`);
    }
  }
  return names as NonPublicRange[];
}

/** The range that refuses `url`, or undefined when its host is public or in a range the operator allows. */
export function refusedRangeOf(url: string, allowed: readonly NonPublicRange[]): NonPublicRange | undefined {
  const range = nonPublicRangeOf(url);
  return range !== undefined && !allowed.includes(range) ? range : undefined;
}

/** An environment variable naming the non-public ranges an operator allows, e.g. `loopback,private`. */
export const envAddressRanges = () =>
  z.string().transform((value, ctx): readonly NonPublicRange[] => {
    try {
      return parseAllowedRanges(value);
    } catch (error) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: (error as Error).message });
      return z.NEVER;
    }
  });

import { BlockList, isIP } from 'node:net';

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

function family(address: string): 'ipv4' | 'ipv6' | undefined {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : undefined;
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is the IPv4 address it wraps. */
function canonical(address: string): string {
  return IPV4_MAPPED.exec(address)?.[1] ?? address;
}

/**
 * A key's IP allow-list: single addresses and CIDR ranges, IPv4 and IPv6. An empty list allows every
 * address; entries that are not addresses are ignored rather than locking the key's owner out.
 */
export class IpAllowList {
  private readonly list = new BlockList();
  readonly isEmpty: boolean;

  constructor(entries: readonly string[]) {
    let added = 0;
    for (const raw of entries) {
      const entry = raw.trim();
      const slash = entry.indexOf('/');
      const address = canonical(slash === -1 ? entry : entry.slice(0, slash));
      const type = family(address);
      if (type === undefined) continue;
      if (slash === -1) {
        this.list.addAddress(address, type);
      } else {
        const prefix = Number(entry.slice(slash + 1));
        const max = type === 'ipv4' ? 32 : 128;
        if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) continue;
        this.list.addSubnet(address, prefix, type);
      }
      added += 1;
    }
    this.isEmpty = added === 0;
  }

  allows(clientIp: string): boolean {
    if (this.isEmpty) return true;
    const address = canonical(clientIp);
    const type = family(address);
    return type !== undefined && this.list.check(address, type);
  }
}

import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';

export interface ClientAddress {
  ip: string;
  protocol: 'http' | 'https';
}

/**
 * Who is calling. The gateway is the edge: a caller's X-Forwarded-For and X-Forwarded-Proto are
 * believed only on connections from a configured proxy (the balancer or ingress in front of it),
 * so a forged header can neither move a client into another rate-limit bucket nor tell the
 * services a made-up address.
 */
export class ClientAddressResolver {
  private readonly trusted: (address: string, hop: number) => boolean;

  /** `trustedProxies`: addresses, CIDR ranges or the names loopback, linklocal, uniquelocal. */
  constructor(trustedProxies: readonly string[]) {
    this.trusted = proxyAddr.compile([...trustedProxies]);
  }

  resolve(req: IncomingMessage): ClientAddress {
    const peer = req.socket.remoteAddress ?? '';
    return { ip: proxyAddr(req, this.trusted) ?? peer, protocol: this.protocolOf(req, peer) };
  }

  private protocolOf(req: IncomingMessage, peer: string): ClientAddress['protocol'] {
    const forwarded = req.headers['x-forwarded-proto'];
    if (typeof forwarded === 'string' && this.trusted(peer, 0)) {
      // The nearest proxy appends last; earlier entries came from further out.
      const nearest = forwarded
        .slice(forwarded.lastIndexOf(',') + 1)
        .trim()
        .toLowerCase();
      if (nearest === 'https' || nearest === 'http') return nearest;
    }
    return (req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  }
}

/** Why a trusted-proxy list cannot be used (naming the bad entry), or undefined when it can. */
export function trustedProxiesProblem(trustedProxies: readonly string[]): string | undefined {
  try {
    proxyAddr.compile([...trustedProxies]);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

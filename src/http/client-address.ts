import type { Config } from '../config/load.ts'

/** Loopback, RFC 1918, link-local and unique-local addresses (IPv4, IPv4-mapped and IPv6). */
export function isPrivateAddress(address: string): boolean {
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.\d+\.\d+$/i.exec(address)
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])]
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
  }
  const v6 = address.toLowerCase()
  return v6 === '::1' || /^f[cd][0-9a-f]{2}:/.test(v6) || /^fe[89ab][0-9a-f]:/.test(v6)
}

/**
 * Fastify's trustProxy for TRUST_PROXY: false, the proxies' addresses (as given), or a hop count.
 * Fastify refuses a bare hop count (a client that reaches the service directly could write as many
 * hops as it likes), so a count trusts that many hops only while each is on a private network:
 * the load balancers of a deployment are; a client on the internet is not.
 */
export function trustProxyOf(config: Pick<Config, 'TRUST_PROXY'>): false | string | ((address: string, hop: number) => boolean) {
  const setting = config.TRUST_PROXY
  if (typeof setting !== 'number') return setting
  return (address, hop) => hop < setting && isPrivateAddress(address)
}

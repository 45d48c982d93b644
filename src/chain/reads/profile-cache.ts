import type { Chain } from '../clients.ts'
import type { Freshness } from '../../cache/freshness.ts'
import { readProfiles, type Profile } from './read-profiles.ts'

/**
 * Names, profiles and reputations of burners, kept between chadboard reads: a board computed
 * after every burn reads only the profiles it does not hold yet (one Multicall3 call at most).
 * Names and feedback are renewed when the indexer sees their events (topic `profiles`); a
 * profile edit emits none, so `ttlMs` bounds how long one can go unseen.
 */
export type ProfileCache = { get(addresses: `0x${string}`[]): Promise<Map<string, Profile>> }

export function createProfileCache(chain: Chain, fresh: Freshness, ttlMs: number, clock: () => number = Date.now): ProfileCache {
  const held = new Map<string, { profile: Profile; until: number; stamp: string }>()
  return {
    async get(addresses) {
      const stamp = fresh.stamp(['profiles'])
      const now = clock()
      const missing = addresses.filter((a) => {
        const entry = held.get(a.toLowerCase())
        return !entry || entry.until <= now || entry.stamp !== stamp
      })
      if (missing.length) {
        const read = await readProfiles(chain, missing)
        for (const [address, profile] of read) held.set(address, { profile, until: now + ttlMs, stamp })
      }
      return new Map(addresses.map((a) => [a.toLowerCase(), held.get(a.toLowerCase())!.profile]))
    },
  }
}

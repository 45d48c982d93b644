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
  // One read at a time: readers that miss while it runs wait for it instead of reading the
  // same profiles again (a board computed by many readers at once reads them once).
  let reading: Promise<void> | undefined
  return {
    async get(addresses) {
      for (;;) {
        const stamp = fresh.stamp(['profiles'])
        const now = clock()
        const missing = addresses.filter((a) => {
          const entry = held.get(a.toLowerCase())
          return !entry || entry.until <= now || entry.stamp !== stamp
        })
        if (missing.length === 0) return new Map(addresses.map((a) => [a.toLowerCase(), held.get(a.toLowerCase())!.profile]))
        if (!reading) {
          reading = readProfiles(chain, missing)
            .then((read) => {
              for (const [address, profile] of read) held.set(address, { profile, until: now + ttlMs, stamp })
            })
            .finally(() => (reading = undefined))
          await reading
          // What was read answers this caller even if the stamp moved meanwhile.
          return new Map(addresses.map((a) => [a.toLowerCase(), held.get(a.toLowerCase())!.profile]))
        }
        await reading.catch(() => {})
      }
    },
  }
}

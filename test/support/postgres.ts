import pg from 'pg'
import { randomBytes } from 'node:crypto'
import { TEST_DATABASE_URL } from './env.ts'

/**
 * A database of its own for one test file on the shared PostgreSQL server, dropped at the
 * end, so suites running in parallel never see each other's rows.
 */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set')
  const name = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(TEST_DATABASE_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}

/**
 * The store and bus a test runs on, chosen by TEST_BACKEND (the `.ci/run` matrix): PGlite and
 * the in-process bus (default), or with TEST_BACKEND=postgres a fresh PostgreSQL database and
 * Redis under a prefix of its own. `env` configures an app; `openDb` opens a connection pool
 * (each call a new one, on the same database when it is PostgreSQL).
 */
export async function testBackend(database: 'pglite' | 'postgres' = process.env.TEST_BACKEND === 'postgres' ? 'postgres' : 'pglite') {
  const { openDb } = await import('../../src/store/db.ts')
  if (database === 'pglite') return { database, env: {} as Record<string, string>, openDb: async () => (await import('./pglite-pool.ts')).pooledPglite(), drop: async () => {} }
  const pg = await createTestDatabase()
  const redis = process.env.TEST_REDIS_URL
  const env: Record<string, string> = { DATABASE_URL: pg.url, ...(redis ? { REDIS_URL: redis, REDIS_PREFIX: `t-${randomBytes(4).toString('hex')}` } : {}) }
  return { database, env, openDb: () => openDb({ url: pg.url }), drop: pg.drop }
}

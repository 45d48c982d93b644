import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { PGlite as PGliteInstance } from '@electric-sql/pglite'
import { copyTemplateInto, ensurePgliteTemplate, migrationsDir } from './pglite-template.ts'
import { openPgliteThread, type PgliteLike } from './pglite-thread.ts'

export type Row = Record<string, unknown>

/** What repositories need of a database: parameterized queries and transactions. */
export type Queryable = {
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<{ rows: T[]; rowCount: number }>
  /** Runs a script of several statements, without parameters (migrations). */
  exec(sql: string): Promise<void>
}

export type Db = Queryable & {
  kind: 'pglite' | 'postgres'
  /** Runs `fn` in one transaction: committed if it returns, rolled back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export type DbConfig = { url?: string; dataDir?: string }

/** Where the service's database is: `DATABASE_URL`, else the embedded one under `DATA_DIR`/db. */
export function serviceDbConfig(config: { DATABASE_URL?: string; DATA_DIR: string }): DbConfig {
  return { url: config.DATABASE_URL, dataDir: config.DATABASE_URL ? undefined : path.join(config.DATA_DIR, 'db') }
}

/**
 * Opens PostgreSQL when a URL is given, otherwise embedded PGlite in `dataDir`
 * (in memory when `dataDir` is undefined), and applies the migrations.
 */
export async function openDb(config: DbConfig): Promise<Db> {
  const db = config.url ? await openPostgres(config.url) : await openPglite(config.dataDir)
  await migrate(db)
  return db
}

async function openPostgres(url: string): Promise<Db> {
  const { default: pg } = await import('pg')
  // Keep numeric and bigint columns exact: they carry wei amounts and block numbers.
  const pool = new pg.Pool({ connectionString: url, max: 16 })
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  })
  return {
    kind: 'postgres',
    async query(sql, params) {
      const result = await pool.query(sql, params as unknown[])
      return { rows: result.rows, rowCount: result.rowCount ?? 0 }
    },
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const tx: Queryable = {
          async query(sql, params) {
            const result = await client.query(sql, params as unknown[])
            return { rows: result.rows, rowCount: result.rowCount ?? 0 }
          },
          async exec(sql) {
            await client.query(sql)
          },
        }
        const value = await fn(tx)
        await client.query('COMMIT')
        return value
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
    async exec(sql) {
      await pool.query(sql)
    },
    close: () => pool.end(),
  }
}

async function openPglite(dataDir: string | undefined): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite')
  // A new database starts as a copy of the migrated template instead of running initdb.
  const template = await ensurePgliteTemplate((pglite) => migrate(wrapPglite(pglite)))
  let pglite: PgliteLike
  if (dataDir) {
    await copyTemplateInto(template, dataDir)
    // The service's own database runs on a thread of its own (src/store/pglite-thread.mjs).
    pglite = await openPgliteThread(dataDir)
  } else {
    pglite = await PGlite.create({ loadDataDir: new Blob([await readFile(template.tarball)]) })
  }
  return wrapPglite(pglite)
}

function wrapPglite(pglite: PgliteLike): Db {
  // PGlite is one connection: transactions must not interleave with other queries, so every
  // statement goes through this queue.
  let tail: Promise<unknown> = Promise.resolve()
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn)
    tail = run.catch(() => {})
    return run
  }
  const direct: Queryable = {
    async query(sql, params) {
      const result = await pglite.query<any>(sql, params as unknown[])
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length }
    },
    async exec(sql) {
      await pglite.exec(sql)
    },
  }
  return {
    kind: 'pglite',
    query: (sql, params) => exclusive(() => direct.query(sql, params)),
    exec: (sql) => exclusive(() => direct.exec(sql)),
    transaction: (fn) =>
      exclusive(async () => {
        await direct.query('BEGIN')
        try {
          const value = await fn(direct)
          await direct.query('COMMIT')
          return value
        } catch (error) {
          await direct.query('ROLLBACK').catch(() => {})
          throw error
        }
      }),
    close: () => exclusive(() => pglite.close()),
  }
}

/** Applies every migration not yet applied, in file-name order, each in its own transaction. */
export async function migrate(db: Db): Promise<void> {
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort()
  await db.transaction(async (tx) => {
    // Two instances starting at once must not both apply a migration.
    await tx.query('SELECT pg_advisory_xact_lock(4326)')
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    )
    const applied = new Set(
      (await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    )
    for (const file of files) {
      if (applied.has(file)) continue
      await tx.exec(await readFile(path.join(migrationsDir, file), 'utf8'))
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file])
    }
  })
}

/**
 * Empties every table but the migration log. Used when the embedded devnet started afresh,
 * so the database never describes a chain that no longer exists.
 */
export async function resetData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const tables = (
      await tx.query<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'",
      )
    ).rows.map((r) => `"${r.tablename}"`)
    if (tables.length) await tx.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`)
  })
}

import { openDb, resetData, type Db } from '../../src/store/db.ts'

const idleDatabases: Db[] = []

/**
 * An embedded (PGlite) database for an app of this test process: a closed app's database,
 * emptied (resetData: every table but the migration log, identities restarted, as after a
 * devnet restart), or a new one. Opening a PGlite costs about 1.2 s of CPU; emptying one a
 * few milliseconds. Closing the app gives it back instead of closing it.
 */
export async function pooledPglite(): Promise<Db> {
  const reused = idleDatabases.pop()
  const db = reused ?? (await openDb({}))
  if (reused) await resetData(db)
  let returned = false
  // Once given back, this handle behaves as a closed database (a test may close it on purpose).
  const open = () => {
    if (returned) throw new Error('PGlite is closed')
  }
  return {
    kind: db.kind,
    query: async (sql, params) => (open(), db.query(sql, params)),
    exec: async (sql) => (open(), db.exec(sql)),
    transaction: async (fn) => (open(), db.transaction(fn)),
    async close() {
      if (returned) return
      returned = true
      idleDatabases.push(db)
    },
  }
}

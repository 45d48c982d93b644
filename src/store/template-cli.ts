import { openDb } from './db.ts'

// Run at install: builds the migrated PGlite template, so the first `npm start` skips initdb.
const started = Date.now()
const db = await openDb({})
await db.close()
console.log(`prepared the embedded database template in ${Date.now() - started} ms`)

// The embedded database on a thread of its own (plain JavaScript: it runs as is from src/ and
// from dist/). PGlite executes every statement synchronously, page reads and writes included,
// so on the service's thread each statement stopped request handling for its whole duration;
// here the service's thread only sends the statement and gets the rows back. One statement at a
// time, in arrival order: the service's side already queues them as one connection.
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'

/** The fields of a PGlite error a caller reads (the SQLSTATE code, the constraint, ...). */
function errorOf(error) {
  const fields = { name: error?.name ?? 'Error', message: String(error?.message ?? error) }
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value
    }
  }
  return fields
}

let pglite
try {
  pglite = await PGlite.create(workerData.dataDir)
} catch (error) {
  parentPort.postMessage({ opened: false, error: errorOf(error) })
}
if (pglite) {
  let tail = Promise.resolve()
  parentPort.on('message', (message) => {
    tail = tail.then(async () => {
      try {
        if (message.op === 'query') {
          const result = await pglite.query(message.sql, message.params)
          parentPort.postMessage({ id: message.id, rows: result.rows, affectedRows: result.affectedRows })
        } else if (message.op === 'exec') {
          await pglite.exec(message.sql)
          parentPort.postMessage({ id: message.id })
        } else if (message.op === 'close') {
          await pglite.close()
          parentPort.postMessage({ id: message.id })
        }
      } catch (error) {
        parentPort.postMessage({ id: message.id, error: errorOf(error) })
      }
    })
  })
  parentPort.postMessage({ opened: true })
}

/**
 * Child process of the stream benchmark: opens event-stream connections to 127.0.0.1, each
 * group of `perAddress` from a loopback address of its own (127.1.x.y: the service's
 * per-address cap stays as in production), spread over the given URLs in turn. Records when
 * each `burn` event (by txHash) reached each client (wall clock in ms, sub-ms precision, so it
 * compares with the service's and the bench's clocks on the same machine).
 *
 * Protocol: argv[2] is JSON { urls, count, perAddress }. Prints one JSON line once connected
 * ({ connected, refused: { status: count } }); then reads one JSON line on stdin, the txHashes to
 * wait for, and prints { complete, arrivals: { [txHash]: ms[] } } once every client has every
 * one of them, or after 60 s.
 */
import http from 'node:http'
import { createInterface } from 'node:readline'

const { urls, count, perAddress } = JSON.parse(process.argv[2]!) as { urls: string[]; count: number; perAddress: number }
for (const url of urls) if (!new URL(url).hostname.startsWith('127.')) throw new Error('stream clients connect to 127.0.0.1 only')

const now = () => performance.timeOrigin + performance.now()
const arrivals = new Map<string, number[]>()
const seenBy: Array<Set<string>> = []
const requests: http.ClientRequest[] = []
const refused: Record<number, number> = {}
let connected = 0

const TX = '"txHash":"'

function open(index: number): Promise<void> {
  // 127.1.0.1, 127.1.0.2, ...: a new address every perAddress clients.
  const group = Math.floor(index / perAddress)
  const localAddress = `127.1.${Math.floor(group / 250)}.${(group % 250) + 1}`
  const seen = new Set<string>()
  return new Promise((resolve) => {
    let buffer = ''
    const request = http.get(urls[index % urls.length]!, { agent: false, localAddress, headers: { accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        refused[response.statusCode!] = (refused[response.statusCode!] ?? 0) + 1
        response.resume()
        return resolve()
      }
      connected++
      seenBy.push(seen)
      resolve()
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        const at = now()
        buffer += chunk
        let split
        while ((split = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, split)
          buffer = buffer.slice(split + 2)
          if (!block.includes('event: burn')) continue
          const start = block.indexOf(TX)
          if (start < 0) continue
          const txHash = block.slice(start + TX.length, start + TX.length + 66).toLowerCase()
          seen.add(txHash)
          let list = arrivals.get(txHash)
          if (!list) arrivals.set(txHash, (list = []))
          list.push(at)
        }
      })
    })
    request.on('error', () => resolve())
    requests.push(request)
  })
}

for (let i = 0; i < count; i += 200) await Promise.all(Array.from({ length: Math.min(200, count - i) }, (_, k) => open(i + k)))
process.stdout.write(JSON.stringify({ connected, refused }) + '\n')

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
const expected = JSON.parse((await lines.next()).value as string) as string[]
const deadline = Date.now() + 60_000
const complete = () => seenBy.filter((seen) => expected.every((tx) => seen.has(tx))).length
while (complete() < connected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
for (const r of requests) r.destroy()
// Exits once the line is written: a pipe is written asynchronously, and 10,000 clients' arrivals make a long one.
process.stdout.write(JSON.stringify({ complete: complete(), arrivals: Object.fromEntries(expected.map((tx) => [tx, arrivals.get(tx) ?? []])) }) + '\n', () => process.exit(0))

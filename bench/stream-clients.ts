/**
 * Child process of the stream benchmark: opens N event-stream connections to 127.0.0.1 and
 * reports, as JSON on stdout, how long each burn took from publication to each client.
 */
import http from 'node:http'

const [url, countArg, expectArg] = process.argv.slice(2)
const target = new URL(url!)
if (!target.hostname.startsWith('127.')) throw new Error('stream clients connect to 127.0.0.1 only')
const count = Number(countArg)
const expected = Number(expectArg)
const delays: number[] = []
let connected = 0
let complete = 0
const requests: http.ClientRequest[] = []

function open(): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0
    let buffer = ''
    const request = http.get(url!, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      connected++
      resolve()
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        buffer += chunk
        let split
        while ((split = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, split)
          buffer = buffer.slice(split + 2)
          if (!block.includes('event: burn')) continue
          const data = JSON.parse(block.slice(block.indexOf('data: ') + 6))
          delays.push(Date.now() - data.publishedAt)
          if (++seen === expected) complete++
        }
      })
    })
    request.on('error', () => resolve())
    requests.push(request)
  })
}

for (let i = 0; i < count; i += 250) await Promise.all(Array.from({ length: Math.min(250, count - i) }, open))
process.stdout.write(JSON.stringify({ connected }) + '\n')
const deadline = Date.now() + 60_000
while (complete < connected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
delays.sort((a, b) => a - b)
const at = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))] ?? null
process.stdout.write(JSON.stringify({ connected, complete, deliveries: delays.length, p50: at(0.5), p99: at(0.99), max: delays.at(-1) ?? null }) + '\n')
for (const r of requests) r.destroy()
process.exit(0)

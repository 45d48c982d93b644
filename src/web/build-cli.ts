/**
 * `npm run build:web`: bundles the web page into .cache/web/ ahead of the first start (which
 * would otherwise do it).
 */
import { loadWebAssets } from './build-assets.ts'

const started = Date.now()
const assets = await loadWebAssets()
const bytes = [...assets.files.values()].filter((f) => !f.name.endsWith('.map'))
const total = (key: 'bytes' | 'gzip') => bytes.reduce((sum, f) => sum + (key === 'gzip' ? f.gzip() : f.bytes).length, 0)
console.log(
  `web page ${assets.built ? 'bundled' : 'already bundled'} (${assets.key}) in ${Date.now() - started} ms: ${bytes.length} files, ${Math.round(total('bytes') / 1024)} KB, ${Math.round(total('gzip') / 1024)} KB gzipped`,
)

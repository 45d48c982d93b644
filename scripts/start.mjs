// `npm start`: the compiled service (dist/main.js) when dist/ is the build of the current
// sources, which `npm install` makes (postinstall) and `npm run build` renews; otherwise the
// TypeScript sources through tsx, as `npm run dev` always does. Same process, same behaviour:
// only the loading differs (through tsx every module is transformed first, about twice the
// start-up time; see docs/contributors/startup.md).
import { importBuiltOrSource } from './source-hash.mjs'

await importBuiltOrSource(new URL('../dist/main.js', import.meta.url).href, new URL('../src/main.ts', import.meta.url).href, () =>
  console.error('dist/ is not the build of the current sources: starting from src/ through tsx (slower; `npm run build` makes the next start use dist/)'),
)

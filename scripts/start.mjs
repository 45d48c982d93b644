// `npm start`: the compiled service (dist/main.js) when dist/ is the build of the current
// sources, which `npm install` makes (postinstall) and `npm run build` renews; otherwise the
// TypeScript sources through tsx, as `npm run dev` always does. Same process, same behaviour:
// only the loading differs (through tsx every module is transformed first, about twice the
// start-up time; see README, Start-up).
import { isBuilt } from './source-hash.mjs'

let built = false
try {
  built = isBuilt()
} catch {
  // no TypeScript package to hash with (an install without devDependencies): run the sources
}
if (built) {
  await import('../dist/main.js')
} else {
  console.error('dist/ is not the build of the current sources: starting from src/ through tsx (slower; `npm run build` makes the next start use dist/)')
  const { register } = await import('tsx/esm/api')
  register()
  await import('../src/main.ts')
}

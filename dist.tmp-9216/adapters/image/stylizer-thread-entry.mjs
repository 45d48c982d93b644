// Worker threads do not inherit the TypeScript loader: register it, then load the worker.
import { register } from 'tsx/esm/api'

register()
await import('./stylizer-thread.ts')

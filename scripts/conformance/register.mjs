import { register } from 'node:module'

if (Number(process.versions.node.split('.')[0]) < 22) register('./fs-glob-sync-hooks.mjs', import.meta.url)

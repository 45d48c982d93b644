import { compileContracts } from './compile.ts'

const started = Date.now()
const compiled = await compileContracts()
console.log(`compiled ${Object.keys(compiled).length} contracts in ${Date.now() - started} ms`)

import { describe } from 'node:test'
import { crashSuite } from '../support/crash-suite.ts'

describe('crash recovery on PGlite', () => crashSuite('pglite'))

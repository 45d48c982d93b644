import { describe } from 'node:test'
import { looksmaxxSuite } from '../support/looksmaxx-suite.ts'

describe('looksmaxx on PGlite', () => looksmaxxSuite('pglite'))

import { describe } from 'node:test'
import { looksmaxxSuite } from '../support/looksmaxx-suite.ts'
import { onlyInLeg } from '../support/env.ts'

describe('looksmaxx on PGlite', { skip: onlyInLeg('embedded') }, () => looksmaxxSuite('pglite'))

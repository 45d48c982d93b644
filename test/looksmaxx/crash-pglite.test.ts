import { describe } from 'node:test'
import { crashSuite } from '../support/crash-suite.ts'
import { onlyInLeg } from '../support/env.ts'

describe('crash recovery on PGlite', { skip: onlyInLeg('embedded') }, () => crashSuite('pglite'))

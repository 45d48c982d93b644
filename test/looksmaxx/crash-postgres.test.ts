import { describe } from 'node:test'
import { crashSuite } from '../support/crash-suite.ts'
import { TEST_DATABASE_URL, needsPostgres, onlyInLeg } from '../support/env.ts'

describe('crash recovery on PostgreSQL', { skip: onlyInLeg('postgres', needsPostgres) }, () => crashSuite('postgres'))

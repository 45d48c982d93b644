import { describe } from 'node:test'
import { crashSuite } from '../support/crash-suite.ts'
import { TEST_DATABASE_URL, needsPostgres } from '../support/env.ts'

describe('crash recovery on PostgreSQL', { skip: needsPostgres }, () => crashSuite('postgres'))

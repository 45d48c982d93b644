import { describe } from 'node:test'
import { crashSuite } from '../support/crash-suite.ts'
import { TEST_DATABASE_URL } from '../support/env.ts'

describe('crash recovery on PostgreSQL', { skip: TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set' }, () => crashSuite('postgres'))

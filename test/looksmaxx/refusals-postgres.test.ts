import { describe } from 'node:test'
import { looksmaxxSuite } from '../support/looksmaxx-suite.ts'
import { TEST_DATABASE_URL } from '../support/env.ts'

describe('looksmaxx on PostgreSQL', { skip: TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set' }, () => looksmaxxSuite('postgres'))

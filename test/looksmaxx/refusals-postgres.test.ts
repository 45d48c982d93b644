import { describe } from 'node:test'
import { looksmaxxSuite } from '../support/looksmaxx-suite.ts'
import { TEST_DATABASE_URL, needsPostgres } from '../support/env.ts'

describe('looksmaxx on PostgreSQL', { skip: needsPostgres }, () => looksmaxxSuite('postgres'))

import { describe } from 'node:test'
import { looksmaxxSuite } from '../support/looksmaxx-suite.ts'
import { TEST_DATABASE_URL, needsPostgres, onlyInLeg } from '../support/env.ts'

describe('looksmaxx on PostgreSQL', { skip: onlyInLeg('postgres', needsPostgres) }, () => looksmaxxSuite('postgres'))

/**
 * The production backends the suite runs against for real. `.ci/run` sets both to the
 * machine's PostgreSQL and Redis; unset, the tests that need them are skipped with a reason.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL

/**
 * The production backends the suite runs against for real. `.ci/run` sets both to the
 * machine's PostgreSQL and Redis; unset, the tests that need them are skipped with a reason.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL

/**
 * The skip reason of a test that needs a backend the machine may lack, or false when it is there.
 * Reasons start with "requires <backend>": scripts/run-tests.ts lists them, and under CI=true a
 * test skipped for one fails the run (CI has PostgreSQL, Redis and Chromium; a suite that needs
 * them must not vanish from the totals).
 */
export function requires(backend: 'postgres' | 'redis' | 'chromium', available: boolean, hint: string): false | string {
  return available ? false : `requires ${backend}: ${hint}`
}

export const needsPostgres = requires('postgres', Boolean(TEST_DATABASE_URL), 'TEST_DATABASE_URL is not set')
export const needsRedis = requires('redis', Boolean(TEST_REDIS_URL), 'TEST_REDIS_URL is not set')
export const needsPostgresAndRedis = needsPostgres || needsRedis

/** The leg of `.ci/run` this run is: TEST_BACKEND (embedded unless it says postgres). */
export const testLeg: 'embedded' | 'postgres' = process.env.TEST_BACKEND === 'postgres' ? 'postgres' : 'embedded'

/**
 * For a suite about one backend whatever TEST_BACKEND says (the PGlite crash suite, the
 * PostgreSQL one, two processes sharing PostgreSQL): it runs in that backend's leg only, where
 * `otherwise` (its own skip reason, e.g. needsPostgres) decides. Each leg of .ci/run runs the
 * whole suite, so such a suite ran twice in CI, once per leg, for the same result.
 */
export function onlyInLeg(leg: 'embedded' | 'postgres', otherwise: false | string = false): false | string {
  return testLeg === leg ? otherwise : `runs in the TEST_BACKEND=${leg} leg`
}

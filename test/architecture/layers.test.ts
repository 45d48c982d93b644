import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { cruise, type ICruiseOptions, type IReporterOutput } from 'dependency-cruiser'

/** The layer rules of src/ (docs/contributors/architecture.md) hold: no import cycle, no import upward. */
test('src/ keeps its layers: no import cycle, no import from a lower layer up to a higher one', async () => {
  const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
    forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden']
    options: ICruiseOptions
  }
  const result: IReporterOutput = await cruise(['src'], {
    ...config.options,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  })
  assert.equal(typeof result.output, 'object', 'dependency-cruiser answers with its JSON result')
  const output = result.output as Exclude<IReporterOutput['output'], string>
  const violations = output.summary.violations.map((v) => {
    const via = v.cycle?.length ? ` (cycle: ${v.cycle.map((step) => step.name).join(' → ')})` : ''
    return `${v.from} → ${v.to}: ${v.rule.name}${via}`
  })
  assert.ok(output.summary.totalCruised > 100, `cruised only ${output.summary.totalCruised} modules`)
  assert.deepEqual(violations, [], `layer violations:\n${violations.join('\n')}`)
})

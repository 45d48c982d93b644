/**
 * The layers of src/, bottom to top. A module may import its own layer and the layers below it,
 * never one above. Checked in `npm test` by test/architecture/layers.test.ts (docs/contributors/architecture.md).
 * Each entry is a regular expression on the path of a module from the repository root.
 */
const LAYERS = [
  { name: 'base', paths: ['^src/errors/', '^src/config/', '^src/data/', '^src/util/'] },
  { name: 'infrastructure', paths: ['^src/chain/', '^src/store/', '^src/adapters/', '^src/cache/', '^src/events/', '^src/x402/', '^src/receipts/'] },
  { name: 'services', paths: ['^src/indexer/', '^src/pipeline/'] },
  { name: 'operations', paths: ['^src/context\\.ts$', '^src/operations/'] },
  { name: 'adapters-in', paths: ['^src/chat/', '^src/http/', '^src/mcp/', '^src/web/'] },
  { name: 'entry', paths: ['^src/app\\.ts$', '^src/main\\.ts$'] },
]

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer.name}-imports-upward`,
  comment: `${layer.name} (${layer.paths.join(', ')}) may import only its own layer and those below it`,
  severity: 'error',
  from: { path: layer.paths },
  to: { path: LAYERS.slice(i + 1).flatMap((above) => above.paths) },
}))

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles (type-only imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'mcp-and-chat-do-not-import-http',
      comment: 'HTTP, MCP and chat are adapters of the one serving runtime (operations/runtime/serve.ts): MCP and chat never go through the HTTP adapter',
      severity: 'error',
      from: { path: ['^src/mcp/', '^src/chat/'] },
      to: { path: '^src/http/' },
    },
    {
      name: 'devnet-imports-only-chain',
      comment: 'devnet/ is a tool: it may import chain/ and the base layer, nothing else of src/',
      severity: 'error',
      from: { path: '^src/devnet/' },
      to: { path: '^src/', pathNot: ['^src/devnet/', '^src/chain/', '^src/errors/', '^src/config/', '^src/data/', '^src/util/'] },
    },
    {
      name: 'nothing-imports-devnet',
      comment: 'Only app.ts, main.ts and tests may import devnet/',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/devnet/', '^src/app\\.ts$', '^src/main\\.ts$', '\\.test\\.ts$'] },
      to: { path: '^src/devnet/' },
    },
    {
      name: 'cli-is-a-client',
      comment: 'cli/ speaks to the service over its public HTTP API only: it imports nothing else of src/',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/', pathNot: ['^src/cli/'] },
    },
    {
      name: 'nothing-imports-cli',
      comment: 'The CLI is a client of the service, not part of it',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli/'] },
      to: { path: '^src/cli/' },
    },
    {
      name: 'chat-calls-operations-through-its-runner',
      comment: 'chat/runner.ts is the one place chat runs an operation (so serving can change there alone)',
      severity: 'error',
      from: { path: '^src/chat/', pathNot: '^src/chat/runner\\.ts$' },
      to: { path: ['^src/operations/runtime/run-operation\\.ts$', '^src/operations/runtime/serve'] },
    },
    {
      name: 'every-module-in-a-layer',
      comment: 'A new folder of src/ gets a place in LAYERS (or devnet\'s rules) before it is used',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        path: '^src/',
        pathNot: [...LAYERS.flatMap((layer) => layer.paths), '^src/devnet/', '^src/cli/'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
}

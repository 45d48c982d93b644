/**
 * `npm run build`: compiles src/ to dist/ with the TypeScript compiler, one .js per .ts at the
 * same relative path (src/main.ts → dist/main.js, src/devnet/main.ts → dist/devnet/main.js),
 * and copies the files the code reads beside itself at run time (SQL migrations, the worker
 * entry); the CLI is also bundled into one file (bundleCli). dist/ sits at the same depth as
 * src/, so paths computed from import.meta.url to the repository root (contracts/, .cache/)
 * hold for both.
 *
 * Each file is transpiled on its own (ts.transpileModule, as tsx does; `npm run typecheck` is
 * the type check): a whole-program tsc emit resolves every type of viem and costs about 25 s
 * of CPU even with noCheck, the per-file transform about 3 s. tsconfig.build.json holds the
 * options, so `tsc -p tsconfig.build.json` produces the same files.
 *
 * With `--if-changed` (the test runner, postinstall) nothing is done when dist/ was built from
 * the same sources: a hash of src/ and the build configuration is kept in dist/.build-hash
 * (scripts/source-hash.mjs, which the `npm start` launcher reads too).
 */
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { buildSync } from 'esbuild'
import { distDir, files, isBuilt, isTest, root, sourceHash, srcDir } from './source-hash.mjs'

export { distDir, isBuilt, sourceHash }

const isSource = (file: string) => file.endsWith('.ts') && !isTest(file)

/** The options of tsconfig.build.json, as the compiler API takes them. */
function compilerOptionsOf(outDir: string): ts.CompilerOptions {
  const configFile = path.join(root, 'tsconfig.build.json')
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(configFile, ts.sys.readFile).config, ts.sys, root, { outDir }, configFile)
  // Transpiled alone a file cannot read package.json's "type": say ESM outright.
  return { ...parsed.options, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }
}

/**
 * Builds into a directory of its own and then swaps it in, so a concurrent reader sees the
 * old build or the new one, never half of one. Returns false when it was already built.
 */
export function build(options: { ifChanged?: boolean } = {}): boolean {
  const key = sourceHash()
  if (options.ifChanged && isBuilt()) return false
  const out = `${distDir}.tmp-${process.pid}`
  rmSync(out, { recursive: true, force: true })
  const compilerOptions = compilerOptionsOf(out)
  for (const file of files(srcDir).filter((f) => !isTest(f))) {
    const target = path.join(out, path.relative(srcDir, file))
    mkdirSync(path.dirname(target), { recursive: true })
    if (!isSource(file)) {
      cpSync(file, target)
      continue
    }
    const js = target.replace(/\.ts$/, '.js')
    const result = ts.transpileModule(readFileSync(file, 'utf8'), { fileName: file, compilerOptions: { ...compilerOptions, outDir: path.dirname(js) }, reportDiagnostics: true })
    const errors = (result.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error)
    if (errors.length > 0) {
      rmSync(out, { recursive: true, force: true })
      throw new Error(`${path.relative(root, file)}: ${ts.flattenDiagnosticMessageText(errors[0]!.messageText, '\n')}`)
    }
    writeFileSync(js, result.outputText.replace(/\/\/# sourceMappingURL=.*$/m, `//# sourceMappingURL=${path.basename(js)}.map`))
    if (result.sourceMapText) writeFileSync(`${js}.map`, result.sourceMapText)
  }
  try {
    bundleCli(out)
  } catch (error) {
    // esbuild's binary is an optional dependency npm may skip: the CLI then runs unbundled.
    console.error(`the CLI was not bundled (it runs from dist/cli/main.js): ${(error as Error).message.split('\n')[0]}`)
  }
  writeFileSync(path.join(out, '.build-hash'), key)
  rmSync(distDir, { recursive: true, force: true })
  renameSync(out, distDir)
  return true
}

/**
 * The CLI as one file (dist/cli/bundle.mjs, what bin/burn-to-create.js runs): loading
 * dist/cli/main.js evaluates several hundred of viem's modules one by one, about 0.8 s of CPU
 * before the first request; the bundle holds only what the CLI uses and starts in about 0.3 s.
 * A command that runs for a few seconds should not spend a quarter of them loading.
 */
function bundleCli(out: string): void {
  buildSync({
    entryPoints: [path.join(out, 'cli', 'main.js')],
    outfile: path.join(out, 'cli', 'bundle.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'error',
    // Bundled CommonJS dependencies call require() for Node's built-ins; ESM has none of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  })
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now()
  const built = build({ ifChanged: process.argv.includes('--if-changed') })
  console.error(built ? `built dist/ in ${Date.now() - started} ms` : 'dist/ is up to date')
}

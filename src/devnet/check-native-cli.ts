// Run at install: EDR (the devnet's EVM) ships its engine as one native package per platform.
// npm picks it from optionalDependencies; when it did not (an unsupported platform, or a
// lockfile that lost the entry), say which package is missing now rather than at first boot.
const platformPackage = `@nomicfoundation/edr-${process.platform}-${process.arch}${process.platform === 'linux' ? '-gnu' : ''}`
try {
  await import('@nomicfoundation/edr')
} catch (error) {
  console.error(
    `The devnet's EVM engine could not be loaded on ${process.platform}-${process.arch}: ${(error as Error).message}\n` +
      `Supported: Linux x64 and arm64 (glibc), macOS x64 and arm64. Install ${platformPackage} of the same version as @nomicfoundation/edr, ` +
      'or run the service against a chain of your own with RPC_URL and CONTRACTS_FILE.',
  )
  process.exit(1)
}

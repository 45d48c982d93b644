/**
 * Accounts of the DeFi seed: indices 10…28 of the public test mnemonic (the accounts table of
 * docs/agents/devnet.md keeps 0…9). The seed sends from them by impersonation, so the addresses are written
 * here rather than derived at every boot (one derivation costs about 30 ms); tests that sign for
 * them derive the keys from the mnemonic, and a test checks the two agree.
 */
export const defiAccountAddresses = {
  10: '0xBcd4042DE499D14e55001CcbB24a551F3b954096',
  11: '0x71bE63f3384f5fb98995898A86B02Fb2426c5788',
  12: '0xFABB0ac9d68B0B445fB7357272Ff202C5651694a',
  13: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec',
  14: '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097',
  15: '0xcd3B766CCDd6AE721141F452C550Ca635964ce71',
  16: '0x2546BcD3c84621e976D8185a91A922aE77ECEc30',
  17: '0xbDA5747bFD65F08deb54cb465eB87D40e51B197E',
  18: '0xdD2FD4581271e230360230F9337D5c0430Bf44C0',
  19: '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199',
  20: '0x09DB0a93B389bEF724429898f539AEB7ac2Dd55f',
  21: '0x02484cb50AAC86Eae85610D6f4Bf026f30f6627D',
  22: '0x08135Da0A343E492FA2d4282F2AE34c6c5CC1BbE',
  23: '0x5E661B79FE2D3F6cE70F5AAC07d8Cd9abb2743F1',
  24: '0x61097BA76cD906d2ba4FD106E757f7Eb455fc295',
  25: '0xDf37F81dAAD2b0327A0A50003740e1C935C70913',
  26: '0x553BC17A05702530097c3677091C5BB47a3a7931',
  27: '0x87BdCE72c06C21cd96219BD8521bDF1F42C78b5e',
  28: '0x40Fc963A729c542424cD800349a7E4Ecc4896624',
} as const satisfies Record<number, `0x${string}`>

export type DefiAccountIndex = keyof typeof defiAccountAddresses

/** Roles in the DeFi seed, by mnemonic index. */
export const defiRoles = {
  /** Stakers on both venues holding 1, 10 and 25 NFTs (boost 1.000x, 1.075x, 1.150x). */
  stakers: { one: 10, ten: 11, twentyFive: 12 },
  /** Top burner of the ranking, proposer and the voter that carries quorum (3,000,000 MG). */
  proposer: 13,
  /** Two more burners of this week's ranking. */
  burners: [14, 15],
  /** Twelve holders of 1 NFT each; with the accounts above they fill 18 of the 20 council seats. */
  council: [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27],
  /** The circuit breaker's five guardians. */
  guardians: [16, 17, 18, 19, 20],
  /** Receives the treasury share of the emission controller. */
  treasury: 28,
} as const

export const defiAccount = (index: DefiAccountIndex) => defiAccountAddresses[index]

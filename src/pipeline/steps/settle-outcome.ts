export type SettleOutcome =
  | { kind: 'settled'; transaction: `0x${string}` }
  | { kind: 'refused'; reason: string }
  /** Not settled yet, but the authorization may still settle: look again later. */
  | { kind: 'pending' }

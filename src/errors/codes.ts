/**
 * The catalogue of every public error code: its HTTP status and what it means.
 * Every code an operation can raise is listed here, and docs/agents/errors.md documents each
 * one (its table is generated from this list; a test keeps the two in step).
 */
export const errorCodes = {
  INVALID_INPUT: { status: 400, meaning: 'A parameter or body field is missing or malformed.' },
  INVALID_ADDRESS: { status: 400, meaning: 'An address is not 0x followed by 40 hex digits, or is the zero address where a wallet is expected.' },
  INVALID_AMOUNT: { status: 400, meaning: 'An amount is not a positive decimal ETH value or wei integer.' },
  INVALID_IMAGE: { status: 400, meaning: 'The portrait is not a decodable JPEG, PNG or WebP within the limits.' },
  INVALID_PAYMENT: { status: 400, meaning: 'A payment is present but malformed.' },
  BURN_VERIFICATION_FAILED: { status: 400, meaning: 'A burn transaction does not prove the required transfers.' },
  INVALID_SIGNATURE: { status: 400, meaning: 'A signature does not recover to the expected signer.' },
  SIGNATURE_EXPIRED: { status: 400, meaning: 'A signed deadline or validity window has passed.' },
  INSUFFICIENT_BALANCE: { status: 400, meaning: 'The wallet holds too few tokens, too little allowance, or too little ETH for a plan\'s value and gas.' },
  PLAN_WOULD_REVERT: { status: 400, meaning: 'A simulation of the plan from the sending wallet shows a step would revert or be refused; details name the step and the decoded reason.' },
  UNKNOWN_CHAIN: { status: 400, meaning: 'The source chain is not one the service can route from.' },
  PAYMENT_REQUIRED: { status: 402, meaning: 'The request needs an x402 payment, or the payment did not settle.' },
  UNAUTHORIZED: { status: 401, meaning: 'An operator endpoint (/metrics) needs its bearer token.' },
  FORBIDDEN_HOST: { status: 403, meaning: 'The Host or Origin header names a site this service does not answer for (DNS-rebinding protection): ALLOWED_HOSTS lists the others.' },
  NOT_ELIGIBLE: { status: 403, meaning: 'The wallet holds neither service tokens nor looksmaxxed NFTs.' },
  NOT_FOUND: { status: 404, meaning: 'The resource does not exist.' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'The path exists but not for this method.' },
  BURN_ALREADY_USED: { status: 409, meaning: 'A burn transaction was already claimed by a submission.' },
  PAYMENT_ID_CONFLICT: { status: 409, meaning: 'An x402 payment identifier was already used with another payment or request.' },
  NOT_MINTED: { status: 409, meaning: 'The submission is not minted yet: its receipts and feedback plan exist once it is.' },
  PAYMENT_IN_PROGRESS: { status: 409, meaning: 'The first request with this x402 payment identifier is still being processed.' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The request body exceeds the size limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'The request body is not JSON.' },
  RATE_LIMITED: { status: 429, meaning: 'Too many requests from this client; retry after the given delay.' },
  INTERNAL_ERROR: { status: 500, meaning: 'An unexpected failure; the request id identifies it in the logs.' },
  RELAY_FAILED: { status: 500, meaning: 'The relayed transaction failed on chain.' },
  UPSTREAM_FAILED: { status: 502, meaning: 'A dependency (RPC, DEX quoter, image generator, IPFS) failed.' },
  DEX_QUOTE_FAILED: { status: 502, meaning: 'The DEX quoter could not price the trade.' },
  NOT_DEPLOYED: { status: 503, meaning: 'A contract the operation needs has no address on this network (MegaETH mainnet records none for the DeFi side); details.contracts names it and details.variable the setting that supplies it.' },
  SERVICE_UNAVAILABLE: { status: 503, meaning: 'The service is starting or shutting down, or this instance serves as many event streams as it may.' },
} as const satisfies Record<string, { status: number; meaning: string }>

export type ErrorCode = keyof typeof errorCodes

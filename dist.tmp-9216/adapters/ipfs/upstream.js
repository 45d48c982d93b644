import { AppError } from "../../errors/app-error.js";
/** A pinning service failed: 429 and 5xx may pass on retry, other answers will not. */
export function pinFailed(service, status, cause) {
    const retryable = status === undefined || status === 429 || status >= 500;
    return new AppError('UPSTREAM_FAILED', `The IPFS pinning service ${service} failed${status ? ` with HTTP ${status}` : ''}.`, { cause, retryable });
}
//# sourceMappingURL=upstream.js.map
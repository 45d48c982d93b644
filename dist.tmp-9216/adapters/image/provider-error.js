import { AppError } from "../../errors/app-error.js";
/**
 * A hosted generator failed. Rate limits and server errors may pass on retry; other client
 * errors (bad key, refused input) will not. The provider's text stays in `cause` only.
 */
export function providerFailed(provider, status, cause) {
    const retryable = status === undefined || status === 429 || status >= 500;
    return new AppError('UPSTREAM_FAILED', `The image provider ${provider} failed${status ? ` with HTTP ${status}` : ''}.`, { cause, retryable });
}
//# sourceMappingURL=provider-error.js.map
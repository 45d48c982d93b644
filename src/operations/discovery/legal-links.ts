/** Where the terms and privacy pages of this service are (both served by it: get-terms.ts, get-privacy.ts). */
export const TERMS_PATH = '/terms'
export const PRIVACY_PATH = '/privacy'

export function legalLinks(base: string) {
  return { terms: `${base}${TERMS_PATH}`, privacy: `${base}${PRIVACY_PATH}` }
}

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const precise = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 })

/** 0x1234…abcd: enough to recognise an address or a hash at a glance. */
export function shortHex(hex: string): string {
  return hex.length > 14 ? `${hex.slice(0, 6)}…${hex.slice(-4)}` : hex
}

export function formatTokens(amount: number): string {
  return whole.format(amount)
}

export function formatNumber(value: number): string {
  return precise.format(value)
}

/** A date as the reader's locale writes it, e.g. "25/11/2026, 10:02:03". */
export function formatTime(iso: string | number): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString()
}

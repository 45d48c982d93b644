/**
 * A configuration value that must never reach logs or responses: it prints as a placeholder
 * and only `reveal()` gives the value, so leaking it takes a deliberate call.
 */
export type Secret = {
  reveal(): string
  toString(): string
  toJSON(): string
}

const placeholder = '[secret]'

export function secret(value: string): Secret {
  return Object.freeze({
    reveal: () => value,
    toString: () => placeholder,
    toJSON: () => placeholder,
    [Symbol.for('nodejs.util.inspect.custom')]: () => placeholder,
  })
}

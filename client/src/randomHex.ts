/**
 * Random hexadecimal text from the Web Crypto API, which both extension hosts have (Node's
 * `crypto` module is not in the web worker's).
 *
 * @example randomHex(8) // '3f9a0c1d2e4b5a69'
 */
export function randomHex(bytes: number): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

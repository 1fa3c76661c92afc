/**
 * Node's `setImmediate` for the web worker bundle (esbuild `inject`): the shared server code
 * yields to the event loop between files with it; a worker has only timers and message ports.
 */
export function setImmediate(callback: (...args: unknown[]) => void, ...args: unknown[]): ReturnType<typeof setTimeout> {
  return setTimeout(() => callback(...args), 0);
}

export function clearImmediate(handle: ReturnType<typeof setTimeout> | undefined): void {
  clearTimeout(handle);
}

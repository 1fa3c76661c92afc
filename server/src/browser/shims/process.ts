/**
 * The little of Node's `process` that the shared server code touches, for the web worker
 * bundle (esbuild `inject`): no arguments, no events, no memory figures.
 */
export const process = {
  argv: [] as string[],
  env: {} as Record<string, string | undefined>,
  platform: 'browser',
  pid: 0,
  versions: {} as Record<string, string>,
  on: (): void => undefined,
  memoryUsage: () => ({ rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 }),
};

/**
 * `node:url` in the web worker bundle. A web worker has no local files, so no URI is a path:
 * `fileURLToPath` always throws, and every code path that would read the disk with Node's fs
 * stops there (the shared code catches it as an unreadable file).
 */
export function fileURLToPath(url: string | URL): string {
  throw new TypeError(`No local file paths in a web worker: ${String(url)}`);
}

export function pathToFileURL(path: string): URL {
  throw new TypeError(`No local file paths in a web worker: ${path}`);
}

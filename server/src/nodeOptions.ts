/**
 * The options of the node process the Node server runs in: the extension starts it with them
 * (client/src/extension.ts), and so do the benchmarks and the memory tests, so that what they
 * measure is what an editor gets. Other editors start it the same way:
 * `node --max-semi-space-size=8 --expose-gc dist/server.js --stdio`.
 *
 * - `--max-semi-space-size=8`: a young generation of at most two 8 MB semi-spaces. A bigger one
 *   (64 MB, used before) held up to 130 MB of memory once a big digest had grown it, which alone
 *   is ten times a 12 MB digest; the answers of a 10,000-paper digest are made with little enough
 *   garbage now that the end-to-end times did not move with it (README, "Memory of big
 *   documents").
 * - `--expose-gc`: the server collects its garbage after a big document closes and once idle
 *   after the workspace scan, so that an idle server gives the memory back.
 *
 * @example
 * spawn(process.execPath, [...SERVER_NODE_OPTIONS, 'dist/server.js', '--stdio'])
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=8', '--expose-gc'];

// How the web extension's bundles (esbuild.mjs) differ from the Node ones: a few modules are
// swapped for their web worker counterparts, and Node's built-in modules for the shims in
// server/src/browser/shims (a web worker has no disk, no process, no Buffer).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const shims = path.join(root, 'server/src/browser/shims');

/** Modules of the Node server (without extension) and what takes their place in the browser. */
const swapped = new Map([
  ['server/src/host', 'server/src/browser/host.ts'],
  ['server/src/serialised', 'server/src/browser/serialised.ts'],
].map(([from, to]) => [path.join(root, from), path.join(root, to)]));

const builtins = {
  path: 'path.ts',
  url: 'url.ts',
  fs: 'noDisk.ts',
  'fs/promises': 'noDisk.ts',
  crypto: 'noDisk.ts',
  os: 'noDisk.ts',
  worker_threads: 'noWorker.ts',
};

/** @type {import('esbuild').Plugin} */
const browserModules = {
  name: 'paper-digest-browser-modules',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = swapped.get(path.resolve(args.resolveDir, args.path).replace(/\.(ts|js)$/, ''));
      return target ? { path: target } : undefined;
    });
    build.onResolve({ filter: /^(node:)?(path|url|fs|fs\/promises|crypto|os|worker_threads)$/ }, (args) => ({
      path: path.join(shims, builtins[args.path.replace(/^node:/, '')]),
    }));
    build.onResolve({ filter: /^vscode-languageserver\/node$/ }, () => ({ path: path.join(root, 'node_modules/vscode-languageserver/lib/browser/main.js') }));
  },
};

/** @type {import('esbuild').BuildOptions} */
export const browserServerOptions = {
  plugins: [browserModules],
  inject: [path.join(shims, 'process.ts'), path.join(shims, 'timers.ts')],
  mainFields: ['browser', 'module', 'main'],
};

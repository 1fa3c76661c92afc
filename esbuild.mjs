// Bundles the client, the language server and the command-line checker into dist/, and the web
// extension (client and web worker server) into dist/browser/.
// `node esbuild.mjs --watch` rebuilds on change; `--production` minifies.
import * as esbuild from 'esbuild';
import { browserServerOptions } from './scripts/browserBuild.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

const builds = [
  { ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  { ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' },
  // The worker thread that reads digests for the Papers tree while the server starts (firstLevelRead.ts).
  { ...common, entryPoints: ['server/src/firstLevelWorker.ts'], outfile: 'dist/firstLevelWorker.js' },
  { ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // The statistics dashboard's page: a browser script (and its style sheet) with no access to anything else.
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['client/webview/stats/main.ts'], outfile: 'dist/webview/stats.js' },
  // The web extension: the client for VS Code's web worker extension host, the server in a web worker.
  { ...common, ...browserServerOptions, platform: 'browser', format: 'cjs', target: 'es2022', entryPoints: ['client/src/browser/extension.ts'], outfile: 'dist/browser/client.js', external: ['vscode'] },
  { ...common, ...browserServerOptions, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['server/src/server.ts'], outfile: 'dist/browser/server.js' },
];

if (watch) {
  for (const options of builds) {
    const context = await esbuild.context(options);
    await context.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

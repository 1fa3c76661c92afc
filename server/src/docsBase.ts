/**
 * Where the rule pages are: the file: URI of the docs/rules folder that ships beside the bundles,
 * so that a diagnostic's link opens the page offline. The server and the command line both use it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The file: URI of docs/rules/ (ending with `/`), looked for in the folders above `from`
 * (dist/ in the bundles, out/server/src when compiled by tsc).
 *
 * @example rulesDocsBase(__dirname) // 'file:///home/me/.vscode/extensions/paper-digest-0.1.0/docs/rules/'
 */
export function rulesDocsBase(from: string): string {
  let dir = from;
  for (let up = 0; up < 5; up++) {
    const candidate = path.join(dir, 'docs', 'rules');
    if (fs.existsSync(path.join(candidate, 'README.md'))) {
      return pathToFileURL(candidate).href + '/';
    }
    dir = path.dirname(dir);
  }
  return pathToFileURL(path.join(from, '..', 'docs', 'rules')).href + '/';
}

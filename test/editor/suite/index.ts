/**
 * The editor test suite's entry: runs every `*.test.js` beside this file with Mocha inside the
 * extension host. The same module serves @vscode/test-electron and the code-server runner.
 */
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  for (const file of fs.readdirSync(__dirname).filter((name) => name.endsWith('.test.js')).sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} editor tests failed`)) : resolve()));
  });
}

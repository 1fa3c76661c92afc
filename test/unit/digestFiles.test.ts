/**
 * Which files are digests, for every way the workspace is read: the Node server's disk scan, the
 * client-backed workspace of the web extension, and the glob the client gives findFiles and its
 * file watcher (VS Code's globs match case-sensitively), so that all take the same names.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { ClientWorkspaceDigests, DigestFileSource } from '../../server/src/clientWorkspace';
import { DIGEST_FILE_GLOB, isDigestFileName, isInFolders } from '../../server/src/digestFiles';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { fileUri, WorkspaceDigests } from '../../server/src/workspace';
import type { ReadDigestFile } from '../../server/src/workspaceFilesProtocol';
import { digest, entryLines } from '../support/fixtures';
import { temporaryFolders } from '../support/tempFolders';

/**
 * A regular expression for the part of VS Code's glob syntax the client's globs use: `**` + `/`
 * (any folders), `*` (within a segment), `{a,b}` (no nesting) and `[xy]` character sets; the rest
 * is literal and, as in VS Code, case-sensitive.
 */
function globRegExp(glob: string): RegExp {
  let source = '';
  let inBraces = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (glob.startsWith('**/', i)) {
      source += '(?:[^/]*/)*';
      i += 2;
    } else if (c === '*') {
      source += '[^/]*';
    } else if (c === '{') {
      source += '(?:';
      inBraces = true;
    } else if (c === '}') {
      source += ')';
      inBraces = false;
    } else if (c === ',' && inBraces) {
      source += '|';
    } else if (c === '[') {
      const end = glob.indexOf(']', i);
      source += glob.slice(i, end + 1);
      i = end;
    } else {
      source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

const NAMES = [
  'a.digest',
  'B.DIGEST',
  'c.Digest',
  'd.digest.txt',
  'E.DIGEST.TXT',
  'f.Digest.Txt',
  'g.digest.TXT',
  '论文.DiGeSt',
  'h.digest.bak',
  'i.txt',
  'digest',
  'j.digesttxt',
  'k.DIGEST.md',
];

const temp = temporaryFolders();

describe('Digest file names', () => {
  test('Should take the endings in any case and nothing else', () => {
    assert.deepEqual(
      NAMES.filter(isDigestFileName),
      ['a.digest', 'B.DIGEST', 'c.Digest', 'd.digest.txt', 'E.DIGEST.TXT', 'f.Digest.Txt', 'g.digest.TXT', '论文.DiGeSt'],
    );
  });

  test('Should find with the client glob the names the Node scan takes, in any case and folder', () => {
    const glob = globRegExp(DIGEST_FILE_GLOB);
    for (const name of NAMES) {
      for (const relative of [name, `sub/${name}`, `a/b c/${name}`]) {
        assert.equal(glob.test(relative), isDigestFileName(name), `${DIGEST_FILE_GLOB} on ${relative}`);
      }
    }
    // The glob matcher of this test itself is case-sensitive, as VS Code's is.
    assert.equal(globRegExp('**/*.{digest,digest.txt}').test('B.DIGEST'), false);
  });

  test('Should tell URIs in the workspace folders from the rest', () => {
    const folders = ['vscode-vfs://github/me/papers', 'file:///home/me/notes/'];
    assert.ok(isInFolders('vscode-vfs://github/me/papers', folders));
    assert.ok(isInFolders('vscode-vfs://github/me/papers/a.digest', folders));
    assert.ok(isInFolders('file:///home/me/notes/b.digest', folders));
    assert.ok(!isInFolders('vscode-vfs://github/me/papers2/a.digest', folders));
    assert.ok(!isInFolders('file:///home/me/other.digest', folders));
    assert.ok(isInFolders('file:///anywhere.digest', []));
  });

  test('Should index the same files in the browser as the desktop scan of the same folder', async () => {
    const root = temp.make('paper-digest-names-');
    const texts = new Map<string, string>();
    NAMES.forEach((name, i) => {
      const text = digest(entryLines(`P${i}`));
      fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
      fs.writeFileSync(path.join(root, 'sub', name), text);
      texts.set(`sub/${name}`, text);
    });
    const desktop = new WorkspaceIndex();
    await new WorkspaceDigests(desktop).setFolders([fileUri(root)]);

    // The client's findFiles with its glob over the same names, read as workspace.fs would.
    const folder = 'vscode-vfs://github/me/papers';
    const glob = globRegExp(DIGEST_FILE_GLOB);
    const source: DigestFileSource = {
      findDigestFiles: async (base, maxResults) =>
        [...texts.keys()].filter((relative) => glob.test(relative)).map((relative) => `${base}/${relative}`).slice(0, maxResults),
      readDigestFiles: async (uris) => uris.map((uri): ReadDigestFile => ({ uri, text: texts.get(uri.slice(folder.length + 1))!, mtime: 1 })),
    };
    const browser = new WorkspaceIndex();
    await new ClientWorkspaceDigests(browser, source).setFolders([folder]);

    const names = (index: WorkspaceIndex, base: string): string[] =>
      index.files().map((file) => decodeURIComponent(file.uri.slice(base.length + 1))).sort();
    const expected = NAMES.filter(isDigestFileName).map((name) => `sub/${name}`).sort();
    assert.deepEqual(names(desktop, fileUri(root)), expected);
    assert.deepEqual(names(browser, folder), expected);
  });
});

/**
 * Exports saved to a file of this disk (client/src/localFiles.ts): written atomically by the
 * server's writer, an existing file's mode kept, a link refused with a message in the display
 * language, and nothing left beside the file when the write fails.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { writeLocalFile } from '../../client/src/localFiles';
import { temporaryFolders } from '../support/tempFolders';

const folders = temporaryFolders();
const scratch = (): string => folders.make('paper-digest-local-files-');

describe('writeLocalFile', () => {
  test('Should replace a file whole and keep its mode, and write a new one', async () => {
    const folder = scratch();
    const file = path.join(folder, 'papers.bib');
    await writeLocalFile(file, '@article{a}\n', 'en');
    assert.equal(fs.readFileSync(file, 'utf8'), '@article{a}\n');
    fs.chmodSync(file, 0o600);
    await writeLocalFile(file, '@article{b}\n', 'en');
    assert.equal(fs.readFileSync(file, 'utf8'), '@article{b}\n');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(folder), ['papers.bib']);
  });

  test('Should refuse a link, in the display language, and leave what it points to and the folder as they were', async () => {
    const folder = scratch();
    const outside = scratch();
    fs.writeFileSync(path.join(outside, 'kept.bib'), 'kept');
    const link = path.join(folder, 'papers.bib');
    fs.symlinkSync(path.join(outside, 'kept.bib'), link);
    await assert.rejects(writeLocalFile(link, 'new', 'en'), (error: Error) => /link/i.test(error.message) && !/[\u4e00-\u9fff]/.test(error.message));
    await assert.rejects(writeLocalFile(link, 'new', 'zh-cn'), (error: Error) => /[\u4e00-\u9fff]/.test(error.message));
    assert.equal(fs.readFileSync(path.join(outside, 'kept.bib'), 'utf8'), 'kept');
    assert.ok(fs.lstatSync(link).isSymbolicLink());
    assert.deepEqual(fs.readdirSync(folder), ['papers.bib']);
  });

  test('Should leave no temporary file when the write fails', async () => {
    const folder = scratch();
    // A folder where the file should be: the rename fails after the temporary file is written.
    fs.mkdirSync(path.join(folder, 'papers.bib'));
    await assert.rejects(writeLocalFile(path.join(folder, 'papers.bib'), 'new', 'en'), (error: Error) => error.message.length > 0);
    assert.deepEqual(fs.readdirSync(folder), ['papers.bib']);
  });
});

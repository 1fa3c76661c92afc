/**
 * The answers in the forms a client reads (server/src/clientForms.ts): Markdown read as plain
 * text, outlines flattened, workspace edits as changes.
 */
import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { actionsAsCommands, clientForms, flatSymbols, markdownToPlain, withChanges } from '../../server/src/clientForms';
import { escapeMarkdown } from '../../server/src/service/text';

describe('clientForms', () => {
  test('Should read what a client declares, LSP’s defaults for what it leaves out', () => {
    assert.deepEqual(clientForms({}), { markdownHover: true, markdownDocumentation: true, hierarchicalSymbols: false, documentChanges: false, codeActionLiterals: false });
    assert.deepEqual(clientForms(null), clientForms({}));
    assert.deepEqual(
      clientForms({ workspace: { workspaceEdit: { documentChanges: true } }, textDocument: { hover: { contentFormat: ['plaintext'] }, completion: { completionItem: { documentationFormat: ['plaintext', 'markdown'] } }, documentSymbol: { hierarchicalDocumentSymbolSupport: true }, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: [] } } } } }),
      { markdownHover: false, markdownDocumentation: true, hierarchicalSymbols: true, documentChanges: true, codeActionLiterals: true },
    );
    assert.equal(clientForms({ textDocument: { hover: { contentFormat: 'markdown' } } }).markdownHover, true, 'malformed: as absent');
  });

  test('Should give code actions as commands: an edit of the document as the fix command, a command as itself', () => {
    const uri = 'file:///a.digest';
    const edit = { range: { start: { line: 1, character: 2 }, end: { line: 1, character: 3 } }, newText: '；' };
    const open = { title: 'Open the other copy', command: 'paperDigest.openLocation', arguments: ['file:///b.digest'] };
    const commands = actionsAsCommands(
      [
        { title: 'Use ；', kind: 'quickfix', edit: { documentChanges: [{ textDocument: { uri, version: 3 }, edits: [edit] }] } },
        { title: 'Fix all', kind: 'source.fixAll.paperDigest', edit: { changes: { [uri]: [edit, edit] } } },
        { title: 'Open it', kind: 'quickfix', command: open },
        { title: 'Elsewhere', kind: 'quickfix', edit: { changes: { 'file:///b.digest': [edit] } } },
        open,
      ],
      'paperDigest.applyFix',
      uri,
      3,
    );
    assert.deepEqual(commands, [
      { title: 'Use ；', command: 'paperDigest.applyFix', arguments: [uri, 3, [edit]] },
      { title: 'Fix all', command: 'paperDigest.applyFix', arguments: [uri, 3, [edit, edit]] },
      { ...open, title: 'Open it' },
      open,
    ]);
  });

  test('Should read escaped document text back as it was written (property)', () => {
    // Printable text: escapeMarkdown makes control characters U+FFFD, which is what a reader sees.
    const printable = fc.string({ unit: fc.oneof(fc.constantFrom(...'*_[]()`\\<>&"\'!#-.:=|~{}'), fc.string({ minLength: 1, maxLength: 1 }), fc.constantFrom('中', '文', '·')) }).filter((text) => !/[\u0000-\u001f\u007f]/.test(text));
    fc.assert(
      fc.property(printable, (text) => {
        assert.equal(markdownToPlain(escapeMarkdown(text)), text);
        assert.equal(markdownToPlain(`**${escapeMarkdown(text)}** · *${escapeMarkdown(text)}*`), `${text} · ${text}`);
      }),
      { numRuns: 500 },
    );
  });

  test('Should make the rules between a hover\u2019s parts one blank line, and keep document text written ---', () => {
    assert.equal(markdownToPlain('**Title** · *标题*\n\n---\n\nTags: a\n\n---\n\n---\n\nNote'), 'Title · 标题\n\nTags: a\n\nNote');
    assert.equal(markdownToPlain('---\n\nalone\n\n---'), 'alone');
    assert.equal(markdownToPlain(`**${escapeMarkdown('---')}**\n\n---\n\nx`), '---\n\nx');
  });

  test('Should make a link its text and a code span its content as written', () => {
    assert.equal(markdownToPlain('[https://arxiv\\.org/abs/2401\\.00001](https://arxiv.org/abs/2401.00001)'), 'https://arxiv.org/abs/2401.00001');
    assert.equal(markdownToPlain('Tags: `a\\b`, `c*d`'), 'Tags: a\\b, c*d');
    assert.equal(markdownToPlain('a\n\n---\n\nb'), 'a\n\nb');
  });

  test('Should flatten an outline under its containers, and edits into changes by URI', () => {
    const range = { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } };
    const flat = flatSymbols([{ name: 'H', kind: 3, range, selectionRange: range, children: [{ name: 'P', kind: 5, range, selectionRange: range }] }], 'file:///a.digest');
    assert.deepEqual(flat, [
      { name: 'H', kind: 3, location: { uri: 'file:///a.digest', range } },
      { name: 'P', kind: 5, location: { uri: 'file:///a.digest', range }, containerName: 'H' },
    ]);
    const edits = withChanges({ documentChanges: [{ textDocument: { uri: 'file:///a', version: 1 }, edits: [{ range, newText: 'x' }] }, { textDocument: { uri: 'file:///b', version: null }, edits: [{ range, newText: 'y' }] }, { textDocument: { uri: 'file:///a', version: 1 }, edits: [{ range, newText: 'z' }] }] });
    assert.deepEqual(edits, { changes: { 'file:///a': [{ range, newText: 'x' }, { range, newText: 'z' }], 'file:///b': [{ range, newText: 'y' }] } });
    const creates = { documentChanges: [{ kind: 'create' as const, uri: 'file:///c' }] };
    assert.equal(withChanges(creates), creates, 'a file operation has no such form');
  });
});

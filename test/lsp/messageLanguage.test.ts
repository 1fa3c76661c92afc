/**
 * The message language over stdio: the server reads `paperDigest.messageLanguage` with
 * `workspace/configuration`, resolves `auto` with the `locale` of `initialize`, and publishes
 * diagnostics, rule links, quick-fix titles, the reading part of a title's hover, completion
 * details, the tooltips of arXiv links and rename refusals in that language; a changed setting
 * republishes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { digest, entryLines, readFixture } from '../support/fixtures';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';
import { temporaryFolders } from '../support/tempFolders';

interface Published {
  uri: string;
  version?: number;
  diagnostics: { code: string; message: string; range: unknown; codeDescription?: { href: string } }[];
}

const HAN = /[\u4e00-\u9fff]/;
const TEXT = readFixture('diagnostics/category-case.digest');

/** A server whose `paperDigest.messageLanguage` is `setting.value`. */
async function start(locale: string | undefined, setting: { value: unknown }): Promise<LspClient> {
  assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
  return LspClient.start({
    rootUri: null,
    locale,
    onServerRequest: (method, params: any) =>
      method === 'workspace/configuration' ? params.items.map((item: { section?: string }) => (item.section === 'paperDigest.messageLanguage' ? setting.value : null)) : null,
  });
}

/**
 * A server (display language English) whose client answers `paperDigest.messageLanguage` with
 * `value` only once `answer()` is called, as a client does late (a window just reloaded).
 */
async function startAnsweringLate(value: unknown): Promise<{ client: LspClient; answer: () => void }> {
  let answer: () => void = () => undefined;
  const late = new Promise<void>((resolve) => (answer = resolve));
  const client = await LspClient.start({
    rootUri: null,
    locale: 'en',
    onServerRequest: (method, params: any) =>
      method === 'workspace/configuration' ? late.then(() => params.items.map((item: { section?: string }) => (item.section === 'paperDigest.messageLanguage' ? value : null))) : null,
  });
  return { client, answer };
}

describe('lsp: the message language', () => {
  const clients: LspClient[] = [];
  after(async () => {
    await Promise.all(clients.map((client) => client.shutdown()));
  });

  const published = (client: LspClient, uri: string, predicate: (p: Published) => boolean): Promise<Published> =>
    client.waitForNotification<Published>('textDocument/publishDiagnostics', (p) => p.uri === uri && predicate(p), undefined, true);

  const quickFixTitles = async (client: LspClient, uri: string, diagnostics: Published['diagnostics']): Promise<string[]> => {
    const actions = await client.request<{ title: string }[]>('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[0].range, context: { diagnostics, only: ['quickfix'] } });
    return actions.map((action) => action.title);
  };

  test('Should follow a Chinese display language with auto, and link the Chinese rule page; hovers in Chinese too', async () => {
    const client = await start('zh-cn', { value: 'auto' });
    clients.push(client);
    const uri = 'file:///virtual/zh.digest';
    client.openDocument(uri, TEXT);
    const { diagnostics } = await published(client, uri, (p) => p.version === 1 && p.diagnostics.length > 0);
    assert.equal(diagnostics[0].code, 'category-case');
    assert.match(diagnostics[0].message, HAN, diagnostics[0].message);
    assert.doesNotMatch(diagnostics[0].message, /wrong case| — /, diagnostics[0].message);
    const href = diagnostics[0].codeDescription?.href ?? '';
    assert.match(href, /\/docs\/rules\/zh-cn\/category-case\.md$/);
    assert.ok(fs.existsSync(new URL(href)), href);
    assert.deepEqual(await quickFixTitles(client, uri, diagnostics), ['改为“cs.AI”（人工智能）']);
    const lines = TEXT.split('\n');
    const line = lines.findIndex((l) => l.includes('CS.ai'));
    const result = await client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line, character: lines[line].indexOf('CS.ai') + 1 } });
    assert.match(result.contents.value, /按此写法不是 arXiv 代码/, result.contents.value);
    assert.doesNotMatch(result.contents.value, /case-sensitive/, result.contents.value);
    // The outline's own words (the heading's count of papers), the titles as written.
    const outline = await client.request<{ name: string; detail?: string }[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.match(outline[0].detail ?? '', /^\d+ 篇论文$/, JSON.stringify(outline[0]));
  });

  test('Should give the reading part of a title’s hover and the completion details in the language of the setting', async () => {
    const zh = await start('en', { value: 'zh-cn' });
    const en = await start('zh-cn', { value: 'en' });
    clients.push(zh, en);
    const uri = 'file:///virtual/reading.digest';
    const lines = TEXT.split('\n');
    const title = lines.findIndex((l) => l.startsWith('Sparse Probes'));
    const topicLine = lines.findIndex((l) => l.startsWith('专题命中'));
    const answers = await Promise.all(
      [zh, en].map(async (client) => {
        client.openDocument(uri, TEXT);
        await published(client, uri, (p) => p.version === 1);
        const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line: title, character: 2 } });
        const completion = await client.request<{ items: { label: string; detail?: string }[] }>('textDocument/completion', { textDocument: { uri }, position: { line: topicLine, character: '专题命中 数'.length } });
        return { hover: hover.contents.value, details: completion.items.map((item) => item.detail ?? '') };
      }),
    );
    const [inChinese, inEnglish] = answers;
    assert.match(inChinese.hover, /\n\n---\n\n未读 · ☆ 未加星标 · 新\n\n\*\*兴趣分 0\*\*（没有匹配的兴趣）$/, inChinese.hover);
    assert.match(inEnglish.hover, /\n\n---\n\nUnread · ☆ Not starred · New\n\n\*\*Score 0\*\* \(no interest matched\)$/, inEnglish.hover);
    assert.ok(inChinese.details.length > 0, 'topic completions');
    assert.ok(inChinese.details.every((detail) => /^专题 · \d+ 次$/.test(detail)), inChinese.details.join(' | '));
    assert.ok(inEnglish.details.every((detail) => /^Topic · (?:once|\d+ times)$/.test(detail)), inEnglish.details.join(' | '));
  });

  test('Should refuse a rename and title the links of arXiv identifiers in the language of the setting', async () => {
    const zh = await start('en', { value: 'zh-cn' });
    const en = await start('zh-cn', { value: 'en' });
    clients.push(zh, en);
    const uri = 'file:///virtual/rename.digest';
    const text = digest(entryLines('X', { comments: 'Comments Extends arXiv:2507.07996.' }));
    const [inChinese, inEnglish] = await Promise.all(
      [zh, en].map(async (client) => {
        client.openDocument(uri, text);
        await published(client, uri, (p) => p.version === 1);
        const refusal = await client.request('textDocument/rename', { textDocument: { uri }, position: { line: 8, character: 7 }, newName: 'Kyoto（京都）' }).then(
          () => 'accepted',
          (error: Error) => error.message,
        );
        const links = await client.request<{ target: string; tooltip?: string }[]>('textDocument/documentLink', { textDocument: { uri } });
        return { refusal, tooltips: links.filter((link) => link.target.startsWith('https://arxiv.org/')).map((link) => link.tooltip) };
      }),
    );
    assert.equal(inChinese.refusal, '新的机构名不能包含“；”“;”“（”“）”“纠错”或不成对的括号');
    assert.equal(inEnglish.refusal, "A new institution name cannot contain '；', ';', '（', '）', '纠错' or a bracket not closed");
    assert.deepEqual(inChinese.tooltips, ['2507.07996 的 arXiv 摘要页']);
    assert.deepEqual(inEnglish.tooltips, ['arXiv abstract page of 2507.07996']);
  });

  test('Should word the outline, hovers, completion and links asked before the setting is read in the language of the setting', async () => {
    // The client answers the setting late (a window just reloaded): the answers asked meanwhile
    // wait for it, and are not worded (and kept per version) in the default language.
    const { client, answer } = await startAnsweringLate('zh-cn');
    clients.push(client);
    const uri = 'file:///virtual/late.digest';
    const text = digest(entryLines('X', { comments: 'Comments Extends arXiv:2507.07996.' }), entryLines('Y'));
    const lines = text.split('\n');
    client.openDocument(uri, text);
    const topicLine = lines.findIndex((l) => l.startsWith('专题命中'));
    const categoryLine = lines.findIndex((l) => l.includes('cs.CL'));
    const asked = Promise.all([
      client.request<{ detail?: string }[]>('textDocument/documentSymbol', { textDocument: { uri } }),
      client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: { line: categoryLine, character: lines[categoryLine].indexOf('cs.CL') + 1 } }),
      client.request<{ items: { detail?: string }[] }>('textDocument/completion', { textDocument: { uri }, position: { line: topicLine, character: '专题命中 数'.length } }),
      client.request<{ target: string; tooltip?: string }[]>('textDocument/documentLink', { textDocument: { uri } }),
    ]);
    // Answered only once the setting is: nothing before.
    let early = false;
    void asked.then(() => (early = true));
    await client.request('textDocument/foldingRange', { textDocument: { uri } });
    assert.equal(early, false, 'the answers waited for the setting');
    answer();
    const [outline, hover, completion, links] = await asked;
    assert.equal(outline[0].detail, '2 篇论文');
    assert.match(hover?.contents.value ?? '', HAN, hover?.contents.value);
    assert.doesNotMatch(hover?.contents.value ?? '', /Computation and Language ·|papers/, hover?.contents.value);
    assert.ok(completion.items.length > 0 && completion.items.every((item) => /^专题 · \d+ 次$/.test(item.detail ?? '')), JSON.stringify(completion.items));
    assert.deepEqual(links.filter((link) => link.target.startsWith('https://arxiv.org/')).map((link) => link.tooltip), ['2507.07996 的 arXiv 摘要页']);
  });

  test('Should answer a hover asked before the setting is read for the version it was asked on, or not at all', async () => {
    const { client, answer } = await startAnsweringLate(null);
    clients.push(client);
    const uri = 'file:///virtual/moved.digest';
    const text = digest(entryLines('X'));
    const lines = text.split('\n');
    const categoryLine = lines.findIndex((l) => l.includes('cs.CL'));
    client.openDocument(uri, text);
    const hover = client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: { line: categoryLine, character: lines[categoryLine].indexOf('cs.CL') + 1 } });
    // The category replaced while the answer waits: the position is of version 1.
    const at = lines[categoryLine].indexOf('cs.CL');
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: categoryLine, character: at }, end: { line: categoryLine, character: at + 5 } }, text: 'cs.AI' }] });
    await client.request('textDocument/foldingRange', { textDocument: { uri } });
    answer();
    assert.equal(await hover, null, 'not the hover of what is at that place in version 2');
    // Asked again, on version 2, it is answered.
    const again = await client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: { line: categoryLine, character: at + 1 } });
    assert.match(again?.contents.value ?? '', /Artificial Intelligence/);
  });

  test('Should not wait past a moment for a client that never answers the setting', async () => {
    const client = await LspClient.start({
      rootUri: null,
      locale: 'zh-cn',
      onServerRequest: (method) => (method === 'workspace/configuration' ? new Promise(() => undefined) : null),
    });
    clients.push(client);
    const uri = 'file:///virtual/never.digest';
    client.openDocument(uri, digest(entryLines('X')));
    // Answered, in the language the server had without the setting.
    const outline = await client.request<{ detail?: string }[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.match(outline[0].detail ?? '', /^1 (paper|篇论文)$/, JSON.stringify(outline[0]));
  });

  test('Should give English alone for auto with another display language, and both by default', async () => {
    const english = await start('de', { value: 'auto' });
    const both = await start('zh-cn', { value: null });
    clients.push(english, both);
    const uri = 'file:///virtual/en.digest';
    english.openDocument(uri, TEXT);
    both.openDocument(uri, TEXT);
    const [inEnglish, inBoth] = await Promise.all([english, both].map((client) => published(client, uri, (p) => p.version === 1 && p.diagnostics.length > 0)));
    assert.doesNotMatch(inEnglish.diagnostics[0].message, HAN, inEnglish.diagnostics[0].message);
    assert.match(inEnglish.diagnostics[0].codeDescription?.href ?? '', /\/docs\/rules\/category-case\.md$/);
    assert.equal(inBoth.diagnostics[0].message.split(' — ')[0], inEnglish.diagnostics[0].message);
    assert.match(inBoth.diagnostics[0].message.split(' — ')[1] ?? '', HAN, inBoth.diagnostics[0].message);
    assert.deepEqual(await quickFixTitles(english, uri, inEnglish.diagnostics), ["Write 'cs.AI' (Artificial Intelligence)"]);
    assert.deepEqual(await quickFixTitles(both, uri, inBoth.diagnostics), ["Write 'cs.AI' (Artificial Intelligence) — 改为“cs.AI”（人工智能）"]);
  });

  test('Should write its log in the language of its messages: what the scan skipped, a broken interests.json', async () => {
    const root = temporaryFolders().make('paper-digest-log-');
    fs.writeFileSync(path.join(root, 'a.digest'), digest(entryLines('X')));
    fs.writeFileSync(path.join(root, 'latin1.digest'), Buffer.from([0x41, 0xe9, 0x0a]));
    fs.mkdirSync(path.join(root, '.paper-digest'));
    // A problem of the file's contents, which names no file of its own.
    fs.writeFileSync(path.join(root, '.paper-digest', 'interests.json'), '{"keywords":["reasoning"],"bogus":1}');
    const client = await LspClient.start({
      rootUri: pathToFileURL(root).href,
      locale: 'zh-cn',
      onServerRequest: (method, params: any) => (method === 'workspace/configuration' ? params.items.map((item: { section?: string }) => (item.section === 'paperDigest.messageLanguage' ? 'auto' : null)) : null),
    });
    clients.push(client);
    const logged = (pattern: RegExp): Promise<{ message: string }> => client.waitForNotification<{ message: string }>('window/logMessage', (params) => pattern.test(params.message), undefined, true);
    // Said before the setting is read (both languages) or after (Chinese alone): the Chinese is there either way.
    const scan = await logged(/已索引/);
    assert.match(scan.message, /已索引 1 个摘要集文件（1 篇论文），用时 \d+ 毫秒；跳过 1 个：1 个不是 UTF-8 文本。/);
    // The papers' state is read once the setting is known: Chinese alone, naming the file (with its folder), not the setting.
    await client.request('paperDigest/papersTree', { grouping: 'topic', filter: '' });
    const interests = await logged(/bogus/);
    assert.equal(interests.message, `Paper Digest: ${path.join(root, '.paper-digest', 'interests.json')} 中的兴趣设置：未知字段 "bogus"`);
  });

  test('Should republish in the new language when the setting changes', async () => {
    const setting = { value: 'en' as unknown };
    const client = await start('en', setting);
    clients.push(client);
    const uri = 'file:///virtual/change.digest';
    client.openDocument(uri, TEXT);
    const before = await published(client, uri, (p) => p.version === 1 && p.diagnostics.length > 0);
    assert.doesNotMatch(before.diagnostics[0].message, HAN);
    setting.value = 'zh-cn';
    client.notify('workspace/didChangeConfiguration', { settings: null });
    const now = await published(client, uri, (p) => p.version === 1 && p.diagnostics.length > 0 && HAN.test(p.diagnostics[0].message));
    assert.doesNotMatch(now.diagnostics[0].message, / — /, now.diagnostics[0].message);
  });
});

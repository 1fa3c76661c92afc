/**
 * Diagnostics, quick fixes and fix-all over stdio: the bundled server (`node dist/server.js
 * --stdio`, built by `node esbuild.mjs`) publishes the diagnostics of open documents for their
 * latest version only, pulls its settings with `workspace/configuration`, answers code actions
 * and runs `paperDigest.fixAll` through `workspace/applyEdit`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { applyEdits } from '../../server/src/service/edits';
import { computeDiagnostics } from '../../server/src/service/features/diagnostics';
import { parseDigest } from '../../server/src/service/parser';
import { digest, entryLines, readFixture } from '../support/fixtures';
import { LspClient, SERVER_BUNDLE } from '../support/lspClient';

interface Published {
  uri: string;
  version?: number;
  diagnostics: { code: string; range: unknown; severity: number; codeDescription?: { href: string }; data?: unknown }[];
}

describe('lsp: diagnostics, quick fixes and fix-all over stdio', () => {
  let client: LspClient;
  /** What `workspace/configuration` answers for `paperDigest.diagnostics`. */
  let settings: unknown = {};
  const applied: { label?: string; edit: any }[] = [];

  const published = (uri: string): Published[] => client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri).map((n) => n.params as Published);
  const publishedFor = (uri: string, predicate: (p: Published) => boolean): Promise<Published> =>
    client.waitForNotification<Published>('textDocument/publishDiagnostics', (p) => p.uri === uri && predicate(p), undefined, true);

  before(async () => {
    assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
    client = await LspClient.start({
      rootUri: null,
      onServerRequest: (method, params: any) => {
        if (method === 'workspace/configuration') {
          return params.items.map((item: { section?: string }) => (item.section === 'paperDigest.diagnostics' ? settings : null));
        }
        if (method === 'workspace/applyEdit') {
          applied.push(params);
          return { applied: true };
        }
        return null;
      },
    });
  });

  after(async () => {
    await client?.shutdown();
  });

  test('Should announce quick fixes, fix-all and the fix-all command', () => {
    const capabilities = client.initializeResult.capabilities;
    assert.deepEqual(capabilities.codeActionProvider.codeActionKinds, ['quickfix', 'source.fixAll.paperDigest']);
    assert.deepEqual(capabilities.executeCommandProvider.commands, ['paperDigest.fixAll', 'paperDigest.applyFix']);
  });

  test('Should publish the diagnostics of an opened digest with links to rule pages that exist', async () => {
    const uri = 'file:///virtual/open.digest';
    client.openDocument(uri, readFixture('diagnostics/category-case.digest'));
    const result = await publishedFor(uri, (p) => p.version === 1);
    assert.deepEqual(result.diagnostics.map((d) => d.code), ['category-case']);
    const href = result.diagnostics[0].codeDescription?.href ?? '';
    assert.match(href, /^file:\/\/.*\/docs\/rules\/category-case\.md$/);
    assert.ok(fs.existsSync(new URL(href)), href);
  });

  test('Should publish, after a burst of changes, only sets that match the text of their version, the last one last', async () => {
    const uri = 'file:///virtual/typing.digest';
    const texts = new Map<number, string>();
    const good = digest(entryLines('A'), entryLines('B'));
    texts.set(1, good);
    client.openDocument(uri, good);
    // Type fast: thirty versions, alternating between texts with different problems.
    for (let version = 2; version <= 31; version++) {
      const categories = version % 3 === 0 ? 'CS.lg' : version % 3 === 1 ? 'cs.XX' : 'cs.LG';
      const text = digest(entryLines('A'), entryLines('B', { topicHits: `专题命中 数学推理 ：reasoning(abstract)；分类 ${categories}、cs.CL` }));
      texts.set(version, text);
      client.changeDocument(uri, text, version);
    }
    const last = await publishedFor(uri, (p) => p.version === 31);
    const expected = computeDiagnostics(parseDigest(texts.get(31)!));
    assert.deepEqual(last.diagnostics.map((d) => [d.code, d.range]), expected.map((d) => [d.code, d.range]));
    // Every set published for this document matches its version's text, in increasing versions.
    const all = published(uri);
    assert.ok(all.length < 10, `${all.length} sets published for 31 versions typed in a burst`);
    let previous = 0;
    for (const set of all) {
      assert.ok(set.version! >= previous);
      previous = set.version!;
      const want = computeDiagnostics(parseDigest(texts.get(set.version!)!));
      assert.deepEqual(set.diagnostics.map((d) => d.code), want.map((d) => d.code), `version ${set.version}`);
    }
  });

  test('Should answer a quick fix for a published diagnostic, with an edit for the current version', async () => {
    const uri = 'file:///virtual/open.digest';
    const [diagnostic] = (await publishedFor(uri, (p) => p.version === 1)).diagnostics;
    const actions = await client.request<any[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic], only: ['quickfix'] },
    });
    assert.equal(actions.length, 1);
    assert.equal(actions[0].isPreferred, true);
    const change = actions[0].edit.documentChanges[0];
    assert.deepEqual(change.textDocument, { uri, version: 1 });
    assert.equal(change.edits[0].newText, 'cs.AI');
  });

  test('Should answer source.fixAll.paperDigest, as on save', async () => {
    const uri = 'file:///virtual/open.digest';
    const actions = await client.request<any[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.paperDigest'], triggerKind: 2 },
    });
    assert.deepEqual(actions.map((a) => a.kind), ['source.fixAll.paperDigest']);
  });

  test('Should run paperDigest.fixAll by sending workspace/applyEdit for the document version', async () => {
    // open.digest holds one of its papers under its English title: swapping this file's titles
    // would make a copy of it, which fix-all holds back (a new duplicate-paper in one of them).
    client.closeDocument('file:///virtual/open.digest');
    const uri = 'file:///virtual/fix.digest';
    const text = readFixture('fixes/all-mistakes.digest');
    client.openDocument(uri, text, 'paper-digest', 4);
    const result = await client.request('workspace/executeCommand', { command: 'paperDigest.fixAll', arguments: [uri] });
    assert.equal(result.applied, true);
    assert.ok(result.edits > 0);
    const edit = applied[applied.length - 1].edit.documentChanges[0];
    assert.deepEqual(edit.textDocument, { uri, version: 4 });
    assert.equal(applyEdits(text, edit.edits), readFixture('fixes/all-mistakes.fixed.digest'));
    const nothing = await client.request('workspace/executeCommand', { command: 'paperDigest.fixAll', arguments: ['file:///virtual/not-open.digest'] });
    assert.deepEqual(nothing, { applied: false, edits: 0 });
    // Asked for a version the document is no longer at: nothing is fixed, nothing sent.
    const stale = uri.replace('fix.digest', 'stale.digest');
    client.openDocument(stale, text, 'paper-digest', 5);
    const sent = applied.length;
    assert.deepEqual(await client.request('workspace/executeCommand', { command: 'paperDigest.fixAll', arguments: [stale, 3] }), { applied: false, edits: 0 });
    // A version of another type is no version: nothing is fixed either.
    for (const version of ['5', {}, [5], true]) {
      assert.deepEqual(await client.request('workspace/executeCommand', { command: 'paperDigest.fixAll', arguments: [stale, version] }), { applied: false, edits: 0 }, JSON.stringify(version));
    }
    assert.equal(applied.length, sent);
    const current = await client.request('workspace/executeCommand', { command: 'paperDigest.fixAll', arguments: [stale, 5] });
    assert.equal(current.applied, true);
    assert.deepEqual(applied[applied.length - 1].edit.documentChanges[0].textDocument, { uri: stale, version: 5 });
  });

  test('Should follow the settings: a rule off, another rule re-graded, then diagnostics off', async () => {
    const uri = 'file:///virtual/settings.digest';
    client.openDocument(uri, readFixture('fixes/all-mistakes.digest'));
    const defaults = await publishedFor(uri, (p) => p.version === 1);
    assert.ok(defaults.diagnostics.some((d) => d.code === 'category-case'));
    settings = { enable: true, rules: { 'category-case': 'off', 'duplicate-paper': 'hint' } };
    const count = published(uri).length;
    client.notify('workspace/didChangeConfiguration', { settings: null });
    const changed = await client.waitForNotification<Published>('textDocument/publishDiagnostics', (p) => p.uri === uri && published(uri).length > count);
    assert.ok(!changed.diagnostics.some((d) => d.code === 'category-case'));
    assert.ok(changed.diagnostics.filter((d) => d.code === 'duplicate-paper').every((d) => d.severity === 4));
    settings = { enable: false };
    const again = published(uri).length;
    client.notify('workspace/didChangeConfiguration', { settings: null });
    const off = await client.waitForNotification<Published>('textDocument/publishDiagnostics', (p) => p.uri === uri && published(uri).length > again);
    assert.deepEqual(off.diagnostics, []);
    settings = {};
    client.notify('workspace/didChangeConfiguration', { settings: null });
  });

  test('Should publish an empty set when a document is closed', async () => {
    const uri = 'file:///virtual/closing.digest';
    client.openDocument(uri, readFixture('diagnostics/empty-summary.digest'));
    await publishedFor(uri, (p) => p.diagnostics.length > 0);
    client.closeDocument(uri);
    const cleared = await client.waitForNotification<Published>('textDocument/publishDiagnostics', (p) => p.uri === uri && p.diagnostics.length === 0);
    assert.equal(cleared.version, undefined);
  });
});

describe('lsp: pull diagnostics (textDocument/diagnostic, workspace/diagnostic) over stdio', () => {
  type Report = { kind: 'full' | 'unchanged'; uri: string; resultId?: string; items?: { code: string; severity: number; message: string }[] };
  const PULL_CAPABILITIES = {
    workspace: { workspaceFolders: true, configuration: true, didChangeWatchedFiles: { dynamicRegistration: false }, diagnostics: { refreshSupport: true } },
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: true },
      publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true },
      diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    },
  };
  let root: string;
  let client: LspClient;
  let settings: Record<string, unknown> = {};
  let refreshes = 0;
  const uriOf = (name: string): string => pathToFileURL(path.join(root, name)).href;
  const workspacePull = async (previous: Report[] = []): Promise<Map<string, Report>> => {
    const result = await client.request<{ items: Report[] }>('workspace/diagnostic', { previousResultIds: previous.filter((r) => r.resultId).map((r) => ({ uri: r.uri, value: r.resultId })) });
    return new Map(result.items.map((item) => [item.uri, item]));
  };
  const refreshWaiters: (() => void)[] = [];
  /** Resolves once the server has asked for more than `count` refreshes. */
  const refreshAfter = (count: number, what: string): Promise<void> =>
    refreshes > count
      ? Promise.resolve()
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no workspace/diagnostic/refresh while waiting for ${what}`)), 10_000);
          refreshWaiters.push(() => {
            if (refreshes > count) {
              clearTimeout(timer);
              resolve();
            }
          });
        });
  /** Pulls until `accept` holds: now, then after each refresh the server asks for since `since`. */
  const pullUntil = async (since: number, previous: Report[], accept: (reports: Map<string, Report>) => boolean, what: string): Promise<Map<string, Report>> => {
    let seen = since;
    let last = await workspacePull(previous);
    while (!accept(last)) {
      await refreshAfter(seen, `${what} (last answer ${JSON.stringify([...last.values()])})`);
      seen = refreshes;
      last = await workspacePull(previous);
    }
    return last;
  };

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-pull-'));
    fs.writeFileSync(path.join(root, 'a.digest'), digest(entryLines('A'), entryLines('B')));
    fs.writeFileSync(path.join(root, 'b.digest'), digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 CS.lg、cs.CL' })));
    client = await LspClient.start({
      rootUri: pathToFileURL(root).href,
      capabilities: PULL_CAPABILITIES,
      onServerRequest: (method, params: any) => {
        if (method === 'workspace/configuration') {
          return params.items.map((item: { section?: string }) => (item.section === 'paperDigest.diagnostics' ? settings : null));
        }
        if (method === 'workspace/diagnostic/refresh') {
          refreshes++;
          refreshWaiters.splice(0).forEach((wake) => wake());
        }
        return null;
      },
    });
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should announce workspace diagnostics to a client that pulls, and not to one that does not', () => {
    assert.deepEqual(client.initializeResult.capabilities.diagnosticProvider, { identifier: 'paper-digest', interFileDependencies: true, workspaceDiagnostics: true });
  });

  test('Should report the problems of digests that are not open, once per paper for a duplicate, and unchanged for the same content', async () => {
    const first = await workspacePull();
    const a = first.get(uriOf('a.digest'));
    const b = first.get(uriOf('b.digest'));
    assert.ok(a && b, JSON.stringify([...first.keys()]));
    assert.deepEqual(a.items?.map((d) => d.code), [], 'the first copy of A is not reported');
    assert.deepEqual(b.items?.map((d) => d.code).sort(), ['category-case', 'duplicate-paper']);
    assert.equal(b.items?.find((d) => d.code === 'duplicate-paper')?.severity, 3, 'information');
    const second = await workspacePull([...first.values()]);
    assert.deepEqual([...second.values()].map((r) => r.kind), ['unchanged', 'unchanged']);
    assert.equal(client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics').length, 0, 'nothing pushed to a client that pulls');
  });

  test('Should answer textDocument/diagnostic for an open document per version, and leave it out of the workspace report', async () => {
    const uri = uriOf('b.digest');
    client.openDocument(uri, fs.readFileSync(path.join(root, 'b.digest'), 'utf8'));
    const report = await client.request<Report>('textDocument/diagnostic', { textDocument: { uri } });
    assert.equal(report.kind, 'full');
    assert.deepEqual(report.items?.map((d) => d.code).sort(), ['category-case', 'duplicate-paper']);
    const again = await client.request<Report>('textDocument/diagnostic', { textDocument: { uri }, previousResultId: report.resultId });
    assert.equal(again.kind, 'unchanged');
    client.changeDocument(uri, digest(entryLines('C')), 2);
    const changed = await client.request<Report>('textDocument/diagnostic', { textDocument: { uri }, previousResultId: report.resultId });
    assert.equal(changed.kind, 'full');
    assert.deepEqual(changed.items, []);
    const workspace = await workspacePull();
    assert.ok(!workspace.has(uri), 'the open document is pulled on its own');
    client.closeDocument(uri);
  });

  test('Should not report the papers of an untitled document (an export) as copies of the workspace’s', async () => {
    // An export of the workspace's papers opened in a new editor: its papers are the workspace's
    // on purpose. Asked of a dated digest's paper, and of one the export holds twice.
    const refreshed = refreshes;
    fs.writeFileSync(path.join(root, '2026-05-01.digest'), digest(entryLines('D')));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('2026-05-01.digest'), type: 1 }] });
    await pullUntil(refreshed, [], (reports) => reports.has(uriOf('2026-05-01.digest')), 'the dated digest in the workspace');
    const uri = 'untitled:Untitled-1';
    client.openDocument(uri, digest(entryLines('D'), entryLines('E'), entryLines('E')));
    const report = await client.request<Report>('textDocument/diagnostic', { textDocument: { uri } });
    const duplicates = (report.items ?? []).filter((d) => d.code === 'duplicate-paper');
    assert.deepEqual(duplicates.map((d) => d.message.split(' — ')[0]), ['The same paper is already listed earlier in this file'], JSON.stringify(duplicates));
    client.closeDocument(uri);
    const gone = refreshes;
    fs.rmSync(path.join(root, '2026-05-01.digest'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('2026-05-01.digest'), type: 3 }] });
    await pullUntil(gone, [], (reports) => !reports.has(uriOf('2026-05-01.digest')) || reports.get(uriOf('2026-05-01.digest'))?.items?.length === 0, 'the dated digest gone');
  });

  test('Should ask for a refresh and report a file changed on disk', async () => {
    const before = await workspacePull();
    const refreshed = refreshes;
    fs.writeFileSync(path.join(root, 'a.digest'), digest(entryLines('A'), entryLines('B', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.XX' })));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf('a.digest'), type: 2 }] });
    const after = await pullUntil(refreshed, [...before.values()], (reports) => reports.get(uriOf('a.digest'))?.items?.some((d) => d.code === 'unknown-category') === true, 'the new problem of a.digest');
    assert.equal(after.get(uriOf('a.digest'))?.kind, 'full');
    // The pull may answer with the change before the server's refresh request comes in (it is
    // sent once the file is read): waited for, not asserted at once.
    await refreshAfter(refreshed, 'the server asking the client to pull again');
  });

  test('Should keep to open files with paperDigest.diagnostics.scope openFiles, clearing what the workspace report showed', async () => {
    const before = await workspacePull();
    assert.ok([...before.values()].some((r) => (r.items?.length ?? 0) > 0));
    const refreshed = refreshes;
    settings = { scope: 'openFiles' };
    client.notify('workspace/didChangeConfiguration', { settings: {} });
    const after = await pullUntil(refreshed, [...before.values()], (reports) => [...reports.values()].every((r) => r.kind === 'full' && r.items?.length === 0), 'empty reports for every file');
    assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort());
    const quiet = await workspacePull([...after.values()]);
    assert.equal(quiet.size, 0, 'nothing more once cleared');
    settings = {};
  });
});

describe('lsp: quick fixes of a document of many problems', () => {
  test('Should work out the problems in slices, answering a hover meanwhile, and answer a cancelled request at once', async () => {
    const client = await LspClient.start({ rootUri: null });
    try {
      // 600 papers of 100 unknown categories each: 60,000 problems, each with its suggestions.
      const codes = (i: number): string => Array.from({ length: 100 }, (_, k) => `zz.Q${i}x${k}`).join('、');
      const uri = 'file:///virtual/many.digest';
      const text = digest(...Array.from({ length: 600 }, (_, i) => entryLines(`P${i}`, { topicHits: `专题命中 数学推理 ：reasoning(abstract)；分类 ${codes(i)}` })));
      client.openDocument(uri, text, 'paper-digest');
      const last = parseDigest(text).entries[599].englishTitle!.value.range;
      const order: string[] = [];
      const actions = client.request<unknown[]>('textDocument/codeAction', { textDocument: { uri }, range: last, context: { diagnostics: [] } }).then((answer) => (order.push('codeAction'), answer));
      const hover = client.request('textDocument/hover', { textDocument: { uri }, position: last.start }).then(() => order.push('hover'));
      await Promise.all([actions, hover]);
      assert.deepEqual(order, ['hover', 'codeAction']);
      // Another such document: a request cancelled as soon as it is sent stops working out its
      // problems and is answered with nothing (or an error saying so); what comes after it is answered.
      const other = 'file:///virtual/many-more.digest';
      client.openDocument(other, text.replace(/zz\.Q/g, 'yy.R'), 'paper-digest');
      const id = client.nextId;
      const cancelled = client.request('textDocument/codeAction', { textDocument: { uri: other }, range: last, context: { diagnostics: [] } }).then(
        (value) => value,
        () => null,
      );
      client.notify('$/cancelRequest', { id });
      const hoverAfter = client.request('textDocument/hover', { textDocument: { uri: other }, position: last.start });
      assert.equal(await cancelled, null);
      await hoverAfter;
      assert.ok(!client.stderr.includes('Error'), client.stderr);
    } finally {
      await client.shutdown();
    }
  });
});

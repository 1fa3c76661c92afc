/**
 * The reading workflow over stdio: the bundled server on a temporary workspace of dated
 * digests, with interests from the client's settings; every reading request, the reading
 * groupings of the tree, CodeLens, hover, `stateChanged`, changes of the state file made
 * outside, and a corrupt state file.
 */
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_CAPABILITIES, LspClient, SERVER_BUNDLE } from '../support/lspClient';
import type {
  DigestsResult,
  DocumentPapersResult,
  ExportPapersResult,
  PapersTreeResult,
  RankedPapersResult,
  SetPaperStateResult,
  StateChangedParams,
  StateInfoResult,
} from '../../server/src/protocol';
import type { PaperNode, PapersGroupNode } from '../../server/src/service/features/tree';
import { readingWorkspace, READING_INTERESTS } from '../support/readingFixtures';

const CHANGED = 2;

describe('lsp: the reading workflow over stdio', () => {
  let root: string;
  let client: LspClient;
  let codeLensEnable = true;
  /** The `paperDigest.interests` the client answers with. */
  let interestsSetting: unknown = READING_INTERESTS;
  /** How many times the server asked the client to refresh its CodeLenses. */
  let codeLensRefreshes = 0;
  const uriOf = (relative: string): string => pathToFileURL(path.join(root, relative)).href;
  const stateFile = (): string => path.join(root, '.paper-digest', 'state.json');
  const tree = (grouping: string, parentId?: string, extra: object = {}): Promise<PapersTreeResult> => client.request('paperDigest/papersTree', { grouping, filter: '', parentId, ...extra });
  const setState = (scope: object, change: object): Promise<SetPaperStateResult> => client.request('paperDigest/setPaperState', { scope, change });
  const SPARSE = 'sparse probes for arithmetic circuits in small transformers';

  before(async () => {
    assert.ok(fs.existsSync(SERVER_BUNDLE), 'run `node esbuild.mjs` first: dist/server.js is missing');
    root = readingWorkspace();
    client = await LspClient.start({
      rootUri: pathToFileURL(root).href,
      // A client that refreshes its CodeLenses when asked (as VS Code does).
      capabilities: { ...DEFAULT_CAPABILITIES, workspace: { ...DEFAULT_CAPABILITIES.workspace, codeLens: { refreshSupport: true } } },
      onServerRequest: (method, params: any) => {
        if (method === 'workspace/codeLens/refresh') {
          codeLensRefreshes++;
          return null;
        }
        if (method !== 'workspace/configuration') {
          return null;
        }
        return params.items.map((item: { section: string }) => (item.section === 'paperDigest.interests' ? interestsSetting : item.section === 'paperDigest.codeLens.enable' ? codeLensEnable : null));
      },
    });
  });

  after(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('Should list the digests oldest first by the date in their names, with paper, unread and new counts', async () => {
    const { digests } = await client.request<DigestsResult>('paperDigest/digests', {});
    assert.deepEqual(
      digests.map((digest) => [path.basename(new URL(digest.uri).pathname), digest.date, digest.paperCount, digest.unreadCount, digest.newCount]),
      [
        ['2026-05-01.digest', '2026-05-01', 3, 3, 3],
        ['2026-05-02.digest.txt', '2026-05-02', 2, 2, 1],
      ],
    );
    assert.ok(digests.every((digest) => typeof digest.mtime === 'number'), JSON.stringify(digests));
  });

  test('Should give every paper node its key, state, score with reasons, new flag and arXiv search URL', async () => {
    const [older] = (await tree('file')).nodes as PapersGroupNode[];
    const papers = (await tree('file', older.id)).nodes as PaperNode[];
    const sparse = papers.find((paper) => paper.paperKey === SPARSE)!;
    assert.ok(sparse, JSON.stringify(papers.map((paper) => paper.paperKey)));
    assert.equal(sparse.read, false);
    assert.equal(sparse.starred, false);
    assert.deepEqual(sparse.tags, []);
    assert.equal(sparse.isNew, true);
    assert.equal(sparse.score, 2 * 2 + 1, JSON.stringify(sparse.reasons));
    assert.ok(sparse.reasons.some((reason) => reason.includes("keyword 'arithmetic' in the title, counted double")), JSON.stringify(sparse.reasons));
    assert.ok(sparse.reasons.some((reason) => reason.includes('institution Tsinghua University')), JSON.stringify(sparse.reasons));
    assert.equal(sparse.arxivSearchUrl, 'https://arxiv.org/search/?query=Sparse%20Probes%20for%20Arithmetic%20Circuits%20in%20Small%20Transformers&searchtype=title');
  });

  test('Should mark a repeat in a later digest with a link to where it was first seen', async () => {
    const files = (await tree('file')).nodes as PapersGroupNode[];
    const later = (await tree('file', files[1].id)).nodes as PaperNode[];
    const repeat = later.find((paper) => paper.paperKey === SPARSE)!;
    assert.equal(repeat.isNew, false);
    assert.equal(repeat.firstSeen?.uri, uriOf('2026-05-01.digest'));
    assert.equal(repeat.firstSeen?.range.start.line, 2);
    const fresh = await tree('new');
    assert.equal(fresh.paperCount, 4, 'the repeat is left out of the new grouping');
  });

  test('Should rank papers by score, highest first, each paper once, hiding what the interests hide', async () => {
    const ranked = await client.request<RankedPapersResult>('paperDigest/rankedPapers', { limit: 10 });
    assert.deepEqual(
      ranked.papers.map((paper) => [paper.paperKey, paper.score]),
      [
        [SPARSE, 5],
        ['self-verifying chains of thought for olympiad geometry', 1],
        ['graph rewriting for query planning', 0],
      ],
    );
    assert.equal(ranked.total, 3, 'the paper with a score at or below hideBelow is hidden');
    // With the authors and institutions triage shows.
    assert.deepEqual(ranked.papers[0].authors, ['Mei Tanaka', 'Omar Haddad', 'Lin Qiu']);
    assert.deepEqual(ranked.papers[0].institutions, [{ name: 'Kyoto University', nameZh: '京都大学' }, { name: 'Tsinghua University', nameZh: '清华大学' }]);
    assert.deepEqual(ranked.papers[2].institutions, [], 'none when the entry names none');
    const forYou = await tree('forYou');
    assert.deepEqual(forYou.nodes.map((node) => (node as PapersGroupNode).label), ['Recommended', 'Other papers']);
  });

  test('Should star a paper, write the state file, notify the change and show it in the tree and the starred grouping', async () => {
    const changed = client.waitForNotification<StateChangedParams>('paperDigest/stateChanged', () => true);
    const refreshes = codeLensRefreshes;
    const result = await setState({ keys: [SPARSE] }, { starred: true, addTags: ['circuits', ' probes '], note: 'Try <b>this</b> on our model' });
    assert.deepEqual(result, { changed: 1, readOnly: false });
    const notification = await changed;
    assert.equal(notification.readOnly, false);
    // The CodeLenses (Star / Unstar) are asked again.
    await waitFor(async () => (codeLensRefreshes > refreshes ? true : undefined));
    const written = JSON.parse(fs.readFileSync(stateFile(), 'utf8'));
    assert.equal(written.version, 1);
    assert.deepEqual(written.papers[SPARSE].tags, ['circuits', 'probes']);
    assert.equal(written.papers[SPARSE].starred, true);
    assert.equal(written.papers[SPARSE].title, 'Sparse Probes for Arithmetic Circuits in Small Transformers');
    const starred = await tree('starred');
    assert.equal(starred.paperCount, 2, 'both places of the paper are starred');
    const info = await client.request<StateInfoResult>('paperDigest/stateInfo', {});
    assert.deepEqual(info.tags, ['circuits', 'probes']);
    assert.equal(info.stateFiles[0].stateFile, stateFile());
  });

  test('Should mark all papers of a file read, and count the unread papers of the workspace once per paper', async () => {
    const result = await setState({ uri: uriOf('2026-05-01.digest') }, { read: true });
    assert.equal(result.changed, 3);
    const info = await client.request<StateInfoResult>('paperDigest/stateInfo', {});
    assert.equal(info.unreadCount, 1, 'only the new paper of the later digest is unread');
    const unread = await tree('unread');
    assert.equal(unread.paperCount, 1);
    const onlyUnread = await tree('topic', undefined, { unreadOnly: true });
    assert.equal(onlyUnread.paperCount, 1);
  });

  test('Should mark a group read by its id in a tree, and report when no paper matches', async () => {
    await setState({ uri: uriOf('2026-05-01.digest') }, { read: false });
    const roots = (await tree('forYou')).nodes as PapersGroupNode[];
    const recommended = roots.find((node) => node.label === 'Recommended')!;
    const result = await setState({ groupId: recommended.id, grouping: 'forYou' }, { read: true });
    assert.equal(result.changed, 2);
    const none = await setState({ keys: ['no such paper'] }, { read: true });
    assert.equal(none.changed, 0);
    assert.match(none.message ?? '', /No paper matched/);
    // A tag past the limit is refused with a message, never stored cut short.
    const long = await setState({ keys: [SPARSE] }, { addTags: ['t'.repeat(65)] });
    assert.equal(long.changed, 0);
    assert.equal(long.readOnly, false);
    assert.match(long.message ?? '', /is longer than 64 characters; nothing was changed/);
    // The statistics' filter of a topic marks the papers the view shows with it.
    const byTopic = await setState({ filter: 'topic:数学推理' }, { addTags: ['by-topic'] });
    assert.ok(byTopic.changed > 0, JSON.stringify(byTopic));
    assert.equal((await setState({ filter: 'topic:数学推理' }, { removeTags: ['by-topic'] })).changed, byTopic.changed);
  });

  test('Should give the papers of a document with their state for decorations', async () => {
    const { papers } = await client.request<DocumentPapersResult>('paperDigest/documentPapers', { uri: uriOf('2026-05-01.digest') });
    assert.deepEqual(
      papers.map((paper) => [paper.line, paper.starred, paper.read, paper.isNew]),
      [
        [2, true, true, true],
        [18, false, true, true],
        [32, false, false, true],
      ],
    );
    const unknown = await client.request<DocumentPapersResult>('paperDigest/documentPapers', { uri: uriOf('nothing.digest') });
    assert.deepEqual(unknown.papers, []);
  });

  test('Should export the starred papers as BibTeX and each format with a count', async () => {
    const bibtex = await client.request<ExportPapersResult>('paperDigest/exportPapers', { format: 'bibtex', scope: { starredOnly: true } });
    assert.equal(bibtex.count, 1, 'a paper in two digests is exported once');
    assert.match(bibtex.text, /^@misc\{tanaka_sparse,/);
    for (const format of ['csljson', 'ris', 'csv', 'markdown']) {
      const result = await client.request<ExportPapersResult>('paperDigest/exportPapers', { format, scope: {} });
      assert.equal(result.count, 4, format);
      assert.ok(result.text.includes('Sparse Probes for Arithmetic Circuits'), format);
    }
    const bad = await client.request<ExportPapersResult>('paperDigest/exportPapers', { format: 'docx', scope: {} });
    assert.deepEqual(bad, { text: '', count: 0 });
  });

  test('Should show CodeLenses above each title with the client commands, and none when the setting is off', async () => {
    const uri = uriOf('2026-05-01.digest');
    client.openDocument(uri, fs.readFileSync(path.join(root, '2026-05-01.digest'), 'utf8'));
    const lenses: any[] = await client.request('textDocument/codeLens', { textDocument: { uri } });
    assert.equal(lenses.length, 12);
    assert.deepEqual(
      lenses.slice(0, 4).map((lens) => [lens.range.start.line, lens.command.title, lens.command.command]),
      [
        [2, '★ Unstar', 'paperDigest.unstar'],
        [2, 'Mark unread', 'paperDigest.markUnread'],
        [2, 'Open on arXiv', 'paperDigest.openOnArxiv'],
        [2, 'Copy BibTeX', 'paperDigest.copyBibtex'],
      ],
    );
    assert.deepEqual(lenses[0].command.arguments, [{ uri, paperKey: SPARSE }]);
    assert.match(lenses[2].command.arguments[0].url, /^https:\/\/arxiv\.org\/search\/\?query=Sparse%20Probes/);
    codeLensEnable = false;
    client.notify('workspace/didChangeConfiguration', { settings: null });
    const off = await waitFor(async () => {
      const answer: any[] = await client.request('textDocument/codeLens', { textDocument: { uri } });
      return answer.length === 0 ? answer : undefined;
    });
    assert.deepEqual(off, []);
    codeLensEnable = true;
    client.notify('workspace/didChangeConfiguration', { settings: null });
  });

  test('Should warn once that interests are left out of the ranking, also when none of the setting is kept', async () => {
    // A misspelt kind and a weight that is no number: none of the setting is kept, and the
    // folder's interests.json (none here) is read instead; its problems were in no log or message.
    const warnings = (): string[] => client.notifications.filter((n) => n.method === 'window/showMessage' && n.params.type === 2).map((n) => n.params.message as string);
    const before = warnings().length;
    interestsSetting = { keyword: ['reasoning'], categories: [{ term: 'cs.LG', weight: 'high' }] };
    try {
      client.notify('workspace/didChangeConfiguration', { settings: null });
      const warning = await client.waitForNotification('window/showMessage', (params: any) => params.type === 2 && /interests are left out/.test(params.message));
      assert.match(warning.message, /^Paper Digest: some interests are left out of the ranking: the setting paperDigest\.interests of .*: .*\(and \d+ more, in the Paper Digest output\)$/, warning.message);
      await client.waitForNotification('window/logMessage', (params: any) => /paperDigest\.interests/.test(params.message), undefined, true);
      // Asked again with the same setting: not shown again.
      client.notify('workspace/didChangeConfiguration', { settings: null });
      await client.request('paperDigest/stateInfo', {});
      await new Promise((resolve) => setImmediate(resolve));
      const marker = `marker-${Date.now()}`;
      interestsSetting = READING_INTERESTS;
      client.notify('workspace/didChangeConfiguration', { settings: { marker } });
      await waitFor(async () => ((await tree('forYou')).nodes.length > 1 ? true : undefined));
      assert.equal(warnings().length - before, 1, warnings().join('\n'));
    } finally {
      interestsSetting = READING_INTERESTS;
      client.notify('workspace/didChangeConfiguration', { settings: null });
    }
  });

  test('Should say in For you how to set interests when none is set', async () => {
    interestsSetting = {};
    try {
      client.notify('workspace/didChangeConfiguration', { settings: null });
      const bands = await waitFor(async () => {
        const nodes = (await tree('forYou')).nodes as PapersGroupNode[];
        return nodes.length === 1 && /no interests set yet/.test(nodes[0].detail ?? '') ? nodes : undefined;
      });
      assert.match(bands[0].detail ?? '', /^no interests set yet: add keywords, topics, categories, authors or institutions to the setting paperDigest\.interests \(or to \.paper-digest\/interests\.json, which the command line reads too\)$/);
      assert.equal(bands[0].id.endsWith(':zero'), true);
    } finally {
      interestsSetting = READING_INTERESTS;
      client.notify('workspace/didChangeConfiguration', { settings: null });
    }
    // With interests again: the bands as before, no guide.
    const again = await waitFor(async () => {
      const nodes = (await tree('forYou')).nodes as PapersGroupNode[];
      return nodes.length > 1 ? nodes : undefined;
    });
    assert.ok(again.every((node) => !/no interests set/.test(node.detail ?? '')), JSON.stringify(again.map((node) => node.detail)));
  });

  test('Should show score, reasons, state, tags and the note escaped in the hover of a title', async () => {
    const uri = uriOf('2026-05-01.digest');
    const hover: any = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 3 } });
    const text: string = hover.contents.value;
    assert.match(text, /\*\*Score 5\*\*/);
    assert.match(text, /keyword (?:\\?'|&#39;)arithmetic(?:\\?'|&#39;) in the title\\?, counted double/);
    assert.match(text, /★ Starred/);
    assert.match(text, /`circuits`, `probes`/);
    assert.ok(text.includes('Try &lt;b&gt;this&lt;'), text);
    assert.ok(!text.includes('<b>'), text);
    // Past the end of the title's line: no hover, as on any other line.
    for (const character of [500, 100_000]) {
      assert.equal(await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 2, character } }), null, String(character));
    }
  });

  test('Should pick up a change of the state file made outside, on its file event', async () => {
    const state = JSON.parse(fs.readFileSync(stateFile(), 'utf8'));
    state.papers['graph rewriting for query planning'] = { starred: true, updated: new Date().toISOString() };
    fs.writeFileSync(stateFile(), JSON.stringify(state));
    const changed = client.waitForNotification<StateChangedParams>('paperDigest/stateChanged', () => true);
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(stateFile()).href, type: CHANGED }] });
    await changed;
    const starred = await tree('starred');
    assert.equal(starred.paperCount, 3);
    // And a write afterwards keeps the outside change (merge before write).
    await setState({ keys: [SPARSE] }, { starred: false });
    const written = JSON.parse(fs.readFileSync(stateFile(), 'utf8'));
    assert.equal(written.papers['graph rewriting for query planning'].starred, true);
    assert.equal(written.papers[SPARSE].starred, undefined);
  });

  test('Should report a corrupt state file, leave it untouched and refuse changes (read-only)', async () => {
    const corrupt = '{ "version": 1, "papers": { oops';
    fs.writeFileSync(stateFile(), corrupt);
    const changed = client.waitForNotification<StateChangedParams>('paperDigest/stateChanged', (params) => params.readOnly);
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(stateFile()).href, type: CHANGED }] });
    const notification = await changed;
    assert.match(notification.problem ?? '', /state\.json is corrupt: not valid JSON/);
    const result = await setState({ keys: [SPARSE] }, { read: false });
    assert.equal(result.changed, 0);
    assert.equal(result.readOnly, true);
    assert.equal(fs.readFileSync(stateFile(), 'utf8'), corrupt);
    const info = await client.request<StateInfoResult>('paperDigest/stateInfo', {});
    assert.equal(info.readOnly, true);
    // Fixed on disk: writable again.
    fs.writeFileSync(stateFile(), '{"version":1,"papers":{}}');
    const fixed = client.waitForNotification<StateChangedParams>('paperDigest/stateChanged', (params) => !params.readOnly);
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(stateFile()).href, type: CHANGED }] });
    await fixed;
    assert.equal((await setState({ keys: [SPARSE] }, { read: true })).changed, 1);
  });

  test('Should read a state file emptied a moment ago again once it has stayed empty long enough, with no event', async () => {
    const before = fs.readFileSync(stateFile(), 'utf8');
    // Emptied 9.8 s ago (its time set back): read now, it is being written; 0.2 s later, empty.
    fs.writeFileSync(stateFile(), '');
    const then = new Date(Date.now() - 9_800);
    fs.utimesSync(stateFile(), then, then);
    const refused = client.waitForNotification<StateChangedParams>('paperDigest/stateChanged', (params) => params.readOnly);
    const settled = client.waitForNotification<StateChangedParams>('paperDigest/stateChanged', (params) => !params.readOnly);
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(stateFile()).href, type: CHANGED }] });
    assert.match((await refused).problem ?? '', /is empty and was changed 9 s ago/);
    await settled;
    assert.equal((await tree('starred')).paperCount, 0, 'an empty state');
    fs.writeFileSync(stateFile(), before);
    const back = client.waitForNotification<StateChangedParams>('paperDigest/stateChanged', () => true);
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(stateFile()).href, type: CHANGED }] });
    await back;
  });

  test('Should answer malformed reading requests with empty results, not errors', async () => {
    assert.equal((await setState(null as never, null as never)).changed, 0);
    const ranked = await client.request<RankedPapersResult>('paperDigest/rankedPapers', { limit: 'many', unreadOnly: 'yes' });
    assert.ok(Array.isArray(ranked.papers));
    const documentPapers = await client.request<DocumentPapersResult>('paperDigest/documentPapers', { uri: 42 });
    assert.deepEqual(documentPapers.papers, []);
  });

  test('Should change no paper for a scope with a part of the wrong type (never every paper)', async () => {
    const before = fs.existsSync(stateFile()) ? fs.readFileSync(stateFile(), 'utf8') : undefined;
    const unread = (await tree('unread')).paperCount;
    for (const scope of [{ keys: 'nope' }, { keys: null }, { uri: 5 }, { filter: 42 }, { groupId: {} }, { unreadOnly: 'yes' }, 'everything', [1, 2], null]) {
      const result = await setState(scope as never, { read: true });
      assert.equal(result.changed, 0, JSON.stringify(scope));
    }
    // No scope at all names no paper either (`{}` is every paper, said so).
    const unscoped = await client.request<SetPaperStateResult>('paperDigest/setPaperState', { change: { read: true } });
    assert.equal(unscoped.changed, 0);
    assert.equal((await tree('unread')).paperCount, unread);
    assert.equal(fs.existsSync(stateFile()) ? fs.readFileSync(stateFile(), 'utf8') : undefined, before, 'the state file untouched');
    const ranked = await client.request<RankedPapersResult>('paperDigest/rankedPapers', { filter: 42 });
    assert.equal(ranked.total, 0);
  });

  test('Should change nothing, and say why, for a change with a field of the wrong type', async () => {
    const before = fs.existsSync(stateFile()) ? fs.readFileSync(stateFile(), 'utf8') : undefined;
    for (const [change, said] of [
      [{ read: 'yes' }, '"read" must be true or false'],
      [{ starred: true, note: 5 }, '"note" must be a string or null'],
      [{ addTags: 'x' }, '"addTags" must be a list of strings'],
      [{ removeTags: ['ok', 7], read: 1 }, '"read" must be true or false; "removeTags" must be a list of strings'],
    ] as const) {
      const result = await setState({}, change);
      assert.equal(result.changed, 0, JSON.stringify(change));
      assert.match(result.message ?? '', new RegExp(`^Nothing was changed: ${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`), JSON.stringify(result));
    }
    assert.equal(fs.existsSync(stateFile()) ? fs.readFileSync(stateFile(), 'utf8') : undefined, before, 'the state file untouched');
  });

  test('Should change nothing, and say why, for a scope with a part no scope has or a grouping that is none, and for a change of nothing', async () => {
    const before = fs.existsSync(stateFile()) ? fs.readFileSync(stateFile(), 'utf8') : undefined;
    const unread = (await tree('unread')).paperCount;
    assert.ok(unread > 0);
    for (const [scope, said] of [
      [{ grouping: 'topics' }, '"grouping"'],
      [{ grouping: 'bogus', groupId: 'x' }, '"grouping"'],
      [{ paperKeys: [SPARSE] }, '"paperKeys"'],
      [{ key: SPARSE, bogusField: 1 }, '"key", "bogusField"'],
      [{ unreadOnly: 1 }, '"unreadOnly"'],
    ] as const) {
      const result = await setState(scope, { read: true });
      assert.equal(result.changed, 0, JSON.stringify(scope));
      assert.match(result.message ?? '', new RegExp(`^Nothing was changed: the scope's ${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (is|are) not what a scope has`), JSON.stringify(result));
      const exported = await client.request<ExportPapersResult>('paperDigest/exportPapers', { format: 'bibtex', scope });
      assert.deepEqual([exported.count, exported.text], [0, ''], JSON.stringify(scope));
      assert.deepEqual(exported.wrongScope?.map((part) => `"${part}"`).join(', '), said, 'the export names the parts');
    }
    for (const [change, said] of [
      [{}, 'Nothing to change.'],
      [{ stared: true }, 'Nothing was changed: a change has no field "stared"'],
      [{ read: true, unknownField: 1 }, 'Nothing was changed: a change has no field "unknownField"'],
    ] as const) {
      const result = await setState({}, change);
      assert.equal(result.changed, 0, JSON.stringify(change));
      assert.ok((result.message ?? '').startsWith(said), JSON.stringify(result));
    }
    assert.equal((await tree('unread')).paperCount, unread);
    assert.equal(fs.existsSync(stateFile()) ? fs.readFileSync(stateFile(), 'utf8') : undefined, before, 'the state file untouched');
    // A tree of no grouping has no node, and still counts the workspace's papers.
    const bogus = await tree('bogus');
    assert.deepEqual(bogus.nodes, []);
    assert.equal(bogus.indexedPaperCount, (await tree('topic')).indexedPaperCount);
    assert.ok((bogus.indexedPaperCount ?? 0) > 0);
  });

  test('Should carry the star and tags of a paper whose title is corrected in an open digest to the corrected title once saved, not before', async () => {
    const file = path.join(root, '2026-05-01.digest');
    const uri = uriOf('2026-05-01.digest');
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes('Sparse Probes for Arithmetic Circuits in Small Transformers'));
    const starred = await setState({ keys: [SPARSE] }, { starred: true, addTags: ['carried'] });
    assert.ok(starred.changed >= 0, JSON.stringify(starred));
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'paper-digest', version: 1, text } });
    const corrected = text.replace('Sparse Probes for Arithmetic Circuits in Small Transformers', 'Sparse Probes of Arithmetic Circuits in Small Transformers');
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: corrected }] });
    const key = 'sparse probes of arithmetic circuits in small transformers';
    // Unsaved: the edit indexed (documentStats takes the pending edits first), then a change of
    // the state file, which comes after any carry the edit started: nothing was carried.
    await client.request('paperDigest/documentStats', { uri });
    await setState({ keys: ['a paper of no digest'] }, { read: true });
    const unsaved = (JSON.parse(fs.readFileSync(stateFile(), 'utf8')) as { papers: Record<string, { starred?: boolean }> }).papers;
    assert.equal(unsaved[key], undefined, 'no state moves on unsaved text');
    assert.equal(unsaved[SPARSE]?.starred, true);
    // Saved (the file written, the client telling the save, as one that watches no files does): carried.
    fs.writeFileSync(file, corrected);
    client.notify('textDocument/didSave', { textDocument: { uri } });
    const papers = await waitFor(async () => {
      const state = fs.existsSync(stateFile()) ? (JSON.parse(fs.readFileSync(stateFile(), 'utf8')) as { papers: Record<string, { starred?: boolean; tags?: string[] }> }).papers : {};
      return state[key]?.starred ? state : undefined;
    }, 30_000);
    assert.ok(papers[key].tags?.includes('carried'), JSON.stringify(papers[key]));
    // The other digest still has the old title: its paper keeps its state there.
    assert.equal(papers[SPARSE]?.starred, true);
    client.notify('textDocument/didClose', { textDocument: { uri } });
    fs.writeFileSync(file, text);
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
  });
});

/** Polls an answer until it is there (for changes the server applies asynchronously). */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last !== undefined) {
      return last;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the expected answer did not come');
}

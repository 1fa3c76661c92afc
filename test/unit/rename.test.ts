import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import type { TextDocumentEdit, TextEdit } from 'vscode-languageserver-types';
import { checkNewName, MAX_RENAME_EDITS, prepareRename, renamableAt, renameEdits } from '../../server/src/service/features/rename';
import { nameAt, nameKey, occurrences } from '../../server/src/service/names';
import { applyEdits } from '../../server/src/service/edits';
import type { MessageLanguage } from '../../server/src/service/messages';
import type { NameKind } from '../../server/src/service/names';
import { parseDigest } from '../../server/src/service/parser';
import { digest, entryLines } from '../support/fixtures';
import { cursor } from '../support/workspaceTerms';

const A = 'file:///w/a.digest';
const B = 'untitled:Untitled-1';
const otherText = digest(entryLines('B1', { institutions: '机构 * FUDAN university（复旦） ； Kyoto University（京都大学） 纠错', topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.LG' }));

/** Renames at the `|` of a document and another file; the texts after the edit. */
function renameAt(textWithBar: string, newName: string): { a: string; b: string; edit: ReturnType<typeof renameEdits> } {
  const { text, position } = cursor(textWithBar);
  const doc = parseDigest(text);
  const name = renamableAt(doc, position);
  assert.ok(name, 'nothing to rename there');
  const edit = renameEdits([{ uri: A, doc, version: 4 }, { uri: B, doc: parseDigest(otherText) }], name, newName);
  assert.ok(!('error' in edit), JSON.stringify(edit));
  const changes = edit.documentChanges as TextDocumentEdit[];
  const apply = (uri: string, original: string): string => applyEdits(original, (changes.find((c) => c.textDocument.uri === uri)?.edits ?? []) as TextEdit[]);
  return { a: apply(A, text), b: apply(B, otherText), edit };
}

describe('rename: across every digest of the workspace', () => {
  test('Should rename an institution in every file, whatever its case and spacing, with versions', () => {
    const { a, b, edit } = renameAt(digest(entryLines('X', { institutions: '机构 * Fudan Univ|ersity（复旦大学） 纠错' })), 'Fudan University, Shanghai');
    assert.match(a, /机构 \* Fudan University, Shanghai（复旦大学） 纠错/);
    assert.match(b, /机构 \* Fudan University, Shanghai（复旦） ； Kyoto University/);
    const changes = (edit as { documentChanges: TextDocumentEdit[] }).documentChanges;
    assert.deepEqual(changes.map((c) => c.textDocument.version), [4, null]);
  });

  test('Should refuse, whole, to rename a name written in more than 100,000 places, and rename one at the limit', () => {
    // Lines of 10,000 institutions: 10 papers are the limit, 11 past it (over two files).
    const line = `机构 * ${Array.from({ length: 10_000 }, () => 'Lab').join(' ； ')} 纠错`;
    const doc = parseDigest(digest(...Array.from({ length: 5 }, (_, i) => entryLines(`L${i}`, { institutions: line }))));
    const one = parseDigest(digest(entryLines('M', { institutions: line })));
    const item = doc.entries[0].institutions!.items[0].name.range.start;
    const name = nameAt(doc, item)!;
    const atLimit = renameEdits([{ uri: 'file:///a.digest', doc }, { uri: 'file:///b.digest', doc }], name, 'Laboratory');
    assert.ok('documentChanges' in atLimit);
    assert.equal(atLimit.documentChanges!.reduce((sum, change) => sum + (change as TextDocumentEdit).edits.length, 0), MAX_RENAME_EDITS);
    for (const language of ['en', 'zh-cn'] as const) {
      const past = renameEdits([{ uri: 'file:///a.digest', doc }, { uri: 'file:///b.digest', doc }, { uri: 'file:///c.digest', doc: one }], name, 'Laboratory', undefined, language);
      assert.deepEqual(past, { error: language === 'en' ? 'The name is written in more than 100,000 places: too many to rename at once' : '该名称出现超过 100,000 处，无法一次全部重命名' });
    }
  });

  test('Should rename a translation where it is used, and leave other translations', () => {
    const { a, b } = renameAt(digest(entryLines('X', { institutions: '机构 * Kyoto University（京都|大学） ； Fudan University（复旦） 纠错' })), '京都大學');
    assert.match(a, /Kyoto University（京都大學） ； Fudan University（复旦）/);
    assert.match(b, /Kyoto University（京都大學）/);
    assert.match(b, /FUDAN university（复旦）/);
  });

  test('Should rename a topic wherever the Papers view groups it with it (case, width and white space aside)', () => {
    const { a } = renameAt(
      digest(
        entryLines('X', { topicHits: '专题命中 Math Rea|soning ：x(title)；分类 cs.LG' }),
        entryLines('Y', { topicHits: '专题命中 math  reasoning ：y(title)；分类 cs.LG' }),
        entryLines('Z', { topicHits: '专题命中 ＭＡＴＨ　Reasoning ：z(title)；分类 cs.LG' }),
        entryLines('W', { topicHits: '专题命中 Logic ：w(title)；分类 cs.LG' }),
      ),
      'Mathematical Reasoning',
    );
    assert.deepEqual(a.split('\n').filter((line) => line.startsWith('专题命中')).map((line) => line.split(' ：')[0]), ['专题命中 Mathematical Reasoning', '专题命中 Mathematical Reasoning', '专题命中 Mathematical Reasoning', '专题命中 Logic']);
  });

  test('Should rename a topic and a keyword', () => {
    const topic = renameAt(digest(entryLines('X', { topicHits: '专题命中 数学|推理 ：reasoning(title)；分类 cs.LG' })), '数学推理能力');
    assert.match(topic.a, /专题命中 数学推理能力 ：/);
    assert.match(topic.b, /专题命中 数学推理能力 ：/);
    const keyword = renameAt(digest(entryLines('X', { topicHits: '专题命中 数学推理 ：Reaso|ning(title)；分类 cs.LG' })), 'logical reasoning');
    assert.match(keyword.a, /：logical reasoning\(title\)/);
    assert.match(keyword.b, /：logical reasoning\(abstract\)/);
  });

  test('Should prepare a rename on what can be renamed only', () => {
    const { text, position } = cursor(digest(entryLines('X', { institutions: '机构 * Kyo|to University（京都大学） 纠错' })));
    const doc = parseDigest(text);
    assert.deepEqual(prepareRename(doc, position)?.placeholder, 'Kyoto University');
    assert.equal(prepareRename(doc, { line: 6, character: 2 }), null, 'authors are not renamed');
    assert.equal(prepareRename(doc, { line: 0, character: 0 }), null);
    assert.equal(prepareRename(doc, { line: 500, character: 0 }), null);
  });

  test('Should refuse new names that would break the line', () => {
    assert.match(checkNewName('institution', 'A（甲）')!, /cannot contain/);
    assert.match(checkNewName('keyword', 'x(title)')!, /cannot contain/);
    assert.match(checkNewName('topic', 'a：b')!, /cannot contain/);
    assert.match(checkNewName('translation', '甲\n乙')!, /line breaks/);
    for (const odd of ['a\ud800', '\udc00b', 'a\u200eb', 'a\u0085b']) assert.match(checkNewName('institution', odd)!, /line breaks or control characters/, JSON.stringify(odd));
    assert.equal(checkNewName('institution', 'Lab \ud83d\ude00'), undefined, 'a pair is a character');
    assert.match(checkNewName('institution', '  ')!, /empty/);
    assert.equal(checkNewName('institution', 'Fudan University'), undefined);
    const doc = parseDigest(digest(entryLines('X')));
    const name = renamableAt(doc, { line: 8, character: 7 })!;
    assert.deepEqual(renameEdits([{ uri: A, doc }], name, 'X ； Y'), { error: "A new institution name cannot contain '；', ';', '（', '）', '纠错' or a bracket not closed — 新的机构名不能包含“；”“;”“（”“）”“纠错”或不成对的括号" });
  });

  test('Should refuse in the message language: both, English or Chinese', () => {
    const doc = parseDigest(digest(entryLines('X')));
    const institution = renamableAt(doc, { line: 8, character: 7 })!;
    const refusal = (language: MessageLanguage, kind: NameKind, newName: string) => {
      const edit = renameEdits([{ uri: A, doc }], { ...institution, kind }, newName, undefined, language);
      return 'error' in edit ? edit.error : '';
    };
    const cases: [NameKind, string, string, string][] = [
      ['institution', '  ', 'The new name is empty', '新名称为空'],
      ['translation', '甲\n乙', 'The new name cannot contain line breaks or control characters', '新名称不能包含换行符或控制字符'],
      ['topic', 'x'.repeat(501), 'The new name is longer than 500 characters', '新名称超过 500 个字符'],
      ['institution', 'A（甲）', "A new institution name cannot contain '；', ';', '（', '）', '纠错' or a bracket not closed", '新的机构名不能包含“；”“;”“（”“）”“纠错”或不成对的括号'],
      ['translation', '甲；乙', "A new translation name cannot contain '；', ';', '（', '）' or a bracket not closed", '新的译名不能包含“；”“;”“（”“）”或不成对的括号'],
      ['topic', 'a：b', "A new topic name cannot contain '：', ':', '；', ';' or a bracket not closed", '新的专题名不能包含“：”“:”“；”“;”或不成对的括号'],
      ['keyword', 'x(title)', "A new keyword name cannot contain '；', ';', brackets or '分类'", '新的关键词不能包含“；”“;”、括号或“分类”'],
      ['institution', 'Kyoto (Univ', "A new institution name cannot contain '；', ';', '（', '）', '纠错' or a bracket not closed", '新的机构名不能包含“；”“;”“（”“）”“纠错”或不成对的括号'],
      ['translation', '京都(大学', "A new translation name cannot contain '；', ';', '（', '）' or a bracket not closed", '新的译名不能包含“；”“;”“（”“）”或不成对的括号'],
      ['topic', '数学 (新', "A new topic name cannot contain '：', ':', '；', ';' or a bracket not closed", '新的专题名不能包含“：”“:”“；”“;”或不成对的括号'],
      ['topic', '新）专题（', "A new topic name cannot contain '：', ':', '；', ';' or a bracket not closed", '新的专题名不能包含“：”“:”“；”“;”或不成对的括号'],
      ['topic', '新（专题)', "A new topic name cannot contain '：', ':', '；', ';' or a bracket not closed", '新的专题名不能包含“：”“:”“；”“;”或不成对的括号'],
      ['author', 'Wei Zhang', 'An author cannot be renamed', '作者名不能重命名'],
      ['category', 'cs.AI', 'A category cannot be renamed', '分类不能重命名'],
    ];
    for (const [kind, newName, en, zh] of cases) {
      assert.equal(refusal('en', kind, newName), en);
      assert.equal(refusal('zh-cn', kind, newName), zh);
      assert.equal(refusal('both', kind, newName), `${en} — ${zh}`);
    }
  });
  test('Should refuse a new name with which a line naming it would read otherwise: as authors', () => {
    const refused = (textWithBar: string, newName: string): string | undefined => {
      const { text, position } = cursor(textWithBar);
      const doc = parseDigest(text);
      const edit = renameEdits([{ uri: A, doc }], renamableAt(doc, position)!, newName, undefined, 'en');
      return 'error' in edit ? edit.error : undefined;
    };
    const otherwise = /would read otherwise/;
    // A translation with 、 beside a name like a list of names: the line would list authors.
    assert.match(refused(digest(entryLines('X', { institutions: "机构 * Huawei, Noah's Ark Lab（华为诺亚|方舟实验室） 纠错" })), '华为、诺亚方舟实验室') ?? '', otherwise);
    assert.match(refused(digest(entryLines('X', { institutions: '机构 * Tsing|hua（清华、大学） 纠错' })), 'Ana Li, Bo Chen') ?? '', otherwise);
    // Brackets of its own in a name, without a translation or with one, are the name's.
    assert.equal(refused(digest(entryLines('X', { institutions: '机构 * Kyoto Univ|ersity 纠错' })), 'Kyoto (Paris)'), undefined);
    // The same names where the line still reads as institutions are renamed.
    assert.equal(refused(digest(entryLines('X', { institutions: '机构 * Kyoto Univ|ersity（京都大学） 纠错' })), 'Kyoto (Paris)'), undefined);
    assert.equal(refused(digest(entryLines('X', { institutions: '机构 * Noah|s Ark Lab（诺亚方舟实验室） ； Kyoto University（京都大学） 纠错' })), 'Huawei, Noah Lab'), undefined);
    assert.equal(refused(digest(entryLines('X', { institutions: '机构 * Noah Lab（华为诺亚|方舟实验室） 纠错' })), '华为、诺亚方舟实验室'), undefined);
  });

  test('Should, whenever it renames, leave every line reading as before with the new name in each place (random names)', () => {
    const text = digest(
      entryLines('P', { institutions: '机构 * Kyoto University（京都大学） ； Fudan University（复旦大学） 纠错', topicHits: '专题命中 数学推理 ：reasoning(abstract)；math(title)；分类 cs.LG、cs.AI' }),
      entryLines('Q', { institutions: '机构 * Kyoto University 纠错', topicHits: '专题命中 数学推理 ：reasoning(title)；分类 cs.CL' }),
      entryLines('R', { institutions: '机构 * Huawei, Kyoto University（京都大学） 纠错', topicHits: '专题命中 Logic ：math(abstract)；分类 cs.LG' }),
      entryLines('S', { institutions: '机构 * Ann Lee, Bo Chen（李安、陈博） 纠错' }),
    );
    const doc = parseDigest(text);
    const targets = doc.entries.flatMap((entry) => [
      ...(entry.institutions?.authorPairs ? [] : (entry.institutions?.items ?? []).flatMap((item) => [item.name, item.translation])),
      entry.topicHits?.topic,
      ...(entry.topicHits?.hits ?? []).map((hit) => hit.keyword),
    ]).filter((span) => span !== undefined && span.text.trim() !== '');
    const piece = fc.constantFrom('Ann Lee', 'Bo', ', ', '，', '、', ' ', '(', ')', '（', '）', '京都', 'Lab', '*', '纠错', 'x', ':', 'title', '分类', 'Chen');
    fc.assert(
      fc.property(fc.nat(targets.length - 1), fc.array(piece, { minLength: 1, maxLength: 6 }), (which, pieces) => {
        const newName = pieces.join('');
        const name = nameAt(doc, targets[which]!.range.start)!;
        const edit = renameEdits([{ uri: A, doc }], name, newName, undefined, 'en');
        if ('error' in edit) return;
        const edits = (edit.documentChanges as TextDocumentEdit[]).flatMap((change) => change.edits) as TextEdit[];
        const after = parseDigest(applyEdits(text, edits));
        assert.equal(after.entries.length, doc.entries.length);
        for (const [i, entry] of doc.entries.entries()) {
          const now = after.entries[i];
          assert.equal(!!now.institutions?.authorPairs, !!entry.institutions?.authorPairs, newName);
          assert.equal(now.institutions?.items.length, entry.institutions?.items.length, newName);
          assert.equal(now.topicHits?.hits.length, entry.topicHits?.hits.length, newName);
          assert.deepEqual(now.topicHits?.categories.map((c) => c.text), entry.topicHits?.categories.map((c) => c.text), newName);
        }
        // Each place now names the new name, and nothing else changed name.
        const newKey = { kind: name.kind, key: nameKey(name.kind, newName) };
        const expected = newKey.key === name.key ? occurrences(doc, name).length : occurrences(doc, name).length + occurrences(doc, newKey).length;
        assert.equal(occurrences(after, newKey).length, expected, newName);
      }),
      { numRuns: 400 },
    );
  });
});

/**
 * Rename: renaming an institution, a topic or a keyword renames it in every digest of the
 * workspace, and renaming an institution's translation renames that translation wherever it is
 * used. The answer is one workspace edit over the sources the caller hands in (open documents,
 * untitled and unsaved ones included, with their versions; files on disk without).
 */
import { TextDocumentEdit, TextEdit } from 'vscode-languageserver-types';
import type { Position, Range, WorkspaceEdit } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { DigestDocument, Entry, Span } from '../model';
import { nameAt, nameKey, NameKind, NameTarget, occurrences } from '../names';
import { bilingual, Bilingual, DEFAULT_MESSAGE_LANGUAGE, MessageLanguage, say } from '../messages';
import { parseDigest } from '../parser';
import { hasLabelUnsafe } from '../text';

/** The kinds of name that can be renamed. */
const RENAMABLE: ReadonlySet<NameKind> = new Set(['institution', 'translation', 'topic', 'keyword']);

/** A file to rename in: its URI, its model, and its version when it is open. */
export interface RenameSource {
  readonly uri: string;
  readonly doc: DigestDocument;
  readonly version?: number;
}

/**
 * The range and text of the name at a position, when it can be renamed; null otherwise.
 *
 * @example prepareRename(doc, { line: 8, character: 7 }) // { range: <Kyoto University>, placeholder: 'Kyoto University' }
 */
export function prepareRename(doc: DigestDocument, position: Position, token: Cancellation = NEVER_CANCELLED): { range: Range; placeholder: string } | null {
  const name = renamableAt(doc, position);
  return name && !token.isCancellationRequested ? { range: name.range, placeholder: name.text } : null;
}

/** The name at a position, when it is of a kind that can be renamed. */
export function renamableAt(doc: DigestDocument, position: Position): NameTarget | undefined {
  const name = nameAt(doc, position);
  return name && RENAMABLE.has(name.kind) ? name : undefined;
}

/** What a new name may not contain, by kind: the marks that separate the parts of its line. */
const FORBIDDEN: Readonly<Record<string, RegExp>> = {
  institution: /[；;（）]|纠错/,
  translation: /[；;（）]/,
  topic: /[：:；;]/,
  keyword: /[；;()（）]|分类/,
};

/** The kinds of name whose brackets must close: those of their line's fields that brackets delimit. */
const BRACKETS_BALANCED: ReadonlySet<string> = new Set(['institution', 'translation', 'topic']);

/** Whether every `(` and `（` is closed by its own kind, in order. */
function bracketsBalanced(text: string): boolean {
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x28 || c === 0xff08) {
      open.push(c);
    } else if (c === 0x29 || c === 0xff09) {
      if (open.pop() !== (c === 0x29 ? 0x28 : 0xff08)) {
        return false;
      }
    }
  }
  return open.length === 0;
}

/** A kind of name as the refusals call it. */
const KIND_NAMES: Readonly<Record<NameKind, Bilingual>> = {
  institution: bilingual('institution', '机构名'),
  translation: bilingual('translation', '译名'),
  author: bilingual('author', '作者名'),
  topic: bilingual('topic', '专题名'),
  keyword: bilingual('keyword', '关键词'),
  category: bilingual('category', '分类'),
};

/** The marks `FORBIDDEN` refuses, by kind, as the refusals list them. */
const FORBIDDEN_MARKS: Readonly<Record<string, Bilingual>> = {
  institution: bilingual("'；', ';', '（', '）', '纠错' or a bracket not closed", '“；”“;”“（”“）”“纠错”或不成对的括号'),
  translation: bilingual("'；', ';', '（', '）' or a bracket not closed", '“；”“;”“（”“）”或不成对的括号'),
  topic: bilingual("'：', ':', '；', ';' or a bracket not closed", '“：”“:”“；”“;”或不成对的括号'),
  keyword: bilingual("'；', ';', brackets or '分类'", '“；”“;”、括号或“分类”'),
};

/** Why a rename is refused, in both languages. */
export const RENAME_MESSAGES = {
  empty: bilingual('The new name is empty', '新名称为空'),
  lineBreaks: bilingual('The new name cannot contain line breaks or control characters', '新名称不能包含换行符或控制字符'),
  tooLong: bilingual('The new name is longer than 500 characters', '新名称超过 500 个字符'),
  forbidden: (kind: NameKind): Bilingual => bilingual(`A new ${KIND_NAMES[kind].en} name cannot contain ${FORBIDDEN_MARKS[kind].en}`, `新的${KIND_NAMES[kind].zh}不能包含${FORBIDDEN_MARKS[kind].zh}`),
  tooMany: (max: number): Bilingual => bilingual(`The name is written in more than ${max.toLocaleString('en')} places: too many to rename at once`, `该名称出现超过 ${max.toLocaleString('en')} 处，无法一次全部重命名`),
  notRenamed: (kind: NameKind): Bilingual => bilingual(`A${/^[aeiou]/.test(KIND_NAMES[kind].en) ? 'n' : ''} ${KIND_NAMES[kind].en} cannot be renamed`, `${KIND_NAMES[kind].zh}不能重命名`),
  readsOtherwise: bilingual(
    'With the new name, a line that names it would read otherwise (as a list of authors with their Chinese names)',
    '换成新名称后，含有该名称的行会被读成别的内容（例如带中文名的作者列表）',
  ),
};

/**
 * Why a new name cannot be used, in the message language, or undefined when it can.
 *
 * @example checkNewName('institution', 'Fudan（复旦）', 'en') // "A new institution name cannot contain '；', ';', '（', '）' or '纠错'"
 * @example checkNewName('institution', 'Fudan（复旦）', 'zh-cn') // '新的机构名不能包含“；”“;”“（”“）”或“纠错”'
 */
export function checkNewName(kind: NameKind, newName: string, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): string | undefined {
  const trimmed = newName.trim();
  if (!trimmed) {
    return say(RENAME_MESSAGES.empty, language);
  }
  // Line breaks, control and bidirectional characters, and lone surrogates (no character at all).
  if (hasLabelUnsafe(newName)) {
    return say(RENAME_MESSAGES.lineBreaks, language);
  }
  if (trimmed.length > 500) {
    return say(RENAME_MESSAGES.tooLong, language);
  }
  if (breaksItsLine(kind, trimmed)) {
    return say(RENAME_MESSAGES.forbidden(kind), language);
  }
  return undefined;
}

/**
 * Whether a name holds a mark that separates the parts of its line (`；`, a `（` of an
 * institution, `分类` in a keyword…), or a bracket left open (or closed without opening), which
 * reads as the start of a translation or of a hit's field: `Kyoto (Univ`, `数学 (新`. Balanced
 * ones are a name's own: `Lab (Paris)`. Such a name, written in its place, makes its line read
 * otherwise.
 *
 * @example breaksItsLine('keyword', 'reasoning(abstract)math') // true
 */
export function breaksItsLine(kind: NameKind, name: string): boolean {
  const trimmed = name.trim();
  return FORBIDDEN[kind]?.test(trimmed) === true || (BRACKETS_BALANCED.has(kind) && !bracketsBalanced(trimmed));
}

/** A rename changes at most this many places (an answer of about 10 MB); more are refused whole. */
export const MAX_RENAME_EDITS = 100_000;

/**
 * The workspace edit that renames the name in every source, or the reason it cannot.
 *
 * @example
 * renameEdits([{ uri, doc, version: 3 }, { uri: other, doc: otherDoc }], name, 'Fudan University')
 * // { documentChanges: [{ textDocument: { uri, version: 3 }, edits }, { textDocument: { uri: other, version: null }, edits }] }
 */
export function renameEdits(sources: Iterable<RenameSource>, name: Pick<NameTarget, 'kind' | 'key'>, newName: string, token: Cancellation = NEVER_CANCELLED, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): WorkspaceEdit | { error: string } {
  const problem = RENAMABLE.has(name.kind) ? checkNewName(name.kind, newName, language) : say(RENAME_MESSAGES.notRenamed(name.kind), language);
  if (problem) {
    return { error: problem };
  }
  const text = newName.trim();
  const documentChanges: TextDocumentEdit[] = [];
  let total = 0;
  const readings = new Map<string, boolean>();
  for (const source of sources) {
    if (token.isCancellationRequested) {
      return { documentChanges: [] };
    }
    const ranges = occurrences(source.doc, name, MAX_RENAME_EDITS - total);
    total += ranges.length;
    if (total > MAX_RENAME_EDITS) {
      // All or nothing: a rename of some of the places would leave the name in two forms.
      return { error: say(RENAME_MESSAGES.tooMany(MAX_RENAME_EDITS), language) };
    }
    if (!readsAsRenamed(source.doc, name, ranges, text, readings)) {
      return { error: say(RENAME_MESSAGES.readsOtherwise, language) };
    }
    const edits = ranges.map((range) => TextEdit.replace(range, text));
    if (edits.length > 0) {
      documentChanges.push(TextDocumentEdit.create({ uri: source.uri, version: source.version ?? null }, edits));
    }
  }
  return { documentChanges };
}

/** A Chinese heading put before an entry parsed alone, so that its first line is read as in a digest. */
const ALONE_HEADING = '摘要集\n\n';

/**
 * Whether every entry the rename edits reads as before with the new name in its places: its
 * field parsed again, alone, has the same parts, the renamed ones named anew. A name that the
 * refusals above let through can still change its line's reading: a translation written with `、`
 * makes a `机构` line of one item with a name like a list of names read as authors (and so does
 * such a name beside such a translation). `readings` keeps the answers by entry text.
 */
function readsAsRenamed(doc: DigestDocument, name: Pick<NameTarget, 'kind' | 'key'>, ranges: readonly Range[], newName: string, readings: Map<string, boolean>): boolean {
  if (ranges.length === 0) {
    return true;
  }
  // The ranges of each edited line, in order (one line may name it many times).
  const byLine = new Map<number, Range[]>();
  for (const range of ranges) {
    const here = byLine.get(range.start.line);
    if (here) here.push(range);
    else byLine.set(range.start.line, [range]);
  }
  const lines = [...byLine.keys()].sort((a, b) => a - b);
  let next = 0;
  for (const entry of doc.entries) {
    const from = entry.range.start.line;
    const to = entry.range.end.line;
    while (next < lines.length && lines[next] < from) next++;
    if (next >= lines.length || lines[next] > to) {
      continue;
    }
    const texts: string[] = [];
    for (let line = from; line <= to; line++) {
      const text = doc.lines[line].text;
      const here = byLine.get(line);
      if (!here) {
        texts.push(text);
        continue;
      }
      const first = line === 0 && doc.hasBom ? 1 : 0;
      const pieces: string[] = [];
      let at = 0;
      for (const range of [...here].sort((a, b) => a.start.character - b.start.character)) {
        pieces.push(text.slice(at, range.start.character - first), newName);
        at = range.end.character - first;
      }
      pieces.push(text.slice(at));
      texts.push(pieces.join(''));
    }
    const alone = ALONE_HEADING + texts.join('\n') + '\n';
    let same = readings.get(alone);
    if (same === undefined) {
      const entries = parseDigest(alone).entries;
      same = entries.length === 1 && sameReading(entry, entries[0], name, newName);
      readings.set(alone, same);
    }
    if (!same) {
      return false;
    }
  }
  return true;
}

/** Whether `after` has the parts of `before`'s renamed field, with the new name where the name was. */
function sameReading(before: Entry, after: Entry, name: Pick<NameTarget, 'kind' | 'key'>, newName: string): boolean {
  const expected = (kind: NameKind, span: Span | undefined): string | undefined => (span === undefined ? undefined : kind === name.kind && span.text.trim() && nameKey(kind, span.text) === name.key ? newName : span.text);
  const same = (kind: NameKind, old: Span | undefined, now: Span | undefined): boolean => expected(kind, old) === now?.text;
  if (name.kind === 'institution' || name.kind === 'translation') {
    const old = before.institutions;
    const now = after.institutions;
    return (
      old !== undefined &&
      now !== undefined &&
      !old.authorPairs === !now.authorPairs &&
      !old.star === !now.star &&
      !old.marker === !now.marker &&
      old.items.length === now.items.length &&
      old.items.every((item, i) => same('institution', item.name, now.items[i].name) && same('translation', item.translation, now.items[i].translation))
    );
  }
  const old = before.topicHits;
  const now = after.topicHits;
  return (
    old !== undefined &&
    now !== undefined &&
    same('topic', old.topic, now.topic) &&
    old.hits.length === now.hits.length &&
    old.hits.every((hit, i) => same('keyword', hit.keyword, now.hits[i].keyword) && hit.field?.text === now.hits[i].field?.text) &&
    old.categories.length === now.categories.length &&
    old.categories.every((category, i) => category.text === now.categories[i].text)
  );
}

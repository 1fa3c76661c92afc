/**
 * Workspace symbols (Ctrl+T): papers of every indexed digest, found by English or Chinese title.
 *
 * A title matches when it contains the query (ignoring case and white space runs), or, less
 * well, when the query's characters occur in it in order, at word starts or close together. The symbol is named by the title that
 * matched, so that an editor filtering the names itself keeps Chinese matches; the other title
 * is the container name.
 */
import { SymbolInformation, SymbolKind } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { PaperSummary, WorkspaceIndex } from '../workspaceIndex';
import { foldForSearch } from '../workspaceIndex';
import { plainLabel } from '../text';

/** At most this many symbols are returned. */
export const MAX_WORKSPACE_SYMBOLS = 500;

/**
 * Finds papers by title across the workspace, best matches first.
 *
 * @example
 * workspaceSymbols(index, 'sparse probes')[0].name          // 'Sparse Probes for Arithmetic Circuits'
 * workspaceSymbols(index, '稀疏探针')[0].name                 // '算术电路的稀疏探针'
 * workspaceSymbols(index, '稀疏探针')[0].containerName        // 'Sparse Probes for Arithmetic Circuits'
 */
export function workspaceSymbols(index: WorkspaceIndex, query: string, token: Cancellation = NEVER_CANCELLED, limit = MAX_WORKSPACE_SYMBOLS): SymbolInformation[] {
  // An editor asks the same query again (on focus, after its own debounce): the answer holds
  // until the index changes.
  const last = lastAnswers.get(index);
  if (last && last.generation === index.generation && last.query === query && last.limit === limit) {
    return last.symbols;
  }
  const symbols = findSymbols(index, query, token, limit);
  if (!token.isCancellationRequested) {
    lastAnswers.set(index, { generation: index.generation, query, limit, symbols });
  }
  return symbols;
}

/** The last answer for each index, with the generation, query and limit it was found for. */
const lastAnswers = new WeakMap<WorkspaceIndex, { generation: number; query: string; limit: number; symbols: SymbolInformation[] }>();

function findSymbols(index: WorkspaceIndex, query: string, token: Cancellation, limit: number): SymbolInformation[] {
  const needle = normalise(query);
  const compact = needle.replace(/ /g, '');
  const matches: { paper: PaperSummary; score: number; chinese: boolean; order: number }[] = [];
  let order = 0;
  for (const file of index.files()) {
    for (const paper of file.papers) {
      if ((++order & 1023) === 0 && token.isCancellationRequested) {
        return [];
      }
      if (!needle) {
        if (matches.length < limit) {
          matches.push({ paper, score: 0, chinese: false, order });
        }
        continue;
      }
      const english = paper.englishTitle ? score(normalise(paper.englishTitle), needle, compact) : -1;
      const chinese = paper.chineseTitle ? score(normalise(paper.chineseTitle), needle, compact) : -1;
      if (english < 0 && chinese < 0) {
        continue;
      }
      matches.push({ paper, score: Math.max(english, chinese), chinese: chinese > english, order });
    }
  }
  matches.sort((a, b) => b.score - a.score || a.order - b.order);
  return matches.slice(0, limit).map(({ paper, chinese }) => symbolOf(paper, chinese));
}

/** The longest name or container name of a symbol, as the outline cuts its names. */
const MAX_SYMBOL_NAME = 500;

/** A paper as a symbol: its titles as labels (`plainLabel`: no control or bidirectional characters, cut at 500). */
function symbolOf(paper: PaperSummary, byChinese: boolean): SymbolInformation {
  const name = plainLabel(byChinese ? paper.chineseTitle : paper.title, MAX_SYMBOL_NAME);
  const other = plainLabel(byChinese ? paper.englishTitle : paper.englishTitle ? paper.chineseTitle : '', MAX_SYMBOL_NAME);
  return {
    name,
    kind: SymbolKind.Class,
    location: { uri: paper.uri, range: paper.selectionRange },
    ...(other ? { containerName: other } : {}),
  };
}

/** White space that `normalise` changes: anything but a single inner space. */
const UNUSUAL_SPACE = /[^\S ]| {2}|^ | $/;

function normalise(text: string): string {
  const folded = foldForSearch(text);
  return UNUSUAL_SPACE.test(folded) ? folded.replace(/\s+/g, ' ').trim() : folded;
}

/**
 * How well a title matches: 300 + for a prefix, 200 + at a word start, 100 + anywhere, 0 to 90
 * for the query's characters in order (see `subsequenceScore`); -1 for no match.
 */
function score(title: string, needle: string, compact: string): number {
  const at = title.indexOf(needle);
  if (at >= 0) {
    const tightness = Math.max(0, 50 - (title.length - needle.length));
    if (at === 0) {
      return 300 + tightness;
    }
    return (isWordStart(title, at) ? 200 : 100) + tightness;
  }
  return subsequenceScore(title, compact);
}

function isWordStart(text: string, at: number): boolean {
  return !/[\p{L}\p{N}]/u.test(text.charAt(at - 1));
}

/**
 * The in-order match takes queries of at most this many characters (VS Code's own fuzzy filter
 * reads no more than 128 of a pattern or a word), and reads the first `MAX_IN_ORDER_TITLE`
 * characters of a title: a longer query is matched as a whole only, and past that many characters
 * a title is matched as a whole only. Each title then costs a bounded amount: with no bound, a
 * query of 20,000 characters over titles of 90 KB took seconds a paper.
 */
export const MAX_IN_ORDER = 128;
const MAX_IN_ORDER_TITLE = 4 * MAX_IN_ORDER;

/**
 * The query's characters in order in the title: 90 when each starts a word (`tps` in
 * `Tool-Augmented Program Synthesis`), else 0 to 80 when they lie close together (at most twice
 * the query's length apart in all); -1 otherwise, so that long titles do not match everything.
 * Only the first `MAX_IN_ORDER_TITLE` characters of a title are looked at, and a query of more
 * than `MAX_IN_ORDER` characters never matches in order.
 */
function subsequenceScore(title: string, query: string): number {
  if (query.length === 0 || query.length > MAX_IN_ORDER) {
    return -1;
  }
  const length = Math.min(title.length, MAX_IN_ORDER_TITLE);
  if (matchesWordStarts(title, length, query)) {
    return 90;
  }
  // The tightest span holding the query in order, among those of at most three times its length:
  // from each place its first character occurs, the query is followed within that window only.
  const window = query.length * 3;
  const first = query.charCodeAt(0);
  let best = -1;
  for (let start = 0; start < length; start++) {
    if (title.charCodeAt(start) !== first) {
      continue;
    }
    const end = Math.min(length, start + window);
    let at = start + 1;
    let i = 1;
    for (; i < query.length && at < end; at++) {
      if (title.charCodeAt(at) === query.charCodeAt(i)) i++;
    }
    if (i < query.length) {
      if (end === length) {
        // Not within the rest of the title: no later start can hold it either.
        break;
      }
      continue;
    }
    best = Math.max(best, 80 - (at - start - query.length));
    if (best === 80) {
      break;
    }
  }
  return best;
}

/** Whether each character (code point) of the query starts a word of `title[0..length)`, in order: one pass. */
function matchesWordStarts(title: string, length: number, query: string): boolean {
  let i = 0;
  for (let at = 0; at < length && i < query.length; at++) {
    const c = query.codePointAt(i)!;
    if (title.codePointAt(at) === c && isWordStart(title, at)) {
      const width = c > 0xffff ? 2 : 1;
      i += width;
      at += width - 1;
    }
  }
  return i >= query.length;
}

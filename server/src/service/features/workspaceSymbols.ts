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
 * The query's characters in order in the title: 90 when each starts a word (`tps` in
 * `Tool-Augmented Program Synthesis`), else 0 to 80 when they lie close together (at most twice
 * the query's length apart in all); -1 otherwise, so that long titles do not match everything.
 */
function subsequenceScore(title: string, query: string): number {
  if (query.length === 0) {
    return -1;
  }
  if (matchesWordStarts(title, query)) {
    return 90;
  }
  let best = -1;
  // Try each place the first character occurs, keeping the tightest span.
  for (let start = title.indexOf(query.charAt(0)); start >= 0; start = title.indexOf(query.charAt(0), start + 1)) {
    let at = start;
    let matched = true;
    for (let i = 1; i < query.length; i++) {
      at = title.indexOf(query.charAt(i), at + 1);
      if (at < 0) {
        matched = false;
        break;
      }
    }
    if (!matched) {
      break;
    }
    const spread = at - start + 1 - query.length;
    if (spread <= query.length * 2) {
      best = Math.max(best, 80 - spread);
    }
  }
  return best;
}

/** Whether each character of the query starts a word of the title, in order. */
function matchesWordStarts(title: string, query: string): boolean {
  let from = 0;
  for (const c of query) {
    let at = title.indexOf(c, from);
    while (at > 0 && !isWordStart(title, at)) {
      at = title.indexOf(c, at + 1);
    }
    if (at < 0) {
      return false;
    }
    from = at + c.length;
  }
  return true;
}

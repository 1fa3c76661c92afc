/**
 * The digests of the workspace that can name something, as models, for references and rename:
 * every open document (untitled and unsaved ones included, with their current text and version),
 * then each file on disk whose counts in the index say it names it, read and parsed. Documents
 * past the limits (limits.ts) are left out, as every feature but the outline leaves them.
 */
import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DigestCache } from './service/cache';
import type { DigestDocument } from './service/model';
import { mayName, NameTarget } from './service/names';
import { documentTooLarge, parseWithinLimits } from './service/limits';
import { foldForSearch, searchIncludes, WorkspaceIndex } from './service/workspaceIndex';
import type { WorkspaceTerms } from './service/workspaceTerms';
import { readFileSnapshot } from './fs/safeFile';
import { indexUri } from './workspace';

/** A digest to look in. */
export interface WorkspaceSource {
  readonly uri: string;
  readonly doc: DigestDocument;
  /** The version of an open document; undefined for a file read from disk. */
  readonly version?: number;
}

export interface WorkspaceNamesContext {
  readonly documents: { all(): TextDocument[] };
  readonly cache: DigestCache;
  readonly index: WorkspaceIndex;
  readonly terms: WorkspaceTerms;
  readonly isCancelled?: () => boolean;
  /**
   * Reads a file that is not open where the server has no disk (the web extension: through the
   * client, host.ts), for URIs of any scheme; without it, files: URIs are read from disk.
   */
  readonly readText?: (uri: string) => Promise<string | undefined>;
}

/**
 * The open documents, then the files on disk that may name the target, in URI order. Files that
 * cannot be read (gone, too big, not UTF-8) are left out.
 */
export async function sourcesNaming(context: WorkspaceNamesContext, name: NameTarget): Promise<WorkspaceSource[]> {
  const openAtStart = new Set(context.documents.all().map((document) => indexUri(document.uri)));
  const candidates: string[] = [];
  const folded = foldForSearch(name.key);
  for (const [uri] of context.terms.files()) {
    if (openAtStart.has(uri) || !readableHere(context, uri)) {
      continue;
    }
    if (mayNameFile(context, uri, name, folded)) {
      candidates.push(uri);
    }
  }
  candidates.sort();
  const onDisk: WorkspaceSource[] = [];
  const read = async (uris: readonly string[]): Promise<void> => {
    for (const uri of uris) {
      if (context.isCancelled?.()) {
        return;
      }
      try {
        const text = context.readText ? await context.readText(uri) : new TextDecoder('utf-8', { fatal: true }).decode((await readFileSnapshot(fileURLToPath(uri))).bytes);
        if (text === undefined) {
          continue;
        }
        const doc = parseWithinLimits(text);
        if (!documentTooLarge(doc)) {
          onDisk.push({ uri, doc });
        }
      } catch {
        // Gone or unreadable since it was indexed: nothing to show or rename there.
      }
    }
  };
  await read(candidates);
  // A document open at the start and closed since is read from disk as the others are (again
  // while one closes during those reads; a few rounds at most).
  const done = new Set(candidates);
  for (let round = 0; round < 3; round++) {
    const openNow = new Set(context.documents.all().map((document) => indexUri(document.uri)));
    const closed = [...openAtStart].filter((uri) => !openNow.has(uri) && !done.has(uri) && readableHere(context, uri) && mayNameFile(context, uri, name, folded));
    if (closed.length === 0) {
      break;
    }
    for (const uri of closed) done.add(uri);
    await read(closed.sort());
  }
  // The open documents as they are now, after the reads: an edit made while the files were read
  // has replaced a model taken before them (the answer is of the documents' current versions).
  const sources: WorkspaceSource[] = [];
  const open = new Set<string>();
  for (const document of context.documents.all()) {
    open.add(indexUri(document.uri));
    const doc = context.cache.get(document);
    if (!documentTooLarge(doc)) {
      sources.push({ uri: document.uri, doc, version: document.version });
    }
  }
  // A file opened meanwhile is taken as open, not as read from disk.
  return [...sources, ...onDisk.filter((source) => !open.has(source.uri))];
}

/** Whether the index's counts of a file say it may name the target (`mayName`, else its papers' search texts). */
function mayNameFile(context: WorkspaceNamesContext, uri: string, name: NameTarget, folded: string): boolean {
  const terms = context.terms.file(uri);
  const may = terms ? mayName(terms, name) : undefined;
  return may === true || (may === undefined && (context.index.file(uri)?.papers.some((paper) => searchIncludes(paper, folded)) ?? false));
}

/** Whether a file can be read here: any URI through the client (the web extension), else a `file:` URI from disk. */
function readableHere(context: WorkspaceNamesContext, uri: string): boolean {
  return context.readText !== undefined || uri.startsWith('file:');
}

/**
 * A workspace for the editing features' tests: an index of inline digests, the terms that
 * follow it, and the lookups completion, references and rename take.
 */
import type { Position } from 'vscode-languageserver-types';
import type { DigestDocument } from '../../server/src/service/model';
import { parseDigest } from '../../server/src/service/parser';
import { WorkspaceIndex } from '../../server/src/service/workspaceIndex';
import { WorkspaceTerms } from '../../server/src/service/workspaceTerms';
import type { CompletionWorkspace } from '../../server/src/service/features/completion';

export interface TestWorkspace {
  readonly index: WorkspaceIndex;
  readonly terms: WorkspaceTerms;
  readonly completion: CompletionWorkspace;
  /** The parsed models of the files, by URI. */
  readonly models: Map<string, DigestDocument>;
}

/** Indexes the files (URI → text) the way the server does. */
export function testWorkspace(files: Record<string, string>): TestWorkspace {
  const index = new WorkspaceIndex();
  const terms = new WorkspaceTerms(index);
  const models = new Map<string, DigestDocument>();
  for (const [uri, text] of Object.entries(files)) {
    const model = parseDigest(text);
    models.set(uri, model);
    index.update(uri, model);
  }
  const completion: CompletionWorkspace = {
    terms,
    authorsOf: (uri, entryIndex) => index.file(uri)?.papers[entryIndex]?.authors,
  };
  return { index, terms, completion, models };
}

/**
 * The position of the `|` in a document written with one, and the text without it.
 *
 * @example cursor('机构 * Kyo|') // { text: '机构 * Kyo', position: { line: 0, character: 8 } }
 */
export function cursor(textWithBar: string): { text: string; position: Position } {
  const at = textWithBar.indexOf('|');
  if (at < 0) {
    throw new Error('no | in the text');
  }
  const text = textWithBar.slice(0, at) + textWithBar.slice(at + 1);
  const before = textWithBar.slice(0, at).split('\n');
  return { text, position: { line: before.length - 1, character: before[before.length - 1].length } };
}

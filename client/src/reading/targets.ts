/**
 * Which papers a reading command applies to, from however it was run: the Papers view (the
 * clicked paper and the selection), a CodeLens (`{ uri, paperKey }`), the editor (the entry under
 * the cursor) or the palette (the editor, else the view's selection).
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LANGUAGE_ID, PaperAtRequest } from '../../../server/src/protocol';
import type { PaperCommandArgument, PaperNode } from '../../../server/src/protocol';
import type { PapersElement, PapersView } from '../papersView';

/** The papers a command works on. */
export interface PaperTargets {
  /** Paper keys, each once. */
  readonly keys: string[];
  /** The tree nodes, where known (from the view or the editor), in the same order as far as known. */
  readonly nodes: PaperNode[];
  /** The document the command came from, if any. */
  readonly uri?: string;
  /** For a CodeLens's *Open on arXiv*: the URL the server built. */
  readonly url?: string;
}

/** Where a keybinding says the command comes from (its `args`). */
export type CommandSource = 'editor' | 'view';

function isPaperElement(value: unknown): value is PapersElement {
  return typeof value === 'object' && value !== null && 'node' in value && (value as PapersElement).node?.kind === 'paper';
}

function isPaperArgument(value: unknown): value is PaperCommandArgument {
  return typeof value === 'object' && value !== null && typeof (value as PaperCommandArgument).paperKey === 'string' && typeof (value as PaperCommandArgument).uri === 'string';
}

/**
 * Resolves the targets of a reading command from its arguments.
 *
 * @example
 * // From the view's context menu on one of three selected papers:
 * await paperTargets(client, view, [clicked, [a, b, clicked]]);   // keys of a, b, clicked
 */
export async function paperTargets(client: LanguageClient, view: PapersView, args: readonly unknown[]): Promise<PaperTargets | undefined> {
  const [first, second] = args;
  if (isPaperArgument(first)) {
    return { keys: [first.paperKey], nodes: [], uri: first.uri, url: first.url };
  }
  if (isPaperElement(first)) {
    // A context menu on one paper of a multi-selection applies to the whole selection.
    const selected = Array.isArray(second) ? second.filter(isPaperElement) : [];
    const elements = selected.some((element) => element.id === first.id) ? selected : [first];
    return fromNodes(elements.map((element) => element.node as PaperNode));
  }
  const source: CommandSource | undefined = first === 'editor' || first === 'view' ? first : undefined;
  const editor = vscode.window.activeTextEditor;
  if (source !== 'view' && editor && editor.document.languageId === LANGUAGE_ID) {
    const node = await paperUnderCursor(client, editor);
    if (node) {
      return fromNodes([node]);
    }
    if (source === 'editor') {
      return undefined;
    }
  }
  const selection = view.treeView.selection.filter(isPaperElement);
  return selection.length > 0 ? fromNodes(selection.map((element) => element.node as PaperNode)) : undefined;
}

/** The paper of the entry under the editor's cursor, as a tree node, or undefined. */
export async function paperUnderCursor(client: LanguageClient, editor: vscode.TextEditor): Promise<PaperNode | undefined> {
  const position = editor.selection.active;
  const result = await client.sendRequest(PaperAtRequest, {
    uri: editor.document.uri.toString(),
    position: { line: position.line, character: position.character },
    grouping: 'file',
    filter: '',
  });
  const last = result?.path[result.path.length - 1];
  return last?.kind === 'paper' ? last : undefined;
}

function fromNodes(nodes: PaperNode[]): PaperTargets {
  const keys = [...new Set(nodes.map((node) => node.paperKey))];
  return { keys, nodes, uri: nodes[0]?.uri };
}

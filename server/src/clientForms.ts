/**
 * The forms of an answer a client declares it takes (its `initialize` capabilities), and the
 * server's answers put into them. The server makes every answer in the richest form (VS Code's:
 * Markdown hovers and completion documentation, a hierarchical outline, workspace edits as
 * `documentChanges`); a client that declares less gets the same content in the form it reads:
 * plain text, flat `SymbolInformation`, `changes`. What LSP says when a capability is absent
 * decides: no `hierarchicalDocumentSymbolSupport` means flat symbols, no `documentChanges` means
 * `changes`, a `contentFormat` or `documentationFormat` without `markdown` means plain text
 * (absent means Markdown is fine: most clients that leave it out render it).
 */
import type { CodeAction, Command, CompletionItem, DocumentSymbol, Hover, MarkupContent, SymbolInformation, TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';

/** What a client reads, from its capabilities. */
export interface ClientForms {
  readonly markdownHover: boolean;
  readonly markdownDocumentation: boolean;
  readonly hierarchicalSymbols: boolean;
  readonly documentChanges: boolean;
  /** Code actions as `CodeAction` literals; else as `Command`s (LSP before 3.8). */
  readonly codeActionLiterals: boolean;
}

/** The forms VS Code reads: every answer as the server makes it. */
export const RICHEST_FORMS: ClientForms = { markdownHover: true, markdownDocumentation: true, hierarchicalSymbols: true, documentChanges: true, codeActionLiterals: true };

/**
 * The forms of a client's capabilities (anything malformed read as absent).
 *
 * @example clientForms({ textDocument: { hover: { contentFormat: ['plaintext'] } } }).markdownHover // false
 */
export function clientForms(capabilities: unknown): ClientForms {
  const document = field(capabilities, 'textDocument');
  const hoverFormats = field(field(document, 'hover'), 'contentFormat');
  const documentationFormats = field(field(field(document, 'completion'), 'completionItem'), 'documentationFormat');
  return {
    markdownHover: takesMarkdown(hoverFormats),
    markdownDocumentation: takesMarkdown(documentationFormats),
    hierarchicalSymbols: field(field(document, 'documentSymbol'), 'hierarchicalDocumentSymbolSupport') === true,
    documentChanges: field(field(field(capabilities, 'workspace'), 'workspaceEdit'), 'documentChanges') === true,
    codeActionLiterals: typeof field(field(document, 'codeAction'), 'codeActionLiteralSupport') === 'object',
  };
}

/**
 * Code actions as the `Command`s a client without code action literals runs: an action that
 * edits, as `command` with the document, its version and the edits (the server applies them
 * through `workspace/applyEdit`, none once the document changed); one that runs a command, as
 * that command.
 *
 * @example actionsAsCommands([{ title: 'Use ；', edit }], 'paperDigest.applyFix', 'file:///a.digest', 3)
 * // [{ title: 'Use ；', command: 'paperDigest.applyFix', arguments: ['file:///a.digest', 3, [edits]] }]
 */
export function actionsAsCommands(actions: readonly (CodeAction | Command)[], command: string, uri: string, version: number): Command[] {
  const commands: Command[] = [];
  for (const action of actions) {
    if (!('kind' in action) && !('edit' in action) && typeof (action as Command).command === 'string') {
      commands.push(action as Command);
      continue;
    }
    const codeAction = action as CodeAction;
    const edits = codeAction.edit ? editsOf(withChanges(codeAction.edit), uri) : undefined;
    if (edits && edits.length > 0) {
      commands.push({ title: codeAction.title, command, arguments: [uri, version, edits] });
    } else if (codeAction.command) {
      commands.push({ ...codeAction.command, title: codeAction.title });
    }
  }
  return commands;
}

/** The text edits of one document in a workspace edit made of `changes`; undefined when it edits anything else. */
function editsOf(edit: WorkspaceEdit, uri: string): TextEdit[] | undefined {
  const changes = edit.changes;
  return changes && Object.keys(changes).every((each) => each === uri) ? changes[uri] : undefined;
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}

function takesMarkdown(formats: unknown): boolean {
  return !Array.isArray(formats) || formats.includes('markdown');
}

/** A hover in plain text: its Markdown read as a reader of it would see it. */
export function plainHover(hover: Hover | null): Hover | null {
  if (!hover || !isMarkdown(hover.contents)) {
    return hover;
  }
  return { ...hover, contents: { kind: 'plaintext', value: markdownToPlain(hover.contents.value) } };
}

/** A completion item whose documentation is plain text. */
export function plainDocumentation(item: CompletionItem): CompletionItem {
  return isMarkdown(item.documentation) ? { ...item, documentation: { kind: 'plaintext', value: markdownToPlain(item.documentation.value) } } : item;
}

function isMarkdown(value: unknown): value is MarkupContent {
  return value !== null && typeof value === 'object' && (value as MarkupContent).kind === 'markdown' && typeof (value as MarkupContent).value === 'string';
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };

/**
 * The text a reader sees of the Markdown the server writes (hover.ts, completion.ts, the reading
 * hover): document text escaped by `escapeMarkdown` (a backslash before ASCII punctuation, the
 * five HTML characters as entities), `**strong**` and `*emphasis*`, code spans, links
 * `[text](target)` and `---` rules between parts. Escapes and entities are read, markers dropped,
 * a link becomes its text, a code span its content as written, a rule a blank line between the
 * parts (document text written `---` is escaped, `\\-\\-\\-`, and stays).
 *
 * @example markdownToPlain('**Kyoto University** · *Institution 1 of 3*') // 'Kyoto University · Institution 1 of 3'
 * @example markdownToPlain('a\\*b &lt;c&gt;')                              // 'a*b <c>'
 */
export function markdownToPlain(given: string): string {
  // The rules, each on its own line: the parts they separate get one blank line between them.
  const markdown = given.includes('---') ? withoutRules(given) : given;
  let out = '';
  let i = 0;
  while (i < markdown.length) {
    const c = markdown[i];
    if (c === '\\' && i + 1 < markdown.length && /[!-/:-@[-`{-~]/.test(markdown[i + 1])) {
      out += markdown[i + 1];
      i += 2;
    } else if (c === '`') {
      const end = markdown.indexOf('`', i + 1);
      if (end < 0) {
        out += markdown.slice(i);
        break;
      }
      out += markdown.slice(i + 1, end);
      i = end + 1;
    } else if (c === '*') {
      i++;
    } else if (c === '[') {
      i++;
    } else if (c === ']' && markdown[i + 1] === '(') {
      const end = markdown.indexOf(')', i + 2);
      i = end < 0 ? markdown.length : end + 1;
    } else if (c === '&') {
      const entity = /^&(?:lt|gt|amp|quot|#39);/.exec(markdown.slice(i, i + 6))?.[0];
      out += entity ? ENTITIES[entity] : c;
      i += entity ? entity.length : 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Markdown without its `---` rule lines: the parts they separated, one blank line between each two (as rendered, blank lines are one break). */
function withoutRules(markdown: string): string {
  const lines = markdown.split('\n').filter((line) => line.trimEnd() !== '---');
  const kept: string[] = [];
  for (const line of lines) {
    const blank = line.trim() === '';
    if (blank && (kept.length === 0 || kept[kept.length - 1].trim() === '')) continue;
    kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1].trim() === '') kept.pop();
  return kept.join('\n');
}

/**
 * An outline as flat symbols: each symbol with its range as its location, named under the
 * symbol that holds it (`containerName`), in document order.
 */
export function flatSymbols(symbols: readonly DocumentSymbol[], uri: string): SymbolInformation[] {
  const result: SymbolInformation[] = [];
  const visit = (symbol: DocumentSymbol, container: string | undefined): void => {
    result.push(container === undefined ? { name: symbol.name, kind: symbol.kind, location: { uri, range: symbol.range } } : { name: symbol.name, kind: symbol.kind, location: { uri, range: symbol.range }, containerName: container });
    for (const child of symbol.children ?? []) {
      visit(child, symbol.name);
    }
  };
  for (const symbol of symbols) {
    visit(symbol, undefined);
  }
  return result;
}

/**
 * A workspace edit as `changes` (edits by URI) for a client without `documentChanges`. An edit
 * that creates, renames or deletes a file has no such form and is left as it is (the server
 * makes none).
 */
export function withChanges(edit: WorkspaceEdit): WorkspaceEdit {
  if (!edit.documentChanges) {
    return edit;
  }
  const changes: Record<string, TextEdit[]> = {};
  for (const change of edit.documentChanges) {
    if (!('textDocument' in change)) {
      return edit;
    }
    for (const each of change.edits) {
      const newText = (each as Partial<TextEdit>).newText;
      if (typeof newText !== 'string') {
        // A snippet edit (only for a client that declares them, with documentChanges).
        return edit;
      }
      (changes[change.textDocument.uri] ??= []).push({ range: each.range, newText });
    }
  }
  return { changes };
}

/**
 * Pull diagnostics (LSP 3.17): `textDocument/diagnostic` for open documents and
 * `workspace/diagnostic` for every digest of the workspace, open or not, so that a client's
 * problems view lists them all.
 *
 * Each answer carries a result id made of what the diagnostics depend on: the document's version
 * (an open document) or a stamp that moves whenever the index sees the file change (a file on
 * disk), the stamp of what other files contribute (duplicates, translations), and the settings.
 * A client that sends the id back for unchanged content gets `unchanged`, without a parse; a file
 * that changed is read from disk and parsed on demand, one at a time, and nothing is kept but the
 * ids. Files that left the workspace, or all of them when the scope is `openFiles` or the
 * diagnostics are off, are answered once with an empty report, so the client drops what it
 * showed.
 */
import type { CancellationToken, Diagnostic, DocumentDiagnosticReport, WorkspaceDiagnosticReport, WorkspaceDocumentDiagnosticReport } from 'vscode-languageserver';
import type { DigestDocument } from './service/model';

/** `paperDigest.diagnostics.scope`: which files the problems view gets problems of. */
export type DiagnosticsScope = 'workspace' | 'openFiles';

/** What the pull needs of the server. */
export interface PullDiagnosticsHost {
  /** The open document of a URI (canonical or as the client spelled it), with its version and model. */
  openDocument(uri: string): { readonly uri: string; readonly version: number; model(): DigestDocument } | undefined;
  /** The canonical URIs of the digest files the index knows, in any order. */
  indexedFiles(): readonly string[];
  /** The canonical URI of a client URI. */
  canonical(uri: string): string;
  /** The text of a file on disk, undefined when it cannot be read. */
  readFile(uri: string): Promise<string | undefined>;
  /** Parses a text. */
  parse(text: string): DigestDocument;
  /** The diagnostics of a model of `uri` (the client's URI for an open document), or undefined when they are off. */
  diagnostics(uri: string, model: DigestDocument): Promise<Diagnostic[] | undefined>;
  /** The scope setting, and whether the diagnostics are on at all (workspace-wide settings). */
  scope(): Promise<{ readonly scope: DiagnosticsScope; readonly enabled: boolean }>;
}

/** How many unchanged files are compared between two checks of the token. */
const CHECK_EVERY = 512;

export class PullDiagnostics {
  /** Per canonical URI: moves when the index sees the file (or what it shares with others) change. */
  private readonly stamps = new Map<string, number>();
  private nextStamp = 1;
  /** Moves for every file: settings, translations of the whole workspace. */
  private globalStamp = 0;

  constructor(private readonly host: PullDiagnosticsHost) {}

  /** Files whose diagnostics may have changed: their content, or the papers they share with others. */
  filesChanged(uris: Iterable<string>): void {
    for (const uri of uris) {
      this.stamps.set(this.host.canonical(uri), this.nextStamp++);
    }
  }

  /** Everything may have changed: settings, or what all files depend on. */
  allChanged(): void {
    this.globalStamp++;
  }

  /** The answer to `textDocument/diagnostic`. */
  async document(uri: string, previousResultId: string | undefined): Promise<DocumentDiagnosticReport> {
    const document = this.host.openDocument(uri);
    if (!document) {
      // Not open (any more): the workspace report covers it.
      return { kind: 'full', items: [] };
    }
    const resultId = `o${document.version}:${this.stampOf(uri)}:${this.globalStamp}`;
    if (previousResultId === resultId) {
      return { kind: 'unchanged', resultId };
    }
    const items = (await this.host.diagnostics(document.uri, document.model())) ?? [];
    return { kind: 'full', resultId, items };
  }

  /** The answer to `workspace/diagnostic`: every digest of the workspace that is not open. */
  async workspace(previousResultIds: readonly { readonly uri: string; readonly value: string }[], token: CancellationToken): Promise<WorkspaceDiagnosticReport> {
    const previous = new Map<string, string>();
    for (const { uri, value } of previousResultIds) {
      previous.set(this.host.canonical(uri), value);
    }
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    const { scope, enabled } = await this.host.scope();
    const reported = new Set<string>();
    if (enabled && scope === 'workspace') {
      let seen = 0;
      for (const uri of this.host.indexedFiles()) {
        if ((++seen % CHECK_EVERY === 0 || previous.get(uri) === undefined) && token.isCancellationRequested) {
          return { items };
        }
        if (this.host.openDocument(uri)) {
          // Open documents are pulled one by one, with their versions.
          continue;
        }
        reported.add(uri);
        const resultId = `d${this.stampOf(uri)}:${this.globalStamp}`;
        if (previous.get(uri) === resultId) {
          items.push({ kind: 'unchanged', uri, version: null, resultId });
          continue;
        }
        const stampBefore = resultId;
        const text = await this.host.readFile(uri);
        if (token.isCancellationRequested) {
          return { items };
        }
        if (text === undefined || this.host.openDocument(uri)) {
          continue;
        }
        const diagnostics = (await this.host.diagnostics(uri, this.host.parse(text))) ?? [];
        // A change seen while the file was read gets the next pull a fresh look.
        const current = `d${this.stampOf(uri)}:${this.globalStamp}`;
        items.push({ kind: 'full', uri, version: null, resultId: current === stampBefore ? resultId : 'stale', items: diagnostics });
        // Let other requests (a keystroke, a hover) through between two files.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    // Files the client still shows problems of that are no longer reported: an empty report once.
    for (const [uri, value] of previous) {
      if (reported.has(uri) || this.host.openDocument(uri) || value === 'none') {
        continue;
      }
      items.push({ kind: 'full', uri, version: null, resultId: 'none', items: [] });
    }
    return { items };
  }

  private stampOf(uri: string): number {
    return this.stamps.get(this.host.canonical(uri)) ?? 0;
  }
}

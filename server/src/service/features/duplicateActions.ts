/**
 * The code actions of a `duplicate-paper` diagnostic that open the other copies of the paper.
 *
 * They are commands, not edits: `paperDigest.openLocation` with `[uri, range]`, a command the
 * VS Code client registers (other clients may map it to their "go to location"). The copies come
 * from the diagnostic the client shows (`data.otherCopies`, else its related information), since
 * the places in other files are known when the diagnostics are computed, not from the document.
 */
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import { CodeActionKind } from 'vscode-languageserver-types';
import { DIAGNOSTIC_SOURCE, DiagnosticCode, PaperLocation } from './diagnostics';
import { bilingual, MessageLanguage, say } from '../messages';
import { decodeUriText } from '../text';
import { isRange } from '../edits';

/** The client command that opens a document at a range: arguments `[uri: string, range: Range]`. */
export const OPEN_LOCATION_COMMAND = 'paperDigest.openLocation';

/** At most this many copies get an action of their own. */
const MAX_ACTIONS = 5;

/**
 * One action per other copy of a duplicated paper, for the diagnostics the client sent.
 *
 * @example
 * openCopyActions('file:///w/b.digest', [diagnostic])[0].command
 * // { title: 'Open the other copy in a.digest, line 3 — …', command: 'paperDigest.openLocation', arguments: ['file:///w/a.digest', range] }
 */
export function openCopyActions(uri: string, diagnostics: readonly Diagnostic[], language?: MessageLanguage): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.code !== DiagnosticCode.DuplicatePaper || (diagnostic.source !== undefined && diagnostic.source !== DIAGNOSTIC_SOURCE)) {
      continue;
    }
    for (const copy of copiesOf(uri, diagnostic).slice(0, MAX_ACTIONS)) {
      const [file, line] = [fileName(copy.uri), copy.range.start.line + 1];
      const title = say(bilingual(`Open the other copy in ${file}, line ${line}`, `打开另一文件中的同一论文（${file} 第 ${line} 行）`), language);
      actions.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], command: { title, command: OPEN_LOCATION_COMMAND, arguments: [copy.uri, copy.range] } });
    }
  }
  return actions;
}

/** The copies in files other than `uri` that a diagnostic names. */
function copiesOf(uri: string, diagnostic: Diagnostic): PaperLocation[] {
  const data = diagnostic.data as { otherCopies?: unknown } | undefined;
  const copies: PaperLocation[] = [];
  const seen = new Set<string>();
  const push = (location: unknown): void => {
    if (!isLocation(location)) return;
    const key = `${location.uri}#${location.range.start.line}`;
    if (seen.has(key)) return;
    seen.add(key);
    copies.push({ uri: location.uri, range: location.range });
  };
  if (Array.isArray(data?.otherCopies)) {
    data!.otherCopies.forEach(push);
  }
  // The copy earlier in the same file has its own fix (remove this entry); only other files here.
  for (const info of diagnostic.relatedInformation ?? []) {
    if (info.location.uri !== uri) push(info.location);
  }
  return copies.filter((copy) => copy.uri !== uri);
}

function isLocation(value: unknown): value is PaperLocation {
  const location = value as PaperLocation | undefined;
  return typeof location?.uri === 'string' && isRange(location.range);
}

/** The last path segment of a URI, decoded. */
function fileName(uri: string): string {
  const segment = uri.replace(/[?#].*$/, '').split('/').pop() ?? uri;
  return decodeUriText(segment);
}

/**
 * Content detection: a plain `.txt` file whose first lines read like a digest is switched to the
 * digest language. Pure, so it can be tested without an editor.
 */

/** Labels that only digests use. */
const DIGEST_MARKERS = ['专题命中', 'AI总结', '机构 * '];

/** How many lines from the top are examined. */
export const DETECTION_LINES = 60;

/**
 * Whether the first lines of a text read like a digest: at least two of the digest labels stand
 * at the start of a line.
 *
 * @example
 * looksLikeDigest('主题\n\nTitle\n\n标题\n\nA B\n\n专题命中 x ：a(title)；分类 cs.CL\n\nAI总结 …') // true
 */
export function looksLikeDigest(text: string): boolean {
  const lines = text.split(/\r\n|\r|\n/, DETECTION_LINES);
  const seen = new Set<string>();
  for (const line of lines) {
    const trimmed = line.replace(/^\uFEFF/, '').trimStart();
    for (const marker of DIGEST_MARKERS) {
      if (trimmed.startsWith(marker.trimEnd())) {
        seen.add(marker);
      }
    }
  }
  return seen.size >= 2;
}

/**
 * Tells genuine opens of a document from language changes. VS Code reports a change of a
 * document's language as a close followed by an open of the same document object, while a file
 * that is really closed and opened again comes as a new object. Content detection runs on genuine
 * opens only, so a language the user picks (Plain Text on a detected `.txt`) stays until the
 * file is reopened. Generic over the document type so it can be tested without an editor.
 *
 * @example
 * const opens = new OpenTracker<vscode.TextDocument>();
 * workspace.onDidCloseTextDocument((d) => opens.closed(d));
 * workspace.onDidOpenTextDocument((d) => { if (opens.opened(d)) detect(d); });
 */
export class OpenTracker<D extends object> {
  private readonly closedDocuments = new WeakSet<D>();

  /** Records that a document was closed (really, or for a change of its language). */
  closed(document: D): void {
    this.closedDocuments.add(document);
  }

  /** Whether an open is a genuine one (true) rather than the second half of a language change. */
  opened(document: D): boolean {
    const languageChange = this.closedDocuments.has(document);
    this.closedDocuments.delete(document);
    return !languageChange;
  }
}

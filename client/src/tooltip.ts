/**
 * The Markdown of a paper's tooltip in the Papers view, kept apart from papersView.ts (which needs
 * VS Code) so that tests render it as VS Code does, with a GFM renderer.
 *
 * Document text is untrusted: the server has cleaned and cut it (tree.ts), and every piece goes
 * through `escapeMarkdown` (each ASCII punctuation mark escaped), so no link, autolink
 * (`https://`, `www.`, an e-mail address, `<https://…>`), image, HTML or `$(icon)` survives. VS
 * Code's `MarkdownString.appendText` escapes too little for that: it leaves `:`, `/`, `.`, `@` and
 * `<` as they are.
 */
import type { PaperNode } from '../../server/src/protocol';
import { MAX_LABEL_LENGTH } from '../../server/src/service/features/tree';
import { clip, displayColumns, escapeMarkdown, plainLabel } from '../../server/src/service/text';

/**
 * The tooltip: both titles, the summary, and where the duplicates are (`placeOf` names a
 * location, e.g. `digests/a.digest:12`; `alsoAt` words the line, in the display language).
 *
 * @example paperTooltipMarkdown(node, (l) => l.uri) // 'Sparse Probes\n\n稀疏探针\n\n---\n\n本文…'
 */
export function paperTooltipMarkdown(node: Pick<PaperNode, 'title' | 'chineseTitle' | 'summary' | 'duplicate' | 'duplicateCount' | 'duplicates'>, placeOf: (location: PaperNode['duplicates'][number]) => string, alsoAt: (places: string, more: number) => string = englishAlsoAt): string {
  const blocks = [escapeMarkdown(node.title)];
  if (node.chineseTitle) {
    blocks.push(escapeMarkdown(node.chineseTitle));
  }
  if (node.summary) {
    blocks.push('---', escapeMarkdown(node.summary));
  }
  if (node.duplicate) {
    const places = node.duplicates.map(placeOf);
    blocks.push('---', escapeMarkdown(alsoAt(places.join(', '), Math.max(0, node.duplicateCount - places.length))));
  }
  return blocks.filter((block) => block.length > 0).join('\n\n');
}

function englishAlsoAt(places: string, more: number): string {
  return `Same English title also at ${places}${more > 0 ? ` and ${more} more` : ''}`;
}

/**
 * The name of a paper's file as a row shows it: the last segment of its path, which VS Code gives
 * decoded (a name may hold a line break or U+202E), cleaned and cut as the server's labels are.
 *
 * @example fileLabel('/w/a\u202Egnp.digest') // 'a\ufffdgnp.digest'
 */
export function fileLabel(path: string): string {
  return plainLabel(path.slice(path.lastIndexOf('/') + 1), MAX_LABEL_LENGTH);
}

/**
 * A paper row's description: its Chinese title, its file's name (`fileLabel`) where shown, and
 * whether it is a duplicate; each part plain text, cleaned.
 */
export function paperDescription(node: Pick<PaperNode, 'chineseTitle'>, file: string | undefined, duplicate: string | undefined): string {
  return [node.chineseTitle, file === undefined ? '' : fileLabel(file), duplicate ?? ''].filter((part) => part).join(' · ');
}

/** A file group's tooltip: the file's path in the workspace (cleaned and cut) and how many papers. */
export function fileGroupTooltip(relativePath: string, papers: string): string {
  return `${plainLabel(relativePath, MAX_LABEL_LENGTH)} — ${papers}`;
}

/** The longest message shown: longer ones (a path of thousands of characters) are cut with `…`. */
const MAX_MESSAGE_LENGTH = 2_000;

/**
 * A message as a notification may show it: plain, without link syntax (a word joiner, U+2060,
 * between `]` and `(`, which VS Code's link pattern needs side by side; the text reads the same).
 *
 * @example notificationText('marked 2 papers read in [x](command:evil)') // 'marked 2 papers read in [x]\u2060(command:evil)'
 */
export function notificationText(message: string): string {
  return plainLabel(message, MAX_MESSAGE_LENGTH).replace(/\]\(/g, ']\u2060(');
}

/**
 * Text for one paragraph of a tooltip: one line (line ends as spaces), control and bidirectional
 * characters replaced, at most `max` characters, every Markdown character escaped.
 *
 * @example tooltipText('Note: see https://x.example\nlater', 200) // 'Note\\: see https\\:\\/\\/x\\.example later'
 */
export function tooltipText(text: string, max: number): string {
  return escapeMarkdown(plainLabel(text.replace(/\s*(?:\r\n?|\n)\s*/g, ' '), max));
}

/**
 * Document text (or a file's name) for a quick pick or the status bar, which draw `$(name)` as an
 * icon: one line, no control or bidirectional characters, `$(` broken by a zero-width space,
 * bounded.
 *
 * @example pickText('Run $(terminal) now') // 'Run $\u200b(terminal) now'
 */
export function pickText(text: string, max = 300): string {
  const line = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\$\(/g, '$\u200b(');
  // Cut before a pair's high half, not between its halves.
  return clip(line, max);
}

/**
 * Document text as at most `maxLines` lines of at most `width` columns each (a Chinese character
 * two), for rows of a quick pick, which cuts a longer one: cut at a space where there is one in
 * the line's second half, else between two characters (Chinese has no spaces), never inside a
 * surrogate pair; `…` at the end of the last line when text is left over. Made safe as
 * `pickText` makes it.
 *
 * @example wrapText('大模型推理能力的评测', 8, 3) // ['大模型推', '理能力的', '评测']
 */
export function wrapText(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let rest = pickText(text, width * maxLines + 1);
  while (rest.length > 0 && lines.length < maxLines) {
    let used = 0;
    let fits = 0;
    while (fits < rest.length) {
      const c = rest.codePointAt(fits)!;
      const columns = displayColumns(c);
      if (used + columns > width) break;
      used += columns;
      fits += c > 0xffff ? 2 : 1;
    }
    if (fits >= rest.length) {
      lines.push(rest);
      rest = '';
      break;
    }
    const space = rest.lastIndexOf(' ', fits);
    const cut = space > fits / 2 ? space : Math.max(fits, 1);
    lines.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest.length > 0 && lines.length > 0) {
    // Room for the `…` (one column) at the end of the last line.
    const last = lines[lines.length - 1];
    const cut = last.length - (/[\ud800-\udbff][\udc00-\udfff]$/.test(last) ? 2 : 1);
    lines[lines.length - 1] = `${last.slice(0, cut).trimEnd()}…`;
  }
  return lines;
}

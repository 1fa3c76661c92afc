/**
 * Document links: arXiv identifiers in an entry (`arXiv:2507.07996`, `2507.07996v2`, old-style
 * `cs/0112017`) link to their abstract pages, and URLs in `Comments` are links.
 *
 * Links are built from validated text only: an identifier must have the form arXiv gives it (a
 * real month, the number of digits of its time, a known archive), a URL must parse and be
 * `http:` or `https:` with a host and no user name. No other scheme (`command:`, `file:`,
 * `javascript:`...) ever becomes a link.
 */
import type { DocumentLink, Range } from 'vscode-languageserver-types';
import type { Cancellation } from '../cancellation';
import { NEVER_CANCELLED } from '../cancellation';
import type { DigestDocument, Span, TextField } from '../model';
import { archives } from '../taxonomy';
import { bilingual, DEFAULT_MESSAGE_LANGUAGE, MessageLanguage, say } from '../messages';

/** The most links one document gets: the first ones, in document order. */
export const MAX_LINKS = 10_000;

/** New-style `YYMM.NNNNN` and old-style `archive(.XX)/YYMMNNN` identifiers, with an optional `arXiv:`. */
const ARXIV_ID = /(?<![\w./:-])(?:arXiv:\s?)?(?:(\d{2})(\d{2})\.(\d{4,5})|([a-z]+(?:-[a-z]+)?)(?:\.[A-Z]{2})?\/(\d{2})(\d{2})(\d{3}))(?:v[1-9]\d{0,2})?(?![\w/-]|\.\d)/gi;

/** The tooltip of an identifier's link, in both languages. */
export function arxivTooltip(id: string): { en: string; zh: string } {
  return bilingual(`arXiv abstract page of ${id}`, `${id} 的 arXiv 摘要页`);
}

/**
 * The links of a digest, in document order; the identifiers' tooltips in the message language.
 *
 * @example
 * // `Comments 12 pages. Code: https://example.org/probes, see arXiv:2405.09673`
 * documentLinks(doc, NEVER_CANCELLED, 'en')
 * // [{ range: <https://example.org/probes>, target: 'https://example.org/probes' },
 * //  { range: <arXiv:2405.09673>, target: 'https://arxiv.org/abs/2405.09673', tooltip: 'arXiv abstract page of 2405.09673' }]
 */
export function documentLinks(doc: DigestDocument, token: Cancellation = NEVER_CANCELLED, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): DocumentLink[] {
  const links: DocumentLink[] = [];
  for (let i = 0; i < doc.entries.length && links.length < MAX_LINKS; i++) {
    if ((i & 255) === 0 && token.isCancellationRequested) {
      return [];
    }
    const entry = doc.entries[i];
    for (const field of [entry.summary, entry.comments, entry.journalRef]) {
      if (field) {
        fieldLinks(field, links, language);
      }
    }
  }
  return links.length > MAX_LINKS ? links.slice(0, MAX_LINKS) : links;
}

function fieldLinks(field: TextField, into: DocumentLink[], language: MessageLanguage): void {
  const urls: Range[] = [];
  const found: DocumentLink[] = [];
  if (field.kind === 'comments') {
    for (const link of field.links) {
      if (link.kind === 'url') {
        const target = validUrl(link.text);
        urls.push(link.range);
        if (target) {
          found.push({ range: link.range, target });
        }
      }
    }
  }
  for (const id of arxivIdentifiers(field.value)) {
    // An identifier inside a URL is the URL's.
    if (!urls.some((url) => url.start.character <= id.range.start.character && id.range.end.character <= url.end.character)) {
      found.push({ range: id.range, target: `https://arxiv.org/abs/${id.id}`, tooltip: say(arxivTooltip(id.id), language) });
    }
  }
  found.sort((a, b) => a.range.start.character - b.range.start.character);
  into.push(...found);
}

/**
 * The validated arXiv identifiers of a piece of text, with their ranges (the `arXiv:` prefix
 * included) and the identifier as arXiv writes it.
 *
 * @example arxivIdentifiers(span).map((each) => each.id) // ['2507.07996v2', 'cs/0112017']
 */
export function arxivIdentifiers(span: Span): { range: Range; id: string }[] {
  const result: { range: Range; id: string }[] = [];
  const text = span.text;
  if (!/\d{4}/.test(text)) {
    return result;
  }
  ARXIV_ID.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = ARXIV_ID.exec(text)) !== null) {
    const whole = match[0];
    const id = whole.replace(/^arXiv:\s?/i, '');
    if (!validIdentifier(match)) {
      continue;
    }
    const line = span.range.start.line;
    const start = span.range.start.character + match.index;
    result.push({ range: { start: { line, character: start }, end: { line, character: start + whole.length } }, id });
  }
  ARXIV_ID.lastIndex = 0;
  return result;
}

/**
 * Whether an identifier (without `arXiv:`) is one arXiv gives, as `arxivIdentifiers` finds them:
 * the form, a real month, the digits of its years, a known archive. The hover links only these.
 *
 * @example isArxivIdentifier('2405.09673v2') // true
 * @example isArxivIdentifier('9999.99999')   // false (no month 99)
 */
export function isArxivIdentifier(id: string): boolean {
  ARXIV_ID.lastIndex = 0;
  const match = ARXIV_ID.exec(id);
  ARXIV_ID.lastIndex = 0;
  return match !== null && match.index === 0 && match[0].length === id.length && validIdentifier(match);
}

function validIdentifier(match: RegExpExecArray): boolean {
  if (match[1] !== undefined) {
    // New style: April 2007 on; four digits up to 2014, five from 2015.
    const year = Number(match[1]);
    const month = Number(match[2]);
    const digits = match[3].length;
    // Numbers count from 1 each month: `2507.00000` names no paper.
    if (month < 1 || month > 12 || (year === 7 && month < 4) || year < 7 || Number(match[3]) === 0) {
      return false;
    }
    return year <= 14 ? digits === 4 : digits === 5;
  }
  // Old style: a known archive, from August 1991 to March 2007.
  const archive = match[4].toLowerCase();
  const year = Number(match[5]);
  const month = Number(match[6]);
  if (!archives.has(archive) && !OLD_ARCHIVES.has(archive)) {
    return false;
  }
  return month >= 1 && month <= 12 && (year >= 91 || year <= 7) && Number(match[7]) !== 0;
}

/** Archives of old-style identifiers that are no longer archives of the taxonomy. */
const OLD_ARCHIVES: ReadonlySet<string> = new Set(['alg-geom', 'funct-an', 'q-alg', 'dg-ga', 'chao-dyn', 'solv-int', 'patt-sol', 'adap-org', 'comp-gas', 'mtrl-th', 'supr-con', 'chem-ph', 'atom-ph', 'acc-phys', 'ao-sci', 'bayes-an', 'plasm-ph', 'cmp-lg']);

/**
 * The URL as a link target when it is a well-formed `http:` or `https:` URL with a host and no
 * credentials; undefined otherwise.
 *
 * @example validUrl('https://example.org/probes') // 'https://example.org/probes'
 * @example validUrl('command:workbench.action.quit') // undefined
 */
export function validUrl(text: string): string | undefined {
  if (!/^https?:\/\//i.test(text) || /[\u0000-\u0020\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text) || text.length > 2048) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname.length === 0 || url.username || url.password) {
    return undefined;
  }
  return url.href;
}

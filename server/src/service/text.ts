/**
 * Small text predicates shared by the parser and the features. All are linear-time and never
 * backtrack: document text is untrusted and can be huge.
 */

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

/**
 * The columns a character (a code point) takes where text is drawn in a UI font, roughly: two
 * for an East Asian wide one (CJK ideographs and syllables, kana, full-width forms and
 * punctuation) and one outside the Basic Multilingual Plane (an emoji), one otherwise. The charts
 * fit their labels by it, the triage its rows.
 *
 * @example displayColumns('中'.codePointAt(0)!) // 2
 */
export function displayColumns(c: number): number {
  return (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    c > 0xffff
    ? 2
    : 1;
}

/** Whether a UTF-16 code unit is a CJK ideograph of the blocks `hasCjk` knows. */
export function isCjkIdeograph(c: number): boolean {
  return (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
}

/** Whether the text contains a CJK ideograph, e.g. `hasCjk('T^2MLR：循环')` is true. */
export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/**
 * Whether a file's text is empty or white space only (as `String.prototype.trim` knows it), a
 * byte order mark at its start aside: what a state file holds as an empty state, and what a
 * program rewriting one in place has written first.
 *
 * @example emptyOrWhiteSpace('\ufeff \n') // true
 */
export function emptyOrWhiteSpace(text: string): boolean {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).trim() === '';
}

/** Whether a line counts as blank: empty or only spaces and tabs. */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) {
      return false;
    }
  }
  return true;
}

/** Index of the first character that is not a space or tab, from `from`. */
export function skipSpaces(text: string, from: number, to = text.length): number {
  let i = from;
  while (i < to && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09 || text.charCodeAt(i) === 0x3000)) {
    i++;
  }
  return i;
}

/** Index just past the last character before `to` that is not a space or tab. */
export function trimEndIndex(text: string, from: number, to: number): number {
  let j = to;
  while (j > from && (text.charCodeAt(j - 1) === 0x20 || text.charCodeAt(j - 1) === 0x09 || text.charCodeAt(j - 1) === 0x3000)) {
    j--;
  }
  return j;
}

/**
 * A URI or path without the slashes at its end, found from the end (a regular expression such as
 * `/\/+$/` is tried at every start of a long run of slashes: quadratic).
 *
 * @example withoutTrailingSlashes('file:///w/papers//') // 'file:///w/papers'
 */
export function withoutTrailingSlashes(text: string, keep = 0): string {
  let end = text.length;
  while (end > keep && text.charCodeAt(end - 1) === 0x2f) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Particles that stand lower-case inside personal names (`Ludwig van Beethoven`). */
export const NAME_PARTICLES: ReadonlySet<string> = new Set(['de', 'da', 'di', 'do', 'dos', 'das', 'del', 'della', 'der', 'den', 'van', 'von', 'la', 'le', 'du', 'al', 'el', 'bin', 'ibn', 'y', 'e', 'zu', 'ter', 'ten', 'st.']);

/**
 * Whether one comma-separated item reads like a personal name: one to six words, each starting
 * with a capital letter (or an initial, or a name particle), no digits or colons.
 * `looksLikeName('Mei Tanaka')` is true; `looksLikeName('and Cheap Reasoning')` is false.
 */
export function looksLikeName(item: string): boolean {
  const trimmed = item.trim();
  if (trimmed.length === 0 || trimmed.length > 60 || /[0-9:：?!()（）\[\]]/.test(trimmed)) {
    return false;
  }
  const words = trimmed.split(/\s+/);
  if (words.length > 6) {
    return false;
  }
  let capitalised = 0;
  for (const word of words) {
    const first = word.charAt(0);
    if (first !== first.toLowerCase() && first === first.toUpperCase()) {
      capitalised++;
    } else if (!NAME_PARTICLES.has(word.toLowerCase())) {
      return false;
    }
  }
  return capitalised > 0;
}

/**
 * How much a line reads like an author list: `strong` for two or more names separated by commas,
 * `weak` for a single name, `no` otherwise. Lines with CJK ideographs are never author lists.
 */
export function authorListLikeness(text: string): 'strong' | 'weak' | 'no' {
  if (hasCjk(text)) {
    return 'no';
  }
  const items = text.split(/[,，]/);
  if (items.length >= 2) {
    let names = 0;
    for (const item of items) {
      if (looksLikeName(item)) {
        names++;
      }
    }
    // "et al." and similar tails are tolerated: most items must be names.
    return names >= Math.max(2, Math.ceil(items.length * 0.8)) ? 'strong' : 'no';
  }
  const words = text.trim().split(/\s+/);
  return words.length >= 2 && words.length <= 4 && looksLikeName(text) ? 'weak' : 'no';
}

/**
 * Characters that Markdown or a Markdown renderer gives a meaning to: every ASCII punctuation
 * character, plus control characters, the line and paragraph separators, the bidirectional
 * marks, embedding, override and isolate characters (which can make rendered text read
 * differently from the text itself) and lone surrogates (no character at all), as in a label
 * (`LABEL_UNSAFE`) but for tab and line ends.
 */
const MARKDOWN_SIGNIFICANT = /[!-/:-@[-`{-~]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Escapes text for inclusion in Markdown, so that document text never becomes markup.
 *
 * Every ASCII punctuation character is backslash-escaped (CommonMark allows that for all of
 * them), except `<`, `>`, `&`, `"` and `'`, which become character references. So no emphasis,
 * code span, link, image, raw HTML, entity, heading, list, table, block quote, setext underline
 * or `$(icon)` survives, wherever the text is placed in a paragraph. And because `:`, `.`, `/`
 * and `@` are escaped, renderers that turn bare addresses into links (markdown-it's linkify,
 * marked's GFM autolinks) find no `https://`, `www.` or e-mail address in it. Control characters
 * other than tab and line ends, and bidirectional overrides, become U+FFFD; otherwise the rendered
 * text reads exactly as the input did. The result is for running text only, never for the inside
 * of a code span or a link destination, where escapes are not read.
 *
 * @example escapeMarkdown('[x](command:run)')  // '\\[x\\]\\(command\\:run\\)'
 * @example escapeMarkdown('<img src=x>')        // '&lt;img src\\=x&gt;'
 * @example escapeMarkdown('www.evil.example')   // 'www\\.evil\\.example'
 */
export function escapeMarkdown(text: string): string {
  return text.replace(MARKDOWN_SIGNIFICANT, (c) => {
    switch (c) {
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '&':
        return '&amp;';
      case '"':
        return '&quot;';
      case "'":
        return '&#39;';
      default:
        return c.charCodeAt(0) < 0x21 || c.charCodeAt(0) > 0x7e ? '\ufffd' : '\\' + c;
    }
  });
}

/**
 * At most `max` characters of a text, never splitting a surrogate pair, with `…` when cut.
 *
 * @example clip('abcdef', 4) // 'abc…'
 */
export function clip(plain: string, max: number): string {
  if (plain.length <= max) {
    return plain;
  }
  let cut = Math.max(0, max - 1);
  const last = plain.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) {
    cut--;
  }
  return plain.slice(0, cut) + '…';
}

/**
 * A URI's percent-encoded text decoded, or as it is when it is not valid percent-encoding
 * (`decodeURIComponent` throws on `%zz` or on the bytes of no character).
 *
 * @example decodeUriText('May%201.digest') // 'May 1.digest'
 * @example decodeUriText('100%.digest')    // '100%.digest'
 */
export function decodeUriText(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A lone surrogate: a high one not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text with each lone surrogate replaced by U+FFFD, as UTF-8 holds it: what `encodeURIComponent`
 * can encode (it throws a URIError on a lone surrogate, which a document's text may hold).
 *
 * @example encodeURIComponent(wellFormed('a\ud800b')) // 'a%EF%BF%BDb'
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/**
 * Control characters (line ends and tabs included), the bidirectional marks, embeddings,
 * overrides and isolates, and lone surrogates: in a one-line label they break the line, make it
 * read differently from the text, or are no character at all.
 */
const LABEL_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Whether a text holds a character `plainLabel` would replace: a control character (line ends
 * and tabs included), a bidirectional mark, embedding, override or isolate, or a lone surrogate.
 *
 * @example hasLabelUnsafe('Fudan\nUniversity') // true
 */
export function hasLabelUnsafe(text: string): boolean {
  return ANY_LABEL_UNSAFE.test(text);
}

/**
 * Document text with the characters `plainLabel` replaces replaced by U+FFFD, not cut: a name an
 * editor shows on one line as it is (the outline's).
 *
 * @example labelSafe('Title\u202Etxt') // 'Title\ufffdtxt'
 */
export function labelSafe(text: string): string {
  return text.replace(LABEL_UNSAFE, '\ufffd');
}

/**
 * Whether a UTF-16 code unit is one `labelSafe` replaces wherever it is (a control character or a
 * bidirectional mark, embedding, override or isolate; surrogates are replaced only when alone).
 */
export function isLabelUnsafeUnit(c: number): boolean {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x61c || c === 0x200e || c === 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0x2028 || c === 0x2029;
}

/** `LABEL_UNSAFE` without the global flag, so that `test` keeps no position between calls. */
const ANY_LABEL_UNSAFE = new RegExp(LABEL_UNSAFE.source);

/**
 * Document text made safe for a one-line plain-text label (a tree item's label, description or
 * tooltip): control and bidirectional characters and lone surrogates replaced by U+FFFD, white space runs kept, and
 * at most `max` characters (cut with `…`, never inside a surrogate pair). The result is still
 * plain text: escape it (`escapeMarkdown`) before putting it into Markdown.
 *
 * @example plainLabel('evil\u202Etxt.exe', 80) // 'evil\ufffdtxt.exe'
 * @example plainLabel('x'.repeat(100_000), 5) // 'xxxx…'
 */
export function plainLabel(text: string, max: number): string {
  // Cut first: a 100 KB title costs no more than a short one.
  return clip(text.length > max + 1 ? text.slice(0, max + 1) : text, max).replace(LABEL_UNSAFE, '\ufffd');
}

/**
 * A count and what it counts, plural (an `s` added) unless the count is 1: the English summary of
 * the command line's `check`.
 *
 * @example
 * counted(1, 'digest file') // '1 digest file'
 * counted(3, 'paper')       // '3 papers'
 */
export function counted(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * A text in its compatibility form (NFKC: full-width letters and digits as ASCII, `ｃｓ．ＬＧ` as
 * `cs.LG`); ASCII, its own form, as it is (normalising would also copy it).
 *
 * @example compatibilityForm('ＫＹＯＴＯ') // 'KYOTO'
 */
export function compatibilityForm(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFKC') : text;
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\u0000-\u007f]/;

/** The order of two strings by code point. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The order of two labels (files, topics, institutions) as people list them: whatever their
 * case, numbers by their value (`day-2` before `day-10`), then, equal so, by code point (upper
 * case first): a total order.
 *
 * @example ['c.digest', 'B.digest', 'a.digest'].sort(compareLabels) // ['a.digest', 'B.digest', 'c.digest']
 * @example ['day-10', 'day-2'].sort(compareLabels) // ['day-2', 'day-10']
 */
export function compareLabels(a: string, b: string): number {
  return compareNumbered(a.toLowerCase(), b.toLowerCase()) || compareText(a, b);
}

/**
 * The order of two texts by code point, except that runs of ASCII digits compare by their value
 * (leading zeros aside): `compareLabels` of texts already lower-cased, without the tie-break.
 */
export function compareNumbered(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    if (isAsciiDigit(x) && isAsciiDigit(y)) {
      let endA = i;
      while (endA < a.length && isAsciiDigit(a.charCodeAt(endA))) endA++;
      let endB = j;
      while (endB < b.length && isAsciiDigit(b.charCodeAt(endB))) endB++;
      while (i < endA - 1 && a.charCodeAt(i) === 0x30) i++;
      while (j < endB - 1 && b.charCodeAt(j) === 0x30) j++;
      // More digits, a greater number; as many, the first digit that differs.
      if (endA - i !== endB - j) return endA - i - (endB - j);
      for (; i < endA; i++, j++) {
        const digit = a.charCodeAt(i) - b.charCodeAt(j);
        if (digit !== 0) return digit;
      }
      continue;
    }
    if (x !== y) return x - y;
    i++;
    j++;
  }
  return a.length - i - (b.length - j);
}

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Document text as a message quotes it: control and bidirectional characters, the line and
 * paragraph separators (which end a line of `check`'s output as a line feed does) and lone
 * surrogates replaced by U+FFFD, at most `max` UTF-16 units with `…` last, never cut inside a
 * character (a JSON or SARIF reader refuses half an emoji).
 *
 * @example quotedText('😀'.repeat(70), 60) // 29 emoji and '…'
 */
export function quotedText(text: string, max: number): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  if (clean.length <= max) {
    return clean;
  }
  const code = clean.charCodeAt(max - 2);
  return clean.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 2 : max - 1) + '…';
}

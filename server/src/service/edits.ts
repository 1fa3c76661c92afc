/**
 * Text edits as plain data: applying LSP `TextEdit`s to a string, and composing two rounds of
 * edits into one set against the original text. The command line applies fixes with these, and
 * fix-all uses them to return a single, non-overlapping set of edits.
 *
 * Positions follow LSP: zero-based lines split at `\r\n`, `\n` and a lone `\r`; characters are
 * UTF-16 code units counted from the start of the line as it is in the text (so on line 0 of a
 * text with a BOM, character 1 is the first character after the BOM). A character past the end
 * of its line means the end of the line.
 */
import type { Position, Range, TextEdit } from 'vscode-languageserver-types';

/** A replacement by offsets: `text` replaces `[start, end)`. */
export interface OffsetEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * Offsets of the starts of lines, to convert between positions and offsets.
 *
 * @example
 * const index = new LineIndex('ab\r\ncd');
 * index.offsetAt({ line: 1, character: 1 }); // 5
 * index.positionAt(5);                       // { line: 1, character: 1 }
 */
export class LineIndex {
  /** Offset of the first character of each line. */
  private readonly starts: number[] = [0];
  /** Offset just past the last character of each line, before its line end. */
  private readonly ends: number[] = [];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0d || c === 0x0a) {
        this.ends.push(i);
        if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) {
          i++;
        }
        this.starts.push(i + 1);
      }
    }
    this.ends.push(text.length);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The offset of a position, clamped to the text and to the end of its line. */
  offsetAt(position: Position): number {
    if (position.line < 0) {
      return 0;
    }
    if (position.line >= this.starts.length) {
      return this.text.length;
    }
    const start = this.starts[position.line];
    return Math.min(start + Math.max(0, position.character), this.ends[position.line]);
  }

  /** The position of an offset; an offset inside a `\r\n` counts as the end of its line. */
  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= clamped) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return { line: low, character: Math.min(clamped, this.ends[low]) - this.starts[low] };
  }

  /** The range of `[start, end)`. */
  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }
}

/** Converts LSP edits to offset edits, sorted by start; edits at the same place keep their order. */
export function toOffsetEdits(text: string, edits: readonly TextEdit[], index = new LineIndex(text)): OffsetEdit[] {
  const converted = edits.map((edit, order) => ({
    start: index.offsetAt(edit.range.start),
    end: index.offsetAt(edit.range.end),
    text: edit.newText,
    order,
  }));
  converted.sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order);
  return converted.map(({ start, end, text: newText }) => ({ start, end, text: newText }));
}

/**
 * Converts offset edits back to LSP edits against `text`. Each edit is first widened to whole
 * code points: an edit that starts or ends between the two halves of a surrogate pair takes the
 * other half in (and puts it back in its replacement), since an editor would lose the character.
 */
export function toTextEdits(text: string, edits: readonly OffsetEdit[], index = new LineIndex(text)): TextEdit[] {
  return edits.map((edit) => {
    const aligned = onCodePoints(text, edit);
    return { range: index.rangeOf(aligned.start, aligned.end), newText: aligned.text };
  });
}

/** Whether `offset` falls between the high and the low half of a surrogate pair of `text`. */
export function splitsSurrogatePair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) {
    return false;
  }
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/**
 * The same change as `edit`, widened so that it starts and ends on code-point boundaries of
 * `text`.
 *
 * @example
 * // '😀' is '\ud83d\ude00': replacing its low half with '\ude01' becomes replacing both.
 * onCodePoints('a😀', { start: 2, end: 3, text: '\ude01' }) // { start: 1, end: 3, text: '\ud83d\ude01' }
 */
export function onCodePoints(text: string, edit: OffsetEdit): OffsetEdit {
  let { start, end, text: replacement } = edit;
  if (splitsSurrogatePair(text, start)) {
    start--;
    replacement = text[start] + replacement;
  }
  if (splitsSurrogatePair(text, end)) {
    replacement += text[end];
    end++;
  }
  return start === edit.start && end === edit.end ? edit : { start, end, text: replacement };
}

/** Applies sorted, non-overlapping offset edits. Throws on overlapping edits: that is a bug. */
export function applyOffsetEdits(text: string, edits: readonly OffsetEdit[]): string {
  let result = '';
  let last = 0;
  for (const edit of edits) {
    if (edit.start < last || edit.end < edit.start) {
      throw new Error(`overlapping or inverted edit at offset ${edit.start}`);
    }
    result += text.slice(last, edit.start) + edit.text;
    last = edit.end;
  }
  return result + text.slice(last);
}

/**
 * Applies LSP text edits to a text. The edits' ranges refer to the original text and must not
 * overlap (two insertions at one place are applied in the order given).
 *
 * @example
 * applyEdits('a;b', [{ range: { start: { line: 0, character: 1 }, end: { line: 0, character: 2 } }, newText: '；' }])
 * // 'a；b'
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return applyOffsetEdits(text, toOffsetEdits(text, edits));
}

/**
 * Whether two edits may not be applied together: their ranges overlap, or one is an insertion
 * at a boundary of (or inside) the other, where the order of application would be ambiguous.
 * Two replacements that only touch end to start are compatible.
 */
export function editsConflict(a: OffsetEdit, b: OffsetEdit): boolean {
  if (a.start < b.end && b.start < a.end) {
    return true;
  }
  const aEmpty = a.start === a.end;
  const bEmpty = b.start === b.end;
  if (aEmpty && a.start >= b.start && a.start <= b.end) {
    return true;
  }
  return bEmpty && b.start >= a.start && b.start <= a.end;
}

/**
 * Composes two rounds of edits into one round against the original text: `first` applies to
 * `original`, `second` to the result of `first`. Edits that touch are merged; each merged edit
 * is trimmed of the text it leaves unchanged.
 *
 * @example
 * // 'ab' → 'aXb' → 'aXYb'
 * composeEdits('ab', [{ start: 1, end: 1, text: 'X' }], [{ start: 2, end: 2, text: 'Y' }])
 * // [{ start: 1, end: 1, text: 'XY' }]
 */
export function composeEdits(original: string, first: readonly OffsetEdit[], second: readonly OffsetEdit[]): OffsetEdit[] {
  const middle = applyOffsetEdits(original, first);
  // The intervals of `middle` that either round changed, merged where they touch.
  interface Changed {
    start: number;
    end: number;
  }
  const changed: Changed[] = [];
  let shift = 0;
  const images: { start: number; end: number; delta: number }[] = [];
  for (const edit of first) {
    const start = edit.start + shift;
    const end = start + edit.text.length;
    shift += edit.text.length - (edit.end - edit.start);
    images.push({ start, end, delta: shift });
    changed.push({ start, end });
  }
  for (const edit of second) {
    changed.push({ start: edit.start, end: edit.end });
  }
  changed.sort((a, b) => a.start - b.start || a.end - b.end);
  const clusters: Changed[] = [];
  for (const interval of changed) {
    const last = clusters[clusters.length - 1];
    if (last && interval.start <= last.end) {
      last.end = Math.max(last.end, interval.end);
    } else {
      clusters.push({ ...interval });
    }
  }
  // Maps a cluster's boundaries in `middle` back to the original text, with pointers that only
  // move forward (clusters are sorted). No first-round image straddles a boundary; images that
  // start at a cluster's start or end at its end belong to the cluster.
  let beforeStart = 0;
  let beforeEnd = 0;
  const startToOriginal = (offset: number): number => {
    while (beforeStart < images.length && images[beforeStart].start < offset) beforeStart++;
    return offset - (beforeStart > 0 ? images[beforeStart - 1].delta : 0);
  };
  const endToOriginal = (offset: number): number => {
    while (beforeEnd < images.length && images[beforeEnd].end <= offset) beforeEnd++;
    return offset - (beforeEnd > 0 ? images[beforeEnd - 1].delta : 0);
  };
  const result: OffsetEdit[] = [];
  let secondIndex = 0;
  for (const cluster of clusters) {
    let replacement = '';
    let cursor = cluster.start;
    while (secondIndex < second.length && second[secondIndex].end <= cluster.end) {
      const edit = second[secondIndex];
      replacement += middle.slice(cursor, edit.start) + edit.text;
      cursor = edit.end;
      secondIndex++;
    }
    replacement += middle.slice(cursor, cluster.end);
    result.push(trimEdit(original, { start: startToOriginal(cluster.start), end: endToOriginal(cluster.end), text: replacement }));
  }
  return result.filter((edit) => edit.start !== edit.end || edit.text.length > 0);
}

/** Shrinks an edit by the prefix and suffix that its replacement shares with the text it replaces. */
function trimEdit(original: string, edit: OffsetEdit): OffsetEdit {
  let { start, end, text } = edit;
  let prefix = 0;
  while (prefix < text.length && start + prefix < end && original.charCodeAt(start + prefix) === text.charCodeAt(prefix)) {
    prefix++;
  }
  start += prefix;
  text = text.slice(prefix);
  let suffix = 0;
  while (suffix < text.length && end - suffix > start && original.charCodeAt(end - suffix - 1) === text.charCodeAt(text.length - suffix - 1)) {
    suffix++;
  }
  end -= suffix;
  text = text.slice(0, text.length - suffix);
  return { start, end, text };
}

/**
 * Whether a value a client sent is an LSP position: two non-negative whole numbers.
 *
 * @example isPosition({ line: 'a', character: null }) // false
 */
export function isPosition(value: unknown): value is Position {
  const p = value as Partial<Position> | null | undefined;
  return !!p && typeof p === 'object' && Number.isInteger(p.line) && Number.isInteger(p.character) && p.line! >= 0 && p.character! >= 0;
}

/** Whether a value a client sent is an LSP range: two positions (`isPosition`). */
export function isRange(value: unknown): value is Range {
  const r = value as Partial<Range> | null | undefined;
  return !!r && typeof r === 'object' && isPosition(r.start) && isPosition(r.end);
}

/** Whether position `a` comes strictly before `b`. */
export function positionBefore(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

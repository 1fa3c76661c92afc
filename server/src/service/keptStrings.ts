/**
 * Strings that outlive the text they were cut from.
 *
 * V8 represents a substring of 13 or more characters as a slice of its parent, which keeps the
 * whole parent alive: one title kept from a digest keeps the digest's whole text (about 1 MB
 * per 1,000 papers, two bytes a character). The workspace index keeps a few strings of every
 * paper of every file long after the text is gone, so it keeps copies instead.
 */

/** Below this length V8 copies substrings anyway (`SlicedString::kMinLength`). */
const SLICE_MIN_LENGTH = 13;

/**
 * A string equal to `text` that holds no reference to a longer text. Text without characters
 * past U+00FF takes one byte a character, also when it was cut from a two-byte text.
 *
 * Node's UTF-16 encoder and decoder make the copy: twice as fast as V8's string
 * table (the internalised copy of a property name, which the web worker, without Buffer, still
 * makes), and with 100,000 papers of kept titles and summaries no string table to grow and to
 * sweep on every full collection. Equal texts kept so are not shared; `KeptNames` shares names.
 *
 * @example
 * keep(fileText.slice(100, 160)) // the same 60 characters, fileText may be collected
 */
export function keep(text: string): string {
  if (text.length < SLICE_MIN_LENGTH) {
    return text;
  }
  if (typeof Buffer !== 'undefined') {
    // V8 makes a string of UTF-16 code units one byte a character when none is past U+00FF.
    return Buffer.from(text, 'utf16le').toString('utf16le');
  }
  return internalised(text);
}

/** Empty between calls of `internalised`. */
const holder: Record<string, 0> = Object.create(null) as Record<string, 0>;

/**
 * The internalised copy V8 makes of a property name: one byte a character where it can be, and
 * one copy for equal texts (V8's string table, which holds them weakly).
 *
 * @example
 * internalised(line.slice(4, 9)) === internalised('cs.AI') // the same string in V8's table
 */
export function internalised(text: string): string {
  // A property name is internalised, and the name for-in gives back is the internalised string.
  // One holder without a prototype serves every call (a hash table in V8): a new object for
  // each name would make a new hidden class for each, twice as slow.
  holder[text] = 0;
  let kept = text;
  for (const name in holder) {
    kept = name;
    break;
  }
  delete holder[text];
  return kept;
}

/**
 * A copy of a text without characters past U+00FF in one byte a character, also when it was
 * made two-byte (a substring of a text with Chinese, or what is joined or lower-cased of such
 * substrings; `keep` copies only slices into one byte).
 */
export function keepNarrow(text: string): string {
  if (text.length === 0) {
    return text;
  }
  // Node's Latin-1 decoder makes a one-byte string; elsewhere String.fromCharCode does, slower.
  if (typeof Buffer !== 'undefined') {
    return Buffer.from(text, 'latin1').toString('latin1');
  }
  const chunk = 4096;
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += chunk) {
    const codes: number[] = [];
    for (let i = at; i < Math.min(text.length, at + chunk); i++) {
      codes.push(text.charCodeAt(i));
    }
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}

/** `keep` for every string of a list, in a new array of exactly its length. */
export function keepAll(texts: readonly string[]): string[] {
  const result = new Array<string>(texts.length);
  for (let i = 0; i < texts.length; i++) {
    result[i] = keep(texts[i]);
  }
  return result;
}

/**
 * Keeps names that repeat (authors, institutions, topics, keywords, category codes): each
 * distinct name once, as `keep` would keep it, also the short ones V8 copies anew each time.
 *
 * @example
 * const names = new KeptNames();
 * names.keep(a) === names.keep(b) // when a === b as text
 */
export class KeptNames {
  private readonly kept = new Map<string, string>();
  private readonly values = new Map<string, unknown>();
  /** The values of `sharedBy`: a tree of the parts, one per kind. */
  private readonly byParts = new Map<string, PartsNode>();

  keep(text: string): string {
    let result = this.kept.get(text);
    if (result === undefined) {
      result = keep(text);
      this.kept.set(result, result);
    }
    return result;
  }

  /**
   * One value per key: papers with the same keywords, categories, hits or institutions share
   * one list (never changed after it is made: the index's lists are read-only).
   */
  shared<T>(key: string, make: () => T): T {
    let value = this.values.get(key) as T | undefined;
    if (value === undefined) {
      value = make();
      this.values.set(keep(key), value);
    }
    return value;
  }

  /**
   * `shared` for a key made of parts (a list of keywords, of institutions and translations),
   * looked up part by part instead of by a key joined of them all: no joined key is made, hashed
   * and kept for each paper. Lists of different lengths or with different parts never share.
   *
   * @example
   * names.sharedBy('keywords', ['reasoning', 'math'], () => names.keepAll(['reasoning', 'math']))
   */
  sharedBy<T>(kind: string, parts: readonly string[], make: () => T): T {
    let node = this.byParts.get(kind);
    if (!node) {
      node = {};
      this.byParts.set(kind, node);
    }
    for (const part of parts) {
      let next: PartsNode | undefined = node.next ? node.next.get(part) : node.onlyPart === part ? node.only : undefined;
      if (!next) {
        next = {};
        if (!node.next && node.only === undefined) {
          // The first part after this node: held without a Map (most lists of parts are a
          // paper's own, and a Map for each of their parts was a fifth of the index's heap).
          node.onlyPart = this.keep(part);
          node.only = next;
        } else {
          if (!node.next) {
            node.next = new Map([[node.onlyPart!, node.only!]]);
            node.onlyPart = undefined;
            node.only = undefined;
          }
          node.next.set(this.keep(part), next);
        }
      }
      node = next;
    }
    if (!node.made) {
      node.value = make();
      node.made = true;
    }
    return node.value as T;
  }

  /** `keep` for every string of a list, in a new array of exactly its length. */
  keepAll(texts: readonly string[]): string[] {
    const result = new Array<string>(texts.length);
    for (let i = 0; i < texts.length; i++) {
      result[i] = this.keep(texts[i]);
    }
    return result;
  }
}

/**
 * A node of `KeptNames.sharedBy`'s tree: the value of the parts up to here, and the nodes after
 * it: one held as `onlyPart` and `only`, more in `next`.
 */
interface PartsNode {
  onlyPart?: string;
  only?: PartsNode;
  next?: Map<string, PartsNode>;
  value?: unknown;
  made?: boolean;
}

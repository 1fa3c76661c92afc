/**
 * One parse per document version: every feature asks the cache and receives the same model.
 * An edit of an open document updates its model incrementally (incremental.ts) rather than
 * parsing it again.
 */
import { ContentChange, updateDigest } from './incremental';
import { DOCUMENT_LIMITS, isTruncated, parsedWhole, parseWithinLimits } from './limits';
import type { DigestDocument } from './model';

export interface VersionedText {
  readonly uri: string;
  readonly version: number;
  getText(): string;
}

/**
 * Keeps the latest model of each open document.
 *
 * @example
 * const cache = new DigestCache();
 * const model = cache.get(textDocument); // parses once
 * cache.get(textDocument) === model;     // true until the version changes
 */
export class DigestCache {
  private readonly models = new Map<string, { version: number; model: DigestDocument }>();
  /** How many parses the cache has run, for tests that check parsing happens once per version. */
  parseCount = 0;
  /** How many incremental updates the cache has run. */
  updateCount = 0;

  /** Past the limits (limits.ts) only the first part of a text is parsed. */
  constructor(private readonly parse: (text: string) => DigestDocument = parseWithinLimits) {}

  /**
   * Applies changes to a document and brings its cached model along: `apply` changes the
   * document (as `TextDocument.update` does) and returns it. When the cache holds the model of
   * the version before, the model is updated incrementally; otherwise it is dropped, and parsed
   * on the next `get`.
   *
   * @example
   * // TextDocuments' update hook, in the server:
   * update: (document, changes, version) => cache.change(document, changes, () => TextDocument.update(document, changes, version))
   */
  change<T extends VersionedText>(document: T, changes: readonly ContentChange[], apply: () => T): T {
    const before = document.version;
    const cached = this.models.get(document.uri);
    const updated = apply();
    // The model of the first part of a text past the limits is parsed again, not updated; so is a
    // text an edit takes past them (its model is then of its first part, as when it is opened).
    const text = updated.getText();
    const model = cached && cached.version === before && this.parse === parseWithinLimits && !isTruncated(cached.model) && text.length <= DOCUMENT_LIMITS.maxCharacters ? updateDigest(cached.model, changes, text) : undefined;
    if (model && parsedWhole(model)) {
      this.models.set(updated.uri, { version: updated.version, model });
      this.updateCount++;
    } else {
      this.models.delete(document.uri);
    }
    return updated;
  }

  get(document: VersionedText): DigestDocument {
    const cached = this.models.get(document.uri);
    if (cached && cached.version === document.version) {
      return cached.model;
    }
    const model = this.parse(document.getText());
    this.parseCount++;
    this.models.set(document.uri, { version: document.version, model });
    return model;
  }

  /** The cached model of a URI, whatever its version, without parsing. */
  peek(uri: string): DigestDocument | undefined {
    return this.models.get(uri)?.model;
  }

  delete(uri: string): void {
    this.models.delete(uri);
  }
}

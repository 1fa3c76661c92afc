/**
 * A table of what was worked out last for short keys: names come back paper after paper, and
 * looking one up is faster than working it out again. It holds at most `max` keys and starts
 * again empty when full, so its memory stays bounded whatever the workspace holds.
 *
 * @example
 * const keys = new RecentMap<string>(4096);
 * keys.get(name) ?? keys.remember(name, foldForSearch(name))
 */
export class RecentMap<V> {
  private readonly values = new Map<string, V>();

  /** `maxKeyLength`: longer keys are not kept (a long text is rarely seen twice). */
  constructor(private readonly max: number, private readonly maxKeyLength = Infinity) {}

  get(key: string): V | undefined {
    return this.values.get(key);
  }

  /** Keeps `value` for `key` (unless the key is too long) and gives it back. */
  remember(key: string, value: V): V {
    if (key.length <= this.maxKeyLength) {
      if (this.values.size >= this.max) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }

  /** Forgets every key. */
  clear(): void {
    this.values.clear();
  }
}

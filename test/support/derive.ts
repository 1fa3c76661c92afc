/**
 * Derives a model object with some properties replaced, for tests that forge a model.
 *
 * Model objects are class instances whose parts are getters (see server/src/service/nodes.ts),
 * so an object spread (`{ ...entry }`) copies none of them; the derived object inherits every
 * property from `base` and shadows only those given.
 *
 * @example
 * derive(entry, { comments: forgedComments }).englishTitle === entry.englishTitle // true
 */
export function derive<T extends object>(base: T, overrides: Partial<T>): T {
  const descriptors: PropertyDescriptorMap = {};
  for (const [key, value] of Object.entries(overrides)) {
    descriptors[key] = { value, enumerable: true, writable: true, configurable: true };
  }
  return Object.create(base, descriptors) as T;
}

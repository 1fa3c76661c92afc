/**
 * What on a `机构` line is not an institution: a bracketed tag (`[cs.AI]`), an arXiv category code
 * (`cs.LG`) or a name without a letter (`—`, `2`). The diagnostics report such an item; the index
 * leaves it out of a paper's institutions, so that the statistics, the Papers view's groups, the
 * filters and the exports never count it as one, and completion never offers it.
 */
import { categoryIgnoringCase, isCategoryLike } from './taxonomy';

/** Why a name is not an institution's: the three kinds above. */
export type NotAnInstitution = 'tag' | 'category' | 'no-letter';

/**
 * Why a non-empty name of a `机构` item is not an institution, or undefined when it may be one.
 * The patterns are tried only on names that may match them: most names are words of letters with
 * spaces between them.
 *
 * @example
 * notAnInstitutionKind('[cs.AI]')          // 'tag'
 * notAnInstitutionKind('cs.LG')            // 'category'
 * notAnInstitutionKind('Kyoto University') // undefined
 */
export function notAnInstitutionKind(name: string): NotAnInstitution | undefined {
  if (name.charCodeAt(0) === 0x5b /* [ */ && /^\[[^\]]*\]$/.test(name)) {
    return 'tag';
  }
  if (onlyCodeCharacters(name) && isCategoryLike(name) && categoryIgnoringCase(name)) {
    return 'category';
  }
  if (!isAsciiLetter(name.charCodeAt(0)) && !/[\p{L}]/u.test(name)) {
    return 'no-letter';
  }
  return undefined;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** Whether a text has only the characters of a category code (ASCII letters and digits, `.`, `-`): `isCategoryLike` needs them. */
function onlyCodeCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!(isAsciiLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d)) return false;
  }
  return true;
}

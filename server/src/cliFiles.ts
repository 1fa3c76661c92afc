/**
 * The files the command line checks: the paths given, folders searched for digests without
 * following a link out of them, each real file once; read safely (regular files only, at most
 * 32 MB, never blocking on a FIFO or a device); names made printable for text output.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isInside, realPathSync } from './fs/contained';
import { mayBeNotUtf8, namesNotUtf8 } from './fs/fileNames';
import { FileSnapshot, readFileSnapshotSync } from './fs/safeFile';
import { message, MessageRef, reasonOf } from './service/cliMessages';
import { documentTooLarge, parseWithinLimits } from './service/limits';
import type { DigestDocument } from './service/model';

/** Folders never searched. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

export function isDigestName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith('.digest') || lower.endsWith('.digest.txt');
}

/** A file to check. */
export interface FoundFile {
  /** The absolute path it was found at (a link's own path when it is a link). */
  readonly path: string;
  /** Whether `path` is a symbolic link (to a file inside the folder searched, or named by the user). */
  readonly link: boolean;
  /** The real path of the folder searched it was found in; undefined for a file named on the command line. */
  readonly realRoot?: string;
}

/**
 * What makes two names one file: its device and inode (two hard links, or a symbolic link and
 * its target, are one file), else its real path.
 */
function fileIdentity(file: string): string {
  try {
    const stat = fs.statSync(file, { bigint: true });
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return realPathSync(file) ?? file;
  }
}

/**
 * The files to check, each real file once, in the order given (folders sorted by name).
 * Everything that cannot be checked is reported through `fail`, one message each (shown in the
 * language of `--lang` by the caller).
 *
 * In a folder: sub-folders are searched except `node_modules` and `.git`; links to folders are
 * not followed (a target inside the folder is searched on its own); a digest-named link is
 * checked when its real file is inside the folder and reported otherwise. A file named on the
 * command line is checked wherever it is. A folder given in which no digest was found is
 * reported too (`no digest files in '…'`): a mistyped path is not a clean pass.
 */
export function collectDigestFiles(paths: readonly string[], cwd: string, fail: (problem: MessageRef) => void): FoundFile[] {
  const result: FoundFile[] = [];
  const byReal = new Map<string, number>();
  /** Digests found, each time one is found (a file found twice counts twice). */
  let found = 0;
  const add = (file: string, link: boolean, realRoot?: string): void => {
    found++;
    const key = fileIdentity(file);
    const at = byReal.get(key);
    const entry = realRoot === undefined ? { path: file, link } : { path: file, link, realRoot };
    if (at === undefined) {
      byReal.set(key, result.length);
      result.push(entry);
    } else if (result[at].link && !link) {
      // The same real file found as a link and as itself: check it as itself.
      result[at] = entry;
    }
  };
  const show = (file: string): string => printable(displayPath(file, cwd));
  /** Problems said so far: a folder that could not be read is not also said to hold no digest. */
  let said = 0;
  const problem = (ref: MessageRef): void => {
    said++;
    fail(ref);
  };
  const walk = (folder: string, rootShown: string, realRoot: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      problem(message('cannotReadFolder', { path: show(folder), reason: reasonOf(error) }));
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const undecodable = namesNotUtf8(folder);
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if ((entry.isDirectory() || isDigestName(entry.name)) && undecodable.take(entry)) {
        // Cannot be opened by the name the listing gives: said so, not "no such file".
        problem(message(entry.isDirectory() ? 'cannotReadFolder' : 'cannotRead', { path: show(full), reason: message('nameNotUtf8') }));
      } else if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) {
          walk(full, rootShown, realRoot);
        }
      } else if (!isDigestName(entry.name)) {
        // Not a digest, and links without a digest's name (to folders too) are not followed.
      } else if (entry.isSymbolicLink()) {
        const real = realPathSync(full);
        if (real !== undefined && !isInside(realRoot, real)) {
          problem(message('cannotRead', { path: show(full), reason: message('linkOutsideRoot', { root: rootShown }) }));
        } else {
          // A dangling link is reported when it is read.
          add(full, true, realRoot);
        }
      } else {
        // Regular files, and FIFOs, sockets and devices, which the read reports without opening.
        add(full, false, realRoot);
      }
    }
  };
  for (const given of paths) {
    let absolute: string;
    if (given.length === 0) {
      // An empty argument (an unset variable, `''`) names no file: not the current folder.
      fail(message('cannotRead', { path: '', reason: message('emptyPath') }));
      continue;
    }
    const resolved = givenPath(given, cwd);
    if (typeof resolved !== 'string') {
      fail(resolved);
      continue;
    }
    absolute = resolved;
    let stat: fs.Stats;
    try {
      // A name ending in a separator names a folder (`a.digest/` is no file), as the system reads it.
      stat = fs.statSync(/[/\\]$/.test(given) && !isFileUrl(given) ? absolute + path.sep : absolute);
    } catch (error) {
      // An argument comes as text: a name that is not UTF-8 came with U+FFFD and names no file.
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT' && mayBeNotUtf8(given);
      fail(message('cannotRead', { path: printable(given), reason: missing ? message('missingOrNameNotUtf8') : reasonOf(error) }));
      continue;
    }
    if (stat.isDirectory()) {
      const before = found;
      const saidBefore = said;
      walk(absolute, printable(given), realPathSync(absolute) ?? absolute);
      if (found === before && said === saidBefore) {
        fail(message('noDigestFiles', { path: printable(given) }));
      }
    } else {
      let link = false;
      try {
        link = fs.lstatSync(absolute).isSymbolicLink();
      } catch {
        // Gone meanwhile: the read says so.
      }
      add(absolute, link);
    }
  }
  return result;
}

/** Whether an argument is a `file:` URL (its scheme in any case). */
function isFileUrl(given: string): boolean {
  return /^file:/i.test(given);
}

/**
 * The absolute path a path given on the command line names: a `file:` URL's path, else the path
 * resolved against `cwd`; a URL that names no local file is a problem to report.
 *
 * @example givenPath('file:///w/digests', '/home') // '/w/digests'
 */
export function givenPath(given: string, cwd: string): string | MessageRef {
  if (!isFileUrl(given)) {
    return path.resolve(cwd, given);
  }
  try {
    // What follows `?` or `#` (a literal one: a name's own is `%3F`, `%23`) is no part of the path.
    // The URL parser takes the scheme in any case (`FILE:///w`).
    if (/[?#]/.test(given)) {
      return message('cannotRead', { path: printable(given), reason: message('fileUrlQuery') });
    }
    return fileURLToPath(given);
  } catch (error) {
    return message('cannotRead', { path: printable(given), reason: message('notFileUrl', { detail: error instanceof Error ? error.message : String(error) }) });
  }
}

/** A file's text and the snapshot it was read as; undefined (and reported) when it cannot be read. */
export function readDigestFile(file: string, show: string, fail: (problem: MessageRef) => void): { text: string; snapshot: FileSnapshot } | undefined {
  let bytes: Buffer;
  let snapshot: FileSnapshot;
  try {
    ({ bytes, snapshot } = readFileSnapshotSync(file));
  } catch (error) {
    fail(message('cannotRead', { path: show, reason: reasonOf(error) }));
    return undefined;
  }
  try {
    // A BOM is kept: the parser handles it.
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), snapshot };
  } catch {
    fail(message('cannotRead', { path: show, reason: message('notUtf8') }));
    return undefined;
  }
}

/**
 * The model of a digest's text, or undefined when the text is past a limit of what is read
 * (limits.ts): such a model lists no papers, so the file is reported (`leftOut`) rather than
 * counted as a digest without papers. `check` reports it as its `document-too-large` problem.
 *
 * @example digestWithinLimits('x'.repeat(200_000), 'a.digest', fail) // undefined; fail got "'a.digest' is left out: its line 1 has 200,000 characters, …"
 */
export function digestWithinLimits(text: string, show: string, fail: (problem: MessageRef) => void): DigestDocument | undefined {
  const doc = parseWithinLimits(text);
  const past = documentTooLarge(doc);
  if (!past) {
    return doc;
  }
  const size = past.size.toLocaleString('en-US');
  const max = past.max.toLocaleString('en-US');
  const reason =
    past.limit === 'characters'
      ? message('pastCharacters', { size, max })
      : past.limit === 'lines'
        ? message('pastLines', { size, max })
        : message('pastLineLength', { line: past.range.start.line + 1, size, max });
  fail(message('leftOut', { path: show, reason }));
  return undefined;
}

/** The path as shown: relative to the working folder when inside it. */
export function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.length > 0 && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/**
 * A line of output whose names were made `printable` already (a problem's message): control and
 * bidirectional characters left in it escaped, its backslashes left as they are (the escapes of
 * its names are not escaped twice).
 *
 * @example printableLine(`cannot read '${printable('a\\b')}'`) // "cannot read 'a\\b'" (one backslash escaped, once)
 */
export function printableLine(text: string): string {
  return printable(text, false);
}

/**
 * A name made safe for one line of text output: control characters (C0, DEL, C1), line and
 * paragraph separators and bidirectional controls become escapes (`\n`, `\t`, `\x1b`,
 * `\u202e`), and a backslash becomes `\\` on systems where it is not the path separator.
 *
 * @example
 * printable('a\nb.digest:1:1: error fake') // 'a\\nb.digest:1:1: error fake' (one line)
 */
export function printable(name: string, backslashes = true): string {
  const backslash = path.sep === '\\' || !backslashes ? '' : '\\\\';
  return name.replace(new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069${backslash}]`, 'g'), (c) => {
    switch (c) {
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      case '\\':
        return '\\\\';
    }
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** The version in the package.json above this script. */
export function packageVersion(): string {
  return packageManifest()?.version ?? 'unknown';
}

/** The package.json above this script, if found. */
export function packageManifest(): { name?: string; version?: string; repository?: { url?: string } } | undefined {
  let dir = __dirname;
  for (let up = 0; up < 5; up++) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string; repository?: { url?: string } };
      if (manifest.name === 'paper-digest' && manifest.version) {
        return manifest;
      }
    } catch {
      // Not here: look further up.
    }
    dir = path.dirname(dir);
  }
  return undefined;
}

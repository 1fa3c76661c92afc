/**
 * The command-line checker, for CI over a folder of digests:
 *
 *     paper-digest check [--fix] [--format text|json|sarif] PATH...
 *
 * It runs the same parser, diagnostics and fix-all as the language server. Folders are searched
 * for `*.digest` and `*.digest.txt`; files named explicitly are checked whatever their name.
 * Exit status: 0 when no problem remains, 1 when problems remain, 2 on bad usage or when a file
 * cannot be read or written.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rulesDocsBase } from './docsBase';
import { applyEdits } from './service/edits';
import { fixAll } from './service/features/codeActions';
import { ALL_CODES, computeDiagnostics, DigestDiagnostic, PaperLocation, RULES } from './service/features/diagnostics';
import { titleKey } from './service/features/entries';
import type { DigestDocument } from './service/model';
import { parseDigest } from './service/parser';

const USAGE = `Usage: paper-digest check [--fix] [--format text|json|sarif] PATH...

Checks bilingual arXiv paper digests and reports their problems.

  PATH               a digest file (any name), or a folder searched for *.digest and *.digest.txt
  --fix              apply every safe fix to the files first, then report what remains
  --format FORMAT    text (default): path:line:column: severity code message
                     json: one JSON document; sarif: SARIF 2.1.0, for code-scanning services
  -h, --help         show this help
  -V, --version      show the version

Exit status: 0 when no problem remains, 1 when problems remain, 2 on bad usage or when a file
cannot be read or written.
`;

type Format = 'text' | 'json' | 'sarif';

/** Where the command writes; tests pass their own. */
export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

interface Options {
  fix: boolean;
  format: Format;
  paths: string[];
}

/** A checked file. */
interface CheckedFile {
  /** The path as shown: relative to the working folder when inside it. */
  readonly display: string;
  readonly absolute: string;
  readonly uri: string;
  doc: DigestDocument;
  fixed: boolean;
  diagnostics: DigestDiagnostic[];
}

class UsageError extends Error {}

/**
 * Runs the command line and returns its exit status.
 *
 * @example
 * runCli(['check', '--format', 'json', 'digests/'], { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) })
 * // 1 when problems were found
 */
export function runCli(argv: readonly string[], out: CliOutput, cwd = process.cwd()): number {
  let options: Options | 'help' | 'version';
  try {
    options = parseArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      out.stderr(`paper-digest: ${error.message}\nRun 'paper-digest --help' for usage.\n`);
      return 2;
    }
    throw error;
  }
  if (options === 'help') {
    out.stdout(USAGE);
    return 0;
  }
  if (options === 'version') {
    out.stdout(`${packageVersion()}\n`);
    return 0;
  }
  let failed = false;
  const fail = (message: string): void => {
    failed = true;
    out.stderr(`paper-digest: ${message}\n`);
  };

  const files: CheckedFile[] = [];
  for (const file of collectFiles(options.paths, cwd, fail)) {
    const text = readDigest(file, fail);
    if (text === undefined) {
      continue;
    }
    const display = displayPath(file, cwd);
    files.push({ display, absolute: file, uri: pathToFileURL(file).href, doc: parseDigest(text), fixed: false, diagnostics: [] });
  }

  if (options.fix) {
    for (const file of files) {
      const edits = fixAll(file.doc);
      if (edits.length === 0) {
        continue;
      }
      // The edits never touch the BOM, and insert the file's own line end.
      const text = applyEdits(file.doc.text, edits);
      try {
        fs.writeFileSync(file.absolute, text, 'utf8');
      } catch (error) {
        fail(`cannot write '${file.display}': ${reason(error)}`);
        continue;
      }
      file.doc = parseDigest(text);
      file.fixed = true;
    }
  }

  // Papers by title over all the files, for the duplicates across files.
  const papers = new Map<string, PaperLocation[]>();
  for (const file of files) {
    for (const entry of file.doc.entries) {
      const key = entry.englishTitle ? titleKey(entry.englishTitle.value.text) : '';
      if (key.length > 0) {
        const list = papers.get(key) ?? [];
        list.push({ uri: file.uri, range: entry.englishTitle!.value.range });
        papers.set(key, list);
      }
    }
  }
  const docsBase = rulesDocsBase(__dirname);
  for (const file of files) {
    file.diagnostics = computeDiagnostics(file.doc, {
      uri: file.uri,
      docsBase,
      duplicatesElsewhere: (key) => (papers.get(key) ?? []).filter((location) => location.uri !== file.uri),
    });
  }

  const byUri = new Map(files.map((file) => [file.uri, file]));
  switch (options.format) {
    case 'text':
      out.stdout(formatText(files, byUri, options.fix, failed));
      break;
    case 'json':
      out.stdout(JSON.stringify(formatJson(files), null, 2) + '\n');
      break;
    case 'sarif':
      out.stdout(JSON.stringify(formatSarif(files, cwd, docsBase), null, 2) + '\n');
      break;
  }
  if (failed) {
    return 2;
  }
  return files.some((file) => file.diagnostics.length > 0) ? 1 : 0;
}

function parseArguments(argv: readonly string[]): Options | 'help' | 'version' {
  const options: Options = { fix: false, format: 'text', paths: [] };
  let command: string | undefined;
  let onlyPaths = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!onlyPaths && arg.startsWith('-') && arg !== '-') {
      if (arg === '--') {
        onlyPaths = true;
      } else if (arg === '-h' || arg === '--help') {
        return 'help';
      } else if (arg === '-V' || arg === '--version') {
        return 'version';
      } else if (arg === '--fix') {
        options.fix = true;
      } else if (arg === '--format' || arg.startsWith('--format=')) {
        const value = arg === '--format' ? argv[++i] : arg.slice('--format='.length);
        if (value !== 'text' && value !== 'json' && value !== 'sarif') {
          throw new UsageError(value === undefined ? '--format needs a value: text, json or sarif' : `unknown format '${value}': use text, json or sarif`);
        }
        options.format = value;
      } else {
        throw new UsageError(`unknown option '${arg}'`);
      }
    } else if (command === undefined) {
      command = arg;
    } else {
      options.paths.push(arg);
    }
  }
  if (command === undefined) {
    throw new UsageError('no command given: use check');
  }
  if (command !== 'check') {
    throw new UsageError(`unknown command '${command}': use check`);
  }
  if (options.paths.length === 0) {
    throw new UsageError('check needs at least one file or folder');
  }
  return options;
}

/** Folders never searched. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

function isDigestName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith('.digest') || lower.endsWith('.digest.txt');
}

/** The files to check, each once, in the order given (folders sorted). */
function collectFiles(paths: readonly string[], cwd: string, fail: (message: string) => void): string[] {
  const result: string[] = [];
  const seen = new Set<string>();
  const add = (file: string): void => {
    if (!seen.has(file)) {
      seen.add(file);
      result.push(file);
    }
  };
  const walk = (folder: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      fail(`cannot read folder '${displayPath(folder, cwd)}': ${reason(error)}`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) {
          walk(full);
        }
      } else if ((entry.isFile() || entry.isSymbolicLink()) && isDigestName(entry.name)) {
        add(full);
      }
    }
  };
  for (const given of paths) {
    const absolute = path.resolve(cwd, given.startsWith('file:') ? fileURLToPath(given) : given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absolute);
    } catch (error) {
      fail(`cannot read '${given}': ${reason(error)}`);
      continue;
    }
    if (stat.isDirectory()) {
      walk(absolute);
    } else {
      add(absolute);
    }
  }
  return result;
}

/** Reads a file as UTF-8 (a BOM is kept: the parser handles it); undefined when it cannot. */
function readDigest(file: string, fail: (message: string) => void): string | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    fail(`cannot read '${file}': ${reason(error)}`);
    return undefined;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    fail(`cannot read '${file}': it is not UTF-8 text`);
    return undefined;
  }
}

function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.length > 0 && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const messages: Record<string, string> = {
    ENOENT: 'no such file or folder',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'it is a folder',
    EROFS: 'read-only file system',
  };
  return (code && messages[code]) ?? (error instanceof Error ? error.message : String(error));
}

// ---- Formats -----------------------------------------------------------------------------

const SEVERITY_NAMES = ['', 'error', 'warning', 'information', 'hint'] as const;

/** One-based line and column of a position, the column not counting a BOM. */
function humanPosition(doc: DigestDocument, position: { line: number; character: number }): { line: number; column: number } {
  const bom = position.line === 0 && doc.hasBom ? 1 : 0;
  return { line: position.line + 1, column: Math.max(1, position.character + 1 - bom) };
}

function formatText(files: readonly CheckedFile[], byUri: ReadonlyMap<string, CheckedFile>, fix: boolean, failed: boolean): string {
  const lines: string[] = [];
  const counts = [0, 0, 0, 0, 0];
  for (const file of files) {
    for (const diagnostic of file.diagnostics) {
      const { line, column } = humanPosition(file.doc, diagnostic.range.start);
      const severity = SEVERITY_NAMES[diagnostic.severity ?? 1];
      counts[diagnostic.severity ?? 1]++;
      const seeAlso = (diagnostic.relatedInformation ?? []).map((info) => {
        const other = byUri.get(info.location.uri);
        const where = humanPosition(other?.doc ?? file.doc, info.location.range.start);
        return `${other?.display ?? info.location.uri}:${where.line}:${where.column}`;
      });
      lines.push(`${file.display}:${line}:${column}: ${severity} ${diagnostic.code} ${diagnostic.message}${seeAlso.length > 0 ? ` (see ${seeAlso.join(', ')})` : ''}`);
    }
  }
  const total = counts.reduce((a, b) => a + b, 0);
  const fixed = files.filter((file) => file.fixed).length;
  const fileWord = files.length === 1 ? 'file' : 'files';
  if (fix) {
    lines.push(`Fixed ${fixed} of ${files.length} ${fileWord}.`);
  }
  if (total === 0) {
    lines.push(failed ? `No problems in the ${files.length} ${fileWord} that could be read.` : `No problems in ${files.length} ${fileWord}.`);
  } else {
    const parts = [`${counts[1]} error${counts[1] === 1 ? '' : 's'}`, `${counts[2]} warning${counts[2] === 1 ? '' : 's'}`];
    if (counts[3] + counts[4] > 0) {
      parts.push(`${counts[3] + counts[4]} other`);
    }
    lines.push(`${total} problem${total === 1 ? '' : 's'} (${parts.join(', ')}) in ${files.filter((f) => f.diagnostics.length > 0).length} of ${files.length} ${fileWord}.`);
  }
  return lines.join('\n') + '\n';
}

function formatJson(files: readonly CheckedFile[]): unknown {
  const counts = { error: 0, warning: 0, information: 0, hint: 0 };
  const result = files.map((file) => ({
    path: file.display,
    fixed: file.fixed,
    diagnostics: file.diagnostics.map((diagnostic) => {
      const severity = SEVERITY_NAMES[diagnostic.severity ?? 1] as keyof typeof counts;
      counts[severity]++;
      const start = humanPosition(file.doc, diagnostic.range.start);
      const end = humanPosition(file.doc, diagnostic.range.end);
      return {
        line: start.line,
        column: start.column,
        endLine: end.line,
        endColumn: end.column,
        severity,
        code: diagnostic.code,
        message: diagnostic.message,
        range: diagnostic.range,
        ...(diagnostic.relatedInformation ? { related: diagnostic.relatedInformation.map((info) => ({ uri: info.location.uri, range: info.location.range, message: info.message })) } : {}),
      };
    }),
  }));
  const problems = counts.error + counts.warning + counts.information + counts.hint;
  return {
    version: packageVersion(),
    files: result,
    summary: { files: files.length, filesWithProblems: files.filter((f) => f.diagnostics.length > 0).length, fixedFiles: files.filter((f) => f.fixed).length, problems, ...counts },
  };
}

const SARIF_LEVELS = ['', 'error', 'warning', 'note', 'note'] as const;

function formatSarif(files: readonly CheckedFile[], cwd: string, docsBase: string): unknown {
  const ruleIndex = new Map(ALL_CODES.map((code, index) => [code, index]));
  const artifactUri = (file: CheckedFile): { uri: string; uriBaseId?: string } =>
    file.display !== file.absolute ? { uri: file.display.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' } : { uri: file.uri };
  const byUri = new Map(files.map((file) => [file.uri, file]));
  const region = (doc: DigestDocument, range: DigestDiagnostic['range']): Record<string, number> => {
    const start = humanPosition(doc, range.start);
    const end = humanPosition(doc, range.end);
    return { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: Math.max(end.column, start.line === end.line ? start.column : 1) };
  };
  const results = files.flatMap((file) =>
    file.diagnostics.map((diagnostic) => ({
      ruleId: diagnostic.code,
      ruleIndex: ruleIndex.get(diagnostic.code),
      level: SARIF_LEVELS[diagnostic.severity ?? 1],
      message: { text: diagnostic.message },
      locations: [{ physicalLocation: { artifactLocation: artifactUri(file), region: region(file.doc, diagnostic.range) } }],
      ...(diagnostic.relatedInformation
        ? {
            relatedLocations: diagnostic.relatedInformation.map((info, id) => {
              const other = byUri.get(info.location.uri);
              return {
                id,
                message: { text: info.message },
                physicalLocation: { artifactLocation: other ? artifactUri(other) : { uri: info.location.uri }, region: region(other?.doc ?? file.doc, info.location.range) },
              };
            }),
          }
        : {}),
    })),
  );
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'paper-digest',
            version: packageVersion(),
            informationUri: `${docsBase}README.md`,
            rules: ALL_CODES.map((code) => ({
              id: code,
              name: code.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase()),
              shortDescription: { text: `${RULES[code].title} — ${RULES[code].titleZh}` },
              helpUri: `${docsBase}${code}.md`,
              defaultConfiguration: { level: SARIF_LEVELS[['', 'error', 'warning', 'information', 'hint'].indexOf(RULES[code].severity)] },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(cwd).href.replace(/\/?$/, '/') } },
        artifacts: files.map((file) => ({ location: artifactUri(file), encoding: 'utf-8' })),
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

/** The version in the package.json above this script. */
function packageVersion(): string {
  let dir = __dirname;
  for (let up = 0; up < 5; up++) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'paper-digest' && manifest.version) {
        return manifest.version;
      }
    } catch {
      // Not here: look further up.
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

if (require.main === module) {
  const write = (stream: NodeJS.WriteStream) => (text: string) => {
    stream.write(text);
  };
  // A closed pipe (`paper-digest check . | head`) is not an error of the checker.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  process.exitCode = runCli(process.argv.slice(2), { stdout: write(process.stdout), stderr: write(process.stderr) });
}

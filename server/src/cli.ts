/**
 * The command-line checker, for CI over a folder of digests:
 *
 *     paper-digest check [--fix] [--format text|json|sarif] [--lang both|en|zh-cn|auto] PATH...
 *     paper-digest stats [--format text|json|svg|html] [PATH...]   (see cliStats.ts)
 *     paper-digest papers [PATH...] [options] / mark CHANGE ...    (see cliReading.ts)
 *
 * It runs the same parser, diagnostics and fix-all as the language server. Folders are searched
 * for `*.digest` and `*.digest.txt`; files named explicitly are checked whatever their name.
 * Exit status: 0 when no problem remains, 1 when problems remain, 2 on bad usage or when a file
 * cannot be read or written.
 */
import * as path from 'node:path';
import { isatty } from 'node:tty';
import { pathToFileURL } from 'node:url';
import { collectDigestFiles, displayPath, packageManifest, packageVersion, printable, readDigestFile } from './cliFiles';
import { rulesDocsBase } from './docsBase';
import { writeAllSync } from './fs/blockingWrite';
import { bilingual, DEFAULT_MESSAGE_LANGUAGE, MessageLanguage, rulesDocsFor, say } from './service/messages';
import { CliUsageError, COMMAND_OPTIONS, infoAnswer, InfoRequest, infoRequest, languageOption, problemText, requestedLanguage, separateValue, usageError } from './cliLanguage';
import { choices, cliText, message, MessageRef, reasonOf } from './service/cliMessages';
import { applyEdits } from './service/edits';
import { fixAll, fixAllRefused, MAX_FIX_ALL_PROBLEMS } from './service/features/codeActions';
import { ALL_CODES, computeDiagnostics, DiagnosticOptions, DigestDiagnostic, PaperLocation, RULES } from './service/features/diagnostics';
import { termsOf } from './service/features/consistency';
import { documentTooLarge, parseWithinLimits } from './service/limits';
import { WorkspaceTerms } from './service/workspaceTerms';
import { titleKey } from './service/features/entries';
import type { DigestDocument } from './service/model';
import { FileSnapshot, filesOpenForWriting, writeFileAtomicSync } from './fs/safeFile';
import { runStats } from './cliStats';
import { runMark, runPapers } from './cliReading';
import { counted } from './service/text';

type Format = 'text' | 'json' | 'sarif';

/** The commands with their own module, by name. */
const SUBCOMMANDS: Readonly<Record<string, (args: readonly string[], out: CliOutput, cwd: string) => number>> = { stats: runStats, papers: runPapers, mark: runMark };

/** Where the command writes; tests pass their own. */
export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether the standard output's reader is gone (`| head`): what is left to write need not be made. */
  stdoutClosed?(): boolean;
}

interface Options {
  fix: boolean;
  format: Format;
  language: MessageLanguage;
  paths: string[];
}

/** A checked file. */
interface CheckedFile {
  /** The path as shown: relative to the working folder when inside it. */
  readonly display: string;
  readonly absolute: string;
  /** The real folder searched it was found in: the fix is written only while the file is still inside it. */
  readonly realRoot?: string;
  readonly uri: string;
  /** What the file was when it was read (or last written), so that a fix never overwrites a change made since. */
  snapshot: FileSnapshot;
  /** Its modification time when it was read. */
  readonly readMtimeMs: number;
  /** Its fixes could not be written: it is not tried again. */
  failedWrite?: boolean;
  /** Whether fix-all refused the file for its number of problems (said once). */
  refusedFix?: boolean;
  doc: DigestDocument;
  fixed: boolean;
  diagnostics: DigestDiagnostic[];
  /** More problems than `MAX_FILE_DIAGNOSTICS` were found: only the first are listed. */
  truncated?: boolean;
}

/**
 * At most this many problems are listed per file (as the server publishes at most this many):
 * a small hostile file (300,000 stray lines) has as many problems as lines, which listed whole
 * took gigabytes and ended the process.
 */
const MAX_FILE_DIAGNOSTICS = 10_000;

/** Points where tests step in. */
export interface CliHooks {
  /** Called with a file's path after its fixed text is written aside, just before it replaces the file. */
  beforeReplace?(file: string): void;
}

/**
 * Runs the command line and returns its exit status.
 *
 * @example
 * runCli(['check', '--format', 'json', 'digests/'], { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) })
 * // 1 when problems were found
 */
export function runCli(argv: readonly string[], out: CliOutput, cwd = process.cwd(), hooks: CliHooks = {}): number {
  // `--lang` may stand before the command's name (`paper-digest --lang zh-cn papers`): it is
  // the command's own.
  let named = 0;
  while (named < argv.length && (argv[named] === '--lang' || argv[named].startsWith('--lang='))) {
    named += argv[named] === '--lang' ? 2 : 1;
  }
  const name = argv[named];
  if (name !== undefined && Object.hasOwn(SUBCOMMANDS, name)) {
    return SUBCOMMANDS[name]([...argv.slice(0, named), ...argv.slice(named + 1)], out, cwd);
  }
  let options: Options | InfoRequest;
  try {
    options = parseArguments(argv);
  } catch (error) {
    if (error instanceof CliUsageError) {
      return usageError(out, undefined, error, requestedLanguage(argv));
    }
    throw error;
  }
  if (options === 'help' || options === 'version') {
    return infoAnswer(out, options, 'helpCheck', argv);
  }
  const language = options.language;
  let failed = false;
  /** What could not be read or written, as said on standard error: the JSON and SARIF carry it too. */
  const failures: string[] = [];
  const fail = (problem: MessageRef): void => {
    failed = true;
    const text = problemText(problem, language);
    failures.push(text);
    out.stderr(`paper-digest: ${text}\n`);
  };

  const files: CheckedFile[] = [];
  for (const found of collectDigestFiles(options.paths, cwd, fail)) {
    const display = displayPath(found.path, cwd);
    const read = readDigestFile(found.path, printable(display), fail);
    if (read === undefined) {
      continue;
    }
    files.push({ display, absolute: found.path, realRoot: found.realRoot, uri: pathToFileURL(found.path).href, snapshot: read.snapshot, readMtimeMs: read.snapshot.mtimeMs, doc: parseWithinLimits(read.text), fixed: false, diagnostics: [] });
  }

  // The names of all the files, for the consistency rules across them; a file past a limit
  // (limits.ts) is not checked, and its names do not count against the others (as in the editor).
  const terms = new WorkspaceTerms();
  for (const file of files) {
    if (!documentTooLarge(file.doc)) terms.set(file.uri, termsOf(file.doc));
  }
  /** Moves each time a fix changes a file's names: a model's kept problems are of the names before. */
  let formsGeneration = 0;
  const formsElsewhere = (uri: string): Pick<DiagnosticOptions, 'translationsElsewhere' | 'authorFormsElsewhere' | 'formsGeneration' | 'countedElsewhere'> => ({
    translationsElsewhere: (key) => terms.translationsWith(key, uri, undefined),
    authorFormsElsewhere: (key) => terms.authorFormsWith(key, uri, undefined),
    formsGeneration,
    // Fix-all raises no problem in another file: each file's forms count for the others.
    countedElsewhere: terms.file(uri) !== undefined,
  });
  // Papers by title over all the files, for the duplicates across files (a file past a limit is
  // not checked and lists no paper, as in the editor), kept as fixes rewrite files: fix-all holds
  // back a fix that gives a paper another file's title (that file's duplicate-paper or this one's).
  const papers = new Map<string, PaperLocation[]>();
  const notePapers = (file: CheckedFile, add: boolean): void => {
    if (documentTooLarge(file.doc)) return;
    for (const entry of file.doc.entries) {
      const key = entry.englishTitle ? titleKey(entry.englishTitle.value.text) : '';
      if (key.length === 0) continue;
      const list = papers.get(key) ?? [];
      if (add) list.push({ uri: file.uri, range: entry.englishTitle!.value.range });
      papers.set(key, add ? list : list.filter((location) => location.uri !== file.uri));
    }
  };
  for (const file of files) notePapers(file, true);
  const papersElsewhere = (uri: string) => (key: string): PaperLocation[] => (papers.get(key) ?? []).filter((location) => location.uri !== uri);
  if (options.fix) {
    /** The files other processes have open for writing, read when the first fix is written. */
    let writers: ReadonlySet<string> | undefined;
    // Again while a pass fixed something: a file fixed later can change the names the others are
    // compared with (a bracket closed makes a translation the majority), as a second run would.
    for (let pass = 0, fixedAny = true; fixedAny && pass < MAX_FIX_PASSES; pass++) {
      fixedAny = false;
      for (const file of files) {
        if (file.failedWrite) {
          continue;
        }
        // A file past a limit is not split into its parts, and its model may be of its first part only.
        const edits = documentTooLarge(file.doc) ? [] : fixAll(file.doc, { ...formsElsewhere(file.uri), duplicatesElsewhere: papersElsewhere(file.uri) });
        if (edits.length === 0) {
          if (fixAllRefused(file.doc) && !file.refusedFix) {
            // Said once, and the problems still listed (the first of them).
            file.refusedFix = true;
            fail(message('tooManyToFix', { path: printable(file.display), max: MAX_FIX_ALL_PROBLEMS.toLocaleString('en') }));
          }
          continue;
        }
        // The edits never touch the BOM, and insert the file's own line end.
        const text = applyEdits(file.doc.text, edits);
        // Written aside and renamed over the file, only if it is still what was read; never
        // through a symbolic link.
        try {
          file.snapshot = writeFileAtomicSync(file.absolute, text, {
            expected: file.snapshot,
            within: file.realRoot,
            beforeCommit: hooks.beforeReplace && (() => hooks.beforeReplace!(file.absolute)),
            // Not while another program is writing it in place: the rest it writes would be lost.
            openForWriting: (dev, ino) => (writers ??= filesOpenForWriting()).has(`${dev}:${ino}`),
          });
        } catch (error) {
          fail(message('cannotWriteLeft', { path: printable(file.display), reason: reasonOf(error) }));
          file.failedWrite = true;
          continue;
        }
        notePapers(file, false);
        file.doc = parseWithinLimits(text);
        notePapers(file, true);
        file.fixed = true;
        fixedAny = true;
        if (!documentTooLarge(file.doc)) terms.set(file.uri, termsOf(file.doc));
        formsGeneration++;
      }
    }
  }

  // The digests' order by their times as they were found (a fix writes them again).
  const byUriMtime = new Map(files.map((file) => [file.uri, file.readMtimeMs]));
  const docsBase = rulesDocsFor(rulesDocsBase(__dirname), language);
  for (const file of files) {
    const diagnostics = computeDiagnostics(file.doc, {
      uri: file.uri,
      docsBase,
      language,
      // One more than are listed, to know a file has more.
      maxDiagnostics: MAX_FILE_DIAGNOSTICS + 1,
      duplicatesElsewhere: papersElsewhere(file.uri),
      // Undated digests in the order of their times, as `papers` has them.
      mtimeOf: (uri) => byUriMtime.get(uri),
      ...formsElsewhere(file.uri),
    });
    file.truncated = diagnostics.length > MAX_FILE_DIAGNOSTICS;
    file.diagnostics = file.truncated ? diagnostics.slice(0, MAX_FILE_DIAGNOSTICS) : diagnostics;
  }

  const byUri = new Map(files.map((file) => [file.uri, file]));
  switch (options.format) {
    case 'text':
      out.stdout(formatText(files, byUri, options.fix, failed, language));
      break;
    case 'json':
      out.stdout(JSON.stringify(formatJson(files, failures), null, 2) + '\n');
      break;
    case 'sarif':
      out.stdout(JSON.stringify(formatSarif(files, cwd, rulePagesOnline(language) ?? docsBase, language, failures), null, 2) + '\n');
      break;
  }
  if (failed) {
    return 2;
  }
  return files.some((file) => file.diagnostics.length > 0) ? 1 : 0;
}

/** How many passes of fix-all over the files `check --fix` makes at most (each after one that fixed something). */
const MAX_FIX_PASSES = 3;

function parseArguments(argv: readonly string[]): Options | InfoRequest {
  const options: Options = { fix: false, format: 'text', language: DEFAULT_MESSAGE_LANGUAGE, paths: [] };
  let command: string | undefined;
  let onlyPaths = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!onlyPaths && arg.startsWith('-') && arg !== '-') {
      if (arg === '--') {
        onlyPaths = true;
      } else if (infoRequest(arg)) {
        return infoRequest(arg)!;
      } else if (arg === '--fix') {
        options.fix = true;
      } else if (arg === '--format' || arg.startsWith('--format=')) {
        const value = arg === '--format' ? separateValue(argv, i++, COMMAND_OPTIONS.check) : arg.slice('--format='.length);
        if (value !== 'text' && value !== 'json' && value !== 'sarif') {
          const values = choices(['text', 'json', 'sarif']);
          throw new CliUsageError(value === undefined ? cliText('needsValueOf', { option: '--format', values }) : cliText('unknownFormat', { value: printable(value), values }));
        }
        options.format = value;
      } else if (arg === '--lang' || arg.startsWith('--lang=')) {
        ({ language: options.language, next: i } = languageOption(argv, i)!);
      } else {
        throw new CliUsageError(cliText('unknownOption', { option: printable(arg) }));
      }
    } else if (command === undefined) {
      command = arg;
    } else {
      options.paths.push(arg);
    }
  }
  const commands = choices(['check', 'stats', 'papers', 'mark']);
  if (command === undefined) {
    throw new CliUsageError(cliText('noCommand', { commands }));
  }
  if (command !== 'check') {
    throw new CliUsageError(cliText('unknownCommand', { command: printable(command), commands }));
  }
  if (options.paths.length === 0) {
    throw new CliUsageError(cliText('checkNeedsPath'));
  }
  return options;
}

// ---- Formats -----------------------------------------------------------------------------

const SEVERITY_NAMES = ['', 'error', 'warning', 'information', 'hint'] as const;
/** The severities of the text format in Chinese (`--lang zh-cn`); English otherwise, as tools read them. */
const SEVERITY_NAMES_ZH = ['', '错误', '警告', '信息', '提示'] as const;

/** One-based line and column of a position, the column not counting a BOM. */
function humanPosition(doc: DigestDocument, position: { line: number; character: number }): { line: number; column: number } {
  const bom = position.line === 0 && doc.hasBom ? 1 : 0;
  return { line: position.line + 1, column: Math.max(1, position.character + 1 - bom) };
}

/** A range as an editor counts it, a BOM not counted (as the server gives positions in files on disk). */
function editorRange(doc: DigestDocument, range: DigestDiagnostic['range']): DigestDiagnostic['range'] {
  if (!doc.hasBom || (range.start.line !== 0 && range.end.line !== 0)) {
    return range;
  }
  const at = (position: { line: number; character: number }) => (position.line === 0 ? { line: 0, character: Math.max(0, position.character - 1) } : position);
  return { start: at(range.start), end: at(range.end) };
}

function formatText(files: readonly CheckedFile[], byUri: ReadonlyMap<string, CheckedFile>, fix: boolean, failed: boolean, language: MessageLanguage): string {
  const words = summaryWords(language);
  const lines: string[] = [];
  const counts = [0, 0, 0, 0, 0];
  for (const file of files) {
    for (const diagnostic of file.diagnostics) {
      const { line, column } = humanPosition(file.doc, diagnostic.range.start);
      const severity = (language === 'zh-cn' ? SEVERITY_NAMES_ZH : SEVERITY_NAMES)[diagnostic.severity ?? 1];
      counts[diagnostic.severity ?? 1]++;
      const seeAlso = (diagnostic.relatedInformation ?? []).map((info) => {
        const other = byUri.get(info.location.uri);
        const where = humanPosition(other?.doc ?? file.doc, info.location.range.start);
        return `${printable(other?.display ?? info.location.uri)}:${where.line}:${where.column}`;
      });
      lines.push(`${printable(file.display)}:${line}:${column}: ${severity} ${diagnostic.code} ${diagnostic.message}${seeAlso.length > 0 ? words.seeAlso(seeAlso.join(', ')) : ''}`);
    }
    if (file.truncated) {
      lines.push(`${printable(file.display)}: ${words.truncated(MAX_FILE_DIAGNOSTICS)}`);
    }
  }
  const total = counts.reduce((a, b) => a + b, 0);
  const fixed = files.filter((file) => file.fixed).length;
  if (fix) {
    lines.push(words.fixed(fixed, files.length));
  }
  if (total === 0) {
    lines.push(words.noProblems(files.length, failed));
  } else {
    // A file of more problems than are listed: the count is of those listed, at least.
    const atLeast = files.some((file) => file.truncated);
    lines.push(words.problems(total, counts[1], counts[2], counts[3] + counts[4], files.filter((f) => f.diagnostics.length > 0).length, files.length, atLeast));
  }
  return lines.join('\n') + '\n';
}

/** The summary lines of the text format: English for `both` and `en`, as the lines were before there was a choice. */
function summaryWords(language: MessageLanguage): {
  seeAlso(places: string): string;
  fixed(fixed: number, files: number): string;
  noProblems(files: number, failed: boolean): string;
  problems(total: number, errors: number, warnings: number, other: number, withProblems: number, files: number, atLeast: boolean): string;
  truncated(max: number): string;
} {
  if (language === 'zh-cn') {
    return {
      seeAlso: (places) => `（另见 ${places}）`,
      fixed: (fixed, files) => `共 ${files} 个文件，已修复其中 ${fixed} 个。`,
      noProblems: (files, failed) => (files === 0 ? '没有检查任何摘要集文件。' : failed ? `能读取的 ${files} 个文件中没有问题。` : `${files} 个文件中没有问题。`),
      problems: (total, errors, warnings, other, withProblems, files, atLeast) =>
        `共 ${files} 个文件，其中 ${withProblems} 个有问题：${atLeast ? '至少 ' : ''}${total} 个问题（${errors} 个错误、${warnings} 个警告${other > 0 ? `、${other} 个其他` : ''}）。`,
      truncated: (max) => `问题超过 ${max} 个，只列出前 ${max} 个`,
    };
  }
  const fileWord = (n: number): string => (n === 1 ? 'file' : 'files');
  return {
    seeAlso: (places) => ` (see ${places})`,
    fixed: (fixed, files) => `Fixed ${fixed} of ${files} ${fileWord(files)}.`,
    noProblems: (files, failed) => (files === 0 ? 'No digest was checked.' : failed ? `No problems in the ${files} ${fileWord(files)} that could be read.` : `No problems in ${files} ${fileWord(files)}.`),
    problems: (total, errors, warnings, other, withProblems, files, atLeast) =>
      `${atLeast ? 'At least ' : ''}${counted(total, 'problem')} (${[counted(errors, 'error'), counted(warnings, 'warning'), ...(other > 0 ? [`${other} other`] : [])].join(', ')}) in ${withProblems} of ${files} ${fileWord(files)}.`,
    truncated: (max) => `more than ${max} problems; only the first ${max} are listed`,
  };
}

function formatJson(files: readonly CheckedFile[], failures: readonly string[]): unknown {
  const byUri = new Map(files.map((file) => [file.uri, file]));
  const counts = { error: 0, warning: 0, information: 0, hint: 0 };
  const result = files.map((file) => ({
    path: file.display,
    fixed: file.fixed,
    ...(file.truncated ? { truncated: true } : {}),
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
        range: editorRange(file.doc, diagnostic.range),
        ...(diagnostic.relatedInformation
          ? { related: diagnostic.relatedInformation.map((info) => ({ uri: info.location.uri, range: editorRange(byUri.get(info.location.uri)?.doc ?? file.doc, info.location.range), message: info.message })) }
          : {}),
      };
    }),
  }));
  const problems = counts.error + counts.warning + counts.information + counts.hint;
  return {
    version: packageVersion(),
    files: result,
    // Paths that could not be read (or files not written back), each as standard error says it.
    failures,
    summary: { files: files.length, filesWithProblems: files.filter((f) => f.diagnostics.length > 0).length, fixedFiles: files.filter((f) => f.fixed).length, problems, ...counts, failures: failures.length },
  };
}

const SARIF_LEVELS = ['', 'error', 'warning', 'note', 'note'] as const;

/**
 * A message's text as SARIF's plain text holds it: `[text](target)` there is a link (SARIF 2.1.0,
 * 3.11.6), so the `[`, `]` and `\` of a message (which quotes the digest) are escaped with `\`,
 * and no digest can put a link of its own into a result; `{0}` there is a placeholder (3.11.5),
 * so `{` and `}` are written twice.
 *
 * @example sarifText("'[x](https://e.example)' is not an arXiv category") // "'\\[x\\](https://e.example)' is not an arXiv category"
 * @example sarifText("'kw {0}'") // "'kw {{0}}'"
 */
function sarifText(text: string): string {
  return text.replace(/[\\[\]]/g, '\\$&').replace(/[{}]/g, '$&$&');
}

function formatSarif(files: readonly CheckedFile[], cwd: string, docsBase: string, language: MessageLanguage, failures: readonly string[]): unknown {
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
      message: { text: sarifText(diagnostic.message) },
      locations: [{ physicalLocation: { artifactLocation: artifactUri(file), region: region(file.doc, diagnostic.range) } }],
      ...(diagnostic.relatedInformation
        ? {
            relatedLocations: diagnostic.relatedInformation.map((info, id) => {
              const other = byUri.get(info.location.uri);
              return {
                id,
                message: { text: sarifText(info.message) },
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
            informationUri: `${docsBase}README.md`.replace(/docs\/rules\/(zh-cn\/)?README\.md$/, 'README.md'),
            rules: ALL_CODES.map((code) => ({
              id: code,
              name: code.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase()),
              shortDescription: { text: say(bilingual(RULES[code].title, RULES[code].titleZh), language) },
              helpUri: `${docsBase}${code}.md`,
              defaultConfiguration: { level: SARIF_LEVELS[['', 'error', 'warning', 'information', 'hint'].indexOf(RULES[code].severity)] },
            })),
          },
        },
        // Whether every path was read (and, with --fix, written): what was not, as notifications.
        invocations: [
          {
            executionSuccessful: failures.length === 0,
            ...(failures.length > 0 ? { toolExecutionNotifications: failures.map((text) => ({ level: 'error', message: { text: sarifText(text) } })) } : {}),
          },
        ],
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(cwd).href.replace(/\/?$/, '/') } },
        artifacts: files.map((file) => ({ location: artifactUri(file), encoding: 'utf-8' })),
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

/**
 * The rule pages in the project's repository (package.json's `repository`), for SARIF, which a
 * code-scanning service shows elsewhere than on this machine: `https://github.com/…/blob/main/docs/rules/`
 * (`…/zh-cn/` for Chinese); undefined without a repository on GitHub.
 */
function rulePagesOnline(language: MessageLanguage): string | undefined {
  const match = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(packageManifest()?.repository?.url ?? '');
  return match ? `https://github.com/${match[1]}/blob/main/docs/rules/${language === 'zh-cn' ? 'zh-cn/' : ''}` : undefined;
}

if (require.main === module) {
  // A closed pipe (`paper-digest check . | head`) is not an error of the checker: the status is
  // the run's. Nor is a closed standard error (`2>&1 >out | head -1`): what was left to say is lost.
  // Output that cannot be written (`> refs.bib` on a full disk) is said in one line, status 2.
  // A terminal is written through its stream, which writes Chinese to a Windows console as it
  // should (a raw write does not); pipes and files as their bytes, each write finished.
  const terminal = { stdout: isatty(1), stderr: isatty(2) };
  let stderrFailed = false;
  const stderr = (text: string): void => {
    if (terminal.stderr) {
      process.stderr.write(text);
      return;
    }
    try {
      writeAllSync(2, text);
    } catch {
      stderrFailed = true;
    }
  };
  // Written before going on (blockingWrite.ts): a big export piped to a slow reader is not held.
  let stdoutClosed = false;
  const stdout = (text: string): void => {
    if (stdoutClosed) return;
    if (terminal.stdout) {
      process.stdout.write(text);
      return;
    }
    try {
      writeAllSync(1, text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') {
        // The reader has read enough (`| head`): the rest is not written, the run goes on to its status.
        stdoutClosed = true;
        return;
      }
      stderr(`paper-digest: ${problemText(message('cannotWriteOutput', { reason: reasonOf(error) }), requestedLanguage(process.argv.slice(2)))}\n`);
      process.exit(2);
    }
  };
  let cwd: string | undefined;
  try {
    cwd = process.cwd();
  } catch {
    // Removed under the shell that runs the command: every path is read from it.
    stderr(`paper-digest: ${problemText(message('currentFolderGone'), requestedLanguage(process.argv.slice(2)))}\n`);
    process.exitCode = 2;
  }
  try {
    if (cwd !== undefined) process.exitCode = runCli(process.argv.slice(2), { stdout, stderr, stdoutClosed: () => stdoutClosed }, cwd);
  } catch (error) {
    // Never a stack trace: one line, and the status of a failure.
    stderr(`paper-digest: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
  // Nowhere left to say what went wrong: the status says it.
  if (stderrFailed && !process.exitCode) process.exitCode = 2;
}

/**
 * The reading workflow on the command line, from the same service as the language server:
 *
 *     paper-digest papers [PATH...] [--unread] [--starred] [--new] [--filter TEXT] [--tag TAG]
 *                         [--sort rank|file] [--format text|json|bibtex|csljson|ris|csv|markdown]
 *                         [--lang both|en|zh-cn|auto]
 *     paper-digest mark read|unread|star|unstar|tag (--title TITLE | --id ID)
 *                       [--tag TAG]... [--untag TAG]... [--note TEXT] [--lang LANGUAGE] [PATH]
 *
 * The text they print (help, usage errors, the summary line, what `mark` did) is in the
 * language of `--lang` (cliLanguage.ts, service/cliMessages.ts); the data formats are not.
 *
 * The state of a digest is the state file `.paper-digest/state.json` of the folder given on
 * the command line that holds it (the outermost of those that do), or of the nearest folder
 * above that one with a `.paper-digest` folder; for a file named by itself and held by no folder
 * given, of the nearest folder above it with a `.paper-digest` folder; else of its own folder; interests come from `.paper-digest/interests.json` there. `mark` changes that file as the server does (StateStore over NodeStateDisk: read
 * again, merged, written atomically only over what was read, never through a link).
 *
 * Exit status: 0; 2 on bad usage (one line on stderr), when no paper or more than one matches,
 * when a file cannot be read, or when the state file cannot be used or written.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { collectDigestFiles, digestWithinLimits, displayPath, givenPath, printable, printableLine, readDigestFile } from './cliFiles';
import { isInside } from './fs/contained';
import type { ExportFormat } from './service/reading/export/index';
import { EXPORT_FORMATS, exportChunks } from './service/reading/export/index';
import { jsonArrayChunks } from './service/reading/export/csljson';
import { Batched } from './fs/blockingWrite';
import type { ExportRecord } from './service/reading/exportRecord';
import { exportRecord, keySourceOf, oneLine, secondTitle } from './service/reading/exportRecord';
import type { Interests } from './service/reading/interests';
import { interestsFromFileText, NO_INTERESTS } from './service/reading/interests';
import type { ModelLookup } from './service/reading/model';
import { ReadingModel } from './service/reading/model';
import type { PapersQuery } from './service/reading/scope';
import { distinctPapers, papersInScope, rankPapers } from './service/reading/scope';
import type { PaperState, StateChange } from './service/reading/stateFile';
import { StateStore } from './service/reading/stateStore';
import { titleKey, untitledPaperName, untitledPaperNumber } from './service/features/entries';
import { paperKeyOf } from './service/reading/paperInfo';
import { FilterProblem, filterProblem } from './service/filterTerms';
import type { PaperSummary } from './service/workspaceIndex';
import { foldForSearch, WorkspaceIndex } from './service/workspaceIndex';
import { INTERESTS_FILE, NodeStateDisk, readInterestsFile, STATE_FOLDER } from './stateDisk';
import { CliUsageError, COMMAND_OPTIONS, infoAnswer, InfoRequest, infoRequest, languageOption, problemText, requestedLanguage, separateValue, usageError } from './cliLanguage';
import { choices, cliSay, cliSummary, cliText, message, MessageRef, messageText, reasonOf } from './service/cliMessages';
import { Bilingual, bilingual, DEFAULT_MESSAGE_LANGUAGE, MessageLanguage, pick, PUNCTUATION, say } from './service/messages';
import { clip } from './service/text';

type PapersFormat = 'text' | 'json' | ExportFormat;
const PAPERS_FORMATS: readonly PapersFormat[] = ['text', 'json', ...EXPORT_FORMATS];

interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
  stdoutClosed?(): boolean;
}

/** The argument after an option (`--x VALUE` or `--x=VALUE`), or a usage error. */
function optionValue(args: readonly string[], i: number, name: string, options: ReadonlySet<string>): { value: string; next: number } {
  const arg = args[i];
  if (arg.startsWith(`${name}=`)) {
    return { value: arg.slice(name.length + 1), next: i };
  }
  const value = separateValue(args, i, options);
  if (value === undefined) {
    throw new CliUsageError(cliText('needsValue', { option: name }));
  }
  return { value, next: i + 1 };
}

function isOption(arg: string, name: string): boolean {
  return arg === name || arg.startsWith(`${name}=`);
}

// ---- The workspace the command line sees ------------------------------------------------

/** The digests under the paths, their state stores and interests, as one reading model. */
interface CliWorkspace {
  readonly index: WorkspaceIndex;
  readonly model: ReadingModel;
  /** State root folder → its store. */
  readonly stores: ReadonlyMap<string, StateStore>;
  storeOf(uri: string): StateStore | undefined;
  /** A digest URI → its path as shown. */
  display(uri: string): string;
  /** Whether a digest is one the paths name (not one read only for the digest order). */
  listed(uri: string): boolean;
}

/**
 * Reads the digests under the paths and opens the state of each state root. Problems (files
 * that cannot be read, state files that cannot be used) go through `fail`.
 */
function openWorkspace(paths: readonly string[], cwd: string, fail: (problem: MessageRef) => void): CliWorkspace {
  const index = new WorkspaceIndex();
  const rootOf = new Map<string, string>();
  const mtimes = new Map<string, number>();
  const shown = new Map<string, string>();
  const roots: string[] = [];
  /** Files read but past a limit of what is read, reported once. */
  const leftOut = new Set<string>();
  // The folders given; one inside another given belongs to the outer one (its state file), so
  // that the order they are given in makes no difference (`papers i/sub i` as `papers i i/sub`).
  const folders = paths.map((given) => {
    const absolute = givenPath(given, cwd);
    try {
      return typeof absolute === 'string' && fs.statSync(absolute).isDirectory() ? absolute : undefined;
    } catch {
      // collectDigestFiles reports it.
      return undefined;
    }
  });
  const outermost = (folder: string): string => folders.reduce<string>((outer, other) => (other !== undefined && other.length < outer.length && isInside(other, outer) ? other : outer), folder);
  /** The outermost folder given that holds a file, if one does (a file named by itself beside it). */
  const givenFolderOf = (file: string): string | undefined => {
    const holding = folders.filter((folder): folder is string => folder !== undefined && isInside(folder, file));
    return holding.length > 0 ? outermost(holding[0]) : undefined;
  };
  for (const [i, given] of paths.entries()) {
    const inner = folders[i];
    const folder = inner === undefined ? undefined : stateRootOfFolder(outermost(inner));
    for (const found of collectDigestFiles([given], cwd, fail)) {
      const display = displayPath(found.path, cwd);
      const read = readDigestFile(found.path, printable(display), fail);
      if (read === undefined) {
        continue;
      }
      const uri = pathToFileURL(found.path).href;
      if (rootOf.has(uri) || leftOut.has(uri)) {
        continue;
      }
      const doc = digestWithinLimits(read.text, printable(display), fail);
      if (doc === undefined) {
        leftOut.add(uri);
        continue;
      }
      index.update(uri, doc);
      mtimes.set(uri, read.snapshot.mtimeMs);
      shown.set(uri, display);
      const root = folder ?? givenFolderOf(found.path) ?? stateRootOfFile(found.path);
      rootOf.set(uri, root);
      if (!roots.includes(root)) {
        roots.push(root);
      }
    }
  }
  // A file named by itself is seen among the other digests of its state folder, so that the
  // digest order, and which papers are new, are the same as for the whole folder.
  const listed = new Set(rootOf.keys());
  for (const root of roots) {
    for (const found of collectDigestFiles([root], cwd, () => undefined)) {
      const uri = pathToFileURL(found.path).href;
      if (rootOf.has(uri) || leftOut.has(uri)) {
        continue;
      }
      const read = readDigestFile(found.path, '', () => undefined);
      if (read !== undefined) {
        index.update(uri, read.text);
        mtimes.set(uri, read.snapshot.mtimeMs);
        rootOf.set(uri, root);
      }
    }
  }
  const stores = new Map<string, StateStore>();
  const interests = new Map<string, Interests>();
  for (const root of roots) {
    const store = new StateStore(new NodeStateDisk(root));
    store.load();
    // A state file that can be read but not written is read all the same: papers writes nothing.
    if (store.status.problemRef && !store.status.stateInUse) {
      fail(store.status.problemRef);
    }
    stores.set(root, store);
    interests.set(root, interestsOf(root, fail));
  }
  const storeOf = (uri: string): StateStore | undefined => {
    const root = rootOf.get(uri);
    return root === undefined ? undefined : stores.get(root);
  };
  const model = new ReadingModel(index, {
    storeFor: storeOf,
    interestsFor: (uri) => interests.get(rootOf.get(uri) ?? '') ?? NO_INTERESTS,
    mtimeOf: (uri) => mtimes.get(uri),
  });
  return { index, model, stores, storeOf, display: (uri) => shown.get(uri) ?? uri, listed: (uri) => listed.has(uri) };
}

/** For a digest named by itself: the nearest folder above with a `.paper-digest` folder, else its own. */
function stateRootOfFile(file: string): string {
  return stateRootOfFolder(path.dirname(file));
}

/**
 * For a folder: the folder itself or the nearest one above it with a `.paper-digest` folder (as
 * git finds its repository), else the folder itself. `mark` run in a subfolder of a workspace
 * changes the workspace's state file, which the editor shows, instead of starting another. A
 * `.paper-digest` above that another user owns (`user` is the one running, undefined where
 * there are none) ends the search with the folder itself, as git refuses a repository above that
 * another user owns: a mark run below a folder someone else controls (a shared `/tmp`) does not
 * write its notes there. The folder's own `.paper-digest` is its state whoever owns it.
 */
export function stateRootOfFolder(own: string, user: number | undefined = process.getuid?.()): string {
  for (let folder = own; ; folder = path.dirname(folder)) {
    try {
      const stat = fs.lstatSync(path.join(folder, STATE_FOLDER));
      if (stat.isDirectory()) {
        return folder === own || user === undefined || stat.uid === user ? folder : own;
      }
    } catch {
      // None here.
    }
    if (path.dirname(folder) === folder) {
      return own;
    }
  }
}

function interestsOf(root: string, fail: (problem: MessageRef) => void): Interests {
  const read = readInterestsFile(root);
  if (read === undefined) {
    return NO_INTERESTS;
  }
  if ('problem' in read) {
    fail(read.problem);
    return NO_INTERESTS;
  }
  const file = path.join(root, STATE_FOLDER, INTERESTS_FILE);
  const { interests, fileProblem } = interestsFromFileText(read.text, file);
  if (fileProblem) {
    fail(fileProblem);
    return NO_INTERESTS;
  }
  for (const problem of interests.problems) {
    fail(message('interestsFileProblem', { path: file, problem }));
  }
  return interests;
}

// ---- papers -----------------------------------------------------------------------------

interface PapersOptions {
  readonly paths: string[];
  readonly query: { -readonly [K in keyof PapersQuery]: PapersQuery[K] };
  sort: 'rank' | 'file';
  format: PapersFormat;
  language: MessageLanguage;
}

function parsePapersArguments(args: readonly string[]): PapersOptions | InfoRequest {
  const options: PapersOptions = { paths: [], query: {}, sort: 'rank', format: 'text', language: DEFAULT_MESSAGE_LANGUAGE };
  let onlyPaths = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (onlyPaths || !arg.startsWith('-') || arg === '-') {
      options.paths.push(arg);
    } else if (arg === '--') {
      onlyPaths = true;
    } else if (infoRequest(arg)) {
      return infoRequest(arg)!;
    } else if (isOption(arg, '--lang')) {
      ({ language: options.language, next: i } = languageOption(args, i)!);
    } else if (arg === '--unread') {
      options.query.unreadOnly = true;
    } else if (arg === '--starred') {
      options.query.starredOnly = true;
    } else if (arg === '--new') {
      options.query.newOnly = true;
    } else if (isOption(arg, '--filter')) {
      const { value, next } = optionValue(args, i, '--filter', COMMAND_OPTIONS.papers);
      // A filter no paper can pass (`week:2026-W99`) is a mistake to say, not an empty list.
      const problem = filterProblem(value);
      if (problem) throw new CliUsageError(filterProblemText(problem));
      options.query.filter = value;
      i = next;
    } else if (isOption(arg, '--tag')) {
      const { value, next } = optionValue(args, i, '--tag', COMMAND_OPTIONS.papers);
      // An empty tag names none (as for `mark --tag`): bad usage, not a list of no papers.
      if (value.trim() === '') throw new CliUsageError(cliText('needsTag', { option: '--tag' }));
      options.query.tag = value.replace(/\s+/g, ' ').trim();
      i = next;
    } else if (isOption(arg, '--sort')) {
      const { value, next } = optionValue(args, i, '--sort', COMMAND_OPTIONS.papers);
      if (value !== 'rank' && value !== 'file') {
        throw new CliUsageError(cliText('unknownSort', { value: printable(value), values: choices(['rank', 'file']) }));
      }
      options.sort = value;
      i = next;
    } else if (isOption(arg, '--format')) {
      const { value, next } = optionValue(args, i, '--format', COMMAND_OPTIONS.papers);
      if (!(PAPERS_FORMATS as readonly string[]).includes(value)) {
        throw new CliUsageError(cliText('unknownFormat', { value: printable(value), values: choices(PAPERS_FORMATS) }));
      }
      options.format = value as PapersFormat;
      i = next;
    } else {
      throw new CliUsageError(cliText('unknownOptionFor', { option: printable(arg), command: 'papers' }));
    }
  }
  return options;
}

/** Why `--filter` can keep no paper, in both languages. */
function filterProblemText(problem: FilterProblem): Bilingual {
  if (problem.kind === 'tooManyTerms') {
    return cliText('filterTooManyTerms', { max: problem.max });
  }
  const key = problem.field === 'date' ? 'filterNotADay' : problem.field === 'week' ? 'filterNotAWeek' : 'filterNotAMonth';
  return cliText(key, { term: printable(`${problem.field}:${problem.value}`), example: problem.example });
}

/** The changes `mark` refuses for what was asked, not for the state file: said as usage errors are. */
const REFUSED_AS_ASKED: ReadonlySet<string> = new Set(['tagTooLong', 'noteTooLong', 'tagAddedAndRemoved', 'tooManyTags']);

/** Runs `papers` with the arguments after the command's name; returns the exit status. */
export function runPapers(args: readonly string[], out: Output, cwd: string): number {
  let options: PapersOptions | InfoRequest;
  try {
    options = parsePapersArguments(args);
  } catch (error) {
    if (error instanceof CliUsageError) return usageError(out, 'papers', error, requestedLanguage(args));
    throw error;
  }
  if (options === 'help' || options === 'version') {
    return infoAnswer(out, options, 'helpPapers', args);
  }
  let failed = false;
  const language = options.language;
  const fail = (problem: MessageRef): void => {
    failed = true;
    out.stderr(`paper-digest: ${printableLine(problemText(problem, language))}\n`);
  };
  const workspace = openWorkspace(options.paths.length > 0 ? options.paths : ['.'], cwd, fail);
  const lookup = workspace.model.lookup();
  if (failed && lookup.index.files().length === 0) {
    // No digest could be read: said on standard error, nothing on standard output (as `stats`).
    return 2;
  }
  const listed = (paper: PaperSummary): boolean => workspace.listed(paper.uri);
  // Each paper at its place in the newest digest, then kept by its state (`--unread`,
  // `--starred`, `--tag`) as it is listed: across the folders of several state files.
  const { unreadOnly, starredOnly, tag, ...placeQuery } = options.query;
  const placed =
    options.sort === 'rank'
      ? rankPapers(lookup, placeQuery, undefined, listed, true)
      : inFileOrder(lookup, distinctPapers(lookup, papersInScope(lookup, placeQuery).filter(listed)));
  const folders = workspace.stores.size > 1 ? acrossFolders(lookup) : undefined;
  const flags = (paper: PaperSummary): ListedState => folders?.state(paper) ?? lookup.flags(paper);
  const papers =
    unreadOnly || starredOnly || tag !== undefined
      ? placed.filter((paper) => {
          const state = flags(paper);
          return (!unreadOnly || !state.read) && (!starredOnly || state.starred) && (tag === undefined || state.tags.includes(tag));
        })
      : placed;
  // Each paper's record is made as its text is written, and the text written in batches as it
  // is made: a year of papers exported held its 100,000 records and its 150 MB of text at once.
  const records = function* (): Generator<ExportRecord, void, undefined> {
    for (const paper of papers) {
      const record = exportRecord(lookup, paper);
      const state = folders?.state(paper);
      yield state ? { ...record, read: state.read, starred: state.starred, tags: state.tags, ...(state.note ? { note: state.note } : {}) } : record;
    }
  };
  const fileOf = (uri: string): string => workspace.display(uri).split(path.sep).join('/');
  const chunks =
    options.format === 'text'
      ? papersTextChunks(records(), fileOf, options.language)
      : options.format === 'json'
        ? jsonArrayChunks(records(), (record) => paperJson(record, fileOf))
        : // The cite keys from every paper's first author, title and state key: the same whatever the order.
          exportChunks(options.format, records(), papers.length, fileOf, options.format === 'bibtex' || options.format === 'csljson' ? papers.map(keySourceOf) : undefined);
  const batched = new Batched((text) => out.stdout(text));
  for (const chunk of chunks) {
    // The reader has read enough (`| head`): the rest is not made.
    if (out.stdoutClosed?.()) break;
    batched.add(chunk);
  }
  batched.flush();
  return failed ? 2 : 0;
}

/** Oldest digest first, then top to bottom. */
function inFileOrder(lookup: ModelLookup, papers: PaperSummary[]): PaperSummary[] {
  return papers.sort((a, b) => lookup.digestRank(a.uri) - lookup.digestRank(b.uri) || a.entryIndex - b.entryIndex);
}

/**
 * One object of `papers --format json`.
 *
 * @example
 * paperJson(record, fileOf) // { id, title, titleZh, authors, institutions: [{ name, nameZh }], ..., file, line, read, ... }
 */
export function paperJson(record: ExportRecord, fileOf: (uri: string) => string): Record<string, unknown> {
  return {
    id: record.paperKey,
    title: record.title,
    titleZh: record.titleZh,
    authors: record.authors,
    // An author line ending with `et al.`: more authors than `authors` names.
    moreAuthors: record.moreAuthors === true,
    institutions: record.institutions.map((institution) => ({ name: institution.name, nameZh: institution.nameZh ?? null })),
    topic: record.topic,
    hits: record.hits,
    categories: record.categories,
    summary: record.summary,
    arxivId: record.arxivId ?? null,
    year: record.year ?? null,
    file: fileOf(record.uri),
    line: record.line,
    read: record.read,
    starred: record.starred,
    tags: record.tags,
    note: record.note ?? null,
    new: record.isNew,
    score: record.score,
    reasons: record.reasons,
  };
}

/**
 * The title a record is listed by: a paper without either title is named by its place
 * (`(untitled paper 3)`, `（无题论文 3）` for `zh-cn`); the exports and `--format json` keep the English name.
 */
function recordName(record: ExportRecord, language: MessageLanguage): string {
  const number = record.paperKey.startsWith('untitled:') ? untitledPaperNumber(record.title) : undefined;
  return number === undefined ? record.title : untitledPaperName(number, language);
}

/** What the listing of a paper says of its state. */
interface ListedState {
  readonly read: boolean;
  readonly starred: boolean;
  readonly tags: readonly string[];
  readonly note?: string;
}

/**
 * A paper's state as a listing of each paper once shows it when its copies are in folders of
 * their own state files (`papers a b`): read only when read in every folder it is in, starred
 * when starred in one, the tags of them all, its listed copy's note or another's. As the Papers
 * view's badge takes it (a paper unread while one of its places is); `--unread`, `--starred` and
 * `--tag` keep papers by it, so that the summary line counts what they list. Undefined when
 * its copies share one state.
 */
function acrossFolders(lookup: ModelLookup): { state(paper: PaperSummary): ListedState | undefined } {
  const copies = new Map<string, PaperSummary[]>();
  for (const paper of lookup.papers()) {
    const key = paperKeyOf(paper);
    const list = copies.get(key);
    if (list) list.push(paper);
    else copies.set(key, [paper]);
  }
  return {
    state(paper) {
      const states = (copies.get(paperKeyOf(paper)) ?? []).map((copy) => lookup.stateOf(copy));
      if (states.every((state) => state === states[0])) return undefined;
      const own = lookup.stateOf(paper);
      const tags = new Set<string>();
      for (const state of [own, ...states]) for (const tag of state?.tags ?? []) tags.add(tag);
      const note = own?.note ?? states.find((state) => state?.note)?.note;
      return {
        read: states.every((state) => state?.read === true),
        starred: states.some((state) => state?.starred === true),
        tags: [...tags].sort(),
        ...(note ? { note } : {}),
      };
    },
  };
}

/** One line per paper: state marks, score, place, titles, tags; then a count, in Chinese for `zh-cn` and in English otherwise (as `check`'s summary line). */
export function* papersTextChunks(records: Iterable<ExportRecord>, fileOf: (uri: string) => string, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): Generator<string, void, undefined> {
  let count = 0;
  let unread = 0;
  let starred = 0;
  for (const record of records) {
    count++;
    if (!record.read) unread++;
    if (record.starred) starred++;
    const marks = `${record.read ? '✓' : '·'}${record.starred ? '★' : ' '}${record.isNew ? '+' : ' '}`;
    const score = String(record.score).padStart(5);
    const titles = secondTitle(record) ? `${record.title} · ${secondTitle(record)}` : recordName(record, language);
    const tags = oneLine(record.tags.map((tag) => `#${tag}`).join(' '));
    yield printable(`${marks} ${score}  ${fileOf(record.uri)}:${record.line}  ${oneLine(titles)}${tags ? `  ${tags}` : ''}`) + '\n';
  }
  yield cliSummary('papersSummary', { count, unread, starred }, language) + '\n';
}

// ---- mark -------------------------------------------------------------------------------

type MarkAction = 'read' | 'unread' | 'star' | 'unstar' | 'tag';
const MARK_ACTIONS: readonly MarkAction[] = ['read', 'unread', 'star', 'unstar', 'tag'];

interface MarkOptions {
  action: MarkAction;
  title?: string;
  id?: string;
  addTags: string[];
  removeTags: string[];
  note?: string;
  path?: string;
  language: MessageLanguage;
}

function parseMarkArguments(args: readonly string[]): MarkOptions | InfoRequest {
  let action: MarkAction | undefined;
  const options: Omit<MarkOptions, 'action'> = { addTags: [], removeTags: [], language: DEFAULT_MESSAGE_LANGUAGE };
  let onlyPaths = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (onlyPaths || !arg.startsWith('-') || arg === '-') {
      if (action === undefined && !onlyPaths) {
        if (!(MARK_ACTIONS as readonly string[]).includes(arg)) {
          throw new CliUsageError(cliText('unknownChange', { value: printable(arg), values: choices(MARK_ACTIONS) }));
        }
        action = arg as MarkAction;
      } else if (options.path === undefined) {
        options.path = arg;
      } else {
        throw new CliUsageError(cliText('markOneFolder'));
      }
    } else if (arg === '--') {
      onlyPaths = true;
    } else if (infoRequest(arg)) {
      return infoRequest(arg)!;
    } else if (isOption(arg, '--lang')) {
      ({ language: options.language, next: i } = languageOption(args, i)!);
    } else if (isOption(arg, '--title') || isOption(arg, '--id') || isOption(arg, '--note') || isOption(arg, '--tag') || isOption(arg, '--untag')) {
      const name = arg.split('=')[0];
      const { value, next } = optionValue(args, i, name, COMMAND_OPTIONS.mark);
      i = next;
      if (name === '--tag' || name === '--untag') {
        if (value.trim() === '') throw new CliUsageError(cliText('needsTag', { option: name }));
        (name === '--tag' ? options.addTags : options.removeTags).push(value);
      } else {
        const field = name.slice(2) as 'title' | 'id' | 'note';
        if (options[field] !== undefined) throw new CliUsageError(cliText('givenTwice', { option: name }));
        if (field !== 'note' && value.trim() === '') throw new CliUsageError(cliText('needsValue', { option: name }));
        options[field] = value;
      }
    } else {
      throw new CliUsageError(cliText('unknownOptionFor', { option: printable(arg), command: 'mark' }));
    }
  }
  if (action === undefined) {
    throw new CliUsageError(cliText('markNeedsChange', { values: choices(MARK_ACTIONS) }));
  }
  if (options.title !== undefined && options.id !== undefined) {
    throw new CliUsageError(cliText('markOnePaper'));
  }
  if (options.title === undefined && options.id === undefined) {
    throw new CliUsageError(cliText('markNeedsPaper'));
  }
  if (action === 'tag' && options.addTags.length + options.removeTags.length === 0 && options.note === undefined) {
    throw new CliUsageError(cliText('markTagNeeds'));
  }
  return { action, ...options };
}

/** Runs `mark` with the arguments after the command's name; returns the exit status. */
export function runMark(args: readonly string[], out: Output, cwd: string): number {
  let options: MarkOptions | InfoRequest;
  try {
    options = parseMarkArguments(args);
  } catch (error) {
    if (error instanceof CliUsageError) return usageError(out, 'mark', error, requestedLanguage(args));
    throw error;
  }
  if (options === 'help' || options === 'version') {
    return infoAnswer(out, options, 'helpMark', args);
  }
  const language = options.language;
  const given = options.path ?? '.';
  /** One line on standard error, and exit 2. */
  const refuse = (text: string): number => {
    out.stderr(`paper-digest: ${printableLine(text)}\n`);
    return 2;
  };
  if (given.length === 0) {
    // An empty argument (an unset variable, `''`) names no folder: not the current one.
    return refuse(problemText(message('cannotRead', { path: '', reason: message('emptyPath') }), language));
  }
  const root = givenPath(given, cwd);
  if (typeof root !== 'string') {
    return refuse(problemText(root, language));
  }
  let isFolder = false;
  try {
    isFolder = fs.statSync(root).isDirectory();
  } catch (error) {
    return refuse(problemText(message('cannotRead', { path: printable(given), reason: reasonOf(error) }), language));
  }
  if (!isFolder) {
    out.stderr(`paper-digest: ${cliSay('notAFolder', { path: printable(given) }, language)}\n`);
    return 2;
  }
  const problems: MessageRef[] = [];
  const workspace = openWorkspace([given], cwd, (problem) => problems.push(problem));
  if (workspace.model.lookup().index.files().length === 0) {
    // No digest to find the paper in: say so, not that no title matches.
    return refuse(problemText(problems[0] ?? message('noDigestFiles', { path: printable(given) }), language));
  }
  // The folder's state file, or that of the nearest folder above it with one (openWorkspace).
  const stateRoot = stateRootOfFolder(root);
  const store = workspace.stores.get(stateRoot) ?? openStore(stateRoot, problems);
  if (store.status.problemRef) {
    // A corrupt or unreadable state file: report it, change nothing.
    return refuse(problemText(store.status.problemRef, language));
  }
  const lookup = workspace.model.lookup();
  const match = findPaper(lookup, store, options);
  if ('en' in match) {
    return refuse(say(match, language));
  }
  const change: { -readonly [K in keyof StateChange]: StateChange[K] } = {};
  if (options.action === 'read' || options.action === 'unread') change.read = options.action === 'read';
  if (options.action === 'star' || options.action === 'unstar') change.starred = options.action === 'star';
  if (options.addTags.length > 0) change.addTags = options.addTags;
  if (options.removeTags.length > 0) change.removeTags = options.removeTags;
  if (options.note !== undefined) change.note = options.note === '' ? null : options.note;
  const before = store.get(match.key);
  const result = store.change([match.key], change, match.title ? new Map([[match.key, match.title]]) : undefined);
  if (result.messageRef) {
    // A change refused as asked (a tag too long, added and removed): worded as usage errors are,
    // in both languages under `both`; one the state file refuses (locked, not writable, past its
    // limits) as the file's other problems are, in English under `both`.
    return refuse(REFUSED_AS_ASKED.has(result.messageRef.key) ? say(messageText(result.messageRef), language) : problemText(result.messageRef, language));
  }
  // The English title, else the Chinese one: never the state key.
  const shown = oneLine(match.name || match.title || match.key);
  const done = (result.changed.length > 0 ? describeChange(options, before, store.get(match.key)) : undefined) ?? sentence(cliText('unchanged'));
  out.stdout(printable(`${pick(done, language)}${PUNCTUATION.colon(language)}${shown}`) + '\n');
  for (const problem of problems) {
    // Digests that could not be read do not stop a change of the state file; they are said.
    out.stderr(`paper-digest: ${printableLine(problemText(problem, language))}\n`);
  }
  return problems.length > 0 ? 2 : 0;
}

function openStore(root: string, problems: MessageRef[]): StateStore {
  const store = new StateStore(new NodeStateDisk(root));
  store.load();
  if (store.status.problemRef) problems.push(store.status.problemRef);
  return store;
}

/**
 * What a change did to a paper's state, from the state before and after it, e.g. `Starred,
 * tagged #circuits` and `已加星标，已加标签 #circuits`: only what changed (a tag removed that the
 * paper did not have is not said to be); undefined when nothing did.
 */
function describeChange(options: MarkOptions, before: PaperState | undefined, after: PaperState | undefined): Bilingual | undefined {
  const parts: Bilingual[] = [];
  if ((options.action === 'read' || options.action === 'unread') && (before?.read === true) !== (after?.read === true)) parts.push(cliText(options.action === 'read' ? 'markedRead' : 'markedUnread'));
  if ((options.action === 'star' || options.action === 'unstar') && (before?.starred === true) !== (after?.starred === true)) parts.push(cliText(options.action === 'star' ? 'starred' : 'unstarred'));
  const had = new Set(before?.tags ?? []);
  const has = new Set(after?.tags ?? []);
  const tags = (list: readonly string[]): string => list.map((tag) => `#${oneLine(tag)}`).join(' ');
  const added = [...has].filter((tag) => !had.has(tag));
  const removed = [...had].filter((tag) => !has.has(tag));
  if (added.length > 0) parts.push(cliText('tagged', { tags: tags(added) }));
  if (removed.length > 0) parts.push(cliText('untagged', { tags: tags(removed) }));
  if (options.note !== undefined && (before?.note ?? '') !== (after?.note ?? '')) parts.push(cliText(after?.note ? 'noteSet' : 'noteRemoved'));
  return parts.length > 0 ? sentence(bilingual(parts.map((part) => part.en).join(', '), parts.map((part) => part.zh).join('，'))) : undefined;
}

/** The English with a capital first letter. */
function sentence(message: Bilingual): Bilingual {
  return bilingual(message.en.charAt(0).toUpperCase() + message.en.slice(1), message.zh);
}

/**
 * The one paper `--title` or `--id` names: by id among the digests' papers and the state
 * file's; by title, the paper whose English or Chinese title is it (case and white space
 * ignored), else the one whose title contains it. A message says why none or several match.
 */
function findPaper(lookup: ModelLookup, store: StateStore, options: MarkOptions): { key: string; title: string; name: string } | Bilingual {
  const byKey = new Map<string, PaperSummary>();
  for (const paper of lookup.papers()) {
    // The key alone (`info` makes and keeps the whole reading information of every paper).
    const key = paperKeyOf(paper);
    if (!byKey.has(key)) byKey.set(key, paper);
  }
  if (options.id !== undefined) {
    const paper = byKey.get(options.id);
    if (paper) return { key: options.id, title: paper.englishTitle, name: paper.title };
    const state = store.get(options.id);
    if (state) return { key: options.id, title: state.title ?? '', name: state.title ?? '' };
    return cliText('noSuchId', { id: shownInMessage(options.id) });
  }
  const wanted = titleKey(options.title!);
  const exact = [...byKey].filter(([, paper]) => titleKey(paper.englishTitle) === wanted || titleKey(paper.chineseTitle) === wanted);
  const candidates = exact.length > 0 ? exact : [...byKey].filter(([, paper]) => foldForSearch(`${paper.englishTitle}\u0000${paper.chineseTitle}`).includes(foldForSearch(options.title!.replace(/\s+/g, ' ').trim())));
  if (candidates.length === 1) {
    return { key: candidates[0][0], title: candidates[0][1].englishTitle, name: candidates[0][1].title };
  }
  if (candidates.length === 0) {
    return cliText('noSuchTitle', { title: shownInMessage(options.title!) });
  }
  const names = candidates.slice(0, 3).map(([, paper]) => `'${shownInMessage(paper.title)}'`);
  return cliText('severalMatch', { count: candidates.length, title: shownInMessage(options.title!), names: bilingual(`${names.join(', ')}${candidates.length > 3 ? ', …' : ''}`, `${names.join('、')}${candidates.length > 3 ? '、…' : ''}`) });
}

/** The longest title or id a message repeats (in each of its two languages): a longer one is cut. */
const MAX_SHOWN_IN_MESSAGE = 120;

/** A title or id given or found, on one line and cut to `MAX_SHOWN_IN_MESSAGE` characters with '…'. */
function shownInMessage(text: string): string {
  return clip(oneLine(text), MAX_SHOWN_IN_MESSAGE);
}

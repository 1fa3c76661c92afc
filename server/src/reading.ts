/**
 * The reading workflow in the language server: one state store per workspace folder (its
 * `.paper-digest/state.json`), the interests of each folder (setting `paperDigest.interests`,
 * else `.paper-digest/interests.json`), and the answers to the reading requests. server.ts
 * wires the requests to the methods here with a line each.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CodeLens, Hover, Position } from 'vscode-languageserver/node';
import type {
  DigestsResult,
  DocumentPapersResult,
  ExportPapersParams,
  ExportPapersResult,
  RankedPapersParams,
  RankedPapersResult,
  SetPaperStateParams,
  SetPaperStateResult,
  StateChangedParams,
  StateFileInfo,
  StateInfoResult,
} from './readingProtocol';
import { MAX_EXPORT_PAPERS } from './readingProtocol';
import type { Cancellation } from './service/cancellation';
import { NEVER_CANCELLED } from './service/cancellation';
import { PAPERS_GROUPINGS, PapersTreeCache, standalonePaperNode } from './service/features/tree';
import { codeLenses, documentPapers, paperOnTitleLine, readingHover } from './service/reading/documentFeatures';
import { EXPORT_FORMATS, exportPapers } from './service/reading/export/index';
import { exportRecord } from './service/reading/exportRecord';
import type { ExportRecord } from './service/reading/exportRecord';
import { runToEnd } from './service/features/diagnostics';
import type { Interests } from './service/reading/interests';
import { hasInterests, interestsFromFileText, NO_INTERESTS, parseInterests } from './service/reading/interests';
import { ReadingModel } from './service/reading/model';
import type { ModelLookup } from './service/reading/model';
import { distinctPapers, papersInScope, rankPapers } from './service/reading/scope';
import { StateStore } from './service/reading/stateStore';
import { Log, message, MessageRef, detailOf } from './service/cliMessages';
import { DEFAULT_MESSAGE_LANGUAGE, MessageLanguage, pick } from './service/messages';
import { CHANGE_MESSAGES, stateProblemIn } from './service/reading/readingMessages';
import { localizedNode } from './service/treeLabels';
import { decodeUriText, withoutTrailingSlashes } from './service/text';
import { firstCopyInFile, PaperSummary, WorkspaceIndex } from './service/workspaceIndex';
import type { StateFileSource } from './clientStateDisk';
import { ClientStateDisk, readClientInterests } from './clientStateDisk';
import { INTERESTS_FILE, NodeStateDisk, readInterestsFile, STATE_FILE, STATE_FOLDER } from './stateDisk';
import { runInSlices } from './slices';
import { paperKeyOf } from './service/reading/paperInfo';
import { titleRenames } from './service/reading/titleRenames';
import type { TitleRename } from './service/reading/titleRenames';
import { hasReadingState } from './service/reading/stateFile';
import type { StateChange } from './service/reading/stateFile';

/** What the reading service needs of the server around it. */
export interface ReadingHost {
  /** The workspace folder URIs. */
  folders(): readonly string[];
  mtimeOf(uri: string): number | undefined;
  /** `workspace/configuration` of a section for a scope URI (undefined when the client cannot be asked). */
  configuration(scopeUri: string, section: string): Promise<unknown>;
  notify(params: StateChangedParams): void;
  log: Log;
  /**
   * Settles when the workspace scan under way (if any) is done: the unread count is worked out
   * once the scan has indexed every file, rather than again after each file it indexes.
   */
  settled?(): Promise<void>;
  /** The language of the messages sent (the state file's problems, what a change says back); `both` when omitted. */
  messageLanguage?(): MessageLanguage;
  /** Shows the user a warning (`window/showMessage`): interests left out of the ranking. */
  warn?(text: string): void;
  /**
   * Where the state and interests files are reached through the client (the web extension's
   * server: stateFilesProtocol.ts); without it they are read and written on disk (stateDisk.ts).
   */
  readonly stateFiles?: StateFileSource;
}

/** At most this many papers in one ranked answer. */
const MAX_RANKED = 10_000;
/** At most this many authors and institutions per ranked paper. */
const MAX_RANKED_AUTHORS = 50;
const MAX_RANKED_INSTITUTIONS = 20;

export class ReadingService {
  private readonly stores = new Map<string, StateStore>();
  /** A read again of a state file found empty a moment ago, once it is old enough to be an empty state. */
  private readonly settleTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly interests = new Map<string, Interests>();
  private folderKey = '';
  readonly model: ReadingModel;
  readonly trees = new PapersTreeCache();
  private notifyTimer: NodeJS.Timeout | undefined;
  private lastUnread = -1;
  private codeLensEnabled = new Map<string, Promise<boolean>>();
  private interestsLoading: Promise<void> = Promise.resolve();
  /** Each file's papers as the last index change left them (`noteTitles`). */
  private readonly lastPapers = new Map<string, readonly PaperSummary[]>();
  /** The states carried to corrected titles, one change after another (`carryStates`). */
  private carrying: Promise<void> = Promise.resolve();
  /** The first reads of the client-backed stores under way. */
  private storesLoading: Promise<unknown> = Promise.resolve();

  constructor(
    readonly index: WorkspaceIndex,
    private readonly host: ReadingHost,
  ) {
    this.model = new ReadingModel(index, {
      storeFor: (uri) => this.storeFor(uri),
      interestsFor: (uri) => this.interestsFor(uri),
      mtimeOf: (uri) => host.mtimeOf(uri),
    });
    // The papers each file has on disk now: a title corrected from here on is told against them.
    for (const file of index.files()) {
      const papers = index.diskPapers(file.uri);
      if (papers) this.lastPapers.set(file.uri, papers);
    }
    index.onDidChange((change) => {
      // Nothing may keep the papers of a closed or removed file.
      this.lastRanking = undefined;
      this.model.forget();
      this.trees.clear();
      this.scheduleNotify(false);
      this.noteTitles(change.uris);
    });
    // An open document saved: its titles as saved.
    index.onDidChangeDiskWhileOpen((uri) => this.noteTitles([uri]));
  }

  /**
   * Looks for titles corrected in the files that changed on disk (`titleRenames`), against the
   * papers the last change left there (the same arrays the index holds: nothing is copied). A
   * title corrected in an open document carries its state once saved: unsaved text (a typo typed
   * and the document closed without saving, a window that ends) never moves the state.
   */
  private noteTitles(uris: readonly string[]): void {
    for (const uri of uris) {
      const papers = this.index.diskPapers(uri);
      const before = this.lastPapers.get(uri);
      if (papers) this.lastPapers.set(uri, papers);
      else this.lastPapers.delete(uri);
      if (!before || !papers || before === papers) continue;
      const renames = titleRenames(before, papers);
      if (renames.length > 0) {
        this.carrying = this.carrying.then(() => this.carryStates(uri, renames)).catch((error: unknown) => this.host.log(message('logCarryFailed', { location: uri, reason: detailOf(error) })));
      }
    }
  }

  /**
   * Gives each paper whose title was corrected the state of its old title (read, star, tags,
   * note) when it has none of its own; the old title's state is then cleared, unless a paper
   * still has that title (another digest's copy). Written as any change is (merged, under the
   * lock); a store that refuses changes (read-only, corrupt) keeps the old state where it is.
   */
  private async carryStates(uri: string, renames: readonly TitleRename[]): Promise<void> {
    await this.storesLoading.catch(() => undefined);
    const store = this.storeFor(uri);
    if (!store) return;
    let carried = false;
    for (const { from, to, title } of renames) {
      const state = store.get(from);
      const target = store.get(to);
      // Another tool's fields of the new key (a reference manager's id) are no state of the
      // reader's own: they do not keep the read, star, tags and note from coming back to it.
      if (!state || !hasReadingState(state) || (target && hasReadingState(target))) continue;
      const change: StateChange = {
        ...(state.read ? { read: true } : {}),
        ...(state.starred ? { starred: true } : {}),
        ...(state.tags && state.tags.length > 0 ? { addTags: state.tags } : {}),
        ...(state.note ? { note: state.note } : {}),
      };
      const result = await store.changeAsync([to], change, new Map([[to, title]]));
      if (result.changed.length === 0) continue;
      carried = true;
      if (!this.anyPaperKeyed(from)) {
        await store.changeAsync([from], { read: false, starred: false, removeTags: state.tags ?? [], note: null });
      }
    }
    if (carried) {
      this.model.invalidate();
      this.scheduleNotify(true);
    }
  }

  /** Settles once the states of the titles corrected so far are carried (`carryStates`). */
  carried(): Promise<void> {
    return this.carrying;
  }

  /** Whether a paper of the workspace has this key. */
  private anyPaperKeyed(key: string): boolean {
    // An English title's key is its title key, which the index looks up; only a Chinese title's
    // (`zh:`) needs a pass over the papers.
    if (!key.startsWith('zh:')) return this.index.papersWithTitle(key).length > 0;
    for (const file of this.index.files()) {
      for (const paper of file.papers) if (paperKeyOf(paper) === key) return true;
    }
    return false;
  }

  /** The lookup at the current generation (stores in step with the folders). */
  lookup(): ModelLookup {
    this.syncFolders();
    return this.model.lookup();
  }

  /**
   * Scores every paper (each score is kept with its paper until the interests change), in slices:
   * the first For you tree or ranking of a year of papers after a start or an edit of the
   * interests scores 100,000 papers, a second and more, and the requests that come meanwhile (a
   * hover) are answered between the slices. False when cancelled.
   */
  async scoresReady(token: Cancellation): Promise<boolean> {
    const lookup = this.lookup();
    // Scores depend on the papers and the interests only: once every paper of an index
    // generation was scored with these interests, a state change needs no pass over them.
    const scoredWith = [lookup.index.generation, ...this.interests.values()];
    if (this.scoredWith && this.scoredWith.length === scoredWith.length && this.scoredWith.every((each, i) => each === scoredWith[i])) {
      return true;
    }
    const done = await runInSlices(scoreEvery(lookup, token), () => token.isCancellationRequested);
    if (done !== true || token.isCancellationRequested) {
      return false;
    }
    if (lookup.index.generation === scoredWith[0]) this.scoredWith = scoredWith;
    return true;
  }

  /** The index generation and the interests every paper was last scored with (`scoresReady`). */
  private scoredWith: unknown[] | undefined;

  /** Loads the stores and interests of folders added since the last call; forgets removed ones. */
  syncFolders(): void {
    const folders = this.host.folders();
    const key = folders.join('\u0000');
    if (key === this.folderKey) {
      return;
    }
    this.folderKey = key;
    for (const folder of [...this.stores.keys()]) {
      if (!folders.includes(folder)) {
        this.stores.delete(folder);
        clearTimeout(this.settleTimers.get(folder));
        this.settleTimers.delete(folder);
        this.interests.delete(folder);
      }
    }
    for (const folder of folders) {
      if (this.stores.has(folder)) {
        continue;
      }
      if (this.host.stateFiles) {
        const store = new StateStore(new ClientStateDisk(folder, this.host.stateFiles));
        this.stores.set(folder, store);
        this.storesLoading = Promise.all([this.storesLoading, this.loadAsync(store)]);
        continue;
      }
      let root: string;
      try {
        root = fileURLToPath(folder);
      } catch {
        continue;
      }
      const store = new StateStore(new NodeStateDisk(root));
      store.load();
      if (store.status.problemRef) {
        this.host.log(store.status.problemRef);
      }
      this.stores.set(folder, store);
      this.readAgainWhenSettled(folder);
    }
    this.model.invalidate();
    void this.reloadInterests();
  }

  /** Settles when the stores are in step with the folders and the interests are loaded. */
  async ready(): Promise<void> {
    this.syncFolders();
    await this.storesLoading;
    await this.interestsLoading;
  }

  /** Reads a client-backed store's file; refreshes what shows the state when it changed. */
  private async loadAsync(store: StateStore): Promise<void> {
    try {
      if (await store.loadAsync()) {
        if (store.status.problemRef) {
          this.host.log(store.status.problemRef);
        }
        this.model.invalidate();
        this.scheduleNotify(true);
      }
    } catch (error) {
      this.host.log(message('logReadingFailed', { location: store.location, reason: detailOf(error) }));
    }
  }

  /** The folder holding a URI (the longest match). */
  folderOf(uri: string): string | undefined {
    let best: string | undefined;
    for (const folder of this.host.folders()) {
      const prefix = folder.endsWith('/') ? folder : folder + '/';
      if ((uri === folder || uri.startsWith(prefix)) && (!best || folder.length > best.length)) {
        best = folder;
      }
    }
    return best;
  }

  storeFor(uri: string): StateStore | undefined {
    const folder = this.folderOf(uri);
    return folder ? this.stores.get(folder) : undefined;
  }

  /** Whether some folder has interests set (the setting or its interests.json). */
  anyInterests(): boolean {
    for (const interests of this.interests.values()) if (hasInterests(interests)) return true;
    return false;
  }

  interestsFor(uri: string): Interests {
    const folder = this.folderOf(uri);
    return (folder && this.interests.get(folder)) || NO_INTERESTS;
  }

  /** Pulls `paperDigest.interests` of each folder again (or reads interests.json), then refreshes. */
  reloadInterests(): Promise<void> {
    const loading = this.interestsLoading.then(() => this.loadInterests());
    this.interestsLoading = loading.catch((error: unknown) => this.host.log(message('logInterestsFailed', { reason: detailOf(error) })));
    return this.interestsLoading;
  }

  private async loadInterests(): Promise<void> {
    this.codeLensEnabled.clear();
    const folders = [...this.stores.keys()];
    const loaded = await Promise.all(
      folders.map(async (folder) => {
        const setting = parseInterests(await this.host.configuration(folder, 'paperDigest.interests').catch(() => undefined));
        let interests = setting;
        if (!hasInterests(setting)) {
          interests = this.host.stateFiles ? interestsFromText(await readClientInterests(folder, this.host.stateFiles)) : interestsFromFile(folder);
        }
        // Said with where it is: the folder's setting (also when none of it was kept and the
        // folder's interests.json is read instead: its problems were lost), or its interests.json.
        const problems = [
          ...setting.problems.map((problem) => ({ where: message('interestsSettingOf', { folder }), problem, log: message('logInterestsSetting', { folder, problem }) })),
          ...(interests === setting ? [] : interests.problems.map((problem) => ({ where: message('interestsFileAt', { file: interestsFileShown(folder) }), problem, log: message('logInterestsFile', { file: interestsFileShown(folder), problem }) }))),
        ];
        for (const problem of problems) this.host.log(problem.log);
        return { interests, problems };
      }),
    );
    folders.forEach((folder, i) => this.interests.set(folder, loaded[i].interests));
    this.warnOfInterests(loaded.flatMap((each) => each.problems));
    this.model.invalidate();
    this.scheduleNotify(true);
  }

  /** The warning shown of the interests left out, so that it is shown once while it stands. */
  private interestsWarned: string | undefined;

  /**
   * Tells the user that some interests are left out of the ranking (a misspelt kind, a weight that
   * is no number): in the log alone, a *For you* that ranks nothing said nothing of why. One
   * warning for the first problem, with how many more the log holds; shown once while it stands.
   */
  private warnOfInterests(problems: readonly { readonly where: MessageRef; readonly problem: MessageRef }[]): void {
    if (problems.length === 0) {
      this.interestsWarned = undefined;
      return;
    }
    const more = problems.length > 1 ? message('interestsMore', { count: problems.length - 1 }) : '';
    const text = stateProblemIn(message('interestsLeftOut', { where: problems[0].where, problem: problems[0].problem, more }), this.language());
    if (this.interestsWarned === text) {
      return;
    }
    this.interestsWarned = text;
    this.host.warn?.(text);
  }

  /**
   * When the last read of a folder's state file refused it as being written (empty, changed a
   * moment ago: stateDisk.ts), reads it again once it is old enough to be an empty state, as a
   * file event would have it read; no event comes for a file that stays as it is.
   */
  private readAgainWhenSettled(folder: string): void {
    clearTimeout(this.settleTimers.get(folder));
    this.settleTimers.delete(folder);
    const settlesAt = this.stores.get(folder)?.settlesAt;
    if (settlesAt === undefined) {
      return;
    }
    const timer = setTimeout(() => {
      this.settleTimers.delete(folder);
      if (this.stores.has(folder)) this.fileChanged(`${withoutTrailingSlashes(folder)}/${STATE_FOLDER}/${STATE_FILE}`);
    }, Math.max(0, settlesAt - Date.now()) + 50);
    timer.unref?.();
    this.settleTimers.set(folder, timer);
  }

  /** `workspace/didChangeWatchedFiles` for a state or interests file. Returns whether the URI was one. */
  fileChanged(uri: string): boolean {
    const suffix = `/${STATE_FOLDER}/`;
    const at = uri.lastIndexOf(suffix);
    if (at < 0) {
      return false;
    }
    const name = uri.slice(at + suffix.length);
    const folder = this.host.folders().find((each) => withoutTrailingSlashes(each) === uri.slice(0, at));
    if (!folder) {
      return false;
    }
    if (name === STATE_FILE) {
      const store = this.stores.get(folder);
      if (store?.asynchronous) {
        // Requests from now on wait for the reload (ready()).
        this.storesLoading = Promise.all([this.storesLoading, this.loadAsync(store)]);
      } else if (store && store.load()) {
        if (store.status.problemRef) {
          this.host.log(store.status.problemRef);
        }
        this.model.invalidate();
        this.scheduleNotify(true);
      }
      this.readAgainWhenSettled(folder);
      return true;
    }
    if (name === INTERESTS_FILE) {
      void this.reloadInterests();
      return true;
    }
    return false;
  }

  async setPaperState(params: SetPaperStateParams, token: Cancellation = NEVER_CANCELLED): Promise<SetPaperStateResult> {
    const lookup = this.lookup();
    if (!params || typeof params !== 'object' || !params.change || typeof params.change !== 'object') {
      return { changed: 0, readOnly: this.readOnly(), message: pick(CHANGE_MESSAGES.nothingToChange, this.language()) };
    }
    const { change, wrong, unknown } = readChange(params.change);
    if (wrong.length > 0) {
      // A client's mistake: said, and nothing half done.
      return { changed: 0, readOnly: this.readOnly(), message: pick(CHANGE_MESSAGES.wrongFields(wrong), this.language()) };
    }
    if (unknown.length > 0) {
      // `{ stared: true }`: a misspelt field is no change of nothing; said.
      return { changed: 0, readOnly: this.readOnly(), message: pick(CHANGE_MESSAGES.unknownFields(unknown), this.language()) };
    }
    if (Object.keys(change).length === 0) {
      return { changed: 0, readOnly: this.readOnly(), message: pick(CHANGE_MESSAGES.nothingToChange, this.language()) };
    }
    const scopeWrong = scopeMistakes(params.scope);
    if (scopeWrong.length > 0) {
      // `{ grouping: 'topics' }` or `{ paperKeys: [...] }` read as `{}` would change every paper.
      return { changed: 0, readOnly: this.readOnly(), message: pick(CHANGE_MESSAGES.wrongScope(scopeWrong), this.language()) };
    }
    // A change names its papers: without a scope it changes none (`{}` is every paper, said so).
    const scope = params.scope === undefined || params.scope === null ? NO_PAPER : sanitiseScope(params.scope);
    const papers = papersInScope(lookup, scope, this.trees, token);
    if (token.isCancellationRequested) {
      // Heard before anything is written (a group's tree given up midway finds no paper): nothing
      // changes, and the answer says so. Once the writes begin they are finished.
      return { changed: 0, readOnly: this.readOnly(), message: pick(CHANGE_MESSAGES.cancelled, this.language()) };
    }
    // Keys per store, with the English title to record beside each.
    const byStore = new Map<StateStore, { keys: string[]; titles: Map<string, string> }>();
    let outside = 0;
    for (const paper of papers) {
      const store = this.storeFor(paper.uri);
      if (!store) {
        outside++;
        continue;
      }
      let entry = byStore.get(store);
      if (!entry) {
        entry = { keys: [], titles: new Map() };
        byStore.set(store, entry);
      }
      // The key alone: the whole reading information of every paper changed was 1 KB each, kept.
      const key = paperKeyOf(paper);
      entry.keys.push(key);
      if (paper.englishTitle) {
        entry.titles.set(key, paper.englishTitle);
      }
    }
    let changed = 0;
    const messages: string[] = [];
    let readOnly = false;
    for (const [store, { keys, titles }] of byStore) {
      const result = await store.changeAsync(keys, change, titles);
      changed += result.changed.length;
      readOnly ||= result.readOnly;
      if (result.messageRef) {
        messages.push(stateProblemIn(result.messageRef, this.language()));
      }
    }
    if (outside > 0) {
      messages.push(pick(CHANGE_MESSAGES.outside(outside), this.language()));
    }
    if (papers.length === 0) {
      messages.push(pick(CHANGE_MESSAGES.noPaperMatched, this.language()));
    }
    this.model.invalidate();
    this.scheduleNotify(true);
    return messages.length > 0 ? { changed, readOnly, message: messages.join(' ') } : { changed, readOnly };
  }

  stateInfo(): StateInfoResult {
    const lookup = this.lookup();
    const stateFiles: StateFileInfo[] = [...this.stores.entries()].map(([folderUri, store]) => ({
      folderUri,
      stateFile: store.location,
      readOnly: store.status.readOnly,
      ...(store.status.problemRef ? { problem: stateProblemIn(store.status.problemRef, this.language()) } : {}),
    }));
    const tags = new Set<string>();
    for (const store of this.stores.values()) {
      for (const state of store.entries().values()) {
        state.tags?.forEach((tag) => tags.add(tag));
      }
    }
    const problem = stateFiles.find((file) => file.problem)?.problem;
    return {
      generation: lookup.generation,
      stateFiles,
      readOnly: stateFiles.some((file) => file.readOnly),
      ...(problem ? { problem } : {}),
      tags: [...tags].sort(),
      unreadCount: lookup.unreadCount(),
    };
  }

  digests(): DigestsResult {
    const lookup = this.lookup();
    return {
      digests: lookup.digests.map((digest) => {
        // Each paper once, however many copies of it the digest has (as its file group counts).
        let papers = 0;
        let unread = 0;
        let fresh = 0;
        for (const paper of digest.file.papers) {
          if (!firstCopyInFile(paper)) continue;
          // The flags alone, not the whole reading information of every paper.
          const flags = lookup.flags(paper);
          papers++;
          if (!flags.read) unread++;
          if (flags.isNew) fresh++;
        }
        return {
          uri: digest.file.uri,
          ...(digest.date ? { date: digest.date } : {}),
          ...(digest.mtime !== undefined ? { mtime: digest.mtime } : {}),
          ...(digest.file.heading ? { heading: digest.file.heading } : {}),
          paperCount: papers,
          unreadCount: unread,
          newCount: fresh,
        };
      }),
    };
  }

  /** The ranked papers, their reasons in `language`. */
  rankedPapers(params: RankedPapersParams, token: Cancellation = NEVER_CANCELLED, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): RankedPapersResult {
    const lookup = this.lookup();
    const query = sanitiseScope(params, ['limit', 'offset']);
    // The ranking of the last query is kept for its lookup (triage asks page after page).
    const queryKey = JSON.stringify(query);
    let ranked = this.lastRanking?.generation === lookup.generation && this.lastRanking.queryKey === queryKey ? this.lastRanking.papers : undefined;
    if (!ranked) {
      ranked = query === NO_PAPER ? [] : rankPapers(lookup, query, token);
      if (!token.isCancellationRequested) this.lastRanking = { generation: lookup.generation, queryKey, papers: ranked };
    }
    const offset = clampInteger(params?.offset, 0, Number.MAX_SAFE_INTEGER, 0);
    const limit = clampInteger(params?.limit, 0, MAX_RANKED, 100);
    return {
      generation: lookup.generation,
      total: ranked.length,
      papers: ranked.slice(offset, offset + limit).map((paper) => ({
        ...localizedNode(standalonePaperNode(this.index, 'ranked', paper, lookup), language),
        authors: paper.authors.slice(0, MAX_RANKED_AUTHORS),
        institutions: paper.institutions.slice(0, MAX_RANKED_INSTITUTIONS).map((institution) => (institution.translation ? { name: institution.name, nameZh: institution.translation } : { name: institution.name })),
      })),
    };
  }

  documentPapers(uri: string): DocumentPapersResult {
    const lookup = this.lookup();
    return { generation: lookup.generation, papers: typeof uri === 'string' ? documentPapers(lookup, uri) : [] };
  }

  exportPapers(params: ExportPapersParams, token: Cancellation = NEVER_CANCELLED): ExportPapersResult {
    return runToEnd(this.exportPapersSteps(params, token));
  }

  /**
   * `exportPapers` in steps: the records of the papers are made a few hundred at a time (an
   * export of a year of papers made 100,000 of them at once, seconds in which no hover was
   * answered and a cancellation went unheard); the text is then written at once. Empty when
   * cancelled.
   */
  *exportPapersSteps(params: ExportPapersParams, token: Cancellation = NEVER_CANCELLED): Generator<void, ExportPapersResult, void> {
    const lookup = this.lookup();
    if (!params || !EXPORT_FORMATS.includes(params.format)) {
      return { text: '', count: 0 };
    }
    const wrongScope = scopeMistakes(params.scope);
    if (wrongScope.length > 0) {
      // A client's mistake, said (read as `{}`, it exported every paper).
      return { text: '', count: 0, wrongScope };
    }
    const papers = distinctPapers(lookup, papersInScope(lookup, sanitiseScope(params.scope), this.trees, token));
    if (papers.length > MAX_EXPORT_PAPERS) {
      return { text: '', count: 0, tooMany: { papers: papers.length, max: MAX_EXPORT_PAPERS } };
    }
    const records: ExportRecord[] = [];
    for (const paper of papers) {
      records.push(exportRecord(lookup, paper));
      if ((records.length & 255) === 0) {
        yield;
        if (token.isCancellationRequested) return { text: '', count: 0 };
      }
    }
    if (token.isCancellationRequested) {
      return { text: '', count: 0 };
    }
    yield;
    return { text: exportPapers(params.format, records, (uri) => this.relativePath(uri)), count: records.length };
  }

  async codeLenses(uri: string, token: Cancellation = NEVER_CANCELLED): Promise<CodeLens[]> {
    if (!(await this.codeLensEnable(uri))) {
      return [];
    }
    return codeLenses(this.lookup(), uri, token);
  }

  /** The hover of a title with the reading part, in `language`, added below what the digest hover says. */
  hover(uri: string, position: Position, base: Hover | null, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): Hover | null {
    const lookup = this.lookup();
    const paper = paperOnTitleLine(lookup, uri, position);
    if (!paper) {
      return base;
    }
    const reading = readingHover(lookup.info(paper), (each) => this.relativePath(each), language);
    const baseText = base && typeof base.contents === 'object' && 'value' in base.contents ? base.contents.value : '';
    return {
      contents: { kind: 'markdown', value: baseText ? `${baseText}\n\n---\n\n${reading}` : reading },
      ...(base?.range ? { range: base.range } : { range: paper.selectionRange }),
    };
  }

  /** Sends `stateChanged` soon; `always` also when the unread count did not move. */
  scheduleNotify(always: boolean): void {
    clearTimeout(this.notifyTimer);
    this.pendingForce ||= always;
    const turn = ++this.notifyTurn;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = undefined;
      void (this.host.settled?.() ?? Promise.resolve()).then(() => {
        if (turn === this.notifyTurn) {
          this.notifyNow();
        }
      });
    }, 100);
  }

  /** How many notifications were scheduled: only the latest one is sent. */
  private notifyTurn = 0;

  private notifyNow(): void {
    const forced = this.pendingForce;
    this.pendingForce = false;
    const lookup = this.lookup();
    const unreadCount = lookup.unreadCount();
    if (!forced && unreadCount === this.lastUnread) {
      return;
    }
    this.lastUnread = unreadCount;
    const info = this.storeProblems();
    this.host.notify({ generation: lookup.generation, unreadCount, readOnly: info.readOnly, ...(info.problem ? { problem: info.problem } : {}) });
  }

  private pendingForce = false;
  /** The papers of the last ranked query, at a lookup generation (cleared when the index changes). */
  private lastRanking: { readonly generation: number; readonly queryKey: string; readonly papers: readonly PaperSummary[] } | undefined;

  dispose(): void {
    clearTimeout(this.notifyTimer);
    this.notifyTurn++;
  }

  private storeProblems(): { readOnly: boolean; problem?: string } {
    let readOnly = false;
    let problem: MessageRef | undefined;
    for (const store of this.stores.values()) {
      readOnly ||= store.status.readOnly;
      problem ??= store.status.problemRef;
    }
    return problem ? { readOnly, problem: stateProblemIn(problem, this.language()) } : { readOnly };
  }

  /** The language of the messages sent to the client. */
  private language(): MessageLanguage {
    return this.host.messageLanguage?.() ?? DEFAULT_MESSAGE_LANGUAGE;
  }

  private readOnly(): boolean {
    return this.storeProblems().readOnly;
  }

  private codeLensEnable(uri: string): Promise<boolean> {
    let enabled = this.codeLensEnabled.get(uri);
    if (!enabled) {
      enabled = this.host.configuration(uri, 'paperDigest.codeLens.enable').then(
        (value) => value !== false,
        () => true,
      );
      this.codeLensEnabled.set(uri, enabled);
    }
    return enabled;
  }

  /** Forgets the pulled CodeLens settings (on `workspace/didChangeConfiguration`). */
  configurationChanged(): void {
    this.codeLensEnabled.clear();
    void this.reloadInterests();
  }

  private relativePath(uri: string): string {
    const folder = this.folderOf(uri);
    try {
      const file = fileURLToPath(uri);
      return folder ? path.relative(fileURLToPath(folder), file).split(path.sep).join('/') : file;
    } catch {
      // Not a file: URI (a virtual file system in the browser): the part below the folder.
      const prefix = (folder === undefined ? undefined : withoutTrailingSlashes(folder)) + '/';
      return folder && uri.startsWith(prefix) ? decodeUriText(uri.slice(prefix.length)) : uri;
    }
  }
}

/** Where a folder's interests.json is, as the log names it: its path, or its URI in a file system of the client's. */
function interestsFileShown(folder: string): string {
  const uri = `${withoutTrailingSlashes(folder)}/${STATE_FOLDER}/${INTERESTS_FILE}`;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

function interestsFromFile(folder: string): Interests {
  let root: string;
  try {
    root = fileURLToPath(folder);
  } catch {
    return NO_INTERESTS;
  }
  const read = readInterestsFile(root);
  if (read === undefined) {
    return NO_INTERESTS;
  }
  if ('problem' in read) {
    return { list: [], problems: [read.problem] };
  }
  return interestsFromText(read.text);
}

function interestsFromText(text: string | undefined): Interests {
  if (text === undefined) {
    return NO_INTERESTS;
  }
  const { interests, fileProblem } = interestsFromFileText(text, INTERESTS_FILE);
  return fileProblem ? { list: [], problems: [fileProblem] } : interests;
}

/** The parts a scope may have (`PaperScope`). */
const SCOPE_FIELDS: readonly string[] = ['keys', 'uri', 'groupId', 'grouping', 'filter', 'tag', 'unreadOnly', 'starredOnly', 'newOnly'];

/**
 * What is wrong with a scope a client sent, each as the part's name: a part of another type, a
 * grouping that is none of the Papers view's, or a part no scope has (`paperKeys`, a misspelt
 * `grouping`), `also` naming the other fields its request has (`limit` beside a ranking's query);
 * `scope` for a scope that is no object. Empty when nothing is; at most 20.
 *
 * @example scopeMistakes({ paperKeys: ['k'], grouping: 'topics' }) // ['paperKeys', 'grouping']
 */
export function scopeMistakes(scope: unknown, also: readonly string[] = []): string[] {
  return allScopeMistakes(scope, also).slice(0, MAX_SCOPE_MISTAKES);
}

/** At most this many of a scope's mistakes are named (a scope of 20,000 unknown parts named them all). */
const MAX_SCOPE_MISTAKES = 20;

function allScopeMistakes(scope: unknown, also: readonly string[]): string[] {
  if (scope === undefined || scope === null) {
    return [];
  }
  if (typeof scope !== 'object' || Array.isArray(scope)) {
    return ['scope'];
  }
  const s = scope as Record<string, unknown>;
  const wrong: string[] = [];
  for (const field of Object.keys(s)) {
    if (s[field] === undefined) continue;
    if (!SCOPE_FIELDS.includes(field)) {
      if (!also.includes(field)) wrong.push(field);
      continue;
    }
    const value = s[field];
    switch (field) {
      case 'keys':
        if (!Array.isArray(value)) wrong.push(field);
        break;
      case 'grouping':
        if (typeof value !== 'string' || !(PAPERS_GROUPINGS as readonly string[]).includes(value)) wrong.push(field);
        break;
      case 'unreadOnly':
      case 'starredOnly':
      case 'newOnly':
        if (typeof value !== 'boolean') wrong.push(field);
        break;
      default:
        if (typeof value !== 'string') wrong.push(field);
    }
  }
  return wrong;
}

/**
 * A scope with only well-typed parts (a client may send anything). A part that is there but of
 * another type or value, or a part no scope has (`scopeMistakes`), makes a scope of no paper,
 * never a wider one: `{ keys: 'x' }` dropped to `{}`, or `{ paperKeys: [k] }` read as `{}`,
 * would change every paper of the workspace. No scope at all is every paper. `also`: the other
 * fields the request has beside the scope's.
 */
export function sanitiseScope(scope: unknown, also: readonly string[] = []): import('./readingProtocol').PaperScope {
  if (scope === undefined || scope === null) {
    return {};
  }
  if (scopeMistakes(scope, also).length > 0) {
    return NO_PAPER;
  }
  const s = scope as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  if (s.keys !== undefined) {
    result.keys = (s.keys as unknown[]).filter((key): key is string => typeof key === 'string');
  }
  for (const field of ['uri', 'groupId', 'grouping', 'filter', 'tag'] as const) {
    if (s[field] !== undefined) result[field] = s[field];
  }
  for (const field of ['unreadOnly', 'starredOnly', 'newOnly'] as const) {
    if (s[field] === true) result[field] = true;
  }
  return result;
}

/** The scope of no paper. */
const NO_PAPER: import('./readingProtocol').PaperScope = Object.freeze({ keys: [] });

/** What each field of a change (`PaperStateChange`) must be; other fields are not read. */
const CHANGE_FIELDS: Readonly<Record<string, (value: unknown) => boolean>> = {
  read: (value) => typeof value === 'boolean',
  starred: (value) => typeof value === 'boolean',
  addTags: isTagList,
  removeTags: isTagList,
  note: (value) => typeof value === 'string' || value === null,
};

function isTagList(value: unknown): boolean {
  return Array.isArray(value) && value.every((tag) => typeof tag === 'string');
}

/**
 * The change's known fields, and those given with a type they cannot have (`{ read: "yes" }`,
 * `{ addTags: "x" }`): a change with any of those is refused whole.
 *
 * @example readChange({ read: 'yes', note: null, addTags: ['a', 5] }).wrong // ['read', 'addTags']
 * @example readChange({ stared: true }).unknown // ['stared']
 */
function readChange(given: object): { change: import('./readingProtocol').PaperStateChange; wrong: string[]; unknown: string[] } {
  const c = given as Record<string, unknown>;
  const change: Record<string, unknown> = {};
  const wrong: string[] = [];
  for (const [field, valid] of Object.entries(CHANGE_FIELDS)) {
    if (c[field] === undefined) continue;
    if (valid(c[field])) change[field] = c[field];
    else wrong.push(field);
  }
  // The first 20 named (a change of 20,000 unknown fields named them all).
  const unknown = Object.keys(c)
    .filter((field) => c[field] !== undefined && !Object.hasOwn(CHANGE_FIELDS, field))
    .slice(0, MAX_SCOPE_MISTAKES);
  return { change, wrong, unknown };
}

function clampInteger(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : fallback;
}

/**
 * Scores each paper of a lookup, yielding every few hundred; false when cancelled. A change of
 * the index meanwhile ends it early (true): what is left is scored when the answer is made.
 */
function* scoreEvery(lookup: ModelLookup, token: Cancellation): Generator<void, boolean, void> {
  const generation = lookup.index.generation;
  let count = 0;
  for (const paper of lookup.papers()) {
    lookup.score(paper);
    if ((++count & 511) === 0) {
      yield;
      if (token.isCancellationRequested) return false;
      if (lookup.index.generation !== generation) return true;
    }
  }
  return true;
}


/**
 * The words of the language server's log (the editor's output channel of Paper Digest), each in
 * English and Chinese: what the workspace scan indexed and skipped, the index kept between starts,
 * the worker thread, the reading state's and the interests' files. Part of the command line's
 * table (cliMessages.ts); `logText` gives a line in the language of the server's messages.
 *
 * Paths, a system error's own text and the names of settings are data and stay as they are.
 */
import { bilingual } from './messages';

export const LOG_MESSAGES = {
  // The workspace scan (workspace.ts, clientWorkspace.ts).
  logScanFailed: bilingual('scanning the workspace failed: {reason}', '扫描工作区失败：{reason}'),
  logIndexed: bilingual(
    'indexed {files} {files:digest file|digest files} ({papers} {papers:paper|papers}) in {ms} ms{skipped}.',
    '已索引 {files} 个摘要集文件（{papers} 篇论文），用时 {ms} 毫秒{skipped}。',
  ),
  logIndexedThroughClient: bilingual(
    'indexed {files} {files:digest file|digest files} ({papers} {papers:paper|papers}) through the client in {ms} ms{skipped}.',
    '已通过客户端索引 {files} 个摘要集文件（{papers} 篇论文），用时 {ms} 毫秒{skipped}。',
  ),
  logSkipped: bilingual('; skipped {count}: {reasons}', '；跳过 {count} 个：{reasons}'),
  logFirstFilesOnly: bilingual('indexed the first {max} digest files only.', '只索引了前 {max} 个摘要集文件。'),
  logFirstFoldersOnly: bilingual('searched the first {max} folders only.', '只搜索了前 {max} 个文件夹。'),
  logTooDeep: bilingual(
    'did not search {count} {count:folder|folders} more than {max} {max:level|levels} below a workspace folder.',
    '未搜索 {count} 个位于工作区文件夹下超过 {max} 层的文件夹。',
  ),
  logReadBatchFailed: bilingual('reading {count} digest files failed: {reason}', '读取 {count} 个摘要集文件失败：{reason}'),
  // Why files were skipped, after a count ("3 too big").
  skipTooBig: bilingual('{count} too big', '{count} 个过大'),
  skipSpecial: bilingual('{count} {count:not a regular file (a FIFO, socket or device)|not regular files (FIFOs, sockets, devices)}', '{count} 个不是普通文件（FIFO、套接字或设备）'),
  skipLink: bilingual('{count} {count:symbolic link|symbolic links} (never followed)', '{count} 个符号链接（从不跟随）'),
  skipAnotherName: bilingual('{count} {count:other name (a hard link) of a file indexed|other names (hard links) of files indexed}', '{count} 个已索引文件的其他名称（硬链接）'),
  skipMissing: bilingual('{count} gone meanwhile', '{count} 个期间已消失'),
  skipUnreadable: bilingual('{count} unreadable', '{count} 个无法读取'),
  skipNotUtf8: bilingual('{count} not UTF-8 text', '{count} 个不是 UTF-8 文本'),
  skipFolderNow: bilingual('{count} {count:a folder now|folders now}', '{count} 个现在是文件夹'),
  skipOutside: bilingual('{count} outside the workspace folders', '{count} 个在工作区文件夹之外'),
  skipNameNotUtf8: bilingual('{count} named in bytes that are not UTF-8 ({count:rename it to read it|rename them to read them})', '{count} 个的名称不是 UTF-8 文本（重命名后才能读取）'),

  // The first start's read for the Papers tree's first level (workspace.ts, firstLevelRead.ts).
  logEarlyKept: bilingual(
    'the index kept at the last start has {unchanged} of the {digests} {digests:digest file|digest files} as {digests:it is|they are}',
    '上次启动时保留的索引中，{digests} 个摘要集文件有 {unchanged} 个未变',
  ),
  logEarlyReadNoneKept: bilingual(
    "no index was kept at an earlier start (the first start, or one after an update): {others} of the {digests} {digests:digest file|digest files} {others:was|were} read for the Papers tree's first level ({byWorker} by a worker thread), {inFull} in full ({ms} ms){skipped}.",
    '之前的启动没有保留索引（首次启动，或更新后的启动）：{digests} 个摘要集文件中有 {others} 个为论文视图的第一层读取（其中 {byWorker} 个由工作线程读取），{inFull} 个完整读取（{ms} 毫秒）{skipped}。',
  ),
  logEarlyRead: bilingual(
    "{kept}; {others} {others:other was|others were} read for the Papers tree's first level ({byWorker} by a worker thread), {inFull} in full ({ms} ms){skipped}.",
    '{kept}；另有 {others} 个为论文视图的第一层读取（其中 {byWorker} 个由工作线程读取），{inFull} 个完整读取（{ms} 毫秒）{skipped}。',
  ),
  logEarlyFailed: bilingual('reading the index kept at the last start failed: {reason}', '读取上次启动时保留的索引失败：{reason}'),
  logWorkerFailed: bilingual(
    'the worker thread reading the digests failed ({reason}); the files it took and did not send are read in full.',
    '读取摘要集的工作线程失败（{reason}）；它取走而未送回的文件将完整读取。',
  ),
  logNoWorker: bilingual('no worker thread to read the digests with ({reason}); this thread reads them.', '没有可用来读取摘要集的工作线程（{reason}）；由本线程读取。'),

  // The index kept between starts (keptIndexDisk.ts).
  logKeptFolderNotAbsolute: bilingual('keptIndexFolder must be an absolute path, not {folder}: no index is kept between starts.', 'keptIndexFolder 必须是绝对路径，而不是 {folder}：启动之间不保留索引。'),
  logKeptFolderNotFolder: bilingual('the index is not kept for the next start: keptIndexFolder {folder} is there and is not a folder.', '不为下次启动保留索引：keptIndexFolder {folder} 已存在，且不是文件夹。'),
  logKeptNotOurs: bilingual(
    'the index is not kept for the next start: {file} is there and is not an index this server keeps; it is left as it is.',
    '不为下次启动保留索引：{file} 已存在，且不是本服务器保留的索引；它保持原样。',
  ),
  logKeptNotOursWritten: bilingual(
    'the index was not kept for the next start: {file} is there and is not an index this server keeps; it is left as it is.',
    '未能为下次启动保留索引：{file} 已存在，且不是本服务器保留的索引；它保持原样。',
  ),
  logKeptForeign: bilingual(
    '{file} is not an index this server keeps: it is left as it is, and no index is kept between starts.',
    '{file} 不是本服务器保留的索引：它保持原样，启动之间不保留索引。',
  ),
  logKeptNotRead: bilingual('the index kept at the last start ({file}) was not read: {reason}.', '上次启动时保留的索引（{file}）未能读取：{reason}。'),
  logKeptNotWhole: bilingual('the index kept at the last start ({file}) is not used: it is not whole; it is made again.', '上次启动时保留的索引（{file}）未被使用：它不完整；将重新生成。'),
  logKeptOtherVersion: bilingual(
    'the index kept at the last start ({file}) is not used: another version of the server kept it; it is made again.',
    '上次启动时保留的索引（{file}）未被使用：它由另一版本的服务器保留；将重新生成。',
  ),
  logKeptNotWritten: bilingual('the index was not kept for the next start ({file}): {reason}.', '未能为下次启动保留索引（{file}）：{reason}。'),
  logKeptTooBig: bilingual('the index was not kept for the next start: it would be bigger than {max} MB.', '未为下次启动保留索引：它将大于 {max} MB。'),

  // The reading workflow's files (reading.ts) and the client (server.ts).
  logCarryFailed: bilingual('carrying the reading state of a corrected title in {location} failed: {reason}', '为 {location} 中改过的标题转移阅读状态失败：{reason}'),
  logReadingFailed: bilingual('reading {location} failed: {reason}', '读取 {location} 失败：{reason}'),
  logInterestsFailed: bilingual('loading the interests failed: {reason}', '加载兴趣设置失败：{reason}'),
  logInterestsSetting: bilingual('the setting paperDigest.interests of {folder}: {problem}', '{folder} 的设置 paperDigest.interests：{problem}'),
  logInterestsFile: bilingual('the interests in {file}: {problem}', '{file} 中的兴趣设置：{problem}'),
  interestsLeftOut: bilingual(
    'Paper Digest: some interests are left out of the ranking: {where}: {problem}{more}',
    'Paper Digest：部分兴趣未用于排序：{where}：{problem}{more}',
  ),
  interestsSettingOf: bilingual('the setting paperDigest.interests of {folder}', '{folder} 的设置 paperDigest.interests'),
  interestsFileAt: bilingual('the file {file}', '文件 {file}'),
  interestsMore: bilingual(' (and {count} more, in the Paper Digest output)', '（另有 {count} 个，见 Paper Digest 输出）'),
  logNoWatchers: bilingual('the client did not take the file watchers: {reason}', '客户端未接受文件监视：{reason}'),
} as const;

/**
 * The words of file and state-file problems, each in English and Chinese: why a file cannot be
 * read or written (fs/safeFile.ts, fs/lockFile.ts, the command line's search for digests), what
 * is wrong in a state file (reading/stateFile.ts) or in interests (reading/interests.ts), and
 * the state store's sentences around them (reading/stateStore.ts). Part of the command line's
 * table (cliMessages.ts); the language server shows the same messages in the editor.
 *
 * What is data stays as found and is passed as a value: paths, a system error's own text for a
 * code not named here (`EIO: i/o error, read`), JSON.parse's message with its position, a
 * field's name, a version as written.
 */
import { bilingual } from './messages';

export const FILE_MESSAGES = {
  // Why a file cannot be read or written (after "cannot read 'x': ").
  cannotRead: bilingual("cannot read '{path}': {reason}", '无法读取“{path}”：{reason}'),
  cannotReadFolder: bilingual("cannot read folder '{path}': {reason}", '无法读取文件夹“{path}”：{reason}'),
  noDigestFiles: bilingual("no digest files in '{path}'", '“{path}”中没有摘要集文件'),
  cannotWriteOutput: bilingual('cannot write the output: {reason}', '无法写出输出：{reason}'),
  currentFolderGone: bilingual('the current folder no longer exists (it was removed or moved): change to a folder that does, then run the command again', '当前文件夹已不存在（已被删除或移动）：请切换到存在的文件夹后再运行此命令'),
  cannotWriteLeft: bilingual("cannot write '{path}': {reason}; it was left as it is", '无法写入“{path}”：{reason}；文件保持原样'),
  tooManyToFix: bilingual("not fixed '{path}': it has more than {max} problems, more than fixing all at once works on; it was left as it is", '未修复“{path}”：其中问题超过 {max} 个，超出一次修复全部所能处理的数量；文件保持原样'),
  linkOutsideRoot: bilingual("it is a symbolic link to outside '{root}'", '它是指向“{root}”之外的符号链接'),
  notFileUrl: bilingual('it is not a file URL of this machine ({detail})', '它不是本机的文件 URL（{detail}）'),
  fileUrlQuery: bilingual('a file URL with a query or a fragment (?… or #…) names no file', '带查询或片段（?… 或 #…）的文件 URL 不指向任何文件'),
  emptyPath: bilingual('an empty path names no file', '空路径不指向任何文件'),
  notUtf8: bilingual('it is not UTF-8 text', '它不是 UTF-8 文本'),
  nameNotUtf8: bilingual('its name is not UTF-8 text; rename it to read it', '它的名称不是 UTF-8 文本；重命名后才能读取'),
  missingOrNameNotUtf8: bilingual(
    'no such file or folder (a name that is not UTF-8 text cannot be given here: give its folder, or rename it)',
    '没有这个文件或文件夹（名称不是 UTF-8 文本的文件无法在此给出：请给出它所在的文件夹，或重命名它）',
  ),
  isLink: bilingual('it is a symbolic link', '它是符号链接'),
  linkTo: bilingual('it is a symbolic link to {kind}', '它是指向{kind}的符号链接'),
  notRegular: bilingual('it is {kind}, not a regular file', '它是{kind}，不是普通文件'),
  tooBig: bilingual('it is bigger than {max} ({size})', '它大于 {max}（{size}）'),
  grewTooBig: bilingual('it grew bigger than {max} while it was read', '读取期间它变得大于 {max}'),
  replacedWhileOpened: bilingual('it was replaced while it was being opened', '打开期间它被替换了'),
  neverThroughLink: bilingual('it is a symbolic link: links are never written through', '它是符号链接：从不经由链接写入'),
  createdMeanwhile: bilingual('it was created by someone else meanwhile', '此间它已被他人创建'),
  deletedMeanwhile: bilingual('it was deleted or moved since it was read', '读取之后它被删除或移动了'),
  hasOtherNames: bilingual('it has {count:another name|other names} (hard links), which replacing it would separate from it', '它还有 {count} 个其他名称（硬链接），替换它会使它们分离'),
  readOnlyFile: bilingual('it is read-only (no one may write it)', '它是只读的（任何人都不可写入）'),
  readOnlyFolder: bilingual('its folder is read-only (no one may write in it)', '它所在的文件夹是只读的（任何人都不可在其中写入）'),
  workspaceFolderGone: bilingual("its workspace folder '{root}' is gone (moved, deleted or unmounted)", '它所在的工作区文件夹“{root}”已不存在（被移动、删除或卸载）'),
  workspaceFolderReplaced: bilingual(
    "its workspace folder '{root}' is no longer the folder it was (moved, another folder or a link put at its path): reload the window to use the one there now",
    '它所在的工作区文件夹“{root}”已不是原来的文件夹（被移动，原处换成了另一个文件夹或链接）：重新加载窗口后才能使用现在的文件夹',
  ),
  changedMeanwhile: bilingual('it changed since it was read', '读取之后它被改动了'),
  openForWriting: bilingual('another program has it open for writing (it may be writing it still): try again once it is done', '另一个程序正以写入方式打开它（可能仍在写入）：待其完成后再试'),
  // A digest read whole but past a limit of what is read (limits.ts): it lists no papers.
  leftOut: bilingual("'{path}' is left out: {reason}", '已略去“{path}”：{reason}'),
  pastCharacters: bilingual('it has {size} characters, more than the {max} Paper Digest reads', '它有 {size} 个字符，超过 Paper Digest 读取的上限 {max}'),
  pastLines: bilingual('it has {size} lines, more than the {max} Paper Digest reads', '它有 {size} 行，超过 Paper Digest 读取的上限 {max} 行'),
  pastLineLength: bilingual('its line {line} has {size} characters, more than the {max} Paper Digest reads in a line', '它的第 {line} 行有 {size} 个字符，超过 Paper Digest 单行读取的上限 {max}'),
  changedWhileReplaced: bilingual('another process changed it while it was being replaced; that version is kept as {saved}', '替换期间另一个进程改动了它；那个版本保存为 {saved}'),

  // What a non-regular file is.
  kindFolder: bilingual('a folder', '文件夹'),
  kindFifo: bilingual('a FIFO', '命名管道（FIFO）'),
  kindSocket: bilingual('a socket', '套接字'),
  kindCharacterDevice: bilingual('a character device', '字符设备'),
  kindBlockDevice: bilingual('a block device', '块设备'),
  kindLink: bilingual('a symbolic link', '符号链接'),
  kindOther: bilingual('not a regular file', '非普通文件'),

  // System errors, by code; another code's own text is kept (`systemOther`).
  systemMissing: bilingual('no such file or folder', '没有这个文件或文件夹'),
  systemNotFolder: bilingual('its path goes through a file as if it were a folder', '它的路径把一个文件当作文件夹'),
  systemPermission: bilingual('permission denied', '权限不足'),
  systemIsFolder: bilingual('it is a folder', '它是文件夹'),
  systemReadOnly: bilingual('read-only file system', '只读文件系统'),
  systemNoSpace: bilingual('no space left on the device', '设备上没有剩余空间'),
  systemQuota: bilingual('disk quota exceeded', '超出磁盘配额'),
  systemFileSize: bilingual('the file is bigger than the file-size limit', '文件超出文件大小限制'),
  systemLoop: bilingual('too many levels of symbolic links', '符号链接层数过多'),
  systemNameTooLong: bilingual('the name is too long', '名称过长'),
  systemIo: bilingual('an input/output error of the disk or its file system', '磁盘或其文件系统发生输入/输出错误'),
  systemInvalid: bilingual('the system cannot read it as a file', '系统无法将其作为文件读取'),
  systemNulInPath: bilingual('its path holds a NUL character', '其路径含有 NUL 字符'),
  systemOther: bilingual('{detail}', '系统错误：{detail}'),

  // The state folder and its lock (stateDisk.ts, fs/lockFile.ts, the web client's file access).
  linkNotFollowed: bilingual('{path} is a symbolic link, which Paper Digest does not follow', '{path} 是符号链接，Paper Digest 不跟随符号链接'),
  notAFolderPath: bilingual('{path} is not a folder', '{path} 不是文件夹'),
  notARegularFile: bilingual('{path} is not a regular file', '{path} 不是普通文件'),
  liesOutside: bilingual('{path} lies outside {root}', '{path} 位于 {root} 之外'),
  biggerThanBytes: bilingual('{path} is bigger than {max} bytes', '{path} 大于 {max} 字节'),
  notAStateFile: bilingual('{path} is not a state file of a workspace folder', '{path} 不是工作区文件夹的状态文件'),
  lockNotAFile: bilingual('{lock} is not a lock file of Paper Digest (it is not a regular file); remove it to write {path}', '{lock} 不是 Paper Digest 的锁文件（它不是普通文件）；删除它才能写入 {path}'),
  lockHeld: bilingual('{path} is being written by another process ({lock} is held)', '{path} 正被另一个进程写入（{lock} 被占用）'),

  // The state store's sentences (the reason in parentheses or after the colon is one of the above).
  stateCannotRead: bilingual('{location} cannot be read ({reason}); reading state is read-only', '{location} 无法读取（{reason}）；阅读状态为只读'),
  stateCorrupt: bilingual(
    '{location} is corrupt: {reason}; it is left untouched and reading state is read-only until it is fixed',
    '{location} 已损坏：{reason}；文件保持原样，修复之前阅读状态为只读',
  ),
  stateUnusable: bilingual(
    '{location} cannot be used: {reason}; it is left untouched and reading state is read-only until it is fixed',
    '{location} 无法使用：{reason}；文件保持原样，修复之前阅读状态为只读',
  ),
  stateCannotWrite: bilingual('{location} cannot be written: {reason}; reading state is read-only', '{location} 无法写入：{reason}；阅读状态为只读'),
  stateNotWritten: bilingual('{location} could not be written: {reason}; nothing was changed', '{location} 无法写入：{reason}；未做任何更改'),
  tagTooLong: bilingual('the tag {tag} is longer than {max} characters; nothing was changed', '标签 {tag} 超过 {max} 个字符；未做任何更改'),
  noteTooLong: bilingual('the note is longer than {max} characters ({length}); nothing was changed', '笔记超过 {max} 个字符（{length} 个）；未做任何更改'),
  tagAddedAndRemoved: bilingual('the tag {tag} is both added and removed; nothing was changed', '标签 {tag} 既被添加又被移除；未做任何更改'),
  tooManyTags: bilingual('a paper would have more than {max} tags; nothing was changed', '一篇论文的标签将超过 {max} 个；未做任何更改'),
  lockLost: bilingual("the lock on '{path}' was broken as stale while this writer stood still, and another may have written it since", '写入者停顿期间“{path}”的锁被视为过期而解除，其他写入者可能已写入该文件'),
  stateWouldBeTooComplex: bilingual('{location} would hold more than {max} arrays and objects, which no read of it takes; nothing was changed', '{location} 将包含超过 {max} 个数组和对象，读取时会被拒绝；未做任何更改'),
  stateWouldBeTooBig: bilingual('{location} would be bigger than {max}; nothing was changed', '{location} 将大于 {max}；未做任何更改'),
  stateEmptyJustNow: bilingual(
    'it is empty and was changed {seconds} s ago, as a program rewriting it in place leaves it; it is taken as empty once {settle} s old',
    '它是空的，且在 {seconds} 秒前刚被更改，像是有程序正在原地重写它；满 {settle} 秒后才视为空',
  ),
  stateKeptChanging: bilingual('{location} kept changing while it was written; nothing was changed, try again', '{location} 在写入期间一直在变化；未做任何更改，请重试'),

  // What is wrong in a state file (reading/stateFile.ts).
  notJson: bilingual('not valid JSON ({detail})', '不是有效的 JSON（{detail}）'),
  topNotObject: bilingual('the top level is not a JSON object', '顶层不是 JSON 对象'),
  nestedTooDeep: bilingual('its field "{field}" nests values more than {max} deep', '其字段 "{field}" 的值嵌套超过 {max} 层'),
  tooManyContainers: bilingual('it holds more than {max} arrays and objects, more than any state of papers', '它包含超过 {max} 个数组和对象，多于任何论文状态所需'),
  noVersion: bilingual('it has no "version" field', '没有 "version" 字段'),
  unknownVersion: bilingual('its version {version} is not one this version of Paper Digest knows ({known})', '其版本 {version} 不是此版本 Paper Digest 认识的版本（{known}）'),
  papersNotObject: bilingual('"papers" is not an object', '"papers" 不是对象'),
  keyTwice: bilingual('"{key}" is written twice (a reader would keep one and lose the other)', '"{key}" 出现了两次（读取时会保留一个而丢失另一个）'),
  paperKeyTwice: bilingual('{paper} is written twice in "papers" (a reader would keep one and lose the other)', '{paper} 在 "papers" 中出现了两次（读取时会保留一个而丢失另一个）'),
  fieldTwice: bilingual('{paper}: "{field}" is written twice (a reader would keep one and lose the other)', '{paper}："{field}" 出现了两次（读取时会保留一个而丢失另一个）'),
  emptyPaperKey: bilingual('a paper has an empty key', '有一篇论文的键为空'),
  paperNamed: bilingual('paper {key}', '论文 {key}'),
  paperNotObject: bilingual('{paper} is not an object', '{paper} 不是对象'),
  fieldNotString: bilingual('{paper}: "{field}" is not a string', '{paper}："{field}" 不是字符串'),
  fieldNotDate: bilingual('{paper}: "{field}" is not a date', '{paper}："{field}" 不是日期'),
  fieldNotBoolean: bilingual('{paper}: "{field}" is not true or false', '{paper}："{field}" 不是 true 或 false'),
  fieldNotStrings: bilingual('{paper}: "{field}" is not a list of strings', '{paper}："{field}" 不是字符串列表'),

  // Interests (reading/interests.ts) and interests.json.
  interestsNotObject: bilingual('the interests are not an object', '兴趣设置不是对象'),
  interestsNotList: bilingual('"{field}" is not a list', '"{field}" 不是列表'),
  interestsNoTerm: bilingual('an item of "{field}" has no term', '"{field}" 中有一项没有 term'),
  interestsBadWeight: bilingual('the weight of {term} is not a number from -1000 to 1000', '{term} 的 weight 不是 -1000 到 1000 之间的数字'),
  interestsBadCategory: bilingual('the category {term} can match no paper: a code (cs.CL), a whole archive (cs.*) or a category name', '分类 {term} 匹配不到任何论文：请写代码（cs.CL）、整个大类（cs.*）或分类名称'),
  interestsTooMany: bilingual('more than {max} interests: the rest is ignored', '兴趣超过 {max} 个：其余的被忽略'),
  interestsUnknownField: bilingual('unknown field "{field}"', '未知字段 "{field}"'),
  interestsHideBelow: bilingual('"hideBelow" is not a number', '"hideBelow" 不是数字'),
  interestsFileNotJson: bilingual('{path} is not valid JSON ({detail}); papers are not ranked by it', '{path} 不是有效的 JSON（{detail}）；不按它给论文排序'),
  interestsFileProblem: bilingual('{path}: {problem}', '{path} 有误：{problem}'),
  interestsCannotRead: bilingual('{path} cannot be read ({reason}); papers are not ranked by it', '{path} 无法读取（{reason}）；不按它给论文排序'),
  interestsUnknownItemField: bilingual('unknown field "{key}" in an item of "{field}"', '"{field}" 的一项中有未知字段 "{key}"'),
} as const;

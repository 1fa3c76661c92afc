/**
 * `--lang` for every command of the command line, parsed in one place: `both` (the default),
 * `en`, `zh-cn`, or `auto` (Chinese when `LC_ALL`, `LC_MESSAGES` or `LANG` names a Chinese
 * locale), the values of the setting `paperDigest.messageLanguage`. Usage errors carry their
 * message in both languages and are printed as one line in the language asked for.
 */
import { packageVersion, printable } from './cliFiles';
import { choices, cliHelp, cliText, HelpKey, MessageRef, messageText } from './service/cliMessages';
import { Bilingual, DEFAULT_MESSAGE_LANGUAGE, isMessageLanguageSetting, MESSAGE_LANGUAGE_SETTINGS, MessageLanguage, pick, resolveMessageLanguage, say } from './service/messages';

/** Bad usage, with its message in both languages. */
export class CliUsageError extends Error {
  constructor(readonly text: Bilingual) {
    super(text.en);
  }
}

/** What every command answers without doing its work: its help, or the version. */
export type InfoRequest = 'help' | 'version';

/** The request an option makes for the help (`-h`, `--help`) or the version (`-V`, `--version`), if it is one of those. */
export function infoRequest(arg: string): InfoRequest | undefined {
  return arg === '-h' || arg === '--help' ? 'help' : arg === '-V' || arg === '--version' ? 'version' : undefined;
}

/** Prints a command's help (in the language `args` ask for) or the version, and returns the exit status, 0. */
export function infoAnswer(out: { stdout(text: string): void }, request: InfoRequest, help: HelpKey, args: readonly string[]): number {
  out.stdout(request === 'help' ? cliHelp(help, requestedLanguage(args)) : `${packageVersion()}\n`);
  return 0;
}

/** The display language of the environment, for `auto`. */
export function environmentLocale(): string | undefined {
  return process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG;
}

/** The options of each command: an option's value is never one of its command's options. */
export const COMMAND_OPTIONS = {
  check: new Set(['--lang', '--format', '--fix', '--help', '--version']),
  stats: new Set(['--lang', '--format', '--help', '--version']),
  papers: new Set(['--lang', '--format', '--filter', '--tag', '--sort', '--unread', '--starred', '--new', '--help', '--version']),
  mark: new Set(['--lang', '--title', '--id', '--note', '--tag', '--untag', '--help', '--version']),
} as const;

/** Every command's options, for `--lang`, whose value is never an option. */
const ALL_OPTIONS: ReadonlySet<string> = new Set(Object.values(COMMAND_OPTIONS).flatMap((names) => [...names]));

/**
 * The argument after `args[i]`, as the value of the option there (`--tag VALUE`); undefined when
 * there is none, or when it is one of the command's options (`papers --tag --lang zh-cn`: the tag
 * is missing, and `--lang` still counts). A value that starts so is given as `--tag=--lang`.
 *
 * @example separateValue(['--tag', '--lang', 'zh-cn'], 0, COMMAND_OPTIONS.papers) // undefined
 */
export function separateValue(args: readonly string[], i: number, options: ReadonlySet<string> = ALL_OPTIONS): string | undefined {
  const value = args[i + 1];
  return value === undefined || options.has(value.split('=')[0]) ? undefined : value;
}

/**
 * `--lang VALUE` or `--lang=VALUE` at `args[i]`: the language and the index of the option's
 * last argument; `undefined` when `args[i]` is another argument. A missing or unknown value
 * throws a CliUsageError.
 *
 * @example languageOption(['--lang', 'zh-cn', 'a.digest'], 0) // { language: 'zh-cn', next: 1 }
 */
export function languageOption(args: readonly string[], i: number): { language: MessageLanguage; next: number } | undefined {
  const arg = args[i];
  if (arg !== '--lang' && !arg.startsWith('--lang=')) {
    return undefined;
  }
  const value = arg === '--lang' ? separateValue(args, i) : arg.slice('--lang='.length);
  const values = choices(MESSAGE_LANGUAGE_SETTINGS);
  if (!isMessageLanguageSetting(value)) {
    throw new CliUsageError(value === undefined ? cliText('needsValueOf', { option: '--lang', values }) : cliText('unknownLanguage', { value: printable(value), values }));
  }
  return { language: resolveMessageLanguage(value, environmentLocale()), next: arg === '--lang' ? i + 1 : i };
}

/**
 * The language the arguments ask for, to word a usage error found before `--lang` was read:
 * that of the last valid `--lang` before `--`, else the default.
 */
export function requestedLanguage(args: readonly string[]): MessageLanguage {
  let language = DEFAULT_MESSAGE_LANGUAGE;
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    try {
      const found = languageOption(args, i);
      if (found) {
        language = found.language;
        i = found.next;
      }
    } catch {
      // An unknown value is the usage error itself; it is worded in the default.
    }
  }
  return language;
}

/**
 * Prints a usage error as one line on standard error, with where to read more (the help of
 * `command`, or the general help), and returns the exit status 2.
 *
 * @example usageError(out, 'papers', error, 'zh-cn') // paper-digest: 未知排序“date”：请用 rank 或 file（见“paper-digest papers --help”）
 */
export function usageError(out: { stderr(text: string): void }, command: string | undefined, error: CliUsageError, language: MessageLanguage): number {
  const see = command === undefined ? cliText('seeHelp') : cliText('seeCommandHelp', { command });
  const line = { en: `${error.text.en} (${see.en})`, zh: `${error.text.zh}（${see.zh}）` };
  out.stderr(`paper-digest: ${say(line, language)}\n`);
  return 2;
}

/**
 * A file's or the state file's problem as the command line prints it after `paper-digest: `:
 * Chinese for `zh-cn`, English for `en` and `both` (a sentence with a path in it, kept to one
 * language as `check`'s summary line and as the editor's notifications are). What is data in it
 * (paths, a system error's own text, JSON.parse's message) is as found.
 *
 * @example problemText(message('cannotRead', { path: 'a.digest', reason: message('systemMissing') }), 'zh-cn') // "无法读取 'a.digest'：没有这个文件或文件夹"
 */
export function problemText(problem: MessageRef, language: MessageLanguage): string {
  return pick(messageText(problem), language);
}

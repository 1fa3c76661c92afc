/**
 * The language of the server's messages (diagnostics, related information, code action titles,
 * tree labels, CLI output), chosen in one place.
 *
 * Every message is written once in English and once in Chinese; `say` puts them together the way
 * the setting `paperDigest.messageLanguage` asks: `both` (the default) gives `English — 中文`,
 * `en` the English alone, `zh-cn` the Chinese alone. `auto` follows the display language, the
 * `locale` of LSP's `initialize` params (or the CLI's environment).
 */

/** How a message is shown. */
export type MessageLanguage = 'both' | 'en' | 'zh-cn';

/** The setting's values: a language, or `auto` for the display language. */
export const MESSAGE_LANGUAGE_SETTINGS = ['both', 'en', 'zh-cn', 'auto'] as const;
export type MessageLanguageSetting = (typeof MESSAGE_LANGUAGE_SETTINGS)[number];

/** The default: both languages, as the digests themselves are. */
export const DEFAULT_MESSAGE_LANGUAGE: MessageLanguage = 'both';

/** A message in both languages. */
export interface Bilingual {
  readonly en: string;
  readonly zh: string;
}

/** A message in both languages, e.g. `bilingual('Swap the two titles', '交换中英文标题')`. */
export function bilingual(en: string, zh: string): Bilingual {
  return { en, zh };
}

/**
 * The message as `language` shows it.
 *
 * @example say(bilingual('Unbalanced brackets', '括号不配对'))          // 'Unbalanced brackets — 括号不配对'
 * @example say(bilingual('Unbalanced brackets', '括号不配对'), 'zh-cn') // '括号不配对'
 */
export function say(message: Bilingual, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): string {
  switch (language) {
    case 'en':
      return message.en;
    case 'zh-cn':
      return message.zh;
    default:
      return `${message.en} — ${message.zh}`;
  }
}

/**
 * For texts that are English alone today (tree labels, CLI headings): Chinese for `zh-cn`, else
 * English.
 *
 * @example pick(bilingual('Recommended', '推荐'), 'both') // 'Recommended'
 */
export function pick(message: Bilingual, language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE): string {
  return language === 'zh-cn' ? message.zh : message.en;
}

/**
 * Punctuation around words in `language`: full-width in Chinese alone (`zh-cn`), as `pick` gives
 * its words; `both` and `en` keep the English marks.
 *
 * @example PUNCTUATION.colon('zh-cn')            // '：'
 * @example PUNCTUATION.bracketed('3 个', 'zh-cn') // '（3 个）'
 * @example PUNCTUATION.bracketed('3 more', 'en')  // ' (3 more)'
 */
export const PUNCTUATION = {
  /** Before what a label names: `Tags: …`, `标签：…`. */
  colon: (language: MessageLanguage): string => (language === 'zh-cn' ? '：' : ': '),
  /** Between the items of a list. */
  comma: (language: MessageLanguage): string => (language === 'zh-cn' ? '，' : ', '),
  /** Words in brackets after others, with the space English puts before them. */
  bracketed: (text: string, language: MessageLanguage): string => (language === 'zh-cn' ? `（${text}）` : ` (${text})`),
};

/**
 * The language of the messages from the setting and the display language. Anything but a known
 * setting counts as the default; `auto` gives Chinese for a Chinese locale (`zh-cn`, `zh-Hans`,
 * `zh_CN.UTF-8`, `zh`, and the traditional ones too, which read the simplified text better than
 * English), English for any other locale, and both when there is none.
 *
 * @example resolveMessageLanguage('auto', 'zh-cn') // 'zh-cn'
 * @example resolveMessageLanguage('auto', 'de')    // 'en'
 * @example resolveMessageLanguage(undefined, 'en') // 'both'
 */
export function resolveMessageLanguage(setting: unknown, locale: string | undefined): MessageLanguage {
  switch (setting) {
    case 'en':
    case 'zh-cn':
    case 'both':
      return setting;
    case 'auto': {
      if (!locale || locale === 'C' || locale === 'POSIX') {
        return DEFAULT_MESSAGE_LANGUAGE;
      }
      return /^zh(?:$|[-_])/i.test(locale.trim()) ? 'zh-cn' : 'en';
    }
    default:
      return DEFAULT_MESSAGE_LANGUAGE;
  }
}

/** Whether `value` is a value of the setting (the CLI's `--lang` takes the same). */
export function isMessageLanguageSetting(value: unknown): value is MessageLanguageSetting {
  return typeof value === 'string' && (MESSAGE_LANGUAGE_SETTINGS as readonly string[]).includes(value);
}

/**
 * The rule pages in the message language: the Chinese pages are in `zh-cn/` below the English
 * ones; `both` and `en` link the English pages.
 *
 * @example rulesDocsFor('file:///ext/docs/rules/', 'zh-cn') // 'file:///ext/docs/rules/zh-cn/'
 */
export function rulesDocsFor(base: string, language: MessageLanguage): string {
  return language === 'zh-cn' ? `${base}zh-cn/` : base;
}

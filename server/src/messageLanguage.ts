/**
 * The server's message language: the setting `paperDigest.messageLanguage` (`both`, `en`,
 * `zh-cn` or `auto`) read from the client, with `auto` resolved by the `locale` of the
 * `initialize` params. Diagnostics, code actions and the Papers tree ask `current()`; the
 * settings they wait for are asked only after `ready()`, so the first answers are already in the
 * chosen language.
 */
import { DEFAULT_MESSAGE_LANGUAGE, MessageLanguage, resolveMessageLanguage } from './service/messages';

/** The setting's section. */
export const MESSAGE_LANGUAGE_SECTION = 'paperDigest.messageLanguage';

export class ServerMessageLanguage {
  private locale: string | undefined;
  private value: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE;
  private loading: Promise<void> | undefined;
  private readDone = false;

  /** `read` asks the client for a section (or answers from the pushed settings). */
  constructor(private readonly read: (section: string) => Promise<unknown>) {}

  /** The display language the client announced in `initialize`. */
  setLocale(locale: string | undefined): void {
    this.locale = typeof locale === 'string' ? locale : undefined;
    this.value = resolveMessageLanguage(DEFAULT_MESSAGE_LANGUAGE, this.locale);
  }

  /** The language of the messages as last read. */
  current(): MessageLanguage {
    return this.value;
  }

  /** Resolves once the setting is read (a failed read keeps the default). */
  ready(): Promise<void> {
    if (!this.loading) {
      const loading: Promise<void> = this.read(MESSAGE_LANGUAGE_SECTION).then(
        (setting) => {
          this.value = resolveMessageLanguage(setting ?? DEFAULT_MESSAGE_LANGUAGE, this.locale);
        },
        () => undefined,
      );
      this.loading = loading;
      void loading.then(() => {
        // Read, unless a change of the settings asked for it again meanwhile.
        if (this.loading === loading) this.readDone = true;
      });
    }
    return this.loading;
  }

  /** Whether the setting is read (`ready()` would resolve at once). */
  get settled(): boolean {
    return this.readDone;
  }

  /** The settings changed: read the setting again (`ready()` waits for it). */
  configurationChanged(): void {
    this.loading = undefined;
    this.readDone = false;
    void this.ready();
  }
}
